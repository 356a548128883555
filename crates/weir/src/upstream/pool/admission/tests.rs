//! Admission on tokio's paused clock: the prediction is Little's law on the recorded service
//! times, a refusal carries the predicted drain time, a queue whose delay wanders is never
//! standing, one whose delay grows by the growth within a window, or stays above the target for
//! an interval, stands until it empties (and while it refuses two per place), a standing queue's
//! room is the target when it starts standing and shrinks by the time it stood, to one service
//! time, where a newcomer also waits at most half a service time for its place, by the places'
//! start times; the order of service: newest first, but for the guard and at the floor.

use std::time::Duration;

use tokio::time::Instant;

use super::*;

fn ms(millis: u64) -> Duration {
    Duration::from_millis(millis)
}

#[test]
fn nothing_is_refused_before_a_service_time_is_known() {
    let mut admission = Admission::new(4);
    assert_eq!(admission.admit(10_000, ms(1)), Ok(None));
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
    // 2 s of deadline hold 160 places (2 s × 4 ÷ 50 ms): the 160th is in, the 161st is not.
    assert_eq!(admission.admit(159, ms(2000)), Ok(Some(ms(2000))));
    assert_eq!(
        admission.admit(160, ms(2000)),
        Err(Refusal {
            reason: Reason::PredictedWait,
            retry_after: Duration::from_micros(2_012_500),
        })
    );
    assert_eq!(admission.stats().refused_predicted, 1);
}

#[tokio::test(start_paused = true)]
async fn while_every_place_is_held_over_four_service_times_the_hold_is_the_service_time() {
    let mut admission = Admission::new(4);
    admission.record_service(ms(50));
    let start = Instant::now();
    for _ in 0..4 {
        admission.place_taken(start);
    }
    // 190 ms later, a waiter waits: a hold under four times the mean moves nothing.
    admission.queue_depth(start + ms(190), 1);
    assert_eq!(
        admission.predicted_wait(0),
        Some(Duration::from_micros(12_500))
    );
    // A second later none was given back: each place takes a second at least, and a newcomer
    // first in the queue would wait a quarter of one, over a deadline of 200 ms.
    admission.queue_depth(start + ms(1000), 1);
    assert_eq!(admission.predicted_wait(0), Some(ms(250)));
    assert_eq!(
        admission
            .admit(0, ms(200))
            .map_err(|refusal| refusal.reason),
        Err(Reason::PredictedWait)
    );
    // A place given back ends the stall; its occupancy counts in the mean as any.
    admission.place_given_back(start + ms(1000), ms(1000));
    assert_eq!(admission.predicted_wait(0), Some(ms(60)));
    // With no waiter there is no stall, however long the places are held.
    admission.queue_depth(start + ms(5000), 0);
    assert_eq!(admission.predicted_wait(0), Some(ms(60)));
}

/// An admission with 4 places and 50 ms of service: a target of 1 s of queue delay (80
/// waiters), an interval of 500 ms, a window of 400 ms and a growth of 300 ms (24 waiters).
fn four_of_fifty() -> Admission {
    let mut admission = Admission::new(4);
    admission.record_service(ms(50));
    assert_eq!(admission.target(), Some(ms(1000)));
    admission
}

#[tokio::test(start_paused = true)]
async fn a_queue_that_wanders_is_never_standing() {
    let mut admission = four_of_fifty();
    admission.queue_depth(Instant::now(), 0);
    // It climbs by 2 waiters every 50 ms to 60: 16 waiters (200 ms, four service times) within
    // a window.
    for depth in (2..=60).step_by(2) {
        tokio::time::advance(ms(50)).await;
        admission.queue_depth(Instant::now(), depth);
    }
    // Then it wanders between 60 and 90 waiters, a step every 200 ms, over the target (80)
    // sometimes but never for an interval (400 ms at most), and by 20 waiters (250 ms, five service times) at
    // most within a window.
    for round in 0..20 {
        for depth in [60, 70, 79, 90, 84, 75, 65] {
            admission.queue_depth(Instant::now(), depth);
            tokio::time::advance(ms(200)).await;
        }
        assert!(!admission.standing(Instant::now()), "round {round}");
    }
    assert!(!admission.overstayed(Instant::now(), ms(1500)));
    assert!(!admission.full(Instant::now(), 10_000, 10_000));
}

