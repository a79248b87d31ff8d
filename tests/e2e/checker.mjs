// The trainer's checker without Rust (issue 34): the packed tarball installed with `npm install
// --offline` into an empty folder, then `npx kube-bootstrap-lab tour check|run FILE` (the page's
// own wasm in Node, with no cargo on PATH) on every shipped tour and on broken ones, each answer
// (stdout byte for byte, stderr's line, exit code) compared with the release Rust CLI's for the
// same file (`target/release/bootstrap-sim`, built here when missing). Also `-` (stdin),
// `--help`, `--version`, a bad usage, and the bin's mode in the tarball.
// Usage: node tests/e2e/checker.mjs   (after `make package`)
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { check, finish } from './harness.mjs';

const version = (await readFile('Cargo.toml', 'utf8')).match(/^version = "([^"]+)"/m)[1];
const TARBALL = resolve(`target/package/kube-bootstrap-lab-${version}.tgz`);
const CLI = resolve('target/release/bootstrap-sim');
if (!existsSync(TARBALL)) {
  console.error(`checker: ${TARBALL} is missing: run \`make package\` first`);
  process.exit(1);
}
// The Rust CLI the answers must equal (cargo knows whether it is up to date).
execFileSync('cargo', ['build', '--quiet', '--release', '--no-default-features', '--bin', 'bootstrap-sim'], { stdio: 'inherit' });

// The bin is executable in the tarball itself (npm links it; `tar x` users run it too).
const listing = execFileSync('tar', ['tvzf', TARBALL], { encoding: 'utf8' });
const binLine = listing.split('\n').find((l) => l.endsWith(' package/bin/kube-bootstrap-lab.mjs')) ?? '';
check(/^-rwxr-xr-x/.test(binLine), `the tarball's bin/kube-bootstrap-lab.mjs is executable: ${binLine.split(/\s+/)[0] || 'missing'}`);
check(listing.includes(' package/docs/tour.md\n'), 'the tarball carries docs/tour.md');

const dir = await mkdtemp(join(tmpdir(), 'kbl-checker-'));
await writeFile(join(dir, 'package.json'), '{"name": "trainer", "private": true}\n');
execFileSync('npm', ['install', '--no-audit', '--no-fund', '--offline', '--loglevel=error', TARBALL], { cwd: dir, stdio: 'pipe' });

// A trainer's machine: Node and npm, no Rust (cargo's folder is taken off PATH).
const node = dirname(process.execPath);
const PATH = process.env.PATH.split(delimiter).filter((p) => p === node || !existsSync(join(p, 'cargo'))).join(delimiter);
check(!PATH.split(delimiter).some((p) => p !== node && existsSync(join(p, 'cargo'))), `npx runs with no cargo on PATH (${PATH})`);
const env = { ...process.env, PATH, npm_config_offline: 'true', npm_config_update_notifier: 'false' };

