//! Upstream servers: the group a route sends to ([`Upstream`]), which picks a server
//! (`balance.rs`), watches its health (`health.rs`), moves a failed request on to the next server
//! when that is safe, and keeps a pool of connections towards each (`pool.rs`). A server's address
//! is the config's [`UpstreamAddr`].

mod balance;
mod connect;
pub mod health;
mod outgoing;
pub mod pool;
#[cfg(test)]
mod tests;

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use bytes::Bytes;
use http::{header, Method, Request, Response};
use http_body::{Frame, SizeHint};
use hyper::body::Incoming;
use tokio::time::{Instant, Sleep};

use crate::body::{BodyTooLarge, BoxError, RequestBody};
use crate::config::{UpstreamAddr, UpstreamConfig};
use crate::error::ProxyError;
use balance::{Balancer, InFlight};
use health::{Health, PassiveSettings};
use outgoing::{OutgoingBody, Progress};
pub use pool::{Checkout, Conn, Pool, PoolSettings, PoolStats};

/// A named group of upstream servers, each with its own pool and health, balanced as the
/// config's `balance` says.
pub struct Upstream {
    name: String,
    /// One per server, in the config's order; `health[i]` belongs to `pools[i]`.
    pools: Vec<Arc<Pool>>,
    health: Vec<Arc<Health>>,
    balancer: Balancer,
    connect_timeout: Duration,
    read_timeout: Duration,
    send_timeout: Duration,
    keepalive: bool,
}

/// One server's state, for metrics and the admin endpoints.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServerState {
    pub addr: UpstreamAddr,
    /// Marked down by neither passive nor active health, so the balancer picks it.
    pub healthy: bool,
    /// Down after `max_fails` failures within `fail_timeout` (until a trial request succeeds).
    pub passive_down: bool,
    /// Down after `health_check.fails` failed checks (until `passes` checks pass).
    pub active_down: bool,
    /// Requests in flight to it, counted from the choice of server to the end of the response
    /// body: what `least_outstanding` compares.
    pub outstanding: usize,
    /// Failures counted since start: connect errors and time-outs, exchanges that failed before
    /// a response head, read time-outs.
    pub failures: u64,
    pub pool: PoolStats,
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

    fn build(&self) -> Request<RequestBody> {
        let mut request = Request::new(RequestBody::Full(None));
        *request.method_mut() = self.method.clone();
        *request.uri_mut() = self.uri.clone();
        *request.headers_mut() = self.headers.clone();
        request
    }
}

/// An exchange with one server that did not give a response head.
struct Failed {
    error: ProxyError,
    /// Whether it counts against the server's health (`max_fails`).
    counts: bool,
    retry: Retry,
}

/// Whether a failed request may go to another server.
enum Retry {
    /// No: the client is at fault, the server may still be working on it (read time-out), or
    /// the pool had no room in time.
    No,
    /// Yes, with the request itself: it was never written. Boxed, as failures are rare and the
    /// other variants small.
    Unsent(Box<Request<RequestBody>>),
    /// Only if it is safe to repeat (its [`Replay`]): it may have reached the server.
    IfRepeatable,
}

