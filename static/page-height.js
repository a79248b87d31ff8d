// The lab's page in an iframe tells its host page how tall it is, so that the host sizes the
// frame (static/frame-height.js): `{type: "kube-bootstrap-lab:height", version: 1, height,
// dock}`, addressed to the host's origin only, whenever either changes, and again when the host
// asks (`{type: "kube-bootstrap-lab:request-height", version: 1}`).
// - `height` is what the page's content occupies (the root element's box: the body with its
//   children's margins), not the document's scroll height, which is never less than the frame:
//   the frame grows and shrinks with the lab, from the first view to a failure's one line.
// - `dock` is true while the lab docks its tour card to the bottom of its window (a column
//   narrower than the lab's two-column layout: style.css, `.stage-row > .tour`). A frame as tall
//   as its content would put that card at its own bottom, screens below the reader; the host
//   then caps the frame at its viewport, and the lab scrolls inside it with its card on screen.
// A plain script, not the wasm: it reports from the first view on, and when the module fails.
(() => {
  if (window.parent === window) return;
  const HEIGHT = "kube-bootstrap-lab:height";
  const REQUEST = "kube-bootstrap-lab:request-height";
  const VERSION = 1;
  // The host's origin, from the browser's ancestor list where it has one, else the referrer's;
  // "*" when neither is known (the height is no secret; hosts check the sender themselves).
  const origin = (() => {
    const ancestor = location.ancestorOrigins?.[0];
    if (ancestor && ancestor !== "null") return ancestor;
    try {
      const o = new URL(document.referrer).origin;
      if (o !== "null") return o;
    } catch {}
    return "*";
  })();
  const measure = () => {
    const height = Math.ceil(document.documentElement.getBoundingClientRect().height);
    const card = document.querySelector(".stage-row > .tour");
    const dock = !!card && getComputedStyle(card).position === "sticky";
    return { height, dock };
  };
  let last = "";
  const send = (always) => {
    if (!document.body) return;
    const { height, dock } = measure();
    // Never 0: the page is empty only for the instant between Yew clearing the first view and
    // its first render (a slow machine let a host draw that instant: the frame collapsed, then
    // grew back). The render's own report follows.
    if (height === 0) return;
    const key = `${height} ${dock}`;
    if (key === last && !always) return;
    last = key;
    window.parent.postMessage({ type: HEIGHT, version: VERSION, height, dock }, origin);
  };
  const start = () => {
    const observer = new ResizeObserver(() => send(false));
    observer.observe(document.body);
    // The lab changes its body (Yew replaces the first view): watch what is in it too.
    new MutationObserver(() => {
      for (const child of document.body.children) observer.observe(child);
      send(false);
    }).observe(document.body, { childList: true });
    for (const child of document.body.children) observer.observe(child);
    send(true);
  };
  if (document.body) start();
  else addEventListener("DOMContentLoaded", start, { once: true });
  addEventListener("message", (e) => {
    const m = e.data;
    if (e.source !== window.parent || (origin !== "*" && e.origin !== origin)) return;
    if (m && m.type === REQUEST && m.version === VERSION) send(true);
  });
})();
