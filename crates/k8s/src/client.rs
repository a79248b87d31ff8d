//! A pod's client-go (`rest.InClusterConfig()`, `https://10.96.0.1:443`): one connection, how it
//! fails and when it tries again (`clients-view.md` §3).
//!
//! - **One connection.** `transport/cache.go` caches one `http.Transport` per TLS config and
//!   HTTP/2 multiplexes every request and watch on it, so kube-proxy picks a backend once per
//!   connection. The dialer gives up after 30 s (`net.Dialer{Timeout: 30 s}`).
//! - **Health check.** `ReadIdleTimeout` 30 s + `PingTimeout` 15 s
//!   (`apimachinery/pkg/util/net/http.go`): a silent peer is dropped ≤45 s after its last frame.
//! - **REST retries** (`rest/request.go`): a transport error is retried for GET only, after a
//!   synthetic `Retry-After: 1`, up to 10 times, and only on a reset, EOF or GOAWAY, and from
//!   client-go 1.32 (behaviours 1.33 and 1.35) a lost connection; a refused dial and a dial
//!   timeout go to the caller, as a lost connection does up to 1.31. The clients' client-go is
//!   taken to be the cluster's release.
//! - **Reflector** (`tools/cache/reflector.go`): a watch ended by EOF or a reset is opened again
//!   at once; a failed attempt waits `NewExponentialBackoffManager(800 ms, 30 s, 2 min, 2.0,
//!   1.0)`: [0.8, 1.6) s, then [1.6, 3.2) s, … up to [30, 60) s, back to 0.8 s after 2 min
//!   without a failure. A watch whose dial timed out is first dialled again by the REST client,
//!   1 s later, up to 10 times.
//!
//! - **A job's GET takes time**: `get_time` when the scenario gives one, else drawn in
//!   [`GET_MIN_MS`, `GET_MAX_MS`) (the lab's assumption for a small GET) from a stream of its
//!   own, so that the world's stream draws as before. A connection that breaks under a GET
//!   gives it the error (retried or not, as above); one that breaks idle tells nobody: Go's
//!   HTTP/2 transport drops it from its pool, and the next request dials anew.
//!
//! Left out: Go's HTTP/2 corner cases (extra connections past the stream limit, racing dials),
//! the TLS handshake's own 10 s, 429/5xx retries, and how long a controller's LIST takes (its
//! watch is the request that stays open).

use crate::api::Behavior;
use crate::rng::SimRng;

/// `net.Dialer{Timeout: 30 * time.Second}` in client-go's transport.
pub const DIAL_TIMEOUT_MS: u64 = 30_000;
/// HTTP/2 `ReadIdleTimeout`: a ping after 30 s without a frame.
pub const READ_IDLE_TIMEOUT_MS: u64 = 30_000;
/// HTTP/2 `PingTimeout`: the connection is closed 15 s after an unanswered ping.
pub const PING_TIMEOUT_MS: u64 = 15_000;
/// The synthetic `Retry-After: 1` of a retried GET.
pub const RETRY_AFTER_MS: u64 = 1_000;
/// `maxRetries` of the REST client.
pub const MAX_RETRIES: u32 = 10;
/// The shortest GET the lab draws for a job: the lab's assumption (a small object through a
/// nearby apiserver), not a Kubernetes figure.
pub const GET_MIN_MS: u64 = 5;
/// The drawn GETs are shorter than this.
pub const GET_MAX_MS: u64 = 50;
/// The reflector's backoff: initial, cap and the quiet time after which it starts over.
pub const BACKOFF_INITIAL_MS: u64 = 800;
/// The cap of the reflector's backoff (before jitter).
pub const BACKOFF_MAX_MS: u64 = 30_000;
/// The reflector's backoff starts over after 2 min without one.
pub const BACKOFF_RESET_MS: u64 = 120_000;

/// What the pod does with the API.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Workload {
    /// An informer: lists, then watches for as long as the connection lives.
    Controller,
    /// A loop that GETs every `every_ms`.
    Job {
        /// The polling period.
        every_ms: u64,
        /// How long each GET takes on an apiserver that answers, when the scenario says
        /// (`get_time`: a slow LIST); else each is drawn.
        get_ms: Option<u64>,
    },
}

