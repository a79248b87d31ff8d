// kube-bootstrap-lab in any page: the `<kube-bootstrap-lab>` element, the declarative
// `<div data-kube-bootstrap-lab-mount="…">` and `mount(element, options)` (each rendered in a
// shadow root, so the page's CSS and the lab's never mix), and `<iframe data-kube-bootstrap-lab>`
// sized to its lab (frame-height.js). Load it once per page, in its head or anywhere before a lab:
//
//   <script type="module" src="https://LAB/embed.js"></script>
//   <div><kube-bootstrap-lab tour="lease-crash-vs-stop" lang="zh" controls="minimal">FALLBACK</kube-bootstrap-lab></div>
//   <div data-kube-bootstrap-lab-mount="tour=lease-crash-vs-stop&amp;theme=page">FALLBACK</div>
//
//   import { mount } from "https://LAB/embed.js";
//   const lab = await mount(document.querySelector("#lab"), { scenario: "crash-one-of-three" });
//   lab.unmount();
//
// Neither the element nor the declarative div needs a script of the page's: a docs site whose
// client-side navigation swaps pages in (re-running inline scripts, or not) gets its labs as the
// nodes arrive, and a lab whose element leaves the document is unmounted, whichever way it came.
//
// Options and attributes are the lab page's URL parameters: tour, tour-src, step, scenario, lang,
// theme, controls, autoplay, panels, print, answers (plus link: a moment's `#…` fragment, and tour-file: a tour
// file's text, which the element and the div take from a <script type="application/json"> child). `theme` also
// takes `page`: the lab is dark on a dark page and follows the page's dark switch. Changing `theme`
// or `lang` (the attribute, or `lab.set({theme, lang})`) applies in place: the reader keeps the tour
// step, the clock and the state. mount() renders into a shadow root on the element (as the element
// does), so the page's rules never reach the lab; `shadow: false` renders into the element itself.
// Each instance has its own
// state; the only thing shared is the compiled module. While the module loads, the element holds
// a box of the lab's size that says so (role=status); if it cannot load, a message naming the
// file that failed (role=alert), and mount() rejects with a LoadError.
//
// The page's own content of the element (a fallback: what the lab is, a link that opens it) is
// kept until the lab has rendered, and stays when it cannot load: with mount(), the element's
// children; with <kube-bootstrap-lab>, its light-DOM children, shown through a <slot>. When
// embed.js itself cannot load (no CORS, 404, a blocked script), nothing here runs and the page
// shows that content as it wrote it.

import "./poster.js";
// The iframe road too: one loader for all three (frame-height.js alone serves a page of iframes).
import "./frame-height.js";

const base = new URL("./", import.meta.url);
const STYLES = ["style.css", "bitmap.css", "stage.css", "inspector.css"];
const HOST_SHEET = new CSSStyleSheet();
HOST_SHEET.replaceSync(":host { display: block; } :host([hidden]) { display: none; }");
const ATTRIBUTES = ["tour", "tour-src", "step", "scenario", "lang", "theme", "controls", "autoplay", "panels", "print", "answers", "link"];
/** The attributes that change a running lab in place, with their value when removed. */
const LIVE = new Map([["theme", "auto"], ["lang", "en"]]);

/** What could not be loaded, by URL: the message in the element names it. */
export class LoadError extends Error {
  constructor(url, cause) {
    super(`${url}: ${cause?.message ?? cause}`, { cause });
    this.name = "LoadError";
    this.url = url;
  }
}

let loading;
/** Loads and starts the wasm module once per page; a failure names the file that failed. */
function load() {
  loading ??= (async () => {
    const js = new URL("kube-bootstrap-lab.js", base).href;
    const wasm = new URL("kube-bootstrap-lab_bg.wasm", base).href;
    let m;
    try {
      m = await import(js);
    } catch (err) {
      throw new LoadError(js, err);
    }
    try {
      await m.default({ module_or_path: wasm });
    } catch (err) {
      throw new LoadError(wasm, err);
    }
    return m;
  })();
  return loading;
}

/** The lab's stylesheets, by link element: settled once each has loaded or failed. */
const sheets = new WeakMap();

/**
 * Adds the lab's stylesheets to `root` (the document's head, or a shadow root) once. Resolves
 * when they are in (loaded or failed): the loading box is sized by them.
 */
