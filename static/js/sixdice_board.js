/* The Six-Dice board: render(live, boardEl), registered in game_boards.js as "sixdice".
 * Every seat sees every hand, the bank, the round, whose turn and the last move;
 * the player whose turn it is flips in four taps; balancing choices and real
 * dice are answered here, by the owner or by the host.  live.role "replay"
 * draws the same picture without any controls.
 */
import {el, plural, put, redraw} from "./dom.js";
import {cues} from "./cues.js";
import {fill, freshRandom, keypad as diceKeypad, seatsAfter, signed} from "./board_tools.js";
import {registerBoard} from "./game_boards.js";
import {lesson} from "./sixdice_lesson.js";

const node = document.getElementById("sd-i18n");
const T = node ? JSON.parse(node.textContent) : {};
const FACES = [-3, -2, -1, 1, 2, 3];
const KEYPAD = [1, 2, 3, -1, -2, -3];
// Ordinary dice (the table's "faces": "ordinary"): 1, 2, 3 pips are +1, +2, +3, the opposite faces 6, 5, 4
// are −1, −2, −3 (sixdice/ordinary_dice.py).  The keypad lists them by pips, ⚀ to ⚅.
const KEYPAD_PIPS = [1, 2, 3, -3, -2, -1];
const pipsOf = (v) => (v > 0 ? v : 7 + v);
export const glyph = (v) => String.fromCodePoint(0x2680 + pipsOf(v) - 1);
let pips = false;  // this game's dice are ordinary dice: every die is drawn as its pips with its value
// A face in words, as the turn-over notice says it: "⚁ (+2)".
const faceText = (v) => (pips ? glyph(v) + " (" + signed(v) + ")" : signed(v));
// A face on a die or a key: its pips and its value, or its value.
const faceBody = (v) => (pips ? [el("span", {class: "pips"}, glyph(v)), el("span", {class: "pv"}, signed(v))] : signed(v));
const tr = (key, args) => fill(T[key] || key, args);
const sum = (a) => a.reduce((s, x) => s + x, 0);

// What the player is in the middle of; forgotten when the game moves on.
let ui = {key: null};
let build = {key: null, groups: [[]]};
let timer = null;

function flat(hand) { return hand.groups.flat().concat(hand.loose); }

function render(live, board) {
  const g = live.game;
  if (!g || !g.view) {
    board.replaceChildren();
    return;
  }
  const v = g.view;
  pips = v.faces === "ordinary";
  const key = g.id + ":" + g.seq;
  if (ui.key !== key) ui = {key};
  if (build.key !== key) build = {key, groups: [[]]};
  const p = v.pending;
  const screen = document.getElementById("app").dataset.view === "screen";
  const replay = live.role === "replay" || screen;
  const names = v.players;
  const me = typeof live.seat === "number" && !replay ? live.seat : null;
  const isHost = !replay && (live.role === "host" || !!live.host);
  const paused = !!(live.table && live.table.paused);
  const mayAct = (seat) => !replay && !paused && (me === seat || isHost);
  const asHost = (seat) => me !== seat;
  // The app's players make their own choices: the host is not offered them (only their real dice, typed in).
  const botSeat = (seat) => !!(live.table && (live.table.seats || []).some((s) => s.position === seat && s.bot));
  const mayChoose = (seat) => mayAct(seat) && (me === seat || !botSeat(seat));
  const myFlip = !replay && !paused && p && p.kind === "flip" && me === p.seat && Array.isArray(v.legal_flips);

  cues.myTurn(!v.over && me !== null && (v.actors || []).includes(me));
  rolledNow(live);

  // --- what the phone asks for: the controls of the current prompt ---
  let act = null;
  if (!v.over && p && !replay) {
    if (myFlip) act = flipPanel(live, v);
    else if (p.kind === "roll" && v.dice === "physical" && mayAct(p.seat)) act = keypad(live, v, asHost(p.seat));
    else if (p.kind === "group" && mayChoose(p.seat)) act = groupPanel(live, v, asHost(p.seat));
    else if (p.kind === "keep" && mayChoose(p.seat)) act = keepPanel(live, v, asHost(p.seat));
  }
  if (act) {
    act.setAttribute("data-region", "act");
    if (me !== p.seat) act.prepend(el("p", {class: "sd-host-badge"}, el("span", {class: "badge"}, "!"), " " + fill(live.T.answerFor, {name: who(v, p.seat)})));
  }

  // --- the picture: status and last move; my hand and the controls; the others, compact ---
  const flips = myFlip ? v.legal_flips : [];
  const others = seatsAfter(me, names.length);
  const left = el("div", {class: "sd-col sd-left"},
    status(live, v, me), replay ? null : turnOverNotice(v, me, isHost), lastMove(live),
    me !== null ? handCard(live, v, me, me, flips) : null,
    el("div", {class: "sd-hands sd-others" + (me === null ? " all" : "")}, others.map((s) => handCard(live, v, s, me, flips))));
  const right = el("div", {class: "sd-col sd-right"},
    v.over ? endPanel(live, v) : null,
    act);
  board.classList.add("sd-board");
  board.classList.toggle("sd-acting", !!act);
  redraw(board, [left, right]);
  const sheet = document.getElementById("standings");
  if (sheet && standingsOk(live)) sheet.replaceChildren(standingsTable(live));
  cues.announce(announceText(live, v, me));
  tick(live);
}

