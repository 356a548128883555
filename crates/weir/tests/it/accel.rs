//! Internal routes and `X-Accel-Redirect` (issue 19): a protected file behind an `internal` static
//! route is 404 to a client and served when the app answers with `X-Accel-Redirect`, with the
//! app's `Content-Type` and `Content-Disposition`, as Django's sendfile backends use nginx; a
//! redirect to a proxied internal route is a GET with the client's headers; a `..` target is 404;
//! a redirect loop ends in 500 after 10; the target's route answers (its access rules, password,
//! error pages and headers); the `X-Accel-*` headers do not reach the client (without
//! an internal route `X-Accel-Redirect` is not followed and passes, as before). The app
//! is weir-testkit's raw upstream answering with fixed bytes; with `WEIR_E2E=1` a real nginx with
//! the same locations in front of the same upstreams must give the same answers.

use weir_testkit::nginx::Nginx;
use weir_testkit::{RawUpstream, Reply, Script};

use crate::locations::nginx_enabled;
use crate::support::*;

const SECRET: &str = "the protected file\n";

/// An app that answers every request with `headers` and a body of its own.
async fn app(headers: &str) -> RawUpstream {
    let body = "the app's body, dropped";
    let reply = format!(
        "HTTP/1.1 200 OK\r\n{headers}Content-Length: {}\r\n\r\n{body}",
        body.len()
    );
    RawUpstream::start(Script::Reply(reply.into_bytes())).await
}

/// A directory with `protected/secret.txt`.
fn protected_files() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("protected")).unwrap();
    std::fs::write(dir.path().join("protected/secret.txt"), SECRET).unwrap();
    dir
}

/// weir: `/` proxied to `app`, `/protected/` an internal static route on `root`, `/headers` an
/// internal route proxied to `echo`.
fn weir_config(app: &str, root: &std::path::Path, echo: &str) -> String {
    format!(
        r#"
[server]
listen = ["127.0.0.1:0"]

[upstreams.app]
servers = ["{app}"]

[upstreams.echo]
servers = ["{echo}"]

[[routes]]
path = "/"
upstream = "app"

[[routes]]
path = "/protected/"
static = "{}"
internal = true

[[routes]]
path = "/headers"
match = "exact"
upstream = "echo"
internal = true
request_headers = {{ "X-Original-URI" = "$request_uri" }}
"#,
        root.join("protected").display()
    )
}

/// nginx with the same locations.
fn start_nginx(app: &str, root: &std::path::Path, echo: &str) -> Nginx {
    let server = format!(
        "        location / {{ proxy_pass http://{app}; }}\n\
         location /protected/ {{ internal; alias {}/; }}\n\
         location = /headers {{ internal; proxy_pass http://{echo}; proxy_set_header X-Original-URI $request_uri; }}\n",
        root.join("protected").display()
    );
    Nginx::start("", &server).expect("nginx starts")
}

async fn get(addr: std::net::SocketAddr, path: &str) -> Reply {
    let request = Request::get(path)
        .header("host", "app.test")
        .header("x-client", "kept")
        .body(Default::default())
        .unwrap();
    Client::connect(addr).await.send(request).await.unwrap()
}

/// What a client sees of an answer, for comparing weir's with nginx's.
fn seen(reply: &Reply) -> (u16, Option<String>, Option<String>, String) {
    (
        reply.status.as_u16(),
        reply.header("content-type").map(str::to_string),
        reply.header("content-disposition").map(str::to_string),
        reply.text(),
    )
}

