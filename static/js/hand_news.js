/* News about your own hand, on your own phone: when a move makes the app change your dice by itself (the game's
 * own: a hand regrouped or broken up by the rules, a draw that did not come), or the host or the app chose for you, the
 * event's "yours" line for this seat is shown in the second person, in a card kept until tapped away (a note that
 * vanished by itself was missed; one fixed over the screen covered the hands).  It reads the live table's log. */
import {el} from "./dom.js";
import {live} from "./live.js";

const box = document.getElementById("mine-note");
if (box && live) watchMyHand(box);

function watchMyHand(box) {
  let last = null;

  function check() {
    if (!live.game || live.role !== "seat" || live.seat === null || live.seat === undefined) return;
    const log = live.log || [];
    const top = log.length ? log[log.length - 1].seq : 0;
    if (last === null || top < last) { last = top; return; }  // what was there before this page: not news
    const mine = log.filter((e) => e.seq > last && e.yours && e.yours[String(live.seat)]).map((e) => e.yours[String(live.seat)]);
    last = top;
    if (!mine.length) return;
    box.replaceChildren(el("span", {class: "mine-text"}, mine.join(" · ")),
      el("button", {type: "button", class: "small secondary", "data-mine-close": "", onclick: () => { box.hidden = true; }}, live.T.close));
    box.hidden = false;
  }

  setInterval(check, 300);
}
