//! Play/pause, speed, stepping and the timeline with its marks.

use std::rc::Rc;

use web_sys::HtmlInputElement;
use yew::prelude::*;

use crate::duration::format_ms;
use crate::lab::{Msg, SPEED_MAX_EXP, SPEED_MIN_EXP};
use crate::lang::Lang;
use crate::world::{Mark, MarkKind};

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
            let v: f64 = e
                .target_unchecked_into::<HtmlInputElement>()
                .value()
                .parse()
                .unwrap_or(0.0);
            cb.emit(Msg::SetSpeed(v));
        })
    };
    // The scrubber spans what has been reached, plus some room ahead.
    let span = (p.horizon.max(p.now) + 30_000).max(120_000);
    let on_scrub = {
        let cb = p.lab.clone();
        Callback::from(move |e: InputEvent| {
            let v: u64 = e
                .target_unchecked_into::<HtmlInputElement>()
                .value()
                .parse()
                .unwrap_or(0);
            cb.emit(Msg::Seek(v));
        })
    };
    let pct = |t: u64| format!("{:.3}%", t as f64 * 100.0 / span as f64);
    // One tick per kind and pixel column is enough; keep the DOM small on long runs.
    let mut seen = std::collections::BTreeSet::new();
    let ticks: Vec<Html> = p
        .marks
        .iter()
        .filter_map(|m| {
            let class = mark_class(m.kind)?;
            let bucket = (m.time_ms * 400 / span, class);
            seen.insert(bucket).then(|| html! {
                <span class={classes!("tick", class)} style={format!("left:{}", pct(m.time_ms))}
                    title={format!("{} · {}{}", format_ms(m.time_ms), mark_name(m.kind, lang), if m.subject.is_empty() { String::new() } else { format!(" · {}", m.subject) })} />
            })
        })
        .collect();
    html! {
        <div role="region" class="controls" aria-label={lang.pick("Time controls", "时间控制")}>
            <div class="buttons">
                <button id={ids.id("play")} class="primary" onclick={on(Msg::TogglePlay)} aria-keyshortcuts="Space"
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
                    { for ticks }
                    <span class="horizon" style={format!("width:{}", pct(p.horizon))} />
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
