//! A response body passed through untouched, moved from the upstream socket to a plain-TCP
//! client with `splice(2)` through a pipe: the bytes never enter user space. It applies to a
//! body framed by its `Content-Length` that nothing transforms (no compression, no read-ahead,
//! no TLS), after the bytes already read with the head are written; the access log's byte
//! count is kept here.

use std::future::poll_fn;
use std::io;
use std::os::fd::OwnedFd;
use std::sync::Arc;
use std::task::{Context, Poll};

use super::io::{write_all, Shared, SharedStream};
use crate::upstream::UpstreamBody;

/// The most bytes one `splice` moves, and the most the pipe is asked to hold (a pipe holds
/// 64 KiB by default).
const PIPE_BYTES: usize = 64 * 1024;

/// Bytes that must be left to read past those read with the head for `splice` to be worth its
/// system calls: smaller bodies are copied.
const SPLICE_MIN: u64 = 16 * 1024;

thread_local! {
    /// One idle, empty pipe per thread, so a response does not make and close one.
    static PIPE: std::cell::RefCell<Option<(OwnedFd, OwnedFd)>> = const {
        std::cell::RefCell::new(None)
    };
}

/// Whether `body` can go by `splice` to the client of `shared`: a plain-TCP client and a body
/// of `length` bytes framed by its `Content-Length`, all still to come, and at least
/// [`SPLICE_MIN`] of it not read yet.
pub fn applies(shared: &Shared, body: &mut UpstreamBody, length: u64) -> bool {
    let plain = shared.lock().io.plain_tcp().is_some();
    plain
        && matches!(body.splice_source(), Some((conn, left))
            if left == length && left.saturating_sub(conn.buffered() as u64) >= SPLICE_MIN)
}

/// Writes `head` and the body bytes already read, then moves the rest of the body with
/// `splice`, adding the body bytes the client took to `sent` (the access log's count), whatever
/// the outcome. An error leaves the connection unusable; the upstream connection then closes
/// with `body` (it goes back to its pool only after the whole body).
pub async fn send(
    shared: &Arc<Shared>,
    head: &[u8],
    body: &mut UpstreamBody,
    sent: &mut u64,
) -> io::Result<()> {
    let read_timeout = body.read_timeout();
    let Some((conn, left)) = body.splice_source() else {
        return Err(io::Error::other("the body cannot be spliced"));
    };
    // The rest bypasses the read buffer: its memory goes back now, not after the body.
    let buffered = conn.take_buffered(usize::try_from(left).unwrap_or(usize::MAX));
    let mut left = left - buffered.len() as u64;
    write_all(&mut SharedStream(Arc::clone(shared)), &[head, &buffered]).await?;
    *sent += buffered.len() as u64;
    drop(buffered);
    if left > 0 {
        let idle = PIPE.with(|pipe| pipe.borrow_mut().take());
        let (pipe_out, pipe_in) = match idle {
            Some(pipe) => pipe,
            None => rustix::pipe::pipe_with(
                rustix::pipe::PipeFlags::CLOEXEC | rustix::pipe::PipeFlags::NONBLOCK,
            )?,
        };
        let mut mover = Mover {
            pipe_in,
            pipe_out,
            in_pipe: 0,
            read_timeout,
            stall: crate::write_timeout::Stall::default(),
            sent: 0,
        };
        let moved = poll_fn(|context| mover.poll(context, shared, &mut *conn, &mut left)).await;
        *sent += mover.sent;
        moved?;
        // Empty again (an error above drops the pipe with whatever it holds): the next response
        // on this thread takes it.
        PIPE.with(|pipe| {
            let mut pipe = pipe.borrow_mut();
            if pipe.is_none() {
                *pipe = Some((mover.pipe_out, mover.pipe_in));
            }
        });
    }
    body.spliced_whole();
    Ok(())
}

/// The pipe between the sockets and how much it holds.
struct Mover {
    /// The pipe's write end (the upstream's bytes go in) and its read end.
    pipe_in: OwnedFd,
    pipe_out: OwnedFd,
    in_pipe: usize,
    read_timeout: std::time::Duration,
    /// Runs while no side moves: `read_timeout` waiting on the upstream with an empty pipe, the
    /// client's `send_timeout` waiting on the client.
    stall: crate::write_timeout::Stall,
    /// Bytes the client took.
    sent: u64,
}

/// Times in a row an empty pipe may refuse bytes the upstream socket holds (each a race with
/// bytes arriving between the `splice` and the check) before the response ends.
const EMPTY_PIPE_REFUSALS: usize = 8;

