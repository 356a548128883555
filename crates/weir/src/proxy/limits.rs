//! The rate-limit phase: the HTTP side of a route's limits. It builds each limit's key from the
//! request, asks [`crate::ratelimit`] for a decision, waits out a delay, turns a rejection into
//! [`ProxyError::RateLimited`] (status and headers included; `error.rs` makes the response) and
//! adds the limit headers to a response that passed. The limiter itself knows no HTTP.

use std::future::Future;
use std::net::IpAddr;
use std::pin::Pin;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use http::header::{HeaderName, HeaderValue};
use http::StatusCode;
use ipnet::IpNet;
use smallvec::SmallVec;

use crate::body::Holding;
use crate::config::{ConnLimitConfig, KeyPart, LimitConfig, LimitHeaders};
use crate::error::{HeadLines, ProxyError};
use crate::head_view::{Headers, Request};
use crate::ratelimit::{ConnLimit, Decision, Limiter, Limiters, Outcome, Places};

static RATELIMIT_POLICY: HeaderName = HeaderName::from_static("ratelimit-policy");
static RATELIMIT: HeaderName = HeaderName::from_static("ratelimit");
static X_RATELIMIT_LIMIT: HeaderName = HeaderName::from_static("x-ratelimit-limit");
static X_RATELIMIT_REMAINING: HeaderName = HeaderName::from_static("x-ratelimit-remaining");
static X_RATELIMIT_RESET: HeaderName = HeaderName::from_static("x-ratelimit-reset");

/// Rejections are logged at most once a second per limit, so a flood does not flood the log.
static REJECTED: crate::logging::Throttle = crate::logging::Throttle::new(1);

/// Refusals of a connection limit are logged at most once a second per limit.
static CONN_REFUSED: crate::logging::Throttle = crate::logging::Throttle::new(1);

/// The connection limits a route applies, in the route's order, with what each needs on the
/// HTTP side.
pub(super) struct RouteConnLimits {
    limits: Vec<ConnLimitOnRoute>,
}

struct ConnLimitOnRoute {
    limit: Arc<ConnLimit>,
    key: KeyOf,
    status: StatusCode,
}

/// How a limit keys a request: its parts, and the clients it leaves out.
struct KeyOf {
    parts: Vec<KeyPart>,
    ipv6_prefix: u8,
    /// `exempt`: clients in these networks get the empty key, which no limit counts.
    exempt: Box<[IpNet]>,
}

impl KeyOf {
    fn new(parts: &[KeyPart], ipv6_prefix: u8, exempt: &[IpNet]) -> KeyOf {
        KeyOf {
            parts: parts.to_vec(),
            ipv6_prefix,
            exempt: exempt.into(),
        }
    }

    /// The request's key: empty for an exempt client (nginx's allowlist: a `geo` that maps it
    /// to an empty key), else [`build_key`]'s.
    fn of<B>(&self, client_ip: IpAddr, path: &str, request: &Request<B>) -> LimitKey {
        if self
            .exempt
            .iter()
            .any(|network| network.contains(&client_ip))
        {
            return LimitKey::new();
        }
        build_key(&self.parts, self.ipv6_prefix, client_ip, path, request)
    }
}

impl RouteConnLimits {
    pub(super) fn new(limits: Vec<(Arc<ConnLimit>, &ConnLimitConfig)>) -> RouteConnLimits {
        RouteConnLimits {
            limits: limits
                .into_iter()
                .map(|(limit, config)| ConnLimitOnRoute {
                    limit,
                    key: KeyOf::new(&config.key, config.ipv6_prefix, &config.exempt),
                    status: config.status,
                })
                .collect(),
        }
    }

    /// A place for the request under each of the route's connection limits, in order; the first
    /// that has none refuses it ([`ProxyError::ConnLimited`]), and the places taken before are
    /// given back. `None` when no limit took a place (every key empty, or dry runs); else the
    /// places, boxed where the answer's body will be held with them.
    pub(super) fn admit<B>(
        &self,
        client_ip: IpAddr,
        path: &str,
        request: &Request<B>,
    ) -> Result<Option<Box<Holding>>, ProxyError> {
        let mut places = Places::default();
        for limit in &self.limits {
            let key = limit.key.of(client_ip, path, request);
            match limit.limit.admit(&key) {
                Some(Some(slot)) => places.push(slot),
                Some(None) => {}
                None => {
                    let name = limit.limit.name();
                    if let Some(suppressed) = CONN_REFUSED.admit(name) {
                        tracing::warn!(client = %client_ip, limit = name, suppressed, "request refused by a connection limit");
                    }
                    return Err(ProxyError::ConnLimited {
                        status: limit.status,
                        limit: limit.limit.shared_name(),
                    });
                }
            }
        }
        Ok((!places.is_empty()).then(|| Holding::new(places)))
    }
}

