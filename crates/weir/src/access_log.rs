//! The access log: one line per request, written when the response body is done (or dropped),
//! in nginx's `combined` format followed by upstream and total times, as JSON lines, or in a
//! line of the user's of nginx's variables (`config::LogTemplate`).
//! Off unless `[access_log] enabled = true`; stderr unless `path` is set.
//!
//! Requests never wait on the disk: a finished request hands its [`Entry`] to a bounded queue
//! and returns; one writer thread per log formats the lines and writes them in batches. When the
//! queue is full (the disk cannot keep up) lines are dropped and counted, and a warning says how
//! many, instead of slowing every request down to the disk's pace. The alternative, a
//! `Mutex<LineWriter>` written from the request path, costs a system call per request under the
//! lock and stalls a runtime thread whenever the disk does.
//!
//! A file log is reopened by [`reopen_all`] (the `weir` binary calls it on SIGUSR1, as nginx
//! does for logrotate): the writer opens the path again and switches to the new file, keeping
//! the old one when the open fails.

use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, SyncSender, TrySendError};
use std::sync::{Arc, Mutex, Weak};
use std::task::{Context, Poll};
use std::thread::JoinHandle;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use bytes::Bytes;
use http::{header, StatusCode};
use http_body::{Frame, SizeHint};
use tokio::time::Instant;

use crate::config::{
    AccessLogConfig, AccessLogFormat, LogEscape, LogPiece, LogTemplate, LogVariable,
};
use crate::head_view::Request;
use crate::logging::Throttle;

/// Lines that may wait for the writer thread. At 150k requests a second this is a tenth of a
/// second of traffic: enough to ride out a slow write, small enough (16 bytes a slot) to cost
/// nothing when idle.
const QUEUE_LINES: usize = 16 * 1024;

/// The writer hands its buffer to the kernel at the end of every batch, or when it grows past
/// this, so lines reach the file within one batch even under a flood.
const WRITE_CHUNK: usize = 64 * 1024;

/// How long [`AccessLog::flush`] waits for the writer.
const FLUSH_WAIT: Duration = Duration::from_secs(5);

/// Every open log, so that [`reopen_all`] can reach them without a handle to the gateway.
static OPEN_LOGS: Mutex<Vec<Weak<Shared>>> = Mutex::new(Vec::new());

/// Warnings about dropped lines or failed writes: one a second is plenty.
static WRITER_TROUBLE: Throttle = Throttle::new(1);

/// An access log: a queue and the thread that writes it out.
pub struct AccessLog {
    /// Taken on drop, so the writer sees the queue close before it is joined.
    shared: Option<Arc<Shared>>,
    /// The `format` line, whose request header fields are kept from each request; `None` for
    /// `combined` and `json`.
    template: Option<Arc<LogTemplate>>,
    /// Whether the `format` line writes `$server_name`, which the proxy then notes.
    server_name: bool,
    writer: Option<JoinHandle<()>>,
}

/// What the request path and [`reopen_all`] hold: the queue's sending end, and the flags also
/// held by the writer (which must not hold the sender, or the queue would never close).
struct Shared {
    sender: SyncSender<Message>,
    flags: Arc<Flags>,
}

#[derive(Default)]
struct Flags {
    reopen: AtomicBool,
    dropped: AtomicU64,
}

enum Message {
    Line(Box<Record>),
    /// Wakes the writer to look at the reopen flag.
    Reopen,
    /// Everything queued before it is written; then the sender is told.
    Flush(mpsc::Sender<()>),
}

/// A finished request, as the writer formats it.
struct Record {
    entry: Entry,
    /// When the response was done, for the timestamp.
    time: SystemTime,
    /// `$request_time`: from the request's arrival to the response's end.
    total: Duration,
    /// `$upstream_response_time`: from sending upstream to the end of the upstream's body.
    upstream_response: Option<Duration>,
}

