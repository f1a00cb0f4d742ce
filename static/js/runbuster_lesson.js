/* Run Buster on the lesson page (static/js/lesson.js): the game's own turn, with the game's classes; only the
 * dice of a straight the lesson endpoint offers (d.offers) can be tapped.  Registered with the board
 * (static/js/runbuster_board.js, its "lesson"); the cup rolls, so the page shows no Roll button of its own.
 * ctx: {tr, call, say, redraw, ui}, ui.pick the dice picked for the straight being built. */
import {el} from "./dom.js";

let ctx = null;

export const lesson = {
  draw(d, context) { ctx = context; return runbuster(d); },
};

function strip(hand) {
  return el("div", {class: "rb-strip", role: "img", "aria-label": ctx.tr("hand") + ": " + (hand.length ? hand.join("-") : ctx.tr("empty"))},
    [1, 2, 3, 4, 5, 6].map((n) => el("span", {class: "rb-slot" + (hand.includes(n) ? " in" : "")}, String(n))));
}

// The game's own turn, as the table plays it (static/js/runbuster_board.js): tap the cup to roll, tap the dice of the
// straight, Take, then tap the cup again to end the turn.  Only the dice of an offered straight can be tapped.
function runbuster(d) {
  const v = d.view;
  const offered = (d.offers || []).filter((a) => a.type === "choose").map((a) => a.straight);
  const mine = !d.met && !v.over && v.current === d.seat;
  const hand = v.hands[d.seat] || [];
  const want = hand.concat(ctx.ui.pick.dice || []).sort((a, b) => a - b);
  const opt = offered.find((o) => o.length === want.length && o.every((x) => want.includes(x))) || null;
  const reach = (extra) => offered.some((o) => hand.concat(extra).every((x) => o.includes(x)));
  const out = [];
  if (v.last_roll && v.last_roll.length) {
    const picked = [];
    const dice = v.last_roll.map((x, i) => {
      const choosing = mine && v.phase === "choose";
      if (!choosing) return el("span", {class: "die pip rb-die", "data-value": x}, String(x));
      const on = (ctx.ui.pick.dice || []).includes(x) && !picked.includes(x) && (picked.push(x), true);
      const ok = on || (!hand.includes(x) && !(ctx.ui.pick.dice || []).includes(x) && reach((ctx.ui.pick.dice || []).concat([x])));
      return el("button", {type: "button", class: "die pip rb-die" + (on ? " sel" : ok ? " cand lit" : ""), "aria-pressed": on ? "true" : "false",
        "data-value": x, "data-i": i, disabled: !ok,
        onclick: () => { ctx.ui.pick.dice = on ? ctx.ui.pick.dice.filter((y) => y !== x) : (ctx.ui.pick.dice || []).concat([x]); ctx.redraw(); }}, String(x));
    });
    out.push(el("div", {class: "rb-roll"}, el("div", {class: "rb-dice"}, dice)));
  }
  if (mine && v.phase === "choose") {
    out.push(el("div", {class: "rb-pick"},
      el("button", {type: "button", class: "rb-take", disabled: !opt, onclick: () => { if (opt) ctx.call({action: {type: "choose", straight: opt}}); }},
        want.length > hand.length ? ctx.tr("take", {straight: (opt || want).join("-")}) : ctx.tr("takeNone"))));
  }
  const seats = v.hands.map((h, s) => {
    const you = s === d.seat;
    const name = (d.names[s] || "") + (you ? " (" + ctx.tr("you") + ")" : "");
    const n = v.cups ? v.cups[s] : 6 - h.length;
    return el("div", {class: "card rb-player" + (you ? " me rb-me" : ""), "data-seat": s},
      el("h2", {class: "rb-name"}, name),
      strip(h),
      you ? cupButton(d, v, mine, opt, n) : el("p", {class: "muted rb-cup-count"}, ctx.tr("cup", {n: n})),
      you ? out : null);
  });
  // The roll and Take sit in your own area, under your cup, as at a table.
  return el("div", {class: "rb lesson-rb"}, seats[d.seat], seats.filter((_, s) => s !== d.seat));
}

function cupButton(d, v, mine, opt, n) {
  const ends = (d.offers || []).some((a) => a.type === "end_turn");
  let label = ctx.tr("waiting"), state = "red";
  if (mine && v.phase === "roll") { label = ctx.tr("tapToRoll"); state = "green"; }
  else if (mine && v.phase === "choose") {  // what the next tap does: take the straight picked, else pick dice first
    const hand = v.hands[d.seat] || [];
    label = opt ? ctx.tr("take", {straight: opt.join("-")}) : hand.length ? ctx.tr("pickMore", {straight: hand.join("-")}) : ctx.tr("pickNew");
    state = "yellow";
  }
  else if (mine && ends) { label = ctx.tr("tapToEnd"); state = "yellow"; }
  const tap = () => {
    if (!mine) return;
    if (v.phase === "roll") ctx.call({roll: true});
    else if (v.phase === "choose") { if (opt) ctx.call({action: {type: "choose", straight: opt}}); else ctx.say(ctx.tr("mustTake"), "bad"); }
    else if (ends) ctx.call({action: {type: "end_turn"}});
  };
  return el("button", {type: "button", class: "rb-cup big " + state, "data-state": state, "aria-label": ctx.tr("yourCup") + ": " + label, onclick: tap},
    el("span", {class: "rb-cup-n"}, String(n)), el("span", {class: "rb-cup-label"}, label));
}
