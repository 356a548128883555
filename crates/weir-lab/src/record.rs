//! What a measurement leaves behind: the [`Record`] of one cell in one round, and its parts: the
//! guard's [`Verdict`] and what it was judged against ([`Expect`]), the load generator's output,
//! and what each kind of measurement adds (idle memory, the slowloris attack's state, the soak's
//! samples, the reloads made during a run). Plain data at the bottom of the lab: the runner and
//! the measurements fill records in, the report and `readme` read them.

use std::fmt;
use std::time::Duration;

use crate::load::LoadOutput;

/// Which responses a measurement expects.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Expect {
    /// Every response 2xx.
    Success,
    /// 2xx or 429 (rate-limit scenarios); the 429s are counted apart. Needs the status script.
    SuccessOr429,
}

/// The guard's decision on one run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    Valid,
    /// Why the run is void, one reason per problem seen.
    Void(Vec<String>),
}

impl Verdict {
    pub fn is_valid(&self) -> bool {
        matches!(self, Verdict::Valid)
    }

    /// Adds a reason found outside the load output (a component that died, say).
    pub fn void_with(self, reason: String) -> Verdict {
        match self {
            Verdict::Valid => Verdict::Void(vec![reason]),
            Verdict::Void(mut reasons) => {
                reasons.push(reason);
                Verdict::Void(reasons)
            }
        }
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Verdict::Valid => formatter.write_str("ok"),
            Verdict::Void(reasons) => write!(formatter, "VOID: {}", reasons.join("; ")),
        }
    }
}

/// Memory of a gateway holding idle connections.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IdleResult {
    pub connections: u32,
    pub rss_before_kib: u64,
    pub rss_after_kib: u64,
}

impl IdleResult {
    /// Bytes of RSS per idle connection.
    pub fn bytes_per_connection(&self) -> f64 {
        (self.rss_after_kib as f64 - self.rss_before_kib as f64) * 1024.0
            / f64::from(self.connections.max(1))
    }
}

/// Counts some scenarios add to a measurement.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Counters {
    /// The user-mode and kernel-mode parts of `Record::gateway_cpu_seconds`.
    pub gateway_cpu_user_seconds: Option<f64>,
    pub gateway_cpu_sys_seconds: Option<f64>,
    /// Commands the limiter's Redis ran during the run (`INFO commandstats`, before and after).
    pub redis_calls: Option<u64>,
    /// The gateway's system calls in a separate short run under `strace -c -f`, and the
    /// requests answered in that run.
    pub syscalls: Option<(u64, u64)>,
}

/// One measurement.
#[derive(Debug, Clone)]
pub struct Record {
    pub scenario: &'static str,
    pub group: String,
    pub round: u32,
    pub variant: String,
    pub gateway: String,
    pub path: String,
    pub tool: String,
    pub expect: Expect,
    pub verdict: Verdict,
    pub output: Option<LoadOutput>,
    /// CPU seconds of the gateway's processes during the run; `None` for direct.
    pub gateway_cpu_seconds: Option<f64>,
    /// Sum of VmHWM over the gateway's processes after the run.
    pub gateway_peak_rss_kib: Option<u64>,
    /// CPU seconds of the group's apps during the run.
    pub app_cpu_seconds: f64,
    /// For idle-connections: the connections held and the memory before and after.
    pub idle: Option<IdleResult>,
    /// For slowloris: the baseline and the attack's state (the output is the run under attack).
    pub slowloris: Option<SlowlorisResult>,
    /// For soak: the samples, answers and pool counters.
    pub soak: Option<SoakResult>,
    /// What the reloads during the run did (the reload scenario).
    pub reloads: Option<ReloadOutcome>,
    pub counters: Counters,
    /// For void runs: the tool's output and the end of the gateway's log.
    pub evidence: String,
}

impl Record {
    pub fn requests(&self) -> u64 {
        self.output
            .as_ref()
            .map(|output| output.requests)
            .unwrap_or(0)
    }

    /// CPU microseconds the gateway spent per request.
    pub fn gateway_cpu_us_per_request(&self) -> Option<f64> {
        let requests = self.requests();
        let seconds = self.gateway_cpu_seconds?;
        (requests > 0).then(|| seconds * 1e6 / requests as f64)
    }

    /// User-mode and kernel-mode CPU microseconds of the gateway per request.
    pub fn gateway_cpu_split_us_per_request(&self) -> Option<(f64, f64)> {
        let requests = self.requests();
        let user = self.counters.gateway_cpu_user_seconds?;
        let sys = self.counters.gateway_cpu_sys_seconds?;
        (requests > 0).then(|| (user * 1e6 / requests as f64, sys * 1e6 / requests as f64))
    }

    /// Redis commands per 100 rejected requests (the Redis-backed limiter).
    pub fn redis_calls_per_100_rejections(&self) -> Option<f64> {
        let calls = self.counters.redis_calls?;
        let rejected = self.output.as_ref()?.rejected();
        (rejected > 0).then(|| calls as f64 * 100.0 / rejected as f64)
    }

