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
//! - else the round's mean latency is over what is allowed (the baseline × [`TOLERANCE`]; near
//!   the floor, at most the floor's mean × [`NEAR_FLOOR_TOLERANCE`], below): the limit is cut by
//!   the gradient (allowed ÷ mean, at most by half);
//! - else, if the limit was reached in the round (a request finished with `limit` in flight)
//!   and no hold is on (below), it grows by √limit (at least 1), as Envoy's gradient
//!   controller's headroom, damped by how close the mean latency came to what is allowed: the
//!   whole step at the baseline (near the floor, at the floor's mean), none at the allowed, in
//!   proportion between. Undamped, the limit of workers that serve one request at a time
//!   (blocking Uvicorn workers) swung between the floor and twice it: a whole step while under
//!   the tolerance, a cut once over it (issue 21);
//! - else it stays: a limit that is not reached learns nothing about the app.
//!
//! Near the floor (over it, under [`NEAR_FLOOR`] × it) the latency allowed is also at most
//! [`NEAR_FLOOR_TOLERANCE`] × the floor's mean: the least mean latency of the last
//! [`FLOOR_SPAN`] to twice that many rounds at the floor, so it holds the machine's own noise
//! (a loaded host, a debug build), where a least sample does not. Workers that serve one
//! request at a time take `limit ÷ workers` service times per request past them: damped growth
//! against 1.5 × the baseline settled at 1.5 × the workers (6 for 4), and every request past
//! the workers waited a whole service time inside the app (served p99 230-240 ms against 4
//! blocking Uvicorn workers of 50 ms, lab/runs/2026-12-05-vm-overload-async); one request past 4
//! of them (1.25 × the floor's mean) is over 1.2 and is cut. An app whose latency does not grow
//! with concurrency passes it as it passes 1.5. At the floor itself the tolerance is 1.5, as
//! there is nothing to cut: the limit leaves it as before. Against 1.2 × the least sample the
//! limit of a free-running app on a loaded machine stayed at the floor (its mean there was
//! over 1.2 × its least; lab/runs/2026-12-05-vm-overload-async2).
//!
//! A cut by latency that lowered the whole limit holds growth for [`HOLD_ROUNDS`] rounds
//! when the round it cut served no more than the floor does (limit ÷ mean latency at most
//! [`NO_GAIN`] × floor ÷ the floor's mean: more in flight, each the longer, the blocking app's
//! signature): without it the limit stepped straight back over the workers after each cut (in
//! the model of 4 blocking workers, at 5 or 6 throughout). A cut of an app that did serve more
//! (noise on a free-running app), or one that left the whole limit as it was (at the floor),
//! holds nothing.
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

/// Near the floor the round's mean latency is also cut over this × the floor's mean: one
/// request past 4 workers that serve one at a time (1.25 ×) is over it.
pub const NEAR_FLOOR_TOLERANCE: f64 = 1.2;

/// Over the floor and under this many times it, the limit is near the floor.
pub const NEAR_FLOOR: f64 = 2.0;

/// The floor's mean is the least mean latency of the last one to two spans of this many rounds
/// at the floor.
pub const FLOOR_SPAN: usize = 8;

/// After a cut by latency that lowered the limit of a round that served no more than the floor,
/// the limit does not grow until this many more rounds ended within the tolerance.
pub const HOLD_ROUNDS: u32 = 8;

/// A round's throughput (limit ÷ mean latency) at most this × the floor's (floor ÷ the floor's
/// mean) is no gain: a cut of it holds growth.
pub const NO_GAIN: f64 = 1.1;

/// The largest cut by latency in one round (a gradient below this is clamped to it).
pub const MAX_LATENCY_CUT: f64 = 0.5;

/// A round in which more than this share of answers failed is cut.
pub const FAILURE_SHARE: f64 = 0.05;

/// What the limit is multiplied by after a round with failures (AIMD's decrease).
pub const FAILURE_CUT: f64 = 0.8;

/// The baseline is the least latency of the last one to two spans of this many samples taken at
/// the floor's concurrency.
pub const BASELINE_SPAN: usize = 64;

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
    /// The least latency of the samples taken with at most `floor` in flight, over the last one
    /// to two spans of [`BASELINE_SPAN`] of them, seconds.
    baseline: Least,
    /// The least mean latency of the rounds at the floor, over the last one to two spans of
    /// [`FLOOR_SPAN`] of them, seconds.
    floor_mean: Least,
    /// Rounds ended within the tolerance since the last cut that holds growth (saturates).
    calm_rounds: u32,
    round: Round,
    stats: AdaptiveStats,
}

