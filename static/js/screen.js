/* The table screen (a tablet or TV for the whole room; nobody taps it), around the board:
 * - before the start, the room's invitation: who has joined (live), with the QR code and the link to join
 *   when the screen was opened from the host's link (templates/tables/screen.html);
 * - at the end, body.screen-over: the board puts the winner, why and the standings first, on one screen.
 */
import {el} from "./dom.js";
import {live} from "./live.js";

const node = document.getElementById("screen-i18n");
const T = node ? JSON.parse(node.textContent) : {};

function draw(l) {
  const t = l.table;
  if (!t) return;
  const lobby = document.getElementById("screen-lobby");
  const waiting = t.status === "lobby" && !(l.game && l.game.view);
  if (lobby) lobby.hidden = !waiting;
  document.body.classList.toggle("screen-lobby-on", waiting);
  const list = document.getElementById("screen-seats");
  if (list && waiting) {
    const seats = (t.seats || []).slice().sort((a, b) => a.position - b.position);
    const rows = seats.map((s) => el("li", {"data-seat": s.position}, s.name, s.bot ? el("small", {class: "muted"}, ` (${T.bot})`) : null));
    list.replaceChildren(...(rows.length ? rows : [el("li", {class: "muted"}, T.nobody)]));
  }
  document.body.classList.toggle("screen-over", !!(l.game && l.game.status === "finished"));
}

if (live) live.onChange(draw);
