//! The allocation bitmaps stored in etcd (ClusterIP ranges and NodePorts), and the corruption
//! form that writes to them behind the allocators' back.

use std::rc::Rc;

use yew::prelude::*;

use super::Corrupt;
use crate::inspect::BitmapView;
use crate::lab::Msg;
use crate::ui::bitmap::Bitmap;

#[derive(Properties, PartialEq)]
pub(crate) struct BitmapsProps {
    /// One per ClusterIP range (the primary first).
    pub(crate) ips: Rc<Vec<Rc<BitmapView>>>,
    pub(crate) ports: Rc<BitmapView>,
    /// How many repair runs there were: each sweeps the bitmaps.
    pub(crate) sweep: u64,
    pub(crate) lab: Callback<Msg>,
}

#[function_component(Bitmaps)]
pub(crate) fn bitmaps(p: &BitmapsProps) -> Html {
    let lang = super::super::use_lang();
    let id = |i: usize| if i == 0 { "cluster-ip" } else { "cluster-ip-secondary" };
    html! {
        <section class="panel bitmaps" aria-label={lang.pick("Allocation bitmaps", "分配位图")}>
            <h2>{ lang.pick("Allocation bitmaps in etcd", "etcd 中的分配位图") }</h2>
            { for p.ips.iter().enumerate().map(|(i, v)| html! {
                <div data-tour={id(i)}>
                    <Bitmap id={id(i)} title={format!("ClusterIP {}", v.range)} view={v.clone()} sweep={p.sweep} />
                </div>
            }) }
            <div data-tour="node-port">
                <Bitmap id="node-port" title={format!("NodePort {}", p.ports.range)} view={p.ports.clone()} sweep={p.sweep} />
            </div>
            <Corrupt lab={p.lab.clone()} />
        </section>
    }
}
