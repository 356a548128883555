//! The in-memory key table: per-key theoretical arrival times (one `u64` each) in a fixed number
//! of shards, each a `Mutex` over a dense slot array and a hash index into it. The table never
//! holds more than `max_keys` keys: a new key in a full shard replaces one chosen by CLOCK
//! (second-chance LRU), preferring a key that has gone idle, and every insertion also looks at the
//! next slot under the hand and reuses it when idle, as nginx frees idle LRU-tail nodes on each new
//! node. Every operation does a bounded amount of work whatever the number of keys, except
//! [`Table::reclaim_idle`], which a caller runs on a timer to give memory back.
//!
//! A lookup costs one hash, one uncontended lock and one probe; nothing is allocated for keys of
//! up to [`INLINE_KEY`] bytes (an IPv6 address is 16), so a slot is 32 bytes.

use std::hash::BuildHasher;
use std::sync::{Mutex, MutexGuard, PoisonError};

use hashbrown::{DefaultHashBuilder, HashTable};

/// Keys this long or shorter live inside the slot; longer ones get their own allocation.
pub(crate) const INLINE_KEY: usize = 22;

/// Slots the CLOCK hand may pass over before it evicts the slot under it regardless, so eviction
/// is bounded even when every key has been referenced since the hand last passed.
const MAX_CLOCK_SCAN: usize = 16;

/// Shards at most: enough to keep two to a few dozen cores off each other's locks.
const MAX_SHARDS: usize = 64;

/// Keys per shard at least, so small tables keep an exact cap and a meaningful LRU.
const MIN_KEYS_PER_SHARD: usize = 64;

/// The top bit of a slot's stamp is CLOCK's "referenced" bit; the rest is the TAT in nanoseconds
/// since the limiter's epoch, which leaves 292 years.
const REFERENCED: u64 = 1 << 63;

/// A sharded map from key bytes to a TAT.
pub(crate) struct Table {
    shards: Box<[Shard]>,
    hasher: DefaultHashBuilder,
    shard_mask: u64,
}

/// One shard on its own cache line, so two cores locking neighbouring shards do not share one.
#[repr(align(64))]
struct Shard {
    state: Mutex<ShardState>,
}

struct ShardState {
    /// Decision counts of requests decided under this lock alone (see [`Count`]), so the common
    /// one-limit path adds to a counter without an atomic instruction of its own.
    counts: [u64; Count::ALL],
    /// Positions into `slots`, hashed by the slot's key.
    index: HashTable<u32>,
    slots: Vec<Slot>,
    /// CLOCK's hand: the next slot to consider for eviction or reuse.
    hand: usize,
    /// This shard's share of `max_keys`.
    cap: usize,
    /// The latest time a decision under this lock used (see [`Locked::monotonic`]).
    latest: u64,
}

struct Slot {
    key: Key,
    /// TAT | REFERENCED.
    stamp: u64,
}

/// Key bytes, inline when short.
enum Key {
    Inline { len: u8, bytes: [u8; INLINE_KEY] },
    Heap(Box<[u8]>),
}

/// A slot is half a cache line; this keeps it so when the key layout changes.
const _: () = assert!(std::mem::size_of::<Slot>() == 32);

impl Key {
    fn new(key: &[u8]) -> Key {
        if key.len() <= INLINE_KEY {
            let mut bytes = [0u8; INLINE_KEY];
            bytes[..key.len()].copy_from_slice(key);
            // The branch guarantees `len <= 22`, which fits a u8.
            Key::Inline {
                len: key.len() as u8,
                bytes,
            }
        } else {
            Key::Heap(key.into())
        }
    }

    fn as_bytes(&self) -> &[u8] {
        match self {
            Key::Inline { len, bytes } => &bytes[..usize::from(*len)],
            Key::Heap(bytes) => bytes,
        }
    }

    fn heap_bytes(&self) -> usize {
        match self {
            Key::Inline { .. } => 0,
            Key::Heap(bytes) => bytes.len(),
        }
    }
}

/// A decision counter kept in a shard.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Count {
    Passed,
    Delayed,
    Rejected,
    DryRun,
}

impl Count {
    pub(crate) const ALL: usize = 4;
}

impl Slot {
    fn tat(&self) -> u64 {
        self.stamp & !REFERENCED
    }

    fn is_idle(&self, now: u64) -> bool {
        self.tat() <= now
    }
}

/// Where a key was found in a locked shard.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct SlotRef(u32);

/// A key's hash, computed once per request and used to pick the shard and probe it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct KeyHash(u64);

