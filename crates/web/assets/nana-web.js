// The static site's back end: the explorer's API answered inside the page by the WebAssembly
// module nana_web.wasm (crates/web), over the tables this folder holds (tables.json lists them).
//
// NanaStatic.get(url) answers an API URL ("/api/games", "/api/nana/current/view?fen=...") as
// {status, body}, as the HTTP API would. The module names every byte range an answer needs at
// once; they are fetched together (HTTP Range requests; a small table whole), handed to the
// module, and the URL is asked again; for a view whose mainline takes more rounds, the module
// hands over the view so far (its value and ranked moves, the mainline as far as it is known)
// with each round's ranges, for the page to show at once. A table larger than a part is stored
// in parts, each
// addressed by its offset in the table. The module's interface is plain exported functions
// (no generated glue): strings go in through nana_alloc, results come back as a length and
// UTF-8 JSON, freed with nana_free.
"use strict";
const NanaStatic = (() => {
  const enc = new TextEncoder();
  const dec = new TextDecoder();
  let wasm = null;
  let tables = null;
  let started = null;
  // Where the table ranges fetched are kept for offline use (the Cache API; the service worker
  // keeps every other file). Named after the list of tables, so that new tables start afresh.
  let rangeCache = null;
  // What the page has done: rounds of fetching, requests, table bytes, milliseconds in the module,
  // milliseconds waiting for a round's fetches (`waitMs`) and in the page's handling of the views
  // so far (`soFarMs`), when the block index came in (`indexAt`, since navigation); `firstView`:
  // the same when the first view (so far or whole) was handed over, with its time since
  // navigation (`ms`).
  const counts = { rounds: 0, requests: 0, bytes: 0, wasmMs: 0, waitMs: 0, soFarMs: 0, indexAt: null, firstView: null };
  function viewGiven() {
    if (counts.firstView) return;
    counts.firstView = { ...counts, firstView: undefined, ms: performance.now() };
  }

  function put(bytes) {
    const ptr = wasm.nana_alloc(bytes.length);
    new Uint8Array(wasm.memory.buffer, ptr, bytes.length).set(bytes);
    return ptr;
  }
  function take(ptr) {
    const len = new DataView(wasm.memory.buffer).getUint32(ptr, true);
    const text = dec.decode(new Uint8Array(wasm.memory.buffer, ptr + 4, len));
    wasm.nana_free(ptr, len + 4);
    const result = JSON.parse(text);
    if (result.error) throw new Error(result.error);
    return result;
  }
  function call(fn, text) {
    const bytes = enc.encode(text);
    const ptr = put(bytes);
    try { return take(fn(ptr, bytes.length)); } finally { wasm.nana_free(ptr, bytes.length); }
  }
  function supply(file, offset, data) {
    const name = enc.encode(file);
    const n = put(name);
    const d = put(data);
    try { take(wasm.nana_supply(n, name.length, offset, d, data.length)); } finally {
      wasm.nana_free(n, name.length);
      wasm.nana_free(d, data.length);
    }
  }

  async function fetchOk(url, what) {
    let r;
    try { r = await fetch(url); } catch (e) {
      throw fetchError(`${what} (${url}) could not be fetched (${e.message}): the network or the host is unreachable.`, "offline");
    }
    if (!r.ok) throw fetchError(`${what} (${url}) could not be fetched: the host answered HTTP ${r.status}`, "host");
    return r;
  }
  // The module, compiled as its bytes arrive where the host serves it as application/wasm, else
  // from its bytes.
  async function instantiate(response) {
    if (WebAssembly.instantiateStreaming) {
      try { return (await WebAssembly.instantiateStreaming(response.clone(), {})).instance; } catch (e) { /* below */ }
    }
    return (await WebAssembly.instantiate(await response.arrayBuffer(), {})).instance;
  }
  // What opening a table read by range reads (tables over `whole_limit` bytes: the header's
  // `header` bytes and the last `tail` bytes, which hold the histogram; tables.json gives the
  // module's numbers, crates/web/src/sizes.rs): fetched while the module compiles, so that
  // opening the table takes no round of its own. Should they not match, the module asks for
  // what it lacks.
  async function start() {
    const module = fetchOk("nana_web.wasm", "the WebAssembly module").then(instantiate);
    module.catch(() => {});
    const list = await fetchOk("tables.json", "the list of tables").then((r) => r.json());
    tables = new Map(list.tables.map((t) => [t.file, t]));
    let hash = 0;
    for (const c of JSON.stringify(list)) hash = (Math.imul(hash, 31) + c.charCodeAt(0)) | 0;
    rangeCache = "nana-ranges-" + (hash >>> 0).toString(16);
    const heads = list.tables.filter((t) => t.size > list.whole_limit).flatMap((t) => [
      { file: t.file, start: 0, end: Math.min(list.header, t.size) },
      { file: t.file, start: Math.max(0, t.size - list.tail), end: t.size },
    ]);
    const headBytes = Promise.all(heads.map((r) => fetchRange(r).catch(() => null)));
    if (self.caches) {
      for (const key of await caches.keys().catch(() => [])) {
        if (key.startsWith("nana-ranges-") && key !== rangeCache) caches.delete(key).catch(() => {});
      }
    }
    wasm = (await module).exports;
    call(wasm.nana_init, JSON.stringify(list.tables));
    const got = await headBytes;
    heads.forEach((r, i) => { if (got[i]) supply(r.file, r.start, got[i]); });
  }

  // The ranges kept in the range cache: for each part's URL, its kept ranges [a, b, key], read
  // once from the cache's keys (`URL?bytes=a-b`) and added to as ranges are kept.
  let keptRanges = null;
  function kept() {
    if (!keptRanges) {
      keptRanges = (async () => {
        const map = new Map();
        if (!self.caches) return map;
        const cache = await caches.open(rangeCache);
        for (const req of await cache.keys()) {
          const u = new URL(req.url);
          const m = /^(\d+)-(\d+)$/.exec(u.searchParams.get("bytes") || "");
          if (!m) continue;
          const url = u.origin + u.pathname;
          if (!map.has(url)) map.set(url, []);
          map.get(url).push([Number(m[1]), Number(m[2]), req.url]);
        }
        return map;
      })().catch(() => new Map());
    }
    return keptRanges;
  }
  // Bytes a..b of a part from the ranges kept, where they cover them all; else null.
  async function fromKept(url, a, b) {
    const list = ((await kept()).get(url) || []).filter(([s, e]) => s < b && e > a).sort((x, y) => x[0] - y[0]);
    const pieces = [];
    let at = a;
    for (const [s, e, key] of list) {
      if (s > at) break;
      if (e <= at) continue;
      pieces.push([s, e, key]);
      at = e;
      if (at >= b) break;
    }
    if (at < b) return null;
    try {
      const cache = await caches.open(rangeCache);
      const out = new Uint8Array(b - a);
      for (const [s, e, key] of pieces) {
        const r = await cache.match(key);
        if (!r) return null;
        const bytes = new Uint8Array(await r.arrayBuffer());
        if (bytes.length !== e - s) return null;
        const from = Math.max(a, s), to = Math.min(b, e);
        out.set(bytes.subarray(from - s, to - s), from - a);
      }
      return out;
    } catch (e) { return null; }
  }
  // An error the page words as a failed fetch (`kind` "offline": the network; "host": the host).
  function fetchError(message, kind) {
    const e = new Error(message);
    e.kind = kind;
    return e;
  }

  // Bytes a..b (exclusive) of a part; the whole part without a Range header. A range fetched is
  // kept (without waiting), and a range the kept ones cover is read from them, not the network:
  // a table's bytes never change under its name (the cache is named after the list of tables).
  // Offline (the browser says so) a range not kept is not asked for: a failed request would be
  // logged to the console, once a range.
  async function fetchPart(part, a, b) {
    const whole = a === 0 && b === part.size;
    const url = new URL(part.url, location.href).toString();
    const key = url + "?bytes=" + a + "-" + b;
    if (!whole) {
      const got = await fromKept(url, a, b);
      if (got) return got;
      if (navigator.onLine === false) {
        throw fetchError(`the browser is offline, and bytes ${a}-${b} of ${part.url} were never fetched on this device.`, "offline");
      }
    }
    counts.requests++;
    let r;
    try {
      // A range's URL carries `?range`, which the service worker routes straight to the network
      // (sw.js): a request it is handed costs a detour through it.
      // The browser's HTTP cache is passed by (`no-store`): the ranges are kept in the range
      // cache, and a look-up in the HTTP cache held each request about 4 ms more.
      r = await fetch(whole ? part.url : part.url + "?range", whole ? {} : { headers: { Range: `bytes=${a}-${b - 1}` }, cache: "no-store" });
    } catch (e) {
      throw fetchError(`${part.url} could not be fetched (${e.message}): the network or the host is unreachable.`, "offline");
    }
    if (!r.ok) {
      throw fetchError(`${part.url} could not be fetched: the host answered HTTP ${r.status}` +
        (r.status === 404 ? " (the site's folder lacks the file: write the site again with `cargo xtask site` and publish all of it)" : ""), "host");
    }
    if (!whole && r.status !== 206) {
      throw fetchError(`the host answered a Range request for ${part.url} with HTTP ${r.status}, not 206: ` +
        "this page reads large tables by HTTP Range requests; serve the folder from a host that honours them " +
        "and does not compress .tb files (GitHub Pages, nginx, npx http-server do)", "host");
    }
    const bytes = new Uint8Array(await r.arrayBuffer());
    if (bytes.length !== b - a) {
      throw fetchError(`${part.url}: ${bytes.length} bytes came for ${b - a} asked ` +
        "(a host that compresses the tables breaks Range requests): serve .tb files as they are", "host");
    }
    counts.bytes += bytes.length;
    if (!whole && self.caches) keep(url, a, b, key, bytes);
    return bytes;
  }
  // Ranges to keep in the range cache, written once the answer under way is whole (or half a
  // second after the last range came): a write per range while the rounds go on slowed each round
  // (the writes share the host's cores with the fetches). The module holds the bytes meanwhile.
  let toKeep = [], keepTimer = null, keeping = Promise.resolve();
  function keep(url, a, b, key, bytes) {
    toKeep.push([url, a, b, key, bytes]);
    clearTimeout(keepTimer);
    keepTimer = setTimeout(writeKept, 500);
  }
  function writeKept() {
    clearTimeout(keepTimer);
    const ranges = toKeep;
    toKeep = [];
    if (!ranges.length) return keeping;
    keeping = keeping.then(() => caches.open(rangeCache)).then(async (c) => {
      const map = await kept();
      for (const [url, a, b, key, bytes] of ranges) {
        await c.put(key, new Response(bytes));
        if (!map.has(url)) map.set(url, []);
        map.get(url).push([a, b, key]);
      }
    }).catch(() => {});
    return keeping;
  }
  // Every range fetched so far written to the range cache: what a page that is about to be left
  // (or to go offline) waits for, so that the next visit finds them.
  const flush = () => writeKept();
  // Bytes range.start..range.end of a table, from the parts that hold them.
  async function fetchRange(range) {
    const table = tables.get(range.file);
    const pieces = [];
    for (const part of table.parts) {
      const a = Math.max(range.start, part.offset);
      const b = Math.min(range.end, part.offset + part.size);
      if (a < b) pieces.push(fetchPart(part, a - part.offset, b - part.offset));
    }
    const got = await Promise.all(pieces);
    if (got.length === 1) return got[0];
    const all = new Uint8Array(range.end - range.start);
    let at = 0;
    for (const g of got) { all.set(g, at); at += g.length; }
    return all;
  }

  // Supplies the module with every kept byte of `range` (offline, where the kept ranges do
  // not cover it all: ranges merged differently than when they were fetched, bytes between them
  // never fetched); true where some were kept. The module then asks only for what it still lacks.
  async function supplyKept(range) {
    let any = false;
    const table = tables.get(range.file);
    for (const part of table.parts) {
      const a = Math.max(range.start, part.offset) - part.offset;
      const b = Math.min(range.end, part.offset + part.size) - part.offset;
      if (a >= b) continue;
      const url = new URL(part.url, location.href).toString();
      for (const [s, e] of ((await kept()).get(url) || []).filter(([s, e]) => s < b && e > a)) {
        const from = Math.max(a, s), to = Math.min(b, e);
        const got = await fromKept(url, from, to);
        if (got) { supply(range.file, part.offset + from, got); any = true; }
      }
    }
    return any;
  }

  // The block index of each table read by range that has been opened (Dobutsu's: 12 bytes a
  // block), fetched in the background once a first answer or view is shown: from then on each
  // ply of a mainline takes one round of fetching (its blocks), not two (their index records,
  // then the blocks). Where the fetch fails, the rounds go on asking for the records they need.
  const indexes = new Set();
  function fetchIndexes() {
    for (const range of take(wasm.nana_block_indexes()).body) {
      const key = `${range.file}:${range.start}-${range.end}`;
      if (indexes.has(key)) continue;
      indexes.add(key);
      fetchRange(range).then((data) => { supply(range.file, range.start, data); counts.indexAt = performance.now(); }).catch(() => {});
    }
  }

  // How often the page is handed a view so far, in milliseconds.
  const SO_FAR_MS = 200;
  // The API's answer to `url`: {status, body}. For a view whose mainline takes more rounds of
  // fetching, `onSoFar` gets the view so far ({status, body}, the body the API's view with its
  // mainline cut short) while the round's ranges are fetched: the first at once, then at most
  // every SO_FAR_MS; where it returns false, the rest is not fetched and the answer is null.
  async function get(url, onSoFar) {
    if (!started) started = start();
    try { await started; } catch (e) { started = null; throw e; }
    const view = /^\/api\/[^/?]+\/[^/?]+\/view(\?|$)/.test(url);
    let lastFailed = null;
    // When the page was last handed a view so far (drawing the page for each ply's round would
    // hold up the rounds).
    let lastShown = -Infinity;
    for (let round = 0; round < 10000; round++) {
      const t0 = performance.now();
      const r = call(wasm.nana_request, url);
      counts.wasmMs += performance.now() - t0;
      if (!r.need) {
        if (view && r.status === 200) viewGiven();
        fetchIndexes();
        writeKept();
        register();
        return r;
      }
      // The round's ranges are asked for first, then the view so far is shown while they come.
      const t2 = performance.now();
      const fetching = Promise.allSettled(r.need.map(fetchRange));
      if (r.so_far && performance.now() - lastShown >= SO_FAR_MS) {
        viewGiven();
        fetchIndexes();
        const t1 = performance.now();
        lastShown = t1;
        const go = !onSoFar || onSoFar(r.so_far) !== false;
        counts.soFarMs += performance.now() - t1;
        if (!go) return null;
      }
      counts.rounds++;
      const data = await fetching;
      counts.waitMs += performance.now() - t2;
      let failure = null, progress = false;
      for (let i = 0; i < r.need.length; i++) {
        const range = r.need[i];
        if (data[i].status === "fulfilled") {
          supply(range.file, range.start, data[i].value);
          progress = true;
        } else {
          failure = failure || data[i].reason;
          if (await supplyKept(range)) progress = true;
        }
      }
      if (failure) {
        // Asked again with what was kept; the same ranges failing twice are the answer.
        const asked = JSON.stringify(r.need);
        if (!progress || asked === lastFailed) throw failure;
        lastFailed = asked;
      }
    }
    throw new Error(`no answer to ${url} after 10000 rounds of fetching`);
  }

  // The module is fetched and compiled while the page loads, not when it first asks.
  started = start();
  started.catch(() => { started = null; });

  // The service worker is registered once the page has its first whole answer (a view with its
  // whole mainline), or 3 s after the page loaded: its install fetches Nana's tables whole
  // (14 MB) over the connections the rounds of fetching use (a browser opens 6 to a host).
  let registered = false;
  function register() {
    if (registered || !("serviceWorker" in navigator) || location.protocol === "file:") return;
    registered = true;
    navigator.serviceWorker.register("sw.js").catch(() => {});
  }
  addEventListener("load", () => setTimeout(register, 3000));
  return { get, counts, flush };
})();
