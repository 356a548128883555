//! The downstream side: listeners, the accept loop, connection limits and graceful drain.
//!
//! [`Gateway::bind`] opens the listeners (port 0 works, so tests own their ports) and builds the
//! proxy; [`Gateway::run`] serves until the shutdown future completes, then stops accepting, lets
//! in-flight requests finish for up to `shutdown_grace`, and returns.

mod send_timeout;

use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Semaphore;

use crate::config::{Config, ServerConfig};
use crate::proxy::{ClientInfo, Proxy};
use crate::server::send_timeout::SendTimeout;
use crate::upstream::{PoolStats, UpstreamAddr};

/// Errors that stop the gateway from starting.
#[derive(Debug, thiserror::Error)]
pub enum ServerError {
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        addr: SocketAddr,
        source: std::io::Error,
    },
    #[error("cannot open the access log: {0}")]
    AccessLog(std::io::Error),
    #[error("{0}")]
    Limit(crate::ratelimit::LimitError),
    #[error("cannot serve static files from {path}: {source}")]
    Static {
        path: std::path::PathBuf,
        source: std::io::Error,
    },
}

/// A gateway with its listeners bound, ready to run.
pub struct Gateway {
    listeners: Vec<TcpListener>,
    admin: Option<TcpListener>,
    proxy: Arc<Proxy>,
    settings: ServerConfig,
}

/// A cheap handle to look at a running gateway (tests, metrics).
#[derive(Clone)]
pub struct GatewayHandle {
    proxy: Arc<Proxy>,
}

impl Gateway {
    /// Binds every `listen` address and builds the proxy. Must run inside a tokio runtime.
    pub fn bind(config: &Config) -> Result<Gateway, ServerError> {
        Self::bind_with(config, false)
    }

    /// As [`Gateway::bind`]; with `reuse_port`, the listeners allow siblings
    /// ([`Gateway::bind_sibling`]) on the same addresses, one per runtime.
    pub fn bind_with(config: &Config, reuse_port: bool) -> Result<Gateway, ServerError> {
        let listeners = config
            .server
            .listen
            .iter()
            .map(|addr| listen(*addr, config.server.backlog, reuse_port))
            .collect::<Result<Vec<_>, _>>()?;
        let admin = match &config.admin {
            Some(admin) => Some(listen(admin.listen, config.server.backlog, false)?),
            None => None,
        };
        let proxy = Arc::new(Proxy::new(config, reuse_port)?);
        Ok(Gateway {
            listeners,
            admin,
            proxy,
            settings: config.server.clone(),
        })
    }

    /// Another gateway on the same `addrs` (with `SO_REUSEPORT`; the kernel spreads connections
    /// among them) sharing `handle`'s proxy: its routes, pools and limits. For one single-threaded
    /// runtime per core; call it inside the runtime that will run it. `settings.max_connections`
    /// applies to each sibling.
    pub fn bind_sibling(
        handle: &GatewayHandle,
        addrs: &[SocketAddr],
        settings: &ServerConfig,
    ) -> Result<Gateway, ServerError> {
        let listeners = addrs
            .iter()
            .map(|addr| listen(*addr, settings.backlog, true))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Gateway {
            listeners,
            admin: None,
            proxy: Arc::clone(&handle.proxy),
            settings: settings.clone(),
        })
    }

    /// The admin listener's address, when `[admin]` is configured.
    pub fn admin_addr(&self) -> Option<SocketAddr> {
        self.admin
            .as_ref()
            .and_then(|listener| listener.local_addr().ok())
    }

    /// The addresses actually bound (with the real port when `listen` said port 0).
    pub fn local_addrs(&self) -> Vec<SocketAddr> {
        self.listeners
            .iter()
            .filter_map(|listener| listener.local_addr().ok())
            .collect()
    }

    pub fn handle(&self) -> GatewayHandle {
        GatewayHandle {
            proxy: Arc::clone(&self.proxy),
        }
    }

    /// Serves until `shutdown` completes, then drains.
    pub async fn run(self, shutdown: impl Future<Output = ()>) {
        let max_connections = self
            .settings
            .max_connections
            .clamp(1, Semaphore::MAX_PERMITS);
        let limit = Arc::new(Semaphore::new(max_connections));
        let builder = Arc::new(connection_builder(&self.settings));
        let settings = Arc::new(self.settings);
        let (stop_sender, stop_receiver) = tokio::sync::watch::channel(false);
        let mut accept_tasks = Vec::new();
        if let Some(admin) = self.admin {
            let handle = GatewayHandle {
                proxy: Arc::clone(&self.proxy),
            };
            tokio::spawn(crate::admin::serve(admin, handle, stop_receiver.clone()));
        }
        for listener in self.listeners {
            let context = AcceptContext {
                proxy: Arc::clone(&self.proxy),
                builder: Arc::clone(&builder),
                settings: Arc::clone(&settings),
                limit: Arc::clone(&limit),
                stop: stop_receiver.clone(),
            };
            let mut stop = stop_receiver.clone();
            accept_tasks.push(tokio::spawn(async move {
                tokio::select! {
                    () = accept_loop(listener, context) => {}
                    _ = stop.changed() => {}
                }
            }));
        }
        shutdown.await;
        tracing::info!("shutting down: no new connections, draining in-flight requests");
        let _ = stop_sender.send(true);
        for task in accept_tasks {
            let _ = task.await;
        }
        let grace = settings.shutdown_grace;
        // Every live connection holds a permit: when all are back, every connection has ended.
        let drained = limit.acquire_many(max_connections as u32);
        if tokio::time::timeout(grace, drained).await.is_err() {
            tracing::warn!(
                ?grace,
                "requests still in flight after shutdown_grace; closing them"
            );
        }
        // Upgraded connections (WebSocket tunnels) hold their places too: past the grace they
        // are closed, as requests in flight are.
        self.proxy.close_tunnels();
    }
}

