//! The reload measurement (issue 11): a load run while the lab reloads the gateway on a schedule,
//! alternating its two config versions; after every reload a fresh connection must see the new
//! version's route within [`TAKE_EFFECT_TIMEOUT`]. A reload that fails or does not take effect
//! voids the run, as a socket error or a non-2xx does. Its gateways are started reloadable
//! (`components::start_reloadable_gateway`), each with its own [`Reload`] handle. `reloads.md`
//! ([`markdown`]) lists every run's reloads and errors.

use std::fmt::Write as _;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use crate::components::{self, RunningApp, RunningGateway};
use crate::measurement::{At, Context, Measurement};
use crate::measurements::load::measure_load;
use crate::record::{Record, ReloadOutcome};
use crate::reload::{self, Reload, TAKE_EFFECT_TIMEOUT};
use crate::scenario::Schedule;
use crate::spec::{Env, GatewaySpec};

/// A load run of the schedule's length, reloading the gateway on the schedule.
#[derive(Debug, Clone, Copy)]
pub struct Reloads {
    pub schedule: Schedule,
}

impl Measurement for Reloads {
    fn start_gateway(
        &self,
        env: &Env,
        spec: &GatewaySpec,
        app: &RunningApp,
    ) -> anyhow::Result<RunningGateway> {
        components::start_reloadable_gateway(env, spec, app)
    }

    fn warms_up(&self) -> bool {
        true
    }

    fn names_variant(&self) -> bool {
        true
    }

    fn measure(
        &self,
        context: &Context,
        at: At,
        gateway: Option<&mut RunningGateway>,
        apps: &mut [RunningApp],
    ) -> Record {
        let Some(gateway) = gateway else {
            return at.void("the reload measurement needs a gateway".to_string());
        };
        let schedule = self.schedule;
        measure_load(context, at, gateway, apps, |run, gateway| {
            match &gateway.reload {
                Some(handle) => {
                    let (result, outcome) =
                        during(handle, gateway.addr, schedule, || run(schedule.duration));
                    (result, Some(outcome))
                }
                None => (run(context.settings.duration), None),
            }
        })
    }
}

/// Runs `load` while reloading the gateway on `schedule`; the reloads stop when the load ends.
pub fn during<T: Send>(
    reload: &Reload,
    addr: SocketAddr,
    schedule: Schedule,
    load: impl FnOnce() -> T + Send,
) -> (T, ReloadOutcome) {
    let finished = AtomicBool::new(false);
    thread::scope(|scope| {
        let reloader = scope.spawn(|| reload_on_schedule(reload, addr, schedule, &finished));
        let result = load();
        finished.store(true, Ordering::SeqCst);
        let outcome = reloader.join().unwrap_or_else(|_| ReloadOutcome {
            planned: schedule.reloads(),
            failures: vec!["the reload thread panicked".to_string()],
            ..ReloadOutcome::default()
        });
        (result, outcome)
    })
}

fn reload_on_schedule(
    reload: &Reload,
    addr: SocketAddr,
    schedule: Schedule,
    finished: &AtomicBool,
) -> ReloadOutcome {
    let start = Instant::now();
    let mut outcome = ReloadOutcome {
        planned: schedule.reloads(),
        ..ReloadOutcome::default()
    };
    for index in 0..schedule.reloads() {
        let due = start + schedule.due(index);
        while Instant::now() < due {
            if finished.load(Ordering::SeqCst) {
                return outcome;
            }
            thread::sleep((due - Instant::now()).min(Duration::from_millis(20)));
        }
        if finished.load(Ordering::SeqCst) {
            return outcome;
        }
        let issued = Instant::now();
        let result = reload
            .reload()
            .and_then(|version| reload::wait_for_version(addr, version, TAKE_EFFECT_TIMEOUT));
        match result {
            Ok(_) => {
                outcome.done += 1;
                outcome.slowest = outcome.slowest.max(issued.elapsed());
            }
            Err(error) => outcome
                .failures
                .push(format!("reload {}: {error:#}", index + 1)),
        }
    }
    outcome
}

/// reloads.md: for every run with reloads, how many took effect and how fast, and every error
/// the load generator saw. Void runs are listed too: their errors are what this scenario reports
/// (their speed is not shown). Empty when no run had reloads.
pub fn markdown(records: &[Record]) -> String {
    let with_reloads: Vec<(&Record, &ReloadOutcome)> = records
        .iter()
        .filter_map(|record| Some((record, record.reloads.as_ref()?)))
        .collect();
    if with_reloads.is_empty() {
        return String::new();
    }
    let mut text = String::from(
        "# Reloads\n\nEvery run of the reload scenario: reloads that took effect (the new version's route answered on a new connection) out of those planned, the slowest from the reload command to that answer, and the errors the load generator counted (wrk's socket errors; ab's failed requests). Any error or failed reload voids the run.\n\n\
         | group | gateway | round | reloads | slowest ms | requests | non-2xx | connect | read | write | timeout | failed | verdict |\n\
         |---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n",
    );
    for (record, outcome) in with_reloads {
        let output = record.output.as_ref();
        let count = |value: Option<u64>| value.map_or_else(|| "–".to_string(), |v| v.to_string());
        let _ = writeln!(
            text,
            "| {} | {} | {} | {} of {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            record.group,
            record.gateway,
            record.round + 1,
            outcome.done,
            outcome.planned,
            outcome.slowest.as_millis(),
            count(output.map(|o| o.requests)),
            count(output.map(|o| o.non_2xx)),
            count(output.map(|o| o.errors.connect)),
            count(output.map(|o| o.errors.read)),
            count(output.map(|o| o.errors.write)),
            count(output.map(|o| o.errors.timeout)),
            count(output.map(|o| o.errors.failed)),
            if record.verdict.is_valid() {
                "ok".to_string()
            } else {
                record
                    .verdict
                    .to_string()
                    .replace('|', "\\|")
                    .replace('\n', " ")
            }
        );
    }
    text
}

#[cfg(test)]
mod tests;
