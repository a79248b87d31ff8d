//! Which elements of one instance of the lab carry a tour step's highlight. The App decides,
//! from what this instance draws, where each spot of the step stands ([`Place`]) and provides
//! the answer as a context ([`Spots`]); each component marks its own elements in its render
//! (`tour-spot` and `data-tour-spot`), so a re-render never loses or misplaces a mark.

use std::rc::Rc;

use yew::prelude::*;

use crate::lab::parts::{Part, Spot};

/// Where a spot of the step is highlighted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Place {
    /// On the stage's picture of it: what the narration names is then on one screen.
    Stage,
    /// On its own element outside the stage's pictures (a panel, the controls, the stage whole).
    Own,
}

/// What this instance draws, for deciding where a spot stands (all of it data: props and the
/// lab's state, never the page).
pub(crate) struct View<'a> {
    /// The stage is drawn as a stage (shown by `panels=`, not as a table).
    pub(crate) stage: bool,
    /// The stage draws this spot (`stage::draws`).
    pub(crate) on_stage: &'a dyn Fn(&Spot) -> bool,
    /// `panels=` shows this panel.
    pub(crate) shows: &'a dyn Fn(Part) -> bool,
    pub(crate) behavior: crate::k8s::api::Behavior,
    /// The names of the apiservers the panel has a card for.
    pub(crate) apiservers: &'a [String],
    /// The bitmaps panel draws a ClusterIP bitmap.
    pub(crate) cluster_ip_bitmap: bool,
    /// `?controls=minimal`: its CSS hides the corruption form and button, and the import panel.
    pub(crate) minimal: bool,
    /// The client pods are drawn under the stage (a scenario with clients, the stage as a stage).
    pub(crate) clients: bool,
}

impl View<'_> {
    /// Where `spot` is highlighted in this instance: on the stage when the stage draws it, else
    /// on its own element when that is drawn; nowhere when neither is.
    pub(crate) fn place(&self, spot: &Spot) -> Option<Place> {
        if self.stage && (self.on_stage)(spot) {
            return Some(Place::Stage);
        }
        self.draws_own(spot).then_some(Place::Own)
    }

    fn draws_own(&self, spot: &Spot) -> bool {
        let part = match spot {
            Spot::Apiserver(name) => {
                return (self.shows)(Part::Apiservers) && self.apiservers.contains(name)
            }
            Spot::Part(p) => *p,
        };
        match part {
            Part::Controls => true,
            Part::Stage => self.stage,
            Part::ClusterIp => (self.shows)(Part::Bitmaps) && self.cluster_ip_bitmap,
            Part::IpAddresses => (self.shows)(Part::Bitmaps) && self.behavior.ip_addresses(),
            Part::ServiceCidrs => (self.shows)(Part::ServiceCidrs) && self.behavior.ip_addresses(),
            Part::Clients => self.clients,
            _ => (self.shows)(panel_of(part)),
        }
    }

    /// The CSS hides every element that draws `spot` (`?controls=minimal` hides the corruption
    /// form and button, and the import panel): no "Look at" points at it.
    fn hidden(&self, spot: &Spot) -> bool {
        self.minimal && matches!(spot, Spot::Part(Part::Corrupt | Part::Import))
    }
}

/// The panel whose element draws `part` outside the stage.
fn panel_of(part: Part) -> Part {
    match part {
        Part::Leases | Part::Ranges => Part::Etcd,
        Part::Endpoints | Part::EndpointSlice => Part::KubernetesService,
        Part::ClusterIp | Part::NodePort | Part::IpAddresses | Part::Corrupt => Part::Bitmaps,
        p => p,
    }
}

/// The current step's spots as this instance highlights them (empty outside a tour).
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Spots {
    /// The `data-spot` tokens the stage marks.
    stage: Rc<Vec<String>>,
    /// The spots marked on their own element.
    own: Rc<Vec<Spot>>,
    /// The spots a "Look at" button is offered for, in the step's order.
    offered: Rc<Vec<Spot>>,
}

