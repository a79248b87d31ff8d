// End-to-end, the roads into a docs page that a sticky header and a narrow column make hard
// (issue 34): the README's iframe (data-kube-bootstrap-lab + frame-height.js) on a 390×844 phone
// under a sticky header, Next on screen and clickable at every step of every tour; the frame's
// height against the lab's content in a 750 px column (a tour, docked: capped at the viewport
// below the header; a sandbox: its content, shrinking from a too tall start; a failed load: the
// failure's line and its link); and theme and lang changed on a running lab (the element's
// attributes, mount()'s set(), theme="page" following the page's dark switch) without losing
// the reader's place; and (issue 44) a site that navigates client-side, with stacked sticky bars
// and a dark switch on <body>: labs come and go with their page, one per host, and follow it.
// Usage: node tests/e2e/roads.mjs   (after `trunk build --release`; `make test-e2e` does both)
import { chromium } from 'playwright-core';
import { mkdir, writeFile } from 'node:fs/promises';
import { serve } from './serve.mjs';
import { ARTIFACTS, CHROMIUM, DIST, RENDERED, PACED, ROOT, atStep, check, finish, frames, loadTours, steady } from './harness.mjs';

const HEADER = 56;
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };

/** A docs page on another origin: a sticky header, prose, a 750 px column. `body` is the embed. */
const hostPage = (lab, body, extra = '') => `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><link rel="icon" href="data:,"><title>host</title>
<style>
  body { margin: 0; font: 16px/1.6 Georgia, serif; background: #fff; color: #222; }
  html.dark body { background: #1b1b1d; color: #eee; }
  header { position: sticky; top: 0; z-index: 10; height: ${HEADER}px; background: #242526; color: #fff; }
  main { max-width: 750px; margin: 0 auto; padding: 0 12px 600px; }
</style>${extra}</head><body><header>Kubernetes training</header><main>
<h1>The Service nobody wrote</h1><p>${'Some prose before the lab. '.repeat(20)}</p>
${body}
<p>${'Some prose after the lab. '.repeat(20)}</p></main></body></html>`;

/** The README's iframe, with the query of `location.search` (tour=…, scenario=…; start=N: the
 *  frame's height before the lab reports, in px; page=FILE: another file than index.html). */
const iframeBody = (lab) => `<iframe data-kube-bootstrap-lab id="frame" title="kube-bootstrap-lab" style="display: block; width: 100%; height: calc(100svh - 80px); border: 0"></iframe>
<script type="module">
  const q = new URLSearchParams(location.search);
  const frame = document.getElementById("frame");
  if (q.has("start")) frame.style.height = q.get("start") + "px";
  const file = q.get("page") ?? "index.html";
  q.delete("start");
  q.delete("page");
  frame.src = ${JSON.stringify(lab)} + file + "?" + q;
  await import(${JSON.stringify(`${lab}frame-height.js`)});
</script>`;

/** In the host page: where Next of the frame's lab is, and whether a reader sees and can click it there. */
async function nextOnScreen(page, frame) {
  const inner = await frame.evaluate(() => {
    const b = window.__labRoot().querySelector('#tour-next') ?? window.__labRoot().querySelector('.tour-buttons .primary');
    const r = b?.getBoundingClientRect();
    if (!r || !r.width) return null;
    const [x, y] = [r.left + r.width / 2, r.top + r.height / 2];
    const hit = document.elementFromPoint(x, y);
    return { x, y, clear: !!hit && (hit === b || b.contains(hit)) };
  });
  if (!inner) return { ok: false, why: 'no Next' };
  const outer = await page.evaluate(({ x, y }) => {
    const f = document.getElementById('frame');
    const r = f.getBoundingClientRect();
    const [hx, hy] = [r.left + x, r.top + y];
    const header = document.querySelector('header').getBoundingClientRect().bottom;
    return { hx, hy, ok: hy >= header && hy < innerHeight && hx >= 0 && hx < innerWidth && document.elementFromPoint(hx, hy) === f };
  }, inner);
  return { ok: inner.clear && outer.ok, why: `at ${Math.round(outer.hx)},${Math.round(outer.hy)} of the page` };
}

/** Counts, in the host page, the frames since its scroll or the frame's box last changed (the
 *  frame sized to its lab's report, the page scrolled along by the lab's own scroll). */
