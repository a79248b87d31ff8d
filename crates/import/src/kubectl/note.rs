//! What an import ignored or guessed, told in the reader's language: the lab's own words in
//! English or Chinese, what they quote (a pasted line, a flag, a command, a range, a
//! distribution's name) verbatim in both.

use serde::{Deserialize, Serialize};

use crate::lang::Lang;

/// One thing the reader should know about an import.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "note", rename_all = "snake_case")]
pub enum Note {
    /// `lines` lines before the output were a shell prompt or command; `first` is the first,
    /// clipped to one short line.
    IgnoredLines {
        /// How many lines were ignored.
        lines: usize,
        /// The first of them, clipped.
        first: String,
    },
    /// `--service-cluster-ip-range` was guessed: one guess per range of the flag.
    RangeGuessed {
        /// One guess per range of the flag.
        guesses: Vec<RangeGuess>,
    },
    /// The input has no `kubernetes` Endpoints or EndpointSlices: one apiserver is assumed at
    /// `at` (`ip:port`).
    ApiserversGuessed {
        /// The assumed apiserver's `ip:port`.
        at: String,
    },
}

/// One range of a guessed flag, and why it was chosen.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RangeGuess {
    /// The range guessed (a CIDR).
    pub range: String,
    /// The distributions whose default it is; empty when it is none's.
    pub defaults_of: Vec<String>,
    /// The longest prefix a guess that is no default gives (/24, /112).
    pub floor: u32,
}

/// A piece of a note's text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Piece {
    /// The lab's own words, in the language asked for.
    Lab(String),
    /// What the note quotes, the same in every language: a value, a flag, a name.
    Code(String),
    /// A command or a pasted line, quoted: in plain text between backticks.
    Command(String),
}

impl Note {
    /// The note's pieces in `lang`.
    pub fn pieces(&self, lang: Lang) -> Vec<Piece> {
        use Piece::{Code, Command};
        let lab = |en: &str, zh: &str| Piece::Lab(lang.pick(en, zh).to_string());
        match self {
            Note::IgnoredLines { lines, first } => vec![
                Piece::Lab(match (lang, lines) {
                    (Lang::En, 1) => {
                        "ignored 1 line before the output (a shell prompt or command: ".into()
                    }
                    (Lang::En, n) => {
                        format!("ignored {n} lines before the output (a shell prompt or command: ")
                    }
                    (Lang::Zh, n) => format!("忽略了输出之前的 {n} 行（终端提示符或命令："),
                }),
                Command(first.clone()),
                lab(")", "）"),
            ],
            Note::RangeGuessed { guesses } => {
                let mut p = vec![
                    Code("service-cluster-ip-range".into()),
                    lab(" guessed: ", " 为推测值："),
                    Code(join(guesses)),
                    lab(" (", "（"),
                ];
                for (i, g) in guesses.iter().enumerate() {
                    if i > 0 {
                        p.push(lab("; ", "；"));
                    }
                    p.extend(guess(g, lang));
                }
                p.extend([
                    lab(
                        "); kubectl does not show the flag: give it with ",
                        "）；kubectl 不显示这个启动参数：请用 ",
                    ),
                    Code("--service-cluster-ip-range".into()),
                    lab(" (on the page: the range field)", " 给出（在本页面：范围输入框）"),
                ]);
                p
            }
            Note::ApiserversGuessed { at } => vec![
                Code("apiservers".into()),
                lab(" guessed: one at ", " 为推测值：一个，位于 "),
                Code(at.clone()),
                lab(" (the input has no ", "（输入中没有 "),
                Code("Endpoints default/kubernetes".into()),
                lab("); give them by adding what ", "）；要给出它们，请加上 "),
                Command("kubectl get endpoints kubernetes -o json".into()),
                lab(" prints", " 的输出"),
            ],
        }
    }

    /// The note as one line of text in `lang` (the CLI's is English).
    pub fn text(&self, lang: Lang) -> String {
        self.pieces(lang)
            .into_iter()
            .map(|p| match p {
                Piece::Lab(s) | Piece::Code(s) => s,
                Piece::Command(s) => format!("`{s}`"),
            })
            .collect()
    }
}

impl std::fmt::Display for Note {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text(Lang::En))
    }
}

/// The flag's value: its ranges, comma-separated.
fn join(guesses: &[RangeGuess]) -> String {
    let ranges: Vec<&str> = guesses.iter().map(|g| g.range.as_str()).collect();
    ranges.join(",")
}

/// Why one range was guessed.
fn guess(g: &RangeGuess, lang: Lang) -> Vec<Piece> {
    let lab = |en: &str, zh: &str| Piece::Lab(lang.pick(en, zh).to_string());
    let mut p = vec![Piece::Code(g.range.clone())];
    if g.defaults_of.is_empty() {
        p.extend([
            lab(
                " is no distribution's default: the smallest range of at least ",
                " 不是任何发行版的默认值：能容纳这些 ClusterIP、至少为 ",
            ),
            Piece::Code(format!("/{}", g.floor)),
            lab(" that holds the ClusterIPs", " 的最小范围"),
        ]);
        return p;
    }
    p.push(lab(" is ", " 是 "));
    for (i, who) in g.defaults_of.iter().enumerate() {
        if i > 0 {
            p.push(lab(" and ", " 和 "));
        }
        p.push(Piece::Code(who.clone()));
    }
    p.push(lab("'s default", " 的默认值"));
    p
}
