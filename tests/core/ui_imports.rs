//! No import cycle between the UI's modules (issue 26: `ui/bitmap` used `hooks`, whose tour
//! highlight and autoplay used `tour` and `bitmap` again). Reads `src/ui/**/*.rs`: every `use`
//! and every path in the code (`super::media::prefers_reduced_motion()`) naming a UI module.
//!
//! A reference counts where the item is defined: a `pub use` re-export is followed to its
//! source, and is no dependency itself (a folder's `mod.rs` naming what its files offer). A
//! module may use its ancestors' own items: Rust nests it inside them. Any other reference is a
//! dependency between the two modules' branches under their nearest common folder (its files
//! and subfolders, and the folder's own `mod.rs`), and those must form no cycle.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// A module under `ui`, as its path segments (`[]` is `ui` itself).
type Module = Vec<String>;

struct Source {
    file: String,
    module: Module,
    /// `(re-export, path as written)` of each `use` path, its tree expanded.
    uses: Vec<(bool, Vec<String>)>,
    /// The paths of the code outside `use` statements.
    paths: Vec<Vec<String>>,
}

/// The code without comments and `#[cfg(test)]` modules (rustfmt ends those with a `}` alone).
fn strip(text: &str) -> String {
    let mut out = String::new();
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        let t = line.trim_start();
        if t.starts_with("#[cfg(test)]") {
            let next = lines.next().unwrap_or_default();
            if next.trim_start().starts_with("mod ") && next.trim_end().ends_with('{') {
                let indent = &next[..next.len() - next.trim_start().len()];
                let close = format!("{indent}}}");
                lines.by_ref().find(|l| l.trim_end() == close);
                continue;
            }
            out.push_str(&strip_comment(next));
            out.push('\n');
            continue;
        }
        out.push_str(&strip_comment(line));
        out.push('\n');
    }
    out
}

/// A line without its `//` comment: one opening the line or after a space (`https://` in a
/// string stays).
fn strip_comment(line: &str) -> String {
    let mut from = 0;
    while let Some(i) = line[from..].find("//").map(|i| i + from) {
        if i == 0 || line[..i].ends_with(char::is_whitespace) {
            return line[..i].to_string();
        }
        from = i + 2;
    }
    line.to_string()
}

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// Every path `a::b::c` in `code` (two segments or more).
fn paths_in(code: &str) -> Vec<Vec<String>> {
    let chars: Vec<char> = code.chars().collect();
    let (mut out, mut i) = (vec![], 0);
    while i < chars.len() {
        if !is_ident(chars[i]) || (i > 0 && (is_ident(chars[i - 1]) || chars[i - 1] == ':')) {
            i += 1;
            continue;
        }
        let mut segs = vec![];
        loop {
            let start = i;
            while i < chars.len() && is_ident(chars[i]) {
                i += 1;
            }
            segs.push(chars[start..i].iter().collect::<String>());
            let more = chars.get(i) == Some(&':')
                && chars.get(i + 1) == Some(&':')
                && chars.get(i + 2).is_some_and(|&c| is_ident(c));
            if !more {
                break;
            }
            i += 2;
        }
        if segs.len() > 1 {
            out.push(segs);
        }
    }
    out
}

/// The paths of a `use` tree (`a::{b, c::d}`), as written.
fn expand(tree: &str) -> Vec<Vec<String>> {
    let tree: String = tree.chars().filter(|c| !c.is_whitespace()).collect();
    let Some(open) = tree.find('{') else {
        return vec![tree.split("::").filter(|s| !s.is_empty()).map(String::from).collect()];
    };
    let prefix: Vec<String> =
        tree[..open].split("::").filter(|s| !s.is_empty()).map(String::from).collect();
    let inner = &tree[open + 1..tree.rfind('}').expect("a use tree closes its brace")];
    let (mut parts, mut depth, mut start) = (vec![], 0, 0);
    for (i, c) in inner.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&inner[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&inner[start..]);
    let mut out = vec![];
    for part in parts.into_iter().filter(|p| !p.is_empty()) {
        for rest in expand(part) {
            let mut p = prefix.clone();
            p.extend(rest.into_iter().filter(|s| s != "self"));
            out.push(p);
        }
    }
    out
}

fn parse(file: &str, module: Module, text: &str) -> Source {
    let code = strip(text);
    let (mut uses, mut rest) = (vec![], String::new());
    let mut lines = code.lines();
    // rustfmt starts every `use` statement on a line of its own.
    while let Some(line) = lines.next() {
        let t = line.trim_start();
        let public = t.starts_with("pub ") || t.starts_with("pub(");
        let after_pub = if public { t.split_once(' ').map_or("", |(_, r)| r) } else { t };
        let Some(tree) = after_pub.strip_prefix("use ") else {
            rest.push_str(line);
            rest.push('\n');
            continue;
        };
        let mut statement = tree.to_string();
        while !statement.contains(';') {
            statement.push_str(lines.next().expect("a use statement ends"));
        }
        let statement = statement.split(';').next().unwrap_or_default();
        // `a as b`: the path is `a` (the alias is not followed).
        let tree: String = statement
            .split(" as ")
            .enumerate()
            .map(|(i, s)| if i == 0 { s } else { s.trim_start_matches(is_ident) })
            .collect();
        for path in expand(&tree) {
            let ui = path.iter().any(|s| s == "ui" || s == "super" || s == "self");
            assert!(
                path.last().map(String::as_str) != Some("*") || !ui,
                "{file}: a glob import of a UI module ({}): name what is used",
                path.join("::")
            );
            uses.push((public, path));
        }
    }
    Source { file: file.to_string(), module, uses, paths: paths_in(&rest) }
}