impl GatewayHandle {
    /// The metrics in the Prometheus text format, as `/metrics` serves them.
    pub fn render_metrics(&self) -> String {
        self.proxy.metrics().render(self)
    }

    /// Decision counts of every limit: `(limit name, stats)`.
    pub fn limiter_stats(&self) -> Vec<(String, crate::ratelimit::LimitStats)> {
        self.proxy
            .limiters()
            .iter()
            .map(|limiter| (limiter.name().to_string(), limiter.stats()))
            .collect()
    }

    /// Health, balancing and pool state of every upstream server: `(upstream name, state)`.
    pub fn server_states(&self) -> Vec<(String, crate::upstream::ServerState)> {
        self.proxy
            .upstreams()
            .iter()
            .flat_map(|upstream| {
                let name = upstream.name().to_string();
                upstream
                    .server_states()
                    .into_iter()
                    .map(move |state| (name.clone(), state))
            })
            .collect()
    }

    /// Pool counters of every upstream server: `(upstream name, server, stats)`.
    pub fn pool_stats(&self) -> Vec<(String, UpstreamAddr, PoolStats)> {
        self.proxy
            .upstreams()
            .iter()
            .flat_map(|upstream| {
                upstream.pools().iter().map(|pool| {
                    (
                        upstream.name().to_string(),
                        pool.addr().clone(),
                        pool.stats(),
                    )
                })
            })
            .collect()
    }
}

struct AcceptContext {
    proxy: Arc<Proxy>,
    builder: Arc<http1::Builder>,
    settings: Arc<ServerConfig>,
    limit: Arc<Semaphore>,
    stop: tokio::sync::watch::Receiver<bool>,
}

fn connection_builder(settings: &ServerConfig) -> http1::Builder {
    let mut builder = http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .keep_alive(!settings.keepalive_timeout.is_zero())
        .header_read_timeout(settings.header_timeout)
        // hyper's read buffer may not be smaller than 8 KiB; the head limit is checked separately.
        .max_buf_size(settings.max_header_size.max(8192))
        .max_header_size(settings.max_header_size)
        .max_headers(256);
    builder
}

