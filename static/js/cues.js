/* Cues shared by both boards: the polite announcement, "your turn" vibration and sound, and
 * the dice sound (Web Audio, no audio files; off unless the player turns it on). */

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

export const cues = {
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
