//! Nodes, their kube-proxy and client pods in the world (`docs/extensions.md`, "Extension: nodes
//! and client pods"): each kube-proxy follows the `kubernetes` EndpointSlice with its own delays
//! (`k8s::proxy`), each client keeps one connection through it (`k8s::client`).
//!
//! All of it exists only when the scenario declares client pods, and draws from the world's one
//! PRNG only then, so a scenario without them runs exactly as before.

use std::collections::BTreeMap;

use super::figures::{ClientFigures, Tally};
use super::{Task, World, KUBERNETES_ENDPOINTS_KEYS};
use crate::contract::scenario::Scenario;
use crate::k8s::client::{Client, Conn, Failure, Workload, DIAL_TIMEOUT_MS};
use crate::k8s::controlplane::Status;
use crate::k8s::etcd::Value;
use crate::k8s::event::{Event, EventKind, SIM_COMPONENT};
use crate::k8s::proxy::Proxy;

/// The nodes' kube-proxies, the client pods and what they measured.
#[derive(Clone, Debug)]
pub(super) struct Net {
    /// By node name.
    pub(super) proxies: BTreeMap<String, Proxy>,
    /// By pod name.
    pub(super) clients: BTreeMap<String, Client>,
    /// Each client's start (a job polls on ticks from it).
    starts: BTreeMap<String, u64>,
    /// The slice's ready addresses as last written (what the informers deliver).
    slice: Vec<String>,
    pub(super) tally: Tally,
}

/// Who answers at an address: an apiserver taking connections, one that is not (and why), or
/// no host at all.
enum Backend {
    Accepting(String),
    Refusing(String, Status),
    NoHost,
}

impl World {
    /// The nodes and clients of `scenario`, if it has any: kube-proxies that listed the slice
    /// at their start, clients queued at theirs.
    pub(super) fn seed_net(&mut self, scenario: &Scenario) {
        // Nodes alone measure nothing: without client pods nothing runs and nothing is drawn.
        if scenario.clients.is_empty() {
            return;
        }
        let slice = self.slice_addresses();
        let proxies = scenario
            .nodes
            .iter()
            .map(|n| (n.name.clone(), Proxy::new(slice.clone(), n.proxy_apply_ms)));
        let mut net = Net {
            proxies: proxies.collect(),
            clients: BTreeMap::new(),
            starts: BTreeMap::new(),
            slice,
            tally: Tally::default(),
        };
        for c in &scenario.clients {
            let client = Client::new(c.name.clone(), c.node.clone(), c.workload.clone());
            net.clients.insert(c.name.clone(), client);
            net.starts.insert(c.name.clone(), c.start_at_ms);
            self.queue.push(c.start_at_ms, "", Task::Client(c.name.clone(), 0));
        }
        self.net = Some(Box::new(net));
    }

    /// The ready addresses of the `kubernetes` EndpointSlice in etcd (none when it is gone).
    pub fn slice_addresses(&self) -> Vec<String> {
        match self.etcd.get(KUBERNETES_ENDPOINTS_KEYS[1], self.now).map(|e| &e.value) {
            Some(Value::EndpointSlice(s)) => {
                let ready = s.endpoints.iter().filter(|e| e.ready);
                ready.flat_map(|e| e.addresses.iter().cloned()).collect()
            }
            _ => Vec::new(),
        }
    }

    /// After every task and action: a changed slice is sent to every kube-proxy's informer,
    /// and the windows follow what the proxies list and who answers there.
    pub(super) fn observe_net(&mut self) {
        if self.net.is_none() {
            return;
        }
        let current = self.slice_addresses();
        let net = self.net.as_mut().expect("net");
        if current != net.slice {
            net.slice = current.clone();
            for (node, proxy) in net.proxies.iter_mut() {
                let at = proxy.delivery_at(self.now, &mut self.rng);
                let task = Task::ProxyDeliver(node.clone(), current.clone());
                self.queue.push(at, "", task);
            }
        }
        let mut bad = BTreeMap::new();
        let net = self.net.as_ref().expect("net");
        for proxy in net.proxies.values() {
            for ip in &proxy.listed {
                match self.backend(ip) {
                    Backend::Accepting(_) => {}
                    Backend::Refusing(name, _) => {
                        bad.insert(ip.clone(), name);
                    }
                    Backend::NoHost => {
                        bad.insert(ip.clone(), String::new());
                    }
                }
            }
        }
        let now = self.now;
        self.net.as_mut().expect("net").tally.observe(now, bad);
    }

