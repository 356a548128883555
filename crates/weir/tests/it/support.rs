//! Helpers shared by the test modules.

pub use std::time::Duration;

pub use http::{Method, Request, StatusCode};
pub use weir_testkit::{
    raw_exchange, wait_for, wait_until, wait_until_async, Client, FlakyUpstream, TestGateway,
    Transport, UpstreamServer,
};

/// Runs `$body` once with a TCP upstream and once with a Unix-socket upstream; inside, the
/// transport is bound to `$transport`.
macro_rules! both_transports {
    ($name:ident, |$transport:ident| $body:block) => {
        mod $name {
            #[allow(unused_imports)] // reason: not every body uses every helper
            use super::*;

            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn tcp() {
                let $transport = Transport::Tcp;
                $body
            }

            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn unix() {
                let $transport = Transport::Unix;
                $body
            }
        }
    };
}
pub(crate) use both_transports;

/// Sends `GET path` on a connection of its own, in a task: its status.
pub fn spawn_get(
    addr: std::net::SocketAddr,
    path: impl Into<String>,
) -> tokio::task::JoinHandle<StatusCode> {
    let path = path.into();
    tokio::spawn(async move { Client::connect(addr).await.get(&path).await.status })
}

/// Opens a WebSocket tunnel through the gateway to a [`weir_testkit::Script::SwitchAndEcho`]
/// upstream: the 101 came, and a first message is echoed.
pub async fn open_tunnel(gateway: std::net::SocketAddr) -> tokio::net::TcpStream {
    use tokio::io::AsyncWriteExt;

    let mut tunnel = tokio::net::TcpStream::connect(gateway).await.unwrap();
    tunnel
        .write_all(
            b"GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
              Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n",
        )
        .await
        .unwrap();
    let head = read_to_marker(&mut tunnel, b"\r\n\r\n").await;
    assert!(
        head.starts_with(b"HTTP/1.1 101"),
        "{}",
        String::from_utf8_lossy(&head)
    );
    ping_through(&mut tunnel).await;
    tunnel
}

/// Reads until `end` has come, within 5 s; what was read.
pub async fn read_to_marker(stream: &mut tokio::net::TcpStream, end: &[u8]) -> Vec<u8> {
    use tokio::io::AsyncReadExt;

    let mut read = Vec::new();
    let mut byte = [0u8; 1];
    while !read.ends_with(end) {
        let count = tokio::time::timeout(Duration::from_secs(5), stream.read(&mut byte))
            .await
            .expect("the bytes arrive in time")
            .unwrap();
        assert!(
            count > 0,
            "closed early: {}",
            String::from_utf8_lossy(&read)
        );
        read.push(byte[0]);
    }
    read
}

/// Sends `ping` through an open tunnel to an echoing upstream and reads it back, within 5 s.
pub async fn ping_through(tunnel: &mut tokio::net::TcpStream) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    tunnel.write_all(b"ping").await.unwrap();
    let mut echoed = [0u8; 4];
    tokio::time::timeout(Duration::from_secs(5), tunnel.read_exact(&mut echoed))
        .await
        .expect("echo in time")
        .unwrap();
    assert_eq!(&echoed, b"ping");
}

/// `GET path`, for `host` when one is given (else the client names the gateway's address),
/// with `Authorization: VALUE` when one is given.
pub fn get_with(
    host: Option<&str>,
    path: &str,
    authorization: Option<&str>,
) -> Request<http_body_util::Full<bytes::Bytes>> {
    let mut request = Request::get(path);
    if let Some(host) = host {
        request = request.header("host", host);
    }
    if let Some(value) = authorization {
        request = request.header("authorization", value);
    }
    request.body(Default::default()).expect("valid request")
}

/// `GET path` for `host`, with each of `headers` that has a value.
pub fn get_with_headers(
    host: &str,
    path: &str,
    headers: &[(&str, Option<&str>)],
) -> Request<http_body_util::Full<bytes::Bytes>> {
    let mut request = Request::get(path).header("host", host);
    for (name, value) in headers {
        if let Some(value) = value {
            request = request.header(*name, *value);
        }
    }
    request.body(Default::default()).expect("valid request")
}

/// The values of the header `name` in `reply`, joined as one list (`a, b`); `None` when it has
/// none.
pub fn header_list(reply: &weir_testkit::Reply, name: &str) -> Option<String> {
    let values: Vec<&str> = reply
        .headers
        .get_all(name)
        .iter()
        .map(|value| value.to_str().expect("a visible-ASCII header"))
        .collect();
    (!values.is_empty()).then(|| values.join(", "))
}

/// An `Authorization: Basic` value for `user` and `password`.
pub fn basic(user: &str, password: &str) -> String {
    use base64::Engine as _;
    format!(
        "Basic {}",
        base64::engine::general_purpose::STANDARD.encode(format!("{user}:{password}"))
    )
}

/// A GET of `path` with no body, for [`Client::send`].
pub fn get_request(path: &str) -> Request<http_body_util::Full<bytes::Bytes>> {
    Request::builder()
        .uri(path)
        .body(http_body_util::Full::new(bytes::Bytes::new()))
        .expect("valid request")
}

