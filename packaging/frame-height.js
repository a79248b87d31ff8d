// Sizes every <iframe data-kube-bootstrap-lab> of the page to the height its lab reports
// (`{type: "kube-bootstrap-lab:height", version: 1, height}`), so the text after it never jumps
// and the frame never scrolls. A file, not an inline script: pages under a Content-Security-
// Policy without 'unsafe-inline' load it as they load embed.js. Only a message from one of those
// frames, from the origin of its src, counts.
const frames = () => document.querySelectorAll("iframe[data-kube-bootstrap-lab]");

addEventListener("message", (event) => {
  const m = event.data;
  if (!m || m.type !== "kube-bootstrap-lab:height" || m.version !== 1 || !Number.isFinite(m.height)) return;
  for (const frame of frames()) {
    if (event.source !== frame.contentWindow || event.origin !== new URL(frame.src, location.href).origin) continue;
    frame.style.height = `${Math.ceil(m.height)}px`;
  }
});

// A frame whose lab reported before this module ran is asked again once its page has loaded
// (the lab answers its parent only). Not before: a frame still at about:blank has another origin.
for (const frame of frames()) {
  frame.addEventListener("load", () => {
    frame.contentWindow?.postMessage({ type: "kube-bootstrap-lab:request-height", version: 1 }, new URL(frame.src, location.href).origin);
  });
}
