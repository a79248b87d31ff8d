//! Component tests of the host page around an embedded lab (issue 44): what its sticky or fixed
//! bars cover of the viewport, measured down its top edge and up its bottom edge, whatever the
//! bars are (`--host-top` and `--host-bottom` on the lab: the time controls stick below the top
//! ones, the docked tour card above the bottom ones, and a step's parts come out between).

use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{Element, HtmlElement};

use kube_bootstrap_lab::ui::mount::mount;

use crate::dom::{document, options, shadow_root, until_long as until};

/// A bar of the host page with the style `css`, at the end of its body.
fn bar(css: &str) -> Element {
    let el = document().create_element("div").unwrap();
    el.set_attribute("style", &format!("left: 0; right: 0; z-index: 10; background: #333; {css}"))
        .unwrap();
    document().body().unwrap().append_child(&el).unwrap();
    el
}

/// The lab's custom property `name` (its inline style), inside `inner`.
fn property(inner: &Element, name: &str) -> String {
    inner
        .query_selector(".lab")
        .ok()
        .flatten()
        .and_then(|l| l.dyn_into::<HtmlElement>().ok())
        .and_then(|l| l.style().get_property_value(name).ok())
        .unwrap_or_default()
}

#[wasm_bindgen_test]
async fn the_bars_a_host_page_stacks_at_its_edges_are_measured_whole() {
    // A header, tabs under it, a local nav under those (fixed: the page need not scroll), a bar
    // at the bottom, and a full-height drawer at the side (not over the lab's column: no bar).
    let bars = [
        bar("position: fixed; top: 0; height: 50px"),
        bar("position: fixed; top: 50px; height: 40px"),
        bar("position: fixed; top: 90px; height: 30px"),
        bar("position: fixed; bottom: 0; height: 30px"),
        bar("position: fixed; top: 0; bottom: 0; left: 0; right: auto; width: 8px"),
    ];
    let (host, inner) = shadow_root();
    let mut lab = mount(inner.clone(), options(&[("scenario", "crash-one-of-three")]), None);
    let measured = || (property(&inner, "--host-top"), property(&inner, "--host-bottom"));
    until("the bars are measured", || !measured().0.is_empty()).await;
    // Measured again as the page scrolls or resizes: a short wait for the last of those.
    for _ in 0..100 {
        if measured() == ("120px".into(), "30px".into()) {
            break;
        }
        gloo_timers::future::TimeoutFuture::new(20).await;
    }
    assert_eq!(measured(), ("120px".into(), "30px".into()), "what covers the top, the bottom");
    lab.unmount();
    host.remove();
    for b in bars {
        b.remove();
    }
}
