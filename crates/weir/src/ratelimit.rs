//! Rate limiting: keys in, decisions out; nothing here knows HTTP. A [`Limiter`] is one
//! `[limits.NAME]` table (nginx `limit_req_zone` + `limit_req`); [`Limiters`] is the ordered set a
//! route applies, checked all-or-none as nginx does: if any limit rejects, none is charged; if all
//! pass, all are charged and the longest delay wins. An empty key skips its limit.
//!
//! The arithmetic is GCRA (`gcra.rs`), identical to nginx's `limit_req` apart from nginx's integer
//! rounding, which `nginx_rounding` reproduces. State lives in a sharded in-memory table
//! (`memory.rs`) or in Redis (`redis.rs`). The memory path is synchronous and bounded: no await, no
//! lock held across one, no work that grows with the number of keys. A Redis limit needs a round
//! trip unless its key sits in the local "blocked until" cache or Redis is known to be down;
//! [`Limiters::try_check`] answers without awaiting whenever no round trip is needed, so the
//! proxy's 429 path stays synchronous, and [`Limiters::check`] does the rest.
//!
//! The proxy builds the key bytes (client address, path, header values) in the order of
//! [`crate::config::LimitConfig::key`], and turns decisions into statuses and headers. A limit never stores them: it stores a 128-bit keyed hash of them
//! (`StoredKey`), so a key costs the same whatever its source (a 32 KiB header value costs what
//! a 4-byte address costs) and fits inline in its slot. Memory limits hash with a key drawn at
//! random once per process; Redis limits with a key derived from the limit's name and Redis URL,
//! so every weir instance sharing the config, and so the Redis keys, agrees.

mod conn;
mod gcra;
mod memory;
mod redis;
#[cfg(test)]
mod tests;

use std::net::{IpAddr, Ipv6Addr};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use siphasher::sip128::SipHasher13;

use tokio::time::Instant;

pub use self::conn::{ConnLimit, ConnLimitStats, ConnSlot, Places};
use self::gcra::{nanos, Gcra, Verdict};
use self::memory::{Count, KeyHash, Locked, Table};
use self::redis::RedisBackend;
use crate::config::{LimitBackend, LimiterConfig, OnRedisError};

/// A limit could not be built from its configuration.
#[derive(Debug, thiserror::Error)]
pub enum LimitError {
    #[error("limit {name:?}: invalid redis URL {url:?}: {source}")]
    RedisUrl {
        name: String,
        url: String,
        #[source]
        source: ::redis::RedisError,
    },
}

/// What the proxy does with a request, in nginx's `$limit_req_status` vocabulary.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// Forward now.
    Passed,
    /// Wait this long, then forward (the charge is already made).
    Delayed(Duration),
    /// Answer with the limit's status; nothing was charged.
    Rejected,
    /// A dry-run limit would have delayed: forward now.
    DelayedDryRun(Duration),
    /// A dry-run limit would have rejected: forward now.
    RejectedDryRun,
}

impl Outcome {
    /// nginx's `$limit_req_status` value.
    pub fn as_str(&self) -> &'static str {
        match self {
            Outcome::Passed => "PASSED",
            Outcome::Delayed(_) => "DELAYED",
            Outcome::Rejected => "REJECTED",
            Outcome::DelayedDryRun(_) => "DELAYED_DRY_RUN",
            Outcome::RejectedDryRun => "REJECTED_DRY_RUN",
        }
    }
}

/// The answer for one request, with the numbers of the limit that decided it for the headers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Decision {
    pub outcome: Outcome,
    /// Index, in the [`Limiters`] set, of the limit the numbers below describe: on a rejection the
    /// rejecting limit with the longest `retry_after`; on a delay the longest delay; otherwise the
    /// limit with the fewest requests remaining. `None` when no limit applied (every key empty, or
    /// Redis failed with `on_redis_error = "allow"`); the numbers are then zero.
    pub limit: Option<usize>,
    /// Requests admitted back to back from an idle key, `burst + 1` (draft-10 `q`).
    pub quota: u64,
    /// Time a full quota takes to come back, `quota / rate` (draft-10 `w`).
    pub window: Duration,
    /// Requests that could still pass back to back after this one (draft-10 `r`).
    pub remaining: u64,
    /// Time until one more request of quota comes back, zero when the quota is full (draft-10 `t`).
    pub replenish_after: Duration,
    /// Time until the whole quota is back (legacy `X-RateLimit-Reset`).
    pub reset_after: Duration,
    /// On a rejection (real or dry-run), the exact time after which the same request passes;
    /// never zero. Round it up to whole seconds for `Retry-After`.
    pub retry_after: Option<Duration>,
}

