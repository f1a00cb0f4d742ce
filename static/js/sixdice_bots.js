/* Six-Dice bots and hints on the live page, kept apart from the board (sixdice_board.js):
 * - in the lobby, the host adds bots of a chosen strength;
 * - with the table's hints option on, the seat that decides (and the host) sees the strong
 *   bot's suggestion for the pending flip, grouping or keep, with its estimated value.
 * It draws after the board (a part of the board in game_boards.js), on the live table only. */
import {el} from "./dom.js";
import {fill, signed} from "./board_tools.js";
import {registerBoardPart} from "./game_boards.js";

const node = document.getElementById("sd-bots-i18n");
const T = node ? JSON.parse(node.textContent) : {};
const tr = (key, args) => fill(T[key] || key, args);
const group = (g) => "(" + g.map((x) => signed(x)).join(" ") + ")";
const flat = (hand) => hand.groups.flat().concat(hand.loose);
let chosen = null;  // the host's pick; until then the strength the server marks as the default

function botLobby(live, t) {
  const offered = (t.bot_strengths || []).slice().reverse();  // the server's list (weakest first): strongest on top
  if (chosen === null || !offered.some((s) => s.value === chosen)) {
    chosen = (offered.find((s) => s.default) || offered[0] || {value: ""}).value;
  }
  const select = el("select", {id: "sd-bot-strength", onchange: (e) => { chosen = e.target.value; }},
    ...offered.map((s) => el("option", {value: s.value, selected: s.value === chosen}, tr(s.label))));
  return el("div", {class: "card sd-bots"},
    el("p", {class: "muted"}, tr("botsHelp")),
    el("label", {for: "sd-bot-strength"}, tr("strength") + " "), select, " ",
    el("button", {type: "button", class: "sd-addbot", disabled: t.seats.length >= t.capacity,
                  onclick: () => live.hostCommand("add_bot", {strength: chosen})}, tr("addBot")));
}

function hintText(v, h) {
  const p = v.pending, a = h.action, seat = p.seat;
  if (h.kind === "flip") {
    const own = flat(v.hands[seat])[a.own], change = a.own_to - own;  // in words: who gains, who drops, how much
    return tr(change > 0 ? "hintFlipUp" : "hintFlipDown", {own: signed(own), ownTo: signed(a.own_to), name: v.players[a.victim],
                           other: signed(flat(v.hands[a.victim])[a.other]), otherTo: signed(a.other_to), n: Math.abs(change)});
  }
  if (h.kind === "group") return tr("hintGroup", {groups: a.zero_groups.concat(a.pairs).map(group).join("")});
  return tr("hintKeep", {groups: a.keep.map((i) => group(v.hands[seat].groups[i])).join("")});
}

function hintCard(live, v) {
  const h = v.hint;
  const mine = v.you === v.pending.seat;
  const value = h.win ? tr("hintWins") : mine ? tr("hintLead", {value: signed(h.value, 1)})
    : tr("hintLeadFor", {value: signed(h.value, 1), name: v.players[v.pending.seat]});
  return el("div", {class: "card sd-hint", role: "note", "data-region": "tip"},
    el("h2", {}, mine ? tr("hint") : tr("hintFor", {name: v.players[v.pending.seat]})),
    el("p", {class: "sd-hint-move"}, hintText(v, h)),
    el("p", {class: "muted sd-hint-value"}, value));
}

// The host answers the grouping or keep of a seat whose phone is away: that seat's hint, on the host's request
// (hints are private: the server sends it to the host alone, host command "hint"), for the choice on screen now.
function hostAnswers(live, v) {
  const g = live.game, t = live.table, p = v.pending;
  return !!(t && (t.options || {}).hints && !t.paused && g.status === "playing" && (live.role === "host" || live.host) &&
            p && (p.kind === "group" || p.kind === "keep") && p.seat !== live.seat && live.awaySeats().has(p.seat));
}

function hostHint(live, v) {
  const asked = live.hostHint, seat = v.pending.seat, name = v.players[seat];
  if (asked && asked.seq === live.game.seq && asked.position === seat) {
    return asked.hint ? hintCard(live, Object.assign({}, v, {hint: asked.hint}))
      : el("p", {class: "card muted sd-hint"}, tr("hintNone", {name}));
  }
  return el("div", {class: "card sd-hint sd-host-hint"},
    el("button", {type: "button", class: "secondary", "data-act": "host-hint",
                  onclick: () => live.hostCommand("hint", {position: seat})}, tr("hintShow", {name})),
    el("p", {class: "muted"}, tr("hintAway", {name})));
}

function draw(live) {
  const board = document.getElementById("board");
  if (!board || live.slug !== "sixdice" || live.role === "replay") return;
  const g = live.game, t = live.table;
  if ((!g || !g.view) && t && live.role === "host" && t.status === "lobby") board.append(botLobby(live, t));
  else if (g && g.view && g.view.hint && g.view.pending && !(t && t.paused)) board.append(hintCard(live, g.view));
  else if (g && g.view && hostAnswers(live, g.view)) board.append(hostHint(live, g.view));
}

registerBoardPart("sixdice", draw);
