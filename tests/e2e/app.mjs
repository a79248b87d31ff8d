// End-to-end: serve the release build, drive it in Debian's Chromium, assert, take screenshots,
// and print the figures (time to first frame, frame times while playing; the page's weight is
// printed by every release build and by `make bench`: scripts/weight.mjs).
// Usage: node tests/e2e/app.mjs   (after `trunk build --release`; `make test` does both)
import { chromium } from 'playwright-core';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import { createServer } from 'node:http';
import { serve } from './serve.mjs';
import { ARTIFACTS, CHROMIUM, DIST, PACED, ROOT, atStep, check, finish } from './harness.mjs';


const text = (page, sel) => page.textContent(sel).then((t) => (t ?? '').trim());
/** The addresses of the kubernetes Endpoints (not those fading out). */
const endpoints = (page) => page.$$eval('#kubernetes-endpoints .address:not(.leaving)', (els) => els.map((e) => e.textContent).join(' '));

/** Moves the simulation to virtual time `ms` with the timeline scrubber. */
async function seek(page, ms) {
  await page.$eval('#scrubber', (el, v) => {
    el.value = String(v);
    el.dispatchEvent(new Event('input', { bubbles: true }));
  }, ms);
  await page.waitForFunction((v) => document.querySelector('#scrubber').value === String(v), ms);
}

async function buttonIn(page, scope, label) {
  return page.locator(`${scope} button`, { hasText: label }).first();
}

/** The description a bitmap gives for `value` (an IP or port), found by hovering its cell. */
async function hoverCell(page, id, offset) {
  await page.$eval(`#${id}-canvas`, (c) => c.scrollIntoView({ block: 'center' }));
  const box = await page.$eval(`#${id}-canvas`, (c, o) => {
    const r = c.getBoundingClientRect();
    const cols = Number(c.dataset.cols), rows = Number(c.dataset.rows), first = Number(c.dataset.first || 0);
    const i = o - first;
    return { x: r.left + ((i % cols) + 0.5) * (r.width / cols), y: r.top + (Math.floor(i / cols) + 0.5) * (r.height / rows) };
  }, offset);
  await page.mouse.move(box.x, box.y);
  return text(page, `#${id}-desc`);
}

async function story(page, tag) {
  await page.waitForSelector('#kubernetes-ip');
  check(await text(page, '#kubernetes-ip') === '10.96.0.1', `${tag}: the kubernetes Service has the first usable IP of 10.96.0.0/12`);

  // Crash apiserver-b at 20 s: its address stays until its lease (written at 20 s) expires at 35 s.
  await seek(page, 20000);
  await (await buttonIn(page, '#apiserver-apiserver-b', 'Crash')).click();
  await seek(page, 34000);
  check((await endpoints(page)).includes('192.168.10.12'), `${tag}: a crashed apiserver stays in the Endpoints while its lease lives`);
  await seek(page, 36000);
  check(!(await endpoints(page)).includes('192.168.10.12'), `${tag}: and leaves them after the TTL`);
  check((await text(page, '#written-by')).includes('− 192.168.10.12: crashed: its lease expired'), `${tag}: the rewrite says who left and why`);

  // Delete the kubernetes Service: it comes back with the first usable IP at the next sync.
  await page.click('#delete-kubernetes');
  await page.waitForSelector('#kubernetes-missing');
  check(true, `${tag}: the kubernetes Service is gone`);
  await seek(page, 46000);
  check(await text(page, '#kubernetes-ip') === '10.96.0.1', `${tag}: and returns with 10.96.0.1`);

  // Create a NodePort Service on 30080 and see its cell fill.
  await page.fill('#svc-name', 'web');
  await page.selectOption('#svc-type', 'NodePort');
  await page.fill('#svc-node-port', '30080');
  await page.click('#svc-create');
  await page.waitForSelector('#svc-default-web');
  const desc = await hoverCell(page, 'node-port', 80);
  check(desc.startsWith('30080') && desc.includes('default/web'), `${tag}: NodePort cell 30080 is allocated to default/web (${desc})`);

  // A link to this moment reopens it in a fresh page.
  await page.click('#share');
  const link = await page.inputValue('#share-link');
  const clock = await text(page, '#clock');
  const other = await page.context().newPage();
  await other.goto(link);
  await other.waitForSelector('#kubernetes-ip');
  check(await text(other, '#clock') === clock && (await other.$('#svc-default-web')) !== null, `${tag}: the link reopens ${clock} with the Service`);
  await other.close();

  // An invalid CIDR is refused and changes nothing.
  await page.click('#configure');
  await page.fill('#cfg-cidr', '10.96.0.0/33');
  await page.dispatchEvent('#cfg-cidr', 'change');
  await page.click('#cfg-apply');
  await page.waitForSelector('#config-error');
  check(await text(page, '#config-error') === 'cluster.service_cluster_ip_range: invalid CIDR "10.96.0.0/33"', `${tag}: an invalid CIDR shows the error`);
  check(await text(page, '#kubernetes-ip') === '10.96.0.1' && (await page.$('#svc-default-web')) !== null, `${tag}: and nothing changed`);
  await page.click('#configure');
}

/** p95 of the play loop's frame times at 20× with a /16 range. */
/**
 * Issue 13: a kubectl paste, in a real Chromium. The 1.35 fixture (four documents in one paste)
 * is imported; the findings list Kubernetes' reasons, the lab plays that cluster (its ServiceCIDRs
 * and Services in the views), and a paste of another kind is refused with the world unchanged.
 */
