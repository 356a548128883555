//! nginx with a corpus config and weir with its import, in front of the same upstream, answer the
//! same requests alike: status, body (decompressed) and every header both set. Where they differ,
//! the import report announced it. Gated by `WEIR_E2E=1` (it runs nginx-light).
//!
//! How both sides are moved onto the test's addresses: `tests/common/mod.rs`, which
//! `tests/public_differential.rs` shares.

mod common;

use std::path::{Path, PathBuf};

use common::{
    announced_generally, body, differences, exchanges, location_paths, socket_count, Exchange, Run,
    Watched,
};
use weir_import::parse;
use weir_testkit::nginx;

struct Case {
    file: &'static str,
    /// Plain listeners both sides get: 1 moves every server onto one; 2 keeps the config's
    /// first socket (by port) on listener A and its second on B, each asked every host and path.
    listeners: usize,
    hosts: &'static [&'static str],
    paths: &'static [&'static str],
    /// Differences the report must have announced: requests whose path starts with the first
    /// string may differ when some report item says the second.
    announced: &'static [(&'static str, &'static str)],
}

const CASES: &[Case] = &[
    Case {
        file: "seed.conf",
        listeners: 1,
        hosts: &["example.com"],
        paths: &["/", "/status/201", "/text?bytes=3000", "/chunked"],
        announced: &[],
    },
    Case {
        file: "flask.conf",
        listeners: 1,
        hosts: &["example.com", "other.test"],
        paths: &[
            "/",
            "/status/201",
            "/status/503",
            "/text?bytes=3000",
            "/moved?path=/items/",
            "/moved?to=http%3A%2F%2Felsewhere.test%2F",
        ],
        announced: &[],
    },
    Case {
        file: "fastapi.conf",
        listeners: 1,
        hosts: &["api.example.com"],
        paths: &[
            "/",
            "/api/v1/",
            "/api/v1/status/201",
            "/api/v1/text?bytes=3000",
            "/nope",
            "/health",
            "/api/ping",
        ],
        announced: &[],
    },
    Case {
        file: "uvicorn.conf",
        listeners: 1,
        hosts: &["example.com"],
        paths: &[
            "/",
            "/status/404",
            "/static/app.css",
            "/static/missing.css",
            "/static/",
        ],
        announced: &[],
    },
    Case {
        file: "django.conf",
        listeners: 1,
        hosts: &["shop.example.com"],
        paths: &[
            "/",
            "/static/app.css",
            "/media/app.css",
            "/favicon.ico",
            "/status/500",
        ],
        announced: &[],
    },
    Case {
        file: "gunicorn.conf",
        listeners: 1,
        hosts: &["example.com", "www.example.com", "other.test"],
        paths: &["/", "/status/201", "/app.css", "/index.html"],
        announced: &[("/", "444")],
    },
    Case {
        file: "error-pages.conf",
        listeners: 1,
        hosts: &["example.com"],
        paths: &[
            "/",
            "/status/503",
            "/status/500",
            "/status/404",
            "/status/201",
            "/static/app.css",
            "/static/missing.css",
        ],
        announced: &[],
    },
    Case {
        file: "certbot.conf",
        listeners: 1,
        hosts: &["example.com", "www.example.com"],
        paths: &["/", "/status/302"],
        announced: &[],
    },
    Case {
        file: "ratelimit.conf",
        listeners: 1,
        hosts: &["api.example.com"],
        paths: &["/", "/api/status/201", "/login", "/api/text?bytes=5000"],
        announced: &[],
    },
    Case {
        file: "multihost.conf",
        listeners: 1,
        hosts: &[
            "blog.example.com",
            "shop.example.com",
            "api.shop.example.org",
            "old.example.com",
            "other.test",
        ],
        paths: &["/", "/api/status/201", "/a/b?x=1"],
        announced: &[],
    },
    Case {
        file: "static-api.conf",
        listeners: 1,
        hosts: &["example.com"],
        paths: &[
            "/",
            "/app.css",
            "/index.html",
            "/missing.css",
            "/assets/app.css",
            "/api/status/201",
            "/healthz",
        ],
        announced: &[],
    },
    Case {
        file: "headers.conf",
        listeners: 1,
        hosts: &["example.com"],
        paths: &[
            "/",
            "/status/201",
            "/status/503",
            "/admin/",
            "/internal-api/",
            "/internal-api/status/503",
            "/healthz",
            "/typed?type=text/html",
            "/typed?type=text/css",
            "/typed?type=text/plain&status=404",
            "/typed?type=text/html&status=301",
            "/typed?type=image/svg%2Bxml",
            "/typed?type=application/json",
            "/typed?type=application/pdf&status=404",
            "/typed",
            "/internal-api/typed?type=text/html",
            "/cookie?set=sid%3D1%3B%20Path%3D%2F&also=theme%3Ddark%3B%20SameSite%3DStrict",
            "/internal-api/cookie?set=sid%3D1",
        ],
        announced: &[],
    },
    Case {
        file: "auth.conf",
        listeners: 1,
        hosts: &["example.com"],
        paths: &[
            "/?token=good",
            "/status/201?token=good",
            "/",
            "/?token=forbidden",
            "/?token=broken",
            "/public/",
            "/oauth2/auth?token=good",
        ],
        announced: &[],
    },
    Case {
        file: "websocket.conf",
        listeners: 1,
        hosts: &["chat.example.com"],
        paths: &["/", "/ws/status/201"],
        announced: &[],
    },
    Case {
        file: "loadbalanced.conf",
        listeners: 1,
        hosts: &["example.com"],
        paths: &["/", "/status/201"],
        announced: &[],
    },
    Case {
        file: "debian.conf",
        listeners: 1,
        hosts: &["example.com"],
        paths: &["/", "/text?bytes=3000"],
        announced: &[],
    },
    Case {
        file: "spa.conf",
        listeners: 1,
        hosts: &["app.example.com"],
        paths: &[
            "/",
            "/app.css",
            "/orders/42",
            "/missing.css",
            "/api/status/201",
        ],
        announced: &[
            ("/.", "a path with a dot-file segment gets 404"),
            ("/static/.", "a path with a dot-file segment gets 404"),
        ],
    },
    Case {
        file: "flask-root.conf",
        listeners: 1,
        hosts: &["flask.example.com"],
        paths: &[
            "/",
            "/app.css",
            "/status/201",
            "/downloads/app.css",
            "/downloads/missing.css",
        ],
        announced: &[
            ("/.", "a path with a dot-file segment gets 404"),
            ("/static/.", "a path with a dot-file segment gets 404"),
        ],
    },
    Case {
        file: "compose.conf",
        listeners: 1,
        hosts: &["example.com", "other.test"],
        paths: &[
            "/",
            "/status/201",
            "/api/",
            "/api/status/503",
            "/jobs/status/201",
            "/text?bytes=3000",
        ],
        announced: &[],
    },
    Case {
        file: "sendfile.conf",
        listeners: 1,
        hosts: &["files.example.com"],
        paths: &[
            "/",
            "/protected/file.txt",
            "/protected/",
            "/accel/protected/file.txt",
            "/accel/protected/app.css",
            "/accel/protected/missing.txt",
        ],
        announced: &[],
    },
    Case {
        file: "admin-port.conf",
        listeners: 2,
        hosts: &["example.com", "admin.example.com", "other.test"],
        paths: &["/", "/status/201", "/admin/"],
        announced: &[],
    },
    Case {
        file: "regex.conf",
        listeners: 1,
        hosts: &["example.com"],
        paths: &[
            "/",
            "/app.css",
            "/api/v1/status/201",
            "/.env",
            "/static/.git/config",
            "/.well-known/status/201",
        ],
        announced: &[],
    },
    Case {
        file: "redirects.conf",
        listeners: 2,
        hosts: &["example.com"],
        paths: &[
            "/blog/post-1",
            "/blog/post-1?utm=mail&x=1",
            "/feed?x=1",
            "/old/shoes/42",
            "/old/shoes/x",
            "/status/201",
            "/shop/item-42.html",
            "/shop/item-42.html?ref=mail",
            "/shop/item-x.html",
            "/index.php?page=2",
        ],
        announced: &[],
    },
    Case {
        file: "microcache.conf",
        listeners: 1,
        hosts: &["example.com"],
        // Each path twice: the second `/` is a kept answer on both sides (X-Cache-Status: HIT),
        // so is the second 404 (`proxy_cache_valid 404 1m`); the API's answers never.
        paths: &["/", "/", "/status/404", "/status/404", "/api/", "/api/"],
        announced: &[],
    },
    Case {
        file: "prefix.conf",
        listeners: 1,
        hosts: &["example.com"],
        // Each prefix's path reaches the app without it (`/status/201` answers 201; the app
        // has no `/api/status/201`, which would be 404), its query kept.
        paths: &[
            "/api/",
            "/api/status/201",
            "/api/moved?path=/items/",
            "/svc/status/202",
            "/svc/",
            "/status/203",
        ],
        announced: &[],
    },
];