function addStyles(root) {
  const parent = root instanceof ShadowRoot ? root : document.head;
  return Promise.all(STYLES.map((name) => {
    const href = new URL(name, base).href;
    let link = [...parent.querySelectorAll("link[data-kube-bootstrap-lab]")].find((l) => l.href === href);
    if (!link) {
      link = document.createElement("link");
      link.rel = "stylesheet";
      link.href = href;
      link.dataset.kubeBootstrapLab = "";
      sheets.set(link, new Promise((done) => {
        link.addEventListener("load", done, { once: true });
        link.addEventListener("error", done, { once: true });
      }));
      parent.append(link);
    }
    return sheets.get(link) ?? Promise.resolve();
  }));
}

const say = (lang, en, zh) => (lang === "zh" ? zh : en);

/** A box for `element` in the instance's language and theme (style.css: `.lab-loading`, `.lab-failure`). */
function box(tag, className, options) {
  const el = document.createElement(tag);
  el.className = className;
  el.lang = options.lang === "zh" ? "zh" : "en";
  if (options.theme === "light" || options.theme === "dark") el.dataset.theme = options.theme;
  return el;
}

/**
 * Adds to `element` the room the lab will take and a status line while the module loads: no
 * blank box that jumps, and the lab's first view in it as soon as its poster arrives, when one
 * shows what the options open (static/poster.js). The page's fallback content stays above it.
 * Returns `{ box }`: the element that stands in for the lab until it renders.
 */
function showLoading(element, options) {
  const shown = { box: loadingBox(element, options) };
  globalThis.kubeBootstrapLabPoster.fetchPoster(options, base).then((poster) => {
    if (!poster || !shown.box.isConnected || !shown.box.classList.contains("lab-loading")) return;
    shown.box.replaceWith(poster);
    shown.box = poster;
  });
  return shown;
}

function loadingBox(element, options) {
  const status = box("div", "lab-loading", options);
  status.setAttribute("role", "status");
  // What the lab will show sizes the box (style.css: .lab-loading), as the element's attributes do.
  if (options.controls === "minimal") status.dataset.controls = "minimal";
  if (options.panels) status.dataset.panels = String(options.panels);
  const spinner = document.createElement("span");
  spinner.className = "lab-spinner";
  spinner.setAttribute("aria-hidden", "true");
  const label = document.createElement("span");
  label.textContent = say(options.lang, "Loading the lab…", "正在加载实验室…");
  status.append(spinner, label);
  element.append(status);
  return status;
}

/** Says, in place of the loading box or poster `status`, that the module could not be loaded, and which file. */
function showLoadFailure(status, options, err) {
  const p = box("p", "lab-failure", options);
  p.setAttribute("role", "alert");
  const url = err?.url ?? new URL("kube-bootstrap-lab.js", base).href;
  const why = err?.cause?.message ?? err?.message ?? String(err);
  p.textContent = say(options.lang,
    `The lab could not be loaded: ${url} failed (${why}). Its files must be served, with CORS (Access-Control-Allow-Origin) when this page is on another origin.`,
    `实验室无法加载：${url} 加载失败（${why}）。需要能访问实验室的文件；若本页面在另一个源上，服务器还须提供 CORS（Access-Control-Allow-Origin）。`);
  status.replaceWith(p);
}

/**
 * Resolves once the app has rendered into `root` (its `.lab`), or has said it failed (a panic's
 * notice, src/ui/failure.rs), with which of the two. Yew renders after the current task.
 */
function rendered(root) {
  const seen = () => (root.querySelector(":scope > .lab-failure") ? "failed" : root.querySelector(":scope > .lab") ? "rendered" : null);
  return new Promise((resolve) => {
    if (seen()) return resolve(seen());
    const watch = new MutationObserver(() => {
      if (!seen()) return;
      watch.disconnect();
      resolve(seen());
    });
    watch.observe(root, { childList: true });
  });
}

/**
 * Whether the page is dark where `element` stands: the luminance of the first background behind
 * it that is painted (through shadow roots, up to the root element), else the `color-scheme` it
 * inherits, else the system's preference. Docs themes switch dark by a class or an attribute on
 * <html> or <body> (mdBook's `coal`, Docusaurus's `data-theme`, VitePress's `dark`, Material's
 * `data-md-color-scheme`, …) and restyle the background: this reads the result, whatever the switch.
 */
