//! `kubectl get … -o json` brought in (`import::kubectl`): what is read from the
//! fixtures of `tests/kubectl/` (shaped like real output: every Service type, dual-stack,
//! headless, ExternalName, managedFields, several documents in one paste), the scenario made of
//! it, what the repair loops report, and every refusal naming the object and the field.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use serde_json::{json, Value};

use engine::contract::scenario;
use import::kubectl::{self, Note, Options};

const V1_29: &str = include_str!("../../../../tests/kubectl/cluster-1.29.json");
const V1_35: &str = include_str!("../../../../tests/kubectl/cluster-1.35.json");

fn imported(text: &str, options: &Options) -> Value {
    printed(&kubectl::scenario(&kubectl::read(text).unwrap(), options).unwrap())
}

/// What the import read or wrote, as the JSON the scenario file prints of it.
fn printed(v: &impl serde::Serialize) -> Value {
    serde_json::to_value(v).unwrap()
}

/// (reason, object) of every finding.
fn findings(text: &str) -> Vec<(String, String)> {
    let file = imported(text, &Options::default());
    let s = scenario::parse(&file.to_string()).expect("an import is a valid scenario");
    kubectl::findings(&s).into_iter().map(|f| (f.reason, f.object)).collect()
}

fn refusal(text: &str) -> String {
    kubectl::read(text).expect_err("refused")
}

#[test]
fn every_service_type_is_read_with_what_the_lab_models() {
    let c = kubectl::read(V1_29).unwrap();
    let names: Vec<&str> = c.services.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(
        names,
        ["kubernetes", "kube-dns", "web", "ingress", "db", "payments", "old", "copy"]
    );
    let by = |n: &str| printed(c.services.iter().find(|s| s.name == n).unwrap());
    assert_eq!(by("kube-dns")["namespace"], "kube-system");
    assert_eq!(
        by("kube-dns")["ports"][0],
        json!({"name": "dns", "protocol": "UDP", "port": 53, "target_port": 53})
    );
    assert_eq!(by("web")["ports"][0]["node_port"], 31080);
    assert_eq!(by("web")["ports"][0]["target_port"], "http");
    assert_eq!(by("ingress")["health_check_node_port"], 32001);
    assert_eq!(by("db")["cluster_ip"], "None");
    assert_eq!(by("db")["publish_not_ready_addresses"], true);
    assert_eq!(by("payments")["type"], "ExternalName");
    assert!(by("payments").get("cluster_ip").is_none());
    assert_eq!(by("kubernetes")["labels"]["provider"], "kubernetes");
    assert_eq!(c.endpoints.len(), 1);
}

#[test]
fn several_documents_in_one_paste_are_one_cluster() {
    let c = kubectl::read(V1_35).unwrap();
    assert_eq!(c.services.len(), 3);
    assert_eq!(
        printed(&c.service_cidrs),
        json!([{"name": "kubernetes", "cidrs": ["10.96.0.0/16", "fd00:10:96::/112"]}])
    );
    assert_eq!(c.ip_addresses.len(), 3);
    assert_eq!(c.endpoint_slices.len(), 1);
    let web = &printed(&c.services[2]);
    assert_eq!(web["cluster_ips"], json!(["10.96.3.3", "fd00:10:96::3"]));
    assert_eq!(web["ip_families"], json!(["IPv4", "IPv6"]));
    assert_eq!(web["ip_family_policy"], "PreferDualStack");
}