async function importCluster(browser, server) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`${server.url}?scenario=crash-one-of-three`);
  await page.waitForSelector('#import-text');
  await page.fill('#import-text', '{"kind": "Pod", "metadata": {"name": "p", "namespace": "shop"}}');
  await page.click('#import-run');
  await page.waitForSelector('#import-error');
  check(await text(page, '#import-error') === 'document 1: (Pod shop/p): kind Pod is not one the lab reads (Service, Endpoints, EndpointSlice, ServiceCIDR, IPAddress)',
    'import: another kind is refused, naming the object');
  check(await page.$('#svc-shop-web') === null, 'import: nothing half-imported');
  await page.fill('#import-text', await readFile('tests/kubectl/cluster-1.35.json', 'utf8'));
  const start = Date.now();
  await page.click('#import-run');
  await page.waitForSelector('#import-findings');
  const took = Date.now() - start;
  const findings = await page.$$eval('#import-findings > ul.findings > li', (lis) => lis.map((li) => li.querySelector('.reason').textContent + ' ' + li.querySelector('code').textContent));
  check(JSON.stringify(findings) === JSON.stringify(['ClusterIPNotAllocated shop/web', 'ClusterIPNotAllocated shop/web',
    'IPAddressWrongReference 10.96.0.10', 'IPAddressNotAllocated 10.96.7.7', 'ClusterIPNotAllocated kube-system/kube-dns']),
  `import: the findings of the repair loops (${findings.join('; ')})`);
  await page.waitForSelector('#svc-shop-web');
  check(await page.$('.panel.service-cidrs') !== null, 'import: the lab plays the cluster (1.35: its ServiceCIDRs panel)');
  check(errors.length === 0, `import: no page errors ${errors.join('; ')}`);
  await page.$eval('.panel.import', (e) => e.scrollIntoView({ block: 'end' }));
  await page.screenshot({ path: `${ARTIFACTS}/import.png` });
  console.log(`     import of the 1.35 fixture: findings shown ${took} ms after the click`);

  // A file dropped on the panel is imported as a paste is.
  const dropped = await page.evaluateHandle((json) => {
    const d = new DataTransfer();
    d.items.add(new File([json], 'cluster-1.29.json', { type: 'application/json' }));
    return d;
  }, await readFile('tests/kubectl/cluster-1.29.json', 'utf8'));
  await page.dispatchEvent('.panel.import', 'dragover', { dataTransfer: dropped });
  check(await page.$('.panel.import.dragging') !== null, 'import: the panel shows where a file can be dropped');
  await page.dispatchEvent('.panel.import', 'drop', { dataTransfer: dropped });
  await page.waitForFunction(() => document.querySelector('#import-findings p')?.textContent.startsWith('8 Services, behaviour 1.29'));
  await page.waitForSelector('#svc-legacy-old');
  check(await page.$('.panel.import.dragging') === null, 'import: a dropped file is imported, and the lab plays it');

  // The cluster the lab plays, saved as a scenario file (made in the page).
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#import-save')]);
  const saved = JSON.parse(await readFile(await download.path(), 'utf8'));
  check(download.suggestedFilename() === 'imported-cluster.json' && saved.name === 'imported' && saved.initial.services.length === 8,
    `import: "Save as a scenario file" saves the scenario the lab plays (${download.suggestedFilename()}, ${saved.initial?.services?.length} Services)`);
  await page.close();
}

/**
 * Issue 13: a cluster of 10,000 Services (tests/kubectl/make-cluster.mjs, 11 MB) chosen as a file.
 * A worker reads it, so the page keeps drawing frames and shows the import's progress; the
 * findings are the three faults the script plants, and the lab plays the cluster. Prints the
 * times to the findings and to the Services drawn, and the longest gap between frames meanwhile.
 */
