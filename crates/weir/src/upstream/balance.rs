//! Which server of an upstream takes a request: round-robin, or the one with fewer requests in
//! flight of two drawn at random (least outstanding by the power of two choices); with `weights`
//! (nginx `server ... weight=N`), a server takes that many turns of each round (nginx's smooth
//! weighted round robin: the turns spread through the round, not in a row), is drawn that much
//! more often, and its requests in flight count for that much less; with a declared
//! capacity (`workers`), whatever the strategy, the one with the fewest requests in flight and
//! waiting of all (joining the shortest queue, ties in round-robin turn). Servers that
//! health marks down are passed over while another may be tried; when every server is down, they
//! are tried anyway, as nginx does, rather than failing the request outright. Backup servers
//! (`backup_servers`, the last of the indices) are picked only while none of the others is
//! available.
//!
//! The balancer knows servers by index only; availability and the requests in flight to each
//! come from the caller (health and the pools), so this file holds no per-server state and can
//! be tested alone.
//!
//! A pick writes nothing another thread writes: the round-robin turn is one per thread (a lane
//! per core, on a cache line of its own, as the pool's counts), and the random draws come from
//! a generator per thread. nginx's round robin is per worker the same way (without a `zone`):
//! each thread takes every server in turn, so the servers' shares stay even over the threads.

use std::cell::Cell;
use std::collections::hash_map::RandomState;
use std::hash::BuildHasher;
use std::net::IpAddr;
use std::sync::atomic::{AtomicUsize, Ordering};

use super::pool::{lanes, thread_slot};
use crate::config::Balance;

/// Picks servers for requests. The requests in flight to each, which least outstanding
/// compares, are counted by the servers' pools and read through the caller, like availability.
pub struct Balancer {
    strategy: Balance,
    /// Join the shortest queue ([`Balancer::joining_the_shortest_queue`]).
    shortest_queue: bool,
    servers: usize,
    /// The servers before this index are the group's own; those from it on are backups
    /// (`backup_servers`), picked only while none of the group's own is available. `servers`
    /// when there are none.
    primaries: usize,
    /// The next round-robin position, one per thread (`thread_slot` modulo their number).
    turns: Box<[Turn]>,
    /// `weights`, when they are not all the same.
    weighted: Option<Box<Weighted>>,
}

/// The weights of a group's servers, and what a pick needs of them, per tier (the group's own,
/// then its backups).
struct Weighted {
    weights: Box<[u32]>,
    /// Per tier, the servers' turns of one round, by index relative to the tier's first: nginx's
    /// smooth weighted round robin, made once.
    rounds: [Box<[u32]>; 2],
    /// Per tier, the running sums of the weights, to draw a server by its weight.
    sums: [Box<[u64]>; 2],
}

/// One round of nginx's smooth weighted round robin over `weights`: each turn, every server's
/// current weight grows by its weight, and the one with the most takes the turn and gives back
/// the sum; a server of weight 5 beside two of 1 takes `a a b a c a a`, not `a a a a a b c`.
fn round(weights: &[u32]) -> Box<[u32]> {
    let total: i64 = weights.iter().map(|&weight| i64::from(weight)).sum();
    let mut current = vec![0i64; weights.len()];
    let mut turns = Vec::with_capacity(usize::try_from(total).unwrap_or(0));
    for _ in 0..total {
        let mut best = 0;
        for (index, weight) in weights.iter().enumerate() {
            current[index] += i64::from(*weight);
            if current[index] > current[best] {
                best = index;
            }
        }
        current[best] -= total;
        turns.push(u32::try_from(best).unwrap_or(0));
    }
    turns.into_boxed_slice()
}

/// One thread's round-robin position; an atomic only because a thread past the lanes shares
/// one, and a relaxed add on a line only this thread writes costs no transfer.
#[repr(align(64))]
#[derive(Default)]
struct Turn(AtomicUsize);

thread_local! {
    /// This thread's SplitMix64 state: cheap, and random enough to draw two servers.
    static RANDOM: Cell<u64> = Cell::new(RandomState::new().hash_one(thread_slot()));
}

