//! Upstream servers: the group a route sends to ([`Upstream`]), which picks a server
//! (`balance.rs`), watches its health (`health.rs`), moves a failed request on to the next server
//! when that is safe, and keeps a pool of connections towards each (`pool.rs`). A server's address
//! is the config's [`UpstreamAddr`]; servers given by host name are resolved by `resolve.rs`, so
//! the group's servers are a `ServerSet` that may change while requests are in flight: a request
//! keeps the set it started with (unless its server leaves the group while it waits for it:
//! `Retry::Moved`), and an HTTP/1 connection keeps it between its requests ([`Kept`]). A failed
//! connect to a name's address has the names resolved again at once.

mod balance;
pub mod client;
mod connect;
mod health;
mod pool;
pub mod resolve;
mod stream;
#[cfg(test)]
mod tests;

use std::future::poll_fn;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, Weak};
use std::task::{Context, Poll};
use std::time::Duration;

use bytes::Bytes;
use http::Method;
use http_body::{Frame, SizeHint};
use tokio::time::Instant;

use crate::config::{HealthCheckConfig, Priority, ServerName, UpstreamAddr, UpstreamConfig};
use crate::error::BoxError;
use crate::error::ProxyError;
use crate::head_view::{Headers, Request, Response};
use crate::request_body::RequestBody;
use crate::spares::SpareBox;
use balance::Balancer;
use client::{ClientConn, HeadError, ResponseFraming, ResponseHead, SendError, Sending};
pub use health::ActiveChecks;
use health::{Health, PassiveSettings};
pub use pool::{admission, Checkout, CheckoutError, Pool, PoolSettings, PoolStats, Pooled};

/// A named group of upstream servers, each with its own pool and health, balanced as the
/// config's `balance` says.
pub struct Upstream {
    name: String,
    /// The servers now, shared with the tasks that resolve host names.
    set: Arc<ServerSet>,
    /// Tells the resolving tasks to resolve now; dropped with the upstream, it ends them (the
    /// set and the active checks hold it weakly).
    resolve: Arc<resolve::ResolveAgain>,
    connect_timeout: Duration,
    read_timeout: Duration,
    send_timeout: Duration,
    keepalive: bool,
    /// `keepalive_time`: how long a connection is reused at most.
    keepalive_time: Duration,
}

/// One server's state, for metrics and the admin endpoints.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServerState {
    pub addr: UpstreamAddr,
    /// Marked down by neither passive nor active health, so the balancer picks it.
    pub healthy: bool,
    /// Down after `max_fails` failures within `fail_timeout` (until a trial request succeeds).
    pub passive_down: bool,
    /// Down after `health_check.fails` failed checks (until `passes` checks pass).
    pub active_down: bool,
    /// The active checks' outcomes since start (all zero without `health_check`).
    pub checks: ActiveChecks,
    /// Requests in flight to it, counted by its pool from the checkout (queued included) to the
    /// end of the response body: what `least_outstanding` compares.
    pub outstanding: usize,
    /// Failures counted since start: connect errors and time-outs, exchanges that failed before
    /// a response head, read time-outs.
    pub failures: u64,
    pub pool: PoolStats,
}

/// Whether a request that may have reached a server is safe to send again (idempotent method,
/// no body). Such a request is rebuilt from its head only when an exchange fails: no copy of it
/// is made up front.
fn repeatable(request: &Request<RequestBody>) -> bool {
    let idempotent = matches!(
        *request.method(),
        Method::GET | Method::HEAD | Method::OPTIONS | Method::PUT | Method::DELETE | Method::TRACE
    );
    idempotent && matches!(request.body(), RequestBody::Full(None))
}

/// The deadline the client asked for in [`pool::admission::DEADLINE_HEADER`], if any.
fn client_deadline(headers: &Headers) -> Option<Duration> {
    pool::admission::client_deadline(headers.get(pool::admission::DEADLINE_HEADER)?)
}

/// Whether a connect failed because nothing listens on the server's address: refused (TCP, or
/// a Unix socket file left behind), or no socket file (Gunicorn removes its own on the way out).
fn not_listening(error: &ProxyError) -> bool {
    matches!(
        error,
        ProxyError::Connect { source, .. }
            if matches!(
                source.kind(),
                std::io::ErrorKind::ConnectionRefused
                    | std::io::ErrorKind::NotFound
                    | std::io::ErrorKind::HostUnreachable
            )
    )
}

/// A group's servers: the addresses given as such, then those its names resolved to, each once;
/// then its backups the same way, but for one already a server of the group.
struct Wanted {
    addrs: Vec<UpstreamAddr>,
    /// How many of `addrs` come before the backups.
    primaries: usize,
    /// Each server's weight (`weights`: a name's for each of its addresses; 1 when not given).
    weights: Vec<u32>,
}

fn servers_of(
    fixed: &[UpstreamAddr],
    backup_fixed: &[UpstreamAddr],
    names: &[ServerName],
    resolved: &[Vec<UpstreamAddr>],
    weights: &[(String, u32)],
) -> Wanted {
    let weight_of = |server: String| {
        weights
            .iter()
            .find(|(given, _)| *given == server)
            .map_or(1, |(_, weight)| *weight)
    };
    let mut addrs = Vec::new();
    let mut server_weights = Vec::new();
    let mut primaries = 0;
    for backup in [false, true] {
        let given = if backup { backup_fixed } else { fixed };
        let given = given.iter().map(|addr| (addr, weight_of(addr.to_string())));
        let of_names = names
            .iter()
            .zip(resolved)
            .filter(|(name, _)| name.backup == backup)
            .flat_map(|(name, resolved)| {
                let weight = weight_of(name.to_string());
                resolved.iter().map(move |addr| (addr, weight))
            });
        for (addr, weight) in given.chain(of_names) {
            if !addrs.contains(addr) {
                addrs.push(addr.clone());
                server_weights.push(weight);
            }
        }
        if !backup {
            primaries = addrs.len();
        }
    }
    Wanted {
        addrs,
        primaries,
        weights: server_weights,
    }
}

/// Whether a server refused a request because it was full: its queue, or admission (503).
fn is_full(error: &ProxyError) -> bool {
    matches!(
        error,
        ProxyError::QueueFull { .. } | ProxyError::Overloaded { .. }
    )
}

/// Whether a server of `group` other than `pool` listens: it is not marked refusing
/// ([`Pool::refuses`], which a refused connect to a capped server sets, or a new connection it
/// closed unanswered, and a successful connect clears).
fn another_listens(group: &[Arc<Pool>], pool: &Pool) -> bool {
    others(group, pool).any(|other| !other.refuses())
}

/// The servers of `group` other than `pool`.
fn others<'group>(
    group: &'group [Arc<Pool>],
    pool: &'group Pool,
) -> impl Iterator<Item = &'group Arc<Pool>> + Clone {
    group
        .iter()
        .filter(move |other| !std::ptr::eq(Arc::as_ptr(other), pool))
}

/// The first pause before a request connects again to an app that refused it
/// ([`Upstream::wait_for_listen`]); it doubles up to [`LISTEN_PAUSE_MOST`]. A restarting
/// Gunicorn refuses for a few hundred milliseconds (the old master's exit to the new one's bind:
/// 0.5 s for the example app), so a request is at most that late once it listens again.
const LISTEN_PAUSE: Duration = Duration::from_millis(10);

/// The longest pause between two connects to an app that refuses ([`LISTEN_PAUSE`]).
const LISTEN_PAUSE_MOST: Duration = Duration::from_millis(100);

/// An exchange with one server that did not give a response head.
struct Failed {
    error: ProxyError,
    /// Whether it counts against the server's health (`max_fails`).
    counts: bool,
    /// Whether a new connection was closed before any answer, as Gunicorn's old socket resets
    /// what its backlog held when it exits: the server may be going away, as one that refuses.
    away: bool,
    retry: Retry,
}

