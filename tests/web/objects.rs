//! Component tests of what behaviours 1.33 and 1.35 add to the page: the four behaviours in the
//! configuration form, the ServiceCIDRs panel, the EndpointSlice beside the Endpoints and the
//! IPAddress objects on the ClusterIP canvas.

use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::HtmlSelectElement;

use kube_bootstrap_lab::contract::api::Behavior;
use kube_bootstrap_lab::ui::{App, AppProps};

use crate::dom::{self, by_id, click, exists, seek, set_input, settle, text, until, Mounted};

async fn mount() -> Mounted<App> {
    let root = Mounted::new(yew::props!(AppProps {}));
    settle().await;
    until("the app is mounted", || exists("kubernetes-ip")).await;
    root
}

/// Starts a sandbox cluster of `behavior` on `cidr` through the configuration form.
async fn configure(behavior: &str, cidr: &str) {
    if !exists("config-form") {
        click(by_id("configure")).await;
    }
    set_input("cfg-behavior", behavior, "change").await;
    set_input("cfg-cidr", cidr, "change").await;
    click(by_id("cfg-apply")).await;
    until("the sandbox runs", || text("h-apiservers").contains(&format!("behaviour {behavior} ")))
        .await;
}

/// The etcd revision the etcd panel shows.
fn revision() -> String {
    text("h-etcd")
}

/// How many ServiceCIDRs the panel lists.
fn cidrs_listed() -> u32 {
    by_id("service-cidrs").query_selector_all("li.cidr").unwrap().length()
}

#[wasm_bindgen_test]
async fn the_configuration_form_offers_the_four_behaviours_by_their_labels() {
    let root = mount().await;
    click(by_id("configure")).await;
    let select: HtmlSelectElement = by_id("cfg-behavior").dyn_into().unwrap();
    let options = select.query_selector_all("option").unwrap();
    let listed: Vec<(String, String)> = (0..options.length())
        .filter_map(|i| options.item(i))
        .filter_map(|n| n.dyn_into::<web_sys::Element>().ok())
        .map(|o| (o.get_attribute("value").unwrap(), o.text_content().unwrap()))
        .collect();
    let expected: Vec<(String, String)> =
        Behavior::ALL.iter().map(|b| (b.as_str().to_string(), b.label().to_string())).collect();
    assert_eq!(listed, expected);
    assert_eq!(select.value(), "1.29", "the default");
    assert!(text("cfg-behavior-help").starts_with("Static bands, one repair run at start"));
    set_input("cfg-behavior", "1.33", "change").await;
    assert!(text("cfg-behavior-help").contains("dual-write"));
    // A cluster of each behaviour shows its label; the ServiceCIDRs only from 1.33.
    for b in Behavior::ALL {
        configure(b.as_str(), "10.96.0.0/24").await;
        assert!(
            text("h-apiservers").ends_with(&format!("behaviour {}", b.label())),
            "{}",
            text("h-apiservers")
        );
        assert_eq!(exists("h-service-cidrs"), b.ip_addresses(), "{b}");
        assert_eq!(exists("cluster-ip-title"), b.cluster_ip_bitmap(), "{b}");
    }
    root.remove();
}

#[wasm_bindgen_test]
async fn a_bad_cidr_names_its_field_and_changes_nothing() {
    let root = mount().await;
    configure("1.35", "10.96.0.0/24").await;
    until("the apiservers made the ServiceCIDR kubernetes", || exists("scidr-kubernetes")).await;
    let (before, listed) = (revision(), cidrs_listed());
    set_input("scidr-name", "extra", "input").await;
    set_input("scidr-cidr-0", "10.0.0.0/33", "input").await;
    click(by_id("scidr-create")).await;
    until("the field error shows", || exists("scidr-error")).await;
    assert_eq!(
        text("scidr-error"),
        "First CIDR: \"10.0.0.0/33\" is not a CIDR (e.g. 10.100.0.0/16 or 2001:db8::/64)."
    );
    assert_eq!(by_id("scidr-error").get_attribute("data-field").as_deref(), Some("scidr-cidr-0"));
    assert_eq!(by_id("scidr-cidr-0").get_attribute("aria-invalid").as_deref(), Some("true"));
    assert_eq!(by_id("scidr-name").get_attribute("aria-invalid"), None);
    // Nothing was sent: etcd, the list and the notice are as they were.
    assert_eq!((revision(), cidrs_listed()), (before.clone(), listed));
    assert!(!exists("action-error"));
    // An empty name is named too.
    set_input("scidr-name", "", "input").await;
    set_input("scidr-cidr-0", "10.100.0.0/24", "input").await;
    click(by_id("scidr-create")).await;
    until("the name is named", || text("scidr-error") == "Name: required.").await;
    assert_eq!(revision(), before);
    root.remove();
}

