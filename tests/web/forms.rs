//! Component tests of the forms in several instances (issue 24): each form acts on its own
//! instance with what was typed there, inside a shadow root (as `<kube-bootstrap-lab>` renders)
//! and beside another instance on the same page; ids stay unique per instance; names Kubernetes
//! refuses are refused in its words and create nothing; a port that is no number is refused
//! naming its field; the settings' problems are listed and can be dismissed; each kubectl
//! fixture pasted into the import imports as it should, its notes in English and in Chinese.

use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{Element, HtmlTextAreaElement};

use kube_bootstrap_lab::ui::mount::{mount, Instance};

use crate::dom::within::{all, find, get, press, put, settle, text};
use crate::dom::{new_root, options, shadow_root, until_long as until};

fn open(root: &Element, scenario: &str) -> Instance {
    mount(root.clone(), options(&[("scenario", scenario)]), None)
}

/// The Services table's rows, as text.
fn services(root: &Element) -> String {
    text(root, ".panel.services tbody")
}

/// Every element id in `root`'s tree, and every id its labels and ARIA attributes name that is
/// not in it.
fn ids_and_dangling(root: &Element) -> (Vec<String>, Vec<String>) {
    let list = |sel: &str| {
        let all = root.query_selector_all(sel).unwrap();
        (0..all.length())
            .filter_map(|i| all.item(i)?.dyn_into::<Element>().ok())
            .collect::<Vec<_>>()
    };
    let ids: Vec<String> = list("[id]").iter().map(|e| e.id()).collect();
    let mut dangling = Vec::new();
    for attr in ["for", "aria-labelledby", "aria-describedby"] {
        for el in list(&format!("[{attr}]")) {
            let named = el.get_attribute(attr).unwrap_or_default();
            dangling.extend(
                named
                    .split_whitespace()
                    .filter(|id| !ids.iter().any(|i| i == id))
                    .map(|id| format!("{attr}={id}")),
            );
        }
    }
    (ids, dangling)
}

/// Creates a Service and a Pod, corrupts a ClusterIP and imports a cluster with a typed range,
/// in one instance (`at`, whose ids start with `p`); each shows in that instance only.
async fn act_in(at: &Element, p: &str, others: &[&Element]) {
    let id = |bare: &str| format!("#{p}{bare}");
    put(at, &id("svc-name"), "web-x", "input").await;
    put(at, &id("svc-type"), "NodePort", "change").await;
    put(at, &id("svc-node-port"), "30123", "input").await;
    press(at, &id("svc-create")).await;
    until("the Service is listed", || services(at).contains("default/web-x")).await;
    assert!(services(at).contains("30123"), "{}", services(at));
    put(at, &id("pod-name"), "pod-x", "input").await;
    put(at, &id("pod-app"), "x", "input").await;
    press(at, &format!("{} button[type=submit]", id("create-pod"))).await;
    until("the Pod is listed", || text(at, ".pod-list").contains("default/pod-x")).await;
    put(at, &id("corrupt-what"), "force_cluster_ip", "change").await;
    put(at, &id("corrupt-value"), "10.96.0.77", "input").await;
    put(at, &id("corrupt-service"), "default/web-x", "input").await;
    press(at, &format!("{} button[type=submit]", id("corrupt"))).await;
    until("the ClusterIP is forced", || services(at).contains("10.96.0.77")).await;
    for other in others {
        assert!(
            !services(other).contains("web-x") && !text(other, ".pod-list").contains("pod-x"),
            "another instance changed"
        );
    }
    // The import reads this instance's range field.
    let imported =
        |all: &[&Element]| all.iter().map(|o| text(o, "[id$=import-findings]")).collect::<Vec<_>>();
    let before = imported(others);
    get(at, &id("import-text"))
        .dyn_into::<HtmlTextAreaElement>()
        .unwrap()
        .set_value(include_str!("../kubectl/cluster-1.29.json"));
    put(at, &id("import-range"), "10.96.0.0/12", "input").await;
    press(at, &id("import-run")).await;
    until("the findings", || find(at, &id("import-findings")).is_some()).await;
    let findings = text(at, &id("import-findings"));
    assert!(findings.starts_with("8 Services, behaviour 1.29, range 10.96.0.0/12."), "{findings}");
    assert_eq!(imported(others), before, "another instance imported");
}

