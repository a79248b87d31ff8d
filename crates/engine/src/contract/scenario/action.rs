//! Actions (`{"do": ...}`, `docs/scenario.md` §2): what a step does, and what the UI and links
//! send. serde's tag picks the variant and reads its typed values (`values`), so an action that
//! exists is well formed; what depends on the cluster is checked by `step` (files) and
//! `World::refusal` (everything at run time).

use std::net::IpAddr;

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value as Json;

use super::values::{self, Millis};
use crate::k8s::api::{Behavior, ParentReference, Pod, Service};
use crate::k8s::names::{self, NameRule};

/// `{"do": ...}` actions; the UI sends the same values.
///
/// serde's internally tagged enums buffer a variant's fields before reading them, which loses
/// the field path of an error; every payload is therefore read by `payload`, which puts the
/// path back into the message (`service.portz: unknown field ...`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "do", rename_all = "snake_case")]
pub enum Action {
    /// Start (or restart) an apiserver: its bootstrap sequence, readyz gating.
    #[serde(deserialize_with = "payload")]
    StartApiserver(ApiserverRef),
    /// Shut an apiserver down gracefully: its pre-shutdown hook removes its endpoint.
    #[serde(deserialize_with = "payload")]
    StopApiserver(Stop),
    /// An apiserver dies at once: its lease stays until its TTL runs out.
    #[serde(deserialize_with = "payload")]
    CrashApiserver(ApiserverRef),
    /// Extension (`docs/extensions.md`, nodes and client pods): an apiserver's host goes down
    /// (power lost, kernel panic, cut off from the nodes). The process is gone as in a crash,
    /// and nothing answers at its address until `start_apiserver` brings it back.
    #[serde(deserialize_with = "payload")]
    CrashHost(ApiserverRef),
    /// Extension (`docs/extensions.md`, nodes and client pods): from now on a node's kube-proxy
    /// takes a fixed time for each `iptables-restore` (a node under load, a large rule set).
    #[serde(deserialize_with = "payload")]
    SlowKubeProxy(SlowProxy),
    /// A new member, started at once.
    #[serde(deserialize_with = "payload")]
    AddApiserver(AddApiserver),
    /// An apiserver cannot reach etcd for a while.
    #[serde(deserialize_with = "payload")]
    IsolateApiserver(Isolate),
    /// No apiserver can reach etcd for a while.
    #[serde(deserialize_with = "payload")]
    EtcdOutage(Outage),
    /// Create a Service through the API (its ClusterIP and NodePorts allocated).
    #[serde(deserialize_with = "payload")]
    CreateService(CreateService),
    /// Delete a Service through the API (its IPs and ports released).
    #[serde(deserialize_with = "payload")]
    DeleteService(ObjectRef),
    /// Create a Pod through the API.
    #[serde(deserialize_with = "payload")]
    CreatePod(CreatePod),
    /// Delete a Pod through the API.
    #[serde(deserialize_with = "payload")]
    DeletePod(ObjectRef),
    /// Change a Pod's readiness.
    #[serde(deserialize_with = "payload")]
    SetPodReady(SetPodReady),
    /// Write storage behind the allocators' back.
    #[serde(deserialize_with = "payload")]
    Corrupt(Corruption),
    /// §6 (1.33 and 1.35): a ServiceCIDR created through the API.
    #[serde(deserialize_with = "payload")]
    CreateServiceCidr(CreateServiceCidr),
    /// §6: a ServiceCIDR deleted through the API (it stays, `Terminating`, while needed).
    #[serde(deserialize_with = "payload")]
    DeleteServiceCidr(NameRef),
}

/// Reads one variant's fields from serde's buffer with their path kept: an error reads
/// `path: message`, or just `message` when it is about the payload as a whole (see
/// [`super::located`]).
fn payload<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<T, D::Error> {
    serde_path_to_error::deserialize(d)
        .map_err(|e| D::Error::custom(super::located(&e.path().to_string(), e.inner().to_string())))
}

/// An apiserver by name.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, remote = "Self")]
pub struct ApiserverRef {
    /// The apiserver's name.
    pub apiserver: String,
}

