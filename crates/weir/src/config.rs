//! The validated, typed configuration. `file.rs` mirrors the TOML file for serde; this module turns
//! that raw mirror into these types and rejects anything invalid with file, line, key and what would
//! be valid. `from_toml` is pure; `load` does the I/O.

pub mod certificate;
mod error;
mod file;
mod log_format;
mod redirect;
mod server_name;
mod summary;
#[cfg(test)]
mod tests;
// Public so that the fuzz targets in fuzz/ can reach the parsers.
pub mod units;

use std::collections::BTreeMap;
use std::fmt;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::time::Duration;

use http::{HeaderName, StatusCode};
use ipnet::IpNet;

pub use file::{from_toml, load, ConfigError, ConfigErrorKind};
pub use log_format::{LogEscape, LogPiece, LogTemplate, LogVariable};
pub use redirect::{Template, ValueMap, Variables};
// Upstream servers by host name.
pub use server_name::{
    locate, ResolveConfig, ServerName, MAX_ADDRESSES_PER_NAME, MIN_RESOLVE_INTERVAL,
    RETRY_AFTER_FAILURE,
};

/// The whole gateway's configuration.
#[derive(Debug, Clone, PartialEq)]
pub struct Config {
    /// Where the file came from, for messages; `None` when parsed from a string.
    pub source: Option<PathBuf>,
    pub server: ServerConfig,
    pub upstreams: BTreeMap<String, UpstreamConfig>,
    pub routes: Vec<RouteConfig>,
    pub limits: BTreeMap<String, LimitConfig>,
    /// `[connection_limits.NAME]`: requests in flight per key.
    pub connection_limits: BTreeMap<String, ConnLimitConfig>,
    pub access_log: AccessLogConfig,
    pub admin: Option<AdminConfig>,
    /// `[compression]`: on when the table is present (each key defaulting as documented on
    /// [`CompressionConfig`]), off when it is absent, as nginx's `gzip` is off unless set.
    pub compression: Option<CompressionConfig>,
    /// `[tls]`: TLS termination and HTTP/2 to clients, off when the table is absent.
    pub tls: Option<TlsConfig>,
    /// `[[hosts]]`: header and access rules for every route of one host.
    pub hosts: Vec<HostConfig>,
    /// `[maps.NAME]`, in name order: a header value's `$NAME`.
    pub maps: Vec<ValueMap>,
}

/// `[server]`: the downstream side.
#[derive(Debug, Clone, PartialEq)]
pub struct ServerConfig {
    /// `listen`: addresses to accept on. Default `["127.0.0.1:8080"]`.
    pub listen: Vec<SocketAddr>,
    /// `backlog`: the listen(2) backlog. Default 511, as nginx.
    pub backlog: u32,
    /// `max_connections`: open downstream connections at once; further accepts wait. Default 10000.
    pub max_connections: usize,
    /// `keepalive_timeout`: how long an idle client connection is kept. Default 75s, as nginx; 0 disables keep-alive.
    pub keepalive_timeout: Duration,
    /// `keepalive_requests`: requests served on one client connection before it is closed. Default 1000, as nginx.
    pub keepalive_requests: u64,
    /// `header_timeout`: time to receive a whole request head. Default 60s, as nginx `client_header_timeout`.
    pub header_timeout: Duration,
    /// `body_timeout`: the longest wait between two reads of a request body; past it, 408 (or a
    /// close once the response began). Default 60s, as nginx `client_body_timeout`.
    pub body_timeout: Duration,
    /// `send_timeout`: the longest wait between two successful writes to a client; past it, the
    /// connection is closed. Default 60s, as nginx `send_timeout`.
    pub send_timeout: Duration,
    /// `underscores_in_headers`: forward request headers whose names hold `_`. Default false: they
    /// are dropped, as nginx does (WSGI maps `X-Real_IP` and `X-Real-IP` to one environ key).
    pub underscores_in_headers: bool,
    /// `pid_file`: where `weir run` writes its process id, for `weir reload` and `weir upgrade`
    /// (nginx `pid`). None by default.
    pub pid_file: Option<PathBuf>,
    /// `max_header_size`: largest request head (request line and headers). Default 32KiB, as nginx `large_client_header_buffers 4 8k`.
    pub max_header_size: usize,
    /// `max_body_size`: largest request body; 0 means no limit. Default 1MiB, as nginx `client_max_body_size`.
    pub max_body_size: u64,
    /// `spool_dir`: where request bodies past 1 MiB and responses read ahead past 64 KiB are
    /// buffered. Default `None`: weir's own
    /// `/var/tmp/weir-UID`, created with mode 0700 (see `buffering::Buffers`).
    pub spool_dir: Option<PathBuf>,
    /// `max_spool_size`: bytes in the spool at once (request bodies, responses read ahead); a
    /// request body past it gets 503, a response stays in memory at its client's pace. Default
    /// 1GiB.
    pub max_spool_size: u64,
    /// `max_body_memory`: bytes of buffered request bodies held in memory by all requests
    /// together; past it a body goes to the spool, as one past its own [`BODY_MEMORY_LIMIT`]
    /// does (nginx has only the per-request `client_body_buffer_size`). Default 64MiB.
    pub max_body_memory: u64,
    /// `cache_size`: bytes of answers the routes with `cache` keep in memory, all together;
    /// past it the oldest go first. Default 64MiB (nginx's `proxy_cache_path ... max_size`,
    /// which is on disk).
    pub cache_size: u64,
    /// `cache_max_answer`: the largest answer a route's `cache` keeps (its body's bytes); a
    /// larger one goes to the client and is not kept. Default 1MiB.
    pub cache_max_answer: u64,
    /// `shutdown_grace`: how long in-flight requests may run after SIGTERM. Default 10s.
    pub shutdown_grace: Duration,
    /// `server_header`: a `Server` header to add to responses; none by default (nginx `server_tokens off`).
    pub server_header: Option<String>,
    /// `error_pages`: the pages of every route and `[[hosts]]` host that names none of its own
    /// for a status, and of requests no route takes (nginx's `error_page` at `http` level).
    pub error_pages: ErrorPages,
    /// `trusted_proxies`: peers whose `real_ip_header` is believed (nginx `set_real_ip_from`). Default none.
    pub trusted_proxies: Vec<IpNet>,
    /// `real_ip_header`: where a trusted peer puts the client address. Default `X-Forwarded-For`.
    pub real_ip_header: RealIpHeader,
    /// `runtime`: how the threads share the work. Default `PerCore` (the lab measured it at
    /// least level with work stealing and ahead on single connections; see ARCHITECTURE.md).
    pub runtime: RuntimeLayout,
    /// `threads`: worker threads; 0 means one per core. Default 0.
    pub threads: usize,
    /// `max_password_checks`: costly password checks (`basic_auth` with bcrypt, SHA-crypt or
    /// MD5-crypt hashes) run at once, each on a blocking thread; 16 times as many may wait, and
    /// a request past those gets 503. 0 means one per core but one (at least one). Default 0.
    pub max_password_checks: usize,
    /// `resolver`, `resolve_interval`, `resolve_timeout`: how upstream host names are resolved.
    pub resolve: ResolveConfig,
}

/// Request bodies up to this size are buffered in memory, larger ones in a spool file
/// (`buffering.rs`); so `max_spool_size` is at least this.
pub const BODY_MEMORY_LIMIT: usize = 1 << 20;

