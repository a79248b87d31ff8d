// Types of docusaurus/KubeBootstrapLab.js: the lab in a Docusaurus 3 site (React 18 or 19).
import type { CSSProperties, ReactElement, ReactNode } from "react";
import type { LabPanel } from "../embed.js";

/** The lab's options as props (static/embed.js; each is checked by the lab, which shows what it ignored). */
export interface KubeBootstrapLabOptions {
  /** A guided tour by name (a file of the lab's `tours/`). */
  tour?: string;
  /** A trainer's tour file by address: a path of the site (`/tours/ours.json`, the site's
   *  baseUrl added, as useBaseUrl does) or an http(s) URL. */
  tourSrc?: string;
  "tour-src"?: string;
  /** A tour written in the page: the tour file's JSON text, or the object. */
  tourFile?: string | object;
  /** The tour step to open at, from 1. */
  step?: number | string;
  /** A shipped scenario by name. */
  scenario?: string;
  /** Labels and narration: English (the default) or Chinese. */
  lang?: "en" | "zh";
  /** `controls="minimal"`: the story without the editing controls. */
  controls?: "full" | "minimal";
  /** Plays at once. */
  autoplay?: boolean;
  /** The panels to show: an array or a comma-separated list. */
  panels?: LabPanel[] | string;
  /** With a tour: the tour as a handout to print. */
  print?: boolean;
  /** A moment to open: the fragment of a "Link to this moment" URL (`#scenario=…&t=…`). */
  link?: string;
  /** The folder of the lab's files (default: the site's `/kube-bootstrap-lab/`, under its baseUrl). */
  base?: string;
  id?: string;
  className?: string;
  style?: CSSProperties;
}

export interface KubeBootstrapLabProps extends KubeBootstrapLabOptions {
  /** Default: the site's colour mode (its dark switch), applied in place when it changes; `page`
   *  follows the page's background; `auto` the system. */
  theme?: "auto" | "light" | "dark" | "page";
  /** Your own fallback, shown until the lab renders and when it cannot load (default: a sentence
   *  saying what the lab is and a link that opens it in its own tab). */
  children?: ReactNode;
}

/** The `<kube-bootstrap-lab>` element, with embed.js loaded once the page runs in the browser. */
export default function KubeBootstrapLab(props: KubeBootstrapLabProps): ReactElement;

export interface KubeBootstrapLabFrameProps extends KubeBootstrapLabOptions {
  /** The frame cannot see the site: `light`, `dark`, or `auto` (the default: the system's). */
  theme?: "auto" | "light" | "dark";
  /** The frame's height in px until the lab reports its own (default: the viewport's less 80 px). */
  height?: number;
  /** The frame's title (default "kube-bootstrap-lab"). */
  title?: string;
}

/** An iframe of the lab's page, sized by frame-height.js; its address is absolute (baseUrl added). */
export function KubeBootstrapLabFrame(props: KubeBootstrapLabFrameProps): ReactElement;
