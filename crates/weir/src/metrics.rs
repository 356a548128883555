//! Counters and histograms of the request path, kept per thread so recording writes nothing
//! another thread writes, and rendered in the Prometheus text format (version 0.0.4) by the admin
//! listener (`admin.rs`).
//!
//! The proxy calls [`Metrics::record_request`] once per request and
//! [`Metrics::record_upstream_failure`] once per failed exchange; pool and rate-limit figures are
//! read from their owners when `/metrics` is scraped, so they cost nothing between scrapes.
//!
//! Each thread that records gets its own block of counters ([`Block`]) the first time it records
//! into a `Metrics`: one row per route (plus one for requests no route matched), each with a
//! counter per status in a fixed table and two histograms with fixed buckets. Only that thread
//! writes its block, with plain (relaxed) loads and stores, no read-modify-write and no lock;
//! `/metrics` sums the blocks. A block lives as long as its `Metrics`, so the counts of a thread
//! that ended stay in the sums, which are exact. Recording allocates only a thread's first time.

use std::cell::RefCell;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::thread::ThreadId;
use std::time::Duration;

use http::StatusCode;

use crate::config::UpstreamAddr;
use crate::ratelimit::{ConnLimitStats, LimitStats};
use crate::upstream::{PoolStats, ServerState};
use text::{family, sample, sample_f64};

/// The content type of [`Metrics::render`]'s output.
pub const CONTENT_TYPE: &str = "text/plain; version=0.0.4; charset=utf-8";

/// Upper bounds of the latency buckets, in seconds, as they appear in `le` labels. From half a
/// millisecond (a rejection answered in memory) to a minute (the longest upstream read most
/// deployments allow); `+Inf` catches the rest.
const BUCKET_LABELS: [&str; 16] = [
    "0.0005", "0.001", "0.0025", "0.005", "0.01", "0.025", "0.05", "0.1", "0.25", "0.5", "1",
    "2.5", "5", "10", "30", "60",
];

/// The same bounds in microseconds, the unit durations are compared in.
const BUCKET_MICROS: [u64; 16] = [
    500, 1_000, 2_500, 5_000, 10_000, 25_000, 50_000, 100_000, 250_000, 500_000, 1_000_000,
    2_500_000, 5_000_000, 10_000_000, 30_000_000, 60_000_000,
];

/// Statuses counted under their own code: every code IANA registers, and nginx's 444 and 499. Anything
/// else is counted under its class (`"5xx"`), so a misbehaving upstream cannot grow the table.
const KNOWN_STATUSES: [u16; 64] = [
    100, 101, 102, 103, //
    200, 201, 202, 203, 204, 205, 206, 207, 208, 226, //
    300, 301, 302, 303, 304, 305, 307, 308, //
    400, 401, 402, 403, 404, 405, 406, 407, 408, 409, 410, 411, 412, 413, 414, 415, 416, 417, 418,
    421, 422, 423, 424, 425, 426, 428, 429, 431, 444, 451, 499, //
    500, 501, 502, 503, 504, 505, 506, 507, 508, 510, 511,
];

/// Status slots per route: the known codes, then one per class `1xx` to `9xx` (`StatusCode`
/// allows 100 to 999).
const STATUS_SLOTS: usize = KNOWN_STATUSES.len() + 9;

/// Status code -> slot, built at compile time so recording is one table read.
static STATUS_SLOT: [u8; 1000] = status_slot_table();

const fn status_slot_table() -> [u8; 1000] {
    let mut table = [0u8; 1000];
    let mut code = 100;
    while code < 1000 {
        // The class slot, replaced below when the code is a known one.
        table[code] = (KNOWN_STATUSES.len() + code / 100 - 1) as u8;
        code += 1;
    }
    let mut index = 0;
    while index < KNOWN_STATUSES.len() {
        table[KNOWN_STATUSES[index] as usize] = index as u8;
        index += 1;
    }
    table
}

/// The `status` label of a slot.
fn slot_label(slot: usize) -> String {
    match KNOWN_STATUSES.get(slot) {
        Some(code) => code.to_string(),
        None => format!("{}xx", slot - KNOWN_STATUSES.len() + 1),
    }
}

