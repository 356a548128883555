//! The metrics tables and their rendering, without a gateway.

use super::*;

fn line_value(text: &str, series: &str) -> Option<String> {
    text.lines()
        .find_map(|line| line.strip_prefix(series)?.strip_prefix(' '))
        .map(str::to_string)
}

#[test]
fn every_status_has_a_slot_and_known_codes_their_own() {
    for code in 100..1000u16 {
        let slot = usize::from(STATUS_SLOT[usize::from(code)]);
        assert!(slot < STATUS_SLOTS, "{code} -> {slot}");
        let label = slot_label(slot);
        if KNOWN_STATUSES.contains(&code) {
            assert_eq!(label, code.to_string());
        } else {
            assert_eq!(label, format!("{}xx", code / 100));
        }
    }
}

#[test]
fn requests_count_by_route_and_status() {
    let metrics = Metrics::new(vec!["/api/".into(), "example.com/".into()]);
    let ms = Duration::from_millis;
    metrics.record_request(Some(0), StatusCode::OK, ms(3), Some(ms(2)));
    metrics.record_request(Some(0), StatusCode::OK, ms(3), Some(ms(2)));
    metrics.record_request(Some(1), StatusCode::BAD_GATEWAY, ms(1), None);
    metrics.record_request(None, StatusCode::NOT_FOUND, ms(0), None);
    // An unregistered code counts under its class; an index past the routes under no route.
    metrics.record_request(Some(0), StatusCode::from_u16(599).unwrap(), ms(1), None);
    metrics.record_request(Some(7), StatusCode::OK, ms(1), None);
    let text = metrics.render_with(&[], &[]);
    let value = |series: &str| line_value(&text, series);
    assert_eq!(
        value(r#"weir_requests_total{route="/api/",status="200"}"#).as_deref(),
        Some("2")
    );
    assert_eq!(
        value(r#"weir_requests_total{route="example.com/",status="502"}"#).as_deref(),
        Some("1")
    );
    assert_eq!(
        value(r#"weir_requests_total{route="",status="404"}"#).as_deref(),
        Some("1")
    );
    assert_eq!(
        value(r#"weir_requests_total{route="",status="200"}"#).as_deref(),
        Some("1")
    );
    assert_eq!(
        value(r#"weir_requests_total{route="/api/",status="5xx"}"#).as_deref(),
        Some("1")
    );
    assert_eq!(
        value(r#"weir_requests_total{route="/api/",status="404"}"#),
        None
    );
}

#[test]
fn histograms_are_cumulative_with_sum_and_count() {
    let metrics = Metrics::new(vec!["/".into()]);
    for micros in [100, 500, 501, 2_000_000, 90_000_000] {
        metrics.record_request(
            Some(0),
            StatusCode::OK,
            Duration::from_micros(micros),
            Some(Duration::from_micros(micros)),
        );
    }
    let text = metrics.render_with(&[], &[]);
    let bucket = |le: &str| {
        line_value(
            &text,
            &format!(r#"weir_request_duration_seconds_bucket{{route="/",le="{le}"}}"#),
        )
    };
    // A bucket counts observations less than or equal to its bound.
    assert_eq!(bucket("0.0005").as_deref(), Some("2"));
    assert_eq!(bucket("0.001").as_deref(), Some("3"));
    assert_eq!(bucket("1").as_deref(), Some("3"));
    assert_eq!(bucket("2.5").as_deref(), Some("4"));
    assert_eq!(bucket("60").as_deref(), Some("4"));
    assert_eq!(bucket("+Inf").as_deref(), Some("5"));
    assert_eq!(
        line_value(&text, r#"weir_request_duration_seconds_count{route="/"}"#).as_deref(),
        Some("5")
    );
    assert_eq!(
        line_value(&text, r#"weir_request_duration_seconds_sum{route="/"}"#).as_deref(),
        Some("92.001101")
    );
    assert_eq!(
        line_value(&text, r#"weir_upstream_duration_seconds_count{route="/"}"#).as_deref(),
        Some("5")
    );
}

#[test]
fn upstream_failures_count_by_upstream_and_cause() {
    let metrics = Metrics::default();
    metrics.record_upstream_failure("app", "connect");
    metrics.record_upstream_failure("app", "connect");
    metrics.record_upstream_failure("app", "read_timeout");
    metrics.record_upstream_failure("other", "connect");
    let text = metrics.render_with(&[], &[]);
    let value = |series: &str| line_value(&text, series);
    assert_eq!(
        value(r#"weir_upstream_failures_total{upstream="app",cause="connect"}"#).as_deref(),
        Some("2")
    );
    assert_eq!(
        value(r#"weir_upstream_failures_total{upstream="app",cause="read_timeout"}"#).as_deref(),
        Some("1")
    );
    assert_eq!(
        value(r#"weir_upstream_failures_total{upstream="other",cause="connect"}"#).as_deref(),
        Some("1")
    );
}

#[test]
fn failures_past_the_table_count_under_an_empty_upstream() {
    let metrics = Metrics::default();
    let names: Vec<String> = (0..FAILURE_SLOTS + 3).map(|i| format!("u{i}")).collect();
    for name in &names {
        metrics.record_upstream_failure(name, "connect");
    }
    let text = metrics.render_with(&[], &[]);
    assert_eq!(
        line_value(
            &text,
            r#"weir_upstream_failures_total{upstream="",cause=""}"#
        )
        .as_deref(),
        Some("3")
    );
}

#[test]
fn failures_recorded_from_many_threads_are_all_counted() {
    let metrics = std::sync::Arc::new(Metrics::default());
    let threads: Vec<_> = (0..4)
        .map(|thread| {
            let metrics = std::sync::Arc::clone(&metrics);
            std::thread::spawn(move || {
                for round in 0..1000 {
                    let cause = if (thread + round) % 2 == 0 {
                        "connect"
                    } else {
                        "upstream"
                    };
                    metrics.record_upstream_failure("app", cause);
                }
            })
        })
        .collect();
    for thread in threads {
        thread.join().unwrap();
    }
    let text = metrics.render_with(&[], &[]);
    let value = |series: &str| line_value(&text, series);
    assert_eq!(
        value(r#"weir_upstream_failures_total{upstream="app",cause="connect"}"#).as_deref(),
        Some("2000")
    );
    assert_eq!(
        value(r#"weir_upstream_failures_total{upstream="app",cause="upstream"}"#).as_deref(),
        Some("2000")
    );
    // Each (upstream, cause) holds exactly one slot.
    assert_eq!(text.matches("weir_upstream_failures_total{").count(), 2);
}

#[test]
fn pools_and_limits_are_rendered_per_server_and_limit() {
    let metrics = Metrics::default();
    let pools = vec![(
        "app".to_string(),
        "unix:/run/app.sock".parse::<UpstreamAddr>().unwrap(),
        PoolStats {
            open: 3,
            idle: 1,
            in_use: 2,
            waiting: 4,
            queue_timeouts: 5,
            connects: 6,
            reuses: 7,
            ..PoolStats::default()
        },
    )];
    let limits = vec![(
        "per_ip".to_string(),
        LimitStats {
            passed: 10,
            delayed: 2,
            rejected: 30,
            dry_run: 0,
            redis_calls: 0,
            redis_errors: 0,
            keys: 9,
        },
    )];
    let text = metrics.render_with(&pools, &limits);
    let value = |series: &str| line_value(&text, series);
    let labels = r#"{upstream="app",server="unix:/run/app.sock"}"#;
    for (name, expected) in [
        ("weir_pool_open_connections", "3"),
        ("weir_pool_idle_connections", "1"),
        ("weir_pool_in_use_connections", "2"),
        ("weir_pool_waiting_requests", "4"),
        ("weir_pool_queue_timeouts_total", "5"),
        ("weir_pool_connects_total", "6"),
        ("weir_pool_reuses_total", "7"),
    ] {
        assert_eq!(
            value(&format!("{name}{labels}")).as_deref(),
            Some(expected),
            "{name}"
        );
    }
    for (decision, expected) in [
        ("passed", "10"),
        ("delayed", "2"),
        ("rejected", "30"),
        ("dry_run", "0"),
    ] {
        assert_eq!(
            value(&format!(
                r#"weir_ratelimit_decisions_total{{limit="per_ip",decision="{decision}"}}"#
            ))
            .as_deref(),
            Some(expected)
        );
    }
    assert_eq!(
        value(r#"weir_ratelimit_keys{limit="per_ip"}"#).as_deref(),
        Some("9")
    );
}

#[test]
fn label_values_are_escaped() {
    let metrics = Metrics::new(vec!["a\"b\\c\nd".into()]);
    metrics.record_request(Some(0), StatusCode::OK, Duration::ZERO, None);
    let text = metrics.render_with(&[], &[]);
    assert!(
        text.contains(r#"weir_requests_total{route="a\"b\\c\nd",status="200"} 1"#),
        "{text}"
    );
}

#[test]
fn every_family_has_help_and_type_before_its_samples() {
    let metrics = Metrics::new(vec!["/".into()]);
    metrics.record_request(Some(0), StatusCode::OK, Duration::from_millis(1), None);
    metrics.record_upstream_failure("app", "connect");
    let text = metrics.render_with(&[], &[("l".into(), LimitStats::default())]);
    let mut typed: Vec<(String, String)> = Vec::new();
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("# TYPE ") {
            let (name, kind) = rest.split_once(' ').unwrap();
            assert!(
                typed.iter().all(|(seen, _)| seen != name),
                "{name} declared twice"
            );
            typed.push((name.to_string(), kind.to_string()));
        } else if !line.starts_with('#') {
            let series = line.split(['{', ' ']).next().unwrap();
            let (family, kind) = typed.last().expect("a sample before any TYPE");
            let allowed = match kind.as_str() {
                "histogram" => [
                    format!("{family}_bucket"),
                    format!("{family}_sum"),
                    format!("{family}_count"),
                ]
                .contains(&series.to_string()),
                _ => series == family,
            };
            assert!(allowed, "{series} under {family}");
        }
    }
}

#[test]
fn the_overload_figures_are_rendered_per_server() {
    let metrics = Metrics::default();
    let mut stats = PoolStats {
        limit: 4,
        ..PoolStats::default()
    };
    stats.admission.service_us = 50_000;
    stats.admission.refused_predicted = 3;
    stats.admission.refused_standing = 2;
    stats.admission.dropped_standing = 5;
    stats.admission.wait_buckets[0] = 1;
    stats.admission.wait_buckets[4] = 2;
    stats.admission.wait_count = 3;
    stats.admission.wait_sum_us = 61_000;
    stats.admission.predicted_sum_us = 75_000;
    let pools = vec![(
        "app".to_string(),
        "unix:/run/app.sock".parse::<UpstreamAddr>().unwrap(),
        stats,
    )];
    let text = metrics.render_with(&pools, &[]);
    let value = |series: &str| line_value(&text, series);
    let labels = r#"upstream="app",server="unix:/run/app.sock""#;
    for (series, expected) in [
        (format!("weir_pool_limit{{{labels}}}"), "4"),
        (format!("weir_pool_service_seconds{{{labels}}}"), "0.05"),
        (
            format!(r#"weir_pool_refusals_total{{{labels},reason="predicted_wait"}}"#),
            "3",
        ),
        (
            format!(r#"weir_pool_refusals_total{{{labels},reason="standing_queue"}}"#),
            "2",
        ),
        (
            format!(r#"weir_pool_refusals_total{{{labels},reason="standing_drop"}}"#),
            "5",
        ),
        (
            format!(r#"weir_pool_queue_wait_seconds_bucket{{{labels},le="0.001"}}"#),
            "1",
        ),
        (
            format!(r#"weir_pool_queue_wait_seconds_bucket{{{labels},le="0.05"}}"#),
            "3",
        ),
        (
            format!(r#"weir_pool_queue_wait_seconds_bucket{{{labels},le="+Inf"}}"#),
            "3",
        ),
        (
            format!("weir_pool_queue_wait_seconds_count{{{labels}}}"),
            "3",
        ),
        (
            format!("weir_pool_queue_wait_seconds_sum{{{labels}}}"),
            "0.061",
        ),
        (
            format!("weir_pool_predicted_wait_seconds_total{{{labels}}}"),
            "0.075",
        ),
    ] {
        assert_eq!(value(&series).as_deref(), Some(expected), "{series}");
    }
}

#[test]
fn requests_recorded_from_many_threads_sum_exactly() {
    let metrics = Arc::new(Metrics::new(vec!["/".into()]));
    let threads = 8;
    let per_thread = 10_000u64;
    let handles: Vec<_> = (0..threads)
        .map(|_| {
            let metrics = Arc::clone(&metrics);
            std::thread::spawn(move || {
                for request in 0..per_thread {
                    let status = if request % 2 == 0 {
                        StatusCode::OK
                    } else {
                        StatusCode::TOO_MANY_REQUESTS
                    };
                    metrics.record_request(Some(0), status, Duration::from_micros(100), None);
                }
            })
        })
        .collect();
    for handle in handles {
        handle.join().unwrap();
    }
    // The threads have ended: their counts stay.
    let text = metrics.render_with(&[], &[]);
    let half = (threads * per_thread / 2).to_string();
    for status in ["200", "429"] {
        assert_eq!(
            line_value(
                &text,
                &format!(r#"weir_requests_total{{route="/",status="{status}"}}"#)
            )
            .as_deref(),
            Some(half.as_str()),
            "{status}"
        );
    }
    assert_eq!(
        line_value(&text, r#"weir_request_duration_seconds_count{route="/"}"#),
        Some((threads * per_thread).to_string())
    );
    // One block per thread that recorded, none shared.
    assert_eq!(metrics.blocks().len(), threads as usize);
}

#[test]
fn a_thread_keeps_one_block_per_metrics() {
    // More instances than a thread caches: each still counts into its own block, once per
    // thread, and nothing of one shows in another.
    let all: Vec<Metrics> = (0..CACHED_BLOCKS + 2)
        .map(|_| Metrics::new(vec!["/".into()]))
        .collect();
    for round in 0..3 {
        for (index, metrics) in all.iter().enumerate() {
            for _ in 0..=index + round {
                metrics.record_request(Some(0), StatusCode::OK, Duration::ZERO, None);
            }
        }
    }
    for (index, metrics) in all.iter().enumerate() {
        assert_eq!(metrics.blocks().len(), 1);
        let text = metrics.render_with(&[], &[]);
        assert_eq!(
            line_value(&text, r#"weir_requests_total{route="/",status="200"}"#),
            Some((3 * (index + 1) + 3).to_string()),
            "instance {index}"
        );
    }
}

#[test]
fn spliced_bytes_from_many_threads_sum_exactly() {
    // The counter is the process's: other tests may splice at the same time, so count from
    // before and only upwards.
    let before = spliced();
    let handles: Vec<_> = (0..4)
        .map(|_| std::thread::spawn(|| (0..1_000).for_each(|_| add_spliced(3))))
        .collect();
    for handle in handles {
        handle.join().unwrap();
    }
    assert!(spliced() - before >= 12_000);
}