impl Decision {
    /// A request no limit applied to.
    const UNLIMITED: Decision = Decision {
        outcome: Outcome::Passed,
        limit: None,
        quota: 0,
        window: Duration::ZERO,
        remaining: 0,
        replenish_after: Duration::ZERO,
        reset_after: Duration::ZERO,
        retry_after: None,
    };

    /// Whether the proxy must answer with the limit's status instead of forwarding.
    pub fn is_rejected(&self) -> bool {
        self.outcome == Outcome::Rejected
    }

    /// How long the proxy must wait before forwarding, if at all.
    pub fn delay(&self) -> Option<Duration> {
        match self.outcome {
            Outcome::Delayed(delay) => Some(delay),
            _ => None,
        }
    }
}

/// Decision counts and state sizes of one limit, for metrics.
///
/// Each request a limit applies to counts once: `passed`, `delayed` or `dry_run` (a dry-run
/// limit's would-be delay or rejection) when the request goes through; `rejected` when this limit
/// rejected it. A limit that would have passed a request another limit rejected counts nothing.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LimitStats {
    pub passed: u64,
    pub delayed: u64,
    pub rejected: u64,
    pub dry_run: u64,
    /// Script calls made to Redis (charges and refunds); zero for memory limits.
    pub redis_calls: u64,
    /// Redis calls that failed or timed out.
    pub redis_errors: u64,
    /// Keys held in memory: the table, or for Redis limits the blocked cache and local fallback.
    pub keys: usize,
}

/// One `[limits.NAME]`.
pub struct Limiter {
    name: Arc<str>,
    config: LimiterConfig,
    /// Unique across the process: locks of several limits are always taken in this order.
    id: u64,
    gcra: Gcra,
    /// Turns key bytes into the [`StoredKey`] this limit keeps.
    hasher: KeyHasher,
    /// Zero of the nanosecond clock the tables store TATs on.
    epoch: Instant,
    store: Store,
    counters: Counters,
}

enum Store {
    Memory(Table),
    Redis(Box<RedisBackend>),
}

impl std::fmt::Debug for Limiter {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter
            .debug_struct("Limiter")
            .field("name", &self.name)
            .field("gcra", &self.gcra)
            .finish_non_exhaustive()
    }
}

static NEXT_LIMITER_ID: AtomicU64 = AtomicU64::new(0);

