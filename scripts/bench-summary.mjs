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
const gz = figure(weight, 'wasm + js + css:', 'raw,');
const fillNative = figure(native, 'fill a /12', 'median');
const fillWasm = figure(wasm, 'fill a /12', 'median');
const rows = [
  ['page weight, wasm + js + css gzip', `${gz.toFixed(1)} KB`, '≤ 250 KB', gz <= 250],
  ['first content after navigation', `${figure(browser, 'first content', 'median')} ms`, '(printed)', null],
  ['first frame of the lab', `${figure(browser, 'first frame', 'median')} ms`, '(printed)', null],
  ['world 24 h, native', `${figure(native, 'world: 24 h', 'median')} ms`, '≤ 200 ms', figure(native, 'world: 24 h', 'median') <= 200],
  ['world 24 h, wasm', `${figure(wasm, 'world: 24 h', 'median')} ms`, '(printed)', null],
  ['seek in 2 h, wasm core: median', `${figure(wasm, 'seek anywhere', 'median')} ms`, '≤ 16 ms', figure(wasm, 'seek anywhere', 'median') <= 16],
  ['seek in 2 h, wasm core: worst', `${figure(wasm, 'seek anywhere', 'max')} ms`, '≤ 33 ms', figure(wasm, 'seek anywhere', 'max') <= 33],
  ['seek with the scrubber, page: median', `${figure(browser, 'seek with the scrubber', 'median')} ms`, '≤ 16 ms', figure(browser, 'seek with the scrubber', 'median') <= 16],
  ['seek with the scrubber, page: worst', `${figure(browser, 'seek with the scrubber', 'worst')} ms`, '≤ 33 ms', figure(browser, 'seek with the scrubber', 'worst') <= 33],
  ['fill /12: native', `${fillNative} ms`, '', null],
  ['fill /12: wasm', `${fillWasm} ms`, '', null],
  ['fill /12: wasm / native', `${(fillWasm / fillNative).toFixed(2)}×`, '≤ 1.5×', fillWasm / fillNative <= 1.5],
  ['fill /12: fastest wasm / fastest native', `${(figure(wasm, 'fill a /12', 'min') / figure(native, 'fill a /12', 'min')).toFixed(2)}×`, '(printed)', null],
];
console.log('\nissue 12: figures and targets (this run, this machine)');
for (const [name, value, target, met] of rows) {
  const verdict = met === null ? '' : met ? 'met' : 'NOT MET';
  console.log(`  ${name.padEnd(40)} ${value.padStart(12)}   ${target.padEnd(10)} ${verdict}`);
}
