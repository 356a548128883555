//! Rate limits through the real gateway: nginx `limit_req` semantics (burst, rejections that cost
//! nothing, two-stage delay, several limits charged all or none, empty keys, dry run), the
//! response headers (`Retry-After`, draft-10 `RateLimit`/`RateLimit-Policy`, legacy, off), a
//! thousand simultaneous requests on one key, rejections that never reach the upstream, each case
//! against the memory backend and a real `redis-server` (`both_backends!`); two gateways sharing
//! one Redis; Redis killed and restarted under each `on_redis_error`; and, when `WEIR_E2E=1`, a
//! differential test that runs one request schedule against a real nginx-light and against weir
//! and compares the decisions.
//!
//! Rates are chosen so each test takes well under two seconds: a test that needs a key to refill
//! uses a period of 100-200 ms, and one that must not refill uses `1r/m`.

use std::sync::Arc;

use bytes::Bytes;
use http_body_util::Full;
use tokio::io::AsyncWriteExt;
use tokio::time::Instant;
use weir::ratelimit::LimitStats;
use weir_testkit::nginx::Nginx;
use weir_testkit::redis::RedisServer;
use weir_testkit::Reply;

use crate::support::*;

/// A config with one upstream `app` at `upstream`, the `[limits.NAME]` tables in `limits`, and
/// one route `/` applying `route_limits` in order.
fn limited_config(upstream: &str, limits: &str, route_limits: &[&str]) -> String {
    format!(
        r#"
[server]
listen = ["127.0.0.1:0"]
shutdown_grace = "5s"

[upstreams.app]
servers = ["{upstream}"]

{limits}

[[routes]]
path = "/"
upstream = "app"
limits = {route_limits:?}
"#
    )
}

/// A TCP upstream and a gateway in front of it applying `route_limits`.
async fn start_limited(limits: &str, route_limits: &[&str]) -> (UpstreamServer, TestGateway) {
    let upstream = UpstreamServer::start(Transport::Tcp).await;
    let gateway =
        TestGateway::start(&limited_config(&upstream.address, limits, route_limits)).await;
    (upstream, gateway)
}

/// `GET /` with extra request headers.
async fn get_with(client: &mut Client, headers: &[(&str, &str)]) -> Reply {
    let mut request = Request::builder().method(Method::GET).uri("/");
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let request = request
        .body(Full::new(Bytes::new()))
        .expect("valid request");
    client.send(request).await.expect("request failed")
}

/// The decision counts of limit `name`.
fn stats(gateway: &TestGateway, name: &str) -> LimitStats {
    gateway
        .handle
        .limiter_stats()
        .into_iter()
        .find(|(limit, _)| limit == name)
        .map(|(_, stats)| stats)
        .unwrap_or_else(|| panic!("no limit {name:?}"))
}

/// `(status, Retry-After, RateLimit-Policy, RateLimit)` of a reply, for one-line assertions.
fn draft10(reply: &Reply) -> (u16, Option<&str>, Option<&str>, Option<&str>) {
    (
        reply.status.as_u16(),
        reply.header("retry-after"),
        reply.header("ratelimit-policy"),
        reply.header("ratelimit"),
    )
}

/// `(status, Retry-After, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset)`.
fn legacy(reply: &Reply) -> (u16, Option<&str>, Option<&str>, Option<&str>, Option<&str>) {
    (
        reply.status.as_u16(),
        reply.header("retry-after"),
        reply.header("x-ratelimit-limit"),
        reply.header("x-ratelimit-remaining"),
        reply.header("x-ratelimit-reset"),
    )
}