#[tokio::test(start_paused = true)]
async fn a_queue_whose_delay_grows_by_six_service_times_within_a_window_stands() {
    let mut admission = four_of_fifty();
    // From empty, 23 waiters within the window: 287.5 ms of growth, not yet.
    admission.queue_depth(Instant::now(), 0);
    for depth in 1..=23 {
        tokio::time::advance(ms(10)).await;
        admission.queue_depth(Instant::now(), depth);
    }
    assert!(!admission.standing(Instant::now()));
    // The 25th, 240 ms after the empty queue (312.5 ms of growth within 400 ms): standing.
    tokio::time::advance(ms(10)).await;
    admission.queue_depth(Instant::now(), 25);
    assert!(admission.standing(Instant::now()));
    // It stands while it has waiters, below the growth and the target too...
    admission.queue_depth(Instant::now(), 3);
    tokio::time::advance(ms(5000)).await;
    admission.queue_depth(Instant::now(), 4);
    assert!(admission.standing(Instant::now()));
    // ...until it empties.
    admission.queue_depth(Instant::now(), 0);
    assert!(!admission.standing(Instant::now()));
}

#[tokio::test(start_paused = true)]
async fn growth_is_judged_against_the_delay_in_effect_when_the_window_began() {
    let mut admission = four_of_fifty();
    // Empty for a long time, then 30 waiters at once: the window began with the empty queue.
    admission.queue_depth(Instant::now(), 0);
    tokio::time::advance(ms(5000)).await;
    admission.queue_depth(Instant::now(), 30);
    assert!(admission.standing(Instant::now()));
    // Slow growth: 20 waiters every window (250 ms of delay), five times over.
    let mut slow = four_of_fifty();
    slow.queue_depth(Instant::now(), 0);
    for step in 1..=5 {
        tokio::time::advance(ms(400)).await;
        slow.queue_depth(Instant::now(), 20 * step);
        assert!(!slow.standing(Instant::now()), "step {step}");
    }
}

#[tokio::test(start_paused = true)]
async fn a_queue_whose_delay_stays_above_the_target_for_the_interval_stands() {
    let mut admission = four_of_fifty();
    // 80 waiters: 1 s of delay, the target itself, and more later (5 waiters: no growth to
    // speak of): above it all along.
    admission.queue_depth(Instant::now(), 80);
    tokio::time::advance(ms(300)).await;
    admission.queue_depth(Instant::now(), 85);
    tokio::time::advance(ms(199)).await;
    assert!(
        !admission.standing(Instant::now()),
        "not for an interval yet"
    );
    assert!(!admission.overstayed(Instant::now(), ms(1001)));
    tokio::time::advance(ms(1)).await;
    assert!(admission.standing(Instant::now()));
    // While it refuses no newcomer (a burst, served in full), no waiter is dropped...
    assert!(!admission.overstayed(Instant::now(), ms(51)));
    // ...nor after a few refusals (a burst's tail)...
    for _ in 0..7 {
        admission.refuse_standing(Instant::now(), 85);
    }
    assert!(!admission.overstayed(Instant::now(), ms(51)));
    // ...nor once it refused two per place (8 at 4 places) within eight service times, while
    // the last service time brought fewer than twice what the places serve (8 at 4 places):
    // no overload that goes on...
    tokio::time::advance(ms(399)).await;
    admission.arrived(Instant::now());
    admission.refuse_standing(Instant::now(), 85);
    for _ in 0..6 {
        admission.arrived(Instant::now());
    }
    assert!(!admission.overstayed(Instant::now(), ms(51)));
    // ...but with eight, a waiter that waited over one service time (50 ms) is to be dropped,
    // one under it is not.
    admission.arrived(Instant::now());
    assert!(admission.overstayed(Instant::now(), ms(51)));
    assert!(!admission.overstayed(Instant::now(), ms(49)));
    // Eight service times after the first of those, it drops no one again.
    tokio::time::advance(ms(1)).await;
    assert!(admission.standing(Instant::now()));
    assert!(!admission.overstayed(Instant::now(), ms(51)));
}

