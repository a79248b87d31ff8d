//! A simulated etcd: one keyspace with a global revision, TTL leases and compare-and-swap.
//!
//! Keys follow kube-apiserver's layout without the `/registry` prefix, e.g.
//! `/services/specs/default/kubernetes`, `/masterleases/192.168.10.11`, `/ranges/serviceips`.
//! Reachability is the world's business: etcd itself always runs and its leases always expire
//! on time, even while nobody can reach it.

use std::collections::BTreeMap;

mod key;
pub use key::{Key, Keys, Kind, NsName, RangeName};

use crate::api::{EndpointSlice, Endpoints, IpAddress, Pod, RangeAllocation, Service, ServiceCidr};

/// What a client sees when it cannot reach etcd (client-side timeout).
pub const UNREACHABLE: &str = "context deadline exceeded";

/// The prefix of Service keys (`/registry/services/specs/` upstream), `<namespace>/<name>` after
/// it.
pub const SERVICES: &str = "/services/specs/";
pub(crate) const ENDPOINTS: &str = "/services/endpoints/";
pub(crate) const PODS: &str = "/pods/";
pub(crate) const NAMESPACES: &str = "/namespaces/";
/// The prefix of the master leases (`/registry/masterleases/` upstream), one key per apiserver IP.
pub const MASTER_LEASES: &str = "/masterleases/";
/// The primary ClusterIP range's bitmap (`RangeAllocation`).
pub const RANGE_SERVICE_IPS: &str = "/ranges/serviceips";
/// The secondary (dual-stack) ClusterIP range's bitmap (`RangeAllocation`).
pub const RANGE_SECONDARY_SERVICE_IPS: &str = "/ranges/secondaryserviceips";
/// The NodePort range's bitmap (`RangeAllocation`).
pub const RANGE_NODE_PORTS: &str = "/ranges/servicenodeports";
/// The prefix of ServiceCIDR keys, by name.
pub const SERVICE_CIDRS: &str = "/servicecidrs/";
/// The prefix of IPAddress keys, by address.
pub const IP_ADDRESSES: &str = "/ipaddresses/";
/// The prefix of EndpointSlice keys, `<namespace>/<name>` after it.
pub const ENDPOINT_SLICES: &str = "/endpointslices/";

// The key functions below concatenate rather than `format!`: every request builds its key, and
// formatting was a fifth of a simulated day.

/// A ServiceCIDR's key.
pub fn service_cidr_key(name: &str) -> String {
    [SERVICE_CIDRS, name].concat()
}

/// An IPAddress's key: its name, the address in canonical form.
pub fn ip_address_key(ip: &str) -> String {
    [IP_ADDRESSES, ip].concat()
}

/// An EndpointSlice's key.
pub fn endpoint_slice_key(namespace: &str, name: &str) -> String {
    [ENDPOINT_SLICES, namespace, "/", name].concat()
}

/// A Service's key.
pub fn service_key(namespace: &str, name: &str) -> String {
    [SERVICES, namespace, "/", name].concat()
}

/// An Endpoints object's key.
pub fn endpoints_key(namespace: &str, name: &str) -> String {
    [ENDPOINTS, namespace, "/", name].concat()
}

/// A Pod's key.
pub fn pod_key(namespace: &str, name: &str) -> String {
    [PODS, namespace, "/", name].concat()
}

/// A Namespace's key.
pub fn namespace_key(name: &str) -> String {
    [NAMESPACES, name].concat()
}

/// The master lease key of the apiserver at `ip`.
pub fn lease_key(ip: &str) -> String {
    [MASTER_LEASES, ip].concat()
}

/// What a key holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    /// A Service.
    Service(Service),
    /// An Endpoints object.
    Endpoints(Endpoints),
    /// A Pod.
    Pod(Pod),
    /// A Namespace (its name is its key; nothing else is modelled).
    Namespace,
    /// A master lease: an Endpoints object with one address upstream; `generation` is bumped on
    /// every refresh so that the write (and the TTL) always goes through.
    Lease {
        /// The apiserver IP the lease holds.
        ip: String,
        /// Bumped on every refresh.
        generation: u64,
    },
    /// A range's bitmap (`RangeAllocation`).
    Range(RangeAllocation),
    /// A ServiceCIDR.
    ServiceCidr(ServiceCidr),
    /// An IPAddress.
    IpAddress(IpAddress),
    /// An EndpointSlice.
    EndpointSlice(EndpointSlice),
}

