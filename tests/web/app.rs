//! The app as a whole: mounting, the stage, the clock, links, the import, the story's end.

use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{Element, HtmlInputElement};

use kube_bootstrap_lab::ui::{cluster_scenario, App, AppProps, Settings};

use crate::dom::{
    button_in, by_id, click, document, exists, seek, set_input, settle, text, until, Mounted,
};

pub(crate) async fn click_id(id: &str) {
    click(by_id(id)).await;
}

pub(crate) async fn mount(scenario: Option<&str>) -> Mounted<App> {
    mount_with(scenario, None).await
}

async fn mount_with(scenario: Option<&str>, link: Option<&str>) -> Mounted<App> {
    let props = yew::props!(AppProps {
        scenario: scenario.map(|s| yew::AttrValue::from(s.to_string())),
        link: link.map(|s| yew::AttrValue::from(s.to_string())),
    });
    let root = Mounted::new(props);
    settle().await;
    root
}

/// Adds the lab's stylesheet to the page, for what depends on layout and animation.
fn add_styles() -> Element {
    let style = document().create_element("style").unwrap();
    style.set_text_content(Some(include_str!("../../static/style.css")));
    document().head().unwrap().append_child(&style).unwrap();
    style
}

/// How many addresses of the kubernetes Endpoints are fading out.
fn leaving() -> u32 {
    by_id("kubernetes-endpoints").query_selector_all(".address.leaving").unwrap().length()
}

/// The addresses listed in the kubernetes Endpoints (not those fading out).
fn endpoints() -> String {
    let list = by_id("kubernetes-endpoints").query_selector_all(".address:not(.leaving)").unwrap();
    (0..list.length())
        .filter_map(|i| list.item(i))
        .map(|n| n.text_content().unwrap_or_default())
        .collect::<Vec<_>>()
        .join(" ")
}

#[wasm_bindgen_test]
async fn opens_the_default_scenario_and_shows_the_kubernetes_service() {
    let root = mount(None).await;
    until("the app is mounted", || exists("kubernetes-ip")).await;
    assert_eq!(text("kubernetes-ip"), "10.96.0.1");
    assert_eq!(text("clock"), "t = 0s");
    assert!(endpoints().contains("192.168.10.11") && endpoints().contains("192.168.10.12"));
    assert!(!endpoints().contains("192.168.10.13"), "apiserver-c starts at 5 s");
    // Step to the next events until c has started.
    // Each click is waited for: a loaded machine can delay a render past a fixed pause.
    for _ in 0..20 {
        let before = text("clock");
        click_id("step").await;
        until("the step is shown", || text("clock") != before).await;
        if endpoints().contains("192.168.10.13") {
            break;
        }
    }
    until("c is listed", || endpoints().contains("192.168.10.13")).await;
    until("t = 5 s", || text("clock") == "t = 5s").await;
    root.remove();
}

#[wasm_bindgen_test]
async fn a_crashed_apiserver_leaves_the_endpoints_after_its_ttl() {
    let root = mount(None).await;
    seek(20_000).await;
    click(button_in("apiserver-apiserver-b", "Crash")).await;
    until("b shows crashed", || {
        by_id("apiserver-apiserver-b").text_content().unwrap().contains("crashed")
    })
    .await;
    assert!(endpoints().contains("192.168.10.12"), "still listed: its lease is alive");
    seek(34_000).await;
    until("t = 34 s", || text("clock") == "t = 34s").await;
    assert!(endpoints().contains("192.168.10.12"), "lease written at 20 s lives until 35 s");
    seek(36_000).await;
    until("t = 36 s", || text("clock") == "t = 36s").await;
    assert!(
        !endpoints().contains("192.168.10.12"),
        "gone at the first sync after the expiry: {}",
        endpoints()
    );
    assert!(text("h-etcd").contains("revision"));
    root.remove();
}

#[wasm_bindgen_test]
async fn deleting_the_kubernetes_service_brings_it_back_with_the_first_ip() {
    let root = mount(None).await;
    seek(12_000).await;
    click_id("delete-kubernetes").await;
    until("the Service is gone", || exists("kubernetes-missing")).await;
    assert!(!exists("kubernetes-ip"));
    seek(21_000).await;
    until("the Service is back", || exists("kubernetes-ip")).await;
    assert_eq!(text("kubernetes-ip"), "10.96.0.1");
    assert!(text("events").contains("Resetting endpoints"));
    root.remove();
}