/// `[server] runtime`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RuntimeLayout {
    /// `"per_core"`: one single-threaded runtime per thread, each with its own listening socket
    /// (`SO_REUSEPORT`), as nginx's workers: no work stealing, no cross-thread wake-ups.
    PerCore,
    /// `"work_stealing"`: one tokio multi-thread runtime sharing one listening socket.
    WorkStealing,
}

/// Which header carries the client address from a trusted proxy.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RealIpHeader {
    XForwardedFor,
    XRealIp,
    Forwarded,
}

/// The most weight a server may have (`weights`): a round of weighted round robin holds the sum
/// of a tier's weights, made once per set of servers.
pub const MOST_WEIGHT: u32 = 100;

/// `[upstreams.NAME]`: a group of upstream servers and the pool towards each.
#[derive(Debug, Clone, PartialEq)]
pub struct UpstreamConfig {
    /// `servers`: `"unix:/path/app.sock"` or `"IP:PORT"`; several are balanced as `balance` says.
    /// Those given as `"HOST:PORT"` are in [`UpstreamConfig::names`] instead.
    pub servers: Vec<UpstreamAddr>,
    /// `backup_servers`: servers that take requests only while none of `servers` is available
    /// (nginx `server ... backup`); as `servers`, those given by host name are in
    /// [`UpstreamConfig::names`] (with `backup` set).
    pub backup_servers: Vec<UpstreamAddr>,
    /// `max_connections`: open connections per server; 0 means no limit, as nginx `max_conns=0`. Default 0.
    pub max_connections: usize,
    /// `max_idle`: idle keep-alive connections kept per server (nginx `keepalive N`; per thread with no cap in per-core mode); 0 turns keep-alive off. Default 256.
    pub max_idle: usize,
    /// `idle_timeout`: an idle connection is closed after this. Default 1s, under Gunicorn's 2s keep-alive.
    pub idle_timeout: Duration,
    /// `keepalive_time`: a connection open this long closes after its current response instead
    /// of going back to the pool (nginx `keepalive_time`, whose default is 1h). Default 10s,
    /// under Gunicorn's worker `timeout`, so that a worker stopping for a graceful reload is not
    /// held past it by a connection weir keeps busy.
    pub keepalive_time: Duration,
    /// `queue_size`: requests that may wait for a connection when `max_connections` are all busy. Default 1024.
    pub queue_size: usize,
    /// `queue_timeout`: how long a request waits for a connection before a 503. Default 60s.
    pub queue_timeout: Duration,
    /// `workers`, `threads`, `worker_class`: the app's declared capacity per server; when given,
    /// it sets each server's concurrency cap (in place of `max_connections`) and turns on
    /// admission by predicted wait (docs/overload.md). `None`: today's static pool.
    pub capacity: Option<Capacity>,
    /// `connect_timeout`: nginx `proxy_connect_timeout`. Default 60s.
    pub connect_timeout: Duration,
    /// `read_timeout`: nginx `proxy_read_timeout`, between two reads from the upstream. Default 60s.
    pub read_timeout: Duration,
    /// `send_timeout`: nginx `proxy_send_timeout`, between two writes to the upstream. Default 60s.
    pub send_timeout: Duration,
    /// `balance`: how a request picks a server. Default [`Balance::RoundRobin`].
    pub balance: Balance,
    /// `max_fails`: failures within `fail_timeout` that mark a server down (nginx `max_fails`);
    /// 0 turns passive health off. Default 1, as nginx.
    pub max_fails: u32,
    /// `fail_timeout`: the window in which `max_fails` failures are counted, and how long a server
    /// is then skipped (nginx `fail_timeout`). Default 10s, as nginx.
    pub fail_timeout: Duration,
    /// `health_check`: an active check of every server in the background; off when absent.
    pub health_check: Option<HealthCheckConfig>,
    /// The entries of `servers`, then of `backup_servers`, given by host name (`"web:8000"`):
    /// each address they resolve to is a server of the group, after those of its list.
    pub names: Vec<ServerName>,
    /// `weights = { "web1:8000" = 3 }` (nginx `server ... weight=3`): by server as written in
    /// `servers` or `backup_servers` (normalised: an address as it prints, a name as
    /// `host:port`), 1 to [`MOST_WEIGHT`]; a server not named has 1.
    pub weights: Vec<(String, u32)>,
    /// `[server]`'s resolution settings, copied here when `names` is not empty (so that a
    /// reload that changes them builds the upstream anew); `None` otherwise.
    pub resolve: Option<ResolveConfig>,
}

/// Where an upstream server listens: a TCP address or a Unix socket path. A value of the config
/// that the upstream pools, errors and metrics share, so it lives here, below all of them.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum UpstreamAddr {
    Tcp(SocketAddr),
    Unix(PathBuf),
}

impl fmt::Display for UpstreamAddr {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UpstreamAddr::Tcp(addr) => write!(formatter, "{addr}"),
            UpstreamAddr::Unix(path) => write!(formatter, "unix:{}", path.display()),
        }
    }
}

impl FromStr for UpstreamAddr {
    type Err = String;

    /// Parses `unix:/path/app.sock` or `IP:PORT` (`[::1]:8000` for IPv6).
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        if let Some(path) = text.strip_prefix("unix:") {
            if path.is_empty() {
                return Err("a Unix socket needs a path, as in \"unix:/run/app.sock\"".to_string());
            }
            return Ok(UpstreamAddr::Unix(PathBuf::from(path)));
        }
        text.parse::<SocketAddr>().map(UpstreamAddr::Tcp).map_err(|_| {
            format!("{text:?} is neither \"unix:/path/app.sock\" nor \"IP:PORT\" such as \"127.0.0.1:8000\"")
        })
    }
}

/// `[upstreams.NAME] worker_class`: how the app's workers take requests.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WorkerClass {
    /// `"sync"`: Gunicorn's sync worker, one request at a time per worker.
    Sync,
    /// `"gthread"`: `threads` requests at a time per worker.
    Gthread,
    /// `"async"`: Uvicorn, gevent, eventlet workers: many at a time per worker. The cap adapts
    /// (`upstream::pool::adaptive`) from `workers` up to `workers × threads`, `threads` being
    /// read as the most requests per worker weir lets in at once (default 32).
    Async,
}

impl WorkerClass {
    /// Every class, in the order the config's error lists them.
    pub const ALL: [WorkerClass; 3] = [WorkerClass::Sync, WorkerClass::Gthread, WorkerClass::Async];

    /// The name a config gives it (`worker_class = "sync"`), which the config is read by.
    pub fn name(self) -> &'static str {
        match self {
            WorkerClass::Sync => "sync",
            WorkerClass::Gthread => "gthread",
            WorkerClass::Async => "async",
        }
    }
}

/// What an upstream server can carry at once, as its operator declares it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Capacity {
    /// `workers`: Gunicorn's `-w`.
    pub workers: u32,
    /// `threads`: Gunicorn's `--threads` (gthread), or the most requests per worker (async).
    /// Default 1 (32 for async).
    pub threads: u32,
    /// `worker_class`: Gunicorn's `-k`. Default [`WorkerClass::Sync`], or
    /// [`WorkerClass::Gthread`] when `threads` is more than 1.
    pub worker_class: WorkerClass,
}

