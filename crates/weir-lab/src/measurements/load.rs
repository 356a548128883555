//! The load measurement: one run of the cell's load generator through its gateway, judged by
//! the guard, with the CPU and memory of the gateway's and the apps' processes over the run, the
//! commands of the limiter's Redis, weir's own limit checked, and (after the first round, in the
//! scenarios that count them) the gateway's system calls in a separate run under `strace`. The
//! slowloris and reload measurements measure their load runs with [`measure_load`].

use std::time::Duration;

use anyhow::bail;

use crate::components::{self, RunningApp, RunningGateway};
use crate::guard;
use crate::load::{self, LoadOutput};
use crate::measurement::{log_tail, At, Context, Measurement};
use crate::procfs;
use crate::record::{Counters, Expect, Record, ReloadOutcome, Verdict};
use crate::redis;
use crate::scenario::Cell;
use crate::spec::Gateway;
use crate::syscalls;

/// A load run of the cell's tool for `--duration`.
#[derive(Debug, Clone, Copy)]
pub struct Load;

impl Measurement for Load {
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
            return at.void("the load measurement needs a gateway".to_string());
        };
        let mut record = measure_load(context, at, gateway, apps, |run, _| {
            (run(context.settings.duration), None)
        });
        if at.round == 0 && record.verdict.is_valid() && at.scenario.counts_syscalls {
            record.counters.syscalls = count_syscalls(context, at.cell, gateway);
        }
        record
    }
}

/// A load run of the cell's tool for the given length, as [`measure_load`] hands it to its
/// caller's `drive`.
pub type Run<'a> = dyn Fn(Duration) -> anyhow::Result<LoadOutput> + Sync + 'a;

/// One short unrecorded run of the cell's load before the first round.
pub fn warm_up(context: &Context, cell: &Cell, gateway: &RunningGateway) {
    let duration = context.settings.duration.min(Duration::from_secs(2));
    let url = gateway.url(&cell.path);
    let _ = load::run(cell.tool, &url, duration, context.script(cell));
}

/// A separate short load run with `strace -c -f` attached to every process of the gateway:
/// (system calls, requests), or `None` (said on the console) when tracing failed or the run
/// was not clean.
fn count_syscalls(context: &Context, cell: &Cell, gateway: &RunningGateway) -> Option<(u64, u64)> {
    let component = gateway.component.as_ref()?;
    let pids = procfs::tree(component.pid());
    let output_path = context.env.path("strace", "txt");
    let url = format!("http://{}{}", gateway.addr, cell.path);
    let counted = syscalls::Trace::attach(&pids, &output_path).and_then(|trace| {
        let output = load::run(
            cell.tool,
            &url,
            context.settings.syscall_duration(),
            context.script(cell),
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
            context.progress.println(format!(
                "{}: no syscall count: {error:#}",
                cell.gateway.label
            ));
            None
        }
    }
}

/// Measures one load run through `gateway`: `drive` makes the run (with the `Run` it is given)
/// and returns its output and what the reloads made meanwhile did, if any.
pub fn measure_load(
    context: &Context,
    at: At,
    gateway: &mut RunningGateway,
    apps: &mut [RunningApp],
    drive: impl FnOnce(&Run, &RunningGateway) -> (anyhow::Result<LoadOutput>, Option<ReloadOutcome>),
) -> Record {
    let At {
        scenario,
        group,
        cell,
        round,
    } = at;
    let gateway_pids: Vec<u32> = gateway.component.iter().map(|c| c.pid()).collect();
    let app_pids: Vec<u32> = apps.iter().map(|app| app.component.pid()).collect();
    let weir_options = match cell.gateway.gateway {
        Gateway::Weir(options) => Some(options),
        _ => None,
    };
    let redis = weir_options
        .filter(|options| options.redis_limits)
        .map(|_| components::redis_socket(context.env));
    let redis_before = redis.as_deref().map(redis::command_stats);
    let gateway_before = procfs::usage(&gateway_pids);
    let app_before = procfs::usage(&app_pids);
    let url = gateway.url(&cell.path);
    let run = |duration| load::run(cell.tool, &url, duration, context.script(cell));
    let (result, reloads) = drive(&run, gateway);
    let gateway_after = procfs::usage(&gateway_pids);
    let app_after = procfs::usage(&app_pids);
    let redis_after = redis.as_deref().map(redis::command_stats);

    let (mut verdict, output) = match result {
        Ok(output) => (guard::judge(&output, cell.expect), Some(output)),
        Err(error) => (
            Verdict::Void(vec![format!("load generator failed: {error:#}")]),
            None,
        ),
    };
    // weir's own limits hold: a flood from one address passes no more than the limit admits.
    if let (Some(limit), Some(output)) = (weir_options.and_then(|options| options.limit), &output) {
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
        context.progress.println(format!(
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
            evidence.push('\n');
            evidence.push_str(&log_tail(component));
        }
        for app in apps.iter() {
            evidence.push('\n');
            evidence.push_str(&log_tail(&app.component));
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