#[wasm_bindgen_test]
async fn an_invalid_cidr_is_refused_and_nothing_changes() {
    let root = mount(None).await;
    click_id("configure").await;
    set_input("cfg-cidr", "10.96.0.0/33", "change").await;
    click_id("cfg-apply").await;
    until("the error shows", || exists("config-error")).await;
    assert_eq!(
        text("config-error"),
        "cluster.service_cluster_ip_range: invalid CIDR \"10.96.0.0/33\""
    );
    assert_eq!(text("kubernetes-ip"), "10.96.0.1", "the running cluster is unchanged");
    set_input("cfg-cidr", "172.20.0.0/20", "change").await;
    set_input("cfg-count", "2", "change").await;
    click_id("cfg-apply").await;
    until("the new cluster runs", || {
        exists("kubernetes-ip") && text("kubernetes-ip") == "172.20.0.1"
    })
    .await;
    assert!(!exists("config-error"));
    assert!(document().get_element_by_id("apiserver-apiserver-c").is_none(), "two apiservers");
    // The bitmap shows the new cluster's range at once, though time has not moved.
    assert_eq!(text("clock"), "t = 0s");
    assert_eq!(text("cluster-ip-title"), "ClusterIP 172.20.0.0/20");
    root.remove();
}

#[wasm_bindgen_test]
async fn creating_services_shows_kubernetes_errors() {
    let root = mount(None).await;
    set_input("svc-name", "web", "input").await;
    set_input("svc-ip", "10.200.0.5", "input").await;
    click_id("svc-create").await;
    until("the refusal shows", || exists("action-error")).await;
    assert!(text("action-error").contains("the provided IP (10.200.0.5) is not in the valid range. The range of valid IPs is 10.96.0.0/12"));
    set_input("svc-ip", "", "input").await;
    set_input("svc-type", "NodePort", "change").await;
    set_input("svc-node-port", "30080", "input").await;
    click_id("svc-create").await;
    until("the Service is listed", || exists("svc-default-web")).await;
    assert!(!exists("action-error"), "{}", text("action-error"));
    assert!(by_id("svc-default-web").text_content().unwrap().contains("30080"));
    root.remove();
}

#[wasm_bindgen_test]
fn settings_are_validated_by_the_core() {
    let ok = cluster_scenario(&Settings::default()).unwrap();
    assert_eq!(ok.cluster.apiservers.len(), 3);
    let bad = Settings { node_ports: "30000-70000".into(), ..Settings::default() };
    assert_eq!(
        cluster_scenario(&bad).unwrap_err(),
        "cluster.service_node_port_range: the port range cannot be greater than 65535: 30000-70000"
    );
    let bad = Settings { apiservers: "0".into(), ..Settings::default() };
    assert!(cluster_scenario(&bad).unwrap_err().starts_with("apiservers:"));
}

#[wasm_bindgen_test]
async fn a_link_reopens_the_same_moment() {
    let root = mount(None).await;
    seek(20_000).await;
    click(button_in("apiserver-apiserver-b", "Crash")).await;
    seek(40_000).await;
    until("t = 40 s", || text("clock") == "t = 40s").await;
    click_id("share").await;
    until("the link shows", || exists("share-link")).await;
    let url = by_id("share-link").dyn_into::<HtmlInputElement>().unwrap().value();
    let fragment = url.split_once('#').map(|(_, f)| f.to_string()).expect("a fragment");
    assert!(
        fragment.starts_with("scenario=crash-one-of-three&t=40s&actions=%5B%5B20000%2C"),
        "{fragment}"
    );
    let before = endpoints();
    root.remove();

    let root = mount_with(None, Some(&format!("#{fragment}"))).await;
    until("the moment is restored", || exists("clock") && text("clock") == "t = 40s").await;
    assert!(by_id("apiserver-apiserver-b").text_content().unwrap().contains("crashed"));
    assert_eq!(endpoints(), before);
    root.remove();
}

#[wasm_bindgen_test]
async fn a_bad_link_or_scenario_name_says_so_and_opens_the_default() {
    let root = mount_with(None, Some("#scenario=nope&t=10s")).await;
    until("the notice shows", || exists("action-error")).await;
    assert_eq!(text("action-error"), "This link could not be opened (link: scenario: unknown scenario \"nope\"). Showing the default scenario.");
    assert_eq!(text("clock"), "t = 0s");
    assert_eq!(text("kubernetes-ip"), "10.96.0.1");
    root.remove();
    let root = mount_with(Some("<b>bold</b>"), None).await;
    until("the notice shows", || exists("action-error")).await;
    assert_eq!(
        text("action-error"),
        "There is no scenario \"<b>bold</b>\". Showing the default scenario.",
        "shown as text, never as HTML"
    );
    assert!(by_id("action-error").query_selector("b").unwrap().is_none());
    root.remove();
    // A time past the ceiling is refused at once with a message, never a hung or blank page.
    let root = mount_with(None, Some("#scenario=crash-one-of-three&t=1000000s")).await;
    until("the notice shows", || exists("action-error")).await;
    let notice = text("action-error");
    let clock = text("clock");
    root.remove();
    assert!(notice.starts_with("This link could not be opened (link: t: "), "{notice}");
    assert!(notice.ends_with("Showing the default scenario."), "{notice}");
    assert_eq!(clock, "t = 0s");
    // An ordinary anchor of the page is no link at all.
    let root = mount_with(None, Some("#install")).await;
    until("the app is mounted", || exists("clock")).await;
    let told = exists("action-error");
    root.remove();
    assert!(!told, "an anchor is not reported as a broken link");
}

