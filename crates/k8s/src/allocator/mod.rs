//! The range allocators of Service IPs and NodePorts, after
//! `pkg/registry/core/service/allocator/{bitmap,interfaces}.go`.
//!
//! Upstream writes the same range code twice over its bitmap: `ipallocator.Range` and
//! `portallocator.PortAllocator` differ only in how an item maps to a bitmap offset and in their
//! error texts. Here that difference is the [`ItemRange`] trait (implemented by `IpNet` in
//! `ipallocator` and by `PortRange` in `portallocator`), and [`Allocator`] is the one range type.

mod bitmap;

use std::fmt;

pub use bitmap::{AllocationBitmap, Strategy};

use crate::api::{Behavior, RangeAllocation};
use crate::rng::SimRng;

/// What a range hands out and where each item lives in the bitmap.
pub trait ItemRange: Copy + fmt::Debug + fmt::Display + Eq {
    /// An IP address or a port.
    type Item: Copy + Ord + fmt::Debug + fmt::Display;
    /// `ErrAllocated`'s text.
    const ALLOCATED: &'static str;
    /// `ErrMismatchedNetwork`'s text.
    const MISMATCHED: &'static str;

    /// Parses the range string of a `RangeAllocation` (`NewFromSnapshot`), with upstream's texts.
    fn parse(spec: &str) -> Result<Self, String>;
    /// The form the allocator keeps (a CIDR is masked to its network).
    fn canonical(self) -> Self {
        self
    }
    /// The number of usable items: the bitmap's `max`.
    fn usable(&self) -> usize;
    /// `calculateRangeOffset`: the size of the static (lower) band when bands are in use.
    fn static_band_size(&self) -> usize;
    /// `contains`: the offset of a usable item of this range.
    fn offset_of(&self, item: Self::Item) -> Option<usize>;
    /// The item at `offset`.
    fn item_at(&self, offset: usize) -> Self::Item;
    /// `ErrNotInRange`'s text; `valid` is the range as printed, `legacy` is behaviour 1.20's
    /// wording.
    fn not_in_range(item: Self::Item, valid: &str, legacy: bool) -> String;
    /// The error `Restore` returns when the bitmap refuses the data.
    fn restore_failed(e: String) -> String {
        e
    }
    /// What upstream logs when asked to release an item outside the range, if anything.
    fn release_outside(_item: Self::Item) -> Option<String> {
        None
    }
}

/// The errors of `ipallocator/interfaces.go` and `portallocator/allocator.go`; texts from `R`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Error<R: ItemRange> {
    /// `ErrFull`: no free item is left.
    Full,
    /// `ErrAllocated`: the item is taken already.
    Allocated,
    /// `ErrMismatchedNetwork`: the range given to `Restore` is not this allocator's.
    MismatchedNetwork,
    /// `valid` is the range as printed (`10.96.0.0/12`, `30000-32767`); `legacy`: printed as
    /// behaviour 1.20 prints it.
    NotInRange {
        /// The item asked for.
        item: R::Item,
        /// The range as printed.
        valid: String,
        /// Printed in behaviour 1.20's wording.
        legacy: bool,
    },
    /// Anything else (a restore failure, a storage error): its text as upstream wraps it.
    Other(String),
}

impl<R: ItemRange> fmt::Display for Error<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Full => f.write_str("range is full"),
            Error::Allocated => f.write_str(R::ALLOCATED),
            Error::MismatchedNetwork => f.write_str(R::MISMATCHED),
            Error::NotInRange { item, valid, legacy } => {
                f.write_str(&R::not_in_range(*item, valid, *legacy))
            }
            Error::Other(text) => f.write_str(text),
        }
    }
}

impl<R: ItemRange> std::error::Error for Error<R> {}

/// A range over a bitmap: `ipallocator.Range` for `R = IpNet`, `portallocator.PortAllocator` for
/// `R = PortRange`. Its operations are those of `allocator.Interface` and `Snapshottable`, in items.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Allocator<R: ItemRange> {
    range: R,
    bitmap: AllocationBitmap,
    /// Behaviour 1.20: its error texts.
    legacy: bool,
}

impl<R: ItemRange> Allocator<R> {
    /// `NewInMemory`: an empty range, with the static and dynamic bands under behaviour 1.29
    /// (KEP-3070 for IPs, KEP-3668 for ports) and one plain random scan under 1.20.
    pub fn new(range: R, behavior: Behavior) -> Self {
        let range = range.canonical();
        let strategy = if behavior.static_bands() {
            Strategy::RandomScanWithOffset(range.static_band_size())
        } else {
            Strategy::RandomScan
        };
        Allocator {
            bitmap: AllocationBitmap::new(range.usable(), range.to_string(), strategy),
            range,
            legacy: behavior.legacy(),
        }
    }