impl Upstream {
    /// Builds the group, its pools and, with `health_check`, a checker task per server. Must run
    /// inside a tokio runtime (pools start a reaper). `thread_affine`: see
    /// [`PoolSettings::thread_affine`].
    pub fn new(name: &str, config: &UpstreamConfig, thread_affine: bool) -> Upstream {
        let settings = PoolSettings {
            max_connections: config.max_connections,
            max_idle: config.max_idle,
            idle_timeout: config.idle_timeout,
            queue_size: config.queue_size,
            queue_timeout: config.queue_timeout,
            thread_affine,
        };
        let passive = PassiveSettings {
            // As in nginx, a lone server is never marked down: it takes every request anyway.
            max_fails: if config.servers.len() > 1 {
                config.max_fails
            } else {
                0
            },
            fail_timeout: config.fail_timeout,
        };
        let health: Vec<Arc<Health>> = config
            .servers
            .iter()
            .map(|_| Arc::new(Health::new(passive)))
            .collect();
        if let Some(check) = &config.health_check {
            for (addr, server_health) in config.servers.iter().zip(&health) {
                health::spawn_active_check(name, addr.clone(), check.clone(), server_health);
            }
        }
        Upstream {
            name: name.to_string(),
            pools: config
                .servers
                .iter()
                .map(|addr| Pool::new(addr.clone(), settings.clone()))
                .collect(),
            health,
            balancer: Balancer::new(config.balance, config.servers.len()),
            connect_timeout: config.connect_timeout,
            read_timeout: config.read_timeout,
            send_timeout: config.send_timeout,
            keepalive: config.max_idle > 0,
        }
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    /// The servers' pools, in the config's order.
    pub fn pools(&self) -> &[Arc<Pool>] {
        &self.pools
    }

    /// Each server's health, balancing and pool state, in the config's order.
    pub fn server_states(&self) -> Vec<ServerState> {
        self.pools
            .iter()
            .zip(&self.health)
            .enumerate()
            .map(|(index, (pool, health))| ServerState {
                addr: pool.addr().clone(),
                healthy: health.is_healthy(),
                passive_down: health.is_passive_down(),
                active_down: health.is_active_down(),
                outstanding: self.balancer.outstanding(index),
                failures: health.failures(),
                pool: pool.stats(),
            })
            .collect()
    }

    /// Whether connections are kept alive between requests (`max_idle > 0`).
    pub fn keepalive(&self) -> bool {
        self.keepalive
    }

    /// nginx `proxy_read_timeout`; also the idle timeout of an upgraded (WebSocket) connection.
    pub fn read_timeout(&self) -> Duration {
        self.read_timeout
    }

    fn available(&self, now: Instant) -> impl Fn(usize) -> bool + '_ {
        move |index| self.health[index].is_available(now)
    }

    /// Sends `request` to a server chosen by the balancer and returns its response head with a
    /// body that gives the connection back to the pool once read to the end.
    ///
    /// A reused connection that turns out stale is retried once on a fresh one to the same
    /// server when nothing was sent, or when the request is safe to repeat; so is, once, a new
    /// connection to an upstream's only server that it closed before answering (a worker
    /// stopping gracefully).
    /// A server that fails
    /// (connect error or time-out, or an exchange that breaks before the response head) counts
    /// towards its `max_fails`, and the request moves on to the next server, each server tried
    /// at most once: always when the request was never written, otherwise only when it is safe
    /// to repeat (idempotent method, no body). A read time-out is not retried, since the server
    /// may still be working on the request.
    pub async fn send(
        &self,
        request: Request<RequestBody>,
    ) -> Result<Response<UpstreamBody>, ProxyError> {
        let replay = Replay::of(&request);
        let mut request = request;
        let mut index = self.balancer.first(self.available(Instant::now()));
        let mut tried: Vec<bool> = Vec::new();
        loop {
            let health = &self.health[index];
            let pool = &self.pools[index];
            let ticket = health.on_picked(Instant::now());
            let in_flight = self.balancer.start(index);
            let failed = match self
                .exchange(pool, request, replay.as_ref(), self.pools.len() == 1)
                .await
            {
                Ok((response, conn, progress)) => {
                    if health.record_success(ticket) {
                        tracing::info!(upstream = %self.name, server = %pool.addr(), "server answered again: marked up");
                    }
                    return Ok(self.wrap(response, conn, progress, in_flight));
                }
                Err(failed) => failed,
            };
            drop(in_flight);
            if failed.counts && health.record_failure(Instant::now()) {
                tracing::warn!(
                    upstream = %self.name,
                    server = %pool.addr(),
                    error = %failed.error,
                    "server marked down for fail_timeout"
                );
            }
            let retry = match failed.retry {
                Retry::No => None,
                Retry::Unsent(unsent) => Some(*unsent),
                Retry::IfRepeatable => replay.as_ref().map(Replay::build),
            };
            let Some(retry) = retry else {
                return Err(failed.error);
            };
            if tried.is_empty() {
                tried = vec![false; self.pools.len()];
            }
            tried[index] = true;
            let Some(next) = self
                .balancer
                .next(&tried, index, self.available(Instant::now()))
            else {
                return Err(failed.error);
            };
            tracing::debug!(
                upstream = %self.name,
                server = %pool.addr(),
                next = %self.pools[next].addr(),
                error = %failed.error,
                "server failed: trying the next one"
            );
            index = next;
            request = retry;
        }
    }

