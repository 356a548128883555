//! One request's phases, in order, and nothing else. [`Proxy::handle`] frames them (the client
//! address, the 499 guard, the one error exit, what every answer gets, the logging exit);
//! `exchange` runs them, one line each:
//!
//! 1. request checks (`checks.rs`): one `Content-Length`, one valid host, a path that
//!    normalises (400);
//! 2. route: listener + host + normalised path -> route, in nginx's order; then the
//!    `Content-Length` within `max_body_size` (413 before any upstream work, as nginx checks
//!    `client_max_body_size` once the location is found); 404 when no route, or when it is
//!    internal;
//! 3. rate limits (`limits.rs`): reject (the limit's status and headers), delay, or pass; a
//!    static or answering route then answers by itself;
//! 4. upstream request: the head rewritten (`forward.rs`, with `headers.rs`), the body buffered
//!    or streamed;
//! 5. exchange: pool checkout, send, response head (502/503/504 on failure);
//! 6. response (`response.rs`): a WebSocket tunnel, or hop-by-hop headers out, limit headers
//!    in, read-ahead; or an `X-Accel-Redirect` followed (`accel.rs`): the target routed again,
//!    internal routes included.
//!
//! Every phase's error leaves by `?` and becomes its answer in one place, `error.rs`; every
//! answer then gets what `response.rs` gives all answers, and every request, answered or not,
//! leaves by the logging exit (`logging.rs`). Building the proxy from a config, and rebuilding
//! it on reload, is `build.rs`.

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use http::Method;
use tokio::time::Instant;

use crate::body::Body;
use crate::buffering::{self, Buffers};
use crate::compression;
use crate::config::{Config, LimitRate};
use crate::error::{CodecError, ProxyError, Side};
use crate::head_view::{Request, Response};
use crate::metrics::Metrics;
use crate::ratelimit::Limiter;
use crate::realip::RealIp;
use crate::request_body::{ClientBody, RequestBody};
use crate::routing::{Found, Lookup, Router};
use crate::static_files::StaticDir;
use crate::upstream::{self, Upstream, UpstreamBody};

mod accel;
mod auth;
mod auth_request;
mod build;
pub use build::BuildError;
mod checks;
mod forward;
mod headers;
mod limits;
mod logging;
mod response;
mod rules;

use checks::drop_underscored_headers;
pub use checks::request_host;
#[doc(hidden)]
pub use forward::forwarded_head;
use headers::is_websocket_upgrade;
use limits::RouteLimits;
pub use limits::{build_key, LimitKey};
pub use logging::CLIENT_CLOSED;
use logging::{Logging, Record};
use response::{Asked, Outgoing, Shaping};

/// What a route leads to.
pub struct Route {
    /// The route's position in the config, for metrics.
    pub index: usize,
    pub target: Target,
    /// Length of the route's path prefix, stripped for static files and replaced by
    /// `upstream_path`.
    prefix_len: usize,
    /// `upstream_path`: what replaces the prefix in the path sent upstream.
    upstream_path: Option<Box<str>>,
    /// A route's one file (its `static` names a file): its name below the directory.
    static_file: Option<String>,
    limits: Option<RouteLimits>,
    /// `connection_limits`: a place under each, taken after `limits`.
    conn_limits: Option<limits::RouteConnLimits>,
    request_buffering: bool,
    response_buffering: bool,
    /// `dotfiles`: a static route serves paths with a segment starting with `.`.
    dotfiles: bool,
    /// `fallback_upstream` / `fallback_file`: a static route's missing file.
    fallback: Option<Fallback>,
    /// `read_timeout`: the route's own, over its upstream's.
    read_timeout: Option<Duration>,
    /// `cache`: the route's kept answers and what it keeps.
    cache: Option<Box<RouteCache>>,
    /// `try_suffixes`: what a static route appends to a path that names no file, in order.
    try_suffixes: Box<[Box<str>]>,
    /// `priority`: the class of the route's requests in a full upstream's queue.
    priority: crate::config::Priority,
    /// `priority_header`: a header that may set the class (see [`Route::priority_of`]).
    priority_header: Option<http::HeaderName>,
    /// `methods`: the methods the route takes, and its `Allow` value; `None`: every method.
    methods: Option<Box<(Vec<http::Method>, Arc<str>)>>,
    /// `answer_options`: weir's answer to an `OPTIONS` request.
    answer_options: Option<Box<crate::config::OptionsAnswer>>,
}

/// An answer that carries headers of its own (`answer_options`'): the route's
/// `response_headers` are not added to it, as nginx's `add_header` inside an `if` replaces the
/// location's.
#[derive(Clone, Copy)]
struct OwnHeaders;

/// What an answer of weir's own reads of a request besides the request itself.
struct Asking<'a> {
    client: &'a ClientInfo,
    client_ip: IpAddr,
    /// The request's host, as checked.
    host: Option<&'a str>,
    /// The normalised path.
    path: &'a str,
}

/// A route's `cache`: the store (one for all routes) and the route's keys.
struct RouteCache {
    cache: Arc<crate::cache::Cache>,
    /// `cache` and `cache_stale`.
    times: crate::cache::Times,
    /// `cache_statuses`: the statuses kept besides 200, 301 and 302 (or for another time).
    statuses: Box<[(u16, Duration)]>,
    /// `cache_pass_cookies`; `None`: any cookie passes.
    pass_cookies: Option<Box<[Box<str>]>>,
    /// `cache_background_update`.
    background_update: bool,
}

/// An update weir makes in the background takes its filler into its record (once); whether it
/// had one.
fn refill(record: &mut Record<'_>) -> bool {
    let Some(filler) = crate::cache::background_filler() else {
        return false;
    };
    let rare = record.rare();
    rare.filler = Some(filler);
    rare.cache_status = "EXPIRED";
    true
}

impl RouteCache {
    /// The request's key and whether it may fill it (a `GET`), or, when it passes the cache,
    /// its `$upstream_cache_status`: empty for a method other than `GET` or `HEAD`, `BYPASS`
    /// for a request with `Authorization` or a cookie that passes.
    fn key_of<B>(
        &self,
        route: usize,
        request: &Request<B>,
        host: &str,
        secure: bool,
    ) -> Result<(String, bool), &'static str> {
        let fill = match *request.method() {
            Method::GET => true,
            Method::HEAD => false,
            _ => return Err(""),
        };
        let headers = request.headers();
        if headers.contains(http::header::AUTHORIZATION) {
            return Err("BYPASS");
        }
        let passes = match &self.pass_cookies {
            None => headers.contains(http::header::COOKIE),
            Some(names) => names.iter().any(|name| {
                headers.get_all(http::header::COOKIE).any(|cookies| {
                    cookies.split(|&byte| byte == b';').any(|pair| {
                        let pair = pair.trim_ascii_start();
                        pair.strip_prefix(name.as_bytes())
                            .is_some_and(|rest| rest.trim_ascii_start().starts_with(b"="))
                    })
                })
            }),
        };
        if passes {
            return Err("BYPASS");
        }
        let target = request
            .uri()
            .path_and_query()
            .map_or("/", |target| target.as_str());
        let scheme = if secure { "https" } else { "http" };
        // What the app may build its links from besides the host: a client's forwarded host
        // and scheme (kept when it sends them, or from a trusted proxy) are in the key, so that
        // no client's value is kept for another's answer.
        let forwarded = |name: &str| {
            headers
                .get(name)
                .map(String::from_utf8_lossy)
                .unwrap_or_default()
        };
        let (forwarded_host, forwarded_proto) = (
            forwarded("x-forwarded-host"),
            forwarded("x-forwarded-proto"),
        );
        Ok((
            format!("{route} {scheme} {host} {forwarded_proto} {forwarded_host} {target}"),
            fill,
        ))
    }

    /// A kept answer for the request, or its part in filling one, and its
    /// `$upstream_cache_status` (kept in its record, and counted at the exit).
    async fn find<B>(
        &self,
        route: usize,
        request: &Request<B>,
        host: &str,
        secure: bool,
        record: &mut Record<'_>,
    ) -> Option<Response<Body>> {
        let (key, fill) = match self.key_of(route, request, host, secure) {
            Ok(keyed) => keyed,
            Err("") => return None,
            Err(status) => {
                record.rare().cache_status = status;
                return None;
            }
        };
        // Waiting for other requests' filling: at most LOCK_WAIT in all.
        let mut deadline = None;
        let (kept, status) = loop {
            match self.cache.find(&key, fill, self.times, request.headers()) {
                crate::cache::Found::Hit(answer) => break (Some(answer), "HIT"),
                crate::cache::Found::Updating(answer) => break (Some(answer), "UPDATING"),
                crate::cache::Found::Fill(filler) => {
                    let status = if filler.expired() { "EXPIRED" } else { "MISS" };
                    record.rare().filler = Some(filler);
                    break (None, status);
                }
                crate::cache::Found::Pass => break (None, "MISS"),
                crate::cache::Found::Wait(filling) => {
                    let until = *deadline.get_or_insert_with(|| {
                        tokio::time::Instant::now() + crate::cache::LOCK_WAIT
                    });
                    if tokio::time::Instant::now() >= until {
                        break (None, "MISS");
                    }
                    let waited = self
                        .cache
                        .find_after_wait(&key, filling, request.headers(), until)
                        .await;
                    // Nothing it fits was kept (another variant was filled, or the filling
                    // ended without an answer): it looks again, and may fill the key itself.
                    if let Some((answer, status)) = waited {
                        break (Some(answer), status);
                    }
                }
            }
        };
        record.rare().cache_status = status;
        kept.map(|answer| answer.response_to(request.headers()))
    }
}

