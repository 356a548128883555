//! A route's `cache`: its upstream's answers kept in memory and served again, for a few seconds or
//! more, without asking the upstream (nginx `proxy_cache` with `proxy_cache_valid`, the
//! "microcache" that lets a flood of one Django page cost Gunicorn one request a period).
//!
//! What is kept, as nginx keeps it:
//! - the answer to a `GET` (a `HEAD` is served a kept `GET`'s answer, and passes otherwise),
//!   keyed by the route, the scheme, the `Host` and the request target (the proxy makes the
//!   key: `RouteCache` in `proxy.rs`); the request that fills goes upstream without its
//!   conditions and `Range` ([`drop_conditions`]), and a kept `200` answers them
//!   ([`Answer::response_to`]: `304`; `206` for a range when its upstream sent
//!   `Accept-Ranges: bytes`);
//! - a `200`, `301` or `302`, for the route's time, unless the upstream says otherwise:
//!   `X-Accel-Expires: N` (seconds; `0`: not kept) first, then `Cache-Control`'s `s-maxage` or
//!   `max-age` (`0`: not kept); `no-store`, `no-cache` or `private` keep it out;
//! - not an answer with `Set-Cookie`, nor one with `Vary: *`, nor one past `cache_max_answer`
//!   bytes;
//! - with `Vary`, the request's values of the headers it names (Django's `Vary: Cookie` on a
//!   page that read the session, `Vary: Accept-Encoding` of an app that compresses): the kept
//!   answer is a hit only for a request with the same values. A key keeps up to
//!   [`MOST_VARIANTS`] variants, the oldest filled out first (nginx keeps one per variant), so
//!   browsers that send different `Accept-Encoding`s each find their own.
//!
//! Where weir is safer than nginx's defaults:
//! - a request with `Authorization`, or with a cookie (`cache_pass_cookies` says which; any, by
//!   default), neither gets a kept answer nor leaves one: nginx keys by the URL alone, so a
//!   signed-in user's page could be kept and served to everyone;
//! - the client's `X-Forwarded-Host` and `X-Forwarded-Proto` are in the key, so an app that
//!   builds links from them cannot have one client's forged value kept for all;
//! - one request fills a missing answer while the others for it wait for that answer, up to
//!   [`LOCK_WAIT`] (nginx's `proxy_cache_lock`, off by default there): a flood of a missing page
//!   is one request upstream, not a flood;
//! - an answer found not to be kept is remembered as such for the route's time (at most
//!   [`PASS_MOST`]; keys of at most 1 MiB together): its requests then go upstream at once,
//!   without waiting for each other;
//! - all answers together hold at most `cache_size` bytes; past it the oldest kept go first. The
//!   answers being filled hold at most as much again: past it, one is let go, not kept.
//!
//! An expired answer may still be served for a while (nginx `proxy_cache_use_stale`): the
//! route's `cache_stale`, or what the upstream's `Cache-Control` allows (`stale-while-revalidate`
//! for the first case, `stale-if-error` for the second), whichever is longer:
//! - while one request updates it, the key's other requests get it at once (`UPDATING`) instead
//!   of waiting;
//! - when the request that updates it gets no answer from its upstream (it is down, times out,
//!   or its queue refuses the request) or a `500`, `502`, `503` or `504`, that request gets it,
//!   and so do those that waited for it (`STALE`): a failing or overloaded app's pages stay up.

use std::collections::{BTreeMap, HashMap};
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::task::{ready, Context, Poll};
use std::time::Duration;

use bytes::{Bytes, BytesMut};
use http::header;
use http::StatusCode;
use http_body::{Frame, SizeHint};
use tokio::sync::watch;
use tokio::time::Instant;

use crate::body::Body;
use crate::error::BoxError;
use crate::head_view::{Headers, Response};

/// The longest a request waits for another to fill the answer it wants (nginx's
/// `proxy_cache_lock_timeout`); then it goes upstream itself, and keeps nothing.
pub const LOCK_WAIT: Duration = Duration::from_secs(5);

/// The longest an answer found not to be kept sends its key's requests upstream at once.
pub const PASS_MOST: Duration = Duration::from_secs(10);

/// The most bytes of keys remembered as not kept (each a request's key, up to a request head's
/// size): past it, none more are.
const PASSING_MOST: usize = 1024 * 1024;

/// The longest an upstream's header keeps an answer or lets it be served stale (a year): an
/// `max-age` of 2^64 seconds is a year, not a time past the clock's end.
const LONGEST: Duration = Duration::from_secs(365 * 24 * 3600);

