/* The host's form to correct a typed-in random step (real dice): pick it, type the values it really
 * showed, confirm.  The host command "correct" (docs/protocol.md, docs/undo.md) appends an undo
 * back to just before it, the corrected step, and the later moves made again while legal.
 * Offered while a game is played at a table whose random steps are typed in (table.typed_in), for
 * the rolls the server says the host may correct (game.corrections, latest first; an update's own
 * corrections go in front), each named with the game's words: "Ivo's draw: +1 → −1".
 */
import {el} from "./dom.js";
import {fill} from "./board_tools.js";
import {faceText} from "./game_boards.js";
import {live} from "./live.js";

const box = document.getElementById("correct-roll");
if (live && box) correctForm(box);

function correctForm(box) {
  const T = live.T;
  const $ = (id) => document.getElementById(id);
  const open = $("correct-open"), form = $("correct-form"), pick = $("correct-seq"), input = $("correct-values"), error = $("correct-error");

  // The typed-in rolls the host may correct, latest first, as the server lists them (game.corrections).
  function typedIn() {
    return (live.game && live.game.corrections) || [];
  }
  const W = live.W || {};
  // A die as the game writes it (its board's face: a signed face, a plain number...).
  const face = (v) => faceText(live.slug, v);
  // "Ivo's draw: +1 → −1" (the game's words correct_<kind>); before the new dice are typed, "→ …".
  function label(c, values) {
    const seat = c.seat === null ? null : live.table.seats.find((s) => s.position === c.seat);
    const name = seat ? seat.name : T.theHost;
    const words = W[`correct_${c.kind}`] || W.correct_roll || "{name}: {old} → {new}";
    return fill(words, {name, old: c.values.map(face).join(" "), new: values ? values.map(face).join(" ") : "\u2026"});
  }

  function draw() {
    const playing = live.game && live.game.status === "playing";
    const typed = live.table && live.table.typed_in;
    const found = playing && typed ? typedIn() : [];
    open.hidden = !found.length;  // a button beside Pause and Undo; the form opens only when asked for
    if (!found.length) show(false);
    if (!found.length) return;
    const chosen = pick.value;
    pick.replaceChildren(...found.map((c) => el("option", {value: c.seq}, label(c, null))));
    if (found.some((c) => String(c.seq) === chosen)) pick.value = chosen;
  }

  function show(on) {
    box.hidden = !on;
    open.setAttribute("aria-expanded", String(on));
    if (!on) error.textContent = "";
  }
  open.addEventListener("click", () => {
    show(box.hidden);
    if (box.hidden) return;
    draw();
    if (pick.options.length) pick.selectedIndex = 0;  // each time it opens: the latest roll
    pick.focus();
  });
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
    const step = typedIn().find((c) => String(c.seq) === pick.value);
    if (!step) { error.textContent = T.correctNone; return; }
    const values = parse(input.value);
    if (!values) { error.textContent = T.correctNumbers; input.focus(); return; }
    if (values.length !== step.values.length) {
      error.textContent = fill(T.correctCount, {n: step.values.length});
      input.focus();
      return;
    }
    if (!window.confirm(fill(T.correctConfirmWhat, {what: label(step, values)}))) return;
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
