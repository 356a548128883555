//! Phase 1, the request checks: what must hold of a request before it is routed. Its
//! `Content-Length` is one number, it names one valid host (RFC 9112 §3.2), and its path
//! normalises; headers whose names hold `_` are dropped unless `underscores_in_headers` is on.
//! Once it is routed, its `Content-Length` must be within `max_body_size` (413 before any
//! upstream work; after routing, as nginx checks `client_max_body_size` once the location is
//! found, so that the route's error page answers it).

use std::borrow::Cow;

use http::header;
use http::Version;

use crate::error::ProxyError;
use crate::head_view::{text, Headers, Request};

/// A request that passed the checks: its host, its normalised path and its `Content-Length`.
pub(super) struct Checked<'request> {
    pub(super) host: Option<&'request str>,
    pub(super) path: Cow<'request, str>,
    pub(super) length: Option<u64>,
}

/// The host, the normalised path and the length of a request that passed the checks, or why it
/// did not. Generic over the body, which it never reads.
pub(super) fn request<B>(request: &Request<B>) -> Result<Checked<'_>, ProxyError> {
    let length = content_length(request.headers())?;
    let host = request_host(request)?;
    let path = crate::path::normalize(request.uri().path())
        .map_err(|error| ProxyError::BadPath { error })?;
    Ok(Checked { host, path, length })
}

/// A body announced over `max_body_size` (0: no limit) is refused, 413, before any upstream
/// work.
pub(super) fn body_size(length: Option<u64>, max_body_size: u64) -> Result<(), ProxyError> {
    match length {
        Some(length) if max_body_size != 0 && length > max_body_size => {
            Err(ProxyError::BodyTooLarge {
                limit: max_body_size,
            })
        }
        _ => Ok(()),
    }
}

/// The host a request names, checked as RFC 9112 §3.2 requires: more than one `Host`, or an
/// invalid one, is 400; so is an HTTP/1.1 request with none. In absolute form the target's
/// authority wins over `Host`. Generic over the body, which it never reads, and public, so that
/// the fuzz targets in fuzz/ can call it.
pub fn request_host<B>(request: &Request<B>) -> Result<Option<&str>, ProxyError> {
    let mut hosts = request.headers().get_all(header::HOST);
    let first = hosts.next();
    if hosts.next().is_some() {
        return Err(ProxyError::BadRequest {
            reason: "more than one Host header",
        });
    }
    let header_host = match first {
        None => None,
        // Every byte a valid host holds is visible ASCII (all that `text` would check), so
        // the bytes are checked once, then typed.
        Some(value) => match valid_host_str(value) {
            Some(host) => Some(host),
            None => {
                return Err(ProxyError::BadRequest {
                    reason: "invalid Host header",
                })
            }
        },
    };
    if let Some(authority) = request.uri().authority() {
        // Held to what a `Host` may be: userinfo (`user@`), which an http(s) target must not
        // carry (RFC 9110 §4.2.4), would otherwise reach the app as its host.
        if !is_valid_host(authority.as_str().as_bytes()) {
            return Err(ProxyError::BadRequest {
                reason: "invalid host in the request target",
            });
        }
        return Ok(Some(authority.as_str()));
    }
    if header_host.is_none() && request.version() == Version::HTTP_11 {
        return Err(ProxyError::BadRequest {
            reason: "HTTP/1.1 request without Host",
        });
    }
    Ok(header_host)
}

