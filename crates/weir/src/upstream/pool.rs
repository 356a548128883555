//! The pool of connections towards one upstream server.
//!
//! Invariants (checked by the tests through [`Pool::stats`]):
//! - `open` counts every connection that exists or is being connected: idle, in use, connecting;
//!   but for one of async workers past a response head that streams or switched to a tunnel,
//!   whose place was given back then ([`Pooled::streams`]), and which takes a place again at its
//!   end only if one is free. It never exceeds `max_connections` (when that is not 0).
//! - Every connection in use is owned by a [`Slot`], an upgraded one (a tunnel) too until it
//!   ends; dropping the slot (error, cancel, client gone, tunnel closed) either hands the slot
//!   to a live waiter or decrements `open`. (With a cap, a request whose client left while the
//!   app worked on it drops its slot once the app's answer begins: `upstream.rs`' `AtTheApp`.) A place handed to a
//!   waiter travels as a [`Grant`], which owns its slot too: a grant dropped unread (the waiter
//!   was cancelled after the send) gives the place back. So no path leaks a slot.
//! - Idle connections are stacks, one per thread that drives them: the most recently used of the
//!   caller's thread is reused first, the oldest expire first.
//! - Waiters are kept in one queue per priority class (the route's `priority`); a freed place
//!   goes to the highest class with a live waiter, and in it to the oldest, or, with a declared
//!   capacity, in admission's order ([`admission::Order`]: the newest, but the oldest once it
//!   waited the guard while the queue does not stand, or once a standing queue's room is at its
//!   floor: after it shrank, or at once while the queue refuses). One that gave up (timed out,
//!   cancelled) is skipped. While the queue stands and refuses (two refusals per place
//!   lately), waiters of the normal and low classes that waited over admission's sojourn cap
//!   are dropped at the head (503) when a newcomer comes that is then admitted in their
//!   stead (never as a place frees: with no newcomer, a drop frees nothing for anyone),
//!   and a newcomer that finds admission's room full (or, at its floor, its place too far off)
//!   is refused at once (503), unless it outranks a waiter: then the oldest waiter of the
//!   lowest class below its own is dropped (503) to make room; high waiters are never dropped.
//! - With `predict` (a declared capacity), a request that would wait longer than its deadline,
//!   by the wait [`admission`] predicts, is refused before it joins the queue, so the queue
//!   holds only requests that can be served in time; but while the server refuses connections
//!   ([`Pool::refusing_since`]: restarting) nothing is predicted or dropped, and the queue
//!   admits up to `queue_size` (`fail_timeout` bounds that wait, in `upstream.rs`).
//!
//! - `outstanding` counts the requests in flight to the server, from the checkout's first lock
//!   (a place had at once, or a place in the queue) to the place given back (check-in, the
//!   slot's drop), the queue left without a place, or the connection upgraded: what
//!   least-outstanding balancing compares (an async worker's stream leaves it at its head).
//!   Each change is made inside a critical section the
//!   pool takes anyway on that path, so counting costs a request no shared write of its own;
//!   only the rare ways out (a waiter cancelled or refused, an upgrade) take the lock for it.
//!   A waiter holds its unit of the count until it reads its grant, and the grant's slot holds
//!   it from then on (a grant's slot is made uncounted), so no unit is counted twice or lost.
//!
//! - weir's own active health check of a capped server holds a place too, a [`CheckPlace`]
//!   ([`Pool::check_place`]): taken at once when one is free, else waited for as a `high`
//!   waiter that admission does not judge; its drop frees the place as a slot's does, with no
//!   sample of service time or latency and no unit of `outstanding`. So `open` counts it, and
//!   never exceeds the cap for it.
//!
//! - With `adaptive_floor` (async workers), the cap is [`adaptive`]'s limit, from the floor to
//!   `max_connections`, fed with each request's outcome; `open` may stay above a limit that was
//!   just cut until places are freed: a freed place is then closed, not handed on, and idle
//!   connections over the limit are closed before one is reused.
//!
//! - A pool that a reload replaced (its upstream's table changed, the server stayed: the new
//!   pool [`Pool::follow`]s it) passes on to its successor, as its lock is released, the places
//!   it still holds (in use, and those its own predecessor holds): the successor counts them
//!   against its cap (`borrowed`) and hands a place to its waiters only as they free. So across
//!   a reload the app sees no more requests at once than the new cap (nor than the old one while
//!   the old queue drains, as the old pool hands its freed places to its own waiters first).
//!
//! The state sits behind a `std::sync::Mutex` that is never held across an `.await`. A pool
//! takes its successor's lock under its own (passing its places on), never the other way.
//!
//! A pool with no shared decision to make (no cap, one runtime per core) keeps none of this
//! state: its idle connections and counts are per thread ([`local`]), and a request takes no
//! lock.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::ops::{Deref, DerefMut};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, Weak};
use std::time::Duration;

use tokio::sync::oneshot;
use tokio::time::Instant;

use crate::config::{Priority, UpstreamAddr};
use crate::upstream::client::ClientConn;

pub mod adaptive;
pub mod admission;
mod local;

pub(super) use local::lanes;

/// The limits of one pool.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PoolSettings {
    /// Open connections at most; 0 means no limit.
    pub max_connections: usize,
    /// Idle connections kept at most (per thread in a pool with no shared decision: `local`);
    /// 0 disables keep-alive.
    pub max_idle: usize,
    pub idle_timeout: Duration,
    /// Requests that may wait for a connection at most.
    pub queue_size: usize,
    pub queue_timeout: Duration,
    /// Admission by predicted wait ([`admission`]): on when the upstream declares `workers`.
    pub predict: bool,
    /// The adaptive limit's floor (`workers` of async workers): the cap adapts between it and
    /// `max_connections` (`adaptive`). `None`: the cap is `max_connections`.
    pub adaptive_floor: Option<usize>,
    /// Prefer opening a connection of this thread's own over reusing another thread's (with one
    /// runtime per core, where borrowing costs cross-thread wake-ups on every read and write).
    pub thread_affine: bool,
}

impl PoolSettings {
    /// A request's queue deadline: `queue_timeout`, or the shorter wait its client `asked` for.
    pub fn deadline(&self, asked: Option<Duration>) -> Duration {
        asked.map_or(self.queue_timeout, |asked| asked.min(self.queue_timeout))
    }
}

/// Why [`Pool::checkout`] gave no connection. The pool knows no HTTP: the caller makes these a
/// `ProxyError`, and `error.rs` their answer (503).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CheckoutError {
    /// Every place is taken and `queue_size` requests wait already: refused at once.
    #[error("the queue for {addr} is full")]
    QueueFull { addr: UpstreamAddr },
    /// No place became free within `queue_timeout`. `waited`: how long the request queued.
    #[error("no connection to {addr} became free within queue_timeout")]
    QueueTimeout {
        addr: UpstreamAddr,
        waited: Duration,
    },
    /// Refused before queueing (the predicted wait is over the request's deadline, or the queue
    /// stands, is full and holds nothing of the request's class or lower), or dropped from a
    /// standing queue. `retry_after`: when the queue is predicted to drain; `waited`: how long
    /// the request queued first (zero when refused at once).
    #[error("{addr} is overloaded: the predicted wait is over the deadline")]
    Overloaded {
        addr: UpstreamAddr,
        reason: admission::Reason,
        retry_after: Duration,
        waited: Duration,
    },
}

