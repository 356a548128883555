//! Unit tests of the rate limiter. Memory cases run on tokio's paused clock and port the cases of
//! nginx-tests (limit_req*.t), governor and redis-cell listed in the research note; Redis cases
//! run against a real `redis-server` from the testkit, on the real clock (a paused clock would
//! fire the per-call timeout while the runtime waits on the socket).

use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;

use proptest::prelude::*;
use tokio::time::{advance, Instant};
use weir_testkit::redis::RedisServer;

use super::gcra::Gcra;
use super::{client_ip_key, Decision, KeyHasher, LimitStats, Limiter, Limiters, Outcome};
use crate::config::{Delay, LimitBackend, LimiterConfig, OnRedisError, Rate, RedisLimitConfig};

const SECOND: Duration = Duration::from_secs(1);
const MINUTE: Duration = Duration::from_secs(60);

fn rate(count: u64, per: Duration) -> Rate {
    Rate { count, per }
}

fn limit(rate: Rate, burst: u32, delay: Delay) -> LimiterConfig {
    LimiterConfig {
        rate,
        burst,
        delay,
        dry_run: false,
        max_keys: 100_000,
        nginx_rounding: false,
        backend: LimitBackend::Memory,
    }
}

fn limiter(config: &LimiterConfig) -> Arc<Limiter> {
    Arc::new(Limiter::new("test", config).expect("a valid limit"))
}

fn set(configs: &[LimiterConfig]) -> Limiters {
    Limiters::new(configs.iter().map(limiter).collect())
}

/// Checks a set of memory limits, which always answer without awaiting.
fn check(limiters: &Limiters, keys: &[&[u8]]) -> Decision {
    limiters
        .try_check(keys)
        .expect("memory limits answer synchronously")
}

fn outcomes(limiters: &Limiters, key: &[u8], count: usize) -> Vec<Outcome> {
    (0..count)
        .map(|_| check(limiters, &[key]).outcome)
        .collect()
}

fn stats(limiters: &Limiters, index: usize) -> LimitStats {
    limiters.get(index).expect("a limit at this index").stats()
}

// nginx-tests limit_req.t

#[tokio::test(start_paused = true)]
async fn limit_req_burst_1_nodelay_passes_two_then_rejects() {
    let limiters = set(&[limit(rate(2, SECOND), 1, Delay::NoDelay)]);
    assert_eq!(
        outcomes(&limiters, b"10.0.0.1", 3),
        [Outcome::Passed, Outcome::Passed, Outcome::Rejected]
    );
    assert_eq!(stats(&limiters, 0).passed, 2);
    assert_eq!(stats(&limiters, 0).rejected, 1);
}

#[tokio::test(start_paused = true)]
async fn limit_req_rejected_requests_are_not_counted() {
    let limiters = set(&[limit(rate(2, SECOND), 0, Delay::NoDelay)]);
    assert_eq!(check(&limiters, &[b"a"]).outcome, Outcome::Passed);
    // A flood of rejections in between must not push the next admission further away.
    for _ in 0..50 {
        advance(Duration::from_millis(9)).await;
        assert!(check(&limiters, &[b"a"]).is_rejected());
    }
    advance(Duration::from_millis(50)).await;
    assert_eq!(check(&limiters, &[b"a"]).outcome, Outcome::Passed);
}

#[tokio::test(start_paused = true)]
async fn limit_req_negative_excess_is_clamped_after_idle() {
    let limiters = set(&[limit(rate(1000, SECOND), 1, Delay::NoDelay)]);
    assert_eq!(
        outcomes(&limiters, b"a", 3),
        [Outcome::Passed, Outcome::Passed, Outcome::Rejected]
    );
    advance(Duration::from_millis(100)).await;
    // Idle time earns no more than the burst: exactly burst + 1 again.
    assert_eq!(
        outcomes(&limiters, b"a", 3),
        [Outcome::Passed, Outcome::Passed, Outcome::Rejected]
    );
}

#[tokio::test(start_paused = true)]
async fn limit_req_first_request_of_a_new_key_passes_even_at_burst_0() {
    let limiters = set(&[limit(rate(1, MINUTE), 0, Delay::After(0))]);
    for key in [&b"a"[..], b"b", b"c"] {
        assert_eq!(check(&limiters, &[key]).outcome, Outcome::Passed);
        assert!(check(&limiters, &[key]).is_rejected());
    }
}

// nginx-tests limit_req2.t: two limits, `1r/m` keyed on one argument and `1000r/s` on another.

fn limit_req2(delay: Delay) -> Limiters {
    set(&[
        limit(rate(1, MINUTE), 0, delay),
        limit(rate(1000, SECOND), 0, delay),
    ])
}