/// Answers both sides must give, so that a case cannot pass by both failing alike: for a case's
/// file, a listener (0 is A) and a path (every host), the status and a part of the body.
const EXPECTED: &[(&str, usize, &str, u16, &str)] = &[
    // return with a text: the body as written, with nginx's default_type.
    ("fastapi.conf", 0, "/health", 200, "ok"),
    // A prefix stripped by a rewrite ... break: the app's own path answers.
    ("prefix.conf", 0, "/api/status/201", 201, ""),
    ("prefix.conf", 0, "/svc/status/202", 202, ""),
    ("prefix.conf", 0, "/api/", 200, "hello"),
    ("fastapi.conf", 0, "/api/ping", 200, "{\"status\": \"ok\"}"),
    // The look-ahead written out: dot-files refused, /.well-known/ passed on to the app.
    ("regex.conf", 0, "/.env", 403, ""),
    ("redirects.conf", 0, "/blog/post-1?utm=mail&x=1", 301, ""),
    ("redirects.conf", 0, "/old/shoes/42", 301, ""),
    ("redirects.conf", 0, "/old/shoes/x", 200, "hello"),
    // A location's own rewrite ... permanent / redirect; a path its regex does not match goes
    // to the app.
    ("redirects.conf", 0, "/shop/item-42.html", 301, ""),
    ("redirects.conf", 0, "/index.php?page=2", 302, ""),
    ("redirects.conf", 0, "/shop/item-x.html", 200, "hello"),
    // The old port: HTTPS under the server's first name, the path and query kept.
    ("redirects.conf", 1, "/blog/post-1?utm=mail&x=1", 301, ""),
    ("regex.conf", 0, "/static/.git/config", 403, ""),
    ("regex.conf", 0, "/.well-known/status/201", 200, "hello"),
    ("compose.conf", 0, "/", 200, "hello"),
    ("compose.conf", 0, "/api/", 200, "hello"),
    // The variable's address: the path passed whole, as nginx passes it with a variable.
    ("compose.conf", 0, "/jobs/status/201", 200, "hello"),
    ("sendfile.conf", 0, "/", 200, "hello"),
    ("sendfile.conf", 0, "/protected/file.txt", 404, ""),
    (
        "sendfile.conf",
        0,
        "/accel/protected/file.txt",
        200,
        "a protected file",
    ),
    (
        "sendfile.conf",
        0,
        "/accel/protected/app.css",
        200,
        "color: black",
    ),
    ("sendfile.conf", 0, "/accel/protected/missing.txt", 404, ""),
    // The admin's name on the app's port: the app (port 80's only server is its default).
    ("admin-port.conf", 0, "/", 200, "hello"),
    ("admin-port.conf", 0, "/admin/", 200, "hello"),
    // Any name on the admin port: the admin server, its status pages and 404.
    ("admin-port.conf", 1, "/", 404, ""),
    ("admin-port.conf", 1, "/admin/", 404, ""),
    ("admin-port.conf", 1, "/status/201", 201, "status 201"),
];

