//! The timeline's states share their Services (`State::services`) while none changed: a seek
//! copies none of a thousand Services, and a state read that way equals the world's own.

use std::rc::Rc;

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use serde_json::json;

use engine::contract::api::Service;
use engine::contract::scenario::{self, Action, CreateService};
use engine::sim::timeline::Timeline;

fn service(name: &str) -> Service {
    serde_json::from_value(json!({"name": name, "ports": [{"port": 80}]})).unwrap()
}

#[test]
fn the_states_of_a_timeline_share_their_services_until_one_changes() {
    let s = scenario::parse(&json!({"name": "share", "seed": 1,
        "cluster": {"service_cluster_ip_range": "10.96.0.0/16",
            "apiservers": [{"name": "apiserver-a", "advertise_address": "192.168.10.11"}]},
        "steps": [{"at": "30s", "do": "create_service", "service": {"name": "web", "ports": [{"port": 80}]}}]})
    .to_string())
    .unwrap();
    let mut tl = Timeline::new(&s);
    tl.run_until(120_000);
    let at = |tl: &mut Timeline, t: u64| {
        tl.seek(t);
        let state = tl.state();
        assert_eq!(state, tl.world().state(), "at {t}: the world's own state");
        state
    };
    let (a, b) = (at(&mut tl, 10_000), at(&mut tl, 20_000));
    assert!(Rc::ptr_eq(&a.services, &b.services), "no Service changed from 10s to 20s: one list");
    let c = at(&mut tl, 90_000);
    assert!(
        !Rc::ptr_eq(&a.services, &c.services) && c.services.len() == a.services.len() + 1,
        "web was created at 30s"
    );
    assert_eq!(at(&mut tl, 15_000).services, a.services, "back before it: the same Services");
    // Another line of history from 20s: its revisions name other Services.
    tl.seek(20_000);
    let other = CreateService { service: service("other"), via: None };
    tl.act(Action::CreateService(other)).expect("a free name and range");
    tl.run_until(90_000);
    let names: Vec<String> = tl.state().services.iter().map(|s| s.name.clone()).collect();
    assert!(
        names.contains(&"other".to_string()) && names.contains(&"web".to_string()),
        "{names:?}"
    );
    assert_eq!(tl.state(), tl.world().state());
}
