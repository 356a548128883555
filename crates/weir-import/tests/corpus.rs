//! `weir import` on real-shaped configs: the seed config and every file of `tests/corpus` import
//! to a file weir's own config loader accepts, every directive read (includes too) is accounted
//! for in the report, and each case finds the translations and warnings it should.

use std::path::{Path, PathBuf};
use std::time::Duration;

use weir::config::{Config, Delay};
use weir_import::{parse, Directive, Import, Kind};

fn corpus(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/corpus")
        .join(name)
}

/// Imports `path`, checks the output with weir's loader and the report's coverage.
fn import_checked(path: &Path) -> (Import, Config) {
    let imported = weir_import::import(path).unwrap_or_else(|error| panic!("{error}"));
    let config = weir::config::from_toml(&imported.toml, Some(Path::new("weir.toml")))
        .unwrap_or_else(|error| {
            panic!(
                "weir check refuses the import of {}: {error}\n{}",
                path.display(),
                imported.toml
            )
        });
    let loaded = parse::load(path).unwrap();
    let mut missing = Vec::new();
    let mut twice = Vec::new();
    every_directive(&loaded.directives, &mut |directive| {
        if !imported.report.accounts_for(&directive.source) {
            missing.push(directive.summary());
        }
        let summary = directive.summary();
        let own_items = imported
            .report
            .items
            .iter()
            .filter(|item| {
                item.sources.first() == Some(&directive.source)
                    && summary.starts_with(item.directive.trim_end_matches("..."))
                    && !item.directive.is_empty()
            })
            .count();
        if own_items > 1 {
            twice.push(format!("{}: {summary}", directive.source));
        }
    });
    assert!(
        twice.is_empty(),
        "in the report more than once: {twice:?}\n{}",
        imported.report
    );
    for include in &loaded.includes {
        if !imported.report.accounts_for(&include.directive.source) {
            missing.push(include.directive.summary());
        }
    }
    assert!(
        missing.is_empty(),
        "not in the report: {missing:?}\n{}",
        imported.report
    );
    (imported, config)
}

fn every_directive(directives: &[Directive], visit: &mut impl FnMut(&Directive)) {
    for directive in directives {
        visit(directive);
        if let Some(block) = &directive.block {
            every_directive(block, visit);
        }
    }
}

/// Asserts an item of `kind` whose directive starts with `directive` and whose note has `note`.
#[track_caller]
fn expect(imported: &Import, kind: Kind, directive: &str, note: &str) {
    let found = imported.report.items.iter().any(|item| {
        item.kind == kind && item.directive.starts_with(directive) && item.note.contains(note)
    });
    assert!(
        found,
        "no {kind:?} item for {directive:?} with {note:?} in:\n{}",
        imported.report
    );
}

/// Asserts that every comment-bearing key line names a `file:line` (an array's entries, on lines
/// of their own, go by their key's line).
#[track_caller]
fn every_key_names_its_source(toml: &str) {
    for line in toml.lines() {
        if line.contains(" = ") && !line.starts_with('#') && !line.starts_with("  {") {
            let comment = line.split("  # ").nth(1).unwrap_or("");
            let has_line = comment
                .split_whitespace()
                .next()
                .and_then(|place| place.rsplit(':').next())
                .is_some_and(|number| number.parse::<u32>().is_ok());
            assert!(has_line, "no file:line on {line:?}");
        }
    }
}

fn route<'a>(config: &'a Config, host: Option<&str>, path: &str) -> &'a weir::config::RouteConfig {
    config
        .routes
        .iter()
        .find(|route| route.host.as_deref() == host && route.path == path)
        .unwrap_or_else(|| panic!("no route {host:?} {path:?} in {:#?}", config.routes))
}

#[test]
fn the_seed_config_imports_with_every_directive_accounted_for() {
    let (imported, config) = import_checked(&corpus("seed.conf"));
    every_key_names_its_source(&imported.toml);

    assert_eq!(config.server.listen, ["0.0.0.0:80".parse().unwrap()]);
    assert_eq!(config.server.max_body_size, 20 * 1024 * 1024);
    assert_eq!(config.server.keepalive_timeout, Duration::from_secs(120));
    assert_eq!(config.server.keepalive_requests, 5000);
    assert_eq!(config.server.max_connections, 4096);
    assert_eq!(config.server.trusted_proxies.len(), 3);
    let gunicorn = &config.upstreams["gunicorn"];
    assert_eq!(gunicorn.servers[0].to_string(), "unix:/tmp/gunicorn.sock");
    assert_eq!(gunicorn.max_idle, 8);
    assert_eq!(gunicorn.max_fails, 0, "fail_timeout=0");
    assert_eq!(gunicorn.connect_timeout, Duration::from_secs(65));
    assert_eq!(gunicorn.read_timeout, Duration::from_secs(65));
    assert_eq!(gunicorn.send_timeout, Duration::from_secs(65));
    let root = route(&config, None, "/");
    assert_eq!(root.upstream, "gunicorn");
    assert!(!root.response_buffering);
    let compression = config.compression.as_ref().expect("gzip on");
    assert_eq!((compression.level, compression.min_length), (6, 200));

    expect(
        &imported,
        Kind::Translated,
        "user nobody",
        "run weir as that user",
    );
    expect(&imported, Kind::Translated, "pid", "pid_file");
    expect(
        &imported,
        Kind::Translated,
        "include mime.types",
        "built in",
    );
    expect(&imported, Kind::Unsupported, "gzip_disable", "msie6");
    expect(
        &imported,
        Kind::Approximated,
        "proxy_ignore_client_abort on",
        "cancels",
    );
    expect(
        &imported,
        Kind::Translated,
        "proxy_set_header X-Forwarded-Proto",
        r#"request_headers X-Forwarded-Proto = "$http_x_forwarded_proto""#,
    );
    expect(
        &imported,
        Kind::Translated,
        "real_ip_recursive on",
        "always",
    );
    assert_eq!(
        imported.report.count(Kind::Unsupported),
        1,
        "{}",
        imported.report
    );
    assert!(!imported.report.is_exact());
}

