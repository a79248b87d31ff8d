// kube-bootstrap-lab in a Docusaurus 3 site (React 18 or 19), for MDX pages:
//
//   import KubeBootstrapLab, { KubeBootstrapLabFrame } from "kube-bootstrap-lab/docusaurus/KubeBootstrapLab.js";
//   <KubeBootstrapLab tour="etcd-outage" controls="minimal" />
//   <KubeBootstrapLab tourSrc="/tours/ours.json" />          (a file of the site's static/)
//   <KubeBootstrapLab tourFile={{ name: "ours", steps: [/* … */] }} />
//   <KubeBootstrapLabFrame tour="kubernetes-service" controls="minimal" />
//
// The package's files are served by the site from static/kube-bootstrap-lab/ (`base` names
// another folder or an https://… address). Plain JavaScript (no JSX, no build step of ours),
// SSR-safe: nothing touches window or document while importing or rendering. The page's HTML
// has the lab's fallback (a sentence and a link that opens the lab in its own tab, with the same
// options); embed.js (or frame-height.js) is loaded once the page runs in the browser.
//
// KubeBootstrapLab renders the <kube-bootstrap-lab> element, not mount(): React owns the element
// and its attributes, the lab owns the element's shadow root, so React never touches what the
// lab renders. It follows the site's colour mode (useColorMode) unless given a `theme`: the
// element applies a new `theme` in place, the reader keeps the tour step, the clock and the state.
// Changing another option re-renders the lab from that option.
import React, { useEffect, useState } from "react";
import useBaseUrl from "@docusaurus/useBaseUrl";
import { useColorMode } from "@docusaurus/theme-common";
import { pageUrl, tourText } from "../page-url.js";

const h = React.createElement;
/** The element's attributes (static/embed.js: ATTRIBUTES), as the lab page's URL parameters. */
const OPTIONS = ["tour", "tour-src", "step", "scenario", "lang", "theme", "controls", "autoplay", "panels", "print", "link"];

/** The options among `props` (camelCase, or spelled as the element's attributes: `tour-src`),
 *  as attribute strings: `true` is "true", an array of panels a comma-separated list, `false`
 *  and `null` leave the option out. */
function optionsOf(props) {
  const out = {};
  for (const name of OPTIONS) {
    const camel = name.replace(/-(\w)/g, (_, c) => c.toUpperCase());
    let value = props[camel] ?? props[name];
    if (value === undefined || value === null || value === false) continue;
    if (Array.isArray(value)) value = value.join(",");
    out[name] = String(value);
  }
  return out;
}

/** The folder of the lab's files, ending in "/", under the site's baseUrl. */
function useBase(base) {
  const url = useBaseUrl(base ?? "/kube-bootstrap-lab/");
  return url.endsWith("/") ? url : `${url}/`;
}

/** The site's colour mode ("light" or "dark"), or null outside Docusaurus's ColorModeProvider
 *  (a page that does not use the theme's Layout). Called on every render, as a hook must be. */
function useSiteColorMode() {
  try {
    return useColorMode().colorMode;
  } catch {
    return null;
  }
}

/** What the page shows until the lab renders, and when it cannot load. */
function Fallback({ lang, href }) {
  const link = (text) => h("a", { href, target: "_blank", rel: "noopener" }, text);
  return lang === "zh"
    ? h("p", { className: "kube-bootstrap-lab-fallback" },
      "kube-bootstrap-lab 是一个交互式讲解，演示 kube-apiserver 如何维持它的 ", h("code", null, "default/kubernetes"), " Service，加载后显示在这里。若没有出现，请",
      link("在新标签页中打开实验室"), "。")
    : h("p", { className: "kube-bootstrap-lab-fallback" },
      "kube-bootstrap-lab, an interactive explainer of how kube-apiserver keeps its ", h("code", null, "default/kubernetes"), " Service alive, appears here once it has loaded. If it does not, ",
      link("open the lab in its own tab"), ".");
}

