//! Header rules (issue 19): what the upstream request carries (`request_headers`, where `""`
//! removes, as nginx `proxy_set_header NAME ""`; `append_request_headers`; `forwarded_for`),
//! what the answer carries (`response_headers` on success only, `response_headers_always` on
//! every answer, weir's own errors included, as nginx `add_header ... always`;
//! `hide_response_headers`, as `proxy_hide_header`), per route and per `[[hosts]]`, and side by
//! side with nginx on the same requests (`WEIR_E2E=1`).

use weir_testkit::nginx::Nginx;

use crate::support::*;

fn with_route(upstream: &str, route_keys: &str, extra: &str) -> String {
    format!(
        r#"
[server]
listen = ["127.0.0.1:0"]
[upstreams.app]
servers = ["{upstream}"]
{extra}
[[routes]]
path = "/"
upstream = "app"
{route_keys}
"#
    )
}

/// The request as the upstream saw it (`/headers` echoes the head), for a request with `headers`.
async fn seen_upstream(addr: std::net::SocketAddr, headers: &[(&str, &str)]) -> String {
    let mut request = Request::get("/headers");
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let reply = Client::connect(addr)
        .await
        .send(request.body(Default::default()).unwrap())
        .await
        .unwrap();
    assert_eq!(reply.status, StatusCode::OK);
    reply.text()
}

/// A client's forged forwarding headers, as a ProxyFix-style app would trust them.
const FORGED: &[(&str, &str)] = &[
    ("x-forwarded-host", "evil.example"),
    ("x-forwarded-prefix", "/admin"),
    ("x-forwarded-for", "203.0.113.66"),
    ("x-tag", "client"),
];

#[tokio::test]
async fn request_rules_strip_set_append_and_replace_the_forwarded_for() {
    let upstream = UpstreamServer::start(Transport::Tcp).await;
    let gateway = TestGateway::start(&with_route(
        &upstream.address,
        r#"request_headers = { "X-Forwarded-Host" = "", "X-Forwarded-Prefix" = "", "X-Seen" = "$request_method $scheme://$host$request_uri from $remote_addr", "Host" = "app.internal" }
append_request_headers = { "X-Tag" = "weir" }
forwarded_for = "replace""#,
        "",
    ))
    .await;
    let text = seen_upstream(gateway.addr, FORGED).await;
    assert!(!text.contains("x-forwarded-host"), "{text}");
    assert!(!text.contains("x-forwarded-prefix"), "{text}");
    assert!(text.contains("x-forwarded-for: 127.0.0.1\n"), "{text}");
    assert!(text.contains("host: app.internal\n"), "{text}");
    assert!(
        text.contains("x-seen: GET http://127.0.0.1/headers from 127.0.0.1\n"),
        "{text}"
    );
    assert!(
        text.contains("x-tag: client\n") && text.contains("x-tag: weir\n"),
        "{text}"
    );
}

#[tokio::test]
async fn without_rules_the_forwarded_for_is_appended_as_before() {
    let (_upstream, gateway) = start(Transport::Tcp, "", "").await;
    let text = seen_upstream(gateway.addr, FORGED).await;
    assert!(
        text.contains("x-forwarded-for: 203.0.113.66, 127.0.0.1\n"),
        "{text}"
    );
    assert!(text.contains("x-forwarded-host: evil.example\n"), "{text}");
}

