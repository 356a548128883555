//! Tests of the config loader: defaults, every unit syntax, each kind of error with its file, line,
//! column, key and message, the seed nginx config translated, and the summary.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::time::Duration;

use http::{HeaderName, StatusCode};
use ipnet::IpNet;

use super::units::{
    format_duration, format_key, format_size, parse_duration, parse_key, parse_rate, parse_size,
};
use super::*;

fn parse(text: &str) -> Config {
    match from_toml(text, Some(Path::new("weir.toml"))) {
        Ok(config) => config,
        Err(error) => panic!("expected a valid config, got: {error}"),
    }
}

fn reject(text: &str) -> ConfigError {
    match from_toml(text, Some(Path::new("weir.toml"))) {
        Ok(config) => panic!("expected an error, got {config:?}"),
        Err(error) => error,
    }
}

/// Asserts an error's position and key, and that its message mentions each of `words`.
#[track_caller]
fn assert_error(
    error: &ConfigError,
    kind: ConfigErrorKind,
    line: usize,
    column: usize,
    key: &str,
    words: &[&str],
) {
    assert_eq!(error.kind(), kind, "kind of: {error}");
    assert_eq!(
        (error.line(), error.column()),
        (Some(line), Some(column)),
        "position of: {error}"
    );
    assert_eq!(error.key(), Some(key), "key of: {error}");
    for word in words {
        assert!(error.message().contains(word), "{word:?} not in: {error}");
    }
    let display = error.to_string();
    assert!(
        display.starts_with(&format!("weir.toml:{line}:{column}: {key}: ")),
        "display: {display}"
    );
}

const APP: &str = "[upstreams.app]\nservers = [\"127.0.0.1:8000\"]\n";

fn with_app(text: &str) -> String {
    format!("{APP}{text}")
}

fn socket(text: &str) -> SocketAddr {
    text.parse().expect("test addresses are valid")
}

// --- defaults ------------------------------------------------------------------------------------

#[test]
fn an_empty_file_gives_every_default() {
    let config = from_toml("", None).expect("an empty file is a valid config");
    assert_eq!(config.source, None);
    assert_eq!(config.source_name(), "<string>");
    let server = &config.server;
    assert_eq!(server.listen, vec![socket("127.0.0.1:8080")]);
    assert_eq!(server.backlog, 511);
    assert_eq!(server.max_connections, 10_000);
    assert_eq!(server.keepalive_timeout, Duration::from_secs(75));
    assert_eq!(server.keepalive_requests, 1000);
    assert_eq!(server.header_timeout, Duration::from_secs(60));
    assert_eq!(server.max_header_size, 32 * 1024);
    assert_eq!(server.max_body_size, 1024 * 1024);
    assert_eq!(server.spool_dir, None);
    assert_eq!(server.max_spool_size, 1024 * 1024 * 1024);
    assert_eq!(server.max_body_memory, 64 * 1024 * 1024);
    assert_eq!(server.cache_size, 64 * 1024 * 1024);
    assert_eq!(server.cache_max_answer, 1024 * 1024);
    assert_eq!(server.shutdown_grace, Duration::from_secs(10));
    assert_eq!(server.server_header, None);
    assert!(server.trusted_proxies.is_empty());
    assert_eq!(server.real_ip_header, RealIpHeader::XForwardedFor);
    assert!(config.upstreams.is_empty());
    assert!(config.routes.is_empty());
    assert!(config.limits.is_empty());
    assert_eq!(
        config.access_log,
        AccessLogConfig {
            enabled: false,
            path: None,
            format: AccessLogFormat::Combined
        }
    );
    assert_eq!(config.admin, None);
    assert_eq!(config.compression, None);
}

#[test]
fn upstream_route_and_limit_defaults() {
    let config = parse(&with_app(
        "[[routes]]\nupstream = \"app\"\nlimits = [\"per_ip\"]\n[limits.per_ip]\nrate = \"10r/s\"\n",
    ));
    let upstream = &config.upstreams["app"];
    assert_eq!(
        upstream.servers,
        vec![UpstreamAddr::Tcp(socket("127.0.0.1:8000"))]
    );
    assert_eq!(upstream.max_connections, 0);
    assert_eq!(upstream.max_idle, 256);
    assert_eq!(upstream.idle_timeout, Duration::from_secs(1));
    assert_eq!(upstream.keepalive_time, Duration::from_secs(10));
    assert_eq!(upstream.queue_size, 1024);
    assert_eq!(upstream.queue_timeout, Duration::from_secs(60));
    assert_eq!(upstream.connect_timeout, Duration::from_secs(60));
    assert_eq!(upstream.read_timeout, Duration::from_secs(60));
    assert_eq!(upstream.send_timeout, Duration::from_secs(60));

    assert_eq!(
        config.routes,
        vec![RouteConfig {
            host: None,
            path: "/".to_string(),
            upstream: "app".to_string(),
            upstream_path: None,
            static_root: None,
            exact: false,
            answer: None,
            limits: vec!["per_ip".to_string()],
            connection_limits: Vec::new(),
            methods: None,
            request_buffering: true,
            response_buffering: true,
            rules: RouteRules::default(),
            scope: RouteScope::default(),
            priority: Priority::Normal,
            priority_header: None,
            limit_rate: None,
            read_timeout: None,
            cache: None,
        }]
    );

    let limit = &config.limits["per_ip"];
    assert_eq!(limit.key, vec![KeyPart::ClientIp]);
    assert_eq!(
        limit.limiter.rate,
        Rate {
            count: 10,
            per: Duration::from_secs(1)
        }
    );
    assert_eq!(limit.limiter.burst, 0);
    assert_eq!(limit.limiter.delay, Delay::After(0));
    assert_eq!(limit.status, StatusCode::TOO_MANY_REQUESTS);
    assert!(!limit.limiter.dry_run);
    assert_eq!(limit.limiter.max_keys, 100_000);
    assert!(!limit.limiter.nginx_rounding);
    assert_eq!(limit.headers, LimitHeaders::Draft10);
    assert_eq!(limit.limiter.backend, LimitBackend::Memory);
}

#[test]
fn access_log_table_without_enabled_stays_off() {
    let config = parse("[access_log]\nformat = \"json\"\npath = \"/var/log/weir.log\"\n");
    assert!(!config.access_log.enabled);
    assert_eq!(config.access_log.format, AccessLogFormat::Json);
    assert_eq!(
        config.access_log.path,
        Some(PathBuf::from("/var/log/weir.log"))
    );
    let config = parse("[access_log]\nenabled = true\n");
    assert!(config.access_log.enabled);
    assert_eq!(config.access_log.path, None);
    assert_eq!(config.access_log.format, AccessLogFormat::Combined);
}

#[test]
fn an_access_log_line_of_nginx_variables_is_read_and_its_mistakes_named() {
    let config = parse(
        "[access_log]\nenabled = true\nformat = '$remote_addr \"$http_x_forwarded_for\"'\nescape = \"json\"\n",
    );
    let AccessLogFormat::Template(template) = &config.access_log.format else {
        panic!("{:?}", config.access_log.format);
    };
    assert_eq!(template.text, "$remote_addr \"$http_x_forwarded_for\"");
    assert_eq!(template.escape, crate::config::LogEscape::Json);
    assert_eq!(template.headers, ["x-forwarded-for"]);
    let error = reject("[access_log]\nenabled = true\nformat = \"$remote_addr $gzip_ratio\"\n");
    assert_error(
        &error,
        ConfigErrorKind::InvalidValue,
        3,
        10,
        "access_log.format",
        &["$gzip_ratio is none of them", "$http_NAME"],
    );
    let error = reject("[access_log]\nformat = \"main\"\n");
    assert_error(
        &error,
        ConfigErrorKind::InvalidValue,
        2,
        10,
        "access_log.format",
        &["\"combined\", \"json\", or a line"],
    );
    let error = reject("[access_log]\nformat = \"$status\"\nescape = \"none\"\n");
    assert_error(
        &error,
        ConfigErrorKind::InvalidValue,
        3,
        10,
        "access_log.escape",
        &["\"default\" or \"json\""],
    );
    let error = reject("[access_log]\nformat = \"json\"\nescape = \"json\"\n");
    assert_error(
        &error,
        ConfigErrorKind::InvalidValue,
        3,
        10,
        "access_log.escape",
        &["a format line of nginx variables"],
    );
}

#[test]
fn every_server_key_is_read() {
    let config = parse(
        r#"
[server]
listen = ["0.0.0.0:80", "[::1]:8443"]
backlog = 4096
max_connections = 20000
keepalive_timeout = "0s"
keepalive_requests = 5000
header_timeout = "10s"
max_header_size = "64KiB"
max_body_size = 0
spool_dir = "/var/lib/weir/spool"
max_spool_size = "4GiB"
max_body_memory = "256MiB"
shutdown_grace = "30s"
server_header = "weir"
trusted_proxies = ["10.0.0.0/8", "192.168.1.10", "fd00::1"]
real_ip_header = "x-real-ip"

[admin]
listen = "127.0.0.1:9100"
"#,
    );
    let server = &config.server;
    assert_eq!(
        server.listen,
        vec![socket("0.0.0.0:80"), socket("[::1]:8443")]
    );
    assert_eq!(server.backlog, 4096);
    assert_eq!(server.max_connections, 20_000);
    assert_eq!(server.keepalive_timeout, Duration::ZERO);
    assert_eq!(server.keepalive_requests, 5000);
    assert_eq!(server.header_timeout, Duration::from_secs(10));
    assert_eq!(server.max_header_size, 64 * 1024);
    assert_eq!(server.max_body_size, 0);
    assert_eq!(
        server.spool_dir.as_deref(),
        Some(Path::new("/var/lib/weir/spool"))
    );
    assert_eq!(server.max_spool_size, 4 << 30);
    assert_eq!(server.max_body_memory, 256 << 20);
    assert_eq!(server.shutdown_grace, Duration::from_secs(30));
    assert_eq!(server.server_header.as_deref(), Some("weir"));
    let networks: Vec<IpNet> = ["10.0.0.0/8", "192.168.1.10/32", "fd00::1/128"]
        .iter()
        .map(|text| text.parse().expect("test networks are valid"))
        .collect();
    assert_eq!(server.trusted_proxies, networks);
    assert_eq!(server.real_ip_header, RealIpHeader::XRealIp);
    assert_eq!(
        config.admin,
        Some(AdminConfig {
            listen: socket("127.0.0.1:9100")
        })
    );
}

#[test]
fn every_limit_key_is_read() {
    let config = parse(&with_app(
        r#"
[limits.api]
key = "client_ip+header:X-Api-Key+path"
rate = "600r/m"
burst = 20
delay = 5
status = 503
dry_run = true
max_keys = 500
nginx_rounding = true
headers = "legacy"
backend = "redis"
redis = "redis://127.0.0.1:6379/0"
redis_timeout = "20ms"
on_redis_error = "local"

[limits.flood]
rate = "100r/h"
nodelay = true
headers = "off"
"#,
    ));
    let api = &config.limits["api"];
    assert_eq!(
        api.key,
        vec![
            KeyPart::ClientIp,
            KeyPart::Header(HeaderName::from_static("x-api-key")),
            KeyPart::Path
        ]
    );
    assert_eq!(
        api.limiter.rate,
        Rate {
            count: 600,
            per: Duration::from_secs(60)
        }
    );
    assert_eq!(api.limiter.burst, 20);
    assert_eq!(api.limiter.delay, Delay::After(5));
    assert_eq!(api.status, StatusCode::SERVICE_UNAVAILABLE);
    assert!(api.limiter.dry_run);
    assert_eq!(api.limiter.max_keys, 500);
    assert!(api.limiter.nginx_rounding);
    assert_eq!(api.headers, LimitHeaders::Legacy);
    assert_eq!(
        api.limiter.backend,
        LimitBackend::Redis(RedisLimitConfig {
            url: "redis://127.0.0.1:6379/0".to_string(),
            timeout: Duration::from_millis(20),
            on_error: OnRedisError::Local,
        })
    );
    let flood = &config.limits["flood"];
    assert_eq!(flood.limiter.delay, Delay::NoDelay);
    assert_eq!(flood.headers, LimitHeaders::Off);
    assert_eq!(flood.limiter.rate.per, Duration::from_secs(3600));
}

#[test]
fn redis_over_a_unix_socket_defaults_to_allow() {
    let config = parse("[limits.shared]\nrate = \"1r/s\"\nbackend = \"redis\"\nredis = \"unix:///run/redis.sock\"\n");
    let LimitBackend::Redis(redis) = &config.limits["shared"].limiter.backend else {
        panic!("expected the redis backend");
    };
    assert_eq!(redis.url, "unix:///run/redis.sock");
    assert_eq!(redis.timeout, Duration::from_millis(50));
    assert_eq!(redis.on_error, OnRedisError::Allow);
}

#[test]
fn routes_keep_their_order_and_lowercase_hosts() {
    let config = parse(&with_app(
        "[upstreams.static]\nservers = \"unix:/run/static.sock\"\n\
         [[routes]]\nhost = \"API.Example.com\"\npath = \"/v1/\"\nupstream = \"app\"\n\
         [[routes]]\npath = \"/static/\"\nupstream = \"static\"\n\
         [[routes]]\nhost = \"[::1]\"\nupstream = \"app\"\n",
    ));
    let summary: Vec<(Option<&str>, &str, &str)> = config
        .routes
        .iter()
        .map(|route| {
            (
                route.host.as_deref(),
                route.path.as_str(),
                route.upstream.as_str(),
            )
        })
        .collect();
    assert_eq!(
        summary,
        vec![
            (Some("api.example.com"), "/v1/", "app"),
            (None, "/static/", "static"),
            (Some("[::1]"), "/", "app"),
        ]
    );
    assert_eq!(
        config.upstreams["static"].servers,
        vec![UpstreamAddr::Unix(PathBuf::from("/run/static.sock"))]
    );
}

// --- units ---------------------------------------------------------------------------------------

#[test]
fn duration_forms() {
    let cases = [
        ("65s", Duration::from_secs(65)),
        ("500ms", Duration::from_millis(500)),
        ("2m", Duration::from_secs(120)),
        ("1h", Duration::from_secs(3600)),
        ("1d", Duration::from_secs(86400)),
        ("0s", Duration::ZERO),
        ("1m30s", Duration::from_secs(90)),
        ("1h 30m", Duration::from_secs(5400)),
        ("120", Duration::from_secs(120)),
    ];
    for (text, expected) in cases {
        assert_eq!(parse_duration(text), Ok(expected), "{text}");
        let config = parse(&format!("[server]\nkeepalive_timeout = {text:?}\n"));
        assert_eq!(config.server.keepalive_timeout, expected, "{text}");
    }
    let config = parse("[server]\nkeepalive_timeout = 120\n");
    assert_eq!(config.server.keepalive_timeout, Duration::from_secs(120));
    for bad in ["", "s", "1.5s", "-1s", "10 sec", "5x", "ms"] {
        let message = parse_duration(bad).expect_err(bad);
        assert!(
            message.contains("expected a duration such as \"65s\""),
            "{bad}: {message}"
        );
    }
    assert!(parse_duration("99999999999999999999h").is_err());
}

#[test]
fn duration_formatting_uses_the_largest_exact_unit() {
    assert_eq!(format_duration(Duration::ZERO), "0s");
    assert_eq!(format_duration(Duration::from_millis(500)), "500ms");
    assert_eq!(format_duration(Duration::from_millis(1500)), "1500ms");
    assert_eq!(format_duration(Duration::from_secs(65)), "65s");
    assert_eq!(format_duration(Duration::from_secs(120)), "120s");
    assert_eq!(format_duration(Duration::from_secs(600)), "10m");
    assert_eq!(format_duration(Duration::from_secs(7200)), "2h");
}

/// Found by the `config_units` fuzz target: a duration past `u64::MAX` milliseconds with a part
/// below the second was written as milliseconds that no longer parse back.
#[test]
fn every_duration_formats_to_text_that_parses_back() {
    let huge = Duration::from_secs(u64::MAX) + Duration::from_millis(999);
    assert_eq!(parse_duration("18446744073709551615s 999ms"), Ok(huge));
    assert_eq!(parse_duration(&format_duration(huge)), Ok(huge));
    assert_eq!(format_duration(huge), "18446744073709551615s 999ms");
}

#[test]
fn size_forms() {
    let cases = [
        ("20MiB", 20 << 20),
        ("512KiB", 512 << 10),
        ("1GiB", 1 << 30),
        ("20M", 20 << 20),
        ("20m", 20 << 20),
        ("8k", 8 << 10),
        ("8K", 8 << 10),
        ("1g", 1 << 30),
        ("1MB", 1_000_000),
        ("1KB", 1_000),
        ("1kB", 1_000),
        ("2GB", 2_000_000_000),
        ("100B", 100),
        ("4096", 4096),
        ("20 MiB", 20 << 20),
    ];
    for (text, expected) in cases {
        assert_eq!(parse_size(text), Ok(expected), "{text}");
        let config = parse(&format!("[server]\nmax_body_size = {text:?}\n"));
        assert_eq!(config.server.max_body_size, expected, "{text}");
    }
    assert_eq!(
        parse("[server]\nmax_body_size = 1024\n")
            .server
            .max_body_size,
        1024
    );
    for bad in ["", "MiB", "1.5MiB", "10mb", "10 bytes", "-1"] {
        let message = parse_size(bad).expect_err(bad);
        assert!(
            message.contains("expected a size such as \"20MiB\""),
            "{bad}: {message}"
        );
    }
    assert!(parse_size("99999999999GiB").is_err());
    assert_eq!(format_size(20 << 20), "20MiB");
    assert_eq!(format_size(32 << 10), "32KiB");
    assert_eq!(format_size(1_000_000), "1000000B");
    assert_eq!(format_size(0), "0B");
}