    /// One server's part of [`Upstream::send`], with the stale-connection retry.
    async fn exchange(
        &self,
        pool: &Arc<Pool>,
        mut request: Request<RequestBody>,
        replay: Option<&Replay>,
        alone: bool,
    ) -> Result<(Response<Incoming>, Conn, Arc<Progress>), Failed> {
        let mut fresh = false;
        let mut closed_retried = false;
        loop {
            let mut conn = match pool.checkout(fresh).await {
                Ok(Checkout::Reused(mut conn)) => {
                    // A pooled connection is idle (its last request body was sent whole, see
                    // `UpstreamBody::finish`), so this answers at once: ready, or closed while
                    // idle, in which case it is dropped and the next taken.
                    if conn.sender.ready().await.is_err() {
                        continue;
                    }
                    conn
                }
                Ok(Checkout::Connect(slot)) => {
                    match connect::connect(pool.addr(), self.connect_timeout, self.send_timeout)
                        .await
                    {
                        Ok(sender) => slot.into_conn(sender),
                        Err(error) => {
                            return Err(Failed {
                                error,
                                counts: true,
                                retry: Retry::Unsent(Box::new(request)),
                            })
                        }
                    }
                }
                // A full queue answers at once, so another server may as well be asked; a queue
                // time-out has already made the client wait.
                Err(error @ ProxyError::QueueFull { .. }) => {
                    return Err(Failed {
                        error,
                        counts: false,
                        retry: Retry::Unsent(Box::new(request)),
                    })
                }
                Err(error) => {
                    return Err(Failed {
                        error,
                        counts: false,
                        retry: Retry::No,
                    })
                }
            };
            let outgoing = request.map(OutgoingBody::new);
            let progress = Arc::clone(outgoing.body().progress());
            let sending = conn.sender.try_send_request(outgoing);
            let error = match tokio::time::timeout(self.read_timeout, sending).await {
                Ok(Ok(response)) => return Ok((response, conn, progress)),
                Ok(Err(error)) => error,
                Err(_elapsed) => {
                    return Err(Failed {
                        error: ProxyError::ReadTimeout {
                            addr: pool.addr().clone(),
                        },
                        counts: true,
                        retry: Retry::No,
                    })
                }
            };
            let mut error = error;
            let unsent = error
                .take_message()
                .map(|unsent| unsent.map(OutgoingBody::into_inner));
            let error = error.into_error();
            // A new connection that the server closed without a word is the other side of a
            // graceful worker restart (Gunicorn's SIGHUP: a worker that accepted the connection
            // stops before reading it). A server with no other beside it is asked once more on
            // another new connection (with others, the next one is asked); the request is
            // still safe to send, since no part of an answer came back.
            let closed_early =
                alone && !conn.reused && !closed_retried && closed_before_answer(&error);
            if closed_early && (unsent.is_some() || replay.is_some()) {
                closed_retried = true;
                tracing::debug!(upstream = %pool.addr(), %error, "new connection closed before an answer: retrying once");
                request = match unsent {
                    Some(unsent) => unsent,
                    None => replay.map(Replay::build).expect("checked above"),
                };
                fresh = true;
                continue;
            }
            if conn.reused && !fresh {
                if let Some(unsent) = unsent {
                    tracing::debug!(upstream = %pool.addr(), %error, "stale connection, request unsent: retrying");
                    request = unsent;
                    fresh = true;
                    continue;
                }
                if let Some(replay) = replay {
                    tracing::debug!(upstream = %pool.addr(), %error, "stale connection: retrying a repeatable request");
                    request = replay.build();
                    fresh = true;
                    continue;
                }
            }
            let error = classify(pool.addr(), error);
            let client_side = matches!(
                error,
                ProxyError::ClientGone | ProxyError::BodyTooLarge { .. } | ProxyError::BodyTimeout
            );
            let failed = match unsent {
                _ if client_side => Failed {
                    error,
                    counts: false,
                    retry: Retry::No,
                },
                Some(unsent) => Failed {
                    error,
                    counts: true,
                    retry: Retry::Unsent(Box::new(unsent)),
                },
                // A reused connection that broke under a request that cannot be repeated is
                // the keep-alive race, not a sign that the server is down.
                None => Failed {
                    error,
                    counts: !conn.reused,
                    retry: Retry::IfRepeatable,
                },
            };
            return Err(failed);
        }
    }

