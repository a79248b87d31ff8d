//! Reading kubectl output: the documents of a paste, their objects, each field the lab models.

use std::collections::BTreeMap;
use std::net::IpAddr;

use serde_json::{json, Map, Value as Json};

use super::{Cluster, Note, Progress, MAX_BYTES};
use crate::k8s::api::parse_ip;
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
                let doc = <Json as serde::Deserialize>::deserialize(doc)
                    .map_err(|e| format!("document {d}: not YAML: {e}"))?;
                if !doc.is_null() {
                    document(&mut cluster, d, &doc, progress)?;
                }
            }
            break;
        }
        progress(Progress::Parsing { document: d + 1 });
        d += 1;
        let mut documents = serde_json::Deserializer::from_str(rest).into_iter::<Json>();
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
    doc: &Json,
    progress: &mut dyn FnMut(Progress),
) -> Result<(), String> {
    let at = |msg: String| format!("document {d}: {msg}");
    let list_kind = doc.get("kind").and_then(Json::as_str).unwrap_or("");
    // A typed list (`ServiceList`, as the API prints it) leaves out its items' kind.
    let item_kind = list_kind.strip_suffix("List").unwrap_or("");
    match doc.get("items") {
        Some(items) => {
            let items = items.as_array().ok_or_else(|| at("items: not a list".into()))?;
            let step = (items.len() / 100).max(1);
            for (i, item) in items.iter().enumerate() {
                if i % step == 0 {
                    progress(Progress::Reading { read: i, of: items.len() });
                }
                object(cluster, item, item_kind).map_err(|e| at(format!("items[{i}] {e}")))?;
            }
            Ok(())
        }
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
fn object(cluster: &mut Cluster, o: &Json, list_kind: &str) -> Result<(), String> {
    let kind = o.get("kind").and_then(Json::as_str).unwrap_or(list_kind);
    if kind.is_empty() && o.get("apiVersion").is_none() {
        return Err(not_kubectl(o));
    }
    let meta = o.get("metadata").unwrap_or(&Json::Null);
    let name = meta.get("name").and_then(Json::as_str).unwrap_or("");
    let namespace = meta.get("namespace").and_then(Json::as_str).unwrap_or("default");
    let who = match kind {
        "ServiceCIDR" | "IPAddress" => format!("({kind} {name})"),
        "" => "(an object without a kind)".to_string(),
        _ => format!("({kind} {namespace}/{name})"),
    };
    let field = |path: &str, msg: String| format!("{who}: {path}: {msg}");
    if name.is_empty() {
        return Err(field("metadata.name", "missing".into()));
    }
    let spec = o.get("spec").unwrap_or(&Json::Null);
    let labels = string_map(meta.get("labels")).map_err(|e| field("metadata.labels", e))?;
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
            let cidrs = strings(spec.get("cidrs")).map_err(|e| field("spec.cidrs", e))?;
            for (i, c) in cidrs.iter().enumerate() {
                c.parse::<ipnet::IpNet>().map_err(|_| {
                    field(&format!("spec.cidrs[{i}]"), format!("invalid CIDR {}", quote(c)))
                })?;
            }
            cluster.service_cidrs.push(json!({"name": name, "cidrs": cidrs}));
        }
        "IPAddress" => {
            ip(name).map_err(|e| field("metadata.name", e))?;
            let parent = spec.get("parentRef").unwrap_or(&Json::Null);
            let part = |k: &str| parent.get(k).and_then(Json::as_str).unwrap_or("").to_string();
            if part("name").is_empty() {
                return Err(field("spec.parentRef.name", "missing".into()));
            }
            cluster.ip_addresses.push(json!({"ip": name, "parent": {
                "group": part("group"), "resource": part("resource"),
                "namespace": part("namespace"), "name": part("name")}}));
        }
        "" => return Err(format!("{who}: kind: missing")),
        other => return Err(format!("{who}: kind {other} is not one the lab reads ({KINDS})")),
    }
    Ok(())
}

type FieldError = (String, String);

