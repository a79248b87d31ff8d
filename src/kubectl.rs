//! A cluster brought in from `kubectl get … -o json`: the Services, the `kubernetes` Endpoints and
//! EndpointSlices, the ServiceCIDRs and the IPAddresses, read from one paste or file that holds
//! one or more JSON documents (`List`s of any of these kinds, or single objects), and turned into
//! a scenario file whose `initial` is that cluster (`bootstrap-sim import`, the UI's import).
//!
//! Only what the lab models is read; every other field (`status`, `managedFields`,
//! `externalName`, annotations, …) is left alone. Input that cannot be read is refused whole, with
//! one message naming the document, the object (`Kind namespace/name`) and the field in
//! Kubernetes' own (camelCase) names: nothing is half-imported.

use std::collections::{BTreeMap, BTreeSet};
use std::net::IpAddr;

use serde_json::{json, Map, Value as Json};

use crate::api::parse_ip;
use crate::quote::quote;

/// The largest paste or file read, in bytes: a cluster of 100,000 Services prints about 60 MB.
pub const MAX_BYTES: usize = 128 << 20;

/// The kinds read; anything else in the input is refused by name.
const KINDS: &str = "Service, Endpoints, EndpointSlice, ServiceCIDR, IPAddress";

/// The objects of a cluster the lab models, as its scenario format writes them (snake_case).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Cluster {
    pub services: Vec<Json>,
    pub endpoints: Vec<Json>,
    pub endpoint_slices: Vec<Json>,
    pub service_cidrs: Vec<Json>,
    pub ip_addresses: Vec<Json>,
}

/// What `kubectl` does not show and the import needs: the flags, as the CLI options give them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// `--behavior`: by default `1.35` when the input holds ServiceCIDRs or IPAddresses, else `1.29`.
    pub behavior: Option<String>,
    /// `--service-cluster-ip-range`: by default the ServiceCIDR `kubernetes`'s CIDRs, else guessed
    /// from the `kubernetes` Service's ClusterIPs.
    pub service_cluster_ip_range: Option<String>,
    /// `--service-node-port-range`: by default Kubernetes' `30000-32767`.
    pub service_node_port_range: Option<String>,
}

/// The text of a file of kubectl output: UTF-8, with or without a byte-order mark. UTF-16 (what
/// Windows PowerShell's `>` writes) is refused saying how to write UTF-8.
pub fn text_of(bytes: &[u8]) -> Result<&str, String> {
    if bytes.starts_with(&[0xff, 0xfe]) || bytes.starts_with(&[0xfe, 0xff]) {
        return Err("input: UTF-16 text (as Windows PowerShell's `>` writes it); write UTF-8: `kubectl get svc -A -o json | Out-File -Encoding utf8 cluster.json`".into());
    }
    let bytes = bytes.strip_prefix(&[0xef, 0xbb, 0xbf]).unwrap_or(bytes);
    std::str::from_utf8(bytes).map_err(|e| {
        let at = e.valid_up_to();
        format!("input: not UTF-8 text (byte {at}); kubectl prints JSON in UTF-8")
    })
}

/// How far an import has come, told as it goes (the page's progress bar). The phases are the
/// lab's own, in order: [`read`] parses each document then reads its objects, [`import`] writes
/// the scenario file then checks it, and the caller runs [`findings`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "phase", rename_all = "snake_case")]
pub enum Progress {
    /// Parsing the JSON of the `document`th document (1-based).
    Parsing { document: usize },
    /// `read` of the `of` objects of the current document read.
    Reading { read: usize, of: usize },
    /// Writing the scenario file.
    Writing,
    /// The scenario parser checking the file.
    Checking,
    /// The repair loops running on the cluster ([`findings`]).
    Repairing,
}

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
    let mut documents = serde_json::Deserializer::from_str(text).into_iter::<Json>();
    let mut d = 0;
    while let Some(doc) = {
        progress(Progress::Parsing { document: d + 1 });
        documents.next()
    } {
        d += 1;
        let doc = doc.map_err(|e| format!("document {d}: not JSON: {e}"))?;
        let at = |msg: String| format!("document {d}: {msg}");
        match doc.get("items") {
            Some(items) => {
                let items = items
                    .as_array()
                    .ok_or_else(|| at("items: not a list".into()))?;
                let step = (items.len() / 100).max(1);
                for (i, item) in items.iter().enumerate() {
                    if i % step == 0 {
                        progress(Progress::Reading { read: i, of: items.len() });
                    }
                    object(&mut cluster, item).map_err(|e| at(format!("items[{i}] {e}")))?;
                }
            }
            None => object(&mut cluster, &doc).map_err(at)?,
        }
    }
    if d == 0 {
        return Err(
            "input: empty (paste the JSON that `kubectl get svc -A -o json` prints)".into(),
        );
    }
    Ok(cluster)
}