#[tokio::test(start_paused = true)]
async fn a_standing_queue_is_full_past_one_service_time_and_stands_a_while_after_a_refusal() {
    let mut admission = four_of_fifty();
    admission.queue_depth(Instant::now(), 0);
    // Not standing: never full, whatever the depth (the deadline refuses instead).
    assert!(!admission.full(Instant::now(), 1000, 1000));
    admission.queue_depth(Instant::now(), 100);
    assert!(admission.standing(Instant::now()));
    // After 19 service times of standing its room is one service time of delay: behind 3
    // waiters the 4th waits 50 ms, room; the 5th would wait more.
    tokio::time::advance(ms(950)).await;
    assert!(!admission.full(Instant::now(), 3, 3));
    assert!(admission.full(Instant::now(), 4, 4));
    let refusal = admission.refuse_standing(Instant::now(), 4);
    assert_eq!(refusal.reason, Reason::StandingQueue);
    assert_eq!(refusal.retry_after, Duration::from_micros(62_500));
    assert_eq!(admission.stats().refused_standing, 1);
    // One refusal is not yet an overload that goes on: emptied now, it would stop standing.
    // Eight (two per place) within eight service times (400 ms) are: emptied within 400 ms of
    // the first of them, it still stands; after, an empty queue ends it.
    for _ in 0..7 {
        admission.refuse_standing(Instant::now(), 4);
    }
    tokio::time::advance(ms(399)).await;
    admission.queue_depth(Instant::now(), 0);
    assert!(admission.standing(Instant::now()));
    admission.queue_depth(Instant::now(), 2);
    tokio::time::advance(ms(1)).await;
    admission.queue_depth(Instant::now(), 0);
    assert!(!admission.standing(Instant::now()));
}

#[tokio::test(start_paused = true)]
async fn a_standing_queues_room_is_the_target_at_first_and_shrinks_as_long_as_it_stands() {
    let mut admission = four_of_fifty();
    admission.queue_depth(Instant::now(), 0);
    // A burst of 60 at once into 4 busy places: 750 ms of delay, grown from nothing: it stands.
    admission.queue_depth(Instant::now(), 60);
    assert!(admission.standing(Instant::now()));
    // As it starts standing its room is the target, 20 service times (1 s, 80 waiters at 4
    // places): the burst is admitted whole, a wait a short while drains.
    assert!(!admission.full(Instant::now(), 60, 60));
    assert!(!admission.full(Instant::now(), 79, 79));
    assert!(admission.full(Instant::now(), 80, 80));
    // One service time less for each service time it stands: after 10 (500 ms), 10 service
    // times of delay, 40 waiters.
    tokio::time::advance(ms(500)).await;
    admission.queue_depth(Instant::now(), 40);
    assert!(!admission.full(Instant::now(), 39, 39));
    assert!(admission.full(Instant::now(), 40, 40));
    // After 19 (950 ms) and from then on, one service time: a fifth waiter would wait longer,
    // so a sustained overload's newcomers are refused at once.
    tokio::time::advance(ms(450)).await;
    assert!(!admission.full(Instant::now(), 3, 3));
    assert!(admission.full(Instant::now(), 4, 4));
    tokio::time::advance(ms(5000)).await;
    admission.queue_depth(Instant::now(), 4);
    assert!(!admission.full(Instant::now(), 3, 3));
    assert!(admission.full(Instant::now(), 4, 4));
    // Emptied with no newcomer refused within the hold, it stops standing; when it stands
    // again after the hold (8 service times), its room is the target again.
    admission.queue_depth(Instant::now(), 0);
    assert!(!admission.standing(Instant::now()));
    tokio::time::advance(ms(401)).await;
    admission.queue_depth(Instant::now(), 30);
    assert!(admission.standing(Instant::now()));
    assert!(!admission.full(Instant::now(), 79, 79));
    assert!(admission.full(Instant::now(), 80, 80));
}

