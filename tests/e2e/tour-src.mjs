// A trainer's own tour (issue 28): a tour file fetched from its address plays in the page
// (`?tour-src=`), in a host page's element (`tour-src` attribute) and through mount() from another
// origin that allows it by CORS, or written in the host page (the element's JSON script child); a
// link to its step carries the address; a bad file, or one the page's CSP refuses, shows one line
// and the story. Usage: node tests/e2e/tour-src.mjs (after `trunk build --release`).
import { chromium } from 'playwright-core';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from './serve.mjs';
import { CHROMIUM, DIST, check, finish } from './harness.mjs';

const TOUR = {
  name: 'trainers-own',
  title: { en: 'Our cluster, our incident', zh: '我们的集群，我们的事故' },
  scenario: 'crash-one-of-three',
  steps: [
    { say: { en: 'Three apiservers hold a lease each.', zh: '三个 apiserver 各持有一个租约。' }, highlight: ['leases'] },
    { at: '20s', say: { en: 'Twenty seconds in.', zh: '二十秒后。' } },
  ],
};
const BAD = { ...TOUR, steps: [{ say: { fr: 'Bonjour' } }] };

const dir = await mkdtemp(join(tmpdir(), 'tours-'));
await writeFile(join(dir, 'ours.json'), JSON.stringify(TOUR));
await writeFile(join(dir, 'bad.json'), JSON.stringify(BAD));
const lab = await serve(DIST);
const other = await serve(dir); // another origin (another port), sending CORS headers
const browser = await chromium.launch(CHROMIUM);

const title = (scope) => scope.locator('.tour h2').first();
const say = (scope) => scope.locator('.tour-say').first();

// The page, same origin (the policy allows 'self'): opened at step 2, and its link.
{
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.route('**/trainer/ours.json', (r) => r.fulfill({ contentType: 'application/json', body: JSON.stringify(TOUR) }));
  await page.goto(`${lab.url}index.html?tour-src=trainer/ours.json&step=2`);
  await title(page).filter({ hasText: 'Our cluster, our incident' }).waitFor({ timeout: 30000 });
  check(await say(page).textContent() === 'Twenty seconds in.', 'the page: ?tour-src= opens the tour at ?step=2');
  await page.getByRole('button', { name: 'Link to this moment' }).click();
  await page.waitForFunction(() => location.search.includes('tour-src'));
  const href = await page.evaluate(() => location.href);
  check(href.includes(`tour-src=${encodeURIComponent(`${lab.url}trainer/ours.json`)}&step=2`), `the page: a link to the step carries the tour's address (${href})`);
  await page.close();
}

// The page and a bad file: one line naming the field, and the story.
{
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.route('**/trainer/bad.json', (r) => r.fulfill({ contentType: 'application/json', body: JSON.stringify(BAD) }));
  await page.goto(`${lab.url}index.html?tour-src=trainer/bad.json`);
  await page.locator('.notice').filter({ hasText: 'could not be opened' }).waitFor({ timeout: 30000 });
  const notice = (await page.locator('.notice').textContent()).trim();
  check(notice.includes('steps[0].say.fr: unknown language') && notice.includes('showing the story'), `the page: a bad file is one line naming the field (${notice})`);
  check(await title(page).textContent() === '0. In one minute: a crash, a graceful stop', 'the page: and the story instead, never half a tour');
  await page.close();
}

// The page's own policy allows https: and itself; an http address elsewhere is refused, and said so.
{
  const page = await browser.newPage();
  await page.goto(`${lab.url}index.html?tour-src=${encodeURIComponent(`${other.url}ours.json`)}`);
  await page.locator('.notice').filter({ hasText: 'could not be opened' }).waitFor({ timeout: 30000 });
  const notice = (await page.locator('.notice').textContent()).trim();
  check(notice.includes('Content-Security-Policy'), `the page: a fetch its policy refuses is said to be refused (${notice.slice(0, 160)}…)`);
  await page.close();
}

// A host page on another origin: the attribute, mount() and a tour written in the page.
{
  const host = `<!doctype html><meta charset="utf-8"><title>host</title>
<script type="module">
  import { mount } from "${lab.url}embed.js";
  mount(document.querySelector("#mounted"), { "tour-src": "ours.json", lang: "zh" });
</script>
<kube-bootstrap-lab id="attr" tour-src="${other.url}ours.json"></kube-bootstrap-lab>
<div id="mounted"></div>
<kube-bootstrap-lab id="inline"><script type="application/json">${JSON.stringify(TOUR)}</script></kube-bootstrap-lab>`;
  await writeFile(join(dir, 'host.html'), host);
  const page = await browser.newPage({ viewport: { width: 900, height: 900 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`${other.url}host.html`);
  for (const [id, want, what] of [['#attr', 'Our cluster, our incident', 'the element\'s tour-src attribute, from another origin'],
    ['#mounted', '我们的集群，我们的事故', 'mount()\'s tour-src option, relative to the host page, in Chinese'],
    ['#inline', 'Our cluster, our incident', 'a tour written in the host page (the element\'s JSON script)']]) {
    const scope = page.locator(id);
    await title(scope).filter({ hasText: want }).waitFor({ timeout: 30000 }).catch(() => {});
    check(await title(scope).textContent().catch(() => '') === want, `${what}: the tour plays`);
  }
  await page.locator('#attr .tour').getByRole('button', { name: /Next/ }).first().click();
  await say(page.locator('#attr')).filter({ hasText: 'Twenty seconds in.' }).waitFor({ timeout: 30000 });
  check(true, 'the element: Next moves the trainer\'s tour on');
  const picked = await page.locator('#attr select[aria-label="Guided tour"]').evaluate((s) => s.selectedOptions[0]?.textContent);
  check(picked === 'Our cluster, our incident', `the element: the tour menu names the trainer's tour (${picked})`);
  check(errors.length === 0, `the host page: no errors (${errors.join('; ')})`);
  await page.screenshot({ path: 'test-artifacts/e2e/tour-src-host.png', fullPage: false });
  await page.close();
}

await browser.close();
lab.close();
other.close();
finish('tour-src');
