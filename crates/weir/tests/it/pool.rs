//! The upstream pool: keep-alive reuse, `max_connections`, the FIFO queue and its time-out,
//! idle expiry, keep-alive off, Gunicorn-sync-style upstreams, the stale-connection retry, and
//! upgraded connections (tunnels), which keep their place, but for async workers: their tunnels
//! and streams give it back at the response head.
//! After each test the pool's in-use and waiting counts are back at zero.

use crate::support::*;

both_transports!(keepalive_reuses_one_connection, |transport| {
    let (upstream, gateway) = start(transport, "", "max_idle = 8\nidle_timeout = \"10s\"").await;
    let mut client = Client::connect(gateway.addr).await;
    for _ in 0..10 {
        assert_eq!(client.get("/").await.status, StatusCode::OK);
    }
    assert_eq!(upstream.connections(), 1);
    let stats = gateway.handle.pool_stats()[0].2;
    assert_eq!((stats.open, stats.idle, stats.in_use), (1, 1, 0));
});

both_transports!(max_connections_caps_open_connections, |transport| {
    let (upstream, gateway) =
        start(transport, "", "max_connections = 2\nidle_timeout = \"10s\"").await;
    let mut tasks = Vec::new();
    for _ in 0..10 {
        let addr = gateway.addr;
        tasks.push(tokio::spawn(async move {
            Client::connect(addr).await.get("/slow?ms=50").await.status
        }));
    }
    for task in tasks {
        assert_eq!(task.await.unwrap(), StatusCode::OK);
    }
    assert!(
        upstream.connections() <= 2,
        "opened {}",
        upstream.connections()
    );
    gateway.wait_pools_quiet(Duration::from_secs(2)).await;
});