#[tokio::test(start_paused = true)]
async fn a_queue_that_grew_gradually_stands_with_its_room_at_its_delay_and_a_jump_at_the_target() {
    // The onset of twice the capacity: one waiter more every 12.5 ms (one service time of
    // delay per service time), from empty. The 24th makes six service times of growth, 287.5 ms
    // after the delay was last at its least (the first waiter): gradual, not a jump (two
    // service times, 100 ms).
    let mut onset = four_of_fifty();
    onset.queue_depth(Instant::now(), 0);
    for depth in 1..=24 {
        tokio::time::advance(Duration::from_micros(12_500)).await;
        onset.queue_depth(Instant::now(), depth);
    }
    assert!(onset.standing(Instant::now()));
    // Its room is the delay it has (300 ms, 24 waiters), not the target (80 waiters): every
    // newcomer is refused at once rather than admitted to wait and be dropped later.
    let admitted = (0..100)
        .filter(|&depth| !onset.full(Instant::now(), depth, depth))
        .count();
    assert_eq!(admitted, 24);
    assert_eq!(onset.order(Instant::now()), Order::NewestFirst);
    // It shrinks as any room does: 100 ms later, 200 ms (16 waiters)...
    tokio::time::advance(ms(100)).await;
    onset.queue_depth(Instant::now(), 16);
    let admitted = (0..100)
        .filter(|&depth| !onset.full(Instant::now(), depth, depth))
        .count();
    assert_eq!(admitted, 16);
    // ...and is at its floor 250 ms after it stood: first come, first served.
    tokio::time::advance(ms(150)).await;
    onset.queue_depth(Instant::now(), 4);
    assert_eq!(onset.order(Instant::now()), Order::OldestFirst);
    // Emptied with no refusals, it stops standing; a burst that comes later, 24 waiters 2 ms
    // apart (46 ms from the first: a jump), stands with its room at the target, admitted whole.
    onset.queue_depth(Instant::now(), 0);
    assert!(!onset.standing(Instant::now()));
    tokio::time::advance(ms(1000)).await;
    onset.queue_depth(Instant::now(), 0);
    for depth in 1..=24 {
        tokio::time::advance(ms(2)).await;
        onset.queue_depth(Instant::now(), depth);
    }
    assert!(onset.standing(Instant::now()));
    let admitted = (0..100)
        .filter(|&depth| !onset.full(Instant::now(), depth, depth))
        .count();
    assert_eq!(admitted, 80);
    assert_eq!(onset.order(Instant::now()), Order::NewestFirst);
}

#[tokio::test(start_paused = true)]
async fn a_burst_spread_over_two_and_a_half_service_times_is_a_jump_admitted_whole() {
    // 24 waiters 5 ms apart into 4 busy places of 50 ms: six service times of growth within
    // 115 ms of the first (2.3 service times). At 2.5x the capacity but for two service times
    // only, a burst a short wait drains; under a jump of two service times it counted as an
    // onset and its room started at its delay (24 waiters), refusing the rest of it.
    let mut burst = four_of_fifty();
    burst.queue_depth(Instant::now(), 0);
    for depth in 1..=24 {
        tokio::time::advance(ms(5)).await;
        burst.queue_depth(Instant::now(), depth);
    }
    assert!(burst.standing(Instant::now()));
    let admitted = (0..100)
        .filter(|&depth| !burst.full(Instant::now(), depth, depth))
        .count();
    assert_eq!(admitted, 80);
}

#[tokio::test(start_paused = true)]
async fn a_deep_queue_does_not_stand_when_slow_requests_raise_the_service_time() {
    let mut admission = four_of_fifty();
    admission.queue_depth(Instant::now(), 0);
    // It climbs by 2 waiters every 50 ms to 60 (a wander, not growth), and stays there 1 s.
    for depth in (2..=60).step_by(2) {
        tokio::time::advance(ms(50)).await;
        admission.queue_depth(Instant::now(), depth);
    }
    for _ in 0..20 {
        tokio::time::advance(ms(50)).await;
        admission.queue_depth(Instant::now(), 60);
    }
    assert!(!admission.standing(Instant::now()));
    // Four slow requests (the machine starved the app) raise the learnt service time from 50
    // to ~109 ms, and the delay of the same 60 waiters from 750 ms to ~1.6 s: judged in delays,
    // it grew by eight service times of the new one. The queue did not grow: it does not stand.
    for _ in 0..4 {
        admission.record_service(ms(150));
    }
    tokio::time::advance(ms(10)).await;
    admission.queue_depth(Instant::now(), 60);
    assert!(!admission.standing(Instant::now()));
    // It stands when it grows by six waiters a place within the window.
    tokio::time::advance(ms(10)).await;
    admission.queue_depth(Instant::now(), 84);
    assert!(admission.standing(Instant::now()));
}

