/* Who is ahead: a rank badge on every hand (the leader marked) from the ranks the server sends in the view,
 * and, when the game is over, one line on why the winner won.  It decorates the board the game's script drew. */
import {fill} from "./board_tools.js";
import {live} from "./live.js";

const app = document.getElementById("app");
const board = document.getElementById("board");
const strings = document.getElementById("ranks-i18n");
if (app && board && strings) showRanks(app, board, strings);

function showRanks(app, board, strings) {
  const T = JSON.parse(strings.textContent);
  const game = app.dataset.game;
  const tr = (key, args) => fill(T[key] || "", args);
  const fmt = (v) => (v > 0 ? "+" + v : v < 0 ? "\u2212" + (-v) : "0");
  let busy = false;

  function names(list) {
    return list.reduce((acc, n) => (acc === null ? n : tr("and", {first: acc, second: n})), null) || "";
  }

  function whyWon(v, players) {
    const winners = game === "sixdice" ? (v.winners || []) : (v.finished || []).slice(0, 1);
    if (!v.over || !winners.length) return "";
    const who = names(winners.map((s) => players[s] || ""));
    if (game === "runbuster") return tr("runbuster.won", {names: who});
    if (v.end_reason === "all_threes") return tr("sixdice.threes", {names: who});
    if (Array.isArray(v.compensation) && v.compensation.length && Array.isArray(v.final_scores)) {
      // the compensation decided with the hand: the score that won is the hand's distance from zero plus it
      const score = Number(v.final_scores[winners[0]] || 0).toLocaleString(document.documentElement.lang || undefined);
      return tr("sixdice.compensated", {names: who, value: score});
    }
    const value = fmt((v.values || [])[winners[0]] || 0);
    return tr(v.end_reason === "rounds" ? "sixdice.rounds" : "sixdice.time", {names: who, value: value});
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
      // Small on screen (the board must fit one screen): a star for the leader, else the place; words for readers.
      const spoken = lead ? tr("leader") : tr("place", {n: rank});
      const shown = lead ? "\u2605" : String(rank);
      let badge = card.querySelector(":scope > .rank-badge");
      if (!badge) {
        badge = document.createElement("span");
        badge.className = "rank-badge";
        badge.append(Object.assign(document.createElement("span"), {className: "sr"}), document.createElement("span"));
        card.classList.add("has-rank");  // the badge sits on the card's top edge: it takes no room on the board
        card.append(badge);
      }
      badge.title = spoken;
      if (badge.firstChild.textContent !== spoken) badge.firstChild.textContent = spoken;
      if (badge.lastChild.textContent !== shown) badge.lastChild.textContent = shown;
      badge.lastChild.setAttribute("aria-hidden", "true");
      badge.classList.toggle("leader", lead);
    });
    let why = board.querySelector(".why-won");
    const line = whyWon(v, players);
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
