//! The sandbox the Configure form describes: its settings as typed, the scenario file they make
//! (the contract's `Sandbox`, checked as a file is), and the settings of a running cluster, which the form opens
//! with (so that "Start this cluster" starts what the reader sees, not a default).

use crate::contract::scenario::{Sandbox, Scenario, SANDBOX_APISERVERS};
use crate::k8s::api::Behavior;
use crate::k8s::reconcilers::ReconcilerType;
use crate::lang::Lang;

/// The settings of the configuration form, as typed.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// The Service CIDR (`10.96.0.0/16`).
    pub service_cidr: String,
    /// The NodePort range (`30000-32767`).
    pub node_ports: String,
    /// The endpoint reconciler (`lease`, `master-count`, `none`).
    pub reconciler: String,
    /// How many apiservers.
    pub apiservers: String,
    /// The Kubernetes version simulated (`1.29`).
    pub behavior: String,
    /// The random seed.
    pub seed: String,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            service_cidr: "10.96.0.0/16".into(),
            node_ports: "30000-32767".into(),
            reconciler: "lease".into(),
            apiservers: "3".into(),
            behavior: "1.29".into(),
            seed: "1".into(),
        }
    }
}

impl Settings {
    /// The settings of the cluster `s` runs, in the form's words: its range (both families'
    /// when dual-stack), NodePort range, reconciler, number of apiservers, behaviour and seed.
    pub fn of(s: &Scenario) -> Settings {
        let c = &s.cluster;
        let ranges: Vec<String> =
            c.service_ip_ranges.networks().iter().map(ToString::to_string).collect();
        Settings {
            service_cidr: ranges.join(","),
            node_ports: c.node_ports.to_string(),
            reconciler: c.reconciler.as_str().to_string(),
            apiservers: c.apiservers.len().to_string(),
            behavior: s.behavior.as_str().to_string(),
            seed: s.seed.to_string(),
        }
    }
}

/// A sandbox scenario from the form: `n` apiservers `apiserver-a`… at 192.168.10.11…
pub fn cluster_scenario(s: &Settings) -> Result<Scenario, String> {
    sandbox(s, Lang::En)?.scenario()
}

/// The sandbox scenario file the form describes, with the form's own complaints in `lang` (the
/// core's stay verbatim).
pub fn cluster_file(s: &Settings, lang: Lang) -> Result<String, String> {
    sandbox(s, lang)?.file()
}

/// The sandbox the form describes and its file (which a link carries), or the first complaint.
pub fn load(s: &Settings, lang: Lang) -> Result<(Scenario, String), String> {
    let sandbox = sandbox(s, lang)?;
    Ok((sandbox.scenario()?, sandbox.file()?))
}

/// The form's settings typed, with the form's own complaints in `lang`; the number of
/// apiservers within the contract's bound ([`SANDBOX_APISERVERS`]).
pub fn sandbox(s: &Settings, lang: Lang) -> Result<Sandbox, String> {
    let (low, high) = (SANDBOX_APISERVERS.start(), SANDBOX_APISERVERS.end());
    let apiservers = s.apiservers.trim().parse().ok().filter(|n| SANDBOX_APISERVERS.contains(n));
    let apiservers = apiservers.ok_or_else(|| match lang {
        Lang::En => format!("apiservers: {:?} is not a number from {low} to {high}", s.apiservers),
        Lang::Zh => format!("apiservers: {:?} 不是 {low} 到 {high} 之间的数字", s.apiservers),
    })?;
    let seed: u64 = s.seed.trim().parse().map_err(|_| match lang {
        Lang::En => format!("seed: {:?} is not a non-negative integer", s.seed),
        Lang::Zh => format!("seed: {:?} 不是非负整数", s.seed),
    })?;
    let behavior: Behavior = s.behavior.parse().map_err(|e| format!("behavior: {e}"))?;
    let reconciler: ReconcilerType = s.reconciler.parse().map_err(|_| {
        format!(
            "cluster.endpoint_reconciler_type: unknown endpoint reconciler type {:?} (lease, master-count or none)",
            s.reconciler
        )
    })?;
    Ok(Sandbox {
        service_cluster_ip_range: s.service_cidr.clone(),
        service_node_port_range: s.node_ports.clone(),
        reconciler,
        apiservers,
        behavior,
        seed,
    })
}