/// Where an answer is not the one [`EXPECTED`] names, in words.
fn unexpected(
    case: &Case,
    exchange: &Exchange,
    side: &str,
    reply: &Option<weir_testkit::Reply>,
) -> Option<String> {
    let (listener, path) = (exchange.listener, exchange.path.as_str());
    let (_, _, _, status, part) = EXPECTED.iter().find(|(file, on, expected, _, _)| {
        *file == case.file && *on == listener && *expected == path
    })?;
    let holds = reply.as_ref().is_some_and(|reply| {
        reply.status.as_u16() == *status && String::from_utf8_lossy(&body(reply)).contains(part)
    });
    (!holds).then(|| {
        format!(
            "{side} answered {:?} where {status} with {part:?} was expected",
            reply.as_ref().map(|reply| (
                reply.status,
                String::from_utf8_lossy(&body(reply)).into_owned()
            ))
        )
    })
}

fn corpus(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/corpus")
        .join(name)
}

/// Whether the report announced this difference.
fn announced(case: &Case, report: &str, exchange: &Exchange, difference: &str) -> bool {
    announced_generally(report, exchange, difference).unwrap_or_else(|| {
        case.announced
            .iter()
            .any(|(prefix, words)| exchange.path.starts_with(prefix) && report.contains(words))
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn nginx_and_weir_answer_alike_or_as_the_report_announced() {
    if std::env::var_os("WEIR_E2E").is_none() {
        eprintln!("skipped: set WEIR_E2E=1 to run nginx against weir");
        return;
    }
    assert!(
        nginx::available(),
        "WEIR_E2E=1 needs nginx-light (apt-get install -y nginx-light)"
    );
    let mut failures = Vec::new();
    let mut compared = 0;
    let (mut asked_in_bursts, mut refused_in_bursts) = (0, 0);
    for case in CASES {
        let directives = parse::load(&corpus(case.file)).unwrap().directives;
        assert!(
            case.listeners <= socket_count(&directives).max(1),
            "{}: more listeners than the config has sockets",
            case.file
        );
        // The case's own paths, then its locations' ([`location_paths`]: a regex location's
        // among them) and the dot-files, which the case did not name.
        let mut paths: Vec<String> = case.paths.iter().map(|path| path.to_string()).collect();
        for path in location_paths(&directives)
            .into_iter()
            .chain(["/.env", "/.git/config", "/.htaccess", "/static/.env"].map(String::from))
        {
            if !paths.contains(&path) {
                paths.push(path);
            }
        }
        let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
        let run = Run {
            name: case.file,
            directives,
            original_report: weir_import::import(&corpus(case.file))
                .unwrap()
                .report
                .to_string(),
            listeners: case.listeners,
            hosts: case.hosts,
            paths: &paths,
            tls: None,
        };
        let (report, answers, bursts) = exchanges(&run).await;
        for burst in &bursts {
            asked_in_bursts += burst.nginx.len();
            refused_in_bursts += burst.refused_by_nginx();
            failures.extend(burst.unannounced(&report, case.announced));
        }
        let watched = Watched::of(&run.directives);
        for exchange in &answers {
            compared += 1;
            let request = &exchange.request;
            for (side, reply) in [("nginx", &exchange.nginx), ("weir", &exchange.weir)] {
                if let Some(wrong) = unexpected(case, exchange, side, reply) {
                    failures.push(format!("{request}: {wrong}"));
                }
            }
            for difference in differences(&exchange.nginx, &exchange.weir, &watched) {
                eprintln!("{request}: {difference}");
                if !announced(case, &report, exchange, &difference) {
                    failures.push(format!("{request}: {difference}"));
                }
            }
        }
    }
    eprintln!(
        "{compared} requests compared, and {asked_in_bursts} in bursts ({refused_in_bursts} refused by nginx)"
    );
    assert!(compared > 50, "only {compared} requests compared");
    // ratelimit.conf's `/api/` (10r/s, burst=20 nodelay) is asked in a burst that goes past it,
    // one request after the other; its `/login` (1r/s, burst=5, delayed) in one all at once.
    assert!(
        asked_in_bursts > 30,
        "only {asked_in_bursts} requests in bursts"
    );
    assert!(refused_in_bursts > 0, "nginx refused nothing in the bursts");
    assert!(
        failures.is_empty(),
        "differences the report did not announce, or answers not as expected:\n{}",
        failures.join("\n")
    );
}

/// `valid_referers` with `if ($invalid_referer) { return 403; }`: the `deny_headers` entry the
/// import writes refuses the `Referer`s nginx refuses (`none`, `blocked`, `server_names`, a `*.`
/// wildcard, a regex, a name with a path), each asked of nginx with the config as it is.
#[tokio::test]
async fn an_imported_referer_check_refuses_what_nginx_refuses() {
    if std::env::var_os("WEIR_E2E").is_none() {
        eprintln!("skipped: set WEIR_E2E=1 to run nginx against weir");
        return;
    }
    let location = r"valid_referers none blocked server_names *.cdn.example.org ~\.google\. partner.test/gallery/;
            if ($invalid_referer) { return 403; }";
    let imported = weir_import::import_str(
        &format!(
            "http {{ server {{ listen 80; server_name example.com www.example.com;\n location / {{ {location} proxy_pass http://127.0.0.1:8000; }} }} }}"
        ),
        "nginx.conf",
    )
    .expect("it parses");
    let config = weir::config::from_toml(&imported.toml, None)
        .unwrap_or_else(|error| panic!("{error}\n{}", imported.toml));
    let guards = config.routes[0]
        .rules
        .headers
        .deny_headers
        .clone()
        .expect("a deny_headers entry");
    let upstream =
        weir_testkit::upstream::UpstreamServer::start(weir_testkit::upstream::Transport::Tcp).await;
    let nginx = nginx::Nginx::start(
        "",
        &format!(
            "        server_name example.com www.example.com;\n        location / {{ {location} proxy_pass http://{}; }}",
            upstream.address
        ),
    )
    .expect("nginx starts");
    let referers: &[Option<&str>] = &[
        None,
        Some(""),
        Some("bookmark"),
        Some("ftp://evil.test/"),
        Some("https://example.com/page"),
        Some("http://WWW.Example.com:8080/"),
        Some("https://evil.test/"),
        Some("https://example.com.evil.test/"),
        Some("http://evil.test/?u=example.com"),
        Some("https://img.cdn.example.org/a"),
        Some("https://cdn.example.org/a"),
        Some("https://www.google.com/search"),
        Some("https://partner.test/gallery/x"),
        Some("https://partner.test/other"),
    ];
    let mut from_nginx = Vec::new();
    let mut from_import = Vec::new();
    for referer in referers {
        let mut request = http::Request::get("/").header("host", "example.com");
        if let Some(referer) = referer {
            request = request.header("referer", *referer);
        }
        let request = request.body(Default::default()).unwrap();
        let mut client = weir_testkit::client::Client::connect(nginx.addr).await;
        let reply = client.send(request).await.expect("an answer");
        from_nginx.push((*referer, reply.status.as_u16() == 403));
        let refused = guards
            .iter()
            .any(|guard| guard.name == "referer" && guard.refuses(referer.map(str::as_bytes)));
        from_import.push((*referer, refused));
    }
    assert_eq!(from_import, from_nginx, "{}", imported.toml);
    // Both refuse some and let some in.
    assert!(from_nginx.iter().any(|(_, refused)| *refused));
    assert!(from_nginx.iter().any(|(_, refused)| !*refused));
}

/// `geo` maps read by `if ($var) { return 403; }` (a server's and a location's): the `access`
/// entries the import writes refuse the client addresses nginx refuses, each address asked of
/// nginx as its realip module's client (`X-Real-IP` from the test's own address).
#[tokio::test]
async fn an_imported_geo_guard_refuses_the_addresses_nginx_refuses() {
    if std::env::var_os("WEIR_E2E").is_none() {
        eprintln!("skipped: set WEIR_E2E=1 to run nginx against weir");
        return;
    }
    let geos = "geo $blocked { default 0; 10.0.0.0/8 1; 10.1.0.0/16 0; 192.0.2.7 1; }
    geo $allowed { default 0; 127.0.0.0/8 1; 172.16.0.0/12 1; 10.1.2.0/24 1; }";
    let server = "if ($blocked) { return 403; }
        location / { proxy_pass http://127.0.0.1:8000; }
        location /admin/ { if ($allowed = 0) { return 403; } proxy_pass http://127.0.0.1:8000; }";
    let imported = weir_import::import_str(
        &format!("http {{ {geos}\n server {{ listen 80;\n {server} }} }}"),
        "nginx.conf",
    )
    .expect("it parses");
    let config = weir::config::from_toml(&imported.toml, None)
        .unwrap_or_else(|error| panic!("{error}\n{}", imported.toml));
    let upstream =
        weir_testkit::upstream::UpstreamServer::start(weir_testkit::upstream::Transport::Tcp).await;
    let nginx = nginx::Nginx::start(
        &format!("    set_real_ip_from 127.0.0.1;\n    real_ip_header X-Real-IP;\n    {geos}"),
        &server.replace("127.0.0.1:8000", &upstream.address),
    )
    .expect("nginx starts");
    let addresses = [
        "10.2.3.4",
        "10.1.9.9",
        "10.1.2.3",
        "192.0.2.7",
        "192.0.2.8",
        "172.16.5.5",
        "127.0.0.1",
        "8.8.8.8",
    ];
    let mut from_nginx = Vec::new();
    let mut from_import = Vec::new();
    for path in ["/", "/admin/"] {
        let rules = config
            .routes
            .iter()
            .find(|route| route.path == path)
            .and_then(|route| route.rules.access.clone())
            .unwrap_or_else(|| panic!("no access on {path}\n{}", imported.toml));
        for address in addresses {
            let request = http::Request::get(path)
                .header("host", "localhost")
                .header("x-real-ip", address)
                .body(Default::default())
                .unwrap();
            let mut client = weir_testkit::client::Client::connect(nginx.addr).await;
            let reply = client.send(request).await.expect("an answer");
            from_nginx.push((path, address, reply.status.as_u16() == 403));
            let ip: std::net::IpAddr = address.parse().unwrap();
            let refused = rules
                .iter()
                .find(|rule| rule.network.is_none_or(|network| network.contains(&ip)))
                .is_some_and(|rule| !rule.allow);
            from_import.push((path, address, refused));
        }
    }
    assert_eq!(from_import, from_nginx, "{}", imported.toml);
    assert!(from_nginx.iter().any(|case| case.2));
    assert!(from_nginx.iter().any(|case| !case.2));
}

/// nginx's allowlist as its docs write it (a `geo` of the addresses to leave out, a `map` of it
/// to an empty key, a zone keyed by the map): the imported limit's `exempt` leaves out the
/// addresses nginx does not limit. nginx limits one request a minute, through its realip module;
/// an address whose second request passes is left out.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_imported_allowlist_leaves_out_the_addresses_nginx_does_not_limit() {
    if std::env::var_os("WEIR_E2E").is_none() {
        eprintln!("skipped: set WEIR_E2E=1 to run nginx against weir");
        return;
    }
    let http = "geo $whitelist { default 0; 10.0.0.0/8 1; 10.1.0.0/16 1; 192.0.2.7 1; }
    map $whitelist $limit_key { 0 $binary_remote_addr; 1 \"\"; }
    limit_req_zone $limit_key zone=perip:1m rate=1r/m;";
    let server = "location / { limit_req zone=perip; proxy_pass http://127.0.0.1:8000; }";
    let imported = weir_import::import_str(
        &format!("http {{ {http}\n server {{ listen 80;\n {server} }} }}"),
        "nginx.conf",
    )
    .expect("it parses");
    let config = weir::config::from_toml(&imported.toml, None)
        .unwrap_or_else(|error| panic!("{error}\n{}", imported.toml));
    let exempt = &config.limits["perip"].exempt;
    let upstream =
        weir_testkit::upstream::UpstreamServer::start(weir_testkit::upstream::Transport::Tcp).await;
    let nginx = nginx::Nginx::start(
        &format!("    set_real_ip_from 127.0.0.1;\n    real_ip_header X-Real-IP;\n    {http}"),
        &server.replace("127.0.0.1:8000", &upstream.address),
    )
    .expect("nginx starts");
    let addresses = [
        "10.2.3.4",
        "10.1.9.9",
        "192.0.2.7",
        "192.0.2.8",
        "172.16.5.5",
        "8.8.8.8",
    ];
    let mut from_nginx = Vec::new();
    let mut from_import = Vec::new();
    for address in addresses {
        let mut statuses = Vec::new();
        for _ in 0..2 {
            let request = http::Request::get("/")
                .header("host", "localhost")
                .header("x-real-ip", address)
                .body(Default::default())
                .unwrap();
            let mut client = weir_testkit::client::Client::connect(nginx.addr).await;
            statuses.push(
                client
                    .send(request)
                    .await
                    .expect("an answer")
                    .status
                    .as_u16(),
            );
        }
        assert_eq!(statuses[0], 200, "{address}");
        from_nginx.push((address, statuses[1] == 200));
        let ip: std::net::IpAddr = address.parse().unwrap();
        from_import.push((address, exempt.iter().any(|network| network.contains(&ip))));
    }
    assert_eq!(from_import, from_nginx, "{}", imported.toml);
    assert!(from_nginx.iter().any(|case| case.1));
    assert!(from_nginx.iter().any(|case| !case.1));
}
