//! The swarm's seeded generator and driver, shared by the swarm (`tests/swarm.rs`, which checks
//! the invariants after every step) and by the cross-target digests (`tests/core/swarm_digests.rs`,
//! which runs the same seeds natively and in wasm and compares their traces).
//!
//! A seed's `SimRng` writes a random cluster as scenario JSON (so `scenario::parse` and the file
//! format are exercised too), draws the instants of its fault schedule, and at each instant
//! picks a random action (crashes, stops, restarts, new members, isolation, short etcd outages,
//! Services, Pods, storage corruptions, and under 1.33 and 1.35 ServiceCIDRs and IPAddress
//! objects) from the world as it is then. [`Run::drive`] steps the world task by task up to one
//! hour of virtual time and shows every task and every action to a [`Watch`].

use std::collections::BTreeSet;
use std::net::{IpAddr, Ipv4Addr};

use ipnet::IpNet;
use serde_json::{json, Value as Json};

use kube_bootstrap_lab::contract::api::{Behavior, Service};
use kube_bootstrap_lab::contract::event::EventKind;
use kube_bootstrap_lab::contract::scenario::{self, Action, Scenario};
use kube_bootstrap_lab::testing::k8s::controlplane::{Apiserver, Status, KUBERNETES};
use kube_bootstrap_lab::testing::k8s::ipallocator::ipaddress::CidrRange;
use kube_bootstrap_lab::testing::k8s::portallocator::PortRange;
use kube_bootstrap_lab::testing::k8s::repair::nodeport::collect_service_node_ports;
use kube_bootstrap_lab::testing::rng::SimRng;
use kube_bootstrap_lab::testing::sim::world::{Stepped, World};

/// One hour of virtual time per seed.
pub const HORIZON_MS: u64 = 3_600_000;

/// What a run shows its watcher: every task the world ran and every action it was given.
/// Returning `Err` stops the run there.
pub trait Watch {
    type Stop;
    /// After a task; the task's events are `world.events()[events_before..]`.
    fn step(
        &mut self,
        world: &World,
        stepped: &Stepped,
        events_before: usize,
    ) -> Result<(), Self::Stop>;
    /// After the action `raw` (scenario JSON) at `at`, refused with `failed` or done.
    fn act(
        &mut self,
        world: &World,
        at: u64,
        raw: &Json,
        action: &Action,
        failed: Option<&str>,
    ) -> Result<(), Self::Stop>;
}

/// One seed: its cluster, its world and what is left of its fault schedule.
pub struct Run {
    pub seed: u64,
    /// The generated cluster (scenario JSON with no steps).
    pub text: String,
    pub scenario: Scenario,
    pub world: World,
    /// Who runs now, to tell where a panic came from: "the engine", "the swarm generator" or
    /// "the swarm observer".
    pub phase: &'static str,
    g: Gen,
    names: Names,
    times: Vec<u64>,
}

impl Run {
    /// The seed's cluster and schedule, under `only` if given, else under the drawn behaviour.
    pub fn new(seed: u64, only: Option<Behavior>) -> Run {
        let mut g = Gen { rng: SimRng::new(seed) };
        let text = gen_cluster(&mut g, only);
        let scenario = scenario::parse(&text).unwrap_or_else(|e| {
            panic!("seed {seed}: generated scenario does not parse: {e}\n{text}")
        });
        let world = World::new(&scenario);
        let times = gen_times(&mut g);
        Run { seed, text, scenario, world, phase: "the engine", g, names: Names::default(), times }
    }

    /// Steps the world to the end of the hour, acting at each instant of the schedule.
    pub fn drive<W: Watch>(&mut self, watch: &mut W) -> Result<(), W::Stop> {
        for t in std::mem::take(&mut self.times) {
            self.step_until(watch, t)?;
            self.phase = "the swarm generator";
            let raw = gen_action(&mut self.g, &self.world, &mut self.names);
            self.phase = "the engine";
            let action: Action = serde_json::from_value(raw.clone()).unwrap_or_else(|e| {
                panic!("seed {}: generated action does not deserialize: {e}: {raw}", self.seed)
            });
            let before = self.world.events().len();
            let failed = self.world.act(&action).err().map(|f| f.message);
            let recorded =
                self.world.events()[before..].iter().find(|e| e.kind == EventKind::ActionFailed);
            assert_eq!(
                recorded.map(|e| &e.message),
                failed.as_ref(),
                "seed {}: a refusal is returned and recorded as one event",
                self.seed
            );
            self.phase = "the swarm observer";
            watch.act(&self.world, t, &raw, &action, failed.as_deref())?;
            self.phase = "the engine";
        }
        self.step_until(watch, HORIZON_MS)
    }

