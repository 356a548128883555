//! The serde mirror of the TOML file, and its translation into the typed [`Config`].
//!
//! Two stages, as ripgrep's `LowArgs` -> `HiArgs`: serde reads the file into the `Raw*` structs
//! below (`deny_unknown_fields`, values in their written units already parsed), then [`from_toml`]
//! fills in defaults and checks what serde cannot see: ranges, names that refer to other tables,
//! duplicates and conflicting settings. Every mistake carries a byte span of the file, which
//! [`ConfigError`] turns into line, column and dotted key.

use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::marker::PhantomData;
use std::net::SocketAddr;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use http::{HeaderValue, StatusCode};
use ipnet::IpNet;
use serde::de::{self, Deserialize, Deserializer, IntoDeserializer, SeqAccess, Visitor};
use toml::de::DeTable;
use toml::Spanned;

use super::error::{KeyIndex, Problem};
mod capacity;
mod rules;
use super::units;
use super::{
    AccessLogConfig, AccessLogFormat, AdminConfig, AnswerBody, AnswerConfig, Balance,
    CompressionConfig, Config, ConnLimitConfig, ConnLimiterConfig, Delay, Encoding,
    HealthCheckConfig, KeyPart, LimitBackend, LimitConfig, LimitHeaders, LimitRate, LimiterConfig,
    LogEscape, LogTemplate, OnRedisError, Rate, RealIpHeader, RedisLimitConfig, RouteConfig,
    RouteScope, ServerConfig, UpstreamAddr, UpstreamConfig,
};
use super::{Alpn, CertificateConfig, TlsConfig, TlsVersion};

pub use super::error::{ConfigError, ConfigErrorKind};

/// The defaults, each as documented on the typed config's fields.
mod default {
    use std::time::Duration;

    use std::net::{Ipv4Addr, SocketAddr, SocketAddrV4};

    pub(super) const LISTEN: SocketAddr =
        SocketAddr::V4(SocketAddrV4::new(Ipv4Addr::LOCALHOST, 8080));
    /// nginx's `listen ... backlog=` default on Linux.
    pub(super) const BACKLOG: u32 = 511;
    pub(super) const MAX_CONNECTIONS: usize = 10_000;
    /// nginx `keepalive_timeout`.
    pub(super) const KEEPALIVE_TIMEOUT: Duration = Duration::from_secs(75);
    /// nginx `keepalive_requests` (since 1.19.10).
    pub(super) const KEEPALIVE_REQUESTS: u64 = 1000;
    /// nginx `client_header_timeout`.
    pub(super) const HEADER_TIMEOUT: Duration = Duration::from_secs(60);
    /// nginx `client_body_timeout`.
    pub(super) const BODY_TIMEOUT: Duration = Duration::from_secs(60);
    /// nginx `send_timeout`.
    pub(super) const SEND_TIMEOUT: Duration = Duration::from_secs(60);
    /// nginx `large_client_header_buffers 4 8k`.
    pub(super) const MAX_HEADER_SIZE: usize = 32 * 1024;
    /// nginx `client_max_body_size`.
    pub(super) const MAX_BODY_SIZE: u64 = 1024 * 1024;
    /// `ipv6_prefix`: a /64, the usual end site.
    pub(super) const IPV6_PREFIX: u8 = 64;
    /// `max_spool_size`: 1 GiB of request bodies on disk at once.
    pub(super) const MAX_SPOOL_SIZE: u64 = 1024 * 1024 * 1024;
    /// `max_body_memory`: 64 MiB of buffered request bodies in memory at once, all requests
    /// together: 64 uploads at their whole 1 MiB share; past it bodies go to the spool.
    pub(super) const MAX_BODY_MEMORY: u64 = 64 * 1024 * 1024;
    /// `cache_size`: 64 MiB of kept answers in memory, all routes together.
    pub(super) const CACHE_SIZE: u64 = 64 * 1024 * 1024;
    /// `cache_max_answer`: 1 MiB, a page, not a download.
    pub(super) const CACHE_MAX_ANSWER: u64 = 1024 * 1024;
    pub(super) const SHUTDOWN_GRACE: Duration = Duration::from_secs(10);
    /// nginx `max_conns=0`: no limit.
    pub(super) const UPSTREAM_MAX_CONNECTIONS: usize = 0;
    pub(super) const MAX_IDLE: usize = 256;
    /// `max_idle` for `worker_class = "async"`: no upstream keep-alive. A kept connection
    /// stays with the Uvicorn worker that accepted it, and a worker whose loop is blocked still
    /// gets its connections' next requests, while a new connection is accepted by a worker whose
    /// loop is free (issue 21; lab/runs/2026-12-05-vm-overload-async).
    pub(super) const MAX_IDLE_ASYNC: usize = 0;
    /// Under Gunicorn's 2 s keep-alive, so weir closes an idle connection before Gunicorn does and
    /// never sends a request on a connection Gunicorn is closing.
    pub(super) const IDLE_TIMEOUT: Duration = Duration::from_secs(1);
    /// Under half of Gunicorn's 30 s worker `timeout`: an old worker of a graceful reload waits
    /// for its open connections, and Gunicorn kills it once its last heartbeat (every 15 s) is
    /// 30 s old; a connection weir keeps busy closes within this, so the worker exits first.
    pub(super) const KEEPALIVE_TIME: Duration = Duration::from_secs(10);
    pub(super) const QUEUE_SIZE: usize = 1024;
    pub(super) const QUEUE_TIMEOUT: Duration = Duration::from_secs(60);
    /// nginx `proxy_connect_timeout`, `proxy_read_timeout`, `proxy_send_timeout`.
    pub(super) const PROXY_TIMEOUT: Duration = Duration::from_secs(60);
    /// nginx `max_fails`.
    pub(super) const MAX_FAILS: u32 = 1;
    /// nginx `fail_timeout`.
    pub(super) const FAIL_TIMEOUT: Duration = Duration::from_secs(10);
    /// nginx Plus `health_check uri=`.
    pub(super) const HEALTH_PATH: &str = "/";
    /// nginx Plus `health_check interval=`.
    pub(super) const HEALTH_INTERVAL: Duration = Duration::from_secs(5);
    /// Short, so a hung server is noticed within one interval (nginx Plus waits proxy timeouts).
    pub(super) const HEALTH_TIMEOUT: Duration = Duration::from_secs(1);
    /// nginx Plus `health_check fails=` and `passes=`.
    pub(super) const HEALTH_FAILS: u32 = 1;
    pub(super) const HEALTH_PASSES: u32 = 1;
    /// RFC 6585's Too Many Requests; nginx's `limit_req_status` default is 503.
    pub(super) const LIMIT_STATUS: http::StatusCode = http::StatusCode::TOO_MANY_REQUESTS;
    pub(super) const MAX_KEYS: usize = 100_000;
    /// nginx's `limit_conn_status` default.
    pub(super) const CONN_LIMIT_STATUS: http::StatusCode = http::StatusCode::SERVICE_UNAVAILABLE;
    pub(super) const REDIS_TIMEOUT: Duration = Duration::from_millis(50);
    /// About what nginx's `ssl_session_cache shared:SSL:5m` holds (4000 sessions a megabyte).
    pub(super) const SESSION_CACHE: usize = 20_000;
    /// A handshake takes a few round trips; a client that cannot finish in this is gone or hostile.
    pub(super) const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);
    /// nginx `http2_max_concurrent_streams`.
    pub(super) const HTTP2_MAX_CONCURRENT_STREAMS: u32 = 128;
    pub(super) const HTTP2_MAX_HEADER_LIST_SIZE: u32 = 64 * 1024;
    pub(super) const HTTP2_STREAM_WINDOW: u32 = 256 * 1024;
    pub(super) const HTTP2_CONNECTION_WINDOW: u32 = 1024 * 1024;
}

/// Smallest `max_header_size`: below this not even a modest request line and `Host` fit.
const MIN_HEADER_SIZE: u64 = 1024;

/// Parses and validates a config from TOML text. Pure: `source` only names the file in messages
/// and in [`Config::source`].
pub fn from_toml(text: &str, source: Option<&Path>) -> Result<Config, ConfigError> {
    let (table, syntax_errors) = DeTable::parse_recoverable(text);
    let keys = KeyIndex::new(&table);
    if let Some(error) = syntax_errors.first() {
        return Err(Problem::syntax(error).into_error(text, source, &keys));
    }
    let raw = RawConfig::deserialize(toml::de::Deserializer::from(table))
        .map_err(|error| Problem::from_serde(&error, &keys).into_error(text, source, &keys))?;
    raw.validate(source)
        .map_err(|problem| problem.into_error(text, source, &keys))
}

/// Reads the file at `path` and parses it with [`from_toml`].
/// The certificate files of `[tls]` are read too, and an unreadable file, a key that does not
/// match its certificate, a chain out of order or an expired certificate is an error that names
/// the file (see [`super::certificate::check_certificate`]). So are the files that `weir run`
/// would fail on, as far as looking does not change them: each static route's directory, its
/// `fallback_file`, the access log's directory (see `file/rules.rs`'s `check_files`).
pub fn load(path: &Path) -> Result<Config, ConfigError> {
    let text = std::fs::read_to_string(path).map_err(|error| ConfigError::io(path, &error))?;
    let config = from_toml(&text, Some(path))?;
    if let Some(tls) = &config.tls {
        for (index, certificate) in tls.certificates.iter().enumerate() {
            if let Err(error) = super::certificate::check_certificate(certificate) {
                let (table, _) = DeTable::parse_recoverable(&text);
                let keys = KeyIndex::new(&table);
                let key = format!("tls.certificates[{index}].{}", error.key());
                let span = keys.span_of(&key).unwrap_or(0..0);
                return Err(
                    Problem::new(ConfigErrorKind::InvalidValue, span, error.to_string())
                        .with_key(key)
                        .into_error(&text, Some(path), &keys),
                );
            }
        }
    }
    if let Some(problem) = rules::check_files(&config) {
        let (table, _) = DeTable::parse_recoverable(&text);
        let keys = KeyIndex::new(&table);
        let span = keys.span_of(problem.key()).unwrap_or(0..0);
        return Err(
            Problem::new(ConfigErrorKind::InvalidValue, span, problem.message())
                .with_key(problem.key())
                .into_error(&text, Some(path), &keys),
        );
    }
    Ok(config)
}

// ---------------------------------------------------------------------------------------------
// The mirror. Field names are the file's key names; serde's "unknown field" lists them.
// ---------------------------------------------------------------------------------------------

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct RawConfig {
    server: Option<RawServer>,
    #[serde(default)]
    upstreams: BTreeMap<String, Spanned<RawUpstream>>,
    #[serde(default)]
    routes: Vec<Spanned<RawRoute>>,
    #[serde(default)]
    limits: BTreeMap<String, Spanned<RawLimit>>,
    #[serde(default)]
    connection_limits: BTreeMap<String, Spanned<RawConnLimit>>,
    access_log: Option<RawAccessLog>,
    admin: Option<RawAdmin>,
    compression: Option<RawCompression>,
    tls: Option<Spanned<RawTls>>,
    #[serde(default)]
    hosts: Vec<Spanned<rules::RawHost>>,
    #[serde(default)]
    maps: BTreeMap<String, Spanned<RawMap>>,
}

