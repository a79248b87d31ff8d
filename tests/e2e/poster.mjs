// The first view before any wasm (src/ui/poster.rs): the page, a tour's page, an embed and a page
// without JavaScript show the lab's first view while the module is held back; released, the
// app replaces it without moving what the reader sees (the stage, the tour's card, the time
// bar stay where they were, within 2 px); a page no poster fits shows the loading box.
// Usage: node tests/e2e/poster.mjs   (after `trunk build --release`; `make test-e2e` does both)
import { chromium } from 'playwright-core';
import { mkdir } from 'node:fs/promises';
import { serve } from './serve.mjs';
import { ARTIFACTS, CHROMIUM, DIST, check, finish } from './harness.mjs';

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

await browser.close();
server.close();
finish('poster');
