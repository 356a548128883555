//! Each failure gets its status and a short plain-text body, and none leaks a pool slot:
//! 502 refused/missing socket, 504 connect and read time-outs, 413, 431, 400, header time-out,
//! and a client that goes away mid-request.

use weir_testkit::{RawUpstream, Script};

use crate::support::*;

#[tokio::test]
async fn refused_tcp_upstream_gives_502() {
    let dead = RefusingPort::new();
    let gateway = TestGateway::start(&config(&dead.address, "", "")).await;
    let reply = Client::connect(gateway.addr).await.get("/").await;
    assert_eq!(reply.status, StatusCode::BAD_GATEWAY);
    assert_eq!(reply.text(), "502 Bad Gateway\n");
    assert_eq!(
        reply.header("content-type"),
        Some("text/plain; charset=utf-8")
    );
    gateway.wait_pools_quiet(Duration::from_secs(1)).await;
    assert_eq!(gateway.handle.pool_stats()[0].2.open, 0);
}

#[tokio::test]
async fn missing_socket_file_gives_502() {
    let dir = tempfile::tempdir().unwrap();
    let address = format!("unix:{}", dir.path().join("absent.sock").display());
    let gateway = TestGateway::start(&config(&address, "", "")).await;
    let reply = Client::connect(gateway.addr).await.get("/").await;
    assert_eq!(reply.status, StatusCode::BAD_GATEWAY);
    assert_eq!(gateway.handle.pool_stats()[0].2.open, 0);
}

#[tokio::test]
async fn connect_timeout_gives_504() {
    // A listener whose accept queue is full drops further SYNs, so connects hang.
    let socket = socket2::Socket::new(socket2::Domain::IPV4, socket2::Type::STREAM, None).unwrap();
    socket
        .bind(
            &"127.0.0.1:0"
                .parse::<std::net::SocketAddr>()
                .unwrap()
                .into(),
        )
        .unwrap();
    socket.listen(0).unwrap();
    let address = socket.local_addr().unwrap().as_socket().unwrap();
    let mut fillers = Vec::new();
    for _ in 0..4 {
        if let Ok(Ok(stream)) = tokio::time::timeout(
            Duration::from_millis(200),
            tokio::net::TcpStream::connect(address),
        )
        .await
        {
            fillers.push(stream);
        }
    }
    let gateway = TestGateway::start(&config(
        &address.to_string(),
        "",
        "connect_timeout = \"200ms\"",
    ))
    .await;
    let reply = Client::connect(gateway.addr).await.get("/").await;
    assert_eq!(reply.status, StatusCode::GATEWAY_TIMEOUT);
    assert_eq!(gateway.handle.pool_stats()[0].2.open, 0);
}

both_transports!(read_timeout_gives_504_and_frees_the_slot, |transport| {
    let (_upstream, gateway) = start(
        transport,
        "",
        "read_timeout = \"200ms\"\nmax_connections = 1",
    )
    .await;
    let mut client = Client::connect(gateway.addr).await;
    assert_eq!(
        client.get("/hang").await.status,
        StatusCode::GATEWAY_TIMEOUT
    );
    gateway.wait_pools_quiet(Duration::from_secs(1)).await;
    assert_eq!(gateway.handle.pool_stats()[0].2.open, 0);
    // The one allowed connection is free again.
    assert_eq!(client.get("/").await.status, StatusCode::OK);
});

// One read timer serves all of an upstream connection's exchanges, moved later for each: it
// must still run out on a reused connection, and a wait that ran out while the connection was
// idle in the pool must not cut short the next exchange.
both_transports!(read_timeout_holds_on_a_reused_connection, |transport| {
    let (_upstream, gateway) = start(
        transport,
        "",
        "read_timeout = \"300ms\"\nmax_connections = 1",
    )
    .await;
    let mut client = Client::connect(gateway.addr).await;
    assert_eq!(client.get("/").await.status, StatusCode::OK);
    // The first exchange's wait runs out while its connection idles in the pool: the idle time
    // is what this tests, not a wait for a state.
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(client.get("/slow?ms=100").await.status, StatusCode::OK);
    assert_eq!(client.get("/").await.status, StatusCode::OK);
    assert_eq!(
        client.get("/hang").await.status,
        StatusCode::GATEWAY_TIMEOUT
    );
    assert_eq!(client.get("/").await.status, StatusCode::OK);
});

