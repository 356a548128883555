//! The real client address: which IP a request comes from when trusted proxies stand in front of
//! weir. This reproduces nginx's `set_real_ip_from` + `real_ip_header` + `real_ip_recursive on`,
//! and adds RFC 7239 `Forwarded`, which nginx's realip module does not read.
//!
//! The rule, as nginx applies it: start from the peer address. While the current address is a
//! trusted proxy, step one address to the left in the header, which is what that proxy said it saw.
//! The first untrusted address is the client. If every address is trusted, the leftmost one is the
//! client. A malformed entry stops the walk and the last good address stands. A peer that is not
//! trusted is the client whatever its headers say, so a client cannot choose its own address.

use std::net::{IpAddr, Ipv6Addr, SocketAddrV4};

use http::header::{HeaderName, FORWARDED};

use crate::head_view::Headers;
use ipnet::IpNet;

use crate::config::{RealIpHeader, ServerConfig};

#[cfg(test)]
mod tests;

/// The `X-Real-IP` header name; `http` has no constant for it.
const X_REAL_IP: HeaderName = HeaderName::from_static("x-real-ip");
/// The `X-Forwarded-For` header name; `http` has no constant for it.
const X_FORWARDED_FOR: HeaderName = HeaderName::from_static("x-forwarded-for");

impl RealIpHeader {
    /// The header this choice reads.
    pub fn header_name(self) -> HeaderName {
        match self {
            RealIpHeader::XForwardedFor => X_FORWARDED_FOR,
            RealIpHeader::XRealIp => X_REAL_IP,
            RealIpHeader::Forwarded => FORWARDED,
        }
    }
}

/// Finds the client address of a request from its peer address and, when the peer is trusted,
/// its forwarding header. Built once from the config and shared by all connections.
#[derive(Debug, Clone, PartialEq)]
pub struct RealIp {
    trusted_proxies: Vec<IpNet>,
    header: RealIpHeader,
}

impl RealIp {
    /// A resolver that believes `header` only when it comes from an address in `trusted_proxies`.
    pub fn new(trusted_proxies: Vec<IpNet>, header: RealIpHeader) -> RealIp {
        RealIp {
            trusted_proxies,
            header,
        }
    }

    /// The resolver for `[server] trusted_proxies` and `real_ip_header`.
    pub fn from_config(server: &ServerConfig) -> RealIp {
        RealIp::new(server.trusted_proxies.clone(), server.real_ip_header)
    }

    /// Whether `ip` is in one of the trusted networks. An IPv4-mapped IPv6 address (what a
    /// dual-stack socket reports for an IPv4 peer) is matched as the IPv4 address it carries.
    pub fn is_trusted(&self, ip: IpAddr) -> bool {
        let ip = ip.to_canonical();
        self.trusted_proxies.iter().any(|net| net.contains(&ip))
    }

    /// The client address of a request that arrived from `peer` with `headers`.
    ///
    /// Every line of the header counts, in order, as if they were one comma-separated list (RFC
    /// 9110 section 5.3), so a client cannot hide an address by sending the header twice.
    pub fn client_ip(&self, peer: IpAddr, headers: &Headers) -> IpAddr {
        let peer = peer.to_canonical();
        // The common case (no trusted proxies, or a direct client) parses no header at all.
        if !self.is_trusted(peer) {
            return peer;
        }
        let mut entries: Vec<Option<IpAddr>> = Vec::new();
        for value in headers.get_all(self.header.header_name()) {
            // A header value that is not visible ASCII cannot hold an address; treat it as one
            // malformed entry, which stops the walk there.
            let Some(text) = crate::head_view::text(value) else {
                entries.push(None);
                continue;
            };
            match self.header {
                RealIpHeader::XForwardedFor | RealIpHeader::XRealIp => {
                    // nginx separates entries by commas and spaces alike and skips empty ones.
                    entries.extend(
                        text.split([',', ' ', '\t'])
                            .filter(|entry| !entry.is_empty())
                            .map(parse_node),
                    );
                }
                RealIpHeader::Forwarded => {
                    entries.extend(split_outside_quotes(text, ',').map(forwarded_for));
                }
            }
        }
        self.walk(peer, &entries)
    }

    /// Walks `entries` from right to left while the current address is trusted.
    fn walk(&self, peer: IpAddr, entries: &[Option<IpAddr>]) -> IpAddr {
        let mut client = peer;
        for entry in entries.iter().rev() {
            if !self.is_trusted(client) {
                break;
            }
            match entry {
                Some(ip) => client = ip.to_canonical(),
                None => break,
            }
        }
        client
    }
}

/// Parses one address as proxies write them: `1.2.3.4`, `1.2.3.4:5678`, `2001:db8::1`,
/// `[2001:db8::1]` or `[2001:db8::1]:5678`. Anything else is `None`.
fn parse_node(text: &str) -> Option<IpAddr> {
    let text = text.trim();
    if let Some(rest) = text.strip_prefix('[') {
        let (inside, after) = rest.split_once(']')?;
        let port_ok = after.is_empty()
            || after
                .strip_prefix(':')
                .is_some_and(|port| port.parse::<u16>().is_ok());
        if !port_ok {
            return None;
        }
        return inside.parse::<Ipv6Addr>().ok().map(IpAddr::V6);
    }
    if let Ok(ip) = text.parse::<IpAddr>() {
        return Some(ip);
    }
    text.parse::<SocketAddrV4>()
        .ok()
        .map(|addr| IpAddr::V4(*addr.ip()))
}

/// The address in one `Forwarded` element's `for=` parameter (RFC 7239 section 5.2).
///
/// `for=unknown`, an obfuscated `for=_hidden`, or an element without `for=` give `None`: they do
/// not name an address, so the walk cannot go past them.
fn forwarded_for(element: &str) -> Option<IpAddr> {
    for pair in split_outside_quotes(element, ';') {
        let Some((name, value)) = pair.split_once('=') else {
            continue;
        };
        if !name.trim().eq_ignore_ascii_case("for") {
            continue;
        }
        let value = value.trim();
        let node = match value.strip_prefix('"') {
            Some(quoted) => unquote(quoted.strip_suffix('"')?)?,
            None => value.to_string(),
        };
        return parse_node(&node);
    }
    None
}

/// The text of an RFC 9110 quoted-string without its quotes, backslash escapes resolved.
fn unquote(inner: &str) -> Option<String> {
    let mut text = String::with_capacity(inner.len());
    let mut chars = inner.chars();
    while let Some(character) = chars.next() {
        match character {
            '\\' => text.push(chars.next()?),
            '"' => return None,
            other => text.push(other),
        }
    }
    Some(text)
}

/// Splits `text` at `separator` where it is not inside a quoted-string, trimming each piece and
/// skipping empty ones (RFC 9110 lists allow empty elements).
fn split_outside_quotes(text: &str, separator: char) -> impl Iterator<Item = &str> {
    let mut pieces = Vec::new();
    let mut start = 0;
    let mut in_quotes = false;
    let mut escaped = false;
    for (index, character) in text.char_indices() {
        if escaped {
            escaped = false;
            continue;
        }
        match character {
            '\\' if in_quotes => escaped = true,
            '"' => in_quotes = !in_quotes,
            _ if character == separator && !in_quotes => {
                pieces.push(&text[start..index]);
                start = index + character.len_utf8();
            }
            _ => {}
        }
    }
    pieces.push(&text[start..]);
    pieces
        .into_iter()
        .map(str::trim)
        .filter(|piece| !piece.is_empty())
}
