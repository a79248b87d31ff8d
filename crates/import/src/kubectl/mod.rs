//! A cluster brought in from `kubectl get … -o json`: the Services, the `kubernetes` Endpoints and
//! EndpointSlices, the ServiceCIDRs and the IPAddresses, read from one paste or file that holds
//! one or more JSON documents (`List`s of any of these kinds, or single objects), and turned into
//! a scenario file whose `initial` is that cluster (`bootstrap-sim import`, the UI's import).
//!
//! Only what the lab models is read; every other field (`status`, `managedFields`,
//! `externalName`, annotations, …) is left alone. Input that cannot be read is refused whole, with
//! one message naming the document, the object (`Kind namespace/name`) and the field in
//! Kubernetes' own (camelCase) names: nothing is half-imported.

use std::collections::BTreeSet;
use std::net::IpAddr;

use crate::k8s::api::{parse_ip, Behavior};
use crate::lang::LocalizedText;

/// The largest paste or file read, in bytes: a cluster of 100,000 Services prints about 60 MB.
pub const MAX_BYTES: usize = 128 << 20;

/// The objects of a cluster the lab models, as its scenario format writes them ([`file`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Cluster {
    /// The Services read, each as a scenario's `initial.services` entry.
    pub services: Vec<file::Service>,
    /// The Endpoints read; the `kubernetes` one becomes `initial.endpoints`.
    pub endpoints: Vec<file::Endpoints>,
    /// The EndpointSlices read, in the scenario format's fields.
    pub endpoint_slices: Vec<file::EndpointSlice>,
    /// The ServiceCIDRs read: `initial.service_cidrs` under the behaviours that have them.
    pub service_cidrs: Vec<file::ServiceCidr>,
    /// The IPAddresses read: `initial.ip_addresses` under the behaviours that have them.
    pub ip_addresses: Vec<file::IpAddress>,
    /// What the reading did that the user should know (lines it ignored).
    pub notes: Vec<Note>,
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
    Parsing {
        /// The document, from 1.
        document: usize,
    },
    /// `read` of the `of` objects of the current document read.
    Reading {
        /// The objects read so far.
        read: usize,
        /// The objects of the document.
        of: usize,
    },
    /// Writing the scenario file.
    Writing,
    /// The scenario parser checking the file.
    Checking,
    /// The repair loops running on the cluster ([`findings`]).
    Repairing,
}

pub mod file;
mod input;
mod note;
mod range;
mod read;
#[cfg(test)]
mod tests;
pub use note::{Note, Piece, RangeGuess};
pub use read::{read, read_with};

/// The scenario file whose `initial` is `cluster` (see the module doc), valid under the
/// contract; the flags come from `options` or are guessed as [`Options`] says.
pub fn scenario(cluster: &Cluster, options: &Options) -> Result<file::File, String> {
    let behavior = options.behavior.clone().unwrap_or_else(|| {
        if cluster.service_cidrs.is_empty() && cluster.ip_addresses.is_empty() {
            "1.29".into()
        } else {
            "1.35".into()
        }
    });
    let range = match &options.service_cluster_ip_range {
        Some(r) => r.clone(),
        None => range::default_range(cluster)?.range,
    };
    let node_ports =
        options.service_node_port_range.clone().unwrap_or_else(|| "30000-32767".into());
    let (apiservers, secure_port) = apiservers(cluster);
    // A behaviour the contract does not know is its to refuse ([`check`]): written as given,
    // with the bitmaps and without the objects of 1.33 on.
    let rules = behavior.parse::<Behavior>().ok();
    let objects = rules.is_some_and(Behavior::ip_addresses);
    let bitmaps = rules.is_none_or(Behavior::cluster_ip_bitmap);
    let namespaces: BTreeSet<&str> = std::iter::once("default")
        .chain(cluster.services.iter().map(|s| s.namespace.as_str()))
        .collect();
    let [cluster_ip_allocation, secondary_cluster_ip_allocation] =
        if bitmaps { ip_allocations(cluster, &range) } else { [None, None] };
    let initial = file::Initial {
        cluster_ip_allocation,
        endpoints: cluster.endpoints.iter().filter(|e| e.is_kubernetes()).cloned().collect(),
        ip_addresses: objects.then(|| cluster.ip_addresses.clone()),
        namespaces: namespaces.into_iter().map(String::from).collect(),
        node_port_allocation: node_port_allocation(cluster, &node_ports),
        secondary_cluster_ip_allocation,
        service_cidrs: objects.then(|| cluster.service_cidrs.clone()),
        services: cluster.services.clone(),
    };
    let title = [("en", "An imported cluster"), ("zh", "导入的集群")];
    Ok(file::File {
        behavior,
        cluster: file::Cluster {
            apiservers,
            secure_port,
            service_cluster_ip_range: range,
            service_node_port_range: node_ports,
        },
        initial,
        name: "imported".into(),
        title: LocalizedText::ByLanguage(title.map(|(k, v)| (k.into(), v.into())).into()),
        until: "5m".into(),
    })
}

