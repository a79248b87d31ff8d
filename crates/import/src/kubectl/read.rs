//! Reading kubectl output: the documents of a paste, their objects, each field the lab models.

use std::collections::BTreeMap;
use std::net::IpAddr;

use serde::Deserialize;
use serde_json::Value;

use super::file::{self, EndpointPort, EndpointSubset, Parent, ServicePort};
use super::input::{Item, List, Num, Object, Port, Spec, Str, StrMap, TargetPort};
use super::{Cluster, Note, Progress, MAX_BYTES};
use crate::k8s::api::parse_ip;
use crate::k8s::api::{IntOrString, IpFamily, Protocol, ServiceType};
use crate::quote::quote;

/// The kinds read; anything else in the input is refused by name.
const KINDS: &str = "Service, Endpoints, EndpointSlice, ServiceCIDR, IPAddress";

/// Reads every document of `text`.
pub fn read(text: &str) -> Result<Cluster, String> {
    read_with(text, &mut |_| {})
}

/// [`read`], telling `progress` of each document parsed and of every hundredth of its objects.
/// A rejection is one line (a kind or name with a line break is echoed escaped).
pub fn read_with(text: &str, progress: &mut dyn FnMut(Progress)) -> Result<Cluster, String> {
    read_documents(text, progress).map_err(crate::quote::one_line)
}

fn read_documents(text: &str, progress: &mut dyn FnMut(Progress)) -> Result<Cluster, String> {
    if text.len() > MAX_BYTES {
        return Err(format!(
            "input: {} MB is more than the {} MB the import reads",
            text.len() >> 20,
            MAX_BYTES >> 20
        ));
    }
    let mut cluster = Cluster::default();
    // Prompt and command lines (`$ kubectl get svc -A -o json`) pasted with the output.
    let mut skipped: Vec<&str> = Vec::new();
    let mut rest = text;
    let mut d = 0;
    loop {
        rest = rest.trim_start();
        if rest.is_empty() {
            break;
        }
        if !rest.starts_with(['{', '[']) {
            let (line, after) = rest.split_once('\n').unwrap_or((rest, ""));
            if is_prompt(line) {
                skipped.push(line.trim());
                rest = after;
                continue;
            }
        }
        if looks_like_yaml(rest) {
            // `-o yaml`: its documents (`---` between them) to the end of the paste.
            for doc in serde_yaml::Deserializer::from_str(rest) {
                progress(Progress::Parsing { document: d + 1 });
                d += 1;
                let doc =
                    Item::deserialize(doc).map_err(|e| format!("document {d}: not YAML: {e}"))?;
                if !matches!(doc, Item::Other(Value::Null)) {
                    document(&mut cluster, d, &doc, progress)?;
                }
            }
            break;
        }
        progress(Progress::Parsing { document: d + 1 });
        d += 1;
        let mut documents = serde_json::Deserializer::from_str(rest).into_iter::<Item>();
        let doc = match documents.next() {
            Some(Ok(doc)) => doc,
            Some(Err(e)) => return Err(not_json(d, text, rest, &e)),
            None => break,
        };
        rest = &rest[documents.byte_offset()..];
        document(&mut cluster, d, &doc, progress)?;
    }
    if d == 0 {
        return Err("input: empty (paste the JSON that `kubectl get svc -A -o json` prints)".into());
    }
    if let Some(first) = skipped.first() {
        cluster.notes.push(Note::IgnoredLines {
            lines: skipped.len(),
            first: crate::quote::one_line(crate::quote::clip(first, 60)),
        });
    }
    Ok(cluster)
}

/// The `d`th document: a list (typed or not) or one object, added to `cluster`.
fn document(
    cluster: &mut Cluster,
    d: usize,
    doc: &Item,
    progress: &mut dyn FnMut(Progress),
) -> Result<(), String> {
    let at = |msg: String| format!("document {d}: {msg}");
    let Item::Object(list) = doc else { return object(cluster, doc, "").map_err(at) };
    let list_kind = list.kind.or("");
    // A typed list (`ServiceList`, as the API prints it) leaves out its items' kind.
    let item_kind = list_kind.strip_suffix("List").unwrap_or("");
    match &list.items {
        Some(List::Items(items)) => {
            let step = (items.len() / 100).max(1);
            for (i, item) in items.iter().enumerate() {
                if i % step == 0 {
                    progress(Progress::Reading { read: i, of: items.len() });
                }
                object(cluster, item, item_kind).map_err(|e| at(format!("items[{i}] {e}")))?;
            }
            Ok(())
        }
        // `null` too.
        Some(_) => Err(at("items: not a list".into())),
        None => object(cluster, doc, "").map_err(at),
    }
}