impl Balancer {
    /// A balancer over `servers` servers (taken as one when 0: the caller answers an empty set
    /// before asking).
    pub fn new(strategy: Balance, servers: usize) -> Balancer {
        Balancer::with_lanes(strategy, servers, lanes())
    }

    /// A balancer with `lanes` round-robin turns (one per core in [`Balancer::new`]).
    pub(super) fn with_lanes(strategy: Balance, servers: usize, lanes: usize) -> Balancer {
        Balancer {
            strategy,
            shortest_queue: false,
            servers: servers.max(1),
            primaries: servers.max(1),
            turns: (0..lanes.max(1)).map(|_| Turn::default()).collect(),
            weighted: None,
        }
    }

    /// Each server's weight, by index (past the end: 1). Call after
    /// [`Balancer::with_backups_from`]. All the same, they change nothing.
    pub fn with_weights(mut self, weights: &[u32]) -> Balancer {
        let weights: Box<[u32]> = (0..self.servers)
            .map(|index| {
                weights
                    .get(index)
                    .copied()
                    .unwrap_or(1)
                    .clamp(1, crate::config::MOST_WEIGHT)
            })
            .collect();
        if weights.iter().all(|&weight| weight == weights[0]) {
            self.weighted = None;
            return self;
        }
        let tiers = [0..self.primaries, self.primaries..self.servers];
        let sums = tiers.clone().map(|tier| {
            weights[tier]
                .iter()
                .scan(0u64, |sum, &weight| {
                    *sum += u64::from(weight);
                    Some(*sum)
                })
                .collect()
        });
        let rounds = tiers.map(|tier| round(&weights[tier]));
        self.weighted = Some(Box::new(Weighted {
            weights,
            rounds,
            sums,
        }));
        self
    }

    /// The weight of server `index` (1 without weights).
    fn weight(&self, index: usize) -> u64 {
        self.weighted
            .as_ref()
            .and_then(|weighted| weighted.weights.get(index))
            .map_or(1, |&weight| u64::from(weight))
    }

    /// Whether server `a` is less loaded than `b` for its weight: `a`'s requests in flight per
    /// weight below `b`'s (compared multiplied out, without division).
    fn lighter(&self, (a, load_a): (usize, usize), (b, load_b): (usize, usize)) -> bool {
        (load_a as u64) * self.weight(b) < (load_b as u64) * self.weight(a)
    }

    /// The tier (0: the group's own, 1: its backups) of the servers from `base` on.
    fn tier(&self, base: usize) -> usize {
        usize::from(base >= self.primaries && self.primaries < self.servers)
    }

    /// For servers whose capacity was declared (`workers`): a request goes to the server with
    /// the fewest requests in flight and waiting, of all that are up (ties in round-robin turn),
    /// whatever the strategy, and so to one with a free place while there is one (the servers
    /// of a group declare the same capacity). Each server keeps its own queue, so a request
    /// sent in turn (or to the less busy of two drawn) waited for a worker of its server while
    /// another server's sat idle: with two servers of one worker, a request of 1.5 s, and short
    /// ones after it, every second short one waited for the long one. HAProxy gets the same
    /// from its backend queue, which any server that frees serves; nginx `least_conn` compares
    /// all servers too, but counts no waiting (it has no queue).
    pub fn joining_the_shortest_queue(mut self, declared: bool) -> Balancer {
        self.shortest_queue = declared;
        self
    }

    /// The servers from `first` on are backups (nginx `server ... backup`): a request goes to
    /// one only while none of those before it is available (up, or due a trial after
    /// `fail_timeout`), and one that fails moves on to the others' backups before any server
    /// marked down is tried.
    pub fn with_backups_from(mut self, first: usize) -> Balancer {
        self.primaries = first.min(self.servers);
        self
    }

    fn random_below(bound: usize) -> usize {
        let mut z = RANDOM.with(|state| {
            let next = state.get().wrapping_add(0x9E37_79B9_7F4A_7C15);
            state.set(next);
            next
        });
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        // Multiply-shift maps the 64 random bits onto 0..bound without division.
        ((u128::from(z) * bound as u128) >> 64) as usize
    }

