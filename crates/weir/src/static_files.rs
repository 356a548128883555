//! Serving a directory as nginx's static module does: GET and HEAD only, `ETag` and
//! `Last-Modified` with conditional requests answered 304 (or 412), one byte range answered 206,
//! MIME types by extension, `index.html` for directories, precompressed `.br`/`.gz` siblings when
//! the client accepts them, 403 and 404 where nginx gives them, and no way out of the directory.
//!
//! All file-system work for a request (resolving the path, opening, `fstat`, and reading the first
//! chunk) happens in one `spawn_blocking` call, since each blocking hop costs a thread handoff; the
//! rest of the file follows in [`CHUNK_SIZE`] pieces, one hop each, so a large file is never held
//! in memory whole.

pub(crate) mod mime;
#[cfg(test)]
mod tests;

use std::fmt::Write as _;
use std::fs::{File, Metadata};
use std::future::Future;
use std::io::{self, Read, Seek, SeekFrom};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use bytes::Bytes;
use http::header::{
    ACCEPT_RANGES, CONTENT_ENCODING, CONTENT_LENGTH, CONTENT_RANGE, CONTENT_TYPE, ETAG, IF_MATCH,
    IF_MODIFIED_SINCE, IF_NONE_MATCH, IF_RANGE, IF_UNMODIFIED_SINCE, LAST_MODIFIED, LOCATION,
    RANGE, VARY,
};
use http::{Method, StatusCode};
use http_body::{Frame, SizeHint};
use tokio::task::JoinHandle;

use crate::compression;
use crate::config::Encoding;
use crate::error::{ProxyError, Side};
use crate::head_view::{Headers, Response};

/// The file is read in pieces of this size. Large enough that a 651 KiB file is three blocking
/// hops, small enough that a hundred downloads in flight hold tens of MiB, not the files.
pub const CHUNK_SIZE: usize = 256 * 1024;

/// Files up to this size are read whole in the blocking hop that opens them and kept in the
/// file cache, as nginx's `open_file_cache` keeps descriptors (weir keeps the bytes: there is
/// no sendfile below hyper).
pub const CACHE_MAX_FILE: u64 = 1024 * 1024;

/// How long a cached file is served without looking at the disk again (nginx
/// `open_file_cache_valid`, whose default is 60 s; weir revalidates every second).
pub const CACHE_VALID: Duration = Duration::from_secs(1);

/// Body bytes the cache holds at most.
const CACHE_MAX_BYTES: usize = 64 * 1024 * 1024;

/// Files the cache holds at most. Each entry costs its headers and its key (a path, at most
/// `PATH_MAX`) besides the body, so the body-byte cap alone would let many tiny files grow the
/// map; 4096 covers the assets of a large site, and 4096 entries of a few hundred bytes of
/// overhead each stay in the low MiB.
pub const CACHE_MAX_ENTRIES: usize = 4096;

/// The file served for a directory, as nginx's default `index index.html`.
const INDEX_FILE: &str = "index.html";

/// A directory served over HTTP. Built once per route; cheap to share behind an `Arc`.
#[derive(Debug, Clone)]
pub struct StaticDir {
    /// The canonical root: every file served must canonicalize to a path under it.
    root: PathBuf,
    cache: std::sync::Arc<FileCache>,
}

/// Whole 200 responses of small files, each trusted for [`CACHE_VALID`]. Only plain requests use
/// it (no `Range`, no conditional headers), and only files without precompressed siblings are
/// kept, so the answer never depends on request headers.
///
/// An entry is keyed by the file it holds, as a path relative to the root: the request path is
/// normalised first (percent-decoded, `.` and empty segments dropped, a trailing slash naming the
/// directory's `index.html`), and a file is only kept when its canonical path is that key, i.e.
/// no symlink was followed. So every spelling of a file (`//a.txt`, `/./a.txt`, `/%61.txt`) finds
/// one entry, and there are never more keys than files. The map is bounded in entries
/// ([`CACHE_MAX_ENTRIES`]) and body bytes ([`CACHE_MAX_BYTES`]); expired entries are dropped when
/// looked up and whenever a bound is reached, and only when that is not enough does the cache
/// start afresh.
#[derive(Debug, Default)]
struct FileCache {
    state: std::sync::Mutex<CacheState>,
}

#[derive(Debug, Default)]
struct CacheState {
    entries: std::collections::HashMap<PathBuf, Cached>,
    /// Body bytes of every entry.
    bytes: usize,
}

#[derive(Debug, Clone)]
struct Cached {
    headers: Headers,
    body: Bytes,
    fetched: tokio::time::Instant,
}

impl Cached {
    fn is_fresh(&self, now: tokio::time::Instant) -> bool {
        now.saturating_duration_since(self.fetched) < CACHE_VALID
    }
}

