//! One client connection's task: read a head, hand the request to the proxy (boxed, only while
//! it runs), write the response, and again while keep-alive allows. Nothing else runs for the
//! connection: no task of its own for the body, no channel between reader and writer.

use std::future::{poll_fn, Future as _};
use std::net::SocketAddr;
use std::sync::Arc;
use std::task::Poll;
use std::time::Duration;

use bytes::Buf;
use http::{Method, Version};
use tokio::time::Instant;

use super::body::BodyReader;
use super::head::{self, Framing, Parsed};
use super::io::{read_into_scratch, BodyState, Inner, Shared, SharedStream, Stream, CONTINUE};
use super::write::{write_response, RequestFacts};
use crate::error::CodecError;
use crate::head_view::Request;
use crate::proxy::{ClientInfo, Proxy};
use crate::request_body::ClientBody;
use crate::spares::SpareBox;

/// The connection settings in force when the connection came.
#[derive(Debug, Clone)]
pub struct Settings {
    pub header_timeout: Duration,
    pub keepalive_timeout: Duration,
    pub keepalive_requests: u64,
    pub max_header_size: usize,
    /// After this long without a byte of the next request, the connection leaves its task and
    /// waits in the park ([`super::park`]); `None`: it waits in its task (TLS, tests).
    pub park_after: Option<Duration>,
    /// The listener the connection was accepted on, for routes bound to listeners: shared with
    /// its accept loop, as an `async fn`'s arguments take their room twice in its future.
    pub listener: Arc<crate::routing::Listener>,
}

/// Where a connection finds the proxy in force when a request starts. The connection keeps the
/// proxy its last request used (`held`) and asks again for each request; the server hands back
/// the held one unless a reload came since, so a request costs no reference count on the shared
/// proxy. A request keeps the proxy it started with: `held` changes only between requests.
pub trait ProxyInForce {
    /// The proxy for a request starting now, kept in `held` (replaced when it is not in force).
    fn current<'held>(&mut self, held: &'held mut Option<Arc<Proxy>>) -> &'held Arc<Proxy>;
}

/// A closure gives the proxy afresh for every request.
impl<F: Fn() -> Arc<Proxy>> ProxyInForce for F {
    fn current<'held>(&mut self, held: &'held mut Option<Arc<Proxy>>) -> &'held Arc<Proxy> {
        held.insert(self())
    }
}

/// Where a connection's request loop starts: a new connection, or one back from the park.
#[derive(Debug, Clone, Copy)]
pub struct Start {
    /// Requests served on the connection so far.
    pub requests: u64,
    /// When the wait for the next request's first byte ends (`header_timeout` after the
    /// accept for the first request, `keepalive_timeout` after the last answer for the others).
    pub deadline: Instant,
}

impl Start {
    /// A connection just accepted.
    pub fn new(settings: &Settings) -> Start {
        Start {
            requests: 0,
            deadline: Instant::now() + settings.header_timeout,
        }
    }
}

/// A connection handed back idle to be parked: no byte of a next request read, no request in
/// progress, nothing owed to the client.
pub struct Idle {
    pub io: Box<dyn Stream>,
    /// Where its loop starts again when it wakes.
    pub start: Start,
}

/// After an answer that ends the connection, how long unread request bytes are read and thrown
/// away so that closing does not reset the connection before the client has read the answer
/// (nginx's lingering close).
const LINGER_TIME: Duration = Duration::from_secs(2);
/// The most bytes thrown away while lingering.
const LINGER_BYTES: usize = 1024 * 1024;

