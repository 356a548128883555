//! weir's own HTTP/1.1 client side, driven by the task of the request that uses the
//! connection: no task per connection, no channel. A request head (and a small body) goes out in
//! one vectored write; the response head is parsed where it was read; body bytes are handed on as
//! slices of the read buffer.

use std::collections::VecDeque;
use std::future::Future as _;
use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use bytes::{Buf, Bytes, BytesMut};
use http::{header, Method, StatusCode, Version};
use http_body::Body as _;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::time::{Instant, Sleep};

use crate::error::BodyError;
use crate::h1::chunked::{self, Step};
use crate::head_view::{Headers, RequestHead, Response};
use crate::header_list;
use crate::request_body::RequestBody;
use crate::spares::HeadBuffer;
use crate::upstream::stream::Stream;
use crate::write_timeout::WriteTimeout;

/// The largest response head accepted from an upstream (hyper's buffer limit before).
pub const MAX_RESPONSE_HEAD: usize = 64 * 1024;
/// Header lines a response may have.
const MAX_RESPONSE_HEADERS: usize = 256;
/// The least a response read asks for: large bodies move in pieces of this size at least.
const READ_SIZE: usize = 16 * 1024;

/// An open connection to an upstream server, and the bytes read past the last response.
pub struct ClientConn {
    pub(in crate::upstream) io: WriteTimeout<Stream>,
    pub(in crate::upstream) buf: BytesMut,
    /// The read time-out of the connection's exchanges (`read_timeout`): one timer for the
    /// connection's life, moved later for each wait. A timer moved later stays where it is in
    /// the runtime's timer wheel, while a new one per request cost an insert and a removal and,
    /// whenever it was the earliest, a wake-up of the runtime's driver (an eventfd write and an
    /// extra `epoll_wait`). Kept with the thread that made it: a connection handed to another
    /// thread (in the per-core layout, one runtime per thread) gets a timer of that thread's
    /// runtime, so no runtime's timer outlives it in another's hands.
    read_timer: Option<(std::thread::ThreadId, Pin<Box<Sleep>>)>,
    /// When the connection has been open for `keepalive_time` (set by
    /// [`ClientConn::expire_after`]): from then on it closes after its response instead of going
    /// back to the pool. `None`: never.
    expires: Option<Instant>,
    /// How long the connection took to open (nginx's `$upstream_connect_time` of its first
    /// request).
    pub(in crate::upstream) connect_time: Duration,
}

impl ClientConn {
    pub fn new(io: WriteTimeout<Stream>) -> ClientConn {
        ClientConn {
            io,
            buf: BytesMut::new(),
            read_timer: None,
            expires: None,
            connect_time: Duration::ZERO,
        }
    }

    /// The connection, just opened, is not to be reused once `lifetime` has passed (nginx
    /// `keepalive_time`).
    pub fn expire_after(&mut self, lifetime: Duration) {
        self.expires = Instant::now().checked_add(lifetime);
    }

    /// Whether the connection has been open its whole `keepalive_time` at `now`.
    pub fn expired(&self, now: Instant) -> bool {
        self.expires.is_some_and(|expires| now >= expires)
    }

    /// Bytes read past the response head and not yet handed on.
    pub fn buffered(&self) -> usize {
        self.buf.len()
    }

    /// Up to `most` of the bytes read and not yet handed on; once none is left, the read buffer's
    /// memory goes back (what follows bypasses it: `splice`).
    pub fn take_buffered(&mut self, most: usize) -> BytesMut {
        let taken = self.buf.split_to(most.min(self.buf.len()));
        if self.buf.is_empty() {
            self.buf = BytesMut::new();
        }
        taken
    }

    /// The socket, for a caller that moves bytes off it itself (`splice`).
    pub fn stream(&self) -> &Stream {
        self.io.get_ref()
    }

    /// Starts a wait of at most `timeout` from now for the server.
    pub fn start_read_timer(&mut self, timeout: Duration) {
        let deadline = Instant::now() + timeout;
        let thread = std::thread::current().id();
        match &mut self.read_timer {
            Some((owner, timer)) if *owner == thread => timer.as_mut().reset(deadline),
            _ => self.read_timer = Some((thread, Box::pin(tokio::time::sleep_until(deadline)))),
        }
    }