/// What each kept answer costs besides its key, head and body (the maps' and the order's room).
const ENTRY_COST: u64 = 160;

/// The most variants (answers with `Vary`, each for other values of the headers it names) a
/// key keeps: past it, the oldest filled goes.
pub const MOST_VARIANTS: usize = 8;

/// The kept answers of every route with `cache`, within `cache_size` bytes.
pub struct Cache {
    store: Mutex<Store>,
    /// `cache_size`: the bytes all kept answers hold.
    size: u64,
    /// `cache_max_answer`: the most bytes of one kept answer's body.
    most: u64,
    /// Bytes the answers being filled hold, all together at most `size`: past it, an answer
    /// being filled is let go (a flood of missing keys holds no more than the kept answers).
    filling: AtomicU64,
    /// Requests by `$upstream_cache_status` ([`STATUSES`]).
    counted: [AtomicU64; 6],
}

/// The `$upstream_cache_status` values, in [`Cache::counted`]'s order.
pub const STATUSES: [&str; 6] = ["HIT", "MISS", "EXPIRED", "BYPASS", "STALE", "UPDATING"];

/// What the metrics show of the cache.
#[derive(Debug, Clone, Copy, Default)]
pub struct CacheStats {
    /// Bytes the kept answers hold, and how many there are.
    pub kept_bytes: u64,
    pub kept: usize,
    /// Bytes the answers being filled hold.
    pub filling_bytes: u64,
    /// Requests by [`STATUSES`].
    pub counted: [u64; 6],
}

impl std::fmt::Debug for Cache {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter
            .debug_struct("Cache")
            .field("size", &self.size)
            .field("most", &self.most)
            .finish_non_exhaustive()
    }
}

#[derive(Default)]
struct Store {
    entries: HashMap<Box<str>, Kept>,
    /// Keys by the generation they were kept in: the first is the oldest kept.
    order: BTreeMap<u64, Box<str>>,
    /// Keys being filled, with what their waiters watch (it closes when the filling ends).
    filling: HashMap<Box<str>, watch::Receiver<()>>,
    /// Keys whose answer was not kept, until when their requests pass.
    passing: HashMap<Box<str>, Instant>,
    /// The bytes of `passing`'s keys.
    passing_bytes: usize,
    /// Bytes the kept answers hold, and how many there are (variants each).
    used: u64,
    answers: usize,
    generation: u64,
}

impl Store {
    /// Takes `key`'s kept answers out, from the order too.
    fn remove(&mut self, key: &str) -> Option<Kept> {
        let kept = self.entries.remove(key)?;
        self.used -= kept.cost;
        self.answers -= kept.answers.len();
        self.order.remove(&kept.generation);
        Some(kept)
    }

    /// Keeps `answers` under `key`, which holds none now, as the newest kept, the oldest kept
    /// answers out while all would hold more than `size` bytes.
    fn put(&mut self, key: &str, answers: Vec<Arc<Answer>>, size: u64) {
        let cost = answers.iter().map(|answer| answer.cost(key)).sum();
        while self.used + cost > size {
            let Some(oldest) = self.order.first_key_value().map(|(_, key)| key.clone()) else {
                break;
            };
            self.remove(&oldest);
        }
        self.generation += 1;
        self.used += cost;
        self.answers += answers.len();
        self.order.insert(self.generation, key.into());
        self.entries.insert(
            key.into(),
            Kept {
                answers,
                generation: self.generation,
                cost,
            },
        );
    }

    /// Takes out `key`'s answers that `drop` says, the rest kept where they were in the order.
    fn drop_answers(&mut self, key: &str, drop: impl Fn(&Answer) -> bool) {
        let Some(kept) = self.entries.get_mut(key) else {
            return;
        };
        let before = kept.answers.len();
        kept.answers.retain(|answer| !drop(answer));
        let dropped = before - kept.answers.len();
        if dropped == 0 {
            return;
        }
        // Counted out here: `remove` counts the answers left (none, when all went).
        self.answers -= dropped;
        if kept.answers.is_empty() {
            self.remove(key);
            return;
        }
        let cost: u64 = kept.answers.iter().map(|answer| answer.cost(key)).sum();
        self.used = self.used - kept.cost + cost;
        kept.cost = cost;
    }

    /// The newest of `key`'s answers that `request` fits (the headers its `Vary` names have
    /// the values of the request that filled it).
    fn fitting(&self, key: &str, request: &Headers) -> Option<&Arc<Answer>> {
        let kept = self.entries.get(key)?;
        kept.answers
            .iter()
            .rev()
            .find(|answer| answer.fits(request))
    }

