// Prints the table that closes `make test`: each phase that scripts/phase.sh (and the scripts that
// record their own parts: setup.sh, web-tests.sh, e2e.mjs) wrote to $PHASES, with its wall time,
// the CPU time the machine spent meanwhile and what it counted; then the whole run, and one
// closing line of the totals.
//   node scripts/phases.mjs [FILE]
import { readFileSync } from 'node:fs';
import { busySeconds } from './cpu.mjs';

const file = process.argv[2] ?? process.env.PHASES;
if (!file) {
  console.error('phases: no file (PHASES is not set)');
  process.exit(2);
}
const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => l.split('\t'));
const begun = lines.find(([name]) => name === '#begin');
const rows = lines.filter(([name]) => !name.startsWith('#')).map(([name, secs, n, what, rc, cpu]) => ({
  name, secs: Number(secs), n: n === '-' ? null : Number(n), what, rc: Number(rc), cpu: Number(cpu),
}));

const width = Math.max(44, ...rows.map((r) => r.name.length));
const time = (s) => (s >= 60 ? `${Math.floor(s / 60)} min ${String(Math.round(s % 60)).padStart(2)} s` : `${s.toFixed(1)} s`);
const row = (name, secs, cpu, counted) => `${name.padEnd(width)}  ${time(secs).padStart(10)}  ${(Number.isFinite(cpu) ? `${cpu}` : '').padStart(6)}  ${counted}`;
const out = [
  '',
  'make test, phase by phase: wall time, the CPU time the machine spent meanwhile (core-seconds, 2 cores),',
  'what it counted. The end-to-end scripts run two at a time, so their rows overlap.',
  `${'phase'.padEnd(width)}  ${'time'.padStart(10)}  ${'CPU'.padStart(6)}  counted`,
];
for (const r of rows) {
  const counted = r.n === null ? '' : `${r.n.toLocaleString('en')} ${r.what}`;
  out.push(row(r.name, r.secs, r.cpu, `${counted}${r.rc ? '  FAILED' : ''}`));
}
const sum = (what) => rows.filter((r) => r.what === what).reduce((s, r) => s + (r.n ?? 0), 0);
const [tests, checks, scenarios] = ['tests', 'checks', 'scenarios'].map(sum);
const failed = rows.filter((r) => r.rc).length;
const wall = begun ? Date.now() / 1000 - Number(begun[1]) : rows.reduce((s, r) => s + r.secs, 0);
const cpu = begun ? Math.round(busySeconds() - Number(begun[2])) : NaN;
out.push(row('whole run', wall, cpu, `${tests.toLocaleString('en')} tests, ${checks.toLocaleString('en')} checks, ${scenarios} scenarios`));
console.log(out.join('\n'));
// The plain closing line: everything counted passed, and the phases that failed.
console.log(`total: ${tests + checks + scenarios} passed, ${failed} failed`);
