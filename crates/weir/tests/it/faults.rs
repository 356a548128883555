//! Faults, end to end (issue 8): the app crashing mid-response, its socket going away and coming
//! back, a graceful reload under load, upstreams that answer garbage or nothing, and Redis dying
//! mid-flood. Each test ends with the pools back at baseline (nothing in use, nobody waiting).
//! The Gunicorn ones run when `WEIR_E2E=1`.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use weir_testkit::gunicorn::{self, App, Gunicorn};
use weir_testkit::redis::RedisServer;
use weir_testkit::{RawUpstream, Script};

use crate::support::*;

fn e2e_enabled() -> bool {
    if !gunicorn::enabled() {
        eprintln!("skipped: set WEIR_E2E=1 to run the end-to-end tests");
    }
    gunicorn::enabled()
}

/// A response read off a raw socket up to the gateway's close.
struct Raw {
    head: String,
    body: Vec<u8>,
}

impl Raw {
    fn status(&self) -> u16 {
        self.head
            .split_whitespace()
            .nth(1)
            .and_then(|status| status.parse().ok())
            .unwrap_or(0)
    }

    fn header(&self, name: &str) -> Option<String> {
        self.head
            .lines()
            .filter_map(|line| line.split_once(':'))
            .find(|(key, _)| key.trim().eq_ignore_ascii_case(name))
            .map(|(_, value)| value.trim().to_string())
    }
}

/// Sends `GET path` on a raw connection and returns it once the response head and at least
/// `body_bytes` of body have arrived (the bytes read so far are in the returned [`Raw`]).
async fn start_get(addr: std::net::SocketAddr, path: &str, body_bytes: usize) -> (TcpStream, Raw) {
    let mut stream = TcpStream::connect(addr).await.expect("connect");
    stream
        .write_all(format!("GET {path} HTTP/1.1\r\nHost: test\r\n\r\n").as_bytes())
        .await
        .expect("write");
    let mut received = Vec::new();
    let mut chunk = [0u8; 16 * 1024];
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        if let Some(end) = received.windows(4).position(|window| window == b"\r\n\r\n") {
            if received.len() - (end + 4) >= body_bytes {
                let head = String::from_utf8_lossy(&received[..end]).into_owned();
                let body = received[end + 4..].to_vec();
                return (stream, Raw { head, body });
            }
        }
        assert!(Instant::now() < deadline, "no response to GET {path}");
        let read = tokio::time::timeout(Duration::from_secs(20), stream.read(&mut chunk))
            .await
            .expect("the gateway answers")
            .expect("read");
        assert!(read > 0, "closed before the response began");
        received.extend_from_slice(&chunk[..read]);
    }
}

/// Reads the rest of `raw`'s response until the gateway closes the connection; panics if it does
/// not within 20 s (a hang).
async fn read_to_close(stream: &mut TcpStream, raw: &mut Raw) {
    let mut chunk = [0u8; 16 * 1024];
    loop {
        let read = tokio::time::timeout(Duration::from_secs(20), stream.read(&mut chunk))
            .await
            .expect("the gateway closes the connection, not hangs");
        match read {
            Ok(0) | Err(_) => return,
            Ok(read) => raw.body.extend_from_slice(&chunk[..read]),
        }
    }
}

/// Whether a chunked body ends with its last chunk and the empty trailer.
fn chunked_complete(body: &[u8]) -> bool {
    body.ends_with(b"0\r\n\r\n")
}

/// Gunicorn dies (SIGKILL to master and workers) halfway through a slow response: the client
/// sees its connection closed, soon, with a body that cannot pass for whole: shorter than its
/// Content-Length, or chunked without the last chunk.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn gunicorn_killed_mid_response_closes_the_client_connection() {
    if !e2e_enabled() {
        return;
    }
    for length in [true, false] {
        let mut app = Gunicorn::start(App::FastApi { workers: 1 });
        let gateway = TestGateway::start(&config(&app.address, "", "")).await;
        let path = format!("/drip?chunks=200&ms=50&length={length}");
        let (mut stream, mut raw) = start_get(gateway.addr, &path, 2048).await;
        assert_eq!(raw.status(), 200, "{}", raw.head);
        app.kill();
        read_to_close(&mut stream, &mut raw).await;
        if length {
            assert_eq!(raw.header("content-length").as_deref(), Some("204800"));
            assert!(
                raw.body.len() < 204_800,
                "a whole body after the crash: {} bytes",
                raw.body.len()
            );
        } else {
            assert_eq!(
                raw.header("transfer-encoding").as_deref(),
                Some("chunked"),
                "{}",
                raw.head
            );
            assert!(
                !chunked_complete(&raw.body),
                "the chunked body was terminated as if whole"
            );
        }
        gateway.wait_pools_quiet(Duration::from_secs(5)).await;
    }
}

