//! Admission by predicted wait, for a pool whose capacity was declared (`workers`): a request
//! that would queue is refused at once when its expected wait, by Little's law (its place in the
//! queue × the recent service time ÷ capacity), exceeds its deadline.
//!
//! Sojourn control. The queue's delay (the wait of a request joining it now, its depth × the
//! service time ÷ capacity, PIE's estimate) is sampled at every change. The queue **stands**
//! (sustained overload) once that delay rose by [`GROWTH_SERVICES`] service times within the last
//! [`WINDOW_SERVICES`], judged in waiters (that many a place), not in the service time each
//! sample had (it is filling faster than the workers drain it: at twice the capacity it
//! gains one second of delay per second, while Poisson arrivals at the capacity make it wander,
//! by a few service times per window), or once it stayed above the target ([`TARGET_SERVICES`])
//! for an interval ([`INTERVAL_SERVICES`]: CoDel's test, for a slow overload that never grows
//! fast); it stands until it empties while it is not refusing ([`REFUSALS_PER_PLACE`] refusals
//! per place within the last [`HOLD_SERVICES`]). While it stands, the pool serves the newest
//! waiter first (LIFO); its room is the target ([`TARGET_SERVICES`] of delay) when it starts
//! standing after a jump (its delay grew within [`JUMP_SERVICES`]: a burst), or its delay then
//! when it grew gradually (an overload's onset, which takes no more), one service time less for
//! each service time it has stood, down to
//! [`ROOM_FLOOR_SERVICES`], and at the floor at once while it refuses, or from the start when it
//! stands again within [`HOLD_SERVICES`] of stopping with its room at the floor (a lull inside
//! an overload that goes on, not a new burst): a burst that a short wait
//! drains is admitted whole, while under a sustained overload the room is down to one service
//! time as soon as it refuses two per place (an overload that goes on). A newcomer
//! that finds it full is refused at once (503), unless it outranks a waiter: then the oldest
//! waiter of the lowest class below the newcomer's is dropped to make room. Once the room is at
//! its floor, a newcomer is also refused at once when the place it would get frees later than
//! [`FLOOR_WAIT_SERVICES`] from now (by the start times of the places in use), and the queue is
//! served first come, first served: those admitted are served within about that wait, and few
//! are admitted only to be dropped later. While it refuses, waiters that waited longer than
//! [`SOJOURN_SERVICES`] are dropped (CoDel's cap on the time a request may wait) for a newcomer
//! admitted in their stead, so the bottom of the stack cannot age while newcomers come. No
//! waiter is dropped so that a worker idles, nor for a newcomer refused all the same: a burst
//! that made the queue stand is served in full, but for what its room refused, even when its
//! refusals made it refusing. Only while requests come as fast as the places serve them is it
//! an overload that goes on ([`Admission::pressing`]: the room and the floor's wait judge a
//! newcomer only then, over [`PRESSURE_SERVICES`]; the overstayed are dropped only while the
//! last service time brought [`DROP_PRESSURE`] times that): a burst on top of a load under the
//! capacity is served in full, its newcomers admitted up to their deadline.
//! `high` waiters are never dropped: they are refused only past their own deadline.
//! A queue that does not stand serves the newest first too, but for waiters that waited
//! [`GUARD_SERVICES`]: the oldest of those go first.
//! Pure arithmetic on the caller's clock readings: the pool calls it inside its lock.

use std::collections::VecDeque;
use std::time::Duration;

use tokio::time::Instant;

/// The queue delay above which, held for an interval, a queue stands, in service times (CoDel's
/// target); also the room of a standing queue as it starts standing after a jump
/// ([`JUMP_SERVICES`]; main's room before the room shrank: a burst of 20 service times of delay
/// drains within a second for a 50 ms endpoint). With Poisson arrivals at the app's capacity a
/// queue wanders: in a 15 s run of 4 workers of 50 ms, its delay strays near a second (20
/// service times) before it drains again (lab/runs/2026-12-03-vm-overload/sim.py).
pub const TARGET_SERVICES: f64 = 20.0;

/// How long the queue delay must stay above the target before the queue counts as standing, in
/// service times (CoDel's interval): the test for an overload too slow for [`GROWTH_SERVICES`].
pub const INTERVAL_SERVICES: f64 = 10.0;

/// The window over which the queue delay's growth is judged, in service times.
pub const WINDOW_SERVICES: f64 = 8.0;

/// The growth of the queue delay within [`WINDOW_SERVICES`] that makes the queue stand, in
/// service times: at twice the capacity the delay grows by one service time per service time,
/// so the queue stands about 6 service times after the overload starts; Poisson arrivals at the
/// capacity grow it by a few per window, and this far only rarely (in the simulation of
/// lab/runs/2026-12-03-vm-overload-growth/sim.py, 15 s at 1x made it stand 0.1 times a run).
/// Counted in waiters (6 a place), so that a rise of the learnt service time is no growth.
pub const GROWTH_SERVICES: f64 = 6.0;