    /// The server for a new request. `available(index)` says whether a server may take it now,
    /// `outstanding(index)` how many requests are in flight to it.
    #[cfg(test)]
    pub(super) fn first(
        &self,
        available: impl Fn(usize) -> bool,
        outstanding: impl Fn(usize) -> usize,
    ) -> usize {
        self.first_in(thread_slot() as usize, None, available, outstanding)
    }

    /// [`Balancer::first`] for a request of `client` (its address after `trusted_proxies`), which
    /// `client_address` reads.
    pub fn first_for(
        &self,
        client: Option<IpAddr>,
        available: impl Fn(usize) -> bool,
        outstanding: impl Fn(usize) -> usize,
    ) -> usize {
        self.first_in(thread_slot() as usize, client, available, outstanding)
    }

    /// `client_address` among the `count` servers from `base` on, as nginx's `ip_hash`: a hash
    /// of the address's first three bytes (IPv4) or all sixteen (IPv6) picks a server by weight;
    /// one not available hashes again, up to 20 times; `None` then (round robin takes it).
    fn by_client(
        &self,
        client: IpAddr,
        base: usize,
        count: usize,
        available: &impl Fn(usize) -> bool,
    ) -> Option<usize> {
        let (octets, length) = match client.to_canonical() {
            IpAddr::V4(v4) => {
                let mut octets = [0u8; 16];
                octets[..4].copy_from_slice(&v4.octets());
                (octets, 3)
            }
            IpAddr::V6(v6) => (v6.octets(), 16),
        };
        let bytes = &octets[..length];
        let sums = self
            .weighted
            .as_deref()
            .map(|weighted| &weighted.sums[self.tier(base)][..])
            .filter(|sums| sums.len() == count);
        let total = sums
            .and_then(|sums| sums.last().copied())
            .unwrap_or(count as u64);
        let mut hash: u64 = 89;
        for _ in 0..20 {
            for &byte in bytes {
                hash = (hash * 113 + u64::from(byte)) % 6271;
            }
            let point = hash % total.max(1);
            let offset = match sums {
                Some(sums) => sums.partition_point(|&sum| sum <= point),
                None => point as usize,
            };
            let index = base + offset.min(count - 1);
            if available(index) {
                return Some(index);
            }
        }
        None
    }

    /// [`Balancer::first_for`] as thread number `thread` (its lane: `thread` modulo the lanes).
    pub(super) fn first_in(
        &self,
        thread: usize,
        client: Option<IpAddr>,
        available: impl Fn(usize) -> bool,
        outstanding: impl Fn(usize) -> usize,
    ) -> usize {
        let (primaries, servers) = (self.primaries, self.servers);
        let tier = if primaries == servers || (0..primaries).any(&available) {
            0..primaries
        } else if primaries == 0 || (primaries..servers).any(&available) {
            // None of the group's own is up, or it has none (a host name not resolved yet).
            primaries..servers
        } else {
            // Every server is down: the group's own are tried anyway, as below.
            0..primaries
        };
        if let (Balance::ClientAddress, Some(client), true) =
            (self.strategy, client, tier.len() > 1)
        {
            if let Some(index) = self.by_client(client, tier.start, tier.len(), &available) {
                return index;
            }
        }
        self.first_among(tier.start, tier.len(), thread, available, outstanding)
    }

