//! TLS termination and HTTP/2 to clients (issue 10): certificates made at test time with rcgen,
//! real clients (rustls + hyper, curl, `openssl s_client`, httpx), a hostile HTTP/2 client built
//! on the `h2` crate and on raw frames, reloads of the certificates, and the end-to-end path to
//! FastAPI under Gunicorn (`WEIR_E2E=1`).

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

use bytes::Bytes;
use http_body_util::{BodyExt, Empty, Full};
use hyper_util::rt::{TokioExecutor, TokioIo};
use rustls::pki_types::{CertificateDer, ServerName};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_rustls::client::TlsStream;

use crate::support::*;

/// A test CA in a temp dir, and the certificates it issues (full chain and key as PEM files).
pub(crate) struct Pki {
    dir: tempfile::TempDir,
    issuer: rcgen::Issuer<'static, rcgen::KeyPair>,
    ca_der: CertificateDer<'static>,
    ca_pem: PathBuf,
}

impl Pki {
    pub(crate) fn new() -> Pki {
        let dir = tempfile::tempdir().unwrap();
        let key = rcgen::KeyPair::generate().unwrap();
        let mut params = rcgen::CertificateParams::new(Vec::<String>::new()).unwrap();
        params.is_ca = rcgen::IsCa::Ca(rcgen::BasicConstraints::Unconstrained);
        params
            .distinguished_name
            .push(rcgen::DnType::CommonName, "weir test CA");
        let ca = params.self_signed(&key).unwrap();
        let ca_pem = dir.path().join("ca.pem");
        std::fs::write(&ca_pem, ca.pem()).unwrap();
        Pki {
            ca_der: ca.der().clone(),
            issuer: rcgen::Issuer::new(params, key),
            ca_pem,
            dir,
        }
    }

    /// A certificate for `names` (the first is also its common name and file name), valid
    /// until `not_after` (a year from now when `None`).
    fn issue_until(
        &self,
        names: &[&str],
        not_after: Option<time::OffsetDateTime>,
    ) -> (PathBuf, PathBuf) {
        let key = rcgen::KeyPair::generate().unwrap();
        let mut params = rcgen::CertificateParams::new(
            names
                .iter()
                .map(|name| name.to_string())
                .collect::<Vec<_>>(),
        )
        .unwrap();
        params
            .distinguished_name
            .push(rcgen::DnType::CommonName, names[0]);
        let now = time::OffsetDateTime::now_utc();
        params.not_before = now - time::Duration::days(400);
        params.not_after = not_after.unwrap_or(now + time::Duration::days(365));
        let cert = params.signed_by(&key, &self.issuer).unwrap();
        let stem = names[0].replace('*', "star");
        let cert_path = self.dir.path().join(format!("{stem}.pem"));
        let key_path = self.dir.path().join(format!("{stem}.key"));
        std::fs::write(&cert_path, cert.pem()).unwrap();
        std::fs::write(&key_path, key.serialize_pem()).unwrap();
        (cert_path, key_path)
    }

    pub(crate) fn issue(&self, names: &[&str]) -> (PathBuf, PathBuf) {
        self.issue_until(names, None)
    }

    pub(crate) fn client_config(&self, alpn: &[&[u8]]) -> Arc<rustls::ClientConfig> {
        let mut roots = rustls::RootCertStore::empty();
        roots.add(self.ca_der.clone()).unwrap();
        let mut config = rustls::ClientConfig::builder_with_provider(Arc::new(
            rustls::crypto::ring::default_provider(),
        ))
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_root_certificates(roots)
        .with_no_client_auth();
        config.alpn_protocols = alpn.iter().map(|protocol| protocol.to_vec()).collect();
        Arc::new(config)
    }
}

/// `[[tls.certificates]]` tables for these files.
pub(crate) fn certificate_tables(files: &[(PathBuf, PathBuf)]) -> String {
    files
        .iter()
        .map(|(cert, key)| {
            format!(
                "[[tls.certificates]]\ncert = \"{}\"\nkey = \"{}\"\n",
                cert.display(),
                key.display()
            )
        })
        .collect()
}

/// A gateway with a plain and a TLS listener in front of `upstream`; `tls_extra` goes into `[tls]`.
fn tls_config(upstream: &str, files: &[(PathBuf, PathBuf)], tls_extra: &str) -> String {
    format!(
        r#"
[server]
listen = ["127.0.0.1:0"]
shutdown_grace = "5s"

[upstreams.app]
servers = ["{upstream}"]

[[routes]]
path = "/"
upstream = "app"

[tls]
listen = ["127.0.0.1:0"]
{tls_extra}

{}
"#,
        certificate_tables(files)
    )
}

async fn start_tls(pki: &Pki, tls_extra: &str) -> (UpstreamServer, TestGateway) {
    let upstream = UpstreamServer::start(Transport::Tcp).await;
    let files = [pki.issue(&["app.test", "www.app.test", "127.0.0.1"])];
    let gateway = TestGateway::start(&tls_config(&upstream.address, &files, tls_extra)).await;
    (upstream, gateway)
}

