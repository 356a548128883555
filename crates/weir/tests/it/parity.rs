//! The nginx features of issue 5 through the real gateway: the real client IP behind trusted
//! proxies, compression, static files, and, end to end with real Gunicorn apps (`WEIR_E2E=1`),
//! WebSocket pass-through and buffering for sync workers.

use std::io::Read as _;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use weir_testkit::gunicorn::{self, App, Gunicorn};

use crate::support::*;

async fn forwarded_headers(extra_server: &str, forwarded_for: &str) -> String {
    let (_upstream, gateway) = start(Transport::Tcp, extra_server, "").await;
    let request = Request::get("/headers")
        .header("x-forwarded-for", forwarded_for)
        .header("x-forwarded-proto", "https")
        .body(Default::default())
        .unwrap();
    Client::connect(gateway.addr)
        .await
        .send(request)
        .await
        .unwrap()
        .text()
}

#[tokio::test]
async fn an_untrusted_client_cannot_choose_its_ip() {
    let text = forwarded_headers(r#"trusted_proxies = ["10.0.0.0/8"]"#, "203.0.113.9").await;
    assert!(text.contains("x-real-ip: 127.0.0.1\n"), "{text}");
    assert!(
        text.contains("x-forwarded-for: 203.0.113.9, 127.0.0.1\n"),
        "{text}"
    );
    assert!(text.contains("x-forwarded-proto: http\n"), "{text}");
}

#[tokio::test]
async fn a_trusted_proxy_gives_the_client_ip_recursively() {
    // 127.0.0.1 (the test client) and 10.1.2.3 are trusted: the walk from the right skips both.
    let text = forwarded_headers(
        r#"trusted_proxies = ["127.0.0.1", "10.0.0.0/8"]"#,
        "198.51.100.4, 203.0.113.9, 10.1.2.3",
    )
    .await;
    assert!(text.contains("x-real-ip: 203.0.113.9\n"), "{text}");
    assert!(
        text.contains("x-forwarded-proto: https\n"),
        "a trusted proxy's scheme is kept: {text}"
    );
}

#[tokio::test]
async fn the_real_ip_is_the_rate_limit_key() {
    let upstream = UpstreamServer::start(Transport::Tcp).await;
    let toml = format!(
        r#"
[server]
listen = ["127.0.0.1:0"]
trusted_proxies = ["127.0.0.1"]
[upstreams.app]
servers = ["{}"]
[limits.per_ip]
rate = "1r/m"
nodelay = true
[[routes]]
path = "/"
upstream = "app"
limits = ["per_ip"]
"#,
        upstream.address
    );
    let gateway = TestGateway::start(&toml).await;
    let mut client = Client::connect(gateway.addr).await;
    let mut statuses = Vec::new();
    for ip in ["203.0.113.1", "203.0.113.1", "203.0.113.2"] {
        let request = Request::get("/")
            .header("x-forwarded-for", ip)
            .body(Default::default())
            .unwrap();
        statuses.push(client.send(request).await.unwrap().status);
    }
    // The second request of the first client is limited; another client has its own key.
    assert_eq!(
        statuses,
        [
            StatusCode::OK,
            StatusCode::TOO_MANY_REQUESTS,
            StatusCode::OK
        ]
    );
}

#[tokio::test]
async fn text_is_compressed_when_accepted_and_left_alone_otherwise() {
    let upstream = UpstreamServer::start(Transport::Tcp).await;
    let toml = format!(
        "{}\n[compression]\nmin_length = 200\n",
        config(&upstream.address, "", "")
    );
    let gateway = TestGateway::start(&toml).await;
    let mut client = Client::connect(gateway.addr).await;
    let request = Request::get("/text?bytes=20000")
        .header("accept-encoding", "gzip")
        .body(Default::default())
        .unwrap();
    let reply = client.send(request).await.unwrap();
    assert_eq!(reply.header("content-encoding"), Some("gzip"));
    assert!(reply
        .header("vary")
        .is_some_and(|vary| vary.eq_ignore_ascii_case("accept-encoding")));
    assert!(
        reply.body.len() < 2000,
        "not compressed: {} bytes",
        reply.body.len()
    );
    let mut text = String::new();
    flate2::read::GzDecoder::new(&reply.body[..])
        .read_to_string(&mut text)
        .unwrap();
    assert_eq!(text.len(), 20_000);
    assert!(text.starts_with("weir compresses text."));
    // No Accept-Encoding: identity, but still Vary.
    let plain = client.get("/text?bytes=20000").await;
    assert_eq!(plain.header("content-encoding"), None);
    assert_eq!(plain.body.len(), 20_000);
    assert!(plain
        .header("vary")
        .is_some_and(|vary| vary.eq_ignore_ascii_case("accept-encoding")));
    // Too short to be worth it.
    let request = Request::get("/text?bytes=50")
        .header("accept-encoding", "gzip")
        .body(Default::default())
        .unwrap();
    assert_eq!(
        client
            .send(request)
            .await
            .unwrap()
            .header("content-encoding"),
        None
    );
}

#[tokio::test]
async fn a_static_route_serves_files_with_validators_and_ranges() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("app.css"), "body { color: teal; }\n").unwrap();
    let upstream = UpstreamServer::start(Transport::Tcp).await;
    let toml = format!(
        r#"{}
[[routes]]
path = "/static/"
static = "{}"
"#,
        config(&upstream.address, "", ""),
        dir.path().display()
    );
    let gateway = TestGateway::start(&toml).await;
    let mut client = Client::connect(gateway.addr).await;
    let file = client.get("/static/app.css").await;
    assert_eq!(file.status, StatusCode::OK);
    assert_eq!(file.text(), "body { color: teal; }\n");
    assert!(file.header("content-type").unwrap().starts_with("text/css"));
    let etag = file.header("etag").expect("an ETag").to_string();
    let request = Request::get("/static/app.css")
        .header("if-none-match", &etag)
        .body(Default::default())
        .unwrap();
    assert_eq!(
        client.send(request).await.unwrap().status,
        StatusCode::NOT_MODIFIED
    );
    let request = Request::get("/static/app.css")
        .header("range", "bytes=0-3")
        .body(Default::default())
        .unwrap();
    let partial = client.send(request).await.unwrap();
    assert_eq!(partial.status, StatusCode::PARTIAL_CONTENT);
    assert_eq!(partial.text(), "body");
    assert_eq!(
        client.get("/static/missing.css").await.status,
        StatusCode::NOT_FOUND
    );
    let escape = client.get("/static/..%2f..%2fetc%2fpasswd").await;
    assert!(
        matches!(
            escape.status,
            StatusCode::BAD_REQUEST | StatusCode::FORBIDDEN | StatusCode::NOT_FOUND
        ),
        "{:?}",
        escape.status
    );
    assert!(!escape.text().contains("root:"));
    // Other paths still go to the upstream.
    assert_eq!(client.get("/").await.text(), "hello");
    assert_eq!(upstream.requests(), 1);
}