async function importLargeCluster(browser, server) {
  const file = `${ARTIFACTS}/cluster-10k.json`;
  await writeFile(file, execFileSync('node', ['tests/kubectl/make-cluster.mjs', '10000'], { maxBuffer: 1 << 26 }));
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`${server.url}?scenario=crash-one-of-three`);
  await page.waitForSelector('#import-file');
  // Every frame's time and every progress line, from now on: the longest gap between frames is
  // how long the page did not respond.
  await page.evaluate(() => {
    window.frames_ = [];
    const tick = (t) => { window.frames_.push(t); requestAnimationFrame(tick); };
    requestAnimationFrame(tick);
    window.phases_ = [];
    new MutationObserver(() => {
      const p = document.querySelector('#import-progress span')?.textContent;
      if (p && p !== window.phases_.at(-1)) window.phases_.push(p);
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  // A reader's pointer comes to the panel before the file does: the worker starts then.
  const worker = page.waitForEvent('worker');
  await page.hover('#import-text');
  await worker;
  const start = await page.evaluate(() => performance.now());
  await page.setInputFiles('#import-file', file);
  await page.waitForSelector('#import-findings', { timeout: 60000 });
  const found = await page.evaluate(() => performance.now());
  await page.waitForSelector('#svc-team-0-svc-000040', { state: 'attached', timeout: 60000 });
  const drawn = await page.evaluate(() => performance.now());
  await page.waitForSelector('#import-compare', { timeout: 60000 });
  const compared = await page.evaluate(() => performance.now());
  const others = await page.$$eval('#import-compare summary', (s) => s.map((e) => e.textContent));
  // The frames up to the comparison's, and a few after it.
  await page.waitForFunction((from) => window.frames_.filter((t) => t >= from).length >= 5, compared);
  const gaps = await page.evaluate((from) => {
    const f = window.frames_.filter((t) => t >= from);
    return f.slice(1).map((t, i) => t - f[i]);
  }, start);
  const phases = await page.evaluate(() => window.phases_);
  const findings = await page.$$eval('#import-findings > ul.findings > li', (lis) => lis.map((li) => li.querySelector('.reason').textContent + ' ' + li.querySelector('code').textContent));
  check(phases.some((p) => p.startsWith('Reading objects: ')) && phases.includes('Writing the scenario…'),
    `import 10k: a worker reads it, and the page shows how far it has come (${phases.length} lines: ${[...new Set(phases.map((p) => p.replace(/[0-9]+ of/, 'N of')))].join(' | ')})`);
  check(JSON.stringify(findings) === JSON.stringify(['ClusterIPAlreadyAllocated team-38/svc-009998',
    'ClusterIPOutOfRange team-39/svc-009999', 'PortAlreadyAllocated team-37/svc-009997']),
  `import 10k: the planted faults are the findings (${findings.join('; ')})`);
  check((await text(page, '#import-findings p')).startsWith('10000 Services, behaviour 1.29, range 10.96.0.0/16,fd00:10:96::/112'),
    'import 10k: 10,000 Services; the dual-stack range is guessed from the Services: kind\'s defaults, which hold every ClusterIP but the one planted out of range');
  check(JSON.stringify(others) === JSON.stringify(['1.20: 3 findings', '1.33: 9002 findings', '1.35: 9002 findings']),
    `import 10k: the other releases' repair loops on it (${others.join('; ')})`);
  // Its link would carry the whole scenario: longer than a browser opens, so none is made.
  await page.click('#share');
  await page.waitForSelector('#share-too-long');
  check((await text(page, '#share-too-long')).startsWith('No link: it would hold the whole scenario'),
    `import 10k: no link to a moment longer than a browser opens ("${(await text(page, '#share-too-long')).slice(0, 60)}…")`);
  check(errors.length === 0, `import 10k: no page errors ${errors.join('; ')}`);
  const longest = Math.max(...gaps);
  console.log(`     import of 10,000 Services (11 MB file): findings ${(found - start).toFixed(0)} ms, `
    + `Services drawn ${(drawn - start).toFixed(0)} ms, the other releases ${(compared - start).toFixed(0)} ms after choosing it; `
    + `longest gap between frames ${longest.toFixed(0)} ms`);
  await page.$eval('.panel.import', (e) => e.scrollIntoView({ block: 'end' }));
  await page.screenshot({ path: `${ARTIFACTS}/import-10k.png` });
  await page.close();
}

async function frameTimes(browser, url) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.goto(url);
  await page.waitForSelector('#kubernetes-ip');
  await page.click('#configure');
  await page.fill('#cfg-cidr', '10.96.0.0/16');
  await page.dispatchEvent('#cfg-cidr', 'change');
  await page.click('#cfg-apply');
  await page.waitForFunction(() => document.querySelector('#kubernetes-ip')?.textContent === '10.96.0.1');
  await page.$eval('#speed', (el) => { el.value = String(Math.log10(20)); el.dispatchEvent(new Event('input', { bubbles: true })); });
  await page.evaluate(() => { window.__labFrameTimes = []; window.__rafGaps = []; let last = performance.now();
    const f = (t) => { window.__rafGaps.push(t - last); last = t; if (window.__rafGaps.length < 600) requestAnimationFrame(f); }; requestAnimationFrame(f); });
  await page.click('#play');
  // 300 played frames (5 s at 60 frames a second; longer on a loaded machine).
  await page.waitForFunction(() => window.__labFrameTimes.length >= 300, null, { timeout: 60000 });
  await page.click('#play');
  const { work, gaps, now } = await page.evaluate(() => ({ work: window.__labFrameTimes, gaps: window.__rafGaps, now: document.querySelector('#clock').textContent }));
  await context.close();
  const p95 = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length * 0.95)] ?? NaN; };
  return { frames: work.length, p95Work: p95(work), p95Gap: p95(gaps.slice(5)), clock: now };
}

/** A page on the lab's origin (served by route) that embeds the lab: `body` is its <body>. */
async function hostPage(page, server, name, body) {
  const url = `${server.url}__e2e/${name}.html`;
  await page.route(url, (route) => route.fulfill({
    contentType: 'text/html; charset=utf-8',
    body: `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>${name}</title>
<script type="module" src="${server.url}embed.js"></script>
<style>body { margin: 0; font: 17px Georgia, serif; } .col { margin: 0 auto; }</style></head><body>${body}</body></html>`,
  }));
  return url;
}

/**
 * How a lab lays out, inside `root` (a document or a shadow root): each panel's place relative to
 * the lab (the same for the same width, wherever the lab is), whether 10.96.0.1 lies whole inside
 * its panel and inside the window, and whether anything overflows sideways.
 */