/// `[maps.NAME]`: `source`, `entries` of `{ equals | matches, value }`, `default`.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct RawMap {
    source: Spanned<String>,
    #[serde(default)]
    entries: Vec<RawMapEntry>,
    default: Option<Spanned<String>>,
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct RawMapEntry {
    equals: Option<Spanned<String>>,
    matches: Option<Spanned<String>>,
    value: Spanned<String>,
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTls {
    listen: Spanned<OneOrMany<ListenAddr>>,
    certificates: Option<Spanned<Vec<RawCertificate>>>,
    protocols: Option<Spanned<Vec<Spanned<String>>>>,
    alpn: Option<Spanned<Vec<Spanned<String>>>>,
    session_tickets: Option<bool>,
    session_cache: Option<usize>,
    handshake_timeout: Option<Spanned<DurationValue>>,
    hsts: Option<Spanned<String>>,
    redirect_http: Option<bool>,
    http2_max_concurrent_streams: Option<Spanned<u32>>,
    http2_max_header_list_size: Option<Spanned<SizeValue>>,
    http2_stream_window: Option<Spanned<SizeValue>>,
    http2_connection_window: Option<Spanned<SizeValue>>,
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCertificate {
    cert: Spanned<String>,
    key: Spanned<String>,
}

#[derive(Default, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct RawServer {
    listen: Option<Spanned<OneOrMany<ListenAddr>>>,
    backlog: Option<u32>,
    max_connections: Option<Spanned<usize>>,
    keepalive_timeout: Option<DurationValue>,
    keepalive_requests: Option<Spanned<u64>>,
    header_timeout: Option<Spanned<DurationValue>>,
    body_timeout: Option<Spanned<DurationValue>>,
    send_timeout: Option<Spanned<DurationValue>>,
    underscores_in_headers: Option<bool>,
    pid_file: Option<Spanned<String>>,
    max_header_size: Option<Spanned<SizeValue>>,
    max_body_size: Option<SizeValue>,
    spool_dir: Option<Spanned<String>>,
    max_spool_size: Option<Spanned<SizeValue>>,
    max_body_memory: Option<Spanned<SizeValue>>,
    cache_size: Option<Spanned<SizeValue>>,
    cache_max_answer: Option<Spanned<SizeValue>>,
    shutdown_grace: Option<DurationValue>,
    server_header: Option<Spanned<String>>,
    trusted_proxies: Option<OneOrMany<Network>>,
    real_ip_header: Option<RealIpHeaderValue>,
    runtime: Option<RuntimeValue>,
    threads: Option<usize>,
    max_password_checks: Option<usize>,
    // Upstream servers by host name.
    resolver: Option<ResolverValue>,
    resolve_interval: Option<Spanned<DurationValue>>,
    resolve_timeout: Option<Spanned<DurationValue>>,
    // The pages of every route and host that has none of its own for a status.
    error_pages: Option<rules::RawPageMap>,
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct RawUpstream {
    servers: Spanned<OneOrMany<ServerAddr>>,
    backup_servers: Option<Spanned<OneOrMany<ServerAddr>>>,
    max_connections: Option<usize>,
    max_idle: Option<usize>,
    idle_timeout: Option<DurationValue>,
    keepalive_time: Option<Spanned<DurationValue>>,
    queue_size: Option<usize>,
    queue_timeout: Option<DurationValue>,
    // Declared capacity (`file/capacity.rs`).
    workers: Option<Spanned<u32>>,
    threads: Option<Spanned<u32>>,
    worker_class: Option<Spanned<String>>,
    connect_timeout: Option<Spanned<DurationValue>>,
    read_timeout: Option<Spanned<DurationValue>>,
    send_timeout: Option<Spanned<DurationValue>>,
    balance: Option<BalanceValue>,
    weights: Option<BTreeMap<Spanned<String>, Spanned<u32>>>,
    max_fails: Option<u32>,
    fail_timeout: Option<Spanned<DurationValue>>,
    health_check: Option<RawHealthCheck>,
}

/// `health_check = { path = "/healthz", interval = "2s", ... }`, an inline table.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct RawHealthCheck {
    path: Option<Spanned<String>>,
    interval: Option<Spanned<DurationValue>>,
    timeout: Option<Spanned<DurationValue>>,
    fails: Option<Spanned<u32>>,
    passes: Option<Spanned<u32>>,
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRoute {
    host: Option<Spanned<String>>,
    path: Option<Spanned<String>>,
    exact: Option<bool>,
    upstream: Option<Spanned<String>>,
    upstream_path: Option<Spanned<String>>,
    #[serde(rename = "static")]
    static_root: Option<Spanned<String>>,
    redirect: Option<Spanned<String>>,
    status: Option<Spanned<u16>>,
    body: Option<Spanned<String>>,
    content_type: Option<Spanned<String>>,
    #[serde(default)]
    limits: Vec<Spanned<String>>,
    #[serde(default)]
    connection_limits: Vec<Spanned<String>>,
    methods: Option<Spanned<Vec<Spanned<String>>>>,
    request_buffering: Option<bool>,
    response_buffering: Option<bool>,
    limit_rate: Option<Spanned<SizeValue>>,
    limit_rate_after: Option<Spanned<SizeValue>>,
    read_timeout: Option<Spanned<DurationValue>>,
    cache: Option<Spanned<DurationValue>>,
    cache_pass_cookies: Option<Spanned<Vec<Spanned<String>>>>,
    cache_stale: Option<Spanned<DurationValue>>,
    cache_statuses: Option<BTreeMap<Spanned<String>, Spanned<DurationValue>>>,
    cache_background_update: Option<Spanned<bool>>,
    priority: Option<Spanned<String>>,
    priority_header: Option<Spanned<String>>,
    // Header rules, access rules, dot-files, static fallbacks: validated in `file/rules.rs`.
    request_headers: Option<rules::RawHeaderMap>,
    append_request_headers: Option<rules::RawHeaderMap>,
    response_headers: Option<rules::RawHeaderMap>,
    response_headers_always: Option<rules::RawHeaderMap>,
    hide_response_headers: Option<Vec<Spanned<String>>>,
    forwarded_for: Option<Spanned<String>>,
    charset: Option<Spanned<String>>,
    charset_types: Option<Vec<Spanned<String>>>,
    cookie_flags: Option<Vec<Spanned<String>>>,
    response_headers_by_type: Option<Vec<rules::RawTyped>>,
    location_rewrites: Option<rules::RawHeaderMap>,
    deny_headers: Option<Vec<rules::RawGuard>>,
    answer_options: Option<Spanned<rules::RawOptions>>,
    expires: Option<Spanned<String>>,
    access: Option<Vec<Spanned<String>>>,
    basic_auth: Option<Spanned<toml::Value>>,
    satisfy: Option<Spanned<String>>,
    auth_request: Option<Spanned<toml::Value>>,
    dotfiles: Option<Spanned<bool>>,
    try_suffixes: Option<Spanned<Vec<Spanned<String>>>>,
    fallback_upstream: Option<Spanned<String>>,
    fallback_file: Option<Spanned<String>>,
    error_pages: Option<rules::RawPageMap>,
    intercept_errors: Option<Spanned<bool>>,
    // Where and how the route matches (`RouteScope`).
    listen: Option<Spanned<OneOrMany<ListenAddr>>>,
    scheme: Option<Spanned<String>>,
    #[serde(rename = "match")]
    match_kind: Option<Spanned<String>>,
    internal: Option<Spanned<bool>>,
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct RawLimit {
    key: Option<KeyValue>,
    rate: RateValue,
    burst: Option<u32>,
    nodelay: Option<Spanned<bool>>,
    delay: Option<Spanned<u32>>,
    status: Option<StatusValue>,
    dry_run: Option<bool>,
    max_keys: Option<Spanned<usize>>,
    ipv6_prefix: Option<Spanned<u32>>,
    nginx_rounding: Option<bool>,
    headers: Option<HeadersValue>,
    exempt: Option<OneOrMany<Network>>,
    backend: Option<BackendValue>,
    redis: Option<Spanned<String>>,
    redis_timeout: Option<Spanned<DurationValue>>,
    on_redis_error: Option<Spanned<OnRedisErrorValue>>,
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct RawConnLimit {
    key: Option<KeyValue>,
    connections: Spanned<i64>,
    status: Option<StatusValue>,
    exempt: Option<OneOrMany<Network>>,
    dry_run: Option<bool>,
    max_keys: Option<Spanned<usize>>,
    ipv6_prefix: Option<Spanned<u32>>,
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct RawAccessLog {
    enabled: Option<bool>,
    path: Option<Spanned<String>>,
    format: Option<Spanned<String>>,
    escape: Option<Spanned<String>>,
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct RawAdmin {
    listen: Spanned<ListenAddr>,
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCompression {
    level: Option<Spanned<u32>>,
    min_length: Option<SizeValue>,
    types: Option<Vec<Spanned<String>>>,
    algorithms: Option<Spanned<Vec<Spanned<String>>>>,
}

#[derive(Clone, Copy, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
enum BalanceValue {
    RoundRobin,
    LeastOutstanding,
    ClientAddress,
}

#[derive(Clone, Copy, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
enum HeadersValue {
    Draft10,
    Legacy,
    Off,
}

#[derive(Clone, Copy, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
enum BackendValue {
    Memory,
    Redis,
}

#[derive(Clone, Copy, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
enum OnRedisErrorValue {
    Allow,
    Deny,
    Local,
}

// ---------------------------------------------------------------------------------------------
// Values in their written units. Each parses during deserialization, so a bad value's error carries
// the value's own span.
// ---------------------------------------------------------------------------------------------

/// A value written as a string in some syntax; `parse` says what would be valid.
trait FromText: Sized {
    /// What the value looks like, for serde's "invalid type" messages.
    const EXPECTED: &'static str;
    fn parse(text: &str) -> Result<Self, String>;
    /// A bare TOML integer, where the syntax allows one.
    fn from_integer(_value: i64) -> Option<Result<Self, String>> {
        None
    }
}

struct TextVisitor<T>(PhantomData<T>);

impl<'de, T: FromText> Visitor<'de> for TextVisitor<T> {
    type Value = T;

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str(T::EXPECTED)
    }

    fn visit_str<E: de::Error>(self, text: &str) -> Result<T, E> {
        T::parse(text).map_err(E::custom)
    }

    fn visit_i64<E: de::Error>(self, value: i64) -> Result<T, E> {
        match T::from_integer(value) {
            Some(result) => result.map_err(E::custom),
            None => Err(E::invalid_type(de::Unexpected::Signed(value), &self)),
        }
    }

    fn visit_u64<E: de::Error>(self, value: u64) -> Result<T, E> {
        match i64::try_from(value) {
            Ok(value) => self.visit_i64(value),
            Err(_) => Err(E::invalid_value(de::Unexpected::Unsigned(value), &self)),
        }
    }
}

macro_rules! deserialize_from_text {
    ($($name:ident),*) => {$(
        impl<'de> Deserialize<'de> for $name {
            fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                deserializer.deserialize_any(TextVisitor::<$name>(PhantomData))
            }
        }
    )*};
}

deserialize_from_text!(
    DurationValue,
    SizeValue,
    RateValue,
    KeyValue,
    ListenAddr,
    Network,
    StatusValue,
    ServerAddr,
    RealIpHeaderValue,
    RuntimeValue
);

struct DurationValue(Duration);

impl FromText for DurationValue {
    const EXPECTED: &'static str = units::DURATION_EXPECTED;

    fn parse(text: &str) -> Result<Self, String> {
        units::parse_duration(text).map(DurationValue)
    }

    /// nginx reads `keepalive_timeout 120` as seconds.
    fn from_integer(value: i64) -> Option<Result<Self, String>> {
        Some(
            u64::try_from(value)
                .map(|seconds| DurationValue(Duration::from_secs(seconds)))
                .map_err(|_| format!("expected {}, found {value}", units::DURATION_EXPECTED)),
        )
    }
}

struct SizeValue(u64);

impl FromText for SizeValue {
    const EXPECTED: &'static str = units::SIZE_EXPECTED;

    fn parse(text: &str) -> Result<Self, String> {
        units::parse_size(text).map(SizeValue)
    }

    fn from_integer(value: i64) -> Option<Result<Self, String>> {
        Some(
            u64::try_from(value)
                .map(SizeValue)
                .map_err(|_| format!("expected {}, found {value}", units::SIZE_EXPECTED)),
        )
    }
}

struct RateValue(Rate);

impl FromText for RateValue {
    const EXPECTED: &'static str = "a rate such as \"10r/s\" or \"600r/m\"";

    fn parse(text: &str) -> Result<Self, String> {
        units::parse_rate(text).map(RateValue)
    }
}

struct KeyValue(Vec<KeyPart>);

impl FromText for KeyValue {
    const EXPECTED: &'static str =
        "a key such as \"client_ip\", \"header:X-Api-Key\" or \"client_ip+path\"";

    fn parse(text: &str) -> Result<Self, String> {
        units::parse_key(text).map(KeyValue)
    }
}

struct ListenAddr(SocketAddr);

impl FromText for ListenAddr {
    const EXPECTED: &'static str = "an address such as \"127.0.0.1:8080\" or \"[::1]:8080\"";

    fn parse(text: &str) -> Result<Self, String> {
        units::parse_listen(text).map(ListenAddr)
    }
}

struct Network(IpNet);

impl FromText for Network {
    const EXPECTED: &'static str = "a network such as \"10.0.0.0/8\"";

    fn parse(text: &str) -> Result<Self, String> {
        units::parse_network(text).map(Network)
    }
}

/// A `servers` entry: an address, or a host name to resolve.
enum ServerAddr {
    Addr(UpstreamAddr),
    Name { host: String, port: u16 },
}

impl FromText for ServerAddr {
    const EXPECTED: &'static str =
        "a server such as \"unix:/run/app.sock\", \"127.0.0.1:8000\" or \"web:8000\"";

    /// An IP address is taken as it is, never resolved; anything else that is not a Unix socket
    /// must be `HOST:PORT`.
    fn parse(text: &str) -> Result<Self, String> {
        match text.parse::<UpstreamAddr>() {
            Ok(addr) => Ok(ServerAddr::Addr(addr)),
            Err(error) if text.starts_with("unix:") => Err(error),
            Err(_) => super::server_name::parse_server_name(text)
                .map(|(host, port)| ServerAddr::Name { host, port }),
        }
    }
}

/// `[server] resolver`.
struct ResolverValue(SocketAddr);

impl FromText for ResolverValue {
    const EXPECTED: &'static str =
        "a DNS server's address such as \"127.0.0.11\" or \"10.0.0.2:53\"";

    fn parse(text: &str) -> Result<Self, String> {
        super::server_name::parse_resolver(text).map(ResolverValue)
    }
}

deserialize_from_text!(ResolverValue);

struct StatusValue(StatusCode);

impl FromText for StatusValue {
    const EXPECTED: &'static str =
        "a status from 400 to 599 (as nginx's limit_req_status), such as 429 or 503";

    fn parse(text: &str) -> Result<Self, String> {
        Err(format!(
            "expected {}, found string {text:?}",
            Self::EXPECTED
        ))
    }

    fn from_integer(value: i64) -> Option<Result<Self, String>> {
        let status = u16::try_from(value)
            .ok()
            .filter(|code| (400..=599).contains(code))
            .and_then(|code| StatusCode::from_u16(code).ok())
            .map(StatusValue)
            .ok_or_else(|| format!("expected {}, found {value}", Self::EXPECTED));
        Some(status)
    }
}

struct RuntimeValue(crate::config::RuntimeLayout);

impl FromText for RuntimeValue {
    const EXPECTED: &'static str = "one of \"per_core\", \"work_stealing\"";

    fn parse(text: &str) -> Result<Self, String> {
        match text {
            "per_core" => Ok(RuntimeValue(crate::config::RuntimeLayout::PerCore)),
            "work_stealing" => Ok(RuntimeValue(crate::config::RuntimeLayout::WorkStealing)),
            _ => Err(format!("expected {}, found {text:?}", Self::EXPECTED)),
        }
    }
}

struct RealIpHeaderValue(RealIpHeader);

impl FromText for RealIpHeaderValue {
    const EXPECTED: &'static str = "one of \"X-Forwarded-For\", \"X-Real-IP\", \"Forwarded\"";

    /// Header names are case-insensitive, so the choice is too.
    fn parse(text: &str) -> Result<Self, String> {
        let header = match text.to_ascii_lowercase().as_str() {
            "x-forwarded-for" => RealIpHeader::XForwardedFor,
            "x-real-ip" => RealIpHeader::XRealIp,
            "forwarded" => RealIpHeader::Forwarded,
            _ => return Err(format!("expected {}, found {text:?}", Self::EXPECTED)),
        };
        Ok(RealIpHeaderValue(header))
    }
}

/// One value or an array of them: `servers = "unix:/run/app.sock"` reads as a one-element list.
struct OneOrMany<T>(Vec<T>);

impl<'de, T: Deserialize<'de> + FromText> Deserialize<'de> for OneOrMany<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct ListVisitor<T>(PhantomData<T>);

        impl<'de, T: Deserialize<'de> + FromText> Visitor<'de> for ListVisitor<T> {
            type Value = OneOrMany<T>;

            fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(formatter, "{}, or an array of them", T::EXPECTED)
            }

            fn visit_str<E: de::Error>(self, text: &str) -> Result<Self::Value, E> {
                T::deserialize(text.into_deserializer()).map(|value| OneOrMany(vec![value]))
            }

            fn visit_seq<A: SeqAccess<'de>>(
                self,
                mut sequence: A,
            ) -> Result<Self::Value, A::Error> {
                let mut values = Vec::new();
                while let Some(value) = sequence.next_element()? {
                    values.push(value);
                }
                Ok(OneOrMany(values))
            }
        }

        deserializer.deserialize_any(ListVisitor(PhantomData))
    }
}

