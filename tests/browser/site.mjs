// The static site in headless Chromium: node tests/browser/site.mjs URL EXPECTED.json
//
// Run by crates/web/tests/browser.rs against a static file server (npm's http-server) serving a
// folder `cargo xtask site` wrote, under a sub-path; no nana process runs. Checks, for every
// rule set the site holds, that the start shows the value, DTM and ranked moves of
// `nana query --json`; that the in-page answers along a random walk are the expected ones; that
// a bad position string shows its error beside the input; that a missing table is named with the
// command that makes it; that a whole Dobutsu game played against the page (play mode) gets the
// table's best move for every reply, and that its record reads back from its URL and survives a
// reload (its USI and KIF texts are read back by crates/web/tests/browser.rs); that Dobutsu's statistics show its table's counts; that with the network cut after a
// first visit, Nana and the Dobutsu positions shown before (the start, after Cxb3, one more) show
// again their value, moves and mainline, a Dobutsu position never fetched draws its board and
// says it needs the network, and nothing is logged to the console as an error; and that a Japanese
// browser gets the page in Japanese (Dobutsu's animals drawn), which the switch turns English.
// Prints the figures of a cold visit to the Dobutsu start: when its value and ranked moves are
// shown, and when its whole mainline is. Exits 0 when every check passes, 1 with
// the failed check, 2 when the tools are missing.

import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const [base, expectedFile] = process.argv.slice(2);
if (!base || !expectedFile) {
  console.error("usage: node tests/browser/site.mjs URL EXPECTED.json");
  process.exit(2);
}
let chromium;
try {
  ({ chromium } = await import("playwright-core"));
} catch (e) {
  console.error("playwright-core is not installed: run `npm ci` in tests/browser\n" + e.message);
  process.exit(2);
}
const executablePath = process.env.CHROMIUM || "/usr/bin/chromium";
if (!fs.existsSync(executablePath)) {
  console.error(`no Chromium at ${executablePath}: install it (Debian: apt-get install -y chromium) or set CHROMIUM`);
  process.exit(2);
}
const expected = JSON.parse(fs.readFileSync(expectedFile, "utf8"));

function check(ok, what) {
  if (!ok) throw new Error("check failed: " + what);
  console.log("ok: " + what);
}

// The page speaks the browser's language: English unless `locale` says otherwise.
async function browser(locale = "en-US") {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "nana-site-chromium-"));
  const context = await chromium.launchPersistentContext(dir, {
    executablePath,
    headless: true,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    viewport: { width: 1000, height: 720 },
    locale,
    timeout: 60000,
  });
  const page = context.pages()[0] || (await context.newPage());
  page.setDefaultTimeout(60000);
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  // What the page logs to the console as an error (failed requests included) and its script
  // errors: the offline part requires none.
  const consoleErrors = [];
  page.on("console", (m) => { if (m.type() === "error") consoleErrors.push(m.text()); });
  page.on("pageerror", (e) => consoleErrors.push("script error: " + e.message));
  return { context, page, errors, consoleErrors, dir };
}

// Waits until the page shows the answer for `fen` under the rule set `rs` (the title names both).
async function shown(page, fen, rs) {
  await page.waitForFunction(([f, title]) => {
    const v = document.getElementById("value");
    return document.title === title && document.getElementById("fen").value === f && v.dataset.category &&
      v.textContent !== "" && !document.getElementById("board").classList.contains("stale");
  }, [fen, `${fen} — ${rs.game} ${rs.rules}`]);
}

// Waits until the page shows the whole mainline (the static site fills it in after the rest).
async function wholeMainline(page) {
  await page.waitForFunction(() => document.getElementById("mainline").dataset.whole === "yes");
}

// The ranked moves of a position, each with the position it leads to, from the module (the view
// as far as its value and moves, without waiting for its mainline).
async function rankedMoves(page, rs, fen) {
  return page.evaluate(async ([game, rules, f]) => {
    let soFar = null;
    const r = await NanaStatic.get(`/api/${game}/${rules}/view?fen=` + encodeURIComponent(f.replace(/ /g, "_")), (so) => { soFar = so.body; return false; });
    const v = r ? r.body : soFar;
    return v.moves.map((m, i) => ({ uci: m.uci, san: v.answer.moves[i].san, usi: v.answer.moves[i].usi, kif: v.answer.moves[i].kif, fen: m.fen, category: v.answer.moves[i].category, dtm: v.answer.moves[i].dtm }));
  }, [rs.game, rs.rules, fen]);
}