#[test]
fn the_scenario_takes_the_ranges_and_apiservers_the_objects_show() {
    let s = imported(V1_35, &Options::default());
    assert_eq!(s["behavior"], "1.35", "ServiceCIDRs or IPAddresses present");
    assert_eq!(s["cluster"]["service_cluster_ip_range"], "10.96.0.0/16,fd00:10:96::/112");
    assert_eq!(
        s["cluster"]["apiservers"],
        json!([{"name": "apiserver-1", "advertise_address": "172.18.0.2"}])
    );
    assert!(s["initial"].get("cluster_ip_allocation").is_none(), "1.35 has no bitmap");

    let s = imported(V1_29, &Options::default());
    assert_eq!(s["behavior"], "1.29");
    // Guessed: the network before the kubernetes Service's ClusterIP; kubeadm's /12, the smallest
    // default starting there that holds every ClusterIP a range starting there could (10.100.20.7
    // is past kind's /16; 10.200.0.5 is past any /12: out of range, a finding). It was 10.96.0.0/13
    // while a default had to hold 10.200.0.5 too, and a range of no default only the others.
    assert_eq!(s["cluster"]["service_cluster_ip_range"], "10.96.0.0/12");
    assert_eq!(s["cluster"]["apiservers"].as_array().unwrap().len(), 2);
    // The bitmaps are taken as consistent with the Services, each IP and port once.
    assert_eq!(
        s["initial"]["cluster_ip_allocation"]["allocated"],
        json!(["10.96.0.1", "10.96.0.10", "10.100.20.7", "10.100.20.8"])
    );
    assert_eq!(s["initial"]["node_port_allocation"]["allocated"], json!([30443, 31080, 32001]));
    assert_eq!(s["initial"]["namespaces"], json!(["default", "kube-system", "legacy", "shop"]));

    let given = Options {
        behavior: Some("1.20".into()),
        service_cluster_ip_range: Some("10.96.0.0/12".into()),
        service_node_port_range: Some("30000-31000".into()),
    };
    let s = imported(V1_29, &given);
    assert_eq!(
        (&s["behavior"], &s["cluster"]["service_cluster_ip_range"]),
        (&json!("1.20"), &json!("10.96.0.0/12"))
    );
    assert_eq!(s["initial"]["node_port_allocation"]["allocated"], json!([30443]));
}

#[test]
fn the_findings_are_what_the_repair_loops_report() {
    assert_eq!(
        findings(V1_29),
        [("ClusterIPOutOfRange", "legacy/old"), ("ClusterIPAlreadyAllocated", "shop/web")]
            .map(|(r, o)| (r.to_string(), o.to_string()))
    );
    assert_eq!(
        findings(V1_35),
        [
            ("ClusterIPNotAllocated", "shop/web"),
            ("ClusterIPNotAllocated", "shop/web"),
            ("IPAddressWrongReference", "10.96.0.10"),
            ("IPAddressNotAllocated", "10.96.7.7"),
            ("ClusterIPNotAllocated", "kube-system/kube-dns"),
        ]
        .map(|(r, o)| (r.to_string(), o.to_string()))
    );
}

#[test]
fn bad_input_is_refused_naming_the_object_and_the_field() {
    assert_eq!(
        refusal(""),
        "input: empty (paste the JSON that `kubectl get svc -A -o json` prints)"
    );
    assert!(
        refusal("{\"kind\": ").starts_with("document 1: not JSON: "),
        "{}",
        refusal("{\"kind\": ")
    );
    let svc = |spec: Value| {
        json!({"kind": "List", "items": [{"kind": "Service",
        "metadata": {"name": "web", "namespace": "shop"}, "spec": spec}]})
        .to_string()
    };
    assert_eq!(
        refusal(&svc(json!({"clusterIP": "10.96.0.300"}))),
        "document 1: items[0] (Service shop/web): spec.clusterIP: invalid IP address \"10.96.0.300\""
    );
    assert_eq!(
        refusal(&svc(json!({"ports": [{"port": 80}, {"port": 70000}]}))),
        "document 1: items[0] (Service shop/web): spec.ports[1].port: 70000 is not a port number (1-65535)"
    );
    assert_eq!(
        refusal(&svc(json!({"ports": [{"port": 80, "nodePort": "x"}]}))),
        "document 1: items[0] (Service shop/web): spec.ports[0].nodePort: not a port number: \"x\""
    );
    assert_eq!(
        refusal(&svc(json!({"type": "Magic"}))),
        "document 1: items[0] (Service shop/web): spec.type: unknown type \"Magic\""
    );
    let pod = json!({"kind": "Pod", "metadata": {"name": "p", "namespace": "shop"}}).to_string();
    assert_eq!(
        refusal(&format!("{}\n{pod}", svc(json!({})))),
        "document 2: (Pod shop/p): kind Pod is not one the lab reads (Service, Endpoints, EndpointSlice, ServiceCIDR, IPAddress)"
    );
    assert_eq!(
        refusal(&json!({"kind": "IPAddress", "metadata": {"name": "10.0.0.x"}, "spec": {"parentRef": {"name": "a"}}}).to_string()),
        "document 1: (IPAddress 10.0.0.x): metadata.name: invalid IP address \"10.0.0.x\""
    );
    assert_eq!(
        refusal(&json!({"kind": "Service", "metadata": {}}).to_string()),
        "document 1: (Service default/): metadata.name: missing"
    );
}