impl FileCache {
    fn lock(&self) -> std::sync::MutexGuard<'_, CacheState> {
        // The state is a map and a sum kept together under the lock; a panic elsewhere cannot
        // leave them apart.
        self.state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn get(&self, key: &Path, is_head: bool) -> Option<Response<FileBody>> {
        let mut state = self.lock();
        let cached = state.entries.get(key)?;
        if !cached.is_fresh(tokio::time::Instant::now()) {
            if let Some(expired) = state.entries.remove(key) {
                state.bytes -= expired.body.len();
            }
            return None;
        }
        let body = if is_head {
            FileBody::empty()
        } else {
            FileBody::full(cached.body.clone())
        };
        let mut response = Response::new(body);
        *response.headers_mut() = cached.headers.clone();
        Some(response)
    }

    fn insert(&self, key: PathBuf, headers: &Headers, body: Bytes) {
        if body.len() > CACHE_MAX_BYTES {
            return;
        }
        let now = tokio::time::Instant::now();
        let mut state = self.lock();
        if let Some(old) = state.entries.remove(&key) {
            state.bytes -= old.body.len();
        }
        let full = |state: &CacheState| {
            state.entries.len() >= CACHE_MAX_ENTRIES || state.bytes + body.len() > CACHE_MAX_BYTES
        };
        if full(&state) {
            let state = &mut *state;
            state.entries.retain(|_, cached| cached.is_fresh(now));
            state.bytes = state.entries.values().map(|cached| cached.body.len()).sum();
        }
        if full(&state) {
            // Every entry is fresh: the sweep above is then paid once per CACHE_MAX_ENTRIES
            // insertions at most, since the cache starts empty again.
            state.entries.clear();
            state.bytes = 0;
        }
        state.bytes += body.len();
        state.entries.insert(
            key,
            Cached {
                headers: headers.clone(),
                body,
                fetched: now,
            },
        );
    }

    /// Files held now.
    #[cfg(test)]
    fn len(&self) -> usize {
        self.lock().entries.len()
    }
}

/// Whether the answer depends on more than the path: a range or a conditional request.
fn has_conditions(headers: &Headers) -> bool {
    [
        RANGE,
        IF_NONE_MATCH,
        IF_MODIFIED_SINCE,
        IF_MATCH,
        IF_UNMODIFIED_SINCE,
        IF_RANGE,
    ]
    .iter()
    .any(|name| headers.contains(name))
}

impl StaticDir {
    /// Serves `root`, which must be an existing directory: a typo in a static root is a config
    /// error worth failing on at start, not a 404 on every request.
    pub fn new(root: impl Into<PathBuf>) -> io::Result<StaticDir> {
        let root = root.into().canonicalize()?;
        if !root.is_dir() {
            return Err(io::Error::new(
                io::ErrorKind::NotADirectory,
                format!("{} is not a directory", root.display()),
            ));
        }
        Ok(StaticDir {
            root,
            cache: std::sync::Arc::default(),
        })
    }

    /// Serves one file, `file` (an exact route's `static`, nginx's `location = /favicon.ico {
    /// alias ...; }`): its directory, and the file's name below it, percent-encoded as a
    /// request path is, for [`StaticDir::serve`].
    pub fn one_file(file: &Path) -> io::Result<(StaticDir, String)> {
        let file = file.canonicalize()?;
        let (Some(dir), Some(name), true) = (file.parent(), file.file_name(), file.is_file())
        else {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("{} is not a file", file.display()),
            ));
        };
        // Only unreserved bytes stay as they are: the name is read back as a request path.
        let below = format!(
            "/{}",
            percent_encode(name.as_encoded_bytes(), |byte| {
                byte.is_ascii_alphanumeric() || b"-._~".contains(&byte)
            })
        );
        Ok((StaticDir::new(dir)?, below))
    }

    /// The canonical root directory.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Answers one request. `path` is the request path below the root, still percent-encoded as it
    /// arrived (`/css/site.css`, or `` for the root itself); the route strips its own prefix first
    /// when it maps a prefix onto the directory. Query strings are ignored.
    ///
    /// A directory without a trailing slash is redirected (301) to `./NAME/`, a relative reference,
    /// so it works under any route prefix. Answers: 200, 206, 301, 304, 412, 416. A file not
    /// served is a [`ProxyError`], which `error.rs` answers: a method other than GET or HEAD
    /// (405), a path with `..`, an encoded `/` or `\`, a NUL or bad percent-encoding (400), a
    /// file missing or forbidden (unreadable, outside the root, a directory without index) and
    /// any other I/O error ([`ProxyError::File`]: 404, 403 or 500 as nginx maps them).
    pub async fn serve(
        &self,
        method: &Method,
        path: &str,
        request_headers: &Headers,
    ) -> Result<Response<FileBody>, ProxyError> {
        let is_head = if method == Method::GET {
            false
        } else if method == Method::HEAD {
            true
        } else {
            return Err(ProxyError::MethodNotAllowed {
                allow: "GET, HEAD".into(),
            });
        };
        let Some(request_path) = RequestPath::parse(path) else {
            return Err(ProxyError::BadRequest {
                reason: "a static path with `..`, an encoded `/` or `\\`, a NUL or bad escapes",
            });
        };
        let plain = !has_conditions(request_headers);
        let cache_key = plain.then(|| request_path.cache_key());
        if let Some(key) = &cache_key {
            if let Some(response) = self.cache.get(key, is_head) {
                return Ok(response);
            }
        }
        let request = FileRequest {
            root: self.root.clone(),
            path: request_path,
            is_head,
            conditions: Conditions::from_headers(request_headers),
            encodings: accepted_precompressed(request_headers),
        };
        match tokio::task::spawn_blocking(move || request.open()).await {
            Ok(Ok(opened)) => {
                let whole = match &opened {
                    Opened::File(file)
                        if plain
                            && !file.is_head
                            && file.plan == Plan::Full
                            && file.remaining == 0
                            && !file.vary
                            && file.encoding.is_none()
                            && file.unaliased =>
                    {
                        Some(file.first_chunk.clone())
                    }
                    _ => None,
                };
                let response = opened.into_response();
                if let (Some(body), Some(key)) = (whole, cache_key) {
                    self.cache.insert(key, response.headers(), body);
                }
                Ok(response)
            }
            Ok(Err(error)) => Err(error),
            Err(join_error) => Err(file_error(io::Error::other(join_error))),
        }
    }
}

