//! The endpoints controller, after `pkg/controller/endpoint/endpoints_controller.go`: its desired
//! state for one Service (`syncService`), the canonical subset layout it writes, after
//! `pkg/api/v1/endpoints/util.go` (`RepackSubsets`), and the controller itself.
//!
//! The controller keeps only the Services it saw last: no work queue, retries, events,
//! trigger-time annotation or 1000-address truncation. Everything iterates `BTreeMap`s, so results are identical natively
//! and in wasm.

use std::collections::{BTreeMap, BTreeSet};

use crate::api::{
    parse_ip, EndpointPort, EndpointSubset, Endpoints, IntOrString, IpFamily, Pod, PodPhase,
    Service, ServicePort, ServiceType,
};
use crate::etcd::{self, Etcd, Value};

/// `v1.IsHeadlessService`: set on the Endpoints of a Service without a ClusterIP.
pub(crate) const HEADLESS_LABEL: &str = "service.kubernetes.io/headless";

/// `RepackSubsets`: expands subsets to (port → address → ready), then regroups ports that share
/// the same addresses with the same readiness, one subset per group.
///
/// Differences from upstream, all invisible for the addresses this model has: an address is its
/// IP string (no targetRef UID); ports and subsets are sorted by value rather than by the MD5 of
/// a spew dump, which Go only uses to get *some* deterministic order.
pub fn repack_subsets(subsets: &[EndpointSubset]) -> Vec<EndpointSubset> {
    // `None` is upstream's sentinel port (-1) for subsets without ports, so headless Services
    // without ports keep their addresses.
    let mut port_to_addrs: BTreeMap<Option<&EndpointPort>, BTreeMap<&str, bool>> = BTreeMap::new();
    for subset in subsets {
        let ports: Vec<Option<&EndpointPort>> = if subset.ports.is_empty() {
            vec![None]
        } else {
            subset.ports.iter().map(Some).collect()
        };
        for port in ports {
            let ready = subset.addresses.iter().map(|ip| (ip, true));
            let not_ready = subset.not_ready_addresses.iter().map(|ip| (ip, false));
            // Entries are only made for addresses, so subsets without any contribute nothing.
            for (ip, is_ready) in ready.chain(not_ready) {
                let addrs = port_to_addrs.entry(port).or_default();
                // Not ready always trumps ready, whatever the order they were seen in.
                *addrs.entry(ip.as_str()).or_insert(is_ready) &= is_ready;
            }
        }
    }

    // Ports offered by exactly the same addresses (with the same readiness) share a subset.
    let mut addrs_to_ports: BTreeMap<BTreeMap<&str, bool>, Vec<EndpointPort>> = BTreeMap::new();
    for (port, addrs) in port_to_addrs {
        let ports = addrs_to_ports.entry(addrs).or_default();
        // The sentinel only keeps the group alive: if a real port has the same addresses, the
        // port-less addresses are already present there and no empty-ports subset is emitted.
        ports.extend(port.cloned());
    }

    let mut out: Vec<EndpointSubset> = addrs_to_ports
        .into_iter()
        .map(|(addrs, ports)| {
            // Ports arrive in `EndpointPort` order (name, port, protocol) from the BTreeMap above;
            // BTreeMap<&str, _> iterates in IP string byte order, as `LessEndpointAddress` sorts.
            let pick = |want: bool| {
                addrs.iter().filter(|(_, &r)| r == want).map(|(ip, _)| ip.to_string()).collect()
            };
            EndpointSubset { addresses: pick(true), not_ready_addresses: pick(false), ports }
        })
        .collect();
    out.sort_by(|a, b| {
        (&a.ports, &a.addresses, &a.not_ready_addresses).cmp(&(
            &b.ports,
            &b.addresses,
            &b.not_ready_addresses,
        ))
    });
    out
}

/// `ShouldPodBeInEndpoints` (`k8s.io/endpointslice/util`): terminal pods and pods without an IP
/// never count; terminating pods only when the caller includes them (the endpoints controller
/// passes `publishNotReadyAddresses`).
pub fn should_pod_be_in_endpoints(pod: &Pod, include_terminating: bool) -> bool {
    if matches!(pod.phase, PodPhase::Succeeded | PodPhase::Failed) {
        return false;
    }
    if pod.pod_ip.is_empty() && pod.pod_ips.is_empty() {
        return false;
    }
    include_terminating || !pod.terminating
}

/// `labels.Set(selector).AsSelectorPreValidated().Matches`: every pair must be on the pod, so an
/// empty (but non-nil) selector selects every pod of the namespace, as upstream's does.
fn selector_matches(selector: &BTreeMap<String, String>, pod: &Pod) -> bool {
    selector.iter().all(|(k, v)| pod.labels.get(k) == Some(v))
}

/// `utilnet.IsIPv6String` turned into a family: anything that is not IPv6 counts as IPv4.
fn family_of(ip: &str) -> IpFamily {
    parse_ip(ip).map_or(IpFamily::IPv4, |ip| IpFamily::of(&ip))
}

/// `podToEndpointAddressForService`: the pod IP of the Service's primary family, or `None`
/// (the pod is skipped, e.g. a single-stack pod behind an IPv6 Service during an upgrade).
fn pod_to_endpoint_address_for_service(svc: &Service, pod: &Pod) -> Option<String> {
    let ips = pod.ips();
    let family = match svc.ip_families.first() {
        Some(&family) => family,
        // Fallbacks for Services written by an apiserver that does not default ipFamilies.
        None if svc.is_ip_set() => family_of(&svc.cluster_ip),
        None => ips.first().map_or(IpFamily::IPv4, |ip| family_of(ip)),
    };
    // Upstream would also take an unparsable IP as IPv4; pod IPs are validated, so we skip them.
    ips.into_iter()
        .find(|ip| parse_ip(ip).is_some_and(|ip| IpFamily::of(&ip) == family))
        .map(str::to_string)
}