function layoutIn(root = document) {
  const lab = root.querySelector('.lab');
  const box = lab.getBoundingClientRect();
  const panels = [...lab.querySelectorAll('.panel')].map((p) => {
    const r = p.getBoundingClientRect();
    return `${p.classList[1]}@${Math.round(r.left - box.left)}+${Math.round(r.width)}`;
  });
  const ip = lab.querySelector('#kubernetes-ip');
  const ipBox = ip.getBoundingClientRect();
  const panel = ip.closest('.panel').getBoundingClientRect();
  return {
    width: Math.round(box.width),
    height: Math.round(box.height),
    panels: panels.join(' '),
    ipWhole: ip.textContent === '10.96.0.1' && ipBox.width > 0 && ipBox.left >= panel.left && ipBox.right <= panel.right + 0.5
      && ipBox.right <= document.documentElement.clientWidth,
    overflow: lab.scrollWidth > lab.clientWidth + 1 || document.documentElement.scrollWidth > window.innerWidth + 1,
  };
}

/** Until the lazy parts (issue 37: the things to try come from a chunk fetched once the page is
 *  idle) have rendered, in the page and in embeds' shadow roots. */
function lazyRendered(page) {
  return page.waitForSelector('.lazy-loading', { state: 'detached', timeout: 15000 });
}

