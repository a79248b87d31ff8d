//! What a view of the lab reads: the one door out of the lab, as [`super::Msg`] is the one in.
//! Everything a UI draws is taken from here, computed by the lab and cached while it holds
//! (the logs copied only when they grew, the bitmaps rebuilt only when etcd, the repair runs or
//! the scenario changed), so no view reaches into the world or re-derives a rule of it. The
//! data types a view needs from the model are named here too.

use std::collections::BTreeMap;
use std::rc::Rc;

use crate::contract::scenario::Scenario;
use crate::contract::state::State;
use crate::inspect::{
    cluster_ip_bitmap, ip_address_map, node_port_bitmap, BitmapView, Cell, IpAddressMap,
};
use crate::k8s::api::Behavior;
use crate::k8s::controlplane::Status;
use crate::k8s::event::Event;

pub use crate::k8s::api::KUBERNETES;
pub use crate::k8s::etcd::{Key, Keys, Kind as KeyKind, Loop, NsName, RangeName, WireOp, Write};
pub use crate::k8s::reconcilers::ReconcilerType;
pub use crate::sim::world::{ApiserverActions, Mark, MarkKind};

use super::author::{Choice, Mode as WriterMode, Writer};
use super::clients::{clients_of, Clients};
use super::parts::Spot;
use super::tour::Guide;
use super::{EndpointsChange, Held, Lab, Lang};

/// The lab at one instant, as a view draws it.
#[derive(Clone)]
pub struct View {
    /// The cluster at the instant shown, as the contract's state.
    pub state: Rc<State>,
    /// The event log up to the instant shown.
    pub events: Rc<Vec<Event>>,
    /// The timeline's marks (starts, crashes, repair runs, actions…) up to the instant shown.
    pub marks: Rc<Vec<Mark>>,
    /// The furthest instant reached on this timeline (for the scrubber).
    pub horizon: u64,
    /// How long an apiserver's lease lives without renewal.
    pub lease_ttl_ms: u64,
    /// The endpoint reconciler's interval.
    pub interval_ms: u64,
    /// The endpoint reconciler the scenario configures.
    pub reconciler: ReconcilerType,
    /// The Kubernetes version whose behaviour the scenario simulates.
    pub behavior: Behavior,
    /// What each apiserver's buttons may offer (`World::allowed`): the core's own rule, never a
    /// copy of it; shared, and taken again only when the state changed.
    pub allowed: Rc<BTreeMap<String, ApiserverActions>>,
    /// The allocations as drawn, rebuilt only when etcd, the marks or the scenario changed.
    pub bitmaps: Rc<Bitmaps>,
    /// The clock as the reader plays it.
    pub player: Player,
    /// The guided tour being taken, if any.
    pub touring: Touring,
    /// The language the lab speaks.
    pub lang: Lang,
    /// What the reader should be told now, if anything.
    pub notice: Option<String>,
    /// Bumped whenever another scenario replaces the one shown (what was derived from the old
    /// one is stale then, even at the same instant and revision).
    pub generation: u64,
    /// The scenario shown.
    pub scenario: Rc<Scenario>,
    /// The scenario is a cluster imported in the page (`Msg::Import`).
    pub imported: bool,
    /// The requests to etcd of the last move that made any (the stage's packets).
    pub wire: Rc<Vec<Write>>,
    /// How many moves made requests: a view draws `wire` once per new count.
    pub wire_seq: u64,
    /// The last change of the kubernetes Endpoints' addresses in this scenario.
    pub change: EndpointsChange,
    /// The experiment set up last (its index), while the reader has not acted since.
    pub trying: Option<usize>,
    /// What that experiment is about: the parts and apiservers it acts on.
    pub trying_subjects: Vec<Spot>,
    /// The tour being written, if the author has started one (whether writing now or not).
    pub writer: Option<Rc<Writer>>,
    /// Whether the author is writing now (the sandbox takes actions as the scenario's steps).
    pub writing: bool,
    /// The predicates that hold at the moment shown, for a step's wait: offered while writing
    /// with the clock stopped (working them out on every frame of playing would read the whole
    /// state each time).
    pub wait_choices: Option<Rc<Vec<Choice>>>,
    /// What a link to this moment adds to the lab's page: the tour step's query in a tour, else
    /// the moment's fragment.
    pub link_to_here: String,
    /// What the lab's own page's address should say now (none while a story moves on by itself).
    pub address: Option<String>,
    /// The nodes, kube-proxies and client pods, for a scenario that declares client pods.
    pub clients: Option<Rc<Clients>>,
}