/// The picker of one `Value` variant's payload, for `Etcd::values`.
macro_rules! variant {
    ($variant:path) => {
        |v: &Value| match v {
            $variant(x) => Some(x),
            _ => None,
        }
    };
}

/// A stored key: its value and revision.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The value stored.
    pub value: Value,
    /// The revision of the last write (`resourceVersion`).
    pub mod_revision: u64,
    /// Virtual time at which the key's lease runs out.
    pub(crate) expires_at: Option<u64>,
}

impl Entry {
    fn live(&self, now: u64) -> bool {
        self.expires_at.is_none_or(|t| t > now)
    }
}

/// The loop a request to etcd came from: what the stage colours and shapes its packet by.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Loop {
    /// An apiserver's endpoint reconciler: its lease, the `kubernetes` Endpoints and EndpointSlice.
    EndpointReconciler,
    /// An apiserver's repair loops: the range snapshots and, from 1.33, IPAddress objects.
    Repair,
    /// An API request an apiserver serves: a Service, Pod or ServiceCIDR created or deleted.
    Request,
    /// An apiserver's own bootstrap controllers: the `kubernetes` Service, the system
    /// namespaces, the default ServiceCIDR.
    #[default]
    Bootstrap,
    /// kube-controller-manager: the endpoints controller and the ServiceCIDR controller.
    ControllerManager,
    /// etcd itself, when a lease's TTL runs out.
    Ttl,
    /// The lab writing behind the allocators' back (`corrupt`).
    Lab,
}

/// What happened to one request on the wire.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum WireOp {
    /// A write (create or update).
    Put,
    /// A delete a client asked for.
    Delete,
    /// etcd deleted the key: its lease ran out.
    Expire,
    /// The request never reached etcd (an isolated apiserver, an outage: a client timeout) or
    /// the loop refused to send it (the lease reconciler's refusal to erase every endpoint).
    Bounce,
}

/// One request on the wire, for a UI to draw as a packet from `sender` to `key`: the lab's
/// record of who wrote what (etcd keeps no such log).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Write {
    /// When it was sent (virtual ms).
    pub time_ms: u64,
    /// The key it was about.
    pub key: String,
    /// What happened to it.
    pub op: WireOp,
    /// The apiserver that sent it, `kube-controller-manager`, `etcd` (expiry) or `lab`.
    pub sender: String,
    /// The loop that sent it.
    pub via: Loop,
    /// Why a bounced request did not land (Kubernetes' error text).
    pub reason: Option<String>,
}

/// The sender of `kube-controller-manager`'s writes.
pub const KCM: &str = "kube-controller-manager";

/// The simulated etcd: its keyspace at a global revision, TTLs, and the watch and wire the world
/// and a UI follow.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Etcd {
    revision: u64,
    kv: BTreeMap<String, Entry>,
    /// Keys written or deleted since the world last looked: the watch that informers follow.
    changed: Vec<String>,
    /// The revision of the last write or delete under `/services/specs/` (the repair loops'
    /// input: equal revisions, equal Services).
    services_revision: u64,
    /// Whether anyone follows that watch (1.33+); otherwise no write pays for it.
    watched: bool,
    /// The wire, when a UI draws it: requests since it last took them. `None` (the CLI, the
    /// tests) costs nothing.
    wire: Option<Vec<Write>>,
    /// Who sends the requests made now, and from which loop (kept only while the wire is on).
    sender: (String, Loop),
}

impl Etcd {
    /// The current revision (bumped by every write, delete and expiry).
    pub fn revision(&self) -> u64 {
        self.revision
    }

    /// The revision at which the Services last changed (0: never).
    pub fn services_revision(&self) -> u64 {
        self.services_revision
    }