impl ApiserverRef {
    /// A reference to `apiserver`.
    pub fn to(apiserver: &str) -> Self {
        ApiserverRef { apiserver: apiserver.to_string() }
    }
}

/// A graceful stop (`stop_apiserver`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, remote = "Self")]
pub struct Stop {
    /// The apiserver's name.
    pub apiserver: String,
    /// Extension (`docs/extensions.md`): the apiserver's `--shutdown-delay-duration`. Its
    /// listener stays open this long after the stop began, although the pre-shutdown hook has
    /// removed its endpoint (none: 0, the flag's default).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shutdown_delay: Option<Millis>,
}

/// A node's kube-proxy made slow (`slow_kube_proxy`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, remote = "Self")]
pub struct SlowProxy {
    /// The node (one of the scenario's `nodes`).
    pub node: String,
    /// What each of its `iptables-restore` runs takes from now on (a node's `proxy_apply_time`).
    pub proxy_apply_time: Millis,
}

/// A new apiserver (`add_apiserver`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, remote = "Self")]
pub struct AddApiserver {
    /// Its name.
    pub name: String,
    /// Its `--advertise-address`: the IP its lease and endpoint carry.
    #[serde(deserialize_with = "values::ip")]
    pub advertise_address: IpAddr,
    /// How long it shows `starting` before its start instant (none: no delay).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub startup_delay: Option<Millis>,
}

/// An apiserver cut off from etcd (`isolate_apiserver`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, remote = "Self")]
pub struct Isolate {
    /// The apiserver's name.
    pub apiserver: String,
    /// How long (`for`).
    #[serde(rename = "for")]
    pub for_: Millis,
}

/// etcd out of every apiserver's reach (`etcd_outage`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, remote = "Self")]
pub struct Outage {
    /// How long (`for`).
    #[serde(rename = "for")]
    pub for_: Millis,
}

/// A Service to create (`create_service`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, remote = "Self")]
pub struct CreateService {
    /// The Service, as the request gives it.
    #[serde(deserialize_with = "super::initial::action_service")]
    pub service: Service,
    /// The apiserver that serves the request (none: the first ready one by name).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub via: Option<String>,
}

/// A Pod to create (`create_pod`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, remote = "Self")]
pub struct CreatePod {
    /// The Pod.
    #[serde(deserialize_with = "super::initial::action_pod")]
    pub pod: Pod,
    /// The apiserver that serves the request (none: the first ready one by name).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub via: Option<String>,
}

/// A namespaced object by name, for a request (`delete_service`, `delete_pod`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, remote = "Self")]
pub struct ObjectRef {
    /// Its namespace (default `default`).
    #[serde(default = "crate::k8s::api::default_namespace")]
    pub namespace: String,
    /// Its name.
    pub name: String,
    /// The apiserver that serves the request (none: the first ready one by name).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub via: Option<String>,
}

/// A Pod's readiness to set (`set_pod_ready`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, remote = "Self")]
pub struct SetPodReady {
    /// The Pod's namespace (default `default`).
    #[serde(default = "crate::k8s::api::default_namespace")]
    pub namespace: String,
    /// The Pod's name.
    pub name: String,
    /// Whether it is ready.
    pub ready: bool,
    /// The apiserver that serves the request (none: the first ready one by name).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub via: Option<String>,
}

/// A ServiceCIDR as a scenario or an action writes it: `{"name", "cidrs"}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, remote = "Self")]
pub struct ServiceCidrSpec {
    /// Its name.
    pub name: String,
    /// Its CIDRs (one, or two of different families).
    #[serde(default)]
    pub cidrs: Vec<String>,
}

/// A ServiceCIDR to create (`create_service_cidr`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, remote = "Self")]
pub struct CreateServiceCidr {
    /// The ServiceCIDR.
    pub service_cidr: ServiceCidrSpec,
    /// The apiserver that serves the request (none: the first ready one by name).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub via: Option<String>,
}

/// A cluster-scoped object by name.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, remote = "Self")]
pub struct NameRef {
    /// Its name.
    pub name: String,
    /// The apiserver that serves the request (none: the first ready one by name).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub via: Option<String>,
}

