// kube-bootstrap-lab in a VitePress 1 site (Vue 3.5), registered in the theme
// (.vitepress/theme/index.js) and used in any page's Markdown:
//
//   import DefaultTheme from "vitepress/theme";
//   import KubeBootstrapLab, { KubeBootstrapLabFrame } from "kube-bootstrap-lab/vitepress/KubeBootstrapLab.js";
//   export default { extends: DefaultTheme, enhanceApp({ app }) {
//     app.component("KubeBootstrapLab", KubeBootstrapLab);
//     app.component("KubeBootstrapLabFrame", KubeBootstrapLabFrame);
//   } };
//
//   <KubeBootstrapLab tour="etcd-outage" controls="minimal" />
//   <KubeBootstrapLab tour-src="/tours/ours.json" />        (a file of the site's public/)
//   <KubeBootstrapLabFrame tour="kubernetes-service" controls="minimal" />
//
// The package's files are served by the site from public/kube-bootstrap-lab/ (`base` names
// another folder or an https://… address). Plain JavaScript (defineComponent and h, no SFC, no
// build step of ours), SSR-safe: nothing touches window or document while importing or
// rendering. The page's HTML has the lab's fallback (a sentence and a link that opens the lab in
// its own tab, with the same options); embed.js (or frame-height.js) is loaded once the page is
// mounted in the browser. The site's config lists the package in `vite.ssr.noExternal` (it imports
// "vitepress", which only Vite resolves) and `kube-bootstrap-lab` as a custom element.
//
// KubeBootstrapLab renders the <kube-bootstrap-lab> element, not mount(): Vue owns the element
// and its attributes, the lab owns the element's shadow root, so Vue never touches what the lab
// renders. It follows VitePress's appearance switch (useData().isDark) unless given a `theme`:
// the element applies a new `theme` in place, the reader keeps the tour step, the clock and the
// state. Changing another option re-renders the lab from that option.
import { defineComponent, h, onBeforeUnmount, onMounted, ref } from "vue";
import { useData, withBase } from "vitepress";
import { pageUrl, tourText } from "../page-url.js";

/** The element's attributes (static/embed.js: ATTRIBUTES), as the lab page's URL parameters. */
const OPTIONS = ["tour", "tour-src", "step", "scenario", "lang", "theme", "controls", "autoplay", "panels", "print", "answers", "link"];
const camel = (name) => name.replace(/-(\w)/g, (_, c) => c.toUpperCase());

/** The props both components take: every option (`tour-src` or `tourSrc` in a template), a tour
 *  written in the page, and where the lab's files are. */
const PROPS = {
  ...Object.fromEntries(OPTIONS.map((name) => [camel(name), { type: [String, Number, Boolean, Array], default: undefined }])),
  tourFile: { type: [String, Object], default: undefined },
  base: { type: String, default: undefined },
};

/** The options among `props` as attribute strings: `true` is "true", an array of panels a
 *  comma-separated list, `false` and `null` leave the option out. */
function optionsOf(props) {
  const out = {};
  for (const name of OPTIONS) {
    let value = props[camel(name)];
    if (value === undefined || value === null || value === false) continue;
    if (Array.isArray(value)) value = value.join(",");
    out[name] = String(value);
  }
  return out;
}

/** Vue's server renderer writes an attribute whose name it takes for a boolean one (`controls`,
 *  `autoplay`: media elements') without its value, even on a custom element: the lab would start
 *  from the server's HTML with `controls=""` and start again once the page hydrates. Spelled with
 *  a capital they are no such names to Vue, and the same attribute to the element: the HTML parser
 *  and setAttribute on an HTML element lowercase attribute names. */
const BOOLEAN_NAMED = new Set(["controls", "autoplay"]);
const attributesOf = (options) => Object.fromEntries(Object.entries(options)
  .map(([name, value]) => [BOOLEAN_NAMED.has(name) ? name[0].toUpperCase() + name.slice(1) : name, value]));

/** The folder of the lab's files, ending in "/": the site's /kube-bootstrap-lab/ under its base. */
function baseOf(base) {
  const url = /^[a-z]+:\/\//i.test(base ?? "") ? base : withBase(base ?? "/kube-bootstrap-lab/");
  return url.endsWith("/") ? url : `${url}/`;
}

/** The options with a site path in `tour-src` given the site's base, as withBase does. */
function sited(options) {
  return options["tour-src"] ? { ...options, "tour-src": withBase(options["tour-src"]) } : options;
}

