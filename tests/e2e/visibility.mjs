// End-to-end, what a reader of a tour can see: for every step of every tour, in English and
// Chinese, on a 1280×720 desktop, a 390×844 phone and in the 750 px column of a docs page (the
// lab as a <kube-bootstrap-lab> element and as mount(), under the page's sticky navbar), the share of each highlighted part
// (class tour-spot) that is in the viewport and not covered (an 8×8 grid of points whose
// elementFromPoint is the part or inside it), and whether Next (or the last step's primary
// button) can be seen and clicked. Both must be at least 0.9 / true. It prints the worst share
// per tour and view, and the smallest stage text on the phone (at least 11 px). Each step's
// narration can be read whole on the phone: shown whole (none of its lines clamped, scrolled away
// in the card or out of the viewport), or every line shown by one of the parts its pager turns to
// (the other views print their least share). No etcd key,
// value or address may run out of its box, and the page is never wider than its viewport.
// Steps are instant with reduced motion; one page per tour, language and view, stepped with Next.
// Usage: node tests/e2e/visibility.mjs   (after `trunk build --release`)
import { chromium } from 'playwright-core';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from './serve.mjs';
import { ARTIFACTS, CHROMIUM, DIST, PACED, ROOT, SHARES, atStep, check, finish, loadTours, settle } from './harness.mjs';

const MIN_CLEAR = 0.9;
const MIN_TEXT_PX = 11;
const LANGS = ['en', 'zh'];
const SHOTS = { 'kubernetes-service': [0, 2], 'lease-crash-vs-stop': [2], story: [1, 3] };

// TOURS=story,lease-crash-vs-stop and VIEWS=phone,desktop narrow it down.
const tours = (await loadTours()).filter((t) => !process.env.TOURS || process.env.TOURS.split(',').includes(t.name));

/** A docs page: a fixed 300 px sidebar, a sticky 60 px navbar (as Docusaurus's and hugo-book's
 *  headers stick), prose in a 750 px column, the lab in between. */
