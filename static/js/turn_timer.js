/* The turn timer on every table page (docs/protocol.md, "Turn timers"): the countdown of the
 * seat in turn, counted down here from the server's "time left"; the host's pause button; and
 * "I'm back" on the phone whose seat the app took over (after too many timeouts, or the host let it play).
 */
import {fill} from "./board_tools.js";
import {put} from "./dom.js";
import {live} from "./live.js";

const box = document.getElementById("turn-timer");
if (live && box) showTimer(box);

function showTimer(box) {
  const $ = (id) => document.getElementById(id);
  const T = live.T;
  const text = $("timer-text"), pause = $("timer-pause"), away = $("away-note"), back = $("im-back");
  const fmt = fill;
  const clock = (ms) => { const s = Math.ceil(ms / 1000); return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`; };
  const each = (s) => T["timer" + s] || `${s} s`;
  let warned = null;

  function tick() {
    const t = live.timer, g = live.game, table = live.table;
    if (!t || !table || table.status === "closed") { put(box, "hidden", true); return; }
    let line = null, urgent = false;
    if (!g || table.status === "lobby") line = fmt(T.timerEach, {time: each(t.seconds)});
    else if (g.status !== "playing") line = null;
    else if (t.paused) line = T.timerPaused;
    else if (t.game === g.id && t.seq === g.seq && t.seats.length && t.left_ms !== null && !table.paused) {
      const left = Math.max(0, t.left_ms - (Date.now() - live.timerAt));
      const seat = t.seats[0];
      const names = t.seats.map((p) => (table.seats[p] || {}).name || "?").join(", ");
      line = t.seats.includes(live.seat) ? fmt(T.timerMine, {time: clock(left)}) : fmt(T.timerLeft, {name: names, time: clock(left)});
      urgent = left <= 10000;
      const missed = (t.misses || {})[String(seat)];
      if (missed) line += " · " + fmt(T.timerMisses, {name: (table.seats[seat] || {}).name || "?", n: missed, limit: t.limit});
      const key = `${t.game}:${t.seq}`;
      if (urgent && warned !== key && seat === live.seat) {  // said once, for screen readers too
        warned = key;
        const a = $("announce"); if (a) a.textContent = T.timerUp;
      }
    }
    put(box, "hidden", line === null);
    if (line !== null && text.textContent !== line) text.textContent = line;
    box.classList.toggle("urgent", urgent);
    if (pause) {
      put(pause, "hidden", !(g && g.status === "playing"));
      put(pause, "textContent", t.paused ? T.resumeTimer : T.pauseTimer);
      put(pause.dataset, "paused", t.paused ? "true" : "false");
    }
  }

  function draw() {
    // The app plays this phone's seat (after timeouts, or the host let it): one tap takes it back.
    put(away, "hidden", !(live.awaySeat !== null && live.awaySeat !== undefined && live.role !== "seat"));
    tick();
  }

  if (pause) pause.addEventListener("click", () => live.hostCommand("timer", {paused: pause.dataset.paused !== "true"}));
  if (back) back.addEventListener("click", () => live.send({type: "back"}));
  live.onChange(draw);
  setInterval(tick, 250);
}
