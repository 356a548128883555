//! Unit tests of the balancer (which server a request goes to, and the next one after a failure),
//! of server health (passive `max_fails` / `fail_timeout` on tokio's paused clock, and the
//! active check's consecutive counts), and of what a request (and an HTTP/1 connection) holds of
//! its group's servers.

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
fn each_thread_takes_the_servers_in_its_own_turn() {
    // Two lanes: a pick on one thread does not move the other's turn (a shared turn, written
    // by every thread, would hand thread 1 servers 2 and 0 here).
    let balancer = Balancer::with_lanes(Balance::RoundRobin, 3, 2);
    let pick = |thread| balancer.first_in(thread, None, |_| true, in_flight(&[]));
    assert_eq!([pick(0), pick(0)], [0, 1]);
    assert_eq!([pick(1), pick(1)], [0, 1]);
    assert_eq!([pick(0), pick(1), pick(2)], [2, 2, 0]);
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
fn with_a_declared_capacity_the_shortest_queue_is_joined_whatever_the_strategy() {
    for strategy in [Balance::RoundRobin, Balance::LeastOutstanding] {
        let balancer = Balancer::new(strategy, 3).joining_the_shortest_queue(true);
        // The fewest in flight and waiting, of all three (two drawn could miss it).
        let chosen = picks_with(&balancer, 60, |_| true, &[2, 1, 3]);
        assert!(chosen.iter().all(|&index| index == 1), "{chosen:?}");
        // A server marked down is passed over, however idle.
        let chosen = picks_with(&balancer, 30, |index| index != 1, &[2, 0, 3]);
        assert!(chosen.iter().all(|&index| index == 0), "{chosen:?}");
        // Ties go in turn.
        let chosen = picks_with(&balancer, 600, |_| true, &[1, 1, 1]);
        assert_eq!(tally(&chosen, 3), [200, 200, 200], "{strategy:?}");
        // A retry goes to the least busy untried server.
        let outstanding = in_flight(&[0, 2, 1]);
        assert_eq!(
            balancer.next(&[true, false, false], 0, |_| true, &outstanding),
            Some(2)
        );
    }
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

#[test]
fn backups_take_requests_only_while_none_of_the_group_s_own_is_available() {
    // Servers 0 and 1 are the group's own, 2 and 3 its backups.
    for (strategy, shortest) in [
        (Balance::RoundRobin, false),
        (Balance::LeastOutstanding, false),
        (Balance::RoundRobin, true),
    ] {
        let balancer = Balancer::new(strategy, 4)
            .joining_the_shortest_queue(shortest)
            .with_backups_from(2);
        let case = format!("{strategy:?}, shortest queue {shortest}");
        // Idle backups draw nothing while one of the group's own is up, however busy.
        let chosen = picks_with(&balancer, 200, |_| true, &[5, 9, 0, 0]);
        assert_eq!(tally(&chosen, 4)[2..], [0, 0], "{case}");
        let chosen = picks_with(&balancer, 100, |index| index != 0, &[0, 9, 0, 0]);
        assert_eq!(tally(&chosen, 4), [0, 100, 0, 0], "{case}");
        // Both down: the backups share the requests.
        let chosen = picks(&balancer, 200, |index| index >= 2);
        let counts = tally(&chosen, 4);
        assert_eq!(counts[..2], [0, 0], "{case}");
        assert!(counts[2] > 0 && counts[3] > 0, "{case}: {counts:?}");
        // One backup down too: the other.
        let chosen = picks(&balancer, 50, |index| index == 3);
        assert_eq!(tally(&chosen, 4), [0, 0, 0, 50], "{case}");
        // Everything down: the group's own are tried anyway, as without backups.
        let chosen = picks(&balancer, 50, |_| false);
        assert_eq!(tally(&chosen, 4)[2..], [0, 0], "{case}");
        // After a failure: the group's own that are up, then the backups that are up, then
        // those marked down, the group's own first.
        let none = in_flight(&[]);
        let up = |index: usize| index != 1;
        assert_eq!(
            balancer.next(&[true, false, false, false], 0, up, &none),
            Some(2),
            "{case}"
        );
        assert_eq!(
            balancer.next(&[true, false, false, false], 0, |_| true, &none),
            Some(1),
            "{case}"
        );
        assert_eq!(
            balancer.next(&[true, false, true, true], 3, up, &none),
            Some(1),
            "{case}"
        );
        assert_eq!(
            balancer.next(&[true, false, true, false], 2, |index| index == 0, &none),
            Some(1),
            "{case}: 1 and 3 are both down; the group's own comes first"
        );
    }
}

#[test]
fn with_none_of_the_group_s_own_servers_the_backups_share_the_requests() {
    // `servers = ["web:8000"]` not resolved yet, two backups given as addresses.
    for strategy in [Balance::RoundRobin, Balance::LeastOutstanding] {
        let balancer = Balancer::new(strategy, 2).with_backups_from(0);
        let counts = tally(&picks(&balancer, 200, |_| true), 2);
        assert!(counts[0] > 0 && counts[1] > 0, "{strategy:?}: {counts:?}");
        assert_eq!(picks(&balancer, 20, |index| index == 1), vec![1; 20]);
        // Both down: tried anyway.
        let counts = tally(&picks(&balancer, 200, |_| false), 2);
        assert!(counts[0] > 0 && counts[1] > 0, "{strategy:?}: {counts:?}");
        assert_eq!(
            balancer.next(&[true, false], 0, |_| false, in_flight(&[])),
            Some(1)
        );
    }
}

#[test]
fn backups_come_after_the_group_s_own_servers_and_names_and_never_twice() {
    use crate::config::{ServerName, UpstreamAddr};
    let tcp = |text: &str| UpstreamAddr::Tcp(text.parse().unwrap());
    let name = |host: &str, backup: bool| ServerName {
        host: host.to_string(),
        port: 80,
        index: 0,
        backup,
    };
    let wanted = super::servers_of(
        &[tcp("10.0.0.1:80")],
        &[tcp("10.0.0.9:80"), tcp("10.0.0.2:80")],
        &[name("spare", true), name("web", false)],
        &[
            vec![tcp("10.0.0.8:80"), tcp("10.0.0.1:80")],
            vec![tcp("10.0.0.2:80"), tcp("10.0.0.3:80")],
        ],
        &[("web:80".to_string(), 3), ("10.0.0.9:80".to_string(), 2)],
    );
    let addrs: Vec<String> = wanted.addrs.iter().map(ToString::to_string).collect();
    // web's 10.0.0.2 is one of the group: not a backup as well.
    assert_eq!(
        addrs,
        [
            "10.0.0.1:80",
            "10.0.0.2:80",
            "10.0.0.3:80",
            "10.0.0.9:80",
            "10.0.0.8:80"
        ]
    );
    assert_eq!(wanted.primaries, 3);
    // A name's weight is each of its addresses'; a server not named has 1.
    assert_eq!(wanted.weights, [1, 3, 3, 2, 1]);
}

#[test]
fn weights_give_servers_their_turns_spread_through_the_round() {
    // nginx's smooth weighted round robin: 5, 1, 1 is a a b a c a a, not five a's in a row.
    let balancer = Balancer::new(Balance::RoundRobin, 3).with_weights(&[5, 1, 1]);
    assert_eq!(
        picks(&balancer, 14, |_| true),
        vec![0, 0, 1, 0, 2, 0, 0, 0, 0, 1, 0, 2, 0, 0]
    );
    // A server marked down passes its turns to the next in the round.
    let balancer = Balancer::new(Balance::RoundRobin, 3).with_weights(&[5, 1, 1]);
    assert_eq!(
        tally(&picks(&balancer, 7, |index| index != 0), 3),
        vec![0, 5, 2]
    );
    // Backups have a round of their own, used while none of the group's own is up.
    let balancer = Balancer::new(Balance::RoundRobin, 4)
        .with_backups_from(2)
        .with_weights(&[1, 1, 3, 1]);
    assert_eq!(
        tally(&picks(&balancer, 8, |index| index >= 2), 4),
        vec![0, 0, 6, 2]
    );
    // All the same: plain round robin.
    let balancer = Balancer::new(Balance::RoundRobin, 3).with_weights(&[4, 4, 4]);
    assert_eq!(picks(&balancer, 4, |_| true), vec![0, 1, 2, 0]);
}

#[test]
fn weights_make_least_outstanding_draw_and_compare_by_weight() {
    // Idle servers: each drawn in proportion to its weight, the pair's first kept on a tie.
    let balancer = Balancer::new(Balance::LeastOutstanding, 2).with_weights(&[3, 1]);
    let counts = tally(&picks(&balancer, 4000, |_| true), 2);
    assert!(counts[0] > 2 * counts[1], "{counts:?}");
    // Four in flight on a server of weight 4 is less load than two on one of weight 1.
    let balancer = Balancer::new(Balance::LeastOutstanding, 2).with_weights(&[4, 1]);
    assert_eq!(
        tally(&picks_with(&balancer, 50, |_| true, &[4, 2]), 2),
        vec![50, 0]
    );
    // Joining the shortest queue counts load per weight too.
    let balancer = Balancer::new(Balance::RoundRobin, 2)
        .joining_the_shortest_queue(true)
        .with_weights(&[4, 1]);
    assert_eq!(picks_with(&balancer, 3, |_| true, &[3, 1]), vec![0, 0, 0]);
}

#[test]
fn client_address_keeps_a_client_on_one_server_as_nginxs_ip_hash() {
    let balancer = Balancer::new(Balance::ClientAddress, 3);
    let pick = |client: &str, available: &dyn Fn(usize) -> bool| {
        balancer.first_for(Some(client.parse().unwrap()), available, in_flight(&[]))
    };
    let up = |_: usize| true;
    // nginx's hash of 10.0.0.x's first three bytes: (((89 * 113 + 10) % 6271) * 113 ...) % 6271
    // is 2565, and 2565 % 3 is 0; the last byte does not count.
    assert_eq!(pick("10.0.0.1", &up), 0);
    assert_eq!(pick("10.0.0.200", &up), 0);
    assert_eq!(pick("::ffff:10.0.0.7", &up), 0);
    let spread: Vec<usize> = (0..60)
        .map(|third| pick(&format!("192.168.{third}.1"), &up))
        .collect();
    assert!(
        tally(&spread, 3).iter().all(|&count| count > 5),
        "{spread:?}"
    );
    // Its server down: hashed again, to another; always the same other.
    let without_one = |index: usize| index != 0;
    let moved = pick("10.0.0.1", &without_one);
    assert_ne!(moved, 0);
    assert_eq!(pick("10.0.0.99", &without_one), moved);
    // No client address (an active check, say): in turn.
    assert_eq!(
        picks(&Balancer::new(Balance::ClientAddress, 3), 4, up),
        vec![0, 1, 2, 0]
    );
    // Weights count, as in nginx: 2565 % 4 is 1, past the first server's one turn of 1 + 3.
    let weighted = Balancer::new(Balance::ClientAddress, 2).with_weights(&[1, 3]);
    assert_eq!(
        weighted.first_for(Some("10.0.0.1".parse().unwrap()), up, in_flight(&[])),
        1
    );
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
    let sending = upstream.send(request, crate::config::Priority::Normal, None, None, None);
    tokio::pin!(sending);
    // The request is sent on a connection the server accepts, and its answer never comes: the
    // request is in flight, between its server's choice and its response head.
    let _accepted = tokio::select! {
        accepted = listener.accept() => accepted.expect("accept"),
        _ = &mut sending => panic!("no answer was sent"),
    };
    assert_eq!(references(), 2, "the request in flight holds no reference");
}

/// A group given by a host name: an HTTP/1 connection keeps its servers between requests
/// (`Kept`), so a request takes no reference on the shared set (one per request before, up and
/// down). Through the whole path: a connection served by `h1::serve` with the proxy built from
/// the config (not parked: `park_after` is off, so only the connection's end drops what it
/// keeps), a client on it kept alive, a real upstream at `localhost` (the system's resolver).
/// The set is referred to by the group and by the connection, the same two after every request;
/// without the connection's hold it was the group's alone between requests (seen failing: 1
/// reference, not 2).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_connection_keeps_a_named_groups_servers_and_its_requests_take_no_reference() {
    let server = weir_testkit::UpstreamServer::start(weir_testkit::upstream::Transport::Tcp).await;
    let port = port_of(&server.address);
    let config = crate::config::from_toml(
        &format!(
            "[upstreams.app]\nservers = [\"localhost:{port}\"]\n\
             [[routes]]\npath = \"/\"\nupstream = \"app\"\n"
        ),
        None,
    )
    .expect("config");
    let proxy = std::sync::Arc::new(crate::proxy::Proxy::new(&config, false).expect("proxy"));
    let upstream = std::sync::Arc::clone(&proxy.upstreams()[0]);
    // Minus the one this probe takes.
    let references = || std::sync::Arc::strong_count(&upstream.set.current.load_full()) - 1;

    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("an address");
    let serving = tokio::spawn(async move {
        let (stream, peer) = listener.accept().await.expect("accept");
        let settings = crate::h1::Settings {
            header_timeout: Duration::from_secs(30),
            keepalive_timeout: Duration::from_secs(30),
            keepalive_requests: 0,
            max_header_size: 8192,
            park_after: None,
            listener: std::sync::Arc::new(crate::routing::Listener {
                addr,
                tls: false,
                port: addr.port(),
            }),
        };
        let io = crate::write_timeout::WriteTimeout::new(stream, Duration::from_secs(30), "test");
        let (_stop_sender, stop) = tokio::sync::watch::channel(false);
        let start = crate::h1::Start::new(&settings);
        let in_force = move || std::sync::Arc::clone(&proxy);
        crate::h1::serve(Box::new(io), peer, settings, in_force, stop, None, start).await;
    });

    let mut client = weir_testkit::Client::connect(addr).await;
    // The first request may wait for the first resolution, and takes the set for itself.
    assert_eq!(client.get("/").await.status, http::StatusCode::OK);
    let mut seen = Vec::new();
    for _ in 0..5 {
        assert_eq!(client.get("/").await.status, http::StatusCode::OK);
        seen.push(references());
    }
    assert_eq!(
        seen,
        vec![2; 5],
        "the group's and the connection's, request after request"
    );
    assert_eq!(server.requests(), 6);
    drop(client);
    serving.await.expect("the connection ends");
    assert_eq!(references(), 1, "the connection's went with it");
}

/// A set that changes (a name's new addresses) is taken again by a connection's next request:
/// what the connection keeps is never older than the group's servers when a request starts.
/// The change is made as the resolving task makes it (`Follower::update`), so no DNS server is
/// needed and nothing races it (`resolve_interval` is an hour).
#[tokio::test]
async fn a_kept_set_is_taken_again_once_the_servers_change() {
    use super::resolve::Follower;

    let first = weir_testkit::UpstreamServer::start(weir_testkit::upstream::Transport::Tcp).await;
    let second = weir_testkit::UpstreamServer::start(weir_testkit::upstream::Transport::Tcp).await;
    let port = port_of(&first.address);
    let config = crate::config::from_toml(
        &format!(
            "[server]\nresolve_interval = \"1h\"\n\
             [upstreams.app]\nservers = [\"localhost:{port}\"]\n"
        ),
        None,
    )
    .expect("config");
    let upstream = super::Upstream::new("app", &config.upstreams["app"], false);
    let get = || {
        crate::head_view::Request::from_http(
            http::Request::get("/")
                .header("host", "app")
                .body(crate::request_body::RequestBody::Full(None))
                .expect("a request"),
        )
    };
    let mut kept = super::Kept::default();
    for _ in 0..3 {
        let response = upstream
            .send(
                get(),
                crate::config::Priority::Normal,
                None,
                None,
                Some(&mut kept),
            )
            .await
            .expect("an answer");
        assert_eq!(response.status(), http::StatusCode::OK);
    }
    assert_eq!((first.requests(), second.requests()), (3, 0));

    let moved: crate::config::UpstreamAddr = second.address.parse().expect("an address");
    assert!(upstream.set.update(0, vec![moved]), "the servers changed");
    for _ in 0..2 {
        let response = upstream
            .send(
                get(),
                crate::config::Priority::Normal,
                None,
                None,
                Some(&mut kept),
            )
            .await
            .expect("an answer");
        assert_eq!(response.status(), http::StatusCode::OK);
    }
    assert_eq!(
        (first.requests(), second.requests()),
        (3, 2),
        "the connection's next requests went to the new set"
    );
}

/// Two names of one group resolving at once: each change is built into the set under the same
/// lock that records it, so the stored set never misses the other name's latest addresses (a
/// set built from a stale list and stored last would lose one name's change until its
/// addresses changed again).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_names_resolving_at_once_lose_neither_change() {
    const ROUNDS: u16 = 300;
    let config = crate::config::from_toml(
        "[server]\nresolve_interval = \"1h\"\n\
         [upstreams.app]\nservers = [\"localhost:8000\", \"localhost:8001\"]\n",
        None,
    )
    .expect("config");
    let upstream =
        std::sync::Arc::new(super::Upstream::new("app", &config.upstreams["app"], false));
    // The names' own first resolutions end before the rounds (the next is an hour away).
    while !upstream
        .set
        .all_attempted
        .load(std::sync::atomic::Ordering::Acquire)
    {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    let barrier = std::sync::Arc::new(std::sync::Barrier::new(3));
    let resolvers: Vec<_> = (0..2u16)
        .map(|name| {
            let (upstream, barrier) = (upstream.clone(), barrier.clone());
            let runtime = tokio::runtime::Handle::current();
            std::thread::spawn(move || {
                let _entered = runtime.enter();
                for round in 0..ROUNDS {
                    let addr: crate::config::UpstreamAddr =
                        format!("127.0.{name}.1:{}", 1000 + round)
                            .parse()
                            .expect("an address");
                    barrier.wait();
                    super::resolve::Follower::update(&*upstream.set, usize::from(name), vec![addr]);
                    barrier.wait();
                }
            })
        })
        .collect();
    let checker = {
        let upstream = upstream.clone();
        std::thread::spawn(move || {
            let mut lost = 0;
            for round in 0..ROUNDS {
                barrier.wait();
                barrier.wait();
                let mut stored: Vec<String> = upstream
                    .set
                    .current
                    .load()
                    .pools
                    .iter()
                    .map(|pool| pool.addr().to_string())
                    .collect();
                stored.sort();
                let wanted = vec![
                    format!("127.0.0.1:{}", 1000 + round),
                    format!("127.0.1.1:{}", 1000 + round),
                ];
                if stored != wanted {
                    lost += 1;
                }
            }
            lost
        })
    };
    for resolver in resolvers {
        resolver.join().expect("a resolver");
    }
    let lost = checker.join().expect("the checker");
    assert_eq!(lost, 0, "rounds whose stored set missed a name's change");
}

/// The port of a test upstream's `IP:PORT` address, for a config that names it by host name.
fn port_of(address: &str) -> &str {
    address
        .rsplit_once(':')
        .map(|(_, port)| port)
        .expect("an IP:PORT address")
}

/// The connect errors a request with a declared capacity waits out, its place held: nothing
/// listens at the address (refused; a Unix socket's file gone), or nothing is there any more
/// (host unreachable: a Compose container's old address once it is gone, until its name moves).
/// Any other error is answered as it comes.
#[test]
fn a_request_waits_out_only_the_errors_of_an_app_away() {
    use std::io::{Error, ErrorKind};
    let connect = |kind: ErrorKind| crate::error::ProxyError::Connect {
        addr: crate::config::UpstreamAddr::Tcp(([127, 0, 0, 1], 8000).into()),
        source: Error::from(kind),
    };
    for kind in [
        ErrorKind::ConnectionRefused,
        ErrorKind::NotFound,
        ErrorKind::HostUnreachable,
    ] {
        assert!(super::not_listening(&connect(kind)), "{kind:?}");
    }
    for kind in [
        ErrorKind::NetworkUnreachable,
        ErrorKind::PermissionDenied,
        ErrorKind::AddrNotAvailable,
    ] {
        assert!(!super::not_listening(&connect(kind)), "{kind:?}");
    }
    let timeout = crate::error::ProxyError::ConnectTimeout {
        addr: crate::config::UpstreamAddr::Tcp(([127, 0, 0, 1], 8000).into()),
    };
    assert!(!super::not_listening(&timeout));
}
