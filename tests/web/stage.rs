//! Component tests of the stage's text fitting (src/ui/stage/fit.rs): a text wider than its
//! room is pressed into it, and a render measures again only the texts that changed.

use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::Element;

use kube_bootstrap_lab::ui::{App, AppProps};

use crate::dom::{document, exists, seek, settle, until, Mounted};

/// Every fitted text of the stage: (its text, its fit mark, the width it is pressed to).
fn fitted() -> Vec<(String, String, Option<String>)> {
    let list = document().query_selector_all(".stage text[data-fitted]").unwrap();
    (0..list.length())
        .filter_map(|i| list.item(i)?.dyn_into::<Element>().ok())
        .map(|t| {
            (
                t.text_content().unwrap_or_default(),
                t.get_attribute("data-fitted").unwrap(),
                t.get_attribute("textLength"),
            )
        })
        .collect()
}

#[wasm_bindgen_test]
async fn the_stage_fits_its_texts_and_refits_only_those_that_changed() {
    let style = document().create_element("style").unwrap();
    style.set_text_content(Some(concat!(
        include_str!("../../static/style.css"),
        include_str!("../../static/stage.css")
    )));
    document().head().unwrap().append_child(&style).unwrap();
    // A 360 px column: the portrait stage, where long etcd keys share their row with a value.
    let root = Mounted::<App>::new_in_width(
        yew::props!(AppProps { scenario: Some(yew::AttrValue::from("crash-vs-graceful-stop")) }),
        360,
    );
    settle().await;
    until("the stage is drawn", || exists("kubernetes-ip")).await;
    let portrait = || document().query_selector(".stage.portrait").unwrap().is_some();
    until("the stage measured its narrow column", portrait).await;
    until("its texts are fitted for it", || {
        fitted().iter().any(|(_, m, _)| m.contains("portrait"))
    })
    .await;
    let before = fitted();
    for (text, mark, _) in &before {
        assert!(
            mark.contains(text.as_str()) && mark.contains("portrait"),
            "{text}: fitted for its text and look ({mark})"
        );
    }
    assert!(
        before.iter().any(|(_, _, pressed)| pressed.is_some()),
        "a long key is pressed into its row: {before:?}"
    );
    // At 8 s the leases' TTLs left have changed; the keys and the Service's address have not.
    seek(8_000).await;
    // The new texts show a frame before their fit (a loaded machine may show that frame).
    let anew = |now: &[(String, String, Option<String>)]| {
        now != before && now.iter().all(|(t, m, _)| m.contains(t.as_str()))
    };
    until("the stage moved and fitted its changed texts anew", || anew(&fitted())).await;
    let after = fitted();
    let same = |t: &str| after.iter().find(|(x, _, _)| x == t).map(|(_, m, _)| m.clone());
    let kept = before.iter().filter(|(t, m, _)| same(t).as_deref() == Some(m.as_str())).count();
    assert!(kept > 0, "texts that did not change keep their fit");
    root.remove();
    style.remove();
}
