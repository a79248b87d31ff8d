// The first view before any wasm (src/ui/poster.rs): the page, a tour's page, an embed and a page
// without JavaScript show the lab's first view while the module is held back; released, the
// app replaces it without moving what the reader sees (the stage, the tour's card, the time
// bar stay where they were, within 2 px); a page no poster fits shows the loading box.
// Usage: node tests/e2e/poster.mjs   (after `trunk build --release`; `make test-e2e` does both)
import { chromium } from 'playwright-core';
import { mkdir } from 'node:fs/promises';
import { serve } from './serve.mjs';
import { ARTIFACTS, CHROMIUM, DIST, check, finish, frames } from './harness.mjs';

/** Whether `loc` matches an element the reader sees (the poster draws the stage three ways). */
const seen = (loc) => loc.filter({ visible: true }).first().isVisible();

/** Holds the wasm back until `release()`: what the page shows before it is the poster's. */
async function holdWasm(page) {
  let release;
  const held = new Promise((r) => { release = r; });
  await page.route(/\.wasm$/, async (route) => { await held; await route.continue(); });
  return release;
}

/** The boxes of what the reader sees first, in page coordinates (the visible stage drawn). */
function boxes(page, root = 'document') {
  return page.evaluate((root) => {
    const doc = root === 'document' ? document : document.querySelector(root).shadowRoot;
    const seen = (sel) => [...doc.querySelectorAll(sel)].find((e) => e.getClientRects().length && getComputedStyle(e).display !== 'none');
    const box = (sel) => {
      const r = seen(sel)?.getBoundingClientRect();
      return r && { x: Math.round(r.x + scrollX), y: Math.round(r.y + scrollY), w: Math.round(r.width), h: Math.round(r.height) };
    };
    return { stage: box('.stage'), card: box('.stage-row > .tour'), controls: box('.controls'), portrait: !!seen('.stage.portrait') };
  }, root);
}

function same(a, b, what) {
  for (const part of ['stage', 'card', 'controls']) {
    const [p, q] = [a[part], b[part]];
    const near = p && q && ['x', 'y', 'w', 'h'].every((k) => Math.abs(p[k] - q[k]) <= 2);
    check(near, `${what}: the ${part} stays where the poster drew it (${JSON.stringify(p)} → ${JSON.stringify(q)})`);
  }
  check(a.portrait === b.portrait, `${what}: the poster drew the stage the way the lab does (portrait: ${a.portrait})`);
}

/** `query` of the page: the poster before the wasm, then the lab in its place. */
async function page(browser, base, query, [width, height], expect) {
  const what = `${query || 'the untouched page'} at ${width}×${height}`;
  const page = await browser.newPage({ viewport: { width, height } });
  const release = await holdWasm(page);
  await page.goto(`${base}index.html${query}`);
  const poster = page.locator('.lab-poster');
  await poster.waitFor({ state: 'visible', timeout: 10000 });
  check(await seen(poster.getByText('10.96.0.1', { exact: true })), `${what}: the poster shows 10.96.0.1 before any wasm`);
  check(await seen(poster.getByText('apiserver-a', { exact: true })), `${what}: and an apiserver`);
  check(await seen(poster.locator('.stage-row > .tour').getByText(expect)), `${what}: and its card: "${expect}"`);
  const name = `poster-${query.replace(/\W+/g, '-') || 'untouched'}-${width}`;
  await page.screenshot({ path: `${ARTIFACTS}/${name}.png` });
  const before = await boxes(page);
  release();
  await page.locator('body > .lab').waitFor({ state: 'visible', timeout: 30000 });
  check(await page.locator('.lab-poster').count() === 0, `${what}: the app replaced the poster`);
  same(before, await boxes(page), what);
  await page.screenshot({ path: `${ARTIFACTS}/${name}-live.png` });
  await page.close();
}

