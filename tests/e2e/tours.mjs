// End-to-end, tours and embedding: every tour in English and Chinese (forward through every
// step, back, into the sandbox), then the docs example page with a mounted instance, a
// <kube-bootstrap-lab> element and an iframe. Screenshots go to test-artifacts/e2e/.
// Usage: node tests/e2e/tours.mjs   (after `trunk build --release`; `make test` does both)
import { chromium } from 'playwright-core';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { serve } from './serve.mjs';
import { ARTIFACTS, CHROMIUM, DIST, PACED, RENDERED, ROOT, atStep, check, finish, frames, loadTours } from './harness.mjs';

const text = (scope, sel) => scope.locator(sel).first().textContent().then((t) => (t ?? '').trim());

const tours = await loadTours();

async function tourRun(browser, server, tour, lang, animate) {
  const tag = `tour ${tour.name} (${lang}${animate ? ', animated' : ''})`;
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, reducedMotion: animate ? 'no-preference' : 'reduce' });
  await context.addInitScript(ROOT);
  await context.addInitScript(PACED);
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  await page.goto(`${server.url}?tour=${tour.name}&lang=${lang}`);
  await page.waitForSelector('#tour-say');
  const n = tour.steps.length;
  const clocks = [];
  let sayOk = true, spotsOk = true;
  for (let i = 0; i < n; i++) {
    await atStep(page, i, n, lang);
    const say = await text(page, '#tour-say');
    if (say !== tour.steps[i].say[lang]) { sayOk = false; console.log(`     step ${i + 1}: shows ${JSON.stringify(say.slice(0, 80))}`); }
    const spots = await page.locator('.tour-spot').count();
    if ((tour.steps[i].highlight ?? []).length > 0 && spots === 0) { spotsOk = false; console.log(`     step ${i + 1}: nothing highlighted for ${tour.steps[i].highlight}`); }
    if (animate && spots > 0) {
      // "Look at:" scrolls the highlighted part into view.
      const spot = tour.steps[i].highlight.at(-1);
      await page.click(`.tour-look button[data-spot="${spot}"]`);
      const seen = await page.waitForFunction((name) => [...document.querySelectorAll('[data-tour-spot]')]
        .filter((el) => el.dataset.tourSpot === name).some((el) => {
          const r = el.getBoundingClientRect();
          return r.bottom > 0 && r.top < innerHeight;
        }), spot, { timeout: 3000 }).then(() => true, () => false);
      if (!seen) { spotsOk = false; console.log(`     step ${i + 1}: "look at" did not bring ${spot} into view`); }
    }
    clocks.push(await text(page, '#clock'));
    if (i === Math.floor(n / 2)) await page.screenshot({ path: `${ARTIFACTS}/tour-${tour.name}-${lang}.png` });
    if (i + 1 < n) await page.click('#tour-next');
  }
  check(sayOk, `${tag}: every step's narration is shown in ${lang}`);
  check(spotsOk, `${tag}: every step highlights the part it talks about`);
  // Back is instant (a restore, not a replay) and shows the same instant as going forward did.
  const t0 = Date.now();
  await page.click('#tour-back');
  await atStep(page, n - 2, n, lang);
  const backMs = Date.now() - t0;
  check((await text(page, '#clock')) === clocks[n - 2], `${tag}: back shows step ${n - 1} at the same time as before (${clocks[n - 2]}), in ${backMs} ms`);
  // Forward to a step already seen is a restore too: it never plays there again.
  await page.click('#tour-next');
  const want = lang === 'zh' ? `第 ${n} 步，共 ${n} 步` : `Step ${n} of ${n}`;
  await page.waitForFunction((w) => document.querySelector('#tour-progress')?.textContent === w, want);
  check(await page.evaluate(() => !document.querySelector('.lab').dataset.moving), `${tag}: forward again to a step already seen is at once`);
  await atStep(page, n - 1, n, lang);
  // The end: the sandbox, with the state the tour reached.
  await page.click('#tour-leave');
  await page.waitForSelector('#tour-say', { state: 'detached' });
  check((await text(page, '#clock')) === clocks[n - 1], `${tag}: leaving keeps the state the tour reached (${clocks[n - 1]})`);
  check(errors.length === 0, `${tag}: no page errors ${errors.join('; ')}`);
  await context.close();
}

