//! `weir-lab readme`: README's performance section (the [`HEADLINE`]: at most eight comparisons,
//! weir beside nginx and HAProxy with the ratios and what they mean, and one chart) and
//! docs/performance.md's full table (every scenario and group, named in the headline or not),
//! both regenerated from the kept runs' `raw.csv` as committed at a revision (HEAD by default),
//! never from a summary written by older code. Each run's measurements are summarised again with
//! today's report and guard (so a figure the guard now voids shows VOID), the newest committed run
//! of every scenario and group is kept, and every row names the run it comes from.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;

use anyhow::{bail, Context};

use crate::guard;
use crate::load::{Latency, LoadOutput, SocketErrors};
use crate::record::{Counters, Expect, IdleResult, Record, Verdict};
use crate::report;
use crate::scenario::is_nginx;
use crate::scenarios;
use crate::summary::{self, CellSummary};

/// The markers between which `weir-lab readme` writes, in README.md (the headline) and in
/// docs/performance.md (the full table).
pub const README_START: &str = "<!-- weir-lab:performance:start -->";
pub const README_END: &str = "<!-- weir-lab:performance:end -->";

/// Where kept runs live, relative to the repository root.
pub const RUNS_DIR: &str = "lab/runs";

/// The full table's file, relative to the repository root.
pub const PERFORMANCE_DOC: &str = "docs/performance.md";

/// One comparison of README's headline: what it is called there, and the scenario, group and
/// variant (the first of the group's when `None`) whose newest run it shows.
#[derive(Debug, Clone, Copy)]
pub struct HeadlineItem {
    pub what: &'static str,
    pub scenario: &'static str,
    /// `None`: the group of the newest run that measured the scenario (idle-connections changes
    /// its connection count between runs).
    pub group: Option<&'static str>,
    pub variant: Option<&'static str>,
}

/// README's headline, in its order: at most eight rows, one per item a kept run measured.
pub const HEADLINE: [HeadlineItem; 8] = [
    HeadlineItem {
        what: "proxy overhead (100 keep-alive clients)",
        scenario: "proxy-overhead",
        group: Some("wrk -t2 -c100"),
        variant: None,
    },
    HeadlineItem {
        what: "one connection",
        scenario: "one-connection",
        group: Some("wrk -t1 -c1"),
        variant: None,
    },
    HeadlineItem {
        what: "new connection per request",
        scenario: "new-connection",
        group: Some("ab -c100"),
        variant: None,
    },
    HeadlineItem {
        what: "429 flood (limit in memory)",
        scenario: "ratelimit-redis",
        group: Some("429 flood"),
        variant: None,
    },
    HeadlineItem {
        what: "memory per idle connection",
        scenario: "idle-connections",
        group: None,
        variant: None,
    },
    HeadlineItem {
        what: "FastAPI small JSON (Unix socket)",
        scenario: "socket-vs-port",
        group: Some("w3t1 plain /async"),
        variant: Some("socket"),
    },
    HeadlineItem {
        what: "FastAPI 1 MB (Unix socket)",
        scenario: "socket-vs-port",
        group: Some("w3t1 plain /async-big"),
        variant: Some("socket"),
    },
    HeadlineItem {
        what: "TLS, keep-alive",
        scenario: "tls",
        group: Some("tls wrk -t2 -c100"),
        variant: None,
    },
];

/// One kept run as committed: its directory and its measurements.
#[derive(Debug, Clone)]
pub struct Run {
    /// `lab/runs/<name>`.
    pub dir: String,
    /// The commit time of the last commit that touched the run (seconds since the epoch).
    pub committed: i64,
    pub records: Vec<Record>,
    /// The chart files (`chart-*.svg`) committed in the run directory.
    pub charts: Vec<String>,
}