both_transports!(full_pool_queues_then_answers_503, |transport| {
    let (_upstream, gateway) = start(
        transport,
        "",
        "max_connections = 1\nqueue_timeout = \"150ms\"",
    )
    .await;
    let addr = gateway.addr;
    let slow =
        tokio::spawn(async move { Client::connect(addr).await.get("/slow?ms=800").await.status });
    wait_until_in_use(&gateway, 1).await;
    let queued = Client::connect(addr).await.get("/").await;
    assert_eq!(queued.status, StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(slow.await.unwrap(), StatusCode::OK);
    gateway.wait_pools_quiet(Duration::from_secs(2)).await;
    let stats = gateway.handle.pool_stats()[0].2;
    assert_eq!(stats.queue_timeouts, 1);
    assert!(stats.open <= 1);
});

both_transports!(queue_is_served_in_order, |transport| {
    let (_upstream, gateway) =
        start(transport, "", "max_connections = 1\nqueue_timeout = \"5s\"").await;
    let addr = gateway.addr;
    let order = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let mut tasks = Vec::new();
    for index in 0..4 {
        let order = std::sync::Arc::clone(&order);
        tasks.push(tokio::spawn(async move {
            let reply = Client::connect(addr).await.get("/slow?ms=60").await;
            order.lock().unwrap().push(index);
            reply.status
        }));
        // Let each request reach the queue before the next.
        wait_until_checked_out(&gateway, index + 1).await;
    }
    for task in tasks {
        assert_eq!(task.await.unwrap(), StatusCode::OK);
    }
    assert_eq!(*order.lock().unwrap(), vec![0, 1, 2, 3]);
});

both_transports!(full_queue_answers_503_at_once, |transport| {
    let (_upstream, gateway) = start(transport, "", "max_connections = 1\nqueue_size = 0").await;
    let addr = gateway.addr;
    let slow =
        tokio::spawn(async move { Client::connect(addr).await.get("/slow?ms=500").await.status });
    wait_until_in_use(&gateway, 1).await;
    let refused = Client::connect(addr).await.get("/").await;
    assert_eq!(refused.status, StatusCode::SERVICE_UNAVAILABLE);
    // At once: by order, not by a clock. The refusal came while the request holding the place
    // was still in flight, so it did not wait for the place.
    assert!(
        !slow.is_finished(),
        "the refusal waited for the place to free"
    );
    assert_eq!(slow.await.unwrap(), StatusCode::OK);
    gateway.wait_pools_quiet(Duration::from_secs(2)).await;
});

both_transports!(idle_connections_expire, |transport| {
    let (upstream, gateway) = start(transport, "", "idle_timeout = \"100ms\"").await;
    assert_eq!(
        Client::connect(gateway.addr).await.get("/").await.status,
        StatusCode::OK
    );
    assert_eq!(gateway.handle.pool_stats()[0].2.idle, 1);
    wait_until(
        "the idle connection to expire",
        Duration::from_secs(5),
        || {
            let stats = gateway.handle.pool_stats()[0].2;
            (stats.open, stats.idle) == (0, 0)
        },
    )
    .await;
    // The upstream sees the connection closed too.
    wait_until(
        "the upstream to see its connection closed",
        Duration::from_secs(5),
        || upstream.open_connections() == 0,
    )
    .await;
    assert_eq!(
        Client::connect(gateway.addr).await.get("/").await.status,
        StatusCode::OK
    );
    assert_eq!(upstream.connections(), 2);
});

// `keepalive_time`: a connection busy all along (never idle for its `idle_timeout`) is reused
// until it has been open that long, then closed after its response and replaced. Without it, a
// Gunicorn worker stopping for a graceful reload waited for such a connection until Gunicorn's
// `timeout` killed the worker, at times in the middle of a response (faults.rs).
both_transports!(
    a_connection_open_for_keepalive_time_is_replaced,
    |transport| {
        let (upstream, gateway) = start(
            transport,
            "keepalive_requests = 1000000",
            "max_idle = 8\nidle_timeout = \"10s\"\nkeepalive_time = \"300ms\"",
        )
        .await;
        // Requests one after another, on one client connection (so one thread, which reuses its own
        // upstream connection), until the first upstream connection is replaced, within 10 s.
        let mut client = Client::connect(gateway.addr).await;
        let deadline = std::time::Instant::now() + Duration::from_secs(10);
        while upstream.connections() < 2 {
            assert!(
                std::time::Instant::now() < deadline,
                "one connection kept for {} requests",
                upstream.requests()
            );
            assert_eq!(client.get("/").await.status, StatusCode::OK);
        }
        // It carried several requests before (reused, not closed after each).
        assert!(upstream.requests() > 2, "{} requests", upstream.requests());
        wait_until(
            "the upstream to see the old connection closed",
            Duration::from_secs(5),
            || upstream.open_connections() == 1,
        )
        .await;
        gateway.wait_pools_quiet(Duration::from_secs(2)).await;
    }
);

both_transports!(max_idle_zero_turns_keepalive_off, |transport| {
    let (upstream, gateway) = start(transport, "", "max_idle = 0").await;
    let mut client = Client::connect(gateway.addr).await;
    for _ in 0..3 {
        assert_eq!(client.get("/headers").await.status, StatusCode::OK);
    }
    assert_eq!(upstream.connections(), 3);
    assert_eq!(gateway.handle.pool_stats()[0].2.open, 0);
});

both_transports!(
    sync_worker_upstream_that_closes_after_each_response,
    |transport| {
        let upstream = UpstreamServer::start_with(
            transport,
            weir_testkit::upstream::Options { keep_alive: false },
        )
        .await;
        let gateway = TestGateway::start(&config(&upstream.address, "", "")).await;
        let mut client = Client::connect(gateway.addr).await;
        for _ in 0..5 {
            let reply = client.get("/").await;
            assert_eq!(reply.status, StatusCode::OK);
            assert_eq!(reply.text(), "hello");
        }
        assert_eq!(upstream.connections(), 5);
        gateway.wait_pools_quiet(Duration::from_secs(2)).await;
    }
);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stale_connection_is_retried_once_for_safe_requests() {
    let flaky = FlakyUpstream::start().await;
    let gateway = TestGateway::start(&config(&flaky.address, "", "idle_timeout = \"10s\"")).await;
    let mut client = Client::connect(gateway.addr).await;
    assert_eq!(client.get("/a").await.text(), "ok");
    // The pooled connection is closed by the upstream when reused: GET is retried on a new one.
    let retried = client.get("/b").await;
    assert_eq!(retried.status, StatusCode::OK);
    assert_eq!(retried.text(), "ok");
    assert_eq!(flaky.connections(), 2);
    // A POST with a body was sent and cannot be repeated: 502.
    let post = client.request(Method::POST, "/c", "payload").await;
    assert_eq!(post.status, StatusCode::BAD_GATEWAY);
    gateway.wait_pools_quiet(Duration::from_secs(2)).await;
}

/// Issue 8's suspected pool bug, proved: an upstream that answers before it has the request body
/// (a 413, or a 200 to an upload it ignores) used to get its connection back in the pool while
/// the body was still being sent, and the next request on it waited in `ready()` with no time-out
/// for that body to finish: behind a stalled upload, forever. A connection goes back to the pool
/// only once its request body is sent whole (nginx's keepalive module has the same rule,
/// `request_body_sent`); otherwise it is closed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connection_answered_before_its_body_was_sent_is_not_reused() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    use weir_testkit::{RawUpstream, Script};

    let upstream = RawUpstream::start(Script::AnswerBeforeBody).await;
    let gateway = TestGateway::start(&format!(
        r#"
[server]
listen = ["127.0.0.1:0"]

[upstreams.app]
servers = ["{}"]
idle_timeout = "30s"

[[routes]]
path = "/"
upstream = "app"
request_buffering = false
"#,
        upstream.address
    ))
    .await;

    // An upload that stalls after 10 of its 100,000 bytes; the upstream answers 413 at once.
    let mut stalled = tokio::net::TcpStream::connect(gateway.addr).await.unwrap();
    stalled
        .write_all(
            b"POST /upload HTTP/1.1\r\nHost: test\r\nContent-Length: 100000\r\n\r\n0123456789",
        )
        .await
        .unwrap();
    let mut head = Vec::new();
    let mut chunk = [0u8; 1024];
    while !head.windows(4).any(|window| window == b"\r\n\r\n") {
        let read = tokio::time::timeout(Duration::from_secs(10), stalled.read(&mut chunk))
            .await
            .expect("the 413 arrives")
            .unwrap();
        assert!(read > 0, "closed before the 413");
        head.extend_from_slice(&chunk[..read]);
    }
    assert!(
        head.starts_with(b"HTTP/1.1 413"),
        "{}",
        String::from_utf8_lossy(&head)
    );

    // The next request is answered, not parked behind the stalled upload's connection.
    let next = tokio::time::timeout(Duration::from_secs(10), async {
        Client::connect(gateway.addr).await.get("/").await
    })
    .await
    .expect("the next request is answered, not stuck behind the stalled upload");
    assert_eq!(next.status, StatusCode::OK);
    assert_eq!(next.text(), "ok");
    assert_eq!(upstream.connections(), 2);
    gateway.wait_pools_quiet(Duration::from_secs(2)).await;
    drop(stalled);
}