/// Upstream failures are counted per (upstream, cause) in this many slots; upstream names are
/// not known when the table is built, but a config has few upstreams and `ProxyError` has about
/// ten causes, so the table never fills in practice. Past it, failures count under `upstream=""`.
const FAILURE_SLOTS: usize = 256;

/// A latency histogram with fixed buckets.
#[derive(Debug)]
struct Histogram {
    /// Per bucket, not cumulative (one addition per observation); the last is `+Inf`.
    buckets: [AtomicU64; BUCKET_MICROS.len() + 1],
    sum_micros: AtomicU64,
}

impl Histogram {
    fn new() -> Histogram {
        Histogram {
            buckets: std::array::from_fn(|_| AtomicU64::new(0)),
            sum_micros: AtomicU64::new(0),
        }
    }

    /// Called by the block's owner only (see [`owner_add`]).
    fn observe(&self, duration: Duration) {
        let micros = u64::try_from(duration.as_micros()).unwrap_or(u64::MAX);
        let bucket = BUCKET_MICROS.partition_point(|&bound| bound < micros);
        // partition_point returns at most BUCKET_MICROS.len(), the +Inf slot: always in range.
        owner_add(&self.buckets[bucket], 1);
        owner_add(&self.sum_micros, micros);
    }

    /// Cumulative counts per bucket (the last is the total) and the sum in seconds.
    fn snapshot(&self) -> ([u64; BUCKET_MICROS.len() + 1], f64) {
        let mut cumulative = [0u64; BUCKET_MICROS.len() + 1];
        let mut running = 0u64;
        for (index, bucket) in self.buckets.iter().enumerate() {
            running += bucket.load(Ordering::Relaxed);
            cumulative[index] = running;
        }
        let sum = self.sum_micros.load(Ordering::Relaxed) as f64 / 1e6;
        (cumulative, sum)
    }
}

/// Adds to a counter of a thread's own block: a relaxed load and store, no read-modify-write, as
/// only the owning thread writes it (readers see the old or the new value, never a torn one).
fn owner_add(counter: &AtomicU64, by: u64) {
    counter.store(
        counter.load(Ordering::Relaxed).wrapping_add(by),
        Ordering::Relaxed,
    );
}

/// Counters of one route (or of the requests no route matched), in one thread's block. Aligned
/// to two cache lines (the prefetcher fetches lines in pairs), so no other thread's data shares a
/// line with a row.
#[derive(Debug)]
#[repr(align(128))]
struct RouteCounters {
    statuses: [AtomicU64; STATUS_SLOTS],
    total: Histogram,
    upstream: Histogram,
}

impl RouteCounters {
    fn new() -> RouteCounters {
        RouteCounters {
            statuses: std::array::from_fn(|_| AtomicU64::new(0)),
            total: Histogram::new(),
            upstream: Histogram::new(),
        }
    }
}

/// One (upstream, cause) failure counter; the key is set once, by the first failure of its kind.
#[derive(Debug, Default)]
struct FailureSlot {
    key: OnceLock<(Box<str>, &'static str)>,
    count: AtomicU64,
}

/// One thread's counters in one [`Metrics`]: a row per route, then one for requests no route
/// matched. Written by its thread only.
#[derive(Debug)]
struct Block {
    rows: Box<[RouteCounters]>,
}

/// The blocks a thread records into, by [`Metrics::id`]: a few, as a thread serves one gateway
/// (more only in tests, or for a moment after a reload that changed the routes). Past
/// [`CACHED_BLOCKS`] the oldest is forgotten here (its `Metrics` still holds it, and gives it
/// back if the thread records there again).
const CACHED_BLOCKS: usize = 4;

thread_local! {
    static BLOCKS: RefCell<Vec<(u64, Arc<Block>)>> = const { RefCell::new(Vec::new()) };
}

/// The gateway's metrics. One instance per gateway, shared by every connection.
#[derive(Debug)]
pub struct Metrics {
    /// This instance among all (the key of a thread's cached block).
    id: u64,
    /// One label per route, in the order of the config's `[[routes]]`.
    routes: Vec<String>,
    /// Every thread's block, registered when the thread first records; locked only then and
    /// when `/metrics` sums them. A thread's block stays to the end (threads of a gateway live
    /// as long as it), so no count is lost.
    blocks: Mutex<Vec<(ThreadId, Arc<Block>)>>,
    failures: Box<[FailureSlot]>,
    /// Failures that found the slot table full.
    failures_overflow: AtomicU64,
}

impl Default for Metrics {
    fn default() -> Metrics {
        Metrics::new(Vec::new())
    }
}

impl Metrics {
    /// `routes` are the route labels (e.g. `"/api/"` or `"example.com/api/"`), by route index.
    pub fn new(routes: Vec<String>) -> Metrics {
        // Once per instance (a gateway's start, a reload that changed the routes).
        static NEXT_ID: AtomicU64 = AtomicU64::new(0);
        Metrics {
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
            routes,
            blocks: Mutex::new(Vec::new()),
            failures: (0..FAILURE_SLOTS).map(|_| FailureSlot::default()).collect(),
            failures_overflow: AtomicU64::new(0),
        }
    }