#[tokio::test]
async fn response_headers_go_on_success_and_always_headers_on_every_answer() {
    let upstream = UpstreamServer::start(Transport::Tcp).await;
    let gateway = TestGateway::start(&with_route(
        &upstream.address,
        r#"response_headers = { "X-Frame-Options" = "DENY", "X-Method" = "$request_method" }
response_headers_always = { "X-Content-Type-Options" = "nosniff" }
hide_response_headers = ["X-Upstream"]
limits = ["none_left"]"#,
        "[limits.none_left]\nrate = \"1r/m\"\nnodelay = true\n",
    ))
    .await;
    let mut client = Client::connect(gateway.addr).await;
    let ok = client.get("/").await;
    assert_eq!(ok.status, StatusCode::OK);
    assert_eq!(ok.header("x-frame-options"), Some("DENY"));
    assert_eq!(ok.header("x-method"), Some("GET"));
    assert_eq!(ok.header("x-content-type-options"), Some("nosniff"));
    assert_eq!(ok.header("x-upstream"), None, "hidden");
    // weir's own 429: only the `always` header.
    let limited = client.get("/").await;
    assert_eq!(limited.status, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(limited.header("x-frame-options"), None);
    assert_eq!(limited.header("x-content-type-options"), Some("nosniff"));
}

#[tokio::test]
async fn an_upstream_error_gets_only_the_always_headers() {
    let upstream = UpstreamServer::start(Transport::Tcp).await;
    let gateway = TestGateway::start(&with_route(
        &upstream.address,
        r#"response_headers = { "X-Frame-Options" = "DENY" }
response_headers_always = { "X-Content-Type-Options" = "nosniff" }"#,
        "",
    ))
    .await;
    let reply = weir_testkit::client::get(gateway.addr, "/status/404").await;
    assert_eq!(reply.status, StatusCode::NOT_FOUND);
    assert_eq!(reply.header("x-frame-options"), None);
    assert_eq!(reply.header("x-content-type-options"), Some("nosniff"));
    let reply = weir_testkit::client::get(gateway.addr, "/status/201").await;
    assert_eq!(reply.header("x-frame-options"), Some("DENY"));
}

#[tokio::test]
async fn a_hosts_rules_apply_to_its_routes_and_to_its_unrouted_requests() {
    let upstream = UpstreamServer::start(Transport::Tcp).await;
    let toml = format!(
        r#"
[server]
listen = ["127.0.0.1:0"]
[upstreams.app]
servers = ["{}"]

[[hosts]]
name = "site.test"
request_headers = {{ "X-Server" = "$server_name", "X-Forwarded-Host" = "" }}
response_headers_always = {{ "Strict-Transport-Security" = "max-age=60", "X-Host-Only" = "1" }}

[[routes]]
host = "site.test"
path = "/headers"
upstream = "app"
response_headers = {{ "X-Route" = "1" }}
response_headers_always = {{ "X-Host-Only" = "" }}

[[routes]]
host = "other.test"
path = "/"
upstream = "app"
"#,
        upstream.address
    );
    let gateway = TestGateway::start(&toml).await;
    let mut client = Client::connect(gateway.addr).await;
    let send = |path: &str, host: &str| {
        Request::get(path)
            .header("host", host)
            .header("x-forwarded-host", "evil.example")
            .body(Default::default())
            .unwrap()
    };
    let routed = client
        .send(send("/headers", "Site.Test:8080"))
        .await
        .unwrap();
    let text = routed.text();
    assert!(text.contains("x-server: site.test\n"), "{text}");
    assert!(!text.contains("x-forwarded-host"), "{text}");
    assert_eq!(
        routed.header("strict-transport-security"),
        Some("max-age=60")
    );
    assert_eq!(routed.header("x-route"), Some("1"));
    assert_eq!(
        routed.header("x-host-only"),
        None,
        "cancelled by the route's \"\""
    );
    // No route of site.test matches: weir's 404 still carries the host's `always` headers.
    let unrouted = client.send(send("/elsewhere", "site.test")).await.unwrap();
    assert_eq!(unrouted.status, StatusCode::NOT_FOUND);
    assert_eq!(
        unrouted.header("strict-transport-security"),
        Some("max-age=60")
    );
    // Another host's request gets none of them.
    let other = client.send(send("/headers", "other.test")).await.unwrap();
    assert_eq!(other.header("strict-transport-security"), None);
    assert!(other.text().contains("x-forwarded-host: evil.example\n"));
}

/// The same rules in nginx and weir, the same requests: which headers the upstream and the
/// client see.
#[tokio::test]
async fn headers_match_nginx_on_the_same_requests() {
    if !differential_enabled() {
        return;
    }
    let upstream = UpstreamServer::start(Transport::Tcp).await;
    let nginx = Nginx::start(
        "",
        &format!(
            r#"        location / {{
            proxy_set_header X-Forwarded-Host "";
            proxy_set_header X-Forwarded-Prefix "";
            proxy_set_header X-Forwarded-For $remote_addr;
            proxy_hide_header X-Upstream;
            add_header X-Frame-Options DENY;
            add_header X-Content-Type-Options nosniff always;
            proxy_pass http://{};
        }}"#,
            upstream.address
        ),
    )
    .expect("nginx starts");
    let gateway = TestGateway::start(&with_route(
        &upstream.address,
        r#"request_headers = { "X-Forwarded-Host" = "", "X-Forwarded-Prefix" = "" }
forwarded_for = "replace"
hide_response_headers = ["X-Upstream"]
response_headers = { "X-Frame-Options" = "DENY" }
response_headers_always = { "X-Content-Type-Options" = "nosniff" }"#,
        "",
    ))
    .await;
    // The headers in question, sorted: the two put them in different orders.
    let interesting = |text: &str| -> Vec<String> {
        let mut lines: Vec<String> = text
            .lines()
            .filter(|line| {
                [
                    "x-forwarded-host",
                    "x-forwarded-prefix",
                    "x-forwarded-for",
                    "x-tag",
                ]
                .iter()
                .any(|name| line.starts_with(name))
            })
            .map(str::to_string)
            .collect();
        lines.sort();
        lines
    };
    let nginx_seen = interesting(&seen_upstream(nginx.addr, FORGED).await);
    let weir_seen = interesting(&seen_upstream(gateway.addr, FORGED).await);
    assert_eq!(weir_seen, nginx_seen, "nginx logs: {}", nginx.logs());
    assert!(nginx_seen.contains(&"x-forwarded-for: 127.0.0.1".to_string()));

    for path in ["/", "/status/404", "/status/201", "/status/500"] {
        let view = |reply: &weir_testkit::client::Reply| {
            (
                reply.status,
                reply.header("x-frame-options").map(str::to_string),
                reply.header("x-content-type-options").map(str::to_string),
                reply.header("x-upstream").map(str::to_string),
            )
        };
        let from_nginx = view(&weir_testkit::client::get(nginx.addr, path).await);
        let from_weir = view(&weir_testkit::client::get(gateway.addr, path).await);
        assert_eq!(from_weir, from_nginx, "{path}");
    }
}

