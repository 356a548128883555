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
use std::time::Duration;

use http::header::{self, HeaderMap, HeaderName, HeaderValue};
use http::{Method, Request, Response, StatusCode, Uri, Version};
use tokio::time::Instant;

use crate::access_log::{AccessLog, Entry};
use crate::body::{Body, ClientBody, RequestBody};
use crate::buffering::{self, Buffers};
use crate::compression;
use crate::config::{CompressionConfig, Config, KeyPart, LimitHeaders};
use crate::error::ProxyError;
use crate::metrics::Metrics;
use crate::ratelimit::{Decision, Limiter, Limiters, Outcome};
use crate::realip::RealIp;
use crate::routing::Router;
use crate::server::ServerError;
use crate::static_files::StaticDir;
use crate::upstream::Upstream;

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

/// The limits a route applies, and how to build each one's key.
struct RouteLimits {
    set: Limiters,
    keys: Vec<Vec<KeyPart>>,
    /// Each limit's `RateLimit-Policy` value, which never changes, made once.
    policies: Vec<std::sync::OnceLock<HeaderValue>>,
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
/// Rejections are logged at most once a second per limit, so a flood does not flood the log.
static REJECTED: crate::logging::Throttle = crate::logging::Throttle::new(1);

static X_FORWARDED_FOR: HeaderName = HeaderName::from_static("x-forwarded-for");
static X_REAL_IP: HeaderName = HeaderName::from_static("x-real-ip");
static X_FORWARDED_PROTO: HeaderName = HeaderName::from_static("x-forwarded-proto");
static KEEP_ALIVE: HeaderName = HeaderName::from_static("keep-alive");
static PROXY_CONNECTION: HeaderName = HeaderName::from_static("proxy-connection");
static RATELIMIT_POLICY: HeaderName = HeaderName::from_static("ratelimit-policy");
static RATELIMIT: HeaderName = HeaderName::from_static("ratelimit");
static X_RATELIMIT_LIMIT: HeaderName = HeaderName::from_static("x-ratelimit-limit");
static X_RATELIMIT_REMAINING: HeaderName = HeaderName::from_static("x-ratelimit-remaining");
static X_RATELIMIT_RESET: HeaderName = HeaderName::from_static("x-ratelimit-reset");

impl Proxy {
    /// Builds the routes, upstream pools and limiters. Must run inside a tokio runtime.
    /// `thread_affine`: one runtime per core shares this proxy (see
    /// [`crate::upstream::PoolSettings::thread_affine`]).
    pub fn new(config: &Config, thread_affine: bool) -> Result<Proxy, ServerError> {
        Proxy::build(config, thread_affine, None)
    }

    /// The proxy of a reloaded `config`, keeping what did not change from `old`: an upstream
    /// whose table is the same keeps its pools (no reconnect storm), a limit whose table is the
    /// same keeps its state (a client over its limit stays over it), and the access log and
    /// metrics are kept when their settings and routes are the same.
    pub fn reload(config: &Config, old: &Proxy) -> Result<Proxy, ServerError> {
        Proxy::build(config, old.thread_affine, Some(old))
    }

