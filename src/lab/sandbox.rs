//! The sandbox the Configure form describes: its settings as typed, the scenario file they make
//! (validated by `scenario::parse`), and the settings of a running cluster, which the form opens
//! with (so that "Start this cluster" starts what the reader sees, not a default).

use serde_json::json;

use crate::contract::scenario::{self, ApiserverSpec, Scenario};
use crate::lang::Lang;

/// The settings of the configuration form, as typed.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    pub service_cidr: String,
    pub node_ports: String,
    pub reconciler: String,
    pub apiservers: String,
    pub behavior: String,
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
    cluster_file(s, Lang::En).and_then(|text| scenario::parse(&text))
}

/// The sandbox scenario file the form describes, with the form's own complaints in `lang` (the
/// core's stay verbatim); validated by `scenario::parse` once loaded.
pub fn cluster_file(s: &Settings, lang: Lang) -> Result<String, String> {
    let n: usize = s.apiservers.trim().parse().ok().filter(|n| (1..=9).contains(n)).ok_or_else(
        || match lang {
            Lang::En => format!("apiservers: {:?} is not a number from 1 to 9", s.apiservers),
            Lang::Zh => format!("apiservers: {:?} 不是 1 到 9 之间的数字", s.apiservers),
        },
    )?;
    let seed: u64 = s.seed.trim().parse().map_err(|_| match lang {
        Lang::En => format!("seed: {:?} is not a non-negative integer", s.seed),
        Lang::Zh => format!("seed: {:?} 不是非负整数", s.seed),
    })?;
    let apiservers: Vec<_> = (0..n)
        .map(ApiserverSpec::nth)
        .map(|a| json!({"name": a.name, "advertise_address": a.advertise_address.to_string()}))
        .collect();
    let file = json!({
        "name": "sandbox",
        "title": {"en": "Sandbox", "zh": "沙盒"},
        "seed": seed,
        "behavior": s.behavior,
        "cluster": {
            "service_cluster_ip_range": s.service_cidr.trim(),
            "service_node_port_range": s.node_ports.trim(),
            "endpoint_reconciler_type": s.reconciler,
            "apiserver_count": n,
            "apiservers": apiservers,
        },
    });
    Ok(file.to_string())
}
