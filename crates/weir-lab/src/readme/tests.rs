//! raw.csv read back into records, the guard applied again, and the newest run of each group
//! shown with its name.

use super::*;
use crate::load::{Latency, LoadOutput};
use crate::report::raw_csv;

fn record(gateway: &str, rps: f64) -> Record {
    Record {
        scenario: "proxy-overhead",
        group: "wrk -t2 -c100".to_string(),
        round: 0,
        variant: "small".to_string(),
        gateway: gateway.to_string(),
        path: "/".to_string(),
        tool: "wrk -t2 -c100".to_string(),
        expect: Expect::Success,
        verdict: Verdict::Valid,
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
        counters: Counters {
            gateway_cpu_user_seconds: Some(0.25),
            gateway_cpu_sys_seconds: Some(0.75),
            ..Counters::default()
        },
        evidence: String::new(),
    }
}

fn idle_record(gateway: &str, before: u64, after: u64) -> Record {
    Record {
        scenario: "idle-connections",
        group: "10000 idle connections".to_string(),
        tool: "10000 idle connections".to_string(),
        variant: "idle".to_string(),
        output: None,
        gateway_cpu_seconds: None,
        counters: Counters::default(),
        idle: Some(IdleResult {
            connections: 10_000,
            rss_before_kib: before,
            rss_after_kib: after,
        }),
        ..record(gateway, 0.0)
    }
}

#[test]
fn raw_csv_reads_back_into_the_same_summary() {
    let mut void = record("weir", 10.0);
    void.group = "a, \"quoted\" group".to_string();
    void.verdict = Verdict::Void(vec!["3 non-2xx responses".to_string(), "x".to_string()]);
    let records = vec![record("nginx", 100.0), record("weir", 150.0), void];
    let read = parse_raw_csv(&raw_csv(&records)).unwrap();
    assert_eq!(read.len(), 3);
    assert_eq!(read[2].group, "a, \"quoted\" group");
    assert_eq!(read[2].verdict, records[2].verdict);
    assert_eq!(
        crate::summary::summarize(&read),
        crate::summary::summarize(&records)
    );
}

#[test]
fn a_run_written_before_a_column_existed_still_reads() {
    let text = "scenario,group,round,variant,gateway,path,tool,verdict,requests,seconds,requests_per_second\n\
                proxy-overhead,g,2,small,nginx,/,wrk -t2 -c100,ok,1000,10.000,100.00\n";
    let read = parse_raw_csv(text).unwrap();
    assert_eq!(read[0].round, 1);
    assert_eq!(read[0].requests(), 1000);
    assert_eq!(read[0].counters, Counters::default());
}

#[test]
fn an_idle_figure_the_guard_now_voids_is_void_when_read_back() {
    // The committed run of 2026-11-30 printed weir at -229 B per idle connection as a figure.
    let records = vec![
        idle_record("nginx", 10_000, 15_010),
        idle_record("weir", 30_000, 27_764),
    ];
    let read = parse_raw_csv(&raw_csv(&records)).unwrap();
    assert!(read[0].verdict.is_valid());
    assert!(!read[1].verdict.is_valid(), "{}", read[1].verdict);
    let cells = crate::summary::summarize(&read);
    assert!(cells[1].is_void());
    assert_eq!(cells[1].idle_bytes_per_connection, None);
}

#[test]
fn the_section_shows_each_group_from_its_newest_run_and_names_it() {
    let old = Run {
        dir: "lab/runs/2026-11-30-vm".to_string(),
        committed: 1,
        records: vec![
            record("nginx", 100.0),
            record("weir", 50.0),
            idle_record("nginx", 10_000, 15_010),
            idle_record("weir", 30_000, 27_764),
        ],
        charts: Vec::new(),
    };
    let new = Run {
        dir: "lab/runs/2026-12-02-vm".to_string(),
        committed: 2,
        records: vec![
            record("nginx", 100.0),
            record("nginx (tuned)", 200.0),
            record("weir", 300.0),
        ],
        charts: Vec::new(),
    };
    let text = full_section(&[old, new], "HEAD", "abc1234", "../");
    assert!(text.contains("at HEAD (last changed in abc1234)"), "{text}");
    assert!(
        text.contains("| [2026-12-02-vm](../lab/runs/2026-12-02-vm) | proxy-overhead | wrk -t2 -c100 | small | wrk -t2 -c100 | nginx (tuned) | 200 |"),
        "{text}"
    );
    assert!(text.contains("| 1.50x |"), "{text}");
    // The older run's proxy-overhead group is superseded; its idle group is not.
    assert!(!text.contains("| 50 |"), "{text}");
    assert!(
        text.contains("| [2026-11-30-vm](../lab/runs/2026-11-30-vm) | idle-connections |"),
        "{text}"
    );
    assert!(text.contains("| VOID |"), "{text}");
    assert!(text.contains("- **proxy-overhead**: Our own."), "{text}");
    // Every table row names its run.
    for line in text.lines().filter(|line| line.starts_with("| ")) {
        assert!(
            line.starts_with("| run ") || line.starts_with("| [20"),
            "{line}"
        );
    }
}

fn cell(scenario: &'static str, group: &str, variant: &str, gateway: &str, rps: f64) -> Record {
    Record {
        scenario,
        group: group.to_string(),
        tool: group.to_string(),
        variant: variant.to_string(),
        ..record(gateway, rps)
    }
}

/// The headline's table rows (not its header or rule).
fn headline_table_rows(text: &str) -> Vec<&str> {
    text.lines()
        .filter(|line| line.starts_with("| ") && !line.starts_with("| what |"))
        .collect()
}

