//! The two languages of the lab: English and Chinese (the seed articles' language). Labels,
//! narration and explanations are translated; Kubernetes' reasons and messages stay verbatim.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// A language the lab speaks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Lang {
    /// English (the default).
    #[default]
    En,
    /// Chinese.
    Zh,
}

impl Lang {
    /// Every language, English first.
    pub const ALL: [Lang; 2] = [Lang::En, Lang::Zh];

    /// The BCP 47 code, as in `?lang=` and `<html lang>`.
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Zh => "zh",
        }
    }

    /// The language of a BCP 47 code (`en`, `zh`), if the lab speaks it.
    pub fn parse(code: &str) -> Option<Lang> {
        match code {
            "en" => Some(Lang::En),
            "zh" => Some(Lang::Zh),
            _ => None,
        }
    }

    /// Picks this language's text of a pair written side by side at the place it is shown.
    pub fn pick<'a>(self, en: &'a str, zh: &'a str) -> &'a str {
        match self {
            Lang::En => en,
            Lang::Zh => zh,
        }
    }
}

/// A text written by the lab's authors (a scenario's `title` or `description`, a tour's `title`
/// and `say`): one string for every language, or an object of language code → text.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum LocalizedText {
    /// One text for every language.
    Plain(String),
    /// A text per language code.
    ByLanguage(BTreeMap<String, String>),
}

impl LocalizedText {
    /// The text in `lang`, else the English one, else any.
    pub fn get(&self, lang: Lang) -> &str {
        match self {
            LocalizedText::Plain(t) => t,
            LocalizedText::ByLanguage(m) => m
                .get(lang.code())
                .or_else(|| m.get("en"))
                .or_else(|| m.values().next())
                .map_or("", String::as_str),
        }
    }
}
