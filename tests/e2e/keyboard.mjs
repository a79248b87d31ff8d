// End-to-end, a keyboard reader's way through every tour (issue 35): at 1280×720, each tour is
// opened by its link and walked step by step with Tab and Enter only, as a reader who presses
// Tab until the focus is on what moves the tour on (Next, or an answer when the step asks) and
// Enter on a skip link when Tab lands there. It counts the keys from the tour's start, and from
// each press that moved the tour on, to that control (at most 3), and measures the clear share
// of each highlighted part at every step, with the inspector in whatever state the keyboard
// left it (the same 8×8 grid as tests/e2e/visibility.mjs, harness.mjs SHARES; at least 0.9).
// At a question the focus must be on it (not on Skip), Enter there must not skip it, and the
// step after an answer opens with the verdict. Then, on one page: the focus never falls to the
// page's body (after "Start the guided tour", after Escape in the inspector), a stage object
// opens the inspector on Enter (not on focus), Escape closes it from anywhere in the lab and
// focus leaving the stage does too, and → moves the tour on from any focus inside the lab.
// Usage: node tests/e2e/keyboard.mjs   (after `make package`)
import { chromium } from 'playwright-core';
import { mkdir } from 'node:fs/promises';
import { serve } from './serve.mjs';
import { ARTIFACTS, CHROMIUM, DIST, PACED, ROOT, SHARES, atStep, check, finish, loadTours, settle } from './harness.mjs';

const MIN_CLEAR = 0.9;
const MAX_KEYS = 3;
/** Tabs a reader would give up after (the old lab needed 35–40 to reach Next). */
const GIVE_UP = 90;

/** In the page: where the focus is, through the shadow roots, and what the lab shows. */
function where() {
  const root = window.__labRoot();
  let a = document.activeElement;
  while (a?.shadowRoot?.activeElement) a = a.shadowRoot.activeElement;
  const lab = root.querySelector('.lab');
  const inLab = !!a && !!lab?.contains(a);
  const waits = !!root.querySelector('.tour-ask[data-waits]');
  return {
    what: a ? `${a.tagName.toLowerCase()}${a.id ? `#${a.id}` : ''}.${String(a.className?.baseVal ?? a.className).split(' ').join('.')}` : 'none',
    body: !a || a === document.body || a === document.documentElement,
    inLab,
    skipLink: !!a?.classList?.contains('skip-link'),
    question: !!a?.matches?.('.tour-ask'),
    answer: !!a?.classList?.contains('answer'),
    next: inLab && a.id === 'tour-next' && !waits,
    primary: inLab && !!a.matches('.tour-buttons .primary'),
    waits,
    inspector: !!root.querySelector('.inspector'),
    progress: root.querySelector('#tour-progress')?.textContent ?? '',
    verdict: root.querySelector('.tour-verdict-live')?.textContent ?? '',
    clock: root.querySelector('.controls .clock')?.textContent ?? '',
  };
}

/** Tab (Enter on a skip link) until `done(focus)`; the keys pressed, or GIVE_UP. */
async function reach(page, done) {
  let keys = 0;
  let f = await page.evaluate(where);
  while (!done(f) && keys < GIVE_UP) {
    await page.keyboard.press(f.skipLink ? 'Enter' : 'Tab');
    keys += 1;
    f = await page.evaluate(where);
  }
  return { keys, f };
}

