/* The live connection of a table page, shared by both games.
 * Keeps the table's state in step with the server (see docs/protocol.md):
 * seq tracking, resync on a gap, table versions (a missed table change is
 * asked for again), reconnect with backoff and jitter, presence,
 * the host's controls and the move log.  Every action carries a client
 * action id; one tapped while offline waits ("sending…") and is sent once
 * the socket is back, with the same id, so it is applied at most once.
 * A socket that stays open but answers no ping for two intervals is closed
 * and opened again (the "reconnecting" banner shows meanwhile).  A game draws its board by
 * registering window.GameRenderers[slug] = {render(live, boardEl)}.
 */
(function () {
  "use strict";
  const app = document.getElementById("app");
  if (!app) return;
  const T = JSON.parse(document.getElementById("i18n").textContent);

  const $ = (id) => document.getElementById(id);
  const el = window.el;
  const PING_MS = window.SIXDICE_PING_MS || 25000;  // heartbeat interval (a test may shorten it)
  const RETRY_MS = window.SIXDICE_RETRY_MS || 500;  // first reconnection delay, before jitter (a test may lengthen it)

  function newActionId() {  // random, unique per tap; kept when the same action is sent again
    const bytes = new Uint8Array(12);
    crypto.getRandomValues(bytes);
    return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  }

  const live = {
    code: app.dataset.code, role: app.dataset.role, slug: app.dataset.game,
    seat: null, host: false, table: null, presence: {connected: []}, game: null,
    standings: [], log: [], el, T, nextId: 1, ws: null, attempt: 0, listeners: [],

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
      const t = $("toast");
      if (on) { clearTimeout(this.toastTimer); t.textContent = T.sending; t.hidden = false; }
    },
    // A player's take-back (docs/undo.md): their own last action, while nobody else has acted and no die
    // has been rolled since, at a table that allows it.  The same rule as the server's (take_back_point);
    // the server decides, this only says whether to offer the button.  Returns the action taken back, or null.
    takeBackable() {
      if (this.role !== "seat" || this.seat === null || !this.game || this.game.status !== "playing") return null;
      if (!this.table || this.table.paused || (this.table.options || {}).takeback === false) return null;
      for (let i = this.log.length - 1; i >= 0; i--) {
        const e = this.log[i], type = e.action && e.action.type;
        if (e.actor === "system" && type !== "roll") continue;  // a server step that drew nothing goes with it
        return e.actor === String(this.seat) && type !== "roll" && type !== "undo" && !e.stand_in ? e : null;
      }
      return null;
    },
    takeBack() {
      if (!this.game || this.pending) return null;
      return this.send({type: "take_back", seq: this.game.seq});
    },
    drawTakeBack() {  // a button in the header: it takes no room from the board
      const button = $("take-back");
      if (!button) return;
      const mine = this.takeBackable();
      button.hidden = !mine;
      $("take-back-move").textContent = mine ? mine.text : "";
      button.title = mine ? `${button.getAttribute("aria-label")}: ${mine.text}` : "";
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
    plural: window.plural,

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
        case "timer": this.timer = msg; this.timerAt = Date.now(); break;  // the countdown (js/timer.js)
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
          if (msg.snapshot) this.applySnapshot(msg.snapshot);
          break;
        case "handover": this.showHandover(msg); break;
        default: return;
      }
      this.draw();
    },
    applySnapshot(s) {
      this.role = s.role; this.seat = s.seat; this.host = s.host;
      this.table = s.table; this.presence = s.presence; this.standings = s.standings || [];
      this.timer = s.timer || null; this.timerAt = Date.now(); this.awaySeat = s.away_seat ?? null;  // js/timer.js
      // A table frame (or an error's snapshot) can be overtaken by updates: take its table part,
      // but never step back to an older state of the same game.
      if (s.game && this.game && s.game.id === this.game.id && s.game.seq < this.game.seq) return;
      this.game = s.game ? {id: s.game.id, number: s.game.number, seq: s.game.seq, status: s.game.status,
                            players: s.game.players, started_at: s.game.started_at, view: s.game.view} : null;
      this.log = s.game ? s.game.log.slice() : [];
      this.lastEvents = [];
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
      this.log.push(...fresh);
      this.lastEvents = fresh;
      for (const e of fresh) if (e.action && e.action.type === "undo") this.toast(e.text);  // in this phone's language
    },

    toast(text) {
      const t = $("toast");
      t.textContent = text; t.hidden = false;
      clearTimeout(this.toastTimer);
      this.toastTimer = setTimeout(() => { t.hidden = true; }, 5000);
    },
    confirmed(question, name) { return window.confirm(`${name}: ${question}`); },
    showHandover(msg) {
      const p = $("handover");
      const url = location.origin + msg.url;
      const qr = el("div", {class: "qr handover-qr", role: "img", "aria-label": T.handoverQr});
      if (msg.qr) qr.innerHTML = msg.qr;  // an SVG the server drew (segno), as the join QR
      p.replaceChildren(T.handoverLink + " ", el("a", {href: url, class: "handover-link"}, url), msg.qr ? qr : "");
      p.hidden = false;
    },

    draw() {
      this.drawSeats();
      this.drawLog();
      this.drawTakeBack();
      const renderer = (window.GameRenderers || {})[this.slug];
      if (renderer) renderer.render(this, $("board"));
      for (const fn of this.listeners) fn(this);
      document.body.classList.toggle("paused", !!(this.table && this.table.paused));
    },
    drawSeats() {
      if (!this.table) return;
      const online = new Set(this.presence.connected || []);
      const rows = this.table.seats.map((s) => el("li", {class: "seat" + (s.position === this.seat ? " me" : ""), "data-seat": s.position},
        el("span", {class: "dot " + (s.bot || online.has(s.position) ? "on" : "off"),
                    title: s.bot || online.has(s.position) ? T.online : T.offline}),
        el("span", {class: "name"}, s.name),
        s.position === this.seat ? el("small", {}, ` (${T.you})`) : null,
        s.bot ? el("small", {}, ` (${T.bot})`) : null,
        this.role === "host" ? el("span", {class: "seat-actions"},
          el("button", {type: "button", class: "small", "data-seat-act": "handover",
                        onclick: () => this.confirmed(T.handOverConfirm, s.name) && this.hostCommand("handover", {position: s.position})}, T.handOver),
          s.bot
            ? el("button", {type: "button", class: "small", "data-seat-act": "give-back",
                            onclick: () => this.hostCommand("bot", {position: s.position, on: false})}, T.giveBack)
            : el("button", {type: "button", class: "small", "data-seat-act": "bot",
                            onclick: () => this.confirmed(T.makeBotConfirm, s.name) && this.hostCommand("bot", {position: s.position, on: true})}, T.makeBot))
          : null));
      if (!rows.length) rows.push(el("li", {class: "muted"}, T.waiting));
      $("seats").replaceChildren(...rows);
      const hc = $("host-controls");
      if (hc) {
        const status = this.table.status, playing = this.game && this.game.status === "playing";
        hc.querySelector('[data-host="start"]').hidden = status !== "lobby";
        hc.querySelector('[data-host="pause"]').hidden = !playing || this.table.paused;
        hc.querySelector('[data-host="resume"]').hidden = !playing || !this.table.paused;
        hc.querySelector('[data-host="rematch"]').hidden = !(this.game && this.game.status === "finished");
        let undo = hc.querySelector('[data-host="undo"]');  // the host takes the last move back (docs/undo.md)
        if (!undo) {
          undo = el("button", {type: "button", "data-host": "undo", class: "secondary"}, T.undo);
          hc.querySelector('[data-host="rematch"]').after(undo);
        }
        undo.hidden = !playing || !this.game.seq;
        hc.hidden = status === "closed";
      }
      $("closed-note").hidden = this.table.status !== "closed";
      const lobby = $("lobby-note");  // a phone in the lobby: the host has not started yet
      if (lobby) lobby.hidden = !(this.table.status === "lobby" && this.role !== "host");
    },
    drawLog() {
      const gone = new Set(), line = [];  // moves an undo took back: struck through, still in the log
      for (const e of this.log) {
        if (e.action && e.action.type === "undo") { while (line.length && line[line.length - 1] > e.action.to) gone.add(line.pop()); }
        else line.push(e.seq);
      }
      const rule = (e) => window.ruleLink ? window.ruleLink(e) : null;  // rulelinks.js: the rule a line applies
      const items = this.log.slice(-60).reverse().map((e) => gone.has(e.seq)
        ? el("li", {value: e.seq, class: "undone"}, el("s", {}, e.text))
        : e.stand_in ? el("li", {value: e.seq, class: "stand-in"}, `${e.text} ${T.standIn}`)  // the timer ran out
        : el("li", {value: e.seq}, e.text, rule(e)));
      $("log").replaceChildren(...items);
    },
  };

  const hc = $("host-controls");
  if (hc) hc.addEventListener("click", (e) => {
    const b = e.target.closest("[data-host]");
    const ask = b && {close: T.closeConfirm, undo: T.undoConfirm}[b.dataset.host];
    // The seq on screen when the host tapped: a move that lands during the confirm is never undone unseen.
    const seen = {expected_seq: live.game ? live.game.seq : 0};
    if (b && (!ask || window.confirm(ask))) live.hostCommand(b.dataset.host, seen);
  });

  const tb = $("take-back");
  if (tb) tb.addEventListener("click", () => live.takeBack());  // one tap: undoing it is playing the move again

  // Keep the screen awake while the table is open (where the browser allows it).
  async function wake() {
    try { if ("wakeLock" in navigator && document.visibilityState === "visible") await navigator.wakeLock.request("screen"); }
    catch (err) { /* not granted: the screen may sleep */ }
  }
  document.addEventListener("visibilitychange", wake);
  wake();

  setInterval(() => live.heartbeat(), Math.max(50, PING_MS / 5));
  window.live = live;
  live.connect();
})();