pub(crate) async fn connect_tls(
    addr: SocketAddr,
    config: Arc<rustls::ClientConfig>,
    name: &str,
) -> std::io::Result<TlsStream<TcpStream>> {
    let tcp = TcpStream::connect(addr).await?;
    let name = ServerName::try_from(name.to_string()).unwrap();
    tokio_rustls::TlsConnector::from(config)
        .connect(name, tcp)
        .await
}

/// One HTTP/1.1 GET over a new TLS connection: (status, headers, body).
async fn get_http1(
    addr: SocketAddr,
    pki: &Pki,
    path: &str,
) -> (StatusCode, http::HeaderMap, String) {
    let stream = connect_tls(addr, pki.client_config(&[b"http/1.1"]), "app.test")
        .await
        .unwrap();
    assert_eq!(stream.get_ref().1.alpn_protocol(), Some(&b"http/1.1"[..]));
    let (mut sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
        .await
        .unwrap();
    tokio::spawn(connection);
    let request = Request::get(path)
        .header("host", "app.test")
        .body(Empty::<Bytes>::new())
        .unwrap();
    let response = sender.send_request(request).await.unwrap();
    let (parts, body) = response.into_parts();
    let body = body.collect().await.unwrap().to_bytes();
    (
        parts.status,
        parts.headers,
        String::from_utf8_lossy(&body).into_owned(),
    )
}

/// An HTTP/2 connection over TLS (ALPN `h2`) with hyper's client.
pub(crate) async fn h2_sender(
    addr: SocketAddr,
    pki: &Pki,
) -> hyper::client::conn::http2::SendRequest<Full<Bytes>> {
    let stream = connect_tls(addr, pki.client_config(&[b"h2"]), "app.test")
        .await
        .unwrap();
    assert_eq!(stream.get_ref().1.alpn_protocol(), Some(&b"h2"[..]));
    let (sender, connection) =
        hyper::client::conn::http2::handshake(TokioExecutor::new(), TokioIo::new(stream))
            .await
            .unwrap();
    tokio::spawn(connection);
    sender
}

pub(crate) async fn h2_request(
    sender: &mut hyper::client::conn::http2::SendRequest<Full<Bytes>>,
    method: Method,
    uri: &str,
    body: Bytes,
) -> (StatusCode, http::HeaderMap, Bytes) {
    let request = Request::builder()
        .method(method)
        .uri(uri)
        .body(Full::new(body))
        .unwrap();
    let response = sender.send_request(request).await.unwrap();
    assert_eq!(response.version(), http::Version::HTTP_2);
    let (parts, body) = response.into_parts();
    (
        parts.status,
        parts.headers,
        body.collect().await.unwrap().to_bytes(),
    )
}

/// The value of the one metrics line that starts with `series`.
fn metric(gateway: &TestGateway, series: &str) -> u64 {
    let text = gateway.handle.render_metrics();
    text.lines()
        .find_map(|line| line.strip_prefix(series)?.trim().parse().ok())
        .unwrap_or_else(|| panic!("no {series} in\n{text}"))
}

/// Polls until the metric reaches `at_least` (handshake counters are bumped by the gateway's
/// task, which may run just after the client saw the outcome).
async fn wait_metric(gateway: &TestGateway, series: &str, at_least: u64) {
    wait_for(
        format!("{series} to reach {at_least}"),
        Duration::from_secs(5),
        || metric(gateway, series),
        |value| *value >= at_least,
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn http1_over_tls_reaches_the_upstream_with_x_forwarded_proto_https() {
    let pki = Pki::new();
    let (_upstream, gateway) = start_tls(&pki, "").await;
    let tls = gateway.tls_addr.expect("a TLS listener");
    let (status, _, head) = get_http1(tls, &pki, "/headers").await;
    assert_eq!(status, StatusCode::OK);
    assert!(head.contains("x-forwarded-proto: https"), "{head}");
    // The plain listener still says http.
    let plain = weir_testkit::client::get(gateway.addr, "/headers")
        .await
        .text();
    assert!(plain.contains("x-forwarded-proto: http\n"), "{plain}");
    wait_metric(
        &gateway,
        "weir_tls_handshakes_total{version=\"TLSv1.3\"}",
        1,
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn http2_streams_go_through_the_same_phases_onto_the_http1_upstream() {
    let pki = Pki::new();
    let (upstream, gateway) = start_tls(&pki, "").await;
    let tls = gateway.tls_addr.unwrap();
    let mut sender = h2_sender(tls, &pki).await;
    // No Host header over HTTP/2: the :authority routes and becomes the upstream's Host.
    let (status, headers, head) = h2_request(
        &mut sender,
        Method::GET,
        "https://app.test/headers",
        Bytes::new(),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let head = String::from_utf8_lossy(&head).into_owned();
    assert!(head.contains("host: app.test"), "{head}");
    assert!(head.contains("x-forwarded-proto: https"), "{head}");
    assert!(head.starts_with("GET /headers HTTP/1.1"), "{head}");
    // Connection-specific headers never go out on HTTP/2.
    for name in ["connection", "keep-alive", "transfer-encoding"] {
        assert!(!headers.contains_key(name), "{name} in {headers:?}");
    }
    // Concurrent streams on one connection, bodies both ways.
    let body: Bytes = (0..300_000u32)
        .map(|i| (i % 251) as u8)
        .collect::<Vec<u8>>()
        .into();
    let mut tasks = Vec::new();
    for _ in 0..16 {
        let mut sender = sender.clone();
        let body = body.clone();
        tasks.push(tokio::spawn(async move {
            h2_request(&mut sender, Method::POST, "https://app.test/echo", body).await
        }));
    }
    for task in tasks {
        let (status, _, echoed) = task.await.unwrap();
        assert_eq!(status, StatusCode::OK);
        assert!(echoed == body, "echoed body differs");
    }
    // Limits apply per stream as per request: a body over max_body_size is 413.
    let big = Bytes::from(vec![b'x'; 2 * 1024 * 1024]);
    let (status, _, _) = h2_request(&mut sender, Method::POST, "https://app.test/echo", big).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
    assert!(upstream.requests() >= 17);
    gateway.wait_pools_quiet(Duration::from_secs(5)).await;
}

/// A rate limit's 429 carries the same headers over HTTP/2 as over HTTP/1: HTTP/1 writes the
/// lines the rejection was made with into the head, HTTP/2 turns them into fields.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_429_carries_its_limit_headers_over_http2_as_over_http1() {
    let pki = Pki::new();
    let upstream = UpstreamServer::start(Transport::Tcp).await;
    let files = [pki.issue(&["app.test"])];
    let config = tls_config(&upstream.address, &files, "").replace(
        "upstream = \"app\"\n",
        "upstream = \"app\"\nlimits = [\"flood\"]\n\n[limits.flood]\nrate = \"1r/m\"\nnodelay = true\n",
    );
    let gateway = TestGateway::start(&config).await;
    let mut sender = h2_sender(gateway.tls_addr.unwrap(), &pki).await;
    let (first, _, _) =
        h2_request(&mut sender, Method::GET, "https://app.test/", Bytes::new()).await;
    assert_eq!(first, StatusCode::OK);
    let (status, h2_headers, body) =
        h2_request(&mut sender, Method::GET, "https://app.test/", Bytes::new()).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(&body[..], b"429 Too Many Requests\n");
    let h1 = weir_testkit::client::get(gateway.addr, "/").await;
    assert_eq!(h1.status, StatusCode::TOO_MANY_REQUESTS);
    for name in [
        "retry-after",
        "ratelimit-policy",
        "ratelimit",
        "content-type",
    ] {
        let over_h2 = h2_headers.get(name).and_then(|value| value.to_str().ok());
        assert!(
            over_h2.is_some(),
            "{name} missing over HTTP/2: {h2_headers:?}"
        );
        assert_eq!(h1.header(name), over_h2, "{name}");
    }
    assert_eq!(h1.header("content-type"), Some("text/plain; charset=utf-8"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_access_log_shows_the_tls_protocol_cipher_sni_and_http_version() {
    let pki = Pki::new();
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("access.log");
    let extra = format!(
        "\n[access_log]\nenabled = true\nformat = \"json\"\npath = \"{}\"\n",
        log.display()
    );
    let (_upstream, gateway) = start_tls(&pki, &extra).await;
    let tls = gateway.tls_addr.unwrap();
    let mut sender = h2_sender(tls, &pki).await;
    h2_request(
        &mut sender,
        Method::GET,
        "https://app.test/h2",
        Bytes::new(),
    )
    .await;
    get_http1(tls, &pki, "/h1").await;
    weir_testkit::client::get(gateway.addr, "/plain").await;
    let text = wait_for(
        "three access log lines",
        Duration::from_secs(5),
        || std::fs::read_to_string(&log).unwrap_or_default(),
        |text| text.lines().count() >= 3,
    )
    .await;
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    let line = |uri: &str| {
        lines
            .iter()
            .find(|line| line["request_uri"] == uri)
            .unwrap_or_else(|| panic!("no {uri} in {lines:?}"))
    };
    let h2 = line("/h2");
    assert_eq!(h2["protocol"], "HTTP/2.0");
    assert_eq!(h2["ssl_protocol"], "TLSv1.3");
    assert!(
        h2["ssl_cipher"].as_str().unwrap().starts_with("TLS13_"),
        "{h2}"
    );
    assert_eq!(h2["ssl_server_name"], "app.test");
    assert_eq!(line("/h1")["protocol"], "HTTP/1.1");
    assert_eq!(line("/h1")["ssl_protocol"], "TLSv1.3");
    assert!(line("/plain")["ssl_protocol"].is_null());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hsts_and_the_plain_http_redirect() {
    let pki = Pki::new();
    let (_upstream, gateway) = start_tls(
        &pki,
        "hsts = \"max-age=31536000; includeSubDomains\"\nredirect_http = true",
    )
    .await;
    let (status, headers, _) = get_http1(gateway.tls_addr.unwrap(), &pki, "/").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        headers.get("strict-transport-security").unwrap(),
        "max-age=31536000; includeSubDomains"
    );
    let mut plain = Client::connect(gateway.addr).await;
    let reply = plain
        .send(
            Request::get("/some/path?q=1")
                .header("host", "App.Test:8080")
                .body(Full::new(Bytes::new()))
                .unwrap(),
        )
        .await
        .unwrap();
    assert_eq!(reply.status, StatusCode::MOVED_PERMANENTLY);
    assert_eq!(
        reply.header("location").unwrap(),
        // The TLS listener says port 0 here, so the redirect names no port.
        "https://app.test/some/path?q=1"
    );
    assert!(reply.header("strict-transport-security").is_none());
    // ACME http-01 challenges stay on plain HTTP and are routed as usual.
    let challenge = plain.get("/.well-known/acme-challenge/token").await;
    assert_eq!(
        challenge.status,
        StatusCode::OK,
        "the upstream's answer, not a 301"
    );
    assert!(challenge.header("location").is_none());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn plain_http_on_the_tls_port_is_answered_400_and_counted() {
    let pki = Pki::new();
    let (upstream, gateway) = start_tls(&pki, "").await;
    let tls = gateway.tls_addr.unwrap();
    let answer = raw_exchange(
        tls,
        b"GET / HTTP/1.1\r\nHost: app.test\r\n\r\n",
        Duration::from_secs(5),
    )
    .await;
    assert!(answer.starts_with("HTTP/1.1 400"), "{answer}");
    assert!(
        answer.contains("plain HTTP request was sent to an HTTPS port"),
        "{answer}"
    );
    wait_metric(
        &gateway,
        "weir_tls_handshake_failures_total{reason=\"plain_http\"}",
        1,
    )
    .await;
    assert_eq!(upstream.requests(), 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_handshake_that_never_comes_times_out() {
    let pki = Pki::new();
    let (_upstream, gateway) = start_tls(&pki, "handshake_timeout = \"200ms\"").await;
    let mut stream = TcpStream::connect(gateway.tls_addr.unwrap()).await.unwrap();
    let mut buf = [0u8; 16];
    let read = tokio::time::timeout(Duration::from_secs(10), stream.read(&mut buf))
        .await
        .expect("the gateway closes a connection that sends nothing");
    assert!(matches!(read, Ok(0) | Err(_)), "{read:?}");
    wait_metric(
        &gateway,
        "weir_tls_handshake_failures_total{reason=\"timeout\"}",
        1,
    )
    .await;
}

fn have(tool: &str) -> bool {
    Command::new(tool).arg("--version").output().is_ok()
        || Command::new(tool).arg("version").output().is_ok()
}

/// curl with the test CA, resolving `app.test` to the gateway: (stdout, `%{http_version}`).
fn curl(ca: &Path, tls: SocketAddr, version_flag: &str, path: &str) -> (String, String) {
    assert!(have("curl"), "curl is missing: run scripts/setup");
    let output = Command::new("curl")
        .args(["--silent", "--show-error", "--max-time", "20", version_flag])
        .arg("--cacert")
        .arg(ca)
        .arg("--resolve")
        .arg(format!("app.test:{}:127.0.0.1", tls.port()))
        .args(["--write-out", "\n%{http_version}"])
        .arg(format!("https://app.test:{}{path}", tls.port()))
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "curl: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let text = String::from_utf8_lossy(&output.stdout).into_owned();
    let (body, version) = text.rsplit_once('\n').unwrap();
    (body.to_string(), version.to_string())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn curl_speaks_http2_and_http1_over_tls() {
    let pki = Pki::new();
    let (_upstream, gateway) = start_tls(&pki, "").await;
    let tls = gateway.tls_addr.unwrap();
    let ca = pki.ca_pem.clone();
    let (body, version) = tokio::task::spawn_blocking(move || curl(&ca, tls, "--http2", "/"))
        .await
        .unwrap();
    assert_eq!((body.as_str(), version.as_str()), ("hello", "2"));
    let ca = pki.ca_pem.clone();
    let (body, version) =
        tokio::task::spawn_blocking(move || curl(&ca, tls, "--http1.1", "/big?bytes=100000"))
            .await
            .unwrap();
    assert_eq!((body.len(), version.as_str()), (100_000, "1.1"));
}

/// `openssl s_client` against the gateway; returns its whole output.
fn s_client(tls: SocketAddr, args: &[&str]) -> String {
    assert!(have("openssl"), "openssl is missing: run scripts/setup");
    let mut child = Command::new("openssl")
        .arg("s_client")
        .arg("-connect")
        .arg(tls.to_string())
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Closing stdin ends the session once the handshake is done.
    drop(child.stdin.take());
    let output = child.wait_with_output().unwrap();
    format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn openssl_sees_the_protocols_and_the_certificate_chosen_by_sni() {
    let pki = Pki::new();
    let upstream = UpstreamServer::start(Transport::Tcp).await;
    let files = [
        pki.issue(&["default.test"]),
        pki.issue(&["api.test"]),
        pki.issue(&["*.apps.test"]),
    ];
    let gateway = TestGateway::start(&tls_config(&upstream.address, &files, "")).await;
    let tls = gateway.tls_addr.unwrap();
    let ca = pki.ca_pem.display().to_string();
    let outputs = tokio::task::spawn_blocking(move || {
        let run = |args: &[&str]| {
            let mut all = vec!["-CAfile", ca.as_str()];
            all.extend_from_slice(args);
            s_client(tls, &all)
        };
        [
            run(&["-servername", "api.test", "-tls1_3"]),
            run(&["-servername", "x.apps.test", "-tls1_2"]),
            run(&["-servername", "unknown.test"]),
            run(&["-noservername"]),
        ]
    })
    .await
    .unwrap();
    let subject = |output: &str| -> String {
        output
            .lines()
            .find(|line| line.starts_with("subject="))
            .unwrap_or_else(|| panic!("no subject in {output}"))
            .to_string()
    };
    assert!(subject(&outputs[0]).contains("api.test"), "{}", outputs[0]);
    assert!(outputs[0].contains("TLSv1.3"), "{}", outputs[0]);
    assert!(
        outputs[0].contains("Verify return code: 0 (ok)"),
        "{}",
        outputs[0]
    );
    assert!(
        subject(&outputs[1]).contains("*.apps.test"),
        "{}",
        outputs[1]
    );
    assert!(outputs[1].contains("TLSv1.2"), "{}", outputs[1]);
    // An unknown name, or none, gets the default (first) certificate.
    assert!(
        subject(&outputs[2]).contains("default.test"),
        "{}",
        outputs[2]
    );
    assert!(
        subject(&outputs[3]).contains("default.test"),
        "{}",
        outputs[3]
    );
    wait_metric(
        &gateway,
        "weir_tls_handshakes_total{version=\"TLSv1.2\"}",
        1,
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_with_no_shared_version_fails_the_handshake() {
    let pki = Pki::new();
    let (_upstream, gateway) = start_tls(&pki, "protocols = [\"TLSv1.3\"]").await;
    let tls = gateway.tls_addr.unwrap();
    let output =
        tokio::task::spawn_blocking(move || s_client(tls, &["-servername", "app.test", "-tls1_2"]))
            .await
            .unwrap();
    assert!(!output.contains("subject="), "{output}");
    wait_metric(
        &gateway,
        "weir_tls_handshake_failures_total{reason=\"protocol_version\"}",
        1,
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_with_no_shared_cipher_fails_the_handshake() {
    let pki = Pki::new();
    let (_upstream, gateway) = start_tls(&pki, "protocols = [\"TLSv1.2\"]").await;
    let tls = gateway.tls_addr.unwrap();
    // Static-RSA key exchange with CBC: nothing rustls offers.
    let output = tokio::task::spawn_blocking(move || {
        s_client(
            tls,
            &[
                "-servername",
                "app.test",
                "-tls1_2",
                "-cipher",
                "AES128-SHA",
            ],
        )
    })
    .await
    .unwrap();
    assert!(!output.contains("subject="), "{output}");
    wait_metric(
        &gateway,
        "weir_tls_handshake_failures_total{reason=\"no_shared_cipher\"}",
        1,
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reload_serves_new_certificates_to_new_connections_and_keeps_old_ones() {
    let pki = Pki::new();
    let upstream = UpstreamServer::start(Transport::Tcp).await;
    let (cert, key) = pki.issue(&["app.test"]);
    let config = tls_config(&upstream.address, &[(cert.clone(), key.clone())], "");
    let gateway = TestGateway::start(&config).await;
    let tls = gateway.tls_addr.unwrap();
    let mut open = h2_sender(tls, &pki).await;
    let serial =
        |stream: &TlsStream<TcpStream>| stream.get_ref().1.peer_certificates().unwrap()[0].to_vec();
    let before = serial(
        &connect_tls(tls, pki.client_config(&[]), "app.test")
            .await
            .unwrap(),
    );
    // certbot renews: new files at the same paths, then a reload.
    let (renewed_cert, renewed_key) = pki.issue(&["app.test", "renewed.app.test"]);
    std::fs::rename(&renewed_cert, &cert).unwrap();
    std::fs::rename(&renewed_key, &key).unwrap();
    gateway
        .handle
        .reload(&weir::config::from_toml(&config, None).unwrap())
        .unwrap();
    let after = serial(
        &connect_tls(tls, pki.client_config(&[]), "app.test")
            .await
            .unwrap(),
    );
    assert_ne!(
        before, after,
        "a new connection gets the renewed certificate"
    );
    // The connection opened before the reload goes on.
    let (status, _, body) =
        h2_request(&mut open, Method::GET, "https://app.test/", Bytes::new()).await;
    assert_eq!((status, &body[..]), (StatusCode::OK, &b"hello"[..]));
    // A reload whose key does not match fails and keeps the old certificates.
    let (_, other_key) = pki.issue(&["other.test"]);
    std::fs::copy(&other_key, &key).unwrap();
    let error = gateway
        .handle
        .reload(&weir::config::from_toml(&config, None).unwrap())
        .unwrap_err();
    assert!(error.to_string().contains("does not belong"), "{error}");
    let still = serial(
        &connect_tls(tls, pki.client_config(&[]), "app.test")
            .await
            .unwrap(),
    );
    assert_eq!(still, after);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sessions_resume_by_ticket() {
    let pki = Pki::new();
    let (_upstream, gateway) = start_tls(&pki, "").await;
    let tls = gateway.tls_addr.unwrap();
    let config = pki.client_config(&[b"http/1.1"]);
    for _ in 0..2 {
        let mut stream = connect_tls(tls, Arc::clone(&config), "app.test")
            .await
            .unwrap();
        // Tickets come after the handshake in TLS 1.3: one exchange makes sure they arrived.
        stream
            .write_all(b"GET / HTTP/1.1\r\nHost: app.test\r\nConnection: close\r\n\r\n")
            .await
            .unwrap();
        let mut answer = Vec::new();
        stream.read_to_end(&mut answer).await.unwrap_or_default();
        assert!(answer.starts_with(b"HTTP/1.1 200"));
    }
    wait_metric(&gateway, "weir_tls_resumed_handshakes_total", 1).await;
}

// ---------------------------------------------------------------------------------------------
// Hostile HTTP/2 clients. Each must end in GOAWAY at bounded cost, while a well-behaved client on
// another connection keeps being served.
// ---------------------------------------------------------------------------------------------

/// A well-behaved HTTP/2 client gets its answer.
pub(crate) async fn still_served(tls: SocketAddr, pki: &Pki) {
    let mut sender = h2_sender(tls, pki).await;
    let (status, _, body) =
        h2_request(&mut sender, Method::GET, "https://app.test/", Bytes::new()).await;
    assert_eq!((status, &body[..]), (StatusCode::OK, &b"hello"[..]));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rapid_reset_ends_in_goaway() {
    // CVE-2023-44487: open streams and reset them at once, over and over.
    let pki = Pki::new();
    let (upstream, gateway) = start_tls(&pki, "").await;
    let tls = gateway.tls_addr.unwrap();
    let stream = connect_tls(tls, pki.client_config(&[b"h2"]), "app.test")
        .await
        .unwrap();
    let (mut client, connection) = h2::client::handshake(stream).await.unwrap();
    let connection = tokio::spawn(connection);
    let mut sent = 0;
    for _ in 0..10_000 {
        let ready = match client.ready().await {
            Ok(ready) => ready,
            Err(_) => break,
        };
        client = ready;
        let request = Request::get("https://app.test/slow?ms=2000")
            .body(())
            .unwrap();
        let Ok((_, mut body)) = client.send_request(request, false) else {
            break;
        };
        body.send_reset(h2::Reason::CANCEL);
        sent += 1;
    }
    let ended = tokio::time::timeout(Duration::from_secs(10), connection)
        .await
        .expect("the gateway ends the connection")
        .unwrap();
    // GOAWAY(ENHANCE_YOUR_CALM), or the socket closed under a write that came after it (the raw
    // test below reads the GOAWAY itself).
    let error = ended.expect_err("GOAWAY, not a clean end");
    assert!(
        (error.is_go_away() && error.reason() == Some(h2::Reason::ENHANCE_YOUR_CALM))
            || error.is_io(),
        "{error:?}"
    );
    // Bounded upstream work: far fewer upstream requests than streams. (How many streams the
    // client wrote before it saw the GOAWAY depends on socket buffers, so it is not asserted.)
    assert!(
        upstream.requests() < sent / 2,
        "{} upstream requests for {sent} streams",
        upstream.requests()
    );
    still_served(tls, &pki).await;
}

/// Raw HTTP/2 over TLS, for floods the `h2` crate will not send. A task reads the gateway's
/// frames all along, so a GOAWAY is seen even when the gateway closes under the writes.
pub(crate) struct RawH2 {
    pub(crate) writer: tokio::io::WriteHalf<TlsStream<TcpStream>>,
    reader: tokio::task::JoinHandle<Vec<u8>>,
}

/// `frame` as bytes: length, type, flags, stream id, payload.
pub(crate) fn frame_bytes(kind: u8, flags: u8, stream_id: u32, payload: &[u8]) -> Vec<u8> {
    let length = payload.len();
    let mut bytes = vec![
        (length >> 16) as u8,
        (length >> 8) as u8,
        length as u8,
        kind,
        flags,
    ];
    bytes.extend_from_slice(&stream_id.to_be_bytes());
    bytes.extend_from_slice(payload);
    bytes
}

impl RawH2 {
    pub(crate) async fn connect(tls: SocketAddr, pki: &Pki) -> RawH2 {
        let stream = connect_tls(tls, pki.client_config(&[b"h2"]), "app.test")
            .await
            .unwrap();
        let (mut reader, writer) = tokio::io::split(stream);
        let reader = tokio::spawn(async move {
            let mut received = Vec::new();
            let mut buf = vec![0u8; 64 * 1024];
            loop {
                match reader.read(&mut buf).await {
                    Ok(0) | Err(_) => break,
                    Ok(n) => received.extend_from_slice(&buf[..n]),
                }
                assert!(received.len() < 64 * 1024 * 1024, "unbounded answers");
            }
            received
        });
        let mut raw = RawH2 { writer, reader };
        raw.writer
            .write_all(b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n")
            .await
            .unwrap();
        raw.frame(0x4, 0, 0, &[]).await.unwrap();
        raw
    }

    pub(crate) async fn frame(
        &mut self,
        kind: u8,
        flags: u8,
        stream_id: u32,
        payload: &[u8],
    ) -> std::io::Result<()> {
        self.writer
            .write_all(&frame_bytes(kind, flags, stream_id, payload))
            .await
    }

    /// Waits until the gateway ends the connection; returns the GOAWAY error code, if one came.
    pub(crate) async fn goaway(self) -> Option<u32> {
        let received = tokio::time::timeout(Duration::from_secs(10), self.reader)
            .await
            .expect("the gateway closes the connection")
            .unwrap();
        let mut rest = &received[..];
        let mut code = None;
        while rest.len() >= 9 {
            let length =
                (usize::from(rest[0]) << 16) | (usize::from(rest[1]) << 8) | usize::from(rest[2]);
            if rest.len() < 9 + length {
                break;
            }
            if rest[3] == 0x7 && length >= 8 {
                code = Some(u32::from_be_bytes([rest[13], rest[14], rest[15], rest[16]]));
            }
            rest = &rest[9 + length..];
        }
        code
    }
}

const ENHANCE_YOUR_CALM: u32 = 0xb;
pub(crate) const NO_ERROR: u32 = 0x0;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rapid_reset_in_raw_frames_gets_goaway_enhance_your_calm() {
    let pki = Pki::new();
    let (upstream, gateway) = start_tls(&pki, "").await;
    let tls = gateway.tls_addr.unwrap();
    let mut raw = RawH2::connect(tls, &pki).await;
    // GET https://app.test/slow?ms=2000 in HPACK: :method GET, :scheme https, :path (literal),
    // :authority (literal), each without indexing.
    let mut head = vec![0x82, 0x87];
    head.extend_from_slice(&[0x04, 15]);
    head.extend_from_slice(b"/slow?ms=2000xx");
    head.extend_from_slice(&[0x01, 8]);
    head.extend_from_slice(b"app.test");
    let mut sent = 0u32;
    for batch in 0..100u32 {
        let mut bytes = Vec::new();
        for index in 0..100u32 {
            let stream_id = 2 * (batch * 100 + index) + 1;
            // HEADERS with END_STREAM | END_HEADERS, then RST_STREAM(CANCEL).
            bytes.extend(frame_bytes(0x1, 0x5, stream_id, &head));
            bytes.extend(frame_bytes(0x3, 0x0, stream_id, &8u32.to_be_bytes()));
        }
        if raw.writer.write_all(&bytes).await.is_err() {
            break;
        }
        sent += 100;
    }
    // The socket buffers may take every batch before the gateway reads the first, so what tells
    // is the GOAWAY and the upstream work, not how much was written.
    assert!(sent > 0);
    assert_eq!(raw.goaway().await, Some(ENHANCE_YOUR_CALM));
    assert!(
        upstream.requests() < 1000,
        "{} upstream requests",
        upstream.requests()
    );
    still_served(tls, &pki).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_continuation_flood_ends_in_goaway() {
    // CVE-2024-27316: a header block that never ends.
    let pki = Pki::new();
    let (_upstream, gateway) = start_tls(&pki, "").await;
    let tls = gateway.tls_addr.unwrap();
    let mut raw = RawH2::connect(tls, &pki).await;
    // HEADERS without END_HEADERS: `:method GET` (indexed 2), then endless CONTINUATION frames
    // of literal header fields.
    raw.frame(0x1, 0x0, 1, &[0x82]).await.unwrap();
    let mut literal = vec![0x40, 0x05];
    literal.extend_from_slice(b"x-pad");
    literal.push(0x7f);
    literal.push(0x81);
    literal.push(0x7f); // a 255-byte value
    literal.extend(std::iter::repeat_n(b'a', 255));
    let mut sent = 0;
    for _ in 0..100_000 {
        if raw.frame(0x9, 0x0, 1, &literal).await.is_err() {
            break;
        }
        sent += 1;
    }
    assert!(
        sent < 100_000,
        "the gateway read all {sent} CONTINUATION frames"
    );
    assert_eq!(raw.goaway().await, Some(ENHANCE_YOUR_CALM));
    still_served(tls, &pki).await;
}

/// Each PING or SETTINGS makes the gateway write an acknowledgement; hyper and h2 bound the
/// memory but not the count. Without `http2::FrameWatch` (its budget made unlimited) the gateway
/// takes all million frames and this test fails.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ping_and_settings_floods_end_in_goaway() {
    let pki = Pki::new();
    let (_upstream, gateway) = start_tls(&pki, "").await;
    let tls = gateway.tls_addr.unwrap();
    for (kind, payload) in [(0x6u8, vec![0u8; 8]), (0x4u8, vec![0, 0x3, 0, 0, 0, 100])] {
        let mut raw = RawH2::connect(tls, &pki).await;
        let mut sent = 0;
        let batch: Vec<u8> = (0..1000)
            .flat_map(|_| frame_bytes(kind, 0, 0, &payload))
            .collect();
        // Up to a million frames, in batches of a thousand, unless the gateway stops reading.
        for _ in 0..1000 {
            match tokio::time::timeout(Duration::from_secs(5), raw.writer.write_all(&batch)).await {
                Ok(Ok(())) => sent += 1000,
                _ => break,
            }
        }
        assert!(
            sent < 1_000_000,
            "frame type {kind}: the gateway took all {sent} frames"
        );
        // GOAWAY(NO_ERROR) from the graceful shutdown, and the connection closed.
        assert_eq!(raw.goaway().await, Some(NO_ERROR), "frame type {kind}");
    }
    still_served(tls, &pki).await;
}

// ---------------------------------------------------------------------------------------------
// Python's httpx over HTTP/2, and the end-to-end path (WEIR_E2E=1: both need the venv).
// ---------------------------------------------------------------------------------------------

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn httpx_speaks_http2_to_the_gateway() {
    if !weir_testkit::gunicorn::enabled() {
        eprintln!("skipped: set WEIR_E2E=1 to run the tests that need the venv");
        return;
    }
    let pki = Pki::new();
    let (_upstream, gateway) = start_tls(&pki, "").await;
    let tls = gateway.tls_addr.unwrap();
    let python = weir_testkit::gunicorn::repo_root().join(".venv/bin/python");
    let script = format!(
        r#"
import httpx, ssl
context = ssl.create_default_context(cafile={ca:?})
with httpx.Client(http2=True, verify=context) as client:
    response = client.get("https://127.0.0.1:{port}/headers")
    print(response.http_version)
    print(response.text)
"#,
        ca = pki.ca_pem.display().to_string(),
        port = tls.port()
    );
    let output = tokio::task::spawn_blocking(move || {
        Command::new(python).arg("-c").arg(script).output().unwrap()
    })
    .await
    .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "httpx failed (is the h2 package installed? scripts/setup installs it): {stderr}"
    );
    assert!(stdout.starts_with("HTTP/2"), "{stdout}");
    assert!(stdout.contains("x-forwarded-proto: https"), "{stdout}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fastapi_under_gunicorn_behind_tls_and_http2_answers_as_on_the_plain_path() {
    if !weir_testkit::gunicorn::enabled() {
        eprintln!("skipped: set WEIR_E2E=1 to run the end-to-end tests");
        return;
    }
    let app = weir_testkit::gunicorn::Gunicorn::start(weir_testkit::gunicorn::App::FastApi {
        workers: 2,
    });
    let pki = Pki::new();
    let files = [pki.issue(&["app.test"])];
    let config = tls_config(&app.address, &files, "").replace(
        "shutdown_grace = \"5s\"",
        "shutdown_grace = \"5s\"\nmax_body_size = \"20MiB\"",
    );
    let gateway = TestGateway::start(&config).await;
    let mut plain = Client::connect(gateway.addr).await;
    let mut h2 = h2_sender(gateway.tls_addr.unwrap(), &pki).await;
    for path in ["/", "/sync", "/async", "/big", "/status/418"] {
        let over_plain = plain.get(path).await;
        let (status, _, body) = h2_request(
            &mut h2,
            Method::GET,
            &format!("https://app.test{path}"),
            Bytes::new(),
        )
        .await;
        assert_eq!(status, over_plain.status, "{path}");
        assert!(body == over_plain.body, "{path}: bodies differ");
    }
    let upload: Bytes = (0..2_000_000u32)
        .map(|i| (i % 253) as u8)
        .collect::<Vec<u8>>()
        .into();
    let over_plain = plain.request(Method::POST, "/echo", upload.clone()).await;
    let (status, _, body) = h2_request(
        &mut h2,
        Method::POST,
        "https://app.test/echo",
        upload.clone(),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert!(
        body == over_plain.body && body == upload,
        "echoed bodies differ"
    );
    let (_, _, headers) = h2_request(
        &mut h2,
        Method::GET,
        "https://app.test/headers",
        Bytes::new(),
    )
    .await;
    let headers = String::from_utf8_lossy(&headers);
    assert!(
        headers.contains(r#"["x-forwarded-proto","https"]"#),
        "{headers}"
    );
    assert!(headers.contains(r#"["host","app.test"]"#), "{headers}");
    gateway.wait_pools_quiet(Duration::from_secs(5)).await;
}

/// Every metric the shipped Grafana dashboard (packaging/grafana-dashboard.json) queries is one a
/// gateway exports: a TLS gateway with a limited route and an upstream renders them all.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_grafana_dashboard_queries_only_metrics_weir_exports() {
    let pki = Pki::new();
    let upstream = UpstreamServer::start(Transport::Tcp).await;
    let files = [pki.issue(&["app.test", "127.0.0.1"])];
    let config = tls_config(&upstream.address, &files, "").replace(
        "upstream = \"app\"\n",
        "upstream = \"app\"\nlimits = [\"api\"]\n\n[limits.api]\nrate = \"10r/s\"\n",
    );
    let gateway = TestGateway::start(&config).await;
    let exported: std::collections::BTreeSet<String> = gateway
        .handle
        .render_metrics()
        .lines()
        .filter_map(|line| line.strip_prefix("# TYPE "))
        .filter_map(|line| line.split_whitespace().next())
        .map(str::to_string)
        .collect();
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../packaging/grafana-dashboard.json");
    let dashboard: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let mut queried = std::collections::BTreeSet::new();
    for panel in dashboard["panels"].as_array().expect("panels") {
        for target in panel["targets"].as_array().expect("targets") {
            let expr = target["expr"].as_str().expect("expr");
            for word in expr.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')) {
                if word.starts_with("weir_") {
                    let family = ["_bucket", "_sum", "_count"]
                        .iter()
                        .find_map(|suffix| word.strip_suffix(suffix))
                        .unwrap_or(word);
                    queried.insert(family.to_string());
                }
            }
        }
    }
    assert!(queried.len() >= 15, "the dashboard queries {queried:?}");
    let unknown: Vec<_> = queried.difference(&exported).collect();
    assert!(
        unknown.is_empty(),
        "the dashboard queries metrics weir does not export: {unknown:?}\nexported: {exported:?}"
    );
}