    fn build(
        config: &Config,
        thread_affine: bool,
        old: Option<&Proxy>,
    ) -> Result<Proxy, ServerError> {
        let upstreams: Vec<Arc<Upstream>> = config
            .upstreams
            .iter()
            .map(|(name, upstream)| {
                old.filter(|old| old.config.upstreams.get(name) == Some(upstream))
                    .and_then(|old| old.upstreams.iter().find(|u| u.name() == name))
                    .map_or_else(
                        || Arc::new(Upstream::new(name, upstream, thread_affine)),
                        Arc::clone,
                    )
            })
            .collect();
        let mut fresh = Vec::new();
        let mut limiters: Vec<Arc<Limiter>> = Vec::with_capacity(config.limits.len());
        for (name, limit) in &config.limits {
            let kept = old
                .filter(|old| old.config.limits.get(name) == Some(limit))
                .and_then(|old| old.limiters.iter().find(|l| l.name() == name));
            match kept {
                Some(limiter) => limiters.push(Arc::clone(limiter)),
                None => {
                    let limiter = Arc::new(Limiter::new(name, limit).map_err(ServerError::Limit)?);
                    fresh.push(Arc::downgrade(&limiter));
                    limiters.push(limiter);
                }
            }
        }
        // Kept limiters already have their reclaim task.
        if !fresh.is_empty() {
            tokio::spawn(reclaim_idle_keys(fresh));
        }
        let mut routes = Vec::with_capacity(config.routes.len());
        for (index, route) in config.routes.iter().enumerate() {
            let target = match (&route.static_root, &route.answer) {
                (None, Some(answer)) => {
                    Target::Answer(crate::answer::Answer::new(answer, route.host.as_deref()))
                }
                (Some(root), _) => {
                    Target::Static(StaticDir::new(root).map_err(|source| ServerError::Static {
                        path: root.clone(),
                        source,
                    })?)
                }
                (None, None) => {
                    // Validation guarantees every route names a defined upstream.
                    let Some(upstream) = upstreams.iter().find(|u| u.name() == route.upstream)
                    else {
                        continue;
                    };
                    Target::Upstream(Arc::clone(upstream))
                }
            };
            let limits = if route.limits.is_empty() {
                None
            } else {
                let chosen: Vec<Arc<Limiter>> = route
                    .limits
                    .iter()
                    .filter_map(|name| limiters.iter().find(|l| l.name() == name).cloned())
                    .collect();
                let keys = chosen.iter().map(|l| l.config().key.clone()).collect();
                let policies = chosen.iter().map(|_| std::sync::OnceLock::new()).collect();
                Some(RouteLimits {
                    set: Limiters::new(chosen),
                    keys,
                    policies,
                })
            };
            routes.push((
                route.host.clone(),
                route.path_match(),
                Route {
                    index,
                    target,
                    prefix_len: route.path.len(),
                    limits,
                    request_buffering: route.request_buffering,
                    response_buffering: route.response_buffering,
                },
            ));
        }
        let kept_buffers = old
            .filter(|old| {
                old.config.server.spool_dir == config.server.spool_dir
                    && old.config.server.max_spool_size == config.server.max_spool_size
            })
            .map(|old| Arc::clone(&old.buffers));
        let buffers = match kept_buffers {
            Some(buffers) => buffers,
            None => Arc::new(
                Buffers::new(
                    config.server.spool_dir.as_deref(),
                    config.server.max_spool_size,
                )
                .map_err(|source| ServerError::Spool {
                    path: config
                        .server
                        .spool_dir
                        .clone()
                        .unwrap_or_else(buffering::default_spool_dir),
                    source,
                })?,
            ),
        };
        let kept_log = old
            .filter(|old| old.config.access_log == config.access_log)
            .and_then(|old| old.access_log.clone());
        let access_log = match kept_log {
            Some(access_log) => Some(access_log),
            None if config.access_log.enabled => Some(Arc::new(
                AccessLog::open(&config.access_log).map_err(ServerError::AccessLog)?,
            )),
            None => None,
        };
        let route_labels: Vec<String> = config
            .routes
            .iter()
            .map(|route| format!("{}{}", route.host.as_deref().unwrap_or(""), route.path))
            .collect();
        let metrics = old
            .filter(|old| old.metrics.routes() == route_labels.as_slice())
            .map_or_else(
                || Arc::new(Metrics::new(route_labels)),
                |old| Arc::clone(&old.metrics),
            );
        Ok(Proxy {
            router: Router::new(routes),
            upstreams,
            limiters,
            max_body_size: config.server.max_body_size,
            buffers,
            body_timeout: config.server.body_timeout,
            underscores_in_headers: config.server.underscores_in_headers,
            server_header: config
                .server
                .server_header
                .as_deref()
                .and_then(|value| HeaderValue::from_str(value).ok()),
            access_log,
            metrics,
            real_ip: RealIp::from_config(&config.server),
            compression: config.compression.clone(),
            closing: old.map_or_else(
                || Arc::new(tokio::sync::watch::Sender::new(false)),
                |old| Arc::clone(&old.closing),
            ),
            thread_affine,
            hsts: config
                .tls
                .as_ref()
                .and_then(|tls| tls.hsts.as_deref())
                .and_then(|value| HeaderValue::from_str(value).ok()),
            redirect_http: config
                .tls
                .as_ref()
                .filter(|tls| tls.redirect_http)
                .and_then(|tls| tls.listen.first())
                .map(SocketAddr::port),
            config: config.clone(),
        })
    }

