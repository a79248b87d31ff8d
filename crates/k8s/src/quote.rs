//! User input echoed back in a message, quoted and cut short: a link or a URL parameter can be
//! thousands of characters long, and the message must stay one readable line.

/// The most characters of the input a message quotes.
pub const QUOTE_MAX_CHARS: usize = 60;

/// `s` quoted as Rust's `{:?}` does; past [`QUOTE_MAX_CHARS`], its start followed by `…`.
pub fn quote(s: &str) -> String {
    let mut chars = s.chars();
    let head: String = chars.by_ref().take(QUOTE_MAX_CHARS).collect();
    if chars.next().is_none() {
        format!("{head:?}")
    } else {
        format!("{head:?}…")
    }
}

/// A message from a parser that echoes its input (serde's `unknown variant `…``), cut after
/// `max` characters.
pub fn clip(message: &str, max: usize) -> String {
    match message.char_indices().nth(max) {
        Some((end, _)) => format!("{}…", &message[..end]),
        None => message.to_string(),
    }
}

/// `message` on one line: the line breaks a parser echoed from its input (serde's `unknown field
/// `…``, a name or key as given) written as escapes, so that every rejection is one line.
pub fn one_line(message: String) -> String {
    const BREAKS: [char; 5] = ['\n', '\r', '\u{85}', '\u{2028}', '\u{2029}'];
    if !message.contains(BREAKS) {
        return message;
    }
    message
        .chars()
        .map(|c| match c {
            '\n' => "\\n".to_string(),
            '\r' => "\\r".to_string(),
            c if BREAKS.contains(&c) => c.escape_unicode().to_string(),
            c => c.to_string(),
        })
        .collect()
}