/// Moves one poll makes before it lets the thread's other tasks run (1 MiB).
const MOVES_PER_POLL: usize = 32;

impl Mover {
    fn poll(
        &mut self,
        context: &mut Context<'_>,
        shared: &Shared,
        conn: &mut crate::upstream::client::ClientConn,
        left: &mut u64,
    ) -> Poll<io::Result<()>> {
        let mut moves = 0;
        loop {
            let mut moved = false;
            if *left > 0 && self.in_pipe < PIPE_BYTES {
                let stream = conn.stream();
                let want = usize::try_from(*left)
                    .unwrap_or(usize::MAX)
                    .min(PIPE_BYTES - self.in_pipe);
                let mut refused = 0;
                loop {
                    match stream.poll_read_ready(context) {
                        Poll::Ready(Ok(())) => {}
                        Poll::Ready(Err(error)) => return Poll::Ready(Err(error)),
                        Poll::Pending => break,
                    }
                    match stream.try_splice_to(std::os::fd::AsFd::as_fd(&self.pipe_in), want) {
                        Ok(Some(0)) => {
                            return Poll::Ready(Err(io::Error::new(
                                io::ErrorKind::UnexpectedEof,
                                "the upstream closed the connection before the end of the body",
                            )))
                        }
                        Ok(Some(count)) => {
                            *left -= count as u64;
                            self.in_pipe += count;
                            moved = true;
                            break;
                        }
                        // The pipe is full by its slots, below `PIPE_BYTES`: the client's side
                        // drains it, and the socket, still ready, is read again after.
                        Ok(None) if self.in_pipe > 0 => break,
                        // An empty pipe refused bytes: they came between the splice and the
                        // check, so the splice is tried again; bytes that an empty pipe keeps
                        // refusing would spin, so the response ends instead.
                        Ok(None) => {
                            refused += 1;
                            if refused > EMPTY_PIPE_REFUSALS {
                                return Poll::Ready(Err(io::Error::other(
                                    "splice keeps refusing the upstream's bytes into an empty pipe",
                                )));
                            }
                        }
                        Err(error) if error.kind() == io::ErrorKind::WouldBlock => continue,
                        Err(error) => return Poll::Ready(Err(error)),
                    }
                }
            }
            let mut send_timeout = None;
            if self.in_pipe > 0 {
                let inner = shared.lock();
                let Some((client, timeout)) = inner.io.plain_tcp() else {
                    return Poll::Ready(Err(io::Error::other("the client is no longer plain TCP")));
                };
                send_timeout = Some(timeout);
                loop {
                    match client.poll_write_ready(context) {
                        Poll::Ready(Ok(())) => {}
                        Poll::Ready(Err(error)) => return Poll::Ready(Err(error)),
                        Poll::Pending => break,
                    }
                    let flags =
                        rustix::pipe::SpliceFlags::MOVE | rustix::pipe::SpliceFlags::NONBLOCK;
                    let in_pipe = self.in_pipe;
                    let pipe_out = &self.pipe_out;
                    match client.try_io(tokio::io::Interest::WRITABLE, || {
                        rustix::pipe::splice(pipe_out, None, client, None, in_pipe, flags)
                            .map_err(Into::into)
                    }) {
                        Ok(count) => {
                            crate::metrics::add_spliced(count as u64);
                            self.sent += count as u64;
                            self.in_pipe -= count;
                            moved = true;
                            break;
                        }
                        Err(error) if error.kind() == io::ErrorKind::WouldBlock => continue,
                        Err(error) => return Poll::Ready(Err(error)),
                    }
                }
            }
            if *left == 0 && self.in_pipe == 0 {
                return Poll::Ready(Ok(()));
            }
            if moved {
                self.stall.disarm();
                moves += 1;
                if moves == MOVES_PER_POLL {
                    context.waker().wake_by_ref();
                    return Poll::Pending;
                }
                continue;
            }
            // Neither side can move: wait, within the time-out of the side waited on.
            let timeout = send_timeout.unwrap_or(self.read_timeout);
            return match self.stall.poll(context, timeout) {
                Poll::Ready(()) => Poll::Ready(Err(io::Error::new(
                    io::ErrorKind::TimedOut,
                    if send_timeout.is_some() {
                        "the client did not take the response within send_timeout"
                    } else {
                        "upstream sent nothing for read_timeout"
                    },
                ))),
                Poll::Pending => Poll::Pending,
            };
        }
    }
}
