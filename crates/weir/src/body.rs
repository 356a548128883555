//! The body types that cross the proxy: [`Body`] goes back to the client, [`RequestBody`] goes to
//! the upstream. Both stream frame by frame; nothing here holds a whole body in memory.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use bytes::Bytes;
use http_body::{Frame, SizeHint};
use http_body_util::combinators::UnsyncBoxBody;
use hyper::body::Incoming;
use tokio::time::Sleep;

use crate::upstream::UpstreamBody;

/// A boxed error, as bodies of different origins fail in different ways.
pub type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// A response body for the client.
// reason: the upstream's body (its connection inline) is the common case; boxing it would cost
// an allocation per response to save moving a few hundred bytes.
#[allow(clippy::large_enum_variant)]
pub enum Body {
    /// Nothing, or a whole small body such as an error page.
    Full(Option<Bytes>),
    /// The upstream's body, streamed, returning its connection to the pool when done.
    Upstream(UpstreamBody),
    /// A body whose bytes the access log counts (its line is written when the body is done).
    Logged(Box<crate::access_log::LoggedBody>),
    /// Anything else (compressed, a static file), boxed.
    Boxed(UnsyncBoxBody<Bytes, BoxError>),
}

impl Body {
    pub fn empty() -> Body {
        Body::Full(None)
    }

    pub fn full(bytes: impl Into<Bytes>) -> Body {
        let bytes = bytes.into();
        if bytes.is_empty() {
            Body::Full(None)
        } else {
            Body::Full(Some(bytes))
        }
    }

    /// Boxes any body whose error converts into [`BoxError`].
    pub fn boxed<B>(body: B) -> Body
    where
        B: http_body::Body<Data = Bytes> + Send + 'static,
        B::Error: Into<BoxError>,
    {
        use http_body_util::BodyExt;
        Body::Boxed(body.map_err(Into::into).boxed_unsync())
    }
}

impl http_body::Body for Body {
    type Data = Bytes;
    type Error = BoxError;

    fn poll_frame(
        self: Pin<&mut Self>,
        context: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, BoxError>>> {
        match self.get_mut() {
            Body::Full(bytes) => Poll::Ready(bytes.take().map(|bytes| Ok(Frame::data(bytes)))),
            Body::Upstream(body) => Pin::new(body).poll_frame(context),
            Body::Logged(body) => Pin::new(body.as_mut()).poll_frame(context),
            Body::Boxed(body) => Pin::new(body).poll_frame(context),
        }
    }

    fn is_end_stream(&self) -> bool {
        match self {
            Body::Full(bytes) => bytes.is_none(),
            Body::Upstream(body) => body.is_end_stream(),
            Body::Logged(body) => body.is_end_stream(),
            Body::Boxed(body) => body.is_end_stream(),
        }
    }

    fn size_hint(&self) -> SizeHint {
        match self {
            Body::Full(bytes) => SizeHint::with_exact(bytes.as_ref().map_or(0, |b| b.len() as u64)),
            Body::Upstream(body) => body.size_hint(),
            Body::Logged(body) => body.size_hint(),
            Body::Boxed(body) => body.size_hint(),
        }
    }
}

/// The client's request body as the HTTP layer hands it over.
pub enum ClientBody {
    /// No body.
    Empty,
    /// Read off an HTTP/1 connection by weir's own codec.
    H1(crate::h1::BodyReader),
    /// A body hyper reads (an HTTP/2 stream).
    Hyper(Incoming),
}

impl ClientBody {
    /// The proxy error for a failure of this body: 400 for a malformed body, else the client
    /// went away.
    pub fn error_of(error: &(dyn std::error::Error + 'static)) -> crate::error::ProxyError {
        match error.downcast_ref::<crate::h1::BodyError>() {
            Some(error) => error.to_proxy_error(),
            None => crate::error::ProxyError::ClientGone,
        }
    }
}

impl http_body::Body for ClientBody {
    type Data = Bytes;
    type Error = BoxError;

