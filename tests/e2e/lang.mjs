// Every label translated: the lab in Chinese, in the states a reader meets (the story, a tour,
// a sandbox with events, ⚙ Configure open, the inspector, the table view, behaviour 1.35, a
// phone, an import with notes), walked for visible text and for the labels assistive technology
// reads (aria-label, title, placeholder, alt). Any run of English words left is listed, and the test fails unless
// every word of it is one of Kubernetes' own: its kinds, components, flags and names, and what
// <code> shows verbatim (keys, messages, commands).
// Usage: node tests/e2e/lang.mjs   (after `trunk build --release`; `make test-e2e` does both)
import { readFile } from 'node:fs/promises';
import { chromium } from 'playwright-core';
import { serve } from './serve.mjs';
import { CHROMIUM, DIST, check, finish, frames } from './harness.mjs';

/**
 * Words that stay English in the Chinese UI, as Kubernetes and its docs in Chinese write them:
 * kinds and objects, components and their binaries, flag values, protocols.
 */
const ALLOWED = new Set([
  // Kinds, objects, fields and components, as Kubernetes' Chinese docs leave them.
  'kubernetes', 'apiserver', 'apiservers', 'etcd', 'service', 'services', 'endpoints', 'endpoint',
  'endpointslice', 'endpointslices', 'pod', 'pods', 'lease', 'leases', 'kubectl', 'default', 'none',
  'masterleases', 'clusterip', 'nodeport', 'loadbalancer', 'externalname', 'servicecidr', 'servicecidrs',
  'ipaddress', 'ipaddresses', 'node', 'nodes', 'namespace', 'namespaces', 'finalizer', 'finalizers',
  'selector', 'app', 'label', 'labels', 'bootstrap', 'controller', 'readyz', 'json', 'yaml', 'github', 'go',
  'addresses', 'subset', 'subsets', 'parent', 'reason', 'message', 'headless', 'https', 'server', // (API server)
  // Condition types, values and reasons, Pod phases, verbatim.
  'ready', 'true', 'false', 'unknown', 'terminating', 'succeeded',
  // A scenario step's action ("do": "corrupt").
  'corrupt',
  // The language menu names each language in itself.
  'english',
  // Keys, as keyboards name them.
  'home', 'end', 'page', 'up', 'down', 'enter', 'esc', 'space', 'tab', 'shift',
  // Names of the shipped scenarios' objects (default/alpha …).
  'alpha', 'beta', 'legacy', 'metrics', 'web', 'demo', 'copy',
]);