/// A snapshot of a pool's counters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PoolStats {
    /// Requests in flight to the server: waiting for a place or holding one, until the end of
    /// the response body (an upgraded connection leaves the count when it upgrades).
    pub outstanding: usize,
    /// Connections that exist or are being connected.
    pub open: usize,
    /// Open connections waiting in the pool for a request.
    pub idle: usize,
    /// Open connections carrying a request (or being connected for one).
    pub in_use: usize,
    /// Requests waiting for a connection.
    pub waiting: usize,
    /// Requests that gave up waiting (503).
    pub queue_timeouts: u64,
    /// Connections made since start.
    pub connects: u64,
    /// Requests served on a reused connection.
    pub reuses: u64,
    /// The concurrency cap (`max_connections`, the one derived from `workers`, or the adaptive
    /// limit now); 0: none.
    pub limit: usize,
    /// The adaptive limit's figures (async workers only).
    pub adaptive: Option<adaptive::AdaptiveStats>,
    /// Admission counters: refusals by reason, time in queue, predicted wait.
    pub admission: admission::AdmissionStats,
    /// Whether the server refuses connections now: since a connect to it was refused (or a
    /// new connection closed unanswered) with a declared capacity ([`Pool::refusing_since`]),
    /// until a connect succeeds.
    pub refusing: bool,
}

/// The pool of one upstream server.
pub struct Pool {
    addr: UpstreamAddr,
    settings: PoolSettings,
    locked: Locked,
    /// The per-thread counts of a pool with no shared decision ([`local`]); `None`: the pool
    /// keeps its state behind the lock.
    lanes: Option<local::Lanes>,
    /// Whether the server refuses connections now (`State::refusing_since` holds since when):
    /// read without the lock by every connect that succeeds.
    refusing: AtomicBool,
}

/// The pool's state behind its lock, and beside the lock word the mirror of `outstanding` that
/// the balancer reads without locking. The mirror is stored only under the lock, which has just
/// brought this cache line to the storing core: aligned to a line, the two share it, so the
/// store adds no transfer of its own.
#[repr(C, align(64))]
struct Locked {
    outstanding: AtomicUsize,
    state: Mutex<State>,
}

/// The pool's state, locked. As it is released, a pool that a reload replaced passes the places
/// it holds on to its successor, when their number changed ([`Pool::follow`]).
struct Guard<'pool>(MutexGuard<'pool, State>);

impl Deref for Guard<'_> {
    type Target = State;

    fn deref(&self) -> &State {
        &self.0
    }
}

impl DerefMut for Guard<'_> {
    fn deref_mut(&mut self) -> &mut State {
        &mut self.0
    }
}

impl Drop for Guard<'_> {
    fn drop(&mut self) {
        let state = &mut *self.0;
        if state.successor.is_none() {
            return;
        }
        let held = state.held();
        let Some((successor, passed)) = &mut state.successor else {
            return;
        };
        if held == *passed {
            return;
        }
        *passed = held;
        match successor.upgrade() {
            Some(successor) => successor.predecessor_holds(held),
            None => state.successor = None,
        }
    }
}

struct State {
    /// Requests in flight to the server (see the module's invariants).
    outstanding: usize,
    open: usize,
    /// Idle connections, one stack per owner thread (see [`thread_slot`]); each most recent last.
    idle: Vec<Vec<Idle>>,
    /// Idle connections in all stacks.
    idle_count: usize,
    /// Requests waiting for a place, one queue per class ([`Priority::index`]: high first),
    /// each oldest first.
    waiters: [VecDeque<Waiter>; 3],
    queue_timeouts: u64,
    connects: u64,
    reuses: u64,
    admission: admission::Admission,
    adaptive: Option<adaptive::Adaptive>,
    /// The places the pool this one replaced on a reload still holds ([`Pool::follow`]):
    /// counted against the cap as open ones.
    borrowed: usize,
    /// That pool, kept while it holds places: the places its own predecessor holds reach this
    /// pool through it (two reloads in a row), even once nothing else uses it.
    predecessor: Option<Arc<Pool>>,
    /// Since when the server has refused every connection, until one succeeds
    /// ([`Pool::refusing_since`]).
    refusing_since: Option<Instant>,
    /// Whether a request found it refusing past `fail_timeout` since ([`Pool::found_down`]).
    found_down: bool,
    /// The pool that replaced this one on a reload, to which it passes on the places it holds
    /// ([`Guard`]), and the number it last passed.
    successor: Option<(Weak<Pool>, usize)>,
}

impl State {
    /// The cap on `open` now: the adaptive limit, or `max_connections` (0: none).
    fn cap(&self, settings: &PoolSettings) -> usize {
        self.adaptive
            .as_ref()
            .map_or(settings.max_connections, adaptive::Adaptive::limit)
    }

    /// Whether more places are taken than the cap allows (after a cut of the adaptive limit, or
    /// while a replaced pool holds places). A cap of 0 is no cap: nothing is ever over it.
    fn over_cap(&self, settings: &PoolSettings) -> bool {
        let cap = self.cap(settings);
        cap != 0 && self.open + self.borrowed > cap
    }

    /// Whether every place the cap allows is taken (0: no cap, never full).
    fn at_cap(&self, settings: &PoolSettings) -> bool {
        let cap = self.cap(settings);
        cap != 0 && self.open + self.borrowed >= cap
    }

    /// The places this pool holds for the app: its connections in use and being made, and those
    /// its own predecessor holds.
    fn held(&self) -> usize {
        self.open - self.idle_count + self.borrowed
    }

    /// Closes the oldest idle connection, if any: whether one was.
    fn close_oldest_idle(&mut self) -> bool {
        let Some(stack) = self.idle.iter_mut().find(|stack| !stack.is_empty()) else {
            return false;
        };
        stack.remove(0);
        self.idle_count -= 1;
        self.open -= 1;
        true
    }

    /// Feeds the adaptive limit (if any) with the outcome of a request that ends now, counted
    /// in `open` still, and tells admission the cap it predicts with.
    fn record_outcome(&mut self, outcome: Option<(adaptive::Outcome, adaptive::Kind)>) {
        let in_flight = self.open - self.idle_count;
        if let (Some(adaptive), Some((outcome, kind))) = (&mut self.adaptive, outcome) {
            adaptive.record(outcome, in_flight, kind);
            self.admission.set_capacity(adaptive.limit());
        }
    }

    /// Pops the most recent live idle connection of `owner`'s stack, closing dead and expired
    /// ones on the way; counts the reuse.
    fn pop_live(&mut self, owner: usize, now: Instant, idle_timeout: Duration) -> Option<Idle> {
        loop {
            let mut idle = self.idle.get_mut(owner)?.pop()?;
            self.idle_count -= 1;
            // A connection the server closed while idle is found here, when it is wanted: no
            // task watches idle connections.
            if now.duration_since(idle.since) >= idle_timeout || idle.conn.is_closed() {
                self.open -= 1;
                continue;
            }
            self.reuses += 1;
            return Some(idle);
        }
    }
}

/// A request waiting for a place: it is sent the place, or a refusal when it is dropped at the
/// head of a standing queue.
struct Waiter {
    since: Instant,
    sender: oneshot::Sender<Result<Grant, admission::Refusal>>,
}

struct Idle {
    conn: Box<ClientConn>,
    since: Instant,
    /// The thread whose runtime drives the connection (see [`thread_slot`]).
    owner: u32,
}

