//! A request head, parsed with `httparse` and checked against RFC 9112's framing rules before
//! anything else sees it. Whatever is refused here is a [`CodecError`], whose status
//! `error.rs` gives, and the connection is closed after the answer: a framing doubt is
//! never resolved by guessing.

use bytes::{Bytes, BytesMut};
use http::{Method, Uri, Version};

use crate::error::CodecError;
use crate::head_view::{Headers, RequestHead};
use crate::header_list;
use crate::spares;

/// The most header lines a request may have (hyper's limit before, and nginx's practical one).
pub const MAX_HEADERS: usize = 256;

/// Spare boxes of heads a thread keeps at most.
const SPARE_HEADS: usize = 4;
/// The least room of a thread's arena of head bytes ([`head_bytes`]): a few heads' worth. Small,
/// as a piece still alive (a request in flight) keeps its whole buffer.
const HEAD_ARENA: usize = 4096;

thread_local! {
    /// Boxes of heads whose request began (their parts taken), for the next head of this thread.
    #[allow(clippy::vec_box)] // reason: the boxes are what is kept, each lent whole to a head
    static SPARE_HEADS_OF_THREAD: std::cell::RefCell<Vec<Box<Head>>> =
        const { std::cell::RefCell::new(Vec::new()) };
    /// The bytes of this thread's heads: a request's head, an upstream response's head, the
    /// upstream request's head.
    static HEAD_BYTES: std::cell::RefCell<spares::Arena> =
        std::cell::RefCell::new(spares::Arena::default());
}

/// The `length` bytes `write` puts, cut from this thread's arena of head bytes (see
/// `crate::spares::cut`): values and heads that `Bytes` keep cost no allocation of their own.
pub fn head_bytes(length: usize, write: impl FnOnce(&mut BytesMut)) -> Bytes {
    spares::cut(&HEAD_BYTES, length, HEAD_ARENA, write)
}

/// Takes the request's head out of a head whose request begins, and gives its box back to this
/// thread's spares for the next head.
pub fn take_parts(mut head: Box<Head>) -> RequestHead {
    let parts = std::mem::take(&mut head.parts);
    spares::give_back(&SPARE_HEADS_OF_THREAD, head, SPARE_HEADS);
    parts
}

/// `head` in a box: a spare one of this thread when there is one (see [`take_parts`]).
fn boxed(head: Head) -> Box<Head> {
    match spares::take(&SPARE_HEADS_OF_THREAD) {
        Some(mut spare) => {
            *spare = head;
            spare
        }
        None => Box::new(head),
    }
}

/// How the request body is delimited (RFC 9112 §6.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Framing {
    /// No body.
    Empty,
    /// Exactly this many bytes (never 0: that is `Empty`).
    Length(u64),
    /// Chunked transfer coding.
    Chunked,
}

/// A parsed and checked request head.
#[derive(Debug)]
pub struct Head {
    /// The request line and the header fields, as a view of the head's bytes.
    pub parts: RequestHead,
    pub framing: Framing,
    /// Whether the connection may carry another request after this one (HTTP/1.1 without
    /// `Connection: close`, or HTTP/1.0 with `Connection: keep-alive`).
    pub keep_alive: bool,
    /// `Expect: 100-continue` on an HTTP/1.1 request with a body: a `100 Continue` is due
    /// before its body is read.
    pub expect_continue: bool,
}

/// The result of looking at the bytes received so far.
#[derive(Debug)]
pub enum Parsed {
    /// A whole head of this many bytes.
    Complete(Box<Head>, usize),
    /// More bytes are needed.
    Partial,
}