/// `cache_stale`: a request that filled its route's cache and got no answer from its upstream
/// gets the expired one, while it may be served so (`STALE`).
fn stale_instead(error: &ProxyError, record: &mut Record<'_>) -> Option<Response<Body>> {
    if !error.unanswered_upstream() {
        return None;
    }
    let stale = record.take_filler()?.stale(None)?;
    record.rare().cache_status = "STALE";
    Some(stale)
}

/// What a static route does with a missing file (nginx `try_files $uri ...`).
enum Fallback {
    /// `try_files $uri @app`: the request goes upstream.
    Upstream(Arc<Upstream>),
    /// `try_files $uri /index.html`: this path below the route's directory is served.
    File(String),
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
    /// The proxy itself, for the updates it makes in the background; empty until
    /// [`Proxy::shared`] (a proxy not shared so updates in the foreground).
    me: std::sync::Weak<Proxy>,
    router: Router<Route>,
    upstreams: Vec<Arc<Upstream>>,
    limiters: Vec<Arc<Limiter>>,
    /// The `[connection_limits.NAME]` tables, in name order.
    conn_limits: Vec<Arc<crate::ratelimit::ConnLimit>>,
    max_body_size: u64,
    /// The request spool and the read-ahead budget.
    buffers: Arc<Buffers>,
    body_timeout: Duration,
    underscores_in_headers: bool,
    /// The metrics and the access log: the logging exit's.
    logging: Logging,
    real_ip: RealIp,
    /// What every answer gets.
    outgoing: Outgoing,
    /// Set once the shutdown grace has run out: upgraded connections still open then are closed.
    /// Shared by every generation of a reloaded proxy.
    closing: Arc<tokio::sync::watch::Sender<bool>>,
    thread_affine: bool,
    /// `[tls] redirect_http`: the port of the HTTPS redirect target (`None`: no redirect).
    redirect_http: Option<u16>,
    /// Whether an upstream's `X-Accel-Redirect` is followed: the config has an internal route.
    accel_redirect: bool,
    /// `limit_rate` by route index; empty when no route has one.
    limit_rates: Box<[Option<LimitRate>]>,
    /// The routes' `cache`, when some route has one.
    cache: Option<Arc<crate::cache::Cache>>,
    /// The config this proxy was built from, to tell on reload what changed.
    config: Config,
    /// The routes' and hosts' header and access rules.
    rules: rules::Rules,
}

/// What the proxy knows of the client connection a request came on.
#[derive(Debug, Clone)]
pub struct ClientInfo {
    pub peer: SocketAddr,
    /// Whether this is the last request the connection may carry (`keepalive_requests`).
    pub last_request: bool,
    /// The TLS connection the request came on; `None` on a plain listener.
    pub tls: Option<Arc<crate::tls::TlsInfo>>,
    /// The listener it was accepted on (its configured address), for routes bound to listeners.
    pub listener: crate::routing::Listener,
}

/// Upstream failures are logged at most a few times a second per cause.
static UPSTREAM_FAILED: crate::logging::Throttle = crate::logging::Throttle::new(5);
impl Proxy {
    /// The proxy, shared by the connections that serve its requests, and by the updates it
    /// makes in the background.
    pub fn shared(self) -> Arc<Proxy> {
        Arc::new_cyclic(|me| Proxy {
            me: me.clone(),
            ..self
        })
    }