/// What is known of a request when its line is written.
#[derive(Debug, Clone)]
pub struct Entry {
    pub client: SocketAddr,
    pub method: String,
    pub target: String,
    pub version: http::Version,
    /// Empty when the request had none (written `-`, as nginx does).
    pub referer: String,
    /// Empty when the request had none (written `-`, as nginx does).
    pub user_agent: String,
    /// `$remote_user`: the user of the request's `Authorization: Basic` credentials, whether or
    /// not a route asked for them (as nginx); empty when there are none (written `-`).
    pub remote_user: String,
    pub status: StatusCode,
    /// The upstream server that answered (`127.0.0.1:8000`, `unix:/run/app.sock`).
    pub upstream: Option<String>,
    /// `$upstream_header_time`: from sending the request upstream to its response head.
    pub upstream_time: Option<Duration>,
    /// `$upstream_status`: the upstream's answer's status, or weir's 502 or 504 when the app
    /// was asked and gave none.
    pub upstream_status: Option<StatusCode>,
    /// `$upstream_connect_time`: how long the connection to the upstream took to open (zero
    /// for one kept from an earlier request).
    pub upstream_connect_time: Option<Duration>,
    /// How long the request waited in weir's queue for a place at the server (0 when one was
    /// free); `None` when it went to no upstream.
    pub upstream_queue_time: Option<Duration>,
    /// What weir answered the request with instead of the upstream's answer, when it did
    /// (`ProxyError::cause`: `standing_queue`, `queue_timeout`, `rate_limited`, `connect`, ...);
    /// `None` for an answer of the upstream's, a static file's or a redirect's.
    pub cause: Option<&'static str>,
    pub started: Instant,
    /// Body bytes sent to the client (`$body_bytes_sent`), counted as the body streams.
    pub bytes: u64,
    /// The TLS connection (`$ssl_protocol`, `$ssl_cipher`, `$ssl_server_name`); `None` on a
    /// plain listener.
    pub tls: Option<Arc<crate::tls::TlsInfo>>,
    /// `$upstream_cache_status`: how a route's `cache` answered (`HIT`, `MISS`, `BYPASS`);
    /// empty when it did not (written `-`, JSON `null`).
    pub cache_status: &'static str,
    /// `$request_id`, when the config names it (and so every request has one). Its digits are
    /// kept in the entry as they are: no string is made for the line.
    pub request_id: Option<crate::request_id::RequestId>,
    /// The request header fields a `format` line names ([`AccessLog::kept_headers`]), in its
    /// order; `None` for one the request did not have. Empty for `combined` and `json`.
    pub headers: Vec<Option<String>>,
    /// The response header fields a `format` line names ([`AccessLog::kept_sent_headers`]), as
    /// for `headers`.
    pub sent_headers: Vec<Option<String>>,
    /// `$request_length`: the request's head (`head_length`), then, once the HTTP layer
    /// writes the answer's head, the body bytes it read ([`Entry::note_sent_head`]).
    pub request_length: u64,
    /// The answer's head as written to the client, for `$bytes_sent` (with `bytes`).
    pub head_sent: u64,
    /// `$server_name`, when the `format` line names it.
    pub server_name: Option<Arc<str>>,
}

impl Entry {
    /// The entry of a request the HTTP layer refused before weir saw it: no method, no target
    /// (written `"-"` as nginx writes an unparsable request line).
    pub fn unparsed(client: SocketAddr, status: StatusCode) -> Entry {
        Entry {
            client,
            method: String::new(),
            target: String::new(),
            version: http::Version::HTTP_11,
            referer: String::new(),
            user_agent: String::new(),
            remote_user: String::new(),
            status,
            upstream: None,
            upstream_time: None,
            upstream_status: None,
            upstream_connect_time: None,
            upstream_queue_time: None,
            cause: None,
            started: Instant::now(),
            bytes: 0,
            tls: None,
            cache_status: "",
            request_id: None,
            headers: Vec::new(),
            sent_headers: Vec::new(),
            request_length: 0,
            head_sent: 0,
            server_name: None,
        }
    }

    pub fn start<B>(client: SocketAddr, request: &Request<B>) -> Entry {
        let header_text = |name: header::HeaderName| {
            request
                .headers()
                .get(name)
                .map(|value| String::from_utf8_lossy(value).into_owned())
                .unwrap_or_default()
        };
        Entry {
            client,
            method: request.method().to_string(),
            target: request
                .uri()
                .path_and_query()
                .map_or_else(|| request.uri().to_string(), |pq| pq.to_string()),
            version: request.version(),
            referer: header_text(header::REFERER),
            user_agent: header_text(header::USER_AGENT),
            remote_user: request
                .headers()
                .get(header::AUTHORIZATION)
                .and_then(crate::htpasswd::Credentials::parse)
                .map(|credentials| String::from_utf8_lossy(credentials.user()).into_owned())
                .unwrap_or_default(),
            request_length: head_length(request),
            status: StatusCode::OK,
            upstream: None,
            upstream_time: None,
            upstream_status: None,
            upstream_connect_time: None,
            upstream_queue_time: None,
            cause: None,
            started: Instant::now(),
            bytes: 0,
            tls: None,
            cache_status: "",
            request_id: None,
            headers: Vec::new(),
            sent_headers: Vec::new(),
            head_sent: 0,
            server_name: None,
        }
    }

    /// The HTTP layer wrote the answer's head, `head` bytes, having read `body_read` bytes of
    /// the request's body (`None`: HTTP/2, whose head counts the body's declared length).
    pub fn note_sent_head(&mut self, head: usize, body_read: Option<u64>) {
        self.head_sent = head as u64;
        self.request_length += body_read.unwrap_or(0);
    }
}

