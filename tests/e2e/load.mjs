// `make bench`'s first-view figures (issues 27 and 37), on the release build in Debian's Chromium,
// served brotli and then gzip by the server of `make serve` (its precompressed copies). For a phone on
// a slow link (1.6 Mbit/s down, 750 kbit/s up, 150 ms latency, the CPU slowed 4×, by CDP) and
// unthrottled, the median of 3 fresh loads of the untouched page (a new context each, cache
// disabled) of: (a) the time until 10.96.0.1 and an apiserver are visible (today the lab itself;
// later the poster in the HTML), beside the time the wasm's first byte arrives; (b) the time until
// a click on Play makes the clock move; (c) the bytes transferred by then. Then the weight of every
// file (raw, gzip, brotli: the copies the build leaves beside it), the total and the first-view
// part: the files requested before (b). Then, in the same loads, what a reader's first use of a
// part in a chunk costs: (d) from a click on "Write a tour" to the writer's first render, (e) from
// a click on the import's button (a small kubectl list) to its findings. Figures only: nothing
// here fails on a time.
// Usage: node tests/e2e/load.mjs   (after `trunk build --release`)
//        LOAD_ENCODINGS=gzip (or none, or br,gzip: one server offering both) for one pass only.
import { readdir, stat } from 'node:fs/promises';
import { chromium } from 'playwright-core';
import { serve } from './serve.mjs';
import { CHROMIUM, DIST } from './harness.mjs';
import { readFile } from 'node:fs/promises';

const RUNS = 3;
// Each pass is one server: `br` and `gzip` each alone (a browser accepts both, so a server
// offering both would always send brotli).
const PASSES = (process.env.LOAD_ENCODINGS ?? 'br;gzip').split(';')
  .map((p) => p.split(',').filter((e) => e && e !== 'none'));
const served = (encodings) => (encodings.length ? encodings.join(' or ') : 'plain');
const PROFILES = [
  { name: 'throttled', what: '1.6 Mbit/s, 150 ms, CPU 4×', cpu: 4,
    network: { offline: false, latency: 150, downloadThroughput: 1.6e6 / 8, uploadThroughput: 750e3 / 8 } },
  { name: 'unthrottled', what: 'loopback, CPU 1×', cpu: 1, network: null },
];
const KUBECTL_LIST = await readFile('tests/kubectl/cluster-1.35.json', 'utf8');
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (x) => `${x.toFixed(0).padStart(7)} ms`;
const kb = (n) => `${(n / 1024).toFixed(1).padStart(7)} KB`;

/**
 * In the page from its first script on: each frame after the DOM changed, whether 10.96.0.1 and an
 * apiserver are visible (`poster`); once the Play/Pause button and the clock are there, a click on
 * Pause if it plays, then on Play (each again every 300 ms until it takes: a poster's button may not
 * be live yet), and the time the clock's text first differs from what it showed at the first click
 * on Play (`moved`). Times are performance.now(), milliseconds after navigation started.
 */
function watchFirstView() {
  const fv = { poster: null, clicked: null, moved: null };
  window.__firstView = fv;
  const shown = (el) => el.checkVisibility({ opacityProperty: true, visibilityProperty: true })
    && el.getBoundingClientRect().width > 0;
  const ipShown = () => {
    if (!document.body?.textContent.includes('10.96.0.1')) return false;
    const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walk.nextNode(); n; n = walk.nextNode()) {
      if (n.data.includes('10.96.0.1') && n.parentElement && shown(n.parentElement)) return true;
    }
    return false;
  };
  const apiserverShown = () => [...document.querySelectorAll('.apiserver, [data-apiserver]')].some(shown);
  let changed = true;
  let baseline = null;
  let lastClick = -Infinity;
  new MutationObserver(() => { changed = true; })
    .observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
  const tick = () => {
    const now = performance.now();
    if (fv.poster === null && changed) {
      changed = false;
      if (apiserverShown() && ipShown()) fv.poster = now;
    }
    // The untouched page plays by itself: pause it first, then Play, as a reader trying it would.
    const button = document.getElementById('play') ?? [...document.querySelectorAll('button')].find((b) => /\b(Play|Pause)\b/.test(b.textContent));
    const clock = document.querySelector('.controls .clock');
    const playing = button && (button.getAttribute('aria-pressed') === 'true' || /\bPause\b/.test(button.textContent));
    if (fv.moved !== null) { /* done */ } else if (baseline !== null && clock && clock.textContent !== baseline) fv.moved = now;
    else if (button && clock && now - lastClick > 300 && (playing ? baseline === null : true)) {
      if (!playing) {
        baseline ??= clock.textContent;
        fv.clicked ??= now;
      }
      lastClick = now;
      button.click();
    }
    if (fv.moved === null || fv.poster === null) requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
}

