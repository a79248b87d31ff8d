// The lab against a host page's CSS: mount() renders in a shadow root on its element, and with
// `shadow: false` in the host's document itself, where a docs theme's element rules (`main`,
// `section`, `button`, `input`, `h2`, `*`, `ul`, `svg` …) reach it. Both, in the same host page with and without an aggressive theme: every main part of the lab (panels,
// stage, tour card, buttons, fields, key texts) must be where it was, within 2 px, and the panels
// no narrower. Screenshots in test-artifacts/e2e/hostcss-*.png.
// Usage: node tests/e2e/hostcss.mjs   (after `trunk build --release`; `make test-e2e` does both)
import { chromium } from 'playwright-core';
import { mkdir, writeFile } from 'node:fs/promises';
import { serve } from './serve.mjs';
import { ARTIFACTS, CHROMIUM, DIST, check, finish, steady } from './harness.mjs';

/** What a careless docs theme does to every element of a page; its root font size is 125 %
 *  (MkDocs Material's), which any `rem` inside the lab would follow. */
const THEME = `
html { font-size: 125%; }
html, body { font: 20px/2 Georgia, serif; letter-spacing: 0.03em; word-spacing: 0.2em; color: #333; }
* { box-sizing: content-box; line-height: 2.2; }
main { margin-left: 300px; max-width: 400px; }
main, section, article, aside, header, footer, nav { padding: 3em; margin: 2em 0; border: 4px solid #c33; max-width: 400px; }
h1, h2, h3, h4 { font-size: 3em; margin: 1.5em 0 0.5em; font-family: Georgia, serif; text-transform: uppercase; line-height: 1; }
p { margin: 2em 0; max-width: 30em; text-indent: 2em; }
ul, ol { margin: 2em; padding-left: 3em; list-style: square; }
li { margin: 0.5em 0; padding: 0.2em; }
dl, dd { margin: 2em; }
button { text-transform: uppercase; letter-spacing: 0.1em; width: 100%; padding: 1em 2em; font: bold 18px Georgia, serif;
  border-radius: 0; margin: 4px 0; display: block; background: #633; color: #fff; box-shadow: 0 0 0 4px #fc9; }
input, select, textarea { width: 100%; margin: 1em 0; padding: 12px; font-size: 20px; display: block; border: 3px double #999; }
label { display: block; font-weight: bold; margin: 0.5em 0; }
table { width: 50%; margin: 2em auto; border: 3px solid; }
th, td { padding: 1em; border: 1px solid; }
a { color: red; text-decoration: none; border-bottom: 2px solid; }
code { background: #fdd; padding: 0.3em 0.6em; font-size: 1.2em; border-radius: 4px; }
svg, img, canvas { max-width: 50px; height: auto; display: block; margin: 1em auto; }
strong, b { font-weight: 900; color: purple; }
span { padding: 0 2px; }
`;

/** A host page: prose, then the lab mounted in a 750 px column, then prose. */
function hostPage(lab, options, themed) {
  return `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>host</title>
${themed ? `<style>${THEME}</style>` : ''}</head><body style="margin: 0">
<div style="width: 750px; margin: 0 0 0 40px; padding: 0; border: 0">
<p id="before">A docs page with a theme of its own.</p>
<div id="lab" style="margin: 0; padding: 0; border: 0"></div>
<p id="after">More prose.</p>
</div>
<script type="module">
import { mount } from "${lab}embed.js";
window.lab = await mount(document.getElementById("lab"), ${JSON.stringify(options)});
window.mounted = true;
</script></body></html>`;
}

/** The parts whose boxes are compared, each found in the lab by a selector (all matches). */
const PARTS = [
  '.lab', '.topbar', '.brand h1', '.lede', '.controls', '#clock', '#play', '#scrubber', '.stage', '.stage-svg',
  '.tour', '#tour-title', '#tour-say', '#tour-next', '.grid', '.panel', '.panel h2', '.panel h3', '.card',
  '.card button', '#kubernetes-ip', '.address', '.leases li', '.events', '.event', '.bitmap-canvas',
  '.services table', '.create input', '.create select', '.create button', '.config-bar', '.config-form',
  '.config-form :is(input, select, label)', '#cfg-apply', '.panel.import textarea', '.lab select', '.ring',
  '.tour-head h2', '.writer-field', '.writer-field :is(textarea, input, select)', '.writer button',
];

/** The boxes of PARTS relative to the lab's top left corner, and a few computed styles. */
async function layout(page) {
  return page.evaluate((parts) => {
    const lab = document.querySelector('#lab').shadowRoot?.querySelector('.lab') ?? document.querySelector('#lab .lab');
    const o = lab.getBoundingClientRect();
    const boxes = {};
    for (const sel of parts) {
      [...lab.parentElement.querySelectorAll(sel)].forEach((el, i) => {
        const r = el.getBoundingClientRect();
        if (!r.width && !r.height) return; // not shown (display: none)
        boxes[`${sel} #${i}`] = [r.left - o.left, r.top - o.top, r.width, r.height].map((v) => Math.round(v * 10) / 10);
      });
    }
    const style = (sel, props) => {
      const el = lab.querySelector(sel);
      const cs = el && getComputedStyle(el);
      return Object.fromEntries(props.map((p) => [`${sel} ${p}`, cs?.getPropertyValue(p)]));
    };
    return {
      boxes,
      styles: {
        ...style('#play', ['text-transform', 'letter-spacing', 'font-family', 'width', 'box-shadow']),
        ...style('.panel h2', ['font-size', 'margin-top', 'text-transform']),
        ...style('.events', ['list-style-type', 'margin-left']),
        ...style('.lede', ['line-height', 'text-indent']),
        ...style('#kubernetes-ip', ['background-color', 'padding-left']),
      },
      host: getComputedStyle(document.getElementById('before')).textIndent,
    };
  }, PARTS);
}

