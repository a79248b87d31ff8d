// End-to-end, the package in real docs sites (README "Use it in your docs"): `make dist`'s npm
// tarball, unpacked as a docs site would, into an mdBook book (`tar xzf` into its src/) and a
// Hugo site (`npm install` of the tarball, its files copied to static/, its shortcode to
// layouts/). Each page has an iframe and the element, is served under a Content-Security-Policy
// (as static/docs-example.html has) and is driven in Chromium: a tour to its last step in each,
// a form that acts on its own element, no console error, no policy violation. Then pages on
// another origin made of the README's snippets: with the lab served without CORS (the fallback
// shows), with its wasm answering 404 (fallback and message), and the embeds' heights in a
// 750 px column, at load and after scrolling through; last, unmount() gives the fallback back.
// Usage: node tests/e2e/docsites.mjs   (after `make package`; `make test` does both)
import { chromium } from 'playwright-core';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { serve } from './serve.mjs';
import { ARTIFACTS, CHROMIUM, check, finish } from './harness.mjs';

const version = (await readFile('Cargo.toml', 'utf8')).match(/^version = "([^"]+)"/m)[1];
const PACKAGE = `target/package/kube-bootstrap-lab-${version}`;
const TARBALL = resolve(`${PACKAGE}.tgz`);
const steps = (tour) => JSON.parse(readFileSync(`tours/${tour}.json`, 'utf8')).steps.length;
const FALLBACK = 'kube-bootstrap-lab: an interactive explainer of how kube-apiserver keeps its <code>default/kubernetes</code> Service alive.';
const fallback = (href) => `<p class="kube-bootstrap-lab-fallback">${FALLBACK} <a href="${href}" target="_blank" rel="noopener">Open the lab in its own tab</a>.</p>`;

/** An mdBook book whose chapter has the element, a second element (a sandbox) and an iframe,
 *  written as the README tells: raw HTML in the chapter's Markdown, the files in src/. */
async function buildBook(work) {
  const dir = join(work, 'book');
  await mkdir(join(dir, 'src/kube-bootstrap-lab'), { recursive: true });
  execFileSync('tar', ['xzf', TARBALL, '-C', join(dir, 'src/kube-bootstrap-lab'), '--strip-components=1']);
  await writeFile(join(dir, 'book.toml'), '[book]\ntitle = "Kubernetes training"\n');
  await writeFile(join(dir, 'src/SUMMARY.md'), '# Summary\n\n- [The Service nobody wrote](lab.md)\n');
  await writeFile(join(dir, 'src/lab.md'), `# The Service nobody wrote

Every cluster has a \`default/kubernetes\` Service that no manifest defines. Take the tour:

<script type="module" src="kube-bootstrap-lab/embed.js"></script>
<kube-bootstrap-lab id="lab-tour" tour="etcd-outage" controls="minimal">
  ${fallback('kube-bootstrap-lab/index.html?tour=etcd-outage&controls=minimal')}
</kube-bootstrap-lab>

Now create a Service of your own:

<kube-bootstrap-lab id="lab-sandbox" scenario="crash-one-of-three" panels="services">
  ${fallback('kube-bootstrap-lab/index.html?scenario=crash-one-of-three')}
</kube-bootstrap-lab>

Or the same lab in an iframe:

<iframe data-kube-bootstrap-lab title="kube-bootstrap-lab" loading="lazy" style="display: block; width: 100%; height: 900px; border: 0"
  src="kube-bootstrap-lab/index.html?tour=kubernetes-service&controls=minimal"></iframe>
<script type="module" src="kube-bootstrap-lab/frame-height.js"></script>

That is the whole mechanism.
`);
  execFileSync('mdbook', ['build', dir], { stdio: 'pipe' });
  return { name: 'mdBook', root: join(dir, 'book'), page: 'lab.html' };
}

/** A Hugo site (config.toml: Debian bookworm's Hugo 0.111 reads no hugo.toml) using the
 *  package's shortcode, with the package installed by npm and copied to static/. */