/// How fast the delay must have grown by [`GROWTH_SERVICES`] for the queue to stand with its
/// room at the target, in service times: from the last time it was at its least within the
/// window. A burst jumps (its requests come within a fraction of a service time) and is
/// admitted whole; an overload grows the delay gradually (at twice the capacity one service
/// time per service time: 2.5-7.4 service times to grow by six, in forty seeds of the
/// simulation of lab/runs/2026-12-05-vm-overload-onset/sim.py; at ten times, 0.4-0.8), and its
/// room starts at the delay it has, so that its newcomers are refused at once rather than
/// admitted to wait ~13 service times, served newest first, and dropped when the queue refuses
/// (44-50 late refusals at twice the capacity in lab/runs/2026-12-05-vm-overload-final; 21 a
/// run in the simulation, from 48). Three, not two: a burst of 60 spread over 200 ms grows the
/// delay by six service times in about two, and with two its room started at its delay and it
/// was cut to 20 served; with three it is served whole, and twice the capacity still grows
/// gradually (the lab's draw, and all forty seeds: lab/runs/2026-12-05-vm-overload-onset2).
pub const JUMP_SERVICES: f64 = 3.0;

/// The least room of a standing queue, in service times of delay (`capacity` waiters), reached
/// after it stood [`TARGET_SERVICES`] − 1 service times: its room is the target when it starts
/// standing, and shrinks by the time it has stood. A newcomer that would wait longer than the
/// room is refused at once, unless it outranks a waiter. Small, so that under a sustained
/// overload a refusal comes at once rather than after a wait: with a room of 20 service times
/// throughout (the 2026-12-03 rule) every refusal was a waiter dropped after it waited for the
/// room to turn over (p50 913 ms at twice the capacity, measured in
/// lab/runs/2026-12-03-vm-overload-growth). Not from the start, so that a burst is served: with
/// a room of one service time from the start, a burst of 60 requests into 4 idle workers of
/// 50 ms had 29 served, where a room of the target serves all 60 in 0.75 s
/// (lab/runs/2026-12-03-vm-overload-growth/sim.py, `python3 sim.py shrink`).
pub const ROOM_FLOOR_SERVICES: f64 = 1.0;

/// The longest a `normal` or `low` waiter of a standing queue waits before it is dropped, in
/// service times (CoDel's "cap the time a request may wait"): served newest first, the bottom of
/// the stack would otherwise age in place while newcomers are refused, and be served late
/// whenever arrivals pause (in lab/runs/2026-12-03-vm-overload-growth/sim.py, a room of one
/// service time with a cap of 20 made the served p99 570 ms at twice the capacity; with a cap
/// of 1, 127 ms).
pub const SOJOURN_SERVICES: f64 = 1.0;

/// How long after the refusals that make it refusing ([`REFUSALS_PER_PLACE`]) a standing queue
/// still stands when it empties, in service times: a room of one service time empties now and
/// then under a sustained overload, and each new growth to [`GROWTH_SERVICES`] would fill it
/// anew and serve those late (in the simulation, served p99 252 ms at twice the capacity without
/// the hold, 151 ms with 4, 127 ms with 8 or 16).
pub const HOLD_SERVICES: f64 = 8.0;

/// How many refusals per place (newcomers refused for a full standing queue, waiters dropped
/// from it) within [`HOLD_SERVICES`] make a standing queue refusing: it then drops overstayed
/// waiters, its room is at its floor ([`ROOM_FLOOR_SERVICES`]) whatever the time it has stood,
/// and it stands on when it empties. One refusal was enough before the floor's wait
/// ([`FLOOR_WAIT_SERVICES`]): that test refuses now and then at the app's capacity too, and one
/// refusal would keep the queue standing for ever after a spike (in the simulation of
/// lab/runs/2026-12-04-vm-overload-sojourn/sim.py, the first second after a 2x spike had 84%
/// served with one, 91% with two per place, main's figure). At twice the capacity a standing
/// queue refuses about one newcomer per service time per place, 8 per place within the hold.
pub const REFUSALS_PER_PLACE: usize = 2;

/// The refusals a standing queue keeps, in multiples of those that make it refusing
/// ([`REFUSALS_PER_PLACE`] × capacity): the adaptive limit of async workers moves while the
/// queue refuses, and a limit that grew must still find the refusals of before to count (a
/// round grows it by √limit at most: at most twice itself, from 1 to 2). Kept for the capacity
/// of the moment only, 10 refusals at 5 places were none at 6: the queue stopped refusing,
/// stopped standing as the place the limit grew by took its last waiter, and admitted six
/// service times of waiters again, to drop them once it stood again (at twice the capacity of
/// 4 blocking Uvicorn workers, 21 times in 15 s, 590 of its 626 late refusals:
/// lab/runs/2026-12-05-vm-overload-block2x).
pub const REFUSALS_KEPT: usize = 2;

/// The most a newcomer to a standing queue whose room is at its floor may wait, in service
/// times, by when the place it would get frees (the places' start times plus the service time,
/// its place in the queue counted): over it, it is refused at once. Waiters are served first
/// come, first served then, so a newcomer admitted is served within about this wait, unless the
/// app slows. With Little's law alone (the room of one service time, served newest first) four
/// sync workers that free together (they do, under a sustained overload: each takes the next
/// waiter the moment it frees) had their four places refilled at once after they freed, and
/// those waited the whole service time: measured p99 104 ms at 10x for a 50 ms endpoint
/// (lab/runs/2026-12-04-vm-overload-shrink), 101 ms in the simulation; with this wait, 79 ms in
/// the simulation, and 92% of the refusals at twice the capacity at once rather than 54%.
pub const FLOOR_WAIT_SERVICES: f64 = 0.5;