/// Gunicorn dies before its response began: 502.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn gunicorn_killed_before_answering_gives_502() {
    if !e2e_enabled() {
        return;
    }
    let mut app = Gunicorn::start(App::FastApi { workers: 1 });
    let gateway = TestGateway::start(&config(&app.address, "", "")).await;
    assert_eq!(
        Client::connect(gateway.addr).await.get("/").await.status,
        StatusCode::OK
    );
    let addr = gateway.addr;
    let slow = tokio::spawn(async move { Client::connect(addr).await.get("/slow?ms=20000").await });
    // The request is with the app once the pool has its connection in use.
    wait_until(
        "the request to leave for the app",
        Duration::from_secs(10),
        || gateway.handle.pool_stats()[0].2.in_use > 0,
    )
    .await;
    // And once the app has it: its handler is running.
    wait_until_async(
        "the app to be handling the slow request",
        Duration::from_secs(10),
        || async move {
            let reply = Client::connect(addr).await.get("/slow-in-flight").await;
            reply.status == StatusCode::OK && reply.text().contains("\"in_flight\":1")
        },
    )
    .await;
    app.kill();
    let reply = tokio::time::timeout(Duration::from_secs(10), slow)
        .await
        .expect("answered, not hung")
        .unwrap();
    assert_eq!(reply.status, StatusCode::BAD_GATEWAY);
    gateway.wait_pools_quiet(Duration::from_secs(5)).await;
}

/// Gunicorn stops (its socket file goes with it) and a new one starts on the same path: 502
/// meanwhile, then the new one serves, with no restart of weir.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn socket_removed_and_recreated_recovers_without_restart() {
    if !e2e_enabled() {
        return;
    }
    let mut app = Gunicorn::start(App::FastApi { workers: 1 });
    let socket = app.socket();
    let gateway = TestGateway::start(&config(&app.address, "", "")).await;
    let mut client = Client::connect(gateway.addr).await;
    assert_eq!(client.get("/").await.status, StatusCode::OK);

    app.stop();
    let _ = std::fs::remove_file(&socket);
    assert!(!socket.exists());
    for _ in 0..3 {
        assert_eq!(client.get("/").await.status, StatusCode::BAD_GATEWAY);
    }
    gateway.wait_pools_quiet(Duration::from_secs(5)).await;

    let _restarted = Gunicorn::start_at(App::FastApi { workers: 1 }, &socket);
    // The socket exists once the master listens; a request waits in its backlog for a worker.
    let reply = tokio::time::timeout(Duration::from_secs(30), client.get("/"))
        .await
        .expect("answered once the app is back");
    assert_eq!(reply.status, StatusCode::OK);
    assert!(reply.text().contains("hello from weir"), "{}", reply.text());
    assert_eq!(client.get("/").await.status, StatusCode::OK);
    gateway.wait_pools_quiet(Duration::from_secs(5)).await;
    drop(app);
}

