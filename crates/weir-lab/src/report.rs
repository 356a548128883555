//! Turns records into the run directory: `raw.csv` (one row per measurement), `summary.md`
//! (the cells of `summary`: medians and ratios to nginx in the same round; void cells shown as
//! VOID, never as figures), `voids.md`, `reloads.md` and one SVG chart per group (`chart`).
//! `README.md` (the command, versions, machine) is main's.

use std::fmt::Write as _;
use std::fs;
use std::path::Path;

use anyhow::Context;

use crate::chart;
use crate::load::LoadOutput;
use crate::measurements::reloads;
use crate::record::{Expect, Record};
use crate::robustness;
use crate::scenario::{is_nginx, Scenario, BASELINE, TUNED_NGINX};
use crate::summary::{summarize, CellSummary};

fn number(value: Option<f64>, decimals: usize) -> String {
    match value {
        Some(value) => format!("{value:.decimals$}"),
        None => "–".to_string(),
    }
}

fn ratio_text(value: Option<f64>) -> String {
    match value {
        Some(value) => format!("{value:.2}x"),
        None => "–".to_string(),
    }
}

fn mib(kib: Option<u64>) -> String {
    number(kib.map(|kib| kib as f64 / 1024.0), 1)
}

/// A table cell must not break the markdown table.
fn escape(text: &str) -> String {
    text.replace('|', "\\|").replace('\n', " ")
}

/// The figure of the cell `gateway` beside `baseline` (same scenario, group, variant, path, load).
fn beside<'a>(
    cells: &'a [CellSummary],
    baseline: &CellSummary,
    gateway: &dyn Fn(&str) -> bool,
) -> Option<&'a CellSummary> {
    cells.iter().find(|cell| {
        cell.scenario == baseline.scenario
            && cell.group == baseline.group
            && cell.variant == baseline.variant
            && cell.path == baseline.path
            && cell.tool == baseline.tool
            && gateway(&cell.gateway)
    })
}

/// The nginx row a comparison's ratios are to, as the tables name it: `nginx (tuned)`; the seed's
/// `nginx` marked `(seed, untuned)` where the comparison has no tuned row (a run older than it,
/// or `--quick`: a re-run against the tuned one is owed), and `(seed, better than tuned here)`
/// where both ran and the seed's won.
pub fn nginx_row_label(cells: &[CellSummary], baseline: &CellSummary) -> String {
    if baseline.gateway != BASELINE {
        return baseline.gateway.clone();
    }
    if beside(cells, baseline, &|name| name == TUNED_NGINX).is_some() {
        format!("{BASELINE} (seed, better than tuned here)")
    } else {
        format!("{BASELINE} (seed, untuned)")
    }
}

/// What the headline table shows, for its readers.
pub const HEADLINE_NOTE: &str = "req/s medians (bytes per idle connection for idle-connections); \
    VOID where the guard voided any round. `nginx` is the better of the seed's nginx and nginx \
    tuned for the load (`nginx row` says which; `nginx (seed, untuned)` marks a comparison \
    measured without the tuned row, by a run older than it or `--quick`), and `weir x nginx` columns are medians of same-round ratios to that row.";

/// The headline table's header and rule.
pub const HEADLINE_HEADER: &str = "| scenario | group | variant | load | nginx row | nginx | haproxy | python | weir | direct / ceiling | weir x nginx req/s | weir x nginx p99 | weir x nginx CPU/req | weir x nginx peak RSS |\n\
     |---|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n";

/// The headline of summary.md: [`headline_rows`] under [`HEADLINE_HEADER`].
pub fn headline_markdown(cells: &[CellSummary]) -> String {
    let rows = headline_rows(cells);
    if rows.is_empty() {
        return String::new();
    }
    let mut text = format!("## Headline\n\n{HEADLINE_NOTE}\n\n{HEADLINE_HEADER}");
    for row in rows {
        let _ = writeln!(text, "{row}");
    }
    text.push('\n');
    text
}