#[test]
fn every_corpus_config_imports_to_a_valid_weir_config() {
    let mut count = 0;
    for entry in std::fs::read_dir(corpus("")).unwrap() {
        let path = entry.unwrap().path();
        if path
            .extension()
            .is_some_and(|extension| extension == "conf")
        {
            let (imported, _) = import_checked(&path);
            every_key_names_its_source(&imported.toml);
            count += 1;
        }
    }
    assert!(count >= 10, "the corpus has {count} configs");
}

#[test]
fn gunicorn_guide() {
    let (imported, config) = import_checked(&corpus("gunicorn.conf"));
    // The default server's `return 444` closes connections for unknown hosts, in weir too.
    expect(&imported, Kind::Translated, "return 444", "status = 444");
    assert_eq!(
        route(&config, None, "/")
            .answer
            .as_ref()
            .unwrap()
            .status
            .as_u16(),
        444
    );
    // Gunicorn's shape: the files of the public directory, else the app.
    for host in ["example.com", "www.example.com"] {
        let site = route(&config, Some(host), "/");
        assert_eq!(
            site.static_root.as_deref(),
            Some(Path::new("/srv/app/current/public/"))
        );
        assert_eq!(
            site.rules.fallback,
            Some(weir::config::StaticFallback::Upstream("app_server".into()))
        );
        // nginx's `$uri` finds no file for the directory `/`: the app's home page stays the app's.
        let home = config
            .routes
            .iter()
            .find(|route| route.host.as_deref() == Some(host) && route.exact && route.path == "/")
            .expect("an exact route for /");
        assert_eq!(home.upstream, "app_server");
    }
    expect(
        &imported,
        Kind::Approximated,
        "try_files $uri @proxy_to_app",
        "fallback_upstream = \"app_server\"",
    );
    // The maintenance page: the file of `location = /500.html`, on the routes of the server.
    expect(
        &imported,
        Kind::Translated,
        "error_page 500 502 503 504 /500.html",
        "error_pages 500, 502, 503, 504",
    );
    // The page's own location serves it to a client that asks, as nginx's does.
    expect(
        &imported,
        Kind::Translated,
        "location = /500.html",
        "static = \"/srv/app/current/public/500.html\"",
    );
    for route in config.routes.iter().filter(|route| route.host.is_some()) {
        let statuses: Vec<(u16, &Path)> = route
            .rules
            .pages
            .files
            .iter()
            .map(|(status, file)| (status.as_u16(), file.as_path()))
            .collect();
        let page = Path::new("/srv/app/current/public/500.html");
        assert_eq!(
            statuses,
            [(500, page), (502, page), (503, page), (504, page)],
            "{}",
            route.path
        );
    }
    assert!(route(&config, None, "/").rules.pages.files.is_empty());
    assert_eq!(config.server.max_body_size, 4 * 1024 * 1024 * 1024);
    assert_eq!(config.upstreams["app_server"].max_fails, 0);
    assert!(config.access_log.enabled);
}

#[test]
fn uvicorn_guide() {
    let (imported, config) = import_checked(&corpus("uvicorn.conf"));
    // The WebSocket map exists for `proxy_set_header Connection`, which weir does itself.
    expect(
        &imported,
        Kind::Translated,
        "map $http_upgrade",
        "WebSocket",
    );
    expect(
        &imported,
        Kind::Translated,
        "proxy_set_header Connection $connection_upgrade",
        "WebSocket",
    );
    // A single server is the default: its routes match any host.
    assert!(!route(&config, None, "/").response_buffering);
    let statics = route(&config, None, "/static");
    assert_eq!(
        statics.static_root.as_deref(),
        Some(Path::new("/srv/app/static")),
        "root + the location's path"
    );
}

#[test]
fn every_upstream_is_written_with_the_hint_to_declare_its_capacity() {
    // An upstream block, and an address proxied to directly.
    for name in ["gunicorn.conf", "fastapi.conf"] {
        let (imported, config) = import_checked(&corpus(name));
        assert!(!config.upstreams.is_empty(), "{name}");
        let hints = imported
            .toml
            .lines()
            .filter(|line| line.starts_with("# Declare the app's capacity here"))
            .count();
        assert_eq!(hints, config.upstreams.len(), "{name}:\n{}", imported.toml);
        assert!(config
            .upstreams
            .values()
            .all(|upstream| upstream.capacity.is_none()));
    }
}