/// Whether a failed request may go to another server.
enum Retry {
    /// No: the client is at fault, the server may still be working on it (read time-out), or
    /// the pool had no room in time.
    No,
    /// Yes, with the request itself: it was never written. Boxed, as failures are rare and the
    /// other variants small.
    Unsent(Box<Request<RequestBody>>),
    /// Yes, with the request rebuilt from its head: it may have reached the server, but it is
    /// safe to repeat ([`repeatable`]).
    Repeat(Box<Request<RequestBody>>),
    /// Yes, never written, on the group's servers as they are now: the server left the group
    /// (a host name's answer moved), or another server of the group listens again, while the
    /// request waited for it to listen.
    Moved(Box<Request<RequestBody>>),
}

/// How many times a request takes the group's servers again after its server left the group
/// ([`Retry::Moved`]); past that, a moved request is failed as one never written.
const MOST_MOVES: u8 = 3;

/// The servers of a group at one moment: one pool (which counts the requests in flight) and
/// health per server; `health[i]` belongs to `pools[i]`. Replaced whole when a host name's
/// addresses change.
struct Servers {
    pools: Vec<Arc<Pool>>,
    health: Vec<Arc<Health>>,
    balancer: Balancer,
}

/// What builds a group's [`Servers`] and holds the current ones: the config's addresses, then
/// those its host names resolved to last. A server that stays across a change keeps its pool
/// (with its in-flight count) and health; one that goes is dropped with the last request that
/// holds it, which closes its idle connections.
pub(crate) struct ServerSet {
    upstream: String,
    current: arc_swap::ArcSwap<Servers>,
    /// The same servers as `current`, when the group has no host name: they never change, so a
    /// request borrows them for as long as it borrows the upstream, and writes no reference
    /// count.
    unchanging: Option<Arc<Servers>>,
    fixed: Vec<UpstreamAddr>,
    /// `backup_servers`' addresses given as such.
    backup_fixed: Vec<UpstreamAddr>,
    /// `weights`: by server as written (an address, or a name's `host:port`).
    weights: Vec<(String, u32)>,
    names: Vec<ServerName>,
    /// The addresses each name resolved to last, in `names`' order. Locked only by the resolving
    /// tasks, never across an await, until the set built from them is stored.
    resolved: Mutex<Vec<Vec<UpstreamAddr>>>,
    /// How many names have had their first resolution tried: requests wait for all of them
    /// (within `resolve_timeout`), so the first requests after a start see the names resolved.
    attempted: tokio::sync::watch::Sender<Vec<bool>>,
    /// Whether every name has been tried once (or there are none): set once, read by every
    /// request in place of `attempted`, whose read lock would be two shared writes per request.
    all_attempted: AtomicBool,
    /// The number of the set in `current`, from [`GENERATIONS`]: a new one after each change,
    /// stored once the new set is (so a set [`Kept`] with a number is never older than the set
    /// that number was given with). Only the resolving tasks write it.
    generation: AtomicU64,
    /// "web:8000, api:8000", for the error of a group with no address.
    names_text: Arc<str>,
    /// The pools of the group of the same name that a reload replaced with this one: a server
    /// found there keeps its pool when the pool's settings are the same, else its new pool
    /// follows it ([`Pool::follow`]).
    replaced: Vec<Weak<Pool>>,
    settings: PoolSettings,
    max_fails: u32,
    fail_timeout: Duration,
    health_check: Option<HealthCheckConfig>,
    balance: crate::config::Balance,
    resolve_timeout: Duration,
    /// The upstream's [`ResolveAgain`], for the active checks of a name's addresses: a check
    /// that cannot connect has the names resolved again, as a request's failed connect does.
    resolve: Weak<resolve::ResolveAgain>,
}

/// Where every [`ServerSet`] takes its generation numbers: one count for all of them, so a number
/// names one set of one group, and a [`Kept`] set is found out of date by its number alone, even
/// when the connection's next request goes to another group (or to a group a reload rebuilt).
static GENERATIONS: AtomicU64 = AtomicU64::new(1);

fn next_generation() -> u64 {
    GENERATIONS.fetch_add(1, Ordering::Relaxed)
}

/// The servers of a group given by host names, as an HTTP/1 connection keeps them between its
/// requests (as it keeps the proxy in force, `server.rs` `InForce`): a request then reads the
/// group's generation number, which only a change of its servers writes, and borrows the kept
/// set, where it took a reference on the shared one (a reference count up and down on a line
/// every thread writes). The set is taken again when the number moved, or when a request goes
/// to another group than the last; only between requests, so a request keeps the set it started
/// with. A server that went is dropped with the last request or connection that holds it: an
/// idle connection keeps the old set until its next request, its end, or its park.
#[derive(Default)]
pub struct Kept {
    /// The generation number read before the set was taken, and the set.
    servers: Option<(u64, Arc<Servers>)>,
}

impl ServerSet {
    /// Whether `addr` is given as such in the config (not a host name's address).
    fn is_fixed(&self, addr: &UpstreamAddr) -> bool {
        self.fixed.contains(addr) || self.backup_fixed.contains(addr)
    }

    /// The servers for `wanted`, keeping the state of those already in `old`.
    fn build(&self, wanted: &Wanted, old: Option<&Servers>) -> Servers {
        let addrs = wanted.addrs.as_slice();
        let passive = PassiveSettings {
            // As in nginx, a lone server is never marked down: it takes every request anyway.
            max_fails: if addrs.len() > 1 { self.max_fails } else { 0 },
            fail_timeout: self.fail_timeout,
        };
        let mut pools = Vec::with_capacity(addrs.len());
        let mut health = Vec::with_capacity(addrs.len());
        for addr in addrs {
            let kept = old.and_then(|old| {
                let index = old.pools.iter().position(|pool| pool.addr() == addr)?;
                Some((index, old))
            });
            match kept {
                Some((index, old)) => {
                    pools.push(Arc::clone(&old.pools[index]));
                    if old.health[index].settings() == passive {
                        health.push(Arc::clone(&old.health[index]));
                    } else {
                        health.push(self.new_health(addr, passive, &old.pools[index]));
                    }
                }
                None => {
                    let pool = self.new_pool(addr);
                    health.push(self.new_health(addr, passive, &pool));
                    pools.push(pool);
                }
            }
        }
        Servers {
            pools,
            health,
            balancer: Balancer::new(self.balance, addrs.len())
                .joining_the_shortest_queue(self.settings.predict)
                .with_backups_from(wanted.primaries)
                .with_weights(&wanted.weights),
        }
    }

    /// The pool of a server new to the group: the pool of the group a reload replaced, when it
    /// had this server and the same pool settings (its connections, queue and what it learnt go
    /// on); else a new one, which counts the places the replaced pool still holds.
    fn new_pool(&self, addr: &UpstreamAddr) -> Arc<Pool> {
        let replaced = self
            .replaced
            .iter()
            .filter_map(Weak::upgrade)
            .find(|pool| pool.addr() == addr);
        match replaced {
            Some(pool) if *pool.settings() == self.settings => pool,
            Some(replaced) => {
                let pool = Pool::new(addr.clone(), self.settings.clone());
                pool.follow(&replaced);
                pool
            }
            None => Pool::new(addr.clone(), self.settings.clone()),
        }
    }

    /// The health of the server at `addr`, whose pool is `pool` (an active check of a capped
    /// pool takes a place in it).
    fn new_health(
        &self,
        addr: &UpstreamAddr,
        passive: PassiveSettings,
        pool: &Arc<Pool>,
    ) -> Arc<Health> {
        let server_health = Arc::new(Health::new(passive));
        if let Some(check) = &self.health_check {
            // A name's address: a check that cannot connect has the names resolved again.
            let resolve = (!self.is_fixed(addr)).then(|| self.resolve.clone());
            health::spawn_active_check(
                &self.upstream,
                addr.clone(),
                check.clone(),
                &server_health,
                pool,
                resolve,
            );
        }
        server_health
    }

