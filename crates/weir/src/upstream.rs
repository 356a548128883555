//! Upstream servers: their addresses, and (in `pool.rs`) the pool of connections towards each.

use std::fmt;
use std::net::SocketAddr;
use std::path::PathBuf;

/// Where an upstream server listens: a TCP address or a Unix socket path.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum UpstreamAddr {
    Tcp(SocketAddr),
    Unix(PathBuf),
}

impl fmt::Display for UpstreamAddr {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UpstreamAddr::Tcp(addr) => write!(formatter, "{addr}"),
            UpstreamAddr::Unix(path) => write!(formatter, "unix:{}", path.display()),
        }
    }
}

impl std::str::FromStr for UpstreamAddr {
    type Err = String;

    /// Parses `unix:/path/app.sock` or `IP:PORT` (`[::1]:8000` for IPv6).
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        if let Some(path) = text.strip_prefix("unix:") {
            if path.is_empty() {
                return Err("a Unix socket needs a path, as in \"unix:/run/app.sock\"".to_string());
            }
            return Ok(UpstreamAddr::Unix(PathBuf::from(path)));
        }
        text.parse::<SocketAddr>().map(UpstreamAddr::Tcp).map_err(|_| {
            format!("{text:?} is neither \"unix:/path/app.sock\" nor \"IP:PORT\" such as \"127.0.0.1:8000\"")
        })
    }
}

mod connect;
pub mod pool;

use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use bytes::Bytes;
use http::{header, Method, Request, Response};
use http_body::{Frame, SizeHint};
use hyper::body::Incoming;
use tokio::time::Sleep;

use crate::body::{BodyTooLarge, BoxError, RequestBody};
use crate::config::UpstreamConfig;
use crate::error::ProxyError;
pub use pool::{Checkout, Conn, Pool, PoolSettings, PoolStats};

/// A named group of upstream servers, each with its own pool, balanced round-robin.
pub struct Upstream {
    name: String,
    pools: Vec<Arc<Pool>>,
    next: AtomicUsize,
    connect_timeout: Duration,
    read_timeout: Duration,
    send_timeout: Duration,
    keepalive: bool,
}

/// What a request needs to be sent again on a fresh connection: only requests that are safe to
/// repeat (idempotent method, no body) keep one.
struct Replay {
    method: Method,
    uri: http::Uri,
    headers: http::HeaderMap,
}

impl Replay {
    fn of(request: &Request<RequestBody>) -> Option<Replay> {
        let repeatable = matches!(
            *request.method(),
            Method::GET
                | Method::HEAD
                | Method::OPTIONS
                | Method::PUT
                | Method::DELETE
                | Method::TRACE
        );
        let bodiless = matches!(request.body(), RequestBody::Full(None));
        (repeatable && bodiless).then(|| Replay {
            method: request.method().clone(),
            uri: request.uri().clone(),
            headers: request.headers().clone(),
        })
    }

    fn build(self) -> Request<RequestBody> {
        let mut request = Request::new(RequestBody::Full(None));
        *request.method_mut() = self.method;
        *request.uri_mut() = self.uri;
        *request.headers_mut() = self.headers;
        request
    }
}

