//! The downstream side: listeners, the accept loop, connection limits and graceful drain.
//!
//! [`Gateway::bind`] opens the listeners (port 0 works, so tests own their ports) and builds the
//! proxy; [`Gateway::run`] serves until the shutdown future completes, then stops accepting, lets
//! in-flight requests finish for up to `shutdown_grace`, and returns.

use std::future::Future;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Weak};
use std::time::Duration;

use arc_swap::ArcSwap;

use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Semaphore;

use crate::config::UpstreamAddr;
use crate::config::{Config, ServerConfig};
use crate::proxy::Proxy;
use crate::tls::Tls;
use crate::upstream::PoolStats;
use crate::write_timeout::WriteTimeout;

/// Errors that stop the gateway from starting.
#[derive(Debug, thiserror::Error)]
pub enum ServerError {
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        addr: SocketAddr,
        source: std::io::Error,
    },
    /// The proxy could not be built from the config (access log, limiter, spool, static root).
    #[error(transparent)]
    Proxy(#[from] crate::proxy::BuildError),
    #[error("{0}")]
    Tls(#[from] crate::tls::TlsError),
}

/// What a listening socket serves, as an upgrade passes it on to the next weir.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ListenerKind {
    /// A `[server] listen` address: plain HTTP.
    Plain,
    /// A `[tls] listen` address.
    Tls,
    /// The `[admin] listen` address.
    Admin,
}

impl ListenerKind {
    /// The name an upgrade writes beside the descriptor (`WEIR_INHERIT_FDS=3:plain,4:tls`).
    pub fn as_str(self) -> &'static str {
        match self {
            ListenerKind::Plain => "plain",
            ListenerKind::Tls => "tls",
            ListenerKind::Admin => "admin",
        }
    }

    /// The kind [`ListenerKind::as_str`] names.
    pub fn from_name(name: &str) -> Option<ListenerKind> {
        match name {
            "plain" => Some(ListenerKind::Plain),
            "tls" => Some(ListenerKind::Tls),
            "admin" => Some(ListenerKind::Admin),
            _ => None,
        }
    }

    fn of(tls: bool) -> ListenerKind {
        if tls {
            ListenerKind::Tls
        } else {
            ListenerKind::Plain
        }
    }
}

/// A listening socket this process was given instead of binding its address.
#[derive(Debug)]
pub struct Inherited {
    pub listener: std::net::TcpListener,
    /// What the weir that passed it served on it. `None` for a socket passed by systemd (or by a
    /// weir too old to say): one whose address the config does not list is served as plain
    /// HTTP, since whoever passed it decided. With a kind, the config still decides what it
    /// serves, and one the config no longer lists is closed: the weir that passed it served it
    /// only because its config did.
    pub kind: Option<ListenerKind>,
}

/// One listener of a gateway, for [`Gateway::bind_sibling`] to bind beside.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ListenAddr {
    /// The configured address (its port may be 0).
    pub configured: SocketAddr,
    /// The address bound.
    pub bound: SocketAddr,
    /// Whether it speaks TLS.
    pub tls: bool,
    /// An inherited socket the config does not list: served for the gateway's life.
    pub pinned: bool,
}

/// A listener of a gateway: the configured address it serves (the bound one may differ: port 0)
/// and whether it speaks TLS; `pinned` when it is an inherited socket the config does not list,
/// which no reload removes.
struct Bound {
    endpoint: Endpoint,
    listener: Arc<TcpListener>,
    pinned: bool,
}

/// A gateway with its listeners bound, ready to run.
pub struct Gateway {
    listeners: Vec<Bound>,
    admin: Option<Arc<TcpListener>>,
    shared: Arc<Shared>,
    /// Whether listeners allow siblings on the same address (one runtime per core).
    reuse_port: bool,
    /// Settings fixed for the gateway's life: `max_connections`, `backlog`, `shutdown_grace`.
    settings: ServerConfig,
}

/// A cheap handle to look at and reload a running gateway (tests, metrics, signals).
#[derive(Clone)]
pub struct GatewayHandle {
    shared: Arc<Shared>,
}

/// What a reload swaps: the proxy built from one version of the config, and the connection
/// settings new connections take.
struct Generation {
    proxy: Arc<Proxy>,
    settings: ServerConfig,
    /// Certificates and TLS settings, when `[tls]` is configured.
    tls: Option<Arc<Tls>>,
    /// The HTTP/2 settings of the TLS connections whose ALPN picked `h2` (from `[tls]`, so
    /// `None` without it). Kept here beside the [`Tls`], not in it: TLS knows nothing of the
    /// protocols spoken over it.
    http2: Option<crate::http2::Settings>,
}

impl Generation {
    /// `old` is the generation a reload replaces: its TLS session cache, ticket keys and counters
    /// carry over.
    fn new(
        proxy: Proxy,
        config: &Config,
        old: Option<&Generation>,
    ) -> Result<Generation, ServerError> {
        let tls = match &config.tls {
            Some(tls) => Some(Arc::new(Tls::new(
                tls,
                old.and_then(|old| old.tls.as_deref()),
            )?)),
            None => None,
        };
        Ok(Generation {
            proxy: proxy.shared(),
            settings: config.server.clone(),
            tls,
            http2: config.tls.as_ref().map(crate::http2::Settings::from_config),
        })
    }
}

/// A configured listen address and whether it speaks TLS (`[tls] listen`). Both may say
/// `127.0.0.1:0`, so the address alone does not tell them apart.
type Endpoint = (SocketAddr, bool);