    /// An etcd whose writes are logged for [`Etcd::take_changes`] when `watched`.
    pub fn new(watched: bool) -> Self {
        Etcd { watched, ..Etcd::default() }
    }

    fn record(&mut self, key: &str, op: WireOp, now: u64) {
        if key.starts_with(SERVICES) {
            self.services_revision = self.revision;
        }
        if self.watched {
            self.changed.push(key.to_string());
        }
        self.send(key, op, now, None);
    }

    fn send(&mut self, key: &str, op: WireOp, now: u64, reason: Option<String>) {
        if let Some(wire) = &mut self.wire {
            let (sender, via) = &self.sender;
            wire.push(Write {
                time_ms: now,
                key: key.to_string(),
                op,
                sender: sender.clone(),
                via: *via,
                reason,
            });
        }
    }

    /// Turns the wire on: from now on requests are kept for [`Etcd::take_wire`].
    pub fn record_wire(&mut self) {
        self.wire.get_or_insert_with(Vec::new);
    }

    /// The requests since the last call, in order (none when the wire is off).
    pub fn take_wire(&mut self) -> Vec<Write> {
        self.wire.as_mut().map(std::mem::take).unwrap_or_default()
    }

    /// The requests made from now on are `sender`'s, from `via`.
    pub fn sending(&mut self, sender: &str, via: Loop) {
        if self.wire.is_some() {
            if self.sender.0 != sender {
                self.sender.0 = sender.to_string();
            }
            self.sender.1 = via;
        }
    }

    /// The requests made from now on come from `via` (same sender).
    pub fn sending_from(&mut self, via: Loop) {
        self.sender.1 = via;
    }

    /// A request to `key` at `now` that did not land, and why.
    pub(crate) fn bounce(&mut self, key: &str, now: u64, reason: &str) {
        self.send(key, WireOp::Bounce, now, Some(reason.to_string()));
    }

    /// The keys written or deleted since the last call, in write order.
    pub fn take_changes(&mut self) -> Vec<String> {
        std::mem::take(&mut self.changed)
    }

    /// The live entry at `key`: an expired key is never returned, even before it is purged.
    pub fn get(&self, key: &str, now: u64) -> Option<&Entry> {
        self.kv.get(key).filter(|e| e.live(now))
    }

