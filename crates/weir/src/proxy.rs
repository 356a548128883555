//! One request's phases, in order, and nothing else. [`Proxy::handle`] frames them (the client
//! address, the 499 guard, the one error exit, what every answer gets, metrics and access log);
//! `exchange` runs them, one line each:
//!
//! 1. request checks (`checks.rs`): `Content-Length` within `max_body_size` (413 before any
//!    upstream work), one valid host, a path that normalises (400);
//! 2. route: host + normalised path -> route (404 when none);
//! 3. rate limits (`limits.rs`): reject (the limit's status and headers), delay, or pass; a
//!    static or answering route then answers by itself;
//! 4. upstream request: hop-by-hop headers out, forwarding headers in (`headers.rs`), the body
//!    buffered or streamed;
//! 5. exchange: pool checkout, send, response head (502/503/504 on failure);
//! 6. response: a WebSocket tunnel, or hop-by-hop headers out, limit headers in, read-ahead.
//!
//! Every phase's error leaves by `?` and becomes its answer in one place, `error.rs`. Building
//! the proxy from a config, and rebuilding it on reload, is `build.rs`.

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use http::header::{self, HeaderValue};
use http::{Method, Request, Response, StatusCode, Uri, Version};
use tokio::time::Instant;

use crate::access_log::{AccessLog, Entry};
use crate::body::{Body, ClientBody, RequestBody};
use crate::buffering::{self, Buffers};
use crate::compression;
use crate::config::{CompressionConfig, Config, Encoding};
use crate::error::{CodecError, ProxyError, Side};
use crate::metrics::Metrics;
use crate::ratelimit::Limiter;
use crate::realip::RealIp;
use crate::routing::Router;
use crate::static_files::StaticDir;
use crate::upstream::{Upstream, UpstreamBody};

mod build;
mod checks;
mod headers;
mod limits;

use checks::drop_underscored_headers;
pub use checks::request_host;
use headers::{add_forwarding_headers, is_websocket_upgrade, remove_hop_by_hop, X_FORWARDED_PROTO};
pub use limits::build_key;
use limits::RouteLimits;

/// What a route leads to.
pub struct Route {
    /// The route's position in the config, for metrics.
    pub index: usize,
    pub target: Target,
    /// Length of the route's path prefix, stripped for static files.
    prefix_len: usize,
    limits: Option<RouteLimits>,
    request_buffering: bool,
    response_buffering: bool,
}

/// Where a route's requests go.
pub enum Target {
    Upstream(Arc<Upstream>),
    Static(StaticDir),
    /// `redirect` / `status`: answered by weir itself, as nginx `return`.
    Answer(crate::answer::Answer),
}

/// Everything the request path needs, built once from the config and shared by all connections.
pub struct Proxy {
    router: Router<Route>,
    upstreams: Vec<Arc<Upstream>>,
    limiters: Vec<Arc<Limiter>>,
    max_body_size: u64,
    /// The request spool and the read-ahead budget.
    buffers: Arc<Buffers>,
    body_timeout: Duration,
    underscores_in_headers: bool,
    server_header: Option<HeaderValue>,
    access_log: Option<Arc<AccessLog>>,
    metrics: Arc<Metrics>,
    real_ip: RealIp,
    compression: Option<CompressionConfig>,
    /// Set once the shutdown grace has run out: upgraded connections still open then are closed.
    /// Shared by every generation of a reloaded proxy.
    closing: Arc<tokio::sync::watch::Sender<bool>>,
    thread_affine: bool,
    /// `[tls] hsts`: the `Strict-Transport-Security` of responses on TLS listeners.
    hsts: Option<HeaderValue>,
    /// `[tls] redirect_http`: the port of the HTTPS redirect target (`None`: no redirect).
    redirect_http: Option<u16>,
    /// The config this proxy was built from, to tell on reload what changed.
    config: Config,
}