/// Parses a request head from the start of `buffer`. `max_size` bounds the head (request line
/// included): a partial head already longer is refused, with 414 if its request line is not
/// even complete.
pub fn parse(buffer: &[u8], max_size: usize) -> Result<Parsed, CodecError> {
    #[cfg(test)]
    PARSES.with(|parses| parses.set(parses.get() + 1));
    // httparse skips empty lines before the request line (RFC 9112 §2.2).
    let bytes = buffer;
    // Left uninitialised: httparse writes only the lines it finds, and filling 256 empty
    // headers (8 KiB) first cost more instructions than parsing a small head.
    let mut headers =
        [const { std::mem::MaybeUninit::<httparse::Header<'_>>::uninit() }; MAX_HEADERS];
    let mut request = httparse::Request::new(&mut []);
    let status = request.parse_with_uninit_headers(bytes, &mut headers);
    let length = match status {
        Ok(httparse::Status::Complete(length)) => length,
        Ok(httparse::Status::Partial) => {
            if bytes.len() > max_size {
                return Err(too_large(bytes));
            }
            return Ok(Parsed::Partial);
        }
        Err(httparse::Error::TooManyHeaders) => return Err(CodecError::HeadTooLarge),
        Err(httparse::Error::Version) => return Err(version_refusal(bytes)),
        Err(_) => return Err(CodecError::Malformed("request head syntax")),
    };
    // The view's ranges are 32-bit (`head_view`): a larger head is refused whatever the limit.
    if length > max_size || u32::try_from(length).is_err() {
        return Err(too_large(bytes));
    }
    let head = build(&request, &bytes[..length])?;
    Ok(Parsed::Complete(boxed(head), length))
}

#[cfg(test)]
thread_local! {
    /// How many times this thread called [`parse`]: the connection loop's tests count it.
    pub(crate) static PARSES: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// 414 while the request line is still incomplete, else 431.
fn too_large(bytes: &[u8]) -> CodecError {
    if bytes.contains(&b'\n') {
        CodecError::HeadTooLarge
    } else {
        CodecError::UriTooLong
    }
}

/// `httparse` refuses any version other than `HTTP/1.0` and `HTTP/1.1`: a well-formed
/// `HTTP/d.d` is then 505, anything else 400.
fn version_refusal(bytes: &[u8]) -> CodecError {
    let line_end = bytes
        .iter()
        .position(|byte| *byte == b'\r' || *byte == b'\n')
        .unwrap_or(bytes.len());
    let line = &bytes[..line_end];
    let version = line.rsplit(|byte| *byte == b' ').next().unwrap_or_default();
    match version {
        [b'H', b'T', b'T', b'P', b'/', major, b'.', minor]
            if major.is_ascii_digit() && minor.is_ascii_digit() =>
        {
            CodecError::Version
        }
        _ => CodecError::Malformed("request line"),
    }
}

/// The head checked, and its view made: its bytes copied once into this thread's arena of head
/// bytes, which the view and its target's `Uri` keep.
fn build(request: &httparse::Request<'_, '_>, head: &[u8]) -> Result<Head, CodecError> {
    let method = Method::from_bytes(request.method.unwrap_or_default().as_bytes())
        .map_err(|_| CodecError::Malformed("method"))?;
    let version = match request.version {
        Some(0) => Version::HTTP_10,
        _ => Version::HTTP_11,
    };
    let path = request.path.unwrap_or_default();
    let mut content_length: Option<u64> = None;
    let mut chunked = false;
    let mut transfer_encoding = false;
    let mut close = false;
    let mut keep_alive_token = false;
    let mut expect_continue = false;
    // Hop-by-hop lines, noted in the view for phase 4, which then looks at no name again;
    // unless a line past the 64th is one or `Connection` names other headers, which phase 4
    // finds by name.
    let mut hop_by_hop = header_list::HopByHopLines::default();
    for (index, line) in request.headers.iter().enumerate() {
        let name = line.name.as_bytes();
        hop_by_hop.note(index, name);
        let is = |lower: &[u8]| header_list::is(name, lower);
        // httparse holds names to tokens and values to text (tab, visible ASCII, obs-text),
        // as `http`'s `HeaderName` and `HeaderValue` did: the view keeps them as they are.
        if is(b"content-length") {
            if content_length.is_some() {
                // Even an equal repeat is refused (nginx does too): one less way to disagree
                // with a server behind.
                return Err(CodecError::Malformed("more than one Content-Length"));
            }
            content_length = Some(parse_length(line.value)?);
        } else if is(b"transfer-encoding") {
            transfer_encoding = true;
            for coding in header_list::items(line.value) {
                if chunked {
                    // Anything after `chunked` (even a second `chunked`) leaves the body's end
                    // to a coding we would not decode.
                    return Err(CodecError::Malformed("transfer coding after chunked"));
                }
                if coding.eq_ignore_ascii_case(b"chunked") {
                    chunked = true;
                } else if coding.is_empty() {
                    // RFC 9110 lets a recipient skip empty list elements, but no client sends
                    // them here, and two `Transfer-Encoding` lines of which one is empty read
                    // differently from server to server.
                    return Err(CodecError::Malformed("empty transfer coding"));
                } else {
                    return Err(CodecError::UnknownCoding);
                }
            }
        } else if is(b"connection") {
            for token in header_list::items(line.value) {
                if header_list::is(token, b"close") {
                    close = true;
                } else if header_list::is(token, b"keep-alive") {
                    keep_alive_token = true;
                } else {
                    hop_by_hop.note_connection_item(token);
                }
            }
        } else if is(b"expect") && header_list::is(line.value, b"100-continue") {
            expect_continue = true;
        }
    }
    let framing = match (transfer_encoding, content_length) {
        (true, Some(_)) => {
            // RFC 9112 §6.1 lets a server drop Content-Length and go on, but a request with
            // both is an attempt at smuggling far more often than a real client: nginx refuses
            // it too.
            return Err(CodecError::Malformed(
                "both Content-Length and Transfer-Encoding",
            ));
        }
        (true, None) if version == Version::HTTP_10 => {
            return Err(CodecError::Malformed("Transfer-Encoding on HTTP/1.0"));
        }
        (true, None) if !chunked => return Err(CodecError::Malformed("empty Transfer-Encoding")),
        (true, None) => Framing::Chunked,
        (false, Some(0) | None) => Framing::Empty,
        (false, Some(length)) => Framing::Length(length),
    };
    let keep_alive = match version {
        Version::HTTP_10 => keep_alive_token && !close,
        _ => !close,
    };
    let expect_continue =
        expect_continue && version == Version::HTTP_11 && framing != Framing::Empty;
    let bytes = head_bytes(head.len(), |buffer| buffer.extend_from_slice(head));
    let target_start = (path.as_ptr() as usize).wrapping_sub(head.as_ptr() as usize);
    let uri = parse_target(
        &method,
        path,
        bytes.slice(target_start..target_start + path.len()),
    )?;
    let mut headers = Headers::parsed(bytes, head, request.headers);
    if let Some(places) = hop_by_hop.by_place() {
        headers.note_hop_by_hop(places);
    }
    let parts = RequestHead {
        method,
        uri,
        version,
        headers,
    };
    Ok(Head {
        parts,
        framing,
        keep_alive,
        expect_continue,
    })
}

/// The request target: origin form (`/path?query`), absolute form, `*` for `OPTIONS`, and
/// authority form for `CONNECT` only (RFC 9112 §3.2). `bytes` are the target's, which the `Uri`
/// keeps.
fn parse_target(method: &Method, target: &str, bytes: Bytes) -> Result<Uri, CodecError> {
    let bad = CodecError::Malformed("request target");
    if target.is_empty() {
        return Err(bad);
    }
    let uri = Uri::from_maybe_shared(bytes).map_err(|_| bad)?;
    let fits = if *method == Method::CONNECT {
        uri.authority().is_some() && uri.scheme().is_none() && !target.starts_with('/')
    } else if target.starts_with('/') {
        true
    } else if target == "*" {
        method == Method::OPTIONS
    } else {
        uri.scheme().is_some() && uri.authority().is_some()
    };
    if fits {
        Ok(uri)
    } else {
        Err(bad)
    }
}

/// A `Content-Length` value: digits only (at most 19 of them), no sign, no list; read by
/// [`header_list::decimal`], as the upstream side reads its own.
fn parse_length(value: &[u8]) -> Result<u64, CodecError> {
    let bad = CodecError::Malformed("Content-Length");
    if value.len() > 19 {
        return Err(bad);
    }
    header_list::decimal(value).ok_or(bad)
}

#[cfg(test)]
mod tests;
