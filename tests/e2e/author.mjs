// End-to-end, writing a tour in the page: in the sandbox, "Write a tour"; a first step with
// narration in English and Chinese and a highlight picked by clicking the stage; the clock moved
// and apiserver-a crashed, a second step there pointing at a part from the list; a third step
// that waits for a predicate from the menu; reordered and put back; the file downloaded and
// checked by the CLI (`tour check`, `tour run`); previewed from the start; back to writing; and
// its link opened in a fresh page plays the same steps at the same instants with the same
// Endpoints. Also at 750 and 390 px: the card fits the width and adds a step. Screenshots:
// test-artifacts/e2e/author-*.png.
// Usage: node tests/e2e/author.mjs   (after `trunk build --release`)
import { chromium } from 'playwright-core';
import { execFileSync } from 'node:child_process';
import { mkdir, readFile } from 'node:fs/promises';
import { serve } from './serve.mjs';
import { ARTIFACTS, CHROMIUM, DIST, PACED, ROOT, atStep, check, finish, settle } from './harness.mjs';

/** Moves the simulation to virtual time `ms` with the timeline scrubber. */
async function seek(page, ms) {
  await page.$eval('#scrubber', (el, v) => {
    el.value = String(v);
    el.dispatchEvent(new Event('input', { bubbles: true }));
  }, ms);
  await page.waitForFunction((v) => document.querySelector('#clock')?.textContent === `t = ${v}`, `${ms / 1000}s`);
}

/** What sticks out of the writer's card sideways (nothing, when it fits). */
const sticksOut = (page) => page.evaluate(() => {
  const card = document.querySelector('.writer');
  const c = card.getBoundingClientRect();
  const out = [...card.querySelectorAll('*')].filter((e) => {
    const r = e.getBoundingClientRect();
    return r.width > 0 && (r.right > c.right + 1 || r.left < c.left - 1);
  }).map((e) => `${e.tagName.toLowerCase()}.${e.className} ${Math.round(e.getBoundingClientRect().width)}px`);
  return card.scrollWidth > card.clientWidth + 1 ? [`scrollWidth ${card.scrollWidth} > ${card.clientWidth}`, ...out] : out;
});

const steps = (page) => page.$$eval('.writer-steps li', (els) => els.map((e) => e.textContent));
const endpoints = (page) => page.$$eval('#kubernetes-endpoints .address:not(.leaving)', (els) => els.map((e) => e.textContent).join(' '));

/** Adds a step at the moment shown and writes its narration. */
async function addStep(page, en, zh) {
  const before = (await steps(page)).length;
  await page.click('#writer-add');
  await page.waitForFunction((n) => document.querySelectorAll('.writer-steps li').length === n, before + 1);
  await page.fill('#writer-say-en', en);
  if (zh) await page.fill('#writer-say-zh', zh);
}