    /// `cache_background_update`: a request that found its key's answer expired, and is to
    /// fill it, gets the expired answer (`STALE`) while it may be served so; a request of
    /// weir's own, its head's copy without body, fills the key in the background with the
    /// request's filler. `None`: the request fills it itself.
    fn update_in_background(
        &self,
        cache: &RouteCache,
        client: &ClientInfo,
        request: &Request<ClientBody>,
        record: &mut Record<'_>,
    ) -> Option<Response<Body>> {
        if !cache.background_update || crate::cache::updating_in_background() {
            return None;
        }
        let stale = record
            .filler()
            .filter(|filler| filler.expired())?
            .updating()?;
        let proxy = self.me.upgrade()?;
        let filler = record.take_filler()?;
        let update = Request::from_parts(request.head.clone(), ClientBody::Empty);
        let client = ClientInfo {
            last_request: false,
            ..client.clone()
        };
        tokio::spawn(crate::cache::in_background(filler, async move {
            let mut body = proxy.handle(client, update, None).await.into_body();
            // Read to its end: the answer is kept as its body comes.
            while let Some(Ok(_)) = http_body_util::BodyExt::frame(&mut body).await {}
        }));
        record.rare().cache_status = "STALE";
        Some(stale)
    }

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
        self.logging
            .refused(peer, status, ProxyError::Codec(refusal).cause());
    }

    /// The answer to a request the HTTP layer refused (400, 414, 431, 501, 505): error.rs's,
    /// with the page `[server] error_pages` names for its status, as nginx's bad request gets
    /// the `error_page` of the server that received it (no host or route is known yet).
    pub fn refused_answer(&self, refusal: CodecError) -> Response<Body> {
        let mut response = ProxyError::Codec(refusal).into_response().map(Body::full);
        if let Some(page) = self
            .rules
            .find(None, None)
            .and_then(|rules| rules.page(response.status()))
        {
            page.fill(&mut response);
        }
        response
    }

    /// The config this proxy was built from.
    pub fn config(&self) -> &Config {
        &self.config
    }

    pub fn metrics(&self) -> &Arc<Metrics> {
        &self.logging.metrics
    }

    pub fn upstreams(&self) -> &[Arc<Upstream>] {
        &self.upstreams
    }

    pub fn limiters(&self) -> &[Arc<Limiter>] {
        &self.limiters
    }

    /// The connection limits, in name order.
    pub fn conn_limits(&self) -> &[Arc<crate::ratelimit::ConnLimit>] {
        &self.conn_limits
    }

    pub fn buffers(&self) -> &Arc<Buffers> {
        &self.buffers
    }

    /// The cache's figures, when some route has `cache`.
    pub fn cache_stats(&self) -> Option<crate::cache::CacheStats> {
        self.cache.as_ref().map(|cache| cache.stats())
    }

    /// Proxies one request. Never fails: every error becomes a response.
    /// What needs no waiting is done before the future is made: not an `async fn`, whose
    /// arguments take their room twice in its future. `kept`: an HTTP/1 connection's servers
    /// of its last upstream ([`upstream::Kept`]).
    pub fn handle<'handle>(
        &'handle self,
        client: ClientInfo,
        mut request: Request<ClientBody>,
        kept: Option<&'handle mut upstream::Kept>,
    ) -> impl std::future::Future<Output = Response<Body>> + Send + 'handle {
        let started = Instant::now();
        if !self.underscores_in_headers {
            drop_underscored_headers(request.headers_mut());
        }
        let client_ip = self.real_ip.client_ip(client.peer.ip(), request.headers());
        let asked = Asked {
            is_head: request.method() == Method::HEAD,
            accepted: self
                .outgoing
                .compression
                .as_ref()
                .and_then(|config| compression::choose(request.headers(), &config.algorithms)),
            last_request: client.last_request,
            secure: client.tls.is_some(),
        };
        // The response rules' host (for a request no route matched) and variables, kept only
        // when some rule needs them.
        let rules_host = (self.rules.has_hosts() || self.rules.response_variables)
            .then(|| {
                checks::request_host(&request)
                    .ok()
                    .flatten()
                    .map(|host| rules::host_name(host).into_boxed_str())
            })
            .flatten();
        // Boxed: only some configs need them, and they are held across the exchange.
        let facts = self.rules.response_variables.then(|| {
            Box::new(rules::Facts::capture(
                &request,
                rules_host.as_deref().unwrap_or(""),
                (client.peer.port(), client.listener.port),
            ))
        });
        // Until the answer is ready, a client that leaves drops this future: the guard then
        // counts and logs the request as 499, as nginx does.
        let peer = SocketAddr::new(client_ip, client.peer.port());
        let mut unanswered = self
            .logging
            .start(peer, client.tls.as_ref(), &request, started);
        // `$request_id`, when a rule names it: one id for the request's headers and its answer's.
        if self.rules.request_id {
            unanswered.record.rare().request_id = Some(crate::request_id::RequestId::next());
        }
        // The client's address is read from the guard, which holds it (a copy beside it took 17
        // bytes more of this future).
        async move {
            let exchanged = self
                .exchange(
                    &client,
                    unanswered.client_ip(),
                    &mut request,
                    &mut unanswered.record,
                    kept,
                )
                .await;
            if unanswered.wants_server_name() {
                if let Some(rules) = self
                    .rules
                    .find(unanswered.record.route(), rules_host.as_deref())
                {
                    unanswered.set_server_name(rules.shared_server_name());
                }
            }
            // The pages of the request's route (or host), when the config has any.
            let pages = self
                .rules
                .has_pages()
                .then(|| {
                    self.rules
                        .find(unanswered.record.route(), rules_host.as_deref())
                })
                .flatten();
            // The one error exit: whatever phase failed, error.rs makes the answer.
            let mut response = match exchanged {
                Ok(mut response) => {
                    if let Some(pages) = pages {
                        pages.answer_with_page(&mut response);
                    }
                    response
                }
                Err(error) => {
                    self.note_failure(&error, unanswered.upstream_name(), unanswered.client_ip());
                    unanswered.failed(&error);
                    match stale_instead(&error, &mut unanswered.record) {
                        Some(stale) => stale,
                        None => self.error_answer(
                            error,
                            pages,
                            unanswered.record.route(),
                            rules_host.as_deref(),
                        ),
                    }
                }
            };
            // The answer is edited where it is, not moved through each step (each move was a
            // copy of it).
            self.response_rules(
                &mut response,
                unanswered.record.route(),
                rules_host.as_deref(),
                facts.as_deref(),
                unanswered.client_ip(),
                asked.secure,
                (
                    unanswered.record.request_id(),
                    unanswered.record.cache_status(),
                ),
            );
            // An `auth_request`'s answer headers (`Set-Cookie`), when it gave some, on the
            // statuses `response_headers` has.
            if let Some(copied) = unanswered.record.auth_copied().map(std::mem::take) {
                if rules::is_success(response.status()) {
                    copied.answer(&mut response);
                }
            }
            self.outgoing.apply(&mut response, &asked);
            // `limit_rate`: the bytes on their way out, compressed or not, are what it counts.
            if let Some(limit) = self.limit_rate(&mut response, unanswered.record.route()) {
                let body = std::mem::replace(response.body_mut(), Body::empty());
                *response.body_mut() = crate::throttle::throttled(body, limit);
            }
            // Counted once its status is final (a stale answer's is set at the exit above).
            let cache_status = unanswered.record.cache_status();
            if let (Some(cache), false) = (&self.cache, cache_status.is_empty()) {
                cache.count(cache_status);
            }
            // The logging exit: counted now, logged when the body is done.
            unanswered.answered(&mut response);
            response
        }
    }

    /// error.rs's answer to a failed request: the route's (or host's) page for its status when
    /// it has one, else a short text (kept as header lines when nothing after edits them).
    fn error_answer(
        &self,
        error: ProxyError,
        pages: Option<&rules::Effective>,
        route: Option<usize>,
        host: Option<&str>,
    ) -> Response<Body> {
        let page = pages.and_then(|pages| pages.page(error.status()));
        let (response, lines) = if page.is_none() && self.answer_lines_fit(route, host) {
            error.into_answer()
        } else {
            (error.into_response(), None)
        };
        let mut response = match lines {
            Some(lines) => response.map(|text| Body::answer(text, lines)),
            None => response.map(Body::full),
        };
        if let Some(page) = page {
            page.fill(&mut response);
        }
        response
    }

    /// `response_headers` and `response_headers_always` of the request's route, or of its host
    /// when no route matched. A request closed unanswered (444) gets none.
    #[allow(clippy::too_many_arguments)] // reason: the answer's facts, each borrowed where it is kept
    fn response_rules(
        &self,
        response: &mut Response<Body>,
        route: Option<usize>,
        host: Option<&str>,
        facts: Option<&rules::Facts>,
        client_ip: IpAddr,
        secure: bool,
        (request_id, cache_status): (&str, &str),
    ) {
        let Some(rules) = self.rules.find(route, host) else {
            return;
        };
        if !rules.has_response_rules()
            || response
                .extensions()
                .get::<crate::error::CloseUnanswered>()
                .is_some()
            || response.extensions().get::<OwnHeaders>().is_some()
        {
            return;
        }
        let empty = (
            http::Uri::from_static("/"),
            crate::head_view::Headers::default(),
        );
        let variables = rules::response_variables(
            facts,
            rules.server_name(),
            client_ip,
            secure,
            &empty,
            (request_id, cache_status),
            &self.config.maps,
        );
        rules.apply_response(response, &variables);
    }

    /// The rate an answer goes out at: its upstream's `X-Accel-Limit-Rate` (`0`: none), else its
    /// route's `limit_rate`; the route's `limit_rate_after` either way.
    fn limit_rate(&self, response: &mut Response<Body>, route: Option<usize>) -> Option<LimitRate> {
        let configured = route.and_then(|index| self.limit_rates.get(index).copied().flatten());
        match accel::LimitRate::take(response) {
            None => configured,
            Some(accel::LimitRate(0)) => None,
            Some(accel::LimitRate(rate)) => Some(LimitRate {
                rate,
                after: configured.map_or(0, |limit| limit.after),
            }),
        }
    }

    /// Whether an answer weir makes may keep header lines as bytes ([`ProxyError::into_answer`]):
    /// when nothing after it reads or edits its headers in its view (the lines are not in it),
    /// that is no response header rule of its route (or host) and no compression of its plain
    /// text.
    fn answer_lines_fit(&self, route: Option<usize>, host: Option<&str>) -> bool {
        let ruled = self
            .rules
            .find(route, host)
            .is_some_and(|rules| rules.has_response_rules());
        !ruled && !self.outgoing.compresses_answers()
    }

    /// A request that failed: counted (upstream failures per upstream and cause) and logged
    /// (upstream failures throttled per cause); error.rs makes its answer.
    fn note_failure(&self, error: &ProxyError, upstream_name: Option<&str>, client_ip: IpAddr) {
        if let (Side::Upstream, Some(upstream)) = (error.side(), upstream_name) {
            self.logging
                .metrics
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
    }

    /// The phases, in order. Every error leaves by `?` to the one error exit in [`Proxy::handle`].
    /// The request and the client are borrowed from [`Proxy::handle`]'s future, so that they
    /// take their room once: the request is taken (an empty one left) where a phase consumes it.
    /// Not an `async fn`, whose arguments took their room twice in its future.
    #[allow(clippy::manual_async_fn)] // reason: as an `async fn` its future held its arguments twice
    fn exchange<'proxy, 'exchange>(
        &'proxy self,
        client: &'exchange ClientInfo,
        client_ip: IpAddr,
        request: &'exchange mut Request<ClientBody>,
        record: &'exchange mut Record<'proxy>,
        kept: Option<&'exchange mut upstream::Kept>,
    ) -> impl std::future::Future<Output = Result<Response<Body>, ProxyError>>
           + Send
           + use<'proxy, 'exchange> {
        async move {
            let checks::Checked { host, path, length } = checks::request(&*request)?;
            if let Some(response) = self.https_redirect(client, host, &*request) {
                return Ok(response);
            }
            let found = self.router.find_for_client(&Lookup {
                listener: client.listener,
                host,
                path: &path,
                internal: false,
            });
            let route = match found {
                Some(Found::Route(route)) => Some(route),
                Some(Found::AddSlash(route)) => {
                    record.set_route(Some(route.index));
                    return Ok(add_slash(&path, request.uri().query()));
                }
                None => None,
            };
            let Some(route) = route else {
                checks::body_size(length, self.max_body_size)?;
                let check = self
                    .rules
                    .check_host(
                        client_ip,
                        &rules::Asked::of(&*request, host, client.tls.is_some()),
                    )?
                    .map(|pending| Box::pin(pending.run()));
                if let Some(check) = check {
                    check.await?;
                }
                return Err(ProxyError::NoRoute);
            };
            record.set_route(Some(route.index));
            if let Some(answer) = route
                .answer_options
                .as_deref()
                .filter(|_| request.method() == Method::OPTIONS)
            {
                let asked = Asking {
                    client,
                    client_ip,
                    host,
                    path: &path,
                };
                return Ok(self.answer_options(answer, route, &asked, &*request, record));
            }
            route.check_method(request.method())?;
            checks::body_size(length, self.max_body_size)?;
            let rules = self.rules.find(Some(route.index), None);
            if let Some(rules) = rules {
                rules.check_headers(&rules::Asked::of(&*request, host, client.tls.is_some()))?;
                rules.check_access(client_ip)?;
            }
            // The decision is made into one local, borrowed below: a second local for it (or the
            // `Checked` matched) would keep its room across the phases below.
            let mut decided = Ok(None);
            // An update weir makes in the background: its client's request was limited. (Asked
            // again below: a local held across the awaits took 8 bytes of this future.)
            if !route.updates_in_background() {
                if let Some(later) = route
                    .check_limits(client_ip, &path, request)
                    .now_into(&mut decided)
                {
                    decided = later.await;
                }
            }
            // Moved out of only on the way out: the decision stays whole for the phases below.
            if let Err(rejected) = decided {
                give_back_headers(std::mem::take(request));
                return Err(rejected);
            }
            if let Some(conn_limits) = route
                .conn_limits
                .as_ref()
                .filter(|_| !route.updates_in_background())
            {
                record.places = conn_limits.admit(client_ip, &path, request)?;
            }
            // `basic_auth` after the limits, as nginx's access phase after `limit_req`. A costly
            // check is boxed: rare (a user's first request, or a wrong password), and as an
            // await of its own it would take its room in this future.
            let check = match rules.map(|rules| rules.check_auth(client_ip, request.headers())) {
                Some(Ok(Some(pending))) => Some(Box::pin(pending.run())),
                Some(Err(refused)) => return Err(refused),
                _ => None,
            };
            if let Some(check) = check {
                check.await?;
            }
            // `auth_request` after `basic_auth`, as nginx's. Boxed: only some routes ask, and as
            // an await of its own it would take its room in this future. The headers its answer
            // gives are kept in the record (not in this future) and set once the request is
            // taken, below.
            if let Some(ask) = rules.and_then(|rules| rules.auth_request(client_ip)) {
                match Box::pin(self.ask(ask, client, client_ip, host, &*request, record)).await? {
                    auth_request::Asked::Pass => {}
                    auth_request::Asked::Answer(response) => return Ok(*response),
                }
            }
            let limited = decided.as_ref().ok().and_then(Option::as_ref);
            let upstream = match &route.target {
                Target::Upstream(upstream) => upstream,
                // Boxed, as static files are not the request path this future is sized for.
                Target::Static(dir) => {
                    match Box::pin(route.serve_static(dir, &path, &*request)).await? {
                        Some(response) => return Ok(response),
                        None => route.fallback_upstream()?,
                    }
                }
                Target::Answer(answer) => {
                    return Ok(answer.respond_to(&*request, host, &path, client.tls.is_some()))
                }
            };
            // `cache`: a kept answer, or this request fills it. Boxed: only some routes keep
            // answers, and a wait for another's filling would take its room in this future.
            if let Some(cache) = &route.cache {
                let host = host.unwrap_or("");
                // Weir's own update fills the key with the filler of the request that found it
                // expired (taken here: held across the lookup's await, it took its room in this
                // future).
                let refilled = route.updates_in_background() && refill(record);
                let kept = if refilled {
                    None
                } else {
                    Box::pin(cache.find(route.index, &*request, host, client.tls.is_some(), record))
                        .await
                        .or_else(|| self.update_in_background(cache, client, &*request, record))
                };
                if let Some(mut response) = kept {
                    if let Some(limited) = limited {
                        limited.add_headers(response.headers_mut());
                    }
                    give_back_headers(std::mem::take(request));
                    return Ok(response);
                }
            }
            let target =
                UpstreamTarget::new(upstream, rules, host, &path, (route, request.uri().query()));
            let priority =
                route.priority_of(&*request, || self.real_ip.is_trusted(client.peer.ip()));
            // Kept for an `X-Accel-Redirect`, whose request is made after this one went upstream:
            // only when the config has an internal route, as the copy costs every proxied request.
            // Boxed: held across the exchange, and only some configs need it.
            let head = self
                .accel_redirect
                .then(|| Box::new(accel::Head::of(&*request, host)));
            // The headers an `auth_request`'s answer gave (the host's last use was above).
            if let Some(copied) = record.auth_copied() {
                copied.apply(request.headers_mut());
            }
            // A request that fills the route's `cache` goes without its conditions and range, as
            // nginx's (`proxy_cache` clears them): the whole answer is what is kept, and a
            // client's `Range` or `If-None-Match` cannot make the app answer a `206` or `304`,
            // which is not kept and would make its key pass for a while.
            if record.fills() {
                crate::cache::drop_conditions(request.headers_mut());
            }
            let request =
                if route.request_buffering && !http_body::Body::is_end_stream(request.body()) {
                    Box::pin(self.buffered(std::mem::take(request))).await?
                } else {
                    self.unbuffered(std::mem::take(request))
                };
            let (upstream_request, upgrade) =
                self.upstream_request(&target, client, client_ip, request, record.request_id());
            let sent = self.sending(upstream, record);
            // The response is a local of this block only: it was borrowed, so as a local of the
            // function it kept its room (384 bytes) through the redirect's await below.
            let (redirect, head) = {
                let response = upstream
                    .send(
                        upstream_request,
                        priority,
                        Some(client_ip),
                        route.read_timeout,
                        kept,
                    )
                    .await?;
                self.sent(&response, sent, record);
                // A filler of the route's `cache`: its answer is this one (an `X-Accel-Redirect`'s
                // is not kept, and its filler goes here, its waiters on); or, for an upstream's
                // `5xx`, the expired answer while `cache_stale` serves it.
                let filler = record.take_filler();
                let stale = filler
                    .as_ref()
                    .and_then(|filler| filler.stale(Some(response.status())));
                if let Some(mut stale) = stale {
                    record.rare().cache_status = "STALE";
                    if let Some(limited) = limited {
                        limited.add_headers(stale.headers_mut());
                    }
                    return Ok(stale);
                }
                match head
                    .as_ref()
                    .and_then(|head| Some((accel::redirect(response.headers())?, head)))
                {
                    // The upstream's body is not wanted: dropped with this block, its connection is
                    // not reused.
                    Some(redirect) => redirect,
                    None => {
                        return Ok(self.shaped(response, route, &target, upgrade, limited, filler))
                    }
                }
            };
            let redirect = redirect?;
            // Boxed: rare (an internal route and an upstream that asks for it), and as large as
            // a second request phase, which every request's future would otherwise carry.
            Box::pin(self.follow(redirect, head, client, client_ip, limited, record)).await
        }
    }

    /// Phase 6 for an upstream's response: the rules' hidden headers out, `X-Accel-Buffering`
    /// read, then shaped for the client (`response.rs`).
    fn shaped(
        &self,
        mut response: Response<UpstreamBody>,
        route: &Route,
        target: &UpstreamTarget<'_>,
        upgrade: bool,
        limited: Option<&limits::Decided<'_>>,
        filler: Option<crate::cache::Filler>,
    ) -> Response<Body> {
        if let Some(rules) = target.rules {
            rules.hide(response.headers_mut());
        }
        // `cache`: how long the answer is kept, read before `X-Accel-Expires` goes.
        let filler = filler.and_then(|filler| {
            let statuses = route
                .cache
                .as_ref()
                .map_or(&[][..], |cache| &cache.statuses[..]);
            match filler.validity(response.status(), response.headers(), statuses) {
                Some(valid) => Some((filler, valid)),
                None => {
                    filler.pass();
                    None
                }
            }
        });
        let read_ahead = accel::read_ahead(&mut response, route.response_buffering);
        // Its head as the client gets it from the upstream, before the limit headers (which
        // are each request's own).
        let kept = filler.map(|(filler, valid)| {
            (
                filler,
                valid,
                response.status(),
                crate::cache::kept_headers(response.headers()),
            )
        });
        let shaping = Shaping {
            upgrade,
            limited,
            // An answer being kept is read ahead below, its copy inside.
            read_ahead: (read_ahead && kept.is_none()).then_some(&self.buffers),
            read_timeout: route
                .read_timeout
                .unwrap_or_else(|| target.upstream.read_timeout()),
            closing: &self.closing,
        };
        let mut response = response::from_upstream(response, shaping);
        if let Some((filler, valid, status, headers)) = kept {
            let body = std::mem::replace(response.body_mut(), Body::empty());
            let body = crate::cache::filling(body, filler, status, headers, valid);
            // Read ahead whatever its size, so the copy is whole when the upstream's answer is,
            // not when a slow client has taken it: the requests waiting for it wait no longer.
            *response.body_mut() = if read_ahead {
                buffering::read_ahead_whole(body, &self.buffers)
            } else {
                body
            };
        }
        response
    }

    /// Follows an upstream's `X-Accel-Redirect` (`accel.rs`): the target is routed on the same
    /// listener and host, internal routes included, and answered by its route; a proxied answer
    /// may redirect again, up to [`accel::MAX_REDIRECTS`] times. The first route's limits were
    /// checked; the target's are not (nginx's `limit_req` also counts a request once). The
    /// target's `access` and `basic_auth` are checked, as nginx's access phase runs again.
    async fn follow<'proxy>(
        &'proxy self,
        mut redirect: accel::Redirect,
        head: &accel::Head,
        client: &ClientInfo,
        client_ip: IpAddr,
        limited: Option<&limits::Decided<'_>>,
        record: &mut Record<'proxy>,
    ) -> Result<Response<Body>, ProxyError> {
        for _ in 0..accel::MAX_REDIRECTS {
            let lookup = Lookup {
                listener: client.listener,
                host: head.host.as_deref(),
                path: &redirect.path,
                internal: true,
            };
            let found = self.router.find(&lookup);
            // The answer is the target's route's from here, as nginx's after an internal
            // redirect: its error pages and response headers, and it is counted under it.
            record.set_route(found.map(|route| route.index));
            let route = found.ok_or(ProxyError::NoRoute)?;
            let request = head.request(&redirect);
            // The target's `access` and `basic_auth`, as nginx runs its access phase again after
            // an internal redirect: the client's credentials are the redirect's.
            let rules = self.rules.find(Some(route.index), None);
            if let Some(pending) = rules
                .map(|rules| {
                    rules.check_both(
                        client_ip,
                        &rules::Asked::of(&request, lookup.host, client.tls.is_some()),
                    )
                })
                .transpose()?
                .flatten()
            {
                Box::pin(pending.run()).await?;
            }
            let upstream = match &route.target {
                Target::Upstream(upstream) => upstream,
                Target::Static(dir) => {
                    match route.serve_static(dir, &redirect.path, &request).await? {
                        Some(mut response) => {
                            redirect.keep_over(&mut response);
                            return Ok(response);
                        }
                        None => route.fallback_upstream()?,
                    }
                }
                Target::Answer(answer) => {
                    let mut response = answer.respond_to(
                        &request,
                        lookup.host,
                        &redirect.path,
                        client.tls.is_some(),
                    );
                    redirect.keep_over(&mut response);
                    return Ok(response);
                }
            };
            let request = request.map(|()| Bodied {
                body: RequestBody::Full(None),
                bodiless: true,
            });
            let mut target = UpstreamTarget::new(
                upstream,
                rules,
                lookup.host,
                &redirect.path,
                (route, redirect.query()),
            );
            // `$request_uri` stays the client's, as nginx's after an internal redirect.
            if let Some(named) = &mut target.named {
                named.request_uri = Some(head.uri.clone());
            }
            let (upstream_request, _) =
                self.upstream_request(&target, client, client_ip, request, record.request_id());
            let sent = self.sending(upstream, record);
            // Rare: the redirect's target takes its servers for itself.
            let response = route
                .send_aside(upstream, upstream_request, client_ip)
                .await?;
            self.sent(&response, sent, record);
            if let Some(next) = accel::redirect(response.headers()) {
                drop(response);
                redirect = redirect.then(next?);
                continue;
            }
            let mut response = self.shaped(response, route, &target, false, limited, None);
            redirect.keep_under(&mut response);
            return Ok(response);
        }
        Err(ProxyError::RedirectLoop)
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

    /// Phase 4's body: none, or the client's, streamed; a route with `request_buffering` reads
    /// a body whole first ([`Proxy::buffered`]).
    fn unbuffered(&self, request: Request<ClientBody>) -> Request<Bodied> {
        let bodiless = http_body::Body::is_end_stream(request.body());
        request.map(|incoming| Bodied {
            body: if bodiless {
                RequestBody::Full(None)
            } else {
                RequestBody::downstream(incoming, self.max_body_size, self.body_timeout)
            },
            bodiless,
        })
    }

    /// Phase 4's body read whole (`request_buffering`, a request with a body): rare work, boxed
    /// where it is awaited, so the request's future holds no room for it.
    async fn buffered(&self, request: Request<ClientBody>) -> Result<Request<Bodied>, ProxyError> {
        let (parts, incoming) = request.into_parts();
        let body = buffering::read_request_body(
            incoming,
            self.max_body_size,
            self.body_timeout,
            &self.buffers,
        )
        .await?;
        Ok(Request::from_parts(
            parts,
            Bodied {
                body,
                bodiless: false,
            },
        ))
    }

    /// `answer_options`: an `OPTIONS` request's answer, its headers' values filled in from the
    /// request.
    fn answer_options<B>(
        &self,
        answer: &crate::config::OptionsAnswer,
        route: &Route,
        asking: &Asking<'_>,
        request: &Request<B>,
        record: &Record<'_>,
    ) -> Response<Body> {
        let server_name = self
            .rules
            .find(Some(route.index), None)
            .map_or("", |rules| rules.server_name());
        let host = asking.host.map(rules::host_name);
        let variables = crate::config::Variables {
            host: host.as_deref().unwrap_or(server_name),
            uri: request.uri(),
            secure: asking.client.tls.is_some(),
            remote_addr: asking.client_ip,
            remote_port: asking.client.peer.port(),
            server_port: asking.client.listener.port,
            server_name,
            method: request.method(),
            path: asking.path,
            headers: request.headers(),
            request_id: record.request_id(),
            cache_status: "",
            maps: &self.config.maps,
        };
        let mut response = Response::new(Body::empty());
        *response.status_mut() = answer.status;
        for (name, value) in &answer.headers {
            if let Some(value) = value.render_with(&variables) {
                response.headers_mut().set(name, value);
            }
        }
        if !answer.headers.is_empty() {
            response.extensions_mut().insert(OwnHeaders);
        }
        response
    }

    /// Phase 4, the upstream request. Only a bodiless GET asking for WebSocket is an upgrade;
    /// any other `Upgrade` (h2c included) is dropped with the hop-by-hop headers, so such a
    /// request is buffered and forwarded as any other.
    fn upstream_request(
        &self,
        target: &UpstreamTarget<'_>,
        client: &ClientInfo,
        client_ip: IpAddr,
        request: Request<Bodied>,
        request_id: &str,
    ) -> (Request<RequestBody>, bool) {
        let upstream = target.upstream;
        let (mut parts, Bodied { body, bodiless }) = request.into_parts();
        let upgrade = is_websocket_upgrade(&parts, bodiless);
        let forwarding = forward::Forwarding {
            client_ip,
            secure: client.tls.is_some(),
            trusted: self.real_ip.is_trusted(client.peer.ip()),
            upgrade,
            keepalive: upstream.keepalive(),
        };
        match target.rules {
            Some(rules) if rules.has_request_rules() || rules.replaces_forwarded_for() => {
                // The rules' values are the client's request's, rendered before the rewrite.
                let (host, path) = target.named.as_deref().map_or((None, ""), |named| {
                    (named.host.as_deref(), named.path.as_str())
                });
                // `$request_uri` is the client's, also in an `auth_request`'s asking request.
                let uri = target
                    .named
                    .as_deref()
                    .and_then(|named| named.request_uri.as_ref())
                    .unwrap_or(&parts.uri);
                let variables = crate::config::Variables {
                    host: host.unwrap_or(rules.server_name()),
                    uri,
                    secure: forwarding.secure,
                    remote_addr: client_ip,
                    remote_port: client.peer.port(),
                    server_port: client.listener.port,
                    server_name: rules.server_name(),
                    method: &parts.method,
                    path,
                    headers: &parts.headers,
                    request_id,
                    // The answer is not known yet, as nginx's is empty here.
                    cache_status: "",
                    maps: &self.config.maps,
                };
                let rendered = rules.render_request(&variables);
                if rules.replaces_forwarded_for() {
                    parts.headers.remove(&headers::X_FORWARDED_FOR);
                }
                forward::rewrite(&mut parts, &forwarding);
                rules::Effective::apply_request(&mut parts.headers, rendered);
            }
            _ => forward::rewrite(&mut parts, &forwarding),
        }
        // After the rewrite, which reads an absolute-form target's host into `Host`.
        if let Some(uri) = target.named.as_ref().and_then(|named| named.uri.clone()) {
            parts.uri = uri;
        }
        (Request::from_parts(parts, body), upgrade)
    }

    /// Phase 5, the exchange: a server of the group, a connection, the response head. Not a
    /// future of its own, which would hold the upstream's beside its arguments: the caller
    /// awaits [`Upstream::send`] between this and [`Proxy::sent`].
    fn sending<'proxy>(&self, upstream: &'proxy Upstream, record: &mut Record<'proxy>) -> Instant {
        record.upstream_name = Some(upstream.name());
        Instant::now()
    }

    /// Phase 5's end: what the log keeps of the exchange started at `sent` (the server that
    /// answered only when the access log is on).
    fn sent(&self, response: &Response<UpstreamBody>, sent: Instant, record: &mut Record<'_>) {
        if let Some(entry) = &mut record.entry {
            entry.upstream = response.body().upstream_addr().map(ToString::to_string);
            entry.upstream_status = Some(response.status());
            entry.upstream_connect_time = response.body().connect_time();
        }
        record.upstream = Some(sent.elapsed());
        record.queued = response.body().queued();
    }
}