/// Gunicorn's graceful reload (SIGHUP) under steady load: every request succeeds, before,
/// during and after the workers are replaced. An old worker waits for its open connections to
/// close; one that weir kept busy, and that Uvicorn's shutdown did not tell to close, held it
/// until Gunicorn's 30 s `timeout` killed it, and a response cut then failed this test once (1
/// request of 21,197, the client's `IncompleteBody`). Weir now closes a connection once it has
/// been open `keepalive_time` (10 s), so the worker exits first (pool.rs tests the cap itself).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn gunicorn_graceful_reload_under_load_fails_no_request() {
    if !e2e_enabled() {
        return;
    }
    let app = Gunicorn::start(App::FastApi { workers: 2 });
    let gateway = TestGateway::start(&config(&app.address, "", "max_idle = 8")).await;
    assert_eq!(
        Client::connect(gateway.addr).await.get("/").await.status,
        StatusCode::OK
    );
    let old_workers = app.workers();
    assert!(!old_workers.is_empty(), "no workers under {}", app.pid());

    let load = ReloadLoad::start(gateway.addr, &["/", "/async", "/sync", "/slow?ms=20"]);
    wait_until("load before the reload", Duration::from_secs(20), || {
        load.count() >= 100
    })
    .await;
    app.reload();
    replaced(&app, &old_workers, Duration::from_secs(40)).await;
    let after_reload = load.count();
    wait_until("load after the reload", Duration::from_secs(20), || {
        load.count() >= after_reload + 100
    })
    .await;
    let statuses = load.stop().await;
    let failed: Vec<_> = statuses.iter().filter(|status| **status != 200).collect();
    assert!(
        failed.is_empty(),
        "{} of {} requests failed: {failed:?}",
        failed.len(),
        statuses.len()
    );
    gateway.wait_pools_quiet(Duration::from_secs(5)).await;
}

/// Graceful reloads one after another under load, for `WEIR_RELOAD_STORM_SECONDS` (with
/// `WEIR_E2E=1`; skipped without it, as it runs for minutes): every request succeeds. Half the
/// requests are `/drip` answers that take 30 ms to send, so a worker killed mid-response is
/// seen. With 240 s, two runs side by side (load average 5-8, three nice-19 busy loops): with
/// `keepalive_time = "1h"` (nginx's default), 5 of 31 reloads ended in Gunicorn's kill of an old
/// worker held by a connection weir kept busy, and 9 of 45,381 requests failed with a body cut
/// short; with the default 10s, no kill in 47 reloads and 0 of 37,763 failed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn gunicorn_reloads_in_a_row_under_load_fail_no_request() {
    let seconds = std::env::var("WEIR_RELOAD_STORM_SECONDS")
        .ok()
        .and_then(|value| value.parse::<u64>().ok());
    let Some(seconds) = seconds.filter(|_| e2e_enabled()) else {
        eprintln!("skipped: set WEIR_E2E=1 and WEIR_RELOAD_STORM_SECONDS to run it");
        return;
    };
    let app = Gunicorn::start(App::FastApi { workers: 2 });
    let gateway = TestGateway::start(&config(&app.address, "", "max_idle = 8")).await;
    let load = ReloadLoad::start(
        gateway.addr,
        &[
            "/",
            "/drip?chunks=3&ms=15&length=true",
            "/sync",
            "/drip?chunks=3&ms=15",
        ],
    );
    let started = Instant::now();
    let mut reloads = 0;
    while started.elapsed() < Duration::from_secs(seconds) {
        // Load between reloads: new workers serve a while before they are replaced in turn.
        tokio::time::sleep(Duration::from_secs(3)).await;
        let old_workers = app.workers();
        app.reload();
        reloads += 1;
        replaced(&app, &old_workers, Duration::from_secs(60)).await;
    }
    let statuses = load.stop().await;
    let failed: Vec<_> = statuses.iter().filter(|status| **status != 200).collect();
    eprintln!("{reloads} reloads, {} requests", statuses.len());
    assert!(
        failed.is_empty(),
        "{} of {} requests failed in {reloads} reloads: {failed:?}",
        failed.len(),
        statuses.len()
    );
    gateway.wait_pools_quiet(Duration::from_secs(5)).await;
}

/// Six closed-loop clients, each on its own connection, asking `paths` in turn (each starting
/// at a path of its own) until stopped; the statuses they got, 0 for an exchange that failed.
struct ReloadLoad {
    stop: Arc<AtomicBool>,
    statuses: Arc<Mutex<Vec<u16>>>,
    tasks: Vec<tokio::task::JoinHandle<()>>,
}