/// The limits a route applies, in the route's order, with what each needs on the HTTP side.
pub(super) struct RouteLimits {
    set: Limiters,
    /// `limits[i]` belongs to the limiter at position `i` of `set`.
    limits: Vec<Limit>,
}

/// The HTTP side of one `[limits.NAME]` on one route.
struct Limit {
    name: Arc<str>,
    key: KeyOf,
    status: StatusCode,
    headers: LimitHeaders,
    /// What the limit's headers hold that never changes, made once.
    rendered: OnceLock<Rendered>,
}

/// The parts of a limit's headers that are the same in every decision (its name, quota and
/// window), made when it first decides: per answer only the numbers are written.
struct Rendered {
    /// The `RateLimit-Policy` value, `"NAME";q=QUOTA;w=WINDOW`; empty if it would not be a
    /// valid value (then no such header is sent).
    policy: Box<[u8]>,
    /// A rejection's `RateLimit-Policy` line (when there is a policy) and the start of its
    /// `RateLimit` line up to the remaining requests: `ratelimit-policy: POLICY\r\nratelimit:
    /// "NAME";r=`.
    rejection_lines: Box<[u8]>,
}

/// The limit that decided a request, and the numbers its headers report.
pub(super) struct Decided<'route> {
    limit: &'route Limit,
    decision: Decision,
}

impl RouteLimits {
    /// The route's limits, `limiters[i]` configured by `configs[i]`.
    pub(super) fn new(limiters: Vec<(Arc<Limiter>, &LimitConfig)>) -> RouteLimits {
        let limits = limiters
            .iter()
            .map(|(limiter, config)| Limit {
                name: limiter.name().into(),
                key: KeyOf::new(&config.key, config.ipv6_prefix, &config.exempt),
                status: config.status,
                headers: config.headers,
                rendered: OnceLock::new(),
            })
            .collect();
        RouteLimits {
            set: Limiters::new(limiters.into_iter().map(|(limiter, _)| limiter).collect()),
            limits,
        }
    }

    /// Checks and charges the request against every limit of the route. A rejection is
    /// [`ProxyError::RateLimited`], before any upstream work. The in-memory decision is made
    /// here, with nothing to await; a Redis round trip or a delay to wait out is [`Checked::Later`],
    /// a boxed future of its own (a client that leaves during a delay gets its charge back), so
    /// the request's future holds no room for that rare work. The limit that decided a request
    /// let through gives its response headers.
    pub(super) fn check<B>(
        &self,
        client_ip: IpAddr,
        path: &str,
        request: &Request<B>,
    ) -> Checked<'_> {
        if let [limit] = self.limits.as_slice() {
            // A route's one limit (the usual case): its key, with no list of keys to collect.
            let key = limit.key.of(client_ip, path, request);
            return match self.set.try_check(&[key.as_slice()]) {
                Some(decision) if decision.delay().is_none() => {
                    Checked::Now(self.decided(decision, client_ip))
                }
                known => Checked::Later(Box::pin(self.check_later(
                    smallvec::smallvec![key],
                    known,
                    client_ip,
                ))),
            };
        }
        let keys = self.keys(client_ip, path, request);
        let key_slices: SmallVec<[&[u8]; 2]> = keys.iter().map(|key| key.as_slice()).collect();
        let known = self.set.try_check(&key_slices);
        drop(key_slices);
        match known {
            Some(decision) if decision.delay().is_none() => {
                Checked::Now(self.decided(decision, client_ip))
            }
            known => Checked::Later(Box::pin(self.check_later(keys, known, client_ip))),
        }
    }

    /// The rare part of [`RouteLimits::check`]: the decision from Redis (`known` is `None`), then
    /// its delay, if any, waited out.
    async fn check_later(
        &self,
        keys: SmallVec<[LimitKey; 2]>,
        known: Option<Decision>,
        client_ip: IpAddr,
    ) -> Result<Option<Decided<'_>>, ProxyError> {
        let key_slices: SmallVec<[&[u8]; 2]> = keys.iter().map(|key| key.as_slice()).collect();
        let decision = match known {
            Some(decision) => decision,
            None => self.set.check(&key_slices).await,
        };
        let decided = self.decided(decision, client_ip)?;
        if let Some(delay) = decision.delay() {
            // A client that goes away meanwhile drops this future: the guard then gives its
            // place back, as nginx does.
            let refund = RefundOnDrop {
                limits: &self.set,
                keys: &key_slices,
                armed: true,
            };
            tokio::time::sleep(delay).await;
            refund.disarm();
        }
        Ok(decided)
    }

    /// What `decision` makes of the request: a rejection, or the limit whose headers it gets.
    fn decided(
        &self,
        decision: Decision,
        client_ip: IpAddr,
    ) -> Result<Option<Decided<'_>>, ProxyError> {
        let decided = decision
            .limit
            .and_then(|index| self.limits.get(index))
            .map(|limit| Decided { limit, decision });
        if decision.is_rejected() {
            if let Some(decided) = decided {
                return Err(decided.rejection(client_ip));
            }
        }
        Ok(decided)
    }

    /// Each limit's key for this request, in the route's order.
    /// Kept inline for the usual route of one or two limits with short keys: no allocation.
    fn keys<B>(
        &self,
        client_ip: IpAddr,
        path: &str,
        request: &Request<B>,
    ) -> SmallVec<[LimitKey; 2]> {
        self.limits
            .iter()
            .map(|limit| limit.key.of(client_ip, path, request))
            .collect()
    }
}