struct Tree {
    sources: Vec<Source>,
    modules: BTreeSet<Module>,
    /// Per module, each re-exported name and the module path it names, as written.
    reexports: BTreeMap<Module, BTreeMap<String, Vec<String>>>,
}

impl Tree {
    fn new(sources: Vec<Source>) -> Self {
        let modules = sources.iter().map(|s| s.module.clone()).collect();
        let mut reexports: BTreeMap<Module, BTreeMap<String, Vec<String>>> = BTreeMap::new();
        for s in &sources {
            for (_, path) in s.uses.iter().filter(|(public, _)| *public) {
                let name = path.last().cloned().unwrap_or_default();
                reexports.entry(s.module.clone()).or_default().insert(name, path.clone());
            }
        }
        Tree { sources, modules, reexports }
    }

    /// The UI module a path written in `from` names, through re-exports; `None` outside the UI.
    fn target(&self, from: &Module, path: &[String], depth: usize) -> Option<Module> {
        assert!(depth < 16, "re-exports that name each other: {}", path.join("::"));
        let mut at: Module = match path.first().map(String::as_str) {
            Some("crate") if path.get(1).map(String::as_str) == Some("ui") => {
                return self.within(vec![], &path[2..], depth)
            }
            Some("crate") => return None,
            Some("self") => from.clone(),
            Some("super") => {
                let ups = path.iter().take_while(|s| *s == "super").count();
                from[..from.len().checked_sub(ups)?].to_vec()
            }
            Some(first) => {
                // A child module of `from`, or a name `from` imported.
                let mut child = from.clone();
                child.push(first.to_string());
                if self.modules.contains(&child) {
                    return self.within(child, &path[1..], depth);
                }
                let imported = self
                    .source(from)
                    .uses
                    .iter()
                    .find(|(_, u)| u.last().map(String::as_str) == Some(first))?;
                let mut full = imported.1.clone();
                full.extend_from_slice(&path[1..]);
                return self.target(from, &full, depth + 1);
            }
            None => return None,
        };
        let skip = path.iter().take_while(|s| *s == "super" || *s == "self").count();
        let rest = &path[skip..];
        at = self.within(at, rest, depth)?;
        Some(at)
    }

    /// Walks `rest` down from module `at`: into its child modules, or to where a name it
    /// re-exports is defined.
    fn within(&self, mut at: Module, rest: &[String], depth: usize) -> Option<Module> {
        for (i, seg) in rest.iter().enumerate() {
            let mut child = at.clone();
            child.push(seg.clone());
            if self.modules.contains(&child) {
                at = child;
                continue;
            }
            if let Some(path) = self.reexports.get(&at).and_then(|r| r.get(seg)) {
                let mut full = path.clone();
                full.extend_from_slice(&rest[i + 1..]);
                return self.target(&at, &full, depth + 1);
            }
            break;
        }
        Some(at)
    }

    fn source(&self, module: &Module) -> &Source {
        self.sources.iter().find(|s| &s.module == module).expect("a known module")
    }

    /// The dependencies between branches: `(folder, from branch, to branch)` → one reference
    /// that makes it. A branch is a child of the folder, or `""`: the folder's own file.
    fn edges(&self) -> BTreeMap<(Module, String, String), String> {
        let mut edges = BTreeMap::new();
        for s in &self.sources {
            let written =
                s.uses.iter().filter(|(public, _)| !public).map(|(_, p)| p).chain(&s.paths);
            for path in written {
                let Some(to) = self.target(&s.module, path, 0) else {
                    continue;
                };
                if s.module.starts_with(&to) {
                    continue; // itself, or an ancestor's own item
                }
                let common = s.module.iter().zip(&to).take_while(|(a, b)| a == b).count();
                let from_branch = s.module.get(common).cloned().unwrap_or_default();
                let key = (s.module[..common].to_vec(), from_branch, to[common].clone());
                edges.entry(key).or_insert_with(|| format!("{} uses {}", s.file, path.join("::")));
            }
        }
        edges
    }
}