    /// Closes every upgraded connection (WebSocket tunnel) still open: the end of the shutdown
    /// grace.
    pub fn close_tunnels(&self) {
        self.closing.send_replace(true);
    }

    /// Counts and logs an answer the HTTP layer gave before a request reached [`Proxy::handle`]
    /// (a malformed or too large head, a head not received in time).
    pub fn record_refused(&self, peer: SocketAddr, status: StatusCode) {
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
        let mut response = match exchanged {
            Ok(response) => response,
            Err(error) => {
                if let (crate::error::Side::Upstream, Some(upstream)) =
                    (error.side(), record.upstream_name)
                {
                    self.metrics
                        .record_upstream_failure(upstream, error.cause());
                }
                match error.side() {
                    crate::error::Side::Upstream => {
                        if let Some(suppressed) = UPSTREAM_FAILED.admit(error.cause()) {
                            tracing::warn!(client = %client_ip, cause = error.cause(), suppressed, %error, "upstream failed");
                        }
                    }
                    _ => {
                        tracing::debug!(client = %client_ip, cause = error.cause(), %error, "request refused")
                    }
                }
                error.response()
            }
        };
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

    async fn exchange<'proxy>(
        &'proxy self,
        client: ClientInfo,
        client_ip: IpAddr,
        request: Request<ClientBody>,
        record: &mut Record<'proxy>,
    ) -> Result<Response<Body>, ProxyError> {
        // Phase 1: request checks.
        if let Some(length) = content_length(request.headers())? {
            if self.max_body_size != 0 && length > self.max_body_size {
                return Err(ProxyError::BodyTooLarge {
                    limit: self.max_body_size,
                });
            }
        }

        let host = request_host(&request)?;
        // ACME http-01 challenges (certbot --webroot renewals) must be answered over plain
        // HTTP: they are routed as usual, as nginx's port-80 server keeps a location for them.
        let acme = request
            .uri()
            .path()
            .starts_with("/.well-known/acme-challenge/");
        if let (None, Some(port), false) = (&client.tls, self.redirect_http, acme) {
            return Ok(crate::answer::https_redirect(host, port, request.uri()));
        }
        let path = crate::path::normalize(request.uri().path())
            .map_err(|error| ProxyError::BadPath { error })?;

        // Phase 2: route, by the normalised path.
        let route = self.router.find(host, &path).ok_or(ProxyError::NoRoute)?;
        record.route = Some(route.index);

        // Phase 3: rate limits. A rejection is answered here, before any upstream work.
        let mut limit_headers = None;
        if let Some(limits) = &route.limits {
            let keys = limit_keys(limits, client_ip, &path, &request);
            let key_slices: Vec<&[u8]> = keys.iter().map(Vec::as_slice).collect();
            let decision = match limits.set.try_check(&key_slices) {
                Some(decision) => decision,
                None => limits.set.check(&key_slices).await,
            };
            if let Some(index) = decision.limit {
                if let Some(limiter) = limits.set.get(index) {
                    if decision.is_rejected() {
                        if tracing::enabled!(tracing::Level::DEBUG) {
                            if let Some(suppressed) = REJECTED.admit(limiter.name()) {
                                tracing::debug!(client = %client_ip, limit = limiter.name(), suppressed, "request rejected by a rate limit");
                            }
                        }
                        let status = limiter.config().status;
                        let mut response = crate::error::status_response(status);
                        let policy = &limits.policies[index];
                        add_limit_headers(response.headers_mut(), limiter, &decision, policy);
                        return Ok(response);
                    }
                    limit_headers = Some((Arc::clone(limiter), decision, &limits.policies[index]));
                }
            }
            if let Some(delay) = decision.delay() {
                // A client that goes away meanwhile drops this future: the guard then gives its
                // place back, as nginx does.
                let refund = RefundOnDrop {
                    limits: &limits.set,
                    keys: &key_slices,
                    armed: true,
                };
                tokio::time::sleep(delay).await;
                refund.disarm();
            }
        }

        let upstream = match &route.target {
            Target::Static(dir) => {
                let below = &path[route.prefix_len.min(path.len())..];
                let below = if below.starts_with('/') {
                    below.to_string()
                } else {
                    format!("/{below}")
                };
                let response = dir.serve(request.method(), &below, request.headers()).await;
                return Ok(response.map(Body::boxed));
            }
            Target::Answer(answer) => {
                // Over HTTP/2 the host is the `:authority`, which `request_host` took.
                let host = request
                    .headers()
                    .get(header::HOST)
                    .and_then(|value| value.to_str().ok())
                    .or(host);
                return Ok(answer.respond(host, request.uri(), client.tls.is_some()));
            }
            Target::Upstream(upstream) => upstream,
        };

        // Phase 4: the upstream request. Only a bodiless GET asking for WebSocket is an upgrade;
        // any other `Upgrade` (h2c included) is dropped with the hop-by-hop headers, so such a
        // request is buffered and forwarded as any other.
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
        let upstream_request = Request::from_parts(parts, body);

        // Phase 5: the exchange.
        let sent = Instant::now();
        record.upstream_name = Some(upstream.name());
        let mut response = upstream.send(upstream_request).await?;
        let upstream_addr = self
            .access_log
            .as_ref()
            .and_then(|_| response.body().upstream_addr().map(ToString::to_string));
        record.upstream = Some((upstream_addr, sent.elapsed()));

        // Phase 6: the response.
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
            return Ok(Response::from_parts(parts, Body::empty()));
        }
        let (mut parts, body) = response.into_parts();
        remove_hop_by_hop(&mut parts.headers);
        if let Some((limiter, decision, policy)) = limit_headers {
            add_limit_headers(&mut parts.headers, &limiter, &decision, policy);
        }
        let body = if route.response_buffering {
            buffering::read_ahead(body, &self.buffers)
        } else {
            Body::Upstream(body)
        };
        Ok(Response::from_parts(parts, body))
    }
}

