//! HTTP/2 to clients: hyper's HTTP/2 server with weir's limits, on a TLS connection whose ALPN
//! picked `h2`. Each stream is one request through [`crate::proxy::Proxy::handle`], as an HTTP/1
//! request is; the upstream side stays HTTP/1.1.
//!
//! The limits (see docs/security.md): concurrent streams, the header list size (which also
//! bounds CONTINUATION frames: h2 refuses a header block past it, and counts CONTINUATION frames
//! against it, CVE-2024-27316), flow-control windows, and rapid reset (CVE-2023-44487): streams
//! the client resets before weir answers are capped by `max_pending_accept_reset_streams`, past
//! which h2 sends GOAWAY(ENHANCE_YOUR_CALM). PING and SETTINGS frames each make weir send an
//! acknowledgement; h2 bounds the memory (one pending acknowledgement, no more reading until it
//! is written), and [`FrameWatch`] bounds their number: past a budget the connection gets a
//! GOAWAY and is closed. A response body that waits on the client's window for `send_timeout`
//! gives its stream up ([`StreamExecutor`]), as nginx arms `send_timeout` on flow-controlled
//! streams; hyper has no such time-out.

use std::cell::Cell;
use std::future::Future;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use bytes::Bytes;
use http::Request;
use http_body::{Frame, SizeHint};
use hyper::body::Incoming;
use hyper::server::conn::http2;
use hyper::service::service_fn;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::sync::{watch, Notify};
use tokio::time::Instant;

use crate::body::{Body, BoxError, ClientBody};
use crate::config::TlsConfig;
use crate::proxy::{ClientInfo, Proxy};
use crate::tls::TlsInfo;
use crate::write_timeout::Stall;

/// Streams a client may reset before weir has answered them, at once, before GOAWAY: hyper's
/// default, which its rapid-reset fix chose.
const MAX_PENDING_ACCEPT_RESET_STREAMS: usize = 20;

/// Streams weir may reset for protocol errors on one connection before GOAWAY (h2's default).
const MAX_LOCAL_ERROR_RESET_STREAMS: usize = 1024;

/// Bytes of response data queued per stream before the stream waits for the client to read.
const MAX_SEND_BUF_SIZE: usize = 256 * 1024;

/// PING and SETTINGS frames (not acknowledgements) a connection may send in a burst; a browser
/// sends a handful per connection.
pub const CONTROL_FRAME_BURST: u32 = 200;

/// How many such frames a second the budget regains, up to the burst.
pub const CONTROL_FRAMES_PER_SECOND: u32 = 20;

/// How long a connection told GOAWAY for a flood may take to finish before it is closed.
const FLOOD_GRACE: Duration = Duration::from_secs(1);

/// The HTTP/2 settings of one config generation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settings {
    max_concurrent_streams: u32,
    max_header_list_size: u32,
    stream_window: u32,
    connection_window: u32,
}

impl Settings {
    pub fn from_config(config: &TlsConfig) -> Settings {
        Settings {
            max_concurrent_streams: config.http2_max_concurrent_streams,
            max_header_list_size: config.http2_max_header_list_size,
            stream_window: config.http2_stream_window,
            connection_window: config.http2_connection_window,
        }
    }

    fn builder<E>(&self, executor: E) -> http2::Builder<E> {
        let mut builder = http2::Builder::new(executor);
        builder
            .timer(TokioTimer::new())
            .max_concurrent_streams(self.max_concurrent_streams)
            .max_header_list_size(self.max_header_list_size)
            .initial_stream_window_size(self.stream_window)
            .initial_connection_window_size(self.connection_window)
            .adaptive_window(false)
            .max_send_buf_size(MAX_SEND_BUF_SIZE)
            .max_pending_accept_reset_streams(MAX_PENDING_ACCEPT_RESET_STREAMS)
            .max_local_error_reset_streams(MAX_LOCAL_ERROR_RESET_STREAMS);
        builder
    }
}

/// The `[server]` time-outs of an HTTP/2 connection, those in force when it was accepted.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Timeouts {
    /// `keepalive_timeout`: with no request in flight.
    pub keepalive: Duration,
    /// `send_timeout`: the longest a response body waits on the client.
    pub send: Duration,
}