impl Spots {
    pub(crate) fn new(step: &[Spot], view: &View) -> Spots {
        // Each spot's place once: the stage's rows are worked out for it.
        let placed: Vec<(&Spot, Option<Place>)> = step.iter().map(|s| (s, view.place(s))).collect();
        let at = |place| placed.iter().filter(move |(_, p)| *p == Some(place)).map(|(s, _)| *s);
        Spots {
            stage: Rc::new(at(Place::Stage).map(ToString::to_string).collect()),
            own: Rc::new(at(Place::Own).cloned().collect()),
            offered: Rc::new(
                placed
                    .iter()
                    .filter(|(s, p)| p.is_some() && !view.hidden(s))
                    .map(|(s, _)| (*s).clone())
                    .collect(),
            ),
        }
    }

    /// The step's spot that a stage element with `data-spot` tokens `tokens` stands for, if any.
    pub(crate) fn on_stage(&self, tokens: &str) -> Mark {
        let found = self.stage.iter().find(|s| tokens.split(' ').any(|t| t == s.as_str()));
        Mark(found.map(|s| AttrValue::from(s.clone())))
    }

    /// The mark of the element that draws `spot` outside the stage's pictures.
    pub(crate) fn own(&self, spot: &Spot) -> Mark {
        Mark(self.own.contains(spot).then(|| AttrValue::from(spot.to_string())))
    }

    pub(crate) fn offered(&self) -> &[Spot] {
        &self.offered
    }
}

/// An element's highlight: its `tour-spot` class and its `data-tour-spot` (the spot's name,
/// which "Look at" and the reveal read).
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Mark(Option<AttrValue>);

impl Mark {
    pub(crate) fn class(&self) -> Option<&'static str> {
        self.0.is_some().then_some("tour-spot")
    }

    pub(crate) fn attr(&self) -> Option<AttrValue> {
        self.0.clone()
    }
}

/// This instance's highlights (none outside a provider: a component drawn alone marks nothing).
#[hook]
pub(crate) fn use_spots() -> Spots {
    use_context::<Spots>().unwrap_or_default()
}

/// The mark of the element that draws `part` outside the stage's pictures.
#[hook]
pub(crate) fn use_spot(part: Part) -> Mark {
    use_spots().own(&Spot::Part(part))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::k8s::api::Behavior;

    fn spots(stage: bool, panels: &[Part], minimal: bool, step: &[&str]) -> Spots {
        let step: Vec<Spot> = step.iter().map(|s| s.parse().unwrap()).collect();
        let names = ["apiserver-a".to_string()];
        let view = View {
            stage,
            // A stage that draws the leases and etcd, not the controls.
            on_stage: &|s| matches!(s, Spot::Part(Part::Leases | Part::Etcd | Part::Corrupt)),
            shows: &|p| panels.contains(&p),
            behavior: Behavior::default(),
            apiservers: &names,
            cluster_ip_bitmap: false,
            minimal,
            clients: false,
        };
        Spots::new(&step, &view)
    }

    #[test]
    fn a_spot_stands_on_the_stage_when_it_draws_it_else_on_its_own_element_else_nowhere() {
        let s = spots(
            true,
            &[Part::Etcd],
            false,
            &["leases", "controls", "apiserver:apiserver-a", "cluster-ip"],
        );
        assert!(s.on_stage("ranges leases").attr().is_some_and(|a| a == "leases"));
        assert_eq!(
            s.own(&Spot::Part(Part::Leases)),
            Mark::default(),
            "drawn on the stage: not in the panel too"
        );
        assert_eq!(s.own(&Spot::Part(Part::Controls)).class(), Some("tour-spot"));
        let looks: Vec<String> = s.offered().iter().map(ToString::to_string).collect();
        assert_eq!(
            looks,
            ["leases", "controls"],
            "no apiservers panel, no bitmaps: not drawn, not offered"
        );
        // The same step with the stage seen as a table: the etcd panel carries the leases.
        let table = spots(false, &[Part::Etcd], false, &["leases"]);
        assert_eq!(table.own(&Spot::Part(Part::Leases)).attr().as_deref(), Some("leases"));
        assert_eq!(table.on_stage("leases"), Mark::default());
    }

    #[test]
    fn minimal_offers_nothing_its_css_hides() {
        let s = spots(true, &[Part::Bitmaps, Part::Import], true, &["corrupt", "import", "etcd"]);
        let looks: Vec<String> = s.offered().iter().map(ToString::to_string).collect();
        assert_eq!(looks, ["etcd"]);
        assert!(s.on_stage("corrupt").class().is_some(), "marked where it is drawn, hidden or not");
    }
}