impl Capacity {
    /// The adaptive limit's floor, for async workers: `workers` (the cap, [`Capacity::limit`],
    /// is then its ceiling).
    pub fn adaptive_floor(&self) -> Option<usize> {
        (self.worker_class == WorkerClass::Async).then_some(self.workers as usize)
    }

    /// The concurrency cap per server: `workers` for sync, `workers × threads` otherwise (for
    /// async, the ceiling of the adaptive limit).
    pub fn limit(&self) -> usize {
        match self.worker_class {
            WorkerClass::Sync => self.workers as usize,
            WorkerClass::Gthread | WorkerClass::Async => {
                self.workers as usize * self.threads as usize
            }
        }
    }
}

/// `[upstreams.NAME] balance`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Balance {
    /// `"round_robin"`: each server in turn, skipping those marked down.
    RoundRobin,
    /// `"least_outstanding"`: of two servers drawn at random, the one with fewer requests in
    /// flight (power of two choices).
    LeastOutstanding,
    /// `"client_address"` (nginx `ip_hash`): a client's requests go to one server, by a hash of
    /// its address (an IPv4 address's first three bytes, an IPv6 address whole), as nginx's,
    /// while that server is up: sessions kept in a worker's memory (Socket.IO's long polling)
    /// find it again.
    ClientAddress,
}

/// `[upstreams.NAME] health_check = { ... }`: a `GET path` to each server every `interval` over a
/// fresh connection. A 2xx or 3xx answer within `timeout` passes; anything else fails.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HealthCheckConfig {
    /// `path`: the path (and query) to request. Default `"/"`, as nginx Plus `uri`.
    pub path: String,
    /// `interval`: time between two checks of a server. Default 5s, as nginx Plus.
    pub interval: Duration,
    /// `timeout`: time for the connection and the response head. Default 1s.
    pub timeout: Duration,
    /// `fails`: consecutive failed checks that mark a server down. Default 1, as nginx Plus.
    pub fails: u32,
    /// `passes`: consecutive passed checks that mark a down server up again. Default 1, as nginx Plus.
    pub passes: u32,
}

/// `[[routes]]`: host + path prefix -> upstream.
#[derive(Debug, Clone, PartialEq)]
pub struct RouteConfig {
    /// `host`: match only this `Host` (without port, case-insensitive); any host when absent.
    pub host: Option<String>,
    /// `path`: a prefix of the request path; the longest matching prefix wins.
    pub path: String,
    /// `exact`: `path` must equal the request path, as nginx `location = /path`; an exact match
    /// wins over every prefix for the same host. Default false.
    pub exact: bool,
    /// `upstream`: the name of an `[upstreams.NAME]` table; empty when the route is `static`.
    pub upstream: String,
    /// `upstream_path`: what replaces the route's `path` at the front of the (normalised) path
    /// sent upstream, the query kept, as nginx's `proxy_pass http://app/URI` in a prefix or
    /// exact location: route `/api/` with `"/"` sends `/api/users?page=2` as `/users?page=2`.
    /// Not on a regex route. `None`: the client's request target goes upstream unchanged.
    pub upstream_path: Option<String>,
    /// `static`: a directory served for this route instead of an upstream. The route's path
    /// prefix is stripped, as nginx `alias` does: route `/static/` with `static = "/srv/www"`
    /// serves `/static/app.css` from `/srv/www/app.css`.
    pub static_root: Option<PathBuf>,
    /// `redirect` / `status`: the route answers by itself, as nginx `return`, instead of
    /// an upstream or a directory.
    pub answer: Option<AnswerConfig>,
    /// `limits`: names of `[limits.NAME]` tables applied to this route, in order.
    pub limits: Vec<String>,
    /// `connection_limits`: names of `[connection_limits.NAME]` tables applied to this route,
    /// after its `limits` (a request a rate limit refused takes no place), in order.
    pub connection_limits: Vec<String>,
    /// `methods`: the request methods the route takes (`GET` brings `HEAD`); any other gets
    /// 405 with `Allow`, before its limits, access rules or upstream (nginx's `limit_except
    /// ... { deny all; }`, which answers 403). `None`: every method.
    pub methods: Option<Vec<http::Method>>,
    /// `request_buffering`: read the whole request body (up to `max_body_size`; past 1 MiB it
    /// spills to a file in `spool_dir`) before contacting the upstream, as nginx `proxy_request_buffering on`.
    /// Default true.
    pub request_buffering: bool,
    /// `response_buffering`: read the upstream's response as fast as it comes (64 KiB ahead of
    /// the client in memory, then up to 16 MiB in a spool file), so a Gunicorn sync worker is
    /// freed while a slow client drains it, as nginx `proxy_buffering on`. Default true.
    pub response_buffering: bool,
    /// Header rules, access rules, dot-files and the static fallback: see [`RouteRules`].
    pub rules: RouteRules,
    /// `listen` / `scheme`, `match`, `internal`: where and how the route matches.
    pub scope: RouteScope,
    /// `priority`: the route's class in its upstream's queue. Default [`Priority::Normal`].
    pub priority: Priority,
    /// `priority_header`: a request header naming a class (`high`, `normal`, `low`): taken as
    /// it is from a peer in `trusted_proxies`, from any other client only when it is lower than
    /// `priority` (a client may put its own request behind others, never ahead).
    pub priority_header: Option<http::HeaderName>,
    /// `limit_rate` / `limit_rate_after`: the route's answers go to the client no faster than
    /// this (nginx `limit_rate`); `None`: as fast as the client takes them.
    pub limit_rate: Option<LimitRate>,
    /// `read_timeout`: the route's own wait for its upstream's answer, its body's next bytes
    /// and a WebSocket tunnel's (nginx's `proxy_read_timeout` in a location); `None`: the
    /// upstream's.
    pub read_timeout: Option<std::time::Duration>,
    /// `cache` / `cache_pass_cookies`: the route's answers kept and served again without its
    /// upstream (nginx `proxy_cache` with `proxy_cache_valid`); `None`: none kept.
    pub cache: Option<RouteCache>,
}

/// `cache = "10s"`, `cache_pass_cookies = ["sessionid"]`: what a route's answers are kept for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RouteCache {
    /// How long a `200`, `301` or `302` is kept when its upstream says nothing of it (nginx
    /// `proxy_cache_valid 10s`); `0`: only answers whose `Cache-Control: max-age` or
    /// `X-Accel-Expires` say how long are kept.
    pub valid: Duration,
    /// `cache_pass_cookies`: a request with one of these cookies neither gets a kept answer nor
    /// leaves its own (nginx `proxy_cache_bypass` and `proxy_no_cache` with `$cookie_NAME`);
    /// an empty list: cookies do not matter, as nginx's default. `None` (the default): a
    /// request with any `Cookie` passes the cache.
    pub pass_cookies: Option<Vec<String>>,
    /// `cache_stale`: how long past its time an answer is still served while one request
    /// updates it, and when the upstream fails or answers `500`, `502`, `503` or `504` (nginx
    /// `proxy_cache_use_stale updating error timeout http_500 http_502 http_503 http_504`);
    /// default 0: not at all, unless the upstream's `Cache-Control` allows it
    /// (`stale-while-revalidate`, `stale-if-error`).
    pub stale: Duration,
    /// `cache_statuses = { 404 = "1m" }`: statuses kept for their own time (nginx
    /// `proxy_cache_valid 404 1m`), besides 200, 301 and 302 (or for another time than
    /// `valid`), in status order.
    pub statuses: Vec<(u16, Duration)>,
    /// `cache_background_update`: the request that finds an answer expired gets it too, while
    /// weir updates it with a request of its own (nginx `proxy_cache_background_update on`).
    pub background_update: bool,
}