/// Reads every run under [`RUNS_DIR`] that has a `raw.csv` at `revision` (or only `only`, when
/// given), oldest commit first.
pub fn read_runs(root: &Path, revision: &str, only: &[String]) -> anyhow::Result<Vec<Run>> {
    let listing = git(
        root,
        &[
            "ls-tree",
            "-r",
            "--name-only",
            revision,
            "--",
            &format!("{RUNS_DIR}/"),
        ],
    )?;
    let mut dirs: Vec<String> = listing
        .lines()
        .filter_map(|path| path.strip_suffix("/raw.csv"))
        .map(str::to_string)
        .collect();
    if !only.is_empty() {
        let wanted: Vec<String> = only
            .iter()
            .map(|run| run.trim_end_matches('/').to_string())
            .collect();
        for run in &wanted {
            if !dirs.contains(run) {
                bail!("{run} has no raw.csv at {revision}: commit the run first");
            }
        }
        dirs.retain(|dir| wanted.contains(dir));
    }
    let mut runs = Vec::new();
    for dir in dirs {
        let csv = git(root, &["show", &format!("{revision}:{dir}/raw.csv")])?;
        if only.is_empty() && is_overload_table(&csv) {
            // `weir-lab-overload`'s own table (its runs are read by their READMEs, not here).
            continue;
        }
        let records = parse_raw_csv(&csv).with_context(|| format!("reading {dir}/raw.csv"))?;
        let committed = git(root, &["log", "-1", "--format=%ct", revision, "--", &dir])?
            .trim()
            .parse()
            .unwrap_or(0);
        let charts = listing
            .lines()
            .filter_map(|path| path.strip_prefix(&format!("{dir}/")))
            .filter(|name| name.starts_with("chart-") && name.ends_with(".svg"))
            .map(str::to_string)
            .collect();
        runs.push(Run {
            dir,
            committed,
            records,
            charts,
        });
    }
    runs.sort_by(|a, b| (a.committed, &a.dir).cmp(&(b.committed, &b.dir)));
    Ok(runs)
}

fn git(root: &Path, args: &[&str]) -> anyhow::Result<String> {
    let output = Command::new("git")
        .arg("-C")
        .arg(root)
        .args(args)
        .output()
        .context("running git")?;
    if !output.status.success() {
        bail!(
            "git {} failed: {}",
            args.join(" "),
            String::from_utf8_lossy(&output.stderr).trim()
        );
    }
    Ok(String::from_utf8_lossy(&output.stdout).into_owned())
}

/// (scenario, group) -> index of the newest run that has it.
fn newest_runs(runs: &[Run]) -> BTreeMap<(String, String), usize> {
    let mut newest = BTreeMap::new();
    for (index, run) in runs.iter().enumerate() {
        for record in &run.records {
            newest.insert((record.scenario.to_string(), record.group.clone()), index);
        }
    }
    newest
}

/// Every run's cells, summarised again by today's report and guard.
fn summaries(runs: &[Run]) -> Vec<Vec<CellSummary>> {
    runs.iter()
        .map(|run| {
            let mut records = run.records.clone();
            records.iter_mut().for_each(guard_again);
            summary::summarize(&records)
        })
        .collect()
}

fn run_name(run: &Run) -> &str {
    run.dir.rsplit('/').next().unwrap_or(&run.dir)
}

fn source_note(revision: &str, commit: &str) -> String {
    format!(
        "Generated by `weir-lab readme` from the kept runs' `raw.csv` at {revision} (last changed \
         in {commit}), summarised by the lab's current report and guard."
    )
}

/// docs/performance.md's section: for each scenario and group, the headline rows of the newest
/// run that measured it, each naming its run (linked as `{link_prefix}lab/runs/...`: `../` from
/// docs/); then what each scenario is held to.
pub fn full_section(runs: &[Run], revision: &str, commit: &str, link_prefix: &str) -> String {
    let newest = newest_runs(runs);
    let mut text = String::new();
    let _ = writeln!(
        text,
        "{} For every scenario and group, the newest committed run that measured it. The `run` \
         column names the run directory; its README.md has the exact command, versions and \
         machine, summary.md every table, raw.csv every measurement.\n",
        source_note(revision, commit)
    );
    let _ = writeln!(text, "{}\n", report::HEADLINE_NOTE);
    let _ = write!(
        text,
        "| run {}",
        report::HEADLINE_HEADER.replacen("|---", "|---|---", 1)
    );
    let mut shown: Vec<&'static str> = Vec::new();
    // Scenarios in the lab's order (one it no longer has, or does not know yet, last); within
    // one, groups in their run's order.
    let order: Vec<&'static str> = scenarios::ALL
        .iter()
        .map(|scenario| scenario.name)
        .collect();
    let mut scenario_names: Vec<&'static str> = runs
        .iter()
        .flat_map(|run| run.records.iter().map(|record| record.scenario))
        .collect();
    scenario_names.sort_by_key(|name| {
        order
            .iter()
            .position(|known| known == name)
            .unwrap_or(order.len())
    });
    scenario_names.dedup();
    let summaries = summaries(runs);
    for scenario in scenario_names {
        for (index, run) in runs.iter().enumerate() {
            let cells: Vec<CellSummary> = summaries[index]
                .iter()
                .filter(|cell| {
                    cell.scenario == scenario
                        && newest.get(&(scenario.to_string(), cell.group.clone())) == Some(&index)
                })
                .cloned()
                .collect();
            let rows = report::headline_rows(&cells);
            if rows.is_empty() {
                continue;
            }
            if !shown.contains(&scenario) {
                shown.push(scenario);
            }
            let name = run_name(run);
            for row in rows {
                let _ = writeln!(text, "| [{name}]({link_prefix}{}) {row}", run.dir);
            }
        }
    }
    let published: Vec<String> = shown
        .iter()
        .filter_map(|name| scenarios::find(name))
        .map(|scenario| format!("- **{}**: {}", scenario.name, scenario.reference))
        .collect();
    if !published.is_empty() {
        let _ = writeln!(
            text,
            "\nWhat each scenario is held to, or the study's published figures:\n"
        );
        for line in published {
            let _ = writeln!(text, "{line}");
        }
    }
    text
}