#[test]
fn rate_forms() {
    let rate = |count, seconds| Rate {
        count,
        per: Duration::from_secs(seconds),
    };
    assert_eq!(parse_rate("10r/s"), Ok(rate(10, 1)));
    assert_eq!(parse_rate("600r/m"), Ok(rate(600, 60)));
    assert_eq!(parse_rate("100r/h"), Ok(rate(100, 3600)));
    for bad in ["10", "10r/d", "r/s", "1.5r/s", "10 r/s", "-1r/s"] {
        let message = parse_rate(bad).expect_err(bad);
        assert!(
            message.contains("expected a rate such as \"10r/s\""),
            "{bad}: {message}"
        );
    }
    assert!(parse_rate("0r/s")
        .expect_err("zero rate")
        .contains("at least 1"));
}

#[test]
fn key_forms() {
    assert_eq!(parse_key("client_ip"), Ok(vec![KeyPart::ClientIp]));
    assert_eq!(parse_key("path"), Ok(vec![KeyPart::Path]));
    assert_eq!(
        parse_key("header:X-Api-Key"),
        Ok(vec![KeyPart::Header(HeaderName::from_static("x-api-key"))])
    );
    assert_eq!(
        parse_key("client_ip+path"),
        Ok(vec![KeyPart::ClientIp, KeyPart::Path])
    );
    assert!(parse_key("client_ip+client_ip")
        .expect_err("twice")
        .contains("twice"));
    assert!(parse_key("header:bad name")
        .expect_err("space")
        .contains("not a valid header name"));
    assert!(parse_key("ip")
        .expect_err("unknown")
        .contains("\"client_ip\", \"path\" or \"header:NAME\""));
    assert_eq!(parse_key("all"), Ok(vec![KeyPart::All]));
    assert_eq!(format_key(&[KeyPart::All]), "all");
    assert!(parse_key("all+client_ip")
        .expect_err("all with another part")
        .contains("\"all\" alone"));
    assert!(parse_key("").is_err());
    assert!(parse_key("client_ip+").is_err());
}

// --- the seed nginx config -------------------------------------------------------------------------

/// `/work/shared/seeds/000_41e88a6106ca952f.txt` translated: `listen 80`, `client_max_body_size 20M`,
/// `keepalive 8`, `proxy_*_timeout 65s`, `keepalive_requests 5000`, `keepalive_timeout 120`,
/// `set_real_ip_from` three private networks, `real_ip_header X-Forwarded-For`, `access_log off`,
/// `server_tokens off`, `server unix:/tmp/gunicorn.sock`, `gzip on`, `gzip_comp_level 6`,
/// `gzip_min_length 200`.
const SEED: &str = r#"
[server]
listen = ["0.0.0.0:80"]
max_body_size = "20M"
keepalive_requests = 5000
keepalive_timeout = 120
trusted_proxies = ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16"]
real_ip_header = "X-Forwarded-For"

[upstreams.gunicorn]
servers = ["unix:/tmp/gunicorn.sock"]
max_idle = 8
connect_timeout = "65s"
read_timeout = "65s"
send_timeout = "65s"

[[routes]]
path = "/"
upstream = "gunicorn"

[compression]
level = 6
min_length = 200
"#;

#[test]
fn upstream_balancing_and_health_defaults() {
    let upstream = &parse(APP).upstreams["app"];
    assert_eq!(upstream.balance, Balance::RoundRobin);
    assert_eq!(upstream.max_fails, 1);
    assert_eq!(upstream.fail_timeout, Duration::from_secs(10));
    assert_eq!(upstream.health_check, None);
}

/// An upstream with two servers.
const TWO: &str = "[upstreams.app]\nservers = [\"127.0.0.1:8000\", \"unix:/run/app.sock\"]\n";

#[test]
fn upstream_balancing_and_health_keys() {
    let config = parse(&format!(
        "{TWO}balance = \"least_outstanding\"\nmax_fails = 3\nfail_timeout = \"30s\"\n\
         health_check = {{ path = \"/healthz?deep=1\", interval = \"2s\", timeout = \"500ms\", fails = 3, passes = 2 }}\n",
    ));
    let upstream = &config.upstreams["app"];
    assert_eq!(upstream.balance, Balance::LeastOutstanding);
    assert_eq!(upstream.max_fails, 3);
    assert_eq!(upstream.fail_timeout, Duration::from_secs(30));
    assert_eq!(
        upstream.health_check,
        Some(HealthCheckConfig {
            path: "/healthz?deep=1".to_string(),
            interval: Duration::from_secs(2),
            timeout: Duration::from_millis(500),
            fails: 3,
            passes: 2,
        })
    );
    let summary = config.summary();
    for expected in [
        "balance          least_outstanding, a server is skipped for 30s after 3 failures within it",
        "health_check     GET /healthz?deep=1 every 2s, timeout 500ms, down after 3 failed, up after 2 passed",
    ] {
        assert!(summary.contains(expected), "{expected:?} not in:\n{summary}");
    }

    // An empty check, or one written as its own table, takes nginx Plus's defaults.
    let defaults = HealthCheckConfig {
        path: "/".to_string(),
        interval: Duration::from_secs(5),
        timeout: Duration::from_secs(1),
        fails: 1,
        passes: 1,
    };
    let inline = parse(&with_app("health_check = {}\n"));
    assert_eq!(inline.upstreams["app"].health_check, Some(defaults.clone()));
    let table = parse(&with_app("[upstreams.app.health_check]\npath = \"/\"\n"));
    assert_eq!(table.upstreams["app"].health_check, Some(defaults));

    let off = parse(&format!("{TWO}max_fails = 0\n")).summary();
    assert!(off.contains("round_robin, passive health off"), "{off}");
    // With one server, which takes every request whatever its health, there is nothing to say.
    let single = parse(APP).summary();
    assert!(!single.contains("balance"), "{single}");
}

#[test]
fn bad_balancing_and_health_values_say_what_would_be_valid() {
    let error = reject(&with_app("balance = \"random\"\n"));
    assert_error(
        &error,
        ConfigErrorKind::InvalidValue,
        3,
        11,
        "upstreams.app.balance",
        &["round_robin", "least_outstanding"],
    );
    let error = reject(&with_app("fail_timeout = \"0s\"\n"));
    assert_error(
        &error,
        ConfigErrorKind::InvalidValue,
        3,
        16,
        "upstreams.app.fail_timeout",
        &["greater than 0s (the default is 10s)"],
    );
    let error = reject(&with_app("health_check = { path = \"healthz\" }\n"));
    assert_error(
        &error,
        ConfigErrorKind::InvalidValue,
        3,
        25,
        "upstreams.app.health_check.path",
        &["\"/healthz\"", "found \"healthz\""],
    );
    let error = reject(&with_app("health_check = { fails = 0 }\n"));
    assert_error(
        &error,
        ConfigErrorKind::InvalidValue,
        3,
        26,
        "upstreams.app.health_check.fails",
        &["fails must be at least 1"],
    );
    let error = reject(&with_app("health_check = { interval = \"0s\" }\n"));
    assert_error(
        &error,
        ConfigErrorKind::InvalidValue,
        3,
        29,
        "upstreams.app.health_check.interval",
        &["greater than 0s (the default is 5s)"],
    );
    let error = reject(&with_app("health_check = { uri = \"/\" }\n"));
    assert_error(
        &error,
        ConfigErrorKind::UnknownKey,
        3,
        18,
        "upstreams.app.health_check.uri",
        &["path, interval, timeout, fails, passes"],
    );
}

#[test]
fn the_seed_nginx_config_translates() {
    let config = parse(SEED);
    let server = &config.server;
    assert_eq!(server.listen, vec![socket("0.0.0.0:80")]);
    assert_eq!(server.max_body_size, 20 * 1024 * 1024);
    assert_eq!(server.keepalive_requests, 5000);
    assert_eq!(server.keepalive_timeout, Duration::from_secs(120));
    assert_eq!(server.server_header, None);
    let networks: Vec<IpNet> = ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16"]
        .iter()
        .map(|text| text.parse().expect("test networks are valid"))
        .collect();
    assert_eq!(server.trusted_proxies, networks);
    assert_eq!(server.real_ip_header, RealIpHeader::XForwardedFor);

    let gunicorn = &config.upstreams["gunicorn"];
    assert_eq!(
        gunicorn.servers,
        vec![UpstreamAddr::Unix(PathBuf::from("/tmp/gunicorn.sock"))]
    );
    assert_eq!(gunicorn.max_idle, 8);
    assert_eq!(gunicorn.connect_timeout, Duration::from_secs(65));
    assert_eq!(gunicorn.read_timeout, Duration::from_secs(65));
    assert_eq!(gunicorn.send_timeout, Duration::from_secs(65));
    assert_eq!(config.routes.len(), 1);
    assert_eq!(config.routes[0].path, "/");
    assert_eq!(config.routes[0].upstream, "gunicorn");
    assert!(!config.access_log.enabled);
    let compression = config.compression.as_ref().expect("gzip on");
    assert_eq!((compression.level, compression.min_length), (6, 200));
    assert_eq!(config.source, Some(PathBuf::from("weir.toml")));
}

#[test]
fn the_summary_shows_the_effective_config() {
    let seed_with_limit = SEED.replace(
        "upstream = \"gunicorn\"\n",
        "upstream = \"gunicorn\"\nlimits = [\"per_ip\"]\n",
    );
    let config = parse(&format!(
        "{seed_with_limit}[limits.per_ip]\nrate = \"10r/s\"\nburst = 20\nnodelay = true\n\
         [limits.spare]\nrate = \"1r/m\"\n[admin]\nlisten = \"127.0.0.1:9100\"\n"
    ));
    let summary = config.summary();
    for expected in [
        "config weir.toml",
        "listen             0.0.0.0:80  (backlog 511)",
        "keep-alive         120s, at most 5000 requests per connection",
        "max_body_size      20MiB",
        "request head       at most 32KiB, within 60s",
        "10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16 (client address from X-Forwarded-For)",
        "gunicorn: unix:/tmp/gunicorn.sock",
        "max_connections no limit, 8 idle kept for 1s, each reused for up to 10s, queue 1024 for 60s",
        "connect 65s, read 65s, send 65s",
        "* / -> gunicorn  limits per_ip",
        "per_ip: 10r/s by client_ip, burst 20, nodelay, status 429",
        "in memory, at most 100000 keys, draft-10 RateLimit headers",
        "spare: 1r/m by client_ip, burst 0, delay excess, status 429",
        "not used by any route",
        "access_log           off",
        "admin                127.0.0.1:9100",
        "compression          br, zstd, gzip at level 6, from 200 bytes",
    ] {
        assert!(
            summary.contains(expected),
            "{expected:?} not in:\n{summary}"
        );
    }
    assert!(
        summary.lines().count() <= 25,
        "more than a screen:\n{summary}"
    );
}

#[test]
fn the_summary_of_an_empty_config_says_so() {
    let summary = from_toml("", None).expect("empty is valid").summary();
    assert!(summary.contains("config <string>"), "{summary}");
    assert!(
        summary.contains("none (every request gets 404)"),
        "{summary}"
    );
}

// --- errors --------------------------------------------------------------------------------------

#[test]
fn a_syntax_error_names_the_line() {
    let error = reject("[server]\nlisten = [\"0.0.0.0:80\"\n");
    assert_eq!(error.kind(), ConfigErrorKind::Syntax);
    assert_eq!(error.line(), Some(2));
    assert!(error.message().starts_with("invalid TOML"), "{error}");
    assert!(error.to_string().starts_with("weir.toml:2:"), "{error}");
}

#[test]
fn an_unknown_table_lists_the_valid_ones() {
    let error = reject("[server]\nbacklog = 1\n[compresion]\nlevel = 6\n");
    assert_error(
        &error,
        ConfigErrorKind::UnknownKey,
        3,
        2,
        "compresion",
        &[
            "unknown key \"compresion\"",
            "server, upstreams, routes, limits, connection_limits, access_log, admin",
        ],
    );
}

#[test]
fn an_unknown_server_key_lists_the_valid_ones() {
    let error = reject("[server]\nlisten = [\"0.0.0.0:80\"]\nkeepalive = 8\n");
    assert_error(
        &error,
        ConfigErrorKind::UnknownKey,
        3,
        1,
        "server.keepalive",
        &[
            "unknown key \"keepalive\"",
            "listen, backlog, max_connections, keepalive_timeout",
        ],
    );
}

#[test]
fn an_unknown_upstream_key_names_the_upstream() {
    let error = reject(&with_app("keepalive = 8\n"));
    assert_error(
        &error,
        ConfigErrorKind::UnknownKey,
        3,
        1,
        "upstreams.app.keepalive",
        &["max_idle", "idle_timeout"],
    );
}

#[test]
fn an_unknown_key_in_the_second_route_names_its_index() {
    let error = reject(&with_app(
        "[[routes]]\nupstream = \"app\"\n[[routes]]\npath = \"/x\"\nupstream = \"app\"\nroot = \"/srv\"\n",
    ));
    assert_error(
        &error,
        ConfigErrorKind::UnknownKey,
        8,
        1,
        "routes[1].root",
        &["host, path, exact, upstream, upstream_path, static, redirect, status, body, content_type, limits"],
    );
}