// ---------------------------------------------------------------------------------------------
// Validation: raw mirror -> typed config.
// ---------------------------------------------------------------------------------------------

/// `[access_log] format` and `escape`: `combined` (the default), `json`, or a line of nginx
/// variables, whose values `escape` may write for JSON.
fn validate_log_format(
    format: Option<Spanned<String>>,
    escape: Option<Spanned<String>>,
) -> Result<AccessLogFormat, Problem> {
    let escape_span = escape.as_ref().map(Spanned::span);
    let escape = match &escape {
        None => LogEscape::Default,
        Some(escape) => match escape.get_ref().as_str() {
            "default" => LogEscape::Default,
            "json" => LogEscape::Json,
            other => {
                return Err(invalid(
                    escape.span(),
                    format!("expected \"default\" or \"json\" (nginx's log_format escape=), found {other:?}"),
                ))
            }
        },
    };
    let format = match format {
        None => AccessLogFormat::Combined,
        Some(format) => match format.get_ref().as_str() {
            "combined" => AccessLogFormat::Combined,
            "json" => AccessLogFormat::Json,
            text => AccessLogFormat::Template(Arc::new(
                LogTemplate::parse(text, escape)
                    .map_err(|message| invalid(format.span(), message))?,
            )),
        },
    };
    if let (Some(span), AccessLogFormat::Combined | AccessLogFormat::Json) = (escape_span, &format)
    {
        return Err(invalid(
            span,
            "escape applies to a format line of nginx variables; combined and json escape their own values",
        ));
    }
    Ok(format)
}

fn invalid(span: Range<usize>, message: impl Into<String>) -> Problem {
    Problem::new(ConfigErrorKind::InvalidValue, span, message)
}

/// The names `[upstreams.NAME]` and `[limits.NAME]` may have: they become metric labels and Redis
/// key prefixes, where dots, spaces and quotes would be trouble.
fn check_name(table: &str, name: &str, span: Range<usize>) -> Result<(), Problem> {
    let valid = !name.is_empty()
        && name.chars().all(|character| {
            character.is_ascii_alphanumeric() || character == '_' || character == '-'
        });
    if valid {
        Ok(())
    } else {
        Err(invalid(
            span,
            format!("{table} name {name:?} must be letters, digits, '_' or '-', as in \"app\" or \"per_ip\""),
        ))
    }
}

/// `defined: app, static`, or a hint that nothing is.
fn defined_names<T>(table: &str, map: &BTreeMap<String, T>) -> String {
    if map.is_empty() {
        format!("no [{table}.NAME] table is defined")
    } else {
        format!(
            "defined: {}",
            map.keys().cloned().collect::<Vec<_>>().join(", ")
        )
    }
}

impl RawConfig {
    fn validate(self, source: Option<&Path>) -> Result<Config, Problem> {
        let server = self.server.unwrap_or_default().validate()?;

        let mut upstreams = BTreeMap::new();
        for (name, upstream) in &self.upstreams {
            check_name("upstream", name, upstream.span())?;
            upstreams.insert(
                name.clone(),
                validate_upstream(upstream.get_ref(), &server.resolve)?,
            );
        }

        let mut limits = BTreeMap::new();
        for (name, limit) in &self.limits {
            check_name("limit", name, limit.span())?;
            limits.insert(name.clone(), validate_limit(name, limit)?);
        }

        let mut connection_limits = BTreeMap::new();
        for (name, limit) in &self.connection_limits {
            check_name("connection limit", name, limit.span())?;
            connection_limits.insert(name.clone(), validate_conn_limit(limit.get_ref())?);
        }

        let maps = self
            .maps
            .iter()
            .map(|(name, map)| validate_map(name, map))
            .collect::<Result<Vec<_>, _>>()?;
        // A header value's `$NAME` of a map is that map's.
        let (routes, hosts) = super::redirect::with_map_names(
            maps.iter().map(|map| map.name.clone()).collect(),
            || {
                let routes = validate_routes(
                    &self.routes,
                    &self.upstreams,
                    (&self.limits, &self.connection_limits),
                )?;
                let hosts = rules::validate_hosts(&self.hosts, &routes, validate_host)?;
                Ok::<_, Problem>((routes, hosts))
            },
        )?;

        let access_log = match self.access_log {
            None => AccessLogConfig {
                enabled: false,
                path: None,
                format: AccessLogFormat::Combined,
            },
            Some(raw) => {
                let path = match raw.path {
                    Some(path) if path.get_ref().is_empty() => {
                        return Err(invalid(
                            path.span(),
                            "expected a file path such as \"/var/log/weir/access.log\"; leave path out to log to stderr",
                        ))
                    }
                    Some(path) => Some(PathBuf::from(path.into_inner())),
                    None => None,
                };
                AccessLogConfig {
                    enabled: raw.enabled.unwrap_or(false),
                    path,
                    format: validate_log_format(raw.format, raw.escape)?,
                }
            }
        };

        let admin = match self.admin {
            None => None,
            Some(raw) => {
                let listen = raw.listen.get_ref().0;
                // Port 0 asks the kernel for a free port, so two of them never collide.
                if listen.port() != 0 && server.listen.contains(&listen) {
                    return Err(Problem::new(
                        ConfigErrorKind::Conflict,
                        raw.listen.span(),
                        format!("{listen} is also in server.listen; the admin listener needs its own address"),
                    ));
                }
                Some(AdminConfig { listen })
            }
        };

        let compression = self.compression.map(validate_compression).transpose()?;

        let tls = match &self.tls {
            None => None,
            Some(raw) => {
                let tls = validate_tls(raw, source)?;
                let taken = server
                    .listen
                    .iter()
                    .chain(admin.as_ref().map(|admin| &admin.listen));
                for addr in taken {
                    if addr.port() != 0 && tls.listen.contains(addr) {
                        return Err(Problem::new(
                            ConfigErrorKind::Conflict,
                            raw.get_ref().listen.span(),
                            format!("{addr} is also in server.listen or admin.listen; a TLS listener needs its own address"),
                        ));
                    }
                }
                Some(tls)
            }
        };
        check_route_listeners(&self.routes, &server.listen, tls.as_ref())?;

        Ok(Config {
            source: source.map(Path::to_path_buf),
            server,
            upstreams,
            routes,
            limits,
            connection_limits,
            access_log,
            admin,
            compression,
            tls,
            hosts,
            maps,
        })
    }
}

/// `[maps.NAME]`: a name no variable of weir's has; a `source` and values of header-value
/// variables (not another map's); each entry `equals` a string (once, whatever its case) or
/// `matches` a regex.
fn validate_map(name: &str, raw: &Spanned<RawMap>) -> Result<super::redirect::ValueMap, Problem> {
    check_name("map", name, raw.span())?;
    if super::redirect::Template::parse_header(&format!("${name}")).is_ok() {
        return Err(Problem::new(
            ConfigErrorKind::Conflict,
            raw.span(),
            format!("${name} is a variable of weir's own; name the map otherwise, as in \"cors_origin\""),
        ));
    }
    let raw = raw.get_ref();
    let template = |value: &Spanned<String>| -> Result<Option<super::redirect::Template>, Problem> {
        if value.get_ref().is_empty() {
            return Ok(None);
        }
        super::redirect::Template::parse_header(value.get_ref())
            .map(Some)
            .map_err(|message| invalid(value.span(), message))
    };
    let source = template(&raw.source)?.ok_or_else(|| {
        invalid(
            raw.source.span(),
            "expected what the map looks up, such as \"$http_origin\"",
        )
    })?;
    let mut equals = HashMap::new();
    let mut matches = Vec::new();
    for entry in &raw.entries {
        let value = template(&entry.value)?;
        match (&entry.equals, &entry.matches) {
            (Some(text), None) => {
                if equals
                    .insert(text.get_ref().to_ascii_lowercase(), value)
                    .is_some()
                {
                    return Err(Problem::new(
                        ConfigErrorKind::Duplicate,
                        text.span(),
                        format!("{:?} is listed twice (strings are matched whatever their case, as nginx's)", text.get_ref()),
                    ));
                }
            }
            (None, Some(pattern)) => {
                let regex = regex::bytes::Regex::new(pattern.get_ref()).map_err(|error| {
                    invalid(
                        pattern.span(),
                        format!(
                            "expected a regex (no look-around or back-references; `(?i)` for any case, nginx's `~*`): {}",
                            error.to_string().lines().last().unwrap_or_default()
                        ),
                    )
                })?;
                matches.push((regex, value));
            }
            _ => {
                return Err(invalid(
                    entry.value.span(),
                    "expected an entry with one of `equals` (a string) and `matches` (a regex)",
                ))
            }
        }
    }
    Ok(super::redirect::ValueMap {
        name: name.to_string(),
        source,
        equals,
        matches,
        default: raw.default.as_ref().map(template).transpose()?.flatten(),
    })
}