/** A tour on a phone: the card and the panels fit 360 px. */
async function tourOnPhone(browser, server, tour) {
  const context = await browser.newContext({ viewport: { width: 360, height: 780 }, reducedMotion: 'reduce' });
  await context.addInitScript(ROOT);
  await context.addInitScript(PACED);
  const page = await context.newPage();
  await page.goto(`${server.url}?tour=${tour.name}&lang=zh`);
  await page.waitForSelector('#tour-say');
  await page.click('#tour-next');
  await atStep(page, 1, tour.steps.length, 'zh');
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1);
  check(!overflow, `tour ${tour.name} on a 360 px phone: no horizontal overflow`);
  await page.screenshot({ path: `${ARTIFACTS}/tour-${tour.name}-zh-phone.png` });
  await context.close();
}

async function docsExample(browser, server, colorScheme) {
  const tag = `docs example (${colorScheme})`;
  const context = await browser.newContext({ viewport: { width: 1100, height: 900 }, colorScheme });
  await context.addInitScript(PACED);
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  await page.goto(`${server.url}docs-example.html`);
  const mounted = page.locator('#lab-tour');
  await mounted.locator('#tour-say').waitFor();
  const element = page.locator('kube-bootstrap-lab');
  await element.locator(RENDERED).waitFor(); // playwright pierces open shadow roots
  check((await page.locator(RENDERED).count()) === 2, `${tag}: two instances in the page (mounted + custom element)`);
  check(await element.evaluate((el) => el.shadowRoot?.querySelector('.lab')?.dataset.theme === 'dark'), `${tag}: the custom element renders in a shadow root, dark`);
  check(await element.evaluate((el) => el.shadowRoot.querySelector('.lab').lang === 'zh'), `${tag}: the custom element speaks Chinese`);
  const fonts = await page.evaluate(() => ({
    prose: getComputedStyle(document.querySelector('main p')).fontFamily,
    inShadow: getComputedStyle(document.querySelector('kube-bootstrap-lab').shadowRoot.querySelector('.lab')).fontFamily,
    shadowButton: getComputedStyle(document.querySelector('kube-bootstrap-lab').shadowRoot.querySelector('button')).borderRadius,
  }));
  check(fonts.prose.startsWith('Georgia'), `${tag}: the page keeps its own font (${fonts.prose.split(',')[0]})`);
  check(!fonts.inShadow.includes('Georgia') && fonts.shadowButton !== '0px', `${tag}: the page's CSS does not reach into the custom element`);
  // Panels chosen by the embedder.
  check(await mounted.locator('.panel.services').count() === 0 && await mounted.locator('.panel.etcd').count() === 1, `${tag}: panels= shows only the chosen panels`);
  // Keyboard shortcuts only while the instance has the focus.
  // An arrow on the page first, then one in the lab: the tour moves by one step, the second's.
  const progress = () => text(mounted, '#tour-progress');
  const before = await progress();
  const stepOf = (p) => Number(p.match(/\d+/)?.[0]);
  await page.locator('main > h1').click();
  await page.keyboard.press('ArrowRight');
  await mounted.locator('#tour-say').click();
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction((b) => document.querySelector('#lab-tour').shadowRoot.querySelector('#tour-progress').textContent !== b, before);
  const after = await progress();
  check(stepOf(after) === stepOf(before) + 1, `${tag}: → on the page does not move an unfocused instance, → in it moves its tour (${before} → ${after})`);
  // Instances are independent, and one scrolled out of view pauses.
  const clockEl = () => text(element, '#clock');
  const movesFrom = (was) => page.waitForFunction((w) => document.querySelector('kube-bootstrap-lab').shadowRoot.querySelector('#clock').textContent !== w, was, { timeout: 10000 })
    .then(() => true, () => false);
  const still = await clockEl();
  await element.locator('#play').click();
  check(await movesFrom(still), `${tag}: the custom element plays on its own`);
  await page.evaluate(() => window.scrollTo(0, 0));
  await frames(page, 10);
  const off1 = await clockEl();
  await frames(page, 40);
  const off2 = await clockEl();
  check(off1 === off2, `${tag}: scrolled out of view, it pauses (${off1} → ${off2} over 40 frames)`);
  await element.scrollIntoViewIfNeeded();
  check(await movesFrom(off2), `${tag}: back in view, it plays again`);
  await element.locator('#play').click();
  // The iframe is sized by the lab's height messages.
  const frameEl = page.locator('#lab-frame');
  await frameEl.scrollIntoViewIfNeeded();
  const frame = page.frameLocator('#lab-frame');
  await frame.locator('#tour-say').waitFor();
  await page.waitForFunction(() => {
    const f = document.getElementById('lab-frame');
    const h = f.contentDocument?.documentElement.scrollHeight;
    return h && Math.abs(parseFloat(f.style.height) - h) <= 1;
  }, null, { timeout: 10000 }).then(() => check(true, `${tag}: the iframe's height follows its content`), () => check(false, `${tag}: the iframe's height follows its content`));
  // A host that missed the reports asks again, and is answered.
  const answered = await page.evaluate(() => new Promise((resolve) => {
    const f = document.getElementById('lab-frame');
    f.style.height = '10px';
    addEventListener('message', (e) => {
      if (e.source === f.contentWindow && e.data?.type === 'kube-bootstrap-lab:height') resolve(e.data);
    });
    f.contentWindow.postMessage({ type: 'kube-bootstrap-lab:request-height', version: 1 }, new URL(f.src, location.href).origin);
    setTimeout(() => resolve(null), 5000);
  }));
  check(answered?.version === 1 && answered.height > 100, `${tag}: a height request is answered (${answered?.height})`);
  await page.screenshot({ path: `${ARTIFACTS}/docs-example-${colorScheme}.png`, fullPage: true });
  // unmount() removes the instance.
  await page.evaluate(() => window.labTour.unmount());
  check((await page.locator('#lab-tour .lab').count()) === 0, `${tag}: unmount() removes the mounted instance`);
  check(errors.length === 0, `${tag}: no page errors ${errors.join('; ')}`);
  await context.close();
}

