//! Host-name servers and the resolution settings as the config file gives them.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::config::{
    from_toml, Config, ConfigError, ConfigErrorKind, ResolveConfig, ServerName, UpstreamAddr,
};

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

fn socket(text: &str) -> SocketAddr {
    text.parse().unwrap()
}

#[test]
fn host_names_are_servers_beside_addresses_with_their_place_in_the_list() {
    let config = parse(
        "[upstreams.app]\nservers = [\"web:8000\", \"10.0.0.5:8000\", \"host.docker.internal:8001\", \"unix:/run/app.sock\"]\n",
    );
    let app = &config.upstreams["app"];
    assert_eq!(
        app.servers,
        vec![
            UpstreamAddr::Tcp(socket("10.0.0.5:8000")),
            UpstreamAddr::Unix(PathBuf::from("/run/app.sock")),
        ]
    );
    assert_eq!(
        app.names,
        vec![
            ServerName {
                host: "web".into(),
                port: 8000,
                index: 0,
                backup: false,
            },
            ServerName {
                host: "host.docker.internal".into(),
                port: 8001,
                index: 2,
                backup: false,
            },
        ]
    );
    assert_eq!(
        app.resolve,
        Some(ResolveConfig {
            resolver: None,
            interval: Duration::from_secs(30),
            timeout: Duration::from_secs(5),
        }),
        "the defaults: the system's resolver every 30s"
    );
}

#[test]
fn an_upstream_of_addresses_only_has_no_resolution_settings() {
    let config = parse(
        "[server]\nresolver = \"127.0.0.11\"\n[upstreams.app]\nservers = \"127.0.0.1:8000\"\n",
    );
    let app = &config.upstreams["app"];
    assert!(app.names.is_empty());
    assert_eq!(
        app.resolve, None,
        "a resolver change does not rebuild it on reload"
    );
}

#[test]
fn the_resolver_takes_an_ip_with_port_53_by_default_or_an_ip_and_port() {
    let config = parse(
        "[server]\nresolver = \"127.0.0.11\"\nresolve_interval = \"5s\"\nresolve_timeout = \"500ms\"\n[upstreams.app]\nservers = \"web:8000\"\n",
    );
    assert_eq!(
        config.upstreams["app"].resolve,
        Some(ResolveConfig {
            resolver: Some(socket("127.0.0.11:53")),
            interval: Duration::from_secs(5),
            timeout: Duration::from_millis(500),
        })
    );
    let config = parse("[server]\nresolver = \"[::1]:5353\"\n");
    assert_eq!(config.server.resolve.resolver, Some(socket("[::1]:5353")));
}

#[track_caller]
fn assert_rejected(text: &str, line: usize, column: usize, key: &str, words: &[&str]) {
    let error = reject(text);
    assert_eq!(error.kind(), ConfigErrorKind::InvalidValue, "{error}");
    assert_eq!(
        (error.line(), error.column()),
        (Some(line), Some(column)),
        "{error}"
    );
    assert_eq!(error.key(), Some(key), "{error}");
    for word in words {
        assert!(error.message().contains(word), "{word:?} not in: {error}");
    }
}

#[test]
fn a_malformed_host_name_server_says_what_would_be_valid() {
    for (server, says) in [
        ("web", "has no port"),
        ("web:", "has a bad port"),
        ("web:0", "has a bad port"),
        ("web:65536", "has a bad port"),
        ("http://web:8000", "has a scheme"),
        ("::1:8000", "in brackets"),
        ("we b:8000", "neither an IP address nor a host name"),
        ("-web:8000", "neither an IP address nor a host name"),
        (
            "web..internal:8000",
            "neither an IP address nor a host name",
        ),
        ("10.0.0.300:8000", "neither an IP address nor a host name"),
        (":8000", "neither an IP address nor a host name"),
    ] {
        assert_rejected(
            &format!("[upstreams.app]\nservers = [\"{server}\"]\n"),
            2,
            12,
            "upstreams.app.servers[0]",
            &[says, "\"web:8000\"", "\"IP:PORT\""],
        );
    }
    let long_label = format!("{}:8000", "a".repeat(64));
    assert_rejected(
        &format!("[upstreams.app]\nservers = [\"{long_label}\"]\n"),
        2,
        12,
        "upstreams.app.servers[0]",
        &["neither an IP address nor a host name"],
    );
}

#[test]
fn resolution_settings_out_of_range_are_rejected() {
    assert_rejected(
        "[server]\nresolve_interval = \"500ms\"\n",
        2,
        20,
        "server.resolve_interval",
        &["at least 1s", "the default is 30s"],
    );
    assert_rejected(
        "[server]\nresolve_timeout = \"0s\"\n",
        2,
        19,
        "server.resolve_timeout",
        &["greater than 0s"],
    );
    assert_rejected(
        "[server]\nresolver = \"dns.local\"\n",
        2,
        12,
        "server.resolver",
        &["\"127.0.0.11\""],
    );
}