    fn wrap(
        &self,
        response: Response<Incoming>,
        conn: Conn,
        progress: Arc<Progress>,
        in_flight: InFlight,
    ) -> Response<UpstreamBody> {
        let reusable = self.keepalive && !wants_close(&response);
        let (parts, incoming) = response.into_parts();
        let mut body = UpstreamBody {
            incoming,
            conn: Some(conn),
            progress,
            in_flight: Some(in_flight),
            reusable,
            read_timeout: self.read_timeout,
            send_timeout: self.send_timeout,
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
/// Whether the server closed (or reset) the connection before any part of its answer: not a
/// time-out, and not an error of the client's body stream.
fn closed_before_answer(error: &hyper::Error) -> bool {
    if error.is_incomplete_message() {
        return true;
    }
    let mut source = std::error::Error::source(error);
    while let Some(cause) = source {
        if cause.is::<hyper::Error>() {
            return false;
        }
        if let Some(io_error) = cause.downcast_ref::<std::io::Error>() {
            return matches!(
                io_error.kind(),
                std::io::ErrorKind::ConnectionReset
                    | std::io::ErrorKind::BrokenPipe
                    | std::io::ErrorKind::UnexpectedEof
            );
        }
        source = cause.source();
    }
    false
}

fn classify(addr: &UpstreamAddr, error: hyper::Error) -> ProxyError {
    let mut source = std::error::Error::source(&error);
    while let Some(cause) = source {
        if let Some(too_large) = cause.downcast_ref::<BodyTooLarge>() {
            return ProxyError::BodyTooLarge {
                limit: too_large.limit,
            };
        }
        if cause.is::<crate::body::BodyTimeout>() {
            return ProxyError::BodyTimeout;
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
    /// How far the request body got: the connection is reused only once it was sent whole.
    progress: Arc<Progress>,
    /// Counts the request as outstanding on its server until the body ends or fails.
    in_flight: Option<InFlight>,
    reusable: bool,
    read_timeout: Duration,
    /// Bounds the wait for the end of the request body's write after an early answer.
    send_timeout: Duration,
    deadline: Option<Pin<Box<Sleep>>>,
}

/// The upstream sent no body bytes for `read_timeout`.
#[derive(Debug, thiserror::Error)]
#[error("upstream sent nothing for read_timeout")]
pub struct BodyReadTimeout;

impl UpstreamBody {
    /// The response is complete: the connection goes back to the pool if it is reusable and its
    /// request body was sent whole. An upstream that answered before it had the body (a 413, a
    /// 200 to an ignored upload) would otherwise leave the rest of the body in front of the next
    /// request on that connection, which hyper holds back until the body ends: behind a stalled
    /// upload, forever. Such a connection is closed, its body abandoned (nginx's keepalive
    /// module: `request_body_sent`).
    fn finish(&mut self) {
        self.in_flight = None;
        let Some(mut conn) = self.conn.take() else {
            return;
        };
        if !self.progress.is_sent() {
            self.progress.abandon();
            return;
        }
        if !self.reusable {
            return;
        }
        if conn.sender.is_ready() {
            conn.checkin();
            return;
        }
        // The body's last bytes may still be in hyper's write buffer (or hyper's driver has not
        // yet turned to the next request, on another thread): the connection stays in use, and
        // goes back once it can take a request, or closes if that takes longer than a write may.
        let send_timeout = self.send_timeout;
        tokio::spawn(async move {
            if let Ok(Ok(())) = tokio::time::timeout(send_timeout, conn.sender.ready()).await {
                conn.checkin();
            }
        });
    }

    /// The exchange failed: the connection closes, and a request body still being sent is
    /// abandoned.
    fn fail(&mut self) {
        self.in_flight = None;
        if self.conn.take().is_some() && !self.progress.is_sent() {
            self.progress.abandon();
        }
    }

    /// The server that answered, while the exchange is still going.
    pub fn upstream_addr(&self) -> Option<&UpstreamAddr> {
        self.conn.as_ref().map(Conn::addr)
    }
}

impl Drop for UpstreamBody {
    fn drop(&mut self) {
        // Dropped before the end (client gone): the connection closes with the conn, but a
        // body still being sent would keep it open in hyper's driver until the client stops.
        self.fail();
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
                this.fail();
                Poll::Ready(Some(Err(Box::new(error))))
            }
            Poll::Pending => {
                let read_timeout = this.read_timeout;
                let deadline = this
                    .deadline
                    .get_or_insert_with(|| Box::pin(tokio::time::sleep(read_timeout)));
                match deadline.as_mut().poll(context) {
                    Poll::Ready(()) => {
                        this.fail();
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