/// The clock as the reader plays it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Player {
    /// The instant shown (virtual ms).
    pub now: u64,
    /// Whether the clock runs.
    pub playing: bool,
    /// log10 of the speed chosen (virtual ms per real ms).
    pub speed_exp: f64,
    /// The speed playing runs at now: faster while moving to a far tour step.
    pub play_speed: f64,
    /// Whether an action in the past discarded the later history.
    pub forked: bool,
}

/// The guided tour being taken, as shown.
#[derive(Clone, Default)]
pub struct Touring {
    /// The tour and the step shown, if a tour is taken.
    pub guide: Option<Rc<Guide>>,
    /// Why the tour cannot go on (it no longer matches the simulation).
    pub error: Option<String>,
    /// Why the last move stopped at the unanswered question shown.
    pub held: Option<Held>,
    /// Whether the tour moves on by itself.
    pub autoplay: bool,
    /// Whether playing is on its way to a tour step.
    pub moving: bool,
    /// How long an autoplaying tour waits on this step before it moves on (real ms), if it will.
    pub autoplay_wait_ms: Option<u32>,
    /// Whether the tour is a trainer's own (`tour-src`, `tour-file`), not a shipped one.
    pub own: bool,
    /// The query that opens this tour as a handout, if it has an address.
    pub print_query: Option<String>,
    /// A tour previewed by its author (the writer's preview).
    pub previewing: bool,
}

impl PartialEq for Touring {
    fn eq(&self, other: &Self) -> bool {
        same(&self.guide, &other.guide)
            && (&self.error, self.held, self.autoplay, self.moving)
                == (&other.error, other.held, other.autoplay, other.moving)
            && (self.autoplay_wait_ms, self.own, &self.print_query, self.previewing)
                == (other.autoplay_wait_ms, other.own, &other.print_query, other.previewing)
    }
}

/// Whether two optional shared values are the same one.
fn same<T>(a: &Option<Rc<T>>, b: &Option<Rc<T>>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => Rc::ptr_eq(a, b),
        (a, b) => a.is_none() && b.is_none(),
    }
}

impl PartialEq for View {
    /// The state and the logs are shared and only replaced when they change: compare them by
    /// identity.
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.events, &other.events)
            && Rc::ptr_eq(&self.marks, &other.marks)
            && Rc::ptr_eq(&self.state, &other.state)
            && (self.horizon, self.lease_ttl_ms, self.interval_ms)
                == (other.horizon, other.lease_ttl_ms, other.interval_ms)
            && (self.reconciler, self.behavior) == (other.reconciler, other.behavior)
            && Rc::ptr_eq(&self.allowed, &other.allowed)
            && Rc::ptr_eq(&self.bitmaps, &other.bitmaps)
            && (self.player, &self.touring, self.lang, &self.notice, self.generation)
                == (other.player, &other.touring, other.lang, &other.notice, other.generation)
            && Rc::ptr_eq(&self.scenario, &other.scenario)
            && Rc::ptr_eq(&self.wire, &other.wire)
            && (self.imported, self.wire_seq, &self.change)
                == (other.imported, other.wire_seq, &other.change)
            && (self.trying, &self.trying_subjects) == (other.trying, &other.trying_subjects)
            && same(&self.writer, &other.writer)
            && same(&self.wait_choices, &other.wait_choices)
            && (self.writing, &self.link_to_here, &self.address)
                == (other.writing, &other.link_to_here, &other.address)
            && same(&self.clients, &other.clients)
    }
}