    /// The servers for a new request, when it need not wait for them: `None` until every name
    /// has been tried once ([`ServerSet::servers_resolved`] waits for that). Not a future, so
    /// that a request makes none for the rare wait. With `kept` (an HTTP/1 connection's), the
    /// set is borrowed from it, taken again first if it is not this group's current one.
    fn servers_now<'held>(&'held self, kept: Option<&'held mut Kept>) -> Option<Held<'held>> {
        if let Some(unchanging) = &self.unchanging {
            return Some(Held::Borrowed(unchanging));
        }
        // Acquire: pairs with the Release store made once the last name was tried (inside
        // `attempted`'s lock, so this flag is set whenever `attempted` says every name was).
        if !self.all_attempted.load(Ordering::Acquire) {
            return None;
        }
        let Some(kept) = kept else {
            return Some(Held::Current(self.current.load_full()));
        };
        // Acquire: pairs with the Release store made after the new set was stored, so the set
        // taken below is at least the one this number was given with. The number is read first:
        // a change racing this request is seen at the next one.
        let generation = self.generation.load(Ordering::Acquire);
        if kept
            .servers
            .as_ref()
            .is_none_or(|(taken, _)| *taken != generation)
        {
            kept.servers = Some((generation, self.current.load_full()));
        }
        // `Some`: set just above when it was not.
        let (_, servers) = kept.servers.as_ref()?;
        Some(Held::Borrowed(servers))
    }

    /// Whether `addr` is one of the group's servers now: a host name's answer may have moved it
    /// out since a request took its servers.
    fn serves(&self, addr: &UpstreamAddr) -> bool {
        self.unchanging.is_some()
            || self
                .current
                .load()
                .pools
                .iter()
                .any(|pool| pool.addr() == addr)
    }

    /// The servers for a new request once every name has been tried once, waiting for that
    /// within `resolve_timeout`.
    async fn servers_resolved(&self) -> Held<'_> {
        let mut attempted = self.attempted.subscribe();
        let _ = tokio::time::timeout(
            self.resolve_timeout,
            attempted.wait_for(|attempted| attempted.iter().all(|&tried| tried)),
        )
        .await;
        Held::Current(self.current.load_full())
    }
}

/// The servers a request holds from its start to its response head: borrowed from a group with
/// no host name, whose servers never change, or from its connection's [`Kept`] set; else the set
/// current when it started, by reference count. Either way a re-resolution does not move it
/// (unless its server left the group before the request was sent to it: [`Retry::Moved`]), and a
/// server that went is dropped with the last request (or connection) holding it.
enum Held<'set> {
    Borrowed(&'set Servers),
    Current(Arc<Servers>),
}

impl std::ops::Deref for Held<'_> {
    type Target = Servers;

    fn deref(&self) -> &Servers {
        match self {
            Held::Borrowed(servers) => servers,
            Held::Current(servers) => servers,
        }
    }
}

impl resolve::Follower for ServerSet {
    fn upstream(&self) -> &str {
        &self.upstream
    }

    fn name(&self, index: usize) -> &ServerName {
        &self.names[index]
    }

    /// Name number `index` now resolves to `addrs`: the servers are rebuilt if that changed
    /// anything. Returns whether it did. An address given twice (by the config and a name, or
    /// by two names) is one server.
    fn update(&self, index: usize, addrs: Vec<UpstreamAddr>) -> bool {
        // Held until the new set is stored: two names resolving at once would otherwise each
        // build from the list as it was, and the one stored last would lose the other's change.
        let mut resolved = self
            .resolved
            .lock()
            .unwrap_or_else(|poison| poison.into_inner());
        if resolved[index] == addrs {
            return false;
        }
        resolved[index] = addrs;
        let wanted = servers_of(
            &self.fixed,
            &self.backup_fixed,
            &self.names,
            &resolved,
            &self.weights,
        );
        let old = self.current.load_full();
        self.current
            .store(Arc::new(self.build(&wanted, Some(&old))));
        // Release: a request that reads the new number takes the new set (or a newer one).
        self.generation.store(next_generation(), Ordering::Release);
        drop(resolved);
        true
    }

    /// Name number `index` has been tried once (whatever came of it).
    fn attempted(&self, index: usize) {
        self.attempted.send_if_modified(|attempted| {
            let first = !attempted[index];
            attempted[index] = true;
            if attempted.iter().all(|&tried| tried) {
                self.all_attempted.store(true, Ordering::Release);
            }
            first
        });
    }
}

impl Upstream {
    /// Builds the group, its pools and, with `health_check`, a checker task per server; with
    /// host names, a task per name that resolves it. Must run inside a tokio runtime (pools start
    /// a reaper). `thread_affine`: see [`PoolSettings::thread_affine`].
    pub fn new(name: &str, config: &UpstreamConfig, thread_affine: bool) -> Upstream {
        Upstream::build(name, config, thread_affine, None)
    }

    /// The group `config` in place of `old`, the group of the same name before a reload that
    /// changed its table: a server in both keeps its pool if the pool's settings did not change,
    /// and otherwise its new pool counts the places the old one still holds against its cap, so
    /// the app never sees more requests at once than the cap ([`Pool::follow`]); a host name in
    /// both keeps what it resolved to last until a resolution here gives another.
    pub fn replacing(
        name: &str,
        config: &UpstreamConfig,
        thread_affine: bool,
        old: &Upstream,
    ) -> Upstream {
        Upstream::build(name, config, thread_affine, Some(old))
    }