/// `$server_port`, `$remote_port`, `$https` and `$msec` in request header values
/// (`X-Forwarded-Port`, `X-Forwarded-Host $host:$server_port`, and the `X-Request-Start:
/// t=${msec}` that APM agents read the time a request queued from): the listener's port, the
/// client's, nothing on a plain listener (so no header), the time to the millisecond. With
/// `WEIR_E2E=1`, nginx with the same `proxy_set_header`s sends the same, its own port aside.
#[tokio::test]
async fn ports_https_and_the_time_are_sent_as_nginx_sends_them() {
    const HEADERS: [(&str, &str); 5] = [
        ("X-Forwarded-Port", "$server_port"),
        ("X-Forwarded-Host", "$host:$server_port"),
        ("X-Real-Port", "$remote_port"),
        ("X-Forwarded-Ssl", "$https"),
        ("X-Request-Start", "t=${msec}"),
    ];
    /// What the app saw of the headers, the time sent checked and cut to `t=T`.
    async fn seen(addr: std::net::SocketAddr) -> Vec<String> {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
        let client_port = stream.local_addr().unwrap().port();
        stream
            .write_all(b"GET /headers HTTP/1.1\r\nHost: a.test\r\nX-Forwarded-Ssl: on\r\nConnection: close\r\n\r\n")
            .await
            .unwrap();
        let mut answer = String::new();
        stream.read_to_string(&mut answer).await.unwrap();
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_secs_f64();
        let mut lines: Vec<String> = answer
            .lines()
            .filter(|line| {
                HEADERS
                    .iter()
                    .any(|(name, _)| line.starts_with(&format!("{}:", name.to_ascii_lowercase())))
            })
            .map(|line| match line.strip_prefix("x-request-start: t=") {
                Some(time) => {
                    let (seconds, millis) = time.split_once('.').unwrap();
                    let sent: f64 = time.parse().unwrap();
                    assert!(millis.len() == 3 && !seconds.is_empty(), "{line}");
                    assert!((now - sent).abs() < 60.0, "{line} at {now}");
                    "x-request-start: t=T".to_string()
                }
                None => line.replace(&client_port.to_string(), "CLIENT"),
            })
            .collect();
        lines.sort();
        lines
    }
    let expected = |port: u16| {
        vec![
            format!("x-forwarded-host: a.test:{port}"),
            format!("x-forwarded-port: {port}"),
            "x-real-port: CLIENT".to_string(),
            "x-request-start: t=T".to_string(),
        ]
    };
    let upstream = UpstreamServer::start(Transport::Tcp).await;
    let keys: Vec<String> = HEADERS
        .iter()
        .map(|(name, value)| format!("\"{name}\" = \"{value}\""))
        .collect();
    let gateway = TestGateway::start(&with_route(
        &upstream.address,
        &format!("request_headers = {{ {} }}", keys.join(", ")),
        "",
    ))
    .await;
    // The client's own X-Forwarded-Ssl is replaced, and `$https` is empty on plain HTTP: none.
    assert_eq!(seen(gateway.addr).await, expected(gateway.addr.port()));

    if !differential_enabled() {
        return;
    }
    let directives: String = HEADERS
        .iter()
        .map(|(name, value)| format!("            proxy_set_header {name} \"{value}\";\n"))
        .collect();
    let nginx = Nginx::start(
        "",
        &format!(
            "        location / {{\n{directives}            proxy_pass http://{};\n        }}",
            upstream.address
        ),
    )
    .expect("nginx starts");
    assert_eq!(
        seen(nginx.addr).await,
        expected(nginx.addr.port()),
        "{}",
        nginx.logs()
    );
}

/// `answer_options` (nginx's CORS preflight, `if ($request_method = OPTIONS) { add_header ...;
/// return 204; }`): an `OPTIONS` request gets weir's 204 with the headers, `$http_origin`
/// filled in, before `methods` and without reaching the app or taking the route's
/// `response_headers`; any other method goes on as before. With `WEIR_E2E=1`, nginx answers
/// both the same.
#[tokio::test]
async fn options_are_answered_as_nginx_answers_a_preflight() {
    let upstream = UpstreamServer::start(Transport::Tcp).await;
    let gateway = TestGateway::start(&with_route(
        &upstream.address,
        r#"methods = ["GET", "POST"]
response_headers = { "X-Frame-Options" = "DENY" }
answer_options = { status = 204, headers = { "Access-Control-Allow-Origin" = "$http_origin", "Access-Control-Allow-Methods" = "GET, POST, OPTIONS", "Access-Control-Max-Age" = "1728000" } }"#,
        "",
    ))
    .await;
    /// The answers to a preflight and to a GET: status and the headers in question.
    async fn asked(addr: std::net::SocketAddr) -> Vec<(StatusCode, Vec<Option<String>>)> {
        let mut client = Client::connect(addr).await;
        let mut answers = Vec::new();
        for method in [http::Method::OPTIONS, http::Method::GET] {
            let request = Request::builder()
                .method(method)
                .uri("/status/200")
                .header("origin", "https://app.example")
                .header("access-control-request-method", "POST")
                .body(Default::default())
                .unwrap();
            let reply = client.send(request).await.unwrap();
            let seen = [
                "access-control-allow-origin",
                "access-control-allow-methods",
                "access-control-max-age",
                "x-frame-options",
            ]
            .map(|name| reply.header(name).map(str::to_string));
            answers.push((reply.status, seen.to_vec()));
        }
        answers
    }
    let some = |text: &str| Some(text.to_string());
    let expected = vec![
        (
            StatusCode::NO_CONTENT,
            vec![
                some("https://app.example"),
                some("GET, POST, OPTIONS"),
                some("1728000"),
                None,
            ],
        ),
        (StatusCode::OK, vec![None, None, None, some("DENY")]),
    ];
    assert_eq!(asked(gateway.addr).await, expected);
    assert_eq!(
        upstream.requests(),
        1,
        "the preflight never reached the app"
    );

    if !differential_enabled() {
        return;
    }
    let nginx = Nginx::start(
        "",
        &format!(
            r#"        location / {{
            add_header X-Frame-Options DENY;
            if ($request_method = OPTIONS) {{
                add_header Access-Control-Allow-Origin $http_origin;
                add_header Access-Control-Allow-Methods "GET, POST, OPTIONS";
                add_header Access-Control-Max-Age 1728000;
                return 204;
            }}
            proxy_pass http://{};
        }}"#,
            upstream.address
        ),
    )
    .expect("nginx starts");
    assert_eq!(asked(nginx.addr).await, expected, "{}", nginx.logs());
    assert_eq!(
        upstream.requests(),
        2,
        "nginx's preflight never reached the app"
    );
}