    /// [`Balancer::first_in`] among the `count` servers from index `base` on.
    fn first_among(
        &self,
        base: usize,
        count: usize,
        thread: usize,
        available: impl Fn(usize) -> bool,
        outstanding: impl Fn(usize) -> usize,
    ) -> usize {
        if count == 1 {
            return base;
        }
        let at = |offset: usize| base + offset % count;
        // `client_address` keeps its server whatever the load: a session lives there.
        if self.shortest_queue && self.strategy != Balance::ClientAddress {
            let turn = &self.turns[thread % self.turns.len()].0;
            let start = turn.fetch_add(1, Ordering::Relaxed) % count;
            let mut shortest: Option<(usize, usize)> = None;
            for index in (0..count).map(|offset| at(start + offset)) {
                if !available(index) {
                    continue;
                }
                let load = outstanding(index);
                if shortest.is_none_or(|least| self.lighter((index, load), least)) {
                    shortest = Some((index, load));
                }
            }
            return shortest.map_or(at(start), |(index, _)| index);
        }
        let tier = self.tier(base);
        let weighted = self
            .weighted
            .as_deref()
            .filter(|weighted| weighted.rounds[tier].len() > count);
        match self.strategy {
            // A request without a client address, or whose hash found no server up: in turn.
            Balance::RoundRobin | Balance::ClientAddress => {
                let turn = &self.turns[thread % self.turns.len()].0;
                let position = turn.fetch_add(1, Ordering::Relaxed);
                if let Some(weighted) = weighted {
                    // The round's turns from this one on: the first server available takes it.
                    let turns = &weighted.rounds[tier];
                    let start = position % turns.len();
                    return (0..turns.len())
                        .map(|offset| base + turns[(start + offset) % turns.len()] as usize)
                        .find(|&index| available(index))
                        .unwrap_or(base + turns[start] as usize);
                }
                let start = position % count;
                (0..count)
                    .map(|offset| at(start + offset))
                    .find(|&index| available(index))
                    .unwrap_or(at(start))
            }
            Balance::LeastOutstanding => {
                let (first, second) = match weighted {
                    Some(weighted) => {
                        // Two drawn by weight (the second again until it is another).
                        let sums = &weighted.sums[tier];
                        let total = sums.last().copied().unwrap_or(1);
                        let draw = || {
                            let point = Self::random_below(total as usize) as u64;
                            sums.partition_point(|&sum| sum <= point).min(count - 1)
                        };
                        let first = draw();
                        let mut second = draw();
                        for _ in 0..8 {
                            if second != first {
                                break;
                            }
                            second = draw();
                        }
                        if second == first {
                            second = (first + 1) % count;
                        }
                        (first, second)
                    }
                    None => {
                        let first = Self::random_below(count);
                        let mut second = Self::random_below(count - 1);
                        if second >= first {
                            second += 1;
                        }
                        (first, second)
                    }
                };
                let (first, second) = (at(first), at(second));
                match (available(first), available(second)) {
                    (true, true) => {
                        if self.lighter((second, outstanding(second)), (first, outstanding(first)))
                        {
                            second
                        } else {
                            first
                        }
                    }
                    (true, false) => first,
                    (false, true) => second,
                    (false, false) => (0..count)
                        .map(|offset| at(first - base + offset))
                        .find(|&index| available(index))
                        .unwrap_or(first),
                }
            }
        }
    }

    /// The server to try after server `last` failed, given the servers `tried` so far: an untried
    /// available one by the strategy (the least busy with a declared capacity), of the group's
    /// own, else of its backups; else an untried one marked down (the group's own first); else
    /// none.
    pub fn next(
        &self,
        tried: &[bool],
        last: usize,
        available: impl Fn(usize) -> bool,
        outstanding: impl Fn(usize) -> usize,
    ) -> Option<usize> {
        let servers = self.servers;
        let untried = |index: &usize| !tried.get(*index).copied().unwrap_or(false);
        let candidates = || {
            (1..=servers)
                .map(move |offset| (last + offset) % servers)
                .filter(untried)
        };
        let primaries = self.primaries;
        let pick = |usable: &dyn Fn(usize) -> bool, backup: bool| {
            let mut tier = candidates().filter(|&index| (index >= primaries) == backup);
            match self.strategy {
                Balance::RoundRobin | Balance::ClientAddress if !self.shortest_queue => {
                    tier.find(|&index| usable(index))
                }
                Balance::RoundRobin | Balance::ClientAddress | Balance::LeastOutstanding => tier
                    .filter(|&index| usable(index))
                    .min_by_key(|&index| outstanding(index)),
            }
        };
        pick(&available, false)
            .or_else(|| pick(&available, true))
            .or_else(|| pick(&|_| true, false))
            .or_else(|| pick(&|_| true, true))
    }
}
