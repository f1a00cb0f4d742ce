/* Small helpers shared by the live table, the game renderers and the replay viewer. */
(function () {
  "use strict";
  window.el = function el(tag, attrs, ...kids) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === "class") node.className = v;
      else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
      else if (v !== false && v != null) node.setAttribute(k, v === true ? "" : v);
    }
    for (const kid of kids.flat()) if (kid != null) node.append(kid);
    return node;
  };

  /* "5 dice" in the page's language: the form for n's plural category (sixdice/tables/core/plural_forms.py). */
  let forms = null;
  const rules = new Intl.PluralRules(document.documentElement.lang || "en");
  window.plural = function plural(key, n) {
    if (forms === null) {
      const node = document.getElementById("plurals");
      forms = node ? JSON.parse(node.textContent) : {};
    }
    const byCategory = forms[key] || {};
    return (byCategory[rules.select(n)] || byCategory.other || String(n)).replace("%(n)s", n);
  };
})();

/* Cues shared by both boards: the polite announcement, "your turn" vibration and sound,
 * the dice sound (Web Audio, no audio files; off unless the player turns it on),
 * and keyboard focus kept while a board is redrawn. */
(function () {
  "use strict";
  const get = (k) => { try { return localStorage.getItem(k); } catch (e) { return null; } };
  let audio = null, wasMine = null, lastSaid = "";

  function ctx() {
    if (!audio) { const A = window.AudioContext || window.webkitAudioContext; if (!A) return null; audio = new A(); }
    if (audio.state === "suspended") audio.resume();
    return audio;
  }
  function tone(freq, at, len, type, gain) {
    const a = ctx();
    if (!a) return;
    const o = a.createOscillator(), g = a.createGain();
    o.type = type || "sine"; o.frequency.value = freq;
    g.gain.setValueAtTime(gain || 0.15, a.currentTime + at);
    g.gain.exponentialRampToValueAtTime(0.0001, a.currentTime + at + len);
    o.connect(g).connect(a.destination);
    o.start(a.currentTime + at); o.stop(a.currentTime + at + len + 0.02);
  }
  function rattle() {  // a few short noise clicks: dice on a table
    const a = ctx();
    if (!a) return;
    for (let k = 0; k < 5; k++) {
      const len = 0.03, buf = a.createBuffer(1, Math.floor(a.sampleRate * len), a.sampleRate);
      const d = buf.getChannelData(0);
      for (let i = 0; i < d.length; i++) d[i] = (Math.random() * 2 - 1) * (1 - i / d.length);
      const src = a.createBufferSource(), g = a.createGain();
      src.buffer = buf; g.gain.value = 0.25;
      src.connect(g).connect(a.destination);
      src.start(a.currentTime + k * 0.06 + Math.random() * 0.02);
    }
  }

  window.cues = {
    vibrateOn: () => get("sixdice.vibrate") === "1",
    soundOn: () => get("sixdice.sound") === "1",
    roll() { if (this.soundOn()) rattle(); },
    /* Call on every redraw with whether the phone's player must act now: cues on the change to true. */
    myTurn(now) {
      if (now && wasMine === false) {
        if (this.vibrateOn() && navigator.vibrate) navigator.vibrate([120, 60, 120]);
        if (this.soundOn()) { tone(660, 0, 0.12); tone(880, 0.14, 0.18); }
      }
      wasMine = now;
    },
    announce(text) {
      const box = document.getElementById("announce");
      if (!box || !text || text === lastSaid) return;
      lastSaid = text;
      box.textContent = text;
    },
  };

  /* Replace a board's children, then give focus back to the control that had it (same data-* keys). */
  window.redraw = function redraw(board, nodes) {
    const a = document.activeElement;
    let sel = null;
    if (a && a !== document.body && board.contains(a)) {
      const keys = ["data-act", "data-seat", "data-i", "data-key", "data-face", "data-value", "data-straight", "data-cand", "data-opt"];
      const parts = keys.filter((k) => a.hasAttribute(k)).map((k) => `[${k}="${CSS.escape(a.getAttribute(k))}"]`);
      sel = parts.length ? a.tagName.toLowerCase() + parts.join("") : null;
    }
    board.replaceChildren(...nodes);
    if (sel) {
      const b = board.querySelector(sel);
      if (b && !b.disabled) b.focus({preventScroll: true});
    }
  };
})();
