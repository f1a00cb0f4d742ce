// Installs the service worker (/sw.js): it lets the app be installed, and shows the app's own offline page
// when the server cannot be reached.  Browsers allow it on HTTPS and on this machine (127.0.0.1,
// localhost) only; over plain HTTP on a LAN there is none, and pages work as before.
// The worker's address is on this script's tag (data-sw).
const tag = document.querySelector("script[data-sw]");
const url = tag && tag.dataset.sw;
if (url && "serviceWorker" in navigator && window.isSecureContext) {
  window.addEventListener("load", () => {
    navigator.serviceWorker.register(url, { scope: "/" }).catch(() => { /* no worker: pages work as before */ });
  });
}