/// One headline comparison found in the newest run that measured it.
struct Found<'a> {
    item: &'a HeadlineItem,
    run: &'a Run,
    cells: &'a [CellSummary],
    nginx: &'a CellSummary,
}

fn find_item<'a>(
    item: &'a HeadlineItem,
    runs: &'a [Run],
    summaries: &'a [Vec<CellSummary>],
    newest: &BTreeMap<(String, String), usize>,
) -> Option<Found<'a>> {
    let group = match item.group {
        Some(group) => group.to_string(),
        // The newest run that measured the scenario, and the first of its groups.
        None => {
            let (index, _) = runs
                .iter()
                .enumerate()
                .rev()
                .find(|(_, run)| run.records.iter().any(|r| r.scenario == item.scenario))?;
            runs[index]
                .records
                .iter()
                .find(|record| record.scenario == item.scenario)?
                .group
                .clone()
        }
    };
    let index = *newest.get(&(item.scenario.to_string(), group.clone()))?;
    let cells = &summaries[index];
    let nginx = cells.iter().find(|cell| {
        cell.scenario == item.scenario
            && cell.group == group
            && item.variant.is_none_or(|variant| cell.variant == variant)
            && is_nginx(&cell.gateway)
            && cell.baseline.as_deref() == Some(&cell.gateway)
    })?;
    Some(Found {
        item,
        run: &runs[index],
        cells,
        nginx,
    })
}

/// The cell of `gateway` in the same comparison as `nginx`.
fn beside<'a>(
    cells: &'a [CellSummary],
    nginx: &CellSummary,
    gateway: &dyn Fn(&str) -> bool,
) -> Option<&'a CellSummary> {
    cells.iter().find(|cell| {
        cell.scenario == nginx.scenario
            && cell.group == nginx.group
            && cell.variant == nginx.variant
            && cell.path == nginx.path
            && cell.tool == nginx.tool
            && gateway(&cell.gateway)
    })
}

fn thousands(value: f64) -> String {
    let digits = format!("{:.0}", value.abs());
    let mut grouped = String::new();
    for (position, digit) in digits.chars().enumerate() {
        if position > 0 && (digits.len() - position) % 3 == 0 {
            grouped.push(',');
        }
        grouped.push(digit);
    }
    if value < 0.0 {
        format!("-{grouped}")
    } else {
        grouped
    }
}

/// How weir stands against a peer from weir's figure over the peer's (`ratio`), where lower is
/// better for bytes per connection and higher for req/s.
fn standing(ratio: f64, lower_is_better: bool, peer: &str) -> String {
    let percent = ((ratio - 1.0).abs() * 100.0).round();
    let (more, fewer) = if lower_is_better {
        ("more memory", "less memory")
    } else {
        ("more req/s", "fewer req/s")
    };
    let direction = if ratio >= 1.05 {
        Some(more)
    } else if ratio <= 0.95 {
        Some(fewer)
    } else {
        None
    };
    match direction {
        None => format!("level with {peer} (within 5%)"),
        Some(side) => {
            let ahead = (side == more) != lower_is_better;
            if ahead {
                format!("**ahead** of {peer}: {percent}% {side}")
            } else {
                format!("**behind** {peer}: {percent}% {side}")
            }
        }
    }
}

