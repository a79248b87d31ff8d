//! kube-proxy's copy of the `kubernetes` EndpointSlice on one node (`pkg/proxy`, iptables mode).
//!
//! What it models (`clients-view.md` §2): the informer delivers each slice change after a watch
//! delay; `OnEndpointSliceUpdate` asks the bounded-frequency runner for a sync, which runs
//! `syncProxyRules` at once if `minSyncPeriod` (1 s) has passed since the last sync *started*,
//! else when it has (as kube-proxy was seen to count it, kubernetes#138073; the runner documents
//! end to start from 1.34, PR #131615, and up to 1.33 allowed a burst of two); the rules take effect when `iptables-restore` returns. A new connection
//! to the Service then picks one listed endpoint uniformly (`-m statistic --mode random
//! --probability 1/(n−i)`), or is REJECTed when none is listed. Established TCP flows keep
//! their conntrack entry whatever the rules become (`CleanStaleEntries` is UDP-only).
//!
//! Left out: IPVS and nftables, topology, the 30 s `syncPeriod` resync (it never delays a
//! change), and any failure of `iptables-restore`.

use crate::rng::SimRng;

/// `iptables.minSyncPeriod`'s default (`pkg/proxy/apis/config/v1alpha1/defaults.go`), counted
/// here start to start.
pub const MIN_SYNC_PERIOD_MS: u64 = 1_000;
/// The informer's watch delivery, slice write to handler: 10–100 ms (the research note's
/// estimate for a normal cluster, [INF]).
pub const WATCH_DELIVERY_MS: (u64, u64) = (10, 100);
/// `iptables-restore` on a small cluster: 10–500 ms ([PR] #138073 measured 2.8 s at 139 k
/// endpoints).
pub const APPLY_MS: (u64, u64) = (10, 500);

/// A uniform whole number of ms in `[lo, hi]` from the one seeded stream.
pub fn draw_ms(rng: &mut SimRng, (lo, hi): (u64, u64)) -> u64 {
    lo + rng.intn((hi - lo + 1) as usize) as u64
}

/// One node's kube-proxy: the ready addresses its rules send new connections to, and its
/// bounded-frequency runner.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Proxy {
    /// The addresses its iptables rules list now, in the slice's order.
    pub listed: Vec<String>,
    /// The addresses its informer has delivered (what the next sync will write).
    pub seen: Vec<String>,
    /// When the last sync started.
    pub last_sync_start: Option<u64>,
    /// When the sync under way ends (its rules applied), if one is.
    pub busy_until: Option<u64>,
    /// When the next sync is due, if one is asked for.
    pub sync_due: Option<u64>,
    /// When the last delivery reached the handler (deliveries keep the watch's order).
    pub last_delivery: u64,
    /// A fixed apply time for this node (a slow kube-proxy), instead of a drawn one.
    pub apply_ms: Option<u64>,
}

impl Proxy {
    /// A kube-proxy that listed `addresses` at its start.
    pub fn new(addresses: Vec<String>, apply_ms: Option<u64>) -> Proxy {
        Proxy { listed: addresses.clone(), seen: addresses, apply_ms, ..Proxy::default() }
    }

    /// When a change written at `now` reaches the handler: after the watch delay, never before
    /// an earlier change (a watch delivers in order).
    pub fn delivery_at(&mut self, now: u64, rng: &mut SimRng) -> u64 {
        let at = (now + draw_ms(rng, WATCH_DELIVERY_MS)).max(self.last_delivery);
        self.last_delivery = at;
        at
    }

    /// The handler got `addresses` at `now`: returns when a sync must be queued (`None` when
    /// one is already due, which will read them).
    pub fn deliver(&mut self, addresses: Vec<String>, now: u64) -> Option<u64> {
        self.seen = addresses;
        if self.sync_due.is_some() {
            return None;
        }
        let earliest = self.last_sync_start.map_or(now, |s| s + MIN_SYNC_PERIOD_MS);
        let at = now.max(earliest).max(self.busy_until.unwrap_or(0));
        self.sync_due = Some(at);
        Some(at)
    }

    /// `syncProxyRules` starts at `now` with what was delivered: returns when its rules are in
    /// place and which addresses they list.
    pub fn start_sync(&mut self, now: u64, rng: &mut SimRng) -> (u64, Vec<String>) {
        self.sync_due = None;
        self.last_sync_start = Some(now);
        let done = now + self.apply_ms.unwrap_or_else(|| draw_ms(rng, APPLY_MS));
        self.busy_until = Some(done);
        (done, self.seen.clone())
    }

    /// The rules written by a sync are in place.
    pub fn applied(&mut self, addresses: Vec<String>, now: u64) {
        self.listed = addresses;
        if self.busy_until.is_some_and(|t| t <= now) {
            self.busy_until = None;
        }
    }

    /// The endpoint a new connection is DNAT'ed to: uniform over the listed ones (the chain of
    /// `1/(n−i)` rules), `None` for the REJECT rule of a Service without endpoints. It draws
    /// from the stream only when there is a choice.
    pub fn pick(&self, rng: &mut SimRng) -> Option<&str> {
        match self.listed.len() {
            0 => None,
            1 => Some(&self.listed[0]),
            n => Some(&self.listed[rng.intn(n)]),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sync_waits_for_min_sync_period_from_the_last_start() {
        let mut p = Proxy::new(vec!["a".into()], Some(100));
        assert_eq!(p.deliver(vec!["a".into(), "b".into()], 1_000), Some(1_000));
        let mut rng = SimRng::new(1);
        let (done, list) = p.start_sync(1_000, &mut rng);
        assert_eq!((done, list.len()), (1_100, 2));
        // A change 300 ms after the start waits until 1 s after it.
        assert_eq!(p.deliver(vec!["b".into()], 1_300), Some(2_000));
        p.applied(list, 1_100);
        assert_eq!(p.listed.len(), 2);
    }

    #[test]
    fn no_endpoint_is_a_reject() {
        let p = Proxy::new(vec![], None);
        assert_eq!(p.pick(&mut SimRng::new(1)), None);
    }

    #[test]
    fn deliveries_keep_their_order() {
        let mut p = Proxy::default();
        let mut rng = SimRng::new(3);
        let a = p.delivery_at(1_000, &mut rng);
        let b = p.delivery_at(1_000, &mut rng);
        assert!(b >= a && (1_010..=1_100).contains(&a));
    }
}