async fn limit_req2_case(delay: Delay) {
    let limiters = limit_req2(delay);
    // Each limit alone, with the other's key empty.
    assert_eq!(check(&limiters, &[b"1", b""]).outcome, Outcome::Passed);
    assert!(check(&limiters, &[b"1", b""]).is_rejected());
    assert_eq!(check(&limiters, &[b"", b"1"]).outcome, Outcome::Passed);
    assert!(check(&limiters, &[b"", b"1"]).is_rejected());
    advance(Duration::from_millis(1)).await;
    assert_eq!(check(&limiters, &[b"", b"1"]).outcome, Outcome::Passed);
    // Both together: rejected when either is over.
    assert_eq!(check(&limiters, &[b"2", b"2"]).outcome, Outcome::Passed);
    let both = check(&limiters, &[b"2", b"3"]);
    assert!(both.is_rejected());
    assert_eq!(both.limit, Some(0));
    advance(Duration::from_millis(1)).await;
    let second = check(&limiters, &[b"3", b"2"]);
    assert_eq!(second.outcome, Outcome::Passed);
    // An empty key is never limited.
    for _ in 0..100 {
        let decision = check(&limiters, &[b"", b""]);
        assert_eq!(decision.outcome, Outcome::Passed);
        assert_eq!(decision.limit, None);
    }
}

#[tokio::test(start_paused = true)]
async fn limit_req2_two_limits_independent_keys() {
    limit_req2_case(Delay::After(0)).await;
}

#[tokio::test(start_paused = true)]
async fn limit_req2_two_limits_independent_keys_nodelay() {
    limit_req2_case(Delay::NoDelay).await;
}

// nginx-tests limit_req_delay.t

#[tokio::test(start_paused = true)]
async fn limit_req_delay_second_not_delayed_third_delayed_fourth_rejected() {
    let limiters = set(&[limit(rate(30, MINUTE), 2, Delay::After(1))]);
    assert_eq!(
        outcomes(&limiters, b"a", 4),
        [
            Outcome::Passed,
            Outcome::Passed,
            Outcome::Delayed(Duration::from_secs(2)),
            Outcome::Rejected
        ]
    );
    let stats = stats(&limiters, 0);
    assert_eq!((stats.passed, stats.delayed, stats.rejected), (2, 1, 1));
}

#[tokio::test(start_paused = true)]
async fn a_delayed_client_that_leaves_gives_its_place_back() {
    let limiters = set(&[limit(rate(30, MINUTE), 2, Delay::After(1))]);
    check(&limiters, &[b"a"]);
    check(&limiters, &[b"a"]);
    let delayed = check(&limiters, &[b"a"]);
    assert_eq!(delayed.outcome, Outcome::Delayed(Duration::from_secs(2)));
    // Its client disconnects during the delay: the next request takes its place.
    limiters.refund(&[b"a"]);
    assert_eq!(
        check(&limiters, &[b"a"]).outcome,
        Outcome::Delayed(Duration::from_secs(2))
    );
    assert!(check(&limiters, &[b"a"]).is_rejected());
}

#[tokio::test(start_paused = true)]
async fn delay_0_delays_every_excess_request_by_its_place_in_line() {
    let limiters = set(&[limit(rate(10, SECOND), 3, Delay::After(0))]);
    let delays: Vec<_> = (0..5).map(|_| check(&limiters, &[b"a"]).outcome).collect();
    assert_eq!(
        delays,
        [
            Outcome::Passed,
            Outcome::Delayed(Duration::from_millis(100)),
            Outcome::Delayed(Duration::from_millis(200)),
            Outcome::Delayed(Duration::from_millis(300)),
            Outcome::Rejected,
        ]
    );
}

// nginx-tests limit_req_dry_run.t

#[tokio::test(start_paused = true)]
async fn limit_req_dry_run_passes_everything_and_counts() {
    let mut config = limit(rate(30, MINUTE), 1, Delay::After(0));
    config.dry_run = true;
    let limiters = set(&[config.clone()]);
    let decisions: Vec<_> = (0..3).map(|_| check(&limiters, &[b"a"])).collect();
    assert_eq!(
        decisions
            .iter()
            .map(|d| d.outcome.as_str())
            .collect::<Vec<_>>(),
        ["PASSED", "DELAYED_DRY_RUN", "REJECTED_DRY_RUN"]
    );
    assert!(decisions
        .iter()
        .all(|d| !d.is_rejected() && d.delay().is_none()));
    assert!(decisions[2].retry_after.is_some());
    let stats = stats(&limiters, 0);
    assert_eq!((stats.passed, stats.dry_run, stats.rejected), (1, 2, 0));

    config.dry_run = false;
    let limiters = set(&[config]);
    assert_eq!(
        outcomes(&limiters, b"a", 3)
            .iter()
            .map(Outcome::as_str)
            .collect::<Vec<_>>(),
        ["PASSED", "DELAYED", "REJECTED"]
    );
}

#[tokio::test(start_paused = true)]
async fn a_dry_run_limit_neither_blocks_nor_is_blocked_by_others() {
    let mut shadow = limit(rate(1, MINUTE), 0, Delay::NoDelay);
    shadow.dry_run = true;
    let real = limit(rate(1, MINUTE), 2, Delay::NoDelay);
    let limiters = set(&[shadow, real]);
    assert_eq!(check(&limiters, &[b"k", b"k"]).outcome, Outcome::Passed);
    assert_eq!(
        check(&limiters, &[b"k", b"k"]).outcome,
        Outcome::RejectedDryRun
    );
    assert_eq!(
        check(&limiters, &[b"k", b"k"]).outcome,
        Outcome::RejectedDryRun
    );
    let real_rejects = check(&limiters, &[b"k", b"k"]);
    assert_eq!(real_rejects.outcome, Outcome::Rejected);
    assert_eq!(real_rejects.limit, Some(1));
}

