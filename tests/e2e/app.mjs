// End-to-end: serve the release build, drive it in Debian's Chromium, assert, take screenshots,
// and print the figures (page weight, time to first frame, frame times while playing).
// Usage: node tests/e2e/app.mjs   (after `trunk build --release`; `make test` does both)
import { chromium } from 'playwright-core';
import { mkdir, readdir, readFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import { serve } from './serve.mjs';
import { ARTIFACTS, CHROMIUM, DIST, check, finish } from './harness.mjs';


const text = (page, sel) => page.textContent(sel).then((t) => (t ?? '').trim());
/** The addresses of the kubernetes Endpoints (not those fading out). */
const endpoints = (page) => page.$$eval('#kubernetes-endpoints .address:not(.leaving)', (els) => els.map((e) => e.textContent).join(' '));

/** Moves the simulation to virtual time `ms` with the timeline scrubber. */
async function seek(page, ms) {
  await page.$eval('#scrubber', (el, v) => {
    el.value = String(v);
    el.dispatchEvent(new Event('input', { bubbles: true }));
  }, ms);
  await page.waitForFunction((v) => document.querySelector('#scrubber').value === String(v), ms);
}

async function buttonIn(page, scope, label) {
  return page.locator(`${scope} button`, { hasText: label }).first();
}

/** The description a bitmap gives for `value` (an IP or port), found by hovering its cell. */
async function hoverCell(page, id, offset) {
  await page.$eval(`#${id}-canvas`, (c) => c.scrollIntoView({ block: 'center' }));
  const box = await page.$eval(`#${id}-canvas`, (c, o) => {
    const r = c.getBoundingClientRect();
    const cols = Number(c.dataset.cols), rows = Number(c.dataset.rows), first = Number(c.dataset.first || 0);
    const i = o - first;
    return { x: r.left + ((i % cols) + 0.5) * (r.width / cols), y: r.top + (Math.floor(i / cols) + 0.5) * (r.height / rows) };
  }, offset);
  await page.mouse.move(box.x, box.y);
  return text(page, `#${id}-desc`);
}

async function story(page, tag) {
  await page.waitForSelector('#kubernetes-ip');
  check(await text(page, '#kubernetes-ip') === '10.96.0.1', `${tag}: the kubernetes Service has the first IP of 10.96.0.0/12`);

  // Crash apiserver-b at 20 s: its address stays until its lease (written at 20 s) expires at 35 s.
  await seek(page, 20000);
  await (await buttonIn(page, '#apiserver-apiserver-b', 'Crash')).click();
  await seek(page, 34000);
  check((await endpoints(page)).includes('192.168.10.12'), `${tag}: a crashed apiserver stays in the Endpoints while its lease lives`);
  await seek(page, 36000);
  check(!(await endpoints(page)).includes('192.168.10.12'), `${tag}: and leaves them after the TTL`);
  check((await text(page, '#written-by')).includes('− 192.168.10.12: crashed: its lease expired'), `${tag}: the rewrite says who left and why`);

  // Delete the kubernetes Service: it comes back with the first IP at the next sync.
  await page.click('#delete-kubernetes');
  await page.waitForSelector('#kubernetes-missing');
  check(true, `${tag}: the kubernetes Service is gone`);
  await seek(page, 46000);
  check(await text(page, '#kubernetes-ip') === '10.96.0.1', `${tag}: and returns with 10.96.0.1`);

  // Create a NodePort Service on 30080 and see its cell fill.
  await page.fill('#svc-name', 'web');
  await page.selectOption('#svc-type', 'NodePort');
  await page.fill('#svc-node-port', '30080');
  await page.click('#svc-create');
  await page.waitForSelector('#svc-default-web');
  const desc = await hoverCell(page, 'node-port', 80);
  check(desc.startsWith('30080') && desc.includes('default/web'), `${tag}: NodePort cell 30080 is allocated to default/web (${desc})`);

  // A link to this moment reopens it in a fresh page.
  await page.click('#share');
  const link = await page.inputValue('#share-link');
  const clock = await text(page, '#clock');
  const other = await page.context().newPage();
  await other.goto(link);
  await other.waitForSelector('#kubernetes-ip');
  check(await text(other, '#clock') === clock && (await other.$('#svc-default-web')) !== null, `${tag}: the link reopens ${clock} with the Service`);
  await other.close();

  // An invalid CIDR is refused and changes nothing.
  await page.click('#configure');
  await page.fill('#cfg-cidr', '10.96.0.0/33');
  await page.dispatchEvent('#cfg-cidr', 'change');
  await page.click('#cfg-apply');
  await page.waitForSelector('#config-error');
  check(await text(page, '#config-error') === 'cluster.service_cluster_ip_range: invalid CIDR "10.96.0.0/33"', `${tag}: an invalid CIDR shows the error`);
  check(await text(page, '#kubernetes-ip') === '10.96.0.1' && (await page.$('#svc-default-web')) !== null, `${tag}: and nothing changed`);
  await page.click('#configure');
}

async function pageWeight() {
  const rows = [];
  for (const f of await readdir(DIST)) {
    const kind = f.split('.').pop();
    if (!['wasm', 'js', 'css'].includes(kind)) continue;
    const body = await readFile(`${DIST}/${f}`);
    rows.push({ file: f, kind, bytes: body.length, gzip: gzipSync(body, { level: 9 }).length });
  }
  return rows;
}

/** p95 of the play loop's frame times at 20× with a /16 range. */
async function frameTimes(browser, url) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.goto(url);
  await page.waitForSelector('#kubernetes-ip');
  await page.click('#configure');
  await page.fill('#cfg-cidr', '10.96.0.0/16');
  await page.dispatchEvent('#cfg-cidr', 'change');
  await page.click('#cfg-apply');
  await page.waitForFunction(() => document.querySelector('#kubernetes-ip')?.textContent === '10.96.0.1');
  await page.$eval('#speed', (el) => { el.value = String(Math.log10(20)); el.dispatchEvent(new Event('input', { bubbles: true })); });
  await page.evaluate(() => { window.__labFrameTimes = []; window.__rafGaps = []; let last = performance.now();
    const f = (t) => { window.__rafGaps.push(t - last); last = t; if (window.__rafGaps.length < 600) requestAnimationFrame(f); }; requestAnimationFrame(f); });
  await page.click('#play');
  await page.waitForTimeout(5000);
  await page.click('#play');
  const { work, gaps, now } = await page.evaluate(() => ({ work: window.__labFrameTimes, gaps: window.__rafGaps, now: document.querySelector('#clock').textContent }));
  await context.close();
  const p95 = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length * 0.95)] ?? NaN; };
  return { frames: work.length, p95Work: p95(work), p95Gap: p95(gaps.slice(5)), clock: now };
}

