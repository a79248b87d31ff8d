// Types of embed.js (kube-bootstrap-lab's embedding API): `mount(element, options)` and the
// <kube-bootstrap-lab> element. Plain declarations: nothing here needs Rust or a build.

/** The lab's options: the keys of its page's URL parameters, plus `link`. Each is checked by the
 *  lab; one it cannot use is ignored, named in `problems` and shown inside the widget. */
export interface LabOptions {
  /** A guided tour by name (a file of the lab's `tours/`); wins over `scenario`. */
  tour?: string;
  /** The tour step to open at, from 1. */
  step?: number | string;
  /** A shipped scenario by name (a file of the lab's `scenarios/`). */
  scenario?: string;
  /** Labels and narration: English (the default) or Chinese. */
  lang?: "en" | "zh";
  /** `auto` (the default) follows the system. */
  theme?: "auto" | "light" | "dark";
  /** `minimal`: the story without the editing controls. */
  controls?: "full" | "minimal";
  /** Plays at once. */
  autoplay?: boolean | "1" | "true" | "";
  /** The panels to show, in the UI's order: an array or a comma-separated list. */
  panels?: LabPanel[] | string;
  /** A moment to open: the fragment of a "Link to this moment" URL (`#scenario=…&t=…`). */
  link?: string;
}

export type LabPanel =
  | "stage" | "apiservers" | "kubernetes-service" | "etcd" | "events" | "bitmaps"
  | "service-cidrs" | "services" | "pods" | "import";

/** One mounted lab. */
export interface LabInstance {
  /** The options that were ignored, and why (the widget shows them too). */
  readonly problems: string[];
  /** Removes the lab, stops everything it runs and puts the element's own children back. */
  unmount(): void;
}

/** A file of the lab that could not be loaded (404, no CORS, offline), by URL. */
export declare class LoadError extends Error {
  readonly name: "LoadError";
  readonly url: string;
}

/**
 * Mounts a lab into `element`; resolves once it has rendered. The element's children (a
 * fallback: what the lab is, a link to open it) stay until then, and stay beside a message when
 * the lab cannot load: the promise then rejects with a {@link LoadError}.
 */
export declare function mount(element: Element, options?: LabOptions): Promise<LabInstance>;

/** `<kube-bootstrap-lab tour="…" lang="zh">`: a lab in a shadow root. Its attributes are the
 *  options' keys (strings); changing one re-renders, removing the element unmounts it. Its
 *  children show until the lab renders and when it cannot load. */
export declare class KubeBootstrapLab extends HTMLElement {
  static readonly observedAttributes: readonly string[];
}

declare global {
  interface HTMLElementTagNameMap {
    "kube-bootstrap-lab": KubeBootstrapLab;
  }
}
