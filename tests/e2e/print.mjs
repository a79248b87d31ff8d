// A tour as a handout (src/ui/handout.rs): `?tour=NAME&print` at A4 width (794 px) shows one block
// per step, each with its narration in the reader's language and a still stage at the step's
// instant; printed to PDF (A4, Letter) it fills more than one page with no block split; the lab's
// "Print this tour" link opens it; the element's `print` attribute shows it in an embed. Printed
// on A4 the stage's smallest text is ≥ 8 pt; each question prints with its answers, the right one
// and why on a last page (or upside down: answers=upside-down); each step's instant is the lab's
// clock there; theme=dark prints on light paper with light margins.
// Screenshots and PDFs land in test-artifacts/e2e/ (print-*.png, print-*.pdf): look at them.
// Usage: node tests/e2e/print.mjs   (after `trunk build --release`; `make test-e2e` does both)
import { chromium } from 'playwright-core';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { serve } from './serve.mjs';
import { ARTIFACTS, CHROMIUM, DIST, PACED, ROOT, atStep, check, finish, steady } from './harness.mjs';

const NAME = 'lease-crash-vs-stop';
const tour = JSON.parse(await readFile(`tours/${NAME}.json`, 'utf8'));
const A4 = { width: 794, height: 1123 };
/** What a printed A4 sheet lays out: its width less the handout's 12 mm margins (stage.css @page). */
const A4_PRINTED = { width: Math.round(((210 - 2 * 12) / 25.4) * 96), height: 1024 };
/** The smallest stage text a printed handout may have, in pt (1 pt = 4/3 CSS px). */
const MIN_STAGE_PT = 8;

/** The smallest text of the stage pictures under `root`, as rendered now: an SVG text's font size
 *  times its scale on the page, an HTML text's own; in pt, with what it says. */
function smallestStageText(page, root = 'document') {
  return page.evaluate((root) => {
    const doc = root === 'document' ? document : document.querySelector(root).shadowRoot;
    let least = { pt: Infinity, text: '' };
    for (const fig of doc.querySelectorAll('.handout-figure')) {
      const walk = document.createTreeWalker(fig, NodeFilter.SHOW_TEXT);
      for (let n = walk.nextNode(); n; n = walk.nextNode()) {
        const el = n.parentElement;
        const box = el.getBoundingClientRect();
        const style = getComputedStyle(el);
        if (!n.textContent.trim() || !box.width || !box.height || style.visibility === 'hidden') continue;
        let px = parseFloat(style.fontSize);
        if (el instanceof SVGElement) {
          const m = el.getScreenCTM();
          px *= Math.hypot(m.c, m.d);
        }
        if (px * 0.75 < least.pt) least = { pt: px * 0.75, text: `${el.getAttribute('class') ?? el.tagName}: ${n.textContent.trim().slice(0, 40)}` };
      }
    }
    return least;
  }, root);
}

/** The smallest stage text under `root` once the handout is laid out anew for the viewport just
 *  set: every figure within the sheet's width, and the same smallest text and figure boxes 10
 *  frames apart (the stage fits its rows after a resize), at most 20 s; logs it if never. */
async function settledStageText(page, root = 'document') {
  const read = () => page.evaluate((root) => {
    const doc = root === 'document' ? document : document.querySelector(root).shadowRoot;
    const figs = [...doc.querySelectorAll('.handout-figure')].map((f) => f.getBoundingClientRect()).map((r) => [r.left, r.top, r.width, r.height].map(Math.round));
    return { fits: figs.length > 0 && figs.every(([x, , w]) => x + w <= innerWidth + 1), figs };
  }, root).then(async (l) => ({ ...l, least: await smallestStageText(page, root) }));
  const { value: now, steady: held } = await steady(page, read, { ok: (r) => r.fits });
  if (!held) console.log(`     the handout${root === 'document' ? '' : ` in ${root}`} still changed after 20 s at ${await page.evaluate(() => innerWidth)} px (its figures ${now.fits ? 'within' : 'wider than'} the sheet): measured as it was then`);
  return now.least;
}

