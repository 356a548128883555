//! The slowloris and soak scenarios' parsing, verdicts and report, on hand-built results, and
//! the attack against a real listener.

use std::net::TcpListener;

use super::*;
use crate::load::LoadOutput;
use crate::record::{Expect, SlowlorisResult, Verdict};

fn record(gateway: &str, verdict: Verdict) -> Record {
    Record {
        scenario: "slowloris",
        group: "g".to_string(),
        round: 0,
        variant: "slowloris".to_string(),
        gateway: gateway.to_string(),
        path: "/".to_string(),
        tool: "wrk -t1 -c10".to_string(),
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
        counters: crate::record::Counters::default(),
        evidence: String::new(),
    }
}

fn attacked(gateway: &str, baseline: f64, under_attack: f64) -> Record {
    let mut record = record(gateway, Verdict::Valid);
    record.output = Some(LoadOutput {
        requests_per_second: under_attack,
        ..LoadOutput::default()
    });
    record.slowloris = Some(SlowlorisResult {
        baseline_rps: baseline,
        attackers_open: 5000,
        attackers_closed: 120,
    });
    record
}

/// A soak of 100 s sampled every second: RSS `rss(second)`, 40 descriptors throughout.
fn soak(rss: impl Fn(u64) -> u64) -> SoakResult {
    SoakResult {
        seconds: 100.0,
        samples: (0..100)
            .map(|second| SoakSample {
                seconds: second as f64,
                rss_kib: rss(second),
                open_fds: 40,
            })
            .collect(),
        answers: vec![
            ("small".to_string(), 200, 10),
            ("limited".to_string(), 429, 3),
        ],
        unexpected: Vec::new(),
        pool_in_use: Some(0),
        pool_waiting: Some(0),
    }
}

#[test]
fn metric_sum_adds_every_labelled_series_and_skips_comments() {
    let text = "# HELP weir_pool_in_use_connections Connections in use\n\
                # TYPE weir_pool_in_use_connections gauge\n\
                weir_pool_in_use_connections{upstream=\"app\",server=\"unix:/a\"} 2\n\
                weir_pool_in_use_connections{upstream=\"b\",server=\"127.0.0.1:1\"} 1\n\
                weir_pool_in_use_connections_total 99\n\
                weir_pool_waiting_requests 0\n";
    assert_eq!(metric_sum(text, "weir_pool_in_use_connections"), Some(3));
    assert_eq!(metric_sum(text, "weir_pool_waiting_requests"), Some(0));
    assert_eq!(metric_sum(text, "weir_missing"), None);
}

#[test]
fn flat_soak_passes_and_growing_one_fails() {
    let flat = soak(|second| 50_000 + second % 3);
    assert!(flat.rss_drift().unwrap().abs() < 0.001);
    assert_eq!(flat.fd_drift(), Some(0.0));
    assert!(flat.passes());
    // Warm-up in the first window is not held against it.
    let warm = soak(|second| if second < 10 { 10_000 } else { 50_000 });
    assert!(warm.passes());
    // 1% more per window: the last is ~8% above the second, still flat; 3% per window is not.
    let slow = soak(|second| 50_000 + 500 * (second / 10));
    assert!(slow.passes(), "{:?}", slow.rss_drift());
    let leak = soak(|second| 50_000 + 1_500 * (second / 10));
    assert!(!leak.passes(), "{:?}", leak.rss_drift());
    let busy = SoakResult {
        pool_in_use: Some(1),
        ..soak(|_| 50_000)
    };
    assert!(!busy.passes());
    let unread = SoakResult {
        pool_waiting: None,
        ..soak(|_| 50_000)
    };
    assert!(!unread.passes());
}

#[test]
fn slowloris_report_marks_pass_fail_and_void() {
    let records = vec![
        attacked("nginx", 1000.0, 950.0),
        attacked("weir", 1000.0, 800.0),
        {
            let mut void = attacked("weir", 1000.0, 990.0);
            void.verdict = Verdict::Void(vec!["socket errors: read 3".to_string()]);
            void
        },
    ];
    let text = markdown(&records);
    assert!(text.contains("## slowloris, each round"), "{text}");
    assert!(
        text.contains("| g | nginx | 1 | 1000 | 950 | 95% | 5000 | 120 | PASS |"),
        "{text}"
    );
    assert!(
        text.contains("| g | weir | 1 | 1000 | 800 | 80% | 5000 | 120 | FAIL |"),
        "{text}"
    );
    assert!(text.contains("VOID: socket errors: read 3"), "{text}");
}

#[test]
fn soak_report_has_windows_answers_and_verdict() {
    let mut valid = record("weir", Verdict::Valid);
    valid.soak = Some(soak(|_| 51_200));
    let text = markdown(&[valid]);
    assert!(text.contains("## soak: weir"), "{text}");
    assert!(text.contains("Verdict: PASS."), "{text}");
    assert!(text.contains("| 10 | 50.0 | 40 |"), "{text}");
    assert!(text.contains("| limited | 429 | 3 |"), "{text}");
    let mut void = record("weir", Verdict::Void(vec!["2 unexpected".to_string()]));
    void.soak = Some(SoakResult {
        unexpected: vec!["upload: status 502".to_string()],
        ..soak(|_| 51_200)
    });
    let text = markdown(&[void]);
    assert!(text.contains("VOID: 2 unexpected"), "{text}");
    assert!(text.contains("- upload: status 502"), "{text}");
    // No slowloris or soak records: nothing to add.
    assert_eq!(markdown(&[record("nginx", Verdict::Valid)]), "");
}

