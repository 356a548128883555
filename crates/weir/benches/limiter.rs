//! The limiter's own cost per decision, single-threaded: a hit on an existing key, a new key in a
//! full table (so every new key evicts one), and a rejection; each against a naive baseline in
//! this file, one `Mutex<HashMap<Vec<u8>, f64>>` holding a TAT in seconds with no bound and no
//! eviction. Run: `cargo bench -p weir --bench limiter -- --warm-up-time 1 --measurement-time 2`.

use std::collections::HashMap;
use std::hint::black_box;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, Criterion};
use weir::config::{Delay, LimitBackend, LimiterConfig, Rate};
use weir::ratelimit::{Limiter, Limiters};

/// The naive baseline: GCRA on one global lock, keys copied into the map, floats for time.
struct Naive {
    state: Mutex<HashMap<Vec<u8>, f64>>,
    epoch: Instant,
    period: f64,
    window: f64,
}

impl Naive {
    fn new(rate_per_second: f64, burst: u32) -> Naive {
        let period = 1.0 / rate_per_second;
        Naive {
            state: Mutex::new(HashMap::new()),
            epoch: Instant::now(),
            period,
            window: period * f64::from(burst + 1),
        }
    }

    fn check(&self, key: &[u8]) -> bool {
        let now = self.epoch.elapsed().as_secs_f64();
        let mut state = self.state.lock().expect("bench lock");
        let tat = state.get(key).copied().unwrap_or(now).max(now);
        let charged = tat + self.period;
        if charged - now > self.window {
            return false;
        }
        match state.get_mut(key) {
            Some(stored) => *stored = charged,
            None => {
                state.insert(key.to_vec(), charged);
            }
        }
        true
    }
}

fn limits(count: u64, per: Duration, burst: u32, max_keys: usize) -> Limiters {
    let config = LimiterConfig {
        rate: Rate { count, per },
        burst,
        delay: Delay::NoDelay,
        dry_run: false,
        max_keys,
        nginx_rounding: false,
        backend: LimitBackend::Memory,
    };
    let limiter = Limiter::new("bench", &config).expect("a valid limit");
    Limiters::new(vec![Arc::new(limiter)])
}

fn decide(limiters: &Limiters, key: &[u8]) -> bool {
    limiters
        .try_check(&[key])
        .is_some_and(|decision| !decision.is_rejected())
}

fn bench(criterion: &mut Criterion) {
    let key = [203, 0, 113, 7];

    // A rate no benchmark can reach: every check on the existing key passes.
    let mut group = criterion.benchmark_group("hit");
    let limiters = limits(1_000_000_000_000, Duration::from_secs(1), 0, 100_000);
    assert!(decide(&limiters, &key));
    group.bench_function("weir", |bencher| {
        bencher.iter(|| decide(&limiters, black_box(&key)))
    });
    // Floats cannot hold a picosecond period next to the clock; a nanosecond with headroom
    // passes every check just the same.
    let naive = Naive::new(1e9, 1000);
    assert!(naive.check(&key));
    group.bench_function("naive", |bencher| {
        bencher.iter(|| naive.check(black_box(&key)))
    });
    group.finish();

    // Distinct addresses: weir's table is full at 100,000 keys and evicts; the naive map grows.
    let mut group = criterion.benchmark_group("new_key");
    let limiters = limits(1, Duration::from_secs(60), 0, 100_000);
    let mut client = 0u32;
    group.bench_function("weir", |bencher| {
        bencher.iter(|| {
            client = client.wrapping_add(1);
            decide(&limiters, black_box(&client.to_be_bytes()))
        })
    });
    let naive = Naive::new(1.0 / 60.0, 0);
    let mut client = 0u32;
    group.bench_function("naive", |bencher| {
        bencher.iter(|| {
            client = client.wrapping_add(1);
            naive.check(black_box(&client.to_be_bytes()))
        })
    });
    group.finish();

    // One key over its limit: the flood path.
    let mut group = criterion.benchmark_group("reject");
    let limiters = limits(1, Duration::from_secs(60), 0, 100_000);
    assert!(decide(&limiters, &key));
    assert!(!decide(&limiters, &key));
    group.bench_function("weir", |bencher| {
        bencher.iter(|| decide(&limiters, black_box(&key)))
    });
    let naive = Naive::new(1.0 / 60.0, 0);
    assert!(naive.check(&key));
    assert!(!naive.check(&key));
    group.bench_function("naive", |bencher| {
        bencher.iter(|| naive.check(black_box(&key)))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