fn no_accel_headers(reply: &Reply) {
    for (name, _) in &reply.headers {
        assert!(
            !name.as_str().starts_with("x-accel-"),
            "{name} reached the client"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_internal_file_is_404_to_a_client_and_served_through_x_accel_redirect() {
    let files = protected_files();
    let echo = UpstreamServer::start(Transport::Tcp).await;
    let app = app(
        "Content-Type: text/csv\r\nContent-Disposition: attachment; filename=\"s.csv\"\r\n\
         X-Accel-Redirect: /protected/secret.txt\r\nX-Accel-Expires: 60\r\n\
         X-Accel-Buffering: no\r\nETag: \"the-app\"\r\n",
    )
    .await;
    let gateway = TestGateway::start(&weir_config(&app.address, files.path(), &echo.address)).await;

    let direct = get(gateway.addr, "/protected/secret.txt").await;
    assert_eq!(direct.status, StatusCode::NOT_FOUND);
    assert!(!direct.text().contains("protected"), "{}", direct.text());
    assert_eq!(
        app.connections(),
        0,
        "an internal route is not the app's either"
    );

    let download = get(gateway.addr, "/download/42").await;
    assert_eq!(download.status, StatusCode::OK);
    assert_eq!(download.text(), SECRET);
    assert_eq!(download.header("content-type"), Some("text/csv"));
    assert_eq!(
        download.header("content-disposition"),
        Some("attachment; filename=\"s.csv\"")
    );
    assert_ne!(
        download.header("etag"),
        Some("\"the-app\""),
        "the file's own"
    );
    no_accel_headers(&download);

    if !nginx_enabled() {
        return;
    }
    let nginx = start_nginx(&app.address, files.path(), &echo.address);
    for path in ["/protected/secret.txt", "/download/42"] {
        let ours = get(gateway.addr, path).await;
        let theirs = get(nginx.addr, path).await;
        no_accel_headers(&theirs);
        // nginx's 404 page is its own HTML; the status is what must agree there.
        if ours.status == StatusCode::NOT_FOUND {
            assert_eq!(theirs.status, StatusCode::NOT_FOUND, "{path}");
        } else {
            assert_eq!(seen(&ours), seen(&theirs), "{path}");
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_redirect_to_a_proxied_internal_route_is_a_get_with_the_clients_headers() {
    let files = protected_files();
    let echo = UpstreamServer::start(Transport::Tcp).await;
    let app = app("Set-Cookie: seen=1\r\nX-Accel-Redirect: /headers?via=accel\r\n").await;
    let gateway = TestGateway::start(&weir_config(&app.address, files.path(), &echo.address)).await;
    let post = |addr| async move {
        let request = Request::post("/form")
            .header("host", "app.test")
            .header("x-client", "kept")
            .body(bytes::Bytes::from_static(b"field=1").into())
            .unwrap();
        Client::connect(addr).await.send(request).await.unwrap()
    };
    let reply = post(gateway.addr).await;
    assert_eq!(reply.status, StatusCode::OK);
    let text = reply.text();
    assert!(text.starts_with("GET /headers?via=accel "), "{text}");
    assert!(text.contains("x-client: kept\n"), "{text}");
    // `$request_uri` is the client's, as nginx keeps it across an internal redirect.
    assert!(text.contains("x-original-uri: /form\n"), "{text}");
    assert!(!text.contains("content-length"), "no body: {text}");
    assert_eq!(reply.header("set-cookie"), Some("seen=1"));
    no_accel_headers(&reply);

    if !nginx_enabled() {
        return;
    }
    let nginx = start_nginx(&app.address, files.path(), &echo.address);
    let theirs = post(nginx.addr).await;
    assert_eq!(theirs.status, StatusCode::OK);
    assert!(
        theirs.text().starts_with("GET /headers?via=accel "),
        "{}",
        theirs.text()
    );
    assert!(theirs.text().contains("x-client: kept\n"));
    assert!(
        theirs.text().contains("x-original-uri: /form\n"),
        "{}",
        theirs.text()
    );
    assert_eq!(theirs.header("set-cookie"), Some("seen=1"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unsafe_target_is_404_and_a_loop_ends_in_500() {
    let files = protected_files();
    let echo = UpstreamServer::start(Transport::Tcp).await;
    let climbing = app("X-Accel-Redirect: /protected/../protected/secret.txt\r\n").await;
    // Every answer of this app redirects to `/` again: the app itself.
    let looping = app("X-Accel-Redirect: /again\r\n").await;

    let gateway =
        TestGateway::start(&weir_config(&climbing.address, files.path(), &echo.address)).await;
    let climbed = get(gateway.addr, "/x").await;
    assert_eq!(climbed.status, StatusCode::NOT_FOUND);
    assert_ne!(climbed.text(), SECRET);
    let gateway =
        TestGateway::start(&weir_config(&looping.address, files.path(), &echo.address)).await;
    assert_eq!(
        get(gateway.addr, "/x").await.status,
        StatusCode::INTERNAL_SERVER_ERROR
    );
    // The first request and 10 redirects reached the app; the 11th redirect was refused.
    assert_eq!(looping.connections(), 11);

    if !nginx_enabled() {
        return;
    }
    let nginx = start_nginx(&climbing.address, files.path(), &echo.address);
    assert_eq!(get(nginx.addr, "/x").await.status, StatusCode::NOT_FOUND);
    let nginx = start_nginx(&looping.address, files.path(), &echo.address);
    assert_eq!(
        get(nginx.addr, "/x").await.status,
        StatusCode::INTERNAL_SERVER_ERROR
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_an_internal_route_x_accel_redirect_passes_as_it_always_did() {
    let files = protected_files();
    let app = app(
        "X-Accel-Redirect: /static/secret.txt\r\nX-Accel-Buffering: no\r\nX-Accel-Expires: 60\r\n",
    )
    .await;
    let toml = format!(
        r#"
[server]
listen = ["127.0.0.1:0"]
[upstreams.app]
servers = ["{}"]
[[routes]]
path = "/"
upstream = "app"
[[routes]]
path = "/static/"
static = "{}"
"#,
        app.address,
        files.path().join("protected").display()
    );
    let gateway = TestGateway::start(&toml).await;
    let reply = get(gateway.addr, "/x").await;
    assert_eq!(reply.status, StatusCode::OK);
    assert_eq!(reply.text(), "the app's body, dropped");
    assert_eq!(reply.header("x-accel-redirect"), Some("/static/secret.txt"));
    // The headers that speak only to the proxy are kept from the client all the same.
    assert!(reply.header("x-accel-buffering").is_none());
    assert!(reply.header("x-accel-expires").is_none());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_http2_request_redirected_to_a_proxied_route_keeps_its_host() {
    use crate::tls::{certificate_tables, h2_request, h2_sender, Pki};
    let pki = Pki::new();
    let files = protected_files();
    let echo = UpstreamServer::start(Transport::Tcp).await;
    let app = app("X-Accel-Redirect: /headers\r\n").await;
    // HTTP/2 names the host in `:authority`, not in a `Host` header.
    let toml = format!(
        "{}\n[tls]\nlisten = [\"127.0.0.1:0\"]\n{}",
        weir_config(&app.address, files.path(), &echo.address),
        certificate_tables(&[pki.issue(&["app.test"])])
    );
    let gateway = TestGateway::start(&toml).await;
    let mut sender = h2_sender(gateway.tls_addr.unwrap(), &pki).await;
    let (status, _, body) = h2_request(
        &mut sender,
        Method::GET,
        "https://app.test/x",
        bytes::Bytes::new(),
    )
    .await;
    let text = String::from_utf8_lossy(&body);
    assert_eq!(status, StatusCode::OK, "{text}");
    assert!(text.starts_with("GET /headers "), "{text}");
    assert!(text.contains("host: app.test\n"), "{text}");
}

/// `/office` and `/staff` redirect to internal routes of the same files, one kept to another
/// network (`access`), one behind a password (`basic_auth`): nginx runs its access phase again
/// after an internal redirect, so a redirect is no way around either.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_redirect_target_keeps_its_access_rules_and_its_password() {
    let files = protected_files();
    let users = files.path().join("htpasswd");
    std::fs::write(&users, "alice:{PLAIN}secret\n").unwrap();
    let office = app("X-Accel-Redirect: /office/secret.txt\r\n").await;
    let staff = app("X-Accel-Redirect: /staff/secret.txt\r\n").await;
    let root = files.path().join("protected");
    let toml = format!(
        r#"
[server]
listen = ["127.0.0.1:0"]
[upstreams.office]
servers = ["{}"]
[upstreams.staff]
servers = ["{}"]
[[routes]]
path = "/office-report"
upstream = "office"
[[routes]]
path = "/staff-report"
upstream = "staff"
[[routes]]
path = "/office/"
static = "{root}"
internal = true
access = ["allow 10.0.0.0/8", "deny all"]
[[routes]]
path = "/staff/"
static = "{root}"
internal = true
basic_auth = {{ realm = "Staff", user_file = "{}" }}
"#,
        office.address,
        staff.address,
        users.display(),
        root = root.display()
    );
    let gateway = TestGateway::start(&toml).await;
    let ask = |addr, path: &'static str, authorization: Option<String>| {
        let request = get_with(Some("app.test"), path, authorization.as_deref());
        async move { Client::connect(addr).await.send(request).await.unwrap() }
    };
    let cases = [
        ("/office-report", None, StatusCode::FORBIDDEN),
        ("/staff-report", None, StatusCode::UNAUTHORIZED),
        (
            "/staff-report",
            Some(basic("alice", "wrong")),
            StatusCode::UNAUTHORIZED,
        ),
        (
            "/staff-report",
            Some(basic("alice", "secret")),
            StatusCode::OK,
        ),
    ];
    for (path, authorization, status) in &cases {
        let reply = ask(gateway.addr, path, authorization.clone()).await;
        assert_eq!(reply.status, *status, "{path} {authorization:?}");
        if *status == StatusCode::OK {
            assert_eq!(reply.text(), SECRET);
        } else {
            assert!(!reply.text().contains(SECRET.trim()), "{}", reply.text());
        }
        if *status == StatusCode::UNAUTHORIZED {
            assert_eq!(
                reply.header("www-authenticate"),
                Some("Basic realm=\"Staff\"")
            );
        }
    }

    if !nginx_enabled() {
        return;
    }
    let server = format!(
        "        location /office-report {{ proxy_pass http://{}; }}\n\
         location /staff-report {{ proxy_pass http://{}; }}\n\
         location /office/ {{ internal; alias {root}/; allow 10.0.0.0/8; deny all; }}\n\
         location /staff/ {{ internal; alias {root}/; auth_basic \"Staff\"; \
         auth_basic_user_file {}; }}\n",
        office.address,
        staff.address,
        users.display(),
        root = root.display()
    );
    let nginx = Nginx::start("", &server).expect("nginx starts");
    for (path, authorization, status) in cases {
        let theirs = ask(nginx.addr, path, authorization.clone()).await;
        assert_eq!(theirs.status, status, "nginx: {path} {authorization:?}");
    }
}

/// The answer of a redirect target is its route's: `/office-report` and `/open-report` have an
/// error page for 403 and a `response_headers` of their own, and redirect to internal routes with
/// others. As nginx, whose `error_page` and `add_header` are the location's that answers after
/// the internal redirect, the client gets the target's page and header, not the first route's.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_redirect_target_answers_with_its_own_error_page_and_headers() {
    let files = protected_files();
    let root = files.path().join("protected");
    let pages = files.path().join("pages");
    std::fs::create_dir(&pages).unwrap();
    std::fs::write(pages.join("front.html"), "the front page\n").unwrap();
    std::fs::write(pages.join("office.html"), "the office page\n").unwrap();
    let office = app("X-Accel-Redirect: /office/secret.txt\r\n").await;
    let open = app("X-Accel-Redirect: /open/secret.txt\r\n").await;
    let toml = format!(
        r#"
[server]
listen = ["127.0.0.1:0"]
[upstreams.office]
servers = ["{}"]
[upstreams.open]
servers = ["{}"]
[[routes]]
path = "/office-report"
upstream = "office"
error_pages = {{ 403 = "{pages}/front.html" }}
[[routes]]
path = "/open-report"
upstream = "open"
response_headers = {{ "X-Where" = "front" }}
[[routes]]
path = "/office/"
static = "{root}"
internal = true
access = ["allow 10.0.0.0/8", "deny all"]
error_pages = {{ 403 = "{pages}/office.html" }}
[[routes]]
path = "/open/"
static = "{root}"
internal = true
response_headers = {{ "X-Where" = "open" }}
"#,
        office.address,
        open.address,
        pages = pages.display(),
        root = root.display()
    );
    let gateway = TestGateway::start(&toml).await;
    let ask = |addr, path: &'static str| {
        let request = get_with(Some("app.test"), path, None);
        async move { Client::connect(addr).await.send(request).await.unwrap() }
    };
    let denied = ask(gateway.addr, "/office-report").await;
    assert_eq!(denied.status, StatusCode::FORBIDDEN);
    assert_eq!(denied.text(), "the office page\n");
    let served = ask(gateway.addr, "/open-report").await;
    assert_eq!(served.status, StatusCode::OK);
    assert_eq!(served.text(), SECRET);
    assert_eq!(served.header("x-where"), Some("open"));
    let counted = |route: &str, status: &str| {
        let labels = format!("route=\"{route}\"");
        let status = format!("status=\"{status}\"");
        gateway.handle.render_metrics().lines().any(|line| {
            line.starts_with("weir_requests_total{")
                && line.contains(&labels)
                && line.contains(&status)
        })
    };
    assert!(counted("/open/", "200") && counted("/office/", "403"));
    assert!(!counted("/open-report", "200") && !counted("/office-report", "403"));

    if !nginx_enabled() {
        return;
    }
    let server = format!(
        "        location /office-report {{ proxy_pass http://{}; error_page 403 /front.html; }}\n\
         location /open-report {{ proxy_pass http://{}; add_header X-Where front; }}\n\
         location /office/ {{ internal; alias {root}/; allow 10.0.0.0/8; deny all; \
         error_page 403 /office.html; }}\n\
         location /open/ {{ internal; alias {root}/; add_header X-Where open; }}\n\
         location ~ ^/(front|office)\\.html$ {{ internal; root {pages}; }}\n",
        office.address,
        open.address,
        pages = pages.display(),
        root = root.display()
    );
    let nginx = Nginx::start("", &server).expect("nginx starts");
    let denied = ask(nginx.addr, "/office-report").await;
    assert_eq!(denied.status, StatusCode::FORBIDDEN, "nginx");
    assert_eq!(denied.text(), "the office page\n", "nginx");
    let served = ask(nginx.addr, "/open-report").await;
    assert_eq!(served.status, StatusCode::OK, "nginx");
    assert_eq!(served.header("x-where"), Some("open"), "nginx");
}

/// A redirect to a proxied internal route with `upstream_path` is rewritten as a client's
/// request would be (nginx's internal location with `proxy_pass http://app/URI`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_redirect_to_a_route_with_upstream_path_is_rewritten() {
    let echo = RawUpstream::start(Script::EchoHead).await;
    let app = app("X-Accel-Redirect: /inner/report.csv?year=2026\r\n").await;
    let toml = format!(
        r#"
[server]
listen = ["127.0.0.1:0"]
[upstreams.app]
servers = ["{}"]
[upstreams.echo]
servers = ["{}"]
[[routes]]
path = "/"
upstream = "app"
[[routes]]
path = "/inner/"
upstream = "echo"
upstream_path = "/files/"
internal = true
"#,
        app.address, echo.address
    );
    let gateway = TestGateway::start(&toml).await;
    let reply = get(gateway.addr, "/reports/latest").await;
    assert_eq!(reply.status, StatusCode::OK);
    let text = reply.text();
    assert!(
        text.starts_with("GET /files/report.csv?year=2026 HTTP/1.1\r\n"),
        "{text}"
    );
}