/// A request's head in bytes, for `$request_length`: as it came on HTTP/1 (request line and
/// blank line included); on HTTP/2, as HTTP/1 would carry it (hyper does not say how many bytes
/// its compressed head took), with the length its `Content-Length` declares for the body.
fn head_length<B>(request: &Request<B>) -> u64 {
    let fields = request.headers().head_bytes() as u64;
    if request.version() < http::Version::HTTP_2 {
        return fields;
    }
    let line = request.method().as_str().len()
        + request
            .uri()
            .path_and_query()
            .map_or(1, |pq| pq.as_str().len())
        + " HTTP/2.0\r\n".len();
    let declared = request
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(crate::head_view::text)
        .and_then(|text| text.parse::<u64>().ok())
        .unwrap_or(0);
    line as u64 + fields + 2 + declared
}

impl AccessLog {
    /// Opens the file (or takes stderr) and starts the writer thread.
    pub fn open(config: &AccessLogConfig) -> io::Result<AccessLog> {
        let sink = match &config.path {
            Some(path) => Sink::File {
                file: open_append(path)?,
                path: path.clone(),
            },
            None => Sink::Stderr,
        };
        let (sender, receiver) = mpsc::sync_channel(QUEUE_LINES);
        let flags = Arc::new(Flags::default());
        let shared = Arc::new(Shared {
            sender,
            flags: Arc::clone(&flags),
        });
        let template = match &config.format {
            AccessLogFormat::Template(template) => Some(Arc::clone(template)),
            AccessLogFormat::Combined | AccessLogFormat::Json => None,
        };
        let server_name = template
            .as_ref()
            .is_some_and(|template| template.writes(LogVariable::ServerName));
        let writer = Writer {
            format: config.format.clone(),
            sink,
            flags,
            buffer: Vec::with_capacity(WRITE_CHUNK),
            clock: ClockCache::default(),
        };
        let thread = std::thread::Builder::new()
            .name("weir-access-log".to_string())
            .spawn(move || writer.run(receiver))?;
        let mut open_logs = OPEN_LOGS
            .lock()
            .unwrap_or_else(|poison| poison.into_inner());
        open_logs.retain(|log| log.strong_count() > 0);
        open_logs.push(Arc::downgrade(&shared));
        Ok(AccessLog {
            shared: Some(shared),
            template,
            server_name,
            writer: Some(thread),
        })
    }

    /// Asks the writer to reopen the file (after logrotate renamed it). Returns at once; the
    /// writer reopens before its next line. Nothing to do for stderr.
    pub fn reopen(&self) {
        if let Some(shared) = &self.shared {
            shared.request_reopen();
        }
    }

    /// Waits until every line queued so far is handed to the kernel, for up to five seconds.
    /// Returns whether it was. Blocks the calling thread: for tests and shutdown, not requests.
    pub fn flush(&self) -> bool {
        let Some(shared) = &self.shared else {
            return false;
        };
        let (done, written) = mpsc::channel();
        if shared.sender.send(Message::Flush(done)).is_err() {
            return false;
        }
        written.recv_timeout(FLUSH_WAIT).is_ok()
    }

    /// The values of the request header fields the `format` line names, for its entry: the
    /// fields' values joined with `, ` (`None` for a field the request does not have). `Host`
    /// is the HTTP/2 authority when there is no such field. Nothing for `combined` and `json`.
    pub fn kept_headers<B>(&self, request: &Request<B>) -> Vec<Option<String>> {
        let Some(template) = &self.template else {
            return Vec::new();
        };
        template
            .headers
            .iter()
            .map(|name| {
                if !request.headers().contains(name) {
                    return (name == header::HOST)
                        .then(|| request.uri().authority().map(ToString::to_string))
                        .flatten();
                }
                joined(request.headers(), name)
            })
            .collect()
    }

    /// The values of the response header fields the `format` line names (`$sent_http_NAME`),
    /// as the phases made the answer: the fields' values joined with `, ` (`None` for a field
    /// the answer does not have). Nothing for `combined` and `json`.
    pub fn kept_sent_headers(&self, headers: &crate::head_view::Headers) -> Vec<Option<String>> {
        let Some(template) = &self.template else {
            return Vec::new();
        };
        template
            .sent_headers
            .iter()
            .map(|name| joined(headers, name))
            .collect()
    }

    /// Whether the `format` line writes `$server_name`.
    pub fn writes_server_name(&self) -> bool {
        self.server_name
    }

    /// Lines dropped because the queue was full.
    pub fn dropped(&self) -> u64 {
        self.shared
            .as_ref()
            .map_or(0, |shared| shared.flags.dropped.load(Ordering::Relaxed))
    }

    /// Queues the line of a request answered without a response body to stream: a client that
    /// left before its answer (499), or an answer the HTTP layer gave by itself (400, 408, 414, 431).
    pub fn write_now(&self, entry: Entry) {
        self.write(entry, Instant::now());
    }

