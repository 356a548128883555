//! The request body on its way to an upstream, watched: the response side learns whether it was
//! sent whole, and can abandon it. An upstream may answer before it has read the body (a 413, a
//! 200 to an upload it ignores); its connection may then go back to the pool only once the body is
//! sent whole, as nginx's keepalive module requires (`request_body_sent`). Until then, hyper would
//! hold the next request on that connection behind the rest of the body: behind a stalled upload,
//! forever. Abandoning the body fails it, which makes hyper close the connection.

use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll, Waker};

use bytes::Bytes;
use http_body::{Frame, SizeHint};

use crate::body::{BoxError, RequestBody};

/// What the request side and the response side of one exchange share.
#[derive(Debug, Default)]
pub struct Progress {
    /// The body gave its last frame to hyper.
    sent: AtomicBool,
    /// The response side gave up on the rest of the body.
    abandoned: AtomicBool,
    /// Woken when abandoned, so a body waiting on its client fails at once.
    waker: Mutex<Option<Waker>>,
}

impl Progress {
    /// Whether the body gave hyper its last frame (an empty body is sent from the start).
    pub fn is_sent(&self) -> bool {
        self.sent.load(Ordering::Acquire)
    }

    /// Fails the body's next poll, and wakes it if it waits.
    pub fn abandon(&self) {
        self.abandoned.store(true, Ordering::Release);
        let waker = self
            .waker
            .lock()
            .unwrap_or_else(|poison| poison.into_inner())
            .take();
        if let Some(waker) = waker {
            waker.wake();
        }
    }
}

/// The upstream answered before the request body was sent whole; the connection is closed.
#[derive(Debug, thiserror::Error)]
#[error("request body abandoned: the upstream answered before it was sent whole")]
pub struct Abandoned;

/// A [`RequestBody`] that reports to its [`Progress`].
pub struct OutgoingBody {
    body: RequestBody,
    progress: Arc<Progress>,
}

impl OutgoingBody {
    pub fn new(body: RequestBody) -> OutgoingBody {
        let progress = Progress::default();
        progress
            .sent
            .store(http_body::Body::is_end_stream(&body), Ordering::Release);
        OutgoingBody {
            body,
            progress: Arc::new(progress),
        }
    }

    pub fn progress(&self) -> &Arc<Progress> {
        &self.progress
    }

    pub fn into_inner(self) -> RequestBody {
        self.body
    }
}

impl http_body::Body for OutgoingBody {
    type Data = Bytes;
    type Error = BoxError;

    fn poll_frame(
        self: Pin<&mut Self>,
        context: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, BoxError>>> {
        let this = self.get_mut();
        if this.progress.abandoned.load(Ordering::Acquire) {
            return Poll::Ready(Some(Err(Box::new(Abandoned))));
        }
        match Pin::new(&mut this.body).poll_frame(context) {
            Poll::Ready(Some(Ok(frame))) => {
                if http_body::Body::is_end_stream(&this.body) {
                    this.progress.sent.store(true, Ordering::Release);
                }
                Poll::Ready(Some(Ok(frame)))
            }
            Poll::Ready(None) => {
                this.progress.sent.store(true, Ordering::Release);
                Poll::Ready(None)
            }
            Poll::Ready(Some(Err(error))) => Poll::Ready(Some(Err(error))),
            Poll::Pending => {
                *this
                    .progress
                    .waker
                    .lock()
                    .unwrap_or_else(|poison| poison.into_inner()) = Some(context.waker().clone());
                // Abandoned between the first check and the waker's registration: no wake-up
                // would come.
                if this.progress.abandoned.load(Ordering::Acquire) {
                    return Poll::Ready(Some(Err(Box::new(Abandoned))));
                }
                Poll::Pending
            }
        }
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.body.size_hint()
    }
}