/// One headline row: | what | run | load | nginx row | nginx | HAProxy | weir | weir x nginx |
/// weir x HAProxy | what it means |.
fn headline_row(found: &Found) -> String {
    let Found {
        item,
        run,
        cells,
        nginx,
    } = found;
    let idle = nginx.idle_bytes_per_connection.is_some() || nginx.tool.contains("idle");
    let figure_of = |cell: &CellSummary| -> Option<f64> {
        if cell.is_void() {
            None
        } else if idle {
            cell.idle_bytes_per_connection
        } else {
            cell.requests_per_second
        }
    };
    let unit = if idle { "B/conn" } else { "req/s" };
    let shown = |cell: Option<&CellSummary>| -> String {
        match cell {
            None => "not measured".to_string(),
            Some(cell) if cell.is_void() => "VOID".to_string(),
            Some(cell) => match figure_of(cell) {
                Some(value) => format!("{} {unit}", thousands(value)),
                None => "–".to_string(),
            },
        }
    };
    let haproxy = beside(cells, nginx, &|name| name.starts_with("haproxy"));
    let weir = beside(cells, nginx, &|name| name == "weir")
        .or_else(|| beside(cells, nginx, &|name| is_weir(name) && !name.contains("->")))
        .or_else(|| beside(cells, nginx, &is_weir));
    let nginx_label = report::nginx_row_label(cells, nginx);
    let weir_figure = weir.and_then(figure_of);
    // weir / nginx: the median of same-round ratios; weir / HAProxy: the ratio of the medians.
    let nginx_ratio = weir.filter(|cell| !cell.is_void()).and_then(|cell| {
        if idle {
            cell.idle_ratio
        } else {
            cell.rps_ratio
        }
    });
    let haproxy_ratio = match (weir_figure, haproxy.and_then(figure_of)) {
        (Some(weir), Some(haproxy)) if haproxy > 0.0 => Some(weir / haproxy),
        _ => None,
    };
    let ratio = |value: Option<f64>| match value {
        Some(value) => format!("{value:.2}x"),
        None => "–".to_string(),
    };
    let mut meaning: Vec<String> = Vec::new();
    match (weir, nginx_ratio) {
        (Some(cell), _) if cell.is_void() => {
            meaning.push("weir's figure is VOID (see the run's voids.md)".to_string())
        }
        (None, _) => meaning.push("weir not measured".to_string()),
        (_, Some(value)) if value > 0.0 => meaning.push(standing(value, idle, "nginx")),
        _ => {}
    }
    if let Some(value) = haproxy_ratio.filter(|value| *value > 0.0) {
        meaning.push(standing(value, idle, "HAProxy"));
    }
    if let Some(cpu) = weir
        .filter(|cell| !cell.is_void())
        .and_then(|cell| cell.cpu_ratio)
    {
        meaning.push(format!("{cpu:.2}x nginx's CPU per request"));
    }
    if nginx_label.ends_with("(seed, untuned)") {
        meaning.push("measured against the seed's untuned nginx only: re-run owed".to_string());
    }
    let what_it_means = meaning.join("; ");
    format!(
        "| {} | [{}]({}) | {} | {} | {} | {} | {} | {} | {} | {}. |",
        item.what,
        run_name(run),
        run.dir,
        escape(&nginx.tool),
        escape(&nginx_label),
        shown(Some(nginx)),
        shown(haproxy),
        shown(weir),
        ratio(nginx_ratio),
        ratio(haproxy_ratio),
        what_it_means,
    )
}

fn is_weir(name: &str) -> bool {
    name.starts_with("weir")
}

fn escape(text: &str) -> String {
    text.replace('|', "\\|").replace('\n', " ")
}

/// The headline table's header and rule.
pub const HEADLINE_TABLE_HEADER: &str = "| what | run | load | nginx row | nginx | HAProxy | weir | weir x nginx | weir x HAProxy | what it means |\n\
     |---|---|---|---|---:|---:|---:|---:|---:|---|\n";