await mkdir(ARTIFACTS, { recursive: true });
const server = await serve(DIST);
const browser = await chromium.launch(CHROMIUM);
for (const size of [[1280, 800], [750, 900], [390, 844]]) {
  await page(browser, server.url, '', size, 'In one minute: a crash, a graceful stop');
}
await page(browser, server.url, '?tour=lease-crash-vs-stop&lang=zh', [750, 900], '租约心跳');
await page(browser, server.url, '?tour=kubernetes-service&controls=minimal&theme=dark', [1280, 800], 'The special kubernetes Service');

// Asked for what no poster shows: the loading box of the lab's size, as before.
{
  const p = await browser.newPage();
  await holdWasm(p);
  for (const query of ['?scenario=crash-one-of-three', '?step=1', '?tour=etcd-outage&step=3']) {
    await p.goto(`${server.url}index.html${query}`);
    await p.locator('.lab-loading').waitFor({ state: 'visible' });
    check(await p.locator('.lab-poster').count() === 0, `${query}: no poster shows that, the loading box does`);
  }
  await p.close();
}

// Without JavaScript the first view is still there to read.
{
  const ctx = await browser.newContext({ javaScriptEnabled: false });
  const p = await ctx.newPage();
  await p.goto(`${server.url}index.html`);
  check(await seen(p.locator('.lab-poster').getByText('10.96.0.1', { exact: true })), 'without JavaScript: the poster shows 10.96.0.1');
  await ctx.close();
}

// Nothing the poster draws runs into anything else before the lab can measure: its status covers
// no text, and each etcd key leaves room for its value (the poster's estimate, src/ui/stage/fit.rs).
for (const [width, height] of [[390, 800], [750, 900], [1280, 800]]) {
  const ctx = await browser.newContext({ viewport: { width, height }, javaScriptEnabled: false });
  const p = await ctx.newPage();
  await p.goto(`${server.url}index.html`);
  const clash = await p.evaluate(() => {
    const meets = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom && a.width && b.width;
    const pill = document.querySelector('.lab-poster-status').getBoundingClientRect();
    const words = [...document.querySelectorAll('.lab-poster-view :is(h1, p, label, button, select, span, text)')]
      .filter((e) => e.childElementCount === 0 && e.textContent.trim() && e.getClientRects().length);
    const covered = words.filter((e) => meets(pill, e.getBoundingClientRect())).map((e) => e.textContent.trim());
    const rows = [...document.querySelectorAll('.stage-fit .row')].filter((g) => g.getClientRects().length);
    const crowded = rows.filter((g) => {
      const [k, d] = [g.querySelector('text.key'), g.querySelector('text.detail')].map((t) => t.getBoundingClientRect());
      return Math.abs(k.top - d.top) < 4 && k.right > d.left;
    }).map((g) => g.dataset.key);
    return { covered, crowded, rows: rows.length };
  });
  check(clash.covered.length === 0, `poster at ${width} px: its status covers no text (${JSON.stringify(clash.covered)})`);
  check(clash.rows > 5 && clash.crowded.length === 0, `poster at ${width} px: no etcd key runs into its value (${clash.rows} rows; ${JSON.stringify(clash.crowded)})`);
  await ctx.close();
}

// The element in a host page: its tour's poster in its shadow root while the module loads.
{
  const p = await browser.newPage({ viewport: { width: 1000, height: 900 } });
  const release = await holdWasm(p);
  await p.route('**/host.html', (r) => r.fulfill({ contentType: 'text/html', body: `<!doctype html><meta charset="utf-8">
<script type="module" src="${server.url}embed.js"></script><div style="width: 750px">
<kube-bootstrap-lab id="el" tour="lease-crash-vs-stop" controls="minimal"></kube-bootstrap-lab></div>` }));
  await p.goto(`${server.url}host.html`);
  const el = p.locator('#el .lab-poster');
  await el.waitFor({ state: 'visible', timeout: 10000 });
  check(await seen(el.getByText('10.96.0.1', { exact: true })), 'the element: its poster shows 10.96.0.1 before any wasm');
  const before = await boxes(p, '#el');
  release();
  await p.locator('#el .kube-bootstrap-lab-app > .lab').waitFor({ state: 'visible', timeout: 30000 });
  check(await p.locator('#el .lab-poster').count() === 0, 'the element: the app replaced its poster');
  same(before, await boxes(p, '#el'), 'the element');
  await p.close();
}

