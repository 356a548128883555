//! Routes bound to listeners (issue 19): a host served only on the TLS listener is not served on
//! the plain one, where its own route redirects it to HTTPS (per host, not `[tls]
//! redirect_http`'s all-or-nothing); each listener has its own default route for unknown hosts,
//! so the plain catch-all guards only the plain listener and the TLS default answers on TLS. And
//! a route bound to a listener by its address. Over HTTP/1.1 and HTTP/2.

use bytes::Bytes;
use http_body_util::{BodyExt, Empty};
use hyper_util::rt::TokioIo;

use crate::support::*;
use crate::tls::{certificate_tables, connect_tls, h2_request, h2_sender, Pki};

/// One HTTP/1.1 GET over a new TLS connection with `host` (SNI and `Host`): status and body.
async fn get_tls(addr: std::net::SocketAddr, pki: &Pki, host: &str, path: &str) -> (u16, String) {
    let stream = connect_tls(addr, pki.client_config(&[b"http/1.1"]), host)
        .await
        .unwrap();
    let (mut sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
        .await
        .unwrap();
    tokio::spawn(connection);
    let request = Request::get(path)
        .header("host", host)
        .body(Empty::<Bytes>::new())
        .unwrap();
    let response = sender.send_request(request).await.unwrap();
    let status = response.status().as_u16();
    let body = response.into_body().collect().await.unwrap().to_bytes();
    (status, String::from_utf8_lossy(&body).into_owned())
}

async fn get_plain(addr: std::net::SocketAddr, host: &str, path: &str) -> weir_testkit::Reply {
    let request = Request::get(path)
        .header("host", host)
        .body(Default::default())
        .unwrap();
    Client::connect(addr).await.send(request).await.unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tls_only_host_is_redirected_on_plain_and_each_listener_has_its_default() {
    let pki = Pki::new();
    let files = [pki.issue(&["app.test", "other.test"])];
    let upstream = UpstreamServer::start(Transport::Tcp).await;
    // nginx: `server { listen 443 ssl; server_name app.test; location / { proxy_pass ...; } }`,
    // `server { listen 80; server_name app.test; return 301 https://$host$request_uri; }`,
    // `server { listen 80 default_server; return 403; }`,
    // `server { listen 443 ssl default_server; server_name _; return 421; }`.
    let toml = format!(
        r#"
[server]
listen = ["127.0.0.1:0"]

[upstreams.app]
servers = ["{}"]

[[routes]]
host = "app.test"
scheme = "https"
upstream = "app"

[[routes]]
host = "app.test"
scheme = "http"
redirect = "https://$host$request_uri"
status = 301

[[routes]]
scheme = "http"
status = 403

[[routes]]
scheme = "https"
status = 421

[tls]
listen = ["127.0.0.1:0"]
{}
"#,
        upstream.address,
        certificate_tables(&files)
    );
    let gateway = TestGateway::start(&toml).await;
    let tls = gateway.tls_addr.unwrap();

    let redirected = get_plain(gateway.addr, "app.test", "/account?x=1").await;
    assert_eq!(redirected.status, StatusCode::MOVED_PERMANENTLY);
    assert_eq!(
        redirected.header("location"),
        Some("https://app.test/account?x=1")
    );
    assert_eq!(
        upstream.requests(),
        0,
        "the app is not served in clear text"
    );
    assert_eq!(get_plain(gateway.addr, "other.test", "/").await.status, 403);

    let (status, body) = get_tls(tls, &pki, "app.test", "/headers").await;
    assert_eq!(status, 200);
    assert!(body.contains("x-forwarded-proto: https"), "{body}");
    // The TLS default, not the plain listener's redirect or catch-all.
    assert_eq!(get_tls(tls, &pki, "other.test", "/").await.0, 421);
    // HTTP/2 streams know their listener too.
    let mut sender = h2_sender(tls, &pki).await;
    let app = h2_request(
        &mut sender,
        Method::GET,
        "https://app.test/headers",
        Bytes::new(),
    )
    .await;
    assert_eq!(app.0, StatusCode::OK);
    let other = h2_request(
        &mut sender,
        Method::GET,
        "https://other.test/",
        Bytes::new(),
    )
    .await;
    assert_eq!(other.0.as_u16(), 421);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_route_bound_by_address_answers_on_that_listener_only() {
    let pki = Pki::new();
    let files = [pki.issue(&["app.test"])];
    // Two loopback addresses, so the listeners differ by address though both say port 0.
    let toml = format!(
        r#"
[server]
listen = ["127.0.0.2:0"]

[[routes]]
listen = ["127.0.0.2:0"]
path = "/"
status = 202

[[routes]]
listen = ["127.0.0.1:0"]
path = "/"
status = 203

[[routes]]
path = "/both"
status = 200

[tls]
listen = ["127.0.0.1:0"]
{}
"#,
        certificate_tables(&files)
    );
    let gateway = TestGateway::start(&toml).await;
    let tls = gateway.tls_addr.unwrap();
    assert_eq!(get_plain(gateway.addr, "app.test", "/").await.status, 202);
    assert_eq!(get_tls(tls, &pki, "app.test", "/").await.0, 203);
    // A route with no binding answers on both.
    assert_eq!(
        get_plain(gateway.addr, "app.test", "/both").await.status,
        200
    );
    assert_eq!(get_tls(tls, &pki, "app.test", "/both").await.0, 200);
}
