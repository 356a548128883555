//! HTTP/2 clients that hold what they should not, and HTTP/2 to the HTTP/1.1 upstream (issue
//! 16): a stream at a zero window; RFC 9113's cookie crumbs, which go upstream as one line. The
//! clients are the `h2` crate and raw frames over real TLS connections (the helpers of the `tls`
//! module).

use bytes::Bytes;

use crate::support::*;
use crate::tls::{certificate_tables, connect_tls, still_served, Pki};

/// A gateway with a TLS listener in front of `upstream`; `server_extra` goes into `[server]`,
/// `upstream_extra` into `[upstreams.app]`. The spool is a
/// directory of the test's own (made by the gateway, mode 0700).
fn config(
    upstream: &str,
    pki: &Pki,
    spool: &std::path::Path,
    server_extra: &str,
    upstream_extra: &str,
) -> String {
    let files = [pki.issue(&["app.test", "127.0.0.1"])];
    format!(
        r#"
[server]
listen = ["127.0.0.1:0"]
shutdown_grace = "5s"
spool_dir = "{spool}"
{server_extra}

[upstreams.app]
servers = ["{upstream}"]
{upstream_extra}

[[routes]]
path = "/"
upstream = "app"

[tls]
listen = ["127.0.0.1:0"]

{certificates}
"#,
        spool = spool.display(),
        certificates = certificate_tables(&files)
    )
}

/// An upstream, and a gateway in front of it with these extra lines.
struct Setup {
    pki: Pki,
    upstream: UpstreamServer,
    gateway: TestGateway,
    _spool: tempfile::TempDir,
}

impl Setup {
    async fn start(server_extra: &str, upstream_extra: &str) -> Setup {
        let pki = Pki::new();
        let spool = tempfile::tempdir().unwrap();
        let upstream = UpstreamServer::start(Transport::Tcp).await;
        let gateway = TestGateway::start(&config(
            &upstream.address,
            &pki,
            &spool.path().join("spool"),
            server_extra,
            upstream_extra,
        ))
        .await;
        Setup {
            pki,
            upstream,
            gateway,
            _spool: spool,
        }
    }

    fn tls(&self) -> std::net::SocketAddr {
        self.gateway.tls_addr.expect("a TLS listener")
    }
}

