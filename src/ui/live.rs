//! Which of the lab's live regions speak. When a tour step opens with the verdict on the
//! reader's answer, the verdict is said first and alone: the others that change at that moment
//! (the narration, the event feed, the Endpoints, the stage's news) change silently on that step.

use yew::prelude::*;

/// Whether the instance's live regions other than the verdict keep quiet (a step opened with a
/// verdict).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Hush(pub(crate) bool);

/// The `aria-live` of a region that keeps quiet while a verdict is said: `polite`, else `off`.
#[hook]
pub(crate) fn use_politeness() -> &'static str {
    match use_context::<Hush>() {
        Some(Hush(true)) => "off",
        _ => "polite",
    }
}