// On a slow link (1.6 Mbit/s, 150 ms), a tour's link: what each frame is about to paint (recorded
// in requestAnimationFrame from the document's start) is that tour's poster from the first frame
// with content, never the story's poster nor an empty loading box; its Next and Play say they
// are loading, and a click on them before the wasm arrives is carried out when the lab does.
/** Records, before each frame, what the page is about to paint: a poster (its file), the
 *  loading box, the lab, or nothing. */
const FILM = () => {
  window.__film = [];
  const what = () => {
    const shown = (el) => el && el.getClientRects().length && getComputedStyle(el).visibility !== 'hidden';
    if (shown(document.querySelector('body > .lab'))) return 'lab';
    const poster = [...document.querySelectorAll('body > .lab-poster')].find(shown);
    if (poster) return poster.dataset.poster;
    if (shown(document.querySelector('body > .lab-loading:not([hidden])'))) return 'loading';
    return 'nothing';
  };
  const tick = () => {
    const now = what();
    const last = window.__film[window.__film.length - 1];
    if (last?.what !== now) window.__film.push({ what: now, at: Math.round(performance.now()) });
    if (now !== 'lab') requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
};

async function slowLink(browser, base, query, click, [width, height]) {
  const tour = new URLSearchParams(query).get('tour') ?? 'story';
  const what = `${query} on a 1.6 Mbit/s link at ${width}×${height}, ${click} clicked on the poster`;
  const context = await browser.newContext({ viewport: { width, height } });
  await context.addInitScript(FILM);
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 150, downloadThroughput: 1.6e6 / 8, uploadThroughput: 0.75e6 / 8 });
  await page.goto(`${base}index.html${query}`, { waitUntil: 'commit' });
  const poster = page.locator(`body > .lab-poster[data-poster="posters/${tour}.en.html"]`);
  await poster.waitFor({ state: 'visible', timeout: 20000 });
  const button = click === 'Next' ? poster.locator('.stage-row > .tour .tour-buttons button.primary') : poster.locator('.controls button[data-hands-over]');
  check(await button.getAttribute('aria-disabled') === 'true', `${what}: the poster's ${click} says it is not ready yet (aria-disabled)`);
  const label = await button.textContent();
  const posterClock = await poster.locator('.controls .clock').first().textContent();
  check(label.includes(click === 'Next' ? 'Next' : click === 'Play' ? 'Play' : 'Pause'), `${what}: the poster's button reads "${label.trim()}"`);
  await page.screenshot({ path: `${ARTIFACTS}/poster-slow-${tour}-${click}.png` });
  // As a reader does: a click where the button is drawn (the poster is no live page yet).
  const b = await button.boundingBox();
  await page.mouse.click(b.x + b.width / 2, b.y + b.height / 2);
  const kept = await page.locator('body > .lab-poster').count() === 1;
  await page.screenshot({ path: `${ARTIFACTS}/poster-slow-${tour}-${click}-kept.png` });
  await page.locator('body > .lab').waitFor({ state: 'visible', timeout: 60000 });
  const film = await page.evaluate(() => window.__film);
  console.log(`     ${query}: ${film.map((f) => `${f.what} @${f.at} ms`).join(' → ')}`);
  const shown = film.filter((f) => f.what !== 'nothing');
  check(shown[0]?.what === `posters/${tour}.en.html`, `${what}: the first frame with content is that tour's poster (${shown[0]?.what} at ${shown[0]?.at} ms)`);
  check(!film.some((f) => f.what === 'loading' || /story/.test(f.what)), `${what}: never the story's poster nor the empty loading box`);
  const i = film.findIndex((f) => f.what !== 'nothing');
  check(i >= 0 && film.slice(i).every((f) => f.what !== 'nothing'), `${what}: nothing blank between the poster and the lab`);
  if (click === 'Next') {
    await page.waitForFunction(() => /^Step 2 of/.test(document.querySelector('#tour-progress')?.textContent ?? ''), null, { timeout: 20000 }).catch(() => {});
    const step = await page.textContent('#tour-progress');
    check(kept && /^Step 2 of/.test(step), `${what} ("${label.trim()}", before the wasm): the lab carried it out and shows step 2 (${step})`);
  } else {
    // Play plays (in a tour, on to the next step's instant): the clock moves. The Play of a step
    // that plays by itself reads Pause, and pauses: the clock stays.
    const clock = () => page.textContent('.controls .clock');
    if (click === 'Play') {
      const first = posterClock;
      const moved = await page.waitForFunction((c) => document.querySelector('.controls .clock')?.textContent !== c, first, { timeout: 10000 }).then(() => true, () => false);
      check(kept && moved, `${what} ("${label.trim()}", before the wasm): the lab carried it out and plays (${first} → ${await clock()})`);
    } else {
      const first = await clock();
      // The window in which the clock must not move: 30 frames (a playing clock moves every frame).
      await frames(page, 30);
      const then = await clock();
      const paused = await page.getAttribute('#play', 'aria-pressed');
      check(kept && then === first && paused === 'false', `${what} ("${label.trim()}", before the wasm): the lab carried it out and stays paused (${first} → ${then}, aria-pressed ${paused})`);
    }
  }
  await page.screenshot({ path: `${ARTIFACTS}/poster-slow-${tour}-${click}-live.png` });
  await context.close();
}

