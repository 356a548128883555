//! Which server of an upstream takes a request: round-robin, or the one with fewer requests in
//! flight of two drawn at random (least outstanding by the power of two choices); with a declared
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
        }
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
    pub fn first(
        &self,
        available: impl Fn(usize) -> bool,
        outstanding: impl Fn(usize) -> usize,
    ) -> usize {
        self.first_in(thread_slot() as usize, available, outstanding)
    }

    /// [`Balancer::first`] as thread number `thread` (its lane: `thread` modulo the lanes).
    pub(super) fn first_in(
        &self,
        thread: usize,
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
        if self.shortest_queue {
            let turn = &self.turns[thread % self.turns.len()].0;
            let start = turn.fetch_add(1, Ordering::Relaxed) % count;
            let mut shortest: Option<(usize, usize)> = None;
            for index in (0..count).map(|offset| at(start + offset)) {
                if !available(index) {
                    continue;
                }
                let load = outstanding(index);
                if shortest.is_none_or(|(_, least)| load < least) {
                    shortest = Some((index, load));
                }
            }
            return shortest.map_or(at(start), |(index, _)| index);
        }
        match self.strategy {
            Balance::RoundRobin => {
                let turn = &self.turns[thread % self.turns.len()].0;
                let start = turn.fetch_add(1, Ordering::Relaxed) % count;
                (0..count)
                    .map(|offset| at(start + offset))
                    .find(|&index| available(index))
                    .unwrap_or(at(start))
            }
            Balance::LeastOutstanding => {
                let first = Self::random_below(count);
                let mut second = Self::random_below(count - 1);
                if second >= first {
                    second += 1;
                }
                let (first, second) = (at(first), at(second));
                match (available(first), available(second)) {
                    (true, true) => {
                        if outstanding(second) < outstanding(first) {
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
                Balance::RoundRobin if !self.shortest_queue => tier.find(|&index| usable(index)),
                Balance::RoundRobin | Balance::LeastOutstanding => tier
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