impl Proxy {
    /// `auth_request` (`proxy/auth_request.rs`): asks `ask` whether `request` may be served: on a 2xx answer,
    /// what it gives, if anything (boxed: kept in the log's record until the request is sent
    /// and answered); on a 401 with a `sign_in` route, that route's answer (the record then names
    /// it).
    async fn ask<'proxy>(
        &'proxy self,
        ask: &auth_request::Ask,
        client: &ClientInfo,
        client_ip: std::net::IpAddr,
        host: Option<&str>,
        request: &Request<ClientBody>,
        record: &mut Record<'proxy>,
    ) -> Result<auth_request::Asked, ProxyError> {
        let request_id = record.request_id();
        match self
            .decided(ask, client, client_ip, host, request, request_id)
            .await
        {
            Ok(copied) => {
                // Kept in the record (not in the request's future) until the request is taken.
                if !copied.is_empty() {
                    record.rare().auth_copied = Some(copied);
                }
                Ok(auth_request::Asked::Pass)
            }
            Err(error) => {
                let denied = matches!(
                    &error,
                    ProxyError::AuthRequestDenied { status, .. } if *status == http::StatusCode::UNAUTHORIZED
                );
                match (ask.sign_in(), denied) {
                    (Some(crate::config::SignIn::Redirect(url)), true) => {
                        Err(ProxyError::HeaderRedirect {
                            status: http::StatusCode::FOUND,
                            location: crate::answer::location(
                                url,
                                host,
                                "localhost",
                                request.uri(),
                                client.tls.is_some(),
                            )
                            .map(String::into_boxed_str),
                        })
                    }
                    (Some(crate::config::SignIn::Route { target, status, .. }), true) => {
                        let redirect = accel::Redirect::to(target)?;
                        let head = accel::Head::of(request, host);
                        let mut response =
                            Box::pin(self.follow(redirect, &head, client, client_ip, None, record))
                                .await?;
                        if let Some(status) = status {
                            *response.status_mut() = *status;
                        }
                        Ok(auth_request::Asked::Answer(Box::new(response)))
                    }
                    _ => Err(error),
                }
            }
        }
    }

    /// The asking and what its answer decides.
    #[allow(clippy::too_many_arguments)] // reason: the client's request's parts, each borrowed where it is kept
    async fn decided(
        &self,
        ask: &auth_request::Ask,
        client: &ClientInfo,
        client_ip: std::net::IpAddr,
        host: Option<&str>,
        request: &Request<ClientBody>,
        request_id: &str,
    ) -> Result<auth_request::Copied, ProxyError> {
        let lookup = Lookup {
            listener: client.listener,
            host,
            path: ask.path(),
            internal: true,
        };
        let route = self
            .router
            .find(&lookup)
            .ok_or_else(|| auth_request::failed(format!("no route takes {}", ask.path())))?;
        let asking = ask.request(request);
        let copied = match &route.target {
            Target::Upstream(upstream) => {
                let rules = self.rules.find(Some(route.index), None);
                let mut target =
                    UpstreamTarget::new(upstream, rules, host, ask.path(), (route, ask.query()));
                if let Some(named) = &mut target.named {
                    named.request_uri = Some(request.uri().clone());
                }
                let asking = asking.map(|()| Bodied {
                    body: RequestBody::Full(None),
                    bodiless: true,
                });
                let (upstream_request, _) =
                    self.upstream_request(&target, client, client_ip, asking, request_id);
                let response = route
                    .send_aside(upstream, upstream_request, client_ip)
                    .await
                    .map_err(|error| auth_request::failed(format!("{}: {error}", ask.path())))?;
                let (parts, mut body) = response.into_parts();
                let decided = ask.decide(parts.status, &parts.headers);
                // Read to its end (a small one), so that the connection is kept.
                let mut read = 0;
                while read <= auth_request::MAX_BODY {
                    match http_body_util::BodyExt::frame(&mut body).await {
                        Some(Ok(frame)) => {
                            read += frame.data_ref().map_or(0, bytes::Bytes::len);
                        }
                        _ => break,
                    }
                }
                decided?
            }
            Target::Static(dir) => match route.serve_static(dir, ask.path(), &asking).await {
                Ok(Some(response)) => ask.decide(response.status(), response.headers())?,
                Ok(None) => ask.decide(
                    http::StatusCode::NOT_FOUND,
                    &crate::head_view::Headers::default(),
                )?,
                Err(error) => ask.decide(error.status(), &crate::head_view::Headers::default())?,
            },
            Target::Answer(answer) => {
                let response = answer.respond_to(&asking, host, ask.path(), client.tls.is_some());
                ask.decide(response.status(), response.headers())?
            }
        };
        Ok(copied)
    }
}

