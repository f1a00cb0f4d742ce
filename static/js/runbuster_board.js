/* The Run Buster board (registered in game_boards.js as "runbuster"): the BGA cup screen on a phone.
 * Every player has a cup; yours is at the bottom: green = tap to roll, yellow = tap dice
 * to build your straight, then tap the cup to end the turn; red = wait.  Each hand is drawn
 * on a strip of the values 1-6: the hand solid, its complement (the run buster) dashed.
 * Read-only when live.role is "spectator", "host" (plus host tools) or "replay".
 */
import {el, plural, redraw} from "./dom.js";
import {cues} from "./cues.js";
import {fill, freshRandom, keypad as diceKeypad, seatsAfter} from "./board_tools.js";
import {registerBoard} from "./game_boards.js";
import {lesson} from "./runbuster_lesson.js";

// Translated strings, written by the json_strings filter (real quotes and apostrophes).
const T = JSON.parse((document.getElementById("rb-i18n") || {}).textContent || "{}");
const f = fill;
const st = (a) => (a && a.length ? a.join("-") : "—");
const pct = (p) => (p * 100).toFixed(1) + " %";
const ord = (k) => (T.ordinals || "").split(",")[k] || String(k + 1);

const ui = {turnKey: null, pick: [], keys: [], prevHands: null, prevTurns: null, bust: null,
            gameKey: null};

function names(live, v) {
  const seats = live.table && live.table.seats;
  return (v.names && v.names.length ? v.names : (seats || []).map((s) => s.name));
}
function isBot(live, seat) {
  const s = live.table && live.table.seats && live.table.seats[seat];
  return !!(s && s.bot);
}
function sameSet(a, b) {
  return a.length === b.length && a.every((x) => b.includes(x));
}

// The hand of `seat` on the strip 1..6: hand solid, complement dashed.
function strip(el, v, seat, big) {
  const hand = v.hands[seat] || [], comp = v.complements[seat] || [];
  const cells = [1, 2, 3, 4, 5, 6].map((n) => el("span", {
    class: "rb-slot" + (hand.includes(n) ? " in" : comp.includes(n) ? " comp" : ""),
  }, String(n)));
  const label = hand.length ? f(T.handLabel, {hand: st(hand), complement: st(comp)}) : T.empty;
  return el("div", {class: "rb-strip" + (big ? " big" : ""), role: "img", "aria-label": label,
                    "data-values": hand.join("-"), "data-complement": comp.join("-")}, cells);
}

// Cup colour of a seat: green = to roll, yellow = choosing/ending, red = waiting, done = finished.
function cupState(v, seat) {
  if (v.finished.includes(seat)) return "done";
  if (v.over || v.current !== seat) return "red";
  return v.phase === "roll" ? "green" : "yellow";
}

function turnReset(live, v) {
  const key = [live.game.id, v.turns, v.current, v.phase].join(":");
  if (key !== ui.turnKey) { ui.turnKey = key; ui.pick = []; ui.keys = []; }
}

// The roll that busted someone, while the board shows it: news, as hand_news.js reads it (the event's `about`),
// ended by the next move by anyone (a straight taken, the end of the turn, a win); the move log keeps it.
function bustRoll(live, v) {
  if (!(v.busted && v.busted.length)) return null;
  const log = live.log || [];
  const last = log[log.length - 1];
  return last && isRoll(log, log.length - 1) && (last.about ?? last.seq) === live.game.seq ? last : null;
}

// Whether the log's event i is a roll: the live log says its action; a replay's step, the phase it was made in.
function isRoll(log, i) {
  const e = log[i];
  if (e.action) return e.action.type === "roll";
  return !!e.step && (i === 0 || (log[i - 1].step && log[i - 1].step.view.phase === "roll"));
}

