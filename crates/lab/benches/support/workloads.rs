//! Fixed workloads shared by the native benchmarks (`cargo bench`) and the same figures taken in
//! headless Chromium, so both measure exactly the same work. Each returns a checksum so that the
//! optimiser cannot drop the work and callers can check both builds computed the same thing.
//!
//! Not part of the library: the benches and the tests that share these figures include this
//! file (`#[path]`), and it reaches the model through the crates beneath the lab.
#![allow(dead_code)] // each includer uses a few of these

use ipnet::IpNet;

use engine::contract::api::{
    Behavior, IpAddress, ParentReference, RangeAllocation, Service, ServiceCidr,
};
use engine::contract::event::Recorder;
use engine::contract::scenario::{self, Scenario};
use import::kubectl;
use k8s::controlplane::Apiserver;
use k8s::etcd::{self, Etcd, Value};
use k8s::ipallocator::ipaddress::CidrRange;
use k8s::ipallocator::Range;
use k8s::registry::Storage;
use k8s::repair::repairip;
use k8s::repair::ClusterIpRepair;
use k8s::rng::SimRng;
use k8s::servicecidrs::READY_MESSAGE as KCM_READY_MESSAGE;

fn cidr(s: &str) -> IpNet {
    s.parse().expect("workload CIDR")
}

/// AllocateNext until the range is full; returns how many IPs were handed out.
pub fn fill(range_cidr: &str, seed: u64) -> u64 {
    let mut range = Range::new(cidr(range_cidr), Behavior::V1_29);
    let mut rng = SimRng::new(seed);
    let mut n = 0;
    while range.allocate_next(&mut rng).is_ok() {
        n += 1;
    }
    n
}

/// A /16 filled to `percent` %, then `ops` rounds of release-a-random-IP / AllocateNext.
/// Returns the sum of the offsets handed out.
pub fn churn(percent: u64, ops: u64, seed: u64) -> u64 {
    let mut range = Range::new(cidr("10.0.0.0/16"), Behavior::V1_29);
    let mut rng = SimRng::new(seed);
    let target = range.size() as u64 * percent / 100;
    let mut held = Vec::with_capacity(target as usize);
    while (held.len() as u64) < target {
        held.push(range.allocate_next(&mut rng).expect("below full"));
    }
    let mut sum = 0u64;
    for _ in 0..ops {
        let i = rng.intn(held.len());
        range.release(held[i]);
        let ip = range.allocate_next(&mut rng).expect("one was just freed");
        sum += range.offset_of(ip).unwrap_or(0) as u64;
        held[i] = ip;
    }
    sum
}

/// A stored /12 snapshot and `n` services holding distinct IPs of it (every 7th one missing from
/// the snapshot, plus `n / 100` leaked bits), ready for one repair run.
pub fn repair_setup(n: usize) -> (RangeAllocation, Vec<Service>) {
    let net = cidr("10.96.0.0/12");
    let mut stored = Range::new(net, Behavior::V1_29);
    let mut services = Vec::with_capacity(n);
    for i in 0..n {
        let ip = stored.ip_at(i * 3);
        if i % 7 != 0 {
            stored.allocate(ip).expect("fresh IP");
        }
        services.push(Service {
            namespace: format!("ns-{:03}", i % 100),
            name: format!("svc-{i:06}"),
            cluster_ip: ip.to_string(),
            ..Service::default()
        });
    }
    for i in 0..n / 100 {
        stored.allocate(stored.ip_at(i * 3 + 1)).expect("fresh IP");
    }
    services.sort_by(|a, b| (&a.namespace, &a.name).cmp(&(&b.namespace, &b.name)));
    (stored.snapshot(), services)
}

/// One ClusterIP repair run; returns the number of IPs it stored and the events it recorded.
pub fn repair_run(snapshot: &RangeAllocation, services: &[Service]) -> (u64, usize) {
    let mut repair = ClusterIpRepair::new(vec![cidr("10.96.0.0/12")], Behavior::V1_29);
    let mut rec = Recorder::new(0, "bench");
    let written =
        repair.run_once(std::slice::from_ref(snapshot), services, &mut rec).expect("repair run");
    let range = Range::from_snapshot(&written[0], Behavior::V1_29).expect("written snapshot");
    (range.used() as u64, rec.events.len())
}

/// A cluster of `apiservers` lease-reconciled apiservers on a /12 with `services` ClusterIP
/// Services (IPs already allocated), as scenario JSON, for the control-plane benchmarks.
pub fn control_plane_scenario(apiservers: usize, services: usize) -> Scenario {
    control_plane_scenario_on("10.96.0.0/12", apiservers, services)
}