const watchHost = (page) => page.evaluate(() => {
  let last = '';
  window.__hostStill = 0;
  const tick = () => {
    const r = document.getElementById('frame').getBoundingClientRect();
    const now = `${scrollY} ${Math.round(r.top)} ${Math.round(r.height)}`;
    window.__hostStill = now === last ? window.__hostStill + 1 : 0;
    last = now;
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
});

/** Waits until the host page has stayed put for 6 frames (watchHost), at most 10 s; whether it did. */
const hostStill = (page) => page.waitForFunction(() => window.__hostStill >= 6, null, { polling: 'raf', timeout: 10000 }).then(() => true, () => false);

/** `read()` once `ok` holds and it reads the same 10 frames later, at most 20 s; the last
 *  reading (for the check to say what it saw). */
const until = async (page, read, ok) => (await steady(page, read, { ok })).value;

/** Part 1: every tour in the README's iframe on a phone, under a sticky header, step by step with Next. */
async function phoneIframe(browser, host, tours) {
  const context = await browser.newContext({ ...PHONE, reducedMotion: 'reduce' });
  await context.addInitScript(ROOT);
  await context.addInitScript(PACED);
  const page = await context.newPage();
  for (const tour of tours) {
    await page.goto(`${host.url}frame.html?tour=${tour.name}`);
    const handle = await page.waitForSelector('#frame');
    await watchHost(page);
    const frame = await handle.contentFrame();
    await frame.waitForFunction(() => window.__labRoot().querySelector('#tour-progress'), null, { timeout: 30000 });
    // The reader scrolls the frame to just below the header.
    await page.evaluate((h) => scrollTo(0, document.getElementById('frame').getBoundingClientRect().top + scrollY - h), HEADER);
    const n = tour.steps.length;
    const hidden = [];
    for (let i = 0; i < n; i++) {
      await atStep(frame, i, n, 'en');
      const still = await hostStill(page);
      const seen = await nextOnScreen(page, frame);
      if (!seen.ok) hidden.push(`${i + 1} (${seen.why}${still ? '' : ', the page still moving after 10 s'})`);
      if (tour.name === 'kubernetes-service' && i === 2) await page.screenshot({ path: `${ARTIFACTS}/roads-phone-iframe-s3.png` });
      if (i + 1 < n) await frame.evaluate(() => window.__labRoot().querySelector('#tour-next').click());
    }
    check(hidden.length === 0, `phone iframe ${tour.name}: Next on screen and clickable at every step of ${n}${hidden.length ? ` (not at ${hidden.join(', ')})` : ''}`);
  }
  await context.close();
}

/** The frame's height, its lab's content height (the body: what the page occupies) and the room below the header. */
async function frameAndContent(page, frame) {
  const content = await frame.evaluate(() => Math.round(document.documentElement.getBoundingClientRect().height));
  const outer = await page.evaluate(() => ({
    frame: Math.round(document.getElementById('frame').getBoundingClientRect().height),
    view: Math.round(innerHeight - document.querySelector('header').getBoundingClientRect().height),
  }));
  return { ...outer, content };
}

/** Part 2: the frame's height in a 750 px column, for a tour, a sandbox and a failed load. */
async function heights(browser, host) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, reducedMotion: 'reduce' });
  await context.addInitScript(ROOT);
  await context.addInitScript(PACED);
  const page = await context.newPage();
  try {
    // A tour docks its card in a 750 px column: the frame is capped at the viewport below the header.
    await page.goto(`${host.url}frame.html?tour=kubernetes-service&controls=minimal`);
    const frame = await (await page.waitForSelector('#frame')).contentFrame();
    await frame.waitForFunction(() => window.__labRoot().querySelector('#tour-progress'), null, { timeout: 30000 });
    // Until the frame is sized to its lab's report (its content capped at the room), and stays.
    const capped = (h) => Math.abs(h.frame - Math.min(h.content, h.view)) <= 2;
    const atLoad = await until(page, () => frameAndContent(page, frame), capped);
    // Each scroll position drawn for 5 frames, as a reader scrolls; then until the frame is
    // sized again.
    for (let y = 0; y < 4000; y += 500) {
      await page.evaluate((top) => scrollTo(0, top), y);
      await frames(page, 5);
    }
    const after = await until(page, () => frameAndContent(page, frame), capped);
    console.log(`     tour iframe in a 750 px column: frame ${atLoad.frame} px for ${atLoad.content} px of content at load, ${after.frame} px after scrolling through (viewport below the header ${after.view} px)`);
    for (const [when, h] of [['at load', atLoad], ['after scrolling through', after]]) {
      check(Math.abs(h.frame - Math.min(h.content, h.view)) <= 2, `a tour's iframe (docked card) ${when}: the frame is its content capped at the viewport below the header (${h.frame} px; content ${h.content}, room ${h.view})`);
    }
    // A sandbox with one panel, from a start far too tall: the frame shrinks to its content.
    await page.goto(`${host.url}frame.html?scenario=crash-one-of-three&panels=apiservers&start=3601`);
    const sandbox = await (await page.waitForSelector('#frame')).contentFrame();
    await sandbox.waitForFunction(() => document.querySelector('body > .lab'), null, { timeout: 30000 });
    const small = await until(page, () => frameAndContent(page, sandbox), (h) => h.content > 100 && Math.abs(h.frame - h.content) <= 2);
    check(small.content > 100 && Math.abs(small.frame - small.content) <= 2, `a sandbox's iframe shrinks from 3601 px to its content (${small.frame} px for ${small.content} px)`);
    // The module fails to load: the frame shrinks to the failure's line, with its link.
    await page.route('**/kube-bootstrap-lab_bg.wasm', (route) => route.fulfill({ status: 404, body: 'not found' }));
    await page.goto(`${host.url}frame.html?tour=kubernetes-service`);
    const failed = await (await page.waitForSelector('#frame')).contentFrame();
    await failed.waitForSelector('.lab-failure', { timeout: 30000 });
    const f = await until(page, () => frameAndContent(page, failed), (h) => h.frame < 300 && Math.abs(h.frame - h.content) <= 2);
    const link = await failed.locator('.lab-failure a[target=_blank]').isVisible();
    check(f.frame < 300 && Math.abs(f.frame - f.content) <= 2 && link, `a failed load: the frame shrinks to the failure's line (${f.frame} px) and shows its link (${link})`);
    await page.screenshot({ path: `${ARTIFACTS}/roads-iframe-failed.png` });
    await page.unroute('**/kube-bootstrap-lab_bg.wasm');
    // No lab in the frame at all (a 404 page): frame-height.js says so after the frame, with the link.
    await page.goto(`${host.url}frame.html?page=no-such-page.html&tour=kubernetes-service`);
    const told = page.locator('#frame + p.kube-bootstrap-lab-frame-failure[role=alert] a[target=_blank]');
    const shown = await told.waitFor({ timeout: 25000 }).then(() => true, () => false);
    const h = await page.evaluate(() => Math.round(document.getElementById('frame').getBoundingClientRect().height));
    check(shown && h <= 150, `a frame with no lab in it (404): shrunk to ${h} px, and a line after it links the lab (${shown})`);
  } finally {
    await context.close();
  }
}