// A roll that busted someone: remember it for the flash line and the animation.  The flash names the hands
// busted, but not this phone's own: its player reads that in their own words ("…busted your 3-4-5-6…", #mine-note).
function noteBust(live, v, nm, me) {
  const key = live.game.id + ":" + v.turns;
  const roll = bustRoll(live, v);
  if (roll && ui.bust?.key !== key) {
    const victims = v.busted.filter((b) => b !== me).map((b) => {
      const before = ui.prevHands && ui.prevTurns === v.turns - 1 ? ui.prevHands[b] : null;
      return before && before.length ? f(T.bustOf, {name: nm[b], straight: st(before)}) : nm[b];
    });
    ui.bust = {key, at: Date.now(), seats: v.busted.slice(), about: roll.about ?? roll.seq,
               text: victims.length ? f(T.bustLine, {roller: nm[v.last_roller], victims: victims.join(", ")}) : ""};
  }
  if (!roll) ui.bust = null;
  ui.prevHands = v.hands.map((h) => h.slice());
  ui.prevTurns = v.turns;
}

function render(live, board) {
  const game = live.game;
  const screen = document.getElementById("app").dataset.view === "screen";
  const controls = !screen && (live.role === "seat" || live.role === "host");
  if (!game || !game.view) { redraw(board, [lobby(live, el)]); board.classList.add("rb"); return; }
  const v = game.view;
  const nm = names(live, v);
  const n = v.hands.length;
  const me = live.role === "seat" && !screen ? live.seat : null;
  turnReset(live, v);
  noteBust(live, v, nm, me);
  const mine = me !== null && v.your_turn && controls;
  cues.myTurn(mine && game.status === "playing");
  const rolled = freshRoll(live);

  const parts = [];
  // Round, Player 1, whose turn, the last move.
  const p1 = v.first != null ? v.first : 0;
  const turn = v.over ? null : mine ? turnHint(live, v) : f(T.turnOf, {name: nm[v.current]});
  const log = live.log || [];
  parts.push(el("div", {class: "rb-head"},
    el("div", {class: "rb-facts"}, el("strong", {}, f(T.round, {n: game.number || 1})), " · ",
      el("span", {class: "rb-p1"}, f(T.player1, {name: nm[p1]}))),
    turn ? el("div", {class: "rb-turn" + (mine ? " mine" : ""), "data-current": v.current}, turn) : null,
    log.length ? el("div", {class: "rb-last"}, el("span", {class: "sr"}, T.lastMove + ": "), log[log.length - 1].text) : null,
    ui.bust && ui.bust.text ? el("p", {class: "rb-flash", "data-about": ui.bust.about}, ui.bust.text) : null));

  // The last roll, for everyone but the roller who is choosing (who taps it in the cup area).
  if (!(mine && v.phase === "choose")) parts.push(rollArea(el, live, v, nm, false, rolled));

  // The host types in a player's real dice: the host's prompt comes first.
  if ((live.role === "host" || (live.host && v.current !== me)) && controls) {  // a seated host too, for another seat
    const kp = keypad(el, live, v, nm);
    if (kp) { kp.setAttribute("data-region", "act"); kp.prepend(el("p", {class: "rb-host-badge"}, el("span", {class: "badge"}, "!"), " " + f(live.T.answerFor, {name: nm[v.current]}))); parts.push(kp); }
  }

  // My hand and my cup, with the controls of my turn.
  const animate = ui.bust && Date.now() - ui.bust.at < 1600;
  if (me !== null) parts.push(myArea(el, live, v, nm, me, animate, mine, rolled));
  if (v.over) parts.push(roundEnd(el, live, v, nm));

  // Every other player, in turn order after me, compact.
  const others = seatsAfter(me, n);
  parts.push(el("ul", {class: "rb-players" + (me === null ? " all" : "")}, others.map((s) => playerRow(el, live, v, nm, s, animate))));

  // The drop-out order and the tally: in the Standings panel where the page has one.
  const sheet = document.getElementById("standings");
  const standings = [dropOuts(el, v, nm), tally(el, live, v, nm)].filter(Boolean);
  if (sheet && !screen) sheet.replaceChildren(...standings); else parts.push(...standings);
  board.classList.add("rb");
  board.classList.toggle("rb-acting", mine);
  redraw(board, parts.filter(Boolean), FOCUS_KEYS);
  cues.announce([log.length ? log[log.length - 1].text : "", mine ? turnHint(live, v) : ""].filter(Boolean).join(" "));
}