/// Serves requests on `io` from `start` until the client closes, keep-alive ends, or `stop`
/// turns true (after the response in progress); or, when `settings.park_after` is set, until
/// the connection has been quiet that long: then it is handed back as [`Idle`], to be parked
/// and served again from its [`Idle::start`] when it wakes. `proxy` gives the proxy in force
/// when a request starts (held between requests, see [`ProxyInForce`]). `tls` is the TLS connection `io` runs over, if any (for forwarding
/// headers and the log).
pub async fn serve<F>(
    io: Box<dyn Stream>,
    peer: SocketAddr,
    settings: Settings,
    mut proxy: F,
    stop: tokio::sync::watch::Receiver<bool>,
    tls: Option<Arc<crate::tls::TlsInfo>>,
    start: Start,
) -> Option<Idle>
where
    F: ProxyInForce,
{
    let mut held = None;
    // The servers of the last request's upstream, kept as the proxy is (`upstream::Kept`).
    let mut kept = crate::upstream::Kept::default();
    let mut shared = Shared::new(io);
    let mut requests = start.requests;
    // The first head must come within header_timeout of the accept; later ones may wait
    // keepalive_timeout for their first byte, and then header_timeout for the rest.
    let mut deadline = start.deadline;
    let mut park_after = settings.park_after;
    // One timer for the connection's waits for a head, moved to each wait's deadline: a later
    // one moves it in place, where a timer made per wait was put into the runtime's timer
    // wheel and taken out again for every request. Boxed (an allocation per connection, or
    // per wake from the park): in this future it took the room of an idle connection twice.
    let mut head_timer = Box::pin(tokio::time::sleep_until(deadline));
    // The wait for the stop, made once for the connection (on a receiver of its own, as the
    // wait borrows it): made per wait for a head, it put a waiter into the watch's list and took
    // it out again, under the lock every connection of every thread shares, for every request.
    // Polled once, to put the task's waker in the list; after that a wake finds the change by
    // `has_changed` (two loads), where a poll of the wait cost some 170 instructions.
    let mut stop_watch = stop.clone();
    let mut stop_wait = std::pin::pin!(stop_watch.changed());
    let mut stop_waiting = false;
    let mut stopped = poll_fn(|context| {
        if !stop_waiting {
            stop_waiting = true;
            if stop_wait.as_mut().poll(context).is_ready() {
                return Poll::Ready(());
            }
        }
        // A sender gone is a stop too, as `changed` says by its error.
        if stop.has_changed().unwrap_or(true) {
            Poll::Ready(())
        } else {
            Poll::Pending
        }
    });
    // When the wait for the next head gives up quietly (`park_after`, else the deadline): made
    // where the deadline is, from the same read of the clock as a request ends (read again at
    // the loop's top, it was two reads back to back, some 40 instructions each).
    let quiet = |deadline: Instant, park_after: Option<Duration>, now: Instant| match park_after {
        Some(after) => deadline.min(now + after),
        None => deadline,
    };
    let mut quiet_until = quiet(deadline, park_after, Instant::now());
    // While the connection waits for a head, this future holds little; everything a request
    // needs lives in the boxed phases below, which exist only while they run.
    let linger = loop {
        if *stop.borrow() {
            break false;
        }
        // The head first (`biased`): a head already in is served (the stop makes it the last),
        // and no random number is drawn to choose.
        let read = tokio::select! {
            biased;
            read = read_head(&shared, &settings, quiet_until, head_timer.as_mut()) => read,
            () = &mut stopped => break false,
        };
        let head = match read {
            Ok(HeadRead::Head(head)) => head,
            Ok(HeadRead::Closed) => break false,
            Ok(HeadRead::Quiet) if quiet_until < deadline => {
                // Quiet for park_after: hand the connection back to be parked, if nothing
                // else holds it (else wait on here).
                match Arc::try_unwrap(shared) {
                    Ok(alone) => {
                        let inner = alone.into_inner();
                        return Some(Idle {
                            io: inner.io,
                            start: Start { requests, deadline },
                        });
                    }
                    Err(held) => {
                        shared = held;
                        park_after = None;
                        quiet_until = deadline;
                        continue;
                    }
                }
            }
            Ok(HeadRead::Quiet) => break false,
            Err(refusal) => {
                let proxy = proxy.current(&mut held);
                break Box::pin(refuse(&shared, peer, refusal, proxy)).await;
            }
        };
        requests += 1;
        let last = !head.keep_alive
            || settings.keepalive_timeout.is_zero()
            || (settings.keepalive_requests != 0 && requests >= settings.keepalive_requests)
            || *stop.borrow();
        let exchange = Exchange {
            shared: &shared,
            peer: &peer,
            tls: tls.as_ref(),
            settings: &settings,
            request: requests,
            last,
        };
        // Boxed (an idle connection's task holds no room for a request), in a box whose
        // memory this thread keeps for its next request.
        match SpareBox::with(|| exchange.run(head, proxy.current(&mut held), &mut kept)).await {
            Next::Request => {
                shared.lock().release_buffer();
                let now = Instant::now();
                deadline = now + settings.keepalive_timeout;
                quiet_until = quiet(deadline, park_after, now);
            }
            Next::Close { linger } => break linger,
        }
    };
    if linger {
        Box::pin(close(SharedStream(shared), true)).await;
    } else {
        close(SharedStream(shared), false).await;
    }
    None
}

