// Installs the service worker (/sw.js): it lets the app be installed, and shows the app's own offline page
// when the server cannot be reached.  Browsers allow it on HTTPS and on this machine (127.0.0.1,
// localhost) only; over plain HTTP on a LAN there is none, and pages work as before.
// A file rather than an inline script: the Content-Security-Policy runs no inline code.
(() => {
  const url = document.currentScript && document.currentScript.dataset.sw;
  if (!url || !("serviceWorker" in navigator) || !window.isSecureContext) return;
  window.addEventListener("load", () => {
    navigator.serviceWorker.register(url, { scope: "/" }).catch(() => { /* no worker: pages work as before */ });
  });
})();