/// Serves HTTP/2 on `stream` until the client leaves, the connection has had no request for
/// `keepalive_timeout`, the gateway stops (GOAWAY, then the streams in flight finish) or the
/// client floods control frames (GOAWAY, then closed within [`FLOOD_GRACE`]). Each stream is a
/// request to the proxy in force when it starts (`proxy`).
pub(crate) async fn serve<T, F>(
    stream: T,
    settings: &Settings,
    peer: SocketAddr,
    tls: Arc<TlsInfo>,
    proxy: F,
    mut stop: watch::Receiver<bool>,
    timeouts: Timeouts,
) where
    T: AsyncRead + AsyncWrite + Unpin + Send + 'static,
    F: Fn() -> Arc<Proxy> + Send + Sync + 'static,
{
    let activity = Arc::new(Activity::new());
    let service_activity = Arc::clone(&activity);
    let proxy = Arc::new(proxy);
    let service = service_fn(move |request: Request<Incoming>| {
        let activity = Arc::clone(&service_activity);
        activity.begin();
        let client = ClientInfo {
            peer,
            // keepalive_requests does not apply to HTTP/2, and `Connection: close` has no
            // meaning there.
            last_request: false,
            tls: Some(Arc::clone(&tls)),
        };
        let proxy = proxy();
        async move {
            let _pending = PendingGuard(&activity);
            let mut request = request.map(ClientBody::Hyper);
            join_cookies(request.headers_mut());
            let response = proxy.handle(client, request).await;
            Ok::<_, std::convert::Infallible>(response.map(WatchedBody))
        }
    });
    let flood = Arc::new(Notify::new());
    let watched = FrameWatch::new(stream, Arc::clone(&flood));
    let executor = StreamExecutor {
        send_timeout: timeouts.send,
    };
    let connection = settings
        .builder(executor)
        .serve_connection(TokioIo::new(watched), service);
    let mut connection = std::pin::pin!(connection);
    let result = tokio::select! {
        result = connection.as_mut() => result,
        _ = stop.changed() => {
            connection.as_mut().graceful_shutdown();
            connection.await
        }
        () = activity.idle_for(timeouts.keepalive) => {
            connection.as_mut().graceful_shutdown();
            connection.await
        }
        () = flood.notified() => {
            tracing::debug!(client = %peer, "HTTP/2 control frame flood: GOAWAY");
            connection.as_mut().graceful_shutdown();
            tokio::time::timeout(FLOOD_GRACE, connection).await.unwrap_or(Ok(()))
        }
    };
    if let Err(error) = result {
        tracing::debug!(client = %peer, %error, "HTTP/2 connection ended with an error");
    }
}

/// Spawns each stream's task (hyper's `H2Stream`: the request, then its response body) through
/// [`run_stream`]. A stream is given up by dropping its task, which drops everything the stream
/// holds (the response body with its upstream connection, pool place, read-ahead memory and
/// spool file) and makes h2 reset the stream (RST_STREAM(CANCEL)); no task of its own watches it,
/// and nothing outlives it.
#[derive(Clone)]
pub(crate) struct StreamExecutor {
    send_timeout: Duration,
}

impl<F> hyper::rt::Executor<F> for StreamExecutor
where
    F: Future<Output = ()> + Send + 'static,
{
    fn execute(&self, stream: F) {
        tokio::spawn(run_stream(stream, self.send_timeout));
    }
}

/// Whose turn it is on a stream's response body, as the last poll of the stream's task left it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Turn {
    /// The body was not polled in this poll of the task: nothing changed.
    Unpolled,
    /// The body had nothing ready (it waits on the upstream) or ended.
    Upstream,
    /// The body gave hyper a frame, and hyper has not asked for the next: it waits for the
    /// client to open its window (a frame for which h2 has no room is held until then).
    Client,
}

thread_local! {
    /// Set by a [`WatchedBody`] when polled, read by [`run_stream`] around each poll of the
    /// stream's task that polls it: hyper polls a stream's response body only inside that task,
    /// so the two meet on the thread that runs the poll, with no allocation or lock per stream.
    static TURN: Cell<Turn> = const { Cell::new(Turn::Unpolled) };
}

/// Runs one stream's task, and gives the stream up (returns, so that the task is dropped) when
/// its response body has waited on the client for `send_timeout`: hyper has a frame of it and
/// takes no more because the client's window is closed, as it stays when a client sets
/// `SETTINGS_INITIAL_WINDOW_SIZE` to 0 or sends no `WINDOW_UPDATE` (nginx's `send_timeout` on
/// flow-controlled streams). A timer inside the body could not do it: hyper does not poll the body
/// while it holds a frame it cannot send. Waits on the upstream are the upstream's time-outs'.
async fn run_stream<F: Future<Output = ()>>(stream: F, send_timeout: Duration) {
    let mut stream = std::pin::pin!(stream);
    let mut stall = Stall::default();
    let mut client_turn = false;
    std::future::poll_fn(|context| {
        TURN.set(Turn::Unpolled);
        if stream.as_mut().poll(context).is_ready() {
            return Poll::Ready(());
        }
        match TURN.replace(Turn::Unpolled) {
            Turn::Unpolled => {}
            Turn::Upstream => {
                client_turn = false;
                stall.disarm();
            }
            Turn::Client => {
                client_turn = true;
                stall.disarm();
            }
        }
        if client_turn && stall.poll(context, send_timeout).is_ready() {
            tracing::debug!(
                "HTTP/2 stream: the client took no response data for send_timeout; reset"
            );
            return Poll::Ready(());
        }
        Poll::Pending
    })
    .await;
}

