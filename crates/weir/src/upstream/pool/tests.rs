//! The pool's accounting: a waiter cancelled after its grant was sent gives the place back, and
//! random interleavings of checkout (of every priority class, with and without a declared
//! capacity), grant, cancel, check-in, close, time-out and reload leave `open`, `in_use`, `idle`
//! and `waiting` equal to what is really held (and, across reloads, the places of all the pools
//! together within the newest's cap). The order of grants: by class, then FIFO, or
//! LIFO with a declared capacity (but for the guard, and at a standing queue's floor); a full
//! standing queue refuses a newcomer at once unless it outranks a waiter, and drops the waiters
//! that overstayed for a newcomer admitted in their stead (never as a place frees).
//!
//! Futures are polled by hand with a no-op waker, so each step of a run is one await point of
//! one checkout, in an order proptest chooses; the clock is tokio's paused one, moved by the run.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll, Waker};
use std::time::Duration;

use proptest::prelude::*;
use tokio::net::UnixStream;

use super::{
    adaptive, CheckPlace, Checkout, CheckoutError, PackedOutcome, Pool, PoolSettings, PoolStats,
    Pooled, Slot,
};
use crate::config::{Priority, UpstreamAddr};
use crate::upstream::client::ClientConn;
use crate::upstream::stream::Stream;
use crate::write_timeout::WriteTimeout;

fn settings(max_connections: usize, max_idle: usize, queue_size: usize) -> PoolSettings {
    PoolSettings {
        max_connections,
        max_idle,
        idle_timeout: Duration::from_secs(5),
        queue_size,
        queue_timeout: Duration::from_secs(3),
        predict: false,
        adaptive_floor: None,
        thread_affine: false,
    }
}

