/* News about your own hand, on your own phone: when a move makes the app change your dice by itself (your hand
 * regrouped, dice back to the bank, no draw, your straight busted), the event's "yours" line for this seat is
 * shown for a few seconds, in the second person.  It reads the live table's log and touches nothing else. */
import {live} from "./live.js";

const box = document.getElementById("mine-note");
if (box && live) watchMyHand(box);

function watchMyHand(box) {
  let last = null, timer = null;

  function check() {
    if (!live.game || live.role !== "seat" || live.seat === null || live.seat === undefined) return;
    const log = live.log || [];
    const top = log.length ? log[log.length - 1].seq : 0;
    if (last === null || top < last) { last = top; return; }  // what was there before this page: not news
    const mine = log.filter((e) => e.seq > last && e.yours && e.yours[String(live.seat)]).map((e) => e.yours[String(live.seat)]);
    last = top;
    if (!mine.length) return;
    box.textContent = mine.join(" · ");
    box.hidden = false;
    clearTimeout(timer);
    timer = setTimeout(() => { box.hidden = true; }, 9000);
  }

  box.addEventListener("click", () => { box.hidden = true; });
  setInterval(check, 300);
}
