//! A request body read off the client connection, frame by frame, as the upstream takes it:
//! `Content-Length` bytes or chunked, with a `100 Continue` written first when the client asked
//! for one. Data frames are slices of the read buffer.

use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use bytes::{Bytes, BytesMut};
use http_body::{Frame, SizeHint};

use super::chunked::Step;
use super::io::{BodyState, Shared};
use crate::error::BodyError;

/// The least a body read asks the stream for.
const READ_SIZE: usize = 16 * 1024;

/// The body of the request in progress on an HTTP/1 connection.
///
/// 32 bytes, so that a request with this body ([`crate::request_body::ClientBody`]) is no more
/// than 256: the request is moved whole through the phases, and `memcpy` copies more than 256
/// bytes in a loop (callgrind: 52 instructions a move of the 264 it was, 29 for 256).
pub struct BodyReader {
    shared: Arc<Shared>,
    /// The request's number on its connection (from 1); [`BodyReader::DONE`] once the body is
    /// over (no flag beside it: a bool took 8 bytes more).
    request: u64,
    /// `Content-Length`, `None` for a chunked body.
    length: Option<u64>,
}

impl BodyReader {
    /// The request number of a body that is over: requests are numbered from 1.
    const DONE: u64 = 0;

    pub(super) fn new(shared: Arc<Shared>, request: u64, length: Option<u64>) -> BodyReader {
        debug_assert_ne!(request, BodyReader::DONE, "requests are numbered from 1");
        BodyReader {
            shared,
            request,
            length,
        }
    }
}

impl http_body::Body for BodyReader {
    type Data = Bytes;
    type Error = BodyError;

    fn poll_frame(
        self: Pin<&mut Self>,
        context: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, BodyError>>> {
        let this = self.get_mut();
        if this.request == BodyReader::DONE {
            return Poll::Ready(None);
        }
        let mut inner = this.shared.lock();
        if inner.request != this.request {
            // The connection has moved on (or was handed to a tunnel): this body is over.
            this.request = BodyReader::DONE;
            return Poll::Ready(None);
        }
        if let Err(_error) = std::task::ready!(inner.poll_continue(context)) {
            inner.body = BodyState::Broken;
            return Poll::Ready(Some(Err(BodyError::Gone)));
        }
        let inner = &mut *inner;
        loop {
            let wanted = match &mut inner.body {
                BodyState::Done => {
                    this.request = BodyReader::DONE;
                    return Poll::Ready(None);
                }
                BodyState::Broken => return Poll::Ready(Some(Err(BodyError::Gone))),
                BodyState::Length(left) => {
                    if !inner.leftover.is_empty() {
                        let take = usize::try_from(*left)
                            .unwrap_or(usize::MAX)
                            .min(inner.leftover.len());
                        let data = inner.leftover.split_to(take).freeze();
                        *left -= take as u64;
                        inner.body_read += take as u64;
                        if *left == 0 {
                            inner.body = BodyState::Done;
                            this.request = BodyReader::DONE;
                            inner.release_buffer();
                        }
                        return Poll::Ready(Some(Ok(Frame::data(data))));
                    }
                    usize::try_from(*left).unwrap_or(usize::MAX).min(READ_SIZE)
                }
                BodyState::Chunked(decoder) => {
                    match counted(&mut inner.body_read, &mut inner.leftover, |leftover| {
                        decoder.decode(leftover)
                    }) {
                        Ok(Step::Data(data)) => return Poll::Ready(Some(Ok(Frame::data(data)))),
                        Ok(Step::Done) => {
                            inner.body = BodyState::Done;
                            inner.release_buffer();
                            continue;
                        }
                        Ok(Step::More) => READ_SIZE,
                        Err(error) => {
                            inner.body = BodyState::Broken;
                            return Poll::Ready(Some(Err(BodyError::Malformed(error.0))));
                        }
                    }
                }
            };
            inner.leftover.reserve(wanted);
            let read = match std::task::ready!(tokio_util::io::poll_read_buf(
                Pin::new(&mut inner.io),
                context,
                &mut inner.leftover
            )) {
                Ok(read) => read,
                // A read that failed: the client is gone, as for a connection closed.
                Err(_error) => {
                    inner.body = BodyState::Broken;
                    return Poll::Ready(Some(Err(BodyError::Gone)));
                }
            };
            if read == 0 {
                inner.body = BodyState::Broken;
                return Poll::Ready(Some(Err(BodyError::Gone)));
            }
        }
    }

    fn is_end_stream(&self) -> bool {
        self.request == BodyReader::DONE
    }

    fn size_hint(&self) -> SizeHint {
        self.length
            .map_or_else(SizeHint::default, SizeHint::with_exact)
    }
}

/// Runs `decode` over `leftover`, adding the bytes it took to `read`.
fn counted<T>(
    read: &mut u64,
    leftover: &mut BytesMut,
    decode: impl FnOnce(&mut BytesMut) -> T,
) -> T {
    let before = leftover.len();
    let decoded = decode(leftover);
    *read += before.saturating_sub(leftover.len()) as u64;
    decoded
}
