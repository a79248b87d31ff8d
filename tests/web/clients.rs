//! Component tests of the client pods on the stage and in the table view (src/ui/stage/clients.rs):
//! drawn from the lab's view for a scenario with client pods, absent without them.

use wasm_bindgen_test::*;

use kube_bootstrap_lab::lab::Lang;
use kube_bootstrap_lab::ui::table::LabTables;
use kube_bootstrap_lab::ui::{App, AppProps};

use crate::dom::within::{all, find, get, text};
use crate::dom::{settle, until, Mounted};

fn app(link: &str, lang: Lang) -> Mounted<App> {
    Mounted::new(yew::props!(AppProps { link: Some(yew::AttrValue::from(link.to_string())), lang }))
}

/// At 70.3 s of clients-crash-one-of-three the EndpointSlice no longer lists apiserver-b, two
/// kube-proxies still do (marked as lagging, its address struck), cronjob-6's last attempt was
/// refused there, and the window is still open.
#[wasm_bindgen_test]
async fn the_stage_draws_lagging_kube_proxies_and_failures_where_they_happen() {
    let root = app("#scenario=clients-crash-one-of-three&t=70.3s", Lang::En);
    settle().await;
    until("the clients are drawn", || find(&root, ".clients-view").is_some()).await;
    assert_eq!(all(&root, ".client-node").len(), 3);
    let lagging = all(&root, ".client-node.lagging");
    assert!(!lagging.is_empty(), "a kube-proxy lags the EndpointSlice at 70.3 s");
    for n in &lagging {
        assert_eq!(text(n, ".lag-badge"), "lags the EndpointSlice");
        let stale = text(n, ".endpoint.stale");
        assert!(
            stale.contains("192.168.10.12 (apiserver-b)") && stale.contains("gone from the slice"),
            "{stale}"
        );
    }
    for n in all(&root, ".client-node:not(.lagging)") {
        assert!(find(&n, ".endpoint.stale").is_none(), "a kube-proxy in step strikes nothing");
    }
    let failed = get(&root, ".client-pod[data-pod=cronjob-6]");
    assert!(failed.class_list().contains("refused"));
    assert!(text(&failed, ".hop.fails-here").contains("192.168.10.12 (apiserver-b)"));
    assert!(text(&failed, ".hop.via").contains("10.96.0.1"));
    let figures = text(&root, ".client-figures");
    assert!(figures.contains("apiserver-b: 10.3s so far (from 1m0s), still open"), "{figures}");
    // The strip: each pod a track named by its failures; cronjob-6's names its refusal.
    let tracks = all(&root, ".strip-track[role=img]");
    assert_eq!(tracks.len(), 10);
    let label =
        get(&root, ".strip-row:nth-child(6) .strip-track").get_attribute("aria-label").unwrap();
    assert!(label.starts_with("cronjob-6: 1 failures: refused 1m"), "{label}");
    root.remove();
}

/// In Chinese the same parts speak Chinese.
#[wasm_bindgen_test]
async fn the_clients_speak_chinese() {
    let root = app("#scenario=clients-crash-one-of-three&t=70.3s", Lang::Zh);
    settle().await;
    until("the clients are drawn", || find(&root, ".clients-view").is_some()).await;
    assert_eq!(text(&root, ".client-node.lagging .lag-badge"), "落后于 EndpointSlice");
    assert!(text(&root, ".client-figures").contains("仍未结束"));
    assert!(text(&root, ".client-pod[data-pod=cronjob-6] .conn-state").contains("被拒绝"));
    root.remove();
}

/// A scenario without client pods draws none of it, on the stage or in the tables.
#[wasm_bindgen_test]
async fn nothing_is_drawn_without_clients() {
    let root = app("#scenario=crash-one-of-three&t=30s", Lang::En);
    settle().await;
    until("the stage is drawn", || find(&root, ".stage-svg").is_some()).await;
    assert!(find(&root, ".clients-view").is_none());
    root.remove();
    let tables = Mounted::<LabTables>::new(yew::props!(AppProps {
        link: Some(yew::AttrValue::from("#scenario=crash-one-of-three&t=30s")),
    }));
    settle().await;
    until("the tables are drawn", || find(&tables, "table").is_some()).await;
    assert!(find(&tables, "table[id$=table-clients]").is_none());
    tables.remove();
}

/// The table view lists each pod's connection and the outcome of each attempt, and each
/// kube-proxy's list with whether it lags.
#[wasm_bindgen_test]
async fn the_table_view_lists_connections_and_outcomes() {
    let tables = Mounted::<LabTables>::new(yew::props!(AppProps {
        link: Some(yew::AttrValue::from("#scenario=clients-crash-one-of-three&t=70.3s")),
    }));
    settle().await;
    until("the tables are drawn", || find(&tables, "table[id$=table-clients]").is_some()).await;
    let pods = all(&tables, "table[id$=table-clients] tbody tr");
    assert_eq!(pods.len(), 10);
    let cron6 = pods.iter().find(|r| text(r, "th") == "cronjob-6").expect("cronjob-6's row");
    assert!(text(cron6, "td:nth-of-type(3)").contains("refused → 192.168.10.12"));
    let op2 = pods.iter().find(|r| text(r, "th") == "operator-2").expect("operator-2's row");
    assert!(
        text(op2, "td:nth-of-type(2)").starts_with("to 192.168.10."),
        "{}",
        text(op2, "td:nth-of-type(2)")
    );
    let proxies = all(&tables, "table[id$=table-kube-proxies] tbody tr");
    assert_eq!(proxies.len(), 3);
    assert!(proxies.iter().any(|r| text(r, "td:nth-of-type(2)") == "yes"));
    assert!(proxies.iter().any(|r| text(r, "td:nth-of-type(2)") == "no"));
    tables.remove();
}

/// A trainer's step that highlights `clients` marks the client pods' figures (not the whole
/// region, taller than a phone's screen) and offers "Look at client pods".
#[wasm_bindgen_test]
async fn a_step_may_highlight_the_client_pods_figures() {
    let tour = r#"{"name": "ours", "title": "Ours", "scenario": "clients-crash-one-of-three",
        "steps": [{"at": "72s", "highlight": ["clients"], "say": "The figures below."}]}"#;
    let root =
        Mounted::<App>::new(yew::props!(AppProps { tour_file: Some(yew::AttrValue::from(tour)) }));
    settle().await;
    until("the clients are drawn", || find(&root, ".clients-view").is_some()).await;
    until("the step is marked", || find(&root, ".tour-spot").is_some()).await;
    let marked = all(&root, ".tour-spot");
    assert_eq!(marked.len(), 1);
    assert!(marked[0]
        .matches(".clients-view > dl.client-figures[data-tour-spot=clients]")
        .unwrap());
    let look = get(&root, ".tour-look button[data-spot=clients]");
    assert!(look.text_content().unwrap_or_default().contains("client pods"));
    root.remove();
}
