//! Component tests of issue 35's small things: Configure opens with the running cluster's
//! settings; the import's errors name the page's field, not the CLI's flag; one Service is "1
//! Service"; "Link to this moment" is announced in a polite live region. Each in both languages.
//! (The address bar and the import kept over a reload are the lab's own page's: `tests/e2e/small.mjs`.)

use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{Element, HtmlInputElement, HtmlSelectElement, HtmlTextAreaElement};

use kube_bootstrap_lab::ui::mount::{mount, Instance};

use crate::dom::within::{find, get, press, settle, text, value};
use crate::dom::{options, shadow_root, until_long as until};

fn open(root: &Element, scenario: &str, lang: &str) -> Instance {
    mount(root.clone(), options(&[("scenario", scenario), ("lang", lang)]), None)
}

/// The Configure form's fields, as shown: range, node ports, reconciler, apiservers, behaviour, seed.
fn form(root: &Element) -> [String; 6] {
    ["#cfg-cidr", "#cfg-ports", "#cfg-reconciler", "#cfg-count", "#cfg-behavior", "#cfg-seed"]
        .map(|s| value(root, s))
}

/// Issue 35 (N11): Configure opened with 10.96.0.0/16 against the running 10.96.0.0/12, and
/// "Start this cluster" changed the range in silence. It opens with every setting of the
/// cluster that runs, also after another scenario was picked.
#[wasm_bindgen_test]
async fn configure_opens_with_the_running_clusters_settings() {
    let (host, root) = shadow_root();
    let mut lab = open(&root, "crash-vs-graceful-stop", "en");
    until("the top bar", || find(&root, "#configure").is_some()).await;
    press(&root, "#configure").await;
    until("the form", || find(&root, "#cfg-cidr").is_some()).await;
    assert_eq!(
        form(&root),
        ["10.96.0.0/12", "30000-32767", "lease", "3", "1.29", "3"].map(String::from)
    );
    // Another scenario, picked with the form open and after closing it.
    let pick = get(&root, "#scenario-pick").dyn_into::<HtmlSelectElement>().unwrap();
    pick.set_value("ipaddress-orphan-grace-1-35");
    let init = web_sys::EventInit::new();
    init.set_bubbles(true);
    pick.dispatch_event(&web_sys::Event::new_with_event_init_dict("change", &init).unwrap())
        .unwrap();
    until("the form follows the picked scenario", || value(&root, "#cfg-cidr") == "10.96.0.0/16")
        .await;
    assert_eq!(
        form(&root),
        ["10.96.0.0/16", "30000-32767", "lease", "1", "1.35", "13"].map(String::from)
    );
    // A change typed, then the form closed and opened again: the running cluster's again.
    let cidr = get(&root, "#cfg-cidr").dyn_into::<HtmlInputElement>().unwrap();
    cidr.set_value("10.0.0.0/8");
    cidr.dispatch_event(&web_sys::Event::new_with_event_init_dict("change", &init).unwrap())
        .unwrap();
    settle().await;
    press(&root, "#configure").await;
    press(&root, "#configure").await;
    assert_eq!(value(&root, "#cfg-cidr"), "10.96.0.0/16");
    // Started as shown: the same range runs.
    press(&root, "#cfg-apply").await;
    press(&root, "#configure").await;
    press(&root, "#configure").await;
    assert_eq!(
        form(&root),
        ["10.96.0.0/16", "30000-32767", "lease", "1", "1.35", "13"].map(String::from)
    );
    lab.unmount();
    host.remove();
}

/// Pastes `paste` into the import of a lab in `lang` and waits for its end.
async fn import(paste: &str, lang: &str) -> (Element, Element, Instance) {
    let (host, root) = shadow_root();
    let lab = open(&root, "crash-one-of-three", lang);
    until("the import form", || find(&root, "#import-text").is_some()).await;
    get(&root, "#import-text").dyn_into::<HtmlTextAreaElement>().unwrap().set_value(paste);
    press(&root, "#import-run").await;
    until("the import's end", || find(&root, "#import-findings, #import-error").is_some()).await;
    (host, root, lab)
}

const NO_KUBERNETES: &str = r#"{"apiVersion":"v1","kind":"List","items":[{"apiVersion":"v1","kind":"Service",
    "metadata":{"name":"web","namespace":"default"},"spec":{"clusterIP":"10.96.5.5","ports":[{"port":80,"protocol":"TCP"}]}}]}"#;

const ONE_SERVICE: &str = r#"{"apiVersion":"v1","kind":"List","items":[{"apiVersion":"v1","kind":"Service",
    "metadata":{"name":"kubernetes","namespace":"default"},"spec":{"clusterIP":"10.96.0.1","type":"ClusterIP",
    "ports":[{"name":"https","port":443,"protocol":"TCP","targetPort":6443}]}}]}"#;

/// Issue 35 (N9): the refusal of a paste with no `kubernetes` Service to guess the range from
/// named the CLI's `--service-cluster-ip-range`; the page's field is the range field.
#[wasm_bindgen_test]
async fn the_imports_range_error_names_the_pages_field() {
    for (lang, field) in [("en", "the range field"), ("zh", "范围输入框")] {
        let (host, root, mut lab) = import(NO_KUBERNETES, lang).await;
        let error = text(&root, "#import-error");
        assert!(!error.contains("--service-cluster-ip-range"), "{lang}: {error}");
        assert!(error.contains(field), "{lang}: {error}");
        lab.unmount();
        host.remove();
    }
}

/// Issue 35 (N9): "1 Services".
#[wasm_bindgen_test]
async fn one_imported_service_is_one_service() {
    for (lang, want) in [("en", "1 Service, behaviour "), ("zh", "1 个 Service，行为 ")] {
        let (host, root, mut lab) = import(ONE_SERVICE, lang).await;
        let summary = text(&root, "#import-findings p");
        assert!(summary.starts_with(want), "{lang}: {summary}");
        lab.unmount();
        host.remove();
    }
}

/// Issue 35 (N12): "Link to this moment" said nothing. A polite live region, there before the
/// link is made, tells that it was made and where it is.
#[wasm_bindgen_test]
async fn the_link_to_this_moment_is_announced_politely() {
    for (lang, word) in [("en", "Link"), ("zh", "链接")] {
        let (host, root) = shadow_root();
        let mut lab = open(&root, "crash-one-of-three", lang);
        until("the link button", || find(&root, "#share").is_some()).await;
        let region = get(&root, "#share-status");
        assert_eq!(region.get_attribute("role").as_deref(), Some("status"), "{lang}");
        assert_eq!(region.text_content().unwrap_or_default(), "", "{lang}: silent before");
        press(&root, "#share").await;
        let said = text(&root, "#share-status");
        assert!(said.contains(word), "{lang}: {said:?}");
        assert!(find(&root, "#share-link").is_some(), "{lang}");
        lab.unmount();
        host.remove();
    }
}
