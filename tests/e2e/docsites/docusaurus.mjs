// The Docusaurus 3 site of tests/e2e/docsites.mjs (classic preset), built from the npm registry
// only: its packages are tests/e2e/docusaurus/package-lock.json's, installed once by
// `scripts/setup.sh test` (npm ci); the site (tests/e2e/docusaurus/site/) is copied into a
// temporary folder whose node_modules links to those packages, with the lab's tarball unpacked
// as node_modules/kube-bootstrap-lab (what `npm install ./kube-bootstrap-lab-<version>.tgz`
// leaves) and its files copied to static/kube-bootstrap-lab/, as docs/embedding.md tells. The page uses
// the package's component (the element, following the colour mode) and its iframe, under
// /training/docs/guide/lab/.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { cp, mkdir, readdir, symlink, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { INLINE, README_ROADS, TARBALL, TRAINER, buildOnce, readmeBlocks, trainerTour, run } from './common.mjs';

const PACKAGES = resolve('tests/e2e/docusaurus/node_modules');

export async function buildDocusaurus(work) {
  if (!existsSync(join(PACKAGES, '@docusaurus/core'))) {
    throw new Error('tests/e2e/docusaurus/node_modules is missing: run scripts/setup.sh test');
  }
  const dir = join(work, 'docusaurus');
  await cp('tests/e2e/docusaurus/site', dir, { recursive: true });
  const modules = join(dir, 'node_modules');
  await mkdir(join(modules, 'kube-bootstrap-lab'), { recursive: true });
  for (const name of await readdir(PACKAGES)) await symlink(join(PACKAGES, name), join(modules, name));
  execFileSync('tar', ['xzf', TARBALL, '-C', join(modules, 'kube-bootstrap-lab'), '--strip-components=1']);
  await cp(join(modules, 'kube-bootstrap-lab'), join(dir, 'static/kube-bootstrap-lab'), { recursive: true });
  await mkdir(join(dir, 'static/tours'), { recursive: true });
  await writeFile(join(dir, `static/tours/${TRAINER.file}`), trainerTour());
  await writeFile(join(dir, 'src/inline-tour.json'), `${JSON.stringify(INLINE.tour, null, 2)}\n`);
  // The README's snippets, pasted as they are, their address of the lab the site's (under its
  // baseUrl), into an MDX page of their own (MDX reads their raw HTML as JSX: `class=` and
  // `&amp;` compile; a `style` string would not, which is why the iframe snippet has none). The
  // loader is the config's `scripts` entry.
  await writeFile(join(dir, 'docs/guide/snippets.mdx'), `---
title: The README's snippets
---
The lab, as the README writes it: the element,

${readmeBlocks('/training/kube-bootstrap-lab/')}

That is the whole mechanism.
`);
  // Served at /training/: the build goes to a folder of that name.
  const served = join(work, 'docusaurus-served');
  const started = Date.now();
  const built = await buildOnce('docusaurus', dir, readFileSync('tests/e2e/docusaurus/package-lock.json'), join(served, 'training'), (out) => run(
    process.execPath, [join(PACKAGES, '@docusaurus/core/bin/docusaurus.mjs'), 'build', dir, '--out-dir', out],
    { cwd: dir, env: { ...process.env, NO_UPDATE_NOTIFIER: '1', DOCUSAURUS_TELEMETRY_DISABLED: '1' } },
  ));
  console.log(`     docusaurus build: ${built ? `${((Date.now() - started) / 1000).toFixed(0)} s` : 'the same sources as the last one (target/cache)'}`);
  return {
    name: 'Docusaurus',
    root: served,
    page: 'training/docs/guide/lab/',
    // The README's snippets and the mounted road (the README's declared div) are on this page.
    readmePage: 'training/docs/guide/snippets/',
    dark: { toggle: 'nav.navbar button[title*="mode"]', isDark: 'html[data-theme=dark]' },
    // The home page's own link to the lab page: Docusaurus's router takes it.
    nav: { index: 'training/', link: 'main a[href="/training/docs/guide/lab/"]' },
    // The component says so when embed.js cannot load.
    failure: true,
    roads: {
      element: { id: 'lab-tour', tour: 'etcd-outage' },
      sandbox: { id: 'lab-sandbox' },
      trainer: { id: 'lab-trainer' },
      inline: { id: 'lab-inline' },
      iframe: { frame: 'iframe[data-kube-bootstrap-lab]', tour: 'kubernetes-service' },
      mounted: README_ROADS.mounted,
      readme: README_ROADS.readme,
    },
  };
}