/// Every minute, gives the memory of keys idle long enough to be at full quota back, as nginx
/// frees idle `limit_req` nodes; stops when the gateway is gone.
async fn reclaim_idle_keys(limiters: Vec<std::sync::Weak<Limiter>>) {
    loop {
        tokio::time::sleep(Duration::from_secs(60)).await;
        let mut alive = false;
        for limiter in limiters.iter().filter_map(std::sync::Weak::upgrade) {
            alive = true;
            limiter.reclaim_idle();
        }
        if !alive {
            return;
        }
    }
}

/// Whether the request is a WebSocket handshake (RFC 6455 §4.1): a `GET` without a body whose
/// `Upgrade` names `websocket` and whose `Connection` names `upgrade`. Nothing else is tunnelled.
fn is_websocket_upgrade(request: &Request<ClientBody>) -> bool {
    let headers = request.headers();
    let names = |name: header::HeaderName, token: &str| {
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

/// The host a request names, checked as RFC 9112 §3.2 requires: more than one `Host`, or an
/// invalid one, is 400; so is an HTTP/1.1 request with none. In absolute form the target's
/// authority wins over `Host`. Generic over the body, which it never reads, and public, so that
/// the fuzz targets in fuzz/ can call it.
pub fn request_host<B>(request: &Request<B>) -> Result<Option<&str>, ProxyError> {
    let mut hosts = request.headers().get_all(header::HOST).iter();
    let first = hosts.next();
    if hosts.next().is_some() {
        return Err(ProxyError::BadRequest {
            reason: "more than one Host header",
        });
    }
    let header_host = match first {
        None => None,
        Some(value) => Some(
            value
                .to_str()
                .ok()
                .filter(|host| is_valid_host(host))
                .ok_or(ProxyError::BadRequest {
                    reason: "invalid Host header",
                })?,
        ),
    };
    if let Some(authority) = request.uri().authority() {
        // Held to what a `Host` may be: userinfo (`user@`), which an http(s) target must not
        // carry (RFC 9110 §4.2.4), would otherwise reach the app as its host.
        if !is_valid_host(authority.as_str()) {
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
/// numeric port.
fn is_valid_host(host: &str) -> bool {
    let (name, port) = if let Some(literal) = host.strip_prefix('[') {
        let Some(end) = literal.find(']') else {
            return false;
        };
        let inside = &literal[..end];
        if inside.is_empty()
            || !inside
                .bytes()
                .all(|byte| byte.is_ascii_hexdigit() || matches!(byte, b':' | b'.'))
        {
            return false;
        }
        ("[]", &literal[end + 1..])
    } else {
        // Brackets belong to an IP literal only (the "[]" above stands for one below).
        if host.contains(['[', ']']) {
            return false;
        }
        match host.find(':') {
            Some(colon) => (&host[..colon], &host[colon..]),
            None => (host, ""),
        }
    };
    let port_ok = match port.strip_prefix(':') {
        Some(digits) => digits.len() <= 5 && digits.bytes().all(|byte| byte.is_ascii_digit()),
        None => port.is_empty(),
    };
    !name.is_empty()
        && port_ok
        && name.bytes().all(|byte| {
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
                        | b'['
                        | b']'
                )
        })
}

/// Drops request headers whose names hold an underscore, as nginx does while
/// `underscores_in_headers` is off: WSGI servers map `X-Real_IP` and `X-Real-IP` to one environ
/// key, so such a header could pass for one weir sets.
fn drop_underscored_headers(headers: &mut HeaderMap) {
    if !headers.keys().any(|name| name.as_str().contains('_')) {
        return;
    }
    let underscored: Vec<HeaderName> = headers
        .keys()
        .filter(|name| name.as_str().contains('_'))
        .cloned()
        .collect();
    for name in underscored {
        headers.remove(name);
    }
}

/// Each limit's key for this request, in the route's order.
fn limit_keys(
    limits: &RouteLimits,
    client_ip: IpAddr,
    path: &str,
    request: &Request<ClientBody>,
) -> Vec<Vec<u8>> {
    limits
        .keys
        .iter()
        .zip(limits.set.iter())
        .map(|(parts, limiter)| {
            build_key(
                parts,
                limiter.config().ipv6_prefix,
                client_ip,
                path,
                request,
            )
        })
        .collect()
}

/// Refunds a delayed request's charge unless it reached the end of its delay.
struct RefundOnDrop<'a> {
    limits: &'a Limiters,
    keys: &'a [&'a [u8]],
    armed: bool,
}

impl RefundOnDrop<'_> {
    fn disarm(mut self) {
        self.armed = false;
    }
}

impl Drop for RefundOnDrop<'_> {
    fn drop(&mut self) {
        if self.armed {
            self.limits.refund(self.keys);
        }
    }
}

