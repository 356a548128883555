//! The cells of a run: every cell's figures over its rounds (medians), its ratios to the better
//! nginx row in the same round, and the reasons of any void round. `report` and `readme` print
//! them; `chart` draws them.

use std::collections::BTreeMap;

use crate::record::{Expect, Record, Verdict};
use crate::scenario::{is_nginx, BASELINE};

/// A cell's figures over all rounds.
#[derive(Debug, Clone, PartialEq)]
pub struct CellSummary {
    pub scenario: &'static str,
    pub group: String,
    pub variant: String,
    pub gateway: String,
    pub path: String,
    pub tool: String,
    pub expect: Expect,
    pub rounds: usize,
    /// Distinct reasons from void rounds; the cell is void when this is not empty.
    pub void_reasons: Vec<String>,
    pub requests_per_second: Option<f64>,
    pub p50_ms: Option<f64>,
    pub p99_ms: Option<f64>,
    pub gateway_cpu_us_per_request: Option<f64>,
    pub app_cpu_us_per_request: Option<f64>,
    pub peak_rss_kib: Option<u64>,
    /// Share of responses that were 429, for scenarios that expect them.
    pub rejected_share: Option<f64>,
    /// Medians over rounds of (this cell / nginx in the same round).
    pub rps_ratio: Option<f64>,
    pub p99_ratio: Option<f64>,
    pub cpu_ratio: Option<f64>,
    pub rss_ratio: Option<f64>,
    pub idle_bytes_per_connection: Option<f64>,
    pub idle_ratio: Option<f64>,
    pub idle_rss_after_kib: Option<u64>,
    /// Median user-mode and kernel-mode CPU µs per request of the gateway.
    pub gateway_cpu_split_us_per_request: Option<(f64, f64)>,
    /// Redis-backed limiter rows: Redis commands per 100 rejections, and req/s as a median of
    /// same-round ratios to the memory-backed `weir` row.
    pub redis_calls_per_100_rejections: Option<f64>,
    pub memory_rps_ratio: Option<f64>,
    /// System calls per request in the separate strace run (median over rounds).
    pub syscalls_per_request: Option<f64>,
    /// The nginx row the ratios are taken to: the better of `nginx` and `nginx (tuned)` in the
    /// same comparison (higher req/s; fewer bytes per idle connection).
    pub baseline: Option<String>,
}

impl CellSummary {
    pub fn is_void(&self) -> bool {
        !self.void_reasons.is_empty()
    }
}

/// The median; `None` for no values.
pub fn median(values: &[f64]) -> Option<f64> {
    let mut sorted: Vec<f64> = values.iter().copied().filter(|v| v.is_finite()).collect();
    if sorted.is_empty() {
        return None;
    }
    sorted.sort_by(f64::total_cmp);
    let middle = sorted.len() / 2;
    Some(if sorted.len() % 2 == 0 {
        (sorted[middle - 1] + sorted[middle]) / 2.0
    } else {
        sorted[middle]
    })
}