/// Writes to storage behind the allocators' back.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "what", rename_all = "snake_case", deny_unknown_fields)]
pub enum Corruption {
    /// Set a ClusterIP's bit in the stored bitmap, for no Service: a leak.
    LeakClusterIp {
        /// The address.
        #[serde(deserialize_with = "values::corrupt_ip")]
        ip: IpAddr,
    },
    /// Set a NodePort's bit in the stored bitmap, for no Service: a leak.
    LeakNodePort {
        /// The port.
        #[serde(deserialize_with = "values::corrupt_port")]
        port: i32,
    },
    /// Clear an allocated ClusterIP's bit in the stored bitmap.
    UnallocateClusterIp {
        /// The address.
        #[serde(deserialize_with = "values::corrupt_ip")]
        ip: IpAddr,
    },
    /// Clear an allocated NodePort's bit in the stored bitmap.
    UnallocateNodePort {
        /// The port.
        #[serde(deserialize_with = "values::corrupt_port")]
        port: i32,
    },
    /// Rewrite a stored Service's ClusterIP, allocating nothing.
    ForceClusterIp {
        /// The Service's namespace.
        namespace: String,
        /// The Service's name.
        name: String,
        /// The address it then holds.
        #[serde(deserialize_with = "values::corrupt_ip")]
        ip: IpAddr,
    },
    /// Rewrite a stored Service's first NodePort, allocating nothing.
    ForceNodePort {
        /// The Service's namespace.
        namespace: String,
        /// The Service's name.
        name: String,
        /// The port it then holds.
        #[serde(deserialize_with = "values::corrupt_port")]
        port: i32,
    },
    /// §6: an IPAddress written directly, as an interrupted create leaves one.
    PutIpAddress {
        /// The address (the object's name).
        #[serde(deserialize_with = "values::corrupt_ip")]
        ip: IpAddr,
        /// The object it names as its owner.
        #[serde(deserialize_with = "values::corrupt_parent")]
        parent: ParentReference,
    },
    /// §6: an IPAddress deleted directly.
    DeleteIpAddress {
        /// The address (the object's name).
        #[serde(deserialize_with = "values::corrupt_ip")]
        ip: IpAddr,
    },
}

/// Which corruption ([`Corruption`]'s `what`): what the lab's form picks from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CorruptionKind {
    /// `leak_cluster_ip`.
    LeakClusterIp,
    /// `leak_node_port`.
    LeakNodePort,
    /// `unallocate_cluster_ip`.
    UnallocateClusterIp,
    /// `unallocate_node_port`.
    UnallocateNodePort,
    /// `force_cluster_ip`.
    ForceClusterIp,
    /// `force_node_port`.
    ForceNodePort,
    /// `put_ip_address`.
    PutIpAddress,
    /// `delete_ip_address`.
    DeleteIpAddress,
}

impl CorruptionKind {
    /// The kind a file's `what` names (`"leak_node_port"`); a refusal in serde's words, as a
    /// file's is (`unknown variant ...`).
    pub fn from_name(name: &str) -> Result<CorruptionKind, String> {
        use serde::de::IntoDeserializer;
        let de: serde::de::value::StrDeserializer<'_, serde::de::value::Error> =
            name.into_deserializer();
        CorruptionKind::deserialize(de).map_err(|e| e.to_string())
    }

    /// Whether its value is a port (else an IP).
    pub fn takes_port(self) -> bool {
        use CorruptionKind::*;
        matches!(self, LeakNodePort | UnallocateNodePort | ForceNodePort)
    }

    /// Whether it names a Service (`namespace/name`).
    pub fn names_service(self) -> bool {
        use CorruptionKind::*;
        matches!(self, ForceClusterIp | ForceNodePort | PutIpAddress)
    }
}