/// Whether a normalised request path has a segment that starts with `.` (`/.git/config`,
/// `/app/.env`), which a static route does not serve unless `dotfiles` says so; `.well-known`
/// (RFC 8615: ACME challenges, `security.txt`) is not counted.
pub fn names_dotfile(path: &str) -> bool {
    path.split('/')
        .any(|segment| segment.starts_with('.') && segment != ".well-known")
}

/// A request path split into decoded segments, checked for every way out of the root.
#[derive(Debug, Clone, PartialEq, Eq)]
struct RequestPath {
    /// The path below the root, one component per non-empty segment.
    relative: PathBuf,
    /// Whether the path names a directory (`/dir/`, or the root itself).
    trailing_slash: bool,
    /// The last segment as received (still encoded), for a directory redirect's `Location`.
    last_segment: String,
}

impl RequestPath {
    /// The file this path names, relative to the root, if no symlink is followed: the key of the
    /// [`FileCache`]. A directory (trailing slash) names its index file.
    fn cache_key(&self) -> PathBuf {
        if self.trailing_slash {
            self.relative.join(INDEX_FILE)
        } else {
            self.relative.clone()
        }
    }

    /// `None` for a path that must be refused with 400: a `..` segment (encoded or not), an
    /// encoded `/` or `\`, a backslash, a NUL, or a `%` not followed by two hex digits. Empty and
    /// `.` segments are dropped, as nginx merges slashes.
    fn parse(path: &str) -> Option<RequestPath> {
        let path = path.split(['?', '#']).next().unwrap_or_default();
        let mut relative = PathBuf::new();
        let mut last_segment = "";
        for segment in path.split('/') {
            if segment.is_empty() {
                continue;
            }
            last_segment = segment;
            let decoded = percent_decode(segment)?;
            if decoded.iter().any(|&byte| matches!(byte, b'/' | b'\\' | 0)) {
                return None;
            }
            match decoded.as_slice() {
                b"." => continue,
                b".." => return None,
                _ => relative.push(std::ffi::OsStr::from_bytes(&decoded)),
            }
        }
        let trailing_slash = path.is_empty() || path.ends_with('/') || path.ends_with("/.");
        Some(RequestPath {
            relative,
            trailing_slash,
            last_segment: last_segment.to_string(),
        })
    }
}

/// Decodes `%XX` escapes; `None` for a malformed escape.
fn percent_decode(segment: &str) -> Option<Vec<u8>> {
    let bytes = segment.as_bytes();
    let mut decoded = Vec::with_capacity(bytes.len());
    let mut index = 0;
    while index < bytes.len() {
        if bytes[index] == b'%' {
            let high = hex_value(*bytes.get(index + 1)?)?;
            let low = hex_value(*bytes.get(index + 2)?)?;
            decoded.push(high << 4 | low);
            index += 3;
        } else {
            decoded.push(bytes[index]);
            index += 1;
        }
    }
    Some(decoded)
}

fn hex_value(digit: u8) -> Option<u8> {
    match digit {
        b'0'..=b'9' => Some(digit - b'0'),
        b'a'..=b'f' => Some(digit - b'a' + 10),
        b'A'..=b'F' => Some(digit - b'A' + 10),
        _ => None,
    }
}