    fn step_until<W: Watch>(&mut self, watch: &mut W, t: u64) -> Result<(), W::Stop> {
        while self.world.next_time().is_some_and(|n| n <= t) {
            let before = self.world.events().len();
            let stepped = self.world.step().expect("a task is due");
            self.phase = "the swarm observer";
            watch.step(&self.world, &stepped, before)?;
            self.phase = "the engine";
        }
        self.world.run_until(t);
        Ok(())
    }
}

/// The seeded source of every random choice of one swarm run.
struct Gen {
    rng: SimRng,
}

impl Gen {
    fn below(&mut self, n: usize) -> usize {
        self.rng.intn(n)
    }

    /// Uniform in `[lo, hi)`.
    fn between(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.below((hi - lo) as usize) as u64
    }

    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[self.below(xs.len())]
    }

    /// Picks a key with probability proportional to its weight.
    fn weighted<K: Copy>(&mut self, table: &[(K, usize)]) -> K {
        let total: usize = table.iter().map(|(_, w)| w).sum();
        let mut x = self.below(total);
        for (k, w) in table {
            if x < *w {
                return *k;
            }
            x -= w;
        }
        unreachable!("weights add up")
    }
}

fn ms(v: u64) -> String {
    format!("{v}ms")
}

/// The random cluster of a seed, as scenario JSON text with no steps; under `only`, if given,
/// rather than the drawn behaviour.
fn gen_cluster(g: &mut Gen, only: Option<Behavior>) -> String {
    let drawn = g.weighted(&[("1.20", 25), ("1.29", 25), ("1.33", 25), ("1.35", 25)]);
    // A forced behaviour keeps every later draw of the seed where it was.
    let behavior = only.map_or(drawn, |b| b.as_str());
    let reconciler = g.weighted(&[("lease", 60), ("master-count", 20), ("none", 20)]);
    let mut ranges =
        vec!["10.96.0.0/16", "10.0.0.0/24", "172.20.0.0/20", "10.10.0.0/27", "10.0.0.0/28"];
    if behavior == "1.35" {
        // No bitmap, so no /12 ceiling any more.
        ranges.push("10.64.0.0/10");
    }
    let range = *g.pick(&ranges);
    let node_ports = *g.pick(&["", "30000-32767", "30000-30031", "31000-31009"]);
    let n = 1 + g.below(5);
    // Distinct advertise addresses in 192.168.10.0/24.
    let mut hosts = BTreeSet::new();
    while hosts.len() < n {
        hosts.insert(1 + g.below(254));
    }
    let hosts: Vec<usize> = hosts.into_iter().collect();
    let mut apiservers = Vec::new();
    for (i, host) in hosts.iter().enumerate() {
        let mut a = json!({
            "name": format!("apiserver-{}", (b'a' + i as u8) as char),
            "advertise_address": format!("192.168.10.{host}"),
        });
        match g.below(10) {
            0 => a["start_at"] = json!(ms(g.between(1, 30) * 1000)),
            1 => a["start_at"] = Json::Null, // left for a start_apiserver action
            2 => a["startup_delay"] = json!(ms(g.between(1, 20) * 500)),
            _ => {}
        }
        apiservers.push(a);
    }
    // The endpoint interval always stays below the lease TTL, as with the defaults (10s / 15s):
    // otherwise every lease would lapse between two refreshes.
    let (interval, ttl) =
        *g.pick(&[("10s", "15s"), ("10s", "15s"), ("5s", "15s"), ("5s", "7s"), ("2s", "3s")]);
    let repair = *g.pick(&["3m", "3m", "1m", "30s"]);
    let mut cluster = json!({
        "service_cluster_ip_range": range,
        "endpoint_reconciler_type": reconciler,
        "endpoint_reconciler_interval": interval,
        "lease_ttl": ttl,
        "repair_interval": repair,
        "apiservers": apiservers,
    });
    if !node_ports.is_empty() {
        cluster["service_node_port_range"] = json!(node_ports);
    }
    if reconciler == "master-count" {
        // Sometimes right, sometimes wrong, as in real clusters.
        cluster["apiserver_count"] = json!(if g.chance(50) { n } else { 1 + g.below(5) });
    }
    if g.chance(15) {
        let range =
            PortRange::parse(if node_ports.is_empty() { "30000-32767" } else { node_ports })
                .unwrap();
        cluster["kubernetes_service_node_port"] =
            json!(range.base + g.below(range.size as usize) as i32);
    }
    json!({
        "name": "swarm",
        "seed": g.rng.next_u64() >> 11,
        "behavior": behavior,
        "cluster": cluster,
        "steps": [],
    })
    .to_string()
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Crash,
    Stop,
    Start,
    Add,
    Isolate,
    Outage,
    CreateService,
    DeleteService,
    DeleteKubernetes,
    CreatePod,
    DeletePod,
    SetPodReady,
    LeakIp,
    LeakPort,
    UnallocateIp,
    UnallocatePort,
    ForceIp,
    ForcePort,
    // §6 (1.33 and 1.35 only).
    CreateServiceCidr,
    DeleteServiceCidr,
    PutIpAddress,
    DeleteIpAddress,
}