/// Configures a 1.33 cluster of two apiservers in one instance and creates a ServiceCIDR there.
async fn configure_in(at: &Element, p: &str) {
    let id = |bare: &str| format!("#{p}{bare}");
    press(at, &id("configure")).await;
    put(at, &id("cfg-count"), "2", "change").await;
    put(at, &id("cfg-behavior"), "1.33", "change").await;
    put(at, &id("cfg-seed"), "7", "change").await;
    press(at, &id("cfg-apply")).await;
    until("the sandbox runs", || find(at, ".panel.service-cidrs").is_some()).await;
    assert!(
        find(at, &id("apiserver-apiserver-b")).is_some()
            && find(at, &id("apiserver-apiserver-c")).is_none()
    );
    put(at, &id("scidr-name"), "extra", "input").await;
    put(at, &id("scidr-cidr-0"), "10.100.0.0/16", "input").await;
    press(at, &id("scidr-create")).await;
    until("the ServiceCIDR is listed", || find(at, &id("scidr-extra")).is_some()).await;
}

#[wasm_bindgen_test]
async fn every_form_acts_on_its_own_instance_in_a_shadow_root_and_beside_another() {
    let (first, second) = (new_root(), new_root());
    let (host, inner) = shadow_root();
    let mut a = open(&first, "crash-one-of-three");
    let mut b = open(&second, "crash-one-of-three");
    let mut c = open(&inner, "crash-one-of-three");
    until("all render", || {
        [&first, &second, &inner]
            .iter()
            .all(|r| find(r, "#kubernetes-ip, #lab2-kubernetes-ip").is_some())
    })
    .await;
    // The first instance keeps the bare ids, the second in the page prefixes them; the one in
    // the shadow root is alone in it.
    let named = |r: &Element| find(r, "[name=svc-name]").map(|e| e.id()).unwrap_or_default();
    until("the second is numbered", || named(&second).starts_with("lab")).await;
    let numbered = [named(&first), named(&second), named(&inner)];
    assert_eq!(numbered, ["svc-name", "lab2-svc-name", "svc-name"]);
    let (ids_a, dangling_a) = ids_and_dangling(&first);
    let (ids_b, dangling_b) = ids_and_dangling(&second);
    assert!(
        dangling_a.is_empty() && dangling_b.is_empty(),
        "labels name ids of their own instance: {dangling_a:?} {dangling_b:?}"
    );
    let shared: Vec<&String> = ids_a.iter().filter(|i| ids_b.contains(i)).collect();
    assert!(shared.is_empty(), "two instances share ids: {shared:?}");

    act_in(&inner, "", &[&first, &second]).await;
    act_in(&second, "lab2-", &[&first, &inner]).await;
    configure_in(&inner, "").await;
    configure_in(&second, "lab2-").await;
    assert!(
        find(&first, "#apiserver-apiserver-c").is_some()
            && find(&first, ".panel.service-cidrs").is_none(),
        "the first instance is as it was"
    );
    assert!(!services(&first).contains("web-x"));
    for lab in [&mut a, &mut b, &mut c] {
        lab.unmount();
    }
    first.remove();
    second.remove();
    host.remove();
}