#[test]
fn fastapi_behind_a_prefix() {
    let (imported, config) = import_checked(&corpus("fastapi.conf"));
    expect(
        &imported,
        Kind::Translated,
        "proxy_pass http://127.0.0.1:8000/",
        "upstream_path = \"/\"",
    );
    expect(
        &imported,
        Kind::Translated,
        "location = /",
        "match = \"exact\"",
    );
    let docs = config
        .routes
        .iter()
        .find(|route| route.exact)
        .expect("the exact route");
    assert_eq!(
        docs.answer
            .as_ref()
            .unwrap()
            .location
            .as_ref()
            .map(weir::config::Template::as_str),
        Some("https://$host/api/v1/docs")
    );
    assert_eq!(config.server.listen.len(), 2);
    let compression = config.compression.as_ref().unwrap();
    assert_eq!(
        compression.types,
        ["text/html", "application/json", "text/plain"]
    );
    assert_eq!(
        (compression.level, compression.min_length),
        (1, 1000),
        "nginx's default level"
    );
    let api = route(&config, None, "/api/v1/");
    // The CORS preflight, answered by weir.
    let preflight = api.rules.answer_options.as_ref().expect("answer_options");
    assert_eq!(preflight.status, http::StatusCode::NO_CONTENT);
    let names: Vec<&str> = preflight
        .headers
        .iter()
        .map(|(name, _)| name.as_str())
        .collect();
    assert_eq!(
        names,
        [
            "access-control-allow-headers",
            "access-control-allow-methods",
            "access-control-allow-origin",
            "access-control-max-age"
        ],
        "in name order, as the config's table keeps them"
    );
    expect(
        &imported,
        Kind::Translated,
        "if ($request_method = OPTIONS",
        "answer_options = { status = 204, 4 headers }",
    );
    assert_eq!(
        api.upstream_path.as_deref(),
        Some("/"),
        "the prefix stripped, as the app's --root-path expects"
    );
    let upstream = &config.upstreams[&api.upstream];
    assert_eq!(upstream.read_timeout, Duration::from_secs(300));
    assert_eq!(
        upstream.max_idle, 0,
        "nginx without keepalive opens a connection per request"
    );
}