/** English runs of `text`: words of two letters or more, split by anything not Latin. */
function englishRuns(text) {
  const runs = [];
  // What is quoted is quoted verbatim (a Kubernetes message, a JSON key), and Start() is code.
  const unquoted = text.replace(/"[^"]*"|“[^”]*”|「[^」]*」|`[^`]*`|\b\w+\(\)/g, ' ');
  // Chinese text, CJK punctuation and symbols end a run; so do technical tokens (below).
  for (const segment of unquoted.split(/[\u2E80-\uFFEF·•…→←↑↓×✖⚙▶⏸«»|()[\]{}"“”‘’,;!?]+/)) {
    let run = [];
    for (const raw of segment.split(/\s+/)) {
      const token = raw.replace(/^['.:]+|['.:]+$/g, '');
      // Words: letters only. Not words: paths and keys (/, .), flags (--x) and other kebab-case
      // names (master-count, apiserver-a), names with digits, CamelCase kinds (EndpointSlice),
      // acronyms (TTL), lone letters (t = 0s).
      const word = /^[A-Za-z][a-z]+$/.test(token);
      if (word) run.push(token);
      else {
        if (run.length) runs.push(run);
        run = [];
      }
    }
    if (run.length) runs.push(run);
  }
  return runs.filter((r) => r.some((w) => !ALLOWED.has(w.toLowerCase()))).map((r) => r.join(' '));
}

/** The texts of the lab a reader sees or hears: [where, text] pairs. */
function texts(page) {
  return page.evaluate(() => {
    const out = [];
    const lab = document.querySelector('.lab');
    // Verbatim: code, log lines (the stage's latest events), a condition's status and message.
    const verbatim = 'code, kbd, samp, pre, script, style, [translate="no"], .stage-events .msg, .cond, .cidr-message';
    const shown = (el) => el.checkVisibility({ visibilityProperty: true }) || (el.closest('select')?.checkVisibility() ?? false);
    const where = (el) => `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${typeof el.className === 'string' && el.className ? `.${el.className.split(' ')[0]}` : el.className?.baseVal ? `.${el.className.baseVal.split(' ')[0]}` : ''}`;
    const walker = document.createTreeWalker(lab, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const el = n.parentElement;
      if (!n.textContent.trim() || el.closest(verbatim) || !shown(el)) continue;
      out.push([where(el), n.textContent.trim()]);
    }
    for (const el of lab.querySelectorAll('[aria-label], [title], [placeholder], [alt], [aria-valuetext], [aria-roledescription]')) {
      if (!shown(el) || el.closest(verbatim)) continue;
      for (const a of ['aria-label', 'title', 'placeholder', 'alt', 'aria-valuetext', 'aria-roledescription']) {
        const v = el.getAttribute(a);
        if (v?.trim()) out.push([`${where(el)}[${a}]`, v.trim()]);
      }
    }
    return out;
  });
}

/** Moves the timeline to `ms`. */
async function seek(page, ms) {
  await page.$eval('#scrubber', (el, v) => { el.value = String(v); el.dispatchEvent(new Event('input', { bubbles: true })); }, ms);
  await page.waitForFunction((v) => document.querySelector('#scrubber').value === String(v), ms);
}

/** Pastes the fixture `tests/kubectl/<name>` into the import panel and waits for its notes. */
async function importShape(page, name) {
  await page.fill('#import-text', await readFile(new URL(`../kubectl/${name}`, import.meta.url), 'utf8'));
  await page.click('#import-run');
  await page.waitForSelector('#import-notes');
}

/** The states to walk: name, query, viewport, what to do once loaded. */
const STATES = [
  ['story', '', [1280, 900], async () => {}],
  ['tour step 3', 'tour=lease-crash-vs-stop&step=3', [1280, 900], async (page) => { await page.waitForSelector('#tour-say'); }],
  ['sandbox with events, ⚙ Configure open', 'scenario=crash-one-of-three', [1280, 900], async (page) => {
    await seek(page, 20000);
    await page.click('#apiserver-apiserver-b button.crash');
    await page.click('#apiserver-apiserver-c button.isolate');
    await seek(page, 60000);
    await page.click('#configure');
    await page.waitForSelector('#config-form');
  }],
  ['inspector on an apiserver', 'scenario=crash-one-of-three', [1280, 900], async (page) => {
    await page.click('#stage-apiserver-apiserver-a');
    await page.waitForSelector('#inspector');
  }],
  ['inspector on a lease key', 'scenario=crash-one-of-three', [1280, 900], async (page) => {
    await page.click('.stage .row[data-key^="/masterleases/"]');
    await page.waitForSelector('#inspector');
  }],
  ['table view', 'scenario=crash-one-of-three', [1280, 900], async (page) => {
    await page.click('#stage-as-table');
    await page.waitForSelector('#table-keys');
  }],
  // Client pods (issue 38): a kube-proxy lagging, a refusal, the strip, then their tables.
  ['client pods at 70.3 s', 'scenario=clients-crash-one-of-three', [1280, 900], async (page) => {
    await seek(page, 70300);
    await page.waitForSelector('.client-node.lagging');
  }],
  ['client pods as tables', 'scenario=clients-crash-one-of-three', [1280, 900], async (page) => {
    await seek(page, 70300);
    await page.click('#stage-as-table');
    await page.waitForSelector('#table-clients');
  }],
  ['behaviour 1.35', 'scenario=servicecidr-default-terminating-1-35', [1280, 900], async (page) => { await seek(page, 30000); }],
  ['phone, tour', 'tour=kubernetes-service&step=2', [390, 844], async (page) => { await page.waitForSelector('#tour-say'); }],
  // An import's notes, each kind: lines ignored and the range guessed, then the apiservers.
  ['import with notes (k3s, a prompt)', 'scenario=crash-one-of-three', [1280, 900], (page) => importShape(page, 'shape-k3s-prompt.txt')],
  ['import with notes (kind, no Endpoints)', 'scenario=crash-one-of-three', [1280, 900], (page) => importShape(page, 'shape-kind-no-endpoints.json')],
];

const server = await serve(DIST);
const browser = await chromium.launch(CHROMIUM);
const found = new Map();
/** The states walked while a lazy part of the lab was still loading (its texts unseen). */
const loading = [];
try {
  for (const [name, query, [width, height], reach] of STATES) {
    const context = await browser.newContext({ viewport: { width, height }, reducedMotion: 'reduce' });
    const page = await context.newPage();
    await page.goto(`${server.url}?lang=zh${query ? `&${query}` : ''}`);
    await page.waitForSelector('#kubernetes-ip, #kubernetes-missing');
    await reach(page);
    // Walked once the lab has rendered what it will: no lazy part still waits for its chunk
    // (the things to try come once the page was idle), and the same elements and labels carry
    // text 10 frames apart (their words may change: the story plays on), at most 10 s.
    await page.waitForFunction(() => !document.querySelector('.lab .lazy-loading'), null, { timeout: 20000 })
      .catch(() => { loading.push(name); });
    for (let [before, end] = [JSON.stringify((await texts(page)).map(([where]) => where)), Date.now() + 10000]; Date.now() < end;) {
      await frames(page, 10);
      const now = JSON.stringify((await texts(page)).map(([where]) => where));
      if (now === before) break;
      before = now;
    }
    let strings = 0;
    for (const [where, text] of await texts(page)) {
      strings += 1;
      for (const run of englishRuns(text)) {
        const key = `${run}  (${where})`;
        if (!found.has(key)) found.set(key, `${name}: "${text.slice(0, 90)}"`);
      }
    }
    console.log(`     ${name}: ${strings} texts and labels walked`);
    await context.close();
  }
} finally {
  await browser.close();
  server.close();
}
console.log(`     allowed as Kubernetes' own: ${[...ALLOWED].join(' ')}`);
for (const [key, context] of found) console.log(`     English in the Chinese UI: ${key.padEnd(60)} ${context}`);
check(found.size === 0 && loading.length === 0, `every visible text and label of the Chinese UI is Chinese or Kubernetes' own (${found.size} English runs${loading.length ? `; still loading a lazy part after 20 s, so not walked whole: ${loading.join(', ')}` : ''})`);
finish('lang');
