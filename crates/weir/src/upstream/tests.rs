//! Unit tests of the balancer (which server a request goes to, and the next one after a failure),
//! of server health (passive `max_fails` / `fail_timeout` on tokio's paused clock, and the
//! active check's consecutive counts), and of what a request holds of its group's servers.

use std::time::Duration;

use tokio::time::Instant;

use super::balance::Balancer;
use super::health::{ActiveCounter, Health, PassiveSettings};
use crate::config::Balance;

fn picks(balancer: &Balancer, count: usize, available: impl Fn(usize) -> bool) -> Vec<usize> {
    picks_with(balancer, count, available, &[])
}

/// Picks with `outstanding[index]` requests in flight to each server (none past its end).
fn picks_with(
    balancer: &Balancer,
    count: usize,
    available: impl Fn(usize) -> bool,
    outstanding: &[usize],
) -> Vec<usize> {
    (0..count)
        .map(|_| balancer.first(&available, in_flight(outstanding)))
        .collect()
}

fn in_flight(outstanding: &[usize]) -> impl Fn(usize) -> usize + '_ {
    |index| outstanding.get(index).copied().unwrap_or(0)
}

fn tally(picks: &[usize], servers: usize) -> Vec<usize> {
    let mut counts = vec![0; servers];
    for &index in picks {
        counts[index] += 1;
    }
    counts
}

// --- balancer -------------------------------------------------------------------------------------

#[test]
fn round_robin_takes_each_server_in_turn() {
    let balancer = Balancer::new(Balance::RoundRobin, 3);
    assert_eq!(picks(&balancer, 7, |_| true), vec![0, 1, 2, 0, 1, 2, 0]);
}

#[test]
fn round_robin_passes_over_a_server_marked_down() {
    let balancer = Balancer::new(Balance::RoundRobin, 3);
    let chosen = picks(&balancer, 6, |index| index != 1);
    assert_eq!(chosen, vec![0, 2, 2, 0, 2, 2]);
}

#[test]
fn when_every_server_is_down_each_is_tried_in_turn() {
    let balancer = Balancer::new(Balance::RoundRobin, 3);
    assert_eq!(picks(&balancer, 4, |_| false), vec![0, 1, 2, 0]);
    let balancer = Balancer::new(Balance::LeastOutstanding, 3);
    let chosen = picks(&balancer, 300, |_| false);
    assert!(
        tally(&chosen, 3).iter().all(|&count| count > 50),
        "{:?}",
        tally(&chosen, 3)
    );
}

#[test]
fn a_single_server_is_always_chosen() {
    for strategy in [Balance::RoundRobin, Balance::LeastOutstanding] {
        let balancer = Balancer::new(strategy, 1);
        assert_eq!(picks(&balancer, 3, |_| false), vec![0, 0, 0]);
        assert_eq!(balancer.next(&[true], 0, |_| true, in_flight(&[])), None);
    }
}

#[test]
fn after_a_failure_untried_servers_that_are_up_come_first() {
    let balancer = Balancer::new(Balance::RoundRobin, 4);
    let up = |index: usize| index != 1;
    // Server 0 failed: 1 is down, so 2 comes before it.
    let none = in_flight(&[]);
    assert_eq!(
        balancer.next(&[true, false, false, false], 0, up, &none),
        Some(2)
    );
    assert_eq!(
        balancer.next(&[true, false, true, false], 2, up, &none),
        Some(3)
    );
    // Only the server marked down is left: it is tried anyway.
    assert_eq!(
        balancer.next(&[true, false, true, true], 3, up, &none),
        Some(1)
    );
    assert_eq!(balancer.next(&[true, true, true, true], 1, up, &none), None);
}

#[test]
fn least_outstanding_retries_on_the_least_busy_untried_server() {
    let balancer = Balancer::new(Balance::LeastOutstanding, 3);
    let outstanding = in_flight(&[0, 2, 1]);
    assert_eq!(
        balancer.next(&[true, false, false], 0, |_| true, &outstanding),
        Some(2)
    );
    assert_eq!(
        balancer.next(&[true, false, true], 2, |_| true, &outstanding),
        Some(1)
    );
}