/// Every address the config listens on: `[server] listen`, then `[tls] listen`.
fn all_listen(config: &Config) -> Vec<Endpoint> {
    let mut listen: Vec<Endpoint> = config
        .server
        .listen
        .iter()
        .map(|addr| (*addr, false))
        .collect();
    if let Some(tls) = &config.tls {
        listen.extend(tls.listen.iter().map(|addr| (*addr, true)));
    }
    listen
}

/// What sibling gateways (one per runtime) and every handle share.
struct Shared {
    /// The config now in force. A request takes the generation current when it starts and keeps
    /// it to its end, so requests in flight finish on the config they began with. An HTTP/1
    /// connection holds the proxy of its last request and takes it again from here only when
    /// `reloads.generation` moved ([`InForce`]).
    current: ArcSwap<Generation>,
    /// The configured `listen` addresses; each gateway's accept loops follow them.
    listen: tokio::sync::watch::Sender<Vec<Endpoint>>,
    /// Every listening socket open now, in every sibling, with what it serves (`None`: an
    /// inherited socket the config does not list), for an upgrade to pass on. Weak: only the
    /// socket's accept loop keeps it open, so one a reload removes is closed with its loop and
    /// no copy of it lives on to accept connections nobody serves.
    live: std::sync::Mutex<Vec<(Option<ListenerKind>, Weak<TcpListener>)>>,
    reloads: ReloadStats,
    /// Gateways bound and not yet drained (the first and its siblings).
    serving: tokio::sync::watch::Sender<usize>,
    /// Idle connections parked now, over every sibling.
    parked: Arc<std::sync::atomic::AtomicUsize>,
    /// Client connections open now, over every sibling (`weir_connections_open`): one per
    /// [`Place`].
    open: Arc<std::sync::atomic::AtomicUsize>,
}

/// Reload figures for `/metrics`; `generation` also tells connections that the proxy they hold
/// is no longer in force.
#[derive(Debug, Default)]
struct ReloadStats {
    generation: AtomicU64,
    last_reload_unix_seconds: AtomicU64,
    successes: AtomicU64,
    failures: AtomicU64,
}

impl Shared {
    /// Records that `listener` serves as `kind` from now on (a reload moved its address).
    fn set_kind(&self, listener: &Arc<TcpListener>, kind: Option<ListenerKind>) {
        let mut live = self
            .live
            .lock()
            .unwrap_or_else(|poison| poison.into_inner());
        for (live_kind, weak) in live.iter_mut() {
            if std::ptr::eq(weak.as_ptr(), Arc::as_ptr(listener)) {
                *live_kind = kind;
            }
        }
    }

    /// Counts `listener` among the live sockets (as `kind`) and gives it its one owner.
    fn register(&self, kind: Option<ListenerKind>, listener: TcpListener) -> Arc<TcpListener> {
        let listener = Arc::new(listener);
        let mut live = self
            .live
            .lock()
            .unwrap_or_else(|poison| poison.into_inner());
        live.retain(|(_, weak)| weak.strong_count() > 0);
        live.push((kind, Arc::downgrade(&listener)));
        listener
    }
}

impl Gateway {
    /// Binds every `listen` address and builds the proxy. Must run inside a tokio runtime.
    pub fn bind(config: &Config) -> Result<Gateway, ServerError> {
        Self::bind_with(config, false)
    }

    /// As [`Gateway::bind`]; with `reuse_port`, the listeners allow siblings
    /// ([`Gateway::bind_sibling`]) on the same addresses, one per runtime.
    pub fn bind_with(config: &Config, reuse_port: bool) -> Result<Gateway, ServerError> {
        Self::bind_inherited(config, reuse_port, Vec::new())
    }

    /// As [`Gateway::bind_with`], serving `inherited` listening sockets (from systemd socket
    /// activation, or from the weir that started this one) instead of binding their addresses;
    /// each serves what the config says of its address. Of the inherited sockets the config does
    /// not list, systemd's are served too (systemd decided) and an upgrading weir's are closed.
    pub fn bind_inherited(
        config: &Config,
        reuse_port: bool,
        inherited: Vec<Inherited>,
    ) -> Result<Gateway, ServerError> {
        let mut inherited: Vec<(SocketAddr, Inherited)> = inherited
            .into_iter()
            .filter_map(|socket| Some((socket.listener.local_addr().ok()?, socket)))
            .collect();
        let listeners = take_or_bind(
            &all_listen(config),
            &mut inherited,
            config.server.backlog,
            reuse_port,
        )?;
        let admin = match &config.admin {
            Some(admin) => Some(
                match take_inherited(&mut inherited, admin.listen, ListenerKind::Admin) {
                    Some((bound, listener)) => from_std(listener, bound)?,
                    None => listen(admin.listen, config.server.backlog, false)?,
                },
            ),
            None => None,
        };
        let mut pinned = Vec::new();
        for (addr, socket) in inherited {
            match socket.kind {
                None => {
                    tracing::info!(%addr, "serving an inherited listener the config does not list");
                    pinned.push(((addr, false), from_std(socket.listener, addr)?));
                }
                // Dropped here: closed, so clients of an address no longer configured are
                // refused rather than queued.
                Some(kind) => tracing::info!(
                    %addr,
                    kind = kind.as_str(),
                    "closing a passed listener the config no longer lists"
                ),
            }
        }
        let proxy = Proxy::new(config, reuse_port)?;
        let reloads = ReloadStats::default();
        reloads.generation.store(1, Ordering::Relaxed);
        let shared = Arc::new(Shared {
            current: ArcSwap::from_pointee(Generation::new(proxy, config, None)?),
            listen: tokio::sync::watch::Sender::new(all_listen(config)),
            live: std::sync::Mutex::new(Vec::new()),
            reloads,
            serving: tokio::sync::watch::Sender::new(1),
            parked: Arc::default(),
            open: Arc::default(),
        });
        let mut bound: Vec<Bound> = listeners
            .into_iter()
            .map(|(endpoint, listener)| Bound {
                endpoint,
                listener: shared.register(Some(ListenerKind::of(endpoint.1)), listener),
                pinned: false,
            })
            .collect();
        bound.extend(pinned.into_iter().map(|(endpoint, listener)| Bound {
            endpoint,
            listener: shared.register(None, listener),
            pinned: true,
        }));
        let admin = admin.map(|admin| shared.register(Some(ListenerKind::Admin), admin));
        Ok(Gateway {
            listeners: bound,
            admin,
            shared,
            reuse_port,
            settings: config.server.clone(),
        })
    }

