//! The sandbox (the lab's Configure form): a cluster of `n` apiservers `apiserver-a`… at
//! 192.168.10.11…, built from typed settings into the scenario a file would give, and the file
//! text that says the same (a page link carries it).

use std::ops::RangeInclusive;

use serde::Serialize;

use super::file::{ApiserverFile, ClusterFile, File, InitialFile};
use super::{ApiserverSpec, Scenario, MAX_APISERVERS};
use crate::k8s::api::Behavior;
use crate::k8s::reconcilers::ReconcilerType;
use crate::lang::LocalizedText;

/// How many apiservers a sandbox may have: the contract's bound for every scenario.
pub const SANDBOX_APISERVERS: RangeInclusive<usize> = 1..=MAX_APISERVERS;

/// A sandbox's settings, typed; the ranges as the reader wrote them (the cluster's rules read
/// them, as a file's).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sandbox {
    /// `--service-cluster-ip-range`.
    pub service_cluster_ip_range: String,
    /// `--service-node-port-range`.
    pub service_node_port_range: String,
    /// `--endpoint-reconciler-type`.
    pub reconciler: ReconcilerType,
    /// Within [`SANDBOX_APISERVERS`].
    pub apiservers: usize,
    /// Which Kubernetes release's rules run.
    pub behavior: Behavior,
    /// The random seed.
    pub seed: u64,
}

/// The sandbox's file, its keys in the order a JSON object of the contract prints them.
#[derive(Serialize)]
struct Text<'a> {
    behavior: Behavior,
    cluster: ClusterText<'a>,
    name: &'static str,
    seed: u64,
    title: Title,
}

#[derive(Serialize)]
struct ClusterText<'a> {
    apiserver_count: usize,
    apiservers: Vec<ApiserverText>,
    endpoint_reconciler_type: &'static str,
    service_cluster_ip_range: &'a str,
    service_node_port_range: &'a str,
}

#[derive(Serialize)]
struct ApiserverText {
    advertise_address: String,
    name: String,
}

#[derive(Serialize)]
struct Title {
    en: &'static str,
    zh: &'static str,
}

const NAME: &str = "sandbox";
const TITLE: Title = Title { en: "Sandbox", zh: "沙盒" };

impl Sandbox {
    /// The scenario, checked by every rule a file's is; a refusal is one line naming the field.
    pub fn scenario(&self) -> Result<Scenario, String> {
        self.check()?;
        let title = [("en", TITLE.en), ("zh", TITLE.zh)].map(|(k, v)| (k.into(), v.into()));
        let apiservers = (0..self.apiservers).map(ApiserverSpec::nth);
        let file = File {
            name: NAME.into(),
            title: Some(LocalizedText::ByLanguage(title.into_iter().collect())),
            description: None,
            seed: Some(self.seed),
            behavior: self.behavior,
            cluster: ClusterFile {
                service_cluster_ip_range: Some(self.service_cluster_ip_range.trim().into()),
                service_node_port_range: Some(self.service_node_port_range.trim().into()),
                endpoint_reconciler_type: Some(self.reconciler.as_str().into()),
                apiserver_count: Some(self.apiservers as i64),
                kubernetes_service_node_port: None,
                secure_port: None,
                kubernetes_service_port: None,
                endpoint_reconciler_interval: None,
                lease_ttl: None,
                repair_interval: None,
                apiservers: apiservers
                    .map(|a| ApiserverFile {
                        name: a.name,
                        advertise_address: a.advertise_address.to_string(),
                        start_at: None,
                        startup_delay: None,
                    })
                    .collect(),
            },
            initial: InitialFile::default(),
            steps: Vec::new(),
            until: None,
            experiments: Vec::new(),
            nodes: Vec::new(),
            clients: Vec::new(),
        };
        super::from_file(file).map_err(crate::quote::one_line)
    }

    /// The scenario file that says the same as [`Sandbox::scenario`].
    pub fn file(&self) -> Result<String, String> {
        self.check()?;
        let apiservers = (0..self.apiservers).map(ApiserverSpec::nth).map(|a| ApiserverText {
            advertise_address: a.advertise_address.to_string(),
            name: a.name,
        });
        let text = Text {
            behavior: self.behavior,
            cluster: ClusterText {
                apiserver_count: self.apiservers,
                apiservers: apiservers.collect(),
                endpoint_reconciler_type: self.reconciler.as_str(),
                service_cluster_ip_range: self.service_cluster_ip_range.trim(),
                service_node_port_range: self.service_node_port_range.trim(),
            },
            name: NAME,
            seed: self.seed,
            title: TITLE,
        };
        Ok(serde_json::to_string(&text).expect("a sandbox file prints"))
    }

    fn check(&self) -> Result<(), String> {
        if SANDBOX_APISERVERS.contains(&self.apiservers) {
            return Ok(());
        }
        Err(format!("apiservers: {} is not a number from 1 to {MAX_APISERVERS}", self.apiservers))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_file_says_what_the_scenario_is() {
        for n in SANDBOX_APISERVERS {
            let sandbox = Sandbox {
                service_cluster_ip_range: " 10.96.0.0/16,fd00::/108 ".into(),
                service_node_port_range: "30000-32767".into(),
                reconciler: ReconcilerType::MasterCount,
                apiservers: n,
                behavior: Behavior::V1_33,
                seed: 7,
            };
            let text = sandbox.file().unwrap();
            assert_eq!(super::super::parse(&text), sandbox.scenario(), "{text}");
        }
        let none = Sandbox { apiservers: 0, ..sandbox(1) };
        assert_eq!(none.scenario().unwrap_err(), "apiservers: 0 is not a number from 1 to 16");
    }

    fn sandbox(n: usize) -> Sandbox {
        Sandbox {
            service_cluster_ip_range: "10.96.0.0/16".into(),
            service_node_port_range: "30000-32767".into(),
            reconciler: ReconcilerType::Lease,
            apiservers: n,
            behavior: Behavior::V1_29,
            seed: 1,
        }
    }
}
