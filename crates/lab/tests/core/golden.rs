//! Every shipped scenario produces the same report, byte for byte, natively and in wasm: both
//! builds compare the digest of `bootstrap-sim run`'s output with one committed list.
//! After a deliberate change: `UPDATE_GOLDEN=1 cargo test --no-default-features --test core golden`.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use engine::{contract::scenario, sim::report};
use lab::catalogue::SCENARIOS;

const GOLDEN: &str = include_str!("../../../../tests/golden/scenario-digests.txt");

/// FNV-1a, 64 bits: small, stable and the same on every target.
pub(crate) fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| (h ^ b as u64).wrapping_mul(0x100_0000_01b3))
}

/// (name, digest of the pretty-printed report) for every scenario.
fn digests() -> Vec<(String, String)> {
    SCENARIOS
        .iter()
        .map(|(name, text)| {
            let s = scenario::parse(text).unwrap_or_else(|e| panic!("{name}: {e}"));
            let report = serde_json::to_string_pretty(&report::run(&s)).expect("report serialises");
            (name.to_string(), format!("{:016x}", fnv1a(report.as_bytes())))
        })
        .collect()
}

#[test]
fn reports_match_the_committed_digests() {
    let got = digests();
    let rendered: String = got.iter().map(|(n, d)| format!("{n} {d}\n")).collect();
    #[cfg(not(target_arch = "wasm32"))]
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(
            concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/golden/scenario-digests.txt"),
            &rendered,
        )
        .unwrap();
        return;
    }
    assert_eq!(
        rendered, GOLDEN,
        "a report changed; if deliberately, rerun with UPDATE_GOLDEN=1 (native)"
    );
}

/// The benchmark's day (5 apiservers, 1,000 Services, 24 h, `make bench`), digested the same way:
/// making the world faster must not change a byte of what it reports. Native only (a day takes
/// seconds unoptimised; the shipped scenarios above run in wasm too).
#[cfg(not(target_arch = "wasm32"))]
#[test]
fn the_benchmark_day_reports_what_it_always_has() {
    let mut day = crate::workloads::control_plane_scenario(5, 1000);
    day.until_ms = 24 * 3_600_000;
    let report = serde_json::to_string(&report::run(&day)).expect("report serialises");
    // Recorded before the repair loops skipped their quiet runs (digest of the compact JSON).
    assert_eq!(format!("{:016x}", fnv1a(report.as_bytes())), "4ed3ac6218b23564");
}