/// A limit's key: its parts joined by a NUL byte; empty when every part is empty (such a key is
/// not limited, as nginx skips an empty key). Addresses are their 4 or 16 bytes, IPv6 ones cut to
/// the limit's `ipv6_prefix`. `path` is the normalised path, so every spelling of one path shares
/// a bucket. Generic over the body, which it never reads, and public, so that the fuzz targets in
/// fuzz/ can call it.
pub fn build_key<B>(
    parts: &[KeyPart],
    ipv6_prefix: u8,
    client_ip: IpAddr,
    path: &str,
    request: &Request<B>,
) -> Vec<u8> {
    let mut key = Vec::with_capacity(24);
    let mut any = false;
    for (position, part) in parts.iter().enumerate() {
        if position > 0 {
            key.push(0);
        }
        match part {
            KeyPart::ClientIp => {
                any = true;
                match crate::ratelimit::client_ip_key(client_ip, ipv6_prefix) {
                    IpAddr::V4(ip) => key.extend_from_slice(&ip.octets()),
                    IpAddr::V6(ip) => key.extend_from_slice(&ip.octets()),
                }
            }
            KeyPart::Path => {
                any = true;
                key.extend_from_slice(path.as_bytes());
            }
            KeyPart::Header(name) => {
                if let Some(value) = request.headers().get(name) {
                    if !value.is_empty() {
                        any = true;
                        key.extend_from_slice(value.as_bytes());
                    }
                }
            }
        }
    }
    if !any {
        key.clear();
    }
    key
}