// The newest roll (for the tumble and the dice sound), once.
function freshRoll(live) {
  if (freshRandom(live) === null) return false;
  cues.roll();
  return true;
}

function turnHint(live, v) {
  const physical = ((live.table && live.table.options) || v.options || {}).dice === "physical";
  if (v.phase === "roll") return physical ? T.yourTurnType : T.yourTurnRoll;
  if (v.phase === "choose") return T.yourTurnPick;
  const last = (live.log || [])[(live.log || []).length - 1];
  return last && last.action && last.action.type === "roll" ? T.cannotExtend : T.yourTurnEnd;
}

// A die with pips (the number is there for screen readers and tests).
const FOCUS_KEYS = ["data-straight"];  // a hint's button keeps its focus across a redraw by its straight

const PIPS = {1: [5], 2: [3, 7], 3: [3, 5, 7], 4: [1, 3, 7, 9], 5: [1, 3, 5, 7, 9], 6: [1, 3, 4, 6, 7, 9]};
function face(el, x) {
  return [el("span", {class: "pips", "aria-hidden": "true"}, (PIPS[x] || []).map((k) => el("i", {style: `grid-area:${Math.ceil(k / 3)}/${(k - 1) % 3 + 1}`}))),
    el("span", {class: "sr"}, String(x))];
}

function lobby(live, el) {
  const t = live.table;
  const kids = [el("p", {}, live.role === "host" ? T.lobbyHost : T.lobby)];
  if (t && live.role === "host" && t.status === "lobby") {
    kids.push(el("p", {class: "muted"}, T.botsHelp));
    kids.push(el("p", {class: "muted rb-count"}, f(T.seatsTaken, {n: t.seats.length, capacity: t.capacity})));
    kids.push(el("button", {type: "button", class: "rb-addbot", disabled: t.seats.length >= t.capacity,
                            onclick: () => live.hostCommand("add_bot")}, T.addBot));
  }
  return el("div", {class: "card rb-lobby"}, kids);
}

function cup(el, state, n, big, onclick, label) {
  const attrs = {class: `rb-cup ${state}${big ? " big" : ""}`, "data-state": state};
  const body = [el("span", {class: "rb-cup-n"}, String(n))];
  if (big) {
    attrs.type = "button"; attrs.onclick = onclick; attrs["aria-label"] = `${T.yourCup}: ${label}`;
    body.push(el("span", {class: "rb-cup-label"}, label));
    return el("button", attrs, body);
  }
  attrs.title = f(T.inCup, {n});
  return el("span", attrs, body);
}

function badges(el, v, nm, s) {
  const out = [];
  const place = v.finished.indexOf(s);
  if (place >= 0) out.push(el("span", {class: "rb-badge place"}, ord(place)));
  if (v.over && v.loser === s) out.push(el("span", {class: "rb-badge loser"}, T.loserTag));
  if (v.busted && v.busted.includes(s)) out.push(el("span", {class: "rb-badge bust"}, T.busted));
  return out;
}

function playerRow(el, live, v, nm, s, animate) {
  const cls = ["rb-player", "state-" + cupState(v, s)];
  if (v.busted && v.busted.includes(s)) cls.push("was-busted");
  if (animate && ui.bust.seats.includes(s)) cls.push("bust-anim");
  return el("li", {class: cls.join(" "), "data-seat": s, "data-hand": s},
    cup(el, cupState(v, s), v.cups[s], false),
    el("div", {class: "rb-who"},
      el("span", {class: "rb-name", "data-hand-name": ""}, nm[s], isBot(live, s) ? el("small", {class: "muted"}, ` (${(live.T && live.T.bot) || "bot"})`) : null),
      ...badges(el, v, nm, s)),
    strip(el, v, s, false));
}

