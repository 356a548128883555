//! Which server of an upstream takes a request: round-robin, or the one with fewer requests in
//! flight of two drawn at random (least outstanding by the power of two choices). Servers that
//! health marks down are passed over while another may be tried; when every server is down, they
//! are tried anyway, as nginx does, rather than failing the request outright.
//!
//! The balancer knows servers by index only; availability and the requests in flight to each
//! come from the caller (health and the pools), so this file holds no per-server state and can
//! be tested alone.

use std::collections::hash_map::RandomState;
use std::hash::BuildHasher;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

use crate::config::Balance;

/// Picks servers for requests. The requests in flight to each, which least outstanding
/// compares, are counted by the servers' pools and read through the caller, like availability.
pub struct Balancer {
    strategy: Balance,
    servers: usize,
    /// The next round-robin position.
    next: AtomicUsize,
    /// The state of a SplitMix64 generator, shared by all requests: cheap, lock-free, and random
    /// enough to draw two servers.
    random: AtomicU64,
}

impl Balancer {
    /// A balancer over `servers` servers (taken as one when 0: the caller answers an empty set
    /// before asking).
    pub fn new(strategy: Balance, servers: usize) -> Balancer {
        Balancer {
            strategy,
            servers: servers.max(1),
            next: AtomicUsize::new(0),
            random: AtomicU64::new(RandomState::new().hash_one(servers)),
        }
    }

    fn random_below(&self, bound: usize) -> usize {
        let mut z = self
            .random
            .fetch_add(0x9E37_79B9_7F4A_7C15, Ordering::Relaxed)
            .wrapping_add(0x9E37_79B9_7F4A_7C15);
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
        let servers = self.servers;
        if servers == 1 {
            return 0;
        }
        match self.strategy {
            Balance::RoundRobin => {
                let start = self.next.fetch_add(1, Ordering::Relaxed) % servers;
                (0..servers)
                    .map(|offset| (start + offset) % servers)
                    .find(|&index| available(index))
                    .unwrap_or(start)
            }
            Balance::LeastOutstanding => {
                let first = self.random_below(servers);
                let mut second = self.random_below(servers - 1);
                if second >= first {
                    second += 1;
                }
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
                    (false, false) => (0..servers)
                        .map(|offset| (first + offset) % servers)
                        .find(|&index| available(index))
                        .unwrap_or(first),
                }
            }
        }
    }

    /// The server to try after server `last` failed, given the servers `tried` so far: an untried
    /// available one by the strategy, else an untried one marked down, else none.
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
        let pick = |usable: &dyn Fn(usize) -> bool| match self.strategy {
            Balance::RoundRobin => candidates().find(|&index| usable(index)),
            Balance::LeastOutstanding => candidates()
                .filter(|&index| usable(index))
                .min_by_key(|&index| outstanding(index)),
        };
        pick(&available).or_else(|| pick(&|_| true))
    }
}
