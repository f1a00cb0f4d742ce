/* Learn to play: the lesson page.  The game's board (static/js/game_boards.js, its "lesson" hooks) draws the
 * position with the game's own CSS classes; every tap goes to the lesson endpoint (tables/pages/lessons.py),
 * where the real engine decides; nothing here copies a rule: only the moves the endpoint offers (the engine's
 * legal moves, data.offers) glow and can be tapped.  The hooks get ctx = {tr, call, say, redraw, ui}: the page's
 * words, a tap sent, a line said, the board drawn again, and ui.pick, the taps of a move being built (forgotten
 * at each answer). */
import {el} from "./dom.js";
import {lessonFor} from "./game_boards.js";

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
  // A run such as 1-2-3-4 (or a word such as rolá-lo) never breaks across lines: its hyphens become non-breaking.
  const nb = (text) => (text || "").replace(/(\S)-(?=\S)/g, "$1\u2011");
  let data = null;
  const ui = {pick: {}};  // the taps of a move being built
  // The game's hooks, asked when the board is drawn (its script has registered them by then).
  const hooks = () => lessonFor(game) || {draw: () => el("p", {class: "muted"}, "")};
  const ctx = {tr, call: (body) => call(body), say: (text, kind) => say(text, kind), redraw: () => draw(data), ui};

  function keepRunsWhole(d) {
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
    keepRunsWhole(got);
    data = got;
    ui.pick = {};
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
    $("lesson-board").replaceChildren(hooks().draw(d, ctx));
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
    if (!d.met && d.kind !== "quiz" && hooks().waitsForRoll && hooks().waitsForRoll(d)) {
      row.push(el("button", {type: "button", class: "primary", id: "lesson-roll", onclick: () => call({roll: true})}, tr("roll")));
    }
    $("lesson-controls").replaceChildren(...row);
  }

  $("lesson-restart").addEventListener("click", () => call({go: 0}));
  // Go to step n (0-based), as the restart link does: a "lesson-go" event on the board (the fit test uses it).
  root.addEventListener("lesson-go", (e) => call({go: e.detail}));
  call(null);
}
