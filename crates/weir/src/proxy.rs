//! One request's phases, in order, and nothing else:
//!
//! 1. request checks: body size from `Content-Length` (413 before the upstream is contacted);
//! 2. route: host + path -> route (404 when none);
//! 3. upstream request: hop-by-hop headers out, forwarding headers in;
//! 4. exchange: pool checkout, send, response head (502/503/504 on failure);
//! 5. response: hop-by-hop headers out, `Server` if configured, body streamed back;
//! 6. access log, when the response body is done.
//!
//! Errors from every phase become responses in one place, `error.rs`.

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

use http::header::{self, HeaderMap, HeaderName, HeaderValue};
use http::{Request, Response, StatusCode, Uri, Version};
use hyper::body::Incoming;
use tokio::time::Instant;

use crate::access_log::{AccessLog, Entry};
use crate::body::{Body, RequestBody};
use crate::config::Config;
use crate::error::ProxyError;
use crate::routing::Router;
use crate::upstream::Upstream;

/// What a route leads to.
pub struct Route {
    pub upstream: Arc<Upstream>,
}

/// Everything the request path needs, built once from the config and shared by all connections.
pub struct Proxy {
    router: Router<Route>,
    upstreams: Vec<Arc<Upstream>>,
    max_body_size: u64,
    server_header: Option<HeaderValue>,
    access_log: Option<Arc<AccessLog>>,
}

/// What the proxy knows of the client connection a request came on.
#[derive(Debug, Clone, Copy)]
pub struct ClientInfo {
    pub peer: SocketAddr,
    /// Whether this is the last request the connection may carry (`keepalive_requests`).
    pub last_request: bool,
}

static X_FORWARDED_FOR: HeaderName = HeaderName::from_static("x-forwarded-for");
static X_REAL_IP: HeaderName = HeaderName::from_static("x-real-ip");
static X_FORWARDED_PROTO: HeaderName = HeaderName::from_static("x-forwarded-proto");
static KEEP_ALIVE: HeaderName = HeaderName::from_static("keep-alive");
static PROXY_CONNECTION: HeaderName = HeaderName::from_static("proxy-connection");

impl Proxy {
    /// Builds the routes and upstream pools. Must run inside a tokio runtime.
    pub fn new(config: &Config) -> std::io::Result<Proxy> {
        let upstreams: Vec<Arc<Upstream>> = config
            .upstreams
            .iter()
            .map(|(name, upstream)| Arc::new(Upstream::new(name, upstream)))
            .collect();
        let router = Router::new(config.routes.iter().filter_map(|route| {
            // Validation guarantees every route names a defined upstream.
            let upstream = upstreams.iter().find(|u| u.name() == route.upstream)?;
            Some((
                route.host.clone(),
                route.path.clone(),
                Route {
                    upstream: Arc::clone(upstream),
                },
            ))
        }));
        let access_log = if config.access_log.enabled {
            Some(Arc::new(AccessLog::open(&config.access_log)?))
        } else {
            None
        };
        Ok(Proxy {
            router,
            upstreams,
            max_body_size: config.server.max_body_size,
            server_header: config
                .server
                .server_header
                .as_deref()
                .and_then(|value| HeaderValue::from_str(value).ok()),
            access_log,
        })
    }

    pub fn upstreams(&self) -> &[Arc<Upstream>] {
        &self.upstreams
    }

    /// Proxies one request. Never fails: every error becomes a response.
    pub async fn handle(&self, client: ClientInfo, request: Request<Incoming>) -> Response<Body> {
        let started = Instant::now();
        let log_head = self
            .access_log
            .as_ref()
            .map(|_| Entry::start(client.peer, &request));
        let (mut response, upstream_info) = match self.exchange(client, request).await {
            Ok(result) => result,
            Err(error) => {
                match error.side() {
                    crate::error::Side::Upstream => {
                        tracing::warn!(client = %client.peer, cause = error.cause(), %error, "upstream failed")
                    }
                    _ => {
                        tracing::debug!(client = %client.peer, cause = error.cause(), %error, "request refused")
                    }
                }
                (error.response(), None)
            }
        };
        if let Some(server) = &self.server_header {
            response
                .headers_mut()
                .insert(header::SERVER, server.clone());
        }
        if client.last_request {
            response
                .headers_mut()
                .insert(header::CONNECTION, HeaderValue::from_static("close"));
        }
        match (&self.access_log, log_head) {
            (Some(access_log), Some(mut entry)) => {
                entry.status = response.status();
                if let Some((addr, upstream_time)) = upstream_info {
                    entry.upstream = Some(addr);
                    entry.upstream_time = Some(upstream_time);
                }
                entry.started = started;
                access_log.wrap(response, entry)
            }
            _ => response,
        }
    }

