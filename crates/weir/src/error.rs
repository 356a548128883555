//! The one place where an error becomes a status code. Every failure on the request path is a
//! [`ProxyError`]: a request the codec refused ([`CodecError`]: 400, 408, 414, 431, 501, 505), a
//! bad request, no route, a rate-limit rejection, a static file not served, an upstream or spool
//! failure. [`ProxyError::status`] maps it, [`ProxyError::side`] says who failed (for logs and
//! metrics), and [`ProxyError::into_response`] builds the short plain-text answer the client gets.

use std::io;
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use http::{header, StatusCode};

use crate::head_view::{Headers, Response};

use crate::config::UpstreamAddr;
use crate::spares;

/// A boxed error, as bodies of different origins fail in different ways.
pub type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// Which side of the proxy an error came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// The client: a bad or too large request, or the client went away.
    Downstream,
    /// The upstream server: refused, reset, timed out, answered garbage.
    Upstream,
    /// weir itself: no route, no free connection in time.
    Internal,
}

/// Why the downstream HTTP/1 codec (`h1/`) refused a request before the proxy's phases saw it;
/// its answer is [`ProxyError::Codec`]'s, made here. The connection closes after it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum CodecError {
    /// A request line or header that RFC 9112 does not allow (or allows only ambiguously), or
    /// framing in doubt: 400. The text says what was wrong, for the log.
    #[error("malformed request: {0}")]
    Malformed(&'static str),
    /// `Transfer-Encoding` names a coding other than `chunked`: 501, as nginx answers.
    #[error("unsupported transfer coding")]
    UnknownCoding,
    /// No whole request head within `header_timeout`: 408, logged only: the connection is
    /// closed without an answer, as nginx does.
    #[error("no whole request head within header_timeout")]
    HeadTimeout,
    /// A request target longer than the codec takes: 414.
    #[error("request target too long")]
    UriTooLong,
    /// A request head over `max_header_size`: 431.
    #[error("request head larger than max_header_size")]
    HeadTooLarge,
    /// A version other than HTTP/1.0 and HTTP/1.1: 505.
    #[error("HTTP version not supported")]
    Version,
}

impl CodecError {
    /// The status the client is answered with (or, for [`CodecError::HeadTimeout`], logged as).
    pub fn status(self) -> StatusCode {
        match self {
            CodecError::Malformed(_) => StatusCode::BAD_REQUEST,
            CodecError::UnknownCoding => StatusCode::NOT_IMPLEMENTED,
            CodecError::HeadTimeout => StatusCode::REQUEST_TIMEOUT,
            CodecError::UriTooLong => StatusCode::URI_TOO_LONG,
            CodecError::HeadTooLarge => StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
            CodecError::Version => StatusCode::HTTP_VERSION_NOT_SUPPORTED,
        }
    }

    /// Whether the client gets an answer at all (a head time-out is closed without one).
    pub fn is_answered(self) -> bool {
        self != CodecError::HeadTimeout
    }
}