/** The lab's layout at container widths, as the page and as mount() and <kube-bootstrap-lab> in a column of that width. */
async function containerWidths(browser, server) {
  const rows = [];
  for (const width of [1440, 1280, 750, 720, 390]) {
    const context = await browser.newContext({ viewport: { width, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${server.url}?scenario=crash-vs-graceful-stop`);
    await page.waitForSelector('#kubernetes-ip');
    await lazyRendered(page);
    const asPage = await page.evaluate(layoutIn);
    await page.screenshot({ path: `${ARTIFACTS}/width-${width}-page.png` });
    await context.close();

    const wide = await browser.newContext({ viewport: { width: 1600, height: 1000 } });
    const host = await wide.newPage();
    const url = await hostPage(host, server, `column-${width}`, `<p>Prose above.</p>
<div class="col" id="col-mount" style="width:${width}px"><div id="lab-mount"></div></div>
<div class="col" id="col-element" style="width:${width}px"><kube-bootstrap-lab scenario="crash-vs-graceful-stop"></kube-bootstrap-lab></div>
<script type="module">import { mount } from "${server.url}embed.js"; await mount(document.getElementById("lab-mount"), { scenario: "crash-vs-graceful-stop" });</script>`);
    await host.goto(url);
    await host.locator('#lab-mount #kubernetes-ip').waitFor();
    await host.locator('kube-bootstrap-lab #kubernetes-ip').waitFor();
    await lazyRendered(host);
    const asMount = await host.evaluate(`(${layoutIn})(document.getElementById('lab-mount').shadowRoot)`);
    const asElement = await host.evaluate(`(${layoutIn})(document.querySelector('kube-bootstrap-lab').shadowRoot)`);
    // The top 1000 px of each column (the stage, the controls, the first panels): what a reader sees first.
    for (const which of ['mount', 'element']) {
      // Scrolled so that the column starts at the window's top: the sticky time bar in its place.
      await host.evaluate((id) => scrollTo(0, document.getElementById(id).getBoundingClientRect().top + scrollY), `col-${which}`);
      const b = await host.locator(`#col-${which}`).boundingBox();
      await host.screenshot({ path: `${ARTIFACTS}/width-${width}-${which}.png`, clip: { x: b.x, y: 0, width: b.width, height: Math.min(b.height, 1000) } });
    }
    await wide.close();

    for (const [how, l] of [['page', asPage], ['mount()', asMount], ['element', asElement]]) {
      check(l.width === Math.min(width, 1440) && l.ipWhole && !l.overflow, `${width}px ${how}: 10.96.0.1 whole, no horizontal overflow (lab ${l.width}px wide)`);
    }
    check(asMount.panels === asPage.panels && asElement.panels === asPage.panels,
      `${width}px: the page, mount() and the element lay out alike (${asPage.panels}${asMount.panels === asPage.panels ? '' : ` | mount ${asMount.panels}`}${asElement.panels === asPage.panels ? '' : ` | element ${asElement.panels}`})`);
    rows.push({ width, page: asPage.height, mount: asMount.height, element: asElement.height, columns: new Set(asPage.panels.split(' ').map((p) => p.split('@')[1].split('+')[0])).size });
  }
  console.log('     lab height by container width (px): width  page  mount()  element  panel columns');
  for (const r of rows) console.log(`     ${String(r.width).padStart(26)} ${String(r.page).padStart(5)} ${String(r.mount).padStart(8)} ${String(r.element).padStart(8)} ${String(r.columns).padStart(8)}`);
  const docs = rows.find((r) => r.width === 750);
  console.log(`     the lab in a 750 px docs column is ${docs.mount} px tall (mount()), ${docs.element} px (element)`);
}

/**
 * While the module loads, each way in shows the lab's first view (src/ui/poster.rs) with a
 * status line. Held: the wasm is answered only once they were checked. Throttled: how long
 * the first view (or, where none fits, the loading box) shows on 1.6 Mbps.
 */
async function loading(browser, server) {
  const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
  const page = await context.newPage();
  let release;
  const held = new Promise((r) => { release = r; });
  await page.route('**/kube-bootstrap-lab_bg.wasm', async (route) => { await held; await route.continue(); });
  const url = await hostPage(page, server, 'loading', `<div class="col" style="width:750px"><div id="lab-mount"></div>
<kube-bootstrap-lab lang="zh" theme="dark"></kube-bootstrap-lab></div>
<script type="module">import { mount } from "${server.url}embed.js"; await mount(document.getElementById("lab-mount"), {});</script>`);
  await page.goto(url);
  const mounted = page.locator('#lab-mount .lab-poster');
  const element = page.locator('kube-bootstrap-lab .lab-poster');
  await mounted.waitFor();
  await element.waitFor();
  const box = async (l) => {
    const status = l.locator('[role=status]').first();
    const ip = l.getByText('10.96.0.1', { exact: true }).filter({ visible: true });
    return { role: await status.getAttribute('role'), text: (await status.textContent()).trim(), height: (await l.boundingBox()).height, ip: await ip.count() > 0 };
  };
  const [m, e] = [await box(mounted), await box(element)];
  check(m.role === 'status' && m.text === 'Loading the lab…' && e.role === 'status' && e.text === '正在加载实验室…',
    `while the wasm loads, mount() and the element say so (role=status): "${m.text}", "${e.text}"`);
  check(m.ip && e.ip, 'and show the first view: the story with 10.96.0.1');
  check(m.height >= 750 * 9 / 16 + 100 && e.height >= 750 * 9 / 16 + 100, `and reserve room in a 750 px column (${m.height}px, ${e.height}px)`);
  await page.screenshot({ path: `${ARTIFACTS}/loading-embeds.png` });
  release();
  await page.locator('#lab-mount #kubernetes-ip').waitFor();
  await page.locator('kube-bootstrap-lab #kubernetes-ip').waitFor();
  const left = await page.locator(':is(.lab-loading, .lab-poster)').evaluateAll((l) => l.map((e) => `${e.className} in ${e.parentElement?.className}`));
  check(left.length === 0, `the app replaces the first views (left: ${left.join(', ') || 'none'})`);
  await context.close();

  // The page, held the same way, in Chinese.
  const ctx2 = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const phone = await ctx2.newPage();
  let release2;
  const held2 = new Promise((r) => { release2 = r; });
  await phone.route('**/kube-bootstrap-lab_bg.wasm', async (route) => { await held2; await route.continue(); });
  await phone.goto(`${server.url}?lang=zh&theme=dark`, { waitUntil: 'domcontentloaded' });
  await phone.locator('.lab-poster').waitFor();
  const p = await box(phone.locator('.lab-poster'));
  check(p.role === 'status' && p.text === '正在加载实验室…' && p.height >= 390 * 9 / 16 + 100 && p.ip, `the page shows its first view and says it is loading, in its language (${p.text}, ${p.height}px)`);
  await phone.screenshot({ path: `${ARTIFACTS}/loading-page-zh.png` });
  release2();
  await phone.waitForSelector('#kubernetes-ip');
  await ctx2.close();

  // Throttled to 1.6 Mbps: the time the box shows, recorded each frame by the page itself.
  for (const [what, path] of [['page', ''], ['embed in a 750 px column', null]]) {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const tab = await ctx.newPage();
    const cdp = await ctx.newCDPSession(tab);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 150, downloadThroughput: 1.6e6 / 8, uploadThroughput: 750e3 / 8 });
    await tab.addInitScript(() => {
      const seen = (window.__loadingSeen = { first: null, last: null, lab: null, box: 0, labHeight: 0 });
      const find = (sel) => document.querySelector(sel) ?? document.querySelector('kube-bootstrap-lab')?.shadowRoot?.querySelector(sel);
      const tick = (t) => {
        const box = find('.lab-poster') ?? find('.lab-loading:not([hidden])');
        if (box && box.getBoundingClientRect().height > 0) {
          seen.first ??= t;
          seen.last = t;
          seen.box = Math.round(box.getBoundingClientRect().height);
        }
        const lab = find('.lab:not(.lab-poster .lab)');
        if (lab) { seen.lab = t; seen.labHeight = Math.round(lab.getBoundingClientRect().height); return; }
        requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    });
    const target = path ?? await hostPage(tab, server, 'throttled', '<div class="col" style="width:750px"><kube-bootstrap-lab></kube-bootstrap-lab></div>');
    await tab.goto(path === null ? target : `${server.url}${path}`, { timeout: 120000 });
    await tab.waitForFunction(() => window.__loadingSeen.lab !== null, null, { timeout: 120000 });
    const s = await tab.evaluate(() => window.__loadingSeen);
    check(s.first !== null && s.box > 0, `1.6 Mbps, ${what}: the first view shows before the app`);
    console.log(`     1.6 Mbps, ${what}: the first view shows for ${Math.round(s.last - s.first)} ms (from ${Math.round(s.first)} ms after navigation), ${s.box} px tall; the app renders at ${Math.round(s.lab)} ms, ${s.labHeight} px tall`);
    await ctx.close();
  }
}

/**
 * Serves `root` like serve.mjs, but with the CORS header on everything except the wasm; and
 * `pages` (path → HTML). A real server: playwright adds CORS headers to the responses it
 * fulfills, and Chromium keeps a page it fulfilled from reaching a loopback address.
 */
function serveScriptsOnlyCors(root, pages = {}) {
  const types = { '.js': 'text/javascript', '.wasm': 'application/wasm', '.css': 'text/css', '.html': 'text/html' };
  const server = createServer(async (req, res) => {
    const path = new URL(req.url, 'http://x').pathname.replace(/\.\./g, '');
    if (pages[path]) return res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(pages[path]);
    try {
      const body = await readFile(`${root}${path}`);
      const ext = path.slice(path.lastIndexOf('.'));
      res.writeHead(200, { 'content-type': types[ext] ?? 'application/octet-stream', ...(ext === '.wasm' ? {} : { 'access-control-allow-origin': '*' }) });
      res.end(body);
    } catch {
      res.writeHead(404).end('not found');
    }
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => {
    resolve({ url: `http://127.0.0.1:${server.address().port}/`, close: () => server.close() });
  }));
}

/** A module that cannot load says so in the element, naming the file: 404s, and a server without CORS. */
async function loadFailures(browser, server) {
  const cases = [
    ['the wasm answers 404', '**/kube-bootstrap-lab_bg.wasm', (route) => route.fulfill({ status: 404, body: 'not found' }), 'kube-bootstrap-lab_bg.wasm'],
    ['the module answers 404', '**/kube-bootstrap-lab.js', (route) => route.fulfill({ status: 404, body: 'not found' }), 'kube-bootstrap-lab.js'],
    ['the wasm is served without CORS to another origin', null, null, 'kube-bootstrap-lab_bg.wasm'],
  ];
  for (const [what, glob, handler, file] of cases) {
    const context = await browser.newContext({ viewport: { width: 1000, height: 800 } });
    const page = await context.newPage();
    if (glob) await page.route(glob, handler);
    const body = `<div class="col" style="width:750px"><div id="lab-mount"></div><kube-bootstrap-lab lang="zh"></kube-bootstrap-lab></div>
<script type="module">import { mount } from "${server.url}embed.js"; window.mounted = mount(document.getElementById("lab-mount"), {}).then(() => "mounted", (e) => e.name);</script>`;
    let url;
    let lab = server;
    let docs;
    if (what.includes('CORS')) {
      // A docs site, and the lab on another origin whose CORS header covers scripts, not the wasm.
      lab = await serveScriptsOnlyCors(DIST);
      docs = await serveScriptsOnlyCors(DIST, { '/chapter.html': `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><title>docs</title>
<script type="module" src="${lab.url}embed.js"></script>${body.replaceAll(server.url, lab.url)}` });
      url = `${docs.url}chapter.html`;
    } else {
      url = await hostPage(page, server, 'failing', body);
    }
    await page.goto(url);
    const mounted = page.locator('#lab-mount .lab-failure');
    const element = page.locator('kube-bootstrap-lab .lab-failure');
    await mounted.waitFor({ timeout: 20000 }).catch(() => {});
    await element.waitFor({ timeout: 20000 }).catch(() => {});
    const told = async (l) => (await l.count()) ? { role: await l.getAttribute('role'), text: await l.textContent(), height: (await l.boundingBox()).height } : null;
    const [m, e] = [await told(mounted), await told(element)];
    if (docs) { lab.close(); docs.close(); }
    check(m?.role === 'alert' && m.text.startsWith('The lab could not be loaded: ') && m.text.includes(`${lab.url}${file}`) && m.height > 20,
      `${what}: mount() says which file failed (${m?.text})`);
    check(e?.role === 'alert' && e.text.startsWith('实验室无法加载') && e.text.includes(file), `${what}: the element says it in Chinese (${e?.text?.slice(0, 60)}…)`);
    check(await page.evaluate(() => window.mounted) === 'LoadError', `${what}: mount() rejects with a LoadError`);
    await page.screenshot({ path: `${ARTIFACTS}/load-failure-${file.replace(/\W/g, '-')}${what.includes('CORS') ? '-cors' : ''}.png` });
    await context.close();
  }
  // The page itself.
  for (const [glob, file] of [['**/kube-bootstrap-lab_bg.wasm', 'kube-bootstrap-lab_bg.wasm'], ['**/kube-bootstrap-lab.js', 'kube-bootstrap-lab.js']]) {
    const context = await browser.newContext({ viewport: { width: 1000, height: 800 } });
    const page = await context.newPage();
    await page.route(glob, (route) => route.fulfill({ status: 404, body: 'not found' }));
    await page.goto(server.url);
    const told = await page.locator('.lab-failure').textContent({ timeout: 20000 }).catch(() => '');
    check(told.startsWith('The lab could not be loaded: ') && told.includes(`${server.url}${file}`) && await page.locator(':is(.lab-loading:not([hidden]), .lab-poster)').count() === 0,
      `the page, when ${file} answers 404, says which file failed (${told})`);
    check(await page.locator('.lab-failure').getAttribute('role').catch(() => null) === 'alert', `and it is an alert`);
    await page.screenshot({ path: `${ARTIFACTS}/load-failure-page-${file.replace(/\W/g, '-')}.png` });
    await context.close();
  }
}

const server = await serve(DIST);
const browser = await chromium.launch(CHROMIUM);
await mkdir(ARTIFACTS, { recursive: true });
/** Every Content-Security-Policy violation in every frame of the context's pages, from the first script on. */
async function recordViolations(context) {
  await context.addInitScript(() => {
    window.cspViolations_ = [];
    document.addEventListener('securitypolicyviolation', (e) => window.cspViolations_.push(`${e.effectiveDirective} blocked ${e.blockedURI || 'inline'} (${e.sourceFile}:${e.lineNumber})`));
  });
}
const violations = async (page) => (await Promise.all(page.frames().map((f) => f.evaluate(() => window.cspViolations_ ?? []).catch(() => [])))).flat();

/**
 * Issue 14: the page and the embed example run under a strict Content-Security-Policy (no inline
 * script, no eval, connect-src 'self' and https: for a trainer's tour-src). Each is used the way a reader uses it (playing, a large
 * import read by the worker, saving the scenario, a link; the three embeds), with no violation;
 * an eval and an inline script are refused, which shows that the policy is in force.
 */
async function lockedDown(browser, server) {
  const file = `${ARTIFACTS}/cluster-2k.json`;
  await writeFile(file, execFileSync('node', ['tests/kubectl/make-cluster.mjs', '2000'], { maxBuffer: 1 << 26 }));
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
  await recordViolations(context);
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  await page.goto(`${server.url}?scenario=crash-one-of-three`);
  await page.waitForSelector('#kubernetes-ip');
  const policy = await page.$eval('meta[http-equiv="Content-Security-Policy"]', (m) => m.content);
  const directives = Object.fromEntries(policy.split(';').map((d) => d.trim().split(/\s+/)).map(([k, ...v]) => [k, v.join(' ')]));
  // Scripts only from files of this origin (no 'unsafe-inline', no 'unsafe-eval'); fetches to it
  // and, for a trainer's tour (tour-src), to https addresses.
  check(directives['default-src'] === "'none'" && directives['script-src'] === "'self' 'wasm-unsafe-eval'"
    && directives['connect-src'] === "'self' https:" && !('script-src-elem' in directives) && !('script-src-attr' in directives),
  'csp: the page\'s policy allows no inline script and no eval');
  console.log(`     csp in force: ${policy}`);
  const clock = await page.textContent('#clock');
  await page.click('#play');
  await page.waitForFunction((c) => document.querySelector('#clock').textContent !== c, clock);
  await page.click('#play');
  const workers = [];
  page.on('worker', (w) => workers.push(w.url()));
  const worker = page.waitForEvent('worker');
  await page.hover('#import-text');
  await worker;
  await page.setInputFiles('#import-file', file);
  await page.waitForSelector('#import-findings', { timeout: 60000 });
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#import-save')]);
  check(workers.some((u) => u.endsWith('/import-worker.js')) && download.suggestedFilename() === 'imported-cluster.json',
    `csp: the import's worker starts (${workers.join(' ') || 'none'}), and a 2,000-Service file is imported and saved`);
  await page.click('#share');
  await page.waitForSelector('#share-too-long, #share-link');
  // A string to setTimeout is an eval from the page's own task (DevTools' evaluate may eval).
  const refused = await page.evaluate(() => new Promise((resolve) => {
    setTimeout('window.evalRan_ = true;');
    const s = document.createElement('script');
    s.textContent = 'window.inlineRan_ = true;';
    document.head.append(s);
    setTimeout(() => resolve({ evaluated: window.evalRan_ === true, inline: window.inlineRan_ === true }), 200);
  }));
  check(!refused.evaluated && !refused.inline, `csp: eval and an inline script are refused (eval ran: ${refused.evaluated}, inline ran: ${refused.inline})`);
  const seen = await violations(page);
  const expected = seen.filter((v) => v.startsWith('script-src'));
  check(seen.length === expected.length && expected.length === 2,
    `csp: the app works with no violation but the two provoked ones (${seen.join('; ')})`);
  const unexpected = errors.filter((e) => !e.includes('Content Security Policy'));
  check(unexpected.length === 0, `csp: no page errors but the policy's two refusals ${unexpected.join('; ')}`);

  // Markup in a URL parameter and in a link's scenario name is shown as text, never parsed.
  const markup = '<img src=x onerror="window.markupRan_=1">';
  for (const url of [`?scenario=${encodeURIComponent(markup)}`, `?lang=en#scenario=${encodeURIComponent(markup)}`]) {
    await page.goto(`${server.url}${url}`);
    await page.waitForSelector('#action-error');
    const shown = await page.evaluate(() => ({
      text: document.querySelector('#action-error').textContent,
      imgs: document.querySelectorAll('.lab img').length,
      ran: window.markupRan_ === 1,
    }));
    check(shown.text.includes('<img src=x') && shown.imgs === 0 && !shown.ran, `csp: markup in ${url.slice(0, 12)}… is shown as text ("${shown.text}")`);
  }

  // The embed example: mount(), <kube-bootstrap-lab> and an iframe, in a page with its own strict policy.
  const docs = await context.newPage();
  const docsErrors = [];
  docs.on('pageerror', (e) => docsErrors.push(String(e)));
  docs.on('console', (m) => { if (m.type() === 'error') docsErrors.push(m.text()); });
  await docs.goto(`${server.url}docs-example.html`);
  await docs.waitForSelector('#lab-tour #kubernetes-ip');
  await docs.waitForFunction(() => document.querySelector('#lab-element').shadowRoot?.querySelector('.lab'));
  await docs.$eval('#lab-frame', (f) => f.scrollIntoView());
  await docs.waitForFunction(() => document.querySelector('#lab-frame').style.height !== '');
  const docsPolicy = await docs.$eval('meta[http-equiv="Content-Security-Policy"]', (m) => m.content);
  const display = await docs.$eval('#lab-element', (e) => getComputedStyle(e).display);
  const docsSeen = await violations(docs);
  check(docsSeen.length === 0 && docsErrors.length === 0 && display === 'block',
    `csp: the three embeds of docs-example.html run under its policy with no violation (${docsSeen.join('; ') || 'none'}; errors: ${docsErrors.join('; ') || 'none'}; element display ${display})`);
  console.log(`     csp of docs-example.html: ${docsPolicy}`);
  await docs.screenshot({ path: `${ARTIFACTS}/csp-docs-example.png` });
  await context.close();
}

/**
 * Issue 36: the README's picture, `docs/lab.png` (committed, so that the README shows it): the
 * story's third step, 45 s, where apiserver-b's lease has expired while the Endpoints still list
 * it, at 1280×800, light, with reduced motion (no packet in flight), so that every run writes it
 * alike. A change to the lab's look shows as a diff of that file.
 */
async function picture(browser, server) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1, colorScheme: 'light', reducedMotion: 'reduce' });
  await context.addInitScript(ROOT);
  await context.addInitScript(PACED);
  const page = await context.newPage();
  await page.goto(`${server.url}?tour=story&step=3`);
  await atStep(page, 2, 5, 'en');
  await page.mouse.move(0, 0);
  await page.screenshot({ path: 'docs/lab.png' });
  const bytes = (await readFile('docs/lab.png')).length;
  check(bytes < 250 * 1024, `the README's picture, docs/lab.png: the story at step 3, 1280×800 (${(bytes / 1024).toFixed(0)} KB, under 250 KB)`);
  await context.close();
}