/// Found by the `config_toml` fuzz target: a quoted key may hold escaped line breaks, and the
/// message repeated the key raw, so one error printed as several lines (which could forge lines in
/// `weir check`'s output or a log).
#[test]
fn an_error_is_one_line_whatever_the_key_holds() {
    let error = reject("[server]\n\"max_body\\r\\nsize\\u001b[31m\" = 1\n");
    assert_eq!(error.kind(), ConfigErrorKind::UnknownKey);
    let display = error.to_string();
    assert!(!display.contains(['\n', '\r', '\x1b']), "{display:?}");
    assert!(
        error
            .message()
            .contains(r#"unknown key "max_body\r\nsize\u{1b}[31m""#),
        "{display}"
    );
}

#[test]
fn a_bad_duration_says_what_would_be_valid() {
    let error = reject(&with_app("max_idle = 8\nidle_timeout = \"5 seconds\"\n"));
    assert_error(
        &error,
        ConfigErrorKind::InvalidValue,
        4,
        16,
        "upstreams.app.idle_timeout",
        &[
            "expected a duration such as \"65s\", \"500ms\"",
            "\"5 seconds\"",
        ],
    );
}

#[test]
fn a_duration_of_the_wrong_type_says_what_would_be_valid() {
    let error = reject("[server]\nheader_timeout = 1.5\n");
    assert_error(
        &error,
        ConfigErrorKind::InvalidValue,
        2,
        18,
        "server.header_timeout",
        &["expected a duration such as \"65s\"", "found float 1.5"],
    );
}

#[test]
fn a_bad_size_says_what_would_be_valid() {
    let error = reject("[server]\nmax_body_size = \"20 megs\"\n");
    assert_error(
        &error,
        ConfigErrorKind::InvalidValue,
        2,
        17,
        "server.max_body_size",
        &["expected a size such as \"20MiB\"", "\"20 megs\""],
    );
}

#[test]
fn a_negative_count_says_what_would_be_valid() {
    let error = reject(&with_app("max_idle = -1\n"));
    assert_error(
        &error,
        ConfigErrorKind::InvalidValue,
        3,
        12,
        "upstreams.app.max_idle",
        &["expected a non-negative integer", "found integer -1"],
    );
}

#[test]
fn a_string_where_a_number_belongs_is_named() {
    let error = reject("[server]\nbacklog = \"511\"\n");
    assert_error(
        &error,
        ConfigErrorKind::InvalidValue,
        2,
        11,
        "server.backlog",
        &[
            "expected an integer from 0 to 4294967295",
            "found string \"511\"",
        ],
    );
}

#[test]
fn a_bad_listen_address_names_its_index() {
    let error = reject("[server]\nlisten = [\"0.0.0.0:80\", \"localhost:8080\"]\n");
    assert_error(
        &error,
        ConfigErrorKind::InvalidValue,
        2,
        25,
        "server.listen[1]",
        &["\"127.0.0.1:8080\"", "\"[::1]:8080\"", "\"localhost:8080\""],
    );
}

#[test]
fn an_empty_listen_is_rejected() {
    let error = reject("[server]\nlisten = []\n");
    assert_error(
        &error,
        ConfigErrorKind::InvalidValue,
        2,
        10,
        "server.listen",
        &["at least one address"],
    );
}

#[test]
fn a_listen_address_twice_is_rejected() {
    let error = reject("[server]\nlisten = [\"0.0.0.0:80\", \"0.0.0.0:80\"]\n");
    assert_error(
        &error,
        ConfigErrorKind::Duplicate,
        2,
        10,
        "server.listen",
        &["0.0.0.0:80 is listed twice"],
    );
}

#[test]
fn a_bad_trusted_proxy_says_what_would_be_valid() {
    let error = reject("[server]\ntrusted_proxies = [\"10.0.0.0/33\"]\n");
    assert_error(
        &error,
        ConfigErrorKind::InvalidValue,
        2,
        20,
        "server.trusted_proxies[0]",
        &["\"10.0.0.0/8\"", "\"10.0.0.0/33\""],
    );
}

#[test]
fn a_bad_real_ip_header_lists_the_choices() {
    let error = reject("[server]\nreal_ip_header = \"X-Client-IP\"\n");
    assert_error(
        &error,
        ConfigErrorKind::InvalidValue,
        2,
        18,
        "server.real_ip_header",
        &["\"X-Forwarded-For\", \"X-Real-IP\", \"Forwarded\""],
    );
}

#[test]
fn zero_where_zero_makes_no_sense_is_rejected() {
    let cases = [
        (
            "[server]\nmax_connections = 0\n",
            "server.max_connections",
            "at least 1",
        ),
        (
            "[server]\nkeepalive_requests = 0\n",
            "server.keepalive_requests",
            "keepalive_timeout = \"0s\"",
        ),
        (
            "[server]\nheader_timeout = \"0s\"\n",
            "server.header_timeout",
            "greater than 0s",
        ),
        (
            "[server]\nmax_header_size = \"512\"\n",
            "server.max_header_size",
            "at least 1KiB",
        ),
        (
            "[server]\nmax_header_size = \"4GiB\"\n",
            "server.max_header_size",
            "below 4GiB",
        ),
    ];
    for (text, key, words) in cases {
        let error = reject(text);
        assert_error(
            &error,
            ConfigErrorKind::InvalidValue,
            2,
            error.column().unwrap_or(0),
            key,
            &[words],
        );
    }
    let error = reject(&with_app("read_timeout = 0\n"));
    assert_error(
        &error,
        ConfigErrorKind::InvalidValue,
        3,
        16,
        "upstreams.app.read_timeout",
        &["greater than 0s (the default is 60s)"],
    );
}

#[test]
fn ipv6_prefix_defaults_to_64_and_is_checked() {
    let config =
        parse("[limits.a]\nrate = \"1r/s\"\n[limits.b]\nrate = \"1r/s\"\nipv6_prefix = 56\n");
    assert_eq!(config.limits["a"].ipv6_prefix, 64);
    assert_eq!(config.limits["b"].ipv6_prefix, 56);
    for bad in ["0", "129", "1000"] {
        let error = reject(&format!(
            "[limits.a]\nrate = \"1r/s\"\nipv6_prefix = {bad}\n"
        ));
        assert_error(
            &error,
            ConfigErrorKind::InvalidValue,
            3,
            15,
            "limits.a.ipv6_prefix",
            &[
                "from 1 to 128",
                "the default is 64",
                &format!("found {bad}"),
            ],
        );
    }
    let error = reject("[limits.a]\nrate = \"1r/s\"\nkey = \"path\"\nipv6_prefix = 48\n");
    assert_error(
        &error,
        ConfigErrorKind::Conflict,
        4,
        15,
        "limits.a.ipv6_prefix",
        &["only applies to a key with client_ip"],
    );
}

#[test]
fn a_bad_spool_setting_says_what_would_be_valid() {
    let error = reject("[server]\nspool_dir = \"spool\"\n");
    assert_error(
        &error,
        ConfigErrorKind::InvalidValue,
        2,
        13,
        "server.spool_dir",
        &["absolute directory", "\"/var/lib/weir/spool\""],
    );
    let error = reject("[server]\nmax_spool_size = \"64KiB\"\n");
    assert_error(
        &error,
        ConfigErrorKind::InvalidValue,
        2,
        18,
        "server.max_spool_size",
        &["at least 1MiB", "the default is 1GiB", "65536 bytes"],
    );
    let error = reject("[server]\nmax_body_memory = \"64KiB\"\n");
    assert_error(
        &error,
        ConfigErrorKind::InvalidValue,
        2,
        19,
        "server.max_body_memory",
        &["at least 1MiB", "the default is 64MiB", "65536 bytes"],
    );
}

#[test]
fn a_bad_server_header_is_rejected() {
    let error = reject("[server]\nserver_header = \"\"\n");
    assert_error(
        &error,
        ConfigErrorKind::InvalidValue,
        2,
        17,
        "server.server_header",
        &["\"weir\""],
    );
}

#[test]
fn an_upstream_without_servers_is_rejected() {
    let error = reject("[upstreams.app]\nmax_idle = 8\n");
    assert_error(
        &error,
        ConfigErrorKind::MissingKey,
        1,
        1,
        "upstreams.app.servers",
        &["missing required key \"servers\""],
    );
    let error = reject("[upstreams.app]\nservers = []\n");
    assert_error(
        &error,
        ConfigErrorKind::InvalidValue,
        2,
        11,
        "upstreams.app.servers",
        &["at least one server", "\"unix:/run/app.sock\""],
    );
}

#[test]
fn backup_servers_are_addresses_or_names_never_one_of_the_group_s_own() {
    let config = from_toml(
        "[upstreams.app]\nservers = \"127.0.0.1:8000\"\nbackup_servers = [\"unix:/run/maintenance.sock\", \"spare:8000\"]\n",
        None,
    )
    .unwrap();
    let app = &config.upstreams["app"];
    assert_eq!(
        app.backup_servers,
        [UpstreamAddr::Unix("/run/maintenance.sock".into())]
    );
    assert_eq!(app.names.len(), 1);
    assert!(app.names[0].backup);
    assert_eq!(app.names[0].key(), "backup_servers[1]");
    assert!(app.resolve.is_some(), "a backup's host name is resolved");
    let summary = config.summary();
    for expected in [
        "  app: 127.0.0.1:8000\n",
        "    backup_servers   unix:/run/maintenance.sock, spare:8000 (only while none of the above is available)",
        "    balance          round_robin",
    ] {
        assert!(summary.contains(expected), "{expected:?} not in:\n{summary}");
    }
    let error = reject(
        "[upstreams.app]\nservers = [\"127.0.0.1:8000\", \"web:80\"]\nbackup_servers = [\"web:80\"]\n",
    );
    assert_error(
        &error,
        ConfigErrorKind::InvalidValue,
        3,
        18,
        "upstreams.app.backup_servers",
        &["web:80 is in servers too"],
    );
    let error = reject(
        "[upstreams.app]\nservers = \"127.0.0.1:8000\"\nbackup_servers = \"127.0.0.1:8000\"\n",
    );
    assert_error(
        &error,
        ConfigErrorKind::InvalidValue,
        3,
        18,
        "upstreams.app.backup_servers",
        &["127.0.0.1:8000 is in servers too"],
    );
}

#[test]
fn a_bad_upstream_server_says_what_would_be_valid() {
    let error = reject("[upstreams.app]\nservers = [\"unix:\", \"localhost:8000\"]\n");
    assert_error(
        &error,
        ConfigErrorKind::InvalidValue,
        2,
        12,
        "upstreams.app.servers[0]",
        &["\"unix:/run/app.sock\""],
    );
    // A host name needs a port (`"localhost:8000"` is a server by host name).
    let error = reject("[upstreams.app]\nservers = [\"localhost\"]\n");
    assert_error(
        &error,
        ConfigErrorKind::InvalidValue,
        2,
        12,
        "upstreams.app.servers[0]",
        &["\"IP:PORT\""],
    );
}

#[test]
fn a_bad_upstream_name_is_rejected() {
    let error = reject("[upstreams.\"my app\"]\nservers = [\"127.0.0.1:1\"]\n");
    assert_error(
        &error,
        ConfigErrorKind::InvalidValue,
        1,
        1,
        "upstreams.\"my app\"",
        &["letters, digits, '_' or '-'"],
    );
}

#[test]
fn a_route_naming_a_missing_upstream_lists_the_defined_ones() {
    let error = reject(&with_app(
        "[upstreams.static]\nservers = [\"unix:/run/s.sock\"]\n[[routes]]\nupstream = \"app\"\n\
         [[routes]]\npath = \"/api/\"\nupstream = \"api\"\n",
    ));
    assert_error(
        &error,
        ConfigErrorKind::UnknownName,
        9,
        12,
        "routes[1].upstream",
        &["unknown upstream \"api\"; defined: app, static"],
    );
    let error = reject("[[routes]]\nupstream = \"api\"\n");
    assert_error(
        &error,
        ConfigErrorKind::UnknownName,
        2,
        12,
        "routes[0].upstream",
        &["no [upstreams.NAME] table is defined"],
    );
}

#[test]
fn a_route_without_upstream_is_rejected() {
    let error = reject(&with_app("[[routes]]\npath = \"/\"\n"));
    assert_error(
        &error,
        ConfigErrorKind::MissingKey,
        3,
        1,
        "routes[0]",
        &[
            "a route needs `upstream`",
            "defined: app",
            "`static` (a directory)",
            "`redirect`/`status`",
        ],
    );
}

#[test]
fn a_route_naming_a_missing_limit_lists_the_defined_ones() {
    let error = reject(&with_app(
        "[limits.per_ip]\nrate = \"1r/s\"\n[[routes]]\nupstream = \"app\"\nlimits = [\"per_ip\", \"global\"]\n",
    ));
    assert_error(
        &error,
        ConfigErrorKind::UnknownName,
        7,
        21,
        "routes[0].limits[1]",
        &["unknown limit \"global\"; defined: per_ip"],
    );
}

#[test]
fn a_limit_twice_on_one_route_is_rejected() {
    let error = reject(&with_app(
        "[limits.per_ip]\nrate = \"1r/s\"\n[[routes]]\nupstream = \"app\"\nlimits = [\"per_ip\", \"per_ip\"]\n",
    ));
    assert_error(
        &error,
        ConfigErrorKind::Duplicate,
        7,
        21,
        "routes[0].limits[1]",
        &["listed twice"],
    );
}

#[test]
fn a_duplicate_route_points_at_the_first() {
    let error = reject(&with_app(
        "[[routes]]\nhost = \"a.example\"\npath = \"/api/\"\nupstream = \"app\"\n\
         [[routes]]\npath = \"/api/\"\nupstream = \"app\"\n\
         [[routes]]\nhost = \"A.example\"\npath = \"/api/\"\nupstream = \"app\"\n",
    ));
    assert_error(
        &error,
        ConfigErrorKind::Duplicate,
        12,
        8,
        "routes[2].path",
        &["routes[0] already matches host \"a.example\" and path \"/api/\""],
    );
    let error = reject(&with_app(
        "[[routes]]\nupstream = \"app\"\n[[routes]]\nupstream = \"app\"\n",
    ));
    assert_error(
        &error,
        ConfigErrorKind::Duplicate,
        5,
        1,
        "routes[1]",
        &["routes[0] already matches any host and path \"/\""],
    );
}

#[test]
fn a_path_must_start_with_a_slash() {
    let error = reject(&with_app(
        "[[routes]]\npath = \"api/\"\nupstream = \"app\"\n",
    ));
    assert_error(
        &error,
        ConfigErrorKind::InvalidValue,
        4,
        8,
        "routes[0].path",
        &["starts with '/'", "\"api/\""],
    );
}

#[test]
fn a_host_with_a_port_is_rejected() {
    let error = reject(&with_app(
        "[[routes]]\nhost = \"example.com:8080\"\nupstream = \"app\"\n",
    ));
    assert_error(
        &error,
        ConfigErrorKind::InvalidValue,
        4,
        8,
        "routes[0].host",
        &["without port"],
    );
}

#[test]
fn a_limit_without_rate_is_rejected() {
    let error = reject("[limits.per_ip]\nburst = 5\n");
    assert_error(
        &error,
        ConfigErrorKind::MissingKey,
        1,
        1,
        "limits.per_ip.rate",
        &["missing required key \"rate\""],
    );
}

#[test]
fn a_bad_rate_says_what_would_be_valid() {
    let error = reject("[limits.per_ip]\nrate = \"10/s\"\n");
    assert_error(
        &error,
        ConfigErrorKind::InvalidValue,
        2,
        8,
        "limits.per_ip.rate",
        &["\"10r/s\", \"600r/m\"", "\"10/s\""],
    );
}

#[test]
fn a_bad_key_says_what_would_be_valid() {
    let error = reject("[limits.per_ip]\nrate = \"1r/s\"\nkey = \"remote_addr\"\n");
    assert_error(
        &error,
        ConfigErrorKind::InvalidValue,
        3,
        7,
        "limits.per_ip.key",
        &[
            "\"client_ip\", \"path\" or \"header:NAME\"",
            "\"remote_addr\"",
        ],
    );
}

#[test]
fn nodelay_and_delay_together_conflict() {
    let error = reject("[limits.per_ip]\nrate = \"1r/s\"\nnodelay = true\ndelay = 3\n");
    assert_error(
        &error,
        ConfigErrorKind::Conflict,
        4,
        9,
        "limits.per_ip.delay",
        &["either nodelay = true or delay = N"],
    );
}

#[test]
fn a_status_outside_400_to_599_is_rejected() {
    for status in ["200", "600", "99999", "\"429\""] {
        let error = reject(&format!(
            "[limits.per_ip]\nrate = \"1r/s\"\nstatus = {status}\n"
        ));
        assert_eq!(error.key(), Some("limits.per_ip.status"), "{error}");
        assert_eq!(
            (error.line(), error.column()),
            (Some(3), Some(10)),
            "{error}"
        );
        assert_eq!(error.kind(), ConfigErrorKind::InvalidValue);
    }
    let error = reject("[limits.per_ip]\nrate = \"1r/s\"\nstatus = 600\n");
    assert!(error.message().contains("from 400 to 599"), "{error}");
}

#[test]
fn a_bad_choice_lists_the_valid_ones() {
    let error = reject("[limits.per_ip]\nrate = \"1r/s\"\nheaders = \"draft-10\"\n");
    assert_error(
        &error,
        ConfigErrorKind::InvalidValue,
        3,
        11,
        "limits.per_ip.headers",
        &["expected one of \"draft10\", \"legacy\", \"off\", found \"draft-10\""],
    );
    let error = reject("[access_log]\nformat = \"common\"\n");
    assert_error(
        &error,
        ConfigErrorKind::InvalidValue,
        2,
        10,
        "access_log.format",
        &["\"combined\", \"json\""],
    );
}

#[test]
fn the_redis_backend_needs_a_url() {
    let error = reject("[limits.shared]\nrate = \"1r/s\"\nbackend = \"redis\"\n");
    assert_error(
        &error,
        ConfigErrorKind::MissingKey,
        1,
        1,
        "limits.shared.redis",
        &["redis = \"redis://127.0.0.1:6379/0\""],
    );
    let error = reject(
        "[limits.shared]\nrate = \"1r/s\"\nbackend = \"redis\"\nredis = \"127.0.0.1:6379\"\n",
    );
    assert_error(
        &error,
        ConfigErrorKind::InvalidValue,
        4,
        9,
        "limits.shared.redis",
        &["expected a redis URL", "\"127.0.0.1:6379\""],
    );
}

#[test]
fn redis_settings_without_the_redis_backend_conflict() {
    let error = reject("[limits.per_ip]\nrate = \"1r/s\"\non_redis_error = \"deny\"\n");
    assert_error(
        &error,
        ConfigErrorKind::Conflict,
        3,
        18,
        "limits.per_ip.on_redis_error",
        &["only applies with backend = \"redis\""],
    );
}

#[test]
fn the_admin_listener_needs_its_own_address() {
    let error =
        reject("[server]\nlisten = [\"127.0.0.1:8080\"]\n[admin]\nlisten = \"127.0.0.1:8080\"\n");
    assert_error(
        &error,
        ConfigErrorKind::Conflict,
        4,
        10,
        "admin.listen",
        &["its own address"],
    );
    let error = reject("[admin]\n");
    assert_error(
        &error,
        ConfigErrorKind::MissingKey,
        1,
        1,
        "admin.listen",
        &["\"listen\""],
    );
}

#[test]
fn columns_count_characters_not_bytes() {
    let error = reject("# é\n[server]\nbacklog = \"é\"\n");
    assert_eq!(
        (error.line(), error.column()),
        (Some(3), Some(11)),
        "{error}"
    );
    let error = reject("[server] # déjà vu\nbacklog = -5\n");
    assert_eq!(
        (error.line(), error.column()),
        (Some(2), Some(11)),
        "{error}"
    );
}

#[test]
fn a_string_source_is_named_in_messages() {
    let error = from_toml("[server]\nbacklog = -1\n", None).expect_err("negative backlog");
    assert_eq!(error.file(), "<string>");
    assert!(
        error
            .to_string()
            .starts_with("<string>:2:11: server.backlog: "),
        "{error}"
    );
}

#[test]
fn load_reads_a_file_and_names_it() {
    let directory = tempfile::tempdir().expect("a temp dir");
    let path = directory.path().join("weir.toml");
    std::fs::write(&path, SEED).expect("write the config");
    let config = load(&path).expect("the seed config loads");
    assert_eq!(config.source.as_deref(), Some(path.as_path()));
    assert_eq!(config.upstreams["gunicorn"].max_idle, 8);

    std::fs::write(&path, "[server]\nlisten = 80\n").expect("write the config");
    let error = load(&path).expect_err("a port alone is not an address");
    assert_eq!(error.file(), path.display().to_string());
    assert_eq!(error.key(), Some("server.listen"));
    assert!(
        error
            .to_string()
            .starts_with(&format!("{}:2:10: server.listen: ", path.display())),
        "{error}"
    );
}

#[test]
fn load_reports_a_missing_file() {
    let directory = tempfile::tempdir().expect("a temp dir");
    let path = directory.path().join("missing.toml");
    let error = load(&path).expect_err("no such file");
    assert_eq!(error.kind(), ConfigErrorKind::Io);
    assert_eq!(error.line(), None);
    assert_eq!(error.key(), None);
    assert!(
        error.to_string().starts_with(&path.display().to_string()),
        "{error}"
    );
    assert!(error.message().contains("cannot read"), "{error}");
}

// --- compression ---------------------------------------------------------------------------------

#[test]
fn an_empty_compression_table_turns_it_on_with_the_seed_defaults() {
    let config = parse("[compression]\n");
    assert_eq!(config.compression, Some(CompressionConfig::default()));
    let compression = config.compression.expect("present");
    assert_eq!(compression.level, 6);
    assert_eq!(compression.min_length, 200);
}

#[test]
fn every_compression_key_is_read() {
    let config = parse(
        "[compression]\nlevel = 1\nmin_length = \"1KiB\"\ntypes = [\"Application/JSON\", \"text/*\"]\nalgorithms = [\"gzip\"]\n",
    );
    let compression = config.compression.expect("present");
    assert_eq!(compression.level, 1);
    assert_eq!(compression.min_length, 1024);
    assert_eq!(
        compression.types,
        vec!["application/json".to_string(), "text/*".to_string()]
    );
    assert_eq!(compression.algorithms, vec![Encoding::Gzip]);
    assert!(parse("[compression]\n")
        .summary()
        .contains("compression          br, zstd, gzip at level 6"));
}

#[test]
fn bad_compression_values_say_what_would_be_valid() {
    let error = reject("[compression]\nlevel = 10\n");
    assert_error(
        &error,
        ConfigErrorKind::InvalidValue,
        2,
        9,
        "compression.level",
        &["from 1 (fastest) to 9"],
    );
    let error = reject("[compression]\ntypes = [\"json\"]\n");
    assert_error(
        &error,
        ConfigErrorKind::InvalidValue,
        2,
        10,
        "compression.types[0]",
        &["\"application/json\""],
    );
    let error = reject("[compression]\nalgorithms = [\"gzip\", \"deflate\"]\n");
    assert_error(
        &error,
        ConfigErrorKind::InvalidValue,
        2,
        23,
        "compression.algorithms[1]",
        &["\"br\", \"zstd\", \"gzip\", found \"deflate\""],
    );
    let error = reject("[compression]\nalgorithms = []\n");
    assert_error(
        &error,
        ConfigErrorKind::InvalidValue,
        2,
        14,
        "compression.algorithms",
        &["remove the [compression] table"],
    );
    let error = reject("[compression]\nalgorithms = [\"br\", \"BR\"]\n");
    assert_error(
        &error,
        ConfigErrorKind::Duplicate,
        2,
        21,
        "compression.algorithms[1]",
        &["listed twice"],
    );
    let error = reject("[compression]\ngzip_comp_level = 6\n");
    assert_error(
        &error,
        ConfigErrorKind::UnknownKey,
        2,
        1,
        "compression.gzip_comp_level",
        &["level, min_length, types, algorithms"],
    );
}

#[test]
fn exact_routes_and_answers_are_read() {
    let config = parse(&with_app(
        r#"
[[routes]]
path = "/"
exact = true
upstream = "app"

[[routes]]
path = "/"
upstream = "app"

[[routes]]
host = "old.example"
redirect = "https://$host$request_uri"
status = 301

[[routes]]
path = "/private/"
status = 404
"#,
    ));
    assert!(config.routes[0].exact);
    assert!(!config.routes[1].exact);
    assert_eq!(
        config.routes[2].answer,
        Some(AnswerConfig {
            status: StatusCode::MOVED_PERMANENTLY,
            location: Some(Template::parse("https://$host$request_uri").unwrap()),
            body: None,
        })
    );
    assert_eq!(config.routes[2].upstream, "");
    assert_eq!(
        config.routes[3].answer,
        Some(AnswerConfig {
            status: StatusCode::NOT_FOUND,
            location: None,
            body: None,
        })
    );
    let redirect = parse("[[routes]]\nredirect = \"https://example.com/\"\n");
    assert_eq!(
        redirect.routes[0]
            .answer
            .as_ref()
            .map(|answer| answer.status),
        Some(StatusCode::FOUND),
        "nginx's `return URL` is a 302"
    );
}

#[test]
fn bad_answers_say_what_would_be_valid() {
    let error = reject("[[routes]]\nredirect = \"https://$server_name/\"\n");
    assert_error(
        &error,
        ConfigErrorKind::InvalidValue,
        2,
        12,
        "routes[0].redirect",
        &["$host", "$request_uri", "$scheme", "$server_name"],
    );
    let error = reject("[[routes]]\nredirect = \"https://x/\"\nstatus = 200\n");
    assert_error(
        &error,
        ConfigErrorKind::InvalidValue,
        3,
        10,
        "routes[0].status",
        &["301, 302, 303, 307 or 308"],
    );
    let error = reject(&with_app("[[routes]]\nupstream = \"app\"\nstatus = 404\n"));
    assert_eq!(error.kind(), ConfigErrorKind::Conflict, "{error}");
    assert!(error.to_string().contains("not both"), "{error}");
    let error = reject(&with_app(
        "[limits.l]\nrate = \"1r/s\"\n\n[[routes]]\nstatus = 403\nlimits = [\"l\"]\n",
    ));
    assert!(error.to_string().contains("no limits"), "{error}");
    let error = reject(&with_app(
        "[[routes]]\npath = \"/x\"\nexact = true\nupstream = \"app\"\n\n[[routes]]\npath = \"/x\"\nexact = true\nstatus = 404\n",
    ));
    assert!(error.to_string().contains("exactly"), "{error}");
}

const TLS: &str = "[tls]\nlisten = [\"0.0.0.0:443\"]\n[[tls.certificates]]\ncert = \"fullchain.pem\"\nkey = \"/etc/weir/privkey.pem\"\n";

#[test]
fn tls_defaults_and_relative_certificate_paths() {
    let config = parse(&with_app(TLS));
    let tls = config.tls.expect("[tls] is on");
    assert_eq!(tls.listen, [socket("0.0.0.0:443")]);
    // Relative to the config file's directory (here: the current one), absolute kept.
    assert_eq!(tls.certificates[0].cert, PathBuf::from("fullchain.pem"));
    assert_eq!(
        tls.certificates[0].key,
        PathBuf::from("/etc/weir/privkey.pem")
    );
    assert_eq!(tls.protocols, [TlsVersion::Tls12, TlsVersion::Tls13]);
    assert_eq!(tls.alpn, [Alpn::H2, Alpn::Http11]);
    assert!(tls.session_tickets);
    assert_eq!(tls.session_cache, 20_000);
    assert_eq!(tls.handshake_timeout, Duration::from_secs(10));
    assert_eq!(tls.hsts, None);
    assert!(!tls.redirect_http);
    assert_eq!(tls.http2_max_concurrent_streams, 128);
    assert_eq!(tls.http2_max_header_list_size, 64 * 1024);
    assert_eq!(tls.http2_stream_window, 256 * 1024);
    assert_eq!(tls.http2_connection_window, 1024 * 1024);
    let nested = from_toml(&with_app(TLS), Some(Path::new("/etc/weir/weir.toml"))).unwrap();
    assert_eq!(
        nested.tls.unwrap().certificates[0].cert,
        PathBuf::from("/etc/weir/fullchain.pem")
    );
    assert!(parse(APP).tls.is_none());
}

#[test]
fn every_tls_key_is_read() {
    let config = parse(&with_app(&TLS.replace(
        "[[tls.certificates]]",
        "protocols = [\"TLSv1.3\"]\nalpn = [\"http/1.1\"]\nsession_tickets = false\nsession_cache = 0\nhandshake_timeout = \"5s\"\nhsts = \"max-age=63072000; includeSubDomains; preload\"\nredirect_http = true\nhttp2_max_concurrent_streams = 64\nhttp2_max_header_list_size = \"32KiB\"\nhttp2_stream_window = \"1MiB\"\nhttp2_connection_window = \"4MiB\"\n[[tls.certificates]]",
    )));
    let tls = config.tls.unwrap();
    assert_eq!(tls.protocols, [TlsVersion::Tls13]);
    assert_eq!(tls.alpn, [Alpn::Http11]);
    assert!(!tls.session_tickets);
    assert_eq!(tls.session_cache, 0);
    assert_eq!(tls.handshake_timeout, Duration::from_secs(5));
    assert_eq!(
        tls.hsts.as_deref(),
        Some("max-age=63072000; includeSubDomains; preload")
    );
    assert!(tls.redirect_http);
    assert_eq!(tls.http2_max_concurrent_streams, 64);
    assert_eq!(tls.http2_max_header_list_size, 32 * 1024);
    assert_eq!(tls.http2_stream_window, 1024 * 1024);
    assert_eq!(tls.http2_connection_window, 4 * 1024 * 1024);
}

#[test]
fn tls_mistakes_name_the_key_and_what_is_valid() {
    let error = reject(&with_app(&TLS.replace(
        "\"0.0.0.0:443\"",
        "\"0.0.0.0:443\"]\nprotocols = [\"TLSv1.1\"",
    )));
    assert_error(
        &error,
        ConfigErrorKind::InvalidValue,
        5,
        14,
        "tls.protocols[0]",
        &["\"TLSv1.2\" or \"TLSv1.3\"", "TLSv1.1"],
    );
    let error = reject(&with_app(
        &TLS.replace("\"0.0.0.0:443\"", "\"0.0.0.0:443\"]\nalpn = [\"spdy/3\""),
    ));
    assert_error(
        &error,
        ConfigErrorKind::InvalidValue,
        5,
        9,
        "tls.alpn[0]",
        &["\"h2\" or \"http/1.1\""],
    );
    let error = reject(&with_app(&TLS.replace(
        "\"0.0.0.0:443\"",
        "\"0.0.0.0:443\"]\nhsts = \"includeSubDomains\"#",
    )));
    assert_error(
        &error,
        ConfigErrorKind::InvalidValue,
        5,
        8,
        "tls.hsts",
        &["max-age="],
    );
    let error = reject(&with_app(&TLS.replace(
        "\"0.0.0.0:443\"",
        "\"0.0.0.0:443\"]\nhttp2_stream_window = \"1KiB\"#",
    )));
    assert_error(
        &error,
        ConfigErrorKind::InvalidValue,
        5,
        23,
        "tls.http2_stream_window",
        &["from 16KiB"],
    );
    let error = reject(&with_app("[tls]\nlisten = [\"0.0.0.0:443\"]\n"));
    assert_eq!(error.kind(), ConfigErrorKind::MissingKey);
    assert_eq!(error.key(), Some("tls.certificates"));
    let error = reject(&with_app(&format!(
        "[server]\nlisten = [\"0.0.0.0:443\"]\n{TLS}"
    )));
    assert_error(
        &error,
        ConfigErrorKind::Conflict,
        6,
        10,
        "tls.listen",
        &["own address"],
    );
    let error = reject(&with_app(&TLS.replace("fullchain.pem", "")));
    assert_error(
        &error,
        ConfigErrorKind::InvalidValue,
        6,
        8,
        "tls.certificates[0].cert",
        &["PEM file path"],
    );
    let error = reject(&with_app(
        &TLS.replace("[[tls.certificates]]", "bogus = 1\n[[tls.certificates]]"),
    ));
    assert_eq!(error.kind(), ConfigErrorKind::UnknownKey);
    assert!(error.message().contains("redirect_http"), "{error}");
}

// Header rules, access rules, dot-files and static fallbacks (issue 19).

#[test]
fn header_and_access_rules_are_read_in_order() {
    let config = parse(&with_app(
        r#"
[[hosts]]
name = "Example.com"
response_headers_always = { "Strict-Transport-Security" = "max-age=60" }
access = ["allow 10.0.0.0/8", "deny all"]

[[routes]]
host = "example.com"
upstream = "app"
request_headers = { "X-Forwarded-Host" = "", "X-Real-IP" = "$remote_addr" }
append_request_headers = { "X-Tag" = "weir" }
response_headers = { "X-Frame-Options" = "DENY" }
hide_response_headers = ["X-Powered-By"]
forwarded_for = "replace"
access = ["deny 192.0.2.1", "allow 192.0.2.0/24", "deny all"]
"#,
    ));
    let rules = &config.routes[0].rules;
    let names: Vec<&str> = rules
        .headers
        .request_set
        .iter()
        .map(|(name, value)| {
            assert_eq!(value.is_none(), name == "x-forwarded-host");
            name.as_str()
        })
        .collect();
    assert_eq!(names, ["x-forwarded-host", "x-real-ip"]);
    assert_eq!(rules.headers.forwarded_for, Some(ForwardedFor::Replace));
    assert_eq!(
        rules.headers.response_hide,
        [HeaderName::from_static("x-powered-by")]
    );
    let access = rules.access.as_ref().unwrap();
    assert_eq!(access.len(), 3);
    assert!(!access[0].allow && access[2].network.is_none());
    assert_eq!(config.hosts[0].name, "example.com");
    assert!(config.hosts[0].access.is_some());
    let summary = config.summary();
    for expected in [
        "access: 3 entries, request headers set 2, appended 1, response headers 1, hidden 1, X-Forwarded-For replaced",
        "host example.com: access: 2 entries, always 1",
    ] {
        assert!(summary.contains(expected), "{expected:?} not in:\n{summary}");
    }
}

#[test]
fn methods_are_read_with_head_beside_get_and_bad_ones_refused() {
    let config = parse(&with_app(
        "[[routes]]\nupstream = \"app\"\nmethods = [\"GET\", \"POST\"]\n[[routes]]\npath = \"/put/\"\nupstream = \"app\"\nmethods = [\"PUT\"]\n",
    ));
    assert_eq!(
        config.routes[0].methods,
        Some(vec![
            http::Method::GET,
            http::Method::POST,
            http::Method::HEAD
        ])
    );
    assert_eq!(config.routes[1].methods, Some(vec![http::Method::PUT]));
    let summary = config.summary();
    assert!(
        summary.contains("* / -> app  methods GET POST HEAD"),
        "{summary}"
    );
    let error = reject(&with_app(
        "[[routes]]\nupstream = \"app\"\nmethods = [\"GET\", \"post\"]\n",
    ));
    assert_error(
        &error,
        ConfigErrorKind::InvalidValue,
        5,
        19,
        "routes[0].methods[1]",
        &["upper case", "\"POST\""],
    );
    let error = reject(&with_app("[[routes]]\nupstream = \"app\"\nmethods = []\n"));
    assert_eq!(error.key(), Some("routes[0].methods"), "{error}");
    assert!(error.message().contains("at least one"), "{error}");
    let error = reject(&with_app(
        "[[routes]]\nupstream = \"app\"\nmethods = [\"GET\", \"GET\"]\n",
    ));
    assert_eq!(error.kind(), ConfigErrorKind::Duplicate, "{error}");
}

#[test]
fn maps_are_read_and_named_by_header_values_and_bad_ones_refused() {
    let config = parse(&with_app(
        "[maps.cors_origin]\nsource = \"$http_origin\"\nentries = [{ equals = \"https://A.test\", value = \"$http_origin\" }, { matches = \"^https://b\\\\.test$\", value = \"\" }]\n[[routes]]\nupstream = \"app\"\nresponse_headers = { \"Access-Control-Allow-Origin\" = \"$cors_origin\" }\n",
    ));
    let map = &config.maps[0];
    assert_eq!(map.name, "cors_origin");
    assert!(
        map.equals.contains_key("https://a.test"),
        "strings any case"
    );
    assert_eq!(map.matches.len(), 1);
    assert!(map.matches[0].1.is_none(), "an empty value");
    assert_eq!(map.default, None);
    for (text, key, words) in [
        (
            "[maps.host]\nsource = \"$http_origin\"\n",
            "maps.host",
            &["a variable of weir's own"][..],
        ),
        (
            "[maps.m]\nsource = \"\"\n",
            "maps.m.source",
            &["what the map looks up"][..],
        ),
        (
            "[maps.m]\nsource = \"$http_origin\"\nentries = [{ matches = \"(?=a)\", value = \"1\" }]\n",
            "maps.m.entries[0].matches",
            &["expected a regex", "look-around"][..],
        ),
        (
            "[maps.m]\nsource = \"$http_origin\"\nentries = [{ equals = \"a\", matches = \"b\", value = \"1\" }]\n",
            "maps.m.entries[0].value",
            &["one of `equals`"][..],
        ),
        (
            "[maps.m]\nsource = \"$http_origin\"\nentries = [{ equals = \"a\", value = \"1\" }, { equals = \"A\", value = \"2\" }]\n",
            "maps.m.entries[1].equals",
            &["listed twice"][..],
        ),
        (
            "[maps.m]\nsource = \"$http_origin\"\ndefault = \"$other\"\n",
            "maps.m.default",
            &["$other is none of them"][..],
        ),
        (
            "[[routes]]\nupstream = \"app\"\nresponse_headers = { \"X-A\" = \"$no_such_map\" }\n",
            "routes[0].response_headers.X-A",
            &["[maps.NAME]'s $NAME", "$no_such_map is none of them"][..],
        ),
    ] {
        let error = reject(&with_app(text));
        assert_eq!(error.key(), Some(key), "{error}");
        for word in words {
            assert!(error.message().contains(word), "{word:?} not in: {error}");
        }
    }
}

#[test]
fn answer_options_is_read_and_bad_ones_refused() {
    let config = parse(&with_app(
        "[[routes]]\nupstream = \"app\"\nanswer_options = { headers = { \"Access-Control-Allow-Origin\" = \"$http_origin\" } }\n",
    ));
    let answer = config.routes[0].rules.answer_options.as_ref().unwrap();
    assert_eq!(
        answer.status,
        http::StatusCode::NO_CONTENT,
        "204 unless given"
    );
    assert_eq!(answer.headers[0].0, "access-control-allow-origin");
    let summary = config.summary();
    assert!(
        summary.contains("* / -> app  OPTIONS answered 204 (1 headers)"),
        "{summary}"
    );
    for (keys, key, words) in [
        (
            "{ status = 301 }",
            "routes[0].answer_options.status",
            &["200 to 299 or 400 to 599", "301"][..],
        ),
        (
            "{ headers = { \"Content-Length\" = \"0\" } }",
            "routes[0].answer_options.headers.Content-Length",
            &["weir writes \"Content-Length\" itself"][..],
        ),
        (
            "{ headers = { \"X-A\" = \"\" } }",
            "routes[0].answer_options.headers.X-A",
            &["expected a value"][..],
        ),
        (
            "{ headers = { \"X-A\" = \"$bytes_sent\" } }",
            "routes[0].answer_options.headers.X-A",
            &["$bytes_sent is none of them"][..],
        ),
        (
            "{ status = 204, body = \"x\" }",
            "routes[0].answer_options.body",
            &["unknown key \"body\"", "status, headers"][..],
        ),
    ] {
        let error = reject(&with_app(&format!(
            "[[routes]]\nupstream = \"app\"\nanswer_options = {keys}\n"
        )));
        assert_eq!(error.key(), Some(key), "{error}");
        for word in words {
            assert!(error.message().contains(word), "{word:?} not in: {error}");
        }
    }
}

#[test]
fn charset_and_its_types_are_read_and_bad_ones_refused() {
    let config = parse(&with_app(
        r#"
[[hosts]]
name = "example.com"
charset = "utf-8"
charset_types = ["Text/CSS", "*"]

[[routes]]
host = "example.com"
path = "/legacy/"
upstream = "app"
charset = "off"

[[routes]]
host = "example.com"
upstream = "app"
"#,
    ));
    let host = &config.hosts[0].headers;
    assert_eq!(host.charset, Some(Some("utf-8".to_string())));
    assert_eq!(
        host.charset_types,
        Some(vec!["text/css".to_string(), "*".to_string()])
    );
    assert_eq!(config.routes[0].rules.headers.charset, Some(None));
    assert_eq!(config.routes[1].rules.headers.charset, None);
    let summary = config.summary();
    for expected in [
        "host example.com: charset utf-8, charset types text/css *",
        "no charset",
    ] {
        assert!(
            summary.contains(expected),
            "{expected:?} not in:\n{summary}"
        );
    }

    let error = reject(&with_app(
        "[[routes]]\nupstream = \"app\"\ncharset = \"utf 8\"\n",
    ));
    assert_error(
        &error,
        ConfigErrorKind::InvalidValue,
        5,
        11,
        "routes[0].charset",
        &["\"utf-8\"", "\"off\""],
    );
    // A variable, as nginx's `charset $charset`, is not a name weir would write.
    let error = reject(&with_app(
        "[[routes]]\nupstream = \"app\"\ncharset = \"$charset\"\n",
    ));
    assert!(error.message().contains("not a variable"), "{error}");
    let error = reject(&with_app(
        "[[routes]]\nupstream = \"app\"\ncharset_types = [\"text/css\", \"text\"]\n",
    ));
    assert_error(
        &error,
        ConfigErrorKind::InvalidValue,
        5,
        30,
        "routes[0].charset_types[1]",
        &["\"text/css\"", "\"*\""],
    );
    let error = reject(&with_app(
        "[[routes]]\nupstream = \"app\"\ncharset_types = [\"text/css\", \"TEXT/css\"]\n",
    ));
    assert_eq!(error.kind(), ConfigErrorKind::Duplicate, "{error}");
}

#[test]
fn an_unknown_variable_in_a_header_value_names_file_line_and_key() {
    let error = reject(&with_app(
        "[[routes]]\nupstream = \"app\"\nrequest_headers = { \"X-Real-IP\" = \"$realip_remote_addr\" }\n",
    ));
    assert_error(
        &error,
        ConfigErrorKind::InvalidValue,
        5,
        35,
        "routes[0].request_headers.X-Real-IP",
        &["$realip_remote_addr", "$remote_addr", "$http_NAME"],
    );
}

#[test]
fn bad_header_names_access_entries_and_misplaced_keys_are_refused() {
    let bad = |text: &str| reject(&with_app(text)).to_string();
    let message =
        bad("[[routes]]\nupstream = \"app\"\nresponse_headers = { \"X Frame\" = \"DENY\" }\n");
    assert!(
        message.contains("routes[0].response_headers") && message.contains("header name"),
        "{message}"
    );
    let message =
        bad("[[routes]]\nupstream = \"app\"\nrequest_headers = { \"Connection\" = \"\" }\n");
    assert!(
        message.contains("writes \"Connection\" itself"),
        "{message}"
    );
    let message = bad("[[routes]]\nupstream = \"app\"\nrequest_headers = { \"Host\" = \"\" }\n");
    assert!(message.contains("needs a Host"), "{message}");
    let message = bad("[[routes]]\nupstream = \"app\"\naccess = [\"permit 10.0.0.0/8\"]\n");
    assert!(
        message.contains("routes[0].access") && message.contains("\"allow ADDRESS\""),
        "{message}"
    );
    let message = bad("[[routes]]\nupstream = \"app\"\nforwarded_for = \"prepend\"\n");
    assert!(message.contains("\"replace\""), "{message}");
    let message = bad("[[routes]]\nupstream = \"app\"\ndotfiles = true\n");
    assert!(
        message.contains("routes[0].dotfiles") && message.contains("`static`"),
        "{message}"
    );
    let message = bad("[[routes]]\nstatic = \"/srv\"\nrequest_headers = { \"X-A\" = \"1\" }\n");
    assert!(message.contains("no `upstream`"), "{message}");
    let message = bad("[[routes]]\nstatic = \"/srv\"\nfallback_upstream = \"api\"\n");
    assert!(
        message.contains("routes[0].fallback_upstream") && message.contains("app"),
        "{message}"
    );
    let message = bad("[[routes]]\nstatic = \"/srv\"\nfallback_file = \"../etc/passwd\"\n");
    assert!(message.contains("routes[0].fallback_file"), "{message}");
    let message = bad("[[hosts]]\nname = \"other.test\"\n[[routes]]\nupstream = \"app\"\n");
    assert!(
        message.contains("hosts[0].name") && message.contains("no route has host"),
        "{message}"
    );
}

#[test]
fn load_refuses_a_missing_static_directory_and_fallback_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("weir.toml");
    let missing = dir.path().join("nowhere");
    std::fs::write(
        &path,
        format!(
            "[[routes]]\npath = \"/static/\"\nstatic = \"{}\"\n",
            missing.display()
        ),
    )
    .unwrap();
    let error = load(&path).unwrap_err();
    assert_eq!(error.line(), Some(3), "{error}");
    assert_eq!(error.key(), Some("routes[0].static"), "{error}");
    assert!(
        error.to_string().contains("expected an existing directory"),
        "{error}"
    );

    std::fs::write(
        &path,
        format!(
            "[[routes]]\nstatic = \"{}\"\nfallback_file = \"/index.html\"\n",
            dir.path().display()
        ),
    )
    .unwrap();
    let error = load(&path).unwrap_err();
    assert_eq!(error.key(), Some("routes[0].fallback_file"), "{error}");
    std::fs::write(dir.path().join("index.html"), "spa").unwrap();
    assert!(load(&path).is_ok());

    // A file is what a prefix or exact route may serve, and a regex route's error.
    let file = dir.path().join("favicon.ico");
    std::fs::write(&file, "icon").unwrap();
    let route = format!(
        "[[routes]]\npath = \"/favicon.ico\"\nstatic = \"{}\"\n",
        file.display()
    );
    for kind in ["", "match = \"exact\"\n"] {
        std::fs::write(&path, format!("{route}{kind}")).unwrap();
        assert!(load(&path).is_ok(), "{kind}");
    }
    std::fs::write(&path, format!("{route}match = \"regex\"\n")).unwrap();
    let error = load(&path).unwrap_err();
    assert_eq!(error.key(), Some("routes[0].static"), "{error}");
    assert!(
        error.to_string().contains("not a regex, one file"),
        "{error}"
    );
    std::fs::write(&path, format!("{route}fallback_file = \"/index.html\"\n")).unwrap();
    let error = load(&path).unwrap_err();
    assert!(error.to_string().contains("serves a directory"), "{error}");
}

