//! Connection limits through the real gateway: nginx's `limit_conn` (requests in flight per key),
//! a place held from the request's admission to the end of its answer's body (or of its tunnel),
//! given back when the client leaves; keys per client address; a route without the limit; the
//! metrics. With `WEIR_E2E=1`, nginx with `limit_conn` answers the same schedule the same way.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use weir_testkit::nginx::Nginx;

use crate::support::*;

/// A body larger than the socket buffers on both sides of the gateway, so a client that does not
/// read it keeps the gateway writing.
const UNREAD_BODY: usize = 64 << 20;

/// Sends `request` on a connection from 127.0.0.1 and reads the answer's head only.
async fn head_only(addr: SocketAddr, request: &str) -> (TcpStream, String) {
    let mut stream = TcpStream::connect(addr).await.unwrap();
    stream.write_all(request.as_bytes()).await.unwrap();
    let head = read_to_marker(&mut stream, b"\r\n\r\n").await;
    (stream, String::from_utf8_lossy(&head).into_owned())
}

/// The statuses of the schedule while two requests of 127.0.0.1 are in flight: a third of
/// 127.0.0.1 on the limited route, one of 127.0.0.2 on it, and one of 127.0.0.1 on `/free/`.
async fn statuses_while_two_are_in_flight(addr: SocketAddr) -> Vec<StatusCode> {
    let other = IpAddr::V4(Ipv4Addr::new(127, 0, 0, 2));
    vec![
        Client::connect(addr).await.get("/").await.status,
        Client::connect_from(addr, other)
            .await
            .get("/")
            .await
            .status,
        Client::connect(addr).await.get("/free/").await.status,
    ]
}

/// A gateway config: one upstream `app` at `upstream`, a connection limit `perip` of
/// `connections`, the route `/` it applies to, and `more` routes after it.
fn limited(upstream: &str, connections: u32, more: &str) -> String {
    format!(
        r#"
[server]
listen = ["127.0.0.1:0"]
[upstreams.app]
servers = ["{upstream}"]
[connection_limits.perip]
connections = {connections}
[[routes]]
path = "/"
upstream = "app"
connection_limits = ["perip"]
{more}"#
    )
}

fn conn_limit_stats(gateway: &TestGateway) -> weir::ratelimit::ConnLimitStats {
    gateway.handle.conn_limit_stats()[0].1
}

/// Two requests of one client in flight, one of whose answers is still being sent (the client
/// reads only its head), the other waiting on the app: a third request of that client is refused
/// with 503, while another client and another route are served. A client that leaves gives its
/// place back, and so does an answer sent to its end. nginx with `limit_conn perip 2` answers
/// the schedule the same way.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_place_is_held_until_the_answer_is_sent_and_a_third_request_is_refused() {
    let upstream = UpstreamServer::start(Transport::Tcp).await;
    let gateway = TestGateway::start(&limited(
        &upstream.address,
        2,
        "[[routes]]\npath = \"/free/\"\nupstream = \"app\"\n",
    ))
    .await;
    let big =
        format!("GET /big?bytes={UNREAD_BODY} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    let (mut reading, head) = head_only(gateway.addr, &big).await;
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    let mut hanging = TcpStream::connect(gateway.addr).await.unwrap();
    hanging
        .write_all(b"GET /hang HTTP/1.1\r\nHost: x\r\n\r\n")
        .await
        .unwrap();
    wait_until("the app has both requests", Duration::from_secs(5), || {
        upstream.requests() == 2
    })
    .await;

    let statuses = statuses_while_two_are_in_flight(gateway.addr).await;
    assert_eq!(
        statuses,
        [
            StatusCode::SERVICE_UNAVAILABLE,
            StatusCode::OK,
            StatusCode::OK
        ]
    );
    assert_eq!(
        upstream.requests(),
        4,
        "the refused request never reached the app"
    );
    let stats = conn_limit_stats(&gateway);
    assert_eq!(
        (stats.refused, stats.in_flight, stats.keys),
        (1, 2, 1),
        "{stats:?}"
    );
    let metrics = gateway.handle.render_metrics();
    assert!(
        metrics.contains(
            "weir_connection_limit_decisions_total{limit=\"perip\",decision=\"refused\"} 1"
        ),
        "{metrics}"
    );

    // The client waiting on the app leaves: its place comes back.
    drop(hanging);
    wait_until(
        "the place of the client that left is back",
        Duration::from_secs(5),
        || conn_limit_stats(&gateway).in_flight == 1,
    )
    .await;
    assert_eq!(
        Client::connect(gateway.addr).await.get("/").await.status,
        StatusCode::OK
    );

    // The answer read to its end: the gateway gave the place back before it closed.
    let mut body = Vec::new();
    reading.read_to_end(&mut body).await.unwrap();
    assert!(body.len() >= UNREAD_BODY, "{} bytes", body.len());
    assert_eq!(conn_limit_stats(&gateway).in_flight, 0);
    assert_eq!(conn_limit_stats(&gateway).keys, 0);

    if !differential_enabled() {
        return;
    }
    let nginx = Nginx::start(
        "limit_conn_zone $binary_remote_addr zone=perip:1m;",
        &format!(
            r#"        location / {{
            limit_conn perip 2;
            proxy_pass http://{0};
        }}
        location /free/ {{
            proxy_pass http://{0};
        }}"#,
            upstream.address
        ),
    )
    .expect("nginx starts");
    let (_reading, head) = head_only(nginx.addr, &big).await;
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    let mut hanging = TcpStream::connect(nginx.addr).await.unwrap();
    hanging
        .write_all(b"GET /hang HTTP/1.1\r\nHost: x\r\n\r\n")
        .await
        .unwrap();
    let before = upstream.requests();
    wait_until(
        "the app has the hanging request",
        Duration::from_secs(5),
        || upstream.requests() > before,
    )
    .await;
    assert_eq!(
        statuses_while_two_are_in_flight(nginx.addr).await,
        statuses,
        "nginx logs: {}",
        nginx.logs()
    );
}