/** In the page: the lab's step line, clock and computed background of `.lab` under `sel`. */
const place = (page, sel) => page.evaluate((s) => {
  const root = document.querySelector(s).shadowRoot;
  const lab = root.querySelector('.lab');
  return { step: root.querySelector('#tour-progress')?.textContent, clock: root.querySelector('.controls .clock')?.textContent, theme: lab.dataset.theme ?? 'auto', bg: getComputedStyle(lab).backgroundColor, lang: lab.lang };
}, sel);

/** Part 3: theme and lang changed on running labs keep the reader's place. */
async function live(browser, host) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, reducedMotion: 'reduce', colorScheme: 'light' });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  try {
    await page.goto(`${host.url}live.html`);
    for (const sel of ['#el', '#mounted']) {
      await page.locator(`${sel} .lab #tour-progress`).waitFor({ timeout: 30000 });
      // The reader goes to step 3.
      for (const i of [1, 2]) {
        await page.locator(`${sel} #tour-next`).click();
        await page.waitForFunction(([s, want]) => document.querySelector(s).shadowRoot.querySelector('#tour-progress')?.textContent.startsWith(want)
          && !document.querySelector(s).shadowRoot.querySelector('.lab').dataset.moving, [sel, `Step ${i + 1} `], { timeout: 30000 });
      }
    }
    const before = await place(page, '#el');
    await page.evaluate(() => document.getElementById('el').setAttribute('theme', 'dark'));
    // Until the lab is dark, then 20 frames in which it must keep its step and clock.
    await page.waitForFunction(() => document.getElementById('el').shadowRoot.querySelector('.lab').dataset.theme === 'dark', null, { timeout: 10000 }).catch(() => {});
    await frames(page, 20);
    const dark = await place(page, '#el');
    check(dark.theme === 'dark' && dark.step === before.step && dark.clock === before.clock && dark.bg !== before.bg,
      `the element's theme attribute turns the lab dark in place (${before.step} at ${before.clock} → ${dark.step} at ${dark.clock}; ${before.bg} → ${dark.bg})`);
    await page.evaluate(() => document.getElementById('el').setAttribute('lang', 'zh'));
    // Until the lab speaks Chinese, then 20 frames in which it must keep its step and clock.
    await page.waitForFunction(() => { const root = document.getElementById('el').shadowRoot; return root.querySelector('.lab').lang === 'zh' && root.querySelector('#tour-progress')?.textContent.startsWith('第'); }, null, { timeout: 10000 }).catch(() => {});
    await frames(page, 20);
    const zh = await place(page, '#el');
    check(zh.lang === 'zh' && zh.step?.startsWith('第 3 步') && zh.clock === before.clock, `the element's lang attribute speaks Chinese in place (${zh.step} at ${zh.clock})`);
    // mount() with theme "page": the host's dark switch (a class on <html>) is followed.
    const m0 = await place(page, '#mounted');
    await page.evaluate(() => document.documentElement.classList.add('dark'));
    await page.waitForFunction(() => document.getElementById('mounted').shadowRoot.querySelector('.lab').dataset.theme === 'dark', null, { timeout: 5000 }).catch(() => {});
    const m1 = await place(page, '#mounted');
    check(m0.theme === 'light' && m1.theme === 'dark' && m1.step === m0.step && m1.clock === m0.clock,
      `mount() with theme "page" follows the page's dark switch in place (${m0.theme} → ${m1.theme}, ${m0.step} at ${m0.clock} → ${m1.step} at ${m1.clock})`);
    await page.screenshot({ path: `${ARTIFACTS}/roads-live-dark.png` });
    const refused = await page.evaluate(() => window.lab.set({ tour: 'etcd-outage', lang: 'fr' }));
    const m2 = await place(page, '#mounted');
    check(refused.length === 2 && m2.step === m1.step && m2.lang === 'en', `set() names what it cannot change in place and changes nothing then (${refused.join(' | ')})`);
    check(errors.length === 0, `live settings: no page error ${errors.join('; ')}`);
  } finally {
    await context.close();
  }
}