/// Everything that can go wrong while proxying one request.
#[derive(Debug, thiserror::Error)]
pub enum ProxyError {
    /// The downstream codec refused the request head: see [`CodecError`].
    #[error("{0}")]
    Codec(CodecError),
    #[error("no route matches this host and path")]
    NoRoute,
    /// More `X-Accel-Redirect`s in a row than nginx follows: 500, as nginx's "rewrite or
    /// internal redirection cycle".
    #[error("more than 10 X-Accel-Redirects in a row")]
    RedirectLoop,
    #[error("request body is larger than max_body_size ({limit} bytes)")]
    BodyTooLarge { limit: u64 },
    #[error("malformed request: {reason}")]
    BadRequest { reason: &'static str },
    #[error("the client's request body broke off")]
    ClientGone,
    #[error("malformed request path: {error}")]
    BadPath { error: crate::path::PathError },
    #[error("the client sent no request body bytes for body_timeout")]
    BodyTimeout,
    #[error("connect to {addr} failed: {source}")]
    Connect {
        addr: UpstreamAddr,
        source: io::Error,
    },
    #[error("connect to {addr} timed out")]
    ConnectTimeout { addr: UpstreamAddr },
    #[error("upstream {addr} sent no response within read_timeout")]
    ReadTimeout { addr: UpstreamAddr },
    #[error("upstream {addr} did not take the request within send_timeout")]
    SendTimeout { addr: UpstreamAddr },
    #[error("upstream {addr} failed: {source}")]
    Upstream {
        addr: UpstreamAddr,
        source: io::Error,
    },
    /// No place became free within `queue_timeout`; `waited`: how long the request queued.
    #[error("no connection to {addr} became free within queue_timeout")]
    QueueTimeout {
        addr: UpstreamAddr,
        waited: Duration,
    },
    #[error("the queue for {addr} is full")]
    QueueFull { addr: UpstreamAddr },
    /// Refused before queueing by admission (a declared capacity): 503 with `Retry-After`, the
    /// predicted time the queue drains in, rounded up to seconds; `waited`: how long the request
    /// queued first (zero when refused at once, more when dropped from a standing queue).
    #[error("{addr} is overloaded ({reason})")]
    Overloaded {
        addr: UpstreamAddr,
        reason: &'static str,
        retry_after: Duration,
        waited: Duration,
    },
    #[error("the request body could not be buffered")]
    Spool,
    /// The spool for request bodies is full: 503, with a `Retry-After` of `retry_after`.
    #[error("the spool for request bodies is full (max_spool_size)")]
    SpoolFull { retry_after: Duration },
    /// A method a static route does not answer (only GET and HEAD), or one a route's `methods`
    /// lacks: 405 with `Allow`.
    #[error("method not allowed (allowed: {allow})")]
    MethodNotAllowed { allow: std::sync::Arc<str> },
    /// A static file that is not there to serve: 404.
    #[error("static file not found: {reason}")]
    FileNotFound { reason: &'static str },
    /// A static file that is there but not served: 403, as nginx.
    #[error("static file forbidden: {reason}")]
    FileForbidden { reason: &'static str },
    /// A file-system error while serving a static file, mapped as nginx maps them: missing (or
    /// a path component too long) is 404, forbidden (or a symlink loop) is 403, anything else 500.
    #[error("static file: {source}")]
    File { source: io::Error },
    /// The route's or host's `deny_headers` refused the request by a header: its status (403 by
    /// default), as nginx's `if ($http_user_agent ~* bot) { return 403; }`.
    #[error("refused by its {header} header")]
    HeaderRefused {
        status: StatusCode,
        header: http::HeaderName,
    },
    /// The route's or host's `deny_headers` sent the request elsewhere by a header: a redirect's
    /// status with its `Location` (`None` when the URL made is no header value), as nginx's `if
    /// ($http_x_forwarded_proto != "https") { return 301 https://$host$request_uri; }`.
    #[error("redirected by a header to {}", .location.as_deref().unwrap_or("nowhere"))]
    HeaderRedirect {
        status: StatusCode,
        location: Option<Box<str>>,
    },
    /// The route's or host's `access` list refused the client's address: 403, as nginx `deny`.
    #[error("access denied to {client}")]
    AccessDenied { client: std::net::IpAddr },
    /// The route's or host's `basic_auth` refused the request (no credentials, an unknown
    /// user or a wrong password: `reason`): 401 with `WWW-Authenticate: <challenge>`, as nginx
    /// `auth_basic`.
    #[error("authentication failed: {reason}")]
    Unauthorized {
        challenge: Arc<str>,
        reason: &'static str,
    },
    /// The route's or host's `auth_request` was answered 401 or 403: that status, with the
    /// answer's `WWW-Authenticate` (nginx `auth_request`).
    #[error("refused by its auth request ({status})")]
    AuthRequestDenied {
        status: StatusCode,
        /// The answer's `WWW-Authenticate` values, passed to the client with a 401.
        challenge: Box<[Bytes]>,
    },
    /// The route's or host's `auth_request` could not be answered, or was answered with a status
    /// other than 2xx, 401 and 403 (`reason`): 500, as nginx's "auth request unexpected status".
    #[error("the auth request failed: {reason}")]
    AuthRequestFailed { reason: Box<str> },
    /// More passwords wait to be checked than weir checks at once and keeps waiting (a flood of
    /// guesses against a costly hash): 503 with `Retry-After: 1`.
    #[error("too many passwords are waiting to be checked")]
    AuthBusy,
    /// A rate limit's rejection: its status, and its headers (`Retry-After`, the `RateLimit`
    /// fields) written as lines when it was decided, labelled with the limit's name (a copy in
    /// the lines' buffer, where a clone of the limit's `Arc<str>` wrote a reference count shared
    /// by every thread, twice per 429).
    #[error("rate limited by {}", .lines.label())]
    RateLimited {
        status: StatusCode,
        lines: HeadLines,
    },
    /// A connection limit refused the request: its key had the limit's `connections` in flight
    /// already (or the limit's table was full); the limit's status (503 by default).
    #[error("too many requests in flight for connection limit {limit}")]
    ConnLimited { status: StatusCode, limit: Arc<str> },
    /// An upstream whose servers are all host names, none of which resolved yet (a container
    /// not started): 502 until one does.
    #[error("no address for {names} yet: the host name does not resolve")]
    Unresolved { names: Arc<str> },
}

impl ProxyError {
    /// The status the client is answered with.
    pub fn status(&self) -> StatusCode {
        match self {
            ProxyError::Codec(codec) => codec.status(),
            ProxyError::NoRoute => StatusCode::NOT_FOUND,
            ProxyError::BodyTooLarge { .. } => StatusCode::PAYLOAD_TOO_LARGE,
            ProxyError::BadRequest { .. } | ProxyError::BadPath { .. } | ProxyError::ClientGone => {
                StatusCode::BAD_REQUEST
            }
            ProxyError::BodyTimeout => StatusCode::REQUEST_TIMEOUT,
            ProxyError::Connect { .. }
            | ProxyError::Upstream { .. }
            | ProxyError::Unresolved { .. } => StatusCode::BAD_GATEWAY,
            ProxyError::ConnectTimeout { .. }
            | ProxyError::ReadTimeout { .. }
            | ProxyError::SendTimeout { .. } => StatusCode::GATEWAY_TIMEOUT,
            ProxyError::QueueTimeout { .. }
            | ProxyError::QueueFull { .. }
            | ProxyError::Overloaded { .. }
            | ProxyError::SpoolFull { .. } => StatusCode::SERVICE_UNAVAILABLE,
            ProxyError::RateLimited { status, .. }
            | ProxyError::ConnLimited { status, .. }
            | ProxyError::HeaderRefused { status, .. }
            | ProxyError::HeaderRedirect { status, .. }
            | ProxyError::AuthRequestDenied { status, .. } => *status,
            ProxyError::MethodNotAllowed { .. } => StatusCode::METHOD_NOT_ALLOWED,
            ProxyError::FileNotFound { .. } => StatusCode::NOT_FOUND,
            ProxyError::FileForbidden { .. } => StatusCode::FORBIDDEN,
            ProxyError::AccessDenied { .. } => StatusCode::FORBIDDEN,
            ProxyError::Unauthorized { .. } => StatusCode::UNAUTHORIZED,
            ProxyError::AuthBusy => StatusCode::SERVICE_UNAVAILABLE,
            ProxyError::File { source } => file_status(source),
            ProxyError::Spool => StatusCode::INTERNAL_SERVER_ERROR,
            ProxyError::RedirectLoop | ProxyError::AuthRequestFailed { .. } => {
                StatusCode::INTERNAL_SERVER_ERROR
            }
        }
    }

    /// Who failed.
    /// Whether the request's upstream gave no answer: it could not be reached, timed out,
    /// broke off, or its queue refused the request (what `cache_stale` serves an expired answer
    /// for, as nginx's `proxy_cache_use_stale error timeout`).
    /// The server that was asked and gave no answer (it refused the connection, timed out or
    /// broke off): nginx's `$upstream_addr`, whose `$upstream_status` is weir's own 502 or 504.
    pub fn unanswered_server(&self) -> Option<&UpstreamAddr> {
        match self {
            ProxyError::Connect { addr, .. }
            | ProxyError::ConnectTimeout { addr }
            | ProxyError::ReadTimeout { addr }
            | ProxyError::SendTimeout { addr }
            | ProxyError::Upstream { addr, .. } => Some(addr),
            _ => None,
        }
    }

    pub fn unanswered_upstream(&self) -> bool {
        match self {
            // The authentication service's failure, not the app's.
            ProxyError::AuthRequestFailed { .. } => false,
            ProxyError::QueueTimeout { .. }
            | ProxyError::QueueFull { .. }
            | ProxyError::Overloaded { .. } => true,
            _ => matches!(self.side(), Side::Upstream),
        }
    }

    pub fn side(&self) -> Side {
        match self {
            ProxyError::Codec(_)
            | ProxyError::BodyTooLarge { .. }
            | ProxyError::BadRequest { .. }
            | ProxyError::BadPath { .. }
            | ProxyError::BodyTimeout
            | ProxyError::ClientGone
            | ProxyError::RateLimited { .. }
            | ProxyError::ConnLimited { .. }
            | ProxyError::MethodNotAllowed { .. }
            | ProxyError::FileNotFound { .. }
            | ProxyError::FileForbidden { .. }
            | ProxyError::AccessDenied { .. }
            | ProxyError::HeaderRefused { .. }
            | ProxyError::HeaderRedirect { .. }
            | ProxyError::AuthRequestDenied { .. }
            | ProxyError::Unauthorized { .. } => Side::Downstream,
            // A missing or forbidden file is the client's asking; any other failure is weir's.
            ProxyError::File { source } => {
                if file_status(source) == StatusCode::INTERNAL_SERVER_ERROR {
                    Side::Internal
                } else {
                    Side::Downstream
                }
            }
            ProxyError::Connect { .. }
            | ProxyError::ConnectTimeout { .. }
            | ProxyError::ReadTimeout { .. }
            | ProxyError::SendTimeout { .. }
            | ProxyError::Upstream { .. }
            | ProxyError::Unresolved { .. }
            | ProxyError::AuthRequestFailed { .. } => Side::Upstream,
            ProxyError::NoRoute
            | ProxyError::RedirectLoop
            | ProxyError::Spool
            | ProxyError::SpoolFull { .. }
            | ProxyError::AuthBusy
            | ProxyError::QueueTimeout { .. }
            | ProxyError::QueueFull { .. }
            | ProxyError::Overloaded { .. } => Side::Internal,
        }
    }

    /// How long the request waited in an upstream's queue before this error: `Some` for the
    /// refusals of a queue (zero for one refused at once), `None` for every other error.
    pub fn queued(&self) -> Option<Duration> {
        match self {
            ProxyError::QueueFull { .. } => Some(Duration::ZERO),
            ProxyError::QueueTimeout { waited, .. } | ProxyError::Overloaded { waited, .. } => {
                Some(*waited)
            }
            _ => None,
        }
    }

    /// A short cause for logs and metrics labels.
    pub fn cause(&self) -> &'static str {
        match self {
            ProxyError::Codec(CodecError::Malformed(_)) => "codec_malformed",
            ProxyError::Codec(CodecError::UnknownCoding) => "codec_unknown_coding",
            ProxyError::Codec(CodecError::HeadTimeout) => "codec_head_timeout",
            ProxyError::Codec(CodecError::UriTooLong) => "codec_uri_too_long",
            ProxyError::Codec(CodecError::HeadTooLarge) => "codec_head_too_large",
            ProxyError::Codec(CodecError::Version) => "codec_version",
            ProxyError::NoRoute => "no_route",
            ProxyError::RedirectLoop => "redirect_loop",
            ProxyError::BodyTooLarge { .. } => "body_too_large",
            ProxyError::BadRequest { .. } => "bad_request",
            ProxyError::BadPath { .. } => "bad_path",
            ProxyError::BodyTimeout => "body_timeout",
            ProxyError::ClientGone => "client_gone",
            ProxyError::Connect { .. } => "connect",
            ProxyError::ConnectTimeout { .. } => "connect_timeout",
            ProxyError::ReadTimeout { .. } => "read_timeout",
            ProxyError::SendTimeout { .. } => "send_timeout",
            ProxyError::Upstream { .. } => "upstream",
            ProxyError::QueueTimeout { .. } => "queue_timeout",
            ProxyError::QueueFull { .. } => "queue_full",
            ProxyError::Overloaded { reason, .. } => reason,
            ProxyError::RateLimited { .. } => "rate_limited",
            ProxyError::ConnLimited { .. } => "connection_limited",
            ProxyError::MethodNotAllowed { .. } => "method_not_allowed",
            ProxyError::FileNotFound { .. } => "file_not_found",
            ProxyError::FileForbidden { .. } => "file_forbidden",
            ProxyError::AccessDenied { .. } => "access_denied",
            ProxyError::HeaderRefused { .. } => "header_refused",
            ProxyError::HeaderRedirect { .. } => "header_redirect",
            ProxyError::Unauthorized { .. } => "unauthorized",
            ProxyError::AuthRequestDenied { .. } => "auth_request_denied",
            ProxyError::AuthRequestFailed { .. } => "auth_request_failed",
            ProxyError::AuthBusy => "auth_busy",
            ProxyError::File { .. } => "file",
            ProxyError::Spool => "spool",
            ProxyError::SpoolFull { .. } => "spool_full",
            ProxyError::Unresolved { .. } => "unresolved",
        }
    }

    /// The client's answer as [`ProxyError::into_response`] makes it, with the headers that
    /// were written as lines when the error was made (a rate limit's) kept as lines: an HTTP/1
    /// writer puts them into the head as they are. The response's own view then holds only what
    /// later steps add; its `Content-Type` is a line too.
    pub fn into_answer(self) -> (Response<Bytes>, Option<HeadLines>) {
        match self {
            ProxyError::RateLimited { status, mut lines }
                if status.as_u16() != CLOSE_UNANSWERED =>
            {
                lines.push_lines(&[CONTENT_TYPE_LINE]);
                let mut response = Response::new(status_text(status));
                *response.status_mut() = status;
                (response, Some(lines))
            }
            other => (other.into_response(), None),
        }
    }

    /// The client's answer: the status, and its reason phrase as a one-line plain-text body.
    pub fn into_response(self) -> Response<Bytes> {
        let status = self.status();
        match self {
            ProxyError::RateLimited { lines, .. } => {
                let mut response = status_response(status);
                lines.append_to(response.headers_mut());
                response
            }
            ProxyError::MethodNotAllowed { allow } => {
                let mut response = status_response(status);
                response.headers_mut().set(header::ALLOW, &*allow);
                response
            }
            ProxyError::SpoolFull { retry_after } => {
                let mut response = status_response(status);
                response.headers_mut().set(
                    header::RETRY_AFTER,
                    itoa::Buffer::new().format(retry_after.as_secs()),
                );
                response
            }
            ProxyError::Unauthorized { challenge, .. } => {
                let mut response = status_response(status);
                response
                    .headers_mut()
                    .set(header::WWW_AUTHENTICATE, challenge.as_bytes());
                response
            }
            ProxyError::AuthRequestDenied { challenge, .. }
                if status == StatusCode::UNAUTHORIZED =>
            {
                let mut response = status_response(status);
                for value in challenge.iter() {
                    response
                        .headers_mut()
                        .append(header::WWW_AUTHENTICATE, value.as_ref());
                }
                response
            }
            ProxyError::HeaderRedirect { location, .. } => {
                // A redirect's answer has no body, as a `redirect` route's.
                let mut response = Response::new(Bytes::new());
                *response.status_mut() = status;
                if let Some(location) = location {
                    response.headers_mut().set(header::LOCATION, &*location);
                }
                response
            }
            ProxyError::AuthBusy => {
                let mut response = status_response(status);
                response.headers_mut().set(header::RETRY_AFTER, "1");
                response
            }
            ProxyError::Overloaded { retry_after, .. } => {
                let mut response = status_response(status);
                response.headers_mut().set(
                    header::RETRY_AFTER,
                    itoa::Buffer::new().format(retry_after_secs(retry_after)),
                );
                response
            }
            _ => status_response(status),
        }
    }
}

/// Header lines as bytes, `name: value\r\n` each, in the order written: the headers of an answer
/// decided per request (a rate limit's), written once where they are decided instead of into the
/// answer's view. Names and values come from weir (a limit's configured name, numbers), never from
/// a request ([`HeadLines::push`]). The buffer is one of the thread's spares, given back when the lines are dropped,
/// so a flood of 429s costs no allocation for them. It may begin with a label, which is not a
/// line: the name of what wrote them, for the error's message ([`HeadLines::labelled`]).
#[derive(Debug, Default)]
pub struct HeadLines {
    /// The label, then the lines.
    buffer: Vec<u8>,
    /// How many of `buffer`'s first bytes are the label.
    label: usize,
}

/// The `Content-Type` line of an answer weir writes itself, [`TEXT_PLAIN`].
const CONTENT_TYPE_LINE: &[u8] = b"content-type: text/plain; charset=utf-8\r\n";

/// Spare line buffers a thread keeps, and the most a kept one may hold.
const SPARE_LINES: usize = 16;
const SPARE_LINES_CAPACITY: usize = 1024;

thread_local! {
    static SPARE_LINES_OF_THREAD: std::cell::RefCell<Vec<Vec<u8>>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

impl HeadLines {
    /// No lines yet, in a spare buffer of this thread's when there is one.
    pub fn new() -> HeadLines {
        HeadLines {
            buffer: spares::take(&SPARE_LINES_OF_THREAD).unwrap_or_default(),
            label: 0,
        }
    }

    /// No lines yet, labelled `label` (a rate limit's name: [`HeadLines::label`]).
    pub fn labelled(label: &str) -> HeadLines {
        let mut lines = HeadLines::new();
        lines.buffer.extend_from_slice(label.as_bytes());
        lines.label = label.len();
        lines
    }

    /// The label the lines were made with, empty if none.
    pub fn label(&self) -> &str {
        // The label's bytes are a `&str`'s, copied whole.
        std::str::from_utf8(&self.buffer[..self.label]).unwrap_or_default()
    }

    /// Adds `name: value\r\n`, the value written from `pieces`. The name is a `HeaderName`,
    /// valid by its making; the pieces are weir's own bytes (numbers, a limit's configured name,
    /// which the config holds to letters, digits, `_` and `-`, values made as `HeaderValue`s),
    /// never a request's, so they are checked in debug builds only: a 429 of a flood writes
    /// some 60 value bytes, and the check cost more than the writing.
    pub fn push(&mut self, name: &header::HeaderName, pieces: &[&[u8]]) {
        debug_assert!(
            pieces
                .iter()
                .flat_map(|piece| piece.iter())
                .all(|&byte| (byte >= b' ' || byte == b'\t') && byte != 0x7f),
            "a header line's value holds a control character: {pieces:?}"
        );
        let name = name.as_str().as_bytes();
        let length = pieces.iter().map(|piece| piece.len()).sum::<usize>();
        self.buffer.reserve(name.len() + length + 4);
        self.buffer.extend_from_slice(name);
        self.buffer.extend_from_slice(b": ");
        for piece in pieces {
            self.buffer.extend_from_slice(piece);
        }
        self.buffer.extend_from_slice(b"\r\n");
    }

    /// Adds whole lines, written from `pieces`: bytes prepared once (a limit's lines, rendered
    /// when it first decided) with the numbers of this answer between them, where
    /// [`HeadLines::push`] spells each name and separator again. The pieces must make lines
    /// `name: value\r\n` each, a name in lower case, by the rules of [`HeadLines::push`]
    /// (checked in debug builds).
    pub fn push_lines(&mut self, pieces: &[&[u8]]) {
        let start = self.buffer.len();
        let length = pieces.iter().map(|piece| piece.len()).sum::<usize>();
        self.buffer.reserve(length);
        for piece in pieces {
            self.buffer.extend_from_slice(piece);
        }
        debug_assert!(
            are_lines(&self.buffer[start..]),
            "not header lines: {:?}",
            String::from_utf8_lossy(&self.buffer[start..])
        );
    }

    /// The lines as they go into an HTTP/1 head.
    pub fn as_bytes(&self) -> &[u8] {
        &self.buffer[self.label..]
    }

    /// Each line's name and value.
    pub fn fields(&self) -> impl Iterator<Item = (&[u8], &[u8])> {
        self.as_bytes()
            .split(|&byte| byte == b'\n')
            .filter_map(|line| line.strip_suffix(b"\r"))
            .filter_map(|line| {
                let colon = line.iter().position(|&byte| byte == b':')?;
                Some((&line[..colon], line[colon + 1..].trim_ascii()))
            })
    }

    /// The lines as fields of `headers` (for HTTP/2, and an answer that header rules edit),
    /// each replacing what `headers` had of its name.
    pub fn append_to(&self, headers: &mut Headers) {
        for (name, value) in self.fields() {
            headers.set(name, value);
        }
    }
}

/// Whether `bytes` are header lines as [`HeadLines::push_lines`] takes them: each a lower-case
/// token, `: `, a value without control characters, CRLF.
fn are_lines(mut bytes: &[u8]) -> bool {
    while !bytes.is_empty() {
        let Some(end) = bytes.windows(2).position(|pair| pair == b"\r\n") else {
            return false;
        };
        let line = &bytes[..end];
        let Some(colon) = line.windows(2).position(|pair| pair == b": ") else {
            return false;
        };
        let (name, value) = (&line[..colon], &line[colon + 2..]);
        // A token in lower case (RFC 9110 §5.6.2), checked without making a `HeaderName`,
        // which allocates for a name `http` does not know.
        let name_ok = !name.is_empty()
            && name.iter().all(|&byte| {
                byte.is_ascii_lowercase()
                    || byte.is_ascii_digit()
                    || b"!#$%&'*+-.^_`|~".contains(&byte)
            });
        let value_ok = value
            .iter()
            .all(|&byte| (byte >= b' ' || byte == b'\t') && byte != 0x7f);
        if !name_ok || !value_ok {
            return false;
        }
        bytes = &bytes[end + 2..];
    }
    true
}

impl Drop for HeadLines {
    fn drop(&mut self) {
        let mut buffer = std::mem::take(&mut self.buffer);
        if buffer.capacity() == 0 || buffer.capacity() > SPARE_LINES_CAPACITY {
            return;
        }
        buffer.clear();
        spares::give_back(&SPARE_LINES_OF_THREAD, buffer, SPARE_LINES);
    }
}

/// `Retry-After` in whole seconds (the header has no finer unit): `wait` rounded up, at least 1.
pub(crate) fn retry_after_secs(wait: Duration) -> u64 {
    (wait.as_secs() + u64::from(wait.subsec_nanos() > 0)).max(1)
}

/// Why a request body did not reach its end.
#[derive(Debug, thiserror::Error)]
pub enum BodyError {
    /// More than `max_body_size` bytes: 413.
    #[error("request body is larger than {limit} bytes")]
    TooLarge { limit: u64 },
    /// No body bytes for `body_timeout` (nginx `client_body_timeout`): 408.
    #[error("no request body bytes for body_timeout")]
    Timeout,
    /// Framing the HTTP/1 codec refused (a bad chunk): 400.
    #[error("malformed request body: {0}")]
    Malformed(&'static str),
    /// The client closed the connection or reset the stream before the end.
    #[error("the client's request body broke off")]
    Gone,
    /// A buffered body could not be read back from its spool file.
    #[error("reading the request body back from its spool file failed: {0}")]
    Spool(io::Error),
}

impl From<BodyError> for ProxyError {
    fn from(error: BodyError) -> ProxyError {
        match error {
            BodyError::TooLarge { limit } => ProxyError::BodyTooLarge { limit },
            BodyError::Timeout => ProxyError::BodyTimeout,
            BodyError::Malformed(reason) => ProxyError::BadRequest { reason },
            BodyError::Gone => ProxyError::ClientGone,
            BodyError::Spool(error) => {
                tracing::error!(%error, "cannot read a buffered request body back");
                ProxyError::Spool
            }
        }
    }
}

/// `ENAMETOOLONG` on Linux: a path component too long is a missing file, as nginx answers.
pub(crate) const ENAMETOOLONG: i32 = 36;
/// `ELOOP` on Linux: a symlink loop is refused, as nginx answers symlink trouble with 403.
pub(crate) const ELOOP: i32 = 40;

/// nginx's mapping of file errors: missing is 404, forbidden is 403, anything else 500.
fn file_status(error: &io::Error) -> StatusCode {
    match error.kind() {
        io::ErrorKind::NotFound | io::ErrorKind::NotADirectory => StatusCode::NOT_FOUND,
        io::ErrorKind::PermissionDenied => StatusCode::FORBIDDEN,
        _ => match error.raw_os_error() {
            Some(ENAMETOOLONG) => StatusCode::NOT_FOUND,
            Some(ELOOP) => StatusCode::FORBIDDEN,
            _ => StatusCode::INTERNAL_SERVER_ERROR,
        },
    }
}

/// A short plain-text response for `status`, as nginx gives for its own errors. A 444 is no
/// answer at all: see [`CloseUnanswered`].
pub fn status_response(status: StatusCode) -> Response<Bytes> {
    if status.as_u16() == CLOSE_UNANSWERED {
        return unanswered();
    }
    text_response(status, status_text(status))
}

/// nginx's status for a request closed without an answer (`return 444`): counted and logged
/// with it, never sent.
pub const CLOSE_UNANSWERED: u16 = 444;

/// An extension on a response that must not be written: the HTTP/1 layer closes the connection
/// instead, HTTP/2 resets the stream (nginx `return 444`). The response's status, 444, is what
/// metrics and the access log record.
#[derive(Debug, Clone, Copy)]
pub struct CloseUnanswered;

/// The 444 response: empty, marked [`CloseUnanswered`].
pub fn unanswered() -> Response<Bytes> {
    let mut response = Response::new(Bytes::new());
    // 444 is in 100..=999, which is all `from_u16` asks.
    *response.status_mut() =
        StatusCode::from_u16(CLOSE_UNANSWERED).unwrap_or(StatusCode::BAD_REQUEST);
    response.extensions_mut().insert(CloseUnanswered);
    response
}

/// The admin listener's `/readyz` from the moment shutdown begins: 503 with a body that says
/// why, so a load balancer polling it stops sending new traffic while requests in flight finish.
pub fn draining_response() -> Response<Bytes> {
    text_response(
        StatusCode::SERVICE_UNAVAILABLE,
        Bytes::from_static(b"shutting down\n"),
    )
}

/// What a TLS listener answers to plain HTTP (a request line where a handshake should be),
/// written as it stands before the connection closes: nginx's 497, sent as a 400 with a short
/// body. Whole bytes, since no HTTP codec runs on a connection that failed its handshake.
pub const PLAIN_HTTP_ON_TLS: &[u8] = b"HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain\r\nContent-Length: 48\r\nConnection: close\r\n\r\nThe plain HTTP request was sent to an HTTPS port";

/// The `Content-Type` of every answer weir writes itself.
pub const TEXT_PLAIN: &str = "text/plain; charset=utf-8";

/// An answer's body: its status and reason phrase on one line.
fn status_text(status: StatusCode) -> Bytes {
    match status.as_u16() {
        // The answers weir gives most, above all under a flood, cost no allocation.
        429 => Bytes::from_static(b"429 Too Many Requests\n"),
        502 => Bytes::from_static(b"502 Bad Gateway\n"),
        503 => Bytes::from_static(b"503 Service Unavailable\n"),
        504 => Bytes::from_static(b"504 Gateway Timeout\n"),
        404 => Bytes::from_static(b"404 Not Found\n"),
        _ => {
            let reason = status.canonical_reason().unwrap_or("Error");
            Bytes::from(format!("{} {}\n", status.as_u16(), reason))
        }
    }
}

/// A plain-text answer: `status` and `text`.
fn text_response(status: StatusCode, text: Bytes) -> Response<Bytes> {
    let mut response = Response::new(text);
    *response.status_mut() = status;
    response
        .headers_mut()
        .append(header::CONTENT_TYPE, TEXT_PLAIN);
    response
}

#[cfg(test)]
mod tests;