#[test]
fn flask_guide() {
    let (imported, config) = import_checked(&corpus("flask.conf"));
    expect(
        &imported,
        Kind::Translated,
        "proxy_set_header X-Forwarded-Host",
        r#"request_headers X-Forwarded-Host = "$host""#,
    );
    expect(
        &imported,
        Kind::Translated,
        "proxy_set_header X-Forwarded-Proto $scheme",
        "always",
    );
    // No proxy_set_header Host: nginx sends 127.0.0.1:8000 ($proxy_host), and so does weir.
    expect(
        &imported,
        Kind::Translated,
        "proxy_pass http://127.0.0.1:8000/",
        "$proxy_host",
    );
    assert!(
        imported
            .toml
            .contains(r#"request_headers = { Host = "127.0.0.1:8000", X-Forwarded-Host = "$host", X-Forwarded-Prefix = "/" }"#),
        "{}",
        imported.toml
    );
    // The X-Forwarded-* headers it sets are carried: nothing is less safe now.
    assert!(!imported.report.is_less_safe(), "{}", imported.report);
    assert_eq!(route(&config, None, "/").upstream, "127_0_0_1_8000");
}

#[test]
fn django_guide_with_an_included_proxy_params() {
    let (imported, config) = import_checked(&corpus("django.conf"));
    expect(
        &imported,
        Kind::Translated,
        "include proxy_params",
        "read 1 file",
    );
    expect(
        &imported,
        Kind::Translated,
        "proxy_set_header X-Real-IP",
        "always",
    );
    expect(
        &imported,
        Kind::Translated,
        "alias /home/shop/project/media/",
        "static",
    );
    // No root in force: nginx answers the browsers' favicon requests 404 itself, from its default
    // root; so does weir, rather than handing each to a Gunicorn worker.
    expect(
        &imported,
        Kind::Translated,
        "location = /favicon.ico",
        "status = 404",
    );
    let favicon = config
        .routes
        .iter()
        .find(|route| route.path == "/favicon.ico")
        .expect("a route for /favicon.ico");
    assert!(favicon.exact);
    assert_eq!(
        favicon.answer.as_ref().map(|answer| answer.status.as_u16()),
        Some(404)
    );
    assert_eq!(
        route(&config, None, "/static/").static_root.as_deref(),
        Some(Path::new("/home/shop/project/static/"))
    );
    assert_eq!(
        config.upstreams["gunicorn"].servers[0].to_string(),
        "unix:/run/gunicorn.sock"
    );
}

#[test]
fn certbot_managed_site() {
    let (imported, config) = import_checked(&corpus("certbot.conf"));
    assert!(
        !imported.report.to_string().contains("conflicting"),
        "the same names on other ports do not conflict in nginx:\n{}",
        imported.report
    );
    expect(
        &imported,
        Kind::Translated,
        "listen 443 ssl",
        "[tls] listen",
    );
    expect(
        &imported,
        Kind::Translated,
        "ssl_certificate ",
        "[[tls.certificates]]",
    );
    expect(&imported, Kind::Approximated, "ssl_dhparam", "rustls");
    expect(
        &imported,
        Kind::Unsupported,
        "include /etc/letsencrypt/options-ssl-nginx.conf",
        "not found",
    );
    expect(
        &imported,
        Kind::Translated,
        "if ($host = example.com)",
        "host = \"example.com\"",
    );
    expect(
        &imported,
        Kind::Translated,
        "if ($host = www.example.com)",
        "host = \"www.example.com\"",
    );
    // The HTTPS server's app answers on the TLS listeners only, for any host there (it is the
    // only, so the default, server of *:443, as nginx has it); on plain HTTP both its hosts
    // are redirected, and other hosts get the 404, as in nginx.
    let toml = &imported.toml;
    assert_eq!(toml.matches("scheme = \"https\"").count(), 1, "{toml}");
    assert_eq!(toml.matches("scheme = \"http\"").count(), 3, "{toml}");
    assert_eq!(
        toml.matches("redirect = \"https://$host$request_uri\"")
            .count(),
        2,
        "{toml}"
    );
    assert!(!imported.report.is_less_safe(), "{}", imported.report);
    assert_eq!(config.routes.len(), 4, "{toml}");
    assert_eq!(route(&config, None, "/").upstream, "app");
    let listen: Vec<String> = config
        .server
        .listen
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(listen, ["0.0.0.0:80", "[::]:80"]);
    let tls = config.tls.as_ref().expect("[tls] from listen 443 ssl");
    let listen: Vec<String> = tls.listen.iter().map(ToString::to_string).collect();
    assert_eq!(listen, ["[::]:443", "0.0.0.0:443"]);
    assert_eq!(tls.certificates.len(), 1);
    assert_eq!(
        tls.certificates[0].cert,
        Path::new("/etc/letsencrypt/live/example.com/fullchain.pem")
    );
    assert_eq!(
        tls.certificates[0].key,
        Path::new("/etc/letsencrypt/live/example.com/privkey.pem")
    );
}

#[test]
fn rate_limited_api() {
    let (imported, config) = import_checked(&corpus("ratelimit.conf"));
    let per_ip = &config.limits["per_ip"];
    assert_eq!(
        (per_ip.limiter.burst, per_ip.limiter.delay),
        (20, Delay::NoDelay)
    );
    assert_eq!(per_ip.status.as_u16(), 429, "limit_req_status 429");
    assert_eq!(per_ip.limiter.max_keys, 10 * 1024 * 1024 / 64);
    let per_key = &config.limits["per_key"];
    assert_eq!(
        (per_key.limiter.burst, per_key.limiter.delay),
        (50, Delay::After(10))
    );
    assert_eq!(
        per_key.key,
        [weir::config::KeyPart::Header(
            http::HeaderName::from_static("x-api-key")
        )]
    );
    let login = &config.limits["login"];
    assert_eq!(
        (login.limiter.burst, login.limiter.delay),
        (5, Delay::After(0)),
        "no nodelay: every excess request waits"
    );
    assert_eq!(route(&config, None, "/api/").limits, ["per_ip", "per_key"]);
    let exact_login = config.routes.iter().find(|route| route.exact).unwrap();
    assert_eq!(exact_login.path, "/login");
    assert_eq!(exact_login.limits, ["login"]);
    assert!(route(&config, None, "/").limits.is_empty());
    assert_eq!(config.upstreams["api"].max_fails, 3);
    assert_eq!(
        config.upstreams["api"].fail_timeout,
        Duration::from_secs(30)
    );
    assert_eq!(
        config.server.real_ip_header,
        weir::config::RealIpHeader::XForwardedFor
    );
    assert_eq!(config.server.body_timeout, Duration::from_secs(10));
    assert_eq!(config.server.send_timeout, Duration::from_secs(30));
    expect(
        &imported,
        Kind::Translated,
        "limit_req zone=per_ip burst=20 nodelay",
        "limits = [\"per_ip\"]",
    );
    // Exact, the Host nginx sends by default ($proxy_host, as no proxy_set_header Host is
    // written) included.
    every_item_translated(&imported);
}

/// Every item is translated, the `proxy_pass` items that carry nginx's default Host
/// (`$proxy_host`) as the route's `request_headers` too, and nothing is less safe.
#[track_caller]
fn every_item_translated(imported: &Import) {
    for item in &imported.report.items {
        assert_eq!(item.kind, Kind::Translated, "{item}\n{}", imported.report);
    }
    assert!(!imported.report.is_less_safe(), "{}", imported.report);
    assert!(
        imported.toml.contains("request_headers = { Host = "),
        "{}",
        imported.toml
    );
}

#[test]
fn several_apps_by_host_name() {
    let (imported, config) = import_checked(&corpus("multihost.conf"));
    assert_eq!(
        route(&config, Some("blog.example.com"), "/").upstream,
        "blog"
    );
    assert_eq!(
        route(&config, Some("shop.example.com"), "/api/").upstream,
        "shop"
    );
    // nginx answers the shop's other paths from its empty default root: 404, not the catch-all.
    assert_eq!(
        route(&config, Some("shop.example.com"), "/")
            .answer
            .as_ref()
            .unwrap()
            .status
            .as_u16(),
        404
    );
    assert_eq!(
        route(&config, Some("shop.example.org"), "/api/").upstream,
        "shop"
    );
    // nginx's `.shop.example.org`: the name and its subdomains, a route for each.
    expect(
        &imported,
        Kind::Translated,
        "server_name shop.example.com .shop.example.org",
        "a route for the name and one for *.name",
    );
    assert_eq!(
        route(&config, Some("*.shop.example.org"), "/api/").upstream,
        "shop"
    );
    let old = route(&config, Some("old.example.com"), "/")
        .answer
        .as_ref()
        .unwrap();
    assert_eq!(old.status.as_u16(), 301);
    assert_eq!(
        old.location.as_ref().map(weir::config::Template::as_str),
        Some("https://blog.example.com$request_uri")
    );
    assert_eq!(
        route(&config, None, "/")
            .answer
            .as_ref()
            .unwrap()
            .status
            .as_u16(),
        404
    );
    assert_eq!(
        config.upstreams["shop"].read_timeout,
        Duration::from_secs(120)
    );
    assert_eq!(config.server.max_body_size, 50 * 1024 * 1024);
}

#[test]
fn static_site_with_an_api() {
    let (imported, config) = import_checked(&corpus("static-api.conf"));
    assert_eq!(
        route(&config, None, "/").static_root.as_deref(),
        Some(Path::new("/srv/www/site/"))
    );
    expect(
        &imported,
        Kind::Translated,
        "location ^~ /assets/",
        "match = \"prefix_stop\"",
    );
    let assets = route(&config, None, "/assets/");
    assert_eq!(
        assets.static_root.as_deref(),
        Some(Path::new("/srv/www/assets/"))
    );
    assert!(assets.scope.stop);
    // nginx sends `Cache-Control: max-age=2592000` (and an Expires date) and the add_header's
    // `Cache-Control: public`: one list, one value here, over the one expires writes.
    expect(
        &imported,
        Kind::Translated,
        "expires 30d",
        "Expires and Cache-Control per answer",
    );
    assert_eq!(
        assets.rules.headers.expires,
        Some(weir::config::Expires::After(2_592_000))
    );
    let cache_control: Vec<(String, Option<String>)> = assets
        .rules
        .headers
        .response_set
        .iter()
        .map(|(name, value)| {
            (
                name.as_str().to_string(),
                value.as_ref().map(|value| value.to_string()),
            )
        })
        .collect();
    assert_eq!(
        cache_control,
        [(
            "cache-control".to_string(),
            Some("max-age=2592000, public".to_string())
        )]
    );
    expect(
        &imported,
        Kind::Translated,
        "try_files $uri $uri/ =404",
        "static route",
    );
    assert!(!route(&config, None, "/api/").request_buffering);
    let health = config.routes.iter().find(|route| route.exact).unwrap();
    assert_eq!(health.answer.as_ref().unwrap().status.as_u16(), 204);
    let compression = config.compression.as_ref().unwrap();
    assert_eq!(compression.algorithms, [weir::config::Encoding::Gzip]);
}

#[test]
fn load_balanced_upstream() {
    let (imported, config) = import_checked(&corpus("loadbalanced.conf"));
    let workers = &config.upstreams["workers"];
    let servers: Vec<String> = workers.servers.iter().map(ToString::to_string).collect();
    assert_eq!(
        servers,
        ["10.0.0.11:8000", "10.0.0.12:8000"],
        "down left out, backup apart"
    );
    assert_eq!(
        workers.backup_servers,
        [weir::config::UpstreamAddr::Tcp(
            "10.0.0.14:8000".parse().unwrap()
        )]
    );
    assert_eq!(workers.balance, weir::config::Balance::LeastOutstanding);
    assert_eq!(
        (workers.max_fails, workers.fail_timeout),
        (3, Duration::from_secs(20))
    );
    assert_eq!(
        (workers.max_idle, workers.idle_timeout),
        (64, Duration::from_secs(30))
    );
    assert_eq!(workers.keepalive_time, Duration::from_secs(300));
    expect(
        &imported,
        Kind::Approximated,
        "keepalive_time 5m",
        "under half of Gunicorn's --timeout",
    );
    assert_eq!(workers.connect_timeout, Duration::from_secs(5));
    assert_eq!(config.server.threads, 0, "one thread per core");
    expect(
        &imported,
        Kind::Approximated,
        "worker_processes 4",
        "one thread per core",
    );
    assert_eq!(
        config.server.max_connections, 4096,
        "per thread, as nginx's per worker"
    );
    assert_eq!(config.server.backlog, 4096);
    expect(
        &imported,
        Kind::Translated,
        "server 10.0.0.14:8000 backup",
        "backup_servers += \"10.0.0.14:8000\"",
    );
    expect(
        &imported,
        Kind::Translated,
        "server 10.0.0.13:8000 down",
        "never uses a down server",
    );
    expect(
        &imported,
        Kind::Translated,
        "server 10.0.0.12:8000",
        "weights \"10.0.0.12:8000\" = 2",
    );
    assert_eq!(
        config.upstreams["workers"].weights,
        [("10.0.0.12:8000".to_string(), 2)]
    );
}

#[test]
fn security_headers_and_an_admin_area_open_to_one_network() {
    let (imported, config) = import_checked(&corpus("headers.conf"));
    expect(
        &imported,
        Kind::Approximated,
        "add_header X-Frame-Options",
        "adds a second",
    );
    // No TLS listener: HSTS goes on the routes, as nginx sent it here.
    expect(
        &imported,
        Kind::Approximated,
        "add_header Strict-Transport-Security",
        "not [tls] hsts",
    );
    expect(&imported, Kind::Translated, "allow 10.0.0.0/8", "access");
    expect(
        &imported,
        Kind::Translated,
        "proxy_set_header X-Forwarded-For $remote_addr",
        "forwarded_for",
    );
    expect(
        &imported,
        Kind::Translated,
        "proxy_hide_header X-Powered-By",
        "hide_response_headers",
    );
    expect(
        &imported,
        Kind::Translated,
        "charset utf-8",
        "charset = \"utf-8\"",
    );
    assert_eq!(
        route(&config, None, "/").rules.headers.charset,
        Some(Some("utf-8".to_string()))
    );
    assert_eq!(
        route(&config, None, "/internal-api/").rules.headers.charset,
        None
    );
    assert!(!imported.report.is_less_safe(), "{}", imported.report);
    assert!(config.tls.is_none());
    assert!(
        imported
            .toml
            .contains(r#"access = ["allow 10.0.0.0/8", "deny all"]"#),
        "{}",
        imported.toml
    );
}

#[test]
fn websockets_beside_the_app() {
    let (imported, config) = import_checked(&corpus("websocket.conf"));
    assert_eq!(
        config.upstreams["channels"].read_timeout,
        Duration::from_secs(86400)
    );
    assert_eq!(
        config.upstreams["wsgi"].read_timeout,
        Duration::from_secs(60)
    );
    expect(
        &imported,
        Kind::Translated,
        "proxy_set_header Upgrade $http_upgrade",
        "WebSocket",
    );
    every_item_translated(&imported);
}

#[test]
fn debian_main_file_with_sites_enabled() {
    let (imported, config) = import_checked(&corpus("debian.conf"));
    expect(
        &imported,
        Kind::Translated,
        "include sites-enabled/*",
        "read 1 file",
    );
    expect(
        &imported,
        Kind::Translated,
        "include conf.d/*.conf",
        "matches no file",
    );
    expect(
        &imported,
        Kind::Translated,
        "include proxy_params",
        "read 1 file",
    );
    expect(
        &imported,
        Kind::Translated,
        "worker_processes auto",
        "one thread per core",
    );
    // TLS settings without a TLS server: read, but not carried (there is no [tls] to hold them).
    expect(
        &imported,
        Kind::Unsupported,
        "ssl_protocols",
        "not carried: the weir config has no TLS listener",
    );
    assert!(config.tls.is_none());
    assert_eq!(route(&config, None, "/").upstream, "app");
    assert_eq!(config.compression.as_ref().unwrap().level, 6);
    assert_eq!(
        config.access_log.path.as_deref(),
        Some(Path::new("/var/log/nginx/access.log"))
    );
}

#[test]
fn regex_locations_become_regex_routes() {
    let (imported, config) = import_checked(&corpus("regex.conf"));
    // nginx's order is weir's: the prefix route, then the regexes in config order.
    let paths: Vec<&str> = config
        .routes
        .iter()
        .map(|route| route.path.as_str())
        .collect();
    // The dot-file guard's look-ahead, `(?!well-known)`, written out.
    let guard_path = "/\\.(?:$|[^w]|w(?:$|[^e]|e(?:$|[^l]|l(?:$|[^l]|l(?:$|[^\\-]|\\-(?:$|[^k]|k(?:$|[^n]|n(?:$|[^o]|o(?:$|[^w]|w(?:$|[^n]))))))))))";
    assert_eq!(
        paths,
        [
            "/",
            "\\.(css|js|png|jpg|svg)$",
            "^/api/v[0-9]+/",
            guard_path
        ]
    );
    let assets = route(&config, None, "\\.(css|js|png|jpg|svg)$");
    assert!(assets.scope.regex.as_ref().unwrap().nocase());
    // The server's root, the whole path below it: a regex route strips nothing, as root.
    assert_eq!(assets.static_root.as_deref(), Some(Path::new("/srv/site")));
    expect(
        &imported,
        Kind::Translated,
        "location ~* \\.(css|js|png|jpg|svg)$",
        "match = \"regex_nocase\"",
    );
    let api = route(&config, None, "^/api/v[0-9]+/");
    assert!(!api.scope.regex.as_ref().unwrap().nocase());
    assert_eq!(api.upstream, "127_0_0_1_9000");
    // The dot-file guard is carried: its regex route refuses every client, as nginx's 403.
    expect(
        &imported,
        Kind::Translated,
        "deny all",
        "access += \"deny all\"",
    );
    let guard = route(&config, None, guard_path);
    assert!(guard.scope.regex.is_some());
    expect(
        &imported,
        Kind::Translated,
        "location ~ /\\.(?!well-known)",
        "its look-ahead written out",
    );
    assert!(!imported.report.is_less_safe(), "{}", imported.report);
}

#[test]
fn single_page_app_with_an_api() {
    let (imported, config) = import_checked(&corpus("spa.conf"));
    // The only server: nginx's default, so its routes match any host.
    let site = route(&config, None, "/");
    assert_eq!(site.static_root.as_deref(), Some(Path::new("/srv/spa/")));
    assert_eq!(
        site.rules.fallback,
        Some(weir::config::StaticFallback::File("/index.html".into()))
    );
    expect(
        &imported,
        Kind::Translated,
        "try_files $uri $uri/ /index.html",
        "fallback_file = \"/index.html\"",
    );
    assert_eq!(route(&config, None, "/api/").upstream, "127_0_0_1_8000");
    every_item_translated(&imported);
}

#[test]
fn flask_behind_the_files_of_its_root() {
    let (imported, config) = import_checked(&corpus("flask-root.conf"));
    // The server's try_files answers the paths no location matches: its root, else the app.
    let site = route(&config, None, "/");
    assert_eq!(
        site.static_root.as_deref(),
        Some(Path::new("/srv/flask/public"))
    );
    assert_eq!(
        site.rules.fallback,
        Some(weir::config::StaticFallback::Upstream("flask".into()))
    );
    expect(
        &imported,
        Kind::Translated,
        "try_files $uri $uri/ @flask",
        "fallback_upstream = \"flask\"",
    );
    assert!(route(&config, None, "/downloads/").rules.fallback.is_none());
    // The fallback carries no request headers: the app gets the client's Host as it came, where
    // nginx's `Host $host` leaves out a port the client wrote.
    expect(
        &imported,
        Kind::Approximated,
        "proxy_set_header Host $host",
        "the port a client writes",
    );
    for item in &imported.report.items {
        if item.directive != "proxy_set_header Host $host" {
            assert_eq!(item.kind, Kind::Translated, "{item}\n{}", imported.report);
        }
    }
    assert!(!imported.report.is_less_safe(), "{}", imported.report);
}

#[test]
fn a_locations_redirecting_rewrites_come_after_the_servers_regex_locations() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("nginx.conf");
    std::fs::write(
        &path,
        "http { server { listen 80;\n\
         location / { rewrite ^/old/(.*)$ /new/$1 permanent; proxy_pass http://127.0.0.1:8000; }\n\
         location /blog/ { rewrite ^/(.*)$ /x/$1 permanent; rewrite ^/blog/(\\d+)$ /posts/$1 redirect; proxy_pass http://127.0.0.1:8000; }\n\
         location ~ ^/old/secret { return 403; }\n\
         } }\n",
    )
    .unwrap();
    let (imported, config) = import_checked(&path);
    let paths: Vec<&str> = config
        .routes
        .iter()
        .map(|route| route.path.as_str())
        .collect();
    // nginx runs a location's rewrites only when no regex location took the path: the regex
    // location is routed first.
    assert_eq!(
        paths,
        [
            "/",
            "/blog/",
            "^/old/secret",
            "^/old/(.*)$",
            "^/blog/(\\d+)$"
        ],
        "{}",
        imported.toml
    );
    expect(
        &imported,
        Kind::Approximated,
        "rewrite ^/old/(.*)$ /new/$1 permanent",
        "redirect = \"/new/$1$is_args$args\", status = 301",
    );
    expect(
        &imported,
        Kind::Approximated,
        "rewrite ^/blog/(\\d+)$ /posts/$1 redirect",
        "status = 302",
    );
    // A regex that may match a path outside its location is not carried.
    expect(
        &imported,
        Kind::Unsupported,
        "rewrite ^/(.*)$ /x/$1 permanent",
        "outside the location \"/blog/\"",
    );
}

#[test]
fn a_syntax_error_names_the_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("nginx.conf");
    std::fs::write(&path, "http {\n  server {\n    listen 80\n  }\n}\n").unwrap();
    let message = weir_import::import(&path).unwrap_err().to_string();
    assert!(message.contains("nginx.conf:4: "), "{message}");
}

