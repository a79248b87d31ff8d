// End-to-end: serve the release build, drive it in Debian's Chromium, assert, take screenshots.
// Usage: node tests/e2e/shell.mjs   (after `trunk build --release`; the Makefile does both)
import { chromium } from 'playwright-core';
import { mkdir, readdir, readFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import { serve } from './serve.mjs';

const DIST = 'dist';
const ARTIFACTS = 'test-artifacts/e2e';
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage',
  '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

let failures = 0;
function check(cond, what) {
  console.log(`${cond ? 'ok  ' : 'FAIL'} ${what}`);
  if (!cond) failures += 1;
}

async function pageWeight() {
  const rows = [];
  for (const f of await readdir(DIST)) {
    const kind = f.split('.').pop();
    if (!['wasm', 'js', 'css'].includes(kind)) continue;
    const body = await readFile(`${DIST}/${f}`);
    rows.push({ kind, bytes: body.length, gzip: gzipSync(body, { level: 9 }).length });
  }
  return rows;
}

async function applyCidr(page, cidr) {
  await page.fill('#service-cidr', cidr);
  await page.click('#apply');
}

const server = await serve(DIST);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS });
await mkdir(ARTIFACTS, { recursive: true });
try {
  for (const [label, viewport] of [['desktop', { width: 1280, height: 800 }], ['phone', { width: 360, height: 740 }]]) {
    for (const colorScheme of ['light', 'dark']) {
      const context = await browser.newContext({ viewport, colorScheme });
      const page = await context.newPage();
      const errors = [];
      page.on('pageerror', (e) => errors.push(String(e)));
      await page.goto(server.url);
      await page.waitForSelector('#kubernetes-ip');
      const firstRender = await page.evaluate(() => performance.now());
      const tag = `${label}/${colorScheme}`;
      check(await page.textContent('#kubernetes-ip') === '10.0.0.1', `${tag}: default range gives the kubernetes Service 10.0.0.1`);

      await applyCidr(page, '10.96.0.0/12');
      await page.waitForFunction(() => document.querySelector('#kubernetes-ip').textContent === '10.96.0.1');
      check(true, `${tag}: 10.96.0.0/12 gives 10.96.0.1`);
      check((await page.textContent('main')).includes('1048574 usable addresses'), `${tag}: a /12 has 1,048,574 usable addresses`);

      await applyCidr(page, '10.96.0.0/33');
      await page.waitForFunction(() => document.querySelector('#flag-error').textContent !== '');
      check(await page.textContent('#flag-error') === '--service-cluster-ip-range: invalid CIDR "10.96.0.0/33"', `${tag}: an invalid CIDR shows the error`);
      check(await page.textContent('#kubernetes-ip') === '10.96.0.1', `${tag}: and nothing changed`);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
      check(!overflow, `${tag}: no horizontal overflow`);
      check(errors.length === 0, `${tag}: no page errors ${errors.join('; ')}`);

      await page.screenshot({ path: `${ARTIFACTS}/shell-${label}-${colorScheme}.png`, fullPage: true });
      console.log(`     ${tag}: first render at ${firstRender.toFixed(0)} ms after navigation start`);
      await context.close();
    }
  }
  console.log('release page weight (bytes, gzip -9):');
  for (const r of await pageWeight()) console.log(`     ${r.kind.padEnd(5)} ${String(r.bytes).padStart(9)}  ${String(r.gzip).padStart(9)}`);
} finally {
  await browser.close();
  server.close();
}
console.log(failures ? `e2e: ${failures} failed` : 'e2e: all passed');
process.exit(failures ? 1 : 0);