#[test]
fn least_outstanding_avoids_the_busier_of_two() {
    let balancer = Balancer::new(Balance::LeastOutstanding, 2);
    assert!(picks_with(&balancer, 50, |_| true, &[3, 0])
        .iter()
        .all(|&index| index == 1));
    assert!(picks_with(&balancer, 50, |_| true, &[0, 1])
        .iter()
        .all(|&index| index == 0));
}

#[test]
fn least_outstanding_never_picks_the_busiest_of_three() {
    // Two distinct draws always include a server less busy than server 0.
    let balancer = Balancer::new(Balance::LeastOutstanding, 3);
    let chosen = picks_with(&balancer, 600, |_| true, &[5, 0, 0]);
    let counts = tally(&chosen, 3);
    assert_eq!(counts[0], 0, "{counts:?}");
    assert!(counts[1] > 200 && counts[2] > 200, "{counts:?}");
}

#[test]
fn least_outstanding_spreads_evenly_when_idle_and_skips_servers_marked_down() {
    let balancer = Balancer::new(Balance::LeastOutstanding, 4);
    let counts = tally(&picks(&balancer, 4000, |_| true), 4);
    assert!(counts.iter().all(|&count| count > 800), "{counts:?}");
    let counts = tally(&picks(&balancer, 1000, |index| index != 2), 4);
    assert_eq!(counts[2], 0, "{counts:?}");
}

// --- passive health -------------------------------------------------------------------------------

fn health(max_fails: u32, fail_timeout_secs: u64) -> Health {
    Health::new(PassiveSettings {
        max_fails,
        fail_timeout: Duration::from_secs(fail_timeout_secs),
    })
}

#[tokio::test(start_paused = true)]
async fn one_failure_marks_a_server_down_for_fail_timeout_then_one_trial_goes() {
    let health = health(1, 10);
    assert!(health.is_healthy());
    assert!(health.record_failure(Instant::now()));
    assert!(!health.is_healthy());
    assert!(health.is_passive_down());
    assert!(!health.is_available(Instant::now()));

    tokio::time::advance(Duration::from_secs(9)).await;
    assert!(!health.is_available(Instant::now()));
    tokio::time::advance(Duration::from_secs(1)).await;
    assert!(health.is_available(Instant::now()));

    // The trial: while it runs, nobody else is sent there for another fail_timeout.
    let trial = health.on_picked(Instant::now());
    assert!(!health.is_available(Instant::now()));
    assert!(health.record_success(trial));
    assert!(health.is_healthy());
    assert!(health.is_available(Instant::now()));
    assert_eq!(health.failures(), 1);
}

#[tokio::test(start_paused = true)]
async fn a_failed_trial_keeps_the_server_down_for_another_fail_timeout() {
    let health = health(1, 10);
    health.record_failure(Instant::now());
    tokio::time::advance(Duration::from_secs(10)).await;
    let _trial = health.on_picked(Instant::now());
    assert!(!health.record_failure(Instant::now()));
    tokio::time::advance(Duration::from_secs(9)).await;
    assert!(!health.is_available(Instant::now()));
    tokio::time::advance(Duration::from_secs(1)).await;
    assert!(health.is_available(Instant::now()));
    assert!(!health.is_healthy(), "down until a trial succeeds");
}

#[tokio::test(start_paused = true)]
async fn max_fails_counts_failures_within_fail_timeout() {
    let health = health(3, 10);
    assert!(!health.record_failure(Instant::now()));
    tokio::time::advance(Duration::from_secs(4)).await;
    assert!(!health.record_failure(Instant::now()));
    // A success within the window does not reset the count, as in nginx.
    assert!(!health.record_success(health.on_picked(Instant::now())));
    tokio::time::advance(Duration::from_secs(4)).await;
    assert!(health.record_failure(Instant::now()));
    assert!(!health.is_available(Instant::now()));
}