    /// Forgets that `key`'s answer was not kept.
    fn unpass(&mut self, key: &str) {
        if self.passing.remove(key).is_some() {
            self.passing_bytes -= key.len();
        }
    }
}

struct Kept {
    /// Its variants, the newest filled last; one for an answer without `Vary`.
    answers: Vec<Arc<Answer>>,
    generation: u64,
    cost: u64,
}

/// The headers an answer's `Vary` names (lower case), each with the filling request's value.
type Varied = Box<[(Box<[u8]>, Box<[u8]>)]>;

/// A kept answer.
pub struct Answer {
    status: StatusCode,
    headers: Headers,
    body: Bytes,
    expires: Instant,
    /// Until when, expired, it is served while its key is updated (`UPDATING`), and when its
    /// upstream fails (`STALE`); both `expires` when it may not be.
    stale_updating: Instant,
    stale_error: Instant,
    /// The headers its `Vary` names, and the filling request's values of them.
    vary: Varied,
}

impl Answer {
    /// What it costs under `key`: its head, body, variant values and key, and the store's room.
    fn cost(&self, key: &str) -> u64 {
        let vary: usize = self
            .vary
            .iter()
            .map(|(name, value)| name.len() + value.len())
            .sum();
        ENTRY_COST
            + 2 * key.len() as u64
            + self.headers.written_len() as u64
            + self.body.len() as u64
            + vary as u64
    }

    /// Whether it is of no use any more, expired and past being served stale.
    fn spent(&self, now: Instant) -> bool {
        self.stale_updating.max(self.stale_error) <= now
    }

    /// Whether `request` has the values of the headers the answer's `Vary` names that the
    /// request that filled it had.
    fn fits(&self, request: &Headers) -> bool {
        self.vary
            .iter()
            .all(|(name, value)| request_value(request, name) == **value)
    }

    /// The answer for a client, its body shared with the kept one; or, for a `200` whose
    /// `ETag` the request's `If-None-Match` names (weakly), or without one whose
    /// `Last-Modified` its `If-Modified-Since` is, `304` with the validators and no body (as
    /// nginx answers from its cache; its `if_modified_since exact`).
    pub fn response_to(&self, request: &Headers) -> Response<Body> {
        if self.status == StatusCode::OK && self.not_modified(request) {
            let mut response = Response::new(Body::empty());
            *response.status_mut() = StatusCode::NOT_MODIFIED;
            let headers = response.headers_mut();
            for name in NOT_MODIFIED_KEEPS {
                for value in self.headers.get_all(name.as_str()) {
                    headers.append(name.as_str(), value);
                }
            }
            return response;
        }
        if self.status == StatusCode::OK {
            if let Some(range) = self.range(request) {
                return range;
            }
        }
        let mut response = Response::new(Body::full(self.body.clone()));
        *response.status_mut() = self.status;
        *response.headers_mut() = self.headers.clone();
        response
    }

    /// A kept `200`'s answer to a request's single byte `Range`, when its upstream said it
    /// takes ranges (`Accept-Ranges: bytes`; nginx cuts a range out of a kept answer only
    /// then, without `proxy_force_ranges`): `206` with those bytes, or `416` for a range past
    /// the end; `None` for the whole answer (no `Range`, one weir does not serve, an
    /// `If-Range` that names another answer, or an upstream that did not say so).
    fn range(&self, request: &Headers) -> Option<Response<Body>> {
        let range = text(request, header::RANGE)?;
        let ranges = self
            .headers
            .get_all(header::ACCEPT_RANGES.as_str())
            .any(|value| crate::header_list::has_item(value, b"bytes"));
        if !ranges {
            return None;
        }
        if let Some(if_range) = text(request, header::IF_RANGE) {
            let modified = text(&self.headers, header::LAST_MODIFIED)
                .and_then(|text| httpdate::parse_http_date(text).ok());
            let etag = text(&self.headers, header::ETAG);
            if !crate::static_files::if_range_current(if_range, etag, modified) {
                return None;
            }
        }
        let len = self.body.len() as u64;
        let (start, end) = match crate::static_files::parse_range(range, len) {
            crate::static_files::RangeSpec::Ignore => return None,
            crate::static_files::RangeSpec::Unsatisfiable => {
                let mut response = Response::new(Body::empty());
                *response.status_mut() = StatusCode::RANGE_NOT_SATISFIABLE;
                response.headers_mut().append(
                    header::CONTENT_RANGE.as_str(),
                    format!("bytes */{len}").as_bytes(),
                );
                return Some(response);
            }
            crate::static_files::RangeSpec::Bytes { start, end } => (start, end),
        };
        let mut response =
            Response::new(Body::full(self.body.slice(start as usize..=end as usize)));
        *response.status_mut() = StatusCode::PARTIAL_CONTENT;
        let headers = response.headers_mut();
        *headers = self.headers.clone();
        headers.remove(header::CONTENT_LENGTH.as_str());
        headers.append(
            header::CONTENT_RANGE.as_str(),
            format!("bytes {start}-{end}/{len}").as_bytes(),
        );
        Some(response)
    }