/// The cycles among the branches of each folder, each as its references.
fn cycles(tree: &Tree) -> Vec<Vec<String>> {
    let edges = tree.edges();
    let mut found = vec![];
    let folders: BTreeSet<&Module> = edges.keys().map(|(f, _, _)| f).collect();
    for folder in folders {
        let next = |b: &str| -> Vec<&String> {
            edges.keys().filter(|(f, a, _)| f == folder && a == b).map(|(_, _, to)| to).collect()
        };
        let branches: BTreeSet<&String> =
            edges.keys().filter(|(f, _, _)| f == folder).map(|(_, a, _)| a).collect();
        for start in branches {
            // Depth-first from `start`, for a way back to it.
            let mut stack = vec![(start.clone(), vec![start.clone()])];
            let mut seen = BTreeSet::new();
            while let Some((at, trail)) = stack.pop() {
                for to in next(&at) {
                    if to == start {
                        let mut refs = vec![];
                        for pair in
                            trail.windows(2).chain(std::iter::once(&[at.clone(), to.clone()][..]))
                        {
                            refs.push(
                                edges[&(folder.clone(), pair[0].clone(), pair[1].clone())].clone(),
                            );
                        }
                        found.push(refs);
                    } else if seen.insert(to.clone()) {
                        let mut t = trail.clone();
                        t.push(to.clone());
                        stack.push((to.clone(), t));
                    }
                }
            }
        }
    }
    found
}

fn read_ui(dir: &Path, module: Module, out: &mut Vec<Source>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    entries.sort();
    for path in entries {
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        let mut m = module.clone();
        if path.is_dir() {
            m.push(name);
            read_ui(&path, m, out);
            continue;
        }
        if path.extension().is_some_and(|e| e == "rs") {
            if name != "mod" {
                m.push(name);
            }
            let text = std::fs::read_to_string(&path).unwrap();
            let file = path.strip_prefix(env!("CARGO_MANIFEST_DIR")).unwrap_or(&path);
            out.push(parse(&file.display().to_string(), m, &text));
        }
    }
}

#[test]
fn ui_modules_import_no_cycle() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/ui");
    let mut sources = vec![];
    read_ui(&root, vec![], &mut sources);
    assert!(sources.len() > 40, "read src/ui: {} files", sources.len());
    let tree = Tree::new(sources);
    // The check sees what it is for: the bitmaps' sweep runs on the hooks' frame loop.
    let edges = tree.edges();
    let sweep = (vec![], "bitmap".to_string(), "hooks".to_string());
    assert!(
        edges.contains_key(&sweep),
        "bitmap → hooks not seen: {:?}",
        edges.keys().collect::<Vec<_>>()
    );
    let found = cycles(&tree);
    assert!(
        found.is_empty(),
        "import cycles between UI modules:\n{}",
        found.iter().map(|c| c.join("\n  → ")).collect::<Vec<_>>().join("\n\n")
    );
}

/// The cycle the check was written for (issue 26), in miniature: it is found, through a
/// re-export, a path in the code and a `super::` import; a child using its parent is not one.
#[test]
fn finds_the_bitmap_hooks_cycle() {
    let file = |path: &str, module: &[&str], text: &str| {
        parse(path, module.iter().map(|s| s.to_string()).collect(), text)
    };
    let sources = vec![
        file("ui/mod.rs", &[], "pub mod bitmap;\nmod hooks;\nmod tour;\nfn app() { hooks::use_lab(); }\n"),
        file("ui/bitmap/mod.rs", &["bitmap"], "mod sweep;\nmod theme;\npub use theme::prefers_reduced_motion;\n"),
        file("ui/bitmap/sweep.rs", &["bitmap", "sweep"], "use crate::ui::hooks::FrameLoop; // the frames\n"),
        file("ui/bitmap/theme.rs", &["bitmap", "theme"], "use super::super::use_lab;\n"),
        file("ui/hooks.rs", &["hooks"], "fn f() { super::tour::highlight(); }\n#[cfg(test)]\nmod tests {\n    use crate::ui::bitmap::x;\n}\n"),
        file("ui/tour.rs", &["tour"], "fn g() {\n    let m = !super::bitmap::prefers_reduced_motion();\n}\n"),
    ];
    let found = cycles(&Tree::new(sources));
    assert!(!found.is_empty());
    let joined = found.concat().join("\n");
    assert!(joined.contains("ui/bitmap/sweep.rs uses crate::ui::hooks::FrameLoop"), "{joined}");
    assert!(joined.contains("ui/tour.rs uses super::bitmap::prefers_reduced_motion"), "{joined}");
    assert!(!joined.contains("tests"), "{joined}");

    let fixed = vec![
        file("ui/mod.rs", &[], "mod bitmap;\nmod hooks;\nmod media;\n"),
        file(
            "ui/bitmap/sweep.rs",
            &["bitmap", "sweep"],
            "use crate::ui::hooks::FrameLoop;\nuse crate::ui::media::reduced;\n",
        ),
        file("ui/bitmap/mod.rs", &["bitmap"], "mod sweep;\nfn h() { super::use_lang(); }\n"),
        file("ui/hooks.rs", &["hooks"], "use super::media::reduced;\n"),
        file("ui/media.rs", &["media"], ""),
    ];
    assert!(cycles(&Tree::new(fixed)).is_empty());
}
