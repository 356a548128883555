//! The per-thread side of a pool that has no shared decision to make: no cap (`max_connections`
//! 0, no `workers`, so no queue and no adaptive limit) and one runtime per core
//! (`thread_affine`). Such a pool never lends one thread's connection to another (a connection
//! is driven by the runtime that opened it), and nothing else it keeps needs all threads to
//! agree, so each thread keeps the idle connections it drives in stacks of its own (a
//! thread-local, one stack per pool), closed by a reaper task of its own after `idle_timeout`,
//! and counts what it does in a [`Lane`] of the pool's that it alone writes (more threads than
//! lanes share one, correctly but with the line shared). A request takes no lock and writes no
//! line another thread writes; the pool's `stats` and `outstanding` sum the lanes.
//!
//! This file knows nothing of the pool (which imports it): the pool's thread-local holds
//! [`Stacks`] of its [`Parked`] connections, which say what the stacks need to know of them.
//!
//! An idle connection keeps its slot (disarmed), and with it the pool's `Arc`: the
//! reference moves from the idle stack to the request's slot and back, and is taken (counted up)
//! only when a connection is opened. A pool whose server went lives on until its last idle
//! connection is closed (within `idle_timeout`, by the reaper of each thread that holds one).

use std::cell::RefCell;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread::LocalKey;
use std::time::Duration;

use tokio::time::Instant;

/// One thread's counters in one pool: monotonic counts, differences taken when read, chosen so
/// that a request on a kept-alive connection adds one at its checkout (`reuses`) and one at its
/// check-in (`parked`). In flight: `connects + reuses - parked - released`; idle: `parked -
/// reuses - idle_closed`; open: `connects - closed`.
#[repr(align(64))]
#[derive(Default)]
pub(super) struct Lane {
    /// Places taken for a new connection.
    connects: AtomicUsize,
    /// Places taken on an idle connection.
    reuses: AtomicUsize,
    /// Places given back with the connection put on its thread's stack.
    parked: AtomicUsize,
    /// Places given back otherwise (the connection closed, or upgraded: no request in flight).
    released: AtomicUsize,
    /// Connections closed, idle ones included.
    closed: AtomicUsize,
    /// Idle connections closed (expired, or closed by the server).
    idle_closed: AtomicUsize,
}

/// Adds one: a read-modify-write on a line only this thread writes (but when more threads
/// than lanes share one), so no cache-line transfer.
fn bump(counter: &AtomicUsize) {
    counter.fetch_add(1, Ordering::Relaxed);
}

/// How many lanes a per-thread count has: one runtime per core, so as many as cores, and each
/// thread has its own (thread numbers are handed out in order, and the runtime threads are the
/// ones that take them). A thread past them shares a lane, which stays correct (the lanes are
/// atomics), only no longer its own line.
pub(in crate::upstream) fn lanes() -> usize {
    use std::num::NonZeroUsize;
    use std::sync::OnceLock;
    static CORES: OnceLock<usize> = OnceLock::new();
    *CORES.get_or_init(|| {
        std::thread::available_parallelism()
            .map_or(1, NonZeroUsize::get)
            .clamp(1, 64)
    })
}

/// The lanes of one pool, one per core.
pub(super) struct Lanes {
    lanes: Box<[Lane]>,
    /// The current thread's small number (the pool's `thread_slot`).
    thread: fn() -> u32,
}

/// What the lanes sum to, for the pool's `stats`.
pub(super) struct Counts {
    pub outstanding: usize,
    pub open: usize,
    pub idle: usize,
    pub connects: usize,
    pub reuses: usize,
}

impl Lanes {
    /// `thread`: the current thread's small number, handed out in order from 0.
    pub(super) fn new(thread: fn() -> u32) -> Lanes {
        Lanes {
            lanes: (0..lanes()).map(|_| Lane::default()).collect(),
            thread,
        }
    }

    fn mine(&self) -> &Lane {
        &self.lanes[(self.thread)() as usize % self.lanes.len()]
    }

    fn sum(&self, counter: impl Fn(&Lane) -> &AtomicUsize) -> usize {
        self.lanes
            .iter()
            .map(|lane| counter(lane).load(Ordering::Relaxed))
            .fold(0, usize::wrapping_add)
    }