/// A small number naming the current thread. A connection's driver task lives on the runtime
/// that connected it; with one runtime per core, reusing it from another thread costs a
/// cross-thread wake-up per read and write, so checkout prefers the caller's own connections.
pub(super) fn thread_slot() -> u32 {
    use std::sync::atomic::{AtomicU32, Ordering};
    static NEXT: AtomicU32 = AtomicU32::new(0);
    thread_local! {
        static SLOT: u32 = NEXT.fetch_add(1, Ordering::Relaxed);
    }
    SLOT.with(|slot| *slot)
}

/// What a waiter is handed: the place it waited for, with a live connection in it or without
/// (the right to open one). The grant owns the place through its [`Slot`]: a grant that was sent
/// but never read (the waiter's future was dropped in between: its client left, its request was
/// cancelled) is dropped with the channel, and dropping it gives the place back, to the next
/// waiter or to the pool, wherever that happens.
struct Grant {
    idle: Option<Idle>,
    slot: Slot,
}

impl Grant {
    /// Takes the place back out of a grant that no waiter took, inside `State`'s lock: the
    /// slot must not release itself there (its drop takes the lock).
    fn into_parts(mut self) -> Option<Idle> {
        self.slot.armed = false;
        self.idle.take()
    }
}

/// Where [`Pool::grant_to_waiter`] put a place: with a waiter, or back in the caller's hands
/// (with the connection that was in it, if any).
enum Handed {
    ToWaiter,
    Back(Option<Idle>),
}

/// The right to one of the pool's `max_connections`. Dropping it frees the place.
pub struct Slot {
    pool: Arc<Pool>,
    /// Whether dropping it frees the place. In a checked-out connection it is disarmed only
    /// once its place was given back at the response head ([`Pooled::streams`]).
    armed: bool,
    /// Whether the slot holds its request's unit of `outstanding` (given back with the place).
    /// A grant's slot does not until its waiter reads it; an upgraded one no longer does.
    counted: bool,
    /// When the place was taken: its occupancy is a service-time sample.
    since: Instant,
    /// How long the request waited in the queue for it.
    queued: Duration,
    /// What came of the request, for the adaptive limit.
    outcome: PackedOutcome,
    /// The request's kind, whose baseline its latency is judged by (adaptive limit).
    kind: adaptive::Kind,
}

/// What came of a request ([`adaptive::Outcome`], or no sample: the client left, a stale
/// connection), in 4 bytes: a slot rides in every proxied request's future, and an
/// `Option<Outcome>` there (16 bytes) grew the request phase's future past its ceiling (see
/// `h1::conn`'s size test). 0: no sample; `u32::MAX`: failed; otherwise the time to the
/// response head in microseconds, plus one, saturating at about 71 minutes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct PackedOutcome(u32);

impl PackedOutcome {
    const NONE: PackedOutcome = PackedOutcome(0);
    const FAILED: PackedOutcome = PackedOutcome(u32::MAX);

    fn answered(after: Duration) -> PackedOutcome {
        let micros = u32::try_from(after.as_micros()).unwrap_or(u32::MAX);
        PackedOutcome(micros.saturating_add(1).min(u32::MAX - 1))
    }

    fn unpack(self) -> Option<adaptive::Outcome> {
        match self {
            PackedOutcome::NONE => None,
            PackedOutcome::FAILED => Some(adaptive::Outcome::Failed),
            PackedOutcome(plus_one) => Some(adaptive::Outcome::Answered(Duration::from_micros(
                u64::from(plus_one - 1),
            ))),
        }
    }
}

/// A connection checked out of the pool, carrying one request: the HTTP client side of the
/// connection, and the slot that holds its place in the pool while it is out.
pub struct Pooled {
    /// Boxed once for the connection's life: a checked-out connection moves through the
    /// exchange's futures and results, and its 160 bytes were copied at each move.
    pub client: Box<ClientConn>,
    slot: Slot,
    /// The thread whose runtime drives the connection.
    owner: u32,
    /// Whether the connection served an earlier request (so it may have gone stale).
    pub reused: bool,
}

/// What [`Pool::checkout`] gives: a connection to reuse, or a slot to connect with.
pub enum Checkout {
    Reused(Pooled),
    Connect(Slot),
}

impl Pool {
    pub fn new(addr: UpstreamAddr, settings: PoolSettings) -> Arc<Pool> {
        let adaptive = settings
            .adaptive_floor
            .map(|floor| adaptive::Adaptive::new(floor, settings.max_connections));
        let admission = admission::Admission::new(
            adaptive
                .as_ref()
                .map_or(settings.max_connections, adaptive::Adaptive::limit),
        );
        // No cap: no queue, no admission, no adaptive limit, nothing all threads must agree on.
        let local = settings.thread_affine
            && settings.max_connections == 0
            && settings.adaptive_floor.is_none()
            && !settings.predict;
        let pool = Arc::new(Pool {
            addr,
            lanes: local.then(|| local::Lanes::new(thread_slot)),
            settings,
            refusing: AtomicBool::new(false),
            locked: Locked {
                outstanding: AtomicUsize::new(0),
                state: Mutex::new(State {
                    outstanding: 0,
                    open: 0,
                    idle: Vec::new(),
                    idle_count: 0,
                    waiters: Default::default(),
                    queue_timeouts: 0,
                    connects: 0,
                    reuses: 0,
                    admission,
                    adaptive,
                    borrowed: 0,
                    predecessor: None,
                    refusing_since: None,
                    found_down: false,
                    successor: None,
                }),
            },
        });
        if pool.settings.max_idle > 0 && pool.lanes.is_none() {
            tokio::spawn(reap_idle(Arc::downgrade(&pool)));
        }
        pool
    }

    pub fn addr(&self) -> &UpstreamAddr {
        &self.addr
    }

    pub fn settings(&self) -> &PoolSettings {
        &self.settings
    }

