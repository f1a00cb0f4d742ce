/* The table page around the board: panels that open over the board with one tap, the
 * settings (vibrate, sound, theme), the host's join card folding away once a game runs,
 * and keeping the screen awake where the Wake Lock API is missing (plain HTTP on the LAN).
 */
import {cues} from "./cues.js";
import {live} from "./live.js";

const me = document.querySelector("script[data-nosleep]");
aroundTheBoard();

function aroundTheBoard() {
  const $ = (id) => document.getElementById(id);
  const set = (k, v) => { try { localStorage.setItem(k, v); } catch (e) { /* private mode */ } };
  const get = (k) => { try { return localStorage.getItem(k); } catch (e) { return null; } };

  // Panels: each tool button opens its panel over the board; a second tap, Close or Escape closes it.
  let opener = null;
  function close() {
    for (const s of document.querySelectorAll(".sheet.open")) s.classList.remove("open");
    for (const b of document.querySelectorAll("[data-sheet]")) b.setAttribute("aria-expanded", "false");
    if (opener) { opener.focus({preventScroll: true}); opener = null; }
  }
  for (const b of document.querySelectorAll("[data-sheet]")) {
    b.addEventListener("click", () => {
      const sheet = $(b.dataset.sheet);
      const was = sheet.classList.contains("open");
      close();
      if (was) return;
      sheet.classList.add("open");
      b.setAttribute("aria-expanded", "true");
      opener = b;
      const first = sheet.querySelector(".sheet-close");
      if (first) first.focus({preventScroll: true});
    });
  }
  for (const c of document.querySelectorAll(".sheet-close")) c.addEventListener("click", close);
  // A link to a panel (the end screen's standings) opens it here, as its tool button does.
  for (const a of document.querySelectorAll("a[data-opens]")) {
    a.addEventListener("click", (e) => {
      const b = document.querySelector(`button[data-sheet="${a.dataset.opens}"]`);
      if (b) { e.preventDefault(); b.click(); }
    });
  }
  document.addEventListener("keydown", (e) => { if (e.key === "Escape") close(); });

  // Settings.
  const vib = $("set-vibrate"), snd = $("set-sound"), theme = $("set-theme");
  if (vib) {
    if (!("vibrate" in navigator)) vib.closest("label").hidden = true;
    vib.checked = get("sixdice.vibrate") === "1";
    vib.addEventListener("change", () => { set("sixdice.vibrate", vib.checked ? "1" : "0"); if (vib.checked && navigator.vibrate) navigator.vibrate(60); });
  }
  if (snd) {
    snd.checked = get("sixdice.sound") === "1";
    snd.addEventListener("change", () => { set("sixdice.sound", snd.checked ? "1" : "0"); if (snd.checked) cues.roll(); });
  }
  if (theme) {
    theme.value = get("sixdice.theme") || "auto";
    theme.addEventListener("change", () => {
      set("sixdice.theme", theme.value);
      if (theme.value === "auto") delete document.documentElement.dataset.theme;
      else document.documentElement.dataset.theme = theme.value;
    });
  }

  // The host's join card folds away on a phone once a game runs (a tap on its summary opens it again).
  let folded = null;
  if (live) {
    live.onChange((l) => {
      const playing = !!(l.game && l.game.status === "playing");
      document.body.classList.toggle("lobby", !l.game);
      const join = $("join-info");
      const key = l.game ? l.game.id : null;
      if (join && playing && folded !== key && window.innerWidth < 1000) { join.open = false; folded = key; }
    });
  }

  // The host closes the table from the Seats panel (out of the way of the game's buttons).
  const closeBtn = document.querySelector('#seats-card [data-host="close"]');
  if (closeBtn && live) {
    const T = JSON.parse(document.getElementById("i18n").textContent);
    closeBtn.addEventListener("click", () => { if (window.confirm(T.closeConfirm)) live.hostCommand("close"); });
    live.onChange((l) => { closeBtn.hidden = !!(l.table && l.table.status === "closed"); });
  }

  // Keep the screen awake: live.js asks the Wake Lock API; where it is missing (not a secure
  // context), NoSleep.js (vendored, MIT) plays a tiny muted video, started by the first tap
  // (kept as live.noSleep, where a test sees that it plays).
  if (!("wakeLock" in navigator) && me && me.dataset.nosleep && live) {
    const start = () => {
      document.removeEventListener("click", start, true);
      const s = document.createElement("script");
      s.src = me.dataset.nosleep;
      s.onload = () => {
        live.noSleep = new window.NoSleep();  // the vendored script's own global
        live.noSleep.enable().catch(() => { /* refused: the screen may sleep */ });
      };
      document.head.append(s);
    };
    document.addEventListener("click", start, true);
  }
}