/// The longest a waiter of a queue that does not stand waits before it is served ahead of
/// newer ones, in service times. A queue that does not stand serves the newest waiter first
/// too: at the start of an overload the queue grows first come, first served for the ~6
/// service times before it stands, and served then those waited up to that long (at twice the
/// capacity, 13 requests a run over 103 ms in the simulation, more than the 1% that sets the
/// p99). Newest first, the waits of a queue that only wanders (Poisson arrivals at the app's
/// capacity) would spread up to the deadline; past this guard the oldest goes first, so they
/// stay within about it (1x p99 0.68 s in the simulation, 0.56 s first come, first served; at
/// twice the capacity 104 ms, 137 ms).
pub const GUARD_SERVICES: f64 = 10.0;

/// How far back a standing queue looks at its arrivals to judge whether the overload goes on,
/// in service times: it refuses a newcomer for its room or the floor's wait only while the last
/// this many service times brought at least as many requests as its places serve in them
/// (`capacity` per service time, every request counted, those that got a place at once too).
/// Arrivals slower than the workers serve are no overload, whatever the queue holds: after a
/// burst that made the queue stand on top of a load under the capacity (the usual traffic of
/// an app that a spike hits), that load's newcomers are admitted up to their deadline, as by a
/// queue that does not stand. Refused for the room, they had kept the queue refusing, and the
/// burst's waiters were dropped for the first of them admitted in their stead: in the simulation of
/// lab/runs/2026-12-05-vm-overload-pressure, 120 at once into 4 workers of 50 ms, then Poisson
/// arrivals at half the capacity for 3 s, had 125 of ~240 served (now 194); 60 at once on the
/// same, 154 of ~180 (now 179). Four service times, so that Poisson arrivals at twice the
/// capacity (32 expected against 16) are read as no overload for fewer than one in a thousand
/// newcomers, while a burst's own requests leave the look-back four service times after it.
pub const PRESSURE_SERVICES: f64 = 4.0;

/// The arrivals that let a standing queue drop its overstayed waiters for a newcomer, in
/// multiples of what its places serve: the last service time ([`SOJOURN_SERVICES`]) brought at
/// least this many times `capacity` requests. A burst's waiters that overstayed are not
/// dropped for a newcomer of a load under the capacity (the burst itself is gone from the last
/// service time by the time its waiters overstay it), while over twice the capacity the drops
/// go on (at twice, 8 expected in a service time at 4 places against 8: most newcomers find
/// them). A newcomer admitted in their stead drops every overstayed waiter at once, so one
/// cluster of arrivals was enough to drop a whole burst: at one and a half, a cluster of six
/// in a service time at three quarters of the capacity (3 expected) did so in the simulation of
/// lab/runs/2026-12-05-vm-overload-pressure (120 at once and then Poisson arrivals at 60
/// req/s into 4 workers of 50 ms: 199 of ~300 served, 220 with two; twice the capacity's
/// served p99 and late refusals as with one and a half, 80 ms and 21 a run).
pub const DROP_PRESSURE: f64 = 2.0;

/// The arrivals a queue keeps, in multiples of those [`PRESSURE_SERVICES`] counts
/// (`capacity` × [`PRESSURE_SERVICES`]): as [`REFUSALS_KEPT`], for an adaptive limit that grew.
const ARRIVALS_KEPT: usize = 2;

/// The most delay samples kept for the window's minimum: a bound on memory that only a queue
/// growing by one waiter per sample for a whole window could reach.
const WINDOW_SAMPLES: usize = 1024;

/// The least target and interval: a cached answer takes microseconds, and a clock tick is not
/// an interval.
const AT_LEAST: Duration = Duration::from_millis(1);

/// Weight of the newest sample in the service-time average.
const ALPHA: f64 = 0.2;

/// How long every place must have been held, with none given back while requests wait, in
/// mean service times, for the places to stall ([`Admission::service`]): four, so that the
/// spread of an app's service times moves nothing (on the lab's 2-core machine the sync
/// workers of 50 ms take 110-130 ms now and then at their capacity), while a slow endpoint
/// after fast ones (200 ms after 1 ms) stalls within a few of its milliseconds.
const STALL_SERVICES: f64 = 4.0;

/// Upper bounds of the time-in-queue histogram buckets, in milliseconds (then `+Inf`).
pub const WAIT_BUCKETS_MS: [u64; 10] = [1, 5, 10, 25, 50, 100, 250, 500, 1000, 5000];

/// In which order a freed place goes to the waiters of a class ([`Admission::order`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Order {
    /// First come, first served.
    OldestFirst,
    /// The newest first.
    NewestFirst,
    /// The newest first, unless the oldest has waited `guard` or longer.
    NewestFirstUnlessOlder { guard: Duration },
}

/// Why a request was refused without a connection.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reason {
    /// Its predicted wait exceeded its deadline (`queue_timeout` or the client's header).
    PredictedWait,
    /// The queue stands and its room is full, and holds nothing of a lower class than the
    /// request's to drop for it.
    StandingQueue,
    /// It waited in a standing queue for longer than [`SOJOURN_SERVICES`], or was the oldest of
    /// a lower class than a newcomer that found the standing queue full: dropped.
    StandingDrop,
    /// `queue_size` requests wait already.
    QueueFull,
    /// It waited its whole deadline.
    QueueTimeout,
}