// nginx-tests limit_req.t: `2r/s burst=1 nodelay` answers 200, 200, then the limit's status. The
// numbers: quota 2 (burst + 1) over a 1 s window; after the first request one remains and the
// next comes back within 500 ms (t rounds up to 1); the rejection may retry in under 500 ms
// (Retry-After rounds up to 1, never 0).
both_backends!(burst_one_nodelay_admits_two_then_rejects, |backend| {
    let limits = format!(
        "[limits.per_ip]\nrate = \"2r/s\"\nburst = 1\nnodelay = true\n{}",
        backend.toml()
    );
    let (upstream, gateway) = start_limited(&limits, &["per_ip"]).await;
    let mut client = Client::connect(gateway.addr).await;
    let first = client.get("/").await;
    let second = client.get("/").await;
    let third = client.get("/").await;
    let policy = Some(r#""per_ip";q=2;w=1"#);
    assert_eq!(
        draft10(&first),
        (200, None, policy, Some(r#""per_ip";r=1;t=1"#))
    );
    assert_eq!(first.text(), "hello");
    assert_eq!(
        draft10(&second),
        (200, None, policy, Some(r#""per_ip";r=0;t=1"#))
    );
    assert_eq!(
        draft10(&third),
        (429, Some("1"), policy, Some(r#""per_ip";r=0;t=1"#))
    );
    assert_eq!(upstream.requests(), 2);
    let stats = stats(&gateway, "per_ip");
    assert_eq!((stats.passed, stats.rejected), (2, 1), "{stats:?}");
});

// IPv6 clients are counted by /64 (`ipv6_prefix`, default 64): an end site that rotates through
// its /64 is one client, a neighbouring /64 another. The client addresses come from a trusted
// proxy's `X-Forwarded-For`.
both_backends!(ipv6_clients_share_a_bucket_per_prefix, |backend| {
    let upstream = UpstreamServer::start(Transport::Tcp).await;
    let config = limited_config(
        &upstream.address,
        &format!("[limits.per_ip]\nrate = \"1r/m\"\n{}", backend.toml()),
        &["per_ip"],
    )
    .replace(
        "shutdown_grace = \"5s\"",
        "shutdown_grace = \"5s\"\ntrusted_proxies = [\"127.0.0.1\"]",
    );
    let gateway = TestGateway::start(&config).await;
    let mut client = Client::connect(gateway.addr).await;
    let from = |address| [("x-forwarded-for", address)];
    let first = get_with(&mut client, &from("2001:db8:0:1::1")).await;
    let same_64 = get_with(&mut client, &from("2001:db8:0:1:ffff:abcd::7")).await;
    let next_64 = get_with(&mut client, &from("2001:db8:0:2::1")).await;
    let ipv4 = get_with(&mut client, &from("192.0.2.1")).await;
    let other_ipv4 = get_with(&mut client, &from("192.0.2.2")).await;
    assert_eq!(first.status, StatusCode::OK);
    assert_eq!(same_64.status, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(next_64.status, StatusCode::OK);
    assert_eq!(ipv4.status, StatusCode::OK);
    assert_eq!(other_ipv4.status, StatusCode::OK);
    assert_eq!(upstream.requests(), 4);
});

// nginx-tests limit_req.t "rejects not counted": at 10r/s without burst, the rejections that
// follow a pass cost nothing, so the key is free again one period after the pass. Were each
// rejection charged, three of them would push the next pass 300 ms further.
both_backends!(rejected_requests_cost_nothing, |backend| {
    let limits = format!(
        "[limits.per_ip]\nrate = \"10r/s\"\nnodelay = true\n{}",
        backend.toml()
    );
    let (upstream, gateway) = start_limited(&limits, &["per_ip"]).await;
    let mut client = Client::connect(gateway.addr).await;
    let start = Instant::now();
    assert_eq!(client.get("/").await.status, StatusCode::OK);
    for _ in 0..3 {
        let rejected = client.get("/").await;
        assert_eq!(rejected.status, StatusCode::TOO_MANY_REQUESTS);
        assert_eq!(rejected.header("retry-after"), Some("1"));
    }
    assert!(
        start.elapsed() < Duration::from_millis(100),
        "the rejections took a whole period ({:?}): the test proves nothing on a machine this slow",
        start.elapsed()
    );
    tokio::time::sleep_until(start + Duration::from_millis(120)).await;
    assert_eq!(client.get("/").await.status, StatusCode::OK);
    assert_eq!(upstream.requests(), 2);
});

// nginx-tests limit_req.t "custom status": the limit's `status` replaces 429, with the same
// headers.
both_backends!(custom_status, |backend| {
    let limits = format!(
        "[limits.per_ip]\nrate = \"2r/s\"\nnodelay = true\nstatus = 503\n{}",
        backend.toml()
    );
    let (upstream, gateway) = start_limited(&limits, &["per_ip"]).await;
    let mut client = Client::connect(gateway.addr).await;
    assert_eq!(client.get("/").await.status, StatusCode::OK);
    let rejected = client.get("/").await;
    assert_eq!(
        draft10(&rejected),
        (
            503,
            Some("1"),
            Some(r#""per_ip";q=1;w=1"#),
            Some(r#""per_ip";r=0;t=1"#)
        )
    );
    assert_eq!(upstream.requests(), 1);
});

// `headers = "legacy"`: X-RateLimit-Limit / -Remaining / -Reset (delta seconds until the whole
// quota is back) instead of the draft-10 pair; Retry-After still on the rejection.
both_backends!(legacy_headers, |backend| {
    let limits = format!(
        "[limits.per_ip]\nrate = \"2r/s\"\nburst = 1\nnodelay = true\nheaders = \"legacy\"\n{}",
        backend.toml()
    );
    let (_upstream, gateway) = start_limited(&limits, &["per_ip"]).await;
    let mut client = Client::connect(gateway.addr).await;
    let replies = [
        client.get("/").await,
        client.get("/").await,
        client.get("/").await,
    ];
    assert_eq!(
        legacy(&replies[0]),
        (200, None, Some("2"), Some("1"), Some("1"))
    );
    assert_eq!(
        legacy(&replies[1]),
        (200, None, Some("2"), Some("0"), Some("1"))
    );
    assert_eq!(
        legacy(&replies[2]),
        (429, Some("1"), Some("2"), Some("0"), Some("1"))
    );
    for reply in &replies {
        assert_eq!(reply.header("ratelimit"), None);
        assert_eq!(reply.header("ratelimit-policy"), None);
    }
});

// `headers = "off"`: no rate-limit headers at all; a rejection still says when to retry.
both_backends!(headers_off, |backend| {
    let limits = format!(
        "[limits.per_ip]\nrate = \"2r/s\"\nnodelay = true\nheaders = \"off\"\n{}",
        backend.toml()
    );
    let (_upstream, gateway) = start_limited(&limits, &["per_ip"]).await;
    let mut client = Client::connect(gateway.addr).await;
    let passed = client.get("/").await;
    let rejected = client.get("/").await;
    assert_eq!(passed.status, StatusCode::OK);
    assert_eq!(rejected.status, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(passed.header("retry-after"), None);
    assert_eq!(rejected.header("retry-after"), Some("1"));
    for reply in [&passed, &rejected] {
        for name in [
            "ratelimit",
            "ratelimit-policy",
            "x-ratelimit-limit",
            "x-ratelimit-remaining",
            "x-ratelimit-reset",
        ] {
            assert_eq!(reply.header(name), None, "{name} on a {}", reply.status);
        }
    }
});

// nginx-tests limit_req2.t: a request without the key's header is never limited (nginx skips an
// empty key) and carries no rate-limit headers; each header value is its own key.
both_backends!(empty_key_is_never_limited, |backend| {
    let limits = format!(
        "[limits.per_key]\nkey = \"header:X-Api-Key\"\nrate = \"1r/m\"\nnodelay = true\n{}",
        backend.toml()
    );
    let (upstream, gateway) = start_limited(&limits, &["per_key"]).await;
    let mut client = Client::connect(gateway.addr).await;
    for _ in 0..5 {
        let reply = client.get("/").await;
        assert_eq!(reply.status, StatusCode::OK);
        assert_eq!(reply.header("ratelimit"), None);
    }
    assert_eq!(
        get_with(&mut client, &[("x-api-key", "")]).await.status,
        200
    );
    let keyed = get_with(&mut client, &[("x-api-key", "a")]).await;
    assert_eq!(keyed.status, StatusCode::OK);
    assert_eq!(keyed.header("ratelimit"), Some(r#""per_key";r=0;t=60"#));
    assert_eq!(
        get_with(&mut client, &[("x-api-key", "a")]).await.status,
        429
    );
    assert_eq!(
        get_with(&mut client, &[("x-api-key", "b")]).await.status,
        200
    );
    assert_eq!(client.get("/").await.status, StatusCode::OK);
    assert_eq!(upstream.requests(), 9);
});

// `key = "client_ip+path"` counts each path separately (nginx `$binary_remote_addr$uri`), and a
// route that names no limit is not limited at all.
both_backends!(composite_key_and_unlimited_route, |backend| {
    let upstream = UpstreamServer::start(Transport::Tcp).await;
    let config = format!(
        r#"
[server]
listen = ["127.0.0.1:0"]

[upstreams.app]
servers = ["{}"]

[limits.per_path]
key = "client_ip+path"
rate = "1r/m"
nodelay = true
{}

[[routes]]
path = "/free/"
upstream = "app"

[[routes]]
path = "/"
upstream = "app"
limits = ["per_path"]
"#,
        upstream.address,
        backend.toml()
    );
    let gateway = TestGateway::start(&config).await;
    let mut client = Client::connect(gateway.addr).await;
    assert_eq!(client.get("/a").await.status, StatusCode::OK);
    assert_eq!(client.get("/a").await.status, 429);
    assert_eq!(client.get("/b").await.status, StatusCode::OK);
    assert_eq!(client.get("/b").await.status, 429);
    for _ in 0..5 {
        let free = client.get("/free/x").await;
        assert_eq!(free.status, StatusCode::OK);
        assert_eq!(free.header("ratelimit"), None);
    }
    assert_eq!(upstream.requests(), 7);
});

// nginx-tests limit_req2.t, and nginx's rule for several `limit_req`: when one limit rejects,
// none is charged. `a` and `b` are keyed on separate headers at 1r/m, so a key that is charged
// stays charged for the whole test and one that is not stays free.
both_backends!(several_limits_are_charged_all_or_none, |backend| {
    let limits = format!(
        "[limits.a]\nkey = \"header:X-A\"\nrate = \"1r/m\"\nnodelay = true\n{backend}\n\n\
         [limits.b]\nkey = \"header:X-B\"\nrate = \"1r/m\"\nnodelay = true\n{backend}",
        backend = backend.toml()
    );
    let (upstream, gateway) = start_limited(&limits, &["a", "b"]).await;
    let mut client = Client::connect(gateway.addr).await;

    assert_eq!(
        get_with(&mut client, &[("x-a", "1"), ("x-b", "1")])
            .await
            .status,
        200
    );
    // `a` rejects (its key 1 is spent), so `b`'s key 2 must stay uncharged.
    let rejected_by_a = get_with(&mut client, &[("x-a", "1"), ("x-b", "2")]).await;
    assert_eq!(rejected_by_a.status, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(
        rejected_by_a.header("ratelimit-policy"),
        Some(r#""a";q=1;w=60"#)
    );
    assert_eq!(get_with(&mut client, &[("x-b", "2")]).await.status, 200);
    assert_eq!(get_with(&mut client, &[("x-b", "2")]).await.status, 429);

    // `a` admits key 3 but `b` rejects key 1: `a`'s charge must be given back. Redis charges `a`
    // before asking about `b` and refunds it in the background, so wait until Redis has run the
    // three calls: `a`'s charge, `b`'s answer, `a`'s refund.
    let calls_before = redis_calls(&gateway);
    let rejected_by_b = get_with(&mut client, &[("x-a", "3"), ("x-b", "1")]).await;
    assert_eq!(rejected_by_b.status, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(
        rejected_by_b.header("ratelimit-policy"),
        Some(r#""b";q=1;w=60"#)
    );
    backend.wait_redis_calls(&gateway, calls_before + 3).await;
    assert_eq!(get_with(&mut client, &[("x-a", "3")]).await.status, 200);
    assert_eq!(get_with(&mut client, &[("x-a", "3")]).await.status, 429);
    assert_eq!(upstream.requests(), 3);
});

// nginx-tests limit_req_delay.t (`30r/m burst=2 delay=1`), at 5r/s so the delay is 200 ms, not
// 2 s: the second request is not delayed, the third waits until one period after the first was
// charged, and a fourth sent while the third waits is rejected at once.
both_backends!(two_stage_delay, |backend| {
    const PERIOD: Duration = Duration::from_millis(200);
    let limits = format!(
        "[limits.paced]\nrate = \"5r/s\"\nburst = 2\ndelay = 1\n{}",
        backend.toml()
    );
    let (upstream, gateway) = start_limited(&limits, &["paced"]).await;
    let mut clients = Vec::new();
    for _ in 0..4 {
        clients.push(Client::connect(gateway.addr).await);
    }
    let mut fourth = clients.pop().expect("four clients");
    let mut third = clients.pop().expect("four clients");
    let start = Instant::now();
    assert_eq!(clients[0].get("/").await.status, StatusCode::OK);
    let sent = Instant::now();
    assert_eq!(clients[1].get("/").await.status, StatusCode::OK);
    assert!(
        sent.elapsed() < PERIOD / 2,
        "the second request was delayed by {:?}",
        sent.elapsed()
    );
    let third = tokio::spawn(async move {
        let sent = Instant::now();
        let reply = third.get("/").await;
        (reply, sent.elapsed(), Instant::now())
    });
    wait_until(
        "the third request to be delayed",
        Duration::from_secs(5),
        || stats(&gateway, "paced").delayed == 1,
    )
    .await;
    let sent = Instant::now();
    let rejected = fourth.get("/").await;
    assert_eq!(rejected.status, StatusCode::TOO_MANY_REQUESTS);
    assert!(
        sent.elapsed() < PERIOD / 2,
        "the rejection took {:?}",
        sent.elapsed()
    );
    assert!(
        !third.is_finished(),
        "the third request ended before the fourth was rejected"
    );
    let (reply, latency, done) = third.await.expect("third request");
    assert_eq!(reply.status, StatusCode::OK);
    assert!(
        done - start >= PERIOD,
        "the third request was forwarded {:?} after the first was sent, before one period",
        done - start
    );
    assert!(
        latency >= PERIOD / 2 && latency < PERIOD * 3,
        "the third request took {latency:?}, its delay is about {PERIOD:?}"
    );
    assert_eq!(upstream.requests(), 3);
    let stats = stats(&gateway, "paced");
    assert_eq!(
        (stats.passed, stats.delayed, stats.rejected),
        (2, 1, 1),
        "{stats:?}"
    );
});

// nginx detects a client that leaves while its request is delayed and frees its place. At 5r/s
// with burst 1 (every excess request delayed), the second request waits ~200 ms; its client
// leaves after 50 ms. A request sent while it waits is rejected; one sent after it left fits
// (and is delayed), which it would not had the departed request kept its charge.
both_backends!(client_leaving_during_a_delay_frees_its_place, |backend| {
    let limits = format!(
        "[limits.paced]\nrate = \"5r/s\"\nburst = 1\n{}",
        backend.toml()
    );
    let (upstream, gateway) = start_limited(&limits, &["paced"]).await;
    let mut client = Client::connect(gateway.addr).await;
    let start = Instant::now();
    assert_eq!(client.get("/").await.status, StatusCode::OK);
    let mut leaving = tokio::net::TcpStream::connect(gateway.addr)
        .await
        .expect("connect");
    leaving
        .write_all(b"GET / HTTP/1.1\r\nHost: weir\r\n\r\n")
        .await
        .expect("write");
    // While the second request waits, its place is taken: a concurrent request is rejected
    // (which costs nothing).
    wait_until(
        "the second request to be delayed",
        Duration::from_secs(5),
        || stats(&gateway, "paced").delayed == 1,
    )
    .await;
    assert_eq!(
        Client::connect(gateway.addr).await.get("/").await.status,
        429
    );
    // The schedule: the client leaves 50 ms into the delay.
    tokio::time::sleep_until(start + Duration::from_millis(50)).await;
    let calls_before = redis_calls(&gateway);
    drop(leaving);
    // The gateway notices the close on its next read: the departed request is counted (499) once
    // its charge is given back, and Redis refunds in the background, one call more.
    wait_until(
        "the departed request to be counted",
        Duration::from_secs(5),
        || requests_with_status(&gateway, 499) == 1,
    )
    .await;
    backend.wait_redis_calls(&gateway, calls_before + 1).await;
    assert!(
        start.elapsed() < Duration::from_millis(180),
        "too slow to tell a refund from a refill: {:?}",
        start.elapsed()
    );
    let third = client.get("/").await;
    assert_eq!(
        third.status,
        StatusCode::OK,
        "the departed request's charge was not given back: {:?}",
        third.headers
    );
    assert_eq!(upstream.requests(), 2);
});

// nginx-tests limit_req_dry_run.t: a dry-run limit decides and counts but lets everything
// through, without Retry-After on what it would have rejected.
both_backends!(dry_run_lets_everything_through, |backend| {
    let limits = format!(
        "[limits.trial]\nrate = \"1r/m\"\nnodelay = true\ndry_run = true\n{}",
        backend.toml()
    );
    let (upstream, gateway) = start_limited(&limits, &["trial"]).await;
    let mut client = Client::connect(gateway.addr).await;
    for index in 0..4 {
        let reply = client.get("/").await;
        assert_eq!(reply.status, StatusCode::OK, "request {index}");
        assert_eq!(reply.header("retry-after"), None, "request {index}");
        assert_eq!(reply.text(), "hello");
    }
    assert_eq!(upstream.requests(), 4);
    let stats = stats(&gateway, "trial");
    assert_eq!(
        (stats.passed, stats.dry_run, stats.rejected),
        (1, 3, 0),
        "{stats:?}"
    );
});

// A rejection is answered by the gateway alone: no request, and no connection, reaches the
// upstream, whether the client reuses its connection or opens new ones.
both_backends!(rejections_never_reach_the_upstream, |backend| {
    let limits = format!(
        "[limits.per_ip]\nrate = \"1r/m\"\nnodelay = true\n{}",
        backend.toml()
    );
    let (upstream, gateway) = start_limited(&limits, &["per_ip"]).await;
    let mut client = Client::connect(gateway.addr).await;
    assert_eq!(client.get("/").await.status, StatusCode::OK);
    for _ in 0..10 {
        assert_eq!(client.get("/").await.status, 429);
        assert_eq!(
            Client::connect(gateway.addr).await.get("/").await.status,
            429
        );
    }
    assert_eq!(upstream.requests(), 1);
    assert_eq!(upstream.connections(), 1);
});

/// Connections of the flood test, each sending its share of the requests back to back.
const FLOOD_CONNECTIONS: usize = 40;
const FLOOD_REQUESTS: usize = 1000;

// 1,000 requests on one key from 40 connections at once: exactly `burst + 1` pass, even with
// Redis and its "blocked until" cache racing the first answers.
both_backends!(
    thousand_simultaneous_requests_admit_burst_plus_one,
    |backend| {
        let limits = format!(
            "[limits.per_ip]\nrate = \"1r/m\"\nburst = 9\nnodelay = true\n{}",
            backend.toml()
        );
        let (upstream, gateway) = start_limited(&limits, &["per_ip"]).await;
        let barrier = Arc::new(tokio::sync::Barrier::new(FLOOD_CONNECTIONS));
        let mut tasks = Vec::new();
        for _ in 0..FLOOD_CONNECTIONS {
            let barrier = Arc::clone(&barrier);
            let addr = gateway.addr;
            tasks.push(tokio::spawn(async move {
                let mut client = Client::connect(addr).await;
                barrier.wait().await;
                let mut statuses = Vec::new();
                for _ in 0..FLOOD_REQUESTS / FLOOD_CONNECTIONS {
                    statuses.push(client.get("/").await.status);
                }
                statuses
            }));
        }
        let mut passed = 0;
        let mut rejected = 0;
        for task in tasks {
            for status in task.await.expect("flood task") {
                match status {
                    StatusCode::OK => passed += 1,
                    StatusCode::TOO_MANY_REQUESTS => rejected += 1,
                    other => panic!("unexpected status {other}"),
                }
            }
        }
        assert_eq!((passed, rejected), (10, 990));
        assert_eq!(upstream.requests(), 10);
        let stats = stats(&gateway, "per_ip");
        assert_eq!((stats.passed, stats.rejected), (10, 990), "{stats:?}");
    }
);

// Two weir instances on one `redis-server` enforce one combined limit: quota 4 at 1r/m, spent
// alternately through each, then both reject with the same Retry-After.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_gateways_sharing_redis_enforce_one_limit() {
    let redis = RedisServer::start().expect("redis-server starts");
    let limits = format!(
        "[limits.shared]\nrate = \"1r/m\"\nburst = 3\nnodelay = true\n\
         backend = \"redis\"\nredis = \"{}\"\nredis_timeout = \"5s\"",
        redis.url()
    );
    let upstream = UpstreamServer::start(Transport::Tcp).await;
    let config = limited_config(&upstream.address, &limits, &["shared"]);
    let gateways = [
        TestGateway::start(&config).await,
        TestGateway::start(&config).await,
    ];
    let mut clients = [
        Client::connect(gateways[0].addr).await,
        Client::connect(gateways[1].addr).await,
    ];
    let mut remaining = Vec::new();
    for index in 0..4 {
        let reply = clients[index % 2].get("/").await;
        assert_eq!(reply.status, StatusCode::OK, "request {index}");
        remaining.push(reply.header("ratelimit").unwrap_or_default().to_string());
    }
    assert_eq!(
        remaining,
        [
            r#""shared";r=3;t=60"#,
            r#""shared";r=2;t=60"#,
            r#""shared";r=1;t=60"#,
            r#""shared";r=0;t=60"#
        ]
    );
    for client in &mut clients {
        let rejected = client.get("/").await;
        assert_eq!(
            draft10(&rejected),
            (
                429,
                Some("60"),
                Some(r#""shared";q=4;w=240"#),
                Some(r#""shared";r=0;t=60"#)
            )
        );
    }
    assert_eq!(upstream.requests(), 4);
    for gateway in &gateways {
        let stats = stats(gateway, "shared");
        assert_eq!((stats.passed, stats.rejected), (2, 1), "{stats:?}");
    }
}

/// The per-call Redis timeout of the failure tests.
const REDIS_TIMEOUT: Duration = Duration::from_millis(200);

/// What a request on a fresh key gets while Redis is down, then a second one on the same key.
struct WhileDown {
    first: u16,
    second: u16,
}

/// Kills Redis under a limit with `on_redis_error = mode`: requests get `while_down` within the
/// timeout (never a hang), and after a restart Redis is asked and enforces the limit again.
async fn redis_failure(mode: &str, while_down: WhileDown) {
    let mut redis = RedisServer::start().expect("redis-server starts");
    let limits = format!(
        "[limits.shared]\nkey = \"header:X-Key\"\nrate = \"1r/m\"\nnodelay = true\nstatus = 503\n\
         backend = \"redis\"\nredis = \"{}\"\nredis_timeout = \"{}ms\"\non_redis_error = \"{mode}\"",
        redis.url(),
        REDIS_TIMEOUT.as_millis()
    );
    let (_upstream, gateway) = start_limited(&limits, &["shared"]).await;
    let mut client = Client::connect(gateway.addr).await;
    assert_eq!(
        get_with(&mut client, &[("x-key", "before")]).await.status,
        200
    );
    assert_eq!(
        get_with(&mut client, &[("x-key", "before")]).await.status,
        503
    );

    redis.kill();
    for (attempt, expected) in [while_down.first, while_down.second]
        .into_iter()
        .enumerate()
    {
        let sent = Instant::now();
        let reply = get_with(&mut client, &[("x-key", "during")]).await;
        let took = sent.elapsed();
        assert_eq!(
            reply.status.as_u16(),
            expected,
            "{mode}: request {attempt} while Redis is down"
        );
        // Slack over the timeout for a loaded machine; a hang would take far longer.
        assert!(
            took <= REDIS_TIMEOUT + Duration::from_millis(250),
            "{mode}: request {attempt} took {took:?} with Redis down"
        );
    }
    let down = stats(&gateway, "shared");
    assert!(down.redis_errors >= 1, "{mode}: {down:?}");

    redis.restart().expect("redis-server restarts");
    // Redis is left alone for a short back-off after a failure; poll with fresh keys until a call
    // succeeds, then the limit is Redis's again.
    let deadline = Instant::now() + Duration::from_secs(5);
    let mut attempt = 0;
    loop {
        attempt += 1;
        let before = stats(&gateway, "shared");
        let key = format!("probe{attempt}");
        let _ = get_with(&mut client, &[("x-key", &key)]).await;
        let after = stats(&gateway, "shared");
        let successes = |stats: &LimitStats| stats.redis_calls.saturating_sub(stats.redis_errors);
        if successes(&after) > successes(&before) {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "{mode}: Redis not used again within 5 s of its restart: {after:?}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(
        get_with(&mut client, &[("x-key", "after")]).await.status,
        200
    );
    assert_eq!(
        get_with(&mut client, &[("x-key", "after")]).await.status,
        503
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn redis_down_with_allow_lets_requests_through() {
    redis_failure(
        "allow",
        WhileDown {
            first: 200,
            second: 200,
        },
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn redis_down_with_deny_answers_the_limit_status() {
    redis_failure(
        "deny",
        WhileDown {
            first: 503,
            second: 503,
        },
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn redis_down_with_local_falls_back_to_memory() {
    redis_failure(
        "local",
        WhileDown {
            first: 200,
            second: 503,
        },
    )
    .await;
}

/// What one request of a schedule came to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Fate {
    /// Answered by the upstream at once.
    Passed,
    /// Answered by the upstream after a wait of more than [`DELAYED_AFTER`].
    Delayed,
    /// Answered with 429.
    Rejected,
}

/// A request that took longer than this was delayed by the limit: half the shortest delay the
/// delay schedule provokes (70 ms), far above a loopback round trip.
const DELAYED_AFTER: Duration = Duration::from_millis(35);

/// The rate of both differential schedules, `10r/s`: one request per 100 ms.
const DIFF_PERIOD_MS: u64 = 100;

/// Send offsets (ms from the start) for `burst=2 nodelay`, sent one after another on one
/// connection: back-to-back bursts, gaps shorter and longer than a period. Every decision is at
/// least 35 ms from its boundary at these offsets (except the third of a back-to-back burst,
/// which any lateness only helps), so scheduling noise cannot flip it.
const NODELAY_SCHEDULE: &[u64] = &[
    0, 0, 0, 0, 40, 160, 160, 240, 260, 700, 700, 700, 700, 760, 860, 865,
];

/// Send offsets for `burst=3 delay=1`, each on its own connection so a delayed request does not
/// hold up the next: two pass, two wait (70 and 155 ms), one is rejected; after the key drains,
/// two pass and one waits (80 ms).
const DELAY_SCHEDULE: &[u64] = &[0, 15, 30, 45, 55, 700, 710, 720];

/// nginx's `limit_req` at ideal send times: GCRA with a `DIFF_PERIOD_MS` period, capacity
/// `burst + 1`, delaying past `delay` excess requests. Shown beside the measured fates when they
/// differ, to tell a semantic difference from timing noise.
fn model(schedule: &[u64], burst: u64, delay: Option<u64>) -> Vec<Fate> {
    let period = DIFF_PERIOD_MS;
    let mut tat: u64 = 0;
    schedule
        .iter()
        .map(|&sent| {
            let charged = tat.max(sent) + period - sent;
            if charged > (burst + 1) * period {
                return Fate::Rejected;
            }
            tat = tat.max(sent) + period;
            match delay {
                Some(after)
                    if charged > (after + 1) * period + DELAYED_AFTER.as_millis() as u64 =>
                {
                    Fate::Delayed
                }
                _ => Fate::Passed,
            }
        })
        .collect()
}

fn fate(reply: &Reply, latency: Duration) -> Fate {
    match reply.status {
        StatusCode::OK if latency > DELAYED_AFTER => Fate::Delayed,
        StatusCode::OK => Fate::Passed,
        StatusCode::TOO_MANY_REQUESTS => Fate::Rejected,
        other => panic!("unexpected status {other}: {}", reply.text()),
    }
}

/// Runs `schedule` one request after another on one connection to `addr`.
async fn run_in_sequence(addr: std::net::SocketAddr, schedule: &[u64]) -> Vec<Fate> {
    let mut client = Client::connect(addr).await;
    let start = Instant::now();
    let mut fates = Vec::new();
    for &offset in schedule {
        tokio::time::sleep_until(start + Duration::from_millis(offset)).await;
        let sent = Instant::now();
        let reply = client.get("/").await;
        fates.push(fate(&reply, sent.elapsed()));
    }
    fates
}

/// Runs `schedule` with each request on its own connection, opened beforehand, sent at its
/// offset whatever the others are doing.
async fn run_concurrently(addr: std::net::SocketAddr, schedule: &[u64]) -> Vec<Fate> {
    let mut clients = Vec::new();
    for _ in schedule {
        clients.push(Client::connect(addr).await);
    }
    let start = Instant::now();
    let tasks: Vec<_> = schedule
        .iter()
        .zip(clients)
        .map(|(&offset, mut client)| {
            tokio::spawn(async move {
                tokio::time::sleep_until(start + Duration::from_millis(offset)).await;
                let sent = Instant::now();
                let reply = client.get("/").await;
                fate(&reply, sent.elapsed())
            })
        })
        .collect();
    let mut fates = Vec::new();
    for task in tasks {
        fates.push(task.await.expect("schedule task"));
    }
    fates
}

/// Whether the differential tests run: they start nginx and depend on wall-clock timing.
/// Runs `schedule` against nginx-light with `limit_req` and against weir with the same limit
/// (`weir_limit`, with nginx's rounding), each fresh, one request after another or each on its own
/// connection (`concurrent`), and asserts the same fates. The fates hang on when requests arrive:
/// on a loaded machine a request can be late by more than the schedule's margins (seen: a first
/// request taking over 35 ms), so a disagreement is run again, up to three attempts in all; a
/// real difference disagrees every time.
async fn differential(
    limit_req: &str,
    weir_limit: &str,
    schedule: &[u64],
    concurrent: bool,
    expected: Vec<Fate>,
) {
    let mut disagreements = Vec::new();
    for _attempt in 0..3 {
        let (weir_fates, nginx_fates) =
            differential_once(limit_req, weir_limit, schedule, concurrent).await;
        if weir_fates == nginx_fates {
            if !disagreements.is_empty() {
                eprintln!("agreed after disagreeing: {disagreements:#?}");
            }
            return;
        }
        disagreements.push((weir_fates, nginx_fates));
    }
    panic!(
        "weir and nginx decided differently on {schedule:?} in every attempt (ideal: \
         {expected:?}); (weir, nginx): {disagreements:#?}"
    );
}

/// One attempt of [`differential`]: weir's fates and nginx's.
async fn differential_once(
    limit_req: &str,
    weir_limit: &str,
    schedule: &[u64],
    concurrent: bool,
) -> (Vec<Fate>, Vec<Fate>) {
    let upstream = UpstreamServer::start(Transport::Tcp).await;
    let nginx_fates = {
        let nginx = Nginx::start(
            "    limit_req_zone $binary_remote_addr zone=z:1m rate=10r/s;\n    limit_req_status 429;",
            &format!(
                "        location / {{\n            {limit_req}\n            proxy_pass http://{};\n        }}",
                upstream.address
            ),
        )
        .expect("nginx starts");
        let fates = if concurrent {
            run_concurrently(nginx.addr, schedule).await
        } else {
            run_in_sequence(nginx.addr, schedule).await
        };
        assert!(
            fates.contains(&Fate::Passed) && fates.contains(&Fate::Rejected),
            "nginx decided {fates:?}: {}",
            nginx.logs()
        );
        fates
    };
    let weir_fates = {
        let limits = format!(
            "[limits.z]\nrate = \"10r/s\"\nnginx_rounding = true\n{weir_limit}\nbackend = \"memory\""
        );
        let gateway = TestGateway::start(&limited_config(&upstream.address, &limits, &["z"])).await;
        if concurrent {
            run_concurrently(gateway.addr, schedule).await
        } else {
            run_in_sequence(gateway.addr, schedule).await
        }
    };
    (weir_fates, nginx_fates)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn same_decisions_as_nginx_with_nodelay() {
    if !differential_enabled() {
        return;
    }
    differential(
        "limit_req zone=z burst=2 nodelay;",
        "burst = 2\nnodelay = true",
        NODELAY_SCHEDULE,
        false,
        model(NODELAY_SCHEDULE, 2, None),
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn same_decisions_as_nginx_with_delay() {
    if !differential_enabled() {
        return;
    }
    differential(
        "limit_req zone=z burst=3 delay=1;",
        "burst = 3\ndelay = 1",
        DELAY_SCHEDULE,
        true,
        model(DELAY_SCHEDULE, 3, Some(1)),
    )
    .await;
}

// The model the differential tests print is nginx's arithmetic; check it on the schedules so a
// disagreement between weir and nginx is read against the right expectation.
#[test]
fn differential_schedules_provoke_every_fate() {
    use Fate::{Delayed as D, Passed as P, Rejected as R};
    assert_eq!(
        model(NODELAY_SCHEDULE, 2, None),
        [P, P, P, R, R, P, R, P, R, P, P, P, R, R, P, R]
    );
    assert_eq!(model(DELAY_SCHEDULE, 3, Some(1)), [P, P, D, D, R, P, P, D]);
}

// A rejected request's header map goes back to its thread's spares, and so does every answer's
// and every proxied request's: the requests that fill them next see none of their headers.
#[tokio::test]
async fn a_rejected_requests_headers_never_reach_a_later_request() {
    let upstream = UpstreamServer::start(Transport::Tcp).await;
    let gateway = TestGateway::start(&format!(
        r#"
[server]
listen = ["127.0.0.1:0"]

[upstreams.app]
servers = ["{}"]

[limits.once]
key = "client_ip"
rate = "1r/m"

[[routes]]
path = "/limited"
upstream = "app"
limits = ["once"]

[[routes]]
path = "/"
upstream = "app"
"#,
        upstream.address
    ))
    .await;
    let mut client = Client::connect(gateway.addr).await;
    let limited = |secret: &'static str| {
        Request::get("/limited")
            .header("x-secret", secret)
            .header("cookie", secret)
            .body(Full::new(Bytes::new()))
            .expect("valid request")
    };
    let first = client.send(limited("passed")).await.expect("an answer");
    assert_eq!(first.status, 200);
    for _ in 0..3 {
        let rejected = client.send(limited("rejected")).await.expect("an answer");
        assert_eq!(rejected.status, 429);
        for _ in 0..3 {
            let request = Request::get("/headers")
                .body(Full::new(Bytes::new()))
                .expect("valid request");
            let reply = client.send(request).await.expect("an answer");
            let text = reply.text();
            assert!(text.starts_with("GET /headers HTTP/1.1\n"), "{text}");
            assert!(
                !text.contains("secret") && !text.contains("passed") && !text.contains("rejected"),
                "{text}"
            );
            assert!(
                !reply.headers.contains_key("retry-after")
                    && !reply.headers.contains_key("ratelimit"),
                "{:?}",
                reply.headers
            );
        }
    }
}

/// `exempt`: nginx's allowlist (`geo` maps the office's networks to 0, `map` turns 0 into an
/// empty key, which `limit_req` and `limit_conn` skip). Clients are told apart by
/// `X-Forwarded-For` from a trusted proxy: in an exempt network two requests pass a limit of one
/// a minute, and are not counted; outside it the second is refused. A connection limit with the
/// same `exempt` counts no exempt request in flight. With `WEIR_E2E=1`, nginx with the allowlist
/// as its docs write it answers the same statuses.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_exempt_network_is_neither_counted_nor_limited_as_nginxs_allowlist() {
    let upstream = UpstreamServer::start(Transport::Tcp).await;
    let config = format!(
        r#"
[server]
listen = ["127.0.0.1:0"]
trusted_proxies = ["127.0.0.1"]

[upstreams.app]
servers = ["{}"]

[limits.perip]
rate = "1r/m"
status = 503
exempt = ["10.0.0.0/8", "192.168.0.0/24"]

[connection_limits.inflight]
connections = 5
exempt = ["10.0.0.0/8", "192.168.0.0/24"]

[[routes]]
path = "/"
upstream = "app"
limits = ["perip"]

[[routes]]
path = "/hang"
upstream = "app"
connection_limits = ["inflight"]
"#,
        upstream.address
    );
    let gateway = TestGateway::start(&config).await;
    let clients = ["10.1.2.3", "192.168.0.7", "192.168.1.7", "203.0.113.5"];
    let statuses = |addr| async move {
        let mut seen = Vec::new();
        for client in clients {
            for _ in 0..2 {
                let mut connection = Client::connect(addr).await;
                let reply = get_with(&mut connection, &[("x-forwarded-for", client)]).await;
                seen.push((client, reply.status.as_u16()));
            }
        }
        seen
    };
    let expected: Vec<(&str, u16)> = clients
        .iter()
        .flat_map(|client| {
            let second = if client.starts_with("10.") || client.starts_with("192.168.0.") {
                200
            } else {
                503
            };
            [(*client, 200), (*client, second)]
        })
        .collect();
    assert_eq!(statuses(gateway.addr).await, expected);
    // Only the two limited clients' keys are kept.
    assert_eq!(stats(&gateway, "perip").keys, 2);

    // In flight: an exempt client's request takes no place; another's does.
    let in_flight = || gateway.handle.conn_limit_stats()[0].1.in_flight;
    let mut hanging = Vec::new();
    let before = upstream.requests() as usize;
    for client in ["10.9.9.9", "198.51.100.1"] {
        let mut stream = tokio::net::TcpStream::connect(gateway.addr).await.unwrap();
        let request = format!("GET /hang HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: {client}\r\n\r\n");
        stream.write_all(request.as_bytes()).await.unwrap();
        hanging.push(stream);
        wait_until("the app has the request", Duration::from_secs(5), || {
            upstream.requests() as usize >= before + hanging.len()
        })
        .await;
    }
    assert_eq!(in_flight(), 1);
    drop(hanging);

    if !differential_enabled() {
        return;
    }
    let nginx = Nginx::start(
        "set_real_ip_from 127.0.0.1;\n    real_ip_header X-Forwarded-For;\n    \
         geo $limit { default 1; 10.0.0.0/8 0; 192.168.0.0/24 0; }\n    \
         map $limit $limit_key { 0 \"\"; 1 $binary_remote_addr; }\n    \
         limit_req_zone $limit_key zone=perip:1m rate=1r/m;",
        &format!(
            "        location / {{ limit_req zone=perip; proxy_pass http://{}; }}",
            upstream.address
        ),
    )
    .expect("nginx starts");
    assert_eq!(statuses(nginx.addr).await, expected, "{}", nginx.logs());
}