    fn not_modified(&self, request: &Headers) -> bool {
        if let Some(list) = text(request, header::IF_NONE_MATCH) {
            return text(&self.headers, header::ETAG).is_some_and(|etag| {
                let etag = etag.strip_prefix("W/").unwrap_or(etag);
                crate::static_files::etag_list_matches(list, etag, true)
            });
        }
        match (
            text(request, header::IF_MODIFIED_SINCE),
            text(&self.headers, header::LAST_MODIFIED),
        ) {
            (Some(since), Some(modified)) => {
                matches!(
                    (httpdate::parse_http_date(since), httpdate::parse_http_date(modified)),
                    (Ok(since), Ok(modified)) if since == modified
                )
            }
            _ => false,
        }
    }
}

/// A header's value as text ([`crate::head_view::text`]), trimmed; `None` when absent or not
/// text.
fn text(headers: &Headers, name: header::HeaderName) -> Option<&str> {
    headers
        .get(name.as_str())
        .and_then(crate::head_view::text)
        .map(str::trim)
}

/// The headers a `304` from the cache keeps of its answer's.
const NOT_MODIFIED_KEEPS: [header::HeaderName; 6] = [
    header::ETAG,
    header::LAST_MODIFIED,
    header::CACHE_CONTROL,
    header::EXPIRES,
    header::VARY,
    header::DATE,
];

/// How long a route keeps an answer its upstream says nothing of (`cache`), and serves it
/// expired (`cache_stale`).
#[derive(Debug, Clone, Copy)]
pub struct Times {
    pub valid: Duration,
    pub stale: Duration,
}

/// What a request finds.
pub enum Found {
    /// A kept answer.
    Hit(Arc<Answer>),
    /// An expired answer that may be served while another request updates it.
    Updating(Arc<Answer>),
    /// Nothing kept: this request goes upstream and its answer fills the key.
    Fill(Filler),
    /// Another request is filling the key: wait for it (see [`Cache::find`]).
    Wait(watch::Receiver<()>),
    /// The request goes upstream and keeps nothing.
    Pass,
}

impl Cache {
    pub fn new(size: u64, most: u64) -> Cache {
        Cache {
            store: Mutex::new(Store::default()),
            size,
            most,
            filling: AtomicU64::new(0),
            counted: Default::default(),
        }
    }

    /// Counts a request the cache answered with `status`, one of [`STATUSES`].
    pub fn count(&self, status: &str) {
        if let Some(index) = STATUSES.iter().position(|known| *known == status) {
            self.counted[index].fetch_add(1, Ordering::Relaxed);
        }
    }

    /// The figures `/metrics` shows.
    pub fn stats(&self) -> CacheStats {
        let (kept_bytes, kept) = {
            let store = self.store();
            (store.used, store.answers)
        };
        CacheStats {
            kept_bytes,
            kept,
            filling_bytes: self.filling.load(Ordering::Relaxed),
            counted: self
                .counted
                .each_ref()
                .map(|count| count.load(Ordering::Relaxed)),
        }
    }

