//! User actions and scenario `do` steps, one small method per [`Action`].
//!
//! An action arrives well formed (its values are typed as it is read); what the cluster makes
//! of it is decided here. [`World::refusal`] says, without changing anything, what is refused
//! before anything is tried, and both ways in (`act`, a step's `perform`) ask it first; what only
//! trying can tell (an IP taken, a Pod not found) is refused by the apply methods. Every refusal
//! leaves the world as it was, recorded as an `action_failed` event.

use super::{MarkKind, Task, World};
use crate::contract::scenario::{
    Action, AddApiserver, ApiserverSpec, CreatePod, CreateService, CreateServiceCidr, Isolate,
    Millis, NameRef, ObjectRef, Outage, SetPodReady, Stop,
};
use crate::k8s::api::ServiceCidr;
use crate::k8s::controlplane::{Apiserver, Status};
use crate::k8s::etcd::{self, Etcd, Loop, Value};
use crate::k8s::event::{ActionFailed, Event};

/// A refusal by `apiserver` (empty when none could serve) about `object`.
pub(super) fn refused(apiserver: &str, object: &str, message: String) -> ActionFailed {
    ActionFailed { apiserver: apiserver.to_string(), object: object.to_string(), message }
}

/// A graceful stop under way with a shutdown delay: its listener is open until `listen_until`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Shutdown {
    /// When `--shutdown-delay-duration` has passed since the stop.
    pub(super) listen_until: u64,
    /// Whether the pre-shutdown hook has finished (or timed out).
    pub(super) hook_done: bool,
}

impl World {
    /// Applies a user action now, as a step would; a refusal is returned and recorded.
    pub fn act(&mut self, action: &Action) -> Result<(), ActionFailed> {
        self.refuse(action)?;
        self.mark(MarkKind::Action, action.apiserver().unwrap_or_default());
        self.marking_rewrites("", |w| w.apply(action).inspect_err(|f| w.record(f)))
    }

    /// Applies a step's `action`, recording a refusal as an event.
    pub(super) fn perform(&mut self, action: &Action) -> Result<(), ActionFailed> {
        self.refuse(action)?;
        self.apply(action).inspect_err(|f| self.record(f))
    }

    /// [`World::refusal`], recorded.
    fn refuse(&mut self, action: &Action) -> Result<(), ActionFailed> {
        match self.refusal(action) {
            Some(f) => {
                self.record(&f);
                Err(f)
            }
            None => Ok(()),
        }
    }

    fn record(&mut self, f: &ActionFailed) {
        self.events.push(Event::action_failed(self.now, f));
    }

    /// Does `action`, once [`World::refusal`] let it through (so the apiserver's status is not
    /// asked again here).
    fn apply(&mut self, action: &Action) -> Result<(), ActionFailed> {
        match action {
            Action::StartApiserver(r) => self.start_apiserver(&r.apiserver),
            Action::StopApiserver(s) => self.stop_apiserver(s),
            Action::SlowKubeProxy(s) => {
                self.slow_proxy(&s.node, s.proxy_apply_time.ms());
                Ok(())
            }
            Action::CrashApiserver(r) => self.crash_apiserver(&r.apiserver),
            Action::CrashHost(r) => {
                self.host_down(&r.apiserver);
                self.crash_apiserver(&r.apiserver)
            }
            Action::AddApiserver(add) => self.add_apiserver(add),
            Action::IsolateApiserver(iso) => self.isolate_apiserver(iso),
            Action::EtcdOutage(o) => {
                self.etcd_outage(o);
                Ok(())
            }
            Action::CreateService(c) => self.create_service(c),
            Action::DeleteService(o) => self.delete_service(o),
            Action::CreatePod(c) => self.create_pod(c),
            Action::DeletePod(o) => self.delete_pod(o),
            Action::SetPodReady(s) => self.set_pod_ready(s),
            Action::Corrupt(c) => self.corrupt(c),
            Action::CreateServiceCidr(c) => self.create_service_cidr(c),
            Action::DeleteServiceCidr(n) => self.delete_service_cidr(n),
        }
    }

    fn start_apiserver(&mut self, name: &str) -> Result<(), ActionFailed> {
        self.apiservers.get(name).ok_or_else(|| unknown(name))?;
        self.host_up(name);
        // A new process: the old one, if a graceful stop left it draining watches, is gone.
        self.drained(name, &format!("{name}'s old process exited as it started again"));
        let a = self.apiservers.get_mut(name).ok_or_else(|| unknown(name))?;
        a.restart(&self.cfg, self.behavior);
        self.schedule_start(name, self.now);
        Ok(())
    }