#[test]
fn odd_configs_still_import_to_a_valid_weir_config() {
    let odd = [
        // Names and addresses weir cannot take.
        "http { server { listen 80; server_name example.com:8080 *.example.com ~^www\\d+$; location / { proxy_pass http://app.internal:8000; } } server { listen 81; server_name b.example; location / { proxy_pass http://localhost:9000/; } } }",
        // Zones weir cannot key, unknown zones, a redirect with variables weir does not evaluate.
        "http { limit_req_zone $server_name zone=s:1m rate=1r/s; server { limit_req zone=s; limit_req zone=nowhere; location / { return 301 https://$server_name$uri; } location /x { return 302 /relative; } } }",
        // Only TLS, nothing to listen on in plain HTTP; an upstream with nothing reachable.
        "http { upstream u { server app:8000; } server { listen 443 ssl; location / { proxy_pass http://u; } } }",
        // Two servers routing the same host and path; a location in a location; no http block.
        "events {} http { server { listen 80; server_name a.test; location /api/ { location /api/v2/ { proxy_pass http://127.0.0.1:1; } proxy_pass http://127.0.0.1:2; } } server { listen 80; server_name a.test; location /api/ { proxy_pass http://127.0.0.1:3; } } }",
        "",
        "worker_processes auto; pid /run/nginx.pid;",
        // A wildcard and a specific address on one port: nginx binds the wildcard only.
        "http { server { listen 80; } server { listen 127.0.0.1:80; server_name b.test; } server { listen [::]:80; listen [::1]:80; server_name c.test; } }",
    ];
    for text in odd {
        let imported = weir_import::import_str(text, "odd.conf").unwrap();
        if let Err(error) = weir::config::from_toml(&imported.toml, None) {
            panic!(
                "weir check refuses the import of {text:?}: {error}\n{}",
                imported.toml
            );
        }
    }
    let imported = weir_import::import_str(odd[6], "odd.conf").unwrap();
    let config = weir::config::from_toml(&imported.toml, None).unwrap();
    let listen: Vec<String> = config
        .server
        .listen
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(listen, ["0.0.0.0:80", "[::]:80"]);
    let imported = weir_import::import_str(odd[3], "odd.conf").unwrap();
    expect(
        &imported,
        Kind::Unsupported,
        "server_name a.test",
        "conflicting server name",
    );
    let config = weir::config::from_toml(&imported.toml, None).unwrap();
    assert_eq!(config.routes.len(), 2, "{:#?}", config.routes);
}

