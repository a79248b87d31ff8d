// The import of a large kubectl paste or file, off the page's thread: this worker loads the lab's
// own module and runs its import (`import_cluster`, src/ui/panels/import.rs), posting each step
// of its progress, the scenario file it wrote, its end and the other releases' findings as
// [kind, text] pairs the page reads. A file is read here, not copied through the page. Nothing
// leaves the browser.
import init, { import_cluster } from "./kube-bootstrap-lab.js";

const ready = init();

self.onmessage = async ({ data }) => {
  let input;
  try {
    await ready;
    // UTF-8 bytes, as the file holds them and the module reads them.
    input = data.file ? new Uint8Array(await data.file.arrayBuffer()) : new TextEncoder().encode(data.text);
  } catch (e) {
    // Not a [kind, text] pair: the page reads the input itself.
    self.postMessage({ failed: String(e) });
    return;
  }
  const tell = (kind, payload) => self.postMessage([kind, payload]);
  import_cluster(input, data.range, data.behavior, tell);
};
