// The offline page, which the service worker shows when the server cannot be reached: it asks the server
// again every few seconds (and at once when the phone says it is back online, or on "Try again now"),
// and shows the page that was asked for as soon as the server answers.
// A file rather than an inline script: the Content-Security-Policy runs no inline code.
const box = document.getElementById("offline");
if (box) watch(box);

function watch(box) {
  const button = document.getElementById("offline-retry");
  const status = document.getElementById("offline-status");
  const home = box.dataset.home || "/";
  // Shown in place of a page (the address is that page's): load it again.  Opened as itself: go home.
  const atItself = location.pathname.replace(/\/$/, "") === "/offline";
  const DELAYS = [1000, 2000, 3000, 5000];  // then every 5 s
  let tries = 0;
  let timer = 0;
  let busy = false;
  let asked = false;  // a tap waits for the answer of the try on its way

  async function attempt(byHand) {
    if (byHand) {
      asked = true;
      status.textContent = button.dataset.trying;
    }
    if (busy) return;  // a try is on its way already: its answer is the tap's too
    busy = true;
    clearTimeout(timer);
    try {
      // Any answer at all means the server is back; a page's own status is for the page to show.
      await fetch(home, { method: "HEAD", cache: "no-store", credentials: "same-origin" });
      if (atItself) location.assign(home); else location.reload();
      return;
    } catch (e) {
      if (asked) status.textContent = button.dataset.failed;
    } finally {
      busy = false;
      asked = false;
    }
    timer = setTimeout(() => attempt(false), DELAYS[Math.min(tries++, DELAYS.length - 1)]);
  }

  button.addEventListener("click", () => attempt(true));
  window.addEventListener("online", () => attempt(false));
  timer = setTimeout(() => attempt(false), DELAYS[tries++]);
}
