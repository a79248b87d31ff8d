//! User actions and scenario `do` steps, one small method per [`Action`].
//!
//! Actions from a UI or a link are not validated beforehand as scenario steps are: [`World::act`]
//! refuses what names an unknown apiserver or carries an unparsable IP, and every refusal leaves
//! the world as it was, recorded as an `action_failed` event.

use super::{MarkKind, Task, World};
use crate::api::{parse_ip, ServiceCidr};
use crate::controlplane::{Apiserver, Status};
use crate::duration::parse_ms;
use crate::etcd::{self, Etcd, Loop, Value};
use crate::event::{ActionFailed, Event};
use crate::scenario::{
    Action, AddApiserver, ApiserverSpec, Corruption, CreatePod, CreateService, CreateServiceCidr,
    Isolate, NameRef, ObjectRef, Outage, SetPodReady, MAX_APISERVERS,
};

/// A refusal by `apiserver` (empty when none could serve) about `object`.
pub(super) fn refused(apiserver: &str, object: &str, message: String) -> ActionFailed {
    ActionFailed {
        apiserver: apiserver.to_string(),
        object: object.to_string(),
        message,
    }
}

impl World {
    /// Applies a user action now, as a step would; a refusal is returned and recorded.
    pub fn act(&mut self, action: &Action) -> Result<(), ActionFailed> {
        self.check_action(action).inspect_err(|f| self.record(f))?;
        self.mark(MarkKind::Action, action.apiserver().unwrap_or_default());
        self.marking_rewrites("", |w| w.perform(action))
    }

    fn check_action(&self, action: &Action) -> Result<(), ActionFailed> {
        if let Some(name) = action.apiserver() {
            if !self.apiservers.contains_key(name) {
                return Err(refused("", name, format!("unknown apiserver {name:?}")));
            }
        }
        if let Action::Corrupt(
            Corruption::LeakClusterIp { ip }
            | Corruption::UnallocateClusterIp { ip }
            | Corruption::ForceClusterIp { ip, .. }
            | Corruption::PutIpAddress { ip, .. }
            | Corruption::DeleteIpAddress { ip },
        ) = action
        {
            if parse_ip(ip).is_none() {
                return Err(refused("", ip, format!("invalid IP address {ip:?}")));
            }
        }
        let b = self.behavior;
        let bitmap_edit = matches!(action, Action::Corrupt(c) if c.edits_ip_bitmap());
        if (action.needs_ip_addresses() && !b.ip_addresses()) || (bitmap_edit && !b.cluster_ip_bitmap()) {
            let why = format!("not possible under behavior {b}: {}", b.label());
            return Err(refused("", "", why));
        }
        Ok(())
    }

    /// Applies `action`, recording a refusal as an event.
    pub(super) fn perform(&mut self, action: &Action) -> Result<(), ActionFailed> {
        self.apply(action).inspect_err(|f| self.record(f))
    }

    fn record(&mut self, f: &ActionFailed) {
        self.events.push(Event::action_failed(self.now, f));
    }