/// Whether the rest of a paste is `-o yaml` output: a line `apiVersion:`, `kind:`, `items:`
/// or `---` before any other (comments aside).
fn looks_like_yaml(rest: &str) -> bool {
    let first =
        rest.lines().map(str::trim_end).find(|l| !l.trim().is_empty() && !l.starts_with('#'));
    first.is_some_and(|l| {
        l == "---" || ["apiVersion:", "kind:", "items:"].iter().any(|k| l.starts_with(k))
    })
}

/// Whether a line pasted before a document is a shell prompt or the command that printed it
/// (`$ kubectl …`, `user@host:~$ kubectl …`, `PS C:\> kubectl …`, `> kubectl …`, `% oc get …`).
fn is_prompt(line: &str) -> bool {
    let line = line.trim();
    let words: Vec<&str> = line.split_whitespace().collect();
    let command = ["kubectl", "oc", "k", "kubectl.exe", "microk8s", "k3s", "minikube"];
    let prompt = |w: &str| w.ends_with(['$', '>', '#', '%']);
    match words[..] {
        [] => true,
        [one] => prompt(one),
        _ => {
            words.iter().any(|w| command.contains(w) || w.ends_with("/kubectl"))
                && !line.contains(['{', '"'])
        }
    }
}

/// A document that does not parse, located in the whole `text` (its line counted from the
/// first), with a hint when it does not start like JSON.
fn not_json(d: usize, text: &str, rest: &str, e: &serde_json::Error) -> String {
    let before = text[..text.len() - rest.len()].matches('\n').count();
    let msg = e.to_string();
    let msg = msg.rsplit_once(" at line ").map_or(msg.as_str(), |(m, _)| m);
    let hint = if rest.starts_with(['{', '[']) {
        ""
    } else {
        " (paste what `kubectl get … -o json` prints, from its first `{`)"
    };
    format!(
        "document {d}: not JSON: {msg} at line {} column {}{hint}",
        e.line() + before,
        e.column()
    )
}

/// One object, added to `cluster`; errors read `(Kind namespace/name): field: message`.
fn object(cluster: &mut Cluster, item: &Item, list_kind: &str) -> Result<(), String> {
    // Any value but an object reads as an object without the fields (as `Value::get` answered).
    let none;
    let o = match item {
        Item::Object(o) => o,
        Item::Other(_) => {
            none = Object::default();
            &none
        }
    };
    let kind = o.kind.or(list_kind);
    if kind.is_empty() && !o.api_version {
        return Err(not_kubectl(item));
    }
    let name = o.metadata.name.or("");
    let namespace = o.metadata.namespace.or("default");
    let who = match kind {
        "ServiceCIDR" | "IPAddress" => format!("({kind} {name})"),
        "" => "(an object without a kind)".to_string(),
        _ => format!("({kind} {namespace}/{name})"),
    };
    let field = |path: &str, msg: String| format!("{who}: {path}: {msg}");
    if name.is_empty() {
        return Err(field("metadata.name", "missing".into()));
    }
    let spec = &o.spec;
    let labels = string_map(&o.metadata.labels).map_err(|e| field("metadata.labels", e))?;
    let (namespace, name) = (namespace.to_string(), name.to_string());
    match kind {
        "Service" => cluster
            .services
            .push(service(namespace, name, labels, spec).map_err(|(p, e)| field(&p, e))?),
        "Endpoints" => cluster
            .endpoints
            .push(endpoints(namespace, name, labels, o).map_err(|(p, e)| field(&p, e))?),
        "EndpointSlice" => cluster
            .endpoint_slices
            .push(endpoint_slice(namespace, name, labels, o).map_err(|(p, e)| field(&p, e))?),
        "ServiceCIDR" => {
            let cidrs = strings(&spec.cidrs).map_err(|e| field("spec.cidrs", e))?;
            for (i, c) in cidrs.iter().enumerate() {
                c.parse::<ipnet::IpNet>().map_err(|_| {
                    field(&format!("spec.cidrs[{i}]"), format!("invalid CIDR {}", quote(c)))
                })?;
            }
            cluster.service_cidrs.push(file::ServiceCidr { cidrs, name });
        }
        "IPAddress" => {
            ip(&name).map_err(|e| field("metadata.name", e))?;
            let parent = &spec.parent_ref;
            let part = |t: &super::input::Text| t.or("").to_string();
            if part(&parent.name).is_empty() {
                return Err(field("spec.parentRef.name", "missing".into()));
            }
            let parent = Parent {
                group: part(&parent.group),
                name: part(&parent.name),
                namespace: part(&parent.namespace),
                resource: part(&parent.resource),
            };
            cluster.ip_addresses.push(file::IpAddress { ip: name, parent });
        }
        "" => return Err(format!("{who}: kind: missing")),
        other => return Err(format!("{who}: kind {other} is not one the lab reads ({KINDS})")),
    }
    Ok(())
}