/// What the proxy knows of the client connection a request came on.
#[derive(Debug, Clone)]
pub struct ClientInfo {
    pub peer: SocketAddr,
    /// Whether this is the last request the connection may carry (`keepalive_requests`).
    pub last_request: bool,
    /// The TLS connection the request came on; `None` on a plain listener.
    pub tls: Option<Arc<crate::tls::TlsInfo>>,
}

/// What one request did, for metrics and the access log.
#[derive(Debug, Default)]
struct Record<'proxy> {
    route: Option<usize>,
    /// The upstream group asked, once the exchange began.
    upstream_name: Option<&'proxy str>,
    /// The server that answered (only kept when the access log is on) and the time to its head.
    upstream: Option<(Option<String>, Duration)>,
}

/// A request not answered yet. Dropped unanswered (the client left and hyper dropped the
/// request's future), it records the request as 499 in the metrics and the access log.
struct Unanswered<'proxy> {
    proxy: &'proxy Proxy,
    record: Record<'proxy>,
    entry: Option<Entry>,
    started: Instant,
    client_ip: IpAddr,
    armed: bool,
}

/// nginx's status for a client that closed its connection before the answer.
pub const CLIENT_CLOSED: u16 = 499;

impl<'proxy> Unanswered<'proxy> {
    /// The answer is ready: hands back what the request did, disarming the guard.
    fn answered(mut self) -> (Record<'proxy>, Option<Entry>) {
        self.armed = false;
        (std::mem::take(&mut self.record), self.entry.take())
    }
}

impl Drop for Unanswered<'_> {
    fn drop(&mut self) {
        if !self.armed {
            return;
        }
        // 499 is within 100..=999: from_u16 cannot fail.
        let status = StatusCode::from_u16(CLIENT_CLOSED).unwrap_or(StatusCode::BAD_REQUEST);
        self.proxy
            .metrics
            .record_request(self.record.route, status, self.started.elapsed(), None);
        if let (Some(access_log), Some(mut entry)) = (&self.proxy.access_log, self.entry.take()) {
            entry.status = status;
            access_log.write_now(entry);
        }
        tracing::debug!(client = %self.client_ip, "client closed the connection before the answer");
    }
}

/// Upstream failures are logged at most a few times a second per cause.
static UPSTREAM_FAILED: crate::logging::Throttle = crate::logging::Throttle::new(5);
impl Proxy {
    /// Closes every upgraded connection (WebSocket tunnel) still open: the end of the shutdown
    /// grace.
    pub fn close_tunnels(&self) {
        self.closing.send_replace(true);
    }

    /// Counts and logs a request the HTTP layer refused before it reached [`Proxy::handle`] (a
    /// malformed or too large head, a head not received in time), with the status error.rs
    /// gives the refusal.
    pub fn record_refused(&self, peer: SocketAddr, refusal: CodecError) {
        let status = refusal.status();
        self.metrics
            .record_request(None, status, Duration::ZERO, None);
        if let Some(access_log) = &self.access_log {
            access_log.write_now(Entry::unparsed(peer, status));
        }
    }

    /// The config this proxy was built from.
    pub fn config(&self) -> &Config {
        &self.config
    }

    pub fn metrics(&self) -> &Arc<Metrics> {
        &self.metrics
    }

    pub fn upstreams(&self) -> &[Arc<Upstream>] {
        &self.upstreams
    }

    pub fn limiters(&self) -> &[Arc<Limiter>] {
        &self.limiters
    }

    pub fn buffers(&self) -> &Arc<Buffers> {
        &self.buffers
    }