/// What the connection does after a request.
enum Next {
    /// Waits for the next request.
    Request,
    /// Ends, reading and dropping what the client still sends for a while when `linger`.
    Close { linger: bool },
}

/// Answers a head the codec refused (or, for a head time-out, only records it); the connection
/// then ends. Returns whether to linger.
async fn refuse(
    shared: &Arc<Shared>,
    peer: SocketAddr,
    refusal: CodecError,
    proxy: &Proxy,
) -> bool {
    proxy.record_refused(peer, refusal);
    if !refusal.is_answered() {
        // A head time-out: nginx closes without an answer too.
        return false;
    }
    tracing::debug!(client = %peer, %refusal, "request refused");
    let response = proxy.refused_answer(refusal);
    let facts = RequestFacts {
        head: false,
        version: Version::HTTP_11,
        keep_alive: false,
    };
    let _ = write_response(&mut SharedStream(Arc::clone(shared)), response, facts, None).await;
    true
}

/// One request on the connection, from its head to the end of its answer.
struct Exchange<'a> {
    shared: &'a Arc<Shared>,
    /// Borrowed (the connection's): held by value, its 32 bytes took their room in every state
    /// of the request's future.
    peer: &'a SocketAddr,
    tls: Option<&'a Arc<crate::tls::TlsInfo>>,
    settings: &'a Settings,
    /// The request's number on the connection, from 1.
    request: u64,
    /// Whether the connection ends after it (keep-alive limits, shutdown, the client's wish).
    last: bool,
}