#[test]
fn no_range_to_guess_from_is_said() {
    let c = kubectl::read(
        &json!({"kind": "Service", "metadata": {"name": "a"}, "spec": {"clusterIP": "10.0.0.5"}})
            .to_string(),
    )
    .unwrap();
    assert_eq!(
        kubectl::scenario(&c, &Options::default()).unwrap_err(),
        "service_cluster_ip_range: no ServiceCIDR `kubernetes` and no Service default/kubernetes to guess it from: give it (--service-cluster-ip-range)"
    );
}

/// A Service of `namespace/name` with these ClusterIPs, as kubectl prints it.
fn service(namespace: &str, name: &str, ips: &[&str]) -> Value {
    json!({"apiVersion": "v1", "kind": "Service",
        "metadata": {"name": name, "namespace": namespace},
        "spec": {"type": "ClusterIP", "clusterIP": ips[0], "clusterIPs": ips,
            "ipFamilyPolicy": if ips.len() > 1 { "PreferDualStack" } else { "SingleStack" },
            "ports": [{"port": 80, "protocol": "TCP"}]}})
}

#[test]
fn a_dual_stack_cluster_has_its_secondary_range_guessed_from_its_services() {
    let list = json!({"kind": "List", "items": [
        service("default", "kubernetes", &["10.96.0.1"]),
        service("shop", "web", &["10.96.0.20", "fd00:10:96::14"]),
        service("shop", "api", &["10.96.1.7", "fd00:10:96::ff07"]),
        // Inside the guess (/108), but past the 65,536 addresses an IPv6 bitmap keeps.
        service("shop", "far", &["10.96.1.8", "fd00:10:96::2:7"]),
    ]})
    .to_string();
    let s = imported(&list, &Options::default());
    // The primary range is kind's default (the smallest distribution default that holds every
    // IPv4 ClusterIP). The kubernetes Service is single-stack: the secondary range starts at
    // the widest range the flag allows (/108) that holds the lowest IPv6 ClusterIP, as small as
    // holds them all (kind's fd00:10:96::/112 does not hold fd00:10:96::2:7).
    assert_eq!(s["cluster"]["service_cluster_ip_range"], "10.96.0.0/16,fd00:10:96::/110");
    // No IPv6 ClusterIP is of a family the cluster lacks (ClusterIPNotValid).
    assert_eq!(findings(&list), [("ClusterIPOutOfRange".to_string(), "shop/far".to_string())]);
}