// governor's cases (tests/direct.rs, keyed_dashmap.rs).

#[tokio::test(start_paused = true)]
async fn governor_rejects_too_many() {
    // Quota::per_second(2) is nginx `rate=2r/s burst=1 nodelay`.
    let limiters = set(&[limit(rate(2, SECOND), 1, Delay::NoDelay)]);
    assert_eq!(
        outcomes(&limiters, b"a", 3),
        [Outcome::Passed, Outcome::Passed, Outcome::Rejected]
    );
    advance(SECOND).await;
    assert_eq!(check(&limiters, &[b"a"]).outcome, Outcome::Passed);
}

#[tokio::test(start_paused = true)]
async fn governor_does_not_allow_one_extra_cell_after_longer_interval() {
    let limiters = set(&[limit(rate(5, SECOND), 4, Delay::NoDelay)]);
    assert_eq!(check(&limiters, &[b"a"]).outcome, Outcome::Passed);
    advance(Duration::from_secs(2)).await;
    let passed = outcomes(&limiters, b"a", 10)
        .iter()
        .take_while(|outcome| **outcome == Outcome::Passed)
        .count();
    assert_eq!(passed, 5);
}

#[test]
fn governor_twenty_concurrent_threads_pass_on_twenty_and_the_21st_is_rejected() {
    // governor's `actual_threadsafety` uses 20/s; threads run on the real clock, so the period is
    // a minute here to keep refills out of the test. The capacity, 20, is the same.
    let limiters = set(&[limit(rate(20, MINUTE), 19, Delay::NoDelay)]);
    let barrier = std::sync::Barrier::new(20);
    let passed = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..20)
            .map(|_| {
                scope.spawn(|| {
                    barrier.wait();
                    check(&limiters, &[b"shared"]).outcome == Outcome::Passed
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|handle| handle.join().expect("a checking thread"))
            .filter(|passed| *passed)
            .count()
    });
    assert_eq!(passed, 20);
    assert!(check(&limiters, &[b"shared"]).is_rejected());
}

/// Threads read the clock before they take the key's lock, so they may take it in the other
/// order: a request whose clock reading is a little older than the last decision's must still get
/// the place that is free, on the one-limit path and on the several-limits path alike.
#[test]
fn a_clock_read_before_the_last_decision_still_gets_a_free_place() {
    for limits in [1, 2] {
        let configs = vec![limit(rate(20, MINUTE), 19, Delay::NoDelay); limits];
        let limiters = set(&configs);
        let keys: Vec<&[u8]> = (0..limits).map(|_| b"k".as_slice()).collect();
        let earlier = tokio::time::Instant::now();
        let later = earlier + Duration::from_millis(1);
        for request in 0..19 {
            let decision = limiters.try_check_at(&keys, later).expect("memory");
            assert_eq!(
                decision.outcome,
                Outcome::Passed,
                "{limits} limits, request {request}"
            );
        }
        let twentieth = limiters.try_check_at(&keys, earlier).expect("memory");
        assert_eq!(
            twentieth.outcome,
            Outcome::Passed,
            "{limits} limits: the 20th place"
        );
        assert!(limiters
            .try_check_at(&keys, later)
            .expect("memory")
            .is_rejected());
    }
}

#[test]
fn a_thousand_concurrent_checks_on_one_key_admit_exactly_burst_plus_one() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(4)
        .build()
        .expect("a runtime");
    let limiters = Arc::new(set(&[limit(rate(1, MINUTE), 9, Delay::NoDelay)]));
    let passed = runtime.block_on(async {
        let barrier = Arc::new(tokio::sync::Barrier::new(1000));
        let tasks: Vec<_> = (0..1000)
            .map(|_| {
                let limiters = Arc::clone(&limiters);
                let barrier = Arc::clone(&barrier);
                tokio::spawn(async move {
                    barrier.wait().await;
                    limiters.check(&[b"one key"]).await.outcome == Outcome::Passed
                })
            })
            .collect();
        let mut passed = 0;
        for task in tasks {
            passed += usize::from(task.await.expect("a check task"));
        }
        passed
    });
    assert_eq!(passed, 10);
    let stats = stats(&limiters, 0);
    assert_eq!((stats.passed, stats.rejected), (10, 990));
}

// governor's `accurate_not_until` as a property: a rejected request is still rejected just before
// the retry_after it was given, and admitted exactly at it.

proptest! {
    #[test]
    fn retry_after_is_exact(
        count in 1u64..2000,
        per_minute in any::<bool>(),
        nginx_rounding in any::<bool>(),
        burst in 0u32..20,
        gaps in proptest::collection::vec(0u64..200_000_000, 1..60),
    ) {
        let mut config = limit(rate(count, if per_minute { MINUTE } else { SECOND }), burst, Delay::NoDelay);
        config.nginx_rounding = nginx_rounding;
        let limiters = set(&[config]);
        let mut now = Instant::now();
        for gap in gaps {
            now += Duration::from_nanos(gap);
            let decision = limiters.try_check_at(&[b"k"], now).expect("memory");
            if let Some(retry_after) = decision.retry_after {
                prop_assert!(decision.is_rejected());
                prop_assert!(retry_after > Duration::ZERO);
                let just_before = now + retry_after - Duration::from_nanos(1);
                prop_assert!(limiters.try_check_at(&[b"k"], just_before).expect("memory").is_rejected());
                now += retry_after;
                let at = limiters.try_check_at(&[b"k"], now).expect("memory");
                prop_assert_eq!(at.outcome, Outcome::Passed);
            } else {
                prop_assert_eq!(decision.outcome, Outcome::Passed);
            }
        }
    }
}

