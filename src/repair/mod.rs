//! The periodic repair loops of kube-apiserver, after
//! `pkg/registry/core/service/{ipallocator,portallocator}/controller/repair.go`.
//!
//! One run reads the stored `RangeAllocation`, rebuilds the set from every Service, reports what
//! disagrees, keeps suspected leaks for a grace of runs, and returns the snapshot to write back.

pub mod clusterip;
pub mod nodeport;

use std::collections::BTreeMap;
use std::fmt::Display;

use crate::event::EventKind;

pub use clusterip::ClusterIpRepair;
pub use nodeport::NodePortRepair;

/// `numRepairsBeforeLeakCleanup`: a leaked item is freed by the third run that sees it.
pub const NUM_REPAIRS_BEFORE_LEAK_CLEANUP: i32 = 3;

/// The default `repairLoopInterval` (3 minutes), in milliseconds.
pub const DEFAULT_REPAIR_INTERVAL_MS: u64 = 3 * 60 * 1000;

/// The leak check shared by both loops (`checkLeaked`). `leftovers` are the items still set in
/// the stored snapshot after every Service's items were taken out, ascending.
///
/// A first sighting is flagged with `NUM_REPAIRS_BEFORE_LEAK_CLEANUP - 2` runs left and kept; a
/// counter above zero is decremented and kept; a counter at zero frees the item. The map entry is
/// never removed here (it stays at 0), as upstream; only a Service using the item removes it.
pub(crate) fn check_leaked<K: Ord + Clone + Display>(
    leaks: &mut BTreeMap<K, i32>,
    leftovers: impl IntoIterator<Item = K>,
    noun: &str,
    mut keep: impl FnMut(&K) -> Result<(), String>,
    mut log: impl FnMut(EventKind, String),
) {
    for item in leftovers {
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
            leaks.insert(item.clone(), count - 1);
            if let Err(e) = keep(&item) {
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