    /// Takes `bytes` more for an answer being filled, if all fit within `cache_size`.
    fn take_filling(&self, bytes: u64) -> bool {
        self.filling
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |held| {
                (held + bytes <= self.size).then_some(held + bytes)
            })
            .is_ok()
    }

    fn give_filling(&self, bytes: u64) {
        self.filling.fetch_sub(bytes, Ordering::AcqRel);
    }

    fn store(&self) -> MutexGuard<'_, Store> {
        self.store
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The kept answer for `key`, or the request's part in filling it: a request that may fill
    /// (`fill`: a `GET`) and finds nothing fills it, unless another is filling it (then it
    /// waits, [`Cache::find_after_wait`], or gets the expired answer while it may be served
    /// updating) or the key's answer was not kept lately.
    /// The answer is the newest variant the request fits (see [`Answer::fits`]): with none, a
    /// request that may fill fills the key again, its variant added to the key's.
    pub fn find(self: &Arc<Self>, key: &str, fill: bool, times: Times, request: &Headers) -> Found {
        let now = Instant::now();
        let mut store = self.store();
        let mut expired = false;
        // The expired answer that may still be served.
        let mut stale = None;
        if let Some(answer) = store.fitting(key, request) {
            if answer.expires > now {
                return Found::Hit(Arc::clone(answer));
            }
            expired = true;
            if answer.spent(now) {
                store.drop_answers(key, |answer| answer.spent(now));
            } else {
                stale = Some(Arc::clone(answer));
            }
        }
        let updating = stale
            .as_ref()
            .filter(|stale| stale.stale_updating > now && store.filling.contains_key(key));
        if let Some(updating) = updating {
            return Found::Updating(Arc::clone(updating));
        }
        if !fill {
            return Found::Pass;
        }
        match store.passing.get(key) {
            Some(until) if *until > now => return Found::Pass,
            Some(_) => store.unpass(key),
            None => {}
        }
        if let Some(filling) = store.filling.get(key) {
            return Found::Wait(filling.clone());
        }
        let (done, watched) = watch::channel(());
        store.filling.insert(key.into(), watched);
        Found::Fill(Filler {
            cache: Arc::clone(self),
            key: key.into(),
            times,
            expired,
            stale,
            request: request.clone(),
            _done: done,
        })
    }

    /// What a request finds once it waited (up to `until`, [`LOCK_WAIT`] after its first wait)
    /// for another to fill its key, with its `$upstream_cache_status`: the answer that one kept
    /// (`HIT`), or the expired one when that one's upstream failed (`STALE`) or it is still at
    /// it (`UPDATING`); `None`: nothing it fits (it looks again, or goes upstream and keeps
    /// nothing past `until`).
    pub async fn find_after_wait(
        self: &Arc<Self>,
        key: &str,
        mut filling: watch::Receiver<()>,
        request: &Headers,
        until: Instant,
    ) -> Option<(Arc<Answer>, &'static str)> {
        // The filler never sends: `changed` ends when it is dropped, its answer kept or not.
        let _ = tokio::time::timeout_at(until, filling.changed()).await;
        let now = Instant::now();
        let store = self.store();
        let answer = store.fitting(key, request)?;
        let status = if answer.expires > now {
            "HIT"
        } else if store.filling.contains_key(key) && answer.stale_updating > now {
            "UPDATING"
        } else if answer.stale_error > now && !store.passing.contains_key(key) {
            // Its filler kept nothing, and let it pass for a while, when its upstream answered
            // what is not kept: then the key's requests go upstream.
            "STALE"
        } else {
            return None;
        };
        Some((Arc::clone(answer), status))
    }

    /// Keeps `answer` under `key`, in place of the key's answer for the same variant (and of
    /// those spent), the oldest variant out past [`MOST_VARIANTS`], and the oldest kept
    /// answers out while all would hold more than `cache_size`.
    fn keep(&self, key: &str, answer: Answer) {
        let now = Instant::now();
        let mut store = self.store();
        let mut answers: Vec<Arc<Answer>> = store
            .remove(key)
            .map(|kept| kept.answers)
            .unwrap_or_default();
        // An answer without `Vary` is every request's: the variants before it go.
        answers.retain(|old| !answer.vary.is_empty() && old.vary != answer.vary && !old.spent(now));
        if answers.len() >= MOST_VARIANTS {
            answers.drain(..=answers.len() - MOST_VARIANTS);
        }
        answers.push(Arc::new(answer));
        store.put(key, answers, self.size);
    }

    /// The bytes the kept answers hold, and how many there are.
    #[cfg(test)]
    fn used(&self) -> (u64, usize) {
        let stats = self.stats();
        (stats.kept_bytes, stats.kept)
    }
}

tokio::task_local! {
    /// The filler of an update weir makes in the background (`cache_background_update`): the
    /// proxy's request for it fills the key with it, and is neither limited (its client's
    /// request was) nor written to the access log (nginx's `log_subrequest off`).
    static UPDATING: std::cell::RefCell<Option<Filler>>;
}

/// The updates weir makes in the background now: while there is none, no request is one, and
/// [`updating_in_background`] costs a load.
static IN_BACKGROUND: AtomicUsize = AtomicUsize::new(0);

/// Counts an update in [`IN_BACKGROUND`] while its task lives.
struct InBackground;