impl<'a> Exchange<'a> {
    /// Not an `async fn`, whose `self` took its room twice in every state (the argument and
    /// the local it is moved into, 72 bytes each): the block captures the fields it uses, once.
    #[allow(clippy::manual_async_fn)] // reason: as an `async fn` its future held `self` twice
    fn run<'run>(
        self,
        head: Box<head::Head>,
        proxy: &'run Proxy,
        kept: &'run mut crate::upstream::Kept,
    ) -> impl std::future::Future<Output = Next> + use<'a, 'run> {
        async move {
            let shared = self.shared;
            let facts = RequestFacts {
                head: head.parts.method == Method::HEAD,
                version: head.parts.version,
                keep_alive: !self.last,
            };
            let framing = head.framing;
            let body = {
                let mut inner = shared.lock();
                inner.request = self.request;
                inner.body_read = 0;
                inner.body = match framing {
                    Framing::Empty => BodyState::Done,
                    Framing::Length(length) => BodyState::Length(length),
                    Framing::Chunked => BodyState::Chunked(super::chunked::Decoder::new()),
                };
                if head.expect_continue {
                    inner.continue_due = CONTINUE.len();
                }
                match framing {
                    Framing::Empty => ClientBody::Empty,
                    Framing::Length(length) => ClientBody::H1(BodyReader::new(
                        Arc::clone(shared),
                        self.request,
                        Some(length),
                    )),
                    Framing::Chunked => {
                        ClientBody::H1(BodyReader::new(Arc::clone(shared), self.request, None))
                    }
                }
            };
            let request = Request::from_parts(head::take_parts(head), body);
            let client = ClientInfo {
                peer: *self.peer,
                last_request: self.last,
                tls: self.tls.cloned(),
                listener: *self.settings.listener,
            };
            // Made once the answer is ready: a local the request phase's state need not hold.
            let mut stream;
            // The answer is a local of the block awaited below only, moved into the writer's
            // future at its end (as it always was: no copy more): it is borrowed, and as a local
            // of the function it kept its room (384 bytes) in every later state, the request
            // phase's included, which was laid out after that room. (The block's value is the
            // writer's future alone, awaited as it is: a tuple of it and the upgrade copied the
            // future, 1,088 bytes, once more per request.)
            let upgrade;
            // Matched where it is made: a local for the outcome kept its 16 bytes in every state.
            let Ok(written) = {
                // The request phase's future ends in this block: the writing below does not
                // carry it (it is most of this future's size; kept alive, the writer's state came
                // on top). One await for the request phase: a future awaited at two points takes
                // its room in every state of this one (the writer's and the tunnel's came on top
                // of it). The request phase's future is made in place and pinned there: `select!`
                // then holds a reference to it, where it moved the whole future (1,300 bytes) into
                // a tuple of its own. Polled first (`biased`): the answer, when it is ready, is
                // what counts, and no random number is drawn to choose.
                let mut response = {
                    let mut handling = std::pin::pin!(proxy.handle(client, request, Some(kept)));
                    // Once the body is read (at once without one), a read that finds the
                    // connection closed means the client left: the request is dropped (and
                    // logged as 499). Before, the body reader sees the client leave.
                    let client_left = closed(shared, self.settings.max_header_size);
                    tokio::select! {
                        biased;
                        response = &mut handling => response,
                        () = client_left => return Next::Close { linger: false },
                    }
                };
                if response
                    .extensions()
                    .get::<crate::error::CloseUnanswered>()
                    .is_some()
                {
                    // nginx `return 444`: the connection ends without a byte of answer.
                    return Next::Close { linger: false };
                }
                // (Moving the answer out through a function of its own, which the writing was once,
                // cost more copying per request than the room it saved: callgrind, `memcpy` +156
                // instructions on a 429.)
                // The upgrade is boxed (rare: a WebSocket's tunnel), as it is held while the
                // answer is written: its 40 bytes took their room in every state of this future.
                upgrade = response
                    .extensions_mut()
                    .remove::<crate::tunnel::Upgrade>()
                    .filter(|_| response.status() == http::StatusCode::SWITCHING_PROTOCOLS)
                    .map(Box::new);
                stream = SharedStream(Arc::clone(shared));
                write_response(&mut stream, response, facts, Some(shared))
            }
            .await
            else {
                return Next::Close { linger: false };
            };
            if let Some(upgrade) = upgrade {
                {
                    let mut inner = shared.lock();
                    inner.body = BodyState::Done;
                    inner.request = 0;
                }
                crate::tunnel::run(stream, *upgrade).await;
                return Next::Close { linger: false };
            }
            if !written.keep_alive || self.last {
                return Next::Close {
                    linger: !body_done(shared),
                };
            }
            if !body_done(shared) && !discard_body(shared, self.request).await {
                // The answer came before the body was read whole (a 429 to an upload, an early
                // answer from the upstream) and the rest is too large or too slow to throw away:
                // it cannot be told from a next request, so the connection ends.
                return Next::Close { linger: true };
            }
            Next::Request
        }
    }
}

/// After an answer that left the request body unread, what is read and thrown away so the
/// connection can carry the next request (nginx discards such bodies too): at most this much...
const DISCARD_BYTES: u64 = 64 * 1024;
/// ...within this long.
const DISCARD_TIME: Duration = Duration::from_secs(1);

/// Reads the rest of request `request`'s body and drops it: true once it is all read, false
/// when it is more than [`DISCARD_BYTES`], takes longer than [`DISCARD_TIME`], or breaks.
async fn discard_body(shared: &Arc<Shared>, request: u64) -> bool {
    use http_body::Body as _;
    {
        let inner = shared.lock();
        if inner.continue_due > 0 {
            // The client waits for a `100 Continue` that a final answer replaced: whether it
            // sends the body now is its choice, so nothing after can be read as a request.
            return false;
        }
        if matches!(inner.body, BodyState::Length(left) if left > DISCARD_BYTES) {
            return false;
        }
    }
    let mut body = BodyReader::new(Arc::clone(shared), request, None);
    let discard = async {
        let mut thrown = 0u64;
        while let Some(frame) =
            poll_fn(|context| std::pin::Pin::new(&mut body).poll_frame(context)).await
        {
            let Ok(frame) = frame else { return false };
            thrown += frame.data_ref().map_or(0, |data| data.len() as u64);
            if thrown > DISCARD_BYTES {
                return false;
            }
        }
        true
    };
    tokio::time::timeout(DISCARD_TIME, discard)
        .await
        .unwrap_or(false)
        && body_done(shared)
}