async function buildHugo(work) {
  const dir = join(work, 'hugo');
  for (const d of ['content', 'layouts/_default', 'layouts/shortcodes', 'static']) await mkdir(join(dir, d), { recursive: true });
  await writeFile(join(dir, 'package.json'), '{ "private": true }\n');
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--offline', '--loglevel=error', TARBALL], { cwd: dir, stdio: 'pipe' });
  const pkg = join(dir, 'node_modules/kube-bootstrap-lab');
  await cp(pkg, join(dir, 'static/kube-bootstrap-lab'), { recursive: true });
  await cp(join(pkg, 'hugo/layouts/shortcodes'), join(dir, 'layouts/shortcodes'), { recursive: true });
  await writeFile(join(dir, 'config.toml'), `baseURL = "http://127.0.0.1/"
title = "Kubernetes training"
disableKinds = ["taxonomy", "term", "RSS", "sitemap"]
`);
  const layout = '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{{ .Title }}</title>'
    + '<link rel="icon" href="data:,"></head><body><main><h1>{{ .Title }}</h1>{{ .Content }}</main></body></html>\n';
  await writeFile(join(dir, 'layouts/_default/single.html'), layout);
  await writeFile(join(dir, 'layouts/index.html'), layout);
  await writeFile(join(dir, 'content/lab.md'), `---
title: The Service nobody wrote
---
Every cluster has a \`default/kubernetes\` Service that no manifest defines. Take the tour:

{{< kube-bootstrap-lab id="lab-tour" tour="etcd-outage" controls="minimal" >}}

Now create a Service of your own:

{{< kube-bootstrap-lab id="lab-sandbox" scenario="crash-one-of-three" panels="services" >}}

Or the same lab in an iframe:

{{< kube-bootstrap-lab tour="kubernetes-service" controls="minimal" iframe="true" >}}

That is the whole mechanism.
`);
  execFileSync('hugo', ['--quiet', '-s', dir, '-d', join(dir, 'public')], { stdio: 'pipe' });
  return { name: 'Hugo', root: join(dir, 'public'), page: 'lab/' };
}

/** The host pages' policy, as static/docs-example.html has: the site's own inline scripts (mdBook
 *  writes some) by hash, nothing inline else; the lab's files are the site's own ('self'). */
function policy(root) {
  return (path) => {
    if (path.startsWith('/kube-bootstrap-lab/') || !(path.endsWith('/') || path.endsWith('.html'))) return {};
    let html;
    try {
      html = readFileSync(join(root, path.endsWith('/') ? `${path}index.html` : path), 'utf8');
    } catch {
      return {};
    }
    const hashes = [...html.matchAll(/<script\b(?![^>]*\bsrc=)[^>]*>([^]*?)<\/script>/g)]
      .map(([, body]) => `'sha256-${createHash('sha256').update(body).digest('base64')}'`);
    return {
      'content-security-policy': `default-src 'none'; script-src 'self' 'wasm-unsafe-eval' ${hashes.join(' ')}; style-src 'self'; `
        + "style-src-attr 'unsafe-inline'; img-src 'self' data:; font-src 'self'; connect-src 'self'; worker-src 'self'; frame-src 'self'; base-uri 'none'; form-action 'none'",
    };
  };
}

/** Waits until `locator`'s text is `want`; false after `ms`. */
async function textIs(locator, want, ms = 30000) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if ((await locator.first().textContent({ timeout: 1000 }).catch(() => null))?.trim() === want) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

/** Clicks Next in `scope` (an element or a frame) until the tour's last step; true when it got there. */
async function tourToEnd(scope, tour) {
  const n = steps(tour);
  for (let i = 0; i < n; i++) {
    if (!await textIs(scope.locator('#tour-progress'), `Step ${i + 1} of ${n}`)) {
      console.log(`     stuck before step ${i + 1} of ${n}: ${await scope.locator('#tour-progress').first().textContent().catch(() => '?')}`);
      return false;
    }
    if (i + 1 === n) break;
    // Next plays until the step's instant; the lab says so while it moves.
    const end = Date.now() + 30000;
    while (await scope.locator('.lab[data-moving]').count() && Date.now() < end) await new Promise((r) => setTimeout(r, 100));
    await scope.locator('#tour-next').first().click();
  }
  return true;
}

