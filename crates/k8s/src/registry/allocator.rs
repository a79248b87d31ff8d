//! The storage-backed allocators (`pkg/registry/core/service/allocator/storage/storage.go`):
//! an apiserver's allocator in memory, kept in step with its object in etcd.

use ipnet::IpNet;

use super::{Storage, COMPONENT, UNREACHABLE};
use crate::allocator::{Allocator, Error, ItemRange};
use crate::api::RangeAllocation;
use crate::etcd::Value;
use crate::event::EventKind;
use crate::portallocator::PortRange;
use crate::rng::SimRng;

/// An apiserver's in-memory allocator with the resourceVersion it last wrote or read: it is
/// reloaded from etcd only when the stored object moved on (`allocator/storage/storage.go`'s `Etcd`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct View<R: ItemRange> {
    /// The allocator in memory.
    pub alloc: Allocator<R>,
    /// The etcd key of its `RangeAllocation` (`/ranges/…`).
    pub key: &'static str,
    pub(crate) resource: &'static str,
    pub(crate) last: Option<u64>,
}

/// A ClusterIP range's view (`/ranges/serviceips` or `/ranges/secondaryserviceips`).
pub type IpView = View<IpNet>;
/// The NodePort range's view (`/ranges/servicenodeports`).
pub type PortView = View<PortRange>;

/// Why a guaranteed update gave up.
enum Update {
    /// The operation itself refused (`errorUnableToAllocate`).
    Unable,
    Failed(String),
}

impl<R: ItemRange> View<R> {
    /// `tryUpdate`: read the object, reload memory if it moved on since we last saw it, apply
    /// `op` to memory and write the result back. (Since 1.19 memory is never trusted first: a
    /// stale view refused addresses another apiserver had freed, kubernetes#85894.) Upstream
    /// remembers the version it read, not the one it wrote, so its next call always reloads; that
    /// reload reads back what we wrote unless someone else wrote since, which this check sees too.
    fn try_update(
        &mut self,
        st: &mut Storage,
        op: impl FnOnce(&mut Allocator<R>) -> bool,
    ) -> Result<(), Update> {
        if st.reach(self.key).is_err() {
            return Err(Update::Failed(UNREACHABLE.to_string()));
        }
        let Some((existing, rev)) = st.etcd.range(self.key, st.now).map(|(r, v)| (r.clone(), v))
        else {
            return Err(Update::Failed(format!(
                "cannot allocate resources of type {} at this time",
                self.resource
            )));
        };
        if self.last != Some(rev) {
            self.alloc.restore_raw(&existing.range, &existing.data).map_err(Update::Failed)?;
            self.last = Some(rev);
        }
        if !op(&mut self.alloc) {
            return Err(Update::Unable);
        }
        let new_rev = st.etcd.put(self.key, Value::Range(self.alloc.snapshot()), None, st.now);
        self.last = Some(new_rev);
        Ok(())
    }

    /// What the repair loop reads: the stored object (empty when there is none yet) and its
    /// resourceVersion.
    pub(crate) fn stored(&self, st: &Storage) -> (RangeAllocation, Option<u64>) {
        st.etcd
            .range(self.key, st.now)
            .map_or((RangeAllocation::default(), None), |(r, rev)| (r.clone(), Some(rev)))
    }

    /// The repair loop's write, `CreateOrUpdate`: store `snapshot`, restore memory from it and
    /// remember the version that was read (`read_rev`), not the new one.
    pub(crate) fn create_or_update(
        &mut self,
        st: &mut Storage,
        snapshot: RangeAllocation,
        read_rev: Option<u64>,
    ) {
        if self.alloc.restore_raw(&snapshot.range, &snapshot.data).is_ok() {
            self.last = read_rev;
        }
        st.etcd.put(self.key, Value::Range(snapshot), None, st.now);
    }

    /// `Allocate` through storage. An item outside the range is refused before etcd is asked.
    pub(crate) fn allocate(&mut self, st: &mut Storage, item: R::Item) -> Result<(), Error<R>> {
        self.alloc.check_in_range(item)?;
        let mut result = Ok(());
        match self.try_update(st, |a| {
            result = a.allocate(item);
            result.is_ok()
        }) {
            Ok(()) => Ok(()),
            Err(Update::Unable) => result,
            Err(Update::Failed(e)) => Err(Error::Other(e)),
        }
    }

    /// `AllocateNext` through storage.
    pub(crate) fn allocate_next(
        &mut self,
        st: &mut Storage,
        rng: &mut SimRng,
    ) -> Result<R::Item, Error<R>> {
        let mut result = Err(Error::Full);
        match self.try_update(st, |a| {
            result = a.allocate_next(rng);
            result.is_ok()
        }) {
            Ok(()) | Err(Update::Unable) => result,
            Err(Update::Failed(e)) => Err(Error::Other(e)),
        }
    }

    /// `Release` through storage. An item outside the range is a no-op that never reaches etcd
    /// (the port allocator logs it).
    pub(crate) fn release(&mut self, st: &mut Storage, item: R::Item) -> Result<(), String> {
        if self.alloc.offset_of(item).is_none() {
            if let Some(line) = R::release_outside(item) {
                st.rec.log(COMPONENT, EventKind::ReleaseFailed, line);
            }
            return Ok(());
        }
        match self.try_update(st, |a| {
            a.release(item);
            true
        }) {
            Ok(()) | Err(Update::Unable) => Ok(()),
            Err(Update::Failed(e)) => Err(e),
        }
    }
}
