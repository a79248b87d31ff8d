// End-to-end, predict then watch, by keyboard only: on a 1280 px desktop, in a 750 px column and
// on a 390 px phone, in English and Chinese, a tour step that asks is reached, its answers are
// reached with Tab and moved among with the arrows, one is picked with Enter (the right one):
// the tour moves on and the next step opens with the verdict; back (←) shows the pick; another
// (a wrong one) is picked with Space: the verdict names the right answer. The question and the
// verdict must be in view and the page no wider than the viewport. Screenshots:
// test-artifacts/e2e/predict-*.png.
// Usage: node tests/e2e/predict.mjs   (after `trunk build --release`)
import { chromium } from 'playwright-core';
import { mkdir, readFile } from 'node:fs/promises';
import { serve } from './serve.mjs';
import { ARTIFACTS, CHROMIUM, DIST, PACED, ROOT, atStep, check, finish } from './harness.mjs';

const TOUR = 'lease-crash-vs-stop';
const tour = JSON.parse(await readFile(`tours/${TOUR}.json`, 'utf8'));
const asking = tour.steps.findIndex((s) => s.ask);
const ask = tour.steps[asking].ask;
const n = tour.steps.length;
const wrong = ask.right === 0 ? 1 : 0;
const VIEWS = [
  { name: '1280', context: { viewport: { width: 1280, height: 800 } } },
  { name: '750', context: { viewport: { width: 750, height: 900 } } },
  { name: '390', context: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 } },
];

/** The focused element's data-answer, if it is an answer. */
const focusedAnswer = (page) => page.evaluate(() => document.activeElement?.dataset?.answer ?? null);

/** Presses Tab (or Shift+Tab) until an answer has the focus; false after 30 presses. */
async function tabToAnswer(page, key) {
  for (let i = 0; i < 30; i++) {
    if ((await focusedAnswer(page)) !== null) return true;
    await page.keyboard.press(key);
  }
  return false;
}

/** Whether the element is wholly within the viewport and not scrolled out of the card's narration. */
const inView = (page, sel) => page.evaluate((s) => {
  const el = document.querySelector(s);
  const r = el?.getBoundingClientRect();
  const body = el?.closest('.tour-body')?.getBoundingClientRect() ?? { top: 0, bottom: innerHeight };
  return !!r && r.height > 0 && r.top >= Math.max(0, body.top) - 1 && r.bottom <= Math.min(innerHeight, body.bottom) + 1
    && r.left >= 0 && r.right <= innerWidth + 1;
}, sel);