impl RawServer {
    fn validate(self) -> Result<ServerConfig, Problem> {
        let listen = match self.listen {
            None => vec![default::LISTEN],
            Some(listen) => {
                let span = listen.span();
                let addresses: Vec<SocketAddr> = listen
                    .into_inner()
                    .0
                    .into_iter()
                    .map(|addr| addr.0)
                    .collect();
                if addresses.is_empty() {
                    return Err(invalid(
                        span,
                        "listen needs at least one address, such as [\"127.0.0.1:8080\"]",
                    ));
                }
                for (position, address) in addresses.iter().enumerate() {
                    if addresses[..position].contains(address) {
                        return Err(Problem::new(
                            ConfigErrorKind::Duplicate,
                            span,
                            format!("{address} is listed twice"),
                        ));
                    }
                }
                addresses
            }
        };

        let max_connections = match self.max_connections {
            None => default::MAX_CONNECTIONS,
            Some(value) if *value.get_ref() == 0 => {
                return Err(invalid(
                    value.span(),
                    "max_connections must be at least 1 (the default is 10000)",
                ))
            }
            Some(value) => value.into_inner(),
        };

        let keepalive_requests = match self.keepalive_requests {
            None => default::KEEPALIVE_REQUESTS,
            Some(value) if *value.get_ref() == 0 => {
                return Err(invalid(
                    value.span(),
                    "keepalive_requests must be at least 1; to turn keep-alive off set keepalive_timeout = \"0s\"",
                ))
            }
            Some(value) => value.into_inner(),
        };

        let header_timeout =
            positive_duration(self.header_timeout.as_ref(), default::HEADER_TIMEOUT)?;
        let pid_file = match self.pid_file {
            None => None,
            Some(value) if value.get_ref().trim().is_empty() => return Err(invalid(
                value.span(),
                "expected a file path such as \"/run/weir.pid\"; leave pid_file out to write none",
            )),
            Some(value) => Some(std::path::PathBuf::from(value.into_inner())),
        };
        let body_timeout = positive_duration(self.body_timeout.as_ref(), default::BODY_TIMEOUT)?;
        let send_timeout = positive_duration(self.send_timeout.as_ref(), default::SEND_TIMEOUT)?;

        let max_header_size = match self.max_header_size {
            None => default::MAX_HEADER_SIZE,
            Some(value) => {
                let bytes = value.get_ref().0;
                if bytes < MIN_HEADER_SIZE {
                    return Err(invalid(
                        value.span(),
                        format!("max_header_size must be at least 1KiB, found {bytes} bytes"),
                    ));
                }
                // A head's field index holds 32-bit ranges (`head_view`), so a head is below
                // 4 GiB whatever this says (`h1::head::parse` refuses a larger one).
                u32::try_from(bytes)
                    .ok()
                    .and_then(|bytes| usize::try_from(bytes).ok())
                    .ok_or_else(|| {
                        invalid(
                            value.span(),
                            format!(
                                "max_header_size {bytes} is too large: it must be below 4GiB \
                                 (the default is 32KiB)"
                            ),
                        )
                    })?
            }
        };

        let spool_dir = match self.spool_dir {
            None => None,
            Some(value) => {
                let path = PathBuf::from(value.get_ref());
                if !path.is_absolute() {
                    return Err(invalid(
                        value.span(),
                        format!(
                            "expected an absolute directory such as \"/var/lib/weir/spool\", found {:?}",
                            value.get_ref()
                        ),
                    ));
                }
                Some(path)
            }
        };

        let max_spool_size = match self.max_spool_size {
            None => default::MAX_SPOOL_SIZE,
            Some(value) => {
                let bytes = value.get_ref().0;
                let least = super::BODY_MEMORY_LIMIT as u64;
                if bytes < least {
                    return Err(invalid(
                        value.span(),
                        format!("max_spool_size must be at least 1MiB, since only bodies past 1 MiB are spooled (the default is 1GiB), found {bytes} bytes"),
                    ));
                }
                bytes
            }
        };

        let max_body_memory = match self.max_body_memory {
            None => default::MAX_BODY_MEMORY,
            Some(value) => {
                let bytes = value.get_ref().0;
                let least = super::BODY_MEMORY_LIMIT as u64;
                if bytes < least {
                    return Err(invalid(
                        value.span(),
                        format!("max_body_memory must be at least 1MiB, one body's share of memory (the default is 64MiB), found {bytes} bytes"),
                    ));
                }
                bytes
            }
        };

        let cache_size = match &self.cache_size {
            None => default::CACHE_SIZE,
            Some(value) if value.get_ref().0 < 1024 * 1024 => {
                return Err(invalid(
                    value.span(),
                    format!(
                        "cache_size must be at least 1MiB (the default is 64MiB), found {} bytes",
                        value.get_ref().0
                    ),
                ))
            }
            Some(value) => value.get_ref().0,
        };
        let cache_max_answer = match &self.cache_max_answer {
            None => default::CACHE_MAX_ANSWER.min(cache_size),
            Some(value) if value.get_ref().0 == 0 || value.get_ref().0 > cache_size => {
                return Err(invalid(
                    value.span(),
                    format!(
                        "cache_max_answer must be from 1 byte to cache_size ({cache_size} bytes); the default is 1MiB, found {} bytes",
                        value.get_ref().0
                    ),
                ))
            }
            Some(value) => value.get_ref().0,
        };

        let server_header = match self.server_header {
            None => None,
            Some(value) => {
                let valid = !value.get_ref().trim().is_empty()
                    && HeaderValue::from_str(value.get_ref()).is_ok();
                if !valid {
                    return Err(invalid(
                        value.span(),
                        "expected a header value such as \"weir\" (visible ASCII, not empty); leave server_header out to send none",
                    ));
                }
                Some(value.into_inner())
            }
        };

        Ok(ServerConfig {
            listen,
            backlog: self.backlog.unwrap_or(default::BACKLOG),
            max_connections,
            keepalive_timeout: self
                .keepalive_timeout
                .map_or(default::KEEPALIVE_TIMEOUT, |value| value.0),
            keepalive_requests,
            header_timeout,
            body_timeout,
            send_timeout,
            underscores_in_headers: self.underscores_in_headers.unwrap_or(false),
            pid_file,
            max_header_size,
            max_body_size: self
                .max_body_size
                .map_or(default::MAX_BODY_SIZE, |value| value.0),
            spool_dir,
            max_spool_size,
            max_body_memory,
            cache_size,
            cache_max_answer,
            shutdown_grace: self
                .shutdown_grace
                .map_or(default::SHUTDOWN_GRACE, |value| value.0),
            server_header,
            error_pages: rules::validate_pages(self.error_pages.as_ref(), None)?,
            trusted_proxies: self
                .trusted_proxies
                .map(|list| list.0.into_iter().map(|network| network.0).collect())
                .unwrap_or_default(),
            real_ip_header: self
                .real_ip_header
                .map_or(RealIpHeader::XForwardedFor, |value| value.0),
            runtime: self
                .runtime
                .map_or(crate::config::RuntimeLayout::PerCore, |value| value.0),
            threads: self.threads.unwrap_or(0),
            max_password_checks: self.max_password_checks.unwrap_or(0),
            resolve: validate_resolve(
                self.resolver.as_ref(),
                self.resolve_interval.as_ref(),
                self.resolve_timeout.as_ref(),
            )?,
        })
    }
}

/// `[tls]`: each key defaults as documented on [`TlsConfig`]. The certificate files are read by
/// [`load`], not here: this stage is pure.
/// Relative certificate paths are taken from the config file's directory.
fn validate_tls(raw: &Spanned<RawTls>, source: Option<&Path>) -> Result<TlsConfig, Problem> {
    let base = source.and_then(Path::parent).unwrap_or(Path::new(""));
    let table_span = raw.span();
    let raw = raw.get_ref();
    let listen: Vec<SocketAddr> = raw.listen.get_ref().0.iter().map(|addr| addr.0).collect();
    if listen.is_empty() {
        return Err(invalid(
            raw.listen.span(),
            "listen needs at least one address, such as [\"0.0.0.0:443\"]",
        ));
    }
    for (position, address) in listen.iter().enumerate() {
        if listen[..position].contains(address) {
            return Err(Problem::new(
                ConfigErrorKind::Duplicate,
                raw.listen.span(),
                format!("{address} is listed twice"),
            ));
        }
    }
    let certificates: Vec<CertificateConfig> = match &raw.certificates {
        Some(list) if !list.get_ref().is_empty() => list
            .get_ref()
            .iter()
            .map(|certificate| -> Result<CertificateConfig, Problem> {
                for path in [&certificate.cert, &certificate.key] {
                    if path.get_ref().is_empty() {
                        return Err(invalid(
                            path.span(),
                            "expected a PEM file path such as \"/etc/letsencrypt/live/example.com/fullchain.pem\"",
                        ));
                    }
                }
                Ok(CertificateConfig {
                    cert: base.join(certificate.cert.get_ref()),
                    key: base.join(certificate.key.get_ref()),
                })
            })
            .collect::<Result<_, _>>()?,
        Some(list) => {
            return Err(invalid(
                list.span(),
                "at least one [[tls.certificates]] with cert and key is needed",
            ))
        }
        None => {
            return Err(Problem::new(
                ConfigErrorKind::MissingKey,
                table_span,
                "at least one [[tls.certificates]] table with cert = \"fullchain.pem\" and key = \"privkey.pem\" is needed",
            )
            .with_key("tls.certificates"))
        }
    };
    let protocols = match &raw.protocols {
        None => vec![TlsVersion::Tls12, TlsVersion::Tls13],
        Some(list) => {
            let mut protocols = Vec::new();
            for name in list.get_ref() {
                let version = match name.get_ref().as_str() {
                    "TLSv1.2" => TlsVersion::Tls12,
                    "TLSv1.3" => TlsVersion::Tls13,
                    other => {
                        return Err(invalid(
                            name.span(),
                            format!("expected \"TLSv1.2\" or \"TLSv1.3\" (older versions are not offered), found {other:?}"),
                        ))
                    }
                };
                if !protocols.contains(&version) {
                    protocols.push(version);
                }
            }
            if protocols.is_empty() {
                return Err(invalid(
                    list.span(),
                    "protocols needs at least one of \"TLSv1.2\", \"TLSv1.3\"",
                ));
            }
            protocols
        }
    };
    let alpn = match &raw.alpn {
        None => vec![Alpn::H2, Alpn::Http11],
        Some(list) => {
            let mut alpn = Vec::new();
            for name in list.get_ref() {
                let protocol = match name.get_ref().as_str() {
                    "h2" => Alpn::H2,
                    "http/1.1" => Alpn::Http11,
                    other => {
                        return Err(invalid(
                            name.span(),
                            format!("expected \"h2\" or \"http/1.1\", found {other:?}"),
                        ))
                    }
                };
                if !alpn.contains(&protocol) {
                    alpn.push(protocol);
                }
            }
            if alpn.is_empty() {
                return Err(invalid(
                    list.span(),
                    "alpn needs at least one of \"h2\", \"http/1.1\"",
                ));
            }
            alpn
        }
    };
    let hsts = match &raw.hsts {
        None => None,
        Some(value) => {
            let text = value.get_ref();
            let valid = text
                .trim_start()
                .to_ascii_lowercase()
                .starts_with("max-age=")
                && HeaderValue::from_str(text).is_ok();
            if !valid {
                return Err(invalid(
                    value.span(),
                    format!("expected a Strict-Transport-Security value such as \"max-age=31536000; includeSubDomains\", found {text:?}"),
                ));
            }
            Some(text.clone())
        }
    };
    let streams = match &raw.http2_max_concurrent_streams {
        None => default::HTTP2_MAX_CONCURRENT_STREAMS,
        Some(value) if !(1..=10_000).contains(value.get_ref()) => {
            return Err(invalid(
                value.span(),
                "http2_max_concurrent_streams must be from 1 to 10000 (the default is 128)",
            ))
        }
        Some(value) => *value.get_ref(),
    };
    let size_in = |value: &Option<Spanned<SizeValue>>,
                   default: u32,
                   range: std::ops::RangeInclusive<u64>,
                   key: &str|
     -> Result<u32, Problem> {
        match value {
            None => Ok(default),
            Some(value) if range.contains(&value.get_ref().0) => Ok(value.get_ref().0 as u32),
            Some(value) => Err(invalid(
                value.span(),
                format!(
                    "{key} must be from {} to {} (the default is {})",
                    units::format_size(*range.start()),
                    units::format_size(*range.end()),
                    units::format_size(u64::from(default))
                ),
            )),
        }
    };
    // RFC 9113 §6.9.1: a window is at most 2^31-1 bytes; below 16 KiB not one full frame fits.
    let windows = 16 * 1024..=(1u64 << 31) - 1;
    Ok(TlsConfig {
        listen,
        certificates,
        protocols,
        alpn,
        session_tickets: raw.session_tickets.unwrap_or(true),
        session_cache: raw.session_cache.unwrap_or(default::SESSION_CACHE),
        handshake_timeout: positive_duration(
            raw.handshake_timeout.as_ref(),
            default::HANDSHAKE_TIMEOUT,
        )?,
        hsts,
        redirect_http: raw.redirect_http.unwrap_or(false),
        http2_max_concurrent_streams: streams,
        http2_max_header_list_size: size_in(
            &raw.http2_max_header_list_size,
            default::HTTP2_MAX_HEADER_LIST_SIZE,
            1024..=16 * 1024 * 1024,
            "http2_max_header_list_size",
        )?,
        http2_stream_window: size_in(
            &raw.http2_stream_window,
            default::HTTP2_STREAM_WINDOW,
            windows.clone(),
            "http2_stream_window",
        )?,
        http2_connection_window: size_in(
            &raw.http2_connection_window,
            default::HTTP2_CONNECTION_WINDOW,
            windows,
            "http2_connection_window",
        )?,
    })
}