    /// Another gateway on the same addresses as `handle`'s (with `SO_REUSEPORT`; the kernel
    /// spreads connections among them) sharing its proxy: its routes, pools and limits, and its
    /// reloads. For one single-threaded runtime per core; call it inside the runtime that will
    /// run it. `addrs` are the first gateway's listeners ([`Gateway::listen_addrs`]);
    /// `inherited` are this sibling's share of the inherited sockets, served rather than bound
    /// beside (those no listener of `addrs` names are closed). `settings.max_connections`
    /// applies to each sibling.
    pub fn bind_sibling(
        handle: &GatewayHandle,
        addrs: &[ListenAddr],
        settings: &ServerConfig,
        inherited: Vec<Inherited>,
    ) -> Result<Gateway, ServerError> {
        let mut inherited: Vec<(SocketAddr, std::net::TcpListener)> = inherited
            .into_iter()
            .filter(|socket| socket.kind != Some(ListenerKind::Admin))
            .filter_map(|socket| Some((socket.listener.local_addr().ok()?, socket.listener)))
            .collect();
        let shared = &handle.shared;
        let mut listeners = Vec::with_capacity(addrs.len());
        for addr in addrs {
            let listener = match inherited.iter().position(|(bound, _)| *bound == addr.bound) {
                Some(position) => from_std(inherited.swap_remove(position).1, addr.bound)?,
                None => listen(addr.bound, settings.backlog, true)?,
            };
            let kind = (!addr.pinned).then_some(ListenerKind::of(addr.tls));
            listeners.push(Bound {
                endpoint: (addr.configured, addr.tls),
                listener: shared.register(kind, listener),
                pinned: addr.pinned,
            });
        }
        handle.shared.serving.send_modify(|serving| *serving += 1);
        Ok(Gateway {
            listeners,
            admin: None,
            shared: Arc::clone(&handle.shared),
            reuse_port: true,
            settings: settings.clone(),
        })
    }

    /// The admin listener's address, when `[admin]` is configured.
    pub fn admin_addr(&self) -> Option<SocketAddr> {
        self.admin
            .as_ref()
            .and_then(|listener| listener.local_addr().ok())
    }

    /// The addresses actually bound (with the real port when `listen` said port 0).
    pub fn local_addrs(&self) -> Vec<SocketAddr> {
        self.listeners
            .iter()
            .filter_map(|bound| bound.listener.local_addr().ok())
            .collect()
    }

    /// The bound addresses of the `[tls] listen` listeners.
    pub fn tls_addrs(&self) -> Vec<SocketAddr> {
        self.listeners
            .iter()
            .filter(|bound| bound.endpoint.1)
            .filter_map(|bound| bound.listener.local_addr().ok())
            .collect()
    }

    /// Each listener's configured and bound address and what it serves, for
    /// [`Gateway::bind_sibling`]; an address served by several inherited sockets is named once.
    pub fn listen_addrs(&self) -> Vec<ListenAddr> {
        let mut addrs: Vec<ListenAddr> = Vec::with_capacity(self.listeners.len());
        for bound in &self.listeners {
            let Ok(local) = bound.listener.local_addr() else {
                continue;
            };
            if addrs.iter().any(|addr| addr.bound == local) {
                continue;
            }
            addrs.push(ListenAddr {
                configured: bound.endpoint.0,
                bound: local,
                tls: bound.endpoint.1,
                pinned: bound.pinned,
            });
        }
        addrs
    }

    pub fn handle(&self) -> GatewayHandle {
        GatewayHandle {
            shared: Arc::clone(&self.shared),
        }
    }

