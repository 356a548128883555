//! HTTP/2 clients that hold what they should not (issue 16): a stream at a zero window, an idle
//! connection that never acknowledges the PING of a graceful shutdown, a connection that sends
//! the preface or half a header block and then nothing; and RFC 9113's cookie crumbs, which go to
//! the HTTP/1.1 upstream as one line. The clients are the `h2` crate and raw frames over real TLS
//! connections (the helpers of the `tls` module).

use bytes::Bytes;

use crate::support::*;
use crate::tls::{
    certificate_tables, connect_tls, h2_request, h2_sender, still_served, Pki, RawH2, NO_ERROR,
};

/// A gateway with a TLS listener in front of `upstream`; `server_extra` goes into `[server]`,
/// `upstream_extra` into `[upstreams.app]` (`shutdown_grace` is 5 s unless `server_extra` sets it). The spool is a
/// directory of the test's own (made by the gateway, mode 0700).
fn config(
    upstream: &str,
    pki: &Pki,
    spool: &std::path::Path,
    server_extra: &str,
    upstream_extra: &str,
) -> String {
    let files = [pki.issue(&["app.test", "127.0.0.1"])];
    let grace = if server_extra.contains("shutdown_grace") {
        ""
    } else {
        "shutdown_grace = \"5s\""
    };
    format!(
        r#"
[server]
listen = ["127.0.0.1:0"]
{grace}
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

/// A gateway with a TLS listener in front of the server at `upstream`, with [`config`]'s extra
/// lines; its PKI, and the temp dir that holds its spool (kept for the test's length).
async fn tls_gateway(
    upstream: &str,
    server_extra: &str,
    upstream_extra: &str,
) -> (Pki, tempfile::TempDir, TestGateway) {
    let pki = Pki::new();
    let spool = tempfile::tempdir().unwrap();
    let gateway = TestGateway::start(&config(
        upstream,
        &pki,
        &spool.path().join("spool"),
        server_extra,
        upstream_extra,
    ))
    .await;
    (pki, spool, gateway)
}

impl Setup {
    async fn start(server_extra: &str, upstream_extra: &str) -> Setup {
        let upstream = UpstreamServer::start(Transport::Tcp).await;
        let (pki, spool, gateway) =
            tls_gateway(&upstream.address, server_extra, upstream_extra).await;
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

/// `GET https://app.test{path}` as an HPACK block: `:method GET`, `:scheme https` (indexed),
/// `:path` and `:authority` as literals without indexing.
fn get_block(path: &str) -> Vec<u8> {
    assert!(path.len() < 127, "one-byte length prefix");
    let mut block = vec![0x82, 0x87, 0x04, path.len() as u8];
    block.extend_from_slice(path.as_bytes());
    block.extend_from_slice(&[0x01, 8]);
    block.extend_from_slice(b"app.test");
    block
}

const HEADERS: u8 = 0x1;
const END_STREAM: u8 = 0x1;
const END_HEADERS: u8 = 0x4;

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
    wait_until("read-ahead to fill", Duration::from_secs(10), || {
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
    wait_until(
        "read-ahead memory and spool to be given back",
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

/// The same with an upstream that sends the head and 100 KB of a 1 MB body, then nothing: when
/// the stall timer resets the stream, read-ahead is waiting on the upstream, not on the client,
/// and must still let the upstream connection go at that moment, not at the upstream's next bytes
/// or at `read_timeout`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reset_stream_lets_go_of_an_upstream_that_stopped_mid_body() {
    let mut reply = b"HTTP/1.1 200 OK\r\ncontent-length: 1000000\r\n\r\n".to_vec();
    reply.extend(std::iter::repeat_n(b'x', 100_000));
    let upstream = weir_testkit::RawUpstream::start(weir_testkit::Script::Reply(reply)).await;
    let (pki, _spool, gateway) = tls_gateway(
        &upstream.address,
        "send_timeout = \"1s\"",
        "read_timeout = \"1h\"",
    )
    .await;
    let tls = gateway.tls_addr.expect("a TLS listener");
    let stream = connect_tls(tls, pki.client_config(&[b"h2"]), "app.test")
        .await
        .unwrap();
    let (client, connection) = h2::client::Builder::new()
        .initial_window_size(0)
        .handshake::<_, Bytes>(stream)
        .await
        .unwrap();
    tokio::spawn(connection);
    let mut client = client.ready().await.unwrap();
    let request = Request::get("https://app.test/").body(()).unwrap();
    let (response, _) = client.send_request(request, true).unwrap();
    let mut body = response.await.unwrap().into_body();
    let ended = tokio::time::timeout(Duration::from_secs(10), body.data())
        .await
        .expect("the gateway resets the stream");
    let error = ended
        .expect("the stream ends with an error")
        .expect_err("no DATA at a zero window");
    assert_eq!(error.reason(), Some(h2::Reason::CANCEL), "{error:?}");
    gateway.wait_pools_quiet(Duration::from_secs(10)).await;
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

/// After `keepalive_timeout` with no stream, weir sends GOAWAY and a PING (hyper's graceful
/// shutdown), then waits for the PING's acknowledgement; a client that never sends it must not
/// keep the connection (and its `max_connections` place) for ever.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_idle_connection_that_never_acknowledges_the_ping_is_closed() {
    let setup = Setup::start("keepalive_timeout = \"1s\"\nsend_timeout = \"1s\"", "").await;
    let mut raw = RawH2::connect(setup.tls(), &setup.pki).await;
    raw.frame(HEADERS, END_STREAM | END_HEADERS, 1, &get_block("/"))
        .await
        .unwrap();
    assert_eq!(raw.goaway().await, Some(NO_ERROR));
    assert_eq!(setup.upstream.requests(), 1);
    still_served(setup.tls(), &setup.pki).await;
}

/// At stop, weir sends GOAWAY and a PING; a client that never acknowledges it is closed once the
/// connection has had no stream for `send_timeout`, rather than holding the gateway's drain for
/// all of `shutdown_grace`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn at_stop_a_connection_that_never_acknowledges_the_ping_does_not_hold_the_drain() {
    let Setup {
        pki,
        upstream,
        gateway,
        _spool,
    } = Setup::start(
        "keepalive_timeout = \"1h\"\nsend_timeout = \"1s\"\nshutdown_grace = \"1h\"",
        "",
    )
    .await;
    let tls = gateway.tls_addr.expect("a TLS listener");
    let mut raw = RawH2::connect(tls, &pki).await;
    raw.frame(HEADERS, END_STREAM | END_HEADERS, 1, &get_block("/"))
        .await
        .unwrap();
    wait_until(
        "the request to reach the upstream",
        Duration::from_secs(10),
        || upstream.requests() == 1,
    )
    .await;
    let stopping = gateway.begin_shutdown();
    assert_eq!(raw.goaway().await, Some(NO_ERROR));
    tokio::time::timeout(Duration::from_secs(10), stopping)
        .await
        .expect("the gateway stops once the connection is closed")
        .unwrap();
}

/// `keepalive_timeout = "0s"` (what `weir import` writes for nginx's `keepalive_timeout 0;`)
/// closes an HTTP/2 connection once its streams are done; it does not mean "never".
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn keepalive_timeout_zero_closes_an_http2_connection_once_its_streams_are_done() {
    let setup = Setup::start("keepalive_timeout = \"0s\"\nsend_timeout = \"1s\"", "").await;
    let mut raw = RawH2::connect(setup.tls(), &setup.pki).await;
    raw.frame(HEADERS, END_STREAM | END_HEADERS, 1, &get_block("/"))
        .await
        .unwrap();
    assert_eq!(raw.goaway().await, Some(NO_ERROR));
    assert_eq!(setup.upstream.requests(), 1);
    // A well-behaved client is answered, then its connection closes.
    let mut sender = h2_sender(setup.tls(), &setup.pki).await;
    let (status, _, body) =
        h2_request(&mut sender, Method::GET, "https://app.test/", Bytes::new()).await;
    assert_eq!((status, &body[..]), (StatusCode::OK, &b"hello"[..]));
    wait_until("the connection to close", Duration::from_secs(10), || {
        sender.is_closed()
    })
    .await;
}

/// HTTP/2's `header_timeout` (nginx's `client_header_timeout` for HTTP/2): a connection that
/// sends the preface and SETTINGS and then nothing, or a header block without its end, is closed,
/// however long `keepalive_timeout` is.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_connection_with_no_complete_request_within_header_timeout_is_closed() {
    let setup = Setup::start(
        "header_timeout = \"1s\"\nkeepalive_timeout = \"1h\"\nsend_timeout = \"1s\"",
        "",
    )
    .await;
    // The preface and SETTINGS, then silence.
    let raw = RawH2::connect(setup.tls(), &setup.pki).await;
    assert_eq!(raw.goaway().await, Some(NO_ERROR));
    // HEADERS without END_HEADERS, and no CONTINUATION.
    let mut raw = RawH2::connect(setup.tls(), &setup.pki).await;
    raw.frame(HEADERS, END_STREAM, 1, &get_block("/"))
        .await
        .unwrap();
    assert_eq!(raw.goaway().await, Some(NO_ERROR));
    // Half a header block after a first request: the first request is answered, and the
    // connection is closed for the second.
    let mut raw = RawH2::connect(setup.tls(), &setup.pki).await;
    raw.frame(HEADERS, END_STREAM | END_HEADERS, 1, &get_block("/"))
        .await
        .unwrap();
    raw.frame(HEADERS, END_STREAM, 3, &get_block("/"))
        .await
        .unwrap();
    assert_eq!(raw.goaway().await, Some(NO_ERROR));
    assert_eq!(setup.upstream.requests(), 1);
    still_served(setup.tls(), &setup.pki).await;
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

/// An HTTP/2 client that cancels a request waiting in the queue of a busy app (its stream reset,
/// as a browser does when its user goes to another page): the request never reaches the app,
/// and its place in the queue is freed at once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_queued_request_whose_stream_the_client_reset_never_reaches_the_app() {
    use weir_testkit::gunicorn::{self, App, Gunicorn};
    if !gunicorn::enabled() {
        eprintln!("skipped: set WEIR_E2E=1 to run the end-to-end tests");
        return;
    }
    let app = Gunicorn::start(App::Overload {
        workers: 1,
        asgi: false,
    });
    let (pki, _spool, gateway) =
        tls_gateway(&app.address, "", "workers = 1\nqueue_timeout = \"30s\"").await;
    let tls = gateway.tls_addr.expect("a TLS listener");
    let sender = h2_sender(tls, &pki).await;
    let mut busy_sender = sender.clone();
    let busy = tokio::spawn(async move {
        let uri = "https://app.test/work?ms=1500&id=busy";
        h2_request(&mut busy_sender, Method::GET, uri, Bytes::new())
            .await
            .0
    });
    wait_until(
        "the busy request to reach the app",
        Duration::from_secs(10),
        || app.seen() == ["busy"],
    )
    .await;
    let mut cancelled_sender = sender.clone();
    let cancelled = tokio::spawn(async move {
        let uri = "https://app.test/work?ms=1&id=cancelled";
        h2_request(&mut cancelled_sender, Method::GET, uri, Bytes::new())
            .await
            .0
    });
    wait_until(
        "the second request to queue",
        Duration::from_secs(10),
        || gateway.handle.pool_stats()[0].2.waiting == 1,
    )
    .await;
    // Dropping the response future resets the stream (RST_STREAM CANCEL).
    cancelled.abort();
    wait_until(
        "the reset request to leave the queue",
        Duration::from_secs(5),
        || gateway.handle.pool_stats()[0].2.waiting == 0,
    )
    .await;
    assert!(
        !busy.is_finished(),
        "the queue emptied before the worker was free"
    );
    assert_eq!(busy.await.unwrap(), StatusCode::OK);
    let mut after_sender = sender.clone();
    let after = h2_request(
        &mut after_sender,
        Method::GET,
        "https://app.test/work?ms=1&id=after",
        Bytes::new(),
    )
    .await
    .0;
    assert_eq!(after, StatusCode::OK);
    assert_eq!(app.seen(), ["busy", "after"]);
    gateway.wait_pools_quiet(Duration::from_secs(5)).await;
}