    /// The route labels, by index.
    pub fn routes(&self) -> &[String] {
        &self.routes
    }

    /// Runs `record` on this thread's block, registering one the first time.
    fn with_block(&self, record: impl FnOnce(&Block)) {
        let mut record = Some(record);
        let cached = BLOCKS.try_with(|cached| {
            let mut cached = cached.borrow_mut();
            let index = match cached.iter().position(|(id, _)| *id == self.id) {
                Some(index) => index,
                None => {
                    if cached.len() == CACHED_BLOCKS {
                        cached.remove(0);
                    }
                    cached.push((self.id, self.register()));
                    cached.len() - 1
                }
            };
            if let Some(record) = record.take() {
                // `index` was found or pushed just now: in range.
                record(&cached[index].1);
            }
        });
        // The thread is ending and its cache is gone: the registry still has its block.
        if let (Err(_), Some(record)) = (cached, record) {
            record(&self.register());
        }
    }

    /// This thread's block, from the registry or new.
    fn register(&self) -> Arc<Block> {
        let thread = std::thread::current().id();
        let mut blocks = self.lock_blocks();
        if let Some((_, block)) = blocks.iter().find(|(owner, _)| *owner == thread) {
            return Arc::clone(block);
        }
        let block = Arc::new(Block {
            rows: (0..self.rows()).map(|_| RouteCounters::new()).collect(),
        });
        blocks.push((thread, Arc::clone(&block)));
        block
    }

    fn lock_blocks(&self) -> std::sync::MutexGuard<'_, Vec<(ThreadId, Arc<Block>)>> {
        // Nothing panics while it is held; a poisoned list is still whole.
        self.blocks
            .lock()
            .unwrap_or_else(|poison| poison.into_inner())
    }

    /// Every thread's block, for summing.
    fn blocks(&self) -> Vec<Arc<Block>> {
        self.lock_blocks()
            .iter()
            .map(|(_, block)| Arc::clone(block))
            .collect()
    }

    /// One request done: its route (None when no route matched), status, total time and the
    /// time until the upstream's response head (None when no upstream answered).
    pub fn record_request(
        &self,
        route: Option<usize>,
        status: StatusCode,
        total: Duration,
        upstream: Option<Duration>,
    ) {
        let row = route
            .filter(|&index| index < self.routes.len())
            .unwrap_or(self.routes.len());
        let slot = usize::from(STATUS_SLOT[usize::from(status.as_u16()) % 1000]);
        self.with_block(|block| {
            // A block has routes.len() + 1 rows and `row` is at most routes.len(): in range.
            let counters = &block.rows[row];
            owner_add(&counters.statuses[slot], 1);
            counters.total.observe(total);
            if let Some(upstream) = upstream {
                counters.upstream.observe(upstream);
            }
        });
    }

    /// An exchange with an upstream server failed; `cause` is `ProxyError::cause()`.
    pub fn record_upstream_failure(&self, upstream: &str, cause: &'static str) {
        for slot in self.failures.iter() {
            let key = match slot.key.get() {
                Some(key) => key,
                // The first free slot: claim it, or find out who did. Setting blocks only while
                // another thread sets the same slot, once per (upstream, cause) in the process's
                // life.
                None => slot.key.get_or_init(|| (upstream.into(), cause)),
            };
            if &*key.0 == upstream && key.1 == cause {
                slot.count.fetch_add(1, Ordering::Relaxed);
                return;
            }
        }
        self.failures_overflow.fetch_add(1, Ordering::Relaxed);
    }

