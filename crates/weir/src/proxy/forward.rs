//! Phase 4's head: the client's request head made the upstream's. Hop-by-hop headers out,
//! `Expect` out (the HTTP layer answers `100 Continue` itself), `Host` from the target's
//! authority, the `X-Forwarded-*` headers in, `Upgrade` kept for a WebSocket handshake,
//! `Connection: close` towards an upstream without keepalive, and origin form for the target.
//! The request line's path is the client's, byte for byte.

use std::net::IpAddr;

use bytes::Bytes;
use http::header;
use http::{Uri, Version};

use super::headers::{
    add_forwarding_headers, is_websocket_upgrade, remove_hop_by_hop_fields, X_FORWARDED_PROTO,
};
use crate::head_view::{Request, RequestHead};

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

/// Rewrites `head` in place, as [the module](self) says: the client's lines that stay are
/// left as they came, weir's come after them.
pub(super) fn rewrite(head: &mut RequestHead, forwarding: &Forwarding) {
    let headers = &mut head.headers;
    let upgrade_protocol = forwarding
        .upgrade
        .then(|| headers.get_shared(header::UPGRADE))
        .flatten();
    let client_proto = forwarding
        .trusted
        .then(|| headers.get_shared(&X_FORWARDED_PROTO))
        .flatten();
    remove_hop_by_hop_fields(headers);
    // The HTTP layer answers `Expect: 100-continue` itself when the body is first read.
    headers.remove(header::EXPECT);
    // In absolute form the target's authority wins over `Host` (RFC 9112 §3.2.2); an HTTP/1.0
    // request may have neither.
    match head.uri.authority() {
        Some(authority) => headers.set(header::HOST, authority.as_str()),
        None if !headers.contains(header::HOST) => headers.append(header::HOST, "localhost"),
        None => {}
    }
    let scheme = if forwarding.secure { "https" } else { "http" };
    add_forwarding_headers(headers, forwarding.client_ip, scheme);
    if let Some(proto) = client_proto {
        // A trusted proxy in front (a TLS terminator) knows the scheme; keep its word.
        headers.set(&X_FORWARDED_PROTO, proto);
    }
    if let Some(protocol) = upgrade_protocol {
        headers.set(header::UPGRADE, protocol);
        headers.set(header::CONNECTION, "upgrade");
    } else if !forwarding.keepalive {
        headers.set(header::CONNECTION, "close");
    }
    head.version = Version::HTTP_11;
    if head.uri.scheme().is_some() || head.uri.authority().is_some() {
        // An absolute-form request ("GET http://host/path"): upstreams want origin-form. An
        // empty path is `/` there, and a query stays (`http://host?q` is `/?q`, RFC 9112 §3.2.1).
        let origin = head.uri.path_and_query().map_or("", |pq| pq.as_str());
        let origin = if origin.starts_with('/') {
            origin.parse::<Uri>()
        } else {
            format!("/{origin}").parse::<Uri>()
        };
        head.uri = origin.unwrap_or_else(|_| Uri::from_static("/"));
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
    let mut request = request;
    if !underscores {
        super::checks::drop_underscored_headers(request.headers_mut());
    }
    super::checks::request(&request).ok()?;
    let (mut head, ()) = request.into_parts();
    let forwarding = Forwarding {
        client_ip,
        secure,
        trusted,
        upgrade: is_websocket_upgrade(&head, body_size == Some(0)),
        keepalive,
    };
    rewrite(&mut head, &forwarding);
    Some(crate::upstream::client::request_head(&head, body_size))
}

#[cfg(test)]
mod tests;