/// One row per comparison (scenario, group, variant, path, load): req/s of its nginx row, HAProxy,
/// the Python gateway, weir, and direct or the ceiling beside it, and weir's ratios.
/// Idle-connection groups show bytes per connection.
pub fn headline_rows(cells: &[CellSummary]) -> Vec<String> {
    // One row per comparison: its chosen nginx cell is the one whose baseline is itself.
    let baselines: Vec<&CellSummary> = cells
        .iter()
        .filter(|cell| is_nginx(&cell.gateway) && cell.baseline.as_deref() == Some(&cell.gateway))
        .collect();
    let mut rows = Vec::new();
    for baseline in baselines {
        let idle = baseline.idle_bytes_per_connection.is_some() || baseline.tool.contains("idle");
        let figure = |cell: Option<&CellSummary>| -> String {
            match cell {
                None => "–".to_string(),
                Some(cell) if cell.is_void() => "VOID".to_string(),
                Some(cell) if idle => number(cell.idle_bytes_per_connection, 0),
                Some(cell) => number(cell.requests_per_second, 0),
            }
        };
        let haproxy = beside(cells, baseline, &|name| name.starts_with("haproxy"));
        let python = beside(cells, baseline, &|name| name == "python");
        // weir serving by itself (a static route) before weir in front of another server.
        let weir = beside(cells, baseline, &|name| {
            name.starts_with("weir") && !name.contains("->")
        })
        .or_else(|| beside(cells, baseline, &|name| name.starts_with("weir")));
        let direct = beside(cells, baseline, &|name| {
            name == "direct" || name.starts_with("ceiling") || name.starts_with("hyper")
        })
        .or_else(|| {
            // Direct is measured on the port only (socket-vs-port).
            cells.iter().find(|cell| {
                cell.scenario == baseline.scenario
                    && cell.group == baseline.group
                    && cell.gateway == "direct"
            })
        });
        let weir_ratio = |ratio: &dyn Fn(&CellSummary) -> Option<f64>| -> String {
            match weir {
                Some(cell) if !cell.is_void() => ratio_text(ratio(cell)),
                Some(_) => "VOID".to_string(),
                None => "–".to_string(),
            }
        };
        rows.push(format!(
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            baseline.scenario,
            escape(&baseline.group),
            escape(&baseline.variant),
            escape(&baseline.tool),
            escape(&nginx_row_label(cells, baseline)),
            figure(Some(baseline)),
            figure(haproxy),
            figure(python),
            figure(weir),
            figure(direct),
            weir_ratio(&|cell| if idle {
                cell.idle_ratio
            } else {
                cell.rps_ratio
            }),
            weir_ratio(&|cell| cell.p99_ratio),
            weir_ratio(&|cell| cell.cpu_ratio),
            weir_ratio(&|cell| cell.rss_ratio),
        ));
    }
    rows
}