/** Whether the colour `css` (rgb/rgba) is light paper, or transparent (the page's own shows). */
function light(css) {
  const [r, g, b, a = 1] = (css.match(/[\d.]+/g) ?? []).map(Number);
  return a === 0 || (r + g + b) / 3 >= 230;
}

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
  await questions(page, query, lang, 'end');
  // Print: the bar goes, each block stays whole on its page.
  await page.emulateMedia({ media: 'print' });
  check(!(await page.locator('.handout-bar').isVisible()), `${query}: printed, the Print button and the link back are not`);
  const avoid = await page.evaluate(() => [...document.querySelectorAll('.handout-step')].every((b) => getComputedStyle(b).breakInside === 'avoid'));
  check(avoid, `${query}: no step is split between two pages (break-inside: avoid)`);
  const key = await page.evaluate(() => {
    const el = document.querySelector('.handout-key');
    return el ? getComputedStyle(el).breakBefore : 'no answers page';
  });
  check(key === 'page', `${query}: printed, the answers start a page of their own after the last step (break-before: ${key})`);
  // The stage text as the sheet prints it: laid out at an A4 sheet's printed width.
  await page.setViewportSize(A4_PRINTED);
  const least = await settledStageText(page);
  check(least.pt >= MIN_STAGE_PT, `${query}: printed on A4, the smallest stage text is ${least.pt.toFixed(2)} pt (≥ ${MIN_STAGE_PT}; ${least.text})`);
  await page.screenshot({ path: `${ARTIFACTS}/print-${lang}-A4-media.png`, fullPage: true });
  await page.setViewportSize(A4);
  for (const format of ['A4', 'Letter']) {
    const pdf = await page.pdf({ format, printBackground: true });
    const path = `${ARTIFACTS}/print-${lang}-${format}.pdf`;
    await writeFile(path, pdf);
    const pages = pdfPages(pdf);
    check(pdf.length > 20000 && pages > 1, `${query}: printed on ${format}, ${pages} pages, ${pdf.length} bytes (${path})`);
    check(pages <= tour.steps.length + 2, `${query}: on ${format}, a step to a sheet, the answers on one more at most (${pages})`);
  }
  await page.emulateMedia({ media: 'screen' });
  check(errors.length === 0, `${query}: no page or console error${errors.length ? `: ${errors.join(' | ')}` : ''}`);
  await page.close();
}

/** Each asking step prints its question and every answer; the right answer and its why are on
 *  the answers page (`end`) or upside down under the question (`upside-down`), never both. */
async function questions(page, query, lang, at, root = 'document') {
  const got = await page.evaluate((root) => {
    const doc = root === 'document' ? document : document.querySelector(root).shadowRoot;
    const text = (e) => e?.textContent ?? '';
    return {
      steps: [...doc.querySelectorAll('.handout-step')].map((b) => ({
        question: text(b.querySelector('.handout-question')),
        choices: [...b.querySelectorAll('.handout-choices li')].map(text),
        solution: text(b.querySelector('.handout-solution')),
        turned: b.querySelector('.handout-solution') ? getComputedStyle(b.querySelector('.handout-solution')).transform : '',
      })),
      key: [...doc.querySelectorAll('.handout-key-item')].map((k) => ({ step: k.dataset.step, text: text(k) })),
    };
  }, root);
  const asking = tour.steps.map((s, i) => [s, i]).filter(([s]) => s.ask);
  check(asking.length > 0, `${query}: the tour asks (${asking.length} questions)`);
  for (const [s, i] of asking) {
    const b = got.steps[i];
    const what = `${query} step ${i + 1}`;
    check(b.question.includes(s.ask.question[lang]), `${what}: its question printed (${b.question.slice(0, 60)}…)`);
    check(b.choices.length === s.ask.answers.length && s.ask.answers.every((a, j) => b.choices[j].includes(a[lang])),
      `${what}: each of its ${s.ask.answers.length} answers printed, with a box to tick`);
    const right = s.ask.answers[s.ask.right][lang];
    const key = got.key.find((k) => k.step === String(i + 1));
    if (at === 'end') {
      check(!b.solution && key?.text.includes(right) && key.text.includes(s.ask.why[lang]),
        `${what}: its answer and why on the answers page, not beside the question`);
    } else {
      // rotate(180deg) computes to matrix(-1, 0, 0, -1, 0, 0).
      check(b.solution.includes(right) && b.solution.includes(s.ask.why[lang]) && b.turned.startsWith('matrix(-1, 0, 0, -1') && !key,
        `${what}: its answer and why upside down under the question (${b.turned}), no answers page`);
    }
  }
  const asked = new Set(asking.map(([, i]) => i));
  check(got.steps.every((b, i) => asked.has(i) || !b.question), `${query}: only the asking steps print a question`);
}

/** `answers=upside-down`: the answers under each question, upside down, and printed so. */
async function upsideDown(browser, base) {
  for (const lang of ['en', 'zh']) {
    const page = await browser.newPage({ viewport: A4 });
    const query = `?tour=${NAME}&print&answers=upside-down${lang === 'zh' ? '&lang=zh' : ''}`;
    await page.goto(`${base}${query}`);
    await page.waitForFunction((n) => document.querySelectorAll('.handout-step .stage svg').length === n, tour.steps.length, { timeout: 60000 });
    await questions(page, query, lang, 'upside-down');
    await page.emulateMedia({ media: 'print' });
    await page.setViewportSize(A4_PRINTED);
    const block = page.locator('.handout-step').nth(tour.steps.findIndex((s) => s.ask));
    await block.screenshot({ path: `${ARTIFACTS}/print-upside-down-${lang}.png` });
    await writeFile(`${ARTIFACTS}/print-upside-down-${lang}.pdf`, await page.pdf({ format: 'A4', printBackground: true }));
    await page.close();
  }
}