/// The answer to a proxied route's path without its trailing slash (`/api` for route `/api/`):
/// 301 to `./api/`, the query kept, as nginx's `proxy_pass` location answers it (nginx writes
/// the absolute URL; weir a relative one, as for a directory of a static route).
fn add_slash(path: &str, query: Option<&str>) -> Response<Body> {
    let name = path.rsplit('/').next().unwrap_or_default();
    crate::static_files::directory_redirect(name, query).map(Body::boxed)
}

/// A request's body on its way upstream, and whether the client sent none (only a bodiless
/// request may be a WebSocket upgrade; told before a buffered body was read).
struct Bodied {
    body: RequestBody,
    bodiless: bool,
}

/// A rejected request is dropped here, its view's index going back to this thread's spares for
/// the next request head. (A function, so the request phase's future holds no room for it.)
fn give_back_headers(request: Request<ClientBody>) {
    drop(request);
}

impl Route {
    /// Whether the request at hand is an update weir makes in the background of this route's
    /// `cache` (asked only of a route with `cache_background_update`: the update is a copy of
    /// a request of the route, on the same proxy).
    fn updates_in_background(&self) -> bool {
        self.cache
            .as_ref()
            .is_some_and(|cache| cache.background_update)
            && crate::cache::updating_in_background()
    }

