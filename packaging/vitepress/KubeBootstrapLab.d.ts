// Types of vitepress/KubeBootstrapLab.js: the lab in a VitePress 1 site (Vue 3.5).
import type { DefineComponent } from "vue";
import type { LabPanel } from "../embed.js";

/** The lab's options as props (static/embed.js; each is checked by the lab, which shows what it
 *  ignored). In a template, `tour-src` and `tourSrc` are the same prop. */
export interface KubeBootstrapLabOptions {
  /** A guided tour by name (a file of the lab's `tours/`). */
  tour?: string;
  /** A trainer's tour file by address: a path of the site (`/tours/ours.json`, a file of
   *  `public/tours/`, the site's base added) or an http(s) URL. */
  tourSrc?: string;
  /** A tour written in the page: the tour file's JSON text, or the object. */
  tourFile?: string | object;
  /** The tour step to open at, from 1. */
  step?: number | string;
  /** A shipped scenario by name. */
  scenario?: string;
  /** Labels and narration: English (the default) or Chinese. */
  lang?: "en" | "zh";
  /** `minimal`: the story without the editing controls. */
  controls?: "full" | "minimal";
  /** Plays at once. */
  autoplay?: boolean | string;
  /** The panels to show: an array or a comma-separated list. */
  panels?: LabPanel[] | string;
  /** With a tour: the tour as a handout to print. */
  print?: boolean | string;
  /** With print: the answers to the predict questions on a page after the last step (`end`, the
   *  default) or upside down under each question. */
  answers?: "end" | "upside-down";
  /** A moment to open: the fragment of a "Link to this moment" URL (`#scenario=…&t=…`). */
  link?: string;
  /** The folder of the lab's files (default: the site's `/kube-bootstrap-lab/`, under its base). */
  base?: string;
}

export interface KubeBootstrapLabProps extends KubeBootstrapLabOptions {
  /** Default: VitePress's appearance (useData().isDark), applied in place when it changes; `page`
   *  follows the page's background; `auto` the system. */
  theme?: "auto" | "light" | "dark" | "page";
}

export interface KubeBootstrapLabFrameProps extends KubeBootstrapLabOptions {
  /** The frame cannot see the site: `light`, `dark`, or `auto` (the default: the system's). */
  theme?: "auto" | "light" | "dark";
  /** The frame's height in px until the lab reports its own (default: the viewport's less 80 px). */
  height?: number | string;
  /** The frame's title (default "kube-bootstrap-lab"). */
  title?: string;
}

/** The `<kube-bootstrap-lab>` element, with embed.js loaded once mounted in the browser; the
 *  default slot is your own fallback. */
export const KubeBootstrapLab: DefineComponent<KubeBootstrapLabProps>;
/** An iframe of the lab's page, sized by frame-height.js; its address is absolute (base added). */
export const KubeBootstrapLabFrame: DefineComponent<KubeBootstrapLabFrameProps>;
export default KubeBootstrapLab;