const KINDS: &[(Kind, usize)] = &[
    (Kind::Crash, 8),
    (Kind::Stop, 6),
    (Kind::Start, 10),
    (Kind::Add, 2),
    (Kind::Isolate, 5),
    (Kind::Outage, 4),
    (Kind::CreateService, 16),
    (Kind::DeleteService, 7),
    (Kind::DeleteKubernetes, 3),
    (Kind::CreatePod, 6),
    (Kind::DeletePod, 3),
    (Kind::SetPodReady, 4),
    (Kind::LeakIp, 3),
    (Kind::LeakPort, 3),
    (Kind::UnallocateIp, 2),
    (Kind::UnallocatePort, 2),
    (Kind::ForceIp, 2),
    (Kind::ForcePort, 2),
];

/// The §6 actions, added under 1.33 and 1.35.
const IPAM_KINDS: &[(Kind, usize)] = &[
    (Kind::CreateServiceCidr, 4),
    (Kind::DeleteServiceCidr, 3),
    (Kind::PutIpAddress, 3),
    (Kind::DeleteIpAddress, 3),
];

/// What the generator draws from under `behavior`: the bitmap corruptions of ClusterIPs only
/// where a ClusterIP bitmap exists (1.35 refuses them), the §6 actions only where ServiceCIDRs
/// and IPAddresses exist.
fn kinds(behavior: Behavior) -> Vec<(Kind, usize)> {
    let mut table: Vec<(Kind, usize)> = KINDS
        .iter()
        .copied()
        .filter(|(k, _)| {
            behavior.cluster_ip_bitmap() || !matches!(k, Kind::LeakIp | Kind::UnallocateIp)
        })
        .collect();
    if behavior.ip_addresses() {
        table.extend_from_slice(IPAM_KINDS);
    }
    table
}

/// Names and addresses handed out so far.
#[derive(Default)]
struct Names {
    services: usize,
    pods: usize,
    apiservers: usize,
    service_cidrs: usize,
}

/// The usable address at `offset` (network + 1 + offset), as the bitmap numbers them.
fn ip_in(net: &IpNet, offset: usize) -> IpAddr {
    CidrRange::new(*net).ip_at(offset as u128)
}

/// The usable addresses of `net` (without the network and IPv4 broadcast addresses), capped so
/// that a draw fits in `usize`.
fn usable(net: &IpNet) -> usize {
    CidrRange::new(*net).size().min(1 << 32) as usize
}

/// A random usable address of the service range, or (sometimes) one outside it; under 1.33+
/// sometimes one of another ServiceCIDR.
fn random_cluster_ip(g: &mut Gen, world: &World) -> String {
    let net = world.config().service_ip_ranges.primary;
    let extra = extra_v4_cidrs(world);
    match g.below(10) {
        0 => net.network().to_string(),  // the network address: not usable
        1 => "192.0.2.77".to_string(),   // outside the range
        2 => ip_in(&net, 0).to_string(), // the kubernetes Service IP
        3 if !extra.is_empty() => {
            let other = *g.pick(&extra);
            ip_in(&other, g.below(usable(&other).max(1))).to_string()
        }
        _ => ip_in(&net, g.below(usable(&net))).to_string(),
    }
}