/// The stored ClusterIP bitmaps of the range's primary and secondary CIDR (each that parses),
/// which the API does not show: taken as consistent with the Services (every ClusterIP in range
/// allocated), not as empty.
fn ip_allocations(cluster: &Cluster, range: &str) -> [Option<file::Allocation<String>>; 2] {
    let mut each = range.split(',').map(|cidr| ip_allocation(cluster, cidr.trim()));
    [each.next().flatten(), each.next().flatten()]
}

fn ip_allocation(cluster: &Cluster, cidr: &str) -> Option<file::Allocation<String>> {
    let net = cidr.parse::<ipnet::IpNet>().ok()?;
    let ips: BTreeSet<IpAddr> =
        cluster.services.iter().flat_map(service_ips).filter(|ip| net.contains(ip)).collect();
    let allocated = ips.iter().map(IpAddr::to_string).collect();
    Some(file::Allocation { allocated, range: cidr.to_string() })
}

/// The stored NodePort bitmap, when the range reads as one: every NodePort and health check
/// NodePort of the Services in it.
fn node_port_allocation(cluster: &Cluster, node_ports: &str) -> Option<file::Allocation<i32>> {
    let (lo, hi) = node_ports.split_once('-')?;
    let (lo, hi) = (lo.trim().parse::<i64>().ok()?, hi.trim().parse::<i64>().ok()?);
    let ports: BTreeSet<i32> = cluster
        .services
        .iter()
        .flat_map(|s| s.ports.iter().map(|p| p.node_port).chain([s.health_check_node_port]))
        // 0: none (the file leaves it out).
        .filter(|&p| p != 0 && (lo..=hi).contains(&i64::from(p)))
        .collect();
    Some(file::Allocation { allocated: ports.into_iter().collect(), range: node_ports.into() })
}

/// The ClusterIPs a Service holds (`clusterIPs`, else `clusterIP`), parsed.
pub(super) fn service_ips(s: &file::Service) -> Vec<IpAddr> {
    let ips =
        if s.cluster_ips.is_empty() { std::slice::from_ref(&s.cluster_ip) } else { &s.cluster_ips };
    ips.iter().filter_map(|ip| parse_ip(ip)).collect()
}

/// One apiserver per address of the `kubernetes` Endpoints (else of its EndpointSlices), with
/// the port they serve; one at `192.168.10.11` when the input has neither.
fn apiservers(cluster: &Cluster) -> (Vec<file::Apiserver>, i64) {
    let (mut ips, port) = apiserver_ips(cluster);
    if ips.is_empty() {
        ips.push(GUESSED_APISERVER);
    }
    let servers = ips
        .iter()
        .enumerate()
        .map(|(i, ip)| file::Apiserver {
            advertise_address: ip.to_string(),
            name: format!("apiserver-{}", i + 1),
        })
        .collect();
    (servers, port.map_or(6443, i64::from))
}

/// The apiserver assumed when the input has no `kubernetes` Endpoints or EndpointSlices.
const GUESSED_APISERVER: &str = "192.168.10.11";

/// The addresses of the `kubernetes` Endpoints (else EndpointSlices), sorted, and their port.
fn apiserver_ips(cluster: &Cluster) -> (Vec<&str>, Option<i32>) {
    // (the addresses of each entry, the first port) of the Endpoints' subsets or of the slices.
    let (ips, port): (Vec<&str>, Option<i32>) =
        match cluster.endpoints.iter().find(|e| e.is_kubernetes()) {
            Some(e) => (
                e.subsets.iter().flat_map(|sub| &sub.addresses).map(String::as_str).collect(),
                e.subsets.iter().find_map(|sub| Some(sub.ports.first()?.port)),
            ),
            None => {
                let slices: Vec<&file::EndpointSlice> = cluster
                    .endpoint_slices
                    .iter()
                    .filter(|s| {
                        s.namespace == "default"
                            && s.labels.get("kubernetes.io/service-name").map(String::as_str)
                                == Some("kubernetes")
                    })
                    .collect();
                (
                    slices
                        .iter()
                        .flat_map(|s| &s.endpoints)
                        .flat_map(|e| &e.addresses)
                        .map(String::as_str)
                        .collect(),
                    slices.iter().find_map(|s| Some(s.ports.first()?.port)),
                )
            }
        };
    let ips: BTreeSet<&str> = ips.into_iter().collect();
    (ips.into_iter().collect(), port)
}