    /// `NewFromSnapshot`: a range over the snapshot's own range string (not the configured
    /// range), restored.
    pub fn from_snapshot(snapshot: &RangeAllocation, behavior: Behavior) -> Result<Self, Error<R>> {
        let range = R::parse(&snapshot.range).map_err(Error::Other)?;
        let mut alloc = Allocator::new(range, behavior);
        alloc.restore(&range, &snapshot.data)?;
        Ok(alloc)
    }

    /// The range, as configured (a CIDR masked to its network).
    pub fn range(&self) -> R {
        self.range
    }

    /// The number of usable items.
    pub fn size(&self) -> usize {
        self.bitmap.max()
    }

    /// Size of the static (lower) band; 0 under behaviour 1.20.
    pub fn static_band(&self) -> usize {
        self.bitmap.static_band()
    }

    /// `Free`: the number of free items (negative only after a restore set bits beyond the range).
    pub fn free(&self) -> i64 {
        self.bitmap.free()
    }

    /// `Used`: the number of allocated items.
    pub fn used(&self) -> i64 {
        self.size() as i64 - self.free()
    }

    /// The bitmap offset of `item`, if it is a usable item of this range (`contains`).
    pub fn offset_of(&self, item: R::Item) -> Option<usize> {
        self.range.offset_of(item)
    }

    /// The offset of `item`, or the `NotInRange` error naming this range.
    pub(crate) fn check_in_range(&self, item: R::Item) -> Result<usize, Error<R>> {
        self.offset_of(item).ok_or_else(|| Error::NotInRange {
            item,
            valid: self.range.to_string(),
            legacy: self.legacy,
        })
    }

    /// Reserves `item`: `NotInRange` outside the usable items, `Allocated` when taken.
    /// Never `Full`: a full range still answers per item.
    pub fn allocate(&mut self, item: R::Item) -> Result<(), Error<R>> {
        let offset = self.check_in_range(item)?;
        match self.bitmap.allocate(offset) {
            Ok(true) => Ok(()),
            Ok(false) => Err(Error::Allocated),
            Err(text) => Err(Error::Other(text)),
        }
    }

    /// Reserves a free item, the dynamic band first; `Full` when none is left.
    pub fn allocate_next(&mut self, rng: &mut SimRng) -> Result<R::Item, Error<R>> {
        let offset = self.bitmap.allocate_next(rng).ok_or(Error::Full)?;
        Ok(self.range.item_at(offset))
    }

    /// Frees `item`; a free item is a silent no-op. An item outside the range is a no-op too,
    /// which returns the line upstream logs for it, if any (ports only).
    pub fn release(&mut self, item: R::Item) -> Option<String> {
        match self.offset_of(item) {
            Some(offset) => {
                self.bitmap.release(offset);
                None
            }
            None => R::release_outside(item),
        }
    }

    /// `Has`: `item` is in the range and allocated.
    pub fn has(&self, item: R::Item) -> bool {
        self.offset_of(item).is_some_and(|offset| self.bitmap.has(offset))
    }

    /// Allocated items in ascending order (`ForEach`).
    pub fn iter(&self) -> impl Iterator<Item = R::Item> + '_ {
        self.bitmap.iter().map(|offset| self.range.item_at(offset))
    }

    /// Allocated bitmap offsets in ascending order.
    pub fn offsets(&self) -> impl Iterator<Item = usize> + '_ {
        self.bitmap.iter()
    }

    /// The `RangeAllocation` this range would store: its range string and the bitmap bytes.
    pub fn snapshot(&self) -> RangeAllocation {
        let (range, data) = self.bitmap.snapshot();
        RangeAllocation { range, data }
    }

    /// The bitmap's own `Restore`, which checks the range string only: what the storage layer
    /// calls when the stored object moved on (`the provided range does not match the current range`).
    pub(crate) fn restore_raw(&mut self, range_spec: &str, data: &[u8]) -> Result<(), String> {
        self.bitmap.restore(range_spec, data)
    }

    /// `Restore`: `data` taken over `range`, which must print as this range does (for a CIDR:
    /// the same network and mask, whatever host bits it was written with).
    pub fn restore(&mut self, range: &R, data: &[u8]) -> Result<(), Error<R>> {
        let spec = range.canonical().to_string();
        if spec != self.range.to_string() {
            return Err(Error::MismatchedNetwork);
        }
        self.bitmap.restore(&spec, data).map_err(|e| Error::Other(R::restore_failed(e)))
    }
}
