//! Upstream servers given by host name (`servers = ["web:8000"]`): asking the system's resolver
//! (getaddrinfo, which gives no TTL) or, with `[server] resolver`, a DNS server (hickory's
//! client, which gives the records' TTLs), and the task that asks again while the upstream lives
//! and hands each new set of addresses to the upstream (a `Follower`: this file knows nothing
//! of pools or balancing).
//!
//! One task per name: it resolves at once, then again after `resolve_interval` (with a DNS
//! server: the records' TTL, within [`MIN_RESOLVE_INTERVAL`] and `resolve_interval`), after a
//! failure within [`RETRY_AFTER_FAILURE`], and whenever a reload asks (`refresh`). A failure keeps
//! the last good set, as nginx keeps serving the addresses it had. The task ends when the
//! upstream is dropped.

use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Weak};
use std::time::Duration;

use hickory_resolver::config::{
    LookupIpStrategy, NameServerConfigGroup, ResolveHosts, ResolverConfig, ResolverOpts,
};
use hickory_resolver::name_server::TokioConnectionProvider;
use tokio::sync::watch;
use tokio::time::Instant;

use crate::config::{
    ResolveConfig, ServerName, UpstreamAddr, MAX_ADDRESSES_PER_NAME, MIN_RESOLVE_INTERVAL,
    RETRY_AFTER_FAILURE,
};

/// What keeps a group's servers as its names resolve: `upstream.rs`'s server set.
pub(crate) trait Follower: Send + Sync + 'static {
    /// The upstream's name, for logs.
    fn upstream(&self) -> &str;
    /// Name number `index`.
    fn name(&self, index: usize) -> &ServerName;
    /// Name number `index` resolved to `addrs`; returns whether the servers changed.
    fn update(&self, index: usize, addrs: Vec<UpstreamAddr>) -> bool;
    /// Name number `index` has been tried (whatever came of it).
    fn attempted(&self, index: usize);
}

/// Failures are logged at most once a second per name; a name's first failure in a row is a
/// warning, the next ones debug lines.
static RESOLVE_FAILED: crate::logging::Throttle = crate::logging::Throttle::new(1);

/// Why a name gave no addresses.
#[derive(Debug, thiserror::Error)]
pub enum ResolveError {
    #[error("{name} did not resolve within resolve_timeout ({timeout:?})")]
    Timeout { name: String, timeout: Duration },
    #[error("{name} does not resolve: {reason}")]
    Failed { name: String, reason: String },
    #[error("{name} resolves to no address")]
    Empty { name: String },
}

/// What a name resolved to: its addresses (sorted, deduplicated, at most
/// [`MAX_ADDRESSES_PER_NAME`]) and how long they may be kept, when the resolver knows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resolved {
    pub addrs: Vec<SocketAddr>,
    pub ttl: Option<Duration>,
    /// How many addresses the answer held beyond the cap.
    pub dropped: usize,
}

/// The system's resolver or a DNS server's client.
pub enum Resolver {
    System {
        timeout: Duration,
    },
    Dns {
        /// Boxed: hickory's resolver is large, and one per upstream.
        client: Box<hickory_resolver::Resolver<TokioConnectionProvider>>,
        timeout: Duration,
    },
}

impl Resolver {
    /// A resolver as `config` says. Must run inside a tokio runtime.
    pub fn new(config: &ResolveConfig) -> Resolver {
        let Some(server) = config.resolver else {
            return Resolver::System {
                timeout: config.timeout,
            };
        };
        let servers = NameServerConfigGroup::from_ips_clear(&[server.ip()], server.port(), true);
        let mut options = ResolverOpts::default();
        options.timeout = config.timeout;
        // This file's loop asks again; one attempt keeps a resolution within resolve_timeout.
        options.attempts = 1;
        options.ip_strategy = LookupIpStrategy::Ipv4AndIpv6;
        // No cache: each turn of the loop asks the server, whose TTLs set the next turn.
        options.cache_size = 0;
        options.use_hosts_file = ResolveHosts::Never;
        let client = Box::new(
            hickory_resolver::Resolver::builder_with_config(
                ResolverConfig::from_parts(None, Vec::new(), servers),
                TokioConnectionProvider::default(),
            )
            .with_options(options)
            .build(),
        );
        Resolver::Dns {
            client,
            timeout: config.timeout,
        }
    }