async function run(browser, server, view, lang) {
  const tag = `predict ${view.name} px (${lang})`;
  const context = await browser.newContext({ ...view.context, reducedMotion: 'no-preference' });
  await context.addInitScript(ROOT);
  await context.addInitScript(PACED);
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  await page.goto(`${server.url}?tour=${TOUR}&step=${asking + 1}&lang=${lang}`);
  await atStep(page, asking, n, lang);
  const question = (await page.textContent('.tour-question')) ?? '';
  check(question.includes(ask.question[lang]), `${tag}: the step asks ${JSON.stringify(ask.question[lang].slice(0, 40))}…`);
  const group = await page.evaluate(() => {
    const g = document.querySelector('.tour-ask');
    const label = document.getElementById(g?.getAttribute('aria-labelledby') ?? '');
    return { role: g?.getAttribute('role'), labelled: label?.classList.contains('tour-question'), answers: g?.querySelectorAll('button.answer').length };
  });
  check(group.role === 'group' && group.labelled && group.answers === ask.answers.length, `${tag}: a group of ${ask.answers.length} answers labelled by the question`);
  const skip = (await page.textContent('#tour-next')) ?? '';
  check(lang === 'en' ? skip.includes('Skip') : skip.includes('跳过'), `${tag}: Next reads "${skip.trim()}"`);
  // Docked under a narrow stage, the strip keeps its height and shows the question; "Answer"
  // opens it to the answers and takes the focus there.
  const docked = await page.evaluate(() => getComputedStyle(document.querySelector('.tour-more')).display !== 'none');
  await page.focus('#tour-title');
  if (docked) {
    check(await inView(page, '.tour-question'), `${tag}: docked, the question is in view`);
    await page.screenshot({ path: `${ARTIFACTS}/predict-${view.name}-${lang}-closed.png` });
    let tabs = 0;
    while (tabs++ < 30 && !(await page.evaluate(() => document.activeElement?.classList.contains('tour-more')))) await page.keyboard.press('Tab');
    const label = (await page.textContent('.tour-more')) ?? '';
    check(label.includes(lang === 'en' ? 'Answer' : '作答'), `${tag}: docked, the strip's toggle reads "${label.trim()}"`);
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.activeElement?.dataset?.answer === '0', null, { timeout: 3000 }).catch(() => {});
    check((await focusedAnswer(page)) === '0', `${tag}: opening the strip puts the focus on the first answer`);
  }
  check(await inView(page, '.tour-ask'), `${tag}: the question and its answers are in view`);
  await page.screenshot({ path: `${ARTIFACTS}/predict-${view.name}-${lang}-ask.png` });

  // Right, by keyboard: Tab to the first answer, the arrows to the right one, Enter.
  check(await tabToAnswer(page, 'Tab'), `${tag}: Tab reaches the answers`);
  await page.keyboard.press('Home');
  for (let k = 0; k < ask.right; k++) await page.keyboard.press('ArrowDown');
  check((await focusedAnswer(page)) === String(ask.right), `${tag}: the arrows move among the answers (and do not skip)`);
  await page.keyboard.press('Enter');
  await atStep(page, asking + 1, n, lang);
  const right = (await page.textContent('.tour-verdict')) ?? '';
  check(right.includes(lang === 'en' ? 'Right.' : '答对了') && right.includes(ask.answers[ask.right][lang]) && right.includes(ask.why[lang]),
    `${tag}: the next step opens with the verdict: right, the answer, why`);
  check(await page.evaluate(() => document.querySelector('.tour-verdict-live')?.getAttribute('aria-live') === 'polite'), `${tag}: the verdict is in a polite live region`);
  check((await page.textContent('#tour-say'))?.trim() === tour.steps[asking + 1].say[lang], `${tag}: then the step's own narration`);
  check(await inView(page, '.verdict-head'), `${tag}: the verdict is in view`);
  await page.screenshot({ path: `${ARTIFACTS}/predict-${view.name}-${lang}-right.png` });

  // Back (←) shows the question with the pick; Shift+Tab to the answers, Home, Space: wrong.
  await page.keyboard.press('ArrowLeft');
  await atStep(page, asking, n, lang);
  check(await page.evaluate((k) => document.querySelector(`.tour-ask [data-answer="${k}"]`)?.getAttribute('aria-pressed') === 'true', ask.right),
    `${tag}: back at the question, the pick shows`);
  check(await tabToAnswer(page, 'Shift+Tab'), `${tag}: Shift+Tab reaches the answers`);
  await page.keyboard.press('Home');
  for (let k = 0; k < wrong; k++) await page.keyboard.press('ArrowDown');
  await page.keyboard.press(' ');
  await atStep(page, asking + 1, n, lang);
  const no = (await page.textContent('.tour-verdict')) ?? '';
  check(await inView(page, '.verdict-head'), `${tag}: the verdict is in view again`);
  check(no.includes(lang === 'en' ? 'Not quite.' : '不对') && no.includes(ask.answers[wrong][lang]) && no.includes(ask.answers[ask.right][lang]),
    `${tag}: a wrong pick: the verdict names it and the right answer`);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth > innerWidth + 1);
  check(!overflow, `${tag}: no horizontal overflow`);
  await page.screenshot({ path: `${ARTIFACTS}/predict-${view.name}-${lang}-wrong.png` });
  check(errors.length === 0, `${tag}: no page errors ${errors.join('; ')}`);
  await context.close();
}

await mkdir(ARTIFACTS, { recursive: true });
const server = await serve(DIST);
const browser = await chromium.launch(CHROMIUM);
try {
  for (const view of VIEWS) for (const lang of ['en', 'zh']) await run(browser, server, view, lang);
} finally {
  await browser.close();
  server.close();
}
finish('predict');
