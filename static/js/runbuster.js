/* The runbuster board: drawn by the game's renderer (window.GameRenderers.runbuster). */