impl View {
    /// How many repair runs there were so far (each sweeps the bitmaps).
    pub fn repair_runs(&self) -> u64 {
        self.marks.iter().filter(|m| m.kind == MarkKind::RepairRun).count() as u64
    }
}

/// A ServiceCIDR prefix with the IPAddress objects drawn over it (1.33 and later).
#[derive(Clone, Debug, PartialEq)]
pub struct CidrCanvas {
    /// The ServiceCIDR's name.
    pub name: String,
    /// Its `Ready` condition (`None`: unset).
    pub ready: Option<bool>,
    /// Being deleted.
    pub deleting: bool,
    /// Kept, not ready, by IPAddresses that lie in it alone.
    pub terminating: bool,
    /// Usable addresses of the prefix (the view may draw fewer).
    pub addresses: u128,
    /// Its first and last usable address.
    pub bounds: (String, String),
    /// The prefix's cells as drawn.
    pub view: Rc<BitmapView>,
}

/// The allocations: the ClusterIP bitmaps (one per range; none under 1.35), the NodePort
/// bitmap, and under 1.33 and 1.35 the IPAddress objects over each ServiceCIDR prefix with
/// those drawn on no canvas (address, state, parent).
#[derive(PartialEq)]
pub struct Bitmaps {
    /// One ClusterIP bitmap per range (none under 1.35).
    pub ips: Rc<Vec<Rc<BitmapView>>>,
    /// The NodePort bitmap.
    pub ports: Rc<BitmapView>,
    /// Under 1.33 and 1.35, one canvas per ServiceCIDR prefix.
    pub cidrs: Rc<Vec<CidrCanvas>>,
    /// The IPAddress objects drawn on no canvas: address, state, parent.
    pub undrawn: Rc<Vec<(String, Cell, String)>>,
}

/// What the lab keeps of its views between renders.
/// The scenario's generation and each apiserver's process status, by name.
type Processes = (u64, Vec<(String, Status)>);
/// What the bitmaps shown follow from.
type BitmapsKey = (u64, u64, usize, bool);
/// What the clients shown follow from: the scenario's generation, the instant, the events.
type ClientsKey = (u64, u64, usize);

#[derive(Default)]
pub(super) struct ViewCache {
    logs_key: (u64, usize, usize, u64),
    events: Rc<Vec<Event>>,
    marks: Rc<Vec<Mark>>,
    bitmaps: Option<(BitmapsKey, Rc<Bitmaps>)>,
    /// The apiservers' allowed actions and the processes they were taken for: they follow from
    /// which apiservers exist and their process status (not the shown one: a stop of an
    /// isolated apiserver changes its process, not what the state shows), taken again when
    /// those or the scenario changed.
    allowed: Option<(Processes, Rc<BTreeMap<String, ApiserverActions>>)>,
    /// The clients shown and the (generation, instant, events) they were taken at.
    clients: Option<(ClientsKey, Option<Rc<Clients>>)>,
}

