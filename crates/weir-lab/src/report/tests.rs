//! Medians, same-round ratios and VOID cells, on hand-built records.

use super::*;
use crate::load::{Latency, LoadOutput};
use crate::record::Verdict;
use crate::summary::median;

fn record(gateway: &str, round: u32, rps: f64, verdict: Verdict) -> Record {
    Record {
        scenario: "proxy-overhead",
        group: "g".to_string(),
        round,
        variant: "small".to_string(),
        gateway: gateway.to_string(),
        path: "/".to_string(),
        tool: "wrk -t2 -c100".to_string(),
        expect: Expect::Success,
        verdict,
        output: Some(LoadOutput {
            requests: (rps * 10.0) as u64,
            seconds: 10.0,
            requests_per_second: rps,
            latency: Some(Latency {
                p50_ms: 1.0,
                p90_ms: 2.0,
                p99_ms: 3.0,
            }),
            ..LoadOutput::default()
        }),
        gateway_cpu_seconds: Some(1.0),
        gateway_peak_rss_kib: Some(2048),
        app_cpu_seconds: 0.5,
        idle: None,
        slowloris: None,
        soak: None,
        reloads: None,
        counters: crate::record::Counters::default(),
        evidence: String::new(),
    }
}

#[test]
fn median_of_odd_even_and_empty() {
    assert_eq!(median(&[3.0, 1.0, 2.0]), Some(2.0));
    assert_eq!(median(&[4.0, 1.0, 2.0, 3.0]), Some(2.5));
    assert_eq!(median(&[]), None);
}

#[test]
fn ratios_are_taken_within_each_round() {
    // weir is 2x nginx in every round, though the machine drifts between rounds.
    let records = vec![
        record("nginx", 0, 100.0, Verdict::Valid),
        record("weir", 0, 200.0, Verdict::Valid),
        record("nginx", 1, 50.0, Verdict::Valid),
        record("weir", 1, 100.0, Verdict::Valid),
        record("nginx", 2, 80.0, Verdict::Valid),
        record("weir", 2, 160.0, Verdict::Valid),
    ];
    let cells = summarize(&records);
    assert_eq!(cells.len(), 2);
    let weir = &cells[1];
    assert_eq!(weir.gateway, "weir");
    assert_eq!(weir.requests_per_second, Some(160.0));
    assert_eq!(weir.rps_ratio, Some(2.0));
    assert_eq!(cells[0].rps_ratio, Some(1.0));
    // CPU per request: 1 s over rps*10 requests.
    assert!((weir.gateway_cpu_us_per_request.unwrap() - 1e6 / 1600.0).abs() < 1e-6);
    assert!((weir.cpu_ratio.unwrap() - 0.5).abs() < 1e-9);
}

#[test]
fn one_void_round_voids_the_cell_and_shows_no_figure() {
    let records = vec![
        record("nginx", 0, 100.0, Verdict::Valid),
        record("weir", 0, 200.0, Verdict::Valid),
        record("nginx", 1, 100.0, Verdict::Valid),
        record(
            "weir",
            1,
            900.0,
            Verdict::Void(vec!["12 non-2xx responses".to_string()]),
        ),
    ];
    let cells = summarize(&records);
    let weir = &cells[1];
    assert!(weir.is_void());
    assert_eq!(weir.requests_per_second, None);
    assert_eq!(weir.rps_ratio, None);
    assert_eq!(weir.void_reasons, ["round 2: 12 non-2xx responses"]);
    let markdown = summary_markdown(&[&crate::scenarios::ALL[5]], &cells);
    assert!(
        markdown
            .contains("| weir | small | / | wrk -t2 -c100 | VOID: round 2: 12 non-2xx responses |"),
        "{markdown}"
    );
    assert!(!markdown.contains("900"), "{markdown}");
}