/// The IPv4 prefixes of the ServiceCIDRs other than the service range itself (1.33+).
fn extra_v4_cidrs(world: &World) -> Vec<IpNet> {
    let primary = world.config().service_ip_ranges.primary;
    let mut nets: Vec<IpNet> = world
        .etcd()
        .service_cidrs(world.now())
        .iter()
        .flat_map(|c| c.prefixes())
        .filter(|n| matches!(n, IpNet::V4(_)) && *n != primary && usable(n) > 0)
        .collect();
    nets.dedup();
    nets
}

/// The `cidrs` of a ServiceCIDR to create: mostly valid (a supernet of the service range that
/// covers it, its sibling, a half of it, the same prefix again, a fresh small block, IPv6 or
/// dual-stack), sometimes invalid (the API must refuse it with its validation text).
fn gen_service_cidr_cidrs(g: &mut Gen, world: &World) -> Vec<String> {
    let IpNet::V4(p) = world.config().service_ip_ranges.primary else {
        unreachable!("the swarm's clusters are IPv4")
    };
    let len = p.prefix_len();
    let at = |addr: u32, len: u8| -> String {
        ipnet::Ipv4Net::new(Ipv4Addr::from(addr), len).expect("prefix length").trunc().to_string()
    };
    let base = u32::from(p.network());
    let size = 1u64 << (32 - len);
    let kind = g.weighted(&[
        ("superset", 3),
        ("sibling", 3),
        ("half", 2),
        ("same", 1),
        ("fresh", 3),
        ("ipv6", 1),
        ("dual", 1),
        ("invalid", 3),
    ]);
    match kind {
        "superset" => vec![at(base, len.saturating_sub(1 + g.below(3) as u8).max(8))],
        "sibling" => vec![at(base.wrapping_add(size as u32), len)],
        "half" if len < 30 => {
            let upper = if g.chance(50) { size as u32 / 2 } else { 0 };
            vec![at(base + upper, len + 1)]
        }
        "half" | "same" => vec![p.to_string()],
        "fresh" => {
            let len = *g.pick(&[24u8, 26, 28, 29]);
            vec![at(u32::from(Ipv4Addr::new(10, 200, g.below(4) as u8, 0)), len)]
        }
        "ipv6" => vec![format!("fd00:{}::/112", 1 + g.below(3))],
        "dual" => vec!["10.201.0.0/26".to_string(), "fd00:9::/120".to_string()],
        _ => match g.below(5) {
            0 => vec!["10.0.0.0/33".to_string()],
            1 => vec!["not-a-cidr".to_string()],
            2 => vec![],
            3 => vec!["10.1.0.0/24".to_string(), "10.2.0.0/24".to_string()],
            _ => {
                vec!["10.1.0.0/24".to_string(), "fd00::/64".to_string(), "10.3.0.0/24".to_string()]
            }
        },
    }
}

fn random_node_port(g: &mut Gen, world: &World) -> i32 {
    let r = world.config().node_ports;
    if g.chance(8) {
        return r.base - 1; // out of range
    }
    r.base + g.below(r.size as usize) as i32
}

fn user_services(world: &World) -> Vec<Service> {
    world
        .etcd()
        .services(world.now())
        .into_iter()
        .filter(|s| !(s.namespace == "default" && s.name == KUBERNETES))
        .cloned()
        .collect()
}

fn all_node_ports(world: &World) -> Vec<i32> {
    world.etcd().services(world.now()).iter().flat_map(|s| collect_service_node_ports(s)).collect()
}

fn service_ips(world: &World) -> Vec<String> {
    world
        .etcd()
        .services(world.now())
        .iter()
        .filter(|s| s.is_ip_set())
        .map(|s| s.cluster_ip.clone())
        .collect()
}

