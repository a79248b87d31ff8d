//! What the lab observes of the world after each move, for every reader: the state now
//! (taken once per change and shared), how the kubernetes Endpoints' addresses changed, and
//! the requests to etcd the move made (the stage's packets). [`Lab::update`] takes them once a
//! move changed the world; another scenario put in place starts them afresh.

use std::rc::Rc;

use super::{Lab, Write};
use crate::contract::state::State;

/// The furthest back (virtual ms) a move may reach for requests to show as packets: one frame
/// at the top speed covers this much, a longer move is a jump and shows only its last instant.
pub(crate) const WIRE_REACH_MS: u64 = 10_000;

/// How the addresses of `default/kubernetes`' Endpoints changed the last time they did, within
/// the scenario being shown (a new scenario starts with no change).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EndpointsChange {
    /// Counts the changes of this lab, so that a view can tell one change from the next.
    pub seq: u64,
    /// The addresses that left the Endpoints.
    pub removed: Vec<String>,
    /// The addresses that joined them.
    pub added: Vec<String>,
}

/// What the lab observed of the world after its last move: the state now, the kubernetes
/// Endpoints' addresses as last seen and their last change, and the requests to etcd of the
/// last move that made any, with a count of such moves.
pub(super) struct Observed {
    pub(super) state: Rc<State>,
    addresses: Vec<String>,
    pub(super) change: EndpointsChange,
    pub(super) wire: Rc<Vec<Write>>,
    pub(super) wire_seq: u64,
}

impl Observed {
    /// The first look at a world in `state`: no change, no request yet.
    pub(super) fn new(state: State) -> Self {
        let addresses = state.kubernetes_addresses().cloned().collect();
        Observed {
            state: Rc::new(state),
            addresses,
            change: EndpointsChange::default(),
            wire: Rc::default(),
            wire_seq: 0,
        }
    }

    /// The first look at another scenario put in place: its counts go on from `self`'s, so a
    /// view tells its first change and requests from the old scenario's last ones.
    pub(super) fn after(&self, next: Observed) -> Self {
        let change = EndpointsChange { seq: self.change.seq, ..EndpointsChange::default() };
        Observed { change, wire_seq: self.wire_seq, ..next }
    }
}

impl Lab {
    /// Takes the requests made by a move from `before` to now: all of them when time flowed
    /// (playing, stepping), only those of the instant arrived at after a jump or a seek.
    pub(super) fn take_wire(&mut self, before: u64) {
        let now = self.now();
        let flowed = now >= before && now - before <= WIRE_REACH_MS;
        let mut wire = self.timeline.take_wire();
        wire.retain(|w| w.time_ms == now || (flowed && w.time_ms > before));
        if !wire.is_empty() {
            self.observed.wire = Rc::new(wire);
            self.observed.wire_seq += 1;
        }
    }

    /// Takes the state of a scenario just put in place: what it shows first is no change.
    pub(super) fn observe_afresh(&mut self) {
        let o = &mut self.observed;
        o.state = Rc::new(self.timeline.state());
        o.addresses = o.state.kubernetes_addresses().cloned().collect();
        o.change.removed.clear();
        o.change.added.clear();
    }

    /// Takes the state of the world as it is now, and how the kubernetes Endpoints changed.
    pub(super) fn observe(&mut self) {
        let state = self.timeline.state();
        let o = &mut self.observed;
        if *o.state != state {
            o.state = Rc::new(state);
        }
        let now: Vec<String> = o.state.kubernetes_addresses().cloned().collect();
        if now != o.addresses {
            o.change = EndpointsChange {
                seq: o.change.seq + 1,
                removed: o.addresses.iter().filter(|a| !now.contains(a)).cloned().collect(),
                added: now.iter().filter(|a| !o.addresses.contains(a)).cloned().collect(),
            };
            o.addresses = now;
        }
    }
}
