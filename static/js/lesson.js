/* Learn to play: the lesson page.  It draws the board with the games' own CSS classes and sends every tap
 * to the lesson endpoint (sixdice/tables/pages/lessons.py), where the real engine decides; it copies no rule:
 * only the moves the endpoint offers (the engine's legal moves, data.offers) glow and can be tapped. */
import {el} from "./dom.js";

const root = document.getElementById("lesson");
if (root) lesson(root);

function lesson(root) {
  const T = JSON.parse(document.getElementById("lesson-i18n").textContent);
  const me = document.querySelector("script[data-play]");
  const playUrl = me ? me.dataset.play : "";
  const api = root.dataset.api;
  const game = root.dataset.game;
  const csrf = (root.querySelector("input[name=csrfmiddlewaretoken]") || {}).value || "";
  const $ = (id) => document.getElementById(id);
  const tr = (key, args) => (T[key] || key).replace(/\{(\w+)\}/g, (m, k) => (args && k in args ? args[k] : m));
  const fmt = (v) => (v > 0 ? "+" + v : "\u2212" + (-v));
  // A straight such as 1-2-3-4 (or a word such as rolá-lo) never breaks across lines: its hyphens become non-breaking.
  const nb = (text) => (text || "").replace(/(\S)-(?=\S)/g, "$1\u2011");
  let data = null;
  let pick = {};  // the taps of a move being built (a flip: own die, new face; a keep: groups)

  function keepStraights(d) {
    for (const k of ["ask", "done", "wrong", "refused", "title", "note"]) if (d[k]) d[k] = nb(d[k]);
    if (d.lines) d.lines = d.lines.map(nb);
  }

  async function call(body) {
    const opts = body ? {method: "POST", headers: {"Content-Type": "application/json", "X-CSRFToken": csrf},
      body: JSON.stringify(body), credentials: "same-origin"} : {credentials: "same-origin"};
    const res = await fetch(api, opts);
    const got = await res.json();
    if (got.error) { say(got.error, "bad"); return; }
    const before = data;
    keepStraights(got);
    data = got;
    pick = {};
    draw(before);
  }

  function say(text, kind) {
    const box = $("lesson-feedback");
    box.replaceChildren(text ? el("p", {class: "lesson-say " + (kind || "")}, text) : "");
  }

  function draw(before) {
    const d = data;
    $("lesson-progress").textContent = tr("step", {n: d.step + 1, total: d.total});
    root.dataset.step = String(d.step + 1);
    $("lesson-title").textContent = d.title;
    $("lesson-ask").replaceChildren(d.ask, d.note ? el("span", {class: "lesson-note"}, " " + d.note) : "");
    const box = $("lesson-feedback");
    // One message: a refusal in one plain sentence (on the step that teaches it, that sentence is the lesson),
    // else the step's own sentence on a wrong move, else what was learnt.
    const refusalMet = d.met && d.kind === "refusal" && d.refused;
    box.replaceChildren(
      refusalMet ? el("p", {class: "lesson-say good why"}, d.refused) : "",
      d.refused && !d.met ? el("p", {class: "lesson-say bad"}, d.refused) : "",
      d.wrong && !d.met && !d.refused ? el("p", {class: "lesson-say bad"}, d.wrong) : "",
      d.met && !refusalMet ? el("p", {class: "lesson-say good"}, d.done) : "");
    const about = $("lesson-about");
    if (about) { about.textContent = d.about || ""; about.hidden = !d.about; }
    // A try that was set back: its lines say what the try did, under a heading that says the board is back as it was.
    if (d.lines && d.lines.length && d.reset) {
      $("lesson-lines").replaceChildren(el("li", {class: "lesson-tried-head"}, tr("tried")),
        ...d.lines.map((t) => el("li", {class: "lesson-tried"}, t)));
    } else if (d.lines && d.lines.length) $("lesson-lines").replaceChildren(...d.lines.map((t) => el("li", {}, t)));
    else if (!before || before.step !== d.step) $("lesson-lines").replaceChildren();
    controls();
    $("lesson-board").replaceChildren(game === "runbuster" ? runbuster(d) : sixdice(d));
    if (before && before.step !== d.step) window.scrollTo(0, 0);
    try { localStorage.setItem("lesson:" + game, String(d.step)); } catch (e) { /* private mode */ }
  }

  function controls() {
    const d = data;
    const row = [];
    if (d.met && !d.last) row.push(el("button", {type: "button", class: "primary", id: "lesson-next", onclick: () => call({go: "next"})}, tr("next")));
    if (d.met && d.last) {
      row.push(el("p", {class: "lesson-finished"}, tr("finished")));
      if (playUrl) row.push(el("a", {class: "button primary", href: playUrl}, tr("finish")));
    }
    if (!d.met && d.kind === "quiz") {
      row.push(el("div", {class: "lesson-quiz"}, d.quiz.map((a) =>
        el("button", {type: "button", class: "secondary", onclick: () => call({answer: a})}, a))));
    }
    const v = d.view || {};
    if (!d.met && d.kind !== "quiz" && game !== "runbuster" && waitsForRoll(v, d)) {
      row.push(el("button", {type: "button", class: "primary", id: "lesson-roll", onclick: () => call({roll: true})}, tr("roll")));
    }
    $("lesson-controls").replaceChildren(...row);
  }

  function waitsForRoll(v, d) {
    if (game === "runbuster") return v.phase === "roll" && v.current === d.seat && !v.over;
    return v.pending && v.pending.kind === "roll" && v.pending.seat === d.seat && !v.over;
  }

  // ------------------------------------------------------------------ Six-Dice

  function sixdice(d) {
    const v = d.view;
    const p = v.pending || {};
    const mine = !d.met && p.seat === d.seat && !v.over && d.kind !== "quiz";
    const wrap = el("div", {class: "sd-hands"});
    v.hands.forEach((hand, s) => wrap.append(handCard(d, v, hand, s, mine ? p.kind : null)));
    const extra = [];
    if (!d.met && mine && p.kind === "group") extra.push(groupingChoice(d, v));
    if (!d.met && mine && p.kind === "flip") extra.push(el("p", {class: "muted lesson-hint"}, flipHint(d)));
    if (!d.met && mine && p.kind === "keep") extra.push(el("p", {class: "muted lesson-hint"}, tr("pickKeep")));
    if (pick.own !== undefined && pick.to === undefined) extra.push(facePicker(d, v));
    return el("div", {}, extra, wrap, el("p", {class: "muted"}, tr("bank", {n: v.bank})));
  }

  function flipHint(d) {
    if (pick.own === undefined) return tr("pickOwn");
    if (pick.to === undefined) return tr("pickFace", {die: fmt(ownDice(d)[pick.own])});
    return tr("pickVictim", {name: d.names[1 - d.seat] || ""});
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
    const cur = ownDice(d)[pick.own];
    const open = flips(d, true).filter((a) => a.own === pick.own).map((a) => a.own_to);
    const faces = [-3, -2, -1, 1, 2, 3].filter((f) => f !== cur && open.includes(f));
    return el("div", {class: "sd-faces lesson-faces", role: "group", "aria-label": tr("pickFace", {die: fmt(cur)})},
      faces.map((f) => el("button", {type: "button", class: "die " + (f > 0 ? "pos" : "neg"), onclick: () => { pick.to = f; draw(data); }}, fmt(f))),
      el("button", {type: "button", class: "secondary", onclick: () => { pick = {}; draw(data); }}, tr("cancel")));
  }

  function handCard(d, v, hand, s, kind) {
    const you = s === d.seat;
    const name = (d.names[s] || "") + (you ? " (" + tr("you") + ")" : "");
    const winner = v.over && (v.winners || []).includes(s);
    const showValue = d.key !== "value" || d.met;  // the counting step hides the values it asks for
    let index = 0;
    const dieFor = (x) => {
      const i = index++;
      const cls = "die " + (x > 0 ? "pos" : "neg");
      if (kind === "flip" && you && pick.to === undefined && flips(d, true).some((a) => a.own === i)) {
        return el("button", {type: "button", class: cls + (pick.own === i ? " sel" : ""), "aria-pressed": pick.own === i ? "true" : "false",
          "data-seat": s, "data-i": i, onclick: () => { pick = {own: i}; draw(data); }}, fmt(x));
      }
      if (kind === "flip" && !you && pick.to !== undefined) {
        const same = (a) => a.own === pick.own && a.own_to === pick.to && a.victim === s && a.other === i;
        // Only a legal victim glows; the refusal step's tempting die can be tapped (to see why not), unlit.
        if (flips(d, false).some(same)) {
          return el("button", {type: "button", class: cls + " lit", "data-seat": s, "data-i": i, onclick: () => sendFlip(d, s, i, x)}, fmt(x));
        }
        if (flips(d, true).some(same)) {
          return el("button", {type: "button", class: cls, "data-seat": s, "data-i": i, onclick: () => sendFlip(d, s, i, x)}, fmt(x));
        }
      }
      return el("span", {class: cls, "data-seat": s, "data-i": i}, fmt(x));
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
        const on = (pick.keep || []).includes(index);
        return el("button", {type: "button", class: "lesson-keep" + (on ? " sel" : ""), "aria-pressed": on ? "true" : "false", "data-group": index,
          onclick: () => toggleKeep(index)}, box);
      }
      return box;
    });
    const loose = hand.loose.map(dieFor);
    return el("div", {class: "card sd-hand" + (you ? " me" : "") + (winner ? " winner" : ""), "data-seat": s},
      el("h2", {class: "sd-name"}, name, winner ? " \u2605 " + tr("winner") : ""),
      showValue ? el("p", {class: "sd-value"}, tr("value") + ": " + (v.values[s] ? fmt(v.values[s]) : "0")) : null,
      el("div", {class: "sd-dice"}, groups.flat(), loose));
  }

  function sendFlip(d, victim, other, value) {
    const own = pick.own;
    const mine = ownDice(d)[own];
    const change = pick.to - mine;
    call({action: {type: "flip", victim: victim, own: own, own_to: pick.to, other: other, other_to: value - change}});
  }

  function toggleKeep(k) {
    const keep = pick.keep || [];
    pick.keep = keep.includes(k) ? keep.filter((x) => x !== k) : keep.concat([k]);
    if (pick.keep.length === 2) call({action: {type: "keep", keep: pick.keep}});
    else draw(data);
  }

  function groupLabel(g) {
    const parts = (g.zero_groups || []).concat(g.pairs || []).map((x) => "(" + x.map(fmt).join(" ") + ")");
    const used = (g.zero_groups || []).concat(g.pairs || []).flat();
    const left = ownDice(data).slice();
    used.forEach((x) => { const k = left.indexOf(x); if (k >= 0) left.splice(k, 1); });
    if (left.length) parts.push(tr("loose") + " " + left.map(fmt).join(" "));
    return parts.join(" ");
  }

  function groupingChoice(d, v) {
    const options = (d.offers || []).filter((a) => a.type === "group");
    return el("div", {class: "lesson-groupings", role: "group", "aria-label": tr("pickGrouping")},
      el("p", {class: "muted"}, tr("pickGrouping")),
      options.map((a) => el("button", {type: "button", class: "secondary sd-option", onclick: () => call({action: a})}, groupLabel(a))));
  }

  // ------------------------------------------------------------------ Run Buster

  function strip(hand) {
    return el("div", {class: "rb-strip", role: "img", "aria-label": tr("hand") + ": " + (hand.length ? hand.join("-") : tr("empty"))},
      [1, 2, 3, 4, 5, 6].map((n) => el("span", {class: "rb-slot" + (hand.includes(n) ? " in" : "")}, String(n))));
  }

  // The game's own turn, as the table plays it (static/js/runbuster.js): tap the cup to roll, tap the dice of the
  // straight, Take, then tap the cup again to end the turn.  Only the dice of an offered straight can be tapped.
  function runbuster(d) {
    const v = d.view;
    const offered = (d.offers || []).filter((a) => a.type === "choose").map((a) => a.straight);
    const mine = !d.met && !v.over && v.current === d.seat;
    const hand = v.hands[d.seat] || [];
    const want = hand.concat(pick.dice || []).sort((a, b) => a - b);
    const opt = offered.find((o) => o.length === want.length && o.every((x) => want.includes(x))) || null;
    const reach = (extra) => offered.some((o) => hand.concat(extra).every((x) => o.includes(x)));
    const out = [];
    if (v.last_roll && v.last_roll.length) {
      const picked = [];
      const dice = v.last_roll.map((x, i) => {
        const choosing = mine && v.phase === "choose";
        if (!choosing) return el("span", {class: "die pip rb-die", "data-value": x}, String(x));
        const on = (pick.dice || []).includes(x) && !picked.includes(x) && (picked.push(x), true);
        const ok = on || (!hand.includes(x) && !(pick.dice || []).includes(x) && reach((pick.dice || []).concat([x])));
        return el("button", {type: "button", class: "die pip rb-die" + (on ? " sel" : ok ? " cand lit" : ""), "aria-pressed": on ? "true" : "false",
          "data-value": x, "data-i": i, disabled: !ok,
          onclick: () => { pick.dice = on ? pick.dice.filter((y) => y !== x) : (pick.dice || []).concat([x]); draw(data); }}, String(x));
      });
      out.push(el("div", {class: "rb-roll"}, el("div", {class: "rb-dice"}, dice)));
    }
    if (mine && v.phase === "choose") {
      out.push(el("div", {class: "rb-pick"},
        el("button", {type: "button", class: "rb-take", disabled: !opt, onclick: () => { if (opt) call({action: {type: "choose", straight: opt}}); }},
          want.length > hand.length ? tr("take", {straight: (opt || want).join("-")}) : tr("takeNone"))));
    }
    const seats = v.hands.map((h, s) => {
      const you = s === d.seat;
      const name = (d.names[s] || "") + (you ? " (" + tr("you") + ")" : "");
      const n = v.cups ? v.cups[s] : 6 - h.length;
      return el("div", {class: "card rb-player" + (you ? " me rb-me" : ""), "data-seat": s},
        el("h2", {class: "rb-name"}, name),
        strip(h),
        you ? cupButton(d, v, mine, opt, n) : el("p", {class: "muted rb-cup-count"}, tr("cup", {n: n})),
        you ? out : null);
    });
    // The roll and Take sit in your own area, under your cup, as at a table.
    return el("div", {class: "rb lesson-rb"}, seats[d.seat], seats.filter((_, s) => s !== d.seat));
  }

  function cupButton(d, v, mine, opt, n) {
    const ends = (d.offers || []).some((a) => a.type === "end_turn");
    let label = tr("waiting"), state = "red";
    if (mine && v.phase === "roll") { label = tr("tapToRoll"); state = "green"; }
    else if (mine && v.phase === "choose") {  // what the next tap does: take the straight picked, else pick dice first
      const hand = v.hands[d.seat] || [];
      label = opt ? tr("take", {straight: opt.join("-")}) : hand.length ? tr("pickMore", {straight: hand.join("-")}) : tr("pickNew");
      state = "yellow";
    }
    else if (mine && ends) { label = tr("tapToEnd"); state = "yellow"; }
    const tap = () => {
      if (!mine) return;
      if (v.phase === "roll") call({roll: true});
      else if (v.phase === "choose") { if (opt) call({action: {type: "choose", straight: opt}}); else say(tr("mustTake"), "bad"); }
      else if (ends) call({action: {type: "end_turn"}});
    };
    return el("button", {type: "button", class: "rb-cup big " + state, "data-state": state, "aria-label": tr("yourCup") + ": " + label, onclick: tap},
      el("span", {class: "rb-cup-n"}, String(n)), el("span", {class: "rb-cup-label"}, label));
  }

  $("lesson-restart").addEventListener("click", () => call({go: 0}));
  // Go to step n (0-based), as the restart link does: a "lesson-go" event on the board (the fit test uses it).
  root.addEventListener("lesson-go", (e) => call({go: e.detail}));
  call(null);
}