#[test]
fn an_import_tells_how_far_it_has_come() {
    use kubectl::Progress;
    let text = format!(
        "{}\n{}",
        crate::workloads::kubectl_services(250),
        json!({"kind": "Endpoints", "metadata": {"name": "kubernetes", "namespace": "default"},
            "subsets": [{"addresses": [{"ip": "192.168.10.11"}], "ports": [{"port": 6443}]}]})
    );
    let mut told = Vec::new();
    let imported = kubectl::import_with(&text, &Options::default(), &mut |p| told.push(p)).unwrap();
    assert_eq!(imported.file.initial.services.len(), 251);
    // Each document parsed, then its objects read in hundredths (251 objects: every second),
    // then the file written and checked (no third document is looked for past the end).
    let reads: Vec<usize> = (0..251).step_by(2).collect();
    let mut want = vec![Progress::Parsing { document: 1 }];
    want.extend(reads.iter().map(|&read| Progress::Reading { read, of: 251 }));
    want.extend([Progress::Parsing { document: 2 }, Progress::Writing, Progress::Checking]);
    assert_eq!(told, want);
    // A refusal stops it where it is: nothing after the document that failed.
    told.clear();
    let refused =
        kubectl::import_with("{\"kind\": \"Pod\"", &Options::default(), &mut |p| told.push(p));
    assert!(refused.is_err_and(|e| e.starts_with("document 1: not JSON")));
    assert_eq!(told, [Progress::Parsing { document: 1 }]);
}

#[test]
fn each_other_release_says_what_its_repair_loops_would_on_the_same_cluster() {
    let summary = |text: &str, chosen: &str| -> Vec<(String, Vec<(String, String)>)> {
        let cluster = kubectl::read(text).unwrap();
        kubectl::compare(&cluster, &Options::default(), chosen)
            .into_iter()
            .map(|c| {
                let found = c.findings.unwrap().into_iter().map(|f| (f.reason, f.object));
                (c.behavior, found.collect())
            })
            .collect()
    };
    let pairs = |v: &[(&str, &str)]| -> Vec<(String, String)> {
        v.iter().map(|(r, o)| (r.to_string(), o.to_string())).collect()
    };
    let compared = summary(V1_29, "1.29");
    let behaviors: Vec<&str> = compared.iter().map(|(b, _)| b.as_str()).collect();
    assert_eq!(behaviors, ["1.20", "1.33", "1.35"], "every release but the one chosen");
    // The bitmap's repair loop in 1.20 reports what 1.29's does here.
    let bitmap =
        pairs(&[("ClusterIPOutOfRange", "legacy/old"), ("ClusterIPAlreadyAllocated", "shop/web")]);
    assert_eq!(compared[0].1, bitmap);
    // Under 1.35 a paste without IPAddress objects has every ClusterIP not allocated (and
    // repaired), the one shared by two Services on the second's turn; 10.200.0.5 is in no
    // ServiceCIDR.
    let under_1_35 = &compared[2].1;
    assert!(
        under_1_35.contains(&("ClusterIPOutOfRange".into(), "legacy/old".into())),
        "{under_1_35:?}"
    );
    assert!(
        under_1_35.contains(&("ClusterIPNotAllocated".into(), "kube-system/kube-dns".into())),
        "{under_1_35:?}"
    );
    // The same cluster chosen under 1.20: 1.29 is among the others, with its own findings.
    let from_1_20 = summary(V1_29, "1.20");
    assert_eq!(from_1_20[0], ("1.29".to_string(), bitmap));
}

/// Older API versions print the fields the lab reads under the same names: alpha ServiceCIDRs
/// and IPAddresses (`networking.k8s.io/v1alpha1`, whose `parentRef.uid` is left alone) and
/// `discovery.k8s.io/v1beta1` EndpointSlices (whose `topology` is left alone).
#[test]
fn objects_of_older_api_versions_are_read_as_todays() {
    let older = json!({"kind": "List", "items": [
        service("default", "kubernetes", &["10.96.0.1"]),
        {"apiVersion": "networking.k8s.io/v1alpha1", "kind": "ServiceCIDR",
            "metadata": {"name": "kubernetes"}, "spec": {"cidrs": ["10.96.0.0/16"]}},
        {"apiVersion": "networking.k8s.io/v1alpha1", "kind": "IPAddress", "metadata": {"name": "10.96.0.1"},
            "spec": {"parentRef": {"group": "", "resource": "services", "namespace": "default",
                "name": "kubernetes", "uid": "6c7b1f0e-2a1d-4d0e-9a43-0f1f58b0b6a1"}}},
        {"apiVersion": "discovery.k8s.io/v1beta1", "kind": "EndpointSlice",
            "metadata": {"name": "kubernetes", "namespace": "default",
                "labels": {"kubernetes.io/service-name": "kubernetes"}},
            "addressType": "IPv4",
            "endpoints": [{"addresses": ["172.18.0.2"], "conditions": {"ready": true},
                "topology": {"kubernetes.io/hostname": "cp-1"}}],
            "ports": [{"name": "https", "port": 6443, "protocol": "TCP"}]},
    ]})
    .to_string();
    let s = imported(&older, &Options::default());
    assert_eq!(s["behavior"], "1.35");
    assert_eq!(s["cluster"]["service_cluster_ip_range"], "10.96.0.0/16");
    assert_eq!(s["cluster"]["secure_port"], 6443);
    assert_eq!(
        s["cluster"]["apiservers"],
        json!([{"name": "apiserver-1", "advertise_address": "172.18.0.2"}])
    );
    assert_eq!(
        s["initial"]["ip_addresses"],
        json!([{"ip": "10.96.0.1", "parent": {"group": "", "resource": "services",
            "namespace": "default", "name": "kubernetes"}}])
    );
    assert_eq!(findings(&older), []);
}