/** Writes the tour; returns the file downloaded. */
async function write(page, tag) {
  await page.click('#write-tour');
  await page.waitForSelector('.writer');
  check(await page.isVisible('#writer-add'), `${tag}: "Write a tour" opens the writer's card`);
  await addStep(page, 'Three apiservers, each with a lease.', '三个 apiserver，各有一个租约。');
  await page.click('#writer-pick');
  await page.locator('.stage [data-spot="apiserver:apiserver-a"]:visible').first().click();
  await page.waitForSelector('.writer-chips li');
  check((await page.textContent('.writer-chips')).includes('apiserver-a'), `${tag}: a click on the stage's apiserver-a picks it`);
  check(!(await page.isVisible('.inspector')), `${tag}: the pick did not open the inspector`);
  check(await page.locator('.stage [data-spot="apiserver:apiserver-a"].tour-spot:visible').count() === 1, `${tag}: the stage marks what the step points at`);
  await page.click('#writer-pick');
  await page.screenshot({ path: `${ARTIFACTS}/author-1280-step1.png` });

  await seek(page, 20000);
  await page.locator('#apiserver-apiserver-a button', { hasText: 'Crash' }).first().click();
  await page.waitForFunction(() => document.querySelector('#stage-apiserver-apiserver-a')?.classList.contains('crashed'));
  await addStep(page, 'apiserver-a crashes at 20s.', 'apiserver-a 在 20s 崩溃。');
  await page.selectOption('#writer-add-spot', 'endpoints');
  await page.waitForFunction(() => document.querySelector('.writer-chips')?.textContent.includes('Endpoints'));
  await page.check('#writer-ask');
  await page.fill('#writer-question-en', 'When does 192.168.10.11 leave the Endpoints?');
  await page.fill('#writer-answer-0-en', 'At once');
  await page.fill('#writer-answer-1-en', 'When its lease expires, at 25s');
  await page.click('#writer-add-answer');
  await page.fill('#writer-answer-2-en', 'Never');
  await page.check('.writer-answers li:nth-child(2) input[type=radio]');
  await page.fill('#writer-why-en', 'Its lease was last written at 10s, before the crash: it expires at 25s and the next rewrite drops the address.');

  await seek(page, 50000);
  await addStep(page, 'Its lease expired: the Endpoints lost its address.');
  const option = await page.$eval('#writer-wait', (s) => [...s.options].find((o) => o.textContent.includes('the kubernetes Endpoints list exactly'))?.value);
  check(option !== undefined, `${tag}: the wait menu offers the Endpoints as they are now`);
  await page.selectOption('#writer-wait', option);
  await page.waitForFunction(() => document.querySelector('.writer-steps li:nth-child(3) .writer-wait')?.textContent.startsWith('when'));
  const listed = await steps(page);
  const arrives = await page.$$eval('.writer-arrival', (els) => els.map((e) => e.textContent));
  check(listed.length === 3 && listed[2].includes('Endpoints list exactly 192.168.10.12, 192.168.10.13'), `${tag}: three steps, the last waiting for the Endpoints (${JSON.stringify(listed[2])})`);
  const early = arrives.map((a) => /plays at (\d+)s/.exec(a)?.[1]).filter(Boolean).map(Number);
  check(early.length === 1 && early[0] > 20 && early[0] < 50, `${tag}: the list says the predicate step plays before 50s, where it first holds (${arrives})`);
  await page.click('.writer-steps li:nth-child(3) button[aria-label="Move up"]');
  await page.waitForFunction(() => document.querySelector('.writer-steps li:nth-child(2)')?.textContent.includes('lease expired'));
  await page.click('.writer-steps li:nth-child(2) button[aria-label="Move down"]');
  await page.waitForFunction(() => document.querySelector('.writer-steps li:nth-child(3)')?.textContent.includes('lease expired'));
  check((await steps(page))[2].includes('lease expired'), `${tag}: a step moves up and back down`);
  await page.fill('#writer-title-en', 'When apiserver-a crashes');
  await page.fill('#writer-name', 'a-crashes');
  await page.waitForSelector('.writer-check.ok');
  const out = await sticksOut(page);
  check(out.length === 0, `${tag}: nothing sticks out of the card sideways ${out.filter((o) => !/ (3[0-5]\d|[12]?\d?\d)px$/.test(o)).slice(0, 8)}`);
  await page.$eval('.writer', (e) => { e.scrollLeft = 0; });
  await page.screenshot({ path: `${ARTIFACTS}/author-1280-written.png` });
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#writer-download')]);
  check(download.suggestedFilename() === 'a-crashes.json', `${tag}: the file downloads as a-crashes.json`);
  const path = `${ARTIFACTS}/author-a-crashes.json`;
  await download.saveAs(path);
  return path;
}

/** Each step of the tour shown, as Next reaches it: its narration, clock and Endpoints. */
async function walk(page, n, tag) {
  const seen = [];
  for (let i = 0; i < n; i++) {
    // A step that asks is answered (the second answer); the next one then says whether it was right.
    if (i > 0 && await page.$('.tour-ask')) await page.click('.tour-ask button.answer[data-answer="1"]');
    else if (i > 0) await page.click('#tour-next');
    await atStep(page, i, n, 'en');
    const verdict = (await page.$('.tour-verdict')) ? await page.textContent('.tour-verdict') : '';
    seen.push([await page.textContent('#tour-say'), await page.textContent('#clock'), await endpoints(page), verdict].join(' | '));
  }
  check(seen.length === n, `${tag}: every step reached`);
  return seen;
}