    fn lock(&self) -> Guard<'_> {
        #[cfg(test)]
        tests::LOCKS.with(|locks| locks.set(locks.get() + 1));
        // A panic while the lock is held would be a bug in this file; the state stays consistent
        // between statements, so recovering from poison is safe.
        Guard(
            self.locked
                .state
                .lock()
                .unwrap_or_else(|poison| poison.into_inner()),
        )
    }

    /// A connect was refused now (nothing listens on the server's address): since when the
    /// server has refused, this one included, with no connect succeeding in between.
    pub fn refusing_since(&self, now: Instant) -> Instant {
        let mut state = self.lock();
        self.refusing.store(true, Ordering::Relaxed);
        *state.refusing_since.get_or_insert(now)
    }

    /// Whether the server refuses connections now: a connect was refused
    /// ([`Pool::refusing_since`]) and none succeeded since. Without the lock.
    pub fn refuses(&self) -> bool {
        self.refusing.load(Ordering::Relaxed)
    }

    /// Since when the server has refused, if it refuses now ([`Pool::refuses`]).
    pub fn refused_since(&self) -> Option<Instant> {
        if !self.refuses() {
            return None;
        }
        self.lock().refusing_since
    }

    /// The server has refused for `fail_timeout`: whether this is the first request to find so
    /// since it began refusing (which logs it).
    pub fn found_down(&self) -> bool {
        !std::mem::replace(&mut self.lock().found_down, true)
    }

    /// A connect succeeded: the server listens (again).
    pub fn listening(&self) {
        if self.refusing.load(Ordering::Relaxed) {
            let mut state = self.lock();
            self.refusing.store(false, Ordering::Relaxed);
            if let Some(since) = state.refusing_since.take() {
                tracing::info!(server = %self.addr, refused_for = ?since.elapsed(), "server listens again");
            }
            state.found_down = false;
        }
    }

    /// This pool replaces `old` (a reload changed their upstream's table; the server is the
    /// same): the places `old` holds count against this pool's cap until they free, and it
    /// starts from the service time `old` learnt. Only between pools that keep their state behind
    /// the lock (a per-thread pool has no cap to count against), and before this one serves its
    /// first request.
    pub fn follow(self: &Arc<Self>, old: &Arc<Pool>) {
        if self.lanes.is_some() || old.lanes.is_some() {
            return;
        }
        let mut before = old.lock();
        let held = before.held();
        before.successor = Some((Arc::downgrade(self), held));
        let mut state = self.lock();
        state.borrowed = held;
        state.predecessor = (held > 0).then(|| Arc::clone(old));
        state.admission.learn_from(&before.admission);
    }

    /// The pool this one replaced now holds `held` places: as they free, they go to this pool's
    /// waiters (under the replaced pool's lock: see the module's invariants).
    fn predecessor_holds(self: &Arc<Self>, held: usize) {
        let mut state = self.lock();
        state.borrowed = held;
        self.fill_places(&mut state);
        // Its caller holds it: this is never the last reference.
        if held == 0 {
            state.predecessor = None;
        }
    }

    /// Requests in flight to the server now (see the module's invariants), read without the lock.
    pub fn outstanding(&self) -> usize {
        if let Some(lanes) = &self.lanes {
            return lanes.outstanding();
        }
        self.locked.outstanding.load(Ordering::Relaxed)
    }

    /// One more request in flight, counted under the lock (`state` is its guard's).
    fn count_in(&self, state: &mut State) {
        state.outstanding += 1;
        self.locked
            .outstanding
            .store(state.outstanding, Ordering::Relaxed);
    }

    /// One request fewer in flight, under the lock. Every call gives back a unit one
    /// [`Pool::count_in`] took (a waiter's or a counted slot's, once).
    fn count_out(&self, state: &mut State) {
        debug_assert!(
            state.outstanding > 0,
            "a unit of outstanding given back twice"
        );
        state.outstanding = state.outstanding.saturating_sub(1);
        self.locked
            .outstanding
            .store(state.outstanding, Ordering::Relaxed);
    }

    pub fn stats(&self) -> PoolStats {
        let state = self.lock();
        let stats = PoolStats {
            outstanding: state.outstanding,
            open: state.open,
            idle: state.idle_count,
            in_use: state.open - state.idle_count,
            waiting: state
                .waiters
                .iter()
                .flatten()
                .filter(|waiter| !waiter.sender.is_closed())
                .count(),
            queue_timeouts: state.queue_timeouts,
            connects: state.connects,
            reuses: state.reuses,
            limit: state.cap(&self.settings),
            adaptive: state.adaptive.as_ref().map(adaptive::Adaptive::stats),
            admission: state.admission.stats(),
            refusing: state.refusing_since.is_some(),
        };
        let Some(lanes) = &self.lanes else {
            return stats;
        };
        let counts = lanes.counts();
        PoolStats {
            outstanding: counts.outstanding,
            open: counts.open,
            idle: counts.idle,
            in_use: counts.open.saturating_sub(counts.idle),
            connects: counts.connects as u64,
            reuses: counts.reuses as u64,
            ..stats
        }
    }

    /// Takes the most recently used live idle connection, or a slot to open a new one, or waits
    /// (by class, then in admission's order; up to `queue_timeout`) for either.
    /// With `fresh`, idle connections are passed over (the oldest is closed to make room when
    /// the pool is full), for a retry after a stale one.
    /// `deadline`: a shorter wait than `queue_timeout` the client asked for, asked only when the
    /// request has to queue (a request that gets a place at once reads no header for it).
    /// `priority`: the request's class in the queue (its route's `priority`).
    pub async fn checkout(
        self: &Arc<Self>,
        fresh: bool,
        priority: Priority,
        deadline: impl FnOnce() -> Option<Duration>,
    ) -> Result<Checkout, CheckoutError> {
        if let Some(lanes) = &self.lanes {
            return Ok(self.checkout_local(lanes, fresh));
        }
        let (receiver, deadline, predicted, queued_at) = {
            let mut state = self.lock();
            let now = Instant::now();
            if self.settings.predict && !fresh {
                // Every request counts, those that get a place at once too (a retry on a fresh
                // connection is the same request again).
                state.admission.arrived(now);
            }
            // After a cut of the adaptive limit: idle connections over it are closed, so that
            // reusing one cannot put more requests in flight than the limit.
            while state.over_cap(&self.settings) && state.close_oldest_idle() {}
            let full = state.at_cap(&self.settings);
            if fresh && full {
                // Make room for the fresh connection: close the oldest idle one, if any.
                state.close_oldest_idle();
            }
            if !fresh {
                let me = thread_slot() as usize;
                if let Some(idle) = state.pop_live(me, now, self.settings.idle_timeout) {
                    self.count_in(&mut state);
                    self.place_taken(&mut state, now);
                    return Ok(Checkout::Reused(self.pooled_from(idle)));
                }
                // None of this thread's own: take another thread's, unless this pool keeps
                // threads apart and may still open a connection of this thread's own.
                if !self.settings.thread_affine || full {
                    for owner in 0..state.idle.len() {
                        if let Some(idle) = state.pop_live(owner, now, self.settings.idle_timeout) {
                            self.count_in(&mut state);
                            self.place_taken(&mut state, now);
                            return Ok(Checkout::Reused(self.pooled_from(idle)));
                        }
                    }
                }
            }
            if !state.at_cap(&self.settings) {
                state.open += 1;
                state.connects += 1;
                self.count_in(&mut state);
                self.place_taken(&mut state, now);
                return Ok(Checkout::Connect(self.slot(true)));
            }
            let deadline = self.settings.deadline(deadline());
            for queue in &mut state.waiters {
                queue.retain(|waiter| !waiter.sender.is_closed());
            }
            let mut depth: usize = state.waiters.iter().map(VecDeque::len).sum();
            // While the app refuses connections (restarting), no wait can be predicted, and no
            // wait is longer than `fail_timeout` (`Upstream::wait_for_listen`): the queue admits
            // up to `queue_size`, judges nothing by its service time and drops no waiter.
            let judged = self.settings.predict && state.refusing_since.is_none();
            let mut standing = judged && {
                state.admission.queue_depth(now, depth);
                state.admission.standing(now)
            };
            if standing && self.admitted_in_stead(&state, now, priority) {
                // The waiters that overstayed go before the newcomer is judged against the room
                // when it is admitted in their stead (then dropping them idles no worker, and
                // frees their places for it).
                self.drop_overstayed(&mut state, now);
                let left: usize = state.waiters.iter().map(VecDeque::len).sum();
                if left != depth {
                    depth = left;
                    state.admission.queue_depth(now, depth);
                    standing = state.admission.standing(now);
                }
            }
            let classes_before = classes_before(&state, now, priority, standing);
            let ahead = |state: &State| -> usize {
                state.waiters[..classes_before]
                    .iter()
                    .map(VecDeque::len)
                    .sum()
            };
            let full = depth >= self.settings.queue_size;
            // Its room and the floor's wait hold while requests come at least as fast as the
            // places serve them: slower, a queue that stands (a burst on top of a load under
            // the capacity) admits a newcomer up to its deadline, as one that does not stand.
            if standing
                && (full
                    || (state.admission.pressing(now)
                        && state.admission.full(now, depth, ahead(&state))))
            {
                // A standing queue that is full: the newcomer is refused at once, unless it
                // outranks a waiter, the oldest of the lowest class below its own, which it
                // displaces (a high one is refused only when `queue_size` is reached).
                if self.displace(&mut state, now, priority) {
                    depth -= 1;
                } else if full || priority != Priority::High {
                    let refusal = if full {
                        state.admission.refuse_full(depth)
                    } else {
                        state.admission.refuse_standing(now, depth)
                    };
                    return Err(self.overloaded(refusal, Duration::ZERO));
                }
            } else if full {
                if self.settings.predict {
                    let refusal = state.admission.refuse_full(depth);
                    return Err(self.overloaded(refusal, Duration::ZERO));
                }
                return Err(CheckoutError::QueueFull {
                    addr: self.addr.clone(),
                });
            }
            let predicted = if judged {
                let ahead = ahead(&state);
                state
                    .admission
                    .admit(ahead, deadline)
                    .map_err(|refusal| self.overloaded(refusal, Duration::ZERO))?
            } else {
                None
            };
            let (sender, receiver) = oneshot::channel();
            state.waiters[priority.index()].push_back(Waiter { since: now, sender });
            state.admission.queue_depth(now, depth + 1);
            self.count_in(&mut state);
            (receiver, deadline, predicted, now)
        };
        // The waiter's unit of `outstanding`, given back by its drop if this future is dropped
        // while it waits (the client left).
        let waiting = Waiting { pool: self };
        // Boxed: a request that must wait is rare (the pool is full), and a wait's timer and
        // channel would take their room in every request's future.
        Box::pin(self.wait(waiting, receiver, deadline, predicted, queued_at)).await
    }

    /// [`Pool::checkout`] of a pool with no shared decision: this thread's most recent live idle
    /// connection (its slot, and the pool's reference in it, come back with it), else a slot to
    /// open one (the pool's one reference count per connection). No lock, no shared write.
    fn checkout_local(self: &Arc<Self>, lanes: &local::Lanes, fresh: bool) -> Checkout {
        if !fresh {
            let key = Arc::as_ptr(self) as usize;
            let idle_timeout = self.settings.idle_timeout;
            let now = Instant::now();
            if let Some(Parked { conn, mut slot, .. }) = local::pop(&PARKED, key, idle_timeout, now)
            {
                lanes.taken(true);
                slot.rearm(now);
                return Checkout::Reused(Pooled {
                    client: conn,
                    slot,
                    // Unread: a local pool's connection goes back to the stack of the thread
                    // that checks it in.
                    owner: 0,
                    reused: true,
                });
            }
        }
        lanes.taken(false);
        Checkout::Connect(self.slot(true))
    }

    /// The rare part of [`Pool::checkout`]: a request queued at `queued_at` waits (up to
    /// `deadline`) for a place to be granted.
    async fn wait(
        self: &Arc<Self>,
        waiting: Waiting<'_>,
        mut receiver: oneshot::Receiver<Result<Grant, admission::Refusal>>,
        deadline: Duration,
        predicted: Option<Duration>,
        queued_at: Instant,
    ) -> Result<Checkout, CheckoutError> {
        let granted = match grant_within(&mut receiver, deadline).await {
            Ok(granted) => granted,
            // Dropped at the head of a standing queue (`waiting`'s drop gives its unit back).
            Err(refusal) => {
                return Err(self.overloaded(refusal, Instant::now().duration_since(queued_at)));
            }
        };
        let waited = Instant::now().duration_since(queued_at);
        let mut state = self.lock();
        let Some(Grant { idle, mut slot }) = granted else {
            state.queue_timeouts += 1;
            waiting.give_back(&mut state);
            return Err(CheckoutError::QueueTimeout {
                addr: self.addr.clone(),
                waited,
            });
        };
        state.admission.record_wait(waited, predicted);
        // The waiter's unit moves onto the slot it was granted.
        waiting.hand_to(&mut slot);
        slot.queued = waited;
        match idle {
            Some(idle) => {
                state.reuses += 1;
                Ok(Checkout::Reused(Pooled {
                    client: idle.conn,
                    slot,
                    owner: idle.owner,
                    reused: true,
                }))
            }
            None => {
                state.connects += 1;
                Ok(Checkout::Connect(slot))
            }
        }
    }

    /// A slot for a place just taken; `counted`: whether it holds its request's unit of
    /// `outstanding` (a grant's does not: its waiter holds it until it reads the grant).
    fn slot(self: &Arc<Self>, counted: bool) -> Slot {
        Slot {
            pool: Arc::clone(self),
            armed: true,
            counted,
            since: Instant::now(),
            queued: Duration::ZERO,
            outcome: PackedOutcome::NONE,
            kind: adaptive::Kind::default(),
        }
    }

    /// A place was taken now: with a declared capacity, admission predicts when it frees.
    fn place_taken(&self, state: &mut State, now: Instant) {
        if self.settings.predict {
            state.admission.place_taken(now);
        }
    }

    /// The error of a refusal, at once (`waited` zero) or of a waiter dropped.
    fn overloaded(&self, refusal: admission::Refusal, waited: Duration) -> CheckoutError {
        CheckoutError::Overloaded {
            addr: self.addr.clone(),
            reason: refusal.reason,
            retry_after: refusal.retry_after,
            waited,
        }
    }

    fn pooled_from(self: &Arc<Self>, idle: Idle) -> Pooled {
        Pooled {
            client: idle.conn,
            slot: self.slot(true),
            owner: idle.owner,
            reused: true,
        }
    }

    /// Hands the place (with `idle` in it, if any) to a waiter still waiting, of the highest
    /// class that has one (in it, the oldest, or the newest while the queue stands); gives the
    /// connection back, with the place, when there is none.
    fn grant_to_waiter(self: &Arc<Self>, state: &mut State, idle: Option<Idle>) -> Handed {
        if state.waiters.iter().all(VecDeque::is_empty) {
            return Handed::Back(idle);
        }
        let mut grant = Grant {
            idle,
            slot: self.slot(false),
        };
        // With a declared capacity, the newest waiter goes first (its client is the likeliest to
        // still be waiting), but for the waiters of a queue that does not stand that waited
        // admission's guard, and first come, first served once a standing queue's room is at
        // its floor ([`admission::Admission::order`]). Otherwise first come, first served.
        let now = Instant::now();
        let order = if self.settings.predict {
            state.admission.order(now)
        } else {
            admission::Order::OldestFirst
        };
        for class in 0..state.waiters.len() {
            let queue = &mut state.waiters[class];
            while let Some(waiter) = match order {
                admission::Order::OldestFirst => queue.pop_front(),
                admission::Order::NewestFirst => queue.pop_back(),
                admission::Order::NewestFirstUnlessOlder { guard } => {
                    if queue
                        .front()
                        .is_some_and(|oldest| now.duration_since(oldest.since) >= guard)
                    {
                        queue.pop_front()
                    } else {
                        queue.pop_back()
                    }
                }
            } {
                match waiter.sender.send(Ok(grant)) {
                    Ok(()) => {
                        let depth = state.waiters.iter().map(VecDeque::len).sum();
                        state.admission.queue_depth(now, depth);
                        if self.settings.predict {
                            state.admission.place_taken(now);
                        }
                        return Handed::ToWaiter;
                    }
                    Err(Ok(returned)) => grant = returned,
                    // A refusal comes back only when one was sent, and a grant was: no path.
                    Err(Err(_)) => return Handed::Back(None),
                }
            }
        }
        state.admission.queue_depth(Instant::now(), 0);
        Handed::Back(grant.into_parts())
    }

    /// Drops the waiters of a standing queue that waited over admission's sojourn cap (CoDel's
    /// drop at the head: the oldest of each class first), in the normal and low classes: a
    /// `high` request is refused only past its own deadline. Each is answered with the refusal.
    fn drop_overstayed(&self, state: &mut State, now: Instant) {
        for class in [Priority::Normal, Priority::Low] {
            while let Some(oldest) = state.waiters[class.index()].front() {
                if !state
                    .admission
                    .overstayed(now, now.duration_since(oldest.since))
                {
                    break;
                }
                let Some(waiter) = state.waiters[class.index()].pop_front() else {
                    break;
                };
                if waiter.sender.is_closed() {
                    continue;
                }
                let depth: usize = state.waiters.iter().map(VecDeque::len).sum();
                let refusal = state.admission.drop_standing(now, depth);
                // A waiter that left meanwhile needs no answer.
                let _ = waiter.sender.send(Err(refusal));
            }
        }
    }

    /// Whether a newcomer of `priority` to a standing queue would be admitted (its room, or at
    /// its floor the wait for its place) were the waiters that overstayed dropped: only then
    /// are they dropped, for it (displaced). A burst past the room makes the queue refusing,
    /// and its last requests come over a service time after its first ones: dropping those
    /// then, for newcomers that the room refuses anyway, and as places free (with no newcomer
    /// to take their room), left 13-55 of a burst of 120 at once served where the room admits
    /// 80 (lab/runs/2026-12-05-vm-overload-bursts); under a sustained overload a newcomer soon
    /// comes that is admitted in their stead.
    fn admitted_in_stead(&self, state: &State, now: Instant, priority: Priority) -> bool {
        let mut overstayed = [0; 3];
        for class in [Priority::Normal, Priority::Low] {
            overstayed[class.index()] = state.waiters[class.index()]
                .iter()
                .take_while(|waiter| {
                    state
                        .admission
                        .overstayed(now, now.duration_since(waiter.since))
                })
                .count();
        }
        let dropped: usize = overstayed.iter().sum();
        if dropped == 0 {
            return false;
        }
        let depth = state.waiters.iter().map(VecDeque::len).sum::<usize>() - dropped;
        let ahead: usize = (0..classes_before(state, now, priority, true))
            .map(|class| state.waiters[class].len() - overstayed[class])
            .sum();
        depth < self.settings.queue_size && !state.admission.full(now, depth, ahead)
    }

    /// Drops the oldest live waiter of the lowest class below `newcomer` (normal and low only:
    /// high waiters are never dropped) to make room for it in a full standing queue, answering
    /// it with the refusal. Whether one was dropped.
    fn displace(&self, state: &mut State, now: Instant, newcomer: Priority) -> bool {
        for class in [Priority::Low, Priority::Normal] {
            // Priority::index is 0 for high: a class below the newcomer's has a greater index.
            if class.index() <= newcomer.index() {
                continue;
            }
            while let Some(waiter) = state.waiters[class.index()].pop_front() {
                // A waiter that left needs no answer, and makes no room: the next.
                if waiter.sender.is_closed() {
                    continue;
                }
                let depth: usize = state.waiters.iter().map(VecDeque::len).sum();
                let refusal = state.admission.drop_standing(now, depth);
                let _ = waiter.sender.send(Err(refusal));
                return true;
            }
        }
        false
    }

    /// A slot held for `occupancy` was dropped: pass it on to a waiter, or close the place;
    /// the request leaves `outstanding` if the slot `counted` it.
    fn release_slot(
        self: &Arc<Self>,
        occupancy: Duration,
        outcome: Option<(adaptive::Outcome, adaptive::Kind)>,
        counted: bool,
    ) {
        if let Some(lanes) = &self.lanes {
            lanes.released(counted, true);
            return;
        }
        let mut state = self.lock();
        if counted {
            self.count_out(&mut state);
        }
        state.admission.place_given_back(Instant::now(), occupancy);
        state.record_outcome(outcome);
        self.free_place(&mut state);
    }

    /// A place without a connection in it was given back: it goes to a waiter, or closes.
    fn free_place(self: &Arc<Self>, state: &mut State) {
        if state.over_cap(&self.settings) {
            // Over a limit that was cut: the place closes.
            state.open -= 1;
        } else if let Handed::Back(_) = self.grant_to_waiter(state, None) {
            state.open -= 1;
        }
        self.grant_grown(state);
    }

    /// After the adaptive limit grew: the new places go to waiters, as many as there are.
    fn grant_grown(self: &Arc<Self>, state: &mut State) {
        if state.adaptive.is_some() {
            self.fill_places(state);
        }
    }

    /// Hands the places the cap allows and nobody holds to waiters, as many as there are.
    fn fill_places(self: &Arc<Self>, state: &mut State) {
        while !state.at_cap(&self.settings) {
            state.open += 1;
            if let Handed::Back(_) = self.grant_to_waiter(state, None) {
                state.open -= 1;
                return;
            }
        }
    }

    /// Puts a connection back after a complete exchange, at `now`: to a waiter, on the idle
    /// stack, or closed; the request leaves `outstanding` if its slot `counted` it.
    fn checkin(
        self: &Arc<Self>,
        conn: Box<ClientConn>,
        owner: u32,
        taken: Instant,
        outcome: Option<(adaptive::Outcome, adaptive::Kind)>,
        counted: bool,
        now: Instant,
    ) {
        let mut state = self.lock();
        if counted {
            self.count_out(&mut state);
        }
        state
            .admission
            .place_given_back(now, now.duration_since(taken));
        state.record_outcome(outcome);
        let idle = Idle {
            conn,
            since: now,
            owner,
        };
        if state.over_cap(&self.settings) {
            // Over a limit that was cut: the connection closes.
            state.open -= 1;
            return;
        }
        let handed = self.grant_to_waiter(&mut state, Some(idle));
        self.grant_grown(&mut state);
        self.keep_idle(&mut state, handed);
    }

    /// A reusable connection that no waiter took is kept idle, if `max_idle` has room; else it
    /// closes.
    fn keep_idle(&self, state: &mut State, handed: Handed) {
        match handed {
            Handed::ToWaiter => {}
            Handed::Back(Some(idle)) if state.idle_count < self.settings.max_idle => {
                let owner = idle.owner as usize;
                if state.idle.len() <= owner {
                    state.idle.resize_with(owner + 1, Vec::new);
                }
                state.idle[owner].push(idle);
                state.idle_count += 1;
            }
            Handed::Back(_) => state.open -= 1,
        }
    }

    /// A connection whose place was given back at its response head ([`Pooled::streams`])
    /// ended its exchange reusable, at `now`: it takes a place again if the cap has one free,
    /// and goes to a waiter or idle as any other; else it closes. No sample: its head gave one.
    fn checkin_streamed(self: &Arc<Self>, conn: Box<ClientConn>, owner: u32, now: Instant) {
        let mut state = self.lock();
        if state.at_cap(&self.settings) {
            return;
        }
        state.open += 1;
        let idle = Idle {
            conn,
            since: now,
            owner,
        };
        let handed = self.grant_to_waiter(&mut state, Some(idle));
        self.keep_idle(&mut state, handed);
    }

    /// Closes idle connections that expired (those the upstream closed are found at checkout),
    /// and has those idle for [`SHED_AFTER`] give back their read buffers and timers.
    fn reap(&self) {
        let mut state = self.lock();
        let now = Instant::now();
        let timeout = self.settings.idle_timeout;
        let before = state.idle_count;
        for stack in state.idle.iter_mut() {
            stack.retain(|idle| now.duration_since(idle.since) < timeout);
            for idle in stack.iter_mut() {
                if now.duration_since(idle.since) >= SHED_AFTER {
                    idle.conn.shed();
                }
            }
        }
        state.idle_count = state.idle.iter().map(Vec::len).sum();
        let closed = before - state.idle_count;
        state.open -= closed;
    }
}

