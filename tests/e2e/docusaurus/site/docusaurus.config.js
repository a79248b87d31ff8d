// The Docusaurus 3 site (classic preset) of tests/e2e/docsites.mjs: copied into a temporary
// folder with the lab's package (node_modules/kube-bootstrap-lab, its files in
// static/kube-bootstrap-lab/) and a trainer's tour (static/tours/). Under a baseUrl that is not
// "/", so a relative address to the lab's files would 404; the navbar is sticky, as the preset
// makes it, and has the colour-mode switch.
export default {
  title: 'Kubernetes training',
  url: 'http://127.0.0.1',
  baseUrl: '/training/',
  trailingSlash: true,
  onBrokenLinks: 'throw',
  // No favicon file: the browser would ask for /favicon.ico and log its 404.
  headTags: [{ tagName: 'link', attributes: { rel: 'icon', href: 'data:,' } }],
  // The README's loader, on every page (the declared mount and the element written in MDX; the
  // component loads the same file itself): Docusaurus does not add the baseUrl to it.
  scripts: [{ src: '/training/kube-bootstrap-lab/embed.js', type: 'module' }],
  markdown: { hooks: { onBrokenMarkdownLinks: 'throw' } },
  presets: [
    ['classic', {
      docs: { routeBasePath: 'docs' },
      blog: false,
    }],
  ],
  themeConfig: {
    colorMode: { defaultMode: 'light', respectPrefersColorScheme: false },
    navbar: {
      title: 'Kubernetes training',
      items: [{ type: 'doc', docId: 'guide/lab', label: 'The lab', position: 'left' }],
    },
  },
};