/// `limit_rate = "100k"`, `limit_rate_after = "1m"`: a response body is sent at most `rate`
/// bytes a second, once its first `after` bytes went at full speed (nginx `limit_rate`,
/// `limit_rate_after`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LimitRate {
    /// Bytes a second, at least 1.
    pub rate: u64,
    /// Bytes sent before the rate holds. Default 0.
    pub after: u64,
}

/// `[[routes]] priority`: when the route's upstream is full, which queued requests a freed
/// place goes to first (the highest class with a waiter), and which are refused first under
/// a standing queue (the lowest). As HAProxy's `http-request set-priority-class`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub enum Priority {
    /// `"high"`: health checks, logins, what must answer under overload.
    High,
    /// `"normal"`.
    #[default]
    Normal,
    /// `"low"`: reports, exports, what may wait or be refused first.
    Low,
}

impl Priority {
    /// The classes, highest first.
    pub const ALL: [Priority; 3] = [Priority::High, Priority::Normal, Priority::Low];

    /// The position in [`Priority::ALL`]: 0 is the highest.
    pub fn index(self) -> usize {
        self as usize
    }

    /// The class a header value names (`high`, `normal`, `low`, any case, spaces around);
    /// `None` for anything else.
    pub fn parse(value: &[u8]) -> Option<Priority> {
        let value = value.trim_ascii();
        Priority::ALL
            .into_iter()
            .find(|class| value.eq_ignore_ascii_case(class.label().as_bytes()))
    }

    /// The key's value, as written in the config.
    pub fn label(self) -> &'static str {
        match self {
            Priority::High => "high",
            Priority::Normal => "normal",
            Priority::Low => "low",
        }
    }
}

/// Which listeners a route answers on, how its path matches beyond prefix and `exact`, and
/// whether clients may reach it (nginx: a `server`'s `listen`, `location ^~` / `~` / `~*`,
/// `internal`). The default is what a route without these keys has always been.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RouteScope {
    /// `listen = ["0.0.0.0:443"]` (addresses of `[server] listen` / `[tls] listen`) or
    /// `scheme = "https" | "http"`; default every listener.
    pub listeners: crate::routing::Listeners,
    /// `match = "prefix_stop"`: the longest prefix stops the search before the regexes (nginx
    /// `location ^~`).
    pub stop: bool,
    /// `match = "regex" | "regex_nocase"`: `path` is a regex (nginx `location ~` / `~*`).
    pub regex: Option<crate::routing::PathRegex>,
    /// `internal`: reached only through an upstream's `X-Accel-Redirect`; a client gets 404
    /// (nginx `internal`).
    pub internal: bool,
}

/// A route that answers by itself (nginx `return`): a redirect, or a bare status.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AnswerConfig {
    /// `status`: 301, 302, 303, 307 or 308 with `redirect` (default 302, as nginx's `return URL`);
    /// 200 to 599 without it.
    pub status: StatusCode,
    /// `redirect`: the `Location`, where `$host`, `$request_uri` and `$scheme` are the request's.
    pub location: Option<Template>,
    /// `body` (with `status`, nginx `return 200 "text"`): the answer's body, sent as written,
    /// with `content_type`; `None`: weir's own short text (an error status) or nothing.
    pub body: Option<AnswerBody>,
}

/// A `status` route's own body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AnswerBody {
    /// `body`: sent as written (no variables).
    pub text: String,
    /// `content_type`: default `text/plain`, nginx's `default_type`.
    pub content_type: http::HeaderValue,
}

impl RouteConfig {
    /// How this route's path is compared with a request's.
    pub fn path_match(&self) -> crate::routing::PathMatch {
        if let Some(regex) = &self.scope.regex {
            crate::routing::PathMatch::Regex(regex.clone())
        } else if self.exact {
            crate::routing::PathMatch::Exact(self.path.clone())
        } else if self.scope.stop {
            crate::routing::PathMatch::PrefixStop(self.path.clone())
        } else {
            crate::routing::PathMatch::Prefix(self.path.clone())
        }
    }
}

/// `[limits.NAME]`: one rate limit, nginx `limit_req_zone` + `limit_req` in one table. The
/// proxy's limit phase owns the HTTP side (the key, the rejection's status and headers); the
/// `ratelimit::Limiter` is built from [`LimiterConfig`] alone.
#[derive(Debug, Clone, PartialEq)]
pub struct LimitConfig {
    /// `key`: what the limit counts by, e.g. `"client_ip"`, `"header:X-Api-Key"`, `"client_ip+path"`.
    pub key: Vec<KeyPart>,
    /// `ipv6_prefix`: the `client_ip` part of the key counts IPv6 clients by this many leading
    /// bits (1..=128), so one end site's /64 is one client. Default 64. IPv4 is counted whole.
    pub ipv6_prefix: u8,
    /// `status`: the status of a rejection. Default 429 (nginx's default is 503).
    pub status: StatusCode,
    /// `headers`: which rate-limit headers responses carry. Default draft-10.
    pub headers: LimitHeaders,
    /// `exempt`: clients (by the address `trusted_proxies` reads) in these networks are neither
    /// counted nor limited: nginx's allowlist, a `geo` mapping them to an empty key. Default none.
    pub exempt: Vec<IpNet>,
    /// Rate, burst, delay and where the state lives: what the limiter decides by.
    pub limiter: LimiterConfig,
}

/// `[connection_limits.NAME]`: requests in flight per key, nginx `limit_conn_zone` +
/// `limit_conn` in one table. A request holds its place from the end of its route's rate limits
/// to the end of its answer's body (a WebSocket's to the end of its tunnel); one more of a key
/// with `connections` in flight gets `status`. The proxy owns the HTTP side (the key, the
/// status); the `ratelimit::ConnLimit` is built from [`ConnLimiterConfig`] alone.
#[derive(Debug, Clone, PartialEq)]
pub struct ConnLimitConfig {
    /// `key`: what the limit counts by, as a rate limit's. Default `"client_ip"`.
    pub key: Vec<KeyPart>,
    /// `ipv6_prefix`: as a rate limit's. Default 64.
    pub ipv6_prefix: u8,
    /// `status`: the status of a refusal. Default 503, as nginx's `limit_conn_status`.
    pub status: StatusCode,
    /// `exempt`: as a rate limit's.
    pub exempt: Vec<IpNet>,
    pub limiter: ConnLimiterConfig,
}

/// The part of a `[connection_limits.NAME]` table that the limit decides by: no key, no HTTP.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ConnLimiterConfig {
    /// `connections`: requests in flight per key at most (nginx `limit_conn zone N`).
    pub connections: u32,
    /// `max_keys`: keys with a request in flight at most; a request of a new key past it is
    /// refused, as nginx's when its zone is full. Default 100000.
    pub max_keys: usize,
    /// `dry_run`: count refusals, but let every request through (nginx `limit_conn_dry_run`).
    pub dry_run: bool,
}

