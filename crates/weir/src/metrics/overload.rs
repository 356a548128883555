//! The admission figures of each pool (docs/overload.md): the current limit, refusals by
//! reason, time in queue as a histogram, the predicted wait against the actual one, and the
//! service time the prediction uses; for async workers, the adaptive limit's baseline latency
//! and its cuts. Read from [`PoolStats`] at scrape time, like the other
//! pool families.

use super::text::{family, sample, sample_f64};
use crate::config::UpstreamAddr;
use crate::upstream::admission::WAIT_BUCKETS_MS;
use crate::upstream::PoolStats;

/// `le` labels of [`WAIT_BUCKETS_MS`], in seconds.
const WAIT_LABELS: [&str; 10] = [
    "0.001", "0.005", "0.01", "0.025", "0.05", "0.1", "0.25", "0.5", "1", "5",
];

pub(super) fn render(out: &mut String, pools: &[(String, UpstreamAddr, PoolStats)]) {
    debug_assert_eq!(WAIT_LABELS.len(), WAIT_BUCKETS_MS.len());
    let servers: Vec<(&str, String, &PoolStats)> = pools
        .iter()
        .map(|(upstream, server, stats)| (upstream.as_str(), server.to_string(), stats))
        .collect();
    family(
        out,
        "weir_pool_limit",
        "gauge",
        "The server's concurrency cap (max_connections, derived from workers, or the adaptive limit now for async workers); 0: none.",
    );
    for (upstream, server, stats) in &servers {
        let labels = [("upstream", *upstream), ("server", server.as_str())];
        sample(out, "weir_pool_limit", &labels, stats.limit as u64);
    }
    // The adaptive limit's own figures, for async workers only.
    let adaptive: Vec<_> = servers
        .iter()
        .filter_map(|(upstream, server, stats)| Some((*upstream, server.as_str(), stats.adaptive?)))
        .collect();
    if !adaptive.is_empty() {
        family(
            out,
            "weir_pool_baseline_latency_seconds",
            "gauge",
            "The app's latency at no more than workers in flight, the least of the adaptive limit's baselines (one per kind of request); 0: none learned yet.",
        );
        for (upstream, server, stats) in &adaptive {
            let labels = [("upstream", *upstream), ("server", *server)];
            let seconds = stats.baseline_us as f64 / 1e6;
            sample_f64(out, "weir_pool_baseline_latency_seconds", &labels, seconds);
        }
        family(
            out,
            "weir_pool_limit_cuts_total",
            "counter",
            "Cuts of the adaptive limit, by reason: latency over the baseline, or failed answers.",
        );
        for (upstream, server, stats) in &adaptive {
            for (reason, count) in [
                ("latency", stats.cuts_latency),
                ("failures", stats.cuts_failures),
            ] {
                let labels = [
                    ("upstream", *upstream),
                    ("server", *server),
                    ("reason", reason),
                ];
                sample(out, "weir_pool_limit_cuts_total", &labels, count);
            }
        }
    }
    family(
        out,
        "weir_pool_service_seconds",
        "gauge",
        "The recent service time (a place's occupancy) admission predicts waits with.",
    );
    for (upstream, server, stats) in &servers {
        let labels = [("upstream", *upstream), ("server", server.as_str())];
        let seconds = stats.admission.service_us as f64 / 1e6;
        sample_f64(out, "weir_pool_service_seconds", &labels, seconds);
    }
    family(
        out,
        "weir_pool_refusals_total",
        "counter",
        "Requests refused a place by admission (declared capacity), by reason: at once, or dropped from a standing queue (standing_drop).",
    );
    for (upstream, server, stats) in &servers {
        for (reason, count) in [
            ("predicted_wait", stats.admission.refused_predicted),
            ("standing_queue", stats.admission.refused_standing),
            ("queue_full", stats.admission.refused_full),
            ("standing_drop", stats.admission.dropped_standing),
        ] {
            let labels = [
                ("upstream", *upstream),
                ("server", server.as_str()),
                ("reason", reason),
            ];
            sample(out, "weir_pool_refusals_total", &labels, count);
        }
    }
    family(
        out,
        "weir_pool_queue_wait_seconds",
        "histogram",
        "Time requests that queued waited for a place.",
    );
    for (upstream, server, stats) in &servers {
        let mut cumulative = 0;
        for (index, label) in WAIT_LABELS.iter().chain(["+Inf"].iter()).enumerate() {
            cumulative += stats.admission.wait_buckets[index];
            let labels = [
                ("upstream", *upstream),
                ("server", server.as_str()),
                ("le", label),
            ];
            sample(
                out,
                "weir_pool_queue_wait_seconds_bucket",
                &labels,
                cumulative,
            );
        }
        let labels = [("upstream", *upstream), ("server", server.as_str())];
        let sum = stats.admission.wait_sum_us as f64 / 1e6;
        sample_f64(out, "weir_pool_queue_wait_seconds_sum", &labels, sum);
        let count = stats.admission.wait_count;
        sample(out, "weir_pool_queue_wait_seconds_count", &labels, count);
    }
    family(
        out,
        "weir_pool_predicted_wait_seconds_total",
        "counter",
        "The predicted waits of the requests in weir_pool_queue_wait_seconds, summed: set against its _sum.",
    );
    for (upstream, server, stats) in &servers {
        let labels = [("upstream", *upstream), ("server", server.as_str())];
        let sum = stats.admission.predicted_sum_us as f64 / 1e6;
        sample_f64(out, "weir_pool_predicted_wait_seconds_total", &labels, sum);
    }
}
