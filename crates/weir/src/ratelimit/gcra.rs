//! The generic cell rate algorithm as pure integer arithmetic on nanoseconds: one limit's numbers
//! (period, capacity, delay threshold) and the decision for one key given how far its theoretical
//! arrival time (TAT) is ahead of now. It holds no state and reads no clock, so the memory table,
//! the Redis script's answer and the tests all share the same arithmetic.
//!
//! nginx's `limit_req` keeps `excess` (milli-requests) and `last` (ms) per key and computes
//! `excess' = max(0, excess - rate*elapsed + 1)`, rejecting when `excess' > burst`. Shifting
//! nginx's state by one period (`TAT = last + (excess + 1) * T`) turns that into standard GCRA with
//! period `T = 1/rate` and capacity `burst + 1`: `TAT' = max(TAT, now) + T`, admitted iff
//! `TAT' - now <= (burst + 1) * T`. A key that was never seen, or whose TAT is in the past, is the
//! same as nginx's new node, so nothing distinguishes "idle" from "absent".

use std::time::Duration;

use crate::config::{Delay, LimiterConfig, Rate};

const NANOS_PER_SEC: u128 = 1_000_000_000;

/// One limit's arithmetic.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Gcra {
    /// Emission interval `T` in nanoseconds: the time one request's charge takes to drain.
    period: u64,
    /// Requests admitted back to back from an idle key: `burst + 1`.
    capacity: u64,
    /// nginx's `delay=N` in requests, or `None` for `nodelay`.
    delay_after: Option<u64>,
}

/// What one key's check came to, before dry-run and multi-limit rules are applied.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Verdict {
    /// Whether the charge fits in the capacity.
    pub(crate) allowed: bool,
    /// How far the key's TAT is ahead of now after this check: the charged value when allowed,
    /// the untouched one when rejected (a rejection costs nothing).
    pub(crate) ahead: u64,
    /// Time to wait before forwarding (nginx's two-stage limiting); zero when rejected.
    pub(crate) delay: u64,
    /// When rejected, the exact time until the same request would be admitted; zero otherwise.
    pub(crate) retry_after: u64,
}

impl Gcra {
    /// The arithmetic of one `[limits.NAME]` table.
    pub(crate) fn from_config(config: &LimiterConfig) -> Gcra {
        let period = if config.nginx_rounding {
            nginx_period(config.rate)
        } else {
            exact_period(config.rate)
        };
        let delay_after = match config.delay {
            Delay::NoDelay => None,
            Delay::After(requests) => Some(u64::from(requests)),
        };
        Gcra::new(period, u64::from(config.burst) + 1, delay_after)
    }

    /// A limit with an explicit period (ns), capacity (burst + 1) and delay threshold.
    pub(crate) fn new(period: u64, capacity: u64, delay_after: Option<u64>) -> Gcra {
        Gcra {
            // A zero period would admit everything and divide by zero in `remaining`; config
            // validation rejects zero rates, and this keeps the arithmetic total anyway.
            period: period.max(1),
            capacity: capacity.max(1),
            delay_after,
        }
    }

    /// The emission interval in nanoseconds.
    pub(crate) fn period(&self) -> u64 {
        self.period
    }

    /// `burst + 1`: the draft-10 quota (`q`).
    pub(crate) fn capacity(&self) -> u64 {
        self.capacity
    }

    /// The time a full quota takes to drain, `capacity * T`: the draft-10 window (`w`), and the
    /// furthest a TAT may run ahead of now after an admitted charge.
    pub(crate) fn window(&self) -> u64 {
        self.period.saturating_mul(self.capacity)
    }

    /// Checks a charge of `cost` requests against a key whose TAT is `ahead` ns in the future
    /// (zero for a new or idle key). `cost = 0` peeks.
    pub(crate) fn decide(&self, ahead: u64, cost: u64) -> Verdict {
        let charged = ahead.saturating_add(self.period.saturating_mul(cost));
        let window = self.window();
        if charged > window {
            let never = cost > self.capacity;
            return Verdict {
                allowed: false,
                ahead,
                delay: 0,
                // Never zero: `charged > window` is strict. A charge larger than the capacity can
                // never pass (requests charge one, so only the redis-cell table's cases get here).
                retry_after: if never { u64::MAX } else { charged - window },
            };
        }
        let delay = match self.delay_after {
            None => 0,
            // nginx waits `(excess - delay) / rate` where `excess = charged / T - 1` requests.
            Some(delay_after) => {
                charged.saturating_sub(self.period.saturating_mul(delay_after.saturating_add(1)))
            }
        };
        Verdict {
            allowed: true,
            ahead: charged,
            delay,
            retry_after: 0,
        }
    }

    /// The verdict for a key `ahead` ns in the future when someone else (the Redis script, in
    /// floating point) already decided whether the charge fits; only a boundary case within a
    /// nanosecond can disagree with [`Gcra::decide`], and the other party's answer wins.
    pub(crate) fn decide_as(&self, ahead: u64, allowed: bool) -> Verdict {
        let verdict = self.decide(ahead, 1);
        if verdict.allowed == allowed {
            return verdict;
        }
        let last_admitted = self.window().saturating_sub(self.period);
        if allowed {
            self.decide(ahead.min(last_admitted), 1)
        } else {
            self.decide(ahead.max(last_admitted.saturating_add(1)), 1)
        }
    }

    /// Requests that could still be admitted back to back (draft-10 `r`).
    pub(crate) fn remaining(&self, ahead: u64) -> u64 {
        self.window().saturating_sub(ahead) / self.period
    }

    /// Time until one more request of quota comes back (draft-10 `t`), given
    /// `remaining = self.remaining(ahead)`, which the caller has already computed; zero when the
    /// quota is full.
    pub(crate) fn replenish_after(&self, ahead: u64, remaining: u64) -> u64 {
        if remaining >= self.capacity {
            return 0;
        }
        let next_step = self.period.saturating_mul(self.capacity - remaining - 1);
        ahead.saturating_sub(next_step)
    }
}

/// `T = per / count`, to the nanosecond: `1r/m` is exactly 60 s.
fn exact_period(rate: Rate) -> u64 {
    let count = u128::from(rate.count.max(1));
    let per = rate.per.as_nanos();
    // Rounded to the nearest nanosecond so `3r/s` drifts by at most half a nanosecond per request.
    let period = (per + count / 2) / count;
    u64::try_from(period).unwrap_or(u64::MAX)
}

/// nginx stores a rate as integer milli-requests per second, `count * 1000 / seconds`, truncated:
/// `1r/m` becomes 16, one request per 62.5 s.
fn nginx_period(rate: Rate) -> u64 {
    let per_millis = rate.per.as_millis().max(1);
    let milli_rate = (u128::from(rate.count) * 1_000_000 / per_millis).max(1);
    let period = NANOS_PER_SEC * 1000 / milli_rate;
    u64::try_from(period).unwrap_or(u64::MAX)
}

/// Nanoseconds as a `Duration`.
pub(crate) fn nanos(value: u64) -> Duration {
    Duration::from_nanos(value)
}