/// The part of a `[limits.NAME]` table that the limiter decides by: no key, no HTTP.
#[derive(Debug, Clone, PartialEq)]
pub struct LimiterConfig {
    /// `rate`: `"10r/s"` or `"600r/m"`.
    pub rate: Rate,
    /// `burst`: requests allowed above the rate. Default 0.
    pub burst: u32,
    /// `nodelay` / `delay = N`: nginx's two-stage limiting. Default `Delay::After(0)`, as nginx.
    pub delay: Delay,
    /// `dry_run`: decide and count, but let every request through.
    pub dry_run: bool,
    /// `max_keys`: keys tracked at most; least recently used keys are evicted past it. Default 100000.
    pub max_keys: usize,
    /// `nginx_rounding`: reproduce nginx's integer rounding of rates (1r/m = 62.5s).
    pub nginx_rounding: bool,
    /// `backend`: where the state lives.
    pub backend: LimitBackend,
}

/// One part of a limit's key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KeyPart {
    ClientIp,
    Path,
    Header(HeaderName),
    /// `all`: one key for every request of the routes that use the limit (nginx's
    /// `$server_name`, constant per server block).
    All,
}

/// A rate as `count` requests per `per`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rate {
    pub count: u64,
    pub per: Duration,
}

/// nginx's `nodelay` or `delay=N`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Delay {
    NoDelay,
    After(u32),
}

/// Which rate-limit headers to send.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LimitHeaders {
    Off,
    Draft10,
    Legacy,
}

/// Where a limit keeps its state.
#[derive(Debug, Clone, PartialEq)]
pub enum LimitBackend {
    Memory,
    Redis(RedisLimitConfig),
}

/// `backend = "redis"` settings.
#[derive(Debug, Clone, PartialEq)]
pub struct RedisLimitConfig {
    /// `redis`: `redis://host:port/db` or `unix:///path/redis.sock`.
    pub url: String,
    /// `redis_timeout`: per call. Default 50ms.
    pub timeout: Duration,
    /// `on_redis_error`: what to do when Redis fails or times out. Default `Allow`.
    pub on_error: OnRedisError,
}

/// `on_redis_error`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OnRedisError {
    Allow,
    Deny,
    Local,
}

/// `[access_log]`: off unless the table is present with `enabled = true` (nginx seed: `access_log off`).
#[derive(Debug, Clone, PartialEq)]
pub struct AccessLogConfig {
    pub enabled: bool,
    /// `path`: a file to append to; stderr when absent.
    pub path: Option<PathBuf>,
    pub format: AccessLogFormat,
}

/// `[access_log] format`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AccessLogFormat {
    Combined,
    Json,
    /// A line of the user's, in nginx's `log_format` syntax.
    Template(std::sync::Arc<LogTemplate>),
}

/// `[admin]`: the metrics and health listener, off by default.
#[derive(Debug, Clone, PartialEq)]
pub struct AdminConfig {
    pub listen: SocketAddr,
}

/// `[tls]`: listeners that terminate TLS (nginx `listen 443 ssl`), their certificates, and the
/// HTTP/2 limits of connections that pick `h2` by ALPN.
#[derive(Debug, Clone, PartialEq)]
pub struct TlsConfig {
    /// `listen`: addresses that speak TLS; none of them may also be in `[server] listen`.
    /// Required.
    pub listen: Vec<SocketAddr>,
    /// `[[tls.certificates]]`: chosen by the SNI name from each certificate's names; the first is
    /// the default for a client that sends no name, or one that none matches. At least one.
    pub certificates: Vec<CertificateConfig>,
    /// `protocols`: TLS versions offered. Default both, TLSv1.2 and TLSv1.3 (nginx's default
    /// since 1.23.4 is the same pair).
    pub protocols: Vec<TlsVersion>,
    /// `alpn`: application protocols offered, in weir's order of preference. Default
    /// `["h2", "http/1.1"]`, as nginx `listen ... ssl http2`.
    pub alpn: Vec<Alpn>,
    /// `session_tickets`: resumption by tickets, encrypted with keys that rotate every 6 hours
    /// (rustls' ticketer), as nginx `ssl_session_tickets on`. Default true.
    pub session_tickets: bool,
    /// `session_cache`: sessions kept for stateful resumption (TLS 1.2 session ids, TLS 1.3
    /// without tickets); 0 turns the cache off. Default 20000, about what nginx's
    /// `ssl_session_cache shared:SSL:5m` holds.
    pub session_cache: usize,
    /// `handshake_timeout`: time for the TLS handshake after the connection is accepted; past
    /// it, the connection is closed. Default 10s.
    pub handshake_timeout: Duration,
    /// `hsts`: a `Strict-Transport-Security` value added to every response on a TLS listener,
    /// such as `"max-age=31536000; includeSubDomains"`. None by default.
    pub hsts: Option<String>,
    /// `redirect_http`: every request on a plain `[server] listen` address is answered with a
    /// 301 to the same host and target over HTTPS (nginx's port-80 server with
    /// `return 301 https://$host$request_uri`). Default false.
    pub redirect_http: bool,
    /// `http2_max_concurrent_streams`: streams a client may have open on one connection
    /// (nginx `http2_max_concurrent_streams`). Default 128, as nginx.
    pub http2_max_concurrent_streams: u32,
    /// `http2_max_header_list_size`: the largest request head over HTTP/2 (names, values and 32
    /// bytes per field, after HPACK decoding). Default 64KiB.
    pub http2_max_header_list_size: u32,
    /// `http2_stream_window`: bytes of a request body a client may send ahead of weir reading
    /// it, per stream (nginx `http2_body_preread_size`-like). Default 256KiB.
    pub http2_stream_window: u32,
    /// `http2_connection_window`: the same for all streams of a connection together. Default 1MiB.
    pub http2_connection_window: u32,
}

/// `[[tls.certificates]]`: one certificate chain and its key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CertificateConfig {
    /// `cert`: PEM, the leaf first, then the intermediates (certbot's `fullchain.pem`). A relative
    /// path is taken from the config file's directory.
    pub cert: PathBuf,
    /// `key`: PEM, the leaf's private key (PKCS#8, PKCS#1 or SEC1; certbot's `privkey.pem`).
    pub key: PathBuf,
}

/// A TLS version in `[tls] protocols`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TlsVersion {
    Tls12,
    Tls13,
}

/// An application protocol in `[tls] alpn`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Alpn {
    H2,
    Http11,
}

impl Alpn {
    /// The protocol's ALPN identifier.
    pub fn id(self) -> &'static [u8] {
        match self {
            Alpn::H2 => b"h2",
            Alpn::Http11 => b"http/1.1",
        }
    }
}

impl Config {
    /// The file name to show in messages.
    pub fn source_name(&self) -> String {
        self.source
            .as_deref()
            .map(Path::display)
            .map(|display| display.to_string())
            .unwrap_or_else(|| "<string>".to_string())
    }
}

