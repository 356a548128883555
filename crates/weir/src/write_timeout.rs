//! A write time-out on a connection: a write that makes no progress for the time-out fails with
//! `TimedOut`, which ends the connection. Downstream it is `[server] send_timeout` (nginx
//! `send_timeout`: a client that stopped reading); upstream, `send_timeout` of an upstream (nginx
//! `proxy_send_timeout`). The timer exists only once a write has had to wait, so an idle
//! connection pays for nothing but the `Option`.

use std::future::Future;
use std::io::{self, IoSlice};
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::time::{Instant, Sleep};

/// `io` whose writes fail once none has made progress for `timeout`.
pub struct WriteTimeout<T> {
    io: T,
    timeout: Duration,
    /// The error's text, naming the side that stopped taking bytes.
    message: &'static str,
    /// The deadline of the write that waits, boxed so it is made once per connection that ever
    /// waits, and reset after that.
    deadline: Option<Pin<Box<Sleep>>>,
    /// Whether `deadline` belongs to the write that waits now (a write that made progress disarms it).
    armed: bool,
}

impl<T> WriteTimeout<T> {
    pub fn new(io: T, timeout: Duration, message: &'static str) -> WriteTimeout<T> {
        WriteTimeout {
            io,
            timeout,
            message,
            deadline: None,
            armed: false,
        }
    }

    /// The stream inside.
    pub fn get_ref(&self) -> &T {
        &self.io
    }

    /// The time-out.
    pub fn timeout(&self) -> Duration {
        self.timeout
    }

    /// The stream inside, and the time-out.
    pub fn into_parts(self) -> (T, Duration) {
        (self.io, self.timeout)
    }

    /// What a write that returned `polled` means once the deadline is taken into account.
    fn check<R>(
        &mut self,
        context: &mut Context<'_>,
        polled: Poll<io::Result<R>>,
    ) -> Poll<io::Result<R>> {
        match polled {
            Poll::Ready(result) => {
                self.armed = false;
                Poll::Ready(result)
            }
            Poll::Pending => {
                let timeout = self.timeout;
                if !self.armed {
                    let deadline = Instant::now() + timeout;
                    match &mut self.deadline {
                        Some(sleep) => sleep.as_mut().reset(deadline),
                        None => self.deadline = Some(Box::pin(tokio::time::sleep_until(deadline))),
                    }
                    self.armed = true;
                }
                let Some(sleep) = self.deadline.as_mut() else {
                    return Poll::Pending;
                };
                match sleep.as_mut().poll(context) {
                    Poll::Ready(()) => {
                        Poll::Ready(Err(io::Error::new(io::ErrorKind::TimedOut, self.message)))
                    }
                    Poll::Pending => Poll::Pending,
                }
            }
        }
    }
}

impl<T: AsyncRead + Unpin> AsyncRead for WriteTimeout<T> {
    fn poll_read(
        self: Pin<&mut Self>,
        context: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().io).poll_read(context, buf)
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for WriteTimeout<T> {
    fn poll_write(
        self: Pin<&mut Self>,
        context: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let polled = Pin::new(&mut this.io).poll_write(context, buf);
        this.check(context, polled)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        context: &mut Context<'_>,
        bufs: &[IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let polled = Pin::new(&mut this.io).poll_write_vectored(context, bufs);
        this.check(context, polled)
    }

    fn is_write_vectored(&self) -> bool {
        self.io.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, context: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let polled = Pin::new(&mut this.io).poll_flush(context);
        this.check(context, polled)
    }

    fn poll_shutdown(self: Pin<&mut Self>, context: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().io).poll_shutdown(context)
    }
}