impl Drop for InBackground {
    fn drop(&mut self) {
        IN_BACKGROUND.fetch_sub(1, Ordering::Relaxed);
    }
}

/// `update`, the task of an update weir makes in the background, whose request fills the key
/// with `filler`.
pub fn in_background<F: std::future::Future>(
    filler: Filler,
    update: F,
) -> impl std::future::Future<Output = F::Output> {
    IN_BACKGROUND.fetch_add(1, Ordering::Relaxed);
    let counted = InBackground;
    UPDATING.scope(std::cell::RefCell::new(Some(filler)), async move {
        let _counted = counted;
        update.await
    })
}

/// Whether the request at hand is an update weir makes in the background.
pub fn updating_in_background() -> bool {
    IN_BACKGROUND.load(Ordering::Relaxed) != 0 && UPDATING.try_with(|_| ()).is_ok()
}

/// The filler of the update weir makes in the background, taken (once).
pub fn background_filler() -> Option<Filler> {
    UPDATING
        .try_with(|filler| filler.borrow_mut().take())
        .ok()
        .flatten()
}

/// A request's part in filling its key: its answer is kept ([`filling`]) or not
/// ([`Filler::pass`]); dropped either way, the requests waiting for it go on.
pub struct Filler {
    cache: Arc<Cache>,
    key: Box<str>,
    /// The route's `cache` and `cache_stale` times.
    times: Times,
    /// The key's answer was kept, and had expired (nginx's `EXPIRED`, not `MISS`).
    expired: bool,
    /// The expired answer, while it may still be served (for [`Filler::stale`]).
    stale: Option<Arc<Answer>>,
    /// The filling request's headers, for the values of those its answer's `Vary` names.
    request: Headers,
    /// Dropped with the filler: its waiters' `changed` ends.
    _done: watch::Sender<()>,
}

impl std::fmt::Debug for Filler {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter
            .debug_struct("Filler")
            .field("key", &self.key)
            .finish_non_exhaustive()
    }
}

impl Drop for Filler {
    fn drop(&mut self) {
        self.cache.store().filling.remove(&self.key);
    }
}

impl Filler {
    /// Whether the key's kept answer had expired (`$upstream_cache_status` `EXPIRED`).
    pub fn expired(&self) -> bool {
        self.expired
    }

    /// How long the answer with this status and these headers is kept, or `None` when it is
    /// not (see [the module](self)). Read before `X-Accel-Expires` is taken out.
    pub fn validity(
        &self,
        status: StatusCode,
        headers: &Headers,
        statuses: &[(u16, Duration)],
    ) -> Option<Duration> {
        validity(status, headers, self.times.valid, statuses)
    }

    /// The expired answer the request gets in place of its upstream's failure (`None`: no
    /// answer came) or of its `500`, `502`, `503` or `504` (`Some`), while it may be served
    /// so. The filler is dropped then, keeping nothing: its waiters get the same.
    pub fn stale(&self, status: Option<StatusCode>) -> Option<Response<Body>> {
        let failed = status.is_none_or(|status| matches!(status.as_u16(), 500 | 502 | 503 | 504));
        self.stale_until(|stale| stale.stale_error)
            .filter(|_| failed)
    }

    /// The expired answer the request gets while its update goes on without it
    /// (`cache_background_update`), while it may be served so (`cache_stale`, or the upstream's
    /// `stale-while-revalidate`).
    pub fn updating(&self) -> Option<Response<Body>> {
        self.stale_until(|stale| stale.stale_updating)
    }

    /// The expired answer for the request, while the time `until` gives it has not passed.
    fn stale_until(&self, until: impl Fn(&Answer) -> Instant) -> Option<Response<Body>> {
        self.stale
            .as_ref()
            .filter(|stale| until(stale) > Instant::now())
            .map(|stale| stale.response_to(&self.request))
    }

    /// The answer is not kept: the key's requests pass for a while, without waiting, and the
    /// expired answer the request fits is served no more.
    pub fn pass(self) {
        let now = Instant::now();
        let until = now + self.times.valid.clamp(Duration::from_secs(1), PASS_MOST);
        let mut store = self.cache.store();
        store.drop_answers(&self.key, |answer| {
            answer.expires <= now && answer.fits(&self.request)
        });
        let key = self.key.len();
        if store.passing_bytes + key > PASSING_MOST {
            let now = Instant::now();
            store.passing.retain(|_, until| *until > now);
            store.passing_bytes = store.passing.keys().map(|key| key.len()).sum();
        }
        if store.passing_bytes + key <= PASSING_MOST {
            store.unpass(&self.key);
            store.passing.insert(self.key.clone(), until);
            store.passing_bytes += key;
        }
    }
}