// The newest roll gets a short tumble (not under prefers-reduced-motion) and, if on, a sound.
function rolledNow(live) {
  ui.rolled = freshRandom(live);
  if (ui.rolled !== null) cues.roll();
}

function announceText(live, v, me) {
  const log = live.log || [];
  const last = log.length ? log[log.length - 1].text : "";
  const p = v.pending;
  const mine = p && me !== null && p.seat === me && !v.over;
  return [last, mine ? turnText(v, me) : ""].filter(Boolean).join(" ");
}

// ------------------------------------------------------------------ picture

function who(v, seat) { return v.players[seat] || "?"; }

function whatOf(p) { return tr({start: "whatStart", draw: "whatDraw", pair: "whatPair"}[p.purpose] || "whatDraw"); }

// "Your turn: roll 6 dice" on the player's own phone, "Ana rolls…" on the others.
function turnText(v, me) {
  const p = v.pending;
  if (!p) return "";
  const name = who(v, p.seat);
  const mine = me !== null && p.seat === me;
  if (p.kind === "flip") return mine ? tr("yourFlip") : tr("waitFlip", {name});
  if (p.kind === "group") return mine ? tr("youGroup") : tr("waitGroup", {name});
  if (p.kind === "keep") return mine ? tr("youKeep") : tr("waitKeep", {name});
  if (v.dice !== "physical") return tr("rolling", {name});
  return mine ? fill(plural("roll_you", p.count), {what: p.purpose === "start" ? tr("whatStartHand") : whatOf(p)}) : tr("waitRoll", {name, what: whatOf(p)});
}

function status(live, v, me) {
  const p = v.pending;
  const mine = !!p && me !== null && p.seat === me;
  return el("div", {class: "card sd-status"},
    el("p", {class: "sd-turn" + (mine ? " mine" : ""), "data-kind": p ? p.kind : "over"}, v.over ? tr("over") : turnText(v, me)),
    el("div", {class: "sd-facts"},
      // A game ended during the start rolls says no "Setting up": it is over.
      v.round ? el("span", {class: "sd-round"}, tr("round", {r: v.round, n: v.rounds})) : v.over ? null : el("span", {class: "sd-round"}, tr("setup")),
      el("span", {class: "sd-bank"}, plural("bank", v.bank)),
      el("span", {class: "sd-dice-mode"}, tr("rolledBy", {how: tr(v.dice !== "physical" ? "diceApp" : pips ? "diceOrdinary" : "dicePhysical")})),
      el("span", {class: "sd-timer", hidden: true})),
    live.table && live.table.paused ? el("p", {class: "sd-paused"}, tr("paused")) : null);
}

