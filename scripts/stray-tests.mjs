#!/usr/bin/env node
// No file under tests/ that nothing runs (issue 36: a scratch file was committed once and looked
// like a test). A tracked file under tests/ is run, or used by what runs, when it is:
// - a Rust test target (tests/*.rs, tests/*/main.rs, a [[test]] path of Cargo.toml), or a module
//   one reaches by `mod x;` / `#[path = "…"] mod x;`, or a file it includes (`include_str!`);
// - an end-to-end script the Makefile runs (`node tests/…mjs`, or by name in scripts/e2e.mjs), or
//   one such a script imports;
// - a data file (golden digests, kubectl samples, a docs site's sources) whose path, or whose
//   folder's path, a used file names; a script a used file names by its path (a generator);
// - proptest's regressions, when a used file has properties.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';

// Every package's tests: the root's and each crate's under crates/.
const tracked = execFileSync('git', ['ls-files', 'tests', 'crates/*/tests/*'], { encoding: 'utf8' })
  .split('\n')
  .filter((f) => f && !f.includes('/node_modules/'));
const read = (f) => (existsSync(f) ? readFileSync(f, 'utf8') : '');
const used = new Set();
const queue = [];
const use = (f) => {
  const n = normalize(f);
  if (!used.has(n) && existsSync(n)) used.add(n), queue.push(n);
};

// Roots: cargo's test targets and the Makefile's scripts.
const target = /^(crates\/[^/]+\/)?tests\/([^/]+\.rs|[^/]+\/main\.rs)$/;
for (const f of tracked) if (target.test(f)) use(f);
for (const m of read('Cargo.toml').matchAll(/^path\s*=\s*"(tests\/[^"]+)"/gm)) use(m[1]);
const makefile = read('Makefile');
for (const m of makefile.matchAll(/node (tests\/\S+\.mjs)/g)) use(m[1]);
// And the end-to-end scripts that `make test-e2e` runs through scripts/e2e.mjs (its list ALL).
const e2e = read('scripts/e2e.mjs').match(/const ALL = \[([^\]]*)\]/)?.[1] ?? '';
for (const m of e2e.matchAll(/'([\w-]+)'/g)) use(`tests/e2e/${m[1]}.mjs`);

/** The directory a Rust file's child modules live in: its own for a crate root or mod.rs. */
const modDir = (f) =>
  /(^(crates\/[^/]+\/)?tests\/[^/]+\.rs$|\/(main|mod|lib)\.rs$)/.test(f) ? dirname(f) : f.replace(/\.rs$/, '');

while (queue.length) {
  const f = queue.shift();
  const text = read(f);
  if (f.endsWith('.rs')) {
    for (const m of text.matchAll(/(#\[path\s*=\s*"([^"]+)"\]\s*)?(?:pub(?:\([^)]*\))?\s+)?mod\s+(\w+)\s*;/g)) {
      if (m[2]) use(join(dirname(f), m[2]));
      else if (existsSync(join(modDir(f), `${m[3]}.rs`))) use(join(modDir(f), `${m[3]}.rs`));
      else use(join(modDir(f), m[3], 'mod.rs'));
    }
    for (const m of text.matchAll(/include_(?:str|bytes)!\(\s*"([^"]+)"/g)) use(join(dirname(f), m[1]));
  }
  if (f.endsWith('.mjs')) {
    for (const m of text.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)) use(join(dirname(f), m[1]));
  }
}

// Data files: named by path (or by their folder's path, as a listing reads it) in what is used,
// in the Makefile, Cargo.toml, build.rs, or anywhere under src/ and scripts/.
const names = [...used].map(read).join('\n')
  + makefile + read('Cargo.toml') + read('build.rs')
  + execFileSync('git', ['grep', '-h', 'tests/', '--', 'src', 'scripts'], { encoding: 'utf8' });
const named = (f) => {
  for (let p = f; p !== 'tests' && p !== '.'; p = dirname(p)) {
    const rel = [p, relative('tests', p), relative('tests/e2e', p)];
    if (rel.some((r) => r && !r.startsWith('..') && names.includes(r))) return true;
  }
  return false;
};
// proptest keeps its shrunk failing cases there and replays them first (crates/lab/tests/core/props.rs).
const proptest = [...used].some((f) => f.endsWith('.rs') && read(f).includes('proptest!'));
const isData = (f) => !/\.(rs|mjs)$/.test(f);
const stray = tracked.filter((f) => !used.has(normalize(f))
  && !(proptest && /(^|\/)tests\/proptest-regressions\//.test(f))
  // A script a used file runs or names as its fixtures' generator, by its path.
  && !(f.endsWith('.mjs') && names.includes(f))
  && (!isData(f) || !named(f)));
if (stray.length) {
  console.error(`stray test files (no target runs them, nothing names them):\n${stray.join('\n')}`);
  process.exit(1);
}
console.log(`stray tests: none (${tracked.length} tracked files under tests/ and crates/*/tests/, each run or used)`);
