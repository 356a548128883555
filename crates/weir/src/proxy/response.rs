//! Response shaping: phase 6, the upstream's response made the client's ([`from_upstream`]: a
//! WebSocket tunnel, or hop-by-hop headers out, limit headers in, read-ahead), and what every
//! answer gets on its way out, whoever made it ([`Outgoing`]: compression, `Server`, HSTS,
//! `Connection: close`).

use std::sync::Arc;
use std::time::Duration;

use http::header::{self, HeaderValue};
use http::StatusCode;

use super::headers::remove_hop_by_hop_fields;
use super::limits::Decided;
use crate::body::Body;
use crate::buffering::{self, Buffers};
use crate::compression;
use crate::config::{CompressionConfig, Encoding};
use crate::head_view::Response;
use crate::upstream::UpstreamBody;

/// What every answer gets, as the config says.
pub(super) struct Outgoing {
    pub(super) compression: Option<CompressionConfig>,
    /// `[server] server_header`.
    pub(super) server_header: Option<HeaderValue>,
    /// `[tls] hsts`: the `Strict-Transport-Security` of responses on TLS listeners.
    pub(super) hsts: Option<HeaderValue>,
}

/// What the request says of the answer it gets.
pub(super) struct Asked {
    pub(super) is_head: bool,
    /// The coding the client accepts, of those configured.
    pub(super) accepted: Option<Encoding>,
    /// The last request its connection may carry (`keepalive_requests`).
    pub(super) last_request: bool,
    /// It came on a TLS listener.
    pub(super) secure: bool,
}

impl Outgoing {
    /// Whether weir's own plain-text answers may be compressed (`text/plain` is a type to
    /// compress): then their `Content-Type` must be in their head's view, where compression
    /// looks.
    pub(super) fn compresses_answers(&self) -> bool {
        self.compression.as_ref().is_some_and(|config| {
            compression::type_matches(crate::error::TEXT_PLAIN, &config.types)
        })
    }

    /// Compression when the client accepts it and the response suits it, `Server` if
    /// configured, HSTS on TLS, `Connection: close` on a connection's last request.
    pub(super) fn apply(&self, response: &mut Response<Body>, asked: &Asked) {
        if let Some(config) = &self.compression {
            if compression::should_compress(
                asked.is_head,
                response.status(),
                response.headers(),
                config,
            ) {
                match asked.accepted {
                    Some(encoding) => {
                        let plain = std::mem::replace(response, Response::new(Body::empty()));
                        *response =
                            compression::compress_with(config, encoding, plain).map(Body::boxed);
                    }
                    None => compression::add_vary(response.headers_mut()),
                }
            }
        }
        if let Some(server) = &self.server_header {
            response.headers_mut().set(header::SERVER, server);
        }
        if let (true, Some(hsts)) = (asked.secure, &self.hsts) {
            response
                .headers_mut()
                .set(header::STRICT_TRANSPORT_SECURITY, hsts);
        }
        // After a 101 the connection belongs to the upgraded protocol: `Connection: upgrade`
        // stays, whatever keepalive_requests says.
        if asked.last_request && response.status() != StatusCode::SWITCHING_PROTOCOLS {
            response.headers_mut().set(header::CONNECTION, "close");
        }
    }
}

/// How a route's upstream responses go to the client.
pub(super) struct Shaping<'a> {
    /// The request asked for a WebSocket upgrade.
    pub(super) upgrade: bool,
    /// The route's limit decision, whose headers the response carries.
    pub(super) limited: Option<&'a Decided<'a>>,
    /// Read the body ahead of the client (`response_buffering`), within these buffers.
    pub(super) read_ahead: Option<&'a Arc<Buffers>>,
    /// The upstream's `read_timeout`, a tunnel's idle time-out.
    pub(super) read_timeout: Duration,
    /// Set when the shutdown grace ends: a tunnel still open then is closed.
    pub(super) closing: &'a tokio::sync::watch::Sender<bool>,
}

/// Phase 6, the response: a WebSocket handshake the upstream took becomes a tunnel (the client
/// connection runs it once the `101` is written); any other response comes without its
/// hop-by-hop headers (the client side took them out as it parsed the head; a `101`'s are taken
/// out here), gains the limit headers and, when the route buffers responses, is read ahead of
/// the client.
pub(super) fn from_upstream(
    mut response: Response<UpstreamBody>,
    shaping: Shaping<'_>,
) -> Response<Body> {
    let upgraded = (shaping.upgrade && response.status() == StatusCode::SWITCHING_PROTOCOLS)
        .then(|| response.body_mut().take_upgraded())
        .flatten();
    if let Some(upgraded) = upgraded {
        let tunnel = crate::tunnel::Upgrade::new(
            upgraded,
            shaping.read_timeout,
            shaping.closing.subscribe(),
        );
        let (mut parts, _) = response.into_parts();
        let protocol = parts.headers.get_shared(header::UPGRADE);
        remove_hop_by_hop_fields(&mut parts.headers);
        if let Some(protocol) = protocol {
            parts.headers.append(header::UPGRADE, protocol);
        }
        parts.headers.append(header::CONNECTION, "upgrade");
        parts.extensions.insert(tunnel);
        return Response::from_parts(parts, Body::empty());
    }
    // The client side took the hop-by-hop lines out as it parsed the head, but a `101`'s.
    if response.status() == StatusCode::SWITCHING_PROTOCOLS {
        remove_hop_by_hop_fields(response.headers_mut());
    }
    if let Some(limited) = shaping.limited {
        limited.add_headers(response.headers_mut());
    }
    // The head is edited where it is and then moved once into the client's response: taken
    // apart first and edited, it was copied out and then in again.
    let Response { head, body } = response;
    let body = match shaping.read_ahead {
        Some(buffers) => buffering::read_ahead(body, buffers),
        None => Body::Upstream(body),
    };
    Response { head, body }
}