    fn poll_frame(
        self: Pin<&mut Self>,
        context: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, BoxError>>> {
        match self.get_mut() {
            ClientBody::Empty => Poll::Ready(None),
            ClientBody::H1(body) => Pin::new(body)
                .poll_frame(context)
                .map_err(|error| Box::new(error) as BoxError),
            ClientBody::Hyper(body) => Pin::new(body)
                .poll_frame(context)
                .map_err(|error| Box::new(error) as BoxError),
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

/// The request body towards the upstream.
pub enum RequestBody {
    /// No body, or a whole one (a retried request, a buffered one).
    Full(Option<Bytes>),
    /// A buffered body too large for memory, read back from its spool file.
    Spooled(Box<crate::buffering::Spooled>),
    /// The client's body, streamed, cut off with [`BodyTooLarge`] past `limit` bytes and with
    /// [`BodyTimeout`] when no bytes come for `timeout`.
    Downstream {
        incoming: ClientBody,
        limit: u64,
        received: u64,
        timeout: Duration,
        /// Armed while a read waits; `None` until the first wait.
        deadline: Option<Pin<Box<Sleep>>>,
    },
}

/// The client sent no body bytes for `body_timeout` (nginx `client_body_timeout`).
#[derive(Debug, thiserror::Error)]
#[error("no request body bytes for body_timeout")]
pub struct BodyTimeout;

/// The client sent more than `max_body_size` bytes of body.
#[derive(Debug, thiserror::Error)]
#[error("request body is larger than {limit} bytes")]
pub struct BodyTooLarge {
    pub limit: u64,
}

impl RequestBody {
    /// The client's body with a size limit; `limit == 0` means none.
    /// `timeout` is the longest wait between two reads (`body_timeout`).
    pub fn downstream(incoming: ClientBody, limit: u64, timeout: Duration) -> RequestBody {
        RequestBody::Downstream {
            incoming,
            limit: if limit == 0 { u64::MAX } else { limit },
            received: 0,
            timeout,
            deadline: None,
        }
    }
}

impl http_body::Body for RequestBody {
    type Data = Bytes;
    type Error = BoxError;

    fn poll_frame(
        self: Pin<&mut Self>,
        context: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, BoxError>>> {
        match self.get_mut() {
            RequestBody::Full(bytes) => {
                Poll::Ready(bytes.take().map(|bytes| Ok(Frame::data(bytes))))
            }
            RequestBody::Spooled(spooled) => Pin::new(spooled.as_mut()).poll_frame(context),
            RequestBody::Downstream {
                incoming,
                limit,
                received,
                timeout,
                deadline,
            } => match Pin::new(incoming).poll_frame(context) {
                Poll::Pending => {
                    let sleep =
                        deadline.get_or_insert_with(|| Box::pin(tokio::time::sleep(*timeout)));
                    match sleep.as_mut().poll(context) {
                        Poll::Ready(()) => Poll::Ready(Some(Err(Box::new(BodyTimeout)))),
                        Poll::Pending => Poll::Pending,
                    }
                }
                Poll::Ready(Some(Ok(frame))) => {
                    // Progress: the next wait gets a whole `timeout` again.
                    *deadline = None;
                    if let Some(data) = frame.data_ref() {
                        *received += data.len() as u64;
                        if *received > *limit {
                            return Poll::Ready(Some(Err(Box::new(BodyTooLarge {
                                limit: *limit,
                            }))));
                        }
                    }
                    Poll::Ready(Some(Ok(frame)))
                }
                Poll::Ready(Some(Err(error))) => Poll::Ready(Some(Err(error))),
                Poll::Ready(None) => Poll::Ready(None),
            },
        }
    }

    fn is_end_stream(&self) -> bool {
        match self {
            RequestBody::Full(bytes) => bytes.is_none(),
            RequestBody::Spooled(spooled) => spooled.is_end_stream(),
            RequestBody::Downstream { incoming, .. } => incoming.is_end_stream(),
        }
    }

    fn size_hint(&self) -> SizeHint {
        match self {
            RequestBody::Full(bytes) => {
                SizeHint::with_exact(bytes.as_ref().map_or(0, |b| b.len() as u64))
            }
            RequestBody::Spooled(spooled) => spooled.size_hint(),
            RequestBody::Downstream { incoming, .. } => incoming.size_hint(),
        }
    }
}
