//! Typed etcd keys: every key the simulation writes reads as a `Key` and prints back as the
//! same text; what is no key of the lab's etcd is refused; grouped rows read as their kind.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use engine::sim::world::World;
use k8s::etcd::{Key, Keys, Kind, NsName, RangeName};
use lab::catalogue;

#[test]
fn every_key_the_shipped_scenarios_write_reads_back_as_itself() {
    let mut kinds = std::collections::BTreeSet::new();
    for name in catalogue::scenario_names() {
        let mut w = World::new(&catalogue::scenario(name).unwrap());
        w.record_wire();
        w.run_until(120_000);
        let written = w.take_wire().into_iter().map(|x| x.key);
        let held = w.etcd().list("/", w.now()).map(|(k, _)| k.clone()).collect::<Vec<_>>();
        for key in written.chain(held) {
            let k: Key = key.parse().unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(k.to_string(), key, "{name}");
            kinds.insert(k.kind());
        }
    }
    assert_eq!(kinds.len(), 9, "every kind of key is seen: {kinds:?}");
}

#[test]
fn keys_read_as_what_they_name() {
    let nn = |ns: &str, n: &str| NsName { namespace: ns.into(), name: n.into() };
    let cases = [
        ("/masterleases/192.168.10.11", Key::Lease("192.168.10.11".into())),
        ("/masterleases/fd00::1", Key::Lease("fd00::1".into())),
        ("/ranges/serviceips", Key::Range(RangeName::ServiceIps)),
        ("/ranges/secondaryserviceips", Key::Range(RangeName::SecondaryServiceIps)),
        ("/ranges/servicenodeports", Key::Range(RangeName::NodePorts)),
        ("/services/specs/default/kubernetes", Key::Service(nn("default", "kubernetes"))),
        ("/services/endpoints/kube-system/dns", Key::Endpoints(nn("kube-system", "dns"))),
        ("/endpointslices/default/kubernetes", Key::EndpointSlice(nn("default", "kubernetes"))),
        ("/pods/default/web-1", Key::Pod(nn("default", "web-1"))),
        ("/namespaces/kube-public", Key::Namespace("kube-public".into())),
        ("/servicecidrs/kubernetes", Key::ServiceCidr("kubernetes".into())),
        ("/ipaddresses/10.96.0.1", Key::IpAddress("10.96.0.1".into())),
    ];
    for (text, key) in cases {
        assert_eq!(text.parse::<Key>().as_ref(), Ok(&key), "{text}");
        assert_eq!(key.to_string(), text);
    }
    assert!(Key::Service(nn("default", "kubernetes")).ns_name().unwrap().is_kubernetes());
    assert!(!nn("kube-system", "kubernetes").is_kubernetes());
}

#[test]
fn what_is_no_key_is_refused() {
    for bad in [
        "",
        "/",
        "/registry/masterleases/1.2.3.4",
        "/masterleases/",
        "/masterleases/a/b",
        "/ranges/other",
        "/services/specs/default",
        "/services/specs/default/",
        "/services/specs//x",
        "/services/specs/a/b/c",
        "/pods/*",
        "/namespaces/*",
        "/leases/x",
    ] {
        let err = bad.parse::<Key>().unwrap_err();
        assert_eq!(err, format!("{bad:?} is no key of the lab's etcd"));
    }
}

#[test]
fn grouped_rows_read_as_their_kind() {
    assert_eq!("/namespaces/*".parse::<Keys>(), Ok(Keys::All(Kind::Namespace)));
    assert_eq!(Kind::Pod.group(), "/pods/*");
    assert_eq!(Kind::of_group("/pods/*"), Some(Kind::Pod));
    assert_eq!(Kind::of_group("/pods/"), None);
    assert_eq!(
        "/pods/default/a".parse::<Keys>(),
        Ok(Keys::One(Key::Pod(NsName { namespace: "default".into(), name: "a".into() })))
    );
}

#[test]
fn a_key_is_summed_up_from_what_etcd_holds() {
    use lab::Lang;
    use lab::{key_summary, Lab, Opening};
    let (lab, _) =
        Lab::open(Opening { scenario: Some("crash-one-of-three"), ..Opening::default() });
    let st = lab.view().state;
    let say = |key: &str, t| key_summary(key, &st, t);
    assert_eq!(
        say("/masterleases/192.168.10.11", Lang::En).as_deref(),
        Some("192.168.10.11, the lease of apiserver-a")
    );
    assert_eq!(
        say("/masterleases/192.168.10.11", Lang::Zh).as_deref(),
        Some("192.168.10.11，apiserver-a 的租约")
    );
    assert_eq!(say("/masterleases/192.168.10.99", Lang::En), None, "no such lease");
    assert_eq!(
        say("/services/specs/default/kubernetes", Lang::En).as_deref(),
        Some("ClusterIP · ClusterIP 10.96.0.1")
    );
    assert_eq!(
        say("/namespaces/*", Lang::En).as_deref(),
        Some("default, kube-node-lease, kube-public, kube-system")
    );
    assert!(say("/ranges/serviceips", Lang::En).unwrap().starts_with("10.96.0.0/"));
    assert_eq!(say("/nope", Lang::En), None);
}
