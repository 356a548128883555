//! nginx's location order (issue 19) through the real gateway: exact, then the longest prefix,
//! which stops the search when it is `^~`; then regexes (`~`, `~*`) in config order; else the
//! longest prefix. And host wildcards (`*.example.com`, `example.*`) after exact names. Each route
//! answers with a status of its own, so the status says which route a request landed on; with
//! `WEIR_E2E=1` the same requests go to a real nginx with the same locations, which must agree.

use weir_testkit::nginx::{self, Nginx};

use crate::support::*;

/// Whether the side-by-side runs against nginx happen.
pub(crate) fn nginx_enabled() -> bool {
    if std::env::var("WEIR_E2E").is_ok_and(|value| value == "1") && nginx::available() {
        return true;
    }
    eprintln!("skipped the nginx side: set WEIR_E2E=1 (and install nginx-light)");
    false
}

/// The status of `GET path` with `host`, on a fresh connection.
pub(crate) async fn status_of(addr: std::net::SocketAddr, host: &str, path: &str) -> u16 {
    let request = Request::get(path)
        .header("host", host)
        .body(Default::default())
        .unwrap();
    Client::connect(addr)
        .await
        .send(request)
        .await
        .unwrap()
        .status
        .as_u16()
}

/// The routes of both tests: (weir's route keys, nginx's location, the status it answers).
const LOCATIONS: &[(&str, &str, u16)] = &[
    (r#"path = "/""#, "location /", 200),
    (r#"path = "/static/""#, "location /static/", 201),
    (
        r#"path = "/media/"
match = "prefix_stop""#,
        "location ^~ /media/",
        202,
    ),
    (
        r#"path = "\\.php$"
match = "regex""#,
        r"location ~ \.php$",
        203,
    ),
    (
        r#"path = "\\.(png|jpg)$"
match = "regex_nocase""#,
        r"location ~* \.(png|jpg)$",
        206,
    ),
    (
        r#"path = "^/static/img/"
match = "regex""#,
        "location ~ ^/static/img/",
        208,
    ),
    (
        r#"path = "/index.php"
match = "exact""#,
        "location = /index.php",
        207,
    ),
];

/// (path, the status of the route nginx's order picks).
const REQUESTS: &[(&str, u16)] = &[
    ("/", 200),
    ("/static/app.css", 201),
    // A regex wins over the longest prefix...
    ("/static/x.php", 203),
    // ...unless that prefix is `^~`.
    ("/media/x.php", 202),
    ("/media/a.PNG", 202),
    // The exact match wins over the regex.
    ("/index.php", 207),
    ("/a/B.PNG", 206),
    // `~` is case-sensitive: no regex matches, the longest prefix answers.
    ("/a/b.Php", 200),
    // Regexes in config order: the image regex comes before the directory one.
    ("/static/img/a.png", 206),
    ("/static/img/a.gif", 208),
];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn locations_are_searched_in_nginx_order() {
    let mut toml = "[server]\nlisten = [\"127.0.0.1:0\"]\n".to_string();
    for (keys, _, status) in LOCATIONS {
        toml.push_str(&format!("[[routes]]\n{keys}\nstatus = {status}\n"));
    }
    let gateway = TestGateway::start(&toml).await;
    let mut weir = Vec::new();
    for (path, _) in REQUESTS {
        weir.push((*path, status_of(gateway.addr, "x.test", path).await));
    }
    let expected: Vec<(&str, u16)> = REQUESTS.to_vec();
    assert_eq!(weir, expected);

    if !nginx_enabled() {
        return;
    }
    let server: String = LOCATIONS
        .iter()
        .map(|(_, location, status)| format!("        {location} {{ return {status}; }}\n"))
        .collect();
    let nginx = Nginx::start("", &server).expect("nginx starts");
    let mut theirs = Vec::new();
    for (path, _) in REQUESTS {
        theirs.push((*path, status_of(nginx.addr, "x.test", path).await));
    }
    assert_eq!(
        theirs,
        expected,
        "nginx disagrees; its log: {}",
        nginx.logs()
    );
}

/// (weir's `host`, nginx's `server_name`, the status).
const HOSTS: &[(Option<&str>, &str, u16)] = &[
    (None, "_", 200),
    (Some("*.example.com"), "*.example.com", 201),
    (Some("*.api.example.com"), "*.api.example.com", 202),
    (Some("www.example.*"), "www.example.*", 203),
    (Some("www.example.com"), "www.example.com", 207),
];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hosts_match_exactly_then_by_wildcards_as_nginx_server_names() {
    let requests: &[(&str, u16)] = &[
        ("www.example.com", 207),
        ("WWW.Example.Com:8080", 207),
        ("a.example.com", 201),
        ("v1.api.example.com", 202),
        ("www.example.org", 203),
        // `*.example.com` does not match `example.com` itself.
        ("example.com", 200),
        ("other.test", 200),
    ];
    let mut toml = "[server]\nlisten = [\"127.0.0.1:0\"]\n".to_string();
    for (host, _, status) in HOSTS {
        let host = host.map_or(String::new(), |host| format!("host = \"{host}\"\n"));
        toml.push_str(&format!(
            "[[routes]]\n{host}path = \"/\"\nstatus = {status}\n"
        ));
    }
    let gateway = TestGateway::start(&toml).await;
    let mut weir = Vec::new();
    for (host, _) in requests {
        weir.push((*host, status_of(gateway.addr, host, "/").await));
    }
    assert_eq!(weir, requests.to_vec());

    if !nginx_enabled() {
        return;
    }
    let nginx = Nginx::start_with(&|addr| {
        HOSTS
            .iter()
            .enumerate()
            .map(|(index, (_, name, status))| {
                // The first server is the listener's default, as weir's host-less route.
                let default = if index == 0 { " default_server" } else { "" };
                format!(
                    "    server {{\n        listen {addr}{default};\n        server_name {name};\n        return {status};\n    }}\n"
                )
            })
            .collect()
    })
    .expect("nginx starts");
    let mut theirs = Vec::new();
    for (host, _) in requests {
        theirs.push((*host, status_of(nginx.addr, host, "/").await));
    }
    assert_eq!(theirs, requests.to_vec(), "nginx disagrees");
}

/// A route whose `static` names a file serves that file for its own path (nginx's `location =
/// /favicon.ico { alias /srv/static/favicon.ico; }`), with the validators and type of any
/// static file, and 404 below it; side by side with nginx under `WEIR_E2E=1`.
#[tokio::test]
async fn a_route_serves_the_one_file_its_static_names() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("favicon.ico");
    std::fs::write(&file, b"\x00\x00\x01\x00icon").unwrap();
    let robots = dir.path().join("robots.txt");
    std::fs::write(&robots, "User-agent: *\n").unwrap();
    let upstream = UpstreamServer::start(Transport::Tcp).await;
    let gateway = TestGateway::start(&format!(
        r#"
[server]
listen = ["127.0.0.1:0"]
[upstreams.app]
servers = ["{}"]
[[routes]]
path = "/"
upstream = "app"
[[routes]]
path = "/favicon.ico"
match = "exact"
static = "{}"
[[routes]]
path = "/robots.txt"
static = "{}"
"#,
        upstream.address,
        file.display(),
        robots.display()
    ))
    .await;
    let mut client = Client::connect(gateway.addr).await;
    let reply = client.get("/favicon.ico").await;
    assert_eq!(reply.status, StatusCode::OK);
    assert_eq!(&reply.body[..], b"\x00\x00\x01\x00icon");
    assert_eq!(reply.header("content-type"), Some("image/x-icon"));
    let etag = reply.header("etag").expect("an ETag").to_string();
    let reply = client
        .send(
            Request::get("/favicon.ico")
                .header("if-none-match", &etag)
                .body(Default::default())
                .unwrap(),
        )
        .await
        .unwrap();
    assert_eq!(reply.status, StatusCode::NOT_MODIFIED);
    // Paths beside it are the app's.
    let reply = client.get("/favicon.ico/x").await;
    assert_eq!(reply.text(), "hello");
    assert_eq!(upstream.requests(), 1);
    // A prefix route's one file: its own path, and nothing below it.
    let reply = client.get("/robots.txt").await;
    assert_eq!(
        (reply.status, reply.text().as_str()),
        (StatusCode::OK, "User-agent: *\n")
    );
    assert_eq!(
        client.get("/robots.txt/x").await.status,
        StatusCode::NOT_FOUND
    );

    if !nginx_enabled() {
        return;
    }
    let nginx = Nginx::start(
        "",
        &format!(
            "        location / {{ proxy_pass http://{}; }}\n        location = /favicon.ico {{ alias {}; }}\n        location /robots.txt {{ alias {}; }}",
            upstream.address,
            file.display(),
            robots.display()
        ),
    )
    .expect("nginx starts");
    for path in [
        "/favicon.ico",
        "/favicon.ico/x",
        "/robots.txt",
        "/robots.txt/x",
    ] {
        let from_nginx = weir_testkit::client::get(nginx.addr, path).await;
        let from_weir = weir_testkit::client::get(gateway.addr, path).await;
        // (The test's nginx has no mime.types: its type is its default_type. Its 404 page is
        // its own HTML.)
        assert_eq!(from_weir.status, from_nginx.status, "{path}");
        if from_nginx.status != StatusCode::NOT_FOUND {
            assert_eq!(from_weir.body, from_nginx.body, "{path}");
        }
    }
}

/// An app that answers every request with its head, and weir in front of it as `[upstreams.app]`
/// with `routes` (TOML `[[routes]]` tables).
async fn echo_gateway(routes: &str) -> (weir_testkit::RawUpstream, TestGateway) {
    let app = weir_testkit::RawUpstream::start(weir_testkit::Script::EchoHead).await;
    let gateway = TestGateway::start(&format!(
        "[server]\nlisten = [\"127.0.0.1:0\"]\n[upstreams.app]\nservers = [\"{}\"]\n{routes}",
        app.address
    ))
    .await;
    (app, gateway)
}

/// The answer to `GET target` with host `app.test`, on a fresh connection.
async fn reply_of(addr: std::net::SocketAddr, target: &str) -> weir_testkit::Reply {
    let request = get_with(Some("app.test"), target, None);
    Client::connect(addr).await.send(request).await.unwrap()
}

/// `upstream_path` (nginx `proxy_pass http://app/URI;`): the route's prefix of the normalised
/// path is replaced by it in the request sent upstream, the query kept; an exact route's whole
/// path is; a route without it sends the client's target as it came. `$request_uri` stays the
/// client's. With `WEIR_E2E=1` nginx with the same `proxy_pass`es sends the same request lines.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn upstream_path_replaces_the_routes_prefix_as_proxy_pass_with_a_uri() {
    let (app, gateway) = echo_gateway(
        r#"
[[routes]]
path = "/app/"
upstream = "app"
upstream_path = "/"
request_headers = { "X-Original-URI" = "$request_uri" }
[[routes]]
path = "/v1/"
upstream = "app"
upstream_path = "/api/v1/"
[[routes]]
path = "/health"
match = "exact"
upstream = "app"
upstream_path = "/healthz"
[[routes]]
path = "/glued"
upstream = "app"
upstream_path = "/x"
[[routes]]
path = "/"
upstream = "app"
"#,
    )
    .await;
    // (client's target, what the app must be asked for)
    let cases = [
        ("/app/users?page=2", "/users?page=2"),
        ("/app/", "/"),
        ("/v1/a%20b", "/api/v1/a%20b"),
        ("/v1//x/../y", "/api/v1/y"),
        ("/v1/%7Euser", "/api/v1/~user"),
        ("/health?full=1", "/healthz?full=1"),
        ("/gluedmore", "/xmore"),
        ("/other//a/./b?q", "/other//a/./b?q"),
    ];
    let asked = |addr, target: &'static str| async move {
        let reply = reply_of(addr, target).await;
        assert_eq!(reply.status, StatusCode::OK, "{target}");
        reply.text()
    };
    for (target, sent) in cases {
        let head = asked(gateway.addr, target).await;
        let line = head.lines().next().unwrap_or_default();
        assert_eq!(line, format!("GET {sent} HTTP/1.1"), "{target}");
    }
    let head = asked(gateway.addr, "/app/users?page=2").await;
    assert!(
        head.to_ascii_lowercase()
            .contains("\r\nx-original-uri: /app/users?page=2"),
        "{head}"
    );

    if !nginx_enabled() {
        return;
    }
    let nginx = Nginx::start(
        "",
        &format!(
            "        location /app/ {{ proxy_pass http://{app}/; \
             proxy_set_header X-Original-URI $request_uri; }}\n\
             location /v1/ {{ proxy_pass http://{app}/api/v1/; }}\n\
             location = /health {{ proxy_pass http://{app}/healthz; }}\n\
             location /glued {{ proxy_pass http://{app}/x; }}\n\
             location / {{ proxy_pass http://{app}; }}\n",
            app = app.address
        ),
    )
    .expect("nginx starts");
    for (target, sent) in cases {
        let head = asked(nginx.addr, target).await;
        let line = head.lines().next().unwrap_or_default();
        assert_eq!(line, format!("GET {sent} HTTP/1.0"), "nginx: {target}");
    }
    let head = asked(nginx.addr, "/app/users?page=2").await;
    assert!(
        head.to_ascii_lowercase()
            .contains("\r\nx-original-uri: /app/users?page=2"),
        "nginx: {head}"
    );
}

