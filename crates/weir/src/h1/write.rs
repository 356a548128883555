//! Writing a response: the head is encoded once into one buffer and goes out with the first
//! body bytes in a single vectored write; the body follows frame by frame, framed by its
//! `Content-Length` or chunked (HTTP/1.1) or by closing the connection (HTTP/1.0).

use std::cell::RefCell;
use std::future::poll_fn;
use std::io;
use std::pin::Pin;
use std::task::Poll;
use std::time::SystemTime;

use http::header;
use http::{StatusCode, Version};
use http_body::Body as _;
use tokio::io::AsyncWrite;

use super::io::write_all;
use crate::body::Body;
use crate::head_view::{Headers, Response};
use crate::header_list;
use crate::spares::{self, HeadBuffer};

/// How the body is framed on the wire.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Framing {
    /// No body bytes at all (HEAD, 1xx, 204, 304).
    None,
    /// Exactly this many bytes.
    Length(u64),
    Chunked,
    /// Until the connection closes (an HTTP/1.0 client and no length).
    Close,
}

/// What the connection loop needs to know once a response is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Written {
    /// Whether the connection may carry another request.
    pub keep_alive: bool,
}

/// The request facts that shape the response's framing.
#[derive(Debug, Clone, Copy)]
pub struct RequestFacts {
    pub head: bool,
    pub version: Version,
    /// Whether the connection may stay open after this response, as far as the request and the
    /// loop are concerned.
    pub keep_alive: bool,
}