    /// Resolves `name` once, within `resolve_timeout`.
    pub async fn resolve(&self, name: &ServerName) -> Result<Resolved, ResolveError> {
        let text = name.to_string();
        let timeout = match self {
            Resolver::System { timeout } | Resolver::Dns { timeout, .. } => *timeout,
        };
        let asking = async {
            match self {
                Resolver::System { .. } => tokio::net::lookup_host((name.host.as_str(), name.port))
                    .await
                    .map(|addrs| (addrs.collect::<Vec<_>>(), None))
                    .map_err(|error| error.to_string()),
                Resolver::Dns { client, .. } => client
                    .lookup_ip(name.host.as_str())
                    .await
                    .map(|lookup| {
                        let ttl = lookup
                            .valid_until()
                            .saturating_duration_since(std::time::Instant::now());
                        let addrs = lookup
                            .iter()
                            .map(|ip| SocketAddr::new(ip, name.port))
                            .collect::<Vec<_>>();
                        (addrs, Some(ttl))
                    })
                    .map_err(|error| error.to_string()),
            }
        };
        let (mut addrs, ttl) = match tokio::time::timeout(timeout, asking).await {
            Err(_) => {
                return Err(ResolveError::Timeout {
                    name: text,
                    timeout,
                })
            }
            Ok(Err(reason)) => return Err(ResolveError::Failed { name: text, reason }),
            Ok(Ok(answer)) => answer,
        };
        addrs.sort();
        addrs.dedup();
        if addrs.is_empty() {
            return Err(ResolveError::Empty { name: text });
        }
        let dropped = addrs.len().saturating_sub(MAX_ADDRESSES_PER_NAME);
        addrs.truncate(MAX_ADDRESSES_PER_NAME);
        Ok(Resolved {
            addrs,
            ttl,
            dropped,
        })
    }
}

/// Resolves `name` once as `config` says: `weir check`'s question whether it resolves now.
pub async fn resolve_once(
    config: &ResolveConfig,
    name: &ServerName,
) -> Result<Resolved, ResolveError> {
    Resolver::new(config).resolve(name).await
}

/// Has an upstream's host names resolved again now (a reload; a failed connect to a name's
/// address, by a request or an active check; a request to a group with no address), at most
/// once per [`MIN_RESOLVE_INTERVAL`] but for a reload.
pub(crate) struct ResolveAgain {
    upstream: String,
    /// Tells the resolving tasks to resolve now; dropped with the upstream, it ends them.
    /// `None` without host names.
    refresh: Option<watch::Sender<()>>,
    /// When the names were last asked again, in milliseconds after `built`, plus one; 0: never.
    asked_again: AtomicU64,
    built: Instant,
}

impl ResolveAgain {
    /// The trigger of upstream `upstream`'s names; `names`: whether it has any to resolve.
    pub(crate) fn new(upstream: &str, names: bool) -> ResolveAgain {
        ResolveAgain {
            upstream: upstream.to_string(),
            refresh: names.then(|| watch::channel(()).0),
            asked_again: AtomicU64::new(0),
            built: Instant::now(),
        }
    }

    /// The sender the resolving tasks subscribe to.
    pub(crate) fn refresh(&self) -> Option<&watch::Sender<()>> {
        self.refresh.as_ref()
    }

    /// Resolves now, whatever the last time (a reload).
    pub(crate) fn now(&self) {
        if let Some(refresh) = &self.refresh {
            refresh.send_replace(());
        }
    }

