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
    #[serde(deserialize_with = "payload")]
    StartApiserver(ApiserverRef),
    #[serde(deserialize_with = "payload")]
    StopApiserver(ApiserverRef),
    #[serde(deserialize_with = "payload")]
    CrashApiserver(ApiserverRef),
    #[serde(deserialize_with = "payload")]
    AddApiserver(AddApiserver),
    #[serde(deserialize_with = "payload")]
    IsolateApiserver(Isolate),
    #[serde(deserialize_with = "payload")]
    EtcdOutage(Outage),
    #[serde(deserialize_with = "payload")]
    CreateService(CreateService),
    #[serde(deserialize_with = "payload")]
    DeleteService(ObjectRef),
    #[serde(deserialize_with = "payload")]
    CreatePod(CreatePod),
    #[serde(deserialize_with = "payload")]
    DeletePod(ObjectRef),
    #[serde(deserialize_with = "payload")]
    SetPodReady(SetPodReady),
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

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, remote = "Self")]
pub struct ApiserverRef {
    pub apiserver: String,
}

impl ApiserverRef {
    pub fn to(apiserver: &str) -> Self {
        ApiserverRef { apiserver: apiserver.to_string() }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, remote = "Self")]
pub struct AddApiserver {
    pub name: String,
    #[serde(deserialize_with = "values::ip")]
    pub advertise_address: IpAddr,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub startup_delay: Option<Millis>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, remote = "Self")]
pub struct Isolate {
    pub apiserver: String,
    #[serde(rename = "for")]
    pub for_: Millis,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, remote = "Self")]
pub struct Outage {
    #[serde(rename = "for")]
    pub for_: Millis,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, remote = "Self")]
pub struct CreateService {
    #[serde(deserialize_with = "super::initial::action_service")]
    pub service: Service,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub via: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, remote = "Self")]
pub struct CreatePod {
    #[serde(deserialize_with = "super::initial::action_pod")]
    pub pod: Pod,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub via: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, remote = "Self")]
pub struct ObjectRef {
    #[serde(default = "crate::k8s::api::default_namespace")]
    pub namespace: String,
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub via: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, remote = "Self")]
pub struct SetPodReady {
    #[serde(default = "crate::k8s::api::default_namespace")]
    pub namespace: String,
    pub name: String,
    pub ready: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub via: Option<String>,
}

/// A ServiceCIDR as a scenario or an action writes it: `{"name", "cidrs"}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, remote = "Self")]
pub struct ServiceCidrSpec {
    pub name: String,
    #[serde(default)]
    pub cidrs: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, remote = "Self")]
pub struct CreateServiceCidr {
    pub service_cidr: ServiceCidrSpec,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub via: Option<String>,
}

/// A cluster-scoped object by name.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, remote = "Self")]
pub struct NameRef {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub via: Option<String>,
}

/// Writes to storage behind the allocators' back.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "what", rename_all = "snake_case", deny_unknown_fields)]
pub enum Corruption {
    LeakClusterIp {
        #[serde(deserialize_with = "values::corrupt_ip")]
        ip: IpAddr,
    },
    LeakNodePort {
        #[serde(deserialize_with = "values::corrupt_port")]
        port: i32,
    },
    UnallocateClusterIp {
        #[serde(deserialize_with = "values::corrupt_ip")]
        ip: IpAddr,
    },
    UnallocateNodePort {
        #[serde(deserialize_with = "values::corrupt_port")]
        port: i32,
    },
    ForceClusterIp {
        namespace: String,
        name: String,
        #[serde(deserialize_with = "values::corrupt_ip")]
        ip: IpAddr,
    },
    ForceNodePort {
        namespace: String,
        name: String,
        #[serde(deserialize_with = "values::corrupt_port")]
        port: i32,
    },
    /// §6: an IPAddress written directly, as an interrupted create leaves one.
    PutIpAddress {
        #[serde(deserialize_with = "values::corrupt_ip")]
        ip: IpAddr,
        #[serde(deserialize_with = "values::corrupt_parent")]
        parent: ParentReference,
    },
    /// §6: an IPAddress deleted directly.
    DeleteIpAddress {
        #[serde(deserialize_with = "values::corrupt_ip")]
        ip: IpAddr,
    },
}

/// Which corruption ([`Corruption`]'s `what`): what the lab's form picks from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CorruptionKind {
    LeakClusterIp,
    LeakNodePort,
    UnallocateClusterIp,
    UnallocateNodePort,
    ForceClusterIp,
    ForceNodePort,
    PutIpAddress,
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

    pub fn start(apiserver: &str) -> Action {
        Action::StartApiserver(ApiserverRef::to(apiserver))
    }

    pub fn stop(apiserver: &str) -> Action {
        Action::StopApiserver(ApiserverRef::to(apiserver))
    }

    pub fn crash(apiserver: &str) -> Action {
        Action::CrashApiserver(ApiserverRef::to(apiserver))
    }

    pub fn isolate(apiserver: &str, for_: Millis) -> Action {
        Action::IsolateApiserver(Isolate { apiserver: apiserver.to_string(), for_ })
    }

    /// The apiserver the action names, if any (checked against the cluster before running).
    pub fn apiserver(&self) -> Option<&str> {
        match self {
            Action::StartApiserver(r) | Action::StopApiserver(r) | Action::CrashApiserver(r) => {
                Some(&r.apiserver)
            }
            Action::IsolateApiserver(i) => Some(&i.apiserver),
            Action::CreateService(c) => c.via.as_deref(),
            Action::CreatePod(c) => c.via.as_deref(),
            Action::DeleteService(o) | Action::DeletePod(o) => o.via.as_deref(),
            Action::SetPodReady(s) => s.via.as_deref(),
            Action::CreateServiceCidr(c) => c.via.as_deref(),
            Action::DeleteServiceCidr(n) => n.via.as_deref(),
            Action::AddApiserver(_) | Action::EtcdOutage(_) | Action::Corrupt(_) => None,
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
