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

/// `deny_headers` (nginx `if ($http_NAME ~* RE) { return CODE; }`): a host's entries for the
/// paths no route of it matches and its routes without their own; a route's list in place of
/// its host's; a missing header read as `""`; 444 closes without an answer.
#[tokio::test]
async fn deny_headers_refuse_requests_by_a_header_as_nginxs_if_return() {
    let upstream = UpstreamServer::start(Transport::Tcp).await;
    let gateway = TestGateway::start(&format!(
        r#"
[server]
listen = ["127.0.0.1:0"]
[upstreams.app]
servers = ["{upstream}"]
[[hosts]]
name = "app.test"
deny_headers = [{{ header = "User-Agent", matches = "(?i)(bot|crawler)" }}]
[[routes]]
host = "app.test"
path = "/"
upstream = "app"
[[routes]]
host = "app.test"
path = "/api/"
upstream = "app"
deny_headers = [
  {{ header = "User-Agent", matches = "(?i)(bot|crawler)" }},
  {{ header = "X-Api-Key", not_matches = "^k-[0-9]+$", status = 401 }},
]
[[routes]]
host = "app.test"
path = "/gone/"
upstream = "app"
deny_headers = [
  {{ header = "User-Agent", matches = "(?i)(bot|crawler)" }},
  {{ header = "User-Agent", matches = "^curl/", status = 444 }},
  {{ header = "User-Agent", matches = "^$", status = 400 }},
]
[[routes]]
host = "app.test"
path = "/open/"
upstream = "app"
deny_headers = []
"#,
        upstream = upstream.address,
    ))
    .await;
    // A path, its User-Agent and X-Api-Key, and the status (`None`: closed without one).
    type Case = (
        &'static str,
        Option<&'static str>,
        Option<&'static str>,
        Option<u16>,
    );
    let cases: &[Case] = &[
        ("/", Some("Mozilla/5.0"), None, Some(200)),
        (
            "/",
            Some("Mozilla/5.0 (compatible; Googlebot/2.1)"),
            None,
            Some(403),
        ),
        ("/", Some("SomeCRAWLER"), None, Some(403)),
        ("/", None, None, Some(200)),
        ("/api/", Some("Mozilla/5.0"), Some("k-12"), Some(200)),
        ("/api/", Some("Mozilla/5.0"), Some("k-"), Some(401)),
        ("/api/", Some("Mozilla/5.0"), None, Some(401)),
        ("/api/", Some("bot"), Some("k-1"), Some(403)),
        ("/gone/", Some("curl/8.5"), None, None),
        ("/gone/", Some("Googlebot"), None, Some(403)),
        ("/gone/", Some("Wget/1.21"), None, Some(200)),
        ("/gone/", None, None, Some(400)),
        // `[]`: none of the host's (nginx cannot lift a server's `if` for one location).
        ("/open/", Some("Googlebot"), None, Some(200)),
    ];
    let seen = |addr: std::net::SocketAddr, nginx: bool| async move {
        let mut seen = Vec::new();
        for (path, agent, key, _) in cases {
            if nginx && path.starts_with("/open/") {
                continue;
            }
            let request = get_with_headers(
                "app.test",
                path,
                &[("user-agent", *agent), ("x-api-key", *key)],
            );
            let mut client = Client::connect(addr).await;
            let status = client
                .send(request)
                .await
                .ok()
                .map(|reply| reply.status.as_u16());
            seen.push((*path, *agent, status));
        }
        seen
    };
    let expected: Vec<(&str, Option<&str>, Option<u16>)> = cases
        .iter()
        .map(|(path, agent, _, status)| (*path, *agent, *status))
        .collect();
    let before = upstream.requests();
    assert_eq!(seen(gateway.addr, false).await, expected);
    // The refused never reached the app.
    let served = expected.iter().filter(|case| case.2 == Some(200)).count();
    assert_eq!(upstream.requests() - before, served);

    if !differential_enabled() {
        return;
    }
    let nginx = Nginx::start(
        "",
        &format!(
            r#"        if ($http_user_agent ~* (bot|crawler)) {{ return 403; }}
        location / {{ proxy_pass http://{upstream}; }}
        location /api/ {{
            if ($http_x_api_key !~ "^k-[0-9]+$") {{ return 401; }}
            proxy_pass http://{upstream};
        }}
        location /gone/ {{
            if ($http_user_agent ~ "^curl/") {{ return 444; }}
            if ($http_user_agent = "") {{ return 400; }}
            proxy_pass http://{upstream};
        }}"#,
            upstream = upstream.address,
        ),
    )
    .expect("nginx starts");
    let expected: Vec<_> = expected
        .into_iter()
        .filter(|case| !case.0.starts_with("/open/"))
        .collect();
    assert_eq!(
        seen(nginx.addr, true).await,
        expected,
        "nginx logs: {}",
        nginx.logs()
    );
}

/// A `deny_headers` entry on `Host` reads nginx's `$host` (Django deployments' `if ($host !~*
/// ^(example.com|www.example.com)$) { return 444; }` against `DisallowedHost` floods): the host
/// without port or trailing dot, in any case, passes; another name is closed unanswered. Over
/// HTTP/2 the host is the authority (the request has no `Host` field). nginx closes and serves
/// the same HTTP/1 requests (`WEIR_E2E=1`).
#[tokio::test]
async fn a_guard_on_host_reads_the_host_as_nginxs_host() {
    use crate::tls::{certificate_tables, connect_tls, Pki};
    let pki = Pki::new();
    let files = [pki.issue(&["example.com", "evil.test"])];
    let upstream = UpstreamServer::start(Transport::Tcp).await;
    let gateway = TestGateway::start(&format!(
        r#"
[server]
listen = ["127.0.0.1:0"]
[upstreams.app]
servers = ["{upstream}"]
[[routes]]
path = "/"
upstream = "app"
deny_headers = [{{ header = "Host", not_matches = "(?i)^(example\\.com|www\\.example\\.com)$", status = 444 }}]
[tls]
listen = ["127.0.0.1:0"]
{tables}
"#,
        upstream = upstream.address,
        tables = certificate_tables(&files),
    ))
    .await;
    const HOSTS: [(&str, Option<u16>); 5] = [
        ("example.com", Some(200)),
        ("WWW.Example.COM:8080", Some(200)),
        ("example.com.", Some(200)),
        ("evil.test", None),
        ("example.com.evil.test", None),
    ];
    let seen = |addr: std::net::SocketAddr| async move {
        let mut seen = Vec::new();
        for (host, _) in HOSTS {
            let answer = raw_exchange(
                addr,
                format!("GET / HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n").as_bytes(),
                Duration::from_secs(5),
            )
            .await;
            let status = answer
                .split(' ')
                .nth(1)
                .and_then(|code| code.parse::<u16>().ok());
            seen.push((host, status));
        }
        seen
    };
    assert_eq!(seen(gateway.addr).await, HOSTS);

    // HTTP/2: the authority is the host.
    for (authority, served) in [("example.com", true), ("evil.test", false)] {
        let stream = connect_tls(
            gateway.tls_addr.expect("a TLS listener"),
            pki.client_config(&[b"h2"]),
            authority,
        )
        .await
        .unwrap();
        let (client, connection) = h2::client::handshake(stream).await.unwrap();
        tokio::spawn(connection);
        let mut client = client.ready().await.unwrap();
        let request = Request::get(format!("https://{authority}/"))
            .body(())
            .unwrap();
        let (response, _) = client.send_request(request, true).unwrap();
        match response.await {
            Ok(response) => assert!(served && response.status() == StatusCode::OK, "{authority}"),
            Err(error) => assert!(!served && error.is_reset(), "{authority}: {error}"),
        }
    }

    if !differential_enabled() {
        return;
    }
    let nginx = Nginx::start(
        "",
        &format!(
            "        if ($host !~* ^(example\\.com|www\\.example\\.com)$) {{ return 444; }}\n        location / {{ proxy_pass http://{}; }}\n",
            upstream.address
        ),
    )
    .expect("nginx starts");
    assert_eq!(
        seen(nginx.addr).await,
        HOSTS,
        "nginx logs: {}",
        nginx.logs()
    );
}

/// `auth_request` (nginx `auth_request` with `auth_request_set` and `proxy_set_header`): an
/// internal route asks an authentication service with a GET carrying the client's headers and
/// no body, whatever the client's method, and `$request_uri` the client's; 2xx lets the request
/// in with the copied headers (the client's own of those names dropped), 401 passes the
/// challenge, 403 is 403, any other answer 500; a route's `false` lifts its host's.
#[tokio::test]
async fn auth_request_asks_an_internal_route_before_serving_as_nginx_does() {
    let upstream = UpstreamServer::start(Transport::Tcp).await;
    let gateway = TestGateway::start(&format!(
        r#"
[server]
listen = ["127.0.0.1:0"]
[upstreams.app]
servers = ["{upstream}"]
[[hosts]]
name = "app.test"
auth_request = {{ path = "/_auth", copy_headers = {{ "X-User" = "X-Auth-User", "X-Auth-Saw" = "X-Auth-Saw" }} }}
[[routes]]
host = "app.test"
path = "/_auth"
match = "exact"
internal = true
upstream = "app"
upstream_path = "/auth"
request_headers = {{ "X-Original-URI" = "$request_uri" }}
[[routes]]
host = "app.test"
path = "/"
upstream = "app"
[[routes]]
host = "app.test"
path = "/open/"
upstream = "app"
auth_request = false
"#,
        upstream = upstream.address,
    ))
    .await;
    // The method, path and `Authorization` of a request; what the client gets: the status, the
    // challenge, and the lines the app saw of `X-User` and `X-Auth-Saw` (the app's `/headers`
    // echoes them; `/open/` is its plain "hello").
    type Case = (&'static str, &'static str, Option<&'static str>);
    let cases: &[Case] = &[
        ("GET", "/headers?q=1", Some("Bearer good")),
        ("POST", "/headers", Some("Bearer good")),
        ("HEAD", "/headers", Some("Bearer good")),
        ("GET", "/headers", None),
        ("GET", "/headers", Some("Bearer nonsense")),
        ("GET", "/headers", Some("Bearer forbidden")),
        ("POST", "/headers", Some("Bearer broken")),
        ("GET", "/open/", None),
        // Internal: a client never reaches the asking route itself.
        ("GET", "/_auth", Some("Bearer good")),
    ];
    let seen = |addr: std::net::SocketAddr| async move {
        let mut seen = Vec::new();
        for (method, path, authorization) in cases {
            let mut request = http::Request::builder()
                .method(*method)
                .uri(*path)
                .header("host", "app.test")
                // The client's own `X-User` never passes for the service's.
                .header("x-user", "mallory");
            if let Some(authorization) = authorization {
                request = request.header("authorization", *authorization);
            }
            let body = if *method == "POST" { "a body" } else { "" };
            let request = request.body(body.into()).unwrap();
            let mut client = Client::connect(addr).await;
            let reply = client.send(request).await.expect("an answer");
            let text = reply.text();
            let mut lines: Vec<String> = text
                .lines()
                .filter(|line| line.starts_with("x-user:") || line.starts_with("x-auth-saw:"))
                .map(str::to_string)
                .collect();
            lines.sort();
            seen.push((
                reply.status.as_u16(),
                header_list(&reply, "www-authenticate"),
                lines,
            ));
        }
        seen
    };
    let challenge = Some("Bearer realm=\"testkit\"".to_string());
    let lines = |saw: &str| {
        vec![
            format!("x-auth-saw: GET /auth {saw}"),
            "x-user: alice".to_string(),
        ]
    };
    let expected = vec![
        (200, None, lines("/headers?q=1")),
        (200, None, lines("/headers")),
        (200, None, vec![]),
        (401, challenge.clone(), vec![]),
        (401, challenge, vec![]),
        (403, None, vec![]),
        (500, None, vec![]),
        (200, None, vec![]),
        (404, None, vec![]),
    ];
    let before = upstream.requests();
    assert_eq!(seen(gateway.addr).await, expected);
    // Each asked request was asked once, and only those let in (and `/open/`) reached the app.
    assert_eq!(upstream.requests() - before, 7 + 4);

    if !differential_enabled() {
        return;
    }
    let nginx = Nginx::start(
        "",
        &format!(
            r#"        location = /_auth {{
            internal;
            proxy_pass http://{upstream}/auth;
            proxy_pass_request_body off;
            proxy_set_header Content-Length "";
            proxy_set_header X-Original-URI $request_uri;
        }}
        location / {{
            auth_request /_auth;
            auth_request_set $user $upstream_http_x_auth_user;
            auth_request_set $saw $upstream_http_x_auth_saw;
            proxy_set_header X-User $user;
            proxy_set_header X-Auth-Saw $saw;
            proxy_pass http://{upstream};
        }}
        location /open/ {{ proxy_pass http://{upstream}; }}"#,
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

/// `deny_headers` entries with both regexes (refused when `matches` finds something and
/// `not_matches` nothing: nginx's `valid_referers none blocked NAMES` with `if ($invalid_referer)
/// { return 403; }`) and with a `location` (nginx's `if ($http_x_forwarded_proto != "https") {
/// return 301 https://$host$request_uri; }`), also for a request no route of the host takes.
#[tokio::test]
async fn deny_headers_redirect_and_check_two_regexes_as_nginxs_referer_and_proto_ifs() {
    let upstream = UpstreamServer::start(Transport::Tcp).await;
    let gateway = TestGateway::start(&format!(
        r#"
[server]
listen = ["127.0.0.1:0"]
[upstreams.app]
servers = ["{upstream}"]
[[hosts]]
name = "app.test"
deny_headers = [{{ header = "X-Forwarded-Proto", not_matches = "^https$", location = "https://$host$request_uri" }}]
[[routes]]
host = "app.test"
path = "/app/"
upstream = "app"
[[routes]]
host = "app.test"
path = "/img/"
upstream = "app"
deny_headers = [
  {{ header = "X-Forwarded-Proto", not_matches = "^https$", location = "https://$host$request_uri" }},
  {{ header = "Referer", matches = "(?i)^https?://", not_matches = "(?i)^https?://(app\\.test|[^/:]*\\.app\\.test)(?:[/:]|$)" }},
]
"#,
        upstream = upstream.address,
    ))
    .await;
    // A path, its X-Forwarded-Proto and Referer; the status and Location.
    type Case = (&'static str, Option<&'static str>, Option<&'static str>);
    let cases: &[Case] = &[
        ("/app/x?y=1", Some("https"), None),
        ("/app/x?y=1", None, None),
        ("/app/x?y=1", Some("http"), None),
        ("/nothing", None, None),
        ("/nothing", Some("https"), None),
        ("/img/a.png", Some("https"), None),
        ("/img/a.png", Some("https"), Some("https://app.test/page")),
        (
            "/img/a.png",
            Some("https"),
            Some("http://CDN.app.test:8080/x"),
        ),
        ("/img/a.png", Some("https"), Some("bookmark")),
        (
            "/img/a.png",
            Some("https"),
            Some("https://evil.test/app.test"),
        ),
        (
            "/img/a.png",
            Some("https"),
            Some("https://app.test.evil.test/"),
        ),
        ("/img/a.png", None, Some("https://evil.test/")),
    ];
    let seen = |addr: std::net::SocketAddr| async move {
        let mut seen = Vec::new();
        for (path, proto, referer) in cases {
            let request = get_with_headers(
                "app.test",
                path,
                &[("x-forwarded-proto", *proto), ("referer", *referer)],
            );
            let mut client = Client::connect(addr).await;
            let reply = client.send(request).await.expect("an answer");
            seen.push((reply.status.as_u16(), header_list(&reply, "location")));
        }
        seen
    };
    let to = |target: &str| Some(format!("https://app.test{target}"));
    let expected = vec![
        (200, None),
        (301, to("/app/x?y=1")),
        (301, to("/app/x?y=1")),
        (301, to("/nothing")),
        (404, None),
        (200, None),
        (200, None),
        (200, None),
        (200, None),
        (403, None),
        (403, None),
        (301, to("/img/a.png")),
    ];
    let before = upstream.requests();
    assert_eq!(seen(gateway.addr).await, expected);
    assert_eq!(upstream.requests() - before, 5);

    if !differential_enabled() {
        return;
    }
    let nginx = Nginx::start(
        "",
        &format!(
            r#"        server_name app.test;
        if ($http_x_forwarded_proto != "https") {{ return 301 https://$host$request_uri; }}
        location /app/ {{ proxy_pass http://{upstream}; }}
        location /img/ {{
            valid_referers none blocked app.test *.app.test;
            if ($invalid_referer) {{ return 403; }}
            proxy_pass http://{upstream};
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

/// `auth_request`'s `sign_in` and `answer_headers` (oauth2-proxy's nginx setup): a 401 is
/// answered by the sign-in route (with `sign_in_status`, nginx's `error_page 401 =403
/// /oauth2/sign_in`), or redirected to a sign-in URL (`error_page 401 = @login` with `return
/// 302`); a 2xx answer's `Set-Cookie` reaches the client (`auth_request_set $c
/// $upstream_http_set_cookie; add_header Set-Cookie $c;`).
#[tokio::test]
async fn auth_request_sends_a_401_to_sign_in_and_passes_the_answers_cookie() {
    let upstream = UpstreamServer::start(Transport::Tcp).await;
    let gateway = TestGateway::start(&format!(
        r#"
[server]
listen = ["127.0.0.1:0"]
[upstreams.app]
servers = ["{upstream}"]
[[routes]]
path = "/_auth"
match = "exact"
internal = true
upstream = "app"
upstream_path = "/auth"
[[routes]]
path = "/oauth2/"
upstream = "app"
[[routes]]
path = "/"
upstream = "app"
auth_request = {{ path = "/_auth", answer_headers = ["Set-Cookie"], sign_in = "/oauth2/sign_in", sign_in_status = 403 }}
[[routes]]
path = "/r/"
upstream = "app"
auth_request = {{ path = "/_auth", sign_in = "https://login.test/start?rd=$scheme://$host$request_uri" }}
"#,
        upstream = upstream.address,
    ))
    .await;
    let cases: &[(&str, Option<&str>)] = &[
        ("/x", Some("Bearer good")),
        ("/x", None),
        ("/x", Some("Bearer forbidden")),
        ("/r/y?z=1", None),
        ("/r/y?z=1", Some("Bearer good")),
    ];
    let seen = |addr: std::net::SocketAddr| async move {
        let mut seen = Vec::new();
        for (path, authorization) in cases {
            let request = get_with(Some("app.test"), path, *authorization);
            let reply = Client::connect(addr)
                .await
                .send(request)
                .await
                .expect("an answer");
            seen.push((
                reply.status.as_u16(),
                header_list(&reply, "set-cookie"),
                header_list(&reply, "location"),
                // The sign-in page is the app's answer to /oauth2/sign_in.
                reply.header("x-upstream").is_some(),
            ));
        }
        seen
    };
    let cookie = Some("session=refreshed; Path=/".to_string());
    let expected = vec![
        (200, cookie, None, true),
        (403, None, None, true),
        (403, None, None, false),
        (
            302,
            None,
            Some("https://login.test/start?rd=http://app.test/r/y?z=1".to_string()),
            false,
        ),
        (200, None, None, true),
    ];
    assert_eq!(seen(gateway.addr).await, expected);

    if !differential_enabled() {
        return;
    }
    let nginx = Nginx::start(
        "",
        &format!(
            r#"        location = /_auth {{
            internal;
            proxy_pass http://{upstream}/auth;
            proxy_pass_request_body off;
            proxy_set_header Content-Length "";
        }}
        location /oauth2/ {{ proxy_pass http://{upstream}; }}
        location / {{
            auth_request /_auth;
            error_page 401 =403 /oauth2/sign_in;
            auth_request_set $cookie $upstream_http_set_cookie;
            add_header Set-Cookie $cookie;
            proxy_pass http://{upstream};
        }}
        location /r/ {{
            auth_request /_auth;
            error_page 401 = @login;
            proxy_pass http://{upstream};
        }}
        location @login {{ return 302 https://login.test/start?rd=$scheme://$host$request_uri; }}"#,
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
