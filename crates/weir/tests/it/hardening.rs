//! Holes found by attack and review, each closed and held shut here: percent-encoded paths that
//! dodged routes and limits, bodies and readers that stalled forever, `Upgrade` headers that
//! switched buffering off, duplicate and hidden `Host`s, underscored headers, tunnels outside
//! `max_connections`, and answers that went unlogged and uncounted.

use std::net::SocketAddr;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

use crate::support::*;

/// Polls until `requests_with_status` reaches `count`, or panics after `within`.
async fn wait_for_status_count(gateway: &TestGateway, status: u16, count: u64, within: Duration) {
    let (seen, _) = wait_for(
        format!("{count} request(s) counted with status {status}"),
        within,
        || {
            let metrics = gateway.handle.render_metrics();
            (requests_with_status(gateway, status), metrics)
        },
        |(seen, _)| *seen >= count,
    )
    .await;
    assert_eq!(seen, count, "more {status}s than expected");
}

/// Writes `head` and reads what comes back until the gateway closes or `wait` passes.
async fn send_and_read(stream: &mut TcpStream, bytes: &[u8], wait: Duration) -> String {
    stream.write_all(bytes).await.expect("write");
    let mut received = Vec::new();
    let _ = tokio::time::timeout(wait, stream.read_to_end(&mut received)).await;
    String::from_utf8_lossy(&received).into_owned()
}

fn status_of(response: &str) -> &str {
    response.get(9..12).unwrap_or("")
}

/// `/small` limited to one request a minute, `/` unlimited: the route a percent-encoded
/// `/%73mall` takes must be `/small`'s, or the limit is a suggestion.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn percent_encoded_paths_take_the_route_and_bucket_of_their_decoded_path() {
    let upstream = UpstreamServer::start(Transport::Tcp).await;
    let gateway = TestGateway::start(&format!(
        r#"
[server]
listen = ["127.0.0.1:0"]

[upstreams.app]
servers = ["{}"]

[limits.once]
rate = "1r/m"

[limits.per_path]
key = "path"
rate = "1r/m"

[[routes]]
path = "/"
upstream = "app"

[[routes]]
path = "/small"
upstream = "app"
limits = ["once"]

[[routes]]
path = "/keyed/"
upstream = "app"
limits = ["per_path"]
"#,
        upstream.address
    ))
    .await;
    let mut client = Client::connect(gateway.addr).await;
    assert_eq!(client.get("/small").await.status, StatusCode::OK);
    for spelling in [
        "/small",
        "/%73mall",
        "/%73%6d%61%6c%6c",
        "//small",
        "/./small",
        "/x/../small",
    ] {
        assert_eq!(
            client.get(spelling).await.status,
            StatusCode::TOO_MANY_REQUESTS,
            "{spelling}"
        );
    }
    // The path part of a limit key: one bucket per normalised path.
    assert_eq!(client.get("/keyed/a").await.status, StatusCode::OK);
    assert_eq!(
        client.get("/keyed/%61").await.status,
        StatusCode::TOO_MANY_REQUESTS
    );
    assert_eq!(
        client.get("/keyed//a").await.status,
        StatusCode::TOO_MANY_REQUESTS
    );
    assert_eq!(client.get("/keyed/b").await.status, StatusCode::OK);
}

/// An upstream that records each request line and answers 200 "ok", closing after each.
async fn line_recording_upstream() -> (SocketAddr, std::sync::Arc<std::sync::Mutex<Vec<String>>>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let lines = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let recorded = std::sync::Arc::clone(&lines);
    tokio::spawn(async move {
        while let Ok((mut stream, _)) = listener.accept().await {
            let recorded = std::sync::Arc::clone(&recorded);
            tokio::spawn(async move {
                let mut head = Vec::new();
                let mut byte = [0u8; 1];
                while !head.ends_with(b"\r\n\r\n") {
                    match stream.read(&mut byte).await {
                        Ok(1) => head.push(byte[0]),
                        _ => return,
                    }
                }
                let text = String::from_utf8_lossy(&head).into_owned();
                let line = text.lines().next().unwrap_or("").to_string();
                recorded.lock().unwrap().push(line);
                let _ = stream
                    .write_all(
                        b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok",
                    )
                    .await;
            });
        }
    });
    (addr, lines)
}