/// `[compression]`: compression of responses on their way downstream (nginx `gzip on` with
/// `gzip_proxied any` and `gzip_vary on`). The defaults are the seed config's choices where nginx's
/// own defaults differ, because the seed is what our users run.
#[derive(Debug, Clone, PartialEq)]
pub struct CompressionConfig {
    /// `level`: effort on gzip's scale, 1 (fastest) to 9 (smallest). Default 6, the seed's
    /// `gzip_comp_level` (nginx's own default is 1). brotli uses quality `level - 1` (6 gives 5,
    /// which costs about what gzip 6 costs and compresses better) and zstd uses `level` itself.
    pub level: u32,
    /// `min_length`: a response whose `Content-Length` is below this many bytes is sent as it is,
    /// since compressing it saves little or nothing. A response of unknown length is compressed.
    /// Default 200, the seed's `gzip_min_length` (nginx's own default is 20).
    pub min_length: u64,
    /// `types`: media types to compress, `type/subtype` or `type/*`, compared without case and
    /// without parameters (`; charset=...`). Default [`CompressionConfig::DEFAULT_TYPES`]: text,
    /// JSON, JavaScript, XML, SVG and the like (nginx's own default is `text/html` alone).
    pub types: Vec<String>,
    /// `algorithms`: the encodings weir may use (`"br"`, `"zstd"`, `"gzip"`), in the order weir
    /// prefers them when the client's q-values tie. Default `["br", "zstd", "gzip"]`.
    pub algorithms: Vec<Encoding>,
}

/// A content coding weir can produce: a value of the config that compression and static files
/// share, so it lives here, below both. Its HTTP side is in `compression.rs`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Encoding {
    /// `gzip` (RFC 1952), which every client accepts.
    Gzip,
    /// `br` (RFC 7932).
    Brotli,
    /// `zstd` (RFC 8878).
    Zstd,
}

impl Encoding {
    /// The token used in `Accept-Encoding`, `Content-Encoding` and the config's `algorithms`.
    pub fn as_str(self) -> &'static str {
        match self {
            Encoding::Gzip => "gzip",
            Encoding::Brotli => "br",
            Encoding::Zstd => "zstd",
        }
    }
}

impl fmt::Display for Encoding {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str(self.as_str())
    }
}

impl FromStr for Encoding {
    type Err = String;

    /// Parses a config `algorithms` entry: `"gzip"`, `"br"` or `"zstd"`.
    fn from_str(text: &str) -> Result<Encoding, String> {
        [Encoding::Gzip, Encoding::Brotli, Encoding::Zstd]
            .into_iter()
            .find(|encoding| text.eq_ignore_ascii_case(encoding.as_str()))
            .ok_or_else(|| format!("{text:?} is not one of \"br\", \"zstd\", \"gzip\""))
    }
}

impl CompressionConfig {
    /// The default `types`: what compresses well and is not compressed already.
    pub const DEFAULT_TYPES: &'static [&'static str] = &[
        "text/*",
        "application/javascript",
        "application/x-javascript",
        "application/json",
        "application/ld+json",
        "application/manifest+json",
        "application/problem+json",
        "application/xml",
        "application/xhtml+xml",
        "application/rss+xml",
        "application/atom+xml",
        "application/wasm",
        "image/svg+xml",
        "image/x-icon",
        "image/bmp",
        "font/ttf",
        "font/otf",
        "application/vnd.ms-fontobject",
    ];
}

impl Default for CompressionConfig {
    fn default() -> CompressionConfig {
        CompressionConfig {
            level: 6,
            min_length: 200,
            types: CompressionConfig::DEFAULT_TYPES
                .iter()
                .map(|media_type| media_type.to_string())
                .collect(),
            algorithms: vec![Encoding::Brotli, Encoding::Zstd, Encoding::Gzip],
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Header rules, access rules, dot-files and static fallbacks (issue 19): `[[hosts]]` and the
// route keys of the same names.
// ---------------------------------------------------------------------------------------------

/// A route's rules beyond where it leads: all off by default.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RouteRules {
    /// `request_headers`, `append_request_headers`, `response_headers`,
    /// `response_headers_always`, `hide_response_headers`, `forwarded_for`.
    pub headers: HeaderRules,
    /// `access`: allow/deny in order (nginx `allow`/`deny`); `None` when the route has none,
    /// so its host's apply.
    pub access: Option<Vec<AccessRule>>,
    /// `basic_auth`: a password asked of every request (nginx `auth_basic`); `None` when the
    /// route has none, so its host's applies.
    pub basic_auth: Option<BasicAuth>,
    /// `satisfy`: whether `access` and `basic_auth` must both let a request in, or either
    /// (nginx `satisfy`); `None` when the route has none, so its host's applies (else all).
    pub satisfy: Option<Satisfy>,
    /// `auth_request`: a request is let in only when an internal route answers 2xx to a
    /// request asking for it (nginx `auth_request`); `None` when the route has none, so its
    /// host's applies.
    pub auth_request: Option<AuthRequest>,
    /// `dotfiles`: a static route serves paths with a segment starting with `.`. Default false:
    /// they are 404, except `/.well-known/`.
    pub dotfiles: bool,
    /// `fallback_upstream` / `fallback_file`: what a static route does with a missing file.
    pub fallback: Option<StaticFallback>,
    /// `try_suffixes = [".html", "/index.html"]`: what a static route tries after a missing
    /// file, in order, before its fallback: the path with each appended (nginx `try_files $uri
    /// $uri.html $uri/index.html ...`). At most [`MOST_TRY_SUFFIXES`].
    pub try_suffixes: Vec<String>,
    /// `error_pages`, `intercept_errors`.
    pub pages: ErrorPages,
    /// `location_rewrites` (nginx `proxy_redirect`): the upstream's `Location` (and `Refresh`'s
    /// URL) that starts with a prefix gets the replacement in its place, longest prefix first.
    pub location_rewrites: Vec<(String, Template)>,
    /// `answer_options`: weir answers an `OPTIONS` request itself.
    pub answer_options: Option<OptionsAnswer>,
}

/// `answer_options = { status = 204, headers = { ... } }` (nginx `if ($request_method = OPTIONS)
/// { add_header ...; return 204; }`, a CORS preflight's answer): an `OPTIONS` request to the
/// route gets this status, an empty body and these headers, right after routing (before
/// `methods`, `access`, limits and the upstream, as nginx's `if ... return` runs in its rewrite
/// phase). With headers of its own, the route's `response_headers` are not added to it, as
/// nginx's `add_header` inside the `if` replaces the location's.
#[derive(Debug, Clone, PartialEq)]
pub struct OptionsAnswer {
    pub status: StatusCode,
    pub headers: Vec<(HeaderName, Template)>,
}

/// The most `try_suffixes` a route has: each is a look at the disk for a missing file.
pub const MOST_TRY_SUFFIXES: usize = 8;

/// The most an error page may hold: weir keeps each in memory.
pub const MAX_ERROR_PAGE: u64 = 1024 * 1024;

/// `error_pages` and `intercept_errors` of a route or a `[[hosts]]` table (nginx `error_page`
/// with a file, `proxy_intercept_errors`).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ErrorPages {
    /// `error_pages = { 502 = "/srv/app/public/500.html" }`: by status (400 to 599, not 444),
    /// the file whose content answers an error of that status, by status.
    pub files: Vec<(StatusCode, PathBuf)>,
    /// `intercept_errors`: the upstream's own answers with those statuses get the page too;
    /// `None`: the host's, else not.
    pub intercept: Option<bool>,
}

/// The header rules of a route or a `[[hosts]]` table.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct HeaderRules {
    /// `request_headers`: set on the upstream request, replacing the client's (nginx
    /// `proxy_set_header`); `None` (the value `""`) removes the header.
    pub request_set: Vec<(HeaderName, Option<Template>)>,
    /// `append_request_headers`: added to the upstream request after the client's own.
    pub request_append: Vec<(HeaderName, Template)>,
    /// `response_headers`: set on 200, 201, 204, 206, 301, 302, 303, 304, 307 and 308 answers
    /// (nginx `add_header`); `None` (the value `""`) adds nothing, to cancel a host's.
    pub response_set: Vec<(HeaderName, Option<Template>)>,
    /// `response_headers_always`: set on every answer, weir's own errors included (nginx
    /// `add_header ... always`).
    pub response_set_always: Vec<(HeaderName, Option<Template>)>,
    /// `hide_response_headers`: removed from the upstream's response (nginx `proxy_hide_header`).
    pub response_hide: Vec<HeaderName>,
    /// `forwarded_for`: what becomes of the client's `X-Forwarded-For`; `None`: the host's, else
    /// append.
    pub forwarded_for: Option<ForwardedFor>,
    /// `charset` (nginx `charset`): added to an answer's `Content-Type` of a type in
    /// `charset_types` that names no charset, as `; charset=utf-8`. `None`: the host's, else
    /// none; `Some(None)` (the value `"off"`): none, though the host has one.
    pub charset: Option<Option<String>>,
    /// `charset_types` (nginx `charset_types`): the media types, beside `text/html`, that get
    /// `charset`, in lower case (`"*"`: every type); `None`: the host's, else
    /// [`HeaderRules::DEFAULT_CHARSET_TYPES`].
    pub charset_types: Option<Vec<String>>,
    /// `cookie_flags` (nginx `proxy_cookie_flags ~ FLAG...`): attributes set on (or taken off)
    /// every `Set-Cookie` of the upstream's answers. `None`: the host's, else none; `Some([])`:
    /// none, though the host has some.
    pub cookie_flags: Option<Vec<CookieFlag>>,
    /// `expires` (nginx `expires`): `Expires` and `Cache-Control` on the statuses
    /// `response_headers` has. `None`: the host's, else none.
    pub expires: Option<Expires>,
    /// `deny_headers` (nginx `if ($http_user_agent ~* bot) { return 403; }`): a request whose
    /// header matches (or does not) gets the status before `access`, limits or the upstream.
    /// `None`: the host's; `Some([])`: none, though the host has some.
    pub deny_headers: Option<Vec<HeaderGuard>>,
    /// `response_headers_by_type` (nginx `add_header NAME $var` with a `map
    /// $sent_http_content_type $var`): a header whose value depends on the answer's
    /// `Content-Type`. A route's rule for a header replaces its host's, in either form.
    pub response_by_type: Vec<TypedHeader>,
}