thread_local! {
    /// How many times this thread took a pool's lock (`Pool::lock` counts them in tests).
    pub(super) static LOCKS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

fn locks_taken() -> usize {
    LOCKS.with(std::cell::Cell::get)
}

/// A pool with no shared decision to make: no cap, one runtime per core (weir's default).
fn per_thread(max_idle: usize) -> Arc<Pool> {
    pool(PoolSettings {
        thread_affine: true,
        ..settings(0, max_idle, 0)
    })
}

fn pool(settings: PoolSettings) -> Arc<Pool> {
    Pool::new(
        UpstreamAddr::Unix("/nonexistent/pool-test.sock".into()),
        settings,
    )
}

/// A real connected socket pair: the pool's end, and the "server's" end, which the test keeps
/// open (dropping it is the server closing the connection).
fn connection() -> (ClientConn, UnixStream) {
    let (ours, theirs) = UnixStream::pair().expect("socketpair");
    let conn = ClientConn::new(WriteTimeout::new(
        Stream::Unix(ours),
        Duration::from_secs(5),
        "test upstream did not take the request",
    ));
    (conn, theirs)
}

type Checking = Pin<Box<dyn Future<Output = Result<Checkout, CheckoutError>>>>;

fn checking(pool: &Arc<Pool>, fresh: bool) -> Checking {
    checking_with(pool, fresh, Priority::Normal)
}

fn checking_with(pool: &Arc<Pool>, fresh: bool, priority: Priority) -> Checking {
    let pool = Arc::clone(pool);
    Box::pin(async move { pool.checkout(fresh, priority, || None).await })
}

fn checking_as(pool: &Arc<Pool>, priority: Priority) -> Checking {
    checking_with(pool, false, priority)
}

fn poll_once(future: &mut Checking) -> Poll<Result<Checkout, CheckoutError>> {
    future
        .as_mut()
        .poll(&mut Context::from_waker(Waker::noop()))
}

#[tokio::test(start_paused = true)]
async fn a_waiter_cancelled_after_its_grant_was_sent_gives_the_place_back() {
    let pool = pool(settings(1, 0, 8));
    let Ok(Checkout::Connect(first)) = pool.checkout(false, Priority::Normal, || None).await else {
        panic!("the first checkout gets the only place");
    };
    let mut waiter = checking(&pool, false);
    assert!(poll_once(&mut waiter).is_pending(), "the second one waits");
    assert_eq!(pool.stats().waiting, 1);

    // The place is handed to the waiter (the first request ended)...
    drop(first);
    // ...and the waiter's future is dropped before it reads its grant (its client left).
    drop(waiter);

    assert_eq!(
        pool.stats(),
        PoolStats {
            open: 0,
            in_use: 0,
            idle: 0,
            waiting: 0,
            connects: 1,
            limit: 1,
            ..PoolStats::default()
        },
        "the place came back to the pool"
    );
    let mut next = checking(&pool, false);
    assert!(
        matches!(poll_once(&mut next), Poll::Ready(Ok(Checkout::Connect(_)))),
        "the next request gets the place at once, not a queue time-out"
    );
}

/// A reload replaced the pool twice, and the middle pool (which no request used) is gone: the
/// places the first still holds count in the newest, and go to the first's own waiter before
/// the newest's.
#[tokio::test(start_paused = true)]
async fn a_pool_that_replaced_another_counts_its_places_until_they_free_even_two_reloads_on() {
    let first = pool(settings(2, 0, 8));
    let mut held = Vec::new();
    for _ in 0..2 {
        let Ok(Checkout::Connect(slot)) = first.checkout(false, Priority::Normal, || None).await
        else {
            panic!("a place at once");
        };
        held.push(slot);
    }
    let mut first_waiter = checking(&first, false);
    assert!(poll_once(&mut first_waiter).is_pending());
    let second = pool(settings(2, 0, 8));
    second.follow(&first);
    let third = pool(settings(2, 0, 8));
    third.follow(&second);
    drop(second);
    let mut newest_waiter = checking(&third, false);
    assert!(
        poll_once(&mut newest_waiter).is_pending(),
        "the first pool's two places fill the cap"
    );
    drop(held.pop());
    let Poll::Ready(Ok(Checkout::Connect(first_waiters))) = poll_once(&mut first_waiter) else {
        panic!("the first pool's waiter gets its freed place");
    };
    assert!(poll_once(&mut newest_waiter).is_pending());
    drop(first_waiters);
    let Poll::Ready(Ok(Checkout::Connect(_newest_waiters))) = poll_once(&mut newest_waiter) else {
        panic!("a place the first pool frees with no waiter of its own goes to the newest's");
    };
    assert_eq!(third.stats().in_use, 1);
    let mut next = checking(&third, false);
    assert!(poll_once(&mut next).is_pending(), "one place still held");
    drop(held.pop());
    assert!(matches!(
        poll_once(&mut next),
        Poll::Ready(Ok(Checkout::Connect(_)))
    ));
}

#[tokio::test(start_paused = true)]
async fn a_grant_that_comes_as_the_queue_time_runs_out_is_used() {
    let pool = pool(settings(1, 0, 8));
    let Ok(Checkout::Connect(first)) = pool.checkout(false, Priority::Normal, || None).await else {
        panic!("the first checkout gets the only place");
    };
    let mut waiter = checking(&pool, false);
    assert!(poll_once(&mut waiter).is_pending());
    tokio::time::advance(Duration::from_secs(3)).await;
    drop(first);
    assert!(
        matches!(
            poll_once(&mut waiter),
            Poll::Ready(Ok(Checkout::Connect(_)))
        ),
        "the grant sent before the waiter saw its time-out serves it"
    );
    assert_eq!(pool.stats().queue_timeouts, 0);
}

#[tokio::test(start_paused = true)]
async fn bytes_the_server_sent_unasked_make_an_idle_connection_unusable_at_once() {
    use tokio::io::AsyncWriteExt as _;
    let pool = pool(settings(1, 1, 8));
    let Ok(Checkout::Connect(slot)) = pool.checkout(false, Priority::Normal, || None).await else {
        panic!("a place");
    };
    let (conn, mut server) = connection();
    slot.into_conn(conn).checkin();
    // A broken server sends a response nobody asked for (the body of a HEAD answer, say),
    // and the next checkout comes before the runtime looked at epoll again: tokio's cached
    // readiness does not show these bytes yet.
    server
        .try_write(b"HTTP/1.1 200 OK\r\ncontent-length: 4\r\n\r\nevil")
        .expect("the socket takes a few bytes at once");
    let mut next = checking(&pool, false);
    assert!(
        matches!(poll_once(&mut next), Poll::Ready(Ok(Checkout::Connect(_)))),
        "the idle connection is closed and a new one opened, not reused"
    );
    assert_eq!(pool.stats().reuses, 0);
    server.shutdown().await.ok();
}

/// A connection left idle in the pool gives back its read buffer once it has been idle for
/// `SHED_AFTER`, and not before: one handed out again at once (a busy pool) keeps it, so its
/// next response is read without an allocation. Seen failing (a capacity of 4,096 after the
/// reaper's look) before `Pool::reap` shed idle connections.
#[tokio::test(start_paused = true)]
async fn an_idle_connection_gives_back_its_read_buffer_once_it_has_been_idle_a_while() {
    let pool = pool(settings(1, 1, 8));
    let checked_in = |conn: ClientConn| async {
        let Ok(Checkout::Connect(slot)) = pool.checkout(false, Priority::Normal, || None).await
        else {
            panic!("a place");
        };
        slot.into_conn(conn).checkin();
    };
    let reused = || async {
        let Ok(Checkout::Reused(pooled)) = pool.checkout(false, Priority::Normal, || None).await
        else {
            panic!("the idle connection is reused");
        };
        pooled
    };
    let (mut conn, _server) = connection();
    conn.buf.reserve(4096);
    checked_in(conn).await;

    // Idle less than SHED_AFTER at the reaper's look: the buffer stays.
    tokio::time::advance(super::SHED_AFTER / 2).await;
    pool.reap();
    let pooled = reused().await;
    assert!(pooled.client.buffer_capacity() >= 4096, "kept while busy");
    pooled.checkin();

    // Idle SHED_AFTER: given back.
    tokio::time::advance(super::SHED_AFTER).await;
    pool.reap();
    let pooled = reused().await;
    assert_eq!(pooled.client.buffer_capacity(), 0, "given back while idle");
}

/// Polls every waiter once: the indexes of those that got a place, with their slots (the
/// test drops a slot to free its place).
fn granted(waiters: &mut [Option<Checking>]) -> Vec<(usize, Slot)> {
    let mut granted = Vec::new();
    for (index, waiter) in waiters.iter_mut().enumerate() {
        let Some(future) = waiter else { continue };
        if let Poll::Ready(result) = poll_once(future) {
            let Ok(Checkout::Connect(slot)) = result else {
                panic!("waiter {index} got no place");
            };
            *waiter = None;
            granted.push((index, slot));
        }
    }
    granted
}

/// Teaches a pool its service time: one place held for `service`.
async fn teach(pool: &Arc<Pool>, service: Duration) {
    let Ok(Checkout::Connect(slot)) = pool.checkout(false, Priority::Normal, || None).await else {
        panic!("a place");
    };
    tokio::time::advance(service).await;
    drop(slot);
}

/// Holds `held` for one service time (10 ms) and frees it, then does the same with each place
/// granted after it, `count` times: the indexes of the waiters served, in order.
async fn serve(
    mut held: Slot,
    waiters: &mut [Option<Checking>],
    count: usize,
) -> (Vec<usize>, Slot) {
    let mut order = Vec::new();
    for _ in 0..count {
        tokio::time::advance(Duration::from_millis(10)).await;
        drop(held);
        let mut served = granted(waiters);
        let (index, slot) = served.pop().expect("one waiter served");
        assert!(served.is_empty(), "one place went to one waiter");
        order.push(index);
        held = slot;
    }
    (order, held)
}

/// Polls every waiter once: the indexes of those dropped from a standing queue (they are
/// answered 503 at once), in order; a waiter that got anything else fails the test.
fn dropped(waiters: &mut [Option<Checking>]) -> Vec<usize> {
    let mut dropped = Vec::new();
    for (index, waiter) in waiters.iter_mut().enumerate() {
        let Some(future) = waiter else { continue };
        match poll_once(future) {
            Poll::Ready(Err(CheckoutError::Overloaded {
                reason: super::admission::Reason::StandingDrop,
                ..
            })) => {
                *waiter = None;
                dropped.push(index);
            }
            Poll::Ready(_) => panic!("waiter {index} got something else than a drop"),
            Poll::Pending => {}
        }
    }
    dropped
}

/// Queues a request of `priority`: it must wait (polled once, so it takes its place now).
fn queue(pool: &Arc<Pool>, priority: Priority) -> Option<Checking> {
    let mut waiter = checking_as(pool, priority);
    assert!(
        poll_once(&mut waiter).is_pending(),
        "a {priority:?} request waits"
    );
    Some(waiter)
}

#[tokio::test(start_paused = true)]
async fn a_queue_that_fills_fast_stands_refuses_newcomers_to_its_full_room_and_drops_the_overstayed_for_a_newcomer(
) {
    use super::admission::Reason::StandingQueue;
    let (pool, first) = one_place_of_ten_ms(64).await;
    // Twenty queue at once: the queue stands (a jump), its room the target, 20 service times of
    // delay, 20 waiters at one place: full. Newcomers of an overload that goes on are refused
    // at once; two (two per place) make it refusing, which puts its room at its floor (one
    // waiter), and no waiter is dropped for them.
    let mut waiters: Vec<Option<Checking>> =
        (0..20).map(|_| queue(&pool, Priority::Normal)).collect();
    overload_goes_on(&pool);
    assert_eq!(refused_as(&pool, Priority::Normal), Some(StandingQueue));
    assert_eq!(refused_as(&pool, Priority::Normal), Some(StandingQueue));
    assert!(dropped(&mut waiters).is_empty());
    // The newest of all left (cancelled). At its floor the queue is served first come, first
    // served.
    waiters[19] = None;
    let (order, held) = serve(first, &mut waiters, 1).await;
    assert_eq!(order, [0]);
    // 2 ms later the others waited over one service time. A newcomer is refused at once: the
    // place it would get, were they gone, frees 8 ms from now, over half a service time. So
    // none is dropped for it: it would not be admitted in their stead.
    tokio::time::advance(Duration::from_millis(2)).await;
    overload_goes_on(&pool);
    assert_eq!(refused_as(&pool, Priority::Normal), Some(StandingQueue));
    assert!(dropped(&mut waiters).is_empty());
    // 4 ms later the place frees within 4 ms: while the queue refuses newcomers, those that
    // overstayed are dropped for the next newcomer, admitted in their stead, so the bottom of
    // the stack never ages into a late answer under a sustained overload. It is served next.
    tokio::time::advance(Duration::from_millis(4)).await;
    overload_goes_on(&pool);
    waiters.push(queue(&pool, Priority::Normal));
    assert_eq!(dropped(&mut waiters), (1..19).collect::<Vec<_>>());
    let (order, held) = serve(held, &mut waiters, 1).await;
    assert_eq!(order, [20]);
    drop(held);
    let stats = pool.stats();
    assert_eq!((stats.waiting, stats.in_use, stats.open), (0, 0, 0));
    assert_eq!(stats.admission.dropped_standing, 18);
    assert_eq!(stats.admission.refused_standing, 3);
}

#[tokio::test(start_paused = true)]
async fn a_queue_that_does_not_stand_serves_the_newest_first_but_for_those_that_waited_the_guard() {
    // One place of 10 ms: a guard of 10 service times, 100 ms. Three waiters, one more every
    // service time, one served: a growth of 40 ms at most, under the 60 ms that would make
    // the queue stand.
    let (pool, first) = one_place_of_ten_ms(64).await;
    let mut waiters: Vec<Option<Checking>> =
        (0..3).map(|_| queue(&pool, Priority::Normal)).collect();
    // A newcomer every service time, each served as the place frees: the newest first (the
    // place is never held longer than 10 ms, so the service time stays 10 ms: the guard is
    // exactly 100 ms).
    let mut order = Vec::new();
    let mut held = first;
    for _ in 0..13 {
        waiters.push(queue(&pool, Priority::Normal));
        let (served, slot) = serve(held, &mut waiters, 1).await;
        order.extend(served);
        held = slot;
    }
    // The first three waited 100, 110 and 120 ms when served, after nine newer ones; then the
    // newest goes first again (the oldest left has waited 40 ms).
    let newer: Vec<usize> = (3..=11).collect();
    assert_eq!(order, [&newer[..], &[0, 1, 2, 15]].concat());
    assert_eq!(pool.stats().admission.dropped_standing, 0);
    drop(held);
}

#[tokio::test(start_paused = true)]
async fn a_place_held_over_four_service_times_while_requests_wait_sets_the_queues_time() {
    let (pool, first) = one_place_of_ten_ms(64).await;
    // Six queue at once: the queue stands. Then the place is held 190 ms, 19 of the service
    // times it learnt (10 ms), with none given back: the app is slower now than its mean says
    // (a slow endpoint after fast ones), so its service time is taken to be those 190 ms. The
    // queue has stood one service time: its room is 19 waiters, and the newcomers of an
    // overload that goes on are admitted. Judged by the mean, the queue had stood 19 service
    // times, its room was at its floor, the newcomers were refused and the six, overstayed,
    // dropped for the next one admitted.
    let mut waiters: Vec<Option<Checking>> =
        (0..6).map(|_| queue(&pool, Priority::Normal)).collect();
    tokio::time::advance(Duration::from_millis(190)).await;
    overload_goes_on(&pool);
    waiters.push(queue(&pool, Priority::Normal));
    tokio::time::advance(Duration::from_millis(20)).await;
    overload_goes_on(&pool);
    waiters.push(queue(&pool, Priority::Normal));
    assert!(dropped(&mut waiters).is_empty());
    // Each is served as the place frees (the place held 220 ms raises the mean to 52 ms), none
    // dropped.
    let (order, _held) = serve(first, &mut waiters, 8).await;
    assert_eq!(order.len(), 8);
    let stats = pool.stats();
    assert_eq!(stats.admission.dropped_standing, 0);
    assert_eq!(stats.admission.refused_standing, 0);
}

/// While the app refuses connections (Gunicorn restarting), the queue admits newcomers up to
/// `queue_size` however fast they come and however long the place has been held: no wait can be
/// predicted then, and `fail_timeout` bounds the wait. Judged as a standing queue, the same
/// burst had all but its room refused.
#[tokio::test(start_paused = true)]
async fn while_the_app_refuses_connections_the_queue_admits_up_to_queue_size() {
    let (pool, _held) = one_place_of_ten_ms(64).await;
    pool.refusing_since(tokio::time::Instant::now());
    let mut waiters = Vec::new();
    for _ in 0..64 {
        overload_goes_on(&pool);
        waiters.push(queue(&pool, Priority::Normal));
        tokio::time::advance(Duration::from_millis(2)).await;
    }
    assert!(dropped(&mut waiters).is_empty());
    assert!(matches!(
        poll_once(&mut checking(&pool, false)),
        Poll::Ready(Err(CheckoutError::Overloaded {
            reason: super::admission::Reason::QueueFull,
            ..
        }))
    ));
}

#[tokio::test(start_paused = true)]
async fn a_burst_that_a_short_wait_drains_is_admitted_whole_and_served_in_full() {
    use super::admission::Reason::StandingQueue;
    let (pool, first) = one_place_of_ten_ms(64).await;
    // Twenty-five at once: the queue stands at the sixth, and its room as it starts standing
    // is the target, 20 service times of delay (20 waiters at one place): twenty wait (the
    // last 200 ms, a wait the 3 s queue_timeout allows many times over), the other five are
    // refused at once.
    let mut waiters: Vec<Option<Checking>> =
        (0..20).map(|_| queue(&pool, Priority::Normal)).collect();
    for _ in 0..5 {
        assert_eq!(refused_as(&pool, Priority::Normal), Some(StandingQueue));
    }
    // No more come: all twenty are served, none dropped (none fresher would take the place).
    // Five refusals at one place make the queue refusing: its room is at its floor, served
    // first come, first served, for the hold (8 service times after the refusals); then newest
    // first while the room shrinks, and first come, first served again once it is at its
    // floor, 19 service times after the queue stood.
    let (order, _held) = serve(first, &mut waiters, 20).await;
    let newest_first: Vec<usize> = (9..20).rev().collect();
    assert_eq!(
        order,
        [&[0, 1, 2, 3, 4, 5, 6][..], &newest_first[..], &[7, 8]].concat()
    );
    let stats = pool.stats();
    assert_eq!(stats.admission.dropped_standing, 0);
    assert_eq!(stats.admission.refused_standing, 5);
}

/// One newcomer, polled once: whether it waits (pushed to `waiters`) or was refused at once for
/// a full standing queue; anything else fails the test.
fn arrive(pool: &Arc<Pool>, waiters: &mut Vec<Option<Checking>>) -> bool {
    let mut newcomer = checking_as(pool, Priority::Normal);
    match poll_once(&mut newcomer) {
        Poll::Pending => {
            waiters.push(Some(newcomer));
            true
        }
        Poll::Ready(Err(CheckoutError::Overloaded {
            reason: super::admission::Reason::StandingQueue,
            ..
        })) => false,
        Poll::Ready(_) => panic!("a newcomer got a place or another refusal"),
    }
}

/// Thirty newcomers to one busy place of 10 ms, one each half millisecond: the queue stands at
/// the sixth (a jump: its room is the target, 20 waiters), 19 wait and the last 11 are refused
/// at once, which makes it refusing. The waiters.
async fn burst_of_thirty(pool: &Arc<Pool>) -> Vec<Option<Checking>> {
    let mut waiters = Vec::new();
    let mut refused = 0;
    for _ in 0..30 {
        if !arrive(pool, &mut waiters) {
            refused += 1;
        }
        tokio::time::advance(Duration::from_micros(500)).await;
    }
    assert_eq!((waiters.len(), refused), (19, 11));
    waiters
}

#[tokio::test(start_paused = true)]
async fn a_burst_past_the_room_whose_last_requests_come_after_a_service_time_is_served_in_full() {
    let (pool, first) = one_place_of_ten_ms(64).await;
    // Thirty, one each half millisecond (one and a half service times): the queue stands at
    // the sixth (a jump: its room is the target, shrinking as it stands), and its last
    // newcomers find the room full: refused at once, two or more, so the queue refuses, while
    // its first waiters have waited over a service time. None of those newcomers would be
    // admitted in their stead (the room, at its floor, holds one waiter, and ten younger wait),
    // so none is dropped for them (lab/runs/2026-12-05-vm-overload-bursts: 13-55 of 120 at once
    // served, where the room admits 80).
    let mut waiters = burst_of_thirty(&pool).await;
    assert!(dropped(&mut waiters).is_empty());
    // No more come: each is served as a place frees, though some fresher waiter is there each
    // time (no newcomer would take the place of one dropped).
    let (order, _held) = serve(first, &mut waiters, 19).await;
    assert_eq!(order.len(), 19);
    let stats = pool.stats();
    assert_eq!(stats.admission.dropped_standing, 0);
    assert_eq!(stats.admission.refused_standing, 11);
}

#[tokio::test(start_paused = true)]
async fn a_burst_on_a_load_under_the_capacity_is_served_in_full_and_so_is_the_load() {
    let (pool, mut held) = one_place_of_ten_ms(64).await;
    // Thirty, one each half millisecond (burst_of_thirty): the queue stands, 19 wait and 11
    // are refused at once, which makes it refusing.
    let mut waiters = burst_of_thirty(&pool).await;
    // Then the app's usual load, half what its place serves: a newcomer every 20 ms, a place
    // freed every 10 ms, from four service times after the burst (until then its own
    // requests are in admission's look-back). Arrivals slower than the place serves are no
    // overload that goes on: each newcomer is admitted up to its deadline (3 s), not judged
    // by the room, and the burst's waiters, overstayed, are not dropped for it
    // (lab/runs/2026-12-05-vm-overload-pressure: before, the first newcomer admitted in their
    // stead dropped them all).
    let (order, slot) = serve(held, &mut waiters, 3).await;
    assert_eq!(order.len(), 3);
    held = slot;
    for _ in 0..10 {
        for _ in 0..2 {
            let (order, slot) = serve(held, &mut waiters, 1).await;
            assert_eq!(order.len(), 1);
            held = slot;
        }
        assert!(
            arrive(&pool, &mut waiters),
            "a newcomer under the capacity waits"
        );
        assert!(dropped(&mut waiters).is_empty());
    }
    // All of them are served: the burst's 19 and the 10 newcomers.
    let (order, _held) = serve(held, &mut waiters, 6).await;
    assert_eq!(order.len(), 6);
    assert!(waiters.iter().all(Option::is_none));
    let stats = pool.stats();
    assert_eq!(stats.admission.dropped_standing, 0);
    assert_eq!(stats.admission.refused_standing, 11);
}

#[tokio::test(start_paused = true)]
async fn under_a_sustained_overload_the_room_shrinks_until_newcomers_are_refused_at_once() {
    let (pool, mut held) = one_place_of_ten_ms(64).await;
    // Six at once make the queue stand; then twice what the place serves: a newcomer every 5
    // ms, a place freed every 10 ms.
    let mut waiters: Vec<Option<Checking>> =
        (0..6).map(|_| queue(&pool, Priority::Normal)).collect();
    let mut admitted = Vec::new();
    for _ in 0..40 {
        let mut step = Vec::new();
        tokio::time::advance(Duration::from_millis(5)).await;
        step.push(arrive(&pool, &mut waiters));
        tokio::time::advance(Duration::from_millis(5)).await;
        step.push(arrive(&pool, &mut waiters));
        dropped(&mut waiters);
        drop(held);
        // The place goes to the newest waiter; those that overstayed are dropped as it frees.
        let mut served = Vec::new();
        for (index, waiter) in waiters.iter_mut().enumerate() {
            let Some(future) = waiter else { continue };
            match poll_once(future) {
                Poll::Ready(Ok(Checkout::Connect(slot))) => served.push(slot),
                Poll::Ready(Err(CheckoutError::Overloaded {
                    reason: super::admission::Reason::StandingDrop,
                    ..
                })) => {}
                Poll::Ready(_) => panic!("waiter {index} got something else"),
                Poll::Pending => continue,
            }
            *waiter = None;
        }
        held = served.pop().expect("one waiter served");
        assert!(served.is_empty(), "one place went to one waiter");
        admitted.push(step);
    }
    // While the room (20 service times at first, one less per service time) is larger than
    // the queue, which grows by one waiter per service time, every newcomer waits...
    assert!(
        admitted[..6].iter().flatten().all(|&waits| waits),
        "{admitted:?}"
    );
    // ...and once it has shrunk to one service time, one newcomer of each two is refused at
    // once, the other admitted and served within the service time.
    for (index, step) in admitted.iter().enumerate().skip(20) {
        assert_eq!(step, &[true, false], "step {index}: {admitted:?}");
    }
}

#[tokio::test(start_paused = true)]
async fn without_a_declared_capacity_a_standing_queue_stays_fifo() {
    let pool = pool(settings(1, 0, 8));
    let Ok(Checkout::Connect(first)) = pool.checkout(false, Priority::Normal, || None).await else {
        panic!("the first checkout gets the only place");
    };
    let mut waiters: Vec<Option<Checking>> = (0..3).map(|_| Some(checking(&pool, false))).collect();
    assert!(granted(&mut waiters).is_empty());
    tokio::time::advance(Duration::from_secs(1)).await;
    let mut order = Vec::new();
    let mut slot = first;
    for _ in 0..3 {
        drop(slot);
        let mut served = granted(&mut waiters);
        let (index, next) = served.pop().expect("one waiter served");
        order.push(index);
        slot = next;
    }
    assert_eq!(order, [0, 1, 2]);
}

/// Frees the place `held` and then every place granted after it, one at a time: the indexes
/// of the waiters, in the order they were served.
fn order_of_grants(mut held: Slot, waiters: &mut [Option<Checking>]) -> Vec<usize> {
    let mut order = Vec::new();
    loop {
        drop(held);
        let mut served = granted(waiters);
        let Some((index, slot)) = served.pop() else {
            return order;
        };
        assert!(served.is_empty(), "one place went to one waiter");
        order.push(index);
        held = slot;
    }
}

#[tokio::test(start_paused = true)]
async fn a_freed_place_goes_to_the_highest_class_with_a_live_waiter() {
    use Priority::{High, Low, Normal};
    let pool = pool(settings(1, 0, 8));
    let Ok(Checkout::Connect(first)) = pool.checkout(false, Normal, || None).await else {
        panic!("the first checkout gets the only place");
    };
    let classes = [Low, Normal, High, Low, High, Normal];
    let mut waiters: Vec<Option<Checking>> = classes
        .iter()
        .map(|&class| Some(checking_as(&pool, class)))
        .collect();
    assert!(granted(&mut waiters).is_empty(), "all six wait");
    assert_eq!(pool.stats().waiting, 6);
    // The older high waiter's client left.
    waiters[2] = None;
    assert_eq!(
        order_of_grants(first, &mut waiters),
        [4, 1, 5, 0, 3],
        "high, then normal, then low; first come first served in each"
    );
}

/// A pool of one place with a declared capacity (`queue_size` waiters at most), taught 10 ms of
/// service (a target of 200 ms of delay: 20 waiters), and its place, held.
async fn one_place_of_ten_ms(queue_size: usize) -> (Arc<Pool>, Slot) {
    let pool = pool(PoolSettings {
        predict: true,
        ..settings(1, 0, queue_size)
    });
    teach(&pool, Duration::from_millis(10)).await;
    let Ok(Checkout::Connect(busy)) = pool.checkout(false, Priority::Normal, || None).await else {
        panic!("the place");
    };
    (pool, busy)
}

/// Eight requests came now besides those the test follows: the rest of an overload that goes
/// on (each would queue or be refused; admission counts only when they came). With them the
/// last four service times brought at least what one or two places serve in them, and the
/// last service time twice what they serve in it: a standing queue judges newcomers by its
/// room and drops its overstayed only then (a burst on top of a load under the capacity is no
/// overload that goes on).
fn overload_goes_on(pool: &Arc<Pool>) {
    let mut state = pool.lock();
    for _ in 0..8 {
        state.admission.arrived(tokio::time::Instant::now());
    }
}

/// Asks for a place as `priority`: the reason it is refused at once (`None`: it got one, or
/// waits).
fn refused_as(pool: &Arc<Pool>, priority: Priority) -> Option<super::admission::Reason> {
    match poll_once(&mut checking_as(pool, priority)) {
        Poll::Ready(Err(CheckoutError::Overloaded { reason, .. })) => Some(reason),
        _ => None,
    }
}

#[tokio::test(start_paused = true)]
async fn a_full_standing_queue_makes_room_for_a_higher_class_only_and_never_drops_a_high_waiter() {
    use super::admission::Reason::StandingQueue;
    use Priority::{High, Low, Normal};
    let (pool, busy) = one_place_of_ten_ms(64).await;
    // Three low requests, then seventeen normal ones, at once: standing, and its room as it
    // starts standing (20 service times: 20 waiters at one place) is full.
    let mut waiters: Vec<Option<Checking>> = (0..20)
        .map(|index| queue(&pool, if index < 3 { Low } else { Normal }))
        .collect();
    // A newcomer that outranks a waiter takes the place of the oldest of the lowest class
    // below its own; one that outranks none is refused at once. (The two displaced make the
    // queue refusing, two per place: its room is at its floor from then on.)
    waiters.push(queue(&pool, High));
    waiters.push(queue(&pool, Normal));
    assert_eq!(refused_as(&pool, Low), Some(StandingQueue));
    waiters.push(queue(&pool, High));
    assert_eq!(refused_as(&pool, Normal), Some(StandingQueue));
    assert_eq!(dropped(&mut waiters), [0, 1, 2]);
    // A service time later a place frees: the high class first, first come, first served at
    // the floor.
    let (order, held) = serve(busy, &mut waiters, 1).await;
    assert_eq!(order, [20]);
    // Past one service time of wait the normal waiters overstayed, but a normal newcomer
    // would wait behind the high one, over the room (at its floor: the queue refuses), even
    // were they gone: it is refused at once, and none is dropped for it.
    tokio::time::advance(Duration::from_millis(1)).await;
    overload_goes_on(&pool);
    assert_eq!(refused_as(&pool, Normal), Some(StandingQueue));
    assert!(dropped(&mut waiters).is_empty());
    let (order, held) = serve(held, &mut waiters, 1).await;
    assert_eq!(order, [22]);
    // Once the place frees within half a service time (4 ms of 10.2) a normal newcomer is
    // admitted in their stead: the normal waiters that overstayed are dropped for it, the high
    // ones never were.
    tokio::time::advance(Duration::from_millis(6)).await;
    overload_goes_on(&pool);
    waiters.push(queue(&pool, Normal));
    let mut overstayed: Vec<usize> = (3..20).collect();
    overstayed.push(21);
    assert_eq!(dropped(&mut waiters), overstayed);
    let (order, _held) = serve(held, &mut waiters, 1).await;
    assert_eq!(order, [23]);
    let stats = pool.stats();
    assert_eq!(stats.admission.dropped_standing, 21);
    assert_eq!(stats.admission.refused_standing, 3);
}

#[tokio::test(start_paused = true)]
async fn a_full_standing_queue_of_high_waiters_refuses_a_normal_newcomer_and_admits_a_high_one() {
    use super::admission::Reason::{QueueFull, StandingQueue};
    use Priority::{High, Normal};
    let (pool, _busy) = one_place_of_ten_ms(21).await;
    let mut waiters: Vec<Option<Checking>> = (0..20).map(|_| queue(&pool, High)).collect();
    assert_eq!(refused_as(&pool, Normal), Some(StandingQueue));
    // A high request is refused only past its deadline (none here) or `queue_size` (21).
    waiters.push(queue(&pool, High));
    assert_eq!(refused_as(&pool, High), Some(QueueFull));
    assert!(dropped(&mut waiters).is_empty());
    assert_eq!(pool.stats().waiting, 21);
}

/// Polls every waiter once: those that finished, with what they got.
fn finished(waiters: &mut [Option<Checking>]) -> Vec<(usize, Result<Checkout, CheckoutError>)> {
    let mut finished = Vec::new();
    for (index, waiter) in waiters.iter_mut().enumerate() {
        let Some(future) = waiter else { continue };
        if let Poll::Ready(result) = poll_once(future) {
            *waiter = None;
            finished.push((index, result));
        }
    }
    finished
}

/// The requests in flight the pool counts, against what is really there: `held` places and
/// the checkouts still in progress (a waiter dropped or granted holds its unit until it reads
/// its answer).
fn assert_in_flight(pool: &Pool, held: usize, waiters: &[Option<Checking>]) {
    let live = waiters.iter().flatten().count();
    assert_eq!(pool.outstanding(), held + live);
    assert_eq!(pool.stats().outstanding, held + live);
}

#[tokio::test(start_paused = true)]
async fn every_way_out_of_a_standing_queue_gives_its_unit_of_outstanding_back_once() {
    use super::admission::Reason::StandingQueue;
    use Priority::{High, Low, Normal};
    let (pool, busy) = one_place_of_ten_ms(64).await;
    // Three low, then seventeen normal at once: the queue stands, its room (20 waiters) full.
    let mut waiters: Vec<Option<Checking>> = (0..20)
        .map(|index| queue(&pool, if index < 3 { Low } else { Normal }))
        .collect();
    assert_in_flight(&pool, 1, &waiters);
    // Refused at once (a low newcomer outranks no waiter): never counted.
    assert_eq!(refused_as(&pool, Low), Some(StandingQueue));
    assert_in_flight(&pool, 1, &waiters);
    // Displaced by a higher class: the oldest low waiter's unit goes back as it reads its 503.
    waiters.push(queue(&pool, High));
    assert_in_flight(&pool, 1, &waiters);
    assert_eq!(dropped(&mut waiters), [0]);
    assert_in_flight(&pool, 1, &waiters);
    // Displaced, and its client left before it read the 503: the unit goes back once, with
    // the cancelled checkout.
    waiters.push(queue(&pool, Normal));
    waiters[1] = None;
    assert_in_flight(&pool, 1, &waiters);
    // Cancelled while waiting.
    waiters[5] = None;
    assert_in_flight(&pool, 1, &waiters);
    // Granted: the high waiter's unit moves onto its slot as it reads the grant (the place,
    // held no time, makes the service time 8 ms).
    drop(busy);
    assert_in_flight(&pool, 0, &waiters);
    let Some((20, Ok(Checkout::Connect(slot)))) = finished(&mut waiters).pop() else {
        panic!("the high waiter gets the place");
    };
    assert_in_flight(&pool, 1, &waiters);
    // Past one service time, while the queue refuses newcomers, a newcomer admitted in their
    // stead (the place frees within half a service time) drops the normal and low waiters
    // that overstayed.
    tokio::time::advance(Duration::from_millis(9)).await;
    overload_goes_on(&pool);
    waiters.push(queue(&pool, Normal));
    assert_in_flight(&pool, 1, &waiters);
    let overstayed: Vec<usize> = (2..22).filter(|&index| index != 5 && index != 20).collect();
    assert_eq!(dropped(&mut waiters), overstayed);
    assert_in_flight(&pool, 1, &waiters);
    drop(slot);
    let Some((22, Ok(Checkout::Connect(slot)))) = finished(&mut waiters).pop() else {
        panic!("the newcomer gets the place");
    };
    assert_in_flight(&pool, 1, &waiters);
    // The last waits out its queue time (a high one is admitted over the room).
    waiters.push(queue(&pool, High));
    tokio::time::advance(Duration::from_secs(3)).await;
    let Some((23, Err(CheckoutError::QueueTimeout { waited, .. }))) = finished(&mut waiters).pop()
    else {
        panic!("the last waiter times out");
    };
    assert_eq!(
        waited,
        Duration::from_secs(3),
        "its wait, for the access log"
    );
    assert_in_flight(&pool, 1, &waiters);
    drop(slot);
    assert_in_flight(&pool, 0, &waiters);
    let stats = pool.stats();
    assert_eq!(
        (stats.waiting, stats.in_use, stats.queue_timeouts),
        (0, 0, 1)
    );
    assert_eq!(stats.admission.dropped_standing, 20);
    assert_eq!(stats.admission.refused_standing, 1);

    // Not dropped at the grant: a place frees with a fresher waiter there, and the waiter that
    // overstayed gets it all the same (no newcomer is admitted in its stead). At its floor,
    // the room of one place holds one normal waiter at most, so this takes two places (10 ms
    // of service: a room of 40 waiters as the queue stands, 2 at its floor).
    let pool = self::pool(PoolSettings {
        predict: true,
        ..settings(2, 0, 64)
    });
    teach(&pool, Duration::from_millis(10)).await;
    let mut held = Vec::new();
    for _ in 0..2 {
        let Ok(Checkout::Connect(slot)) = pool.checkout(false, Normal, || None).await else {
            panic!("a place");
        };
        held.push(slot);
    }
    // Forty wait, four are refused (two per place): the queue refuses.
    let mut waiters: Vec<Option<Checking>> = (0..40).map(|_| queue(&pool, Normal)).collect();
    for _ in 0..4 {
        assert_eq!(refused_as(&pool, Normal), Some(StandingQueue));
    }
    // 11 ms later, the overload going on, a newcomer's arrival drops the forty, who
    // overstayed, and it waits (the places were taken a service time ago: they free at any
    // moment); 4 ms later another.
    tokio::time::advance(Duration::from_millis(11)).await;
    overload_goes_on(&pool);
    waiters.push(queue(&pool, Normal));
    assert_eq!(dropped(&mut waiters), (0..40).collect::<Vec<usize>>());
    tokio::time::advance(Duration::from_millis(4)).await;
    waiters.push(queue(&pool, Normal));
    assert_in_flight(&pool, 2, &waiters);
    // 10 ms later a place frees (held 25 ms: the service time, and the sojourn cap, 13 ms):
    // the first waited 14 ms, over it, the second 10 ms: the first gets the place, first come,
    // first served at the floor.
    tokio::time::advance(Duration::from_millis(10)).await;
    drop(held.pop());
    assert_in_flight(&pool, 1, &waiters);
    let mut answered = finished(&mut waiters);
    let Some((40, Ok(Checkout::Connect(slot)))) = answered.pop() else {
        panic!("the first waiter gets the place");
    };
    assert!(answered.is_empty(), "one granted, none dropped");
    assert_in_flight(&pool, 2, &waiters);
    drop(slot);
    let Some((41, Ok(Checkout::Connect(slot)))) = finished(&mut waiters).pop() else {
        panic!("the second waiter gets the place");
    };
    drop(slot);
    drop(held);
    assert_in_flight(&pool, 0, &waiters);
    let stats = pool.stats();
    assert_eq!((stats.waiting, stats.in_use), (0, 0));
    assert_eq!(stats.admission.dropped_standing, 40);
    assert_eq!(stats.admission.refused_standing, 4);
}

/// One step of a run.
#[derive(Debug, Clone)]
enum Step {
    /// A request asks for a connection (`fresh`: the retry after a stale one).
    Checkout { fresh: bool, priority: Priority },
    /// One await point of the n-th checkout in progress.
    Poll(usize),
    /// The n-th checkout in progress is dropped where it is (its client left).
    Cancel(usize),
    /// The n-th held slot connects: it becomes a connection in use.
    Connect(usize),
    /// The n-th connection in use finished its exchange and goes back to the pool.
    Checkin(usize),
    /// The n-th connection or slot in use is dropped (an error, a cancelled request).
    Drop(usize),
    /// The server closes the n-th connection it holds (idle or not).
    ServerCloses(usize),
    /// Time passes (queue time-outs, idle expiry), and the reaper runs.
    Advance { millis: u64 },
    /// The n-th connection in use got its response head: a 200, or a 502 (`failed`); the
    /// adaptive limit (async workers) learns from it when its place is given back.
    Answer { index: usize, failed: bool },
    /// A reload that changed the upstream: a new pool takes the requests from now on, while
    /// the old one keeps what it holds until that is given back.
    Reload,
    /// weir's health check asks for a place, waiting at most `patience_ms`.
    HealthCheck { patience_ms: u64 },
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        3 => proptest::sample::select(&Priority::ALL[..])
            .prop_map(|priority| Step::Checkout { fresh: false, priority }),
        1 => Just(Step::Checkout { fresh: true, priority: Priority::Normal }),
        4 => (0usize..8).prop_map(Step::Poll),
        2 => (0usize..8).prop_map(Step::Cancel),
        3 => (0usize..8).prop_map(Step::Connect),
        3 => (0usize..8).prop_map(Step::Checkin),
        2 => (0usize..8).prop_map(Step::Drop),
        1 => (0usize..16).prop_map(Step::ServerCloses),
        1 => (0u64..4_000).prop_map(|millis| Step::Advance { millis }),
        2 => (0usize..8, proptest::bool::weighted(0.3))
            .prop_map(|(index, failed)| Step::Answer { index, failed }),
        1 => Just(Step::Reload),
        1 => (0u64..4_000).prop_map(|patience_ms| Step::HealthCheck { patience_ms }),
    ]
}

