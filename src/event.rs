//! Kubernetes events and log lines, as the scenario contract prints them.

use serde::{Deserialize, Serialize};

/// `{"time_ms", "apiserver", "component", "type", "reason", "object", "message"}`; log lines that
/// Kubernetes prints rather than records have `type` `Log` and an empty `reason`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Event {
    pub time_ms: u64,
    pub apiserver: String,
    pub component: String,
    #[serde(rename = "type")]
    pub type_: String,
    pub reason: String,
    pub object: String,
    pub message: String,
}

/// Collects what controllers record during one instant of one apiserver.
#[derive(Clone, Debug, Default)]
pub struct Recorder {
    pub time_ms: u64,
    pub apiserver: String,
    pub events: Vec<Event>,
}

impl Recorder {
    pub fn new(time_ms: u64, apiserver: impl Into<String>) -> Self {
        Recorder {
            time_ms,
            apiserver: apiserver.into(),
            events: Vec::new(),
        }
    }

    fn push(&mut self, component: &str, type_: &str, reason: &str, object: &str, message: String) {
        self.events.push(Event {
            time_ms: self.time_ms,
            apiserver: self.apiserver.clone(),
            component: component.to_string(),
            type_: type_.to_string(),
            reason: reason.to_string(),
            object: object.to_string(),
            message,
        });
    }

    /// A `Warning` event about `object` (`namespace/name`).
    pub fn warning(&mut self, component: &str, reason: &str, object: &str, message: String) {
        self.push(component, "Warning", reason, object, message);
    }

    /// A `Normal` event about `object`.
    pub fn normal(&mut self, component: &str, reason: &str, object: &str, message: String) {
        self.push(component, "Normal", reason, object, message);
    }

    /// A log line (`klog` / `runtime.HandleError`).
    pub fn log(&mut self, component: &str, message: String) {
        self.push(component, "Log", "", "", message);
    }
}
