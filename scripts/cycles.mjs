#!/usr/bin/env node
// No import cycle between modules (issue 36): at every level of the module tree, the children
// of a module depend on each other in one direction only, so each can be read (and later moved
// into its own crate) after the ones it names. A child A depends on its sibling B when a file
// under A names a path into B (`crate::…`, `super::…`, `self::…`, a child module by its name),
// in a `use` (groups expanded) or in code. Naming the parent's own items (a façade's
// re-exports) is no edge: that is what a façade is for.
// Usage: node scripts/cycles.mjs [src-dir …]   (default: src and every crates/*/src)
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/** Every Rust file under `dir` with its module path (`lab::tour::file`; the root is ''). */
function modules(dir) {
  const out = [];
  const walk = (d) => {
    for (const n of readdirSync(d).sort()) {
      const p = join(d, n);
      if (statSync(p).isDirectory()) walk(p);
      else if (n.endsWith('.rs')) {
        const parts = relative(dir, p).replace(/\.rs$/, '').split('/');
        if (['mod', 'lib', 'main'].includes(parts.at(-1))) parts.pop();
        // Binaries (src/bin/x.rs, src/main.rs) are crates of their own.
        if (parts[0] === 'bin' || relative(dir, p) === 'main.rs') continue;
        out.push({ file: p, path: parts.join('::') });
      }
    }
  };
  walk(dir);
  return out;
}

/** The code of `text` without comments and string literals (their paths are no imports). */
function code(text) {
  return text
    .replace(/r(#*)"[^]*?"\1/g, '""')
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/'(?:[^'\\\n]|\\.)'/g, "' '")
    .replace(/\/\*[^]*?\*\//g, '')
    .replace(/\/\/.*$/gm, '');
}

/** The paths of a `use` tree, groups expanded: `a::{b, c::d}` → [a::b, a::c::d]. */
function expand(tree) {
  tree = tree.replace(/\s+/g, '');
  const open = tree.indexOf('{');
  if (open < 0) return [tree.replace(/\bas\w+$/, '')];
  const prefix = tree.slice(0, open);
  const inner = tree.slice(open + 1, tree.lastIndexOf('}'));
  const items = [];
  let [depth, start] = [0, 0];
  for (let i = 0; i <= inner.length; i++) {
    const c = inner[i];
    if (c === '{') depth++;
    if (c === '}') depth--;
    if ((c === ',' && depth === 0) || i === inner.length) {
      if (inner.slice(start, i)) items.push(inner.slice(start, i));
      start = i + 1;
    }
  }
  return items.flatMap((item) => expand(item).map((p) => `${prefix}${p}`));
}

function check(dir) {
  const mods = modules(dir);
  const known = new Set(mods.map((m) => m.path));
  // Each module's children by name, from the paths once (not filtered again for every path).
  const children = new Map();
  for (const p of known) {
    if (!p) continue;
    const parent = p.split('::').slice(0, -1).join('::');
    if (!children.has(parent)) children.set(parent, new Set());
    children.get(parent).add(p.split('::').at(-1));
  }
  const childrenOf = (m) => children.get(m) ?? new Set();
  /** The deepest module a path names, from module `at`. */
  const resolve = (at, path) => {
    let segs = path.split('::').filter(Boolean);
    let base = at ? at.split('::') : [];
    if (segs[0] === 'crate') [base, segs] = [[], segs.slice(1)];
    else if (segs[0] === 'self') segs = segs.slice(1);
    else if (segs[0] === 'super') {
      while (segs[0] === 'super') [base, segs] = [base.slice(0, -1), segs.slice(1)];
    } else if (!childrenOf(at).has(segs[0])) return null;
    let target = base.join('::');
    for (const s of segs) {
      const next = target ? `${target}::${s}` : s;
      if (!known.has(next)) break;
      target = next;
    }
    return target;
  };
  // Edges between siblings: parent → Map(child → Map(sibling → where)).
  const graph = new Map();
  for (const { file, path } of mods) {
    const text = code(readFileSync(file, 'utf8'));
    const lineOf = (i) => text.slice(0, i).split('\n').length;
    const refs = [];
    for (const m of text.matchAll(/\buse\s+([^;]+);/g)) for (const p of expand(m[1])) refs.push([p, m.index]);
    const uses = text.replace(/\buse\s+[^;]+;/g, (u) => ' '.repeat(u.length));
    for (const m of uses.matchAll(/\b(?:crate|super|self)(?:::\w+)+/g)) refs.push([m[0], m.index]);
    for (const [p, i] of refs) {
      const target = resolve(path, p);
      if (target === null || target === path) continue;
      const [a, b] = [path.split('::'), target.split('::').filter(Boolean)];
      let k = 0;
      while (k < a.length && k < b.length && a[k] === b[k]) k++;
      if (k >= a.length || k >= b.length) continue; // the target is this module's ancestor or descendant
      const parent = a.slice(0, k).join('::');
      const [from, to] = [a[k], b[k]];
      if (!graph.has(parent)) graph.set(parent, new Map());
      const edges = graph.get(parent);
      if (!edges.has(from)) edges.set(from, new Map());
      if (!edges.get(from).has(to)) edges.get(from).set(to, `${file}:${lineOf(i)} (${p})`);
    }
  }
  // Strongly connected components (Tarjan) of each level's graph.
  const problems = [];
  for (const [parent, edges] of [...graph].sort()) {
    const [index, low, stack, on] = [new Map(), new Map(), [], new Set()];
    let n = 0;
    const visit = (v) => {
      index.set(v, n); low.set(v, n++); stack.push(v); on.add(v);
      for (const w of (edges.get(v) ?? new Map()).keys()) {
        if (!index.has(w)) { visit(w); low.set(v, Math.min(low.get(v), low.get(w))); }
        else if (on.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
      }
      if (low.get(v) !== index.get(v)) return;
      const scc = [];
      let w;
      do { w = stack.pop(); on.delete(w); scc.push(w); } while (w !== v);
      if (scc.length < 2) return;
      const inside = scc.flatMap((x) => [...(edges.get(x) ?? new Map())].filter(([y]) => scc.includes(y)).map(([y, at]) => `    ${x} → ${y}: ${at}`));
      problems.push(`${dir}: a cycle in ${parent || 'the crate root'} between ${scc.sort().join(', ')}\n${inside.sort().join('\n')}`);
    };
    for (const v of [...edges.keys()].sort()) if (!index.has(v)) visit(v);
  }
  return problems;
}

const dirs = process.argv.length > 2
  ? process.argv.slice(2)
  : ['src', ...(existsSync('crates') ? readdirSync('crates').sort().map((c) => join('crates', c, 'src')).filter(existsSync) : [])];
const problems = dirs.flatMap(check);
if (problems.length) {
  console.error(`import cycles: ${problems.length}\n${problems.join('\n')}`);
  process.exit(1);
}
console.log(`import cycles: none (${dirs.join(', ')})`);
