// Drives a built docs site of tests/e2e/docsites.mjs in Chromium, as a reader does, at 1280×800
// and 390×844, under a Content-Security-Policy (as static/docs-example.html is): each road in
// (the element, the iframe) takes its tour to the last step by clicking Next where it is on the
// screen, and at every step measures whether Next is in the viewport and not covered (a sticky
// header, the page's edge), how clear the step's highlighted parts are (an 8×8 grid of points that
// hit the part, through shadow roots and the iframe) and whether the lab's Play button is under
// the site's header. A trainer's tour by `tour-src` and one written in the page show their
// titles; the sandbox's form acts on its own element; the iframe is sized to its content; a
// site's dark switch (Docusaurus's, Material's palette toggle, VitePress's appearance switch; each
// site says how it marks the page dark) turns the element's lab dark without moving the reader
// from their step. No console error, no policy violation.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { serve } from '../serve.mjs';
import { ARTIFACTS, PACED, RENDERED, RENDERED_PAGE, check } from '../harness.mjs';
import { INLINE, TRAINER, steps } from './common.mjs';

const MIN_CLEAR = 0.9;
export const VIEWS = [
  { name: '1280', context: { viewport: { width: 1280, height: 800 } } },
  { name: '390', context: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 } },
];

/** The host pages' policy: the site's own inline scripts (mdBook and Docusaurus write some) by
 *  hash, and the inline styles the site says it inserts (`styles`: their hashes), nothing inline
 *  else; the lab's files are the site's own ('self'). */
export function policy(root, styles = []) {
  return (path) => {
    if (path.includes('/kube-bootstrap-lab/') || !(path.endsWith('/') || path.endsWith('.html'))) return {};
    let html;
    try {
      html = readFileSync(`${root}/${path.endsWith('/') ? `${path}index.html` : path}`, 'utf8');
    } catch {
      return {};
    }
    const hashes = [...html.matchAll(/<script\b(?![^>]*\bsrc=)[^>]*>([^]*?)<\/script>/g)]
      .map(([, body]) => `'sha256-${createHash('sha256').update(body).digest('base64')}'`);
    return {
      'content-security-policy': `default-src 'none'; script-src 'self' 'wasm-unsafe-eval' ${hashes.join(' ')}; style-src 'self' ${styles.join(' ')}; `
        + "style-src-attr 'unsafe-inline'; img-src 'self' data:; font-src 'self'; connect-src 'self'; worker-src 'self'; frame-src 'self'; base-uri 'none'; form-action 'none'",
    };
  };
}

