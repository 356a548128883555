//! The value syntaxes of the config file: durations, sizes, rates, limit keys and addresses, both
//! parsed from the text a user writes and formatted back for `weir check`. Each parser returns
//! `Err(message)` with what would have been valid, so the caller only adds the file position and key.

use std::net::SocketAddr;
use std::time::Duration;

use http::HeaderName;
use ipnet::IpNet;

use super::{KeyPart, Rate};

/// What a duration looks like, for messages.
pub(crate) const DURATION_EXPECTED: &str =
    "a duration such as \"65s\", \"500ms\", \"2m\" or \"1h\" (a bare integer means seconds)";

/// What a size looks like, for messages.
pub(crate) const SIZE_EXPECTED: &str =
    "a size such as \"20MiB\", \"512KiB\", \"8k\" or \"1MB\" (a bare integer means bytes)";

/// Parses `"65s"`, `"500ms"`, `"2m"`, `"1h"`, `"1d"`, or several of them in a row (`"1m30s"`,
/// `"1h 30m"`, as nginx allows). A string of digits alone means seconds, as in nginx.
pub fn parse_duration(text: &str) -> Result<Duration, String> {
    let invalid = || format!("expected {DURATION_EXPECTED}, found {text:?}");
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return Err(invalid());
    }
    if trimmed.bytes().all(|byte| byte.is_ascii_digit()) {
        let seconds: u64 = trimmed.parse().map_err(|_| invalid())?;
        return Ok(Duration::from_secs(seconds));
    }
    let mut total = Duration::ZERO;
    let mut rest = trimmed;
    while !rest.is_empty() {
        let digits_end = rest
            .find(|character: char| !character.is_ascii_digit())
            .unwrap_or(rest.len());
        if digits_end == 0 {
            return Err(invalid());
        }
        let number: u64 = rest[..digits_end].parse().map_err(|_| invalid())?;
        rest = &rest[digits_end..];
        let unit_end = rest
            .find(|character: char| !character.is_ascii_alphabetic())
            .unwrap_or(rest.len());
        let part = match &rest[..unit_end] {
            "ms" => Some(Duration::from_millis(number)),
            "s" => Some(Duration::from_secs(number)),
            "m" => number.checked_mul(60).map(Duration::from_secs),
            "h" => number.checked_mul(3600).map(Duration::from_secs),
            "d" => number.checked_mul(86400).map(Duration::from_secs),
            _ => return Err(invalid()),
        };
        total = part
            .and_then(|part| total.checked_add(part))
            .ok_or_else(|| format!("duration {text:?} is too large"))?;
        rest = rest[unit_end..].trim_start();
    }
    Ok(total)
}

/// Formats a duration as a person would write it: `500ms`, `65s`, `120s`, `10m`, `1h`. Minutes only
/// from ten on, since `120s` reads more plainly than `2m` next to nginx's `keepalive_timeout 120`.
pub fn format_duration(duration: Duration) -> String {
    let millis = duration.as_millis();
    if millis == 0 {
        return "0s".to_string();
    }
    if millis % 1000 != 0 {
        // Milliseconds past u64::MAX would not parse back; seconds and the rest do.
        if u64::try_from(millis).is_err() {
            return format!("{}s {}ms", millis / 1000, millis % 1000);
        }
        return format!("{millis}ms");
    }
    let seconds = millis / 1000;
    if seconds % 3600 == 0 {
        format!("{}h", seconds / 3600)
    } else if seconds % 60 == 0 && seconds >= 600 {
        format!("{}m", seconds / 60)
    } else {
        format!("{seconds}s")
    }
}

/// Parses a size: `"20MiB"`, `"512KiB"`, `"1GiB"`; nginx's `"20M"`, `"8k"`, `"1g"` (binary, as nginx
/// means them); decimal `"1MB"` = 1000000; `"100B"` or a string of digits alone = bytes.
pub fn parse_size(text: &str) -> Result<u64, String> {
    let invalid = || format!("expected {SIZE_EXPECTED}, found {text:?}");
    let trimmed = text.trim();
    let digits_end = trimmed
        .find(|character: char| !character.is_ascii_digit())
        .unwrap_or(trimmed.len());
    if digits_end == 0 {
        return Err(invalid());
    }
    let number: u64 = trimmed[..digits_end].parse().map_err(|_| invalid())?;
    let multiplier: u64 = match trimmed[digits_end..].trim_start() {
        "" | "B" => 1,
        "k" | "K" | "KiB" => 1 << 10,
        "m" | "M" | "MiB" => 1 << 20,
        "g" | "G" | "GiB" => 1 << 30,
        "TiB" => 1 << 40,
        "kB" | "KB" => 1_000,
        "MB" => 1_000_000,
        "GB" => 1_000_000_000,
        "TB" => 1_000_000_000_000,
        _ => return Err(invalid()),
    };
    number
        .checked_mul(multiplier)
        .ok_or_else(|| format!("size {text:?} is too large"))
}