/// nginx's `auto_redirect`: a proxied route whose path ends with a slash answers that path
/// without it with a 301 to it (the query kept), before a shorter prefix and the regexes, but
/// not before a route whose own path is the one asked for; an internal route's is 404. With
/// `WEIR_E2E=1`, nginx with the same locations answers the same statuses and `Location` paths
/// (nginx writes the absolute URL, weir a relative one).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_proxied_routes_path_without_its_slash_is_redirected_to_it() {
    let (app, gateway) = echo_gateway(
        r#"
[[routes]]
path = "/"
upstream = "app"
[[routes]]
path = "/app/"
upstream = "app"
[[routes]]
path = "/exact/"
match = "exact"
upstream = "app"
[[routes]]
path = "/own/"
upstream = "app"
[[routes]]
path = "/own"
status = 204
[[routes]]
path = "/rx/"
upstream = "app"
[[routes]]
path = "^/rx"
match = "regex"
status = 203
[[routes]]
path = "/inner/"
upstream = "app"
internal = true
"#,
    )
    .await;
    // (path, status, the Location's path and query, for a 301)
    let cases = [
        ("/app", 301, Some("/app/")),
        ("/app?x=1", 301, Some("/app/?x=1")),
        ("/app/", 200, None),
        ("/exact", 301, Some("/exact/")),
        ("/own", 204, None),
        ("/rx", 301, Some("/rx/")),
        ("/rxz", 203, None),
        ("/inner", 404, None),
        ("/ap", 200, None),
    ];
    for (target, status, location) in cases {
        let reply = reply_of(gateway.addr, target).await;
        assert_eq!(reply.status.as_u16(), status, "{target}");
        if location.is_some() {
            // Relative to the request's path: `./NAME/`, the query after it.
            let name = target
                .split('?')
                .next()
                .unwrap()
                .rsplit('/')
                .next()
                .unwrap();
            let query = target
                .split_once('?')
                .map_or(String::new(), |(_, query)| format!("?{query}"));
            assert_eq!(
                reply.header("location"),
                Some(format!("./{name}/{query}").as_str()),
                "{target}"
            );
        }
    }

    if !nginx_enabled() {
        return;
    }
    let nginx = Nginx::start(
        "",
        &format!(
            "        location / {{ proxy_pass http://{app}; }}\n\
             location /app/ {{ proxy_pass http://{app}; }}\n\
             location = /exact/ {{ proxy_pass http://{app}; }}\n\
             location /own/ {{ proxy_pass http://{app}; }}\n\
             location /own {{ return 204; }}\n\
             location /rx/ {{ proxy_pass http://{app}; }}\n\
             location ~ ^/rx {{ return 203; }}\n\
             location /inner/ {{ internal; proxy_pass http://{app}; }}\n",
            app = app.address
        ),
    )
    .expect("nginx starts");
    for (target, status, location) in cases {
        let reply = reply_of(nginx.addr, target).await;
        assert_eq!(reply.status.as_u16(), status, "nginx: {target}");
        if let Some(location) = location {
            let theirs = reply.header("location").unwrap_or_default();
            assert!(theirs.ends_with(location), "nginx: {target}: {theirs}");
        }
    }
}