/// A response body that tells its stream's task, through [`TURN`], whose turn it is.
pub(crate) struct WatchedBody(Body);

impl http_body::Body for WatchedBody {
    type Data = Bytes;
    type Error = BoxError;

    fn poll_frame(
        self: Pin<&mut Self>,
        context: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, BoxError>>> {
        let polled = Pin::new(&mut self.get_mut().0).poll_frame(context);
        TURN.set(match polled {
            Poll::Ready(Some(Ok(_))) => Turn::Client,
            _ => Turn::Upstream,
        });
        polled
    }

    fn is_end_stream(&self) -> bool {
        self.0.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.0.size_hint()
    }
}

/// Joins the `cookie` fields of an HTTP/2 request into one, with "; " (RFC 9113 §8.2.3), before
/// it goes to the HTTP/1.1 upstream as nginx does: a client may send one field per cookie (for
/// HPACK's sake), and an upstream given several `cookie` lines joins them with ", " (Gunicorn),
/// which cookie parsers misread. The header list size bounds the joined value.
fn join_cookies(headers: &mut http::HeaderMap) {
    let mut values = headers.get_all(http::header::COOKIE).iter();
    let (Some(first), Some(_)) = (values.next(), values.next()) else {
        return;
    };
    let mut joined = Vec::with_capacity(first.len() * 4);
    for (index, value) in headers.get_all(http::header::COOKIE).iter().enumerate() {
        if index > 0 {
            joined.extend_from_slice(b"; ");
        }
        joined.extend_from_slice(value.as_bytes());
    }
    // Valid field values joined by "; " make a valid value; were it refused, the fields would go
    // on as they came.
    if let Ok(joined) = http::HeaderValue::from_bytes(&joined) {
        headers.insert(http::header::COOKIE, joined);
    }
}

/// Streams in flight and the time of the last one's end, for `keepalive_timeout`.
struct Activity {
    started: Instant,
    /// Streams whose response head is not ready yet.
    pending: AtomicU32,
    /// When the last response head was ready, in milliseconds since `started`.
    last_ms: AtomicU64,
}

/// Marks a stream's response head ready when dropped (also when the client resets it).
struct PendingGuard<'a>(&'a Activity);

impl Activity {
    fn new() -> Activity {
        Activity {
            started: Instant::now(),
            pending: AtomicU32::new(0),
            last_ms: AtomicU64::new(0),
        }
    }

    fn begin(&self) {
        self.pending.fetch_add(1, Ordering::Relaxed);
    }

    /// Completes once the connection has had no stream in flight for `timeout` (never when 0).
    async fn idle_for(&self, timeout: Duration) {
        if timeout.is_zero() {
            return std::future::pending().await;
        }
        let mut deadline = self.started + timeout;
        loop {
            tokio::time::sleep_until(deadline).await;
            let last = self.started + Duration::from_millis(self.last_ms.load(Ordering::Relaxed));
            if self.pending.load(Ordering::Relaxed) == 0 && last + timeout <= Instant::now() {
                return;
            }
            deadline = (last + timeout).max(Instant::now() + timeout / 8);
        }
    }
}

impl Drop for PendingGuard<'_> {
    fn drop(&mut self) {
        let elapsed = self.0.started.elapsed().as_millis() as u64;
        self.0.last_ms.store(elapsed, Ordering::Relaxed);
        self.0.pending.fetch_sub(1, Ordering::Relaxed);
    }
}

/// Reads the client's frame headers as they pass, to count PING and SETTINGS frames against a
/// budget ([`CONTROL_FRAME_BURST`], regained at [`CONTROL_FRAMES_PER_SECOND`]). Past it, `flood`
/// is notified and reading stops, so the flood costs nothing more while the GOAWAY goes out.
pub(crate) struct FrameWatch<T> {
    io: T,
    parser: FrameParser,
    budget: Budget,
    flood: Arc<Notify>,
    flooded: bool,
}

impl<T> FrameWatch<T> {
    fn new(io: T, flood: Arc<Notify>) -> FrameWatch<T> {
        FrameWatch {
            io,
            parser: FrameParser::default(),
            budget: Budget::new(Instant::now()),
            flood,
            flooded: false,
        }
    }
}