/// Formats a size in the largest binary unit that divides it: `20MiB`, `32KiB`, `1000000B`.
pub fn format_size(bytes: u64) -> String {
    const UNITS: [(u64, &str); 4] = [
        (1 << 40, "TiB"),
        (1 << 30, "GiB"),
        (1 << 20, "MiB"),
        (1 << 10, "KiB"),
    ];
    for (unit, name) in UNITS {
        if bytes != 0 && bytes % unit == 0 {
            return format!("{}{name}", bytes / unit);
        }
    }
    format!("{bytes}B")
}

/// Parses a rate: `"10r/s"`, `"600r/m"`, `"100r/h"`.
pub fn parse_rate(text: &str) -> Result<Rate, String> {
    let invalid =
        || format!("expected a rate such as \"10r/s\", \"600r/m\" or \"100r/h\", found {text:?}");
    let (count, per) = text.trim().split_once("r/").ok_or_else(invalid)?;
    let per = match per {
        "s" => Duration::from_secs(1),
        "m" => Duration::from_secs(60),
        "h" => Duration::from_secs(3600),
        _ => return Err(invalid()),
    };
    if count.is_empty() || !count.bytes().all(|byte| byte.is_ascii_digit()) {
        return Err(invalid());
    }
    let count: u64 = count.parse().map_err(|_| invalid())?;
    if count == 0 {
        return Err(format!("a rate must be at least 1 request, found {text:?}"));
    }
    Ok(Rate { count, per })
}

/// Formats a rate as written: `10r/s`.
pub fn format_rate(rate: Rate) -> String {
    let unit = match rate.per.as_secs() {
        1 => "s",
        60 => "m",
        3600 => "h",
        // Rates only come from `parse_rate`, whose periods are the three above; anything else is
        // still shown truthfully.
        _ => return format!("{}r/{}", rate.count, format_duration(rate.per)),
    };
    format!("{}r/{unit}", rate.count)
}

/// Parses a limit key: `client_ip`, `path`, `header:NAME`, joined by `+`; or `all` alone.
pub fn parse_key(text: &str) -> Result<Vec<KeyPart>, String> {
    const EXPECTED: &str =
        "expected \"client_ip\", \"path\" or \"header:NAME\", joined by \"+\" as in \"client_ip+path\", or \"all\" alone (one key for every request)";
    if text.trim() == "all" {
        return Ok(vec![KeyPart::All]);
    }
    let mut parts = Vec::new();
    for piece in text.split('+') {
        let piece = piece.trim();
        let part = match piece {
            "client_ip" => KeyPart::ClientIp,
            "path" => KeyPart::Path,
            _ => match piece.strip_prefix("header:") {
                Some(name) => HeaderName::from_bytes(name.trim().as_bytes())
                    .map(KeyPart::Header)
                    .map_err(|_| format!("{name:?} is not a valid header name in key {text:?}"))?,
                None => return Err(format!("{EXPECTED}, found {piece:?} in {text:?}")),
            },
        };
        if parts.contains(&part) {
            return Err(format!("{piece:?} appears twice in key {text:?}"));
        }
        parts.push(part);
    }
    Ok(parts)
}

/// Formats a limit key as written: `client_ip+header:x-api-key`.
pub fn format_key(key: &[KeyPart]) -> String {
    key.iter()
        .map(|part| match part {
            KeyPart::ClientIp => "client_ip".to_string(),
            KeyPart::Path => "path".to_string(),
            KeyPart::Header(name) => format!("header:{name}"),
            KeyPart::All => "all".to_string(),
        })
        .collect::<Vec<_>>()
        .join("+")
}

/// Parses a listen address: `"IP:PORT"` or `"[IPv6]:PORT"`.
pub fn parse_listen(text: &str) -> Result<SocketAddr, String> {
    text.parse().map_err(|_| {
        format!("expected an address such as \"127.0.0.1:8080\", \"0.0.0.0:80\" or \"[::1]:8080\", found {text:?}")
    })
}

/// Parses a trusted network: a CIDR such as `"10.0.0.0/8"`, or a bare IP meaning that one host.
/// Host bits are cleared, so `"10.1.2.3/8"` means `10.0.0.0/8`, as nginx reads it.
pub fn parse_network(text: &str) -> Result<IpNet, String> {
    let trimmed = text.trim();
    if let Ok(network) = trimmed.parse::<IpNet>() {
        return Ok(network.trunc());
    }
    trimmed
        .parse::<std::net::IpAddr>()
        .map(IpNet::from)
        .map_err(|_| {
            format!("expected a network such as \"10.0.0.0/8\", \"fd00::/8\" or an IP such as \"192.168.1.10\", found {text:?}")
        })
}
