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
//! GOAWAY and is closed.
//!
//! The time-outs, none of which hyper has: a response body that waits on the client's window for
//! `send_timeout` gives its stream up ([`StreamExecutor`]); a connection sends its first complete
//! request, and every request head it begins, within `header_timeout`; it is told GOAWAY after
//! `keepalive_timeout` with no stream in flight (at once when that is 0); and every wait after a
//! GOAWAY is bounded ([`drain`]), since hyper's graceful shutdown waits for the client's PING
//! acknowledgement without a limit.

use std::cell::Cell;
use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
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

use crate::body::Body;
use crate::config::TlsConfig;
use crate::error::BoxError;
use crate::proxy::{ClientInfo, Proxy};
use crate::request_body::ClientBody;
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

/// How long a connection told GOAWAY may take to end by itself when nothing is owed to it (a
/// control-frame flood, a connection that never sent a complete request) before it is closed:
/// time for the GOAWAY to reach the client.
const CLOSE_GRACE: Duration = Duration::from_secs(1);

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
    /// `header_timeout`: for the first complete request, and for each request head begun.
    pub header: Duration,
    /// `keepalive_timeout`: with no stream in flight; 0 ends the connection once its streams are
    /// done.
    pub keepalive: Duration,
    /// `send_timeout`: the longest a response body waits on the client; after a GOAWAY, the
    /// longest the connection is kept with no stream in flight.
    pub send: Duration,
    /// `shutdown_grace`: at stop, the longest wait for the streams in flight.
    pub shutdown_grace: Duration,
}

/// Serves HTTP/2 on `stream` until the client leaves; or until a GOAWAY, then [`drain`]: when the
/// connection sends no complete request within `header_timeout`, or leaves a request head
/// unfinished that long, or has had no stream in flight for `keepalive_timeout`, or the gateway
/// stops; or when the client floods control frames (GOAWAY, then closed within
/// [`CLOSE_GRACE`]). Each stream is a request to the proxy in force when it starts (`proxy`),
/// from `client` (its TLS connection, its listener).
pub(crate) async fn serve<T, F>(
    stream: T,
    settings: &Settings,
    client: ClientInfo,
    proxy: F,
    mut stop: watch::Receiver<bool>,
    timeouts: Timeouts,
) where
    T: AsyncRead + AsyncWrite + Unpin + Send + 'static,
    F: Fn() -> Arc<Proxy> + Send + Sync + 'static,
{
    let activity = Arc::new(Activity::new());
    let proxy = Arc::new(proxy);
    let peer = client.peer;
    let service = service_fn(move |request: Request<Incoming>| {
        let client = client.clone();
        let proxy = proxy();
        async move {
            let mut request = request.map(ClientBody::Hyper);
            join_cookies(request.headers_mut());
            // The edge: the proxy reads a request's head as a view of its lines, as HTTP/1's.
            let request = crate::head_view::Request::from_http(request);
            // Each stream is a task of its own: it takes its upstream's servers for itself.
            let mut response = proxy.handle(client, request, None).await;
            // An answer's header lines (a 429's) become fields: HTTP/2 has no head to put them in.
            if let Some(lines) = response.body_mut().take_lines() {
                lines.append_to(response.headers_mut());
            }
            // `$bytes_sent`: the head as HTTP/1 would carry it (`HTTP/2.0 200\r\n`, the fields,
            // the blank line); hyper does not say how many bytes its compressed head took.
            if response.body_mut().logged_mut().is_some() {
                let head = "HTTP/2.0 200\r\n\r\n".len() + response.headers().written_len();
                if let Some(logged) = response.body_mut().logged_mut() {
                    logged.note_sent_head(head, None);
                }
            }
            if response
                .extensions()
                .get::<crate::error::CloseUnanswered>()
                .is_some()
            {
                // nginx `return 444`: no answer; hyper resets the stream instead.
                return Err(Unanswered);
            }
            // The edge: hyper writes an `http::Response`, its fields copied into a map.
            Ok(response.map(WatchedBody).into_http())
        }
    });
    let flood = Arc::new(Notify::new());
    let watched = FrameWatch::new(stream, Arc::clone(&flood), Arc::clone(&activity));
    let executor = StreamExecutor {
        activity: Arc::clone(&activity),
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
            drain(connection, &activity, timeouts.send, Some(timeouts.shutdown_grace)).await
        }
        expiry = activity.expired(timeouts.header, timeouts.keepalive) => {
            tracing::debug!(client = %peer, ?expiry, "HTTP/2 connection: GOAWAY");
            connection.as_mut().graceful_shutdown();
            drain(connection, &activity, timeouts.send, None).await
        }
        () = flood.notified() => {
            tracing::debug!(client = %peer, "HTTP/2 control frame flood: GOAWAY");
            connection.as_mut().graceful_shutdown();
            tokio::time::timeout(CLOSE_GRACE, connection).await.unwrap_or(Ok(()))
        }
    };
    if let Err(error) = result {
        tracing::debug!(client = %peer, %error, "HTTP/2 connection ended with an error");
    }
}

