//! Writing a response: the head is encoded once into one buffer and goes out with the first
//! body bytes in a single vectored write; the body follows frame by frame, framed by its
//! `Content-Length` or chunked (HTTP/1.1) or by closing the connection (HTTP/1.0).

use std::cell::RefCell;
use std::future::poll_fn;
use std::io;
use std::pin::Pin;
use std::task::Poll;
use std::time::SystemTime;

use bytes::Bytes;
use http::header::{self, HeaderValue};
use http::{Response, StatusCode, Version};
use http_body::Body as _;
use tokio::io::AsyncWrite;

use super::io::write_all;
use crate::body::Body;

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
pub async fn write_response<W: AsyncWrite + Unpin>(
    io: &mut W,
    response: Response<Body>,
    request: RequestFacts,
    splice_into: Option<&std::sync::Arc<super::io::Shared>>,
) -> io::Result<Written> {
    let (mut parts, mut body) = response.into_parts();
    let status = parts.status;
    let bodiless = request.head
        || status.is_informational()
        || status == StatusCode::NO_CONTENT
        || status == StatusCode::NOT_MODIFIED;
    if status.is_informational() || status == StatusCode::NO_CONTENT {
        parts.headers.remove(header::CONTENT_LENGTH);
    }
    parts.headers.remove(header::TRANSFER_ENCODING);
    let declared = parts
        .headers
        .get(header::CONTENT_LENGTH)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.parse::<u64>().ok());
    let framing = if bodiless {
        Framing::None
    } else if let Some(length) = declared {
        Framing::Length(length)
    } else if let Some(length) = body.size_hint().exact() {
        parts
            .headers
            .insert(header::CONTENT_LENGTH, HeaderValue::from(length));
        Framing::Length(length)
    } else if request.version == Version::HTTP_11 {
        parts.headers.insert(
            header::TRANSFER_ENCODING,
            HeaderValue::from_static("chunked"),
        );
        Framing::Chunked
    } else {
        Framing::Close
    };
    let switching = status == StatusCode::SWITCHING_PROTOCOLS;
    let close_asked = parts
        .headers
        .get_all(header::CONNECTION)
        .iter()
        .any(|value| has_token(value.as_bytes(), b"close"));
    let keep_alive = request.keep_alive && !close_asked && framing != Framing::Close;
    if !switching {
        if !keep_alive {
            if !close_asked {
                parts
                    .headers
                    .insert(header::CONNECTION, HeaderValue::from_static("close"));
            }
        } else if request.version == Version::HTTP_10 {
            parts
                .headers
                .insert(header::CONNECTION, HeaderValue::from_static("keep-alive"));
        }
    }
    let head = encode_head(status, &parts.headers);

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
                super::splice::send(shared, &head, source.upstream, counted).await?;
                return Ok(Written { keep_alive });
            }
        }
    }
    // The first frame, if it is ready now, goes out with the head.
    let first = poll_fn(|context| match Pin::new(&mut body).poll_frame(context) {
        Poll::Ready(frame) => Poll::Ready(Some(frame)),
        Poll::Pending => Poll::Ready(None),
    })
    .await;
    let mut pending_head = Some(head);
    let mut sent: u64 = 0;
    let mut overflow = false;
    let mut next = first;
    loop {
        let frame = match next.take() {
            Some(frame) => frame,
            None => {
                if let Some(head) = pending_head.take() {
                    write_all(io, &[&head]).await?;
                    flush(io).await?;
                }
                poll_fn(|context| Pin::new(&mut body).poll_frame(context)).await
            }
        };
        let data = match frame {
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
            Some(Ok(frame)) => match frame.into_data() {
                Ok(data) => data,
                Err(_trailers) => continue,
            },
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

async fn flush<W: AsyncWrite + Unpin>(io: &mut W) -> io::Result<()> {
    poll_fn(|context| Pin::new(&mut *io).poll_flush(context)).await
}

/// The status line and headers, with `Date` added when absent.
fn encode_head(status: StatusCode, headers: &http::HeaderMap) -> Vec<u8> {
    let mut size = 64;
    for (name, value) in headers {
        size += name.as_str().len() + value.len() + 4;
    }
    let mut head = Vec::with_capacity(size + 40);
    head.extend_from_slice(b"HTTP/1.1 ");
    head.extend_from_slice(status.as_str().as_bytes());
    head.push(b' ');
    head.extend_from_slice(status.canonical_reason().unwrap_or("Unknown").as_bytes());
    head.extend_from_slice(b"\r\n");
    for (name, value) in headers {
        head.extend_from_slice(name.as_str().as_bytes());
        head.extend_from_slice(b": ");
        head.extend_from_slice(value.as_bytes());
        head.extend_from_slice(b"\r\n");
    }
    if !headers.contains_key(header::DATE) {
        head.extend_from_slice(b"date: ");
        DATE.with(|date| head.extend_from_slice(date.borrow_mut().now()));
        head.extend_from_slice(b"\r\n");
    }
    head.extend_from_slice(b"\r\n");
    head
}

/// Whether a comma-separated header value holds `token` (case-insensitive).
pub fn has_token(value: &[u8], token: &[u8]) -> bool {
    value
        .split(|byte| *byte == b',')
        .any(|part| part.trim_ascii().eq_ignore_ascii_case(token))
}

/// The `Date` value, formatted once per second per thread.
struct CachedDate {
    second: u64,
    text: Bytes,
}

impl CachedDate {
    fn now(&mut self) -> &[u8] {
        let now = SystemTime::now();
        let second = now
            .duration_since(SystemTime::UNIX_EPOCH)
            .map_or(0, |since| since.as_secs());
        if second != self.second || self.text.is_empty() {
            self.second = second;
            self.text = Bytes::from(httpdate::fmt_http_date(now));
        }
        &self.text
    }
}

thread_local! {
    static DATE: RefCell<CachedDate> = const {
        RefCell::new(CachedDate { second: 0, text: Bytes::new() })
    };
}
