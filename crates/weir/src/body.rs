//! [`Body`], the response body that goes back to the client: whole and small (an error page), the
//! upstream's streamed, one the access log counts, or anything else boxed. It streams frame by
//! frame; nothing here holds a whole body in memory.

use std::pin::Pin;
use std::task::{Context, Poll};

use bytes::Bytes;
use http_body::{Frame, SizeHint};
use http_body_util::combinators::UnsyncBoxBody;

use crate::access_log::LoggedBody;
use crate::error::{BoxError, HeadLines};
use crate::ratelimit::Places;
use crate::upstream::UpstreamBody;

/// A body a writer may move by `splice`: the upstream's, and the count of its bytes the access
/// log keeps (the writer adds what the client took).
pub struct SpliceSource<'a> {
    pub upstream: &'a mut UpstreamBody,
    pub counted: Option<&'a mut u64>,
}

/// A response body for the client. (The upstream's body is boxed in memory its thread keeps,
/// see [`UpstreamBody`]: inline, its connection made every answer's body, and each move of it,
/// 280 bytes.)
pub enum Body {
    /// Nothing, or a whole small body such as an error page.
    Full(Option<Bytes>),
    /// An answer weir makes itself with header lines written as bytes (a rate limit's 429): its
    /// text, and the lines, which the HTTP/1 writer puts into the head as they are and HTTP/2
    /// turns into fields ([`Body::take_lines`]).
    Answer(Option<Bytes>, HeadLines),
    /// The upstream's body, streamed, returning its connection to the pool when done.
    Upstream(UpstreamBody),
    /// A body whose bytes the access log counts (its line is written when the body is done).
    Logged(Box<LoggedBody<Body>>),
    /// Anything else (compressed, a static file), boxed.
    Boxed(UnsyncBoxBody<Bytes, BoxError>),
    /// A body that holds its request's places under connection limits until it is done.
    Holding(Box<Holding>),
}

/// A body and the connection-limit places its request holds, given back when it is dropped
/// (written whole, or the client gone). Made, boxed, when the places are taken, with an empty
/// body that the answer's replaces ([`Holding::around`]): one allocation per request.
pub struct Holding {
    body: Body,
    places: Places,
}

impl std::fmt::Debug for Holding {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter
            .debug_struct("Holding")
            .field("places", &self.places)
            .finish_non_exhaustive()
    }
}

impl Holding {
    /// `places`, boxed, to hold an answer's body later.
    pub fn new(places: Places) -> Box<Holding> {
        Box::new(Holding {
            body: Body::empty(),
            places,
        })
    }

    /// `body`, holding the places until it is done.
    pub fn around(mut self: Box<Self>, body: Body) -> Body {
        self.body = body;
        Body::Holding(self)
    }

    /// The places alone, for an answer whose body is not what holds them (a tunnel's).
    pub fn into_places(self) -> Places {
        self.places
    }
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

    /// An answer's text with its header lines.
    pub fn answer(text: Bytes, lines: HeadLines) -> Body {
        Body::Answer((!text.is_empty()).then_some(text), lines)
    }

    /// The access log's count around the body, when it has one (inside a request's places too).
    pub fn logged_mut(&mut self) -> Option<&mut LoggedBody<Body>> {
        match self {
            Body::Logged(logged) => Some(logged),
            Body::Holding(holding) => holding.body.logged_mut(),
            _ => None,
        }
    }

    /// The header lines of an answer that has them (inside the access log's count too), taken:
    /// the writer of the head takes them once.
    pub fn take_lines(&mut self) -> Option<HeadLines> {
        match self {
            Body::Answer(_, lines) => Some(std::mem::take(lines)),
            Body::Logged(logged) => logged.inner_mut().0.take_lines(),
            Body::Holding(holding) => holding.body.take_lines(),
            _ => None,
        }
    }

    /// The upstream's body inside, for a writer that moves its bytes itself (`splice`), with the
    /// access log's count of them when the body has one; `None` for any other body.
    pub fn splice_source(&mut self) -> Option<SpliceSource<'_>> {
        match self {
            Body::Upstream(upstream) => Some(SpliceSource {
                upstream,
                counted: None,
            }),
            Body::Logged(logged) => match logged.inner_mut() {
                (Body::Upstream(upstream), counted) => Some(SpliceSource { upstream, counted }),
                _ => None,
            },
            Body::Holding(holding) => holding.body.splice_source(),
            _ => None,
        }
    }

    /// Whether weir holds the body whole (nothing, an error page, an answer of its own), inside
    /// the access log's count and a request's places too.
    pub fn is_whole(&self) -> bool {
        match self {
            Body::Full(_) | Body::Answer(..) => true,
            Body::Logged(logged) => logged.inner().is_whole(),
            Body::Holding(holding) => holding.body.is_whole(),
            Body::Upstream(_) | Body::Boxed(_) => false,
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
            Body::Full(bytes) | Body::Answer(bytes, _) => {
                Poll::Ready(bytes.take().map(|bytes| Ok(Frame::data(bytes))))
            }
            Body::Upstream(body) => Pin::new(body).poll_frame(context),
            Body::Logged(body) => Pin::new(body.as_mut()).poll_frame(context),
            Body::Boxed(body) => Pin::new(body).poll_frame(context),
            Body::Holding(holding) => Pin::new(&mut holding.body).poll_frame(context),
        }
    }

    fn is_end_stream(&self) -> bool {
        match self {
            Body::Full(bytes) | Body::Answer(bytes, _) => bytes.is_none(),
            Body::Upstream(body) => body.is_end_stream(),
            Body::Logged(body) => body.is_end_stream(),
            Body::Boxed(body) => body.is_end_stream(),
            Body::Holding(holding) => holding.body.is_end_stream(),
        }
    }

    fn size_hint(&self) -> SizeHint {
        match self {
            Body::Full(bytes) | Body::Answer(bytes, _) => {
                SizeHint::with_exact(bytes.as_ref().map_or(0, |b| b.len() as u64))
            }
            Body::Upstream(body) => body.size_hint(),
            Body::Logged(body) => body.size_hint(),
            Body::Boxed(body) => body.size_hint(),
            Body::Holding(holding) => holding.body.size_hint(),
        }
    }
}

/// A body of frames each ready at once, the length unknown, for the tests of bodies that wrap
/// one (`throttle`, `cache`).
#[cfg(test)]
pub(crate) struct Frames(pub std::collections::VecDeque<Bytes>);

#[cfg(test)]
impl http_body::Body for Frames {
    type Data = Bytes;
    type Error = BoxError;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        _: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, BoxError>>> {
        Poll::Ready(self.0.pop_front().map(|data| Ok(Frame::data(data))))
    }
}
