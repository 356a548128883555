//! Admission on tokio's paused clock: the prediction is Little's law on the recorded service
//! times, a refusal carries the predicted drain time, a queue whose delay drains below the
//! target within each interval is never cut, and one whose delay stays above it for an
//! interval stands and cuts the deadline until it empties.

use std::time::Duration;

use tokio::time::Instant;

use super::*;

fn ms(millis: u64) -> Duration {
    Duration::from_millis(millis)
}

#[test]
fn nothing_is_refused_before_a_service_time_is_known() {
    let mut admission = Admission::new(4);
    assert_eq!(
        admission.admit(Instant::now(), 10_000, ms(1), Priority::Normal),
        Ok(None)
    );
}

#[test]
fn the_predicted_wait_is_place_times_service_over_capacity() {
    let mut admission = Admission::new(4);
    admission.record_service(ms(50));
    // Behind 7 waiters, the 8th: 8 × 50 ms ÷ 4.
    assert_eq!(admission.predicted_wait(7), Some(ms(100)));
    assert_eq!(
        admission.predicted_wait(0),
        Some(Duration::from_micros(12_500))
    );
}

#[test]
fn the_service_time_follows_its_samples() {
    let mut admission = Admission::new(1);
    admission.record_service(ms(100));
    for _ in 0..50 {
        admission.record_service(ms(10));
    }
    let service = admission.stats().service_us;
    assert!((10_000..10_100).contains(&service), "{service}");
}

#[tokio::test(start_paused = true)]
async fn a_wait_over_the_deadline_is_refused_with_the_drain_time() {
    let mut admission = Admission::new(4);
    admission.record_service(ms(50));
    let now = Instant::now();
    // 2 s of deadline hold 160 places (2 s × 4 ÷ 50 ms): the 160th is in, the 161st is not.
    assert_eq!(
        admission.admit(now, 159, ms(2000), Priority::Normal),
        Ok(Some(ms(2000)))
    );
    assert_eq!(
        admission.admit(now, 160, ms(2000), Priority::Normal),
        Err(Refusal {
            reason: Reason::PredictedWait,
            retry_after: Duration::from_micros(2_012_500),
        })
    );
    assert_eq!(admission.stats().refused_predicted, 1);
}

/// An admission with 4 places and 50 ms of service: a target of 1 s of queue delay (80
/// waiters) and an interval of 500 ms.
fn four_of_fifty() -> Admission {
    let mut admission = Admission::new(4);
    admission.record_service(ms(50));
    assert_eq!(admission.target(), Some(ms(1000)));
    admission
}

/// Whether a normal request behind 20 waiters (250 ms of wait, over one service time, well
/// under the 2 s deadline) is admitted: it is refused only by a standing queue.
fn admits_a_wait_of_five_services(admission: &mut Admission) -> bool {
    admission
        .admit(Instant::now(), 20, ms(2000), Priority::Normal)
        .is_ok()
}

#[tokio::test(start_paused = true)]
async fn a_queue_that_drains_within_its_interval_is_never_cut() {
    let mut admission = four_of_fifty();
    // A burst: 400 waiters, five times the target, for most of an interval...
    admission.queue_depth(Instant::now(), 400);
    tokio::time::advance(ms(450)).await;
    assert!(admits_a_wait_of_five_services(&mut admission));
    // ...then the workers bring it under the target (60 waiters, 750 ms) before the interval
    // ends, and it wanders back above for less than an interval, again and again (Poisson
    // arrivals at the app's capacity): the minimum in every interval is under the target.
    admission.queue_depth(Instant::now(), 60);
    for _ in 0..20 {
        admission.queue_depth(Instant::now(), 120);
        tokio::time::advance(ms(499)).await;
        admission.queue_depth(Instant::now(), 79);
        tokio::time::advance(ms(10)).await;
        assert!(!admission.standing(Instant::now()));
        assert!(admits_a_wait_of_five_services(&mut admission));
    }
    assert_eq!(admission.stats().refused_standing, 0);
    assert!(!admission.overstayed(Instant::now(), ms(1500)));
}

