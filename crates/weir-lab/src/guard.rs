//! The guard: decides whether a load run's figures may be printed. Any unexpected status, socket
//! error or time-out voids the run; a void run is shown as VOID, never as a number. This is the
//! check whose absence made one of the seed studies publish 502s and time-outs as speed. Its
//! verdicts are `record::Verdict`s.

use crate::load::LoadOutput;
use crate::record::{Expect, IdleResult, Verdict};
use crate::spec::Limit;

/// Judges one run.
pub fn judge(output: &LoadOutput, expect: Expect) -> Verdict {
    let mut reasons = Vec::new();
    if output.requests == 0 {
        reasons.push("no request completed".to_string());
    }
    let errors = &output.errors;
    if errors.total() > 0 {
        reasons.push(format!(
            "socket errors: connect {}, read {}, write {}, timeout {}, failed {}",
            errors.connect, errors.read, errors.write, errors.timeout, errors.failed
        ));
    }
    match expect {
        Expect::Success => {
            if output.non_2xx > 0 {
                reasons.push(format!("{} non-2xx responses", output.non_2xx));
            }
            // With the status script there is a finer account; without it non_2xx is all we have.
            for (status, count) in &output.statuses {
                if !(200..300).contains(status) {
                    reasons.push(format!("{count} responses with status {status}"));
                }
            }
        }
        Expect::SuccessOr429 => {
            if output.statuses.is_empty() && output.requests > 0 {
                reasons.push("no status counts (the status script did not run)".to_string());
            }
            for (status, count) in &output.statuses {
                if !(200..300).contains(status) && *status != 429 {
                    reasons.push(format!("{count} responses with status {status}"));
                }
            }
        }
    }
    if reasons.is_empty() {
        Verdict::Valid
    } else {
        Verdict::Void(reasons)
    }
}

/// Judges a flood on one client address through a limit of `rate_per_second` plus `burst`:
/// more 2xx than the limit admits over the run (twice the exact count, plus a second, for
/// rounding and the run's edges) means the limiter let requests through, as weir does when its
/// Redis fails or times out (`on_redis_error = "allow"`).
pub fn judge_limited(output: &LoadOutput, limit: Limit) -> Verdict {
    let passed: u64 = output
        .statuses
        .iter()
        .filter(|(status, _)| (200..300).contains(*status))
        .map(|(_, count)| *count)
        .sum();
    let admitted =
        f64::from(limit.rate_per_second) * (output.seconds + 1.0) + f64::from(limit.burst) + 1.0;
    if passed as f64 > admitted * 2.0 {
        Verdict::Void(vec![format!(
            "{passed} requests passed a limit that admits about {admitted:.0} in {:.1} s: the \
             limiter did not hold",
            output.seconds
        )])
    } else {
        Verdict::Valid
    }
}

/// The most RSS an idle keep-alive connection can plausibly hold: a figure above it means the
/// process grew for another reason during the measurement (a pool, a cache, a lazy start).
pub const MAX_IDLE_BYTES_PER_CONNECTION: f64 = 1024.0 * 1024.0;

/// Judges one idle-connections measurement: RSS that fell while connections were opened (a
/// negative figure, as a process that freed start-up memory meanwhile shows) or grew by more than
/// an idle connection can hold says something else moved, and voids it.
pub fn judge_idle(idle: &IdleResult) -> Verdict {
    let mut reasons = Vec::new();
    let bytes = idle.bytes_per_connection();
    if idle.rss_before_kib == 0 || idle.rss_after_kib == 0 {
        reasons.push("no RSS read from /proc (the process was gone)".to_string());
    } else if bytes < 0.0 {
        reasons.push(format!(
            "RSS fell from {} to {} KiB while {} connections opened ({bytes:.0} B each): \
             something else freed memory meanwhile",
            idle.rss_before_kib, idle.rss_after_kib, idle.connections
        ));
    } else if bytes > MAX_IDLE_BYTES_PER_CONNECTION {
        reasons.push(format!(
            "{bytes:.0} B per idle connection is implausible (over {} B): the process grew \
             for another reason",
            MAX_IDLE_BYTES_PER_CONNECTION
        ));
    }
    if reasons.is_empty() {
        Verdict::Valid
    } else {
        Verdict::Void(reasons)
    }
}

/// The count of 429 responses, for scenarios that expect them.
pub fn rejected(output: &LoadOutput) -> u64 {
    output.rejected()
}

#[cfg(test)]
mod tests;