impl Reason {
    /// The metric label and log cause.
    pub fn label(self) -> &'static str {
        match self {
            Reason::PredictedWait => "predicted_wait",
            Reason::StandingQueue => "standing_queue",
            Reason::StandingDrop => "standing_drop",
            Reason::QueueFull => "queue_full",
            Reason::QueueTimeout => "queue_timeout",
        }
    }
}

/// The request header in which a client asks for a shorter wait than `queue_timeout`, in
/// milliseconds (`X-Weir-Queue-Deadline: 250`); a value that is not a whole number is ignored.
/// It can only shorten the wait.
pub const DEADLINE_HEADER: &str = "x-weir-queue-deadline";

/// The deadline a [`DEADLINE_HEADER`] value asks for: whole milliseconds, else none.
pub fn client_deadline(value: &[u8]) -> Option<Duration> {
    let millis: u64 = std::str::from_utf8(value).ok()?.trim().parse().ok()?;
    Some(Duration::from_millis(millis))
}

/// A refusal at enqueue: why, and when a retry would be served (the predicted drain time).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Refusal {
    pub reason: Reason,
    pub retry_after: Duration,
}

/// The counters [`Admission`] keeps, copied into [`super::PoolStats`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct AdmissionStats {
    /// The recent service time (a slot's occupancy), microseconds; 0 before the first sample.
    pub service_us: u64,
    /// Refused at enqueue: predicted wait over the deadline.
    pub refused_predicted: u64,
    /// Refused at enqueue: standing queue.
    pub refused_standing: u64,
    /// Refused: queue full.
    pub refused_full: u64,
    /// Dropped from a standing queue: waited over the sojourn cap, or made room for a newcomer
    /// of a higher class.
    pub dropped_standing: u64,
    /// Time in queue of requests that waited and got a place: buckets of [`WAIT_BUCKETS_MS`]
    /// (not cumulative; the last is `+Inf`), sum and count.
    pub wait_buckets: [u64; 11],
    pub wait_sum_us: u64,
    pub wait_count: u64,
    /// The predicted waits of those same requests, summed: against `wait_sum_us`, how well the
    /// prediction holds.
    pub predicted_sum_us: u64,
}

/// The admission state of one pool.
#[derive(Debug)]
pub struct Admission {
    capacity: usize,
    /// Mean slot occupancy, seconds; `None` until a slot was released.
    service: Option<f64>,
    /// When a place was last taken or given back.
    changed: Option<Instant>,
    /// How long every place has been held with none given back, seconds, as the last sample
    /// of a queue with waiters found ([`Admission::queue_depth`]); 0 when none waits, or a
    /// place changed since. A lower bound of the service time now ([`Admission::service`]).
    stall: f64,
    /// Since when the queue delay has been above the target without a break (CoDel's
    /// `first_above_time`); `None` while it is below or the queue is empty.
    above_since: Option<Instant>,
    /// The depths sampled in the last window that may still be its minimum (each lower than
    /// the ones after it, oldest first): the front is the window's least depth.
    window: VecDeque<(Instant, usize)>,
    /// The delay grew by [`GROWTH_SERVICES`] within a window, or stayed above the target for an
    /// interval: the queue stands until it empties while not [`Admission::refusing`].
    standing: bool,
    /// Since when the queue stands (`standing`): its room shrinks by the time since.
    standing_since: Option<Instant>,
    /// The room a standing queue started with when its delay grew gradually (not within
    /// [`JUMP_SERVICES`]): its delay then. `None`: the target.
    room_start: Option<Duration>,
    /// When a standing queue whose room was at its floor last stopped standing (it emptied
    /// while not refusing): one that stands again within [`HOLD_SERVICES`] of it starts with its
    /// room at the floor ([`Admission::resumed`]).
    lapsed: Option<Instant>,
    /// When the last refusals of a standing queue were (newcomers refused, waiters dropped),
    /// oldest first: twice [`REFUSALS_PER_PLACE`] × capacity at most ([`REFUSALS_KEPT`]).
    refusals: VecDeque<Instant>,
    /// When the last `capacity` places were taken, oldest first: under load, when the places
    /// now in use were, so when they free.
    starts: VecDeque<Instant>,
    /// When the last requests came ([`Admission::arrived`]), oldest first: [`ARRIVALS_KEPT`] ×
    /// capacity × [`PRESSURE_SERVICES`] at most.
    arrivals: VecDeque<Instant>,
    stats: AdmissionStats,
}

impl Admission {
    pub fn new(capacity: usize) -> Admission {
        Admission {
            capacity: capacity.max(1),
            service: None,
            changed: None,
            stall: 0.0,
            above_since: None,
            window: VecDeque::new(),
            standing: false,
            standing_since: None,
            room_start: None,
            lapsed: None,
            refusals: VecDeque::new(),
            starts: VecDeque::new(),
            arrivals: VecDeque::new(),
            stats: AdmissionStats::default(),
        }
    }

    /// Starts from the service time `other` learnt, when none is learnt yet: the admission of a
    /// pool that a reload replaced, in front of the same app.
    pub fn learn_from(&mut self, other: &Admission) {
        if self.service.is_none() {
            self.service = other.service;
        }
    }

    /// The cap changed (the adaptive limit of async workers): waits are predicted with it.
    pub fn set_capacity(&mut self, capacity: usize) {
        self.capacity = capacity.max(1);
        while self.starts.len() > self.capacity {
            self.starts.pop_front();
        }
    }