/// One object, added to `cluster`; errors read `(Kind namespace/name): field: message`.
fn object(cluster: &mut Cluster, o: &Json) -> Result<(), String> {
    let kind = o.get("kind").and_then(Json::as_str).unwrap_or("");
    let meta = o.get("metadata").unwrap_or(&Json::Null);
    let name = meta.get("name").and_then(Json::as_str).unwrap_or("");
    let namespace = meta
        .get("namespace")
        .and_then(Json::as_str)
        .unwrap_or("default");
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
                    field(
                        &format!("spec.cidrs[{i}]"),
                        format!("invalid CIDR {}", quote(c)),
                    )
                })?;
            }
            cluster
                .service_cidrs
                .push(json!({"name": name, "cidrs": cidrs}));
        }
        "IPAddress" => {
            ip(name).map_err(|e| field("metadata.name", e))?;
            let parent = spec.get("parentRef").unwrap_or(&Json::Null);
            let part = |k: &str| {
                parent
                    .get(k)
                    .and_then(Json::as_str)
                    .unwrap_or("")
                    .to_string()
            };
            if part("name").is_empty() {
                return Err(field("spec.parentRef.name", "missing".into()));
            }
            cluster.ip_addresses.push(json!({"ip": name, "parent": {
                "group": part("group"), "resource": part("resource"),
                "namespace": part("namespace"), "name": part("name")}}));
        }
        "" => return Err(format!("{who}: kind: missing")),
        other => {
            return Err(format!(
                "{who}: kind {other} is not one the lab reads ({KINDS})"
            ))
        }
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
    let type_ = spec
        .get("type")
        .and_then(Json::as_str)
        .unwrap_or("ClusterIP");
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
            return Err((
                format!("spec.ipFamilies[{i}]"),
                format!("unknown family {}", quote(f)),
            ));
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
    for (i, p) in array(spec.get("ports"))
        .map_err(|e| ("spec.ports".to_string(), e))?
        .iter()
        .enumerate()
    {
        let here = |f: &str| format!("spec.ports[{i}]{f}");
        let mut port = Map::new();
        if let Some(n) = p
            .get("name")
            .and_then(Json::as_str)
            .filter(|n| !n.is_empty())
        {
            port.insert("name".into(), n.into());
        }
        let protocol = p.get("protocol").and_then(Json::as_str).unwrap_or("TCP");
        if !["TCP", "UDP", "SCTP"].contains(&protocol) {
            return Err((
                here(".protocol"),
                format!("unknown protocol {}", quote(protocol)),
            ));
        }
        port.insert("protocol".into(), protocol.into());
        port.insert(
            "port".into(),
            number(p.get("port"), 1)
                .map_err(|e| (here(".port"), e))?
                .into(),
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
    for (i, sub) in array(o.get("subsets"))
        .map_err(|e| ("subsets".to_string(), e))?
        .iter()
        .enumerate()
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
    for (i, e) in array(o.get("endpoints"))
        .map_err(|e| ("endpoints".to_string(), e))?
        .iter()
        .enumerate()
    {
        let addresses =
            strings(e.get("addresses")).map_err(|m| (format!("endpoints[{i}].addresses"), m))?;
        // `ready` unset means ready (discovery.k8s.io/v1's EndpointConditions).
        let ready = e
            .pointer("/conditions/ready")
            .and_then(Json::as_bool)
            .unwrap_or(true);
        endpoints.push(json!({"addresses": addresses, "ready": ready}));
    }
    let ports = endpoint_ports(o.get("ports"))?;
    Ok(
        json!({"namespace": namespace, "name": name, "labels": labels,
        "address_type": address_type, "endpoints": endpoints, "ports": ports}),
    )
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
            if let Some(n) = p
                .get("name")
                .and_then(Json::as_str)
                .filter(|n| !n.is_empty())
            {
                out["name"] = n.into();
            }
            Ok(out)
        })
        .collect()
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
            s.as_str()
                .map(str::to_string)
                .ok_or_else(|| format!("not a string: {}", short(s)))
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

