//! What a page opens: a link's moment, else a tour (at a step), else a scenario, else the
//! default one, with notes, in the reader's language, on what could not be opened.

use crate::lang::Lang;
use crate::quote::quote;
use crate::share::{self, Moment, Source};

use super::{Lab, TourOrigin, DEFAULT_SCENARIO, STORY};

/// A trainer's tour file from outside the build (`tour-src`, `tour-file`): its text, or why it
/// could not be fetched; and its address, which links to its steps carry.
#[derive(Clone, Copy, Debug)]
pub struct TourFile<'a> {
    /// The file's text, or why it could not be fetched.
    pub text: Result<&'a str, &'a str>,
    /// Its address, if it has one (`tour-src`).
    pub src: Option<&'a str>,
}

/// What a page asks to open (validated settings plus a link's fragment).
#[derive(Clone, Copy, Debug, Default)]
pub struct Opening<'a> {
    /// A name of `scenarios/` to open.
    pub scenario: Option<&'a str>,
    /// A name of `tours/` to open; wins over `scenario`.
    pub tour: Option<&'a str>,
    /// Wins over `tour` and `scenario`; a file that cannot be read opens the story instead.
    pub tour_file: Option<TourFile<'a>>,
    /// The tour step to open at, from 1.
    pub step: Option<usize>,
    /// A moment's fragment; wins over the rest. `#imported` names the cluster imported in this
    /// tab: its file, kept by the page, is `imported`.
    pub link: Option<&'a str>,
    /// The scenario file of the cluster imported in this tab, as the page's storage gave it back:
    /// read as any input is (a file that does not parse is dropped, with one line saying so).
    pub imported: Option<&'a str>,
    /// The language of the lab, and of the notes on what could not be opened.
    pub lang: Lang,
    /// Start at once: a tour moves through its steps by itself, anything else plays.
    pub autoplay: bool,
}

impl Lab {
    /// The page's opening state. Its notice tells what could not be opened and what opened
    /// instead; these notes are returned as well. (The page's settings' problems are the UI's to
    /// list, one per line: `crate::ui`'s notice.)
    pub fn open(o: Opening) -> (Self, Vec<String>) {
        let (mut lab, notes) = Self::open_quietly(o);
        lab.lang = o.lang;
        lab.taking.tour_autoplay = o.autoplay && lab.taking.guide.is_some();
        // A story moves on by itself: no step of it plays on for the reader to watch.
        if lab.taking.tour_autoplay {
            lab.taking.stop_at = None;
        }
        lab.playback.playing =
            lab.taking.stop_at.is_some() || (o.autoplay && lab.taking.guide.is_none());
        lab.story_onward();
        lab.notice = (!notes.is_empty()).then(|| notes.join(" "));
        lab.observe_afresh();
        (lab, notes)
    }

    fn open_quietly(o: Opening) -> (Self, Vec<String>) {
        let Opening { scenario, tour, tour_file, step, link, imported, lang, .. } = o;
        let mut notes = Vec::new();
        let say = |en: String, zh: String| match lang {
            Lang::En => en,
            Lang::Zh => zh,
        };
        if link.is_some_and(super::names_import) {
            match Self::open_imported(imported, &say) {
                Ok(lab) => return (lab, notes),
                Err(note) => notes.push(note),
            }
        // An ordinary `#anchor` of the page is not a link to a moment, nor a broken one.
        } else if let Some(link) = link.map(str::trim).filter(|l| share::is_moment(l)) {
            match Moment::decode(link).and_then(|m| m.restore().map(|r| (m, r))) {
                Ok((m, (s, tl))) => {
                    let mut lab = Lab::with_timeline(s, m.source, tl);
                    lab.set_trying(m.experiment);
                    return (lab, notes);
                }
                Err(e) => notes.push(say(
                    format!("This link could not be opened ({e})."),
                    format!("无法打开这个链接（{e}）。"),
                )),
            }
        } else if let Some(file) = tour_file {
            match Self::open_tour_file(file, step, &say) {
                Ok((lab, mut more)) => {
                    notes.append(&mut more);
                    return (lab, notes);
                }
                // Never half a tour: the story, and the one line on what was wrong.
                Err(note) => match Self::open_tour(STORY, None, &say) {
                    Ok((lab, _)) => return (lab, vec![note]),
                    Err(_) => notes.push(note),
                },
            }
        } else if let Some(name) = tour {
            match Self::open_tour(name, step, &say) {
                Ok((lab, mut more)) => {
                    notes.append(&mut more);
                    return (lab, notes);
                }
                Err(note) => notes.push(note),
            }
        }
        let known = scenario.filter(|n| crate::catalogue::scenario(n).is_some());
        if let (Some(n), None) = (scenario, known) {
            notes.push(say(
                format!("There is no scenario {}.", quote(n)),
                format!("没有名为 {} 的场景。", quote(n)),
            ));
        }
        let name = known.unwrap_or(DEFAULT_SCENARIO);
        if !notes.is_empty() {
            notes.push(match known {
                Some(n) => say(format!("Showing the scenario {n:?}."), format!("显示场景 {n:?}。")),
                None => say("Showing the default scenario.".into(), "显示默认场景。".into()),
            });
        }
        let lab = Lab::new(
            crate::catalogue::scenario(name).expect("the default scenario parses"),
            Source::Builtin(name.to_string()),
        );
        (lab, notes)
    }

