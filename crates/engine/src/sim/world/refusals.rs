//! What the cluster refuses before anything is tried: the one rule [`World::act`], a step and
//! the UI's buttons ([`World::allowed`]) all follow, so nothing is offered that would be refused.

use super::actions::{refused, unknown};
use super::World;
use crate::contract::scenario::{Action, AddApiserver, Millis, Taken};
use crate::k8s::controlplane::Status;
use crate::k8s::event::ActionFailed;

/// Which of an apiserver's own actions the world would take now.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ApiserverActions {
    /// Whether it may crash.
    pub crash: bool,
    /// Whether it may stop.
    pub stop: bool,
    /// Whether it may start.
    pub start: bool,
    /// Whether it may be cut off from etcd.
    pub isolate: bool,
}

impl World {
    /// Why `action` would be refused now, if it would, without changing anything. What only
    /// trying can tell (an IP already allocated, a Pod not found) is not known here.
    pub fn refusal(&self, action: &Action) -> Option<ActionFailed> {
        if let Some(name) = action.apiserver() {
            if !self.apiservers.contains_key(name) {
                return Some(unknown(name));
            }
        }
        if let Some((_, why)) = action.unsupported_under(self.behavior) {
            return Some(refused("", "", why));
        }
        match action {
            Action::StartApiserver(r) => self.lifecycle_refusal(&r.apiserver, |s| {
                matches!(s, Status::Running | Status::Starting | Status::Stopping)
                    .then(|| format!("is already {}", s.as_str()))
            }),
            // The pre-shutdown hook runs in a running process only.
            Action::StopApiserver(stop) => self.lifecycle_refusal(&stop.apiserver, |s| {
                (s != Status::Running).then(|| "is not running".to_string())
            }),
            Action::CrashApiserver(r) | Action::CrashHost(r) => {
                self.lifecycle_refusal(&r.apiserver, |s| {
                    matches!(s, Status::Stopped | Status::Crashed)
                        .then(|| "is not running".to_string())
                })
            }
            Action::AddApiserver(add) => self.add_refusal(add),
            Action::CreateService(c) => self.server_for(c.via.as_deref(), &c.service.key()).err(),
            Action::CreatePod(c) => self.server_for(c.via.as_deref(), &c.pod.key()).err(),
            Action::DeleteService(o) | Action::DeletePod(o) => {
                let object = format!("{}/{}", o.namespace, o.name);
                self.server_for(o.via.as_deref(), &object).err()
            }
            Action::SetPodReady(s) => {
                let object = format!("{}/{}", s.namespace, s.name);
                self.server_for(s.via.as_deref(), &object).err()
            }
            Action::CreateServiceCidr(c) => {
                self.server_for(c.via.as_deref(), &c.service_cidr.name).err()
            }
            Action::DeleteServiceCidr(n) => self.server_for(n.via.as_deref(), &n.name).err(),
            // Without client pods no kube-proxy runs, and the action changes nothing.
            Action::SlowKubeProxy(s) => {
                let unknown = self.net.as_ref().is_some_and(|n| !n.proxies.contains_key(&s.node));
                unknown.then(|| refused("", "", format!("node {:?} not found", s.node)))
            }
            Action::IsolateApiserver(_) | Action::EtcdOutage(_) | Action::Corrupt(_) => None,
        }
    }

    /// Which of `apiserver`'s own actions [`World::refusal`] lets through now.
    pub fn allowed(&self, apiserver: &str) -> ApiserverActions {
        let ok = |a: Action| self.refusal(&a).is_none();
        ApiserverActions {
            crash: ok(Action::crash(apiserver)),
            stop: ok(Action::stop(apiserver)),
            start: ok(Action::start(apiserver)),
            // How long does not matter to whether.
            isolate: ok(Action::isolate(apiserver, Millis::default())),
        }
    }

    /// Refused by `name` itself when its process `status` says why (`why` is the predicate).
    fn lifecycle_refusal(
        &self,
        name: &str,
        why: impl Fn(Status) -> Option<String>,
    ) -> Option<ActionFailed> {
        let a = self.apiservers.get(name)?;
        why(a.status).map(|w| refused(name, name, format!("apiserver {name} {w}")))
    }

    /// A new member is refused as a file's `add_apiserver` step is (`Taken`), in its words.
    fn add_refusal(&self, add: &AddApiserver) -> Option<ActionFailed> {
        let members = self.apiservers.values();
        let mut taken =
            Taken::of(members.map(|a| (a.spec.name.as_str(), a.spec.advertise_address)));
        let (cfg, ip) = (&self.cfg, add.advertise_address);
        let refusal = taken.add(&add.name, ip, cfg.reconciler, &cfg.service_ip_ranges).err();
        refusal.map(|(_, why)| refused("", &add.name, why))
    }
}