/// [`control_plane_scenario`] on another `--service-cluster-ip-range` (it must hold
/// `1000 + services` IPs).
pub fn control_plane_scenario_on(range: &str, apiservers: usize, services: usize) -> Scenario {
    let net = cidr(range);
    let mut stored = Range::new(net, Behavior::V1_29);
    let kubernetes = stored.ip_at(0);
    stored.allocate(kubernetes).expect("fresh");
    let svcs: Vec<serde_json::Value> = (0..services)
        .map(|i| {
            let ip = stored.ip_at(1000 + i);
            stored.allocate(ip).expect("fresh");
            serde_json::json!({"namespace": "default", "name": format!("svc-{i:05}"), "cluster_ip": ip.to_string(),
                "ports": [{"port": 80}]})
        })
        .collect();
    let allocated: Vec<String> = stored.iter().map(|ip| ip.to_string()).collect();
    let servers: Vec<serde_json::Value> = (0..apiservers)
        .map(|i| serde_json::json!({"name": format!("apiserver-{i}"), "advertise_address": format!("192.168.10.{}", 11 + i)}))
        .collect();
    let file = serde_json::json!({
        "name": "bench", "seed": 1,
        "cluster": {"service_cluster_ip_range": range, "apiservers": servers},
        "initial": {"namespaces": ["default"], "services": svcs,
            "cluster_ip_allocation": {"range": range, "allocated": allocated}},
    });
    scenario::parse(&file.to_string()).expect("bench scenario is valid")
}

/// One apiserver's Service REST path (`Allocators::create_service`) over a bare etcd holding
/// the `default` namespace and, under 1.33+, the ServiceCIDR `kubernetes` = `10.96.0.0/12`
/// (ready); under 1.29 the empty ClusterIP bitmap its first repair run would have written.
pub struct ServiceCreation {
    etcd: Etcd,
    apiserver: Apiserver,
    rng: SimRng,
    behavior: Behavior,
}

impl ServiceCreation {
    pub fn new(behavior: Behavior, seed: u64) -> Self {
        let file = serde_json::json!({
            "name": "bench", "seed": seed, "behavior": behavior.as_str(),
            "cluster": {"service_cluster_ip_range": "10.96.0.0/12",
                "apiservers": [{"name": "apiserver-a", "advertise_address": "192.168.10.11"}]},
        });
        let scenario = scenario::parse(&file.to_string()).expect("bench scenario is valid");
        let spec = scenario.cluster.apiservers[0].clone();
        let apiserver = Apiserver::new(spec, &scenario.cluster, behavior);
        let mut etcd = Etcd::default();
        etcd.put(&etcd::namespace_key("default"), Value::Namespace, None, 0);
        if behavior.ip_addresses() {
            let mut cidr = ServiceCidr::new("kubernetes", vec!["10.96.0.0/12".to_string()]);
            cidr.set_ready(true, "", KCM_READY_MESSAGE);
            etcd.put(&etcd::service_cidr_key("kubernetes"), Value::ServiceCidr(cidr), None, 0);
        }
        for view in &apiserver.allocators.ips {
            let empty = Range::new(view.alloc.cidr(), behavior).snapshot();
            etcd.put(view.key, Value::Range(empty), None, 0);
        }
        let ports = &apiserver.allocators.ports;
        etcd.put(ports.key, Value::Range(ports.alloc.snapshot()), None, 0);
        ServiceCreation { etcd, apiserver, rng: SimRng::new(seed), behavior }
    }

    /// Creates `n` more ClusterIP Services (dynamic ClusterIPs, no NodePorts) as `create_service`
    /// does: under 1.29 each allocation reads, sets and writes back the stored bitmap; under
    /// 1.35 the MetaAllocator picks the ServiceCIDR, scans its dynamic band from a random start
    /// skipping addresses whose IPAddress exists, and creates the IPAddress; under 1.33 both.
    /// Returns how many ClusterIPs are held in all.
    pub fn create(&mut self, n: usize) -> u64 {
        let mut rec = Recorder::new(0, "bench");
        let mut st = Storage {
            etcd: &mut self.etcd,
            now: 0,
            reachable: true,
            lease_ttl_ms: 15_000,
            rec: &mut rec,
            lease_writes: Vec::new(),
            ip_rechecks: Vec::new(),
        };
        let first = st.etcd.services(0).len();
        for i in first..first + n {
            let svc = Service {
                namespace: "default".into(),
                name: format!("svc-{i:06}"),
                ..Service::default()
            };
            self.apiserver
                .allocators
                .create_service(&mut st, &mut self.rng, svc)
                .expect("a /12 has room for the bench's Services");
        }
        // The change log only the world drains; the bench has no watchers.
        st.etcd.take_changes();
        if self.behavior.ip_addresses() {
            self.etcd.ip_addresses(0).len() as u64
        } else {
            let (snapshot, _) = self.etcd.range(etcd::RANGE_SERVICE_IPS, 0).expect("stored");
            let range = Range::from_snapshot(snapshot, self.behavior).expect("stored bitmap");
            range.used() as u64
        }
    }
}

/// `n` ClusterIP Services through one 1.35 (or 1.29, 1.33) apiserver's create path on a /12;
/// returns the ClusterIPs held.
pub fn create_services(behavior: Behavior, n: usize, seed: u64) -> u64 {
    ServiceCreation::new(behavior, seed).create(n)
}