/// One random action as scenario JSON (`{"do": ...}`), its targets picked from the world.
/// Working out the candidates draws nothing: only `g` decides.
fn gen_action(g: &mut Gen, world: &World, names: &mut Names) -> Json {
    match g.weighted(&kinds(world.behavior())) {
        kind @ (Kind::Crash
        | Kind::Stop
        | Kind::Start
        | Kind::Add
        | Kind::Isolate
        | Kind::Outage) => apiserver_action(g, world, names, kind),
        kind @ (Kind::CreateService
        | Kind::DeleteService
        | Kind::DeleteKubernetes
        | Kind::CreatePod
        | Kind::DeletePod
        | Kind::SetPodReady) => object_action(g, world, names, kind),
        kind @ (Kind::LeakIp
        | Kind::LeakPort
        | Kind::UnallocateIp
        | Kind::UnallocatePort
        | Kind::ForceIp
        | Kind::ForcePort) => storage_corruption(g, world, kind),
        kind => ipam_action(g, world, names, kind),
    }
}

/// Crashes, stops, starts, new members, isolation and etcd outages.
fn apiserver_action(g: &mut Gen, world: &World, names: &mut Names, kind: Kind) -> Json {
    let apiservers: Vec<&Apiserver> = world.apiservers().collect();
    let down: Vec<&str> = apiservers
        .iter()
        .filter(|a| matches!(a.status, Status::Stopped | Status::Crashed))
        .map(|a| a.spec.name.as_str())
        .collect();
    let up: Vec<&str> =
        apiservers.iter().filter(|a| a.is_up()).map(|a| a.spec.name.as_str()).collect();
    let any: Vec<&str> = apiservers.iter().map(|a| a.spec.name.as_str()).collect();
    // Mostly sensible targets, sometimes any (the refusal path is exercised too).
    let target = |g: &mut Gen, preferred: &[&str]| -> String {
        if !preferred.is_empty() && g.chance(85) {
            g.pick(preferred).to_string()
        } else {
            g.pick(&any).to_string()
        }
    };
    match kind {
        Kind::Crash => json!({"do": "crash_apiserver", "apiserver": target(g, &up)}),
        Kind::Stop => json!({"do": "stop_apiserver", "apiserver": target(g, &up)}),
        Kind::Start => json!({"do": "start_apiserver", "apiserver": target(g, &down)}),
        Kind::Add => {
            let used: BTreeSet<IpAddr> =
                apiservers.iter().map(|a| a.spec.advertise_address).collect();
            let ip = loop {
                let ip = IpAddr::V4(Ipv4Addr::new(192, 168, 10, 1 + g.below(254) as u8));
                if !used.contains(&ip) {
                    break ip;
                }
            };
            names.apiservers += 1;
            let mut a = json!({"do": "add_apiserver", "name": format!("apiserver-x{}", names.apiservers),
                "advertise_address": ip.to_string()});
            if g.chance(30) {
                a["startup_delay"] = json!(ms(g.between(1, 10) * 1000));
            }
            a
        }
        Kind::Isolate => {
            // Mostly short; sometimes longer than the 1.29 repair hook's minute.
            let for_ = if g.chance(10) {
                g.between(60, 120) * 1000
            } else {
                g.between(1, 45) * 1000 + g.between(0, 1000)
            };
            json!({"do": "isolate_apiserver", "apiserver": target(g, &up), "for": ms(for_)})
        }
        Kind::Outage => json!({"do": "etcd_outage", "for": ms(g.between(500, 40_000))}),
        _ => unreachable!("{kind:?} is no apiserver action"),
    }
}

