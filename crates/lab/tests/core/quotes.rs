//! Every time a shipped tour's step or a thing to try quotes ("At 32s", "18s after the crash",
//! "10.558 s") is held to its run, in English and Chinese: an instant at which something
//! happens there (an event, a mark, a step of its file, a client window's edge, an instant the
//! reader was shown), a span between two instants shown or quoted (a quote with a fraction may
//! run to any instant of the run), what is left of a period begun at one of them, or a period
//! of the model (the lease's TTL, the reconcile interval, a client window). The few that are
//! none of these are named below with why. Tour 11's figures have their own, stricter test
//! (`clients::tour_11_…`).

use std::collections::BTreeSet;

use engine::contract::scenario::Scenario;
use engine::sim::world::World;
use lab::catalogue;
use lab::Lang;

/// Quotes that are not figures of a run: (tour, step from 1, quote, why).
const NOT_RUN_FIGURES: &[(&str, usize, &str, &str)] = &[
    ("etcd-outage", 7, "30s", "a duration the reader is invited to try"),
    ("ipaddress-objects", 6, "20s", "an initial object's age at time 0, written in the scenario"),
    ("clients-apiserver-failure", 3, "0.889s", "held by clients::tour_11_quotes_its_runs_figures"),
];

/// Quotes of things to try that are not figures of their runs: (scenario, experiment from 0,
/// quote, why).
const NOT_RUN_FIGURES_TRY: &[(&str, usize, &str, &str)] = &[
    (
        "clients-crash-one-of-three",
        5,
        "56s",
        "report-job's poll (every 2 s from 20 s), not an event",
    ),
    (
        "crash-one-of-three",
        2,
        "92s",
        "the isolation's end (the action at 62 s is for 30 s), not an event",
    ),
];

/// What the quotes of a text about `w`'s run (of `s`, at its end) may be held to; `shown`:
/// the instants the reader was shown in it.
fn held(s: &Scenario, w: &World, shown: Vec<u64>) -> Held {
    let mut at: BTreeSet<u64> = w.events().iter().map(|e| e.time_ms).collect();
    at.extend(w.marks().iter().map(|m| m.time_ms));
    at.extend(s.steps.iter().map(|st| engine::duration::parse_ms(&st.at).unwrap()));
    let windows = w.client_figures(s.until_ms).map(|f| f.windows).unwrap_or_default();
    at.extend(windows.iter().flat_map(|x| [Some(x.from_ms), x.until_ms]).flatten());
    let c = w.config();
    let mut periods: Vec<u64> = windows.iter().map(|x| x.duration_ms).collect();
    periods.extend([
        c.endpoint_interval_ms,
        c.lease_ttl_ms,
        c.repair_interval_ms,
        k8s::controlplane::DEFAULT_SERVICE_CIDR_INTERVAL_MS,
        k8s::repair::repairip::ORPHAN_GRACE_MS,
        k8s::servicecidrs::DELETION_GRACE_MS,
        k8s::controlplane::SHUTDOWN_TIMEOUT_MS,
    ]);
    Held { at, periods, shown }
}

/// The times a text quotes, as (the quote, its value in ms, half its last digit's step in ms).
fn quoted(text: &str) -> Vec<(String, u64, u64)> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let fresh = i == 0 || !(bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'.');
        if !(bytes[i].is_ascii_digit() && fresh) {
            i += 1;
            continue;
        }
        let start = i;
        while i < bytes.len() && (bytes[i].is_ascii_digit() || bytes[i] == b'.') {
            i += 1;
        }
        let number = text[start..i].trim_end_matches('.');
        let rest = text[start + number.len()..].trim_start_matches(' ');
        let unit_ends = rest.strip_prefix('s').map(|r| r.chars().next());
        // "32s", "10.558 s", not "3m", "10.96.0.1", "k8s" nor "5 seconds".
        let unit = unit_ends.is_some_and(|n| n.is_none_or(|c| !c.is_ascii_alphanumeric()));
        if let (true, Ok(value)) = (unit, number.parse::<f64>()) {
            let places = number.split_once('.').map_or(0, |(_, f)| f.len() as u32);
            let ms = (value * 1000.0).round() as u64;
            // A whole second is quoted exactly ("At 32s"); a decimal is rounded ("10.6 s").
            let half = if places == 0 { 0 } else { 10u64.pow(3 - places.min(3)) / 2 };
            out.push((format!("{number}s"), ms, half));
        }
    }
    out
}

/// What a step's quote may be held to: its scenario's run, and the instants the tour showed
/// in that scenario up to this step.
struct Held {
    at: BTreeSet<u64>,
    periods: Vec<u64>,
    shown: Vec<u64>,
}

impl Held {
    /// Whether `ms` (± `half`) is an instant, a span, what is left of a period or a period,
    /// beside the other values its text quotes.
    fn holds(&self, ms: u64, half: u64, values: &[u64]) -> bool {
        let near = |t: u64| t.abs_diff(ms) <= half;
        let instant = self.at.iter().chain(&self.shown).any(|t| near(*t));
        // A span's ends: what the tour showed or the text quotes; a figure quoted with a
        // fraction ("0.889 s") may also run to any instant of the run.
        let ends: Vec<u64> =
            values.iter().chain(&self.shown).copied().filter(|v| *v != ms).collect();
        let from: Vec<u64> = match half > 0 {
            true => ends.iter().chain(&self.at).copied().collect(),
            false => ends.clone(),
        };
        let span = from.iter().any(|t| ends.iter().any(|v| near(t.abs_diff(*v))));
        // What is left of a period begun at one of them ("13s left" of a lease).
        let left = ends
            .iter()
            .any(|t| self.periods.iter().any(|p| ends.iter().any(|v| near((t + p).abs_diff(*v)))));
        instant || span || left || self.periods.iter().any(|p| near(*p))
    }
}