/// Writes `response` to `io`. An error means the connection is unusable (the client went away,
/// the body broke mid-way, or `send_timeout` passed).
///
/// With `splice_into` (the client connection), a body passed through untouched goes by
/// `splice` when it can ([`super::splice`]).
///
/// Not an `async fn`: the head is encoded before the future is made, so the future holds the
/// body and the encoded head once, not the response as its argument and again as its parts
/// (issue 18: small futures). Inlined, so the future is made where it is awaited: returned from
/// a call, it was copied there whole (callgrind: `memcpy` +350 instructions per request).
#[inline(always)]
pub fn write_response<'a, W: AsyncWrite + Unpin>(
    io: &'a mut W,
    response: Response<Body>,
    request: RequestFacts,
    splice_into: Option<&'a std::sync::Arc<super::io::Shared>>,
) -> impl std::future::Future<Output = io::Result<Written>> + 'a {
    let (mut parts, mut body) = response.into_parts();
    let status = parts.status;
    let bodiless = request.head
        || status.is_informational()
        || status == StatusCode::NO_CONTENT
        || status == StatusCode::NOT_MODIFIED;
    let headers = &mut parts.headers;
    // What the writer needs of the fields, read in one pass; a field is removed only when there.
    let seen = Seen::of(headers);
    let length_kept = !(status.is_informational() || status == StatusCode::NO_CONTENT);
    if seen.length && !length_kept {
        headers.remove(header::CONTENT_LENGTH);
    }
    if seen.transfer_encoding {
        headers.remove(header::TRANSFER_ENCODING);
    }
    let declared = seen.declared.filter(|_| length_kept);
    let mut added_length = None;
    let framing = if bodiless {
        Framing::None
    } else if let Some(length) = declared {
        Framing::Length(length)
    } else if let Some(length) = body.size_hint().exact() {
        // Written by `encode_head` from the number.
        added_length = Some(length);
        Framing::Length(length)
    } else if request.version == Version::HTTP_11 {
        Framing::Chunked
    } else {
        Framing::Close
    };
    let switching = status == StatusCode::SWITCHING_PROTOCOLS;
    let close_asked = seen.close;
    let keep_alive = request.keep_alive && !close_asked && framing != Framing::Close;
    // The framing lines go into the head as bytes after the view's. An answer's lines (a 429's)
    // are bytes already.
    let answer_lines = body.take_lines();
    let mut lines: [&[u8]; 3] = [b"", b"", b""];
    if let Some(answer_lines) = &answer_lines {
        lines[2] = answer_lines.as_bytes();
    }
    if framing == Framing::Chunked {
        lines[0] = b"transfer-encoding: chunked\r\n";
    }
    if !switching {
        if !keep_alive {
            if !close_asked {
                if seen.connection {
                    headers.remove(header::CONNECTION);
                }
                lines[1] = b"connection: close\r\n";
            }
        } else if request.version == Version::HTTP_10 {
            if seen.connection {
                headers.remove(header::CONNECTION);
            }
            lines[1] = b"connection: keep-alive\r\n";
        }
    }
    let head = encode_head(status, headers, added_length, lines, seen.date);
    if let Some(logged) = body.logged_mut() {
        let body_read = splice_into.map_or(0, |shared| shared.lock().body_read);
        logged.note_sent_head(head.len(), Some(body_read));
    }
    // The view is done with: its index and lines' buffer go back to this thread's spares.
    drop(parts);
    // The waiting part: an `async` block's captures, moved in once (an `async fn`'s arguments
    // take their room twice).
    async move {
        if framing == Framing::None {
            write_all(io, &[&head]).await?;
            flush(io).await?;
            return Ok(Written { keep_alive });
        }
        if let (Some(shared), Framing::Length(length)) = (splice_into, framing) {
            if let Some(source) = body.splice_source() {
                if super::splice::applies(shared, source.upstream, length) {
                    let mut uncounted = 0;
                    let counted = source.counted.unwrap_or(&mut uncounted);
                    // In a box of its own (a thread's spare block, no allocation once it has
                    // one): a body of `SPLICE_MIN` or more is not what this future is sized for,
                    // and inline its 288 bytes were laid after the loop's locals below.
                    spares::SpareBox::with(|| {
                        super::splice::send(shared, &head, source.upstream, counted)
                    })
                    .await?;
                    return Ok(Written { keep_alive });
                }
            }
        }
        // The first data, if it is ready now, goes out with the head. What is held between
        // polls is the data alone (`poll_data`), not the body's frame (a trailers' map: 96 bytes
        // each time it was a local, and the layout kept room for each).
        let mut next = poll_fn(|context| match poll_data(&mut body, context) {
            Poll::Ready(data) => Poll::Ready(Some(data)),
            Poll::Pending => Poll::Ready(None),
        })
        .await;
        let mut pending_head = Some(head);
        let mut sent: u64 = 0;
        let mut overflow = false;
        loop {
            let data = match next.take() {
                Some(data) => data,
                None => {
                    if let Some(head) = pending_head.take() {
                        write_all(io, &[&head]).await?;
                        flush(io).await?;
                    }
                    poll_fn(|context| poll_data(&mut body, context)).await
                }
            };
            let data = match data {
                None => break,
                Some(Err(error)) => {
                    tracing::debug!(%error, "response body failed mid-way: closing the connection");
                    if let Some(head) = pending_head.take() {
                        // Nothing was sent yet: the head at least, so the client sees the
                        // connection end in the body.
                        let _ = write_all(io, &[&head]).await;
                    }
                    return Err(io::Error::other(error));
                }
                Some(Ok(data)) => data,
            };
            if data.is_empty() {
                continue;
            }
            let head = pending_head.take();
            let head: &[u8] = head.as_deref().unwrap_or_default();
            match framing {
                Framing::Length(length) => {
                    let room = length - sent;
                    if data.len() as u64 > room {
                        // More than announced: what fits goes out, and the connection ends after.
                        let fits = data.slice(..usize::try_from(room).unwrap_or(usize::MAX));
                        write_all(io, &[head, &fits]).await?;
                        sent = length;
                        overflow = true;
                        break;
                    }
                    sent += data.len() as u64;
                    write_all(io, &[head, &data]).await?;
                }
                Framing::Chunked => {
                    let size = format!("{:x}\r\n", data.len());
                    write_all(io, &[head, size.as_bytes(), &data, b"\r\n"]).await?;
                }
                Framing::Close => write_all(io, &[head, &data]).await?,
                Framing::None => unreachable!("returned above"),
            }
        }
        let head = pending_head.take();
        let head: &[u8] = head.as_deref().unwrap_or_default();
        match framing {
            Framing::Chunked => write_all(io, &[head, b"0\r\n\r\n"]).await?,
            Framing::Length(length) if sent < length => {
                write_all(io, &[head]).await?;
                return Err(io::Error::new(
                    io::ErrorKind::UnexpectedEof,
                    "response body shorter than its Content-Length",
                ));
            }
            _ => write_all(io, &[head]).await?,
        }
        flush(io).await?;
        Ok(Written {
            keep_alive: keep_alive && !overflow,
        })
    }
}

