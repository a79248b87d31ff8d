// Accessibility: axe-core on the app and on the embed example (static/docs-example.html), in
// light and dark, in the states a reader meets (a fresh cluster with an apiserver starting, one
// crashed and one cut off from etcd, a guided tour, the configuration form, behaviour 1.35 with
// its ServiceCIDRs; on a phone, the landing page and a tour step). Prints the violations by
// impact and fails on any serious or critical one; and counts the backward tab stops whose
// focused element the sticky time bar hides.
// Usage: node tests/e2e/axe.mjs   (after `trunk build --release`; `make test-e2e` does both)
import { chromium } from 'playwright-core';
import { mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { serve } from './serve.mjs';
import { ARTIFACTS, CHROMIUM, DIST, check, finish } from './harness.mjs';

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
const FAILING = ['serious', 'critical'];
const IMPACTS = ['critical', 'serious', 'moderate', 'minor'];

/**
 * Injects axe into every frame of `page` (axe reaches into an iframe only when it runs there).
 * An injected script is inline, which the pages' policy blocks: the contexts bypass it
 * (app.mjs checks the policy).
 */
async function inject(page) {
  for (const frame of page.frames()) await frame.addScriptTag({ path: AXE });
}

/** axe's violations on `page`, one row per rule and element. */
async function audit(page, where) {
  await inject(page);
  const result = await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
  return result.violations.flatMap((v) => v.nodes.map((n) => ({
    where, impact: v.impact, rule: v.id, target: n.target.flat().join(' › '),
    why: (n.any[0] ?? n.all[0] ?? n.none[0])?.message ?? v.help,
  })));
}

/** Moves the app's timeline to `ms`. */
async function seek(page, ms) {
  await page.$eval('#scrubber', (el, v) => { el.value = String(v); el.dispatchEvent(new Event('input', { bubbles: true })); }, ms);
  await page.waitForFunction((v) => document.querySelector('#clock')?.textContent === `t = ${v / 1000}s`, ms);
}

/** The app's states to audit, each reached from a fresh page at `query`. */
const STATES = [
  ['start', '', async () => {}],
  // The untouched page plays the story, so a state reached by seeking names its scenario.
  ['crashed-isolated', 'scenario=crash-one-of-three', async (page) => {
    await seek(page, 20000);
    await page.click('#apiserver-apiserver-b button.crash');
    await page.click('#apiserver-apiserver-c button.isolate');
    await seek(page, 22000);
  }],
  ['config-form', '', async (page) => { await page.click('#configure'); await page.waitForSelector('#config-form'); }],
  ['tour', 'tour=lease-crash-vs-stop&step=2', async (page) => { await page.waitForSelector('#tour-title'); }],
  ['behaviour-1.35', 'scenario=servicecidr-default-terminating-1-35', async (page) => { await seek(page, 30000); }],
  // Client pods (issue 38): a lagging kube-proxy, a refusal, the strip of failures.
  ['clients', 'scenario=clients-crash-one-of-three', async (page) => {
    // The clock reads 1m10.3s there: wait for what the instant draws instead.
    await page.$eval('#scrubber', (el) => { el.value = '70300'; el.dispatchEvent(new Event('input', { bubbles: true })); });
    await page.waitForSelector('.client-node.lagging');
  }],
  // Writing a tour: the writer's card with a step open in its editor, picking on the stage.
  ['writer', 'scenario=crash-one-of-three', async (page) => {
    await page.click('#write-tour');
    await page.click('#writer-add');
    await page.fill('#writer-say-en', 'Three apiservers.');
    await page.click('#writer-pick');
    await page.waitForSelector('.writer-check.ok');
  }],
  // A tour as a handout (no clock: every step's still stage).
  ['handout', 'tour=lease-crash-vs-stop&print&lang=zh', async () => {}],
];

/** The same on a phone (390×844, a touch screen): the landing page and a tour step. */
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };
const PHONE_STATES = [
  ['phone-start', '', async () => {}],
  ['phone-tour', 'tour=lease-crash-vs-stop&step=2', async (page) => { await page.waitForSelector('#tour-title'); }],
  ['phone-clients', 'tour=clients-apiserver-failure&step=3', async (page) => { await page.waitForSelector('.clients-view'); }],
];

/**
 * Shift+Tab back through up to `stops` focus stops of the instance `scope` (a selector of the
 * page; in its shadow root if it has one), from its last one: how many focused elements its
 * sticky time bar covers, wholly or in part.
 */
