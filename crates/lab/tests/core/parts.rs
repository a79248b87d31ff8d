//! The UI's parts have one name each, shared by `panels=`, tour highlights and the UI.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use lab::parts::{Part, Spot};
use lab::Lang;

#[test]
fn every_part_has_one_name_and_a_label_in_both_languages() {
    for &p in Part::ALL {
        assert_eq!(p.as_str().parse::<Part>(), Ok(p));
        assert_eq!(serde_json::to_value(p).unwrap(), p.as_str());
        assert!(!p.label(Lang::En).is_empty() && !p.label(Lang::Zh).is_empty());
    }
    let panels: Vec<&str> = Part::PANELS.iter().map(|p| p.as_str()).collect();
    assert_eq!(
        panels,
        [
            "stage",
            "apiservers",
            "kubernetes-service",
            "etcd",
            "events",
            "bitmaps",
            "service-cidrs",
            "services",
            "pods",
            "import"
        ]
    );
    assert!(Part::Etcd.is_panel() && !Part::Leases.is_panel());
}

#[test]
fn spots_are_parts_or_apiserver_cards() {
    assert_eq!("leases".parse(), Ok(Spot::Part(Part::Leases)));
    assert_eq!("apiserver:b".parse(), Ok(Spot::Apiserver("b".into())));
    assert_eq!(Spot::Apiserver("b".into()).to_string(), "apiserver:b");
    let e = "moon".parse::<Spot>().unwrap_err();
    assert!(
        e.starts_with("\"moon\" is not a part of the UI (one of controls, stage, apiservers, "),
        "{e}"
    );
    assert!("apiserver:".parse::<Spot>().is_err());
    let spots: Vec<Spot> = serde_json::from_str(r#"["etcd", "apiserver:a"]"#).unwrap();
    assert_eq!(spots, [Spot::Part(Part::Etcd), Spot::Apiserver("a".into())]);
}
