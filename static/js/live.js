/* The live connection of a table page, shared by both games.
 * Keeps the table's state in step with the server (see docs/protocol.md):
 * seq tracking, resync on a gap, table versions (a missed table change is
 * asked for again), reconnect with backoff and jitter, presence,
 * the host's controls and the move log.  Every action carries a client
 * action id; one tapped while offline waits ("sending…") and is sent once
 * the socket is back, with the same id, so it is applied at most once.
 * A socket that stays open but answers no ping for two intervals is closed
 * and opened again (the "reconnecting" banner shows meanwhile).  A game draws its board by
 * registering it in game_boards.js ({render(live, boardEl)}, under the game's slug).
 * The page's other scripts read and watch the table through `live` (null on a page without #app);
 * it connects once every script of the page has run (DOMContentLoaded).
 */
import {el, put, toast} from "./dom.js";
import {cues} from "./cues.js";
import {fill} from "./board_tools.js";
import {boardFor, boardParts} from "./game_boards.js";
import {ruleLink} from "./rule_links.js";

const app = document.getElementById("app");
export const live = app ? tableConnection(app) : null;
if (live) {
  window.live = live;  // the page's one global: the browser tests read the table through it
  document.addEventListener("DOMContentLoaded", () => live.connect());
}

// The host's row of buttons keeps one line and scrolls sideways where the phone is too narrow (app.css): while
// buttons wait past its right edge, the row is marked "more" and its end fades, so nobody takes it for the whole row.
function moreAtTheEnd(row) {
  row.classList.toggle("more", row.scrollLeft + row.clientWidth < row.scrollWidth - 2);
}

// A tap is a press and a release on the same button. A frame drawn between the two replaces the button
// under the finger, and the tap is lost: the bot not added, the die not chosen. So while a pointer is down
// the page waits to draw; the newest frame is drawn as soon as the last pointer lifts (after the tap's
// click has been handled, so the tap acts on what the player saw), or once the press has lasted `maxMs`
// (a long press, or a release the page never heard of, never leaves the screen behind the table).
function pressHold(maxMs) {
  const down = new Set();
  let since = 0, waiting = null, timer = 0;
  const flush = () => {
    clearTimeout(timer);
    const fn = waiting;
    waiting = null;
    if (fn) fn();
  };
  const lift = (e) => {
    down.delete(e.pointerId);
    if (!down.size && waiting) setTimeout(flush, 0);  // after this release's click
  };
  document.addEventListener("pointerdown", (e) => {
    if (e.isPrimary) down.clear();  // a new first pointer: any press not heard ending is over
    if (!down.size) since = Date.now();
    down.add(e.pointerId);
  }, true);
  document.addEventListener("pointerup", lift, true);
  document.addEventListener("pointercancel", lift, true);
  return {
    // True when `draw` must wait: it is called again when the press ends (at most `maxMs` after it began).
    hold(draw) {
      const left = since + maxMs - Date.now();
      if (!down.size || left <= 0) { waiting = null; clearTimeout(timer); return false; }
      if (!waiting) timer = setTimeout(flush, left);
      waiting = draw;
      return true;
    },
  };
}

