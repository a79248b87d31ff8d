//! Which of the stage's parts carry a tour step's spot. A spot can stand on an etcd row and on
//! a picture of the same thing (the Service card's groups, the allocation strip's bars). Side
//! by side, or with the card beside etcd (a docs column), both are in view and both are marked.
//! On a one-column stage (a phone) the card and the strip are a screen below the rows: there the
//! row alone carries the spot, so that what a step names fits one screen (the rows are
//! neighbours, under the apiservers), and the strip's bars carry "bitmaps" without a frame round
//! the whole strip and its buttons.

use super::rows::{Row, RowsOf};
use crate::lab::parts::Spot;
use crate::lang::Lang;
use crate::ui::Frame;

/// The tokens of the pictures the stage draws whatever the state (mod.rs, etcd.rs, service.rs,
/// strip.rs); the rows add theirs. The strip's bars carry no other token than the rows do
/// (a ClusterIP bar, an IPAddress bar, the NodePort bar each stand beside their row).
const PICTURES: &[&str] = &[
    "apiservers",
    "etcd",
    "kubernetes-service",
    "endpoints",
    "endpoint-slice",
    "services",
    "pods",
    "bitmaps",
    "corrupt",
    "events",
];

/// Whether the stage draws `spot` for `frame`, at any width: a one-column stage moves a token
/// from a picture to its row, it never drops one. Data, not the page: the App decides from it
/// where a step's spot is highlighted.
pub(crate) fn draws(frame: &Frame, spot: &Spot) -> bool {
    let token = match spot {
        Spot::Apiserver(name) => return frame.state.apiservers.iter().any(|a| &a.name == name),
        Spot::Part(p) => p.as_str(),
    };
    if PICTURES.contains(&token) {
        return true;
    }
    let rows = RowsOf {
        state: &frame.state,
        behavior: frame.behavior,
        reconciler: frame.reconciler,
        lease_ttl_ms: frame.lease_ttl_ms,
        // A fading lease only ever adds a row the leases have already.
        fading: &[],
        lang: Lang::En,
    }
    .rows();
    rows.iter().any(|r| r.id.spots().split(' ').any(|t| t == token))
}

pub(super) struct Places {
    one_column: bool,
    /// The tokens the drawn etcd rows carry (`RowId::spots`).
    on_rows: Vec<&'static str>,
}

impl Places {
    pub(super) fn new(one_column: bool, rows: &[Row]) -> Self {
        let on_rows = rows.iter().flat_map(|r| r.id.spots().split(' ')).collect();
        Places { one_column, on_rows }
    }

    /// The `data-spot` tokens of a picture: `tokens`, less those a row carries on one column.
    pub(super) fn picture(&self, tokens: &'static str) -> String {
        tokens
            .split(' ')
            .filter(|t| !self.one_column || !self.on_rows.contains(t))
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// The strip's own tokens: on one column, its bars carry "bitmaps" instead.
    pub(super) fn strip(&self) -> &'static str {
        if self.one_column {
            ""
        } else {
            "bitmaps"
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::rows::RowId;
    use super::*;

    fn row(id: RowId) -> Row {
        Row {
            id,
            key: String::new(),
            detail: String::new(),
            ttl: None,
            missing: false,
            fading: false,
        }
    }

    #[test]
    fn on_one_column_a_spot_with_a_row_is_the_rows_alone() {
        let rows =
            [row(RowId::Services), row(RowId::Range(crate::lab::RangeName::NodePorts.key()))];
        let phone = Places::new(true, &rows);
        assert_eq!(phone.picture("services pods"), "pods");
        assert_eq!(phone.picture("node-port bitmaps"), "bitmaps");
        assert_eq!(phone.picture("endpoints"), "endpoints", "no Endpoints row: the card keeps it");
        assert_eq!(phone.strip(), "");
        let wide = Places::new(false, &rows);
        assert_eq!(wide.picture("services pods"), "services pods");
        assert_eq!(wide.strip(), "bitmaps");
    }
}