    /// A place was taken now (at once, or handed to a waiter): it frees a service time later.
    pub fn place_taken(&mut self, now: Instant) {
        keep_last(&mut self.starts, now, self.capacity);
        self.changed = Some(now);
        self.stall = 0.0;
    }

    /// A place held for `occupancy` was given back now: a service-time sample
    /// ([`Admission::record_service`]), and the end of any stall.
    pub fn place_given_back(&mut self, now: Instant, occupancy: Duration) {
        self.record_service(occupancy);
        self.changed = Some(now);
        self.stall = 0.0;
    }

    /// The service time now: the mean occupancy of the places given back, unless the places
    /// stall: every one has been held over [`STALL_SERVICES`] times that mean with none given
    /// back while requests wait, and then how long they have been (a lower bound of what each
    /// place in use takes). The mean follows the requests that ended: a burst of slow requests
    /// after fast ones (a 200 ms endpoint after a 1 ms one) has the mean of the fast ones until
    /// its own end, and judged by it the burst's queue stood within milliseconds, its room
    /// shrank to one service time of the fast ones and its waiters were dropped (50 requests
    /// of 200 ms at once into 2 places after one of 1 ms: 4 served, 46 refused or dropped,
    /// where after one of 200 ms 41 are served). The predicted wait and every time scale, the
    /// target, the room and the sojourn cap, follow it; the arrivals' look-back
    /// ([`Admission::pressing`]) keeps the mean.
    fn service(&self) -> Option<f64> {
        self.service.map(|mean| {
            if self.stall > mean * STALL_SERVICES {
                self.stall
            } else {
                mean
            }
        })
    }

    /// When a request behind `ahead` waiters gets a place, every place being taken, served first
    /// come, first served: the places free a service time after they were taken and again every
    /// service time, so the request gets the `ahead % capacity`-th earliest's turn `ahead ÷
    /// capacity` service times later. `None` until a service time is known and `capacity`
    /// places were taken.
    pub fn wait_for_place(&self, now: Instant, ahead: usize) -> Option<Duration> {
        let service = Duration::from_secs_f64(self.service()?);
        if self.starts.len() < self.capacity {
            return None;
        }
        // Taken in time order, so already sorted.
        let start = self.starts[ahead % self.capacity];
        let turns = u32::try_from(ahead / self.capacity + 1).ok()?;
        let frees = start + service.checked_mul(turns)?;
        Some(frees.saturating_duration_since(now))
    }

    /// A request came to the pool now, whether it gets a place at once, waits or is refused: the
    /// arrivals tell an overload that goes on ([`Admission::pressing`]) from a burst that
    /// stopped.
    pub fn arrived(&mut self, now: Instant) {
        let kept = self.arrivals_in(PRESSURE_SERVICES, 1.0) * ARRIVALS_KEPT;
        keep_last(&mut self.arrivals, now, kept);
    }

    /// How many arrivals `services` service times bring at `rate` times what the places serve.
    fn arrivals_in(&self, services: f64, rate: f64) -> usize {
        ((services * rate * self.capacity as f64).ceil() as usize).max(1)
    }

    /// Whether the last `services` service times brought at least `rate` times what the places
    /// serve in them: the arrival that many back came within them. True before a service time
    /// is known (no queue stands then).
    fn arriving(&self, now: Instant, services: f64, rate: f64) -> bool {
        // The mean, not a stall's hold: stretched to the hold (hundreds of milliseconds), the
        // look-back would keep a burst's own requests in it for as long, as an overload that
        // goes on.
        let Some(service) = self.service else {
            return true;
        };
        nth_latest(&self.arrivals, self.arrivals_in(services, rate))
            .is_some_and(|at| now.duration_since(at).as_secs_f64() < service * services)
    }

    /// Whether requests come at least as fast as the places serve them
    /// ([`PRESSURE_SERVICES`]): only then does a standing queue refuse a newcomer for its room
    /// or the floor's wait ([`Admission::full`]).
    pub fn pressing(&self, now: Instant) -> bool {
        self.arriving(now, PRESSURE_SERVICES, 1.0)
    }

    pub fn stats(&self) -> AdmissionStats {
        let mut stats = self.stats;
        stats.service_us = self.service.map_or(0, |seconds| (seconds * 1e6) as u64);
        stats
    }

    /// A slot was held for `occupancy` (connect, request, response): one service-time sample.
    pub fn record_service(&mut self, occupancy: Duration) {
        let sample = occupancy.as_secs_f64();
        self.service = Some(match self.service {
            None => sample,
            Some(mean) => mean + ALPHA * (sample - mean),
        });
    }

    /// The queue delay's target: [`TARGET_SERVICES`] service times; `None` before any is known.
    pub fn target(&self) -> Option<Duration> {
        let service = self.service()?;
        Some(Duration::from_secs_f64(service * TARGET_SERVICES).max(AT_LEAST))
    }

    /// How long the delay must stay above the target: [`INTERVAL_SERVICES`] service times.
    fn interval(&self) -> Option<Duration> {
        let service = self.service()?;
        Some(Duration::from_secs_f64(service * INTERVAL_SERVICES).max(AT_LEAST))
    }