fn service(
    namespace: &str,
    name: &str,
    labels: BTreeMap<String, String>,
    spec: &Json,
) -> Result<Json, FieldError> {
    fn at(p: &'static str) -> impl Fn(String) -> FieldError {
        move |e| (p.to_string(), e)
    }
    let type_ = spec.get("type").and_then(Json::as_str).unwrap_or("ClusterIP");
    if !["ClusterIP", "NodePort", "LoadBalancer", "ExternalName"].contains(&type_) {
        return Err(("spec.type".into(), format!("unknown type {}", quote(type_))));
    }
    let cluster_ip = spec.get("clusterIP").and_then(Json::as_str).unwrap_or("");
    service_ip(cluster_ip).map_err(at("spec.clusterIP"))?;
    let cluster_ips = strings(spec.get("clusterIPs")).map_err(at("spec.clusterIPs"))?;
    for (i, c) in cluster_ips.iter().enumerate() {
        service_ip(c).map_err(|e| (format!("spec.clusterIPs[{i}]"), e))?;
    }
    let ports = service_ports(spec)?;
    let mut s = Map::new();
    s.insert("namespace".into(), namespace.into());
    s.insert("name".into(), name.into());
    s.insert("type".into(), type_.into());
    if !cluster_ip.is_empty() {
        s.insert("cluster_ip".into(), cluster_ip.into());
    }
    if !cluster_ips.is_empty() {
        s.insert("cluster_ips".into(), cluster_ips.into());
    }
    if let Some(sel) = spec.get("selector").filter(|v| !v.is_null()) {
        let sel = string_map(Some(sel)).map_err(at("spec.selector"))?;
        s.insert("selector".into(), json!(sel));
    }
    if !labels.is_empty() {
        s.insert("labels".into(), json!(labels));
    }
    s.insert("ports".into(), ports.into());
    if spec.get("publishNotReadyAddresses") == Some(&Json::Bool(true)) {
        s.insert("publish_not_ready_addresses".into(), true.into());
    }
    let health =
        number(spec.get("healthCheckNodePort"), 0).map_err(at("spec.healthCheckNodePort"))?;
    if health != 0 {
        s.insert("health_check_node_port".into(), health.into());
    }
    let families = strings(spec.get("ipFamilies")).map_err(at("spec.ipFamilies"))?;
    for (i, f) in families.iter().enumerate() {
        if f != "IPv4" && f != "IPv6" {
            return Err((format!("spec.ipFamilies[{i}]"), format!("unknown family {}", quote(f))));
        }
    }
    if !families.is_empty() {
        s.insert("ip_families".into(), families.into());
    }
    if let Some(p) = spec.get("ipFamilyPolicy").and_then(Json::as_str) {
        s.insert("ip_family_policy".into(), p.into());
    }
    Ok(Json::Object(s))
}

/// `spec.ports`, each with what the lab models of it.
fn service_ports(spec: &Json) -> Result<Vec<Json>, FieldError> {
    let mut ports = Vec::new();
    for (i, p) in
        array(spec.get("ports")).map_err(|e| ("spec.ports".to_string(), e))?.iter().enumerate()
    {
        let here = |f: &str| format!("spec.ports[{i}]{f}");
        let mut port = Map::new();
        if let Some(n) = p.get("name").and_then(Json::as_str).filter(|n| !n.is_empty()) {
            port.insert("name".into(), n.into());
        }
        let protocol = p.get("protocol").and_then(Json::as_str).unwrap_or("TCP");
        if !["TCP", "UDP", "SCTP"].contains(&protocol) {
            return Err((here(".protocol"), format!("unknown protocol {}", quote(protocol))));
        }
        port.insert("protocol".into(), protocol.into());
        port.insert(
            "port".into(),
            number(p.get("port"), 1).map_err(|e| (here(".port"), e))?.into(),
        );
        let node_port = number(p.get("nodePort"), 0).map_err(|e| (here(".nodePort"), e))?;
        if node_port != 0 {
            port.insert("node_port".into(), node_port.into());
        }
        match p.get("targetPort") {
            None | Some(Json::Null) => {}
            Some(Json::String(s)) => drop(port.insert("target_port".into(), s.as_str().into())),
            t => drop(port.insert(
                "target_port".into(),
                number(t, 1).map_err(|e| (here(".targetPort"), e))?.into(),
            )),
        }
        ports.push(Json::Object(port));
    }
    Ok(ports)
}

fn endpoints(
    namespace: &str,
    name: &str,
    labels: BTreeMap<String, String>,
    o: &Json,
) -> Result<Json, FieldError> {
    let mut subsets = Vec::new();
    for (i, sub) in
        array(o.get("subsets")).map_err(|e| ("subsets".to_string(), e))?.iter().enumerate()
    {
        let ips = |key: &str| -> Result<Vec<String>, FieldError> {
            let list = array(sub.get(key)).map_err(|e| (format!("subsets[{i}].{key}"), e))?;
            list.iter()
                .enumerate()
                .map(|(j, a)| {
                    let s = a.get("ip").and_then(Json::as_str).unwrap_or("");
                    ip(s)
                        .map(|_| s.to_string())
                        .map_err(|e| (format!("subsets[{i}].{key}[{j}].ip"), e))
                })
                .collect()
        };
        let ports =
            endpoint_ports(sub.get("ports")).map_err(|(p, e)| (format!("subsets[{i}].{p}"), e))?;
        subsets.push(json!({"addresses": ips("addresses")?,
            "not_ready_addresses": ips("notReadyAddresses")?, "ports": ports}));
    }
    let mut e = json!({"namespace": namespace, "name": name, "subsets": subsets});
    if !labels.is_empty() {
        e["labels"] = json!(labels);
    }
    Ok(e)
}