/// README's section: the [`HEADLINE`] comparisons each from the newest run that measured it, one
/// chart from the first of them that has one, and a pointer to docs/performance.md for the rest.
pub fn section(runs: &[Run], revision: &str, commit: &str) -> String {
    let newest = newest_runs(runs);
    let summaries = summaries(runs);
    let found: Vec<Found> = HEADLINE
        .iter()
        .filter_map(|item| find_item(item, runs, &summaries, &newest))
        .collect();
    let mut text = String::new();
    let _ = writeln!(
        text,
        "{} Each row is one comparison from the newest run that measured it (the `run` column; \
         its README.md has the command, versions and machine). `weir x nginx` is the median of \
         same-round ratios to the `nginx row` (the better of the seed's nginx and nginx tuned \
         for the load; `nginx (seed, untuned)` where the run had no tuned row); `weir x HAProxy` \
         is the ratio of the medians. For memory per idle connection lower is better, so a ratio \
         above 1 puts weir behind.\n",
        source_note(revision, commit)
    );
    text.push_str(HEADLINE_TABLE_HEADER);
    for found in &found {
        let _ = writeln!(text, "{}", headline_row(found));
    }
    let chart = found.iter().find_map(|found| {
        let name = report::chart_file_name(found.nginx.scenario, &found.nginx.group);
        found
            .run
            .charts
            .contains(&name)
            .then(|| (found, format!("{}/{name}", found.run.dir)))
    });
    if let Some((found, path)) = chart {
        let _ = writeln!(
            text,
            "\n![{}: {} ({})]({path})",
            found.item.what,
            found.nginx.group,
            run_name(found.run)
        );
    }
    let _ = writeln!(
        text,
        "\nEvery scenario and group of every kept run, with p99, CPU and memory ratios, and what \
         each scenario is held to: [{PERFORMANCE_DOC}]({PERFORMANCE_DOC})."
    );
    text
}

/// `readme` with the text between [`README_START`] and [`README_END`] replaced by `section`;
/// `None` when the markers are missing.
pub fn replace_between_markers(readme: &str, section: &str) -> Option<String> {
    let start = readme.find(README_START)? + README_START.len();
    let end = readme[start..].find(README_END)? + start;
    Some(format!(
        "{}\n{}\n{}",
        &readme[..start],
        section.trim_end(),
        &readme[end..]
    ))
}

/// Splits CSV text into rows of fields (RFC 4180: quoted fields may hold commas, quotes doubled,
/// and line breaks).
fn csv_rows(text: &str) -> Vec<Vec<String>> {
    let mut rows = Vec::new();
    let mut row = Vec::new();
    let mut field = String::new();
    let mut quoted = false;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match (quoted, c) {
            (true, '"') if chars.peek() == Some(&'"') => {
                field.push('"');
                chars.next();
            }
            (true, '"') => quoted = false,
            (true, c) => field.push(c),
            (false, '"') => quoted = true,
            (false, ',') => row.push(std::mem::take(&mut field)),
            (false, '\n') => {
                row.push(std::mem::take(&mut field));
                rows.push(std::mem::take(&mut row));
            }
            (false, '\r') => {}
            (false, c) => field.push(c),
        }
    }
    if !field.is_empty() || !row.is_empty() {
        row.push(field);
        rows.push(row);
    }
    rows
}

/// Whether a raw.csv is `weir-lab-overload`'s table (its first column `gateway`, then
/// `setting` and `level`), not a `weir-lab run`'s: the headline has nothing to read in it.
fn is_overload_table(csv: &str) -> bool {
    csv.lines()
        .next()
        .is_some_and(|header| header.starts_with("gateway,setting,level,"))
}

