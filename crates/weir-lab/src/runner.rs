//! Runs a scenario's groups: starts the apps and (when the group's kind of measurement shares
//! them) the gateways, then measures every cell once per round in the same order each round
//! (A B C A B C), so drift in the machine hits every cell alike. What a measurement is depends on
//! the group's `Measure`, matched here once to a [`Measurement`]; every measurement becomes a
//! `Record`, void or not.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};

use anyhow::bail;
use indicatif::ProgressBar;

use crate::components::{self, RunningApp, RunningGateway};
use crate::measurement::{At, Context, Measurement};
use crate::measurements::idle::Idle;
use crate::measurements::load::{self, Load};
use crate::measurements::reloads::Reloads;
use crate::measurements::slowloris::Slowloris;
use crate::measurements::soak::Soak;
use crate::record::Record;
use crate::scenario::{Group, Measure, Scenario, Settings};
use crate::spec::{App, Env};

/// Set by the Ctrl-C handler; checked before every measurement.
pub static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Runs scenarios into records.
#[derive(Debug)]
pub struct Runner<'a> {
    pub env: &'a Env,
    pub settings: &'a Settings,
    pub progress: ProgressBar,
    pub status_script: PathBuf,
}

/// The kind of measurement a group makes.
fn measurement(measure: Measure) -> Box<dyn Measurement> {
    match measure {
        Measure::Load => Box::new(Load),
        Measure::IdleConnections(connections, arrival) => Box::new(Idle {
            connections,
            arrival,
        }),
        Measure::Slowloris(connections, clients) => Box::new(Slowloris {
            connections,
            clients,
        }),
        Measure::Soak(duration) => Box::new(Soak { duration }),
        Measure::Reloads(schedule) => Box::new(Reloads { schedule }),
    }
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
        let measurement = measurement(group.measure);
        let context = Context {
            env: self.env,
            settings: self.settings,
            progress: &self.progress,
            status_script: &self.status_script,
        };
        let rounds = self.settings.rounds;
        self.progress
            .set_message(format!("{} | {}: starting", scenario.name, group.name));
        let void_all = |reason: String| -> Vec<Record> {
            (0..rounds)
                .flat_map(|round| group.cells.iter().map(move |cell| (round, cell)))
                .map(|(round, cell)| {
                    self.progress.inc(1);
                    let at = At {
                        scenario,
                        group,
                        cell,
                        round,
                    };
                    at.void(reason.clone())
                })
                .collect()
        };

        // Apps first, the mock API before the apps that call it.
        let mut apps: Vec<RunningApp> = Vec::new();
        let mut ordered = group.apps.clone();
        ordered.sort_by_key(|spec| !matches!(spec.app, App::MockApi));
        for spec in &ordered {
            let mock = apps.iter().find(|app| matches!(app.spec.app, App::MockApi));
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
        let shared_gateways = measurement.shares_gateways();
        for cell in group.cells.iter().filter(|_| shared_gateways) {
            let key = format!("{:?}", cell.gateway);
            let index = match started.get(&key) {
                Some(index) => *index,
                None => {
                    let result = match apps.iter().find(|app| app.spec.id == cell.gateway.app) {
                        Some(app) => measurement
                            .start_gateway(self.env, &cell.gateway, app)
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

        // One short unrecorded run per cell before the first round: Python imports, lazy pools
        // and the page cache are the same for everyone afterwards.
        if measurement.warms_up() && !self.settings.quick {
            for (index, cell) in group.cells.iter().enumerate() {
                check_interrupted()?;
                if let Ok(gateway) = &gateways[gateway_of_cell[index]] {
                    self.progress.set_message(format!(
                        "{} | {} | {} {} (warm-up)",
                        scenario.name, group.name, cell.gateway.label, cell.variant
                    ));
                    load::warm_up(&context, cell, gateway);
                }
            }
        }

        let mut records = Vec::new();
        for round in 0..group.measure.rounds(rounds) {
            for (index, cell) in group.cells.iter().enumerate() {
                check_interrupted()?;
                let variant = if measurement.names_variant() {
                    format!(" {}", cell.variant)
                } else {
                    String::new()
                };
                self.progress.set_message(format!(
                    "{} | {} | {}{variant} (round {})",
                    scenario.name,
                    group.name,
                    cell.gateway.label,
                    round + 1
                ));
                let at = At {
                    scenario,
                    group,
                    cell,
                    round,
                };
                let record = if shared_gateways {
                    match &mut gateways[gateway_of_cell[index]] {
                        Ok(gateway) => measurement.measure(&context, at, Some(gateway), &mut apps),
                        Err(error) => at.void(format!("gateway failed to start: {error}")),
                    }
                } else {
                    measurement.measure(&context, at, None, &mut apps)
                };
                self.progress.inc(1);
                records.push(record);
            }
        }
        // Gateways before apps, so no gateway logs errors about an app that went away.
        drop(gateways);
        drop(apps);
        Ok(records)
    }
}

fn check_interrupted() -> anyhow::Result<()> {
    if INTERRUPTED.load(Ordering::SeqCst) {
        bail!("interrupted");
    }
    Ok(())
}
