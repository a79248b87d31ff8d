//! Plain words for the event feed: what a Kubernetes event or log line means for a learner.
//! Kubernetes' own reasons and messages are always shown verbatim next to these.

use crate::event::Event;

/// A one-sentence explanation of `e`, when there is something to add to its own text.
pub fn explain(e: &Event) -> Option<String> {
    let m = e.message.as_str();
    let who = if e.apiserver.is_empty() {
        "The cluster".to_string()
    } else {
        e.apiserver.clone()
    };
    let obj = e.object.as_str();
    let text = match e.reason.as_str() {
        "ClusterIPNotAllocated" => format!("{who}'s repair loop found {obj}'s ClusterIP missing from the bitmap in etcd and set it again."),
        "ClusterIPAlreadyAllocated" => format!("{obj} holds a ClusterIP that an earlier Service (in namespace/name order) already holds; only recreating it fixes that."),
        "ClusterIPOutOfRange" => format!("{obj}'s ClusterIP lies outside --service-cluster-ip-range (was the range changed?); the repair loop cannot keep it."),
        "ClusterIPNotValid" => format!("{obj}'s ClusterIP cannot be used by this cluster; the repair loop skips it."),
        "PortNotAllocated" => format!("{who}'s repair loop found {obj}'s NodePort missing from the bitmap and set it again."),
        "PortAlreadyAllocated" => format!("{obj} uses a NodePort that another Service (earlier in namespace/name order) already uses."),
        "PortOutOfRange" => format!("{obj}'s NodePort lies outside --service-node-port-range."),
        "action_failed" => "The API server refused the request; the cluster is unchanged.".to_string(),
        _ if m.starts_with("Resetting endpoints for master service") => {
            format!("{who} rewrote the kubernetes Endpoints so that they list exactly the apiservers it believes are alive.")
        }
        _ if m.starts_with("lease expired") => format!(
            "etcd deleted the lease {}: nobody renewed it within its TTL, so that apiserver counts as gone.",
            m.rsplit('/').next().unwrap_or_default()
        ),
        _ if m.contains("may have leaked: flagging") => {
            "Allocated in etcd but used by no Service: flagged now, kept for two more repair runs in case its Service is still being created.".to_string()
        }
        _ if m.contains("appears to have leaked: cleaning up") => {
            "The third repair run that saw this allocation without a Service frees it.".to_string()
        }
        _ if m.contains("may have leaked, but can not be allocated") => {
            "A suspected leak that no longer fits the configured range is dropped at once.".to_string()
        }
        _ if m.starts_with("Found stale data") => {
            format!("{who} started and removed its own old endpoint: the last run did not shut down cleanly.")
        }
        _ if m.starts_with("Shutting down kubernetes service endpoint reconciler") => {
            format!("{who} is shutting down gracefully: it deletes its lease and rewrites the Endpoints at once.")
        }
        _ if m.starts_with("unable to sync kubernetes service") => {
            format!("{who} could not update the kubernetes Service and Endpoints this round; it tries again next interval.")
        }
        _ if m.contains("refusing to erase all endpoints") => {
            "With no lease left, the reconciler refuses to leave the kubernetes Service without endpoints.".to_string()
        }
        _ if m.starts_with("PostStartHook") || m.starts_with("Unable to perform initial") => {
            format!("{who} could not complete its first allocation check and exits.")
        }
        _ if m == "RemoveEndpoints() timed out" => {
            format!("{who} could not remove its endpoint before the shutdown timeout; its lease will expire instead.")
        }
        _ => return None,
    };
    Some(text)
}