    /// Resolves now unless the names were asked again within [`MIN_RESOLVE_INTERVAL`].
    pub(crate) fn soon(&self, why: &'static str) {
        let Some(refresh) = &self.refresh else {
            return;
        };
        // Milliseconds since the upstream was built, plus one (0: never asked). Not a lock: a
        // flood of requests to a group with no address all come here.
        let now = u64::try_from(self.built.elapsed().as_millis())
            .unwrap_or(u64::MAX - 1)
            .saturating_add(1);
        let last = self.asked_again.load(Ordering::Relaxed);
        let floor = u64::try_from(MIN_RESOLVE_INTERVAL.as_millis()).unwrap_or(u64::MAX);
        if last != 0 && now < last.saturating_add(floor) {
            return;
        }
        if self
            .asked_again
            .compare_exchange(last, now, Ordering::Relaxed, Ordering::Relaxed)
            .is_err()
        {
            return;
        }
        tracing::debug!(upstream = %self.upstream, why, "resolving the names again");
        refresh.send_replace(());
    }
}

/// When to ask again after `outcome`: the TTL within [`MIN_RESOLVE_INTERVAL`] and
/// `resolve_interval`, or `resolve_interval` when there is no TTL; after a failure, within
/// [`RETRY_AFTER_FAILURE`].
pub fn next_resolution(interval: Duration, outcome: &Result<Resolved, ResolveError>) -> Duration {
    match outcome {
        Ok(Resolved { ttl: Some(ttl), .. }) => (*ttl).clamp(MIN_RESOLVE_INTERVAL, interval),
        Ok(Resolved { ttl: None, .. }) => interval,
        Err(_) => interval.min(RETRY_AFTER_FAILURE),
    }
}

/// Starts the task that keeps the addresses of `set`'s name number `index` current. `refresh`
/// changes on reload (resolve now) and closes when the upstream is dropped (the task ends).
pub(crate) fn spawn<F: Follower>(
    set: &Arc<F>,
    index: usize,
    resolver: Arc<Resolver>,
    interval: Duration,
    refresh: watch::Receiver<()>,
) {
    tokio::spawn(keep_resolved(
        Arc::downgrade(set),
        index,
        resolver,
        interval,
        refresh,
    ));
}

async fn keep_resolved<F: Follower>(
    set: Weak<F>,
    index: usize,
    resolver: Arc<Resolver>,
    interval: Duration,
    mut refresh: watch::Receiver<()>,
) {
    let Some(name) = set.upgrade().map(|set| set.name(index).clone()) else {
        return;
    };
    let mut failing = false;
    loop {
        let outcome = resolver.resolve(&name).await;
        let Some(current) = set.upgrade() else {
            return;
        };
        match &outcome {
            Ok(resolved) => {
                if resolved.dropped > 0 {
                    tracing::warn!(upstream = %current.upstream(), server = %name, dropped = resolved.dropped, "the name has more addresses than a name may give servers ({MAX_ADDRESSES_PER_NAME}): the first in address order are kept");
                }
                if failing {
                    tracing::info!(upstream = %current.upstream(), server = %name, "the name resolves again");
                }
                failing = false;
                let addrs = resolved
                    .addrs
                    .iter()
                    .copied()
                    .map(UpstreamAddr::Tcp)
                    .collect();
                if current.update(index, addrs) {
                    tracing::info!(upstream = %current.upstream(), server = %name, addrs = ?resolved.addrs, "the name's servers changed");
                }
            }
            Err(error) => {
                if let Some(suppressed) = RESOLVE_FAILED.admit(&name.host) {
                    if failing {
                        tracing::debug!(upstream = %current.upstream(), %error, suppressed, "resolution failed again: keeping the last addresses");
                    } else {
                        tracing::warn!(upstream = %current.upstream(), %error, suppressed, "resolution failed: keeping the addresses it last resolved to (with none, its requests get 502)");
                    }
                }
                failing = true;
            }
        }
        current.attempted(index);
        drop(current);
        let wait = next_resolution(interval, &outcome);
        tokio::select! {
            () = tokio::time::sleep(wait) => {}
            changed = refresh.changed() => {
                if changed.is_err() {
                    return;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests;
