/* The registry of the games' boards.  A game's script registers its board (render(live, boardEl))
 * under the game's slug, and may add parts drawn after it on the live table (drawPart(live)); the live
 * table and the replay viewer look the board up here by the page's game. */

const boards = new Map();
const parts = new Map();

export function registerBoard(slug, board) { boards.set(slug, board); }

export function boardFor(slug) { return boards.get(slug) || null; }

/* A part the live table draws after the game's board on every redraw (not in a replay). */
export function registerBoardPart(slug, drawPart) {
  if (!parts.has(slug)) parts.set(slug, []);
  parts.get(slug).push(drawPart);
}

export function boardParts(slug) { return parts.get(slug) || []; }