/// `podutil.FindPort`: the container port a Service port sends traffic to on this pod.
///
/// Upstream also requires a named port's protocol to match; the model keeps container ports by
/// name only.
fn find_port(pod: &Pod, svc_port: &ServicePort) -> Option<i32> {
    match &svc_port.target_port {
        // API defaulting (`SetDefaults_Service`) turns an unset, 0 or "" targetPort into `port`.
        None | Some(IntOrString::Int(0)) => Some(svc_port.port),
        Some(IntOrString::String(name)) if name.is_empty() => Some(svc_port.port),
        Some(IntOrString::Int(n)) => Some(*n),
        Some(IntOrString::String(name)) => pod.container_ports.get(name).copied(),
    }
}

/// `addEndpointSubset`: one single-address subset, ready or not.
fn add_endpoint_subset(
    subsets: &mut Vec<EndpointSubset>,
    ip: &str,
    port: Option<EndpointPort>,
    ready: bool,
) {
    let addr = vec![ip.to_string()];
    let (addresses, not_ready_addresses) = if ready { (addr, vec![]) } else { (vec![], addr) };
    subsets.push(EndpointSubset {
        addresses,
        not_ready_addresses,
        ports: port.into_iter().collect(),
    });
}

/// `syncService`'s computed Endpoints for `svc`, or `None` when the controller leaves it alone:
/// ExternalName Services, and Services without a selector (their Endpoints are user-managed).
/// `pods` are owned or borrowed (the world lends those it stores).
pub fn endpoints_for_service<P: std::borrow::Borrow<Pod>>(
    svc: &Service,
    pods: &[P],
) -> Option<Endpoints> {
    if svc.type_ == ServiceType::ExternalName {
        return None;
    }
    let selector = svc.selector.as_ref()?;
    let headless = svc.cluster_ip == "None";

    let mut subsets = Vec::new();
    let selected = pods
        .iter()
        .map(P::borrow)
        .filter(|p| p.namespace == svc.namespace && selector_matches(selector, p));
    for pod in selected {
        if !should_pod_be_in_endpoints(pod, svc.publish_not_ready_addresses) {
            continue;
        }
        let Some(ip) = pod_to_endpoint_address_for_service(svc, pod) else {
            continue;
        };
        let ready = svc.publish_not_ready_addresses || pod.ready;
        if svc.ports.is_empty() {
            // Only headless Services may have no ports; their pods are still published (for DNS).
            if headless {
                add_endpoint_subset(&mut subsets, &ip, None, ready);
            }
            continue;
        }
        for svc_port in &svc.ports {
            // A pod without the named port is left out for that port only.
            let Some(port) = find_port(pod, svc_port) else {
                continue;
            };
            let port =
                EndpointPort { name: svc_port.name.clone(), port, protocol: svc_port.protocol };
            add_endpoint_subset(&mut subsets, &ip, Some(port), ready);
        }
    }

    // Labels are the Service's, with the headless marker set exactly when it has no ClusterIP
    // (upstream tests `!IsServiceIPSet`, so an unallocated "" counts too).
    let mut labels = svc.labels.clone();
    if svc.is_ip_set() {
        labels.remove(HEADLESS_LABEL);
    } else {
        labels.insert(HEADLESS_LABEL.to_string(), String::new());
    }
    Some(Endpoints {
        namespace: svc.namespace.clone(),
        name: svc.name.clone(),
        labels,
        subsets: repack_subsets(&subsets),
    })
}

/// kube-controller-manager's endpoints controller, as the world runs it after every change.
///
/// Level-based, as upstream's `syncService`: every Service with a selector gets the Endpoints its
/// ready and not-ready Pods imply ([`endpoints_for_service`]). An Endpoints object is deleted only
/// when the controller sees its Service deleted; one that no Service ever owned (such as a
/// `default/kubernetes` Endpoints given in `initial` before the apiserver creates the Service) is
/// left alone. Upstream also re-queues every Endpoints once when the controller starts
/// (`checkLeftoverEndpoints`); the lab's controller-manager never restarts, so that pass is not
/// modelled.
#[derive(Clone, Debug, Default)]
pub struct EndpointsController {
    /// The Services it saw at its last sync: it deletes the Endpoints of the ones that have
    /// gone since, and of no others.
    seen_services: BTreeSet<String>,
}

impl EndpointsController {
    /// One sync of every Service at `now`, written to `etcd`.
    pub fn sync(&mut self, etcd: &mut Etcd, now: u64) {
        // What to write, read first with every Service borrowed (none cloned: with thousands of
        // Services this runs after every change), then written in the same order.
        let services = etcd.services(now);
        let pods = etcd.pods(now);
        let present: BTreeSet<String> = services.iter().map(|s| s.key()).collect();
        let writes: Vec<(String, Endpoints)> = services
            .iter()
            .filter_map(|svc| {
                let want = endpoints_for_service(svc, &pods)?;
                let key = etcd::endpoints_key(&svc.namespace, &svc.name);
                let current = match etcd.get(&key, now).map(|e| &e.value) {
                    Some(Value::Endpoints(ep)) => Some(ep),
                    _ => None,
                };
                (current != Some(&want)).then_some((key, want))
            })
            .collect();
        for gone in self.seen_services.difference(&present) {
            let (ns, name) = gone.split_once('/').expect("namespace/name");
            etcd.delete(&etcd::endpoints_key(ns, name), now);
        }
        self.seen_services = present;
        for (key, want) in writes {
            etcd.put(&key, Value::Endpoints(want), None, now);
        }
    }
}
