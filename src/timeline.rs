//! Going back in time: periodic checkpoints of the world plus the user's action log. Seeking
//! clones the nearest checkpoint at or before the target and replays forward; acting in the past
//! forks the timeline (the actions and checkpoints after that instant are dropped).

use crate::event::ActionFailed;
use crate::scenario::{Action, Scenario};
use crate::world::World;

/// Virtual time between checkpoints.
pub(crate) const CHECKPOINT_EVERY_MS: u64 = 60_000;

#[derive(Clone, Debug)]
pub struct Timeline {
    /// Checkpoints at 0, 1 min, 2 min, … up to the furthest time reached, without their logs
    /// (which only grow): with the length of each log then.
    checkpoints: Vec<(World, usize, usize)>,
    /// User actions in the order applied, with the instant they were applied at.
    actions: Vec<(u64, Action)>,
    /// The present.
    world: World,
}

impl Timeline {
    pub fn new(scenario: &Scenario) -> Self {
        let world = World::new(scenario);
        Timeline {
            checkpoints: vec![world.checkpoint()],
            actions: Vec::new(),
            world,
        }
    }

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
    pub fn take_wire(&mut self) -> Vec<crate::etcd::Write> {
        self.world.take_wire()
    }

    pub fn actions(&self) -> &[(u64, Action)] {
        &self.actions
    }

    /// The furthest instant a checkpoint covers.
    fn checkpointed_until(&self) -> u64 {
        (self.checkpoints.len() as u64 - 1) * CHECKPOINT_EVERY_MS
    }

    /// Moves the present forward to `t`, taking checkpoints on the way.
    pub fn run_until(&mut self, t: u64) {
        let mut next = self.checkpointed_until() + CHECKPOINT_EVERY_MS;
        while next <= t {
            if self.world.now() < next {
                self.world.run_until(next);
                self.checkpoints.push(self.world.checkpoint());
            }
            next += CHECKPOINT_EVERY_MS;
        }
        self.world.run_until(t);
    }

    /// Processes the next event; returns its time.
    pub fn step(&mut self) -> Option<u64> {
        let t = self.world.next_time()?;
        self.run_until(t);
        Some(t)
    }

    /// The world as it was (or will be) at `t`: nearest checkpoint, then replay.
    pub fn seek(&mut self, t: u64) {
        if t >= self.world.now() {
            self.run_until(t);
            return;
        }
        let i = ((t / CHECKPOINT_EVERY_MS) as usize).min(self.checkpoints.len() - 1);
        let (cp, events, marks) = &self.checkpoints[i];
        let mut w = cp.clone();
        w.restore_logs(
            &self.world.events()[..*events],
            &self.world.marks()[..*marks],
        );
        let from = w.now();
        for (at, action) in self
            .actions
            .iter()
            .filter(|(at, _)| *at >= from && *at <= t)
        {
            w.run_until(*at);
            // A refusal replays as it happened: the same event, the world unchanged.
            let _ = w.act(action);
        }
        w.run_until(t);
        self.world = w;
    }

    /// Applies `action` at the present. If the present is in the past of the action log, the
    /// later actions and checkpoints are discarded first: a fork. A refused action stays in the
    /// log (its event is part of the history a link replays).
    pub fn act(&mut self, action: Action) -> Result<(), ActionFailed> {
        let now = self.world.now();
        self.actions.retain(|(at, _)| *at <= now);
        self.checkpoints
            .truncate((now / CHECKPOINT_EVERY_MS) as usize + 1);
        let result = self.world.act(&action);
        self.actions.push((now, action));
        result
    }
}
