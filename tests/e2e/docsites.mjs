// End-to-end, the package in real docs sites (docs/embedding.md "Use it in your docs"): `make dist`'s npm
// tarball, unpacked as a docs site would, into an mdBook book (`tar xzf` into its src/), a Hugo
// site (`npm install` of the tarball, its files copied to static/, its shortcodes to layouts/;
// built with Debian's Hugo and a current one, with a theme styled like hugo-book's), a
// Docusaurus 3 site (classic preset, its packages from tests/e2e/docusaurus/package-lock.json;
// the package's component, its iframe under /training/docs/…), a Material for MkDocs site
// (MkDocs 1.6.1 and mkdocs-material 9.8.2 from the venv scripts/setup.sh makes; the tarball in
// docs/, embed.js by `extra_javascript`, instant navigation, sticky tabs, the palette toggle)
// and a VitePress 1.6.4 site (default theme, its packages from tests/e2e/vitepress/package-lock.json;
// the package's Vue component registered in the theme, embed.js in the head). Each page
// (docsites/*.mjs) is served under a Content-Security-Policy and driven in Chromium at 1280×800 and 390×844
// (docsites/drive.mjs): the element's and the iframe's tours to their last step by Next where
// it is on the screen, mount() or the declarative mount (`data-kube-bootstrap-lab-mount`), a
// trainer's tour by tour-src, a tour written in the page, a form that acts on its own element,
// the site's dark switch (Docusaurus, Material, VitePress), no console error, no policy
// violation. Each site has the README's element, declared mount and iframe snippets pasted into
// its Markdown as they are (common.mjs readme(); Hugo with Goldmark's `unsafe`, Docusaurus on a
// CommonMark page): the site builds (a check), each renders its lab, and the declared mount is
// the mounted road. Where the site navigates client-side (Material, VitePress, Docusaurus;
// docsites/navigate.mjs), its home page's link to the lab page, Back, Forward and 20 more
// navigations: every road renders, one lab per host. And
// pages on another origin made of the README's snippets: with the lab served without CORS (the
// fallback shows), with its wasm answering 404 (fallback and message), and the embeds' heights
// in a 750 px column, at load and after scrolling through; last, unmount() gives the fallback back.
// Those pages come first, while the sites build one after the other in the background; each
// site is driven once built, while the next one builds.
// Usage: node tests/e2e/docsites.mjs   (after `make package`; `make test` does both)
//        E2E_ONLY=sites|failures|heights runs one part;
//        SITES=mdbook,hugo,docusaurus,mkdocs,vitepress some sites.
import { chromium } from 'playwright-core';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from './serve.mjs';
import { ARTIFACTS, CHROMIUM, RENDERED, RENDERED_PAGE, check, finish, frames, steady } from './harness.mjs';
import { PACKAGE } from './docsites/common.mjs';
import { buildBook } from './docsites/mdbook.mjs';
import { buildHugo } from './docsites/hugo.mjs';
import { buildDocusaurus } from './docsites/docusaurus.mjs';
import { buildMkdocs } from './docsites/mkdocs.mjs';
import { buildVitepress } from './docsites/vitepress.mjs';
import { driveSite } from './docsites/drive.mjs';
import { navigateSite } from './docsites/navigate.mjs';

/** The README's snippets (`<!-- snippet:NAME -->`), pointing at `lab`. */
async function snippets(lab) {
  const readme = await readFile('README.md', 'utf8');
  return (name) => {
    const m = readme.match(new RegExp(`<!-- snippet:${name} -->\\s*\`\`\`html\\n([\\s\\S]*?)\`\`\``));
    if (!m) throw new Error(`README has no snippet ${name}`);
    return m[1].replaceAll('http://127.0.0.1:8080/', lab.url);
  };
}

/** Serves a host page made of `body` in a 750 px column (an mdBook-like content column), with
 *  `head` (the README's loader) in its head. */