/// A minimal WebSocket client over a raw socket: handshake, one masked text frame, its echo.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn websocket_passes_through_to_uvicorn() {
    if !gunicorn::enabled() {
        eprintln!("skipped: set WEIR_E2E=1 to run the end-to-end tests");
        return;
    }
    let app = Gunicorn::start(App::FastApiStandard { workers: 1 });
    let gateway = TestGateway::start(&config(&app.address, "", "")).await;
    let mut stream = tokio::net::TcpStream::connect(gateway.addr).await.unwrap();
    stream
        .write_all(
            b"GET /ws HTTP/1.1\r\nhost: x\r\nupgrade: websocket\r\nconnection: Upgrade\r\n\
              sec-websocket-key: dGhlIHNhbXBsZSBub25jZQ==\r\nsec-websocket-version: 13\r\n\r\n",
        )
        .await
        .unwrap();
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") {
        let read = tokio::time::timeout(Duration::from_secs(5), stream.read(&mut byte))
            .await
            .unwrap()
            .unwrap();
        assert_eq!(
            read,
            1,
            "closed during the handshake: {}",
            String::from_utf8_lossy(&head)
        );
        head.push(byte[0]);
    }
    let head = String::from_utf8_lossy(&head).to_ascii_lowercase();
    assert!(head.starts_with("http/1.1 101"), "{head}");
    // RFC 6455's own example key and its accept value.
    assert!(
        head.contains("sec-websocket-accept: s3pplmbitxaq9kygzzhzrbk+xoo="),
        "{head}"
    );
    for message in ["hello", "through weir"] {
        let mask = [0x12u8, 0x34, 0x56, 0x78];
        let mut frame = vec![0x81, 0x80 | message.len() as u8];
        frame.extend_from_slice(&mask);
        frame.extend(message.bytes().enumerate().map(|(i, b)| b ^ mask[i % 4]));
        stream.write_all(&frame).await.unwrap();
        let mut header = [0u8; 2];
        tokio::time::timeout(Duration::from_secs(5), stream.read_exact(&mut header))
            .await
            .unwrap()
            .unwrap();
        assert_eq!(header[0], 0x81, "a text frame");
        let mut payload = vec![0u8; usize::from(header[1] & 0x7f)];
        stream.read_exact(&mut payload).await.unwrap();
        assert_eq!(payload, message.as_bytes());
    }
}