#[test]
fn the_headline_has_at_most_eight_rows_each_naming_its_run_and_nginx_row() {
    // An older run measured every headline comparison against the seed's nginx only, and a
    // scenario the headline does not name; a newer run re-measured two of them with the tuned
    // row. Beside each comparison, a second variant the headline does not show.
    let mut old_records = Vec::new();
    for item in HEADLINE {
        let group = item.group.unwrap_or("5000 idle connections");
        let variant = item.variant.unwrap_or("small");
        for variant in [variant, "other"] {
            if item.scenario == "idle-connections" {
                old_records.push(Record {
                    variant: variant.to_string(),
                    ..idle_record("nginx", 10_000, 13_000)
                });
                old_records.push(Record {
                    variant: variant.to_string(),
                    ..idle_record("weir", 10_000, 13_500)
                });
                continue;
            }
            for (gateway, rps) in [("nginx", 100.0), ("haproxy", 110.0), ("weir", 120.0)] {
                old_records.push(cell(item.scenario, group, variant, gateway, rps));
            }
        }
    }
    for (gateway, rps) in [("nginx", 100.0), ("weir", 90.0)] {
        old_records.push(cell("overload", "2x capacity", "small", gateway, rps));
    }
    let old = Run {
        dir: "lab/runs/2026-11-30-vm".to_string(),
        committed: 1,
        records: old_records,
        charts: vec!["chart-proxy-overhead-wrk-t2-c100.svg".to_string()],
    };
    let new = Run {
        dir: "lab/runs/2026-12-02-vm".to_string(),
        committed: 2,
        records: vec![
            cell("one-connection", "wrk -t1 -c1", "small", "nginx", 100.0),
            cell(
                "one-connection",
                "wrk -t1 -c1",
                "small",
                "nginx (tuned)",
                200.0,
            ),
            cell("one-connection", "wrk -t1 -c1", "small", "haproxy", 160.0),
            cell("one-connection", "wrk -t1 -c1", "small", "weir", 150.0),
            cell("tls", "tls wrk -t2 -c100", "small", "nginx", 300.0),
            cell("tls", "tls wrk -t2 -c100", "small", "nginx (tuned)", 200.0),
            cell("tls", "tls wrk -t2 -c100", "small", "weir", 330.0),
        ],
        charts: Vec::new(),
    };
    let runs = [old, new];
    let text = section(&runs, "HEAD", "abc1234");
    let rows = headline_table_rows(&text);
    assert!(rows.len() <= 8, "{text}");
    assert_eq!(rows.len(), HEADLINE.len(), "{text}");
    for (row, item) in rows.iter().zip(HEADLINE) {
        let columns: Vec<&str> = row.split(" | ").collect();
        assert_eq!(columns[0], format!("| {}", item.what), "{row}");
        // The run, linked, and the nginx row, named.
        assert!(
            columns[1] == "[2026-11-30-vm](lab/runs/2026-11-30-vm)"
                || columns[1] == "[2026-12-02-vm](lab/runs/2026-12-02-vm)",
            "{row}"
        );
        assert!(columns[3].starts_with("nginx"), "{row}");
    }
    // The newest run's comparisons, with the tuned row where it won and the seed's marked.
    assert!(
        rows[1].starts_with("| one connection | [2026-12-02-vm](lab/runs/2026-12-02-vm) | wrk -t1 -c1 | nginx (tuned) | 200 req/s | 160 req/s | 150 req/s | 0.75x | 0.94x | **behind** nginx: 25% fewer req/s; **behind** HAProxy: 6% fewer req/s;"),
        "{}",
        rows[1]
    );
    assert!(
        rows[7].contains("| nginx (seed, better than tuned here) | 300 req/s | not measured | 330 req/s | 1.10x | – | **ahead** of nginx: 10% more req/s"),
        "{}",
        rows[7]
    );
    assert!(
        rows[0].contains("| nginx (seed, untuned) |") && rows[0].contains("re-run owed"),
        "{}",
        rows[0]
    );
    // Memory: more bytes per connection is behind.
    assert!(
        rows[4].contains("**behind** nginx: 17% more memory"),
        "{}",
        rows[4]
    );
    // One chart, from the first comparison whose run has it; the rest is in docs/performance.md.
    assert_eq!(text.matches("![").count(), 1, "{text}");
    assert!(
        text.contains("](lab/runs/2026-11-30-vm/chart-proxy-overhead-wrk-t2-c100.svg)"),
        "{text}"
    );
    assert!(!text.contains("overload"), "{text}");
    assert!(
        text.contains("[docs/performance.md](docs/performance.md)"),
        "{text}"
    );
    // The full table has every scenario, the one the headline does not name too.
    let full = full_section(&runs, "HEAD", "abc1234", "../");
    assert!(
        full.contains("| [2026-11-30-vm](../lab/runs/2026-11-30-vm) | overload | 2x capacity |"),
        "{full}"
    );
    assert!(full.contains("| other |"), "{full}");
}

#[test]
fn markers_are_replaced_and_the_rest_kept() {
    let readme = format!("top\n{README_START}\nold\n{README_END}\nbottom\n");
    let updated = replace_between_markers(&readme, "new\n").unwrap();
    assert_eq!(
        updated,
        format!("top\n{README_START}\nnew\n{README_END}\nbottom\n")
    );
    assert!(replace_between_markers("no markers", "x").is_none());
}

#[test]
fn the_overload_labs_table_is_told_from_a_runs() {
    let overload = "gateway,setting,level,offered_rps,sent,ok,ok_within_2s,goodput\nweir,w4,1x,80,1200,1200,1200,1.0\n";
    assert!(is_overload_table(overload));
    assert!(parse_raw_csv(overload).is_err());
    let run = raw_csv(&[record("weir", 100.0)]);
    assert!(!is_overload_table(&run));
    assert!(parse_raw_csv(&run).is_ok());
}