async function hostPage(dir, body, head = '') {
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'index.html'), `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>host</title>${head}
<style>body { margin: 0 } main { max-width: 750px; margin: 0 auto; padding: 0 16px 400px }</style></head><body><main>
<h1>A docs page on another origin</h1><p>Some prose.</p>
${body}
<p>The end.</p></main></body></html>`);
  return serve(dir);
}

/** Visible, with a size: a reader sees it. */
async function shown(locator) {
  const box = await locator.first().boundingBox().catch(() => null);
  return { visible: await locator.first().isVisible().catch(() => false), w: Math.round(box?.width ?? 0), h: Math.round(box?.height ?? 0) };
}

const MOUNTED = '[data-kube-bootstrap-lab-mount]';

/** Part 3 of issue 24 and item 5 of issue 44: the README's snippets when the lab cannot load.
 *  Without CORS embed.js is blocked and the page's own fallback is all there is; with the wasm
 *  answering 404 embed.js runs and says so beside the fallback; with the lab's server down, each
 *  road (the element, the declared mount(), the iframe) still shows a line and its link. */
async function failures(browser) {
  for (const [what, cors, wasm404, down] of [['served without CORS', false, false, false], ['whose wasm answers 404', true, true, false], ['whose server is down', true, false, true]]) {
    const lab = await serve(PACKAGE, { cors });
    const snippet = await snippets(lab);
    const name = down ? 'down' : cors ? '404' : 'cors';
    const host = await hostPage(join(ARTIFACTS, `host-failure-${name}`), `${snippet('mount')}\n<p>More prose.</p>\n${snippet('element')}\n<p>And more.</p>\n${snippet('iframe')}`, snippet('loader'));
    if (down) lab.close();
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    if (wasm404) await page.route('**/kube-bootstrap-lab_bg.wasm', (route) => route.fulfill({ status: 404, body: 'not found' }));
    const tag = `the README's snippets, the lab ${what}`;
    try {
      check(new URL(host.url).origin !== new URL(lab.url).origin, `${tag}: the page is on another origin than the lab`);
      await page.goto(host.url);
      if (wasm404) {
        await page.locator(`${MOUNTED} .lab-failure`).waitFor({ timeout: 20000 }).catch(() => {});
        await page.locator('kube-bootstrap-lab .lab-failure').waitFor({ timeout: 20000 }).catch(() => {});
      } else {
        await page.waitForLoadState('networkidle');
      }
      const roads = [['mount()', MOUNTED], ['the element', 'kube-bootstrap-lab']];
      for (const [road, sel] of roads) {
        const [box, text, link] = [await shown(page.locator(sel)), await shown(page.locator(`${sel} p:has(a[target=_blank])`)), await shown(page.locator(`${sel} a[target=_blank]`))];
        const href = await page.locator(`${sel} a[target=_blank]`).first().getAttribute('href').catch(() => '');
        check(box.w > 0 && box.h > 0 && text.visible && text.h > 0 && link.visible && link.w > 0 && href.startsWith(`${lab.url}index.html?`),
          `${tag}: ${road} shows its fallback text and link (box ${box.w}×${box.h}, text ${text.w}×${text.h}, link ${link.w}×${link.h} to ${href})`);
        if (wasm404) {
          const told = await shown(page.locator(`${sel} .lab-failure`));
          check(told.visible && told.h > 0, `${tag}: ${road} says the lab could not be loaded, beside the fallback (${told.w}×${told.h})`);
        }
      }
      // The iframe's way in is outside the frame: whatever the frame shows, its link is there.
      const frameLink = page.locator('iframe[data-kube-bootstrap-lab] ~ p a[target=_blank]');
      await frameLink.scrollIntoViewIfNeeded().catch(() => {});
      const [fl, fhref] = [await shown(frameLink), (await frameLink.first().getAttribute('href').catch(() => null)) ?? ''];
      check(fl.visible && fl.w > 0 && fhref.startsWith(`${lab.url}index.html?`), `${tag}: the iframe's link to the lab shows under it (${fl.w}×${fl.h} to ${fhref})`);
      await page.screenshot({ path: `${ARTIFACTS}/readme-snippets-${name}.png`, fullPage: true });
    } finally {
      await context.close();
      host.close();
      if (!down) lab.close();
    }
  }
}