    /// Requests in flight: places taken less those given back. Read while other threads write,
    /// the sums are not one moment's: those given back are read first, so a request that ends
    /// between the reads is counted still, never one too few.
    pub(super) fn outstanding(&self) -> usize {
        let given = self
            .sum(|lane| &lane.parked)
            .wrapping_add(self.sum(|lane| &lane.released));
        self.sum(|lane| &lane.connects)
            .wrapping_add(self.sum(|lane| &lane.reuses))
            .saturating_sub(given)
    }

    pub(super) fn counts(&self) -> Counts {
        let closed = self.sum(|lane| &lane.closed);
        let left = self
            .sum(|lane| &lane.reuses)
            .wrapping_add(self.sum(|lane| &lane.idle_closed));
        Counts {
            outstanding: self.outstanding(),
            open: self.sum(|lane| &lane.connects).saturating_sub(closed),
            idle: self.sum(|lane| &lane.parked).saturating_sub(left),
            connects: self.sum(|lane| &lane.connects),
            reuses: self.sum(|lane| &lane.reuses),
        }
    }

    /// A place taken: on a reused connection (just popped off this thread's stack), or for a
    /// new one.
    pub(super) fn taken(&self, reused: bool) {
        let lane = self.mine();
        bump(if reused { &lane.reuses } else { &lane.connects });
    }

    /// A place given back other than to the stack: the request leaves `outstanding` if its slot
    /// `counted` it; with `closed`, its connection closes.
    pub(super) fn released(&self, counted: bool, closed: bool) {
        let lane = self.mine();
        if counted {
            bump(&lane.released);
        }
        if closed {
            bump(&lane.closed);
        }
    }

    /// An idle connection went onto its thread's stack, its place given back.
    fn parked(&self) {
        bump(&self.mine().parked);
    }

    /// An idle connection was closed.
    fn idle_closed(&self) {
        let lane = self.mine();
        bump(&lane.idle_closed);
        bump(&lane.closed);
    }
}

/// What the stacks need to know of an idle connection.
pub(super) trait Parked: 'static {
    /// The address of its pool, which it keeps alive (its key among the thread's stacks).
    fn pool(&self) -> usize;
    fn lanes(&self) -> Option<&Lanes>;
    fn max_idle(&self) -> usize;
    fn idle_timeout(&self) -> Duration;
    /// When it went idle.
    fn since(&self) -> Instant;
    /// Whether the server closed it (or sent what nobody asked for) while it was idle.
    fn is_closed(&mut self) -> bool;
    /// Gives back its read buffer and timer.
    fn shed(&mut self);
}

/// The idle connections of one pool on this thread, most recent last.
struct Stack<P> {
    /// The pool's address: while the stack holds a connection, that connection keeps the pool
    /// alive, so the address names it; an empty stack may be taken over by a pool that came to
    /// live at the same address, which is harmless.
    pool: usize,
    idle: Vec<P>,
}

/// One thread's idle connections (the pool's thread-local).
pub(super) struct Stacks<P> {
    stacks: Vec<Stack<P>>,
    /// Whether a reaper task runs for this thread's stacks.
    reaping: bool,
}

impl<P> Stacks<P> {
    pub(super) const fn new() -> Stacks<P> {
        Stacks {
            stacks: Vec::new(),
            reaping: false,
        }
    }
}

/// Empty stacks are kept (their room reused) up to this many stacks in all.
const KEEP_STACKS: usize = 16;

/// Pops this thread's most recent live idle connection to the pool at `pool` (`idle_timeout`:
/// its), closing dead and expired ones on the way.
pub(super) fn pop<P: Parked>(
    thread: &'static LocalKey<RefCell<Stacks<P>>>,
    pool: usize,
    idle_timeout: Duration,
    now: Instant,
) -> Option<P> {
    thread
        .try_with(|thread| {
            let mut thread = thread.try_borrow_mut().ok()?;
            let stack = thread.stacks.iter_mut().find(|stack| stack.pool == pool)?;
            while let Some(mut parked) = stack.idle.pop() {
                // A connection the server closed while idle is found here, when it is wanted.
                let dead = now.duration_since(parked.since()) >= idle_timeout || parked.is_closed();
                if !dead {
                    return Some(parked);
                }
                if let Some(lanes) = parked.lanes() {
                    lanes.idle_closed();
                }
            }
            None
        })
        .ok()
        .flatten()
}

