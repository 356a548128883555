//! The adaptive concurrency limit of a pool in front of async workers (`worker_class =
//! "async"`, Uvicorn): a gradient controller whose floor is the declared `workers` and whose
//! ceiling is `workers × threads`. Pure arithmetic on the samples the pool feeds it (the time
//! to a request's answer and what came of it, with the requests in flight then): the pool calls
//! it inside its lock and reads [`Adaptive::limit`] where a fixed pool reads its cap.
//!
//! The controller works in rounds of `limit` samples (about one service time of traffic, with
//! no clock). At the end of a round:
//! - more than one answer in [`FAILURE_SHARE`] failed (a 502, 503 or 504 from the app, a reset,
//!   a read time-out, a refused connection): the limit is cut to [`FAILURE_CUT`] of itself;
//! - else the round's mean latency is over the baseline × [`TOLERANCE`]: the limit is cut by the
//!   gradient (baseline × tolerance ÷ mean, at most by half);
//! - else, if the limit was reached in the round (a request finished with `limit` in flight),
//!   it grows by √limit (at least 1), as Envoy's gradient controller's headroom, damped by how
//!   close the mean latency came to the tolerance: the whole step at the baseline, none at
//!   baseline × [`TOLERANCE`], in proportion between. Undamped, the limit of workers that
//!   serve one request at a time (blocking Uvicorn workers) swung between the floor and twice
//!   it: a whole step while under the tolerance, a cut once over it (issue 21);
//! - else it stays: a limit that is not reached learns nothing about the app.
//!
//! Latency is judged per kind of request ([`Kind`]: the method and the path's shape, its
//! segments with digits in them made one): each kind has its own baseline, and a round's
//! latency is its answers' mean over their kinds' baselines. An app's endpoints differ (a
//! health check of 1 ms, pages of 50 ms): with one baseline for all, the fast ones set it, and
//! every round of the slow ones was 50 times over it, cut, the limit pinned to the floor while
//! the app had room for many more (the example app, `/async` now and then beside 20 clients of
//! `/slow?ms=50`: 973 of 1,000 refused, limit 2).
//!
//! The baseline is the least latency of the last [`BASELINE_SPAN`] to twice that many requests
//! answered with at most `floor` in flight: the concurrency the operator declared the app
//! carries, so it is the unloaded latency without a probe. The least, not the mean: a request
//! that ends with few in flight may have waited inside the app behind those that ended before
//! it (the queue draining after a cut), and a mean of such samples let the limit of blocking
//! Uvicorn workers grow past them (issue 21). When load is light every sample is one; under
//! load the limit is above the floor and the baseline keeps its value; an app that became
//! slower for good is cut down to the floor by its latency, where it re-learns its baseline
//! and may grow again. Nothing ever pins concurrency below the floor to measure it (Envoy's
//! minRTT window). Failed answers do not feed the latencies (a quick 502 would pull them down,
//! a time-out up), and a request whose client left is no sample at all.

use std::time::Duration;

/// A round ends after at least this many samples, so a small limit is not judged on two.
pub const MIN_ROUND: usize = 8;

/// The latency, relative to the baseline, above which the limit is cut (Netflix Gradient2's
/// RTT tolerance).
pub const TOLERANCE: f64 = 1.5;

/// The largest cut by latency in one round (a gradient below this is clamped to it).
pub const MAX_LATENCY_CUT: f64 = 0.5;

/// A round in which more than this share of answers failed is cut.
pub const FAILURE_SHARE: f64 = 0.05;

/// What the limit is multiplied by after a round with failures (AIMD's decrease).
pub const FAILURE_CUT: f64 = 0.8;

/// The baseline is the least latency of the last one to two spans of this many samples taken at
/// the floor's concurrency.
pub const BASELINE_SPAN: usize = 64;

/// How many baselines the kinds of request are hashed into ([`Kind`]): two kinds whose hashes
/// meet modulo it share one.
pub const KINDS: usize = 64;

/// A kind of request, for its baseline: a hash of its method and its path's shape (the path
/// without its query, each segment with a digit in it counted as one, so `/users/17` and
/// `/users/42` are one kind), modulo [`KINDS`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Kind(pub u8);

impl Kind {
    pub fn of(method: &[u8], path: &[u8]) -> Kind {
        // FNV-1a.
        let mut hash: u32 = 0x811c_9dc5;
        let mut add = |byte: u8| {
            hash ^= u32::from(byte);
            hash = hash.wrapping_mul(0x0100_0193);
        };
        method.iter().for_each(|&byte| add(byte));
        add(b' ');
        let path = path.split(|&byte| byte == b'?').next().unwrap_or_default();
        for segment in path.split(|&byte| byte == b'/') {
            if segment.iter().any(u8::is_ascii_digit) {
                add(b'#');
            } else {
                segment.iter().for_each(|&byte| add(byte));
            }
            add(b'/');
        }
        Kind((hash % KINDS as u32) as u8)
    }
}

/// What came of one request, as the pool is told.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Outcome {
    /// The app answered (with anything but a 502, 503 or 504) after this long.
    Answered(Duration),
    /// The app failed: a 502, 503 or 504 of its own, a reset, a read time-out, a refused
    /// connection.
    Failed,
}

/// Why the limit was cut, for the metrics.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cut {
    Latency,
    Failures,
}

/// The figures [`Adaptive`] shows, copied into the pool's stats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct AdaptiveStats {
    /// The baseline latency learned, microseconds; 0 before the first sample.
    pub baseline_us: u64,
    /// Cuts by latency over the baseline since start.
    pub cuts_latency: u64,
    /// Cuts by failed answers since start.
    pub cuts_failures: u64,
}