/** Heights of the README's three embeds in a 750 px column, once rendered and after the reader
 *  scrolled through the page; the README's iframe height must be the real one. */
async function heights(browser) {
  const lab = await serve(PACKAGE);
  const snippet = await snippets(lab);
  const host = await hostPage(join(ARTIFACTS, 'host-heights'), `${snippet('element')}\n<p>More prose.</p>\n${snippet('mount')}\n<p>And more.</p>\n${snippet('iframe')}`, snippet('loader'));
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const measure = () => page.evaluate(() => [
    document.querySelector('kube-bootstrap-lab').getBoundingClientRect().height,
    document.querySelector('[data-kube-bootstrap-lab-mount]').getBoundingClientRect().height,
    parseFloat(document.querySelector('iframe[data-kube-bootstrap-lab]').style.height),
  ].map(Math.round));
  try {
    await page.goto(host.url);
    await page.locator(`kube-bootstrap-lab ${RENDERED}`).waitFor({ timeout: 30000 });
    await page.locator(`${MOUNTED} ${RENDERED}`).waitFor({ timeout: 30000 });
    await page.locator('iframe[data-kube-bootstrap-lab]').scrollIntoViewIfNeeded();
    await page.frameLocator('iframe[data-kube-bootstrap-lab]').locator(RENDERED_PAGE).waitFor({ timeout: 30000 });
    await page.evaluate(() => window.scrollTo(0, 0));
    // The heights once the iframe's height message was answered (frame-height.js: its content
    // capped at the viewport, this page has no header) and nothing moves for 10 frames, at most
    // 20 s; the last reading, for the checks to say what they saw.
    const framed = page.frames().find((f) => f.url().includes('index.html?tour=kubernetes-service'));
    const read = async () => ({
      h: await measure(),
      content: Math.round(await framed.evaluate(() => document.documentElement.getBoundingClientRect().height)),
      room: await page.evaluate(() => innerHeight),
    });
    const answered = async () => (await steady(page, read, { ok: (now) => Math.abs(now.h[2] - Math.min(now.content, now.room)) <= 2 })).value;
    const atLoad = (await answered()).h;
    // The reader scrolls through, a screen at a time, each drawn for 5 frames.
    for (let y = 0; y < await page.evaluate(() => document.documentElement.scrollHeight); y += 600) {
      await page.evaluate((top) => window.scrollTo(0, top), y);
      await frames(page, 5);
    }
    const { h: scrolled, content, room } = await answered();
    const fmt = (h) => h.map((x) => `${x} px`).join(', ');
    console.log(`     embed heights at load and after scrolling (element, mount(), iframe) in the 750 px column: ${fmt(atLoad)} → ${fmt(scrolled)}`);
    // The README's tour docks its card in a 750 px column: the frame is its content capped at the
    // viewport (this page has no header), and the README's start height is within 80 px of that.
    const real = scrolled[2];
    check(Math.abs(real - Math.min(content, room)) <= 2, `the README's iframe in a 750 px column is its content capped at the viewport (${real} px; content ${content} px, viewport ${room} px)`);
    const look = await page.evaluate(() => { const s = getComputedStyle(document.querySelector('iframe[data-kube-bootstrap-lab]')); return `${s.borderTopWidth} ${s.borderTopStyle}, ${s.display}`; });
    check(look === '0px none, block', `the README's iframe, sized by attributes, loses a bare frame's border and inline box (${look})`);
    const start = Number(snippet('iframe').match(/<iframe[^>]*\sheight="(\d+)"/)?.[1]);
    check(Math.abs(start - real) <= 80, `the README's iframe start height (${start} px here) is within 80 px of its height once the lab reports (${real} px)`);
    // The fallback's life: kept until the lab renders, removed then, put back by unmount().
    const life = await page.evaluate(async (embed) => {
      const { mount } = await import(embed);
      const div = document.createElement('div');
      div.innerHTML = '<p id="own">What the lab is. <a href="#">Open it</a>.</p>';
      document.querySelector('main').append(div);
      // mount() renders in a shadow root on the div: its children show through a slot, then not.
      const shows = () => div.querySelector('#own').getClientRects().length > 0;
      const hasLab = () => !!div.shadowRoot?.querySelector('.lab');
      const mounting = mount(div, { panels: 'stage' });
      const during = shows();
      const lab = await mounting;
      const rendered = { own: shows(), lab: hasLab() };
      lab.unmount();
      return { during, rendered, after: { own: shows(), lab: hasLab() } };
    }, `${lab.url}embed.js`);
    check(life.during && !life.rendered.own && life.rendered.lab && life.after.own && !life.after.lab,
      `mount() shows the element's children while loading, not once rendered, and again after unmount() (${JSON.stringify(life)})`);
  } finally {
    await context.close();
    host.close();
    lab.close();
  }
}

