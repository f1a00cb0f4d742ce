/* The registry of the games' boards.  A game's script registers its board under the game's slug:
 *   registerBoard(slug, {render, face, whyWon, coachKind, lesson})
 * - render(live, boardEl): draws the board (the live table, the screen and the replay viewer);
 * - face(v): a die value as the game writes it (default: the plain number);
 * - whyWon(view, names): one line on who won and why once the game is over ("" while it goes on); names(seats)
 *   joins the winners' names in the page's language;
 * - coachKind(view): the kind of prompt this phone faces now, for a coached first game ("wait", "over", the
 *   game's own kinds; null: nothing to say);
 * - lesson: the lesson page's hooks, {draw(d, ctx), waitsForRoll(d)} (static/js/lesson.js says what they get).
 * A game may add parts drawn after its board on the live table (drawPart(live)).  The shared scripts ask the
 * board through the functions below and never name a game. */

const boards = new Map();
const parts = new Map();

export function registerBoard(slug, board) { boards.set(slug, board); }

export function boardFor(slug) { return boards.get(slug) || null; }

/* A die value as the game writes it. */
export function faceText(slug, v) {
  const board = boards.get(slug);
  return board && board.face ? board.face(v) : String(v);
}

/* Why the winners won, in one line; "" while the game goes on or where the game says nothing. */
export function whyWon(slug, view, names) {
  const board = boards.get(slug);
  return board && board.whyWon ? board.whyWon(view, names) || "" : "";
}

/* The kind of prompt a coached phone faces now, or null. */
export function coachKind(slug, view) {
  const board = boards.get(slug);
  return board && board.coachKind ? board.coachKind(view) : null;
}

/* The game's lesson hooks, or null. */
export function lessonFor(slug) {
  const board = boards.get(slug);
  return (board && board.lesson) || null;
}

/* A part the live table draws after the game's board on every redraw (not in a replay). */
export function registerBoardPart(slug, drawPart) {
  if (!parts.has(slug)) parts.set(slug, []);
  parts.get(slug).push(drawPart);
}

export function boardParts(slug) { return parts.get(slug) || []; }