/// The precompressed siblings the request accepts, best first: by the client's q-value, and brotli
/// before gzip on a tie, as it is smaller.
fn accepted_precompressed(request_headers: &Headers) -> Vec<Encoding> {
    let mut accepted: Vec<(Encoding, u16)> = [Encoding::Brotli, Encoding::Gzip]
        .into_iter()
        .map(|encoding| (encoding, compression::quality(request_headers, encoding)))
        .filter(|(_, q)| *q > 0)
        .collect();
    // A stable sort keeps brotli first among equals.
    accepted.sort_by_key(|(_, q)| std::cmp::Reverse(*q));
    accepted.into_iter().map(|(encoding, _)| encoding).collect()
}

/// The file-name suffix of a precompressed sibling.
fn sibling_suffix(encoding: Encoding) -> &'static str {
    match encoding {
        Encoding::Gzip => ".gz",
        Encoding::Brotli => ".br",
        Encoding::Zstd => ".zst",
    }
}

/// The conditional and range headers of a request, as they bear on a file.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct Conditions {
    if_match: Option<String>,
    if_unmodified_since: Option<SystemTime>,
    if_none_match: Option<String>,
    if_modified_since: Option<SystemTime>,
    range: Option<String>,
    if_range: Option<String>,
}

impl Conditions {
    fn from_headers(headers: &Headers) -> Conditions {
        let text = |name| {
            // Several lines of a list header are one list.
            let values: Vec<&str> = headers
                .get_all(name)
                .filter_map(crate::head_view::text)
                .collect();
            (!values.is_empty()).then(|| values.join(", "))
        };
        let date = |name| {
            headers
                .get(name)
                .and_then(crate::head_view::text)
                .and_then(|text| httpdate::parse_http_date(text.trim()).ok())
        };
        Conditions {
            if_match: text(IF_MATCH),
            if_unmodified_since: date(IF_UNMODIFIED_SINCE),
            if_none_match: text(IF_NONE_MATCH),
            if_modified_since: date(IF_MODIFIED_SINCE),
            range: headers
                .get(RANGE)
                .and_then(crate::head_view::text)
                .map(str::to_string),
            if_range: headers
                .get(IF_RANGE)
                .and_then(crate::head_view::text)
                .map(|text| text.trim().to_string()),
        }
    }
}

/// What a file's validators are: its size and modification time, whole seconds as HTTP dates have.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Validators {
    len: u64,
    modified_secs: u64,
}

impl Validators {
    fn from_metadata(metadata: &Metadata) -> Validators {
        let modified_secs = metadata
            .modified()
            .ok()
            .and_then(|modified| modified.duration_since(UNIX_EPOCH).ok())
            .map_or(0, |since_epoch| since_epoch.as_secs());
        Validators {
            len: metadata.len(),
            modified_secs,
        }
    }

    /// nginx's ETag: the modification time and the size in hex, `"mtime-size"`.
    fn etag(&self) -> String {
        format!("\"{:x}-{:x}\"", self.modified_secs, self.len)
    }

    fn modified(&self) -> SystemTime {
        UNIX_EPOCH + Duration::from_secs(self.modified_secs)
    }

    fn last_modified(&self) -> String {
        httpdate::fmt_http_date(self.modified())
    }
}

/// What to send for a file, decided from its validators and the request's conditions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Plan {
    Full,
    /// Bytes `start..=end`.
    Partial {
        start: u64,
        end: u64,
    },
    NotModified,
    PreconditionFailed,
    RangeNotSatisfiable,
}

/// RFC 9110 section 13.2.2's order: If-Match, If-Unmodified-Since, If-None-Match,
/// If-Modified-Since, then If-Range and Range. A date condition is ignored when the matching tag
/// condition is present, as the RFC says.
fn plan(validators: &Validators, conditions: &Conditions) -> Plan {
    let etag = validators.etag();
    if let Some(if_match) = &conditions.if_match {
        if !etag_list_matches(if_match, &etag, false) {
            return Plan::PreconditionFailed;
        }
    } else if let Some(since) = conditions.if_unmodified_since {
        if validators.modified() > since {
            return Plan::PreconditionFailed;
        }
    }
    if let Some(if_none_match) = &conditions.if_none_match {
        if etag_list_matches(if_none_match, &etag, true) {
            return Plan::NotModified;
        }
    } else if let Some(since) = conditions.if_modified_since {
        // Not modified since the client's copy: nginx's `if_modified_since before`, the RFC's rule.
        if validators.modified() <= since {
            return Plan::NotModified;
        }
    }
    let Some(range) = &conditions.range else {
        return Plan::Full;
    };
    if let Some(if_range) = &conditions.if_range {
        if !if_range_current(if_range, Some(&etag), Some(validators.modified())) {
            return Plan::Full;
        }
    }
    match parse_range(range, validators.len) {
        RangeSpec::Ignore => Plan::Full,
        RangeSpec::Unsatisfiable => Plan::RangeNotSatisfiable,
        RangeSpec::Bytes { start, end } => Plan::Partial { start, end },
    }
}