/// An upgraded connection (a WebSocket tunnel) keeps its pool slot until it closes, as nginx's
/// `max_conns` counts upgraded connections: with `max_connections = 1` and no queue, a request
/// while the tunnel is open is refused with a 503 at once and opens no second connection; once
/// the tunnel closes, its place is free again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tunnel_keeps_its_pool_slot_until_it_closes() {
    let upstream = weir_testkit::RawUpstream::start(weir_testkit::Script::SwitchAndEcho).await;
    let gateway = TestGateway::start(&config(
        &upstream.address,
        "",
        "max_connections = 1\nqueue_size = 0",
    ))
    .await;
    let tunnel = open_tunnel(gateway.addr).await;

    // The one place is the tunnel's: the next request finds the pool full and no queue.
    let refused = raw_exchange(
        gateway.addr,
        b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
        Duration::from_secs(5),
    )
    .await;
    let stats = gateway.handle.pool_stats()[0].2;
    assert!(
        refused.starts_with("HTTP/1.1 503"),
        "a request past max_connections was not refused ({} upstream connections, {stats:?}): {refused}",
        upstream.connections()
    );
    assert_eq!(upstream.connections(), 1);
    assert_eq!(
        (stats.open, stats.idle, stats.in_use),
        (1, 0, 1),
        "{stats:?}"
    );

    // The tunnel closes: its place comes back.
    drop(tunnel);
    gateway.wait_pools_quiet(Duration::from_secs(5)).await;
    let stats = gateway.handle.pool_stats()[0].2;
    assert_eq!((stats.open, stats.in_use), (0, 0), "{stats:?}");
}