#[test]
fn compose_stack_with_service_names() {
    let (imported, config) = import_checked(&corpus("compose.conf"));
    let servers = |name: &str| -> Vec<String> {
        config.upstreams[name]
            .names
            .iter()
            .map(ToString::to_string)
            .collect()
    };
    assert_eq!(
        servers("app"),
        ["web:8000"],
        "the service name stays a name"
    );
    assert_eq!(servers("api_8001"), ["api:8001"]);
    assert_eq!(
        config.server.resolve.resolver,
        Some("127.0.0.11:53".parse().unwrap())
    );
    assert_eq!(config.server.resolve.interval, Duration::from_secs(10));
    for item in &imported.report.items {
        assert_eq!(item.kind, Kind::Translated, "{item}\n{}", imported.report);
    }
}

#[test]
fn protected_files_behind_an_internal_location() {
    let (imported, config) = import_checked(&corpus("sendfile.conf"));
    let protected = route(&config, None, "/protected/");
    assert!(protected.scope.internal, "{:#?}", protected);
    assert!(protected.static_root.is_some());
    assert!(!route(&config, None, "/").scope.internal);
    expect(&imported, Kind::Translated, "internal", "");
}

#[test]
fn an_admin_server_on_a_port_of_its_own() {
    let (_, config) = import_checked(&corpus("admin-port.conf"));
    let on = |addr: &str| weir::routing::Listeners::Addrs(vec![addr.parse().unwrap()]);
    let admin = route(&config, None, "/status/");
    assert_eq!(admin.scope.listeners, on("0.0.0.0:8081"));
    assert_eq!(route(&config, None, "/").scope.listeners, on("0.0.0.0:80"));
}

