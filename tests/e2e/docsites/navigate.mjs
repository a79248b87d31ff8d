// Client-side navigation in the docs sites of tests/e2e/docsites.mjs that have it (Material's
// instant navigation, VitePress's router, Docusaurus's): the reader opens the site's home page
// and clicks the site's own link to the lab page, which the site swaps in without loading a page;
// every road renders there (the elements, the declarative mount, the iframe's lab), one lab per
// host. Back takes the labs away, Forward brings them back; then 20 more navigations back and
// forth leave one lab per host, and the page's JavaScript heap and the lab's wasm memory are
// reported. No console or page error, no policy violation. At 1280×800, under the site's policy.
import { serve } from '../serve.mjs';
import { ARTIFACTS, RENDERED, RENDERED_PAGE, check } from '../harness.mjs';
import { policy, watch } from './drive.mjs';

const ROUND_TRIPS = 10;

/** In the page: the labs of the document, by host (`.kube-bootstrap-lab-app` in its shadow root
 *  or in itself; null: no such host), in all (through every shadow root), and the lab iframes. */
function census(ids) {
  const APP = '.kube-bootstrap-lab-app';
  const deep = (root) => [...root.querySelectorAll('*')].reduce((n, el) => n + (el.shadowRoot ? deep(el.shadowRoot) : 0), root.querySelectorAll(APP).length);
  const hosts = Object.fromEntries(ids.map((id) => {
    // The id's element, or the lab host inside it (the README's snippets are wrapped in a <div id>).
    const byId = document.getElementById(id);
    const el = byId && !byId.shadowRoot ? byId.querySelector('[data-kube-bootstrap-lab-mount], kube-bootstrap-lab') ?? byId : byId;
    return [id, el ? (el.shadowRoot?.querySelectorAll(APP).length ?? 0) + el.querySelectorAll(APP).length : null];
  }));
  return { hosts, total: deep(document), frames: document.querySelectorAll('iframe[data-kube-bootstrap-lab]').length };
}

/** One lab per host, none elsewhere, the page's lab iframes (one, or two with the README's). */
let FRAMES = 1;
const onePerHost = (c, ids) => ids.every((id) => c.hosts[id] === 1) && c.total === ids.length && c.frames === FRAMES;

/** In the page: the JavaScript heap is measured by CDP; this reads the lab's wasm memory (the
 *  module's exports, which its init returns again once initialised), in bytes, or null. */
async function wasmMemory() {
  const url = performance.getEntriesByType('resource').map((e) => e.name).find((n) => /\/kube-bootstrap-lab\.js(\?|$)/.test(n));
  if (!url) return null;
  const m = await import(url);
  const exports = typeof m.default === 'function' ? await m.default() : null;
  return exports?.memory?.buffer.byteLength ?? null;
}

/** The heap after a garbage collection, and the wasm memory, in MB. */
async function memory(page, cdp) {
  await cdp.send('HeapProfiler.collectGarbage');
  const { usedSize } = await cdp.send('Runtime.getHeapUsage');
  const wasm = await page.evaluate(wasmMemory).catch(() => null);
  const mb = (n) => (n == null ? '?' : (n / 2 ** 20).toFixed(1));
  return { heap: usedSize, wasm, text: `JS heap ${mb(usedSize)} MB, wasm memory ${mb(wasm)} MB` };
}

/** Waits until the lab page's roads have rendered (the iframe's once scrolled to: it loads
 *  lazily); then what is in the document. */
async function rendered(page, site, ids, frame = true) {
  for (const id of ids) await page.locator(`#${id}`).locator(RENDERED).first().waitFor({ timeout: 30000 });
  if (frame) {
    const { iframe } = site.roads;
    await page.locator(iframe.frame).first().scrollIntoViewIfNeeded();
    await page.frameLocator(iframe.frame).first().locator(RENDERED_PAGE).waitFor({ timeout: 30000 });
  }
  return page.evaluate(census, ids);
}

