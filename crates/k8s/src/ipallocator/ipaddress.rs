//! One ServiceCIDR prefix's allocator of IPAddress objects, after `ipallocator/ipallocator.go`
//! (1.33+, `Allocator`): no bitmap of its own; an address is taken when an IPAddress object of
//! that name exists, so the allocator only knows its bounds, its static band and how to scan.

use std::net::IpAddr;

use ipnet::IpNet;

use super::{family_of, ip_to_u128, u128_to_ip};
use crate::allocator::ItemRange;
use crate::rng::SimRng;

/// The usable addresses of one prefix: `first` = network + 1; `last` = the IPv4 broadcast − 1,
/// or the all-ones IPv6 address (an IPv6 prefix has no broadcast).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CidrRange {
    net: IpNet,
    first: u128,
    last: u128,
    /// The static band's size: `calculateRangeOffset`, the same rule as the bitmap's.
    band: u128,
}

impl CidrRange {
    /// The usable addresses of `net` (host bits cleared): without the network address, and for IPv4
    /// without the broadcast address.
    pub fn new(net: IpNet) -> Self {
        let net = net.trunc();
        let network = ip_to_u128(net.network());
        let broadcast = ip_to_u128(net.broadcast());
        let last = match net {
            IpNet::V4(_) => broadcast.saturating_sub(1),
            IpNet::V6(_) => broadcast,
        };
        CidrRange { net, first: network + 1, last, band: net.static_band_size() as u128 }
    }

    /// The prefix, host bits cleared.
    pub fn net(&self) -> IpNet {
        self.net
    }

    /// Usable addresses (0 for a /32 or /31, which have none).
    pub fn size(&self) -> u128 {
        if self.last < self.first {
            0
        } else {
            self.last - self.first + 1
        }
    }

    /// Addresses of the lower, static band (0: no band).
    pub fn static_band(&self) -> u128 {
        self.band.min(self.size())
    }

    /// Within `[first, last]`: what `AllocateService` accepts.
    pub fn contains(&self, ip: IpAddr) -> bool {
        self.offset_of(ip).is_some()
    }

    /// The address's offset from `first`, if usable here.
    pub fn offset_of(&self, ip: IpAddr) -> Option<u128> {
        if family_of(&self.net) != crate::api::IpFamily::of(&ip) {
            return None;
        }
        let v = ip_to_u128(ip);
        (v >= self.first && v <= self.last).then(|| v - self.first)
    }

    /// The address at `offset` from the first usable one.
    pub fn ip_at(&self, offset: u128) -> IpAddr {
        u128_to_ip(family_of(&self.net), self.first + offset)
    }

    /// `allocateNextService`'s scan: a random start in the upper (dynamic) band, ascending with
    /// wrap-around over that band, skipping every address `taken` says exists; then the same in
    /// the lower band. `None` when both are full.
    pub fn next_free(&self, rng: &mut SimRng, taken: impl Fn(IpAddr) -> bool) -> Option<IpAddr> {
        let band = self.static_band();
        let upper = (band, self.size());
        let lower = (0, band);
        [upper, lower].into_iter().find_map(|(from, to)| self.scan(rng, from, to, &taken))
    }

    /// Offsets `[from, to)`, starting at a random one.
    fn scan(
        &self,
        rng: &mut SimRng,
        from: u128,
        to: u128,
        taken: &impl Fn(IpAddr) -> bool,
    ) -> Option<IpAddr> {
        let len = to.checked_sub(from).filter(|&n| n > 0)?;
        let start = random_below(rng, len);
        let mut i = 0;
        while i < len {
            let ip = self.ip_at(from + (start + i) % len);
            if !taken(ip) {
                return Some(ip);
            }
            i += 1;
        }
        None
    }
}

/// Uniform in `[0, n)`: `rand.Int63n` for ranges that fit, the full 64-bit draw beyond.
fn random_below(rng: &mut SimRng, n: u128) -> u128 {
    match usize::try_from(n) {
        Ok(n) => rng.intn(n) as u128,
        Err(_) => (rng.next_u64() as u128) % n,
    }
}
