//! After a `101 Switching Protocols` (WebSocket and other upgrades), bytes flow both ways between
//! the client and the upstream until either side closes or nothing moves for the idle timeout
//! (the upstream's `read_timeout`, as nginx's `proxy_read_timeout` bounds an idle WebSocket).
//! The tunnel runs in the client connection's task, which holds the connection's
//! `max_connections` place until it ends; the upstream's side holds its pool slot as long (the
//! upstream's `max_connections`). Any byte stream can be the upstream's side, so this file
//! names nothing of the upstream client.

use std::io;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::time::Instant;

/// The upstream's side of a tunnel: bytes both ways (an upgraded upstream connection).
pub trait Stream: AsyncRead + AsyncWrite + Send + Unpin {}

impl<T: AsyncRead + AsyncWrite + Send + Unpin> Stream for T {}

/// A tunnel to open once the `101` is written: the proxy puts it in the response's extensions,
/// and the client connection's task runs it with the client's stream.
#[derive(Clone)]
pub struct Upgrade {
    /// The upstream's side, after its `101` (taken once; `Clone` is only for the extensions
    /// map).
    upstream: Arc<std::sync::Mutex<Option<Box<dyn Stream>>>>,
    idle_timeout: Duration,
    closing: tokio::sync::watch::Receiver<bool>,
    /// What the tunnel keeps until it ends (its request's connection-limit places).
    kept: Option<Arc<dyn std::any::Any + Send + Sync>>,
}

impl Upgrade {
    /// The tunnel to `upstream`, closed after `idle_timeout` without a byte, or when `closing`
    /// turns true (the end of the shutdown grace).
    pub fn new(
        upstream: impl Stream + 'static,
        idle_timeout: Duration,
        closing: tokio::sync::watch::Receiver<bool>,
    ) -> Upgrade {
        Upgrade {
            upstream: Arc::new(std::sync::Mutex::new(Some(Box::new(upstream)))),
            idle_timeout,
            closing,
            kept: None,
        }
    }

    /// Keeps `held` until the tunnel ends (or is never opened).
    pub fn keep(&mut self, held: impl std::any::Any + Send + Sync) {
        self.kept = Some(Arc::new(held));
    }
}

/// Runs the tunnel between `client` (whose `101` has been written) and the upstream, until
/// either side closes, nothing moves for the idle timeout, or the shutdown grace ends.
pub async fn run<C: AsyncRead + AsyncWrite + Unpin>(client: C, upgrade: Upgrade) {
    let Upgrade {
        upstream,
        idle_timeout,
        mut closing,
        kept: _kept,
    } = upgrade;
    let Some(upstream) = upstream
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .take()
    else {
        return;
    };
    let started = Instant::now();
    let activity = Arc::new(AtomicU64::new(0));
    let mut client = Activity {
        io: client,
        activity: Arc::clone(&activity),
        started,
    };
    let mut upstream = Activity {
        io: upstream,
        activity: Arc::clone(&activity),
        started,
    };
    let copying = tokio::io::copy_bidirectional(&mut client, &mut upstream);
    let idle = async {
        loop {
            tokio::time::sleep(idle_timeout / 4 + Duration::from_millis(1)).await;
            let last = Duration::from_millis(activity.load(Ordering::Relaxed));
            if started.elapsed().saturating_sub(last) >= idle_timeout {
                return;
            }
        }
    };
    tokio::select! {
        result = copying => {
            if let Err(error) = result {
                tracing::debug!(%error, "upgraded connection ended with an error");
            }
        }
        () = idle => tracing::debug!(?idle_timeout, "upgraded connection idle: closed"),
        _ = closing.wait_for(|closing| *closing) => {
            tracing::debug!("shutdown grace over: upgraded connection closed");
        }
    }
}

/// Records the time of the last byte read, for the idle timeout.
struct Activity<T> {
    io: T,
    activity: Arc<AtomicU64>,
    started: Instant,
}

impl<T: AsyncRead + Unpin> AsyncRead for Activity<T> {
    fn poll_read(
        self: Pin<&mut Self>,
        context: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let before = buf.filled().len();
        let result = Pin::new(&mut this.io).poll_read(context, buf);
        if buf.filled().len() > before {
            let elapsed = this.started.elapsed().as_millis() as u64;
            this.activity.store(elapsed, Ordering::Relaxed);
        }
        result
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for Activity<T> {
    fn poll_write(
        self: Pin<&mut Self>,
        context: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().io).poll_write(context, buf)
    }

    fn poll_flush(self: Pin<&mut Self>, context: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().io).poll_flush(context)
    }

    fn poll_shutdown(self: Pin<&mut Self>, context: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().io).poll_shutdown(context)
    }
}
