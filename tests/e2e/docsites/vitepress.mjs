// The VitePress 1 site of tests/e2e/docsites.mjs (default theme), built as docs/embedding.md
// tells, from the npm registry only: its packages are tests/e2e/vitepress/package-lock.json's,
// installed once by `scripts/setup.sh test` (npm ci); the site is written into a temporary folder
// whose node_modules links to those packages, with the lab's tarball unpacked as
// node_modules/kube-bootstrap-lab (what `npm install ./kube-bootstrap-lab-<version>.tgz` leaves)
// and its files copied to docs/public/kube-bootstrap-lab/. embed.js is in every page's head (for
// the declarative mount), the package's Vue component is registered in the theme, and the lab
// page (/guide/lab.html) has the component (following the appearance switch), a sandbox element
// written in the Markdown, the README's element, declared mount and iframe snippets pasted as
// they are (the mounted road is the README's div), a trainer's tour by `tour-src`, a tour written
// in the page and the component's iframe (the iframe road: the first lab iframe of the page); the home page links to it (VitePress navigates there
// without loading a page).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { cp, mkdir, readdir, symlink, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { INLINE, README_ROADS, TARBALL, TRAINER, buildOnce, fallback, readmeBlocks, trainerTour, run } from './common.mjs';

const PACKAGES = resolve('tests/e2e/vitepress/node_modules');

/** The one inline style of the site: VitePress's appearance (VueUse's useColorMode) puts this
 *  <style> in the head to stop transitions while it applies the appearance, at every load too.
 *  Under a Content-Security-Policy the site allows it by its hash, as it does its inline scripts. */
const NO_TRANSITIONS = '*,*::before,*::after{-webkit-transition:none!important;-moz-transition:none!important;-o-transition:none!important;-ms-transition:none!important;transition:none!important}';

const CONFIG = `// The docs site's .vitepress/config.mjs, as docs/embedding.md writes it.
export default {
  title: 'Kubernetes training',
  // The package's README.md and docs/tour.md would be published as pages.
  srcExclude: ['public/**'],
  head: [
    // No favicon file: the browser would ask for /favicon.ico and log its 404.
    ['link', { rel: 'icon', href: 'data:,' }],
    // Every page: the element and the declarative mount work in any page's Markdown.
    ['script', { type: 'module', src: '/kube-bootstrap-lab/embed.js' }],
  ],
  vue: { template: { compilerOptions: { isCustomElement: (tag) => tag === 'kube-bootstrap-lab' } } },
  // The component imports "vitepress", which only Vite resolves: bundle it for the server's render too.
  vite: { ssr: { noExternal: ['kube-bootstrap-lab'] } },
  themeConfig: {
    nav: [{ text: 'The lab', link: '/guide/lab' }],
    sidebar: [{ text: 'Guide', items: [{ text: 'The Service nobody wrote', link: '/guide/lab' }] }],
  },
};
`;

const THEME = `import DefaultTheme from 'vitepress/theme';
import KubeBootstrapLab, { KubeBootstrapLabFrame } from 'kube-bootstrap-lab/vitepress/KubeBootstrapLab.js';

export default {
  extends: DefaultTheme,
  enhanceApp({ app }) {
    app.component('KubeBootstrapLab', KubeBootstrapLab);
    app.component('KubeBootstrapLabFrame', KubeBootstrapLabFrame);
  },
};
`;