/// A stream's service error that asks hyper to reset the stream unanswered (nginx `return 444`).
#[derive(Debug)]
struct Unanswered;

impl std::fmt::Display for Unanswered {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str("closed without an answer (444)")
    }
}

impl std::error::Error for Unanswered {}

/// Waits, after a GOAWAY, for the connection to end by itself (its streams done and the client's
/// acknowledgement of hyper's PING in), but no longer than until it has had no stream in flight
/// for `quiet` ([`CLOSE_GRACE`] if it never had one), nor past `limit`. A stream in flight keeps
/// the connection as long as it makes progress: each is bounded by its own time-outs (the
/// upstream's, `body_timeout`, and `send_timeout` for its response body). A client that never
/// acknowledges the PING, or leaves response data that its stream's task has handed over unread,
/// is closed `quiet` after the last stream's end: with `quiet` being `send_timeout`, that data is
/// treated as any write to a client is.
async fn drain<C>(
    connection: Pin<&mut C>,
    activity: &Activity,
    quiet: Duration,
    limit: Option<Duration>,
) -> hyper::Result<()>
where
    C: Future<Output = hyper::Result<()>>,
{
    let quiet = if activity.served.load(Ordering::Relaxed) {
        quiet
    } else {
        CLOSE_GRACE
    };
    let since = Instant::now();
    let limit = async {
        match limit {
            Some(limit) => tokio::time::sleep(limit).await,
            None => std::future::pending().await,
        }
    };
    tokio::select! {
        result = connection => result,
        () = activity.quiet_for(quiet, since) => Ok(()),
        () = limit => Ok(()),
    }
}

/// Why a connection is told GOAWAY.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Expiry {
    /// No complete request within `header_timeout` of the start, or a request head begun and
    /// unfinished for `header_timeout`.
    Header,
    /// No stream in flight for `keepalive_timeout`.
    Idle,
}

/// A connection's streams in flight, shared by the connection's task (which watches the
/// deadlines), its [`FrameWatch`] and its streams' tasks.
struct Activity {
    started: Instant,
    /// Streams whose task runs: from hyper's accepting the request head to the end of the
    /// response (sent, reset, or given up).
    in_flight: AtomicU32,
    /// Whether a complete request has come; until then `header_timeout` counts from the start.
    served: AtomicBool,
    /// When the last stream ended, in milliseconds since `started`.
    last_end_ms: AtomicU64,
    /// When the client began the request head it is in the middle of, in milliseconds since
    /// `started` plus one; 0 when it is in none.
    head_since: AtomicU64,
    /// Signalled when the last stream in flight ends and when a request head is left unfinished
    /// by a read: a deadline to watch may have come nearer.
    changed: Notify,
}

/// A stream in flight; dropping it ends the stream for [`Activity`].
struct InFlight(Arc<Activity>);

