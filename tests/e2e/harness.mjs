// What the end-to-end tests share: where the build and the screenshots are, how Debian's
// Chromium is launched (never a downloaded browser), the ok/FAIL tally, the tours, and how a
// test walks a tour's steps as a reader does (Next, then wait until the step has settled).
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';

export const DIST = 'dist';
export const ARTIFACTS = 'test-artifacts/e2e';
/** The lab an embed rendered (embed.js: its app's root), not the server-rendered poster shown
 *  while it loads, which has a `.lab` of its own. */
export const RENDERED = '.kube-bootstrap-lab-app > .lab';
/** The lab the lab's own page (and an iframe of it) rendered, not its poster. */
export const RENDERED_PAGE = 'body > .lab';
/** Debian's headless shell (package chromium-headless-shell, Playwright's own choice for
 *  headless runs) when installed: the same engine without the desktop browser's UI layers, about
 *  a sixth less CPU over the suite; else the full browser in headless mode. */
const HEADLESS_SHELL = '/usr/lib/chromium/chromium-headless-shell';
export const CHROMIUM = {
  executablePath: existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage',
    '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
};

let failures = 0;
export function check(cond, what) {
  console.log(`${cond ? 'ok  ' : 'FAIL'} ${what}`);
  if (!cond) failures += 1;
}

/** Prints the tally and exits 1 when a check failed. */
export function finish(label) {
  console.log(failures ? `${label}: ${failures} failed` : `${label}: all passed`);
  process.exit(failures ? 1 : 0);
}

/** Every tour of tours/, by file name. */
export async function loadTours() {
  const tours = [];
  for (const f of (await readdir('tours')).filter((f) => f.endsWith('.json')).sort()) {
    tours.push(JSON.parse(await readFile(`tours/${f}`, 'utf8')));
  }
  return tours;
}

/** An init script: the labs of the page (and of its frames) run their clocks ten times faster
 *  than real time (`Msg::SetPace`): a tour's moves, a step's play and a story's reading pauses
 *  take a tenth as long, to the very same steps at the very same instants. For the tests that
 *  walk tours; never in a page a reader opens. `context.addInitScript(PACED)`. */
export const PACE = 10;
export const PACED = { content: `window.__kubeBootstrapLabTestPace = ${PACE};` };

/** An init script: `window.__labRoot()` is the instance's root: the shadow root of the custom
 *  element or of mount()'s element, else the document (the lab's own page). */
export const ROOT = () => {
  window.__labRoot = () => {
    const el = document.querySelector('kube-bootstrap-lab') ?? [...document.querySelectorAll('body *')].find((e) => e.shadowRoot?.querySelector('.lab'));
    return el?.shadowRoot ?? document;
  };
};

/** An init script: `window.__spotShares(root)` is, for each highlighted part (class tour-spot)
 *  of the instance at `root`, the share of it that a reader sees: in the viewport and not
 *  covered, as an 8×8 grid of points whose elementFromPoint is the part or inside it. */
export const SHARES = () => {
  window.__spotShares = (root) => {
    const [vw, vh] = [innerWidth, innerHeight];
    const inside = (el, hit) => hit && (hit === el || el.contains(hit));
    return [...root.querySelectorAll('.tour-spot')].map((el) => {
      const r = el.getBoundingClientRect();
      let clear = 0;
      for (let i = 0; i < 8; i++) {
        for (let j = 0; j < 8; j++) {
          const [x, y] = [r.left + ((i + 0.5) * r.width) / 8, r.top + ((j + 0.5) * r.height) / 8];
          if (r.width > 0 && x >= 0 && y >= 0 && x < vw && y < vh && inside(el, root.elementFromPoint(x, y))) clear += 1;
        }
      }
      const name = el.dataset.key ?? el.id ?? '';
      return { spot: `${el.dataset.tourSpot}${name ? ` ${name}` : ''} <${el.tagName.toLowerCase()}.${[...el.classList].join('.')}>`, clear: clear / 64 };
    });
  };
};

/**
 * Waits until the tour shows step `i` (0-based) of `n` and has settled: not moving to it, the
 * clock stopped (Play shown) or unchanged for 300 ms (a step may let the clock play on for a
 * while), and the page still. Needs ROOT.
 */
export async function atStep(page, i, n, lang) {
  const want = lang === 'zh' ? `第 ${i + 1} 步，共 ${n} 步` : `Step ${i + 1} of ${n}`;
  await page.waitForFunction((w) => {
    const root = window.__labRoot();
    if (root.querySelector('#tour-progress')?.textContent !== w || root.querySelector('.lab')?.dataset.moving) return false;
    if (root.querySelector('.controls button[aria-pressed]')?.getAttribute('aria-pressed') !== 'true') return true;
    const [clock, now, seen] = [root.querySelector('.controls .clock')?.textContent, performance.now(), window.__clockSeen];
    if (seen?.clock !== clock) window.__clockSeen = { clock, since: now };
    return seen?.clock === clock && now - seen.since >= 300;
  }, want, { timeout: 30000, polling: 50 });
  const st = await settle(page);
  // The longest still run that a movement ended, and the frames it took to settle.
  if (process.env.SETTLE_STATS) console.log(`     settle: longest still run before a movement ${st.gap} frames; settled in ${st.frames}`);
}

/** Waits `n` animation frames of `page`: the window of a check that something does not happen
 *  (a clock that would play moves within a few frames). Frames, not milliseconds: a loaded
 *  machine draws them later and the window grows with it. */
export function frames(page, n) {
  return page.evaluate((count) => new Promise((resolve) => {
    let i = 0;
    const tick = () => (++i >= count ? resolve() : requestAnimationFrame(tick));
    requestAnimationFrame(tick);
  }), n);
}

/** Reads `read()` every `n` animation frames until a reading that `ok` accepts equals the one
 *  before it (what it measures has stopped moving), at most `ms`. Resolves to { value, steady }:
 *  the last reading, and whether it held (false at the time limit: the check says what it saw). */
export async function steady(page, read, { ok = () => true, n = 10, ms = 20000 } = {}) {
  const end = Date.now() + ms;
  let last = '';
  for (;;) {
    const value = await read();
    const key = JSON.stringify(value);
    if (ok(value) && key === last) return { value, steady: true };
    if (Date.now() > end) return { value, steady: false };
    last = ok(value) ? key : '';
    await frames(page, n);
  }
}

/** Waits until nothing scrolls and the step's parts stay put for a few frames (the lab's own
 *  scroll, if any, is over, and so is the stage's fitting of its rows that may follow it). */
export function settle(page) {
  return page.evaluate(() => new Promise((resolve) => {
    let [last, still, frames, gap] = ['', 0, 0, 0];
    const root = window.__labRoot?.() ?? document;
    const tick = () => {
      const spots = [...root.querySelectorAll('.tour-spot, .tour')].map((el) => {
        const r = el.getBoundingClientRect();
        return `${Math.round(r.top)}+${Math.round(r.height)}`;
      });
      const y = `${scrollY} ${spots.join(' ')}`;
      if (y !== last && still > gap) gap = still;
      still = y === last ? still + 1 : 0;
      last = y;
      frames += 1;
      // Still for 10 frames: on a loaded machine the stage's first width (and the reveal that
      // follows it) can come several frames after the step. Measured over the visibility walks
      // (SETTLE_STATS=1), no still run of more than 4 frames was ever followed by a movement.
      if (still >= 10 || frames > 240) resolve({ gap, frames }); else requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  }));
}