/// Async workers serve their tunnels between their other requests, so with `worker_class =
/// "async"` an upgraded connection gives its place back at the 101: with `workers = 1` and no
/// queue, a second tunnel is opened while the first is open (a place held until the tunnel's end
/// refused it with a 503, and with a queue kept every other request waiting), and neither counts
/// in the pool's `open`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_async_workers_tunnel_gives_its_place_back_at_the_switch() {
    let upstream = weir_testkit::RawUpstream::start(weir_testkit::Script::SwitchAndEcho).await;
    let gateway = TestGateway::start(&config(
        &upstream.address,
        "",
        "workers = 1\nworker_class = \"async\"\nqueue_size = 0",
    ))
    .await;
    let first = open_tunnel(gateway.addr).await;
    let second = open_tunnel(gateway.addr).await;
    assert_eq!(upstream.connections(), 2);
    let stats = gateway.handle.pool_stats()[0].2;
    assert_eq!((stats.open, stats.in_use), (0, 0), "{stats:?}");
    drop((first, second));
    gateway.wait_pools_quiet(Duration::from_secs(5)).await;
    let stats = gateway.handle.pool_stats()[0].2;
    assert_eq!((stats.open, stats.in_use), (0, 0), "{stats:?}");
}

both_transports!(
    an_async_workers_stream_gives_its_place_back_at_the_head,
    |transport| {
        // Async workers serve their streams between their other requests, so with `worker_class =
        // "async"` a body of unknown length gives its place back at the head: with `workers = 1`
        // and no queue, a request is served while a chunked body is still streaming (a place held
        // until the stream's end refused it with a 503). The cap still holds for connections that
        // come back: the stream's takes a place again at its end only if one is free.
        let (upstream, gateway) = start(
            transport,
            "",
            "workers = 1\nworker_class = \"async\"\nqueue_size = 0\nmax_idle = 8",
        )
        .await;
        let mut stream = start_stream(gateway.addr).await;
        let during = Client::connect(gateway.addr).await.get("/").await;
        assert_eq!(during.status, StatusCode::OK, "{}", during.text());
        // The request's connection is idle in the one place: the stream's, at its end, closes.
        finish_stream(&mut stream).await;
        gateway.wait_pools_quiet(Duration::from_secs(5)).await;
        let stats = gateway.handle.pool_stats()[0].2;
        assert_eq!((stats.open, stats.idle), (1, 1), "{stats:?}");
        assert_eq!(upstream.connections(), 2);
        // A stream on the idle connection gives its place back at the head, and at its end takes
        // the free place again: the next request reuses it.
        let mut stream = start_stream(gateway.addr).await;
        let stats = gateway.handle.pool_stats()[0].2;
        assert_eq!((stats.open, stats.in_use), (0, 0), "{stats:?}");
        finish_stream(&mut stream).await;
        gateway.wait_pools_quiet(Duration::from_secs(5)).await;
        let again = Client::connect(gateway.addr).await.get("/").await;
        assert_eq!(again.status, StatusCode::OK);
        assert_eq!(
            upstream.connections(),
            2,
            "the stream's connection was kept"
        );
        let stats = gateway.handle.pool_stats()[0].2;
        assert_eq!((stats.open, stats.idle), (1, 1), "{stats:?}");
    }
);

/// Asks `/chunked` with a second between its chunks, and reads its head and first chunk.
async fn start_stream(gateway: std::net::SocketAddr) -> tokio::net::TcpStream {
    use tokio::io::AsyncWriteExt;

    let mut stream = tokio::net::TcpStream::connect(gateway).await.unwrap();
    stream
        .write_all(b"GET /chunked?ms=1000 HTTP/1.1\r\nHost: x\r\n\r\n")
        .await
        .unwrap();
    let head = read_to_marker(&mut stream, b"one ").await;
    assert!(
        head.starts_with(b"HTTP/1.1 200"),
        "{}",
        String::from_utf8_lossy(&head)
    );
    stream
}

/// Reads the rest of a [`start_stream`] body, to its last chunk.
async fn finish_stream(stream: &mut tokio::net::TcpStream) {
    let rest = read_to_marker(stream, b"0\r\n\r\n").await;
    assert!(rest.windows(5).any(|window| window == b"three"));
}

/// Waits until the first pool has `in_use` connections in use (a request holding each).
async fn wait_until_in_use(gateway: &TestGateway, in_use: usize) {
    wait_until(
        format!("{in_use} pool connection(s) in use"),
        Duration::from_secs(5),
        || gateway.handle.pool_stats()[0].2.in_use == in_use,
    )
    .await;
}

/// Waits until `requests` requests have reached the first pool: given a connection (opened or
/// reused) or waiting in its queue.
async fn wait_until_checked_out(gateway: &TestGateway, requests: usize) {
    wait_until(
        format!("{requests} request(s) at the pool"),
        Duration::from_secs(5),
        || {
            let stats = gateway.handle.pool_stats()[0].2;
            (stats.connects + stats.reuses) as usize + stats.waiting >= requests
        },
    )
    .await;
}