#[test]
fn error_pages_are_read_by_status_and_checked() {
    let config = parse(&with_app(
        "[[hosts]]\nname = \"example.com\"\nerror_pages = { 404 = \"/srv/404.html\" }\nintercept_errors = true\n[[routes]]\nhost = \"example.com\"\nupstream = \"app\"\nerror_pages = { 502 = \"/srv/500.html\", 504 = \"/srv/500.html\" }\n",
    ));
    let server = parse("[server]\nerror_pages = { 502 = \"/srv/500.html\" }\n");
    assert_eq!(
        server.server.error_pages.files,
        [(StatusCode::BAD_GATEWAY, PathBuf::from("/srv/500.html"))]
    );
    assert!(
        server
            .summary()
            .contains("\n  error pages 502 -> /srv/500.html\n"),
        "{}",
        server.summary()
    );
    let error = reject("[server]\nerror_pages = { 502 = \"500.html\" }\n");
    assert_eq!(error.key(), Some("server.error_pages.502"), "{error}");
    let pages = &config.routes[0].rules.pages;
    assert_eq!(
        pages.files,
        [
            (StatusCode::BAD_GATEWAY, PathBuf::from("/srv/500.html")),
            (StatusCode::GATEWAY_TIMEOUT, PathBuf::from("/srv/500.html"))
        ]
    );
    assert_eq!(pages.intercept, None);
    assert_eq!(config.hosts[0].pages.intercept, Some(true));
    let summary = config.summary();
    assert!(
        summary.contains("    error pages 502, 504 -> /srv/500.html\n"),
        "{summary}"
    );
    assert!(
        summary.contains("    error pages 404 -> /srv/404.html; the upstream's errors too"),
        "{summary}"
    );

    let error = reject(&with_app(
        "[[routes]]\nupstream = \"app\"\nerror_pages = { 200 = \"/srv/ok.html\" }\n",
    ));
    assert_error(
        &error,
        ConfigErrorKind::InvalidValue,
        5,
        17,
        "routes[0].error_pages.200",
        &["a status from 400 to 599", "\"200\""],
    );
    let error = reject(&with_app(
        "[[routes]]\nupstream = \"app\"\nerror_pages = { 444 = \"/srv/x.html\" }\n",
    ));
    assert!(error.message().contains("not 444"), "{error}");
    let error = reject(&with_app(
        "[[routes]]\nupstream = \"app\"\nerror_pages = { 502 = \"public/500.html\" }\n",
    ));
    assert_error(
        &error,
        ConfigErrorKind::InvalidValue,
        5,
        23,
        "routes[0].error_pages.502",
        &["absolute path"],
    );
    let error = reject(&with_app(
        "[[routes]]\nstatic = \"/srv\"\nintercept_errors = true\n",
    ));
    assert!(
        error.to_string().contains("routes[0].intercept_errors")
            && error.message().contains("no `upstream`"),
        "{error}"
    );
}

