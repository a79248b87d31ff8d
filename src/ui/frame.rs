//! What the panels render from, taken from the lab once per render: the state (shared with the
//! lab), the logs (copied only when they grew) and the bitmaps (rebuilt only when etcd, the
//! repair counters or the scenario changed).

use std::collections::BTreeMap;
use std::rc::Rc;

use yew::prelude::*;

use crate::api::Behavior;
use crate::event::Event;
use crate::inspect::{
    cluster_ip_bitmap, ip_address_map, node_port_bitmap, BitmapView, Cell, IpAddressMap,
};
use crate::lab::Lab;
use crate::reconcilers::ReconcilerType;
use crate::state::State;
use crate::world::{ApiserverActions, Mark, MarkKind};

/// Everything a panel needs to render one frame.
#[derive(Clone)]
pub struct Frame {
    pub state: Rc<State>,
    pub events: Rc<Vec<Event>>,
    pub marks: Rc<Vec<Mark>>,
    pub horizon: u64,
    pub lease_ttl_ms: u64,
    pub(crate) interval_ms: u64,
    pub reconciler: ReconcilerType,
    pub behavior: Behavior,
    /// What each apiserver's buttons may offer: the core's own rule, never a copy of it.
    pub allowed: BTreeMap<String, ApiserverActions>,
}

impl PartialEq for Frame {
    /// The state and the logs are shared and only replaced when they change: compare them by
    /// identity.
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.events, &other.events)
            && Rc::ptr_eq(&self.marks, &other.marks)
            && Rc::ptr_eq(&self.state, &other.state)
            && (self.horizon, self.lease_ttl_ms, self.interval_ms)
                == (other.horizon, other.lease_ttl_ms, other.interval_ms)
            && (self.reconciler, self.behavior) == (other.reconciler, other.behavior)
            && self.allowed == other.allowed
    }
}

impl Frame {
    /// The frame of `lab` now, built afresh (the app's renders share one through [`use_frame`]).
    pub(crate) fn of(lab: &Lab) -> Self {
        frame_of(lab, &mut LogCache::default())
    }
}

/// The logs only grow while playing: copy them for the panels only when they changed.
#[derive(Default)]
struct LogCache {
    key: (u64, usize, usize, u64),
    events: Rc<Vec<Event>>,
    marks: Rc<Vec<Mark>>,
}

fn frame_of(lab: &Lab, cache: &mut LogCache) -> Frame {
    let w = lab.world();
    let cfg = w.config();
    let key = (
        lab.generation(),
        w.events().len(),
        w.marks().len(),
        w.marks().last().map_or(0, |m| m.time_ms),
    );
    if cache.key != key {
        *cache = LogCache {
            key,
            events: Rc::new(w.events().to_vec()),
            marks: Rc::new(w.marks().to_vec()),
        };
    }
    Frame {
        state: lab.state().clone(),
        events: cache.events.clone(),
        marks: cache.marks.clone(),
        horizon: lab.horizon(),
        lease_ttl_ms: cfg.lease_ttl_ms,
        interval_ms: cfg.endpoint_interval_ms,
        reconciler: cfg.reconciler,
        behavior: w.behavior(),
        allowed: w.apiservers().map(|a| (a.spec.name.clone(), lab.allowed(&a.spec.name))).collect(),
    }
}

/// This render's frame, and the same frame kept while only time moved (for the panels that
/// show what changes with etcd or the logs only, which then skip the other renders).
#[hook]
pub(crate) fn use_frame(lab: &Lab) -> (Frame, Rc<Frame>) {
    let cache = use_mut_ref(LogCache::default);
    let frame = frame_of(lab, &mut cache.borrow_mut());
    let key = (lab.generation(), frame.state.etcd.revision, frame.events.len(), frame.marks.len());
    let slow = {
        let frame = frame.clone();
        use_memo(key, move |_| frame)
    };
    (frame, slow)
}

/// A ServiceCIDR prefix with the IPAddress objects drawn over it (1.33 and later).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct CidrCanvas {
    pub(crate) name: String,
    pub(crate) ready: Option<bool>,
    pub(crate) deleting: bool,
    /// Kept, not ready, by IPAddresses that lie in it alone.
    pub(crate) terminating: bool,
    /// Usable addresses of the prefix (the view may draw fewer).
    pub(crate) addresses: u128,
    /// Its first and last usable address.
    pub(crate) bounds: (String, String),
    pub(crate) view: Rc<BitmapView>,
}

/// What the allocation panel draws: the ClusterIP bitmaps (one per range; none under 1.35), the
/// NodePort bitmap, and under 1.33 and 1.35 the IPAddress objects over each ServiceCIDR prefix
/// with those drawn on no canvas (address, state, parent).
#[derive(PartialEq)]
pub(crate) struct Bitmaps {
    pub(crate) ips: Rc<Vec<Rc<BitmapView>>>,
    pub(crate) ports: Rc<BitmapView>,
    pub(crate) cidrs: Rc<Vec<CidrCanvas>>,
    pub(crate) undrawn: Rc<Vec<(String, Cell, String)>>,
}

/// The bitmaps, rebuilt when etcd, the marks or the scenario changed (a configured cluster
/// starts at the same instant and revision as the one it replaces, with other ranges).
#[hook]
pub(crate) fn use_bitmaps(lab: &Lab, frame: &Frame) -> Rc<Bitmaps> {
    let key = (lab.generation(), frame.state.etcd.revision, frame.marks.len(), lab.now() == 0);
    use_memo(key, |_| {
        let w = lab.world();
        let ips = (0..w.config().service_ip_ranges.networks().len())
            .filter_map(|i| cluster_ip_bitmap(w, i))
            .map(Rc::new)
            .collect();
        let map = if w.behavior().ip_addresses() {
            ip_address_map(w)
        } else {
            IpAddressMap::default()
        };
        let cidrs = map
            .cidrs
            .into_iter()
            .map(|c| CidrCanvas {
                name: c.name,
                ready: c.ready,
                deleting: c.deleting,
                terminating: c.terminating,
                addresses: c.addresses,
                bounds: (c.first, c.last),
                view: Rc::new(c.view),
            })
            .collect();
        Bitmaps {
            ips: Rc::new(ips),
            ports: Rc::new(node_port_bitmap(w)),
            cidrs: Rc::new(cidrs),
            undrawn: Rc::new(map.undrawn),
        }
    })
}

/// How many repair runs there were so far (each sweeps the bitmaps).
pub(crate) fn repair_runs(frame: &Frame) -> u64 {
    frame
        .marks
        .iter()
        .filter(|m| m.kind == MarkKind::RepairRun)
        .count() as u64
}
