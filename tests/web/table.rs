//! Component tests of the "view as table" alternative to the stage: the apiservers, the etcd
//! keys with their TTL left, and the allocations, read at known instants of shipped scenarios.

use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::Element;

use kube_bootstrap_lab::lab::Lang;
use kube_bootstrap_lab::ui::table::LabTables;
use kube_bootstrap_lab::ui::AppProps;

use crate::dom::{self, exists, settle, text, until, Mounted};

async fn mount(link: &str, lang: Lang) -> Mounted<LabTables> {
    let root = Mounted::new(yew::props!(AppProps {
        link: Some(yew::AttrValue::from(link.to_string())),
        lang,
    }));
    settle().await;
    until("the tables are mounted", || exists("table-keys")).await;
    root
}

/// The cells of each body row of table `id`, as text.
fn rows(id: &str) -> Vec<Vec<String>> {
    let trs = dom::by_id(id).query_selector_all("tbody tr").unwrap();
    (0..trs.length())
        .filter_map(|i| trs.item(i))
        .filter_map(|n| n.dyn_into::<Element>().ok())
        .map(|tr| {
            let cells = tr.query_selector_all("th, td").unwrap();
            (0..cells.length())
                .filter_map(|i| cells.item(i))
                .map(|c| c.text_content().unwrap_or_default())
                .collect()
        })
        .collect()
}

fn row<'a>(rows: &'a [Vec<String>], first: &str) -> &'a [String] {
    rows.iter().find(|r| r[0] == first).unwrap_or_else(|| panic!("no row {first:?} in {rows:?}"))
}

/// Each table has a caption and column headers, and each row a header cell: a screen reader
/// names every cell by its row and column.
fn assert_accessible(id: &str) {
    let table = dom::by_id(id);
    assert!(table.query_selector("caption").unwrap().is_some(), "#{id} has a caption");
    let cols = table.query_selector_all("thead th[scope=col]").unwrap().length();
    let body = table.query_selector_all("tbody tr").unwrap().length();
    let headed = table.query_selector_all("tbody tr > th[scope=row]:first-child").unwrap().length();
    assert!(cols >= 3, "#{id} names its columns");
    assert_eq!(headed, body, "#{id}: every row has a header cell");
}

#[wasm_bindgen_test]
async fn a_crashed_apiserver_and_its_lease_running_out_at_44s() {
    // crash-vs-graceful-stop: apiserver-b crashes at 32 s; its lease, last renewed at 30 s,
    // has 1 s left at 44 s while the others (renewed at 40 s) have 11 s.
    let root = mount("#scenario=crash-vs-graceful-stop&t=44s", Lang::En).await;
    let apiservers = rows("table-apiservers");
    let keys = rows("table-keys");
    let allocations = rows("table-allocations");
    let caption = text("table-keys");
    root.remove();
    assert_eq!(
        apiservers,
        [
            ["apiserver-a", "192.168.10.11", "running", "yes", "11s"],
            ["apiserver-b", "192.168.10.12", "crashed", "no", "1s"],
            ["apiserver-c", "192.168.10.13", "running", "yes", "11s"],
        ]
    );
    assert_eq!(
        row(&keys, "/masterleases/192.168.10.11"),
        ["/masterleases/192.168.10.11", "192.168.10.11", "11s"]
    );
    assert_eq!(row(&keys, "/masterleases/192.168.10.12")[2], "1s");
    assert_eq!(
        row(&keys, "/ranges/serviceips")[1..],
        ["10.96.0.0/12: 1 of 1048574 used", "no TTL"]
    );
    assert_eq!(row(&keys, "/services/specs/default/kubernetes")[1], "ClusterIP 10.96.0.1");
    // The crashed apiserver is still listed: its lease has not expired.
    let listed = "192.168.10.11, 192.168.10.12, 192.168.10.13";
    assert_eq!(row(&keys, "/services/endpoints/default/kubernetes")[1], listed);
    assert_eq!(row(&keys, "/endpointslices/default/kubernetes")[1], listed);
    assert!(
        !keys.iter().any(|r| r[0].starts_with("/ipaddresses/")),
        "no IPAddress objects under 1.29"
    );
    assert!(caption.contains("etcd keys at t = 44s (revision "), "{caption}");
    assert_eq!(allocations, [["default/kubernetes", "ClusterIP", "10.96.0.1", "none"]]);
}

#[wasm_bindgen_test]
async fn the_lease_is_gone_from_the_table_once_expired() {
    let root = mount("#scenario=crash-vs-graceful-stop&t=46s", Lang::En).await;
    let keys = rows("table-keys");
    let apiservers = rows("table-apiservers");
    root.remove();
    assert!(!keys.iter().any(|r| r[0] == "/masterleases/192.168.10.12"), "{keys:?}");
    assert_eq!(row(&apiservers, "apiserver-b")[4], "no lease");
}

#[wasm_bindgen_test]
async fn behaviour_1_35_lists_service_cidrs_and_ip_addresses_and_no_bitmap() {
    let root = mount("#scenario=ipaddress-fresh-cluster-1-35&t=6s", Lang::En).await;
    let keys = rows("table-keys");
    for id in ["table-apiservers", "table-keys", "table-allocations"] {
        assert_accessible(id);
    }
    root.remove();
    assert_eq!(row(&keys, "/servicecidrs/kubernetes")[1..], ["10.96.0.0/12", "no TTL"]);
    assert_eq!(row(&keys, "/ipaddresses/10.96.0.1")[1], "services default/kubernetes");
    assert!(!keys.iter().any(|r| r[0] == "/ranges/serviceips"), "no ClusterIP bitmap under 1.35");
    assert!(keys.iter().any(|r| r[0] == "/ranges/servicenodeports"));
}

#[wasm_bindgen_test]
async fn in_chinese() {
    let root = mount("#scenario=crash-vs-graceful-stop&t=44s", Lang::Zh).await;
    let apiservers = rows("table-apiservers");
    let caption = text("table-apiservers");
    let keys = rows("table-keys");
    root.remove();
    assert_eq!(row(&apiservers, "apiserver-b")[2..], ["已崩溃", "否", "1s"]);
    assert!(caption.starts_with("t = 44s 时的 kube-apiserver"), "{caption}");
    assert_eq!(row(&keys, "/ranges/servicenodeports")[2], "无 TTL");
}