/// How a connection attempt or an established connection failed, as client-go reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Failure {
    /// The SYN got a RST (process down, listener closed) or kube-proxy's REJECT.
    Refused,
    /// No answer to the SYN within the dial timeout (host down or unreachable).
    Timeout,
    /// The peer's kernel closed the connection (the process died, its host up).
    Reset,
    /// The server sent GOAWAY (a graceful shutdown) and closed the connection.
    GoAway,
    /// The HTTP/2 health check got no answer to its ping.
    Lost,
}

impl Failure {
    /// The error text client-go surfaces for it (Go's `net` and `x/net/http2` strings).
    pub fn client_go_error(self) -> &'static str {
        match self {
            Failure::Refused => "dial tcp 10.96.0.1:443: connect: connection refused",
            Failure::Timeout => "dial tcp 10.96.0.1:443: i/o timeout",
            Failure::Reset => "unexpected EOF",
            Failure::GoAway => "http2: server sent GOAWAY and closed the connection",
            Failure::Lost => "http2: client connection lost",
        }
    }

    /// `rest/request.go`: whether a GET that met it is retried under `behavior`'s client-go:
    /// `IsConnectionReset` or `IsProbableEOF` (a reset, EOF, GOAWAY), and from client-go 1.32
    /// also `IsHTTP2ConnectionLost` (commit "automatically retry GET requests when http2
    /// connection lost"): so under 1.33 and 1.35, not 1.29. No other verb ever is.
    pub fn retried_for_get(self, behavior: Behavior) -> bool {
        match self {
            Failure::Reset | Failure::GoAway => true,
            Failure::Lost => behavior >= Behavior::V1_33,
            Failure::Refused | Failure::Timeout => false,
        }
    }

    /// Whether a reflector opens its watch again at once (the stream ended) rather than after
    /// a backoff step (the attempt failed).
    pub fn rewatch_at_once(self) -> bool {
        matches!(self, Failure::Reset | Failure::GoAway)
    }
}

/// The instant an established connection to a silent peer is closed: a ping 30 s after the
/// last frame received, unanswered for 15 s.
pub fn health_check_closes_at(last_frame_ms: u64) -> u64 {
    last_frame_ms + READ_IDLE_TIMEOUT_MS + PING_TIMEOUT_MS
}

/// The last frame a connection received before its peer went silent at `down`, from a peer
/// that answered everything until then: its last answered request (`polled`: a job's last
/// poll, else the connection's start), or a later ping's answer, a ping being sent each time
/// 30 s passed without a frame. A ping due at `down` itself is not answered; a poll is counted
/// only once it has run (at one instant a scenario's steps, a host going down among them, run
/// before the pods, and a reader's action after them).
pub fn last_frame(polled: u64, down: u64) -> u64 {
    match down.checked_sub(1) {
        Some(before) if before >= polled => {
            polled + (before - polled) / READ_IDLE_TIMEOUT_MS * READ_IDLE_TIMEOUT_MS
        }
        _ => polled,
    }
}

/// The reflector's `ExponentialBackoffManager`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Backoff {
    /// The next wait before jitter; 0 before the first.
    next_ms: u64,
    /// When the last wait began.
    last_ms: Option<u64>,
}

impl Backoff {
    /// The wait before the next attempt, from `now`: the step with jitter 1.0 (uniform in
    /// `[d, 2d)`), then the step doubles up to the cap; after 2 min of quiet it starts over.
    pub fn next(&mut self, now: u64, rng: &mut SimRng) -> u64 {
        if self.next_ms == 0 || self.last_ms.is_some_and(|t| now - t > BACKOFF_RESET_MS) {
            self.next_ms = BACKOFF_INITIAL_MS;
        }
        self.last_ms = Some(now);
        let d = self.next_ms;
        self.next_ms = (d * 2).min(BACKOFF_MAX_MS);
        d + rng.intn(d as usize) as u64
    }
}

