//! Runs a scenario's groups: starts the apps and gateways, then measures every cell once per round
//! in the same order each round (A B C A B C), so drift in the machine hits every cell alike.
//! Every measurement becomes a `Record`, void or not.

use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;
use std::time::Duration;

use anyhow::bail;
use indicatif::ProgressBar;

use crate::components::{self, Env, RunningApp, RunningGateway};
use crate::guard::{self, Expect, Verdict};
use crate::load::{self, LoadOutput};
use crate::process;
use crate::procfs::{self, Usage};
use crate::reload;
use crate::robustness::{self, SlowlorisResult, SoakResult};
use crate::scenario::{Cell, Group, Measure, Scenario, Settings};

/// Set by the Ctrl-C handler; checked before every measurement.
pub static INTERRUPTED: AtomicBool = AtomicBool::new(false);

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
    pub idle: Option<IdleResult>,
    /// For slowloris: the baseline and the attack's state (the output is the run under attack).
    pub slowloris: Option<SlowlorisResult>,
    /// For soak: the samples, answers and pool counters.
    pub soak: Option<SoakResult>,
    /// What the reloads during the run did (the reload scenario).
    pub reloads: Option<reload::Outcome>,
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
        let rejected = crate::guard::rejected(self.output.as_ref()?);
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

/// Runs scenarios into records.
#[derive(Debug)]
pub struct Runner<'a> {
    pub env: &'a Env,
    pub settings: &'a Settings,
    pub progress: ProgressBar,
    pub status_script: PathBuf,
}