/** Every request of a page as CDP reports it: url, when sent, its first byte, finished, bytes. */
function recordRequests(cdp) {
  const reqs = new Map();
  const at = (id) => reqs.get(id) ?? reqs.set(id, { id }).get(id);
  cdp.on('Network.requestWillBeSent', (e) => Object.assign(at(e.requestId), { url: e.request.url, sent: e.timestamp, wall: e.wallTime, type: e.type }));
  cdp.on('Network.responseReceived', (e) => Object.assign(at(e.requestId), { firstByte: e.timestamp, status: e.response.status }));
  cdp.on('Network.loadingFinished', (e) => Object.assign(at(e.requestId), { done: e.timestamp, bytes: e.encodedDataLength }));
  return reqs;
}

/**
 * In the page: from a click on `#button` to the first frame that shows `shown`, in ms (NaN after
 * 60 s). The import is given a small kubectl list first, as a reader would paste one.
 */
async function firstUse(page, button, shown) {
  return page.evaluate(([button, shown]) => new Promise((done) => {
    const start = performance.now();
    document.getElementById(button).click();
    const tick = () => {
      const el = document.querySelector(shown);
      if (el && el.getBoundingClientRect().height > 0) done(performance.now() - start);
      else if (performance.now() - start > 60_000) done(NaN);
      else requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  }), [button, shown]);
}

/** One fresh load: the figures in ms after navigation, and the requests with their times in the page's clock. */
async function load(browser, url, profile) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  const page = await context.newPage();
  await page.addInitScript(watchFirstView);
  const cdp = await context.newCDPSession(page);
  const reqs = recordRequests(cdp);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  if (profile.network) await cdp.send('Network.emulateNetworkConditions', profile.network);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: profile.cpu });
  await page.goto(url, { waitUntil: 'commit', timeout: 120_000 });
  await page.waitForFunction(() => window.__firstView.moved !== null && window.__firstView.poster !== null, null, { timeout: 180_000, polling: 250 });
  const fv = await page.evaluate(() => ({ ...window.__firstView, origin: performance.timeOrigin }));
  // Right after the story is interactive, before the page was idle: the chunks' worst case.
  await page.fill('#import-text', KUBECTL_LIST);
  const importRun = await firstUse(page, 'import-run', '#import-findings');
  const writer = await firstUse(page, 'write-tour', '#writer-add');
  await new Promise((r) => setTimeout(r, 300)); // the last CDP events on their way
  await context.close();
  // CDP's timestamps are a monotonic clock in seconds; the document's request also has its wall
  // time, which maps them onto the page's (timeOrigin + performance.now()).
  const doc = [...reqs.values()].find((r) => r.type === 'Document');
  const toPage = (t) => (t - doc.sent) * 1000 + doc.wall * 1000 - fv.origin;
  const list = [...reqs.values()].filter((r) => r.url?.startsWith(url))
    .map((r) => ({ file: new URL(r.url).pathname.slice(1) || 'index.html', sent: toPage(r.sent), firstByte: toPage(r.firstByte), done: toPage(r.done), bytes: r.bytes }));
  const byThen = list.filter((r) => r.done <= fv.moved);
  const wasm = list.find((r) => r.file.endsWith('.wasm'));
  return {
    poster: fv.poster, interactive: fv.moved, writer, importRun, clicked: fv.clicked, wasmFirstByte: wasm?.firstByte ?? NaN,
    bytes: byThen.reduce((s, r) => s + (r.bytes ?? 0), 0),
    firstView: new Set(list.filter((r) => r.sent <= fv.moved).map((r) => r.file)),
  };
}

