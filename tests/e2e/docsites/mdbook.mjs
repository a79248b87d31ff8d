// The mdBook book of tests/e2e/docsites.mjs, written as docs/embedding.md tells: the tarball unpacked
// into src/, raw HTML in the chapter's Markdown (mdBook 0.5.4 keeps scripts, iframes and custom
// elements). Its chapter: the README's loader line, the element with a tour, a second element (a
// sandbox), a trainer's tour by `tour-src`, and the README's element, declared mount and iframe
// snippets pasted as they are (the mounted road and the iframe's are the README's).
import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { README_ROADS, TARBALL, TRAINER, fallback, readme, readmeBlocks, trainerTour, run } from './common.mjs';

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

${readme('loader', 'kube-bootstrap-lab/')}
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

The README's snippets, pasted as they are (its address of the lab made the book's,
\`kube-bootstrap-lab/\`), each in a div of the page's own: the element,

${readmeBlocks('kube-bootstrap-lab/')}

That is the whole mechanism.
`);
  await run('mdbook', ['build', dir]);
  return {
    name: 'mdBook',
    root: join(dir, 'book'),
    page: 'lab.html',
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
