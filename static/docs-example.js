// The training page's own script: a file, as its Content-Security-Policy allows no inline script.
import { mount } from "./embed.js";

// Figure 3.3: accept only our frame's messages, from its origin, in the version we know.
addEventListener("message", (event) => {
  const frame = document.getElementById("lab-frame");
  if (event.source !== frame.contentWindow || event.origin !== new URL(frame.src, location.href).origin) return;
  const m = event.data;
  if (m && m.type === "kube-bootstrap-lab:height" && m.version === 1 && Number.isFinite(m.height)) {
    frame.style.height = `${Math.ceil(m.height)}px`;
  }
});

// Figure 3.1: a guided tour, mounted with mount(element, options).
window.labTour = await mount(document.getElementById("lab-tour"), {
  tour: "lease-crash-vs-stop",
  controls: "minimal",
  panels: "apiservers,kubernetes-service,etcd,events",
});
