// The module split by use (issue 37), Trunk's first post_build step: wasm-split cuts cargo's
// wasm (linked with --emit-relocs, .cargo/config.toml) at its #[wasm_split] points (src/ui/lazy.rs)
// into the first module and its chunks plus their loader (__wasm_split.js, which fetches each
// chunk relative to its own URL, so embedding pages on any path or origin find them); then
// wasm-bindgen and, for release, wasm-opt on each module, as Trunk does for one. The results
// replace Trunk's module in its staging directory, with index.html's integrity hashes.
// Trunk's own wasm-bindgen still runs on the unsplit module (index.html asks it for no wasm-opt):
// Trunk 0.21 has no step to hand over.
// Usage: Trunk.toml's hook (TRUNK_STAGING_DIR, TRUNK_PROFILE); the tools are pinned by setup.sh.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cp, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { cached, copyOut, keyOf } from './cache.mjs';

const NAME = 'kube-bootstrap-lab';
// What the rust toolchain's wasm emits today: wasm-opt must accept it (Trunk passes the same).
const FEATURES = ['bulk-memory', 'nontrapping-float-to-int', 'sign-ext', 'mutable-globals', 'reference-types', 'multivalue'];

const staging = process.env.TRUNK_STAGING_DIR;
if (!staging) {
  console.error('split: TRUNK_STAGING_DIR is not set (run by trunk build)');
  process.exit(2);
}
const profile = process.env.TRUNK_PROFILE ?? 'release';
const target = process.env.CARGO_TARGET_DIR ?? 'target';
const input = `${target}/wasm32-unknown-unknown/${profile}/${NAME}.wasm`;
const work = `${target}/split`;
// The tools setup.sh installs, whatever the caller's PATH (npm's binaryen as Trunk.toml pins it).
const PATH = `${process.cwd()}/node_modules/.bin:${process.env.HOME}/.cargo/bin:${process.env.PATH}`;
const run = (cmd, args) => execFileSync(cmd, args, { stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, PATH } });

// The same module and tools give the same modules: a rebuild whose cargo output did not change
// takes the last ones (scripts/cache.mjs) instead of about 35 s of splitting and optimising.
const which = (cmd) => execFileSync('sh', ['-c', `command -v ${cmd}`], { env: { ...process.env, PATH } }).toString().trim();
const version = (cmd) => execFileSync(cmd, ['--version'], { env: { ...process.env, PATH } }).toString();
const key = keyOf(await readFile(input), NAME, profile, FEATURES.join(), version('wasm-bindgen'), version('wasm-opt'),
  await readFile(which('wasm-split-cli')));
const { dir: pkg, hit } = await cached('split', key, async (out) => {
  await rm(work, { recursive: true, force: true });
  await mkdir(`${work}/split`, { recursive: true });
  run('wasm-split-cli', ['--target', 'web', '--out-name', NAME, input, `${work}/split`]);
  run('wasm-bindgen', ['--target', 'web', '--keep-lld-exports', '--no-typescript', '--out-name', NAME,
    '--out-dir', out, `${work}/split/${NAME}.wasm`]);
  for (const f of await readdir(`${work}/split`)) {
    if (f !== `${NAME}.wasm`) await cp(`${work}/split/${f}`, `${out}/${f}`, { recursive: true });
  }
  if (profile === 'release') {
    for (const f of (await readdir(out)).filter((f) => f.endsWith('.wasm'))) {
      run('wasm-opt', ['-Oz', ...FEATURES.map((x) => `--enable-${x}`), `${out}/${f}`, '-o', `${out}/${f}`]);
    }
  }
});
const modules = (await readdir(pkg)).filter((f) => f.endsWith('.wasm'));
await copyOut(pkg, staging);

// index.html preloads the module and its wasm with Trunk's hashes of its own files.
const sri = async (f) => `sha384-${createHash('sha384').update(await readFile(`${staging}/${f}`)).digest('base64')}`;
let html = await readFile(`${staging}/index.html`, 'utf8');
for (const f of [`${NAME}.js`, `${NAME}_bg.wasm`]) {
  const link = new RegExp(`(<link[^>]*href="\\./${f.replaceAll('.', '\\.')}"[^>]*integrity=")[^"]*`);
  if (!link.test(html)) {
    console.error(`split: index.html has no integrity for ${f}`);
    process.exit(1);
  }
  const hash = await sri(f);
  html = html.replace(link, (_, head) => head + hash);
}
await writeFile(`${staging}/index.html`, html);
console.log(`split: ${modules.length} wasm modules (${modules.join(', ')}) into ${staging}${hit ? ' (unchanged: the last split, scripts/cache.mjs)' : ''}`);