    /// A request of this route's on an exchange of its own (an `X-Accel-Redirect`'s target, an
    /// `auth_request`'s asking): the route's class and read time-out, no kept servers.
    fn send_aside<'send>(
        &'send self,
        upstream: &'send Upstream,
        request: Request<RequestBody>,
        client_ip: IpAddr,
    ) -> impl std::future::Future<Output = Result<Response<UpstreamBody>, ProxyError>> + Send + 'send
    {
        upstream.send(
            request,
            self.priority,
            Some(client_ip),
            self.read_timeout,
            None,
        )
    }

    /// `methods`: a method the route does not take is 405, with the route's `Allow`.
    fn check_method(&self, method: &http::Method) -> Result<(), ProxyError> {
        match &self.methods {
            Some(methods) if !methods.0.contains(method) => Err(ProxyError::MethodNotAllowed {
                allow: Arc::clone(&methods.1),
            }),
            _ => Ok(()),
        }
    }

    /// The request's class in its upstream's queue: the route's `priority`, or the class its
    /// `priority_header` names, taken as it is from a trusted proxy (`trusted` asks) and from
    /// any other client only when lower, so a client can yield its place but never jump ahead.
    fn priority_of<B>(
        &self,
        request: &Request<B>,
        trusted: impl FnOnce() -> bool,
    ) -> crate::config::Priority {
        let Some(name) = &self.priority_header else {
            return self.priority;
        };
        let asked = request
            .headers()
            .get(name)
            .and_then(crate::config::Priority::parse);
        match asked {
            // `Priority` orders high first: a greater one is lower.
            Some(asked) if asked > self.priority || trusted() => asked,
            _ => self.priority,
        }
    }

    /// The target sent upstream when the route has `upstream_path` (nginx `proxy_pass
    /// http://app/URI`): the route's prefix of the normalised `path` replaced by it, the
    /// client's query kept. `None` without it: the client's target goes as it came.
    fn upstream_uri(&self, path: &str, query: Option<&str>) -> Option<http::Uri> {
        let replacement = self.upstream_path.as_deref()?;
        let rest = path.get(self.prefix_len..).unwrap_or_default();
        let mut target = String::with_capacity(
            replacement.len() + rest.len() + query.map_or(0, |query| query.len() + 1),
        );
        target.push_str(replacement);
        target.push_str(rest);
        if let Some(query) = query {
            target.push('?');
            target.push_str(query);
        }
        // A checked path, a normalised one (whose escapes stay encoded) and the client's parsed
        // query: always a valid target; were it not, the client's would go as it came.
        http::Uri::try_from(target).ok()
    }

    /// The upstream a static route's missing file goes to (`fallback_upstream`); `serve_static`
    /// hands a request over only when the route has one.
    fn fallback_upstream(&self) -> Result<&Arc<Upstream>, ProxyError> {
        match &self.fallback {
            Some(Fallback::Upstream(upstream)) => Ok(upstream),
            _ => Err(ProxyError::FileNotFound { reason: "missing" }),
        }
    }

    /// Phase 3, the route's rate limits: a rejection is an error, before any upstream work. A
    /// decision that needs no waiting is made without a future (see [`RouteLimits::check`]).
    fn check_limits<B>(
        &self,
        client_ip: IpAddr,
        path: &str,
        request: &Request<B>,
    ) -> limits::Checked<'_> {
        match &self.limits {
            Some(limits) => limits.check(client_ip, path, request),
            None => limits::Checked::Now(Ok(None)),
        }
    }

    /// A static route answers from its directory, by the path below the route's prefix. A path
    /// with a dot-file segment is not found (unless `dotfiles`), whatever the fallback; a missing
    /// file goes to the fallback: the fallback file, or upstream (`None`: the request is the
    /// fallback upstream's).
    async fn serve_static<B>(
        &self,
        dir: &StaticDir,
        path: &str,
        request: &Request<B>,
    ) -> Result<Option<Response<Body>>, ProxyError> {
        if !self.dotfiles && crate::static_files::names_dotfile(path) {
            return Err(ProxyError::FileNotFound {
                reason: "a dot-file (dotfiles = false)",
            });
        }
        let below = &path[self.prefix_len.min(path.len())..];
        if let Some(name) = &self.static_file {
            // The file is the route's own path; nothing is below a file (nginx's alias of a
            // file appends the rest of the path to the file's name: no such file).
            if !below.is_empty() {
                return Err(ProxyError::FileNotFound {
                    reason: "below a route's one file",
                });
            }
            let served = dir.serve(request.method(), name, request.headers()).await?;
            return Ok(Some(served.map(Body::boxed)));
        }
        if below.is_empty() && !path.ends_with('/') && self.fallback.is_none() {
            // The route's own path without its slash (`location /media { alias DIR; }`, asked
            // for `/media`) names the directory: nginx redirects to `/media/`, so that the
            // page's relative links resolve below it, and so does weir. (With a fallback, as
            // with nginx's `try_files $uri $uri/ ...`, the directory's index is served.)
            let name = path.rsplit('/').next().unwrap_or_default();
            return Ok(Some(
                crate::static_files::directory_redirect(name, None).map(Body::boxed),
            ));
        }
        let below = if below.starts_with('/') {
            below.to_string()
        } else {
            format!("/{below}")
        };
        let method = request.method();
        let mut served = self.serve_file(dir, &below, request).await;
        // nginx's `try_files $uri` finds files only: a directory asked for without its slash (the
        // static route's redirect to it) is what the suffix "/" (`$uri/`) finds.
        let mut directory = None;
        if !self.try_suffixes.is_empty()
            && matches!(&served, Ok(response) if response.status() == http::StatusCode::MOVED_PERMANENTLY)
        {
            directory = std::mem::replace(
                &mut served,
                Err(ProxyError::FileNotFound {
                    reason: "a directory, which only the suffix \"/\" serves",
                }),
            )
            .ok();
        }
        // `try_suffixes`, in order, while nothing is found (nginx's `try_files $uri $uri.html`).
        for suffix in &self.try_suffixes {
            if !matches!(&served, Err(error) if is_missing(error)) {
                break;
            }
            if &**suffix == "/" {
                // The directory, redirected to with its slash as nginx's `$uri/` is; a path
                // with its slash was looked up as it is.
                if let Some(redirect) = directory.take() {
                    served = Ok(redirect);
                }
                continue;
            }
            // No candidate names a dot-file the path did not: a suffix has no dot-file segment
            // (refused at load), and one appended to a path ending in `/` is looked for only
            // when that directory is missing.
            served = self
                .serve_file(dir, &format!("{below}{suffix}"), request)
                .await;
        }
        match (served, &self.fallback) {
            (Ok(response), _) => Ok(Some(response.map(Body::boxed))),
            (Err(error), Some(fallback)) if is_missing(&error) => match fallback {
                Fallback::Upstream(_) => Ok(None),
                Fallback::File(file) => {
                    let response = dir.serve(method, file, request.headers()).await?;
                    Ok(Some(response.map(Body::boxed)))
                }
            },
            (Err(error), _) => Err(error),
        }
    }
}

