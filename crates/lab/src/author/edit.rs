//! A tour file read back into a draft ("Edit this tour"): a shipped tour, a trainer's, or one
//! written here and opened from its link, to go on writing it. Each step keeps its narration,
//! highlights, play and question; its wait becomes the instant the tour shows it at, or its
//! predicate as written; each scenario it shows becomes a take.

use std::collections::BTreeMap;

use super::draft::{Draft, DraftAsk, DraftStep, StepWait, Take, Texts};
use crate::lang::{Lang, LocalizedText};
use crate::tour::{self, Tour, Wait};

/// A text of a file as the draft keeps it: one given for every reader is the English one
/// (a Chinese reader of a text without Chinese reads the English, as with the file).
fn texts(t: &LocalizedText) -> Texts {
    match t {
        LocalizedText::Plain(s) => Texts { en: s.clone(), zh: String::new() },
        LocalizedText::ByLanguage(m) => Texts {
            en: m.get(Lang::En.code()).cloned().unwrap_or_default(),
            zh: m.get(Lang::Zh.code()).cloned().unwrap_or_default(),
        },
    }
}

/// The draft of `t`, its steps at the instants the tour shows them at.
pub(super) fn draft(t: &Tour) -> Draft {
    let run = tour::run(t);
    let mut takes: BTreeMap<&str, usize> = BTreeMap::new();
    let mut draft = Draft { name: t.name.clone(), title: texts(&t.title), ..Draft::default() };
    for (i, s) in t.steps.iter().enumerate() {
        let take = *takes.entry(&s.scenario).or_insert_with(|| {
            draft.takes.push(Take::new(t.source(&s.scenario)));
            draft.takes.len() - 1
        });
        let wait = match &s.wait {
            Wait::Until(until) => {
                let json = until.to_string();
                StepWait::Until {
                    label: Texts {
                        en: format!("the file's condition {json}"),
                        zh: format!("文件中的条件 {json}"),
                    },
                    until: until.clone(),
                }
            }
            Wait::Now | Wait::At(_) => StepWait::Instant,
        };
        let ask = s.ask.as_ref().map(|a| DraftAsk {
            question: texts(&a.question),
            answers: a.answers.iter().map(texts).collect(),
            right: a.right,
            why: texts(&a.why),
        });
        draft.steps.push(DraftStep {
            take,
            at_ms: run.steps[i].at_ms.unwrap_or(0),
            wait,
            say: texts(&s.say),
            highlight: s.highlight.iter().map(ToString::to_string).collect(),
            play_ms: s.play,
            ask,
        });
    }
    draft
}