// The option(s) the current pick can still grow into.
function reachable(v, hand, pick) {
  return (v.hand_options || []).filter((o) => [...hand, ...pick].every((x) => o.includes(x)));
}

function rollArea(el, live, v, nm, choosing, rolled) {
  const roll = v.last_roll || [];
  if (!roll.length || v.last_roller == null) return null;
  const hand = v.hands[v.current] || [];
  const taken = [];  // which dice (by index) show the picked values: one die per value
  for (const x of ui.pick) { const i = roll.findIndex((r, j) => r === x && !taken.includes(j)); if (i >= 0) taken.push(i); }
  const tumble = rolled ? " rolled" : "";
  const dice = roll.map((x, i) => {
    if (!choosing) return el("span", {class: "die pip rb-die" + tumble, "data-value": x}, face(el, x));
    const on = taken.includes(i);
    const ok = on || (!hand.includes(x) && !ui.pick.includes(x) && reachable(v, hand, [...ui.pick, x]).length > 0);
    return el("button", {type: "button", class: "die pip rb-die" + (on ? " sel" : ok ? " cand" : "") + tumble, "aria-pressed": on ? "true" : "false",
      "data-value": x, "data-i": i, disabled: !ok,
      onclick: () => {
        ui.pick = on ? ui.pick.filter((y) => y !== x) : [...ui.pick, x];
        live.draw();
      }}, face(el, x));
  });
  return el("div", {class: "rb-roll" + (choosing ? " choosing" : "")},
    el("div", {class: "rb-roll-who"}, f(T.lastRoll, {name: nm[v.last_roller]})),
    el("div", {class: "rb-dice"}, dice));
}

function composed(v) {
  const hand = v.hands[v.current] || [];
  const want = [...hand, ...ui.pick].sort((a, b) => a - b);
  return (v.hand_options || []).find((o) => sameSet(o, want)) || null;
}

function pickTools(el, live, v) {
  if (v.phase !== "choose") return [];
  const opt = composed(v);
  const hand = v.hands[v.current] || [];
  const preview = [...hand, ...ui.pick].sort((a, b) => a - b);
  return [el("div", {class: "rb-pick"},
    el("button", {type: "button", class: "rb-take", disabled: !opt,
                  onclick: () => { if (opt) live.act({type: "choose", straight: opt}); }},
       preview.length > hand.length ? f(T.take, {straight: st(opt || preview)}) : T.takeNone),
    el("button", {type: "button", class: "secondary rb-clear", disabled: !ui.pick.length,
                  onclick: () => { ui.pick = []; live.draw(); }}, T.clear))];
}

function keypad(el, live, v, nm) {
  const opts = (live.table && live.table.options) || v.options || {};
  if (opts.dice !== "physical" || v.over || v.phase !== "roll" || live.game.status !== "playing") return null;
  const byHost = live.role === "host" || (!!live.host && v.current !== live.seat);
  if (byHost && isBot(live, v.current)) return null;
  const count = v.cups[v.current];
  return diceKeypad({
    count, typed: ui.keys, faces: [1, 2, 3, 4, 5, 6],
    box: "card rb-keypad", typedRow: "rb-typed-row", keys: "rb-keys", buttons: "rb-pick",
    heading: el("div", {class: "rb-keypad-title"}, byHost ? f(T.keypadFor, {n: plural("dice_count", count), name: nm[v.current]}) : f(T.keypadYou, {n: plural("dice_count", count)})),
    slot: (x) => el("span", {class: "rb-typed" + (x ? "" : " blank")}, x ? String(x) : "·"),
    key: (x) => ({class: "die pip rb-key", body: face(el, x)}),
    back: {attrs: {class: "secondary rb-back"}, name: (x) => (x === undefined ? T.back : f(T.backDie, {die: x}))},
    send: {attrs: {class: "rb-send"}, body: T.send},
    backFirst: false, draw: () => live.draw(),
    submit: (values) => live.act({type: "roll", values}, byHost),
  });
}