/// The scenario file whose `initial` is `cluster` (see the module doc), valid under the
/// contract; the flags come from `options` or are guessed as [`Options`] says.
pub fn scenario(cluster: &Cluster, options: &Options) -> Result<Json, String> {
    let behavior = options.behavior.clone().unwrap_or_else(|| {
        if cluster.service_cidrs.is_empty() && cluster.ip_addresses.is_empty() {
            "1.29".into()
        } else {
            "1.35".into()
        }
    });
    let range = match &options.service_cluster_ip_range {
        Some(r) => r.clone(),
        None => default_range(cluster)?,
    };
    let node_ports = options
        .service_node_port_range
        .clone()
        .unwrap_or_else(|| "30000-32767".into());
    let (apiservers, secure_port) = apiservers(cluster);
    let namespaces: BTreeSet<&str> = std::iter::once("default")
        .chain(
            cluster
                .services
                .iter()
                .filter_map(|s| s["namespace"].as_str()),
        )
        .collect();
    let mut initial = json!({
        "namespaces": namespaces,
        "services": cluster.services,
        "endpoints": cluster.endpoints.iter()
            .filter(|e| is_kubernetes(e)).collect::<Vec<_>>(),
    });
    if behavior == "1.33" || behavior == "1.35" {
        initial["service_cidrs"] = json!(cluster.service_cidrs);
        initial["ip_addresses"] = json!(cluster.ip_addresses);
    }
    // The stored bitmaps are not visible through the API: taken as consistent with the
    // Services (every ClusterIP and NodePort in range allocated), not as empty.
    let cidrs: Vec<&str> = range.split(',').map(str::trim).collect();
    if behavior != "1.35" {
        for (key, cidr) in ["cluster_ip_allocation", "secondary_cluster_ip_allocation"]
            .iter()
            .zip(&cidrs)
        {
            if let Ok(net) = cidr.parse::<ipnet::IpNet>() {
                let ips: BTreeSet<IpAddr> = cluster
                    .services
                    .iter()
                    .flat_map(service_ips)
                    .filter(|ip| net.contains(ip))
                    .collect();
                let ips: Vec<String> = ips.iter().map(IpAddr::to_string).collect();
                initial[*key] = json!({"range": cidr, "allocated": ips});
            }
        }
    }
    if let Some((lo, hi)) = node_ports
        .split_once('-')
        .and_then(|(a, b)| Some((a.trim().parse::<i64>().ok()?, b.trim().parse::<i64>().ok()?)))
    {
        let ports: BTreeSet<i64> = cluster
            .services
            .iter()
            .flat_map(|s| {
                let node = items(&s["ports"]).filter_map(|p| p["node_port"].as_i64());
                node.chain(s["health_check_node_port"].as_i64())
            })
            .filter(|p| (lo..=hi).contains(p))
            .collect();
        initial["node_port_allocation"] = json!({"range": node_ports, "allocated": ports});
    }
    Ok(json!({
        "name": "imported",
        "title": {"en": "An imported cluster", "zh": "导入的集群"},
        "behavior": behavior,
        "cluster": {
            "service_cluster_ip_range": range,
            "service_node_port_range": node_ports,
            "secure_port": secure_port,
            "apiservers": apiservers,
        },
        "initial": initial,
        "until": "5m",
    }))
}

