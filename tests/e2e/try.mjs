// End-to-end, Things to try: on a 1280 px desktop (English) and a 390 px phone (Chinese), the
// sandbox of crash-one-of-three offers its experiments under the stage; one click sets the first
// up (stop apiserver-a gracefully just after apiserver-b's crash): the clock starts 3 s before the
// action and plays, the watch text is said, and what it says happens on the page: at 62 s the
// stopped apiserver-a's address is gone from the Endpoints while the crashed apiserver-b's is still
// there, until its lease runs out (gone at 66 s); the stage's apiserver-a, which it is about, is
// brought into view (on the phone it is a screen above the list). Screenshots: test-artifacts/e2e/try-*.png.
// Usage: node tests/e2e/try.mjs   (after `trunk build --release`)
import { chromium } from 'playwright-core';
import { mkdir, readFile } from 'node:fs/promises';
import { serve } from './serve.mjs';
import { ARTIFACTS, CHROMIUM, DIST, ROOT, check, finish, settle } from './harness.mjs';

const scenario = JSON.parse(await readFile('scenarios/crash-one-of-three.json', 'utf8'));
const first = scenario.experiments[0];
const endpoints = (page) => page.$$eval('#kubernetes-endpoints .address:not(.leaving)', (els) => els.map((e) => e.textContent).join(' '));
const clock = async (page) => Number((await page.textContent('#clock')).replace(/^t = /, '').replace(/s$/, '').split('m').reduce((m, s, i, all) => (all.length > 1 && i === 0 ? Number(s) * 60 : m + Number(s)), 0));

/** In the page: the share of the stage's picture of `spot` in the viewport and not covered (an
 *  8×8 grid of points, as tests/e2e/visibility.mjs measures a tour's parts). */
function subjectClear(spot) {
  const el = document.querySelector(`.stage [data-spot="${spot}"]`);
  if (!el) return 0;
  const r = el.getBoundingClientRect();
  let clear = 0;
  for (let i = 0; i < 8; i++) {
    for (let j = 0; j < 8; j++) {
      const [x, y] = [r.left + ((i + 0.5) * r.width) / 8, r.top + ((j + 0.5) * r.height) / 8];
      const hit = x >= 0 && y >= 0 && x < innerWidth && y < innerHeight && document.elementFromPoint(x, y);
      if (hit && (hit === el || el.contains(hit))) clear += 1;
    }
  }
  return clear / 64;
}

async function seek(page, ms) {
  await page.$eval('#scrubber', (el, v) => { el.value = String(v); el.dispatchEvent(new Event('input', { bubbles: true })); }, ms);
  await page.waitForFunction((v) => document.querySelector('#clock')?.textContent === `t = ${v}`, ms >= 60000 ? `${Math.floor(ms / 60000)}m${(ms % 60000) / 1000}s` : `${ms / 1000}s`);
}

async function run(browser, server, view, lang) {
  const tag = `try ${view.viewport.width} px (${lang})`;
  const context = await browser.newContext({ ...view, reducedMotion: 'reduce' });
  await context.addInitScript(ROOT);
  const page = await context.newPage();
  await page.goto(`${server.url}?scenario=crash-one-of-three&lang=${lang}`);
  await page.waitForSelector('.try-list button');
  const offered = await page.$$eval('.try-list button', (els) => els.map((e) => e.textContent));
  check(offered.length === scenario.experiments.length && offered[0].endsWith(first.title[lang]), `${tag}: the scenario's ${offered.length} experiments are offered, the first "${first.title[lang]}"`);
  await page.click('.try-list button >> nth=0');
  await page.waitForFunction((w) => document.querySelector('.try-watch')?.textContent.includes(w), first.watch[lang].slice(0, 30));
  check(await page.getAttribute('.try-list button >> nth=0', 'aria-pressed') === 'true', `${tag}: one click sets it up and says what to watch`);
  const start = await clock(page);
  check(start >= 58 && start < 61, `${tag}: the clock starts 3 s before the action (${start} s)`);
  check(await page.getAttribute('#play', 'aria-pressed') === 'true', `${tag}: and plays`);
  // What it is about comes into view: the apiserver it stops, clear of anything over it.
  await settle(page);
  const clear = await page.evaluate(subjectClear, 'apiserver:apiserver-a');
  check(clear >= 0.9, `${tag}: the stage's apiserver-a, which it stops, is brought into view (clear ${clear.toFixed(2)})`);
  if (view.viewport.width < 500) await page.screenshot({ path: `${ARTIFACTS}/try-${view.viewport.width}-${lang}-subject.png` });
  await page.waitForFunction(() => {
    const t = document.querySelector('#clock')?.textContent ?? '';
    return /^t = 1m/.test(t) && Number(t.replace(/^t = 1m/, '').replace(/s$/, '')) >= 2;
  }, null, { timeout: 30000 });
  await page.click('#play');
  await seek(page, 62000);
  const at62 = await endpoints(page);
  check(!at62.includes('192.168.10.11') && at62.includes('192.168.10.12'), `${tag}: at 62 s the stopped apiserver-a has left the Endpoints, the crashed apiserver-b not yet (${at62})`);
  await seek(page, 66000);
  const at66 = await endpoints(page);
  check(!at66.includes('192.168.10.12'), `${tag}: at 66 s apiserver-b has left too, its lease run out (${at66})`);
  check(await page.getAttribute('.try-list button >> nth=0', 'aria-pressed') === 'true', `${tag}: seeking stays in the experiment`);
  await settle(page);
  await page.$eval('.try-list', (e) => e.scrollIntoView({ block: 'center' }));
  await page.screenshot({ path: `${ARTIFACTS}/try-${view.viewport.width}-${lang}.png` });
  await context.close();
}

await mkdir(ARTIFACTS, { recursive: true });
const server = await serve(DIST);
const browser = await chromium.launch(CHROMIUM);
try {
  await run(browser, server, { viewport: { width: 1280, height: 800 } }, 'en');
  await run(browser, server, { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 }, 'zh');
} finally {
  await browser.close();
  server.close();
}
finish('try');