/// A config with one upstream `app` at `server` and one route `/` to it. `server_extra` lines go
/// into `[server]`, `upstream_extra` lines into `[upstreams.app]`.
pub fn config(server: &str, server_extra: &str, upstream_extra: &str) -> String {
    format!(
        r#"
[server]
listen = ["127.0.0.1:0"]
shutdown_grace = "5s"
{server_extra}

[upstreams.app]
servers = ["{server}"]
{upstream_extra}

[[routes]]
path = "/"
upstream = "app"
"#
    )
}

/// An upstream and a gateway in front of it.
pub async fn start(
    transport: Transport,
    server_extra: &str,
    upstream_extra: &str,
) -> (UpstreamServer, TestGateway) {
    let upstream = UpstreamServer::start(transport).await;
    let gateway =
        TestGateway::start(&config(&upstream.address, server_extra, upstream_extra)).await;
    (upstream, gateway)
}

/// Sums `weir_requests_total` samples whose labels include `status="STATUS"`.
pub fn requests_with_status(gateway: &TestGateway, status: u16) -> u64 {
    let wanted = format!("status=\"{status}\"");
    gateway
        .handle
        .render_metrics()
        .lines()
        .filter(|line| line.starts_with("weir_requests_total{") && line.contains(&wanted))
        .filter_map(|line| line.rsplit(' ').next()?.parse::<f64>().ok())
        .sum::<f64>() as u64
}

/// Where a test's rate-limit state lives: in memory, or in a `redis-server` of the test's own.
pub enum LimitBackend {
    Memory,
    Redis(weir_testkit::redis::RedisServer),
}

impl LimitBackend {
    /// Starts a fresh `redis-server` on a free port.
    pub fn redis() -> LimitBackend {
        LimitBackend::Redis(weir_testkit::redis::RedisServer::start().expect("redis-server starts"))
    }

    /// Waits until the limits of `gateway` have made `calls` Redis calls at least and Redis has
    /// run every one: a call made in the background (a refund) has then taken effect. Nothing to
    /// wait for in memory, where a refund takes effect at once.
    pub async fn wait_redis_calls(&self, gateway: &TestGateway, calls: u64) {
        let LimitBackend::Redis(server) = self else {
            return;
        };
        wait_for(
            format!("{calls} Redis calls made and run"),
            Duration::from_secs(5),
            || {
                let made = redis_calls(gateway);
                (made, server.scripts_run().expect("INFO commandstats"))
            },
            |(made, run)| *made >= calls && run >= made,
        )
        .await;
    }

    /// The backend lines of a `[limits.NAME]` table. Redis gets a generous `redis_timeout`: on a
    /// loaded test machine the 50 ms default could turn a slow answer into `on_redis_error`, and
    /// these tests are about the limit, not about failures (`ratelimit::redis_failure` is).
    pub fn toml(&self) -> String {
        match self {
            LimitBackend::Memory => r#"backend = "memory""#.to_string(),
            LimitBackend::Redis(server) => format!(
                "backend = \"redis\"\nredis = \"{}\"\nredis_timeout = \"5s\"",
                server.url()
            ),
        }
    }
}

/// Redis calls the limits of `gateway` have made that did not fail (zero for memory limits).
pub fn redis_calls(gateway: &TestGateway) -> u64 {
    gateway
        .handle
        .limiter_stats()
        .iter()
        .map(|(_, stats)| stats.redis_calls - stats.redis_errors)
        .sum()
}

/// Runs `$body` once with the memory backend and once with a Redis backend on a fresh
/// `redis-server`; inside, the backend is bound to `$backend` (a [`LimitBackend`]).
macro_rules! both_backends {
    ($name:ident, |$backend:ident| $body:block) => {
        mod $name {
            #[allow(unused_imports)] // reason: not every body uses every helper
            use super::*;

            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn memory() {
                let $backend = LimitBackend::Memory;
                $body
            }

            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn redis() {
                let $backend = LimitBackend::redis();
                $body
            }
        }
    };
}
pub(crate) use both_backends;

/// A TCP address on loopback where a connection is refused, for as long as this lives: a socket
/// bound to a port and never listening (Linux answers a connection to it with a reset). A port
/// bound and let go would do only until another test's server or client took it; held, neither
/// can.
pub struct RefusingPort {
    pub address: String,
    _socket: tokio::net::TcpSocket,
}

impl RefusingPort {
    pub fn new() -> RefusingPort {
        let socket = tokio::net::TcpSocket::new_v4().expect("a socket");
        socket
            .bind("127.0.0.1:0".parse().expect("an address"))
            .expect("bind port 0");
        let address = socket.local_addr().expect("its address").to_string();
        RefusingPort {
            address,
            _socket: socket,
        }
    }
}

/// Whether the differential tests against nginx run: `WEIR_E2E=1` and nginx installed.
pub fn differential_enabled() -> bool {
    if std::env::var("WEIR_E2E").is_ok_and(|value| value == "1") && weir_testkit::nginx::available()
    {
        return true;
    }
    eprintln!("skipped: set WEIR_E2E=1 (and install nginx-light) to run the differential tests");
    false
}