/// An upstream that sends part of a body and then nothing: the response ends, broken, once
/// `read_timeout` passes without a byte, and its connection is not pooled.
#[tokio::test]
async fn a_response_body_that_stalls_ends_at_read_timeout() {
    let head = b"HTTP/1.1 200 OK\r\ncontent-length: 10\r\n\r\nabc".to_vec();
    let upstream = RawUpstream::start(Script::Reply(head)).await;
    let gateway = TestGateway::start(&config(
        &upstream.address,
        "",
        "read_timeout = \"300ms\"\nmax_fails = 0",
    ))
    .await;
    let request = Request::get("/")
        .body(http_body_util::Full::new(bytes::Bytes::new()))
        .unwrap();
    let mut client = Client::connect(gateway.addr).await;
    let reply = tokio::time::timeout(Duration::from_secs(10), client.send(request))
        .await
        .expect("ended, not hung");
    assert!(reply.is_err(), "a body cut short must not read as whole");
    gateway.wait_pools_quiet(Duration::from_secs(5)).await;
    assert_eq!(gateway.handle.pool_stats()[0].2.open, 0);
}

both_transports!(upstream_dying_mid_exchange_gives_502, |transport| {
    let (upstream, gateway) = start(transport, "", "").await;
    let addr = gateway.addr;
    let pending =
        tokio::spawn(async move { Client::connect(addr).await.get("/hang").await.status });
    wait_until(
        "the request to reach the upstream",
        Duration::from_secs(5),
        || upstream.requests() == 1,
    )
    .await;
    upstream.stop();
    assert_eq!(pending.await.unwrap(), StatusCode::BAD_GATEWAY);
    gateway.wait_pools_quiet(Duration::from_secs(1)).await;
});

