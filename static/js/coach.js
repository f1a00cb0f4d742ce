/* A coached first game (the table's "new players" option): a one-line note the first time this phone meets
 * each kind of prompt (remembered in localStorage).  It reads the live table and touches nothing else. */
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

  // What this phone is asked to do now, per game (from the view the server sends; no rule here).
  const kinds = {
    sixdice(v) {
      if (v.over) return "over";
      const p = v.pending;
      if (!p) return null;
      if (p.seat !== v.you) return v.you == null ? null : "wait";
      if (p.kind === "roll") return v.you_roll ? "roll" : null;
      return ["flip", "group", "keep"].includes(p.kind) ? p.kind : null;
    },
    runbuster(v) {
      if (v.over) return "over";
      if (!v.your_turn) return v.seat == null ? null : "wait";
      return ["roll", "choose", "end_turn"].includes(v.phase) ? v.phase : null;
    },
  };

  function check() {
    const coached = live && live.table && live.table.options && live.table.options.coach === true;
    const g = live && live.game;
    if (!coached || !g || g.number !== 1 || !g.view || !kinds[game]) { hide(); return; }
    const kind = kinds[game](g.view);
    if (shown && shown !== kind) hide();
    if (!kind || seen(kind) || !T[game + "." + kind]) return;
    shown = kind;
    box.querySelector("p").textContent = T[game + "." + kind];
    box.dataset.kind = kind;
    box.hidden = false;
  }

  function hide() { box.hidden = true; shown = null; }

  box.querySelector("button").addEventListener("click", () => {
    if (shown) { try { localStorage.setItem(seenKey(shown), "1"); } catch (e) { /* private mode */ } }
    hide();
  });
  setInterval(check, 300);
}