function pageIsDark(element) {
  for (let el = element; el; el = el.parentElement ?? el.getRootNode().host) {
    const rgba = getComputedStyle(el).backgroundColor.match(/[\d.]+/g)?.map(Number);
    // A wash of under half its opacity (a tinted card) says less than what is behind it.
    if (!rgba || rgba.length < 3 || (rgba.length > 3 && rgba[3] < 0.5)) continue;
    const [r, g, b] = rgba.map((c) => c / 255);
    return 0.2126 * r + 0.7152 * g + 0.0722 * b < 0.5;
  }
  const scheme = getComputedStyle(element).colorScheme.split(/\s+/);
  if (scheme.includes("dark") !== scheme.includes("light")) return scheme.includes("dark");
  return matchMedia("(prefers-color-scheme: dark)").matches;
}

/** `theme: "page"` as the lab takes it (light or dark), at this moment. */
const resolveTheme = (element, theme) => (theme === "page" ? (pageIsDark(element) ? "dark" : "light") : theme);

/**
 * Calls `apply(theme)` whenever the page around `element` turns dark or light: any attribute of
 * <html> or <body> changed (a docs theme's switch, whichever attribute it uses), or the system's
 * scheme. Returns a function that stops it.
 */
function followPage(element, apply, shown) {
  let last = shown;
  let stopped = false;
  const check = () => {
    // A check still due when the lab went (unmounted, its instance freed) has nothing to change.
    if (stopped) return;
    const now = resolveTheme(element, "page");
    if (now !== last) apply((last = now));
  };
  // After the page's own styles have applied the switch, and again once a theme's background
  // transition (Docusaurus and others fade it) is over.
  const recheck = () => {
    requestAnimationFrame(check);
    setTimeout(check, 600);
  };
  const watch = new MutationObserver(recheck);
  for (const el of [document.documentElement, document.body]) if (el) watch.observe(el, { attributes: true });
  const system = matchMedia("(prefers-color-scheme: dark)");
  system.addEventListener("change", recheck);
  // The lab shows `shown`, read when it started loading: a switch turned since is applied now.
  check();
  return () => {
    stopped = true;
    watch.disconnect();
    system.removeEventListener("change", recheck);
  };
}

/**
 * Lets the lab's sticky parts (the time controls, a tour's docked card) stick to the window. A docs
 * theme's ancestor that clips but never scrolls (mdBook's `.content { overflow-y: auto }`) is the
 * scroll container they stick to: they would stick to its bottom, screens below the reader. Such
 * an ancestor, as tall as its content once the lab is in it and no wider, gets `overflow-y:
 * visible` and `overflow-x: clip`: it clips as before and scrolls as before (never), and no longer
 * holds the lab's sticky parts. A box that does scroll is the reader's and is left alone.
 */
function freeSticky(host) {
  const up = (el) => el.parentElement ?? (el.parentNode instanceof ShadowRoot ? el.parentNode.host : null);
  for (let el = up(host); el && el !== document.body && el !== document.documentElement; el = up(el)) {
    const s = getComputedStyle(el);
    if (!["auto", "scroll", "hidden"].includes(s.overflowY)) continue;
    if (el.scrollHeight > el.clientHeight + 1 || el.scrollWidth > el.clientWidth + 1) continue;
    el.style.overflowY = "visible";
    el.style.overflowX = "clip";
  }
}

/** The roots labs are rendered in, with their language and the page's fallback content around
 *  them: a trap of the module tells them. */
const mounted = new Map();

/**
 * Says in `root` that the lab stopped, unless something already did (src/ui/failure.rs writes
 * a panic's message itself; this covers traps that are no panic, such as memory running out),
 * and shows the page's fallback content again: its link still opens the lab.
 */
function showFailure(root, { lang, element, fallback }, err) {
  if (!fallback.some((n) => n.isConnected)) element.prepend(...fallback);
  if (root.querySelector(".lab-failure")) return;
  const p = document.createElement("p");
  p.className = "lab-failure";
  p.setAttribute("role", "alert");
  p.textContent = lang === "zh"
    ? `实验室因内部错误而停止；请重新加载页面。（${err?.message ?? err}）`
    : `The lab stopped because of an internal error; reload the page to start it again. (${err?.message ?? err})`;
  root.prepend(p);
}

for (const event of ["error", "unhandledrejection"]) {
  addEventListener(event, (e) => {
    const err = e.error ?? e.reason;
    if (err instanceof WebAssembly.RuntimeError) for (const [root, seen] of mounted) showFailure(root, seen, err);
  });
}

/**
 * Mounts a lab into `element`. Resolves to `{ set(), unmount(), problems }` once it has rendered;
 * `problems` lists the options that were ignored (the widget shows them too). The lab renders in
 * a shadow root on `element` (`shadow: false`: in the element itself, where the page's rules
 * reach it), in a `div` of its own: Yew empties its root when it starts, and its first render
 * comes later. The element's own children (a fallback) show until then, and stay when the lab
 * cannot load; `unmount()` shows them again.
 */
