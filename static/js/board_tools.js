/* What both game boards (and the table page's scripts) share, written once:
 * - fill(template, args): "{name}" placeholders from args (a missing one stays as it is);
 * - freshRandom(live): the seq of the newest event that drew random values (the engine's
 *   random_actions, told in the table frame), the first time it is seen; else null;
 * - seatsAfter(me, n): every other seat, in turn order after mine (all seats from 0 without one);
 * - signed(v, digits): a number with its sign, "+4", "\u22123" (a real minus sign), "0"; with digits, that many
 *   decimals ("+1.5");
 * - keypad(spec): the keypad on which real dice are typed in (each game gives its faces,
 *   its classes and its words); a typed die is changed by tapping it, then its new face.
 */
import {el} from "./dom.js";

export function fill(template, args) {
  return String(template == null ? "" : template)
    .replace(/\{(\w+)\}/g, (m, k) => (args && k in args ? String(args[k]) : m));
}

export function signed(v, digits) {
  const size = digits === undefined ? String(Math.abs(v)) : Math.abs(v).toFixed(digits);
  return (v > 0 ? "+" : v < 0 ? "\u2212" : "") + size;
}

let seenRandom = null;
export function freshRandom(live) {
  const random = new Set((live.table && live.table.random_actions) || []);
  const fresh = (live.lastEvents || []).filter((e) => e.action && random.has(e.action.type));
  const last = fresh.length ? fresh[fresh.length - 1].seq : null;
  if (last === null || last === seenRandom) return null;
  seenRandom = last;
  return last;
}

export function seatsAfter(me, n) {
  const out = [];
  for (let k = 1; k <= n; k++) {
    const s = ((me === null ? -1 : me) + k + n) % n;
    if (s !== me) out.push(s);
  }
  return out;
}

/* spec: {count, typed (the values typed so far, an array the keypad changes), faces (the values
 *  offered), box, title, typedRow, keys, buttons (class names), heading (a node or text),
 *  slot(value, k) (a typed value, or undefined for one still to type), key(value) ({class, body}),
 *  back ({attrs, name(value)}: the words of the button that deletes a typed die, the selected one else the last,
 *  given its value, undefined when none is typed), send ({attrs, body}), backFirst, draw() (after each change), submit(values)} */
// A typed die can be changed: tap it to select it (typed.selected), and the next key replaces it; with one
// selected, the back button deletes that die instead of the last.
export function keypad(spec) {
  const typed = spec.typed, full = typed.length >= spec.count;
  const sel = typed.selected != null && typed.selected < typed.length ? typed.selected : null;
  if (sel === null) typed.selected = null;
  const slots = [];
  for (let k = 0; k < spec.count; k++) {
    const slot = spec.slot(k < typed.length ? typed[k] : undefined, k);
    slots.push(k < typed.length
      ? el("button", {type: "button", class: "typed-slot" + (sel === k ? " selected" : ""), "data-slot": k,
                      "aria-pressed": sel === k ? "true" : "false",
                      onclick: () => { typed.selected = sel === k ? null : k; spec.draw(); }}, slot)
      : slot);
  }
  const keys = spec.faces.map((x) => {
    const key = spec.key(x);
    return el("button", {type: "button", class: key.class, "data-key": x, disabled: full && sel === null,
      onclick: () => {
        if (sel !== null) { typed[sel] = x; typed.selected = null; }
        else if (typed.length < spec.count) typed.push(x);
        spec.draw();
      }}, key.body);
  });
  // The back button says which die it deletes: the selected one, else the last typed (spec.back.name(value)).
  const target = sel !== null ? typed[sel] : typed.length ? typed[typed.length - 1] : undefined;
  const backName = spec.back.name ? spec.back.name(target) : spec.back.body;
  const back = el("button", Object.assign({type: "button", disabled: !typed.length, "data-deletes": target === undefined ? "" : String(target),
    onclick: () => { if (sel !== null) typed.splice(sel, 1); else typed.pop(); typed.selected = null; spec.draw(); }}, spec.back.attrs), backName);
  const send = el("button", Object.assign({type: "button", disabled: !full,
    onclick: () => spec.submit(typed.slice(0, spec.count))}, spec.send.attrs), spec.send.body);
  return el("div", {class: spec.box},
    spec.heading,
    el("div", {class: spec.typedRow}, slots),
    el("div", {class: spec.keys}, keys),
    el("div", {class: spec.buttons}, spec.backFirst ? [back, send] : [send, back]));
}