impl Limiter {
    /// Builds a limit. A Redis limit parses its URL now and connects on first use.
    pub fn new(name: &str, config: &LimiterConfig) -> Result<Limiter, LimitError> {
        let gcra = Gcra::from_config(config);
        let hasher = match &config.backend {
            LimitBackend::Memory => KeyHasher::per_process(),
            LimitBackend::Redis(redis) => KeyHasher::derived(name, &redis.url),
        };
        let store = match &config.backend {
            LimitBackend::Memory => Store::Memory(Table::new(config.max_keys)),
            LimitBackend::Redis(redis) => {
                let backend =
                    RedisBackend::new(name, redis, &gcra, config.max_keys).map_err(|source| {
                        LimitError::RedisUrl {
                            name: name.to_string(),
                            url: redis.url.clone(),
                            source,
                        }
                    })?;
                Store::Redis(Box::new(backend))
            }
        };
        Ok(Limiter {
            name: name.into(),
            config: config.clone(),
            id: NEXT_LIMITER_ID.fetch_add(1, Ordering::Relaxed),
            gcra,
            hasher,
            epoch: Instant::now(),
            store,
            counters: Counters::default(),
        })
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    pub fn config(&self) -> &LimiterConfig {
        &self.config
    }

    /// Whether checks of this limit may need a Redis round trip.
    pub fn is_redis(&self) -> bool {
        matches!(self.store, Store::Redis(_))
    }

    pub fn stats(&self) -> LimitStats {
        let mut stats = self.counters.sum();
        match &self.store {
            Store::Memory(table) => {
                let counts = table.counts();
                stats.passed += counts[Count::Passed as usize];
                stats.delayed += counts[Count::Delayed as usize];
                stats.rejected += counts[Count::Rejected as usize];
                stats.dry_run += counts[Count::DryRun as usize];
                stats.keys = table.len();
            }
            Store::Redis(backend) => {
                stats.redis_calls = backend.calls.load(Ordering::Relaxed);
                stats.redis_errors = backend.errors.load(Ordering::Relaxed);
                stats.keys =
                    backend.blocked.len() + backend.fallback.as_ref().map_or(0, Table::len);
            }
        }
        stats
    }

    /// Drops keys whose state has drained (they read the same as absent ones) and returns memory
    /// to the allocator. Its work grows with the number of keys, one shard locked at a time: run
    /// it from a timer (nginx reclaims keys idle for 60 s), never on the request path. Returns
    /// the number of keys dropped.
    pub fn reclaim_idle(&self) -> usize {
        let now = self.now_nanos(Instant::now());
        match &self.store {
            Store::Memory(table) => table.reclaim_idle(now),
            Store::Redis(backend) => {
                backend.blocked.reclaim_idle(now)
                    + backend
                        .fallback
                        .as_ref()
                        .map_or(0, |table| table.reclaim_idle(now))
            }
        }
    }

    /// Heap bytes of the in-memory state: slot arrays, hash indexes and keys longer than 22
    /// bytes. Walks every key, so it is for reports and tests, not for each metrics scrape.
    pub fn memory_bytes(&self) -> usize {
        match &self.store {
            Store::Memory(table) => table.heap_bytes(),
            Store::Redis(backend) => {
                backend.blocked.heap_bytes()
                    + backend.fallback.as_ref().map_or(0, Table::heap_bytes)
            }
        }
    }

    /// What this limit stores for `key`: its keyed hash, or nothing for an empty key.
    fn stored_key(&self, key: &[u8]) -> StoredKey {
        if key.is_empty() {
            StoredKey::NONE
        } else {
            self.hasher.hash(key)
        }
    }

    fn now_nanos(&self, now: Instant) -> u64 {
        let elapsed = now.saturating_duration_since(self.epoch).as_nanos();
        u64::try_from(elapsed).unwrap_or(u64::MAX)
    }

    /// What checking `key` takes on this request, deciding on the spot where no lock is needed.
    fn plan(&self, key: &[u8], now: u64) -> Plan {
        if key.is_empty() {
            return Plan::Skip;
        }
        match &self.store {
            Store::Memory(table) => Plan::memory(table, key, false),
            Store::Redis(backend) => {
                if backend.is_down(now) {
                    return self.plan_without_redis(backend, key);
                }
                let ahead = backend.blocked.tat(key).saturating_sub(now);
                if ahead > 0 {
                    let verdict = self.gcra.decide(ahead, 1);
                    if !verdict.allowed {
                        return Plan::Known(verdict);
                    }
                }
                Plan::Redis
            }
        }
    }

    /// `on_redis_error` applied to one key.
    fn plan_without_redis(&self, backend: &RedisBackend, key: &[u8]) -> Plan {
        match (&backend.on_error, &backend.fallback) {
            (OnRedisError::Local, Some(fallback)) => Plan::memory(fallback, key, true),
            (OnRedisError::Deny, _) => Plan::Known(self.gcra.decide(self.gcra.window(), 1)),
            (OnRedisError::Allow | OnRedisError::Local, _) => Plan::Skip,
        }
    }

    /// The table a memory plan reads: the limit's own, or the Redis limit's local fallback.
    fn table(&self, fallback: bool) -> Option<&Table> {
        match (&self.store, fallback) {
            (Store::Memory(table), false) => Some(table),
            (Store::Redis(backend), true) => backend.fallback.as_ref(),
            _ => None,
        }
    }
}

/// How one limit is checked on one request.
#[derive(Debug, Clone, Copy)]
enum Plan {
    /// The limit does not apply.
    Skip,
    /// Under a lock of the limit's table (`fallback`: the Redis limit's local table).
    Memory { hash: KeyHash, fallback: bool },
    /// Decided without a lock: a key in the blocked cache, or Redis down with `deny`.
    Known(Verdict),
    /// A Redis round trip.
    Redis,
}

impl Plan {
    fn memory(table: &Table, key: &[u8], fallback: bool) -> Plan {
        Plan::Memory {
            hash: table.hash(key),
            fallback,
        }
    }
}

/// One limit's part in one request.
struct Entry<'set> {
    /// Position in the set, reported as [`Decision::limit`].
    position: usize,
    limiter: &'set Limiter,
    key: StoredKey,
    /// Now on this limiter's clock.
    now: u64,
    plan: Plan,
    verdict: Option<Verdict>,
    /// Redis charged this key during the request, so a later rejection must give it back.
    charged_in_redis: bool,
}