impl Corruption {
    /// The corruption the lab's form describes: `kind`, `value` (an IP or a port, as typed) and
    /// `target` (`namespace/name`, or a name in `default`), read by the rules a file's `{"do":
    /// "corrupt", ...}` is read by; a refusal says which field and why, typed so that the form
    /// words it in the reader's language.
    pub fn from_form(
        kind: CorruptionKind,
        value: &str,
        target: &str,
    ) -> Result<Corruption, FormRefusal> {
        use CorruptionKind as K;
        let (namespace, name) = target.split_once('/').unwrap_or(("default", target));
        let (port, ip) = if kind.takes_port() {
            let port =
                value.parse::<i64>().map_err(|_| FormRefusal::NotAPort(value.to_string()))?;
            // The range every port of a file is read by.
            let port =
                super::port_number("port", port).map_err(|_| FormRefusal::PortOutOfRange(port))?;
            (port, None)
        } else {
            value.parse::<IpAddr>().map_err(|_| FormRefusal::NotAnIp(value.to_string()))?;
            // The reading of every address of a file (`values::corrupt_ip`).
            let ip = crate::k8s::api::parse_ip(value).ok_or_else(|| {
                FormRefusal::Other(format!("ip: invalid IP address {}", crate::quote::quote(value)))
            })?;
            (0, Some(ip))
        };
        if kind.names_service() && name.is_empty() {
            return Err(FormRefusal::NoService);
        }
        let (namespace, name) = (namespace.to_string(), name.to_string());
        let ip = || ip.expect("an IP kind read its IP");
        Ok(match kind {
            K::LeakClusterIp => Corruption::LeakClusterIp { ip: ip() },
            K::LeakNodePort => Corruption::LeakNodePort { port },
            K::UnallocateClusterIp => Corruption::UnallocateClusterIp { ip: ip() },
            K::UnallocateNodePort => Corruption::UnallocateNodePort { port },
            K::ForceClusterIp => Corruption::ForceClusterIp { namespace, name, ip: ip() },
            K::ForceNodePort => Corruption::ForceNodePort { namespace, name, port },
            K::PutIpAddress => {
                let parent = ParentReference::service(&namespace, &name);
                Corruption::PutIpAddress { ip: ip(), parent }
            }
            K::DeleteIpAddress => Corruption::DeleteIpAddress { ip: ip() },
        })
    }

    /// Whether it edits the ClusterIP bitmap (which 1.35 does not have).
    pub fn edits_ip_bitmap(&self) -> bool {
        matches!(self, Corruption::LeakClusterIp { .. } | Corruption::UnallocateClusterIp { .. })
    }

    /// Whether it writes IPAddress objects (which 1.20 and 1.29 do not have).
    pub fn edits_ip_addresses(&self) -> bool {
        matches!(self, Corruption::PutIpAddress { .. } | Corruption::DeleteIpAddress { .. })
    }
}

impl Action {
    /// Reads an action from JSON (a link's): a file's rules, each error one line
    /// naming the field below `path` (`actions[0].for: invalid duration "abc"`).
    pub fn from_json(path: &str, value: Json) -> Result<Action, String> {
        super::de(path, value)
    }

    /// Start (or restart) `apiserver`.
    pub fn start(apiserver: &str) -> Action {
        Action::StartApiserver(ApiserverRef::to(apiserver))
    }

    /// Stop `apiserver` gracefully.
    pub fn stop(apiserver: &str) -> Action {
        Action::StopApiserver(Stop { apiserver: apiserver.to_string(), shutdown_delay: None })
    }

    /// Crash `apiserver`.
    pub fn crash(apiserver: &str) -> Action {
        Action::CrashApiserver(ApiserverRef::to(apiserver))
    }

    /// Cut `apiserver` off from etcd for `for_`.
    pub fn isolate(apiserver: &str, for_: Millis) -> Action {
        Action::IsolateApiserver(Isolate { apiserver: apiserver.to_string(), for_ })
    }