#[test]
fn attackers_drip_heads_and_bodies_and_come_back_when_closed() {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    let attack = Attack::start(addr, 4, Duration::from_millis(20), SlowClients::Http1);
    let mut accepted = Vec::new();
    for _ in 0..4 {
        accepted.push(listener.accept().unwrap().0);
    }
    let deadline = Instant::now() + Duration::from_secs(10);
    while attack.open() < 4 {
        assert!(Instant::now() < deadline, "opened {}", attack.open());
        thread::sleep(Duration::from_millis(10));
    }
    // Bytes arrive one at a time: the first is the start of a head.
    let mut first = [0u8; 1];
    accepted[0].read_exact(&mut first).unwrap();
    assert!(first[0] == b'G' || first[0] == b'P');
    // The server closes one: the attack notices and opens another.
    drop(accepted.remove(0));
    let replacement = listener.accept().unwrap().0;
    while attack.closed() < 1 {
        assert!(Instant::now() < deadline, "the close was not noticed");
        thread::sleep(Duration::from_millis(10));
    }
    attack.stop();
    drop(replacement);
}

/// A TLS server config (ALPN `h2`) on a certificate `openssl req` makes, as the lab's.
fn h2_server_config(dir: &std::path::Path) -> Arc<rustls::ServerConfig> {
    use rustls::pki_types::pem::PemObject;
    use rustls::pki_types::{CertificateDer, PrivateKeyDer};
    let (cert, key) = (dir.join("cert.pem"), dir.join("key.pem"));
    let output = std::process::Command::new("openssl")
        .args(["req", "-x509", "-newkey", "ec", "-pkeyopt"])
        .args(["ec_paramgen_curve:P-256", "-nodes", "-keyout"])
        .arg(&key)
        .arg("-out")
        .arg(&cert)
        .args(["-days", "1", "-subj", "/CN=localhost"])
        .output()
        .expect("openssl runs (the lab needs it for its certificate)");
    assert!(output.status.success(), "{output:?}");
    let certs = CertificateDer::pem_file_iter(&cert)
        .unwrap()
        .collect::<Result<Vec<_>, _>>()
        .unwrap();
    let key = PrivateKeyDer::from_pem_file(&key).unwrap();
    let mut config = rustls::ServerConfig::builder_with_provider(Arc::new(
        rustls::crypto::ring::default_provider(),
    ))
    .with_safe_default_protocol_versions()
    .unwrap()
    .with_no_client_auth()
    .with_single_cert(certs, key)
    .unwrap();
    config.alpn_protocols = vec![b"h2".to_vec()];
    Arc::new(config)
}

/// Accepts one TLS connection and reads `length` bytes of what the client sent first.
fn accept_h2(
    listener: &TcpListener,
    config: &Arc<rustls::ServerConfig>,
    length: usize,
) -> (
    rustls::StreamOwned<rustls::ServerConnection, std::net::TcpStream>,
    Vec<u8>,
) {
    let (tcp, _) = listener.accept().unwrap();
    tcp.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    let connection = rustls::ServerConnection::new(Arc::clone(config)).unwrap();
    let mut tls = rustls::StreamOwned::new(connection, tcp);
    let mut opening = vec![0u8; length];
    tls.read_exact(&mut opening).unwrap();
    assert_eq!(tls.conn.alpn_protocol(), Some(&b"h2"[..]));
    (tls, opening)
}

#[test]
fn http2_attackers_send_the_preface_or_a_zero_window_stream_and_come_back_when_closed() {
    let dir = tempfile::tempdir().unwrap();
    let config = h2_server_config(dir.path());
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    let attack = Attack::start(addr, 2, Duration::from_millis(20), SlowClients::Http2);
    // The first sends the preface and empty SETTINGS; the second SETTINGS_INITIAL_WINDOW_SIZE 0
    // and a HEADERS frame opening stream 1.
    let (preface, opening) = accept_h2(&listener, &config, 24 + 9);
    assert_eq!(&opening[..24], H2_PREFACE);
    assert_eq!(&opening[24..], &h2_frame(0x4, 0, 0, &[])[..]);
    let (_zero_window, opening) = accept_h2(&listener, &config, 24 + 15 + 9);
    assert_eq!(
        &opening[24..39],
        &h2_frame(0x4, 0, 0, &[0, 0x4, 0, 0, 0, 0])[..]
    );
    assert_eq!(&opening[39..44], &[0, 0, 8, 0x1, 0x5]);
    assert_eq!(&opening[44..48], &1u32.to_be_bytes());
    let deadline = Instant::now() + Duration::from_secs(10);
    while attack.open() < 2 {
        assert!(Instant::now() < deadline, "opened {}", attack.open());
        thread::sleep(Duration::from_millis(10));
    }
    // The server closes the first: the attack notices and opens another of the same kind.
    drop(preface);
    let (_replacement, opening) = accept_h2(&listener, &config, 24 + 9);
    assert_eq!(&opening[..24], H2_PREFACE);
    while attack.closed() < 1 {
        assert!(Instant::now() < deadline, "the close was not noticed");
        thread::sleep(Duration::from_millis(10));
    }
    attack.stop();
}