#[tokio::test(start_paused = true)]
async fn a_standing_queue_that_refuses_two_per_place_has_its_room_at_the_floor_at_once() {
    let mut admission = four_of_fifty();
    admission.queue_depth(Instant::now(), 0);
    // A queue that stood up 100 ms ago, its room 18 service times (72 waiters) by the time it
    // stood: 70 waiters fit, served newest first.
    admission.queue_depth(Instant::now(), 40);
    assert!(admission.standing(Instant::now()));
    tokio::time::advance(ms(100)).await;
    admission.queue_depth(Instant::now(), 71);
    assert!(!admission.full(Instant::now(), 70, 0));
    assert_eq!(admission.order(Instant::now()), Order::NewestFirst);
    // Newcomers keep coming: 7 refused, not yet two per place; the room is unchanged.
    for _ in 0..7 {
        admission.refuse_standing(Instant::now(), 72);
    }
    assert!(!admission.full(Instant::now(), 70, 0));
    // The 8th makes it refusing, an overload that goes on: the room is its floor at once (a
    // fifth waiter would wait over one service time), served first come, first served.
    admission.refuse_standing(Instant::now(), 72);
    assert!(admission.full(Instant::now(), 70, 0));
    assert!(!admission.full(Instant::now(), 3, 3));
    assert!(admission.full(Instant::now(), 4, 4));
    assert_eq!(admission.order(Instant::now()), Order::OldestFirst);
    // Once the refusals are older than the hold (8 service times), the room is the one its
    // time standing gives again (here just under 10 service times: 39 waiters).
    tokio::time::advance(ms(401)).await;
    admission.queue_depth(Instant::now(), 30);
    assert!(!admission.full(Instant::now(), 30, 0));
    assert!(admission.full(Instant::now(), 40, 0));
    assert_eq!(admission.order(Instant::now()), Order::NewestFirst);
}

/// A queue that empties while it refuses stands on (its room empties now and then under an
/// overload that goes on), but only as long as it refuses: once its refusals are older than the
/// hold with no waiter since, the overload is over, and a burst seconds later finds a queue that
/// does not stand, its room at the target. An idle queue takes no sample to notice: it stood
/// on until a burst came, with its room at the floor by then (a burst of 60 over 100 ms had
/// 12 served, 3 s after bursts of 120 that it refused, in the lab: 4 sync workers of 50 ms).
#[tokio::test(start_paused = true)]
async fn a_queue_that_emptied_while_refusing_stops_standing_once_its_refusals_lapse() {
    let mut admission = four_of_fifty();
    admission.queue_depth(Instant::now(), 0);
    // A burst of more than the room: it stands, and refuses two per place.
    admission.queue_depth(Instant::now(), 84);
    assert!(admission.standing(Instant::now()));
    for _ in 0..8 {
        admission.refuse_standing(Instant::now(), 84);
    }
    // It drains while it refuses: empty, and standing on.
    tokio::time::advance(ms(100)).await;
    admission.queue_depth(Instant::now(), 0);
    assert!(admission.standing(Instant::now()));
    // Nothing comes for 3 s: its refusals lapsed 300 ms later, and with them the overload.
    tokio::time::advance(ms(3000)).await;
    assert!(!admission.standing(Instant::now()));
    // The next burst jumps: it stands with its room at the target (80 waiters), newest first.
    admission.queue_depth(Instant::now(), 60);
    assert!(admission.standing(Instant::now()));
    let admitted = (0..100)
        .filter(|&depth| !admission.full(Instant::now(), depth, depth))
        .count();
    assert_eq!(admitted, 80);
    assert_eq!(admission.order(Instant::now()), Order::NewestFirst);
}