/// A timeout that would fire at once is a mistake, not a setting.
fn positive_duration(
    value: Option<&Spanned<DurationValue>>,
    default: Duration,
) -> Result<Duration, Problem> {
    match value {
        None => Ok(default),
        Some(value) if value.get_ref().0.is_zero() => Err(invalid(
            value.span(),
            format!(
                "this timeout must be greater than 0s (the default is {})",
                units::format_duration(default)
            ),
        )),
        Some(value) => Ok(value.get_ref().0),
    }
}

fn validate_upstream(
    raw: &RawUpstream,
    resolve: &super::ResolveConfig,
) -> Result<UpstreamConfig, Problem> {
    if raw.servers.get_ref().0.is_empty() {
        return Err(invalid(
            raw.servers.span(),
            "servers needs at least one server, such as [\"unix:/run/app.sock\"] or [\"127.0.0.1:8000\"]",
        ));
    }
    let timeout = |value: &Option<Spanned<DurationValue>>| {
        positive_duration(value.as_ref(), default::PROXY_TIMEOUT)
    };
    let (servers, mut names) = split_servers(&raw.servers.get_ref().0, false);
    let (backup_servers, backup_names) = match &raw.backup_servers {
        None => (Vec::new(), Vec::new()),
        Some(list) => {
            let (backup_servers, backup_names) = split_servers(&list.get_ref().0, true);
            let twice = backup_servers
                .iter()
                .map(ToString::to_string)
                .chain(backup_names.iter().map(ToString::to_string))
                .find(|backup| {
                    servers.iter().any(|server| server.to_string() == *backup)
                        || names.iter().any(|name| name.to_string() == *backup)
                });
            if let Some(twice) = twice {
                return Err(invalid(
                    list.span(),
                    format!("{twice} is in servers too: a server is either one of the group or a backup"),
                ));
            }
            (backup_servers, backup_names)
        }
    };
    let mut weights: Vec<(String, u32)> = Vec::new();
    for (server, weight) in raw.weights.iter().flatten() {
        let text = match ServerAddr::parse(server.get_ref()) {
            Ok(ServerAddr::Addr(addr)) => addr.to_string(),
            Ok(ServerAddr::Name { host, port }) => format!("{host}:{port}"),
            Err(_) => String::new(),
        };
        let listed = servers
            .iter()
            .map(ToString::to_string)
            .chain(backup_servers.iter().map(ToString::to_string))
            .chain(names.iter().chain(&backup_names).map(ToString::to_string))
            .any(|given| given == text);
        if !listed {
            return Err(invalid(
                server.span(),
                format!(
                    "{:?} is not one of this upstream's servers or backup_servers; weights name them as written there",
                    server.get_ref()
                ),
            ));
        }
        if !(1..=super::MOST_WEIGHT).contains(weight.get_ref()) {
            return Err(invalid(
                weight.span(),
                format!(
                    "expected a weight from 1 to {} (nginx's weight=N: the server takes N turns for another's 1), found {}",
                    super::MOST_WEIGHT,
                    weight.get_ref()
                ),
            ));
        }
        weights.push((text, *weight.get_ref()));
    }
    names.extend(backup_names);
    let capacity = capacity::validate(capacity::Keys {
        workers: raw.workers.as_ref(),
        threads: raw.threads.as_ref(),
        worker_class: raw.worker_class.as_ref(),
        max_connections: raw.max_connections,
    })?;
    Ok(UpstreamConfig {
        capacity,
        resolve: (!names.is_empty()).then_some(*resolve),
        names,
        servers,
        backup_servers,
        weights,
        max_connections: capacity.map_or(
            raw.max_connections
                .unwrap_or(default::UPSTREAM_MAX_CONNECTIONS),
            |capacity| capacity.limit(),
        ),
        max_idle: raw.max_idle.unwrap_or(match capacity {
            Some(capacity) if capacity.worker_class == super::WorkerClass::Async => {
                default::MAX_IDLE_ASYNC
            }
            _ => default::MAX_IDLE,
        }),
        idle_timeout: raw
            .idle_timeout
            .as_ref()
            .map_or(default::IDLE_TIMEOUT, |value| value.0),
        keepalive_time: positive_duration(raw.keepalive_time.as_ref(), default::KEEPALIVE_TIME)?,
        queue_size: raw.queue_size.unwrap_or(default::QUEUE_SIZE),
        queue_timeout: raw
            .queue_timeout
            .as_ref()
            .map_or(default::QUEUE_TIMEOUT, |value| value.0),
        connect_timeout: timeout(&raw.connect_timeout)?,
        read_timeout: timeout(&raw.read_timeout)?,
        send_timeout: timeout(&raw.send_timeout)?,
        balance: match raw.balance.unwrap_or(BalanceValue::RoundRobin) {
            BalanceValue::RoundRobin => Balance::RoundRobin,
            BalanceValue::LeastOutstanding => Balance::LeastOutstanding,
            BalanceValue::ClientAddress => Balance::ClientAddress,
        },
        max_fails: raw.max_fails.unwrap_or(default::MAX_FAILS),
        fail_timeout: positive_duration(raw.fail_timeout.as_ref(), default::FAIL_TIMEOUT)?,
        health_check: raw
            .health_check
            .as_ref()
            .map(validate_health_check)
            .transpose()?,
    })
}

// Upstream servers by host name.

/// The `servers` (or, `backup`, `backup_servers`) list into its addresses and its host names
/// (each with its place in the list).
fn split_servers(list: &[ServerAddr], backup: bool) -> (Vec<UpstreamAddr>, Vec<super::ServerName>) {
    let mut servers = Vec::new();
    let mut names = Vec::new();
    for (index, server) in list.iter().enumerate() {
        match server {
            ServerAddr::Addr(addr) => servers.push(addr.clone()),
            ServerAddr::Name { host, port } => names.push(super::ServerName {
                host: host.clone(),
                port: *port,
                index,
                backup,
            }),
        }
    }
    (servers, names)
}

/// `[server] resolver`, `resolve_interval` (at least [`super::MIN_RESOLVE_INTERVAL`]) and
/// `resolve_timeout` (more than 0).
fn validate_resolve(
    resolver: Option<&ResolverValue>,
    interval: Option<&Spanned<DurationValue>>,
    timeout: Option<&Spanned<DurationValue>>,
) -> Result<super::ResolveConfig, Problem> {
    use super::server_name::{DEFAULT_RESOLVE_INTERVAL, DEFAULT_RESOLVE_TIMEOUT};
    let interval = match interval {
        None => DEFAULT_RESOLVE_INTERVAL,
        Some(value) if value.get_ref().0 < super::MIN_RESOLVE_INTERVAL => {
            return Err(invalid(
                value.span(),
                format!(
                    "resolve_interval must be at least {} (the default is {})",
                    units::format_duration(super::MIN_RESOLVE_INTERVAL),
                    units::format_duration(DEFAULT_RESOLVE_INTERVAL)
                ),
            ))
        }
        Some(value) => value.get_ref().0,
    };
    Ok(super::ResolveConfig {
        resolver: resolver.map(|value| value.0),
        interval,
        timeout: positive_duration(timeout, DEFAULT_RESOLVE_TIMEOUT)?,
    })
}

/// `health_check`: each key defaults as documented on [`HealthCheckConfig`].
fn validate_health_check(raw: &RawHealthCheck) -> Result<HealthCheckConfig, Problem> {
    let path = match &raw.path {
        None => default::HEALTH_PATH.to_string(),
        Some(path) => {
            let text = path.get_ref();
            let valid = text.starts_with('/') && text.parse::<http::uri::PathAndQuery>().is_ok();
            if !valid {
                return Err(invalid(
                    path.span(),
                    format!(
                        "expected a path such as \"/healthz\" (starting with '/'), found {text:?}"
                    ),
                ));
            }
            text.clone()
        }
    };
    let at_least_one = |value: &Option<Spanned<u32>>, default: u32, key: &str| match value {
        None => Ok(default),
        Some(value) if *value.get_ref() == 0 => Err(invalid(
            value.span(),
            format!("{key} must be at least 1 (the default is {default})"),
        )),
        Some(value) => Ok(*value.get_ref()),
    };
    Ok(HealthCheckConfig {
        path,
        interval: positive_duration(raw.interval.as_ref(), default::HEALTH_INTERVAL)?,
        timeout: positive_duration(raw.timeout.as_ref(), default::HEALTH_TIMEOUT)?,
        fails: at_least_one(&raw.fails, default::HEALTH_FAILS, "fails")?,
        passes: at_least_one(&raw.passes, default::HEALTH_PASSES, "passes")?,
    })
}

fn validate_conn_limit(raw: &RawConnLimit) -> Result<ConnLimitConfig, Problem> {
    let connections = match u32::try_from(*raw.connections.get_ref()) {
        Ok(connections @ 1..) => connections,
        _ => {
            return Err(invalid(
                raw.connections.span(),
                format!(
                "connections must be a number of requests in flight per key from 1 to {}, found {}",
                u32::MAX,
                raw.connections.get_ref()
            ),
            ))
        }
    };
    let (key, ipv6_prefix, max_keys) = limit_keys(
        raw.key.as_ref(),
        raw.ipv6_prefix.as_ref(),
        raw.max_keys.as_ref(),
    )?;
    Ok(ConnLimitConfig {
        key,
        ipv6_prefix,
        status: raw
            .status
            .as_ref()
            .map_or(default::CONN_LIMIT_STATUS, |status| status.0),
        exempt: networks(raw.exempt.as_ref()),
        limiter: ConnLimiterConfig {
            connections,
            max_keys,
            dry_run: raw.dry_run.unwrap_or(false),
        },
    })
}

/// A limit's `exempt` networks.
fn networks(list: Option<&OneOrMany<Network>>) -> Vec<IpNet> {
    list.map(|list| list.0.iter().map(|network| network.0).collect())
        .unwrap_or_default()
}

/// A rate or connection limit's `key` (default `client_ip`), `ipv6_prefix` and `max_keys`.
fn limit_keys(
    key: Option<&KeyValue>,
    prefix: Option<&Spanned<u32>>,
    max_keys: Option<&Spanned<usize>>,
) -> Result<(Vec<KeyPart>, u8, usize), Problem> {
    let max_keys = match max_keys {
        None => default::MAX_KEYS,
        Some(value) if *value.get_ref() == 0 => {
            return Err(invalid(
                value.span(),
                "max_keys must be at least 1 (the default is 100000)",
            ))
        }
        Some(value) => *value.get_ref(),
    };
    let key = key.map_or_else(|| vec![KeyPart::ClientIp], |key| key.0.clone());
    let prefix = ipv6_prefix(prefix, &key)?;
    Ok((key, prefix, max_keys))
}