#[tokio::test(start_paused = true)]
async fn a_queue_whose_delay_stays_above_the_target_for_the_interval_is_cut() {
    let mut admission = four_of_fifty();
    // 80 waiters: 1 s of delay, the target itself, and more later: above it all along.
    admission.queue_depth(Instant::now(), 80);
    tokio::time::advance(ms(300)).await;
    admission.queue_depth(Instant::now(), 150);
    tokio::time::advance(ms(199)).await;
    assert!(
        !admission.standing(Instant::now()),
        "not for an interval yet"
    );
    tokio::time::advance(ms(1)).await;
    assert!(admission.standing(Instant::now()));
    // Standing: one service time of wait is admitted (4 places), the 5th place is not.
    assert_eq!(
        admission.admit(Instant::now(), 3, ms(2000), Priority::Normal),
        Ok(Some(ms(50)))
    );
    assert_eq!(
        admission
            .admit(Instant::now(), 4, ms(2000), Priority::Normal)
            .map_err(|refusal| refusal.reason),
        Err(Reason::StandingQueue)
    );
    // A waiter that waited over the target is to be dropped, one under it is not.
    assert!(admission.overstayed(Instant::now(), ms(1001)));
    assert!(!admission.overstayed(Instant::now(), ms(999)));
    // Once standing, it stands while it has waiters, under the target too...
    admission.queue_depth(Instant::now(), 3);
    tokio::time::advance(ms(2000)).await;
    assert!(admission.standing(Instant::now()));
    assert!(!admits_a_wait_of_five_services(&mut admission));
    // ...until it empties.
    admission.queue_depth(Instant::now(), 0);
    assert!(!admission.standing(Instant::now()));
    assert!(admits_a_wait_of_five_services(&mut admission));
    assert_eq!(admission.stats().refused_standing, 2);
}

#[tokio::test(start_paused = true)]
async fn the_target_and_the_interval_scale_with_the_service_time() {
    // 500 ms of service: a 10 s target, a 5 s interval; 4 s over the target is no interval.
    let mut admission = Admission::new(4);
    admission.record_service(ms(500));
    assert_eq!(admission.target(), Some(ms(10_000)));
    admission.queue_depth(Instant::now(), 100);
    tokio::time::advance(ms(4000)).await;
    assert!(!admission.standing(Instant::now()));
    tokio::time::advance(ms(1000)).await;
    assert!(admission.standing(Instant::now()));
    // Nothing is known before a service time: no target, never standing.
    let mut unknown = Admission::new(4);
    unknown.queue_depth(Instant::now(), 10_000);
    tokio::time::advance(ms(60_000)).await;
    assert_eq!(unknown.target(), None);
    assert!(!unknown.standing(Instant::now()));
}

#[tokio::test(start_paused = true)]
async fn a_standing_queue_sheds_normal_and_low_but_a_high_request_only_past_its_deadline() {
    let mut admission = four_of_fifty();
    admission.queue_depth(Instant::now(), 100);
    tokio::time::advance(ms(500)).await;
    let now = Instant::now();
    for class in [Priority::Normal, Priority::Low] {
        assert_eq!(
            admission
                .admit(now, 4, ms(2000), class)
                .map_err(|refusal| refusal.reason),
            Err(Reason::StandingQueue),
            "{class:?}"
        );
    }
    // 100 ms behind 7 waiters: over one service time, under the deadline.
    assert_eq!(
        admission.admit(now, 7, ms(2000), Priority::High),
        Ok(Some(ms(100)))
    );
    assert_eq!(
        admission
            .admit(now, 7, ms(90), Priority::High)
            .map_err(|refusal| refusal.reason),
        Err(Reason::PredictedWait)
    );
    assert_eq!(admission.stats().refused_standing, 2);
}

#[test]
fn waits_fall_in_their_buckets() {
    let mut admission = Admission::new(1);
    admission.record_wait(ms(1), Some(ms(2)));
    admission.record_wait(ms(30), None);
    admission.record_wait(ms(9000), Some(ms(8000)));
    let stats = admission.stats();
    assert_eq!(stats.wait_buckets[0], 1, "1 ms is <= 0.001 s");
    assert_eq!(stats.wait_buckets[4], 1, "30 ms is in (0.025, 0.05]");
    assert_eq!(stats.wait_buckets[10], 1, "9 s is past the last bound");
    assert_eq!(stats.wait_count, 3);
    assert_eq!(stats.predicted_sum_us, 8_002_000);
}

#[test]
fn the_client_deadline_header_is_whole_milliseconds() {
    let mut headers = http::HeaderMap::new();
    assert_eq!(client_deadline(&headers), None);
    headers.insert(DEADLINE_HEADER, http::HeaderValue::from_static("250"));
    assert_eq!(client_deadline(&headers), Some(ms(250)));
    headers.insert(DEADLINE_HEADER, http::HeaderValue::from_static("soon"));
    assert_eq!(client_deadline(&headers), None);
}