// redis-cell's `it_rate_limits`: limit 5 at 1/s, with costs 6, 1, 0 (peek), 2 and 5, driven
// through the same GCRA arithmetic as the tables. `None` stands for redis-cell's -1.

#[test]
fn redis_cell_timing_table() {
    let gcra = Gcra::new(1_000_000_000, 5, None);
    let ms = |value: u64| value * 1_000_000;
    #[rustfmt::skip]
    let cases: [(u64, u64, u64, u64, Option<u64>, bool); 15] = [
        // (now ms, cost, remaining, reset_after ms, retry_after ms, limited)
        (0, 6, 5, 0, None, true),
        (0, 1, 4, 1000, None, false),
        (0, 1, 3, 2000, None, false),
        (0, 1, 2, 3000, None, false),
        (0, 1, 1, 4000, None, false),
        (0, 1, 0, 5000, None, false),
        (0, 1, 0, 5000, Some(1000), true),
        (3000, 1, 2, 3000, None, false),
        (3100, 1, 1, 3900, None, false),
        (4000, 1, 1, 4000, None, false),
        (8000, 1, 4, 1000, None, false),
        (9500, 1, 4, 1000, None, false),
        (9500, 0, 4, 1000, None, false),
        (9500, 2, 2, 3000, None, false),
        (9500, 5, 2, 3000, Some(3000), true),
    ];
    let mut tat = 0u64;
    for (number, (now, cost, remaining, reset_after, retry_after, limited)) in
        cases.into_iter().enumerate()
    {
        let now = ms(now);
        let verdict = gcra.decide(tat.saturating_sub(now), cost);
        if verdict.allowed && cost > 0 {
            tat = now + verdict.ahead;
        }
        let retry =
            (!verdict.allowed && verdict.retry_after != u64::MAX).then_some(verdict.retry_after);
        assert_eq!(!verdict.allowed, limited, "case {number}");
        assert_eq!(gcra.remaining(verdict.ahead), remaining, "case {number}");
        assert_eq!(verdict.ahead, ms(reset_after), "case {number}");
        assert_eq!(retry, retry_after.map(ms), "case {number}");
    }
}

// Our additions.

#[tokio::test(start_paused = true)]
async fn one_per_minute_is_sixty_seconds_exact_and_62_5_with_nginx_rounding() {
    for (nginx_rounding, period) in [
        (false, Duration::from_secs(60)),
        (true, Duration::from_millis(62_500)),
    ] {
        let mut config = limit(rate(1, MINUTE), 0, Delay::NoDelay);
        config.nginx_rounding = nginx_rounding;
        let limiters = set(&[config]);
        assert_eq!(check(&limiters, &[b"a"]).outcome, Outcome::Passed);
        let rejected = check(&limiters, &[b"a"]);
        assert_eq!(rejected.retry_after, Some(period));
        advance(period - Duration::from_millis(1)).await;
        assert!(check(&limiters, &[b"a"]).is_rejected());
        advance(Duration::from_millis(1)).await;
        assert_eq!(check(&limiters, &[b"a"]).outcome, Outcome::Passed);
    }
}

#[tokio::test(start_paused = true)]
async fn thirty_per_minute_is_identical_with_and_without_nginx_rounding() {
    let exact = Gcra::from_config(&limit(rate(30, MINUTE), 0, Delay::NoDelay));
    let mut config = limit(rate(30, MINUTE), 0, Delay::NoDelay);
    config.nginx_rounding = true;
    assert_eq!(exact, Gcra::from_config(&config));
}

#[tokio::test(start_paused = true)]
async fn all_or_none_a_rejection_charges_no_other_limit() {
    let limiters = set(&[
        limit(rate(1, MINUTE), 0, Delay::NoDelay),
        limit(rate(1, MINUTE), 2, Delay::NoDelay),
    ]);
    let first = check(&limiters, &[b"a", b"b"]);
    assert_eq!(first.outcome, Outcome::Passed);
    // Headers describe the tighter limit: the first has nothing left.
    assert_eq!((first.limit, first.remaining), (Some(0), 0));
    let rejected = check(&limiters, &[b"a", b"b"]);
    assert!(rejected.is_rejected());
    assert_eq!(rejected.limit, Some(0));
    // The second limit was charged by the first request only: this second charge leaves one
    // of its three, where a charged rejection would have left none.
    let second_only = check(&limiters, &[b"", b"b"]);
    assert_eq!(
        (
            second_only.outcome,
            second_only.limit,
            second_only.remaining
        ),
        (Outcome::Passed, Some(1), 1)
    );
    assert_eq!(stats(&limiters, 1).rejected, 0);
    assert_eq!(stats(&limiters, 0).rejected, 1);
}

