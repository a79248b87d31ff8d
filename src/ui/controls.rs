//! Play/pause, speed, stepping and the timeline with its marks.

use std::rc::Rc;

use web_sys::HtmlInputElement;
use yew::prelude::*;

use crate::duration::format_ms;
use crate::lab::{Mark, MarkKind};
use crate::lab::{Msg, SPEED_MAX_EXP, SPEED_MIN_EXP};
use crate::lang::Lang;

#[derive(Properties, PartialEq)]
pub(crate) struct TimeControlsProps {
    pub(crate) now: u64,
    pub(crate) horizon: u64,
    pub(crate) playing: bool,
    pub(crate) speed_exp: f64,
    pub(crate) forked: bool,
    pub(crate) marks: Rc<Vec<Mark>>,
    pub(crate) lab: Callback<Msg>,
}

/// How the speed reads: "1×", "5×", "1/4×", with what it means for time.
pub(crate) fn speed_label(exp: f64, lang: Lang) -> String {
    let speed = 10f64.powf(exp);
    if (speed - 1.0).abs() < 0.05 {
        lang.pick("1× · real time", "1× · 实时").to_string()
    } else if speed > 1.0 {
        let x = (speed * 10.0).round() / 10.0;
        match lang {
            Lang::En => format!("{x}× · time compressed"),
            Lang::Zh => format!("{x}× · 时间加速"),
        }
    } else {
        let x = (1.0 / speed * 10.0).round() / 10.0;
        match lang {
            Lang::En => format!("1/{x}× · time stretched"),
            Lang::Zh => format!("1/{x}× · 时间放慢"),
        }
    }
}

fn mark_class(kind: MarkKind) -> Option<&'static str> {
    Some(match kind {
        MarkKind::Crash => "crash",
        MarkKind::Stop => "stop",
        MarkKind::Start => "start",
        MarkKind::LeaseExpiry => "expiry",
        MarkKind::RepairRun => "repair",
        MarkKind::EndpointsRewrite => "rewrite",
        MarkKind::Outage | MarkKind::Isolation => "fault",
        MarkKind::Action => "action",
        MarkKind::LeaseWrite => return None,
    })
}

/// What a mark on the timeline is, in words.
fn mark_name(kind: MarkKind, lang: Lang) -> &'static str {
    match kind {
        MarkKind::Crash => lang.pick("crash", "崩溃"),
        MarkKind::Stop => lang.pick("stop", "停止"),
        MarkKind::Start => lang.pick("start", "启动"),
        MarkKind::LeaseExpiry => lang.pick("lease expiry", "租约过期"),
        MarkKind::RepairRun => lang.pick("repair run", "修复运行"),
        MarkKind::EndpointsRewrite => lang.pick("endpoints rewrite", "Endpoints 重写"),
        MarkKind::Outage => lang.pick("etcd outage", "etcd 中断"),
        MarkKind::Isolation => lang.pick("isolation", "隔离"),
        MarkKind::Action => lang.pick("action", "操作"),
        MarkKind::LeaseWrite => lang.pick("lease write", "租约写入"),
    }
}