impl Decided<'_> {
    /// The rate-limit headers of the decision, in the limit's chosen style.
    pub(super) fn add_headers(&self, headers: &mut Headers) {
        let (limit, decision) = (self.limit, &self.decision);
        match limit.headers {
            LimitHeaders::Off => {}
            LimitHeaders::Draft10 => {
                let name = &limit.name;
                let policy = &self.rendered().policy;
                if !policy.is_empty() {
                    headers.set(&RATELIMIT_POLICY, policy);
                }
                let state = state_value(
                    name,
                    decision.remaining,
                    ceil_seconds(decision.replenish_after),
                );
                if let Ok(value) = state {
                    headers.set(&RATELIMIT, value);
                }
            }
            LimitHeaders::Legacy => {
                let mut number = itoa::Buffer::new();
                headers.set(&X_RATELIMIT_LIMIT, number.format(decision.quota));
                headers.set(&X_RATELIMIT_REMAINING, number.format(decision.remaining));
                headers.set(
                    &X_RATELIMIT_RESET,
                    number.format(ceil_seconds(decision.reset_after)),
                );
            }
        }
    }

    /// What the limit's headers hold that never changes, made the first time it is asked for
    /// (its quota and window are the limit's, the same in every decision).
    fn rendered(&self) -> &Rendered {
        let (name, decision) = (&self.limit.name, &self.decision);
        self.limit.rendered.get_or_init(|| {
            let text = format!(
                "\"{name}\";q={};w={}",
                decision.quota,
                ceil_seconds(decision.window).max(1)
            );
            let policy = if HeaderValue::from_str(&text).is_ok() {
                text.into_bytes().into_boxed_slice()
            } else {
                Box::default()
            };
            let mut rejection_lines = Vec::new();
            if !policy.is_empty() {
                rejection_lines.extend_from_slice(RATELIMIT_POLICY.as_str().as_bytes());
                rejection_lines.extend_from_slice(b": ");
                rejection_lines.extend_from_slice(&policy);
                rejection_lines.extend_from_slice(b"\r\n");
            }
            rejection_lines.extend_from_slice(RATELIMIT.as_str().as_bytes());
            rejection_lines.extend_from_slice(b": \"");
            rejection_lines.extend_from_slice(name.as_bytes());
            rejection_lines.extend_from_slice(b"\";r=");
            Rendered {
                policy,
                rejection_lines: rejection_lines.into_boxed_slice(),
            }
        })
    }

    /// The rejection this decision is: the limit's status, `Retry-After` and its headers in the
    /// limit's chosen style, as lines (a map would hash each name and copy each value, for the
    /// HTTP/1 writer to copy them out again). What never changes was rendered once
    /// ([`Decided::rendered`]); only the numbers are written here.
    fn rejection(&self, client_ip: IpAddr) -> ProxyError {
        let (limit, decision) = (self.limit, &self.decision);
        let name = &limit.name;
        if tracing::enabled!(tracing::Level::DEBUG) {
            if let Some(suppressed) = REJECTED.admit(name) {
                tracing::debug!(client = %client_ip, limit = &**name, suppressed, "request rejected by a rate limit");
            }
        }
        let mut lines = HeadLines::labelled(name);
        let mut number = itoa::Buffer::new();
        if let Some(retry_after) = decision.retry_after {
            if matches!(decision.outcome, Outcome::Rejected) {
                let seconds = number.format(ceil_seconds(retry_after).max(1));
                lines.push_lines(&[b"retry-after: ", seconds.as_bytes(), b"\r\n"]);
            }
        }
        match limit.headers {
            LimitHeaders::Off => {}
            LimitHeaders::Draft10 => {
                let mut seconds = itoa::Buffer::new();
                lines.push_lines(&[
                    &self.rendered().rejection_lines,
                    number.format(decision.remaining).as_bytes(),
                    b";t=",
                    seconds
                        .format(ceil_seconds(decision.replenish_after))
                        .as_bytes(),
                    b"\r\n",
                ]);
            }
            LimitHeaders::Legacy => {
                for (name, value) in [
                    (&X_RATELIMIT_LIMIT, decision.quota),
                    (&X_RATELIMIT_REMAINING, decision.remaining),
                    (&X_RATELIMIT_RESET, ceil_seconds(decision.reset_after)),
                ] {
                    lines.push(name, &[number.format(value).as_bytes()]);
                }
            }
        }
        ProxyError::RateLimited {
            status: limit.status,
            lines,
        }
    }
}