/// `expires`: what an answer's `Expires` and `Cache-Control` say, as nginx's `expires` writes
/// them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Expires {
    /// `"off"`: neither is touched (cancels a host's).
    Off,
    /// `"epoch"`: `Expires: Thu, 01 Jan 1970 00:00:01 GMT`, `Cache-Control: no-cache`.
    Epoch,
    /// `"max"`: `Expires: Thu, 31 Dec 2037 23:55:55 GMT`, `Cache-Control: max-age=315360000`.
    Max,
    /// `"30d"`, `"-1"`: `Expires` that long after the answer (before it, when negative), and
    /// `Cache-Control: max-age=` the seconds (`no-cache` when negative).
    After(i64),
}

impl Expires {
    /// nginx's `max`, in seconds: ten years.
    pub const MAX_SECONDS: i64 = 315_360_000;

    /// The `Cache-Control` value, the same for every answer (made once, when the proxy is
    /// built); `None` for `Off`.
    pub fn cache_control(self) -> Option<String> {
        match self {
            Expires::Off => None,
            Expires::Epoch => Some("no-cache".to_string()),
            Expires::Max => Some(format!("max-age={}", Expires::MAX_SECONDS)),
            Expires::After(seconds) if seconds < 0 => Some("no-cache".to_string()),
            Expires::After(seconds) => Some(format!("max-age={seconds}")),
        }
    }

    /// The `Expires` value of an answer made at `now`, written into `out` (an IMF-fixdate is
    /// 29 bytes), so that no answer allocates for it; `None` for `Off`.
    pub fn date(self, now: std::time::SystemTime, out: &mut [u8; 29]) -> Option<&[u8]> {
        use std::io::Write as _;
        let at = match self {
            Expires::Off => return None,
            Expires::Epoch => return Some(b"Thu, 01 Jan 1970 00:00:01 GMT"),
            Expires::Max => return Some(b"Thu, 31 Dec 2037 23:55:55 GMT"),
            Expires::After(seconds) => {
                let offset = Duration::from_secs(seconds.unsigned_abs());
                if seconds < 0 {
                    now.checked_sub(offset)
                } else {
                    now.checked_add(offset)
                }?
            }
        };
        let mut cursor = std::io::Cursor::new(&mut out[..]);
        // At most ten years from now: a year below 10000, so the date is 29 bytes and fits.
        write!(cursor, "{}", httpdate::HttpDate::from(at)).ok()?;
        let written = usize::try_from(cursor.position()).ok()?;
        Some(&out[..written])
    }
}

/// One entry of `deny_headers`: a request header's value (`""` when the request has none, as
/// nginx's empty `$http_NAME`) searched with a regex or two; the request is refused with `status`
/// (or, with `location`, redirected) when `matches` finds something and `not_matches` finds
/// nothing (an entry has one of them, or both).
#[derive(Debug, Clone)]
pub struct HeaderGuard {
    pub name: HeaderName,
    /// `matches`: refused only when it finds something.
    pub matches: Option<regex::bytes::Regex>,
    /// `not_matches`: refused only when it finds nothing.
    pub not_matches: Option<regex::bytes::Regex>,
    /// 400 to 599, or 444 (closed without an answer); default 403. With `location`, a redirect's:
    /// 301, 302, 303, 307 or 308.
    pub status: StatusCode,
    /// `location`: the redirect's URL (nginx's `if ($http_x_forwarded_proto != "https") { return
    /// 301 https://$host$request_uri; }`), with `$host`, `$request_uri` and `$scheme`.
    pub location: Option<Template>,
}

impl HeaderGuard {
    /// Whether a request with this header value (the first, when several) is refused.
    pub fn refuses(&self, value: Option<&[u8]>) -> bool {
        let value = value.unwrap_or_default();
        self.matches
            .as_ref()
            .is_none_or(|regex| regex.is_match(value))
            && self
                .not_matches
                .as_ref()
                .is_none_or(|regex| !regex.is_match(value))
    }
}

impl PartialEq for HeaderGuard {
    fn eq(&self, other: &HeaderGuard) -> bool {
        let text = |regex: &Option<regex::bytes::Regex>| {
            regex.as_ref().map(|regex| regex.as_str().to_string())
        };
        self.name == other.name
            && text(&self.matches) == text(&other.matches)
            && text(&self.not_matches) == text(&other.not_matches)
            && self.status == other.status
            && self.location == other.location
    }
}

/// One header of `response_headers_by_type`: its entries are tried in order, and the first whose
/// types match the answer's `Content-Type` gives the value, as nginx's `map` picks its first
/// matching regex.
#[derive(Debug, Clone, PartialEq)]
pub struct TypedHeader {
    pub name: HeaderName,
    /// On every answer (`always = true`), else on 200, 201, 204, 206, 301, 302, 303, 304, 307
    /// and 308 answers, as `response_headers`.
    pub always: bool,
    pub entries: Vec<TypedEntry>,
}