/// The request line reaches the upstream exactly as the client wrote it (nginx `proxy_pass`
/// without a URI); a path that cannot be normalised is 400 and reaches nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_upstream_gets_the_clients_path_and_broken_paths_are_400() {
    let (upstream, lines) = line_recording_upstream().await;
    let gateway = TestGateway::start(&config(&upstream.to_string(), "", "")).await;
    let reply = Client::connect(gateway.addr)
        .await
        .get("/a//%62/./c%20d?q=%41")
        .await;
    assert_eq!(reply.status, StatusCode::OK);
    assert_eq!(
        lines.lock().unwrap().as_slice(),
        ["GET /a//%62/./c%20d?q=%41 HTTP/1.1"]
    );
    for path in ["/..", "/a/../../b", "/a%00b", "/a%zz", "/%2e%2e/etc/passwd"] {
        let raw = format!("GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
        let response = raw_exchange(gateway.addr, raw.as_bytes(), Duration::from_secs(5)).await;
        assert_eq!(status_of(&response), "400", "{path}: {response}");
    }
    assert_eq!(lines.lock().unwrap().len(), 1);
}

/// nginx `client_body_timeout`: a body that stops coming gets 408 and the connection closes, on a
/// buffered route and on a streamed one alike.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stalled_request_body_is_answered_408_after_body_timeout() {
    let upstream = UpstreamServer::start(Transport::Tcp).await;
    let gateway = TestGateway::start(&format!(
        r#"
[server]
listen = ["127.0.0.1:0"]
body_timeout = "500ms"

[upstreams.app]
servers = ["{}"]

[[routes]]
path = "/"
upstream = "app"
request_buffering = true

[[routes]]
path = "/consume"
upstream = "app"
request_buffering = false
"#,
        upstream.address
    ))
    .await;
    for path in ["/buffered", "/consume"] {
        let mut stream = TcpStream::connect(gateway.addr).await.unwrap();
        let head = format!("POST {path} HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nabc");
        // Well past body_timeout, yet bounded: without the time-out this read never ends.
        let response = send_and_read(&mut stream, head.as_bytes(), Duration::from_secs(10)).await;
        assert_eq!(status_of(&response), "408", "{path}: {response}");
    }
    wait_for_status_count(&gateway, 408, 2, Duration::from_secs(5)).await;
    gateway.wait_pools_quiet(Duration::from_secs(5)).await;
}

/// nginx `send_timeout`: a client that stops reading a large response is closed, and the
/// upstream connection behind it is given back.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_stops_reading_is_closed_after_send_timeout() {
    let upstream = UpstreamServer::start(Transport::Tcp).await;
    let gateway = TestGateway::start(&format!(
        r#"
[server]
listen = ["127.0.0.1:0"]
send_timeout = "500ms"

[upstreams.app]
servers = ["{}"]

[[routes]]
path = "/"
upstream = "app"
response_buffering = false
"#,
        upstream.address
    ))
    .await;
    // A small receive buffer (set before connecting, so the window is small from the start): the
    // kernel's buffers fill long before 64 MiB.
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.set_recv_buffer_size(4096).unwrap();
    let mut stream = socket.connect(gateway.addr).await.unwrap();
    stream
        .write_all(b"GET /big?bytes=67108864 HTTP/1.1\r\nHost: x\r\n\r\n")
        .await
        .unwrap();
    // Never read: the gateway's writes stall, and after send_timeout it gives up, which frees
    // the upstream exchange behind it.
    let in_use = |gateway: &TestGateway| {
        gateway
            .handle
            .pool_stats()
            .iter()
            .map(|(_, _, stats)| stats.in_use)
            .sum::<usize>()
    };
    wait_until("an exchange to begin", Duration::from_secs(5), || {
        in_use(&gateway) > 0 || upstream.requests() > 0
    })
    .await;
    gateway.wait_pools_quiet(Duration::from_secs(10)).await;
    // The connection was closed under the client: draining it ends in EOF or a reset.
    let mut sink = vec![0u8; 1 << 16];
    let ended = tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            match stream.read(&mut sink).await {
                Ok(0) | Err(_) => return,
                Ok(_) => {}
            }
        }
    })
    .await;
    assert!(ended.is_ok(), "the connection was not closed");
}