    fn build(
        name: &str,
        config: &UpstreamConfig,
        thread_affine: bool,
        old: Option<&Upstream>,
    ) -> Upstream {
        let settings = PoolSettings {
            max_connections: config.max_connections,
            max_idle: config.max_idle,
            idle_timeout: config.idle_timeout,
            queue_size: config.queue_size,
            queue_timeout: config.queue_timeout,
            predict: config.capacity.is_some(),
            adaptive_floor: config
                .capacity
                .and_then(|capacity| capacity.adaptive_floor()),
            thread_affine,
        };
        let names_text: Vec<String> = config.names.iter().map(ToString::to_string).collect();
        // What each name resolved to last in the group this one replaces: its last good answer
        // still, until a resolution here gives another (a reload while a name does not resolve,
        // as while Compose recreates the app's containers, keeps its addresses, as a failed
        // resolution does; nginx keeps its running config then).
        // Whether it had tried each name, too: then what it knows (its answer, or that there was
        // none) stands, and a request need not wait for a first resolution here, which a
        // resolver gone quiet would hold for `resolve_timeout`.
        let (inherited, tried): (Vec<Vec<UpstreamAddr>>, Vec<bool>) = config
            .names
            .iter()
            .map(|name| {
                let Some((old, index)) = old.and_then(|old| {
                    let index = old.set.names.iter().position(|old_name| old_name == name)?;
                    Some((old, index))
                }) else {
                    return (Vec::new(), false);
                };
                // One lock at a time: `attempted`'s read, then `resolved`.
                let tried = old.set.attempted.borrow()[index];
                let resolved = old
                    .set
                    .resolved
                    .lock()
                    .unwrap_or_else(|poison| poison.into_inner())[index]
                    .clone();
                (resolved, tried)
            })
            .unzip();
        let all_tried = tried.iter().all(|&tried| tried);
        let wanted = servers_of(
            &config.servers,
            &config.backup_servers,
            &config.names,
            &inherited,
            &config.weights,
        );
        let resolve_again = Arc::new(resolve::ResolveAgain::new(name, config.resolve.is_some()));
        let mut set = ServerSet {
            upstream: name.to_string(),
            current: arc_swap::ArcSwap::from_pointee(Servers {
                pools: Vec::new(),
                health: Vec::new(),
                balancer: Balancer::new(config.balance, 0),
            }),
            unchanging: None,
            fixed: config.servers.clone(),
            backup_fixed: config.backup_servers.clone(),
            weights: config.weights.clone(),
            names: config.names.clone(),
            resolved: Mutex::new(inherited),
            attempted: tokio::sync::watch::Sender::new(tried),
            all_attempted: AtomicBool::new(all_tried),
            generation: AtomicU64::new(next_generation()),
            names_text: names_text.join(", ").into(),
            replaced: old.map_or_else(Vec::new, |old| {
                old.pools().iter().map(Arc::downgrade).collect()
            }),
            settings,
            max_fails: config.max_fails,
            fail_timeout: config.fail_timeout,
            health_check: config.health_check.clone(),
            balance: config.balance,
            resolve_timeout: config
                .resolve
                .map_or(Duration::ZERO, |resolve| resolve.timeout),
            resolve: Arc::downgrade(&resolve_again),
        };
        let servers = Arc::new(set.build(&wanted, None));
        set.current = arc_swap::ArcSwap::new(Arc::clone(&servers));
        set.unchanging = config.names.is_empty().then_some(servers);
        let set = Arc::new(set);
        if let (Some(resolve), Some(refresh)) = (config.resolve, resolve_again.refresh()) {
            let resolver = Arc::new(resolve::Resolver::new(&resolve));
            for index in 0..config.names.len() {
                resolve::spawn(
                    &set,
                    index,
                    Arc::clone(&resolver),
                    resolve.interval,
                    refresh.subscribe(),
                );
            }
        }
        Upstream {
            name: name.to_string(),
            set,
            resolve: resolve_again,
            connect_timeout: config.connect_timeout,
            read_timeout: config.read_timeout,
            send_timeout: config.send_timeout,
            keepalive: config.max_idle > 0,
            keepalive_time: config.keepalive_time,
        }
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    /// The servers' pools now, in the config's order (the addresses of host names after the
    /// others).
    pub fn pools(&self) -> Vec<Arc<Pool>> {
        self.set.current.load().pools.clone()
    }

    /// Resolves the host names again now (a reload that kept this upstream).
    pub fn refresh(&self) {
        self.resolve.now();
    }

    /// A connect to `addr` failed: when a host name gave that address, the names are resolved
    /// again now ([`Upstream::resolve_again`]), rather than at the next `resolve_interval` or
    /// TTL. A container that Compose recreates comes back on another address (Docker does not
    /// give the freed one again at once), and its old one refuses, or nothing answers there:
    /// weir follows within about a second of the new answer, where nginx keeps the address it
    /// resolved at start (or for its `valid=` time).
    fn resolve_again_after(&self, addr: &UpstreamAddr) {
        if !self.set.is_fixed(addr) {
            self.resolve_again("connect failed");
        }
    }

    /// Has the host names resolved again now, at most once per
    /// [`crate::config::MIN_RESOLVE_INTERVAL`]: after a failed connect to a name's address, or a
    /// request to a group with no address (a name that did not resolve yet: Compose starting the
    /// app's container after weir's, which otherwise waits for the retry of a failed
    /// resolution, within 5 s).
    fn resolve_again(&self, why: &'static str) {
        self.resolve.soon(why);
    }

    /// Each server's health, balancing and pool state, in the config's order.
    pub fn server_states(&self) -> Vec<ServerState> {
        let servers = self.set.current.load_full();
        servers
            .pools
            .iter()
            .zip(&servers.health)
            .map(|(pool, health)| {
                let stats = pool.stats();
                ServerState {
                    addr: pool.addr().clone(),
                    healthy: health.is_healthy(),
                    passive_down: health.is_passive_down(),
                    active_down: health.is_active_down(),
                    checks: health.checks(),
                    outstanding: stats.outstanding,
                    failures: health.failures(),
                    pool: stats,
                }
            })
            .collect()
    }

    /// Whether connections are kept alive between requests (`max_idle > 0`).
    pub fn keepalive(&self) -> bool {
        self.keepalive
    }

    /// nginx `proxy_read_timeout`; also the idle timeout of an upgraded (WebSocket) connection.
    pub fn read_timeout(&self) -> Duration {
        self.read_timeout
    }

    fn available(servers: &Servers, now: Instant) -> impl Fn(usize) -> bool + '_ {
        move |index| servers.health[index].is_available(now)
    }