/** Errors, and policy violations in every frame of `page` (each frame listens for itself). */
export function watch(page) {
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(`${m.text()}${m.location()?.url ? ` (${m.location().url})` : ''}`); });
  page.on('response', (r) => { if (r.status() >= 400) errors.push(`${r.status()} ${r.url()}`); });
  // The labs' clocks at the tests' pace: the tours walk to the very same steps sooner.
  page.addInitScript(PACED);
  page.addInitScript(() => {
    window.__violations = [];
    document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  return {
    errors,
    violations: async () => (await Promise.all(page.frames().map((f) => f.evaluate(() => window.__violations ?? []).catch(() => [])))).flat(),
  };
}

/**
 * In the page: what a reader sees of the lab of `road` ({id} of an element, or {frame}: an
 * iframe's selector) at this moment. Points are hit-tested from the top document down through
 * shadow roots and same-origin frames, so a sticky header or the frame's edge counts.
 */
function probe(road) {
  const full = road.full !== false;
  const frame = road.frame ? document.querySelector(road.frame) : null;
  // The lab's host: the element of the id, or (the README's snippets have no id; the page wraps
  // one in a <div id>) the first lab host inside it.
  const host = frame ? null : document.getElementById(road.id);
  const root = frame ? frame.contentDocument
    : host?.shadowRoot ?? host?.querySelector('[data-kube-bootstrap-lab-mount], kube-bootstrap-lab')?.shadowRoot;
  if (!root) return null;
  const fr = frame?.getBoundingClientRect();
  const off = frame ? { x: fr.left + frame.clientLeft, y: fr.top + frame.clientTop, w: frame.clientWidth, h: frame.clientHeight } : { x: 0, y: 0, w: Infinity, h: Infinity };
  const deepHit = (x, y) => {
    let el = document.elementFromPoint(x, y);
    for (let depth = 0; el && depth < 10; depth++) {
      if (el.shadowRoot) {
        const inner = el.shadowRoot.elementFromPoint(x, y);
        if (inner && inner !== el) { el = inner; continue; }
      }
      if (el.tagName === 'IFRAME' && el.contentDocument) {
        const r = el.getBoundingClientRect();
        [x, y] = [x - r.left - el.clientLeft, y - r.top - el.clientTop];
        el = el.contentDocument.elementFromPoint(x, y);
        continue;
      }
      break;
    }
    return el;
  };
  /** Whether the point (x, y) of the lab's own viewport shows `el` to the reader. */
  const sees = (el, x, y) => {
    if (x < 0 || y < 0 || x >= off.w || y >= off.h) return false;
    const [X, Y] = [x + off.x, y + off.y];
    if (X < 0 || Y < 0 || X >= innerWidth || Y >= innerHeight) return false;
    const hit = deepHit(X, Y);
    return !!hit && (hit === el || el.contains(hit));
  };
  const button = root.querySelector('#tour-next') ?? root.querySelector('.tour-buttons .primary');
  const b = button?.getBoundingClientRect();
  const describe = (el) => (el ? `<${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${el.classList.length ? `.${[...el.classList].join('.')}` : ''}>` : 'nothing');
  const next = b && b.width > 0 ? { seen: sees(button, b.left + b.width / 2, b.top + b.height / 2), x: b.left + b.width / 2 + off.x, y: b.top + b.height / 2 + off.y } : null;
  // What is there instead, for the report: the viewport's edge or what covers it.
  if (next && !next.seen) next.why = next.y < 0 || next.y >= innerHeight || (frame && (next.y < off.y || next.y >= off.y + off.h)) ? `off screen at y ${Math.round(next.y)}` : `under ${describe(deepHit(next.x, next.y))} at y ${Math.round(next.y)}`;
  const spots = !full ? [] : [...root.querySelectorAll('.tour-spot')].map((el) => {
    const r = el.getBoundingClientRect();
    let clear = 0;
    for (let i = 0; i < 8; i++) for (let j = 0; j < 8; j++) if (r.width > 0 && sees(el, r.left + ((i + 0.5) * r.width) / 8, r.top + ((j + 0.5) * r.height) / 8)) clear += 1;
    return { spot: el.dataset.tourSpot ?? el.className, clear: clear / 64, at: `${Math.round(r.top)}–${Math.round(r.bottom)}` };
  });
  // Play under the header, at a step that points at the time controls (the reveal brought them
  // out): a part of it is on the screen (within the viewport's rows), and some point of that part
  // hits something else (a sticky header over it). Scrolled away entirely, it is not. At other
  // steps the controls are where the reader's scrolling left them, as on the lab's own page.
  const play = root.querySelector('.controls button[aria-pressed]')?.closest('.tour-spot') ? root.querySelector('.controls button[aria-pressed]') : null;
  const p = play?.getBoundingClientRect();
  let [shown, hidden] = [0, 0];
  for (let i = 0; p && p.width > 0 && i < 4; i++) {
    for (let j = 0; j < 4; j++) {
      const [x, y] = [p.left + ((i + 0.5) * p.width) / 4, p.top + ((j + 0.5) * p.height) / 4];
      if (y + off.y < 0 || y + off.y >= innerHeight || y < 0 || y >= off.h) continue;
      if (sees(play, x, y)) shown += 1; else hidden += 1;
    }
  }
  const lab = root.querySelector('.lab');
  return {
    progress: root.querySelector('#tour-progress')?.textContent ?? null,
    clock: root.querySelector('.controls .clock')?.textContent ?? null,
    title: root.querySelector('.tour h2')?.textContent ?? null,
    moving: !!lab?.dataset.moving,
    theme: lab?.dataset.theme ?? null,
    background: lab ? getComputedStyle(lab).backgroundColor : null,
    next,
    spots,
    playCovered: hidden > 0 ? `${hidden} of ${shown + hidden} points covered` : null,
    scroll: [scrollY, frame?.contentWindow.scrollY ?? 0],
    // For a report: the lab's viewport, its docked strip and the room the lab gave the strip.
    where: `viewport ${Math.round(off.h === Infinity ? innerHeight : off.h)} px, strip ${(() => {
      const r = root.querySelector('.stage-row > .tour')?.getBoundingClientRect();
      return r ? `${Math.round(r.top)}–${Math.round(r.bottom)}` : 'none';
    })()}, --tour-room ${lab?.style.getPropertyValue('--tour-room') || 'unset'}`,
    // Where the step's parts and the frame are: the stage may still fit its rows (and the lab
    // reveal the parts again) after the scrolling stopped, on a loaded machine.
    layout: [fr?.height, ...[...root.querySelectorAll('.tour-spot, .tour')].map((el) => {
      const r = el.getBoundingClientRect();
      return [r.top, r.height].map(Math.round);
    })],
  };
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Waits until the lab of `road` shows `want` as its progress, not moving, and nothing scrolls
 *  or moves for a quarter of a second (the lab's reveal is over); the probe then, or null after
 *  `ms`. */
async function settled(page, road, want, ms = 30000) {
  const end = Date.now() + ms;
  let [last, still] = ['', 0];
  while (Date.now() < end) {
    const m = await page.evaluate(probe, { ...road, full: false }).catch(() => null);
    const key = JSON.stringify([m?.scroll, m?.layout]);
    still = m && m.progress === want && !m.moving && key === last ? still + 1 : 0;
    last = key;
    if (still >= 5) return page.evaluate(probe, road);
    await sleep(50);
  }
  return null;
}

/** In the page: the height of what covers the top of the viewport above `el` (the page's
 *  scroll-padding-top, or sticky and fixed bars stacked from the top edge: a header, sticky tabs
 *  under it as Material's, a local nav under those as VitePress's on a phone, an invisible sticky
 *  hover zone as mdBook's), in px: what frame-height.js leaves to a frame and the lab's reveal
 *  leaves to a step's parts, found the same way. Down the top edge at the lab's middle: the lowest
 *  bottom of the fixed or sticky elements that cover that row (not holding `el`, and ending above
 *  the viewport's middle: a bar, not a sidebar), then again just below it, until nothing covers. */
function topInset(sel) {
  const target = document.querySelector(sel);
  let inset = parseFloat(getComputedStyle(document.documentElement).scrollPaddingTop) || 0;
  const r = target.getBoundingClientRect();
  const x = Math.min(Math.max(r.left + r.width / 2, 0), innerWidth - 1);
  const barAt = (y) => {
    let bottom = 0;
    for (let el of document.elementsFromPoint(x, y)) {
      for (; el && el !== document.body && el !== document.documentElement; el = el.parentElement) {
        const position = getComputedStyle(el).position;
        if (position !== 'fixed' && position !== 'sticky') continue;
        const b = el.getBoundingClientRect().bottom;
        if (!el.contains(target) && b > y && b < innerHeight / 2) bottom = Math.max(bottom, b);
        break;
      }
    }
    return bottom;
  };
  for (let y = 1, bar; y < innerHeight / 2 && (bar = barAt(y)); y = bar + 1) inset = Math.max(inset, bar);
  return Math.max(0, inset);
}

/** Scrolls the page, as a reader would, until the top of the lab of `road` is just under what
 *  covers the top of the viewport, and stays there while the labs above it grow. Once there, the
 *  lab may scroll on by itself to bring a step's parts out (src/ui/reveal.rs): a reader does not
 *  scroll back against it, and neither does this. */
async function scrollTo(page, road) {
  const sel = road.frame ?? `#${road.id}`;
  for (let i = 0; i < 20; i++) {
    const off = await page.evaluate(([sel, topInset, first]) => {
      const inset = new Function(`return (${topInset})`)()(sel);
      const top = document.querySelector(sel).getBoundingClientRect().top;
      // Below its place (what is above it grew): back to it. Above it: the lab moved on.
      if (first || top - inset > 1) window.scrollTo(0, scrollY + top - inset);
      return Math.round(top - inset);
    }, [sel, topInset.toString(), i === 0]);
    if (off <= 1 && i > 0) return;
    await sleep(200);
  }
}

/** Darkness of a CSS colour: its relative luminance. */
const luminance = (css) => {
  const [r, g, b] = (css?.match(/[\d.]+/g) ?? [255, 255, 255]).map(Number).map((c) => c / 255);
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
};

/**
 * Takes the tour of `road` from its first step to its last, clicking Next with the mouse where
 * it is on the screen (a covered Next is clicked by the locator instead, and counted). `onStep(i,
 * m)` runs at each settled step. Returns what it measured.
 */
async function takeTour(page, road, n, onStep = async () => {}) {
  const out = { reached: 0, hidden: [], worst: { clear: 1, where: '' }, playCovered: [] };
  for (let i = 0; i < n; i++) {
    const m = await settled(page, road, `Step ${i + 1} of ${n}`);
    if (!m) {
      const now = await page.evaluate(probe, road).catch(() => null);
      console.log(`     stuck before step ${i + 1} of ${n}: ${now?.progress}${now?.moving ? ' (moving)' : ''}`);
      return out;
    }
    out.reached = i + 1;
    for (const s of m.spots) {
      if (s.clear < out.worst.clear) out.worst = { clear: s.clear, where: `step ${i + 1}: ${s.spot}${s.clear < MIN_CLEAR ? ` at ${s.at}; ${m.where}` : ''}` };
    }
    if (m.playCovered) out.playCovered.push(`${i + 1} (${m.playCovered})`);
    if (!m.next?.seen) out.hidden.push(`${i + 1}${m.next?.why ? ` (${m.next.why})` : ''}`);
    await onStep(i, m);
    if (i + 1 === n) break;
    if (m.next?.seen) await page.mouse.click(m.next.x, m.next.y);
    else await (road.frame ? page.frameLocator(road.frame).first() : page.locator(`#${road.id}`)).locator('#tour-next').first().click();
  }
  return out;
}

/** The checks of one tour taken in one road and view. */
function report(tag, road, n, t) {
  check(t.reached === n, `${tag}: the ${road} tour reaches its last step (${t.reached} of ${n})`);
  check(t.hidden.length === 0, `${tag}: the ${road}'s Next is on the screen and not covered at every step${t.hidden.length ? ` (not at steps ${t.hidden.join(', ')} of ${n})` : ''}`);
  check(t.worst.clear >= MIN_CLEAR, `${tag}: the ${road}'s highlighted parts are at least ${MIN_CLEAR} clear at every step (worst ${t.worst.clear.toFixed(2)}${t.worst.where ? `, ${t.worst.where}` : ''})`);
  check(t.playCovered.length === 0, `${tag}: the ${road}'s Play is never under the site's header${t.playCovered.length ? ` (it is at steps ${t.playCovered.join(', ')})` : ''}`);
}

/** Waits until the lab of `road` shows a tour titled `title` (a trainer's); its probe, or null. */
async function titled(page, road, title, ms = 30000) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    const m = await page.evaluate(probe, road).catch(() => null);
    if (m?.title?.includes(title)) return m;
    await sleep(100);
  }
  return page.evaluate(probe, road).catch(() => null);
}

/** The site's colour-mode switch (`dark.toggle`), clicked until the page is dark by the site's own
 *  mark (`dark.isDark`: a selector that matches then, or a function run in the page; by default
 *  Docusaurus's `data-theme="dark"` on <html>); a switch may pass by "system" first. */
async function goDark(page, dark) {
  const { toggle, isDark = 'html[data-theme=dark]' } = dark;
  const wait = typeof isDark === 'function'
    ? () => page.waitForFunction(isDark, null, { timeout: 2000 })
    : () => page.waitForSelector(isDark, { state: 'attached', timeout: 2000 });
  for (let i = 0; i < 3; i++) {
    await page.locator(toggle).first().click();
    if (await wait().then(() => true, () => false)) return true;
  }
  return false;
}

/** One site, one view: every road, then errors and violations. */
async function driveView(browser, site, server, view) {
  const context = await browser.newContext({ ...view.context, reducedMotion: 'reduce' });
  const page = await context.newPage();
  const seen = watch(page);
  const tag = `${site.name} (${view.name} px)`;
  const { element, sandbox, trainer, inline, iframe } = site.roads;
  const wide = view.name === '1280';
  const mountedRoad = async () => {
    // mount() where the site has a recipe for it (a script of the site's own, or the declarative
    // mount: a div that embed.js finds), at 1280 px, and at 390 px where the site's road says
    // `phone`: on the 390 px phone, mdBook's menu bar that hides and comes back as the page
    // scrolls left a tall part (etcd at step 3 of lease-crash-vs-stop) 0.88 clear in one run of four.
    if (site.roads.mounted && (wide || site.roads.mounted.phone)) {
      const mounted = site.roads.mounted;
      await page.locator(`#${mounted.id}`).locator(RENDERED).waitFor({ timeout: 30000 });
      await scrollTo(page, mounted);
      const nm = steps(mounted.tour);
      report(tag, mounted.what ?? 'mount()', nm, await takeTour(page, mounted, nm, async (i) => {
        if (i === 0 || i === 2) await page.screenshot({ path: `${ARTIFACTS}/docsite-${site.name.toLowerCase()}-${view.name}-mount-s${i + 1}.png` });
      }));
    }
  };
  try {
    const response = await page.goto(`${server.url}${site.page}`);
    if (wide) check(!!response.headers()['content-security-policy'], `${tag}: the page is served under a Content-Security-Policy`);
    const el = page.locator(`#${element.id}`);
    await el.locator(RENDERED).waitFor({ timeout: 30000 });
    if (wide) check(!await el.locator('.kube-bootstrap-lab-fallback').isVisible(), `${tag}: the element's fallback is hidden once the lab renders`);

    // The element, its tour; with a dark switch, the reader turns it at step 3.
    await scrollTo(page, element);
    const n = steps(element.tour);
    let dark = null;
    const started = Date.now();
    const t = await takeTour(page, element, n, async (i, m) => {
      if (i === 2 && (i + 1) < n) await page.screenshot({ path: `${ARTIFACTS}/docsite-${site.name.toLowerCase()}-${view.name}-element-s${i + 1}.png` });
      if (!(site.dark && wide && i === 2)) return;
      const before = m;
      const darkPage = await goDark(page, site.dark);
      const end = Date.now() + 5000;
      let after = await page.evaluate(probe, element);
      while (Date.now() < end && !(after?.theme === 'dark' && luminance(after.background) < 0.5)) {
        await sleep(100);
        after = await page.evaluate(probe, element);
      }
      after = await settled(page, element, `Step ${i + 1} of ${n}`, 5000) ?? await page.evaluate(probe, element);
      dark = { darkPage, before, after };
      await page.screenshot({ path: `${ARTIFACTS}/docsite-${site.name.toLowerCase()}-${view.name}-dark.png` });
    });
    console.log(`     ${tag}: the element's tour took ${((Date.now() - started) / 1000).toFixed(0)} s`);
    report(tag, 'element', n, t);
    if (dark) {
      const { darkPage, before, after } = dark;
      check(darkPage && after?.theme === 'dark' && luminance(after.background) < 0.5,
        `${tag}: the site's dark switch turns the element's lab dark (page dark: ${darkPage}; the lab's data-theme ${after?.theme}, background ${after?.background})`);
      check(after?.progress === before.progress && after?.clock === before.clock,
        `${tag}: and the reader stays where they were (${before.progress} at ${before.clock} before the switch, ${after?.progress} at ${after?.clock} after)`);
    }

    if (!site.readmePage) await mountedRoad();

    // A trainer's tour by tour-src, and one written in the page: their titles show; the trainer's plays a step on.
    await scrollTo(page, trainer);
    const tm = await titled(page, trainer, TRAINER.title);
    check(!!tm?.title?.includes(TRAINER.title), `${tag}: the trainer's tour (tour-src) plays: its title shows (${tm?.title})`);
    if (inline) {
      await scrollTo(page, inline);
      const im = await titled(page, inline, INLINE.title);
      check(!!im?.title?.includes(INLINE.title) && im.progress === `Step 1 of ${INLINE.tour.steps.length}`,
        `${tag}: the tour written in the page plays: its title shows (${im?.title}, ${im?.progress})`);
    }

    // The sandbox: its form creates what is typed, in that element.
    if (wide) {
      const box = page.locator(`#${sandbox.id}`);
      await box.scrollIntoViewIfNeeded();
      await box.getByLabel('Service name', { exact: true }).fill('docs-svc');
      await box.getByRole('button', { name: 'Create Service', exact: true }).click();
      const created = await box.locator('tr', { hasText: 'default/docs-svc' }).waitFor({ timeout: 10000 }).then(() => true, () => false);
      check(created, `${tag}: Create Service inside the element creates the typed name (default/docs-svc)`);
    }

    // The iframe: its tour, then its height.
    await page.locator(iframe.frame).first().scrollIntoViewIfNeeded();
    await page.frameLocator(iframe.frame).first().locator('#tour-progress').waitFor({ timeout: 30000 });
    await scrollTo(page, iframe);
    if (iframe.title) {
      const fm = await titled(page, iframe, iframe.title);
      check(!!fm?.title?.includes(iframe.title), `${tag}: the iframe plays the trainer's tour (tour-src relative to the page): its title shows (${fm?.title})`);
    }
    const fn = iframe.steps ?? steps(iframe.tour);
    const ft = await takeTour(page, iframe, fn, async (i) => {
      if (i === 2) await page.screenshot({ path: `${ARTIFACTS}/docsite-${site.name.toLowerCase()}-${view.name}-iframe-s${i + 1}.png` });
    });
    report(tag, 'iframe', fn, ft);
    if (wide) {
      // Its content, or capped at the viewport less what covers its top while the tour docks its card.
      const size = () => page.evaluate(([sel, topInset]) => {
        const f = document.querySelector(sel);
        const cap = Math.max(innerHeight - new Function(`return (${topInset})`)()(sel), Math.min(innerHeight, 320));
        return { frame: parseFloat(f.style.height), content: f.contentDocument?.documentElement.scrollHeight, cap: Math.round(cap) };
      }, [iframe.frame, topInset.toString()]);
      const fits = ({ frame, content, cap }) => content > 700 && (Math.abs(frame - content) <= 2 || (content > cap && Math.abs(frame - cap) <= 2));
      let s = await size();
      for (let end = Date.now() + 10000; !fits(s) && Date.now() < end; s = await size()) await sleep(200);
      check(fits(s), `${tag}: frame-height.js sizes the iframe to its content, or to the viewport less the header while the tour docks (frame ${s.frame}px, content ${s.content}px, cap ${s.cap}px)`);
    }
    // A site whose lab page cannot take the README's snippets has them, and the mounted road,
    // on a page of their own (readmePage), driven last.
    if (site.readmePage) {
      await page.goto(`${server.url}${site.readmePage}`);
      await mountedRoad();
    }
    // The README's snippets pasted as they are into the site's Markdown: each renders its lab
    // (the element and the declared mount in their shadow root, the iframe in its page).
    if (site.roads.readme) {
      const { element: re, mount: rm, iframe: rf } = site.roads.readme;
      for (const [what, id] of [['element', re], ['declared mount', rm]]) {
        const lab = page.locator(`#${id}`).locator(what === 'element' ? 'kube-bootstrap-lab' : '[data-kube-bootstrap-lab-mount]').first();
        await lab.scrollIntoViewIfNeeded().catch(() => {});
        const ok = await page.waitForFunction((sel) => !!document.querySelector(sel)?.shadowRoot?.querySelector('.kube-bootstrap-lab-app > .lab'),
          `#${id} ${what === 'element' ? 'kube-bootstrap-lab' : '[data-kube-bootstrap-lab-mount]'}`, { timeout: 30000 }).then(() => true, () => false);
        check(ok, `${tag}: the README's ${what} snippet, pasted verbatim, renders its lab (.kube-bootstrap-lab-app > .lab in its shadow root)`);
      }
      const frame = page.locator(`#${rf} iframe[data-kube-bootstrap-lab]`);
      await frame.scrollIntoViewIfNeeded().catch(() => {});
      const ok = await page.frameLocator(`#${rf} iframe[data-kube-bootstrap-lab]`).locator(RENDERED_PAGE).waitFor({ timeout: 30000 }).then(() => true, () => false);
      const link = await page.locator(`#${rf} iframe ~ p a[target=_blank]`).isVisible().catch(() => false);
      check(ok && link, `${tag}: the README's iframe snippet, pasted verbatim, renders its lab in the frame (${ok}), its link under it (${link})`);
      if (!wide) await page.screenshot({ path: `${ARTIFACTS}/docsite-${site.name.toLowerCase()}-${view.name}-readme-iframe.png` });
    }
    const violations = await seen.violations();
    check(violations.length === 0, `${tag}: no Content-Security-Policy violation ${violations.join('; ')}`);
    check(seen.errors.length === 0, `${tag}: no console or page error ${seen.errors.join('; ')}`);
  } finally {
    await context.close();
  }
}

/** The site's component when embed.js itself cannot load (a 404): it says so in the lab's
 *  place, naming the file, beside the fallback and its link. */
async function failedLoad(browser, site, server) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const tag = `${site.name}: embed.js answering 404`;
  try {
    await page.route('**/kube-bootstrap-lab/embed.js', (route) => route.fulfill({ status: 404, body: 'not found' }));
    await page.goto(`${server.url}${site.page}`);
    const el = page.locator(`#${site.roads.element.id}`);
    const told = el.locator('.kube-bootstrap-lab-failure[role=alert]');
    const said = await told.waitFor({ timeout: 20000 }).then(() => told.textContent(), () => null);
    const link = await el.locator('a[target=_blank]').first().isVisible().catch(() => false);
    check(!!said?.includes('embed.js') && link, `${tag}: the component says the lab could not be loaded (${said?.slice(0, 80)}…), its fallback link shown (${link})`);
  } finally {
    await context.close();
  }
}

/** A site's page, in each view. */
export async function driveSite(browser, site) {
  const server = await serve(site.root, { headers: policy(site.root, site.styles), port: site.port ?? 0 });
  try {
    for (const view of VIEWS) await driveView(browser, site, server, view);
    if (site.failure) await failedLoad(browser, site, server);
  } finally {
    server.close();
  }
}