    /// Live entries under `prefix`, in key order.
    pub fn list<'a>(
        &'a self,
        prefix: &'a str,
        now: u64,
    ) -> impl Iterator<Item = (&'a String, &'a Entry)> + 'a {
        use std::ops::Bound;
        self.kv
            .range::<str, _>((Bound::Included(prefix), Bound::Unbounded))
            .take_while(move |(k, _)| k.starts_with(prefix))
            .filter(move |(_, e)| e.live(now))
    }

    /// Writes `value`; with `ttl_ms` the key expires at `now + ttl_ms`. Returns the new revision.
    pub fn put(&mut self, key: &str, value: Value, ttl_ms: Option<u64>, now: u64) -> u64 {
        self.revision += 1;
        let entry =
            Entry { value, mod_revision: self.revision, expires_at: ttl_ms.map(|t| now + t) };
        self.kv.insert(key.to_string(), entry);
        self.record(key, WireOp::Put, now);
        self.revision
    }

    /// Writes only if the key's revision is still `expected` (0 = must not exist).
    pub fn compare_and_put(
        &mut self,
        key: &str,
        expected: u64,
        value: Value,
        now: u64,
    ) -> Result<u64, u64> {
        let current = self.get(key, now).map_or(0, |e| e.mod_revision);
        if current != expected {
            return Err(current);
        }
        Ok(self.put(key, value, None, now))
    }

    /// Deletes a live key; false when there was none.
    pub fn delete(&mut self, key: &str, now: u64) -> bool {
        if self.get(key, now).is_none() {
            return false;
        }
        self.kv.remove(key);
        self.revision += 1;
        self.record(key, WireOp::Delete, now);
        true
    }

    /// Purges `key` if its lease ran out by `now` and it was not rewritten since revision
    /// `written_at`; true when it did expire.
    pub fn expire(&mut self, key: &str, written_at: u64, now: u64) -> bool {
        let due = self.kv.get(key).is_some_and(|e| e.mod_revision == written_at && !e.live(now));
        if due {
            self.kv.remove(key);
            self.revision += 1;
            self.record(key, WireOp::Expire, now);
        }
        due
    }

    /// Typed reads of live objects.
    pub fn service(&self, namespace: &str, name: &str, now: u64) -> Option<&Service> {
        match self.get(&service_key(namespace, name), now).map(|e| &e.value) {
            Some(Value::Service(s)) => Some(s),
            _ => None,
        }
    }

    /// The live objects under `prefix` that `pick` recognises, in key order.
    fn values<'a, T>(
        &'a self,
        prefix: &'a str,
        now: u64,
        pick: fn(&Value) -> Option<&T>,
    ) -> Vec<&'a T> {
        self.list(prefix, now).filter_map(|(_, e)| pick(&e.value)).collect()
    }

    /// The live Services, in key order.
    pub fn services(&self, now: u64) -> Vec<&Service> {
        self.values(SERVICES, now, variant!(Value::Service))
    }

    /// The live Endpoints objects, in key order.
    pub fn endpoints(&self, now: u64) -> Vec<&Endpoints> {
        self.values(ENDPOINTS, now, variant!(Value::Endpoints))
    }

    /// The live Pods, in key order.
    pub fn pods(&self, now: u64) -> Vec<&Pod> {
        self.values(PODS, now, variant!(Value::Pod))
    }

    /// The live ServiceCIDRs, in key order.
    pub fn service_cidrs(&self, now: u64) -> Vec<&ServiceCidr> {
        self.values(SERVICE_CIDRS, now, variant!(Value::ServiceCidr))
    }

    /// The live ServiceCIDR called `name`.
    pub fn service_cidr(&self, name: &str, now: u64) -> Option<&ServiceCidr> {
        match self.get(&service_cidr_key(name), now).map(|e| &e.value) {
            Some(Value::ServiceCidr(c)) => Some(c),
            _ => None,
        }
    }

    /// IPAddress objects in key order (not address order: `snapshot` sorts them).
    pub fn ip_addresses(&self, now: u64) -> Vec<&IpAddress> {
        self.values(IP_ADDRESSES, now, variant!(Value::IpAddress))
    }

    /// The live IPAddress of `ip` (canonical form).
    pub fn ip_address(&self, ip: &str, now: u64) -> Option<&IpAddress> {
        match self.get(&ip_address_key(ip), now).map(|e| &e.value) {
            Some(Value::IpAddress(a)) => Some(a),
            _ => None,
        }
    }

    /// The live EndpointSlices, in key order.
    pub fn endpoint_slices(&self, now: u64) -> Vec<&EndpointSlice> {
        self.values(ENDPOINT_SLICES, now, variant!(Value::EndpointSlice))
    }

    /// The names of the live Namespaces, in key order.
    pub fn namespaces(&self, now: u64) -> Vec<String> {
        self.list(NAMESPACES, now).map(|(k, _)| k[NAMESPACES.len()..].to_string()).collect()
    }

    /// The live bitmap at `key`, with its revision (`resourceVersion`).
    pub fn range(&self, key: &str, now: u64) -> Option<(&RangeAllocation, u64)> {
        match self.get(key, now) {
            Some(Entry { value: Value::Range(r), mod_revision, .. }) => Some((r, *mod_revision)),
            _ => None,
        }
    }

    /// The IPs of the live master leases, in key order (what the lease reconciler lists).
    pub fn lease_ips(&self, now: u64) -> Vec<String> {
        self.list(MASTER_LEASES, now)
            .filter_map(|(_, e)| match &e.value {
                Value::Lease { ip, .. } => Some(ip.clone()),
                _ => None,
            })
            .collect()
    }

    /// Live master leases: (key, ip, expires_at).
    pub fn leases(&self, now: u64) -> Vec<(String, String, Option<u64>)> {
        self.list(MASTER_LEASES, now)
            .filter_map(|(k, e)| match &e.value {
                Value::Lease { ip, .. } => Some((k.clone(), ip.clone(), e.expires_at)),
                _ => None,
            })
            .collect()
    }
}
