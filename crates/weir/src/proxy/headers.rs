//! The header rewrites of phases 4 and 6: headers that describe one connection go (hop-by-hop),
//! the forwarding headers come in, and only a WebSocket handshake keeps its `Upgrade`.

use std::net::IpAddr;

use http::header::{self, HeaderMap, HeaderName, HeaderValue};
use http::{Method, Request};

static X_FORWARDED_FOR: HeaderName = HeaderName::from_static("x-forwarded-for");
static X_REAL_IP: HeaderName = HeaderName::from_static("x-real-ip");
pub(super) static X_FORWARDED_PROTO: HeaderName = HeaderName::from_static("x-forwarded-proto");
static KEEP_ALIVE: HeaderName = HeaderName::from_static("keep-alive");
static PROXY_CONNECTION: HeaderName = HeaderName::from_static("proxy-connection");

/// Whether the request is a WebSocket handshake (RFC 6455 §4.1): a `GET` without a body whose
/// `Upgrade` names `websocket` and whose `Connection` names `upgrade`. Nothing else is tunnelled.
pub(super) fn is_websocket_upgrade<B: http_body::Body>(request: &Request<B>) -> bool {
    let headers = request.headers();
    let names = |name: HeaderName, token: &str| {
        headers
            .get_all(name)
            .iter()
            .filter_map(|value| value.to_str().ok())
            .flat_map(|value| value.split(','))
            .any(|item| item.trim().eq_ignore_ascii_case(token))
    };
    request.method() == Method::GET
        && http_body::Body::is_end_stream(request.body())
        && !headers.contains_key(header::TRANSFER_ENCODING)
        && names(header::UPGRADE, "websocket")
        && names(header::CONNECTION, "upgrade")
}

/// Removes the headers that describe one connection only (RFC 9110 §7.6.1): `Connection` and
/// every header it names, `Keep-Alive`, `TE`, `Trailer`, `Transfer-Encoding`, `Upgrade`, `Proxy-*`.
pub fn remove_hop_by_hop(headers: &mut HeaderMap) {
    let named: Vec<HeaderName> = headers
        .get_all(header::CONNECTION)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(','))
        .filter_map(|token| HeaderName::from_bytes(token.trim().as_bytes()).ok())
        // `Host` and `Content-Length` describe the message, not the connection: a `Connection`
        // that names them must not strip them (the upstream would get another host).
        .filter(|name| name != header::HOST && name != header::CONTENT_LENGTH)
        .collect();
    for name in named {
        headers.remove(name);
    }
    for name in [
        &header::CONNECTION,
        &KEEP_ALIVE,
        &header::TE,
        &header::TRAILER,
        &header::TRANSFER_ENCODING,
        &header::UPGRADE,
        &header::PROXY_AUTHORIZATION,
        &header::PROXY_AUTHENTICATE,
        &PROXY_CONNECTION,
    ] {
        headers.remove(name);
    }
}

/// `X-Forwarded-For` gets the client appended, `X-Real-IP` is set to it, and
/// `X-Forwarded-Proto` is set to `scheme`: `https` on a TLS listener, else `http`.
pub fn add_forwarding_headers(headers: &mut HeaderMap, client_ip: IpAddr, scheme: &'static str) {
    let client = client_ip.to_string();
    let forwarded_for = {
        let earlier: Vec<&str> = headers
            .get_all(&X_FORWARDED_FOR)
            .iter()
            .filter_map(|value| value.to_str().ok())
            .collect();
        if earlier.is_empty() {
            client.clone()
        } else {
            format!("{}, {}", earlier.join(", "), client)
        }
    };
    if let Ok(value) = HeaderValue::from_str(&forwarded_for) {
        headers.insert(&X_FORWARDED_FOR, value);
    }
    if let Ok(value) = HeaderValue::from_str(&client) {
        headers.insert(&X_REAL_IP, value);
    }
    headers.insert(&X_FORWARDED_PROTO, HeaderValue::from_static(scheme));
}