const server = await serve(DIST);
const browser = await chromium.launch(CHROMIUM);
await mkdir(ARTIFACTS, { recursive: true });
try {
  for (const [label, viewport] of [['desktop', { width: 1440, height: 1000 }], ['phone', { width: 360, height: 780 }]]) {
    for (const colorScheme of ['light', 'dark']) {
      const tag = `${label}/${colorScheme}`;
      const context = await browser.newContext({ viewport, colorScheme });
      const page = await context.newPage();
      const errors = [];
      page.on('pageerror', (e) => errors.push(String(e)));
      page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
      await page.goto(`${server.url}?scenario=crash-one-of-three`);
      await page.waitForSelector('#kubernetes-ip');
      const firstFrame = await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r(performance.now()))));
      await page.screenshot({ path: `${ARTIFACTS}/start-${label}-${colorScheme}.png`, fullPage: label === 'desktop' });
      await story(page, tag);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1);
      check(!overflow, `${tag}: no horizontal overflow`);
      check(errors.length === 0, `${tag}: no page errors ${errors.join('; ')}`);
      await page.screenshot({ path: `${ARTIFACTS}/story-${label}-${colorScheme}.png`, fullPage: true });
      console.log(`     ${tag}: first frame ${firstFrame.toFixed(0)} ms after navigation start`);
      await context.close();
    }
  }
  // URL parameters: a forced theme beats the system one, minimal controls hide editing,
  // and an unknown parameter is reported.
  {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme: 'light' });
    const page = await context.newPage();
    await page.goto(`${server.url}?theme=dark&controls=minimal&colour=red`);
    await page.waitForSelector('#kubernetes-ip');
    const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    check(bg === 'rgb(14, 18, 25)', `?theme=dark in a light system gives the dark page (${bg})`);
    check(!(await page.isVisible('#configure')) && !(await page.isVisible('#create-service')), '?controls=minimal hides the editing controls');
    check((await text(page, '#action-error')) === 'unknown URL parameter "colour"', 'an unknown URL parameter is reported');
    await page.screenshot({ path: `${ARTIFACTS}/minimal-forced-dark.png` });
    await context.close();
  }
  const f = await frameTimes(browser, `${server.url}?scenario=crash-one-of-three`);
  console.log(`     playing at 20× on a /16 for 5 s: ${f.frames} frames, p95 frame work ${f.p95Work.toFixed(2)} ms, p95 frame interval ${f.p95Gap.toFixed(1)} ms, reached ${f.clock}`);
  check(f.frames > 0, 'the play loop draws frames while playing');
  console.log('release page weight (bytes, gzip -9):');
  for (const r of await pageWeight()) console.log(`     ${r.kind.padEnd(5)} ${String(r.bytes).padStart(9)}  ${String(r.gzip).padStart(9)}  ${r.file}`);
} finally {
  await browser.close();
  server.close();
}
finish('e2e');