/// A client pod's one connection.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Conn {
    /// None open (never, or the last one failed or closed).
    Closed,
    /// A SYN sent to `ip` that nothing answers: it fails at `until`.
    Dialing {
        /// The endpoint kube-proxy sent it to.
        ip: String,
        /// When the dial times out.
        until: u64,
    },
    /// Established to `ip` since `since`.
    Up {
        /// The endpoint kube-proxy sent it to (conntrack keeps it).
        ip: String,
        /// When it was established.
        since: u64,
        /// When its last request was answered: a job's last poll, else `since`.
        polled: u64,
    },
    /// An open request on `ip` (a watch, or a job's GET under way) after the apiserver there
    /// sent GOAWAY as its listener closed: a graceful GOAWAY (`NO_ERROR`) lets open streams
    /// run, so it goes on until it ends or the server closes the connection at `until` (its
    /// shutdown gave up, the process exited).
    Draining {
        /// The endpoint kube-proxy sent it to.
        ip: String,
        /// When it was established.
        since: u64,
        /// When the server closes it.
        until: u64,
    },
    /// Established to `ip`, whose host went down: no frame comes back, and nothing tells the
    /// client so until its HTTP/2 health check closes it at `closes_at`.
    Silent {
        /// The endpoint kube-proxy sent it to.
        ip: String,
        /// When the unanswered ping times out.
        closes_at: u64,
    },
}

/// A pod on a node that talks to the API through the `kubernetes` Service.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Client {
    /// The pod's name.
    pub name: String,
    /// The node it runs on (whose kube-proxy routes its connections).
    pub node: String,
    /// What it does with the API.
    pub workload: Workload,
    /// Its connection.
    pub conn: Conn,
    /// Its reflector's backoff (a controller's).
    pub backoff: Backoff,
    /// Bumped whenever its next wake-up changes: older timers are ignored.
    pub generation: u64,
    /// Since when it has wanted a connection and had none (its present wait), if it does.
    pub waiting_since: Option<u64>,
    /// How many times the REST client has dialled its present watch again after a dial
    /// timeout (a controller's; up to `MAX_RETRIES`, then the reflector's backoff).
    pub watch_retries: u32,
    /// A job's GET under way (sent, waiting for a connection or an answer, or due again), with
    /// how many times the REST client has retried it; `None` while the job is idle.
    pub get: Option<u32>,
}

impl Client {
    /// A pod that has not connected yet.
    pub fn new(name: String, node: String, workload: Workload) -> Client {
        Client {
            name,
            node,
            workload,
            conn: Conn::Closed,
            backoff: Backoff::default(),
            generation: 0,
            waiting_since: None,
            watch_retries: 0,
            get: None,
        }
    }

    /// How long its next GET takes on an apiserver that answers: the scenario's `get_time`,
    /// else drawn from `rng` (the clients' own stream) in [`GET_MIN_MS`, `GET_MAX_MS`).
    pub fn get_time(&self, rng: &mut SimRng) -> u64 {
        match self.workload {
            Workload::Job { get_ms: Some(ms), .. } => ms,
            _ => GET_MIN_MS + rng.intn((GET_MAX_MS - GET_MIN_MS) as usize) as u64,
        }
    }

    /// Whether the REST client sends its GET again after the connection under it broke with
    /// `failure` (`rest/request.go`: a GET, a retriable error, fewer than `MAX_RETRIES` tries).
    pub fn get_retried(&self, failure: Failure, behavior: Behavior) -> bool {
        self.get.is_some_and(|n| n < MAX_RETRIES) && failure.retried_for_get(behavior)
    }

    /// The endpoint of its established connection that takes requests, if it has one.
    pub fn connected_to(&self) -> Option<&str> {
        match &self.conn {
            Conn::Up { ip, .. } => Some(ip),
            _ => None,
        }
    }

    /// The endpoint of its request draining after a GOAWAY, if it has one.
    pub fn draining_on(&self) -> Option<&str> {
        match &self.conn {
            Conn::Draining { ip, .. } => Some(ip),
            _ => None,
        }
    }

