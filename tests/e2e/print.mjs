// A tour as a handout (src/ui/handout.rs): `?tour=NAME&print` at A4 width (794 px) shows one block
// per step, each with its narration in the reader's language and a still stage at the step's
// instant; printed to PDF (A4, Letter) it fills more than one page with no block split; the lab's
// "Print this tour" link opens it; the element's `print` attribute shows it in an embed.
// Screenshots and PDFs land in test-artifacts/e2e/ (print-*.png, print-*.pdf): look at them.
// Usage: node tests/e2e/print.mjs   (after `trunk build --release`; `make test-e2e` does both)
import { chromium } from 'playwright-core';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { serve } from './serve.mjs';
import { ARTIFACTS, CHROMIUM, DIST, check, finish } from './harness.mjs';

const NAME = 'lease-crash-vs-stop';
const tour = JSON.parse(await readFile(`tours/${NAME}.json`, 'utf8'));
const A4 = { width: 794, height: 1123 };

/** The pages of a PDF Chromium printed: its page objects (`/Type /Page`, not `/Pages`). */
function pdfPages(bytes) {
  const text = bytes.toString('latin1');
  return (text.match(/\/Type\s*\/Page(?![a-zA-Z])/g) ?? []).length;
}

/** What each block of the handout under `root` shows. */
function blocks(page, root = 'document') {
  return page.evaluate((root) => {
    const doc = root === 'document' ? document : document.querySelector(root).shadowRoot;
    return [...doc.querySelectorAll('.handout-step')].map((b) => ({
      step: b.dataset.step,
      say: b.querySelector('.handout-say')?.textContent,
      head: b.querySelector('.handout-num')?.textContent,
      stage: !!b.querySelector('.stage svg'),
      ip: b.querySelector('.stage .service .cluster-ip')?.textContent ?? '',
      box: (({ width, height }) => ({ width, height }))(b.querySelector('.stage').getBoundingClientRect()),
    }));
  }, root);
}

async function handout(browser, base, lang) {
  const page = await browser.newPage({ viewport: A4 });
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  const query = `?tour=${NAME}&print${lang === 'zh' ? '&lang=zh' : ''}`;
  await page.goto(`${base}${query}`);
  await page.waitForFunction((n) => document.querySelectorAll('.handout-step .stage svg').length === n, tour.steps.length, { timeout: 60000 });
  await page.evaluate(() => document.fonts.ready);
  const got = await blocks(page);
  check(got.length === tour.steps.length, `${query}: one block per step (${got.length} of ${tour.steps.length})`);
  got.forEach((b, i) => {
    const want = tour.steps[i].say[lang];
    check(b.say === want, `${query} step ${i + 1}: its narration in ${lang}`);
    check(b.head === (lang === 'zh' ? `第 ${i + 1} 步，共 ${got.length} 步` : `Step ${i + 1} of ${got.length}`), `${query} step ${i + 1}: numbered (${b.head})`);
    // Every step of this tour has the kubernetes Service, whose ClusterIP the stage shows.
    check(b.stage && b.ip.includes('10.96.0.1'), `${query} step ${i + 1}: a stage showing 10.96.0.1 (${b.ip})`);
    check(b.box.width > 600 && b.box.width <= A4.width, `${query} step ${i + 1}: the stage spans the sheet (${Math.round(b.box.width)} px)`);
  });
  const title = await page.locator('.handout-head h1').textContent();
  check(title === tour.title[lang], `${query}: titled ${title}`);
  const back = await page.locator('.handout-back').getAttribute('href');
  check(back.endsWith(`?tour=${NAME}${lang === 'zh' ? '&lang=zh' : ''}`), `${query}: "Back to the lab" opens the tour (${back})`);
  check(await page.locator('.handout-bar button').isVisible(), `${query}: a Print button on screen`);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - innerWidth);
  check(overflow <= 0, `${query}: nothing overflows sideways at 794 px (${overflow} px)`);
  check(await page.locator('.handout-step [tabindex="0"]:not([inert] *)').count() === 0, `${query}: the pictures take no focus`);
  await page.screenshot({ path: `${ARTIFACTS}/print-${lang}.png`, fullPage: true });
  // Print: the bar goes, each block stays whole on its page.
  await page.emulateMedia({ media: 'print' });
  check(!(await page.locator('.handout-bar').isVisible()), `${query}: printed, the Print button and the link back are not`);
  const avoid = await page.evaluate(() => [...document.querySelectorAll('.handout-step')].every((b) => getComputedStyle(b).breakInside === 'avoid'));
  check(avoid, `${query}: no step is split between two pages (break-inside: avoid)`);
  for (const format of ['A4', 'Letter']) {
    const pdf = await page.pdf({ format, printBackground: true });
    const path = `${ARTIFACTS}/print-${lang}-${format}.pdf`;
    await writeFile(path, pdf);
    const pages = pdfPages(pdf);
    check(pdf.length > 20000 && pages > 1, `${query}: printed on ${format}, ${pages} pages, ${pdf.length} bytes (${path})`);
    check(pages <= Math.ceil(tour.steps.length / 2) + 1, `${query}: on ${format}, two steps to a sheet, one more for the title at most (${pages})`);
  }
  await page.emulateMedia({ media: 'screen' });
  check(errors.length === 0, `${query}: no page or console error${errors.length ? `: ${errors.join(' | ')}` : ''}`);
  await page.close();
}