impl Upstream {
    /// Builds the group and its pools. Must run inside a tokio runtime (pools start a reaper).
    pub fn new(name: &str, config: &UpstreamConfig) -> Upstream {
        let settings = PoolSettings {
            max_connections: config.max_connections,
            max_idle: config.max_idle,
            idle_timeout: config.idle_timeout,
            queue_size: config.queue_size,
            queue_timeout: config.queue_timeout,
        };
        Upstream {
            name: name.to_string(),
            pools: config
                .servers
                .iter()
                .map(|addr| Pool::new(addr.clone(), settings.clone()))
                .collect(),
            next: AtomicUsize::new(0),
            connect_timeout: config.connect_timeout,
            read_timeout: config.read_timeout,
            send_timeout: config.send_timeout,
            keepalive: config.max_idle > 0,
        }
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    pub fn pools(&self) -> &[Arc<Pool>] {
        &self.pools
    }

    /// Whether connections are kept alive between requests (`max_idle > 0`).
    /// nginx `proxy_read_timeout`; also the idle timeout of an upgraded (WebSocket) connection.
    pub fn read_timeout(&self) -> Duration {
        self.read_timeout
    }

    pub fn keepalive(&self) -> bool {
        self.keepalive
    }

    fn pick(&self) -> &Arc<Pool> {
        let index = self.next.fetch_add(1, Ordering::Relaxed) % self.pools.len();
        &self.pools[index]
    }

    /// Sends `request` to the next server and returns its response head with a body that gives
    /// the connection back to the pool once read to the end. A reused connection that turns out
    /// stale is retried once on a fresh one when nothing was sent, or when the request is safe to
    /// repeat.
    pub async fn send(
        &self,
        mut request: Request<RequestBody>,
    ) -> Result<Response<UpstreamBody>, ProxyError> {
        let pool = self.pick();
        let mut replay = Replay::of(&request);
        let mut fresh = false;
        loop {
            let mut conn = match pool.checkout(fresh).await? {
                Checkout::Reused(mut conn) => {
                    if conn.sender.ready().await.is_err() {
                        // Closed while idle: drop it and take the next.
                        continue;
                    }
                    conn
                }
                Checkout::Connect(slot) => {
                    let sender =
                        connect::connect(pool.addr(), self.connect_timeout, self.send_timeout)
                            .await?;
                    slot.into_conn(sender)
                }
            };
            let sending = conn.sender.try_send_request(request);
            let error = match tokio::time::timeout(self.read_timeout, sending).await {
                Ok(Ok(response)) => return Ok(self.wrap(response, conn)),
                Ok(Err(error)) => error,
                Err(_elapsed) => {
                    return Err(ProxyError::ReadTimeout {
                        addr: pool.addr().clone(),
                    })
                }
            };
            let mut error = error;
            let unsent = error.take_message();
            let error = error.into_error();
            if conn.reused && !fresh {
                if let Some(unsent) = unsent {
                    tracing::debug!(upstream = %pool.addr(), %error, "stale connection, request unsent: retrying");
                    request = unsent;
                    fresh = true;
                    continue;
                }
                if let Some(replay) = replay.take() {
                    tracing::debug!(upstream = %pool.addr(), %error, "stale connection: retrying a repeatable request");
                    request = replay.build();
                    fresh = true;
                    continue;
                }
            }
            return Err(classify(pool.addr(), error));
        }
    }

    fn wrap(&self, response: Response<Incoming>, conn: Conn) -> Response<UpstreamBody> {
        let reusable = self.keepalive && !wants_close(&response);
        let (parts, incoming) = response.into_parts();
        let mut body = UpstreamBody {
            incoming,
            conn: Some(conn),
            reusable,
            read_timeout: self.read_timeout,
            deadline: None,
        };
        if http_body::Body::is_end_stream(&body.incoming) {
            body.finish();
        }
        Response::from_parts(parts, body)
    }
}

/// Whether the upstream announced that it closes the connection after this response.
fn wants_close(response: &Response<Incoming>) -> bool {
    let closes = response
        .headers()
        .get_all(header::CONNECTION)
        .iter()
        .any(|value| value.as_bytes().eq_ignore_ascii_case(b"close"));
    // After a 101 the connection belongs to the upgraded protocol, never to the pool.
    closes
        || response.version() < http::Version::HTTP_11
        || response.status() == http::StatusCode::SWITCHING_PROTOCOLS
}

/// Maps a failed exchange to its cause: our own body limit, the client going away, a write that
/// timed out, or the upstream failing.
fn classify(addr: &UpstreamAddr, error: hyper::Error) -> ProxyError {
    let mut source = std::error::Error::source(&error);
    while let Some(cause) = source {
        if let Some(too_large) = cause.downcast_ref::<BodyTooLarge>() {
            return ProxyError::BodyTooLarge {
                limit: too_large.limit,
            };
        }
        if cause.is::<hyper::Error>() {
            // Only the client's body stream carries a hyper error inside the upstream's error:
            // the client went away or sent a broken body mid-request.
            return ProxyError::ClientGone;
        }
        if let Some(io_error) = cause.downcast_ref::<std::io::Error>() {
            if io_error.kind() == std::io::ErrorKind::TimedOut {
                return ProxyError::SendTimeout { addr: addr.clone() };
            }
        }
        source = cause.source();
    }
    ProxyError::Upstream {
        addr: addr.clone(),
        source: error,
    }
}

/// The upstream's response body, streamed to the client. At its end the connection goes back to
/// the pool; if it is dropped early or fails, the connection is closed and its slot freed.
pub struct UpstreamBody {
    incoming: Incoming,
    conn: Option<Conn>,
    reusable: bool,
    read_timeout: Duration,
    deadline: Option<Pin<Box<Sleep>>>,
}

/// The upstream sent no body bytes for `read_timeout`.
#[derive(Debug, thiserror::Error)]
#[error("upstream sent nothing for read_timeout")]
pub struct BodyReadTimeout;

impl UpstreamBody {
    fn finish(&mut self) {
        if let Some(conn) = self.conn.take() {
            if self.reusable {
                conn.checkin();
            }
        }
    }

    /// The server that answered, while the exchange is still going.
    pub fn upstream_addr(&self) -> Option<&UpstreamAddr> {
        self.conn.as_ref().map(Conn::addr)
    }
}

impl http_body::Body for UpstreamBody {
    type Data = Bytes;
    type Error = BoxError;

    fn poll_frame(
        self: Pin<&mut Self>,
        context: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, BoxError>>> {
        let this = self.get_mut();
        match Pin::new(&mut this.incoming).poll_frame(context) {
            Poll::Ready(Some(Ok(frame))) => {
                this.deadline = None;
                if http_body::Body::is_end_stream(&this.incoming) {
                    this.finish();
                }
                Poll::Ready(Some(Ok(frame)))
            }
            Poll::Ready(None) => {
                this.finish();
                Poll::Ready(None)
            }
            Poll::Ready(Some(Err(error))) => {
                this.conn = None;
                Poll::Ready(Some(Err(Box::new(error))))
            }
            Poll::Pending => {
                let read_timeout = this.read_timeout;
                let deadline = this
                    .deadline
                    .get_or_insert_with(|| Box::pin(tokio::time::sleep(read_timeout)));
                match deadline.as_mut().poll(context) {
                    Poll::Ready(()) => {
                        this.conn = None;
                        Poll::Ready(Some(Err(Box::new(BodyReadTimeout))))
                    }
                    Poll::Pending => Poll::Pending,
                }
            }
        }
    }

    fn is_end_stream(&self) -> bool {
        self.incoming.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.incoming.size_hint()
    }
}