/// Steps that fill a standing queue: many requests, places held and freed over a few
/// milliseconds (the service time the pool learns), so that the queue stands, refuses newcomers
/// to its full room, displaces lower classes and drops the waiters that overstayed.
fn standing_step() -> impl Strategy<Value = Step> {
    prop_oneof![
        12 => proptest::sample::select(&Priority::ALL[..])
            .prop_map(|priority| Step::Checkout { fresh: false, priority }),
        3 => (0usize..32).prop_map(Step::Poll),
        1 => (0usize..32).prop_map(Step::Cancel),
        1 => (0usize..8).prop_map(Step::Connect),
        1 => (0usize..8).prop_map(Step::Checkin),
        2 => (0usize..8).prop_map(Step::Drop),
        4 => (0u64..15).prop_map(|millis| Step::Advance { millis }),
        1 => (0u64..4_000).prop_map(|millis| Step::Advance { millis }),
        1 => (0u64..40).prop_map(|patience_ms| Step::HealthCheck { patience_ms }),
    ]
}

type CheckWait = Pin<Box<dyn Future<Output = Option<CheckPlace>>>>;

/// What one pool's requests (and health checks) hold.
#[derive(Default)]
struct Held {
    checking: Vec<Checking>,
    slots: Vec<Slot>,
    conns: Vec<Pooled>,
    /// Health checks waiting for a place, and those holding one.
    check_waits: Vec<CheckWait>,
    check_places: Vec<CheckPlace>,
}

