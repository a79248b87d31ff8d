// Trunk's post-build step for the Content-Security-Policy of index.html (no inline script):
// Trunk writes its module loader (`import init … await init(…)`) inline into the page, so this
// moves it into `boot.js` and loads that instead; then it refuses the build if any inline
// script is left, or if the page has no policy. Runs on every build (`trunk serve` too), before
// the weight step writes the precompressed copies.
// Usage: node scripts/csp.mjs [DIR]   (DIR: Trunk's TRUNK_STAGING_DIR when not given)
import { readFile, writeFile } from 'node:fs/promises';

const dir = process.argv[2] ?? process.env.TRUNK_STAGING_DIR;
if (!dir) {
  console.error('usage: node scripts/csp.mjs DIR');
  process.exit(2);
}
const page = `${dir}/index.html`;
let html = await readFile(page, 'utf8');
const fail = (why) => {
  console.error(`csp: ${page}: ${why}`);
  process.exit(1);
};

const loader = /<script type="module">\s*(import init, \* as bindings from [^]*?)<\/script>/;
const found = html.match(loader);
if (found) {
  await writeFile(`${dir}/boot.js`, `// Trunk's module loader, moved out of index.html by scripts/csp.mjs.\n${found[1].trim()}\n`);
  html = html.replace(loader, '<script type="module" src="boot.js"></script>');
  await writeFile(page, html);
}
const scripts = [...html.matchAll(/<script\b([^>]*)>([^]*?)<\/script>/g)];
const inline = scripts.filter(([, attrs, body]) => !/\bsrc=/.test(attrs) || body.trim());
// `trunk serve` writes its autoreload client inline; the policy blocks it (the page works, it
// just does not reload). `make serve` runs no `trunk serve`: a release build and scripts/serve.mjs.
const reload = inline.filter(([, , body]) => body.includes('/_trunk/ws'));
if (reload.length) console.warn('csp: Trunk\'s autoreload script is inline and the policy blocks it; serve with --no-autoreload');
const left = inline.filter((s) => !reload.includes(s));
if (left.length) fail(`${left.length} inline script(s) left, which the policy blocks: ${left.map(([s]) => s.slice(0, 60)).join(' | ')}`);
const policy = html.match(/<meta http-equiv="Content-Security-Policy" content="([^"]+)"/);
if (!policy) fail('no Content-Security-Policy meta element');
console.log(`csp: ${found ? 'moved Trunk\'s loader into boot.js; ' : ''}policy in force: ${policy[1]}`);