/// The least of the values of the last one to two spans of `span` of them.
#[derive(Debug, Clone)]
struct Least {
    span: usize,
    /// The least of the span before this one.
    previous: Option<f64>,
    /// The least so far of this span, and how many values it has.
    current: Option<f64>,
    samples: usize,
}

impl Least {
    fn new(span: usize) -> Least {
        Least {
            span,
            previous: None,
            current: None,
            samples: 0,
        }
    }

    fn get(&self) -> Option<f64> {
        match (self.previous, self.current) {
            (Some(previous), Some(current)) => Some(previous.min(current)),
            (previous, current) => previous.or(current),
        }
    }

    fn add(&mut self, seconds: f64) {
        self.current = Some(self.current.map_or(seconds, |least| least.min(seconds)));
        self.samples += 1;
        if self.samples >= self.span {
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
    answered: usize,
    latency_sum: f64,
    /// Whether a sample came with the limit reached.
    saturated: bool,
}

impl Adaptive {
    /// A limit between `floor` and `ceiling` (at least `floor`), starting at the floor.
    pub fn new(floor: usize, ceiling: usize) -> Adaptive {
        let floor = floor.max(1);
        Adaptive {
            floor,
            ceiling: ceiling.max(floor),
            limit: floor as f64,
            baseline: Least::new(BASELINE_SPAN),
            floor_mean: Least::new(FLOOR_SPAN),
            calm_rounds: HOLD_ROUNDS,
            round: Round::default(),
            stats: AdaptiveStats::default(),
        }
    }

    /// The current limit: from `floor` to `ceiling`.
    pub fn limit(&self) -> usize {
        // `limit` stays within [floor, ceiling] (see `set`), so the cast cannot wrap.
        self.limit as usize
    }

    pub fn stats(&self) -> AdaptiveStats {
        let mut stats = self.stats;
        stats.baseline_us = self
            .baseline
            .get()
            .map_or(0, |seconds| (seconds * 1e6) as u64);
        stats
    }

    /// One request ended with `outcome`, `in_flight` requests (itself included) in flight.
    /// Returns the cut when this sample ended a round with one.
    pub fn record(&mut self, outcome: Outcome, in_flight: usize) -> Option<Cut> {
        let limit = self.limit();
        let round = &mut self.round;
        round.samples += 1;
        round.saturated |= in_flight >= limit;
        match outcome {
            Outcome::Failed => round.failures += 1,
            Outcome::Answered(latency) => {
                let seconds = latency.as_secs_f64();
                round.answered += 1;
                round.latency_sum += seconds;
                if in_flight <= self.floor {
                    self.baseline.add(seconds);
                }
            }
        }
        if self.round.samples < self.limit().max(MIN_ROUND) {
            return None;
        }
        let round = std::mem::take(&mut self.round);
        self.end_round(&round)
    }

    fn end_round(&mut self, round: &Round) -> Option<Cut> {
        if round.failures as f64 > FAILURE_SHARE * round.samples as f64 {
            self.set(self.limit * FAILURE_CUT);
            self.stats.cuts_failures += 1;
            return Some(Cut::Failures);
        }
        let baseline = self.baseline.get()?;
        if round.answered == 0 {
            return None;
        }
        let mean = round.latency_sum / round.answered as f64;
        let limit = self.limit();
        let floor_mean = self.floor_mean.get();
        // The latency allowed, and the one at which growth takes its whole step.
        let (allowed, reference) = match floor_mean {
            Some(floor_mean)
                if limit > self.floor && self.limit < NEAR_FLOOR * self.floor as f64 =>
            {
                let allowed = (baseline * TOLERANCE).min(floor_mean * NEAR_FLOOR_TOLERANCE);
                (allowed, floor_mean)
            }
            _ => (baseline * TOLERANCE, baseline),
        };
        if limit == self.floor {
            self.floor_mean.add(mean);
        }
        if mean > allowed {
            let gradient = (allowed / mean).max(MAX_LATENCY_CUT);
            self.set(self.limit * gradient);
            self.stats.cuts_latency += 1;
            // Served no more than the floor does: more in flight, each the longer.
            let no_gain = floor_mean.is_some_and(|floor_mean| {
                limit as f64 / mean <= NO_GAIN * self.floor as f64 / floor_mean
            });
            if self.limit() < limit && no_gain {
                self.calm_rounds = 0;
            }
            return Some(Cut::Latency);
        }
        self.calm_rounds = self.calm_rounds.saturating_add(1);
        if round.saturated && self.calm_rounds > HOLD_ROUNDS {
            // 1 at the reference, 0 at the allowed: the step shrinks as latency nears the cut.
            let damping = if allowed > reference {
                ((allowed - mean) / (allowed - reference)).min(1.0)
            } else {
                0.0
            };
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