impl Entry<'_> {
    fn rejects(&self) -> bool {
        matches!(self.verdict, Some(verdict) if !verdict.allowed && !self.limiter.config.dry_run)
    }
}

/// The limits one route applies, in the route's order.
#[derive(Debug, Clone)]
pub struct Limiters {
    limiters: Vec<Arc<Limiter>>,
}

impl Limiters {
    pub fn new(limiters: Vec<Arc<Limiter>>) -> Limiters {
        Limiters { limiters }
    }

    pub fn len(&self) -> usize {
        self.limiters.len()
    }

    pub fn is_empty(&self) -> bool {
        self.limiters.is_empty()
    }

    /// The limit at `index`, as reported by [`Decision::limit`].
    pub fn get(&self, index: usize) -> Option<&Arc<Limiter>> {
        self.limiters.get(index)
    }

    pub fn iter(&self) -> impl Iterator<Item = &Arc<Limiter>> {
        self.limiters.iter()
    }

    /// Checks and charges one request without awaiting. `keys[i]` is the key for limit `i`; an
    /// empty or missing key skips that limit. Returns `None`, having charged nothing, when a Redis
    /// round trip is needed: then call [`Limiters::check`].
    pub fn try_check(&self, keys: &[&[u8]]) -> Option<Decision> {
        self.try_check_at(keys, Instant::now())
    }

    /// Checks and charges one request, asking Redis where needed.
    pub async fn check(&self, keys: &[&[u8]]) -> Decision {
        let now = Instant::now();
        if let Some(decision) = self.try_check_at(keys, now) {
            return decision;
        }
        self.check_remote(keys, now).await
    }

