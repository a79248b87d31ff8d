// `make dist`: the release build (dist/) as a package for docs sites. Copies what embed.js and
// the lab's page load (module, wasm, stylesheets, workers, scripts, index.html for iframes, each
// with its .gz and .br) into target/package/kube-bootstrap-lab-<version>/ with the package's own
// files (packaging/: embed.d.ts, the Hugo shortcodes, the Docusaurus and VitePress components,
// README.md; frame-height.js comes with dist/), writes its
// package.json (version from Cargo.toml) and packs it with `npm pack` beside the folder.
// Usage: node scripts/dist.mjs   (after `trunk build --release`)
import { execFileSync } from 'node:child_process';
import { cp, mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';

const NAME = 'kube-bootstrap-lab';
// The demo page of the repository is no part of what a docs site hosts.
const SKIP = /^docs-example\./;

const cargo = await readFile('Cargo.toml', 'utf8');
const field = (key) => cargo.match(new RegExp(`^\\[package\\][^]*?^${key} = "([^"]*)"`, 'm'))?.[1];
const version = field('version');
const folder = `target/package/${NAME}-${version}`;

const built = (await readdir('dist').catch(() => [])).filter((f) => !SKIP.test(f)).sort();
for (const needed of ['embed.js', `${NAME}.js`, `${NAME}_bg.wasm`, 'index.html', `${NAME}_bg.wasm.br`]) {
  if (!built.includes(needed)) {
    console.error(`dist: dist/${needed} is missing: run \`trunk build --release\` first`);
    process.exit(1);
  }
}

await rm(folder, { recursive: true, force: true });
await mkdir(folder, { recursive: true });
for (const f of built) await cp(`dist/${f}`, `${folder}/${f}`, { recursive: true });
await cp('packaging', folder, { recursive: true });
// The tour format, which the package's README and its checker (bin/) point to.
await cp('docs/tour.md', `${folder}/docs/tour.md`);

/** Every file of the folder, as package paths (`./a/b`). */
async function list(dir, prefix = '.') {
  const out = [];
  for (const f of (await readdir(dir)).sort()) {
    const s = await stat(`${dir}/${f}`);
    if (s.isDirectory()) out.push(...await list(`${dir}/${f}`, `${prefix}/${f}`));
    else out.push(`${prefix}/${f}`);
  }
  return out;
}
const files = await list(folder);

// Hosts copy the files or import them by path: every file is exported as itself, embed.js also
// as the package's entry, with its types.
const entry = { types: './embed.d.ts', default: './embed.js' };
const exports = { '.': entry, './embed.js': entry, './package.json': './package.json' };
for (const f of files) exports[f] ??= f;
const pkg = {
  name: NAME,
  version,
  description: field('description'),
  license: field('license'),
  type: 'module',
  main: './embed.js',
  types: './embed.d.ts',
  exports,
  files: files.map((f) => f.slice(2)),
  keywords: ['kubernetes', 'kube-apiserver', 'explainer', 'webassembly', 'custom-element', 'mdbook', 'hugo', 'docusaurus', 'mkdocs', 'vitepress'],
  sideEffects: ['./embed.js', './frame-height.js'],
  // `npx kube-bootstrap-lab tour check|run FILE`: the page's wasm in Node, no Rust.
  bin: { [NAME]: './bin/kube-bootstrap-lab.mjs' },
  engines: { node: '>=18' },
};
await writeFile(`${folder}/package.json`, `${JSON.stringify(pkg, null, 2)}\n`);

const [packed] = JSON.parse(execFileSync('npm', ['pack', '--json', '--pack-destination', '..'], { cwd: folder, encoding: 'utf8' }));
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
console.log(`dist: ${folder}/ (${packed.entryCount} files, ${kb(packed.unpackedSize)})`);
console.log(`dist: target/package/${packed.filename} (${kb(packed.size)}), for \`npm install\``);