    /// Serves until `shutdown` completes, then drains. Listeners follow reloads: an address a
    /// reload adds is bound, one it removes is closed, one it moves between `[server] listen` and
    /// `[tls] listen` is served as its new list says.
    pub async fn run(self, shutdown: impl Future<Output = ()>) {
        let max_connections = self
            .settings
            .max_connections
            .clamp(1, Semaphore::MAX_PERMITS);
        let limit = Arc::new(Semaphore::new(max_connections));
        let (stop_sender, stop_receiver) = tokio::sync::watch::channel(false);
        // The admin listener answers (`/readyz` 503) until every sibling has drained, not only
        // this one: it has a stop channel of its own, dropped once `serving` reaches zero.
        let (admin_stop, admin_task) = match self.admin {
            Some(admin) => {
                let handle = GatewayHandle {
                    shared: Arc::clone(&self.shared),
                };
                let (admin_stop, admin_stop_receiver) = tokio::sync::watch::channel(false);
                let task = tokio::spawn(crate::admin::serve(admin, handle, admin_stop_receiver));
                (Some(admin_stop), Some(task))
            }
            None => (None, None),
        };
        let context = Arc::new(AcceptContext {
            shared: Arc::clone(&self.shared),
            limit: Arc::clone(&limit),
            stop: stop_receiver.clone(),
            parking: match crate::h1::park::ParkSet::new(Arc::clone(&self.shared.parked)) {
                Ok(parking) => Some(parking),
                Err(error) => {
                    tracing::warn!(%error, "idle connections cannot be parked");
                    None
                }
            },
            shutdown_grace: self.settings.shutdown_grace,
        });
        // Ends at stop, closing every parked connection (their places come back for the drain).
        let park_task = tokio::spawn({
            let context = Arc::clone(&context);
            let stop = stop_receiver.clone();
            async move {
                if let Some(parking) = &context.parking {
                    parking.run(stop, |parked| resume(parked, &context)).await;
                }
            }
        });
        let mut listen_changes = self.shared.listen.subscribe();
        let configured = listen_changes.borrow_and_update().clone();
        let mut accepting: Vec<Accepting> = Vec::new();
        // Inherited sockets the config does not list stay for the gateway's life.
        let mut pinned = Vec::new();
        for bound in self.listeners {
            if bound.pinned {
                pinned.push(tokio::spawn(accept_loop(
                    bound.listener,
                    (bound.endpoint.0, false),
                    Arc::clone(&context),
                )));
            } else {
                accepting.push(Accepting::spawn(bound.endpoint, bound.listener, &context));
            }
        }
        // A reload may have come between binding and now.
        follow_listen(
            &mut accepting,
            &configured,
            &self.settings,
            self.reuse_port,
            &context,
        )
        .await;
        let mut shutdown = std::pin::pin!(shutdown);
        loop {
            tokio::select! {
                () = &mut shutdown => break,
                changed = listen_changes.changed() => {
                    if changed.is_err() {
                        // The sender lives in `shared`, which this gateway holds: unreachable.
                        continue;
                    }
                    let wanted = listen_changes.borrow_and_update().clone();
                    follow_listen(&mut accepting, &wanted, &self.settings, self.reuse_port, &context)
                        .await;
                }
            }
        }
        tracing::info!("shutting down: no new connections, draining in-flight requests");
        let _ = stop_sender.send(true);
        if let Some(admin_stop) = &admin_stop {
            let _ = admin_stop.send(true);
        }
        for task in accepting
            .into_iter()
            .map(|serving| serving.task)
            .chain(pinned)
        {
            task.abort();
            let _ = task.await;
        }
        let _ = park_task.await;
        drop(context);
        let grace = self.settings.shutdown_grace;
        // Every live connection holds a permit: when all are back, every connection has ended.
        let drained = limit.acquire_many(max_connections as u32);
        if tokio::time::timeout(grace, drained).await.is_err() {
            tracing::warn!(
                ?grace,
                "requests still in flight after shutdown_grace; closing them"
            );
        }
        // Upgraded connections (WebSocket tunnels) hold their places too: past the grace they
        // are closed, as requests in flight are.
        self.shared.current.load().proxy.close_tunnels();
        self.shared
            .serving
            .send_modify(|serving| *serving = serving.saturating_sub(1));
        if let (Some(admin_stop), Some(admin_task)) = (admin_stop, admin_task) {
            // Siblings drain within the same grace; wait for them (bounded), then stop.
            let mut serving = self.shared.serving.subscribe();
            let _ = tokio::time::timeout(grace, serving.wait_for(|serving| *serving == 0)).await;
            drop(admin_stop);
            let _ = admin_task.await;
        }
    }
}

impl crate::admin::AdminView for GatewayHandle {
    fn render_metrics(&self) -> String {
        GatewayHandle::render_metrics(self)
    }
}

impl GatewayHandle {
    /// The proxy now in force.
    fn proxy(&self) -> Arc<Proxy> {
        Arc::clone(&self.shared.current.load().proxy)
    }

    /// Duplicates (the same sockets, new descriptors) of every listening socket open now, in
    /// every sibling, with what each serves, for a new process to serve on an upgrade:
    /// connections queued in them are not lost. Taken when asked, so a listener a reload removed
    /// is not among them and one it added is.
    pub fn listeners_for_upgrade(&self) -> Vec<Inherited> {
        use std::os::fd::AsFd;
        let mut live = self
            .shared
            .live
            .lock()
            .unwrap_or_else(|poison| poison.into_inner());
        live.retain(|(_, weak)| weak.strong_count() > 0);
        live.iter()
            .filter_map(|(kind, weak)| {
                let listener = weak.upgrade()?;
                let copy = listener.as_fd().try_clone_to_owned().ok()?;
                Some(Inherited {
                    listener: std::net::TcpListener::from(copy),
                    kind: *kind,
                })
            })
            .collect()
    }

