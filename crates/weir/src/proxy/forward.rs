//! Phase 4's head: the client's request head made the upstream's. Hop-by-hop headers out,
//! `Expect` out (the HTTP layer answers `100 Continue` itself), `Host` from the target's
//! authority, the `X-Forwarded-*` headers in, `Upgrade` kept for a WebSocket handshake,
//! `Connection: close` towards an upstream without keepalive, and origin form for the target.
//! The request line's path is the client's, byte for byte.

use std::net::IpAddr;

use bytes::Bytes;
use http::header::{self, HeaderValue};
use http::request::Parts;
use http::{Request, Uri, Version};

use super::headers::{
    add_forwarding_headers, is_websocket_upgrade, remove_hop_by_hop, X_FORWARDED_PROTO,
};

/// What the rewrite needs to know besides the head.
pub(super) struct Forwarding {
    /// The client's address, as `real_ip` sees it.
    pub(super) client_ip: IpAddr,
    /// The request came on a TLS listener.
    pub(super) secure: bool,
    /// The client is a trusted proxy, whose `X-Forwarded-Proto` is kept.
    pub(super) trusted: bool,
    /// A WebSocket upgrade: `Upgrade` and `Connection: upgrade` go upstream.
    pub(super) upgrade: bool,
    /// The upstream keeps connections open.
    pub(super) keepalive: bool,
}

/// Rewrites `parts` in place, as [the module](self) says.
pub(super) fn rewrite(parts: &mut Parts, forwarding: &Forwarding) {
    let upgrade_protocol = forwarding
        .upgrade
        .then(|| parts.headers.get(header::UPGRADE).cloned())
        .flatten();
    let client_proto = forwarding
        .trusted
        .then(|| parts.headers.get(&X_FORWARDED_PROTO).cloned())
        .flatten();
    remove_hop_by_hop(&mut parts.headers);
    // The HTTP layer answers `Expect: 100-continue` itself when the body is first read.
    parts.headers.remove(header::EXPECT);
    // In absolute form the target's authority wins over `Host` (RFC 9112 §3.2.2); an HTTP/1.0
    // request may have neither.
    let host = match parts.uri.authority() {
        Some(authority) => HeaderValue::from_str(authority.as_str()).ok(),
        None if !parts.headers.contains_key(header::HOST) => {
            Some(HeaderValue::from_static("localhost"))
        }
        None => None,
    };
    if let Some(host) = host {
        parts.headers.insert(header::HOST, host);
    }
    let scheme = if forwarding.secure { "https" } else { "http" };
    add_forwarding_headers(&mut parts.headers, forwarding.client_ip, scheme);
    if let Some(proto) = client_proto {
        // A trusted proxy in front (a TLS terminator) knows the scheme; keep its word.
        parts.headers.insert(&X_FORWARDED_PROTO, proto);
    }
    if let Some(protocol) = upgrade_protocol {
        parts.headers.insert(header::UPGRADE, protocol);
        parts
            .headers
            .insert(header::CONNECTION, HeaderValue::from_static("upgrade"));
    } else if !forwarding.keepalive {
        parts
            .headers
            .insert(header::CONNECTION, HeaderValue::from_static("close"));
    }
    parts.version = Version::HTTP_11;
    if parts.uri.scheme().is_some() || parts.uri.authority().is_some() {
        // An absolute-form request ("GET http://host/path"): upstreams want origin-form. An
        // empty path is `/` there, and a query stays (`http://host?q` is `/?q`, RFC 9112 §3.2.1).
        let origin = parts.uri.path_and_query().map_or("", |pq| pq.as_str());
        let origin = if origin.starts_with('/') {
            origin.parse::<Uri>()
        } else {
            format!("/{origin}").parse::<Uri>()
        };
        parts.uri = origin.unwrap_or_else(|_| Uri::from_static("/"));
    }
}

/// The head weir writes upstream for a client's request, as the proxy makes it for a route
/// without header rules: phase 1's checks (`None` when they refuse the request) and its removal
/// of underscored names (unless `underscores`), this module's rewrite for a client at
/// `client_ip` (`secure`: on a TLS listener; `trusted`: a trusted proxy) towards an upstream that
/// keeps connections open or not (`keepalive`), and the upstream client's encoding with a body
/// of `body_size` bytes (`Some(0)`: none; `None`: streamed, its size unknown). Public only for
/// the `forward_head` fuzz target (fuzz/), which checks that the forwarded head is the client's
/// request less its hop-by-hop headers.
#[doc(hidden)]
#[allow(clippy::too_many_arguments)] // reason: the proxy's own inputs, flat for the fuzz target
pub fn forwarded_head(
    request: Request<()>,
    body_size: Option<u64>,
    client_ip: IpAddr,
    secure: bool,
    trusted: bool,
    keepalive: bool,
    underscores: bool,
) -> Option<Bytes> {
    let (mut parts, ()) = request.into_parts();
    if !underscores {
        super::checks::drop_underscored_headers(&mut parts.headers);
    }
    let request = Request::from_parts(parts, ());
    super::checks::request(&request, 0).ok()?;
    let (mut parts, ()) = request.into_parts();
    let forwarding = Forwarding {
        client_ip,
        secure,
        trusted,
        upgrade: is_websocket_upgrade(&parts, body_size == Some(0)),
        keepalive,
    };
    rewrite(&mut parts, &forwarding);
    Some(crate::upstream::client::request_head(&parts, body_size))
}

#[cfg(test)]
mod tests;
