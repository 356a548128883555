//! Overload control toward real Gunicorn apps (`lab/apps/overload_app.py`, which counts the
//! requests it holds at once): a declared capacity caps what the app sees, exactly; the excess
//! waits in weir's queue and not in the app's listen backlog; a queued request whose client
//! left never reaches the app; a request whose predicted wait is over its deadline is refused
//! at once with `Retry-After`; a freed worker goes to the highest priority class waiting; async
//! (Uvicorn) workers get an adaptive limit that rises above `workers` while the app has headroom
//! (each kind of request judged by its own latency), falls back to it when the app fails, and
//! rises again when it recovers, a new connection per request unless `max_idle` is set, and
//! streams that give their places back at the head; a burst that a short wait drains is served
//! whole, and so is one of slow requests after a fast one, up to the room; an app that restarts
//! (one server, or every replica of a group at once, one of them perhaps down for good) loses
//! no request, and a reload keeps the cap. Run when `WEIR_E2E=1`.

use crate::support::*;
use weir_testkit::gunicorn::{self, App, Gunicorn};

/// The overload app with `workers` workers (sync, or Uvicorn with `asgi`) behind a gateway
/// whose upstream `app` has `upstream_extra` lines and whose route `/` goes to it, after the
/// `routes_extra` tables; `None` (the test is skipped) without `WEIR_E2E=1`.
async fn start(
    workers: u32,
    asgi: bool,
    upstream_extra: &str,
    routes_extra: &str,
) -> Option<(Gunicorn, TestGateway)> {
    if !gunicorn::enabled() {
        eprintln!("skipped: set WEIR_E2E=1 to run the end-to-end tests");
        return None;
    }
    let app = Gunicorn::start(App::Overload { workers, asgi });
    let gateway = TestGateway::start(&app_config(&app, upstream_extra, routes_extra)).await;
    Some((app, gateway))
}

/// [`start`]'s config: the upstream `app` at `app`'s address with `upstream_extra` lines, the
/// `routes_extra` tables (where `APP` is the app's address, for an upstream of their own), and
/// the route `/` to `app`.
fn app_config(app: &Gunicorn, upstream_extra: &str, routes_extra: &str) -> String {
    let routes_extra = routes_extra.replace("APP", &app.address);
    format!(
        r#"
[server]
listen = ["127.0.0.1:0"]
[upstreams.app]
servers = ["{}"]
{upstream_extra}
{routes_extra}
[[routes]]
path = "/"
upstream = "app"
"#,
        app.address
    )
}

/// A high-priority host and a low-priority one beside `start`'s default (normal) route.
const CLASS_ROUTES: &str = r#"
[[routes]]
host = "urgent.test"
path = "/"
upstream = "app"
priority = "high"
[[routes]]
host = "batch.test"
path = "/"
upstream = "app"
priority = "low"
"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sync_workers_never_see_more_than_their_count_and_the_backlog_stays_within_it() {
    let Some((app, gateway)) = start(2, false, "workers = 2\nqueue_timeout = \"30s\"", "").await
    else {
        return;
    };
    let tasks: Vec<_> = (0..12)
        .map(|index| spawn_get(gateway.addr, format!("/work?ms=150&id={index}")))
        .collect();
    // Read the app socket's listen queue while the requests are in flight.
    let mut most_backlog = 0;
    while !tasks.iter().all(|task| task.is_finished()) {
        most_backlog = most_backlog.max(app.backlog());
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    for task in tasks {
        assert_eq!(task.await.unwrap(), StatusCode::OK);
    }
    assert_eq!(
        app.most_at_once(),
        2,
        "the app held exactly its 2 workers' worth"
    );
    assert!(
        most_backlog <= 2,
        "the listen backlog reached {most_backlog}"
    );
    assert_eq!(app.seen().len(), 12);
    gateway.wait_pools_quiet(Duration::from_secs(5)).await;
    let stats = gateway.handle.pool_stats()[0].2;
    assert_eq!(stats.limit, 2);
    assert!(
        stats.admission.wait_count > 0,
        "the excess queued in weir: {stats:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn uvicorn_workers_never_see_more_than_workers_times_threads() {
    let Some((app, gateway)) = start(
        1,
        true,
        "workers = 1\nthreads = 3\nworker_class = \"async\"\nqueue_timeout = \"30s\"",
        "",
    )
    .await
    else {
        return;
    };
    let tasks: Vec<_> = (0..10)
        .map(|index| spawn_get(gateway.addr, format!("/work?ms=200&id={index}")))
        .collect();
    for task in tasks {
        assert_eq!(task.await.unwrap(), StatusCode::OK);
    }
    // The adaptive limit starts at the floor (1) and may have grown on the way; never over
    // its ceiling.
    let most = app.most_at_once();
    assert!(
        (1..=3).contains(&most),
        "one async worker, {most} requests at once"
    );
    assert_eq!(app.seen().len(), 10);
}

/// An async worker serves its streams between its other requests: a body of unknown length gives
/// its place back at the head. With one Uvicorn worker (an adaptive limit from 1), three streams
/// of 3 s open and requests are still served, one after another, before any stream ends; a place
/// held until a stream's end kept each waiting for one (the example app with `workers = 2`:
/// four streams, and a 1 ms request waited 6-12 s).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_async_apps_streams_give_their_places_back_at_the_head() {
    let Some((app, gateway)) = start(
        1,
        true,
        "workers = 1\nworker_class = \"async\"\nqueue_timeout = \"30s\"",
        "",
    )
    .await
    else {
        return;
    };
    let streams: Vec<_> = (0..3)
        .map(|_| spawn_get(gateway.addr, "/stream?ms=3000".to_string()))
        .collect();
    wait_until("three streams connected", Duration::from_secs(5), || {
        gateway.handle.pool_stats()[0].2.connects >= 3
    })
    .await;
    for index in 0..5 {
        let response = Client::connect(gateway.addr)
            .await
            .get(&format!("/work?ms=10&id={index}"))
            .await;
        assert_eq!(response.status, StatusCode::OK);
    }
    assert!(
        streams.iter().all(|stream| !stream.is_finished()),
        "a stream ended before the requests beside it were served"
    );
    assert_eq!(app.seen().len(), 5);
    for stream in streams {
        assert_eq!(stream.await.unwrap(), StatusCode::OK);
    }
}