    /// Proxies one request. Never fails: every error becomes a response.
    pub async fn handle(
        &self,
        client: ClientInfo,
        mut request: Request<ClientBody>,
    ) -> Response<Body> {
        let started = Instant::now();
        if !self.underscores_in_headers {
            drop_underscored_headers(request.headers_mut());
        }
        let client_ip = self.real_ip.client_ip(client.peer.ip(), request.headers());
        let log_entry = self.access_log.as_ref().map(|_| {
            let mut entry = Entry::start(SocketAddr::new(client_ip, client.peer.port()), &request);
            entry.started = started;
            entry.tls = client.tls.clone();
            entry
        });
        let accepted = self
            .compression
            .as_ref()
            .and_then(|config| compression::choose(request.headers(), &config.algorithms));
        let is_head = request.method() == Method::HEAD;
        let last_request = client.last_request;
        let secure = client.tls.is_some();
        // Until the answer is ready, a client that leaves drops this future: the guard then
        // counts and logs the request as 499, as nginx does.
        let mut unanswered = Unanswered {
            proxy: self,
            record: Record::default(),
            entry: log_entry,
            started,
            client_ip,
            armed: true,
        };
        let exchanged = self
            .exchange(client, client_ip, request, &mut unanswered.record)
            .await;
        let (record, log_entry) = unanswered.answered();
        // The one error exit: whatever phase failed, error.rs makes the answer.
        let response =
            exchanged.unwrap_or_else(|error| self.refused(error, record.upstream_name, client_ip));
        let response = self.outgoing(response, is_head, accepted, last_request, secure);
        self.recorded(response, record, log_entry, started)
    }

    /// The answer to a request that failed: counted (upstream failures per upstream and cause),
    /// logged (upstream failures throttled per cause), and made by error.rs.
    fn refused(
        &self,
        error: ProxyError,
        upstream_name: Option<&str>,
        client_ip: IpAddr,
    ) -> Response<Body> {
        if let (Side::Upstream, Some(upstream)) = (error.side(), upstream_name) {
            self.metrics
                .record_upstream_failure(upstream, error.cause());
        }
        match error.side() {
            Side::Upstream => {
                if let Some(suppressed) = UPSTREAM_FAILED.admit(error.cause()) {
                    tracing::warn!(client = %client_ip, cause = error.cause(), suppressed, %error, "upstream failed");
                }
            }
            // The limit phase logged it, throttled, so a flood does not flood the log.
            _ if matches!(error, ProxyError::RateLimited { .. }) => {}
            _ => {
                tracing::debug!(client = %client_ip, cause = error.cause(), %error, "request refused")
            }
        }
        error.into_response()
    }

    /// What every answer gets on its way out: compression when the client accepts it and the
    /// response suits it, `Server` if configured, `Connection: close` on a connection's last
    /// request.
    fn outgoing(
        &self,
        mut response: Response<Body>,
        is_head: bool,
        accepted: Option<Encoding>,
        last_request: bool,
        secure: bool,
    ) -> Response<Body> {
        if let Some(config) = &self.compression {
            if compression::should_compress(is_head, response.status(), response.headers(), config)
            {
                match accepted {
                    Some(encoding) => {
                        response =
                            compression::compress_with(config, encoding, response).map(Body::boxed);
                    }
                    None => compression::add_vary(response.headers_mut()),
                }
            }
        }
        if let Some(server) = &self.server_header {
            response
                .headers_mut()
                .insert(header::SERVER, server.clone());
        }
        if let (true, Some(hsts)) = (secure, &self.hsts) {
            response
                .headers_mut()
                .insert(header::STRICT_TRANSPORT_SECURITY, hsts.clone());
        }
        // After a 101 the connection belongs to the upgraded protocol: `Connection: upgrade`
        // stays, whatever keepalive_requests says.
        if last_request && response.status() != StatusCode::SWITCHING_PROTOCOLS {
            response
                .headers_mut()
                .insert(header::CONNECTION, HeaderValue::from_static("close"));
        }
        response
    }

    /// Counts the answer in the metrics, and hands it to the access log, which writes its line
    /// when the body is done.
    fn recorded(
        &self,
        response: Response<Body>,
        record: Record<'_>,
        log_entry: Option<Entry>,
        started: Instant,
    ) -> Response<Body> {
        self.metrics.record_request(
            record.route,
            response.status(),
            started.elapsed(),
            record.upstream.as_ref().map(|(_, time)| *time),
        );
        match (&self.access_log, log_entry) {
            (Some(access_log), Some(mut entry)) => {
                entry.status = response.status();
                if let Some((addr, upstream_time)) = record.upstream {
                    entry.upstream = addr;
                    entry.upstream_time = Some(upstream_time);
                }
                access_log.wrap(response, entry)
            }
            _ => response,
        }
    }