    fn apply(&mut self, action: &Action) -> Result<(), ActionFailed> {
        match action {
            Action::StartApiserver(r) => self.start_apiserver(&r.apiserver),
            Action::StopApiserver(r) => self.stop_apiserver(&r.apiserver),
            Action::CrashApiserver(r) => self.crash_apiserver(&r.apiserver),
            Action::AddApiserver(add) => self.add_apiserver(add),
            Action::IsolateApiserver(iso) => {
                self.isolate_apiserver(iso);
                Ok(())
            }
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
        let a = self.apiservers.get_mut(name).expect("validated");
        if matches!(
            a.status,
            Status::Running | Status::Starting | Status::Stopping
        ) {
            let status = a.status.as_str();
            return Err(refused(
                name,
                name,
                format!("apiserver {name} is already {status}"),
            ));
        }
        a.restart(&self.cfg, self.behavior);
        self.schedule_start(name, self.now);
        Ok(())
    }

    /// The pre-shutdown hook runs now; the process exits when it finished, else at its timeout.
    fn stop_apiserver(&mut self, name: &str) -> Result<(), ActionFailed> {
        let a = &self.apiservers[name];
        if !a.is_up() || a.status == Status::Stopping {
            return Err(refused(
                name,
                name,
                format!("apiserver {name} is not running"),
            ));
        }
        let done = self.with_apiserver(name, |a, st, cfg, behavior, _| a.stop(st, cfg, behavior));
        if done {
            self.exit(name, Status::Stopped);
        } else {
            let epoch = self.apiservers.get_mut(name).expect("known").new_epoch();
            let at = self.now + 2 * self.cfg.endpoint_interval_ms;
            self.queue.push(at, name, Task::StopTimeout(epoch));
        }
        Ok(())
    }

    fn crash_apiserver(&mut self, name: &str) -> Result<(), ActionFailed> {
        if matches!(
            self.apiservers[name].status,
            Status::Stopped | Status::Crashed
        ) {
            return Err(refused(
                name,
                name,
                format!("apiserver {name} is not running"),
            ));
        }
        self.exit(name, Status::Crashed);
        Ok(())
    }

    fn add_apiserver(&mut self, add: &AddApiserver) -> Result<(), ActionFailed> {
        let Some(ip) = parse_ip(&add.advertise_address) else {
            let why = format!("invalid IP address {:?}", add.advertise_address);
            return Err(refused("", &add.name, why));
        };
        if self.apiservers.len() >= MAX_APISERVERS {
            let why = format!("more than {MAX_APISERVERS} apiservers, the most the lab runs");
            return Err(refused("", &add.name, why));
        }
        let taken = |a: &Apiserver| a.spec.name == add.name || a.spec.advertise_address == ip;
        if self.apiservers.values().any(taken) {
            let why = format!("apiserver {} or address {ip} already exists", add.name);
            return Err(refused("", &add.name, why));
        }
        let startup_delay = add
            .startup_delay
            .as_deref()
            .and_then(|d| parse_ms(d).ok())
            .unwrap_or(0);
        let spec = ApiserverSpec {
            name: add.name.clone(),
            advertise_address: ip,
            start_at: Some(self.now),
            startup_delay,
        };
        let a = Apiserver::new(spec, &self.cfg, self.behavior);
        self.apiservers.insert(add.name.clone(), a);
        self.schedule_start(&add.name, self.now);
        Ok(())
    }

    fn isolate_apiserver(&mut self, iso: &Isolate) {
        let until = self.now + parse_ms(&iso.for_).unwrap_or(0);
        self.mark(MarkKind::Isolation, &iso.apiserver);
        let a = self.apiservers.get_mut(&iso.apiserver).expect("validated");
        a.isolate(until);
        self.queue
            .push(until, "", Task::EndIsolation(iso.apiserver.clone()));
    }

    fn etcd_outage(&mut self, o: &Outage) {
        let until = self.now + parse_ms(&o.for_).unwrap_or(0);
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
        self.pod_write(
            c.via.as_deref(),
            &c.pod.namespace,
            &c.pod.name,
            move |etcd, now| {
                if etcd
                    .get(&etcd::namespace_key(&pod.namespace), now)
                    .is_none()
                {
                    return Err(format!("namespaces \"{}\" not found", pod.namespace));
                }
                let key = etcd::pod_key(&pod.namespace, &pod.name);
                let exists = format!("pods \"{}\" already exists", pod.name);
                etcd.compare_and_put(&key, 0, Value::Pod(pod), now)
                    .map(|_| ())
                    .map_err(|_| exists)
            },
        )
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
        ServiceCidr::validate(&spec.name, &spec.cidrs).map_err(|e| refused(&server, &spec.name, e))?;
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
    fn server_for(&self, via: Option<&str>, object: &str) -> Result<String, ActionFailed> {
        match via {
            Some(name) if self.ready(name) => Ok(name.to_string()),
            Some(name) => {
                let why = if !self.apiservers[name].is_up() {
                    format!("apiserver {name} is not running")
                } else if !self.reachable(name) {
                    let unreachable = crate::registry::UNREACHABLE;
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