/// Turns raw.csv back into records, by column name, so runs written before a column existed
/// still read. The guard's checks that need only what raw.csv holds are applied again: an idle
/// figure the guard now finds implausible is void, whatever the run said then.
pub fn parse_raw_csv(text: &str) -> anyhow::Result<Vec<Record>> {
    let mut rows = csv_rows(text).into_iter();
    let Some(header) = rows.next() else {
        bail!("empty raw.csv");
    };
    let column: BTreeMap<&str, usize> = header
        .iter()
        .enumerate()
        .map(|(index, name)| (name.as_str(), index))
        .collect();
    for required in ["scenario", "group", "round", "gateway", "tool", "verdict"] {
        if !column.contains_key(required) {
            bail!("raw.csv has no {required} column");
        }
    }
    let mut records = Vec::new();
    for (line, row) in rows.enumerate() {
        if row.iter().all(String::is_empty) {
            continue;
        }
        let text = |name: &str| -> String {
            column
                .get(name)
                .and_then(|index| row.get(*index))
                .cloned()
                .unwrap_or_default()
        };
        let float = |name: &str| -> Option<f64> { text(name).parse().ok() };
        let integer = |name: &str| -> Option<u64> { text(name).parse().ok() };
        let scenario_name = text("scenario");
        let scenario: &'static str = match scenarios::find(&scenario_name) {
            Some(scenario) => scenario.name,
            // A scenario the lab no longer has: its name lives as long as the command.
            None => Box::leak(scenario_name.into_boxed_str()),
        };
        let verdict_text = text("verdict");
        let verdict = match verdict_text.strip_prefix("VOID: ") {
            Some(reasons) => Verdict::Void(reasons.split("; ").map(str::to_string).collect()),
            None if verdict_text == "ok" => Verdict::Valid,
            None => bail!("row {}: verdict {verdict_text:?}", line + 2),
        };
        let rejected = integer("status_429").unwrap_or(0);
        let output = integer("requests").map(|requests| {
            let latency = match (float("p50_ms"), float("p90_ms"), float("p99_ms")) {
                (Some(p50_ms), Some(p90_ms), Some(p99_ms)) => Some(Latency {
                    p50_ms,
                    p90_ms,
                    p99_ms,
                }),
                _ => None,
            };
            LoadOutput {
                requests,
                seconds: float("seconds").unwrap_or(0.0),
                requests_per_second: float("requests_per_second").unwrap_or(0.0),
                latency,
                non_2xx: integer("non_2xx").unwrap_or(0),
                statuses: if rejected > 0 {
                    BTreeMap::from([(429, rejected)])
                } else {
                    BTreeMap::new()
                },
                errors: SocketErrors {
                    connect: integer("errors_connect").unwrap_or(0),
                    read: integer("errors_read").unwrap_or(0),
                    write: integer("errors_write").unwrap_or(0),
                    timeout: integer("errors_timeout").unwrap_or(0),
                    failed: integer("errors_failed").unwrap_or(0),
                },
                text: String::new(),
            }
        });
        let idle = match (
            integer("idle_connections"),
            integer("idle_rss_before_kib"),
            integer("idle_rss_after_kib"),
        ) {
            (Some(connections), Some(before), Some(after)) => Some(IdleResult {
                connections: connections as u32,
                rss_before_kib: before,
                rss_after_kib: after,
            }),
            _ => None,
        };
        let mut record = Record {
            scenario,
            group: text("group"),
            round: integer("round").unwrap_or(1).saturating_sub(1) as u32,
            variant: text("variant"),
            gateway: text("gateway"),
            path: text("path"),
            tool: text("tool"),
            // 429s counted apart only where the run expected them.
            expect: if rejected > 0 {
                Expect::SuccessOr429
            } else {
                Expect::Success
            },
            verdict,
            output,
            gateway_cpu_seconds: float("gateway_cpu_seconds"),
            gateway_peak_rss_kib: integer("gateway_peak_rss_kib"),
            app_cpu_seconds: float("app_cpu_seconds").unwrap_or(0.0),
            idle,
            slowloris: None,
            soak: None,
            reloads: None,
            counters: Counters {
                gateway_cpu_user_seconds: float("gateway_cpu_user_seconds"),
                gateway_cpu_sys_seconds: float("gateway_cpu_sys_seconds"),
                redis_calls: integer("redis_calls"),
                syscalls: integer("strace_syscalls").zip(integer("strace_requests")),
            },
            evidence: String::new(),
        };
        guard_again(&mut record);
        records.push(record);
    }
    Ok(records)
}

/// Applies the guard's checks that need only what raw.csv holds to a kept record, so a figure
/// the guard now voids is void whatever its run said then. Applying it twice changes nothing.
pub fn guard_again(record: &mut Record) {
    let Some(idle) = &record.idle else { return };
    if let Verdict::Void(reasons) = guard::judge_idle(idle) {
        for reason in reasons {
            if !record.verdict.to_string().contains(&reason) {
                record.verdict = record.verdict.clone().void_with(reason);
            }
        }
    }
}

#[cfg(test)]
mod tests;