    /// The queue now holds `depth` live waiters: a sample of its delay (piecewise constant
    /// between samples, so its minimum over a window is the least of the samples in it).
    pub fn queue_depth(&mut self, now: Instant, depth: usize) {
        // A waiter waits only while every place is held: none was given back since the last
        // change, so each place in use has been held at least that long.
        self.stall = match self.changed {
            Some(changed) if depth > 0 => now.duration_since(changed).as_secs_f64(),
            _ => 0.0,
        };
        if self.lapsed_standing(now) {
            // It emptied while it refused and stayed empty until its refusals lapsed: it
            // stopped standing then, as a sample at that moment would have found.
            if let (Some(since), Some(lapse)) = (self.standing_since, self.refusals_lapse()) {
                self.lapsed = self.at_floor(lapse, since).then_some(lapse);
            }
            self.standing = false;
            self.standing_since = None;
            self.room_start = None;
        }
        // Whether the delay held above the target up to now, before this sample may end that.
        self.standing_since = self.standing_since(now);
        self.standing = self.standing_since.is_some();
        if depth == 0 {
            self.above_since = None;
            // A queue that refused a newcomer for fullness lately stands on when it empties: its
            // room empties now and then under a sustained overload.
            let was = self.standing_since;
            self.standing = self.standing && self.refusing(now);
            if !self.standing {
                // A lull inside an overload that goes on: remembered, so that its room does not
                // start at the target again when it stands again within the hold.
                if let Some(since) = was {
                    self.lapsed = self.at_floor(now, since).then_some(now);
                }
                self.standing_since = None;
                self.room_start = None;
            }
            // An empty queue is a delay of zero: growth from it counts.
            self.window.clear();
            self.window.push_back((now, 0));
            return;
        }
        let (Some(delay), Some(target), Some(service)) = (
            self.predicted_wait(depth - 1),
            self.target(),
            self.service(),
        ) else {
            return;
        };
        if delay < target {
            self.above_since = None;
        } else if self.above_since.is_none() {
            self.above_since = Some(now);
        }
        // The window's minimum: samples not lower than this one can no longer be it.
        let window = Duration::from_secs_f64(service * WINDOW_SERVICES).max(AT_LEAST);
        while self.window.back().is_some_and(|&(_, old)| old >= depth) {
            self.window.pop_back();
        }
        // The front goes once the sample after it is as old as the window: until then, the
        // front's value was the delay in effect when the window began (or a later one was
        // lower).
        while self.window.len() >= WINDOW_SAMPLES
            || self
                .window
                .get(1)
                .is_some_and(|&(at, _)| now.duration_since(at) >= window)
        {
            self.window.pop_front();
        }
        self.window.push_back((now, depth));
        let least = self.window.front().map_or(depth, |&(_, least)| least);
        // Judged in waiters (six service times of delay: six waiters a place), not in the
        // delays of the samples: each sample's delay had the service time of its moment, and
        // one slow request raises the learnt one by a fifth of its excess, so a deep queue's
        // delay seemed to grow by it at once (a queue wandering 40-60 deep at the app's
        // capacity stood and dropped its waiters after slow requests in the lab:
        // lab/runs/2026-12-05-vm-overload-onset2).
        let growth = (GROWTH_SERVICES * self.capacity as f64).ceil() as usize;
        if depth.saturating_sub(least) >= growth && !self.standing {
            self.standing = true;
            self.standing_since = Some(now);
            // The growth began when the delay was last at the least of the samples after the
            // window's minimum (the second of the window's samples; this one at least).
            let rose = self.window.get(1).map_or(now, |&(at, _)| at);
            let jump = Duration::from_secs_f64(service * JUMP_SERVICES);
            self.room_start = (now.duration_since(rose) >= jump).then_some(delay.min(target));
        }
    }

    /// Whether the queue stands: its delay grew by [`GROWTH_SERVICES`] within a window, or
    /// stayed above the target for a whole interval, and it has not emptied since (or did
    /// while it was refusing: [`REFUSALS_PER_PLACE`]).
    pub fn standing(&self, now: Instant) -> bool {
        self.standing_since(now).is_some()
    }

    /// Since when the queue stands, if it does: when its delay grew by [`GROWTH_SERVICES`], or
    /// when its delay had been above the target for an interval.
    fn standing_since(&self, now: Instant) -> Option<Instant> {
        if self.standing {
            // One that emptied while it refused stands on only while it refuses: an idle
            // queue takes no sample to end it when its refusals lapse.
            if self.lapsed_standing(now) {
                return None;
            }
            return self.standing_since;
        }
        match (self.above_since, self.interval()) {
            (Some(since), Some(interval)) if now.duration_since(since) >= interval => {
                Some(since + interval)
            }
            _ => None,
        }
    }

    /// The longest a waiter of a standing queue waits: [`SOJOURN_SERVICES`] service times.
    pub fn sojourn(&self) -> Option<Duration> {
        let service = self.service()?;
        Some(Duration::from_secs_f64(service * SOJOURN_SERVICES).max(AT_LEAST))
    }

    /// The room of a queue that has stood since `since`: the target ([`TARGET_SERVICES`] service
    /// times of delay), or its delay then if it grew gradually ([`JUMP_SERVICES`]), less the time
    /// it has stood, [`ROOM_FLOOR_SERVICES`] at least; the floor at once while it is refusing
    /// ([`Admission::at_floor`]).
    fn room(&self, now: Instant, since: Instant) -> Option<Duration> {
        let floor = self.floor()?;
        if self.refusing(now) || self.resumed(since) {
            return Some(floor);
        }
        let start = match self.room_start {
            Some(start) => start,
            None => self.target()?,
        };
        Some(start.saturating_sub(now.duration_since(since)).max(floor))
    }