impl Held {
    fn take(&mut self, result: Result<Checkout, CheckoutError>) {
        match result {
            Ok(Checkout::Connect(slot)) => self.slots.push(slot),
            Ok(Checkout::Reused(conn)) => self.conns.push(conn),
            // Queue full or timed out: the request got its 503 and holds nothing.
            Err(_) => {}
        }
    }

    /// Polls every checkout once: the ones that were granted a place (or timed out) finish.
    fn settle(&mut self) {
        let mut index = 0;
        while index < self.checking.len() {
            match poll_once(&mut self.checking[index]) {
                Poll::Ready(result) => {
                    drop(self.checking.remove(index));
                    self.take(result);
                }
                Poll::Pending => index += 1,
            }
        }
        let mut index = 0;
        while index < self.check_waits.len() {
            if !self.poll_check(index) {
                index += 1;
            }
        }
    }

    /// Polls the n-th waiting health check once: whether it finished (with a place, or none).
    fn poll_check(&mut self, index: usize) -> bool {
        let context = &mut Context::from_waker(Waker::noop());
        let Poll::Ready(place) = self.check_waits[index].as_mut().poll(context) else {
            return false;
        };
        drop(self.check_waits.remove(index));
        self.check_places.extend(place);
        true
    }

    /// What holds a place: slots, connections and health checks' places.
    fn places(&self) -> usize {
        self.slots.len() + self.conns.len() + self.check_places.len()
    }
}