    fn entries<'set>(&'set self, keys: &[&[u8]], now: Instant) -> Vec<Entry<'set>> {
        self.limiters
            .iter()
            .enumerate()
            .map(|(position, limiter)| {
                let key = limiter.stored_key(keys.get(position).copied().unwrap_or_default());
                let now = limiter.now_nanos(now);
                Entry {
                    position,
                    limiter,
                    key,
                    now,
                    plan: limiter.plan(key.as_bytes(), now),
                    verdict: None,
                    charged_in_redis: false,
                }
            })
            .collect()
    }

    /// [`Limiters::try_check`] at a given instant, for a caller that already read the clock for
    /// this request (the clock read is a third of a decision's cost).
    pub fn try_check_at(&self, keys: &[&[u8]], now: Instant) -> Option<Decision> {
        if let [limiter] = self.limiters.as_slice() {
            if let Store::Memory(table) = &limiter.store {
                let key = keys.first().copied().unwrap_or_default();
                return Some(check_one_in_memory(limiter, table, key, now));
            }
        }
        let mut entries = self.entries(keys, now);
        for entry in &mut entries {
            if let Plan::Known(verdict) = entry.plan {
                entry.verdict = Some(verdict);
            }
        }
        if entries.iter().any(Entry::rejects) {
            return Some(finish(&entries, false));
        }
        let needs_redis = entries
            .iter()
            .any(|entry| matches!(entry.plan, Plan::Redis));
        let committed = check_in_memory(&mut entries, !needs_redis);
        if !committed {
            return Some(finish(&entries, false));
        }
        if needs_redis {
            return None;
        }
        Some(finish(&entries, true))
    }

    async fn check_remote(&self, keys: &[&[u8]], now: Instant) -> Decision {
        let mut entries = self.entries(keys, now);
        for entry in &mut entries {
            if let Plan::Known(verdict) = entry.plan {
                entry.verdict = Some(verdict);
            }
        }
        if entries.iter().any(Entry::rejects) {
            return finish(&entries, false);
        }
        for entry in &mut entries {
            if !matches!(entry.plan, Plan::Redis) {
                continue;
            }
            let Store::Redis(backend) = &entry.limiter.store else {
                continue;
            };
            let gcra = entry.limiter.gcra;
            match backend.call(entry.key.as_bytes(), 1, entry.now).await {
                Ok(answer) => {
                    let verdict = gcra.decide_as(answer.ahead, answer.allowed);
                    if answer.allowed {
                        entry.charged_in_redis = true;
                    } else {
                        let tat = entry.now.saturating_add(answer.ahead);
                        backend.blocked.set(entry.key.as_bytes(), tat, entry.now);
                    }
                    entry.verdict = Some(verdict);
                    if entry.rejects() {
                        break;
                    }
                }
                Err(error) => {
                    tracing::debug!(limit = %entry.limiter.name, %error, "redis rate-limit call failed");
                    entry.plan = entry
                        .limiter
                        .plan_without_redis(backend, entry.key.as_bytes());
                    if let Plan::Known(verdict) = entry.plan {
                        entry.verdict = Some(verdict);
                        if entry.rejects() {
                            break;
                        }
                    }
                }
            }
        }
        let committed = !entries.iter().any(Entry::rejects) && check_in_memory(&mut entries, true);
        if !committed {
            self.refund_redis(&entries);
        }
        finish(&entries, committed)
    }

    /// Gives back the charge of a request that passed or was delayed but never reached the
    /// upstream, typically a client that disconnected during its delay, so its place goes to the
    /// next request as nginx's does. `keys` are the ones the request was checked with. Memory
    /// limits are refunded at once, Redis limits in the background (this needs the Tokio runtime
    /// when a Redis limit applies). A dry-run limit that would have rejected the request charged
    /// nothing, yet is refunded too: at most one request's worth of leniency, never below idle.
    pub fn refund(&self, keys: &[&[u8]]) {
        let now = Instant::now();
        for (position, limiter) in self.limiters.iter().enumerate() {
            let stored = limiter.stored_key(keys.get(position).copied().unwrap_or_default());
            let key = stored.as_bytes();
            if key.is_empty() {
                continue;
            }
            let now = limiter.now_nanos(now);
            let period = limiter.gcra.period();
            match &limiter.store {
                Store::Memory(table) => table.refund(key, period, now),
                Store::Redis(backend) => {
                    if let Some(fallback) = &backend.fallback {
                        fallback.refund(key, period, now);
                    }
                    backend.blocked.refund(key, period, now);
                    let limiter = Arc::clone(limiter);
                    let key = key.to_vec();
                    tokio::spawn(async move {
                        if let Store::Redis(backend) = &limiter.store {
                            // A refund that fails only leaves the key charged once too often.
                            let _ = backend.call(&key, -1, now).await;
                        }
                    });
                }
            }
        }
    }

    /// Gives back the Redis charges of a request that another limit rejected, in the background
    /// so the rejection is not held up by it.
    fn refund_redis(&self, entries: &[Entry<'_>]) {
        for entry in entries.iter().filter(|entry| entry.charged_in_redis) {
            let Some(limiter) = self.limiters.get(entry.position).map(Arc::clone) else {
                continue;
            };
            let key = entry.key;
            let now = entry.now;
            tokio::spawn(async move {
                if let Store::Redis(backend) = &limiter.store {
                    // A refund that fails only leaves the key charged once too often.
                    let _ = backend.call(key.as_bytes(), -1, now).await;
                }
            });
        }
    }
}

