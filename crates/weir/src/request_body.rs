//! The request body on its way to the upstream: [`ClientBody`] is the client's, as the HTTP
//! layer hands it over (weir's HTTP/1 codec, or hyper's HTTP/2 stream); [`RequestBody`] is what
//! goes upstream (streamed with its size limit and time-out, whole, or read back from a spool
//! file). Every way such a body can fail is one [`BodyError`] (error.rs's, which the codec's
//! body reader yields too), which becomes a `ProxyError` by `From`: no downcast.

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use bytes::Bytes;
use http_body::{Frame, SizeHint};
use hyper::body::Incoming;
use tokio::io::{AsyncRead, ReadBuf};
use tokio::time::Sleep;

use crate::error::BodyError;

/// The client's request body as the HTTP layer hands it over.
pub enum ClientBody {
    /// No body.
    Empty,
    /// Read off an HTTP/1 connection by weir's own codec.
    H1(crate::h1::BodyReader),
    /// A body hyper reads (an HTTP/2 stream).
    Hyper(Incoming),
}

impl http_body::Body for ClientBody {
    type Data = Bytes;
    type Error = BodyError;

    fn poll_frame(
        self: Pin<&mut Self>,
        context: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, BodyError>>> {
        match self.get_mut() {
            ClientBody::Empty => Poll::Ready(None),
            ClientBody::H1(body) => Pin::new(body).poll_frame(context),
            // A stream reset or a connection lost: the client went away.
            ClientBody::Hyper(body) => Pin::new(body)
                .poll_frame(context)
                .map_err(|_error| BodyError::Gone),
        }
    }

    fn is_end_stream(&self) -> bool {
        match self {
            ClientBody::Empty => true,
            ClientBody::H1(body) => body.is_end_stream(),
            ClientBody::Hyper(body) => body.is_end_stream(),
        }
    }

    fn size_hint(&self) -> SizeHint {
        match self {
            ClientBody::Empty => SizeHint::with_exact(0),
            ClientBody::H1(body) => body.size_hint(),
            ClientBody::Hyper(body) => body.size_hint(),
        }
    }
}

/// No body: what `std::mem::take` leaves of a request whose body went on (a request taken out
/// of its place this way leaves a bodiless one without headers, which allocates nothing).
impl Default for ClientBody {
    fn default() -> ClientBody {
        ClientBody::Empty
    }
}

/// The request body towards the upstream.
pub enum RequestBody {
    /// No body, or a whole one (a retried request, a buffered one).
    Full(Option<Bytes>),
    /// A buffered body too large for memory, read back from its spool file.
    Spooled(Box<Spooled>),
    /// The client's body, streamed. Boxed: a request with a body is the rarer one, and this
    /// enum's size is every request's (a bodiless one's included), which is moved whole through
    /// the phases to the upstream client; at 88 bytes it made the request 304 bytes, and each of
    /// its dozen moves per proxied request a copy of more than 256 bytes, which `memcpy` does in
    /// a loop (callgrind: 64 instructions a move, where 256 bytes or less take 29).
    Downstream(Box<Downstream>),
}

/// The client's body, streamed, cut off with [`BodyError::TooLarge`] past `limit` bytes and
/// with [`BodyError::Timeout`] when no bytes come for `timeout`.
pub struct Downstream {
    incoming: ClientBody,
    limit: u64,
    received: u64,
    timeout: Duration,
    /// Armed while a read waits; `None` until the first wait.
    deadline: Option<Pin<Box<Sleep>>>,
}

/// No body: what `std::mem::take` leaves of a request taken out of its place, as
/// [`ClientBody`]'s default.
impl Default for RequestBody {
    fn default() -> RequestBody {
        RequestBody::Full(None)
    }
}

impl RequestBody {
    /// The client's body with a size limit; `limit == 0` means none.
    /// `timeout` is the longest wait between two reads (`body_timeout`).
    pub fn downstream(incoming: ClientBody, limit: u64, timeout: Duration) -> RequestBody {
        RequestBody::Downstream(Box::new(Downstream {
            incoming,
            limit: if limit == 0 { u64::MAX } else { limit },
            received: 0,
            timeout,
            deadline: None,
        }))
    }
}

impl http_body::Body for RequestBody {
    type Data = Bytes;
    type Error = BodyError;

