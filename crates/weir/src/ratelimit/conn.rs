//! Requests in flight per key: nginx's `limit_conn_zone` + `limit_conn`, one
//! `[connection_limits.NAME]` table. A key may have at most `connections` requests in progress;
//! one more is refused until one of them ends. A request holds its place ([`ConnSlot`]) from the
//! moment it is admitted to the end of its answer's body (or its tunnel), as nginx counts a
//! request until it is finalised.
//!
//! The table maps a key's keyed hash (the same 128-bit hash the rate limits store, so a long key
//! costs what a short one does) to its count, in shards under a lock each. A key is in the table
//! only while it has a request in flight, so its size is the number of distinct keys in flight at
//! once, never more than `max_keys`: a new key past it is refused, as nginx refuses a request when
//! its zone is full. Admission and release are one hash, one uncontended lock and one probe; the
//! decision counts are kept under that lock too, so a request writes nothing else shared.

use std::sync::{Arc, Mutex, PoisonError};

use hashbrown::HashMap;

use super::KeyHasher;
use crate::config::ConnLimiterConfig;

/// Shards at most; each has its share of `max_keys`.
const MAX_SHARDS: usize = 16;

/// Keys per shard at least, so a small table keeps a near-exact cap.
const MIN_KEYS_PER_SHARD: usize = 64;

/// One `[connection_limits.NAME]`: its counts per key.
pub struct ConnLimit {
    name: Arc<str>,
    settings: ConnLimiterConfig,
    hasher: KeyHasher,
    shards: Box<[Shard]>,
    shard_cap: usize,
}

/// One shard on its own cache line.
#[repr(align(64))]
struct Shard {
    state: Mutex<ShardState>,
}

#[derive(Default)]
struct ShardState {
    /// Requests in flight, by key.
    counts: HashMap<u128, u32>,
    /// The decisions made under this lock: admitted, refused, refused by a dry run.
    admitted: u64,
    refused: u64,
    dry_run: u64,
}

/// What a connection limit has done, for metrics.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ConnLimitStats {
    /// Requests given a place.
    pub admitted: u64,
    /// Requests refused: the key had `connections` in flight, or the table was full.
    pub refused: u64,
    /// Requests a dry-run limit would have refused (they went through).
    pub dry_run: u64,
    /// Requests in flight now, over all keys.
    pub in_flight: u64,
    /// Keys with a request in flight now.
    pub keys: usize,
}

/// A request's place under one limit, for one key: given back when dropped.
pub struct ConnSlot {
    limit: Arc<ConnLimit>,
    key: u128,
}

/// A request's places under its route's connection limits, held to the end of its answer (its
/// body's end, or its tunnel's) and given back when dropped.
#[derive(Debug, Default)]
pub struct Places(smallvec::SmallVec<[ConnSlot; 1]>);