function hostPage(labUrl) {
  const prose = (n) => Array.from({ length: n }, (_, i) => `<p>Paragraph ${i + 1}. Every cluster has a
    <code>default/kubernetes</code> Service that no manifest defines; each kube-apiserver keeps its
    Endpoints equal to the apiservers that hold an unexpired lease in etcd.</p>`).join('\n');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Host</title>
<style>
  body { margin: 0; font: 16px/1.6 Georgia, serif; color: #222; }
  nav.sidebar { position: fixed; top: 0; bottom: 0; left: 0; width: 300px; overflow-y: auto; background: #fafafa; border-right: 1px solid #ddd; }
  .page-wrapper { margin-left: 300px; }
  .content { padding: 0 15px; }
  .content main { max-width: 750px; margin: 0 auto; }
  header.navbar { position: sticky; top: 0; z-index: 10; height: 60px; background: #242526; color: #fff; }
</style>
<script type="module">
  import { mount } from ${JSON.stringify(`${labUrl}embed.js`)};
  const q = new URLSearchParams(location.search);
  const slot = document.getElementById('slot');
  if (q.get('embed') === 'element') {
    const el = document.createElement('kube-bootstrap-lab');
    el.setAttribute('tour', q.get('tour'));
    el.setAttribute('lang', q.get('lang'));
    slot.append(el);
  } else {
    window.lab = await mount(slot, { tour: q.get('tour'), lang: q.get('lang') });
  }
</script></head><body>
<nav class="sidebar"><ol><li>1. Services</li><li>2. Endpoints</li><li>3. The Service nobody wrote</li></ol></nav>
<div class="page-wrapper"><header class="navbar">Kubernetes training</header><div class="page"><div class="content"><main>
<h1>Chapter 3. The Service nobody wrote</h1>
${prose(3)}
<div id="slot"></div>
${prose(4)}
</main></div></div></div></body></html>`;
}

const VIEWS = [
  { name: 'desktop', context: { viewport: { width: 1280, height: 720 } } },
  { name: 'phone', context: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 3 } },
  { name: 'column-element', host: 'element', context: { viewport: { width: 1280, height: 800 } } },
  { name: 'column-mount', host: 'mount', context: { viewport: { width: 1280, height: 800 } } },
];

/** In the page: the clear share of each highlighted part, and whether Next can be clicked. */
function measure() {
  /** In the page: stage texts that do not fit their box (an etcd row, a chip) or run into each other. */
  function cutTexts(root) {
    const cut = [];
    const within = (t, box) => t.left >= box.left - 1 && t.right <= box.right + 1;
    for (const row of root.querySelectorAll('.stage g.row')) {
      const box = row.querySelector('rect.frame').getBoundingClientRect();
      const [key, detail] = [row.querySelector('text.key'), row.querySelector('text.detail')].map((t) => t.getBoundingClientRect());
      const sameLine = Math.abs(key.top - detail.top) < 2;
      if (!within(key, box) || !within(detail, box) || (sameLine && key.right > detail.left + 1)) cut.push(row.getAttribute('aria-label'));
    }
    for (const chip of root.querySelectorAll('.stage g.chip')) {
      if (!within(chip.querySelector('text').getBoundingClientRect(), chip.querySelector('rect').getBoundingClientRect())) cut.push(chip.textContent);
    }
    return cut;
  }
  const root = window.__labRoot();
  const [vw, vh] = [innerWidth, innerHeight];
  const inside = (el, hit) => hit && (hit === el || el.contains(hit));
  const parts = window.__spotShares(root);
  const button = root.querySelector('#tour-next') ?? root.querySelector('.tour-buttons .primary');
  const b = button?.getBoundingClientRect();
  const [cx, cy] = b ? [b.left + b.width / 2, b.top + b.height / 2] : [-1, -1];
  const next = !!b && b.width > 0 && cx >= 0 && cy >= 0 && cx < vw && cy < vh && inside(button, root.elementFromPoint(cx, cy));
  return { parts, next, cut: cutTexts(root), width: vw };
}

/** In the page: the lines of the narration a reader sees (px from its top, inside every box that
 *  clips it — its own clamp, the card's scrolling body, the card — and the viewport), of its
 *  height; and the strip's pager when there is one to turn. */
function narrationSeen() {
  const root = window.__labRoot();
  const say = root.querySelector('.tour-say');
  if (!say) return { from: 0, to: 1, full: 1, pager: false };
  let [top, bottom] = [0, innerHeight];
  for (let e = say; e && e.nodeType === 1; e = e.parentElement) {
    if (getComputedStyle(e).overflowY === 'visible' && getComputedStyle(e).clipPath === 'none') continue;
    const r = e.getBoundingClientRect();
    [top, bottom] = [Math.max(top, r.top), Math.min(bottom, r.bottom)];
  }
  const r = say.getBoundingClientRect();
  const full = Math.max(say.scrollHeight, r.height);
  const pager = root.querySelector('.tour-page:not([hidden])');
  return { from: Math.max(0, top - r.top), to: Math.min(full, bottom - r.top), full, pager: !!pager && pager.getClientRects().length > 0 };
}

/** The share of the narration a reader can read at this step: as shown, or turning every part
 *  of it with the strip's pager (which ends back on the first). */
async function narrationShare(page) {
  const seen = [];
  let s = await page.evaluate(narrationSeen);
  seen.push([s.from, s.to]);
  for (let turns = 0; s.pager && turns < 12; turns++) {
    await page.evaluate(() => window.__labRoot().querySelector('.tour-page').click());
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    s = await page.evaluate(narrationSeen);
    if (s.from === seen[0][0] && turns > 0) break;
    seen.push([s.from, s.to]);
  }
  // The union of what each part showed.
  seen.sort((a, b) => a[0] - b[0]);
  let [covered, end] = [0, 0];
  for (const [a, b] of seen) {
    if (b <= end) continue;
    covered += b - Math.max(a, end);
    end = b;
  }
  return Math.min(1, covered / (s.full || 1));
}

/** In the page: the smallest rendered size (CSS px) of the stage's text, and which text it is. */
function smallestStageText() {
  const root = window.__labRoot();
  let min = { px: Infinity, text: '' };
  const consider = (el, px) => { if (px < min.px) min = { px, text: el.textContent.trim().slice(0, 40) }; };
  for (const t of root.querySelectorAll('.stage svg.stage-svg text')) {
    if (!t.textContent.trim() || !t.getBoundingClientRect().width) continue;
    const m = t.getScreenCTM();
    consider(t, parseFloat(getComputedStyle(t).fontSize) * Math.hypot(m.a, m.b));
  }
  for (const el of root.querySelectorAll('.stage-caption li, .stage-caption li *')) {
    const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    if (own && el.getBoundingClientRect().width) consider(el, parseFloat(getComputedStyle(el).fontSize));
  }
  return min;
}

async function tourIn(page, view, urls, tour, lang, figures) {
  const url = view.host ? `${urls.host}host.html?embed=${view.host}&tour=${tour.name}&lang=${lang}` : `${urls.lab}?tour=${tour.name}&lang=${lang}`;
  await page.goto(url);
  await page.waitForFunction(() => window.__labRoot().querySelector('#tour-progress'), null, { timeout: 20000 });
  const n = tour.steps.length;
  let worst = { clear: 1, where: '' };
  let hidden = [];
  const wide = [];
  const cuts = new Set();
  const cutSay = [];
  const noAddresses = [];
  for (let i = 0; i < n; i++) {
    await atStep(page, i, n, lang);
    if (view.host && i === 0) {
      // The reader scrolls down to the lab; the lab takes it from there.
      await page.evaluate(() => window.__labRoot().querySelector('.lab').scrollIntoView({ block: 'start' }));
      await settle(page);
    }
    const m = await page.evaluate(measure);
    for (const p of m.parts) {
      if (p.clear < MIN_CLEAR) console.log(`     ${view.name} ${tour.name} ${lang} step ${i + 1}: ${p.spot} clear ${p.clear.toFixed(2)}`);
      if (p.clear < worst.clear) worst = { clear: p.clear, where: `step ${i + 1}: ${p.spot}` };
    }
    if (!m.next) hidden.push(i + 1);
    // On the phone the Service card's chips are a screen below the rows: a step that names an
    // address and highlights the Endpoints shows the addresses on their row (up to three).
    const say = typeof tour.steps[i].say === 'string' ? tour.steps[i].say : tour.steps[i].say[lang] ?? tour.steps[i].say.en;
    if (view.name === 'phone' && (tour.steps[i].highlight ?? []).includes('endpoints') && /\b\d+\.\d+\.\d+\.\d+\b/.test(say)) {
      const detail = await page.evaluate(() => window.__labRoot().querySelector('.stage g.row.tour-spot[data-key$="/endpoints/default/kubernetes"] text.detail')?.textContent ?? '');
      const listed = /^\d+\.\d+\.\d+\.\d+(, \d+\.\d+\.\d+\.\d+)*$/.test(detail) || Number(detail.match(/\d+/)?.[0]) > 3 || /missing|不存在/.test(detail);
      if (!listed) noAddresses.push(`step ${i + 1}: "${detail}"`);
    }
    const narration = await narrationShare(page);
    if (narration < 0.99) cutSay.push(`step ${i + 1}: ${Math.round(narration * 100)} %`);
    figures.narration[view.name] = Math.min(figures.narration[view.name] ?? 1, narration);
    // Wider than the viewport, a mobile page is shown zoomed out: everything is smaller than set.
    if (m.width > view.context.viewport.width) wide.push(i + 1);
    for (const c of m.cut) cuts.add(`step ${i + 1}: ${c}`);
    if (view.name === 'phone') {
      const t = await page.evaluate(smallestStageText);
      if (t.px < figures.phoneText.px) figures.phoneText = { ...t, where: `${tour.name} ${lang} step ${i + 1}` };
    }
    if (view.name !== 'desktop' && SHOTS[tour.name]?.includes(i)) {
      await page.screenshot({ path: `${ARTIFACTS}/visibility-${view.name}-${tour.name}-${lang}-s${i + 1}.png` });
    }
    if (view.name === 'phone' && tour.name === 'kubernetes-service' && i === 2) {
      // The narration opened: Back and Next stay in view under it.
      await page.evaluate(() => window.__labRoot().querySelector('.tour-more').click());
      await page.screenshot({ path: `${ARTIFACTS}/visibility-phone-${tour.name}-${lang}-s${i + 1}-open.png` });
      check(await page.evaluate(measure).then((o) => o.next), `phone ${tour.name} (${lang}): Next stays clickable with the narration opened`);
      await page.evaluate(() => window.__labRoot().querySelector('.tour-more').click());
    }
    if (i + 1 < n) await page.evaluate(() => window.__labRoot().querySelector('#tour-next').click());
  }
  check(worst.clear >= MIN_CLEAR, `${view.name} ${tour.name} (${lang}): every highlighted part is at least ${MIN_CLEAR} clear (worst ${worst.clear.toFixed(2)}${worst.where ? `, ${worst.where}` : ''})`);
  check(hidden.length === 0, `${view.name} ${tour.name} (${lang}): Next can be seen and clicked at every step${hidden.length ? ` (not at steps ${hidden.join(', ')})` : ''}`);
  if (view.name === 'phone') check(noAddresses.length === 0, `${view.name} ${tour.name} (${lang}): where a step names an address, its highlighted Endpoints row lists the addresses${noAddresses.length ? ` (not at ${noAddresses.join(', ')})` : ''}`);
  // Checked on the phone; the other views print their least share (below).
  if (view.name === 'phone') check(cutSay.length === 0, `${view.name} ${tour.name} (${lang}): every step's narration is shown whole${cutSay.length ? ` (not at ${cutSay.join(', ')})` : ''}`);
  check(wide.length === 0, `${view.name} ${tour.name} (${lang}): the page is never wider than the viewport${wide.length ? ` (it is at steps ${wide.join(', ')})` : ''}`);
  check(cuts.size === 0, `${view.name} ${tour.name} (${lang}): every etcd key, value and address fits its box${cuts.size ? `: ${[...cuts].slice(0, 3).join('; ')}` : ''}`);
  const key = `${tour.name}|${view.name}`;
  figures.worst[key] = Math.min(figures.worst[key] ?? 1, worst.clear);
}

await mkdir(ARTIFACTS, { recursive: true });
const lab = await serve(DIST);
const hostDir = await mkdtemp(join(tmpdir(), 'lab-host-'));
await writeFile(join(hostDir, 'host.html'), hostPage(lab.url));
const host = await serve(hostDir);
const browser = await chromium.launch(CHROMIUM);
const figures = { worst: {}, narration: {}, phoneText: { px: Infinity, text: '' } };
const only = process.env.VIEWS?.split(',');
for (const view of VIEWS.filter((v) => !only || only.includes(v.name))) {
  const context = await browser.newContext({ ...view.context, reducedMotion: 'reduce' });
  await context.addInitScript(ROOT);
  await context.addInitScript(PACED);
  await context.addInitScript(SHARES);
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  for (const tour of tours) {
    for (const lang of LANGS) await tourIn(page, view, { lab: lab.url, host: host.url }, tour, lang, figures);
  }
  check(errors.length === 0, `${view.name}: no page errors ${errors.join('; ')}`);
  await context.close();
}
await browser.close();
lab.close();
host.close();

console.log('\nworst clear share of a highlighted part, per tour and view (both languages):');
const views = VIEWS.filter((v) => !only || only.includes(v.name)).map((v) => v.name);
console.log(`  ${'tour'.padEnd(28)}${views.map((v) => v.padStart(16)).join('')}`);
for (const tour of tours) {
  const cell = (v) => (figures.worst[`${tour.name}|${v}`] ?? NaN).toFixed(2).padStart(16);
  console.log(`  ${tour.name.padEnd(28)}${views.map(cell).join('')}`);
}
for (const [v, share] of Object.entries(figures.narration)) console.log(`least narration shown, ${v}: ${Math.round(share * 100)} %`);
if (figures.phoneText.px < Infinity) {
  const t = figures.phoneText;
  console.log(`smallest stage text on the phone: ${t.px.toFixed(1)} px ("${t.text}", ${t.where})`);
  check(t.px >= MIN_TEXT_PX, `phone: every stage text is at least ${MIN_TEXT_PX} px (smallest ${t.px.toFixed(1)} px)`);
}
finish('visibility');