/// summary.md's text.
pub fn summary_markdown(scenarios: &[&Scenario], cells: &[CellSummary]) -> String {
    let mut text = String::from("# Summary\n\n");
    text.push_str(
        "Medians over rounds. `x nginx` is the median over rounds of the cell's figure divided by \
         nginx's in the same round (same variant, path and load), nginx being the better of its \
         two rows, the seed's config and the one tuned for the load (each table says which). A \
         cell with any void round is VOID and shows no figure. Gateway CPU counts every process \
         of the gateway (from /proc), split into user and kernel time; app CPU is the upstream \
         apps'. Peak RSS is the sum of VmHWM over the gateway's processes. syscalls/req, where \
         shown, come from a separate short run under `strace -c -f`.\n\n",
    );
    text.push_str(&headline_markdown(cells));
    for scenario in scenarios {
        let _ = writeln!(text, "## {}\n", scenario.name);
        let _ = writeln!(text, "{}\n", scenario.about);
        let _ = writeln!(
            text,
            "Published figures for reference: {}\n",
            scenario.reference
        );
        let mut groups: Vec<&str> = Vec::new();
        for cell in cells.iter().filter(|cell| cell.scenario == scenario.name) {
            if !groups.contains(&cell.group.as_str()) {
                groups.push(&cell.group);
            }
        }
        for group in groups {
            let group_cells: Vec<&CellSummary> = cells
                .iter()
                .filter(|cell| cell.scenario == scenario.name && cell.group == group)
                .collect();
            let _ = writeln!(text, "### {group}\n");
            let _ = writeln!(text, "{}", baseline_note(&group_cells));
            let idle = group_cells
                .iter()
                .any(|cell| cell.idle_bytes_per_connection.is_some() || cell.tool.contains("idle"));
            if idle {
                text.push_str("| gateway | bytes per idle connection | x nginx | RSS with connections (MiB) |\n|---|---:|---:|---:|\n");
                for cell in &group_cells {
                    if cell.is_void() {
                        let _ = writeln!(
                            text,
                            "| {} | VOID: {} | | |",
                            escape(&cell.gateway),
                            escape(&cell.void_reasons.join("; "))
                        );
                        continue;
                    }
                    let _ = writeln!(
                        text,
                        "| {} | {} | {} | {} |",
                        escape(&cell.gateway),
                        number(cell.idle_bytes_per_connection, 0),
                        ratio_text(cell.idle_ratio),
                        mib(cell.idle_rss_after_kib)
                    );
                }
            } else {
                text.push_str(&load_table(&group_cells));
            }
            let _ = writeln!(
                text,
                "\n![{group}]({})\n",
                chart_file_name(scenario.name, group)
            );
        }
    }
    text
}

/// A group's load table: the columns every load has, then user/sys CPU, and the columns only
/// some groups fill (429 share, Redis calls, syscalls).
fn load_table(cells: &[&CellSummary]) -> String {
    let expects_429 = cells.iter().any(|cell| cell.expect == Expect::SuccessOr429);
    let redis = cells
        .iter()
        .any(|cell| cell.redis_calls_per_100_rejections.is_some());
    let syscalls = cells.iter().any(|cell| cell.syscalls_per_request.is_some());
    let mut header = String::from(
        "| gateway | variant | path | load | req/s | x nginx | p50 ms | p99 ms | p99 x nginx | gateway CPU µs/req | x nginx | user / sys µs/req | app CPU µs/req | peak RSS MiB |",
    );
    let mut rule =
        String::from("|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    let mut optional = |wanted: bool, title: &str| {
        if wanted {
            header.push_str(&format!(" {title} |"));
            rule.push_str("---:|");
        }
    };
    optional(expects_429, "429 share");
    optional(redis, "x weir (memory) req/s");
    optional(redis, "Redis calls per 100 429s");
    optional(syscalls, "syscalls/req (strace)");
    let mut text = format!("{header}\n{rule}\n");
    for cell in cells {
        if cell.is_void() {
            let _ = write!(
                text,
                "| {} | {} | {} | {} | VOID: {} |",
                escape(&cell.gateway),
                escape(&cell.variant),
                escape(&cell.path),
                escape(&cell.tool),
                escape(&cell.void_reasons.join("; "))
            );
            let empty = 9 + [expects_429, redis, redis, syscalls]
                .iter()
                .filter(|wanted| **wanted)
                .count();
            text.push_str(&" |".repeat(empty));
            text.push('\n');
            continue;
        }
        let split = match cell.gateway_cpu_split_us_per_request {
            Some((user, sys)) => format!("{user:.1} / {sys:.1}"),
            None => "–".to_string(),
        };
        let _ = write!(
            text,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            escape(&cell.gateway),
            escape(&cell.variant),
            escape(&cell.path),
            escape(&cell.tool),
            number(cell.requests_per_second, 0),
            ratio_text(cell.rps_ratio),
            number(cell.p50_ms, 2),
            number(cell.p99_ms, 2),
            ratio_text(cell.p99_ratio),
            number(cell.gateway_cpu_us_per_request, 1),
            ratio_text(cell.cpu_ratio),
            split,
            number(cell.app_cpu_us_per_request, 1),
            mib(cell.peak_rss_kib),
        );
        if expects_429 {
            let share = number(cell.rejected_share.map(|share| share * 100.0), 2);
            let _ = write!(text, " {share}% |");
        }
        if redis {
            let _ = write!(
                text,
                " {} | {} |",
                ratio_text(cell.memory_rps_ratio),
                number(cell.redis_calls_per_100_rejections, 2)
            );
        }
        if syscalls {
            let _ = write!(text, " {} |", number(cell.syscalls_per_request, 1));
        }
        text.push('\n');
    }
    text
}

