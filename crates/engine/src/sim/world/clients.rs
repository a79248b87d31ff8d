//! Nodes, their kube-proxy and client pods in the world (`docs/extensions.md`, "Extension: nodes
//! and client pods"): each kube-proxy follows the `kubernetes` EndpointSlice with its own delays
//! (`k8s::proxy`), each client keeps one connection through it (`k8s::client`).
//!
//! All of it exists only when the scenario declares client pods, and draws from the world's one
//! PRNG only then, so a scenario without them runs exactly as before. A job's GET durations
//! come from a stream of their own (`Net::gets`), seeded from the scenario's seed.

use std::collections::{BTreeMap, BTreeSet};

use super::figures::{ClientFigures, Tally};
use super::{Task, World, KUBERNETES_ENDPOINTS_KEYS};
use crate::contract::scenario::Scenario;
use crate::k8s::client::{self, Client, Conn, Failure, Workload, DIAL_TIMEOUT_MS, RETRY_AFTER_MS};
use crate::k8s::controlplane::{Status, SHUTDOWN_TIMEOUT_MS};
use crate::k8s::etcd::Value;
use crate::k8s::event::{Event, EventKind, SIM_COMPONENT};
use crate::k8s::proxy::Proxy;
use crate::rng::SimRng;

/// Mixed into the scenario's seed for the stream of GET durations ("get time" in ASCII).
const GET_STREAM: u64 = 0x6765_7420_7469_6d65;

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
    /// The apiservers whose host is down (`crash_host`), until they start again.
    hosts_down: BTreeSet<String>,
    /// The jobs' GET durations: drawn here, not from the world's stream, so that adding them
    /// moved no other draw.
    gets: SimRng,
    pub(super) tally: Tally,
}