impl Activity {
    fn new() -> Activity {
        Activity {
            started: Instant::now(),
            in_flight: AtomicU32::new(0),
            served: AtomicBool::new(false),
            last_end_ms: AtomicU64::new(0),
            head_since: AtomicU64::new(0),
            changed: Notify::new(),
        }
    }

    fn now_ms(&self) -> u64 {
        Instant::now()
            .saturating_duration_since(self.started)
            .as_millis()
            .try_into()
            .unwrap_or(u64::MAX - 1)
    }

    fn at(&self, ms: u64) -> Instant {
        self.started + Duration::from_millis(ms)
    }

    /// A stream begins: hyper accepted its head.
    fn begin(self: &Arc<Activity>) -> InFlight {
        self.in_flight.fetch_add(1, Ordering::Relaxed);
        self.served.store(true, Ordering::Relaxed);
        InFlight(Arc::clone(self))
    }

    /// The client is (`true`) or is no longer in the middle of a request head.
    fn head_pending(&self, pending: bool) {
        if pending {
            self.head_since.store(self.now_ms() + 1, Ordering::Relaxed);
            self.changed.notify_one();
        } else {
            self.head_since.store(0, Ordering::Relaxed);
        }
    }

    /// The next deadline and what it is for; `None` while streams are in flight and no request
    /// head is pending. A deadline past what `Instant` can hold is none.
    fn deadline(
        &self,
        header_timeout: Duration,
        keepalive_timeout: Duration,
    ) -> Option<(Instant, Expiry)> {
        let head = match self.head_since.load(Ordering::Relaxed) {
            0 => None,
            since => self.at(since - 1).checked_add(header_timeout),
        };
        let head = head.map(|deadline| (deadline, Expiry::Header));
        let waiting = if !self.served.load(Ordering::Relaxed) {
            self.started
                .checked_add(header_timeout)
                .map(|deadline| (deadline, Expiry::Header))
        } else if self.in_flight.load(Ordering::Acquire) == 0 {
            self.at(self.last_end_ms.load(Ordering::Relaxed))
                .checked_add(keepalive_timeout)
                .map(|deadline| (deadline, Expiry::Idle))
        } else {
            None
        };
        match (head, waiting) {
            (Some(head), Some(waiting)) => Some(if head.0 <= waiting.0 { head } else { waiting }),
            (head, waiting) => head.or(waiting),
        }
    }

    /// Completes when the connection is to be told GOAWAY, and says why.
    async fn expired(&self, header_timeout: Duration, keepalive_timeout: Duration) -> Expiry {
        loop {
            match self.deadline(header_timeout, keepalive_timeout) {
                Some((deadline, expiry)) if deadline <= Instant::now() => return expiry,
                Some((deadline, _)) => tokio::select! {
                    () = tokio::time::sleep_until(deadline) => {}
                    () = self.changed.notified() => {}
                },
                None => self.changed.notified().await,
            }
        }
    }

    /// Completes once no stream has been in flight for `quiet`, counted from `since` at the
    /// earliest.
    async fn quiet_for(&self, quiet: Duration, since: Instant) {
        loop {
            if self.in_flight.load(Ordering::Acquire) > 0 {
                self.changed.notified().await;
                continue;
            }
            let last_end = self.at(self.last_end_ms.load(Ordering::Relaxed));
            let Some(deadline) = last_end.max(since).checked_add(quiet) else {
                return std::future::pending().await;
            };
            if deadline <= Instant::now() {
                return;
            }
            // A stream that begins meanwhile is seen when the timer fires.
            tokio::time::sleep_until(deadline).await;
        }
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        let activity = &self.0;
        activity
            .last_end_ms
            .store(activity.now_ms(), Ordering::Relaxed);
        if activity.in_flight.fetch_sub(1, Ordering::AcqRel) == 1 {
            activity.changed.notify_one();
        }
    }
}

/// Spawns each stream's task (hyper's `H2Stream`: the request, then its response body) through
/// [`run_stream`], counted in [`Activity`] while it runs. A stream is given up by dropping its
/// task, which drops everything the stream holds (the response body with its upstream
/// connection, pool place, read-ahead memory and spool file) and makes h2 reset the stream
/// (RST_STREAM(CANCEL)); no task of its own watches it, and nothing outlives it.
#[derive(Clone)]
pub(crate) struct StreamExecutor {
    activity: Arc<Activity>,
    send_timeout: Duration,
}