#[test]
fn a_file_is_read_as_utf8_with_or_without_a_byte_order_mark() {
    let json = r#"{"kind": "List", "items": []}"#;
    assert_eq!(kubectl::text_of(json.as_bytes()), Ok(json));
    let marked = [&[0xef, 0xbb, 0xbf][..], json.as_bytes()].concat();
    assert_eq!(kubectl::text_of(&marked), Ok(json));
    // What Windows PowerShell's `>` writes: UTF-16LE with its mark.
    let utf16: Vec<u8> =
        [0xff, 0xfe].into_iter().chain(json.encode_utf16().flat_map(u16::to_le_bytes)).collect();
    assert!(kubectl::text_of(&utf16).is_err_and(|e| e.starts_with("input: UTF-16 text")));
    assert_eq!(
        kubectl::text_of(b"{\"kind\": \"\xff\"}"),
        Err("input: not UTF-8 text (byte 10); kubectl prints JSON in UTF-8".to_string())
    );
}

// The shapes of tests/kubectl/make-shapes.mjs: typed lists, a terminal copied with its prompts,
// documents one after another, another tool's format; each from a distribution of its own.
const EKS_TYPED: &str = include_str!("../../../../tests/kubectl/shape-eks-typed.json");
const K3S_PROMPT: &str = include_str!("../../../../tests/kubectl/shape-k3s-prompt.txt");
const KIND_CONCAT: &str = include_str!("../../../../tests/kubectl/shape-kind-concat.json");
const KIND_NO_ENDPOINTS: &str =
    include_str!("../../../../tests/kubectl/shape-kind-no-endpoints.json");
const NOT_KUBECTL: &str = include_str!("../../../../tests/kubectl/shape-not-kubectl.json");

/// The notes on an import, as the CLI prints them (in English).
fn notes(text: &str) -> Vec<String> {
    let notes = kubectl::import(text, &Options::default()).unwrap().notes;
    notes.iter().map(ToString::to_string).collect()
}

#[test]
fn a_typed_list_gives_its_items_their_kind() {
    let c = kubectl::read(EKS_TYPED).unwrap();
    assert_eq!(c.services.len(), 2);
    assert_eq!(c.services[1].name, "kube-dns");
    let endpoints = printed(&c.endpoints);
    assert_eq!(endpoints[0]["subsets"][0]["addresses"], json!(["192.168.71.20", "192.168.120.7"]));
    let s = imported(EKS_TYPED, &Options::default());
    assert_eq!(s["cluster"]["secure_port"], 443);
    assert_eq!(s["cluster"]["apiservers"].as_array().unwrap().len(), 2);
    // A typed list of another kind is refused by that kind.
    let pods =
        json!({"kind": "PodList", "apiVersion": "v1", "items": [{"metadata": {"name": "p"}}]});
    assert!(refusal(&pods.to_string()).contains("kind Pod is not one the lab reads"));
    // A `List` with kinded items, and a typed list whose item says its kind, still read.
    let kinded =
        json!({"kind": "ServiceList", "items": [service("default", "kubernetes", &["10.96.0.1"])]});
    assert_eq!(kubectl::read(&kinded.to_string()).unwrap().services.len(), 1);
}