/** Opens the host page for `options` (themed or not), readies the state `reach` sets up. */
async function measure(browser, url, reach) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, reducedMotion: 'reduce' });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(url);
  await page.waitForFunction(() => window.mounted, null, { timeout: 30000 });
  await page.waitForSelector('#lab .lab #kubernetes-ip');
  await reach(page);
  // Its lazy parts came from their chunk (the things to try, once the page was idle).
  await page.waitForFunction(() => !(document.querySelector('#lab').shadowRoot ?? document).querySelector('.lazy-loading'), null, { timeout: 20000 })
    .catch(() => console.log(`     ${url}: a lazy part of the lab still loading after 20 s`));
  // The lab's top at the top of the viewport in both pages: the tour card is sticky to the
  // viewport's bottom, and the prose above the lab differs in height with the theme.
  await page.evaluate(() => scrollTo(0, scrollY + (document.querySelector('#lab').shadowRoot?.querySelector('.lab') ?? document.querySelector('#lab .lab')).getBoundingClientRect().top));
  // Wait until the lab's layout after that scroll holds: the same boxes and styles 10 frames
  // apart (the sticky card moved, the stage fitted its rows), at most 20 s.
  const { value: got, steady: held } = await steady(page, () => layout(page));
  if (!held) console.log(`     ${url}: the lab's layout still moved after 20 s; measured as it was then`);
  return { page, context, errors, got };
}

const CASES = [
  ['tour', { tour: 'kubernetes-service' }, async (page) => { await page.waitForSelector('#tour-say'); }],
  ['tour-light-dom', { tour: 'kubernetes-service', shadow: false }, async (page) => { await page.waitForSelector('#tour-say'); }],
  // The docked card opened (its title shows) and the tour writer's fields: sized in px, not rem.
  ['tour-opened', { tour: 'kubernetes-service' }, async (page) => {
    await page.waitForSelector('#tour-say');
    await page.click('.tour-more');
    await page.waitForSelector('.tour-head h2');
  }],
  ['writer', { scenario: 'crash-one-of-three' }, async (page) => {
    await page.click('.write-tour');
    await page.waitForSelector('.writer-field textarea, .writer-field input');
  }],
  ['sandbox-configure', { scenario: 'crash-one-of-three' }, async (page) => {
    await page.click('#configure');
    await page.waitForSelector('#config-form');
  }],
];

const server = await serve(DIST);
const dir = `${ARTIFACTS}/hostcss`;
await mkdir(dir, { recursive: true });
for (const [name, options] of CASES) {
  await writeFile(`${dir}/${name}-plain.html`, hostPage(server.url, options, false));
  await writeFile(`${dir}/${name}-themed.html`, hostPage(server.url, options, true));
}
const host = await serve(dir);
const browser = await chromium.launch(CHROMIUM);
try {
  for (const [name, , reach] of CASES) {
    const plain = await measure(browser, `${host.url}${name}-plain.html`, reach);
    const themed = await measure(browser, `${host.url}${name}-themed.html`, reach);
    const tag = `mount() in a themed host page (${name})`;
    check(themed.got.host === '40px' && plain.got.host === '0px', `${tag}: the theme is in force around the lab (text-indent ${themed.got.host})`);
    const keys = Object.keys(plain.got.boxes);
    const moved = keys.filter((k) => {
      const a = plain.got.boxes[k], b = themed.got.boxes[k];
      return !b || a.some((v, i) => Math.abs(v - b[i]) > 2);
    });
    const extra = Object.keys(themed.got.boxes).filter((k) => !(k in plain.got.boxes));
    for (const k of [...moved, ...extra].slice(0, 25)) console.log(`     ${k.padEnd(40)} plain ${JSON.stringify(plain.got.boxes[k])}  themed ${JSON.stringify(themed.got.boxes[k])}`);
    check(keys.length > 60 && moved.length === 0 && extra.length === 0,
      `${tag}: ${keys.length} boxes (panels, stage, buttons, fields, texts) within 2 px of the unthemed page (${moved.length} moved, ${extra.length} extra)`);
    const styled = Object.entries(plain.got.styles).filter(([k, v]) => themed.got.styles[k] !== v);
    for (const [k, v] of styled) console.log(`     ${k.padEnd(40)} plain ${v}  themed ${themed.got.styles[k]}`);
    check(styled.length === 0, `${tag}: buttons, headings, lists and code keep the lab's own styles (${styled.length} differ)`);
    const panels = Object.entries(themed.got.boxes).filter(([k]) => k.startsWith('.panel #'));
    const narrowest = Math.min(...panels.map(([, b]) => b[2]));
    check(panels.length >= 6 && narrowest >= 340, `${tag}: ${panels.length} panels, none squeezed (narrowest ${narrowest} px in a 750 px column)`);
    check(plain.errors.length + themed.errors.length === 0, `${tag}: no page errors ${[...plain.errors, ...themed.errors].join('; ')}`);
    await plain.page.screenshot({ path: `${ARTIFACTS}/hostcss-${name}-plain.png`, fullPage: true });
    await themed.page.screenshot({ path: `${ARTIFACTS}/hostcss-${name}-themed.png`, fullPage: true });
    await plain.context.close();
    await themed.context.close();
  }
} finally {
  await browser.close();
  server.close();
  host.close();
}
finish('host css');