impl<F> hyper::rt::Executor<F> for StreamExecutor
where
    F: Future<Output = ()> + Send + 'static,
{
    fn execute(&self, stream: F) {
        let in_flight = self.activity.begin();
        let send_timeout = self.send_timeout;
        tokio::spawn(async move {
            let _in_flight = in_flight;
            run_stream(stream, send_timeout).await;
        });
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

/// Reads the client's frame headers as they pass, to count PING and SETTINGS frames against a
/// budget ([`CONTROL_FRAME_BURST`], regained at [`CONTROL_FRAMES_PER_SECOND`]), and to tell
/// [`Activity`] when a read leaves a request head unfinished (for `header_timeout`). Past the
/// budget, `flood` is notified and reading stops, so the flood costs nothing more while the
/// GOAWAY goes out.
pub(crate) struct FrameWatch<T> {
    io: T,
    parser: FrameParser,
    budget: Budget,
    flood: Arc<Notify>,
    flooded: bool,
    activity: Arc<Activity>,
    /// Whether the last read left a request head unfinished.
    head_pending: bool,
}

impl<T> FrameWatch<T> {
    fn new(io: T, flood: Arc<Notify>, activity: Arc<Activity>) -> FrameWatch<T> {
        FrameWatch {
            io,
            parser: FrameParser::default(),
            budget: Budget::new(Instant::now()),
            flood,
            flooded: false,
            activity,
            head_pending: false,
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
            // Most heads come whole in one read: only one split across reads costs more than
            // this comparison.
            let head_pending = this.parser.in_head();
            if head_pending != this.head_pending {
                this.head_pending = head_pending;
                this.activity.head_pending(head_pending);
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
const TYPE_HEADERS: u8 = 0x1;
const TYPE_SETTINGS: u8 = 0x4;
const TYPE_PING: u8 = 0x6;
const TYPE_CONTINUATION: u8 = 0x9;
const FLAG_ACK: u8 = 0x1;
const FLAG_END_HEADERS: u8 = 0x4;

/// Follows frame boundaries across reads; only the 9-byte headers are looked at.
#[derive(Debug)]
pub(crate) struct FrameParser {
    /// Preface bytes still to skip.
    preface_left: usize,
    header: [u8; FRAME_HEADER_LEN],
    header_len: usize,
    /// Payload bytes of the current frame still to skip.
    payload_left: usize,
    /// Inside a header block: from a HEADERS frame's header to the end of the frame that carries
    /// END_HEADERS (RFC 9113 §4.3: no other frame may come in between).
    in_block: bool,
    /// The current frame ends the header block.
    ends_block: bool,
}

impl Default for FrameParser {
    fn default() -> FrameParser {
        FrameParser {
            preface_left: PREFACE_LEN,
            header: [0; FRAME_HEADER_LEN],
            header_len: 0,
            payload_left: 0,
            in_block: false,
            ends_block: false,
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
                if self.payload_left == 0 {
                    self.frame_done();
                }
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
                    if matches!(kind, TYPE_HEADERS | TYPE_CONTINUATION) {
                        self.in_block = true;
                        self.ends_block = flags & FLAG_END_HEADERS != 0;
                    }
                    if self.payload_left == 0 {
                        self.frame_done();
                    }
                }
            }
        }
        control
    }

    fn frame_done(&mut self) {
        if self.ends_block {
            self.in_block = false;
            self.ends_block = false;
        }
    }

    /// Whether the bytes so far leave a header block unfinished: HEADERS then CONTINUATION
    /// frames, up to END_HEADERS and the end of that frame. (A frame header cut short is not
    /// counted: it happens all along a large upload, whose waits `body_timeout` bounds.)
    pub(crate) fn in_head(&self) -> bool {
        self.in_block
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