type CellKey = (&'static str, String, String, String, String, String);

fn cell_key(record: &Record) -> CellKey {
    (
        record.scenario,
        record.group.clone(),
        record.variant.clone(),
        record.gateway.clone(),
        record.path.clone(),
        record.tool.clone(),
    )
}

/// What a cell is compared on: every key but the gateway.
type CompareKey = (&'static str, String, String, String, String);

fn compare_key(key: &CellKey) -> CompareKey {
    (
        key.0,
        key.1.clone(),
        key.2.clone(),
        key.4.clone(),
        key.5.clone(),
    )
}

/// For each comparison, the nginx cell ratios are taken to: among the nginx rows with no void
/// round, the one with the higher median req/s (the fewer median bytes per idle connection);
/// the seed's row when every nginx row is void.
fn choose_baselines(
    order: &[CellKey],
    by_cell: &BTreeMap<CellKey, Vec<&Record>>,
) -> BTreeMap<CompareKey, CellKey> {
    let mut chosen: BTreeMap<CompareKey, (CellKey, Option<f64>)> = BTreeMap::new();
    for key in order.iter().filter(|key| is_nginx(&key.3)) {
        let records = &by_cell[key];
        let void = records.iter().any(|record| !record.verdict.is_valid());
        let idle = records.iter().any(|record| record.idle.is_some());
        let figures: Vec<f64> = records
            .iter()
            .filter_map(|record| match (idle, record.idle, &record.output) {
                // Negated, so that higher is better for both.
                (true, Some(result), _) => Some(-result.bytes_per_connection()),
                (false, _, Some(output)) => Some(output.requests_per_second),
                _ => None,
            })
            .collect();
        let figure = if void { None } else { median(&figures) };
        let better = match chosen.get(&compare_key(key)) {
            None => true,
            Some((_, None)) => figure.is_some() || key.3 == BASELINE,
            Some((_, Some(theirs))) => figure.is_some_and(|mine| mine > *theirs),
        };
        if better {
            chosen.insert(compare_key(key), (key.clone(), figure));
        }
    }
    chosen
        .into_iter()
        .map(|(compare, (key, _))| (compare, key))
        .collect()
}

/// Summarises records into cells, in the order the cells were first measured.
pub fn summarize(records: &[Record]) -> Vec<CellSummary> {
    let mut order: Vec<CellKey> = Vec::new();
    let mut by_cell: BTreeMap<CellKey, Vec<&Record>> = BTreeMap::new();
    for record in records {
        let key = cell_key(record);
        if !by_cell.contains_key(&key) {
            order.push(key.clone());
        }
        by_cell.entry(key).or_default().push(record);
    }
    let baselines = choose_baselines(&order, &by_cell);
    // (baseline cell, round) -> the baseline's record in that round.
    let round_of = |key: &CellKey, round: u32| -> Option<&Record> {
        by_cell
            .get(key)?
            .iter()
            .copied()
            .find(|record| record.round == round)
    };

    order
        .iter()
        .map(|key| {
            let cell = &by_cell[key];
            let first = cell[0];
            let mut void_reasons: Vec<String> = Vec::new();
            for record in cell {
                if let Verdict::Void(reasons) = &record.verdict {
                    for reason in reasons {
                        let reason = format!("round {}: {reason}", record.round + 1);
                        if void_reasons.len() < 3 {
                            void_reasons.push(reason);
                        }
                    }
                }
            }
            let valid: Vec<&Record> = cell
                .iter()
                .copied()
                .filter(|record| record.verdict.is_valid())
                .collect();
            let of = |f: &dyn Fn(&Record) -> Option<f64>| -> Option<f64> {
                if !void_reasons.is_empty() {
                    return None;
                }
                median(
                    &valid
                        .iter()
                        .filter_map(|record| f(record))
                        .collect::<Vec<_>>(),
                )
            };
            let base_key = baselines.get(&compare_key(key));
            let ratio_to =
                |base_key: Option<&CellKey>, f: &dyn Fn(&Record) -> Option<f64>| -> Option<f64> {
                    if !void_reasons.is_empty() {
                        return None;
                    }
                    let base_key = base_key?;
                    let ratios: Vec<f64> = valid
                        .iter()
                        .filter_map(|record| {
                            let base = round_of(base_key, record.round)?;
                            if !base.verdict.is_valid() {
                                return None;
                            }
                            let (mine, theirs) = (f(record)?, f(base)?);
                            (theirs > 0.0).then(|| mine / theirs)
                        })
                        .collect();
                    median(&ratios)
                };
            let ratio = |f: &dyn Fn(&Record) -> Option<f64>| ratio_to(base_key, f);
            // The Redis-backed limiter beside the memory-backed one (`weir`) in the same round.
            let memory_key: Option<CellKey> = key.3.contains("(redis)").then(|| {
                let mut memory = key.clone();
                memory.3 = "weir".to_string();
                memory
            });
            let rps = |record: &Record| record.output.as_ref().map(|o| o.requests_per_second);
            let p50 = |record: &Record| {
                record
                    .output
                    .as_ref()
                    .and_then(|o| o.latency)
                    .map(|latency| latency.p50_ms)
            };
            let p99 = |record: &Record| {
                record
                    .output
                    .as_ref()
                    .and_then(|o| o.latency)
                    .map(|latency| latency.p99_ms)
            };
            let cpu = |record: &Record| record.gateway_cpu_us_per_request();
            let rss = |record: &Record| record.gateway_peak_rss_kib.map(|kib| kib as f64);
            let idle = |record: &Record| record.idle.map(|idle| idle.bytes_per_connection());
            let rejected_share = |record: &Record| {
                let output = record.output.as_ref()?;
                (output.requests > 0).then(|| output.rejected() as f64 / output.requests as f64)
            };
            CellSummary {
                scenario: first.scenario,
                group: first.group.clone(),
                variant: first.variant.clone(),
                gateway: first.gateway.clone(),
                path: first.path.clone(),
                tool: first.tool.clone(),
                expect: first.expect,
                rounds: cell.len(),
                requests_per_second: of(&rps),
                p50_ms: of(&p50),
                p99_ms: of(&p99),
                gateway_cpu_us_per_request: of(&cpu),
                app_cpu_us_per_request: of(&|record: &Record| record.app_cpu_us_per_request()),
                peak_rss_kib: if void_reasons.is_empty() {
                    valid
                        .iter()
                        .filter_map(|record| record.gateway_peak_rss_kib)
                        .max()
                } else {
                    None
                },
                rejected_share: if first.expect == Expect::SuccessOr429 {
                    of(&rejected_share)
                } else {
                    None
                },
                rps_ratio: ratio(&rps),
                p99_ratio: ratio(&p99),
                cpu_ratio: ratio(&cpu),
                rss_ratio: ratio(&rss),
                idle_bytes_per_connection: of(&idle),
                idle_ratio: ratio(&idle),
                idle_rss_after_kib: if void_reasons.is_empty() {
                    valid
                        .iter()
                        .filter_map(|record| record.idle.map(|idle| idle.rss_after_kib))
                        .max()
                } else {
                    None
                },
                gateway_cpu_split_us_per_request: of(&|record: &Record| {
                    record
                        .gateway_cpu_split_us_per_request()
                        .map(|(user, _)| user)
                })
                .zip(of(&|record: &Record| {
                    record
                        .gateway_cpu_split_us_per_request()
                        .map(|(_, sys)| sys)
                })),
                redis_calls_per_100_rejections: of(&|record: &Record| {
                    record.redis_calls_per_100_rejections()
                }),
                memory_rps_ratio: ratio_to(memory_key.as_ref(), &rps),
                syscalls_per_request: of(&|record: &Record| record.syscalls_per_request()),
                baseline: base_key.map(|key| key.3.clone()),
                void_reasons,
            }
        })
        .collect()
}
