//! Play/pause, speed, stepping and the timeline with its marks.

use std::rc::Rc;

use web_sys::HtmlInputElement;
use yew::prelude::*;

use super::{SPEED_MAX_EXP, SPEED_MIN_EXP};
use crate::duration::format_ms;
use crate::world::{Mark, MarkKind};

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Control {
    TogglePlay,
    Step,
    Back,
    Seek(u64),
    Speed(f64),
    Faster,
    Slower,
}

#[derive(Properties, PartialEq)]
pub struct TimeControlsProps {
    pub now: u64,
    pub horizon: u64,
    pub playing: bool,
    pub speed_exp: f64,
    pub forked: bool,
    pub marks: Rc<Vec<Mark>>,
    pub on_control: Callback<Control>,
}

/// How the speed reads: "1×", "5×", "1/4×", with what it means for time.
pub fn speed_label(exp: f64) -> String {
    let speed = 10f64.powf(exp);
    if (speed - 1.0).abs() < 0.05 {
        "1× · real time".to_string()
    } else if speed > 1.0 {
        format!("{}× · time compressed", (speed * 10.0).round() / 10.0)
    } else {
        format!(
            "1/{}× · time stretched",
            (1.0 / speed * 10.0).round() / 10.0
        )
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

#[function_component(TimeControls)]
pub fn time_controls(p: &TimeControlsProps) -> Html {
    let on = |c: Control| {
        let cb = p.on_control.clone();
        Callback::from(move |_: MouseEvent| cb.emit(c))
    };
    let on_speed = {
        let cb = p.on_control.clone();
        Callback::from(move |e: InputEvent| {
            let v: f64 = e
                .target_unchecked_into::<HtmlInputElement>()
                .value()
                .parse()
                .unwrap_or(0.0);
            cb.emit(Control::Speed(v));
        })
    };
    // The scrubber spans what has been reached, plus some room ahead.
    let span = (p.horizon.max(p.now) + 30_000).max(120_000);
    let on_scrub = {
        let cb = p.on_control.clone();
        Callback::from(move |e: InputEvent| {
            let v: u64 = e
                .target_unchecked_into::<HtmlInputElement>()
                .value()
                .parse()
                .unwrap_or(0);
            cb.emit(Control::Seek(v));
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
                    title={format!("{} · {}{}", format_ms(m.time_ms), class, if m.subject.is_empty() { String::new() } else { format!(" · {}", m.subject) })} />
            })
        })
        .collect();
    html! {
        <section class="controls" aria-label="Time controls">
            <div class="buttons">
                <button id="play" class="primary" onclick={on(Control::TogglePlay)} aria-keyshortcuts="Space"
                    aria-pressed={p.playing.to_string()}>
                    { if p.playing { "❚❚ Pause" } else { "▶ Play" } }
                </button>
                <button id="back" onclick={on(Control::Back)} aria-keyshortcuts="ArrowLeft" title="Back to the previous event (←)">{ "« Back" }</button>
                <button id="step" onclick={on(Control::Step)} aria-keyshortcuts="ArrowRight" title="Step to the next event (→)">{ "Next event »" }</button>
                <span id="clock" class="clock" aria-live="off">{ format!("t = {}", format_ms(p.now)) }</span>
                if p.forked {
                    <span class="forked" title="You acted in the past: the later history was discarded">{ "⑂ forked timeline" }</span>
                }
            </div>
            <div class="speed">
                <button onclick={on(Control::Slower)} aria-keyshortcuts="[" title="Slower ([)">{ "−" }</button>
                <label for="speed">{ "Speed" }</label>
                <input id="speed" type="range" min={SPEED_MIN_EXP.to_string()} max={SPEED_MAX_EXP.to_string()} step="0.05"
                    value={p.speed_exp.to_string()} oninput={on_speed} aria-valuetext={speed_label(p.speed_exp)} />
                <button onclick={on(Control::Faster)} aria-keyshortcuts="]" title="Faster (])">{ "+" }</button>
                <span id="speed-label" class="speed-label">{ speed_label(p.speed_exp) }</span>
            </div>
            <div class="timeline">
                <div class="ticks" aria-hidden="true">
                    { for ticks }
                    <span class="horizon" style={format!("width:{}", pct(p.horizon))} />
                </div>
                <input id="scrubber" type="range" min="0" max={span.to_string()} step="100" value={p.now.to_string()}
                    oninput={on_scrub} aria-label="Timeline" aria-valuetext={format_ms(p.now)} />
                <div class="legend-marks" aria-hidden="true">
                    <span class="tick crash" />{ "crash" }<span class="tick stop" />{ "stop" }
                    <span class="tick expiry" />{ "lease expiry" }<span class="tick repair" />{ "repair run" }
                    <span class="tick rewrite" />{ "endpoints rewrite" }<span class="tick fault" />{ "outage / isolation" }
                </div>
            </div>
        </section>
    }
}