#[test]
fn a_lone_kubernetes_service_on_eks_is_given_eks_default_range() {
    // Not 10.100.0.0/29: no cluster runs on 6 Service addresses.
    let s = imported(EKS_TYPED, &Options::default());
    assert_eq!(s["cluster"]["service_cluster_ip_range"], "10.100.0.0/16");
    let notes = notes(EKS_TYPED);
    assert_eq!(notes.len(), 1, "{notes:?}");
    assert!(
        notes[0].starts_with(
            "service-cluster-ip-range guessed: 10.100.0.0/16 (10.100.0.0/16 is EKS's default)"
        ),
        "{notes:?}"
    );
    assert!(notes[0].contains("--service-cluster-ip-range"));
    // Given, it is not guessed and no note says it was.
    let given =
        Options { service_cluster_ip_range: Some("10.100.0.0/20".into()), ..Options::default() };
    assert!(kubectl::import(EKS_TYPED, &given).unwrap().notes.is_empty());
}

#[test]
fn a_terminal_copied_with_its_prompts_is_read_and_says_so() {
    let c = kubectl::read(K3S_PROMPT).unwrap();
    assert_eq!(c.services.len(), 4);
    assert_eq!(c.endpoints.len(), 1);
    assert_eq!(
        c.notes,
        [Note::IgnoredLines {
            lines: 2,
            first: "pi@k3s-main:~$ kubectl get svc -A -o json".into()
        }]
    );
    assert_eq!(
        c.notes[0].to_string(),
        "ignored 2 lines before the output (a shell prompt or command: `pi@k3s-main:~$ kubectl get svc -A -o json`)"
    );
    // k3s's own /16, not a /17 that only just holds 10.43.88.150.
    let s = imported(K3S_PROMPT, &Options::default());
    assert_eq!(s["cluster"]["service_cluster_ip_range"], "10.43.0.0/16");
    assert_eq!(notes(K3S_PROMPT).len(), 2);
    for prompt in [
        "$ kubectl get svc -A -o json",
        "PS C:\\> kubectl get svc -A -o json",
        "> kubectl get svc -A -o json",
        "$",
    ] {
        let text = format!("{prompt}\n{}", service("default", "kubernetes", &["10.96.0.1"]));
        assert_eq!(kubectl::read(&text).unwrap().notes.len(), 1, "{prompt}");
    }
    // A line that is neither JSON nor a prompt is still refused, with a hint, on its own line.
    let e = refusal("NAME         TYPE        CLUSTER-IP\nkubernetes   ClusterIP   10.96.0.1\n");
    assert!(
        e.starts_with("document 1: not JSON: expected value at line 1 column 1 (paste what"),
        "{e}"
    );
    let e = refusal("$ kubectl get svc -A -o json\n{\"kind\": \n");
    assert!(e.starts_with("document 1: not JSON: EOF while parsing a value at line 3"), "{e}");
}

#[test]
fn documents_one_after_another_are_all_read() {
    let c = kubectl::read(KIND_CONCAT).unwrap();
    assert_eq!((c.services.len(), c.endpoints.len()), (3, 1));
    let cidrs = printed(&c.service_cidrs);
    assert_eq!(cidrs, json!([{"name": "kubernetes", "cidrs": ["10.96.0.0/16"]}]));
    assert_eq!(c.ip_addresses.len(), 3);
    assert_eq!(c.ip_addresses[2].parent.name, "web");
    let s = imported(KIND_CONCAT, &Options::default());
    assert_eq!(
        (s["behavior"].as_str(), s["cluster"]["service_cluster_ip_range"].as_str()),
        (Some("1.35"), Some("10.96.0.0/16"))
    );
    // The ServiceCIDR says the range: nothing was guessed.
    assert!(notes(KIND_CONCAT).is_empty());
    assert!(findings(KIND_CONCAT).is_empty());
}