// What the page shows of the position on screen: its value, ranked moves and mainline.
async function onScreen(page) {
  return page.evaluate(() => JSON.stringify({
    value: document.getElementById("value").textContent,
    category: document.getElementById("value").dataset.category,
    moves: [...document.querySelectorAll("#moves button.move")].map((b) => b.dataset.uci),
    // The moves, without their numbers (counted from the start of the line the page shows).
    mainline: [...document.querySelectorAll("#mainline a")].map((a) => a.textContent.replace(/^\d+\. /, "")),
  }));
}

// Every range the page fetched written to its range cache (the page writes them half a second
// after the last came, which a page left at once, or a machine gone offline, would not wait for).
async function flushed(page) {
  await page.evaluate(() => (typeof NanaStatic === "undefined" ? null : NanaStatic.flush()));
}

// Leaves the page for a blank one, what it fetched kept first.
async function leave(page) {
  await flushed(page);
  await page.goto("about:blank");
}

// A Dobutsu position opened by its URL in a fresh page, shown whole (mainline and all).
async function openWhole(page, rs, fen) {
  await leave(page);
  await page.goto(base + "#/" + rs.game + "/" + rs.rules + "?position=" + encodeURIComponent(fen));
  await shown(page, fen, rs);
  await wholeMainline(page);
  return onScreen(page);
}

