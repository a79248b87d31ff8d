//! The author's edits of the draft's words and marks (`Authoring::Say`, `Title`, `Name`,
//! `Highlight`, `Play`, `Ask`, `Delete`, `Move`): each is checked, and a bad one leaves the draft
//! as it was and tells why in one line naming the field. What is played (the takes, the waits)
//! is edited by the author's actions in `super`.

use std::rc::Rc;

use super::{AskEdit, Authoring, DraftAsk, Texts};
use crate::lang::Lang;
use crate::parts::Spot;
use crate::tour;
use crate::Lab;

impl Lab {
    /// The edits of a step's or the tour's words and marks: each checked, the draft unchanged
    /// by a bad one (one line naming the field).
    pub(super) fn edit(&mut self, m: Authoring) -> bool {
        let lang = self.lang;
        let Some(w) = self.writer.as_mut().map(Rc::make_mut) else { return false };
        let n = w.draft.steps.len();
        let (step, replay) = match &m {
            Authoring::Say { step, .. }
            | Authoring::Highlight { step, .. }
            | Authoring::Ask { step, .. } => (Some(*step), false),
            Authoring::Play { step, .. } | Authoring::Delete(step) => (Some(*step), true),
            Authoring::Move { from, to } => (Some((*from).max(*to)), true),
            _ => (None, false),
        };
        if step.is_some_and(|s| s >= n) {
            return false;
        }
        let steps = &mut w.draft.steps;
        let result = match m {
            Authoring::Say { step, lang, text } => {
                steps[step].say.set(lang, text);
                Ok(())
            }
            Authoring::Title { lang, text } => {
                w.draft.title.set(lang, text);
                Ok(())
            }
            Authoring::Name(name) => {
                w.draft.name = name;
                Ok(())
            }
            Authoring::Highlight { step, spot, on } => {
                highlight(&mut steps[step].highlight, &spot, on, lang)
            }
            Authoring::Play { step, play } => play_of(&play).map(|p| steps[step].play_ms = p),
            Authoring::Ask { step, edit } => ask(&mut steps[step].ask, edit),
            Authoring::Delete(step) => {
                steps.remove(step);
                w.selected =
                    w.selected.filter(|s| *s != step).map(|s| if s > step { s - 1 } else { s });
                Ok(())
            }
            Authoring::Move { from, to } => {
                let s = steps.remove(from);
                steps.insert(to, s);
                w.selected = w.selected.map(|s| moved(s, from, to));
                Ok(())
            }
            _ => return false,
        };
        match result {
            Ok(()) => {
                w.check(replay);
                true
            }
            Err(e) => {
                self.notice = Some(e);
                true
            }
        }
    }
}

/// Where the step at `i` stands once the step at `from` moved to `to`.
fn moved(i: usize, from: usize, to: usize) -> usize {
    match i {
        i if i == from => to,
        i if from < i && i <= to => i - 1,
        i if to <= i && i < from => i + 1,
        i => i,
    }
}

/// A step's question edited; an answer that is not there, a fifth or a last-but-one removed,
/// changes nothing.
fn ask(a: &mut Option<DraftAsk>, edit: AskEdit) -> Result<(), String> {
    let range = crate::tour::ANSWERS;
    match (a.as_mut(), edit) {
        (_, AskEdit::On(on)) => *a = on.then(|| a.take().unwrap_or_default()),
        (Some(q), AskEdit::Question(lang, text)) => q.question.set(lang, text),
        (Some(q), AskEdit::Why(lang, text)) => q.why.set(lang, text),
        (Some(q), AskEdit::Answer(k, lang, text)) if k < q.answers.len() => {
            q.answers[k].set(lang, text)
        }
        (Some(q), AskEdit::AddAnswer) if q.answers.len() < *range.end() => {
            q.answers.push(Texts::default())
        }
        (Some(q), AskEdit::RemoveAnswer(k))
            if k < q.answers.len() && q.answers.len() > *range.start() =>
        {
            q.answers.remove(k);
            q.right = match q.right {
                r if r == k => 0,
                r if r > k => r - 1,
                r => r,
            };
        }
        (Some(q), AskEdit::Right(k)) if k < q.answers.len() => q.right = k,
        _ => {}
    }
    Ok(())
}

/// Points at `spot` or no longer; a name that is no part of the page is refused.
fn highlight(list: &mut Vec<String>, spot: &str, on: bool, lang: Lang) -> Result<(), String> {
    let spot: Spot =
        spot.parse().map_err(|e: String| format!("{}: {e}", lang.pick("highlight", "高亮")))?;
    let name = spot.to_string();
    list.retain(|s| *s != name);
    if on {
        list.push(name);
    }
    Ok(())
}

/// A step's `play` as typed: empty for none, else read as the tour file's is.
fn play_of(text: &str) -> Result<Option<u64>, String> {
    match text.trim() {
        "" => Ok(None),
        t => tour::play_time(t).map(Some).map_err(|e| format!("play: {e}")),
    }
}
