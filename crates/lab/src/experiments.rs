//! Things to try: one click sets up an experiment the scenario offers (`contract::scenario::
//! Experiment`) as a reader would by hand: its actions taken at their instants on the scenario's
//! own timeline, the clock put back a little before the first, playing. A link to a moment of it
//! names it (`try=N`, `share::Moment::experiment`): its actions may lie ahead of the moment.

use super::parts::{Part, Spot};
use super::share::Moment;
use super::{Lab, KUBERNETES};
use crate::contract::scenario::{Action, Experiment};

impl Lab {
    /// Sets up experiment `i` of the scenario shown; `false` when it has none of that index.
    pub(super) fn try_experiment(&mut self, i: usize) -> bool {
        let Some(e) = self.scenario.experiments.get(i) else { return false };
        let (start, source) = (e.start_ms(), self.source.clone());
        let moment =
            Moment { source, seed: None, time_ms: start, experiment: Some(i), actions: Vec::new() };
        let Ok((scenario, mut timeline)) = moment.restore() else { return false };
        timeline.record_wire();
        self.replace(Lab::with_timeline(scenario, moment.source, timeline));
        self.playback.playing = true;
        self.set_trying(Some(i));
        true
    }

    /// Marks experiment `i` as set up (a click, or a link naming it): the scrubber reaches as
    /// far as its actions were run.
    pub(super) fn set_trying(&mut self, i: Option<usize>) {
        self.trying = i;
        let last = self.trying().and_then(|(_, e)| e.actions().last().map(|(at, _)| *at));
        self.playback.horizon = self.playback.horizon.max(last.unwrap_or(0));
    }

    /// What the experiment set up is about ([`subjects`]): none when none is.
    pub(super) fn trying_subjects(&self) -> Vec<Spot> {
        self.trying().map_or_else(Vec::new, |(_, e)| subjects(e))
    }

    /// The experiment set up last (its index and itself), while the reader has not acted or
    /// opened anything since.
    pub(crate) fn trying(&self) -> Option<(usize, &crate::contract::scenario::Experiment)> {
        let i = self.trying?;
        Some((i, self.scenario.experiments.get(i)?))
    }
}

/// What experiment `e` is about, as a tour's spots: the apiservers it starts, stops, crashes or
/// isolates, and the part each other action changes (etcd for an outage, the `default/kubernetes`
/// Service or the other Services, the Pods, the ranges a corruption edits, the ServiceCIDRs).
/// Once it is set up, the page brings them into view.
fn subjects(e: &Experiment) -> Vec<Spot> {
    let kubernetes = |ns: &str, name: &str| ns == "default" && name == KUBERNETES;
    let mut out = Vec::new();
    for (_, a) in e.actions() {
        let spot = match &a {
            Action::StartApiserver(r) | Action::CrashApiserver(r) | Action::CrashHost(r) => {
                Spot::Apiserver(r.apiserver.clone())
            }
            Action::StopApiserver(s) => Spot::Apiserver(s.apiserver.clone()),
            // The client pods' region has no spot of its own: it is drawn under the stage.
            Action::SlowKubeProxy(_) => continue,
            Action::IsolateApiserver(i) => Spot::Apiserver(i.apiserver.clone()),
            Action::AddApiserver(_) => Spot::Part(Part::Apiservers),
            Action::EtcdOutage(_) => Spot::Part(Part::Etcd),
            Action::DeleteService(o) if kubernetes(&o.namespace, &o.name) => {
                Spot::Part(Part::KubernetesService)
            }
            Action::CreateService(c) if kubernetes(&c.service.namespace, &c.service.name) => {
                Spot::Part(Part::KubernetesService)
            }
            Action::CreateService(_) | Action::DeleteService(_) => Spot::Part(Part::Services),
            Action::CreatePod(_) | Action::DeletePod(_) | Action::SetPodReady(_) => {
                Spot::Part(Part::Pods)
            }
            Action::Corrupt(_) => Spot::Part(Part::Ranges),
            Action::CreateServiceCidr(_) | Action::DeleteServiceCidr(_) => {
                Spot::Part(Part::ServiceCidrs)
            }
        };
        if !out.contains(&spot) {
            out.push(spot);
        }
    }
    out
}