impl Route {
    /// `name` below a static route's directory. nginx's `try_files` looks for the file whatever
    /// the method: with the app as the fallback, a POST to a path with no file goes to the app,
    /// one to a file is refused by the static module (405).
    async fn serve_file<B>(
        &self,
        dir: &StaticDir,
        name: &str,
        request: &Request<B>,
    ) -> Result<Response<crate::static_files::FileBody>, ProxyError> {
        let method = request.method();
        match &self.fallback {
            Some(Fallback::Upstream(_)) if method != Method::GET && method != Method::HEAD => {
                dir.serve(&Method::HEAD, name, request.headers()).await?;
                Err(ProxyError::MethodNotAllowed {
                    allow: "GET, HEAD".into(),
                })
            }
            _ => dir.serve(method, name, request.headers()).await,
        }
    }
}

/// A missing file (404), which a fallback takes; a forbidden one (403) it does not.
fn is_missing(error: &ProxyError) -> bool {
    matches!(
        error,
        ProxyError::FileNotFound { .. } | ProxyError::File { .. }
    ) && error.status() == http::StatusCode::NOT_FOUND
}

/// The upstream a request goes to, with what its head's rules need.
struct UpstreamTarget<'a> {
    upstream: &'a Upstream,
    /// What request rules or `upstream_path` need, when they do. Boxed: rare, and the target is
    /// held across the request phase's awaits (inline, its room would be in every request's
    /// future).
    named: Option<Box<Named>>,
    rules: Option<&'a rules::Effective>,
}

