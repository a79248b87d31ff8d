//! The parts of the UI, by one name each: what `panels=` shows and what a tour step's
//! `highlight` points at. Which elements draw them is the UI's business (`ui::spots`).

use std::fmt;
use std::str::FromStr;

use crate::lang::Lang;

string_enum! {
    /// A part of the page: a panel ([`Part::PANELS`]) or something inside one.
    pub enum Part {
        /// The time controls.
        Controls = "controls",
        /// The stage.
        Stage = "stage",
        /// The apiservers.
        Apiservers = "apiservers",
        /// etcd.
        Etcd = "etcd",
        /// The leases in etcd.
        Leases = "leases",
        /// The allocation objects in etcd (`/ranges/…`).
        Ranges = "ranges",
        /// The `default/kubernetes` Service.
        KubernetesService = "kubernetes-service",
        /// Its Endpoints.
        Endpoints = "endpoints",
        /// Its EndpointSlice.
        EndpointSlice = "endpoint-slice",
        /// The events and logs.
        Events = "events",
        /// The allocation bitmaps.
        Bitmaps = "bitmaps",
        /// The ClusterIP bitmap.
        ClusterIp = "cluster-ip",
        /// The NodePort bitmap.
        NodePort = "node-port",
        /// The IPAddress objects (1.33 and later).
        IpAddresses = "ip-addresses",
        /// The ServiceCIDRs (1.33 and later).
        ServiceCidrs = "service-cidrs",
        /// The Services.
        Services = "services",
        /// The Pods.
        Pods = "pods",
        /// The client pods under the stage (a scenario with `clients`): their figures.
        Clients = "clients",
        /// The import of the reader's own cluster.
        Import = "import",
        /// The storage corruption controls.
        Corrupt = "corrupt",
    }
}

impl Part {
    /// The panels `panels=` can choose from, in the UI's order.
    pub const PANELS: &'static [Part] = &[
        Part::Stage,
        Part::Apiservers,
        Part::KubernetesService,
        Part::Etcd,
        Part::Events,
        Part::Bitmaps,
        Part::ServiceCidrs,
        Part::Services,
        Part::Pods,
        Part::Import,
    ];

    /// Whether `panels=` can choose it.
    pub fn is_panel(self) -> bool {
        Part::PANELS.contains(&self)
    }

    /// What the part is called on a tour's "Look at" button.
    pub fn label(self, lang: Lang) -> &'static str {
        let (en, zh) = match self {
            Part::Controls => ("time controls", "时间控制"),
            Part::Stage => ("the stage", "舞台"),
            Part::Apiservers => ("apiservers", "apiserver"),
            Part::Etcd => ("etcd", "etcd"),
            Part::Leases => ("leases in etcd", "etcd 中的租约"),
            Part::Ranges => ("/ranges in etcd", "etcd 中的 /ranges"),
            Part::KubernetesService => ("default/kubernetes", "default/kubernetes"),
            Part::Endpoints => ("its Endpoints", "它的 Endpoints"),
            Part::EndpointSlice => ("its EndpointSlice", "它的 EndpointSlice"),
            Part::Events => ("events and logs", "事件与日志"),
            Part::Bitmaps => ("bitmaps", "位图"),
            Part::ClusterIp => ("ClusterIP bitmap", "ClusterIP 位图"),
            Part::NodePort => ("NodePort bitmap", "NodePort 位图"),
            Part::IpAddresses => ("IPAddress objects", "IPAddress 对象"),
            Part::ServiceCidrs => ("ServiceCIDRs", "ServiceCIDR 列表"),
            Part::Services => ("Services", "Service 列表"),
            Part::Pods => ("Pods", "Pod 列表"),
            Part::Clients => ("client pods", "客户端 Pod"),
            Part::Import => ("your cluster", "你的集群"),
            Part::Corrupt => ("storage corruption", "篡改存储"),
        };
        lang.pick(en, zh)
    }
}

/// What a tour step highlights: a part, or one apiserver's card (`apiserver:<name>`).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Spot {
    /// A part of the page.
    Part(Part),
    /// One apiserver's card, by its name.
    Apiserver(String),
}

impl Spot {
    /// What the spot is called on a "Look at" button.
    pub fn label(&self, lang: Lang) -> String {
        match self {
            Spot::Part(p) => p.label(lang).to_string(),
            Spot::Apiserver(name) => name.clone(),
        }
    }
}

/// Why `text` names no spot of the UI, with the list of those that it could name.
pub(crate) fn not_a_spot(text: &str) -> String {
    let parts: Vec<&str> = Part::ALL.iter().map(|p| p.as_str()).collect();
    format!(
        "{text:?} is not a part of the UI (one of {}, or apiserver:<name of one of the scenario's apiservers>)",
        parts.join(", ")
    )
}

impl FromStr for Spot {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s.strip_prefix("apiserver:") {
            Some(name) if !name.is_empty() => Ok(Spot::Apiserver(name.to_string())),
            _ => s.parse::<Part>().map(Spot::Part).map_err(|_| not_a_spot(s)),
        }
    }
}

impl fmt::Display for Spot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Spot::Part(p) => f.write_str(p.as_str()),
            Spot::Apiserver(name) => write!(f, "apiserver:{name}"),
        }
    }
}

impl serde::Serialize for Spot {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for Spot {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = <std::borrow::Cow<'de, str> as serde::Deserialize>::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}