both_transports!(
    content_length_over_the_limit_gives_413_without_the_upstream,
    |transport| {
        let (upstream, gateway) = start(transport, r#"max_body_size = "1KiB""#, "").await;
        let reply = Client::connect(gateway.addr)
            .await
            .request(Method::POST, "/echo", vec![b'a'; 2048])
            .await;
        assert_eq!(reply.status, StatusCode::PAYLOAD_TOO_LARGE);
        assert_eq!(upstream.requests(), 0);
    }
);

both_transports!(chunked_body_over_the_limit_gives_413, |transport| {
    let (_upstream, gateway) = start(transport, r#"max_body_size = "1KiB""#, "").await;
    let mut raw =
        b"POST /consume HTTP/1.1\r\nhost: x\r\ntransfer-encoding: chunked\r\n\r\n".to_vec();
    for _ in 0..4 {
        raw.extend_from_slice(b"200\r\n");
        raw.extend_from_slice(&[b'a'; 512]);
        raw.extend_from_slice(b"\r\n");
    }
    raw.extend_from_slice(b"0\r\n\r\n");
    let answer = raw_exchange(gateway.addr, &raw, Duration::from_secs(2)).await;
    assert!(answer.starts_with("HTTP/1.1 413"), "{answer}");
    gateway.wait_pools_quiet(Duration::from_secs(1)).await;
});

#[tokio::test]
async fn oversized_head_gives_431() {
    let (_upstream, gateway) = start(Transport::Tcp, r#"max_header_size = "8KiB""#, "").await;
    let raw = format!(
        "GET / HTTP/1.1\r\nhost: x\r\nx-big: {}\r\n\r\n",
        "a".repeat(20_000)
    );
    let answer = raw_exchange(gateway.addr, raw.as_bytes(), Duration::from_secs(2)).await;
    assert!(answer.starts_with("HTTP/1.1 431"), "{answer}");
}

#[tokio::test]
async fn malformed_request_gives_400() {
    let (upstream, gateway) = start(Transport::Tcp, "", "").await;
    let answer = raw_exchange(
        gateway.addr,
        b"GARBAGE\x01 / HTTP/1.1\r\n\r\n",
        Duration::from_secs(2),
    )
    .await;
    assert!(answer.starts_with("HTTP/1.1 400"), "{answer}");
    let conflicting =
        b"POST / HTTP/1.1\r\nhost: x\r\ncontent-length: 3\r\ncontent-length: 4\r\n\r\nabcd";
    let answer = raw_exchange(gateway.addr, conflicting, Duration::from_secs(2)).await;
    assert!(answer.starts_with("HTTP/1.1 400"), "{answer}");
    assert_eq!(upstream.requests(), 0);
}

#[tokio::test]
async fn incomplete_head_is_closed_after_header_timeout() {
    let (_upstream, gateway) = start(Transport::Tcp, r#"header_timeout = "200ms""#, "").await;
    let started = std::time::Instant::now();
    let answer = raw_exchange(
        gateway.addr,
        b"GET / HTTP/1.1\r\nhost: x\r\n",
        Duration::from_secs(5),
    )
    .await;
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "connection was not closed"
    );
    assert!(
        answer.is_empty() || answer.starts_with("HTTP/1.1 408"),
        "{answer}"
    );
}

both_transports!(
    client_disconnect_cancels_the_upstream_exchange,
    |transport| {
        let (upstream, gateway) = start(transport, "", "").await;
        let addr = gateway.addr;
        let client = tokio::spawn(async move { Client::connect(addr).await.get("/hang").await });
        wait_until(
            "the request to reach the upstream",
            Duration::from_secs(5),
            || upstream.requests() == 1,
        )
        .await;
        assert_eq!(gateway.handle.pool_stats()[0].2.in_use, 1);
        client.abort();
        gateway.wait_pools_quiet(Duration::from_secs(2)).await;
        assert_eq!(gateway.handle.pool_stats()[0].2.open, 0);
        wait_until(
            "the upstream connection to be closed",
            Duration::from_secs(5),
            || upstream.open_connections() == 0,
        )
        .await;
    }
);

/// A route's `read_timeout` over its upstream's, as nginx's `proxy_read_timeout` in a location:
/// a longer one lets a slow answer through that the upstream's cuts off with 504, a shorter one
/// cuts off an answer the upstream's would wait for. With `WEIR_E2E=1`, nginx with the same
/// time-outs per location answers the same statuses.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_routes_read_timeout_replaces_its_upstreams_as_a_locations_does() {
    let (upstream, gateway) = start(
        Transport::Tcp,
        "",
        r#"read_timeout = "300ms"
[[routes]]
path = "/long/"
upstream = "app"
upstream_path = "/"
read_timeout = "3s"
[[routes]]
path = "/short/"
upstream = "app"
upstream_path = "/"
read_timeout = "100ms""#,
    )
    .await;
    let cases = [
        ("/slow?ms=1000", 504),
        ("/long/slow?ms=1000", 200),
        ("/short/slow?ms=200", 504),
        ("/slow?ms=200", 200),
    ];
    let statuses = |addr| async move {
        let mut statuses = Vec::new();
        for (path, _) in cases {
            let reply = Client::connect(addr).await.get(path).await;
            statuses.push((path, reply.status.as_u16()));
        }
        statuses
    };
    let expected: Vec<(&str, u16)> = cases.to_vec();
    assert_eq!(statuses(gateway.addr).await, expected);

    if !differential_enabled() {
        return;
    }
    let nginx = weir_testkit::nginx::Nginx::start(
        "",
        &format!(
            "        location / {{ proxy_pass http://{0}; proxy_read_timeout 300ms; }}\n\
             location /long/ {{ proxy_pass http://{0}/; proxy_read_timeout 3s; }}\n\
             location /short/ {{ proxy_pass http://{0}/; proxy_read_timeout 100ms; }}",
            upstream.address
        ),
    )
    .expect("nginx starts");
    assert_eq!(statuses(nginx.addr).await, expected, "{}", nginx.logs());
}

/// A WebSocket tunnel is idle for its route's `read_timeout`, not its upstream's (a location's
/// `proxy_read_timeout 3600s` for its WebSocket, the app's other routes at 60 s): idle for
/// longer than the upstream's, a tunnel of a route with a longer one still carries messages.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tunnel_idles_for_its_routes_read_timeout() {
    let upstream = RawUpstream::start(Script::SwitchAndEcho).await;
    // The route `/` ends the config: the last line is its own.
    let config = config(&upstream.address, "", r#"read_timeout = "200ms""#);
    let gateway = TestGateway::start(&format!("{config}read_timeout = \"30s\"\n")).await;
    let mut tunnel = open_tunnel(gateway.addr).await;
    // Past the upstream's read_timeout: the wait is what this tests.
    tokio::time::sleep(Duration::from_millis(600)).await;
    ping_through(&mut tunnel).await;
}