/** A plain page made of the README's three snippets, served from another origin. */
async function readmeSnippets(browser, server) {
  const readme = await readFile('README.md', 'utf8');
  const snippet = (name) => {
    const m = readme.match(new RegExp(`<!-- snippet:${name} -->\\s*\`\`\`html\\n([\\s\\S]*?)\`\`\``));
    if (!m) throw new Error(`README has no snippet ${name}`);
    return m[1].replaceAll('http://127.0.0.1:8080/', server.url);
  };
  const dir = `${ARTIFACTS}/host`;
  await mkdir(dir, { recursive: true });
  await writeFile(`${dir}/index.html`, `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>host</title>
${snippet('loader')}</head><body>
<h1>A docs page on another origin</h1><p>Some prose.</p>
${snippet('iframe').replace(/(<iframe[^>]*\sheight=")\d+"/, '$1640"') /* the messages, not the snippet's start, must size it */}
<p>More prose.</p>
${snippet('mount')}
<p>And more.</p>
${snippet('element')}
</body></html>`);
  const host = await serve(dir);
  const tag = 'README snippets on another origin';
  const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  try {
    check(new URL(host.url).origin !== new URL(server.url).origin, `${tag}: the host page's origin differs from the lab's`);
    await page.goto(host.url);
    await page.locator('[data-kube-bootstrap-lab-mount] #tour-say').waitFor({ timeout: 20000 });
    check(true, `${tag}: the declared mount() renders a tour`);
    await page.locator(`kube-bootstrap-lab ${RENDERED}`).waitFor({ timeout: 20000 });
    check(await page.locator('kube-bootstrap-lab').evaluate((el) => el.shadowRoot.querySelector('.lab').lang === 'zh'), `${tag}: the custom element renders in its shadow root, in Chinese`);
    await page.locator('iframe[data-kube-bootstrap-lab]').scrollIntoViewIfNeeded();
    await page.frameLocator('iframe[data-kube-bootstrap-lab]').locator('#tour-say').waitFor({ timeout: 20000 });
    const sized = await page.waitForFunction(() => {
      const h = parseFloat(document.querySelector('iframe[data-kube-bootstrap-lab]').style.height);
      return h > 700 && h;
    }, null, { timeout: 10000 }).then((h) => h.jsonValue(), () => 0);
    check(sized > 700, `${tag}: the iframe is sized by its height messages (${sized}px)`);
    await page.screenshot({ path: `${ARTIFACTS}/readme-snippets.png`, fullPage: true });
    check(errors.length === 0, `${tag}: no page errors ${errors.join('; ')}`);
  } finally {
    await context.close();
    host.close();
  }
}