/// A limit's `ipv6_prefix`, which only a key with `client_ip` takes.
fn ipv6_prefix(value: Option<&Spanned<u32>>, key: &[KeyPart]) -> Result<u8, Problem> {
    match value {
        None => Ok(default::IPV6_PREFIX),
        Some(value) if !key.contains(&KeyPart::ClientIp) => Err(Problem::new(
            ConfigErrorKind::Conflict,
            value.span(),
            "ipv6_prefix only applies to a key with client_ip; add client_ip to the key, or remove ipv6_prefix",
        )),
        Some(value) => match u8::try_from(*value.get_ref()) {
            Ok(bits @ 1..=128) => Ok(bits),
            _ => Err(invalid(
                value.span(),
                format!(
                    "ipv6_prefix must be a prefix length from 1 to 128 (the default is 64, one end site), found {}",
                    value.get_ref()
                ),
            )),
        },
    }
}

fn validate_limit(name: &str, raw: &Spanned<RawLimit>) -> Result<LimitConfig, Problem> {
    let table_span = raw.span();
    let raw = raw.get_ref();

    let delay = match (&raw.nodelay, &raw.delay) {
        (Some(_), Some(delay)) => {
            return Err(Problem::new(
                ConfigErrorKind::Conflict,
                delay.span(),
                "set either nodelay = true or delay = N, not both (as nginx's limit_req takes one of them)",
            ))
        }
        (Some(nodelay), None) if *nodelay.get_ref() => Delay::NoDelay,
        (_, Some(delay)) => Delay::After(*delay.get_ref()),
        _ => Delay::After(0),
    };

    let status = raw
        .status
        .as_ref()
        .map_or(default::LIMIT_STATUS, |status| status.0);

    let (key, ipv6_prefix, max_keys) = limit_keys(
        raw.key.as_ref(),
        raw.ipv6_prefix.as_ref(),
        raw.max_keys.as_ref(),
    )?;

    let backend = match raw.backend.unwrap_or(BackendValue::Memory) {
        BackendValue::Memory => {
            let redis_only = [
                raw.redis.as_ref().map(|value| ("redis", value.span())),
                raw.redis_timeout
                    .as_ref()
                    .map(|value| ("redis_timeout", value.span())),
                raw.on_redis_error
                    .as_ref()
                    .map(|value| ("on_redis_error", value.span())),
            ];
            if let Some((key, span)) = redis_only.into_iter().flatten().next() {
                return Err(Problem::new(
                    ConfigErrorKind::Conflict,
                    span,
                    format!("{key} only applies with backend = \"redis\"; add it, or remove {key}"),
                ));
            }
            LimitBackend::Memory
        }
        BackendValue::Redis => {
            let Some(url) = &raw.redis else {
                return Err(Problem::new(
                    ConfigErrorKind::MissingKey,
                    table_span,
                    "backend = \"redis\" needs a redis URL, such as redis = \"redis://127.0.0.1:6379/0\" or \"unix:///run/redis.sock\"",
                )
                .with_key(format!("limits.{name}.redis")));
            };
            if let Err(error) =
                redis::IntoConnectionInfo::into_connection_info(url.get_ref().as_str())
            {
                return Err(invalid(
                    url.span(),
                    format!(
                        "expected a redis URL such as \"redis://127.0.0.1:6379/0\" or \"unix:///run/redis.sock\", found {:?} ({error})",
                        url.get_ref()
                    ),
                ));
            }
            let timeout = match &raw.redis_timeout {
                None => default::REDIS_TIMEOUT,
                Some(value) if value.get_ref().0.is_zero() => {
                    return Err(invalid(
                        value.span(),
                        "redis_timeout must be greater than 0s (the default is 50ms)",
                    ))
                }
                Some(value) => value.get_ref().0,
            };
            LimitBackend::Redis(RedisLimitConfig {
                url: url.get_ref().clone(),
                timeout,
                on_error: match raw.on_redis_error.as_ref().map(|value| *value.get_ref()) {
                    None | Some(OnRedisErrorValue::Allow) => OnRedisError::Allow,
                    Some(OnRedisErrorValue::Deny) => OnRedisError::Deny,
                    Some(OnRedisErrorValue::Local) => OnRedisError::Local,
                },
            })
        }
    };

    Ok(LimitConfig {
        key,
        ipv6_prefix,
        status,
        headers: match raw.headers.unwrap_or(HeadersValue::Draft10) {
            HeadersValue::Draft10 => LimitHeaders::Draft10,
            HeadersValue::Legacy => LimitHeaders::Legacy,
            HeadersValue::Off => LimitHeaders::Off,
        },
        exempt: networks(raw.exempt.as_ref()),
        limiter: LimiterConfig {
            rate: raw.rate.0,
            burst: raw.burst.unwrap_or(0),
            delay,
            dry_run: raw.dry_run.unwrap_or(false),
            max_keys,
            nginx_rounding: raw.nginx_rounding.unwrap_or(false),
            backend,
        },
    })
}

/// A route's host: a name or IP without port, compared case-insensitively, so kept in lower case.
fn validate_host(host: &Spanned<String>) -> Result<String, Problem> {
    let text = host.get_ref();
    let without_brackets = text
        .strip_prefix('[')
        .and_then(|rest| rest.strip_suffix(']'));
    let valid = match without_brackets {
        Some(ipv6) => ipv6.parse::<std::net::Ipv6Addr>().is_ok(),
        None => {
            // A wildcard in front (`*.example.com`) or at the end (`example.*`), as nginx
            // `server_name`; nowhere else.
            let name = text
                .strip_prefix("*.")
                .or_else(|| text.strip_suffix(".*"))
                .unwrap_or(text);
            !name.is_empty()
                && name.chars().all(|character| {
                    character.is_ascii_alphanumeric() || matches!(character, '.' | '-' | '_')
                })
        }
    };
    if valid {
        Ok(text.to_ascii_lowercase())
    } else {
        Err(invalid(
            host.span(),
            format!("expected a host name without port, such as \"api.example.com\" or \"[::1]\", or a wildcard in front or at the end, as \"*.example.com\" or \"example.*\", found {text:?}"),
        ))
    }
}

/// A route's `limits` or `connection_limits`: names of tables `table` defines, each once.
fn limit_names<T>(
    names: &[Spanned<String>],
    table: &str,
    defined: &BTreeMap<String, T>,
) -> Result<Vec<String>, Problem> {
    let mut listed: Vec<String> = Vec::with_capacity(names.len());
    for limit in names {
        let name = limit.get_ref();
        if !defined.contains_key(name) {
            return Err(Problem::new(
                ConfigErrorKind::UnknownName,
                limit.span(),
                format!("unknown limit {name:?}; {}", defined_names(table, defined)),
            ));
        }
        if listed.contains(name) {
            return Err(Problem::new(
                ConfigErrorKind::Duplicate,
                limit.span(),
                format!("limit {name:?} is listed twice on this route"),
            ));
        }
        listed.push(name.clone());
    }
    Ok(listed)
}

/// The `[limits.NAME]` and `[connection_limits.NAME]` tables a route may name.
type RawLimitTables<'a> = (
    &'a BTreeMap<String, Spanned<RawLimit>>,
    &'a BTreeMap<String, Spanned<RawConnLimit>>,
);

fn validate_routes(
    raw_routes: &[Spanned<RawRoute>],
    upstreams: &BTreeMap<String, Spanned<RawUpstream>>,
    (limits, connection_limits): RawLimitTables<'_>,
) -> Result<Vec<RouteConfig>, Problem> {
    let mut routes = Vec::with_capacity(raw_routes.len());
    type Seen = (
        Option<String>,
        String,
        bool,
        (Option<bool>, crate::routing::Listeners),
    );
    let mut seen: HashMap<Seen, usize> = HashMap::new();
    for (position, raw) in raw_routes.iter().enumerate() {
        let route_span = raw.span();
        let raw = raw.get_ref();

        let host = raw.host.as_ref().map(validate_host).transpose()?;

        let scope = validate_scope(raw)?;
        let path = match &raw.path {
            // A regex route without `path` was refused by `validate_scope`.
            None => "/".to_string(),
            Some(path) if scope.regex.is_some() => path.get_ref().clone(),
            Some(path) if !path.get_ref().starts_with('/') => {
                return Err(invalid(
                    path.span(),
                    format!(
                        "a path prefix starts with '/', as in \"/\" or \"/api/\", found {:?}",
                        path.get_ref()
                    ),
                ))
            }
            Some(path) => path.get_ref().clone(),
        };

        let answer = validate_answer(raw)?;
        // `$1` .. `$9` in a redirect: the captures of the route's own regex.
        if let (Some(most), Some(location)) = (
            answer
                .as_ref()
                .and_then(|answer| answer.location.as_ref())
                .map(super::Template::most_capture)
                .filter(|most| *most > 0),
            raw.redirect.as_ref(),
        ) {
            let groups = scope.regex.as_ref().map(crate::routing::PathRegex::groups);
            match groups {
                None => {
                    return Err(invalid(
                        location.span(),
                        format!("${most} is a capture of the route's regex: give the route match = \"regex\" (nginx's location ~), or remove it"),
                    ))
                }
                Some(groups) if most > groups => {
                    return Err(invalid(
                        location.span(),
                        format!("${most} names a capture the route's regex does not have: it has {groups} group(s), ( ... )"),
                    ))
                }
                Some(_) => {}
            }
        }
        if answer.is_some() {
            let other = [
                raw.upstream
                    .as_ref()
                    .map(|value| ("upstream", value.span())),
                raw.static_root
                    .as_ref()
                    .map(|value| ("static", value.span())),
            ];
            if let Some((key, span)) = other.into_iter().flatten().next() {
                return Err(Problem::new(
                    ConfigErrorKind::Conflict,
                    span,
                    format!("a route has one of `upstream`, `static` or `redirect`/`status`, not both; remove `{key}` or the answer"),
                ));
            }
            if let Some(limit) = raw.limits.first().or(raw.connection_limits.first()) {
                return Err(Problem::new(
                    ConfigErrorKind::Conflict,
                    limit.span(),
                    "a route answered by `redirect`/`status` takes no limits (nginx's `return` answers before `limit_req` and `limit_conn`)",
                ));
            }
        }

        let (upstream, static_root) = match (&raw.upstream, &raw.static_root) {
            (None, None) if answer.is_some() => (String::new(), None),
            (Some(upstream), None) => {
                let name = upstream.get_ref();
                if !upstreams.contains_key(name) {
                    return Err(Problem::new(
                        ConfigErrorKind::UnknownName,
                        upstream.span(),
                        format!(
                            "unknown upstream {name:?}; {}",
                            defined_names("upstreams", upstreams)
                        ),
                    ));
                }
                (name.clone(), None)
            }
            (None, Some(root)) => {
                if root.get_ref().is_empty() {
                    return Err(invalid(
                        root.span(),
                        "a directory to serve, as in \"/srv/static\"".to_string(),
                    ));
                }
                (String::new(), Some(std::path::PathBuf::from(root.get_ref())))
            }
            (Some(_), Some(root)) => {
                return Err(Problem::new(
                    ConfigErrorKind::Conflict,
                    root.span(),
                    "a route has either `upstream` or `static`, not both".to_string(),
                ))
            }
            (None, None) => {
                return Err(Problem::new(
                    ConfigErrorKind::MissingKey,
                    route_span.clone(),
                    format!(
                        "a route needs `upstream` (one of the [upstreams.NAME] tables; {}), `static` (a directory) or `redirect`/`status`",
                        defined_names("upstreams", upstreams)
                    ),
                ))
            }
        };

        let route_limits = limit_names(&raw.limits, "limits", limits)?;
        let route_conn_limits = limit_names(
            &raw.connection_limits,
            "connection_limits",
            connection_limits,
        )?;

        let span_of_match = raw
            .path
            .as_ref()
            .map(Spanned::span)
            .or_else(|| raw.host.as_ref().map(Spanned::span))
            .unwrap_or(route_span);
        let exact = raw.exact.unwrap_or(false)
            || raw
                .match_kind
                .as_ref()
                .is_some_and(|kind| kind.get_ref() == "exact");
        let kind = (
            scope.regex.as_ref().map(crate::routing::PathRegex::nocase),
            scope.listeners.clone(),
        );
        if let Some(first) = seen.insert((host.clone(), path.clone(), exact, kind), position) {
            let host_text = host
                .as_deref()
                .map_or("any host".to_string(), |host| format!("host {host:?}"));
            return Err(Problem::new(
                ConfigErrorKind::Duplicate,
                span_of_match,
                format!("routes[{first}] already matches {host_text} and path {path:?}{}; each host and path may appear once", if exact { " exactly" } else { "" }),
            ));
        }

        let priority = match raw.priority.as_ref() {
            None => crate::config::Priority::Normal,
            Some(priority) => {
                let found = crate::config::Priority::ALL
                    .into_iter()
                    .find(|class| class.label() == priority.get_ref());
                match found {
                    Some(class) if raw.upstream.is_some() || raw.fallback_upstream.is_some() => {
                        class
                    }
                    Some(_) => {
                        return Err(invalid(
                            priority.span(),
                            "priority orders requests queued for an upstream: this route has no upstream (nor fallback_upstream); remove it",
                        ))
                    }
                    None => {
                        return Err(invalid(
                            priority.span(),
                            format!(
                                "expected \"high\", \"normal\" (the default) or \"low\", found {:?}",
                                priority.get_ref()
                            ),
                        ))
                    }
                }
            }
        };

        let priority_header = match raw.priority_header.as_ref() {
            None => None,
            Some(_) if raw.upstream.is_none() && raw.fallback_upstream.is_none() => {
                return Err(invalid(
                    raw.priority_header.as_ref().map_or(0..0, Spanned::span),
                    "priority_header orders requests queued for an upstream: this route has no upstream (nor fallback_upstream); remove it",
                ))
            }
            Some(name) => match http::HeaderName::from_bytes(name.get_ref().as_bytes()) {
                Ok(header) => Some(header),
                Err(_) => {
                    return Err(invalid(
                        name.span(),
                        format!(
                            "expected a header name such as \"X-Priority\", found {:?}",
                            name.get_ref()
                        ),
                    ))
                }
            },
        };

        let upstream_path = match raw.upstream_path.as_ref() {
            None => None,
            Some(value) => Some(upstream_path(value, raw, &scope)?),
        };
        let methods = raw.methods.as_ref().map(route_methods).transpose()?;
        let limit_rate = route_limit_rate(raw)?;
        let read_timeout = match raw.read_timeout.as_ref() {
            None => None,
            Some(value) if raw.upstream.is_none() && raw.fallback_upstream.is_none() => {
                return Err(Problem::new(
                    ConfigErrorKind::Conflict,
                    value.span(),
                    "read_timeout is how long the route waits for its upstream: this route has no upstream (nor fallback_upstream); remove it",
                ))
            }
            Some(value) => Some(positive_duration(Some(value), default::PROXY_TIMEOUT)?),
        };
        let cache = route_cache(raw)?;

        routes.push(RouteConfig {
            host,
            path,
            exact,
            upstream,
            upstream_path,
            static_root,
            answer,
            limits: route_limits,
            connection_limits: route_conn_limits,
            methods,
            request_buffering: raw.request_buffering.unwrap_or(true),
            response_buffering: raw.response_buffering.unwrap_or(true),
            rules: rules::validate_route(&raw.rule_keys(), upstreams)?,
            scope,
            priority,
            priority_header,
            limit_rate,
            read_timeout,
            cache,
        });
    }
    Ok(routes)
}