#[wasm_bindgen_test]
async fn a_freed_number_is_taken_again_so_a_lone_instance_has_bare_ids() {
    let (first, second) = (new_root(), new_root());
    let mut a = open(&first, "crash-one-of-three");
    let mut b = open(&second, "crash-one-of-three");
    until("the second is numbered", || find(&second, "#lab2-svc-name").is_some()).await;
    a.unmount();
    let third = new_root();
    let mut c = open(&third, "crash-one-of-three");
    until("the third renders", || find(&third, ".lab").is_some()).await;
    settle().await;
    assert!(find(&third, "#svc-name").is_some(), "the first number is free again");
    assert!(find(&second, "#lab2-svc-name").is_some(), "a number is kept for the instance's life");
    b.unmount();
    c.unmount();
    for r in [first, second, third] {
        r.remove();
    }
}

#[wasm_bindgen_test]
async fn names_kubernetes_refuses_and_ports_that_are_no_number_create_nothing() {
    let (host, root) = shadow_root();
    let mut lab = open(&root, "crash-one-of-three");
    until("it renders", || find(&root, "#svc-create").is_some()).await;
    let (before, pods) = (services(&root), text(&root, ".pod-list"));
    press(&root, "#svc-create").await;
    until("the refusal", || find(&root, "#action-error").is_some()).await;
    assert_eq!(
        text(&root, "#action-error"),
        "Service \"\" is invalid: metadata.name: Required value: name or generateName is required"
    );
    put(&root, "#svc-name", "My_Svc", "input").await;
    press(&root, "#svc-create").await;
    until("the name's refusal", || text(&root, "#action-error").contains("My_Svc")).await;
    assert_eq!(
        text(&root, "#action-error"),
        "Service \"My_Svc\" is invalid: metadata.name: Invalid value: \"My_Svc\": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')"
    );
    press(&root, "#create-pod button[type=submit]").await;
    until("the Pod's refusal", || text(&root, "#action-error").starts_with("Pod ")).await;
    assert_eq!(
        text(&root, "#action-error"),
        "Pod \"\" is invalid: metadata.name: Required value: name or generateName is required"
    );
    assert_eq!(text(&root, ".pod-list"), pods, "no Pod was created");
    // A nodePort that is no number is the form's to refuse, naming the field.
    put(&root, "#svc-name", "web", "input").await;
    put(&root, "#svc-node-port", "80a", "input").await;
    press(&root, "#svc-create").await;
    until("the nodePort's refusal", || find(&root, "#svc-error").is_some()).await;
    assert_eq!(text(&root, "#svc-error"), "nodePort: \"80a\" is not a port number");
    assert_eq!(get(&root, "#svc-node-port").get_attribute("aria-invalid").as_deref(), Some("true"));
    assert_eq!(services(&root), before, "nothing was created");
    put(&root, "#corrupt-what", "leak_node_port", "change").await;
    put(&root, "#corrupt-value", "x1", "input").await;
    press(&root, "#corrupt button[type=submit]").await;
    until("the port's refusal", || find(&root, "#corrupt-error").is_some()).await;
    assert_eq!(text(&root, "#corrupt-error"), "IP or port: \"x1\" is not a port number");
    // Fixed, the same forms go through.
    put(&root, "#svc-node-port", "", "input").await;
    press(&root, "#svc-create").await;
    until("the Service is listed", || services(&root).contains("default/web")).await;
    assert!(find(&root, "#svc-error").is_none());
    lab.unmount();
    host.remove();
}

