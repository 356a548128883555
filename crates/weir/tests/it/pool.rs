//! The upstream pool: keep-alive reuse, `max_connections`, the FIFO queue and its time-out,
//! idle expiry, keep-alive off, Gunicorn-sync-style upstreams, and the stale-connection retry.
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
    tokio::time::sleep(Duration::from_millis(100)).await;
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
        tokio::time::sleep(Duration::from_millis(20)).await;
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
    tokio::time::sleep(Duration::from_millis(100)).await;
    let started = std::time::Instant::now();
    let refused = Client::connect(addr).await.get("/").await;
    assert_eq!(refused.status, StatusCode::SERVICE_UNAVAILABLE);
    assert!(started.elapsed() < Duration::from_millis(400));
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
    tokio::time::sleep(Duration::from_millis(400)).await;
    let stats = gateway.handle.pool_stats()[0].2;
    assert_eq!((stats.open, stats.idle), (0, 0));
    // The upstream sees the connection closed too.
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert_eq!(upstream.open_connections(), 0);
    assert_eq!(
        Client::connect(gateway.addr).await.get("/").await.status,
        StatusCode::OK
    );
    assert_eq!(upstream.connections(), 2);
});

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