/// An `Upgrade` header other than a WebSocket handshake on a bodiless GET does not switch
/// request buffering off: the upstream sees nothing until the whole body is in, and no `Upgrade`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_upgrade_header_does_not_switch_request_buffering_off() {
    let upstream = UpstreamServer::start(Transport::Tcp).await;
    let gateway = TestGateway::start(&format!(
        r#"
[server]
listen = ["127.0.0.1:0"]

[upstreams.app]
servers = ["{}"]

[[routes]]
path = "/"
upstream = "app"
request_buffering = true
"#,
        upstream.address
    ))
    .await;
    let mut stream = TcpStream::connect(gateway.addr).await.unwrap();
    stream
        .write_all(
            b"POST /headers HTTP/1.1\r\nHost: x\r\nUpgrade: foo\r\nConnection: upgrade\r\nContent-Length: 10\r\n\r\nabc",
        )
        .await
        .unwrap();
    // While the body is incomplete the upstream must not have been asked: watched for 300 ms, as
    // nothing happening has no state to poll for.
    for _ in 0..30 {
        tokio::time::sleep(Duration::from_millis(10)).await;
        assert_eq!(upstream.requests(), 0, "the upstream saw a half-sent body");
    }
    let response = send_and_read(&mut stream, b"defghij", Duration::from_secs(5)).await;
    assert_eq!(status_of(&response), "200", "{response}");
    let lower = response.to_ascii_lowercase();
    assert!(!lower.contains("\nupgrade:"), "{response}");

    // h2c is no tunnel to the app either: the GET is forwarded without its Upgrade.
    let mut client = Client::connect(gateway.addr).await;
    let request = Request::builder()
        .uri("/headers")
        .header("upgrade", "h2c")
        .header("connection", "upgrade, http2-settings")
        .header("http2-settings", "AAMAAABkAAQAoAAAAAIAAAAA")
        .body(http_body_util::Full::new(bytes::Bytes::new()))
        .unwrap();
    let reply = client.send(request).await.unwrap();
    assert_eq!(reply.status, StatusCode::OK);
    let seen = reply.text().to_ascii_lowercase();
    assert!(!seen.contains("upgrade:"), "{seen}");
    assert!(!seen.contains("http2-settings"), "{seen}");
}

/// RFC 9112 §3.2: two `Host`s, an invalid one, or none on HTTP/1.1 is 400; in absolute form the
/// target's authority wins; `Connection: host` cannot strip `Host`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn host_headers_are_checked_and_kept() {
    let (upstream, gateway) = start(Transport::Tcp, "", "").await;
    for head in [
        "GET /headers HTTP/1.1\r\nHost: a.example\r\nHost: b.example\r\n\r\n",
        "GET /headers HTTP/1.1\r\nHost: a.example/evil\r\n\r\n",
        "GET /headers HTTP/1.1\r\nHost: a b\r\n\r\n",
        "GET /headers HTTP/1.1\r\nHost: \r\n\r\n",
        "GET /headers HTTP/1.1\r\nHost: a.example:80x\r\n\r\n",
        "GET /headers HTTP/1.1\r\n\r\n",
    ] {
        let response = raw_exchange(gateway.addr, head.as_bytes(), Duration::from_secs(5)).await;
        assert_eq!(status_of(&response), "400", "{head:?}: {response}");
    }
    assert_eq!(upstream.requests(), 0);

    let response = raw_exchange(
        gateway.addr,
        b"GET http://target.example/headers HTTP/1.1\r\nHost: other.example\r\nConnection: close\r\n\r\n",
        Duration::from_secs(5),
    )
    .await;
    assert_eq!(status_of(&response), "200", "{response}");
    assert!(response.contains("\nhost: target.example\n"), "{response}");
    assert!(!response.contains("other.example"), "{response}");

    let response = raw_exchange(
        gateway.addr,
        b"GET /headers HTTP/1.1\r\nHost: mine.example\r\nConnection: host, close\r\n\r\n",
        Duration::from_secs(5),
    )
    .await;
    assert_eq!(status_of(&response), "200", "{response}");
    assert!(response.contains("\nhost: mine.example\n"), "{response}");

    let response = raw_exchange(
        gateway.addr,
        b"GET /headers HTTP/1.1\r\nHost: [::1]:8080\r\nConnection: close\r\n\r\n",
        Duration::from_secs(5),
    )
    .await;
    assert_eq!(status_of(&response), "200", "{response}");
}