// The element's poster keeps a click too, in its shadow root.
{
  const p = await browser.newPage({ viewport: { width: 1000, height: 900 } });
  const release = await holdWasm(p);
  await p.route('**/host.html', (r) => r.fulfill({ contentType: 'text/html', body: `<!doctype html><meta charset="utf-8">
<script type="module" src="${server.url}embed.js"></script><div style="width: 750px">
<kube-bootstrap-lab id="el" tour="kubernetes-service"></kube-bootstrap-lab></div>` }));
  await p.goto(`${server.url}host.html`);
  const next = p.locator('#el .lab-poster .stage-row > .tour .tour-buttons button.primary');
  await next.waitFor({ state: 'visible', timeout: 10000 });
  check(await next.getAttribute('aria-disabled') === 'true', 'the element: its poster\'s Next says it is not ready yet');
  const b = await next.boundingBox();
  await p.mouse.click(b.x + b.width / 2, b.y + b.height / 2);
  release();
  await p.locator('#el .kube-bootstrap-lab-app > .lab').waitFor({ state: 'visible', timeout: 30000 });
  const step = p.locator('#el [id$="tour-progress"]');
  await p.waitForFunction(() => /^Step 2 of/.test(document.querySelector('#el').shadowRoot.querySelector('[id$="tour-progress"]')?.textContent ?? ''), null, { timeout: 15000 }).catch(() => {});
  const shown = await step.textContent();
  check(/^Step 2 of/.test(shown), `the element: a click on its poster's Next before the wasm is carried out (${shown})`);
  await p.close();
}

await slowLink(browser, server.url, '?tour=kubernetes-service', 'Next', [390, 844]);
await slowLink(browser, server.url, '?tour=kubernetes-service', 'Play', [1280, 800]);
await slowLink(browser, server.url, '?tour=lease-crash-vs-stop', 'Pause', [750, 900]);

await browser.close();
server.close();
finish('poster');