#[test]
fn load_refuses_an_error_page_that_is_missing_or_too_large() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("weir.toml");
    let page = dir.path().join("500.html");
    std::fs::write(
        &path,
        with_app(&format!(
            "[[routes]]\nupstream = \"app\"\nerror_pages = {{ 502 = \"{}\" }}\n",
            page.display()
        )),
    )
    .unwrap();
    let error = load(&path).unwrap_err();
    assert_eq!(error.line(), Some(5), "{error}");
    assert_eq!(error.key(), Some("routes[0].error_pages.502"), "{error}");
    assert!(error.to_string().contains("500.html"), "{error}");
    std::fs::write(&page, vec![b'x'; 1024 * 1024 + 1]).unwrap();
    let error = load(&path).unwrap_err();
    assert!(error.to_string().contains("up to 1 MiB"), "{error}");
    std::fs::write(&page, "<h1>Back soon</h1>").unwrap();
    assert!(load(&path).is_ok());
}

// Where and how a route matches: `listen`, `scheme`, `match`, `internal`.

#[test]
fn route_scope_keys_default_to_what_a_route_has_always_been() {
    let config = parse(&with_app("[[routes]]\nupstream = \"app\"\n"));
    assert_eq!(config.routes[0].scope, RouteScope::default());
    assert_eq!(
        config.routes[0].path_match(),
        crate::routing::PathMatch::Prefix("/".to_string())
    );
}

#[test]
fn route_scope_keys_are_read() {
    let config = parse(&with_app(
        r#"
[server]
listen = ["127.0.0.1:8080"]
[[routes]]
path = "\\.PHP$"
match = "regex_nocase"
upstream = "app"
listen = ["127.0.0.1:8080"]
[[routes]]
host = "*.example.com"
path = "/media/"
match = "prefix_stop"
static = "/srv/media"
internal = true
scheme = "http"
"#,
    ));
    let regex = &config.routes[0];
    assert_eq!(
        regex.scope.listeners,
        crate::routing::Listeners::Addrs(vec![socket("127.0.0.1:8080")])
    );
    let crate::routing::PathMatch::Regex(compiled) = regex.path_match() else {
        panic!("a regex route: {regex:?}");
    };
    assert!(compiled.nocase() && compiled.as_str() == r"\.PHP$");
    let media = &config.routes[1];
    assert_eq!(media.host.as_deref(), Some("*.example.com"));
    assert!(media.scope.internal);
    assert_eq!(media.scope.listeners, crate::routing::Listeners::Tls(false));
    assert_eq!(
        media.path_match(),
        crate::routing::PathMatch::PrefixStop("/media/".to_string())
    );
}

#[test]
fn an_invalid_regex_names_the_path_and_the_regex_crates_message() {
    let error = reject(&with_app(
        "[[routes]]\npath = \"\\\\.(php$\"\nmatch = \"regex\"\nupstream = \"app\"\n",
    ));
    assert_error(
        &error,
        ConfigErrorKind::InvalidValue,
        4,
        8,
        "routes[0].path",
        &["regex", "unclosed group"],
    );
}

#[test]
fn a_regex_too_big_to_compile_is_refused() {
    let error = reject(&with_app(
        "[[routes]]\npath = \"\\\\w{1000}\\\\w{1000}\"\nmatch = \"regex\"\nupstream = \"app\"\n",
    ));
    assert_error(
        &error,
        ConfigErrorKind::InvalidValue,
        4,
        8,
        "routes[0].path",
        &["more than 1048576 bytes"],
    );
}

#[test]
fn an_unknown_match_kind_lists_the_valid_ones() {
    let error = reject(&with_app(
        "[[routes]]\npath = \"/\"\nmatch = \"~\"\nupstream = \"app\"\n",
    ));
    assert_error(
        &error,
        ConfigErrorKind::InvalidValue,
        5,
        9,
        "routes[0].match",
        &["\"prefix_stop\" (`^~`)", "\"regex_nocase\" (`~*`)"],
    );
}

#[test]
fn exact_with_another_match_kind_is_a_conflict() {
    let error = reject(&with_app(
        "[[routes]]\npath = \"/\"\nexact = true\nmatch = \"prefix_stop\"\nupstream = \"app\"\n",
    ));
    assert_error(
        &error,
        ConfigErrorKind::Conflict,
        6,
        9,
        "routes[0].match",
        &["one kind of match"],
    );
}

#[test]
fn a_route_listen_address_must_be_a_listener() {
    let error = reject(&with_app(
        "[server]\nlisten = [\"127.0.0.1:8080\"]\n[[routes]]\nupstream = \"app\"\nlisten = [\"0.0.0.0:443\"]\n",
    ));
    assert_error(
        &error,
        ConfigErrorKind::UnknownName,
        7,
        10,
        "routes[0].listen",
        &["0.0.0.0:443 is not a listener", "127.0.0.1:8080"],
    );
}