/// The common case, one memory limit: one hash, one lock, no allocation, and the counter kept
/// under that same lock.
fn check_one_in_memory(limiter: &Limiter, table: &Table, key: &[u8], now: Instant) -> Decision {
    let stored = limiter.stored_key(key);
    let key = stored.as_bytes();
    if key.is_empty() {
        return Decision::UNLIMITED;
    }
    let now = limiter.now_nanos(now);
    let dry_run = limiter.config.dry_run;
    let hash = table.hash(key);
    let mut locked = table.lock(table.shard_of(hash));
    let now = locked.monotonic(now);
    let slot = locked.find(hash, key);
    let ahead = slot.map_or(0, |slot| locked.tat(slot)).saturating_sub(now);
    let verdict = limiter.gcra.decide(ahead, 1);
    if verdict.allowed {
        locked.store(slot, hash, key, now.saturating_add(verdict.ahead), now);
    }
    let committed = verdict.allowed || dry_run;
    if let Some(count) = count_of(verdict, dry_run, committed) {
        locked.count(count);
    }
    drop(locked);
    let outcome = match (verdict.allowed, verdict.delay > 0, dry_run) {
        (false, _, false) => Outcome::Rejected,
        (false, _, true) => Outcome::RejectedDryRun,
        (true, true, false) => Outcome::Delayed(nanos(verdict.delay)),
        (true, true, true) => Outcome::DelayedDryRun(nanos(verdict.delay)),
        (true, false, _) => Outcome::Passed,
    };
    numbers(outcome, 0, &limiter.gcra, verdict)
}

/// Which counter one limit's part in a request goes to: `passed`, `delayed` or `dry_run` when the
/// request goes through, `rejected` when this limit rejected it, nothing when another limit did.
fn count_of(verdict: Verdict, dry_run: bool, committed: bool) -> Option<Count> {
    if !committed {
        return (!verdict.allowed && !dry_run).then_some(Count::Rejected);
    }
    Some(if !verdict.allowed || (verdict.delay > 0 && dry_run) {
        Count::DryRun
    } else if verdict.delay > 0 {
        Count::Delayed
    } else {
        Count::Passed
    })
}

/// Decides every memory plan under its shard's lock, all locks held together and taken in
/// (limiter, shard) order so two requests can never wait on each other. With `store`, and when no
/// limit rejects, charges every admitted key. Returns false when a (non-dry-run) limit rejects.
fn check_in_memory(entries: &mut [Entry<'_>], store: bool) -> bool {
    struct Probe<'set> {
        limiter_id: u64,
        shard: usize,
        position: usize,
        table: &'set Table,
        hash: KeyHash,
    }
    let mut probes: Vec<Probe<'_>> = entries
        .iter()
        .enumerate()
        .filter_map(|(position, entry)| match entry.plan {
            Plan::Memory { hash, fallback } => {
                let table = entry.limiter.table(fallback)?;
                Some(Probe {
                    limiter_id: entry.limiter.id,
                    shard: table.shard_of(hash),
                    position,
                    table,
                    hash,
                })
            }
            _ => None,
        })
        .collect();
    if probes.is_empty() {
        return true;
    }
    probes.sort_unstable_by_key(|probe| (probe.limiter_id, probe.shard, probe.position));
    // One guard per distinct (limiter, shard): a limit listed twice must not lock a shard twice.
    let mut guards: Vec<Locked<'_>> = Vec::with_capacity(probes.len());
    let mut guard_of = Vec::with_capacity(probes.len());
    let mut previous = None;
    for probe in &probes {
        if previous != Some((probe.limiter_id, probe.shard)) {
            guards.push(probe.table.lock(probe.shard));
            previous = Some((probe.limiter_id, probe.shard));
        }
        guard_of.push(guards.len() - 1);
    }
    let mut slots = Vec::with_capacity(probes.len());
    for (probe, &guard) in probes.iter().zip(&guard_of) {
        let entry = &mut entries[probe.position];
        entry.now = guards[guard].monotonic(entry.now);
        let slot = guards[guard].find(probe.hash, entry.key.as_bytes());
        let tat = slot.map_or(0, |slot| guards[guard].tat(slot));
        entry.verdict = Some(entry.limiter.gcra.decide(tat.saturating_sub(entry.now), 1));
        slots.push(slot);
    }
    let committed = !entries.iter().any(Entry::rejects);
    if committed && store {
        for ((probe, &guard), &slot) in probes.iter().zip(&guard_of).zip(&slots) {
            let entry = &entries[probe.position];
            if let Some(verdict) = entry.verdict.filter(|verdict| verdict.allowed) {
                let tat = entry.now.saturating_add(verdict.ahead);
                guards[guard].store(slot, probe.hash, entry.key.as_bytes(), tat, entry.now);
            }
        }
    }
    committed
}

