/* News beside the board, on every phone and the table screen, for as long as the server says it holds
 * (docs/protocol.md: an event's `about` and `ends`):
 * - the notice (#notice-card): what an undo, a take-back or a correction changed, the last round beginning;
 *   a sentence addressed to this phone's seat comes first, in its own words ("You: set your dice…");
 * - the news about your own hand (#mine-note): the event's `yours` line for this seat ("Your hand was
 *   regrouped…", "The host chose for you: …", what another player's roll did to your hand).
 * News describes the board at its `about` seq: it shows while the game's seq is that one and goes by itself
 * when the board moves past it (the next move by anyone, an undo, a new round or game); the move log keeps
 * it.  It sits in the board's flow after the prompt, its controls and the player's own hand (each game's CSS
 * gives `.board-news` its place), never over them; a coached game's tip and the hint follow it there.  A phone may tap it away (remembered for the tab); the
 * table screen has nothing to tap.
 */
import {el} from "./dom.js";
import {live} from "./live.js";

if (live) {
  const screen = document.getElementById("app").dataset.view === "screen";
  const box = el("div", {id: "news", class: "board-news", "data-region": "news"});
  const coachNote = document.getElementById("coach-note");  // a coached game's one-line tip (coach.js)
  live.onChange((l) => drawNews(l, box, screen, coachNote));
  // coach.js shows and hides its tip on its own clock: placed (or put away) as it does.
  if (coachNote) new MutationObserver(() => drawNews(live, box, screen, coachNote)).observe(coachNote, {attributes: true, attributeFilter: ["hidden"]});
}

function storeKey(l) { return `sixdice-news-${l.code}-${l.game ? l.game.id : 0}`; }

function dismissed(l) {
  try { return new Set(JSON.parse(sessionStorage.getItem(storeKey(l)) || "[]")); } catch (err) { return l.newsGone || new Set(); }
}

function dismiss(l, key) {
  const gone = dismissed(l);
  gone.add(key);
  l.newsGone = gone;
  try { sessionStorage.setItem(storeKey(l), JSON.stringify([...gone])); } catch (err) { /* this page only */ }
  l.draw();
}

// The news that holds now: events whose `about` is the board on screen (and not taken back by an undo).
export function currentNews(l) {
  const g = l.game;
  if (!g) return [];
  const undone = l.undone || new Set();
  return (l.log || []).filter((e) => e.about != null && e.about === g.seq && !undone.has(e.seq));
}

function noticeLines(l, events, mine) {
  const lines = [];
  for (const e of events) {
    if (!e.notice) continue;
    for (const line of e.notice_lines || [{text: e.notice}]) lines.push(line);
  }
  // This phone's own sentence first, in its own words; the others' after it, as the server ordered them.
  const own = lines.filter((line) => mine !== null && line.seat === mine).map((line) => ({text: line.you || line.text, own: true}));
  return own.concat(lines.filter((line) => !(mine !== null && line.seat === mine)));
}

function drawNews(l, box, screen, coachNote) {
  const board = document.getElementById("board");
  if (!board) return;
  const now = currentNews(l);
  const gone = dismissed(l);
  const seat = !screen && l.role === "seat" && typeof l.seat === "number" ? l.seat : null;
  const at = l.game ? l.game.seq : 0;
  const cards = [];

  const noticeKey = `notice-${at}`;
  const lines = noticeLines(l, now, seat);
  if (lines.length && !gone.has(noticeKey)) {
    const mine = seat !== null && (lines.some((line) => line.own) || now.some((e) => (e.act_again || []).includes(seat)));
    cards.push(el("div", {id: "notice-card", class: "card notice-card" + (mine ? " mine" : ""), role: "status", "data-about": at},
      el("div", {class: "notice-text"}, lines.flatMap((line) => [el("p", {class: line.own ? "notice-own" : ""}, line.text), " "])),
      screen ? null : el("button", {type: "button", class: "small secondary", "data-notice-close": "",
                                    onclick: () => dismiss(l, noticeKey)}, l.T.close)));
  }

  const mineKey = `mine-${at}`;
  const yours = seat === null ? [] : now.filter((e) => e.yours && e.yours[String(seat)]).map((e) => e.yours[String(seat)]);
  if (yours.length && !gone.has(mineKey)) {
    cards.push(el("div", {id: "mine-note", class: "card note mine-note", role: "status", "data-about": at},
      el("span", {class: "mine-text"}, yours.join(" · ")),
      el("button", {type: "button", class: "small secondary", "data-mine-close": "", onclick: () => dismiss(l, mineKey)}, l.T.close)));
  }

  const same = box.dataset.shown === JSON.stringify(cards.map((c) => c.outerHTML));
  if (!same) { box.replaceChildren(...cards); box.dataset.shown = JSON.stringify(cards.map((c) => c.outerHTML)); }
  box.hidden = !cards.length;
  // The news first (what just changed, maybe the player's own dice to set), then the coached game's tip, then the hint.
  const coaching = coachNote && !coachNote.hidden;
  if (coachNote && !coaching && board.contains(coachNote)) board.before(coachNote);  // put away, out of the board
  place(board, [box, ...(coaching ? [coachNote] : []), ...board.querySelectorAll('[data-region="tip"]')]);
}

// The board's flex items (a column drawn with display: contents gives its children), in the order they show.
function items(board) {
  const out = [];
  const walk = (node) => {
    for (const child of node.children) {
      if (getComputedStyle(child).display === "contents") walk(child);
      else out.push(child);
    }
  };
  walk(board);
  return out.map((node, i) => ({node, i, order: Number(getComputedStyle(node).order) || 0}))
    .sort((a, b) => a.order - b.order || a.i - b.i);
}

// News (and the tip) go right after the last part of the board that holds the prompt, a control of it or the
// player's own hand: the dice to tap, the others' dice a move picks from, the end-of-round buttons.  Where the
// board holds none (the table screen, a phone that only watches), the game's CSS order places it.
function place(board, nodes) {
  for (const node of nodes) if (node.parentElement) node.remove();
  const controls = items(board).filter(({node}) => !node.hidden && (node.matches('[data-region="act"], [data-region="me"]') ||
    node.querySelector('[data-region="act"], [data-region="me"], button:not(:disabled), input, select')));
  const last = controls.length ? controls[controls.length - 1] : null;
  let order = last ? String(last.order) : null;
  if (order === null) {  // the place the game's CSS gives the news (.board-news), for every node
    const news = nodes[0];
    news.style.order = "";
    board.append(news);
    order = getComputedStyle(news).order;
  }
  let at = last ? last.node : null;
  for (const node of nodes) {
    node.style.order = order;
    if (at) at.after(node); else board.append(node);
    at = node;
  }
}