    /// When it tries again after `failure` at `now`: a controller's reflector at once or after
    /// a backoff step, unless its watch's dial timed out: `rest/request.go` `Watch()` retries
    /// that itself (`IsTimeout`) after its synthetic `Retry-After: 1`, up to `MAX_RETRIES`
    /// times, before the reflector sees anything. A job tries at its next poll (`start` is its
    /// first).
    pub fn retry_at(&mut self, failure: Failure, now: u64, start: u64, rng: &mut SimRng) -> u64 {
        match self.workload {
            Workload::Controller
                if failure == Failure::Timeout && self.watch_retries < MAX_RETRIES =>
            {
                self.watch_retries += 1;
                now + RETRY_AFTER_MS
            }
            Workload::Controller => {
                self.watch_retries = 0;
                if failure.rewatch_at_once() {
                    now
                } else {
                    now + self.backoff.next(now, rng)
                }
            }
            Workload::Job { every_ms, .. } => next_tick(start, every_ms, now),
        }
    }
}

/// The first poll of a loop started at `start` every `every_ms` strictly after `now`.
pub fn next_tick(start: u64, every_ms: u64, now: u64) -> u64 {
    if now < start {
        return start;
    }
    start + ((now - start) / every_ms + 1) * every_ms
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_reflector_backoff_doubles_with_jitter_and_caps() {
        let mut b = Backoff::default();
        let mut rng = SimRng::new(7);
        let mut now = 0;
        let mut lows = Vec::new();
        for _ in 0..8 {
            let d = b.next(now, &mut rng);
            lows.push(d);
            now += d;
        }
        let bounds = [800, 1_600, 3_200, 6_400, 12_800, 25_600, 30_000, 30_000];
        for (d, lo) in lows.iter().zip(bounds) {
            assert!((lo..2 * lo).contains(d), "{d} not in [{lo}, {})", 2 * lo);
        }
        // Two quiet minutes later it starts over.
        assert!(b.next(now + BACKOFF_RESET_MS + 1, &mut rng) < 1_600);
    }

    #[test]
    fn a_timed_out_watch_is_dialled_again_by_the_rest_client_then_the_reflector() {
        let mut c = Client::new("op".into(), "node-1".into(), Workload::Controller);
        let mut rng = SimRng::new(7);
        let mut now = 60_000;
        for _ in 0..MAX_RETRIES {
            let at = c.retry_at(Failure::Timeout, now, 0, &mut rng);
            assert_eq!(at, now + RETRY_AFTER_MS);
            now = at + DIAL_TIMEOUT_MS;
        }
        // The eleventh timeout reaches the reflector: a backoff step, and a new watch after it
        // gets the REST client's retries again.
        let at = c.retry_at(Failure::Timeout, now, 0, &mut rng);
        assert!((now + 800..now + 1_600).contains(&at), "{at}");
        assert_eq!(c.retry_at(Failure::Timeout, at, 0, &mut rng), at + RETRY_AFTER_MS);
        // A refused dial goes to the reflector at once.
        let refused = c.retry_at(Failure::Refused, at, 0, &mut rng);
        assert!(refused > at + RETRY_AFTER_MS, "{refused}");
    }

    #[test]
    fn resets_goaways_and_from_1_32_lost_connections_are_retried() {
        for b in [Behavior::V1_20, Behavior::V1_29, Behavior::V1_33, Behavior::V1_35] {
            assert!(Failure::Reset.retried_for_get(b) && Failure::GoAway.retried_for_get(b));
            assert!(!Failure::Refused.retried_for_get(b) && !Failure::Timeout.retried_for_get(b));
            assert_eq!(Failure::Lost.retried_for_get(b), b >= Behavior::V1_33, "{b:?}");
        }
        assert_eq!(health_check_closes_at(1_000), 46_000);
    }

    #[test]
    fn the_last_frame_is_the_last_poll_or_ping() {
        // A job whose last poll ran at 60 s, silenced at 61.5 s.
        assert_eq!(last_frame(60_000, 61_500), 60_000);
        // A quiet watch since 20 s: pings answered at 50 s and 80 s.
        assert_eq!(last_frame(20_000, 89_999), 80_000);
        // Down at the very instant of a ping: that one was never answered.
        assert_eq!(last_frame(20_000, 80_000), 50_000);
        assert_eq!(last_frame(20_000, 20_000), 20_000);
    }

    #[test]
    fn a_job_polls_on_its_ticks() {
        assert_eq!(next_tick(0, 5_000, 0), 5_000);
        assert_eq!(next_tick(0, 5_000, 7_200), 10_000);
        assert_eq!(next_tick(3_000, 5_000, 1_000), 3_000);
    }
}