/// Whether an `If-Range` names the representation whose tag is `etag` (a strong match, so a
/// weak tag never matches) or that was last modified at `modified`: its range is served then,
/// the whole otherwise.
pub(crate) fn if_range_current(
    if_range: &str,
    etag: Option<&str>,
    modified: Option<SystemTime>,
) -> bool {
    if if_range.starts_with('"') || if_range.starts_with("W/") {
        etag.is_some_and(|etag| etag_list_matches(if_range, etag, false))
    } else {
        httpdate::parse_http_date(if_range)
            .is_ok_and(|date| modified.is_some_and(|modified| date == modified))
    }
}

/// Whether an `If-Match`/`If-None-Match`/`If-Range` list names `etag`. `*` names any file.
/// With `weak`, `W/"x"` matches `"x"` (weak comparison); without, weak tags never match.
pub(crate) fn etag_list_matches(list: &str, etag: &str, weak: bool) -> bool {
    if list.trim() == "*" {
        return true;
    }
    let mut rest = list;
    loop {
        rest = rest.trim_start_matches([' ', '\t', ',']);
        if rest.is_empty() {
            return false;
        }
        let is_weak = rest.starts_with("W/");
        if is_weak {
            rest = &rest[2..];
        }
        let Some(quoted) = rest.strip_prefix('"') else {
            return false;
        };
        let Some(close) = quoted.find('"') else {
            return false;
        };
        let tag = &rest[..close + 2];
        if tag == etag && (weak || !is_weak) {
            return true;
        }
        rest = &rest[close + 2..];
    }
}

/// A `Range` header read against a file length. Public, with [`parse_range`], for the fuzz targets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RangeSpec {
    /// Not a single byte range we serve (malformed, another unit, or several ranges): send the
    /// whole file, which RFC 9110 permits. nginx would answer several ranges with a multipart
    /// body; weir sends 200 and the whole file instead.
    Ignore,
    /// A single range that starts past the end of the file, or a suffix of no bytes (`-0`, or any
    /// suffix of an empty file): 416.
    Unsatisfiable,
    /// The bytes `start..=end` of the file, both within it: 206.
    Bytes {
        /// The first byte sent.
        start: u64,
        /// The last byte sent (inclusive, as `Content-Range` writes it).
        end: u64,
    },
}

/// Reads a `Range` header against a file of `len` bytes (RFC 9110 section 14.2). A range that
/// runs past the end is cut at the end, as the RFC asks.
pub fn parse_range(header: &str, len: u64) -> RangeSpec {
    let header = header.trim();
    let Some((unit, specs)) = header.split_once('=') else {
        return RangeSpec::Ignore;
    };
    if !unit.trim().eq_ignore_ascii_case("bytes") {
        return RangeSpec::Ignore;
    }
    let mut specs = specs
        .split(',')
        .map(str::trim)
        .filter(|spec| !spec.is_empty());
    let (Some(spec), None) = (specs.next(), specs.next()) else {
        return RangeSpec::Ignore;
    };
    let Some((first, last)) = spec.split_once('-') else {
        return RangeSpec::Ignore;
    };
    let number = |text: &str| {
        let text = text.trim();
        (!text.is_empty() && text.bytes().all(|byte| byte.is_ascii_digit()))
            .then(|| text.parse::<u64>().ok())
            .flatten()
    };
    match (first.trim().is_empty(), number(first), number(last)) {
        // `-N`: the last N bytes.
        (true, _, Some(suffix)) => {
            if suffix == 0 || len == 0 {
                RangeSpec::Unsatisfiable
            } else {
                RangeSpec::Bytes {
                    start: len.saturating_sub(suffix),
                    end: len - 1,
                }
            }
        }
        // `A-` or `A-B`.
        (false, Some(start), last_number) => {
            if !last.trim().is_empty() && last_number.is_none() {
                return RangeSpec::Ignore;
            }
            if last_number.is_some_and(|end| end < start) {
                return RangeSpec::Ignore;
            }
            if start >= len {
                return RangeSpec::Unsatisfiable;
            }
            let end = last_number.map_or(len - 1, |end| end.min(len - 1));
            RangeSpec::Bytes { start, end }
        }
        _ => RangeSpec::Ignore,
    }
}

/// Everything the blocking part of a request needs, moved onto the blocking pool.
struct FileRequest {
    root: PathBuf,
    path: RequestPath,
    is_head: bool,
    conditions: Conditions,
    encodings: Vec<Encoding>,
}

/// The outcome of the blocking part: a file ready to send, or a redirect.
enum Opened {
    /// A directory asked for without its trailing slash: its last segment.
    Redirect(String),
    File(Box<OpenedFile>),
}