/** Errors, and policy violations in every frame of `page` (each frame listens for itself). */
function watch(page) {
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('response', (r) => { if (r.status() >= 400) errors.push(`${r.status()} ${r.url()}`); });
  page.addInitScript(() => {
    window.__violations = [];
    document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  return {
    errors,
    violations: async () => (await Promise.all(page.frames().map((f) => f.evaluate(() => window.__violations ?? []).catch(() => [])))).flat(),
  };
}

/** A site's page: both tours to their end, the sandbox's form, the iframe's height, no error. */
async function driveSite(browser, site) {
  const server = await serve(site.root, { headers: policy(site.root) });
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const seen = watch(page);
  const tag = `${site.name} site from the packed tarball`;
  try {
    const response = await page.goto(`${server.url}${site.page}`);
    check(!!response.headers()['content-security-policy'], `${tag}: the page is served under a Content-Security-Policy`);
    const element = page.locator('kube-bootstrap-lab').first();
    await element.locator('.lab').waitFor({ timeout: 30000 });
    check(!await element.locator('.kube-bootstrap-lab-fallback').isVisible(), `${tag}: the element's fallback is hidden once the lab renders`);
    check(await tourToEnd(element, 'etcd-outage'), `${tag}: the element's tour (etcd-outage) advances to its last step`);
    // The second element: its form creates what is typed, in that element.
    const sandbox = page.locator('kube-bootstrap-lab').nth(1);
    await sandbox.scrollIntoViewIfNeeded();
    await sandbox.getByLabel('Service name', { exact: true }).fill('docs-svc');
    await sandbox.getByRole('button', { name: 'Create Service', exact: true }).click();
    const created = await sandbox.locator('tr', { hasText: 'default/docs-svc' }).waitFor({ timeout: 10000 }).then(() => true, () => false);
    check(created, `${tag}: Create Service inside the element creates the typed name (default/docs-svc)`);
    const frame = page.locator('iframe[data-kube-bootstrap-lab]');
    await frame.scrollIntoViewIfNeeded();
    check(await tourToEnd(page.frameLocator('iframe[data-kube-bootstrap-lab]'), 'kubernetes-service'), `${tag}: the iframe's tour (kubernetes-service) advances to its last step`);
    const sized = await page.waitForFunction(() => {
      const f = document.querySelector('iframe[data-kube-bootstrap-lab]');
      const h = f.contentDocument?.documentElement.scrollHeight;
      return h > 700 && Math.abs(parseFloat(f.style.height) - h) <= 1 && h;
    }, null, { timeout: 10000 }).then((h) => h.jsonValue(), () => 0);
    check(sized > 0, `${tag}: frame-height.js sizes the iframe to its content (${sized}px)`);
    await page.screenshot({ path: `${ARTIFACTS}/docsite-${site.name.toLowerCase()}.png`, fullPage: true });
    const violations = await seen.violations();
    check(violations.length === 0, `${tag}: no Content-Security-Policy violation ${violations.join('; ')}`);
    check(seen.errors.length === 0, `${tag}: no console or page error ${seen.errors.join('; ')}`);
  } finally {
    await context.close();
    server.close();
  }
}

/** The README's snippets (`<!-- snippet:NAME -->`), pointing at `lab`. */
async function snippets(lab) {
  const readme = await readFile('README.md', 'utf8');
  return (name) => {
    const m = readme.match(new RegExp(`<!-- snippet:${name} -->\\s*\`\`\`html\\n([\\s\\S]*?)\`\`\``));
    if (!m) throw new Error(`README has no snippet ${name}`);
    return m[1].replaceAll('http://127.0.0.1:8080/', lab.url);
  };
}

/** Serves a host page made of `body` in a 750 px column (an mdBook-like content column). */
async function hostPage(dir, body) {
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'index.html'), `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>host</title>
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

/** Part 3 of issue 24: the README's element and mount() when the lab cannot load. Without CORS
 *  embed.js is blocked and the page's own fallback is all there is; with the wasm answering 404
 *  embed.js runs and says so beside the fallback. */
async function failures(browser) {
  for (const [what, cors, wasm404] of [['served without CORS', false, false], ['whose wasm answers 404', true, true]]) {
    const lab = await serve(PACKAGE, { cors });
    const snippet = await snippets(lab);
    const host = await hostPage(join(ARTIFACTS, `host-failure-${cors ? '404' : 'cors'}`), `${snippet('mount')}\n<p>More prose.</p>\n${snippet('element')}`);
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    if (wasm404) await page.route('**/kube-bootstrap-lab_bg.wasm', (route) => route.fulfill({ status: 404, body: 'not found' }));
    const tag = `the README's snippets, the lab ${what}`;
    try {
      check(new URL(host.url).origin !== new URL(lab.url).origin, `${tag}: the page is on another origin than the lab`);
      await page.goto(host.url);
      if (wasm404) {
        await page.locator('#lab .lab-failure').waitFor({ timeout: 20000 }).catch(() => {});
        await page.locator('kube-bootstrap-lab .lab-failure').waitFor({ timeout: 20000 }).catch(() => {});
      } else {
        await page.waitForLoadState('networkidle');
        await page.waitForTimeout(1000);
      }
      for (const [name, sel] of [['mount()', '#lab'], ['the element', 'kube-bootstrap-lab']]) {
        const [box, text, link] = [await shown(page.locator(sel)), await shown(page.locator(`${sel} p:has(a[target=_blank])`)), await shown(page.locator(`${sel} a[target=_blank]`))];
        const href = await page.locator(`${sel} a[target=_blank]`).first().getAttribute('href').catch(() => '');
        check(box.w > 0 && box.h > 0 && text.visible && text.h > 0 && link.visible && link.w > 0 && href.startsWith(`${lab.url}index.html?`),
          `${tag}: ${name} shows its fallback text and link (box ${box.w}×${box.h}, text ${text.w}×${text.h}, link ${link.w}×${link.h} to ${href})`);
        if (wasm404) {
          const told = await shown(page.locator(`${sel} .lab-failure`));
          check(told.visible && told.h > 0, `${tag}: ${name} says the lab could not be loaded, beside the fallback (${told.w}×${told.h})`);
        }
      }
      await page.screenshot({ path: `${ARTIFACTS}/readme-snippets-${cors ? 'wasm-404' : 'no-cors'}.png`, fullPage: true });
    } finally {
      await context.close();
      host.close();
      lab.close();
    }
  }
}