// E2E_ONLY=story|picture|embeds|widths|loading|failures|import|csp|speed runs one part (while working on it).
const part = (...names) => !process.env.E2E_ONLY || names.includes(process.env.E2E_ONLY);
try {
  if (part('story')) for (const [label, viewport] of [['desktop', { width: 1440, height: 1000 }], ['phone', { width: 360, height: 780 }]]) {
    for (const colorScheme of ['light', 'dark']) {
      const tag = `${label}/${colorScheme}`;
      const context = await browser.newContext({ viewport, colorScheme });
      const page = await context.newPage();
      const errors = [];
      page.on('pageerror', (e) => errors.push(String(e)));
      page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
      await page.goto(`${server.url}?scenario=crash-one-of-three`);
      await page.waitForSelector('#kubernetes-ip');
      const firstFrame = await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r(performance.now()))));
      await page.screenshot({ path: `${ARTIFACTS}/start-${label}-${colorScheme}.png`, fullPage: label === 'desktop' });
      await story(page, tag);
      // What sticks out past the window, named when something does.
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1
        && [...document.querySelectorAll('body *')].filter((el) => el.getBoundingClientRect().right > window.innerWidth + 1)
          .slice(0, 6).map((el) => `${el.tagName.toLowerCase()}${el.id ? '#' + el.id : ''}.${el.getAttribute('class') ?? ''}`).join(', '));
      check(!overflow, `${tag}: no horizontal overflow ${overflow || ''}`);
      check(errors.length === 0, `${tag}: no page errors ${errors.join('; ')}`);
      await page.screenshot({ path: `${ARTIFACTS}/story-${label}-${colorScheme}.png`, fullPage: true });
      console.log(`     ${tag}: first frame ${firstFrame.toFixed(0)} ms after navigation start`);
      await context.close();
    }
  }
  if (part('picture')) await picture(browser, server);
  // URL parameters: a forced theme beats the system one, minimal controls hide editing,
  // and an unknown parameter is reported.
  if (part('embeds')) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme: 'light' });
    const page = await context.newPage();
    await page.goto(`${server.url}?theme=dark&controls=minimal&colour=red`);
    await page.waitForSelector('#kubernetes-ip');
    const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    check(bg === 'rgb(14, 18, 25)', `?theme=dark in a light system gives the dark page (${bg})`);
    const hidden = ['#tour-pick', '#lang', '#scenario-pick', '#configure', '#share', '#speed', '#step', '#corrupt', '#create-service', '#create-pod', '#add-apiserver', '#delete-kubernetes', '.stage-button[data-spot="corrupt"]'];
    const shown = ['#play', '#scrubber', '#kubernetes-ip'];
    const visible = async (sels) => Promise.all(sels.map(async (s) => [s, await page.isVisible(s)]));
    const leftOver = (await visible(hidden)).filter(([, v]) => v).map(([s]) => s);
    const missing = (await visible(shown)).filter(([, v]) => !v).map(([s]) => s);
    check(leftOver.length === 0 && missing.length === 0, `?controls=minimal shows play/pause, the scrubber and the views, no editing control (left: ${leftOver.join(' ') || 'none'}; missing: ${missing.join(' ') || 'none'})`);
    check((await text(page, '#action-error')) === 'unknown URL parameter "colour"', 'an unknown URL parameter is reported');
    await page.screenshot({ path: `${ARTIFACTS}/minimal-forced-dark.png` });
    await context.close();
  }
  if (part('embeds', 'widths')) await containerWidths(browser, server);
  if (part('embeds', 'loading')) await loading(browser, server);
  if (part('embeds', 'failures')) await loadFailures(browser, server);
  if (part('import')) await importCluster(browser, server);
  if (part('import')) await importLargeCluster(browser, server);
  if (part('csp')) await lockedDown(browser, server);
  if (part('speed')) {
    const f = await frameTimes(browser, `${server.url}?scenario=crash-one-of-three`);
    console.log(`     playing at 20× on a /16 for 300 frames: ${f.frames} recorded, p95 frame work ${f.p95Work.toFixed(2)} ms, p95 frame interval ${f.p95Gap.toFixed(1)} ms, reached ${f.clock}`);
    check(f.frames > 0, 'the play loop draws frames while playing');
  }
} finally {
  await browser.close();
  server.close();
}
finish('e2e');
