//! ClusterIP ranges, after `pkg/registry/core/service/ipallocator/{bitmap.go,interfaces.go}`.
//!
//! Offset `i` of the bitmap is the IP `network + 1 + i`: the network address is never usable, the
//! IPv4 broadcast address neither, and an IPv6 range is capped at 65,536 addresses.

use std::fmt;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use ipnet::IpNet;

use crate::allocator::{AllocationBitmap, Strategy};
use crate::api::{Behavior, IpFamily, RangeAllocation};
use crate::rng::SimRng;

/// The errors of `ipallocator/interfaces.go`, with their texts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Error {
    Full,
    Allocated,
    MismatchedNetwork,
    NotInRange {
        ip: IpAddr,
        valid_range: String,
    },
    /// Anything else (a restore failure, a bitmap error): its text as upstream wraps it.
    Other(String),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Full => f.write_str("range is full"),
            Error::Allocated => f.write_str("provided IP is already allocated"),
            Error::MismatchedNetwork => f.write_str("the provided network does not match the current range"),
            Error::NotInRange { ip, valid_range } => write!(
                f,
                "the provided IP ({ip}) is not in the valid range. The range of valid IPs is {valid_range}"
            ),
            Error::Other(text) => f.write_str(text),
        }
    }
}

impl std::error::Error for Error {}

/// `k8s.io/utils/net.RangeSize`: the number of addresses of a CIDR, 0 for the (unsupported)
/// IPv4 /0 and /1 and IPv6 /0 and /1, and `i64::MAX` when it would not fit in 63 bits.
pub fn range_size(cidr: &IpNet) -> i64 {
    let bits = cidr.max_prefix_len() as u32;
    let host = bits - cidr.prefix_len() as u32;
    if (bits == 32 && host >= 31) || (bits == 128 && host >= 127) {
        0
    } else if host >= 63 {
        i64::MAX
    } else {
        1 << host
    }
}

/// `calculateRangeOffset`: the static band, `min(max(16, size/16), 256)` on the full CIDR size,
/// and 0 (no band) for ranges of at most 16 addresses.
pub fn static_band_size(cidr: &IpNet) -> usize {
    const MIN: i64 = 16;
    const MAX: i64 = 256;
    const STEP: i64 = 16;
    let size = range_size(cidr);
    if size <= MIN {
        0
    } else {
        (size / STEP).clamp(MIN, MAX) as usize
    }
}

/// The number of usable addresses of a CIDR (`Range.max`).
pub fn usable_size(cidr: &IpNet) -> usize {
    let mut max = range_size(cidr);
    match cidr {
        IpNet::V6(_) => max = max.min(65536),
        IpNet::V4(_) => max -= 1, // the broadcast address
    }
    (max - 1).max(0) as usize // the network address
}

pub(crate) fn ip_to_u128(ip: IpAddr) -> u128 {
    match ip {
        IpAddr::V4(v4) => u32::from(v4) as u128,
        IpAddr::V6(v6) => u128::from(v6),
    }
}

fn u128_to_ip(family: IpFamily, value: u128) -> IpAddr {
    match family {
        IpFamily::IPv4 => IpAddr::V4(Ipv4Addr::from(value as u32)),
        IpFamily::IPv6 => IpAddr::V6(Ipv6Addr::from(value)),
    }
}

pub fn family_of(cidr: &IpNet) -> IpFamily {
    match cidr {
        IpNet::V4(_) => IpFamily::IPv4,
        IpNet::V6(_) => IpFamily::IPv6,
    }
}

/// Parses a CIDR as `netutils.ParseCIDRSloppy` does: the address part is masked to the network,
/// so `10.96.0.5/12` is the range `10.96.0.0/12`. The error text is Go's `net.ParseError`.
pub fn parse_cidr(s: &str) -> Result<IpNet, String> {
    s.parse::<IpNet>()
        .map(|net| net.trunc())
        .map_err(|_| format!("invalid CIDR address: {s}"))
}

/// `ipallocator.Range`: a CIDR over a bitmap.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Range {
    cidr: IpNet,
    /// `network + 1`, where offset 0 lives.
    base: u128,
    family: IpFamily,
    alloc: AllocationBitmap,
}

impl Range {
    /// `NewInMemory`: an empty range over `cidr` (masked to its network), with the band split of
    /// `behavior`.
    pub fn new(cidr: IpNet, behavior: Behavior) -> Self {
        let cidr = cidr.trunc();
        let max = usable_size(&cidr);
        let strategy = if behavior.static_bands() {
            Strategy::RandomScanWithOffset(static_band_size(&cidr))
        } else {
            Strategy::RandomScan
        };
        Range {
            base: ip_to_u128(cidr.network()) + 1,
            family: family_of(&cidr),
            alloc: AllocationBitmap::new(max, cidr.to_string(), strategy),
            cidr,
        }
    }