function lastMove(live) {
  const log = live.log || [];
  const batch = live.lastEvents || [];
  const fresh = batch.length && log.length && batch[batch.length - 1].seq === log[log.length - 1].seq;
  const events = (fresh ? batch : log.length ? log.slice(-1) : batch).slice(-3);
  // The line says itself who decided ("The app chose for Ivo…", "The host chose for Ivo…"): only marked, no suffix.
  const line = (e) => el("li", e.decided ? {"data-seq": e.seq, class: `decided decided-${e.decided.by}`, "data-why": e.decided.why}
    : {"data-seq": e.seq}, e.text);
  return el("div", {class: "card sd-last"},
    el("h2", {class: "sr"}, tr("lastMove")),
    events.length ? el("ul", {}, events.map(line)) : el("p", {class: "muted"}, tr("noMoves")));
}

function die(live, value, attrs) {
  const cls = "die " + (value > 0 ? "pos" : "neg") + (pips ? " pipface" : "") + (attrs && attrs.extra ? " " + attrs.extra : "");
  const label = faceBody(value);
  if (attrs && attrs.onclick) {
    return el("button", {type: "button", class: cls, "data-seat": attrs.seat, "data-i": attrs.i,
      "aria-pressed": attrs.pressed == null ? null : attrs.pressed ? "true" : "false", onclick: attrs.onclick}, label);
  }
  return el("span", {class: cls, "data-seat": attrs && attrs.seat, "data-i": attrs && attrs.i}, label);
}

function handCard(live, v, s, me, flips) {
  const p = v.pending;
  const value = v.values[s];
  const current = !v.over && p && p.seat === s;
  const winner = v.over && (v.winners || []).includes(s);
  const mine = s === me;
  const attrs = {class: "card sd-hand" + (mine ? " me" : " mini") + (current ? " current" : "") + (winner ? " winner" : ""),
    "data-seat": s, "data-hand": s, "aria-label": who(v, s)};
  if (mine) attrs["data-region"] = "me";
  const card = el("section", attrs);
  card.append(el("header", {},
    el("span", {class: "sd-name", "data-hand-name": ""}, who(v, s)),
    mine ? el("span", {class: "sd-you"}, tr("you")) : null,
    current ? el("span", {class: "sd-badge"}, tr("turn")) : null,
    winner ? el("span", {class: "sd-badge win"}, "\u2605") : null,
    el("span", {class: "sd-value", title: tr("value")}, el("span", {class: mine ? "" : "sr"}, tr("value") + " "), el("strong", {}, signed(value)))));
  const body = el("div", {class: "sd-dice"});
  let i = 0;
  const rolledHere = ui.rolled !== null && lastRollSeat(live) === s;
  const dieFor = (x) => {
    const idx = i++;
    const a = dieAttrs(live, v, s, me, idx, flips);
    if (rolledHere) a.extra = (a.extra || "") + " rolled";
    return die(live, x, a);
  };
  // The server's parts, in the order of the dice: a group box only while it is one (a flip since the last
  // balancing broke the groups of both hands it touched: "broken", drawn loose until they are grouped again).
  for (const part of v.hand_parts[s]) {
    if (part.kind === "zero" || part.kind === "pair") {
      body.append(el("span", {class: "sd-group " + part.kind, title: tr(part.kind === "zero" ? "zeroGroup" : "pairGroup")}, part.dice.map(dieFor)));
    } else for (const x of part.dice) body.append(dieFor(x));
  }
  if (!i) body.append(el("span", {class: "muted"}, tr("noDice")));
  card.append(body);
  return card;
}

function lastRollSeat(live) {
  const e = (live.log || []).find((x) => x.seq === ui.rolled);
  if (!e) return null;
  const v = live.game.view;
  // the roller is the seat that was pending: the next event's view is gone, so read it from the text's owner
  return e.actor && /^\d+$/.test(e.actor) ? Number(e.actor) : (v.current != null ? v.current : null);
}

