/* Six-Dice on the lesson page (static/js/lesson.js): the board drawn with the game's own classes; only the moves
 * the lesson endpoint offers (the engine's legal moves, d.offers) glow and can be tapped.  Registered with the
 * board (static/js/sixdice_board.js, its "lesson").  ctx: {tr, call, say, redraw, ui}, ui.pick the taps of a move
 * being built (a flip: own die, new face; a keep: groups). */
import {el} from "./dom.js";
import {signed} from "./board_tools.js";

let ctx = null;

export const lesson = {
  draw(d, context) { ctx = context; return sixdice(d); },
  // The lesson's Roll button: the seat's dice are to be rolled.
  waitsForRoll(d) {
    const v = d.view || {};
    return Boolean(v.pending && v.pending.kind === "roll" && v.pending.seat === d.seat && !v.over);
  },
};

function sixdice(d) {
  const v = d.view;
  const p = v.pending || {};
  const mine = !d.met && p.seat === d.seat && !v.over && d.kind !== "quiz";
  const wrap = el("div", {class: "sd-hands"});
  v.hands.forEach((hand, s) => wrap.append(handCard(d, v, hand, s, mine ? p.kind : null)));
  const extra = [];
  if (!d.met && mine && p.kind === "group") extra.push(groupingChoice(d, v));
  if (!d.met && mine && p.kind === "flip") extra.push(el("p", {class: "muted lesson-hint"}, flipHint(d)));
  if (!d.met && mine && p.kind === "keep") extra.push(el("p", {class: "muted lesson-hint"}, ctx.tr("pickKeep")));
  if (ctx.ui.pick.own !== undefined && ctx.ui.pick.to === undefined) extra.push(facePicker(d, v));
  return el("div", {}, extra, wrap, el("p", {class: "muted"}, ctx.tr("bank", {n: v.bank})));
}

function flipHint(d) {
  if (ctx.ui.pick.own === undefined) return ctx.tr("pickOwn");
  if (ctx.ui.pick.to === undefined) return ctx.tr("pickFace", {die: signed(ownDice(d)[ctx.ui.pick.own])});
  return ctx.tr("pickVictim", {name: d.names[1 - d.seat] || ""});
}

function ownDice(d) {
  const h = d.view.hands[d.seat];
  return h.groups.flat().concat(h.loose);
}

// The flips the board may take: the engine's legal ones, and on the step that teaches a refusal, its tempting one.
function flips(d, withTempting) {
  const legal = (d.offers || []).filter((a) => a.type === "flip");
  return withTempting ? legal.concat((d.tempting || []).filter((a) => a.type === "flip")) : legal;
}

function facePicker(d, v) {
  const cur = ownDice(d)[ctx.ui.pick.own];
  const open = flips(d, true).filter((a) => a.own === ctx.ui.pick.own).map((a) => a.own_to);
  const faces = [-3, -2, -1, 1, 2, 3].filter((f) => f !== cur && open.includes(f));
  return el("div", {class: "sd-faces lesson-faces", role: "group", "aria-label": ctx.tr("pickFace", {die: signed(cur)})},
    faces.map((f) => el("button", {type: "button", class: "die " + (f > 0 ? "pos" : "neg"), onclick: () => { ctx.ui.pick.to = f; ctx.redraw(); }}, signed(f))),
    el("button", {type: "button", class: "secondary", onclick: () => { ctx.ui.pick = {}; ctx.redraw(); }}, ctx.tr("cancel")));
}