/// The rate-limit headers of `decision`, in the limit's chosen style; `Retry-After` on rejections.
fn add_limit_headers(
    headers: &mut HeaderMap,
    limiter: &Limiter,
    decision: &Decision,
    policy: &std::sync::OnceLock<HeaderValue>,
) {
    if let Some(retry_after) = decision.retry_after {
        if matches!(decision.outcome, Outcome::Rejected) {
            headers.insert(
                header::RETRY_AFTER,
                number_value(ceil_seconds(retry_after).max(1)),
            );
        }
    }
    match limiter.config().headers {
        LimitHeaders::Off => {}
        LimitHeaders::Draft10 => {
            let name = limiter.name();
            let policy = policy.get_or_init(|| {
                let text = format!(
                    "\"{name}\";q={};w={}",
                    decision.quota,
                    ceil_seconds(decision.window).max(1)
                );
                HeaderValue::from_str(&text).unwrap_or_else(|_| HeaderValue::from_static(""))
            });
            if !policy.is_empty() {
                headers.insert(&RATELIMIT_POLICY, policy.clone());
            }
            let state = format!(
                "\"{name}\";r={};t={}",
                decision.remaining,
                ceil_seconds(decision.replenish_after)
            );
            if let Ok(value) = HeaderValue::from_str(&state) {
                headers.insert(&RATELIMIT, value);
            }
        }
        LimitHeaders::Legacy => {
            headers.insert(&X_RATELIMIT_LIMIT, number_value(decision.quota));
            headers.insert(&X_RATELIMIT_REMAINING, number_value(decision.remaining));
            headers.insert(
                &X_RATELIMIT_RESET,
                number_value(ceil_seconds(decision.reset_after)),
            );
        }
    }
}

/// A header value holding `number`; the small ones, which rejections use all the time, are made
/// once and shared.
fn number_value(number: u64) -> HeaderValue {
    static SMALL: std::sync::OnceLock<Vec<HeaderValue>> = std::sync::OnceLock::new();
    let small = SMALL.get_or_init(|| (0..=120u64).map(HeaderValue::from).collect());
    usize::try_from(number)
        .ok()
        .and_then(|index| small.get(index))
        .cloned()
        .unwrap_or_else(|| HeaderValue::from(number))
}

/// Whole seconds, rounded up.
fn ceil_seconds(duration: Duration) -> u64 {
    let seconds = duration.as_secs();
    if duration.subsec_nanos() > 0 {
        seconds + 1
    } else {
        seconds
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

#[cfg(test)]
mod tests;
