//! The generated configs: weir's is checked by weir's own parser; nginx's and HAProxy's carry
//! the seed's directives and the scenario's variations, and the reload measurement's two versions
//! of each carry the probe route and, for HAProxy, the socket transfer. (`nginx -t` and
//! `haproxy -c` on them run in tests/guard.rs and tests/services.rs, real reloads in
//! tests/reload.rs, which need the binaries.)

use std::fs;
use std::path::PathBuf;
use std::time::Duration;

use super::*;
use crate::components::write_static_file;
use crate::spec::*;

fn listen() -> SocketAddr {
    "127.0.0.1:18080".parse().unwrap()
}

fn unix() -> Addr {
    Addr::Unix(PathBuf::from("/tmp/lab/app.sock"))
}

fn env() -> Env {
    Env {
        root: PathBuf::from("/repo"),
        temp: PathBuf::from("/tmp/lab"),
        weir: PathBuf::from("weir"),
        ceiling: PathBuf::from("ceiling"),
        static_file: PathBuf::from("/tmp/lab/static.xml"),
    }
}

#[test]
fn weir_config_is_accepted_by_weir() {
    let text = weir_config(&WeirOptions::SEED, listen(), &unix(), None, None, None);
    let config =
        weir::config::from_toml(&text, None).unwrap_or_else(|error| panic!("{error}\n{text}"));
    assert_eq!(config.server.listen, vec![listen()]);
    let upstream = &config.upstreams["app"];
    // No max_idle line: weir runs with its own default, as the peers run with theirs.
    assert_eq!(upstream.max_idle, 256);
    assert_eq!(config.routes.len(), 1);
    assert!(
        !config.routes[0].response_buffering,
        "as the seed's proxy_buffering off"
    );
    assert!(config.routes[0].limits.is_empty());
    assert!(config.limits.is_empty());
}

#[test]
fn weir_config_with_a_limit_and_no_keepalive_is_accepted_by_weir() {
    let options = WeirOptions {
        max_idle: Some(0),
        max_connections: 21_024,
        limit: Some(Limit {
            rate_per_second: 100,
            burst: 20,
        }),
        static_file: false,
        client_timeout: None,
        soak: false,
        tls: false,
        redis_limits: false,
    };
    let text = weir_config(
        &options,
        listen(),
        &Addr::Tcp("127.0.0.1:9000".parse().unwrap()),
        None,
        None,
        None,
    );
    let config =
        weir::config::from_toml(&text, None).unwrap_or_else(|error| panic!("{error}\n{text}"));
    assert_eq!(config.upstreams["app"].max_idle, 0);
    assert_eq!(config.server.max_connections, 21_024);
    assert_eq!(config.routes[0].limits, ["lab"]);
    let limit = &config.limits["lab"];
    assert_eq!(limit.limiter.burst, 20);
    assert_eq!(limit.limiter.rate.count, 100);
    assert_eq!(limit.limiter.rate.per, std::time::Duration::from_secs(1));
    assert_eq!(limit.limiter.delay, weir::config::Delay::NoDelay);
}

#[test]
fn nginx_config_is_the_seed_with_lab_paths() {
    let text = nginx_config(
        &env(),
        &NginxOptions::SEED,
        Path::new("/tmp/lab/n"),
        listen(),
        &unix(),
    );
    for line in [
        "worker_processes 1;",
        "worker_connections 4096;",
        "server unix:/tmp/lab/app.sock fail_timeout=0;",
        "keepalive 8;",
        "listen 127.0.0.1:18080;",
        "proxy_set_header Connection \"\";",
        "proxy_buffering off;",
        "keepalive_requests 5000;",
        "pid /tmp/lab/n/nginx.pid;",
    ] {
        assert!(text.contains(line), "missing {line:?} in\n{text}");
    }
    assert!(!text.contains("user "), "{text}");
    assert!(!text.contains("limit_req"), "{text}");
}

#[test]
fn nginx_flood_config_limits_with_429_and_omits_a_zero_burst() {
    let options = NginxOptions {
        keepalive: None,
        limit: Some(Limit {
            rate_per_second: 1,
            burst: 0,
        }),
        ..NginxOptions::FLOOD
    };
    let text = nginx_config(&env(), &options, Path::new("/tmp/lab/n"), listen(), &unix());
    assert!(text.contains("worker_processes auto;"), "{text}");
    assert!(text.contains("worker_connections 8192;"), "{text}");
    assert!(text.contains("rate=1r/s;"), "{text}");
    assert!(text.contains("limit_req_status 429;"), "{text}");
    assert!(text.contains("limit_req zone=lab nodelay;"), "{text}");
    assert!(!text.contains("burst=0"), "{text}");
    assert!(!text.contains("keepalive 8;"), "{text}");
}