    /// Applies a new, already validated config: new requests use it at once, requests in flight
    /// finish on the old one. Upstreams and limits whose tables did not change are kept with
    /// their pools and state; listeners follow the new `listen` lists (in every sibling).
    /// `[admin]`, `max_connections`, `backlog`, `shutdown_grace`, `runtime` and `threads` keep
    /// their values until a restart. Must run inside a tokio runtime. On error the old config
    /// stays and the failure is counted.
    pub fn reload(&self, config: &Config) -> Result<(), ServerError> {
        let old = self.shared.current.load_full();
        let generation = Proxy::reload(config, &old.proxy)
            .map_err(ServerError::from)
            .and_then(|proxy| Generation::new(proxy, config, Some(&old)));
        let generation = match generation {
            Ok(generation) => generation,
            Err(error) => {
                self.reload_failed();
                return Err(error);
            }
        };
        // The spool cap is the gateway's, not a generation's: the new one holds from now on,
        // for responses of the old generation too.
        generation.proxy.buffers().take_effect();
        self.shared.current.store(Arc::new(generation));
        let wanted = all_listen(config);
        self.shared.listen.send_if_modified(|listen| {
            let changed = *listen != wanted;
            if changed {
                listen.clone_from(&wanted);
            }
            changed
        });
        let stats = &self.shared.reloads;
        // Release, after the store: a connection that reads the new number (Acquire) then
        // finds the new generation in `current` ([`InForce`]).
        stats.generation.fetch_add(1, Ordering::Release);
        stats.successes.fetch_add(1, Ordering::Relaxed);
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |since| since.as_secs());
        stats.last_reload_unix_seconds.store(now, Ordering::Relaxed);
        Ok(())
    }

    /// Counts a reload that failed before reaching [`GatewayHandle::reload`] (an invalid file).
    pub fn reload_failed(&self) {
        self.shared.reloads.failures.fetch_add(1, Ordering::Relaxed);
    }

    /// The config generation now in force: 1 at start, one more per successful reload.
    pub fn generation(&self) -> u64 {
        self.shared.reloads.generation.load(Ordering::Relaxed)
    }

    /// The metrics in the Prometheus text format, as `/metrics` serves them.
    pub fn render_metrics(&self) -> String {
        // Each pool's counters are read once, with its server's health.
        let servers = self.server_states();
        let pools: Vec<_> = servers
            .iter()
            .map(|(upstream, state)| (upstream.clone(), state.addr.clone(), state.pool))
            .collect();
        let mut text =
            self.proxy()
                .metrics()
                .render(&pools, &self.limiter_stats(), &self.buffer_stats());
        crate::metrics::render_health(&mut text, &servers);
        if let Some(cache) = self.proxy().cache_stats() {
            crate::metrics::render_cache(&mut text, &cache);
        }
        crate::metrics::render_conn_limits(&mut text, &self.conn_limit_stats());
        let stats = &self.shared.reloads;
        crate::metrics::render_reloads(
            &mut text,
            stats.generation.load(Ordering::Relaxed),
            stats.last_reload_unix_seconds.load(Ordering::Relaxed),
            stats.successes.load(Ordering::Relaxed),
            stats.failures.load(Ordering::Relaxed),
        );
        if let Some(tls) = &self.shared.current.load().tls {
            crate::metrics::render_tls(&mut text, tls.stats());
        }
        crate::metrics::render_connections(
            &mut text,
            self.open_connections() as u64,
            self.parked_connections() as u64,
        );
        text
    }

    /// Client connections open now, over every sibling (parked ones included).
    pub fn open_connections(&self) -> usize {
        self.shared.open.load(Ordering::Relaxed)
    }

    /// Idle connections parked now (see `crate::h1::park`).
    pub fn parked_connections(&self) -> usize {
        self.shared.parked.load(Ordering::Relaxed)
    }

    /// Decision counts of every limit: `(limit name, stats)`.
    pub fn limiter_stats(&self) -> Vec<(String, crate::ratelimit::LimitStats)> {
        self.proxy()
            .limiters()
            .iter()
            .map(|limiter| (limiter.name().to_string(), limiter.stats()))
            .collect()
    }

    /// What every connection limit has done: `(limit name, stats)`.
    pub fn conn_limit_stats(&self) -> Vec<(String, crate::ratelimit::ConnLimitStats)> {
        self.proxy()
            .conn_limits()
            .iter()
            .map(|limit| (limit.name().to_string(), limit.stats()))
            .collect()
    }

    /// Bytes held by request spooling and response read-ahead.
    pub fn buffer_stats(&self) -> crate::buffering::BufferStats {
        self.proxy().buffers().stats()
    }

    /// Health, balancing and pool state of every upstream server: `(upstream name, state)`.
    pub fn server_states(&self) -> Vec<(String, crate::upstream::ServerState)> {
        self.proxy()
            .upstreams()
            .iter()
            .flat_map(|upstream| {
                let name = upstream.name().to_string();
                upstream
                    .server_states()
                    .into_iter()
                    .map(move |state| (name.clone(), state))
            })
            .collect()
    }

    /// Pool counters of every upstream server: `(upstream name, server, stats)`.
    pub fn pool_stats(&self) -> Vec<(String, UpstreamAddr, PoolStats)> {
        self.proxy()
            .upstreams()
            .iter()
            .flat_map(|upstream| {
                upstream.pools().into_iter().map(|pool| {
                    (
                        upstream.name().to_string(),
                        pool.addr().clone(),
                        pool.stats(),
                    )
                })
            })
            .collect()
    }
}

struct AcceptContext {
    shared: Arc<Shared>,
    limit: Arc<Semaphore>,
    stop: tokio::sync::watch::Receiver<bool>,
    /// This runtime's idle plain-HTTP connections, out of their tasks (`None`: no epoll set
    /// could be made; idle connections wait in their tasks).
    parking: Option<crate::h1::park::ParkSet<Parked>>,
    /// `shutdown_grace` (fixed for the gateway's life): at stop, an HTTP/2 connection waits this
    /// long at most for its streams.
    shutdown_grace: Duration,
}