const LAB = `---
title: The Service nobody wrote
---
<script setup>
import inline from './inline-tour.json';
</script>

# The Service nobody wrote

Every cluster has a \`default/kubernetes\` Service that no manifest defines. Take the tour:

<KubeBootstrapLab id="lab-tour" tour="etcd-outage" controls="minimal" />

Now create a Service of your own (the element itself, written in the Markdown):

<kube-bootstrap-lab id="lab-sandbox" scenario="crash-one-of-three" panels="services">
  ${fallback('/kube-bootstrap-lab/index.html?scenario=crash-one-of-three&amp;panels=services')}
</kube-bootstrap-lab>

The README's snippets, pasted as they are (its address of the lab made the site's,
\`/kube-bootstrap-lab/\`), each in a div of the page's own: the element,

${readmeBlocks('/kube-bootstrap-lab/')}

Your trainer's tour (a file of the site's \`public/tours/\`):

<KubeBootstrapLab id="lab-trainer" tour-src="/tours/${TRAINER.file}" controls="minimal" />

A tour written in this page:

<KubeBootstrapLab id="lab-inline" :tour-file="inline" />

Or the same lab in an iframe:

<KubeBootstrapLabFrame tour="kubernetes-service" controls="minimal" />

That is the whole mechanism.
`;

const INDEX = `# Kubernetes training

The course starts with [the Service nobody wrote](/guide/lab).
`;

export async function buildVitepress(work) {
  if (!existsSync(join(PACKAGES, 'vitepress'))) throw new Error('tests/e2e/vitepress/node_modules is missing: run scripts/setup.sh test');
  const dir = join(work, 'vitepress');
  const docs = join(dir, 'docs');
  for (const d of ['node_modules/kube-bootstrap-lab', 'docs/.vitepress/theme', 'docs/guide', 'docs/public/tours']) await mkdir(join(dir, d), { recursive: true });
  for (const name of await readdir(PACKAGES)) await symlink(join(PACKAGES, name), join(dir, 'node_modules', name));
  execFileSync('tar', ['xzf', TARBALL, '-C', join(dir, 'node_modules/kube-bootstrap-lab'), '--strip-components=1']);
  await cp(join(dir, 'node_modules/kube-bootstrap-lab'), join(docs, 'public/kube-bootstrap-lab'), { recursive: true });
  await writeFile(join(docs, `public/tours/${TRAINER.file}`), trainerTour());
  await writeFile(join(docs, '.vitepress/config.mjs'), CONFIG);
  await writeFile(join(docs, '.vitepress/theme/index.js'), THEME);
  await writeFile(join(docs, 'index.md'), INDEX);
  await writeFile(join(docs, 'guide/lab.md'), LAB);
  await writeFile(join(docs, 'guide/inline-tour.json'), `${JSON.stringify(INLINE.tour, null, 2)}\n`);
  const started = Date.now();
  const built = await buildOnce('vitepress', dir, readFileSync('tests/e2e/vitepress/package-lock.json'), join(docs, '.vitepress/dist'), async (out) => {
    await run(process.execPath, [join(dir, 'node_modules/vitepress/bin/vitepress.js'), 'build', 'docs', '--outDir', out], { cwd: dir });
  });
  console.log(`     vitepress build: ${built ? `${((Date.now() - started) / 1000).toFixed(0)} s` : 'the same sources as the last one (target/cache)'}`);
  if (!readFileSync(join(PACKAGES, '@vueuse/core/index.mjs'), 'utf8').includes(NO_TRANSITIONS)) throw new Error('VueUse no longer inserts the style whose hash the policy allows');
  return {
    name: 'VitePress',
    root: join(docs, '.vitepress/dist'),
    page: 'guide/lab.html',
    // The appearance switch in the navbar (at 1280 px; on a phone it is in the menu).
    dark: { toggle: '.VPNavBarAppearance button.VPSwitchAppearance', isDark: 'html.dark' },
    failure: true,
    styles: [`'sha256-${createHash('sha256').update(NO_TRANSITIONS).digest('base64')}'`],
    // The home page's own link to the lab page: VitePress's router takes it.
    nav: { index: '', link: '.vp-doc a[href^="/guide/lab"]' },
    roads: {
      element: { id: 'lab-tour', tour: 'etcd-outage' },
      mounted: README_ROADS.mounted,
      sandbox: { id: 'lab-sandbox' },
      trainer: { id: 'lab-trainer' },
      inline: { id: 'lab-inline' },
      iframe: { frame: 'iframe[data-kube-bootstrap-lab]', tour: 'kubernetes-service' },
      readme: README_ROADS.readme,
    },
  };
}