/// The body's next data, its trailers skipped (HTTP/1 answers here carry none).
fn poll_data(
    body: &mut Body,
    context: &mut std::task::Context<'_>,
) -> Poll<Option<Result<bytes::Bytes, crate::error::BoxError>>> {
    loop {
        match Pin::new(&mut *body).poll_frame(context) {
            Poll::Pending => return Poll::Pending,
            Poll::Ready(None) => return Poll::Ready(None),
            Poll::Ready(Some(Err(error))) => return Poll::Ready(Some(Err(error))),
            Poll::Ready(Some(Ok(frame))) => {
                if let Ok(data) = frame.into_data() {
                    return Poll::Ready(Some(Ok(data)));
                }
            }
        }
    }
}

async fn flush<W: AsyncWrite + Unpin>(io: &mut W) -> io::Result<()> {
    poll_fn(|context| Pin::new(&mut *io).poll_flush(context)).await
}

/// What the writer reads of a response's fields, found in one pass over them instead of a
/// look-up by name each (each look-up scans the fields).
#[derive(Debug, Default)]
struct Seen {
    /// A `Content-Length` is there; `declared` is the first one's number, when it reads as one.
    length: bool,
    declared: Option<u64>,
    transfer_encoding: bool,
    connection: bool,
    /// A `Connection` says `close`.
    close: bool,
    date: bool,
}

impl Seen {
    fn of(headers: &Headers) -> Seen {
        let mut seen = Seen::default();
        for (name, value) in headers.iter() {
            let is = |known: &[u8]| header_list::is(name, known);
            match name.len() {
                4 if is(b"date") => seen.date = true,
                10 if is(b"connection") => {
                    seen.connection = true;
                    seen.close |= header_list::has_item(value, b"close");
                }
                14 if is(b"content-length") => {
                    if !seen.length {
                        // As `str::parse::<u64>` reads it (a `+` allowed), from the bytes.
                        seen.declared =
                            header_list::decimal(value.strip_prefix(b"+").unwrap_or(value));
                    }
                    seen.length = true;
                }
                17 if is(b"transfer-encoding") => seen.transfer_encoding = true,
                _ => {}
            }
        }
        seen
    }
}

/// The status line and the view's fields (the upstream's kept lines as slices of its head, then
/// weir's lines: [`Headers::write_into`]), with `Content-Length: length` when given, weir's own
/// `lines` (each whole, with its CRLF, or empty) and `Date` when the fields have none (`dated`),
/// in a buffer of the thread's [`HeadBuffer`]s.
fn encode_head(
    status: StatusCode,
    headers: &Headers,
    length: Option<u64>,
    lines: [&[u8]; 3],
    dated: bool,
) -> HeadBuffer {
    let mut buffer = HeadBuffer::take();
    let head = buffer.as_mut_vec();
    match common_status_line(status) {
        Some(line) => head.extend_from_slice(line),
        None => {
            head.extend_from_slice(b"HTTP/1.1 ");
            head.extend_from_slice(status.as_str().as_bytes());
            head.push(b' ');
            head.extend_from_slice(status.canonical_reason().unwrap_or("Unknown").as_bytes());
            head.extend_from_slice(b"\r\n");
        }
    }
    headers.write_into(head);
    for line in lines {
        head.extend_from_slice(line);
    }
    if let Some(length) = length {
        head.extend_from_slice(b"content-length: ");
        head.extend_from_slice(itoa::Buffer::new().format(length).as_bytes());
        head.extend_from_slice(b"\r\n");
    }
    if !dated {
        // `try_with` (`#[inline]`, where `with` is not, and was left out of line by some
        // builds); a thread that is ending has no cached date, and writes none.
        let _ = DATE.try_with(|date| {
            head.extend_from_slice(b"date: ");
            head.extend_from_slice(date.borrow_mut().now());
            head.extend_from_slice(b"\r\n");
        });
    }
    head.extend_from_slice(b"\r\n");
    buffer
}