    /// System calls of the gateway per request, from the strace run.
    pub fn syscalls_per_request(&self) -> Option<f64> {
        let (calls, requests) = self.counters.syscalls?;
        (requests > 0).then(|| calls as f64 / requests as f64)
    }

    pub fn app_cpu_us_per_request(&self) -> Option<f64> {
        let requests = self.requests();
        (requests > 0).then(|| self.app_cpu_seconds * 1e6 / requests as f64)
    }
}

/// A normal client keeps at least this share of its baseline req/s under the attack.
pub const SLOWLORIS_KEEP: f64 = 0.9;
/// The last window's RSS and descriptors are within this share of the second window's.
pub const SOAK_FLAT: f64 = 0.10;
/// A soak is cut into this many windows (minutes, in the full 10-minute run).
pub const SOAK_WINDOWS: u32 = 10;

/// What a slowloris measurement found besides the load under attack (in the record's output).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SlowlorisResult {
    /// The normal client's req/s before the attack.
    pub baseline_rps: f64,
    /// Attack connections open when the normal client started.
    pub attackers_open: u64,
    /// Attack connections the gateway closed (each replaced at once, to keep the pressure).
    pub attackers_closed: u64,
}

impl SlowlorisResult {
    /// The under-attack req/s as a share of the baseline.
    pub fn kept(&self, attacked_rps: f64) -> Option<f64> {
        (self.baseline_rps > 0.0).then(|| attacked_rps / self.baseline_rps)
    }
}

/// One sample of the gateway during a soak.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SoakSample {
    pub seconds: f64,
    pub rss_kib: u64,
    pub open_fds: u64,
}

/// What a soak measured.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SoakResult {
    pub seconds: f64,
    pub samples: Vec<SoakSample>,
    /// Requests by traffic class (`small`, `1 MB`, `upload`, `limited`, `websocket`) and status
    /// (101 for a WebSocket echo that came back whole).
    pub answers: Vec<(String, u16, u64)>,
    /// Answers no class expects, and transport failures, described.
    pub unexpected: Vec<String>,
    /// `weir_pool_in_use_connections` and `weir_pool_waiting_requests` summed over pools at the
    /// end, from the admin `/metrics`; `None` when it could not be read.
    pub pool_in_use: Option<u64>,
    pub pool_waiting: Option<u64>,
}

impl SoakResult {
    /// The mean of `value` over the samples in window `index` (0-based) of [`SOAK_WINDOWS`].
    pub fn window_mean(&self, index: u32, value: impl Fn(&SoakSample) -> u64) -> Option<f64> {
        let width = self.seconds / f64::from(SOAK_WINDOWS);
        let start = width * f64::from(index);
        let values: Vec<f64> = self
            .samples
            .iter()
            .filter(|sample| sample.seconds >= start && sample.seconds < start + width)
            .map(|sample| value(sample) as f64)
            .collect();
        (!values.is_empty()).then(|| values.iter().sum::<f64>() / values.len() as f64)
    }

    /// The last window's mean over the second's, minus one: `0.03` is 3% more.
    pub fn drift(&self, value: impl Fn(&SoakSample) -> u64 + Copy) -> Option<f64> {
        let second = self.window_mean(1, value)?;
        let last = self.window_mean(SOAK_WINDOWS - 1, value)?;
        (second > 0.0).then(|| last / second - 1.0)
    }

    pub fn rss_drift(&self) -> Option<f64> {
        self.drift(|sample| sample.rss_kib)
    }

    pub fn fd_drift(&self) -> Option<f64> {
        self.drift(|sample| sample.open_fds)
    }

    /// Flat (both drifts within [`SOAK_FLAT`]) and the pools back at baseline.
    pub fn passes(&self) -> bool {
        let flat = |drift: Option<f64>| drift.is_some_and(|drift| drift.abs() <= SOAK_FLAT);
        flat(self.rss_drift())
            && flat(self.fd_drift())
            && self.pool_in_use == Some(0)
            && self.pool_waiting == Some(0)
    }
}

/// What the reloads during one load run did.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ReloadOutcome {
    /// Reloads that took effect.
    pub done: u32,
    pub planned: u32,
    /// The longest time from the reload command to the new route answering.
    pub slowest: Duration,
    /// One line per reload that failed or did not take effect.
    pub failures: Vec<String>,
}

impl ReloadOutcome {
    /// Reasons to void the run: failed reloads, or fewer reloads than planned.
    pub fn void_reasons(&self) -> Vec<String> {
        let mut reasons: Vec<String> = self.failures.iter().take(3).cloned().collect();
        if self.failures.len() > 3 {
            reasons.push(format!("{} more failed reloads", self.failures.len() - 3));
        }
        if self.failures.is_empty() && self.done < self.planned {
            reasons.push(format!(
                "only {} of {} reloads ran during the load",
                self.done, self.planned
            ));
        }
        reasons
    }
}