async function walk(page, url, tour, figures) {
  const n = tour.steps.length;
  await page.goto(`${url}?tour=${tour.name}`);
  await page.waitForFunction(() => window.__labRoot().querySelector('#tour-progress'), null, { timeout: 20000 });
  const counts = [];
  let worst = { clear: 1, where: '' };
  const lost = [];
  const shown = [];
  let answered = false;
  for (let i = 0; i < n; i++) {
    await atStep(page, i, n);
    let f = await page.evaluate(where);
    if (i > 0 && f.body) lost.push(i + 1);
    if (answered) check(f.verdict.length > 0, `${tour.name} step ${i + 1}: the step after an answer opens with the verdict`);
    answered = false;
    // The tour's file says which steps ask (not the page's markup): the first visit is unanswered.
    const asks = !!tour.steps[i].ask;
    if (asks && i > 0) {
      check(f.question, `${tour.name} step ${i + 1}: at the question the focus is on it (it is on ${f.what})`);
      // One more Enter, as on every step before: it must not skip the question.
      await page.keyboard.press('Enter');
      await settle(page);
      const after = await page.evaluate(where);
      const kept = after.progress === f.progress;
      check(kept, `${tour.name} step ${i + 1}: Enter at the question does not skip it (${after.progress})`);
      if (!kept) {
        counts.push(NaN);
        break;
      }
      // Space (Play) there: the clock stays at the question, and a note says why.
      await page.keyboard.press(' ');
      await settle(page);
      const held = await page.evaluate(where);
      const note = await page.evaluate(() => window.__labRoot().querySelector('.tour-held')?.textContent ?? '');
      check(held.clock === f.clock && held.progress === f.progress && note.length > 0, `${tour.name} step ${i + 1}: Play stops at the question and says why (${held.clock}: "${note}")`);
    }
    const last = i + 1 === n;
    const { keys, f: at } = await reach(page, (g) => (last ? g.primary : asks ? g.answer : g.inLab && /#tour-next\./.test(g.what)));
    counts.push(keys);
    const parts = await page.evaluate(() => window.__spotShares(window.__labRoot()));
    for (const p of parts) {
      if (p.clear < MIN_CLEAR) console.log(`     ${tour.name} step ${i + 1}: ${p.spot} clear ${p.clear.toFixed(2)}${at.inspector ? ' (inspector open)' : ''}`);
      if (p.clear < worst.clear) worst = { clear: p.clear, where: `step ${i + 1}: ${p.spot}` };
    }
    if (at.inspector) shown.push(i + 1);
    if (last) break;
    answered = at.answer;
    await page.keyboard.press('Enter');
  }
  const most = Math.max(...counts);
  check(counts.length === n && most <= MAX_KEYS, `${tour.name}: Next (or the answer) is reached in at most ${MAX_KEYS} keys at every step (keys per step: ${counts.join(' ')})`);
  check(worst.clear >= MIN_CLEAR, `${tour.name}: by keyboard every highlighted part is at least ${MIN_CLEAR} clear (worst ${worst.clear.toFixed(2)}${worst.where ? `, ${worst.where}` : ''})`);
  check(lost.length === 0, `${tour.name}: the focus never falls to the page's body${lost.length ? ` (it does at steps ${lost.join(', ')})` : ''}`);
  figures.push({ tour: tour.name, counts, worst: worst.clear, inspector: shown });
}

/** The untouched page: "Start the guided tour" by keyboard keeps the focus in the lab, on Next. */
async function start(page, url) {
  await page.goto(url);
  await page.waitForFunction(() => window.__labRoot().querySelector('#tour-start'), null, { timeout: 20000 });
  await page.evaluate(() => window.__labRoot().querySelector('#tour-start').focus());
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => !window.__labRoot().querySelector('#tour-start'), null, { timeout: 20000 });
  await settle(page);
  const f = await page.evaluate(where);
  check(!f.body && f.inLab, `after "Start the guided tour" the focus stays in the lab (on ${f.what})`);
  check(f.next || f.question, `after "Start the guided tour" the focus is on the step's Next or question (${f.what})`);
}

/** The inspector by keyboard, on a tour step: opens on Enter only, closes on Escape from
 *  anywhere in the lab and when the focus leaves the stage; → moves on from the stage. */
async function inspector(page, url) {
  await page.goto(`${url}?tour=lease-crash-vs-stop&step=2`);
  await page.waitForFunction(() => window.__labRoot().querySelector('#tour-progress'), null, { timeout: 20000 });
  await atStep(page, 1, 6);
  // From Next back into the stage: focus alone opens nothing.
  await page.evaluate(() => window.__labRoot().querySelector('#tour-next').focus());
  let f = await page.evaluate(where);
  let back = 0;
  while (!/\bevent\b|apiserver|row|service-head/.test(f.what) && back < 30) {
    await page.keyboard.press('Shift+Tab');
    back += 1;
    f = await page.evaluate(where);
  }
  check(!f.inspector, `a stage object taking the focus opens no inspector (${f.what}, ${back} Shift+Tabs from Next)`);
  await page.keyboard.press('Enter');
  await settle(page);
  f = await page.evaluate(where);
  check(f.inspector, `Enter on ${f.what} opens the inspector`);
  const now = await page.evaluate(() => window.__labRoot().querySelector('.inspector-now')?.textContent ?? '');
  check(now.includes(f.clock.replace('t = ', '')), `the inspector shows the moment on the clock ("${now}", clock "${f.clock}")`);
  const covered = async () => (await page.evaluate(() => window.__spotShares(window.__labRoot()))).filter((p) => p.clear < MIN_CLEAR);
  let under = await covered();
  check(under.length === 0, `open, the inspector covers none of the step's highlights${under.length ? `: ${under.map((p) => `${p.spot} ${p.clear.toFixed(2)}`).join(', ')}` : ''}`);
  // Back from the inspector onto the stage, it stays open and clear of the focused object.
  await page.keyboard.press('Shift+Tab');
  await settle(page);
  const clear = await page.evaluate(() => {
    let a = document.activeElement;
    while (a?.shadowRoot?.activeElement) a = a.shadowRoot.activeElement;
    const r = a.getBoundingClientRect();
    const hit = window.__labRoot().elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return { inStage: !!a.closest('.stage'), open: !!window.__labRoot().querySelector('.inspector'), clear: !!hit && (hit === a || a.contains(hit)) };
  });
  under = await covered();
  check(!clear.inStage || !clear.open || (clear.clear && under.length === 0), `with the focus back on the stage the inspector covers neither it nor a highlight (${JSON.stringify(clear)})`);
  await page.keyboard.press('Tab');
  await settle(page);
  await page.keyboard.press('Escape');
  await settle(page);
  f = await page.evaluate(where);
  check(!f.inspector && !f.body && f.inLab, `Escape closes it and the focus goes back to the object (${f.what})`);
  // Open again, then Escape from outside the stage (the clock's controls).
  await page.keyboard.press('Enter');
  await settle(page);
  await page.evaluate(() => window.__labRoot().querySelector('.controls button').focus());
  f = await page.evaluate(where);
  await page.keyboard.press('Escape');
  await settle(page);
  check(!(await page.evaluate(where)).inspector, `Escape closes it from anywhere in the lab (from ${f.what})`);
  // Open again, then Tab on out of the stage: it closes.
  await page.evaluate(() => window.__labRoot().querySelector('.stage [tabindex="0"]').focus());
  await page.keyboard.press('Enter');
  await settle(page);
  let tabs = 0;
  f = await page.evaluate(where);
  while (f.inspector && tabs < 40) {
    await page.keyboard.press('Tab');
    tabs += 1;
    f = await page.evaluate(where);
  }
  await settle(page);
  f = await page.evaluate(where);
  check(!f.inspector && !f.body, `tabbing out of the stage closes it (${tabs} Tabs, focus on ${f.what})`);
  // → moves the tour on from a stage object.
  await page.evaluate(() => window.__labRoot().querySelector('.stage [tabindex="0"]').focus());
  await page.keyboard.press('ArrowRight');
  await atStep(page, 2, 6);
  check((await page.evaluate(where)).progress === 'Step 3 of 6', '→ from the stage moves the tour on');
}

await mkdir(ARTIFACTS, { recursive: true });
const lab = await serve(DIST);
const browser = await chromium.launch(CHROMIUM);
const context = await browser.newContext({ viewport: { width: 1280, height: 720 }, reducedMotion: 'reduce' });
await context.addInitScript(ROOT);
await context.addInitScript(PACED);
await context.addInitScript(SHARES);
const page = await context.newPage();
const errors = [];
page.on('pageerror', (e) => errors.push(String(e)));
const figures = [];
for (const tour of await loadTours()) await walk(page, lab.url, tour, figures);
await start(page, lab.url);
await inspector(page, lab.url);
check(errors.length === 0, `no page errors ${errors.join('; ')}`);
await browser.close();
lab.close();

console.log('\nby keyboard at 1280×720: keys to Next per step, worst clear share, steps with the inspector open');
for (const f of figures) {
  console.log(`  ${f.tour.padEnd(28)} ${f.counts.join(' ').padEnd(24)} ${f.worst.toFixed(2)}  ${f.inspector.length ? f.inspector.join(',') : '-'}`);
}
finish('keyboard');
