//! Actions (`{"do": ...}`, `docs/scenario.md` §2): what a step does, and what the UI and links
//! send. serde's tag picks the variant; validation against the cluster is in `step`.

use serde::de::{DeserializeOwned, Error as _};
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value as Json;

use crate::api::{ParentReference, Pod, Service};
use crate::names::{self, NameRule};

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

/// Reads one variant's fields with their path kept: an error reads `path: message`, or just
/// `message` when it is about the payload as a whole (see [`super::located`]).
fn payload<'de, D: Deserializer<'de>, T: DeserializeOwned>(d: D) -> Result<T, D::Error> {
    let value = Json::deserialize(d)?;
    serde_path_to_error::deserialize(value).map_err(|e| D::Error::custom(super::located(&e)))
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, remote = "Self")]
pub struct ApiserverRef {
    pub apiserver: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, remote = "Self")]
pub struct AddApiserver {
    pub name: String,
    pub advertise_address: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub startup_delay: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, remote = "Self")]
pub struct Isolate {
    pub apiserver: String,
    #[serde(rename = "for")]
    pub for_: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, remote = "Self")]
pub struct Outage {
    #[serde(rename = "for")]
    pub for_: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, remote = "Self")]
pub struct CreateService {
    #[serde(deserialize_with = "super::initial::service_without_empty_ips")]
    pub service: Service,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub via: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, remote = "Self")]
pub struct CreatePod {
    pub pod: Pod,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub via: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, remote = "Self")]
pub struct ObjectRef {
    #[serde(default = "crate::api::default_namespace")]
    pub namespace: String,
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub via: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, remote = "Self")]
pub struct SetPodReady {
    #[serde(default = "crate::api::default_namespace")]
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
        ip: String,
    },
    LeakNodePort {
        port: i32,
    },
    UnallocateClusterIp {
        ip: String,
    },
    UnallocateNodePort {
        port: i32,
    },
    ForceClusterIp {
        namespace: String,
        name: String,
        ip: String,
    },
    ForceNodePort {
        namespace: String,
        name: String,
        port: i32,
    },
    /// §6: an IPAddress written directly, as an interrupted create leaves one.
    PutIpAddress {
        ip: String,
        parent: ParentReference,
    },
    /// §6: an IPAddress deleted directly.
    DeleteIpAddress {
        ip: String,
    },
}

impl Corruption {
    /// Whether it edits the ClusterIP bitmap (which 1.35 does not have).
    pub fn edits_ip_bitmap(&self) -> bool {
        matches!(
            self,
            Corruption::LeakClusterIp { .. } | Corruption::UnallocateClusterIp { .. }
        )
    }

    /// Whether it writes IPAddress objects (which 1.20 and 1.29 do not have).
    pub fn edits_ip_addresses(&self) -> bool {
        matches!(
            self,
            Corruption::PutIpAddress { .. } | Corruption::DeleteIpAddress { .. }
        )
    }
}

impl Action {
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
