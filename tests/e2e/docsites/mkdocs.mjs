// The Material for MkDocs site of tests/e2e/docsites.mjs, built as docs/embedding.md tells, with
// MkDocs 1.6.1 and mkdocs-material 9.8.2 from the venv `scripts/setup.sh test` puts in
// target/tools/ (tests/e2e/mkdocs/requirements.txt): the tarball unpacked into docs/, its
// Markdown excluded, embed.js loaded on every page by `extra_javascript` as a module (it sizes
// the iframe too); instant navigation (Material swaps the page in without loading it), sticky tabs under
// the header and the light/dark palette toggle. The lab page (/lab/) has the element (following
// the palette by theme="page"), a sandbox element, a trainer's tour by `tour-src`, and the
// README's element, declared mount and iframe snippets pasted as they are (the mounted and the
// iframe roads); the home page links to it.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { README_ROADS, TARBALL, TRAINER, fallback, readmeBlocks, trainerTour, run } from './common.mjs';

export const MKDOCS = resolve('target/tools/mkdocs-1.6.1/bin/mkdocs');

/** A free port of 127.0.0.1: Material's instant navigation takes only the links its sitemap
 *  lists, which are site_url's, port included; the site is built for the port it is served on. */
function freePort() {
  return new Promise((done, fail) => {
    const s = createServer().once('error', fail).listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => done(port));
    });
  });
}

const config = (url) => `site_name: Kubernetes training
site_url: ${url}
theme:
  name: material
  # No Google Fonts (the page's policy allows only its own origin; the system's fonts instead).
  font: false
  features:
    - navigation.instant
    - navigation.tabs
    - navigation.tabs.sticky
  palette:
    - scheme: default
      toggle:
        icon: material/brightness-7
        name: Switch to dark mode
    - scheme: slate
      toggle:
        icon: material/brightness-4
        name: Switch to light mode
# On every page, as a module: loaded once, it finds the labs (and sizes the lab iframes) of each
# page instant navigation swaps in (an inline module script in a page would be run again as a
# classic one).
extra_javascript:
  - path: kube-bootstrap-lab/embed.js
    type: module
# The package's README.md and docs/tour.md would be published as pages.
exclude_docs: |
  /kube-bootstrap-lab/**/*.md
nav:
  - Home: index.md
  - The lab: lab.md
`;

// Each embed in a <div> of its own: Python-Markdown keeps a block that starts with a block tag
// as it is (an element it does not know would be put in a <p>). No blank line inside a block.
const LAB = `# The Service nobody wrote

Every cluster has a \`default/kubernetes\` Service that no manifest defines. Take the tour:

<div class="kube-bootstrap-lab-block">
<kube-bootstrap-lab id="lab-tour" tour="etcd-outage" controls="minimal" theme="page">
  ${fallback('../kube-bootstrap-lab/index.html?tour=etcd-outage&amp;controls=minimal')}
</kube-bootstrap-lab>
</div>

Now create a Service of your own:

<div class="kube-bootstrap-lab-block">
<kube-bootstrap-lab id="lab-sandbox" scenario="crash-one-of-three" panels="services">
  ${fallback('../kube-bootstrap-lab/index.html?scenario=crash-one-of-three&amp;panels=services')}
</kube-bootstrap-lab>
</div>

Your trainer's tour (a file of the site's \`docs/tours/\`, by its address from the site's root:
this page is served as \`/lab/\`):

<div class="kube-bootstrap-lab-block">
<kube-bootstrap-lab id="lab-trainer" tour-src="/tours/${TRAINER.file}" controls="minimal">
  ${fallback(`../kube-bootstrap-lab/index.html?tour-src=/tours/${TRAINER.file}&amp;controls=minimal`)}
</kube-bootstrap-lab>
</div>

The README's snippets, pasted as they are (its address of the lab made relative to this page,
\`../kube-bootstrap-lab/\`), each in a div of the page's own: the element,

${readmeBlocks('../kube-bootstrap-lab/')}

That is the whole mechanism.
`;

const INDEX = `# Kubernetes training

The course starts with [the Service nobody wrote](lab.md).
`;

export async function buildMkdocs(work) {
  if (!existsSync(MKDOCS)) throw new Error('target/tools/mkdocs-1.6.1 is missing: run scripts/setup.sh test');
  const dir = join(work, 'mkdocs');
  await mkdir(join(dir, 'docs/kube-bootstrap-lab'), { recursive: true });
  await mkdir(join(dir, 'docs/tours'), { recursive: true });
  execFileSync('tar', ['xzf', TARBALL, '-C', join(dir, 'docs/kube-bootstrap-lab'), '--strip-components=1']);
  await writeFile(join(dir, `docs/tours/${TRAINER.file}`), trainerTour());
  const port = await freePort();
  await writeFile(join(dir, 'mkdocs.yml'), config(`http://127.0.0.1:${port}/`));
  await writeFile(join(dir, 'docs/index.md'), INDEX);
  await writeFile(join(dir, 'docs/lab.md'), LAB);
  const started = Date.now();
  // --strict: a warning (a page's link to nothing, a file left out that a page needs) fails the build.
  await run(MKDOCS, ['build', '--strict', '--quiet', '-f', join(dir, 'mkdocs.yml')], { env: { ...process.env, NO_MKDOCS_2_WARNING: '1' } });
  console.log(`     mkdocs build: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return {
    name: 'MkDocs',
    root: join(dir, 'site'),
    port,
    page: 'lab/',
    // The palette toggle of the header: the label shown is the one that switches.
    dark: { toggle: 'form[data-md-component=palette] label:not([hidden])', isDark: 'body[data-md-color-scheme=slate]' },
    // The home page's own link to the lab page: Material's instant navigation takes it.
    nav: { index: '', link: 'article a[href$="/lab/"]' },
    roads: {
      element: { id: 'lab-tour', tour: 'etcd-outage' },
      mounted: README_ROADS.mounted,
      sandbox: { id: 'lab-sandbox' },
      trainer: { id: 'lab-trainer' },
      iframe: { frame: '#readme-iframe iframe[data-kube-bootstrap-lab]', tour: 'kubernetes-service' },
      readme: README_ROADS.readme,
    },
  };
}