/// Services and Pods through the API.
fn object_action(g: &mut Gen, world: &World, names: &mut Names, kind: Kind) -> Json {
    let users = user_services(world);
    let pods: Vec<(String, String)> = world
        .etcd()
        .pods(world.now())
        .iter()
        .map(|p| (p.namespace.clone(), p.name.clone()))
        .collect();
    match kind {
        Kind::CreateService => {
            names.services += 1;
            let ty = g.weighted(&[("ClusterIP", 55), ("NodePort", 35), ("LoadBalancer", 10)]);
            let ns = g.weighted(&[("default", 80), ("kube-system", 15), ("nowhere", 5)]);
            let mut svc =
                json!({"namespace": ns, "name": format!("svc-{}", names.services), "type": ty});
            let mut ports = vec![json!({"name": "http", "port": 80, "target_port": 8080})];
            if g.chance(30) {
                let protocol = if g.chance(30) { "UDP" } else { "TCP" };
                ports.push(json!({"name": "metrics", "protocol": protocol, "port": 9090}));
            }
            // Only the first port may ask for a NodePort: it is allocated first, so a refusal
            // can be checked against what storage held before the request.
            if ty != "ClusterIP" && g.chance(35) {
                let taken = all_node_ports(world);
                let port = if !taken.is_empty() && g.chance(30) {
                    *g.pick(&taken)
                } else {
                    random_node_port(g, world)
                };
                ports[0]["node_port"] = json!(port);
            }
            svc["ports"] = Json::Array(ports);
            if g.chance(30) {
                let taken = service_ips(world);
                let ip = if ty == "ClusterIP" && g.chance(15) {
                    "None".to_string()
                } else if !taken.is_empty() && g.chance(30) {
                    g.pick(&taken).clone()
                } else {
                    random_cluster_ip(g, world)
                };
                svc["cluster_ip"] = json!(ip);
            }
            if g.chance(60) {
                svc["selector"] = json!({"app": *g.pick(&["web", "db"])});
            }
            json!({"do": "create_service", "service": svc})
        }
        Kind::DeleteService if !users.is_empty() => {
            let s = g.pick(&users);
            json!({"do": "delete_service", "namespace": s.namespace, "name": s.name})
        }
        Kind::DeleteService | Kind::DeleteKubernetes => {
            json!({"do": "delete_service", "namespace": "default", "name": KUBERNETES})
        }
        Kind::CreatePod => {
            names.pods += 1;
            let n = names.pods;
            json!({"do": "create_pod", "pod": {"namespace": "default", "name": format!("pod-{n}"),
                "labels": {"app": *g.pick(&["web", "db"])}, "pod_ip": format!("10.244.{}.{}", n / 250, 1 + n % 250),
                "ready": g.chance(70)}})
        }
        Kind::DeletePod | Kind::SetPodReady if pods.is_empty() => {
            json!({"do": "delete_pod", "name": "pod-none"})
        }
        Kind::DeletePod => {
            let (ns, name) = g.pick(&pods).clone();
            json!({"do": "delete_pod", "namespace": ns, "name": name})
        }
        Kind::SetPodReady => {
            let (ns, name) = g.pick(&pods).clone();
            json!({"do": "set_pod_ready", "namespace": ns, "name": name, "ready": g.chance(50)})
        }
        _ => unreachable!("{kind:?} is no Service or Pod action"),
    }
}

/// Storage corruptions behind the allocators' backs.
fn storage_corruption(g: &mut Gen, world: &World, kind: Kind) -> Json {
    let users = user_services(world);
    let behavior = world.behavior();
    match kind {
        Kind::LeakIp => {
            json!({"do": "corrupt", "what": "leak_cluster_ip", "ip": leakable_ip(g, world)})
        }
        Kind::LeakPort => {
            json!({"do": "corrupt", "what": "leak_node_port", "port": random_node_port(g, world)})
        }
        Kind::UnallocateIp => {
            let taken = service_ips(world);
            let ip = if !taken.is_empty() && g.chance(80) {
                g.pick(&taken).clone()
            } else {
                leakable_ip(g, world)
            };
            json!({"do": "corrupt", "what": "unallocate_cluster_ip", "ip": ip})
        }
        Kind::UnallocatePort => {
            let taken = all_node_ports(world);
            let port = if !taken.is_empty() && g.chance(80) {
                *g.pick(&taken)
            } else {
                random_node_port(g, world)
            };
            json!({"do": "corrupt", "what": "unallocate_node_port", "port": port})
        }
        Kind::ForceIp | Kind::ForcePort if users.is_empty() && behavior.cluster_ip_bitmap() => {
            json!({"do": "corrupt", "what": "leak_cluster_ip", "ip": leakable_ip(g, world)})
        }
        Kind::ForceIp | Kind::ForcePort if users.is_empty() => {
            json!({"do": "corrupt", "what": "delete_ip_address", "ip": leakable_ip(g, world)})
        }
        Kind::ForceIp => {
            let s = g.pick(&users).clone();
            let taken = service_ips(world);
            let ip = if !taken.is_empty() && g.chance(40) {
                g.pick(&taken).clone()
            } else {
                random_cluster_ip(g, world)
            };
            json!({"do": "corrupt", "what": "force_cluster_ip", "namespace": s.namespace, "name": s.name, "ip": ip})
        }
        Kind::ForcePort => {
            let s = g.pick(&users).clone();
            let taken = all_node_ports(world);
            let port = if !taken.is_empty() && g.chance(40) {
                *g.pick(&taken)
            } else {
                random_node_port(g, world)
            };
            json!({"do": "corrupt", "what": "force_node_port", "namespace": s.namespace, "name": s.name, "port": port})
        }
        _ => unreachable!("{kind:?} is no storage corruption"),
    }
}

