//! Kubernetes' validation of object names, worded as the apiserver words it: `ValidateObjectMeta`
//! (`staging/src/k8s.io/apimachinery/pkg/api/validation/objectmeta.go`) with the name rule of the
//! kind — a DNS-1035 label for a Service (`ValidateServiceName`; the relaxed rule of the
//! `RelaxedServiceNameValidation` gate is off by default through 1.35), a DNS-1123 subdomain for
//! a Pod or a ServiceCIDR — and the texts of `pkg/util/validation`.

/// The rule a kind's names follow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NameRule {
    /// `IsDNS1035Label`: Services.
    Dns1035Label,
    /// `IsDNS1123Subdomain`: Pods, ServiceCIDRs.
    Dns1123Subdomain,
}

const DNS1035_LABEL_MAX: usize = 63;
const DNS1123_SUBDOMAIN_MAX: usize = 253;

const DNS1035_LABEL_MSG: &str = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";
const DNS1123_SUBDOMAIN_MSG: &str = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

/// `[a-z0-9]([-a-z0-9]*[a-z0-9])?` when `digit_first`, else `[a-z]([-a-z0-9]*[a-z0-9])?`.
fn is_label(s: &str, digit_first: bool) -> bool {
    let b = s.as_bytes();
    let inner = |c: &u8| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == b'-';
    match (b.first(), b.last()) {
        (Some(f), Some(l)) => {
            (f.is_ascii_lowercase() || (digit_first && f.is_ascii_digit()))
                && (l.is_ascii_lowercase() || l.is_ascii_digit())
                && b.iter().all(inner)
        }
        _ => false,
    }
}

/// `s` quoted as Go's `%q` does (`strconv.Quote`), which Kubernetes' messages use: ASCII
/// controls as `\n`, `\t`… or `\x01`; other characters that print as themselves, the rest
/// (controls, spaces other than ' ') as `\u00a0`.
pub fn go_quote(s: &str) -> String {
    let mut out = String::from('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{7}' => out.push_str("\\a"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{b}' => out.push_str("\\v"),
            ' ' => out.push(' '),
            c if c.is_ascii_control() => out.push_str(&format!("\\x{:02x}", c as u32)),
            c if c.is_control() || c.is_whitespace() => match c as u32 {
                n @ 0..=0xffff => out.push_str(&format!("\\u{n:04x}")),
                n => out.push_str(&format!("\\U{n:08x}")),
            },
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Whether `name` follows `rule` (length and characters).
pub fn is_valid(name: &str, rule: NameRule) -> bool {
    field_errors(name, rule).is_empty()
}

/// The errors of field `metadata.name` for `name`, each as `field.Error` prints it; none when
/// it is valid. An empty name is the one `Required value`.
pub fn field_errors(name: &str, rule: NameRule) -> Vec<String> {
    if name.is_empty() {
        return vec!["metadata.name: Required value: name or generateName is required".into()];
    }
    let (max, ok, msg) = match rule {
        NameRule::Dns1035Label => (DNS1035_LABEL_MAX, is_label(name, false), DNS1035_LABEL_MSG),
        NameRule::Dns1123Subdomain => (
            DNS1123_SUBDOMAIN_MAX,
            name.split('.').all(|l| is_label(l, true)),
            DNS1123_SUBDOMAIN_MSG,
        ),
    };
    // Go's len: bytes.
    let too_long = (name.len() > max).then(|| format!("must be no more than {max} characters"));
    let details = too_long.into_iter().chain((!ok).then(|| msg.to_string()));
    details.map(|d| format!("metadata.name: Invalid value: {}: {d}", go_quote(name))).collect()
}

/// The apiserver's refusal of object `name` of `kind` (`Service`,
/// `ServiceCIDR.networking.k8s.io`) for `errors`, as `errors.NewInvalid` words it: one error as
/// it is, several in brackets (an aggregate).
pub fn invalid(kind: &str, name: &str, errors: &[String]) -> String {
    let all = match errors {
        [one] => one.clone(),
        many => format!("[{}]", many.join(", ")),
    };
    format!("{kind} {} is invalid: {all}", go_quote(name))
}

/// `Ok` when `name` follows `rule`, else the apiserver's refusal of it as a `kind`.
pub fn check(kind: &str, name: &str, rule: NameRule) -> Result<(), String> {
    let errors = field_errors(name, rule);
    match errors.is_empty() {
        true => Ok(()),
        false => Err(invalid(kind, name, &errors)),
    }
}