/// The longest `cache` and `cache_stale` (a year).
const CACHE_LONGEST: Duration = Duration::from_secs(365 * 86400);

/// `cache` (a time, `0` for only what the upstream says) on a route with an upstream, and
/// `cache_pass_cookies` (cookie names) and `cache_stale` (a time) only beside it.
fn route_cache(raw: &RawRoute) -> Result<Option<super::RouteCache>, Problem> {
    let Some(valid) = raw.cache.as_ref() else {
        if let Some(cookies) = raw.cache_pass_cookies.as_ref() {
            return Err(Problem::new(
                ConfigErrorKind::InvalidValue,
                cookies.span(),
                "cache_pass_cookies says which requests pass the route's cache: add cache = \"10s\" (how long an answer is kept), or remove it",
            ));
        }
        if let Some(stale) = raw.cache_stale.as_ref() {
            return Err(Problem::new(
                ConfigErrorKind::InvalidValue,
                stale.span(),
                "cache_stale says how long the route's cache serves an expired answer: add cache = \"10s\" (how long an answer is kept), or remove it",
            ));
        }
        if let Some((status, _)) = raw.cache_statuses.iter().flatten().next() {
            return Err(Problem::new(
                ConfigErrorKind::InvalidValue,
                status.span(),
                "cache_statuses says how long the route's cache keeps answers of other statuses: add cache = \"10s\" (how long a 200 is kept), or remove it",
            ));
        }
        if let Some(background) = raw.cache_background_update.as_ref() {
            return Err(Problem::new(
                ConfigErrorKind::InvalidValue,
                background.span(),
                "cache_background_update says how the route's cache updates an expired answer: add cache = \"10s\" and cache_stale = \"1m\", or remove it",
            ));
        }
        return Ok(None);
    };
    let mut statuses = Vec::new();
    for (status, time) in raw.cache_statuses.iter().flatten() {
        let code = rules::status_key(
            status,
            |code| (200..=599).contains(&code) && ![206, 304, 444].contains(&code),
            "a status from 200 to 599 (not 206, 304 or 444) as the key, as in `404 = \"1m\"`",
        )?;
        statuses.push((code.as_u16(), time));
    }
    let times = statuses.iter().map(|(_, time)| *time);
    for time in [Some(valid), raw.cache_stale.as_ref()]
        .into_iter()
        .flatten()
        .chain(times)
    {
        if time.get_ref().0 > CACHE_LONGEST {
            return Err(invalid(
                time.span(),
                format!(
                    "expected a time of at most 365d, found {}",
                    super::units::format_duration(time.get_ref().0)
                ),
            ));
        }
    }
    if raw.upstream.is_none() && raw.fallback_upstream.is_none() {
        return Err(Problem::new(
            ConfigErrorKind::Conflict,
            valid.span(),
            "cache keeps an upstream's answers: this route has no upstream (nor fallback_upstream); remove it",
        ));
    }
    if raw
        .internal
        .as_ref()
        .is_some_and(|internal| *internal.get_ref())
    {
        return Err(Problem::new(
            ConfigErrorKind::Conflict,
            valid.span(),
            "cache keeps the answers of the route a client's request found: an internal route answers an X-Accel-Redirect, whose answer is not kept; put cache on the route that proxies to the app, or remove it",
        ));
    }
    let pass_cookies = match raw.cache_pass_cookies.as_ref() {
        None => None,
        Some(cookies) => {
            let mut names = Vec::new();
            for cookie in cookies.get_ref() {
                let name = cookie.get_ref();
                let token = !name.is_empty()
                    && name.bytes().all(|byte| {
                        byte.is_ascii_graphic() && !b"()<>@,;:\\\"/[]?={}".contains(&byte)
                    });
                if !token {
                    return Err(invalid(
                        cookie.span(),
                        format!("expected a cookie name such as \"sessionid\", found {name:?}"),
                    ));
                }
                names.push(name.clone());
            }
            Some(names)
        }
    };
    Ok(Some(super::RouteCache {
        valid: valid.get_ref().0,
        pass_cookies,
        stale: raw
            .cache_stale
            .as_ref()
            .map_or(Duration::ZERO, |stale| stale.get_ref().0),
        statuses: statuses
            .into_iter()
            .map(|(code, time)| (code, time.get_ref().0))
            .collect(),
        background_update: raw
            .cache_background_update
            .as_ref()
            .is_some_and(|background| *background.get_ref()),
    }))
}

/// `limit_rate` (bytes a second, at least 1) and `limit_rate_after` (bytes, only beside
/// `limit_rate`).
fn route_limit_rate(raw: &RawRoute) -> Result<Option<LimitRate>, Problem> {
    let after = raw.limit_rate_after.as_ref();
    let Some(rate) = raw.limit_rate.as_ref() else {
        return match after {
            None => Ok(None),
            Some(after) => Err(Problem::new(
                ConfigErrorKind::InvalidValue,
                after.span(),
                "limit_rate_after says when limit_rate starts: add limit_rate = \"100k\" (bytes a second), or remove it",
            )),
        };
    };
    if rate.get_ref().0 == 0 {
        return Err(Problem::new(
            ConfigErrorKind::InvalidValue,
            rate.span(),
            "expected at least 1 byte a second, such as \"100k\" (100 KiB a second); a route without limit_rate is not limited (nginx's limit_rate 0)",
        ));
    }
    Ok(Some(LimitRate {
        rate: rate.get_ref().0,
        after: after.map_or(0, |after| after.get_ref().0),
    }))
}

impl RawRoute {
    /// The keys `file/rules.rs` validates.
    fn rule_keys(&self) -> rules::RouteKeys<'_> {
        rules::RouteKeys {
            upstream: self.upstream.as_ref(),
            static_root: self.static_root.as_ref(),
            request_headers: self.request_headers.as_ref(),
            append_request_headers: self.append_request_headers.as_ref(),
            response_headers: self.response_headers.as_ref(),
            response_headers_always: self.response_headers_always.as_ref(),
            hide_response_headers: self.hide_response_headers.as_ref(),
            forwarded_for: self.forwarded_for.as_ref(),
            charset: self.charset.as_ref(),
            charset_types: self.charset_types.as_ref(),
            cookie_flags: self.cookie_flags.as_ref(),
            response_headers_by_type: self.response_headers_by_type.as_deref(),
            location_rewrites: self.location_rewrites.as_ref(),
            deny_headers: self.deny_headers.as_deref(),
            expires: self.expires.as_ref(),
            access: self.access.as_deref(),
            basic_auth: self.basic_auth.as_ref(),
            satisfy: self.satisfy.as_ref(),
            auth_request: self.auth_request.as_ref(),
            dotfiles: self.dotfiles.as_ref(),
            try_suffixes: self.try_suffixes.as_ref(),
            fallback_upstream: self.fallback_upstream.as_ref(),
            fallback_file: self.fallback_file.as_ref(),
            error_pages: self.error_pages.as_ref(),
            intercept_errors: self.intercept_errors.as_ref(),
            answer_options: self.answer_options.as_ref(),
        }
    }
}

// Where and how a route matches: `listen`, `scheme`, `match`, `internal`.

/// `methods = ["GET", "POST"]`: methods as HTTP writes them (upper case, case-sensitive), each
/// once, at least one; `GET` brings `HEAD`, as in nginx's `limit_except`.
fn route_methods(list: &Spanned<Vec<Spanned<String>>>) -> Result<Vec<http::Method>, Problem> {
    let mut methods: Vec<http::Method> = Vec::new();
    for entry in list.get_ref() {
        let text = entry.get_ref();
        let method = http::Method::from_bytes(text.as_bytes())
            .ok()
            .filter(|_| !text.bytes().any(|byte| byte.is_ascii_lowercase()))
            .ok_or_else(|| {
                Problem::new(
                    ConfigErrorKind::InvalidValue,
                    entry.span(),
                    format!("expected a method in upper case (methods are case-sensitive), such as \"GET\", \"POST\" or \"DELETE\", found {text:?}"),
                )
            })?;
        if methods.contains(&method) {
            return Err(Problem::new(
                ConfigErrorKind::Duplicate,
                entry.span(),
                format!("{text:?} is listed twice"),
            ));
        }
        methods.push(method);
    }
    if methods.is_empty() {
        return Err(Problem::new(
            ConfigErrorKind::InvalidValue,
            list.span(),
            "expected at least one method, such as [\"GET\", \"POST\"]; leave `methods` out to take every method",
        ));
    }
    if methods.contains(&http::Method::GET) && !methods.contains(&http::Method::HEAD) {
        methods.push(http::Method::HEAD);
    }
    Ok(methods)
}

/// `upstream_path`: a path (no query) that replaces a prefix or exact route's `path` in the
/// request sent to its `upstream`.
fn upstream_path(
    value: &Spanned<String>,
    raw: &RawRoute,
    scope: &RouteScope,
) -> Result<String, Problem> {
    if raw.upstream.is_none() {
        return Err(invalid(
            value.span(),
            "upstream_path rewrites the path sent to the route's `upstream`; this route has none (a `fallback_upstream` gets the request as the client sent it); remove it",
        ));
    }
    if scope.regex.is_some() {
        return Err(invalid(
            value.span(),
            "a regex route has no prefix for upstream_path to replace (nginx refuses a `proxy_pass` with a URI part in a regex location too); use a prefix or exact route",
        ));
    }
    let path = value.get_ref();
    let valid = path.starts_with('/')
        && !path.contains(['?', '#'])
        && path.parse::<http::uri::PathAndQuery>().is_ok()
        && crate::path::normalize(path).is_ok();
    if !valid {
        return Err(invalid(
            value.span(),
            format!("expected a path starting with '/' and without a query, such as \"/\" or \"/v1/\", found {path:?}"),
        ));
    }
    Ok(path.clone())
}