async fn accept_loop(listener: TcpListener, context: AcceptContext) {
    loop {
        // Wait for a free connection place before accepting, so excess clients queue in the
        // kernel's backlog instead of costing memory here.
        let Ok(permit) = Arc::clone(&context.limit).acquire_owned().await else {
            return;
        };
        let (stream, peer) = match listener.accept().await {
            Ok(accepted) => accepted,
            Err(error) => {
                // EMFILE and the like: back off a little instead of spinning.
                tracing::warn!(%error, "accept failed");
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let _ = stream.set_nodelay(true);
        serve_connection(stream, peer, &context, permit);
    }
}

fn serve_connection(
    stream: TcpStream,
    peer: SocketAddr,
    context: &AcceptContext,
    permit: tokio::sync::OwnedSemaphorePermit,
) {
    let proxy = Arc::clone(&context.proxy);
    let keepalive_requests = context.settings.keepalive_requests;
    let keepalive_timeout = context.settings.keepalive_timeout;
    // The connection's place (permit) lives as long as its activity record: the connection task,
    // a request in flight or an upgraded connection's tunnel may hold it last.
    let activity = Arc::new(Activity::new(permit));
    let service_activity = Arc::clone(&activity);
    let service = service_fn(move |request| {
        let count = service_activity.begin();
        let activity = Arc::clone(&service_activity);
        let client = ClientInfo {
            peer,
            last_request: keepalive_requests != 0 && count >= keepalive_requests,
            hold: Some(Arc::clone(&activity) as crate::tunnel::Hold),
        };
        let proxy = Arc::clone(&proxy);
        // Boxed: hyper keeps the service future inside the connection's state, so an unboxed
        // one would make every idle keep-alive connection as large as a request in flight.
        Box::pin(async move {
            let _pending = activity.pending_guard();
            Ok::<_, std::convert::Infallible>(proxy.handle(client, request).await)
        })
    });
    let send_timeout = context.settings.send_timeout;
    let connection = context
        .builder
        .serve_connection(
            TokioIo::new(SendTimeout::new(stream, send_timeout)),
            service,
        )
        .with_upgrades();
    let mut stop = context.stop.clone();
    let proxy = Arc::clone(&context.proxy);
    tokio::spawn(async move {
        let mut connection = std::pin::pin!(connection);
        let result = tokio::select! {
            result = connection.as_mut() => result,
            _ = stop.changed() => {
                // Finish the request in flight, if any, then close.
                connection.as_mut().graceful_shutdown();
                connection.await
            }
            () = activity.idle_for(keepalive_timeout) => {
                // Idle for keepalive_timeout: close, after the response in progress if any.
                connection.as_mut().graceful_shutdown();
                connection.await
            }
        };
        if let Err(error) = result {
            tracing::debug!(client = %peer, %error, "client connection ended with an error");
            // An answer the HTTP layer gave (or would give) by itself: counted and logged as
            // weir's own answers are.
            if let Some(status) = refusal_status(&error) {
                proxy.record_refused(peer, status);
            }
        }
        drop(activity);
    });
}

/// The status of a request hyper refused before weir saw it: 400 for a malformed head, 414 for a
/// URI too long, 431 for a head too large (hyper answers these), 408 for a head not received
/// within `header_timeout` (closed without an answer, as nginx does, and logged as 408).
fn refusal_status(error: &hyper::Error) -> Option<http::StatusCode> {
    if error.is_parse_too_large() {
        // hyper tells the two apart only in its message.
        return Some(if error.to_string().contains("URI too long") {
            http::StatusCode::URI_TOO_LONG
        } else {
            http::StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE
        });
    }
    if error.is_parse() {
        return Some(http::StatusCode::BAD_REQUEST);
    }
    if error.is_timeout() {
        return Some(http::StatusCode::REQUEST_TIMEOUT);
    }
    None
}

/// What a client connection is doing, for `keepalive_requests` and `keepalive_timeout`.
struct Activity {
    /// The connection's `max_connections` place, given back when the last holder lets go.
    _permit: tokio::sync::OwnedSemaphorePermit,
    started: tokio::time::Instant,
    /// Requests begun on this connection.
    requests: std::sync::atomic::AtomicU64,
    /// Requests whose response head is not ready yet.
    pending: std::sync::atomic::AtomicU32,
    /// When the last response head was ready, in milliseconds since `started`.
    last_ms: std::sync::atomic::AtomicU64,
}

/// Marks a request's head done when dropped (also when the client goes away).
struct PendingGuard<'a>(&'a Activity);

impl Activity {
    fn new(permit: tokio::sync::OwnedSemaphorePermit) -> Activity {
        Activity {
            _permit: permit,
            started: tokio::time::Instant::now(),
            requests: std::sync::atomic::AtomicU64::new(0),
            pending: std::sync::atomic::AtomicU32::new(0),
            last_ms: std::sync::atomic::AtomicU64::new(0),
        }
    }

    /// A request began; returns how many have, this one included.
    fn begin(&self) -> u64 {
        self.pending
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        self.requests
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed)
            + 1
    }

    fn pending_guard(&self) -> PendingGuard<'_> {
        PendingGuard(self)
    }

    /// Completes once the connection has had no request for `timeout` (never when 0: hyper then
    /// closes after each response by itself).
    async fn idle_for(&self, timeout: Duration) {
        if timeout.is_zero() {
            return std::future::pending().await;
        }
        let mut deadline = self.started + timeout;
        loop {
            tokio::time::sleep_until(deadline).await;
            let last = self.started
                + Duration::from_millis(self.last_ms.load(std::sync::atomic::Ordering::Relaxed));
            if self.pending.load(std::sync::atomic::Ordering::Relaxed) == 0
                && last + timeout <= tokio::time::Instant::now()
            {
                return;
            }
            deadline = (last + timeout).max(tokio::time::Instant::now() + timeout / 8);
        }
    }
}

impl Drop for PendingGuard<'_> {
    fn drop(&mut self) {
        let elapsed = self.0.started.elapsed().as_millis() as u64;
        self.0
            .last_ms
            .store(elapsed, std::sync::atomic::Ordering::Relaxed);
        self.0
            .pending
            .fetch_sub(1, std::sync::atomic::Ordering::Relaxed);
    }
}

/// Opens a listening socket with `SO_REUSEADDR` (and `SO_REUSEPORT` when asked) and the backlog.
fn listen(addr: SocketAddr, backlog: u32, reuse_port: bool) -> Result<TcpListener, ServerError> {
    let bind_error = |source| ServerError::Bind { addr, source };
    let domain = socket2::Domain::for_address(addr);
    let socket = socket2::Socket::new(domain, socket2::Type::STREAM, Some(socket2::Protocol::TCP))
        .map_err(bind_error)?;
    socket.set_reuse_address(true).map_err(bind_error)?;
    if reuse_port {
        socket.set_reuse_port(true).map_err(bind_error)?;
    }
    if addr.is_ipv6() {
        socket.set_only_v6(true).map_err(bind_error)?;
    }
    socket.set_nonblocking(true).map_err(bind_error)?;
    socket.bind(&addr.into()).map_err(bind_error)?;
    socket
        .listen(backlog.min(i32::MAX as u32) as i32)
        .map_err(bind_error)?;
    TcpListener::from_std(socket.into()).map_err(bind_error)
}