#[wasm_bindgen_test]
async fn the_settings_problems_are_a_list_each_instance_dismisses_its_own() {
    let (first, second) = (new_root(), new_root());
    let bad = [("lang", "fr"), ("panels", "stage,nope"), ("scenario", "crash-one-of-three")];
    let mut a = mount(first.clone(), options(&bad), None);
    let mut b = mount(second.clone(), options(&bad), None);
    let items = |root: &Element| {
        let all = root.query_selector_all(".problems li").unwrap();
        (0..all.length())
            .map(|i| all.item(i).unwrap().text_content().unwrap_or_default())
            .collect::<Vec<_>>()
    };
    until("both list their problems", || items(&first).len() == 2 && items(&second).len() == 2)
        .await;
    until("the second is numbered", || find(&second, "#lab2-problems").is_some()).await;
    assert_eq!(items(&first), [
        "option lang: \"fr\" is not one of en, zh",
        "option panels: \"nope\" is not a panel (one of stage, apiservers, kubernetes-service, etcd, events, bitmaps, service-cidrs, services, pods, import)",
    ]);
    assert!(
        find(&first, ".stage").is_some() && find(&first, ".panel.etcd").is_none(),
        "the valid panel is kept"
    );
    let dismiss = get(&second, "#lab2-problems-dismiss");
    assert_eq!(
        dismiss.get_attribute("aria-label").as_deref(),
        Some("Dismiss the settings' problems")
    );
    press(&second, "#lab2-problems-dismiss").await;
    until("the second's problems are gone", || items(&second).is_empty()).await;
    assert!(find(&second, "#lab2-action-error").is_none());
    assert_eq!(items(&first).len(), 2, "the first still lists its own");
    a.unmount();
    b.unmount();
    first.remove();
    second.remove();
}

/// What each fixture of `tests/kubectl/make-shapes.mjs` imports as: the range guessed (or the
/// refusal naming the real problem), the Services, and the notes, as parts of their text in
/// English and in Chinese.
struct Shape {
    name: &'static str,
    text: &'static str,
    /// `Ok(range)` or `Err(refusal)`.
    range: Result<&'static str, &'static str>,
    services: &'static [&'static str],
    notes: &'static [(&'static str, &'static str)],
}

const SHAPES: &[Shape] = &[
    Shape {
        name: "eks-typed",
        text: include_str!("../kubectl/shape-eks-typed.json"),
        range: Ok("10.100.0.0/16"),
        services: &["default/kubernetes", "kube-system/kube-dns"],
        notes: &[("10.100.0.0/16 is EKS's default", "10.100.0.0/16 是 EKS 的默认值")],
    },
    Shape {
        name: "k3s-prompt",
        text: include_str!("../kubectl/shape-k3s-prompt.txt"),
        range: Ok("10.43.0.0/16"),
        services: &["default/kubernetes", "kube-system/kube-dns", "kube-system/metrics-server", "kube-system/traefik"],
        notes: &[
            ("ignored 2 lines before the output (a shell prompt or command: pi@k3s-main:~$ kubectl get svc -A -o json)",
                "忽略了输出之前的 2 行（终端提示符或命令：pi@k3s-main:~$ kubectl get svc -A -o json）"),
            ("10.43.0.0/16 is k3s's default", "10.43.0.0/16 是 k3s 的默认值"),
        ],
    },
    Shape {
        name: "kind-concat",
        text: include_str!("../kubectl/shape-kind-concat.json"),
        range: Ok("10.96.0.0/16"),
        services: &["default/kubernetes", "kube-system/kube-dns", "shop/web"],
        notes: &[],
    },
    Shape {
        name: "kind-no-endpoints",
        text: include_str!("../kubectl/shape-kind-no-endpoints.json"),
        range: Ok("10.96.0.0/16"),
        services: &["default/kubernetes", "kube-system/kube-dns", "shop/web"],
        notes: &[
            ("10.96.0.0/16 is kind's default", "10.96.0.0/16 是 kind 的默认值"),
            ("apiservers guessed: one at 192.168.10.11:6443 (the input has no Endpoints default/kubernetes)",
                "apiservers 为推测值：一个，位于 192.168.10.11:6443（输入中没有 Endpoints default/kubernetes）"),
        ],
    },
    Shape {
        name: "kind-yaml",
        text: include_str!("../kubectl/shape-kind-yaml.txt"),
        range: Ok("10.96.0.0/16"),
        services: &["default/kubernetes", "kube-system/kube-dns", "shop/web"],
        notes: &[("ignored 1 line before the output", "忽略了输出之前的 1 行"), ("10.96.0.0/16 is kind's default", "10.96.0.0/16 是 kind 的默认值")],
    },
    Shape {
        name: "not-kubectl",
        text: include_str!("../kubectl/shape-not-kubectl.json"),
        range: Err("document 1: not kubectl output: expected objects with apiVersion and kind (an object of services has neither)"),
        services: &[],
        notes: &[],
    },
];