    /// Whether the room of a queue that has stood since `since` is down to its floor: it has
    /// stood [`TARGET_SERVICES`] − [`ROOM_FLOOR_SERVICES`] service times, or it is refusing
    /// ([`REFUSALS_PER_PLACE`]): an overload that goes on, where a room of more than the floor
    /// only admits newcomers to drop them a service time later. Served newest first, a room of
    /// 20 service times under a sustained overload turns over and over (about 7 times in the
    /// first second at ten times the capacity): each place freed goes to the newest, the bottom
    /// of the stack is dropped once it waited the sojourn cap, and newcomers refill the room.
    /// Those were the refusals that came late (5% of all at ten times the capacity, 7% at
    /// twice; with this, 0.7% and 3.5%: lab/runs/2026-12-04-vm-overload-collapse).
    fn at_floor(&self, now: Instant, since: Instant) -> bool {
        self.floor()
            .is_some_and(|floor| self.room(now, since) == Some(floor))
    }

    /// The least room of a standing queue: [`ROOM_FLOOR_SERVICES`] service times.
    fn floor(&self) -> Option<Duration> {
        let service = self.service()?;
        Some(Duration::from_secs_f64(service * ROOM_FLOOR_SERVICES).max(AT_LEAST))
    }

    /// Whether a queue that stands since `since` stood again within [`HOLD_SERVICES`] of
    /// stopping with its room at its floor: then its room starts at the floor. A lull inside a
    /// sustained overload can empty the queue once its refusals thin out; standing again with
    /// a room of the target, it admitted up to 20 service times of waiters, and dropped them
    /// after a wait as soon as it refused two per place again (49 at twice the capacity in
    /// lab/runs/2026-12-05-vm-overload-recovery).
    fn resumed(&self, since: Instant) -> bool {
        let (Some(lapsed), Some(service)) = (self.lapsed, self.service()) else {
            return false;
        };
        since.duration_since(lapsed).as_secs_f64() < service * HOLD_SERVICES
    }

    /// Whether the standing queue refused [`REFUSALS_PER_PLACE`] × capacity newcomers or waiters
    /// within the last [`HOLD_SERVICES`]: the overload goes on (a burst that made the queue stand
    /// and then stopped coming refuses no one, or a few).
    fn refusing(&self, now: Instant) -> bool {
        let (Some(oldest), Some(service)) = (self.counted_refusal(), self.service()) else {
            return false;
        };
        now.duration_since(oldest).as_secs_f64() < service * HOLD_SERVICES
    }

    /// The oldest of the last [`REFUSALS_PER_PLACE`] × capacity refusals, those that make the
    /// queue refusing while they are within the hold. `None` when fewer were counted.
    fn counted_refusal(&self) -> Option<Instant> {
        nth_latest(&self.refusals, self.capacity * REFUSALS_PER_PLACE)
    }

    /// Whether a queue that stood emptied while it refused, and its refusals have lapsed since:
    /// it stands no more, though no sample came to end it.
    fn lapsed_standing(&self, now: Instant) -> bool {
        self.standing && self.emptied() && !self.refusing(now)
    }

    /// Whether the last sample had no waiter (an empty queue leaves the window one sample of
    /// depth 0): a queue that emptied while it refused stands on only until its refusals lapse
    /// ([`Admission::standing_since`]).
    fn emptied(&self) -> bool {
        self.window.back().is_none_or(|&(_, depth)| depth == 0)
    }

    /// When [`Admission::refusing`] ends if no refusal comes: its oldest counted refusal
    /// passes the hold. `None` when it counts none.
    fn refusals_lapse(&self) -> Option<Instant> {
        let (oldest, service) = (self.counted_refusal()?, self.service()?);
        Some(oldest + Duration::from_secs_f64(service * HOLD_SERVICES))
    }

    /// A newcomer was refused, or a waiter dropped, by a standing queue now.
    fn refused(&mut self, now: Instant) {
        let kept = self.capacity * REFUSALS_PER_PLACE * REFUSALS_KEPT;
        keep_last(&mut self.refusals, now, kept);
    }

    /// In which order a freed place goes to the waiters of a class: the newest first while the
    /// queue stands ([`Order::NewestFirst`]), but first come, first served once its room is at
    /// its floor (its newcomers were admitted for a wait of at most [`FLOOR_WAIT_SERVICES`] in
    /// that order); the newest first unless the oldest waited [`GUARD_SERVICES`] while it does
    /// not stand; first come, first served before a service time is known.
    pub fn order(&self, now: Instant) -> Order {
        let Some(service) = self.service() else {
            return Order::OldestFirst;
        };
        match self.standing_since(now) {
            Some(since) if self.at_floor(now, since) => Order::OldestFirst,
            Some(_) => Order::NewestFirst,
            None => Order::NewestFirstUnlessOlder {
                guard: Duration::from_secs_f64(service * GUARD_SERVICES).max(AT_LEAST),
            },
        }
    }