/// A regex route's redirect names its captures (nginx's `location ~ ^/old/(.+)$ { return 301
/// /new/$1; }`): `$1` .. `$9` are its path's groups, in any order, empty when a group took no
/// part; a case-insensitive regex captures what the client wrote; an escape in the path stays
/// escaped. With `WEIR_E2E=1`, nginx with the same locations sends the same `Location`s (made
/// absolute, and with the escape decoded).
#[tokio::test]
async fn a_regex_routes_redirect_fills_in_its_captures_as_nginx_does() {
    let gateway = TestGateway::start(
        r#"
[server]
listen = ["127.0.0.1:0"]

[[routes]]
path = "^/old/([a-z]+)/(\\d+)$"
match = "regex"
redirect = "/new/$2/$1?from=old"
status = 301

[[routes]]
path = "^/blog(/(.*))?$"
match = "regex_nocase"
redirect = "https://blog.example.com/$2"

[[routes]]
path = "/"
status = 404
"#,
    )
    .await;
    let paths = [
        "/old/shoes/42",
        "/old/shoes/x",
        "/BLOG/Post-1",
        "/blog",
        "/blog/a%20b",
    ];
    let answers = |addr| async move {
        let mut answers = Vec::new();
        for path in paths {
            let reply = Client::connect(addr).await.get(path).await;
            answers.push((
                path,
                reply.status.as_u16(),
                reply.header("location").map(str::to_string),
            ));
        }
        answers
    };
    let from_weir = answers(gateway.addr).await;
    let expected = [
        (301, Some("/new/42/shoes?from=old")),
        (404, None),
        (302, Some("https://blog.example.com/Post-1")),
        (302, Some("https://blog.example.com/")),
        (302, Some("https://blog.example.com/a%20b")),
    ];
    let seen: Vec<(u16, Option<&str>)> = from_weir
        .iter()
        .map(|(_, status, location)| (*status, location.as_deref()))
        .collect();
    assert_eq!(seen, expected, "{from_weir:?}");

    if !nginx_enabled() {
        return;
    }
    let nginx = Nginx::start(
        "",
        r#"        location ~ ^/old/([a-z]+)/(\d+)$ { return 301 /new/$2/$1?from=old; }
        location ~* ^/blog(/(.*))?$ { return 302 https://blog.example.com/$2; }
        location / { return 404; }"#,
    )
    .expect("nginx starts");
    // nginx writes a path's redirect absolute (`absolute_redirect`), and a capture decoded: a
    // space of `%20` goes into its `Location` as it is, which is no valid URL; weir keeps the
    // path's escapes.
    let origin = format!("http://{}", nginx.addr);
    let from_nginx: Vec<(&str, u16, Option<String>)> = answers(nginx.addr)
        .await
        .into_iter()
        .map(|(path, status, location)| {
            let location = location.map(|url| {
                url.strip_prefix(&origin)
                    .map_or(url.clone(), str::to_string)
                    .replace(' ', "%20")
            });
            (path, status, location)
        })
        .collect();
    assert_eq!(from_nginx, from_weir, "{}", nginx.logs());
}