#[tokio::test(start_paused = true)]
async fn a_queue_that_stands_again_within_the_hold_of_a_lull_starts_with_its_room_at_the_floor() {
    let mut admission = four_of_fifty();
    admission.queue_depth(Instant::now(), 0);
    // An overload that goes on: the queue stands, its room is at the floor by time (19 service
    // times) and it refuses two per place.
    admission.queue_depth(Instant::now(), 30);
    assert!(admission.standing(Instant::now()));
    tokio::time::advance(ms(2000)).await;
    admission.queue_depth(Instant::now(), 4);
    for _ in 0..8 {
        admission.refuse_standing(Instant::now(), 4);
    }
    // A lull: no refusal for the hold (8 service times), and the queue empties: it stops
    // standing.
    tokio::time::advance(ms(400)).await;
    admission.queue_depth(Instant::now(), 0);
    assert!(!admission.standing(Instant::now()));
    // The overload comes back 399 ms later, within the hold: 30 waiters, it stands again, and
    // its room is the floor from the start (4 waiters at 4 places), served first come, first
    // served, rather than the target (80 waiters) to drop them later.
    tokio::time::advance(ms(399)).await;
    admission.queue_depth(Instant::now(), 30);
    assert!(admission.standing(Instant::now()));
    let admitted = (0..80)
        .filter(|&depth| !admission.full(Instant::now(), depth, depth))
        .count();
    assert_eq!(admitted, 4);
    assert_eq!(admission.order(Instant::now()), Order::OldestFirst);
    // A burst that stood for a short while (its room above the floor) and emptied is not an
    // overload: a second burst right after has its room at the target again.
    let mut bursts = four_of_fifty();
    bursts.queue_depth(Instant::now(), 0);
    bursts.queue_depth(Instant::now(), 60);
    tokio::time::advance(ms(500)).await;
    bursts.queue_depth(Instant::now(), 0);
    assert!(!bursts.standing(Instant::now()));
    tokio::time::advance(ms(10)).await;
    bursts.queue_depth(Instant::now(), 60);
    assert!(bursts.standing(Instant::now()));
    let admitted = (0..100)
        .filter(|&depth| !bursts.full(Instant::now(), depth, depth))
        .count();
    assert_eq!(admitted, 80);
    assert_eq!(bursts.order(Instant::now()), Order::NewestFirst);
}

#[tokio::test(start_paused = true)]
async fn a_queue_that_stands_by_the_interval_shrinks_its_room_from_then() {
    let mut admission = four_of_fifty();
    // 85 waiters, over the target from the start (no growth): standing after the interval
    // (500 ms), and its room is the target then, shrinking from that moment.
    admission.queue_depth(Instant::now(), 85);
    tokio::time::advance(ms(500)).await;
    assert!(admission.standing(Instant::now()));
    assert!(!admission.full(Instant::now(), 79, 79));
    tokio::time::advance(ms(500)).await;
    admission.queue_depth(Instant::now(), 85);
    assert!(!admission.full(Instant::now(), 39, 39));
    assert!(admission.full(Instant::now(), 40, 40));
}

#[tokio::test(start_paused = true)]
async fn the_target_the_interval_and_the_window_scale_with_the_service_time() {
    // 500 ms of service: a 10 s target, a 5 s interval; 4 s over the target is no interval.
    let mut admission = Admission::new(4);
    admission.record_service(ms(500));
    assert_eq!(admission.target(), Some(ms(10_000)));
    admission.queue_depth(Instant::now(), 100);
    tokio::time::advance(ms(4000)).await;
    assert!(!admission.standing(Instant::now()));
    tokio::time::advance(ms(1000)).await;
    assert!(admission.standing(Instant::now()));
    // A window of 4 s and a growth of 3 s (24 waiters): 31 waiters stand when the empty queue
    // was in effect 3.9 s before, not when its successor (20 waiters) began 4.1 s before.
    for (within, stands) in [(3900, true), (4100, false)] {
        let mut admission = Admission::new(4);
        admission.record_service(ms(500));
        admission.queue_depth(Instant::now(), 0);
        tokio::time::advance(ms(100)).await;
        admission.queue_depth(Instant::now(), 20);
        tokio::time::advance(ms(within)).await;
        admission.queue_depth(Instant::now(), 31);
        assert_eq!(admission.standing(Instant::now()), stands, "{within} ms");
    }
    // Nothing is known before a service time: no target, never standing.
    let mut unknown = Admission::new(4);
    unknown.queue_depth(Instant::now(), 0);
    unknown.queue_depth(Instant::now(), 10_000);
    tokio::time::advance(ms(60_000)).await;
    assert_eq!(unknown.target(), None);
    assert!(!unknown.standing(Instant::now()));
}