/** What the page shows until the lab renders, and when it cannot load. */
function fallback(lang, href) {
  const link = (text) => h("a", { href, target: "_blank", rel: "noopener" }, text);
  return lang === "zh"
    ? h("p", { class: "kube-bootstrap-lab-fallback" }, [
      "kube-bootstrap-lab 是一个交互式讲解，演示 kube-apiserver 如何维持它的 ", h("code", "default/kubernetes"), " Service，加载后显示在这里。若没有出现，请",
      link("在新标签页中打开实验室"), "。"])
    : h("p", { class: "kube-bootstrap-lab-fallback" }, [
      "kube-bootstrap-lab, an interactive explainer of how kube-apiserver keeps its ", h("code", "default/kubernetes"), " Service alive, appears here once it has loaded. If it does not, ",
      link("open the lab in its own tab"), "."]);
}

/** What the page shows when embed.js could not be loaded, naming it (as embed.js names a later file). */
function loadFailure(lang, what) {
  return h("p", { class: "kube-bootstrap-lab-failure", role: "alert" }, lang === "zh"
    ? `实验室无法加载：${what}。需要能访问实验室的文件；若它们在另一个源上，服务器还须提供 CORS（Access-Control-Allow-Origin）。`
    : `The lab could not be loaded: ${what}. Its files must be served, with CORS (Access-Control-Allow-Origin) when they are on another origin.`);
}

/**
 * The lab as the <kube-bootstrap-lab> element. Props: every option of the element (tour,
 * tour-src, step, scenario, lang, theme, controls, autoplay, panels, print, answers, link),
 * tour-file (a tour written in the page: its JSON text or the object), base; id, class and style
 * fall through to the element; the default slot is your own fallback instead of the default
 * sentence and link. A tour-src that is a path is the site's (`/tours/ours.json`, the base added).
 */
export const KubeBootstrapLab = defineComponent({
  name: "KubeBootstrapLab",
  props: PROPS,
  setup(props, { slots }) {
    const { isDark } = useData();
    // The server's HTML and the first render in the browser are the same ("page": the lab reads
    // the page's background); once mounted, the appearance VitePress has.
    const mounted = ref(false);
    // embed.js itself failing (a 404, a blocked script) runs none of the lab: said in its place.
    const failed = ref(null);
    let gone = false;
    onMounted(() => {
      mounted.value = true;
      const url = `${baseOf(props.base)}embed.js`;
      import(/* @vite-ignore */ url).then(
        () => { if (!gone) failed.value = null; },
        (err) => { if (!gone) failed.value = `${url}: ${err?.message ?? err}`; },
      );
    });
    onBeforeUnmount(() => { gone = true; });
    return () => {
      const base = baseOf(props.base);
      const options = sited(optionsOf(props));
      const file = tourText(props.tourFile);
      // The fallback's link: the options given (the lab's page cannot see the site: no "page").
      const { theme: given, ...rest } = options;
      const href = pageUrl(base, given && given !== "page" ? options : rest, file);
      const theme = given ?? (mounted.value ? (isDark.value ? "dark" : "light") : "page");
      return h("kube-bootstrap-lab", { ...attributesOf(options), theme, key: file ?? "" }, [
        // The element reads a tour written in the page from this child when it renders. "<" only
        // occurs in the JSON's strings, where \u003c reads the same: no "</script>" ends it early.
        file != null ? h("script", { type: "application/json", innerHTML: file.replace(/</g, "\\u003c") }) : null,
        slots.default ? slots.default() : fallback(options.lang, href),
        failed.value ? loadFailure(options.lang, failed.value) : null,
      ]);
    };
  },
});

/**
 * The lab in an iframe of its page (index.html), sized by the package's frame-height.js: the same
 * options as props (but theme "page": the frame cannot see the site; give light or dark, or leave
 * the lab to follow the system), plus height (px, until the lab reports its own; default the
 * viewport's less 80 px) and title; id, class and style fall through. The address is absolute (the
 * site's base added), so the frame works from a page at any depth. Changing an option reloads it.
 */
export const KubeBootstrapLabFrame = defineComponent({
  name: "KubeBootstrapLabFrame",
  props: { ...PROPS, height: { type: [Number, String], default: undefined }, title: { type: String, default: "kube-bootstrap-lab" } },
  setup(props) {
    // frame-height.js watches every frame of the page, those put in later too, and asks a frame
    // that has loaded before it for its lab's height.
    onMounted(() => {
      import(/* @vite-ignore */ `${baseOf(props.base)}frame-height.js`).catch(() => {});
    });
    // `loading` before `src`: a frame the browser creates (a page the router swaps in) starts
    // loading when its src is set, lazily only if it was told so first.
    return () => h("iframe", {
      loading: "lazy",
      src: pageUrl(baseOf(props.base), sited(optionsOf(props)), tourText(props.tourFile)),
      "data-kube-bootstrap-lab": "",
      title: props.title,
      style: { display: "block", width: "100%", height: props.height ? `${props.height}px` : "calc(100svh - 80px)", border: 0 },
    });
  },
});

export default KubeBootstrapLab;
