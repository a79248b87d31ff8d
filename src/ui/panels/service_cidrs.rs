//! ServiceCIDRs (behaviours 1.33 and 1.35): each object with its CIDRs, its `Ready` condition,
//! finalizers and whether it is being deleted; a form that creates one and a button per object
//! that deletes it. The form only checks that its fields are filled in and parse; everything
//! Kubernetes refuses is refused by the core and shown as the lab's notice.

use yew::prelude::*;

use super::{act, delete_label, field, ObjectsProps};
use crate::contract::scenario::{Action, CreateServiceCidr, NameRef, ServiceCidrSpec};
use crate::k8s::api::ServiceCidr;
use crate::lab::Msg;
use crate::lang::Lang;
use crate::ui::ids::{use_ids, Ids};

/// The form's fields, by name (their ids are these, prefixed per instance: `crate::ui::ids`).
const NAME: &str = "scidr-name";
const CIDR: [&str; 2] = ["scidr-cidr-0", "scidr-cidr-1"];

/// What is wrong with a field of the form: the field's id and the message naming it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct FieldError {
    pub(crate) field: &'static str,
    pub(crate) message: String,
}

/// The spec the form describes, or what is wrong with the first field that cannot be sent:
/// an empty name, no first CIDR, or a CIDR that is not one.
pub(crate) fn form_spec(
    name: &str,
    cidrs: [&str; 2],
    lang: Lang,
) -> Result<ServiceCidrSpec, FieldError> {
    let name = name.trim();
    if name.is_empty() {
        return Err(FieldError {
            field: NAME,
            message: lang.pick("Name: required.", "名称：必填。").to_string(),
        });
    }
    let mut list = Vec::new();
    for (i, raw) in cidrs.iter().map(|c| c.trim()).enumerate() {
        let label =
            [lang.pick("First CIDR", "第一个 CIDR"), lang.pick("Second CIDR", "第二个 CIDR")][i];
        if raw.is_empty() {
            if i == 0 {
                return Err(FieldError {
                    field: CIDR[i],
                    message: match lang {
                        Lang::En => format!("{label}: required (e.g. 10.100.0.0/16)."),
                        Lang::Zh => format!("{label}：必填（例如 10.100.0.0/16）。"),
                    },
                });
            }
            continue;
        }
        if raw.parse::<ipnet::IpNet>().is_err() {
            return Err(FieldError {
                field: CIDR[i],
                message: match lang {
                    Lang::En => format!(
                        "{label}: {raw:?} is not a CIDR (e.g. 10.100.0.0/16 or 2001:db8::/64)."
                    ),
                    Lang::Zh => format!(
                        "{label}：{raw:?} 不是 CIDR（例如 10.100.0.0/16 或 2001:db8::/64）。"
                    ),
                },
            });
        }
        list.push(raw.to_string());
    }
    Ok(ServiceCidrSpec { name: name.to_string(), cidrs: list })
}

/// The `Ready` condition as `kubectl` prints a status.
fn ready_text(c: &ServiceCidr, lang: Lang) -> &'static str {
    match c.ready {
        Some(true) => "True",
        Some(false) => "False",
        None => lang.pick("unset", "未设置"),
    }
}

