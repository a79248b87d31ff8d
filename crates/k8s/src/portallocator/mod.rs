//! NodePort ranges, after `pkg/registry/core/service/portallocator/allocator.go` and
//! `k8s.io/apimachinery/pkg/util/net/port_range.go`.

use std::fmt;

use crate::allocator::{self, Allocator, ItemRange};

/// `utilnet.PortRange`: `size` ports from `base`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PortRange {
    /// `Base`: the first port.
    pub base: i32,
    /// `Size`: the number of ports (0: the empty range).
    pub size: i32,
}

impl PortRange {
    /// `30000-32767`, the default `--service-node-port-range`.
    pub const DEFAULT: PortRange = PortRange { base: 30000, size: 2768 };

    /// `Contains`: `port` is in the range.
    pub fn contains(&self, port: i32) -> bool {
        port >= self.base && port - self.base < self.size
    }

    /// Parses `a-b`, `a` and `a+n` (meaning `a` to `a+n`), with apimachinery's error texts (on
    /// one line: a line break they echo is escaped). An empty string is the empty range.
    pub fn parse(value: &str) -> Result<PortRange, String> {
        Self::parse_range(value).map_err(crate::quote::one_line)
    }

    fn parse_range(value: &str) -> Result<PortRange, String> {
        let value = value.trim();
        if value.is_empty() {
            return Ok(PortRange { base: 0, size: 0 });
        }
        let (low, high) = match (value.find('-'), value.find('+')) {
            (None, None) => {
                let port = go_atoi(value)?;
                (port, port)
            }
            (Some(h), None) => (go_atoi(&value[..h])?, go_atoi(&value[h + 1..])?),
            (None, Some(p)) => {
                let low = go_atoi(&value[..p])?;
                (low, low.saturating_add(go_atoi(&value[p + 1..])?))
            }
            (Some(_), Some(_)) => return Err(format!("unable to parse port range: {value}")),
        };
        if low > 65535 || high > 65535 {
            return Err(format!("the port range cannot be greater than 65535: {value}"));
        }
        if high < low {
            return Err(format!("end port cannot be less than start port: {value}"));
        }
        // `low` cannot be negative: a sign before it would be a second hyphen or a plus.
        Ok(PortRange { base: low as i32, size: (1 + high - low) as i32 })
    }
}

/// `strconv.Atoi`: an optional sign and decimal digits, with Go's error texts.
fn go_atoi(s: &str) -> Result<i64, String> {
    let digits = s.strip_prefix(['+', '-']).unwrap_or(s);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("strconv.Atoi: parsing {s:?}: invalid syntax"));
    }
    s.parse::<i64>().map_err(|_| format!("strconv.Atoi: parsing {s:?}: value out of range"))
}

impl fmt::Display for PortRange {
    /// `a-b`, or the empty string for an empty range.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.size == 0 {
            return Ok(());
        }
        write!(f, "{}-{}", self.base, self.base + self.size - 1)
    }
}

/// `PortAllocator`: a port range over a bitmap; offset `i` is port `base + i`.
pub type PortAllocator = Allocator<PortRange>;

/// The errors of `portallocator/allocator.go`.
pub type Error = allocator::Error<PortRange>;

impl ItemRange for PortRange {
    type Item = i32;
    const ALLOCATED: &'static str = "provided port is already allocated";
    const MISMATCHED: &'static str =
        "the provided port range does not match the current port range";

    fn parse(spec: &str) -> Result<Self, String> {
        PortRange::parse(spec)
    }

    fn usable(&self) -> usize {
        self.size.max(0) as usize
    }

    /// `min(max(16, size/32), 128)`, 0 for at most 16 ports.
    fn static_band_size(&self) -> usize {
        const MIN: i32 = 16;
        const MAX: i32 = 128;
        const STEP: i32 = 32;
        if self.size <= MIN {
            0
        } else {
            (self.size / STEP).clamp(MIN, MAX) as usize
        }
    }

    fn offset_of(&self, port: i32) -> Option<usize> {
        self.contains(port).then(|| (port - self.base) as usize)
    }

    fn item_at(&self, offset: usize) -> i32 {
        self.base + offset as i32
    }

    fn not_in_range(_port: i32, valid: &str, _legacy: bool) -> String {
        format!("provided port is not in the valid range. The range of valid ports is {valid}")
    }

    /// Upstream logs this and returns no error.
    fn release_outside(port: i32) -> Option<String> {
        Some(format!("port is not in the range when release it. port: {port}"))
    }
}