async function hiddenBehindTheBar(page, scope, stops) {
  const FOCUSABLE = 'a[href], button:not([disabled]), input, select, textarea, canvas[tabindex], [tabindex="0"]';
  await page.$eval(scope, (host, sel) => {
    const all = [...(host.shadowRoot ?? host).querySelectorAll(sel)].filter((el) => el.offsetParent !== null);
    all.at(-1)?.focus();
  }, FOCUSABLE);
  let seen = 0;
  const under = [];
  for (let i = 0; i < stops; i++) {
    await page.keyboard.press('Shift+Tab');
    const r = await page.evaluate((scope) => {
      const host = document.querySelector(scope);
      const root = host.shadowRoot ?? host;
      const el = host.shadowRoot ? host.shadowRoot.activeElement : document.activeElement;
      const bar = root.querySelector('.controls');
      if (!el || !root.contains(el)) return { outside: true };
      if (!bar || bar.contains(el) || getComputedStyle(bar).position !== 'sticky') return {};
      // Covered: less of it shows below the bar than fits there (all of it, or the whole room
      // below the bar for an element taller than that, like a bitmap canvas).
      const a = el.getBoundingClientRect(), b = bar.getBoundingClientRect();
      const room = innerHeight - b.bottom;
      const shown = Math.max(0, Math.min(a.bottom, innerHeight) - Math.max(a.top, b.bottom));
      const above = a.bottom <= b.top + 1;
      return { covered: !above && shown < Math.min(a.height, room) - 1, what: el.id || el.textContent.trim().slice(0, 24) };
    }, scope);
    if (r.outside) break;
    seen += 1;
    if (r.covered) under.push(r.what);
  }
  return { seen, under };
}

const server = await serve(DIST);
const browser = await chromium.launch(CHROMIUM);
await mkdir(ARTIFACTS, { recursive: true });
const rows = [];
try {
  for (const theme of ['light', 'dark']) {
    for (const [name, query, reach] of [...STATES, ...PHONE_STATES]) {
      const device = name.startsWith('phone') ? PHONE : { viewport: { width: 1280, height: 900 } };
      const context = await browser.newContext({ ...device, colorScheme: theme, bypassCSP: true });
      const page = await context.newPage();
      await page.emulateMedia({ colorScheme: theme, reducedMotion: 'reduce' });
      await page.goto(`${server.url}?theme=${theme}${query ? `&${query}` : ''}`);
      await page.waitForSelector(name === 'handout' ? '.handout-step .stage svg' : '#clock');
      await reach(page);
      rows.push(...await audit(page, `app ${name} ${theme}`));
      await page.screenshot({ path: `${ARTIFACTS}/axe-app-${name}-${theme}.png`, fullPage: true });
      if (name === 'start') {
        const { seen, under } = await hiddenBehindTheBar(page, 'body', 25);
        check(seen === 25 && under.length === 0, `app ${theme}: the sticky time bar hides ${under.length} of ${seen} backward tab stops ${under.join(', ')}`);
      }
      await context.close();
    }
    // The embed example: a mounted tour, a custom element in a shadow root (dark, Chinese) and
    // an iframe, in a page with a docs theme of its own.
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme: theme, bypassCSP: true });
    const page = await context.newPage();
    await page.emulateMedia({ colorScheme: theme, reducedMotion: 'reduce' });
    await page.goto(`${server.url}docs-example.html?theme=${theme}`);
    await page.waitForSelector('#lab-tour .lab #tour-title');
    await page.waitForFunction(() => document.querySelector('#lab-element')?.shadowRoot?.querySelector('.lab #clock'));
    await page.$eval('#lab-frame', (f) => f.scrollIntoView());
    const frame = await (await page.waitForSelector('#lab-frame')).contentFrame();
    await frame.waitForSelector('#kubernetes-ip');
    rows.push(...await audit(page, `docs-example ${theme}`));
    {
      // The custom element (a shadow root, with the bitmaps), in a short window: its time bar
      // sticks while the reader tabs back through the canvases.
      await page.setViewportSize({ width: 1280, height: 600 });
      const { seen, under } = await hiddenBehindTheBar(page, '#lab-element', 25);
      check(seen >= 10 && under.length === 0, `docs-example ${theme}: in the custom element the sticky time bar hides ${under.length} of ${seen} backward tab stops ${under.join(', ')}`);
    }
    await page.screenshot({ path: `${ARTIFACTS}/axe-docs-example-${theme}.png`, fullPage: true });
    await context.close();
  }
} finally {
  await browser.close();
  server.close();
}

console.log('axe-core violations (rule, where, element, why):');
for (const impact of IMPACTS) {
  const these = rows.filter((r) => r.impact === impact);
  console.log(`  ${impact.padEnd(8)} ${String(these.length).padStart(3)}`);
  for (const r of these) console.log(`     ${r.rule.padEnd(22)} ${r.where.padEnd(30)} ${r.target}  ${r.why}`);
}
for (const impact of FAILING) {
  check(!rows.some((r) => r.impact === impact), `no violation of ${impact} impact (${rows.filter((r) => r.impact === impact).length})`);
}
finish('axe');