impl Runner<'_> {
    pub fn run(&self, scenario: &Scenario) -> anyhow::Result<Vec<Record>> {
        let mut records = Vec::new();
        for group in (scenario.plan)(self.settings) {
            records.extend(self.run_group(scenario, &group)?);
        }
        Ok(records)
    }

    fn run_group(&self, scenario: &Scenario, group: &Group) -> anyhow::Result<Vec<Record>> {
        let rounds = self.settings.rounds;
        self.progress
            .set_message(format!("{} | {}: starting", scenario.name, group.name));
        let void_all = |reason: String| -> Vec<Record> {
            (0..rounds)
                .flat_map(|round| group.cells.iter().map(move |cell| (round, cell)))
                .map(|(round, cell)| {
                    self.progress.inc(1);
                    void_record(scenario, group, cell, round, reason.clone())
                })
                .collect()
        };

        // Apps first, the mock API before the apps that call it.
        let mut apps: Vec<RunningApp> = Vec::new();
        let mut ordered = group.apps.clone();
        ordered.sort_by_key(|spec| !matches!(spec.app, components::App::MockApi));
        for spec in &ordered {
            let mock = apps
                .iter()
                .find(|app| matches!(app.spec.app, components::App::MockApi));
            match components::start_app(self.env, spec, mock) {
                Ok(app) => apps.push(app),
                Err(error) => {
                    self.progress
                        .println(format!("{}: app {} failed: {error:#}", group.name, spec.id));
                    return Ok(void_all(format!(
                        "app {} failed to start: {error:#}",
                        spec.id
                    )));
                }
            }
        }

        // Each distinct gateway once; cells that share one (same spec, other load) share it.
        let mut gateways: Vec<Result<RunningGateway, String>> = Vec::new();
        let mut gateway_of_cell = Vec::new();
        let mut started: BTreeMap<String, usize> = BTreeMap::new();
        // Idle-connection groups start a fresh gateway per measurement instead (`measure_idle`).
        let shared_gateways = !matches!(group.measure, Measure::IdleConnections(_));
        for cell in group.cells.iter().filter(|_| shared_gateways) {
            let key = format!("{:?}", cell.gateway);
            let index = match started.get(&key) {
                Some(index) => *index,
                None => {
                    let result = match apps.iter().find(|app| app.spec.id == cell.gateway.app) {
                        Some(app) => match group.measure {
                            Measure::Reloads(_) => {
                                reload::start_gateway(self.env, &cell.gateway, app)
                            }
                            _ => components::start_gateway(self.env, &cell.gateway, app),
                        }
                        .map_err(|error| format!("{error:#}")),
                        None => Err(format!("no app {} in the group", cell.gateway.app)),
                    };
                    if let Err(error) = &result {
                        self.progress.println(format!(
                            "{}: gateway {} failed to start: {error}",
                            group.name, cell.gateway.label
                        ));
                    }
                    gateways.push(result);
                    started.insert(key, gateways.len() - 1);
                    gateways.len() - 1
                }
            };
            gateway_of_cell.push(index);
        }

        let mut records = Vec::new();
        match group.measure {
            Measure::Load | Measure::Reloads(_) => {
                if !self.settings.quick {
                    self.warm_up(scenario, group, &gateways, &gateway_of_cell)?;
                }
                for round in 0..rounds {
                    for (index, cell) in group.cells.iter().enumerate() {
                        check_interrupted()?;
                        self.progress.set_message(format!(
                            "{} | {} | {} {} (round {})",
                            scenario.name,
                            group.name,
                            cell.gateway.label,
                            cell.variant,
                            round + 1
                        ));
                        let record = match &mut gateways[gateway_of_cell[index]] {
                            Ok(gateway) => {
                                let mut record = self
                                    .measure_load(scenario, group, cell, round, gateway, &mut apps);
                                if round == 0
                                    && record.verdict.is_valid()
                                    && crate::scenarios::counts_syscalls(scenario.name)
                                {
                                    record.counters.syscalls = self.count_syscalls(cell, gateway);
                                }
                                record
                            }
                            Err(error) => void_record(
                                scenario,
                                group,
                                cell,
                                round,
                                format!("gateway failed to start: {error}"),
                            ),
                        };
                        self.progress.inc(1);
                        records.push(record);
                    }
                }
            }
            Measure::IdleConnections(connections) => {
                for round in 0..rounds {
                    for cell in &group.cells {
                        check_interrupted()?;
                        self.progress.set_message(format!(
                            "{} | {} | {} (round {})",
                            scenario.name,
                            group.name,
                            cell.gateway.label,
                            round + 1
                        ));
                        let record =
                            self.measure_idle(scenario, group, cell, round, &apps, connections);
                        self.progress.inc(1);
                        records.push(record);
                    }
                }
            }
            Measure::Slowloris(..) | Measure::Soak(_) => {
                for round in 0..group.measure.rounds(rounds) {
                    for (index, cell) in group.cells.iter().enumerate() {
                        check_interrupted()?;
                        self.progress.set_message(format!(
                            "{} | {} | {} (round {})",
                            scenario.name,
                            group.name,
                            cell.gateway.label,
                            round + 1
                        ));
                        let record = match &mut gateways[gateway_of_cell[index]] {
                            Ok(gateway) => match group.measure {
                                Measure::Slowloris(connections, clients) => self.measure_slowloris(
                                    scenario,
                                    group,
                                    cell,
                                    round,
                                    gateway,
                                    &mut apps,
                                    connections,
                                    clients,
                                ),
                                Measure::Soak(duration) => self.measure_soak(
                                    scenario, group, cell, round, gateway, &mut apps, duration,
                                ),
                                Measure::Load
                                | Measure::IdleConnections(_)
                                | Measure::Reloads(_) => {
                                    unreachable!("matched above")
                                }
                            },
                            Err(error) => void_record(
                                scenario,
                                group,
                                cell,
                                round,
                                format!("gateway failed to start: {error}"),
                            ),
                        };
                        self.progress.inc(1);
                        records.push(record);
                    }
                }
            }
        }
        // Gateways before apps, so no gateway logs errors about an app that went away.
        drop(gateways);
        drop(apps);
        Ok(records)
    }

    /// One short unrecorded run per cell before the first round: Python imports, lazy pools and
    /// the page cache are the same for everyone afterwards.
    fn warm_up(
        &self,
        scenario: &Scenario,
        group: &Group,
        gateways: &[Result<RunningGateway, String>],
        gateway_of_cell: &[usize],
    ) -> anyhow::Result<()> {
        let duration = self.settings.duration.min(Duration::from_secs(2));
        for (index, cell) in group.cells.iter().enumerate() {
            check_interrupted()?;
            if let Ok(gateway) = &gateways[gateway_of_cell[index]] {
                self.progress.set_message(format!(
                    "{} | {} | {} {} (warm-up)",
                    scenario.name, group.name, cell.gateway.label, cell.variant
                ));
                let url = gateway.url(&cell.path);
                let _ = load::run(cell.tool, &url, duration, self.script(cell));
            }
        }
        Ok(())
    }

    fn script(&self, cell: &Cell) -> Option<&std::path::Path> {
        (cell.expect == Expect::SuccessOr429).then_some(self.status_script.as_path())
    }

    /// A separate short load run with `strace -c -f` attached to every process of the gateway:
    /// (system calls, requests), or `None` (said on the console) when tracing failed or the run
    /// was not clean.
    fn count_syscalls(&self, cell: &Cell, gateway: &RunningGateway) -> Option<(u64, u64)> {
        let component = gateway.component.as_ref()?;
        let pids = procfs::tree(component.pid());
        let output_path = self.env.path("strace", "txt");
        let url = format!("http://{}{}", gateway.addr, cell.path);
        let counted = crate::syscalls::Trace::attach(&pids, &output_path).and_then(|trace| {
            let output = load::run(
                cell.tool,
                &url,
                self.settings.syscall_duration(),
                self.script(cell),
            )?;
            let calls = trace.finish()?;
            if let Verdict::Void(reasons) = guard::judge(&output, cell.expect) {
                bail!("the traced run was void: {}", reasons.join("; "));
            }
            Ok((calls, output.requests))
        });
        match counted {
            Ok(counted) => Some(counted),
            Err(error) => {
                self.progress.println(format!(
                    "{}: no syscall count: {error:#}",
                    cell.gateway.label
                ));
                None
            }
        }
    }

    fn measure_load(
        &self,
        scenario: &Scenario,
        group: &Group,
        cell: &Cell,
        round: u32,
        gateway: &mut RunningGateway,
        apps: &mut [RunningApp],
    ) -> Record {
        let gateway_pids: Vec<u32> = gateway.component.iter().map(|c| c.pid()).collect();
        let app_pids: Vec<u32> = apps.iter().map(|app| app.component.pid()).collect();
        let weir_options = match cell.gateway.gateway {
            components::Gateway::Weir(options) => Some(options),
            _ => None,
        };
        let redis = weir_options
            .filter(|options| options.redis_limits)
            .map(|_| components::redis_socket(self.env));
        let redis_before = redis.as_deref().map(crate::redis::command_stats);
        let gateway_before = procfs::usage(&gateway_pids);
        let app_before = procfs::usage(&app_pids);
        let url = gateway.url(&cell.path);
        let run = |duration| load::run(cell.tool, &url, duration, self.script(cell));
        let (result, reloads) = match (group.measure, &gateway.reload) {
            (Measure::Reloads(schedule), Some(handle)) => {
                let (result, outcome) =
                    reload::during(handle, gateway.addr, schedule, || run(schedule.duration));
                (result, Some(outcome))
            }
            _ => (run(self.settings.duration), None),
        };
        let gateway_after = procfs::usage(&gateway_pids);
        let app_after = procfs::usage(&app_pids);
        let redis_after = redis.as_deref().map(crate::redis::command_stats);

        let (mut verdict, output) = match result {
            Ok(output) => (guard::judge(&output, cell.expect), Some(output)),
            Err(error) => (
                Verdict::Void(vec![format!("load generator failed: {error:#}")]),
                None,
            ),
        };
        // weir's own limits hold: a flood from one address passes no more than the limit admits.
        if let (Some(limit), Some(output)) =
            (weir_options.and_then(|options| options.limit), &output)
        {
            if cell.expect == Expect::SuccessOr429 {
                if let Verdict::Void(reasons) = guard::judge_limited(output, limit) {
                    for reason in reasons {
                        verdict = verdict.void_with(reason);
                    }
                }
            }
        }
        let mut redis_calls = None;
        match (redis_before, redis_after) {
            (Some(Ok(before)), Some(Ok(after))) => {
                let during = before.until(&after);
                if during.failed > 0 {
                    verdict = verdict.void_with(format!(
                        "{} Redis calls answered with an error",
                        during.failed
                    ));
                }
                if during.calls == 0 && output.as_ref().is_some_and(|o| guard::rejected(o) > 0) {
                    verdict = verdict.void_with(
                        "rejections with no Redis call: the limit was not in Redis".to_string(),
                    );
                }
                redis_calls = Some(during.calls);
            }
            (Some(Err(error)), _) | (_, Some(Err(error))) => {
                verdict = verdict.void_with(format!("reading Redis's counters: {error:#}"));
            }
            _ => {}
        }
        if let Some(outcome) = &reloads {
            self.progress.println(format!(
                "{} | {}: {} of {} reloads took effect, the slowest in {} ms",
                group.name,
                cell.gateway.label,
                outcome.done,
                outcome.planned,
                outcome.slowest.as_millis()
            ));
            for reason in outcome.void_reasons() {
                verdict = verdict.void_with(reason);
            }
        }
        if let Some(component) = &mut gateway.component {
            if let Err(error) = component.check_alive() {
                verdict = verdict.void_with(format!("{error:#}"));
            }
        }
        for app in apps.iter_mut() {
            if let Err(error) = app.component.check_alive() {
                verdict = verdict.void_with(format!("{error:#}"));
            }
        }
        let evidence = if verdict.is_valid() {
            String::new()
        } else {
            let mut evidence = output
                .as_ref()
                .map(|output| output.text.clone())
                .unwrap_or_default();
            if let Some(component) = &gateway.component {
                evidence.push_str(&format!(
                    "\n--- end of {}'s log ---\n{}",
                    component.name,
                    process::log_tail(component.log())
                ));
            }
            for app in apps.iter() {
                evidence.push_str(&format!(
                    "\n--- end of {}'s log ---\n{}",
                    app.component.name,
                    process::log_tail(app.component.log())
                ));
            }
            evidence
        };
        Record {
            scenario: scenario.name,
            group: group.name.clone(),
            round,
            variant: cell.variant.clone(),
            gateway: cell.gateway.label.clone(),
            path: cell.path.clone(),
            tool: cell.tool.label(),
            expect: cell.expect,
            verdict,
            output,
            gateway_cpu_seconds: (!gateway_pids.is_empty())
                .then(|| gateway_before.cpu_seconds_until(&gateway_after)),
            gateway_peak_rss_kib: (!gateway_pids.is_empty()).then_some(gateway_after.peak_rss_kib),
            app_cpu_seconds: app_before.cpu_seconds_until(&app_after),
            idle: None,
            slowloris: None,
            soak: None,
            reloads,
            counters: Counters {
                gateway_cpu_user_seconds: (!gateway_pids.is_empty())
                    .then(|| gateway_before.user_seconds_until(&gateway_after)),
                gateway_cpu_sys_seconds: (!gateway_pids.is_empty())
                    .then(|| gateway_before.sys_seconds_until(&gateway_after)),
                redis_calls,
                ..Counters::default()
            },
            evidence,
        }
    }
}