    /// The cluster imported in this tab, from the file the page kept (`Opening::imported`), or
    /// the one line on why it is not opened again.
    fn open_imported(
        kept: Option<&str>,
        say: &impl Fn(String, String) -> String,
    ) -> Result<Self, String> {
        let Some(text) = kept else {
            return Err(say(
                "The cluster imported in this tab is no longer kept here: import it again.".into(),
                "此标签页中导入的集群已不再保存：请重新导入。".into(),
            ));
        };
        match crate::contract::scenario::parse(text) {
            Ok(s) => {
                let mut lab = Lab::new(s, Source::Inline(text.to_string()));
                lab.imported = true;
                Ok(lab)
            }
            Err(e) => Err(say(
                format!("The cluster kept from your import could not be read ({}), so it was dropped: import it again.", crate::quote::clip(&e, 200)),
                format!("无法读取保存的导入集群（{}），已将其丢弃：请重新导入。", crate::quote::clip(&e, 200)),
            )),
        }
    }

    /// The tour `name` at `step` (from 1), with a note when that step cannot be shown; the note
    /// on why the tour cannot be opened at all otherwise.
    fn open_tour(
        name: &str,
        step: Option<usize>,
        say: &impl Fn(String, String) -> String,
    ) -> Result<(Self, Vec<String>), String> {
        let lab = match crate::catalogue::tour(name).map(|t| t.and_then(Lab::tour)) {
            Some(Ok(lab)) => lab,
            Some(Err(e)) => {
                return Err(say(
                    format!("The tour {name:?} could not be opened ({e})."),
                    format!("无法打开导览 {name:?}（{e}）。"),
                ))
            }
            None => {
                return Err(say(
                    format!("There is no tour {}.", quote(name)),
                    format!("没有名为 {} 的导览。", quote(name)),
                ))
            }
        };
        Ok(lab.at_step(step, say))
    }

    /// A trainer's tour file at `step`, as [`Lab::open_tour`]; the note on what was wrong with it.
    fn open_tour_file(
        file: TourFile,
        step: Option<usize>,
        say: &impl Fn(String, String) -> String,
    ) -> Result<(Self, Vec<String>), String> {
        let at = file.src.map_or_else(String::new, |s| format!(" {}", quote(s)));
        let opened = file.text.map_err(str::to_string).and_then(|text| {
            crate::tour::parse(text, crate::catalogue::scenario_text).and_then(Lab::tour)
        });
        match opened {
            Ok(mut lab) => {
                lab.taking.tour_origin =
                    file.src.map_or(TourOrigin::Inline, |s| TourOrigin::Fetched(s.to_string()));
                Ok(lab.at_step(step, say))
            }
            Err(e) => Err(say(
                format!("The tour file{at} could not be opened ({e}); showing the story."),
                format!("无法打开导览文件{at}（{e}）；显示故事。"),
            )),
        }
    }

    /// Replaces the lab with a trainer's tour file fetched since it opened (`Msg::OpenTourFile`).
    pub(super) fn open_tour_file_now(
        &mut self,
        text: Result<String, String>,
        src: Option<String>,
        step: Option<usize>,
    ) -> bool {
        let file = TourFile { text: text.as_deref().map_err(String::as_str), src: src.as_deref() };
        let (next, _) = Lab::open(Opening {
            tour_file: Some(file),
            step,
            lang: self.lang,
            ..Opening::default()
        });
        self.replace(next);
        true
    }

    /// The lab at tour step `step` (from 1), with a note when that step cannot be shown.
    fn at_step(
        mut self,
        step: Option<usize>,
        say: &impl Fn(String, String) -> String,
    ) -> (Self, Vec<String>) {
        let lab = &mut self;
        let name = lab.taking.guide.as_ref().map_or(String::new(), |g| g.tour.name.clone());
        let len = lab.taking.guide.as_ref().map_or(0, |g| g.tour.steps.len());
        let mut notes = Vec::new();
        match step {
            None | Some(1) => {}
            Some(n) if (1..=len).contains(&n) => {
                lab.tour_goto(n - 1, false);
                if let Some(e) = lab.taking.tour_error.take() {
                    notes.push(say(
                        format!("Step {n} could not be shown ({e})."),
                        format!("无法显示第 {n} 步（{e}）。"),
                    ));
                }
            }
            Some(n) => notes.push(say(
                format!("The tour {name:?} has {len} steps, not {n}; showing the first."),
                format!("导览 {name:?} 只有 {len} 步，没有第 {n} 步；显示第一步。"),
            )),
        }
        (self, notes)
    }
}
