// Runs the end-to-end scripts of tests/e2e (after `make package`), E2E_JOBS (2) at a time: one
// script leaves a core idle while its browser waits on a page; two keep both busy. Each script has its
// own browser, its own servers on free ports and its own files under test-artifacts/e2e/, so none
// sees another. A script's output is printed whole when it ends (test-artifacts/e2e/logs/ keeps
// it), and its wall time and its "ok" lines go to $PHASES for make test's table.
//   node scripts/e2e.mjs [NAME...]   (the names without .mjs; all of them by default)
import { spawn } from 'node:child_process';
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { busySeconds } from './cpu.mjs';

// Longest first (as measured two at a time on 2026-12-07), so that the last to start are short
// and the two lanes end together.
const ALL = [
  'visibility', 'docsites', 'tours', 'narration', 'app', 'axe', 'checker', 'roads', 'poster',
  'keyboard', 'lang', 'hostcss', 'print', 'predict', 'author', 'chunks', 'height', 'tour-src',
  'try', 'small', 'served',
];
const names = process.argv.slice(2).length ? process.argv.slice(2) : ALL;
const unknown = names.filter((n) => !ALL.includes(n));
if (unknown.length) {
  console.error(`e2e: no such end-to-end script: ${unknown.join(', ')} (known: ${ALL.join(' ')})`);
  process.exit(2);
}
const jobs = Math.max(1, Number(process.env.E2E_JOBS ?? 2));
const LOGS = 'test-artifacts/e2e/logs';
mkdirSync(LOGS, { recursive: true });

const running = new Set();
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    for (const child of running) child.kill('SIGTERM');
    process.exit(130);
  });
}

function run(name) {
  return new Promise((resolve) => {
    const [start, cpu] = [performance.now(), busySeconds()];
    console.log(`=== tests/e2e/${name}.mjs started`);
    const child = spawn(process.execPath, [`tests/e2e/${name}.mjs`], { stdio: ['ignore', 'pipe', 'pipe'] });
    running.add(child);
    let out = '';
    child.stdout.on('data', (d) => { out += d; });
    child.stderr.on('data', (d) => { out += d; });
    child.on('close', (code, signal) => {
      running.delete(child);
      const secs = (performance.now() - start) / 1000;
      const rc = code ?? 1;
      writeFileSync(`${LOGS}/${name}.log`, out);
      const oks = out.split('\n').filter((l) => l.startsWith('ok ')).length;
      const fails = out.split('\n').filter((l) => l.startsWith('FAIL')).length;
      console.log(`\n=== tests/e2e/${name}.mjs: ${rc ? `FAILED (${signal ?? `exit ${rc}`})` : 'passed'}, ${oks} ok, ${fails} FAIL, ${secs.toFixed(1)} s ===`);
      process.stdout.write(out);
      if (process.env.PHASES) appendFileSync(process.env.PHASES, `e2e: ${name}.mjs\t${secs.toFixed(1)}\t${oks}\tchecks\t${rc}\t${Math.round(busySeconds() - cpu)}\n`);
      resolve(rc === 0);
    });
  });
}

const queue = [...names];
const failed = [];
await Promise.all(Array.from({ length: Math.min(jobs, queue.length) }, async () => {
  while (queue.length) {
    const name = queue.shift();
    if (!(await run(name))) failed.push(name);
  }
}));
if (failed.length) {
  console.log(`\ne2e: ${failed.length} of ${names.length} scripts failed: ${failed.join(', ')} (their output above, and in ${LOGS}/)`);
  process.exit(1);
}
console.log(`\ne2e: all ${names.length} scripts passed, ${jobs} at a time`);
