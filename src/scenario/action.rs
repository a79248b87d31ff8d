//! Actions (`{"do": ...}`, `docs/scenario.md` §2): what a step does, and what the UI and links
//! send. serde's tag picks the variant; validation against the cluster is in `step`.

use serde::de::{DeserializeOwned, Error as _};
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value as Json;

use crate::api::{Pod, Service};

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
}

/// Reads one variant's fields with their path kept: an error reads `path: message`, or just
/// `message` when it is about the payload as a whole (see [`super::located`]).
fn payload<'de, D: Deserializer<'de>, T: DeserializeOwned>(d: D) -> Result<T, D::Error> {
    let value = Json::deserialize(d)?;
    serde_path_to_error::deserialize(value).map_err(|e| D::Error::custom(super::located(&e)))
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ApiserverRef {
    pub apiserver: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AddApiserver {
    pub name: String,
    pub advertise_address: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub startup_delay: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Isolate {
    pub apiserver: String,
    #[serde(rename = "for")]
    pub for_: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Outage {
    #[serde(rename = "for")]
    pub for_: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreateService {
    #[serde(deserialize_with = "super::initial::service_without_empty_ips")]
    pub service: Service,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub via: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreatePod {
    pub pod: Pod,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub via: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ObjectRef {
    #[serde(default = "crate::api::default_namespace")]
    pub namespace: String,
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub via: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SetPodReady {
    #[serde(default = "crate::api::default_namespace")]
    pub namespace: String,
    pub name: String,
    pub ready: bool,
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
            Action::AddApiserver(_) | Action::EtcdOutage(_) | Action::Corrupt(_) => None,
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