#[test]
fn a_django_site_s_proxy_params_not_found_here_is_read_as_debian_ships_it() {
    // The file sits in /etc/nginx on the server; imported on its own, without it, the app would
    // be sent `Host: localhost` (nginx's $proxy_host) where nginx sends the client's Host, and
    // Django's ALLOWED_HOSTS would refuse every request.
    let (imported, config) = import_checked(&corpus("public/django-piscine/ljarrahd.com"));
    expect(
        &imported,
        Kind::Approximated,
        "include proxy_params",
        "read as nginx's Debian and Ubuntu packages ship it",
    );
    expect(
        &imported,
        Kind::Translated,
        "proxy_set_header Host $http_host",
        "Host passes through",
    );
    let set = &route(&config, None, "/").rules.headers.request_set;
    assert!(
        set.iter().all(|(name, _)| name != "host"),
        "the client's Host passes: {set:?}"
    );
}

#[test]
fn prefixes_stripped_by_a_rewrite_break() {
    let (imported, config) = import_checked(&corpus("prefix.conf"));
    // The default server's routes match any host.
    let host = None;
    assert_eq!(
        route(&config, host, "/api/").upstream_path.as_deref(),
        Some("/")
    );
    // The proxy_pass's own URI (/ignored/) is not sent: the rewrite's path is.
    assert_eq!(
        route(&config, host, "/svc/").upstream_path.as_deref(),
        Some("/")
    );
    assert_eq!(route(&config, host, "/").upstream_path, None);
    expect(
        &imported,
        Kind::Translated,
        "rewrite ^/api/(.*)$ /$1 break",
        "upstream_path = \"/\"",
    );
    expect(
        &imported,
        Kind::Translated,
        "rewrite ^/svc(/.*)$ $1 break",
        "upstream_path = \"/\"",
    );
    assert_eq!(
        imported.report.count(Kind::Unsupported),
        0,
        "{}",
        imported.report
    );
}