    /// Whether a new connection to `ip` gets through now (an apiserver's listener is open there).
    pub fn accepts(&self, ip: &str) -> bool {
        matches!(self.backend(ip), Backend::Accepting(_))
    }

    fn backend(&self, ip: &str) -> Backend {
        match self.apiservers.values().find(|a| a.ip() == ip) {
            None => Backend::NoHost,
            // The listener is open while the process runs, and through a graceful stop's
            // pre-shutdown hook (`--shutdown-delay-duration=0`: it closes when the hook is done).
            Some(a) if matches!(a.status, Status::Running | Status::Stopping) => {
                Backend::Accepting(a.spec.name.clone())
            }
            Some(a) => Backend::Refusing(a.spec.name.clone(), a.status),
        }
    }

    /// The informer of `node`'s kube-proxy hands it the slice's addresses.
    pub(super) fn proxy_deliver(&mut self, node: &str, addresses: Vec<String>) {
        let now = self.now;
        let proxy = self.net_mut().proxies.get_mut(node).expect("known node");
        if let Some(at) = proxy.deliver(addresses, now) {
            self.queue.push(at, "", Task::ProxySync(node.to_string()));
        }
    }

    /// `syncProxyRules` starts on `node`.
    pub(super) fn proxy_sync(&mut self, node: &str) {
        let now = self.now;
        let net = self.net.as_mut().expect("net");
        let proxy = net.proxies.get_mut(node).expect("known node");
        let (done, addresses) = proxy.start_sync(now, &mut self.rng);
        self.queue.push(done, "", Task::ProxyApplied(node.to_string(), addresses));
    }

    /// `node`'s new rules are in place.
    pub(super) fn proxy_applied(&mut self, node: &str, addresses: Vec<String>) {
        let now = self.now;
        self.net_mut().proxies.get_mut(node).expect("known node").applied(addresses, now);
    }

    fn net_mut(&mut self) -> &mut Net {
        self.net.as_mut().expect("a world with nodes")
    }

    /// A client's timer: its start, a job's poll, a reflector's retry, a dial's timeout.
    pub(super) fn client_wake(&mut self, name: &str, generation: u64) {
        let c = &self.net_mut().clients[name];
        if c.generation != generation {
            return;
        }
        match c.conn.clone() {
            Conn::Up { .. } => self.schedule_poll(name),
            Conn::Dialing { ip, until } if until <= self.now => {
                let cause = format!("nothing answers at {ip}:{}", self.target_port());
                self.client_failed(name, Some(ip), Failure::Timeout, &cause);
            }
            Conn::Dialing { .. } => {}
            Conn::Closed => self.dial(name),
        }
    }

    /// A job's next poll on its live connection (a controller's watch needs no timer).
    fn schedule_poll(&mut self, name: &str) {
        let now = self.now;
        let net = self.net_mut();
        let start = net.starts[name];
        let c = net.clients.get_mut(name).expect("known client");
        if let Workload::Job { every_ms } = c.workload {
            let at = crate::k8s::client::next_tick(start, every_ms, now);
            self.push_wake(name, at);
        }
    }

    fn push_wake(&mut self, name: &str, at: u64) {
        let c = self.net_mut().clients.get_mut(name).expect("known client");
        c.generation += 1;
        let task = Task::Client(name.to_string(), c.generation);
        self.queue.push(at, "", task);
    }

    /// A new connection to 10.96.0.1:443: kube-proxy on the client's node picks the endpoint.
    fn dial(&mut self, name: &str) {
        let now = self.now;
        let net = self.net.as_mut().expect("net");
        net.tally.attempts += 1;
        let c = net.clients.get_mut(name).expect("known client");
        c.waiting_since.get_or_insert(now);
        let node = c.node.clone();
        let picked = net.proxies[&node].pick(&mut self.rng).map(str::to_string);
        let Some(ip) = picked else {
            let cause = format!("kube-proxy on {node} lists no endpoint: its REJECT rule");
            return self.client_failed(name, None, Failure::Refused, &cause);
        };
        match self.backend(&ip) {
            Backend::Accepting(apiserver) => self.connected(name, ip, &apiserver),
            Backend::Refusing(apiserver, status) => {
                let cause = format!("{apiserver} is {status}, no listener at {ip}");
                self.client_failed(name, Some(ip), Failure::Refused, &cause);
            }
            Backend::NoHost => {
                let until = now + DIAL_TIMEOUT_MS;
                let port = self.target_port();
                let message = format!(
                    "lab note: pod {name} on {node} dialed 10.96.0.1:443, which kube-proxy sent to {ip}:{port}; nothing answers there, and client-go's dialer gives up after 30s"
                );
                let kind = EventKind::ClientDialing { client: name.to_string(), ip: ip.clone() };
                self.events.push(Event::log(now, "", SIM_COMPONENT, kind, message));
                let c = self.net_mut().clients.get_mut(name).expect("known client");
                c.conn = Conn::Dialing { ip, until };
                self.push_wake(name, until);
            }
        }
    }