/** The lab's tour offers its handout; an unknown tour with print opens the lab and says so. */
async function link(browser, base) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(`${base}?tour=${NAME}&lang=zh`);
  const a = page.locator('a.print-tour');
  await a.waitFor({ timeout: 60000 });
  const href = await a.getAttribute('href');
  check(href.endsWith(`?tour=${NAME}&print&lang=zh`) && (await a.textContent()) === '打印此导览', `the tour's "Print this tour" link: ${href}`);
  await a.click();
  await page.waitForSelector('.handout-step .stage svg', { timeout: 60000 });
  check((await page.locator('.handout-step').count()) === tour.steps.length, 'the link opens the handout');
  await page.goto(`${base}?tour=no-such-tour&print`);
  await page.waitForSelector('.stage svg', { timeout: 60000 });
  const notice = await page.locator('.notice').allTextContents();
  check((await page.locator('.handout').count()) === 0 && notice.join(' ').includes('There is no tour'), `an unknown tour: the lab, and the notice: ${notice.join(' ')}`);
  // Without a tour, as a step without one: the lab opens as it would without print.
  await page.goto(`${base}?scenario=crash-one-of-three&print`);
  await page.waitForSelector('.stage svg', { timeout: 60000 });
  check((await page.locator('.handout').count()) === 0, 'print without a tour: the lab');
  await page.goto(`${base}?print`);
  await page.waitForSelector('.stage svg', { timeout: 60000 });
  check((await page.locator('.handout').count()) === 0, 'print alone: the untouched page (the story), not its handout');
  await page.close();
}

/** A trainer's tour at an address (`tour-src`) prints as a shipped one does, and links back by it. */
async function tourSrc(browser, base) {
  const page = await browser.newPage({ viewport: A4 });
  const text = await readFile(`tours/${NAME}.json`, 'utf8');
  const own = JSON.stringify({ ...JSON.parse(text), name: 'my-lesson' });
  await page.route(`${base}__e2e/my-lesson.json`, (route) => route.fulfill({ contentType: 'application/json', body: own }));
  await page.goto(`${base}?tour-src=__e2e/my-lesson.json&print`);
  await page.waitForFunction((n) => document.querySelectorAll('.handout-step .stage svg').length === n, tour.steps.length, { timeout: 60000 });
  const got = await blocks(page);
  check(got.every((b, i) => b.say === tour.steps[i].say.en), 'tour-src with print: the trainer\'s tour as a handout');
  const back = await page.locator('.handout-back').getAttribute('href');
  check(back.endsWith('?tour-src=__e2e%2Fmy-lesson.json'), `tour-src with print: "Back to the lab" reopens it by its address (${back})`);
  await page.close();
}

/** `<kube-bootstrap-lab tour=… print lang=zh>` in a host page. */
async function embed(browser, base) {
  const page = await browser.newPage({ viewport: A4 });
  const url = `${base}__e2e/print-embed.html`;
  await page.route(url, (route) => route.fulfill({
    contentType: 'text/html; charset=utf-8',
    body: `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>handout</title>
<script type="module" src="${base}embed.js"></script></head>
<body><kube-bootstrap-lab tour="${NAME}" lang="zh" print></kube-bootstrap-lab></body></html>`,
  }));
  await page.goto(url);
  await page.waitForFunction((n) => document.querySelector('kube-bootstrap-lab')?.shadowRoot?.querySelectorAll('.handout-step .stage svg').length === n,
    tour.steps.length, { timeout: 60000 });
  const got = await blocks(page, 'kube-bootstrap-lab');
  check(got.length === tour.steps.length && got.every((b, i) => b.say === tour.steps[i].say.zh && b.ip.includes('10.96.0.1')),
    'the element with print: the handout, in Chinese, every step with its stage');
  await page.close();
}

await mkdir(ARTIFACTS, { recursive: true });
const server = await serve(DIST);
const browser = await chromium.launch(CHROMIUM);
try {
  for (const lang of ['en', 'zh']) await handout(browser, server.url, lang);
  await link(browser, server.url);
  await tourSrc(browser, server.url);
  await embed(browser, server.url);
} finally {
  await browser.close();
  server.close();
}
finish('print');