#[test]
fn an_import_without_endpoints_says_the_apiserver_and_the_range_were_guessed() {
    let s = imported(KIND_NO_ENDPOINTS, &Options::default());
    assert_eq!(s["cluster"]["service_cluster_ip_range"], "10.96.0.0/16");
    let notes = notes(KIND_NO_ENDPOINTS);
    assert_eq!(notes.len(), 2, "{notes:?}");
    assert!(notes[0].contains("10.96.0.0/16 is kind's default"));
    assert!(notes[1].starts_with("apiservers guessed: one at 192.168.10.11:6443"));
    assert!(notes[1].contains("kubectl get endpoints kubernetes -o json"));
    // A ClusterIP past kind's /16 makes it kubeadm's /12; one past every default, the smallest
    // aligned range of at least a /24.
    let wide = json!({"kind": "List", "items": [service("default", "kubernetes", &["10.96.0.1"]),
        service("a", "b", &["10.100.3.4"])]});
    assert_eq!(
        imported(&wide.to_string(), &Options::default())["cluster"]["service_cluster_ip_range"],
        "10.96.0.0/12"
    );
    let own = json!({"kind": "List", "items": [service("default", "kubernetes", &["10.7.0.1"])]});
    assert_eq!(
        imported(&own.to_string(), &Options::default())["cluster"]["service_cluster_ip_range"],
        "10.7.0.0/24"
    );
    let gke = json!({"kind": "List", "items": [service("default", "kubernetes", &["34.118.224.1"]),
        service("kube-system", "kube-dns", &["34.118.224.10"])]});
    assert_eq!(
        imported(&gke.to_string(), &Options::default())["cluster"]["service_cluster_ip_range"],
        "34.118.224.0/20"
    );
}