    fn connected(&mut self, name: &str, ip: String, apiserver: &str) {
        let now = self.now;
        let port = self.target_port();
        let net = self.net_mut();
        let c = net.clients.get_mut(name).expect("known client");
        let node = c.node.clone();
        let waited = c.waiting_since.take().map(|t| now - t);
        c.conn = Conn::Up { ip: ip.clone(), since: now };
        if let Some(ms) = waited {
            net.tally.waited(name, ms);
        }
        let message = format!(
            "lab note: pod {name} on {node} connected to 10.96.0.1:443, which kube-proxy sent to {ip}:{port} ({apiserver})"
        );
        let kind = EventKind::ClientConnected { client: name.to_string(), ip };
        self.events.push(Event::log(now, "", SIM_COMPONENT, kind, message));
        self.schedule_poll(name);
    }

    /// A client's attempt or connection failed for `cause`: logged with client-go's error; it
    /// tries again as its workload does.
    fn client_failed(&mut self, name: &str, ip: Option<String>, failure: Failure, cause: &str) {
        let now = self.now;
        let net = self.net.as_mut().expect("net");
        match failure {
            Failure::Refused | Failure::Timeout => net.tally.failed += 1,
            _ => net.tally.broken += 1,
        }
        let start = net.starts[name];
        let c = net.clients.get_mut(name).expect("known client");
        c.conn = Conn::Closed;
        let at = c.retry_at(failure, now, start, &mut self.rng);
        let node = c.node.clone();
        let error = failure.client_go_error();
        let message =
            format!("lab note: pod {name} on {node}: client-go reports \"{error}\": {cause}");
        let kind = EventKind::ClientFailed { client: name.to_string(), ip, failure };
        self.events.push(Event::log(now, "", SIM_COMPONENT, kind, message));
        self.push_wake(name, at);
    }

    /// Apiserver `name` exited: its host is up, so a crash resets every connection to it
    /// (conntrack kept them through its endpoint's removal) and a graceful stop sends GOAWAY.
    pub(super) fn connections_end(&mut self, name: &str, status: Status) {
        let Some(net) = self.net.as_ref() else { return };
        let ip = self.apiservers[name].ip();
        let on: Vec<String> = net
            .clients
            .values()
            .filter(|c| c.connected_to() == Some(ip.as_str()))
            .map(|c| c.name.clone())
            .collect();
        let (failure, cause) = match status {
            Status::Crashed => {
                (Failure::Reset, format!("{name} crashed; its host closed the connection"))
            }
            _ => (Failure::GoAway, format!("{name} shut down gracefully")),
        };
        for client in on {
            self.client_failed(&client, Some(ip.clone()), failure, &cause);
        }
    }

    /// The apiservers' `--secure-port`, the target port of the `kubernetes` Service.
    fn target_port(&self) -> i32 {
        self.cfg.secure_port
    }

    // ---- reading -------------------------------------------------------------------------

    /// The figures of a run with client pods at `end`; `None` without clients.
    pub fn client_figures(&self, end: u64) -> Option<ClientFigures> {
        let net = self.net.as_ref().filter(|n| !n.clients.is_empty())?;
        let waiting: Vec<(String, u64)> = net
            .clients
            .values()
            .filter_map(|c| c.waiting_since.map(|t| (c.name.clone(), t)))
            .collect();
        Some(net.tally.figures(end, &waiting))
    }

    /// Each node's kube-proxy, by node name (none without client pods).
    pub fn proxies(&self) -> impl Iterator<Item = (&String, &Proxy)> {
        self.net.iter().flat_map(|n| n.proxies.iter())
    }

    /// The client pods, by name (none without them).
    pub fn clients(&self) -> impl Iterator<Item = &Client> {
        self.net.iter().flat_map(|n| n.clients.values())
    }
}
