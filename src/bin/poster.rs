//! Writes the lab's first views into a build (Trunk's post-build step, `scripts/poster.sh`):
//! `DIR/posters/*.html`, one per page that opens without a reader's state (and each as a script,
//! `*.js`, for the page's head), and the untouched
//! page's poster into `DIR/index.html`, in front of its loading box (which the page shows
//! instead when it is asked for something no poster shows).
//! Usage: poster DIR

use std::{env, fs, process::ExitCode};

use kube_bootstrap_lab::ui::poster::{posters, Poster};

const LOADING: &str = "<div class=\"lab-loading\" role=\"status\">";

fn run(dir: &str) -> Result<usize, String> {
    let all = posters();
    fs::create_dir_all(format!("{dir}/posters")).map_err(|e| format!("{dir}/posters: {e}"))?;
    for poster in &all {
        let (path, html) = (format!("{dir}/posters/{}", poster.file()), poster.render());
        fs::write(&path, &html).map_err(|e| format!("{path}: {e}"))?;
        let script = path.replace(".html", ".js");
        fs::write(&script, as_script(&poster.file(), &html))
            .map_err(|e| format!("{script}: {e}"))?;
    }
    let page = format!("{dir}/index.html");
    let html = fs::read_to_string(&page).map_err(|e| format!("{page}: {e}"))?;
    let untouched = Poster { options: Default::default() };
    let with = inline(&html, &untouched.render())
        .ok_or_else(|| format!("{page}: no `{LOADING}` to put the poster before"))?;
    fs::write(&page, with).map_err(|e| format!("{page}: {e}"))?;
    Ok(all.len())
}

/// The poster as a script the page's head loads when the page asks for another view than the
/// one it holds (static/page-poster.js): the page waits for it before its first paint.
fn as_script(file: &str, html: &str) -> String {
    let quote = |s: &str| serde_json::to_string(s).unwrap_or_default();
    format!(
        "globalThis.kubeBootstrapLabPoster?.arrive?.({}, {});\n",
        quote(&format!("posters/{file}")),
        quote(html)
    )
}

/// The page with `poster` before its loading box, which is hidden (the page preset shows it
/// again when no poster fits the page's parameters); a poster written by an earlier run over
/// the same build is replaced. `None` when the page has no loading box.
fn inline(html: &str, poster: &str) -> Option<String> {
    const FROM: &str = "<!-- poster -->";
    const TO: &str = "<!-- /poster -->";
    if let (Some(a), Some(b)) = (html.find(FROM), html.find(TO)) {
        return Some(format!("{}{FROM}{poster}{}", &html[..a], &html[b..]));
    }
    let at = html.find(LOADING)?;
    let hidden = LOADING.replace("role=\"status\">", "role=\"status\" hidden>");
    Some(format!("{}{FROM}{poster}{TO}\n    {hidden}{}", &html[..at], &html[at + LOADING.len()..]))
}

fn main() -> ExitCode {
    let Some(dir) = env::args().nth(1) else {
        eprintln!("usage: poster DIR");
        return ExitCode::from(2);
    };
    match run(&dir) {
        Ok(n) => {
            println!("poster: {n} first views in {dir}/posters, the untouched page's in {dir}/index.html");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("poster: {e}");
            ExitCode::FAILURE
        }
    }
}