async function playDobutsu(page, rs) {
  const t0 = Date.now();
  const status = () => page.locator("#play-status").textContent();
  const record = () => page.locator("#record a").evaluateAll((as) => as.slice(1).map((a) => ({ uci: a.dataset.uci, by: a.dataset.by })));
  // Settled: the user to move at the record's end, or the game over.
  const settled = () => page.waitForFunction(() => {
    const s = document.getElementById("play-status");
    return s.dataset.over === "yes" || /your move\.$/.test(s.textContent);
  });
  // Clicks `selector` until `done(arg)` holds in the page: a click that lands while the page
  // draws the record anew (a busy machine) is lost with the element it hit, and is made again.
  const clickUntil = async (selector, done, arg) => {
    for (let tries = 1; ; tries++) {
      await page.click(selector);
      try {
        return await page.waitForFunction(done, arg, { timeout: 10000 });
      } catch (e) {
        if (tries === 6) throw e;
      }
    }
  };
  await page.goto(base + "#/dobutsu/tanaka");
  await shown(page, rs.start.fen, rs);
  await page.click("#play");
  await settled();
  check((await page.locator("#play-side").inputValue()) === "first", "play: the user plays the side to move, the first player");
  check(new URL(page.url()).hash === "#/dobutsu/tanaka?play=first", `play: the game's URL (${new URL(page.url()).hash})`);
  const fens = [rs.start.fen];
  // Each ply's move in USI's and KIF's forms, as the module's answer writes them.
  const usis = [], kifs = [];
  for (let ply = 0; ; ply += 2) {
    await settled();
    if ((await page.locator("#play-status").getAttribute("data-over")) === "yes") break;
    if (ply > 200) throw new Error("check failed: the game did not end in 200 plies");
    const before = await page.locator("#fen").inputValue();
    if (before !== fens[ply]) throw new Error(`check failed: ply ${ply}: the board shows ${before}, the record ${fens[ply]}`);
    const moves = page.locator("#moves button.move");
    const n = await moves.count();
    const pick = ply < 6 ? 0 : n - 1;
    const mine = await moves.nth(pick).getAttribute("data-uci");
    const ranked = await rankedMoves(page, rs, before);
    if (ranked[pick].uci !== mine) throw new Error(`check failed: ply ${ply}: the page's move ${mine} is not the table's ${ranked[pick].uci}`);
    await moves.nth(pick).click();
    await page.waitForFunction((len) => {
      const done = document.getElementById("play-status").dataset.over === "yes";
      return document.querySelectorAll("#record a").length >= len + (done ? 1 : 2);
    }, ply + 1);
    fens.push(ranked[pick].fen);
    usis.push(ranked[pick].usi);
    kifs.push(ranked[pick].kif);
    const rec = await record();
    if (rec.length === ply + 1) {
      check((await page.locator("#play-status").getAttribute("data-over")) === "yes", `play: the user's move ${mine} ends the game`);
      break;
    }
    await settled();
    const answer = await rankedMoves(page, rs, fens[ply + 1]);
    const theirs = rec[ply + 1];
    if (theirs.by !== "opponent" || rec[ply].by !== "you") throw new Error(`check failed: ply ${ply + 2} is not marked the opponent's: ${JSON.stringify(rec)}`);
    if (theirs.uci !== answer[0].uci) throw new Error(`check failed: ply ${ply + 2}: the reply ${theirs.uci} is not the table's best move ${answer[0].uci}`);
    fens.push(answer[0].fen);
    usis.push(answer[0].usi);
    kifs.push(answer[0].kif);
  }
  const rec = await record();
  const ucis = rec.map((r) => r.uci);
  const final = fens[fens.length - 1];
  check(rec.length === fens.length - 1 && rec.length >= 2, `play: the game ended after ${rec.length} plies, every reply the table's best move`);
  check((await page.locator("#fen").inputValue()) === final, "play: the board shows the game's last position");
  const over = await status();
  check(/^Game over: Second player wins — .*\. You lose\.$/.test(over), `play: the result is said ("${over}")`);
  check((await page.locator("#moves button.move:enabled").count()) === 0, "play: nothing can be played once the game is over");
  const text = await page.locator("#record-text").textContent();
  check(text === "position startpos moves " + ucis.join(" "), `play: the record as an engine command (${text})`);
  // The same game as USI (Fairy-Stockfish's USI squares) and as a KIF record: the start's best
  // move, the lion to a2, is 2d3c and ３三ライオン(24).
  const usi = await page.locator("#record-usi").textContent();
  check(usi === "position startpos moves " + usis.join(" ") && usi.startsWith("position startpos moves 2d3c "), `play: the record as USI (${usi})`);
  const kif = await page.locator("#record-kif").textContent();
  const board = "後手の持駒：なし\n  ３ ２ １\n+---------+\n|vキvラvゾ|一\n| ・vひ ・|二\n| ・ ひ ・|三\n| ゾ ラ キ|四\n+---------+\n先手の持駒：なし\n先手番\n";
  const lines = kifs.map((k, i) => String(i + 1).padStart(4) + " " + k + "\n").join("");
  check(kif.includes(board + "手数----指手---------消費時間--\n" + lines) && kif.endsWith(lines) && lines.startsWith("   1 ３三ライオン(24)\n"), `play: the record as KIF (${kif})`);
  check(await page.locator("#record-download-kif").isVisible(), "play: Dobutsu's record can be downloaded as KIF");
  const [download] = await Promise.all([page.waitForEvent("download"), page.click("#record-download-kif")]);
  const saved = await (await download.createReadStream()).toArray();
  check(Buffer.concat(saved).toString("utf8") === kif && download.suggestedFilename() === "dobutsu-tanaka.kifu", `play: the KIF downloaded (${download.suggestedFilename()}) is the record's`);
  const url = new URL(page.url()).hash;
  check(url === "#/dobutsu/tanaka?play=first&moves=" + ucis.map(encodeURIComponent).join(","), `play: the URL holds the record (${url})`);
  // For the Rust side to read back with the game's own USI reader and a KIF reader of its own,
  // against the positions of the game.
  fs.writeFileSync(expectedFile + ".record.json", JSON.stringify({ usi, kif, fens }));

  // The record read back: its moves, from the engine command, in a fresh page's URL.
  const moves = text.replace(/^position startpos moves /, "").split(" ");
  await leave(page);
  await page.goto(base + "#/dobutsu/tanaka?play=first&moves=" + moves.map(encodeURIComponent).join(","));
  await page.waitForFunction((f) => document.getElementById("fen").value === f && document.getElementById("play-status").dataset.over === "yes", final);
  check(JSON.stringify(await record()) === JSON.stringify(rec), "play: the moves of the engine command, opened as a URL, give the same record and last position");
  await page.reload();
  await page.waitForFunction((f) => document.getElementById("fen").value === f && document.getElementById("play-status").dataset.over === "yes", final);
  check(JSON.stringify(await record()) === JSON.stringify(rec), "play: the record survives a reload");

  // Each entry of the record links to its ply; the link opened anew shows that ply, record whole.
  await clickUntil('#record a[data-ply="2"]', (f) => document.getElementById("fen").value === f, fens[2]);
  check(new URL(page.url()).hash.endsWith("&ply=2"), `play: a record entry's link names its ply (${new URL(page.url()).hash})`);
  await page.reload();
  await page.waitForFunction((f) => document.getElementById("fen").value === f && document.querySelector("#record a.cur") !== null, fens[2]);
  check((await page.locator("#record a.cur").getAttribute("data-ply")) === "2" && (await record()).length === rec.length, "play: the ply's link, reloaded, shows ply 2 with the whole record");

  // Undo from the end: back to the user's last turn, the last move and its reply taken back.
  await clickUntil(`#record a[data-ply="${rec.length}"]`, (f) => document.getElementById("fen").value === f, final);
  // The user's last move is ply userLast (counted from 1); undo shows the position before it.
  const userLast = rec.length - (rec[rec.length - 1].by === "opponent" ? 1 : 0);
  await page.click("#play-undo");
  await page.waitForFunction((f) => document.getElementById("fen").value === f, fens[userLast - 1]);
  check((await record()).length === userLast - 1 && /your move\.$/.test(await status()), `play: undo takes back to ply ${userLast - 1}, the user to move`);
  // Resign, then a new game: the record is empty, the user to move at the start.
  await page.click("#play-resign");
  await page.waitForFunction(() => document.getElementById("play-status").textContent.includes("you resigned"));
  check(new URL(page.url()).hash.endsWith("&resigned=1"), "play: a resignation is in the URL");
  await page.click("#play-new");
  await page.waitForFunction((f) => document.getElementById("fen").value === f && document.querySelectorAll("#record a").length === 1, rs.start.fen);
  await settled();
  check(new URL(page.url()).hash === "#/dobutsu/tanaka?play=first", "play: a new game starts from the start");
  console.log(`figure: the play-mode check took ${Date.now() - t0} ms (a game of ${rec.length} plies)`);
  return { ucis, fens };
}

