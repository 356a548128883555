//! weir's own active health check (`health_check`) against a server whose capacity is declared
//! (`workers`, or `max_connections`): the check takes a place in the server's pool, so the app
//! never sees more requests at once than the cap, the check included, and its time-out starts
//! once it has its place, so a server busy with requests is not marked down for the wait. Real
//! Gunicorn apps (`lab/apps/overload_app.py`, which counts the `/work` requests it holds at
//! once and notes each one's `id`). Run when `WEIR_E2E=1`.

use crate::support::*;
use weir_testkit::gunicorn::{self, App, Gunicorn};

/// The overload app with `workers` workers (sync, or one Uvicorn process with `asgi`, which
/// takes any number of requests at once) behind a gateway whose upstream `app` has
/// `upstream_extra` lines; `None` (the test is skipped) without `WEIR_E2E=1`.
async fn start(workers: u32, asgi: bool, upstream_extra: &str) -> Option<(Gunicorn, TestGateway)> {
    if !gunicorn::enabled() {
        eprintln!("skipped: set WEIR_E2E=1 to run the end-to-end tests");
        return None;
    }
    let app = Gunicorn::start(App::Overload { workers, asgi });
    let gateway = TestGateway::start(&config(&app.address, "", upstream_extra)).await;
    Some((app, gateway))
}

/// `clients` clients, each sending `rounds` requests of `ms` milliseconds one after another
/// (each on a connection of its own): more clients than places keep the pool full and a queue
/// waiting. Every status.
async fn load(gateway: &TestGateway, clients: usize, rounds: usize, ms: u64) -> Vec<StatusCode> {
    let addr = gateway.addr;
    let tasks: Vec<_> = (0..clients)
        .map(|_| {
            tokio::spawn(async move {
                let mut statuses = Vec::new();
                for _ in 0..rounds {
                    let path = format!("/work?ms={ms}&id=load");
                    statuses.push(Client::connect(addr).await.get(&path).await.status);
                }
                statuses
            })
        })
        .collect();
    let mut statuses = Vec::new();
    for task in tasks {
        statuses.extend(task.await.expect("a load client"));
    }
    statuses
}

/// The checks that reached the app between its first and its last request of the load: proof
/// that checks ran while the pool was full.
fn checks_during_load(app: &Gunicorn) -> usize {
    let seen = app.seen();
    let first = seen.iter().position(|id| id == "load");
    let last = seen.iter().rposition(|id| id == "load");
    match (first, last) {
        (Some(first), Some(last)) => seen[first..last].iter().filter(|id| *id == "check").count(),
        _ => 0,
    }
}

/// The active checks' outcomes of the one server, and whether it is down now.
fn checks(gateway: &TestGateway) -> (weir::upstream::ActiveChecks, bool) {
    let states = gateway.handle.server_states();
    assert_eq!(states.len(), 1);
    (states[0].1.checks, states[0].1.active_down)
}

/// Issue 21, point 1: the app never sees more requests at once than the cap. One Uvicorn
/// process takes whatever comes, so a check sent beside two requests in flight would be the
/// third the app holds: it must wait for one of the two places instead. Before 435e963
/// (`check_once` opened its connection beside the pool) the app held 3 at once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_health_check_takes_a_place_in_the_cap_and_the_app_never_sees_more() {
    for cap in [
        "max_connections = 2",
        "workers = 2\nworker_class = \"async\"\nthreads = 1",
    ] {
        let upstream = format!(
            "{cap}\nqueue_timeout = \"30s\"\n\
             health_check = {{ path = \"/work?ms=5&id=check\", interval = \"20ms\", timeout = \"5s\" }}"
        );
        let Some((app, gateway)) = start(1, true, &upstream).await else {
            return;
        };
        let statuses = load(&gateway, 4, 6, 150).await;
        assert!(
            statuses.iter().all(|&status| status == StatusCode::OK),
            "{cap}: {statuses:?}"
        );
        assert_eq!(
            app.most_at_once(),
            2,
            "{cap}: the app held at most the cap, health checks included"
        );
        assert!(
            checks_during_load(&app) >= 1,
            "{cap}: checks reached the app while the load kept the pool full: {:?}",
            app.seen()
        );
        let (checks, down) = checks(&gateway);
        assert_eq!(checks.failed, 0, "{cap}: {checks:?}");
        assert!(!down, "{cap}");
        // Every place the checks took came back: nothing is in use once the load is over
        // (between two checks).
        gateway.wait_pools_quiet(Duration::from_secs(5)).await;
        assert!(gateway.handle.pool_stats()[0].2.open <= 2);
    }
}

/// A sync Gunicorn app whose two workers are kept busy by 800 ms requests: a check sent beside
/// them waited in Gunicorn's listen backlog, past its 250 ms time-out, and marked the busy but
/// healthy server down (before 435e963: failed checks, the server marked down). Inside the
/// cap, the check waits in weir's queue for the next worker that frees, ahead of the requests,
/// and its time-out starts then; a check that gets no place within its interval (50 ms here,
/// while a worker frees about every 400 ms) is skipped, neither a pass nor a failure.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sync_app_busy_with_requests_is_not_marked_down_by_its_health_check() {
    let upstream = "workers = 2\nqueue_timeout = \"30s\"\n\
        health_check = { path = \"/work?ms=1&id=check\", interval = \"50ms\", timeout = \"250ms\", fails = 1 }";
    let Some((app, gateway)) = start(2, false, upstream).await else {
        return;
    };
    let statuses = load(&gateway, 3, 3, 800).await;
    assert!(
        statuses.iter().all(|&status| status == StatusCode::OK),
        "{statuses:?}"
    );
    let (checks, down) = checks(&gateway);
    assert_eq!(
        checks.failed, 0,
        "no check failed, so none marked it down: {checks:?}"
    );
    assert!(!down);
    assert!(
        checks_during_load(&app) >= 1,
        "checks reached the app while its workers were busy: {:?}",
        app.seen()
    );
    assert!(
        checks.skipped >= 1,
        "a check found no place within its interval: {checks:?}"
    );
    assert_eq!(app.most_at_once(), 2);
    gateway.wait_pools_quiet(Duration::from_secs(5)).await;
    // /metrics shows the skips (the checks go on, so the counts are at least those read).
    let metrics = gateway.handle.render_metrics();
    let counted = |result: &str| -> u64 {
        let prefix = format!(
            "weir_health_checks_total{{upstream=\"app\",server=\"{}\",result=\"{result}\"}} ",
            app.address
        );
        let line = metrics.lines().find(|line| line.starts_with(&prefix));
        let line = line.unwrap_or_else(|| panic!("no {prefix} in:\n{metrics}"));
        line[prefix.len()..].parse().expect("a count")
    };
    assert!(counted("skipped") >= checks.skipped, "{metrics}");
    assert_eq!(counted("failed"), 0, "{metrics}");
    assert!(
        metrics.contains(&format!(
            "weir_upstream_server_up{{upstream=\"app\",server=\"{}\"}} 1",
            app.address
        )),
        "{metrics}"
    );
}
