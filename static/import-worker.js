// The import of a large kubectl paste or file, off the page's thread: this worker loads the lab's
// own module and runs its import (`import_cluster`, src/ui/panels/import.rs), posting each step
// of its progress, the scenario file it wrote, its end and the other releases' findings, as JSON
// text the page reads. A file
// is read here, not copied through the page. Nothing leaves the browser.
import init, { import_cluster } from "./kube-bootstrap-lab.js";

const ready = init();

self.onmessage = async ({ data }) => {
  let text;
  try {
    await ready;
    text = data.file ? await data.file.text() : data.text;
  } catch (e) {
    // Not text: the page reads the input itself.
    self.postMessage({ failed: String(e) });
    return;
  }
  const tell = (reply) => self.postMessage(reply);
  import_cluster(text, data.range, data.behavior, tell);
};