/// An idle connection unused this long gives back its read buffer and timer
/// ([`ClientConn::shed`]) at the reaper's next look: a connection the pool hands out again within
/// it (the usual case under load) keeps them, so a busy pool allocates nothing more per request.
/// A burst leaves up to `max_idle` (256 by default) connections idle, each with a 4 KiB read
/// buffer, until their idle time-out: 5,000 idle clients opened 500 at a time, one run by hand,
/// measured 1,189 B each 1 s after the burst with 256 pooled connections open, 756 B once they had
/// closed. The lab's idle-connections burst (lab/runs/2026-12-04-vm-idle-shed): 1,082 -> 620 B,
/// medians of 3 rounds that spread 647-1,217 B before and 605-977 B after.
const SHED_AFTER: Duration = Duration::from_millis(200);

/// How often the reaper looks at most: often enough that connections left idle by a burst shed
/// their buffers within [`SHED_AFTER`] and one of these of their last use.
const REAP_EVERY: Duration = Duration::from_millis(250);

/// Runs while the pool lives, closing idle connections soon after they expire.
async fn reap_idle(pool: Weak<Pool>) {
    let period = match pool.upgrade() {
        Some(pool) => (pool.settings.idle_timeout / 2).clamp(Duration::from_millis(50), REAP_EVERY),
        None => return,
    };
    loop {
        tokio::time::sleep(period).await;
        match pool.upgrade() {
            Some(pool) => pool.reap(),
            None => return,
        }
    }
}

