//! What a scenario is: groups of cells measured in interleaved rounds. A group shares its apps;
//! each cell is one gateway under one load. Cells that differ only by gateway are compared, and
//! the better of the two nginx rows (`nginx`, `nginx (tuned)`) is the baseline of every ratio.

use std::time::Duration;

use crate::load::Tool;
use crate::record::Expect;
use crate::spec::{AppSpec, Gateway, GatewaySpec, Layout, Venv};

/// The label of the baseline gateway in every group: nginx as the seed (or the scenario)
/// configures it.
pub const BASELINE: &str = "nginx";

/// The label of the same nginx tuned for the group's load (`NginxOptions::tuned`). Ratios are
/// taken to the better of the two rows, and the tables say which.
pub const TUNED_NGINX: &str = "nginx (tuned)";

/// Whether a row is one of the nginx baselines.
pub fn is_nginx(label: &str) -> bool {
    label == BASELINE || label == TUNED_NGINX
}

/// Whether a row is weir (`weir`, `weir (redis)`, ...): every weir gateway of a plan has such a
/// label and no other gateway has, so a record's label tells whether it measured weir.
pub fn is_weir(label: &str) -> bool {
    label == "weir" || label.starts_with("weir ")
}

/// One measurement to repeat every round.
#[derive(Debug, Clone)]
pub struct Cell {
    /// What the study varies (`port`, `socket`, `pool=40`, ...); cells are compared to the
    /// baseline with the same variant, path and tool.
    pub variant: String,
    pub gateway: GatewaySpec,
    pub path: String,
    pub tool: Tool,
    pub expect: Expect,
}

impl Cell {
    /// The key under which cells are compared to the baseline.
    pub fn compare_key(&self) -> (String, String, String) {
        (self.variant.clone(), self.path.clone(), self.tool.label())
    }
}

/// What a group measures.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Measure {
    /// A load run per cell per round.
    Load,
    /// Open this many idle keep-alive connections through each cell's gateway, as the arrival
    /// says, and read its memory.
    IdleConnections(u32, Arrival),
    /// A load run for the baseline, then another while this many slowloris connections of the
    /// kind drip their heads and bodies or, over HTTP/2, hold their streams (`robustness::Attack`).
    Slowloris(u32, SlowClients),
    /// One run of the soak's mixed traffic for this long, whatever the rounds
    /// (`robustness::soak`).
    Soak(Duration),
    /// A load run per cell per round while the gateway is reloaded on a schedule (`reload`).
    Reloads(Schedule),
}

/// How the idle-connections measurement opens its connections.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Arrival {
    /// One at a time: connect, one request, its whole answer, then the next.
    OneAtATime,
    /// This many at once, as clients really arrive: all connect, all send their request, then
    /// all answers are read, and the next batch comes.
    Burst(u32),
}

impl Arrival {
    /// The group's name's part for it.
    pub fn label(self) -> String {
        match self {
            Arrival::OneAtATime => "one at a time".to_string(),
            Arrival::Burst(batch) => format!("{batch} at a time"),
        }
    }
}

impl Measure {
    /// Measurements per cell over `rounds`: a soak is run once.
    pub fn rounds(&self, rounds: u32) -> u32 {
        match self {
            Measure::Soak(_) => 1,
            _ => rounds,
        }
    }

    /// The load time of one measurement of `duration`.
    pub fn load_time(&self, duration: Duration) -> Duration {
        match self {
            Measure::Slowloris(..) => duration * 2,
            Measure::Soak(soak) => *soak,
            Measure::Reloads(schedule) => schedule.duration,
            _ => duration,
        }
    }
}

/// What the attack's connections send.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SlowClients {
    /// Plain HTTP/1.1: half send a request head that never ends, half a `POST` head and then
    /// its body, each a byte per interval.
    Http1,
    /// HTTP/2 over TLS (ALPN `h2`): half send the connection preface and SETTINGS and then
    /// nothing; half also open a stream (`GET /`) with `SETTINGS_INITIAL_WINDOW_SIZE` 0 and never
    /// open the window, so its response waits on them. They send nothing more and never
    /// acknowledge a PING; what the gateway sends is read and dropped.
    Http2,
}

/// How long the load runs and how often the gateway is reloaded meanwhile.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Schedule {
    pub duration: Duration,
    pub interval: Duration,
}

impl Schedule {
    /// One reload per second for 30 s; three in 3 s with `--quick`.
    pub fn for_settings(settings: &Settings) -> Schedule {
        Schedule {
            duration: Duration::from_secs(if settings.quick { 3 } else { 30 }),
            interval: Duration::from_secs(1),
        }
    }

    pub fn reloads(&self) -> u32 {
        if self.interval.is_zero() {
            return 0;
        }
        (self.duration.as_nanos() / self.interval.as_nanos()) as u32
    }