/// Which nginx row the group's `x nginx` ratios are to, per comparison when they differ.
fn baseline_note(cells: &[&CellSummary]) -> String {
    let mut chosen: Vec<(String, String)> = Vec::new();
    for cell in cells {
        if let Some(baseline) = &cell.baseline {
            let comparison = format!("{} {} {}", cell.variant, cell.path, cell.tool);
            if !chosen.iter().any(|(seen, _)| *seen == comparison) {
                chosen.push((comparison, baseline.clone()));
            }
        }
    }
    let mut labels: Vec<&str> = chosen.iter().map(|(_, label)| label.as_str()).collect();
    labels.sort_unstable();
    labels.dedup();
    match labels.as_slice() {
        [] => String::new(),
        [label] => format!("`x nginx` is to **{label}**, the better nginx row here.\n"),
        _ => format!(
            "`x nginx` is to the better nginx row of each comparison: {}.\n",
            chosen
                .iter()
                .map(|(comparison, label)| format!("{} -> **{label}**", comparison.trim()))
                .collect::<Vec<_>>()
                .join("; ")
        ),
    }
}

/// The chart's file name for a group.
pub fn chart_file_name(scenario: &str, group: &str) -> String {
    let slug: String = format!("{scenario}-{group}")
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect();
    let mut collapsed = String::new();
    for c in slug.chars() {
        if !(c == '-' && collapsed.ends_with('-')) {
            collapsed.push(c);
        }
    }
    format!("chart-{}.svg", collapsed.trim_matches('-'))
}

fn csv_field(text: &str) -> String {
    if text.contains([',', '"', '\n']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_string()
    }
}

fn optional<T: ToString>(value: Option<T>) -> String {
    value.map(|value| value.to_string()).unwrap_or_default()
}

