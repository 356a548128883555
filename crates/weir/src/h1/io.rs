//! The client connection as its request loop, its request body and its response writer share
//! it: one stream behind a short `std::sync::Mutex` (locked inside a poll, never across an
//! await), with the bytes read past the current message kept as `leftover`.
//!
//! Reads for a request head go into per-thread scratch space ([`read_into_scratch`]): an idle
//! connection owns no read buffer; only bytes left over (a pipelined request, a partial head)
//! are copied out and kept.

use std::cell::RefCell;
use std::future::poll_fn;
use std::io::{self, IoSlice};
use std::pin::Pin;
use std::sync::{Arc, Mutex, MutexGuard};
use std::task::{Context, Poll};

use bytes::BytesMut;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

use super::chunked;

/// What a client connection's transport must do.
pub trait Stream: AsyncRead + AsyncWrite + Send + Unpin + 'static {
    /// The plain TCP socket under the stream and its `send_timeout`, when nothing (TLS) stands
    /// between the bytes written and the socket: a response body may then be `splice`d to it.
    fn plain_tcp(&self) -> Option<(&tokio::net::TcpStream, std::time::Duration)> {
        None
    }

    /// The stream itself when it is a plain TCP connection (to park it), else `None`.
    fn into_plain_tcp(
        self: Box<Self>,
    ) -> Option<crate::write_timeout::WriteTimeout<tokio::net::TcpStream>> {
        None
    }
}

impl Stream for crate::write_timeout::WriteTimeout<tokio::net::TcpStream> {
    fn plain_tcp(&self) -> Option<(&tokio::net::TcpStream, std::time::Duration)> {
        Some((self.get_ref(), self.timeout()))
    }

    fn into_plain_tcp(
        self: Box<Self>,
    ) -> Option<crate::write_timeout::WriteTimeout<tokio::net::TcpStream>> {
        Some(*self)
    }
}

impl<T: AsyncRead + AsyncWrite + Send + Unpin + 'static> Stream
    for tokio_rustls::server::TlsStream<T>
{
}

impl Stream for tokio::io::DuplexStream {}

/// The per-thread read space for request heads: one head read at a time per thread.
const SCRATCH_SIZE: usize = 16 * 1024;

thread_local! {
    static SCRATCH: RefCell<Box<[u8]>> = RefCell::new(vec![0; SCRATCH_SIZE].into_boxed_slice());
}

/// The connection, shared.
pub struct Shared {
    inner: Mutex<Inner>,
}

pub struct Inner {
    pub io: Box<dyn Stream>,
    /// Bytes read and not yet used: the start of the next head, or body bytes.
    pub leftover: BytesMut,
    /// The body being read, if any.
    pub body: BodyState,
    /// Bytes of `100 Continue` still to write before the body is read (0: none due).
    pub continue_due: usize,
    /// The number of the request whose body `body` is (from 1): a body reader of an earlier
    /// request that is still around reads nothing.
    pub request: u64,
    /// The bytes of `request`'s body read so far, chunk framing included (the access log's
    /// `$request_length`).
    pub body_read: u64,
}

/// How far the current request's body is.
#[derive(Debug, Clone)]
pub enum BodyState {
    /// No body, or all of it read.
    Done,
    /// This many bytes to come.
    Length(u64),
    Chunked(chunked::Decoder),
    /// The body broke (malformed, or the client went away): the connection cannot carry another
    /// request.
    Broken,
}

pub const CONTINUE: &[u8] = b"HTTP/1.1 100 Continue\r\n\r\n";

