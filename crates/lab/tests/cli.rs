//! The `bootstrap-sim` CLI as outside checks use it: exit codes, one-line errors naming the
//! field path, nothing on stdout for invalid input, byte-identical output across runs.
#![cfg(not(target_arch = "wasm32"))]

use std::path::PathBuf;
use std::process::{Command, Output};

fn sim(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_bootstrap-sim"))
        .args(args)
        .output()
        .expect("bootstrap-sim runs")
}

fn write(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("bootstrap-sim-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

const ONE: &str = r#"{"name": "t", "cluster": {"service_cluster_ip_range": "10.96.0.0/12",
  "apiservers": [{"name": "apiserver-a", "advertise_address": "192.168.10.11"}]}"#;

/// A one-apiserver scenario with extra top-level members (`, "steps": [...]`).
fn scenario(extra: &str) -> String {
    format!("{ONE}{extra}}}")
}

fn invalid(file_text: &str) -> String {
    let path = write("bad.json", file_text);
    for cmd in [&["check"][..], &["run"][..]] {
        let mut args = cmd.to_vec();
        args.push(path.to_str().unwrap());
        let out = sim(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?} on {file_text}");
        assert!(out.stdout.is_empty(), "nothing on stdout for invalid input");
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.lines().count(), 1, "one line: {err}");
        assert!(err.starts_with("error: "));
    }
    let out = sim(&["check", path.to_str().unwrap()]);
    String::from_utf8(out.stderr).unwrap().trim_end().to_string()
}