#[tokio::test(start_paused = true)]
async fn all_or_none_the_longest_delay_wins() {
    let limiters = set(&[
        limit(rate(60, MINUTE), 5, Delay::After(0)),
        limit(rate(30, MINUTE), 5, Delay::After(0)),
        limit(rate(600, MINUTE), 5, Delay::NoDelay),
    ]);
    assert_eq!(
        check(&limiters, &[b"a", b"a", b"a"]).outcome,
        Outcome::Passed
    );
    let delayed = check(&limiters, &[b"a", b"a", b"a"]);
    assert_eq!(delayed.outcome, Outcome::Delayed(Duration::from_secs(2)));
    assert_eq!(delayed.limit, Some(1));
}

#[tokio::test(start_paused = true)]
async fn a_rejection_reports_the_longest_retry_after() {
    let limiters = set(&[
        limit(rate(1, SECOND), 0, Delay::NoDelay),
        limit(rate(1, MINUTE), 0, Delay::NoDelay),
    ]);
    check(&limiters, &[b"a", b"a"]);
    let rejected = check(&limiters, &[b"a", b"a"]);
    assert_eq!(rejected.limit, Some(1));
    assert_eq!(rejected.retry_after, Some(MINUTE));
}

#[tokio::test(start_paused = true)]
async fn decision_numbers_match_the_draft_10_headers() {
    let limiters = set(&[limit(rate(10, SECOND), 4, Delay::NoDelay)]);
    let first = check(&limiters, &[b"a"]);
    assert_eq!(
        first,
        Decision {
            outcome: Outcome::Passed,
            limit: Some(0),
            quota: 5,
            window: Duration::from_millis(500),
            remaining: 4,
            replenish_after: Duration::from_millis(100),
            reset_after: Duration::from_millis(100),
            retry_after: None,
        }
    );
    for _ in 0..4 {
        check(&limiters, &[b"a"]);
    }
    advance(Duration::from_millis(30)).await;
    let rejected = check(&limiters, &[b"a"]);
    assert_eq!(rejected.outcome, Outcome::Rejected);
    assert_eq!(rejected.remaining, 0);
    assert_eq!(rejected.retry_after, Some(Duration::from_millis(70)));
    assert_eq!(rejected.replenish_after, Duration::from_millis(70));
    assert_eq!(rejected.reset_after, Duration::from_millis(470));
}

#[tokio::test(start_paused = true)]
async fn a_million_distinct_keys_keep_the_table_at_its_cap() {
    let mut config = limit(rate(1, MINUTE), 1_000_000, Delay::NoDelay);
    config.max_keys = 100_000;
    let limiters = set(&[config]);
    let mut hot_hits = 0u64;
    for client in 0u32..1_000_000 {
        let decision = check(&limiters, &[&client.to_be_bytes()]);
        assert_eq!(decision.outcome, Outcome::Passed);
        // A client that keeps coming back keeps its state through the flood (CLOCK's second
        // chance), so its remaining quota keeps going down.
        if client % 100 == 0 {
            hot_hits += 1;
            let hot = check(&limiters, &[b"hot client"]);
            assert_eq!(hot.remaining, 1_000_001 - hot_hits, "after {client} keys");
        }
    }
    let limiter = limiters.get(0).expect("one limit");
    assert_eq!(limiter.stats().keys, 100_000);
    let bytes_per_key = limiter.memory_bytes() as f64 / 100_000.0;
    eprintln!("memory table: {bytes_per_key:.1} heap bytes per key at the cap");
    assert!(bytes_per_key < 48.0, "{bytes_per_key} bytes per key");
}

#[tokio::test(start_paused = true)]
async fn idle_keys_are_reused_and_reclaimed() {
    let mut config = limit(rate(10, SECOND), 0, Delay::NoDelay);
    // The cap is split over shards, so headroom keeps all 1000 keys whatever their hashes.
    config.max_keys = 10_000;
    let limiters = set(&[config]);
    for client in 0u32..1000 {
        check(&limiters, &[&client.to_be_bytes()]);
    }
    let limiter = limiters.get(0).expect("one limit");
    assert_eq!(limiter.stats().keys, 1000);
    let full = limiter.memory_bytes();
    advance(Duration::from_millis(100)).await;
    assert_eq!(limiter.reclaim_idle(), 1000);
    assert_eq!(limiter.stats().keys, 0);
    assert!(limiter.memory_bytes() < full);
    // Reclaimed keys start over as new keys.
    assert_eq!(check(&limiters, &[b"\0\0\0\x07"]).outcome, Outcome::Passed);
    assert!(check(&limiters, &[b"\0\0\0\x07"]).is_rejected());
}

#[tokio::test(start_paused = true)]
async fn a_full_table_evicts_instead_of_growing_and_long_keys_work() {
    let mut config = limit(rate(1, MINUTE), 0, Delay::NoDelay);
    config.max_keys = 10;
    let limiters = set(&[config]);
    let long_key = vec![b'x'; 300];
    assert_eq!(check(&limiters, &[&long_key]).outcome, Outcome::Passed);
    assert!(check(&limiters, &[&long_key]).is_rejected());
    for client in 0u32..100 {
        check(&limiters, &[&client.to_be_bytes()]);
    }
    assert_eq!(limiters.get(0).expect("one limit").stats().keys, 10);
}

