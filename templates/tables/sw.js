// Six-Dice's service worker, served at /sw.js so that it looks after every page of the site
// (sixdice/tables/pages/installable.py).  Pages: network first, and the offline page when the server cannot
// be reached.  Static files: from the cache first (served with hashed names), else the network.
"use strict";
const VERSION = "{{ version }}";
const CACHE = "sixdice-" + VERSION;
const OFFLINE = {{ offline_url|safe }};
const PRECACHE = {{ precache|safe }};
const STATIC = {{ static_prefix|safe }};
const HASHED = {{ hashed|safe }};  // static files have hashed names: one name, one content, for ever

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(CACHE)
      .then((cache) => cache.addAll([OFFLINE, ...PRECACHE]))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith("sixdice-") && k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

// The offline page is kept in the language of the pages the phone reads: when a page comes in
// another language (the switcher, or the phone's own setting), the offline page is fetched again.
async function keepOfflineInLanguage(response) {
  const lang = response.headers.get("Content-Language");
  if (!lang || !response.ok) return;
  const cache = await caches.open(CACHE);
  const cached = await cache.match(OFFLINE);
  if (cached && cached.headers.get("Content-Language") === lang) return;
  try {
    await cache.add(OFFLINE);
  } catch (e) { /* the server went away meanwhile: keep the one we have */ }
}

async function navigate(event) {
  try {
    const response = await fetch(event.request);
    event.waitUntil(keepOfflineInLanguage(response.clone()));
    return response;
  } catch (error) {
    const cache = await caches.open(CACHE);
    return (await cache.match(OFFLINE)) || Response.error();
  }
}

async function staticFile(request) {
  const cache = await caches.open(CACHE);
  if (HASHED) {
    const cached = await cache.match(request);
    if (cached) return cached;
  }
  try {
    const response = await fetch(request);
    if (response.ok) await cache.put(request, response.clone());
    return response;
  } catch (error) {
    return (await cache.match(request)) || Response.error();
  }
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    event.respondWith(navigate(event));
  } else if (url.pathname.startsWith(STATIC)) {
    event.respondWith(staticFile(request));
  }
});