/// How long an answer is kept: the upstream's `X-Accel-Expires`, else its `Cache-Control`, else
/// the time `statuses` (`cache_statuses`) gives its status, else `valid` for a `200`, `301` or
/// `302`; `None` when it is not kept (another status, none of these said).
pub fn validity(
    status: StatusCode,
    headers: &Headers,
    valid: Duration,
    statuses: &[(u16, Duration)],
) -> Option<Duration> {
    let vary_all = headers
        .get_all(header::VARY)
        .flat_map(|value| value.split(|&byte| byte == b','))
        .any(|name| name.trim_ascii() == b"*");
    let listed = statuses
        .iter()
        .find(|(code, _)| *code == status.as_u16())
        .map(|(_, time)| *time);
    let valid = match listed {
        Some(time) => time,
        None if matches!(status.as_u16(), 200 | 301 | 302) => valid,
        None => return None,
    };
    if headers.contains(header::SET_COOKIE) || vary_all {
        return None;
    }
    let said = if let Some(expires) = headers.get("x-accel-expires") {
        // `@N` (a time of day) is not read: the rest of the answer's headers say.
        seconds(expires).map(Duration::from_secs)
    } else {
        None
    };
    let said = match said {
        Some(said) => Some(said),
        None => {
            let mut max_age = None;
            let mut s_maxage = None;
            for (name, argument) in cache_control(headers) {
                if name.eq_ignore_ascii_case(b"no-store")
                    || name.eq_ignore_ascii_case(b"no-cache")
                    || name.eq_ignore_ascii_case(b"private")
                {
                    return None;
                }
                if name.eq_ignore_ascii_case(b"s-maxage") {
                    s_maxage = s_maxage.or(argument);
                } else if name.eq_ignore_ascii_case(b"max-age") {
                    max_age = max_age.or(argument);
                }
            }
            s_maxage.or(max_age).map(Duration::from_secs)
        }
    };
    match said {
        Some(said) if said.is_zero() => None,
        Some(said) => Some(said.min(LONGEST)),
        None if valid.is_zero() => None,
        None => Some(valid),
    }
}

/// The upstream's `Cache-Control` extensions `stale-while-revalidate` and `stale-if-error`, in
/// seconds (nginx honours them too, below its `proxy_cache_use_stale`).
fn stale_said(headers: &Headers) -> (Duration, Duration) {
    let mut said = (Duration::ZERO, Duration::ZERO);
    for (name, argument) in cache_control(headers) {
        let Some(seconds) = argument.map(|seconds| Duration::from_secs(seconds).min(LONGEST))
        else {
            continue;
        };
        if name.eq_ignore_ascii_case(b"stale-while-revalidate") {
            said.0 = said.0.max(seconds);
        } else if name.eq_ignore_ascii_case(b"stale-if-error") {
            said.1 = said.1.max(seconds);
        }
    }
    said
}

/// The directives of an answer's `Cache-Control` lines, each name with its argument when that
/// is a number of seconds (`max-age=60`).
fn cache_control(headers: &Headers) -> impl Iterator<Item = (&[u8], Option<u64>)> {
    headers
        .get_all(header::CACHE_CONTROL)
        .flat_map(|value| value.split(|&byte| byte == b','))
        .map(|directive| {
            let directive = directive.trim_ascii();
            match directive.iter().position(|&byte| byte == b'=') {
                Some(at) => (directive[..at].trim_ascii(), seconds(&directive[at + 1..])),
                None => (directive, None),
            }
        })
}

/// A header value's whole number, spaces around it allowed.
fn seconds(text: &[u8]) -> Option<u64> {
    std::str::from_utf8(text).ok()?.trim().parse().ok()
}

/// Takes a filling request's conditions and range out (nginx's `proxy_cache` does): the app's
/// whole answer is what is kept.
pub fn drop_conditions(headers: &mut Headers) {
    for condition in [
        header::IF_MODIFIED_SINCE,
        header::IF_UNMODIFIED_SINCE,
        header::IF_NONE_MATCH,
        header::IF_MATCH,
        header::RANGE,
        header::IF_RANGE,
    ] {
        headers.remove(condition.as_str());
    }
}

/// A request's values of the header `name`, joined by `, ` (empty when it has none).
fn request_value(request: &Headers, name: &[u8]) -> Vec<u8> {
    let mut value = Vec::new();
    request.append_joined(name, &mut value);
    value
}