    fn outstanding(servers: &Servers) -> impl Fn(usize) -> usize + '_ {
        move |index| servers.pools[index].outstanding()
    }

    /// Sends `request` to a server chosen by the balancer and returns its response head with a
    /// body that gives the connection back to the pool once read to the end.
    ///
    /// A reused connection that turns out stale is retried once on a fresh one to the same
    /// server when nothing was sent, or when the request is safe to repeat; so is, once, a new
    /// connection that a server with no other left to go to (below) closed before answering (a
    /// worker stopping gracefully). With `workers` declared, such a server that refuses
    /// connections (restarting) is waited for, up to the request's queue deadline and
    /// `fail_timeout` (`Upstream::connection`): an upstream's only server, or the last one a
    /// request tries once every other refused it (or closed a new connection unanswered: every
    /// replica restarting at once). If a host name's new answer moves that server out of the
    /// group meanwhile, or another server of the group listens again, the request takes the
    /// group's servers as they are now (`Retry::Moved`). A server that fails (connect error or
    /// time-out, or an exchange that breaks before the response head) counts towards its
    /// `max_fails`, and the request moves on to the next server, each server tried at most
    /// once: always when the request was never written, otherwise only when it is safe to
    /// repeat (idempotent method, no body); when no server is left, the request is answered
    /// with the first full server's refusal (503), if one was full, else with the last failure.
    /// A read time-out is not retried, since the server may still be working on the request.
    /// `priority`: the request's class in a full server's queue (its route's). `kept`: the
    /// servers an HTTP/1 connection keeps between its requests ([`Kept`]); `None` takes them
    /// from the group for this request alone.
    ///
    /// Not an `async fn`: an `async fn`'s arguments take their room twice in its future, and
    /// the request is large; this future holds it once, and `Upstream::exchange` borrows it.
    /// The future is in a box of its own, a `SpareBox` (this thread's memory, kept from the
    /// last one: no allocation): the request phase's future, which every request makes and
    /// copies (a 429's included), then holds a pointer where it held this one's 1,120 bytes
    /// (test profile), and the copies of it at each level above are gone.
    pub fn send<'send>(
        &'send self,
        mut request: Request<RequestBody>,
        mut priority: Priority,
        client: Option<std::net::IpAddr>,
        read_timeout: Option<Duration>,
        kept: Option<&'send mut Kept>,
    ) -> impl std::future::Future<Output = Result<Response<UpstreamBody>, ProxyError>> + Send + 'send
    {
        let repeatable = repeatable(&request);
        // A route's own `read_timeout`, else the upstream's.
        let read_timeout = read_timeout.unwrap_or(self.read_timeout);
        SpareBox::with(|| async move {
            // The servers as they are now: a change of a host name's addresses while this request
            // runs does not move it. Waiting for a first resolution is rare, and boxed.
            let mut servers = match self.set.servers_now(kept) {
                Some(servers) => servers,
                None => Box::pin(self.set.servers_resolved()).await,
            };
            if servers.pools.is_empty() {
                self.resolve_again("no address");
                return Err(ProxyError::Unresolved {
                    names: Arc::clone(&self.set.names_text),
                });
            }
            let mut now = Instant::now();
            let mut index = servers.balancer.first_for(
                client,
                Self::available(&servers, now),
                Self::outstanding(&servers),
            );
            let mut tried: Vec<bool> = Vec::new();
            let mut moves = 0;
            // Whether every server this request tried refused it (nothing listens there), or
            // closed a new connection unanswered (going away).
            let mut all_refused = true;
            // The first server that was full (its queue, or its admission, refused the
            // request): when no other takes the request, its 503 (admission's with
            // `Retry-After`) is the answer, not the connect error of a server down that was
            // tried after it.
            let mut full: Option<ProxyError> = None;
            loop {
                let health = &servers.health[index];
                let pool = &servers.pools[index];
                // The pool counts the request in flight from its checkout to the end of the
                // response body, or to the exchange's failure here.
                let ticket = health.on_picked(now);
                // No other server is left to go to: a lone one, or the last of a group whose
                // others all refused this request (every replica restarting at once).
                let last = servers.pools.len() == 1
                    || (all_refused
                        && !tried.is_empty()
                        && tried
                            .iter()
                            .enumerate()
                            .all(|(other, &tried)| tried || other == index));
                let failed = match self
                    .exchange(
                        pool,
                        &mut request,
                        repeatable,
                        last.then_some(servers.pools.as_slice()),
                        priority,
                        read_timeout,
                    )
                    .await
                {
                    Ok((head, conn, sending)) => {
                        if health.record_success(ticket) {
                            tracing::info!(upstream = %self.name, server = %pool.addr(), "server answered again: marked up");
                        }
                        return Ok(self.wrap(head, conn, sending, read_timeout));
                    }
                    Err(failed) => failed,
                };
                if failed.counts && health.record_failure(Instant::now()) {
                    tracing::warn!(
                        upstream = %self.name,
                        server = %pool.addr(),
                        error = %failed.error,
                        "server marked down for fail_timeout"
                    );
                }
                if not_listening(&failed.error) || failed.away {
                    // Marked refusing until a connect succeeds: a request held for the last
                    // server of the group watches the others come back (`wait_for_listen`).
                    if pool.settings().predict {
                        pool.refusing_since(Instant::now());
                    }
                } else if !failed.away {
                    all_refused = false;
                }
                let retry = match failed.retry {
                    Retry::No => None,
                    // Its server went while it waited: the group's servers as they are now.
                    Retry::Moved(moved) if moves < MOST_MOVES => {
                        moves += 1;
                        tracing::debug!(
                            upstream = %self.name,
                            server = %pool.addr(),
                            "the server left the group while the request waited for it: trying the group's servers now"
                        );
                        servers = Held::Current(self.set.current.load_full());
                        // It has waited already, and the others that waited with it come at
                        // once: as newcomers of their class, the burst would find the new
                        // server's queue standing and most of it be refused. Ahead of the
                        // newcomers, none is (a high one is refused only at `queue_size`).
                        priority = Priority::High;
                        if servers.pools.is_empty() {
                            return Err(failed.error);
                        }
                        tried = Vec::new();
                        all_refused = true;
                        now = Instant::now();
                        index = servers.balancer.first_for(
                            client,
                            Self::available(&servers, now),
                            Self::outstanding(&servers),
                        );
                        request = *moved;
                        continue;
                    }
                    Retry::Unsent(request) | Retry::Repeat(request) | Retry::Moved(request) => {
                        Some(*request)
                    }
                };
                let Some(retry) = retry else {
                    return Err(failed.error);
                };
                if tried.is_empty() {
                    tried = vec![false; servers.pools.len()];
                }
                tried[index] = true;
                now = Instant::now();
                let Some(next) = servers.balancer.next(
                    &tried,
                    index,
                    Self::available(&servers, now),
                    Self::outstanding(&servers),
                ) else {
                    return Err(match full {
                        Some(full) if !is_full(&failed.error) => full,
                        _ => failed.error,
                    });
                };
                tracing::debug!(
                    upstream = %self.name,
                    server = %pool.addr(),
                    next = %servers.pools[next].addr(),
                    error = %failed.error,
                    "server failed: trying the next one"
                );
                if full.is_none() && is_full(&failed.error) {
                    full = Some(failed.error);
                }
                index = next;
                request = retry;
            }
        })
    }

    /// One server's part of [`Upstream::send`], with the stale-connection retry: the request
    /// is written (and its body, as far as it comes) while the response head is awaited, all in
    /// this task. Gives the head, the connection, and what is left to send of the body.
    /// `request` is taken (a bodiless placeholder left) once a connection is had, and put
    /// back for a retry on a fresh connection.
    async fn exchange(
        &self,
        pool: &Arc<Pool>,
        request: &mut Request<RequestBody>,
        repeatable: bool,
        last: Option<&[Arc<Pool>]>,
        priority: Priority,
        read_timeout: Duration,
    ) -> Result<(ResponseHead, Pooled, Option<Sending>), Failed> {
        let mut fresh = false;
        let mut closed_retried = false;
        loop {
            let conn = self
                .connection(pool, request, fresh, last, priority)
                .await?;
            let (parts, body) = std::mem::take(request).into_parts();
            let mut at_app = AtTheApp {
                conn: Some(conn),
                sending: Some(Sending::new(&parts, body)),
                method: parts.method.clone(),
            };
            let mut answered = false;
            let outcome = {
                let AtTheApp {
                    conn,
                    sending,
                    method,
                } = &mut at_app;
                let conn = conn.as_mut().expect("taken only by `AtTheApp::end`");
                conn.client.start_read_timer(read_timeout);
                poll_fn(|context| {
                    if let Some(request) = sending {
                        match request.poll_send(&mut conn.client.io, context) {
                            Poll::Ready(Ok(())) => *sending = None,
                            Poll::Ready(Err(error)) => {
                                return Poll::Ready(Some(Err(Broke::Send(error))))
                            }
                            Poll::Pending => {}
                        }
                    }
                    if let Poll::Ready(head) =
                        client::poll_head(&mut conn.client, context, method, &mut answered)
                    {
                        return Poll::Ready(Some(head.map_err(Broke::Head)));
                    }
                    // `None`: read_timeout passed first.
                    conn.client.poll_read_timer(context).map(|()| None)
                })
                .await
            };
            let (mut conn, mut sending) = at_app.end();
            let broke = match outcome {
                Some(Ok(head)) => {
                    // Async workers' latency is judged per kind of request (adaptive.rs).
                    let kind = if pool.settings().adaptive_floor.is_some() {
                        pool::adaptive::Kind::of(
                            parts.method.as_str().as_bytes(),
                            parts.uri.path().as_bytes(),
                        )
                    } else {
                        pool::adaptive::Kind::default()
                    };
                    conn.answered(head.response.status(), kind);
                    // The request's head went out as bytes (`Sending::new`): its view's index
                    // goes back to this thread's spares as it is dropped.
                    drop(parts);
                    return Ok((head, conn, sending));
                }
                Some(Err(broke)) => broke,
                None => {
                    conn.failed();
                    if conn.capped() {
                        // The worker is still busy with it: its place is held as for a client
                        // that left (`AtTheApp`), for one more `read_timeout` at most.
                        conn.client.start_read_timer(read_timeout);
                        tokio::spawn(wait_for_head(conn, parts.method));
                    }
                    return Err(Failed {
                        error: ProxyError::ReadTimeout {
                            addr: pool.addr().clone(),
                        },
                        counts: true,
                        away: false,
                        retry: Retry::No,
                    });
                }
            };
            // The request again, when its body was not touched (nothing of it was consumed);
            // else, when it is safe to repeat, rebuilt from its head.
            let (unsent, replay) = match sending.as_mut().and_then(Sending::take_untouched_body) {
                Some(body) => (Some(Request::from_parts(parts, body)), None),
                None => (
                    None,
                    repeatable.then(|| Request::from_parts(parts, RequestBody::Full(None))),
                ),
            };
            let closed_early = match &broke {
                Broke::Send(SendError::Io(error)) => error.kind() != std::io::ErrorKind::TimedOut,
                Broke::Head(error) => error.closed_early(),
                Broke::Send(SendError::Body(_)) => false,
            };
            if closed_early {
                // A reused connection that turns out stale, or a new connection that the server
                // closed without a word: the other side of a graceful worker restart
                // (Gunicorn's SIGHUP: a worker that accepted the connection stops before
                // reading it). A server with no other left to go to (`last`) is asked once more
                // on another new connection (with others, the next one is asked); the request
                // is still safe to send, since no part of an answer came back.
                let stale = conn.reused && !fresh;
                let again = stale || (last.is_some() && !closed_retried);
                let retry = unsent.or(replay);
                if again {
                    if let Some(retry) = retry {
                        if !stale {
                            closed_retried = true;
                        }
                        tracing::debug!(upstream = %pool.addr(), stale, "connection closed before an answer: retrying on a new one");
                        *request = retry;
                        fresh = true;
                        continue;
                    }
                    let error = broke.into_error(pool.addr());
                    return Err(Failed {
                        error,
                        counts: false,
                        away: false,
                        retry: Retry::No,
                    });
                }
                let error = broke.into_error(pool.addr());
                if !conn.reused {
                    conn.failed();
                }
                return Err(match retry {
                    Some(retry) => Failed {
                        error,
                        counts: !conn.reused,
                        away: !conn.reused,
                        retry: Retry::Unsent(Box::new(retry)),
                    },
                    None => Failed {
                        error,
                        counts: !conn.reused,
                        away: false,
                        retry: Retry::No,
                    },
                });
            }
            let error = broke.into_error(pool.addr());
            let client_side = matches!(
                error,
                ProxyError::ClientGone
                    | ProxyError::BodyTooLarge { .. }
                    | ProxyError::BodyTimeout
                    | ProxyError::BadRequest { .. }
            );
            let failed = match unsent {
                _ if client_side => Failed {
                    error,
                    counts: false,
                    away: false,
                    retry: Retry::No,
                },
                // A send time-out: the server took nothing; another may.
                Some(unsent) => Failed {
                    error,
                    counts: true,
                    away: false,
                    retry: Retry::Unsent(Box::new(unsent)),
                },
                None => Failed {
                    error,
                    counts: true,
                    away: false,
                    retry: replay.map_or(Retry::No, |replay| Retry::Repeat(Box::new(replay))),
                },
            };
            if failed.counts {
                conn.failed();
            }
            return Err(failed);
        }
    }

    /// The connection for one try of [`Upstream::exchange`]: a pooled one, else a new one.
    /// A future of its own, awaited before the request is sent: the checkout's answer, which a
    /// new connection's slot is taken from, keeps its room while the connection is made, and
    /// in [`Upstream::exchange`] it kept it while the request was sent too (200 bytes).
    ///
    /// With a declared capacity and no other server to go to (`last`: the group's servers,
    /// when this is a lone one, or the last of a group whose others all refused the request),
    /// an app that refuses connections (nothing listens: Gunicorn restarting) is waited for,
    /// the place held, up to the request's deadline and `fail_timeout`
    /// ([`Upstream::wait_for_listen`]). A failed connect to a server that has left the group
    /// since (a host name moved) is [`Retry::Moved`], and so is a wait that ended as another
    /// server of the group listens again.
    async fn connection(
        &self,
        pool: &Arc<Pool>,
        request: &mut Request<RequestBody>,
        fresh: bool,
        last: Option<&[Arc<Pool>]>,
        priority: Priority,
    ) -> Result<Pooled, Failed> {
        let deadline = || client_deadline(request.headers());
        match pool.checkout(fresh, priority, deadline).await {
            // A pooled connection the server closed while idle was already passed over.
            Ok(Checkout::Reused(conn)) => Ok(conn),
            Ok(Checkout::Connect(mut slot)) => {
                let mut connected = self.connect(pool).await;
                let mut held = false;
                if let Err(error) = connected {
                    // With a cap and no other server, an app that refuses is waited for.
                    connected = match last {
                        Some(group) if pool.settings().predict && not_listening(&error) => {
                            held = true;
                            let waiting = self.wait_for_listen(
                                pool,
                                group,
                                &mut slot,
                                request.headers(),
                                error,
                            );
                            Box::pin(waiting).await
                        }
                        _ => Err(error),
                    };
                }
                match connected {
                    Ok(stream) => Ok(slot.into_conn(stream)),
                    Err(error) => {
                        slot.failed();
                        let unsent = Box::new(std::mem::take(request));
                        // A host name's answer moved the server out of the group meanwhile, or
                        // another server of the group listens again as it waited.
                        let left = !self.set.serves(pool.addr());
                        let moved = left
                            || (held && last.is_some_and(|group| another_listens(group, pool)));
                        Err(Failed {
                            error,
                            counts: !left,
                            away: false,
                            retry: if moved {
                                Retry::Moved(unsent)
                            } else {
                                Retry::Unsent(unsent)
                            },
                        })
                    }
                }
            }
            // A full queue answers at once, so another server may as well be asked; a queue
            // time-out has already made the client wait.
            Err(error @ (CheckoutError::QueueFull { .. } | CheckoutError::Overloaded { .. })) => {
                Err(Failed {
                    error: error.into(),
                    counts: false,
                    away: false,
                    retry: Retry::Unsent(Box::new(std::mem::take(request))),
                })
            }
            Err(error @ CheckoutError::QueueTimeout { .. }) => Err(Failed {
                error: error.into(),
                counts: false,
                away: false,
                retry: Retry::No,
            }),
        }
    }

    /// A new connection to `pool`'s server. Boxed: rare work on a keep-alive upstream, and
    /// large.
    fn connect<'a>(
        &'a self,
        pool: &'a Pool,
    ) -> Pin<Box<impl std::future::Future<Output = Result<ClientConn, ProxyError>> + Send + 'a>>
    {
        Box::pin(async move {
            let started = Instant::now();
            let connected =
                connect::connect(pool.addr(), self.connect_timeout, self.send_timeout).await;
            let mut stream = match connected {
                Ok(stream) => stream,
                Err(error) => {
                    self.resolve_again_after(pool.addr());
                    return Err(error);
                }
            };
            stream.expire_after(self.keepalive_time);
            stream.connect_time = started.elapsed();
            pool.listening();
            Ok(stream)
        })
    }

    /// The app refused the connection (`refused`, a connect error): nothing listens on its
    /// address, as while Gunicorn restarts (from the old master's closing of its socket to the
    /// new one's bind), or nothing is there (host unreachable: a container's old address, once
    /// it is gone). The request keeps its place and connects again, after a pause that
    /// doubles from [`LISTEN_PAUSE`] to [`LISTEN_PAUSE_MOST`], until the app listens, or the
    /// request's queue deadline (from `headers` and `queue_timeout`, counted from its arrival at
    /// the pool) passes, or the server has refused for `fail_timeout` (and so has every other
    /// server of `group` that refuses: one down for good beside one restarting waits for the
    /// latter), or it has left the group (a host name's new answer: the container came back
    /// elsewhere, found by the re-resolution each failed connect asks for), or another server
    /// of `group` listens again (no request was refused there since one connected:
    /// [`another_listens`]); the error then. Past `fail_timeout` the app (the group) is down,
    /// not restarting: a refused connect is answered at once (nginx's 502), which drains the
    /// queue that formed meanwhile, until a connect succeeds. The other requests wait in the queue
    /// while it waits, which admits them up to `queue_size` and judges nothing while the server
    /// refuses ([`Pool::refusing_since`]). The wait counts as the request's queue time, and its
    /// place's service time and latency start once it is connected.
    async fn wait_for_listen(
        &self,
        pool: &Pool,
        group: &[Arc<Pool>],
        slot: &mut pool::Slot,
        headers: &Headers,
        refused: ProxyError,
    ) -> Result<ClientConn, ProxyError> {
        let deadline = pool.settings().deadline(client_deadline(headers));
        let started = Instant::now();
        // The group is down once every server of it has refused for `fail_timeout`: one down
        // for good beside one restarting holds the request for the other (watched below).
        let down_at = others(group, pool)
            .filter_map(|other| other.refused_since())
            .fold(pool.refusing_since(started), Instant::max)
            + self.set.fail_timeout;
        if started >= down_at {
            if pool.found_down() {
                tracing::error!(
                    upstream = %self.name,
                    server = %pool.addr(),
                    fail_timeout = ?self.set.fail_timeout,
                    "server refused connections for fail_timeout: it is down, and a refused connect is answered 502 at once until one succeeds"
                );
            }
            return Err(refused);
        }
        let mut pause = LISTEN_PAUSE;
        let mut connected = Err(refused);
        let mut turn = 0;
        tracing::warn!(
            upstream = %self.name,
            server = %pool.addr(),
            "server refused the connection: the request waits for it to listen again (its queue deadline, fail_timeout at most)"
        );
        loop {
            match &connected {
                Err(error) if not_listening(error) => {}
                _ => break,
            }
            // A host name's answer moved the server out of the group (a container that came
            // back on another address), or another server of the group listens again: the
            // request goes to the group's servers now.
            if !self.set.serves(pool.addr()) || another_listens(group, pool) {
                break;
            }
            let left = deadline
                .saturating_sub(slot.queued() + started.elapsed())
                .min(down_at.saturating_duration_since(Instant::now()));
            if left.is_zero() {
                break;
            }
            tokio::time::sleep(pause.min(left)).await;
            pause = (pause * 2).min(LISTEN_PAUSE_MOST);
            connected = self.connect(pool).await;
            if connected.is_err() && self.probe_another(group, pool, &mut turn).await {
                break;
            }
        }
        slot.waited_for_listen(started.elapsed());
        connected
    }

    /// One connect to the next server of `group` other than `pool` that refuses (`turn` counts
    /// the probes: each goes to the next), to learn whether it listens again; the connection is
    /// closed at once. A request held for one server of a group that refused it whole so learns
    /// of another's return though no other request comes to find it (at most the cap's number
    /// of requests per server hold a place and probe, one connect per pause each, and only while
    /// every server refuses). Whether one listens (marked so: [`another_listens`]).
    async fn probe_another(&self, group: &[Arc<Pool>], pool: &Pool, turn: &mut usize) -> bool {
        let refusing = others(group, pool).filter(|other| other.refuses());
        let count = refusing.clone().count();
        let Some(other) = refusing.clone().nth(*turn % count.max(1)) else {
            return false;
        };
        *turn = turn.wrapping_add(1);
        let timeout = self.connect_timeout.min(LISTEN_PAUSE_MOST);
        if connect::connect(other.addr(), timeout, self.send_timeout)
            .await
            .is_ok()
        {
            other.listening();
            return true;
        }
        false
    }

    fn wrap(
        &self,
        head: ResponseHead,
        mut conn: Pooled,
        sending: Option<Sending>,
        read_timeout: Duration,
    ) -> Response<UpstreamBody> {
        let ResponseHead {
            response,
            framing,
            keep_alive,
        } = head;
        let (parts, ()) = response.into_parts();
        if parts.status == http::StatusCode::SWITCHING_PROTOCOLS
            || matches!(
                framing,
                ResponseFraming::Chunked(_) | ResponseFraming::Close
            )
        {
            // A tunnel, or a body of unknown length: a stream, as long as the app likes.
            conn.streams();
        }
        let mut body = UpstreamBody(SpareBox::with(|| Streaming {
            conn: Some(conn),
            framing,
            sending: sending.map(Box::new),
            reusable: self.keepalive && keep_alive,
            read_timeout,
            waiting: false,
            ended: None,
        }));
        if matches!(body.0.framing, ResponseFraming::Empty)
            && parts.status != http::StatusCode::SWITCHING_PROTOCOLS
        {
            body.0.ended = body.0.conn.as_ref().map(|conn| Ended {
                pool: Arc::clone(conn.pool()),
                queued: conn.queued(),
                connect_time: conn.connect_time(),
            });
            body.0.finish();
        }
        Response::from_parts(parts, body)
    }
}