/// The pool's counters against what is really held, once every checkout saw its grant.
fn check(pool: &Pool, held: &Held, made: usize) -> Result<(), TestCaseError> {
    let stats = pool.stats();
    prop_assert_eq!(stats.in_use, held.places(), "in use: {:?}", stats);
    prop_assert_eq!(
        stats.waiting,
        held.checking.len() + held.check_waits.len(),
        "waiting: {:?}",
        stats
    );
    prop_assert!(stats.idle <= pool.settings.max_idle, "idle: {:?}", stats);
    prop_assert!(
        stats.open <= pool.settings.max_connections,
        "max_connections: {:?}",
        stats
    );
    // Every idle connection the pool keeps is one the test made (and has not closed on its
    // own side): none is counted twice or made up.
    prop_assert!(stats.idle <= made, "idle: {:?}", stats);
    Ok(())
}

fn run(
    steps: Vec<Step>,
    max_connections: usize,
    max_idle: usize,
    queue_size: usize,
    predict: bool,
    adaptive: bool,
    taught: Option<Duration>,
) -> Result<(), TestCaseError> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .enable_io()
        .start_paused(true)
        .build()
        .expect("runtime");
    runtime.block_on(async move {
        let settings = PoolSettings {
            predict,
            adaptive_floor: adaptive.then_some(1),
            ..settings(max_connections, max_idle, queue_size)
        };
        // Pools with what their requests hold: the current one last, older ones (kept by a
        // reload while they were in use) before it.
        let mut pools = vec![(pool(settings.clone()), Held::default())];
        if let Some(service) = taught {
            teach(&pools[0].0, service).await;
        }
        let mut servers: Vec<UnixStream> = Vec::new();
        let mut made = 0;
        for step in steps {
            let before: Vec<PoolStats> = pools.iter().map(|(pool, _)| pool.stats()).collect();
            let (pool, held) = pools.last_mut().expect("one pool at least");
            match step {
                Step::Checkout { fresh, priority } => {
                    let mut future = checking_with(pool, fresh, priority);
                    match poll_once(&mut future) {
                        Poll::Ready(result) => held.take(result),
                        Poll::Pending => held.checking.push(future),
                    }
                }
                Step::Poll(index) => {
                    let count = held.checking.len() + held.check_waits.len();
                    if count > 0 {
                        let index = index % count;
                        if index >= held.checking.len() {
                            held.poll_check(index - held.checking.len());
                        } else if let Poll::Ready(result) = poll_once(&mut held.checking[index]) {
                            drop(held.checking.remove(index));
                            held.take(result);
                        }
                    }
                }
                Step::Cancel(index) => {
                    let count = held.checking.len() + held.check_waits.len();
                    if count > 0 {
                        let index = index % count;
                        if index >= held.checking.len() {
                            drop(held.check_waits.remove(index - held.checking.len()));
                        } else {
                            drop(held.checking.remove(index));
                        }
                    }
                }
                Step::Connect(index) => {
                    if !held.slots.is_empty() {
                        let slot = held.slots.remove(index % held.slots.len());
                        let (conn, server) = connection();
                        servers.push(server);
                        made += 1;
                        held.conns.push(slot.into_conn(conn));
                    }
                }
                Step::Checkin(index) => {
                    if !held.conns.is_empty() {
                        held.conns.remove(index % held.conns.len()).checkin();
                    }
                }
                Step::Drop(index) => {
                    let count = held.places();
                    if count > 0 {
                        let index = index % count;
                        let conns = held.slots.len() + held.conns.len();
                        if index < held.slots.len() {
                            drop(held.slots.remove(index));
                        } else if index < conns {
                            drop(held.conns.remove(index - held.slots.len()));
                        } else {
                            drop(held.check_places.remove(index - conns));
                        }
                    }
                }
                Step::ServerCloses(index) => {
                    if !servers.is_empty() {
                        drop(servers.remove(index % servers.len()));
                    }
                }
                Step::Advance { millis } => {
                    tokio::time::advance(Duration::from_millis(millis)).await;
                    // Lets the reaper task see the time.
                    tokio::task::yield_now().await;
                }
                Step::Reload => {
                    let next = Pool::new(pool.addr.clone(), pool.settings.clone());
                    next.follow(pool);
                    pools.push((next, Held::default()));
                }
                Step::Answer { index, failed } => {
                    if !held.conns.is_empty() {
                        let index = index % held.conns.len();
                        let status = if failed { 502 } else { 200 };
                        let status = http::StatusCode::from_u16(status).expect("a status");
                        held.conns[index].answered(status, adaptive::Kind::default());
                    }
                }
                Step::HealthCheck { patience_ms } => {
                    let patience = Duration::from_millis(patience_ms);
                    held.check_waits.push(Box::pin(pool.check_place(patience)));
                    held.poll_check(held.check_waits.len() - 1);
                }
            }
            for ((pool, held), before) in pools.iter().zip(&before) {
                let stats = pool.stats();
                prop_assert!(stats.open <= pool.settings.max_connections, "{:?}", stats);
                // A place is taken only under the cap in force (the adaptive limit may have
                // been cut below what is already in use, which then only falls).
                if stats.in_use > before.in_use {
                    prop_assert!(stats.in_use <= stats.limit, "over the limit: {:?}", stats);
                }
                if stats.open > before.open {
                    prop_assert!(stats.open <= stats.limit, "over the limit: {:?}", stats);
                }
                prop_assert!(
                    stats.in_use >= held.places(),
                    "a place held by a request or a health check is not counted: {:?}",
                    stats
                );
                // In flight: every request that waits or holds a place, at every step, however
                // it got there or left (a grant read or unread, a refusal, a time-out, a
                // cancel); the mirror the balancer reads agrees with the count.
                prop_assert_eq!(
                    stats.outstanding,
                    held.checking.len() + held.slots.len() + held.conns.len(),
                    "outstanding: {:?}",
                    stats
                );
                prop_assert_eq!(pool.outstanding(), stats.outstanding);
            }
            // Across reloads the app sees no more than the cap: the newest pool counts the
            // places the older ones hold, so when it takes one, all together are within its cap.
            if before.len() == pools.len() {
                let newest = pools.last().expect("one pool at least").0.stats();
                if newest.in_use > before.last().expect("one pool at least").in_use {
                    let all: usize = pools.iter().map(|(pool, _)| pool.stats().in_use).sum();
                    prop_assert!(all <= newest.limit, "{all} in use over {:?}", newest);
                }
            }
        }
        // The end of the run: every checkout reads what it was handed, then the counters must
        // be exactly what is held; then everything is given back and nothing stays in use.
        for (pool, held) in &mut pools {
            held.settle();
            check(pool, held, made)?;
        }
        for (pool, held) in &mut pools {
            held.checking.clear();
            held.slots.clear();
            held.conns.clear();
            held.check_waits.clear();
            held.check_places.clear();
            let stats = pool.stats();
            prop_assert_eq!(stats.in_use, 0, "a place leaked: {:?}", stats);
            prop_assert_eq!(stats.outstanding, 0, "{:?}", stats);
            prop_assert_eq!(pool.outstanding(), 0);
            prop_assert_eq!(stats.waiting, 0, "{:?}", stats);
            prop_assert_eq!(stats.open, stats.idle, "{:?}", stats);
            // And the whole pool can be used again: every place is had at once.
            let mut again = Held::default();
            for _ in 0..stats.limit {
                let mut future = checking(pool, false);
                match poll_once(&mut future) {
                    Poll::Ready(Ok(checkout)) => again.take(Ok(checkout)),
                    other => prop_assert!(false, "a place is missing: {:?}", other.is_ready()),
                }
            }
        }
        Ok(())
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn the_counters_are_what_is_really_held(
        steps in proptest::collection::vec(step(), 1..80),
        max_connections in 1usize..4,
        max_idle in 0usize..3,
        queue_size in 0usize..4,
        predict in proptest::bool::ANY,
    ) {
        run(steps, max_connections, max_idle, queue_size, predict, false, None)?;
    }

    /// The same with an adaptive limit (async workers, floor 1) that the answers move.
    #[test]
    fn the_counters_are_what_is_really_held_under_an_adaptive_limit(
        steps in proptest::collection::vec(step(), 1..120),
        max_connections in 1usize..6,
        max_idle in 0usize..3,
        queue_size in 0usize..4,
    ) {
        run(steps, max_connections, max_idle, queue_size, true, true, None)?;
    }

    /// The same in a queue that stands (a declared capacity taught 10 ms of service, room for
    /// many waiters): every way a waiter leaves it (refused at once, dropped for overstaying,
    /// displaced by a higher class, cancelled, timed out, granted) gives its unit of
    /// `outstanding` back exactly once.
    #[test]
    fn the_counters_are_what_is_really_held_in_a_standing_queue(
        steps in proptest::collection::vec(standing_step(), 1..160),
        max_connections in 1usize..3,
        max_idle in 0usize..2,
        queue_size in 8usize..48,
    ) {
        let service = Some(Duration::from_millis(10));
        run(steps, max_connections, max_idle, queue_size, true, false, service)?;
    }
}

/// An adaptive pool (async workers, floor 2, ceiling 8) kept busy by a queue, in front of an app
/// with headroom: at each step every request in flight ends after 10 ms with `status` (more
/// concurrency costs no latency), and the waiters take what is free.
struct Busy {
    pool: Arc<Pool>,
    held: Vec<Slot>,
    waiters: Vec<Checking>,
    /// The most places held at once against the limit then, over the run.
    over: usize,
}

impl Busy {
    fn new() -> Busy {
        // Without admission, whose standing-queue cut would refuse some of the waiters.
        let pool = pool(PoolSettings {
            adaptive_floor: Some(2),
            queue_timeout: Duration::from_secs(3600),
            ..settings(8, 0, 64)
        });
        Busy {
            pool,
            held: Vec::new(),
            waiters: Vec::new(),
            over: 0,
        }
    }

    /// `steps` times, the requests in flight end with `status`; returns the limit after each.
    async fn run(&mut self, steps: usize, status: u16) -> Vec<usize> {
        let status = http::StatusCode::from_u16(status).expect("a status");
        let mut limits = Vec::new();
        for _ in 0..steps {
            while self.waiters.len() < 16 {
                self.waiters.push(checking(&self.pool, false));
            }
            let mut index = 0;
            while index < self.waiters.len() {
                match poll_once(&mut self.waiters[index]) {
                    Poll::Ready(Ok(Checkout::Connect(slot))) => {
                        drop(self.waiters.remove(index));
                        self.held.push(slot);
                    }
                    Poll::Ready(_) => panic!("a connect place or a wait, nothing else"),
                    Poll::Pending => index += 1,
                }
            }
            let stats = self.pool.stats();
            assert_eq!(stats.in_use, self.held.len(), "{stats:?}");
            self.over = self.over.max(self.held.len().saturating_sub(stats.limit));
            tokio::time::advance(Duration::from_millis(10)).await;
            for mut ended in std::mem::take(&mut self.held) {
                ended.answered(status, adaptive::Kind::default());
                drop(ended);
            }
            limits.push(self.pool.stats().limit);
        }
        limits
    }
}

#[tokio::test(start_paused = true)]
async fn an_adaptive_limit_grows_while_reached_falls_on_502s_and_grows_back() {
    let mut busy = Busy::new();
    assert_eq!(busy.pool.stats().limit, 2, "starts at the floor");
    let grown = busy.run(100, 200).await;
    assert_eq!(*grown.last().unwrap(), 8, "up to the ceiling: {grown:?}");
    assert_eq!(
        busy.over, 0,
        "never more in use than the limit while it grows"
    );
    let failing = busy.run(100, 502).await;
    assert_eq!(
        *failing.last().unwrap(),
        2,
        "down to the floor: {failing:?}"
    );
    let stats = busy.pool.stats();
    assert!(
        stats.in_use <= 2,
        "the places over the cut closed: {stats:?}"
    );
    assert!(stats
        .adaptive
        .is_some_and(|adaptive| adaptive.cuts_failures > 0));
    busy.over = 0;
    let recovered = busy.run(100, 200).await;
    assert_eq!(*recovered.last().unwrap(), 8, "{recovered:?}");
    assert_eq!(busy.over, 0);
}

#[test]
fn a_packed_outcome_gives_back_what_was_packed() {
    assert_eq!(PackedOutcome::NONE.unpack(), None);
    assert_eq!(
        PackedOutcome::FAILED.unpack(),
        Some(adaptive::Outcome::Failed)
    );
    for micros in [0, 1, 999, 52_000, 1_000_000] {
        assert_eq!(
            PackedOutcome::answered(Duration::from_micros(micros)).unpack(),
            Some(adaptive::Outcome::Answered(Duration::from_micros(micros)))
        );
    }
    // Saturates below FAILED: a very long answer is still an answer.
    let long = PackedOutcome::answered(Duration::from_secs(10_000));
    assert!(matches!(
        long.unpack(),
        Some(adaptive::Outcome::Answered(after)) if after > Duration::from_secs(4_000)
    ));
    assert!(std::mem::size_of::<PackedOutcome>() == 4);
}

/// A pool without a cap (`max_connections` 0, the default) keeps its connections alive: each
/// checkin puts the connection on the idle stack and the next request reuses it. (A cap of 0
/// once read as "over the cap" closed every connection at checkin: upstream keep-alive was
/// lost, which the allocation count found as ten more allocations per proxied request.)
#[tokio::test(start_paused = true)]
async fn without_a_cap_a_checked_in_connection_is_reused() {
    for max_connections in [0, 4] {
        let pool = pool(settings(max_connections, 4, 0));
        let Ok(Checkout::Connect(slot)) = pool.checkout(false, Priority::Normal, || None).await
        else {
            panic!("a place");
        };
        let (conn, _server) = connection();
        slot.into_conn(conn).checkin();
        assert_eq!(pool.stats().idle, 1, "max_connections {max_connections}");
        let Ok(Checkout::Reused(pooled)) = pool.checkout(false, Priority::Normal, || None).await
        else {
            panic!("max_connections {max_connections}: the idle connection is reused");
        };
        pooled.checkin();
        assert_eq!(pool.stats().reuses, 1);
        assert_eq!(pool.stats().open, 1);
    }
}

/// A request counts as in flight to its server from its checkout, while it waits for a place
/// too, until it gives the place back; an upgraded connection (a tunnel) keeps its place but is
/// no request in flight.
#[tokio::test(start_paused = true)]
async fn the_pool_counts_requests_in_flight_waiting_or_holding_a_place_until_an_upgrade() {
    let pool = pool(settings(1, 1, 8));
    let Ok(Checkout::Connect(slot)) = pool.checkout(false, Priority::Normal, || None).await else {
        panic!("the first checkout gets the only place");
    };
    assert_eq!(pool.outstanding(), 1);
    let mut waiter = checking(&pool, false);
    assert!(poll_once(&mut waiter).is_pending());
    assert_eq!(pool.outstanding(), 2, "the waiter counts");
    let (conn, _server) = connection();
    slot.into_conn(conn).checkin();
    assert_eq!(
        pool.outstanding(),
        1,
        "the first request ended; its connection went to the waiter, still counted once"
    );
    let Poll::Ready(Ok(Checkout::Reused(conn))) = poll_once(&mut waiter) else {
        panic!("the waiter was handed the connection");
    };
    assert_eq!(
        pool.outstanding(),
        1,
        "the grant read moves the count, not adds to it"
    );
    let (client, slot) = conn.into_upgraded();
    assert_eq!(pool.outstanding(), 0, "a tunnel is no request in flight");
    assert_eq!(pool.stats().in_use, 1, "but it keeps its place");
    drop((client, slot));
    assert_eq!(pool.stats().outstanding, 0);
    assert_eq!(pool.stats().in_use, 0);

    // A waiter that times out, and one whose client leaves, count no more.
    let Ok(Checkout::Connect(slot)) = pool.checkout(false, Priority::Normal, || None).await else {
        panic!("the place is free again");
    };
    let mut timing_out = checking(&pool, false);
    let mut leaving = checking(&pool, false);
    assert!(poll_once(&mut timing_out).is_pending() && poll_once(&mut leaving).is_pending());
    assert_eq!(pool.outstanding(), 3);
    drop(leaving);
    assert_eq!(pool.outstanding(), 2);
    tokio::time::advance(Duration::from_secs(4)).await;
    assert!(matches!(
        poll_once(&mut timing_out),
        Poll::Ready(Err(CheckoutError::QueueTimeout { .. }))
    ));
    assert_eq!(pool.outstanding(), 1);
    drop(slot);
    assert_eq!(pool.outstanding(), 0);
}

/// A pool with no shared decision (no cap, one runtime per core) takes no lock per request and
/// no reference on the pool: the idle connection keeps its slot, and the pool's reference in
/// it, from check-in to the next checkout and back. Seen failing before `pool/local.rs`: the
/// reference count went 1 -> 2 -> 1 around each request, and two locks were taken per request.
#[tokio::test(start_paused = true)]
async fn without_a_shared_decision_a_request_takes_no_lock_and_no_reference_on_the_pool() {
    let pool = per_thread(4);
    let Ok(Checkout::Connect(slot)) = pool.checkout(false, Priority::Normal, || None).await else {
        panic!("a place");
    };
    let (conn, _server) = connection();
    slot.into_conn(conn).checkin();
    let references = Arc::strong_count(&pool);
    let locks = locks_taken();
    for _ in 0..3 {
        let Ok(Checkout::Reused(pooled)) = pool.checkout(false, Priority::Normal, || None).await
        else {
            panic!("the idle connection is reused");
        };
        assert_eq!(Arc::strong_count(&pool), references, "no reference taken");
        assert_eq!(pool.outstanding(), 1);
        pooled.checkin();
        assert_eq!(Arc::strong_count(&pool), references, "none given back");
    }
    assert_eq!(locks_taken(), locks, "no lock taken");
    let stats = pool.stats();
    assert_eq!(
        (stats.outstanding, stats.open, stats.idle, stats.in_use),
        (0, 1, 1, 0)
    );
    assert_eq!((stats.connects, stats.reuses), (1, 3));

    // A connection that closes (dropped with its slot) and an upgraded one are counted out too.
    let Ok(Checkout::Reused(pooled)) = pool.checkout(false, Priority::Normal, || None).await else {
        panic!("reused");
    };
    drop(pooled);
    let Ok(Checkout::Connect(slot)) = pool.checkout(false, Priority::Normal, || None).await else {
        panic!("nothing idle: a new connection");
    };
    let (conn, _server) = connection();
    let (client, slot) = slot.into_conn(conn).into_upgraded();
    assert_eq!(pool.outstanding(), 0, "a tunnel is no request in flight");
    assert_eq!(pool.stats().in_use, 1, "but it keeps its place");
    drop((client, slot));
    let stats = pool.stats();
    assert_eq!((stats.outstanding, stats.open, stats.idle), (0, 0, 0));
}

/// Without a shared decision, `max_idle` is per thread (as nginx's `keepalive N` is per worker
/// process), and a thread never reuses another thread's connection (its driver task lives on the
/// other thread's runtime). Two threads, each its own single-threaded runtime, park `max_idle`
/// connections each: all are kept. Seen failing before `pool/local.rs` (2 of 4 were kept:
/// `max_idle` counted all threads).
#[test]
fn without_a_shared_decision_each_thread_keeps_max_idle_connections_of_its_own() {
    // Made in a runtime (a pool with shared state starts its reaper in it); not run after.
    let main = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    let pool = main.block_on(async { per_thread(2) });
    let parked = std::sync::Barrier::new(3);
    let counted = std::sync::Barrier::new(3);
    std::thread::scope(|scope| {
        for _ in 0..2 {
            scope.spawn(|| {
                let runtime = tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                    .expect("a runtime");
                runtime.block_on(async {
                    let mut servers = Vec::new();
                    let mut held = Vec::new();
                    for _ in 0..2 {
                        let Ok(Checkout::Connect(slot)) =
                            pool.checkout(false, Priority::Normal, || None).await
                        else {
                            panic!("nothing idle on this thread: a new connection");
                        };
                        let (conn, server) = connection();
                        servers.push(server);
                        held.push(slot.into_conn(conn));
                    }
                    for conn in held {
                        conn.checkin();
                    }
                    parked.wait();
                    counted.wait();
                    let Ok(Checkout::Reused(pooled)) =
                        pool.checkout(false, Priority::Normal, || None).await
                    else {
                        panic!("this thread's own idle connection is reused");
                    };
                    pooled.checkin();
                });
            });
        }
        parked.wait();
        let stats = pool.stats();
        // Asserted once the threads go on, so that a failure cannot leave them at the barrier.
        counted.wait();
        assert_eq!((stats.open, stats.idle, stats.connects), (4, 4, 4));
    });
    assert_eq!(pool.stats().reuses, 2);
}

/// A thread's idle connections close after `idle_timeout` with no request to find them: the
/// thread's reaper closes them (the server sees the end), and stops once none is left.
#[tokio::test(start_paused = true)]
async fn without_a_shared_decision_a_threads_idle_connections_close_after_idle_timeout() {
    use tokio::io::AsyncReadExt;
    let pool = per_thread(4);
    let Ok(Checkout::Connect(slot)) = pool.checkout(false, Priority::Normal, || None).await else {
        panic!("a place");
    };
    let (conn, mut server) = connection();
    slot.into_conn(conn).checkin();
    assert_eq!(pool.stats().idle, 1);
    tokio::time::sleep(Duration::from_secs(6)).await;
    assert_eq!((pool.stats().idle, pool.stats().open), (0, 0));
    assert_eq!(
        Arc::strong_count(&pool),
        1,
        "the idle connection held the pool"
    );
    let mut byte = [0u8; 1];
    assert_eq!(server.read(&mut byte).await.expect("a read"), 0, "closed");
}

/// A thread's idle connection that the server closed is found at the next checkout, closed and
/// passed over, and the counts say so: one new connection open, none idle.
#[tokio::test(start_paused = true)]
async fn without_a_shared_decision_an_idle_connection_the_server_closed_is_passed_over() {
    let pool = per_thread(4);
    let Ok(Checkout::Connect(slot)) = pool.checkout(false, Priority::Normal, || None).await else {
        panic!("a place");
    };
    let (conn, server) = connection();
    slot.into_conn(conn).checkin();
    drop(server);
    let Ok(Checkout::Connect(slot)) = pool.checkout(false, Priority::Normal, || None).await else {
        panic!("the closed connection is passed over: a new one");
    };
    let stats = pool.stats();
    assert_eq!(
        (stats.open, stats.idle, stats.in_use, stats.outstanding),
        (1, 0, 1, 1)
    );
    drop(slot);
    let stats = pool.stats();
    assert_eq!((stats.open, stats.idle, stats.outstanding), (0, 0, 0));
    assert_eq!((stats.connects, stats.reuses), (2, 0));
}

/// Polls a health check's wait for a place once.
fn poll_check(wait: &mut CheckWait) -> Poll<Option<CheckPlace>> {
    wait.as_mut().poll(&mut Context::from_waker(Waker::noop()))
}

/// weir's health check of a capped server takes a place in its pool: the first freed, ahead of
/// the requests waiting, and it gives it back to them with no sample of service time and no
/// unit of `outstanding` (a check is no request).
#[tokio::test(start_paused = true)]
async fn a_health_check_waits_for_a_place_ahead_of_requests_and_gives_it_back() {
    let pool = pool(settings(1, 0, 8));
    let Ok(Checkout::Connect(first)) = pool.checkout(false, Priority::Normal, || None).await else {
        panic!("the first checkout gets the only place");
    };
    let mut request = queue(&pool, Priority::Normal);
    let mut check: CheckWait = Box::pin(pool.check_place(Duration::from_secs(1)));
    assert!(poll_check(&mut check).is_pending(), "the check waits too");
    let stats = pool.stats();
    // In flight: the request holding the place and the one waiting, not the check.
    assert_eq!((stats.waiting, stats.outstanding), (2, 2), "{stats:?}");

    tokio::time::advance(Duration::from_millis(10)).await;
    drop(first);
    let Poll::Ready(Some(place)) = poll_check(&mut check) else {
        panic!("the freed place goes to the check, which came after the request");
    };
    assert!(granted(std::slice::from_mut(&mut request)).is_empty());
    let stats = pool.stats();
    assert_eq!(
        (stats.open, stats.in_use, stats.waiting),
        (1, 1, 1),
        "{stats:?}"
    );
    assert_eq!(
        stats.outstanding, 1,
        "the request waiting, not the check: {stats:?}"
    );

    tokio::time::advance(Duration::from_millis(500)).await;
    drop(place);
    let mut served = granted(std::slice::from_mut(&mut request));
    let (_, slot) = served.pop().expect("the check's place goes to the request");
    let stats = pool.stats();
    assert_eq!(
        stats.admission.service_us, 10_000,
        "the check's 500 ms are no service time: {stats:?}"
    );
    drop(slot);
    let stats = pool.stats();
    assert_eq!(
        (stats.open, stats.in_use, stats.waiting, stats.outstanding),
        (0, 0, 0, 0)
    );
}

#[tokio::test(start_paused = true)]
async fn a_health_check_that_gets_no_place_within_its_patience_gives_up_and_holds_nothing() {
    let pool = pool(settings(1, 0, 8));
    let Ok(Checkout::Connect(held)) = pool.checkout(false, Priority::Normal, || None).await else {
        panic!("a place");
    };
    let mut check: CheckWait = Box::pin(pool.check_place(Duration::from_millis(100)));
    assert!(poll_check(&mut check).is_pending());
    tokio::time::advance(Duration::from_millis(100)).await;
    assert!(
        matches!(poll_check(&mut check), Poll::Ready(None)),
        "no place came"
    );
    assert_eq!(pool.stats().waiting, 0);
    drop(held);
    let stats = pool.stats();
    assert_eq!(
        (stats.open, stats.in_use),
        (0, 0),
        "the place did not go to the check: {stats:?}"
    );

    // A check whose wait is dropped after its grant was sent gives the place back.
    let Ok(Checkout::Connect(held)) = pool.checkout(false, Priority::Normal, || None).await else {
        panic!("a place");
    };
    let mut check: CheckWait = Box::pin(pool.check_place(Duration::from_secs(1)));
    assert!(poll_check(&mut check).is_pending());
    drop(held);
    drop(check);
    let stats = pool.stats();
    assert_eq!(
        (stats.open, stats.in_use, stats.waiting),
        (0, 0, 0),
        "{stats:?}"
    );
}

#[tokio::test(start_paused = true)]
async fn a_health_check_closes_an_idle_connection_to_take_its_place_when_all_are_open() {
    let pool = pool(settings(1, 1, 8));
    let Ok(Checkout::Connect(slot)) = pool.checkout(false, Priority::Normal, || None).await else {
        panic!("a place");
    };
    let (conn, _server) = connection();
    slot.into_conn(conn).checkin();
    assert_eq!((pool.stats().open, pool.stats().idle), (1, 1));
    let mut check: CheckWait = Box::pin(pool.check_place(Duration::from_secs(1)));
    let Poll::Ready(Some(place)) = poll_check(&mut check) else {
        panic!("the check takes the idle connection's place at once");
    };
    let stats = pool.stats();
    assert_eq!(
        (stats.open, stats.idle, stats.in_use),
        (1, 0, 1),
        "{stats:?}"
    );
    drop(place);
    let stats = pool.stats();
    assert_eq!((stats.open, stats.in_use), (0, 0), "{stats:?}");
}