/// How long a plain-HTTP keep-alive connection waits for its next request in its task before it
/// is parked ([`crate::h1::park`]): long enough that a busy connection (a client sending request
/// after request) never pays for leaving and coming back, short enough that a connection a
/// browser or a client pool keeps open for later costs its task's memory only briefly.
const PARK_AFTER: Duration = Duration::from_millis(200);

/// A parked plain-HTTP connection: what it needs to be served again.
struct Parked {
    socket: mio::net::TcpStream,
    send_timeout: Duration,
    peer: SocketAddr,
    connection: crate::h1::Settings,
    start: crate::h1::Start,
    permit: Place,
}

impl crate::h1::park::Parkable for Parked {
    fn socket(&mut self) -> &mut mio::net::TcpStream {
        &mut self.socket
    }
}

/// The proxy in force, as an HTTP/1 connection holds it between requests: the one its last
/// request used until a reload moves `reloads.generation`. A request then reads one number
/// that only a reload writes, and bumps no reference count on the shared proxy; a connection
/// takes a reference once, and once more after each reload. An idle connection thus keeps the
/// old generation (its pools and limits) until its next request, its end, or its park.
struct InForce {
    shared: Arc<Shared>,
    /// The generation number when the held proxy was taken.
    taken: u64,
}

impl InForce {
    fn new(shared: Arc<Shared>) -> InForce {
        InForce { shared, taken: 0 }
    }
}

impl crate::h1::ProxyInForce for InForce {
    fn current<'held>(&mut self, held: &'held mut Option<Arc<Proxy>>) -> &'held Arc<Proxy> {
        // Acquire: pairs with the reload's Release increment, made after it stored the new
        // generation. A reload racing this read is seen at the next request.
        let now = self.shared.reloads.generation.load(Ordering::Acquire);
        if now != self.taken {
            *held = None;
            self.taken = now;
        }
        held.get_or_insert_with(|| Arc::clone(&self.shared.current.load().proxy))
    }
}

/// Serves a plain-HTTP connection from `start`; once it has been quiet for [`PARK_AFTER`], parks
/// it (the task ends; [`Gateway::run`]'s park task serves it again when it wakes).
async fn serve_plain(
    io: Box<WriteTimeout<TcpStream>>,
    peer: SocketAddr,
    connection: crate::h1::Settings,
    start: crate::h1::Start,
    context: Arc<AcceptContext>,
    permit: Place,
) {
    let proxy = InForce::new(Arc::clone(&context.shared));
    let stop = context.stop.clone();
    let served = crate::h1::serve(io, peer, connection.clone(), proxy, stop, None, start);
    let Some(idle) = served.await else {
        return;
    };
    let Some(io) = idle.io.into_plain_tcp() else {
        return;
    };
    let Some(parking) = &context.parking else {
        return;
    };
    let (stream, send_timeout) = io.into_parts();
    // Out of tokio's reactor: the park watches it in its own epoll set.
    let socket = match stream.into_std() {
        Ok(socket) => mio::net::TcpStream::from_std(socket),
        Err(error) => {
            tracing::debug!(%error, "cannot park an idle connection; closing it");
            return;
        }
    };
    let parked = Parked {
        socket,
        send_timeout,
        peer,
        connection,
        start: idle.start,
        permit,
    };
    let deadline = parked.start.deadline;
    if let Err(parked) = parking.park(parked, deadline) {
        // It cannot be watched: served on in a task, as a woken one is.
        resume(parked, &context);
    }
}

/// Serves a parked connection that woke.
fn resume(parked: Parked, context: &Arc<AcceptContext>) {
    let Parked {
        socket,
        send_timeout,
        peer,
        connection,
        start,
        permit,
    } = parked;
    let socket = std::net::TcpStream::from(std::os::fd::OwnedFd::from(socket));
    let stream = match TcpStream::from_std(socket) {
        Ok(stream) => stream,
        Err(error) => {
            tracing::debug!(%error, "cannot serve a parked connection again; closing it");
            return;
        }
    };
    let io = Box::new(WriteTimeout::new(stream, send_timeout, CLIENT_SEND_TIMEOUT));
    tokio::spawn(serve_plain(
        io,
        peer,
        connection,
        start,
        Arc::clone(context),
        permit,
    ));
}