/**
 * The lab as the <kube-bootstrap-lab> element. Props: every option of the element (tour,
 * tourSrc, step, scenario, lang, theme, controls, autoplay, panels, print, link), tourFile (a
 * tour written in the page: its JSON text or the object), base (the folder of the lab's files,
 * default the site's /kube-bootstrap-lab/), id, className, style, and children (your own
 * fallback instead of the default sentence and link). A tourSrc that is a path is the site's
 * (`/tours/ours.json`, the baseUrl added), as useBaseUrl takes it.
 */
export default function KubeBootstrapLab(props) {
  const base = useBase(props.base);
  const colorMode = useSiteColorMode();
  const options = optionsOf(props);
  const tourSrc = useBaseUrl(options["tour-src"] ?? "");
  if (options["tour-src"]) options["tour-src"] = tourSrc;
  const file = tourText(props.tourFile);
  // The fallback's link: the options given (the lab's page cannot see the site: no "page").
  const { theme: given, ...rest } = options;
  const href = pageUrl(base, given && given !== "page" ? options : rest, file);
  // embed.js itself failing (no CORS, a 404, a blocked script) runs none of the lab: this
  // component says so in the lab's place, beside the fallback and its link.
  const [failed, setFailed] = useState(null);
  useEffect(() => {
    let gone = false;
    import(/* webpackIgnore: true */ `${base}embed.js`).then(
      () => !gone && setFailed(null),
      (err) => !gone && setFailed(`${base}embed.js: ${err?.message ?? err}`),
    );
    return () => { gone = true; };
  }, [base]);
  // Follows the site's switch when no theme is given; outside the theme's Layout, the page's
  // background (embed.js: theme "page").
  const theme = given ?? colorMode ?? "page";
  return h("kube-bootstrap-lab", { ...options, theme, id: props.id, className: props.className, style: props.style, key: file ?? "" },
    // The element reads a tour written in the page from this child when it renders. "<" only
    // occurs in the JSON's strings, where \u003c reads the same: no "</script>" ends it early.
    file != null ? h("script", { type: "application/json", dangerouslySetInnerHTML: { __html: file.replace(/</g, "\\u003c") } }) : null,
    props.children ?? h(Fallback, { lang: options.lang, href }),
    failed ? h(LoadFailure, { lang: options.lang, what: failed }) : null);
}

/** What the page shows when embed.js could not be loaded, naming it (as embed.js names a later file). */
function LoadFailure({ lang, what }) {
  return h("p", { className: "kube-bootstrap-lab-failure", role: "alert" }, lang === "zh"
    ? `实验室无法加载：${what}。需要能访问实验室的文件；若它们在另一个源上，服务器还须提供 CORS（Access-Control-Allow-Origin）。`
    : `The lab could not be loaded: ${what}. Its files must be served, with CORS (Access-Control-Allow-Origin) when they are on another origin.`);
}

/**
 * The lab in an iframe of its page (index.html), sized by the package's frame-height.js: the same
 * options as props (but theme "page": the frame cannot see the site; give light or dark, or
 * leave the lab to follow the system), plus height (px, until the lab reports its own; default
 * the viewport's less 80 px, what frame-height.js gives a tour in a docs column), title, id, className and style. The address is absolute (the site's baseUrl added), so
 * the frame works from a page at any depth (/docs/…). Changing an option reloads the frame.
 */
export function KubeBootstrapLabFrame(props) {
  const base = useBase(props.base);
  const options = optionsOf(props);
  const tourSrc = useBaseUrl(options["tour-src"] ?? "");
  if (options["tour-src"]) options["tour-src"] = tourSrc;
  const src = pageUrl(base, options, tourText(props.tourFile));
  // frame-height.js watches every frame of the page, those put in later too, and asks a frame
  // that has loaded before it for its lab's height.
  useEffect(() => {
    import(/* webpackIgnore: true */ `${base}frame-height.js`).catch(() => {});
  }, [base]);
  return h("iframe", {
    src,
    "data-kube-bootstrap-lab": "",
    title: props.title ?? "kube-bootstrap-lab",
    loading: "lazy",
    id: props.id,
    className: props.className,
    style: { display: "block", width: "100%", height: props.height ? `${props.height}px` : "calc(100svh - 80px)", border: 0, ...props.style },
  });
}
