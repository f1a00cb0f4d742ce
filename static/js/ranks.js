/* Who is ahead: a rank badge on every hand (the leader marked) from the ranks the server sends in the view,
 * and, when the game is over, one line on why the winner won.  It decorates the board the game's script drew. */
import {fill} from "./board_tools.js";
import {put} from "./dom.js";
import {whyWon} from "./game_boards.js";
import {live} from "./live.js";

const app = document.getElementById("app");
const board = document.getElementById("board");
const strings = document.getElementById("ranks-i18n");
if (app && board && strings) showRanks(app, board, strings);

function showRanks(app, board, strings) {
  const T = JSON.parse(strings.textContent);
  const game = app.dataset.game;
  const tr = (key, args) => fill(T[key] || "", args);
  let busy = false;

  function names(list) {
    return list.reduce((acc, n) => (acc === null ? n : tr("and", {first: acc, second: n})), null) || "";
  }

  function decorate() {
    const g = live && live.game;
    const v = g && g.view;
    if (busy || !v || !Array.isArray(v.ranks)) return;
    busy = true;
    const players = v.names || v.players || g.players || [];
    const leaders = v.ranks.filter((r) => r === 1).length;
    board.querySelectorAll("[data-seat]").forEach((card) => {
      const s = Number(card.dataset.seat);
      if (!(s >= 0 && s < v.ranks.length) || card.closest(".rank-skip")) return;
      if (!card.matches(".sd-hand, .rb-player, .rb-me, section, li")) return;
      const rank = v.ranks[s];
      const lead = rank === 1 && leaders < v.ranks.length;
      // Small on screen (the board must fit one screen): a star for the leader, else the place as people say it
      // ("2nd", not a bare number nobody can read as a place); words for readers.
      const spoken = lead ? tr("leader") : tr("place", {n: rank});
      const shown = lead ? "\u2605" : ((T.ordinals || "").split(",")[rank - 1] || String(rank));
      let badge = card.querySelector(":scope > .rank-badge");
      if (!badge) {
        badge = document.createElement("span");
        badge.className = "rank-badge";
        badge.append(Object.assign(document.createElement("span"), {className: "sr"}), document.createElement("span"));
        card.classList.add("has-rank");  // the badge sits on the card's top edge: it takes no room on the board
        card.append(badge);
      }
      put(badge, "title", spoken);
      put(badge.firstChild, "textContent", spoken);
      put(badge.lastChild, "textContent", shown);
      if (!badge.lastChild.hasAttribute("aria-hidden")) badge.lastChild.setAttribute("aria-hidden", "true");
      badge.classList.toggle("leader", lead);
    });
    let why = board.querySelector(".why-won");
    // Who won and why: the game's board says it (static/js/game_boards.js), the names joined here.
    const line = v.over ? whyWon(game, v, (seats) => names(seats.map((s) => players[s] || ""))) : "";
    if (line && !why) {
      why = document.createElement("p");
      why.className = "card why-won" + (app.dataset.view === "screen" ? " floating" : "");  // the screen: over the hands
      why.setAttribute("role", "status");
      board.prepend(why);
    }
    if (why && why.textContent !== line) why.textContent = line;
    if (why && !line) why.remove();
    busy = false;
  }

  new MutationObserver(() => { if (!busy) window.requestAnimationFrame(decorate); }).observe(board, {childList: true, subtree: true});
  setInterval(decorate, 500);
}
