/* The replay viewer of a finished game.
 * The server sends every step (the spectator's view of the state after each
 * event, with its notation); this script steps through them with a slider,
 * buttons and the arrow keys, and draws each with the game's own board
 * (game_boards.js, the same drawing as the live table) given a read-only
 * object shaped like the live table's, with role "replay".  When a game has no
 * board, a plain drawing of the hands stands in.
 */
import {el, toast} from "./dom.js";
import {fill} from "./board_tools.js";
import {boardFor} from "./game_boards.js";

const app = document.getElementById("app");
if (app) replayViewer(app);

function replayViewer(app) {
  const data = JSON.parse(document.getElementById("replay-data").textContent);
  const T = Object.assign(JSON.parse(document.getElementById("i18n").textContent),
                          JSON.parse(document.getElementById("replay-i18n").textContent));
  const $ = (id) => document.getElementById(id);
  const steps = data.steps;
  const last = steps.length - 1;
  const slug = app.dataset.game;
  // Numbers in the page's language (the server formats its own figures with Django's l10n).
  const numbers = new Intl.NumberFormat(document.documentElement.lang || undefined);
  const num = (n) => numbers.format(n);
  const format = fill;

  const replay = {
    code: app.dataset.code, role: "replay", slug, seat: null, host: false, readOnly: true,
    table: data.table, presence: {connected: [], host: false, watching: 0},
    game: null, standings: [], log: [], lastEvents: [], T, ws: null, listeners: [],
    step: 0,
    act() { return null; },
    hostCommand() { return null; },
    send() { return null; },
    onChange(fn) { this.listeners.push(fn); },
    toast(text) { toast(text, 4000); },
    go(index) {
      const i = Math.max(0, Math.min(last, Number(index) || 0));
      this.step = i;
      const s = steps[i];
      this.game = {id: data.game.id, number: data.game.number, seq: s.seq,
                   status: i === last ? data.game.status : "playing",
                   players: data.game.players, view: s.view};
      this.log = steps.slice(1, i + 1).map((x) => ({seq: x.seq, actor: x.actor, text: x.text, step: x}));
      this.lastEvents = i > 0 ? [{seq: s.seq, actor: s.actor, text: s.text}] : [];
      this.draw();
    },
    draw() {
      const s = steps[this.step];
      $("step-slider").value = String(this.step);
      $("step-slider").setAttribute("aria-valuetext", `${T.step} ${num(this.step)} / ${num(last)}`);
      $("step-label").textContent = `${T.step} ${num(this.step)} / ${num(last)}`;
      $("turn-label").textContent = `${T.turn} ${num(s.turn)} / ${num(data.turns)}`;
      $("step-text").replaceChildren(...(this.step === 0 ? [T.start] : stepLine(s)));
      const hash = `#step-${this.step}`;
      if (location.hash !== hash) history.replaceState(null, "", hash);
      $("go-start").disabled = $("go-prev").disabled = this.step === 0;
      $("go-end").disabled = $("go-next").disabled = this.step === last;
      this.drawSeats();
      this.drawLog();
      const board = $("board");
      const renderer = boardFor(slug);
      let drawn = false;
      if (renderer && typeof renderer.render === "function") {
        try { renderer.render(this, board); drawn = true; board.dataset.drawn = "renderer"; }
        catch (err) { console.error("replay: the game's renderer failed", err); }
      }
      if (!drawn) { board.replaceChildren(fallback(s.view, s.picture)); board.dataset.drawn = "fallback"; }
      for (const fn of this.listeners) fn(this);
    },
    drawSeats() {
      const current = currentSeat(steps[this.step].view);
      $("seats").replaceChildren(...this.table.seats.map((seat) => el("li",
        {class: "seat" + (seat.position === current ? " me" : ""), "data-seat": seat.position},
        el("span", {class: "name"}, seat.name), seat.bot ? el("small", {}, ` (${T.bot})`) : null)));
    },
    drawLog() {
      const items = this.log.slice().reverse().map((e) => el("li", {value: e.seq, class: e.step.undone ? "undone" : null},
        el("a", {href: `#step-${e.seq}`, "data-step": e.seq}, stepLine(e.step))));
      $("log").replaceChildren(...items);
    },
  };

  // One step's line: who decided (a player, a bot, the host, the app) and the move, in the reader's
  // language; for a choice the engine has a default for, the default beside it, marked when it differs.
  function stepLine(s) {
    const parts = [];
    // A player's own move already starts with their name; anyone else who decided is named first.
    const named = s.kind === "seat" && s.text.startsWith(s.who);
    if (s.who && !named) parts.push(el("span", {class: "who who-" + (s.kind || "seat")}, s.who), " \u00b7 ");
    // A move an undo took back stays, struck through, with who took it back and when (for every reader).
    parts.push(s.undone ? el("s", {class: "move undone"}, s.text) : el("span", {class: "move"}, s.text));
    if (s.undone) parts.push(" ", el("small", {class: "undone-note"}, `(${s.undone_by || T.undone})`));
    // What the player's phone suggested; a followed hint is not the move said twice.
    if (s.hint) parts.push(" ", el("small", {class: "hint-shown"}, `(${s.hint_caption || s.hint})`));
    if (s.default) {
      parts.push(" ", el("small", {class: "default" + (s.differs ? " differs" : "")},
        "(" + (s.differs ? `${T.differs}; ${format(T.defaultWas, {text: s.default})}` : T.sameAsDefault) + ")"));
    }
    return parts;
  }

  function currentSeat(view) {
    if (!view || view.over) return null;
    if (view.pending && typeof view.pending.seat === "number") return view.pending.seat;
    return typeof view.current === "number" ? view.current : null;
  }

  // ---- a plain drawing, used when the game's renderer is missing or fails.
  // It knows no game: the server sends each step's "picture", made by the
  // game's adapter (hands as groups and loose dice, each die with its face
  // text and tone, a score and a mark per hand, and a few labelled facts).
  function die(d) {
    return el("span", {class: "die " + (d.tone || "pip"), "aria-label": String(d.v)}, d.text);
  }
  function fallback(view, picture) {
    if (!view) return el("p", {class: "muted"}, "—");
    const names = view.names || (Array.isArray(view.players) ? view.players : data.game.players);
    const box = el("div", {class: "card replay-board"});
    const hands = picture && Array.isArray(picture.hands) ? picture.hands : [];
    if (hands.length) {
      const facts = (picture.facts || []).map(([label, value]) => `${label}: ${value}`);  // labels translated by the server
      if (facts.length) box.append(el("p", {}, facts.join(" · ")));
      hands.forEach((hand, seat) => {
        const groups = (hand.groups || []).map((g) => el("span", {class: "group"}, g.map(die)));
        const loose = (hand.loose || []).map(die);
        let label = String(names[seat] || "");
        if (hand.score !== null && hand.score !== undefined) label += ` (${hand.score})`;
        if (hand.mark) label += ` · ${hand.mark}`;
        box.append(el("div", {class: "hand", "data-seat": seat},
          el("strong", {}, label), el("div", {class: "hand-dice"}, groups, loose)));
      });
    } else {
      box.append(el("pre", {class: "raw"}, JSON.stringify(view, null, 1)));
    }
    if (view.over && Array.isArray(view.winners)) {
      box.append(el("p", {class: "winners"}, `${T.winners}: ${view.winners.map((s) => names[s]).join(", ")}`));
    }
    return box;
  }

  // ---- controls
  // A touch screen has no arrow keys: no keyboard hints there.
  if ((window.matchMedia && window.matchMedia("(pointer: coarse)").matches) || navigator.maxTouchPoints > 0) {
    for (const hint of document.querySelectorAll(".keys-hint")) hint.hidden = true;
  }
  $("step-slider").addEventListener("input", (e) => replay.go(e.target.value));
  $("go-start").addEventListener("click", () => replay.go(0));
  $("go-prev").addEventListener("click", () => replay.go(replay.step - 1));
  $("go-next").addEventListener("click", () => replay.go(replay.step + 1));
  $("go-end").addEventListener("click", () => replay.go(last));
  $("turn-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const turn = parseInt($("turn-input").value, 10);
    const index = steps.findIndex((s) => s.turn === turn && s.i > 0);
    if (!turn || index < 0) { replay.toast(T.noTurn); return; }
    replay.go(index);
  });
  $("log").addEventListener("click", (e) => {
    const a = e.target.closest("[data-step]");
    if (a) { e.preventDefault(); replay.go(Number(a.dataset.step)); }
  });
  document.addEventListener("keydown", (e) => {
    const tag = (e.target && e.target.tagName) || "";
    if (e.altKey || e.ctrlKey || e.metaKey || tag === "INPUT" && e.target.type !== "range" || tag === "TEXTAREA" || tag === "SELECT") return;
    let to = null;
    if (e.key === "ArrowLeft" || e.key === "ArrowDown") to = replay.step - 1;
    else if (e.key === "ArrowRight" || e.key === "ArrowUp") to = replay.step + 1;
    else if (e.key === "Home") to = 0;
    else if (e.key === "End") to = last;
    if (to === null) return;
    e.preventDefault();
    replay.go(to);
  });

  // Shareable step links: the URL hash follows the step (#step-12), and opening one lands there.
  function fromHash() {
    const hash = /^#step-(\d+)$/.exec(location.hash);
    return hash ? Number(hash[1]) : null;
  }
  window.addEventListener("hashchange", () => {
    const to = fromHash();
    if (to !== null && to !== replay.step) replay.go(to);
  });

  replay.go(fromHash() ?? 0);
}