/// A key is stored as a 128-bit hash: a hundred 32 KiB header keys cost exactly what a hundred
/// 4-byte addresses cost, and each still has its own state. (Under 128 keys the table is one
/// shard, so both tables grow alike whatever the hashes.)
#[tokio::test(start_paused = true)]
async fn a_key_costs_the_same_whatever_its_length() {
    let mut config = limit(rate(1, MINUTE), 0, Delay::NoDelay);
    config.max_keys = 100;
    let short = set(std::slice::from_ref(&config));
    let long = set(&[config]);
    for client in 0u32..100 {
        let address = client.to_be_bytes();
        let mut header = vec![b'k'; 32 * 1024];
        header[..4].copy_from_slice(&address);
        assert_eq!(check(&short, &[&address]).outcome, Outcome::Passed);
        assert_eq!(check(&long, &[&header]).outcome, Outcome::Passed);
        assert!(check(&long, &[&header]).is_rejected());
    }
    let short = short.get(0).expect("one limit");
    let long = long.get(0).expect("one limit");
    assert_eq!(short.stats().keys, 100);
    assert_eq!(long.stats().keys, 100);
    assert_eq!(long.memory_bytes(), short.memory_bytes());
}

#[test]
fn client_ip_keys_cut_ipv6_to_the_prefix_and_keep_ipv4_whole() {
    let ip = |text: &str| text.parse::<IpAddr>().expect("a test address");
    assert_eq!(
        client_ip_key(ip("2001:db8:1:2:aaaa::1"), 64),
        ip("2001:db8:1:2::")
    );
    assert_eq!(
        client_ip_key(ip("2001:db8:1:2:aaaa::1"), 64),
        client_ip_key(ip("2001:db8:1:2:ffff:ffff:ffff:ffff"), 64)
    );
    assert_ne!(
        client_ip_key(ip("2001:db8:1:2::1"), 64),
        client_ip_key(ip("2001:db8:1:3::1"), 64)
    );
    assert_eq!(client_ip_key(ip("2001:db8:1:2::1"), 48), ip("2001:db8:1::"));
    assert_eq!(client_ip_key(ip("2001:db8::1"), 128), ip("2001:db8::1"));
    assert_eq!(client_ip_key(ip("ffff::1"), 1), ip("8000::"));
    assert_eq!(client_ip_key(ip("192.0.2.7"), 64), ip("192.0.2.7"));
    // A dual-stack listener's IPv4 clients stay apart, not one /64 of ::ffff:0:0/96.
    assert_eq!(client_ip_key(ip("::ffff:192.0.2.7"), 64), ip("192.0.2.7"));
    assert_ne!(
        client_ip_key(ip("::ffff:192.0.2.7"), 64),
        client_ip_key(ip("::ffff:192.0.2.8"), 64)
    );
}

/// Redis limits derive their hash key from the config, so two instances with the same config
/// write the same Redis key for a client; memory limits share the process's random key.
#[test]
fn redis_hash_keys_come_from_the_config() {
    let url = "redis://127.0.0.1:6379/0";
    let key = b"203.0.113.7";
    let same = KeyHasher::derived("per_ip", url).hash(key);
    assert_eq!(KeyHasher::derived("per_ip", url).hash(key), same);
    assert_ne!(KeyHasher::derived("per_key", url).hash(key), same);
    assert_ne!(
        KeyHasher::derived("per_ip", "redis://:secret@127.0.0.1:6379/0").hash(key),
        same
    );
    assert_ne!(KeyHasher::per_process().hash(key), same);
    assert_eq!(
        KeyHasher::per_process().hash(key),
        KeyHasher::per_process().hash(key)
    );
    assert_eq!(same.as_bytes().len(), 16);
}

// Both backends: the same cases against memory and a real redis-server. Rates are per minute so
// the real clock cannot refill during a case.

fn redis_limit(
    server: &RedisServer,
    config: &LimiterConfig,
    on_error: OnRedisError,
) -> LimiterConfig {
    let mut config = config.clone();
    config.backend = LimitBackend::Redis(RedisLimitConfig {
        url: server.url(),
        timeout: Duration::from_millis(200),
        on_error,
    });
    config
}

fn start_redis() -> RedisServer {
    RedisServer::start().expect("redis-server (install the Debian package redis-server)")
}

/// A limit set on one backend, named uniquely so that Redis keys never collide between cases.
fn on_backend(redis: Option<&RedisServer>, configs: &[LimiterConfig]) -> Limiters {
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    Limiters::new(
        configs
            .iter()
            .map(|config| {
                let config = match redis {
                    Some(server) => redis_limit(server, config, OnRedisError::Deny),
                    None => config.clone(),
                };
                let name = format!(
                    "case{}",
                    NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
                );
                Arc::new(Limiter::new(&name, &config).expect("a valid limit"))
            })
            .collect(),
    )
}

macro_rules! on_both_backends {
    ($($name:ident($redis:ident) $body:block)*) => {
        mod both_backends {
            use super::*;
            $(
                #[tokio::test]
                async fn $name() {
                    {
                        let $redis: Option<&RedisServer> = None;
                        $body
                    }
                    {
                        let server = start_redis();
                        let $redis = Some(&server);
                        $body
                    }
                }
            )*
        }
    };
}

