//! What every kind of measurement is: the [`Measurement`] the runner drives once per cell per
//! round, what it is given ([`Context`]: the run's environment and settings; [`At`]: which cell
//! of which group, in which round) and the [`Record`] it gives back, void or not. The kinds
//! (load, idle, slowloris, soak, reloads) are one file each under `measurements/`.

use std::path::Path;

use indicatif::ProgressBar;

use crate::components::{self, RunningApp, RunningGateway};
use crate::process::{self, Component};
use crate::record::{Counters, Expect, Record, Verdict};
use crate::scenario::{Cell, Group, Scenario, Settings};
use crate::spec::{Env, GatewaySpec};

/// What every measurement of a run is given.
#[derive(Debug, Clone, Copy)]
pub struct Context<'a> {
    pub env: &'a Env,
    pub settings: &'a Settings,
    /// The run's progress bar, which also carries the console lines.
    pub progress: &'a ProgressBar,
    /// The wrk script that counts statuses (`lab/wrk/status.lua`).
    pub status_script: &'a Path,
}

impl Context<'_> {
    /// The status script for cells that expect 429s; `None` for the rest (it slows wrk down).
    pub fn script(&self, cell: &Cell) -> Option<&Path> {
        (cell.expect == Expect::SuccessOr429).then_some(self.status_script)
    }
}

/// Which measurement: a cell of a group of a scenario, in a round (from 0).
#[derive(Debug, Clone, Copy)]
pub struct At<'a> {
    pub scenario: &'a Scenario,
    pub group: &'a Group,
    pub cell: &'a Cell,
    pub round: u32,
}

impl At<'_> {
    /// The record of this measurement with nothing measured, void for `reason`.
    pub fn void(&self, reason: String) -> Record {
        Record {
            scenario: self.scenario.name,
            group: self.group.name.clone(),
            round: self.round,
            variant: self.cell.variant.clone(),
            gateway: self.cell.gateway.label.clone(),
            path: self.cell.path.clone(),
            tool: self.cell.tool.label(),
            expect: self.cell.expect,
            verdict: Verdict::Void(vec![reason]),
            output: None,
            gateway_cpu_seconds: None,
            gateway_peak_rss_kib: None,
            app_cpu_seconds: 0.0,
            idle: None,
            slowloris: None,
            soak: None,
            reloads: None,
            counters: Counters::default(),
            evidence: String::new(),
        }
    }
}

/// One kind of measurement. The runner starts a group's apps, then (when the kind shares them)
/// its gateways, then measures every cell once per round in the same order each round.
pub trait Measurement {
    /// Starts one of the group's gateways in front of `app`, for the cells that name its spec.
    fn start_gateway(
        &self,
        env: &Env,
        spec: &GatewaySpec,
        app: &RunningApp,
    ) -> anyhow::Result<RunningGateway> {
        components::start_gateway(env, spec, app)
    }

    /// Whether the group's gateways are started once, before the rounds, and shared by its cells;
    /// `false` when each measurement starts (and stops) its own.
    fn shares_gateways(&self) -> bool {
        true
    }

    /// Whether every cell gets a short unrecorded load run before the first round (outside
    /// `--quick`), so Python imports, lazy pools and the page cache are the same for all.
    fn warms_up(&self) -> bool {
        false
    }

    /// Whether the console names the cell's variant beside its gateway.
    fn names_variant(&self) -> bool {
        false
    }

    /// Measures `at` once. `gateway` is the cell's shared gateway when [`shares_gateways`]
    /// (`None` otherwise); `apps` are the group's.
    ///
    /// [`shares_gateways`]: Measurement::shares_gateways
    fn measure(
        &self,
        context: &Context,
        at: At,
        gateway: Option<&mut RunningGateway>,
        apps: &mut [RunningApp],
    ) -> Record;
}

/// The end of `component`'s log under a heading, for a void record's evidence.
pub fn log_tail(component: &Component) -> String {
    format!(
        "--- end of {}'s log ---\n{}",
        component.name,
        process::log_tail(component.log())
    )
}
