// The static site in headless Chromium: node tests/browser/site.mjs URL EXPECTED.json
//
// Run by crates/web/tests/browser.rs against a static file server (npm's http-server) serving a
// folder `cargo xtask site` wrote, under a sub-path; no nana process runs. Checks, for every
// rule set the site holds, that the start shows the value, DTM and ranked moves of
// `nana query --json`; that the in-page answers along a random walk are the expected ones; that
// a bad position string shows its error beside the input; that a missing table is named with the
// command that makes it; and that with the network cut after a first visit, Nana still answers.
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

async function browser() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "nana-site-chromium-"));
  const context = await chromium.launchPersistentContext(dir, {
    executablePath,
    headless: true,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    viewport: { width: 1000, height: 720 },
    timeout: 60000,
  });
  const page = context.pages()[0] || (await context.newPage());
  page.setDefaultTimeout(60000);
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  return { context, page, errors, dir };
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
      `${counts.requests} requests over ${counts.rounds} rounds; ${counts.wasmMs.toFixed(0)} ms in the module`);
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

  // Offline after a visit: the service worker keeps the page, the module and Nana's tables, and
  // the Dobutsu ranges fetched once it controls the page (from the reload on).
  await page.evaluate(() => navigator.serviceWorker.ready);
  await page.reload();
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  const nana = expected.rule_sets.find((r) => r.game === "nana");
  await page.goto(base + "#/" + nana.game + "/" + nana.rules);
  await shown(page, nana.start.fen, nana);
  if (dobutsu) {
    await page.goto(base + "#/dobutsu/tanaka");
    await shown(page, dobutsu.start.fen, dobutsu);
  }
  await first.context.setOffline(true);
  for (const rs of [nana, dobutsu].filter(Boolean)) {
    await page.goto("about:blank");
    await page.goto(base + "#/" + rs.game + "/" + rs.rules);
    await shown(page, rs.start.fen, rs);
    check((await page.locator("#value").getAttribute("data-category")) === rs.start.category, `offline, ${rs.game} ${rs.rules}'s start still answers`);
  }
  if (dobutsu) {
    // A position whose blocks were never fetched: its board is still drawn, and the page says
    // that it needs the network, not that the string is wrong.
    const never = "l2/1c1/1C1/2L[GEge] b 0 1";
    await page.goto("about:blank");
    await page.goto(base + "#/dobutsu/tanaka?position=" + encodeURIComponent(never));
    await page.waitForFunction(() => document.getElementById("error").textContent !== "");
    const said = await page.locator("#error").textContent();
    check(said.includes("needs the network") && !said.includes("Fix the position string"), `offline, a position never fetched says that it needs the network ("${said}")`);
    check((await page.locator("#board .sq").count()) === 12, "offline, its board is still drawn");
    check(!(await page.locator("#fen").getAttribute("class") || "").includes("bad"), "offline, its string is not marked wrong");
  }
  await first.context.setOffline(false);
  check(first.errors.length === 0, "no script error: " + first.errors.join("; "));
} catch (e) {
  console.error(e.stack || e.message);
  failed = true;
} finally {
  await first.context.close();
  fs.rmSync(first.dir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