#[test]
fn tuned_nginx_has_a_worker_per_core_and_upstream_keepalive_sized_to_the_load() {
    let options = NginxOptions::SEED.tuned(100);
    let text = nginx_config(&env(), &options, Path::new("/tmp/lab/n"), listen(), &unix());
    for line in [
        "worker_processes auto;",
        "listen 127.0.0.1:18080 reuseport;",
        "keepalive 64;",
        "keepalive_requests 1000000;\n  }",
        "keepalive_requests 1000000;\n    keepalive_timeout",
    ] {
        assert!(text.contains(line), "missing {line:?} in\n{text}");
    }
    // What the scenario set stays: a limit, no upstream keep-alive when the scenario has none.
    let limit = Some(Limit {
        rate_per_second: 1,
        burst: 0,
    });
    let options = NginxOptions {
        keepalive: None,
        limit,
        ..NginxOptions::FLOOD
    }
    .tuned(100);
    assert_eq!(options.keepalive, None);
    assert_eq!(options.limit, limit);
    assert_eq!(options.worker_connections, 8192);
    assert_eq!(upstream_keepalive(1), 8);
    assert_eq!(upstream_keepalive(10_000), 8192);
}

#[test]
fn haproxy_config_reuses_connections_and_limits_by_address() {
    let text = haproxy_config(&HaproxyOptions::DEFAULT, listen(), &unix());
    assert!(text.contains("http-reuse always"), "{text}");
    assert!(text.contains(&format!("nbthread {}", cores())), "{text}");
    assert!(text.contains("server app unix@/tmp/lab/app.sock"), "{text}");
    assert!(!text.contains("track-sc0"), "{text}");
    let options = HaproxyOptions {
        reuse: false,
        limit: Some(Limit {
            rate_per_second: 100,
            burst: 20,
        }),
        ..HaproxyOptions::DEFAULT
    };
    let text = haproxy_config(&options, listen(), &unix());
    assert!(text.contains("http-reuse never"), "{text}");
    assert!(
        text.contains("deny_status 429 if { sc_http_req_rate(0) gt 120 }"),
        "{text}"
    );
}

#[test]
fn haproxy_flood_config_denies_with_429_past_one_request_a_second_per_address() {
    let options = HaproxyOptions {
        limit: Some(Limit {
            rate_per_second: 1,
            burst: 0,
        }),
        ..HaproxyOptions::DEFAULT
    };
    let text = haproxy_config(&options, listen(), &unix());
    assert!(
        text.contains(
            "  stick-table type ip size 100k expire 30s store http_req_rate(1s)\n  http-request track-sc0 src\n  http-request deny deny_status 429 if { sc_http_req_rate(0) gt 1 }\n"
        ),
        "{text}"
    );
    assert!(text.contains(&format!("nbthread {}", cores())), "{text}");
    // The limit sits in the frontend, before its backend.
    let deny = text.find("deny_status").unwrap();
    assert!(text.find("frontend lab").unwrap() < deny, "{text}");
    assert!(deny < text.find("default_backend app").unwrap(), "{text}");
}

#[test]
fn haproxy_tls_config_terminates_tls_on_the_frontends_bind_with_one_pem() {
    let options = HaproxyOptions {
        tls: true,
        ..HaproxyOptions::DEFAULT
    };
    let base = haproxy_config(&options, listen(), &unix());
    let text = haproxy_tls_config(&base, listen(), Path::new("/tmp/lab/tls-bundle-0.pem")).unwrap();
    assert!(
        text.contains(
            "  bind 127.0.0.1:18080 ssl crt /tmp/lab/tls-bundle-0.pem alpn h2,http/1.1 curves X25519 ssl-min-ver TLSv1.2\n"
        ),
        "{text}"
    );
    assert_eq!(text.matches("  bind ").count(), 1, "{text}");
    // Everything else as the plain config: the same upstream, reuse and threads.
    assert_eq!(
        text.replace(
            " ssl crt /tmp/lab/tls-bundle-0.pem alpn h2,http/1.1 curves X25519 ssl-min-ver TLSv1.2",
            ""
        ),
        base
    );
    // A config whose bind is elsewhere is refused, not served in plain text.
    let other: SocketAddr = "127.0.0.1:18081".parse().unwrap();
    assert!(haproxy_tls_config(&base, other, Path::new("/tmp/x.pem")).is_err());
}

#[test]
fn layouts_parse_and_print_as_the_studies_name_them() {
    for layout in Layout::ALL {
        assert_eq!(Layout::parse(&layout.to_string()), Some(layout));
    }
    assert_eq!(Layout::parse("w0t1"), None);
    assert_eq!(Layout::parse("3t1"), None);
}

#[test]
fn static_file_is_651_kib_and_the_same_every_time() {
    let dir = tempfile::tempdir().unwrap();
    let first = dir.path().join("a");
    let second = dir.path().join("b");
    write_static_file(&first).unwrap();
    write_static_file(&second).unwrap();
    let bytes = fs::read(&first).unwrap();
    assert_eq!(bytes.len(), 651 * 1024);
    assert_eq!(bytes, fs::read(&second).unwrap());
}

#[test]
fn weir_static_config_is_accepted_by_weir() {
    let options = WeirOptions {
        static_file: true,
        ..WeirOptions::SEED
    };
    let dir = tempfile::tempdir().unwrap();
    let text = weir_config(&options, listen(), &unix(), Some(dir.path()), None, None);
    let config =
        weir::config::from_toml(&text, None).unwrap_or_else(|error| panic!("{error}\n{text}"));
    assert_eq!(config.routes.len(), 1);
    assert_eq!(config.routes[0].static_root.as_deref(), Some(dir.path()));
}