/// etcd as a 1.35 cluster leaves it: the ServiceCIDR `kubernetes` = `10.96.0.0/12` (ready) and
/// `n` ClusterIP Services in 100 namespaces, each with its IPAddress (distinct addresses, every
/// third one), for a RepairIPAddress pass.
pub fn repair_ip_setup(n: usize) -> Etcd {
    let net = cidr("10.96.0.0/12");
    let range = CidrRange::new(net);
    let mut etcd = Etcd::default();
    let mut cidr = ServiceCidr::new("kubernetes", vec![net.to_string()]);
    cidr.set_ready(true, "", KCM_READY_MESSAGE);
    etcd.put(&etcd::service_cidr_key("kubernetes"), Value::ServiceCidr(cidr), None, 0);
    for i in 0..n {
        let ip = range.ip_at(i as u128 * 3);
        let svc = Service {
            namespace: format!("ns-{:03}", i % 100),
            name: format!("svc-{i:06}"),
            cluster_ip: ip.to_string(),
            cluster_ips: vec![ip.to_string()],
            ..Service::default()
        };
        let parent = ParentReference::service(&svc.namespace, &svc.name);
        let key = etcd::service_key(&svc.namespace, &svc.name);
        etcd.put(&key, Value::Service(svc), None, 0);
        let addr = IpAddress::allocated(ip, parent, 0);
        etcd.put(&etcd::ip_address_key(&addr.ip), Value::IpAddress(addr), None, 0);
    }
    etcd.take_changes();
    etcd
}

/// One full RepairIPAddress pass (`runOnce`: `syncService` for every Service, then
/// `syncIPAddress` for every IPAddress the allocator labelled) over `etcd`, an hour after the
/// setup; returns the IPAddresses left and the events recorded (none when every Service has
/// its IPAddress, so the pass writes nothing and can be repeated on the same etcd).
///
/// Where its time goes (perf, native): about half in `syncService`, a quarter in
/// `syncIPAddress`, the rest listing and collecting the keys of both; inside them, looking up
/// objects in the lab's etcd (a `format!`ted string key per Service and per IPAddress, compared
/// byte by byte along a long common prefix) and cloning each Service and IPAddress (with its
/// labels map). The bitmap's repair run walks an in-memory bitmap instead.
pub fn repair_ip_run(etcd: &mut Etcd) -> (u64, usize) {
    let mut rec = Recorder::new(0, "bench");
    let mut rechecks = Vec::new();
    let mut client = repairip::Client {
        etcd: &mut *etcd,
        now: 3_600_000,
        reachable: true,
        rec: &mut rec,
        rechecks: &mut rechecks,
    };
    repairip::run_once(&mut client).expect("etcd is reachable");
    etcd.take_changes();
    (etcd.ip_addresses(0).len() as u64, rec.events.len())
}

/// What `kubectl get svc -A -o json` prints for a cluster of `services` Services besides
/// `default/kubernetes` (10.96.0.1) on 10.96.0.0/12: ten namespaces, every fifth Service a
/// NodePort while the default range has ports left, with the fields real output carries; the
/// import and findings benchmarks read it.
pub fn kubectl_services(services: usize) -> String {
    let net = cidr("10.96.0.0/12");
    let range = Range::new(net, Behavior::V1_29);
    let item = |namespace: String, name: String, ip: String, node_port: Option<usize>| {
        let mut port =
            serde_json::json!({"name": "http", "port": 80, "protocol": "TCP", "targetPort": 8080});
        if let Some(p) = node_port {
            port["nodePort"] = p.into();
        }
        serde_json::json!({"apiVersion": "v1", "kind": "Service",
            "metadata": {"name": name, "namespace": namespace, "resourceVersion": "1",
                "uid": "00000000-0000-4000-8000-000000000000",
                "managedFields": [{"manager": "kubectl-client-side-apply", "operation": "Update"}]},
            "spec": {"clusterIP": ip, "clusterIPs": [ip], "ipFamilies": ["IPv4"],
                "ipFamilyPolicy": "SingleStack", "ports": [port], "selector": {"app": name},
                "type": if node_port.is_some() { "NodePort" } else { "ClusterIP" }},
            "status": {"loadBalancer": {}}})
    };
    let mut items =
        vec![item("default".into(), "kubernetes".into(), range.ip_at(0).to_string(), None)];
    items.extend((0..services).map(|i| {
        item(
            format!("ns-{}", i % 10),
            format!("svc-{i:06}"),
            range.ip_at(1000 + i).to_string(),
            (i % 5 == 0 && i / 5 < 2768).then_some(30000 + i / 5),
        )
    }));
    serde_json::json!({"apiVersion": "v1", "kind": "List", "items": items, "metadata": {"resourceVersion": ""}})
        .to_string()
}

/// Reads `text` (kubectl output), makes its scenario and returns the number of findings.
pub fn import_and_findings(text: &str) -> usize {
    let imported = kubectl::import(text, &kubectl::Options::default())
        .expect("valid kubectl output, with a range to guess");
    kubectl::findings(&imported.scenario).len()
}