/// nginx drops request headers with underscores unless `underscores_in_headers on`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn underscored_headers_are_dropped_unless_allowed() {
    for (allowed, expect_forwarded) in [("", false), ("underscores_in_headers = true", true)] {
        let (_upstream, gateway) = start(Transport::Tcp, allowed, "").await;
        let mut client = Client::connect(gateway.addr).await;
        let request = Request::builder()
            .uri("/headers")
            .header("x-real_ip", "6.6.6.6")
            .header("x-kept", "yes")
            .body(http_body_util::Full::new(bytes::Bytes::new()))
            .unwrap();
        let seen = client.send(request).await.unwrap().text();
        assert!(seen.contains("x-kept: yes"), "{seen}");
        assert_eq!(
            seen.contains("x-real_ip: 6.6.6.6"),
            expect_forwarded,
            "{seen}"
        );
    }
}

const HANDSHAKE: &[u8] = b"GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n";

/// Reads a response head (up to the blank line).
async fn read_head(stream: &mut TcpStream) -> String {
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    let read = tokio::time::timeout(Duration::from_secs(5), async {
        while !head.ends_with(b"\r\n\r\n") {
            if stream.read(&mut byte).await.unwrap_or(0) == 0 {
                break;
            }
            head.push(byte[0]);
        }
    })
    .await;
    assert!(read.is_ok(), "no response head");
    String::from_utf8_lossy(&head).into_owned()
}

/// A tunnel keeps its `max_connections` place until it closes; a 101 on the connection's last
/// allowed request still says `Connection: upgrade`; shutdown closes tunnels at the end of the
/// grace.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tunnels_count_against_max_connections_and_close_at_the_end_of_the_grace() {
    let upstream = weir_testkit::RawUpstream::start(weir_testkit::Script::SwitchAndEcho).await;
    let upstream_addr = &upstream.address;
    let gateway = TestGateway::start(&format!(
        r#"
[server]
listen = ["127.0.0.1:0"]
max_connections = 1
keepalive_requests = 1
shutdown_grace = "500ms"
# max_connections is per worker thread: one thread, so one place in all.
threads = 1

[upstreams.app]
servers = ["{upstream_addr}"]

[[routes]]
path = "/"
upstream = "app"
"#
    ))
    .await;
    let mut tunnel = TcpStream::connect(gateway.addr).await.unwrap();
    tunnel.write_all(HANDSHAKE).await.unwrap();
    let head = read_head(&mut tunnel).await.to_ascii_lowercase();
    assert!(head.starts_with("http/1.1 101"), "{head}");
    assert!(head.contains("connection: upgrade"), "{head}");
    assert!(!head.contains("close"), "{head}");
    ping_through(&mut tunnel).await;

    // The one place is the tunnel's: another client waits in the backlog, unanswered.
    let mut waiting = TcpStream::connect(gateway.addr).await.unwrap();
    waiting
        .write_all(b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        .await
        .unwrap();
    let mut buffer = [0u8; 64];
    let early = tokio::time::timeout(Duration::from_millis(300), waiting.read(&mut buffer)).await;
    assert!(
        early.is_err(),
        "a connection past max_connections was served"
    );

    // Shutdown: the tunnel is closed once the grace is over.
    let stopped = gateway.begin_shutdown();
    let mut rest = Vec::new();
    let closed = tokio::time::timeout(Duration::from_secs(10), tunnel.read_to_end(&mut rest)).await;
    assert!(closed.is_ok(), "the tunnel outlived the shutdown grace");
    tokio::time::timeout(Duration::from_secs(10), stopped)
        .await
        .expect("the gateway stops")
        .unwrap();
}