/// The request's facts an [`UpstreamTarget`] keeps, as the request moves on.
struct Named {
    /// The request's host (without port, lower case), for request rules (else `None`).
    host: Option<String>,
    /// The normalised path, for request rules (else empty).
    path: String,
    /// The target sent upstream in place of the client's (`upstream_path`).
    uri: Option<http::Uri>,
    /// The client's target, for `$request_uri`, when the request sent is not the client's (an
    /// `auth_request`'s).
    request_uri: Option<http::Uri>,
}

impl<'a> UpstreamTarget<'a> {
    /// `upstream` with the route's `rules`; `$host` and `$uri` are copied (the request moves on)
    /// only when request rules need them, or with the target the route's `upstream_path` makes
    /// of `path` and the request's query. (Made here, not by the caller: as a local of the
    /// request's future, the target would take its room there.)
    fn new(
        upstream: &'a Upstream,
        rules: Option<&'a rules::Effective>,
        host: Option<&str>,
        path: &str,
        (route, query): (&Route, Option<&str>),
    ) -> UpstreamTarget<'a> {
        let uri = route.upstream_uri(path, query);
        let rendered = rules.is_some_and(rules::Effective::has_request_rules);
        // The host and path only for the rules: an `upstream_path` route without them copies
        // neither.
        let named = (uri.is_some() || rendered).then(|| {
            Box::new(Named {
                host: host.filter(|_| rendered).map(rules::host_name),
                path: if rendered {
                    path.to_string()
                } else {
                    String::new()
                },
                uri,
                request_uri: None,
            })
        });
        UpstreamTarget {
            upstream,
            named,
            rules,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Priority;

    /// `priority_header`: any client may put its request behind others (a lower class), only a
    /// trusted proxy may put it ahead; an unknown value, or none, leaves the route's class.
    #[tokio::test(flavor = "current_thread")]
    async fn a_priority_header_lowers_for_anyone_and_raises_only_for_a_trusted_proxy() {
        let config = crate::config::from_toml(
            r#"
[server]
listen = ["127.0.0.1:0"]
[upstreams.app]
servers = ["127.0.0.1:9"]
[[routes]]
path = "/"
upstream = "app"
priority_header = "X-Priority"
"#,
            None,
        )
        .expect("a valid config");
        let proxy = Proxy::new(&config, false).expect("a proxy");
        let lookup = Lookup {
            listener: crate::routing::Listener {
                addr: "127.0.0.1:0".parse().expect("an address"),
                tls: false,
                port: 0,
            },
            host: None,
            path: "/",
            internal: false,
        };
        let route = proxy.router.find(&lookup).expect("the route");
        let asking = |value: Option<&str>| {
            let mut request = http::Request::get("/");
            if let Some(value) = value {
                request = request.header("x-priority", value);
            }
            Request::from_http(request.body(()).expect("a request"))
        };
        let untrusted = || false;
        let trusted = || true;
        assert_eq!(
            route.priority_of(&asking(Some("low")), untrusted),
            Priority::Low
        );
        assert_eq!(
            route.priority_of(&asking(Some("high")), untrusted),
            Priority::Normal
        );
        assert_eq!(
            route.priority_of(&asking(Some(" HIGH ")), trusted),
            Priority::High
        );
        assert_eq!(
            route.priority_of(&asking(Some("urgent")), trusted),
            Priority::Normal
        );
        assert_eq!(route.priority_of(&asking(None), trusted), Priority::Normal);
    }
}