/// A route's `listen` or `scheme`, `match` and `internal`. The `listen` addresses are checked
/// against the listeners by [`check_route_listeners`], once `[tls]` is read.
fn validate_scope(raw: &RawRoute) -> Result<RouteScope, Problem> {
    let listeners = match (&raw.listen, &raw.scheme) {
        (Some(_), Some(scheme)) => {
            return Err(Problem::new(
                ConfigErrorKind::Conflict,
                scheme.span(),
                "a route has `listen` (some listeners) or `scheme` (the TLS or the plain ones), not both",
            ))
        }
        (Some(listen), None) => {
            let addrs: Vec<SocketAddr> = listen.get_ref().0.iter().map(|addr| addr.0).collect();
            if addrs.is_empty() {
                return Err(invalid(
                    listen.span(),
                    "listen names at least one address of server.listen or tls.listen, such as [\"0.0.0.0:443\"]; leave it out for every listener",
                ));
            }
            crate::routing::Listeners::Addrs(addrs)
        }
        (None, Some(scheme)) => match scheme.get_ref().as_str() {
            "https" => crate::routing::Listeners::Tls(true),
            "http" => crate::routing::Listeners::Tls(false),
            other => {
                return Err(invalid(
                    scheme.span(),
                    format!("expected \"https\" (the [tls] listeners) or \"http\" (the [server] ones), found {other:?}"),
                ))
            }
        },
        (None, None) => crate::routing::Listeners::Any,
    };
    let (stop, nocase) = match raw.match_kind.as_ref() {
        None => (false, None),
        Some(kind) => {
            if let (Some(true), "exact") = (raw.exact, kind.get_ref().as_str()) {
                // `exact = true` with `match = "exact"` says it twice, harmlessly.
            } else if raw.exact == Some(true) {
                return Err(Problem::new(
                    ConfigErrorKind::Conflict,
                    kind.span(),
                    "`exact = true` is `match = \"exact\"`; a route has one kind of match: remove `exact` or `match`",
                ));
            }
            match kind.get_ref().as_str() {
                "prefix" | "exact" => (false, None),
                "prefix_stop" => (true, None),
                "regex" => (false, Some(false)),
                "regex_nocase" => (false, Some(true)),
                other => return Err(invalid(
                    kind.span(),
                    format!("expected \"prefix\" (nginx `location /p`), \"exact\" (`=`), \"prefix_stop\" (`^~`), \"regex\" (`~`) or \"regex_nocase\" (`~*`), found {other:?}"),
                )),
            }
        }
    };
    let regex = match nocase {
        None => None,
        Some(nocase) => {
            let Some(path) = &raw.path else {
                return Err(Problem::new(
                    ConfigErrorKind::MissingKey,
                    raw.match_kind.as_ref().map_or(0..0, Spanned::span),
                    "a regex route needs `path`, the regex, such as \"\\\\.php$\"",
                ));
            };
            Some(
                crate::routing::PathRegex::new(path.get_ref(), nocase).map_err(|error| {
                    let message = match error {
                        regex::Error::CompiledTooBig(limit) => format!(
                            "the regex compiles to more than {limit} bytes; write a simpler one"
                        ),
                        other => format!("expected a regex (the `regex` crate's syntax, no look-around or back-references): {other}"),
                    };
                    invalid(path.span(), message)
                })?,
            )
        }
    };
    let internal = raw
        .internal
        .as_ref()
        .is_some_and(|internal| *internal.get_ref());
    if let (true, Some(limit)) = (
        internal,
        raw.limits.first().or(raw.connection_limits.first()),
    ) {
        return Err(Problem::new(
            ConfigErrorKind::Conflict,
            limit.span(),
            "an internal route is reached only through X-Accel-Redirect, after the first route's limits; it takes no limits of its own (put them on the route that proxies to the app)",
        ));
    }
    Ok(RouteScope {
        listeners,
        stop,
        regex,
        internal,
    })
}

/// A route's `listen` names listeners that exist (an address of `[server] listen` or `[tls]
/// listen`, as written there), and `scheme = "https"` needs `[tls]`: otherwise the route would
/// never answer, which nginx cannot say but weir can.
fn check_route_listeners(
    raw_routes: &[Spanned<RawRoute>],
    plain: &[SocketAddr],
    tls: Option<&TlsConfig>,
) -> Result<(), Problem> {
    let tls_listen: &[SocketAddr] = tls.map_or(&[], |tls| tls.listen.as_slice());
    for raw in raw_routes {
        let raw = raw.get_ref();
        if let Some(listen) = &raw.listen {
            for addr in &listen.get_ref().0 {
                if !plain.contains(&addr.0) && !tls_listen.contains(&addr.0) {
                    let known: Vec<String> = plain
                        .iter()
                        .chain(tls_listen)
                        .map(ToString::to_string)
                        .collect();
                    return Err(Problem::new(
                        ConfigErrorKind::UnknownName,
                        listen.span(),
                        format!(
                            "{} is not a listener; a route's listen names addresses of server.listen or tls.listen, as written there: {}",
                            addr.0,
                            known.join(", ")
                        ),
                    ));
                }
            }
        }
        if let (Some(scheme), None) = (&raw.scheme, tls) {
            if scheme.get_ref() == "https" {
                return Err(Problem::new(
                    ConfigErrorKind::Conflict,
                    scheme.span(),
                    "scheme = \"https\" needs a [tls] table with listen addresses; without one the route never answers",
                ));
            }
        }
    }
    Ok(())
}

/// `redirect` and `status`: a route that answers by itself, as nginx `return`.
fn is_redirect_status(status: StatusCode) -> bool {
    matches!(status.as_u16(), 301..=303 | 307 | 308)
}

/// A `status` route's `body` and `content_type`; each only with `status`.
fn answer_body(raw: &RawRoute) -> Result<Option<AnswerBody>, Problem> {
    let Some(text) = &raw.body else {
        if let Some(content_type) = &raw.content_type {
            return Err(Problem::new(
                ConfigErrorKind::Conflict,
                content_type.span(),
                "content_type is the type of a `body`; add one, or remove content_type",
            ));
        }
        return Ok(None);
    };
    if raw.status.is_none() && raw.redirect.is_none() {
        return Err(Problem::new(
            ConfigErrorKind::Conflict,
            text.span(),
            "a body is what a `status` route answers (nginx's `return 200 \"text\"`); add status, as in status = 200",
        ));
    }
    // nginx evaluates variables in `return`'s text; weir sends it as written, so one that names
    // a variable is refused rather than sent with the name in it.
    let names_variable = text.get_ref().split('$').skip(1).any(|after| {
        after
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '{')
    });
    if names_variable {
        return Err(invalid(
            text.span(),
            format!("a body is sent as written and evaluates no variable (nginx's return text does); found one in {:?}", text.get_ref()),
        ));
    }
    let content_type = match &raw.content_type {
        None => HeaderValue::from_static("text/plain"),
        Some(value) => {
            let valid = value
                .get_ref()
                .split(';')
                .next()
                .and_then(|media| media.trim().split_once('/'))
                .is_some_and(|(kind, subtype)| !kind.is_empty() && !subtype.is_empty());
            match HeaderValue::from_str(value.get_ref()) {
                Ok(header) if valid => header,
                _ => {
                    return Err(invalid(
                        value.span(),
                        format!(
                            "expected a media type such as \"text/plain\" or \"application/json; charset=utf-8\", found {:?}",
                            value.get_ref()
                        ),
                    ))
                }
            }
        }
    };
    Ok(Some(AnswerBody {
        text: text.get_ref().clone(),
        content_type,
    }))
}

fn validate_answer(raw: &RawRoute) -> Result<Option<AnswerConfig>, Problem> {
    let status = |value: &Spanned<u16>, valid: &[std::ops::RangeInclusive<u16>], what: &str| {
        let code = *value.get_ref();
        valid
            .iter()
            .any(|range| range.contains(&code))
            .then(|| StatusCode::from_u16(code).ok())
            .flatten()
            .ok_or_else(|| invalid(value.span(), format!("expected {what}, found {code}")))
    };
    let body = answer_body(raw)?;
    match (&raw.redirect, &raw.status) {
        (None, None) => Ok(None),
        (None, Some(value)) => {
            let status = status(
                value,
                &[200..=599],
                "a status from 200 to 599, as nginx's `return 404`",
            )?;
            if let (Some(text), true) = (&raw.body, is_redirect_status(status)) {
                return Err(Problem::new(
                    ConfigErrorKind::Conflict,
                    text.span(),
                    format!("a {status} answer is a redirect: give its URL as `redirect` (nginx's `return {} URL`), or choose another status for a body", status.as_u16()),
                ));
            }
            Ok(Some(AnswerConfig {
                status,
                location: None,
                body,
            }))
        }
        (Some(_), _) if raw.body.is_some() => Err(Problem::new(
            ConfigErrorKind::Conflict,
            raw.body.as_ref().map_or(0..0, Spanned::span),
            "a redirect has no body of its own; remove `body`, or answer with `status` instead of `redirect`",
        )),
        (Some(location), value) => {
            let template = super::Template::parse(location.get_ref())
                .map_err(|message| invalid(location.span(), message))?;
            let status = match value {
                None => StatusCode::FOUND,
                Some(value) => status(
                    value,
                    &[301..=303, 307..=308],
                    "a redirect status: 301, 302, 303, 307 or 308 (the default is 302, as nginx's `return URL`)",
                )?,
            };
            Ok(Some(AnswerConfig {
                status,
                location: Some(template),
                body: None,
            }))
        }
    }
}

/// `[compression]`: each key defaults to [`CompressionConfig::default`].
fn validate_compression(raw: RawCompression) -> Result<CompressionConfig, Problem> {
    let mut compression = CompressionConfig::default();
    if let Some(level) = raw.level {
        if !(1..=9).contains(level.get_ref()) {
            return Err(invalid(
                level.span(),
                format!(
                    "expected a level from 1 (fastest) to 9 (smallest), as nginx's gzip_comp_level, found {}",
                    level.get_ref()
                ),
            ));
        }
        compression.level = *level.get_ref();
    }
    if let Some(min_length) = raw.min_length {
        compression.min_length = min_length.0;
    }
    if let Some(types) = raw.types {
        let mut media_types: Vec<String> = Vec::with_capacity(types.len());
        for media_type in types {
            let text = media_type.get_ref().trim().to_ascii_lowercase();
            let valid = text.split_once('/').is_some_and(|(kind, subtype)| {
                let token = |part: &str| {
                    !part.is_empty()
                        && part.chars().all(|character| {
                            character.is_ascii_alphanumeric() || "!#$&-^_.+".contains(character)
                        })
                };
                token(kind) && (subtype == "*" || token(subtype))
            });
            if !valid {
                return Err(invalid(
                    media_type.span(),
                    format!(
                        "expected a media type such as \"application/json\" or \"text/*\", found {:?}",
                        media_type.get_ref()
                    ),
                ));
            }
            if !media_types.contains(&text) {
                media_types.push(text);
            }
        }
        compression.types = media_types;
    }
    if let Some(algorithms) = raw.algorithms {
        if algorithms.get_ref().is_empty() {
            return Err(invalid(
                algorithms.span(),
                "algorithms needs at least one of \"br\", \"zstd\", \"gzip\"; to turn compression off, remove the [compression] table",
            ));
        }
        let mut encodings: Vec<Encoding> = Vec::with_capacity(algorithms.get_ref().len());
        for algorithm in algorithms.get_ref() {
            let encoding: Encoding = algorithm.get_ref().parse().map_err(|_| {
                invalid(
                    algorithm.span(),
                    format!(
                        "expected one of \"br\", \"zstd\", \"gzip\", found {:?}",
                        algorithm.get_ref()
                    ),
                )
            })?;
            if encodings.contains(&encoding) {
                return Err(Problem::new(
                    ConfigErrorKind::Duplicate,
                    algorithm.span(),
                    format!("{:?} is listed twice", algorithm.get_ref()),
                ));
            }
            encodings.push(encoding);
        }
        compression.algorithms = encodings;
    }
    Ok(compression)
}
