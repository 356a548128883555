//! Admission on tokio's paused clock: the prediction is Little's law on the recorded service
//! times, a refusal carries the predicted drain time, and a standing queue cuts the deadline.

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

#[tokio::test(start_paused = true)]
async fn a_standing_queue_admits_one_service_time_of_wait() {
    let mut admission = Admission::new(4);
    admission.record_service(ms(50));
    admission.queue_depth(Instant::now(), 1);
    // Not standing yet: the deadline holds.
    assert!(admission
        .admit(Instant::now(), 20, ms(2000), Priority::Normal)
        .is_ok());
    tokio::time::advance(STANDING_INTERVAL).await;
    assert!(admission.standing(Instant::now()));
    // 50 ms of service: 4 places of wait are admitted, the 5th is not.
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
    // Once the queue empties, it stands no more.
    admission.queue_depth(Instant::now(), 0);
    assert!(!admission.standing(Instant::now()));
    assert!(admission
        .admit(Instant::now(), 20, ms(2000), Priority::Normal)
        .is_ok());
}

#[tokio::test(start_paused = true)]
async fn a_standing_queue_sheds_normal_and_low_but_a_high_request_only_past_its_deadline() {
    let mut admission = Admission::new(4);
    admission.record_service(ms(50));
    admission.queue_depth(Instant::now(), 1);
    tokio::time::advance(STANDING_INTERVAL).await;
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
