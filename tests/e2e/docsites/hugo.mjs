// The Hugo site of tests/e2e/docsites.mjs, built as docs/embedding.md tells: the tarball installed by
// npm, its files copied to static/, its layouts (the shortcodes and their partial) to layouts/.
// Its theme is written here, after hugo-book's rules (no download): class-scoped Markdown
// styles (normal-weight headings, lists indented 2rem, grey `code` boxes, links without
// underline), a global `button` rule and a sticky header, in a file (the page's policy allows no
// inline style). Built with Debian's Hugo (0.111) and, when `scripts/setup.sh test` has put it
// in target/tools/, a current one (PyPI's): the lab's part of the page must come out the same.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { cp, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { INLINE, README_ROADS, TARBALL, TRAINER, readme, readmeBlocks, trainerTour, run } from './common.mjs';

/** The current Hugo that scripts/setup.sh installs beside Debian's (same version there). */
export const HUGO_NEW = { version: '0.168.0', bin: 'target/tools/hugo-0.168.0/hugo' };

const BOOK_CSS = `/* After hugo-book's theme: what it does to a page's elements and classes. */
html { font-size: 16px; scroll-behavior: smooth; }
body { margin: 0; min-width: 20rem; color: #000; background: #fff; font-family: system-ui, sans-serif; line-height: 1.6; }
a { color: #05b; text-decoration: none; }
button { font: inherit; color: #05b; background: none; border: 1px solid #05b; border-radius: .5rem; padding: .5rem 1rem; cursor: pointer; }
img { vertical-align: baseline; }
.book-header { position: sticky; top: 0; z-index: 10; display: flex; align-items: center; height: 3.5rem; padding: 0 1rem; background: #fff; border-bottom: 1px solid #e9ecef; }
.book-header strong { font-size: 1.25rem; }
.book-main { display: flex; max-width: 80rem; margin: 0 auto; }
.book-menu { flex: 0 0 16rem; font-size: .875rem; }
.book-menu nav { position: sticky; top: 3.5rem; padding: 1rem; }
.book-menu ul { list-style: none; padding: 0; margin: 0; }
.book-page { flex-grow: 1; min-width: 20rem; padding: 1rem; }
.book-toc { flex: 0 0 16rem; font-size: .75rem; }
.markdown { line-height: 1.6; }
.markdown > :first-child { margin-top: 0; }
.markdown h1, .markdown h2, .markdown h3, .markdown h4 { font-weight: normal; line-height: 1; margin-top: 1.5em; margin-bottom: 1rem; }
.markdown b, .markdown strong { font-weight: bolder; }
.markdown a { text-decoration: none; color: #05b; }
.markdown a:visited { color: #8440f1; }
.markdown ul, .markdown ol { padding-left: 2rem; }
.markdown code { padding: 0 .25rem; background: #eee; border-radius: .15rem; font-size: .875em; }
.markdown pre { padding: 1rem; border-radius: .25rem; overflow-x: auto; }
.markdown table { display: block; overflow: auto; border-collapse: collapse; }
.markdown table td, .markdown table th { padding: .5rem; border: 1px solid #e9ecef; }
@media screen and (max-width: 56rem) {
  .book-menu, .book-toc { display: none; }
  .book-page { padding: .5rem; }
}
`;

const LAYOUT = `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{ .Title }}</title><link rel="icon" href="data:,"><link rel="stylesheet" href="{{ "book.css" | relURL }}"></head>
<body><header class="book-header"><strong>Kubernetes training</strong></header>
<main class="book-main"><aside class="book-menu"><nav><ul><li><a href="{{ "lab/" | relURL }}">The Service nobody wrote</a></li><li><a href="#">Endpoints</a></li></ul></nav></aside>
<div class="book-page"><article class="markdown">
<h1>{{ .Title }}</h1>
{{ .Content }}
</article></div><aside class="book-toc"><nav><ul><li><a href="#">On this page</a></li></ul></nav></aside></main></body></html>
`;