impl ReloadLoad {
    fn start(addr: std::net::SocketAddr, paths: &'static [&'static str]) -> ReloadLoad {
        let stop = Arc::new(AtomicBool::new(false));
        let statuses = Arc::new(Mutex::new(Vec::new()));
        let tasks = (0..6)
            .map(|task| {
                let (stop, statuses) = (Arc::clone(&stop), Arc::clone(&statuses));
                tokio::spawn(async move {
                    let mut client = Client::connect(addr).await;
                    let mut index = task;
                    while !stop.load(Ordering::SeqCst) {
                        let path = paths[index % paths.len()];
                        index += 1;
                        let status = send_or_reconnect(&mut client, get_request(path)).await;
                        statuses.lock().unwrap().push(status);
                    }
                })
            })
            .collect();
        ReloadLoad {
            stop,
            statuses,
            tasks,
        }
    }

    /// The requests answered (or failed) so far.
    fn count(&self) -> usize {
        self.statuses.lock().unwrap().len()
    }

    /// Stops the clients once their requests in flight end: every status.
    async fn stop(self) -> Vec<u16> {
        self.stop.store(true, Ordering::SeqCst);
        for task in self.tasks {
            task.await.unwrap();
        }
        let statuses = self.statuses.lock().unwrap().clone();
        statuses
    }
}

/// Waits until none of `old_workers` is left and new ones serve: a reload is done.
async fn replaced(app: &Gunicorn, old_workers: &[u32], within: Duration) {
    wait_until("the old workers to be replaced", within, || {
        let workers = app.workers();
        !workers.is_empty() && workers.iter().all(|pid| !old_workers.contains(pid))
    })
    .await;
}

/// Sends `request` and returns its status, or 0 when the exchange failed (the error is printed,
/// so a failed run says what broke). The client goes on on a new connection after a failure, and
/// after a response that closes it (`keepalive_requests`).
async fn send_or_reconnect(
    client: &mut Client,
    request: Request<http_body_util::Full<bytes::Bytes>>,
) -> u16 {
    let path = request.uri().to_string();
    match client.send_reconnecting(request).await {
        Ok(reply) => reply.status.as_u16(),
        Err(error) => {
            eprintln!("GET {path} failed: {error:?}");
            0
        }
    }
}