/// The elements of a list in an object the import wrote (none when it is not one).
fn items(v: &Json) -> impl Iterator<Item = &Json> {
    v.as_array().into_iter().flatten()
}

/// The strings of such a list.
fn texts(v: &Json) -> impl Iterator<Item = &str> {
    items(v).filter_map(Json::as_str)
}

/// Whether an object the import wrote is `default/kubernetes`.
fn is_kubernetes(o: &Json) -> bool {
    o["namespace"] == "default" && o["name"] == "kubernetes"
}

/// The ClusterIPs a Service holds (`clusterIPs`, else `clusterIP`), parsed.
fn service_ips(s: &Json) -> Vec<IpAddr> {
    let many: Vec<&str> = texts(&s["cluster_ips"]).collect();
    let ips = if many.is_empty() {
        s["cluster_ip"].as_str().into_iter().collect()
    } else {
        many
    };
    ips.into_iter().filter_map(parse_ip).collect()
}

/// The ServiceCIDR `kubernetes`'s CIDRs; else, for each ClusterIP of the `kubernetes` Service,
/// the smallest CIDR whose first usable address it is and that holds every ClusterIP of its
/// family, plus a secondary range when other Services have ClusterIPs of the other family (the
/// flags themselves are not visible through the API).
fn default_range(cluster: &Cluster) -> Result<String, String> {
    if let Some(c) = cluster
        .service_cidrs
        .iter()
        .find(|c| c["name"] == "kubernetes")
    {
        let cidrs: Vec<&str> = texts(&c["cidrs"]).collect();
        if !cidrs.is_empty() {
            return Ok(cidrs.join(","));
        }
    }
    let kubernetes = cluster
        .services
        .iter()
        .find(|s| is_kubernetes(s))
        .ok_or("service_cluster_ip_range: no ServiceCIDR `kubernetes` and no Service default/kubernetes to guess it from: give it (--service-cluster-ip-range)")?;
    let all: Vec<IpAddr> = cluster.services.iter().flat_map(service_ips).collect();
    let family = |v4: bool| -> Vec<&IpAddr> { all.iter().filter(|ip| ip.is_ipv4() == v4).collect() };
    let mut firsts = service_ips(kubernetes);
    if firsts.is_empty() {
        return Err("service_cluster_ip_range: the Service default/kubernetes has no ClusterIP to guess it from: give it (--service-cluster-ip-range)".into());
    }
    // A dual-stack cluster: the `kubernetes` Service is single-stack, the other Services tell
    // the secondary range. Its first address is unknown: the guess starts at the widest range
    // the flag allows that holds the family's lowest ClusterIP.
    if let [primary] = firsts[..] {
        if let Some(lowest) = family(!primary.is_ipv4()).into_iter().min() {
            firsts.push(widest_network(*lowest));
        }
    }
    let ranges: Vec<String> = firsts
        .into_iter()
        .map(|first| smallest_range(first, &family(first.is_ipv4())))
        .collect();
    Ok(ranges.join(","))
}

/// The first address of the widest range the flag allows (/12, /108) that holds `ip`.
fn widest_network(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(a) => IpAddr::V4((u32::from(a) & !((1 << 20) - 1) | 1).into()),
        IpAddr::V6(a) => IpAddr::V6((u128::from(a) & !((1 << 20) - 1) | 1).into()),
    }
}