/// What the import ignored or guessed (shown with the findings): the lines of the paste that
/// were no output, the range when it was guessed, the apiserver when the input has none, each
/// saying how to give it.
pub fn notes(cluster: &Cluster, options: &Options) -> Vec<Note> {
    let mut notes = cluster.notes.clone();
    if options.service_cluster_ip_range.is_none() {
        if let Ok(range::Guess { guessed: Some(guesses), .. }) = range::default_range(cluster) {
            notes.push(Note::RangeGuessed { guesses });
        }
    }
    if apiserver_ips(cluster).0.is_empty() {
        notes.push(Note::ApiserversGuessed { at: format!("{GUESSED_APISERVER}:6443") });
    }
    notes
}

/// An import: the scenario file, its text and the scenario it is.
pub struct Imported {
    /// The scenario file written.
    pub file: file::File,
    /// [`notes`] on the import.
    pub notes: Vec<Note>,
    /// The file as printed (what `bootstrap-sim import` writes, the page downloads).
    pub text: String,
    /// The file as the scenario parser read it back.
    pub scenario: crate::contract::scenario::Scenario,
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
    let Written { cluster, file, text } = write_with(text, options, progress)?;
    progress(Progress::Checking);
    let scenario = check(&text)?;
    Ok(Imported { notes: notes(&cluster, options), file, text, scenario })
}

/// A cluster read, and the scenario file written of it, before the scenario parser checks it.
pub struct Written {
    /// The cluster read.
    pub cluster: Cluster,
    /// The scenario file written of it.
    pub file: file::File,
    /// The file as printed.
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
    let text = print(&file);
    Ok(Written { cluster, file, text })
}

/// The file as printed: compact JSON, its keys sorted ([`file`]).
fn print(file: &file::File) -> String {
    serde_json::to_string(file).expect("a scenario file prints")
}

/// The flags an import takes and the page's fields that give them (English, Chinese).
const PAGE_FIELDS: [(&str, &str, &str); 2] = [
    ("--service-cluster-ip-range", "the range field", "范围输入框"),
    ("--behavior", "the behaviour menu", "行为菜单"),
];

/// An import's error as the page shows it, in `lang`: where it names a flag of the CLI
/// (`--service-cluster-ip-range`), it names the page's field that gives it (the CLI keeps the flag).
pub fn in_page(error: &str, lang: crate::lang::Lang) -> String {
    let mut out = error.to_string();
    for (flag, en, zh) in PAGE_FIELDS {
        let field = lang.pick(en, zh);
        let give = lang.pick("give it in ", "请在").to_string() + field + lang.pick("", "中给出");
        out = out.replace(&format!("give it ({flag})"), &give).replace(flag, field);
    }
    out
}

/// The scenario parser on a file [`scenario`] wrote: a flag given in the [`Options`] that its
/// rules refuse is named as the option (`--service-cluster-ip-range: invalid CIDR …`).
pub fn check(text: &str) -> Result<crate::contract::scenario::Scenario, String> {
    const FLAGS: [(&str, &str); 3] = [
        ("cluster.service_cluster_ip_range", "--service-cluster-ip-range"),
        ("cluster.service_node_port_range", "--service-node-port-range"),
        ("behavior", "--behavior"),
    ];
    crate::contract::scenario::parse(text).map_err(|e| {
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
    /// The event's reporting component (`ipallocator-repair-controller`, …).
    pub component: String,
    /// The event's type, `Normal` or `Warning`.
    #[serde(rename = "type")]
    pub type_: String,
    /// The event's reason, as Kubernetes gives it.
    pub reason: String,
    /// The object the event is about (`default/web`).
    pub object: String,
    /// The event's message, as Kubernetes words it.
    pub message: String,
}

/// Runs `scenario` (an imported cluster) with the lab's own rules through the start-instant
/// repair runs, the next resync (`repair_interval`: a Service whose IPAddress was taken by
/// another is repaired then) and the orphan grace period, plus a second, and returns what its
/// ClusterIP and NodePort repair loops reported: their events, and the runs that could not
/// complete (a full range).
pub fn findings(scenario: &crate::contract::scenario::Scenario) -> Vec<Finding> {
    use crate::k8s::event::EventKind;
    // RepairIPAddress's grace period for an orphan IPAddress: checked again when it ends.
    use crate::k8s::repair::repairip::ORPHAN_GRACE_MS;
    let repair =
        [crate::k8s::repair::clusterip::COMPONENT, crate::k8s::repair::nodeport::COMPONENT];
    let mut world = crate::sim::world::World::new(scenario);
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
    let others = crate::k8s::api::Behavior::ALL.iter().map(|b| b.as_str());
    others
        .filter(|b| *b != chosen)
        .map(|b| {
            let options = Options { behavior: Some(b.to_string()), ..options.clone() };
            let file = scenario(cluster, &options).map(|f| print(&f));
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
    /// The release (`1.35`).
    pub behavior: String,
    /// Its findings, or why the cluster could not be run under it.
    pub findings: Result<Vec<Finding>, String>,
}
