//! The periodic repair loops of kube-apiserver, after
//! `pkg/registry/core/service/{ipallocator,portallocator}/controller/repair.go`.
//!
//! One run reads the stored `RangeAllocation`, rebuilds the set from every Service, reports what
//! disagrees, keeps suspected leaks for a grace of runs, and returns the snapshot to write back.
//! The two loops differ in their items and texts; the bookkeeping over one range is `Pass`.

pub mod clusterip;
pub mod nodeport;
pub mod repairip;

use std::collections::BTreeMap;

use crate::allocator::{Allocator, Error, ItemRange};
use crate::api::{Behavior, RangeAllocation, Service};
use crate::event::{EventKind, Recorder};

pub use clusterip::ClusterIpRepair;
pub use nodeport::NodePortRepair;

/// `numRepairsBeforeLeakCleanup`: a leaked item is freed by the third run that sees it.
pub const NUM_REPAIRS_BEFORE_LEAK_CLEANUP: i32 = 3;

/// The default `repairLoopInterval` (3 minutes), in milliseconds.
pub const DEFAULT_REPAIR_INTERVAL_MS: u64 = 3 * 60 * 1000;

/// The last run that reported nothing and left its leak counters as they were: the Services'
/// revision it read and the snapshots it wrote. A run is a function of the stored snapshots, the
/// Services and its counters, so the next run on the same snapshots and Services would report
/// nothing again and write the same snapshots: it need not be computed (a day with a thousand
/// Services spends most of its time in such runs).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct CleanRun<T> {
    last: Option<(u64, T)>,
}

impl<T: PartialEq + Clone> CleanRun<T> {
    /// What the run would write, if its inputs are those of the last clean run.
    pub(crate) fn again(&self, services_revision: u64, stored: &T) -> Option<T> {
        match &self.last {
            Some((rev, written)) if *rev == services_revision && written == stored => {
                Some(written.clone())
            }
            _ => None,
        }
    }

    /// Remembers a computed run: its inputs and output if it was quiet (reported nothing, left
    /// the counters alone), else forgets.
    pub(crate) fn remember(&mut self, services_revision: u64, written: &T, clean: bool) {
        self.last = clean.then(|| (services_revision, written.clone()));
    }
}

/// One run over one range: `stored` is what etcd holds, `rebuilt` what the Services use.
pub(crate) struct Pass<R: ItemRange> {
    stored: Allocator<R>,
    rebuilt: Allocator<R>,
}

impl<R: ItemRange> Pass<R> {
    /// `NewFromSnapshot` of the object read (an empty range was never initialised and stands for
    /// the configured one) and an empty `rebuilt` over the configured range.
    pub(crate) fn open(
        configured: R,
        snapshot: &RangeAllocation,
        behavior: Behavior,
    ) -> Result<Self, Error<R>> {
        let mut snapshot = snapshot.clone();
        if snapshot.range.is_empty() {
            snapshot.range = configured.to_string();
        }
        Ok(Pass {
            stored: Allocator::from_snapshot(&snapshot, behavior)?,
            rebuilt: Allocator::new(configured, behavior),
        })
    }

    pub(crate) fn rebuilt(&self) -> &Allocator<R> {
        &self.rebuilt
    }

    /// Marks a Service's item in use. `Ok(true)`: storage had it, and it is taken out of the stored
    /// set so that what remains there are leaks; `Ok(false)`: storage did not have it (the rebuilt
    /// set now does). Either way a used item is no leak.
    pub(crate) fn mark(
        &mut self,
        item: R::Item,
        leaks: &mut BTreeMap<R::Item, i32>,
    ) -> Result<bool, Error<R>> {
        self.rebuilt.allocate(item)?;
        let stored = self.stored.has(item);
        if stored {
            self.stored.release(item);
        }
        leaks.remove(&item);
        Ok(stored)
    }

    /// `checkLeaked`, then the snapshot to write back (`saveSnapShot`).
    pub(crate) fn finish(
        mut self,
        leaks: &mut BTreeMap<R::Item, i32>,
        noun: &str,
        mut log: impl FnMut(EventKind, String),
    ) -> RangeAllocation {
        let leftovers: Vec<R::Item> = self.stored.iter().collect();
        for item in leftovers {
            self.check_leaked(leaks, item, noun, &mut log);
        }
        self.rebuilt.snapshot()
    }

    /// One item still set in storage after every Service's items were taken out.
    ///
    /// A first sighting is flagged with `NUM_REPAIRS_BEFORE_LEAK_CLEANUP - 2` runs left and kept; a
    /// counter above zero is decremented and kept; a counter at zero frees the item. The map entry
    /// is never removed here (it stays at 0), as upstream; only a Service using the item removes it.
    fn check_leaked(
        &mut self,
        leaks: &mut BTreeMap<R::Item, i32>,
        item: R::Item,
        noun: &str,
        log: &mut impl FnMut(EventKind, String),
    ) {
        let count = match leaks.get(&item) {
            None => {
                log(
                    EventKind::LeakFlagged,
                    format!("the {noun} {item} may have leaked: flagging for later clean up"),
                );
                NUM_REPAIRS_BEFORE_LEAK_CLEANUP - 1
            }
            Some(&count) => count,
        };
        if count > 0 {
            // Pretend it is still in use until the count runs out.
            leaks.insert(item, count - 1);
            if let Err(e) = self.rebuilt.allocate(item) {
                log(
                    EventKind::LeakNotAllocatable,
                    format!("the {noun} {item} may have leaked, but can not be allocated: {e}"),
                );
            }
        } else {
            log(
                EventKind::LeakCleanedUp,
                format!("the {noun} {item} appears to have leaked: cleaning up"),
            );
        }
    }
}

/// A finding about one Service: the event on the Service and the line upstream's
/// `runtime.HandleError` logs with it.
pub(crate) fn report(
    rec: &mut Recorder,
    component: &'static str,
    svc: &Service,
    kind: EventKind,
    event: String,
    detail: String,
) {
    rec.warning(component, kind, &svc.key(), event);
    rec.log(component, EventKind::RepairDetail, detail);
}