fn body_done(shared: &Shared) -> bool {
    matches!(shared.lock().body, BodyState::Done)
}

/// What waiting for a head gave.
enum HeadRead {
    Head(Box<head::Head>),
    /// The client closed (or the connection failed) before a whole head.
    Closed,
    /// Not a byte came before the deadline.
    Quiet,
}

/// Reads until a whole head is in; the first byte must come by `quiet_until`, the rest within
/// `header_timeout` of it.
async fn read_head(
    shared: &Shared,
    settings: &Settings,
    quiet_until: Instant,
    mut timer: std::pin::Pin<&mut tokio::time::Sleep>,
) -> Result<HeadRead, CodecError> {
    let mut deadline = quiet_until;
    let mut started = false;
    // How much of `leftover` the last parse saw. A head sent in small pieces is parsed again
    // only when the new bytes hold a blank line (the end of a head), when what is held has
    // doubled, or when it passed the size limit: linear work in the head's size, where a parse
    // after every read was quadratic within `header_timeout`.
    let mut parsed = 0;
    loop {
        {
            let mut inner = shared.lock();
            if !inner.leftover.is_empty()
                && worth_parsing(&inner.leftover, parsed, settings.max_header_size)
            {
                parsed = inner.leftover.len();
                match head::parse(&inner.leftover, settings.max_header_size)? {
                    Parsed::Complete(head, length) => {
                        inner.leftover.advance(length);
                        inner.release_buffer();
                        return Ok(HeadRead::Head(head));
                    }
                    Parsed::Partial if !started => {
                        started = true;
                        deadline = Instant::now() + settings.header_timeout;
                    }
                    Parsed::Partial => {}
                }
            }
        }
        if timer.deadline() != deadline {
            timer.as_mut().reset(deadline);
        }
        // The read first, then the deadline, as `timeout_at` polls them.
        let read_some = |context: &mut std::task::Context<'_>| {
            let mut inner = shared.lock();
            let Inner { io, leftover, .. } = &mut *inner;
            read_into_scratch(&mut **io, context, |bytes| {
                if bytes.is_empty() {
                    return Read::Closed;
                }
                if !leftover.is_empty() {
                    leftover.extend_from_slice(bytes);
                    return Read::More;
                }
                // The common case: a whole head in one read, parsed where it landed.
                match head::parse(bytes, settings.max_header_size) {
                    Ok(Parsed::Complete(head, length)) => {
                        leftover.extend_from_slice(&bytes[length..]);
                        Read::Head(head)
                    }
                    Ok(Parsed::Partial) => {
                        leftover.extend_from_slice(bytes);
                        Read::More
                    }
                    Err(refusal) => Read::Refused(refusal),
                }
            })
        };
        let read = poll_fn(|context| match read_some(context) {
            Poll::Ready(read) => Poll::Ready(Ok(read)),
            Poll::Pending => timer.as_mut().poll(context).map(Err),
        })
        .await;
        match read {
            Err(_elapsed) if started => return Err(CodecError::HeadTimeout),
            Err(_elapsed) => return Ok(HeadRead::Quiet),
            Ok(Err(error)) => {
                tracing::debug!(%error, "client connection read failed");
                return Ok(HeadRead::Closed);
            }
            Ok(Ok(Read::Closed)) => return Ok(HeadRead::Closed),
            Ok(Ok(Read::Head(head))) => return Ok(HeadRead::Head(head)),
            Ok(Ok(Read::Refused(refusal))) => return Err(refusal),
            Ok(Ok(Read::More)) => {
                if !started {
                    started = true;
                    deadline = Instant::now() + settings.header_timeout;
                }
            }
        }
    }
}

/// Whether `held` (of which a parse already saw the first `parsed` bytes) could now give a
/// different answer than that parse did: a blank line among the new bytes (with the three
/// bytes before them, where it may begin), twice the bytes, or more than the limit.
fn worth_parsing(held: &[u8], parsed: usize, max_size: usize) -> bool {
    if parsed == 0 || held.len() >= parsed.saturating_mul(2) || held.len() > max_size {
        return true;
    }
    let fresh = &held[parsed.saturating_sub(3).min(held.len())..];
    fresh.windows(2).any(|pair| pair == b"\n\n")
        || fresh.windows(3).any(|triple| triple == b"\n\r\n")
}