async function desktop(browser, server) {
  const tag = 'author 1280 px';
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, reducedMotion: 'reduce', acceptDownloads: true });
  await context.addInitScript(ROOT);
  await context.addInitScript(PACED);
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`${server.url}?scenario=crash-one-of-three`);
  await page.waitForSelector('#write-tour');
  const path = await write(page, tag);
  const file = await readFile(path, 'utf8');
  const cli = (cmd) => execFileSync('cargo', ['run', '--quiet', '--no-default-features', '--bin', 'bootstrap-sim', '--', 'tour', cmd, path], { encoding: 'utf8' });
  check(cli('check') === '', `${tag}: bootstrap-sim tour check accepts the file`);
  const run = JSON.parse(cli('run'));
  check(run.passed && run.steps.map((s) => s.at).join(' ').startsWith('0s 20s'), `${tag}: tour run plays it (${run.steps.map((s) => s.at)})`);

  const link = await page.getAttribute('#writer-link', 'href');
  check(decodeURIComponent(new URL(link).searchParams.get('tour-file') ?? '') === file || new URL(link).searchParams.get('tour-file') === file,
    `${tag}: the link carries the file downloaded`);
  await page.click('#writer-preview');
  const previewed = await walk(page, 3, `${tag} preview`);
  check(previewed[1].includes('t = 20s') && previewed[1].includes('192.168.10.11'), `${tag}: step 2 at 20s, the crashed address still listed while its lease lives (${previewed[1]})`);
  check(!previewed[2].split(' | ')[2].includes('192.168.10.11'), `${tag}: step 3 once it is gone (${previewed[2]})`);
  check(previewed[2].includes('Right') && previewed[2].includes('expires at 25s'), `${tag}: step 2 asked; step 3 says the answer was right, and why`);
  await page.screenshot({ path: `${ARTIFACTS}/author-1280-preview.png` });
  await page.click('#tour-write');
  await page.waitForSelector('.writer');
  check((await steps(page)).length === 3, `${tag}: back to writing, the three steps kept`);

  const fresh = await context.newPage();
  await fresh.goto(link);
  const reloaded = await walk(fresh, 3, `${tag} reloaded`);
  check(JSON.stringify(reloaded) === JSON.stringify(previewed), `${tag}: opened from its link, the tour plays the same as the preview`);
  check(run.steps.every((s, i) => reloaded[i].includes(`t = ${s.at}`)), `${tag}: ... at the instants tour run prints`);
  // Opened from its link, the tour goes back into the writer: the same file as downloaded.
  check((await fresh.textContent('#write-tour')).includes('Edit this tour'), `${tag}: a tour offers "Edit this tour"`);
  await fresh.click('#write-tour');
  await fresh.waitForSelector('.writer-check.ok');
  const [again] = await Promise.all([fresh.waitForEvent('download'), fresh.click('#writer-download')]);
  await again.saveAs(`${path}.again`);
  check(await readFile(`${path}.again`, 'utf8') === file, `${tag}: edited again and downloaded, the file is the same`);
  check(errors.length === 0, `${tag}: no page errors ${errors.join('; ')}`);
  await context.close();
}

/** In a docs column and on a phone: the card fits and writes a step with a picked part. */
async function narrow(browser, server, width, lang) {
  const tag = `author ${width} px (${lang})`;
  const context = await browser.newContext({ viewport: { width, height: 860 }, reducedMotion: 'reduce', isMobile: width < 500, hasTouch: width < 500 });
  await context.addInitScript(ROOT);
  await context.addInitScript(PACED);
  const page = await context.newPage();
  await page.goto(`${server.url}?scenario=crash-one-of-three&lang=${lang}`);
  await page.click('#write-tour');
  await page.click('#writer-add');
  await page.fill('#writer-say-en', 'Leases in etcd.');
  await page.click('#writer-pick');
  await page.locator('.stage [data-spot="leases"]:visible').first().click();
  await page.waitForSelector('.writer-chips li');
  await page.click('#writer-pick');
  await page.waitForSelector('.writer-check.ok');
  await settle(page);
  const wide = await page.evaluate(() => document.documentElement.scrollWidth);
  check(wide <= width, `${tag}: the page is no wider than the viewport (${wide})`);
  const out = await sticksOut(page);
  check(out.length === 0, `${tag}: nothing sticks out of the card sideways ${out.filter((o) => !/ (3[0-5]\d|[12]?\d?\d)px$/.test(o)).slice(0, 8)}`);
  const card = await page.$eval('.writer', (e) => { const r = e.getBoundingClientRect(); return [r.left, r.right]; });
  check(card[0] >= 0 && card[1] <= width, `${tag}: the card fits the width (${card})`);
  await page.$eval('.writer', (e) => e.scrollIntoView());
  await page.screenshot({ path: `${ARTIFACTS}/author-${width}-${lang}.png` });
  await context.close();
}

await mkdir(ARTIFACTS, { recursive: true });
const server = await serve(DIST);
const browser = await chromium.launch(CHROMIUM);
try {
  await desktop(browser, server);
  await narrow(browser, server, 750, 'en');
  await narrow(browser, server, 390, 'zh');
} finally {
  await browser.close();
  server.close();
}
finish('author');
