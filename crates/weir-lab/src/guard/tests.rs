//! The guard's rules, one per test, on hand-built outputs.

use super::*;
use crate::load::{LoadOutput, SocketErrors};

fn clean(requests: u64) -> LoadOutput {
    LoadOutput {
        requests,
        seconds: 1.0,
        requests_per_second: requests as f64,
        ..LoadOutput::default()
    }
}

#[test]
fn clean_run_is_valid() {
    assert_eq!(judge(&clean(1000), Expect::Success), Verdict::Valid);
}

#[test]
fn any_non_2xx_voids_a_run_that_expects_success() {
    let mut output = clean(1000);
    output.non_2xx = 1;
    let verdict = judge(&output, Expect::Success);
    assert_eq!(
        verdict,
        Verdict::Void(vec!["1 non-2xx responses".to_string()])
    );
    assert!(verdict.to_string().starts_with("VOID: "));
}

#[test]
fn each_kind_of_socket_error_voids() {
    for errors in [
        SocketErrors {
            connect: 1,
            ..SocketErrors::default()
        },
        SocketErrors {
            read: 1,
            ..SocketErrors::default()
        },
        SocketErrors {
            write: 1,
            ..SocketErrors::default()
        },
        SocketErrors {
            timeout: 1,
            ..SocketErrors::default()
        },
        SocketErrors {
            failed: 1,
            ..SocketErrors::default()
        },
    ] {
        let mut output = clean(1000);
        output.errors = errors;
        assert!(!judge(&output, Expect::Success).is_valid(), "{errors:?}");
        assert!(
            !judge(&output, Expect::SuccessOr429).is_valid(),
            "{errors:?}"
        );
    }
}

#[test]
fn a_run_with_no_request_is_void() {
    assert!(!judge(&clean(0), Expect::Success).is_valid());
}

#[test]
fn expected_429s_are_counted_apart_and_do_not_void() {
    let mut output = clean(1000);
    output.non_2xx = 990;
    output.statuses.insert(200, 10);
    output.statuses.insert(429, 990);
    assert_eq!(judge(&output, Expect::SuccessOr429), Verdict::Valid);
    assert_eq!(rejected(&output), 990);
    // The same run where 429s were not expected is void.
    assert!(!judge(&output, Expect::Success).is_valid());
}

#[test]
fn a_502_among_expected_429s_voids() {
    let mut output = clean(1000);
    output.statuses.insert(429, 998);
    output.statuses.insert(502, 2);
    assert_eq!(
        judge(&output, Expect::SuccessOr429),
        Verdict::Void(vec!["2 responses with status 502".to_string()])
    );
}

#[test]
fn expecting_429s_without_status_counts_is_void() {
    assert!(!judge(&clean(1000), Expect::SuccessOr429).is_valid());
}

#[test]
fn void_with_adds_a_reason() {
    let verdict = Verdict::Valid.void_with("gateway exited".to_string());
    assert_eq!(verdict, Verdict::Void(vec!["gateway exited".to_string()]));
    let verdict = verdict.void_with("second".to_string());
    assert_eq!(verdict.to_string(), "VOID: gateway exited; second");
}

#[test]
fn a_negative_or_implausible_idle_figure_voids_and_a_small_one_does_not() {
    use crate::record::IdleResult;
    let idle = |before, after| IdleResult {
        connections: 10_000,
        rss_before_kib: before,
        rss_after_kib: after,
    };
    // The committed run of 2026-11-30 showed weir at -229 B per connection.
    let verdict = judge_idle(&idle(30_000, 27_764));
    assert!(!verdict.is_valid(), "{verdict}");
    assert!(verdict.to_string().contains("fell"), "{verdict}");
    let verdict = judge_idle(&idle(30_000, 30_000 + 20 * 1024 * 1024));
    assert!(verdict.to_string().contains("implausible"), "{verdict}");
    assert!(!judge_idle(&idle(0, 5_000)).is_valid());
    // nginx's ~600 B and hyper's ~7 KB are plausible.
    assert!(judge_idle(&idle(10_000, 15_860)).is_valid());
    assert!(judge_idle(&idle(10_000, 77_000)).is_valid());
}

#[test]
fn more_passes_than_the_limit_admits_voids() {
    let limit = crate::spec::Limit {
        rate_per_second: 1,
        burst: 0,
    };
    let mut output = clean(100_000);
    output.seconds = 10.0;
    output.statuses.insert(429, 99_990);
    output.statuses.insert(200, 10);
    assert!(judge_limited(&output, limit).is_valid());
    output.statuses.insert(200, 5_000);
    let verdict = judge_limited(&output, limit);
    assert!(verdict.to_string().contains("did not hold"), "{verdict}");
}