async function badInput(browser, server) {
  const context = await browser.newContext({ viewport: { width: 1100, height: 800 } });
  const page = await context.newPage();
  await page.goto(`${server.url}?tour=nope&lang=fr#scenario=%ZZ`);
  await page.waitForSelector('#kubernetes-ip');
  const msg = await text(page, '#action-error');
  check(msg.includes('lang') && msg.includes('"fr"'), `an unknown lang is reported: ${msg}`);
  await page.goto(`${server.url}?tour=etcd-outage&step=3&lang=zh`);
  await page.waitForSelector('#tour-say');
  check((await text(page, '#tour-progress')).startsWith('第 3 步'), '?tour=…&step=3 opens the tour at step 3');
  await page.goto(`${server.url}?tour=nope`);
  await page.waitForSelector('#kubernetes-ip');
  check((await text(page, '#action-error')).includes('There is no tour "nope"'), 'an unknown tour is reported, and the default scenario opens');
  await page.goto(`${server.url}docs-example.html`);
  const problems = await page.evaluate(async () => {
    const { mount } = await import('./embed.js');
    const el = document.createElement('div');
    document.body.append(el);
    const lab = await mount(el, { lang: 'fr', panels: 'moon', scenario: '<img src=x onerror=alert(1)>' });
    // Another instance of the page holds the bare ids: this one's are prefixed (labN-). Waited
    // for, not timed: a busy machine renders late.
    const notice = () => el.shadowRoot.querySelector('[id$="action-error"]')?.textContent ?? '';
    for (let i = 0; i < 100 && !notice(); i++) await new Promise((r) => setTimeout(r, 50));
    const shown = notice();
    const injected = el.shadowRoot.querySelector('img') !== null;
    lab.unmount();
    return { problems: lab.problems, shown, injected };
  });
  check(problems.problems.length === 2 && problems.shown.includes('option lang'), `mount() reports bad options in the widget: ${problems.shown}`);
  check(!problems.injected, 'nothing from an option is rendered as HTML');
  await context.close();
}

/** The untouched page: the story plays by itself and shows the lease writes, a crash leaving
 *  its key to expire and a graceful stop deleting it, all on one screen, within a minute. */
async function untouched(browser, server) {
  const tag = 'the untouched page';
  // At a reader's pace: the minute it takes is the check.
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  const t0 = Date.now();
  await page.goto(server.url);
  await page.waitForSelector('.stage .node.apiserver');
  const firstFrame = await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r(performance.now()))));
  // Every packet that takes off and every lease row that starts fading, with the clock the same
  // render shows: recorded in the page, so a busy machine cannot miss a 0.9 s flight.
  await page.evaluate(() => {
    const ms = () => {
      let v = 0;
      const t = document.querySelector('#clock').textContent.replace('t = ', '');
      for (const [, n, u] of t.matchAll(/(\d+(?:\.\d+)?)(h|ms|m|s)/g)) v += Number(n) * { h: 3600000, m: 60000, s: 1000, ms: 1 }[u];
      return v;
    };
    window.__seen = { packets: [], fades: [] };
    const look = (el) => {
      if (!(el instanceof Element)) return;
      if (el.matches('.stage .packet')) window.__seen.packets.push({ t: ms(), sender: el.dataset.sender, key: el.dataset.key, cls: el.getAttribute('class') });
      if (el.matches('.stage .row.fading')) window.__seen.fades.push({ t: ms(), key: el.dataset.key });
    };
    new MutationObserver((records) => records.forEach((r) => (r.type === 'attributes' ? look(r.target) : r.addedNodes.forEach(look))))
      .observe(document.querySelector('.stage'), { subtree: true, childList: true, attributes: true, attributeFilter: ['class'] });
  });
  const lastStep = await page.waitForFunction(() => document.querySelector('#tour-progress')?.textContent === 'Step 5 of 5', null, { timeout: 75000, polling: 50 })
    .then(() => Date.now() - t0, () => null);
  // The story's end as a reader sees it: the crashed apiserver's address gone, the stopped one's too.
  const ended = () => [...document.querySelectorAll('#stage-endpoints .chip:not(.leaving)')].map((e) => e.textContent).join(' ') === '192.168.10.11';
  await page.waitForFunction(ended, null, { timeout: 15000 }).catch(() => {});
  const { packets: seen, fades } = await page.evaluate(() => window.__seen);
  const fadedAt = fades.find((f) => f.key === '/masterleases/192.168.10.12')?.t ?? null;
  await page.screenshot({ path: `${ARTIFACTS}/stage-story-end.png` });
  const lease = (who, ip) => seen.filter((p) => p.sender === who && p.key === `/masterleases/${ip}` && p.cls.includes('via-endpoint-reconciler'));
  check(lease('apiserver-a', '192.168.10.11').length > 0 && lease('apiserver-b', '192.168.10.12').length > 0, `${tag}: lease writes fly from the apiservers to etcd (${seen.length} packets seen)`);
  check(seen.filter((p) => p.sender === 'apiserver-b' && p.t > 33000).length === 0, `${tag}: after its crash at 32s no packet leaves apiserver-b`);
  check(fadedAt !== null && fadedAt >= 45000 && fadedAt < 50000, `${tag}: its lease key fades out at its TTL (seen at ${fadedAt} ms)`);
  check(seen.some((p) => p.sender === 'apiserver-c' && p.key === '/masterleases/192.168.10.13' && p.cls.includes('op-delete')), `${tag}: the graceful stop deletes apiserver-c's lease at once (a delete packet)`);
  check(seen.some((p) => p.key === '/services/endpoints/default/kubernetes'), `${tag}: the Endpoints are rewritten on the stage`);
  check(lastStep !== null && lastStep < 60000, `${tag}: the whole story plays within a minute (${lastStep} ms)`);
  check((await page.$$eval('#stage-endpoints .chip:not(.leaving)', (els) => els.map((e) => e.textContent))).join(' ') === '192.168.10.11', `${tag}: the Endpoints end with 192.168.10.11 alone`);
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  console.log(`     ${tag}: first frame ${firstFrame.toFixed(0)} ms after navigation; document height ${height}px at 1280×720`);
  // One click hands over.
  await page.click('.stage .node.apiserver');
  check(!(await page.isVisible('#tour-auto')), `${tag}: one click hands over control`);
  // The inspector's code comes with its first opening (issue 37: the panels' chunk).
  await page.waitForSelector('.inspector', { timeout: 5000 }).catch(() => {});
  check(await page.isVisible('.inspector'), `${tag}: a click on an apiserver opens the inspector`);
  check(errors.length === 0, `${tag}: no page errors ${errors.join('; ')}`);
  await context.close();
}

