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
  /** `auto` (the default) follows the system; `page` follows the page around the lab (dark on a
   *  dark page, and again whenever the page's dark switch turns). */
  theme?: "auto" | "light" | "dark" | "page";
  /** `minimal`: the story without the editing controls. */
  controls?: "full" | "minimal";
  /** Plays at once. */
  autoplay?: boolean | "1" | "true" | "";
  /** The panels to show, in the UI's order: an array or a comma-separated list. */
  panels?: LabPanel[] | string;
  /** A moment to open: the fragment of a "Link to this moment" URL (`#scenario=…&t=…`). */
  link?: string;
  /** A trainer's tour file by address (http, https, or relative to the page); wins over `tour`. */
  "tour-src"?: string;
  /** A tour file's text itself; wins over `tour-src`. */
  "tour-file"?: string;
  /** With a tour: the tour as a handout to print. */
  print?: boolean | "1" | "true" | "";
  /** mount() only: `false` renders into the element itself instead of a shadow root on it (the
   *  page's CSS then reaches the lab). */
  shadow?: boolean;
}

/** What changes a running lab in place (the reader keeps the tour step, clock and state). */
export interface LiveOptions {
  theme?: "auto" | "light" | "dark" | "page";
  lang?: "en" | "zh";
}

export type LabPanel =
  | "stage" | "apiservers" | "kubernetes-service" | "etcd" | "events" | "bitmaps"
  | "service-cidrs" | "services" | "pods" | "import";

/** One mounted lab. */
export interface LabInstance {
  /** The options that were ignored, and why (the widget shows them too). */
  readonly problems: string[];
  /** Changes `theme` and `lang` in place; returns what was ignored, and why (an invalid value
   *  changes nothing). */
  set(options: LiveOptions): string[];
  /** Removes the lab, stops everything it runs and puts the element's own children back. */
  unmount(): void;
}

/** A file of the lab that could not be loaded (404, no CORS, offline), by URL. */
export declare class LoadError extends Error {
  readonly name: "LoadError";
  readonly url: string;
}

/**
 * Mounts a lab into `element` (in a shadow root on it, unless `shadow: false`); resolves once
 * it has rendered. The element's children (a
 * fallback: what the lab is, a link to open it) stay until then, and stay beside a message when
 * the lab cannot load: the promise then rejects with a {@link LoadError}.
 */
export declare function mount(element: Element, options?: LabOptions): Promise<LabInstance>;

/** `<kube-bootstrap-lab tour="…" lang="zh">`: a lab in a shadow root. Its attributes are the
 *  options' keys (strings); changing `theme` or `lang` applies in place, changing another
 *  re-renders, removing the element unmounts it. Its
 *  children show until the lab renders and when it cannot load. */
export declare class KubeBootstrapLab extends HTMLElement {
  static readonly observedAttributes: readonly string[];
}

declare global {
  interface HTMLElementTagNameMap {
    "kube-bootstrap-lab": KubeBootstrapLab;
  }
}