#[test]
fn another_tools_format_is_named_as_not_kubectl_output() {
    let e = refusal(NOT_KUBECTL);
    assert_eq!(e, "document 1: not kubectl output: expected objects with apiVersion and kind (an object of services has neither)");
    let e = refusal(r#"{"items": [{"metadata": {"namespace": "x"}}]}"#);
    assert_eq!(e, "document 1: items[0] not kubectl output: expected objects with apiVersion and kind (an object of metadata has neither)");
    assert!(!e.contains('\n'));
}

#[test]
fn yaml_is_read_as_the_json_is() {
    let text = include_str!("../../../../tests/kubectl/shape-kind-yaml.txt");
    let c = kubectl::read(text).unwrap();
    let json = kubectl::read(KIND_NO_ENDPOINTS).unwrap();
    assert_eq!(c.services, json.services);
    assert_eq!(printed(&c.endpoints[0])["subsets"][0]["addresses"], json!(["172.18.0.2"]));
    assert_eq!(c.notes.len(), 1, "the command line: {:?}", c.notes);
    let s = imported(text, &Options::default());
    assert_eq!(s["cluster"]["service_cluster_ip_range"], "10.96.0.0/16");
    assert_eq!(s["cluster"]["apiservers"][0]["advertise_address"], "172.18.0.2");
    // A YAML that is not kubectl's is refused on one line, naming the document.
    let e = refusal("kind: Service\nmetadata: [1\n");
    assert!(e.starts_with("document 1: not YAML: "), "{e}");
    assert!(!e.contains('\n'));
    let e = refusal("items:\n- name: web\n");
    assert!(e.starts_with("document 1: items[0] not kubectl output"), "{e}");
}

/// Every note in Chinese as in English: the lab's own words translated (no English word left
/// but Kubernetes' own), what it quotes (a pasted line, a flag, a command, a range, a
/// distribution's name) verbatim and the same in both.
#[test]
fn every_note_is_told_in_chinese_with_what_it_quotes_verbatim() {
    use import::kubectl::Piece;
    use lab::Lang;
    let quoted = |n: &Note, lang| -> Vec<Piece> {
        n.pieces(lang).into_iter().filter(|p| !matches!(p, Piece::Lab(_))).collect()
    };
    let mut all = Vec::new();
    for text in [
        EKS_TYPED,
        K3S_PROMPT,
        KIND_NO_ENDPOINTS,
        include_str!("../../../../tests/kubectl/shape-kind-yaml.txt"),
        V1_29,
    ] {
        all.extend(kubectl::import(text, &Options::default()).unwrap().notes);
    }
    let kinds: std::collections::BTreeSet<&str> = all
        .iter()
        .map(|n| match n {
            Note::IgnoredLines { .. } => "ignored",
            Note::RangeGuessed { .. } => "range",
            Note::ApiserversGuessed { .. } => "apiservers",
        })
        .collect();
    assert_eq!(kinds.len(), 3, "every kind of note: {all:?}");
    for n in &all {
        assert_eq!(quoted(n, Lang::En), quoted(n, Lang::Zh), "{n}");
        for p in n.pieces(Lang::Zh) {
            if let Piece::Lab(words) = p {
                let english = words.replace("ClusterIP", "").replace("kubectl", "");
                assert!(
                    !english.chars().any(|c| c.is_ascii_alphabetic()),
                    "English in {words:?} of {}",
                    n.text(Lang::Zh)
                );
            }
        }
        assert_eq!(n.to_string(), n.text(Lang::En), "the CLI's text is English");
    }
    let apiservers = Note::ApiserversGuessed { at: "192.168.10.11:6443".into() };
    assert_eq!(
        apiservers.text(Lang::Zh),
        "apiservers 为推测值：一个，位于 192.168.10.11:6443（输入中没有 Endpoints default/kubernetes）；要给出它们，请加上 `kubectl get endpoints kubernetes -o json` 的输出"
    );
}

/// Issue 25: a guessed range starts at the kubernetes Service's ClusterIP (its first usable
/// address), holds every ClusterIP a range starting there could, and has at least as many usable
/// addresses as the cluster has distinct ClusterIPs of its family; the smallest default that
/// does is preferred.
#[test]
fn a_guessed_range_is_one_the_cluster_could_have_had() {
    let range = |text: &str| {
        imported(text, &Options::default())["cluster"]["service_cluster_ip_range"]
            .as_str()
            .unwrap()
            .to_string()
    };
    let services = |ips: &[String]| {
        let mut items = vec![service("default", "kubernetes", &["10.7.0.1"])];
        items.extend(
            ips.iter().enumerate().map(|(i, ip)| service("a", &format!("s{i}"), &[ip.as_str()])),
        );
        json!({"kind": "List", "items": items}).to_string()
    };
    // 299 ClusterIPs but the 253 left of a /24 are 45 too many for it: a /23, though the 45
    // outside the /24 are also outside any /12 starting at 10.7.0.0 (out of range, findings).
    let mut ips: Vec<String> = (2..=254).map(|i| format!("10.7.0.{i}")).collect();
    ips.extend((0..46).map(|i| format!("10.200.0.{i}")));
    assert_eq!(range(&services(&ips)), "10.7.0.0/23");
    // The broadcast address of a /24 is no address the allocator gives: a /23.
    assert_eq!(range(&services(&["10.7.0.255".to_string()])), "10.7.0.0/23");
    // The 10,000 Services of the benchmarks, on 10.96.0.0/12: kind's /16 holds them all.
    assert_eq!(range(&crate::workloads::kubectl_services(10_000)), "10.96.0.0/16");
    // A kubernetes ClusterIP that starts no range: nothing is guessed, the flag is asked for.
    let odd = json!({"kind": "List", "items": [service("default", "kubernetes", &["10.7.0.6"])]});
    let e = kubectl::scenario(&kubectl::read(&odd.to_string()).unwrap(), &Options::default())
        .unwrap_err();
    assert!(e.starts_with("service_cluster_ip_range: the Service default/kubernetes's ClusterIP 10.7.0.6 is the first usable address of no range"), "{e}");
}