/** `npx kube-bootstrap-lab ARGS` in the trainer's folder: code, stdout, stderr. */
function npx(args, input) {
  const r = spawnSync('npx', ['--offline', 'kube-bootstrap-lab', ...args], { cwd: dir, env, input, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}
/** The Rust CLI on the same arguments. */
function rust(args) {
  const r = spawnSync(CLI, args, { encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const short = (s) => JSON.stringify(s.length > 90 ? `${s.slice(0, 90)}…` : s);
/** Both commands on `file`: the package answers as the CLI, and as `want` says (0, 1 or 2). */
function same(label, file, want) {
  for (const command of ['check', 'run']) {
    const args = ['tour', command, file];
    const [js, rs] = [npx(args), rust(args)];
    const code = command === 'check' && want === 1 ? 0 : want;
    check(js.code === rs.code && js.code === code, `${label}: tour ${command} exits ${js.code} (the CLI ${rs.code}, expected ${code})`);
    check(js.stdout === rs.stdout, `${label}: tour ${command}'s stdout is the CLI's, byte for byte (${js.stdout.length} bytes${js.stdout === rs.stdout ? '' : ` vs ${rs.stdout.length}: ${short(js.stdout)}`})`);
    const lines = js.stderr ? js.stderr.split('\n').length - 1 : 0;
    const oneLine = want === 2 ? lines === 1 && js.stderr.startsWith('error: ') && js.stdout === '' : js.stderr === '';
    check(js.stderr === rs.stderr && oneLine, `${label}: tour ${command}'s stderr is the CLI's ${want === 2 ? 'one line' : '(nothing)'}: ${short(js.stderr.trimEnd())}${js.stderr === rs.stderr ? '' : ` vs ${short(rs.stderr.trimEnd())}`}`);
  }
}

// Every shipped tour: valid, every step arrives.
const tours = (await readdir('tours')).filter((f) => f.endsWith('.json')).sort();
check(tours.length >= 10, `${tours.length} shipped tours`);
for (const f of tours) same(`tours/${f}`, resolve('tours', f), 0);

// Broken tours, each in a file of its own.
const bad = join(dir, 'bad');
await mkdir(bad);
const tour = (over = {}) => JSON.stringify({
  name: 'broken', title: { en: 'Broken', zh: '坏的' }, scenario: 'crash-one-of-three',
  steps: [{ say: { en: 'The start.' }, highlight: ['apiservers'] }, { at: '20s', say: 'Later.' }], ...over,
});
const cases = [
  ['bad JSON', '{"name": "broken", "title": ', 2],
  ['an empty file', '', 2],
  ['unknown language', tour({ steps: [{ say: { fr: 'Bonjour' } }] }), 2],
  ['unknown scenario', tour({ steps: [{ say: 'a' }, { scenario: 'nope', say: 'b' }] }), 2],
  ['unknown highlight part', tour({ steps: [{ say: 'a', highlight: ['moon'] }] }), 2],
  ['an apiserver the scenario lacks', tour({ steps: [{ say: 'a', highlight: ['apiserver:apiserver-z'] }] }), 2],
  ['an inline scenario with no apiserver', tour({ scenario: { name: 'none', cluster: { service_cluster_ip_range: '10.96.0.0/12', apiservers: [] } } }), 2],
  ['a step that never arrives', tour({ steps: [{ say: 'a' }, { until: { leases: [{ ip: '10.9.9.9' }] }, say: 'never' }, { say: 'after' }] }), 1],
  ['a byte-order mark', `\uFEFF${tour()}`, 2],
  ['a valid tour of its own', tour(), 0],
];
for (const [label, text, want] of cases) {
  const file = join(bad, `${label.replace(/\W+/g, '-')}.json`);
  await writeFile(file, text);
  same(label, file, want);
}
// Files that do not read: the same line as Rust's I/O errors.
await writeFile(join(bad, 'latin1.json'), Buffer.from([0x7b, 0x22, 0xe9, 0x22, 0x7d]));
same('invalid UTF-8', join(bad, 'latin1.json'), 2);
same('a missing file', join(bad, 'missing.json'), 2);
same('a folder', bad, 2);

// `-` reads the standard input: the same answer as the CLI gives for the file.
const story = resolve('tours/story.json');
const piped = npx(['tour', 'run', '-'], await readFile(story, 'utf8'));
const direct = rust(['tour', 'run', story]);
check(piped.code === 0 && piped.stdout === direct.stdout && piped.stderr === '', `tour run - < tours/story.json prints the CLI's JSON (${piped.stdout.length} bytes), exit ${piped.code}`);
const pipedBad = npx(['tour', 'check', '-'], '{"name": 1}');
check(pipedBad.code === 2 && /^error: name: .+\n$/.test(pipedBad.stderr), `tour check - with a bad file: exit ${pipedBad.code}, ${short(pipedBad.stderr.trimEnd())}`);

// The command's own words.
const help = npx(['--help']);
check(help.code === 0 && help.stdout.includes('tour check FILE') && help.stdout.includes('tour run FILE'), `--help: exit ${help.code}, names both commands`);
const ver = npx(['--version']);
check(ver.code === 0 && ver.stdout === `kube-bootstrap-lab ${version}\n`, `--version: ${short(ver.stdout.trimEnd())}`);
for (const args of [[], ['tour'], ['tour', 'lint', story], ['tour', 'check', story, 'extra']]) {
  const r = npx(args);
  check(r.code === 2 && r.stdout === '' && /^error: usage: .+\n$/.test(r.stderr), `${JSON.stringify(args.map((a) => (a === story ? 'FILE' : a)))}: exit ${r.code}, one usage line`);
}

await rm(dir, { recursive: true, force: true });
finish('checker');