    /// Ready once the wait started by [`ClientConn::start_read_timer`] has run out.
    pub fn poll_read_timer(&mut self, context: &mut Context<'_>) -> Poll<()> {
        match &mut self.read_timer {
            Some((_, timer)) => timer.as_mut().poll(context),
            None => Poll::Pending,
        }
    }

    /// Before the connection goes idle into the pool: the timer lets go of the waker of the
    /// task that used the connection last, so that task is not kept alive by it.
    pub fn idle(&mut self) {
        if let Some((_, timer)) = &mut self.read_timer {
            let mut context = Context::from_waker(std::task::Waker::noop());
            // Unconstrained: with the task's budget spent, the poll would not replace the waker.
            let _ = Pin::new(&mut tokio::task::unconstrained(timer.as_mut())).poll(&mut context);
        }
    }

    /// Gives back what the connection needs only while it carries a request, once it has been
    /// idle a while (see `pool::SHED_AFTER`): its read buffer (~4 KiB, when it holds no byte)
    /// and its read timer. A burst of requests otherwise leaves every connection it opened
    /// holding them in the pool until its idle time-out; the next request makes them again.
    pub fn shed(&mut self) {
        if self.buf.is_empty() {
            self.buf = BytesMut::new();
        }
        self.read_timer = None;
    }

    /// The bytes the read buffer can hold without growing (0 once [`ClientConn::shed`]).
    #[cfg(test)]
    pub fn buffer_capacity(&self) -> usize {
        self.buf.capacity()
    }

    /// Whether the server closed the idle connection (or sent something unasked, which makes
    /// it unusable too): one read attempt that must find nothing to read.
    pub fn is_closed(&mut self) -> bool {
        if !self.buf.is_empty() {
            return true;
        }
        // A real look at the socket, not tokio's cached readiness: that is only as fresh as the
        // runtime's last look at epoll, so bytes a broken server sent since (a body after the
        // head of a HEAD, 204 or 304 answer) would be read as the next request's response.
        !self.io.get_ref().is_quiet()
    }
}

/// How a request body is framed towards the upstream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum RequestFraming {
    Empty,
    Length,
    Chunked,
}

/// Spare write queues a thread keeps at most, and the most pieces a kept queue has room for.
const SPARE_QUEUES: usize = 4;
const SPARE_QUEUE_CAPACITY: usize = 32;