fn endpoint_slice(
    namespace: &str,
    name: &str,
    labels: BTreeMap<String, String>,
    o: &Json,
) -> Result<Json, FieldError> {
    let address_type = o.get("addressType").and_then(Json::as_str).unwrap_or("");
    if !["IPv4", "IPv6", "FQDN"].contains(&address_type) {
        return Err((
            "addressType".into(),
            format!("unknown address type {}", quote(address_type)),
        ));
    }
    let mut endpoints = Vec::new();
    for (i, e) in
        array(o.get("endpoints")).map_err(|e| ("endpoints".to_string(), e))?.iter().enumerate()
    {
        let addresses =
            strings(e.get("addresses")).map_err(|m| (format!("endpoints[{i}].addresses"), m))?;
        // `ready` unset means ready (discovery.k8s.io/v1's EndpointConditions).
        let ready = e.pointer("/conditions/ready").and_then(Json::as_bool).unwrap_or(true);
        endpoints.push(json!({"addresses": addresses, "ready": ready}));
    }
    let ports = endpoint_ports(o.get("ports"))?;
    Ok(json!({"namespace": namespace, "name": name, "labels": labels,
        "address_type": address_type, "endpoints": endpoints, "ports": ports}))
}

fn endpoint_ports(v: Option<&Json>) -> Result<Vec<Json>, FieldError> {
    array(v)
        .map_err(|e| ("ports".to_string(), e))?
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let port = number(p.get("port"), 1).map_err(|e| (format!("ports[{i}].port"), e))?;
            let mut out = json!({"port": port,
                "protocol": p.get("protocol").and_then(Json::as_str).unwrap_or("TCP")});
            if let Some(n) = p.get("name").and_then(Json::as_str).filter(|n| !n.is_empty()) {
                out["name"] = n.into();
            }
            Ok(out)
        })
        .collect()
}

/// What is said of an object with neither `apiVersion` nor `kind`: not what kubectl prints.
fn not_kubectl(o: &Json) -> String {
    let what = match o {
        Json::Object(m) if m.is_empty() => "an empty object".to_string(),
        Json::Object(m) => {
            let keys: Vec<&str> = m.keys().take(4).map(String::as_str).collect();
            let more = if m.len() > 4 { ", …" } else { "" };
            format!("an object of {}{more}", crate::quote::clip(&keys.join(", "), 80))
        }
        other => short(other),
    };
    format!("not kubectl output: expected objects with apiVersion and kind ({what} has neither)")
}

/// A list, or nothing (`null` and absent read as empty).
fn array(v: Option<&Json>) -> Result<&[Json], String> {
    match v {
        None | Some(Json::Null) => Ok(&[]),
        Some(Json::Array(a)) => Ok(a),
        Some(other) => Err(format!("not a list: {}", short(other))),
    }
}

fn strings(v: Option<&Json>) -> Result<Vec<String>, String> {
    array(v)?
        .iter()
        .map(|s| {
            s.as_str().map(str::to_string).ok_or_else(|| format!("not a string: {}", short(s)))
        })
        .collect()
}

fn string_map(v: Option<&Json>) -> Result<BTreeMap<String, String>, String> {
    match v {
        None | Some(Json::Null) => Ok(BTreeMap::new()),
        Some(Json::Object(m)) => m
            .iter()
            .map(|(k, v)| match v.as_str() {
                Some(s) => Ok((k.clone(), s.to_string())),
                None => Err(format!("{k}: not a string: {}", short(v))),
            })
            .collect(),
        Some(other) => Err(format!("not an object: {}", short(other))),
    }
}

/// An integer in `min..=65535` (a port), or 0 when absent and `min` is 0.
fn number(v: Option<&Json>, min: i64) -> Result<i64, String> {
    match v {
        None | Some(Json::Null) if min == 0 => Ok(0),
        None | Some(Json::Null) => Err("missing".into()),
        Some(n) => match n.as_i64() {
            Some(p) if (min..=65535).contains(&p) => Ok(p),
            Some(p) => Err(format!("{p} is not a port number ({min}-65535)")),
            None => Err(format!("not a port number: {}", short(n))),
        },
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
fn short(v: &Json) -> String {
    crate::quote::clip(&v.to_string(), 40)
}