enum Read {
    Closed,
    More,
    Head(Box<head::Head>),
    Refused(CodecError),
}

/// Completes when the client closes the connection (or it fails), once the request's body has
/// been read whole (at once for a request without one): reading before would take the body's
/// bytes. Bytes that come meanwhile (a pipelined request) are kept, up to one head's worth; past
/// that, reading stops. Until the body is read it only looks, at each wake of the request's
/// task: the body's last read is made in that task, which then polls this again. So a request
/// whose buffered body was read, waiting in a pool's queue, is dropped there when its client
/// leaves, as one without a body is; before, it went on to the app, which served nobody. Not
/// an `async fn`: beside the request phase in every request's future, as a closure it holds
/// its two arguments only (an `async` block awaiting it held 96 bytes).
fn closed(shared: &Shared, limit: usize) -> impl std::future::Future<Output = ()> + '_ {
    poll_fn(move |context| loop {
        let mut inner = shared.lock();
        let Inner {
            io, leftover, body, ..
        } = &mut *inner;
        if !matches!(body, BodyState::Done) || leftover.len() > limit {
            return Poll::Pending;
        }
        match read_into_scratch(&mut **io, context, |bytes| {
            leftover.extend_from_slice(bytes);
            bytes.is_empty()
        }) {
            Poll::Pending => return Poll::Pending,
            Poll::Ready(Ok(false)) => continue,
            Poll::Ready(Ok(true) | Err(_)) => return Poll::Ready(()),
        }
    })
}