    async fn exchange(
        &self,
        client: ClientInfo,
        request: Request<Incoming>,
    ) -> Result<(Response<Body>, Option<(String, std::time::Duration)>), ProxyError> {
        // Phase 1: request checks.
        if let Some(length) = content_length(request.headers())? {
            if self.max_body_size != 0 && length > self.max_body_size {
                return Err(ProxyError::BodyTooLarge {
                    limit: self.max_body_size,
                });
            }
        }

        // Phase 2: route.
        let host = request
            .headers()
            .get(header::HOST)
            .and_then(|value| value.to_str().ok())
            .or_else(|| request.uri().host());
        let route = self
            .router
            .find(host, request.uri().path())
            .ok_or(ProxyError::NoRoute)?;
        let upstream = &route.upstream;

        // Phase 3: the upstream request.
        let (mut parts, incoming) = request.into_parts();
        let body = if http_body::Body::is_end_stream(&incoming) {
            RequestBody::Full(None)
        } else {
            RequestBody::downstream(incoming, self.max_body_size)
        };
        remove_hop_by_hop(&mut parts.headers);
        // hyper answers `Expect: 100-continue` itself when the body is first read.
        parts.headers.remove(header::EXPECT);
        if !parts.headers.contains_key(header::HOST) {
            let host = match parts.uri.authority() {
                Some(authority) => HeaderValue::from_str(authority.as_str()).ok(),
                None => Some(HeaderValue::from_static("localhost")),
            };
            if let Some(host) = host {
                parts.headers.insert(header::HOST, host);
            }
        }
        add_forwarding_headers(&mut parts.headers, client.peer.ip());
        if !upstream.keepalive() {
            parts
                .headers
                .insert(header::CONNECTION, HeaderValue::from_static("close"));
        }
        parts.version = Version::HTTP_11;
        if parts.uri.scheme().is_some() || parts.uri.authority().is_some() {
            // An absolute-form request ("GET http://host/path"): upstreams want origin-form.
            let origin = parts
                .uri
                .path_and_query()
                .map(|pq| pq.as_str())
                .unwrap_or("/");
            parts.uri = origin
                .parse::<Uri>()
                .unwrap_or_else(|_| Uri::from_static("/"));
        }
        let upstream_request = Request::from_parts(parts, body);

        // Phase 4: the exchange.
        let sent = Instant::now();
        let response = upstream.send(upstream_request).await?;
        let upstream_time = sent.elapsed();
        let upstream_addr = response
            .body()
            .upstream_addr()
            .map(ToString::to_string)
            .unwrap_or_default();

        // Phase 5: the response.
        let (mut parts, body) = response.into_parts();
        remove_hop_by_hop(&mut parts.headers);
        let response = Response::from_parts(parts, Body::Upstream(body));
        Ok((response, Some((upstream_addr, upstream_time))))
    }
}

/// Parses `Content-Length`; several differing values or garbage are a malformed request.
fn content_length(headers: &HeaderMap) -> Result<Option<u64>, ProxyError> {
    let mut values = headers.get_all(header::CONTENT_LENGTH).iter();
    let Some(first) = values.next() else {
        return Ok(None);
    };
    let malformed = ProxyError::BadRequest {
        reason: "invalid Content-Length",
    };
    let length = first
        .to_str()
        .ok()
        .and_then(|text| text.trim().parse::<u64>().ok())
        .ok_or(malformed)?;
    if values.any(|other| other != first) {
        return Err(ProxyError::BadRequest {
            reason: "conflicting Content-Length headers",
        });
    }
    Ok(Some(length))
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
/// `X-Forwarded-Proto` is set to `http` (weir does not terminate TLS).
pub fn add_forwarding_headers(headers: &mut HeaderMap, client_ip: IpAddr) {
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
    headers.insert(&X_FORWARDED_PROTO, HeaderValue::from_static("http"));
}

/// The answer to a request weir refuses before routing (used by the server for limits).
pub fn refusal(status: StatusCode) -> Response<Body> {
    crate::error::status_response(status)
}