    /// A waiter of a standing queue that has waited `waited` is dropped (CoDel's drop at the
    /// head): it waited over the sojourn cap while the queue refuses newcomers, and served
    /// newest first it would only age further and be served late, to a client that has likely
    /// given up, while newer ones wait. A queue that refuses no one (a burst, served in full)
    /// drops no one. The pool drops such waiters only for a newcomer then admitted in their
    /// stead: after a burst, with no newcomer, a drop frees nothing for anyone. Nor while the
    /// last service time brought fewer than [`DROP_PRESSURE`] times what the places serve: a
    /// load under the capacity that follows a burst.
    pub fn overstayed(&self, now: Instant, waited: Duration) -> bool {
        self.standing(now)
            && self.refusing(now)
            && self.sojourn().is_some_and(|sojourn| waited > sojourn)
            && self.arriving(now, SOJOURN_SERVICES, DROP_PRESSURE)
    }

    /// Whether a standing queue of `depth` waiters is full for a newcomer that `ahead` of them
    /// would be served before, so that it is refused at once (or displaces a waiter it
    /// outranks): behind them all it would wait longer than the room, which shrinks as long as
    /// the queue stands, or, the room at its floor, the place it would get frees later than
    /// [`FLOOR_WAIT_SERVICES`] from now. The pool asks it only while
    /// [`Admission::pressing`]; it asks it too, whatever the arrivals, whether a newcomer would
    /// be admitted were the overstayed dropped.
    pub fn full(&self, now: Instant, depth: usize, ahead: usize) -> bool {
        let (Some(since), Some(service)) = (self.standing_since(now), self.service()) else {
            return false;
        };
        let over_room = matches!(
            (self.predicted_wait(depth), self.room(now, since)),
            (Some(delay), Some(room)) if delay > room
        );
        let floor_wait = Duration::from_secs_f64(service * FLOOR_WAIT_SERVICES).max(AT_LEAST);
        over_room
            || (self.at_floor(now, since)
                && self
                    .wait_for_place(now, ahead)
                    .is_some_and(|wait| wait > floor_wait))
    }

    /// A waiter was dropped from a standing queue now: counted, with the time the queue drains
    /// in.
    pub fn drop_standing(&mut self, now: Instant, ahead: usize) -> Refusal {
        self.refused(now);
        self.stats.dropped_standing += 1;
        Refusal {
            reason: Reason::StandingDrop,
            retry_after: self.predicted_wait(ahead).unwrap_or(Duration::from_secs(1)),
        }
    }

    /// The expected wait of a request behind `ahead` waiters, every place being taken: by
    /// Little's law the places free at `capacity ÷ service` per second. `None` before any
    /// service time is known.
    pub fn predicted_wait(&self, ahead: usize) -> Option<Duration> {
        let service = self.service()?;
        Some(Duration::from_secs_f64(
            (ahead + 1) as f64 * service / self.capacity as f64,
        ))
    }

    /// Whether a request behind `ahead` live waiters (those served before it) may join the
    /// queue with `deadline`: its predicted wait (`None` when nothing is known yet), or the
    /// refusal.
    pub fn admit(&mut self, ahead: usize, deadline: Duration) -> Result<Option<Duration>, Refusal> {
        let Some(predicted) = self.predicted_wait(ahead) else {
            return Ok(None);
        };
        if predicted > deadline {
            self.stats.refused_predicted += 1;
            return Err(Refusal {
                reason: Reason::PredictedWait,
                retry_after: predicted,
            });
        }
        Ok(Some(predicted))
    }

    /// A newcomer found the standing queue full and nothing of a lower class to drop: counted,
    /// with the time the queue drains in; a refusal towards the hold ([`REFUSALS_PER_PLACE`]).
    pub fn refuse_standing(&mut self, now: Instant, depth: usize) -> Refusal {
        self.stats.refused_standing += 1;
        self.refused(now);
        Refusal {
            reason: Reason::StandingQueue,
            retry_after: self.predicted_wait(depth).unwrap_or(Duration::from_secs(1)),
        }
    }

    /// A refusal because `queue_size` waiters wait: counted, with the time the queue drains in.
    pub fn refuse_full(&mut self, ahead: usize) -> Refusal {
        self.stats.refused_full += 1;
        Refusal {
            reason: Reason::QueueFull,
            retry_after: self.predicted_wait(ahead).unwrap_or(Duration::from_secs(1)),
        }
    }

    /// A waiter got its place after `waited`; it had been predicted `predicted`.
    pub fn record_wait(&mut self, waited: Duration, predicted: Option<Duration>) {
        let bucket = WAIT_BUCKETS_MS
            .iter()
            .position(|&bound| waited <= Duration::from_millis(bound))
            .unwrap_or(WAIT_BUCKETS_MS.len());
        self.stats.wait_buckets[bucket] += 1;
        self.stats.wait_sum_us += waited.as_micros() as u64;
        self.stats.wait_count += 1;
        self.stats.predicted_sum_us += predicted.map_or(0, |wait| wait.as_micros() as u64);
    }
}

/// Appends `now` to `times` (oldest first), keeping the last `kept` (one at least).
fn keep_last(times: &mut VecDeque<Instant>, now: Instant, kept: usize) {
    while times.len() >= kept.max(1) {
        times.pop_front();
    }
    times.push_back(now);
}

/// The `count`-th most recent of `times` (oldest first): `None` when fewer were kept.
fn nth_latest(times: &VecDeque<Instant>, count: usize) -> Option<Instant> {
    let index = times.len().checked_sub(count)?;
    times.get(index).copied()
}

#[cfg(test)]
mod tests;
