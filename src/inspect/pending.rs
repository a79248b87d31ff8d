//! TEMPORARY: the signatures of `ipallocator::ipaddress::CidrRange` and
//! `repair::repairip::ip_address_verdict` that main is about to get, so that this branch builds
//! until it merges them. Deleted by that merge.
#![allow(dead_code)]

use std::net::IpAddr;

use ipnet::IpNet;

use crate::allocator::ItemRange;
use crate::api::{IpAddress, IpFamily, Service};

fn to_u128(ip: IpAddr) -> u128 {
    match ip {
        IpAddr::V4(v4) => u32::from(v4) as u128,
        IpAddr::V6(v6) => u128::from(v6),
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CidrRange {
    net: IpNet,
    first: u128,
    last: u128,
    band: u128,
}

impl CidrRange {
    pub fn new(net: IpNet) -> Self {
        let net = net.trunc();
        let network = to_u128(net.network());
        let broadcast = to_u128(net.broadcast());
        let last = match net {
            IpNet::V4(_) => broadcast.saturating_sub(1),
            IpNet::V6(_) => broadcast,
        };
        CidrRange { net, first: network + 1, last, band: net.static_band_size() as u128 }
    }
    pub fn ip_at(&self, offset: u128) -> IpAddr {
        match self.net {
            IpNet::V4(_) => IpAddr::V4(std::net::Ipv4Addr::from((self.first + offset) as u32)),
            IpNet::V6(_) => IpAddr::V6(std::net::Ipv6Addr::from(self.first + offset)),
        }
    }
    pub fn size(&self) -> u128 {
        if self.last < self.first { 0 } else { self.last - self.first + 1 }
    }
    pub fn static_band(&self) -> u128 {
        self.band.min(self.size())
    }
    pub fn offset_of(&self, ip: IpAddr) -> Option<u128> {
        let fam = match self.net { IpNet::V4(_) => IpFamily::IPv4, IpNet::V6(_) => IpFamily::IPv6 };
        if fam != IpFamily::of(&ip) {
            return None;
        }
        let v = to_u128(ip);
        (v >= self.first && v <= self.last).then(|| v - self.first)
    }
}

pub const ORPHAN_GRACE_MS: u64 = 60_000;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IpAddressVerdict {
    Unmanaged,
    Ok,
    NotService,
    Orphan { deletable_at_ms: i64 },
    WrongReference,
}

pub fn ip_address_verdict(addr: &IpAddress, parent: Option<&Service>) -> IpAddressVerdict {
    if !addr.managed() {
        return IpAddressVerdict::Unmanaged;
    }
    if !addr.parent.is_service() {
        return IpAddressVerdict::NotService;
    }
    match parent {
        None => IpAddressVerdict::Orphan { deletable_at_ms: addr.created_ms + 60_000 },
        Some(svc) if svc.cluster_ips().contains(&addr.ip.as_str()) => IpAddressVerdict::Ok,
        Some(_) => IpAddressVerdict::WrongReference,
    }
}
