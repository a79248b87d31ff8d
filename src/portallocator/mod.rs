//! NodePort ranges, after `pkg/registry/core/service/portallocator/allocator.go` and
//! `k8s.io/apimachinery/pkg/util/net/port_range.go`.

use std::fmt;

use crate::allocator::{AllocationBitmap, Strategy};
use crate::api::{Behavior, RangeAllocation};
use crate::rng::SimRng;

/// The errors of `portallocator`, with their texts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Error {
    Full,
    Allocated,
    MismatchedNetwork,
    NotInRange { valid_ports: String },
    Other(String),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Full => f.write_str("range is full"),
            Error::Allocated => f.write_str("provided port is already allocated"),
            Error::MismatchedNetwork => {
                f.write_str("the provided port range does not match the current port range")
            }
            Error::NotInRange { valid_ports } => write!(
                f,
                "provided port is not in the valid range. The range of valid ports is {valid_ports}"
            ),
            Error::Other(text) => f.write_str(text),
        }
    }
}

impl std::error::Error for Error {}

/// `utilnet.PortRange`: `size` ports from `base`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PortRange {
    pub base: i32,
    pub size: i32,
}

impl PortRange {
    pub const DEFAULT: PortRange = PortRange {
        base: 30000,
        size: 2768,
    };

    pub fn contains(&self, port: i32) -> bool {
        port >= self.base && port - self.base < self.size
    }

    /// Parses `a-b`, `a` and `a+n` (meaning `a` to `a+n`), with apimachinery's error texts.
    /// An empty string is the empty range.
    pub fn parse(value: &str) -> Result<PortRange, String> {
        let value = value.trim();
        if value.is_empty() {
            return Ok(PortRange { base: 0, size: 0 });
        }
        let (low, high) = match (value.find('-'), value.find('+')) {
            (None, None) => {
                let port = go_atoi(value)?;
                (port, port)
            }
            (Some(h), None) => (go_atoi(&value[..h])?, go_atoi(&value[h + 1..])?),
            (None, Some(p)) => {
                let low = go_atoi(&value[..p])?;
                (low, low.saturating_add(go_atoi(&value[p + 1..])?))
            }
            (Some(_), Some(_)) => return Err(format!("unable to parse port range: {value}")),
        };
        if low > 65535 || high > 65535 {
            return Err(format!(
                "the port range cannot be greater than 65535: {value}"
            ));
        }
        if high < low {
            return Err(format!("end port cannot be less than start port: {value}"));
        }
        // `low` cannot be negative: a sign before it would be a second hyphen or a plus.
        Ok(PortRange {
            base: low as i32,
            size: (1 + high - low) as i32,
        })
    }
}

/// `strconv.Atoi`: an optional sign and decimal digits, with Go's error texts.
fn go_atoi(s: &str) -> Result<i64, String> {
    let digits = s.strip_prefix(['+', '-']).unwrap_or(s);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("strconv.Atoi: parsing {s:?}: invalid syntax"));
    }
    s.parse::<i64>()
        .map_err(|_| format!("strconv.Atoi: parsing {s:?}: value out of range"))
}

impl fmt::Display for PortRange {
    /// `a-b`, or the empty string for an empty range.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.size == 0 {
            return Ok(());
        }
        write!(f, "{}-{}", self.base, self.base + self.size - 1)
    }
}

/// `calculateRangeOffset` for ports: `min(max(16, size/32), 128)`, 0 for at most 16 ports.
pub fn static_band_size(range: &PortRange) -> usize {
    const MIN: i32 = 16;
    const MAX: i32 = 128;
    const STEP: i32 = 32;
    if range.size <= MIN {
        0
    } else {
        (range.size / STEP).clamp(MIN, MAX) as usize
    }
}

/// `PortAllocator`: a port range over a bitmap; offset `i` is port `base + i`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PortAllocator {
    range: PortRange,
    alloc: AllocationBitmap,
}

