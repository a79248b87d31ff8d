//! The first view as HTML, rendered natively at build time by the very components the lab
//! renders in the browser (Yew's server renderer): the page shows it before any wasm arrives,
//! readable without JavaScript, and the app's first render replaces it (Yew empties its root).
//! One poster per page that opens without a reader's state: the untouched page (the story) and
//! each tour's first step, in each language. What only changes the lab's own element (the
//! theme, `controls=minimal`: a class) the page sets on the poster (static/poster.js).

use crate::lab::embed::PageOptions;
use crate::lang::Lang;

use super::{App, AppProps, STORY};

/// One poster: the options it stands for and the file name the pages look it up by.
pub struct Poster {
    pub options: PageOptions,
}

impl Poster {
    /// `<tour>.<lang>.html` in `posters/` (the untouched page is the story's).
    pub fn file(&self) -> String {
        let tour = self.options.tour.as_deref().unwrap_or(STORY);
        format!("{tour}.{}.html", self.options.lang.code())
    }

    /// The markup, inert and marked busy until the app replaces it. Its Play and Next
    /// (`data-poster-action`) say they are not ready yet; static/poster.js lets them take a
    /// click, which the app carries out when it arrives (src/ui/mount.rs).
    pub fn render(&self) -> String {
        let props = AppProps::from_options(self.options.clone(), None, Vec::new());
        let app = yew::LocalServerRenderer::<App>::with_props(props).hydratable(false).render();
        let html = without_ids(&with_actions(&futures::executor::block_on(app)));
        let loading = match self.options.lang {
            Lang::En => "Loading the lab…",
            Lang::Zh => "正在加载实验室…",
        };
        format!(
            "<div class=\"lab-poster\" data-poster=\"posters/{}\"><p class=\"lab-poster-status\" role=\"status\">\
             <span class=\"lab-spinner\" aria-hidden=\"true\"></span><span>{loading}</span></p>\
             <div class=\"lab-poster-view\" inert aria-busy=\"true\">{html}</div></div>",
            self.file()
        )
    }
}

/// The buttons a reader may press before the app arrives, by id, and the action each keeps.
const ACTIONS: [(&str, &str); 2] = [("play", "play"), ("tour-next", "next")];

/// `html` with its Play and Next marked as the poster's actions, not ready yet.
fn with_actions(html: &str) -> String {
    ACTIONS.iter().fold(html.to_string(), |html, (id, action)| {
        let at = format!(" id=\"{id}\"");
        html.replacen(
            &at,
            &format!("{at} data-poster-action=\"{action}\" aria-disabled=\"true\""),
            1,
        )
    })
}

/// The attributes that name an element by id, left out: the poster stands beside the app (in
/// the page until the app renders, in an embed until it replaces it), and an id is the app's.
const ID_ATTRIBUTES: [&str; 5] =
    [" id=\"", " for=\"", " aria-labelledby=\"", " aria-describedby=\"", " aria-controls=\""];

fn without_ids(html: &str) -> String {
    let mut out = String::with_capacity(html.len());
    let mut rest = html;
    while let Some((at, attr)) = ID_ATTRIBUTES.iter().filter_map(|a| Some((rest.find(a)?, a))).min()
    {
        out.push_str(&rest[..at]);
        // Yew escapes `"` inside values: the value ends at the next one.
        let value = &rest[at + attr.len()..];
        rest = value.find('"').map_or("", |end| &value[end + 1..]);
    }
    out.push_str(rest);
    out
}

/// Every poster the build writes: the story (the untouched page and `?tour=story`) and each
/// shipped tour, in English and Chinese.
pub fn posters() -> Vec<Poster> {
    let tours = std::iter::once(None)
        .chain(crate::lab::catalogue::tours().into_iter().map(|t| Some(t.name)));
    let tours: Vec<Option<String>> = tours.filter(|t| t.as_deref() != Some(STORY)).collect();
    let mut out = Vec::new();
    for tour in &tours {
        for lang in [Lang::En, Lang::Zh] {
            out.push(Poster {
                options: PageOptions { tour: tour.clone(), lang, ..Default::default() },
            });
        }
    }
    out
}