/// A WebSocket tunnel holds its place until it closes, as nginx counts an upgraded request
/// until its end: with `connections = 1`, a second handshake while the tunnel is open is
/// refused, and one after it closed opens.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tunnel_holds_its_place_until_it_closes() {
    let upstream = weir_testkit::RawUpstream::start(weir_testkit::Script::SwitchAndEcho).await;
    let gateway = TestGateway::start(&limited(&upstream.address, 1, "")).await;
    let tunnel = open_tunnel(gateway.addr).await;
    let refused = raw_exchange(
        gateway.addr,
        b"GET /ws HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
        Duration::from_secs(5),
    )
    .await;
    assert!(refused.starts_with("HTTP/1.1 503"), "{refused}");
    assert_eq!(upstream.connections(), 1);
    drop(tunnel);
    wait_until("the tunnel's place is back", Duration::from_secs(5), || {
        conn_limit_stats(&gateway).in_flight == 0
    })
    .await;
    let _again = open_tunnel(gateway.addr).await;
    assert_eq!(conn_limit_stats(&gateway).in_flight, 1);
}

/// `key = "all"` (nginx's `$server_name`): one count for every client, so a request of another
/// address is refused while the first is in flight, as nginx's `limit_conn perserver 1` refuses
/// it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_limit_keyed_by_all_counts_every_client_together() {
    let upstream = UpstreamServer::start(Transport::Tcp).await;
    let config = limited(&upstream.address, 1, "")
        .replace("connections = 1\n", "connections = 1\nkey = \"all\"\n");
    let gateway = TestGateway::start(&config).await;
    let other = IpAddr::V4(Ipv4Addr::new(127, 0, 0, 2));
    // The statuses of a request from 127.0.0.2 while one of 127.0.0.1 waits on the app, and
    // after that one has left (and how many were refused while its place was given back).
    let schedule = |addr: SocketAddr| {
        let upstream = &upstream;
        async move {
            let before = upstream.requests();
            let mut hanging = TcpStream::connect(addr).await.unwrap();
            hanging
                .write_all(b"GET /hang HTTP/1.1\r\nHost: x\r\n\r\n")
                .await
                .unwrap();
            wait_until("the app has the request", Duration::from_secs(5), || {
                upstream.requests() > before
            })
            .await;
            let during = Client::connect_from(addr, other)
                .await
                .get("/")
                .await
                .status;
            drop(hanging);
            let mut after = StatusCode::SERVICE_UNAVAILABLE;
            let mut refused_after = 0;
            for _ in 0..50 {
                after = Client::connect_from(addr, other)
                    .await
                    .get("/")
                    .await
                    .status;
                if after == StatusCode::OK {
                    break;
                }
                refused_after += 1;
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
            (during, after, refused_after)
        }
    };
    let (during, after, refused_after) = schedule(gateway.addr).await;
    assert_eq!(
        (during, after),
        (StatusCode::SERVICE_UNAVAILABLE, StatusCode::OK)
    );
    // Each refusal counted once: the one while the first was in flight, and any while the
    // gateway had not yet seen that client leave.
    assert_eq!(conn_limit_stats(&gateway).refused, 1 + refused_after);

    if !differential_enabled() {
        return;
    }
    let nginx = Nginx::start(
        "limit_conn_zone $server_name zone=perserver:1m;",
        &format!(
            // A server_name: nginx skips the empty key of a server without one.
            "        server_name example.test;\n        location / {{ limit_conn perserver 1; proxy_pass http://{}; }}",
            upstream.address
        ),
    )
    .expect("nginx starts");
    let (nginx_during, nginx_after, _) = schedule(nginx.addr).await;
    assert_eq!(
        (nginx_during, nginx_after),
        (during, after),
        "nginx logs: {}",
        nginx.logs()
    );
}
