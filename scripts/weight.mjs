// The page's weight: each file of a build raw, gzip -9 and brotli (quality 11), the sum of
// wasm + js + css, and the first view: index.html and every file it names (its styles, scripts,
// the module and its wasm), what a reader's browser fetches before the lab is interactive.
// With --write, also leaves FILE.gz and FILE.br beside each file, for static hosts that serve
// precompressed files (nginx gzip_static, brotli_static; Caddy's precompressed).
// With --guard, fails when the first view, brotli, is over FIRST_VIEW_CEILING: a ratchet
// (issue 37: no later feature makes a reader download more), lowered as the first view is cut
// down toward issue 37's target, 350 KB.
// Usage: node scripts/weight.mjs [DIR] [--write] [--guard]   (DIR: Trunk's TRUNK_STAGING_DIR
// when not given). Trunk runs it with --write after every release build (Trunk.toml's
// post_build hook, on its staging directory); `make test-e2e` runs it with --guard on dist/,
// `make bench` prints the table of dist/. A file compressed before (the same bytes) takes its last
// copies from target/cache/compress (scripts/cache.mjs).
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { cached, keyOf } from './cache.mjs';

// The first view, brotli, of the release build on 2026-11-28 with 2 % to spare: 710.1 KB on
// 5ad06a5, 621.8 KB split by use (issue 37 step 1: the inspector, the table view, the writer,
// the handout, the things to try and the kubectl import in chunks fetched after); 649.4 KB with
// issue 38's client pods (their model, their view under the stage, tour 11), which the guard
// stopped at 634 KB: raised once, knowingly, to 662 KB; their view belongs in a chunk and tour 11
// in the served texts (issue 37 step 2), which bring it down again. 650.0 KB on 2026-11-28 with
// their view in the panels' chunk (and the things to try for them, the story's sentence on
// clients added): the ratchet down to 656 KB. Issue 37's target is 350 KB.
const FIRST_VIEW_CEILING = 656 * 1024;
const TARGET = 350 * 1024;
const KINDS = ['wasm', 'js', 'css', 'html'];

const args = process.argv.slice(2);
const dir = args.find((a) => !a.startsWith('--')) ?? process.env.TRUNK_STAGING_DIR;
const flags = args.filter((a) => a.startsWith('--'));
if (!dir) {
  console.error('usage: node scripts/weight.mjs DIR [--write]');
  process.exit(2);
}
const write = flags.includes('--write');
// The hook runs on every build; `trunk serve`'s debug builds are not shipped.
if (write && process.env.TRUNK_PROFILE && process.env.TRUNK_PROFILE !== 'release') process.exit(0);

// The build's files, and the first views of src/bin/poster.rs (`posters/`, fetched by pages that
// open a tour) after them.
const posters = (await readdir(`${dir}/posters`).catch(() => [])).filter((f) => f.endsWith('.html')).sort();
const files = [...(await readdir(dir)).sort(), ...posters.map((f) => `posters/${f}`)];
const rows = [];
for (const file of files) {
  const kind = file.split('.').pop();
  if (!KINDS.includes(kind)) continue;
  const body = await readFile(`${dir}/${file}`);
  const { dir: made } = await cached('compress', keyOf('gzip -9, brotli 11', process.version, body), async (out) => {
    await writeFile(`${out}/gz`, gzipSync(body, { level: 9 }));
    await writeFile(`${out}/br`, brotliCompressSync(body, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
    }));
  }, 4 * 128);
  const [gz, br] = await Promise.all([readFile(`${made}/gz`), readFile(`${made}/br`)]);
  if (write) {
    await writeFile(`${dir}/${file}.gz`, gz);
    await writeFile(`${dir}/${file}.br`, br);
  }
  rows.push({ file, kind, raw: body.length, gz: gz.length, br: br.length });
}

const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
console.log(`page weight of ${dir} (bytes)`);
console.log(`     ${'kind'.padEnd(5)} ${'raw'.padStart(9)} ${'gzip -9'.padStart(9)} ${'brotli'.padStart(9)}  file`);
for (const r of rows) {
  console.log(`     ${r.kind.padEnd(5)} ${String(r.raw).padStart(9)} ${String(r.gz).padStart(9)} ${String(r.br).padStart(9)}  ${r.file}`);
}
const page = rows.filter((r) => r.kind !== 'html');
const sum = (k) => page.reduce((s, r) => s + r[k], 0);
console.log(`     wasm + js + css: ${kb(sum('raw'))} raw, ${kb(sum('gz'))} gzip, ${kb(sum('br'))} brotli`);
const first = await firstView(dir);
const view = rows.filter((r) => first.has(r.file));
const brotli = view.reduce((s, r) => s + r.br, 0);
const over = brotli > FIRST_VIEW_CEILING;
console.log(`     first view (index.html and the ${view.length - 1} files it names or they import): ${kb(view.reduce((s, r) => s + r.gz, 0))} gzip, ${kb(brotli)} brotli (ceiling ${kb(FIRST_VIEW_CEILING)}${over ? `: OVER by ${kb(brotli - FIRST_VIEW_CEILING)}` : ''}; issue 37's target ${kb(TARGET)})`);
if (write) console.log(`     wrote ${rows.length * 2} precompressed files (.gz, .br) beside them`);
if (flags.includes('--guard') && (over || !first.has('index.html') || !view.some((r) => r.kind === 'wasm'))) {
  console.error(over ? 'weight: the first view grew past its ceiling' : `weight: no index.html naming a wasm module in ${dir}`);
  process.exit(1);
}

/** index.html, the files of `dir` it names by a relative href or src (not data: or http:), and
 *  the modules those scripts import statically: the split module's chunk loader
 *  (__wasm_split.js, scripts/split.mjs) comes before the lab is interactive, its chunks after. */
async function firstView(dir) {
  const html = await readFile(`${dir}/index.html`, 'utf8').catch(() => '');
  const named = [...html.matchAll(/\b(?:href|src)="([^"]+)"/g)]
    .map((m) => m[1])
    .filter((u) => !/^[a-z]+:/i.test(u) && !u.startsWith('//'))
    .map((u) => u.replace(/^\.?\//, '').replace(/[?#].*$/, ''));
  const files = new Set(html ? ['index.html', ...named] : []);
  const scripts = [...files].filter((f) => f.endsWith('.js'));
  while (scripts.length) {
    const js = await readFile(`${dir}/${scripts.pop()}`, 'utf8').catch(() => '');
    for (const [, f] of js.matchAll(/^import\b[^'"]*["']\.\/([^'"]+)["']/gm)) {
      if (!files.has(f) && f.endsWith('.js')) scripts.push(f);
      files.add(f);
    }
  }
  return files;
}
