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