function dieAttrs(live, v, s, me, idx, flips) {
  const attrs = {seat: s, i: idx};
  if (live.role === "replay" || v.over) return attrs;
  if (s === me) {
    if (flips.length) {
      const can = flips.some((f) => f[1] === idx);
      if (can && ui.to != null) {
        if (ui.own === idx) attrs.extra = "sel";  // the face is chosen: Cancel starts again
      } else if (can) {
        attrs.pressed = ui.own === idx;
        attrs.extra = ui.own === idx ? "sel" : ui.own == null ? "cand" : "";
        attrs.onclick = () => { ui = {key: ui.key, own: ui.own === idx ? null : idx}; live.draw(); };
      }
    } else if (me !== null && !(v.pending && v.pending.seat === me)) {
      attrs.onclick = () => notYourTurn(live, v);
    }
    return attrs;
  }
  if (flips.length && ui.own != null && ui.to != null) {
    const hit = flips.some((f) => f[0] === s && f[1] === ui.own && f[2] === ui.to && f[3] === idx);
    if (hit) {
      const chosen = ui.victim === s && ui.other === idx;
      attrs.extra = chosen ? "sel" : ui.victim == null ? "lit" : "";
      attrs.pressed = chosen;
      attrs.onclick = () => { ui.victim = s; ui.other = idx; live.draw(); };
    }
  }
  return attrs;
}

function notYourTurn(live, v) {
  const p = v.pending;
  live.toast(tr("notYourTurn", {name: p ? who(v, p.seat) : "?"}));
}

// ------------------------------------------------------------------ the flip

function facePicker(live, v, flips) {
  const own = flat(v.hands[live.seat])[ui.own];
  const reach = new Set(flips.filter((f) => f[1] === ui.own).map((f) => f[2]));
  return el("div", {class: "sd-faces"},
    el("p", {}, tr("pickFace")),
    el("div", {class: "sd-face-row"}, FACES.map((f) => el("button", {
      type: "button", class: "die " + (f > 0 ? "pos" : "neg") + (pips ? " pipface" : "") + (f === own ? " current" : ""), "data-face": f,
      disabled: f === own || !reach.has(f), onclick: () => { ui.to = f; ui.victim = null; ui.other = null; live.draw(); },
    }, faceBody(f)))));
}