/// A guess at the flag: the network is `first - 1`; the range is the smallest aligned on it, no
/// larger than the flag allows with a bitmap (/12, /108), holding every IP of `family` that the
/// largest such range holds (the others are out of range: a finding, not a reason to widen).
fn smallest_range(first: IpAddr, family: &[&IpAddr]) -> String {
    let (bits, widest) = match first {
        IpAddr::V4(_) => (32u32, 12u32),
        IpAddr::V6(_) => (128, 108),
    };
    let value = |ip: &IpAddr| match ip {
        IpAddr::V4(a) => u32::from(*a) as u128,
        IpAddr::V6(a) => u128::from(*a),
    };
    let network = value(&first).wrapping_sub(1);
    let size = |len: u32| 1u128 << (bits - len);
    let holds = |len: u32, ip: &&IpAddr| value(ip).wrapping_sub(network) < size(len);
    // At least 8 addresses (the flag's own minimum), aligned on the network.
    let aligned: Vec<u32> = (widest..=bits - 3)
        .filter(|&len| network % size(len) == 0)
        .collect();
    let len = match aligned.first() {
        None => bits - 3,
        Some(&wide) => {
            let inside: Vec<&&IpAddr> = family.iter().filter(|ip| holds(wide, ip)).collect();
            aligned
                .iter()
                .rev()
                .copied()
                .find(|&len| inside.iter().all(|ip| holds(len, ip)))
                .unwrap_or(wide)
        }
    };
    let net = match first {
        IpAddr::V4(_) => IpAddr::V4((network as u32).into()),
        IpAddr::V6(_) => IpAddr::V6(network.into()),
    };
    format!("{net}/{len}")
}

/// One apiserver per address of the `kubernetes` Endpoints (else of its EndpointSlices), with
/// the port they serve; one at `192.168.10.11` when the input has neither.
fn apiservers(cluster: &Cluster) -> (Vec<Json>, i64) {
    // (the addresses of each entry, the first port) of the Endpoints' subsets or of the slices.
    let (ips, port): (Vec<&str>, Option<i64>) =
        match cluster.endpoints.iter().find(|e| is_kubernetes(e)) {
            Some(e) => (
                items(&e["subsets"])
                    .flat_map(|sub| texts(&sub["addresses"]))
                    .collect(),
                items(&e["subsets"]).find_map(|sub| sub["ports"][0]["port"].as_i64()),
            ),
            None => {
                let slices: Vec<&Json> = cluster
                    .endpoint_slices
                    .iter()
                    .filter(|s| {
                        s["namespace"] == "default"
                            && s["labels"]["kubernetes.io/service-name"] == "kubernetes"
                    })
                    .collect();
                (
                    slices
                        .iter()
                        .flat_map(|s| items(&s["endpoints"]))
                        .flat_map(|e| texts(&e["addresses"]))
                        .collect(),
                    slices.iter().find_map(|s| s["ports"][0]["port"].as_i64()),
                )
            }
        };
    let ips: BTreeSet<&str> = ips.into_iter().collect();
    let mut ips: Vec<&str> = ips.into_iter().collect();
    if ips.is_empty() {
        ips.push("192.168.10.11");
    }
    let servers = ips
        .iter()
        .enumerate()
        .map(|(i, ip)| json!({"name": format!("apiserver-{}", i + 1), "advertise_address": ip}))
        .collect();
    (servers, port.unwrap_or(6443))
}

/// An import: the scenario file, its text and the scenario it is.
pub struct Imported {
    pub file: Json,
    pub text: String,
    pub scenario: crate::scenario::Scenario,
}

/// [`read`], then [`scenario`], checked by the scenario parser: what is printed or loaded is a
/// file the other commands accept.
pub fn import(text: &str, options: &Options) -> Result<Imported, String> {
    import_with(text, options, &mut |_| {})
}

/// [`import`], telling `progress` how far it has come.
pub fn import_with(
    text: &str,
    options: &Options,
    progress: &mut dyn FnMut(Progress),
) -> Result<Imported, String> {
    let Written { file, text, .. } = write_with(text, options, progress)?;
    progress(Progress::Checking);
    let scenario = check(&text)?;
    Ok(Imported {
        file,
        text,
        scenario,
    })
}

/// A cluster read, and the scenario file written of it, before the scenario parser checks it.
pub struct Written {
    pub cluster: Cluster,
    pub file: Json,
    pub text: String,
}