#[test]
fn scheme_https_needs_tls_and_cannot_go_with_listen() {
    let error = reject(&with_app(
        "[[routes]]\nupstream = \"app\"\nscheme = \"https\"\n",
    ));
    assert_error(
        &error,
        ConfigErrorKind::Conflict,
        5,
        10,
        "routes[0].scheme",
        &["needs a [tls] table"],
    );
    let error = reject(&with_app(
        "[[routes]]\nupstream = \"app\"\nscheme = \"ftp\"\n",
    ));
    assert_error(
        &error,
        ConfigErrorKind::InvalidValue,
        5,
        10,
        "routes[0].scheme",
        &["\"https\"", "\"http\""],
    );
    let error = reject(&with_app(
        "[server]\nlisten = [\"127.0.0.1:8080\"]\n[[routes]]\nupstream = \"app\"\nlisten = [\"127.0.0.1:8080\"]\nscheme = \"http\"\n",
    ));
    assert_error(
        &error,
        ConfigErrorKind::Conflict,
        8,
        10,
        "routes[0].scheme",
        &["not both"],
    );
}

#[test]
fn an_internal_route_takes_no_limits() {
    let error = reject(&with_app(
        "[limits.l]\nrate = \"1r/s\"\n[[routes]]\nupstream = \"app\"\ninternal = true\nlimits = [\"l\"]\n",
    ));
    assert_error(
        &error,
        ConfigErrorKind::Conflict,
        8,
        11,
        "routes[0].limits[0]",
        &["X-Accel-Redirect"],
    );
}

#[test]
fn host_wildcards_go_in_front_or_at_the_end_only() {
    for host in ["*.example.com", "example.*", "www.example.*"] {
        parse(&with_app(&format!(
            "[[routes]]\nhost = \"{host}\"\nupstream = \"app\"\n"
        )));
    }
    for host in ["a.*.com", "*example.com", "*", "*.", "example*"] {
        let error = reject(&with_app(&format!(
            "[[routes]]\nhost = \"{host}\"\nupstream = \"app\"\n"
        )));
        assert_error(
            &error,
            ConfigErrorKind::InvalidValue,
            4,
            8,
            "routes[0].host",
            &["\"*.example.com\" or \"example.*\""],
        );
    }
}

#[test]
fn the_same_path_may_have_a_route_per_listener_binding_but_not_two_on_one() {
    parse(&with_app(
        "[[routes]]\nupstream = \"app\"\n[[routes]]\nupstream = \"app\"\nscheme = \"http\"\n",
    ));
    let error = reject(&with_app(
        "[[routes]]\npath = \"/x\"\nupstream = \"app\"\n[[routes]]\npath = \"/x\"\nmatch = \"prefix_stop\"\nupstream = \"app\"\n",
    ));
    assert_eq!(error.kind(), ConfigErrorKind::Duplicate, "{error}");
}

#[test]
fn declared_workers_set_the_cap_per_server() {
    let cases = [
        ("workers = 4\n", 4, WorkerClass::Sync),
        ("workers = 2\nthreads = 8\n", 16, WorkerClass::Gthread),
        (
            "workers = 3\nthreads = 5\nworker_class = \"gthread\"\n",
            15,
            WorkerClass::Gthread,
        ),
        (
            "workers = 2\nthreads = 50\nworker_class = \"async\"\n",
            100,
            WorkerClass::Async,
        ),
        // Async without threads: the adaptive limit's ceiling is 32 per worker.
        (
            "workers = 3\nworker_class = \"async\"\n",
            96,
            WorkerClass::Async,
        ),
    ];
    for (keys, cap, class) in cases {
        let config = parse(&format!(
            "[upstreams.app]\nservers = [\"127.0.0.1:8000\"]\n{keys}"
        ));
        let upstream = &config.upstreams["app"];
        assert_eq!(upstream.max_connections, cap, "{keys}");
        assert_eq!(upstream.capacity.map(|c| c.worker_class), Some(class));
        let floor = upstream.capacity.and_then(|c| c.adaptive_floor());
        let workers = upstream.capacity.map(|c| c.workers as usize);
        match class {
            WorkerClass::Async => assert_eq!(floor, workers, "{keys}: the floor is workers"),
            _ => assert_eq!(floor, None, "{keys}: a fixed cap"),
        }
    }
    let plain = parse("[upstreams.app]\nservers = [\"127.0.0.1:8000\"]\n");
    assert_eq!(
        plain.upstreams["app"].capacity, None,
        "no declaration: today's pool"
    );
}

/// Issue 21: a kept connection stays with the Uvicorn worker that accepted it, so async workers
/// get a new connection per request unless the file says otherwise; the other classes keep 256.
#[test]
fn async_workers_get_no_upstream_keepalive_unless_max_idle_is_set() {
    let max_idle = |keys: &str| {
        parse(&format!(
            "[upstreams.app]\nservers = [\"127.0.0.1:8000\"]\n{keys}"
        ))
        .upstreams["app"]
            .max_idle
    };
    assert_eq!(max_idle("workers = 4\nworker_class = \"async\"\n"), 0);
    assert_eq!(
        max_idle("workers = 4\nworker_class = \"async\"\nmax_idle = 8\n"),
        8
    );
    assert_eq!(max_idle("workers = 4\n"), 256);
    assert_eq!(max_idle("workers = 2\nthreads = 8\n"), 256);
    assert_eq!(max_idle(""), 256);
}

#[test]
fn a_priority_header_is_a_header_name_on_a_route_to_an_upstream() {
    let config = parse(&with_app(
        "[[routes]]\nupstream = \"app\"\npriority_header = \"X-Priority\"\n",
    ));
    assert_eq!(
        config.routes[0]
            .priority_header
            .as_ref()
            .map(|name| name.as_str()),
        Some("x-priority")
    );
    let error = reject(&with_app(
        "[[routes]]\nupstream = \"app\"\npriority_header = \"X Priority\"\n",
    ));
    assert_error(
        &error,
        ConfigErrorKind::InvalidValue,
        5,
        19,
        "routes[0].priority_header",
        &["header name", "\"X Priority\""],
    );
    let error = reject("[[routes]]\nstatic = \"/srv/www\"\npriority_header = \"X-Priority\"\n");
    assert_error(
        &error,
        ConfigErrorKind::InvalidValue,
        3,
        19,
        "routes[0].priority_header",
        &["no upstream"],
    );
}

#[test]
fn a_route_priority_is_high_normal_or_low() {
    let config = parse(&with_app(
        "[[routes]]\npath = \"/healthz\"\nupstream = \"app\"\npriority = \"high\"\n\
         [[routes]]\nupstream = \"app\"\n\
         [[routes]]\npath = \"/reports/\"\nupstream = \"app\"\npriority = \"low\"\n",
    ));
    let classes: Vec<Priority> = config.routes.iter().map(|route| route.priority).collect();
    assert_eq!(classes, [Priority::High, Priority::Normal, Priority::Low]);
    let summary = config.summary();
    assert!(summary.contains("    priority high"), "{summary}");
    assert!(summary.contains("    priority low"), "{summary}");
    assert!(!summary.contains("priority normal"), "{summary}");

    let error = reject(&with_app(
        "[[routes]]\nupstream = \"app\"\npriority = \"urgent\"\n",
    ));
    assert_error(
        &error,
        ConfigErrorKind::InvalidValue,
        5,
        12,
        "routes[0].priority",
        &["\"high\"", "\"normal\"", "\"low\"", "\"urgent\""],
    );
    let error = reject("[[routes]]\nstatic = \"/srv/www\"\npriority = \"high\"\n");
    assert_error(
        &error,
        ConfigErrorKind::InvalidValue,
        3,
        12,
        "routes[0].priority",
        &["no upstream"],
    );
}

#[test]
fn a_capacity_that_cannot_be_is_rejected_with_its_key() {
    let cases = [
        ("workers = 0\n", "upstreams.app.workers", "from 1 to"),
        (
            "workers = 4\nmax_connections = 4\n",
            "upstreams.app.workers",
            "remove max_connections",
        ),
        ("threads = 4\n", "upstreams.app.threads", "needs workers"),
        (
            "workers = 4\nworker_class = \"gevent\"\n",
            "upstreams.app.worker_class",
            "\"sync\", \"gthread\" or \"async\"",
        ),
        (
            "workers = 4\nthreads = 2\nworker_class = \"sync\"\n",
            "upstreams.app.threads",
            "one request at a time",
        ),
    ];
    for (keys, key, words) in cases {
        let error = reject(&format!(
            "[upstreams.app]\nservers = [\"127.0.0.1:8000\"]\n{keys}"
        ));
        assert_eq!(error.kind(), ConfigErrorKind::InvalidValue, "{keys}");
        assert_eq!(error.key(), Some(key), "{keys}: {error}");
        assert!(error.message().contains(words), "{keys}: {error}");
        assert!(error.line().is_some(), "{keys}: {error}");
    }
}

// `basic_auth`.

#[test]
fn basic_auth_is_read_on_a_route_and_a_host() {
    let config = parse(&with_app(
        r#"
[[hosts]]
name = "staff.test"
basic_auth = { realm = "Staff \"only\"", user_file = "/etc/weir/htpasswd" }
[[routes]]
host = "staff.test"
upstream = "app"
[[routes]]
host = "staff.test"
path = "/health"
upstream = "app"
basic_auth = false
"#,
    ));
    assert_eq!(
        config.hosts[0].basic_auth,
        Some(BasicAuth::Required {
            realm: "Staff \"only\"".into(),
            user_file: "/etc/weir/htpasswd".into(),
        })
    );
    assert_eq!(config.routes[0].rules.basic_auth, None);
    assert_eq!(config.routes[1].rules.basic_auth, Some(BasicAuth::Off));
    assert_eq!(config.server.max_password_checks, 0);
    let summary = config.summary();
    assert!(
        summary.contains("  host staff.test: no rules\n    password \"Staff \\\"only\\\"\" from /etc/weir/htpasswd"),
        "{summary}"
    );
    assert!(
        summary.contains("/health -> app\n    no password (the host's is off)"),
        "{summary}"
    );
}

#[test]
fn a_basic_auth_that_cannot_work_is_refused_with_what_would_be_valid() {
    for (value, says) in [
        ("true", "or `false`"),
        ("{ realm = \"a\" }", "needs `user_file`"),
        ("{ user_file = \"/etc/htpasswd\" }", "needs `realm`"),
        (
            "{ realm = \"a\", user_file = \"htpasswd\" }",
            "absolute path",
        ),
        (
            "{ realm = \"a\", user_file = \"/etc/htpasswd\", users = 1 }",
            "unknown key `users`",
        ),
        (
            "{ realm = \"a\\u0001\", user_file = \"/etc/htpasswd\" }",
            "control characters",
        ),
        (
            "{ realm = 1, user_file = \"/etc/htpasswd\" }",
            "is a string",
        ),
    ] {
        let error = reject(&with_app(&format!(
            "[[routes]]\nupstream = \"app\"\nbasic_auth = {value}\n"
        )));
        assert_eq!(error.line(), Some(5), "{value}: {error}");
        assert_eq!(
            error.key(),
            Some("routes[0].basic_auth"),
            "{value}: {error}"
        );
        assert!(error.to_string().contains(says), "{value}: {error}");
    }
}

#[test]
fn satisfy_is_read_on_a_route_and_a_host_and_a_wrong_value_is_named() {
    let config = parse(&with_app(
        r#"
[[hosts]]
name = "staff.test"
satisfy = "any"
[[routes]]
host = "staff.test"
upstream = "app"
satisfy = "all"
[[routes]]
upstream = "app"
"#,
    ));
    assert_eq!(config.hosts[0].satisfy, Some(Satisfy::Any));
    assert_eq!(config.routes[0].rules.satisfy, Some(Satisfy::All));
    assert_eq!(config.routes[1].rules.satisfy, None);
    let summary = config.summary();
    assert!(
        summary.contains("  host staff.test: no rules\n    an allowed address or the password lets in (satisfy any)"),
        "{summary}"
    );
    let error = reject(&with_app(
        "[[routes]]\nupstream = \"app\"\nsatisfy = \"either\"\n",
    ));
    assert_eq!(error.line(), Some(5), "{error}");
    assert_eq!(error.key(), Some("routes[0].satisfy"), "{error}");
    assert!(error.to_string().contains("or \"any\""), "{error}");
}

#[test]
fn load_refuses_a_password_file_that_is_missing_or_has_a_bad_line() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("weir.toml");
    let users = dir.path().join("htpasswd");
    std::fs::write(
        &path,
        with_app(&format!(
            "[[routes]]\nupstream = \"app\"\nbasic_auth = {{ realm = \"Staff\", user_file = \"{}\" }}\n",
            users.display()
        )),
    )
    .unwrap();
    let error = load(&path).unwrap_err();
    assert_eq!(error.line(), Some(5), "{error}");
    assert_eq!(error.key(), Some("routes[0].basic_auth"), "{error}");
    assert!(error.to_string().contains("cannot read it"), "{error}");
    std::fs::write(&users, "# staff\nalice:{PLAIN}one\nbob:two\n").unwrap();
    let error = load(&path).unwrap_err();
    assert!(
        error
            .to_string()
            .contains(&format!("{}:3: ", users.display())),
        "{error}"
    );
    assert!(error.to_string().contains("{PLAIN}"), "{error}");
    std::fs::write(&users, "alice:{PLAIN}one\nbob:{PLAIN}two\n").unwrap();
    assert!(load(&path).is_ok());
}

#[test]
fn upstream_path_is_a_path_on_a_proxied_prefix_or_exact_route() {
    let config = parse(&with_app(
        "[[routes]]\npath = \"/api/\"\nupstream = \"app\"\nupstream_path = \"/v1/\"\n",
    ));
    assert_eq!(config.routes[0].upstream_path.as_deref(), Some("/v1/"));
    assert!(
        config.summary().contains("  * /api/ -> app /v1/\n"),
        "{}",
        config.summary()
    );
    let route = |keys: &str| with_app(&format!("[[routes]]\npath = \"/api/\"\n{keys}\n"));
    for (keys, column, words) in [
        (
            "upstream = \"app\"\nupstream_path = \"v1/\"",
            17,
            &["starting with '/'", "\"v1/\""][..],
        ),
        (
            "upstream = \"app\"\nupstream_path = \"/v1?x=1\"",
            17,
            &["without a query"][..],
        ),
        (
            "upstream = \"app\"\nupstream_path = \"/a%zz\"",
            17,
            &["starting with '/'"][..],
        ),
        (
            "static = \"/srv\"\nupstream_path = \"/\"",
            17,
            &["no", "upstream"][..],
        ),
        (
            "upstream = \"app\"\nmatch = \"regex\"\nupstream_path = \"/\"",
            17,
            &["regex", "prefix or exact"][..],
        ),
    ] {
        let error = reject(&route(keys));
        let line = 4 + keys.lines().count();
        assert_error(
            &error,
            ConfigErrorKind::InvalidValue,
            line,
            column,
            "routes[0].upstream_path",
            words,
        );
    }
}

#[test]
fn connection_limits_are_read_with_nginx_defaults_and_bad_ones_refused() {
    let config = parse(&with_app(
        r#"
[connection_limits.perip]
connections = 10

[connection_limits.perkey]
key = "header:X-Api-Key"
connections = 2
status = 429
max_keys = 500
dry_run = true

[[routes]]
upstream = "app"
connection_limits = ["perip", "perkey"]
"#,
    ));
    assert_eq!(
        config.connection_limits["perip"],
        crate::config::ConnLimitConfig {
            key: vec![KeyPart::ClientIp],
            ipv6_prefix: 64,
            status: StatusCode::SERVICE_UNAVAILABLE,
            exempt: Vec::new(),
            limiter: crate::config::ConnLimiterConfig {
                connections: 10,
                max_keys: 100_000,
                dry_run: false,
            },
        }
    );
    let perkey = &config.connection_limits["perkey"];
    assert_eq!(
        (perkey.status, perkey.limiter),
        (
            StatusCode::TOO_MANY_REQUESTS,
            crate::config::ConnLimiterConfig {
                connections: 2,
                max_keys: 500,
                dry_run: true,
            }
        )
    );
    assert_eq!(config.routes[0].connection_limits, ["perip", "perkey"]);
    let summary = config.summary();
    assert!(
        summary.contains("* / -> app  connection limits perip, perkey"),
        "{summary}"
    );
    assert!(
        summary.contains("perip: 10 in flight by client_ip, status 503, at most 100000 keys"),
        "{summary}"
    );

    let error = reject(&with_app(
        "[connection_limits.perip]\nconnections = 0\n[[routes]]\nupstream = \"app\"\n",
    ));
    assert_error(
        &error,
        ConfigErrorKind::InvalidValue,
        4,
        15,
        "connection_limits.perip.connections",
        &["from 1", "found 0"],
    );
    let error = reject(&with_app(
        "[connection_limits.perip]\nconnections = 1\n[[routes]]\nupstream = \"app\"\nconnection_limits = [\"per_ip\"]\n",
    ));
    assert_eq!(error.kind(), ConfigErrorKind::UnknownName, "{error}");
    assert!(error.message().contains("defined: perip"), "{error}");
    let error = reject(&with_app(
        "[connection_limits.perip]\nconnections = 1\nrate = \"1r/s\"\n",
    ));
    assert_eq!(error.kind(), ConfigErrorKind::UnknownKey, "{error}");
    let error = reject(&with_app(
        "[connection_limits.perip]\nconnections = 1\n[[routes]]\nupstream = \"app\"\nconnection_limits = [\"perip\", \"perip\"]\n",
    ));
    assert_eq!(error.kind(), ConfigErrorKind::Duplicate, "{error}");
    let error = reject(&with_app(
        "[connection_limits.perip]\nconnections = 1\n[[routes]]\npath = \"/old\"\nredirect = \"/new\"\nconnection_limits = [\"perip\"]\n",
    ));
    assert_eq!(error.kind(), ConfigErrorKind::Conflict, "{error}");
}