/// A request with the app, from its sending to its response head ([`Upstream::exchange`]). Dropped
/// before the head (its client left, and its request's future with it), a request sent whole is
/// still with the app, whose worker is busy with it until it answers whatever weir does: a closed
/// connection stops a Gunicorn worker only when it writes. So in a capped pool (`workers`, or
/// `max_connections`) its place stays taken until the app's answer begins ([`wait_for_head`]):
/// a freed place is a free worker. Freed at the client's leaving, it went to the next waiter while the worker was still
/// busy, and that request waited in the app's listen backlog: a sync app of 2 workers taking 1 s
/// a request, with clients that gave up after 0.3 s, 10 a second for 4 s, had all 40 requests
/// reach it and 31 in its backlog at once (lab/runs/2026-12-06-vm-abandoned).
struct AtTheApp {
    conn: Option<Pooled>,
    /// What is left to send of the request; `None` once sent whole.
    sending: Option<Sending>,
    method: http::Method,
}

impl AtTheApp {
    /// The head came, or the exchange broke: the connection and what is left to send.
    fn end(mut self) -> (Pooled, Option<Sending>) {
        let conn = self.conn.take().expect("ended once");
        (conn, self.sending.take())
    }
}

impl Drop for AtTheApp {
    fn drop(&mut self) {
        let Some(conn) = self.conn.take() else {
            return;
        };
        // A request not sent whole fails at the app as its connection closes.
        if self.sending.is_some() || !conn.capped() {
            return;
        }
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            runtime.spawn(wait_for_head(conn, std::mem::take(&mut self.method)));
        }
    }
}

