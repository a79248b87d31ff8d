//! The panels: apiservers, etcd, the `kubernetes` Service and its Endpoints, the allocation
//! bitmaps, user Services, Pods, storage corruption and the event feed. Each renders from the
//! core's state and sends the lab messages; none decides anything the core decides.

mod apiservers;
mod bitmaps;
mod corrupt;
mod etcd;
mod feed;
mod import;
mod kubernetes;
mod service_cidrs;
mod services;

use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use super::Frame;
use crate::lab::Msg;
use crate::lang::Lang;
use crate::scenario::Action;

pub(crate) use apiservers::{status_text, Apiservers};
pub(crate) use bitmaps::Bitmaps;
pub(crate) use corrupt::Corrupt;
pub(crate) use etcd::Etcd;
pub(crate) use feed::EventFeed;
pub(crate) use import::Import;
pub(crate) use kubernetes::KubernetesService;
pub(crate) use service_cidrs::ServiceCidrs;
pub(crate) use services::{Pods, Services};

#[derive(Properties, PartialEq)]
pub(crate) struct PanelProps {
    pub(crate) frame: Frame,
    pub(crate) lab: Callback<Msg>,
}

fn delete_label(key: &str, lang: Lang) -> String {
    match lang {
        Lang::En => format!("delete {key}"),
        Lang::Zh => format!("删除 {key}"),
    }
}

/// A click that performs `action`.
fn act(lab: &Callback<Msg>, action: Action) -> Callback<MouseEvent> {
    let lab = lab.clone();
    Callback::from(move |_| lab.emit(Msg::Act(action.clone())))
}

/// The value of an input or select element by id.
fn value_of(id: &str) -> String {
    let doc = web_sys::window().and_then(|w| w.document());
    let el = doc.and_then(|d| d.get_element_by_id(id));
    match el {
        Some(el) => match wasm_bindgen::JsCast::dyn_into::<HtmlInputElement>(el) {
            Ok(i) => i.value(),
            Err(el) => wasm_bindgen::JsCast::dyn_into::<HtmlSelectElement>(el)
                .map(|s| s.value())
                .unwrap_or_default(),
        },
        None => String::new(),
    }
}

/// ` 10.96.0.0/12 · 3 of 1048574 used`
fn used_text(range: &str, used: i64, size: i64, lang: Lang) -> String {
    match lang {
        Lang::En => format!(" {range} · {used} of {size} used"),
        Lang::Zh => format!(" {range} · 已用 {used} / {size}"),
    }
}