/// A route's limits' decision on a request: made at once, or to be awaited (a Redis round trip,
/// a delay), boxed.
pub(super) enum Checked<'route> {
    Now(Result<Option<Decided<'route>>, ProxyError>),
    Later(Later<'route>),
}

/// A route's limits' decision to be awaited.
pub(super) type Later<'route> =
    Pin<Box<dyn Future<Output = Result<Option<Decided<'route>>, ProxyError>> + Send + 'route>>;

impl<'route> Checked<'route> {
    /// The decision made now is put in `decided`; a decision to be awaited is handed back, to
    /// be awaited into `decided`. (Matched by the caller, a `Checked` kept its room, 128 bytes,
    /// across the await: a value partly moved out of stays until its scope ends.)
    pub(super) fn now_into(
        self,
        decided: &mut Result<Option<Decided<'route>>, ProxyError>,
    ) -> Option<Later<'route>> {
        match self {
            Checked::Now(now) => {
                *decided = now;
                None
            }
            Checked::Later(later) => Some(later),
        }
    }
}

/// Refunds a delayed request's charge unless it reached the end of its delay.
struct RefundOnDrop<'a> {
    limits: &'a Limiters,
    keys: &'a [&'a [u8]],
    armed: bool,
}

impl RefundOnDrop<'_> {
    fn disarm(mut self) {
        self.armed = false;
    }
}

impl Drop for RefundOnDrop<'_> {
    fn drop(&mut self) {
        if self.armed {
            self.limits.refund(self.keys);
        }
    }
}

/// A limit's key, inline up to 32 bytes (an address, a short path): no allocation for them.
pub type LimitKey = SmallVec<[u8; 32]>;