/// `[maps.NAME]` (nginx `map $http_origin $cors_origin { ... }`, a CORS allowlist): the
/// `Origin` echoed for the origins listed (a string whatever its case, then the regexes), no
/// header for any other; a map with a default, as a request header the app reads. nginx with the
/// same maps answers and sends the same (`WEIR_E2E=1`).
#[tokio::test]
async fn maps_choose_a_value_by_a_request_value_as_nginxs_maps() {
    let upstream = UpstreamServer::start(Transport::Tcp).await;
    let gateway = TestGateway::start(&with_route(
        &upstream.address,
        r#"response_headers_always = { "Access-Control-Allow-Origin" = "$cors_origin" }
request_headers = { "X-Foreign-Origin" = "$foreign_origin" }"#,
        r#"
[maps.cors_origin]
source = "$http_origin"
entries = [
  { equals = "https://App.Example.org", value = "$http_origin" },
  { matches = "^https://(www\\.)?example\\.com$", value = "$http_origin" },
]

[maps.foreign_origin]
source = "$http_origin"
default = "1"
entries = [{ equals = "", value = "0" }, { equals = "https://example.com", value = "0" }]
"#,
    ))
    .await;
    const ORIGINS: [Option<&str>; 5] = [
        Some("https://www.example.com"),
        Some("https://app.example.ORG"),
        Some("https://example.com"),
        Some("https://evil.test"),
        None,
    ];
    /// For each origin: the answer's `Access-Control-Allow-Origin` and what the app saw.
    async fn asked(addr: std::net::SocketAddr) -> Vec<(Option<String>, Option<String>)> {
        let mut seen = Vec::new();
        for origin in ORIGINS {
            let mut request = Request::get("/headers");
            if let Some(origin) = origin {
                request = request.header("origin", origin);
            }
            let reply = Client::connect(addr)
                .await
                .send(request.body(Default::default()).unwrap())
                .await
                .unwrap();
            let foreign = reply
                .text()
                .lines()
                .find_map(|line| line.strip_prefix("x-foreign-origin: "))
                .map(str::to_string);
            seen.push((
                reply
                    .header("access-control-allow-origin")
                    .map(str::to_string),
                foreign,
            ));
        }
        seen
    }
    let some = |text: &str| Some(text.to_string());
    let expected = vec![
        (some("https://www.example.com"), some("1")),
        (some("https://app.example.ORG"), some("1")),
        (some("https://example.com"), some("0")),
        (None, some("1")),
        (None, some("0")),
    ];
    assert_eq!(asked(gateway.addr).await, expected);

    if !differential_enabled() {
        return;
    }
    let nginx = Nginx::start(
        r#"    map $http_origin $cors_origin {
        "https://App.Example.org" $http_origin;
        "~^https://(www\.)?example\.com$" $http_origin;
    }
    map $http_origin $foreign_origin {
        default 1;
        "" 0;
        "https://example.com" 0;
    }
"#,
        &format!(
            "        location / {{\n            add_header Access-Control-Allow-Origin $cors_origin always;\n            proxy_set_header X-Foreign-Origin $foreign_origin;\n            proxy_pass http://{};\n        }}",
            upstream.address
        ),
    )
    .expect("nginx starts");
    assert_eq!(asked(nginx.addr).await, expected, "{}", nginx.logs());
}

