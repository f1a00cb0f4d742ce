/* The host's form to correct a typed-in random step (real dice): pick it, type the values it really
 * showed, confirm.  The host command "correct" (docs/protocol.md, docs/undo.md) appends an undo
 * back to just before it, the corrected step, and the later moves made again while legal.
 * Offered while a game is played at a table whose random steps are typed in (table.typed_in), for
 * the events of the game's random_actions still in play (not in the server's undone list).
 */
import {el} from "./dom.js";
import {fill} from "./board_tools.js";
import {live} from "./live.js";

const box = document.getElementById("correct-roll");
if (live && box) correctForm(box);

function correctForm(box) {
  const T = live.T;
  const $ = (id) => document.getElementById(id);
  const open = $("correct-open"), form = $("correct-form"), pick = $("correct-seq"), input = $("correct-values"), error = $("correct-error");

  // The typed-in random steps still in play (not struck through by an undo), latest first.
  function typedIn() {
    const random = new Set(live.table.random_actions || []), gone = live.undone || new Set();
    return live.log.filter((e) => !gone.has(e.seq) && e.action && random.has(e.action.type) && Array.isArray(e.action.values))
      .reverse();
  }

  function draw() {
    const playing = live.game && live.game.status === "playing";
    const typed = live.table && live.table.typed_in;
    const found = playing && typed ? typedIn() : [];
    open.hidden = !found.length;  // a button beside Pause and Undo; the form opens only when asked for
    if (!found.length) show(false);
    if (!found.length) return;
    const chosen = pick.value;
    pick.replaceChildren(...found.map((e) => el("option", {value: e.seq}, `#${e.seq} ${e.text}`)));
    if (found.some((e) => String(e.seq) === chosen)) pick.value = chosen;
  }

  function show(on) {
    box.hidden = !on;
    open.setAttribute("aria-expanded", String(on));
    if (!on) error.textContent = "";
  }
  open.addEventListener("click", () => { show(box.hidden); if (!box.hidden) pick.focus(); });
  $("correct-cancel").addEventListener("click", () => { show(false); open.focus(); });

  // "+1 −3 2" → [1, -3, 2]; the minus sign may be typed as − or -.  null: not whole numbers.
  function parse(text) {
    const words = text.replace(/[\u2212\u2013]/g, "-").split(/[\s,;]+/).filter(Boolean);
    if (!words.length || !words.every((w) => /^[+-]?\d{1,2}$/.test(w))) return null;
    return words.map((w) => parseInt(w, 10));
  }

  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    error.textContent = "";
    const seen = live.game ? live.game.seq : 0;  // the game as the host saw it when they sent the form
    const step = typedIn().find((e) => String(e.seq) === pick.value);
    if (!step) { error.textContent = T.correctNone; return; }
    const values = parse(input.value);
    if (!values) { error.textContent = T.correctNumbers; input.focus(); return; }
    if (values.length !== step.action.values.length) {
      error.textContent = fill(T.correctCount, {n: step.action.values.length});
      input.focus();
      return;
    }
    if (!window.confirm(fill(T.correctConfirm, {seq: step.seq, values: values.join(" ")}))) return;
    const ref = live.hostCommand("correct", {seq: step.seq, values, expected_seq: seen});
    live.onReply(ref, (msg) => {
      if (msg.type === "error") { error.textContent = msg.message; input.focus(); return; }
      input.value = "";  // every phone is told by the correction's own log line
      show(false);
    });
  });

  live.onChange(draw);
  draw();
}