#[test]
fn a_void_baseline_round_gives_no_ratio_for_that_round() {
    let records = vec![
        record("nginx", 0, 100.0, Verdict::Void(vec!["x".to_string()])),
        record("weir", 0, 300.0, Verdict::Valid),
        record("nginx", 1, 100.0, Verdict::Valid),
        record("weir", 1, 200.0, Verdict::Valid),
    ];
    let cells = summarize(&records);
    assert_eq!(cells[1].rps_ratio, Some(2.0));
    assert!(cells[0].is_void());
}

#[test]
fn csv_has_one_row_per_record_and_quotes_commas() {
    let mut void = record("weir", 0, 1.0, Verdict::Void(vec!["a, b".to_string()]));
    void.group = "w3t1 plain /sync".to_string();
    let text = raw_csv(&[record("nginx", 0, 10.0, Verdict::Valid), void]);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3);
    assert!(lines[2].contains("\"VOID: a, b\""), "{}", lines[2]);
    let header_fields = lines[0].split(',').count();
    assert_eq!(lines[1].split(',').count(), header_fields);
}

#[test]
fn chart_names_are_slugs() {
    assert_eq!(
        chart_file_name("socket-vs-port", "w3t1 plain /sync-big"),
        "chart-socket-vs-port-w3t1-plain-sync-big.svg"
    );
}

#[test]
fn headline_puts_weir_beside_nginx_with_its_ratios() {
    let records = vec![
        record("nginx", 0, 100.0, Verdict::Valid),
        record("haproxy", 0, 120.0, Verdict::Valid),
        record("weir", 0, 150.0, Verdict::Valid),
        record("python", 0, 10.0, Verdict::Void(vec!["x".to_string()])),
    ];
    let text = headline_markdown(&summarize(&records));
    assert!(
        text.contains(
            "| proxy-overhead | g | small | wrk -t2 -c100 | nginx (seed, untuned) | 100 | 120 | VOID | 150 | – | 1.50x |"
        ),
        "{text}"
    );
}

#[test]
fn ratios_are_to_the_better_nginx_row_and_the_headline_names_it() {
    // The tuned nginx is faster in both rounds: weir's ratio is to it, not to the seed's.
    let records = vec![
        record("nginx", 0, 100.0, Verdict::Valid),
        record("nginx (tuned)", 0, 200.0, Verdict::Valid),
        record("weir", 0, 150.0, Verdict::Valid),
        record("nginx", 1, 100.0, Verdict::Valid),
        record("nginx (tuned)", 1, 300.0, Verdict::Valid),
        record("weir", 1, 150.0, Verdict::Valid),
    ];
    let cells = summarize(&records);
    let weir = cells.iter().find(|cell| cell.gateway == "weir").unwrap();
    assert_eq!(weir.baseline.as_deref(), Some("nginx (tuned)"));
    let expected = (0.75 + 0.5) / 2.0;
    assert!((weir.rps_ratio.unwrap() - expected).abs() < 1e-9);
    let seed = cells.iter().find(|cell| cell.gateway == "nginx").unwrap();
    assert!(seed.rps_ratio.unwrap() < 1.0);
    let text = headline_markdown(&cells);
    assert_eq!(text.matches("| proxy-overhead |").count(), 1, "{text}");
    assert!(
        text.contains("| proxy-overhead | g | small | wrk -t2 -c100 | nginx (tuned) | 250 |"),
        "{text}"
    );
    let summary = summary_markdown(&[crate::scenarios::find("proxy-overhead").unwrap()], &cells);
    assert!(
        summary.contains("`x nginx` is to **nginx (tuned)**"),
        "{summary}"
    );
}

#[test]
fn a_void_tuned_row_leaves_the_seed_row_as_the_baseline() {
    let records = vec![
        record("nginx", 0, 100.0, Verdict::Valid),
        record(
            "nginx (tuned)",
            0,
            900.0,
            Verdict::Void(vec!["502".to_string()]),
        ),
        record("weir", 0, 150.0, Verdict::Valid),
    ];
    let cells = summarize(&records);
    let weir = cells.iter().find(|cell| cell.gateway == "weir").unwrap();
    assert_eq!(weir.baseline.as_deref(), Some("nginx"));
    assert_eq!(weir.rps_ratio, Some(1.5));
}