#[test]
fn a_status_route_takes_a_body_as_written_and_its_type() {
    let config = parse(
        r#"
[[routes]]
path = "/health"
exact = true
status = 200
body = "ok\n"

[[routes]]
path = "/api/ping"
status = 200
body = '{"status": "ok"}'
content_type = "application/json"
"#,
    );
    let health = config.routes[0].answer.as_ref().unwrap();
    assert_eq!(
        health.body,
        Some(crate::config::AnswerBody {
            text: "ok\n".into(),
            content_type: http::HeaderValue::from_static("text/plain"),
        })
    );
    let ping = config.routes[1].answer.as_ref().unwrap().body.as_ref();
    assert_eq!(
        ping.map(|body| body.content_type.to_str().unwrap()),
        Some("application/json")
    );
    let summary = config.summary();
    assert!(
        summary.contains("= /health -> status 200 with a body of 3 bytes (text/plain)"),
        "{summary}"
    );

    let error = reject("[[routes]]\nstatus = 200\nbody = \"you are $remote_addr\"\n");
    assert_error(
        &error,
        ConfigErrorKind::InvalidValue,
        3,
        8,
        "routes[0].body",
        &["evaluates no variable"],
    );
    let error = reject("[[routes]]\nstatus = 301\nbody = \"/new\"\n");
    assert_eq!(error.kind(), ConfigErrorKind::Conflict, "{error}");
    assert!(error.message().contains("redirect"), "{error}");
    let error = reject("[[routes]]\nredirect = \"/new\"\nbody = \"moved\"\n");
    assert_eq!(error.kind(), ConfigErrorKind::Conflict, "{error}");
    let error = reject("[[routes]]\nupstream = \"app\"\nbody = \"x\"\n[upstreams.app]\nservers = [\"127.0.0.1:1\"]\n");
    assert_eq!(error.key(), Some("routes[0].body"), "{error}");
    let error = reject("[[routes]]\nstatus = 200\nbody = \"x\"\ncontent_type = \"plain\"\n");
    assert_eq!(error.key(), Some("routes[0].content_type"), "{error}");
    // A dollar that names no variable is text.
    parse("[[routes]]\nstatus = 200\nbody = \"costs $5\"\n");
}

#[test]
fn cookie_flags_are_read_and_bad_or_clashing_ones_refused() {
    use crate::config::{CookieFlag, SameSite};
    let config = parse(&with_app(
        r#"
[[hosts]]
name = "example.com"
cookie_flags = ["Secure", "httponly", "samesite=lax"]

[[routes]]
host = "example.com"
upstream = "app"
cookie_flags = ["nosecure", "nosamesite"]

[[routes]]
host = "example.com"
path = "/off/"
upstream = "app"
cookie_flags = []
"#,
    ));
    assert_eq!(
        config.hosts[0].headers.cookie_flags,
        Some(vec![
            CookieFlag::Secure(true),
            CookieFlag::HttpOnly(true),
            CookieFlag::SameSite(Some(SameSite::Lax))
        ])
    );
    assert_eq!(
        config.routes[0].rules.headers.cookie_flags,
        Some(vec![CookieFlag::Secure(false), CookieFlag::SameSite(None)])
    );
    assert_eq!(
        config.routes[1].rules.headers.cookie_flags,
        Some(Vec::new())
    );
    let summary = config.summary();
    assert!(
        summary.contains("cookie flags Secure HttpOnly SameSite=Lax"),
        "{summary}"
    );
    assert!(summary.contains("no cookie flags"), "{summary}");

    let error = reject(&with_app(
        "[[routes]]\nupstream = \"app\"\ncookie_flags = [\"secure\", \"samesite=loose\"]\n",
    ));
    assert_error(
        &error,
        ConfigErrorKind::InvalidValue,
        5,
        27,
        "routes[0].cookie_flags[1]",
        &["samesite=strict", "\"samesite=loose\""],
    );
    let error = reject(&with_app(
        "[[routes]]\nupstream = \"app\"\ncookie_flags = [\"secure\", \"nosecure\"]\n",
    ));
    assert_eq!(error.kind(), ConfigErrorKind::Duplicate, "{error}");
}

#[test]
fn headers_by_type_are_read_in_order_and_unreachable_or_clashing_ones_refused() {
    use crate::config::TypeMatch;
    let config = parse(&with_app(
        r#"
[[routes]]
upstream = "app"
response_headers_by_type = [
  { header = "Cache-Control", types = ["image/SVG+xml"], value = "max-age=60" },
  { header = "X-Frame-Options", types = ["text/html"], value = "DENY", always = true },
  { header = "Cache-Control", types = ["", "json"], value = "" },
  { header = "Cache-Control", types = ["*"], value = "max-age=3600" },
]
"#,
    ));
    let typed = &config.routes[0].rules.headers.response_by_type;
    assert_eq!(typed.len(), 2);
    assert_eq!(typed[0].name, "cache-control");
    assert!(!typed[0].always);
    let types: Vec<&[TypeMatch]> = typed[0].entries.iter().map(|e| &e.types[..]).collect();
    assert_eq!(
        types,
        [
            &[TypeMatch::Fragment("image/svg+xml".into())][..],
            &[TypeMatch::Missing, TypeMatch::Fragment("json".into())][..],
            &[TypeMatch::Any][..],
        ]
    );
    assert_eq!(typed[0].entries[1].value, None);
    assert!(typed[1].always);
    let picked = |content_type: Option<&str>| {
        typed[0]
            .pick(content_type.map(str::as_bytes))
            .map(|template| format!("{template:?}"))
    };
    assert!(picked(Some("image/svg+xml"))
        .unwrap()
        .contains("max-age=60"));
    assert!(picked(Some("text/css")).unwrap().contains("max-age=3600"));
    assert_eq!(picked(Some("application/JSON")), None);
    assert_eq!(picked(None), None);
    assert_eq!(picked(Some("")), None);
    assert!(
        config.summary().contains("by type 2"),
        "{}",
        config.summary()
    );

    let after_any = reject(&with_app(
        "[[routes]]\nupstream = \"app\"\nresponse_headers_by_type = [\n  { header = \"A\", types = [\"*\"], value = \"1\" },\n  { header = \"a\", types = [\"text/\"], value = \"2\" },\n]\n",
    ));
    assert_error(
        &after_any,
        ConfigErrorKind::InvalidValue,
        7,
        14,
        "routes[0].response_headers_by_type[1].header",
        &["never used", "\"*\""],
    );
    let mixed = reject(&with_app(
        "[[routes]]\nupstream = \"app\"\nresponse_headers_by_type = [\n  { header = \"A\", types = [\"text/\"], value = \"1\" },\n  { header = \"A\", types = [\"image/\"], value = \"2\", always = true },\n]\n",
    ));
    assert_eq!(mixed.kind(), ConfigErrorKind::InvalidValue, "{mixed}");
    assert!(mixed.to_string().contains("always = false"), "{mixed}");
    let twice = reject(&with_app(
        "[[routes]]\nupstream = \"app\"\nresponse_headers = { \"X-A\" = \"1\" }\nresponse_headers_by_type = [{ header = \"x-a\", types = [\"*\"], value = \"2\" }]\n",
    ));
    assert_eq!(twice.kind(), ConfigErrorKind::Duplicate, "{twice}");
    let none = reject(&with_app(
        "[[routes]]\nupstream = \"app\"\nresponse_headers_by_type = [{ header = \"X-A\", types = [], value = \"2\" }]\n",
    ));
    assert!(none.to_string().contains("at least one type"), "{none}");
    let spaced = reject(&with_app(
        "[[routes]]\nupstream = \"app\"\nresponse_headers_by_type = [{ header = \"X-A\", types = [\"text/html; charset\"], value = \"2\" }]\n",
    ));
    assert!(spaced.to_string().contains("no spaces"), "{spaced}");
    let managed = reject(&with_app(
        "[[routes]]\nupstream = \"app\"\nresponse_headers_by_type = [{ header = \"Content-Length\", types = [\"*\"], value = \"2\" }]\n",
    ));
    assert!(managed.to_string().contains("itself"), "{managed}");
}

#[test]
fn location_rewrites_are_kept_longest_prefix_first_and_bad_ones_refused() {
    let config = parse(&with_app(
        r#"
[[routes]]
upstream = "app"
location_rewrites = { "http://app/" = "/", "http://app/api/" = "https://$host/api/" }
"#,
    ));
    let prefixes: Vec<&str> = config.routes[0]
        .rules
        .location_rewrites
        .iter()
        .map(|(prefix, _)| prefix.as_str())
        .collect();
    assert_eq!(prefixes, ["http://app/api/", "http://app/"]);
    assert!(!config.routes[0].rules.location_rewrites[0].1.is_constant());

    let static_route = reject(&with_app(
        "[[routes]]\nstatic = \"/srv\"\nlocation_rewrites = { \"http://app/\" = \"/\" }\n",
    ));
    assert_error(
        &static_route,
        ConfigErrorKind::Conflict,
        5,
        23,
        "routes[0].location_rewrites.\"http://app/\"",
        &["no `upstream`"],
    );
    let variable = reject(&with_app(
        "[[routes]]\nupstream = \"app\"\nlocation_rewrites = { \"http://$host/\" = \"/\" }\n",
    ));
    assert!(
        variable.to_string().contains("no spaces or variables"),
        "{variable}"
    );
    let empty = reject(&with_app(
        "[[routes]]\nupstream = \"app\"\nlocation_rewrites = { \"http://app/\" = \"\" }\n",
    ));
    assert!(
        empty.to_string().contains("takes the prefix's place"),
        "{empty}"
    );
}

#[test]
fn deny_headers_are_read_with_a_default_of_403_and_bad_ones_refused() {
    let config = parse(&with_app(
        r#"
[[routes]]
upstream = "app"
deny_headers = [
  { header = "User-Agent", matches = "(?i)bot" },
  { header = "X-Api-Key", not_matches = "^k-", status = 444 },
]
"#,
    ));
    let guards = config.routes[0]
        .rules
        .headers
        .deny_headers
        .as_ref()
        .unwrap();
    assert_eq!(guards.len(), 2);
    assert_eq!(guards[0].status, StatusCode::FORBIDDEN);
    assert!(guards[0].refuses(Some(b"GoogleBOT")));
    assert!(!guards[0].refuses(None));
    assert_eq!(guards[1].status.as_u16(), 444);
    assert!(guards[1].refuses(None));
    assert!(!guards[1].refuses(Some(b"k-1")));

    // Both: refused when the first finds something and the second nothing (nginx's
    // `valid_referers` with `if ($invalid_referer)`).
    let both = parse(&with_app(
        "[[routes]]\nupstream = \"app\"\ndeny_headers = [{ header = \"Referer\", matches = \"^https?://\", not_matches = \"^https?://example\\\\.com/\" }]\n",
    ));
    let both = &both.routes[0].rules.headers.deny_headers.as_ref().unwrap()[0];
    assert!(both.refuses(Some(b"https://elsewhere.test/")));
    assert!(!both.refuses(Some(b"https://example.com/page")));
    assert!(!both.refuses(Some(b"bookmark")));
    assert!(!both.refuses(None));
    // A redirect: 301 by default, with its location.
    let redirect = parse(&with_app(
        "[[routes]]\nupstream = \"app\"\ndeny_headers = [{ header = \"X-Forwarded-Proto\", not_matches = \"^https$\", location = \"https://$host$request_uri\" }, { header = \"X\", matches = \"a\", status = 308, location = \"/b\" }]\n",
    ));
    let guards = redirect.routes[0]
        .rules
        .headers
        .deny_headers
        .as_ref()
        .unwrap();
    assert_eq!(guards[0].status, StatusCode::MOVED_PERMANENTLY);
    assert_eq!(
        guards[0].location.as_ref().map(Template::as_str),
        Some("https://$host$request_uri")
    );
    assert_eq!(guards[1].status, StatusCode::PERMANENT_REDIRECT);
    let unknown_variable = reject(&with_app(
        "[[routes]]\nupstream = \"app\"\ndeny_headers = [{ header = \"A\", matches = \"a\", location = \"https://$remote_addr/\" }]\n",
    ));
    assert!(
        unknown_variable
            .to_string()
            .contains("$host, $request_uri and $scheme"),
        "{unknown_variable}"
    );
    let not_a_redirect = reject(&with_app(
        "[[routes]]\nupstream = \"app\"\ndeny_headers = [{ header = \"A\", matches = \"a\", status = 403, location = \"/b\" }]\n",
    ));
    assert!(
        not_a_redirect
            .to_string()
            .contains("301 (the default), 302, 303, 307 or 308"),
        "{not_a_redirect}"
    );
    let neither = reject(&with_app(
        "[[routes]]\nupstream = \"app\"\ndeny_headers = [{ header = \"A\" }]\n",
    ));
    assert!(neither.to_string().contains("not_matches"), "{neither}");
    let lookaround = reject(&with_app(
        "[[routes]]\nupstream = \"app\"\ndeny_headers = [{ header = \"A\", matches = \"a(?!b)\" }]\n",
    ));
    assert_error(
        &lookaround,
        ConfigErrorKind::InvalidValue,
        5,
        43,
        "routes[0].deny_headers[0].matches",
        &["look-around"],
    );
    let status = reject(&with_app(
        "[[routes]]\nupstream = \"app\"\ndeny_headers = [{ header = \"A\", matches = \"a\", status = 302 }]\n",
    ));
    assert!(
        status.to_string().contains("400 to 599, or 444")
            && status.to_string().contains("needs a `location`"),
        "{status}"
    );
}

#[test]
fn expires_is_read_in_nginxs_units_and_bad_ones_refused() {
    use crate::config::Expires;
    let read = |value: &str| {
        let config = parse(&with_app(&format!(
            "[[routes]]\nupstream = \"app\"\nexpires = \"{value}\"\n"
        )));
        config.routes[0].rules.headers.expires
    };
    assert_eq!(read("30d"), Some(Expires::After(2_592_000)));
    assert_eq!(read("1h 30m"), Some(Expires::After(5_400)));
    assert_eq!(read("1y"), Some(Expires::After(31_536_000)));
    assert_eq!(read("2M"), Some(Expires::After(5_184_000)));
    assert_eq!(read("-1"), Some(Expires::After(-1)));
    assert_eq!(read("+600"), Some(Expires::After(600)));
    assert_eq!(read("epoch"), Some(Expires::Epoch));
    assert_eq!(read("max"), Some(Expires::Max));
    assert_eq!(read("off"), Some(Expires::Off));
    let now = std::time::UNIX_EPOCH + Duration::from_secs(1_000_000_000);
    let values = |expires: Expires| {
        let mut date = [0; 29];
        let date = expires
            .date(now, &mut date)
            .map(|date| String::from_utf8(date.to_vec()).unwrap());
        date.zip(expires.cache_control())
    };
    assert_eq!(
        values(Expires::After(60)),
        Some((
            "Sun, 09 Sep 2001 01:47:40 GMT".to_string(),
            "max-age=60".to_string()
        ))
    );
    assert_eq!(values(Expires::After(-1)).unwrap().1, "no-cache");
    assert_eq!(values(Expires::Off), None);
    for bad in ["30x", "11y", "@15h", "modified 1h", "", "-"] {
        let error = reject(&with_app(&format!(
            "[[routes]]\nupstream = \"app\"\nexpires = \"{bad}\"\n"
        )));
        assert_error(
            &error,
            ConfigErrorKind::InvalidValue,
            5,
            11,
            "routes[0].expires",
            &["\"epoch\"", "at most 10 years"],
        );
    }
}