#[function_component(TimeControls)]
pub(crate) fn time_controls(p: &TimeControlsProps) -> Html {
    let ids = crate::ui::ids::use_ids();
    let lang = super::use_lang();
    let on = |msg: Msg| {
        let cb = p.lab.clone();
        Callback::from(move |_: MouseEvent| cb.emit(msg.clone()))
    };
    let on_speed = {
        let cb = p.lab.clone();
        Callback::from(move |e: InputEvent| {
            let v: f64 =
                e.target_unchecked_into::<HtmlInputElement>().value().parse().unwrap_or(0.0);
            cb.emit(Msg::SetSpeed(v));
        })
    };
    // The scrubber spans what has been reached, plus some room ahead.
    let span = (p.horizon.max(p.now) + 30_000).max(120_000);
    let on_scrub = {
        let cb = p.lab.clone();
        Callback::from(move |e: InputEvent| {
            let v: u64 = e.target_unchecked_into::<HtmlInputElement>().value().parse().unwrap_or(0);
            cb.emit(Msg::Seek(v));
        })
    };
    let pct = |t: u64| format!("{:.3}%", t as f64 * 100.0 / span as f64);
    let ticks: Vec<Html> = tick_places(&p.marks, span)
        .into_iter()
        .map(|(m, class, at, shift)| html! {
            // data-ms and data-kind: which mark this is, for whatever checks a step's narration.
            <span class={classes!("tick", class)} style={format!("left:calc({} + {shift}px)", pct(at))}
                data-ms={m.time_ms.to_string()} data-kind={class}
                title={format!("{} · {}{}", format_ms(m.time_ms), mark_name(m.kind, lang), if m.subject.is_empty() { String::new() } else { format!(" · {}", m.subject) })} />
        })
        .collect();
    let spot = crate::ui::spots::use_spot(crate::lab::parts::Part::Controls);
    html! {
        <div role="region" class={classes!("controls", spot.class())} data-tour-spot={spot.attr()} aria-label={lang.pick("Time controls", "时间控制")}>
            <div class="buttons">
                <button id={ids.id("play")} class="primary" data-hands-over="true" onclick={on(Msg::TogglePlay)} aria-keyshortcuts="Space"
                    aria-pressed={p.playing.to_string()}>
                    { if p.playing { lang.pick("❚❚ Pause", "❚❚ 暂停") } else { lang.pick("▶ Play", "▶ 播放") } }
                </button>
                <button id={ids.id("back")} class="step-back" onclick={on(Msg::StepBack)} aria-keyshortcuts="ArrowLeft" title={lang.pick("Back to the previous event (←)", "回到上一个事件 (←)")}>{ lang.pick("« Back", "« 后退") }</button>
                <button id={ids.id("step")} class="step-next" onclick={on(Msg::Step)} aria-keyshortcuts="ArrowRight" title={lang.pick("Step to the next event (→)", "前进到下一个事件 (→)")}>{ lang.pick("Next event »", "下一个事件 »") }</button>
                <span id={ids.id("clock")} class="clock" aria-live="off">{ format!("t = {}", format_ms(p.now)) }</span>
                if p.forked {
                    <span class="forked" title={lang.pick("You acted in the past: the later history was discarded", "你在过去的时刻做了操作：之后的历史已被丢弃")}>{ lang.pick("⑂ forked timeline", "⑂ 时间线已分叉") }</span>
                }
            </div>
            <div class="speed">
                <button onclick={on(Msg::Slower)} aria-keyshortcuts="[" title={lang.pick("Slower ([)", "放慢 ([)")}>{ "−" }</button>
                <label for={ids.id("speed")}>{ lang.pick("Speed", "速度") }</label>
                <input id={ids.id("speed")} type="range" min={SPEED_MIN_EXP.to_string()} max={SPEED_MAX_EXP.to_string()} step="0.05"
                    value={p.speed_exp.to_string()} oninput={on_speed} aria-valuetext={speed_label(p.speed_exp, lang)} />
                <button onclick={on(Msg::Faster)} aria-keyshortcuts="]" title={lang.pick("Faster (])", "加快 (])")}>{ "+" }</button>
                <span id={ids.id("speed-label")} class="speed-label">{ speed_label(p.speed_exp, lang) }</span>
            </div>
            <div class="timeline">
                <div class="ticks" aria-hidden="true">
                    // The reached span first: its tint lies under the marks, not over them.
                    <span class="horizon" style={format!("width:{}", pct(p.horizon))} />
                    { for ticks }
                </div>
                <input id={ids.id("scrubber")} type="range" min="0" max={span.to_string()} step="100" value={p.now.to_string()}
                    oninput={on_scrub} aria-label={lang.pick("Timeline", "时间线")} aria-valuetext={format_ms(p.now)} />
                <div class="legend-marks" aria-hidden="true">
                    <span class="tick crash" />{ mark_name(MarkKind::Crash, lang) }<span class="tick stop" />{ mark_name(MarkKind::Stop, lang) }
                    <span class="tick expiry" />{ mark_name(MarkKind::LeaseExpiry, lang) }<span class="tick repair" />{ mark_name(MarkKind::RepairRun, lang) }
                    <span class="tick rewrite" />{ mark_name(MarkKind::EndpointsRewrite, lang) }<span class="tick fault" />{ lang.pick("outage / isolation", "中断 / 隔离") }
                </div>
            </div>
        </div>
    }
}

/// Columns of the timeline within which ticks count as coincident (400 columns in all: about
/// 2 px each in a docs column).
const NEAR_COLUMNS: u64 = 2;

/// Where each mark's tick goes: its class, the time it is drawn at and a shift in px. One tick
/// per kind and column is enough (the DOM stays small on long runs); ticks of other kinds within
/// [`NEAR_COLUMNS`] of a group's first stand beside it, 4 px apart, never one under another
/// (a stop and the rewrite it causes at the same instant).
fn tick_places(marks: &[Mark], span: u64) -> Vec<(&Mark, &'static str, u64, u32)> {
    let mut sorted: Vec<&Mark> = marks.iter().collect();
    sorted.sort_by_key(|m| m.time_ms);
    let mut seen = std::collections::BTreeSet::new();
    let mut group: Option<(u64, u64, u32)> = None; // (first column, its time, ticks in it)
    let mut out = Vec::new();
    for m in sorted {
        let Some(class) = mark_class(m.kind) else { continue };
        let column = m.time_ms * 400 / span.max(1);
        if !seen.insert((column, class)) {
            continue;
        }
        let (first, at, n) = match group {
            Some((first, at, n)) if column - first <= NEAR_COLUMNS => (first, at, n),
            _ => (column, m.time_ms, 0),
        };
        out.push((m, class, at, n * 4));
        group = Some((first, at, n + 1));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mark(time_ms: u64, kind: MarkKind) -> Mark {
        Mark { time_ms, kind, subject: String::new() }
    }

    #[test]
    fn coincident_marks_stand_side_by_side() {
        let marks = [
            mark(70_000, MarkKind::EndpointsRewrite),
            mark(70_000, MarkKind::Stop),
            mark(10_000, MarkKind::Crash),
        ];
        let placed: Vec<(&str, u64, u32)> =
            tick_places(&marks, 120_000).into_iter().map(|(_, c, at, s)| (c, at, s)).collect();
        assert_eq!(placed.len(), 3);
        assert_eq!(placed[0], ("crash", 10_000, 0));
        // The stop and the rewrite at 1m10s: the same place, 4 px apart.
        assert_eq!((placed[1].1, placed[2].1), (70_000, 70_000));
        assert_eq!((placed[1].2, placed[2].2), (0, 4));
    }

    #[test]
    fn one_tick_per_kind_and_column() {
        let marks = [
            mark(1_000, MarkKind::RepairRun),
            mark(1_100, MarkKind::RepairRun),
            mark(60_000, MarkKind::RepairRun),
        ];
        assert_eq!(tick_places(&marks, 120_000).len(), 2);
    }
}