/// A client that leaves before its answer is counted and logged as 499 (nginx's code).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_leaves_before_the_answer_is_counted_and_logged_as_499() {
    let upstream = UpstreamServer::start(Transport::Tcp).await;
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("access.log");
    let gateway = TestGateway::start(&format!(
        r#"
[server]
listen = ["127.0.0.1:0"]

[upstreams.app]
servers = ["{}"]

[[routes]]
path = "/"
upstream = "app"

[access_log]
enabled = true
path = "{}"
"#,
        upstream.address,
        log.display()
    ))
    .await;
    let mut stream = TcpStream::connect(gateway.addr).await.unwrap();
    stream
        .write_all(b"GET /hang HTTP/1.1\r\nHost: x\r\n\r\n")
        .await
        .unwrap();
    // Wait until the upstream has the request, then leave.
    wait_until(
        "the request to reach the upstream",
        Duration::from_secs(5),
        || upstream.requests() > 0,
    )
    .await;
    drop(stream);
    wait_for_status_count(&gateway, 499, 1, Duration::from_secs(5)).await;
    gateway.wait_pools_quiet(Duration::from_secs(5)).await;
    wait_for(
        "the 499 line in the access log",
        Duration::from_secs(5),
        || std::fs::read_to_string(&log).unwrap_or_default(),
        |text| text.contains("\"GET /hang HTTP/1.1\" 499 0"),
    )
    .await;
}

/// The answers hyper gives by itself (a malformed head: 400; a head too large: 431) and a head
/// that never completes (408) are counted and logged like weir's own.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn answers_of_the_http_layer_are_counted_and_logged() {
    let upstream = UpstreamServer::start(Transport::Tcp).await;
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("access.log");
    let gateway = TestGateway::start(&format!(
        r#"
[server]
listen = ["127.0.0.1:0"]
header_timeout = "300ms"
max_header_size = "1KiB"

[upstreams.app]
servers = ["{}"]

[[routes]]
path = "/"
upstream = "app"

[access_log]
enabled = true
path = "{}"
"#,
        upstream.address,
        log.display()
    ))
    .await;
    let response = raw_exchange(
        gateway.addr,
        b"GARBAGE\x01 / HTTP/1.1\r\n\r\n",
        Duration::from_secs(5),
    )
    .await;
    assert_eq!(status_of(&response), "400", "{response}");
    let big = format!(
        "GET / HTTP/1.1\r\nHost: x\r\nX-Big: {}\r\n\r\n",
        "y".repeat(4096)
    );
    let response = raw_exchange(gateway.addr, big.as_bytes(), Duration::from_secs(5)).await;
    assert_eq!(status_of(&response), "431", "{response}");
    // Half a head, then nothing: closed after header_timeout.
    let _ = raw_exchange(
        gateway.addr,
        b"GET / HTTP/1.1\r\nHo",
        Duration::from_secs(5),
    )
    .await;
    wait_for_status_count(&gateway, 400, 1, Duration::from_secs(5)).await;
    wait_for_status_count(&gateway, 431, 1, Duration::from_secs(5)).await;
    wait_for_status_count(&gateway, 408, 1, Duration::from_secs(5)).await;
    wait_for(
        "the 400, 431 and 408 lines in the access log",
        Duration::from_secs(5),
        || std::fs::read_to_string(&log).unwrap_or_default(),
        |text| {
            ["\"-\" 400 0", "\"-\" 431 0", "\"-\" 408 0"]
                .iter()
                .all(|line| text.contains(line))
        },
    )
    .await;
}