    /// `NewFromSnapshot`: a range over the snapshot's own CIDR (not the configured one), restored.
    pub fn from_snapshot(snapshot: &RangeAllocation, behavior: Behavior) -> Result<Self, Error> {
        let cidr = parse_cidr(&snapshot.range).map_err(Error::Other)?;
        let mut range = Range::new(cidr, behavior);
        range.restore(&cidr, &snapshot.data)?;
        Ok(range)
    }

    pub fn cidr(&self) -> IpNet {
        self.cidr
    }

    pub fn family(&self) -> IpFamily {
        self.family
    }

    /// Number of usable addresses.
    pub fn size(&self) -> usize {
        self.alloc.max()
    }

    /// Size of the static (lower) band; 0 under behaviour 1.20.
    pub fn static_band(&self) -> usize {
        self.alloc.static_band()
    }

    pub fn free(&self) -> i64 {
        self.alloc.free()
    }

    pub fn used(&self) -> i64 {
        self.size() as i64 - self.free()
    }

    /// The bitmap offset of `ip`, if it is a usable address of this range (`contains`).
    pub fn offset_of(&self, ip: IpAddr) -> Option<usize> {
        if !self.cidr.contains(&ip) {
            return None;
        }
        // Upstream converts the big.Int difference with Int64(), keeping its low 64 bits.
        let offset = ip_to_u128(ip).wrapping_sub(self.base) as u64 as i64;
        (offset >= 0 && (offset as u64) < self.size() as u64).then_some(offset as usize)
    }

    /// The IP at bitmap offset `offset` (`network + 1 + offset`).
    pub fn ip_at(&self, offset: usize) -> IpAddr {
        u128_to_ip(self.family, self.base.wrapping_add(offset as u128))
    }

    /// Reserves `ip`: `NotInRange` outside the usable addresses, `Allocated` when taken.
    /// Never `Full`: a full range still answers per IP.
    pub fn allocate(&mut self, ip: IpAddr) -> Result<(), Error> {
        let offset = self.offset_of(ip).ok_or_else(|| Error::NotInRange {
            ip,
            valid_range: self.cidr.to_string(),
        })?;
        match self.alloc.allocate(offset) {
            Ok(true) => Ok(()),
            Ok(false) => Err(Error::Allocated),
            Err(text) => Err(Error::Other(text)),
        }
    }

    /// Reserves a free IP, the dynamic band first; `Full` when none is left.
    pub fn allocate_next(&mut self, rng: &mut SimRng) -> Result<IpAddr, Error> {
        let offset = self.alloc.allocate_next(rng).ok_or(Error::Full)?;
        Ok(self.ip_at(offset))
    }

    /// Frees `ip`; an IP outside the range or not allocated is a silent no-op.
    pub fn release(&mut self, ip: IpAddr) {
        if let Some(offset) = self.offset_of(ip) {
            self.alloc.release(offset);
        }
    }

    pub fn has(&self, ip: IpAddr) -> bool {
        self.offset_of(ip)
            .is_some_and(|offset| self.alloc.has(offset))
    }

    /// Allocated IPs in ascending order (`ForEach`).
    pub fn iter(&self) -> impl Iterator<Item = IpAddr> + '_ {
        self.alloc.iter().map(|offset| self.ip_at(offset))
    }

    /// Allocated bitmap offsets in ascending order.
    pub fn offsets(&self) -> impl Iterator<Item = usize> + '_ {
        self.alloc.iter()
    }

    /// The `RangeAllocation` this range would store: its CIDR and the bitmap bytes.
    pub fn snapshot(&self) -> RangeAllocation {
        let (range, data) = self.alloc.snapshot();
        RangeAllocation { range, data }
    }

    /// The bitmap's own `Restore`, which checks the range string only: what the storage layer
    /// calls when the stored object moved on (`the provided range does not match the current range`).
    pub fn restore_raw(&mut self, range_spec: &str, data: &[u8]) -> Result<(), String> {
        self.alloc.restore(range_spec, data)
    }

    /// Restores `data` taken over `cidr`, which must be this range's network and mask.
    pub fn restore(&mut self, cidr: &IpNet, data: &[u8]) -> Result<(), Error> {
        if cidr.network() != self.cidr.network() || cidr.prefix_len() != self.cidr.prefix_len() {
            return Err(Error::MismatchedNetwork);
        }
        self.alloc
            .restore(&cidr.trunc().to_string(), data)
            .map_err(|e| Error::Other(format!("restoring snapshot encountered {e}")))
    }
}