/** Waits for the pathname `path` and for what marks its page: the lab page's hosts there, or gone. */
async function at(page, path, ids, lab) {
  await page.waitForURL((u) => u.pathname === path, { timeout: 30000 });
  await page.waitForFunction(([ids, lab]) => ids.every((id) => !!document.getElementById(id) === lab), [ids, lab], { timeout: 30000 });
}

/** The site's home page, its link to the lab page, Back and Forward, and 20 more navigations. */
export async function navigateSite(browser, site) {
  const server = await serve(site.root, { headers: policy(site.root, site.styles), port: site.port ?? 0 });
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, reducedMotion: 'reduce' });
  const page = await context.newPage();
  const seen = watch(page);
  const tag = `${site.name}, client-side navigation`;
  // The README's snippets count where they are on the lab page (not on a page of their own).
  const readme = site.readmePage ? null : site.roads.readme;
  const ids = [...new Set([...Object.values(site.roads).filter((r) => r.id && !(site.readmePage && r === site.roads.mounted)).map((r) => r.id), ...(readme ? [readme.element, readme.mount] : [])])];
  FRAMES = readme && !site.roads.iframe.frame.includes(`#${readme.iframe}`) ? 2 : 1;
  const [home, lab] = [`/${site.nav.index}`, `/${site.page}`];
  // A mark of this document: gone if the site loaded a page instead of swapping one in.
  const stayed = () => page.evaluate(() => window.__docsiteMark === 'home').catch(() => false);
  try {
    await page.goto(`${server.url}${site.nav.index}`);
    await page.evaluate(() => { window.__docsiteMark = 'home'; });
    await page.locator(site.nav.link).first().click();
    await at(page, lab, ids, true);
    let c = await rendered(page, site, ids);
    check(await stayed(), `${tag}: the home page's link opens the lab page without loading a page (${page.url()})`);
    check(onePerHost(c, ids), `${tag}: every road renders, one lab per host (${JSON.stringify(c)})`);
    await page.screenshot({ path: `${ARTIFACTS}/docsite-${site.name.toLowerCase()}-navigated.png` });
    const cdp = await context.newCDPSession(page);
    const first = await memory(page, cdp);

    await page.goBack();
    await at(page, home, ids, false);
    c = await page.evaluate(census, ids);
    check(c.total === 0 && c.frames === 0, `${tag}: Back to the home page leaves no lab in the document (${JSON.stringify(c)})`);
    await page.goForward();
    await at(page, lab, ids, true);
    c = await rendered(page, site, ids);
    check(await stayed() && onePerHost(c, ids), `${tag}: Forward to the lab page again, without loading a page: every road renders, one lab per host (${JSON.stringify(c)})`);

    // Back and forth: at each arrival on the lab page, its labs render and none is doubled.
    const doubled = [];
    for (let i = 0; i < ROUND_TRIPS; i++) {
      await page.goBack();
      await at(page, home, ids, false);
      await page.goForward();
      await at(page, lab, ids, true);
      c = await rendered(page, site, ids, false);
      if (!ids.every((id) => c.hosts[id] === 1) || c.total !== ids.length) doubled.push(`${2 * i + 2}: ${JSON.stringify(c)}`);
    }
    c = await rendered(page, site, ids);
    check(doubled.length === 0 && onePerHost(c, ids) && await stayed(),
      `${tag}: after ${2 * ROUND_TRIPS} more navigations back and forth, one lab per host (${JSON.stringify(c)}${doubled.length ? `; not at navigations ${doubled.join(', ')}` : ''})`);
    const last = await memory(page, cdp);
    console.log(`     ${tag}: after the first arrival ${first.text}; after ${2 * ROUND_TRIPS + 2} more navigations ${last.text}`);
    const violations = await seen.violations();
    check(violations.length === 0, `${tag}: no Content-Security-Policy violation ${violations.join('; ')}`);
    check(seen.errors.length === 0, `${tag}: no console or page error ${seen.errors.join('; ')}`);
  } finally {
    await context.close();
    server.close();
  }
}