struct OpenedFile {
    file: File,
    validators: Validators,
    content_type: &'static str,
    encoding: Option<Encoding>,
    /// Whether a precompressed sibling exists, so the response varies by `Accept-Encoding`.
    vary: bool,
    plan: Plan,
    is_head: bool,
    /// The first piece of the body, read in the same blocking hop as the open.
    first_chunk: Bytes,
    /// Body bytes left to read after `first_chunk`.
    remaining: u64,
    /// Whether the file's canonical path is the request's normalised path (no symlink on the
    /// way), so the file may be cached under that path (see [`FileCache`]).
    unaliased: bool,
}

impl FileRequest {
    /// Resolves, checks, opens and starts reading. Runs on the blocking pool.
    fn open(self) -> Result<Opened, ProxyError> {
        let requested = self.root.join(&self.path.relative);
        let canonical = self.inside_root(&requested)?;
        let metadata = std::fs::metadata(&canonical).map_err(file_error)?;
        let (requested, canonical) = if metadata.is_dir() {
            if !self.path.trailing_slash {
                return Ok(Opened::Redirect(self.path.last_segment.clone()));
            }
            let index = requested.join(INDEX_FILE);
            // A directory without an index is 403, as nginx without autoindex.
            let canonical_index = self.inside_root(&index).map_err(|error| {
                if error.status() == StatusCode::NOT_FOUND {
                    ProxyError::FileForbidden {
                        reason: "a directory without index.html",
                    }
                } else {
                    error
                }
            })?;
            let index_is_file = std::fs::metadata(&canonical_index)
                .map_err(file_error)?
                .is_file();
            if !index_is_file {
                return Err(ProxyError::FileForbidden {
                    reason: "a directory whose index.html is no file",
                });
            }
            (index, canonical_index)
        } else if self.path.trailing_slash {
            // `/file.txt/` names a directory that is not there.
            return Err(ProxyError::FileNotFound {
                reason: "a file asked for as a directory",
            });
        } else if !metadata.is_file() {
            // A FIFO, socket or device under the root is not served (opening a FIFO would block),
            // as nginx refuses them.
            return Err(ProxyError::FileNotFound {
                reason: "not a regular file",
            });
        } else {
            (requested, canonical)
        };
        // The root is canonical and the relative path has no `.`, `..` or empty segment, so the
        // two are equal exactly when no symlink was followed.
        let unaliased = canonical == requested;

        let mut vary = false;
        let mut chosen: Option<(Encoding, PathBuf)> = None;
        for encoding in [Encoding::Brotli, Encoding::Gzip] {
            let mut sibling = requested.clone().into_os_string();
            sibling.push(sibling_suffix(encoding));
            let sibling = PathBuf::from(sibling);
            // One cheap lstat rules out the usual case of no sibling before any canonicalizing.
            if std::fs::symlink_metadata(&sibling).is_err() {
                continue;
            }
            let Ok(canonical_sibling) = self.inside_root(&sibling) else {
                continue;
            };
            if !std::fs::metadata(&canonical_sibling).is_ok_and(|metadata| metadata.is_file()) {
                continue;
            }
            vary = true;
            let preferred = self
                .encodings
                .iter()
                .position(|&accepted| accepted == encoding);
            let current = chosen.as_ref().and_then(|(current, _)| {
                self.encodings
                    .iter()
                    .position(|accepted| accepted == current)
            });
            if preferred.is_some() && (current.is_none() || preferred < current) {
                chosen = Some((encoding, canonical_sibling));
            }
        }

        let content_type = mime::for_path(&requested);
        let (encoding, path) = match chosen {
            Some((encoding, sibling)) => (Some(encoding), sibling),
            None => (None, canonical),
        };
        let mut file = File::open(&path).map_err(file_error)?;
        let metadata = file.metadata().map_err(file_error)?;
        if !metadata.is_file() {
            // Swapped for something else since the check above.
            return Err(ProxyError::FileNotFound {
                reason: "not a regular file",
            });
        }
        let validators = Validators::from_metadata(&metadata);
        let plan = plan(&validators, &self.conditions);
        let (start, body_len) = match plan {
            Plan::Full => (0, validators.len),
            Plan::Partial { start, end } => (start, end - start + 1),
            Plan::NotModified | Plan::PreconditionFailed | Plan::RangeNotSatisfiable => (0, 0),
        };
        let mut first_chunk = Bytes::new();
        let mut remaining = 0;
        if !self.is_head && body_len > 0 {
            if start > 0 {
                file.seek(SeekFrom::Start(start)).map_err(file_error)?;
            }
            // A small file asked for whole is read whole, once, and cached; others in pieces.
            let first_len = if plan == Plan::Full && body_len <= CACHE_MAX_FILE {
                body_len
            } else {
                body_len.min(CHUNK_SIZE as u64)
            };
            first_chunk = read_chunk(&mut file, first_len).map_err(file_error)?;
            remaining = body_len - first_len;
        }
        Ok(Opened::File(Box::new(OpenedFile {
            file,
            validators,
            content_type,
            encoding,
            vary,
            plan,
            is_head: self.is_head,
            first_chunk,
            remaining,
            unaliased,
        })))
    }

