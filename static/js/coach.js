/* A coached first game (the table's "new players" option): a one-line note the first time this phone meets
 * each kind of prompt (remembered in localStorage).  It reads the live table and touches nothing else. */
import {coachKind} from "./game_boards.js";
import {live} from "./live.js";

const app = document.getElementById("app");
const box = document.getElementById("coach-note");
const strings = document.getElementById("coach-i18n");
if (app && box && strings) coach(app, box, strings);

function coach(app, box, strings) {
  const T = JSON.parse(strings.textContent);
  const game = app.dataset.game;
  const seenKey = (kind) => "coach:" + game + ":" + kind;
  const seen = (kind) => { try { return localStorage.getItem(seenKey(kind)) === "1"; } catch (e) { return false; } };
  let shown = null;

  function check() {
    const coached = live && live.table && live.table.options && live.table.options.coach === true;
    const g = live && live.game;
    if (!coached || !g || g.number !== 1 || !g.view) { hide(); return; }
    const kind = coachKind(game, g.view);  // what this phone is asked to do now: the game's board says (no rule here)
    if (shown && shown !== kind) hide();
    if (!kind || seen(kind) || !T[kind]) return;  // the notes are the game's own (its <slug>/_coach.html)
    shown = kind;
    box.querySelector("p").textContent = T[kind];
    box.dataset.kind = kind;
    box.hidden = false;
  }

  function hide() { box.hidden = true; shown = null; }

  box.querySelector("button").addEventListener("click", () => {
    if (shown) { try { localStorage.setItem(seenKey(shown), "1"); } catch (e) { /* private mode */ } }
    hide();
  });
  if (live) live.listeners.push(check);  // looked at each time the table is drawn: the note is there with its prompt
}