impl Table {
    /// A table that tracks at most `max_keys` keys (at least one).
    pub(crate) fn new(max_keys: usize) -> Table {
        let max_keys = max_keys.max(1);
        let wanted = (max_keys / MIN_KEYS_PER_SHARD).clamp(1, MAX_SHARDS);
        // A power of two, rounded down so every shard keeps at least MIN_KEYS_PER_SHARD keys.
        let shard_count = 1usize << (usize::BITS - 1 - wanted.leading_zeros());
        let base = max_keys / shard_count;
        let extra = max_keys % shard_count;
        let shards = (0..shard_count)
            .map(|position| Shard {
                state: Mutex::new(ShardState {
                    counts: [0; Count::ALL],
                    index: HashTable::new(),
                    slots: Vec::new(),
                    hand: 0,
                    // The remainder is spread over the first shards so the caps add up exactly;
                    // positions are u32, which bounds a shard at four billion keys.
                    cap: (base + usize::from(position < extra)).min(u32::MAX as usize),
                    latest: 0,
                }),
            })
            .collect();
        Table {
            shards,
            hasher: DefaultHashBuilder::default(),
            shard_mask: shard_count as u64 - 1,
        }
    }

    pub(crate) fn hash(&self, key: &[u8]) -> KeyHash {
        KeyHash(self.hasher.hash_one(key))
    }

    /// The shard a key lives in; locks are taken in shard order when several are held at once.
    pub(crate) fn shard_of(&self, hash: KeyHash) -> usize {
        // hashbrown probes with the low bits and tags with the top seven, so the shard comes from
        // bits in between to keep the three independent.
        ((hash.0 >> 32) & self.shard_mask) as usize
    }

    /// Locks one shard. A poisoned lock is taken over: a shard's state is a set of plain integers
    /// that a panic cannot leave half-written in a way that matters to a rate limit.
    pub(crate) fn lock(&self, shard: usize) -> Locked<'_> {
        let guard = self.shards[shard]
            .state
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        Locked {
            guard,
            hasher: &self.hasher,
        }
    }

    /// The TAT of `key` (0 when absent, which every check reads as "idle").
    pub(crate) fn tat(&self, key: &[u8]) -> u64 {
        let hash = self.hash(key);
        let locked = self.lock(self.shard_of(hash));
        locked.find(hash, key).map_or(0, |slot| locked.tat(slot))
    }

    /// Sets `key`'s TAT, inserting it if absent.
    pub(crate) fn set(&self, key: &[u8], tat: u64, now: u64) {
        let hash = self.hash(key);
        let mut locked = self.lock(self.shard_of(hash));
        let slot = locked.find(hash, key);
        locked.store(slot, hash, key, tat, now);
    }

    /// The shard counters added up, indexed by `Count as usize`.
    pub(crate) fn counts(&self) -> [u64; Count::ALL] {
        let mut total = [0; Count::ALL];
        for shard in 0..self.shards.len() {
            let locked = self.lock(shard);
            for (sum, count) in total.iter_mut().zip(locked.guard.counts) {
                *sum += count;
            }
        }
        total
    }

    /// Gives back `amount` ns of a key's charge, never below `now` (a drained key stays drained).
    pub(crate) fn refund(&self, key: &[u8], amount: u64, now: u64) {
        let hash = self.hash(key);
        let mut locked = self.lock(self.shard_of(hash));
        if let Some(SlotRef(position)) = locked.find(hash, key) {
            let slot = &mut locked.guard.slots[position as usize];
            let tat = slot.tat();
            if tat > now {
                let refunded = tat.saturating_sub(amount).max(now);
                slot.stamp = refunded | (slot.stamp & REFERENCED);
            }
        }
    }

    /// Keys tracked now.
    pub(crate) fn len(&self) -> usize {
        (0..self.shards.len())
            .map(|shard| self.lock(shard).guard.slots.len())
            .sum()
    }

    /// Drops every key whose TAT has passed (they carry no information: an absent key reads the
    /// same) and gives spare capacity back to the allocator. Work grows with the number of keys,
    /// one shard locked at a time; returns how many keys were dropped.
    pub(crate) fn reclaim_idle(&self, now: u64) -> usize {
        (0..self.shards.len())
            .map(|shard| self.lock(shard).guard.reclaim_idle(now, &self.hasher))
            .sum()
    }

    /// Heap bytes held by the table: slot arrays, hash indexes and long keys (allocator overhead
    /// and the fixed per-shard headers aside).
    pub(crate) fn heap_bytes(&self) -> usize {
        (0..self.shards.len())
            .map(|shard| {
                let locked = self.lock(shard);
                let state = &*locked.guard;
                state.slots.capacity() * std::mem::size_of::<Slot>()
                    + state.index.allocation_size()
                    + state
                        .slots
                        .iter()
                        .map(|slot| slot.key.heap_bytes())
                        .sum::<usize>()
            })
            .sum()
    }
}

/// A locked shard.
pub(crate) struct Locked<'table> {
    guard: MutexGuard<'table, ShardState>,
    hasher: &'table DefaultHashBuilder,
}