/// §6 (1.33 and 1.35): ServiceCIDRs through the API, IPAddress objects behind its back.
fn ipam_action(g: &mut Gen, world: &World, names: &mut Names, kind: Kind) -> Json {
    let now = world.now();
    let users = user_services(world);
    match kind {
        Kind::CreateServiceCidr => {
            names.service_cidrs += 1;
            let name = match g.below(20) {
                0 | 1 => KUBERNETES.to_string(), // exists (or recreated by hand, maybe wrong)
                2 => "Bad_Name".to_string(),     // not a DNS subdomain
                _ => format!("cidr-{}", names.service_cidrs),
            };
            let cidrs = gen_service_cidr_cidrs(g, world);
            json!({"do": "create_service_cidr", "service_cidr": {"name": name, "cidrs": cidrs}})
        }
        Kind::DeleteServiceCidr => {
            let existing: Vec<String> =
                world.etcd().service_cidrs(now).iter().map(|c| c.name.clone()).collect();
            let name = if existing.is_empty() || g.chance(10) {
                "cidr-none".to_string()
            } else if g.chance(25) && existing.iter().any(|n| n == KUBERNETES) {
                KUBERNETES.to_string()
            } else {
                g.pick(&existing).clone()
            };
            json!({"do": "delete_service_cidr", "name": name})
        }
        Kind::PutIpAddress => {
            let taken = service_ips(world);
            let ip = match g.below(10) {
                0..=3 if !taken.is_empty() => g.pick(&taken).clone(),
                0..=6 => random_cluster_ip(g, world),
                _ => leakable_ip(g, world),
            };
            let parent = match g.below(10) {
                0..=3 if !users.is_empty() => {
                    let s = g.pick(&users);
                    json!({"namespace": s.namespace, "name": s.name})
                }
                0..=6 => json!({"namespace": "default", "name": format!("ghost-{}", g.below(3))}),
                7 => json!({"namespace": "default", "name": KUBERNETES}),
                _ => json!({"group": "gateway.networking.k8s.io", "resource": "gateways",
                    "namespace": "default", "name": "gw"}),
            };
            json!({"do": "corrupt", "what": "put_ip_address", "ip": ip, "parent": parent})
        }
        Kind::DeleteIpAddress => {
            let existing: Vec<String> =
                world.etcd().ip_addresses(now).iter().map(|a| a.ip.clone()).collect();
            let ip = if !existing.is_empty() && g.chance(80) {
                g.pick(&existing).clone()
            } else {
                leakable_ip(g, world)
            };
            json!({"do": "corrupt", "what": "delete_ip_address", "ip": ip})
        }
        _ => unreachable!("{kind:?} is no ServiceCIDR or IPAddress action"),
    }
}

/// A usable address of the range (leak corruptions need one that parses and is in range to
/// succeed; sometimes the kubernetes Service IP itself).
fn leakable_ip(g: &mut Gen, world: &World) -> String {
    let net = world.config().service_ip_ranges.primary;
    if g.chance(15) {
        ip_in(&net, 0).to_string()
    } else {
        ip_in(&net, g.below(usable(&net))).to_string()
    }
}

/// The instants of the fault schedule: sorted, sometimes in bursts (same millisecond or close).
fn gen_times(g: &mut Gen) -> Vec<u64> {
    let count = 20 + g.below(60);
    let mut times = Vec::with_capacity(count);
    let mut t = 0;
    while times.len() < count {
        t = match g.below(10) {
            0 => t,                            // same instant as the previous action
            1 => t + g.between(1, 2_000),      // a burst
            _ => g.between(1_000, HORIZON_MS), // anywhere in the hour
        };
        if t < HORIZON_MS {
            times.push(t);
        }
    }
    times.sort_unstable();
    times
}
