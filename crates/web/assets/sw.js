// The static site's service worker: every file the page fetches (the page, its script, the
// WebAssembly module, the list of tables, table bytes) is asked of the network first and kept;
// without a network, the kept copy answers. So after one visit the page, the module, the tables
// fetched whole (Nana's) and every range of a large table already fetched (Dobutsu's blocks)
// work offline. A range is kept under its URL with the range in the query, as a whole response:
// the cache does not store partial (206) responses, so it is answered as one again.
"use strict";
const CACHE = "nana-site-@VERSION@";

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const key of await caches.keys()) if (key !== CACHE) await caches.delete(key);
    await self.clients.claim();
  })());
});
self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || new URL(request.url).origin !== self.location.origin) return;
  event.respondWith(answer(request));
});

async function answer(request) {
  const cache = await caches.open(CACHE);
  const range = request.headers.get("Range");
  const url = new URL(request.url);
  url.hash = "";
  if (range) url.searchParams.set("nana-range", range.replace(/\s/g, ""));
  const key = url.toString();
  try {
    const response = await fetch(request);
    if (response.ok) {
      const body = await response.clone().arrayBuffer();
      const headers = { "Content-Type": response.headers.get("Content-Type") || "application/octet-stream" };
      await cache.put(key, new Response(body, { status: 200, headers: { ...headers, "X-Nana-Status": String(response.status) } }));
    }
    return response;
  } catch (offline) {
    const kept = await cache.match(key);
    if (!kept) throw offline;
    const status = Number(kept.headers.get("X-Nana-Status")) || 200;
    const headers = { "Content-Type": kept.headers.get("Content-Type") };
    if (range && status === 206) headers["Content-Range"] = range.replace("=", " ") + "/*";
    return new Response(await kept.arrayBuffer(), { status, headers });
  }
}