#[function_component(ServiceCidrs)]
pub(crate) fn service_cidrs(p: &ObjectsProps) -> Html {
    let lang = super::super::use_lang();
    let ids = use_ids();
    let error = use_state_eq(|| None::<FieldError>);
    let st = &p.state;
    let on_create = {
        let (lab, error) = (p.lab.clone(), error.clone());
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            let (c0, c1) = (field(&e, CIDR[0]), field(&e, CIDR[1]));
            match form_spec(&field(&e, NAME), [&c0, &c1], lang) {
                Ok(service_cidr) => {
                    error.set(None);
                    let create = CreateServiceCidr { service_cidr, via: None };
                    lab.emit(Msg::Act(Action::CreateServiceCidr(create)));
                }
                Err(e) => error.set(Some(e)),
            }
        })
    };
    let invalid = |field: &str| error.as_ref().is_some_and(|e| e.field == field);
    let described = |field: &str| invalid(field).then(|| ids.id("scidr-error"));
    let spot = crate::ui::spots::use_spot(crate::lab::parts::Part::ServiceCidrs);
    html! {
        <div role="region" class={classes!("panel", "service-cidrs", spot.class())} data-tour-spot={spot.attr()} aria-labelledby={ids.id("h-service-cidrs")}>
            <h2 id={ids.id("h-service-cidrs")}>{ "ServiceCIDRs" }<span class="sub">{ lang.pick(
                "networking.k8s.io/v1: the ranges ClusterIPs are allocated from",
                "networking.k8s.io/v1：分配 ClusterIP 的网段") }</span></h2>
            if st.service_cidrs.is_empty() {
                <p class="empty" id={ids.id("service-cidrs-empty")}>{ lang.pick("no ServiceCIDR object", "没有 ServiceCIDR 对象") }</p>
            }
            <ul class="cidr-list" id={ids.id("service-cidrs")}>
                { for st.service_cidrs.iter().map(|c| cidr_item(c, &p.lab, lang, &ids)) }
            </ul>
            <form class="create" id={ids.id("create-service-cidr")} onsubmit={on_create} novalidate=true>
                <input id={ids.id(NAME)} name={NAME} placeholder={lang.pick("name", "名称")} spellcheck="false"
                    aria-label={lang.pick("ServiceCIDR name", "ServiceCIDR 名称")}
                    aria-invalid={invalid(NAME).then_some("true")} aria-describedby={described(NAME)} />
                <input id={ids.id(CIDR[0])} name={CIDR[0]} placeholder="10.100.0.0/16" spellcheck="false"
                    aria-label={lang.pick("First CIDR", "第一个 CIDR")}
                    aria-invalid={invalid(CIDR[0]).then_some("true")} aria-describedby={described(CIDR[0])} />
                <input id={ids.id(CIDR[1])} name={CIDR[1]} placeholder={lang.pick("second CIDR (optional)", "第二个 CIDR（可选）")} spellcheck="false"
                    aria-label={lang.pick("Second CIDR (optional, the other IP family)", "第二个 CIDR（可选，另一个 IP 族）")}
                    aria-invalid={invalid(CIDR[1]).then_some("true")} aria-describedby={described(CIDR[1])} />
                <button id={ids.id("scidr-create")} type="submit" class="primary">{ lang.pick("Create ServiceCIDR", "创建 ServiceCIDR") }</button>
            </form>
            if let Some(e) = &*error {
                <p id={ids.id("scidr-error")} class="error" role="alert" data-field={e.field}>{ e.message.clone() }</p>
            }
        </div>
    }
}

/// One ServiceCIDR: name, CIDRs, condition, finalizers, deletion, and its delete button.
fn cidr_item(c: &ServiceCidr, lab: &Callback<Msg>, lang: Lang, ids: &Ids) -> Html {
    let delete = Action::DeleteServiceCidr(NameRef { name: c.name.clone(), via: None });
    let ready_class = match c.ready {
        Some(true) => "yes",
        Some(false) => "no",
        None => "unset",
    };
    html! {
        <li key={c.name.clone()} id={ids.id(&format!("scidr-{}", c.name))} class={classes!("cidr", c.deleting.then_some("deleting"))}>
            <div class="cidr-head">
                <strong>{ &c.name }</strong>
                { for c.cidrs.iter().map(|n| html! { <code class="cidr-range">{ n }</code> }) }
                if c.deleting {
                    <span class="badge deleting" title={lang.pick("metadata.deletionTimestamp is set", "已设置 metadata.deletionTimestamp")}>
                        { lang.pick("deleting", "删除中") }</span>
                }
                <button class="small" aria-label={delete_label(&c.name, lang)} disabled={c.deleting}
                    onclick={act(lab, delete)}>{ lang.pick("delete", "删除") }</button>
            </div>
            <dl class="cidr-status">
                <dt>{ "Ready" }</dt>
                <dd><span class={classes!("cond", ready_class)}>{ ready_text(c, lang) }</span>
                    if !c.reason.is_empty() { { " · " }<code class="cidr-reason">{ &c.reason }</code> }
                    if !c.message.is_empty() { <br /><span class="cidr-message">{ &c.message }</span> }
                </dd>
                <dt>{ "finalizers" }</dt>
                <dd>
                    if c.finalizers.is_empty() { <span class="empty">{ lang.pick("none", "无") }</span> }
                    { for c.finalizers.iter().map(|f| html! { <code class="finalizer">{ f }</code> }) }
                </dd>
            </dl>
        </li>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_form_names_the_field_it_cannot_send() {
        let e = form_spec("extra", ["10.96.0.0/33", ""], Lang::En).unwrap_err();
        assert_eq!(e.field, "scidr-cidr-0");
        assert!(
            e.message.starts_with("First CIDR: \"10.96.0.0/33\" is not a CIDR"),
            "{}",
            e.message
        );
        assert_eq!(form_spec(" ", ["10.0.0.0/24", ""], Lang::En).unwrap_err().field, "scidr-name");
        assert_eq!(form_spec("a", ["", ""], Lang::Zh).unwrap_err().field, "scidr-cidr-0");
        assert_eq!(
            form_spec("a", ["10.0.0.0/24", "nope"], Lang::En).unwrap_err().field,
            "scidr-cidr-1"
        );
        let ok = form_spec(" extra ", ["10.100.0.0/16", "2001:db8::/64"], Lang::En).unwrap();
        assert_eq!((ok.name.as_str(), ok.cidrs.len()), ("extra", 2));
        // What Kubernetes refuses (two of one family, a bad name) is the core's to refuse.
        assert!(form_spec("Bad_Name", ["10.0.0.0/24", "10.1.0.0/24"], Lang::En).is_ok());
    }
}
