//! Admission by predicted wait, for a pool whose capacity was declared (`workers`): a request
//! that would queue is refused at once when its expected wait, by Little's law (its place in the
//! queue × the recent service time ÷ capacity), exceeds its deadline.
//!
//! Sojourn control, in CoDel's spirit: the queue's delay (the wait of a request joining it now,
//! its depth × the service time ÷ capacity, PIE's estimate) is judged by its minimum over an
//! interval against a target, both in service times ([`INTERVAL_SERVICES`], [`TARGET_SERVICES`]):
//! a queue that drains below the target within its interval is never cut, however deep it got
//! (a burst, or Poisson arrivals at the app's capacity); one whose delay stayed above the target
//! for a whole interval is standing (sustained overload), and stays so until it empties. While
//! it stands, a request is admitted for one service time of wait at most, the pool serves the
//! newest waiter first and drops those that waited over the target (CoDel drops at the head), so
//! the queue keeps the workers busy without filling with requests that wait long. That cut
//! sheds the low classes first (a request counts only the waiters served before it: its class
//! and those above), and spares `high` ones, which are refused only past their own deadline.
//! Pure arithmetic on the caller's clock readings: the pool calls it inside its lock.

use std::time::Duration;

use tokio::time::Instant;

use crate::config::Priority;

/// The queue delay a queue may keep without being cut, in service times (CoDel's target). With
/// Poisson arrivals at the app's capacity a queue wanders: in a 15 s run of 4 workers of 50 ms,
/// its delay strays near a second (20 service times) before it drains again, and a cut there
/// would refuse a load the app can carry (lab/runs/2026-12-03-vm-overload).
pub const TARGET_SERVICES: f64 = 20.0;

/// How long the queue delay must stay above the target before the queue counts as standing, in
/// service times (CoDel's interval): a burst the workers clear within it is never cut.
pub const INTERVAL_SERVICES: f64 = 10.0;

/// The least target and interval: a cached answer takes microseconds, and a clock tick is not
/// an interval.
const AT_LEAST: Duration = Duration::from_millis(1);

/// Weight of the newest sample in the service-time average.
const ALPHA: f64 = 0.2;

/// Upper bounds of the time-in-queue histogram buckets, in milliseconds (then `+Inf`).
pub const WAIT_BUCKETS_MS: [u64; 10] = [1, 5, 10, 25, 50, 100, 250, 500, 1000, 5000];

/// Why a request was refused without a connection.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reason {
    /// Its predicted wait exceeded its deadline (`queue_timeout` or the client's header).
    PredictedWait,
    /// The queue is standing and its predicted wait exceeded one service time.
    StandingQueue,
    /// It waited in a standing queue for longer than the target: dropped at the head.
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

/// The deadline the client asked for in [`DEADLINE_HEADER`], if any.
pub fn client_deadline(headers: &http::HeaderMap) -> Option<Duration> {
    let value = headers.get(DEADLINE_HEADER)?.to_str().ok()?;
    let millis: u64 = value.trim().parse().ok()?;
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
    /// Dropped after waiting over the target in a standing queue.
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
    /// Since when the queue delay has been above the target without a break (CoDel's
    /// `first_above_time`); `None` while it is below or the queue is empty.
    above_since: Option<Instant>,
    /// The delay stayed above the target for an interval: the queue stands until it empties.
    standing: bool,
    stats: AdmissionStats,
}

impl Admission {
    pub fn new(capacity: usize) -> Admission {
        Admission {
            capacity: capacity.max(1),
            service: None,
            above_since: None,
            standing: false,
            stats: AdmissionStats::default(),
        }
    }

    /// The cap changed (the adaptive limit of async workers): waits are predicted with it.
    pub fn set_capacity(&mut self, capacity: usize) {
        self.capacity = capacity.max(1);
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
        let service = self.service?;
        Some(Duration::from_secs_f64(service * TARGET_SERVICES).max(AT_LEAST))
    }

    /// How long the delay must stay above the target: [`INTERVAL_SERVICES`] service times.
    fn interval(&self) -> Option<Duration> {
        let service = self.service?;
        Some(Duration::from_secs_f64(service * INTERVAL_SERVICES).max(AT_LEAST))
    }

    /// The queue now holds `depth` live waiters: a sample of its delay (piecewise constant
    /// between samples, so its minimum over an interval is the least of the samples in it).
    pub fn queue_depth(&mut self, now: Instant, depth: usize) {
        // Whether the delay held above the target up to now, before this sample may end that.
        self.standing = self.standing(now);
        if depth == 0 {
            self.above_since = None;
            self.standing = false;
            return;
        }
        let (Some(delay), Some(target)) = (self.predicted_wait(depth - 1), self.target()) else {
            return;
        };
        if delay < target {
            self.above_since = None;
        } else if self.above_since.is_none() {
            self.above_since = Some(now);
        }
    }

    /// Whether the queue stands: its delay stayed above the target for a whole interval, and it
    /// has not emptied since.
    pub fn standing(&self, now: Instant) -> bool {
        self.standing
            || match (self.above_since, self.interval()) {
                (Some(since), Some(interval)) => now.duration_since(since) >= interval,
                _ => false,
            }
    }

    /// A waiter of a standing queue that has waited `waited` is dropped (CoDel's drop at the
    /// head): it waited over the target, where serving it late would make a worker answer a
    /// client that has likely given up while newer ones wait.
    pub fn overstayed(&self, now: Instant, waited: Duration) -> bool {
        self.standing(now) && self.target().is_some_and(|target| waited > target)
    }

    /// A waiter was dropped at the head: counted, with the time the queue drains in.
    pub fn drop_standing(&mut self, ahead: usize) -> Refusal {
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
        let service = self.service?;
        Some(Duration::from_secs_f64(
            (ahead + 1) as f64 * service / self.capacity as f64,
        ))
    }

    /// Whether a request of class `priority` behind `ahead` live waiters (those served before
    /// it) may join the queue with `deadline`: its predicted wait (`None` when nothing is known
    /// yet), or the refusal. A standing queue cuts the deadline of every class but `high`.
    pub fn admit(
        &mut self,
        now: Instant,
        ahead: usize,
        deadline: Duration,
        priority: Priority,
    ) -> Result<Option<Duration>, Refusal> {
        let Some(predicted) = self.predicted_wait(ahead) else {
            return Ok(None);
        };
        // The service time itself, at least a millisecond (a cached answer takes microseconds).
        let standing_cap =
            Duration::from_secs_f64(self.service.unwrap_or(0.0)).max(Duration::from_millis(1));
        let reason = if predicted > deadline {
            Reason::PredictedWait
        } else if priority != Priority::High && self.standing(now) && predicted > standing_cap {
            Reason::StandingQueue
        } else {
            return Ok(Some(predicted));
        };
        match reason {
            Reason::PredictedWait => self.stats.refused_predicted += 1,
            _ => self.stats.refused_standing += 1,
        }
        Err(Refusal {
            reason,
            retry_after: predicted,
        })
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

#[cfg(test)]
mod tests;