impl PortAllocator {
    /// `NewInMemory`, with the band split of `behavior`.
    pub fn new(range: PortRange, behavior: Behavior) -> Self {
        let strategy = if behavior.static_bands() {
            Strategy::RandomScanWithOffset(static_band_size(&range))
        } else {
            Strategy::RandomScan
        };
        PortAllocator {
            alloc: AllocationBitmap::new(range.size.max(0) as usize, range.to_string(), strategy),
            range,
        }
    }

    /// `NewFromSnapshot`: an allocator over the snapshot's own range, restored.
    pub fn from_snapshot(snapshot: &RangeAllocation, behavior: Behavior) -> Result<Self, Error> {
        let range = PortRange::parse(&snapshot.range).map_err(Error::Other)?;
        let mut alloc = PortAllocator::new(range, behavior);
        alloc.restore(&range, &snapshot.data)?;
        Ok(alloc)
    }

    pub fn range(&self) -> PortRange {
        self.range
    }

    pub fn size(&self) -> usize {
        self.alloc.max()
    }

    pub fn static_band(&self) -> usize {
        self.alloc.static_band()
    }

    pub fn free(&self) -> i64 {
        self.alloc.free()
    }

    pub fn used(&self) -> i64 {
        self.size() as i64 - self.free()
    }

    pub fn offset_of(&self, port: i32) -> Option<usize> {
        self.range
            .contains(port)
            .then(|| (port - self.range.base) as usize)
    }

    pub fn port_at(&self, offset: usize) -> i32 {
        self.range.base + offset as i32
    }

    pub fn allocate(&mut self, port: i32) -> Result<(), Error> {
        let offset = self.offset_of(port).ok_or_else(|| Error::NotInRange {
            valid_ports: self.range.to_string(),
        })?;
        match self.alloc.allocate(offset) {
            Ok(true) => Ok(()),
            Ok(false) => Err(Error::Allocated),
            Err(text) => Err(Error::Other(text)),
        }
    }

    pub fn allocate_next(&mut self, rng: &mut SimRng) -> Result<i32, Error> {
        let offset = self.alloc.allocate_next(rng).ok_or(Error::Full)?;
        Ok(self.port_at(offset))
    }

    /// Frees `port`. Upstream logs `port is not in the range when release it. port: <p>` for a
    /// port outside the range and returns no error; the text is returned here for the caller's log.
    pub fn release(&mut self, port: i32) -> Option<String> {
        match self.offset_of(port) {
            Some(offset) => {
                self.alloc.release(offset);
                None
            }
            None => Some(format!(
                "port is not in the range when release it. port: {port}"
            )),
        }
    }

    pub fn has(&self, port: i32) -> bool {
        self.offset_of(port)
            .is_some_and(|offset| self.alloc.has(offset))
    }

    /// Allocated ports in ascending order (`ForEach`).
    pub fn iter(&self) -> impl Iterator<Item = i32> + '_ {
        self.alloc.iter().map(|offset| self.port_at(offset))
    }

    pub fn offsets(&self) -> impl Iterator<Item = usize> + '_ {
        self.alloc.iter()
    }

    pub fn snapshot(&self) -> RangeAllocation {
        let (range, data) = self.alloc.snapshot();
        RangeAllocation { range, data }
    }

    /// The bitmap's own `Restore` (range string compare), as the storage layer calls it.
    pub fn restore_raw(&mut self, range_spec: &str, data: &[u8]) -> Result<(), String> {
        self.alloc.restore(range_spec, data)
    }

    /// Restores `data` taken over `range`, which must print as this allocator's range.
    pub fn restore(&mut self, range: &PortRange, data: &[u8]) -> Result<(), Error> {
        if range.to_string() != self.range.to_string() {
            return Err(Error::MismatchedNetwork);
        }
        self.alloc
            .restore(&range.to_string(), data)
            .map_err(Error::Other)
    }
}