#[tokio::test(start_paused = true)]
async fn the_wait_for_a_place_is_when_the_place_taken_longest_ago_frees() {
    let mut admission = four_of_fifty();
    let start = Instant::now();
    // Nothing known before as many places were taken as there are.
    assert_eq!(admission.wait_for_place(start, 0), None);
    for _ in 0..4 {
        admission.place_taken(Instant::now());
        tokio::time::advance(ms(10)).await;
    }
    // Taken at 0, 10, 20 and 30 ms, for 50 ms each; now is 40 ms. The first comer gets the
    // place taken at 0 ms (10 ms from now), the fifth the same place again a service time
    // later.
    let now = Instant::now();
    assert_eq!(admission.wait_for_place(now, 0), Some(ms(10)));
    assert_eq!(admission.wait_for_place(now, 3), Some(ms(40)));
    assert_eq!(admission.wait_for_place(now, 4), Some(ms(60)));
    // A place held past the service time is due now, not in the past.
    assert_eq!(
        admission.wait_for_place(now + ms(500), 0),
        Some(Duration::ZERO)
    );
    // A fifth place taken pushes out the oldest: the places in use are the last four taken.
    admission.place_taken(now);
    assert_eq!(admission.wait_for_place(now, 0), Some(ms(20)));
}

#[tokio::test(start_paused = true)]
async fn at_its_floor_a_standing_queue_admits_only_for_half_a_service_time_of_wait_for_a_place() {
    let mut admission = four_of_fifty();
    admission.queue_depth(Instant::now(), 0);
    admission.queue_depth(Instant::now(), 100);
    assert!(admission.standing(Instant::now()));
    // The room shrinks to its floor (one service time) after 19 service times; meanwhile the
    // four places were all taken at once, 10 ms before now: they free 40 ms from now.
    tokio::time::advance(ms(940)).await;
    for _ in 0..4 {
        admission.place_taken(Instant::now());
    }
    tokio::time::advance(ms(10)).await;
    let now = Instant::now();
    // Little's law alone (the room) admits a first newcomer, 12.5 ms of predicted delay; its
    // place frees 40 ms from now, over half a service time (25 ms): refused at once.
    assert_eq!(
        admission.predicted_wait(0),
        Some(Duration::from_micros(12_500))
    );
    assert!(admission.full(now, 0, 0));
    // 20 ms later the places free within 20 ms: the first comers are admitted, as many as
    // there are places; behind them, the next turn is a service time later.
    let later = now + ms(20);
    assert!(!admission.full(later, 0, 0));
    assert!(!admission.full(later, 3, 3));
    assert!(admission.full(later, 4, 4));
    // Before the room is at its floor the wait for a place does not count: the room of a
    // queue that starts standing admits a burst.
    let mut burst = four_of_fifty();
    burst.queue_depth(Instant::now(), 0);
    burst.queue_depth(Instant::now(), 30);
    for _ in 0..4 {
        burst.place_taken(Instant::now());
    }
    assert!(burst.standing(Instant::now()));
    assert!(!burst.full(Instant::now(), 30, 0));
}

#[tokio::test(start_paused = true)]
async fn the_newest_waiter_goes_first_but_for_those_that_waited_the_guard_and_at_the_floor() {
    let mut admission = Admission::new(4);
    // Before a service time is known: first come, first served.
    assert_eq!(admission.order(Instant::now()), Order::OldestFirst);
    admission.record_service(ms(50));
    // A queue that does not stand: the newest first, unless the oldest waited 10 service
    // times (500 ms).
    admission.queue_depth(Instant::now(), 0);
    admission.queue_depth(Instant::now(), 10);
    assert_eq!(
        admission.order(Instant::now()),
        Order::NewestFirstUnlessOlder { guard: ms(500) }
    );
    // Standing, its room shrinking: the newest first; at the floor (after 19 service times),
    // first come, first served, as its newcomers were admitted.
    admission.queue_depth(Instant::now(), 40);
    assert!(admission.standing(Instant::now()));
    assert_eq!(admission.order(Instant::now()), Order::NewestFirst);
    tokio::time::advance(ms(949)).await;
    assert_eq!(admission.order(Instant::now()), Order::NewestFirst);
    tokio::time::advance(ms(1)).await;
    assert_eq!(admission.order(Instant::now()), Order::OldestFirst);
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
    assert_eq!(client_deadline(b"250"), Some(ms(250)));
    assert_eq!(client_deadline(b" 250 "), Some(ms(250)));
    assert_eq!(client_deadline(b"soon"), None);
    assert_eq!(client_deadline(b""), None);
    assert_eq!(client_deadline(b"25\xff"), None);
}