    /// When reload `index` (from 0) is due after the load starts: in the middle of its interval,
    /// so the first comes once the load is under way and the last well before it ends.
    pub fn due(&self, index: u32) -> Duration {
        self.interval * index + self.interval / 2
    }
}

/// Cells that share their apps.
#[derive(Debug, Clone)]
pub struct Group {
    pub name: String,
    pub apps: Vec<AppSpec>,
    pub cells: Vec<Cell>,
    pub measure: Measure,
}

/// Options every scenario's plan reads.
#[derive(Debug, Clone)]
pub struct Settings {
    pub quick: bool,
    pub rounds: u32,
    pub duration: Duration,
    pub layouts: Vec<Layout>,
    pub venvs: Vec<Venv>,
    /// Overrides the scenario's load generator (`ab` in the studies that used it).
    pub loader: Option<Loader>,
    pub idle_connections: u32,
    /// Connections of the slowloris attack.
    pub slowloris_connections: u32,
    /// Length of the soak.
    pub soak_duration: Duration,
    /// What the scenarios on the fast upstream put behind the gateways.
    pub fast_upstream: FastUpstream,
}

/// `--fast-upstream`: the server behind the gateways in proxy-overhead, one-connection,
/// new-connection and ratelimit-redis.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FastUpstream {
    /// `weir-lab-ceiling`, the minimal hyper server (the default, as in every kept run).
    Ceiling,
    /// nginx `return 200` with the same body.
    Nginx,
}

/// `--loader`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Loader {
    Wrk,
    Ab,
}

impl Settings {
    /// The load run under `strace -c -f` of the scenarios that count system calls
    /// ([`Scenario::counts_syscalls`]), once per cell: short, as tracing slows the
    /// gateway down and only the count per request is kept.
    pub fn syscall_duration(&self) -> Duration {
        Duration::from_secs(if self.quick { 1 } else { 3 })
    }

    /// The study's `ab -c 100`, unless `--loader wrk` asks for `wrk -t2 -c100`.
    pub fn study_tool(&self) -> Tool {
        match self.loader {
            Some(Loader::Wrk) => Tool::Wrk {
                threads: 2,
                connections: 100,
            },
            _ => Tool::Ab { concurrency: 100 },
        }
    }

    /// `wrk -t2 -c100`, unless `--loader ab` asks for `ab -c 100`.
    pub fn flood_tool(&self) -> Tool {
        match self.loader {
            Some(Loader::Ab) => Tool::Ab { concurrency: 100 },
            _ => Tool::Wrk {
                threads: 2,
                connections: 100,
            },
        }
    }
}

/// A study reproduced, or one of the lab's own.
#[derive(Debug, Clone, Copy)]
pub struct Scenario {
    pub name: &'static str,
    /// The seed file it reproduces, if any.
    pub seed: Option<&'static str>,
    pub about: &'static str,
    /// What the study published, for the summary (markdown).
    pub reference: &'static str,
    pub plan: fn(&Settings) -> Vec<Group>,
    /// Whether the scenario also counts its gateways' system calls (`strace -c -f`, in a separate
    /// short run per cell after the first round's): the loads against the fast upstream, where
    /// the gateway's own cost is what is measured.
    pub counts_syscalls: bool,
}

impl Scenario {
    /// A rough length of the scenario: load runs, warm-ups (one per cell outside --quick) and
    /// about five seconds to start each group's apps and gateways.
    pub fn estimate(&self, settings: &Settings) -> Duration {
        let groups = (self.plan)(settings);
        let cells: u64 = groups.iter().map(|group| group.cells.len() as u64).sum();
        let load: Duration = groups
            .iter()
            .map(|group| {
                group.measure.load_time(settings.duration)
                    * group.cells.len() as u32
                    * group.measure.rounds(settings.rounds)
            })
            .sum();
        let warm_up = if settings.quick {
            Duration::ZERO
        } else {
            settings.duration.min(Duration::from_secs(2)) * cells as u32
        };
        let traced: u32 = if self.counts_syscalls {
            groups
                .iter()
                .flat_map(|group| &group.cells)
                .filter(|cell| cell.gateway.gateway != Gateway::Direct)
                .count() as u32
        } else {
            0
        };
        // Each traced run: the load, and about a second to attach and detach.
        let tracing = (settings.syscall_duration() + Duration::from_secs(1)) * traced;
        load + warm_up + tracing + Duration::from_secs(5) * groups.len() as u32
    }

    /// Measurements the plan makes, for the progress bar and `list`.
    pub fn measurements(&self, settings: &Settings) -> u64 {
        (self.plan)(settings)
            .iter()
            .map(|group| {
                group.cells.len() as u64 * u64::from(group.measure.rounds(settings.rounds))
            })
            .sum()
    }
}