type FieldError = (String, String);

fn service(
    namespace: String,
    name: String,
    labels: BTreeMap<String, String>,
    spec: &Spec,
) -> Result<file::Service, FieldError> {
    fn at(p: &'static str) -> impl Fn(String) -> FieldError {
        move |e| (p.to_string(), e)
    }
    let type_ = match spec.type_.or("ClusterIP") {
        "ClusterIP" => ServiceType::ClusterIP,
        "NodePort" => ServiceType::NodePort,
        "LoadBalancer" => ServiceType::LoadBalancer,
        "ExternalName" => ServiceType::ExternalName,
        other => return Err(("spec.type".into(), format!("unknown type {}", quote(other)))),
    };
    let cluster_ip = spec.cluster_ip.or("").to_string();
    service_ip(&cluster_ip).map_err(at("spec.clusterIP"))?;
    let cluster_ips = strings(&spec.cluster_ips).map_err(at("spec.clusterIPs"))?;
    for (i, c) in cluster_ips.iter().enumerate() {
        service_ip(c).map_err(|e| (format!("spec.clusterIPs[{i}]"), e))?;
    }
    let ports = service_ports(spec)?;
    let selector = match &spec.selector {
        StrMap::Absent => None,
        given => Some(string_map(given).map_err(at("spec.selector"))?),
    };
    let health = number(&spec.health_check_node_port, 0).map_err(at("spec.healthCheckNodePort"))?;
    let families = strings(&spec.ip_families).map_err(at("spec.ipFamilies"))?;
    let ip_families = families
        .iter()
        .enumerate()
        .map(|(i, f)| match f.as_str() {
            "IPv4" => Ok(IpFamily::IPv4),
            "IPv6" => Ok(IpFamily::IPv6),
            _ => Err((format!("spec.ipFamilies[{i}]"), format!("unknown family {}", quote(f)))),
        })
        .collect::<Result<_, _>>()?;
    Ok(file::Service {
        cluster_ip,
        cluster_ips,
        health_check_node_port: health,
        ip_families,
        ip_family_policy: spec.ip_family_policy.0.clone(),
        labels,
        name,
        namespace,
        ports,
        publish_not_ready_addresses: spec.publish_not_ready_addresses.0 == Some(true),
        selector,
        type_,
    })
}

/// `spec.ports`, each with what the lab models of it.
fn service_ports(spec: &Spec) -> Result<Vec<ServicePort>, FieldError> {
    let mut ports = Vec::new();
    for (i, p) in array(&spec.ports).map_err(|e| ("spec.ports".to_string(), e))?.iter().enumerate()
    {
        let here = |f: &str| format!("spec.ports[{i}]{f}");
        let protocol = match p.protocol.or("TCP") {
            "TCP" => Protocol::TCP,
            "UDP" => Protocol::UDP,
            "SCTP" => Protocol::SCTP,
            other => return Err((here(".protocol"), format!("unknown protocol {}", quote(other)))),
        };
        let port = number(&p.port, 1).map_err(|e| (here(".port"), e))?;
        let node_port = number(&p.node_port, 0).map_err(|e| (here(".nodePort"), e))?;
        let target_port = match &p.target_port {
            TargetPort::Absent => None,
            TargetPort::Name(s) => Some(IntOrString::String(s.clone())),
            TargetPort::Number(n) => {
                Some(IntOrString::Int(number(n, 1).map_err(|e| (here(".targetPort"), e))?))
            }
        };
        ports.push(ServicePort { name: port_name(p), node_port, port, protocol, target_port });
    }
    Ok(ports)
}

/// A port's `name`, empty when it has none (or one that is no string).
fn port_name(p: &Port) -> String {
    p.name.or("").to_string()
}

fn endpoints(
    namespace: String,
    name: String,
    labels: BTreeMap<String, String>,
    o: &Object,
) -> Result<file::Endpoints, FieldError> {
    let mut subsets = Vec::new();
    for (i, sub) in array(&o.subsets).map_err(|e| ("subsets".to_string(), e))?.iter().enumerate() {
        let ips = |key: &str, list: &List<super::input::Address>| {
            let list = array(list).map_err(|e| (format!("subsets[{i}].{key}"), e))?;
            list.iter()
                .enumerate()
                .map(|(j, a)| {
                    let s = a.ip.or("");
                    ip(s)
                        .map(|_| s.to_string())
                        .map_err(|e| (format!("subsets[{i}].{key}[{j}].ip"), e))
                })
                .collect::<Result<Vec<_>, FieldError>>()
        };
        // The ports are checked before the addresses (as they always were).
        let ports =
            endpoint_ports(&sub.ports).map_err(|(p, e)| (format!("subsets[{i}].{p}"), e))?;
        subsets.push(EndpointSubset {
            addresses: ips("addresses", &sub.addresses)?,
            not_ready_addresses: ips("notReadyAddresses", &sub.not_ready_addresses)?,
            ports,
        });
    }
    Ok(file::Endpoints { labels, name, namespace, subsets })
}

