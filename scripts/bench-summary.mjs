// The figures of issue 12 beside their targets, from one `make bench` run's logs:
// the page weight (scripts/weight.mjs), the browser figures (tests/e2e/bench.mjs), and the
// native (`cargo bench`) and wasm (`tests/wasm_bench.rs`) suites.
// Usage: node scripts/bench-summary.mjs WEIGHT.log BROWSER.log NATIVE.log WASM.log
import { readFileSync } from 'node:fs';

const [weight, browser, native, wasm] = process.argv.slice(2).map((f) => readFileSync(f, 'utf8'));
/** The first number after `label` (and after `field`, when given) on the line that has `label`. */
function figure(log, label, field = '') {
  const line = log.split('\n').find((l) => l.includes(label));
  const rest = line?.slice(line.indexOf(label) + label.length);
  const m = rest?.slice(field ? rest.indexOf(field) : 0).match(/([0-9]+(?:\.[0-9]+)?)/);
  return m ? Number(m[1]) : NaN;
}
const fill = (log, field) => figure(log, 'fill a /12', field);
// [figure, value, unit, the issue's limit (null: printed only)]
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
  ['fill /12: native', fill(native, 'median'), 'ms', null],
  ['fill /12: wasm', fill(wasm, 'median'), 'ms', null],
  ['fill /12: wasm / native', fill(wasm, 'median') / fill(native, 'median'), '×', 1.5],
  ['fill /12: fastest wasm / fastest native', fill(wasm, 'min') / fill(native, 'min'), '×', null],
];
console.log('\nissue 12: figures and targets (this run, this machine)');
for (const [name, value, unit, limit] of rows) {
  const shown = unit === '×' ? `${value.toFixed(2)}×` : `${Number(value.toFixed(3))} ${unit}`;
  const target = limit === null ? '(printed)' : `≤ ${limit}${unit === '×' ? '×' : ` ${unit}`}`;
  const verdict = limit === null ? '' : value <= limit ? 'met' : 'NOT MET';
  console.log(`  ${name.padEnd(40)} ${shown.padStart(12)}   ${target.padEnd(10)} ${verdict}`);
}
