// The figures of issues 12 and 27 beside their targets, from one `make bench` run's logs:
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
const poster = first('throttled', 'poster visible');
const posterTarget = { text: 'before any wasm', met: poster < first('throttled', 'poster visible', 'first byte at median') };
// [figure, value, unit, the issue's limit (null: printed only; or { text, met })]
const rows = [
  ['page weight, wasm + js + css gzip', figure(weight, 'wasm + js + css:', 'raw,'), 'KB', 250],
  ['first content after navigation', figure(browser, 'first content', 'median'), 'ms', null],
  ['first frame of the lab', figure(browser, 'first frame', 'median'), 'ms', null],
  ['world 24 h, native', figure(native, 'world: 24 h', 'median'), 'ms', 200],
  ['world 24 h, wasm', figure(wasm, 'world: 24 h', 'median'), 'ms', null],
  ['seek in 2 h, wasm core: median', figure(wasm, 'seek anywhere', 'median'), 'ms', 16],
  ['seek in 2 h, wasm core: worst', figure(wasm, 'seek anywhere', 'max'), 'ms', 33],
  ['seek with the scrubber, page: median', figure(browser, 'seek with the scrubber', 'median'), 'ms', 16],
  ['seek with the scrubber, page: worst', figure(browser, 'seek with the scrubber', 'worst'), 'ms', 33],
  ['write a tour: an action, wasm: worst', figure(wasm, 'write: an action', 'max'), 'ms', 100],
  ['write a tour: a step added, wasm: worst', figure(wasm, 'write: a step added', 'max'), 'ms', 100],
  ['fill /12: native', fill(native, 'median'), 'ms', null],
  ['fill /12: wasm', fill(wasm, 'median'), 'ms', null],
  ['fill /12: wasm / native', fill(wasm, 'median') / fill(native, 'median'), '×', 1.5],
  ['fill /12: fastest wasm / fastest native', fill(wasm, 'min') / fill(native, 'min'), '×', null],
  ...(load ? [
    ['first view, slow link: poster visible', poster, 'ms', posterTarget],
    ['first view, slow link: interactive', first('throttled', 'interactive'), 'ms', 3000],
    ['first view, slow link: bytes by then', first('throttled', 'bytes transferred'), 'KB', 250],
    ['first view, loopback: poster visible', first('unthrottled', 'poster visible'), 'ms', null],
    ['first view, loopback: interactive', first('unthrottled', 'interactive'), 'ms', null],
    ['first view, loopback: bytes by then', first('unthrottled', 'bytes transferred'), 'KB', null],
    ['weight, first-view part, gzip', figure(load, 'weight, first-view part:', 'raw,'), 'KB', 250],
    ['weight, every file, gzip', figure(load, 'weight, every file:', 'raw,'), 'KB', null],
    ['weight, every file, brotli', figure(load, 'weight, every file:', 'gzip,'), 'KB', null],
  ] : []),
];
console.log(`\nissue 12${load ? ' and 27' : ''}: figures and targets (this run, this machine)`);
for (const [name, value, unit, limit] of rows) {
  const shown = unit === '×' ? `${value.toFixed(2)}×` : `${Number(value.toFixed(3))} ${unit}`;
  const custom = limit !== null && typeof limit === 'object';
  const target = limit === null ? '(printed)' : custom ? limit.text : `≤ ${limit}${unit === '×' ? '×' : ` ${unit}`}`;
  const verdict = limit === null ? '' : (custom ? limit.met : value <= limit) ? 'met' : 'NOT MET';
  console.log(`  ${name.padEnd(40)} ${shown.padStart(12)}   ${target.padEnd(15)} ${verdict}`);
}