impl Runner<'_> {
    /// The normal client's load without the attack, then with it (the record's output); the
    /// guard judges both.
    #[allow(clippy::too_many_arguments)] // reason: the same context as measure_load, plus the attack's size and kind
    fn measure_slowloris(
        &self,
        scenario: &Scenario,
        group: &Group,
        cell: &Cell,
        round: u32,
        gateway: &mut RunningGateway,
        apps: &mut [RunningApp],
        connections: u32,
        clients: robustness::SlowClients,
    ) -> Record {
        let url = gateway.url(&cell.path);
        if round == 0 && !self.settings.quick {
            // As the load scenarios' warm-up: lazy pools and caches are the same afterwards.
            let _ = load::run(
                cell.tool,
                &url,
                self.settings.duration.min(Duration::from_secs(2)),
                None,
            );
        }
        let baseline = load::run(cell.tool, &url, self.settings.duration, None);
        let attack =
            robustness::Attack::start(gateway.addr, connections, Duration::from_secs(1), clients);
        // Let the attack open its connections (a loopback connect is quick) before measuring.
        let opening = std::time::Instant::now();
        while attack.open() < u64::from(connections) && opening.elapsed() < Duration::from_secs(30)
        {
            thread::sleep(Duration::from_millis(100));
        }
        let attackers_open = attack.open();
        let mut record = self.measure_load(scenario, group, cell, round, gateway, apps);
        let attackers_closed = attack.closed();
        attack.stop();
        let baseline_rps = match baseline {
            Ok(output) => {
                if let Verdict::Void(reasons) = guard::judge(&output, cell.expect) {
                    record.verdict = record
                        .verdict
                        .void_with(format!("baseline: {}", reasons.join("; ")));
                }
                output.requests_per_second
            }
            Err(error) => {
                record.verdict = record.verdict.void_with(format!("baseline: {error:#}"));
                0.0
            }
        };
        if attackers_open < u64::from(connections) / 2 {
            record.verdict = record.verdict.void_with(format!(
                "the attack opened only {attackers_open} of {connections} connections"
            ));
        }
        let kind = match clients {
            robustness::SlowClients::Http1 => "slow",
            robustness::SlowClients::Http2 => "slow HTTP/2",
        };
        record.tool = format!(
            "{} beside {connections} {kind} connections",
            cell.tool.label()
        );
        record.slowloris = Some(SlowlorisResult {
            baseline_rps,
            attackers_open,
            attackers_closed,
        });
        record
    }

    /// The soak's mixed traffic through the gateway, sampled; void on any unexpected answer or a
    /// component that died.
    #[allow(clippy::too_many_arguments)] // reason: the same context as measure_load, plus the length
    fn measure_soak(
        &self,
        scenario: &Scenario,
        group: &Group,
        cell: &Cell,
        round: u32,
        gateway: &mut RunningGateway,
        apps: &mut [RunningApp],
        duration: Duration,
    ) -> Record {
        let mut record = void_record(scenario, group, cell, round, String::new());
        record.tool = format!("mixed traffic for {} s", duration.as_secs());
        let (Some(component), Some(admin)) = (&gateway.component, gateway.admin) else {
            record.verdict = Verdict::Void(vec![
                "the soak needs weir with its admin listener".to_string()
            ]);
            return record;
        };
        let result = robustness::soak(gateway.addr, admin, component.pid(), duration);
        let mut verdict = Verdict::Valid;
        if !result.unexpected.is_empty() {
            verdict = verdict.void_with(format!(
                "{} unexpected answers or errors, first: {}",
                result.unexpected.len(),
                result.unexpected[0]
            ));
        }
        if let Some(component) = &mut gateway.component {
            if let Err(error) = component.check_alive() {
                verdict = verdict.void_with(format!("{error:#}"));
            }
        }
        for app in apps.iter_mut() {
            if let Err(error) = app.component.check_alive() {
                verdict = verdict.void_with(format!("{error:#}"));
            }
        }
        if !verdict.is_valid() {
            if let Some(component) = &gateway.component {
                record.evidence = format!(
                    "--- end of {}'s log ---\n{}",
                    component.name,
                    process::log_tail(component.log())
                );
            }
        }
        record.verdict = verdict;
        record.gateway_peak_rss_kib = gateway
            .component
            .as_ref()
            .map(|component| procfs::usage(&[component.pid()]).peak_rss_kib);
        record.soak = Some(result);
        record
    }
}