on_both_backends! {
    burst_admits_burst_plus_one_and_rejections_cost_nothing(redis) {
        let limiters = on_backend(redis, &[limit(rate(1, MINUTE), 3, Delay::NoDelay)]);
        let mut outcomes = Vec::new();
        for _ in 0..10 {
            outcomes.push(limiters.check(&[b"k"]).await.outcome);
        }
        assert_eq!(outcomes.iter().filter(|o| **o == Outcome::Passed).count(), 4);
        assert!(outcomes[4..].iter().all(|o| *o == Outcome::Rejected));
        let rejected = limiters.check(&[b"k"]).await;
        let retry_after = rejected.retry_after.expect("a rejection has a retry_after");
        assert!(retry_after > Duration::from_secs(59) && retry_after <= MINUTE, "{retry_after:?}");
        assert_eq!(rejected.remaining, 0);
    }

    an_empty_key_is_never_limited(redis) {
        let limiters = on_backend(redis, &[limit(rate(1, MINUTE), 0, Delay::NoDelay)]);
        for _ in 0..20 {
            let decision = limiters.check(&[b""]).await;
            assert_eq!((decision.outcome, decision.limit), (Outcome::Passed, None));
        }
    }

    delays_follow_nginx_two_stage_limiting(redis) {
        let limiters = on_backend(redis, &[limit(rate(30, MINUTE), 2, Delay::After(1))]);
        let mut outcomes = Vec::new();
        for _ in 0..4 {
            outcomes.push(limiters.check(&[b"k"]).await.outcome);
        }
        assert_eq!(outcomes[..2], [Outcome::Passed, Outcome::Passed]);
        let Outcome::Delayed(delay) = outcomes[2] else {
            panic!("third request not delayed: {outcomes:?}");
        };
        assert!(delay > Duration::from_millis(1900) && delay <= Duration::from_secs(2), "{delay:?}");
        assert_eq!(outcomes[3], Outcome::Rejected);
    }

    all_or_none_with_a_memory_limit_in_front(redis) {
        // The route's first limit is always in memory; the second is on the backend under test.
        let memory = set(&[limit(rate(1, MINUTE), 0, Delay::NoDelay)]);
        let backend = on_backend(redis, &[limit(rate(1, MINUTE), 2, Delay::NoDelay)]);
        let limiters = Limiters::new(vec![
            Arc::clone(memory.get(0).expect("memory limit")),
            Arc::clone(backend.get(0).expect("backend limit")),
        ]);
        assert_eq!(limiters.check(&[b"ip", b"k"]).await.outcome, Outcome::Passed);
        for _ in 0..5 {
            assert!(limiters.check(&[b"ip", b"k"]).await.is_rejected());
        }
        // Five rejections by the memory limit charged the backend nothing, and cost no round trip.
        assert_eq!(limiters.get(1).expect("backend").stats().redis_calls, u64::from(redis.is_some()));
        let second_only = limiters.check(&[b"", b"k"]).await;
        assert_eq!((second_only.outcome, second_only.remaining), (Outcome::Passed, 1));
    }
}

// Redis only.

#[tokio::test]
async fn a_single_key_flood_costs_under_one_redis_call_per_100_rejections() {
    let server = start_redis();
    let limiters = on_backend(Some(&server), &[limit(rate(1, MINUTE), 1, Delay::NoDelay)]);
    let mut rejected = 0u64;
    for _ in 0..10_000 {
        if limiters.check(&[b"flood"]).await.is_rejected() {
            rejected += 1;
        }
    }
    let calls = limiters.get(0).expect("one limit").stats().redis_calls;
    assert_eq!(rejected, 9_998);
    assert!(
        calls * 100 < rejected,
        "{calls} redis calls for {rejected} rejections"
    );
    // Rejections from the cache are answered without awaiting.
    let cached = limiters
        .try_check(&[b"flood"])
        .expect("answered from the blocked cache");
    assert!(cached.is_rejected());
    assert!(cached.retry_after.expect("retry_after") > Duration::from_secs(50));
}

#[tokio::test]
async fn two_limiters_sharing_one_redis_enforce_one_combined_limit() {
    let server = start_redis();
    let config = redis_limit(
        &server,
        &limit(rate(1, MINUTE), 9, Delay::NoDelay),
        OnRedisError::Deny,
    );
    // Two instances, as two weir processes would build them from the same file.
    let first = Limiters::new(vec![Arc::new(
        Limiter::new("shared", &config).expect("limit"),
    )]);
    let second = Limiters::new(vec![Arc::new(
        Limiter::new("shared", &config).expect("limit"),
    )]);
    let mut passed = 0;
    for round in 0..20 {
        let limiters = if round % 2 == 0 { &first } else { &second };
        passed += usize::from(limiters.check(&[b"client"]).await.outcome == Outcome::Passed);
    }
    assert_eq!(passed, 10);
}

#[tokio::test]
async fn a_unix_socket_url_works() {
    let server = start_redis();
    let mut config = redis_limit(
        &server,
        &limit(rate(1, MINUTE), 0, Delay::NoDelay),
        OnRedisError::Deny,
    );
    if let LimitBackend::Redis(redis) = &mut config.backend {
        redis.url = server.unix_url();
    }
    let limiters = Limiters::new(vec![Arc::new(
        Limiter::new("unix", &config).expect("limit"),
    )]);
    assert_eq!(limiters.check(&[b"k"]).await.outcome, Outcome::Passed);
    assert!(limiters.check(&[b"k"]).await.is_rejected());
    assert_eq!(limiters.get(0).expect("limit").stats().redis_errors, 0);
}