/// An idle connection of a pool with no shared decision, on its thread's stack ([`local`]),
/// with its disarmed slot: the pool's reference stays with it.
struct Parked {
    conn: Box<ClientConn>,
    since: Instant,
    slot: Slot,
}

impl local::Parked for Parked {
    fn pool(&self) -> usize {
        Arc::as_ptr(&self.slot.pool) as usize
    }

    fn lanes(&self) -> Option<&local::Lanes> {
        self.slot.pool.lanes.as_ref()
    }

    fn max_idle(&self) -> usize {
        self.slot.pool.settings.max_idle
    }

    fn idle_timeout(&self) -> Duration {
        self.slot.pool.settings.idle_timeout
    }

    fn since(&self) -> Instant {
        self.since
    }

    fn is_closed(&mut self) -> bool {
        self.conn.is_closed()
    }

    fn shed(&mut self) {
        self.conn.shed();
    }
}

thread_local! {
    /// This thread's idle connections of pools with no shared decision.
    static PARKED: RefCell<local::Stacks<Parked>> = const { RefCell::new(local::Stacks::new()) };
}

impl Slot {
    /// Arms the slot of an idle connection again for the request that reuses it `now`.
    fn rearm(&mut self, now: Instant) {
        self.armed = true;
        self.counted = true;
        self.since = now;
        self.queued = Duration::ZERO;
        self.outcome = PackedOutcome::NONE;
    }

