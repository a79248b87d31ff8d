//! Going back in time: periodic checkpoints of the world plus the user's action log. Seeking
//! clones the nearest checkpoint at or before the target and replays forward (at most one
//! checkpoint interval, back or forward: a seek costs the same anywhere in the timeline); acting
//! in the past forks the timeline (the actions and checkpoints after that instant are dropped).

use std::cell::RefCell;
use std::rc::Rc;

use crate::contract::scenario::{Action, Scenario};
use crate::contract::state::State;
use crate::k8s::api::Service;
use crate::k8s::event::{ActionFailed, Event};
use crate::sim::world::{Mark, World};

/// Virtual time between checkpoints.
pub(crate) const CHECKPOINT_EVERY_MS: u64 = 60_000;

/// A run of a scenario that can go back in time and fork.
#[derive(Clone, Debug)]
pub struct Timeline {
    /// Checkpoints at 0, 1 min, 2 min, … up to the furthest time reached, without their logs
    /// (which only grow): with the length of each log then.
    checkpoints: Vec<(World, usize, usize)>,
    /// User actions in the order applied, with the instant they were applied at.
    actions: Vec<(u64, Action)>,
    /// The present.
    world: World,
    /// When the present went back: the instant it left and the logs it had then. They are the
    /// logs of every checkpoint up to there (the present's are a prefix), so a seek forward can
    /// start from a later checkpoint rather than replay from the present.
    ahead: Option<(u64, Vec<Event>, Vec<Mark>)>,
    /// The Services of the last state read, by the revision of their last write: in one line of
    /// history a revision names one set of Services, so the states of a seek share them.
    services: RefCell<Option<(u64, Rc<Vec<Service>>)>>,
}

impl Timeline {
    /// A timeline of `scenario` at its start, before anything ran.
    pub fn new(scenario: &Scenario) -> Self {
        let world = World::new(scenario);
        Timeline {
            checkpoints: vec![world.checkpoint()],
            actions: Vec::new(),
            world,
            ahead: None,
            services: RefCell::new(None),
        }
    }

    /// The present's state (`World::state`), sharing the Services of the last one read when they
    /// did not change.
    pub fn state(&self) -> State {
        self.world.state_sharing(&mut self.services.borrow_mut())
    }

    /// The present.
    pub fn world(&self) -> &World {
        &self.world
    }

    /// Keeps the requests to etcd for [`Timeline::take_wire`], from the start (the first
    /// checkpoint too: a seek replays from them).
    pub fn record_wire(&mut self) {
        self.world.record_wire();
        for (cp, _, _) in &mut self.checkpoints {
            cp.record_wire();
        }
    }

    /// The requests to etcd since the last call (see [`World::take_wire`]).
    pub fn take_wire(&mut self) -> Vec<crate::k8s::etcd::Write> {
        self.world.take_wire()
    }

    /// The user's actions, each with the instant it was applied at.
    pub fn actions(&self) -> &[(u64, Action)] {
        &self.actions
    }

    /// The furthest instant a checkpoint covers.
    fn checkpointed_until(&self) -> u64 {
        (self.checkpoints.len() as u64 - 1) * CHECKPOINT_EVERY_MS
    }

    /// Moves the present forward to `t`, taking checkpoints on the way. In the past, the
    /// history's actions between the present and `t` happen again on the way, as a seek
    /// replays them (every logged action at or before the present is in the present world).
    pub fn run_until(&mut self, t: u64) {
        let now = self.world.now();
        let due: Vec<(u64, Action)> =
            self.actions.iter().filter(|(at, _)| *at > now && *at <= t).cloned().collect();
        for (at, action) in due {
            self.advance(at);
            // A refusal replays as it happened: the same event, the world unchanged.
            let _ = self.world.act(&action);
        }
        self.advance(t);
    }

    fn advance(&mut self, t: u64) {
        let mut next = self.checkpointed_until() + CHECKPOINT_EVERY_MS;
        while next <= t {
            if self.world.now() < next {
                self.world.run_until(next);
                self.checkpoints.push(self.world.checkpoint());
            }
            next += CHECKPOINT_EVERY_MS;
        }
        self.world.run_until(t);
        if self.ahead.as_ref().is_some_and(|(left, ..)| t >= *left) {
            self.ahead = None;
        }
    }

    /// Processes the next event; returns its time.
    pub fn step(&mut self) -> Option<u64> {
        let t = self.world.next_time()?;
        self.run_until(t);
        Some(t)
    }

    /// The world as it was (or will be) at `t`: the nearest checkpoint at or before `t`, then
    /// replay; straight on from the present when no checkpoint lies between it and `t`.
    pub fn seek(&mut self, t: u64) {
        let now = self.world.now();
        let i = ((t / CHECKPOINT_EVERY_MS) as usize).min(self.checkpoints.len() - 1);
        let (cp, events, marks) = &self.checkpoints[i];
        let from = cp.now();
        if t >= now && from <= now {
            self.run_until(t);
            return;
        }
        if self.ahead.as_ref().is_none_or(|(left, ..)| *left < now) {
            let (events, marks) = self.world.take_logs();
            self.ahead = Some((now, events, marks));
        }
        let (_, all_events, all_marks) = self.ahead.as_ref().expect("just kept");
        let mut w = cp.clone();
        w.restore_logs(&all_events[..*events], &all_marks[..*marks]);
        for (at, action) in self.actions.iter().filter(|(at, _)| *at >= from && *at <= t) {
            w.run_until(*at);
            // A refusal replays as it happened: the same event, the world unchanged.
            let _ = w.act(action);
        }
        self.world = w;
        self.run_until(t);
    }

    /// Applies `action` at the present. If the present is in the past of the action log, the
    /// later actions and checkpoints are discarded first: a fork. A refused action stays in the
    /// log (its event is part of the history a link replays).
    pub fn act(&mut self, action: Action) -> Result<(), ActionFailed> {
        let now = self.world.now();
        self.actions.retain(|(at, _)| *at <= now);
        self.checkpoints.truncate((now / CHECKPOINT_EVERY_MS) as usize + 1);
        self.ahead = None;
        // Another line of history from here: its revisions may name other Services.
        self.services.replace(None);
        let result = self.world.act(&action);
        self.actions.push((now, action));
        result
    }
}