function tableConnection(app) {
  const T = JSON.parse(document.getElementById("i18n").textContent);

  const $ = (id) => document.getElementById(id);
  const PING_MS = window.SIXDICE_PING_MS || 25000;  // heartbeat interval (a test may shorten it)
  const AWAY_MS = window.SIXDICE_AWAY_MS || 30000;  // the seat in turn away this long: the host is asked (a test may shorten it)
  // The game's own words for its moves ("Undo {name}'s roll"), keyed by the engine's move_kind; else "move".
  const wordsNode = document.getElementById("move-words");
  const W = wordsNode ? JSON.parse(wordsNode.textContent) : {};
  const STALE_MS = window.SIXDICE_STALE_MS || 600;  // a lost race: the pause before the board moves under the thumb
  const RETRY_MS = window.SIXDICE_RETRY_MS || 500;  // first reconnection delay, before jitter (a test may lengthen it)

  const NO_OFFERS = {take_back: null, undo: null, actors: Object.freeze([]), can_end: false};  // each offer's "none"
  const held = pressHold(window.SIXDICE_HOLD_MS || 1000);

  function newActionId() {  // random, unique per tap; kept when the same action is sent again
    const bytes = new Uint8Array(12);
    crypto.getRandomValues(bytes);
    return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  }

  const live = {
    code: app.dataset.code, role: app.dataset.role, slug: app.dataset.game,
    seat: null, host: false, table: null, presence: {connected: []}, game: null, undone: new Set(),
    standings: [], log: [], T, W, nextId: 1, ws: null, attempt: 0, listeners: [],
    get renderer() { return boardFor(this.slug); },  // the game's board (game_boards.js)

    connect() {
      const proto = location.protocol === "https:" ? "wss" : "ws";
      let url = `${proto}://${location.host}/ws/t/${this.code}/`;
      if (this.game) url += `?game=${this.game.id}&since=${this.game.seq}`;
      const ws = new WebSocket(url);
      this.ws = ws;
      this.pingAt = null; this.lastPing = Date.now();
      ws.onopen = () => { this.attempt = 0; $("banner").hidden = true; };
      ws.onmessage = (e) => this.receive(JSON.parse(e.data));
      ws.onclose = (e) => {
        if (this.ws !== ws) return;
        if (e.code === 4404) return;
        this.lost();
      };
    },
    lost() {  // the socket is gone (or dead): show the banner and try again with backoff and jitter
      this.ws = null;
      $("banner").hidden = false;
      if (this.pending) { this.pending.offline = true; this.showSending(true); }  // resent on reconnect
      const delay = Math.min(15000, RETRY_MS * 2 ** this.attempt++) * (0.5 + Math.random());
      setTimeout(() => this.connect(), delay);
    },
    heartbeat() {  // every PING_MS a ping; no pong within two intervals: the socket is dead
      const ws = this.ws;
      if (!ws || ws.readyState !== WebSocket.OPEN) return;
      const now = Date.now();
      if (this.pingAt !== null && now - this.pingAt >= 2 * PING_MS) {
        // Open but silent (a half-open connection): give it up and reconnect.
        ws.onclose = ws.onmessage = ws.onopen = null;
        try { ws.close(); } catch (err) { /* already closing */ }
        this.lost();
        return;
      }
      if (now - this.lastPing >= PING_MS) {
        this.lastPing = now;
        if (this.pingAt === null) this.pingAt = now;
        this.send({type: "ping"});
      }
    },

    send(msg) {
      if (!this.ws || this.ws.readyState !== WebSocket.OPEN) { this.toast(T.offline); return null; }
      msg.id = this.nextId++;
      this.ws.send(JSON.stringify(msg));
      return msg.id;
    },
    act(action, asHost) {
      if (!this.game) return null;
      if (this.pending) { this.toast(T.sending); return null; }  // one action at a time: the last is on its way
      const frame = {type: "action", seq: this.game.seq, action, as_host: !!asHost, action_id: newActionId()};
      this.pending = {frame, ref: null, offline: false};
      this.sendPending();
      return this.pending ? this.pending.ref : null;
    },
    sendPending() {  // (again) send the action waiting for its answer, with its own action id
      const p = this.pending;
      if (!p) return;
      if (!this.ws || this.ws.readyState !== WebSocket.OPEN) {
        p.offline = true;
        this.showSending(true);
        return;
      }
      const frame = Object.assign({}, p.frame);
      p.ref = this.send(frame);
    },
    settle(msg) {  // the answer to the waiting action: an ack (maybe of an earlier send), or a refusal
      const p = this.pending;
      if (!p || msg.ref !== p.ref) return false;
      this.pending = null;
      this.showSending(false);
      if (msg.type === "ack") { if (p.offline) this.toast(T.sent); }
      else this.toast(p.offline ? T.notSent + " " + msg.message : msg.message);
      return true;
    },
    showSending(on) {
      document.body.classList.toggle("sending", on);
      if (on) toast(T.sending, 0);  // until the answer comes
    },
    // A player's take-back (docs/undo.md): the server says which seat may take back which move now
    // (game.take_back in a frame, take_back in an update; docs/protocol.md), at a table that allows it
    // (table.take_back).  Returns the event it would take back when it is this phone's seat, or null.
    takeBackable() {
      if (this.role !== "seat" || this.seat === null || !this.game || this.game.status !== "playing") return null;
      if (!this.table || this.table.paused || !this.table.take_back) return null;
      const offer = this.game.take_back;
      if (!offer || offer.seat !== this.seat) return null;
      return this.log.find((e) => e.seq === offer.seq) || null;
    },
    takeBack() {
      if (!this.game || this.pending) return null;
      return this.send({type: "take_back", seq: this.game.seq});
    },
    // "Take back your roll", "Undo Ann's roll": the kind of move is the engine's (move_kind), its words the game's.
    // The undo names the seat whose move it is (offer.seat; null: the host's own move), not who sent it.
    moveLabel(prefix, offer) {
      const actor = "seat" in offer ? (offer.seat === null ? "host" : String(offer.seat)) : String(offer.actor != null ? offer.actor : "");
      const seat = /^\d+$/.test(actor) && this.table ? this.table.seats.find((s) => s.position === Number(actor)) : null;
      const name = actor === "host" ? T.theHost : seat ? seat.name : "?";
      return fill(W[`${prefix}_${offer.kind}`] || T[`${prefix}_move`], {name});
    },
    drawTakeBack() {  // a labelled bar above the board, while this phone's seat plays a game at a table that allows it
      const bar = $("take-back-bar"), button = $("take-back");
      if (!bar || !button) return;
      const g = this.game;
      const mine = this.takeBackable();
      // A seated host's own last move: her row's Undo names it already ("Undo Ana's grouping"); one button, not two.
      const hostsOwn = !!(mine && this.host && g.undo && g.undo.seq === mine.seq);
      // Offered only when there is something to take back (the server's offer names this seat's last move).
      bar.hidden = !(this.role === "seat" && this.seat !== null && g && g.status === "playing" && this.table &&
                     this.table.take_back && this.table.status !== "closed" && mine) || hostsOwn;
      button.disabled = !mine;
      const label = mine ? this.moveLabel("takeBack", g.take_back) : T.takeBack;
      if (button.dataset.label !== label) { button.dataset.label = label; button.replaceChildren("\u21b6 " + label); }
      button.title = mine ? mine.text : "";
      const why = $("take-back-why");
      why.hidden = true;
      why.textContent = "";
    },
    onReply(ref, fn) { if (ref) (this.waiting || (this.waiting = {}))[ref] = fn; },
    replied(msg) {  // a direct answer someone waits for (onReply): handled there, not toasted
      const fn = this.waiting && msg.ref != null && this.waiting[msg.ref];
      if (!fn) return false;
      delete this.waiting[msg.ref];
      fn(msg);
      return true;
    },
    hostCommand(command, extra) { return this.send(Object.assign({type: "host", command}, extra || {})); },
    onChange(fn) { this.listeners.push(fn); },

    receive(msg) {
      switch (msg.type) {
        case "welcome": case "snapshot": case "revoked": {
          // A table frame older than the one we have was overtaken by a newer one: drop it.
          if (msg.type === "snapshot" && this.table && msg.table.version < this.table.version) return;
          const before = this.log;
          this.applySnapshot(msg);
          if (msg.missed) {  // a reconnect: keep our log and add what we missed
            const last = before.length ? before[before.length - 1].seq : 0;
            this.log = before.concat(msg.missed.filter((e) => e.seq > last));
            this.lastEvents = msg.missed;
          }
          if (msg.type === "revoked") this.toast(msg.message);
          if (msg.type === "welcome" && this.pending) this.sendPending();  // back online: deliver it now
          break;
        }
        case "update": this.applyUpdate(msg); break;
        case "presence": this.presence = msg; break;
        case "timer": this.timer = msg; this.timerAt = Date.now(); break;  // the countdown (turn_timer.js)
        case "ack": this.settle(msg); this.replied(msg); return;
        case "pong":  // the table moved on without us (lost broadcasts): catch up
          this.pingAt = null;
          if (this.checkVersion(msg.version)) return;
          if (msg.game !== (this.game ? this.game.id : null) || (this.game && msg.seq > this.game.seq)) {
            this.send({type: "resync", game: this.game ? this.game.id : null, since: this.game ? this.game.seq : 0});
          }
          return;
        case "error":
          if (!this.settle(msg) && !this.replied(msg)) this.toast(msg.message);
          if (msg.snapshot && msg.code === "stale") {
            // A lost race: someone moved while this player was tapping.  The message says so at once; the board
            // (and the prompt under the thumb) follows after a short pause, so a tap in flight lands on nothing new.
            const snap = msg.snapshot;
            setTimeout(() => { this.applySnapshot(snap); this.draw(); }, STALE_MS);
            return;
          }
          if (msg.snapshot) this.applySnapshot(msg.snapshot);
          break;
        case "handover": this.showHandover(msg); break;
        case "hint": this.hostHint = msg; break;  // the host asked for an away seat's hint (host command "hint")
        default: return;
      }
      this.draw();
    },
    applySnapshot(s) {
      this.role = s.role; this.seat = s.seat; this.host = s.host;
      this.table = s.table; this.presence = s.presence; this.standings = s.standings || [];
      this.timer = s.timer || null; this.timerAt = Date.now(); this.awaySeat = s.away_seat ?? null;  // turn_timer.js
      // The game's time limit: the time left as the server worked it out, counted down from now (sixdice_board.js).
      this.timeLimit = s.time_limit || null; this.timeLimitAt = this.timerAt;
      // A table frame (or an error's snapshot) can be overtaken by updates: take its table part,
      // but never step back to an older state of the same game.
      if (s.game && this.game && s.game.id === this.game.id && s.game.seq < this.game.seq) return;
      this.game = s.game ? {id: s.game.id, number: s.game.number, seq: s.game.seq, status: s.game.status,
                            players: s.game.players, started_at: s.game.started_at, view: s.game.view,
                            links: s.game.links || null,  // a finished game's end links
                            corrections: s.game.corrections || []} : null;  // the host's: typed-in rolls, latest first
      this.undone = new Set();
      if (s.game) this.mergeOffers(s.game, true);
      this.log = s.game ? s.game.log.slice() : [];
      this.lastEvents = [];
    },
    // What the page may offer, as the server says (sixdice/tables/wire/offers.py): the take-back, the host's
    // undo, the seats in turn and the moves an undo struck out; merged here only.  A table frame's game
    // (whole) has every key, a missing one meaning none; an update has only the keys its events decide,
    // a missing one unchanged.
    mergeOffers(from, whole) {
      for (const [key, none] of Object.entries(NO_OFFERS)) {
        if (key in from) this.game[key] = from[key] ?? none;
        else if (whole) this.game[key] = none;
      }
      if (whole) this.undone = new Set(from.undone || []);  // struck through in the log
      if (from.undone_from != null) this.send({type: "resync_table"});  // an undo: the table frame lists what it struck out
    },
    checkVersion(version) {  // a table change we missed: ask for the table (the answer is a snapshot)
      if (!this.table || !(version > this.table.version) || version <= (this.askedVersion || -1)) return false;
      this.askedVersion = version;
      this.send({type: "resync_table"});
      return true;
    },
    applyUpdate(u) {
      this.checkVersion(u.version);
      if (!this.game || this.game.id !== u.game) {
        this.send({type: "resync", game: this.game ? this.game.id : null, since: 0});
        return;
      }
      const fresh = u.events.filter((e) => e.seq > this.game.seq);
      if (!fresh.length) return;  // a duplicate: already seen
      if (fresh[0].seq !== this.game.seq + 1) {  // a gap: ask for what was missed
        this.send({type: "resync", game: this.game.id, since: this.game.seq});
        return;
      }
      this.game.seq = u.seq; this.game.status = u.status; this.game.view = u.view;
      this.mergeOffers(u, false);
      if (u.corrections && u.corrections.length) this.game.corrections = u.corrections.concat(this.game.corrections || []);
      this.log.push(...fresh);
      this.lastEvents = fresh;
      for (const e of fresh) if (e.action && e.action.type === "undo" && !e.notice) this.toast(e.text);  // in this phone's language
    },
    // News beside the board (the event's `notice` and `yours`, as long as its `about` is the board shown):
    // hand_news.js draws it; the move log keeps it (drawLog).
    toast(text) { toast(text); },
    confirmed(question, name) { return window.confirm(`${name}: ${question}`); },
    showHandover(msg) {  // the link (and its QR code) goes beside the seat it is for, where the host tapped
      (this.handovers || (this.handovers = {}))[msg.position] = msg;
      const seats = $("seats-card");
      if (seats && !seats.classList.contains("open")) {
        const opener = document.querySelector('[data-sheet="seats-card"]');
        if (opener && opener.getAttribute("aria-expanded") !== "true") opener.click();
      }
    },
    handoverBox(position) {
      const msg = (this.handovers || {})[position];
      if (!msg) return null;
      const url = location.origin + msg.url;
      const qr = el("div", {class: "qr handover-qr", role: "img", "aria-label": T.handoverQr});
      if (msg.qr) qr.innerHTML = msg.qr;  // an SVG the server drew (segno), as the join QR
      return el("div", {class: "handover", "data-handover": position},
        el("p", {}, T.handoverLink + " ", el("a", {href: url, class: "handover-link"}, url)), msg.qr ? qr : null,
        el("button", {type: "button", class: "small secondary", "data-handover-close": position,
                      onclick: () => { delete this.handovers[position]; this.draw(); }}, T.close));
    },

    draw() {
      if (held.hold(() => this.draw())) return;  // a finger is on the page: drawn when it lifts
      this.drawSeats();
      this.drawLog();
      this.drawTakeBack();
      this.placeHostConsole();
      const closed = !!(this.table && this.table.status === "closed");
      const renderer = this.renderer;
      const board = $("board"), bar = $("take-back-bar");
      if (bar && board && board.contains(bar)) { board.before(bar); bar.style.order = ""; }  // out, before the board is drawn again
      if (closed) this.drawClosed(board);  // every phone at once: no prompt, no "Your turn" left
      else if (renderer) {
        renderer.render(this, board);
        for (const part of boardParts(this.slug)) part(this);  // drawn after the board (sixdice_bots.js)
      }
      // While the player acts, the take-back goes right under the prompt: the prompt keeps the first screen.
      const act = board && board.querySelector('[data-region="act"]');
      if (bar && act && !bar.hidden) { act.after(bar); bar.style.order = getComputedStyle(act).order; }  // the game may order its regions
      this.markAway(board);
      for (const fn of this.listeners) fn(this);
      this.drawAwayPrompt();
      document.body.classList.toggle("paused", !!(this.table && this.table.paused));
      document.body.classList.toggle("table-closed", closed);
      this.markReady();
    },
    // The page's readiness signal (docs/scripts.md): <html data-live="ready"> once a table frame is
    // drawn, and data-seq="<the game's seq>" as each is drawn.  Browser tests wait on it.
    markReady() {
      if (!this.table) return;
      const root = document.documentElement;
      root.dataset.seq = this.game ? String(this.game.seq) : "";
      root.dataset.live = "ready";
    },
    // Seats the game is played for by a phone that is not here now (bots are never away).
    awaySeats() {
      if (!this.table || this.table.status === "lobby") return new Set();
      const online = new Set(this.presence.connected || []);
      return new Set(this.table.seats.filter((s) => !s.bot && !s.vacant && !online.has(s.position)).map((s) => s.position));
    },
    markAway(board) {  // each game marks its hands with data-hand="<seat>" (and the name with data-hand-name)
      if (!board) return;
      const away = this.awaySeats();
      for (const node of board.querySelectorAll("[data-hand]")) {
        if (!/^\d+$/.test(node.dataset.hand)) continue;  // a seat number, nothing else ("" would read as seat 0)
        const gone = away.has(Number(node.dataset.hand));
        node.classList.toggle("away", gone);
        const old = node.querySelector(".away-mark");
        if (!gone) { if (old) old.remove(); continue; }
        if (old) continue;
        const mark = el("span", {class: "away-mark"}, T.away);
        const name = node.querySelector("[data-hand-name]");
        if (name) name.after(" ", mark); else node.prepend(mark);
      }
    },
    // The host is asked when the seat in turn has been away a while at a table with no turn timer.
    drawAwayPrompt() {
      const box = $("away-prompt");
      if (!box) return;
      const now = Date.now(), away = this.awaySeats();
      const since = this.awaySince || (this.awaySince = {});
      for (const k of Object.keys(since)) if (!away.has(Number(k))) delete since[k];
      for (const s of away) if (!(s in since)) since[s] = now;
      const waited = this.waited || (this.waited = {});
      const g = this.game;
      const turn = g && g.status === "playing" && this.table.status === "playing" && !this.timer ? g.actors || [] : [];
      const seat = turn.find((s) => s in since && now - since[s] >= AWAY_MS && waited[s] !== since[s] && s !== this.seat);
      put(box, "hidden", !this.host || seat === undefined);
      if (box.hidden) { put(box.dataset, "seat", ""); return; }
      if (box.dataset.seat === String(seat)) return;
      box.dataset.seat = String(seat);
      const name = (this.table.seats.find((s) => s.position === seat) || {}).name || "?";
      box.replaceChildren(
        el("p", {}, fill(T.awayAsk, {name})),
        el("div", {class: "row"},
          el("button", {type: "button", "data-away-act": "bot", onclick: () => this.hostCommand("bot", {position: seat, on: true})}, T.makeBot),
          el("button", {type: "button", class: "secondary", "data-away-act": "wait",
                        onclick: () => { waited[seat] = since[seat]; this.drawAwayPrompt(); }}, T.wait)));
    },
    // A host who holds a seat: the hand and the prompts first, the host console folded below (side by side on a laptop).
    placeHostConsole() {
      const top = document.querySelector(".host-top"), board = $("board");
      const seated = !!(this.host && this.seat !== null);
      document.body.classList.toggle("host-seated", seated);
      if (!top || !board || !seated) return;
      let fold = $("host-console");
      if (!fold) {
        fold = el("details", {id: "host-console", class: "card host-console"}, el("summary", {}, T.hostConsole));
        const split = el("div", {class: "host-split"});
        board.before(split);
        split.append(board, fold);
        fold.append(top);
        fold.addEventListener("toggle", () => { this.consoleChosen = fold.open; });
      }
      const playing = !!(this.game && this.game.status === "playing" && this.table.status === "playing");
      const open = this.consoleChosen != null && this.consolePlaying === playing ? this.consoleChosen : !playing;
      if (this.consolePlaying !== playing) { this.consolePlaying = playing; this.consoleChosen = null; }
      if (fold.open !== open) fold.open = open;
    },
    drawClosed(board) {  // the table is closed: the note and the final standings on top, the same on every phone
      if (!board) return;
      cues.myTurn(false);
      const rows = (this.standings || []).slice().sort((a, b) => b.wins - a.wins || a.lost - b.lost || a.position - b.position);
      const played = rows.some((r) => r.wins || r.lost);
      const note = $("closed-note");
      board.replaceChildren(el("section", {class: "card closed-card", "data-region": "closed"},
        note,
        played
          ? el("table", {class: "final-standings"},
              el("caption", {}, T.finalStandings),
              el("thead", {}, el("tr", {}, el("th", {scope: "col"}, T.player), el("th", {scope: "col"}, T.wins))),
              el("tbody", {}, rows.map((r) => el("tr", {"data-seat": r.position},
                el("th", {scope: "row"}, r.name), el("td", {}, String(r.wins))))))
          : el("p", {class: "muted"}, T.noFinished)));
    },
    drawSeats() {
      if (!this.table) return;
      const online = new Set(this.presence.connected || []);
      const lost = $("lost-seat");  // the page said this phone's seat was held elsewhere: it has it back now
      if (lost && this.seat !== null) lost.hidden = true;
      const watching = $("watching-note");
      if (watching) watching.hidden = this.seat !== null;
      if (!this.host && app.dataset.role !== this.role) app.dataset.role = this.role;
      const rows = this.table.seats.map((s) => el("li", {class: "seat" + (s.position === this.seat ? " me" : ""), "data-seat": s.position},
        el("span", {class: "dot " + (s.bot || online.has(s.position) ? "on" : "off"),
                    title: s.bot || online.has(s.position) ? T.online : T.offline}),
        el("span", {class: "name"}, s.name),
        s.position === this.seat ? el("small", {}, ` (${T.you})`) : null,
        s.bot ? el("small", {}, ` (${T.bot})`) : null,
        this.host ? el("span", {class: "seat-actions"},
          el("button", {type: "button", class: "small", "data-seat-act": "handover",
                        onclick: () => this.confirmed(T.handOverConfirm, s.name) && this.hostCommand("handover", {position: s.position})}, T.handOver),
          // "Give the seat back" only to a phone the app stands in for; the app's own players have no one to give it to.
          s.bot
            ? (s.returnable ? el("button", {type: "button", class: "small", "data-seat-act": "give-back",
                                            onclick: () => this.hostCommand("bot", {position: s.position, on: false})}, T.giveBack) : null)
            : el("button", {type: "button", class: "small", "data-seat-act": "bot",
                            onclick: () => this.confirmed(T.makeBotConfirm, s.name) && this.hostCommand("bot", {position: s.position, on: true})}, T.makeBot))
          : null,
        this.host ? this.handoverBox(s.position) : null));
      if (!rows.length) rows.push(el("li", {class: "muted"}, T.waiting));
      $("seats").replaceChildren(...rows);
      const hc = $("host-controls");
      if (hc) {
        const status = this.table.status, playing = this.game && this.game.status === "playing";
        hc.querySelector('[data-host="start"]').hidden = status !== "lobby";
        hc.querySelector('[data-host="pause"]').hidden = !playing || this.table.paused;
        hc.querySelector('[data-host="resume"]').hidden = !playing || !this.table.paused;
        const rematch = hc.querySelector('[data-host="rematch"]');  // the one button that starts the next game
        rematch.hidden = !(this.game && this.game.status === "finished");
        if (W.rematch && rematch.textContent !== W.rematch) rematch.textContent = W.rematch;  // the game's word for it
        let undo = hc.querySelector('[data-host="undo"]');  // the host takes the last move back (docs/undo.md)
        if (!undo) {
          undo = el("button", {type: "button", "data-host": "undo", class: "secondary"}, T.undo);
          hc.querySelector('[data-host="rematch"]').after(undo);
        }
        const end = hc.querySelector('[data-host="end"]');  // at every table: the hands as they stand decide
        if (end) {
          end.hidden = !(playing && this.game.can_end);
          if (W.endNow && end.textContent !== W.endNow) end.textContent = W.endNow;  // the game's word for it
        }
        const offer = playing ? this.game.undo : null;  // the server says which move it would take back
        undo.hidden = !playing;
        undo.disabled = !offer;  // then its words say why: nothing to undo yet
        const label = offer ? this.moveLabel("undo", offer) : T.undoNone;
        if (undo.textContent !== label) undo.textContent = label;
        hc.hidden = status === "closed";
        moreAtTheEnd(hc);
        const sit = $("host-sit");  // the host's own seat: taken in the lobby or between games
        if (sit) sit.hidden = !(status === "lobby" || status === "finished");
      }
      $("closed-note").hidden = this.table.status !== "closed";
      const links = $("game-links"), to = this.game && this.game.status === "finished" ? this.game.links : null;
      if (links) {  // the end screen: replay, standings, "Send to BG Stats" (the table frame's links)
        links.hidden = !to;
        for (const a of links.querySelectorAll("[data-link]")) { if (to && to[a.dataset.link]) a.href = to[a.dataset.link]; a.hidden = !(to && to[a.dataset.link]); }
      }
      const lobby = $("lobby-note");  // a phone in the lobby: the host has not started yet
      if (lobby) lobby.hidden = !(this.table.status === "lobby" && !this.host);
    },
    logNews(e) {  // the news a line carried, kept in the log once the board has moved past it (hand_news.js)
      const mine = this.seat !== null && e.yours ? e.yours[String(this.seat)] : null;
      const said = [e.notice && e.notice !== e.text ? e.notice : null, mine].filter(Boolean);
      return said.length ? el("small", {class: "log-news"}, " " + said.join(" · ")) : null;
    },
    drawLog() {
      const gone = this.undone || new Set();  // moves an undo took back (the server's list): struck through, still in the log
      const rule = ruleLink;  // the rule a line applies (rule_links.js)
      const items = this.log.slice(-60).reverse().map((e) => gone.has(e.seq)
        ? el("li", {value: e.seq, class: "undone"}, el("s", {}, e.text))
        : e.stand_in ? el("li", {value: e.seq, class: "stand-in decided"}, e.text)  // the timer ran out: the line says it
        : e.decided ? el("li", {value: e.seq, class: `decided decided-${e.decided.by}`, "data-why": e.decided.why}, e.text, rule(e), this.logNews(e))
        : el("li", {value: e.seq}, e.text, rule(e), this.logNews(e)));
      $("log").replaceChildren(...items);
    },
  };

  const hc = $("host-controls");
  if (hc) {  // the row scrolls sideways on a narrow phone: its end fades while buttons wait past the edge
    hc.addEventListener("scroll", () => moreAtTheEnd(hc), {passive: true});
    window.addEventListener("resize", () => moreAtTheEnd(hc));
  }
  if (hc) hc.addEventListener("click", (e) => {
    const b = e.target.closest("[data-host]");
    const ask = b && (b.dataset.host === "undo" ? fill(T.undoConfirmWhat, {what: b.textContent})
      : {close: T.closeConfirm, end: W.endConfirm || T.endConfirm}[b.dataset.host]);
    // The seq on screen when the host tapped: a move that lands during the confirm is never undone unseen.
    const seen = {expected_seq: live.game ? live.game.seq : 0};
    if (b && (!ask || window.confirm(ask))) live.hostCommand(b.dataset.host, seen);
  });

  const tb = $("take-back");
  if (tb) tb.addEventListener("click", () => {  // it says what it takes back, and asks first
    if (live.takeBackable() && window.confirm(fill(T.takeBackConfirm, {what: tb.dataset.label || T.takeBack}))) live.takeBack();
  });
  // Every second: the host's away prompt appears when the seat in turn has been away long enough.
  setInterval(() => live.drawAwayPrompt(), 1000);

  // Keep the screen awake while the table is open (where the browser allows it).
  async function wake() {
    try { if ("wakeLock" in navigator && document.visibilityState === "visible") await navigator.wakeLock.request("screen"); }
    catch (err) { /* not granted: the screen may sleep */ }
  }
  document.addEventListener("visibilitychange", wake);
  wake();

  setInterval(() => live.heartbeat(), Math.max(50, PING_MS / 5));
  return live;
}