/// The head a kept answer gives: its own fields, copied out of the upstream's head bytes (which
/// hold more than the fields).
pub fn kept_headers(headers: &Headers) -> Headers {
    let mut kept = Headers::default();
    for (name, value) in headers.iter() {
        kept.append(name, value);
    }
    kept
}

/// `body`, whose bytes, once all came, are kept under the filler's key for `valid` with
/// `status` and `headers`; past `cache_max_answer` bytes, or broken off, nothing is kept.
pub fn filling(
    body: Body,
    filler: Filler,
    status: StatusCode,
    headers: Headers,
    valid: Duration,
) -> Body {
    let too_long = http_body::Body::size_hint(&body).lower() > filler.cache.most;
    if too_long {
        filler.pass();
        return body;
    }
    let vary = headers
        .get_all(header::VARY)
        .flat_map(|value| value.split(|&byte| byte == b','))
        .map(<[u8]>::trim_ascii)
        .filter(|name| !name.is_empty())
        .map(|name| {
            let name = name.to_ascii_lowercase();
            let value = request_value(&filler.request, &name);
            (name.into_boxed_slice(), value.into_boxed_slice())
        })
        .collect();
    let expires = Instant::now() + valid;
    let (while_revalidate, if_error) = stale_said(&headers);
    let stale = filler.times.stale;
    let mut filling = Filling {
        body,
        filler: Some(filler),
        status,
        headers,
        expires,
        stale_updating: expires + stale.max(while_revalidate),
        stale_error: expires + stale.max(if_error),
        bytes: BytesMut::new(),
        vary,
    };
    // A body with nothing to read (a redirect's) may never be polled: kept now.
    if http_body::Body::is_end_stream(&filling.body) {
        filling.keep();
        return std::mem::replace(&mut filling.body, Body::empty());
    }
    Body::boxed(filling)
}

struct Filling {
    body: Body,
    filler: Option<Filler>,
    status: StatusCode,
    headers: Headers,
    expires: Instant,
    stale_updating: Instant,
    stale_error: Instant,
    bytes: BytesMut,
    vary: Varied,
}

impl Drop for Filling {
    fn drop(&mut self) {
        drop(self.let_go());
    }
}

impl Filling {
    /// Nothing is kept: the bytes held go back, and the filler, if it was still held, comes
    /// out (dropped, its waiters go on).
    fn let_go(&mut self) -> Option<Filler> {
        let filler = self.filler.take()?;
        filler.cache.give_filling(self.bytes.len() as u64);
        self.bytes = BytesMut::new();
        Some(filler)
    }

    fn keep(&mut self) {
        if let Some(filler) = self.filler.take() {
            filler.cache.give_filling(self.bytes.len() as u64);
            let answer = Answer {
                status: self.status,
                headers: std::mem::take(&mut self.headers),
                body: std::mem::take(&mut self.bytes).freeze(),
                expires: self.expires,
                stale_updating: self.stale_updating,
                stale_error: self.stale_error,
                vary: std::mem::take(&mut self.vary),
            };
            filler.cache.keep(&filler.key, answer);
        }
    }
}

impl http_body::Body for Filling {
    type Data = Bytes;
    type Error = BoxError;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        context: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, BoxError>>> {
        let this = &mut *self;
        let frame = ready!(Pin::new(&mut this.body).poll_frame(context));
        match &frame {
            Some(Ok(frame)) => {
                if let (Some(data), Some(filler)) = (frame.data_ref(), this.filler.as_ref()) {
                    let more = data.len() as u64;
                    if this.bytes.len() as u64 + more > filler.cache.most {
                        // Too long to keep: its requests pass for a while.
                        if let Some(filler) = this.let_go() {
                            filler.pass();
                        }
                    } else if filler.cache.take_filling(more) {
                        this.bytes.extend_from_slice(data);
                    } else {
                        // Too many answers being filled at once: this one is not kept.
                        drop(this.let_go());
                    }
                }
                // A writer may stop asking once the body says it is done.
                if http_body::Body::is_end_stream(&this.body) {
                    this.keep();
                }
            }
            // Broken off: nothing kept.
            Some(Err(_)) => drop(this.let_go()),
            None => this.keep(),
        }
        Poll::Ready(frame)
    }

    fn is_end_stream(&self) -> bool {
        http_body::Body::is_end_stream(&self.body)
    }

    fn size_hint(&self) -> SizeHint {
        http_body::Body::size_hint(&self.body)
    }
}

#[cfg(test)]
mod tests;
