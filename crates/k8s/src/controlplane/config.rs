//! The configuration the control plane runs with: the kube-apiserver flags every apiserver of
//! the cluster shares, and the apiservers themselves (`pkg/controlplane`'s `Config`, reduced).
//! Validated values only: the scenario file converts into it (`scenario::cluster`).

use std::net::IpAddr;

use crate::options::{default_range_warning, ServiceIpRanges};
use crate::portallocator::PortRange;
use crate::reconcilers::ReconcilerType;

/// The validated kube-apiserver flags shared by every apiserver of the cluster.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClusterConfig {
    /// `--service-cluster-ip-range`: the primary range and, dual-stack, the secondary.
    pub service_ip_ranges: ServiceIpRanges,
    /// The flag was left out: kube-apiserver logs its deprecation warning.
    pub default_range_used: bool,
    /// `--service-node-port-range`.
    pub node_ports: PortRange,
    /// `--endpoint-reconciler-type`.
    pub reconciler: ReconcilerType,
    /// `--apiserver-count` (read by the master-count reconciler).
    pub apiserver_count: u32,
    /// `--kubernetes-service-node-port`: the `kubernetes` Service's NodePort; 0: a ClusterIP
    /// Service.
    pub kubernetes_service_node_port: i32,
    /// `--secure-port`: the port the `kubernetes` Endpoints list (the Service's `targetPort`).
    pub secure_port: i32,
    /// `APIServerServicePort`: the `kubernetes` Service's port (443).
    pub kubernetes_service_port: i32,
    /// How often the `kubernetes` Service and its endpoints are reconciled
    /// (`DefaultEndpointReconcilerInterval`, 10 s).
    pub endpoint_interval_ms: u64,
    /// The master leases' TTL (`DefaultEndpointReconcilerTTL`, 15 s; whole seconds).
    pub lease_ttl_ms: u64,
    /// `RepairServicesInterval`: how often the ClusterIP and NodePort repair loops run.
    pub repair_interval_ms: u64,
    /// The apiservers of the cluster.
    pub apiservers: Vec<ApiserverSpec>,
}

/// One apiserver of the cluster: its identity and when it starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiserverSpec {
    /// Its name.
    pub name: String,
    /// `--advertise-address`: the IP its endpoint and lease carry.
    pub advertise_address: IpAddr,
    /// `None`: left for a `start_apiserver` step.
    pub start_at: Option<u64>,
    /// Virtual ms from its start to its start instant (it shows `starting` meanwhile).
    pub startup_delay: u64,
}

impl ApiserverSpec {
    /// The `i`-th apiserver of a made-up cluster (a sandbox's, the lab's "add" button's):
    /// `apiserver-a` at 192.168.10.11, `apiserver-b` at .12, … (`i` below 26).
    pub fn nth(i: usize) -> ApiserverSpec {
        let i = i.min(25) as u8;
        ApiserverSpec {
            name: format!("apiserver-{}", (b'a' + i) as char),
            advertise_address: IpAddr::from([192, 168, 10, 11 + i]),
            start_at: Some(0),
            startup_delay: 0,
        }
    }
}

impl ClusterConfig {
    /// Log lines kube-apiserver prints about its flags at start.
    pub(crate) fn startup_warnings(&self) -> Vec<String> {
        if self.default_range_used {
            vec![default_range_warning()]
        } else {
            vec![]
        }
    }
}