/// Accepts on `listener`; `tls` when it is a `[tls] listen` address, whose connections are served
/// with the TLS settings in force when they come.
async fn accept_loop(listener: Arc<TcpListener>, endpoint: Endpoint, context: Arc<AcceptContext>) {
    // What a request knows of the listener it came on: one for all its connections.
    let identity = Arc::new(crate::routing::Listener {
        addr: endpoint.0,
        tls: endpoint.1,
        port: listener
            .local_addr()
            .map_or(endpoint.0.port(), |bound| bound.port()),
    });
    loop {
        // Wait for a free connection place before accepting, so excess clients queue in the
        // kernel's backlog instead of costing memory here.
        let Ok(permit) = Arc::clone(&context.limit).acquire_owned().await else {
            return;
        };
        let (stream, peer) = match listener.accept().await {
            Ok(accepted) => accepted,
            Err(error) => {
                // EMFILE and the like: back off a little instead of spinning.
                tracing::warn!(%error, "accept failed");
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let _ = stream.set_nodelay(true);
        let place = Place::new(permit, &context.shared.open);
        serve_connection(stream, peer, &identity, &context, place);
    }
}

/// A client connection's `max_connections` place, counted in `weir_connections_open` while it
/// is held.
struct Place {
    _permit: tokio::sync::OwnedSemaphorePermit,
    open: Arc<std::sync::atomic::AtomicUsize>,
}

impl Place {
    fn new(
        permit: tokio::sync::OwnedSemaphorePermit,
        open: &Arc<std::sync::atomic::AtomicUsize>,
    ) -> Place {
        open.fetch_add(1, Ordering::Relaxed);
        Place {
            _permit: permit,
            open: Arc::clone(open),
        }
    }
}

impl Drop for Place {
    fn drop(&mut self) {
        self.open.fetch_sub(1, Ordering::Relaxed);
    }
}

/// The message of a client write that made no progress for `send_timeout`.
const CLIENT_SEND_TIMEOUT: &str = "client read nothing for send_timeout";

fn serve_connection(
    stream: TcpStream,
    peer: SocketAddr,
    listener: &Arc<crate::routing::Listener>,
    context: &Arc<AcceptContext>,
    permit: Place,
) {
    // Connection settings are those in force when the connection came; each request takes the
    // proxy in force when it starts.
    let generation = context.shared.current.load();
    let settings = &generation.settings;
    let connection = crate::h1::Settings {
        header_timeout: settings.header_timeout,
        keepalive_timeout: settings.keepalive_timeout,
        keepalive_requests: settings.keepalive_requests,
        max_header_size: settings.max_header_size,
        park_after: None,
        listener: Arc::clone(listener),
    };
    let tls = match (listener.tls, &generation.tls, &generation.http2) {
        (false, _, _) => None,
        (true, Some(tls), Some(http2)) => Some((Arc::clone(tls), http2.clone())),
        // A reload took `[tls]` away; this listener is closing.
        (true, _, _) => return,
    };
    let send_timeout = settings.send_timeout;
    let http2_timeouts = crate::http2::Timeouts {
        header: settings.header_timeout,
        keepalive: settings.keepalive_timeout,
        send: send_timeout,
        shutdown_grace: context.shutdown_grace,
    };
    drop(generation);
    let Some((tls, http2)) = tls else {
        // The connection's place is held to its end, parked or not.
        let io = Box::new(WriteTimeout::new(stream, send_timeout, CLIENT_SEND_TIMEOUT));
        let connection = crate::h1::Settings {
            // Without a park (no epoll set could be made), idle connections wait in their tasks.
            park_after: context.parking.as_ref().map(|_| PARK_AFTER),
            ..connection
        };
        let start = crate::h1::Start::new(&connection);
        tokio::spawn(serve_plain(
            io,
            peer,
            connection,
            start,
            Arc::clone(context),
            permit,
        ));
        return;
    };
    let shared = Arc::clone(&context.shared);
    let stop = context.stop.clone();
    tokio::spawn(async move {
        // The connection's place is held to the end of the task, TLS handshake and tunnel
        // included, so handshakes in progress count against max_connections.
        let _permit = permit;
        // Boxed: the handshake and HTTP/2 futures are large, and unboxed they would make every
        // plain connection's task as large as theirs.
        Box::pin(async move {
            let wrap = |stream| WriteTimeout::new(stream, send_timeout, CLIENT_SEND_TIMEOUT);
            let Some((stream, info)) = tls.accept(stream, wrap).await else {
                return;
            };
            if info.h2 {
                let client = crate::proxy::ClientInfo {
                    peer,
                    // keepalive_requests does not apply to HTTP/2, and `Connection: close` has
                    // no meaning there.
                    last_request: false,
                    tls: Some(info),
                    listener: *connection.listener,
                };
                // Each stream is a task of its own and takes the proxy by reference count.
                let proxy = move || Arc::clone(&shared.current.load().proxy);
                Box::pin(crate::http2::serve(
                    stream,
                    &http2,
                    client,
                    proxy,
                    stop,
                    http2_timeouts,
                ))
                .await;
            } else {
                let start = crate::h1::Start::new(&connection);
                let io = Box::new(stream);
                let proxy = InForce::new(shared);
                crate::h1::serve(io, peer, connection, proxy, stop, Some(info), start).await;
            }
        })
        .await;
    });
}

/// A listener being served: its endpoint, the socket, and the accept loop that serves it.
struct Accepting {
    endpoint: Endpoint,
    listener: Arc<TcpListener>,
    task: tokio::task::JoinHandle<()>,
}

impl Accepting {
    fn spawn(
        endpoint: Endpoint,
        listener: Arc<TcpListener>,
        context: &Arc<AcceptContext>,
    ) -> Accepting {
        let task = tokio::spawn(accept_loop(
            Arc::clone(&listener),
            endpoint,
            Arc::clone(context),
        ));
        Accepting {
            endpoint,
            listener,
            task,
        }
    }

    /// Stops the accept loop and waits until it is gone (with its reference to the socket): the
    /// socket closes once the listener returned is dropped.
    async fn stop(self) -> Arc<TcpListener> {
        self.task.abort();
        let _ = self.task.await;
        self.listener
    }
}

/// Makes the accept loops match `wanted`: a listener whose address left the list is closed, an
/// address new to it is bound; one moved between the plain and the TLS list keeps its socket,
/// served from now on as its new list says. Closed and bound again, its address would still be
/// in use by the connections accepted on it (`SO_REUSEADDR` does not cover them).
async fn follow_listen(
    accepting: &mut Vec<Accepting>,
    wanted: &[Endpoint],
    settings: &ServerConfig,
    reuse_port: bool,
    context: &Arc<AcceptContext>,
) {
    let (kept, removed): (Vec<_>, Vec<_>) = std::mem::take(accepting)
        .into_iter()
        .partition(|serving| wanted.contains(&serving.endpoint));
    *accepting = kept;
    for serving in removed {
        let (addr, tls) = serving.endpoint;
        let moved = (addr, !tls);
        // Unless the address was already served in its other kind (both lists said it before).
        let move_it = wanted.contains(&moved)
            && !accepting.iter().any(|other| {
                other.endpoint == moved
                    && other.listener.local_addr().ok() != serving.listener.local_addr().ok()
            });
        let listener = serving.stop().await;
        if move_it {
            tracing::info!(%addr, tls = !tls, "reload: listening");
            context
                .shared
                .set_kind(&listener, Some(ListenerKind::of(!tls)));
            accepting.push(Accepting::spawn(moved, listener, context));
        } else {
            tracing::info!(%addr, tls, "reload: no longer listening");
            // Its last owner: the socket closes here.
            drop(listener);
        }
    }
    for endpoint in wanted {
        if accepting
            .iter()
            .any(|serving| serving.endpoint == *endpoint)
        {
            continue;
        }
        let (addr, tls) = *endpoint;
        match listen(addr, settings.backlog, reuse_port) {
            Ok(listener) => {
                tracing::info!(%addr, tls, "reload: listening");
                let listener = context
                    .shared
                    .register(Some(ListenerKind::of(tls)), listener);
                accepting.push(Accepting::spawn(*endpoint, listener, context));
            }
            Err(error) => tracing::error!(%error, "reload: cannot listen"),
        }
    }
}

/// The listeners for `configured` addresses: the inherited sockets bound to an address are
/// taken (every one of them: an upgrading per-core weir passes one per runtime), the others are
/// bound. What is left in `inherited` no configured address names.
fn take_or_bind(
    configured: &[Endpoint],
    inherited: &mut Vec<(SocketAddr, Inherited)>,
    backlog: u32,
    reuse_port: bool,
) -> Result<Vec<(Endpoint, TcpListener)>, ServerError> {
    let mut listeners = Vec::with_capacity(configured.len() + inherited.len());
    for (addr, tls) in configured {
        let kind = ListenerKind::of(*tls);
        let Some((bound, first)) = take_inherited(inherited, *addr, kind) else {
            listeners.push(((*addr, *tls), listen(*addr, backlog, reuse_port)?));
            continue;
        };
        listeners.push(((*addr, *tls), from_std(first, bound)?));
        while let Some(position) = inherited
            .iter()
            .position(|(other, socket)| *other == bound && socket.kind != Some(ListenerKind::Admin))
        {
            let (_, socket) = inherited.swap_remove(position);
            listeners.push(((*addr, *tls), from_std(socket.listener, bound)?));
        }
    }
    Ok(listeners)
}

/// Takes from `inherited` a socket for the configured `addr` that is to serve as `kind`: one
/// bound to `addr` (whatever it served before: the config decides), or, when `addr` says port
/// 0, one an upgrading weir served as `kind` on the same IP address (the port it was given).
fn take_inherited(
    inherited: &mut Vec<(SocketAddr, Inherited)>,
    addr: SocketAddr,
    kind: ListenerKind,
) -> Option<(SocketAddr, std::net::TcpListener)> {
    let admin = |socket: &Inherited| socket.kind == Some(ListenerKind::Admin);
    let position = inherited
        .iter()
        .position(|(bound, socket)| {
            *bound == addr
                && (admin(socket) == (kind == ListenerKind::Admin) || socket.kind.is_none())
        })
        .or_else(|| {
            (addr.port() == 0).then(|| {
                inherited.iter().position(|(bound, socket)| {
                    socket.kind == Some(kind) && bound.ip() == addr.ip()
                })
            })?
        })?;
    let (bound, socket) = inherited.swap_remove(position);
    Some((bound, socket.listener))
}

/// A tokio listener from a std one (inherited or cloned), made non-blocking.
fn from_std(listener: std::net::TcpListener, addr: SocketAddr) -> Result<TcpListener, ServerError> {
    let bind_error = |source| ServerError::Bind { addr, source };
    listener.set_nonblocking(true).map_err(bind_error)?;
    TcpListener::from_std(listener).map_err(bind_error)
}

/// Opens a listening socket with `SO_REUSEADDR` (and `SO_REUSEPORT` when asked) and the backlog.
fn listen(addr: SocketAddr, backlog: u32, reuse_port: bool) -> Result<TcpListener, ServerError> {
    let bind_error = |source| ServerError::Bind { addr, source };
    let domain = socket2::Domain::for_address(addr);
    let socket = socket2::Socket::new(domain, socket2::Type::STREAM, Some(socket2::Protocol::TCP))
        .map_err(bind_error)?;
    socket.set_reuse_address(true).map_err(bind_error)?;
    if reuse_port {
        socket.set_reuse_port(true).map_err(bind_error)?;
    }
    if addr.is_ipv6() {
        socket.set_only_v6(true).map_err(bind_error)?;
    }
    socket.set_nonblocking(true).map_err(bind_error)?;
    socket.bind(&addr.into()).map_err(bind_error)?;
    socket
        .listen(backlog.min(i32::MAX as u32) as i32)
        .map_err(bind_error)?;
    TcpListener::from_std(socket.into()).map_err(bind_error)
}
