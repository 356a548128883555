//! The reload scenario's plan and generated configs: both versions of weir's are checked by
//! weir's own parser; nginx's and HAProxy's carry the route and, for HAProxy, the socket transfer.
//! (`nginx -t`, `haproxy -c` and real reloads run in tests/reload.rs, which needs the binaries.)

use std::time::Duration;

use super::*;
use crate::components::{Layout, Venv};
use crate::load::Tool;
use crate::scenario::BASELINE;

fn listen() -> SocketAddr {
    "127.0.0.1:18080".parse().unwrap()
}

fn unix() -> Addr {
    Addr::Unix(PathBuf::from("/tmp/lab/app.sock"))
}

fn env() -> Env {
    Env {
        root: PathBuf::from("/repo"),
        temp: PathBuf::from("/tmp/lab"),
        weir: PathBuf::from("weir"),
        ceiling: PathBuf::from("ceiling"),
        static_file: PathBuf::from("/tmp/lab/static.xml"),
    }
}

fn settings(quick: bool) -> Settings {
    Settings {
        quick,
        rounds: if quick { 1 } else { 3 },
        duration: Duration::from_secs(if quick { 2 } else { 10 }),
        layouts: vec![Layout::DEFAULT],
        venvs: vec![Venv::Plain],
        loader: None,
        idle_connections: 10_000,
        slowloris_connections: 5_000,
        soak_duration: Duration::from_secs(600),
        fast_upstream: crate::scenario::FastUpstream::Ceiling,
    }
}

#[test]
fn full_plan_reloads_once_a_second_for_30_s_under_wrk_c100() {
    let groups = plan(&settings(false));
    assert_eq!(groups.len(), 2);
    let group = &groups[0];
    assert_eq!(group.name, "wrk -t2 -c100, 30 reloads in 30 s");
    // The same gateways again, a new connection per request.
    assert_eq!(groups[1].name, "ab -c100, 30 reloads in 30 s");
    assert_eq!(groups[1].measure, group.measure);
    assert!(groups[1]
        .cells
        .iter()
        .all(|cell| cell.tool == Tool::Ab { concurrency: 100 }));
    let Measure::Reloads(schedule) = group.measure else {
        panic!("{:?}", group.measure);
    };
    assert_eq!(schedule.reloads(), 30);
    assert_eq!(schedule.duration, Duration::from_secs(30));
    // Every reload falls inside the load run, one per second.
    assert_eq!(schedule.due(0), Duration::from_millis(500));
    assert_eq!(schedule.due(29), Duration::from_millis(29_500));
    let labels: Vec<&str> = group
        .cells
        .iter()
        .map(|cell| cell.gateway.label.as_str())
        .collect();
    assert_eq!(labels, [BASELINE, "haproxy", "weir"]);
    for cell in &group.cells {
        assert_eq!(
            cell.tool,
            Tool::Wrk {
                threads: 2,
                connections: 100
            }
        );
        assert_eq!(cell.expect, Expect::Success);
    }
    // nginx tuned as the issue asks: a worker per core, 64 idle upstream connections.
    let Gateway::Nginx(nginx) = group.cells[0].gateway.gateway else {
        panic!("{:?}", group.cells[0].gateway);
    };
    assert!(nginx.workers_auto);
    assert_eq!(nginx.keepalive, Some(64));
}

#[test]
fn quick_plan_is_three_reloads_in_three_seconds() {
    let groups = plan(&settings(true));
    assert_eq!(groups.len(), 1, "wrk only");
    let Measure::Reloads(schedule) = groups[0].measure else {
        panic!("{:?}", groups[0].measure);
    };
    assert_eq!(schedule.reloads(), 3);
    assert_eq!(schedule.duration, Duration::from_secs(3));
    let quick = settings(true);
    assert_eq!(SCENARIO.measurements(&quick), 3);
    // The estimate counts the schedule's 3 s, not --duration's 2 s.
    assert_eq!(SCENARIO.estimate(&quick), Duration::from_secs(3 * 3 + 5));
}

