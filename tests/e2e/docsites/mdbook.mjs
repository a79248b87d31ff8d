// The mdBook book of tests/e2e/docsites.mjs, written as docs/embedding.md tells: the tarball unpacked
// into src/, raw HTML in the chapter's Markdown (mdBook 0.5.4 keeps scripts, iframes and custom
// elements). Its chapter: the element with a tour, a second element (a sandbox), a trainer's
// tour by `tour-src`, and an iframe.
import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { TARBALL, TRAINER, fallback, trainerTour } from './common.mjs';

export async function buildBook(work) {
  const dir = join(work, 'book');
  await mkdir(join(dir, 'src/kube-bootstrap-lab'), { recursive: true });
  await mkdir(join(dir, 'src/tours'), { recursive: true });
  execFileSync('tar', ['xzf', TARBALL, '-C', join(dir, 'src/kube-bootstrap-lab'), '--strip-components=1']);
  await writeFile(join(dir, `src/tours/${TRAINER.file}`), trainerTour());
  await writeFile(join(dir, 'book.toml'), '[book]\ntitle = "Kubernetes training"\n');
  await writeFile(join(dir, 'src/SUMMARY.md'), '# Summary\n\n- [The Service nobody wrote](lab.md)\n');
  await writeFile(join(dir, 'src/lab.md'), `# The Service nobody wrote

Every cluster has a \`default/kubernetes\` Service that no manifest defines. Take the tour:

<script type="module" src="kube-bootstrap-lab/embed.js"></script>
<kube-bootstrap-lab id="lab-tour" tour="etcd-outage" controls="minimal">
  ${fallback('kube-bootstrap-lab/index.html?tour=etcd-outage&controls=minimal')}
</kube-bootstrap-lab>

Now create a Service of your own:

<kube-bootstrap-lab id="lab-sandbox" scenario="crash-one-of-three" panels="services">
  ${fallback('kube-bootstrap-lab/index.html?scenario=crash-one-of-three')}
</kube-bootstrap-lab>

Your trainer's tour:

<kube-bootstrap-lab id="lab-trainer" tour-src="tours/${TRAINER.file}" controls="minimal">
  ${fallback(`kube-bootstrap-lab/index.html?tour-src=../tours/${TRAINER.file}&controls=minimal`)}
</kube-bootstrap-lab>

Or mounted by a script of the book's (mount(), in a shadow root on the div):

<div id="lab-mount">
  ${fallback('kube-bootstrap-lab/index.html?tour=lease-crash-vs-stop')}
</div>
<script type="module" src="lab-mount.js"></script>

Or the same lab in an iframe:

<iframe data-kube-bootstrap-lab title="kube-bootstrap-lab" loading="lazy" style="display: block; width: 100%; height: 900px; border: 0"
  src="kube-bootstrap-lab/index.html?tour=kubernetes-service&controls=minimal"></iframe>
<script type="module" src="kube-bootstrap-lab/frame-height.js"></script>

That is the whole mechanism.
`);
  // A file of the book, not an inline script: the page's policy allows none.
  await writeFile(join(dir, 'src/lab-mount.js'), `import { mount } from "./kube-bootstrap-lab/embed.js";
await mount(document.getElementById("lab-mount"), { tour: "lease-crash-vs-stop", theme: "page" });
`);
  execFileSync('mdbook', ['build', dir], { stdio: 'pipe' });
  return {
    name: 'mdBook',
    root: join(dir, 'book'),
    page: 'lab.html',
    roads: {
      element: { id: 'lab-tour', tour: 'etcd-outage' },
      mounted: { id: 'lab-mount', tour: 'lease-crash-vs-stop' },
      sandbox: { id: 'lab-sandbox' },
      trainer: { id: 'lab-trainer' },
      iframe: { frame: 'iframe[data-kube-bootstrap-lab]', tour: 'kubernetes-service' },
    },
  };
}