/// Issue 21: a kept connection stays with the Uvicorn worker that accepted it, and a worker
/// whose loop is blocked still gets its connections' next requests; a new connection is
/// accepted by a worker whose loop is free. So async workers get a new connection per request,
/// unless `max_idle` says otherwise.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn uvicorn_workers_get_a_new_connection_per_request_unless_max_idle_is_set() {
    for (max_idle, expect_reuse) in [("", false), ("max_idle = 8", true)] {
        let upstream = format!("workers = 2\nworker_class = \"async\"\n{max_idle}");
        let Some((app, gateway)) = start(2, true, &upstream, "").await else {
            return;
        };
        for index in 0..6 {
            let response = Client::connect(gateway.addr)
                .await
                .get(&format!("/work?ms=10&id={index}"))
                .await;
            assert_eq!(response.status, StatusCode::OK);
            // The connection is back in the pool (or closed) before the next request.
            gateway.wait_pools_quiet(Duration::from_secs(5)).await;
        }
        assert_eq!(app.seen().len(), 6);
        let stats = gateway.handle.pool_stats()[0].2;
        if expect_reuse {
            // Most requests find an idle connection (Uvicorn may close one now and then).
            assert!(stats.reuses >= 3, "{max_idle}: {stats:?}");
            assert_eq!(stats.connects + stats.reuses, 6, "{max_idle}: {stats:?}");
        } else {
            assert_eq!((stats.connects, stats.reuses), (6, 0), "default: {stats:?}");
            assert_eq!(stats.idle, 0, "{stats:?}");
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_burst_that_a_short_wait_drains_is_served_whole() {
    let Some((app, gateway)) = start(4, false, "workers = 4\nqueue_timeout = \"30s\"", "").await
    else {
        return;
    };
    // One request teaches weir a service time S of about 100 ms.
    let warm = Client::connect(gateway.addr)
        .await
        .get("/work?ms=100&id=warm")
        .await;
    assert_eq!(warm.status, StatusCode::OK);
    // Forty at once into four workers: the queue's delay grows by six S by its 24th waiter, so
    // it stands, with its room at the target as it starts standing (20 S of delay: 80 waiters
    // at four workers): all 36 waiters are admitted, and with no newcomer refused none is
    // dropped. A room of one S from the start (4 waiters) refused the burst's tail at once.
    let tasks: Vec<_> = (0..40)
        .map(|index| spawn_get(gateway.addr, format!("/work?ms=100&id={index}")))
        .collect();
    let (statuses, served) = statuses_and_served(tasks).await;
    assert_eq!(served, 40, "{statuses:?}");
    assert_eq!(app.seen().len(), 41);
    assert_eq!(app.most_at_once(), 4);
    gateway.wait_pools_quiet(Duration::from_secs(5)).await;
    let stats = gateway.handle.pool_stats()[0].2;
    assert_eq!(stats.admission.refused_standing, 0, "{stats:?}");
    assert_eq!(stats.admission.dropped_standing, 0, "{stats:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_burst_of_slow_requests_after_a_fast_one_is_judged_by_how_long_the_workers_are_held() {
    let Some((app, gateway)) = start(2, false, "workers = 2\nqueue_timeout = \"30s\"", "").await
    else {
        return;
    };
    // A request to a path the app answers at once teaches weir a service time of a
    // millisecond or two.
    let warm = Client::connect(gateway.addr).await.get("/fast").await;
    assert_eq!(warm.status, StatusCode::OK);
    // Then a clump of fourteen requests of 300 ms into two workers, and 100 ms later three
    // more, 10 ms apart. Judged by the mean of the fast one, the first clump made the queue
    // stand and its room (20 service times) shrank by one service time each millisecond or so:
    // the later clumps were refused at once. The workers held, with none given back, tell the
    // service time now: the queue's room is 20 of those less the one at most it has stood, 38
    // waiters at two workers at least, so the two in the workers and 38 waiters at least are
    // served, the rest refused at once, none dropped after a wait.
    let mut tasks = Vec::new();
    for clump in 0..4 {
        for index in 0..14 {
            tasks.push(spawn_get(
                gateway.addr,
                format!("/work?ms=300&id={clump}-{index}"),
            ));
        }
        let pause = if clump == 0 { 100 } else { 10 };
        tokio::time::sleep(Duration::from_millis(pause)).await;
    }
    let (statuses, served) = statuses_and_served(tasks).await;
    gateway.wait_pools_quiet(Duration::from_secs(5)).await;
    let stats = gateway.handle.pool_stats()[0].2;
    assert!(served >= 40, "{served} served: {statuses:?} {stats:?}");
    assert_eq!(stats.admission.dropped_standing, 0, "{stats:?}");
    assert_eq!(
        served as u64 + stats.admission.refused_standing,
        56,
        "the rest refused at once: {statuses:?} {stats:?}"
    );
    assert_eq!(app.seen().len(), served);
    assert_eq!(app.most_at_once(), 2);
}

/// Each request's status, in the order sent, and how many were 200.
/// A connection to the gateway on which `request` was written: its client, which leaves when
/// it is dropped.
async fn sent_raw(gateway: std::net::SocketAddr, request: &[u8]) -> tokio::net::TcpStream {
    use tokio::io::AsyncWriteExt;
    let mut client = tokio::net::TcpStream::connect(gateway).await.unwrap();
    client.write_all(request).await.unwrap();
    client
}

/// The most connections in the app's listen backlog while every request of `held` still holds
/// its worker, read every 20 ms until `task` ends. A reading counts only if none of them had
/// finished after it was taken: the app records a request as finished before it answers, so the
/// connection weir opens for a waiter once a worker's answer begins, seen for the moment before
/// the worker accepts it, is not taken for one sent while the worker was busy.
async fn most_backlog_while_held(
    app: &Gunicorn,
    held: &[&str],
    task: &tokio::task::JoinHandle<StatusCode>,
) -> u32 {
    let mut most = 0;
    while !task.is_finished() {
        let backlog = app.backlog();
        let finished = app.finished();
        if !held.iter().any(|id| finished.iter().any(|done| done == id)) {
            most = most.max(backlog);
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    most
}

async fn statuses_and_served(
    tasks: Vec<tokio::task::JoinHandle<StatusCode>>,
) -> (Vec<StatusCode>, usize) {
    let mut statuses = Vec::new();
    for task in tasks {
        statuses.push(task.await.unwrap());
    }
    let served = statuses
        .iter()
        .filter(|&&status| status == StatusCode::OK)
        .count();
    (statuses, served)
}

/// `weir_pool_limit` of the upstream `app` on `/metrics`.
async fn scraped_limit(admin: std::net::SocketAddr) -> usize {
    scraped(admin, "weir_pool_limit{upstream=\"app\"").await as usize
}

/// The first sample on `/metrics` whose line starts with `prefix`, summed with the others that
/// do (the reasons of a counter).
async fn scraped(admin: std::net::SocketAddr, prefix: &str) -> f64 {
    let text = Client::connect(admin).await.get("/metrics").await.text();
    let values: Vec<f64> = text
        .lines()
        .filter(|line| line.starts_with(prefix))
        .filter_map(|line| line.rsplit(' ').next()?.parse().ok())
        .collect();
    assert!(!values.is_empty(), "no {prefix} in:\n{text}");
    values.iter().sum()
}

/// `clients` closed-loop clients, each on its own connection (a new one when the gateway closes
/// it), asking `/work?ms=50` until stopped; a refusal or a 502 is followed by a short pause, so
/// that a failing app is not asked in a hot loop.
struct Load {
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
    tasks: Vec<tokio::task::JoinHandle<()>>,
}

impl Load {
    fn start(addr: std::net::SocketAddr, clients: usize) -> Load {
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let tasks = (0..clients)
            .map(|_| {
                let stop = std::sync::Arc::clone(&stop);
                tokio::spawn(async move {
                    let mut client = Client::connect(addr).await;
                    while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                        // The gateway ends a connection after `keepalive_requests` (1000, as
                        // nginx): a client goes on on a new one, as browsers and pools do.
                        let reply = client
                            .send_reconnecting(get_request("/work?ms=50"))
                            .await
                            .expect("a load request");
                        if reply.status != StatusCode::OK {
                            tokio::time::sleep(Duration::from_millis(10)).await;
                        }
                    }
                })
            })
            .collect();
        Load { stop, tasks }
    }

    async fn stop(self) {
        self.stop.store(true, std::sync::atomic::Ordering::Relaxed);
        for task in self.tasks {
            task.await.expect("a load client");
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_async_apps_limit_rises_with_headroom_falls_when_it_fails_and_rises_again() {
    // Every /work answers 502: failures cut the limit down to the floor.
    rises_falls_and_rises_again("fail", 2, "failures").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_async_apps_limit_falls_toward_workers_when_concurrency_costs_it_latency() {
    // Every /work blocks its worker's event loop: the requests in one worker run one after
    // another, the latency grows with the limit, and its rise over the baseline cuts it, to at
    // most twice the workers.
    rises_falls_and_rises_again("block", 4, "latency").await;
}

/// The overload app under Uvicorn (2 workers, ceiling 2 × 8) and 20 closed-loop clients: the
/// limit starts at workers, rises to 8 or more while the app awaits (concurrency costs it no
/// latency), falls to `fallen` or below once the app is switched to `mode`, with a cut for
/// `reason`, and rises to 8 again once it is switched back; the app never holds more requests
/// at once than the highest limit in force. Read through `/metrics`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_async_apps_limit_judges_each_kind_of_request_by_its_own_latency() {
    let Some((_app, gateway)) = start(
        2,
        true,
        "workers = 2\nthreads = 8\nworker_class = \"async\"\nqueue_timeout = \"30s\"",
        "[admin]\nlisten = \"127.0.0.1:0\"\n",
    )
    .await
    else {
        return;
    };
    let admin = gateway.admin_addr.expect("an admin listener");
    // A path the app answers at once, asked alone: a baseline of a millisecond or two.
    for _ in 0..16 {
        let reply = Client::connect(gateway.addr).await.get("/fast").await;
        assert_eq!(reply.status, StatusCode::OK);
    }
    // Then 20 clients of 50 ms requests, with the fast path asked now and then beside them, as
    // a load balancer's health check would: the limit rises well above the workers. With one
    // baseline for both, every round of 50 ms answers was far over the fast one's, and the
    // limit stayed at the floor (the example app: 973 of 1,000 refused).
    let load = Load::start(gateway.addr, 20);
    let probing = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
    let prober = {
        let probing = std::sync::Arc::clone(&probing);
        let addr = gateway.addr;
        tokio::spawn(async move {
            while probing.load(std::sync::atomic::Ordering::Relaxed) {
                // Served, or refused by the queue while the limit is still low: either way a
                // request of the fast kind went by.
                let reply = Client::connect(addr).await.get("/fast").await;
                assert!(
                    matches!(reply.status.as_u16(), 200 | 503),
                    "{:?}",
                    reply.status
                );
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        })
    };
    wait_until_async(
        "the limit to rise to 8",
        Duration::from_secs(60),
        || async move { scraped_limit(admin).await >= 8 },
    )
    .await;
    probing.store(false, std::sync::atomic::Ordering::Relaxed);
    prober.await.unwrap();
    load.stop().await;
}

async fn rises_falls_and_rises_again(mode: &str, fallen: usize, reason: &str) {
    let Some((app, gateway)) = start(
        2,
        true,
        "workers = 2\nthreads = 8\nworker_class = \"async\"\nqueue_timeout = \"30s\"",
        // The mode switch goes by an upstream of its own: past the queue the load keeps
        // standing, and outside the adaptive limit's samples (a 1 ms answer with few in flight
        // became the baseline, and held the limit down for rounds after).
        "[admin]\nlisten = \"127.0.0.1:0\"\n\n[upstreams.control]\nservers = [\"APP\"]\n\n[[routes]]\npath = \"/mode\"\nupstream = \"control\"\n",
    )
    .await
    else {
        return;
    };
    let admin = gateway.admin_addr.expect("an admin listener");
    assert_eq!(
        scraped_limit(admin).await,
        2,
        "starts at the floor: workers"
    );
    // The highest limit in force, read from the pool as often as the runtime lets: the app may
    // never hold more than that at once.
    let gateway = std::sync::Arc::new(gateway);
    let highest = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(2));
    let watching = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
    let watcher = {
        let (gateway, highest, watching) = (
            std::sync::Arc::clone(&gateway),
            std::sync::Arc::clone(&highest),
            std::sync::Arc::clone(&watching),
        );
        tokio::spawn(async move {
            while watching.load(std::sync::atomic::Ordering::Relaxed) {
                let limit = gateway.handle.pool_stats()[0].2.limit;
                highest.fetch_max(limit, std::sync::atomic::Ordering::Relaxed);
                tokio::time::sleep(Duration::from_millis(1)).await;
            }
        })
    };
    // 20 clients: more than the ceiling, so the limit is reached at every level.
    let load = Load::start(gateway.addr, 20);
    let risen = || async move { scraped_limit(admin).await >= 8 };

    // Headroom: the limit rises well above workers (4 times, half the ceiling).
    wait_until_async("the limit to rise to 8", Duration::from_secs(60), risen).await;
    wait_until(
        "the app to hold more than its workers at once",
        Duration::from_secs(60),
        || app.most_at_once() > 2,
    )
    .await;

    // Degraded: the limit falls back toward the floor.
    let switch = format!("/mode?set={mode}");
    let reply = Client::connect(gateway.addr).await.get(&switch).await;
    assert_eq!(reply.status, StatusCode::OK);
    wait_until_async(
        format_args!("the limit to fall to {fallen}"),
        Duration::from_secs(60),
        || async move { scraped_limit(admin).await <= fallen },
    )
    .await;
    let cut_reason = format!(
        "weir_pool_limit_cuts_total{{upstream=\"app\",server=\"{}\",reason=\"{reason}\"}}",
        app.address
    );
    let cuts = scraped(admin, &cut_reason).await;
    assert!(cuts >= 1.0, "{cuts} cuts for {reason}");

    // Recovered: the limit rises again.
    let reply = Client::connect(gateway.addr)
        .await
        .get("/mode?set=ok")
        .await;
    assert_eq!(reply.status, StatusCode::OK);
    wait_until_async("the limit to rise again", Duration::from_secs(60), risen).await;

    load.stop().await;
    watching.store(false, std::sync::atomic::Ordering::Relaxed);
    watcher.await.expect("the watcher");
    let most = app.most_at_once() as usize;
    let highest = highest.load(std::sync::atomic::Ordering::Relaxed);
    assert!(
        most <= highest,
        "the app held {most} at once, over the highest limit {highest}"
    );
    assert!(highest <= 16, "over the ceiling: {highest}");
    let baseline = scraped(admin, "weir_pool_baseline_latency_seconds{upstream=\"app\"").await;
    assert!(
        baseline >= 0.05,
        "the baseline is at least the app's 50 ms: {baseline}"
    );
    eprintln!(
        "adaptive limit ({mode}): highest {highest}, the app held {most} at once, {cuts} cuts for {reason}, baseline {baseline} s"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_queued_request_whose_client_left_never_reaches_the_app() {
    let Some((app, gateway)) = start(1, false, "workers = 1\nqueue_timeout = \"30s\"", "").await
    else {
        return;
    };
    let busy = spawn_get(gateway.addr, "/work?ms=1500&id=busy");
    wait_until(
        "the busy request to hold the worker",
        Duration::from_secs(10),
        || app.seen() == ["busy"],
    )
    .await;
    // One without a body, one whose body was read whole (buffered) before it queued.
    let mut leaving = Vec::new();
    for request in [
        &b"GET /work?ms=1&id=left HTTP/1.1\r\nHost: app\r\n\r\n"[..],
        b"POST /work?ms=1&id=left-with-body HTTP/1.1\r\nHost: app\r\nContent-Length: 5\r\n\r\nhello",
    ] {
        leaving.push(sent_raw(gateway.addr, request).await);
    }
    wait_until("the requests to queue", Duration::from_secs(10), || {
        gateway.handle.pool_stats()[0].2.waiting == 2
    })
    .await;
    drop(leaving);
    wait_until("the queue to drop it", Duration::from_secs(10), || {
        gateway.handle.pool_stats()[0].2.waiting == 0
    })
    .await;
    assert_eq!(busy.await.unwrap(), StatusCode::OK);
    let after = Client::connect(gateway.addr)
        .await
        .get("/work?ms=1&id=after")
        .await;
    assert_eq!(after.status, StatusCode::OK);
    assert_eq!(
        app.seen(),
        ["busy", "after"],
        "the requests whose clients left never ran"
    );
    gateway.wait_pools_quiet(Duration::from_secs(5)).await;
}

/// A worker stays busy with a request whose client left: Gunicorn notices only when it writes
/// the answer. So its place stays taken until the answer begins, and the next waiter is sent
/// when the worker is free, not into the app's listen backlog while it is busy (where it waited
/// before, and clients that give up under overload had every request sent: 40 of 40, 31 in the
/// backlog at once). So with `workers`, and with a plain `max_connections` too.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_whose_client_left_holds_its_worker_until_the_app_answers() {
    for cap in ["workers = 1", "max_connections = 1"] {
        let upstream = format!("{cap}\nqueue_timeout = \"30s\"");
        let Some((app, gateway)) = start(1, false, &upstream, "").await else {
            return;
        };
        let leaving = sent_raw(
            gateway.addr,
            b"GET /work?ms=1500&id=left HTTP/1.1\r\nHost: app\r\n\r\n",
        )
        .await;
        wait_until(
            "the request to reach the worker",
            Duration::from_secs(10),
            || app.seen() == ["left"],
        )
        .await;
        let next = spawn_get(gateway.addr, "/work?ms=1&id=next");
        wait_until("the next request to queue", Duration::from_secs(10), || {
            gateway.handle.pool_stats()[0].2.waiting == 1
        })
        .await;
        drop(leaving);
        let most_backlog = most_backlog_while_held(&app, &["left"], &next).await;
        assert_eq!(next.await.unwrap(), StatusCode::OK, "{cap}");
        assert_eq!(
            most_backlog, 0,
            "{cap}: the next request waited in the app's backlog behind the one whose client left"
        );
        assert_eq!(app.seen(), ["left", "next"], "{cap}");
        gateway.wait_pools_quiet(Duration::from_secs(5)).await;
    }
}

/// An async app that watches for its client's leaving (Starlette's `request.is_disconnected()`)
/// still learns it: the place of a request whose client left is held until the app answers or
/// closes, and weir closes its sending side at once, which Uvicorn reads as a disconnect.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_async_app_that_watches_for_its_client_leaving_learns_it() {
    let Some((app, gateway)) = start(
        1,
        true,
        "workers = 1\nworker_class = \"async\"\nqueue_timeout = \"30s\"",
        "",
    )
    .await
    else {
        return;
    };
    let leaving = sent_raw(
        gateway.addr,
        b"GET /watch?ms=5000&id=watch HTTP/1.1\r\nHost: app\r\n\r\n",
    )
    .await;
    wait_until(
        "the request to reach the app",
        Duration::from_secs(10),
        || app.seen() == ["watch"],
    )
    .await;
    drop(leaving);
    // Well before its 5 s: the app saw the client leave.
    wait_until(
        "the app to see its client leave",
        Duration::from_secs(3),
        || app.seen() == ["watch", "watch-stopped"],
    )
    .await;
    gateway.wait_pools_quiet(Duration::from_secs(5)).await;
}

/// A request answered 504 (`read_timeout` passed) holds its worker as one whose client left,
/// for one more `read_timeout` at most: the next waiter is sent when the worker is free, not into
/// the app's backlog behind it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_timed_out_holds_its_worker_until_the_app_answers() {
    let Some((app, gateway)) = start(
        1,
        false,
        "workers = 1\nqueue_timeout = \"30s\"\nread_timeout = \"500ms\"",
        "",
    )
    .await
    else {
        return;
    };
    let slow = spawn_get(gateway.addr, "/work?ms=900&id=slow");
    wait_until(
        "the slow request to reach the worker",
        Duration::from_secs(10),
        || app.seen() == ["slow"],
    )
    .await;
    let next = spawn_get(gateway.addr, "/work?ms=1&id=next");
    let most_backlog = most_backlog_while_held(&app, &["slow"], &next).await;
    assert_eq!(slow.await.unwrap(), StatusCode::GATEWAY_TIMEOUT);
    assert_eq!(next.await.unwrap(), StatusCode::OK);
    assert_eq!(
        most_backlog, 0,
        "the next request waited in the app's backlog behind the one that timed out"
    );
    assert_eq!(app.seen(), ["slow", "next"]);
    gateway.wait_pools_quiet(Duration::from_secs(5)).await;
}

/// An app that restarts (Gunicorn stopped, its socket gone, then started again on the same
/// path) loses no request: with a declared capacity, requests that come meanwhile wait in weir,
/// their places held, until it listens again, and the new app still sees no more than its
/// workers at once. One whose deadline passes first gets the 502 nginx gives at once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn requests_wait_for_an_app_that_restarts() {
    let Some((mut app, gateway)) =
        start(2, false, "workers = 2\nqueue_timeout = \"30s\"", "").await
    else {
        return;
    };
    let warm = Client::connect(gateway.addr)
        .await
        .get("/work?ms=20&id=warm")
        .await;
    assert_eq!(warm.status, StatusCode::OK);
    let socket = app.socket();
    app.stop();
    assert!(!socket.exists(), "Gunicorn left its socket file");

    // A client that allows 300 ms is told 502 once they pass: the app did not come back.
    let mut client = Client::connect(gateway.addr).await;
    let hurried = tokio::time::timeout(
        Duration::from_secs(10),
        client.send(
            Request::get("/work?ms=1&id=hurried")
                .header("X-Weir-Queue-Deadline", "300")
                .body(Default::default())
                .unwrap(),
        ),
    )
    .await
    .expect("answered once its deadline passed")
    .unwrap();
    assert_eq!(hurried.status, StatusCode::BAD_GATEWAY);

    let waiting = six_waiting(&gateway).await;
    let restarted = restarted(socket).await;
    for request in waiting {
        assert_eq!(request.await.unwrap(), StatusCode::OK);
    }
    assert_eq!(restarted.seen().len(), 6, "{:?}", restarted.seen());
    assert!(
        restarted.most_at_once() <= 2,
        "the restarted app held {} at once",
        restarted.most_at_once()
    );
    gateway.wait_pools_quiet(Duration::from_secs(5)).await;
    // The new app first: the old one's temp dir holds its socket.
    drop(restarted);
    drop(app);
}

/// An app that stays down is not waited for past `fail_timeout`: the requests that came first
/// wait that long at most, and the later ones are answered 502 at once (nginx's answer), not
/// held to their 30 s deadline.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_app_down_past_fail_timeout_is_answered_at_once() {
    let Some((mut app, gateway)) = start(
        2,
        false,
        "workers = 2\nqueue_timeout = \"30s\"\nfail_timeout = \"300ms\"",
        "",
    )
    .await
    else {
        return;
    };
    let warm = Client::connect(gateway.addr)
        .await
        .get("/work?ms=1&id=warm")
        .await;
    assert_eq!(warm.status, StatusCode::OK);
    app.stop();
    for round in ["first", "later"] {
        let requests: Vec<_> = (0..4)
            .map(|index| spawn_get(gateway.addr, format!("/work?ms=1&id={round}{index}")))
            .collect();
        for request in requests {
            let status = tokio::time::timeout(Duration::from_secs(10), request)
                .await
                .unwrap_or_else(|_| panic!("{round}: held past fail_timeout"))
                .unwrap();
            assert_eq!(status, StatusCode::BAD_GATEWAY, "{round}");
        }
    }
    gateway.wait_pools_quiet(Duration::from_secs(5)).await;
}

/// [`replicas`] with a `fail_timeout` of 20 s, both stopped once each served a request: the
/// apps, their sockets' paths (to start them again at) and the gateway.
async fn replicas_stopped() -> Option<([Gunicorn; 2], [std::path::PathBuf; 2], TestGateway)> {
    let (mut apps, gateway) = replicas("20s").await?;
    let sockets = apps.each_mut().map(|app| {
        app.stop();
        app.socket()
    });
    Some((apps, sockets, gateway))
}

/// Two copies of the overload app (2 sync workers each) as one upstream of two servers, as two
/// replicas of a Compose service (`workers = 2`, a `queue_timeout` of 30 s, `fail_timeout`),
/// each of which served a request.
async fn replicas(fail_timeout: &str) -> Option<([Gunicorn; 2], TestGateway)> {
    if !gunicorn::enabled() {
        eprintln!("skipped: set WEIR_E2E=1 to run the end-to-end tests");
        return None;
    }
    let app = || {
        Gunicorn::start(App::Overload {
            workers: 2,
            asgi: false,
        })
    };
    let apps = [app(), app()];
    let config = format!(
        r#"
[server]
listen = ["127.0.0.1:0"]
[upstreams.app]
servers = ["{}", "{}"]
workers = 2
queue_timeout = "30s"
fail_timeout = "{fail_timeout}"
[[routes]]
path = "/"
upstream = "app"
"#,
        apps[0].address, apps[1].address
    );
    let gateway = TestGateway::start(&config).await;
    for _ in &apps {
        let warm = Client::connect(gateway.addr)
            .await
            .get("/work?ms=1&id=warm")
            .await;
        assert_eq!(warm.status, StatusCode::OK);
    }
    Some((apps, gateway))
}

/// Sends 6 requests while the gateway's app is stopped (every server of its upstream), and
/// checks that they wait (none answered within 300 ms).
async fn six_waiting(gateway: &TestGateway) -> Vec<tokio::task::JoinHandle<StatusCode>> {
    let waiting: Vec<_> = (0..6)
        .map(|index| spawn_get(gateway.addr, format!("/work?ms=50&id={index}")))
        .collect();
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(
        waiting.iter().all(|request| !request.is_finished()),
        "a request was answered while the app was down"
    );
    waiting
}

/// The overload app (2 sync workers) started again at `socket`, off the runtime's threads.
async fn restarted(socket: std::path::PathBuf) -> Gunicorn {
    tokio::task::spawn_blocking(move || {
        Gunicorn::start_at(
            App::Overload {
                workers: 2,
                asgi: false,
            },
            &socket,
        )
    })
    .await
    .unwrap()
}

/// Every replica restarting at once (Compose recreating a scaled service, a deploy restarting
/// each Gunicorn): a request that every server refused holds its place at the last one it
/// tried, as it does with one server, and is served once they listen again, each copy seeing
/// no more than its workers at once. It went from one refusal to the next and got 502 before
/// (42 of 280 in lab/runs/2026-12-06-vm-replicas-recreated).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn requests_wait_for_replicas_that_restart_together() {
    let Some((apps, sockets, gateway)) = replicas_stopped().await else {
        return;
    };
    let waiting = six_waiting(&gateway).await;
    let [first, second] = sockets;
    let back = [restarted(first).await, restarted(second).await];
    for request in waiting {
        let status = tokio::time::timeout(Duration::from_secs(10), request)
            .await
            .expect("answered once the apps listened again")
            .unwrap();
        assert_eq!(status, StatusCode::OK);
    }
    assert_eq!(back[0].seen().len() + back[1].seen().len(), 6);
    for app in &back {
        assert!(
            app.most_at_once() <= 2,
            "a copy held {} at once",
            app.most_at_once()
        );
    }
    gateway.wait_pools_quiet(Duration::from_secs(5)).await;
    drop(back);
    drop(apps);
}

/// One of two replicas comes back and the other stays away: a request held for the one away
/// learns of the other's return by a connect to it as it waits, and goes there, though no other
/// request comes to find it; it does not wait out `fail_timeout` (20 s) for its 502.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_held_for_a_replica_away_goes_to_one_that_came_back() {
    let Some((apps, sockets, gateway)) = replicas_stopped().await else {
        return;
    };
    let request = spawn_get(gateway.addr, "/work?ms=1&id=held");
    let stats = wait_for(
        "the request to hold a place at the last server it tried",
        Duration::from_secs(5),
        || gateway.handle.pool_stats(),
        |stats| stats.iter().any(|(_, _, pool)| pool.in_use == 1),
    )
    .await;
    let held = stats
        .iter()
        .position(|(_, _, pool)| pool.in_use == 1)
        .expect("a pool holds it");
    let [first, second] = sockets;
    let back = restarted(if held == 0 { second } else { first }).await;
    let status = tokio::time::timeout(Duration::from_secs(10), request)
        .await
        .expect("answered once the other app listened again, not after fail_timeout")
        .unwrap();
    assert_eq!(status, StatusCode::OK);
    assert_eq!(back.seen(), ["held"]);
    gateway.wait_pools_quiet(Duration::from_secs(5)).await;
    drop(back);
    drop(apps);
}

/// A replica down for good (refusing for longer than `fail_timeout`, 6 s) beside one that
/// restarts: the requests that both refuse, those held at the one down included, wait for the
/// one restarting (the group is down only once every server has refused for `fail_timeout`),
/// where those were answered 502 at once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_replica_down_for_good_does_not_cut_short_the_wait_for_one_restarting() {
    let Some((mut apps, gateway)) = replicas("6s").await else {
        return;
    };
    apps[0].stop();
    // Requests find it refusing (they go on to the other), until its pool is marked so.
    wait_until_async(
        "the first replica's pool to be marked refusing",
        Duration::from_secs(5),
        || async {
            let answered = Client::connect(gateway.addr)
                .await
                .get("/work?ms=1&id=meanwhile")
                .await;
            assert_eq!(answered.status, StatusCode::OK);
            gateway.handle.pool_stats()[0].2.refusing
        },
    )
    .await;
    // Past its fail_timeout: down for good.
    tokio::time::sleep(Duration::from_millis(6_300)).await;
    apps[1].stop();
    let waiting = six_waiting(&gateway).await;
    let back = restarted(apps[1].socket()).await;
    for request in waiting {
        let status = tokio::time::timeout(Duration::from_secs(10), request)
            .await
            .expect("answered once the second replica listened again")
            .unwrap();
        assert_eq!(status, StatusCode::OK);
    }
    assert_eq!(back.seen().len(), 6, "{:?}", back.seen());
    gateway.wait_pools_quiet(Duration::from_secs(5)).await;
    drop(back);
    drop(apps);
}

/// A reload that changes the app's upstream table (here its `queue_timeout`) makes a new pool,
/// while the old config's requests still hold the workers and wait in the old queue: the new
/// pool counts the places the old one holds, so the new request waits in weir until a worker is
/// free (after the old queue's waiter), not in the app's backlog.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reload_that_changes_the_upstream_keeps_the_cap() {
    let Some((app, gateway)) = start(2, false, "workers = 2\nqueue_timeout = \"30s\"", "").await
    else {
        return;
    };
    // Sent one after another, and the workers free one at a time, so the old queue's waiter
    // takes the first and the new request the next (freed together, the two would race to the
    // app).
    let mut old = Vec::new();
    for (index, ms) in [800, 2000, 1].into_iter().enumerate() {
        old.push(spawn_get(
            gateway.addr,
            format!("/work?ms={ms}&id=old{index}"),
        ));
        wait_until(
            "the request to reach a worker or the queue",
            Duration::from_secs(10),
            || app.seen().len() + gateway.handle.pool_stats()[0].2.waiting == index + 1,
        )
        .await;
    }
    let changed = app_config(&app, "workers = 2\nqueue_timeout = \"20s\"", "");
    gateway
        .handle
        .reload(&weir::config::from_toml(&changed, None).expect("valid config"))
        .expect("reload");
    let new = spawn_get(gateway.addr, "/work?ms=1&id=new");
    let most_backlog = most_backlog_while_held(&app, &["old0", "old1"], &new).await;
    assert_eq!(new.await.unwrap(), StatusCode::OK);
    for request in old {
        assert_eq!(request.await.unwrap(), StatusCode::OK);
    }
    assert_eq!(
        most_backlog, 0,
        "the new config's request waited in the app's backlog"
    );
    let seen = app.seen();
    assert_eq!(seen.len(), 4, "{seen:?}");
    assert_eq!(seen[3], "new", "{seen:?}");
    gateway.wait_pools_quiet(Duration::from_secs(5)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_wait_predicted_over_the_deadline_is_refused_at_once_with_retry_after() {
    let Some((app, gateway)) = start(1, false, "workers = 1\nqueue_timeout = \"30s\"", "").await
    else {
        return;
    };
    // One request teaches weir the service time: at least 300 ms.
    let warm = Client::connect(gateway.addr)
        .await
        .get("/work?ms=300&id=warm")
        .await;
    assert_eq!(warm.status, StatusCode::OK);
    let busy = spawn_get(gateway.addr, "/work?ms=1500&id=busy");
    wait_until(
        "the busy request to hold the worker",
        Duration::from_secs(10),
        || app.seen() == ["warm", "busy"],
    )
    .await;
    // Behind a busy worker, the predicted wait is one service time (>= 300 ms): over the
    // 100 ms this client allows, so it is refused without waiting.
    let mut client = Client::connect(gateway.addr).await;
    let hurried = client
        .send(
            Request::get("/work?ms=1&id=hurried")
                .header("X-Weir-Queue-Deadline", "100")
                .body(Default::default())
                .unwrap(),
        )
        .await
        .unwrap();
    assert_eq!(hurried.status, StatusCode::SERVICE_UNAVAILABLE);
    let retry_after: u64 = hurried
        .header("retry-after")
        .expect("a Retry-After")
        .parse()
        .unwrap();
    assert!(retry_after >= 1, "{retry_after}");
    assert!(
        !busy.is_finished(),
        "the refusal came before the worker was free"
    );
    // Without the header, the deadline is queue_timeout (30 s): it queues and is served.
    let patient = spawn_get(gateway.addr, "/work?ms=1&id=patient");
    assert_eq!(busy.await.unwrap(), StatusCode::OK);
    assert_eq!(patient.await.unwrap(), StatusCode::OK);
    assert_eq!(app.seen(), ["warm", "busy", "patient"]);
    let stats = gateway.handle.pool_stats()[0].2;
    assert_eq!(stats.admission.refused_predicted, 1);
    assert!(stats.admission.service_us >= 300_000, "{stats:?}");
}

/// Sends `GET /work?ms=1&id=ID` with `Host: host` on a connection of its own, in a task.
fn spawn_get_as(
    addr: std::net::SocketAddr,
    host: &'static str,
    id: &'static str,
) -> tokio::task::JoinHandle<StatusCode> {
    tokio::spawn(async move {
        let request = Request::get(format!("/work?ms=1&id={id}"))
            .header("host", host)
            .body(Default::default())
            .unwrap();
        let mut client = Client::connect(addr).await;
        client.send(request).await.unwrap().status
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_freed_worker_goes_to_the_highest_priority_class_waiting() {
    let Some((app, gateway)) = start(
        1,
        false,
        "workers = 1\nqueue_timeout = \"30s\"",
        CLASS_ROUTES,
    )
    .await
    else {
        return;
    };
    let busy = spawn_get(gateway.addr, "/work?ms=1500&id=busy");
    wait_until(
        "the busy request to hold the worker",
        Duration::from_secs(10),
        || app.seen() == ["busy"],
    )
    .await;
    // They queue one at a time, so each is in before the next comes, in an order whose FIFO
    // (normal, high, low) and LIFO (low, high, normal) are both not the classes' order.
    let mut queued = Vec::new();
    for (host, id) in [
        ("app.test", "normal"),
        ("urgent.test", "high"),
        ("batch.test", "low"),
    ] {
        queued.push(spawn_get_as(gateway.addr, host, id));
        let waiting = queued.len();
        wait_until("the request to queue", Duration::from_secs(10), || {
            gateway.handle.pool_stats()[0].2.waiting == waiting
        })
        .await;
    }
    assert!(
        !busy.is_finished(),
        "all three queued behind the busy request"
    );
    assert_eq!(busy.await.unwrap(), StatusCode::OK);
    for task in queued {
        assert_eq!(task.await.unwrap(), StatusCode::OK);
    }
    assert_eq!(
        app.seen(),
        ["busy", "high", "normal", "low"],
        "served by class, not by arrival"
    );
    gateway.wait_pools_quiet(Duration::from_secs(5)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_standing_queue_refuses_newcomers_at_once_makes_room_for_high_ones_and_serves_the_rest(
) {
    let Some((app, gateway)) = start(
        1,
        false,
        "workers = 1\nqueue_timeout = \"120s\"",
        CLASS_ROUTES,
    )
    .await
    else {
        return;
    };
    // One request teaches weir a service time S of at least 3 s: long, so that the steps below
    // all happen within one S of the first waiter's arrival, however slow the machine (and
    // the queue's room, which shrinks by the time it stood, is still over 19 S).
    let warm = Client::connect(gateway.addr)
        .await
        .get("/work?ms=3000&id=warm")
        .await;
    assert_eq!(warm.status, StatusCode::OK);
    let busy = spawn_get(gateway.addr, "/work?ms=6000&id=busy");
    wait_until(
        "the busy request to hold the worker",
        Duration::from_secs(10),
        || app.seen() == ["warm", "busy"],
    )
    .await;
    // Nineteen normal requests queue: the queue's delay grows by six S at the sixth, so it
    // stands, with a room of 20 S of delay less the time it stood (under one S): full with
    // nineteen waiters at one worker (the 20th would wait 20 S). A queue_timeout of 120 s
    // keeps the deadline from refusing them first.
    let mut waiting = Vec::new();
    for index in 0..19 {
        waiting.push(spawn_get(gateway.addr, format!("/work?ms=1&id=w{index}")));
        wait_until("the request to queue", Duration::from_secs(10), || {
            gateway.handle.pool_stats()[0].2.waiting == index + 1
        })
        .await;
    }
    // A low request and a normal one outrank no waiter: each is refused at once.
    for host in ["batch.test", "app.test"] {
        let request = Request::get("/work?ms=1&id=refused")
            .header("host", host)
            .body(Default::default())
            .unwrap();
        let refused = Client::connect(gateway.addr)
            .await
            .send(request)
            .await
            .unwrap();
        assert_eq!(refused.status, StatusCode::SERVICE_UNAVAILABLE, "{host}");
        assert!(refused.header("retry-after").is_some(), "{host}");
    }
    assert_eq!(gateway.handle.pool_stats()[0].2.waiting, 19);
    // Two high ones are admitted, each in the place of the oldest normal waiter (w0, w1),
    // which is answered 503 at once.
    let mut high = Vec::new();
    for id in ["high1", "high2"] {
        high.push(spawn_get_as(gateway.addr, "urgent.test", id));
        let dropped = high.len();
        wait_until("the oldest to be dropped", Duration::from_secs(10), || {
            waiting[dropped - 1].is_finished()
        })
        .await;
        assert_eq!(gateway.handle.pool_stats()[0].2.waiting, 19);
    }
    assert!(
        !busy.is_finished(),
        "all of it happened behind the busy request"
    );
    assert_eq!(busy.await.unwrap(), StatusCode::OK);
    // When the worker frees (after 6 s), the normal waiters have waited over one S, and the
    // queue refuses (the two refused and the two dropped: two per place), but no newcomer
    // comes to be admitted in their stead: they are not dropped, and are served after the
    // high ones, within their deadline (first come, first served while the room is at its
    // floor; as their quick answers teach a shorter S, the refusals lapse sooner, and the
    // order with them, so only the set is checked).
    assert_eq!(high.pop().unwrap().await.unwrap(), StatusCode::OK);
    assert_eq!(high.pop().unwrap().await.unwrap(), StatusCode::OK);
    for (index, task) in waiting.into_iter().enumerate() {
        let expected = if index < 2 {
            StatusCode::SERVICE_UNAVAILABLE
        } else {
            StatusCode::OK
        };
        assert_eq!(task.await.unwrap(), expected, "w{index}");
    }
    let mut seen = app.seen();
    assert_eq!(seen[..4], ["warm", "busy", "high1", "high2"]);
    seen[4..].sort_by_key(|id| id[1..].parse::<usize>().unwrap_or(0));
    let normal: Vec<String> = (2..19).map(|index| format!("w{index}")).collect();
    assert_eq!(seen[4..], normal);
    let stats = gateway.handle.pool_stats()[0].2;
    assert_eq!(stats.admission.refused_standing, 2, "{stats:?}");
    assert_eq!(stats.admission.dropped_standing, 2, "{stats:?}");
    gateway.wait_pools_quiet(Duration::from_secs(5)).await;
}