/// The status line of the statuses weir writes most, whole: one copy, where the line made of
/// its pieces (the version, the code, the reason looked up, the CRLF) was five (callgrind: some 50
/// instructions a response). The same bytes as the pieces make (a unit test compares them).
fn common_status_line(status: StatusCode) -> Option<&'static [u8]> {
    Some(match status.as_u16() {
        200 => b"HTTP/1.1 200 OK\r\n",
        204 => b"HTTP/1.1 204 No Content\r\n",
        206 => b"HTTP/1.1 206 Partial Content\r\n",
        301 => b"HTTP/1.1 301 Moved Permanently\r\n",
        302 => b"HTTP/1.1 302 Found\r\n",
        304 => b"HTTP/1.1 304 Not Modified\r\n",
        400 => b"HTTP/1.1 400 Bad Request\r\n",
        403 => b"HTTP/1.1 403 Forbidden\r\n",
        404 => b"HTTP/1.1 404 Not Found\r\n",
        429 => b"HTTP/1.1 429 Too Many Requests\r\n",
        500 => b"HTTP/1.1 500 Internal Server Error\r\n",
        502 => b"HTTP/1.1 502 Bad Gateway\r\n",
        503 => b"HTTP/1.1 503 Service Unavailable\r\n",
        504 => b"HTTP/1.1 504 Gateway Timeout\r\n",
        _ => return None,
    })
}

/// The length of an IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), the only form weir writes.
const DATE_LENGTH: usize = 29;

/// The `Date` value, formatted once per second per thread, in place: no allocation.
struct CachedDate {
    second: u64,
    text: [u8; DATE_LENGTH],
    length: usize,
}

impl CachedDate {
    fn now(&mut self) -> &[u8] {
        use std::io::Write as _;
        let now = SystemTime::now();
        let second = now
            .duration_since(SystemTime::UNIX_EPOCH)
            .map_or(0, |since| since.as_secs());
        if second != self.second || self.length == 0 {
            self.second = second;
            let mut cursor = std::io::Cursor::new(&mut self.text[..]);
            // An IMF-fixdate is always 29 bytes (years 1970 to 9999), so the write fits.
            let _ = write!(cursor, "{}", httpdate::HttpDate::from(now));
            self.length = usize::try_from(cursor.position()).unwrap_or(0);
        }
        &self.text[..self.length]
    }
}

thread_local! {
    static DATE: RefCell<CachedDate> = const {
        RefCell::new(CachedDate { second: 0, text: [0; DATE_LENGTH], length: 0 })
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The cached `Date` is the IMF-fixdate of now, as `httpdate` formats it.
    #[test]
    fn the_cached_date_is_now_as_an_http_date() {
        let before = SystemTime::now();
        let text = DATE.with(|date| date.borrow_mut().now().to_vec());
        let text = String::from_utf8(text).expect("ASCII");
        assert_eq!(text.len(), DATE_LENGTH, "{text}");
        assert!(text.ends_with(" GMT"), "{text}");
        let parsed = httpdate::parse_http_date(&text).expect("an HTTP date");
        let early = before - std::time::Duration::from_secs(1);
        let late = SystemTime::now() + std::time::Duration::from_secs(1);
        assert!(parsed >= early && parsed <= late, "{text}");
        assert_eq!(httpdate::fmt_http_date(parsed), text);
    }

    /// A whole status line is the line its pieces make, for every status that has one.
    #[test]
    fn the_common_status_lines_are_those_of_their_pieces() {
        let mut common = 0;
        for code in 100..=999 {
            let status = StatusCode::from_u16(code).expect("a status");
            if let Some(line) = common_status_line(status) {
                let pieces = format!(
                    "HTTP/1.1 {} {}\r\n",
                    status.as_str(),
                    status.canonical_reason().unwrap_or("Unknown")
                );
                assert_eq!(line, pieces.as_bytes(), "{code}");
                common += 1;
            }
        }
        assert_eq!(common, 14);
    }
}