/// `uri-host [ ":" port ]` (RFC 9110 §7.2): a registered name of unreserved characters,
/// sub-delimiters and escapes, an IPv4 address, or an IP literal in brackets; then an optional
/// numeric port. One pass over the bytes: the name ends at the first byte it may not hold, and
/// what follows must be the port. Every byte it accepts is ASCII.
fn is_valid_host(bytes: &[u8]) -> bool {
    let (name_ok, rest) = if let Some(literal) = bytes.strip_prefix(b"[") {
        let Some(end) = literal.iter().position(|&byte| byte == b']') else {
            return false;
        };
        let inside = &literal[..end];
        let ok = !inside.is_empty()
            && inside
                .iter()
                .all(|&byte| byte.is_ascii_hexdigit() || matches!(byte, b':' | b'.'));
        (ok, &literal[end + 1..])
    } else {
        // Brackets belong to an IP literal only, so they end a registered name (and the
        // rest, not a port, is refused).
        let end = bytes
            .iter()
            .position(|&byte| !NAME_BYTES[usize::from(byte)])
            .unwrap_or(bytes.len());
        (end > 0, &bytes[end..])
    };
    let port_ok = match rest.split_first() {
        None => true,
        Some((b':', digits)) => digits.len() <= 5 && digits.iter().all(u8::is_ascii_digit),
        Some(_) => false,
    };
    name_ok && port_ok
}

/// `bytes` as text when they are a valid host ([`is_valid_host`]), which is ASCII: ASCII is
/// UTF-8, so they need no UTF-8 validation (`str::from_utf8` on the host cost 144 instructions a
/// request, more than the host's own check), nor a second pass to find them ASCII (`is_ascii`,
/// 49 instructions a request).
fn valid_host_str(bytes: &[u8]) -> Option<&str> {
    if !is_valid_host(bytes) {
        return None;
    }
    debug_assert!(bytes.is_ascii(), "is_valid_host accepted a byte past ASCII");
    #[allow(unsafe_code)] // reason: UTF-8 validation of bytes known to be ASCII
    // SAFETY: every byte is ASCII, as `is_valid_host` accepts no other: a name's bytes are
    // those of `NAME_BYTES`, which holds ASCII bytes only (`the_name_table_holds_ascii_only`),
    // an IP literal's are hex digits, `:` and `.`, brackets, and a port's `:` and digits. ASCII
    // text is valid UTF-8.
    Some(unsafe { std::str::from_utf8_unchecked(bytes) })
}

/// [`is_name_byte`] for every byte: a look-up per byte, where the test was a dozen compares.
static NAME_BYTES: [bool; 256] = {
    let mut table = [false; 256];
    let mut byte = 0;
    while byte < 256 {
        table[byte] = is_name_byte(byte as u8);
        byte += 1;
    }
    table
};

/// A byte a registered name may hold (RFC 3986 `reg-name`: unreserved, sub-delims, `%`).
const fn is_name_byte(byte: u8) -> bool {
    byte.is_ascii_alphanumeric()
        || matches!(
            byte,
            b'-' | b'.'
                | b'_'
                | b'~'
                | b'!'
                | b'$'
                | b'&'
                | b'\''
                | b'('
                | b')'
                | b'*'
                | b'+'
                | b','
                | b';'
                | b'='
                | b'%'
        )
}

/// Drops request headers whose names hold an underscore, as nginx does while
/// `underscores_in_headers` is off: WSGI servers map `X-Real_IP` and `X-Real-IP` to one environ
/// key, so such a header could pass for one weir sets.
pub(super) fn drop_underscored_headers(headers: &mut Headers) {
    headers.remove_underscored();
}

/// Parses `Content-Length`; several differing values or garbage are a malformed request.
fn content_length(headers: &Headers) -> Result<Option<u64>, ProxyError> {
    let mut values = headers.get_all(header::CONTENT_LENGTH);
    let Some(first) = values.next() else {
        return Ok(None);
    };
    let malformed = ProxyError::BadRequest {
        reason: "invalid Content-Length",
    };
    let length = text(first)
        .and_then(|text| text.trim().parse::<u64>().ok())
        .ok_or(malformed)?;
    if values.any(|other| other != first) {
        return Err(ProxyError::BadRequest {
            reason: "conflicting Content-Length headers",
        });
    }
    Ok(Some(length))
}

#[cfg(test)]
mod tests;