async function figures(browser, url, profile, encodings) {
  const runs = [];
  for (let i = 0; i < RUNS; i += 1) runs.push(await load(browser, url, profile));
  const m = (k) => median(runs.map((r) => r[k]));
  const each = (k) => runs.map((r) => r[k].toFixed(0)).join(', ');
  const tag = `first view, ${profile.name}, ${served(encodings)}:`;
  console.log(`${tag} poster visible (10.96.0.1 + apiserver) median ${ms(m('poster'))}   (loads: ${each('poster')} ms; the wasm's first byte at median ${m('wasmFirstByte').toFixed(0)} ms; ${profile.what})`);
  console.log(`${tag} interactive (Play moves the clock)  median ${ms(m('interactive'))}   (loads: ${each('interactive')} ms; Play first clicked at median ${m('clicked').toFixed(0)} ms)`);
  console.log(`${tag} bytes transferred by then            median ${kb(m('bytes'))}   (loads: ${runs.map((r) => (r.bytes / 1024).toFixed(1)).join(', ')} KB, headers included)`);
  console.log(`${tag} click to the writer's first render  median ${ms(m('writer'))}   (loads: ${each('writer')} ms; clicked right after interactive)`);
  console.log(`${tag} click to the import's findings      median ${ms(m('importRun'))}   (loads: ${each('importRun')} ms; tests/kubectl/cluster-1.35.json)`);
  return runs;
}

/** The weight of every file of the build (its .gz and .br copies), the total and the first-view part. */
async function weight(firstView) {
  // The demo page is no part of what a docs site hosts (scripts/dist.mjs leaves it out too).
  const files = (await readdir(DIST)).filter((f) => /\.(wasm|js|css|html)$/.test(f) && !f.startsWith('docs-example.')).sort();
  const size = async (f) => (await stat(`${DIST}/${f}`).catch(() => ({ size: NaN }))).size;
  const rows = [];
  for (const f of files) rows.push({ f, raw: await size(f), gz: await size(`${f}.gz`), br: await size(`${f}.br`), first: firstView.has(f) });
  console.log(`first view: weight of ${DIST}/ (bytes; * = requested before the first view was interactive, throttled)`);
  console.log(`     ${'raw'.padStart(9)} ${'gzip -9'.padStart(9)} ${'brotli'.padStart(9)}  file`);
  for (const r of rows) console.log(`   ${r.first ? '*' : ' '} ${String(r.raw).padStart(9)} ${String(r.gz).padStart(9)} ${String(r.br).padStart(9)}  ${r.f}`);
  const sum = (rs, k) => rs.reduce((s, r) => s + r[k], 0);
  const line = (label, rs) => console.log(`first view: weight, ${label} ${kb(sum(rs, 'raw'))} raw, ${kb(sum(rs, 'gz'))} gzip, ${kb(sum(rs, 'br'))} brotli   (${rs.length} files)`);
  line('every file:     ', rows);
  line('first-view part:', rows.filter((r) => r.first));
}

const browser = await chromium.launch(CHROMIUM);
try {
  let firstView = new Set();
  for (const encodings of PASSES) {
    const server = await serve(DIST, { encodings });
    try {
      const throttled = await figures(browser, server.url, PROFILES[0], encodings);
      await figures(browser, server.url, PROFILES[1], encodings);
      if (firstView.size === 0) firstView = new Set(throttled.flatMap((r) => [...r.firstView]));
    } finally {
      server.close();
    }
  }
  await weight(firstView);
} finally {
  await browser.close();
}
