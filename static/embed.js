// kube-bootstrap-lab in any page: `mount(element, options)` and the `<kube-bootstrap-lab>`
// element (rendered in a shadow root, so the page's CSS and the lab's never mix).
//
//   <script type="module" src="https://LAB/embed.js"></script>
//   <kube-bootstrap-lab tour="lease-crash-vs-stop" lang="zh" controls="minimal"></kube-bootstrap-lab>
//
//   import { mount } from "https://LAB/embed.js";
//   const lab = await mount(document.querySelector("#lab"), { scenario: "crash-one-of-three" });
//   lab.unmount();
//
// Options and attributes are the lab page's URL parameters: tour, step, scenario, lang, theme,
// controls, autoplay, panels (plus link: a moment's `#…` fragment). Each instance has its own
// state; the only thing shared is the compiled module.

const base = new URL("./", import.meta.url);
const STYLES = ["style.css", "bitmap.css", "stage.css", "inspector.css"];
const ATTRIBUTES = ["tour", "step", "scenario", "lang", "theme", "controls", "autoplay", "panels", "link"];

let loading;
/** Loads and starts the wasm module once per page. */
function load() {
  loading ??= import(new URL("kube-bootstrap-lab.js", base).href).then(async (m) => {
    await m.default({ module_or_path: new URL("kube-bootstrap-lab_bg.wasm", base) });
    return m;
  });
  return loading;
}

/** Adds the lab's stylesheets to `root` (the document's head, or a shadow root) once. */
function addStyles(root) {
  const parent = root instanceof ShadowRoot ? root : document.head;
  for (const name of STYLES) {
    const href = new URL(name, base).href;
    if (![...parent.querySelectorAll("link[data-kube-bootstrap-lab]")].some((l) => l.href === href)) {
      const link = document.createElement("link");
      link.rel = "stylesheet";
      link.href = href;
      link.dataset.kubeBootstrapLab = "";
      parent.append(link);
    }
  }
}

/** The elements labs are mounted in, with their language: a trap of the module tells them. */
const mounted = new Map();

/**
 * Says in `element` that the lab stopped, unless something already did (src/ui/failure.rs writes
 * a panic's message itself; this covers traps that are no panic, such as memory running out).
 */
function showFailure(element, lang, err) {
  if (element.querySelector(".lab-failure")) return;
  const p = document.createElement("p");
  p.className = "lab-failure";
  p.setAttribute("role", "alert");
  p.textContent = lang === "zh"
    ? `实验室因内部错误而停止；请重新加载页面。（${err?.message ?? err}）`
    : `The lab stopped because of an internal error; reload the page to start it again. (${err?.message ?? err})`;
  element.prepend(p);
}

for (const event of ["error", "unhandledrejection"]) {
  addEventListener(event, (e) => {
    const err = e.error ?? e.reason;
    if (err instanceof WebAssembly.RuntimeError) for (const [element, lang] of mounted) showFailure(element, lang, err);
  });
}

/**
 * Mounts a lab into `element`. Resolves to `{ unmount(), problems }`; `problems` lists the
 * options that were ignored (the widget shows them too).
 */
export async function mount(element, options = {}) {
  if (!(element instanceof Element)) throw new TypeError("mount(element, options): element must be a DOM element");
  addStyles(element.getRootNode());
  const m = await load();
  let instance;
  try {
    instance = m.mount(element, options, new URL("index.html", base).href);
  } catch (err) {
    showFailure(element, options.lang, err);
    throw err;
  }
  mounted.set(element, options.lang);
  return {
    problems: instance.problems,
    unmount() {
      mounted.delete(element);
      instance.unmount();
      instance.free();
    },
  };
}

export class KubeBootstrapLab extends HTMLElement {
  static observedAttributes = ATTRIBUTES;
  #lab = null;
  #generation = 0;

  connectedCallback() {
    this.#render();
  }

  disconnectedCallback() {
    this.#generation++;
    this.#lab?.unmount();
    this.#lab = null;
  }

  attributeChangedCallback() {
    if (this.isConnected && this.#lab) this.#render();
  }

  async #render() {
    const generation = ++this.#generation;
    const root = this.shadowRoot ?? this.attachShadow({ mode: "open" });
    if (!root.querySelector("style")) {
      const style = document.createElement("style");
      style.textContent = ":host { display: block; } :host([hidden]) { display: none; }";
      root.append(style);
    }
    this.#lab?.unmount();
    this.#lab = null;
    root.querySelector(".kube-bootstrap-lab-root")?.remove();
    const container = document.createElement("div");
    container.className = "kube-bootstrap-lab-root";
    root.append(container);
    const options = {};
    for (const name of ATTRIBUTES) {
      if (this.hasAttribute(name)) options[name] = this.getAttribute(name);
    }
    const lab = await mount(container, options);
    // Removed or re-rendered while loading: this instance is no longer wanted.
    if (generation !== this.#generation) lab.unmount();
    else this.#lab = lab;
  }
}

if (!customElements.get("kube-bootstrap-lab")) customElements.define("kube-bootstrap-lab", KubeBootstrapLab);