    /// Queues `entry`'s line; `head_at` is when the response head was handed to the client.
    fn write(&self, entry: Entry, head_at: Instant) {
        let Some(shared) = &self.shared else {
            return;
        };
        let total = entry.started.elapsed();
        // The upstream's body ended about when ours did (it is streamed through), so its
        // response time is the header time plus the time since the head came back.
        let upstream_response = entry
            .upstream_time
            .map(|header_time| header_time + head_at.elapsed());
        let record = Box::new(Record {
            entry,
            time: SystemTime::now(),
            total,
            upstream_response,
        });
        match shared.sender.try_send(Message::Line(record)) {
            Ok(()) => {}
            Err(TrySendError::Full(_)) => {
                shared.flags.dropped.fetch_add(1, Ordering::Relaxed);
            }
            // The writer is gone (it only stops when this log is dropped): nothing to do.
            Err(TrySendError::Disconnected(_)) => {}
        }
    }

    /// Wraps a response body so the line is written once the body is done or dropped. Call it
    /// as soon as the response head is known: the upstream response time counts from here.
    pub fn wrap<B>(self: &Arc<Self>, body: B, entry: Entry) -> LoggedBody<B> {
        LoggedBody {
            inner: body,
            entry: Some(entry),
            head_at: Instant::now(),
            log: Arc::clone(self),
        }
    }
}

impl Drop for AccessLog {
    fn drop(&mut self) {
        // Closing the queue lets the writer write what is left and end; joining it makes sure
        // the last lines are in the file before the process exits. It only waits for lines
        // already queued, at most QUEUE_LINES of them.
        drop(self.shared.take());
        if let Some(writer) = self.writer.take() {
            let _ = writer.join();
        }
    }
}

impl Shared {
    fn request_reopen(&self) {
        self.flags.reopen.store(true, Ordering::Relaxed);
        // A full queue needs no wake-up: the writer looks at the flag before every line.
        let _ = self.sender.try_send(Message::Reopen);
    }
}

/// Asks every open access log to reopen its file, as nginx does on SIGUSR1 after logrotate
/// renamed it. Returns how many logs were asked. Never blocks on the writers.
pub fn reopen_all() -> usize {
    let open_logs: Vec<Arc<Shared>> = OPEN_LOGS
        .lock()
        .unwrap_or_else(|poison| poison.into_inner())
        .iter()
        .filter_map(Weak::upgrade)
        .collect();
    for shared in &open_logs {
        shared.request_reopen();
    }
    open_logs.len()
}

/// The values of field `name` joined with `, `; `None` when there is none.
fn joined(headers: &crate::head_view::Headers, name: &header::HeaderName) -> Option<String> {
    if !headers.contains(name) {
        return None;
    }
    let mut value = Vec::new();
    headers.append_joined(name, &mut value);
    Some(String::from_utf8_lossy(&value).into_owned())
}

/// A response body and its access-log line, written when the body is done or dropped.
pub struct LoggedBody<B> {
    inner: B,
    /// Taken when the line is written.
    entry: Option<Entry>,
    head_at: Instant,
    log: Arc<AccessLog>,
}

impl<B> LoggedBody<B> {
    /// The body inside.
    pub fn inner(&self) -> &B {
        &self.inner
    }

    /// The HTTP layer wrote the answer's head: see [`Entry::note_sent_head`].
    pub fn note_sent_head(&mut self, head: usize, body_read: Option<u64>) {
        if let Some(entry) = &mut self.entry {
            entry.note_sent_head(head, body_read);
        }
    }

    /// The body inside, with the line's byte count (`None` once the line is written), for a
    /// writer that moves the bytes itself (`splice`) and counts them there.
    pub fn inner_mut(&mut self) -> (&mut B, Option<&mut u64>) {
        (
            &mut self.inner,
            self.entry.as_mut().map(|entry| &mut entry.bytes),
        )
    }
}

impl<B> Drop for LoggedBody<B> {
    fn drop(&mut self) {
        if let Some(entry) = self.entry.take() {
            self.log.write(entry, self.head_at);
        }
    }
}

