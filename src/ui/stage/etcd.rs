//! etcd on the stage: its title, its revision and one row per key ([`super::rows`]). A row's
//! texts are laid out here and fitted to their room once drawn ([`super::fit`]): a key or a
//! count is never cut, in any language or font.

use yew::prelude::*;

use super::layout::{Layout, Rect};
use super::rows::{Row, RowId};
use super::{fit, pickable, StageProps};
use crate::lab::upstream::Subject;
use crate::lang::Lang;
use crate::ui::spots::Spots;

pub(super) fn etcd_box(
    p: &StageProps,
    spots: &Spots,
    l: &Layout,
    rows: &[Row],
    faded: &Callback<String>,
    lang: Lang,
) -> Html {
    let e = l.etcd;
    let st = &p.frame.state;
    let head = match (st.etcd.available, lang) {
        (true, Lang::En) => format!("revision {}", st.etcd.revision),
        (true, Lang::Zh) => format!("修订版本 {}", st.etcd.revision),
        (false, _) => lang.pick("outage: nobody can reach it", "中断：无人可以访问").to_string(),
    };
    let spot = spots.on_stage("etcd");
    let title_y = e.y + if l.portrait { 19.0 } else { 24.0 };
    html! {
        <g class={classes!("area", "etcd", (!st.etcd.available).then_some("down"), spot.class())}
            data-spot="etcd" data-tour-spot={spot.attr()}>
            <rect class="spot-frame" x={(e.x - 4.0).to_string()} y={(e.y - 4.0).to_string()}
                width={(e.w + 8.0).to_string()} height={(e.h + 8.0).to_string()} rx="14" />
            <rect class="body" x={e.x.to_string()} y={e.y.to_string()} width={e.w.to_string()} height={e.h.to_string()} rx="12" />
            <text class="area-title" x={(e.x + 12.0).to_string()} y={title_y.to_string()}>{ "etcd" }</text>
            <text class="sub" x={(e.right() - 12.0).to_string()} y={title_y.to_string()} text-anchor="end"
                data-fit={(e.w - 70.0).to_string()}>{ head }</text>
            { for rows.iter().zip(&l.rows).map(|(row, r)| key_row(p, spots, &with_addresses(row, p, spots, l), *r, l.two_line, faded)) }
        </g>
    }
}

/// `row`, or on one column (a phone), where the Service card and its address chips are a screen
/// below the rows, a highlighted Endpoints or EndpointSlice row with its addresses in place of
/// their count: the step that names an address shows it beside the rest it talks about. Only
/// with a line of its own for the value (`two_line`), where the addresses have the row's width.
fn with_addresses(row: &Row, p: &StageProps, spots: &Spots, l: &Layout) -> Row {
    if !l.one_column
        || !l.two_line
        || row.missing
        || spots.on_stage(row.id.spots()).class().is_none()
    {
        return row.clone();
    }
    let st = &p.frame.state;
    let addresses: Vec<String> = match row.id {
        RowId::Endpoints => st.kubernetes_addresses().cloned().collect(),
        RowId::Slice => st.kubernetes_slice().map_or_else(Vec::new, |s| {
            s.endpoints.iter().flat_map(|e| e.addresses.clone()).collect()
        }),
        _ => return row.clone(),
    };
    // Three addresses fill the row of a 390 px phone; more keep their count (the chips list them).
    if addresses.is_empty() || addresses.len() > 3 {
        return row.clone();
    }
    Row { detail: addresses.join(", "), ..row.clone() }
}

/// The font sizes of a row's key and value (stage.css: `text.key`, `text.detail`), and in a
/// small row (`.small`), for the first view's estimate of their widths.
const PX: (f64, f64) = (12.0, 12.0);
const SMALL_PX: (f64, f64) = (10.0, 9.0);

/// One key: its name on the left and what it holds on the right, or under it (`two_line`).
fn key_row(
    p: &StageProps,
    spots: &Spots,
    row: &Row,
    r: Rect,
    two_line: bool,
    faded: &Callback<String>,
) -> Html {
    let (onclick, onkeydown) = pickable(&p.on_pick, Subject::Key(row.key.clone()));
    // The name is the drawn text, whole: a speech user says what they see (WCAG 2.5.3).
    let label = format!("{} {}", row.key, row.detail);
    let onanimationend = row.fading.then(|| {
        let (faded, key) = (faded.clone(), row.key.clone());
        Callback::from(move |_: AnimationEvent| faded.emit(key.clone()))
    });
    let small = r.h < 20.0;
    let room = r.w - 16.0;
    let (key_y, detail_y) = if two_line {
        (r.y + 12.5, r.y + 24.5)
    } else {
        let y = r.mid_y() + if small { 3.5 } else { 4.0 };
        (y, y)
    };
    let spot = spots.on_stage(row.id.spots());
    // One line: the key and the value share the row's room, measured once drawn (`fit`).
    let shared = (!two_line).then(|| room.to_string());
    let own = two_line.then(|| room.to_string());
    let (key_px, detail_px) = if small { SMALL_PX } else { PX };
    let (key_len, detail_len) = if two_line {
        (
            fit::first_view_single(room, &row.key, key_px),
            fit::first_view_single(room, &row.detail, detail_px),
        )
    } else {
        fit::first_view_pair(room, (&row.key, key_px), (&row.detail, detail_px))
    };
    let key_adjust = key_len.is_some().then_some("spacingAndGlyphs");
    let detail_adjust = detail_len.is_some().then_some("spacingAndGlyphs");
    html! {
        <g class={classes!("row", row.missing.then_some("missing"), row.fading.then_some("fading"), spot.class())}
            data-spot={row.id.spots()} data-tour-spot={spot.attr()} data-key={row.key.clone()} tabindex={(!row.fading).then_some("0")} role="button"
            aria-label={label} data-fit-pair={shared} {onclick} {onkeydown} {onanimationend}>
            <rect class="frame" x={r.x.to_string()} y={r.y.to_string()} width={r.w.to_string()} height={r.h.to_string()} rx="5" />
            if let Some((left, total)) = row.ttl {
                <rect class="ttl-bar" x={r.x.to_string()} y={(r.bottom() - 3.0).to_string()}
                    width={(r.w * left as f64 / total.max(1) as f64).to_string()} height="3" />
            }
            <text class={classes!("key", small.then_some("small"))} x={(r.x + 8.0).to_string()} y={key_y.to_string()}
                data-fit={own.clone()} textLength={key_len} lengthAdjust={key_adjust}>{ &row.key }</text>
            { " " }
            <text class={classes!("detail", small.then_some("small"))} x={(r.right() - 8.0).to_string()} y={detail_y.to_string()}
                text-anchor="end" data-fit={own} textLength={detail_len} lengthAdjust={detail_adjust}>{ &row.detail }</text>
        </g>
    }
}
