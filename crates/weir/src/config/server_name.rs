//! Upstream servers given by host name (`servers = ["web:8000"]`, a Docker Compose service) and
//! how such names are resolved (`[server] resolver`, `resolve_interval`, `resolve_timeout`): the
//! values, their parsing, and the place in the file of a server, for `weir check`'s warnings.

use std::fmt;
use std::net::{IpAddr, SocketAddr};
use std::path::Path;
use std::time::Duration;

use toml::de::DeTable;

use super::error::{KeyIndex, Problem};
use super::ConfigErrorKind;

/// The most addresses one name gives servers: a name that answers with more (a misconfigured
/// wildcard, a hostile DNS server) gets the first of them in address order, so a DNS answer
/// cannot grow the pools, health states and metrics without bound.
pub const MAX_ADDRESSES_PER_NAME: usize = 32;

/// The shortest `resolve_interval`, and the shortest wait before a record is asked again
/// whatever its TTL (a TTL of 0 would ask the DNS server on every turn of the loop).
pub const MIN_RESOLVE_INTERVAL: Duration = Duration::from_secs(1);

/// The longest wait after a failed resolution before the name is asked again (shorter when
/// `resolve_interval` is): a name that does not resolve yet (a container not started) is
/// retried soon, while the last good set of a name that resolved keeps serving.
pub const RETRY_AFTER_FAILURE: Duration = Duration::from_secs(5);

/// An upstream server given by host name: resolved at start, on reload and again every
/// `resolve_interval` (or its records' TTL), each address a server of the group.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ServerName {
    pub host: String,
    pub port: u16,
    /// Its position in the upstream's `servers` list (`backup_servers` when `backup`), to name
    /// it in warnings (`upstreams.app.servers[1]`).
    pub index: usize,
    /// Given in `backup_servers`: its addresses take requests only while no other server is
    /// available.
    pub backup: bool,
}

impl ServerName {
    /// The key it was given under, as warnings name it: `servers[1]` or `backup_servers[0]`.
    pub fn key(&self) -> String {
        let list = if self.backup {
            "backup_servers"
        } else {
            "servers"
        };
        format!("{list}[{}]", self.index)
    }
}

impl fmt::Display for ServerName {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(formatter, "{}:{}", self.host, self.port)
    }
}

/// How host names are resolved: `[server] resolver`, `resolve_interval`, `resolve_timeout`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ResolveConfig {
    /// `resolver`: the DNS server to ask (Docker's is `127.0.0.11`), whose records' TTLs are
    /// honoured; `None`, the system's resolver (getaddrinfo: `/etc/hosts`, `/etc/resolv.conf`),
    /// which gives no TTL. Default `None`.
    pub resolver: Option<SocketAddr>,
    /// `resolve_interval`: how often a name is resolved again; with `resolver`, the longest a
    /// record is kept (a shorter TTL is followed, down to [`MIN_RESOLVE_INTERVAL`]). Default 30s,
    /// nginx's habitual `resolver ... valid=30s`.
    pub interval: Duration,
    /// `resolve_timeout`: how long one resolution may take. Default 5s (nginx
    /// `resolver_timeout` is 30s).
    pub timeout: Duration,
}

/// The defaults, as documented on [`ResolveConfig`].
pub(super) const DEFAULT_RESOLVE_INTERVAL: Duration = Duration::from_secs(30);
pub(super) const DEFAULT_RESOLVE_TIMEOUT: Duration = Duration::from_secs(5);

/// Parses `HOST:PORT` where `HOST` is a host name (not an IP address, which the caller tried
/// first): letters, digits, `-` and `_` in dot-separated labels of at most 63 characters, 253 in
/// all, the last label not all digits.
pub(super) fn parse_server_name(text: &str) -> Result<(String, u16), String> {
    const FORMS: &str = "a server is \"unix:/path/app.sock\", \"IP:PORT\" such as \"127.0.0.1:8000\", or \"HOST:PORT\" such as \"web:8000\"";
    if let Some((scheme, rest)) = text.split_once("://") {
        return Err(format!(
            "{text:?} has a scheme: write {rest:?} ({scheme}:// is not part of a server; {FORMS})"
        ));
    }
    let Some((host, port)) = text.rsplit_once(':') else {
        return Err(format!(
            "{text:?} has no port: write \"{text}:8000\" with the server's port ({FORMS})"
        ));
    };
    if host.contains(':') || host.starts_with('[') {
        return Err(format!(
            "{text:?} is not a valid address: an IPv6 server is written in brackets, as \"[::1]:8000\" ({FORMS})"
        ));
    }
    let port = match port.parse::<u16>() {
        Ok(0) | Err(_) => {
            return Err(format!(
                "{text:?} has a bad port {port:?}: a port is 1 to 65535 ({FORMS})"
            ))
        }
        Ok(port) => port,
    };
    let label_ok = |label: &str| {
        !label.is_empty()
            && label.len() <= 63
            && !label.starts_with('-')
            && !label.ends_with('-')
            && label.chars().all(|character| {
                character.is_ascii_alphanumeric() || matches!(character, '-' | '_')
            })
    };
    let host_ok = !host.is_empty()
        && host.len() <= 253
        && host.split('.').all(label_ok)
        && host.parse::<IpAddr>().is_err()
        && !host
            .rsplit('.')
            .next()
            .is_some_and(|last| last.chars().all(|character| character.is_ascii_digit()));
    if !host_ok {
        return Err(format!(
            "{text:?} is neither an IP address nor a host name (letters, digits, '-' and '_' in dot-separated labels) ({FORMS})"
        ));
    }
    Ok((host.to_string(), port))
}

/// `[server] resolver`: `"IP"` (port 53) or `"IP:PORT"`.
pub(super) fn parse_resolver(text: &str) -> Result<SocketAddr, String> {
    if let Ok(ip) = text.parse::<IpAddr>() {
        return Ok(SocketAddr::new(ip, 53));
    }
    text.parse::<SocketAddr>().map_err(|_| {
        format!("expected a DNS server's address such as \"127.0.0.11\" (Docker's) or \"10.0.0.2:53\", found {text:?}")
    })
}

/// `file:line:column: key: message` for a value of the config file at `source` (read again), as
/// a config error names it; without a file or when the key is not found, `file: key: message`.
/// For warnings about a valid config, such as a host name that does not resolve now.
pub fn locate(source: Option<&Path>, key: &str, message: &str) -> String {
    let file = source.map_or("<string>".to_string(), |path| path.display().to_string());
    let Some(text) = source.and_then(|path| std::fs::read_to_string(path).ok()) else {
        return format!("{file}: {key}: {message}");
    };
    let (table, _) = DeTable::parse_recoverable(&text);
    let keys = KeyIndex::new(&table);
    // `servers = "web:8000"`, one string, has no `servers[0]`: the list's key stands for it.
    let span = keys
        .span_of(key)
        .or_else(|| {
            key.rsplit_once('[')
                .and_then(|(list, _)| keys.span_of(list))
        })
        .unwrap_or(0..0);
    Problem::new(ConfigErrorKind::InvalidValue, span, message)
        .with_key(key.to_string())
        .into_error(&text, source, &keys)
        .to_string()
}

#[cfg(test)]
mod tests;