export async function mount(element, options = {}) {
  if (!(element instanceof Element)) throw new TypeError("mount(element, options): element must be a DOM element");
  const { shadow = true, ...rest } = options;
  const root = shadow ? shadowFor(element) : null;
  if (!root) return mountHere(element, rest);
  // The element's own children (the fallback) show through the slot until the lab renders, and
  // again after unmount().
  root.querySelector(":scope > .kube-bootstrap-lab-root")?.remove();
  const container = document.createElement("div");
  container.className = "kube-bootstrap-lab-root";
  container.append(document.createElement("slot"));
  root.append(container);
  return mountHere(container, rest, element);
}

/** The shadow roots mount() attached, by element: a second mount() on it reuses its own. */
const shadows = new WeakMap();

/** A shadow root on `element` for a lab, with the host rule; null where the element takes none
 *  or has one of someone else's. */
function shadowFor(element) {
  if (shadows.has(element)) return shadows.get(element);
  if (element.shadowRoot) return null;
  let root;
  try {
    root = element.attachShadow({ mode: "open" });
  } catch {
    return null; // an element that takes no shadow root (<ul>, <td>, …): render into it
  }
  // A constructed sheet, not a <style> element: a page whose policy forbids inline styles
  // (style-src without 'unsafe-inline') still applies it.
  root.adoptedStyleSheets = [...root.adoptedStyleSheets, HOST_SHEET];
  shadows.set(element, root);
  return root;
}

/** Mounts into `element` itself; `host` is the element whose page's theme `theme: "page"` reads. */
async function mountHere(element, given, host = element) {
  const options = { ...given, theme: resolveTheme(host, given.theme) };
  const module = load();
  module.catch(() => {}); // handled below, once the styles are in
  const fallback = [...element.childNodes];
  await addStyles(element.getRootNode());
  const status = showLoading(element, options);
  let m;
  try {
    m = await module;
  } catch (err) {
    showLoadFailure(status.box, options, err);
    throw err;
  }
  const root = document.createElement("div");
  root.className = "kube-bootstrap-lab-app";
  element.append(root);
  const seen = { lang: options.lang, element, host, fallback };
  let instance;
  try {
    instance = m.mount(root, options, new URL("index.html", base).href);
  } catch (err) {
    status.box.remove();
    showFailure(root, seen, err);
    throw err;
  }
  mounted.set(root, seen);
  const outcome = await rendered(root);
  status.box.remove();
  if (outcome === "rendered") {
    for (const n of fallback) n.remove();
    freeSticky(host);
  }
  const follow = (theme, shown) => (theme === "page" ? followPage(host, (now) => instance.set({ theme: now }), shown) : null);
  let following = follow(given.theme, options.theme);
  seen.unmount = () => {
    if (!mounted.delete(root)) return; // once
    following?.();
    instance.unmount();
    instance.free();
    root.remove();
    element.append(...fallback.filter((n) => !n.isConnected));
  };
  return {
    problems: instance.problems,
    /** Changes `theme` (also `page`) and `lang` in place; returns what was ignored, and why. */
    set(changes = {}) {
      const theme = "theme" in changes ? { theme: resolveTheme(host, changes.theme) } : {};
      if ("theme" in changes) {
        following?.();
        following = follow(changes.theme, theme.theme);
      }
      return instance.set({ ...changes, ...theme });
    },
    unmount: seen.unmount,
  };
}

/**
 * One lab shown from options declared in the page (the element's attributes, a div's
 * `data-kube-bootstrap-lab-mount`): `update()` applies `theme` and `lang` in place (the reader
 * keeps the tour step, the clock and the state) and renders again for any other change; an
 * option changed while the lab loads is not lost.
 */
class Embedding {
  #host;
  #options = null;
  #lab = null;
  #generation = 0;

  constructor(host) {
    this.#host = host;
  }

  /** Whether it shows (or loads) a lab: stopped, it waits for the next `update()`. */
  get started() {
    return this.#options !== null;
  }

  update(options) {
    const before = this.#options;
    this.#options = options;
    if (!before) return this.#render();
    const changed = [...new Set([...Object.keys(before), ...Object.keys(options)])].filter((k) => before[k] !== options[k]);
    if (changed.length === 0) return;
    // Still loading: a live option is applied once the lab is there (#render).
    if (changed.every((k) => LIVE.has(k))) {
      for (const k of changed) this.#lab?.set({ [k]: options[k] ?? LIVE.get(k) });
    } else {
      this.#render();
    }
  }