/** Part 4: what changes while the lab is still loading (a host's dark switch, a trainer's
 *  script setting another tour) is what the lab shows once it renders. */
async function whileLoading(browser, host) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, reducedMotion: 'reduce', colorScheme: 'light' });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  // The module arrives 3 s late: the changes below come while every lab is loading.
  let release;
  const held = new Promise((ok) => { release = ok; });
  await page.route('**/*.wasm', async (route) => { await held; await route.continue(); });
  try {
    await page.goto(`${host.url}live.html`);
    await page.waitForFunction(() => document.getElementById('el').shadowRoot?.querySelector('.lab-loading, .lab-poster'), null, { timeout: 10000 });
    await page.evaluate(() => {
      const el = document.getElementById('el');
      el.setAttribute('theme', 'dark');
      el.setAttribute('tour', 'etcd-outage');
      document.documentElement.classList.add('dark');
    });
    release();
    const shown = async (sel) => {
      await page.locator(`${sel} .kube-bootstrap-lab-app > .lab #tour-progress`).waitFor({ timeout: 30000 });
      return page.evaluate((s) => {
        const root = document.querySelector(s).shadowRoot;
        return { theme: root.querySelector('.kube-bootstrap-lab-app > .lab').dataset.theme, title: root.querySelector('#tour-title, .tour h2, .tour-title')?.textContent ?? '' };
      }, sel);
    };
    const el = await shown('#el');
    check(el.theme === 'dark', `an element's theme set while it loads is the lab's once rendered (data-theme ${el.theme})`);
    const etcd = (await loadTours()).find((t) => t.name === 'etcd-outage');
    const title = typeof etcd.title === 'string' ? etcd.title : etcd.title.en;
    check(el.title.includes(title), `an element's tour set while it loads is the tour shown (${el.title})`);
    const m = await shown('#mounted');
    check(m.theme === 'dark', `mount() with theme "page" follows a dark switch turned while it loaded (data-theme ${m.theme})`);
    check(errors.length === 0, `changes while loading: no page error ${errors.join('; ')}`);
  } finally {
    await context.close();
  }
}

const TABS = 48;

/** A docs site that navigates client-side (issue 44): embed.js in its head, a sticky header with
 *  sticky tabs under it, a dark switch on an attribute of <body> (MkDocs Material's), and a router
 *  that swaps page B's HTML into <main> by its hash, running none of its scripts, as instant
 *  navigation does; the app's own code mounts one lab with mount() once B is in. */
