// The static site's service worker. Installed, it keeps the page, its script, the WebAssembly
// module, the list of tables and every table the page fetches whole (Nana's); then every file the
// page fetches is asked of the network first and kept, and without a network the kept copy
// answers (offline, it answers first, without asking). Ranges of a large table (Dobutsu's
// blocks) pass by: the page keeps them itself (nana-web.js), which spares each of the hundreds
// of small requests a detour through this worker. So after one visit the page, the module,
// Nana's tables and every block already fetched work offline.
"use strict";
const CACHE = "nana-site-@VERSION@";
const FILES = ["./", "nana-web.js", "nana_web.wasm", "tables.json", "manifest.webmanifest", "icon.svg"];

self.addEventListener("install", (event) => {
  // Ranges of a large table (their URLs end in `?range`, nana-web.js) go to the network without
  // waking this worker, where the browser can route requests so (Chromium's static routing):
  // handed to the worker, each request waited about 18 ms for it, most of a round of fetching.
  if (event.addRoutes && self.URLPattern) {
    event.waitUntil(event.addRoutes({ condition: { urlPattern: new URLPattern({ search: "range" }) }, source: "network" }).catch(() => {}));
  }
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    await cache.addAll(FILES);
    const list = await (await cache.match("tables.json")).json();
    // The tables the page fetches whole: up to the module's limit, which tables.json gives.
    const whole = list.tables.filter((t) => t.size <= list.whole_limit).flatMap((t) => t.parts.map((p) => p.url));
    await cache.addAll(whole);
    await self.skipWaiting();
  })());
});
self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const key of await caches.keys()) if (key.startsWith("nana-site-") && key !== CACHE) await caches.delete(key);
    await self.clients.claim();
  })());
});
self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || new URL(request.url).origin !== self.location.origin) return;
  if (request.headers.has("Range")) return;
  event.respondWith(answer(event));
});

async function answer(event) {
  const request = event.request;
  const url = new URL(request.url);
  url.hash = "";
  const key = url.toString();
  const keptCopy = async () => {
    const cache = await caches.open(CACHE);
    return (await cache.match(key)) || (request.mode === "navigate" && (await cache.match("./"))) || null;
  };
  // Offline (as the browser says), the kept copy answers without a request that would fail (and
  // be logged to the console).
  if (self.navigator.onLine === false) {
    const kept = await keptCopy();
    if (kept) return kept;
  }
  let response;
  try {
    response = await fetch(request);
  } catch (offline) {
    const kept = await keptCopy();
    if (!kept) throw offline;
    return kept;
  }
  if (response.ok) {
    const copy = response.clone();
    event.waitUntil((async () => {
      const cache = await caches.open(CACHE);
      await cache.put(key, copy);
    })());
  }
  return response;
}