impl Lab {
    /// The lab now, as a view draws it.
    pub fn view(&self) -> View {
        let w = self.timeline.world();
        let cfg = w.config();
        // Before the cache is borrowed here: they keep theirs in it.
        let bitmaps = self.bitmaps();
        let mut cache = self.views.borrow_mut();
        let key = (
            self.generation,
            w.events().len(),
            w.marks().len(),
            w.marks().last().map_or(0, |m| m.time_ms),
        );
        if cache.logs_key != key {
            cache.logs_key = key;
            cache.events = Rc::new(w.events().to_vec());
            cache.marks = Rc::new(w.marks().to_vec());
        }
        let processes = (
            self.generation,
            w.apiservers().map(|a| (a.spec.name.clone(), a.status)).collect::<Vec<_>>(),
        );
        let allowed = match &cache.allowed {
            Some((p, allowed)) if *p == processes => allowed.clone(),
            _ => {
                let allowed: Rc<BTreeMap<_, _>> = Rc::new(
                    w.apiservers()
                        .map(|a| (a.spec.name.clone(), w.allowed(&a.spec.name)))
                        .collect(),
                );
                cache.allowed = Some((processes, allowed.clone()));
                allowed
            }
        };
        let clients_key = (self.generation, w.now(), cache.events.len());
        let clients = match &cache.clients {
            Some((k, c)) if *k == clients_key => c.clone(),
            _ => {
                let until = self.scenario.until_ms;
                let c = clients_of(w, &self.observed.state, &cache.events, until);
                cache.clients = Some((clients_key, c.clone()));
                c
            }
        };
        View {
            state: self.observed.state.clone(),
            events: cache.events.clone(),
            marks: cache.marks.clone(),
            horizon: self.horizon(),
            lease_ttl_ms: cfg.lease_ttl_ms,
            interval_ms: cfg.endpoint_interval_ms,
            reconciler: cfg.reconciler,
            behavior: w.behavior(),
            allowed,
            bitmaps,
            player: Player {
                now: self.now(),
                playing: self.playback.playing,
                speed_exp: self.playback.speed_exp,
                play_speed: self.play_speed(),
                forked: self.playback.forked,
            },
            touring: self.touring(),
            lang: self.lang,
            notice: self.notice.clone(),
            generation: self.generation,
            scenario: self.scenario.clone(),
            imported: self.imported,
            wire: self.observed.wire.clone(),
            wire_seq: self.observed.wire_seq,
            change: self.observed.change.clone(),
            trying: self.trying().map(|(i, _)| i),
            trying_subjects: self.trying_subjects(),
            writer: self.writer.clone(),
            writing: self.writing(),
            wait_choices: (self.writing() && !self.playback.playing).then(|| self.wait_choices()),
            link_to_here: self.link_to_here(),
            address: self.address(),
            clients,
        }
    }

    /// The tour being taken, as a view shows it.
    fn touring(&self) -> Touring {
        Touring {
            guide: self.taking.guide.clone(),
            error: self.taking.tour_error.clone(),
            held: self.held(),
            autoplay: self.taking.tour_autoplay,
            moving: self.moving(),
            autoplay_wait_ms: self.autoplay_wait_ms(),
            own: self.own_tour(),
            print_query: self.print_query(),
            previewing: self.writer.as_ref().is_some_and(|w| w.mode() == WriterMode::Previewing),
        }
    }

    /// The allocations as drawn, rebuilt when etcd, the marks or the scenario changed (a
    /// configured cluster starts at the same instant and revision as the one it replaces).
    fn bitmaps(&self) -> Rc<Bitmaps> {
        let w = self.timeline.world();
        let key =
            (self.generation, self.observed.state.etcd.revision, w.marks().len(), self.now() == 0);
        let mut cache = self.views.borrow_mut();
        match &cache.bitmaps {
            Some((k, maps)) if *k == key => maps.clone(),
            _ => {
                let maps = Rc::new(bitmaps_of(w));
                cache.bitmaps = Some((key, maps.clone()));
                maps
            }
        }
    }
}

fn bitmaps_of(w: &crate::sim::world::World) -> Bitmaps {
    let ips = (0..w.config().service_ip_ranges.networks().len())
        .filter_map(|i| cluster_ip_bitmap(w, i))
        .map(Rc::new)
        .collect();
    let map = if w.behavior().ip_addresses() { ip_address_map(w) } else { IpAddressMap::default() };
    let cidrs = map
        .cidrs
        .into_iter()
        .map(|c| CidrCanvas {
            name: c.name,
            ready: c.ready,
            deleting: c.deleting,
            terminating: c.terminating,
            addresses: c.addresses,
            bounds: (c.first, c.last),
            view: Rc::new(c.view),
        })
        .collect();
    Bitmaps {
        ips: Rc::new(ips),
        ports: Rc::new(node_port_bitmap(w)),
        cidrs: Rc::new(cidrs),
        undrawn: Rc::new(map.undrawn),
    }
}