#[test]
fn invalid_input_exits_2_with_the_field_path() {
    let cases = [
        (r#"{"cluster": {"service_cluster_ip_range": "10.96.0.0/33", "apiservers": [{"name": "a", "advertise_address": "10.0.0.1"}]}}"#,
            r#"error: cluster.service_cluster_ip_range: invalid CIDR "10.96.0.0/33""#),
        (r#"{"cluster": {"service_node_port_range": "30000-70000", "apiservers": [{"name": "a", "advertise_address": "10.0.0.1"}]}}"#,
            "error: cluster.service_node_port_range: the port range cannot be greater than 65535: 30000-70000"),
        (r#"{"cluster": {"lease_ttl": "15 seconds", "apiservers": [{"name": "a", "advertise_address": "10.0.0.1"}]}}"#,
            "error: cluster.lease_ttl: "),
        (r#"{"cluster": {"apiservers": [{"name": "a", "advertise_address": "10.0.0.1"}, {"name": "a", "advertise_address": "10.0.0.2"}]}}"#,
            r#"error: cluster.apiservers[1].name: duplicate apiserver name "a""#),
        (r#"{"cluster": {"apiservers": [{"name": "a", "advertise_address": "fd00::1"}]}}"#,
            "error: cluster.apiservers[0].advertise_address: service IP family"),
        (r#"{"cluster": {"apiservers": [{"name": "a", "advertise_address": "10.0.0.1", "colour": "red"}]}}"#,
            "error: cluster.apiservers[0].colour: unknown field `colour`"),
        (r#"{"cluster": {"apiservers": []}}"#, "error: cluster.apiservers: at least one apiserver is required"),
        (r#"{"cluster": {"service_cluster_ip_range": "10.0.0.0/16,10.1.0.0/16", "apiservers": [{"name": "a", "advertise_address": "10.0.0.1"}]}}"#,
            "error: cluster.service_cluster_ip_range: --service-cluster-ip-range[0] and --service-cluster-ip-range[1] must be of different IP family"),
        (r#"{"cluster": {"endpoint_reconciler_type": "leases", "apiservers": [{"name": "a", "advertise_address": "10.0.0.1"}]}}"#,
            "error: cluster.endpoint_reconciler_type: unknown endpoint reconciler type"),
        (r#"{"cluster": {"apiserver_count": 0, "apiservers": [{"name": "a", "advertise_address": "10.0.0.1"}]}}"#,
            "error: cluster.apiserver_count: --apiserver-count should be a positive number, but value '0' provided"),
        (&scenario(r#", "steps": [{"at": "1s", "do": "crash_apiserver", "apiserver": "apiserver-z"}]"#),
            r#"error: steps[0].apiserver: unknown apiserver "apiserver-z""#),
        (&scenario(r#", "steps": [{"at": "1s", "do": "explode"}]"#), "error: steps[0].do: unknown variant `explode`, expected one of `start_apiserver`"),
        (&scenario(r#", "steps": [{"at": "1s", "do": "create_service", "service": {"name": "x", "portz": []}}]"#),
            "error: steps[0].service.portz: unknown field `portz`"),
        (&scenario(r#", "steps": [{"at": "soon", "do": "etcd_outage", "for": "10s"}]"#), "error: steps[0].at: "),
        (&scenario(r#", "steps": [{"at": "1s", "do": "etcd_outage", "for": "-10s"}]"#), "error: steps[0].for: "),
        (&scenario(r#", "steps": [{"at": "1s", "do": "corrupt", "what": "leak_cluster_ip", "ip": "10.96.0.300"}]"#),
            r#"error: steps[0].ip: invalid IP address "10.96.0.300""#),
        (&scenario(r#", "steps": [{"at": "1s", "expect": {"servicez": []}}]"#), "error: steps[0].expect.servicez: unknown field"),
        (&scenario(r#", "initial": {"cluster_ip_allocation": {"range": "10.96.0.0/12", "allocated": ["fd00::1"]}}"#),
            "error: initial.cluster_ip_allocation.allocated[0]: fd00::1 is not of the family of 10.96.0.0/12"),
        (&scenario(r#", "until": "forever""#), "error: until: "),
        // The ceiling of virtual time (docs/extensions.md, "Extension: limits of this lab").
        (&scenario(r#", "until": "99999999h""#),
            r#"error: until: "99999999h" exceeds 2h0m0s, the longest virtual time the lab runs"#),
        (&scenario(r#", "steps": [{"at": "1s", "expect": {}}, {"at": "1s", "expect": {}}, {"at": "1s", "expect": {}}, {"at": "3h", "expect": {}}]"#),
            r#"error: steps[3].at: "3h" exceeds 2h0m0s"#),
        (r#"{"cluster": {"lease_ttl": "99999999h", "apiservers": [{"name": "a", "advertise_address": "10.0.0.1"}]}}"#,
            r#"error: cluster.lease_ttl: "99999999h" exceeds 2h0m0s"#),
        (r#"{"cluster": {"endpoint_reconciler_interval": "1ms", "apiservers": [{"name": "a", "advertise_address": "10.0.0.1"}]}}"#,
            r#"error: cluster.endpoint_reconciler_interval: "1ms" is shorter than 1s"#),
        ("{\"cluster\": ", "error: invalid JSON: "),
    ];
    for (text, want) in cases {
        let got = invalid(text);
        assert!(got.starts_with(want), "\n got: {got}\nwant: {want}…");
    }
}

#[test]
fn unreadable_file_and_bad_usage_exit_2() {
    let out = sim(&["run", "/nonexistent/scenario.json"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    assert_eq!(sim(&["frobnicate"]).status.code(), Some(2));
    let path = write("ok.json", &scenario(""));
    assert_eq!(sim(&["state", path.to_str().unwrap(), "--at", "soon"]).status.code(), Some(2));
    let out = sim(&["state", path.to_str().unwrap(), "--at", "1000000s"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    assert_eq!(
        String::from_utf8(out.stderr).unwrap(),
        "error: --at: \"1000000s\" exceeds 2h0m0s, the longest virtual time the lab runs\n"
    );
}

#[test]
fn a_service_without_a_cluster_ip_runs() {
    let path = write(
        "external.json",
        &scenario(
            r#", "initial": {"services": [{"name": "db", "type": "ExternalName", "cluster_ip": "", "cluster_ips": [""]}]},
            "steps": [{"at": "3m10s", "expect": {"services": [{"name": "db", "type": "ExternalName"}],
              "events_exclude": [{"reason": "ClusterIPNotValid"}]}}]"#,
        ),
    );
    let out = sim(&["run", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stdout));
}

#[test]
fn run_passes_fails_and_is_byte_identical() {
    let pass = write(
        "pass.json",
        &scenario(
            r#", "steps": [{"at": "30s", "expect": {"services": [{"namespace": "default", "name": "kubernetes", "cluster_ip": "10.96.0.1"}]}}]"#,
        ),
    );
    let a = sim(&["run", pass.to_str().unwrap()]);
    let b = sim(&["run", pass.to_str().unwrap()]);
    assert_eq!(a.status.code(), Some(0), "{}", String::from_utf8_lossy(&a.stdout));
    assert_eq!(a.stdout, b.stdout, "same file and seed, same bytes");
    let report: serde_json::Value = serde_json::from_slice(&a.stdout).unwrap();
    assert_eq!(report["scenario"], "t");
    assert_eq!(report["seed"], 1);
    assert_eq!(report["expectations"][0]["passed"], true);
    assert_eq!(report["final"]["time_ms"], 30000);

    let fail = write(
        "fail.json",
        &scenario(
            r#", "steps": [{"at": "30s", "expect": {"services": [{"namespace": "default", "name": "kubernetes", "cluster_ip": "10.96.0.2"}]}}]"#,
        ),
    );
    let out = sim(&["run", fail.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["expectations"][0]["passed"], false);
    assert_eq!(
        report["expectations"][0]["mismatches"][0],
        r#"services[default/kubernetes].cluster_ip: expected "10.96.0.2", got "10.96.0.1""#
    );
}

#[test]
fn state_at_and_check() {
    let path = write("state.json", &scenario(""));
    let out = sim(&["state", path.to_str().unwrap(), "--at", "25s"]);
    assert_eq!(out.status.code(), Some(0));
    let state: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(state["time_ms"], 25000);
    assert_eq!(state["leases"][0]["key"], "/masterleases/192.168.10.11");
    assert_eq!(state["leases"][0]["ttl_left_ms"], 10000, "renewed at 20s with a 15s TTL");
    assert_eq!(state["endpoints"][0]["subsets"][0]["addresses"][0], "192.168.10.11");
    let check = sim(&["check", path.to_str().unwrap()]);
    assert_eq!(check.status.code(), Some(0));
    assert!(check.stdout.is_empty());
}

const KUBECTL_1_29: &str =
    concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/kubectl/cluster-1.29.json");
const KUBECTL_1_35: &str =
    concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/kubectl/cluster-1.35.json");

/// `import` prints a scenario file the other commands accept, the same bytes every run;
/// `findings` prints what the repair loops report on that cluster.
#[test]
fn import_prints_a_scenario_and_findings_what_repair_reports() {
    let out = sim(&["import", KUBECTL_1_35]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(out.stdout, sim(&["import", KUBECTL_1_35]).stdout, "byte-identical");
    let file = write("imported.json", std::str::from_utf8(&out.stdout).unwrap());
    assert_eq!(sim(&["check", file.to_str().unwrap()]).status.code(), Some(0));
    let run = sim(&["run", file.to_str().unwrap()]);
    assert_eq!(run.status.code(), Some(0), "no expectations: passes");

    let out = sim(&["findings", KUBECTL_1_29, "--service-cluster-ip-range", "10.96.0.0/12"]);
    assert_eq!(out.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["service_cluster_ip_range"], "10.96.0.0/12");
    let reasons: Vec<(&str, &str)> = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| (f["reason"].as_str().unwrap(), f["object"].as_str().unwrap()))
        .collect();
    assert_eq!(
        reasons,
        [("ClusterIPOutOfRange", "legacy/old"), ("ClusterIPAlreadyAllocated", "shop/web")]
    );
    assert_eq!(
        v["findings"][0]["message"],
        "Cluster IP [IPv4]:10.200.0.5 is not within the service CIDR 10.96.0.0/12; please recreate service"
    );
}

#[test]
fn import_refusals_exit_2_with_one_line_naming_the_place() {
    let bad = write(
        "bad-kubectl.json",
        r#"{"kind": "List", "items": [{"kind": "Service", "metadata": {"name": "web", "namespace": "shop"}, "spec": {"clusterIP": "10.1.2"}}]}"#,
    );
    // What Windows PowerShell's `>` writes: UTF-16LE with its mark.
    let utf16 = write("utf16-kubectl.json", "");
    let bytes: Vec<u8> =
        [0xff, 0xfe].into_iter().chain("{}".encode_utf16().flat_map(u16::to_le_bytes)).collect();
    std::fs::write(&utf16, bytes).unwrap();
    let cases: [(&[&str], &str); 6] = [
        (&["import", bad.to_str().unwrap()], "error: document 1: items[0] (Service shop/web): spec.clusterIP: invalid IP address \"10.1.2\""),
        (&["findings", utf16.to_str().unwrap()], "error: input: UTF-16 text (as Windows PowerShell's `>` writes it); write UTF-8: `kubectl get svc -A -o json | Out-File -Encoding utf8 cluster.json`"),
        (&["findings", bad.to_str().unwrap()], "error: document 1: items[0] (Service shop/web): spec.clusterIP: invalid IP address \"10.1.2\""),
        (&["import", KUBECTL_1_29, "--service-cluster-ip-range", "10.96.0.0/33"], "error: --service-cluster-ip-range: invalid CIDR \"10.96.0.0/33\""),
        (&["import", KUBECTL_1_29, "--color", "red"], ""),
        (&["import", KUBECTL_1_29, "--behavior"], "error: --behavior: a value is missing"),
    ];
    for (args, want) in cases {
        let out = sim(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}: nothing on stdout");
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.lines().count(), 1, "{args:?}: one line: {err}");
        if !want.is_empty() {
            assert_eq!(err.trim_end(), want, "{args:?}");
        }
    }
}

/// What the import ignored or guessed: `findings` prints it as `notes`, `import` on stderr (its
/// stdout stays the scenario file alone).
#[test]
fn import_notes_say_what_was_ignored_or_guessed() {
    let k3s = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/kubectl/shape-k3s-prompt.txt");
    let out = sim(&["findings", k3s]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["service_cluster_ip_range"], "10.43.0.0/16");
    let notes: Vec<&str> =
        v["notes"].as_array().unwrap().iter().map(|n| n.as_str().unwrap()).collect();
    assert_eq!(notes.len(), 2, "{notes:?}");
    assert!(notes[0].starts_with("ignored 2 lines before the output"));
    assert!(
        notes[1].contains("10.43.0.0/16 is k3s's default")
            && notes[1].contains("--service-cluster-ip-range")
    );

    let given = sim(&["findings", k3s, "--service-cluster-ip-range", "10.43.0.0/16"]);
    let v: serde_json::Value = serde_json::from_slice(&given.stdout).unwrap();
    assert_eq!(v["notes"].as_array().unwrap().len(), 1, "the range given: not guessed");

    let kind =
        concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/kubectl/shape-kind-no-endpoints.json");
    let out = sim(&["import", kind]);
    assert_eq!(out.status.code(), Some(0));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.lines().count(), 2, "{stderr}");
    assert!(stderr.lines().all(|l| l.starts_with("note: ")));
    assert!(stderr.contains("apiservers guessed: one at 192.168.10.11:6443"));
    serde_json::from_slice::<serde_json::Value>(&out.stdout).expect("stdout: the file alone");
}

const TOURS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tours");

/// The shipped tours, sorted by path.
fn shipped_tours() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(TOURS)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    assert!(files.len() > 1);
    files
}

#[test]
fn tour_check_accepts_every_shipped_tour_silently() {
    for file in shipped_tours() {
        let out = sim(&["tour", "check", file.to_str().unwrap()]);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{file:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(out.stdout.is_empty() && out.stderr.is_empty(), "{file:?}");
    }
}

/// A one-step tour of a shipped scenario whose step is `step` (JSON members before `say`).
fn tour_file(step: &str) -> String {
    format!(
        r#"{{"name":"t","title":{{"en":"T","zh":"题"}},"scenario":"crash-one-of-three","steps":[{{{step}"say":{{"en":"a","zh":"甲"}}}}]}}"#
    )
}

#[test]
fn tour_refusals_exit_2_with_one_line_naming_the_field() {
    let cases = [
        (tour_file(r#""at":"soon","#), "error: steps[0].at: "),
        (tour_file(r#""highlight":["moon"],"#), r#"error: steps[0].highlight[0]: "moon" is not a part of the UI"#),
        (tour_file(r#""until":{"servicez":[]},"#), "error: steps[0].until.servicez: unknown field"),
        (tour_file(r#""play":"6m","#), r#"error: steps[0].play: "6m" is longer than 5m0s"#),
        (tour_file(r#""ask":{"question":"q","answers":["a","b"],"right":0,"why":"w"},"#), "error: steps[0].ask: the last step cannot ask"),
        (tour_file("").replace(r#""zh":"甲""#, r#""fr":"un""#), r#"error: steps[0].say.fr: unknown language: use "en" or "zh""#),
        (tour_file("").replace(r#""crash-one-of-three""#, r#""nope""#), r#"error: scenario: there is no scenario "nope""#),
        (
            tour_file("").replace(r#""crash-one-of-three""#, r#"{"name":"s","cluster":{"service_cluster_ip_range":"10.96.0.0/33","apiservers":[{"name":"a","advertise_address":"10.0.0.1"}]}}"#),
            r#"error: scenario.cluster.service_cluster_ip_range: invalid CIDR "10.96.0.0/33""#,
        ),
        (tour_file(r#""scenario":{"name":"s","cluster":{"apiservers":[]}},"#), "error: steps[0].scenario.cluster.apiservers: at least one apiserver is required"),
        (tour_file(r#""sai":1,"#), "error: steps[0].sai: unknown field `sai`"),
        ("{\"name\": ".to_string(), "error: invalid JSON: "),
    ];
    for (text, want) in cases {
        let path = write("bad-tour.json", &text);
        for cmd in ["check", "run"] {
            let out = sim(&["tour", cmd, path.to_str().unwrap()]);
            assert_eq!(out.status.code(), Some(2), "tour {cmd} on {text}");
            assert!(out.stdout.is_empty(), "tour {cmd}: nothing on stdout");
            let err = String::from_utf8(out.stderr).unwrap();
            assert_eq!(err.lines().count(), 1, "one line: {err}");
            assert!(err.starts_with(want), "\n got: {err}\nwant: {want}…");
        }
    }
    for args in [
        &["tour", "check"][..],
        &["tour", "run", "/nonexistent/tour.json"],
        &["tour", "play", "x.json"],
    ] {
        let out = sim(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty());
    }
}

#[test]
fn tour_run_plays_every_shipped_tour_to_its_last_step_byte_identically() {
    for file in shipped_tours() {
        let a = sim(&["tour", "run", file.to_str().unwrap()]);
        assert_eq!(a.status.code(), Some(0), "{file:?}: {}", String::from_utf8_lossy(&a.stdout));
        assert_eq!(
            a.stdout,
            sim(&["tour", "run", file.to_str().unwrap()]).stdout,
            "{file:?}: byte-identical"
        );
        let run: serde_json::Value = serde_json::from_slice(&a.stdout).unwrap();
        assert_eq!(run["tour"].as_str(), file.file_stem().unwrap().to_str());
        assert_eq!(run["passed"], true);
        let steps = run["steps"].as_array().unwrap();
        for (i, step) in steps.iter().enumerate() {
            assert_eq!(step["step"], i + 1);
            assert_eq!(step["held"], true, "{file:?}: {step}");
            assert_eq!(step["why"], serde_json::json!([]));
            assert!(["now", "at", "until"].contains(&step["wait"].as_str().unwrap()));
            assert!(step["at_ms"].is_u64() && step["at"].is_string(), "{step}");
        }
    }
    // The story: apiserver-b crashes at 32s, its address leaves at 50s.
    let story = sim(&["tour", "run", &format!("{TOURS}/story.json")]);
    let run: serde_json::Value = serde_json::from_slice(&story.stdout).unwrap();
    let at: Vec<&str> =
        run["steps"].as_array().unwrap().iter().map(|s| s["at"].as_str().unwrap()).collect();
    assert_eq!(at, ["0s", "32s", "45s", "50s", "1m10s"]);
    assert_eq!(run["steps"][0]["scenario"], "crash-vs-graceful-stop");
}

#[test]
fn tour_run_exits_1_when_a_step_never_arrives() {
    let text =
        tour_file(r#""until":{"apiservers":[{"name":"apiserver-a","status":"on the moon"}]},"#)
            .replace(r#"}}]}"#, r#"}},{"say":"b"}]}"#);
    let path = write("never.json", &text);
    assert_eq!(
        sim(&["tour", "check", path.to_str().unwrap()]).status.code(),
        Some(0),
        "valid: only running finds it"
    );
    let out = sim(&["tour", "run", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
    let run: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(run["passed"], false);
    let first = &run["steps"][0];
    assert_eq!((first["wait"].as_str(), first["held"].as_bool()), (Some("until"), Some(false)));
    assert_eq!(
        (first["at_ms"].as_u64(), first["at"].as_str()),
        (Some(3_600_000), Some("1h0m0s")),
        "given up after an hour"
    );
    assert_eq!(
        first["why"],
        serde_json::json!([
            r#"apiservers[apiserver-a].status: expected "on the moon", got "running""#
        ])
    );
    let second = &run["steps"][1];
    assert_eq!(second["held"], false);
    assert!(second["at_ms"].is_null());
    assert_eq!(second["why"], serde_json::json!(["not reached: step 1 never arrived"]));
}

/// `docs/tour.md`'s complete example is a tour `tour run` passes, at the instants it says.
#[test]
fn the_documented_example_tour_runs() {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/tour.md"))
        .unwrap();
    let example = doc.split("## 8. A complete example").nth(1).expect("section 8");
    let json =
        example.split("```json\n").nth(1).and_then(|b| b.split("```").next()).expect("its JSON");
    let path = write("example-tour.json", json);
    let out = sim(&["tour", "run", path.to_str().unwrap()]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let run: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let at: Vec<&str> =
        run["steps"].as_array().unwrap().iter().map(|s| s["at"].as_str().unwrap()).collect();
    assert_eq!(at, ["0s", "20s", "30s", "1m10s"]);
    assert_eq!(run["steps"][0]["scenario"], "two-apiservers");
    assert_eq!(run["steps"][3]["scenario"], "crash-vs-graceful-stop");
}
