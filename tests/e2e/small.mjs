// End-to-end, issue 35's small things of the lab's own page: the address names what is shown (a
// scenario picked replaces the one the page opened with, and a reload opens it, the page's theme
// kept); an imported cluster survives a reload (kept in the tab's sessionStorage, named `#imported`
// in the address, never its file); kept data that does not read is dropped with one line; an
// embedded lab leaves its host page's address and storage alone.
// Usage: node tests/e2e/small.mjs   (after `make package`)
import { chromium } from 'playwright-core';
import { readFile } from 'node:fs/promises';
import { serve } from './serve.mjs';
import { CHROMIUM, DIST, check, finish } from './harness.mjs';

const server = await serve(DIST);
const browser = await chromium.launch(CHROMIUM);
const paste = await readFile('tests/kubectl/shape-eks-typed.json', 'utf8');

async function pick(page, name) {
  await page.selectOption('#scenario-pick', name);
  await page.waitForFunction((n) => document.querySelector('#scenario-pick')?.value === n, name);
}

async function importIn(page) {
  await page.fill('#import-text', paste);
  await page.click('#import-run');
  await page.waitForSelector('#import-findings');
}

try {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  // A scenario picked: the address follows, the page's theme stays, a reload opens it.
  await page.goto(`${server.url}?scenario=crash-one-of-three&theme=dark#scenario=crash-one-of-three&t=0s`);
  await page.waitForSelector('#scenario-pick');
  await pick(page, 'crash-vs-graceful-stop');
  await page.waitForFunction(() => location.hash.includes('crash-vs-graceful-stop'), null, { timeout: 5000 }).catch(() => {});
  const url = new URL(page.url());
  check(url.hash.startsWith('#scenario=crash-vs-graceful-stop') && !url.search.includes('scenario='),
    `the address names the scenario picked (${url.search}${url.hash})`);
  check(url.searchParams.get('theme') === 'dark', `the page's theme=dark stays (${url.search})`);
  await page.reload();
  await page.waitForSelector('#scenario-pick');
  check(await page.inputValue('#scenario-pick') === 'crash-vs-graceful-stop', 'a reload opens the scenario picked');

  // An import: named in the address, not carried; kept over a reload.
  await importIn(page);
  const imported = new URL(page.url());
  check(imported.hash === '#imported', `the address names the import, not its file (${imported.hash.slice(0, 60)})`);
  const kept = await page.evaluate(() => sessionStorage.getItem('kube-bootstrap-lab:imported'));
  check(kept?.includes('kube-dns'), 'the import is kept in the tab\'s sessionStorage');
  await page.reload();
  await page.waitForSelector('#svc-kube-system-kube-dns', { timeout: 10000 }).catch(() => {});
  check(await page.$('#svc-kube-system-kube-dns') !== null, 'a reload opens the imported cluster again');
  check(await page.$('#action-error') === null, 'with nothing to tell');

  // Kept data that does not read: dropped, one line said, the default scenario shown.
  await page.evaluate(() => sessionStorage.setItem('kube-bootstrap-lab:imported', '{"name": "x", "cluster": 7}'));
  await page.reload();
  await page.waitForSelector('#scenario-pick');
  const notice = (await page.textContent('#action-error').catch(() => '')) ?? '';
  check(/could not be read/.test(notice) && !notice.includes('\n'), `bad kept data is dropped with one line (${notice.slice(0, 120)})`);
  check(await page.evaluate(() => sessionStorage.getItem('kube-bootstrap-lab:imported')) === null, 'and forgotten');
  check(await page.inputValue('#scenario-pick') === 'crash-one-of-three', 'the default scenario is shown');

  // An embed: the host page's address and storage are left alone.
  const host = `${server.url}__e2e/small-host.html?mine=1#top`;
  await page.route('**/__e2e/small-host.html*', (route) => route.fulfill({ contentType: 'text/html; charset=utf-8', body: `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,">
<script type="module" src="${server.url}embed.js"></script></head><body><kube-bootstrap-lab scenario="crash-one-of-three"></kube-bootstrap-lab></body></html>` }));
  await page.goto(host);
  const inner = page.locator('kube-bootstrap-lab');
  await page.locator('kube-bootstrap-lab #kubernetes-ip').waitFor({ timeout: 20000 });
  await inner.locator('#scenario-pick').selectOption('crash-vs-graceful-stop');
  await inner.locator('#share').click();
  await inner.locator('#import-text').fill(paste);
  await inner.locator('#import-run').click();
  await inner.locator('#import-findings').waitFor();
  check(page.url() === host, `an embed leaves the host page's address alone (${page.url()})`);
  check(await page.evaluate(() => sessionStorage.length) === 0, 'and its storage');
  await context.close();
} finally {
  await browser.close();
  server.close();
}
finish('small things (issue 35)');