    /// The phases, in order. Every error leaves by `?` to the one error exit in [`Proxy::handle`].
    async fn exchange<'proxy>(
        &'proxy self,
        client: ClientInfo,
        client_ip: IpAddr,
        request: Request<ClientBody>,
        record: &mut Record<'proxy>,
    ) -> Result<Response<Body>, ProxyError> {
        let (host, path) = checks::request(&request, self.max_body_size)?;
        if let Some(response) = self.https_redirect(&client, host, &request) {
            return Ok(response);
        }
        let route = self.router.find(host, &path).ok_or(ProxyError::NoRoute)?;
        record.route = Some(route.index);
        let limited = route.check_limits(client_ip, &path, &request).await?;
        let upstream = match &route.target {
            Target::Upstream(upstream) => upstream,
            Target::Static(dir) => return route.serve_static(dir, &path, &request).await,
            Target::Answer(answer) => {
                return Ok(answer.respond_to(&request, host, client.tls.is_some()))
            }
        };
        let (upstream_request, upgrade) = self
            .upstream_request(route, upstream, &client, client_ip, request)
            .await?;
        let response = self.send(upstream, upstream_request, record).await?;
        Ok(self.response(route, upstream, upgrade, limited.as_ref(), response))
    }

    /// `[tls] redirect_http`: a request on a plain listener is sent to HTTPS, except ACME
    /// http-01 challenges (certbot --webroot renewals), which are routed as usual, as nginx's
    /// port-80 server keeps a location for them.
    fn https_redirect<B>(
        &self,
        client: &ClientInfo,
        host: Option<&str>,
        request: &Request<B>,
    ) -> Option<Response<Body>> {
        let port = self.redirect_http?;
        let acme = request
            .uri()
            .path()
            .starts_with("/.well-known/acme-challenge/");
        (client.tls.is_none() && !acme)
            .then(|| crate::answer::https_redirect(host, port, request.uri()))
    }

    /// Phase 4, the upstream request. Only a bodiless GET asking for WebSocket is an upgrade;
    /// any other `Upgrade` (h2c included) is dropped with the hop-by-hop headers, so such a
    /// request is buffered and forwarded as any other.
    async fn upstream_request(
        &self,
        route: &Route,
        upstream: &Upstream,
        client: &ClientInfo,
        client_ip: IpAddr,
        request: Request<ClientBody>,
    ) -> Result<(Request<RequestBody>, bool), ProxyError> {
        let upgrade = is_websocket_upgrade(&request);
        let upgrade_headers = upgrade.then(|| {
            (
                request.headers().get(header::UPGRADE).cloned(),
                HeaderValue::from_static("upgrade"),
            )
        });
        let (mut parts, incoming) = request.into_parts();
        let client_proto = parts.headers.get(&X_FORWARDED_PROTO).cloned();
        let body = if http_body::Body::is_end_stream(&incoming) {
            RequestBody::Full(None)
        } else if route.request_buffering {
            buffering::read_request_body(
                incoming,
                self.max_body_size,
                self.body_timeout,
                &self.buffers,
            )
            .await?
        } else {
            RequestBody::downstream(incoming, self.max_body_size, self.body_timeout)
        };
        remove_hop_by_hop(&mut parts.headers);
        // The HTTP layer answers `Expect: 100-continue` itself when the body is first read.
        parts.headers.remove(header::EXPECT);
        // In absolute form the target's authority wins over `Host` (RFC 9112 §3.2.2); an
        // HTTP/1.0 request may have neither.
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
        let scheme = if client.tls.is_some() {
            "https"
        } else {
            "http"
        };
        add_forwarding_headers(&mut parts.headers, client_ip, scheme);
        if let Some(proto) = client_proto.filter(|_| self.real_ip.is_trusted(client.peer.ip())) {
            // A trusted proxy in front (a TLS terminator) knows the scheme; keep its word.
            parts.headers.insert(&X_FORWARDED_PROTO, proto);
        }
        if let Some((Some(protocol), connection)) = &upgrade_headers {
            parts.headers.insert(header::UPGRADE, protocol.clone());
            parts.headers.insert(header::CONNECTION, connection.clone());
        } else if !upstream.keepalive() {
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
        Ok((Request::from_parts(parts, body), upgrade))
    }

    /// Phase 5, the exchange: a server of the group, a connection, the response head.
    async fn send<'proxy>(
        &self,
        upstream: &'proxy Upstream,
        upstream_request: Request<RequestBody>,
        record: &mut Record<'proxy>,
    ) -> Result<Response<UpstreamBody>, ProxyError> {
        let sent = Instant::now();
        record.upstream_name = Some(upstream.name());
        let response = upstream.send(upstream_request).await?;
        let upstream_addr = self
            .access_log
            .as_ref()
            .and_then(|_| response.body().upstream_addr().map(ToString::to_string));
        record.upstream = Some((upstream_addr, sent.elapsed()));
        Ok(response)
    }

    /// Phase 6, the response: a WebSocket handshake the upstream took becomes a tunnel (the
    /// client connection runs it once the `101` is written); any other response loses its
    /// hop-by-hop headers, gains the limit headers and, when the route buffers responses, is
    /// read ahead of the client.
    fn response(
        &self,
        route: &Route,
        upstream: &Upstream,
        upgrade: bool,
        limited: Option<&limits::Decided<'_>>,
        mut response: Response<UpstreamBody>,
    ) -> Response<Body> {
        let upgraded = (upgrade && response.status() == StatusCode::SWITCHING_PROTOCOLS)
            .then(|| response.body_mut().take_upgraded())
            .flatten();
        if let Some(upgraded) = upgraded {
            let tunnel = crate::tunnel::Upgrade::new(
                upgraded,
                upstream.read_timeout(),
                self.closing.subscribe(),
            );
            let (mut parts, _) = response.into_parts();
            let protocol = parts.headers.get(header::UPGRADE).cloned();
            remove_hop_by_hop(&mut parts.headers);
            if let Some(protocol) = protocol {
                parts.headers.insert(header::UPGRADE, protocol);
            }
            parts
                .headers
                .insert(header::CONNECTION, HeaderValue::from_static("upgrade"));
            parts.extensions.insert(tunnel);
            return Response::from_parts(parts, Body::empty());
        }
        let (mut parts, body) = response.into_parts();
        remove_hop_by_hop(&mut parts.headers);
        if let Some(limited) = limited {
            limited.add_headers(&mut parts.headers);
        }
        let body = if route.response_buffering {
            buffering::read_ahead(body, &self.buffers)
        } else {
            Body::Upstream(body)
        };
        Response::from_parts(parts, body)
    }
}

impl Route {
    /// Phase 3, the route's rate limits: a rejection is an error, before any upstream work.
    async fn check_limits<B>(
        &self,
        client_ip: IpAddr,
        path: &str,
        request: &Request<B>,
    ) -> Result<Option<limits::Decided<'_>>, ProxyError> {
        match &self.limits {
            Some(limits) => limits.check(client_ip, path, request).await,
            None => Ok(None),
        }
    }

    /// A static route answers from its directory, by the path below the route's prefix.
    async fn serve_static<B>(
        &self,
        dir: &StaticDir,
        path: &str,
        request: &Request<B>,
    ) -> Result<Response<Body>, ProxyError> {
        let below = &path[self.prefix_len.min(path.len())..];
        let below = if below.starts_with('/') {
            below.to_string()
        } else {
            format!("/{below}")
        };
        let response = dir
            .serve(request.method(), &below, request.headers())
            .await?;
        Ok(response.map(Body::boxed))
    }
}
