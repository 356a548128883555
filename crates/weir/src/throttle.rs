//! `limit_rate`: a response body that goes to the client no faster than a rate, once its first
//! bytes went at full speed (nginx `limit_rate`, `limit_rate_after`, and an upstream's
//! `X-Accel-Limit-Rate`).
//!
//! The body is handed on in pieces of an eighth of a second's bytes (1 KiB to 64 KiB), each when
//! the bytes sent, it included, are no more than `after` plus the rate times the time since the
//! body was first asked for: a body of `n` bytes past `after` takes at least `n / rate`
//! seconds. (nginx counts from the request's start, in whole seconds and one second ahead, so it
//! lets a body go up to a second sooner.) While a piece waits, the upstream is not read: with
//! `response_buffering` its answer is read ahead into weir's buffers meanwhile, so a Gunicorn
//! worker is free long before a throttled download ends.

use std::future::Future as _;
use std::pin::Pin;
use std::task::{ready, Context, Poll};
use std::time::Duration;

use bytes::Bytes;
use http_body::{Frame, SizeHint};
use tokio::time::{Instant, Sleep};

use crate::body::Body;
use crate::config::LimitRate;
use crate::error::BoxError;

/// The smallest and largest piece handed on at once.
const PIECES: std::ops::RangeInclusive<u64> = 1024..=64 * 1024;

/// `body`, sent no faster than `limit` says. A body weir holds whole (an error page, an answer
/// of its own) and one no longer than `after` go as they are.
pub fn throttled(body: Body, limit: LimitRate) -> Body {
    let short = http_body::Body::size_hint(&body)
        .upper()
        .is_some_and(|upper| upper <= limit.after);
    if body.is_whole() || short || http_body::Body::is_end_stream(&body) {
        return body;
    }
    Body::boxed(Throttled::new(body, limit))
}

/// A body and what it has sent against its rate.
struct Throttled {
    body: Body,
    limit: LimitRate,
    /// Bytes handed on.
    sent: u64,
    /// When the body was first asked for.
    started: Option<Instant>,
    /// Bytes read from `body` and not handed on yet.
    held: Bytes,
    /// The wait for the next piece, kept to be reset.
    wait: Option<Pin<Box<Sleep>>>,
}

impl Throttled {
    fn new(body: Body, limit: LimitRate) -> Throttled {
        Throttled {
            body,
            limit,
            sent: 0,
            started: None,
            held: Bytes::new(),
            wait: None,
        }
    }

    /// The most bytes handed on at once: an eighth of a second's.
    fn piece(&self) -> u64 {
        (self.limit.rate / 8).clamp(*PIECES.start(), *PIECES.end())
    }

    /// When `sent + wanted` bytes may have been sent, after `started`.
    fn due(&self, started: Instant, wanted: u64) -> Instant {
        let past_after = (self.sent + wanted).saturating_sub(self.limit.after);
        let nanos = u128::from(past_after) * 1_000_000_000 / u128::from(self.limit.rate);
        started + Duration::from_nanos(u64::try_from(nanos).unwrap_or(u64::MAX))
    }

    /// The bytes that may have been sent by `now`, past those sent.
    fn allowed(&self, started: Instant, now: Instant) -> u64 {
        let elapsed = now.saturating_duration_since(started).as_nanos();
        let earned = u128::from(self.limit.rate) * elapsed / 1_000_000_000;
        let allowed = u128::from(self.limit.after) + earned;
        u64::try_from(allowed.saturating_sub(u128::from(self.sent))).unwrap_or(u64::MAX)
    }
}

impl http_body::Body for Throttled {
    type Data = Bytes;
    type Error = BoxError;

    fn poll_frame(
        self: Pin<&mut Self>,
        context: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, BoxError>>> {
        let this = self.get_mut();
        let started = *this.started.get_or_insert_with(Instant::now);
        if this.held.is_empty() {
            match ready!(Pin::new(&mut this.body).poll_frame(context)) {
                Some(Ok(frame)) => match frame.into_data() {
                    Ok(data) if !data.is_empty() => this.held = data,
                    Ok(data) => return Poll::Ready(Some(Ok(Frame::data(data)))),
                    Err(frame) => return Poll::Ready(Some(Ok(frame))),
                },
                ended => return Poll::Ready(ended),
            }
        }
        let held = this.held.len() as u64;
        let wanted = held.min(this.piece());
        let now = Instant::now();
        let due = this.due(started, wanted);
        if due > now {
            match &mut this.wait {
                Some(wait) => wait.as_mut().reset(due),
                None => this.wait = Some(Box::pin(tokio::time::sleep_until(due))),
            }
            if let Some(wait) = &mut this.wait {
                ready!(wait.as_mut().poll(context));
            }
        }
        // What the time earned, at least a piece (a wait ended just now earned about that).
        let taken = this.allowed(started, Instant::now()).max(wanted).min(held);
        this.sent += taken;
        let piece = this.held.split_to(taken as usize);
        Poll::Ready(Some(Ok(Frame::data(piece))))
    }

    fn is_end_stream(&self) -> bool {
        self.held.is_empty() && self.body.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        let inner = self.body.size_hint();
        let held = self.held.len() as u64;
        let mut hint = SizeHint::new();
        hint.set_lower(inner.lower() + held);
        if let Some(upper) = inner.upper() {
            hint.set_upper(upper + held);
        }
        hint
    }
}

#[cfg(test)]
mod tests;
