// Sizes every <iframe data-kube-bootstrap-lab> of the page to its lab, from the lab's reports
// (`{type: "kube-bootstrap-lab:height", version: 1, height, dock}`, static/page-height.js), so
// the text after it never jumps and the frame never scrolls:
// - the frame is as tall as the lab's content (`height`): it grows and shrinks with it, down to
//   the one line and link the lab shows when it cannot load;
// - while the lab docks its tour card to the bottom of its window (`dock`: a narrow column, a
//   phone), the frame is capped at the part of this page's viewport that no sticky or fixed
//   bar covers, measured again as the page scrolls: the lab scrolls inside it, and the card
//   with Next stays on screen.
// A frame that stays silent for 15 s once it is on screen (or has loaded) holds no lab (a 404
// page, a server that refuses to be framed, a blocked page): it shrinks, and a line after it says
// so with a link that opens the lab in its own tab. The lab reports from its first view on, before
// its wasm, so a slow link is no failure.
// A file, not an inline script: pages under a Content-Security-Policy without 'unsafe-inline'
// load it as they load embed.js. Only a message from one of those frames, from the origin of its
// src, counts.
const frames = () => document.querySelectorAll("iframe[data-kube-bootstrap-lab]");
const reports = new WeakMap();

/** The height of what covers the top of this page's viewport above `frame`, in px: the page's
 *  `scroll-padding-top`, or the bottom of the lowest of the sticky or fixed bars stacked from the
 *  top edge (a header, sticky tabs under it, a local nav under those), whichever is lower. */
function topInset(frame) {
  let inset = parseFloat(getComputedStyle(document.documentElement).scrollPaddingTop) || 0;
  const r = frame.getBoundingClientRect();
  const x = Math.min(Math.max(r.left + r.width / 2, 0), innerWidth - 1);
  // Down the edge: each bar found, look again just below it.
  for (let y = 1, bar; y < innerHeight / 2 && (bar = barAt(x, y, frame)); y = bar + 1) inset = Math.max(inset, bar);
  return Math.max(0, inset);
}

/** The bottom of a sticky or fixed element of the page at (x, y) that does not hold `frame`, or 0. */
function barAt(x, y, frame) {
  let bottom = 0;
  for (let el of document.elementsFromPoint(x, y)) {
    for (; el && el !== document.body && el !== document.documentElement; el = el.parentElement) {
      const position = getComputedStyle(el).position;
      if (position !== "fixed" && position !== "sticky") continue;
      const b = el.getBoundingClientRect().bottom;
      // A bar, not a cover: one reaching past the middle of the viewport is no header.
      if (!el.contains(frame) && b > y && b < innerHeight / 2) bottom = Math.max(bottom, b);
      break;
    }
  }
  return bottom;
}

function size(frame) {
  const m = reports.get(frame);
  if (!m) return;
  // Never less than a phone's half screen: a header taller than that leaves the lab its room.
  const cap = Math.max(innerHeight - topInset(frame), Math.min(innerHeight, 320));
  frame.style.height = `${Math.ceil(m.dock ? Math.min(m.height, cap) : m.height)}px`;
}

addEventListener("message", (event) => {
  const m = event.data;
  if (!m || m.type !== "kube-bootstrap-lab:height" || m.version !== 1 || !Number.isFinite(m.height)) return;
  for (const frame of frames()) {
    if (event.source !== frame.contentWindow || event.origin !== new URL(frame.src, location.href).origin) continue;
    reports.set(frame, { height: m.height, dock: m.dock === true });
    size(frame);
  }
});
addEventListener("resize", () => {
  for (const frame of frames()) size(frame);
});
// A sticky bar covers the top only once the page has scrolled it there (VitePress's local nav on
// a phone sits under the navbar at the top of the page, stuck at 0 further down), and a theme's
// header may hide as the page scrolls: a docked frame's cap is measured again as the page
// scrolls, once a frame.
let pending = false;
addEventListener("scroll", () => {
  if (pending) return;
  pending = true;
  requestAnimationFrame(() => {
    pending = false;
    for (const frame of frames()) if (reports.get(frame)?.dock) size(frame);
  });
}, { passive: true });

/** How long a frame on screen may stay silent before it is taken as failed (ms). */
const SILENT_MS = 15000;
const timed = new WeakSet();

/** Starts `frame`'s silence timer, once: when it first comes on screen or loads. */
function time(frame) {
  if (timed.has(frame)) return;
  timed.add(frame);
  setTimeout(() => tellFailed(frame), SILENT_MS);
}

/** Says after `frame` that the lab did not start in it, with a link to open it in a tab. */
function tellFailed(frame) {
  if (reports.has(frame) || frame.nextElementSibling?.classList.contains("kube-bootstrap-lab-frame-failure")) return;
  const zh = new URL(frame.src, location.href).searchParams.get("lang") === "zh";
  const p = document.createElement("p");
  p.className = "kube-bootstrap-lab-frame-failure";
  p.setAttribute("role", "alert");
  const a = document.createElement("a");
  a.href = frame.src;
  a.target = "_blank";
  a.rel = "noopener";
  a.textContent = zh ? "在新标签页中打开实验室" : "Open the lab in its own tab";
  p.append(zh ? "kube-bootstrap-lab 没有在此框架中启动。" : "kube-bootstrap-lab did not start in this frame. ", a, zh ? "。" : ".");
  frame.style.height = "150px";
  frame.after(p);
}

// A frame whose lab reported before this module ran is asked again once its page has loaded
// (the lab answers its parent only). Not before: a frame still at about:blank has another origin.
// A lazy frame off screen has not started: its clock starts when it comes on screen.
const onScreen = new IntersectionObserver((entries) => {
  for (const e of entries) if (e.isIntersecting && e.target.src) time(e.target);
});
const watched = new WeakSet();
function watch(frame) {
  if (watched.has(frame)) return;
  watched.add(frame);
  // The snippet sizes the frame by attributes (MDX refuses a style string): what a browser gives
  // a bare frame, an inset border and an inline box with a gap under it, is taken off here, and
  // only that (a page's own border or display stays).
  const s = getComputedStyle(frame);
  if (s.borderTopStyle === "inset") frame.style.border = "0";
  if (s.display === "inline") frame.style.display = "block";
  onScreen.observe(frame);
  const ask = () => {
    if (!frame.src || frame.src === "about:blank") return false;
    // Delivered only once the frame holds a page of that origin (a frame still at about:blank drops it).
    frame.contentWindow?.postMessage({ type: "kube-bootstrap-lab:request-height", version: 1 }, new URL(frame.src, location.href).origin);
    return true;
  };
  frame.addEventListener("load", () => ask() && time(frame));
  // Loaded before this script ran (a page put in by a docs site's client-side navigation): ask now.
  ask();
}
for (const frame of frames()) watch(frame);
// Frames a docs site's client-side navigation puts in later are watched as they arrive.
new MutationObserver((records) => {
  if (records.some((r) => [...r.addedNodes].some((n) => n instanceof Element && (n.tagName === "IFRAME" || n.querySelector("iframe")))))
    for (const frame of frames()) watch(frame);
}).observe(document, { childList: true, subtree: true });