#[wasm_bindgen_test]
async fn creating_and_deleting_service_cidrs_go_through_the_core() {
    let root = mount().await;
    configure("1.35", "10.96.0.0/24").await;
    until("the ServiceCIDR kubernetes", || exists("scidr-kubernetes")).await;
    set_input("scidr-name", "extra", "input").await;
    set_input("scidr-cidr-0", "10.100.0.0/24", "input").await;
    click(by_id("scidr-create")).await;
    until("extra is listed", || exists("scidr-extra")).await;
    assert!(!exists("scidr-error") && !exists("action-error"));
    // kube-controller-manager's service-cidr-controller gives it its finalizer and Ready.
    click(by_id("step")).await;
    until("extra is ready", || text("scidr-extra").contains("True")).await;
    assert!(text("scidr-extra").contains("networking.k8s.io/service-cidr-finalizer"));
    // What Kubernetes refuses, the core refuses: the form passes it on.
    set_input("scidr-name", "Bad_Name", "input").await;
    click(by_id("scidr-create")).await;
    until("the refusal shows", || exists("action-error")).await;
    assert!(
        text("action-error").contains("metadata.name: Invalid value: \"Bad_Name\""),
        "{}",
        text("action-error")
    );
    set_input("scidr-name", "two", "input").await;
    set_input("scidr-cidr-1", "10.101.0.0/24", "input").await;
    click(by_id("scidr-create")).await;
    until("two of one family are refused", || {
        text("action-error").contains("may specify no more than one IP for each IP family")
    })
    .await;
    assert!(!exists("scidr-two"));
    // Deleting: the finalizer keeps it, marked, until the controller lets it go.
    click(dom::button_in("scidr-extra", "delete")).await;
    until("extra is being deleted", || by_id("scidr-extra").class_list().contains("deleting"))
        .await;
    assert!(text("scidr-extra").contains("deleting"));
    // Removed 10 s after the deletion.
    seek(30_000).await;
    until("extra is gone", || !exists("scidr-extra")).await;
    assert!(exists("scidr-kubernetes"));
    root.remove();
}

#[wasm_bindgen_test]
async fn the_endpoint_slice_is_rewritten_with_the_endpoints() {
    let root = mount().await;
    let slice = || text("kubernetes-slice-endpoints");
    until("the slice lists a and b", || {
        slice().contains("192.168.10.11") && slice().contains("192.168.10.12")
    })
    .await;
    assert_eq!(text("kubernetes-slice-type"), "addressType IPv4 · https 6443/TCP");
    let ready = by_id("kubernetes-slice-endpoints").query_selector_all(".slice-ready").unwrap();
    assert!(ready.length() >= 2);
    for i in 0..ready.length() {
        assert_eq!(ready.item(i).unwrap().text_content().unwrap(), " · ready");
    }
    // A crashed apiserver leaves both at the same rewrite, once its lease is gone.
    seek(20_000).await;
    click(dom::button_in("apiserver-apiserver-b", "Crash")).await;
    seek(36_000).await;
    until("t = 36 s", || text("clock") == "t = 36s").await;
    // (The Endpoints' departing address fades out; the slice's goes at once.)
    let staying =
        by_id("kubernetes-endpoints").query_selector_all(".address:not(.leaving)").unwrap();
    let endpoints: Vec<String> =
        (0..staying.length()).filter_map(|i| staying.item(i)?.text_content()).collect();
    assert_eq!(endpoints, ["192.168.10.11", "192.168.10.13"]);
    assert!(!slice().contains("192.168.10.12"), "{}", slice());
    assert!(slice().contains("192.168.10.11"));
    root.remove();
}

#[wasm_bindgen_test]
async fn under_1_35_the_canvas_draws_ip_addresses_with_their_legend() {
    let root = mount().await;
    configure("1.35", "10.96.0.0/24").await;
    until("the IPAddress canvas", || exists("ip-addresses-0-title")).await;
    assert_eq!(text("ip-addresses-0-title"), "IPAddress objects in ServiceCIDR kubernetes");
    assert!(!exists("cluster-ip-title"), "no ClusterIP bitmap under 1.35");
    until("the kubernetes Service's IPAddress", || text("ip-addresses-0-count-kubernetes") == "1")
        .await;
    let legend = by_id("ip-addresses-0-bitmap")
        .query_selector(".bitmap-legend")
        .unwrap()
        .unwrap()
        .text_content()
        .unwrap();
    for name in [
        "IPAddress of its Service",
        "ClusterIP, no IPAddress",
        "orphan: its Service is gone",
        "wrong reference",
        "duplicate ClusterIP",
        "static band16",
    ] {
        assert!(legend.contains(name), "{name} in {legend}");
    }
    // An IPAddress written for a Service that does not exist: an orphan, with its countdown.
    set_input("corrupt-what", "put_ip_address", "change").await;
    set_input("corrupt-value", "10.96.0.50", "input").await;
    set_input("corrupt-service", "default/gone", "input").await;
    click(by_id("corrupt").query_selector("button[type=submit]").unwrap().unwrap()).await;
    until("the orphan is counted", || text("ip-addresses-0-count-leaked") == "1").await;
    assert!(text("ip-orphans").contains("10.96.0.50"));
    assert!(text("ip-orphans").contains("deletable in 1m0s"), "{}", text("ip-orphans"));
    seek(30_000).await;
    until("half the grace is left", || text("ip-orphans").contains("deletable in 30s")).await;
    seek(61_000).await;
    until("RepairIPAddress deleted it", || text("ip-addresses-0-count-leaked") == "0").await;
    assert!(!exists("ip-orphans"));
    root.remove();
}

#[wasm_bindgen_test]
async fn under_1_33_the_bitmap_is_shown_as_no_longer_repaired() {
    let root = mount().await;
    configure("1.33", "10.96.0.0/24").await;
    until("both are drawn", || exists("ip-addresses-0-title") && exists("cluster-ip-title")).await;
    assert_eq!(
        text("cluster-ip-title"),
        "ClusterIP bitmap 10.96.0.0/24 · written, no longer repaired"
    );
    root.remove();
}