    /// Everything in the Prometheus text format, with the pool, rate-limit and buffer figures
    /// the gateway gives (`GatewayHandle::render_metrics`).
    pub fn render(
        &self,
        pools: &[(String, UpstreamAddr, PoolStats)],
        limits: &[(String, LimitStats)],
        buffers: &crate::buffering::BufferStats,
    ) -> String {
        let mut out = self.render_with(pools, limits);
        render_buffers(&mut out, buffers);
        out
    }

    /// Everything in the Prometheus text format, with the pool and limit figures given.
    pub fn render_with(
        &self,
        pools: &[(String, UpstreamAddr, PoolStats)],
        limits: &[(String, LimitStats)],
    ) -> String {
        let mut out = String::with_capacity(16 * 1024);
        self.render_requests(&mut out);
        self.render_failures(&mut out);
        render_pools(&mut out, pools);
        render_limits(&mut out, limits);
        out
    }

    /// The label of a counter row: the route, or `""` for requests no route matched.
    fn route_label(&self, row: usize) -> &str {
        self.routes.get(row).map_or("", String::as_str)
    }

    /// Route rows: one per route, and the last for requests no route matched.
    fn rows(&self) -> usize {
        self.routes.len() + 1
    }

    fn render_requests(&self, out: &mut String) {
        family(
            out,
            "weir_requests_total",
            "counter",
            "Requests answered, by route (\"\" when none matched) and status.",
        );
        let blocks = self.blocks();
        for row in 0..self.rows() {
            for slot in 0..STATUS_SLOTS {
                let count: u64 = blocks
                    .iter()
                    .map(|block| block.rows[row].statuses[slot].load(Ordering::Relaxed))
                    .sum();
                if count != 0 {
                    sample(
                        out,
                        "weir_requests_total",
                        &[
                            ("route", self.route_label(row)),
                            ("status", &slot_label(slot)),
                        ],
                        count,
                    );
                }
            }
        }
        type HistogramOf = fn(&RouteCounters) -> &Histogram;
        let histograms: [(&str, &str, HistogramOf); 2] = [
            (
                "weir_request_duration_seconds",
                "Time from the request's arrival until its response head was ready, by route.",
                |counters| &counters.total,
            ),
            (
                "weir_upstream_duration_seconds",
                "Time from sending the request upstream to the upstream's response head, by route.",
                |counters| &counters.upstream,
            ),
        ];
        for (name, help, histogram_of) in histograms {
            family(out, name, "histogram", help);
            for row in 0..self.rows() {
                let (mut cumulative, mut sum) = ([0u64; BUCKET_MICROS.len() + 1], 0.0);
                for block in &blocks {
                    let (block_cumulative, block_sum) = histogram_of(&block.rows[row]).snapshot();
                    for (total, value) in cumulative.iter_mut().zip(block_cumulative) {
                        *total += value;
                    }
                    sum += block_sum;
                }
                let count = cumulative[BUCKET_MICROS.len()];
                if count == 0 {
                    continue;
                }
                let route = self.route_label(row);
                let bucket_name = format!("{name}_bucket");
                for (label, value) in BUCKET_LABELS.iter().chain(["+Inf"].iter()).zip(cumulative) {
                    sample(out, &bucket_name, &[("route", route), ("le", label)], value);
                }
                sample_f64(out, &format!("{name}_sum"), &[("route", route)], sum);
                sample(out, &format!("{name}_count"), &[("route", route)], count);
            }
        }
    }

    fn render_failures(&self, out: &mut String) {
        family(
            out,
            "weir_upstream_failures_total",
            "counter",
            "Failed exchanges with an upstream, by upstream and cause.",
        );
        for slot in self.failures.iter() {
            let Some((upstream, cause)) = slot.key.get() else {
                break;
            };
            let count = slot.count.load(Ordering::Relaxed);
            sample(
                out,
                "weir_upstream_failures_total",
                &[("upstream", upstream), ("cause", cause)],
                count,
            );
        }
        let overflow = self.failures_overflow.load(Ordering::Relaxed);
        if overflow != 0 {
            sample(
                out,
                "weir_upstream_failures_total",
                &[("upstream", ""), ("cause", "")],
                overflow,
            );
        }
    }
}

