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

use std::rc::Rc;

use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use crate::contract::scenario::{Action, Millis};
use crate::contract::state::State;
use crate::k8s::api::Behavior;
use crate::lab::Msg;
use crate::lang::Lang;

pub(crate) use apiservers::{apiserver_actions, status_text, Apiservers};
pub(crate) use bitmaps::Bitmaps;
pub(crate) use corrupt::Corrupt;
pub(crate) use etcd::Etcd;
pub(crate) use feed::EventFeed;
pub(crate) use import::Import;
pub(crate) use kubernetes::KubernetesService;
pub(crate) use service_cidrs::ServiceCidrs;
pub(crate) use services::{Pods, Services};

/// What a panel of the state's objects draws (the Services, the Pods, the ServiceCIDRs): the
/// state, and the lab to send actions to.
#[derive(Properties)]
pub(crate) struct ObjectsProps {
    pub(crate) state: Rc<State>,
    pub(crate) lab: Callback<Msg>,
}

impl PartialEq for ObjectsProps {
    /// The lab shares one state until it changes: the same one, not an equal one, is no change
    /// (comparing the states would read them whole on every render).
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.state, &other.state) && self.lab == other.lab
    }
}

/// What etcd's panel draws: the state, the lease TTL its rings measure, the behaviour (whether
/// it has IPAddress objects), and the lab to send the outage to.
#[derive(Properties)]
pub(crate) struct EtcdProps {
    pub(crate) state: Rc<State>,
    pub(crate) lease_ttl_ms: u64,
    pub(crate) behavior: Behavior,
    pub(crate) lab: Callback<Msg>,
}

impl PartialEq for EtcdProps {
    /// The state by identity, as [`ObjectsProps`] compares it.
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.state, &other.state)
            && (self.lease_ttl_ms, self.behavior) == (other.lease_ttl_ms, other.behavior)
            && self.lab == other.lab
    }
}

fn delete_label(key: &str, lang: Lang) -> String {
    match lang {
        Lang::En => format!("delete {key}"),
        Lang::Zh => format!("删除 {key}"),
    }
}

/// How long the buttons cut an apiserver, or every apiserver, off from etcd.
pub(crate) const CUT_FOR: Millis = match Millis::new(30_000) {
    Some(m) => m,
    None => panic!("30 s is within the ceiling"),
};

/// A click that performs `action`.
fn act(lab: &Callback<Msg>, action: Action) -> Callback<MouseEvent> {
    let lab = lab.clone();
    Callback::from(move |_| lab.emit(Msg::Act(action.clone())))
}

/// The value of the input or select named `name` in the form `e` submits. Read from that form,
/// never by id through the document: the document cannot see into a shadow root, and there it
/// would find the first instance's fields.
fn field(e: &SubmitEvent, name: &str) -> String {
    let form = e.target_dyn_into::<web_sys::Element>();
    let el = form.and_then(|f| f.query_selector(&format!("[name=\"{name}\"]")).ok().flatten());
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

/// A port typed in the field `label`: `None` when empty, else the number; anything else is
/// refused naming the field (never read as 0).
fn port_field(label: &str, raw: &str, lang: Lang) -> Result<Option<i32>, String> {
    let raw = raw.trim();
    if raw.is_empty() {
        return Ok(None);
    }
    raw.parse().map(Some).map_err(|_| match lang {
        Lang::En => format!("{label}: {raw:?} is not a port number"),
        Lang::Zh => format!("{label}：{raw:?} 不是端口号"),
    })
}

/// The form's own refusal (a field it cannot read), shown under it; what Kubernetes refuses is
/// the core's and shown as the lab's notice.
fn form_error(id: String, error: &Option<String>) -> Html {
    match error {
        Some(msg) => html! { <p {id} class="error" role="alert">{ msg.clone() }</p> },
        None => html! {},
    }
}

/// ` 10.96.0.0/12 · 3 of 1048574 used`
fn used_text(range: &str, used: i64, size: i64, lang: Lang) -> String {
    match lang {
        Lang::En => format!(" {range} · {used} of {size} used"),
        Lang::Zh => format!(" {range} · 已用 {used} / {size}"),
    }
}