/// Polls `done` every 10 ms until it holds, failing with `what` after `within`.
async fn wait_for(what: &str, within: Duration, mut done: impl FnMut() -> bool) {
    let deadline = tokio::time::Instant::now() + within;
    while !done() {
        assert!(tokio::time::Instant::now() < deadline, "{what}");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// A client that opens no window (SETTINGS_INITIAL_WINDOW_SIZE = 0) and asks for a body larger
/// than read-ahead holds: after `send_timeout` with no frame taken, the stream is reset and the
/// upstream connection, its pool place (the only one), the read-ahead memory and the spool file
/// are given back, so another client is served. nginx arms `send_timeout` on flow-controlled
/// streams too.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stream_at_a_zero_window_is_reset_after_send_timeout_and_gives_back_what_it_held() {
    let setup = Setup::start(
        "send_timeout = \"1s\"",
        "max_connections = 1\nqueue_timeout = \"1s\"",
    )
    .await;
    let stream = connect_tls(setup.tls(), setup.pki.client_config(&[b"h2"]), "app.test")
        .await
        .unwrap();
    let (client, connection) = h2::client::Builder::new()
        .initial_window_size(0)
        .handshake::<_, Bytes>(stream)
        .await
        .unwrap();
    tokio::spawn(connection);
    let mut client = client.ready().await.unwrap();
    let request = Request::get(format!("https://app.test/big?bytes={}", 64 << 20))
        .body(())
        .unwrap();
    let (response, _) = client.send_request(request, true).unwrap();
    // HEADERS are not flow-controlled: the head comes, and no DATA after it.
    let response = response.await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    // The upstream runs ahead into read-ahead's memory and spool file, and holds its connection.
    wait_for("read-ahead never filled", Duration::from_secs(10), || {
        let stats = setup.gateway.handle.buffer_stats();
        stats.spooled > 0 && stats.read_ahead > 0
    })
    .await;
    let mut body = response.into_body();
    let ended = tokio::time::timeout(Duration::from_secs(10), body.data())
        .await
        .expect("the gateway resets a stream that took no frame for send_timeout");
    let error = ended
        .expect("the stream ends with an error")
        .expect_err("no DATA at a zero window");
    assert_eq!(error.reason(), Some(h2::Reason::CANCEL), "{error:?}");
    setup
        .gateway
        .wait_pools_quiet(Duration::from_secs(10))
        .await;
    wait_for(
        "read-ahead memory and spool still held",
        Duration::from_secs(10),
        || {
            let stats = setup.gateway.handle.buffer_stats();
            stats.spooled == 0 && stats.read_ahead == 0
        },
    )
    .await;
    // The pool's one place is free for another client.
    still_served(setup.tls(), &setup.pki).await;
}

/// A download that the client reads at its own pace (a window's worth at a time, with pauses
/// under `send_timeout`) is neither reset by the stall timer nor cut by `keepalive_timeout`,
/// though it lasts longer than both.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slow_download_that_keeps_moving_is_not_cut() {
    let setup = Setup::start("send_timeout = \"1s\"\nkeepalive_timeout = \"1s\"", "").await;
    let stream = connect_tls(setup.tls(), setup.pki.client_config(&[b"h2"]), "app.test")
        .await
        .unwrap();
    let (client, connection) = h2::client::Builder::new()
        .initial_window_size(64 * 1024)
        .initial_connection_window_size(64 * 1024)
        .handshake::<_, Bytes>(stream)
        .await
        .unwrap();
    let connection = tokio::spawn(connection);
    let mut client = client.ready().await.unwrap();
    let size = 512 * 1024;
    let request = Request::get(format!("https://app.test/big?bytes={size}"))
        .body(())
        .unwrap();
    let (response, _) = client.send_request(request, true).unwrap();
    let mut body = response.await.unwrap().into_body();
    let mut received = 0;
    let mut unreleased = 0;
    while let Some(data) = body.data().await {
        let data = data.unwrap_or_else(|error| panic!("cut after {received} bytes: {error:?}"));
        assert!(data.iter().all(|byte| *byte == b'x'));
        received += data.len();
        unreleased += data.len();
        if unreleased >= 32 * 1024 {
            // The client's pace, not a wait for a state: a quarter of send_timeout between two
            // half windows, so the stream is slow but never stalled; in all, the download lasts
            // several keepalive_timeouts.
            tokio::time::sleep(Duration::from_millis(250)).await;
            body.flow_control().release_capacity(unreleased).unwrap();
            unreleased = 0;
        }
    }
    assert_eq!(received, size);
    // Idle now: keepalive_timeout closes the connection (GOAWAY, then the end).
    drop(client);
    drop(body);
    tokio::time::timeout(Duration::from_secs(10), connection)
        .await
        .expect("the idle connection is closed")
        .unwrap()
        .ok();
}

/// RFC 9113 §8.2.3: a client may split `cookie` into one field per crumb; before the request goes
/// to HTTP/1.1 they are joined with "; " into one line, as nginx does. Two `cookie` lines would
/// reach the app as one header joined with ", " (Gunicorn), which cookie parsers misread.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn split_cookie_fields_reach_the_upstream_as_one_line() {
    let setup = Setup::start("", "").await;
    let stream = connect_tls(setup.tls(), setup.pki.client_config(&[b"h2"]), "app.test")
        .await
        .unwrap();
    let (client, connection) = h2::client::handshake(stream).await.unwrap();
    tokio::spawn(connection);
    let mut client = client.ready().await.unwrap();
    let request = Request::get("https://app.test/headers")
        .header("cookie", "session=abc")
        .header("x-other", "between")
        .header("cookie", "csrf=xyz")
        .header("cookie", "theme=dark")
        .body(())
        .unwrap();
    let (response, _) = client.send_request(request, true).unwrap();
    let response = response.await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let mut body = response.into_body();
    let mut head = Vec::new();
    while let Some(data) = body.data().await {
        let data = data.unwrap();
        body.flow_control().release_capacity(data.len()).unwrap();
        head.extend_from_slice(&data);
    }
    let head = String::from_utf8(head).unwrap();
    let cookies: Vec<&str> = head
        .lines()
        .filter(|line| line.starts_with("cookie:"))
        .collect();
    assert_eq!(
        cookies,
        ["cookie: session=abc; csrf=xyz; theme=dark"],
        "{head}"
    );
    assert_eq!(setup.upstream.requests(), 1);
}