/// Requests whose framing a proxy and the server behind it could read differently get 400
/// (501 for an unknown transfer coding) and the connection closes after the answer, so the
/// bytes after them are never read as a request; none reaches the upstream.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ambiguous_framing_is_refused_and_closes_the_connection() {
    let (upstream, lines) = line_recording_upstream().await;
    let gateway = TestGateway::start(&config(&upstream.to_string(), "", "")).await;
    let smuggled = "GET /smuggled HTTP/1.1\r\nHost: x\r\n\r\n";
    let cases: &[(&str, &str)] = &[
        (
            "Content-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
            "400",
        ),
        (
            "Transfer-Encoding: chunked\r\nContent-Length: 40\r\n\r\n0\r\n\r\n",
            "400",
        ),
        (
            "Content-Length: 5\r\nContent-Length: 6\r\n\r\nhello!",
            "400",
        ),
        ("Content-Length: 5\r\nContent-Length: 5\r\n\r\nhello", "400"),
        ("Content-Length: +5\r\n\r\nhello", "400"),
        ("Content-Length : 5\r\n\r\nhello", "400"),
        (" Content-Length: 5\r\n\r\nhello", "400"),
        (
            "Transfer-Encoding: chunked, chunked\r\n\r\n0\r\n\r\n",
            "400",
        ),
        ("Transfer-Encoding: xchunked\r\n\r\n0\r\n\r\n", "501"),
        ("Transfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n", "501"),
        (
            "Transfer-Encoding: chunked\r\n\r\n5\nhello\r\n0\r\n\r\n",
            "400",
        ),
        (
            "Transfer-Encoding: chunked\r\n\r\n5\r\nhelloXX\r\n0\r\n\r\n",
            "400",
        ),
        (
            "Transfer-Encoding: chunked\r\n\r\n5;a\nb\r\nhello\r\n0\r\n\r\n",
            "400",
        ),
        (
            "Transfer-Encoding: chunked\r\n\r\nfffffffffffffffff\r\nhello\r\n0\r\n\r\n",
            "400",
        ),
    ];
    for (rest, status) in cases {
        let raw = format!("POST / HTTP/1.1\r\nHost: x\r\n{rest}{smuggled}");
        let response = raw_exchange(gateway.addr, raw.as_bytes(), Duration::from_secs(5)).await;
        assert_eq!(status_of(&response), *status, "{rest:?}: {response}");
        assert_eq!(
            response.matches("HTTP/1.1 ").count(),
            1,
            "{rest:?}: more than one answer: {response}"
        );
    }
    let raw = format!(
        "POST / HTTP/1.0\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n{smuggled}"
    );
    let response = raw_exchange(gateway.addr, raw.as_bytes(), Duration::from_secs(5)).await;
    assert_eq!(status_of(&response), "400", "HTTP/1.0 with TE: {response}");
    let lines = lines.lock().unwrap().clone();
    assert!(
        lines.iter().all(|line| !line.contains("smuggled")),
        "smuggled: {lines:?}"
    );
    // Chunk framing errors are found while the body streams; everything else before any
    // upstream work.
    assert!(lines.len() <= 4, "reached the upstream: {lines:?}");
}

/// `Host: admin.test.` names the same host as `admin.test` (one trailing dot: the fully
/// qualified form, which nginx strips in `ngx_http_validate_host`), so it must take the host's
/// route, not pass it for the host-less catch-all.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_trailing_dot_in_host_takes_the_route_of_the_host() {
    let upstream = UpstreamServer::start(Transport::Tcp).await;
    let gateway = TestGateway::start(&format!(
        r#"
[server]
listen = ["127.0.0.1:0"]

[upstreams.app]
servers = ["{}"]

[[routes]]
host = "admin.test"
status = 403

[[routes]]
path = "/"
upstream = "app"
"#,
        upstream.address
    ))
    .await;
    for host in ["admin.test", "admin.test.", "ADMIN.test.:8080"] {
        let head = format!("GET /headers HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n");
        let response = raw_exchange(gateway.addr, head.as_bytes(), Duration::from_secs(5)).await;
        assert_eq!(status_of(&response), "403", "{host:?}: {response}");
    }
    assert_eq!(upstream.requests(), 0, "no request passed the host's route");
    let response = raw_exchange(
        gateway.addr,
        b"GET /headers HTTP/1.1\r\nHost: other.test.\r\nConnection: close\r\n\r\n",
        Duration::from_secs(5),
    )
    .await;
    assert_eq!(status_of(&response), "200", "{response}");
}