// The victims' dice that can take the opposite change, as buttons in the panel (also lit on the board).
// Each legal flip is [victim, own, own_to, other, other_to] (the view's legal_flips): the victim's new face is the server's.
function candidates(live, v, flips) {
  // Two dice of one player showing the same face are the same choice: one button for them.
  const seen = new Set();
  const hits = flips.filter((f) => f[1] === ui.own && f[2] === ui.to).filter((f) => {
    const k = f[0] + ":" + flat(v.hands[f[0]])[f[3]];
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
  return el("div", {class: "sd-cands"}, hits.map((f) => {
    const before = flat(v.hands[f[0]])[f[3]];
    return el("button", {type: "button", class: "secondary sd-cand", "data-cand": f[0] + ":" + f[3],
      onclick: () => { ui.victim = f[0]; ui.other = f[3]; live.draw(); }},
      el("span", {class: "sd-cand-name"}, who(v, f[0])), die(live, before), el("span", {class: "sr"}, "\u2192 " + signed(f[4])));
  }));
}

function flipPanel(live, v) {
  const flips = v.legal_flips;
  const panel = el("div", {class: "card sd-panel sd-flip"});
  // Flip the leader (a house rule): whom this flip must go against, on the mover's phone while the flip is open.
  if (Array.isArray(v.must_flip) && v.must_flip.length) {
    panel.append(el("p", {class: "sd-must-flip"}, tr("mustFlip", {names: v.must_flip.map((s) => who(v, s)).join(", ")})));
  }
  if (ui.own == null) {
    panel.append(el("p", {class: "sd-step"}, "\u2191 " + tr("tapOwn")));
    return panel;
  }
  const own = flat(v.hands[live.seat])[ui.own];
  panel.append(el("div", {class: "sd-change"},
    el("span", {class: "sr"}, tr("yourDie") + " "), die(live, own), " \u2192 ", ui.to != null ? die(live, ui.to) : "?",
    ui.to != null ? el("small", {}, " (" + signed(ui.to - own) + ")") : null,
    el("button", {type: "button", class: "secondary sd-cancel", "data-act": "cancel", onclick: () => { ui = {key: ui.key}; live.draw(); }}, tr("cancel"))));
  if (ui.to == null) {
    panel.append(facePicker(live, v, flips));
  } else if (ui.victim == null) {
    panel.append(el("p", {class: "sd-step"}, tr("pickVictim", {d: signed(own - ui.to)})), candidates(live, v, flips));
  } else {
    const before = flat(v.hands[ui.victim])[ui.other];
    const flip = flips.find((f) => f[0] === ui.victim && f[1] === ui.own && f[2] === ui.to && f[3] === ui.other);
    if (!flip) { ui = {key: ui.key}; return flipPanel(live, v); }  // no such flip (cannot happen): start again
    const to = flip[4];
    panel.append(el("div", {class: "sd-change"},
      el("span", {}, tr("theirDie", {name: who(v, ui.victim)}) + " "), die(live, before), " \u2192 ", die(live, to),
      el("small", {}, " (" + signed(to - before) + ")")));
    const action = {type: "flip", victim: ui.victim, own: ui.own, own_to: ui.to, other: ui.other, other_to: to};
    if (pips) {  // what the flip will ask of the real dice
      panel.append(el("p", {class: "sd-turn-over-preview"}, tr("turnYour", {from: faceText(own), to: faceText(ui.to)}),
        el("br"), tr("turnTheir", {name: who(v, ui.victim), from: faceText(before), to: faceText(to)})));
    }
    panel.append(el("div", {class: "sd-buttons"},
      el("button", {type: "button", class: "primary", "data-act": "confirm-flip", onclick: () => live.act(action, false)}, tr("confirmFlip"))));
  }
  return panel;
}

// ------------------------------------------------------------------ real dice

// After a flip at an ordinary-dice table, until its turn is over: which real dice to turn, and to what
// (the server's turn_over: [[seat, from, to], ...], the mover's die first).  Each seat sees its own die;
// a host without a seat (who may answer for anyone) sees both.
function turnOverNotice(v, me, isHost) {
  if (!pips || !Array.isArray(v.turn_over)) return null;
  const lines = v.turn_over
    .filter(([seat]) => seat === me || (me === null && isHost))
    .map(([seat, from, to]) => el("p", {"data-turn-over": seat}, seat === me
      ? tr("turnYour", {from: faceText(from), to: faceText(to)})
      : tr("turnTheir", {name: who(v, seat), from: faceText(from), to: faceText(to)})));
  if (!lines.length) return null;
  return el("div", {class: "card sd-turn-over", "data-region": "turn-over", role: "status"},
    el("h2", {class: "sr"}, tr("turnOver")), lines);
}

function keypad(live, v, asHost) {
  const p = v.pending;
  const typed = ui.typed || (ui.typed = []);
  const what = p.purpose === "start" ? tr("whatStartHand") : whatOf(p);
  return diceKeypad({
    count: p.count, typed, faces: pips ? KEYPAD_PIPS : KEYPAD,
    box: "card sd-panel sd-roll", typedRow: "sd-typed", keys: "sd-keypad", buttons: "sd-buttons",
    heading: el("p", {class: "sd-step"}, fill(plural(asHost ? "key_for" : "key_you", p.count), {name: who(v, p.seat), what})),
    slot: (x) => (x === undefined ? el("span", {class: "die empty"}, "?") : die(live, x)),
    key: (f) => ({class: "die " + (f > 0 ? "pos" : "neg") + (pips ? " pipface" : ""), body: faceBody(f)}),
    back: {attrs: {class: "secondary", "data-act": "undo"}, name: (x) => (x === undefined ? tr("undo") : tr("undoDie", {die: faceText(x)}))},
    send: {attrs: {class: "primary", "data-act": "send-roll"}, body: tr("send")},
    backFirst: true, draw: () => live.draw(),
    submit: (values) => live.act({type: "roll", values}, asHost),
  });
}

// ------------------------------------------------------------------ balancing

// Parts as the server sends them ({kind, dice}): zero-sum groups and pairs as boxes of dice, the dice of
// a broken group and loose dice without a box; with ``looseAsText`` the loose dice are one short line of text.
function partsPicture(live, parts, extraGroupClass, looseAsText) {
  const loose = parts.filter((part) => part.kind === "loose").flatMap((part) => part.dice);
  return el("span", {class: "sd-dice"},
    parts.filter((part) => part.kind !== "loose").map((part) => part.kind === "broken"
      ? part.dice.map((x) => die(live, x))
      : el("span", {class: "sd-group " + part.kind + (extraGroupClass || "")}, part.dice.map((x) => die(live, x)))),
    looseAsText && loose.length ? el("small", {class: "sd-loose"}, tr("loose") + ": " + loose.map(faceText).join(" ")) : loose.map((x) => die(live, x)));
}

// A grouping as the server lists it (zero-sum groups, pairs, loose dice), as parts.
const groupingParts = (gr) => [...gr.zero_groups.map((dice) => ({kind: "zero", dice})), ...gr.pairs.map((dice) => ({kind: "pair", dice})),
  {kind: "loose", dice: gr.loose || []}];

const sameGrouping = (a, b) => JSON.stringify([a.zero_groups, a.pairs]) === JSON.stringify([b.zero_groups, b.pairs]);
const groupAction = (gr, seat) => ({type: "group", zero_groups: gr.zero_groups, pairs: gr.pairs, seat});

function groupPanel(live, v, asHost) {
  const p = v.pending;
  const def = p.default;
  const alts = (v.groupings || []).filter((gr) => !sameGrouping(gr, def));
  return el("div", {class: "card sd-panel sd-choice", "data-choice": "group"},
    asHost ? el("h2", {}, tr("chooseGrouping", {name: who(v, p.seat)})) : null,
    el("div", {class: "sd-option default"}, el("small", {}, tr("defaultLabel")),
      partsPicture(live, groupingParts(def), "", true)),
    el("div", {class: "sd-choice-row"},
      el("button", {type: "button", class: "primary", "data-act": "accept", onclick: () => live.act(groupAction(def, p.seat), asHost)}, tr("accept")),
      el("details", {class: "sd-alts", open: ui.altsOpen || null, ontoggle: (e) => { ui.altsOpen = e.target.open; }},
        el("summary", {}, tr("others", {n: alts.length})),
        alts.map((gr) => el("button", {type: "button", class: "sd-option", "data-act": "alt", onclick: () => live.act(groupAction(gr, p.seat), asHost)},
          partsPicture(live, groupingParts(gr), "", true))),
        builder(live, v, asHost))));
}

function builder(live, v, asHost) {
  const p = v.pending;
  const dice = flat(v.hands[p.seat]);
  const used = new Set(build.groups.flat());
  const cur = build.groups[build.groups.length - 1];
  // The player's own grouping, before the server has seen it: the action names its zero-sum groups and its
  // pairs (the server checks it, and says what is wrong with it), and the boxes being built show which is which.
  const send = () => {
    const groups = build.groups.filter((gr) => gr.length).map((gr) => gr.map((i) => dice[i]));
    live.act({type: "group", seat: p.seat, zero_groups: groups.filter((gr) => sum(gr) === 0), pairs: groups.filter((gr) => sum(gr) !== 0)}, asHost);
  };
  return el("details", {class: "sd-build", open: build.open || null, ontoggle: (e) => { build.open = e.target.open; }},
    el("summary", {}, tr("build")),
    el("p", {class: "muted"}, tr("buildHelp")),
    el("div", {class: "sd-dice sd-pool"}, dice.map((x, i) => die(live, x, {seat: p.seat, i, extra: used.has(i) ? "used" : "",
      onclick: () => { if (!used.has(i)) cur.push(i); else for (const gr of build.groups) { const k = gr.indexOf(i); if (k >= 0) gr.splice(k, 1); } live.draw(); }}))),
    el("div", {class: "sd-built"}, build.groups.map((gr, k) => el("span", {class: "sd-group " + (gr.length && sum(gr.map((i) => dice[i])) === 0 ? "zero" : "pair") + (k === build.groups.length - 1 ? " building" : "")},
      gr.length ? gr.map((i) => die(live, dice[i])) : el("span", {class: "muted"}, "…")))),
    el("div", {class: "sd-buttons"},
      el("button", {type: "button", class: "secondary", "data-act": "next-group", disabled: !cur.length,
        onclick: () => { build.groups.push([]); live.draw(); }}, tr("nextGroup")),
      el("button", {type: "button", class: "secondary", "data-act": "clear", onclick: () => { build.groups = [[]]; live.draw(); }}, tr("clear")),
      el("button", {type: "button", class: "primary", "data-act": "check-grouping", disabled: !used.size, onclick: send}, tr("checkSend"))));
}

// The server's keep choices (the default first): the groups kept, and those returned to the bank.
function keepPanel(live, v, asHost) {
  const p = v.pending;
  const choices = v.keep_choices || [];
  const def = choices.find((c) => c.default) || choices[0];
  // The hand's value after each keep (the server's keep_values, in keep_options' order): what the choice is worth.
  const values = v.keep_values || [], options = (v.keep_options || []).map((k) => JSON.stringify(k));
  const after = (c) => { const i = options.indexOf(JSON.stringify(c.keep)); return i >= 0 && i < values.length ? values[i] : null; };
  const worth = (c) => (after(c) !== null ? el("small", {class: "sd-keep-value"}, ` ${tr("value")} ${signed(after(c))}`) : null);
  const option = (c) => [partsPicture(live, c.kept), el("small", {class: "sd-returns"}, " " + tr("returns") + " "), partsPicture(live, c.returned, " back")];
  const alts = choices.filter((c) => c !== def);
  const keep = (c) => live.act({type: "keep", keep: c.keep, seat: p.seat}, asHost);
  return el("div", {class: "card sd-panel sd-choice", "data-choice": "keep"},
    asHost ? el("h2", {}, tr("chooseKeep", {name: who(v, p.seat)})) : null,
    def ? el("div", {class: "sd-option default"}, el("small", {}, tr("defaultLabel"), worth(def)), ...option(def)) : null,
    el("div", {class: "sd-choice-row"},
      def ? el("button", {type: "button", class: "primary", "data-act": "accept", onclick: () => keep(def)}, tr("accept")) : null,
      alts.length ? el("details", {class: "sd-alts", open: ui.altsOpen || null, ontoggle: (e) => { ui.altsOpen = e.target.open; }}, el("summary", {}, tr("others", {n: alts.length})),
        alts.map((c) => el("button", {type: "button", class: "sd-option", "data-act": "alt", onclick: () => keep(c)}, ...option(c), worth(c)))) : null));
}

// ------------------------------------------------------------------ the end

function standingsOk(live) { return Array.isArray(live.standings) && live.standings.length > 0; }

function endPanel(live, v) {
  const winners = v.winners || [];
  const names = winners.map((s) => who(v, s)).join(", ");
  const standings = standingsOk(live) ? live.standings : [];
  return el("div", {class: "card sd-panel sd-end"},
    el("h2", {}, tr("over")),
    el("p", {class: "sd-winners"}, winners.length > 1 ? tr("winShared", {names}) : tr("wins", {names})),
    el("p", {class: "sd-why", "data-reason": v.end_reason}, tr("why_" + v.end_reason, {n: threesDice(live)})),
    compensationLines(v),
    el("h3", {}, tr("finalHands")),
    el("table", {class: "sd-table sd-final"},
      el("tbody", {}, v.players.map((n, s) => el("tr", {class: winners.includes(s) ? "winner" : ""},
        el("td", {}, n), el("td", {}, partsPicture(live, v.hand_parts[s])), el("td", {class: "num"}, signed(v.values[s])))))),
    standings.length ? el("h3", {}, tr("standings")) : null,
    standings.length ? standingsTable(live) : null);
}

// How many dice all threes needs at this table (the house rule threes_dice, else the rules as written: 6).
function threesDice(live) {
  const o = (live.table && live.table.options) || {};
  return o.threes_dice || 6;
}

// The compensation by place in the turn order (a house rule), as the server counted it: "Ben +1.5 for moving second".
function compensationLines(v) {
  const lines = Array.isArray(v.compensation) ? v.compensation : [];
  if (!lines.length) return null;
  const lang = document.documentElement.lang || undefined;
  // The reason above names the hand's value; with the points added, what is compared is the score: said once, here.
  return [el("p", {class: "sd-comp-why"}, tr("compWhy")),
    el("ul", {class: "sd-compensation"}, lines.map((c) =>
      el("li", {"data-comp-seat": c.seat}, tr("comp_" + c.place, {name: who(v, c.seat), points: Number(c.points).toLocaleString(lang)}))))];
}

function standingsTable(live) {
  return el("table", {class: "sd-table sd-standings"},
    el("thead", {}, el("tr", {}, el("th", {}, tr("player")), el("th", {class: "num"}, tr("gamesWon")))),
    el("tbody", {}, live.standings.map((r) => el("tr", {"data-seat": r.position}, el("td", {}, r.name), el("td", {class: "num"}, String(r.wins))))));
}

// ------------------------------------------------------------------ host, timer, vibration

// The game's time limit: the server says the time left (the table frame's time_limit); counted down here
// from when that frame arrived (live.timeLimitAt).
function tick(live) {
  const box = document.querySelector(".sd-timer");
  const v = live.game && live.game.view;
  if (!box || !live.timeLimit || !v || v.over || live.role === "replay") { clearInterval(timer); timer = null; return; }
  const show = () => {
    const limit = live.timeLimit;
    const b = document.querySelector(".sd-timer");
    if (!b || !limit) return;
    const left = Math.max(0, Math.round((limit.left_ms - (Date.now() - live.timeLimitAt)) / 1000));
    put(b, "hidden", false);
    b.classList.toggle("up", left === 0);
    put(b, "textContent", left ? tr("timeLeft", {t: Math.floor(left / 60) + ":" + String(left % 60).padStart(2, "0")}) : tr("timeUp"));
  };
  show();
  if (!timer) timer = setInterval(show, 1000);
}

// Who won and why, once the game is over (static/js/ranks.js shows it over the board).
function whyWon(v, names) {
  const winners = v.winners || [];
  if (!v.over || !winners.length) return "";
  if (v.end_reason === "all_threes") return tr("wonThrees", {names: names(winners)});
  if (Array.isArray(v.compensation) && v.compensation.length && Array.isArray(v.final_scores)) {
    // the compensation decided with the hand: the score that won is the hand's distance from zero plus it
    const score = Number(v.final_scores[winners[0]] || 0).toLocaleString(document.documentElement.lang || undefined);
    return tr("wonCompensated", {names: names(winners), value: score});
  }
  const value = signed((v.values || [])[winners[0]] || 0);
  const key = {rounds: "wonRounds", time: "wonTime", ended: "wonEnded"}[v.end_reason] || "wonRounds";
  return tr(key, {names: names(winners), value});
}

// What a coached phone is asked to do now (static/js/coach.js): its note's key, from the view the server sends.
function coachKind(v) {
  if (v.over) return "over";
  const p = v.pending;
  if (!p) return null;
  if (p.seat !== v.you) return v.you == null ? null : "wait";
  if (p.kind === "roll") return v.you_roll ? "roll" : null;
  return ["flip", "group", "keep"].includes(p.kind) ? p.kind : null;
}

registerBoard("sixdice", {render, face: faceText, whyWon, coachKind, lesson});