    fn poll_frame(
        self: Pin<&mut Self>,
        context: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, BodyError>>> {
        match self.get_mut() {
            RequestBody::Full(bytes) => {
                Poll::Ready(bytes.take().map(|bytes| Ok(Frame::data(bytes))))
            }
            RequestBody::Spooled(spooled) => Pin::new(spooled.as_mut()).poll_frame(context),
            RequestBody::Downstream(downstream) => {
                let Downstream {
                    incoming,
                    limit,
                    received,
                    timeout,
                    deadline,
                } = downstream.as_mut();
                match Pin::new(incoming).poll_frame(context) {
                    Poll::Pending => {
                        let sleep =
                            deadline.get_or_insert_with(|| Box::pin(tokio::time::sleep(*timeout)));
                        match sleep.as_mut().poll(context) {
                            Poll::Ready(()) => Poll::Ready(Some(Err(BodyError::Timeout))),
                            Poll::Pending => Poll::Pending,
                        }
                    }
                    Poll::Ready(Some(Ok(frame))) => {
                        // Progress: the next wait gets a whole `timeout` again.
                        *deadline = None;
                        if let Some(data) = frame.data_ref() {
                            *received += data.len() as u64;
                            if *received > *limit {
                                return Poll::Ready(Some(Err(BodyError::TooLarge {
                                    limit: *limit,
                                })));
                            }
                        }
                        Poll::Ready(Some(Ok(frame)))
                    }
                    Poll::Ready(Some(Err(error))) => Poll::Ready(Some(Err(error))),
                    Poll::Ready(None) => Poll::Ready(None),
                }
            }
        }
    }

    fn is_end_stream(&self) -> bool {
        match self {
            RequestBody::Full(bytes) => bytes.is_none(),
            RequestBody::Spooled(spooled) => spooled.is_end_stream(),
            RequestBody::Downstream(downstream) => downstream.incoming.is_end_stream(),
        }
    }

    fn size_hint(&self) -> SizeHint {
        match self {
            RequestBody::Full(bytes) => {
                SizeHint::with_exact(bytes.as_ref().map_or(0, |b| b.len() as u64))
            }
            RequestBody::Spooled(spooled) => spooled.size_hint(),
            RequestBody::Downstream(downstream) => downstream.incoming.size_hint(),
        }
    }
}

/// A request body read back from its spool file (request buffering spills a large body there).
pub struct Spooled {
    file: tokio::fs::File,
    remaining: u64,
    /// Keeps the body's bytes counted against the spool's cap until the file is closed: the
    /// buffering layer's reservation, which this layer need not know.
    _held: Box<dyn Send + Sync>,
}

impl Spooled {
    /// The body of `length` bytes in `file`, read from its start; `held` is dropped with it.
    pub fn new(file: tokio::fs::File, length: u64, held: Box<dyn Send + Sync>) -> Spooled {
        Spooled {
            file,
            remaining: length,
            _held: held,
        }
    }
}

impl http_body::Body for Spooled {
    type Data = Bytes;
    type Error = BodyError;

    fn poll_frame(
        self: Pin<&mut Self>,
        context: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, BodyError>>> {
        let this = self.get_mut();
        if this.remaining == 0 {
            return Poll::Ready(None);
        }
        let mut buffer = vec![0u8; (this.remaining.min(64 * 1024)) as usize];
        let mut read_buf = ReadBuf::new(&mut buffer);
        match Pin::new(&mut this.file).poll_read(context, &mut read_buf) {
            Poll::Ready(Ok(())) => {
                let filled = read_buf.filled().len();
                if filled == 0 {
                    return Poll::Ready(Some(Err(BodyError::Spool(io::Error::new(
                        io::ErrorKind::UnexpectedEof,
                        "request body spool file ended early",
                    )))));
                }
                this.remaining -= filled as u64;
                buffer.truncate(filled);
                Poll::Ready(Some(Ok(Frame::data(Bytes::from(buffer)))))
            }
            Poll::Ready(Err(error)) => Poll::Ready(Some(Err(BodyError::Spool(error)))),
            Poll::Pending => Poll::Pending,
        }
    }

    fn is_end_stream(&self) -> bool {
        self.remaining == 0
    }

    fn size_hint(&self) -> SizeHint {
        SizeHint::with_exact(self.remaining)
    }
}
