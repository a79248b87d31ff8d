//! The `networking.k8s.io/v1` objects of the ServiceCIDR allocator (1.33+): `ServiceCIDR` and
//! `IPAddress`, with the parent reference and the labels the allocator writes.

use std::collections::BTreeMap;
use std::fmt;
use std::net::IpAddr;

use serde::{Deserialize, Serialize};

use super::{default_namespace, parse_ip, IpFamily};

/// `spec.parentRef` of an IPAddress: the object that holds the address.
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields, remote = "Self")]
pub struct ParentReference {
    /// The parent's API group; empty for the core group.
    #[serde(default)]
    pub group: String,
    /// The parent's resource (`services` when a scenario gives none).
    #[serde(default = "services_resource")]
    pub resource: String,
    /// The parent's namespace (`default` when a scenario gives none).
    #[serde(default = "default_namespace")]
    pub namespace: String,
    /// The parent's name.
    pub name: String,
}

fn services_resource() -> String {
    "services".to_string()
}

impl ParentReference {
    /// The reference the allocator writes for a Service.
    pub fn service(namespace: &str, name: &str) -> Self {
        ParentReference {
            group: String::new(),
            resource: services_resource(),
            namespace: namespace.to_string(),
            name: name.to_string(),
        }
    }

    /// A core Service (group `""`, resource `services`).
    pub fn is_service(&self) -> bool {
        self.group.is_empty() && self.resource == "services"
    }

    /// `namespace/name`.
    pub fn key(&self) -> String {
        format!("{}/{}", self.namespace, self.name)
    }
}

impl fmt::Display for ParentReference {
    /// `kubectl get ipaddress`'s PARENTREF column: `services/default/kubernetes`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let group = if self.group.is_empty() { String::new() } else { format!("{}/", self.group) };
        write!(f, "{group}{}/{}/{}", self.resource, self.namespace, self.name)
    }
}

/// `ipaddress.kubernetes.io/ip-family`.
pub const LABEL_IP_FAMILY: &str = "ipaddress.kubernetes.io/ip-family";
/// `ipaddress.kubernetes.io/managed-by`.
pub const LABEL_MANAGED_BY: &str = "ipaddress.kubernetes.io/managed-by";
/// The allocator's `ControllerName`, the value of [`LABEL_MANAGED_BY`].
pub const IPALLOCATOR_CONTROLLER: &str = "ipallocator.k8s.io";

/// An `IPAddress` (`networking.k8s.io/v1`, cluster-scoped), named by the address in canonical
/// form.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct IpAddress {
    /// The address in canonical form (also the object's name).
    pub ip: String,
    /// `spec.parentRef`: the object the address is allocated to.
    pub parent: ParentReference,
    /// `metadata.labels`: the allocator sets [`LABEL_IP_FAMILY`] and [`LABEL_MANAGED_BY`].
    pub labels: BTreeMap<String, String>,
    /// `metadata.creationTimestamp` in virtual ms (negative: before time 0).
    #[serde(skip)]
    pub created_ms: i64,
}

impl IpAddress {
    /// The object the allocator creates for `parent`'s address `ip`.
    pub fn allocated(ip: IpAddr, parent: ParentReference, now: u64) -> Self {
        let labels = [
            (LABEL_IP_FAMILY, IpFamily::of(&ip).to_string()),
            (LABEL_MANAGED_BY, IPALLOCATOR_CONTROLLER.to_string()),
        ];
        IpAddress {
            ip: ip.to_string(),
            parent,
            labels: labels.into_iter().map(|(k, v)| (k.to_string(), v)).collect(),
            created_ms: now as i64,
        }
    }

    /// Labelled by the ClusterIP allocator (RepairIPAddress looks at no other).
    pub fn managed(&self) -> bool {
        self.labels.get(LABEL_MANAGED_BY).map(String::as_str) == Some(IPALLOCATOR_CONTROLLER)
    }

    /// The address parsed; `None` if `ip` is not one.
    pub fn address(&self) -> Option<IpAddr> {
        parse_ip(&self.ip)
    }
}

/// `networking.k8s.io/service-cidr-finalizer`.
pub const SERVICE_CIDR_FINALIZER: &str = "networking.k8s.io/service-cidr-finalizer";