    /// The pre-shutdown hook runs now. The listener closes (GOAWAY) when the hook has finished
    /// (else at its timeout) and the shutdown delay has passed (open watches drain on, see
    /// `connections_end`): the
    /// generic apiserver runs the hooks at once and stops accepting new requests once both
    /// `--shutdown-delay-duration` has passed and the hooks are done.
    fn stop_apiserver(&mut self, stop: &Stop) -> Result<(), ActionFailed> {
        let name = stop.apiserver.as_str();
        self.apiservers.get(name).ok_or_else(|| unknown(name))?;
        let done = self.with_apiserver(name, |a, st, cfg, behavior, _| a.stop(st, cfg, behavior));
        let delay = stop.shutdown_delay.map_or(0, Millis::ms);
        if done && delay == 0 {
            self.exit(name, Status::Stopped);
            return Ok(());
        }
        let a = self.apiservers.get_mut(name).ok_or_else(|| unknown(name))?;
        let epoch = a.new_epoch();
        let listen_until = self.now + delay;
        self.shutdowns.insert(name.to_string(), Shutdown { listen_until, hook_done: done });
        if delay > 0 {
            self.queue.push(listen_until, name, Task::ShutdownDelayEnd(epoch));
        }
        if !done {
            let at = self.now + 2 * self.cfg.endpoint_interval_ms;
            self.queue.push(at, name, Task::StopTimeout(epoch));
        }
        Ok(())
    }

    /// A stop's hook has finished (`hook_done`) or its delay has passed: the process exits
    /// once both have.
    pub(super) fn stop_progress(&mut self, name: &str, hook_done: bool) {
        let now = self.now;
        let s = self.shutdowns.entry(name.to_string()).or_default();
        s.hook_done |= hook_done;
        if s.hook_done && s.listen_until <= now {
            self.exit(name, Status::Stopped);
        }
    }

    fn crash_apiserver(&mut self, name: &str) -> Result<(), ActionFailed> {
        self.apiservers.get(name).ok_or_else(|| unknown(name))?;
        self.exit(name, Status::Crashed);
        Ok(())
    }

    /// A new member, started now (its name, address and the count were checked by `refusal`).
    fn add_apiserver(&mut self, add: &AddApiserver) -> Result<(), ActionFailed> {
        let spec = ApiserverSpec {
            name: add.name.clone(),
            advertise_address: add.advertise_address,
            start_at: Some(self.now),
            startup_delay: add.startup_delay.map_or(0, |d| d.ms()),
        };
        let a = Apiserver::new(spec, &self.cfg, self.behavior);
        self.apiservers.insert(add.name.clone(), a);
        self.schedule_start(&add.name, self.now);
        Ok(())
    }

    fn isolate_apiserver(&mut self, iso: &Isolate) -> Result<(), ActionFailed> {
        let until = self.now + iso.for_.ms();
        let a = self.apiservers.get_mut(&iso.apiserver).ok_or_else(|| unknown(&iso.apiserver))?;
        a.isolate(until);
        self.mark(MarkKind::Isolation, &iso.apiserver);
        self.queue.push(until, "", Task::EndIsolation(iso.apiserver.clone()));
        Ok(())
    }

    fn etcd_outage(&mut self, o: &Outage) {
        let until = self.now + o.for_.ms();
        self.mark(MarkKind::Outage, "");
        self.outage_until = Some(self.outage_until.map_or(until, |t| t.max(until)));
        self.queue.push(until, "", Task::EndOutage);
    }

    fn create_service(&mut self, c: &CreateService) -> Result<(), ActionFailed> {
        let server = self.server_for(c.via.as_deref(), &c.service.key())?;
        c.validate().map_err(|e| refused(&server, &c.service.key(), e))?;
        let svc = c.service.clone();
        self.with_apiserver(&server, |a, st, _, _, rng| {
            st.etcd.sending_from(Loop::Request);
            a.allocators.create_service(st, rng, svc)
        })
        .map_err(|e| refused(&server, &c.service.key(), e))?;
        self.sync_endpoints_controller();
        Ok(())
    }

    fn delete_service(&mut self, o: &ObjectRef) -> Result<(), ActionFailed> {
        let object = format!("{}/{}", o.namespace, o.name);
        let server = self.server_for(o.via.as_deref(), &object)?;
        self.with_apiserver(&server, |a, st, _, _, _| {
            st.etcd.sending_from(Loop::Request);
            a.allocators.delete_service(st, &o.namespace, &o.name)
        })
        .map_err(|e| refused(&server, &object, e))?;
        self.sync_endpoints_controller();
        Ok(())
    }

    fn create_pod(&mut self, c: &CreatePod) -> Result<(), ActionFailed> {
        if let Err(e) = c.validate() {
            // Refused by the apiserver that serves the request, before it writes anything.
            let server = self.server_for(c.via.as_deref(), &c.pod.key())?;
            return Err(refused(&server, &c.pod.key(), e));
        }
        let pod = c.pod.clone();
        self.pod_write(c.via.as_deref(), &c.pod.namespace, &c.pod.name, move |etcd, now| {
            if etcd.get(&etcd::namespace_key(&pod.namespace), now).is_none() {
                return Err(format!("namespaces \"{}\" not found", pod.namespace));
            }
            let key = etcd::pod_key(&pod.namespace, &pod.name);
            let exists = format!("pods \"{}\" already exists", pod.name);
            etcd.compare_and_put(&key, 0, Value::Pod(pod), now).map(|_| ()).map_err(|_| exists)
        })
    }

