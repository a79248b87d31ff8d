// The page's weight: each file of a build raw, gzip -9 and brotli (quality 11), and the sum of
// wasm + js + css gzipped against issue 12's budget. With --write, also leaves FILE.gz and
// FILE.br beside each file, for static hosts that serve precompressed files (nginx gzip_static,
// brotli_static; Caddy's precompressed).
// Usage: node scripts/weight.mjs [DIR] [--write]   (DIR: Trunk's TRUNK_STAGING_DIR when not given)
// Trunk runs it with --write after every release build (Trunk.toml's post_build hook, on its
// staging directory); `make bench` prints the table of dist/.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const BUDGET = 250 * 1024;
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
  const gz = gzipSync(body, { level: 9 });
  const br = brotliCompressSync(body, {
    params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
  });
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
console.log(`     wasm + js + css: ${kb(sum('raw'))} raw, ${kb(sum('gz'))} gzip (budget ${kb(BUDGET)}: ${sum('gz') <= BUDGET ? 'within' : `over by ${kb(sum('gz') - BUDGET)}`}), ${kb(sum('br'))} brotli`);
if (write) console.log(`     wrote ${rows.length * 2} precompressed files (.gz, .br) beside them`);