  stop() {
    this.#generation++;
    this.#options = null;
    this.#lab?.unmount();
    this.#lab = null;
  }

  async #render() {
    const generation = ++this.#generation;
    this.#lab?.unmount();
    this.#lab = null;
    const options = this.#options;
    let lab;
    try {
      // In a shadow root on the host: its light-DOM children (the page's fallback) show through
      // its slot until the lab renders.
      lab = await mount(this.#host, options);
    } catch {
      return; // the host says what failed
    }
    // Stopped or rendered again while loading: this instance is no longer wanted.
    if (generation !== this.#generation) {
      lab.unmount();
      return;
    }
    this.#lab = lab;
    // A host's dark or language switch turned while the lab loaded: applied now.
    for (const [name, fallback] of LIVE) {
      const now = this.#options[name] ?? fallback;
      if (now !== (options[name] ?? fallback)) lab.set({ [name]: now });
    }
  }
}

/** A trainer's tour written in the page: the host's `<script type="application/json">` child. */
function tourFile(host, options) {
  const file = host.querySelector(':scope > script[type="application/json"]');
  return file ? { ...options, "tour-file": file.textContent } : options;
}

export class KubeBootstrapLab extends HTMLElement {
  static observedAttributes = ATTRIBUTES;
  #shown = new Embedding(this);

  connectedCallback() {
    this.#shown.update(this.#options());
  }

  disconnectedCallback() {
    this.#shown.stop();
  }

  attributeChangedCallback(name, before, value) {
    // Before the first render starts (an upgrade reads every attribute) there is nothing to change.
    if (this.isConnected && before !== value && this.#shown.started) this.#shown.update(this.#options());
  }

  #options() {
    const options = {};
    for (const name of ATTRIBUTES) if (this.hasAttribute(name)) options[name] = this.getAttribute(name);
    return tourFile(this, options);
  }
}

if (!customElements.get("kube-bootstrap-lab")) customElements.define("kube-bootstrap-lab", KubeBootstrapLab);

/**
 * The declarative mount(), for pages that cannot run a script of their own (Markdown, a docs
 * site whose client-side navigation re-runs inline scripts as classic ones): every
 * `<div data-kube-bootstrap-lab-mount="tour=…&amp;theme=page">` of the page, and any added later
 * (a router swapping the page in), gets a lab; the attribute's value is the lab's URL parameters.
 * Changing it applies theme and lang in place, and renders again for another option.
 */
const MOUNT = "data-kube-bootstrap-lab-mount";
/** The declared labs shown or loading, by their element. */
const declared = new Map();

function declare(host) {
  if (!host.hasAttribute(MOUNT)) return undeclare(host);
  const options = tourFile(host, Object.fromEntries(new URLSearchParams(host.getAttribute(MOUNT))));
  if (!declared.has(host)) declared.set(host, new Embedding(host));
  declared.get(host).update(options);
}

function undeclare(host) {
  declared.get(host)?.stop();
  declared.delete(host);
}

/** Every element at or under `node` that declares a lab. */
const declaring = (node) => (node instanceof Element ? [...(node.matches(`[${MOUNT}]`) ? [node] : []), ...node.querySelectorAll(`[${MOUNT}]`)] : []);

/**
 * Watches the document: a declared lab added is mounted, a declaration changed is applied, and a
 * lab whose element has left the document (a router replaced the page) is unmounted, whichever
 * way it came (the element does so itself), so that navigating a docs site leaves no lab running.
 * A lab's own nodes are in its shadow root, which this does not see.
 */
new MutationObserver((records) => {
  let removed = false;
  for (const r of records) {
    if (r.type === "attributes") {
      if (r.target.isConnected) declare(r.target);
      continue;
    }
    removed ||= r.removedNodes.length > 0;
    for (const node of r.addedNodes) for (const host of declaring(node)) if (host.isConnected && !declared.has(host)) declare(host);
  }
  if (!removed) return;
  for (const host of [...declared.keys()]) if (!host.isConnected) undeclare(host);
  for (const seen of [...mounted.values()]) if (!seen.host.isConnected) seen.unmount?.();
}).observe(document, { childList: true, subtree: true, attributes: true, attributeFilter: [MOUNT] });
for (const host of declaring(document.documentElement)) declare(host);
