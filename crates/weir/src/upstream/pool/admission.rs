//! Admission by predicted wait, for a pool whose capacity was declared (`workers`): a request
//! that would queue is refused at once when its expected wait, by Little's law (its place in the
//! queue × the recent service time ÷ capacity), exceeds its deadline; under a standing queue
//! (CoDel's test: not empty for [`STANDING_INTERVAL`]) the deadline is cut to one service time,
//! so a queue that does not drain cannot fill with requests that wait long. That cut sheds the
//! low classes first (a request counts only the waiters served before it: its class and those
//! above), and spares `high` ones, which are refused only past their own deadline. Pure
//! arithmetic on the caller's clock readings: the pool calls it inside its lock.

use std::time::Duration;

use tokio::time::Instant;

use crate::config::Priority;

/// A queue that has not been empty for this long is standing (CoDel's interval).
pub const STANDING_INTERVAL: Duration = Duration::from_millis(100);

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
    /// Since when the queue has had a waiter without a break; `None` while it is empty.
    busy_since: Option<Instant>,
    stats: AdmissionStats,
}

impl Admission {
    pub fn new(capacity: usize) -> Admission {
        Admission {
            capacity: capacity.max(1),
            service: None,
            busy_since: None,
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

    /// The queue now holds `depth` live waiters.
    pub fn queue_depth(&mut self, now: Instant, depth: usize) {
        if depth == 0 {
            self.busy_since = None;
        } else if self.busy_since.is_none() {
            self.busy_since = Some(now);
        }
    }

    /// Whether the queue has stood for [`STANDING_INTERVAL`].
    pub fn standing(&self, now: Instant) -> bool {
        self.busy_since
            .is_some_and(|since| now.duration_since(since) >= STANDING_INTERVAL)
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
