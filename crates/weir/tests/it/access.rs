//! Access rules (issue 19): `access = ["allow ...", "deny ..."]` in order, the first match
//! deciding (nginx `allow`/`deny`: 403), on the client address as `trusted_proxies` makes it
//! (nginx's realip module); per route and per `[[hosts]]`; `status = 444` closes the connection
//! without an answer (nginx `return 444`); and side by side with nginx (`WEIR_E2E=1`).

use weir_testkit::nginx::Nginx;

use crate::support::*;

fn config(upstream: &str, server_extra: &str, access: &str) -> String {
    format!(
        r#"
[server]
listen = ["127.0.0.1:0"]
{server_extra}
[upstreams.app]
servers = ["{upstream}"]
[[routes]]
path = "/"
upstream = "app"
access = {access}
"#
    )
}

async fn status_for(access: &str) -> StatusCode {
    let upstream = UpstreamServer::start(Transport::Tcp).await;
    let gateway = TestGateway::start(&config(&upstream.address, "", access)).await;
    weir_testkit::client::get(gateway.addr, "/").await.status
}

#[tokio::test]
async fn the_first_matching_entry_decides() {
    // The test client is 127.0.0.1.
    assert_eq!(
        status_for(r#"["deny 127.0.0.1", "allow all"]"#).await,
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        status_for(r#"["allow 127.0.0.0/8", "deny all"]"#).await,
        StatusCode::OK
    );
    assert_eq!(
        status_for(r#"["allow 10.0.0.0/8", "deny all"]"#).await,
        StatusCode::FORBIDDEN
    );
    // No entry matches: let through, as nginx.
    assert_eq!(status_for(r#"["deny 192.0.2.0/24"]"#).await, StatusCode::OK);
}

#[tokio::test]
async fn the_address_judged_is_the_real_one_behind_a_trusted_proxy() {
    let upstream = UpstreamServer::start(Transport::Tcp).await;
    let gateway = TestGateway::start(&config(
        &upstream.address,
        r#"trusted_proxies = ["127.0.0.1"]"#,
        r#"["allow 10.0.0.0/8", "deny all"]"#,
    ))
    .await;
    let mut client = Client::connect(gateway.addr).await;
    let mut statuses = Vec::new();
    for forwarded_for in ["10.1.2.3", "203.0.113.9"] {
        let request = Request::get("/")
            .header("x-forwarded-for", forwarded_for)
            .body(Default::default())
            .unwrap();
        statuses.push(client.send(request).await.unwrap().status);
    }
    assert_eq!(statuses, [StatusCode::OK, StatusCode::FORBIDDEN]);
    assert_eq!(
        upstream.requests(),
        1,
        "a refused request never reaches the upstream"
    );
}

#[tokio::test]
async fn a_hosts_access_applies_unless_the_route_has_its_own() {
    let upstream = UpstreamServer::start(Transport::Tcp).await;
    let toml = format!(
        r#"
[server]
listen = ["127.0.0.1:0"]
[upstreams.app]
servers = ["{}"]
[[hosts]]
name = "admin.test"
access = ["deny all"]
[[routes]]
host = "admin.test"
path = "/"
upstream = "app"
[[routes]]
host = "admin.test"
path = "/health"
upstream = "app"
access = ["allow 127.0.0.1"]
"#,
        upstream.address
    );
    let gateway = TestGateway::start(&toml).await;
    let mut client = Client::connect(gateway.addr).await;
    let mut statuses = Vec::new();
    for (host, path) in [
        ("admin.test", "/"),
        ("admin.test", "/health"),
        ("other.test", "/"),
    ] {
        let request = Request::get(path)
            .header("host", host)
            .body(Default::default())
            .unwrap();
        statuses.push(client.send(request).await.unwrap().status);
    }
    assert_eq!(
        statuses,
        [StatusCode::FORBIDDEN, StatusCode::OK, StatusCode::NOT_FOUND]
    );
}

#[tokio::test]
async fn status_444_closes_the_connection_without_a_byte() {
    let upstream = UpstreamServer::start(Transport::Tcp).await;
    let logs = tempfile::tempdir().unwrap();
    let log = logs.path().join("access.log");
    let toml = format!(
        r#"
[server]
listen = ["127.0.0.1:0"]
[admin]
listen = "127.0.0.1:0"
[access_log]
enabled = true
path = "{}"
[upstreams.app]
servers = ["{}"]
[[routes]]
path = "/"
upstream = "app"
[[routes]]
path = "/wp-login.php"
exact = true
status = 444
"#,
        log.display(),
        upstream.address
    );
    let gateway = TestGateway::start(&toml).await;
    let answer = raw_exchange(
        gateway.addr,
        b"GET /wp-login.php HTTP/1.1\r\nHost: a\r\n\r\nGET / HTTP/1.1\r\nHost: a\r\n\r\n",
        Duration::from_secs(10),
    )
    .await;
    assert_eq!(answer, "", "closed unanswered, the pipelined request too");
    let metrics = weir_testkit::client::get(gateway.admin_addr.expect("admin"), "/metrics")
        .await
        .text();
    assert!(
        metrics
            .lines()
            .any(|line| line.contains("444") && line.starts_with("weir_requests")),
        "counted as 444: {metrics}"
    );
    let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
    loop {
        let text = std::fs::read_to_string(&log).unwrap_or_default();
        if text.contains("\"GET /wp-login.php HTTP/1.1\" 444 ") {
            break;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "logged as 444: {text}"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    // The other route still answers.
    assert_eq!(
        weir_testkit::client::get(gateway.addr, "/").await.status,
        StatusCode::OK
    );
}

/// The same allow/deny lists in nginx and weir give the same statuses, and `return 444` the
/// same silence.
#[tokio::test]
async fn access_and_444_match_nginx() {
    if !differential_enabled() {
        return;
    }
    let upstream = UpstreamServer::start(Transport::Tcp).await;
    let lists: [&[&str]; 4] = [
        &["deny 127.0.0.1", "allow all"],
        &["allow 127.0.0.0/8", "deny all"],
        &["allow 10.0.0.0/8", "deny all"],
        &["deny 192.0.2.0/24"],
    ];
    let mut nginx_locations = String::new();
    let mut weir_routes = String::new();
    for (index, list) in lists.iter().enumerate() {
        let directives: String = list.iter().map(|entry| format!("{entry}; ")).collect();
        nginx_locations.push_str(&format!(
            "        location /{index}/ {{ {directives} proxy_pass http://{}; }}\n",
            upstream.address
        ));
        let entries: Vec<String> = list.iter().map(|entry| format!("{entry:?}")).collect();
        weir_routes.push_str(&format!(
            "[[routes]]\npath = \"/{index}/\"\nupstream = \"app\"\naccess = [{}]\n",
            entries.join(", ")
        ));
    }
    nginx_locations.push_str("        location = /gone { return 444; }\n");
    weir_routes.push_str("[[routes]]\npath = \"/gone\"\nexact = true\nstatus = 444\n");
    let nginx = Nginx::start("", &nginx_locations).expect("nginx starts");
    let toml = format!(
        "[server]\nlisten = [\"127.0.0.1:0\"]\n[upstreams.app]\nservers = [\"{}\"]\n{weir_routes}",
        upstream.address
    );
    let gateway = TestGateway::start(&toml).await;
    for (index, list) in lists.iter().enumerate() {
        let path = format!("/{index}/");
        let from_nginx = weir_testkit::client::get(nginx.addr, &path).await.status;
        let from_weir = weir_testkit::client::get(gateway.addr, &path).await.status;
        assert_eq!(from_weir, from_nginx, "{list:?}");
    }
    let request = b"GET /gone HTTP/1.1\r\nHost: a\r\n\r\n";
    let from_nginx = raw_exchange(nginx.addr, request, Duration::from_secs(10)).await;
    let from_weir = raw_exchange(gateway.addr, request, Duration::from_secs(10)).await;
    assert_eq!((from_weir.as_str(), from_nginx.as_str()), ("", ""));
}

/// Over HTTP/2, a 444 resets its stream (there is no connection of its own to close); the
/// connection's other streams are served.
#[tokio::test]
async fn status_444_over_http2_resets_the_stream() {
    use crate::tls::{certificate_tables, connect_tls, Pki};
    let pki = Pki::new();
    let upstream = UpstreamServer::start(Transport::Tcp).await;
    let files = [pki.issue(&["app.test"])];
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
path = "/gone"
exact = true
status = 444
[tls]
listen = ["127.0.0.1:0"]
{}
"#,
        upstream.address,
        certificate_tables(&files)
    );
    let gateway = TestGateway::start(&toml).await;
    let stream = connect_tls(
        gateway.tls_addr.expect("a TLS listener"),
        pki.client_config(&[b"h2"]),
        "app.test",
    )
    .await
    .unwrap();
    let (client, connection) = h2::client::handshake(stream).await.unwrap();
    tokio::spawn(connection);
    let mut client = client.ready().await.unwrap();
    let gone = Request::get("https://app.test/gone").body(()).unwrap();
    let (response, _) = client.send_request(gone, true).unwrap();
    let error = response.await.expect_err("no answer to a 444");
    assert!(error.is_reset(), "a reset stream: {error}");
    let mut client = client.ready().await.unwrap();
    let served = Request::get("https://app.test/").body(()).unwrap();
    let (response, _) = client.send_request(served, true).unwrap();
    assert_eq!(response.await.unwrap().status(), StatusCode::OK);
}

/// `methods`: a method the route does not take is 405 with the route's `Allow` (`GET` brings
/// `HEAD`), before its limits and its upstream: the app never sees it, and the limit is not
/// charged. nginx's `if ($request_method !~ ...) { return 405; }` gives the same statuses
/// (`WEIR_E2E=1`).
#[tokio::test]
async fn a_method_the_route_does_not_take_is_405_before_its_limits_and_app() {
    let upstream = UpstreamServer::start(Transport::Tcp).await;
    let gateway = TestGateway::start(&format!(
        r#"
[server]
listen = ["127.0.0.1:0"]
[upstreams.app]
servers = ["{}"]
[limits.few]
rate = "1r/m"
burst = 3
nodelay = true
[[routes]]
path = "/"
upstream = "app"
methods = ["GET", "POST"]
limits = ["few"]
"#,
        upstream.address
    ))
    .await;
    let methods = [
        Method::DELETE,
        Method::PUT,
        Method::GET,
        Method::HEAD,
        Method::POST,
        Method::OPTIONS,
        Method::PATCH,
    ];
    let statuses = |addr: std::net::SocketAddr| {
        let methods = methods.clone();
        async move {
            let mut client = Client::connect(addr).await;
            let mut seen = Vec::new();
            for method in methods {
                let reply = client.request(method.clone(), "/", "").await;
                seen.push((
                    method,
                    reply.status,
                    reply.header("allow").map(str::to_string),
                ));
            }
            seen
        }
    };
    let refused = |method: Method| (method, StatusCode::METHOD_NOT_ALLOWED);
    let weir: Vec<_> = statuses(gateway.addr).await;
    assert_eq!(
        weir.iter()
            .map(|(method, status, _)| (method.clone(), *status))
            .collect::<Vec<_>>(),
        vec![
            refused(Method::DELETE),
            refused(Method::PUT),
            (Method::GET, StatusCode::OK),
            (Method::HEAD, StatusCode::OK),
            (Method::POST, StatusCode::OK),
            refused(Method::OPTIONS),
            refused(Method::PATCH),
        ]
    );
    for (method, status, allow) in &weir {
        let expected = (*status == StatusCode::METHOD_NOT_ALLOWED).then_some("GET, POST, HEAD");
        assert_eq!(allow.as_deref(), expected, "{method}");
    }
    // Three requests reached the app; the limit (a burst of 3) took those three only.
    assert_eq!(upstream.requests(), 3);
    let mut client = Client::connect(gateway.addr).await;
    assert_eq!(client.get("/").await.status, StatusCode::OK);
    assert_eq!(client.get("/").await.status, StatusCode::TOO_MANY_REQUESTS);

    if !differential_enabled() {
        return;
    }
    let nginx = Nginx::start(
        "",
        &format!(
            r#"        location / {{
            if ($request_method !~ ^(GET|HEAD|POST)$) {{ return 405; }}
            proxy_pass http://{};
        }}"#,
            upstream.address
        ),
    )
    .expect("nginx starts");
    let from_nginx: Vec<_> = statuses(nginx.addr)
        .await
        .into_iter()
        .map(|(method, status, _)| (method, status))
        .collect();
    let from_weir: Vec<_> = weir
        .into_iter()
        .map(|(method, status, _)| (method, status))
        .collect();
    assert_eq!(from_weir, from_nginx, "nginx logs: {}", nginx.logs());
}
