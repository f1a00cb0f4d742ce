/* Learn to play: the lesson page.  It draws the board with the games' own CSS classes and sends every tap
 * to the lesson endpoint (sixdice/tables/pages/lessons.py), where the real engine decides; it copies no rule. */
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
  let data = null;
  let pick = {};  // the taps of a move being built (a flip: own die, new face; a keep: groups)

  async function call(body) {
    const opts = body ? {method: "POST", headers: {"Content-Type": "application/json", "X-CSRFToken": csrf},
      body: JSON.stringify(body), credentials: "same-origin"} : {credentials: "same-origin"};
    const res = await fetch(api, opts);
    const got = await res.json();
    if (got.error) { say(got.error, "bad"); return; }
    const before = data;
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
    $("lesson-ask").textContent = d.ask;
    const box = $("lesson-feedback");
    box.replaceChildren(
      d.refused ? el("p", {class: "lesson-say " + (d.met ? "why" : "bad")}, tr("whyNot") + " " + d.refused) : "",
      d.wrong && !d.met ? el("p", {class: "lesson-say bad"}, d.wrong) : "",
      d.met ? el("p", {class: "lesson-say good"}, d.done) : "");
    if (d.lines && d.lines.length) $("lesson-lines").replaceChildren(...d.lines.map((t) => el("li", {}, t)));
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
    if (!d.met && d.kind !== "quiz" && waitsForRoll(v, d)) {
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
    const mine = !d.met && p.seat === d.seat && !v.over;
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

  function facePicker(d, v) {
    const cur = ownDice(d)[pick.own];
    const faces = [-3, -2, -1, 1, 2, 3].filter((f) => f !== cur);
    return el("div", {class: "sd-faces lesson-faces", role: "group", "aria-label": tr("pickFace", {die: fmt(cur)})},
      faces.map((f) => el("button", {type: "button", class: "die " + (f > 0 ? "pos" : "neg"), onclick: () => { pick.to = f; draw(data); }}, fmt(f))),
      el("button", {type: "button", class: "secondary", onclick: () => { pick = {}; draw(data); }}, tr("cancel")));
  }

  function handCard(d, v, hand, s, kind) {
    const you = s === d.seat;
    const name = (d.names[s] || "") + (you ? " (" + tr("you") + ")" : "");
    const winner = v.over && (v.winners || []).includes(s);
    const showValue = d.kind !== "quiz" || d.met;
    let index = 0;
    const dieFor = (x) => {
      const i = index++;
      const cls = "die " + (x > 0 ? "pos" : "neg");
      if (kind === "flip" && you && pick.to === undefined) {
        return el("button", {type: "button", class: cls + (pick.own === i ? " sel" : ""), "aria-pressed": pick.own === i ? "true" : "false",
          "data-seat": s, "data-i": i, onclick: () => { pick = {own: i}; draw(data); }}, fmt(x));
      }
      if (kind === "flip" && !you && pick.to !== undefined) {
        return el("button", {type: "button", class: cls + " lit", "data-seat": s, "data-i": i, onclick: () => sendFlip(d, s, i, x)}, fmt(x));
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
    if (g.loose && g.loose.length) parts.push(tr("loose") + " " + g.loose.map(fmt).join(" "));
    return parts.join(" ");
  }

  function groupingChoice(d, v) {
    const options = (v.groupings || []).map((g) => ({type: "group", zero_groups: g.zero_groups, pairs: g.pairs, loose: g.loose}))
      .concat(d.tempting || []);
    options.sort((a, b) => groupLabel(a).localeCompare(groupLabel(b)));  // the tempting one among the others
    return el("div", {class: "lesson-groupings", role: "group", "aria-label": tr("pickGrouping")},
      el("p", {class: "muted"}, tr("pickGrouping")),
      options.map((a) => el("button", {type: "button", class: "secondary sd-option", onclick: () => call({action: a})}, groupLabel(a))));
  }

  // ------------------------------------------------------------------ Run Buster

  function strip(hand) {
    return el("div", {class: "rb-strip", role: "img", "aria-label": tr("hand") + ": " + (hand.length ? hand.join("-") : tr("empty"))},
      [1, 2, 3, 4, 5, 6].map((n) => el("span", {class: "rb-slot" + (hand.includes(n) ? " in" : "")}, String(n))));
  }

  function runbuster(d) {
    const v = d.view;
    const seats = v.hands.map((hand, s) => {
      const you = s === d.seat;
      const name = (d.names[s] || "") + (you ? " (" + tr("you") + ")" : "");
      return el("div", {class: "card rb-player" + (you ? " me" : ""), "data-seat": s},
        el("h2", {class: "rb-name"}, name),
        strip(hand),
        el("p", {class: "muted"}, tr("cup", {n: v.cups ? v.cups[s] : 6 - hand.length})));
    });
    const out = [];
    if (v.last_roll) out.push(el("p", {class: "rb-roll"}, tr("lastRoll", {dice: v.last_roll.slice().sort().join(" ")})));
    if (!d.met && v.phase === "choose" && v.current === d.seat) {
      out.push(el("div", {class: "lesson-options", role: "group"},
        (v.hand_options || []).map((o) => el("button", {type: "button", class: "secondary rb-take", onclick: () => call({action: {type: "choose", straight: o}})},
          tr("take", {straight: o.join("-")})))));
    }
    return el("div", {}, out, seats);
  }

  $("lesson-restart").addEventListener("click", () => call({go: 0}));
  call(null);
}