/// The adaptive limit of async workers moves while a standing queue refuses: one that grew
/// still counts the refusals of before, so the queue refuses on, and stands on when a place the
/// limit grew by takes its last waiter. Counted for the capacity of the moment, 10 refusals at
/// 5 places were none at 6: the queue stopped standing there, admitted six service times of
/// waiters again and dropped them once it stood again (21 times in 15 s at twice the capacity
/// of 4 blocking Uvicorn workers, lab/runs/2026-12-05-vm-overload-block2x).
#[tokio::test(start_paused = true)]
async fn a_standing_queue_refuses_on_when_its_capacity_grows() {
    let mut admission = Admission::new(5);
    admission.record_service(ms(50));
    admission.queue_depth(Instant::now(), 0);
    // An overload: it stands, 40 requests come over 100 ms and it refuses 20 of them (two per
    // place are 10; the last service time brought 20, over twice the places).
    admission.queue_depth(Instant::now(), 40);
    assert!(admission.standing(Instant::now()));
    for _ in 0..20 {
        tokio::time::advance(ms(5)).await;
        admission.arrived(Instant::now());
        admission.arrived(Instant::now());
        admission.refuse_standing(Instant::now(), 5);
    }
    assert!(admission.overstayed(Instant::now(), ms(51)));
    // The limit grows to 6: 12 of those refusals are within the hold (400 ms), so it still
    // refuses, and it stands on when the new place takes its last waiter.
    admission.set_capacity(6);
    assert!(admission.overstayed(Instant::now(), ms(51)));
    admission.queue_depth(Instant::now(), 0);
    assert!(admission.standing(Instant::now()));
    assert_eq!(admission.order(Instant::now()), Order::OldestFirst);
    // Until the 12th last of them (45 ms into the overload) is older than the hold.
    tokio::time::advance(ms(344)).await;
    assert!(admission.standing(Instant::now()));
    tokio::time::advance(ms(2)).await;
    assert!(!admission.standing(Instant::now()));
}

/// A standing queue refuses for its room only while requests come at least as fast as its
/// places serve them (capacity × 4 within four service times), and drops its overstayed only
/// while the last service time brought twice what they serve in it: a burst on top of a load
/// under the capacity is no overload that goes on (lab/runs/2026-12-05-vm-overload-pressure).
#[tokio::test(start_paused = true)]
async fn an_overload_goes_on_only_while_requests_come_as_fast_as_the_places_serve_them() {
    let mut admission = four_of_fifty();
    // Nothing came yet.
    assert!(!admission.pressing(Instant::now()));
    // 15 over four service times (200 ms, where 4 places serve 16): not yet.
    for _ in 0..15 {
        admission.arrived(Instant::now());
        tokio::time::advance(ms(13)).await;
    }
    assert!(!admission.pressing(Instant::now()));
    // The 16th, 195 ms after the first: pressing, until the first is 200 ms old.
    admission.arrived(Instant::now());
    assert!(admission.pressing(Instant::now()));
    tokio::time::advance(ms(4)).await;
    assert!(admission.pressing(Instant::now()));
    tokio::time::advance(ms(1)).await;
    assert!(!admission.pressing(Instant::now()));
    // A burst of 120 at once presses for four service times, then no more, though no
    // request has been served.
    for _ in 0..120 {
        admission.arrived(Instant::now());
    }
    tokio::time::advance(ms(199)).await;
    assert!(admission.pressing(Instant::now()));
    tokio::time::advance(ms(1)).await;
    assert!(!admission.pressing(Instant::now()));
    // The queue it made stands and refuses: its overstayed are dropped only while the last
    // service time brought eight (twice 4 places).
    admission.queue_depth(Instant::now(), 0);
    admission.queue_depth(Instant::now(), 80);
    for _ in 0..8 {
        admission.refuse_standing(Instant::now(), 80);
    }
    for _ in 0..7 {
        admission.arrived(Instant::now());
    }
    assert!(!admission.overstayed(Instant::now(), ms(51)));
    admission.arrived(Instant::now());
    assert!(admission.overstayed(Instant::now(), ms(51)));
    tokio::time::advance(ms(50)).await;
    assert!(!admission.overstayed(Instant::now(), ms(101)));
    // It keeps at most twice the arrivals four service times count (32 at 4 places).
    assert_eq!(admission.arrivals.len(), 32);
}
