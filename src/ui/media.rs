//! The page's media queries (`matchMedia`): the reader's system preferences. Their own module,
//! read by the bitmaps, the tour and the hooks alike, so that none imports another for them.

/// The system's dark colour scheme, also watched for changes (the bitmaps' theme).
pub(crate) const PREFERS_DARK: &str = "(prefers-color-scheme: dark)";

/// The page's list for `query`, to read or to watch (none outside a browser window).
pub(crate) fn query(query: &str) -> Option<web_sys::MediaQueryList> {
    crate::ui::browser::window().and_then(|w| w.match_media(query).ok().flatten())
}

fn matches(q: &str) -> bool {
    query(q).is_some_and(|m| m.matches())
}

/// Whether the system prefers a dark theme (`prefers-color-scheme: dark`), read now.
pub fn prefers_dark() -> bool {
    matches(PREFERS_DARK)
}

/// Whether the user asked for reduced motion.
pub fn prefers_reduced_motion() -> bool {
    matches("(prefers-reduced-motion: reduce)")
}