/// Counts every applied limit's part and builds the request's decision.
fn finish(entries: &[Entry<'_>], committed: bool) -> Decision {
    let stripe = stripe();
    for entry in entries {
        let Some(verdict) = entry.verdict else {
            continue;
        };
        let counters = &entry.limiter.counters.stripes[stripe];
        let counter = match count_of(verdict, entry.limiter.config.dry_run, committed) {
            None => continue,
            Some(Count::Passed) => &counters.passed,
            Some(Count::Delayed) => &counters.delayed,
            Some(Count::Rejected) => &counters.rejected,
            Some(Count::DryRun) => &counters.dry_run,
        };
        counter.fetch_add(1, Ordering::Relaxed);
    }

    let applied = || {
        entries
            .iter()
            .filter_map(|entry| entry.verdict.map(|verdict| (entry, verdict)))
    };
    let dry_run = |entry: &Entry<'_>| entry.limiter.config.dry_run;
    if !committed {
        let rejecting = applied()
            .filter(|(entry, verdict)| !verdict.allowed && !dry_run(entry))
            .max_by_key(|(entry, verdict)| {
                (verdict.retry_after, std::cmp::Reverse(entry.position))
            });
        return match rejecting {
            Some((entry, verdict)) => numbers(
                Outcome::Rejected,
                entry.position,
                &entry.limiter.gcra,
                verdict,
            ),
            // Unreachable by construction (not committed means a real rejection); passing is the
            // safe reading of an inconsistent state.
            None => Decision::UNLIMITED,
        };
    }
    let longest_delay = |wanted_dry_run: bool| {
        applied()
            .filter(|(entry, verdict)| {
                verdict.allowed && verdict.delay > 0 && dry_run(entry) == wanted_dry_run
            })
            .max_by_key(|(entry, verdict)| (verdict.delay, std::cmp::Reverse(entry.position)))
    };
    if let Some((entry, verdict)) = longest_delay(false) {
        return numbers(
            Outcome::Delayed(nanos(verdict.delay)),
            entry.position,
            &entry.limiter.gcra,
            verdict,
        );
    }
    let dry_run_rejecting = applied()
        .filter(|(_, verdict)| !verdict.allowed)
        .max_by_key(|(entry, verdict)| (verdict.retry_after, std::cmp::Reverse(entry.position)));
    if let Some((entry, verdict)) = dry_run_rejecting {
        return numbers(
            Outcome::RejectedDryRun,
            entry.position,
            &entry.limiter.gcra,
            verdict,
        );
    }
    if let Some((entry, verdict)) = longest_delay(true) {
        return numbers(
            Outcome::DelayedDryRun(nanos(verdict.delay)),
            entry.position,
            &entry.limiter.gcra,
            verdict,
        );
    }
    let tightest = applied().min_by_key(|(entry, verdict)| {
        (entry.limiter.gcra.remaining(verdict.ahead), entry.position)
    });
    match tightest {
        Some((entry, verdict)) => numbers(
            Outcome::Passed,
            entry.position,
            &entry.limiter.gcra,
            verdict,
        ),
        None => Decision::UNLIMITED,
    }
}

fn numbers(outcome: Outcome, position: usize, gcra: &Gcra, verdict: Verdict) -> Decision {
    // A rejected single charge leaves less than one period of room: nothing remains and more
    // quota comes exactly when the retry is due, with no division on the flood path.
    let (remaining, replenish_after, retry_after) = if verdict.allowed {
        let remaining = gcra.remaining(verdict.ahead);
        (
            remaining,
            gcra.replenish_after(verdict.ahead, remaining),
            None,
        )
    } else {
        (0, verdict.retry_after, Some(nanos(verdict.retry_after)))
    };
    Decision {
        outcome,
        limit: Some(position),
        quota: gcra.capacity(),
        window: nanos(gcra.window()),
        remaining,
        replenish_after: nanos(replenish_after),
        reset_after: nanos(verdict.ahead),
        retry_after,
    }
}

/// Counter stripes: each thread adds to its own, so a flood on two cores never bounces one cache
/// line between them; reads add the stripes up.
const STRIPES: usize = 8;

#[derive(Default)]
struct Counters {
    stripes: [Stripe; STRIPES],
}

#[derive(Default)]
#[repr(align(128))]
struct Stripe {
    passed: AtomicU64,
    delayed: AtomicU64,
    rejected: AtomicU64,
    dry_run: AtomicU64,
}

impl Counters {
    fn sum(&self) -> LimitStats {
        let mut stats = LimitStats::default();
        for stripe in &self.stripes {
            stats.passed += stripe.passed.load(Ordering::Relaxed);
            stats.delayed += stripe.delayed.load(Ordering::Relaxed);
            stats.rejected += stripe.rejected.load(Ordering::Relaxed);
            stats.dry_run += stripe.dry_run.load(Ordering::Relaxed);
        }
        stats
    }
}

fn stripe() -> usize {
    static NEXT_STRIPE: AtomicUsize = AtomicUsize::new(0);
    thread_local! {
        static STRIPE: usize = NEXT_STRIPE.fetch_add(1, Ordering::Relaxed) % STRIPES;
    }
    STRIPE.with(|stripe| *stripe)
}

/// What a limit stores for a key: 128 bits of a keyed hash of the key's bytes (SipHash-1-3), or
/// nothing for an empty key. Two distinct keys share state only if their hashes collide, which
/// without the hash key takes about 2^64 tries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct StoredKey {
    bytes: [u8; 16],
    present: bool,
}