function handCard(d, v, hand, s, kind) {
  const you = s === d.seat;
  const name = (d.names[s] || "") + (you ? " (" + ctx.tr("you") + ")" : "");
  const winner = v.over && (v.winners || []).includes(s);
  const showValue = d.key !== "value" || d.met;  // the counting step hides the values it asks for
  let index = 0;
  const dieFor = (x) => {
    const i = index++;
    const cls = "die " + (x > 0 ? "pos" : "neg");
    if (kind === "flip" && you && ctx.ui.pick.to === undefined && flips(d, true).some((a) => a.own === i)) {
      return el("button", {type: "button", class: cls + (ctx.ui.pick.own === i ? " sel" : ""), "aria-pressed": ctx.ui.pick.own === i ? "true" : "false",
        "data-seat": s, "data-i": i, onclick: () => { ctx.ui.pick = {own: i}; ctx.redraw(); }}, signed(x));
    }
    if (kind === "flip" && !you && ctx.ui.pick.to !== undefined) {
      const same = (a) => a.own === ctx.ui.pick.own && a.own_to === ctx.ui.pick.to && a.victim === s && a.other === i;
      // Only a legal victim glows; the refusal step's tempting die can be tapped (to see why not), unlit.
      if (flips(d, false).some(same)) {
        return el("button", {type: "button", class: cls + " lit", "data-seat": s, "data-i": i, onclick: () => sendFlip(d, s, i, x)}, signed(x));
      }
      if (flips(d, true).some(same)) {
        return el("button", {type: "button", class: cls, "data-seat": s, "data-i": i, onclick: () => sendFlip(d, s, i, x)}, signed(x));
      }
    }
    return el("span", {class: cls, "data-seat": s, "data-i": i}, signed(x));
  };
  // The server's parts, in the order of the dice: a group a flip broke (its hand is grouped again from
  // scratch) and loose dice are drawn without a box.
  let k = 0;
  const groups = v.hand_parts[s].map((part) => {
    if (part.kind === "loose") return [];
    const index = k++;  // the group's number, as a keep names it
    if (part.kind === "broken") return part.dice.map(dieFor);
    const box = el("span", {class: "sd-group " + part.kind}, part.dice.map(dieFor));
    if (kind === "keep" && you) {
      const on = (ctx.ui.pick.keep || []).includes(index);
      return el("button", {type: "button", class: "lesson-keep" + (on ? " sel" : ""), "aria-pressed": on ? "true" : "false", "data-group": index,
        onclick: () => toggleKeep(index)}, box);
    }
    return box;
  });
  const loose = hand.loose.map(dieFor);
  return el("div", {class: "card sd-hand" + (you ? " me" : "") + (winner ? " winner" : ""), "data-seat": s},
    el("h2", {class: "sd-name"}, name, winner ? " \u2605 " + ctx.tr("winner") : ""),
    showValue ? el("p", {class: "sd-value"}, ctx.tr("value") + ": " + (v.values[s] ? signed(v.values[s]) : "0")) : null,
    el("div", {class: "sd-dice"}, groups.flat(), loose));
}

function sendFlip(d, victim, other, value) {
  const own = ctx.ui.pick.own;
  const mine = ownDice(d)[own];
  const change = ctx.ui.pick.to - mine;
  ctx.call({action: {type: "flip", victim: victim, own: own, own_to: ctx.ui.pick.to, other: other, other_to: value - change}});
}

function toggleKeep(k) {
  const keep = ctx.ui.pick.keep || [];
  ctx.ui.pick.keep = keep.includes(k) ? keep.filter((x) => x !== k) : keep.concat([k]);
  if (ctx.ui.pick.keep.length === 2) ctx.call({action: {type: "keep", keep: ctx.ui.pick.keep}});
  else ctx.redraw();
}

function groupLabel(d, g) {
  const parts = (g.zero_groups || []).concat(g.pairs || []).map((x) => "(" + x.map((x) => signed(x)).join(" ") + ")");
  const used = (g.zero_groups || []).concat(g.pairs || []).flat();
  const left = ownDice(d).slice();
  used.forEach((x) => { const k = left.indexOf(x); if (k >= 0) left.splice(k, 1); });
  if (left.length) parts.push(ctx.tr("loose") + " " + left.map((x) => signed(x)).join(" "));
  return parts.join(" ");
}

function groupingChoice(d, v) {
  const options = (d.offers || []).filter((a) => a.type === "group");
  return el("div", {class: "lesson-groupings", role: "group", "aria-label": ctx.tr("pickGrouping")},
    el("p", {class: "muted"}, ctx.tr("pickGrouping")),
    options.map((a) => el("button", {type: "button", class: "secondary sd-option", onclick: () => ctx.call({action: a})}, groupLabel(d, a))));
}
