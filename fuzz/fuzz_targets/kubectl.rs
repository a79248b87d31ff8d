//! The `kubectl` import (`bootstrap-sim import`, and the page's import worker, which gets the
//! bytes, a range and a behaviour by `postMessage`): `kubectl::text_of` on the bytes,
//! `kubectl::read`, `kubectl::import` (which ends with `kubectl::check`), then, as the CLI's
//! `findings` and the page do, `kubectl::findings` on the scenario imported. The corpus
//! (`fuzz/seed-corpus.sh`) holds JSON and `-o yaml` output, and output pasted after a shell
//! prompt: every path of the reader.
//!
//! An input whose first line starts with `//` gives the options there, `behavior|range|ports`
//! (empty: not given), and the kubectl output after it.
#![no_main]

use import::kubectl::{self, Options};
use kube_bootstrap_lab_fuzz::{names_one_of, one_message, scenario_rejection};
use libfuzzer_sys::fuzz_target;

/// What a rejection of the import starts with: the input, a document, a guessed range, an
/// option by its flag, or (a file the scenario parser refused) a field of the scenario file.
const PREFIXES: &[&str] = &[
    "input: ",
    "document ",
    "service_cluster_ip_range: ",
    "--service-cluster-ip-range",
    "--service-node-port-range",
    "--behavior",
];

fuzz_target!(|data: &[u8]| {
    let (options, bytes) = match data.strip_prefix(b"//") {
        Some(rest) => {
            let end = rest.iter().position(|&b| b == b'\n').unwrap_or(rest.len());
            let line = String::from_utf8_lossy(&rest[..end]).into_owned();
            let mut given =
                line.split('|').map(|v| Some(v.trim().to_string()).filter(|v| !v.is_empty()));
            let options = Options {
                behavior: given.next().flatten(),
                service_cluster_ip_range: given.next().flatten(),
                service_node_port_range: given.next().flatten(),
            };
            (options, &rest[(end + 1).min(rest.len())..])
        }
        None => (Options::default(), data),
    };
    let text = match kubectl::text_of(bytes) {
        Ok(text) => text,
        Err(e) => return names_one_of("kubectl input", &e, &["input: "]),
    };
    if let Err(e) = kubectl::read(text) {
        names_one_of("kubectl read", &e, &["input: ", "document "]);
    }
    match kubectl::import(text, &options) {
        Ok(imported) => {
            // What the import prints is a file the other commands accept, the same again.
            let again = kubectl::check(&imported.text).expect("an imported file checks");
            assert_eq!(again, imported.scenario);
            // A finding is no rejection but Kubernetes' own event text, which quotes names as
            // the API took them: an IPAddress's parentRef name is only checked as a path
            // segment upstream, so it may hold a line break (fuzz/regressions/kubectl/).
            for f in kubectl::findings(&imported.scenario) {
                assert!(!f.message.trim().is_empty(), "an empty finding: {f:?}");
            }
        }
        Err(e) => {
            one_message("kubectl import", &e);
            if !PREFIXES.iter().any(|p| e.starts_with(p)) {
                scenario_rejection(&e);
            }
        }
    }
});