/// Who answers at an address: an apiserver taking connections, one that is not (and why), or
/// nothing: no host has it, or the apiserver's host is down.
enum Backend {
    Accepting(String),
    Refusing(String, Status),
    NoAnswer(Option<String>),
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
            hosts_down: BTreeSet::new(),
            gets: SimRng::new(scenario.seed ^ GET_STREAM),
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
                    Backend::NoAnswer(apiserver) => {
                        bad.insert(ip.clone(), apiserver.unwrap_or_default());
                    }
                }
            }
        }
        let empty = net.proxies.iter().filter(|(_, p)| p.listed.is_empty());
        let empty: BTreeSet<String> = empty.map(|(node, _)| node.clone()).collect();
        let now = self.now;
        let tally = &mut self.net.as_mut().expect("net").tally;
        tally.observe(now, bad);
        tally.observe_empty(now, empty);
    }

    /// Whether a new connection to `ip` gets through now (an apiserver's listener is open there).
    pub fn accepts(&self, ip: &str) -> bool {
        matches!(self.backend(ip), Backend::Accepting(_))
    }

    fn backend(&self, ip: &str) -> Backend {
        let down = |name: &String| self.net.as_ref().is_some_and(|n| n.hosts_down.contains(name));
        match self.apiservers.values().find(|a| a.ip() == ip) {
            None => Backend::NoAnswer(None),
            Some(a) if down(&a.spec.name) => Backend::NoAnswer(Some(a.spec.name.clone())),
            // The listener is open while the process runs, and through a graceful stop's
            // pre-shutdown hook and its `--shutdown-delay-duration` (it closes at the later).
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
        let (job, busy) = (matches!(c.workload, Workload::Job { .. }), c.get.is_some());
        match c.conn.clone() {
            // A job's GET is answered: the connection's last frame, and its next poll.
            Conn::Up { ip, since, .. } if busy => {
                let polled = self.now;
                let c = self.net_mut().clients.get_mut(name).expect("known client");
                c.conn = Conn::Up { ip, since, polled };
                c.get = None;
                self.schedule_poll(name)
            }
            Conn::Up { .. } if job => self.send_get(name),
            Conn::Up { .. } => {}
            // Under a graceful stop's GOAWAY the GET under way is answered, then the server
            // closes the connection, which held no other request.
            Conn::Draining { ip, .. } if busy => {
                let apiserver = self.apiserver_at(&ip);
                let cause = format!(
                    "{apiserver} answered its GET, then closed the connection after its GOAWAY"
                );
                self.net_mut().clients.get_mut(name).expect("known client").get = None;
                self.closed_idle(name, &ip, &cause, false);
            }
            Conn::Dialing { ip, until } if until <= self.now => {
                let cause = format!(
                    "nothing answers at {ip}:{}{}",
                    self.target_port(),
                    self.why_silent(&ip)
                );
                self.client_failed(name, Some(ip), Failure::Timeout, &cause);
            }
            Conn::Silent { ip, closes_at } if closes_at <= self.now => {
                let cause = format!(
                    "no answer to its HTTP/2 ping from {ip}:{}{} (a ping 30s after the last frame, 15s to answer)",
                    self.target_port(),
                    self.why_silent(&ip)
                );
                self.client_failed(name, Some(ip), Failure::Lost, &cause);
            }
            Conn::Draining { ip, until, .. } if until <= self.now => {
                let apiserver = self.apiserver_at(&ip);
                let cause = format!(
                    "{apiserver}'s graceful shutdown gave up on its open watches after 60s (--request-timeout) and the process exited, closing the connection"
                );
                self.client_failed(name, Some(ip), Failure::GoAway, &cause);
            }
            // A job's poll on a silent connection: its GET hangs until the health check.
            Conn::Silent { closes_at, .. } if job => {
                self.net_mut().clients.get_mut(name).expect("known client").get.get_or_insert(0);
                self.push_wake(name, closes_at);
            }
            Conn::Dialing { .. } | Conn::Draining { .. } | Conn::Silent { .. } => {}
            Conn::Closed => {
                if job {
                    self.net_mut()
                        .clients
                        .get_mut(name)
                        .expect("known client")
                        .get
                        .get_or_insert(0);
                }
                self.dial(name)
            }
        }
    }

    /// A job's next poll on its live connection (a controller's watch needs no timer).
    fn schedule_poll(&mut self, name: &str) {
        let now = self.now;
        let net = self.net_mut();
        let start = net.starts[name];
        let c = net.clients.get_mut(name).expect("known client");
        if let Workload::Job { every_ms, .. } = c.workload {
            let at = crate::k8s::client::next_tick(start, every_ms, now);
            self.push_wake(name, at);
        }
    }

    /// A job sends its GET on its live connection; the answer comes after the GET's time.
    fn send_get(&mut self, name: &str) {
        let now = self.now;
        let net = self.net_mut();
        let c = net.clients.get_mut(name).expect("known client");
        c.get.get_or_insert(0);
        let took = c.get_time(&mut net.gets);
        self.push_wake(name, now + took);
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
            self.net_mut().tally.rejected += 1;
            let cause = format!("kube-proxy on {node} lists no endpoint: its REJECT rule");
            return self.client_failed(name, None, Failure::Refused, &cause);
        };
        match self.backend(&ip) {
            Backend::Accepting(apiserver) => self.connected(name, ip, &apiserver),
            Backend::Refusing(apiserver, status) => {
                let cause = format!("{apiserver} is {status}, no listener at {ip}");
                self.client_failed(name, Some(ip), Failure::Refused, &cause);
            }
            Backend::NoAnswer(_) => {
                let until = now + DIAL_TIMEOUT_MS;
                let port = self.target_port();
                let why = self.why_silent(&ip);
                let message = format!(
                    "lab note: pod {name} on {node} dialed 10.96.0.1:443, which kube-proxy sent to {ip}:{port}; nothing answers there{why}, and client-go's dialer gives up after 30s"
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
        c.conn = Conn::Up { ip: ip.clone(), since: now, polled: now };
        c.watch_retries = 0;
        if let Some(ms) = waited {
            net.tally.waited(name, ms);
        }
        let message = format!(
            "lab note: pod {name} on {node} connected to 10.96.0.1:443, which kube-proxy sent to {ip}:{port} ({apiserver})"
        );
        let kind = EventKind::ClientConnected { client: name.to_string(), ip };
        self.events.push(Event::log(now, "", SIM_COMPONENT, kind, message));
        match self.net_mut().clients[name].workload {
            // A job dialled to send its GET.
            Workload::Job { .. } => self.send_get(name),
            Workload::Controller => {}
        }
    }

    /// A client's attempt or connection failed for `cause`: logged with client-go's error; it
    /// tries again as its workload does.
    /// A job's connection that broke idle tells nobody; one that broke under its GET gives it
    /// the error, which the REST client may retry.
    fn client_failed(&mut self, name: &str, ip: Option<String>, failure: Failure, cause: &str) {
        let behavior = self.behavior;
        let c = &self.net_mut().clients[name];
        let job = matches!(c.workload, Workload::Job { .. });
        let broke = matches!(failure, Failure::Reset | Failure::Lost | Failure::GoAway);
        if let (true, true, None, Some(ip)) = (job, broke, c.get, &ip) {
            return self.closed_idle(name, ip, cause, true);
        }
        if let (true, true, Some(ip)) = (job, c.get_retried(failure, behavior), ip.clone()) {
            return self.get_retrying(name, ip, failure, cause);
        }
        let now = self.now;
        let net = self.net.as_mut().expect("net");
        match failure {
            Failure::Refused | Failure::Timeout => net.tally.failed += 1,
            _ => net.tally.broken += 1,
        }
        let start = net.starts[name];
        let c = net.clients.get_mut(name).expect("known client");
        c.conn = Conn::Closed;
        c.get = None;
        let at = c.retry_at(failure, now, start, &mut self.rng);
        let node = c.node.clone();
        let error = failure.client_go_error();
        let message =
            format!("lab note: pod {name} on {node}: client-go reports \"{error}\": {cause}");
        let kind = EventKind::ClientFailed { client: name.to_string(), ip, failure };
        self.events.push(Event::log(now, "", SIM_COMPONENT, kind, message));
        self.push_wake(name, at);
    }

    /// Apiserver `name` went down. With its host up, a crash resets every connection to it
    /// (conntrack kept them through its endpoint's removal); a graceful stop's listener closes
    /// with GOAWAY (`NO_ERROR`): an idle connection closes without an error, and a watch
    /// streams on until the server's shutdown gives up and the process exits
    /// (`SHUTDOWN_TIMEOUT_MS` later). With its host down nothing comes back, and each connection
    /// goes silent until its health check.
    pub(super) fn connections_end(&mut self, name: &str, status: Status) {
        let Some(net) = self.net.as_ref() else { return };
        let ip = self.apiservers[name].ip();
        let on: Vec<(String, Workload)> = net
            .clients
            .values()
            .filter(|c| c.connected_to() == Some(ip.as_str()))
            .map(|c| (c.name.clone(), c.workload.clone()))
            .collect();
        if net.hosts_down.contains(name) {
            return on.iter().for_each(|(c, _)| self.silence(c));
        }
        for (client, workload) in on {
            match (status, workload) {
                (Status::Crashed, _) => {
                    let cause = format!("{name} crashed; its host closed the connection");
                    self.client_failed(&client, Some(ip.clone()), Failure::Reset, &cause);
                }
                (_, Workload::Job { .. }) => self.goaway_to_job(&client, name, &ip),
                (_, Workload::Controller) => {
                    let until = self.now + SHUTDOWN_TIMEOUT_MS;
                    let c = self.net_mut().clients.get_mut(&client).expect("known client");
                    let Conn::Up { since, .. } = c.conn else { continue };
                    c.conn = Conn::Draining { ip: ip.clone(), since, until };
                    self.push_wake(&client, until);
                }
            }
        }
    }

    /// A job's connection got GOAWAY as `apiserver`'s listener closed: a GET under way is
    /// still answered (the connection drains, as a watch does), an idle connection closes.
    fn goaway_to_job(&mut self, name: &str, apiserver: &str, ip: &str) {
        let until = self.now + SHUTDOWN_TIMEOUT_MS;
        let c = self.net_mut().clients.get_mut(name).expect("known client");
        match (c.get, c.conn.clone()) {
            // The GET's answer is due before `until` (a `get_time` is under 60 s).
            (Some(_), Conn::Up { ip, since, .. }) => c.conn = Conn::Draining { ip, since, until },
            _ => {
                let cause = format!("{apiserver} closed its listener and sent GOAWAY");
                self.closed_idle(name, ip, &cause, false);
            }
        }
    }

    /// A job's connection to `ip` closed for `cause` with no request open: client-go sees no
    /// error, and the next poll dials a new one. `broke`: the peer crashed or went silent,
    /// rather than closing it gracefully.
    fn closed_idle(&mut self, name: &str, ip: &str, cause: &str, broke: bool) {
        let now = self.now;
        let net = self.net_mut();
        net.tally.broken += u64::from(broke);
        let c = net.clients.get_mut(name).expect("known client");
        c.conn = Conn::Closed;
        let node = c.node.clone();
        let message = format!(
            "lab note: pod {name} on {node}: {cause}; with no request open the connection closed without an error, and the next poll dials a new one"
        );
        let kind = EventKind::ClientClosed { client: name.to_string(), ip: ip.to_string() };
        self.events.push(Event::log(now, "", SIM_COMPONENT, kind, message));
        self.schedule_poll(name);
    }

    /// A job's connection to `ip` broke under its GET with `failure`: `rest/request.go` sends
    /// the GET again after its synthetic `Retry-After: 1`, on a new connection, and the job
    /// sees no error unless that try fails too.
    fn get_retrying(&mut self, name: &str, ip: String, failure: Failure, cause: &str) {
        let now = self.now;
        let net = self.net_mut();
        net.tally.broken += 1;
        net.tally.retried += 1;
        let c = net.clients.get_mut(name).expect("known client");
        c.conn = Conn::Closed;
        c.get = c.get.map(|n| n + 1);
        let node = c.node.clone();
        let error = failure.client_go_error();
        let message = format!(
            "lab note: pod {name} on {node}: its GET met \"{error}\": {cause}; client-go's REST client sends the GET again in 1s on a new connection, and the job sees no error"
        );
        let kind = EventKind::ClientRetrying { client: name.to_string(), ip, failure };
        self.events.push(Event::log(now, "", SIM_COMPONENT, kind, message));
        self.push_wake(name, now + RETRY_AFTER_MS);
    }

    /// Apiserver `name`'s process is gone (its graceful shutdown gave up, or it started again):
    /// the requests still draining on its connections (watches, a job's GET) end with the
    /// GOAWAY'd connection's close.
    pub(super) fn drained(&mut self, name: &str, cause: &str) {
        let Some(net) = self.net.as_ref() else { return };
        let ip = self.apiservers[name].ip();
        let on: Vec<String> = net
            .clients
            .values()
            .filter(|c| c.draining_on() == Some(ip.as_str()))
            .map(|c| c.name.clone())
            .collect();
        for client in on {
            self.client_failed(&client, Some(ip.clone()), Failure::GoAway, cause);
        }
    }

    /// Client `name`'s connection gets no more frames: its health check closes it 30 s + 15 s
    /// after the last one it received.
    fn silence(&mut self, name: &str) {
        let now = self.now;
        let c = self.net_mut().clients.get_mut(name).expect("known client");
        let Conn::Up { ip, polled, .. } = c.conn.clone() else { return };
        let closes_at = client::health_check_closes_at(client::last_frame(polled, now));
        c.conn = Conn::Silent { ip, closes_at };
        // An idle job's next poll sends a GET that hangs there (`client_wake`).
        let wake = match c.workload {
            Workload::Job { every_ms, .. } if c.get.is_none() => {
                let start = self.net_mut().starts[name];
                client::next_tick(start, every_ms, now).min(closes_at)
            }
            _ => closes_at,
        };
        self.push_wake(name, wake);
    }

    /// `slow_kube_proxy`: `node`'s kube-proxy takes `apply_ms` for each `iptables-restore`
    /// from now on (a sync under way keeps the time it drew).
    pub(super) fn slow_proxy(&mut self, node: &str, apply_ms: u64) {
        if let Some(p) = self.net.as_mut().and_then(|n| n.proxies.get_mut(node)) {
            p.apply_ms = Some(apply_ms);
        }
    }

    /// `crash_host`: apiserver `name`'s host is down, so nothing answers at its address.
    pub(super) fn host_down(&mut self, name: &str) {
        if let Some(net) = self.net.as_mut() {
            net.hosts_down.insert(name.to_string());
        }
    }

    /// Apiserver `name` starts again, its host back up: the host's kernel knows nothing of
    /// the connections it had, and answers their next packet with a reset; a dial still
    /// retrying its SYN is refused, as nothing listens there yet.
    pub(super) fn host_up(&mut self, name: &str) {
        let Some(net) = self.net.as_mut() else { return };
        if !net.hosts_down.remove(name) {
            return;
        }
        let ip = self.apiservers[name].ip();
        let at = |c: &Client| match &c.conn {
            Conn::Silent { ip: at, .. } if *at == ip => Some((c.name.clone(), Failure::Reset)),
            Conn::Dialing { ip: at, .. } if *at == ip => Some((c.name.clone(), Failure::Refused)),
            _ => None,
        };
        let on: Vec<(String, Failure)> = net.clients.values().filter_map(at).collect();
        for (client, failure) in on {
            let cause = match failure {
                Failure::Reset => {
                    format!("{name}'s host is back up and resets the connection it forgot")
                }
                _ => format!("{name}'s host is back up, with no listener yet at {ip}"),
            };
            self.client_failed(&client, Some(ip.clone()), failure, &cause);
        }
    }

    /// The name of the apiserver with address `ip`; empty when none has it.
    fn apiserver_at(&self, ip: &str) -> String {
        let a = self.apiservers.values().find(|a| a.ip() == ip);
        a.map_or_else(String::new, |a| a.spec.name.clone())
    }

    /// Why nothing answers at `ip`, when it is an apiserver's host that is down.
    fn why_silent(&self, ip: &str) -> String {
        match self.backend(ip) {
            Backend::NoAnswer(Some(apiserver)) => format!(" ({apiserver}'s host is down)"),
            _ => String::new(),
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

    /// Whether apiserver `name`'s host is down (`crash_host`, until it starts again).
    pub fn host_is_down(&self, name: &str) -> bool {
        self.net.as_ref().is_some_and(|n| n.hosts_down.contains(name))
    }

    /// The client pods, by name (none without them).
    pub fn clients(&self) -> impl Iterator<Item = &Client> {
        self.net.iter().flat_map(|n| n.clients.values())
    }
}