/** Each step says the instant the lab's clock shows there (step 1 plays on to 25s). */
async function instants(browser, base) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.addInitScript(ROOT);
  await page.addInitScript(PACED);
  const n = tour.steps.length;
  await page.goto(`${base}?tour=${NAME}&print`);
  await page.waitForFunction((n) => document.querySelectorAll('.handout-step .stage svg').length === n, n, { timeout: 60000 });
  const printed = await page.locator('.handout-time').allTextContents();
  await page.goto(`${base}?tour=${NAME}`);
  for (const i of [0, 1]) {
    if (i > 0) await page.evaluate(() => window.__labRoot().querySelector('#tour-next').click());
    await atStep(page, i, n, 'en');
    const clock = (await page.locator('.controls .clock').textContent()).replace('t = ', '');
    check(printed[i].startsWith(`at ${clock} ·`), `step ${i + 1}: the handout says "${printed[i]}", the lab's clock "${clock}"`);
  }
  await page.close();
}

/** `theme=dark`, printed: paper and margins light, on the page and in an element's shadow root. */
async function darkTheme(browser, base) {
  const page = await browser.newPage({ viewport: A4 });
  await page.goto(`${base}?tour=${NAME}&print&theme=dark`);
  await page.waitForSelector('.handout-step .stage svg', { timeout: 60000 });
  const colours = () => page.evaluate(() => ['html', 'body', '.lab.handout'].map((s) => getComputedStyle(document.querySelector(s)).backgroundColor));
  const screen = await colours();
  check(!light(screen[1]), `theme=dark on screen: a dark page (${screen.join(', ')})`);
  await page.emulateMedia({ media: 'print' });
  const printed = await colours();
  check(printed.every(light), `theme=dark printed: html, body and the handout light, so are the sheet's margins (${printed.join(', ')})`);
  await writeFile(`${ARTIFACTS}/print-dark-A4.pdf`, await page.pdf({ format: 'A4', printBackground: true }));
  await page.setViewportSize(A4_PRINTED);
  await page.screenshot({ path: `${ARTIFACTS}/print-dark-media.png` });
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
<body><kube-bootstrap-lab tour="${NAME}" lang="zh" theme="dark" print></kube-bootstrap-lab>
<kube-bootstrap-lab tour="${NAME}" lang="zh" print answers="upside-down" id="turned"></kube-bootstrap-lab></body></html>`,
  }));
  await page.goto(url);
  await page.waitForFunction((n) => document.querySelector('kube-bootstrap-lab')?.shadowRoot?.querySelectorAll('.handout-step .stage svg').length === n,
    tour.steps.length, { timeout: 60000 });
  const got = await blocks(page, 'kube-bootstrap-lab');
  check(got.length === tour.steps.length && got.every((b, i) => b.say === tour.steps[i].say.zh && b.ip.includes('10.96.0.1')),
    'the element with print: the handout, in Chinese, every step with its stage');
  await questions(page, 'the element', 'zh', 'end', 'kube-bootstrap-lab');
  await page.waitForFunction(() => document.querySelector('#turned')?.shadowRoot?.querySelector('.handout-question'), null, { timeout: 60000 });
  await questions(page, 'the element with answers="upside-down"', 'zh', 'upside-down', '#turned');
  await page.emulateMedia({ media: 'print' });
  await page.setViewportSize(A4_PRINTED);
  const least = await settledStageText(page, 'kube-bootstrap-lab');
  check(least.pt >= MIN_STAGE_PT, `the element printed on A4: the smallest stage text is ${least.pt.toFixed(2)} pt (${least.text})`);
  const paper = await page.evaluate(() => {
    const el = document.querySelector('kube-bootstrap-lab');
    return [getComputedStyle(el).backgroundColor, getComputedStyle(el.shadowRoot.querySelector('.lab.handout')).backgroundColor];
  });
  check(paper.every(light), `the element with theme=dark printed: its host and handout light (${paper.join(', ')})`);
  await page.close();
}

await mkdir(ARTIFACTS, { recursive: true });
const server = await serve(DIST);
const browser = await chromium.launch(CHROMIUM);
try {
  for (const lang of ['en', 'zh']) await handout(browser, server.url, lang);
  await upsideDown(browser, server.url);
  await instants(browser, server.url);
  await darkTheme(browser, server.url);
  await link(browser, server.url);
  await tourSrc(browser, server.url);
  await embed(browser, server.url);
} finally {
  await browser.close();
  server.close();
}
finish('print');