/// With one Gunicorn sync worker behind a route with `setting = on/off`, a slow client sends
/// `slow` and then stalls; returns whether a second client's `GET /` was served within 5 s.
async fn second_client_served_beside(setting: &str, on: bool, slow: &[u8]) -> bool {
    let app = Gunicorn::start(App::Flask { workers: 1 });
    let toml = format!("{}{setting} = {on}\n", config(&app.address, "", ""));
    let gateway = TestGateway::start(&toml).await;
    let mut stalled = tokio::net::TcpStream::connect(gateway.addr).await.unwrap();
    stalled.write_all(slow).await.unwrap();
    // Wait until the slow client's exchange is where the second client would meet it: the worker
    // has the upload, or weir has taken it, or the worker has begun writing the response.
    let head_end = slow
        .windows(4)
        .position(|window| window == b"\r\n\r\n")
        .expect("a whole head")
        + 4;
    let sent_body = (slow.len() - head_end) as u64;
    match (setting, on) {
        ("request_buffering", true) => {
            wait_until(
                "weir to hold the partial body",
                Duration::from_secs(10),
                || {
                    let stats = gateway.handle.buffer_stats();
                    stats.body_memory + stats.spooled >= sent_body
                },
            )
            .await
        }
        ("request_buffering", false) => {
            wait_until(
                "the upload to be with the app",
                Duration::from_secs(10),
                || gateway.handle.pool_stats()[0].2.in_use == 1,
            )
            .await
        }
        _ => {
            // The first bytes of the response, looked at and left unread.
            let mut first = [0u8; 1];
            tokio::time::timeout(Duration::from_secs(10), stalled.peek(&mut first))
                .await
                .expect("the app began its response within 10 s")
                .expect("peek");
        }
    }
    let addr = gateway.addr;
    let other = tokio::spawn(async move { Client::connect(addr).await.get("/").await.status });
    let served = tokio::time::timeout(Duration::from_secs(5), other).await;
    drop(stalled);
    match served {
        Ok(status) => {
            assert_eq!(status.unwrap(), StatusCode::OK);
            true
        }
        Err(_) => false,
    }
}

/// A client that does not read its 8 MB response must not hold the sync worker: with
/// `response_buffering` weir takes the response and a second client is served; the control
/// (`false`) shows the worker held.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn response_buffering_frees_a_sync_worker_from_a_slow_reader() {
    if !gunicorn::enabled() {
        eprintln!("skipped: set WEIR_E2E=1 to run the end-to-end tests");
        return;
    }
    let slow = b"GET /big?mb=8 HTTP/1.1\r\nhost: x\r\n\r\n";
    assert!(second_client_served_beside("response_buffering", true, slow).await);
    assert!(
        !second_client_served_beside("response_buffering", false, slow).await,
        "control: without buffering the slow reader holds the worker"
    );
}

/// A client that sends half its body must not hold the sync worker: with `request_buffering`
/// weir reads the body before contacting the app; the control shows the worker held.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn request_buffering_frees_a_sync_worker_from_a_slow_upload() {
    if !gunicorn::enabled() {
        eprintln!("skipped: set WEIR_E2E=1 to run the end-to-end tests");
        return;
    }
    let mut slow = b"POST /echo HTTP/1.1\r\nhost: x\r\ncontent-length: 100000\r\n\r\n".to_vec();
    slow.extend_from_slice(&[b'a'; 1000]);
    assert!(second_client_served_beside("request_buffering", true, &slow).await);
    assert!(
        !second_client_served_beside("request_buffering", false, &slow).await,
        "control: without buffering the slow upload holds the worker"
    );
}