#[test]
fn weir_soak_and_slowloris_configs_are_accepted_by_weir() {
    let options = WeirOptions {
        client_timeout: Some(10),
        soak: true,
        ..WeirOptions::SEED
    };
    let admin: SocketAddr = "127.0.0.1:9101".parse().unwrap();
    let text = weir_config(&options, listen(), &unix(), None, Some(admin), None);
    let config =
        weir::config::from_toml(&text, None).unwrap_or_else(|error| panic!("{error}\n{text}"));
    assert_eq!(config.server.header_timeout, Duration::from_secs(10));
    assert_eq!(config.server.body_timeout, Duration::from_secs(10));
    assert!(config.limits.contains_key("soak"), "{text}");
    assert!(text.contains("127.0.0.1:9101"), "{text}");
}

#[test]
fn nginx_slow_client_config_sets_both_timeouts() {
    let options = NginxOptions {
        slow_client_timeout: Some(10),
        ..NginxOptions::FLOOD
    };
    let text = nginx_config(&env(), &options, Path::new("/tmp/lab/n"), listen(), &unix());
    for line in [
        "client_header_timeout 10s;",
        "client_body_timeout 10s;",
        "reset_timedout_connection on;",
    ] {
        assert!(text.contains(line), "missing {line:?} in\n{text}");
    }
}

#[test]
fn weir_config_with_the_limit_in_redis_is_accepted_by_weir() {
    let options = WeirOptions {
        limit: Some(Limit {
            rate_per_second: 1,
            burst: 0,
        }),
        redis_limits: true,
        ..WeirOptions::SEED
    };
    let socket = Path::new("/tmp/lab/redis-limits.sock");
    let text = weir_config(&options, listen(), &unix(), None, None, Some(socket));
    let config =
        weir::config::from_toml(&text, None).unwrap_or_else(|error| panic!("{error}\n{text}"));
    assert!(
        text.contains("redis = \"unix:///tmp/lab/redis-limits.sock\""),
        "{text}"
    );
    assert_eq!(config.routes[0].limits, ["lab"]);
}

#[test]
fn weir_versions_are_accepted_by_weir_and_differ_in_the_probe_route() {
    let pid_file = Path::new("/tmp/lab/weir.pid");
    let dir = Path::new("/tmp/lab/versions");
    let mut statics = Vec::new();
    for version in [Version::A, Version::B] {
        let text = weir_version_config(
            &WeirOptions::SEED,
            listen(),
            &unix(),
            pid_file,
            dir,
            version,
        )
        .unwrap();
        let config =
            weir::config::from_toml(&text, None).unwrap_or_else(|error| panic!("{error}\n{text}"));
        assert_eq!(config.server.pid_file.as_deref(), Some(pid_file));
        assert_eq!(config.routes.len(), 2, "{text}");
        let probe = config
            .routes
            .iter()
            .find(|route| route.path == "/lab-reload/")
            .unwrap_or_else(|| panic!("no probe route in\n{text}"));
        statics.push(format!("{probe:?}"));
        assert!(
            text.contains(&format!(
                "static = \"/tmp/lab/versions/{}\"",
                version.letter()
            )),
            "{text}"
        );
    }
    assert_ne!(statics[0], statics[1]);
}

#[test]
fn nginx_versions_answer_their_letter_before_the_proxied_location() {
    let options = NginxOptions {
        workers_auto: true,
        keepalive: Some(64),
        ..NginxOptions::SEED
    };
    let prefix = Path::new("/tmp/lab/nginx");
    for version in [Version::A, Version::B] {
        let text =
            nginx_version_config(&env(), &options, prefix, listen(), &unix(), version).unwrap();
        let probe = format!(
            "location = /lab-reload/which {{\n      default_type text/plain;\n      return 200 \"{}\";",
            version.letter()
        );
        let at_probe = text.find(&probe).unwrap_or_else(|| panic!("{text}"));
        let at_proxy = text.find("    location / {").unwrap();
        assert!(at_probe < at_proxy, "{text}");
        assert!(text.contains("worker_processes auto;"), "{text}");
        assert!(text.contains("    keepalive 64;"), "{text}");
        assert!(!text.contains(&format!("\"{}\"", version.other().letter())));
    }
}

#[test]
fn haproxy_versions_expose_listeners_and_answer_their_letter() {
    let stats = Path::new("/tmp/lab/stats.sock");
    for version in [Version::A, Version::B] {
        let text =
            haproxy_version_config(&HaproxyOptions::DEFAULT, listen(), &unix(), stats, version)
                .unwrap();
        assert!(
            text.contains(
                "global\n  stats socket /tmp/lab/stats.sock mode 600 level admin expose-fd listeners\n"
            ),
            "{text}"
        );
        assert!(
            text.contains(&format!(
                "  bind 127.0.0.1:18080\n  http-request return status 200 content-type text/plain string {} if {{ path /lab-reload/which }}\n",
                version.letter()
            )),
            "{text}"
        );
    }
}