    fn delete_pod(&mut self, o: &ObjectRef) -> Result<(), ActionFailed> {
        self.pod_write(o.via.as_deref(), &o.namespace, &o.name, |etcd, now| {
            if etcd.delete(&etcd::pod_key(&o.namespace, &o.name), now) {
                Ok(())
            } else {
                Err(format!("pods \"{}\" not found", o.name))
            }
        })
    }

    fn set_pod_ready(&mut self, s: &SetPodReady) -> Result<(), ActionFailed> {
        self.pod_write(s.via.as_deref(), &s.namespace, &s.name, |etcd, now| {
            let key = etcd::pod_key(&s.namespace, &s.name);
            match etcd.get(&key, now).map(|e| e.value.clone()) {
                Some(Value::Pod(mut pod)) => {
                    if pod.ready != s.ready {
                        pod.ready = s.ready;
                        etcd.put(&key, Value::Pod(pod), None, now);
                    }
                    Ok(())
                }
                _ => Err(format!("pods \"{}\" not found", s.name)),
            }
        })
    }

    /// `POST /apis/networking.k8s.io/v1/servicecidrs`: validated, then stored as given; the
    /// ServiceCIDR controller adds its finalizer and condition when it sees it.
    fn create_service_cidr(&mut self, c: &CreateServiceCidr) -> Result<(), ActionFailed> {
        let spec = &c.service_cidr;
        let server = self.server_for(c.via.as_deref(), &spec.name)?;
        ServiceCidr::validate(&spec.name, &spec.cidrs)
            .map_err(|e| refused(&server, &spec.name, e))?;
        let key = etcd::service_cidr_key(&spec.name);
        self.etcd.sending(&server, Loop::Request);
        let object = Value::ServiceCidr(ServiceCidr::new(&spec.name, spec.cidrs.clone()));
        let exists = format!("servicecidrs.networking.k8s.io {:?} already exists", spec.name);
        self.etcd
            .compare_and_put(&key, 0, object, self.now)
            .map_err(|_| refused(&server, &spec.name, exists))?;
        Ok(())
    }

    /// `DELETE`: with a finalizer the object only gets its deletion timestamp and stays until
    /// the ServiceCIDR controller lets it go; without one it goes at once.
    fn delete_service_cidr(&mut self, n: &NameRef) -> Result<(), ActionFailed> {
        let server = self.server_for(n.via.as_deref(), &n.name)?;
        let not_found = || {
            let why = format!("servicecidrs.networking.k8s.io {:?} not found", n.name);
            refused(&server, &n.name, why)
        };
        let mut cidr = self.etcd.service_cidr(&n.name, self.now).cloned().ok_or_else(not_found)?;
        let key = etcd::service_cidr_key(&n.name);
        self.etcd.sending(&server, Loop::Request);
        if cidr.finalizers.is_empty() {
            self.etcd.delete(&key, self.now);
        } else if !cidr.deleting {
            cidr.deleting = true;
            cidr.deleted_ms = Some(self.now);
            self.etcd.put(&key, Value::ServiceCidr(cidr), None, self.now);
        }
        Ok(())
    }

    /// A Pod write through an apiserver (Pods have no allocations: straight to etcd).
    fn pod_write(
        &mut self,
        via: Option<&str>,
        ns: &str,
        name: &str,
        write: impl FnOnce(&mut Etcd, u64) -> Result<(), String>,
    ) -> Result<(), ActionFailed> {
        let object = format!("{ns}/{name}");
        let server = self.server_for(via, &object)?;
        self.etcd.sending(&server, Loop::Request);
        write(&mut self.etcd, self.now).map_err(|e| refused(&server, &object, e))?;
        self.sync_endpoints_controller();
        Ok(())
    }

    /// The apiserver that serves an API request about `object`: the one named, or the first
    /// ready one by name.
    pub(super) fn server_for(
        &self,
        via: Option<&str>,
        object: &str,
    ) -> Result<String, ActionFailed> {
        match via {
            Some(name) if self.ready(name) => Ok(name.to_string()),
            Some(name) => {
                let a = self.apiservers.get(name).ok_or_else(|| unknown(name))?;
                let why = if !a.is_up() {
                    format!("apiserver {name} is not running")
                } else if !self.reachable(name) {
                    let unreachable = crate::k8s::registry::UNREACHABLE;
                    format!("apiserver {name} cannot reach etcd: {unreachable}")
                } else {
                    format!("apiserver {name} is not ready")
                };
                Err(refused(name, object, why))
            }
            None => self
                .apiservers
                .keys()
                .find(|n| self.ready(n))
                .cloned()
                .ok_or_else(|| refused("", object, "no apiserver can serve the request".into())),
        }
    }
}

/// The refusal of an action naming an apiserver the cluster does not have.
pub(super) fn unknown(name: &str) -> ActionFailed {
    refused("", name, format!("unknown apiserver {name:?}"))
}