/** An isolated apiserver's requests bounce off etcd. */
async function isolation(browser, server) {
  const tag = 'isolation on the stage';
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  const page = await context.newPage();
  await page.goto(`${server.url}?scenario=crash-one-of-three`);
  await page.waitForSelector('.stage .node.apiserver');
  await page.click('#stage-apiserver-apiserver-a');
  await page.click('.inspector button.isolate');
  await page.click('#play');
  // A packet is an object too: a click on one in flight opens it in the inspector. Clicked as
  // soon as it is seen, in the same task: a loaded machine may take longer than its flight to ask.
  const clicked = await page.waitForFunction(() => {
    const p = document.querySelector('.stage .packet.op-bounce[data-sender="apiserver-a"]');
    p?.dispatchEvent(new MouseEvent('click', { bubbles: true }));
    return !!p;
  }, null, { timeout: 15000 }).then(() => true, () => false);
  await page.screenshot({ path: `${ARTIFACTS}/stage-isolation.png` });
  check(clicked, `${tag}: apiserver-a's requests bounce back while it is cut off`);
  const title = clicked ? await page.waitForSelector('#inspector-title').then((h) => h.textContent()) : '';
  const why = clicked ? await page.textContent('#inspector-details') : '';
  check(title.startsWith('bounced') && why.includes('context deadline exceeded'), `${tag}: a bounced packet opens in the inspector with its reason (${title})`);
  await context.close();
}

const server = await serve(DIST);
const browser = await chromium.launch(CHROMIUM);
await mkdir(ARTIFACTS, { recursive: true });
try {
  // E2E_ONLY=tours|docs|snippets|bad runs one part (while working on it).
  const only = process.env.E2E_ONLY;
  const part = (name) => !only || only === name;
  if (part('tours')) {
    check(tours.length >= 8, `${tours.length} tours ship`);
    for (const [i, tour] of tours.entries()) {
      for (const lang of ['en', 'zh']) await tourRun(browser, server, tour, lang, i === 0 && lang === 'en');
    }
    await tourOnPhone(browser, server, tours[0]);
  }
  if (part('stage')) {
    await untouched(browser, server);
    await isolation(browser, server);
    // What each step's highlighted parts show is measured by visibility.mjs (in view and clear).
  }
  if (part('docs')) for (const scheme of ['light', 'dark']) await docsExample(browser, server, scheme);
  if (part('snippets')) await readmeSnippets(browser, server);
  if (part('bad')) await badInput(browser, server);
} finally {
  await browser.close();
  server.close();
}
finish('e2e tours');
