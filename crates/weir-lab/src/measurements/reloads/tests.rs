//! A run's reloads void it when any failed or too few ran, and reloads.md lists every run with
//! its errors, void or not.

use std::time::Duration;

use super::*;
use crate::load::{LoadOutput, SocketErrors};
use crate::record::{Counters, Expect, Verdict};

#[test]
fn failed_or_missing_reloads_void_the_run() {
    let clean = ReloadOutcome {
        done: 30,
        planned: 30,
        slowest: Duration::from_millis(20),
        failures: Vec::new(),
    };
    assert!(clean.void_reasons().is_empty());
    let short = ReloadOutcome {
        done: 28,
        ..clean.clone()
    };
    assert_eq!(
        short.void_reasons(),
        ["only 28 of 30 reloads ran during the load"]
    );
    let failed = ReloadOutcome {
        done: 25,
        failures: (1..=5).map(|index| format!("reload {index}: x")).collect(),
        ..clean
    };
    assert_eq!(
        failed.void_reasons(),
        [
            "reload 1: x",
            "reload 2: x",
            "reload 3: x",
            "2 more failed reloads"
        ]
    );
}

#[test]
fn reloads_table_lists_every_run_with_its_errors_void_or_not() {
    let record =
        |gateway: &str, read: u64, verdict: Verdict, reloads: Option<ReloadOutcome>| Record {
            scenario: "reload",
            group: "30 reloads in 30 s".to_string(),
            round: 0,
            variant: "reload 1/s".to_string(),
            gateway: gateway.to_string(),
            path: "/".to_string(),
            tool: "wrk -t2 -c100".to_string(),
            expect: Expect::Success,
            verdict,
            output: Some(LoadOutput {
                requests: 1000,
                errors: SocketErrors {
                    read,
                    ..SocketErrors::default()
                },
                ..LoadOutput::default()
            }),
            gateway_cpu_seconds: None,
            gateway_peak_rss_kib: None,
            app_cpu_seconds: 0.0,
            idle: None,
            reloads,
            slowloris: None,
            soak: None,
            counters: Counters::default(),
            evidence: String::new(),
        };
    let outcome = ReloadOutcome {
        done: 30,
        planned: 30,
        slowest: Duration::from_millis(12),
        failures: Vec::new(),
    };
    assert_eq!(markdown(&[record("weir", 0, Verdict::Valid, None)]), "");
    let text = markdown(&[
        record(
            "nginx",
            83,
            Verdict::Void(vec!["socket errors: read 83".to_string()]),
            Some(outcome.clone()),
        ),
        record("weir", 0, Verdict::Valid, Some(outcome)),
    ]);
    assert!(
        text.contains("| 30 reloads in 30 s | nginx | 1 | 30 of 30 | 12 | 1000 | 0 | 0 | 83 | 0 | 0 | 0 | VOID: socket errors: read 83 |"),
        "{text}"
    );
    assert!(
        text.contains(
            "| 30 reloads in 30 s | weir | 1 | 30 of 30 | 12 | 1000 | 0 | 0 | 0 | 0 | 0 | 0 | ok |"
        ),
        "{text}"
    );
}