fn check_interrupted() -> anyhow::Result<()> {
    if INTERRUPTED.load(Ordering::SeqCst) {
        bail!("interrupted");
    }
    Ok(())
}

fn void_record(
    scenario: &Scenario,
    group: &Group,
    cell: &Cell,
    round: u32,
    reason: String,
) -> Record {
    Record {
        scenario: scenario.name,
        group: group.name.clone(),
        round,
        variant: cell.variant.clone(),
        gateway: cell.gateway.label.clone(),
        path: cell.path.clone(),
        tool: cell.tool.label(),
        expect: cell.expect,
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

impl Runner<'_> {
    /// One idle-connections measurement on a process of its own: starts the cell's gateway (for
    /// a direct cell, a fresh instance of its app, which is then the measured server), holds
    /// `connections` idle connections through it, and stops it. A fresh process per round means
    /// no round inherits the memory an earlier round's connections left behind, nor sees it
    /// handed back to the system while it measures.
    fn measure_idle(
        &self,
        scenario: &Scenario,
        group: &Group,
        cell: &Cell,
        round: u32,
        apps: &[RunningApp],
        connections: u32,
    ) -> Record {
        let void = |reason: String| void_record(scenario, group, cell, round, reason);
        let Some(app) = apps.iter().find(|app| app.spec.id == cell.gateway.app) else {
            return void(format!("no app {} in the group", cell.gateway.app));
        };
        if cell.gateway.gateway == components::Gateway::Direct {
            let mut fresh = match components::start_app(self.env, &app.spec, None) {
                Ok(fresh) => fresh,
                Err(error) => return void(format!("app failed to start: {error:#}")),
            };
            let mut record = measure_idle(
                scenario,
                group,
                cell,
                round,
                fresh.tcp,
                fresh.component.pid(),
                connections,
            );
            if let Err(error) = fresh.component.check_alive() {
                record.verdict = record.verdict.void_with(format!("{error:#}"));
            }
            return record;
        }
        let mut gateway = match components::start_gateway(self.env, &cell.gateway, app) {
            Ok(gateway) => gateway,
            Err(error) => return void(format!("gateway failed to start: {error:#}")),
        };
        let Some(component) = gateway.component.as_mut() else {
            return void("a gateway with no process".to_string());
        };
        let mut record = measure_idle(
            scenario,
            group,
            cell,
            round,
            gateway.addr,
            component.pid(),
            connections,
        );
        if let Err(error) = component.check_alive() {
            record.verdict = record.verdict.void_with(format!("{error:#}"));
        }
        if !record.verdict.is_valid() {
            record.evidence = format!(
                "--- end of {}'s log ---\n{}",
                component.name,
                process::log_tail(component.log())
            );
        }
        record
    }
}

/// Opens `connections` keep-alive connections to `addr`, one request each, holds them idle, and
/// reads the memory of the tree rooted at `measured` before and after.
fn measure_idle(
    scenario: &Scenario,
    group: &Group,
    cell: &Cell,
    round: u32,
    addr: SocketAddr,
    measured: u32,
    connections: u32,
) -> Record {
    // Let the fresh process finish starting (nginx's workers, Python's imports) before the
    // first reading.
    thread::sleep(Duration::from_millis(500));
    let before: Usage = procfs::usage(&[measured]);
    let mut streams = Vec::with_capacity(connections as usize);
    let mut reasons = Vec::new();
    for index in 0..connections {
        match one_request(addr, &cell.path) {
            Ok((stream, 200)) => streams.push(stream),
            Ok((_, status)) => {
                reasons.push(format!("connection {index}: status {status}"));
                break;
            }
            Err(error) => {
                reasons.push(format!("connection {index}: {error}"));
                break;
            }
        }
    }
    // Idle connections are what is measured: give the gateway a moment to shrink buffers.
    thread::sleep(Duration::from_secs(1));
    let after = procfs::usage(&[measured]);
    drop(streams);
    let idle = IdleResult {
        connections,
        rss_before_kib: before.rss_kib,
        rss_after_kib: after.rss_kib,
    };
    let mut verdict = guard::judge_idle(&idle);
    for reason in reasons {
        verdict = verdict.void_with(reason);
    }
    Record {
        scenario: scenario.name,
        group: group.name.clone(),
        round,
        variant: cell.variant.clone(),
        gateway: cell.gateway.label.clone(),
        path: cell.path.clone(),
        tool: format!("{connections} idle connections"),
        expect: cell.expect,
        verdict,
        output: None,
        gateway_cpu_seconds: None,
        gateway_peak_rss_kib: Some(after.peak_rss_kib),
        app_cpu_seconds: 0.0,
        idle: Some(idle),
        slowloris: None,
        soak: None,
        reloads: None,
        counters: Counters::default(),
        evidence: String::new(),
    }
}

/// Connects, sends one GET, reads the whole response (Content-Length bodies only, which every
/// lab upstream sends), and returns the open connection and the status.
fn one_request(addr: SocketAddr, path: &str) -> std::io::Result<(TcpStream, u16)> {
    let mut stream = TcpStream::connect_timeout(&addr, Duration::from_secs(5))?;
    stream.set_nodelay(true)?;
    stream.set_read_timeout(Some(Duration::from_secs(10)))?;
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: weir-lab\r\n\r\n"
    )?;
    let mut buffer = Vec::with_capacity(1024);
    let mut chunk = [0u8; 4096];
    let invalid =
        |what: &str| std::io::Error::new(std::io::ErrorKind::InvalidData, what.to_string());
    loop {
        let read = stream.read(&mut chunk)?;
        if read == 0 {
            return Err(invalid("closed before a whole response"));
        }
        buffer.extend_from_slice(&chunk[..read]);
        let Some(end) = buffer.windows(4).position(|window| window == b"\r\n\r\n") else {
            continue;
        };
        let head = String::from_utf8_lossy(&buffer[..end]).to_string();
        let status: u16 = head
            .split_whitespace()
            .nth(1)
            .and_then(|field| field.parse().ok())
            .ok_or_else(|| invalid("no status"))?;
        let length: usize = head
            .lines()
            .find_map(|line| {
                let (name, value) = line.split_once(':')?;
                name.trim()
                    .eq_ignore_ascii_case("content-length")
                    .then(|| value.trim().parse().ok())?
            })
            .ok_or_else(|| invalid("no Content-Length"))?;
        let mut have = buffer.len() - (end + 4);
        while have < length {
            let read = stream.read(&mut chunk)?;
            if read == 0 {
                return Err(invalid("closed mid-body"));
            }
            have += read;
        }
        return Ok((stream, status));
    }
}