    /// Canonicalizes `path` and checks it is under the root: a symlink may point anywhere inside,
    /// never outside (403).
    fn inside_root(&self, path: &Path) -> Result<PathBuf, ProxyError> {
        let canonical = path.canonicalize().map_err(file_error)?;
        if canonical.starts_with(&self.root) {
            Ok(canonical)
        } else {
            Err(ProxyError::FileForbidden {
                reason: "outside the root",
            })
        }
    }
}

/// The answer to a directory's path without its trailing slash, as nginx's: 301 to `./NAME/`
/// (`NAME` its last segment), a relative reference, so it works under any route prefix; a
/// `query` (the client's, already a valid one) follows it. The segment stands in the `Location`
/// as it came, escapes kept, with every byte that is not visible ASCII (raw UTF-8, which hyper
/// lets through in a path) percent-encoded, so the header is always valid.
pub fn directory_redirect(name: &str, query: Option<&str>) -> Response<FileBody> {
    // Empty, as weir's other redirects.
    let mut response = Response::new(FileBody::empty());
    *response.status_mut() = StatusCode::MOVED_PERMANENTLY;
    // Every byte that is not visible ASCII is percent-encoded: a valid value.
    let mut location = format!(
        "./{}/",
        percent_encode(name.as_bytes(), |byte| byte.is_ascii_graphic())
    );
    if let Some(query) = query {
        location.push('?');
        location.push_str(query);
    }
    response.headers_mut().set(LOCATION, location);
    response
}

/// `bytes` with each byte that `keep` refuses written as `%XX`.
fn percent_encode(bytes: &[u8], keep: impl Fn(u8) -> bool) -> String {
    let mut encoded = String::with_capacity(bytes.len());
    for &byte in bytes {
        if keep(byte) {
            encoded.push(char::from(byte));
        } else {
            let _ = write!(encoded, "%{byte:02X}");
        }
    }
    encoded
}

/// Reads exactly `len` bytes; a file that shrank since `fstat` is an error, since the response
/// already promised its length.
fn read_chunk(file: &mut File, len: u64) -> io::Result<Bytes> {
    // `len` is at most CACHE_MAX_FILE, so it fits a usize.
    let mut buffer = Vec::with_capacity(len as usize);
    file.take(len).read_to_end(&mut buffer)?;
    if (buffer.len() as u64) < len {
        return Err(io::Error::new(
            io::ErrorKind::UnexpectedEof,
            "the file shrank while it was being sent",
        ));
    }
    Ok(Bytes::from(buffer))
}

/// A file-system error while serving a file. One that is weir's fault rather than a missing or
/// forbidden file (see [`ProxyError::File`]) is logged.
fn file_error(source: io::Error) -> ProxyError {
    let error = ProxyError::File { source };
    if error.side() == Side::Internal {
        tracing::error!(%error, "static file error");
    }
    error
}

impl Opened {
    fn into_response(self) -> Response<FileBody> {
        let opened = match self {
            Opened::Redirect(name) => return directory_redirect(&name, None),
            Opened::File(opened) => *opened,
        };
        let validators = opened.validators;
        let (status, content_length) = match opened.plan {
            Plan::Full => (StatusCode::OK, validators.len),
            Plan::Partial { start, end } => (StatusCode::PARTIAL_CONTENT, end - start + 1),
            Plan::NotModified => (StatusCode::NOT_MODIFIED, 0),
            Plan::PreconditionFailed => return status_response(StatusCode::PRECONDITION_FAILED),
            Plan::RangeNotSatisfiable => {
                let mut response = status_response(StatusCode::RANGE_NOT_SATISFIABLE);
                set_header(
                    response.headers_mut(),
                    CONTENT_RANGE,
                    &format!("bytes */{}", validators.len),
                );
                return response;
            }
        };
        let body = if status == StatusCode::NOT_MODIFIED || opened.is_head {
            FileBody::empty()
        } else {
            FileBody::file(opened.file, opened.first_chunk, opened.remaining)
        };
        let mut response = Response::new(body);
        *response.status_mut() = status;
        let headers = response.headers_mut();
        set_header(headers, ETAG, &validators.etag());
        set_header(headers, LAST_MODIFIED, &validators.last_modified());
        if opened.vary {
            headers.set(VARY, "Accept-Encoding");
        }
        if status == StatusCode::NOT_MODIFIED {
            return response;
        }
        headers.set(CONTENT_TYPE, opened.content_type);
        headers.set(CONTENT_LENGTH, itoa::Buffer::new().format(content_length));
        headers.set(ACCEPT_RANGES, "bytes");
        if let Some(encoding) = opened.encoding {
            headers.set(CONTENT_ENCODING, encoding.as_str());
        }
        if let Plan::Partial { start, end } = opened.plan {
            set_header(
                headers,
                CONTENT_RANGE,
                &format!("bytes {start}-{end}/{}", validators.len),
            );
        }
        response
    }
}

