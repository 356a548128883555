//! Error pages (nginx `error_page CODE /file.html` with the file's `location`, and
//! `proxy_intercept_errors`): an error weir answers itself (a 502 with the app down, a 429, a
//! `status` route's 404) carries the route's or its host's page, with its own status and headers;
//! the upstream's own errors pass as they are unless `intercept_errors`; a reload reads the page
//! again.

use crate::support::*;
use weir_testkit::client::get;

/// A page file in `dir`, with `text`.
fn page(dir: &tempfile::TempDir, name: &str, text: &str) -> String {
    let path = dir.path().join(name);
    std::fs::write(&path, text).expect("write the page");
    path.display().to_string()
}

fn config(upstream: &str, route_keys: &str, extra: &str) -> String {
    format!(
        r#"
[server]
listen = ["127.0.0.1:0"]
[upstreams.app]
servers = ["{upstream}"]
[[routes]]
path = "/"
upstream = "app"
{route_keys}
{extra}
"#
    )
}

#[tokio::test]
async fn the_app_down_gets_the_routes_page_with_the_502() {
    let dir = tempfile::tempdir().unwrap();
    let file = page(&dir, "500.html", "<h1>Back soon</h1>\n");
    let dead = RefusingPort::new();
    let gateway = TestGateway::start(&config(
        &dead.address,
        &format!(r#"error_pages = {{ 502 = "{file}", 504 = "{file}" }}"#),
        "",
    ))
    .await;
    let reply = get(gateway.addr, "/").await;
    assert_eq!(reply.status, StatusCode::BAD_GATEWAY);
    assert_eq!(reply.text(), "<h1>Back soon</h1>\n");
    assert_eq!(reply.header("content-type"), Some("text/html"));
    assert_eq!(reply.header("content-length"), Some("19"));
}

#[tokio::test]
async fn the_upstreams_own_error_passes_unless_intercept_errors() {
    let dir = tempfile::tempdir().unwrap();
    let file = page(&dir, "503.html", "maintenance\n");
    let upstream = UpstreamServer::start(Transport::Tcp).await;
    let pages = format!(r#"error_pages = {{ 503 = "{file}" }}"#);

    let passing = TestGateway::start(&config(&upstream.address, &pages, "")).await;
    let reply = get(passing.addr, "/status/503").await;
    assert_eq!(reply.status, StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(reply.text(), "status 503");

    let intercepting = TestGateway::start(&config(
        &upstream.address,
        &format!("{pages}\nintercept_errors = true"),
        "",
    ))
    .await;
    let mut client = Client::connect(intercepting.addr).await;
    let reply = client.get("/status/503").await;
    assert_eq!(reply.status, StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(reply.text(), "maintenance\n");
    assert_eq!(reply.header("content-type"), Some("text/html"));
    // A status without a page, and a success, pass as the upstream sent them; the connection
    // goes on after the intercepted answer.
    let reply = client.get("/status/500").await;
    assert_eq!(
        (reply.status, reply.text().as_str()),
        (StatusCode::INTERNAL_SERVER_ERROR, "status 500")
    );
    let reply = client.get("/").await;
    assert_eq!(
        (reply.status, reply.text().as_str()),
        (StatusCode::OK, "hello")
    );
    assert_eq!(reply.header("x-upstream"), Some("testkit"));
}

#[tokio::test]
async fn a_hosts_pages_apply_beneath_the_routes_own() {
    let dir = tempfile::tempdir().unwrap();
    let host_404 = page(&dir, "404.html", "host 404\n");
    let host_502 = page(&dir, "host-502.html", "host 502\n");
    let route_502 = page(&dir, "route-502.txt", "route 502\n");
    let dead = RefusingPort::new();
    let gateway = TestGateway::start(&format!(
        r#"
[server]
listen = ["127.0.0.1:0"]
[upstreams.app]
servers = ["{}"]
[[hosts]]
name = "example.com"
error_pages = {{ 404 = "{host_404}", 502 = "{host_502}" }}
[[routes]]
host = "example.com"
path = "/app/"
upstream = "app"
error_pages = {{ 502 = "{route_502}" }}
[[routes]]
host = "example.com"
path = "/gone"
status = 404
[[routes]]
host = "example.com"
path = "/other/"
upstream = "app"
"#,
        dead.address
    ))
    .await;
    let mut client = Client::connect(gateway.addr).await;
    let ask = |path: &str| {
        Request::get(path)
            .header("host", "example.com")
            .body(Default::default())
            .unwrap()
    };
    let reply = client.send(ask("/app/")).await.unwrap();
    assert_eq!(reply.status, StatusCode::BAD_GATEWAY);
    assert_eq!(reply.text(), "route 502\n");
    assert_eq!(reply.header("content-type"), Some("text/plain"));
    let reply = client.send(ask("/other/")).await.unwrap();
    assert_eq!(
        (reply.status, reply.text().as_str()),
        (StatusCode::BAD_GATEWAY, "host 502\n")
    );
    // A `status` route's answer is weir's own error, as nginx's `return 404` is.
    let reply = client.send(ask("/gone")).await.unwrap();
    assert_eq!(
        (reply.status, reply.text().as_str()),
        (StatusCode::NOT_FOUND, "host 404\n")
    );
    // A path no route of the host matches: the host's 404.
    let reply = client.send(ask("/nothing")).await.unwrap();
    assert_eq!(
        (reply.status, reply.text().as_str()),
        (StatusCode::NOT_FOUND, "host 404\n")
    );
    // Another host has none.
    let reply = client
        .send(
            Request::get("/")
                .header("host", "other.example")
                .body(Default::default())
                .unwrap(),
        )
        .await
        .unwrap();
    assert_eq!(
        (reply.status, reply.text().as_str()),
        (StatusCode::NOT_FOUND, "404 Not Found\n")
    );
}

#[tokio::test]
async fn a_rate_limited_request_gets_the_page_and_keeps_its_retry_after() {
    let dir = tempfile::tempdir().unwrap();
    let file = page(&dir, "429.html", "slow down\n");
    let upstream = UpstreamServer::start(Transport::Tcp).await;
    let gateway = TestGateway::start(&config(
        &upstream.address,
        &format!("limits = [\"once\"]\nerror_pages = {{ 429 = \"{file}\" }}"),
        "[limits.once]\nrate = \"1r/m\"\nstatus = 429",
    ))
    .await;
    let mut client = Client::connect(gateway.addr).await;
    assert_eq!(client.get("/").await.status, StatusCode::OK);
    let reply = client.get("/").await;
    assert_eq!(reply.status, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(reply.text(), "slow down\n");
    assert_eq!(reply.header("content-type"), Some("text/html"));
    assert!(reply.header("retry-after").is_some(), "{:?}", reply.headers);
}

#[tokio::test]
async fn a_head_request_gets_the_pages_type_and_no_body() {
    let dir = tempfile::tempdir().unwrap();
    let file = page(&dir, "500.html", "<h1>Back soon</h1>\n");
    let dead = RefusingPort::new();
    let gateway = TestGateway::start(&config(
        &dead.address,
        &format!(r#"error_pages = {{ 502 = "{file}" }}"#),
        "",
    ))
    .await;
    let mut client = Client::connect(gateway.addr).await;
    let reply = client
        .send(Request::head("/").body(Default::default()).unwrap())
        .await
        .unwrap();
    assert_eq!(reply.status, StatusCode::BAD_GATEWAY);
    assert_eq!(reply.header("content-type"), Some("text/html"));
    assert!(reply.body.is_empty());
    // The connection is still good: the body was not written after the head.
    let reply = client.get("/").await;
    assert_eq!(reply.text(), "<h1>Back soon</h1>\n");
}

#[tokio::test]
async fn a_reload_reads_the_page_again_and_a_missing_one_fails_the_reload() {
    let dir = tempfile::tempdir().unwrap();
    let file = page(&dir, "500.html", "first\n");
    let dead = RefusingPort::new();
    let toml = config(
        &dead.address,
        &format!(r#"error_pages = {{ 502 = "{file}" }}"#),
        "",
    );
    let gateway = TestGateway::start(&toml).await;
    assert_eq!(get(gateway.addr, "/").await.text(), "first\n");
    std::fs::write(&file, "second\n").unwrap();
    let parsed = weir::config::from_toml(&toml, None).unwrap();
    gateway.handle.reload(&parsed).expect("reload");
    assert_eq!(get(gateway.addr, "/").await.text(), "second\n");
    std::fs::remove_file(&file).unwrap();
    let error = gateway.handle.reload(&parsed).expect_err("a missing page");
    assert!(error.to_string().contains("500.html"), "{error}");
    assert_eq!(get(gateway.addr, "/").await.text(), "second\n");
}

/// nginx and weir with the same error pages, side by side (`WEIR_E2E=1`): the app down (502, the
/// page of `location = /50x.html`), a limit's refusal (503, nginx's default status), the app's
/// own 503 intercepted and its 500 passed, a static route's missing file (404): the same status,
/// body and type from both.
#[tokio::test]
async fn error_pages_answer_as_nginx_does() {
    if !(std::env::var("WEIR_E2E").is_ok_and(|value| value == "1")
        && weir_testkit::nginx::available())
    {
        eprintln!("skipped: set WEIR_E2E=1 (and install nginx-light) to run the differential test");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let pages = dir.path().join("pages");
    let files = dir.path().join("files");
    std::fs::create_dir_all(&pages).unwrap();
    std::fs::create_dir_all(&files).unwrap();
    std::fs::write(pages.join("50x.html"), "<h1>Back soon</h1>\n").unwrap();
    std::fs::write(pages.join("404.html"), "<h1>No such page</h1>\n").unwrap();
    let (pages, files) = (pages.display(), files.display());
    let upstream = UpstreamServer::start(Transport::Tcp).await;
    let dead = RefusingPort::new();
    let nginx = weir_testkit::nginx::Nginx::start(
        "limit_req_zone $binary_remote_addr zone=once:1m rate=1r/m;",
        &format!(
            r#"        error_page 500 502 503 504 /50x.html;
        error_page 404 /404.html;
        location = /50x.html {{ root {pages}; }}
        location = /404.html {{ root {pages}; }}
        location /app/ {{ proxy_pass http://{}; proxy_intercept_errors on; error_page 503 /50x.html; }}
        location /down/ {{ proxy_pass http://{}; }}
        location /limited/ {{ limit_req zone=once; proxy_pass http://{}; }}
        location /files/ {{ alias {files}/; }}"#,
            upstream.address, dead.address, upstream.address
        ),
    )
    .expect("nginx starts");
    let all = format!(
        r#"error_pages = {{ 404 = "{pages}/404.html", 500 = "{pages}/50x.html", 502 = "{pages}/50x.html", 503 = "{pages}/50x.html", 504 = "{pages}/50x.html" }}"#
    );
    let gateway = TestGateway::start(&format!(
        r#"
[server]
listen = ["127.0.0.1:0"]
[upstreams.app]
servers = ["{}"]
[upstreams.down]
servers = ["{}"]
[limits.once]
rate = "1r/m"
status = 503
[[routes]]
path = "/app/"
upstream = "app"
intercept_errors = true
error_pages = {{ 503 = "{pages}/50x.html" }}
[[routes]]
path = "/down/"
upstream = "down"
{all}
[[routes]]
path = "/limited/"
upstream = "app"
limits = ["once"]
{all}
[[routes]]
path = "/files/"
static = "{files}"
{all}
"#,
        upstream.address, dead.address
    ))
    .await;
    for path in [
        "/down/",
        "/limited/",
        "/limited/",
        "/app/status/503",
        "/app/status/500",
        "/app/",
        "/files/missing.txt",
    ] {
        let view = |reply: weir_testkit::client::Reply| {
            (
                reply.status,
                reply.header("content-type").map(str::to_string),
                reply.text(),
            )
        };
        let from_nginx = view(get(nginx.addr, path).await);
        let from_weir = view(get(gateway.addr, path).await);
        assert_eq!(
            from_weir,
            from_nginx,
            "{path}; nginx logs: {}",
            nginx.logs()
        );
    }
}

/// An upstream that answers each request on its connection by its path: `/401` with a
/// `WWW-Authenticate`, `/503` with a `Retry-After`, both with `Set-Cookie` and a body, and
/// keeps the connection; anything else a 200.
async fn answering_with_headers() -> String {
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap().to_string();
    tokio::spawn(async move {
        while let Ok((stream, _)) = listener.accept().await {
            tokio::spawn(async move {
                let mut stream = BufReader::new(stream);
                loop {
                    let mut line = String::new();
                    if stream.read_line(&mut line).await.unwrap_or(0) == 0 {
                        return;
                    }
                    let path = line.split(' ').nth(1).unwrap_or("").to_string();
                    loop {
                        let mut header = String::new();
                        if stream.read_line(&mut header).await.unwrap_or(0) == 0 {
                            return;
                        }
                        if header == "\r\n" {
                            break;
                        }
                    }
                    let (status, extra) = match path.as_str() {
                        "/401" => (
                            "401 Unauthorized",
                            "WWW-Authenticate: Basic realm=\"app\"\r\n",
                        ),
                        "/503" => ("503 Service Unavailable", "Retry-After: 7\r\n"),
                        _ => ("200 OK", ""),
                    };
                    let answer = format!(
                        "HTTP/1.1 {status}\r\n{extra}Set-Cookie: session=1\r\nContent-Length: 8\r\n\r\nthe app\n"
                    );
                    if stream.get_mut().write_all(answer.as_bytes()).await.is_err() {
                        return;
                    }
                }
            });
        }
    });
    address
}

#[tokio::test]
async fn an_intercepted_answer_keeps_www_authenticate_and_retry_after_only() {
    let dir = tempfile::tempdir().unwrap();
    let file = page(&dir, "error.html", "error page\n");
    let upstream = answering_with_headers().await;
    let gateway = TestGateway::start(&config(
        &upstream,
        &format!("intercept_errors = true\nerror_pages = {{ 401 = \"{file}\", 503 = \"{file}\" }}"),
        "",
    ))
    .await;
    let mut client = Client::connect(gateway.addr).await;
    let reply = client.get("/401").await;
    assert_eq!(reply.status, StatusCode::UNAUTHORIZED);
    assert_eq!(reply.text(), "error page\n");
    assert_eq!(
        reply.header("www-authenticate"),
        Some("Basic realm=\"app\"")
    );
    assert_eq!(reply.header("set-cookie"), None);
    let reply = client.get("/503").await;
    assert_eq!(reply.status, StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(reply.text(), "error page\n");
    assert_eq!(reply.header("retry-after"), Some("7"));
    assert_eq!(reply.header("set-cookie"), None);
    // The app's next answer, on whatever connection weir keeps to it, is the app's own.
    let reply = client.get("/ok").await;
    assert_eq!(
        (reply.status, reply.text().as_str()),
        (StatusCode::OK, "the app\n")
    );
    assert_eq!(reply.header("set-cookie"), Some("session=1"));
}

/// A body announced over `max_body_size` is refused once the route is found, as nginx checks
/// `client_max_body_size` per location: the route's page answers it, before the route's
/// `access` (nginx's find-config phase comes before its access phase).
#[tokio::test]
async fn a_body_too_large_gets_the_routes_page_before_its_access_rules() {
    let dir = tempfile::tempdir().unwrap();
    let file = page(&dir, "413.html", "too large\n");
    let upstream = UpstreamServer::start(Transport::Tcp).await;
    let gateway = TestGateway::start(&format!(
        r#"
[server]
listen = ["127.0.0.1:0"]
max_body_size = "1KiB"
[upstreams.app]
servers = ["{}"]
[[routes]]
path = "/"
upstream = "app"
access = ["deny all"]
error_pages = {{ 413 = "{file}" }}
"#,
        upstream.address
    ))
    .await;
    let mut client = Client::connect(gateway.addr).await;
    let reply = client
        .send(
            Request::post("/upload")
                .body(http_body_util::Full::new(bytes::Bytes::from(vec![
                    b'x';
                    4096
                ])))
                .unwrap(),
        )
        .await
        .unwrap();
    assert_eq!(reply.status, StatusCode::PAYLOAD_TOO_LARGE);
    assert_eq!(reply.text(), "too large\n");
    let reply = client.get("/").await;
    assert_eq!(reply.status, StatusCode::FORBIDDEN);
    assert_eq!(upstream.requests(), 0);
}

/// `[server] error_pages` (nginx's `error_page` at `http` level): every route without its own
/// page for a status gets the server's, and so does a request no route takes.
#[tokio::test]
async fn the_servers_pages_go_beneath_every_routes_own() {
    let dir = tempfile::tempdir().unwrap();
    let server_502 = page(&dir, "502.html", "server 502\n");
    let server_404 = page(&dir, "404.html", "server 404\n");
    let own_502 = page(&dir, "own.html", "own 502\n");
    let dead = RefusingPort::new();
    let gateway = TestGateway::start(&format!(
        r#"
[server]
listen = ["127.0.0.1:0"]
error_pages = {{ 404 = "{server_404}", 502 = "{server_502}" }}
[upstreams.app]
servers = ["{}"]
[[routes]]
path = "/app/"
upstream = "app"
[[routes]]
path = "/own/"
upstream = "app"
error_pages = {{ 502 = "{own_502}" }}
"#,
        dead.address
    ))
    .await;
    let mut client = Client::connect(gateway.addr).await;
    for (path, status, text) in [
        ("/app/", StatusCode::BAD_GATEWAY, "server 502\n"),
        ("/own/", StatusCode::BAD_GATEWAY, "own 502\n"),
        ("/nothing", StatusCode::NOT_FOUND, "server 404\n"),
    ] {
        let reply = client.get(path).await;
        assert_eq!(
            (reply.status, reply.text().as_str()),
            (status, text),
            "{path}"
        );
    }
}

/// A request the HTTP codec refuses (a malformed head: 400; a request line over the head's
/// bound: 414; a head over it: 431) gets `[server] error_pages`' page for its status, as nginx's
/// bad request gets the `error_page` of the server that received it: no host or route is known
/// yet. With `WEIR_E2E=1`, nginx with the same page gives the same 400.
#[tokio::test]
async fn a_request_the_codec_refuses_gets_the_servers_page() {
    let dir = tempfile::tempdir().unwrap();
    let bad = page(&dir, "400.html", "server 400\n");
    let long = page(&dir, "414.html", "server 414\n");
    let large = page(&dir, "431.html", "server 431\n");
    let upstream = UpstreamServer::start(Transport::Tcp).await;
    let gateway = TestGateway::start(&format!(
        r#"
[server]
listen = ["127.0.0.1:0"]
max_header_size = "4KiB"
error_pages = {{ 400 = "{bad}", 414 = "{long}", 431 = "{large}" }}
[upstreams.app]
servers = ["{}"]
[[routes]]
path = "/"
upstream = "app"
"#,
        upstream.address
    ))
    .await;
    let malformed = b"GET / HTTP/1.1\r\nHost: app.test\r\nno colon here\r\n\r\n".to_vec();
    // No line end within the bound: the request line is what is too long.
    let long_line = format!("GET /{}", "a".repeat(5000));
    let large_head = format!(
        "GET / HTTP/1.1\r\nHost: app.test\r\nX-Big: {}\r\n\r\n",
        "b".repeat(5000)
    );
    let wait = Duration::from_secs(2);
    for (bytes, status, text) in [
        (malformed.clone(), "400", "server 400\n"),
        (long_line.into_bytes(), "414", "server 414\n"),
        (large_head.into_bytes(), "431", "server 431\n"),
    ] {
        let answer = raw_exchange(gateway.addr, &bytes, wait).await;
        assert!(
            answer.starts_with(&format!("HTTP/1.1 {status} ")),
            "{answer}"
        );
        assert!(answer.ends_with(&format!("\r\n\r\n{text}")), "{answer}");
        assert!(answer.contains("content-type: text/html\r\n"), "{answer}");
    }
    assert_eq!(upstream.requests(), 0);

    if !(std::env::var("WEIR_E2E").is_ok_and(|value| value == "1")
        && weir_testkit::nginx::available())
    {
        eprintln!("skipped the nginx side: set WEIR_E2E=1 (and install nginx-light)");
        return;
    }
    let nginx = weir_testkit::nginx::Nginx::start(
        "    error_page 400 /400.html;\n",
        &format!(
            "        location = /400.html {{ root {}; }}\n        location / {{ return 200; }}\n",
            dir.path().display()
        ),
    )
    .expect("nginx starts");
    let answer = raw_exchange(nginx.addr, &malformed, wait).await;
    assert!(answer.starts_with("HTTP/1.1 400 "), "nginx: {answer}");
    assert!(answer.ends_with("\r\n\r\nserver 400\n"), "nginx: {answer}");
}

/// A `status` route with a `body` (nginx `return 200 "ok"`) answers its text as written, with its
/// type; a HEAD gets the head alone; a 404 with a body of its own keeps it where the host has a
/// 404 page, as nginx's `return 404 "text"` gets no `error_page`. nginx with the same `return`s
/// answers the same statuses, bodies and types.
#[tokio::test]
async fn a_status_route_with_a_body_answers_it_as_written() {
    let dir = tempfile::tempdir().unwrap();
    let host_404 = page(&dir, "404.html", "host 404\n");
    let gateway = TestGateway::start(&format!(
        r#"
[server]
listen = ["127.0.0.1:0"]
[[hosts]]
name = "example.com"
error_pages = {{ 404 = "{host_404}" }}
[[routes]]
host = "example.com"
path = "/health"
exact = true
status = 200
body = "ok\n"
[[routes]]
host = "example.com"
path = "/api/ping"
status = 200
body = '{{"status": "ok"}}'
content_type = "application/json"
[[routes]]
host = "example.com"
path = "/gone"
status = 404
body = "gone for good\n"
[[routes]]
host = "example.com"
path = "/nothing"
status = 404
"#
    ))
    .await;
    let answers = |addr: std::net::SocketAddr| async move {
        let mut client = Client::connect(addr).await;
        let mut seen = Vec::new();
        for (method, path) in [
            (Method::GET, "/health"),
            (Method::HEAD, "/health"),
            (Method::GET, "/api/ping"),
            (Method::GET, "/gone"),
        ] {
            let reply = client
                .send(
                    Request::builder()
                        .method(method.clone())
                        .uri(path)
                        .header("host", "example.com")
                        .body(Default::default())
                        .unwrap(),
                )
                .await
                .unwrap();
            seen.push((
                format!("{method} {path}"),
                reply.status,
                reply.text(),
                reply.header("content-type").map(str::to_string),
            ));
        }
        seen
    };
    let weir = answers(gateway.addr).await;
    let text = |type_: &str| Some(type_.to_string());
    assert_eq!(
        weir,
        [
            (
                "GET /health".into(),
                StatusCode::OK,
                "ok\n".into(),
                text("text/plain")
            ),
            (
                "HEAD /health".into(),
                StatusCode::OK,
                String::new(),
                text("text/plain")
            ),
            (
                "GET /api/ping".into(),
                StatusCode::OK,
                "{\"status\": \"ok\"}".into(),
                text("application/json")
            ),
            (
                "GET /gone".into(),
                StatusCode::NOT_FOUND,
                "gone for good\n".into(),
                text("text/plain")
            ),
        ]
    );
    // Without a body of its own, the status route's answer is the host's page.
    let reply = Client::connect(gateway.addr)
        .await
        .send(
            Request::get("/nothing")
                .header("host", "example.com")
                .body(Default::default())
                .unwrap(),
        )
        .await
        .unwrap();
    assert_eq!(reply.text(), "host 404\n");

    if !differential_enabled() {
        return;
    }
    let pages = dir.path().display();
    let nginx = weir_testkit::nginx::Nginx::start(
        "",
        &format!(
            r#"        error_page 404 /404.html;
        location = /404.html {{ root {pages}; }}
        location = /health {{ return 200 "ok\n"; }}
        location /api/ping {{ default_type application/json; return 200 '{{"status": "ok"}}'; }}
        location /gone {{ return 404 "gone for good\n"; }}"#
        ),
    )
    .expect("nginx starts");
    assert_eq!(
        answers(nginx.addr).await,
        weir,
        "nginx logs: {}",
        nginx.logs()
    );
}