/// An upstream answering `reply` to `GET /`: the status weir gives, with the pools back at
/// baseline afterwards.
async fn status_for_reply(reply: &[u8]) -> StatusCode {
    let upstream = RawUpstream::start(Script::Reply(reply.to_vec())).await;
    let gateway = TestGateway::start(&config(
        &upstream.address,
        "",
        "read_timeout = \"5s\"\nmax_fails = 0",
    ))
    .await;
    let reply = tokio::time::timeout(
        Duration::from_secs(10),
        Client::connect(gateway.addr).await.get("/"),
    )
    .await
    .expect("answered, not hung");
    gateway.wait_pools_quiet(Duration::from_secs(5)).await;
    reply.status
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn malformed_response_head_gives_502() {
    for garbage in [
        &b"garbage\r\n\r\n"[..],
        b"HTTP/1.1 abc OK\r\ncontent-length: 0\r\n\r\n",
        b"HTTP/1.1 200 OK\r\ncontent-length: two\r\n\r\nok",
        b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\ncontent-length: 3\r\n\r\nok",
        b"HTTP/1.1 200 OK\r\nbad header\r\n\r\n",
        b"HTTP/9.9 200 OK\r\ncontent-length: 2\r\n\r\nok",
    ] {
        assert_eq!(
            status_for_reply(garbage).await,
            StatusCode::BAD_GATEWAY,
            "{}",
            String::from_utf8_lossy(garbage)
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn oversized_response_head_gives_502() {
    // Past the 64 KiB an upstream connection's read buffer may hold.
    let mut head = b"HTTP/1.1 200 OK\r\nx-big: ".to_vec();
    head.extend(std::iter::repeat_n(b'a', 128 * 1024));
    head.extend_from_slice(b"\r\ncontent-length: 2\r\n\r\nok");
    assert_eq!(status_for_reply(&head).await, StatusCode::BAD_GATEWAY);
    // So many headers that hyper's header table is full.
    let mut many = b"HTTP/1.1 200 OK\r\n".to_vec();
    for index in 0..500 {
        many.extend_from_slice(format!("x-h{index}: v\r\n").as_bytes());
    }
    many.extend_from_slice(b"content-length: 2\r\n\r\nok");
    assert_eq!(status_for_reply(&many).await, StatusCode::BAD_GATEWAY);
}

/// A new connection that the server closes before answering (a Gunicorn worker stopping on
/// SIGHUP after it accepted) is tried once more on another new connection: a GET gets its 200;
/// a POST with a body, which may not be repeated, gets 502. Two such closures in a row give 502.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_new_connection_closed_before_the_answer_is_retried_once() {
    let upstream = RawUpstream::start(Script::CloseFirst(1)).await;
    let gateway = TestGateway::start(&config(&upstream.address, "", "")).await;
    let reply = Client::connect(gateway.addr).await.get("/").await;
    assert_eq!(reply.status, StatusCode::OK);
    assert_eq!(upstream.connections(), 2, "one retry on a new connection");

    let upstream = RawUpstream::start(Script::CloseFirst(1)).await;
    let gateway = TestGateway::start(&config(&upstream.address, "", "")).await;
    let reply = Client::connect(gateway.addr)
        .await
        .request(http::Method::POST, "/", &b"a body"[..])
        .await;
    assert_eq!(
        reply.status,
        StatusCode::BAD_GATEWAY,
        "a POST is not repeated"
    );
    assert_eq!(upstream.connections(), 1);

    let upstream = RawUpstream::start(Script::CloseFirst(2)).await;
    let gateway = TestGateway::start(&config(&upstream.address, "", "")).await;
    let reply = Client::connect(gateway.addr).await.get("/").await;
    assert_eq!(reply.status, StatusCode::BAD_GATEWAY, "only once");
    assert_eq!(upstream.connections(), 2);
    gateway.wait_pools_quiet(Duration::from_secs(5)).await;
}

/// An upstream that accepts, reads, and never answers: 504 once `read_timeout` has passed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn silent_upstream_gives_504_at_read_timeout() {
    let upstream = RawUpstream::start(Script::Silent).await;
    let read_timeout = Duration::from_millis(500);
    let gateway = TestGateway::start(&config(
        &upstream.address,
        "",
        &format!("read_timeout = \"{}ms\"", read_timeout.as_millis()),
    ))
    .await;
    let sent = Instant::now();
    let reply = tokio::time::timeout(
        Duration::from_secs(10),
        Client::connect(gateway.addr).await.get("/"),
    )
    .await
    .expect("answered, not hung");
    assert_eq!(reply.status, StatusCode::GATEWAY_TIMEOUT);
    assert!(
        sent.elapsed() >= read_timeout,
        "answered before read_timeout"
    );
    assert_eq!(upstream.connections(), 1, "a read time-out is not retried");
    gateway.wait_pools_quiet(Duration::from_secs(5)).await;
}

/// How long Redis gets per call in the flood test.
const FLOOD_REDIS_TIMEOUT: Duration = Duration::from_millis(200);

/// One request of the flood: when it was sent, what it got, how long it took.
#[derive(Debug, Clone, Copy)]
struct Sample {
    sent: Instant,
    status: u16,
    took: Duration,
}

/// Redis is SIGKILLed in the middle of a flood and started again. The limit has
/// `on_redis_error = "deny"`: while Redis is down every request is refused with the limit's
/// status, each within `redis_timeout` (never a hang); within 5 s of Redis's return the limit is
/// decided by Redis again (fresh keys pass). Nothing else than 200 and 429 is ever answered.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn redis_killed_mid_flood_denies_then_recovers() {
    let mut redis = RedisServer::start().expect("redis-server starts");
    let upstream = UpstreamServer::start(Transport::Tcp).await;
    let gateway = TestGateway::start(&format!(
        r#"
[server]
listen = ["127.0.0.1:0"]

[upstreams.app]
servers = ["{}"]

[limits.flood]
key = "header:X-Key"
rate = "1r/m"
nodelay = true
backend = "redis"
redis = "{}"
redis_timeout = "{}ms"
on_redis_error = "deny"

[[routes]]
path = "/"
upstream = "app"
limits = ["flood"]
"#,
        upstream.address,
        redis.url(),
        FLOOD_REDIS_TIMEOUT.as_millis()
    ))
    .await;

    let stop = Arc::new(AtomicBool::new(false));
    let samples = Arc::new(Mutex::new(Vec::<Sample>::new()));
    let mut tasks = Vec::new();
    for task in 0..4 {
        let (stop, samples, addr) = (Arc::clone(&stop), Arc::clone(&samples), gateway.addr);
        tasks.push(tokio::spawn(async move {
            let mut client = Client::connect(addr).await;
            let mut index = 0u64;
            while !stop.load(Ordering::SeqCst) {
                index += 1;
                // Every key is fresh: Redis lets it pass; only a Redis failure refuses it.
                let request = Request::builder()
                    .uri("/")
                    .header("x-key", format!("task{task}-{index}"))
                    .body(http_body_util::Full::new(bytes::Bytes::new()))
                    .expect("valid request");
                let sent = Instant::now();
                let status = send_or_reconnect(&mut client, request).await;
                samples.lock().unwrap().push(Sample {
                    sent,
                    status,
                    took: sent.elapsed(),
                });
            }
        }));
    }
    let count = || samples.lock().unwrap().len();
    wait_until("the flood to start", Duration::from_secs(20), || {
        count() >= 200
    })
    .await;
    let killed = Instant::now();
    redis.kill();
    let down_since = killed + FLOOD_REDIS_TIMEOUT;
    let at_kill = count();
    wait_until(
        "requests while Redis is down",
        Duration::from_secs(20),
        || count() >= at_kill + 100 && Instant::now() > down_since + Duration::from_millis(500),
    )
    .await;
    let restarted = Instant::now();
    redis.restart().expect("redis-server restarts");
    // Back once a request sent after the restart passes again.
    wait_until("the limit back on Redis", Duration::from_secs(5), || {
        samples
            .lock()
            .unwrap()
            .iter()
            .any(|sample| sample.sent > restarted && sample.status == 200)
    })
    .await;
    // Commands that were in flight on the broken connection may still fail after the first
    // success, and each failure denies for RETRY_AFTER_FAILURE (500 ms): the limit is back once
    // fifty requests in a row pass, which must happen within a few seconds.
    let at_return = count();
    wait_until(
        "fifty passes in a row after the return",
        Duration::from_secs(10),
        || {
            let samples = samples.lock().unwrap();
            samples.len() >= at_return + 100
                && samples[samples.len() - 50..]
                    .iter()
                    .all(|sample| sample.status == 200)
        },
    )
    .await;
    stop.store(true, Ordering::SeqCst);
    for task in tasks {
        task.await.unwrap();
    }

    let samples = samples.lock().unwrap().clone();
    let unexpected: Vec<_> = samples
        .iter()
        .filter(|sample| sample.status != 200 && sample.status != 429)
        .collect();
    assert!(unexpected.is_empty(), "unexpected answers: {unexpected:?}");
    let before: Vec<_> = samples
        .iter()
        .filter(|sample| sample.sent + sample.took < killed)
        .collect();
    assert!(
        before.iter().all(|sample| sample.status == 200),
        "refused while Redis was up"
    );
    let down: Vec<_> = samples
        .iter()
        .filter(|sample| sample.sent > down_since && sample.sent + sample.took < restarted)
        .collect();
    assert!(down.len() >= 50, "only {} requests while down", down.len());
    assert!(
        down.iter().all(|sample| sample.status == 429),
        "on_redis_error = deny let a request through: {down:?}"
    );
    // Slack over redis_timeout for a loaded machine; a hang would take far longer.
    let slowest = down
        .iter()
        .map(|sample| sample.took)
        .max()
        .unwrap_or_default();
    assert!(
        slowest <= FLOOD_REDIS_TIMEOUT + Duration::from_secs(1),
        "a request took {slowest:?} with Redis down"
    );
    // Once back, it stays back: the requests sent while the fifty passed, and after, all pass.
    let last: Vec<_> = samples[samples.len() - 50..].to_vec();
    assert!(
        last.iter().all(|sample| sample.status == 200),
        "refused after Redis came back: {:?}",
        last.iter()
            .filter(|sample| sample.status != 200)
            .collect::<Vec<_>>()
    );
    gateway.wait_pools_quiet(Duration::from_secs(5)).await;
}
