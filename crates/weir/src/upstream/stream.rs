//! The byte stream to an upstream server, TCP or Unix, with what the client side asks of the
//! socket beneath it: a look that must find nothing (is an idle connection still good?) and
//! `splice(2)` out of it. Below both the connecting (`connect.rs`) and the HTTP client
//! (`client.rs`), which share it.

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpStream, UnixStream};

/// A byte stream to an upstream: TCP or Unix.
pub enum Stream {
    Tcp(TcpStream),
    Unix(UnixStream),
}

impl Stream {
    /// Waits until the socket may have bytes to read (for `splice`).
    pub fn poll_read_ready(&self, context: &mut Context<'_>) -> Poll<io::Result<()>> {
        match self {
            Stream::Tcp(stream) => stream.poll_read_ready(context),
            Stream::Unix(stream) => stream.poll_read_ready(context),
        }
    }

    /// Moves up to `length` bytes from the socket into `pipe` without copying them through user
    /// space: `Some(count)`, or `None` when the pipe is full while the socket still holds bytes.
    /// `splice` says `EAGAIN` both when the socket is empty and when the pipe has no free slot
    /// (a slot holds a piece of a socket buffer, often less than a page, so a pipe fills by its
    /// slots before its bytes); only an empty socket is `WouldBlock`, which clears the readiness
    /// seen by [`Stream::poll_read_ready`]. Clearing it for a full pipe would wait for an edge
    /// that never comes when the upstream has sent everything already.
    pub fn try_splice_to(
        &self,
        pipe: std::os::fd::BorrowedFd<'_>,
        length: usize,
    ) -> io::Result<Option<usize>> {
        fn splice_once<S: std::os::fd::AsFd>(
            stream: &S,
            pipe: std::os::fd::BorrowedFd<'_>,
            length: usize,
        ) -> io::Result<Option<usize>> {
            let flags = rustix::pipe::SpliceFlags::MOVE | rustix::pipe::SpliceFlags::NONBLOCK;
            match rustix::pipe::splice(stream, None, pipe, None, length, flags) {
                Ok(count) => Ok(Some(count)),
                Err(rustix::io::Errno::AGAIN) => {
                    // FIONREAD (SIOCINQ) is what the socket holds unread: bytes there mean the
                    // pipe refused them.
                    match rustix::io::ioctl_fionread(stream) {
                        Ok(unread) if unread > 0 => Ok(None),
                        _ => Err(io::ErrorKind::WouldBlock.into()),
                    }
                }
                Err(errno) => Err(errno.into()),
            }
        }
        let interest = tokio::io::Interest::READABLE;
        match self {
            Stream::Tcp(stream) => stream.try_io(interest, || splice_once(stream, pipe, length)),
            Stream::Unix(stream) => stream.try_io(interest, || splice_once(stream, pipe, length)),
        }
    }
}

impl Stream {
    /// Whether the server has sent nothing and not closed: a `recv` with `MSG_PEEK` and
    /// `MSG_DONTWAIT` that must find nothing to read. Any other outcome (bytes, end of file, an
    /// error) makes the connection unusable for a next request.
    pub fn is_quiet(&self) -> bool {
        let mut byte = [0u8; 1];
        let flags = rustix::net::RecvFlags::PEEK | rustix::net::RecvFlags::DONTWAIT;
        let peeked = match self {
            Stream::Tcp(stream) => rustix::net::recv(stream, &mut byte, flags),
            Stream::Unix(stream) => rustix::net::recv(stream, &mut byte, flags),
        };
        matches!(peeked, Err(rustix::io::Errno::AGAIN))
    }
}

impl AsyncRead for Stream {
    fn poll_read(
        self: Pin<&mut Self>,
        context: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        match self.get_mut() {
            Stream::Tcp(stream) => Pin::new(stream).poll_read(context, buf),
            Stream::Unix(stream) => Pin::new(stream).poll_read(context, buf),
        }
    }
}

impl AsyncWrite for Stream {
    fn poll_write(
        self: Pin<&mut Self>,
        context: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        match self.get_mut() {
            Stream::Tcp(stream) => Pin::new(stream).poll_write(context, buf),
            Stream::Unix(stream) => Pin::new(stream).poll_write(context, buf),
        }
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        context: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        match self.get_mut() {
            Stream::Tcp(stream) => Pin::new(stream).poll_write_vectored(context, bufs),
            Stream::Unix(stream) => Pin::new(stream).poll_write_vectored(context, bufs),
        }
    }

    fn is_write_vectored(&self) -> bool {
        true
    }

    fn poll_flush(self: Pin<&mut Self>, context: &mut Context<'_>) -> Poll<io::Result<()>> {
        match self.get_mut() {
            Stream::Tcp(stream) => Pin::new(stream).poll_flush(context),
            Stream::Unix(stream) => Pin::new(stream).poll_flush(context),
        }
    }

    fn poll_shutdown(self: Pin<&mut Self>, context: &mut Context<'_>) -> Poll<io::Result<()>> {
        match self.get_mut() {
            Stream::Tcp(stream) => Pin::new(stream).poll_shutdown(context),
            Stream::Unix(stream) => Pin::new(stream).poll_shutdown(context),
        }
    }
}