impl Locked<'_> {
    /// `now`, or the latest time a decision under this lock used if that is later. Clocks are
    /// read before the lock is taken, so two requests can take it in the other order than they
    /// read the clock; without this, the later lock holder would see the key's TAT a few
    /// microseconds further ahead than it is and could be rejected with a place free.
    pub(crate) fn monotonic(&mut self, now: u64) -> u64 {
        let now = now.max(self.guard.latest);
        self.guard.latest = now;
        now
    }

    pub(crate) fn find(&self, hash: KeyHash, key: &[u8]) -> Option<SlotRef> {
        let state = &*self.guard;
        state
            .index
            .find(hash.0, |&position| {
                state.slots[position as usize].key.as_bytes() == key
            })
            .map(|&position| SlotRef(position))
    }

    /// Adds one to a counter of this shard.
    pub(crate) fn count(&mut self, count: Count) {
        self.guard.counts[count as usize] += 1;
    }

    pub(crate) fn tat(&self, slot: SlotRef) -> u64 {
        self.guard.slots[slot.0 as usize].tat()
    }

    /// Writes a TAT: into the slot found earlier under this same lock, or into a new slot.
    pub(crate) fn store(
        &mut self,
        slot: Option<SlotRef>,
        hash: KeyHash,
        key: &[u8],
        tat: u64,
        now: u64,
    ) {
        let tat = tat & !REFERENCED;
        match slot {
            // A key seen again earns CLOCK's second chance.
            Some(SlotRef(position)) => self.guard.slots[position as usize].stamp = tat | REFERENCED,
            None => self.insert(hash, key, tat, now),
        }
    }

    fn insert(&mut self, hash: KeyHash, key: &[u8], tat: u64, now: u64) {
        let hasher = self.hasher;
        let state = &mut *self.guard;
        let reuse = if state.slots.len() < state.cap {
            state.idle_under_hand(now)
        } else {
            Some(state.evict(now))
        };
        // New keys start without the referenced bit: a flood of one-shot keys then replaces
        // itself before it displaces keys that came back.
        let slot = Slot {
            key: Key::new(key),
            stamp: tat,
        };
        match reuse {
            Some(position) => {
                let old_hash = hasher.hash_one(state.slots[position].key.as_bytes());
                let position_u32 = position as u32;
                if let Ok(entry) = state
                    .index
                    .find_entry(old_hash, |&other| other == position_u32)
                {
                    entry.remove();
                }
                state.slots[position] = slot;
                let slots = &state.slots;
                state.index.insert_unique(hash.0, position_u32, |&other| {
                    hasher.hash_one(slots[other as usize].key.as_bytes())
                });
            }
            None => {
                state.grow(hasher);
                // `grow` never passes `cap`, which `Table::new` bounds by u32::MAX.
                let position = state.slots.len() as u32;
                state.slots.push(slot);
                let slots = &state.slots;
                state.index.insert_unique(hash.0, position, |&other| {
                    hasher.hash_one(slots[other as usize].key.as_bytes())
                });
            }
        }
    }
}

impl ShardState {
    /// Advances the hand by one slot and returns it if idle, so idle keys are recycled at the pace
    /// new keys arrive.
    fn idle_under_hand(&mut self, now: u64) -> Option<usize> {
        if self.slots.is_empty() {
            return None;
        }
        let position = self.hand % self.slots.len();
        self.hand = position + 1;
        self.slots[position].is_idle(now).then_some(position)
    }

    /// CLOCK: the first idle or unreferenced slot under the hand, clearing referenced bits on the
    /// way; after MAX_CLOCK_SCAN slots, the one under the hand.
    fn evict(&mut self, now: u64) -> usize {
        let len = self.slots.len();
        let mut position = self.hand % len;
        for _ in 0..MAX_CLOCK_SCAN {
            let slot = &mut self.slots[position];
            if slot.is_idle(now) || slot.stamp & REFERENCED == 0 {
                break;
            }
            slot.stamp &= !REFERENCED;
            position = (position + 1) % len;
        }
        self.hand = position + 1;
        position
    }

    /// Makes room for one more slot without overshooting the cap, so a full shard's arrays are
    /// its share of `max_keys` rather than the next power of two past it.
    fn grow(&mut self, hasher: &DefaultHashBuilder) {
        if self.slots.len() < self.slots.capacity() {
            return;
        }
        let target = (self.slots.capacity() * 2).clamp(8, self.cap.max(1));
        self.slots.reserve_exact(target - self.slots.len());
        let slots = &self.slots;
        self.index.reserve(target - self.index.len(), |&other| {
            hasher.hash_one(slots[other as usize].key.as_bytes())
        });
    }

    fn reclaim_idle(&mut self, now: u64, hasher: &DefaultHashBuilder) -> usize {
        let before = self.slots.len();
        self.slots.retain(|slot| !slot.is_idle(now));
        let dropped = before - self.slots.len();
        if dropped == 0 {
            return 0;
        }
        if self.slots.capacity() > self.slots.len() * 2 + 8 {
            self.slots.shrink_to(self.slots.len() * 2);
        }
        // Positions moved, so the index is rebuilt; this is the one operation whose work grows
        // with the number of keys, and it runs off the request path.
        self.index.clear();
        self.index.shrink_to(self.slots.len(), |_| 0);
        let slots = &self.slots;
        for (position, slot) in slots.iter().enumerate() {
            // Positions fit in u32: `cap` is bounded by u32::MAX in `Table::new`.
            self.index.insert_unique(
                hasher.hash_one(slot.key.as_bytes()),
                position as u32,
                |&other| hasher.hash_one(slots[other as usize].key.as_bytes()),
            );
        }
        self.hand = 0;
        dropped
    }
}