    /// See [`Pooled::answered`].
    pub fn answered(&mut self, status: http::StatusCode, kind: adaptive::Kind) {
        self.kind = kind;
        let failed = matches!(status.as_u16(), 502..=504);
        self.outcome = if failed {
            PackedOutcome::FAILED
        } else {
            PackedOutcome::answered(Instant::now().duration_since(self.since))
        };
    }

    /// The app failed this request (see [`Pooled::failed`]), or its connection could not be made.
    pub fn failed(&mut self) {
        self.outcome = PackedOutcome::FAILED;
    }

    /// How long the request waited for this place, in the queue and for the app to listen.
    pub fn queued(&self) -> Duration {
        self.queued
    }

    /// The request waited `waited` with this place for the app to listen again (it refused
    /// connections while it restarted): the wait is queue time, and the place's service time and
    /// latency start now, with the app's work.
    pub fn waited_for_listen(&mut self, waited: Duration) {
        self.queued += waited;
        self.since = Instant::now();
    }

    /// Turns the slot into a checked-out connection once connected (on the current thread,
    /// whose runtime now drives it).
    pub fn into_conn(self, client: ClientConn) -> Pooled {
        Pooled {
            client: Box::new(client),
            slot: self,
            owner: thread_slot(),
            reused: false,
        }
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        if self.armed {
            self.pool.release_slot(
                Instant::now().duration_since(self.since),
                self.outcome.unpack().map(|outcome| (outcome, self.kind)),
                self.counted,
            );
        }
    }
}

/// A checkout's unit of `outstanding` while it waits in the queue. Its drop (the checkout's
/// future dropped while waiting, or refused at the head of a standing queue) takes the lock to
/// give the unit back: those are the rare ways out of the queue. The common ones settle it
/// inside the lock the checkout takes after its wait anyway.
struct Waiting<'pool> {
    pool: &'pool Pool,
}

impl Waiting<'_> {
    /// The wait timed out: the unit goes back, under the lock the caller holds.
    fn give_back(self, state: &mut State) {
        self.pool.count_out(state);
        std::mem::forget(self);
    }

    /// The wait ended with a place: the unit moves onto its slot.
    fn hand_to(self, slot: &mut Slot) {
        slot.counted = true;
        std::mem::forget(self);
    }
}

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        let mut state = self.pool.lock();
        self.pool.count_out(&mut state);
    }
}

impl Pooled {
    pub fn addr(&self) -> &UpstreamAddr {
        &self.slot.pool.addr
    }

    /// The pool of the server the connection goes to.
    pub fn pool(&self) -> &Arc<Pool> {
        &self.slot.pool
    }

    /// nginx's `$upstream_connect_time`: how long the connection took to open, or nothing for
    /// one kept from an earlier request.
    pub fn connect_time(&self) -> Duration {
        if self.reused {
            Duration::ZERO
        } else {
            self.client.connect_time
        }
    }

    /// The connection, out of the pool for good (an upgraded connection), with its slot: the
    /// place stays taken, counted in `open` and `in_use`, until the tunnel drops the slot (but
    /// for async workers, whose tunnels gave it back at the 101: [`Pooled::streams`]).
    /// The request leaves `outstanding` here (under the lock: upgrades are rare), as a tunnel is
    /// no request in flight.
    pub fn into_upgraded(mut self) -> (ClientConn, Slot) {
        if self.slot.counted {
            self.slot.counted = false;
            if let Some(lanes) = &self.slot.pool.lanes {
                lanes.released(true, false);
                return (*self.client, self.slot);
            }
            let mut state = self.slot.pool.lock();
            self.slot.pool.count_out(&mut state);
        }
        (*self.client, self.slot)
    }