const CONTENT = `---
title: The Service nobody wrote
---
Every cluster has a \`default/kubernetes\` Service that no manifest defines. Take the tour:

{{< kube-bootstrap-lab id="lab-tour" tour="etcd-outage" controls="minimal" >}}

Now create a Service of your own:

{{< kube-bootstrap-lab id="lab-sandbox" scenario="crash-one-of-three" panels="services" >}}

Your trainer's tour (a file of the site's static/tours/):

{{< kube-bootstrap-lab id="lab-trainer" tour-src="/tours/${TRAINER.file}" controls="minimal" >}}

A tour written in this page:

{{< kube-bootstrap-lab-tour id="lab-inline" >}}
${JSON.stringify(INLINE.tour, null, 2)}
{{< /kube-bootstrap-lab-tour >}}

Or the trainer's tour in an iframe (its address relative to this page, a file of static/lab/tours/):

{{< kube-bootstrap-lab tour-src="tours/${TRAINER.file}" controls="minimal" iframe="true" >}}

The README's snippets, pasted as they are (its address of the lab made the site's,
\`/kube-bootstrap-lab/\`), with its loader line before them, each in a div of the page's own
(raw HTML in Markdown: the site sets Goldmark's \`unsafe\`): the element,

${readme('loader', '/kube-bootstrap-lab/')}

${readmeBlocks('/kube-bootstrap-lab/')}

That is the whole mechanism.
`;

/** Builds the site with `hugo` (a binary); returns the folder built. */
async function build(dir, hugo, out) {
  await run(hugo, ['--quiet', '-s', dir, '-d', out]);
  return out;
}

/** The lab's part of a built page: the article. */
const article = (file) => readFileSync(file, 'utf8').match(/<article class="markdown">([^]*?)<\/article>/)?.[1] ?? '';

export async function buildHugo(work) {
  const dir = join(work, 'hugo');
  for (const d of ['content', 'layouts/_default', 'static/tours', 'static/lab/tours']) await mkdir(join(dir, d), { recursive: true });
  await writeFile(join(dir, 'package.json'), '{ "private": true }\n');
  await run('npm', ['install', '--no-audit', '--no-fund', '--offline', '--loglevel=error', TARBALL], { cwd: dir });
  const pkg = join(dir, 'node_modules/kube-bootstrap-lab');
  await cp(pkg, join(dir, 'static/kube-bootstrap-lab'), { recursive: true });
  await cp(join(pkg, 'hugo/layouts'), join(dir, 'layouts'), { recursive: true });
  // config.toml: Debian bookworm's Hugo 0.111 reads no hugo.toml (newer ones read both).
  await writeFile(join(dir, 'config.toml'), `baseURL = "http://127.0.0.1/"
title = "Kubernetes training"
disableKinds = ["taxonomy", "term", "RSS", "sitemap"]
# The README's snippets are raw HTML in the Markdown: Goldmark drops them without this
# ("<!-- raw HTML omitted -->"); the shortcodes need it not.
[markup.goldmark.renderer]
unsafe = true
`);
  await writeFile(join(dir, 'static/book.css'), BOOK_CSS);
  await writeFile(join(dir, 'layouts/_default/single.html'), LAYOUT);
  await writeFile(join(dir, 'layouts/index.html'), LAYOUT);
  await writeFile(join(dir, 'content/lab.md'), CONTENT);
  await writeFile(join(dir, `static/tours/${TRAINER.file}`), trainerTour());
  await writeFile(join(dir, `static/lab/tours/${TRAINER.file}`), trainerTour());
  const version = (hugo) => execFileSync(hugo, ['version'], { encoding: 'utf8' }).match(/v(\d+\.\d+\.\d+)/)?.[1];
  const root = await build(dir, 'hugo', join(dir, 'public'));
  const builds = [{ version: version('hugo'), page: article(join(root, 'lab/index.html')) }];
  if (existsSync(HUGO_NEW.bin)) {
    const other = await build(dir, HUGO_NEW.bin, join(dir, 'public-new'));
    builds.push({ version: version(HUGO_NEW.bin), page: article(join(other, 'lab/index.html')) });
  }
  return {
    name: 'Hugo',
    root,
    page: 'lab/',
    builds,
    roads: {
      element: { id: 'lab-tour', tour: 'etcd-outage' },
      sandbox: { id: 'lab-sandbox' },
      trainer: { id: 'lab-trainer' },
      inline: { id: 'lab-inline' },
      iframe: { frame: 'iframe[data-kube-bootstrap-lab]', tour: 'our-outage', title: TRAINER.title, steps: TRAINER.steps },
      mounted: README_ROADS.mounted,
      readme: README_ROADS.readme,
    },
  };
}