#[test]
fn auth_request_is_read_as_a_path_or_a_table_and_bad_ones_refused() {
    let config = parse(&with_app(
        r#"
[[hosts]]
name = "app.test"
auth_request = "/_auth?from=weir"
[[routes]]
host = "app.test"
upstream = "app"
auth_request = { path = "/oauth2/auth", copy_headers = { "X-User" = "X-Auth-Request-User" }, answer_headers = ["Set-Cookie"], sign_in = "/oauth2/sign_in", sign_in_status = 403 }
[[routes]]
host = "app.test"
path = "/oauth2/"
upstream = "app"
auth_request = false
"#,
    ));
    assert_eq!(
        config.hosts[0].auth_request,
        Some(AuthRequest::Ask {
            target: "/_auth?from=weir".to_string(),
            path: "/_auth".to_string(),
            copy_headers: vec![],
            answer_headers: vec![],
            sign_in: None,
        })
    );
    assert_eq!(
        config.routes[0].rules.auth_request,
        Some(AuthRequest::Ask {
            target: "/oauth2/auth".to_string(),
            path: "/oauth2/auth".to_string(),
            copy_headers: vec![(
                HeaderName::from_static("x-user"),
                HeaderName::from_static("x-auth-request-user"),
            )],
            answer_headers: vec![HeaderName::from_static("set-cookie")],
            sign_in: Some(SignIn::Route {
                target: "/oauth2/sign_in".to_string(),
                path: "/oauth2/sign_in".to_string(),
                status: Some(StatusCode::FORBIDDEN),
            }),
        })
    );
    assert_eq!(config.routes[1].rules.auth_request, Some(AuthRequest::Off));

    for (value, kind, words) in [
        (
            "\"_auth\"",
            ConfigErrorKind::InvalidValue,
            "starting with '/'",
        ),
        (
            "\"/a/../../b\"",
            ConfigErrorKind::InvalidValue,
            "starting with '/'",
        ),
        ("true", ConfigErrorKind::InvalidValue, "`false`"),
        (
            "{ copy_headers = {} }",
            ConfigErrorKind::MissingKey,
            "needs `path`",
        ),
        (
            "{ path = \"/a\", realm = \"x\" }",
            ConfigErrorKind::UnknownKey,
            "`realm`",
        ),
        (
            "{ path = \"/a\", copy_headers = { \"Host\" = \"X-Host\" } }",
            ConfigErrorKind::InvalidValue,
            "not Host",
        ),
        (
            "{ path = \"/a\", copy_headers = { \"X-User\" = \"Content-Length\" } }",
            ConfigErrorKind::InvalidValue,
            "framing",
        ),
        (
            "{ path = \"/a\", copy_headers = { \"X-User\" = \"A\", \"x-user\" = \"B\" } }",
            ConfigErrorKind::Duplicate,
            "twice",
        ),
        (
            "{ path = \"/a\", sign_in_status = 403 }",
            ConfigErrorKind::Conflict,
            "needs a sign_in path",
        ),
        (
            "{ path = \"/a\", sign_in = \"https://$remote_addr/\" }",
            ConfigErrorKind::InvalidValue,
            "$host, $request_uri and $scheme",
        ),
        (
            "{ path = \"/a\", sign_in = \"https://a.test/\", sign_in_status = 403 }",
            ConfigErrorKind::Conflict,
            "always a 302",
        ),
        (
            "{ path = \"/a\", answer_headers = [\"Content-Length\"] }",
            ConfigErrorKind::InvalidValue,
            "framing",
        ),
    ] {
        let error = reject(&with_app(&format!(
            "[[routes]]\nupstream = \"app\"\nauth_request = {value}\n"
        )));
        assert_eq!(error.kind(), kind, "{value}: {error}");
        assert_eq!(
            error.key(),
            Some("routes[0].auth_request"),
            "{value}: {error}"
        );
        assert!(error.to_string().contains(words), "{value}: {error}");
    }
}

#[test]
fn weights_name_servers_as_written_and_bad_ones_are_refused() {
    let config = parse(
        r#"
[server]
resolver = "127.0.0.1:9"
[upstreams.app]
servers = ["127.0.0.1:8001", "web:8000"]
backup_servers = ["127.0.0.1:8009"]
weights = { "127.0.0.1:8001" = 3, "web:8000" = 2, "127.0.0.1:8009" = 1 }
"#,
    );
    let mut weights = config.upstreams["app"].weights.clone();
    weights.sort();
    assert_eq!(
        weights,
        [
            ("127.0.0.1:8001".to_string(), 3),
            ("127.0.0.1:8009".to_string(), 1),
            ("web:8000".to_string(), 2)
        ]
    );
    let unknown = reject(
        "[upstreams.app]\nservers = [\"127.0.0.1:8001\"]\nweights = { \"127.0.0.1:8002\" = 3 }\n",
    );
    assert_eq!(unknown.kind(), ConfigErrorKind::InvalidValue, "{unknown}");
    assert!(
        unknown
            .to_string()
            .contains("not one of this upstream's servers"),
        "{unknown}"
    );
    for weight in [0, 101] {
        let error = reject(&format!(
            "[upstreams.app]\nservers = [\"127.0.0.1:8001\"]\nweights = {{ \"127.0.0.1:8001\" = {weight} }}\n"
        ));
        assert!(error.to_string().contains("from 1 to 100"), "{error}");
    }
}

#[test]
fn limit_rate_is_read_with_its_after_and_refused_at_0_or_alone() {
    let route = |keys: &str| {
        with_app(&format!(
            "[[routes]]\npath = \"/\"\nupstream = \"app\"\n{keys}"
        ))
    };
    let config = parse(&route(
        "limit_rate = \"100k\"\nlimit_rate_after = 1048576\n",
    ));
    assert_eq!(
        config.routes[0].limit_rate,
        Some(LimitRate {
            rate: 100 * 1024,
            after: 1 << 20
        })
    );
    let config = parse(&route("limit_rate = 500\n"));
    assert_eq!(
        config.routes[0].limit_rate,
        Some(LimitRate {
            rate: 500,
            after: 0
        })
    );
    assert_eq!(parse(&route("")).routes[0].limit_rate, None);
    let summary = parse(&route("limit_rate = \"64k\"\nlimit_rate_after = \"1m\"\n")).summary();
    assert!(
        summary.contains("    answers at most 64KiB/s after 1MiB\n"),
        "{summary}"
    );
    assert_error(
        &reject(&route("limit_rate = 0\n")),
        ConfigErrorKind::InvalidValue,
        6,
        14,
        "routes[0].limit_rate",
        &["at least 1 byte a second", "not limited"],
    );
    assert_error(
        &reject(&route("limit_rate_after = \"1m\"\n")),
        ConfigErrorKind::InvalidValue,
        6,
        20,
        "routes[0].limit_rate_after",
        &["add limit_rate"],
    );
    assert_error(
        &reject(&route("limit_rate = \"fast\"\n")),
        ConfigErrorKind::InvalidValue,
        6,
        14,
        "routes[0].limit_rate",
        &["a size such as"],
    );
}

#[test]
fn exempt_networks_are_read_for_both_limits_and_bad_ones_named() {
    let config = parse(&with_app(
        "[limits.perip]\nrate = \"5r/s\"\nexempt = [\"10.0.0.0/8\", \"192.168.1.5\"]\n\
         [connection_limits.inflight]\nconnections = 2\nexempt = \"fd00::/8\"\n",
    ));
    assert_eq!(
        config.limits["perip"].exempt,
        vec![
            "10.0.0.0/8".parse::<IpNet>().unwrap(),
            "192.168.1.5/32".parse().unwrap()
        ]
    );
    assert_eq!(
        config.connection_limits["inflight"].exempt,
        vec!["fd00::/8".parse::<IpNet>().unwrap()]
    );
    assert!(
        parse(&with_app("[limits.perip]\nrate = \"5r/s\"\n")).limits["perip"]
            .exempt
            .is_empty()
    );
    assert_error(
        &reject(&with_app(
            "[limits.perip]\nrate = \"5r/s\"\nexempt = [\"office\"]\n",
        )),
        ConfigErrorKind::InvalidValue,
        5,
        11,
        "limits.perip.exempt[0]",
        &["a network such as \"10.0.0.0/8\""],
    );
}

#[test]
fn try_suffixes_are_read_on_static_routes_and_bad_ones_named() {
    let route =
        |keys: &str| format!("[[routes]]\npath = \"/docs/\"\nstatic = \"/srv/docs\"\n{keys}");
    let config = parse(&route(
        "try_suffixes = [\".html\", \"/\", \"/index.html\"]\n",
    ));
    assert_eq!(
        config.routes[0].rules.try_suffixes,
        [".html", "/", "/index.html"]
    );
    let summary = config.summary();
    assert!(
        summary.contains("    a missing file tries .html, /, /index.html\n"),
        "{summary}"
    );
    for (value, column, words) in [
        ("[\"html\"]", 17, "starting with '.' or '/'"),
        ("[\"/../x\"]", 17, "without a dot-file, `..`"),
        ("[\"/.git\"]", 17, "without a dot-file"),
        ("[\".html?x\"]", 17, "`?`"),
        ("[\".html\", \".html\"]", 26, "listed twice"),
        ("[]", 16, "1 to 8"),
    ] {
        let error = reject(&route(&format!("try_suffixes = {value}\n")));
        let key = if column == 16 {
            "routes[0].try_suffixes".to_string()
        } else {
            format!("routes[0].try_suffixes[{}]", usize::from(column == 26))
        };
        let kind = if column == 26 {
            ConfigErrorKind::Duplicate
        } else {
            ConfigErrorKind::InvalidValue
        };
        assert_error(&error, kind, 4, column, &key, &[words]);
    }
    let error = reject(&with_app(
        "[[routes]]\npath = \"/\"\nupstream = \"app\"\ntry_suffixes = [\".html\"]\n",
    ));
    assert_eq!(error.kind(), ConfigErrorKind::Conflict, "{error}");
    assert!(error
        .message()
        .contains("`try_suffixes` belongs to a route with `static`"));
}

#[test]
fn a_routes_read_timeout_is_read_and_refused_without_an_upstream_or_at_0() {
    let config = parse(&with_app(
        "[[routes]]\npath = \"/ws/\"\nupstream = \"app\"\nread_timeout = \"1h\"\n",
    ));
    assert_eq!(
        config.routes[0].read_timeout,
        Some(Duration::from_secs(3600))
    );
    assert_error(
        &reject(&with_app(
            "[[routes]]\npath = \"/\"\nupstream = \"app\"\nread_timeout = \"0s\"\n",
        )),
        ConfigErrorKind::InvalidValue,
        6,
        16,
        "routes[0].read_timeout",
        &["greater than 0s"],
    );
    let error = reject(&with_app(
        "[[routes]]\npath = \"/\"\nstatus = 204\nread_timeout = \"5s\"\n",
    ));
    assert_eq!(error.kind(), ConfigErrorKind::Conflict, "{error}");
    assert!(error.message().contains("no upstream"), "{error}");
}

#[test]
fn a_redirects_captures_need_a_regex_route_that_has_them() {
    let config =
        parse("[[routes]]\npath = \"^/old/(.+)$\"\nmatch = \"regex\"\nredirect = \"/new/$1\"\n");
    let location = config.routes[0]
        .answer
        .as_ref()
        .unwrap()
        .location
        .as_ref()
        .unwrap();
    assert_eq!(location.most_capture(), 1);
    let error = reject("[[routes]]\npath = \"/old/\"\nredirect = \"/new/$1\"\n");
    assert_error(
        &error,
        ConfigErrorKind::InvalidValue,
        3,
        12,
        "routes[0].redirect",
        &["match = \"regex\""],
    );
    let error =
        reject("[[routes]]\npath = \"^/old/(.+)$\"\nmatch = \"regex\"\nredirect = \"/new/$2\"\n");
    assert_error(
        &error,
        ConfigErrorKind::InvalidValue,
        4,
        12,
        "routes[0].redirect",
        &["has 1 group"],
    );
    let error = reject(&with_app(
        "[[routes]]\npath = \"/\"\nupstream = \"app\"\ndeny_headers = [{ header = \"X-Proto\", matches = \"http\", location = \"https://$host/$1\" }]\n",
    ));
    assert!(
        error.message().contains("regex route's captures"),
        "{error}"
    );
}

#[test]
fn a_routes_cache_is_read_with_its_cookies_and_bad_ones_named() {
    let route = |keys: &str| {
        with_app(&format!(
            "[[routes]]\npath = \"/\"\nupstream = \"app\"\n{keys}"
        ))
    };
    let config = parse(&route("cache = \"10s\"\n"));
    assert_eq!(
        config.routes[0].cache,
        Some(RouteCache {
            valid: Duration::from_secs(10),
            pass_cookies: None,
            stale: Duration::ZERO,
            statuses: vec![],
            background_update: false,
        })
    );
    let config = parse(&route("cache = 0\ncache_pass_cookies = [\"sessionid\"]\n"));
    assert_eq!(
        config.routes[0].cache,
        Some(RouteCache {
            valid: Duration::ZERO,
            pass_cookies: Some(vec!["sessionid".into()]),
            stale: Duration::ZERO,
            statuses: vec![],
            background_update: false,
        })
    );
    assert_eq!(parse(&route("")).routes[0].cache, None);
    let summary = parse(&route(
        "cache = \"1m\"\ncache_pass_cookies = [\"sessionid\", \"auth\"]\n",
    ))
    .summary();
    assert!(
        summary.contains("    keeps answers 60s; a request with sessionid, auth passes\n"),
        "{summary}"
    );
    assert!(
        summary.contains("  cache              64MiB in memory, answers of at most 1MiB\n"),
        "{summary}"
    );
    assert_error(
        &reject(&route("cache_pass_cookies = [\"sessionid\"]\n")),
        ConfigErrorKind::InvalidValue,
        6,
        22,
        "routes[0].cache_pass_cookies",
        &["add cache = \"10s\""],
    );
    assert_error(
        &reject(&route(
            "cache = \"10s\"\ncache_pass_cookies = [\"session id\"]\n",
        )),
        ConfigErrorKind::InvalidValue,
        7,
        23,
        "routes[0].cache_pass_cookies[0]",
        &["expected a cookie name"],
    );
    assert_error(
        &reject(&with_app(
            "[[routes]]\npath = \"/\"\nstatic = \"/srv\"\ncache = \"10s\"\n",
        )),
        ConfigErrorKind::Conflict,
        6,
        9,
        "routes[0].cache",
        &["no upstream"],
    );
    assert_error(
        &reject(&route("internal = true\ncache = \"10s\"\n")),
        ConfigErrorKind::Conflict,
        7,
        9,
        "routes[0].cache",
        &["X-Accel-Redirect"],
    );
    // `cache_statuses`: statuses with their own times, beside `cache`.
    let config = parse(&route(
        "cache = \"1s\"\ncache_statuses = { 404 = \"1m\", 301 = \"1h\" }\n",
    ));
    assert_eq!(
        config.routes[0]
            .cache
            .as_ref()
            .map(|cache| cache.statuses.clone()),
        Some(vec![
            (301, Duration::from_secs(3600)),
            (404, Duration::from_secs(60))
        ])
    );
    let summary = config.summary();
    assert!(
        summary.contains("    keeps answers 1s, 301 1h, 404 60s; a request with a cookie passes\n"),
        "{summary}"
    );
    assert_error(
        &reject(&route(
            "cache = \"1s\"\ncache_statuses = { 304 = \"1m\" }\n",
        )),
        ConfigErrorKind::InvalidValue,
        7,
        20,
        "routes[0].cache_statuses.304",
        &["expected a status from 200 to 599"],
    );
    assert_error(
        &reject(&route("cache_statuses = { 404 = \"1m\" }\n")),
        ConfigErrorKind::InvalidValue,
        6,
        20,
        "routes[0].cache_statuses.404",
        &["add cache = \"10s\""],
    );
    // `cache_stale`: beside `cache`, at most a year, and told by `weir check`.
    let config = parse(&route("cache = \"1s\"\ncache_stale = \"10m\"\n"));
    assert_eq!(
        config.routes[0].cache.as_ref().map(|cache| cache.stale),
        Some(Duration::from_secs(600))
    );
    let summary = config.summary();
    assert!(
        summary.contains("    keeps answers 1s, then 10m stale; a request with a cookie passes\n"),
        "{summary}"
    );
    assert_error(
        &reject(&route("cache_stale = \"10m\"\n")),
        ConfigErrorKind::InvalidValue,
        6,
        15,
        "routes[0].cache_stale",
        &["add cache = \"10s\""],
    );
    assert_error(
        &reject(&route("cache = \"1s\"\ncache_stale = \"400d\"\n")),
        ConfigErrorKind::InvalidValue,
        7,
        15,
        "routes[0].cache_stale",
        &["at most 365d"],
    );
    // `cache_background_update`: beside `cache`, and told by `weir check`.
    let config = parse(&route(
        "cache = \"1s\"\ncache_stale = \"10m\"\ncache_background_update = true\n",
    ));
    assert!(config.routes[0].cache.as_ref().unwrap().background_update);
    let summary = config.summary();
    assert!(
        summary.contains(
            "    keeps answers 1s, then 10m stale, updated in the background; a request with a cookie passes\n"
        ),
        "{summary}"
    );
    assert_error(
        &reject(&route("cache_background_update = true\n")),
        ConfigErrorKind::InvalidValue,
        6,
        27,
        "routes[0].cache_background_update",
        &["add cache = \"10s\" and cache_stale"],
    );
    let server = parse(&with_app(
        "[server]\ncache_size = \"8m\"\ncache_max_answer = \"64k\"\n",
    ))
    .server;
    assert_eq!(
        (server.cache_size, server.cache_max_answer),
        (8 << 20, 64 << 10)
    );
    assert_error(
        &reject("[server]\ncache_size = \"64k\"\n"),
        ConfigErrorKind::InvalidValue,
        2,
        14,
        "server.cache_size",
        &["at least 1MiB"],
    );
    assert_error(
        &reject("[server]\ncache_size = \"2m\"\ncache_max_answer = \"4m\"\n"),
        ConfigErrorKind::InvalidValue,
        3,
        20,
        "server.cache_max_answer",
        &["from 1 byte to cache_size"],
    );
}