impl<B> http_body::Body for LoggedBody<B>
where
    B: http_body::Body<Data = Bytes> + Unpin,
{
    type Data = Bytes;
    type Error = B::Error;

    fn poll_frame(
        self: Pin<&mut Self>,
        context: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, B::Error>>> {
        let this = self.get_mut();
        let polled = Pin::new(&mut this.inner).poll_frame(context);
        if let Poll::Ready(Some(Ok(frame))) = &polled {
            if let (Some(data), Some(entry)) = (frame.data_ref(), this.entry.as_mut()) {
                entry.bytes += data.len() as u64;
            }
        }
        polled
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

enum Sink {
    Stderr,
    File { path: PathBuf, file: File },
}

fn open_append(path: &std::path::Path) -> io::Result<File> {
    OpenOptions::new().create(true).append(true).open(path)
}

/// The writer thread's state.
struct Writer {
    format: AccessLogFormat,
    sink: Sink,
    flags: Arc<Flags>,
    buffer: Vec<u8>,
    clock: ClockCache,
}

impl Writer {
    fn run(mut self, receiver: Receiver<Message>) {
        // Ends when every sender is gone: the log was dropped.
        while let Ok(message) = receiver.recv() {
            self.handle(message);
            while let Ok(message) = receiver.try_recv() {
                self.handle(message);
                if self.buffer.len() >= WRITE_CHUNK {
                    self.write_out();
                }
            }
            self.write_out();
            self.report_drops();
        }
        self.write_out();
    }

    fn handle(&mut self, message: Message) {
        if self.flags.reopen.load(Ordering::Relaxed)
            && self.flags.reopen.swap(false, Ordering::Relaxed)
        {
            self.reopen();
        }
        match message {
            Message::Line(record) => {
                format_line(&mut self.buffer, &mut self.clock, &self.format, &record);
            }
            Message::Reopen => {}
            Message::Flush(done) => {
                self.write_out();
                let _ = done.send(());
            }
        }
    }

    fn reopen(&mut self) {
        // Lines queued before the signal belong to the old file.
        self.write_out();
        if let Sink::File { path, file } = &mut self.sink {
            match open_append(path) {
                Ok(reopened) => *file = reopened,
                Err(error) => {
                    tracing::error!(path = %path.display(), %error, "cannot reopen the access log; still writing to the old file");
                }
            }
        }
    }

    fn write_out(&mut self) {
        if self.buffer.is_empty() {
            return;
        }
        let written = match &mut self.sink {
            Sink::Stderr => io::stderr().lock().write_all(&self.buffer),
            Sink::File { file, .. } => file.write_all(&self.buffer),
        };
        // A failing log must not fail requests; nginx likewise only reports it.
        if let Err(error) = written {
            if let Some(suppressed) = WRITER_TROUBLE.admit("write") {
                tracing::error!(%error, suppressed, "cannot write the access log");
            }
        }
        self.buffer.clear();
    }

    fn report_drops(&self) {
        let dropped = self.flags.dropped.load(Ordering::Relaxed);
        if dropped != 0 && WRITER_TROUBLE.admit("dropped").is_some() {
            tracing::warn!(
                dropped_since_start = dropped,
                "access log lines dropped: the log cannot keep up with the traffic"
            );
        }
    }
}

/// The formatted timestamps of the last second seen, so a busy log formats each once.
#[derive(Default)]
struct ClockCache {
    second: u64,
    local: String,
    iso: String,
}

impl ClockCache {
    fn update(&mut self, time: SystemTime) {
        let second = time
            .duration_since(UNIX_EPOCH)
            .map_or(0, |since| since.as_secs());
        if second != self.second || self.local.is_empty() {
            self.second = second;
            self.local = clf_time(second);
            self.iso = iso_time(second);
        }
    }
}

/// Appends one line in `format`.
///
/// `combined` is nginx's
/// `$remote_addr - $remote_user [$time_local] "$request" $status $body_bytes_sent
/// "$http_referer" "$http_user_agent"` followed by
/// `rt=$request_time uht=$upstream_header_time urt=$upstream_response_time
/// uqt=$upstream_queue_time upstream="$upstream_addr" cause=CAUSE`, then `tls=... cipher=...
/// sni="..."` on TLS, `cache=$upstream_cache_status` on a route with `cache` and
/// `id=$request_id` when the config names it (`uqt`: the wait in weir's
/// queue, a refused request's too; `cause`: why weir answered instead of the upstream, from
/// `ProxyError::cause`, `-` when it did not), times in seconds with millisecond resolution and
/// `-` when unknown, text escaped as nginx does (`"`, `\`, control and non-ASCII bytes as
/// `\xHH`). `$time_local` is written in UTC.
///
/// JSON has nginx's variable names: `time` (ISO 8601), `msec` (seconds since the epoch with
/// millisecond resolution, so lines within one second can be ordered), `remote_addr`, `method`, `request_uri`,
/// `remote_user` (empty when the request has no Basic credentials),
/// `protocol`, `status`, `body_bytes_sent`, `http_referer`, `http_user_agent`, `upstream_addr`,
/// `upstream_status`, `upstream_connect_time`, `upstream_header_time`, `upstream_response_time`, `upstream_queue_time` (null when the request
/// neither reached an upstream nor was refused by its queue), `cause` (null when weir did not
/// answer in the upstream's place), `ssl_protocol`, `ssl_cipher`, `ssl_server_name`,
/// `upstream_cache_status` and `request_id` (null when none) and `request_time`, times in
/// seconds with microsecond resolution.
fn format_line(
    out: &mut Vec<u8>,
    clock: &mut ClockCache,
    format: &AccessLogFormat,
    record: &Record,
) {
    clock.update(record.time);
    let entry = &record.entry;
    let version = format!("{:?}", entry.version);
    match format {
        AccessLogFormat::Combined => {
            let _ = write!(out, "{} - ", entry.client.ip());
            escape_nginx_or_dash(out, &entry.remote_user);
            let _ = write!(out, " [{}] \"", clock.local);
            if entry.method.is_empty() {
                out.push(b'-');
            } else {
                escape_nginx(out, &entry.method);
                out.push(b' ');
                escape_nginx(out, &entry.target);
                let _ = write!(out, " {version}");
            }
            let _ = write!(out, "\" {} {} \"", entry.status.as_u16(), entry.bytes);
            escape_nginx_or_dash(out, &entry.referer);
            out.extend_from_slice(b"\" \"");
            escape_nginx_or_dash(out, &entry.user_agent);
            let _ = write!(out, "\" rt={:.3} uht=", record.total.as_secs_f64());
            seconds_or_dash(out, entry.upstream_time);
            out.extend_from_slice(b" urt=");
            seconds_or_dash(out, record.upstream_response);
            out.extend_from_slice(b" uqt=");
            seconds_or_dash(out, entry.upstream_queue_time);
            out.extend_from_slice(b" upstream=\"");
            escape_nginx_or_dash(out, entry.upstream.as_deref().unwrap_or(""));
            out.extend_from_slice(b"\" cause=");
            out.extend_from_slice(entry.cause.unwrap_or("-").as_bytes());
            if let Some(tls) = &entry.tls {
                let _ = write!(out, " tls={} cipher={} sni=\"", tls.protocol, tls.cipher);
                escape_nginx_or_dash(out, tls.server_name.as_deref().unwrap_or(""));
                out.push(b'"');
            }
            if !entry.cache_status.is_empty() {
                let _ = write!(out, " cache={}", entry.cache_status);
            }
            if let Some(id) = &entry.request_id {
                let _ = write!(out, " id={}", id.as_str());
            }
            out.push(b'\n');
        }
        AccessLogFormat::Json => {
            let since = record.time.duration_since(UNIX_EPOCH).unwrap_or_default();
            let _ = write!(
                out,
                "{{\"time\":\"{}\",\"msec\":{}.{:03},\"remote_addr\":\"{}\",\"method\":",
                clock.iso,
                since.as_secs(),
                since.subsec_millis(),
                entry.client.ip()
            );
            json_string(out, &entry.method);
            out.extend_from_slice(b",\"request_uri\":");
            json_string(out, &entry.target);
            let _ = write!(
                out,
                ",\"protocol\":\"{version}\",\"status\":{},\"body_bytes_sent\":{},\"http_referer\":",
                entry.status.as_u16(),
                entry.bytes
            );
            json_string(out, &entry.referer);
            out.extend_from_slice(b",\"http_user_agent\":");
            json_string(out, &entry.user_agent);
            out.extend_from_slice(b",\"remote_user\":");
            json_string(out, &entry.remote_user);
            out.extend_from_slice(b",\"upstream_addr\":");
            match &entry.upstream {
                Some(upstream) => json_string(out, upstream),
                None => out.extend_from_slice(b"null"),
            }
            out.extend_from_slice(b",\"upstream_status\":");
            match entry.upstream_status {
                Some(status) => {
                    let _ = write!(out, "{}", status.as_u16());
                }
                None => out.extend_from_slice(b"null"),
            }
            out.extend_from_slice(b",\"upstream_connect_time\":");
            json_seconds(out, entry.upstream_connect_time);
            out.extend_from_slice(b",\"upstream_header_time\":");
            json_seconds(out, entry.upstream_time);
            out.extend_from_slice(b",\"upstream_response_time\":");
            json_seconds(out, record.upstream_response);
            out.extend_from_slice(b",\"upstream_queue_time\":");
            json_seconds(out, entry.upstream_queue_time);
            out.extend_from_slice(b",\"cause\":");
            match entry.cause {
                Some(cause) => json_string(out, cause),
                None => out.extend_from_slice(b"null"),
            }
            match &entry.tls {
                Some(tls) => {
                    let _ = write!(
                        out,
                        ",\"ssl_protocol\":\"{}\",\"ssl_cipher\":\"{}\",\"ssl_server_name\":",
                        tls.protocol, tls.cipher
                    );
                    match &tls.server_name {
                        Some(name) => json_string(out, name),
                        None => out.extend_from_slice(b"null"),
                    }
                }
                None => out.extend_from_slice(
                    b",\"ssl_protocol\":null,\"ssl_cipher\":null,\"ssl_server_name\":null",
                ),
            }
            for (key, value) in [
                (&b",\"upstream_cache_status\":"[..], entry.cache_status),
                (
                    b",\"request_id\":",
                    entry
                        .request_id
                        .as_ref()
                        .map_or("", crate::request_id::RequestId::as_str),
                ),
            ] {
                out.extend_from_slice(key);
                match value {
                    "" => out.extend_from_slice(b"null"),
                    value => json_string(out, value),
                }
            }
            let _ = writeln!(out, ",\"request_time\":{:.6}}}", record.total.as_secs_f64());
        }
        AccessLogFormat::Template(template) => {
            format_template(out, clock, template, record);
            out.push(b'\n');
        }
    }
}

/// A line of the user's: its text as written, its variables' values escaped as the line says,
/// and a value the request does not have written `-` (or nothing, for JSON), as nginx does.
fn format_template(out: &mut Vec<u8>, clock: &ClockCache, template: &LogTemplate, record: &Record) {
    let entry = &record.entry;
    let escape = template.escape;
    let text = |out: &mut Vec<u8>, value: Option<&str>| match (value, escape) {
        (Some(value), LogEscape::Default) => escape_nginx(out, value),
        (Some(value), LogEscape::Json) => json_escape(out, value),
        (None, LogEscape::Default) => out.push(b'-'),
        (None, LogEscape::Json) => {}
    };
    let seconds = |out: &mut Vec<u8>, time: Option<Duration>| match time {
        Some(_) => seconds_or_dash(out, time),
        None => text(out, None),
    };
    for piece in &template.pieces {
        match piece {
            LogPiece::Text(literal) => out.extend_from_slice(literal.as_bytes()),
            LogPiece::Header(index) => text(out, kept(entry, *index)),
            LogPiece::Host(index) => {
                let host = kept(entry, *index)
                    .map(|host| crate::routing::strip_port(host).to_ascii_lowercase());
                text(out, host.as_deref());
            }
            LogPiece::SentHeader(index) => text(
                out,
                entry.sent_headers.get(*index).and_then(Option::as_deref),
            ),
            LogPiece::Variable(variable) => match variable {
                LogVariable::RemoteAddr => {
                    let _ = write!(out, "{}", entry.client.ip());
                }
                LogVariable::RemotePort => {
                    let _ = write!(out, "{}", entry.client.port());
                }
                LogVariable::RemoteUser => text(out, present(&entry.remote_user)),
                LogVariable::TimeLocal => out.extend_from_slice(clock.local.as_bytes()),
                LogVariable::TimeIso8601 => out.extend_from_slice(clock.iso.as_bytes()),
                LogVariable::Msec => {
                    let since = record.time.duration_since(UNIX_EPOCH).unwrap_or_default();
                    let _ = write!(out, "{}.{:03}", since.as_secs(), since.subsec_millis());
                }
                LogVariable::Request if entry.method.is_empty() => text(out, None),
                LogVariable::Request => {
                    text(out, Some(&entry.method));
                    out.push(b' ');
                    text(out, Some(&entry.target));
                    let _ = write!(out, " {:?}", entry.version);
                }
                LogVariable::RequestMethod => text(out, present(&entry.method)),
                LogVariable::RequestUri => text(out, present(&entry.target)),
                LogVariable::ServerProtocol => {
                    let _ = write!(out, "{:?}", entry.version);
                }
                LogVariable::Scheme => out.extend_from_slice(if entry.tls.is_some() {
                    b"https"
                } else {
                    b"http"
                }),
                LogVariable::Status => {
                    let _ = write!(out, "{}", entry.status.as_u16());
                }
                LogVariable::BodyBytesSent => {
                    let _ = write!(out, "{}", entry.bytes);
                }
                LogVariable::HttpReferer => text(out, present(&entry.referer)),
                LogVariable::HttpUserAgent => text(out, present(&entry.user_agent)),
                LogVariable::UpstreamAddr => text(out, entry.upstream.as_deref()),
                LogVariable::UpstreamHeaderTime => seconds(out, entry.upstream_time),
                LogVariable::UpstreamResponseTime => seconds(out, record.upstream_response),
                LogVariable::UpstreamQueueTime => seconds(out, entry.upstream_queue_time),
                LogVariable::UpstreamConnectTime => seconds(out, entry.upstream_connect_time),
                LogVariable::UpstreamStatus => match entry.upstream_status {
                    Some(status) => {
                        let _ = write!(out, "{}", status.as_u16());
                    }
                    None => text(out, None),
                },
                LogVariable::RequestTime => seconds(out, Some(record.total)),
                LogVariable::SslProtocol => text(out, entry.tls.as_ref().map(|tls| tls.protocol)),
                LogVariable::SslCipher => text(out, entry.tls.as_ref().map(|tls| tls.cipher)),
                LogVariable::SslServerName => text(
                    out,
                    entry
                        .tls
                        .as_ref()
                        .and_then(|tls| tls.server_name.as_deref()),
                ),
                LogVariable::UpstreamCacheStatus => text(out, present(entry.cache_status)),
                LogVariable::RequestId => text(
                    out,
                    entry
                        .request_id
                        .as_ref()
                        .map(crate::request_id::RequestId::as_str),
                ),
                LogVariable::WeirCause => text(out, entry.cause),
                LogVariable::Uri => {
                    let path = entry
                        .target
                        .split_once('?')
                        .map_or(&*entry.target, |(path, _)| path);
                    // A path weir could not normalise was refused: it is written as it came.
                    let normal =
                        crate::path::normalize(path).unwrap_or(std::borrow::Cow::Borrowed(path));
                    text(out, present(&crate::path::decoded(&normal)));
                }
                // An empty query is none, as nginx has it (`/path?`).
                LogVariable::Args => text(out, query(&entry.target)),
                LogVariable::IsArgs => {
                    text(
                        out,
                        Some(if query(&entry.target).is_some() {
                            "?"
                        } else {
                            ""
                        }),
                    );
                }
                LogVariable::ServerName => {
                    text(out, Some(entry.server_name.as_deref().unwrap_or("")))
                }
                LogVariable::Hostname => text(out, Some(hostname())),
                LogVariable::Pid => {
                    let _ = write!(out, "{}", std::process::id());
                }
                LogVariable::RequestLength => {
                    let _ = write!(out, "{}", entry.request_length);
                }
                LogVariable::BytesSent => {
                    let _ = write!(out, "{}", entry.head_sent + entry.bytes);
                }
            },
        }
    }
}

/// The query of a request target, without its `?`; `None` when it is empty or there is none.
fn query(target: &str) -> Option<&str> {
    target
        .split_once('?')
        .map(|(_, query)| query)
        .filter(|query| !query.is_empty())
}

/// `$hostname`: the machine's name, read once.
fn hostname() -> &'static str {
    static HOSTNAME: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    HOSTNAME.get_or_init(|| {
        String::from_utf8_lossy(rustix::system::uname().nodename().to_bytes()).into_owned()
    })
}

/// An empty field of the entry is a value the request does not have.
fn present(value: &str) -> Option<&str> {
    (!value.is_empty()).then_some(value)
}

/// The `index`-th request header field the line keeps, when the request had it.
fn kept(entry: &Entry, index: usize) -> Option<&str> {
    entry.headers.get(index).and_then(Option::as_deref)
}

fn seconds_or_dash(out: &mut Vec<u8>, time: Option<Duration>) {
    match time {
        Some(time) => {
            let _ = write!(out, "{:.3}", time.as_secs_f64());
        }
        None => out.push(b'-'),
    }
}

fn json_seconds(out: &mut Vec<u8>, time: Option<Duration>) {
    match time {
        Some(time) => {
            let _ = write!(out, "{:.6}", time.as_secs_f64());
        }
        None => out.extend_from_slice(b"null"),
    }
}

/// nginx's escaping of variables in a `log_format` without `escape=`: `"`, `\`, control bytes
/// and bytes past ASCII become `\xHH`, so a client cannot forge a field or a line.
fn escape_nginx(out: &mut Vec<u8>, text: &str) {
    for &byte in text.as_bytes() {
        if byte == b'"' || byte == b'\\' || !(0x20..0x7f).contains(&byte) {
            let _ = write!(out, "\\x{byte:02X}");
        } else {
            out.push(byte);
        }
    }
}

/// An empty value is written `-`, as nginx writes an empty variable.
fn escape_nginx_or_dash(out: &mut Vec<u8>, text: &str) {
    if text.is_empty() {
        out.push(b'-');
    } else {
        escape_nginx(out, text);
    }
}

fn json_string(out: &mut Vec<u8>, text: &str) {
    out.push(b'"');
    json_escape(out, text);
    out.push(b'"');
}

/// `text` escaped for the inside of a JSON string.
fn json_escape(out: &mut Vec<u8>, text: &str) {
    for character in text.chars() {
        match character {
            '"' => out.extend_from_slice(b"\\\""),
            '\\' => out.extend_from_slice(b"\\\\"),
            '\n' => out.extend_from_slice(b"\\n"),
            '\r' => out.extend_from_slice(b"\\r"),
            '\t' => out.extend_from_slice(b"\\t"),
            c if (c as u32) < 0x20 || c == '\u{7f}' => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => {
                let mut utf8 = [0u8; 4];
                out.extend_from_slice(c.encode_utf8(&mut utf8).as_bytes());
            }
        }
    }
}

const MONTHS: [&str; 12] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];

/// `10/Oct/2000:13:55:36 +0000` (nginx's `$time_local`, in UTC).
fn clf_time(seconds: u64) -> String {
    let (year, month, day) = civil_from_days((seconds / 86_400) as i64);
    let rest = seconds % 86_400;
    format!(
        "{:02}/{}/{}:{:02}:{:02}:{:02} +0000",
        day,
        // month is 1..=12 by civil_from_days's construction.
        MONTHS[(month - 1) as usize],
        year,
        rest / 3600,
        rest / 60 % 60,
        rest % 60
    )
}

/// `2000-10-10T13:55:36+00:00` (nginx's `$time_iso8601`, in UTC).
fn iso_time(seconds: u64) -> String {
    let (year, month, day) = civil_from_days((seconds / 86_400) as i64);
    let rest = seconds % 86_400;
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}+00:00",
        rest / 3600,
        rest / 60 % 60,
        rest % 60
    )
}

/// Days since 1970-01-01 to (year, month 1..=12, day 1..=31), proleptic Gregorian.
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z.rem_euclid(146_097);
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let mp = (5 * day_of_year + 2) / 153;
    let day = (day_of_year - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests;