#[test]
fn a_django_sites_microcache() {
    let (imported, config) = import_checked(&corpus("microcache.conf"));
    let pages = route(&config, None, "/");
    let cache = pages.cache.as_ref().expect("the pages are kept");
    assert_eq!(cache.valid, std::time::Duration::from_secs(1));
    assert_eq!(cache.pass_cookies, Some(vec!["sessionid".to_string()]));
    assert_eq!(cache.statuses, [(404, std::time::Duration::from_secs(60))]);
    // Served expired while the zone's `inactive=10m` would keep it.
    assert_eq!(cache.stale, std::time::Duration::from_secs(600));
    assert!(cache.background_update);
    assert!(route(&config, None, "/api/").cache.is_none());
    expect(
        &imported,
        Kind::Translated,
        "proxy_cache microcache",
        "cache",
    );
    expect(
        &imported,
        Kind::Translated,
        "proxy_cache_valid 200 1s",
        "cache = \"1s\"",
    );
    expect(
        &imported,
        Kind::Translated,
        "proxy_no_cache $cookie_sessionid",
        "sessionid",
    );
    expect(&imported, Kind::Translated, "proxy_cache_lock on", "always");
    expect(
        &imported,
        Kind::Translated,
        "proxy_cache_use_stale updating",
        "cache_stale",
    );
    expect(
        &imported,
        Kind::Translated,
        "proxy_cache_background_update on",
        "cache_background_update = true",
    );
    expect(
        &imported,
        Kind::Approximated,
        "proxy_cache_path",
        "in memory",
    );
    assert!(imported.report.less_safe.is_empty(), "{}", imported.report);
}