/// Sets a header from text we built ourselves (digits, hex, dates), which is always a valid value.
fn set_header(headers: &mut Headers, name: http::HeaderName, value: &str) {
    if crate::head_view::text(value.as_bytes()).is_some() {
        headers.set(name, value);
    }
}

/// weir's short plain-text answer for `status` (made by `error.rs`), as a static body.
fn status_response(status: StatusCode) -> Response<FileBody> {
    crate::error::status_response(status).map(FileBody::full)
}

/// A static response body: nothing, a small message, or a file read in [`CHUNK_SIZE`] pieces on
/// the blocking pool. Its size hint is exact, so the length is known to hyper.
pub struct FileBody {
    kind: Kind,
}

enum Kind {
    Full(Option<Bytes>),
    File {
        first_chunk: Option<Bytes>,
        /// The file while no read is in flight.
        file: Option<File>,
        reading: Option<JoinHandle<io::Result<(File, Bytes)>>>,
        remaining: u64,
    },
}

impl FileBody {
    /// A body with no bytes.
    pub fn empty() -> FileBody {
        FileBody {
            kind: Kind::Full(None),
        }
    }

    /// A body of these bytes.
    pub fn full(bytes: Bytes) -> FileBody {
        FileBody {
            kind: Kind::Full((!bytes.is_empty()).then_some(bytes)),
        }
    }

    /// `first_chunk`, then `remaining` more bytes read from `file` at its current position.
    fn file(file: File, first_chunk: Bytes, remaining: u64) -> FileBody {
        FileBody {
            kind: Kind::File {
                first_chunk: (!first_chunk.is_empty()).then_some(first_chunk),
                file: Some(file),
                reading: None,
                remaining,
            },
        }
    }
}

impl http_body::Body for FileBody {
    type Data = Bytes;
    type Error = io::Error;

    fn poll_frame(
        self: Pin<&mut Self>,
        context: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, io::Error>>> {
        let (first_chunk, file, reading, remaining) = match &mut self.get_mut().kind {
            Kind::Full(bytes) => {
                return Poll::Ready(bytes.take().map(|bytes| Ok(Frame::data(bytes))))
            }
            Kind::File {
                first_chunk,
                file,
                reading,
                remaining,
            } => (first_chunk, file, reading, remaining),
        };
        if let Some(chunk) = first_chunk.take() {
            return Poll::Ready(Some(Ok(Frame::data(chunk))));
        }
        if *remaining == 0 {
            return Poll::Ready(None);
        }
        if reading.is_none() {
            let Some(mut owned) = file.take() else {
                // No file and no read in flight happens only after a failed read, which ended
                // the body with an error already.
                return Poll::Ready(None);
            };
            let len = (*remaining).min(CHUNK_SIZE as u64);
            *reading = Some(tokio::task::spawn_blocking(move || {
                let chunk = read_chunk(&mut owned, len)?;
                Ok((owned, chunk))
            }));
        }
        let Some(handle) = reading.as_mut() else {
            return Poll::Ready(None);
        };
        let result = match Pin::new(handle).poll(context) {
            Poll::Pending => return Poll::Pending,
            Poll::Ready(result) => result,
        };
        *reading = None;
        match result {
            Ok(Ok((owned, chunk))) => {
                *file = Some(owned);
                *remaining -= chunk.len() as u64;
                Poll::Ready(Some(Ok(Frame::data(chunk))))
            }
            Ok(Err(error)) => {
                *remaining = 0;
                Poll::Ready(Some(Err(error)))
            }
            Err(join_error) => {
                *remaining = 0;
                Poll::Ready(Some(Err(io::Error::other(join_error))))
            }
        }
    }

    fn is_end_stream(&self) -> bool {
        match &self.kind {
            Kind::Full(bytes) => bytes.is_none(),
            Kind::File {
                first_chunk,
                remaining,
                ..
            } => first_chunk.is_none() && *remaining == 0,
        }
    }

    fn size_hint(&self) -> SizeHint {
        match &self.kind {
            Kind::Full(bytes) => {
                SizeHint::with_exact(bytes.as_ref().map_or(0, |bytes| bytes.len() as u64))
            }
            Kind::File {
                first_chunk,
                remaining,
                ..
            } => SizeHint::with_exact(
                first_chunk.as_ref().map_or(0, |chunk| chunk.len() as u64) + remaining,
            ),
        }
    }
}