/// A limit's key: its parts joined by a NUL byte; empty when every part is empty (such a key is
/// not limited, as nginx skips an empty key). Addresses are their 4 or 16 bytes, IPv6 ones cut to
/// the limit's `ipv6_prefix`. `path` is the normalised path, so every spelling of one path shares
/// a bucket. Generic over the body, which it never reads, and public, so that the fuzz targets in
/// fuzz/ can call it.
pub fn build_key<B>(
    parts: &[KeyPart],
    ipv6_prefix: u8,
    client_ip: IpAddr,
    path: &str,
    request: &Request<B>,
) -> LimitKey {
    let mut key = LimitKey::new();
    let mut any = false;
    for (position, part) in parts.iter().enumerate() {
        if position > 0 {
            key.push(0);
        }
        match part {
            KeyPart::ClientIp => {
                any = true;
                match crate::ratelimit::client_ip_key(client_ip, ipv6_prefix) {
                    IpAddr::V4(ip) => key.extend_from_slice(&ip.octets()),
                    IpAddr::V6(ip) => key.extend_from_slice(&ip.octets()),
                }
            }
            KeyPart::Path => {
                any = true;
                key.extend_from_slice(path.as_bytes());
            }
            // One key for every request: a byte, so that it is not the empty key nginx skips.
            KeyPart::All => {
                any = true;
                key.push(b'*');
            }
            KeyPart::Header(name) => {
                if let Some(value) = request.headers().get(name) {
                    if !value.is_empty() {
                        any = true;
                        key.extend_from_slice(value);
                    }
                }
            }
        }
    }
    if !any {
        key.clear();
    }
    key
}

/// The least room of a thread's arena of `RateLimit` values: a few dozen values. Small, since a
/// value still alive (a response whose head is not written yet) keeps its whole buffer.
const VALUE_ARENA: usize = 1024;

thread_local! {
    /// The bytes of this thread's `RateLimit` values (see [`crate::spares::cut`]).
    static VALUES: std::cell::RefCell<crate::spares::Arena> =
        std::cell::RefCell::new(crate::spares::Arena::default());
}

/// The `RateLimit` value, `"NAME";r=REMAINING;t=SECONDS`, written without `format!`: it is made
/// for every answer a limit decided, each 429 of a flood included, and `format!` cost more
/// instructions than the rest of the rejection.
fn state_value(
    name: &str,
    remaining: u64,
    seconds: u64,
) -> Result<HeaderValue, http::header::InvalidHeaderValue> {
    let (mut remaining_text, mut seconds_text) = (itoa::Buffer::new(), itoa::Buffer::new());
    let pieces = state_pieces(
        name,
        remaining_text.format(remaining),
        seconds_text.format(seconds),
    );
    let length = pieces.iter().map(|piece| piece.len()).sum::<usize>();
    let value = crate::spares::cut(&VALUES, length, VALUE_ARENA, |buffer| {
        for piece in pieces {
            buffer.extend_from_slice(piece);
        }
    });
    HeaderValue::from_maybe_shared(value)
}

/// The pieces of a `RateLimit` value, `"NAME";r=REMAINING;t=SECONDS`.
fn state_pieces<'a>(name: &'a str, remaining: &'a str, seconds: &'a str) -> [&'a [u8]; 6] {
    [
        b"\"",
        name.as_bytes(),
        b"\";r=",
        remaining.as_bytes(),
        b";t=",
        seconds.as_bytes(),
    ]
}

/// Whole seconds, rounded up.
fn ceil_seconds(duration: Duration) -> u64 {
    let seconds = duration.as_secs();
    if duration.subsec_nanos() > 0 {
        seconds + 1
    } else {
        seconds
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_state_value_reads_as_format_wrote_it() {
        for (remaining, seconds) in [(0, 0), (0, 60), (9, 10), (1234, 86400), (u64::MAX, 1)] {
            let value = state_value("flood", remaining, seconds).expect("a valid value");
            let written = format!("\"flood\";r={remaining};t={seconds}");
            assert_eq!(value.as_bytes(), written.as_bytes());
        }
        assert!(state_value("bad\nname", 1, 1).is_err());
    }

    /// The arena's values stay whole: those alive while it moves on to a new buffer, and those
    /// written again into a buffer whose values are gone.
    #[test]
    fn state_values_from_the_arena_keep_their_bytes() {
        for _ in 0..3 {
            let values: Vec<_> = (0..500u64)
                .map(|index| {
                    let value = state_value("a-limit", index, index * 7).expect("a valid value");
                    (index, value)
                })
                .collect();
            for (index, value) in &values {
                let written = format!("\"a-limit\";r={index};t={}", index * 7);
                assert_eq!(value.as_bytes(), written.as_bytes());
            }
        }
        let long = "n".repeat(3 * VALUE_ARENA);
        let value = state_value(&long, 1, 2).expect("a valid value");
        assert_eq!(value.as_bytes(), format!("\"{long}\";r=1;t=2").as_bytes());
    }
}