/// The texts of the elements `sel` in `root`.
fn texts(root: &Element, sel: &str) -> Vec<String> {
    all(root, sel).iter().map(|e| e.text_content().unwrap_or_default()).collect()
}

/// Pastes `shape` into the import panel of a lab in `lang` in a shadow root and submits; returns
/// the verbatim parts of its notes (what `<code>` shows), to be the same in each language.
async fn import_shape(shape: &Shape, lang: &str) -> Vec<String> {
    let (host, root) = shadow_root();
    let mut lab =
        mount(root.clone(), options(&[("scenario", "crash-one-of-three"), ("lang", lang)]), None);
    until("the import form", || find(&root, "#import-text").is_some()).await;
    get(&root, "#import-text").dyn_into::<HtmlTextAreaElement>().unwrap().set_value(shape.text);
    press(&root, "#import-run").await;
    let at = format!("{} in {lang}", shape.name);
    until(&at, || find(&root, "#import-findings, #import-error").is_some()).await;
    let zh = lang == "zh";
    match shape.range {
        Err(refusal) => {
            assert_eq!(
                text(&root, "#import-error"),
                refusal,
                "{at}: the refusal, Kubernetes' words in both"
            );
            assert!(find(&root, "#import-findings").is_none(), "{at}");
        }
        Ok(range) => {
            let summary = text(&root, "#import-findings p");
            let n = shape.services.len();
            let want = if zh {
                format!("{n} 个 Service，行为 ")
            } else {
                format!("{n} Services, behaviour ")
            };
            assert!(summary.starts_with(&want), "{at}: {summary}");
            let want =
                if zh { format!("，范围 {range}。") } else { format!(", range {range}.") };
            assert!(summary.contains(&want), "{at}: {summary}");
            for s in shape.services {
                let id = format!("#svc-{}", s.replace('/', "-"));
                until(&format!("{at}: {s} in the lab"), || find(&root, &id).is_some()).await;
            }
        }
    }
    let notes = texts(&root, "#import-notes > li");
    assert_eq!(notes.len(), shape.notes.len(), "{at}: {notes:?}");
    for (note, (en, zh_text)) in notes.iter().zip(shape.notes) {
        assert!(note.contains(if zh { zh_text } else { en }), "{at}: {note:?}");
    }
    if zh {
        // The lab's own words are Chinese; English is left only in what they quote verbatim.
        for words in texts(&root, "#import-notes .lab-words") {
            let english = words.replace("ClusterIP", "").replace("kubectl", "");
            assert!(
                !english.chars().any(|c| c.is_ascii_alphabetic()),
                "{at}: English in {words:?}"
            );
        }
        let quoted =
            root.query_selector_all("#import-notes li > :not(code):not(.lab-words)").unwrap();
        assert_eq!(quoted.length(), 0, "{at}: every part of a note is the lab's words or code");
    }
    let verbatim = texts(&root, "#import-notes code");
    lab.unmount();
    host.remove();
    verbatim
}

/// Issue 25: each fixture pasted into the page imports as the core reads it, and its notes are
/// told in the page's language with what they quote the same in both.
#[wasm_bindgen_test]
async fn every_kubectl_shape_pasted_in_imports_with_its_notes_in_each_language() {
    for shape in SHAPES {
        let en = import_shape(shape, "en").await;
        let zh = import_shape(shape, "zh").await;
        assert_eq!(en, zh, "{}: the verbatim parts of the notes", shape.name);
    }
}