/// A `ServiceCIDR` (`networking.k8s.io/v1`, cluster-scoped) with its `Ready` condition.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct ServiceCidr {
    /// Its name (`kubernetes` for the default one the apiserver creates).
    pub name: String,
    /// `spec.cidrs`: one CIDR, or two of different families.
    pub cidrs: Vec<String>,
    /// The `Ready` condition's status; `None` while unset.
    pub ready: Option<bool>,
    /// The `Ready` condition's reason.
    pub reason: String,
    /// The `Ready` condition's message.
    pub message: String,
    /// `metadata.deletionTimestamp` is set.
    pub deleting: bool,
    /// `metadata.finalizers` (the apiserver's is [`SERVICE_CIDR_FINALIZER`]).
    pub finalizers: Vec<String>,
    /// When the deletion was asked for (virtual ms).
    #[serde(skip)]
    pub deleted_ms: Option<u64>,
}

impl ServiceCidr {
    /// A ServiceCIDR named `name` over `cidrs`: no condition, no finalizer, not being deleted.
    pub fn new(name: &str, cidrs: Vec<String>) -> Self {
        ServiceCidr { name: name.to_string(), cidrs, ..Default::default() }
    }

    /// The MetaAllocator's `isReady`: `Ready` true or unset ("assume the ServiceCIDR is Ready,
    /// in order to handle scenarios where kcm is not running"), and not being deleted.
    pub fn allocatable(&self) -> bool {
        self.ready != Some(false) && !self.deleting
    }

    /// The parsed prefixes (validated on the way in), host bits cleared.
    pub fn prefixes(&self) -> Vec<ipnet::IpNet> {
        let parse = |c: &String| c.parse::<ipnet::IpNet>().ok().map(|n| n.trunc());
        self.cidrs.iter().filter_map(parse).collect()
    }

    /// `ValidateServiceCIDR` (`pkg/apis/networking/validation`): a DNS-subdomain name, one or
    /// two CIDRs, one of each family. Errors are the API's
    /// (`ServiceCIDR.networking.k8s.io "x" is invalid: spec.cidrs: ...`).
    pub fn validate(name: &str, cidrs: &[String]) -> Result<Vec<ipnet::IpNet>, String> {
        let invalid =
            |detail: String| format!("ServiceCIDR.networking.k8s.io {name:?} is invalid: {detail}");
        crate::names::check(
            "ServiceCIDR.networking.k8s.io",
            name,
            crate::names::NameRule::Dns1123Subdomain,
        )?;
        let spec = || {
            let list: Vec<String> = cidrs.iter().map(|c| format!("{c:?}")).collect();
            format!("networking.ServiceCIDRSpec{{CIDRs:[]string{{{}}}}}", list.join(", "))
        };
        if cidrs.is_empty() {
            return Err(invalid(
                "spec.cidrs: Required value: at least one CIDR required".to_string(),
            ));
        }
        if cidrs.len() > 2 {
            return Err(invalid(format!(
                "spec.cidrs: Invalid value: {}: may only hold up to 2 values",
                spec()
            )));
        }
        let parsed: Vec<Option<ipnet::IpNet>> = cidrs.iter().map(|c| c.parse().ok()).collect();
        if let [Some(a), Some(b)] = parsed[..] {
            if matches!(
                (a, b),
                (ipnet::IpNet::V4(_), ipnet::IpNet::V4(_))
                    | (ipnet::IpNet::V6(_), ipnet::IpNet::V6(_))
            ) {
                return Err(invalid(format!("spec.cidrs: Invalid value: {}: may specify no more than one IP for each IP family, i.e 192.168.0.0/24 and 2001:db8::/64", spec())));
            }
        }
        let mut nets = Vec::new();
        for (i, (raw, net)) in cidrs.iter().zip(parsed).enumerate() {
            let net = net.ok_or_else(|| invalid(format!("spec.cidrs[{i}]: Invalid value: {raw:?}: must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)")))?;
            nets.push(net.trunc());
        }
        Ok(nets)
    }

    /// Sets the `Ready` condition; true when that changed it.
    pub fn set_ready(&mut self, ready: bool, reason: &str, message: &str) -> bool {
        let changed = self.ready != Some(ready) || self.reason != reason || self.message != message;
        self.ready = Some(ready);
        self.reason = reason.to_string();
        self.message = message.to_string();
        changed
    }
}

// Read from JSON objects only (`crate::json_object`).
objects_only!(serialize: ParentReference);