impl Shared {
    /// The connection's state, once nothing else holds it.
    pub fn into_inner(self) -> Inner {
        self.inner
            .into_inner()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    pub fn new(io: Box<dyn Stream>) -> Arc<Shared> {
        Arc::new(Shared {
            inner: Mutex::new(Inner {
                io,
                leftover: BytesMut::new(),
                body: BodyState::Done,
                continue_due: 0,
                request: 0,
                body_read: 0,
            }),
        })
    }

    pub fn lock(&self) -> MutexGuard<'_, Inner> {
        // A panic while locked leaves the connection's state unknown; the guard is still the
        // best there is, and the connection ends soon after.
        self.inner
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

impl Inner {
    /// Writes what is left of a due `100 Continue`.
    pub fn poll_continue(&mut self, context: &mut Context<'_>) -> Poll<io::Result<()>> {
        while self.continue_due > 0 {
            let start = CONTINUE.len() - self.continue_due;
            let written =
                std::task::ready!(Pin::new(&mut self.io).poll_write(context, &CONTINUE[start..]))?;
            if written == 0 {
                return Poll::Ready(Err(io::ErrorKind::WriteZero.into()));
            }
            self.continue_due -= written;
        }
        Poll::Ready(Ok(()))
    }

    /// Drops the leftover buffer when it is empty, so an idle connection holds none.
    pub fn release_buffer(&mut self) {
        if self.leftover.is_empty() && self.leftover.capacity() > 0 {
            self.leftover = BytesMut::new();
        }
    }
}

/// Reads once from `io` into this thread's scratch space and hands the bytes read to `with`
/// (an empty slice at end of stream), all within one poll: nothing is held while waiting.
pub fn read_into_scratch<R>(
    io: &mut dyn Stream,
    context: &mut Context<'_>,
    with: impl FnOnce(&[u8]) -> R,
) -> Poll<io::Result<R>> {
    // `try_with`, which the standard library marks `#[inline]`, where `with` is not: some
    // builds left `with` (and this closure in it) out of line, some 100 instructions more a
    // request (callgrind, `LocalKey::with`).
    let read = SCRATCH.try_with(|scratch| {
        let mut scratch = scratch.borrow_mut();
        let mut buf = ReadBuf::new(&mut scratch[..]);
        std::task::ready!(Pin::new(io).poll_read(context, &mut buf))?;
        Poll::Ready(Ok(with(buf.filled())))
    });
    // The thread is ending (its thread-locals are gone): no read is served then.
    read.unwrap_or_else(|gone| Poll::Ready(Err(io::Error::other(gone))))
}

/// The shared connection as a plain stream, for the tunnel after a `101`: reads give the
/// leftover bytes first.
pub struct SharedStream(pub Arc<Shared>);

impl AsyncRead for SharedStream {
    fn poll_read(
        self: Pin<&mut Self>,
        context: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let mut inner = self.0.lock();
        if !inner.leftover.is_empty() {
            let take = inner.leftover.len().min(buf.remaining());
            let bytes = inner.leftover.split_to(take);
            buf.put_slice(&bytes);
            inner.release_buffer();
            return Poll::Ready(Ok(()));
        }
        Pin::new(&mut inner.io).poll_read(context, buf)
    }
}

impl AsyncWrite for SharedStream {
    fn poll_write(
        self: Pin<&mut Self>,
        context: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.0.lock().io).poll_write(context, buf)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        context: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.0.lock().io).poll_write_vectored(context, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.0.lock().io.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, context: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.0.lock().io).poll_flush(context)
    }

    fn poll_shutdown(self: Pin<&mut Self>, context: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.0.lock().io).poll_shutdown(context)
    }
}

/// Writes every byte of `parts`, in as few vectored writes as the stream takes.
pub async fn write_all<W: AsyncWrite + Unpin>(io: &mut W, parts: &[&[u8]]) -> io::Result<()> {
    let mut index = 0;
    let mut offset = 0;
    while index < parts.len() {
        if parts[index].len() == offset {
            index += 1;
            offset = 0;
            continue;
        }
        let written = poll_fn(|context| {
            let mut slices = [IoSlice::new(&[]); 4];
            let mut count = 0;
            for (position, part) in parts[index..].iter().enumerate().take(slices.len()) {
                let part = if position == 0 { &part[offset..] } else { part };
                if !part.is_empty() {
                    slices[count] = IoSlice::new(part);
                    count += 1;
                }
            }
            Pin::new(&mut *io).poll_write_vectored(context, &slices[..count])
        })
        .await?;
        if written == 0 {
            return Err(io::ErrorKind::WriteZero.into());
        }
        let mut left = written;
        while left > 0 && index < parts.len() {
            let available = parts[index].len() - offset;
            if left >= available {
                left -= available;
                index += 1;
                offset = 0;
            } else {
                offset += left;
                left = 0;
            }
        }
    }
    Ok(())
}