/// Puts an idle connection on this thread's stack for its pool, its place given back (the
/// slot counted its request); gives it back when it cannot stay (the stack holds `max_idle`, keep-alive is off, or no reaper can run here: no
/// single-threaded runtime), for the caller to close. The reaper looks every `reap_every` at
/// most, and has connections idle `shed_after` shed their buffers.
pub(super) fn park<P: Parked>(
    thread: &'static LocalKey<RefCell<Stacks<P>>>,
    parked: P,
    reap_every: Duration,
    shed_after: Duration,
) -> Option<P> {
    let pool = parked.pool();
    let max_idle = parked.max_idle();
    if max_idle == 0 {
        return Some(parked);
    }
    let mut holder = Some(parked);
    // If the thread is ending, its stacks are gone: the connection stays with the caller.
    let _ = thread.try_with(|stacks| {
        let Ok(mut stacks) = stacks.try_borrow_mut() else {
            return;
        };
        if !stacks.reaping {
            if !spawn_reaper(thread, reap_every, shed_after) {
                return;
            }
            stacks.reaping = true;
        }
        let index = match stacks.stacks.iter().position(|stack| stack.pool == pool) {
            Some(index) => index,
            None => match stacks.stacks.iter().position(|stack| stack.idle.is_empty()) {
                Some(index) => {
                    stacks.stacks[index].pool = pool;
                    index
                }
                None => {
                    stacks.stacks.push(Stack {
                        pool,
                        idle: Vec::new(),
                    });
                    stacks.stacks.len() - 1
                }
            },
        };
        let stack = &mut stacks.stacks[index];
        if stack.idle.len() < max_idle {
            if let Some(parked) = holder.take() {
                if let Some(lanes) = parked.lanes() {
                    lanes.parked();
                }
                stack.idle.push(parked);
            }
        }
    });
    holder
}

/// Starts this thread's reaper, on its runtime, when that runtime is single-threaded (its tasks
/// run on this thread, whose stacks they reap). Whether it started.
fn spawn_reaper<P: Parked>(
    thread: &'static LocalKey<RefCell<Stacks<P>>>,
    reap_every: Duration,
    shed_after: Duration,
) -> bool {
    let Ok(runtime) = tokio::runtime::Handle::try_current() else {
        return false;
    };
    if runtime.runtime_flavor() != tokio::runtime::RuntimeFlavor::CurrentThread {
        return false;
    }
    runtime.spawn(reap(thread, reap_every, shed_after));
    true
}

/// Marks the thread as without a reaper when its reaper ends (its stacks emptied, or its
/// runtime dropped it), so that the next park starts one.
struct Reaping<P: 'static>(&'static LocalKey<RefCell<Stacks<P>>>);

impl<P> Drop for Reaping<P> {
    fn drop(&mut self) {
        let _ = self.0.try_with(|stacks| {
            if let Ok(mut stacks) = stacks.try_borrow_mut() {
                stacks.reaping = false;
            }
        });
    }
}

/// This thread's reaper: closes the idle connections that expired, has those idle for
/// `shed_after` give back their read buffers, and ends once nothing is idle here.
async fn reap<P: Parked>(
    thread: &'static LocalKey<RefCell<Stacks<P>>>,
    reap_every: Duration,
    shed_after: Duration,
) {
    let _reaping = Reaping(thread);
    let mut period = reap_every;
    loop {
        tokio::time::sleep(period).await;
        let next = thread
            .try_with(|stacks| {
                let mut stacks = stacks.try_borrow_mut().ok()?;
                reap_stacks(&mut stacks.stacks, Instant::now(), reap_every, shed_after)
            })
            .ok()
            .flatten();
        match next {
            Some(next) => period = next,
            None => return,
        }
    }
}

/// One look of the reaper: the period until the next, or `None` when nothing is idle.
fn reap_stacks<P: Parked>(
    stacks: &mut Vec<Stack<P>>,
    now: Instant,
    reap_every: Duration,
    shed_after: Duration,
) -> Option<Duration> {
    let mut period: Option<Duration> = None;
    for stack in stacks.iter_mut() {
        stack.idle.retain_mut(|parked| {
            let timeout = parked.idle_timeout();
            let idle = now.duration_since(parked.since());
            if idle >= timeout {
                if let Some(lanes) = parked.lanes() {
                    lanes.idle_closed();
                }
                return false;
            }
            if idle >= shed_after {
                parked.shed();
            }
            // As the shared reaper: half the time-out, within 50 ms and `reap_every`.
            let every = (timeout / 2).clamp(Duration::from_millis(50), reap_every);
            period = Some(period.map_or(every, |period| period.min(every)));
            true
        });
    }
    if stacks.len() > KEEP_STACKS {
        stacks.retain(|stack| !stack.idle.is_empty());
    }
    period
}
