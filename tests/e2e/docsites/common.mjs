// What the docs sites of tests/e2e/docsites.mjs share: the packed tarball, the fallback the
// README writes, and the two tours a trainer brings: a copy of a shipped tour under another
// name and title, placed in the site and given by `tour-src`, and a small one written in the
// page (a Hugo shortcode's inner JSON, a Docusaurus prop, the element's JSON child).
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cp, lstat, readdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { cached, keyOf } from '../../../scripts/cache.mjs';

export const VERSION = readFileSync('Cargo.toml', 'utf8').match(/^version = "([^"]+)"/m)[1];
export const PACKAGE = `target/package/kube-bootstrap-lab-${VERSION}`;
export const TARBALL = resolve(`${PACKAGE}.tgz`);

/** Runs a site's build step without blocking the page being driven meanwhile (docsites.mjs builds
 *  the next site while it drives one); rejects as execFileSync throws, its stderr attached. */
export function run(cmd, args, options = {}) {
  return new Promise((resolve, reject) => {
    execFile(cmd, args, { maxBuffer: 64 << 20, ...options }, (e, stdout, stderr) => (e ? reject(Object.assign(e, { stderr })) : resolve(stdout)));
  });
}

/** The files under `dir` (its symlinks, the installed packages, left out), with their paths. */
async function filesOf(dir, base = dir, out = []) {
  for (const name of (await readdir(dir)).sort()) {
    const path = join(dir, name);
    const st = await lstat(path);
    if (st.isDirectory()) await filesOf(path, base, out);
    else if (st.isFile()) out.push(path.slice(base.length), await readFile(path));
  }
  return out;
}

/**
 * Builds a site once per content (scripts/cache.mjs): `build(out)` writes the built site of the
 * sources in `dir` (the lab's unpacked tarball among them) into `out`; the next run whose
 * sources, packages (`lock`, the site's package-lock.json or tool version) and builder are the
 * same copies that build into `to` instead. Resolves to whether it was built now.
 */
export async function buildOnce(name, dir, lock, to, build) {
  const key = keyOf(name, process.version, lock, ...(await filesOf(dir)));
  const { dir: made, hit } = await cached(`site-${name}`, key, build, 2);
  await cp(made, to, { recursive: true });
  return !hit;
}

export const steps = (tour) => JSON.parse(readFileSync(`tours/${tour}.json`, 'utf8')).steps.length;

const FALLBACK = 'kube-bootstrap-lab, an interactive explainer of how kube-apiserver keeps its <code>default/kubernetes</code> Service alive, appears here once it has loaded. If it does not,';
export const fallback = (href) => `<p class="kube-bootstrap-lab-fallback">${FALLBACK} <a href="${href}" target="_blank" rel="noopener">open the lab in its own tab</a>.</p>`;

/** The trainer's file: tours/etcd-outage.json renamed, its title its own (what the test looks for). */
export const TRAINER = { file: 'our-outage.json', title: 'Our etcd outage (the trainer\'s copy)', steps: steps('etcd-outage') };
export function trainerTour() {
  const tour = JSON.parse(readFileSync('tours/etcd-outage.json', 'utf8'));
  return `${JSON.stringify({ ...tour, name: 'our-outage', title: { en: TRAINER.title, zh: '我们的 etcd 中断（讲师的副本）' } }, null, 2)}\n`;
}

/** A tour written in the page. A "</script>" in its narration must not end the element's script. */
export const INLINE = {
  title: 'Written in the page',
  tour: {
    name: 'in-the-page',
    title: { en: 'Written in the page', zh: '写在页面里' },
    scenario: 'crash-one-of-three',
    steps: [
      { say: { en: 'Three apiservers hold a lease each (not a </script> tag).', zh: '三个 apiserver 各持有一个租约。' }, highlight: ['leases'] },
      { at: '20s', say: { en: 'Twenty seconds in.', zh: '二十秒后。' } },
    ],
  },
};

/** The README's snippet `name` (`<!-- snippet:NAME -->` and its fenced block), as it is, with only
 *  its address of the lab (`http://127.0.0.1:8080/`) replaced by `base`, where the site serves
 *  the package: what a reader pastes into the site's Markdown. */
export function readme(name, base) {
  const text = readFileSync('README.md', 'utf8');
  const m = text.match(new RegExp(`<!-- snippet:${name} -->\\s*\`\`\`html\\n([\\s\\S]*?)\`\`\``));
  if (!m) throw new Error(`README has no snippet ${name}`);
  return m[1].replaceAll('http://127.0.0.1:8080/', base).trimEnd();
}

/** The README's element, declared mount and iframe, each pasted in a <div id> of the page's own
 *  (the snippets have no id; the wrapper addresses them and leaves their text as it is), for
 *  Markdown: one HTML block each, with blank lines between them. */
export const README_IDS = { element: 'readme-element', mount: 'readme-mount', iframe: 'readme-iframe' };
export function readmeBlocks(base, between = ['The README\'s declared mount:', 'The README\'s iframe:']) {
  const block = (name) => `<div id="${README_IDS[name]}">\n${readme(name, base)}\n</div>`;
  return `${block('element')}\n\n${between[0]}\n\n${block('mount')}\n\n${between[1]}\n\n${block('iframe')}`;
}

/** The roads of the README's snippets, for drive.mjs: the mounted road by the wrapper's id. */
export const README_ROADS = {
  mounted: { id: README_IDS.mount, tour: 'lease-crash-vs-stop', what: "README's declared mount", phone: true },
  readme: { element: README_IDS.element, mount: README_IDS.mount, iframe: README_IDS.iframe },
};
