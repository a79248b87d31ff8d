//! The MetaAllocator of `ipallocator/cidrallocator.go` (1.33+): one allocator per distinct
//! ServiceCIDR prefix of a family, shared by every ServiceCIDR that names that prefix, ready
//! when at least one of them is. It decides which prefix serves a request; the writes (the
//! IPAddress object, 1.33's bitmap copy) are the registry's.
//!
//! Upstream keeps its allocators in a Go map and tries them in map order, which is random; the
//! lab draws that order from the seeded PRNG instead.

use std::fmt;
use std::net::IpAddr;

use ipnet::IpNet;

use super::family_of;
use super::ipaddress::CidrRange;
use crate::api::{IpFamily, ServiceCidr};
use crate::rng::SimRng;

/// The errors of `interfaces.go` as the IPAddress allocators raise them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Error {
    /// `ErrFull`: no free address is left in any ready prefix.
    Full,
    /// `ErrAllocated`: an IPAddress of that address exists already.
    Allocated,
    /// `ErrMismatchedNetwork`: no (ready) prefix of the ServiceCIDRs contains the address.
    MismatchedNetwork,
    /// The allocator has not synced (`allocator not ready`); the lab's caches always are, so
    /// nothing in the model raises it.
    NotReady,
    /// The address is outside the range; nothing in the model raises it (`allocator_for` answers
    /// `MismatchedNetwork`).
    NotInRange(IpAddr),
    /// Anything else, with its text (1.33's bitmap refusal, a storage error).
    Other(String),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Full => f.write_str("range is full"),
            Error::Allocated => f.write_str("provided IP is already allocated"),
            Error::MismatchedNetwork => {
                f.write_str("the provided network does not match the current range")
            }
            Error::NotReady => f.write_str("allocator not ready"),
            Error::NotInRange(ip) => write!(f, "provided IP {ip} is not in the valid range"),
            Error::Other(text) => f.write_str(text),
        }
    }
}

/// One prefix's allocator and whether it takes allocations.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Item {
    /// The prefix, with its usable addresses and static band.
    pub range: CidrRange,
    /// Some ServiceCIDR naming this prefix is ready (or has no condition yet) and not deleting.
    pub ready: bool,
    /// The ServiceCIDRs that name it, by name.
    pub service_cidrs: Vec<String>,
}

/// `syncAllocators`: the allocators of `family` that `cidrs` define, by prefix.
pub fn allocators(cidrs: &[&ServiceCidr], family: IpFamily) -> Vec<Item> {
    let mut items: Vec<Item> = Vec::new();
    for sc in cidrs {
        for net in sc.prefixes() {
            if family_of(&net) != family {
                continue;
            }
            match items.iter_mut().find(|i| i.range.net() == net) {
                Some(item) => {
                    item.ready |= sc.allocatable();
                    item.service_cidrs.push(sc.name.clone());
                }
                None => items.push(Item {
                    range: CidrRange::new(net),
                    ready: sc.allocatable(),
                    service_cidrs: vec![sc.name.clone()],
                }),
            }
        }
    }
    items.sort_by_key(|i| i.range.net());
    items
}

/// `getAllocator`: the first allocator (by prefix; upstream: in map order) that contains `ip`,
/// a ready one when `ready`. Containment is `PrefixContainsIP`'s: neither the network address
/// nor the IPv4 broadcast address counts.
pub fn allocator_for(items: &[Item], ip: IpAddr, ready: bool) -> Result<&Item, Error> {
    items
        .iter()
        .find(|i| i.range.contains(ip) && (i.ready || !ready))
        .ok_or(Error::MismatchedNetwork)
}

/// `AllocateNextService`'s order: the ready allocators, starting at a seeded random one.
pub fn dynamic_order<'a>(items: &'a [Item], rng: &mut SimRng) -> Vec<&'a Item> {
    let ready: Vec<&Item> = items.iter().filter(|i| i.ready).collect();
    if ready.is_empty() {
        return ready;
    }
    let start = rng.intn(ready.len());
    ready.iter().cycle().skip(start).take(ready.len()).copied().collect()
}

/// Whether `ip` lies in any ServiceCIDR of `cidrs` (terminating ones included): RepairIPAddress's
/// `isIPOutOfRange` is its negation.
pub fn within_any(cidrs: &[&ServiceCidr], ip: IpAddr) -> bool {
    cidrs.iter().flat_map(|sc| sc.prefixes()).any(|net: IpNet| CidrRange::new(net).contains(ip))
}
