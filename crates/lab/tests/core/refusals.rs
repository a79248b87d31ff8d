//! What the cluster refuses before trying (`World::refusal`): the one rule `act`, a file's
//! steps and the apiserver buttons (`Lab::allowed`) follow. (Native property tests of the same
//! rule are in `props.rs`.)

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use serde_json::json;

use engine::contract::scenario::{self, Action, Millis};
use engine::contract::state::ApiserverStatus;
use engine::sim::world::{ApiserverActions, World};
use lab::{Lab, Msg, Opening};

#[test]
fn an_apiserver_isolated_while_starting_can_be_crashed_but_not_stopped() {
    let servers = json!([
        {"name": "apiserver-a", "advertise_address": "192.168.10.11"},
        {"name": "apiserver-b", "advertise_address": "192.168.10.12", "startup_delay": "10s"}]);
    let file = json!({"name": "slow", "cluster": {"apiservers": servers}}).to_string();
    let link = format!("#file={}", lab::share::percent_encode(&file));
    let (mut lab, notes) = Lab::open(Opening { link: Some(&link), ..Opening::default() });
    assert!(notes.is_empty(), "{notes:?}");
    lab.update(Msg::Seek(1_000));
    lab.update(Msg::Act(Action::isolate("apiserver-b", Millis::parse("30s").unwrap())));
    assert_eq!(lab.view().state.apiservers[1].status, ApiserverStatus::Isolated);
    let allowed = lab.view().allowed["apiserver-b"];
    let expected = ApiserverActions { crash: true, stop: false, start: false, isolate: true };
    assert_eq!(allowed, expected);
    // The core refuses what is not offered, in its own words.
    lab.update(Msg::Act(Action::stop("apiserver-b")));
    assert_eq!(lab.view().notice.as_deref(), Some("apiserver apiserver-b is not running"));
}

/// A UI or a link adds an apiserver by the rule a file's `add_apiserver` step follows, in its
/// words: a name and an address of its own, of the service range's family.
#[test]
fn an_added_apiserver_is_refused_as_a_files_step_is() {
    let servers = json!([{"name": "apiserver-a", "advertise_address": "192.168.10.11"},
                         {"name": "apiserver-b", "advertise_address": "192.168.10.12"}]);
    let file =
        json!({"cluster": {"service_cluster_ip_range": "10.96.0.0/16", "apiservers": servers}});
    let s = scenario::parse(&file.to_string()).unwrap();
    let mut w = World::new(&s);
    let add = |name: &str, ip: &str| -> Action {
        Action::from_json("", json!({"do": "add_apiserver", "name": name, "advertise_address": ip}))
            .unwrap()
    };
    for (action, why) in [
        (add("apiserver-a", "192.168.10.20"), "duplicate apiserver name \"apiserver-a\""),
        (add("x", "192.168.10.12"), "192.168.10.12 is already the address of another apiserver"),
        (
            add("x", "fd00::1"),
            "service IP family \"10.96.0.0/16\" must match public address family \"fd00::1\"",
        ),
        (add(" ", "192.168.10.20"), "must not be empty"),
    ] {
        assert_eq!(w.refusal(&action).map(|f| f.message).as_deref(), Some(why));
        assert_eq!(w.act(&action).unwrap_err().message, why);
    }
    assert_eq!(w.apiservers().count(), 2);
    w.act(&add("x", "192.168.10.20")).expect("a new name and address");
}
