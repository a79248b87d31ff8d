#!/usr/bin/env node
// The size rules of CONTRIBUTING.md, measured on the formatted code (`make check` runs
// `cargo fmt --check` first, so what is measured is what rustfmt writes): no Rust file over
// 600 lines, no function over 100 lines. A function is counted from its `fn` line to the
// closing brace at its own indentation, its doc comments and attributes not counted.
// Usage: node scripts/size-rules.mjs [dir …]   (default: src tests benches build.rs fuzz/fuzz_targets crates)
import { readdirSync, readFileSync, statSync, existsSync } from 'node:fs';
import { join } from 'node:path';

const MAX_FILE = 600;
const MAX_FN = 100;

function rustFiles(path) {
  if (!existsSync(path)) return [];
  if (statSync(path).isFile()) return path.endsWith('.rs') ? [path] : [];
  return readdirSync(path)
    .filter((n) => n !== 'target')
    .sort()
    .flatMap((n) => rustFiles(join(path, n)));
}

const FN = /^(\s*)(?:pub(?:\([^)]*\))?\s+)?(?:const\s+)?(?:async\s+)?(?:unsafe\s+)?(?:extern\s+"[^"]*"\s+)?fn\s+(\w+)/;

/** The functions of `lines` longer than MAX_FN lines: [{ name, line, length }]. */
export function longFunctions(lines) {
  const out = [];
  lines.forEach((text, i) => {
    const m = FN.exec(text);
    if (!m) return;
    const indent = m[1];
    // A declaration without a body (a trait's) ends at its `;` before any `{`.
    for (let j = i; j < lines.length; j++) {
      if (j > i && lines[j].startsWith(`${indent}}`)) {
        if (j - i + 1 > MAX_FN) out.push({ name: m[2], line: i + 1, length: j - i + 1 });
        return;
      }
      if (/;\s*$/.test(lines[j]) && !lines.slice(i, j + 1).join('\n').includes('{')) return;
      // A one-line body (`fn f() { … }`) or one closing on its signature's last line.
      if (lines[j].startsWith(indent) && /\{.*\}\s*$/.test(lines[j]) && j === i) return;
    }
  });
  return out;
}

const roots = process.argv.length > 2 ? process.argv.slice(2) : ['src', 'tests', 'benches', 'build.rs', 'fuzz/fuzz_targets', 'crates'];
const problems = [];
for (const file of roots.flatMap(rustFiles)) {
  const lines = readFileSync(file, 'utf8').split('\n');
  if (lines.at(-1) === '') lines.pop();
  if (lines.length > MAX_FILE) problems.push(`${file}: ${lines.length} lines (at most ${MAX_FILE})`);
  for (const f of longFunctions(lines)) problems.push(`${file}:${f.line}: fn ${f.name} is ${f.length} lines (at most ${MAX_FN})`);
}
if (problems.length) {
  console.error(`size rules: ${problems.length} over\n${problems.join('\n')}`);
  process.exit(1);
}
console.log('size rules: no file over 600 lines, no function over 100 (formatted)');