/// [`read_with`], then [`scenario`]: the cluster, the file and its text, before [`check`].
pub fn write_with(
    text: &str,
    options: &Options,
    progress: &mut dyn FnMut(Progress),
) -> Result<Written, String> {
    let cluster = read_with(text, progress)?;
    progress(Progress::Writing);
    let file = scenario(&cluster, options)?;
    let text = file.to_string();
    Ok(Written {
        cluster,
        file,
        text,
    })
}

/// The scenario parser on a file [`scenario`] wrote: a flag given in the [`Options`] that its
/// rules refuse is named as the option (`--service-cluster-ip-range: invalid CIDR …`).
pub fn check(text: &str) -> Result<crate::scenario::Scenario, String> {
    const FLAGS: [(&str, &str); 3] = [
        (
            "cluster.service_cluster_ip_range",
            "--service-cluster-ip-range",
        ),
        (
            "cluster.service_node_port_range",
            "--service-node-port-range",
        ),
        ("behavior", "--behavior"),
    ];
    crate::scenario::parse(text).map_err(|e| {
        FLAGS
            .iter()
            .find_map(|(path, flag)| e.strip_prefix(path).map(|rest| format!("{flag}{rest}")))
            .unwrap_or(e)
    })
}

/// What the repair loops report on an imported cluster: one entry per distinct event (every
/// apiserver's loops report the same), in the order first reported.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Finding {
    pub component: String,
    #[serde(rename = "type")]
    pub type_: String,
    pub reason: String,
    pub object: String,
    pub message: String,
}

/// Runs `scenario` (an imported cluster) with the lab's own rules through the start-instant
/// repair runs, the next resync (`repair_interval`: a Service whose IPAddress was taken by
/// another is repaired then) and the orphan grace period, plus a second, and returns what its
/// ClusterIP and NodePort repair loops reported: their events, and the runs that could not
/// complete (a full range).
pub fn findings(scenario: &crate::scenario::Scenario) -> Vec<Finding> {
    use crate::event::EventKind;
    // RepairIPAddress's grace period for an orphan IPAddress: checked again when it ends.
    use crate::repair::repairip::ORPHAN_GRACE_MS;
    let repair = [
        crate::repair::clusterip::COMPONENT,
        crate::repair::nodeport::COMPONENT,
    ];
    let mut world = crate::world::World::new(scenario);
    world.run_until(scenario.cluster.repair_interval_ms.max(ORPHAN_GRACE_MS) + 1_000);
    let mut seen = BTreeSet::new();
    world
        .events()
        .iter()
        .filter(|e| repair.contains(&e.component.as_str()))
        .filter(|e| e.type_ == "Warning" || e.kind == EventKind::RepairFailed)
        .filter(|e| seen.insert((e.reason.clone(), e.object.clone(), e.message.clone())))
        .map(|e| Finding {
            component: e.component.clone(),
            type_: e.type_.clone(),
            reason: e.reason.clone(),
            object: e.object.clone(),
            message: e.message.clone(),
        })
        .collect()
}

/// What the repair loops of each release's rules but `chosen`'s would report on the same
/// cluster: its file written under each other behaviour (the ranges as `options` give them or
/// as guessed), checked and run as [`findings`] runs it. A behaviour whose rules refuse the file
/// (a range too wide for a bitmap) says why.
pub fn compare(cluster: &Cluster, options: &Options, chosen: &str) -> Vec<Comparison> {
    let others = crate::api::Behavior::ALL.iter().map(|b| b.as_str());
    others
        .filter(|b| *b != chosen)
        .map(|b| {
            let options = Options {
                behavior: Some(b.to_string()),
                ..options.clone()
            };
            let file = scenario(cluster, &options).map(|f| f.to_string());
            Comparison {
                behavior: b.to_string(),
                findings: file.and_then(|f| check(&f)).map(|s| findings(&s)),
            }
        })
        .collect()
}

/// One release's findings on a cluster, for [`compare`].
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Comparison {
    pub behavior: String,
    pub findings: Result<Vec<Finding>, String>,
}