const browser = await chromium.launch(CHROMIUM);
await mkdir(ARTIFACTS, { recursive: true });
const work = await mkdtemp(join(tmpdir(), 'kube-bootstrap-lab-docsites-'));
// The sites build one after the other in the background, from the start: the host pages' checks
// run meanwhile, then each site is driven once it is built, while the next one builds.
let chain = Promise.resolve();
try {
  const part = (name) => !process.env.E2E_ONLY || process.env.E2E_ONLY === name;
  const builders = [['mdbook', buildBook], ['hugo', buildHugo], ['docusaurus', buildDocusaurus], ['mkdocs', buildMkdocs], ['vitepress', buildVitepress]];
  const sites = process.env.SITES?.split(',') ?? builders.map(([name]) => name);
  const built = !part('sites') ? [] : builders.filter(([name]) => sites.includes(name)).map(([name, build]) => {
    chain = chain.then(() => build(work).then((site) => ({ site }), (error) => ({ error })));
    return [name, chain];
  });
  if (part('failures')) await failures(browser);
  if (part('heights')) await heights(browser);
  for (const [name, pending] of built) {
    // The build is the first check: the README's snippets, pasted as they are, must build.
    const { site, error: e } = await pending;
    if (e) {
      const out = String(e.stderr ?? e.message);
      await writeFile(join(ARTIFACTS, `build-${name}.log`), `${e.message}\n${out}`);
      const said = out.split('\n').filter((l) => /error/i.test(l)).slice(0, 4).join(' / ') || out.trim().split('\n').slice(-6).join(' / ');
      check(false, `${name}: the site builds with the README's element, declared mount and iframe snippets pasted verbatim (${said}; all in ${ARTIFACTS}/build-${name}.log)`);
      continue;
    }
    if (site.roads.readme) check(true, `${site.name}: the site builds with the README's element, declared mount and iframe snippets pasted verbatim`);
    if (site.builds?.length > 1) {
      const [a, b] = site.builds;
      check(a.page.length > 0 && a.page === b.page, `Hugo ${a.version} and Hugo ${b.version} write the same page with the shortcodes (${a.page.length} and ${b.page.length} characters)`);
    } else if (site.builds) {
      console.log(`     only Hugo ${site.builds[0].version} here (scripts/setup.sh test installs a current one)`);
    }
    await driveSite(browser, site);
    if (site.nav) await navigateSite(browser, site);
  }
} finally {
  await chain;
  await browser.close();
  await rm(work, { recursive: true, force: true });
}
finish('e2e docs sites');
