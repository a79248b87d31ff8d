//! The actions: which kinds each behaviour draws from and with what weight, and one random
//! action of a kind as scenario JSON (`{"do": ...}`), its targets picked from the world.

use std::collections::BTreeSet;
use std::net::{IpAddr, Ipv4Addr};

use serde_json::{json, Value as Json};

use engine::contract::api::Behavior;
use engine::sim::world::World;
use k8s::api::KUBERNETES;
use k8s::controlplane::{Apiserver, Status};

use super::targets::{
    all_node_ports, gen_service_cidr_cidrs, leakable_ip, random_cluster_ip, random_node_port,
    service_ips, user_services,
};
use super::{ms, Gen};

/// The kinds of action the generator draws.
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

/// The actions of every behaviour, with their weights.
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
pub(super) struct Names {
    services: usize,
    pods: usize,
    apiservers: usize,
    service_cidrs: usize,
}

/// One random action as scenario JSON (`{"do": ...}`), its targets picked from the world.
/// Working out the candidates draws nothing: only `g` decides.
pub(super) fn gen_action(g: &mut Gen, world: &World, names: &mut Names) -> Json {
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