#[tokio::test(start_paused = true)]
async fn failures_further_apart_than_fail_timeout_do_not_add_up() {
    let health = health(2, 10);
    assert!(!health.record_failure(Instant::now()));
    tokio::time::advance(Duration::from_secs(10)).await;
    assert!(!health.record_failure(Instant::now()));
    tokio::time::advance(Duration::from_secs(5)).await;
    assert!(health.record_failure(Instant::now()));
}

#[tokio::test(start_paused = true)]
async fn a_request_sent_before_the_server_went_down_does_not_bring_it_back() {
    let health = health(1, 10);
    let earlier = health.on_picked(Instant::now());
    health.record_failure(Instant::now());
    assert!(!health.record_success(earlier));
    assert!(health.is_passive_down());
    // But one sent while it was down (every server was) does.
    let forced = health.on_picked(Instant::now());
    assert!(health.record_success(forced));
    assert!(health.is_healthy());
}

#[tokio::test(start_paused = true)]
async fn max_fails_zero_turns_passive_health_off() {
    let health = health(0, 10);
    for _ in 0..5 {
        assert!(!health.record_failure(Instant::now()));
    }
    assert!(health.is_healthy());
    assert!(health.is_available(Instant::now()));
    assert_eq!(health.failures(), 5);
}

// --- active health --------------------------------------------------------------------------------

#[test]
fn the_active_check_needs_consecutive_fails_and_passes() {
    let mut counter = ActiveCounter::new(3, 2);
    assert!(!counter.is_down());
    assert_eq!(counter.record(false), None);
    assert_eq!(counter.record(false), None);
    assert_eq!(counter.record(true), None, "a pass resets the failures");
    assert_eq!(counter.record(false), None);
    assert_eq!(counter.record(false), None);
    assert_eq!(counter.record(false), Some(true));
    assert!(counter.is_down());
    assert_eq!(counter.record(false), None);
    assert_eq!(counter.record(true), None);
    assert_eq!(counter.record(false), None, "a failure resets the passes");
    assert_eq!(counter.record(true), None);
    assert_eq!(counter.record(true), Some(false));
    assert!(!counter.is_down());
}

#[test]
fn one_fail_and_one_pass_flip_at_once() {
    let mut counter = ActiveCounter::new(1, 1);
    assert_eq!(counter.record(true), None);
    assert_eq!(counter.record(false), Some(true));
    assert_eq!(counter.record(true), Some(false));
}

// --- the servers a request holds ------------------------------------------------------------------

/// A group given by addresses only never changes its servers: a request borrows them, and
/// writes no reference count on them (one per request before, up and down: a write to a line
/// every thread writes).
#[tokio::test]
async fn a_request_to_servers_that_never_change_takes_no_reference_on_them() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("up.sock");
    let listener = tokio::net::UnixListener::bind(&path).expect("bind");
    let config = crate::config::from_toml(
        &format!("[upstreams.app]\nservers = [\"unix:{}\"]\n", path.display()),
        None,
    )
    .expect("config");
    let upstream = super::Upstream::new("app", &config.upstreams["app"], false);
    // Minus the one this probe takes.
    let references = || std::sync::Arc::strong_count(&upstream.set.current.load_full()) - 1;
    assert_eq!(references(), 2, "the current set and the unchanging one");
    let request = crate::head_view::Request::from_http(
        http::Request::get("/")
            .body(crate::request_body::RequestBody::Full(None))
            .expect("a request"),
    );
    let sending = upstream.send(request, crate::config::Priority::Normal);
    tokio::pin!(sending);
    // The request is sent on a connection the server accepts, and its answer never comes: the
    // request is in flight, between its server's choice and its response head.
    let _accepted = tokio::select! {
        accepted = listener.accept() => accepted.expect("accept"),
        _ = &mut sending => panic!("no answer was sent"),
    };
    assert_eq!(references(), 2, "the request in flight holds no reference");
}
