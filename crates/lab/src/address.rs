//! What the lab's own page's address says: what the lab shows, so that a reload opens it again.
//! The core says what the address is ([`Lab::address`], [`page_address`]); the UI writes it, on
//! the lab's own page only (an embed leaves its host page's address alone).
//!
//! An imported cluster is not written in the address (it may be megabytes, and it is the
//! reader's own cluster: it stays out of the history): the address names it (`#imported`), and
//! the page keeps its file in the tab's storage, read back as any input is ([`Lab::open`]).

use crate::share::Source;

use super::Lab;

/// The fragment that names the cluster imported in this tab (`#imported`).
pub const IMPORTED: &str = "imported";

/// The page's URL parameters that say how the lab is shown, not what it shows: a new address
/// keeps them.
const KEPT: &[&str] = &["theme", "controls", "panels"];

/// Whether `fragment` (with or without `#`) names the cluster imported in this tab.
pub fn names_import(fragment: &str) -> bool {
    fragment.trim().trim_start_matches('#') == IMPORTED
}

impl Lab {
    /// What the lab's own page's address should say now (relative to the page: a query and a
    /// fragment, see [`page_address`]): a tour at its step, a moment of a scenario, the imported
    /// cluster. None while a story moves on by itself: the address that opened it opens it again.
    pub(crate) fn address(&self) -> Option<String> {
        if self.tour_autoplay() {
            return None;
        }
        match (self.imported && self.guide().is_none(), &self.source) {
            (true, Source::Inline(_)) => Some(format!(
                "{}#{IMPORTED}",
                super::touring::lang_param(self.lang()).replacen('&', "?", 1)
            )),
            _ => Some(self.link_to_here()),
        }
    }
}

/// The address (relative to the page's path) of the page whose query is `query` once it shows
/// `here` (a view's [`address`](crate::View::address) or
/// [`link_to_here`](crate::View::link_to_here)): the page's parameters of how the lab is shown
/// (`theme`, `controls`, `panels`) stay, the ones of what it shows are `here`'s. Empty: the
/// page's path alone.
pub fn page_address(query: &str, here: &str) -> String {
    let (here_query, fragment) = match here.split_once('#') {
        Some((q, f)) => (q, Some(f)),
        None => (here, None),
    };
    let parts = |q: &'_ str| {
        q.trim_start_matches('?')
            .split('&')
            .filter(|p| !p.is_empty())
            .map(str::to_string)
            .collect::<Vec<_>>()
    };
    let kept = parts(query)
        .into_iter()
        .filter(|p| KEPT.contains(&p.split_once('=').map_or(p.as_str(), |(k, _)| k)));
    let all: Vec<String> = kept.chain(parts(here_query)).collect();
    let mut out = String::new();
    if !all.is_empty() {
        out = format!("?{}", all.join("&"));
    }
    if let Some(f) = fragment.filter(|f| !f.is_empty()) {
        out.push('#');
        out.push_str(f);
    }
    out
}