/// One entry of a [`TypedHeader`]: the value (`None`: the value `""`, which sends no header)
/// for answers of these types.
#[derive(Debug, Clone, PartialEq)]
pub struct TypedEntry {
    pub types: Vec<TypeMatch>,
    pub value: Option<Template>,
}

/// How an entry's type matches an answer's `Content-Type`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TypeMatch {
    /// `"*"`: any answer (nginx's `default`).
    Any,
    /// `""`: an answer without a `Content-Type`, or with an empty one (nginx's `""` key).
    Missing,
    /// A fragment, in lower case, found anywhere in the `Content-Type` whatever its case
    /// (nginx's `~*text/html` finds `text/html; charset=utf-8`).
    Fragment(String),
}

impl TypedHeader {
    /// The value for an answer with this `Content-Type`: `None` when no entry matches, or the
    /// one that does has the value `""`.
    pub fn pick(&self, content_type: Option<&[u8]>) -> Option<&Template> {
        let content_type = content_type.filter(|value| !value.is_empty());
        self.entries
            .iter()
            .find(|entry| {
                entry.types.iter().any(|kind| match (kind, content_type) {
                    (TypeMatch::Any, _) => true,
                    (TypeMatch::Missing, None) => true,
                    (TypeMatch::Fragment(fragment), Some(value)) => value
                        .windows(fragment.len())
                        .any(|window| window.eq_ignore_ascii_case(fragment.as_bytes())),
                    _ => false,
                })
            })?
            .value
            .as_ref()
    }
}

/// One of `cookie_flags`: an attribute a `Set-Cookie` gets (`true`, `Some`) or loses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CookieFlag {
    Secure(bool),
    HttpOnly(bool),
    SameSite(Option<SameSite>),
}

/// A `SameSite` value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SameSite {
    Strict,
    Lax,
    None,
}

impl SameSite {
    /// As a `Set-Cookie` writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            SameSite::Strict => "Strict",
            SameSite::Lax => "Lax",
            SameSite::None => "None",
        }
    }
}

impl HeaderRules {
    /// nginx's `charset_types` default, beside `text/html`, which always gets the charset.
    pub const DEFAULT_CHARSET_TYPES: &'static [&'static str] = &[
        "text/xml",
        "text/plain",
        "text/vnd.wap.wml",
        "application/javascript",
        "application/rss+xml",
    ];
}

/// `forwarded_for`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ForwardedFor {
    /// `"append"`: the client's address after the list the client sent (nginx
    /// `$proxy_add_x_forwarded_for`), today's behaviour.
    Append,
    /// `"replace"`: the client's address alone (nginx `proxy_set_header X-Forwarded-For
    /// $remote_addr`), so an app that reads the first entry cannot be handed a forged one.
    Replace,
}

/// One entry of `access`: `"allow 10.0.0.0/8"`, `"deny 192.0.2.1"`, `"deny all"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AccessRule {
    pub allow: bool,
    /// `None`: `all`.
    pub network: Option<IpNet>,
}

/// `basic_auth` of a route or a `[[hosts]]` table (nginx `auth_basic` and
/// `auth_basic_user_file`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BasicAuth {
    /// `basic_auth = { realm = "Staff", user_file = "/etc/weir/htpasswd" }`: a request needs a
    /// user and password of the file, else 401 with `WWW-Authenticate: Basic realm="Staff"`.
    Required { realm: String, user_file: PathBuf },
    /// `basic_auth = false`: none, though the route's host asks for one (nginx `auth_basic off`).
    Off,
}

/// `auth_request` of a route or a `[[hosts]]` table (nginx `auth_request` and
/// `auth_request_set` with `proxy_set_header`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AuthRequest {
    /// `auth_request = "/_auth"`, or `{ path = "/_auth", copy_headers = { "X-User" =
    /// "X-Auth-Request-User" } }`: before a request is served, a GET of `target` with the
    /// client's headers (no body) is routed, internal routes included, and answered: 2xx lets the
    /// request in, 401 and 403 are the client's answer (401 with the `WWW-Authenticate` of the
    /// answer), anything else is 500.
    Ask {
        /// The path and query as the config wrote them: the target sent.
        target: String,
        /// The normalised path, which routing sees.
        path: String,
        /// `copy_headers`: a request header the upstream gets from a header of the 2xx answer
        /// (`(request header, answer's header)`); the client's own is dropped first, so it
        /// cannot pass for the answer's.
        copy_headers: Vec<(HeaderName, HeaderName)>,
        /// `answer_headers`: headers of the 2xx answer added to the client's answer (nginx
        /// `auth_request_set $c $upstream_http_set_cookie;` with `add_header Set-Cookie $c;`),
        /// on the statuses `response_headers` has.
        answer_headers: Vec<HeaderName>,
        /// `sign_in`: a 401 is answered by the route of this path (internal routes too) with a
        /// GET, as nginx's `error_page 401 = /oauth2/sign_in;` (its status the route's, or
        /// `sign_in_status`); or, a URL with `$host`, `$request_uri` and `$scheme` (`://` in it),
        /// a 302 to it, as `error_page 401 = @login;` with `return 302 URL;`.
        sign_in: Option<SignIn>,
    },
    /// `auth_request = false`: none, though the route's host asks for one (nginx
    /// `auth_request off`).
    Off,
}

/// Where an `auth_request`'s 401 sends the client.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SignIn {
    /// `sign_in = "/oauth2/sign_in"`: the route of that path answers (its target as written, and
    /// the normalised path routing sees), with `sign_in_status` in place of its status if given
    /// (nginx's `error_page 401 =403 /oauth2/sign_in`).
    Route {
        target: String,
        path: String,
        status: Option<StatusCode>,
    },
    /// `sign_in = "https://auth.example.com/start?rd=$scheme://$host$request_uri"`: a 302 there.
    Redirect(Template),
}

/// `satisfy` of a route or a `[[hosts]]` table (nginx `satisfy`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Satisfy {
    /// `"all"`, the default: `access` and `basic_auth` must each let the request in.
    All,
    /// `"any"`: either lets it in: an `allow` that matches needs no password, and a client a
    /// `deny` matches may still give the password (401, not 403, when it does not).
    Any,
}

/// What a static route does with a missing file (nginx `try_files $uri ...`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StaticFallback {
    /// `fallback_upstream = "app"`: the request goes to that upstream, as `try_files $uri @app`.
    Upstream(String),
    /// `fallback_file = "/index.html"`: that file of the route's directory is served, as
    /// `try_files $uri /index.html`.
    File(String),
}

/// `[[hosts]]`: rules for every route whose `host` is `name`.
#[derive(Debug, Clone, PartialEq)]
pub struct HostConfig {
    /// `name`: a host name as a route's `host` writes it.
    pub name: String,
    pub headers: HeaderRules,
    /// `access`: used by a route of this host that has no `access` of its own, and by a
    /// request to this host that no route matches.
    pub access: Option<Vec<AccessRule>>,
    /// `basic_auth`: used by a route of this host that has none of its own, and by a request
    /// to this host that no route matches.
    pub basic_auth: Option<BasicAuth>,
    /// `satisfy`: for a route of this host that has none of its own, and a request to this host
    /// that no route matches.
    pub satisfy: Option<Satisfy>,
    /// `auth_request`: used by a route of this host that has none of its own.
    pub auth_request: Option<AuthRequest>,
    /// `error_pages`, `intercept_errors`: for a route of this host, beneath its own.
    pub pages: ErrorPages,
}