#[wasm_bindgen_test]
async fn page_options_minimal_autoplay_and_reported_problems() {
    let props = yew::props!(AppProps {
        autoplay: true,
        minimal: true,
        problems: vec![yew::AttrValue::from("unknown URL parameter \"colour\"")],
    });
    let root = Mounted::<App>::new(props);
    until("the app is mounted", || exists("play")).await;
    until("time moves", || text("clock") != "t = 0s").await;
    let playing = by_id("play").get_attribute("aria-pressed");
    click_id("play").await;
    let minimal = root.query_selector(".lab.minimal").unwrap().is_some();
    let notice = text("action-error");
    root.remove();
    // Asserted after unmounting, so that a failure cannot leave a playing app behind.
    assert_eq!(playing.as_deref(), Some("true"), "autoplay");
    assert!(minimal, "controls=minimal marks the app; static/style.css hides the editing controls");
    assert_eq!(notice, "unknown URL parameter \"colour\"");
}

#[wasm_bindgen_test]
async fn an_address_that_left_fades_out_and_then_takes_no_room() {
    let style = add_styles();
    let root = mount(None).await;
    seek(20_000).await;
    click(button_in("apiserver-apiserver-b", "Crash")).await;
    let height = || by_id("kubernetes-endpoints").get_bounding_client_rect().height();
    let before = height();
    seek(36_000).await;
    until("t = 36 s", || text("clock") == "t = 36s").await;
    // 192.168.10.12 fades out (700 ms), then its element goes; waited for here without a
    // panic, so that a failure cannot leave the app behind for the other tests.
    for _ in 0..150 {
        if leaving() == 0 {
            break;
        }
        gloo_timers::future::TimeoutFuture::new(20).await;
    }
    let (fading, after) = (leaving(), height());
    let told = text("written-by");
    root.remove();
    style.remove();
    assert_eq!(fading, 0, "the faded address is still in the list");
    assert!(after <= before + 1.0, "the list is {after} px high, was {before} px");
    assert!(
        told.contains("− 192.168.10.12: crashed: its lease expired"),
        "the change is still told: {told}"
    );
}

#[wasm_bindgen_test]
async fn another_tour_or_scenario_starts_with_no_change_of_the_endpoints() {
    let root = mount(None).await;
    seek(20_000).await;
    click(button_in("apiserver-apiserver-b", "Crash")).await;
    seek(36_000).await;
    until("b has left", || !endpoints().contains("192.168.10.12")).await;
    assert!(text("written-by").contains("− 192.168.10.12"));
    // A scenario picked starts afresh: what changed in the old one is not its change.
    set_input("scenario-pick", "crash-vs-graceful-stop", "change").await;
    until("the scenario opens", || text("clock") == "t = 0s").await;
    let written = if exists("written-by") { text("written-by") } else { String::new() };
    assert!(!written.contains('−') && !written.contains('+'), "{written}");
    assert_eq!(leaving(), 0);
    // A tour opens at its first step; 192.168.10.12 is not there yet, and it did not leave.
    seek(10_000).await;
    set_input("tour-pick", "kubernetes-service", "change").await;
    until("the tour opens", || exists("tour-title")).await;
    assert!(!endpoints().contains("192.168.10.12"), "{}", endpoints());
    let written = if exists("written-by") { text("written-by") } else { String::new() };
    let fading = leaving();
    root.remove();
    assert!(!written.contains('−') && !written.contains('+'), "{written}");
    assert_eq!(fading, 0);
}

/// A cluster of 150 Services shows 100 rows and says how many there are; "Show all" shows them.
#[wasm_bindgen_test]
async fn a_long_services_table_shows_a_hundred_rows_then_all() {
    let services: Vec<serde_json::Value> = (0..150)
        .map(|i| serde_json::json!({"name": format!("svc-{i:03}"), "cluster_ip": format!("10.96.1.{i}"), "ports": [{"port": 80}]}))
        .collect();
    let file = serde_json::json!({"cluster": {"service_cluster_ip_range": "10.96.0.0/16",
        "apiservers": [{"name": "apiserver-a", "advertise_address": "192.168.10.11"}]},
        "initial": {"namespaces": ["default"], "services": services}});
    let link = format!("#file={}", js_sys::encode_uri_component(&file.to_string()));
    let root = mount_with(None, Some(&link)).await;
    let rows = || document().query_selector_all(".panel.services tbody tr").unwrap().length();
    until("the Services show", || exists("svc-default-svc-000")).await;
    assert_eq!(rows(), 100);
    assert!(!exists("svc-default-svc-149"));
    // The kubernetes Service makes 151.
    assert_eq!(text("services-all"), "Show all 151 Services");
    click_id("services-all").await;
    until("every row shows", || rows() == 151).await;
    assert!(exists("svc-default-svc-149"));
    assert!(!exists("services-all"));
    root.remove();
}