const routedPage = (lab) => {
  const fallback = (q) => `<p>kube-bootstrap-lab appears here once it has loaded. If it does not, <a href="${lab}index.html?${q}" target="_blank" rel="noopener">open the lab in its own tab</a>.</p>`;
  const b = `<h1>Page B</h1><p>Prose.</p>
<div class="kube-bootstrap-lab-block"><kube-bootstrap-lab id="el" tour="kubernetes-service" controls="minimal">${fallback('tour=kubernetes-service')}</kube-bootstrap-lab></div>
<div id="decl" data-kube-bootstrap-lab-mount="tour=lease-crash-vs-stop&amp;theme=page">${fallback('tour=lease-crash-vs-stop')}</div>
<div id="imp"></div>
<div class="kube-bootstrap-lab-block"><iframe data-kube-bootstrap-lab id="frame" title="kube-bootstrap-lab" style="display: block; width: 100%; height: calc(100svh - 80px); border: 0" src="${lab}index.html?tour=kubernetes-service&amp;controls=minimal"></iframe></div>`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>routed</title>
<script type="module" src="${lab}embed.js"></script>
<style>
  body { margin: 0; font: 16px/1.6 Georgia, serif; background: #fff; color: #222; }
  body[data-md-color-scheme=slate] { background: #1e2129; color: #e2e4e9; }
  header { position: sticky; top: 0; z-index: 10; height: ${HEADER}px; background: #242526; color: #fff; }
  nav { position: sticky; top: ${HEADER}px; z-index: 10; height: ${TABS}px; background: #3f51b5; }
  nav a { color: #fff; margin: 0 12px; line-height: ${TABS}px; }
  main { max-width: 750px; margin: 0 auto; padding: 0 12px 600px; }
</style></head><body><header>Kubernetes training</header><nav><a id="to-a" href="#a">Page A</a><a id="to-b" href="#b">Page B</a></nav><main></main>
<template id="page-b">${b}</template>
<script type="module">
  const { mount } = await import(${JSON.stringify(`${lab}embed.js`)});
  const main = document.querySelector("main");
  const show = async () => {
    main.innerHTML = location.hash === "#b" ? document.getElementById("page-b").innerHTML : "<h1>Page A</h1><p>No lab here.</p>";
    if (location.hash === "#b") window.imp = await mount(document.getElementById("imp"), { scenario: "crash-one-of-three", panels: "stage" });
  };
  addEventListener("hashchange", show);
  show();
</script></body></html>`;
};

/** Part 5 (issue 44): a site that navigates client-side, with stacked sticky bars and a dark
 *  switch of its own: labs come with page B and go with it (one per host, after 20 round trips),
 *  the declared lab follows the body's attribute, and what covers the top is both bars. */
async function routed(browser, host) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, reducedMotion: 'reduce', colorScheme: 'light' });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  const tag = 'a site that navigates client-side';
  const apps = () => page.evaluate(() => {
    const count = (el) => el?.shadowRoot?.querySelectorAll('.kube-bootstrap-lab-app').length ?? 0;
    const old = (window.__left ?? []).reduce((n, el) => n + count(el), 0);
    return { el: count(document.getElementById('el')), decl: count(document.getElementById('decl')), imp: count(document.getElementById('imp')), old };
  });
  const arrive = async () => {
    for (const sel of ['#el', '#decl', '#imp']) await page.locator(`${sel} ${RENDERED}`).waitFor({ timeout: 30000 });
  };
  // What is left behind: B's hosts, kept to look into once the router has dropped them.
  const leave = (to) => page.evaluate((id) => {
    window.__left = [...(window.__left ?? []), ...['el', 'decl', 'imp'].map((i) => document.getElementById(i))];
    document.getElementById(id).click();
  }, to);
  const unmounted = () => page.waitForFunction(() => window.__left.every((el) => !el.shadowRoot?.querySelector('.kube-bootstrap-lab-app')), null, { timeout: 10000 }).then(() => true, () => false);
  try {
    await page.goto(`${host.url}routed.html#a`);
    await page.locator('#to-b').click();
    await arrive();
    const hostTop = await page.waitForFunction(() => {
      const v = document.getElementById('decl').shadowRoot.querySelector('.lab').style.getPropertyValue('--host-top');
      return v && v !== '0px' && v;
    }, null, { timeout: 10000 }).then((h) => h.jsonValue(), () => 'unset');
    check(hostTop === `${HEADER + TABS}px`, `${tag}: what covers the top is the header and the sticky tabs under it (--host-top ${hostTop}, want ${HEADER + TABS}px)`);
    // The frame docks its tour in the 750 px column: capped at the viewport less both bars.
    await page.locator('#frame').scrollIntoViewIfNeeded();
    const want = 800 - HEADER - TABS;
    const framed = await page.waitForFunction((w) => Math.abs(parseFloat(document.getElementById('frame').style.height) - w) <= 2, want, { timeout: 15000 }).then(() => true, () => false);
    check(framed, `${tag}: the iframe put in by the router is capped below both bars (${await page.evaluate(() => document.getElementById('frame').style.height)}, want ${want}px)`);
    // The site's dark switch: an attribute of <body> no list of ours names.
    const d0 = await place(page, '#decl');
    await page.evaluate(() => document.body.setAttribute('data-md-color-scheme', 'slate'));
    await page.waitForFunction(() => document.getElementById('decl').shadowRoot.querySelector('.lab').dataset.theme === 'dark', null, { timeout: 5000 }).catch(() => {});
    const d1 = await place(page, '#decl');
    check(d0.theme === 'light' && d1.theme === 'dark' && d1.step === d0.step && d1.clock === d0.clock,
      `${tag}: the declared lab with theme=page follows data-md-color-scheme on <body> in place (${d0.theme} → ${d1.theme}, ${d0.step} at ${d0.clock} → ${d1.step} at ${d1.clock})`);
    await page.screenshot({ path: `${ARTIFACTS}/roads-routed-dark.png` });
    await page.evaluate(() => document.body.removeAttribute('data-md-color-scheme'));
    await leave('to-a');
    check(await unmounted(), `${tag}: leaving page B unmounts its element, declared and mount()ed labs (${JSON.stringify(await apps())})`);
    await page.goBack();
    await arrive();
    const back = await apps();
    check(back.el === 1 && back.decl === 1 && back.imp === 1, `${tag}: Back to page B renders its labs again, one per host (${JSON.stringify(back)})`);
    await page.goForward();
    for (let i = 0; i < 20; i++) {
      await page.locator('#to-b').click();
      await arrive();
      await leave('to-a');
    }
    await page.locator('#to-b').click();
    await arrive();
    const left = await unmounted();
    const now = await apps();
    check(left && now.el === 1 && now.decl === 1 && now.imp === 1 && now.old === 0,
      `${tag}: after 22 visits of page B, one lab per host and none in the ${await page.evaluate(() => window.__left.length)} hosts left behind (${JSON.stringify(now)})`);
    const cdp = await context.newCDPSession(page);
    await cdp.send('HeapProfiler.collectGarbage');
    const heap = await cdp.send('Runtime.getHeapUsage');
    console.log(`     ${tag}: JS heap after 22 visits and a GC: ${(heap.usedSize / 1e6).toFixed(1)} MB`);
    check(errors.length === 0, `${tag}: no page error ${errors.join('; ')}`);
  } finally {
    await context.close();
  }
}

await mkdir(ARTIFACTS, { recursive: true });
const lab = await serve(DIST);
const dir = `${ARTIFACTS}/roads`;
await mkdir(dir, { recursive: true });
await writeFile(`${dir}/frame.html`, hostPage(lab.url, iframeBody(lab.url)));
const live_ = `<kube-bootstrap-lab id="el" tour="kubernetes-service" theme="light"></kube-bootstrap-lab>
<p>Between the labs.</p><div id="mounted"></div>
<script type="module">
  const { mount } = await import(${JSON.stringify(`${lab.url}embed.js`)});
  window.lab = await mount(document.getElementById("mounted"), { tour: "lease-crash-vs-stop", theme: "page" });
</script>`;
await writeFile(`${dir}/live.html`, hostPage(lab.url, live_, `<script type="module" src="${lab.url}embed.js"></script>`));
await writeFile(`${dir}/routed.html`, routedPage(lab.url));
const host = await serve(dir);
const browser = await chromium.launch(CHROMIUM);
try {
  const part = (name) => !process.env.E2E_ONLY || process.env.E2E_ONLY === name;
  if (part('phone')) await phoneIframe(browser, host, await loadTours());
  if (part('heights')) await heights(browser, host);
  if (part('live')) await live(browser, host);
  if (part('loading')) await whileLoading(browser, host);
  if (part('routed')) await routed(browser, host);
} finally {
  await browser.close();
  lab.close();
  host.close();
}
finish('e2e roads into a docs page');