/// Holds the place of a request whose client left until the app's answer begins or it closes
/// the connection, or `read_timeout` passes (its timer runs from the request's sending), then
/// closes the connection: a worker still writing its answer stops at the close. No sample for the adaptive
/// limit (the client left); the place's occupancy is one of the service time. Also the place of
/// a request answered 504 (`read_timeout` passed), for one more `read_timeout`: its worker is
/// as busy, and a place freed at the 504 sent the next request to wait in the app's backlog
/// behind it, to time out there in its turn.
async fn wait_for_head(mut conn: Pooled, method: http::Method) {
    // Half-closed, as the client left: an app that watches for its client's leaving (Uvicorn
    // reads the end as a disconnect: Starlette's `request.is_disconnected()`) learns it and may
    // stop, as when nginx closes the connection; a sync Gunicorn worker, which reads no more once
    // it has the request, answers as it would.
    let _ = tokio::io::AsyncWriteExt::shutdown(&mut conn.client.io).await;
    let mut answered = false;
    poll_fn(|context| {
        if client::poll_head(&mut conn.client, context, &method, &mut answered).is_ready() {
            return Poll::Ready(());
        }
        conn.client.poll_read_timer(context)
    })
    .await;
}

/// A pool that gave no connection: 503, answered by `error.rs`.
impl From<CheckoutError> for ProxyError {
    fn from(error: CheckoutError) -> ProxyError {
        match error {
            CheckoutError::QueueFull { addr } => ProxyError::QueueFull { addr },
            CheckoutError::QueueTimeout { addr, waited } => {
                ProxyError::QueueTimeout { addr, waited }
            }
            CheckoutError::Overloaded {
                addr,
                reason,
                retry_after,
                waited,
            } => ProxyError::Overloaded {
                addr,
                reason: reason.label(),
                retry_after,
                waited,
            },
        }
    }
}

/// How an exchange broke before its response head.
enum Broke {
    Send(SendError),
    Head(HeadError),
}