impl StoredKey {
    const NONE: StoredKey = StoredKey {
        bytes: [0; 16],
        present: false,
    };

    /// The 16 bytes, or none for an absent key (which skips its limit).
    fn as_bytes(&self) -> &[u8] {
        if self.present {
            &self.bytes
        } else {
            &[]
        }
    }
}

/// The keyed hash a limit stores its keys by.
#[derive(Debug, Clone, Copy)]
struct KeyHasher(SipHasher13);

impl KeyHasher {
    /// The memory limits' hash: its key is drawn at random once per process (from std's
    /// `RandomState`, which the OS seeds), so nobody outside can aim two keys at one slot.
    fn per_process() -> KeyHasher {
        use std::hash::BuildHasher;
        static PROCESS: OnceLock<KeyHasher> = OnceLock::new();
        *PROCESS.get_or_init(|| {
            let state = std::collections::hash_map::RandomState::new();
            KeyHasher(SipHasher13::new_with_keys(
                state.hash_one(0u64),
                state.hash_one(1u64),
            ))
        })
    }

    /// A Redis limit's hash: its key is derived from the limit's name and Redis URL, so every
    /// weir instance with the same config stores the same key for the same client. A password
    /// in the URL (`redis://:secret@host/0`) keeps the hash key out of reach of anyone who does
    /// not know the config.
    fn derived(name: &str, url: &str) -> KeyHasher {
        let mut seed = Vec::with_capacity(name.len() + url.len() + 32);
        seed.extend_from_slice(b"weir rate-limit key hash\0");
        seed.extend_from_slice(name.as_bytes());
        seed.push(0);
        seed.extend_from_slice(url.as_bytes());
        let key = u128::from(SipHasher13::new_with_keys(0, 0).hash(&seed));
        KeyHasher(SipHasher13::new_with_keys(key as u64, (key >> 64) as u64))
    }

    fn hash(&self, key: &[u8]) -> StoredKey {
        StoredKey {
            bytes: u128::from(self.0.hash(key)).to_le_bytes(),
            present: true,
        }
    }
}

/// The address a `client_ip` key counts by: an IPv4 address whole, an IPv6 address by its first
/// `ipv6_prefix` bits (one end site usually holds a whole /64, and rotates through it at will).
/// An IPv4-mapped IPv6 address (`::ffff:192.0.2.1`, from a dual-stack listener) is its IPv4
/// address.
pub fn client_ip_key(ip: IpAddr, ipv6_prefix: u8) -> IpAddr {
    match ip {
        IpAddr::V4(_) => ip,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => {
                let bits = u32::from(ipv6_prefix.min(128));
                let mask = u128::MAX.checked_shl(128 - bits).unwrap_or(0);
                IpAddr::V6(Ipv6Addr::from(u128::from(v6) & mask))
            }
        },
    }
}