/** Heights of the README's three embeds in a 750 px column, once rendered and after the reader
 *  scrolled through the page; the README's iframe height must be the real one. */
async function heights(browser) {
  const lab = await serve(PACKAGE);
  const snippet = await snippets(lab);
  const host = await hostPage(join(ARTIFACTS, 'host-heights'), `${snippet('element')}\n<p>More prose.</p>\n${snippet('mount')}\n<p>And more.</p>\n${snippet('iframe')}`);
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const measure = () => page.evaluate(() => [
    document.querySelector('kube-bootstrap-lab').getBoundingClientRect().height,
    document.getElementById('lab').getBoundingClientRect().height,
    parseFloat(document.querySelector('iframe[data-kube-bootstrap-lab]').style.height),
  ].map(Math.round));
  try {
    await page.goto(host.url);
    await page.locator('kube-bootstrap-lab .lab').waitFor({ timeout: 30000 });
    await page.locator('#lab .lab').waitFor({ timeout: 30000 });
    await page.locator('iframe[data-kube-bootstrap-lab]').scrollIntoViewIfNeeded();
    await page.frameLocator('iframe[data-kube-bootstrap-lab]').locator('.lab').waitFor({ timeout: 30000 });
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.waitForTimeout(1500);
    const atLoad = await measure();
    // The reader scrolls through, a screen at a time.
    for (let y = 0; y < await page.evaluate(() => document.documentElement.scrollHeight); y += 600) {
      await page.evaluate((top) => window.scrollTo(0, top), y);
      await page.waitForTimeout(150);
    }
    await page.waitForTimeout(1500);
    const scrolled = await measure();
    const fmt = (h) => h.map((x) => `${x} px`).join(', ');
    console.log(`     embed heights at load and after scrolling (element, mount(), iframe) in the 750 px column: ${fmt(atLoad)} → ${fmt(scrolled)}`);
    // The README's tour docks its card in a 750 px column: the frame is its content capped at the
    // viewport (this page has no header), and the README's start height is within 80 px of that.
    const framed = page.frames().find((f) => f.url().includes('index.html?tour=kubernetes-service'));
    const content = Math.round(await framed.evaluate(() => document.body.getBoundingClientRect().height));
    const room = await page.evaluate(() => innerHeight);
    const real = scrolled[2];
    check(Math.abs(real - Math.min(content, room)) <= 2, `the README's iframe in a 750 px column is its content capped at the viewport (${real} px; content ${content} px, viewport ${room} px)`);
    const start = await page.evaluate((css) => { const d = document.createElement('div'); d.style.height = css; document.body.append(d); const h = d.getBoundingClientRect().height; d.remove(); return Math.round(h); },
      snippet('iframe').match(/height: (calc\([^)]*\)|\d+px)/)?.[1]);
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
try {
  // E2E_ONLY=sites|failures|heights runs one part (while working on it).
  const part = (name) => !process.env.E2E_ONLY || process.env.E2E_ONLY === name;
  if (part('sites')) for (const build of [buildBook, buildHugo]) await driveSite(browser, await build(work));
  if (part('failures')) await failures(browser);
  if (part('heights')) await heights(browser);
} finally {
  await browser.close();
  await rm(work, { recursive: true, force: true });
}
finish('e2e docs sites');