thread_local! {
    /// Write queues of requests sent (see [`Sending`]'s drop), for this thread's next request.
    static SPARE_QUEUES_OF_THREAD: std::cell::RefCell<Vec<VecDeque<Bytes>>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// The request on its way out: the head first, then the body frame by frame.
pub struct Sending {
    framing: RequestFraming,
    body: Option<RequestBody>,
    /// The request's head, in a buffer of the thread's spares, and how much of it is written.
    head: HeadBuffer,
    head_written: usize,
    /// Pieces waiting to be written after the head, in order.
    queue: VecDeque<Bytes>,
    /// Whether a body frame was taken from the client (the request can no longer be sent again
    /// as it is).
    touched: bool,
    /// Whether any byte of the request was written.
    written: bool,
    /// A body that was whole in memory, kept (a reference, not a copy) to send again.
    whole: Option<Bytes>,
}

/// Why the request could not be sent.
#[derive(Debug)]
pub enum SendError {
    /// Writing to the upstream failed.
    Io(io::Error),
    /// The client's body failed (too large, timed out, client gone, malformed).
    Body(BodyError),
}

impl Sending {
    /// Encodes the head of the request (`encode_head`) and queues it, with a body whole in
    /// memory after it.
    pub fn new(parts: &RequestHead, body: RequestBody) -> Sending {
        let (framing, head) = encode_head(parts, body.size_hint().exact());
        let mut queue = crate::spares::take(&SPARE_QUEUES_OF_THREAD)
            .unwrap_or_else(|| VecDeque::with_capacity(4));
        let mut body = Some(body);
        let mut whole = None;
        // A whole body in memory goes out with the head.
        if let Some(RequestBody::Full(bytes)) = &mut body {
            if let Some(bytes) = bytes.take() {
                whole = Some(bytes.clone());
                queue.push_back(bytes);
            }
            body = None;
            if framing == RequestFraming::Chunked {
                queue.push_back(Bytes::from_static(b"0\r\n\r\n"));
            }
        }
        Sending {
            framing,
            body: body.filter(|_| framing != RequestFraming::Empty),
            head,
            head_written: 0,
            queue,
            touched: false,
            written: false,
            whole,
        }
    }

    /// The body, back, when nothing of the request was written (so nothing of it can have been
    /// acted on) and nothing of a streamed body was taken: for a retry on another connection.
    pub fn take_untouched_body(&mut self) -> Option<RequestBody> {
        if self.touched || self.written {
            return None;
        }
        match self.whole.take() {
            Some(whole) => Some(RequestBody::Full(Some(whole))),
            None => Some(self.body.take().unwrap_or(RequestBody::Full(None))),
        }
    }

    /// Writes what it can; `Ready(Ok(()))` once the whole request is written.
    pub fn poll_send(
        &mut self,
        io: &mut WriteTimeout<Stream>,
        context: &mut Context<'_>,
    ) -> Poll<Result<(), SendError>> {
        loop {
            // Take every body frame ready now, so they go out together.
            while self.queue.len() < 8 {
                let Some(body) = &mut self.body else { break };
                match Pin::new(&mut *body).poll_frame(context) {
                    Poll::Pending => break,
                    Poll::Ready(None) => {
                        self.body = None;
                        if self.framing == RequestFraming::Chunked {
                            self.queue.push_back(Bytes::from_static(b"0\r\n\r\n"));
                        }
                    }
                    Poll::Ready(Some(Err(error))) => {
                        self.body = None;
                        return Poll::Ready(Err(SendError::Body(error)));
                    }
                    Poll::Ready(Some(Ok(frame))) => {
                        self.touched = true;
                        let Ok(data) = frame.into_data() else {
                            continue;
                        };
                        if data.is_empty() {
                            continue;
                        }
                        if self.framing == RequestFraming::Chunked {
                            self.queue
                                .push_back(Bytes::from(format!("{:x}\r\n", data.len())));
                            self.queue.push_back(data);
                            self.queue.push_back(Bytes::from_static(b"\r\n"));
                        } else {
                            self.queue.push_back(data);
                        }
                    }
                }
            }
            let head = &self.head[self.head_written..];
            if head.is_empty() && self.queue.is_empty() {
                return if self.body.is_none() {
                    Poll::Ready(Ok(()))
                } else {
                    Poll::Pending
                };
            }
            let mut slices = [io::IoSlice::new(&[]); 8];
            let mut count = 0;
            for piece in std::iter::once(head)
                .filter(|head| !head.is_empty())
                .chain(self.queue.iter().map(|piece| &piece[..]))
                .take(slices.len())
            {
                slices[count] = io::IoSlice::new(piece);
                count += 1;
            }
            let written = match Pin::new(&mut *io).poll_write_vectored(context, &slices[..count]) {
                Poll::Pending => return Poll::Pending,
                Poll::Ready(Err(error)) => return Poll::Ready(Err(SendError::Io(error))),
                Poll::Ready(Ok(0)) => {
                    return Poll::Ready(Err(SendError::Io(io::ErrorKind::WriteZero.into())))
                }
                Poll::Ready(Ok(written)) => written,
            };
            self.written = true;
            let of_head = written.min(head.len());
            self.head_written += of_head;
            let mut left = written - of_head;
            while left > 0 {
                let Some(front) = self.queue.front_mut() else {
                    break;
                };
                if front.len() <= left {
                    left -= front.len();
                    self.queue.pop_front();
                } else {
                    front.advance(left);
                    left = 0;
                }
            }
        }
    }
}

/// The write queue goes back to this thread's spares, empty, for the next request.
impl Drop for Sending {
    fn drop(&mut self) {
        let mut queue = std::mem::take(&mut self.queue);
        if queue.capacity() <= SPARE_QUEUE_CAPACITY {
            queue.clear();
            crate::spares::give_back(&SPARE_QUEUES_OF_THREAD, queue, SPARE_QUEUES);
        }
    }
}

/// Encodes the head of a request (origin form, HTTP/1.1) with a body of `body_size` bytes (`None`:
/// not known before its end), choosing the body's framing: the client's `Content-Length` if any,
/// else the body's exact size, else chunked. The header lines are the view's
/// ([`Headers::write_into`](crate::head_view::Headers::write_into): the client's kept lines as
/// they came, then weir's), then the framing's line, in a head buffer of the thread's spares
/// (no allocation, and no pass over the view to size it first).
fn encode_head(parts: &RequestHead, body_size: Option<u64>) -> (RequestFraming, HeadBuffer) {
    let mut number = itoa::Buffer::new();
    let mut extra: Option<(&'static [u8], &[u8])> = None;
    let framing = if parts.headers.contains(header::CONTENT_LENGTH) {
        RequestFraming::Length
    } else {
        match body_size {
            Some(0) => {
                if matches!(parts.method, Method::POST | Method::PUT | Method::PATCH) {
                    extra = Some((b"content-length: ", b"0"));
                }
                RequestFraming::Empty
            }
            Some(length) => {
                extra = Some((b"content-length: ", number.format(length).as_bytes()));
                RequestFraming::Length
            }
            None => {
                extra = Some((b"transfer-encoding: ", b"chunked"));
                RequestFraming::Chunked
            }
        }
    };
    let target = parts.uri.path_and_query().map_or("/", |pq| pq.as_str());
    let mut buffer = HeadBuffer::take();
    let head = buffer.as_mut_vec();
    head.extend_from_slice(parts.method.as_str().as_bytes());
    head.extend_from_slice(b" ");
    head.extend_from_slice(target.as_bytes());
    head.extend_from_slice(b" HTTP/1.1\r\n");
    parts.headers.write_into(head);
    if let Some((name, value)) = extra {
        head.extend_from_slice(name);
        head.extend_from_slice(value);
        head.extend_from_slice(b"\r\n");
    }
    head.extend_from_slice(b"\r\n");
    (framing, buffer)
}

/// The head [`Sending::new`] writes for `parts` and a body of `body_size` bytes, alone: for the
/// `forward_head` fuzz target (fuzz/), which checks it against the client's request.
#[doc(hidden)]
pub fn request_head(parts: &RequestHead, body_size: Option<u64>) -> Bytes {
    Bytes::copy_from_slice(&encode_head(parts, body_size).1)
}

/// How a response body is delimited (RFC 9112 §6.3).
#[derive(Debug, Clone)]
pub enum ResponseFraming {
    Empty,
    Length(u64),
    Chunked(chunked::Decoder),
    /// Until the server closes the connection.
    Close,
}

/// Why no usable response head came.
#[derive(Debug, thiserror::Error)]
pub enum HeadError {
    /// The server closed (or reset) the connection before any byte of an answer.
    #[error("the upstream closed the connection before answering")]
    ClosedEarly,
    #[error("the upstream closed the connection in the middle of its response head")]
    ClosedInHead,
    #[error("the upstream's response head is larger than {MAX_RESPONSE_HEAD} bytes")]
    TooLarge,
    #[error("malformed response head: {0}")]
    Malformed(&'static str),
    #[error("reading the response failed: {0}")]
    Io(#[from] io::Error),
}

impl HeadError {
    /// Whether nothing at all came back (so the request may be sent again elsewhere).
    pub fn closed_early(&self) -> bool {
        match self {
            HeadError::ClosedEarly => true,
            HeadError::Io(error) => matches!(
                error.kind(),
                io::ErrorKind::ConnectionReset
                    | io::ErrorKind::BrokenPipe
                    | io::ErrorKind::ConnectionAborted
            ),
            _ => false,
        }
    }
}

/// A response head, parsed.
pub struct ResponseHead {
    pub response: Response<()>,
    pub framing: ResponseFraming,
    /// Whether the connection may carry another request after this response.
    pub keep_alive: bool,
}

/// Reads until a final response head is in (`1xx` other than `101` are skipped).
pub fn poll_head(
    conn: &mut ClientConn,
    context: &mut Context<'_>,
    request_method: &Method,
    answered: &mut bool,
) -> Poll<Result<ResponseHead, HeadError>> {
    loop {
        if !conn.buf.is_empty() {
            *answered = true;
            match parse_lines(&conn.buf, request_method)? {
                Some((mut head, length, edits)) => {
                    // The head's bytes stay where they were read: cut off the read buffer (which
                    // the view keeps until it is dropped, as a body's pieces do), not copied.
                    let bytes = conn.buf.split_to(length).freeze();
                    edits.apply(&mut head, bytes);
                    if head.response.status().is_informational()
                        && head.response.status() != StatusCode::SWITCHING_PROTOCOLS
                    {
                        continue;
                    }
                    return Poll::Ready(Ok(head));
                }
                None if conn.buf.len() > MAX_RESPONSE_HEAD => {
                    return Poll::Ready(Err(HeadError::TooLarge))
                }
                None => {}
            }
        }
        conn.buf.reserve(if conn.buf.is_empty() {
            4096
        } else {
            conn.buf.len()
        });
        let read = std::task::ready!(tokio_util::io::poll_read_buf(
            Pin::new(&mut conn.io),
            context,
            &mut conn.buf
        ))?;
        if read == 0 {
            return Poll::Ready(Err(if *answered {
                HeadError::ClosedInHead
            } else {
                HeadError::ClosedEarly
            }));
        }
    }
}

/// Parses a response head from the start of `bytes` (the answer to a `request_method`
/// request): `None` while incomplete. The view keeps a copy of the head, cut from the thread's
/// arena; [`poll_head`] keeps the read buffer's own bytes instead.
pub fn parse_head(
    bytes: &[u8],
    request_method: &Method,
) -> Result<Option<(ResponseHead, usize)>, HeadError> {
    let Some((mut head, length, edits)) = parse_lines(bytes, request_method)? else {
        return Ok(None);
    };
    let copy = crate::h1::head::head_bytes(length, |buffer| {
        buffer.extend_from_slice(&bytes[..length]);
    });
    edits.apply(&mut head, copy);
    Ok(Some((head, length)))
}

/// The edits of a parsed head's view that read its names, so wait for its bytes: made by
/// [`parse_lines`], whose view has none yet.
#[must_use]
struct Edits {
    /// The hop-by-hop lines are to be found by name ([`remove_hop_by_hop`]): the parse could
    /// not mark them by their place.
    hop_by_hop_by_name: bool,
    /// `Content-Length` goes (a `Transfer-Encoding` wins over it).
    content_length: bool,
}

impl Edits {
    /// Gives `head`'s view its bytes, the first `length` of those it was parsed from
    /// ([`Headers::set_parsed_bytes`]), then edits it.
    fn apply(self, head: &mut ResponseHead, bytes: Bytes) {
        let headers = head.response.headers_mut();
        headers.set_parsed_bytes(bytes);
        if self.hop_by_hop_by_name {
            remove_hop_by_hop(headers);
        }
        if self.content_length {
            headers.remove("content-length");
        }
    }
}

/// [`parse_head`], but for the view's bytes, which the caller gives it with the edits left
/// ([`Edits::apply`]): the first `length` of `bytes`.
fn parse_lines(
    bytes: &[u8],
    request_method: &Method,
) -> Result<Option<(ResponseHead, usize, Edits)>, HeadError> {
    // Left uninitialised, as a request's (`h1::head::parse`): httparse writes only the lines it
    // finds, and filling 256 empty headers (8 KiB) first cost more than parsing a small head.
    let mut lines =
        [const { std::mem::MaybeUninit::<httparse::Header<'_>>::uninit() }; MAX_RESPONSE_HEADERS];
    let mut response = httparse::Response::new(&mut []);
    let parsed = httparse::ParserConfig::default().parse_response_with_uninit_headers(
        &mut response,
        bytes,
        &mut lines,
    );
    let length = match parsed {
        Ok(httparse::Status::Complete(length)) => length,
        Ok(httparse::Status::Partial) => return Ok(None),
        Err(httparse::Error::TooManyHeaders) => {
            return Err(HeadError::Malformed("too many headers"))
        }
        Err(_) => return Err(HeadError::Malformed("syntax")),
    };
    let status = StatusCode::from_u16(response.code.unwrap_or_default())
        .map_err(|_| HeadError::Malformed("status code"))?;
    let version = match response.version {
        Some(0) => Version::HTTP_10,
        _ => Version::HTTP_11,
    };
    let mut lengths: Option<u64> = None;
    let mut conflicting_length = false;
    let mut codings_end_chunked = None;
    let mut close = false;
    let mut keep_alive_token = false;
    // Hop-by-hop lines, and whether `Connection` names others: removed from the view below.
    let mut hop_by_hop = header_list::HopByHopLines::default();
    for (index, line) in response.headers.iter().enumerate() {
        // httparse holds names to tokens and values to text (tab, visible ASCII, obs-text), as
        // `http`'s `HeaderName` and `HeaderValue` did: the view keeps them as they are.
        let name = line.name.as_bytes();
        hop_by_hop.note(index, name);
        let is = |lower: &[u8]| header_list::is(name, lower);
        if is(b"content-length") {
            for part in header_list::items(line.value) {
                let parsed =
                    header_list::decimal(part).ok_or(HeadError::Malformed("Content-Length"))?;
                if lengths.is_some_and(|known| known != parsed) {
                    conflicting_length = true;
                }
                lengths = Some(parsed);
            }
        } else if is(b"transfer-encoding") {
            let last = header_list::items(line.value).rfind(|coding| !coding.is_empty());
            codings_end_chunked = Some(last.is_some_and(|c| header_list::is(c, b"chunked")));
        } else if is(b"connection") {
            for token in header_list::items(line.value) {
                close |= header_list::is(token, b"close");
                keep_alive_token |= header_list::is(token, b"keep-alive");
                hop_by_hop.note_connection_item(token);
            }
        }
    }
    // The index is made from httparse's lines (slices of `bytes`, whose first `length` are the
    // head); the bytes the view reads are given by the caller, once the lines are gone.
    let head = &bytes[..length];
    let mut headers = Headers::parsed(Bytes::new(), head, response.headers);
    let mut edits = Edits {
        hop_by_hop_by_name: false,
        content_length: false,
    };
    if status != StatusCode::SWITCHING_PROTOCOLS {
        match hop_by_hop.by_place() {
            // The lines found above, marked removed without another look at the names.
            Some(mut places) => {
                while places != 0 {
                    headers.remove_parsed(places.trailing_zeros() as usize);
                    places &= places - 1;
                }
            }
            None => edits.hop_by_hop_by_name = true,
        }
    }
    let bodiless = *request_method == Method::HEAD
        || status.is_informational()
        || status == StatusCode::NO_CONTENT
        || status == StatusCode::NOT_MODIFIED;
    let mut reusable = match version {
        Version::HTTP_10 => keep_alive_token && !close,
        _ => !close,
    };
    if codings_end_chunked.is_some() && lengths.is_some() || conflicting_length {
        // Framing headers that disagree: whatever this response's body, the connection is not
        // trusted with another one.
        reusable = false;
    }
    let framing = if bodiless {
        ResponseFraming::Empty
    } else if let Some(chunked) = codings_end_chunked {
        // Transfer-Encoding wins over Content-Length (RFC 9112 §6.3), and such a response
        // closes the connection after it.
        if lengths.is_some() {
            edits.content_length = true;
            reusable = false;
        }
        if chunked && version == Version::HTTP_11 {
            ResponseFraming::Chunked(chunked::Decoder::new())
        } else {
            reusable = false;
            ResponseFraming::Close
        }
    } else if conflicting_length {
        return Err(HeadError::Malformed("conflicting Content-Length"));
    } else if let Some(length) = lengths {
        if length == 0 {
            ResponseFraming::Empty
        } else {
            ResponseFraming::Length(length)
        }
    } else {
        reusable = false;
        ResponseFraming::Close
    };
    if status == StatusCode::SWITCHING_PROTOCOLS {
        reusable = false;
    }
    Ok(Some((
        ResponseHead {
            response: Response::from_parts(
                crate::head_view::ResponseHead {
                    status,
                    version,
                    headers,
                    extensions: http::Extensions::new(),
                },
                (),
            ),
            framing,
            keep_alive: reusable,
        },
        length,
        edits,
    )))
}

/// Takes out of a response's view the lines that describe this connection only (RFC 9110
/// §7.6.1, [`header_list::is_hop_by_hop`]) and those its `Connection` (in `lines`) names
/// ([`header_list::names_another_header`]): this side consumed them (framing, reuse), and the
/// client's connection has its own. A response is stripped so as it is parsed, where its names
/// are looked at anyway; this pass is for the rare head whose `Connection` names other headers,
/// or with more than 64 lines (`parse_head` marks the others by their place). A `101`'s lines
/// stay for phase 6, whose tunnel keeps its `Upgrade`. The names are copied out of the view,
/// which the removal changes.
fn remove_hop_by_hop(headers: &mut Headers) {
    let mut named: Vec<Vec<u8>> = Vec::new();
    for value in headers.get_all("connection") {
        named.extend(
            header_list::items(value)
                .filter(|item| header_list::names_another_header(item))
                .map(<[u8]>::to_vec),
        );
    }
    headers.remove_where(|name| {
        header_list::is_hop_by_hop(name) || named.iter().any(|item| name.eq_ignore_ascii_case(item))
    });
}

/// Why a response body broke off.
#[derive(Debug, thiserror::Error)]
pub enum ResponseBodyError {
    #[error("the upstream closed the connection before the end of the body")]
    Truncated,
    #[error(transparent)]
    Chunked(#[from] chunked::ChunkError),
    #[error("reading the response body failed: {0}")]
    Io(#[from] io::Error),
}

/// Reads the next piece of the response body: `None` at its end.
pub fn poll_body(
    conn: &mut ClientConn,
    framing: &mut ResponseFraming,
    context: &mut Context<'_>,
) -> Poll<Option<Result<Bytes, ResponseBodyError>>> {
    loop {
        let wanted = match framing {
            ResponseFraming::Empty => return Poll::Ready(None),
            ResponseFraming::Length(left) => {
                if !conn.buf.is_empty() {
                    let take = usize::try_from(*left)
                        .unwrap_or(usize::MAX)
                        .min(conn.buf.len());
                    let data = conn.buf.split_to(take).freeze();
                    *left -= take as u64;
                    if *left == 0 {
                        *framing = ResponseFraming::Empty;
                    }
                    return Poll::Ready(Some(Ok(data)));
                }
                usize::try_from(*left)
                    .unwrap_or(usize::MAX)
                    .min(READ_SIZE * 4)
            }
            ResponseFraming::Chunked(decoder) => match decoder.decode(&mut conn.buf) {
                Ok(Step::Data(data)) => return Poll::Ready(Some(Ok(data))),
                Ok(Step::Done) => {
                    *framing = ResponseFraming::Empty;
                    return Poll::Ready(None);
                }
                Ok(Step::More) => READ_SIZE * 4,
                Err(error) => return Poll::Ready(Some(Err(error.into()))),
            },
            ResponseFraming::Close => {
                if !conn.buf.is_empty() {
                    let data = conn.buf.split().freeze();
                    return Poll::Ready(Some(Ok(data)));
                }
                READ_SIZE * 4
            }
        };
        if conn.buf.capacity() - conn.buf.len() < READ_SIZE {
            conn.buf.reserve(wanted.max(READ_SIZE));
        }
        let read = match std::task::ready!(tokio_util::io::poll_read_buf(
            Pin::new(&mut conn.io),
            context,
            &mut conn.buf
        )) {
            Ok(read) => read,
            Err(error) => return Poll::Ready(Some(Err(error.into()))),
        };
        if read == 0 {
            if matches!(framing, ResponseFraming::Close) {
                *framing = ResponseFraming::Empty;
                return Poll::Ready(None);
            }
            return Poll::Ready(Some(Err(ResponseBodyError::Truncated)));
        }
    }
}

/// An upgraded upstream connection (after a `101`): the bytes already read come first. It holds
/// `place` for as long as it lives: the pool's slot, so a tunnel keeps its place among the
/// server's `max_connections` until it ends (the pool is above this file, hence a parameter).
pub struct Upgraded<P> {
    conn: ClientConn,
    _place: P,
}

impl<P> Upgraded<P> {
    pub fn new(conn: ClientConn, place: P) -> Upgraded<P> {
        Upgraded {
            conn,
            _place: place,
        }
    }
}

impl<P: Unpin> AsyncRead for Upgraded<P> {
    fn poll_read(
        self: Pin<&mut Self>,
        context: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let conn = &mut self.get_mut().conn;
        if !conn.buf.is_empty() {
            let take = conn.buf.len().min(buf.remaining());
            buf.put_slice(&conn.buf.split_to(take));
            return Poll::Ready(Ok(()));
        }
        Pin::new(&mut conn.io).poll_read(context, buf)
    }
}

impl<P: Unpin> AsyncWrite for Upgraded<P> {
    fn poll_write(
        self: Pin<&mut Self>,
        context: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().conn.io).poll_write(context, buf)
    }

    fn poll_flush(self: Pin<&mut Self>, context: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().conn.io).poll_flush(context)
    }

    fn poll_shutdown(self: Pin<&mut Self>, context: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().conn.io).poll_shutdown(context)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn head(bytes: &[u8], method: &Method) -> ResponseHead {
        let (head, length) = parse_head(bytes, method)
            .expect("a valid head")
            .expect("a complete head");
        assert_eq!(length, bytes.len());
        head
    }

    #[test]
    fn framing_follows_rfc_9112() {
        let get = &Method::GET;
        let length = head(b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n", get);
        assert!(matches!(length.framing, ResponseFraming::Length(5)) && length.keep_alive);
        let chunked = head(
            b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n",
            get,
        );
        assert!(matches!(chunked.framing, ResponseFraming::Chunked(_)) && chunked.keep_alive);
        let close = head(b"HTTP/1.1 200 OK\r\n\r\n", get);
        assert!(matches!(close.framing, ResponseFraming::Close) && !close.keep_alive);
        let both = head(
            b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n",
            get,
        );
        assert!(matches!(both.framing, ResponseFraming::Chunked(_)));
        assert!(!both.keep_alive && !both.response.headers().contains("content-length"));
        let no_content = head(b"HTTP/1.1 204 No Content\r\nContent-Length: 5\r\n\r\n", get);
        assert!(matches!(no_content.framing, ResponseFraming::Empty));
        let old = head(b"HTTP/1.0 200 OK\r\nContent-Length: 1\r\n\r\n", get);
        assert!(!old.keep_alive);
        assert!(parse_head(
            b"HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n",
            get
        )
        .is_err());
    }

    /// A head with up to the limit of lines loses none of them, and one past the limit is
    /// refused.
    #[test]
    fn a_head_with_many_lines_is_parsed_whole() {
        let lines = |count: usize| {
            let mut bytes = b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n".to_vec();
            for index in 1..count {
                bytes.extend_from_slice(format!("x-line-{index}: {index}\r\n").as_bytes());
            }
            bytes.extend_from_slice(b"\r\n");
            bytes
        };
        for count in [1, 32, 33, MAX_RESPONSE_HEADERS] {
            let parsed = head(&lines(count), &Method::GET);
            assert_eq!(parsed.response.headers().len(), count);
        }
        assert!(matches!(
            parse_head(&lines(MAX_RESPONSE_HEADERS + 1), &Method::GET),
            Err(HeadError::Malformed("too many headers"))
        ));
        let partial = lines(42);
        let partial = &partial[..partial.len() - 2];
        assert!(matches!(parse_head(partial, &Method::GET), Ok(None)));
    }

    /// A request can go to another connection with its whole body as long as nothing of it was
    /// written; once written, never (the server may have acted on it).
    #[test]
    fn an_unwritten_request_keeps_its_body_for_a_retry() {
        let request = http::Request::builder()
            .method(Method::POST)
            .uri("/")
            .body(())
            .unwrap();
        let (parts, ()) = crate::head_view::Request::from_http(request).into_parts();
        let mut sending = Sending::new(&parts, RequestBody::Full(Some(Bytes::from_static(b"abc"))));
        match sending.take_untouched_body() {
            Some(RequestBody::Full(Some(bytes))) => assert_eq!(&bytes[..], b"abc"),
            _ => panic!("the body was lost"),
        }
        let mut sending = Sending::new(&parts, RequestBody::Full(Some(Bytes::from_static(b"abc"))));
        sending.written = true;
        assert!(sending.take_untouched_body().is_none());
    }

    /// A line the response's `Connection` names goes, found by its name once the view has its
    /// bytes; the others stay.
    #[test]
    fn a_line_named_by_connection_is_removed() {
        let answer = head(
            b"HTTP/1.1 200 OK\r\nConnection: x-secret\r\nX-Secret: 1\r\nX-Kept: 2\r\nContent-Length: 0\r\n\r\n",
            &Method::GET,
        );
        let headers = answer.response.headers();
        assert!(!headers.contains("x-secret") && !headers.contains("connection"));
        assert_eq!(headers.get("x-kept"), Some(&b"2"[..]));
        assert_eq!(headers.len(), 2);
    }

    /// Found by the h1_response fuzz target: a HEAD answer (no body whatever it says) whose
    /// framing headers disagree must not leave its connection in the pool.
    #[test]
    fn a_bodiless_answer_with_conflicting_framing_closes_its_connection() {
        let answer = head(
            b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 1\r\nTransfer-Encoding: x\r\n\r\n",
            &Method::HEAD,
        );
        assert!(matches!(answer.framing, ResponseFraming::Empty));
        assert!(!answer.keep_alive);
    }
}