#[test]
fn an_invalid_redis_url_is_a_construction_error() {
    let mut config = limit(rate(1, MINUTE), 0, Delay::NoDelay);
    config.backend = LimitBackend::Redis(RedisLimitConfig {
        url: "http://example.invalid/".to_string(),
        timeout: Duration::from_millis(50),
        on_error: OnRedisError::Allow,
    });
    let error = Limiter::new("bad", &config).expect_err("not a redis URL");
    assert!(error.to_string().contains("bad"), "{error}");
}

/// Kills redis after one admitted request, then checks the configured behaviour arrives within
/// the timeout (plus scheduling slack) and never hangs.
async fn after_redis_dies(on_error: OnRedisError) -> Vec<Outcome> {
    let mut server = start_redis();
    let config = redis_limit(
        &server,
        &limit(rate(1, MINUTE), 2, Delay::NoDelay),
        on_error,
    );
    let limiters = Limiters::new(vec![Arc::new(
        Limiter::new("dies", &config).expect("limit"),
    )]);
    assert_eq!(limiters.check(&[b"k"]).await.outcome, Outcome::Passed);
    server.kill();
    let mut outcomes = Vec::new();
    for _ in 0..5 {
        let started = std::time::Instant::now();
        let decision = tokio::time::timeout(Duration::from_secs(5), limiters.check(&[b"k"]))
            .await
            .expect("a check never hangs when redis is gone");
        assert!(
            started.elapsed() < Duration::from_millis(200 + 800),
            "answered after {:?}",
            started.elapsed()
        );
        outcomes.push(decision.outcome);
    }
    let stats = limiters.get(0).expect("limit").stats();
    assert!(stats.redis_errors >= 1);
    // After the first failure, Redis is not asked again until the back-off ends.
    assert_eq!(stats.redis_calls, 2, "{stats:?}");
    outcomes
}

#[tokio::test]
async fn redis_down_with_allow_passes() {
    assert_eq!(
        after_redis_dies(OnRedisError::Allow).await,
        [Outcome::Passed; 5]
    );
}

#[tokio::test]
async fn redis_down_with_deny_rejects() {
    assert_eq!(
        after_redis_dies(OnRedisError::Deny).await,
        [Outcome::Rejected; 5]
    );
}

#[tokio::test]
async fn redis_down_with_local_falls_back_to_the_same_limit_in_memory() {
    // The local limiter starts empty: burst 2 admits three, then rejects.
    assert_eq!(
        after_redis_dies(OnRedisError::Local).await,
        [
            Outcome::Passed,
            Outcome::Passed,
            Outcome::Passed,
            Outcome::Rejected,
            Outcome::Rejected
        ]
    );
}

#[tokio::test]
async fn redis_that_comes_back_is_used_again() {
    let mut server = start_redis();
    let config = redis_limit(
        &server,
        &limit(rate(1, MINUTE), 0, Delay::NoDelay),
        OnRedisError::Allow,
    );
    let limiters = Limiters::new(vec![Arc::new(
        Limiter::new("back", &config).expect("limit"),
    )]);
    assert_eq!(limiters.check(&[b"k"]).await.outcome, Outcome::Passed);
    server.kill();
    assert_eq!(limiters.check(&[b"k"]).await.outcome, Outcome::Passed);
    server.restart().expect("redis restarts on its port");
    tokio::time::sleep(super::redis::RETRY_AFTER_FAILURE).await;
    // The restarted server is empty: one pass, then a rejection, both from Redis.
    let mut outcomes = Vec::new();
    for _ in 0..60 {
        outcomes.push(limiters.check(&[b"k"]).await.outcome);
        if outcomes.last() == Some(&Outcome::Rejected) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(outcomes.last(), Some(&Outcome::Rejected), "{outcomes:?}");
}

#[tokio::test]
async fn a_later_redis_rejection_refunds_an_earlier_redis_charge() {
    let server = start_redis();
    let loose = redis_limit(
        &server,
        &limit(rate(1, MINUTE), 1, Delay::NoDelay),
        OnRedisError::Deny,
    );
    let tight = redis_limit(
        &server,
        &limit(rate(1, MINUTE), 0, Delay::NoDelay),
        OnRedisError::Deny,
    );
    let limiters = Limiters::new(vec![
        Arc::new(Limiter::new("refund_loose", &loose).expect("limit")),
        Arc::new(Limiter::new("refund_tight", &tight).expect("limit")),
    ]);
    assert_eq!(limiters.check(&[b"k", b"a"]).await.outcome, Outcome::Passed);
    // The loose limit passes (charged in Redis), the tight one rejects: the charge is given back.
    assert!(limiters.check(&[b"k", b"a"]).await.is_rejected());
    tokio::time::sleep(Duration::from_millis(100)).await;
    let loose_only = limiters.check(&[b"k", b""]).await;
    assert_eq!(
        (loose_only.outcome, loose_only.remaining),
        (Outcome::Passed, 0)
    );
}