/// A family read from a stats struct: name, type, help, and the field.
type Family<T> = (&'static str, &'static str, &'static str, fn(&T) -> u64);

fn render_pools(out: &mut String, pools: &[(String, UpstreamAddr, PoolStats)]) {
    let families: [Family<PoolStats>; 7] = [
        (
            "weir_pool_open_connections",
            "gauge",
            "Connections to the server that exist or are being made (async workers: but streams and WebSockets past their response head).",
            |stats| stats.open as u64,
        ),
        (
            "weir_pool_idle_connections",
            "gauge",
            "Open connections waiting in the pool for a request.",
            |stats| stats.idle as u64,
        ),
        (
            "weir_pool_in_use_connections",
            "gauge",
            "Open connections carrying a request.",
            |stats| stats.in_use as u64,
        ),
        (
            "weir_pool_waiting_requests",
            "gauge",
            "Requests waiting for a connection to the server.",
            |stats| stats.waiting as u64,
        ),
        (
            "weir_pool_queue_timeouts_total",
            "counter",
            "Requests that gave up waiting for a connection (answered 503).",
            |stats| stats.queue_timeouts,
        ),
        (
            "weir_pool_connects_total",
            "counter",
            "Connections made to the server.",
            |stats| stats.connects,
        ),
        (
            "weir_pool_reuses_total",
            "counter",
            "Requests sent on a reused connection.",
            |stats| stats.reuses,
        ),
    ];
    for (name, kind, help, value_of) in families {
        family(out, name, kind, help);
        for (upstream, server, stats) in pools {
            sample(
                out,
                name,
                &[("upstream", upstream), ("server", &server.to_string())],
                value_of(stats),
            );
        }
    }
    overload::render(out, pools);
}

/// A counter family of decisions: one sample per limit and decision, as `counts` reads them.
fn per_decision<T, const N: usize>(
    out: &mut String,
    (name, help): (&str, &str),
    limits: &[(String, T)],
    counts: fn(&T) -> [(&'static str, u64); N],
) {
    family(out, name, "counter", help);
    for (limit, stats) in limits {
        for (decision, count) in counts(stats) {
            sample(
                out,
                name,
                &[("limit", limit), ("decision", decision)],
                count,
            );
        }
    }
}

/// Each of `families`, one sample per limit.
fn per_limit<T>(out: &mut String, limits: &[(String, T)], families: &[Family<T>]) {
    for (name, kind, help, value_of) in families {
        family(out, name, kind, help);
        for (limit, stats) in limits {
            sample(out, name, &[("limit", limit)], value_of(stats));
        }
    }
}

fn render_limits(out: &mut String, limits: &[(String, LimitStats)]) {
    per_decision(
        out,
        (
            "weir_ratelimit_decisions_total",
            "Requests a limit applied to, by limit and decision (dry_run: would have been delayed or rejected).",
        ),
        limits,
        |stats| {
            [
                ("passed", stats.passed),
                ("delayed", stats.delayed),
                ("rejected", stats.rejected),
                ("dry_run", stats.dry_run),
            ]
        },
    );
    let families: [Family<LimitStats>; 3] = [
        (
            "weir_ratelimit_keys",
            "gauge",
            "Keys a limit holds in memory.",
            |stats| stats.keys as u64,
        ),
        (
            "weir_ratelimit_redis_calls_total",
            "counter",
            "Script calls a Redis limit made.",
            |stats| stats.redis_calls,
        ),
        (
            "weir_ratelimit_redis_errors_total",
            "counter",
            "Redis calls that failed or timed out.",
            |stats| stats.redis_errors,
        ),
    ];
    per_limit(out, limits, &families);
}

/// The connection limits' figures: requests by decision, requests and keys in flight.
pub(crate) fn render_conn_limits(out: &mut String, limits: &[(String, ConnLimitStats)]) {
    if limits.is_empty() {
        return;
    }
    per_decision(
        out,
        (
            "weir_connection_limit_decisions_total",
            "Requests a connection limit applied to, by limit and decision (dry_run: would have been refused).",
        ),
        limits,
        |stats| {
            [
                ("admitted", stats.admitted),
                ("refused", stats.refused),
                ("dry_run", stats.dry_run),
            ]
        },
    );
    let families: [Family<ConnLimitStats>; 2] = [
        (
            "weir_connection_limit_in_flight",
            "gauge",
            "Requests holding a place under a connection limit now.",
            |stats| stats.in_flight,
        ),
        (
            "weir_connection_limit_keys",
            "gauge",
            "Keys with a request in flight under a connection limit now.",
            |stats| stats.keys as u64,
        ),
    ];
    per_limit(out, limits, &families);
}

/// The reload figures: the config generation in force, the time of the last successful reload
/// (0 before any) and the count of reloads by result.
/// The idle keep-alive connections parked out of their tasks now.
pub fn render_connections(out: &mut String, open: u64, parked: u64) {
    family(
        out,
        "weir_connections_open",
        "gauge",
        "Client connections open now (each holds a max_connections place), parked ones included.",
    );
    sample(out, "weir_connections_open", &[], open);
    family(
        out,
        "weir_connections_parked",
        "gauge",
        "Idle plain-HTTP keep-alive connections parked (waiting for a request with no task).",
    );
    sample(out, "weir_connections_parked", &[], parked);
}

/// Each upstream server's health: whether the balancer picks it, and its active checks'
/// outcomes (only for a server checked at least once).
pub fn render_health(out: &mut String, servers: &[(String, ServerState)]) {
    family(
        out,
        "weir_upstream_server_up",
        "gauge",
        "1 while neither passive (max_fails) nor active (health_check) health has the server marked down, else 0.",
    );
    for (upstream, state) in servers {
        sample(
            out,
            "weir_upstream_server_up",
            &[("upstream", upstream), ("server", &state.addr.to_string())],
            u64::from(state.healthy),
        );
    }
    family(
        out,
        "weir_health_checks_total",
        "counter",
        "Active health checks (health_check) by result: passed, failed, or skipped (no place in the server's capped pool within the interval).",
    );
    for (upstream, state) in servers {
        let checks = state.checks;
        if checks.passed + checks.failed + checks.skipped == 0 {
            continue;
        }
        let server = state.addr.to_string();
        for (result, count) in [
            ("passed", checks.passed),
            ("failed", checks.failed),
            ("skipped", checks.skipped),
        ] {
            sample(
                out,
                "weir_health_checks_total",
                &[
                    ("upstream", upstream),
                    ("server", &server),
                    ("result", result),
                ],
                count,
            );
        }
    }
}

pub fn render_reloads(
    out: &mut String,
    generation: u64,
    last_reload_unix_seconds: u64,
    successes: u64,
    failures: u64,
) {
    family(
        out,
        "weir_config_generation",
        "gauge",
        "The configuration in force: 1 at start, one more per successful reload.",
    );
    sample(out, "weir_config_generation", &[], generation);
    family(
        out,
        "weir_config_last_reload_timestamp_seconds",
        "gauge",
        "Unix time of the last successful reload; 0 before any.",
    );
    sample(
        out,
        "weir_config_last_reload_timestamp_seconds",
        &[],
        last_reload_unix_seconds,
    );
    family(
        out,
        "weir_config_reloads_total",
        "counter",
        "Reloads asked for (SIGHUP, weir reload), by result.",
    );
    sample(
        out,
        "weir_config_reloads_total",
        &[("result", "success")],
        successes,
    );
    sample(
        out,
        "weir_config_reloads_total",
        &[("result", "failure")],
        failures,
    );
}

/// The TLS handshake figures: completed handshakes by version, resumed ones, and failures by
/// reason.
pub fn render_tls(out: &mut String, stats: &crate::tls::TlsStats) {
    family(
        out,
        "weir_tls_handshakes_total",
        "counter",
        "TLS handshakes completed, by protocol version.",
    );
    for (version, count) in stats.handshakes() {
        sample(
            out,
            "weir_tls_handshakes_total",
            &[("version", version)],
            count,
        );
    }
    family(
        out,
        "weir_tls_resumed_handshakes_total",
        "counter",
        "TLS handshakes that resumed a session (ticket or cache).",
    );
    sample(
        out,
        "weir_tls_resumed_handshakes_total",
        &[],
        stats.resumed(),
    );
    family(
        out,
        "weir_tls_handshake_failures_total",
        "counter",
        "TLS handshakes that failed, by reason.",
    );
    for (reason, count) in stats.failures() {
        sample(
            out,
            "weir_tls_handshake_failures_total",
            &[("reason", reason)],
            count,
        );
    }
}

/// Gauges without labels, each with its help line.
fn render_gauges(out: &mut String, gauges: &[(&str, &str, u64)]) {
    for &(name, help, value) in gauges {
        family(out, name, "gauge", help);
        sample(out, name, &[], value);
    }
}

/// The routes' `cache`: what it keeps, and requests by how it answered.
pub fn render_cache(out: &mut String, stats: &crate::cache::CacheStats) {
    let gauges = [
        (
            "weir_cache_bytes",
            "Bytes the routes' cache keeps now, kept answers with their heads and keys (capped by cache_size).",
            stats.kept_bytes,
        ),
        (
            "weir_cache_answers",
            "Answers the routes' cache keeps now.",
            stats.kept as u64,
        ),
        (
            "weir_cache_filling_bytes",
            "Bytes of answers being copied into the cache now (capped by cache_size).",
            stats.filling_bytes,
        ),
    ];
    render_gauges(out, &gauges);
    let name = "weir_cache_requests_total";
    family(
        out,
        name,
        "counter",
        "Requests to routes with cache, by how the cache answered ($upstream_cache_status).",
    );
    for (status, count) in crate::cache::STATUSES.iter().zip(stats.counted) {
        sample(out, name, &[("status", status)], count);
    }
}

fn render_buffers(out: &mut String, buffers: &crate::buffering::BufferStats) {
    let gauges = [
        (
            "weir_spool_bytes",
            "Bytes of request bodies and read-ahead responses in spool files now (capped by max_spool_size).",
            buffers.spooled,
        ),
        (
            "weir_read_ahead_bytes",
            "Bytes of responses read ahead of their clients and held in memory now.",
            buffers.read_ahead as u64,
        ),
        (
            "weir_request_body_memory_bytes",
            "Bytes of buffered request bodies held in memory now (capped by max_body_memory).",
            buffers.body_memory,
        ),
    ];
    render_gauges(out, &gauges);
    let name = "weir_spliced_bytes_total";
    family(
        out,
        name,
        "counter",
        "Response body bytes moved from upstream to client sockets by splice(2), by this process.",
    );
    sample(out, name, &[], spliced());
}

/// Body bytes moved by `splice` to clients since the process started (`weir_spliced_bytes_total`),
/// one counter per thread that spliced, each written by its thread only; they stay when their
/// thread ends, so the sum is exact.
static SPLICED: Mutex<Vec<Arc<OwnCounter>>> = Mutex::new(Vec::new());

/// A counter one thread writes, alone on its cache lines.
#[derive(Debug, Default)]
#[repr(align(128))]
struct OwnCounter(AtomicU64);

/// A new counter, counted in [`SPLICED`] from now on.
fn register_spliced() -> Arc<OwnCounter> {
    let counter = Arc::new(OwnCounter::default());
    SPLICED
        .lock()
        .unwrap_or_else(|poison| poison.into_inner())
        .push(Arc::clone(&counter));
    counter
}

thread_local! {
    /// This thread's counter in [`SPLICED`], registered at its first splice.
    static SPLICED_HERE: Arc<OwnCounter> = register_spliced();
}

/// Counts body bytes the HTTP/1 writer moved to a client by `splice`.
pub fn add_spliced(bytes: u64) {
    if SPLICED_HERE
        .try_with(|counter| owner_add(&counter.0, bytes))
        .is_err()
    {
        // The thread is ending and its counter is gone: one of its own for these bytes.
        owner_add(&register_spliced().0, bytes);
    }
}

/// The bytes spliced by every thread.
fn spliced() -> u64 {
    SPLICED
        .lock()
        .unwrap_or_else(|poison| poison.into_inner())
        .iter()
        .map(|counter| counter.0.load(Ordering::Relaxed))
        .sum()
}

mod overload;
mod text;

#[cfg(test)]
mod tests;