/// The adaptive limit of one pool.
#[derive(Debug, Clone)]
pub struct Adaptive {
    floor: usize,
    ceiling: usize,
    /// The limit, kept fractional so cuts and growth compound; read whole.
    limit: f64,
    /// One per [`Kind`].
    baselines: Box<[Baseline; KINDS]>,
    round: Round,
    stats: AdaptiveStats,
}

/// The least latency of the samples taken with at most `floor` in flight, over the last one to
/// two spans of [`BASELINE_SPAN`] of them, seconds.
#[derive(Debug, Clone, Default)]
struct Baseline {
    /// The least of the span before this one.
    previous: Option<f64>,
    /// The least so far of this span, and how many samples it has.
    current: Option<f64>,
    samples: usize,
}

impl Baseline {
    fn get(&self) -> Option<f64> {
        match (self.previous, self.current) {
            (Some(previous), Some(current)) => Some(previous.min(current)),
            (previous, current) => previous.or(current),
        }
    }

    fn add(&mut self, seconds: f64) {
        self.current = Some(self.current.map_or(seconds, |least| least.min(seconds)));
        self.samples += 1;
        if self.samples >= BASELINE_SPAN {
            self.previous = self.current.take();
            self.samples = 0;
        }
    }
}

/// The samples of the current round.
#[derive(Debug, Clone, Default)]
struct Round {
    samples: usize,
    failures: usize,
    /// Per kind answered in the round: its latencies' sum and count.
    kinds: Vec<(Kind, f64, usize)>,
    /// Whether a sample came with the limit reached.
    saturated: bool,
}

impl Round {
    /// Empties the round for the next, keeping its room for kinds (no allocation per round).
    fn clear(&mut self) {
        self.samples = 0;
        self.failures = 0;
        self.saturated = false;
        self.kinds.clear();
    }

    /// The round's mean latency over its kinds' baselines: each kind's sum over its own
    /// baseline, over the answers of kinds that have one. `None` when none has.
    fn mean_over(&self, baselines: &[Baseline; KINDS]) -> Option<f64> {
        let (mut sum, mut count) = (0.0, 0);
        for &(kind, latency_sum, answered) in &self.kinds {
            if let Some(baseline) = baselines[usize::from(kind.0)].get() {
                sum += latency_sum / baseline;
                count += answered;
            }
        }
        (count > 0).then(|| sum / count as f64)
    }
}

impl Adaptive {
    /// A limit between `floor` and `ceiling` (at least `floor`), starting at the floor.
    pub fn new(floor: usize, ceiling: usize) -> Adaptive {
        let floor = floor.max(1);
        Adaptive {
            floor,
            ceiling: ceiling.max(floor),
            limit: floor as f64,
            baselines: Box::new(std::array::from_fn(|_| Baseline::default())),
            round: Round::default(),
            stats: AdaptiveStats::default(),
        }
    }

    /// The current limit: from `floor` to `ceiling`.
    pub fn limit(&self) -> usize {
        // `limit` stays within [floor, ceiling] (see `set`), so the cast cannot wrap.
        self.limit as usize
    }

    /// `baseline_us` is the least of the kinds' baselines.
    pub fn stats(&self) -> AdaptiveStats {
        let mut stats = self.stats;
        stats.baseline_us = self
            .baselines
            .iter()
            .filter_map(Baseline::get)
            .min_by(f64::total_cmp)
            .map_or(0, |seconds| (seconds * 1e6) as u64);
        stats
    }

    /// One request of `kind` ended with `outcome`, `in_flight` requests (itself included) in
    /// flight. Returns the cut when this sample ended a round with one.
    pub fn record(&mut self, outcome: Outcome, in_flight: usize, kind: Kind) -> Option<Cut> {
        let limit = self.limit();
        let round = &mut self.round;
        round.samples += 1;
        round.saturated |= in_flight >= limit;
        match outcome {
            Outcome::Failed => round.failures += 1,
            Outcome::Answered(latency) => {
                let seconds = latency.as_secs_f64();
                match round.kinds.iter_mut().find(|(seen, ..)| *seen == kind) {
                    Some((_, sum, count)) => {
                        *sum += seconds;
                        *count += 1;
                    }
                    None => round.kinds.push((kind, seconds, 1)),
                }
                if in_flight <= self.floor {
                    self.baselines[usize::from(kind.0)].add(seconds);
                }
            }
        }
        if self.round.samples < self.limit().max(MIN_ROUND) {
            return None;
        }
        let cut = self.end_round();
        self.round.clear();
        cut
    }

    fn end_round(&mut self) -> Option<Cut> {
        let round = &self.round;
        if round.failures as f64 > FAILURE_SHARE * round.samples as f64 {
            self.set(self.limit * FAILURE_CUT);
            self.stats.cuts_failures += 1;
            return Some(Cut::Failures);
        }
        // The round's latency in baselines (1: at the baseline).
        let mean = round.mean_over(&self.baselines)?;
        if mean > TOLERANCE {
            let gradient = (TOLERANCE / mean).max(MAX_LATENCY_CUT);
            self.set(self.limit * gradient);
            self.stats.cuts_latency += 1;
            return Some(Cut::Latency);
        }
        if self.round.saturated {
            // 1 at the baseline, 0 at the tolerance: the step shrinks as latency nears the cut.
            let damping = ((TOLERANCE - mean) / (TOLERANCE - 1.0)).min(1.0);
            self.set(self.limit + self.limit.sqrt().max(1.0) * damping);
        }
        None
    }

    fn set(&mut self, limit: f64) {
        self.limit = limit.clamp(self.floor as f64, self.ceiling as f64);
    }
}

#[cfg(test)]
mod tests;