// The URL of a played Dobutsu game (the user the first player) opened at ply `ply`.
function gameUrl(game, ply) {
  return base + "#/dobutsu/tanaka?play=first&moves=" + game.ucis.map(encodeURIComponent).join(",") + "&ply=" + ply;
}

// What the page shows of a played game's position: its board, its value and its moves.
async function plyOnScreen(page, game, rs, ply) {
  await leave(page);
  await page.goto(gameUrl(game, ply));
  await shown(page, game.fens[ply], rs);
  return page.evaluate(() => JSON.stringify({
    fen: document.getElementById("fen").value,
    value: document.getElementById("value").textContent,
    moves: [...document.querySelectorAll("#moves button.move")].map((b) => b.dataset.uci),
    error: document.getElementById("error").textContent,
  }));
}

function dtmText(dtm) { return dtm === 1 ? "1 ply" : dtm + " plies"; }

let failed = false;
const first = await browser();
try {
  const { page } = first;

  // A cold visit to the Dobutsu start: the figures of docs/SITE.md.
  const dobutsu = expected.rule_sets.find((r) => r.game === "dobutsu" && r.rules === "tanaka");
  if (dobutsu) {
    const t0 = Date.now();
    await page.goto(base + "#/dobutsu/tanaka");
    // The page's own clock (milliseconds since navigation started) when a condition first holds.
    const when = async (condition) => (await page.waitForFunction(condition, null, { polling: "raf" })).jsonValue();
    const ms = await when(() => document.getElementById("value").dataset.category &&
      document.querySelectorAll("#moves button.move").length > 0 && performance.now());
    const loaded = await page.evaluate(() => performance.getEntriesByType("navigation")[0].loadEventEnd);
    await shown(page, dobutsu.start.fen, dobutsu);
    const first = await page.evaluate(() => NanaStatic.counts.firstView);
    const moves = await page.locator("#moves button.move").count();
    check(moves === dobutsu.start.moves.length, "the Dobutsu start shows its ranked moves with its value");
    const whole = await when(() => document.getElementById("mainline").dataset.whole === "yes" && performance.now());
    const outside = Date.now() - t0;
    const counts = await page.evaluate(() => NanaStatic.counts);
    console.log(`figure: page load event ${loaded.toFixed(0)} ms; Dobutsu start's value and ranked moves ` +
      `shown ${ms.toFixed(0)} ms after navigation started (handed over at ${first.ms.toFixed(0)} ms), table bytes ` +
      `${first.bytes} in ${first.requests} requests over ${first.rounds} rounds; whole mainline shown at ` +
      `${whole.toFixed(0)} ms (${outside} ms from the test's page.goto), table bytes ${counts.bytes} in ` +
      `${counts.requests} requests over ${counts.rounds} rounds; ${counts.wasmMs.toFixed(0)} ms in the module, ` +
      `${counts.waitMs.toFixed(0)} ms waiting for the rounds' fetches, ${counts.soFarMs.toFixed(0)} ms showing the views so far; ` +
      `block index in at ${counts.indexAt === null ? "-" : counts.indexAt.toFixed(0)} ms`);
  }

  for (const rs of expected.rule_sets) {
    const a = rs.start;
    await page.goto(base + "#/" + rs.game + "/" + rs.rules);
    await shown(page, a.fen, rs);
    await wholeMainline(page);
    const category = await page.locator("#value").getAttribute("data-category");
    check(category === a.category, `${rs.game} ${rs.rules}: the start is a ${a.category}`);
    const text = await page.locator("#value").textContent();
    if (a.dtm !== null && a.dtm > 0) check(text.includes(dtmText(a.dtm)), `${rs.game} ${rs.rules}: the start's DTM ${a.dtm} is shown ("${text}")`);
    const ucis = await page.locator("#moves button.move").evaluateAll((bs) => bs.map((b) => b.dataset.uci));
    check(JSON.stringify(ucis) === JSON.stringify(a.moves.map((m) => m.uci)), `${rs.game} ${rs.rules}: the ${a.moves.length} moves are ranked as nana query --json ranks them`);
    const vals = await page.locator("#moves button.move .val").evaluateAll((bs) => bs.map((b) => b.textContent));
    a.moves.forEach((m, i) => {
      if (m.dtm !== null && !vals[i].includes(dtmText(m.dtm + 1))) throw new Error(`check failed: ${m.uci}'s DTM ${m.dtm} in "${vals[i]}"`);
    });
    check(true, `${rs.game} ${rs.rules}: every move shows its DTM (counted from the position before it)`);
    check((await page.locator("#mainline a").count()) === a.mainline.length, `${rs.game} ${rs.rules}: the mainline has ${a.mainline.length} plies`);
    // The whole view, mainline and all, is the answer of nana query --json, and the page shows it.
    const view = await page.evaluate(async ([game, rules]) => {
      const r = await NanaStatic.get(`/api/${game}/${rules}/view`);
      return { answer: JSON.stringify(r.body.answer), sans: r.body.mainline.map((p) => p.san) };
    }, [rs.game, rs.rules]);
    check(view.answer === JSON.stringify(a), `${rs.game} ${rs.rules}: the start's whole view holds the answer of nana query --json, mainline and all`);
    const links = await page.locator("#mainline a").evaluateAll((ls) => ls.map((l) => l.textContent.replace(/^\d+\. /, "")));
    check(JSON.stringify(links) === JSON.stringify(view.sans), `${rs.game} ${rs.rules}: the page shows the view's whole mainline`);

    // The walk: the in-page answers are the CLI's.
    const got = await page.evaluate(async ([game, rules, fens]) => {
      const out = [];
      for (const fen of fens) {
        const r = await NanaStatic.get(`/api/${game}/${rules}?fen=` + encodeURIComponent(fen.replace(/ /g, "_")));
        out.push(JSON.stringify(r.body));
      }
      return out;
    }, [rs.game, rs.rules, rs.walk.map((w) => w.fen)]);
    rs.walk.forEach((w, i) => {
      if (got[i] !== JSON.stringify(w.answer)) throw new Error(`check failed: ${rs.game} ${rs.rules} ${w.fen}: ${got[i]} != ${JSON.stringify(w.answer)}`);
    });
    check(true, `${rs.game} ${rs.rules}: ${rs.walk.length} positions of a random walk answer as nana query --json`);
  }

  // Play mode: a whole Dobutsu game against perfect play, the user playing the best move three
  // times, then always the worst (the last ranked, so that the game is short). Every reply must
  // be the table's best move.
  const played = dobutsu ? await playDobutsu(page, dobutsu) : null;

  // A bad position string: the error beside the input, the hint with it.
  const bad = expected.bad;
  await page.goto(base + "#/" + bad.game + "/" + bad.rules + "?position=" + encodeURIComponent(bad.fen));
  await page.waitForFunction(() => document.getElementById("error").textContent !== "");
  const error = await page.locator("#error").textContent();
  check(error.includes(bad.error), `a bad position string shows its error ("${error}")`);
  check((await page.locator("#error .hint").count()) === 1, "the hint sits beside the error");
  check((await page.locator("#fen").inputValue()) === bad.fen, "the bad string stays in the box");

  // A rule set whose table the site does not hold: named, with its command.
  for (const m of expected.missing) {
    const r = await page.evaluate((u) => NanaStatic.get(u), `/api/${m.game}/${m.rules}`);
    check(r.status === 503 && r.body.error.includes(m.file) && r.body.error.includes(m.command), `${m.game} ${m.rules}: the missing ${m.file} is named with \`${m.command}\``);
  }

  // Dobutsu's statistics on the static site: the counts of its table's header (its histogram),
  // those of the fixture's table; the longest wins are left to `nana serve`, and said so.
  if (dobutsu) {
    const t0 = Date.now();
    await page.goto(base + "#/dobutsu/tanaka/stats");
    await page.waitForFunction(() => document.getElementById("counts") !== null);
    const cells = await page.locator("#counts tr").evaluateAll((rows) => rows.slice(1).map((r) => r.cells[1].textContent.replace(/,/g, "")));
    const want = dobutsu.stats;
    const [wins, losses, draws, legal, unused] = cells.map(Number);
    check(wins === want.wins && losses === want.losses && draws === want.draws && unused === want.unused &&
      legal === want.wins + want.losses + want.draws, `dobutsu tanaka: the statistics show the table's counts (${cells.join(", ")})`);
    const lines = await page.locator("#longest-lines").textContent();
    check(lines.includes(String(want.longest_win)), `dobutsu tanaka: the longest win, ${want.longest_win} plies, is shown ("${lines}")`);
    check((await page.locator("#longest-omitted").count()) === 1 && (await page.locator("#longest li").count()) === 0,
      "dobutsu tanaka: the longest wins are said to need `nana serve`");
    console.log(`figure: the statistics check took ${Date.now() - t0} ms`);
  }

  // Offline after a visit: the service worker keeps the page, the module and Nana's tables, and
  // the Dobutsu ranges fetched once it controls the page (from the reload on).
  await page.evaluate(() => navigator.serviceWorker.ready);
  await page.reload();
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  const nana = expected.rule_sets.find((r) => r.game === "nana");
  await page.goto(base + "#/" + nana.game + "/" + nana.rules);
  await shown(page, nana.start.fen, nana);
  // Dobutsu positions shown online: the start from its URL in a fresh page, Cxb3 played from it,
  // another of the start's moves from its URL; what each showed must show again offline, each
  // opened by its URL in a fresh page.
  const visited = [];
  if (dobutsu) {
    const t0 = Date.now();
    const ranked = await rankedMoves(page, dobutsu, dobutsu.start.fen);
    const cxb3 = ranked.find((m) => m.san === "Cxb3");
    check(cxb3 !== undefined, "dobutsu tanaka: the start has the move Cxb3");
    const other = ranked.find((m) => m.fen !== cxb3.fen);
    visited.push({ fen: dobutsu.start.fen, online: await openWhole(page, dobutsu, dobutsu.start.fen) });
    // Cxb3 played from the start (its entries read once the block index is in, as a user's
    // game reads them), then the other opened by its URL.
    await page.click(`#moves button.move[data-uci="${cxb3.uci}"]`);
    await shown(page, cxb3.fen, dobutsu);
    await wholeMainline(page);
    visited.push({ fen: cxb3.fen, online: await onScreen(page) });
    visited.push({ fen: other.fen, online: await openWhole(page, dobutsu, other.fen) });
    console.log(`figure: the ${visited.length} Dobutsu positions shown online took ${Date.now() - t0} ms`);
  }
  // The game played above, opened online at every ply from its record's link.
  const plies = [];
  if (played) {
    for (let ply = 0; ply < played.fens.length; ply++) plies.push(await plyOnScreen(page, played, dobutsu, ply));
  }
  // From here on, nothing may be logged to the console as an error.
  first.consoleErrors.length = 0;
  const offlineT0 = Date.now();
  await flushed(page);
  await first.context.setOffline(true);
  for (const rs of [nana, dobutsu].filter(Boolean)) {
    await leave(page);
    await page.goto(base + "#/" + rs.game + "/" + rs.rules);
    await shown(page, rs.start.fen, rs);
    check((await page.locator("#value").getAttribute("data-category")) === rs.start.category, `offline, ${rs.game} ${rs.rules}'s start still answers`);
  }
  for (const v of visited) {
    const again = await openWhole(page, dobutsu, v.fen);
    check(again === v.online, `offline, ${v.fen} shows again its value, ranked moves and mainline` +
      (again === v.online ? "" : `: ${again} offline, ${v.online} online`));
  }
  for (let ply = 0; ply < plies.length; ply++) {
    const again = await plyOnScreen(page, played, dobutsu, ply);
    if (again !== plies[ply]) throw new Error(`check failed: offline, ply ${ply} of the game shows ${again}, online ${plies[ply]}`);
  }
  if (played) check(plies.length === played.fens.length, `offline, every position of the game played (${plies.length}, its start to its end) shows again from its record's link`);
  if (dobutsu) {
    // A position whose blocks were never fetched: its board is still drawn, and the page says
    // that it needs the network, not that the string is wrong.
    const never = "l2/1c1/1C1/2L[GEge] b 0 1";
    await leave(page);
    await page.goto(base + "#/dobutsu/tanaka?position=" + encodeURIComponent(never));
    await page.waitForFunction(() => document.getElementById("error").textContent !== "");
    const said = await page.locator("#error").textContent();
    check(said.includes("needs the network") && !said.includes("Fix the position string"), `offline, a position never fetched says that it needs the network ("${said}")`);
    check((await page.locator("#board .sq").count()) === 12, "offline, its board is still drawn");
    check(!(await page.locator("#fen").getAttribute("class") || "").includes("bad"), "offline, its string is not marked wrong");
  }
  const logged = first.consoleErrors.splice(0);
  console.log(`figure: the offline part took ${Date.now() - offlineT0} ms; console errors logged: ${logged.length}`);
  check(logged.length === 0, "offline, nothing is logged to the console as an error: " + logged.slice(0, 5).join("; "));
  await first.context.setOffline(false);
  check(first.errors.length === 0, "no script error: " + first.errors.join("; "));
} catch (e) {
  console.error(e.stack || e.message);
  failed = true;
} finally {
  await first.context.close();
  fs.rmSync(first.dir, { recursive: true, force: true });
}
// A Japanese browser: the static site in Japanese, its value in 手, Dobutsu's animals drawn; the
// switch and the fragment's `lang` turn it English.
if (!failed) {
  const ja = await browser("ja-JP");
  try {
    const t0 = Date.now();
    const { page } = ja;
    const rs = expected.rule_sets.find((r) => r.game === "dobutsu") || expected.rule_sets[0];
    const a = rs.start;
    await page.goto(base + "#/" + rs.game + "/" + rs.rules);
    await shown(page, a.fen, rs);
    const said = await page.locator("#value").textContent();
    const inJapanese = a.category === "draw" ? said === "引き分け" : /^(先手|後手)の勝ち（\d+手(で詰み)?）$/.test(said) && said.includes(`（${a.dtm}手`);
    check(inJapanese && (await page.locator("header h1").textContent()) === "テーブルベース探索", `ja: the static site speaks Japanese ("${said}")`);
    if (rs.game === "dobutsu") check((await page.locator("#board .piece svg.pic").count()) === 8, "ja: Dobutsu's pieces are pictures");
    await page.selectOption("#lang", "en");
    await page.waitForFunction(() => /^[A-Z][a-z]/.test(document.getElementById("value").textContent));
    check((await page.locator("#best").textContent()) === "best move", "ja: the switch turns the page English");
    await page.selectOption("#lang", "ja");
    await leave(page);
    await page.goto(base + "#/" + rs.game + "/" + rs.rules + "?lang=en");
    await shown(page, a.fen, rs);
    check((await page.locator("#best").textContent()) === "best move", "ja: the fragment's lang=en opens the page in English");
    check(ja.errors.length === 0, "ja: no script error: " + ja.errors.join("; "));
    console.log(`figure: the language check took ${Date.now() - t0} ms`);
  } catch (e) {
    console.error(e.stack || e.message);
    failed = true;
  } finally {
    await ja.context.close();
    fs.rmSync(ja.dir, { recursive: true, force: true });
  }
}
process.exit(failed ? 1 : 0);
