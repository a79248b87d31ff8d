//! ClusterIP ranges, after `pkg/registry/core/service/ipallocator/{bitmap.go,interfaces.go}`.
//!
//! Offset `i` of the bitmap is the IP `network + 1 + i`: the network address is never usable, the
//! IPv4 broadcast address neither, and an IPv6 range is capped at 65,536 addresses.

pub mod cidrallocator;
pub mod ipaddress;

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use ipnet::IpNet;

use crate::allocator::{self, Allocator, ItemRange};
use crate::api::IpFamily;

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

pub(crate) fn ip_to_u128(ip: IpAddr) -> u128 {
    match ip {
        IpAddr::V4(v4) => u32::from(v4) as u128,
        IpAddr::V6(v6) => u128::from(v6),
    }
}

pub(crate) fn u128_to_ip(family: IpFamily, value: u128) -> IpAddr {
    match family {
        IpFamily::IPv4 => IpAddr::V4(Ipv4Addr::from(value as u32)),
        IpFamily::IPv6 => IpAddr::V6(Ipv6Addr::from(value)),
    }
}

/// The IP family of `cidr`.
pub fn family_of(cidr: &IpNet) -> IpFamily {
    match cidr {
        IpNet::V4(_) => IpFamily::IPv4,
        IpNet::V6(_) => IpFamily::IPv6,
    }
}

/// Parses a CIDR as `netutils.ParseCIDRSloppy` does: the address part is masked to the network,
/// so `10.96.0.5/12` is the range `10.96.0.0/12`. The error text is Go's `net.ParseError`.
pub fn parse_cidr(s: &str) -> Result<IpNet, String> {
    s.parse::<IpNet>().map(|net| net.trunc()).map_err(|_| format!("invalid CIDR address: {s}"))
}

/// `ipallocator.Range`: a CIDR over a bitmap.
pub type Range = Allocator<IpNet>;

/// The errors of `ipallocator/interfaces.go`.
pub type Error = allocator::Error<IpNet>;

/// `network + 1`, where offset 0 lives.
fn base(cidr: &IpNet) -> u128 {
    ip_to_u128(cidr.network()) + 1
}

impl ItemRange for IpNet {
    type Item = IpAddr;
    const ALLOCATED: &'static str = "provided IP is already allocated";
    const MISMATCHED: &'static str = "the provided network does not match the current range";

    fn parse(spec: &str) -> Result<Self, String> {
        parse_cidr(spec)
    }

    fn canonical(self) -> Self {
        self.trunc()
    }

    /// `Range.max`: the IPv6 cap, then neither the IPv4 broadcast address nor the network address.
    fn usable(&self) -> usize {
        let mut max = range_size(self);
        match self {
            IpNet::V6(_) => max = max.min(65536),
            IpNet::V4(_) => max -= 1,
        }
        (max - 1).max(0) as usize
    }

    /// `min(max(16, size/16), 256)` on the full CIDR size, and 0 (no band) for ranges of at
    /// most 16 addresses.
    fn static_band_size(&self) -> usize {
        const MIN: i64 = 16;
        const MAX: i64 = 256;
        const STEP: i64 = 16;
        let size = range_size(self);
        if size <= MIN {
            0
        } else {
            (size / STEP).clamp(MIN, MAX) as usize
        }
    }

    fn offset_of(&self, ip: IpAddr) -> Option<usize> {
        if !self.contains(&ip) {
            return None;
        }
        // `calculateIPOffset` converts the big.Int difference with Int64(), keeping its low 64 bits.
        let offset = ip_to_u128(ip).wrapping_sub(base(self)) as u64 as i64;
        (offset >= 0 && (offset as u64) < self.usable() as u64).then_some(offset as usize)
    }

    /// `network + 1 + offset`.
    fn item_at(&self, offset: usize) -> IpAddr {
        u128_to_ip(family_of(self), base(self).wrapping_add(offset as u128))
    }

    /// 1.20/1.21's `ErrNotInRange` is a plain `errors.New`-style text without the IP; the
    /// `ErrNotInRange{IP, ValidRange}` type of `bitmap.go` adds it.
    fn not_in_range(ip: IpAddr, valid: &str, legacy: bool) -> String {
        if legacy {
            format!("provided IP is not in the valid range. The range of valid IPs is {valid}")
        } else {
            format!(
                "the provided IP ({ip}) is not in the valid range. The range of valid IPs is {valid}"
            )
        }
    }

    fn restore_failed(e: String) -> String {
        format!("restoring snapshot encountered {e}")
    }
}

impl Range {
    /// The CIDR it allocates from, host bits cleared.
    pub fn cidr(&self) -> IpNet {
        self.range()
    }

    /// The IP family of its CIDR.
    pub fn family(&self) -> IpFamily {
        family_of(&self.range())
    }

    /// The IP at bitmap offset `offset`.
    pub fn ip_at(&self, offset: usize) -> IpAddr {
        self.range().item_at(offset)
    }
}