function hints(el, live, v) {
  const h = v.hints;
  const kids = [el("strong", {class: "sr"}, T.hints)];
  if (h.kind === "exact" && h.win != null && v.phase === "roll") kids.push(el("p", {class: "rb-win"}, f(T.winChance, {p: pct(h.win)})));
  if (h.kind === "exact" && h.options && v.phase === "choose") {
    const row = (o) => el("li", {},
      el("button", {type: "button", class: "secondary rb-hint", "data-straight": o.straight.join("-"),
        onclick: () => { const hand = v.hands[v.current] || []; ui.pick = o.straight.filter((x) => !hand.includes(x)); live.draw(); }},
        el("span", {class: "rb-hint-st"}, st(o.straight)),
        el("span", {class: "rb-hint-p", title: T.optionChance}, pct(o.win))));
    kids.push(el("ul", {class: "rb-hint-list"}, h.options.slice(0, 3).map(row)));
    if (h.options.length > 3) {
      kids.push(el("details", {class: "rb-more", open: ui.moreOpen || null, ontoggle: (e) => { ui.moreOpen = e.target.open; }},
        el("summary", {}, f(T.moreHints, {n: h.options.length - 3})),
        el("ul", {class: "rb-hint-list"}, h.options.slice(3).map(row))));
    }
  }
  if (h.kind === "heuristic" && h.suggestion && h.suggestion.length && v.phase === "choose") {
    kids.push(el("p", {class: "rb-suggest"}, f(T.suggestion, {straight: st(h.suggestion)})));
  }
  return kids.length > 1 ? el("div", {class: "card rb-hints"}, kids) : null;
}

function myArea(el, live, v, nm, me, animate, mine, rolled) {
  const state = cupState(v, me);
  const physical = ((live.table && live.table.options) || v.options || {}).dice === "physical";
  const playing = live.game.status === "playing" && !v.over;
  let label = T.waiting;
  if (state === "done") label = T.done;
  else if (v.over) label = T.roundOver;
  else if (state === "green") label = physical ? T.typeTheDice : T.tapToRoll;
  else if (state === "yellow" && v.phase === "choose") {  // what the next tap does: take the straight picked, else pick dice first
    const opt = composed(v), hand = v.hands[me] || [];
    label = opt ? f(T.take, {straight: st(opt)}) : hand.length ? f(T.pickMore, {straight: st(hand)}) : T.pickNew;
  }
  else if (state === "yellow") label = T.tapToEnd;
  const tap = () => {
    if (v.over || !playing) { live.toast(T.roundOver); return; }
    if (!v.your_turn || live.role !== "seat") { live.act({type: "roll"}); return; }  // the server says whose turn it is
    if (v.phase === "roll") {
      if (physical) live.toast(T.typeWithKeypad); else live.act({type: "roll"});
    } else if (v.phase === "choose") {
      const opt = composed(v);
      if (opt) live.act({type: "choose", straight: opt}); else live.toast(T.mustTake);
    } else live.act({type: "end_turn"});
  };
  const cls = ["rb-me", "state-" + state];
  if (animate && ui.bust.seats.includes(me)) cls.push("bust-anim");
  const attrs = {class: cls.join(" "), "data-seat": me};
  if (mine && playing) attrs["data-region"] = "act";
  return el("div", attrs,
    el("div", {class: "rb-me-row"},
      cup(el, state, v.cups[me], true, tap, label),
      el("div", {class: "rb-who rb-mine", "data-region": "me"},
        el("span", {class: "rb-name"}, nm[me], " ", el("span", {class: "sd-you"}, T.you)), ...badges(el, v, nm, me),
        strip(el, v, me, true))),
    mine && v.phase === "choose" ? rollArea(el, live, v, nm, true, rolled) : null,
    ...(mine ? pickTools(el, live, v) : []),
    mine ? keypad(el, live, v, nm) : null,
    mine && v.hints ? hints(el, live, v) : null);
}