fn endpoint_slice(
    namespace: String,
    name: String,
    labels: BTreeMap<String, String>,
    o: &Object,
) -> Result<file::EndpointSlice, FieldError> {
    let address_type = o.address_type.or("");
    if !["IPv4", "IPv6", "FQDN"].contains(&address_type) {
        return Err((
            "addressType".into(),
            format!("unknown address type {}", quote(address_type)),
        ));
    }
    let mut endpoints = Vec::new();
    for (i, e) in array(&o.endpoints).map_err(|e| ("endpoints".to_string(), e))?.iter().enumerate()
    {
        let addresses =
            strings(&e.addresses).map_err(|m| (format!("endpoints[{i}].addresses"), m))?;
        // `ready` unset means ready (discovery.k8s.io/v1's EndpointConditions).
        let ready = e.conditions.ready.0.unwrap_or(true);
        endpoints.push(file::SliceEndpoint { addresses, ready });
    }
    let ports = endpoint_ports(&o.ports)?;
    Ok(file::EndpointSlice {
        address_type: address_type.to_string(),
        endpoints,
        labels,
        name,
        namespace,
        ports,
    })
}

fn endpoint_ports(v: &List<Port>) -> Result<Vec<EndpointPort>, FieldError> {
    array(v)
        .map_err(|e| ("ports".to_string(), e))?
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let port = number(&p.port, 1).map_err(|e| (format!("ports[{i}].port"), e))?;
            let protocol = p.protocol.or("TCP").to_string();
            Ok(EndpointPort { name: port_name(p), port, protocol })
        })
        .collect()
}

/// What is said of an object with neither `apiVersion` nor `kind`: not what kubectl prints.
fn not_kubectl(item: &Item) -> String {
    let what = match item {
        Item::Object(o) if o.keys.is_empty() => "an empty object".to_string(),
        Item::Object(o) => {
            let keys: Vec<&str> = o.keys.iter().take(4).map(String::as_str).collect();
            let more = if o.keys.len() > 4 { ", …" } else { "" };
            format!("an object of {}{more}", crate::quote::clip(&keys.join(", "), 80))
        }
        Item::Other(other) => short(other),
    };
    format!("not kubectl output: expected objects with apiVersion and kind ({what} has neither)")
}

/// A list, or nothing (`null` and absent read as empty).
fn array<T>(v: &List<T>) -> Result<&[T], String> {
    match v {
        List::Absent => Ok(&[]),
        List::Items(a) => Ok(a),
        List::Other(other) => Err(format!("not a list: {}", short(other))),
    }
}

fn strings(v: &List<Str>) -> Result<Vec<String>, String> {
    array(v)?
        .iter()
        .map(|s| match s {
            Str::Str(s) => Ok(s.clone()),
            Str::Other(v) => Err(format!("not a string: {}", short(v))),
        })
        .collect()
}

/// Labels or a selector; an entry that is no string is named by its key (the first in order).
fn string_map(v: &StrMap) -> Result<BTreeMap<String, String>, String> {
    match v {
        StrMap::Absent => Ok(BTreeMap::new()),
        StrMap::Map(m) => m
            .iter()
            .map(|(k, v)| match v {
                Str::Str(s) => Ok((k.clone(), s.clone())),
                Str::Other(v) => Err(format!("{k}: not a string: {}", short(v))),
            })
            .collect(),
        StrMap::Other(other) => Err(format!("not an object: {}", short(other))),
    }
}

/// An integer in `min..=65535` (a port), or 0 when absent and `min` is 0.
fn number(v: &Num, min: i64) -> Result<i32, String> {
    match v {
        Num::Absent if min == 0 => Ok(0),
        Num::Absent => Err("missing".into()),
        Num::Int(p) if (min..=65535).contains(p) => Ok(*p as i32),
        Num::Int(p) => Err(format!("{p} is not a port number ({min}-65535)")),
        Num::Other(n) => Err(format!("not a port number: {}", short(n))),
    }
}

fn ip(s: &str) -> Result<IpAddr, String> {
    parse_ip(s).ok_or_else(|| format!("invalid IP address {}", quote(s)))
}

/// A ClusterIP: an address, `None` (headless) or empty (ExternalName).
fn service_ip(s: &str) -> Result<(), String> {
    if s.is_empty() || s == "None" {
        return Ok(());
    }
    ip(s).map(|_| ())
}

/// A value as an error quotes it: at most 40 characters of its JSON.
fn short(v: &Value) -> String {
    crate::quote::clip(&v.to_string(), 40)
}