#[test]
fn weir_versions_are_accepted_by_weir_and_differ_in_the_probe_route() {
    let pid_file = Path::new("/tmp/lab/weir.pid");
    let dir = Path::new("/tmp/lab/versions");
    let mut statics = Vec::new();
    for version in [Version::A, Version::B] {
        let text = weir_config(
            &WeirOptions::SEED,
            listen(),
            &unix(),
            pid_file,
            dir,
            version,
        )
        .unwrap();
        let config =
            weir::config::from_toml(&text, None).unwrap_or_else(|error| panic!("{error}\n{text}"));
        assert_eq!(config.server.pid_file.as_deref(), Some(pid_file));
        assert_eq!(config.routes.len(), 2, "{text}");
        let probe = config
            .routes
            .iter()
            .find(|route| route.path == "/lab-reload/")
            .unwrap_or_else(|| panic!("no probe route in\n{text}"));
        statics.push(format!("{probe:?}"));
        assert!(
            text.contains(&format!(
                "static = \"/tmp/lab/versions/{}\"",
                version.letter()
            )),
            "{text}"
        );
    }
    assert_ne!(statics[0], statics[1]);
}

#[test]
fn nginx_versions_answer_their_letter_before_the_proxied_location() {
    let options = NginxOptions {
        workers_auto: true,
        keepalive: Some(64),
        ..NginxOptions::SEED
    };
    let prefix = Path::new("/tmp/lab/nginx");
    for version in [Version::A, Version::B] {
        let text = nginx_config(&env(), &options, prefix, listen(), &unix(), version).unwrap();
        let probe = format!(
            "location = /lab-reload/which {{\n      default_type text/plain;\n      return 200 \"{}\";",
            version.letter()
        );
        let at_probe = text.find(&probe).unwrap_or_else(|| panic!("{text}"));
        let at_proxy = text.find("    location / {").unwrap();
        assert!(at_probe < at_proxy, "{text}");
        assert!(text.contains("worker_processes auto;"), "{text}");
        assert!(text.contains("    keepalive 64;"), "{text}");
        assert!(!text.contains(&format!("\"{}\"", version.other().letter())));
    }
}

#[test]
fn haproxy_versions_expose_listeners_and_answer_their_letter() {
    let stats = Path::new("/tmp/lab/stats.sock");
    for version in [Version::A, Version::B] {
        let text =
            haproxy_config(&HaproxyOptions::DEFAULT, listen(), &unix(), stats, version).unwrap();
        assert!(
            text.contains(
                "global\n  stats socket /tmp/lab/stats.sock mode 600 level admin expose-fd listeners\n"
            ),
            "{text}"
        );
        assert!(
            text.contains(&format!(
                "  bind 127.0.0.1:18080\n  http-request return status 200 content-type text/plain string {} if {{ path /lab-reload/which }}\n",
                version.letter()
            )),
            "{text}"
        );
    }
}

#[test]
fn probe_answers_parse_into_status_and_body() {
    assert_eq!(
        parse_response(b"HTTP/1.1 200 OK\r\nContent-Length: 1\r\nConnection: close\r\n\r\nb"),
        (200, "b".to_string())
    );
    assert_eq!(
        parse_response(b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n"),
        (404, String::new())
    );
    assert_eq!(parse_response(b"HTTP/1.1 200 OK\r\n"), (0, String::new()));
}

#[test]
fn failed_or_missing_reloads_void_the_run() {
    let clean = Outcome {
        done: 30,
        planned: 30,
        slowest: Duration::from_millis(20),
        failures: Vec::new(),
    };
    assert!(clean.void_reasons().is_empty());
    let short = Outcome {
        done: 28,
        ..clean.clone()
    };
    assert_eq!(
        short.void_reasons(),
        ["only 28 of 30 reloads ran during the load"]
    );
    let failed = Outcome {
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
    use crate::guard::Verdict;
    use crate::load::{LoadOutput, SocketErrors};
    let record = |gateway: &str, read: u64, verdict: Verdict, reloads: Option<Outcome>| Record {
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
        counters: crate::runner::Counters::default(),
        evidence: String::new(),
    };
    let outcome = Outcome {
        done: 30,
        planned: 30,
        slowest: Duration::from_millis(12),
        failures: Vec::new(),
    };
    assert_eq!(
        reloads_markdown(&[record("weir", 0, Verdict::Valid, None)]),
        ""
    );
    let text = reloads_markdown(&[
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