impl<T: AsyncRead + Unpin> AsyncRead for FrameWatch<T> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        context: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        let this = &mut *self;
        if this.flooded {
            // The serving task closes the connection; nothing more is read meanwhile.
            return Poll::Pending;
        }
        let before = buf.filled().len();
        let polled = Pin::new(&mut this.io).poll_read(context, buf);
        if let Poll::Ready(Ok(())) = polled {
            let control = this.parser.feed(&buf.filled()[before..]);
            if control > 0 && !this.budget.take(control, Instant::now()) {
                this.flooded = true;
                this.flood.notify_one();
            }
        }
        polled
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for FrameWatch<T> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        context: &mut Context<'_>,
        data: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        Pin::new(&mut self.io).poll_write(context, data)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        context: &mut Context<'_>,
        data: &[std::io::IoSlice<'_>],
    ) -> Poll<std::io::Result<usize>> {
        Pin::new(&mut self.io).poll_write_vectored(context, data)
    }

    fn is_write_vectored(&self) -> bool {
        self.io.is_write_vectored()
    }

    fn poll_flush(
        mut self: Pin<&mut Self>,
        context: &mut Context<'_>,
    ) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.io).poll_flush(context)
    }

    fn poll_shutdown(
        mut self: Pin<&mut Self>,
        context: &mut Context<'_>,
    ) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.io).poll_shutdown(context)
    }
}

/// The client's connection preface (RFC 9113 §3.4), which comes before the first frame.
const PREFACE_LEN: usize = 24;
const FRAME_HEADER_LEN: usize = 9;
const TYPE_SETTINGS: u8 = 0x4;
const TYPE_PING: u8 = 0x6;
const FLAG_ACK: u8 = 0x1;

/// Follows frame boundaries across reads; only the 9-byte headers are looked at.
#[derive(Debug)]
pub(crate) struct FrameParser {
    /// Preface bytes still to skip.
    preface_left: usize,
    header: [u8; FRAME_HEADER_LEN],
    header_len: usize,
    /// Payload bytes of the current frame still to skip.
    payload_left: usize,
}

impl Default for FrameParser {
    fn default() -> FrameParser {
        FrameParser {
            preface_left: PREFACE_LEN,
            header: [0; FRAME_HEADER_LEN],
            header_len: 0,
            payload_left: 0,
        }
    }
}

impl FrameParser {
    /// Takes the next bytes from the client; returns how many PING and SETTINGS frames (not
    /// acknowledgements) began in them.
    pub(crate) fn feed(&mut self, mut bytes: &[u8]) -> u32 {
        let mut control = 0;
        while !bytes.is_empty() {
            if self.preface_left > 0 {
                let skip = self.preface_left.min(bytes.len());
                self.preface_left -= skip;
                bytes = &bytes[skip..];
            } else if self.payload_left > 0 {
                let skip = self.payload_left.min(bytes.len());
                self.payload_left -= skip;
                bytes = &bytes[skip..];
            } else {
                let take = (FRAME_HEADER_LEN - self.header_len).min(bytes.len());
                self.header[self.header_len..self.header_len + take]
                    .copy_from_slice(&bytes[..take]);
                self.header_len += take;
                bytes = &bytes[take..];
                if self.header_len == FRAME_HEADER_LEN {
                    self.header_len = 0;
                    let [l0, l1, l2, kind, flags, ..] = self.header;
                    self.payload_left =
                        usize::from(l0) << 16 | usize::from(l1) << 8 | usize::from(l2);
                    if matches!(kind, TYPE_PING | TYPE_SETTINGS) && flags & FLAG_ACK == 0 {
                        control += 1;
                    }
                }
            }
        }
        control
    }
}

/// A token bucket of control frames.
#[derive(Debug)]
pub(crate) struct Budget {
    tokens: u32,
    last: Instant,
}

impl Budget {
    pub(crate) fn new(now: Instant) -> Budget {
        Budget {
            tokens: CONTROL_FRAME_BURST,
            last: now,
        }
    }

    /// Spends `count` frames; false once the budget is overdrawn.
    pub(crate) fn take(&mut self, count: u32, now: Instant) -> bool {
        let elapsed = now.saturating_duration_since(self.last);
        let regained = (elapsed.as_millis() * u128::from(CONTROL_FRAMES_PER_SECOND) / 1000) as u64;
        if regained > 0 {
            self.tokens =
                (u64::from(self.tokens) + regained).min(u64::from(CONTROL_FRAME_BURST)) as u32;
            self.last = now;
        }
        match self.tokens.checked_sub(count) {
            Some(left) => {
                self.tokens = left;
                true
            }
            None => {
                self.tokens = 0;
                false
            }
        }
    }
}

#[cfg(test)]
mod tests;