fn paste(text: &str) {
    by_id("import-text").dyn_into::<web_sys::HtmlTextAreaElement>().unwrap().set_value(text);
}

/// Issue 13: kubectl output pasted in is read in the page; what the repair loops report shows,
/// and the lab plays from that cluster. A paste that cannot be read says where, and the lab
/// keeps the cluster it had.
#[wasm_bindgen_test]
async fn a_pasted_cluster_shows_its_findings_and_plays_from_there() {
    let root = mount(None).await;
    until("the import form", || exists("import-text")).await;
    paste(
        r#"{"kind": "List", "items": [{"kind": "Service", "metadata": {"name": "web", "namespace": "shop"}, "spec": {"clusterIP": "10.1.2"}}]}"#,
    );
    click_id("import-run").await;
    until("the refusal", || exists("import-error")).await;
    assert_eq!(
        text("import-error"),
        "document 1: items[0] (Service shop/web): spec.clusterIP: invalid IP address \"10.1.2\""
    );
    assert!(!exists("svc-shop-web"), "nothing imported");

    paste(include_str!("../kubectl/cluster-1.29.json"));
    click_id("import-run").await;
    until("the findings", || exists("import-findings")).await;
    let findings = text("import-findings");
    assert!(findings.starts_with("8 Services, behaviour 1.29, range 10.96.0.0/12."), "{findings}");
    assert!(findings.contains("ClusterIPOutOfRange legacy/old"), "{findings}");
    assert!(findings.contains("Cluster IP [IPv4]:10.100.20.7 was assigned to multiple services; please recreate service"), "{findings}");
    assert!(!exists("import-error"));
    // The lab now runs that cluster.
    until("its Services", || exists("svc-shop-web")).await;
    assert!(exists("svc-legacy-old"));
    // What the other releases' repair loops would say on the same cluster.
    until("the other releases", || exists("import-compare")).await;
    let compared = text("import-compare");
    assert!(compared.starts_with("1.20: 2 findings"), "{compared}");
    assert!(compared.contains("1.35: 6 findings"), "{compared}");

    // The rules of another release, picked.
    set_input("import-behavior", "1.20", "change").await;
    click_id("import-run").await;
    // The findings go while the import runs (its code may come from a chunk, asynchronously).
    until("the 1.20 findings", || {
        exists("import-findings")
            && text("import-findings").starts_with("8 Services, behaviour 1.20,")
    })
    .await;
    root.remove();
}

/// Issue 13: a paste over a megabyte goes to the import's worker (`import-worker.js`). The test
/// runner does not serve it, as a page on another origin could not start it: the page reads the
/// paste itself, and the lab plays that cluster all the same.
#[wasm_bindgen_test]
async fn a_large_paste_is_imported_in_the_page_when_no_worker_starts() {
    let root = mount(None).await;
    until("the import form", || exists("import-text")).await;
    let text_ = crate::workloads::kubectl_services(2_500);
    assert!(text_.len() > 1 << 20, "over the size read in the page at once");
    paste(&text_);
    click_id("import-run").await;
    until("the findings", || exists("import-findings")).await;
    let findings = text("import-findings");
    assert!(
        findings.starts_with("2501 Services, behaviour 1.29, range 10.96.0.0/16."),
        "{findings}"
    );
    assert!(findings.contains("Not run: the input is large"), "{findings}");
    assert!(!exists("import-error"));
    until("its Services", || exists("svc-ns-0-svc-000000")).await;
    root.remove();
}

#[wasm_bindgen_test]
async fn the_story_ends_by_offering_the_guided_tour_and_the_sandbox() {
    let props = yew::props!(AppProps { tour: Some(yew::AttrValue::from("story")), step: Some(5) });
    let root = Mounted::<App>::new(props);
    until("the story's last step", || {
        exists("tour-progress") && text("tour-progress") == "Step 5 of 5"
    })
    .await;
    until("the guided tour is offered", || exists("tour-then")).await;
    assert!(exists("tour-leave"), "and so is the sandbox");
    assert!(!exists("tour-next"));
    by_id("tour-then").dyn_into::<web_sys::HtmlElement>().unwrap().click();
    until("tour 1 starts", || {
        text("tour-title").starts_with("1. ") && text("tour-progress").starts_with("Step 1 of ")
    })
    .await;
    assert!(!exists("tour-then"), "only the story offers it");
    root.remove();
}