/// Ends the connection: our side is shut, and when `linger`, the client's unread bytes are
/// read and dropped for a while, so the answer is not lost to a reset.
async fn close(mut stream: SharedStream, linger: bool) {
    use tokio::io::AsyncWriteExt;
    let _ = stream.shutdown().await;
    if !linger {
        return;
    }
    let discard = async {
        let mut thrown = 0;
        loop {
            let read = poll_fn(|context| {
                let mut inner = stream.0.lock();
                inner.leftover.clear();
                read_into_scratch(&mut *inner.io, context, <[u8]>::len)
            })
            .await;
            match read {
                Ok(0) | Err(_) => return,
                Ok(read) => thrown += read,
            }
            if thrown > LINGER_BYTES {
                return;
            }
        }
    };
    let _ = tokio::time::timeout(LINGER_TIME, discard).await;
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Ceilings for [`the_request_phase_future_stays_under_its_ceiling`], in the test profile:
    /// 9,120 and 6,840 bytes on main 12c7ac4; 7,560 and 5,288 once `X-Accel-Redirect`'s second
    /// phase was boxed and the request phase ended before the response is written; 5,240 and
    /// 2,976 once the Redis check, a limit's delay, body buffering, static files and connecting
    /// were boxed where they happen, and `Proxy::handle`, `Proxy::exchange` and `Upstream::send`
    /// stopped being `async fn`s (whose arguments take their room twice); 3,360 and 2,616 once
    /// the request phase was awaited at one point only (awaited at two, it took its room in
    /// every state of `Exchange::run`, the writer's included) and `Proxy::exchange` borrowed
    /// the request and the client. `cargo +nightly rustc -p weir --lib -- -Zprint-type-sizes`
    /// shows what each state holds; 3,224 and 2,480 once the rate-limit decision was no longer a
    /// local that kept its room after being moved. (Moving the answer out through a function
    /// took 392 bytes more off, but cost more `memcpy` per request than it saved.) 2,240 and
    /// 1,304 once the upstream exchange (`Upstream::send`, 1,120 bytes) went into a `SpareBox` of
    /// its own and `Proxy::exchange`'s upstream response became a block's local (borrowed, it
    /// kept its 384 bytes through the `X-Accel-Redirect` await); `Exchange::run` is then as
    /// large as its writing state (`write_response`'s future, 1,624 bytes, beside the answer).
    /// 2,024 and 1,296 once `write_response` encoded the head before making its future (1,088
    /// bytes, the body and the head once each); `Exchange::run` is then as large as its request
    /// phase state (`Proxy::handle`'s future beside the client-left watch, 1,384 bytes).
    /// 2,056 and 1,320 once the connection lent the request its upstream's servers
    /// (`upstream::Kept`: a pointer in `Exchange::run`, in `Proxy::handle`'s future and in
    /// `Proxy::exchange`'s, with 8 bytes of padding), for a reference count up and down less
    /// per request on a line every thread writes. 2,072 and 1,320 once that future was pinned
    /// where it is made and `select!` held a reference to it (16 bytes more, and no copy of the
    /// whole future per request: 14,964 -> 14,203 instructions per 429 with the loop's
    /// `select!`s made `biased`). 1,728 and 976 once the logging exit's access-log entry (224
    /// bytes) was boxed, made only when the access log is on, the server that answered went
    /// into that entry, not beside it, and the rate limits' decision was made into one local
    /// (the `limits::Checked` matched, partly moved out of, kept its 128 bytes across the
    /// awaited decision). 1,280 and 976 once `Exchange::run` was no longer an `async fn` (its
    /// `self`, 72 bytes, was held twice) and its answer became a block's local, moved into the
    /// writer's future at the block's end (a borrowed local of the function, it kept its 384
    /// bytes in every state, and the request phase's state was laid out after them);
    /// `Exchange::run` is then as large as its request phase state (`Proxy::handle`'s future
    /// beside the client-left watch, 96 bytes) and, 16 bytes less, its writing state
    /// (`write_response`'s future, 1,088 bytes). (With the block's value a tuple of the
    /// writer's future and the upgrade it was 1,264, but the future was copied once more per
    /// request: `memcpy` +85 instructions.) 1,248 once the upgrade held while the answer is
    /// written (a WebSocket's tunnel, 40 bytes in every state) was boxed. 1,024 and 856 (issue
    /// 18's 1 KiB), knowing that a local live across two awaits keeps its room in every state
    /// (print-type-sizes shows it as padding where it is not live): in the writer the body's
    /// frames (96 bytes, trailers' room, three locals) became its data alone and the splice went
    /// into a spare box of its own (288 bytes after the loop's locals), 1,088 -> 824, which was
    /// the 456-byte gap; `Proxy::exchange` stopped being an `async fn` (arguments twice) and the
    /// target's rule names were boxed (rare, 48 bytes), 440 -> 344; `Proxy::handle` reads the
    /// client's address from its guard (17 bytes) and keeps the rules' host as a `Box<str>`
    /// (-8), 976 -> 856; `Exchange::run` watches the client leave with a closure (24 bytes, not
    /// an `async` block of 96), holds the peer by reference (-24) and no longer keeps the
    /// writer's outcome (16) or the framing (16, borrowed by `==`) in every state. 1,016 and 848
    /// once the request body towards the upstream boxed its streamed state (88 -> 40 bytes) and
    /// the upstream's response body went into a `SpareBox` (a `Body` 280 -> 64 bytes). 1,016
    /// and 856 once `basic_auth`'s costly check became an await of its own (its future boxed;
    /// the box, 8 bytes, is live beside the rate limits' decision: the check's `Pending`
    /// unboxed took 120). 1,024 and 864 once `auth_request` became an await of its own after it
    /// (its future boxed, 8 bytes); the headers its answer gives are kept in the log's record
    /// (8 bytes of `Proxy::handle`'s), where a local of the request phase held across the
    /// sending took 280, and one in the upstream target 16. `$request_id` shares that box
    /// (`logging::Rare`): its own took 8 more.
    const CEILING_EXCHANGE: usize = 1_024;
    const CEILING_HANDLE: usize = 864;

    const TEST_LISTENER: crate::routing::Listener = crate::routing::Listener {
        addr: SocketAddr::new(std::net::IpAddr::V4(std::net::Ipv4Addr::LOCALHOST), 0),
        tls: false,
        port: 0,
    };

    /// A head that comes a byte at a time is parsed a few times (when it doubles, and at its
    /// blank line), not after every byte: that was quadratic work within `header_timeout`.
    #[tokio::test(flavor = "current_thread")]
    async fn a_head_sent_a_byte_at_a_time_is_parsed_a_few_times() {
        use tokio::io::AsyncWriteExt as _;
        let mut head = String::from("GET /a HTTP/1.1\r\nHost: a.test\r\n");
        for index in 0..100 {
            head.push_str(&format!("X-Pad-{index}: {}\r\n", "v".repeat(20)));
        }
        head.push_str("\r\n");
        // A pipe of one byte: every read the loop makes finds one byte.
        let (io, mut client) = tokio::io::duplex(1);
        let writer = tokio::spawn(async move {
            client.write_all(head.as_bytes()).await.expect("write");
            client
        });
        let settings = Settings {
            header_timeout: Duration::from_secs(30),
            keepalive_timeout: Duration::from_secs(30),
            keepalive_requests: 0,
            max_header_size: 8192,
            park_after: None,
            listener: Arc::new(TEST_LISTENER),
        };
        let shared = Shared::new(Box::new(io));
        head::PARSES.with(|parses| parses.set(0));
        let deadline = Instant::now() + Duration::from_secs(30);
        let timer = std::pin::pin!(tokio::time::sleep_until(deadline));
        let read = read_head(&shared, &settings, deadline, timer).await;
        let parses = head::PARSES.with(std::cell::Cell::get);
        let Ok(HeadRead::Head(parsed)) = read else {
            panic!("a whole head");
        };
        assert_eq!(parsed.parts.uri.path(), "/a");
        assert!(
            parses <= 2 * 16,
            "a head of about 3,300 bytes was parsed {parses} times"
        );
        drop(writer.await);
    }

    /// The size of the future `make` returns, never made: a future's size is its type's.
    fn future_size<A, B, C, Fut>(_make: impl Fn(A, B, C) -> Fut) -> usize {
        std::mem::size_of::<Fut>()
    }

    /// The request phase is boxed once per request, and boxing it copies the whole future (its
    /// size, whatever state it starts in): in a release build that copy was ~9,100 of the
    /// 29,400 instructions of a 429 (callgrind, scripts/callgrind-ir). A ratchet on its size in
    /// this build (the test profile), to be lowered towards issue 18's 1 KiB as rare work moves
    /// into boxes of its own; the request future itself is bounded beside it.
    #[test]
    fn the_request_phase_future_stays_under_its_ceiling() {
        let exchange = future_size(
            |exchange: Exchange<'static>,
             head: Box<head::Head>,
             (proxy, kept): (&'static Proxy, &'static mut crate::upstream::Kept)| {
                exchange.run(head, proxy, kept)
            },
        );
        let handle = future_size(
            |proxy: &'static Proxy, client: ClientInfo, request: Request<ClientBody>| {
                proxy.handle(client, request, None)
            },
        );
        eprintln!("request phase future: {exchange} bytes (Proxy::handle: {handle})");
        assert!(
            exchange <= CEILING_EXCHANGE,
            "the request phase future is {exchange} bytes"
        );
        assert!(
            handle <= CEILING_HANDLE,
            "Proxy::handle's future is {handle} bytes"
        );
    }

    /// An idle connection's task is this future (inside tokio's task cell): the request phase
    /// is boxed, so waiting for a head costs its timer (a `Sleep`, boxed once per connection
    /// and moved for each wait: 680 bytes in all since, from 792 with it unboxed), the shutdown
    /// watch's future (120) and the head reader, not a request's worth (720 bytes when this was
    /// written; with the request phase unboxed it was 7,056). A connection quiet for
    /// `park_after` leaves even this (see `park.rs`).
    #[test]
    fn the_idle_connection_future_is_small() {
        let (io, _other) = tokio::io::duplex(64);
        let (_stop_sender, stop) = tokio::sync::watch::channel(false);
        let settings = Settings {
            header_timeout: Duration::from_secs(1),
            keepalive_timeout: Duration::from_secs(1),
            keepalive_requests: 0,
            max_header_size: 1024,
            park_after: Some(Duration::from_secs(1)),
            listener: Arc::new(TEST_LISTENER),
        };
        let peer: SocketAddr = "127.0.0.1:1".parse().expect("an address");
        let no_proxy = || -> Arc<Proxy> { unreachable!("no request is served") };
        let start = Start::new(&settings);
        let future = serve(Box::new(io), peer, settings, no_proxy, stop, None, start);
        let size = std::mem::size_of_val(&future);
        eprintln!("serve future: {size} bytes");
        assert!(size <= 768, "the connection future is {size} bytes");
    }
}