function dropOuts(el, v, nm) {
  const items = v.finished.map((s, k) => el("li", {}, el("span", {class: "rb-badge place"}, ord(k)), " ", nm[s]));
  return el("div", {class: "card rb-dropouts"}, el("h3", {}, T.dropOuts),
    items.length ? el("ol", {class: "rb-places"}, items) : el("p", {class: "muted"}, T.noneYet));
}

function roundEnd(el, live, v, nm) {
  const n = v.hands.length;
  const next = ((v.first || 0) + 1) % n;
  const kids = [el("h3", {}, T.roundOver),
    el("ol", {class: "rb-places rb-final rank-skip"}, [...v.finished, v.loser].map((s, k) =>
      el("li", {"data-seat": s}, el("span", {class: "rb-badge " + (s === v.loser ? "loser" : "place")}, ord(k)), " ", nm[s]))),
    v.ended ? el("p", {class: "rb-ended"}, T.ended) : null,
    el("p", {class: "rb-drinks"}, f(T.buysDrinks, {name: nm[v.loser]})),
    el("p", {class: "rb-next", "data-next": next}, f(T.nextPlayer1, {name: nm[next]}))];
  const closed = (live.table || {}).status === "closed";
  const host = live.role === "host" || !!live.host;  // a seated host (a game against the app) too
  // The host starts the next round with the host's one button ("Start the next round", the game's word for the
  // rematch, in the host's bar): the round end shows no second button that does the same.
  if (live.role !== "replay" && !closed && !host) kids.push(el("p", {class: "muted"}, T.waitNext));
  return el("div", {class: "card rb-end"}, kids);
}

function tally(el, live, v, nm) {
  const n = v.hands.length;
  // The table's standings (from the server) count every finished round: places and rounds lost.
  const standings = live.standings || [];
  if (standings.length !== n) return null;
  const rows = standings.map((s) => ({name: nm[s.position] || s.name, places: s.places, losses: s.lost}));
  const rounds = standings.reduce((sum, s) => sum + s.lost, 0);
  const placeText = (places) => places.map((c, k) => (c ? `${ord(k)}×${c}` : null)).filter(Boolean).join(" ") || "—";
  return el("div", {class: "card rb-tally"}, el("h3", {}, T.tally),
    el("p", {class: "muted"}, f(T.rounds, {n: rounds})),
    el("table", {},
      el("thead", {}, el("tr", {}, el("th", {}, T.player), el("th", {}, T.places), el("th", {}, T.lost))),
      el("tbody", {}, rows.map((r, s) => el("tr", {"data-seat": s, class: r.losses ? "has-lost" : ""},
        el("td", {}, r.name), el("td", {}, placeText(r.places)), el("td", {class: "rb-lost"}, String(r.losses)))))));
}

// Who won, once the round is over (static/js/ranks.js shows it over the board): the first to finish.
function whyWon(v, names) {
  const first = (v.finished || []).slice(0, 1);
  return v.over && first.length ? f((v.ended ? T.wonEnded : T.won) || "", {names: names(first)}) : "";
}

// What a coached phone is asked to do now (static/js/coach.js): its note's key, from the view the server sends.
function coachKind(v) {
  if (v.over) return "over";
  if (!v.your_turn) return v.seat == null ? null : "wait";
  return ["roll", "choose", "end_turn"].includes(v.phase) ? v.phase : null;
}

registerBoard("runbuster", {render, whyWon, coachKind, lesson});