    /// Returns the connection to the pool after a complete exchange that left it reusable.
    /// The slot's own reference to the pool serves the call: no second one is taken, which
    /// would be two more writes to the pool's shared reference count per request. A
    /// connection open its whole `keepalive_time` closes instead, its place freed as after any
    /// close (the slot's drop): a Gunicorn worker stopping for a graceful reload waits for its
    /// connections to close, and one that weir kept busy, never idle for Gunicorn's keep-alive,
    /// held the worker until Gunicorn's `timeout` killed it, mid-response at times.
    pub fn checkin(self) {
        let now = Instant::now();
        if self.client.expired(now) {
            return;
        }
        let Pooled {
            client,
            mut slot,
            owner,
            reused: _,
        } = self;
        // A checked-out connection's slot is disarmed only by `streams`: its place was given
        // back at the response head.
        if !slot.armed {
            slot.pool.checkin_streamed(client, owner, now);
            return;
        }
        slot.armed = false;
        if slot.pool.lanes.is_some() {
            // The slot, with the pool's reference, stays with the idle connection; parked, it
            // gives its request's place back (it counted it: only an upgrade uncounts a slot).
            let counted = slot.counted;
            let parked = Parked {
                conn: client,
                since: now,
                slot,
            };
            if let Some(refused) = local::park(&PARKED, parked, REAP_EVERY, SHED_AFTER) {
                if let Some(lanes) = &refused.slot.pool.lanes {
                    lanes.released(counted, true);
                }
            }
            return;
        }
        slot.pool.checkin(
            client,
            owner,
            slot.since,
            slot.outcome.unpack().map(|outcome| (outcome, slot.kind)),
            slot.counted,
            now,
        );
    }

    /// The response goes on past its head for as long as the app likes: a body of unknown
    /// length (a stream: server-sent events, a `StreamingResponse`) or a tunnel (WebSocket).
    /// With async workers the place is given back now, its service time and latency those of
    /// the head: an async app serves its streams and tunnels between its other requests, and a
    /// place held until their end starved the requests behind them (the example app, `workers
    /// = 2`: two open WebSockets, and every other request waited until its client gave up).
    /// The connection goes on outside `open`, and at its end takes a place again only if one is
    /// free (`Pool::checkin_streamed`). Sync and gthread workers are busy until the end, so
    /// their place (and a plain `max_connections` place, as nginx's `max_conns` counts an
    /// upgraded connection) stays taken until then.
    pub fn streams(&mut self) {
        let slot = &mut self.slot;
        if slot.pool.settings.adaptive_floor.is_none() || !slot.armed {
            return;
        }
        slot.armed = false;
        slot.pool.release_slot(
            Instant::now().duration_since(slot.since),
            slot.outcome.unpack().map(|outcome| (outcome, slot.kind)),
            slot.counted,
        );
        slot.counted = false;
    }

    /// The response head came with `status` for a request of `kind`: a sample of the app's
    /// latency for the adaptive limit, or a failure for a 502, 503 or 504 of the app's own.
    pub fn answered(&mut self, status: http::StatusCode, kind: adaptive::Kind) {
        self.slot.answered(status, kind);
    }

    /// The exchange failed on the app's side (a reset, a read time-out): a failure for the
    /// adaptive limit.
    pub fn failed(&mut self) {
        self.slot.failed();
    }

    /// Whether the pool is capped (`workers`, or `max_connections`): its places are the app's
    /// workers, as its operator sized them.
    pub fn capped(&self) -> bool {
        self.slot.pool.is_capped()
    }

    /// How long the request waited in the queue for this connection's place.
    pub fn queued(&self) -> Duration {
        self.slot.queued
    }
}

/// A place in a capped pool held by weir's own active health check ([`Pool::check_place`]):
/// the check's connection counts against the cap as a request's does. Dropping it frees the
/// place (to the first live waiter, or closed), as a slot's drop does, but gives admission and
/// the adaptive limit no sample: how long a health check holds a place says nothing of how
/// long the app's requests do. It holds no unit of `outstanding`: a check is no request.
pub struct CheckPlace {
    slot: Slot,
}

impl Drop for CheckPlace {
    fn drop(&mut self) {
        // The slot does not release itself: its release would record a service time.
        self.slot.armed = false;
        let pool = &self.slot.pool;
        let mut state = pool.lock();
        pool.free_place(&mut state);
    }
}

impl Pool {
    /// Whether the pool caps the requests its server sees at once (`max_connections`, or the
    /// cap `workers` gives): weir's active health check then takes a place in it
    /// ([`Pool::check_place`]).
    pub fn is_capped(&self) -> bool {
        self.settings.max_connections > 0
    }

    /// A place for weir's active health check of a capped pool: taken now when one is free (an
    /// idle connection is closed to make room when every place is open), else the check waits
    /// for one in the `high` class, so that it gets the first place freed unless a `high`
    /// request is served before it (as between two `high` requests). Admission neither judges
    /// nor refuses it (it is not a request): it only waits, at most `patience`; `None` when no
    /// place came within it. The waiter is queued now; the future holds no reference to the
    /// pool while it waits (a pool dropped meanwhile ends the wait with `None`).
    pub fn check_place(
        self: &Arc<Self>,
        patience: Duration,
    ) -> impl std::future::Future<Output = Option<CheckPlace>> + Send + 'static {
        debug_assert!(
            self.is_capped(),
            "a health check's place in a pool with no cap"
        );
        let joined = {
            let mut state = self.lock();
            while state.over_cap(&self.settings) && state.close_oldest_idle() {}
            if state.at_cap(&self.settings) {
                state.close_oldest_idle();
            }
            if state.at_cap(&self.settings) {
                let (sender, receiver) = oneshot::channel();
                state.waiters[Priority::High.index()].push_back(Waiter {
                    since: Instant::now(),
                    sender,
                });
                Err(receiver)
            } else {
                state.open += 1;
                Ok(CheckPlace {
                    slot: self.slot(false),
                })
            }
        };
        async move {
            let mut receiver = match joined {
                Ok(place) => return Some(place),
                Err(receiver) => receiver,
            };
            // A `high` waiter is never dropped.
            let granted = grant_within(&mut receiver, patience).await.ok().flatten();
            // A connection handed over with the place is closed: the check opens its own.
            granted.map(|Grant { idle: _, slot }| CheckPlace { slot })
        }
    }
}

/// A waiter's answer within `patience`: its grant, `None` when none came within it (or the pool
/// went away: the sender side is only dropped with it), or the refusal of a waiter dropped. A
/// grant may come just as the time runs out: closing the channel first means none can come
/// after, and one that came is used rather than dropped (its place would be given back).
async fn grant_within(
    receiver: &mut oneshot::Receiver<Result<Grant, admission::Refusal>>,
    patience: Duration,
) -> Result<Option<Grant>, admission::Refusal> {
    match tokio::time::timeout(patience, &mut *receiver).await {
        Ok(Ok(answer)) => answer.map(Some),
        Ok(Err(_)) => Ok(None),
        Err(_elapsed) => {
            receiver.close();
            Ok(receiver.try_recv().ok().and_then(Result::ok))
        }
    }
}

/// How many classes of waiters are served before a newcomer of `priority`: those above it, and
/// its own unless the queue serves the newest first (a standing queue whose room is not at its
/// floor: then the newcomer is the newest). A queue that does not stand counts its own class
/// too: a newcomer may wait behind them once they waited the guard.
fn classes_before(state: &State, now: Instant, priority: Priority, standing: bool) -> usize {
    if standing && state.admission.order(now) == admission::Order::NewestFirst {
        priority.index()
    } else {
        priority.index() + 1
    }
}

#[cfg(test)]
mod tests;