/// What the quotes of many texts came to.
#[derive(Default)]
struct Tally {
    checked: usize,
    /// Quotes that would have been caught one higher in their last digit.
    caught: usize,
    missing: Vec<String>,
}

impl Tally {
    /// Holds the quotes of `text` (`whose` names it) to `held`, but those `named`.
    fn check(&mut self, whose: &str, text: &str, held: &Held, named: impl Fn(&str) -> bool) {
        let quotes = quoted(text);
        let values: Vec<u64> = quotes.iter().map(|q| q.1).collect();
        for (quote, ms, half) in &quotes {
            if !(named(quote) || held.holds(*ms, *half, &values)) {
                self.missing.push(format!(
                    "{whose} quotes {quote}: no instant, span or period of its run: {text}"
                ));
            }
            let one = (*half * 2).max(1_000);
            self.caught += usize::from(!held.holds(ms + one, *half, &values));
            self.checked += 1;
        }
    }

    /// Every quote held, and the check sharp enough: a whole second may be any event's instant
    /// (syncs come every few seconds), so not every wrong figure is caught, but a third is.
    fn assert(&self, at_least: usize) {
        assert!(self.missing.is_empty(), "{}", self.missing.join("\n"));
        assert!(self.checked >= at_least, "only {} quotes found", self.checked);
        let (caught, checked) = (self.caught, self.checked);
        assert!(caught * 3 >= checked, "only {caught} of {checked} one higher caught");
    }
}

/// 301 quotes on 2026-12-08, 136 of them caught one higher.
#[test]
fn every_time_a_tour_quotes_is_held_to_its_run() {
    let mut tally = Tally::default();
    for tour in catalogue::tours() {
        let run = lab::tour::run(&tour);
        for (i, step) in tour.steps.iter().enumerate() {
            let s = tour.scenario(&step.scenario).unwrap();
            let shown: Vec<u64> = (0..=i)
                .filter(|j| tour.steps[*j].scenario == step.scenario)
                .filter_map(|j| run.steps[j].at_ms)
                .collect();
            let mut w = World::new(&s);
            w.run_until(s.until_ms);
            let held = held(&s, &w, shown);
            let named = |quote: &str| {
                let n = NOT_RUN_FIGURES.iter();
                n.clone().any(|(t, k, q, _)| *t == tour.name && *k == i + 1 && *q == quote)
            };
            for lang in [Lang::En, Lang::Zh] {
                let whose = format!("{} step {} ({lang:?})", tour.name, i + 1);
                tally.check(&whose, step.say.get(lang), &held, named);
            }
        }
    }
    tally.assert(250);
}

/// The same of every shipped scenario's things to try (280 quotes on 2026-12-08, 115 of them
/// caught one higher), each run as the page sets it up (its actions a reader's, at their
/// instants), the instants shown being its actions' and expects'.
#[test]
fn every_time_a_thing_to_try_quotes_is_held_to_its_run() {
    let mut tally = Tally::default();
    for name in catalogue::scenario_names() {
        let s = catalogue::scenario(name).unwrap();
        for (i, e) in s.experiments.iter().enumerate() {
            let mut shown: Vec<u64> = e.actions().iter().map(|(at, _)| *at).collect();
            shown.extend(e.expects().map(|(at, _)| at));
            // Its run, played as far as its checks go, beside the scenario's own run, which a
            // text may compare it with ("3 s instead of 10.6 s").
            let end = shown.iter().copied().fold(s.until_ms, u64::max);
            let timeline = crate::experiments::set_up(name, e, end);
            let mut held = held(&s, timeline.world(), shown);
            let mut plain = World::new(&s);
            plain.run_until(s.until_ms);
            let plain = self::held(&s, &plain, Vec::new());
            held.at.extend(plain.at);
            held.periods.extend(plain.periods);
            let named = |quote: &str| {
                let n = NOT_RUN_FIGURES_TRY.iter();
                n.clone().any(|(t, k, q, _)| *t == name && *k == i && *q == quote)
            };
            for lang in [Lang::En, Lang::Zh] {
                let whose = format!("{name} experiments[{i}] ({lang:?})");
                tally.check(&whose, e.watch.get(lang), &held, named);
            }
        }
    }
    tally.assert(100);
}

#[test]
fn quotes_are_read_as_a_reader_reads_them() {
    let q = |t: &str| quoted(t).into_iter().map(|(s, ms, _)| (s, ms)).collect::<Vec<_>>();
    assert_eq!(
        q("At 32s b crashes; 10.558 s later, 3m on"),
        [("32s".into(), 32_000), ("10.558s".into(), 10_558)]
    );
    assert_eq!(q("10.96.0.1 and 192.168.10.12 of ipallocator.k8s.io answer in 5 seconds"), []);
    assert_eq!(
        q("在 45s（30s + 15s TTL）"),
        [("45s".into(), 45_000), ("30s".into(), 30_000), ("15s".into(), 15_000)]
    );
}
