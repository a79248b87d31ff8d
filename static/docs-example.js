// The training page's own script: a file, as its Content-Security-Policy allows no inline script.
import { mount } from "./embed.js";

// Figure 3.3: the iframe (data-kube-bootstrap-lab) sized by the lab's height reports.
import "./frame-height.js";

// Figure 3.1: a guided tour, mounted with mount(element, options).
window.labTour = await mount(document.getElementById("lab-tour"), {
  tour: "lease-crash-vs-stop",
  controls: "minimal",
  panels: "apiservers,kubernetes-service,etcd,events",
});
