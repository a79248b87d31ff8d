//! The system namespaces, after `pkg/controlplane/controller/systemnamespaces` (1.27+) and
//! `RunKubernetesNamespaces` in `pkg/controlplane/controller.go` (1.20).

use super::{Apiserver, SYSTEM_NAMESPACES};
use crate::api::Behavior;
use crate::etcd::{self, Value};
use crate::event::EventKind;
use crate::registry::{Storage, COMPONENT};

impl Apiserver {
    /// The system namespaces loop: create whichever is missing. 1.27+ checks an informer cache
    /// first, so nothing is asked of etcd while they all exist; 1.20 GETs each one through the
    /// API (failing while etcd is unreachable) and leaves `default` to the kubernetes-service loop.
    pub fn ensure_namespaces(&mut self, st: &mut Storage, behavior: Behavior) {
        let (names, text): (&[&str], &str) = if behavior.legacy() {
            (&["kube-system", "kube-public", "kube-node-lease"], "namespace")
        } else {
            (&SYSTEM_NAMESPACES, "Namespace")
        };
        let mut ok = true;
        for ns in names {
            if let Err(e) = ensure_namespace(st, ns, behavior) {
                ok = false;
                st.rec.log(
                    COMPONENT,
                    EventKind::NamespaceCreateFailed,
                    format!("unable to create required kubernetes system {text} {ns}: {e}"),
                );
            }
        }
        // 1.20 does not gate readiness on them; 1.27+ waits for its informer to have seen them.
        self.namespaces_ok |= ok;
    }
}

/// `createNamespaceIfNeeded`; under 1.29 an existing namespace is known without asking etcd.
pub(super) fn ensure_namespace(
    st: &mut Storage,
    ns: &str,
    behavior: Behavior,
) -> Result<(), String> {
    let key = etcd::namespace_key(ns);
    if !behavior.legacy() && st.etcd.get(&key, st.now).is_some() {
        return Ok(());
    }
    st.etcd.sending_from(crate::etcd::Loop::Bootstrap);
    st.reach(&key).map_err(|e| e.to_string())?;
    if st.etcd.get(&key, st.now).is_none() {
        st.etcd.put(&key, Value::Namespace, None, st.now);
    }
    Ok(())
}