impl Broke {
    /// The error it is: the client's body (too large, timed out, broken), a write that timed
    /// out, or the upstream failing.
    fn into_error(self, addr: &UpstreamAddr) -> ProxyError {
        match self {
            Broke::Send(SendError::Body(error)) => error.into(),
            Broke::Send(SendError::Io(error)) if error.kind() == std::io::ErrorKind::TimedOut => {
                ProxyError::SendTimeout { addr: addr.clone() }
            }
            Broke::Send(SendError::Io(error)) => ProxyError::Upstream {
                addr: addr.clone(),
                source: error,
            },
            Broke::Head(error) => ProxyError::Upstream {
                addr: addr.clone(),
                source: std::io::Error::other(error),
            },
        }
    }
}

/// The upstream's response body, streamed to the client; the rest of the request body, if
/// the answer came first, is sent on the way. At its end the connection goes back to the pool;
/// if it is dropped early or fails, the connection is closed and its slot freed. Either way the
/// pool stops counting the request in flight then (`Pool::outstanding`).
///
/// Boxed, in a `spares::SpareBox` (this thread's memory, kept from the last body: no
/// allocation): the body holds its connection, 272 bytes, and the response it is in is moved
/// whole from the exchange to the client's writer, a dozen times on a proxied request; at 384
/// bytes each move was a `memcpy` of more than 256 bytes, done in a loop (callgrind: 64
/// instructions a move), and every answer's `Body`, which has room for this one, was as large (a
/// 429's included).
pub struct UpstreamBody(SpareBox<Streaming>);

/// What [`UpstreamBody`] holds.
struct Streaming {
    conn: Option<Pooled>,
    framing: ResponseFraming,
    /// The request body still being sent (an answer that came before the body's end); boxed,
    /// as it is rare.
    sending: Option<Box<Sending>>,
    reusable: bool,
    read_timeout: Duration,
    /// Whether the connection's read timer runs for the body's next bytes.
    waiting: bool,
    /// What the access log reads of the connection, kept when the exchange ended at its head
    /// (a bodiless answer: `HEAD`, `204`, `304`, a `Content-Length: 0`) and gave back its
    /// connection at once.
    ended: Option<Ended>,
}

/// What [`Streaming::ended`] keeps.
struct Ended {
    pool: Arc<pool::Pool>,
    queued: Duration,
    connect_time: Duration,
}

/// The upstream sent no body bytes for `read_timeout`.
#[derive(Debug, thiserror::Error)]
#[error("upstream sent nothing for read_timeout")]
pub struct BodyReadTimeout;

impl Streaming {
    /// The response is complete: the connection goes back to the pool if it is reusable, its
    /// request body was sent whole and nothing was read past the response. An upstream that
    /// answered before it had the body (a 413, a 200 to an ignored upload) would leave the rest
    /// of the body in front of the next request: such a connection is closed, its body
    /// abandoned (nginx's keepalive module: `request_body_sent`).
    fn finish(&mut self) {
        let Some(mut conn) = self.conn.take() else {
            return;
        };
        if self.reusable && self.sending.is_none() && conn.client.buf.is_empty() {
            conn.client.idle();
            conn.checkin();
        }
        self.sending = None;
    }

    /// The exchange failed: the connection closes.
    fn fail(&mut self) {
        self.conn = None;
        self.sending = None;
    }
}

impl UpstreamBody {
    /// How long the request waited in the pool's queue, while the exchange is still going or
    /// when it ended at its head.
    pub fn queued(&self) -> Option<Duration> {
        self.exchange().map(|(_, queued, _)| queued)
    }

    /// How long the connection took to open (zero for a kept one), while the exchange is still
    /// going or when it ended at its head.
    pub fn connect_time(&self) -> Option<Duration> {
        self.exchange().map(|(_, _, connect_time)| connect_time)
    }

    /// The server that answered, while the exchange is still going or when it ended at its
    /// head.
    pub fn upstream_addr(&self) -> Option<&UpstreamAddr> {
        self.exchange().map(|(addr, _, _)| addr)
    }

    /// The server, the time in the queue and the connect time of the exchange, from its
    /// connection, or from what was kept of it when it ended at its head.
    fn exchange(&self) -> Option<(&UpstreamAddr, Duration, Duration)> {
        match (&self.0.conn, &self.0.ended) {
            (Some(conn), _) => Some((conn.addr(), conn.queued(), conn.connect_time())),
            (None, Some(ended)) => Some((ended.pool.addr(), ended.queued, ended.connect_time)),
            (None, None) => None,
        }
    }

    /// For `splice`: the connection and the body bytes still to come, when the body is framed by
    /// its `Content-Length`, its request was sent whole, and none of it was taken yet as frames
    /// past what `left` says.
    pub(crate) fn splice_source(&mut self) -> Option<(&mut client::ClientConn, u64)> {
        if self.0.sending.is_some() {
            return None;
        }
        let ResponseFraming::Length(left) = self.0.framing else {
            return None;
        };
        self.0.conn.as_mut().map(|conn| (&mut *conn.client, left))
    }

    /// `read_timeout` of the upstream.
    pub(crate) fn read_timeout(&self) -> Duration {
        self.0.read_timeout
    }

    /// The body went out whole by `splice`: the connection goes back to the pool as after any
    /// complete body.
    pub(crate) fn spliced_whole(&mut self) {
        self.0.framing = ResponseFraming::Empty;
        self.0.finish();
    }

    /// The connection after a `101 Switching Protocols`, for the tunnel; it leaves the pool but
    /// keeps its slot until the tunnel ends.
    pub fn take_upgraded(&mut self) -> Option<client::Upgraded<pool::Slot>> {
        self.0.conn.take().map(|conn| {
            let (client, slot) = conn.into_upgraded();
            client::Upgraded::new(client, slot)
        })
    }
}

impl Drop for Streaming {
    fn drop(&mut self) {
        // Dropped before the end (client gone): the connection closes.
        self.fail();
    }
}

impl http_body::Body for UpstreamBody {
    type Data = Bytes;
    type Error = BoxError;

    fn poll_frame(
        self: Pin<&mut Self>,
        context: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, BoxError>>> {
        let this = &mut *self.get_mut().0;
        let Some(conn) = this.conn.as_mut() else {
            return Poll::Ready(None);
        };
        if let Some(sending) = &mut this.sending {
            match sending.poll_send(&mut conn.client.io, context) {
                Poll::Ready(Ok(())) => this.sending = None,
                Poll::Ready(Err(error)) => {
                    // The rest of the request body cannot go: the answer is read to its end,
                    // and the connection closes after it.
                    tracing::debug!(?error, "request body broke off after the answer began");
                    this.reusable = false;
                    this.sending = None;
                }
                Poll::Pending => {}
            }
        }
        match client::poll_body(&mut conn.client, &mut this.framing, context) {
            Poll::Ready(Some(Ok(data))) => {
                this.waiting = false;
                if matches!(this.framing, ResponseFraming::Empty) {
                    this.finish();
                }
                Poll::Ready(Some(Ok(Frame::data(data))))
            }
            Poll::Ready(None) => {
                this.finish();
                Poll::Ready(None)
            }
            Poll::Ready(Some(Err(error))) => {
                this.fail();
                Poll::Ready(Some(Err(Box::new(error))))
            }
            Poll::Pending => {
                if !this.waiting {
                    this.waiting = true;
                    conn.client.start_read_timer(this.read_timeout);
                }
                match conn.client.poll_read_timer(context) {
                    Poll::Ready(()) => {
                        this.fail();
                        Poll::Ready(Some(Err(Box::new(BodyReadTimeout))))
                    }
                    Poll::Pending => Poll::Pending,
                }
            }
        }
    }

    fn is_end_stream(&self) -> bool {
        matches!(self.0.framing, ResponseFraming::Empty)
    }

    fn size_hint(&self) -> SizeHint {
        match self.0.framing {
            ResponseFraming::Empty => SizeHint::with_exact(0),
            ResponseFraming::Length(left) => SizeHint::with_exact(left),
            _ => SizeHint::default(),
        }
    }
}