impl Places {
    pub fn push(&mut self, slot: ConnSlot) {
        self.0.push(slot);
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl std::fmt::Debug for ConnLimit {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter
            .debug_struct("ConnLimit")
            .field("name", &self.name)
            .field("settings", &self.settings)
            .finish_non_exhaustive()
    }
}

impl ConnLimit {
    pub fn new(name: &str, settings: ConnLimiterConfig) -> ConnLimit {
        let shard_count = (settings.max_keys / MIN_KEYS_PER_SHARD).clamp(1, MAX_SHARDS);
        ConnLimit {
            name: name.into(),
            settings,
            hasher: KeyHasher::per_process(),
            shards: (0..shard_count)
                .map(|_| Shard {
                    state: Mutex::new(ShardState::default()),
                })
                .collect(),
            shard_cap: settings.max_keys.div_ceil(shard_count),
        }
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    /// The name, shared (for a refusal's error).
    pub fn shared_name(&self) -> Arc<str> {
        Arc::clone(&self.name)
    }

    /// A place for a request of `key`: `Some` when the key has fewer than `connections` in
    /// flight (or the limit is a dry run), `None` when it is refused. An empty key is not
    /// limited (as nginx skips an empty key): `Some(None)`, no place taken.
    pub fn admit(self: &Arc<Self>, key: &[u8]) -> Option<Option<ConnSlot>> {
        if key.is_empty() {
            return Some(None);
        }
        let hashed = u128::from_le_bytes(self.hasher.hash(key).bytes);
        let mut state = self
            .shard(hashed)
            .state
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        let full = state.counts.len() >= self.shard_cap;
        let admitted = match state.counts.get_mut(&hashed) {
            Some(count) if *count < self.settings.connections => {
                *count += 1;
                true
            }
            Some(_) => false,
            None if full => false,
            None => {
                state.counts.insert(hashed, 1);
                true
            }
        };
        if admitted {
            state.admitted += 1;
            drop(state);
            return Some(Some(ConnSlot {
                limit: Arc::clone(self),
                key: hashed,
            }));
        }
        if self.settings.dry_run {
            state.dry_run += 1;
            return Some(None);
        }
        state.refused += 1;
        None
    }

    pub fn stats(&self) -> ConnLimitStats {
        let mut stats = ConnLimitStats::default();
        for shard in self.shards.iter() {
            let state = shard.state.lock().unwrap_or_else(PoisonError::into_inner);
            stats.admitted += state.admitted;
            stats.refused += state.refused;
            stats.dry_run += state.dry_run;
            stats.keys += state.counts.len();
            stats.in_flight += state
                .counts
                .values()
                .map(|&count| u64::from(count))
                .sum::<u64>();
        }
        stats
    }

    fn shard(&self, hashed: u128) -> &Shard {
        // The hash is keyed and uniform: its low bits pick the shard.
        &self.shards[(hashed as usize) % self.shards.len()]
    }

    fn release(&self, hashed: u128) {
        let mut state = self
            .shard(hashed)
            .state
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if let hashbrown::hash_map::Entry::Occupied(mut entry) = state.counts.entry(hashed) {
            if *entry.get() <= 1 {
                entry.remove();
            } else {
                *entry.get_mut() -= 1;
            }
        }
    }
}

impl Drop for ConnSlot {
    fn drop(&mut self) {
        self.limit.release(self.key);
    }
}

impl std::fmt::Debug for ConnSlot {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter
            .debug_struct("ConnSlot")
            .field("limit", &self.limit.name)
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limit(connections: u32, max_keys: usize, dry_run: bool) -> Arc<ConnLimit> {
        Arc::new(ConnLimit::new(
            "test",
            ConnLimiterConfig {
                connections,
                max_keys,
                dry_run,
            },
        ))
    }

    #[test]
    fn a_key_gets_its_connections_and_a_place_back_when_one_ends() {
        let limit = limit(2, 100, false);
        let first = limit.admit(b"a").unwrap().unwrap();
        let second = limit.admit(b"a").unwrap().unwrap();
        assert!(
            limit.admit(b"a").is_none(),
            "a third request of a key is refused"
        );
        assert!(
            limit.admit(b"b").unwrap().is_some(),
            "another key has its own"
        );
        drop(first);
        let third = limit.admit(b"a").unwrap().unwrap();
        let stats = limit.stats();
        assert_eq!((stats.admitted, stats.refused, stats.in_flight), (4, 1, 2));
        drop((second, third));
        assert_eq!(
            limit.stats().keys,
            0,
            "a key with nothing in flight leaves the table"
        );
    }

    #[test]
    fn an_empty_key_is_not_limited_and_a_dry_run_refuses_nothing() {
        let limit = limit(1, 100, false);
        let places: Vec<_> = (0..3).map(|_| limit.admit(b"").unwrap()).collect();
        assert!(places.iter().all(Option::is_none));
        assert_eq!(limit.stats().in_flight, 0);

        let dry = self::limit(1, 100, true);
        let _held = dry.admit(b"a").unwrap().unwrap();
        assert!(dry.admit(b"a").unwrap().is_none(), "let through, no place");
        let stats = dry.stats();
        assert_eq!((stats.refused, stats.dry_run, stats.in_flight), (0, 1, 1));
    }

    #[test]
    fn a_new_key_past_max_keys_is_refused_until_a_key_leaves() {
        let limit = limit(5, 3, false);
        let held: Vec<_> = [b"a", b"b", b"c"]
            .iter()
            .map(|key| limit.admit(&key[..]).unwrap().unwrap())
            .collect();
        assert!(limit.admit(b"d").is_none(), "the table is full");
        assert!(
            limit.admit(b"a").unwrap().is_some(),
            "a key in it still counts"
        );
        drop(held);
        assert!(limit.admit(b"d").unwrap().is_some());
    }
}
