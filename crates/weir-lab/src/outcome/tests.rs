//! The exit status's rule: weir's void cells fail the quick run, a peer's do not; `--strict`
//! fails on any.

use super::*;
use crate::record::{Counters, Expect, Verdict};

fn record(gateway: &str, verdict: Verdict) -> Record {
    Record {
        scenario: "proxy-overhead",
        group: "wrk -t2 -c100".to_string(),
        round: 0,
        variant: "small".to_string(),
        gateway: gateway.to_string(),
        path: "/".to_string(),
        tool: "wrk -t2 -c100".to_string(),
        expect: Expect::Success,
        verdict,
        output: None,
        gateway_cpu_seconds: None,
        gateway_peak_rss_kib: None,
        app_cpu_seconds: 0.0,
        idle: None,
        slowloris: None,
        soak: None,
        reloads: None,
        counters: Counters::default(),
        evidence: String::new(),
    }
}

fn void(reason: &str) -> Verdict {
    Verdict::Void(vec![reason.to_string()])
}

#[test]
fn a_void_weir_cell_fails_the_quick_run() {
    let records = [
        record("nginx", Verdict::Valid),
        record("weir", void("12 non-2xx responses")),
    ];
    let message = failure(&records, true, false).expect("the quick run fails");
    assert!(
        message.starts_with("1 of weir's measurements are void"),
        "{message}"
    );
    assert!(
        message.contains(
            "proxy-overhead / wrk -t2 -c100 / weir [small] round 1: VOID: 12 non-2xx responses"
        ),
        "{message}"
    );
    // Every weir row counts, the Redis-backed limiter's too.
    let redis = [record("weir (redis)", void("no request completed"))];
    assert!(failure(&redis, true, false).is_some());
}

#[test]
fn a_void_peer_cell_is_a_finding_and_does_not_fail_the_run() {
    let records = [
        record("nginx", void("socket errors: read 83")),
        record("nginx (tuned)", void("3 non-2xx responses")),
        record("haproxy", void("no request completed")),
        record("python", void("socket errors: timeout 4")),
        record("weir", Verdict::Valid),
    ];
    assert_eq!(failure(&records, true, false), None);
}

#[test]
fn full_runs_fail_only_when_strict_and_strict_fails_on_any_void() {
    let weir_void = [record("weir", void("x"))];
    assert_eq!(failure(&weir_void, false, false), None);
    let peer_void = [record("nginx", void("x")), record("weir", Verdict::Valid)];
    assert_eq!(
        failure(&peer_void, false, true).as_deref(),
        Some("1 void measurements (--strict)")
    );
    assert_eq!(failure(&[record("weir", Verdict::Valid)], true, true), None);
}