    /// The apiserver the action names, if any (checked against the cluster before running).
    pub fn apiserver(&self) -> Option<&str> {
        match self {
            Action::StartApiserver(r) | Action::CrashApiserver(r) | Action::CrashHost(r) => {
                Some(&r.apiserver)
            }
            Action::IsolateApiserver(i) => Some(&i.apiserver),
            Action::StopApiserver(s) => Some(&s.apiserver),
            Action::CreateService(c) => c.via.as_deref(),
            Action::CreatePod(c) => c.via.as_deref(),
            Action::DeleteService(o) | Action::DeletePod(o) => o.via.as_deref(),
            Action::SetPodReady(s) => s.via.as_deref(),
            Action::CreateServiceCidr(c) => c.via.as_deref(),
            Action::DeleteServiceCidr(n) => n.via.as_deref(),
            Action::AddApiserver(_)
            | Action::EtcdOutage(_)
            | Action::Corrupt(_)
            | Action::SlowKubeProxy(_) => None,
        }
    }

    /// The node the action names, if any (one of the scenario's `nodes`).
    pub fn node(&self) -> Option<&str> {
        match self {
            Action::SlowKubeProxy(s) => Some(&s.node),
            _ => None,
        }
    }

    /// Whether it names ServiceCIDRs or IPAddresses, which exist from 1.33 only.
    pub fn needs_ip_addresses(&self) -> bool {
        match self {
            Action::CreateServiceCidr(_) | Action::DeleteServiceCidr(_) => true,
            Action::Corrupt(c) => c.edits_ip_addresses(),
            _ => false,
        }
    }

    /// §6: why `behavior` cannot run it, and the field at fault: ServiceCIDRs and IPAddresses
    /// exist from 1.33; 1.35 has no ClusterIP bitmap to corrupt.
    pub fn unsupported_under(&self, behavior: Behavior) -> Option<(&'static str, String)> {
        if self.needs_ip_addresses() && !behavior.ip_addresses() {
            let why = format!("ServiceCIDR and IPAddress objects exist from behavior \"1.33\" on, not under \"{behavior}\"");
            return Some(("do", why));
        }
        match self {
            Action::Corrupt(c) if c.edits_ip_bitmap() && !behavior.cluster_ip_bitmap() => {
                Some(("what", format!("behavior \"{behavior}\" has no ClusterIP bitmap")))
            }
            _ => None,
        }
    }

    /// What the apiserver's validation refuses in the object the action creates (a Service's
    /// or a Pod's name): bad input, refused before the lab changes.
    pub fn validate(&self) -> Result<(), String> {
        match self {
            Action::CreateService(c) => c.validate(),
            Action::CreatePod(c) => c.validate(),
            _ => Ok(()),
        }
    }

    /// The field of the step that holds [`Action::apiserver`].
    pub(crate) fn apiserver_field(&self) -> &'static str {
        match self {
            Action::StartApiserver(_)
            | Action::StopApiserver(_)
            | Action::CrashApiserver(_)
            | Action::CrashHost(_)
            | Action::IsolateApiserver(_) => "apiserver",
            _ => "via",
        }
    }
}

impl CreateService {
    /// The apiserver's validation of the Service's name (a DNS-1035 label), in its words.
    pub fn validate(&self) -> Result<(), String> {
        names::check("Service", &self.service.name, NameRule::Dns1035Label)
    }
}

impl CreatePod {
    /// The apiserver's validation of the Pod's name (a DNS-1123 subdomain), in its words.
    pub fn validate(&self) -> Result<(), String> {
        names::check("Pod", &self.pod.name, NameRule::Dns1123Subdomain)
    }
}

// Read from JSON objects only (`crate::json_object`).
objects_only!(
    serialize:
    ApiserverRef,
    Stop,
    SlowProxy,
    AddApiserver,
    Isolate,
    Outage,
    CreateService,
    CreatePod,
    ObjectRef,
    SetPodReady,
    ServiceCidrSpec,
    CreateServiceCidr,
    NameRef,
);

/// Why the lab's corruption form was refused ([`Corruption::from_form`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FormRefusal {
    /// The IP-or-port field, for a port, holds no number.
    NotAPort(String),
    /// The IP-or-port field, for a port, holds a number outside 1-65535.
    PortOutOfRange(i64),
    /// The IP-or-port field, for an IP, holds no IP address.
    NotAnIp(String),
    /// The corruption names a Service and the service field is empty.
    NoService,
    /// Anything else, in the core's words (a file's corruption is read by the same rules).
    Other(String),
}
