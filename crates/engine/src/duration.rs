//! Go's duration syntax (`time.ParseDuration`): `"250ms"`, `"15s"`, `"3m"`, `"1h30m"`, `"1.5s"`,
//! read into virtual milliseconds, and printed back the way Go's `Duration.String` does.

use crate::quote::quote;

/// Parses a Go duration into whole milliseconds. Negative durations, and fractions of a
/// millisecond that do not add up to one, are refused: the simulation's clock ticks in ms.
pub fn parse_ms(s: &str) -> Result<u64, String> {
    let quoted = quote(s);
    let bad = || format!("invalid duration {quoted}");
    if s == "0" {
        return Ok(0);
    }
    if s.is_empty() || s.starts_with('-') {
        return Err(bad());
    }
    let s_body = s.strip_prefix('+').unwrap_or(s);
    let mut total_ns: u128 = 0;
    let mut rest = s_body;
    if rest.is_empty() {
        return Err(bad());
    }
    while !rest.is_empty() {
        let num_len = rest
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .ok_or_else(|| format!("missing unit in duration {quoted}"))?;
        let (num, tail) = rest.split_at(num_len);
        if num.is_empty() || num == "." || num.matches('.').count() > 1 {
            return Err(bad());
        }
        let unit_len = tail.find(|c: char| c.is_ascii_digit() || c == '.').unwrap_or(tail.len());
        let (unit, tail) = tail.split_at(unit_len);
        let unit_ns: u128 = match unit {
            "ns" => 1,
            "us" | "µs" | "μs" => 1_000,
            "ms" => 1_000_000,
            "s" => 1_000_000_000,
            "m" => 60_000_000_000,
            "h" => 3_600_000_000_000,
            "" => return Err(format!("missing unit in duration {quoted}")),
            _ => return Err(format!("unknown unit {} in duration {quoted}", quote(unit))),
        };
        let (int, frac) = num.split_once('.').unwrap_or((num, ""));
        let int: u128 = if int.is_empty() { 0 } else { int.parse().map_err(|_| bad())? };
        let mut ns = int.checked_mul(unit_ns).ok_or_else(bad)?;
        let mut scale = unit_ns;
        for d in frac.bytes() {
            scale /= 10;
            ns = ns.checked_add((d - b'0') as u128 * scale).ok_or_else(bad)?;
        }
        total_ns = total_ns.checked_add(ns).ok_or_else(bad)?;
        rest = tail;
    }
    if !total_ns.is_multiple_of(1_000_000) {
        return Err(format!("duration {quoted} is not a whole number of milliseconds"));
    }
    u64::try_from(total_ns / 1_000_000).map_err(|_| bad())
}

/// Prints milliseconds as Go prints a `time.Duration`: `"1h30m0s"`, `"15s"`, `"250ms"`, `"0s"`.
pub fn format_ms(ms: u64) -> String {
    if ms == 0 {
        return "0s".to_string();
    }
    if ms < 1000 {
        return format!("{ms}ms");
    }
    let (h, rem) = (ms / 3_600_000, ms % 3_600_000);
    let (m, rem) = (rem / 60_000, rem % 60_000);
    let secs = if rem % 1000 == 0 {
        format!("{}s", rem / 1000)
    } else {
        format!("{}.{:03}", rem / 1000, rem % 1000).trim_end_matches('0').to_string() + "s"
    };
    match (h, m) {
        (0, 0) => secs,
        (0, m) => format!("{m}m{secs}"),
        (h, m) => format!("{h}h{m}m{secs}"),
    }
}
