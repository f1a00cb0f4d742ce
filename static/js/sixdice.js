/* The sixdice board: drawn by the game's renderer (window.GameRenderers.sixdice). */
