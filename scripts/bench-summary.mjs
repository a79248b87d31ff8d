// The figures of issues 12, 27 and 37 beside their targets, from one `make bench` run's logs:
// the page weight (scripts/weight.mjs), the browser figures (tests/e2e/bench.mjs), the native
// (`cargo bench`) and wasm (`crates/lab/tests/wasm_bench.rs`) suites, and the first view (tests/e2e/load.mjs).
// Usage: node scripts/bench-summary.mjs WEIGHT.log BROWSER.log NATIVE.log WASM.log [LOAD.log]
import { readFileSync } from 'node:fs';

const [weight, browser, native, wasm, load = ''] = process.argv.slice(2).map((f) => readFileSync(f, 'utf8'));
/** The first number after `label` (and after `field`, when given) on the line that has `label`. */
function figure(log, label, field = '') {
  const line = log.split('\n').find((l) => l.includes(label));
  const rest = line?.slice(line.indexOf(label) + label.length);
  const m = rest?.slice(field ? rest.indexOf(field) : 0).match(/([0-9]+(?:\.[0-9]+)?)/);
  return m ? Number(m[1]) : NaN;
}
const fill = (log, field) => figure(log, 'fill a /12', field);
const first = (profile, label, field = 'median') => figure(load, `first view, ${profile}: ${label}`, field);
// Issue 27's poster must not wait for the wasm: visible before the wasm's first byte arrives.
const poster = first('throttled, br', 'poster visible');
const posterTarget = { text: 'before any wasm', met: poster < first('throttled, br', 'poster visible', 'first byte at median') };
// Every wasm module and chunk of the build, brotli, against issue 37's reference: the single
// module of 80f2ddb, 625 KB brotli, when the issue was filed; at most 10 % more.
const wasmBrotli = weight.split('\n').filter((l) => /^\s+wasm\s/.test(l))
  .reduce((s, l) => s + Number(l.trim().split(/\s+/)[3]), 0) / 1024;
const slow = (enc, limits) => [
  [`first view, slow link, ${enc}: poster visible`, first(`throttled, ${enc}`, 'poster visible'), 'ms', limits.poster],
  [`first view, slow link, ${enc}: interactive`, first(`throttled, ${enc}`, 'interactive'), 'ms', limits.interactive],
  [`first view, slow link, ${enc}: bytes by then`, first(`throttled, ${enc}`, 'bytes transferred'), 'KB', limits.bytes],
  [`first use, slow link, ${enc}: writer`, first(`throttled, ${enc}`, "click to the writer's"), 'ms', 1500],
  [`first use, slow link, ${enc}: import`, first(`throttled, ${enc}`, "click to the import's"), 'ms', 1500],
  [`first view, loopback, ${enc}: interactive`, first(`unthrottled, ${enc}`, 'interactive'), 'ms', null],
  [`first use, loopback, ${enc}: writer`, first(`unthrottled, ${enc}`, "click to the writer's"), 'ms', null],
  [`first use, loopback, ${enc}: import`, first(`unthrottled, ${enc}`, "click to the import's"), 'ms', null],
];
// [figure, value, unit, the issue's limit (null: printed only; or { text, met })]
const rows = [
  ['page weight, wasm + js + css gzip', figure(weight, 'wasm + js + css:', 'raw,'), 'KB', null],
  ['page weight, first view brotli', figure(weight, 'first view (', 'gzip,'), 'KB', 350],
  ['page weight, every wasm module, brotli', wasmBrotli, 'KB', 687.5],
  ['first content after navigation', figure(browser, 'first content', 'median'), 'ms', null],
  ['first frame of the lab', figure(browser, 'first frame', 'median'), 'ms', null],
  ['world 24 h, native', figure(native, 'world: 24 h', 'median'), 'ms', 200],
  ['world 24 h, wasm', figure(wasm, 'world: 24 h', 'median'), 'ms', null],
  ['seek in 2 h, wasm core: median', figure(wasm, 'seek anywhere', 'median'), 'ms', 16],
  ['seek in 2 h, wasm core: worst', figure(wasm, 'seek anywhere', 'max'), 'ms', 33],
  ['seek with the scrubber, page: median', figure(browser, 'seek with the scrubber', 'median'), 'ms', 16],
  ['seek with the scrubber, page: worst', figure(browser, 'seek with the scrubber', 'worst'), 'ms', 33],
  ['frames at 20×: p95 interval', figure(browser, 'frames while playing at 20×', 'p95'), 'ms', 16.7],
  ['write a tour: an action, wasm: worst', figure(wasm, 'write: an action', 'max'), 'ms', 100],
  ['write a tour: a step added, wasm: worst', figure(wasm, 'write: a step added', 'max'), 'ms', 100],
  ['fill /12: native', fill(native, 'median'), 'ms', null],
  ['fill /12: wasm', fill(wasm, 'median'), 'ms', null],
  ['fill /12: wasm / native', fill(wasm, 'median') / fill(native, 'median'), '×', 1.5],
  ['fill /12: fastest wasm / fastest native', fill(wasm, 'min') / fill(native, 'min'), '×', null],
  ...(load ? [
    ['first view, slow link: poster visible', poster, 'ms', posterTarget],
    ...slow('br', { poster: 1000, interactive: 3500, bytes: 350 }),
    ...slow('gzip', { poster: 1000, interactive: 4000, bytes: 450 }),
    ['weight, first-view part, brotli', figure(load, 'weight, first-view part:', 'gzip,'), 'KB', 350],
    ['weight, every file, gzip', figure(load, 'weight, every file:', 'raw,'), 'KB', null],
    ['weight, every file, brotli', figure(load, 'weight, every file:', 'gzip,'), 'KB', null],
  ] : []),
];
console.log(`\nissues 12${load ? ', 27 and 37' : ''}: figures and targets (this run, this machine)`);
for (const [name, value, unit, limit] of rows) {
  const shown = unit === '×' ? `${value.toFixed(2)}×` : `${Number(value.toFixed(3))} ${unit}`;
  const custom = limit !== null && typeof limit === 'object';
  const target = limit === null ? '(printed)' : custom ? limit.text : `≤ ${limit}${unit === '×' ? '×' : ` ${unit}`}`;
  const verdict = limit === null ? '' : (custom ? limit.met : value <= limit) ? 'met' : 'NOT MET';
  console.log(`  ${name.padEnd(46)} ${shown.padStart(12)}   ${target.padEnd(15)} ${verdict}`);
}