/// `charset` (nginx `charset`): added to a `Content-Type` of `text/html` or a `charset_types`
/// type (`"*"`: any) that names no charset, not to a 301 or 302; `"off"` cancels the host's; a
/// static file gets it too. The same answers from nginx with the same directives (`WEIR_E2E=1`).
#[tokio::test]
async fn charset_is_added_to_the_types_that_name_none_as_nginx_adds_it() {
    let upstream = UpstreamServer::start(Transport::Tcp).await;
    let files = tempfile::tempdir().unwrap();
    std::fs::write(files.path().join("index.html"), "<p>hi</p>").unwrap();
    std::fs::write(files.path().join("notes.txt"), "notes").unwrap();
    let gateway = TestGateway::start(&format!(
        r#"
[server]
listen = ["127.0.0.1:0"]
[upstreams.app]
servers = ["{upstream}"]
[[hosts]]
name = "app.test"
charset = "utf-8"
[[routes]]
host = "app.test"
path = "/"
upstream = "app"
[[routes]]
host = "app.test"
path = "/css/"
upstream = "app"
upstream_path = "/"
charset = "iso-8859-1"
charset_types = ["text/css"]
[[routes]]
host = "app.test"
path = "/off/"
upstream = "app"
upstream_path = "/"
charset = "off"
[[routes]]
host = "app.test"
path = "/any/"
upstream = "app"
upstream_path = "/"
charset_types = ["*"]
[[routes]]
host = "app.test"
path = "/files/"
static = "{files}"
"#,
        upstream = upstream.address,
        files = files.path().display(),
    ))
    .await;
    // The path asked for, and the `Content-Type` the client gets.
    let cases: &[(&str, Option<&str>)] = &[
        ("/typed?type=text/html", Some("text/html; charset=utf-8")),
        ("/typed?type=Text/HTML", Some("Text/HTML; charset=utf-8")),
        ("/typed?type=text/plain", Some("text/plain; charset=utf-8")),
        (
            "/typed?type=application/javascript",
            Some("application/javascript; charset=utf-8"),
        ),
        ("/typed?type=text/css", Some("text/css")),
        ("/typed?type=application/json", Some("application/json")),
        (
            "/typed?type=text/html;%20charset=koi8-r",
            Some("text/html; charset=koi8-r"),
        ),
        ("/typed?type=text/html;%20q=1", Some("text/html; q=1")),
        (
            "/typed?type=text/html&status=404",
            Some("text/html; charset=utf-8"),
        ),
        ("/typed?type=text/html&status=301", Some("text/html")),
        ("/typed?type=text/html&status=302", Some("text/html")),
        (
            "/typed?type=text/html&status=303",
            Some("text/html; charset=utf-8"),
        ),
        (
            "/css/typed?type=text/css",
            Some("text/css; charset=iso-8859-1"),
        ),
        (
            "/css/typed?type=text/html",
            Some("text/html; charset=iso-8859-1"),
        ),
        ("/css/typed?type=text/plain", Some("text/plain")),
        ("/off/typed?type=text/html", Some("text/html")),
        (
            "/any/typed?type=application/json",
            Some("application/json; charset=utf-8"),
        ),
        (
            "/any/typed?type=text/html;%20q=1",
            Some("text/html; q=1; charset=utf-8"),
        ),
        (
            "/any/typed?type=text/html;%20Charset=koi8-r",
            Some("text/html; Charset=koi8-r"),
        ),
        ("/files/index.html", Some("text/html; charset=utf-8")),
        ("/files/notes.txt", Some("text/plain; charset=utf-8")),
    ];
    let content_types = |addr: std::net::SocketAddr| async move {
        let mut client = Client::connect(addr).await;
        let mut seen = Vec::new();
        for (path, _) in cases {
            let reply = client
                .send(get_with(Some("app.test"), path, None))
                .await
                .unwrap();
            seen.push((*path, reply.header("content-type").map(str::to_string)));
        }
        seen
    };
    let expected: Vec<(&str, Option<String>)> = cases
        .iter()
        .map(|(path, content_type)| (*path, content_type.map(str::to_string)))
        .collect();
    assert_eq!(content_types(gateway.addr).await, expected);

    if !differential_enabled() {
        return;
    }
    let nginx = Nginx::start(
        "",
        &format!(
            r#"        charset utf-8;
        location / {{ proxy_pass http://{upstream}; }}
        location /css/ {{
            charset iso-8859-1;
            charset_types text/css;
            proxy_pass http://{upstream}/;
        }}
        location /off/ {{ charset off; proxy_pass http://{upstream}/; }}
        location /any/ {{ charset_types *; proxy_pass http://{upstream}/; }}
        location /files/ {{ alias {files}/; }}"#,
            upstream = upstream.address,
            files = files.path().display(),
        ),
    )
    .expect("nginx starts");
    assert_eq!(
        content_types(nginx.addr).await,
        expected,
        "nginx logs: {}",
        nginx.logs()
    );
}

/// `cookie_flags` (nginx `proxy_cookie_flags ~ ...`) on every `Set-Cookie` of the app's answers:
/// a flag a cookie lacks is added, one it has stays, a `SameSite` it has takes the flag's value,
/// `no...` takes one off; a route's list replaces its host's, and `[]` sets none. The same
/// cookies from nginx with the same directives (`WEIR_E2E=1`).
#[tokio::test]
async fn cookie_flags_are_set_on_the_apps_cookies_as_nginx_sets_them() {
    let upstream = UpstreamServer::start(Transport::Tcp).await;
    let gateway = TestGateway::start(&format!(
        r#"
[server]
listen = ["127.0.0.1:0"]
[upstreams.app]
servers = ["{upstream}"]
[[hosts]]
name = "app.test"
cookie_flags = ["secure", "httponly", "samesite=lax"]
[[routes]]
host = "app.test"
path = "/"
upstream = "app"
[[routes]]
host = "app.test"
path = "/strict/"
upstream = "app"
upstream_path = "/"
cookie_flags = ["samesite=strict", "nohttponly"]
[[routes]]
host = "app.test"
path = "/off/"
upstream = "app"
upstream_path = "/"
cookie_flags = []
"#,
        upstream = upstream.address,
    ))
    .await;
    let cases: &[(&str, &[&str])] = &[
        (
            "/cookie?set=a%3D1",
            &["a=1; Secure; HttpOnly; SameSite=Lax"],
        ),
        (
            "/cookie?set=a%3D1%3B%20Path%3D%2F%3B%20Secure",
            &["a=1; Path=/; Secure; HttpOnly; SameSite=Lax"],
        ),
        (
            "/cookie?set=a%3D1%3B%20SameSite%3DNone%3B%20Path%3D%2F",
            &["a=1; SameSite=Lax; Path=/; Secure; HttpOnly"],
        ),
        (
            "/cookie?set=a%3D1&also=b%3D2%3B%20HttpOnly",
            &[
                "a=1; Secure; HttpOnly; SameSite=Lax",
                "b=2; HttpOnly; Secure; SameSite=Lax",
            ],
        ),
        (
            "/strict/cookie?set=a%3D1%3B%20HttpOnly%3B%20Max-Age%3D60",
            &["a=1; Max-Age=60; SameSite=Strict"],
        ),
        ("/off/cookie?set=a%3D1%3B%20path%3D%2F", &["a=1; path=/"]),
        ("/headers", &[]),
    ];
    let cookies = |addr: std::net::SocketAddr| async move {
        let mut client = Client::connect(addr).await;
        let mut seen = Vec::new();
        for (path, _) in cases {
            let reply = client
                .send(get_with(Some("app.test"), path, None))
                .await
                .unwrap();
            let set: Vec<String> = reply
                .headers
                .get_all("set-cookie")
                .iter()
                .map(|value| value.to_str().unwrap().to_string())
                .collect();
            seen.push((*path, set));
        }
        seen
    };
    let expected: Vec<(&str, Vec<String>)> = cases
        .iter()
        .map(|(path, set)| (*path, set.iter().map(|cookie| cookie.to_string()).collect()))
        .collect();
    assert_eq!(cookies(gateway.addr).await, expected);

    if !differential_enabled() {
        return;
    }
    let nginx = Nginx::start(
        "",
        &format!(
            r#"        proxy_cookie_flags ~ secure httponly samesite=lax;
        location / {{ proxy_pass http://{upstream}; }}
        location /strict/ {{
            proxy_cookie_flags ~ samesite=strict nohttponly;
            proxy_pass http://{upstream}/;
        }}
        location /off/ {{ proxy_cookie_flags off; proxy_pass http://{upstream}/; }}"#,
            upstream = upstream.address,
        ),
    )
    .expect("nginx starts");
    assert_eq!(
        cookies(nginx.addr).await,
        expected,
        "nginx logs: {}",
        nginx.logs()
    );
}

#[tokio::test]
async fn headers_by_type_take_the_first_entry_that_matches_as_nginx_maps_do() {
    let upstream = UpstreamServer::start(Transport::Tcp).await;
    let gateway = TestGateway::start(&format!(
        r#"
[server]
listen = ["127.0.0.1:0"]
[upstreams.app]
servers = ["{upstream}"]
[[hosts]]
name = "app.test"
response_headers_by_type = [
  {{ header = "X-Frame-Options", types = ["text/html"], value = "DENY", always = true }},
  {{ header = "Cache-Control", types = [""], value = "no-store" }},
  {{ header = "Cache-Control", types = ["image/svg+xml"], value = "max-age=60" }},
  {{ header = "Cache-Control", types = ["image/", "font/"], value = "max-age=600" }},
  {{ header = "Cache-Control", types = ["text/html", "json"], value = "" }},
  {{ header = "Cache-Control", types = ["*"], value = "max-age=3600" }},
]
[[routes]]
host = "app.test"
path = "/"
upstream = "app"
[[routes]]
host = "app.test"
path = "/plain/"
upstream = "app"
upstream_path = "/"
response_headers = {{ "Cache-Control" = "private" }}
"#,
        upstream = upstream.address,
    ))
    .await;
    // A path, and the X-Frame-Options and Cache-Control of its answer.
    let cases: &[(&str, Option<&str>, Option<&str>)] = &[
        (
            "/typed?type=text/html%3B%20charset%3Dutf-8",
            Some("DENY"),
            None,
        ),
        ("/typed?type=Text/HTML&status=404", Some("DENY"), None),
        ("/typed?type=image/svg%2Bxml", None, Some("max-age=60")),
        ("/typed?type=image/png", None, Some("max-age=600")),
        ("/typed?type=font/woff2&status=404", None, None),
        ("/typed?type=application/ld%2Bjson", None, None),
        ("/typed?type=text/css", None, Some("max-age=3600")),
        ("/typed", None, Some("no-store")),
        ("/plain/typed?type=text/html", Some("DENY"), Some("private")),
        ("/plain/typed?type=image/png", None, Some("private")),
    ];
    let seen = |addr: std::net::SocketAddr| async move {
        let mut client = Client::connect(addr).await;
        let mut seen = Vec::new();
        for (path, _, _) in cases {
            let reply = client
                .send(get_with(Some("app.test"), path, None))
                .await
                .unwrap();
            seen.push((
                *path,
                header_list(&reply, "x-frame-options"),
                header_list(&reply, "cache-control"),
            ));
        }
        seen
    };
    let expected: Vec<(&str, Option<String>, Option<String>)> = cases
        .iter()
        .map(|(path, frame, cache)| (*path, frame.map(str::to_string), cache.map(str::to_string)))
        .collect();
    assert_eq!(seen(gateway.addr).await, expected);

    if !differential_enabled() {
        return;
    }
    let nginx = Nginx::start(
        r#"    map $sent_http_content_type $frame { ~*text/html DENY; }
    map $sent_http_content_type $cache {
        "" no-store;
        ~*image/svg\+xml max-age=60;
        ~*image/|font/ max-age=600;
        ~*text/html|json "";
        default max-age=3600;
    }"#,
        &format!(
            r#"        add_header X-Frame-Options $frame always;
        add_header Cache-Control $cache;
        location / {{ proxy_pass http://{upstream}; }}
        location /plain/ {{
            add_header X-Frame-Options $frame always;
            add_header Cache-Control private;
            proxy_pass http://{upstream}/;
        }}"#,
            upstream = upstream.address,
        ),
    )
    .expect("nginx starts");
    assert_eq!(
        seen(nginx.addr).await,
        expected,
        "nginx logs: {}",
        nginx.logs()
    );
}

#[tokio::test]
async fn location_rewrites_edit_the_apps_redirects_as_nginxs_proxy_redirect() {
    let upstream = UpstreamServer::start(Transport::Tcp).await;
    let gateway = TestGateway::start(&format!(
        r#"
[server]
listen = ["127.0.0.1:0"]
[upstreams.app]
servers = ["{upstream}"]
[[routes]]
path = "/app/"
upstream = "app"
upstream_path = "/"
request_headers = {{ Host = "backend:8000" }}
location_rewrites = {{ "http://backend:8000/" = "/app/" }}
[[routes]]
path = "/other/"
upstream = "app"
upstream_path = "/"
location_rewrites = {{ "http://backend/" = "https://$host/", "http://backend/deep/" = "/deeper/" }}
[[routes]]
path = "/"
upstream = "app"
"#,
        upstream = upstream.address,
    ))
    .await;
    // A path, and the Location and Refresh of its answer.
    let cases: &[(&str, &str, Option<&str>)] = &[
        // The app builds its URL from the Host it was sent, as Django and FastAPI do.
        ("/app/moved?path=/items/", "/app/items/", None),
        ("/app/moved?to=http%3A%2F%2Felsewhere%2Fx", "http://elsewhere/x", None),
        ("/other/moved?to=http%3A%2F%2Fbackend%2Fdeep%2Fa", "/deeper/a", None),
        (
            "/other/moved?to=http%3A%2F%2Fbackend%2Fa&refresh=3%3B%20URL%3Dhttp%3A%2F%2Fbackend%2Fb",
            "https://app.test/a",
            Some("3; URL=https://app.test/b"),
        ),
        ("/moved?path=/x", "http://app.test/x", None),
    ];
    let seen = |addr: std::net::SocketAddr| async move {
        let mut client = Client::connect(addr).await;
        let mut seen = Vec::new();
        for (path, _, _) in cases {
            let reply = client
                .send(get_with(Some("app.test"), path, None))
                .await
                .unwrap();
            seen.push((
                *path,
                header_list(&reply, "location"),
                header_list(&reply, "refresh"),
            ));
        }
        seen
    };
    let expected: Vec<(&str, Option<String>, Option<String>)> = cases
        .iter()
        .map(|(path, location, refresh)| {
            (
                *path,
                Some(location.to_string()),
                refresh.map(str::to_string),
            )
        })
        .collect();
    assert_eq!(seen(gateway.addr).await, expected);

    if !differential_enabled() {
        return;
    }
    // nginx writes a path it put in Location as an absolute URL unless absolute_redirect is
    // off; weir leaves it a path, which a client reads against the URL it asked.
    let nginx = Nginx::start(
        "",
        &format!(
            r#"        absolute_redirect off;
        location /app/ {{
            proxy_set_header Host backend:8000;
            proxy_pass http://{upstream}/;
            proxy_redirect http://backend:8000/ /app/;
        }}
        location /other/ {{
            proxy_pass http://{upstream}/;
            proxy_redirect http://backend/deep/ /deeper/;
            proxy_redirect http://backend/ https://$host/;
        }}
        location / {{ proxy_set_header Host $host; proxy_pass http://{upstream}; }}"#,
            upstream = upstream.address,
        ),
    )
    .expect("nginx starts");
    assert_eq!(
        seen(nginx.addr).await,
        expected,
        "nginx logs: {}",
        nginx.logs()
    );
}

#[tokio::test]
async fn expires_sets_expires_and_cache_control_as_nginx_does() {
    let upstream = UpstreamServer::start(Transport::Tcp).await;
    let gateway = TestGateway::start(&format!(
        r#"
[server]
listen = ["127.0.0.1:0"]
[upstreams.app]
servers = ["{upstream}"]
[[hosts]]
name = "app.test"
expires = "1h"
[[routes]]
host = "app.test"
path = "/"
upstream = "app"
[[routes]]
host = "app.test"
path = "/static/"
upstream = "app"
upstream_path = "/"
expires = "30d"
response_headers = {{ "Cache-Control" = "max-age=2592000, public" }}
[[routes]]
host = "app.test"
path = "/epoch/"
upstream = "app"
upstream_path = "/"
expires = "epoch"
[[routes]]
host = "app.test"
path = "/max/"
upstream = "app"
upstream_path = "/"
expires = "max"
[[routes]]
host = "app.test"
path = "/past/"
upstream = "app"
upstream_path = "/"
expires = "-1"
[[routes]]
host = "app.test"
path = "/off/"
upstream = "app"
upstream_path = "/"
expires = "off"
"#,
        upstream = upstream.address,
    ))
    .await;
    // A path, its Cache-Control, and its Expires: seconds after the answer's Date, or a date.
    let cases: &[(&str, Option<&str>, Option<&str>)] = &[
        ("/", Some("max-age=3600"), Some("+3600")),
        ("/status/404", None, None),
        (
            "/static/x",
            Some("max-age=2592000, public"),
            Some("+2592000"),
        ),
        (
            "/epoch/",
            Some("no-cache"),
            Some("Thu, 01 Jan 1970 00:00:01 GMT"),
        ),
        (
            "/max/",
            Some("max-age=315360000"),
            Some("Thu, 31 Dec 2037 23:55:55 GMT"),
        ),
        ("/past/", Some("no-cache"), Some("-1")),
        ("/off/", None, None),
    ];
    let seen = |addr: std::net::SocketAddr| async move {
        let mut client = Client::connect(addr).await;
        let mut seen = Vec::new();
        for (path, _, _) in cases {
            let reply = client
                .send(get_with(Some("app.test"), path, None))
                .await
                .unwrap();
            let header = |name: &str| header_list(&reply, name);
            // A date within a second of `Date` plus a whole number of seconds is that offset
            // (the two are read from the clock apart).
            let expires = header("expires").map(|expires| {
                let date = httpdate::parse_http_date(&header("date").unwrap()).unwrap();
                let at = httpdate::parse_http_date(&expires).unwrap();
                let offset = match at.duration_since(date) {
                    Ok(after) => after.as_secs() as i64,
                    Err(before) => -(before.duration().as_secs() as i64),
                };
                let wanted = cases
                    .iter()
                    .find(|case| case.0 == *path)
                    .and_then(|case| case.2)
                    .and_then(|text| text.parse::<i64>().ok());
                match wanted {
                    Some(wanted) if (offset - wanted).abs() <= 1 => format!("{wanted:+}"),
                    Some(_) | None if expires.contains("GMT") && wanted.is_none() => expires,
                    _ => format!("{offset:+} ({expires})"),
                }
            });
            seen.push((*path, header("cache-control"), expires));
        }
        seen
    };
    let expected: Vec<(&str, Option<String>, Option<String>)> = cases
        .iter()
        .map(|(path, cache, expires)| {
            (
                *path,
                cache.map(str::to_string),
                expires.map(str::to_string),
            )
        })
        .collect();
    assert_eq!(seen(gateway.addr).await, expected);

    if !differential_enabled() {
        return;
    }
    let nginx = Nginx::start(
        "",
        &format!(
            r#"        expires 1h;
        location / {{ proxy_pass http://{upstream}; }}
        location /static/ {{ expires 30d; add_header Cache-Control public; proxy_pass http://{upstream}/; }}
        location /epoch/ {{ expires epoch; proxy_pass http://{upstream}/; }}
        location /max/ {{ expires max; proxy_pass http://{upstream}/; }}
        location /past/ {{ expires -1; proxy_pass http://{upstream}/; }}
        location /off/ {{ expires off; proxy_pass http://{upstream}/; }}"#,
            upstream = upstream.address,
        ),
    )
    .expect("nginx starts");
    assert_eq!(
        seen(nginx.addr).await,
        expected,
        "nginx logs: {}",
        nginx.logs()
    );
}

/// `$request_id` (nginx's): one id per request, 32 hex digits, the same in the header the app
/// gets and the one the client gets (a client's own `X-Request-ID` replaced), a new one for each
/// request, on an error answer too with `response_headers_always`. With `WEIR_E2E=1`, nginx with
/// `proxy_set_header X-Request-ID $request_id` and `add_header ... always` does the same.
#[tokio::test]
async fn request_id_is_one_per_request_for_the_app_and_the_client_as_nginxs() {
    let upstream = UpstreamServer::start(Transport::Tcp).await;
    let gateway = TestGateway::start(&with_route(
        &upstream.address,
        r#"request_headers = { "X-Request-ID" = "$request_id" }
response_headers_always = { "X-Request-ID" = "$request_id", "X-Trace" = "id=${request_id}" }"#,
        "",
    ))
    .await;
    let ids = |addr| async move {
        let mut ids = Vec::new();
        for path in ["/headers", "/headers", "/status/502"] {
            let request = Request::get(path)
                .header("x-request-id", "forged-by-the-client")
                .header(weir_testkit::upstream::ECHO, "1")
                .body(Default::default())
                .unwrap();
            let reply = Client::connect(addr).await.send(request).await.unwrap();
            let answered = reply.header("x-request-id").unwrap_or_default().to_string();
            assert_eq!(answered.len(), 32, "{path}: {answered:?}");
            assert!(
                answered.bytes().all(|byte| byte.is_ascii_hexdigit()),
                "{answered}"
            );
            assert_eq!(
                reply.header("x-trace"),
                Some(format!("id={answered}").as_str()),
                "{path}"
            );
            // What the app got: the same id, not the client's.
            assert_eq!(
                reply.header("x-request-x-request-id"),
                Some(answered.as_str()),
                "{path}"
            );
            ids.push(answered);
        }
        ids
    };
    let from_weir = ids(gateway.addr).await;
    assert!(from_weir[0] != from_weir[1] && from_weir[1] != from_weir[2]);

    if !differential_enabled() {
        return;
    }
    let nginx = Nginx::start(
        "",
        &format!(
            r#"        location / {{
            proxy_set_header X-Request-ID $request_id;
            add_header X-Request-ID $request_id always;
            add_header X-Trace id=$request_id always;
            proxy_pass http://{};
        }}"#,
            upstream.address
        ),
    )
    .expect("nginx starts");
    let from_nginx = ids(nginx.addr).await;
    assert!(from_nginx[0] != from_nginx[1] && from_nginx[1] != from_nginx[2]);
}
