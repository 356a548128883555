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
    /// The time-out of the write that waits.
    stall: Stall,
}

/// The time-out of a wait that comes again and again (a write that cannot go on, a body that
/// does not move): its timer is made, boxed, the first time a wait has to wait, and moved for
/// each later wait, so a connection that never waits pays for nothing but this struct.
#[derive(Default)]
pub struct Stall {
    sleep: Option<Pin<Box<Sleep>>>,
    /// Whether `sleep` belongs to the wait going on now.
    armed: bool,
}

impl Stall {
    /// Progress was made: the next wait has its time-out from its own start.
    pub fn disarm(&mut self) {
        self.armed = false;
    }

    /// Ready once the wait going on (counted from the first call since [`Stall::disarm`]) has
    /// lasted `timeout`.
    pub fn poll(&mut self, context: &mut Context<'_>, timeout: Duration) -> Poll<()> {
        if !self.armed {
            let deadline = Instant::now() + timeout;
            match &mut self.sleep {
                Some(sleep) => sleep.as_mut().reset(deadline),
                None => self.sleep = Some(Box::pin(tokio::time::sleep_until(deadline))),
            }
            self.armed = true;
        }
        match &mut self.sleep {
            Some(sleep) => sleep.as_mut().poll(context),
            None => Poll::Pending,
        }
    }
}

impl<T> WriteTimeout<T> {
    pub fn new(io: T, timeout: Duration, message: &'static str) -> WriteTimeout<T> {
        WriteTimeout {
            io,
            timeout,
            message,
            stall: Stall::default(),
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
                self.stall.disarm();
                Poll::Ready(result)
            }
            Poll::Pending => match self.stall.poll(context, self.timeout) {
                Poll::Ready(()) => {
                    Poll::Ready(Err(io::Error::new(io::ErrorKind::TimedOut, self.message)))
                }
                Poll::Pending => Poll::Pending,
            },
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
