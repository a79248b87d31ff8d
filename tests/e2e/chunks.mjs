// End-to-end, issue 37's split by use: the first view fetches no chunk before the story is
// interactive; the writer (the panels' chunk) and the import (its own) render and run from theirs
// when first used. A chunk that does not arrive is fetched once more, then the lab says in one
// line, in its language, what could not be loaded, and the story still plays.
// Usage: node tests/e2e/chunks.mjs   (after `make package`)
import { chromium } from 'playwright-core';
import { readFile } from 'node:fs/promises';
import { serve } from './serve.mjs';
import { CHROMIUM, DIST, check, finish, frames } from './harness.mjs';

const server = await serve(DIST);
const browser = await chromium.launch(CHROMIUM);
const CHUNK = /\/(split_\w+|chunk_\d+)\.wasm$/;
const name = (url) => url.split('/').pop();

/** A fresh page of the lab with `query`, which notes when each fetch starts and when the module
 *  has started (boot.js's TrunkApplicationStarted), in the page's clock. */
async function open(query, block) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const tries = [];
  if (block) {
    await context.route(block, (route) => {
      tries.push(name(route.request().url()));
      return route.abort();
    });
  }
  await context.addInitScript(() => {
    window.__fetches = [];
    const fetch = window.fetch;
    window.fetch = (input, init) => {
      window.__fetches.push([String(input?.url ?? input), performance.now()]);
      return fetch(input, init);
    };
    addEventListener('TrunkApplicationStarted', () => { window.__started = performance.now(); });
  });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`${server.url}?${query}`);
  await page.waitForFunction(() => window.__started !== undefined);
  return { context, page, tries, errors };
}

/** The clock moves once Play is pressed. */
async function plays(page) {
  const before = await page.textContent('#clock');
  await page.click('#play');
  await page.waitForFunction((b) => document.querySelector('#clock')?.textContent !== b, before, { timeout: 10000 })
    .catch(() => {});
  const after = await page.textContent('#clock');
  await page.click('#play');
  return after !== before;
}

try {
  // The first view: the module, then only what the reader opens.
  const { context, page, errors } = await open('scenario=crash-vs-graceful-stop');
  // The first view's things to try fetch the panels' chunk once the page has been idle (at most
  // 2 s after it started): wait until they rendered from it, then 30 frames more in which the
  // import's chunk must not be fetched.
  const firstView = await page.waitForFunction(() => !document.querySelector('.lazy-loading')
    && window.__fetches.some(([u]) => /\/split_panels\.wasm$/.test(u)), null, { timeout: 20000 }).then(() => '', () => ' (the things to try had not rendered from their chunk after 20 s)');
  await frames(page, 30);
  const chunksAt = async () => (await page.evaluate(() => window.__fetches)).filter(([u]) => CHUNK.test(u));
  const { started } = await page.evaluate(() => ({ started: window.__started }));
  const early = await chunksAt();
  check(early.every(([, t]) => t > started),
    `no chunk is fetched before the story is interactive (${early.map(([u, t]) => `${name(u)}@${Math.round(t - started)}ms`).join(', ') || 'none in the first view'}${firstView})`);
  check(!early.some(([u]) => /split_import/.test(u)), 'the import chunk is not fetched before an import');
  await page.click('#write-tour');
  await page.waitForSelector('#writer-add', { timeout: 10000 }).catch(() => {});
  check(await page.isVisible('#writer-add'), '"Write a tour" opens the writer from its chunk');
  await page.fill('#import-text', await readFile('tests/kubectl/cluster-1.35.json', 'utf8'));
  await page.click('#import-run');
  await page.waitForSelector('#import-findings', { timeout: 15000 }).catch(() => {});
  check(await page.$('#import-findings') !== null, 'an import runs from its chunk');
  const late = (await chunksAt()).map(([u]) => name(u));
  check(late.some((u) => /split_panels/.test(u)) && late.some((u) => /split_import/.test(u)), `each chunk fetched on first use (${late.join(', ')})`);
  check(errors.length === 0, `no page error (${errors.join(' | ').slice(0, 200)})`);
  await context.close();

  // The panels' chunk never arrives (the first view's things to try fetch it when the page is
  // idle): tried twice, one line says so; a part opened after is not fetched again; the story plays.
  for (const [lang, words] of [['en', /^Could not load the inspector, the table view/], ['zh', /^无法加载检查器、表格视图/]]) {
    const failed = await open(`scenario=crash-vs-graceful-stop&lang=${lang}`, /\/split_panels\.wasm$/);
    await failed.page.waitForSelector('.lazy-failed', { timeout: 15000 }).catch(() => {});
    const tries = failed.tries.length;
    await failed.page.click('#write-tour');
    // The window in which the writer must not fetch the chunk again, nor add a second line.
    await frames(failed.page, 30);
    const lines = await failed.page.$$eval('.lazy-failed', (els) => els.map((e) => e.textContent));
    check(lines.length === 1 && words.test(lines[0]) && !lines[0].includes('\n'),
      `${lang}: a chunk that does not arrive is told in one line (${lines.join(' | ').slice(0, 160)})`);
    check(tries === 2 && failed.tries.length === 2, `${lang}: it was fetched twice, and not again for the writer (${tries}, then ${failed.tries.length})`);
    check(await plays(failed.page), `${lang}: the story still plays`);
    check(failed.errors.length === 0, `${lang}: no page error (${failed.errors.join(' | ').slice(0, 200)})`);
    await failed.context.close();
  }

  // The import's chunk never arrives: the panel says so in its line, the lab goes on.
  for (const [lang, words] of [['en', /^The import's code could not be loaded/], ['zh', /^导入的代码未能下载/]]) {
    const failed = await open(`scenario=crash-vs-graceful-stop&lang=${lang}`, /\/split_import\.wasm$/);
    await failed.page.fill('#import-text', '{"kind": "List", "items": []}');
    await failed.page.click('#import-run');
    await failed.page.waitForSelector('#import-error', { timeout: 15000 }).catch(() => {});
    const line = (await failed.page.textContent('#import-error').catch(() => '')) ?? '';
    check(words.test(line) && failed.tries.length === 2, `${lang}: an import whose chunk does not arrive is told in one line, after two fetches (${line}; ${failed.tries.length})`);
    check(await plays(failed.page), `${lang}: the story still plays`);
    await failed.context.close();
  }
} finally {
  await browser.close();
  await server.close();
}
finish('chunks');