/// raw.csv's text: one row per measurement.
pub fn raw_csv(records: &[Record]) -> String {
    let mut text = String::from(
        "scenario,group,round,variant,gateway,path,tool,verdict,requests,seconds,requests_per_second,p50_ms,p90_ms,p99_ms,non_2xx,status_429,errors_connect,errors_read,errors_write,errors_timeout,errors_failed,gateway_cpu_seconds,gateway_cpu_us_per_request,gateway_peak_rss_kib,app_cpu_seconds,app_cpu_us_per_request,idle_connections,idle_rss_before_kib,idle_rss_after_kib,idle_bytes_per_connection,gateway_cpu_user_seconds,gateway_cpu_sys_seconds,redis_calls,strace_syscalls,strace_requests\n",
    );
    for record in records {
        let output = record.output.as_ref();
        let latency = output.and_then(|output| output.latency);
        let fields = [
            record.scenario.to_string(),
            record.group.clone(),
            (record.round + 1).to_string(),
            record.variant.clone(),
            record.gateway.clone(),
            record.path.clone(),
            record.tool.clone(),
            record.verdict.to_string(),
            optional(output.map(|o| o.requests)),
            optional(output.map(|o| format!("{:.3}", o.seconds))),
            optional(output.map(|o| format!("{:.2}", o.requests_per_second))),
            optional(latency.map(|l| format!("{:.3}", l.p50_ms))),
            optional(latency.map(|l| format!("{:.3}", l.p90_ms))),
            optional(latency.map(|l| format!("{:.3}", l.p99_ms))),
            optional(output.map(|o| o.non_2xx)),
            optional(output.map(LoadOutput::rejected)),
            optional(output.map(|o| o.errors.connect)),
            optional(output.map(|o| o.errors.read)),
            optional(output.map(|o| o.errors.write)),
            optional(output.map(|o| o.errors.timeout)),
            optional(output.map(|o| o.errors.failed)),
            optional(record.gateway_cpu_seconds.map(|s| format!("{s:.3}"))),
            optional(
                record
                    .gateway_cpu_us_per_request()
                    .map(|us| format!("{us:.2}")),
            ),
            optional(record.gateway_peak_rss_kib),
            format!("{:.3}", record.app_cpu_seconds),
            optional(record.app_cpu_us_per_request().map(|us| format!("{us:.2}"))),
            optional(record.idle.map(|idle| idle.connections)),
            optional(record.idle.map(|idle| idle.rss_before_kib)),
            optional(record.idle.map(|idle| idle.rss_after_kib)),
            optional(
                record
                    .idle
                    .map(|idle| format!("{:.0}", idle.bytes_per_connection())),
            ),
            optional(
                record
                    .counters
                    .gateway_cpu_user_seconds
                    .map(|s| format!("{s:.3}")),
            ),
            optional(
                record
                    .counters
                    .gateway_cpu_sys_seconds
                    .map(|s| format!("{s:.3}")),
            ),
            optional(record.counters.redis_calls),
            optional(record.counters.syscalls.map(|(calls, _)| calls)),
            optional(record.counters.syscalls.map(|(_, requests)| requests)),
        ];
        let row: Vec<String> = fields.iter().map(|field| csv_field(field)).collect();
        text.push_str(&row.join(","));
        text.push('\n');
    }
    text
}

/// voids.md's text: every void measurement with its reasons and evidence; empty when none.
pub fn voids_markdown(records: &[Record]) -> String {
    let void: Vec<&Record> = records
        .iter()
        .filter(|record| !record.verdict.is_valid())
        .collect();
    if void.is_empty() {
        return String::new();
    }
    let mut text = String::from("# Void measurements\n\nEvery measurement the guard voided, with what the load generator printed and the end of the logs.\n\n");
    for record in void {
        let _ = writeln!(
            text,
            "## {} / {} / {} [{}] {} {}, round {}\n\n{}\n\n```\n{}\n```\n",
            record.scenario,
            record.group,
            record.gateway,
            record.variant,
            record.path,
            record.tool,
            record.round + 1,
            record.verdict,
            record.evidence.trim()
        );
    }
    text
}

/// Writes raw.csv, summary.md and the charts into `dir` (README.md is written by the caller, which
/// knows the command and versions).
pub fn write(dir: &Path, scenarios: &[&Scenario], records: &[Record]) -> anyhow::Result<()> {
    fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    fs::write(dir.join("raw.csv"), raw_csv(records))?;
    let cells = summarize(records);
    let mut summary = summary_markdown(scenarios, &cells);
    summary.push_str(&robustness::markdown(records));
    fs::write(dir.join("summary.md"), summary)?;
    let reloads = reloads::markdown(records);
    if !reloads.is_empty() {
        fs::write(dir.join("reloads.md"), reloads)?;
    }
    let voids = voids_markdown(records);
    if !voids.is_empty() {
        fs::write(dir.join("voids.md"), voids)?;
    }
    for scenario in scenarios {
        let mut groups: Vec<&str> = Vec::new();
        for cell in cells.iter().filter(|cell| cell.scenario == scenario.name) {
            if !groups.contains(&cell.group.as_str()) {
                groups.push(&cell.group);
            }
        }
        for group in groups {
            let group_cells: Vec<&CellSummary> = cells
                .iter()
                .filter(|cell| cell.scenario == scenario.name && cell.group == group)
                .collect();
            let path = dir.join(chart_file_name(scenario.name, group));
            chart::draw(&path, &format!("{}: {group}", scenario.name), &group_cells)
                .with_context(|| format!("drawing {}", path.display()))?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests;
