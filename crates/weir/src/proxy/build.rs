//! Building the proxy from a config: routes, upstream pools, limiters, spool, access log and
//! metrics, at start and on every reload (keeping what did not change), and the task that
//! reclaims the memory of idle rate-limit keys.

use std::sync::Arc;
use std::time::Duration;

use http::HeaderValue;

use super::limits::{RouteConnLimits, RouteLimits};
use super::logging::Logging;
use super::response::Outgoing;
use super::{Fallback, Proxy, Route, Target};
use crate::access_log::AccessLog;
use crate::buffering::{self, Buffers};
use crate::config::Config;
use crate::metrics::Metrics;
use crate::ratelimit::{ConnLimit, Limiter};
use crate::realip::RealIp;
use crate::routing::Router;
use crate::static_files::StaticDir;
use crate::upstream::Upstream;

/// What can keep a proxy from being built: something the config names that cannot be opened.
#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    #[error("cannot open the access log: {0}")]
    AccessLog(std::io::Error),
    #[error("{0}")]
    Limit(crate::ratelimit::LimitError),
    #[error("cannot spool request bodies in {path}: {source}")]
    Spool {
        path: std::path::PathBuf,
        source: std::io::Error,
    },
    #[error("cannot read the error page {path}: {source}")]
    ErrorPage {
        path: std::path::PathBuf,
        source: std::io::Error,
    },
    #[error("{message}")]
    UserFile { message: String },
    #[error("cannot serve static files from {path}: {source}")]
    Static {
        path: std::path::PathBuf,
        source: std::io::Error,
    },
}

impl Proxy {
    /// Builds the routes, upstream pools and limiters. Must run inside a tokio runtime.
    /// `thread_affine`: one runtime per core shares this proxy (see
    /// [`crate::upstream::PoolSettings::thread_affine`]).
    pub fn new(config: &Config, thread_affine: bool) -> Result<Proxy, BuildError> {
        Proxy::build(config, thread_affine, None)
    }

    /// The proxy of a reloaded `config`, keeping what did not change from `old`: an upstream
    /// whose table is the same keeps its pools (no reconnect storm; one whose table changed hands
    /// them on: [`Upstream::replacing`]), a limit whose table is the
    /// same keeps its state (a client over its limit stays over it), and the access log and
    /// metrics are kept when their settings and routes are the same.
    pub fn reload(config: &Config, old: &Proxy) -> Result<Proxy, BuildError> {
        Proxy::build(config, old.thread_affine, Some(old))
    }

    fn build(
        config: &Config,
        thread_affine: bool,
        old: Option<&Proxy>,
    ) -> Result<Proxy, BuildError> {
        let upstreams: Vec<Arc<Upstream>> = config
            .upstreams
            .iter()
            .map(|(name, upstream)| {
                old.filter(|old| old.config.upstreams.get(name) == Some(upstream))
                    .and_then(|old| old.upstreams.iter().find(|u| u.name() == name))
                    .map_or_else(
                        || {
                            // A changed table: the group of the same name hands on its servers'
                            // pools (kept, or counted by the new ones until their places free).
                            let replaced =
                                old.and_then(|old| old.upstreams.iter().find(|u| u.name() == name));
                            Arc::new(match replaced {
                                Some(replaced) => {
                                    Upstream::replacing(name, upstream, thread_affine, replaced)
                                }
                                None => Upstream::new(name, upstream, thread_affine),
                            })
                        },
                        |kept| {
                            // A reload resolves host names again, as nginx does on reload.
                            kept.refresh();
                            Arc::clone(kept)
                        },
                    )
            })
            .collect();
        let mut fresh = Vec::new();
        let mut limiters: Vec<Arc<Limiter>> = Vec::with_capacity(config.limits.len());
        for (name, limit) in &config.limits {
            let kept = old
                .filter(|old| old.config.limits.get(name) == Some(limit))
                .and_then(|old| old.limiters.iter().find(|l| l.name() == name));
            match kept {
                Some(limiter) => limiters.push(Arc::clone(limiter)),
                None => {
                    let limiter =
                        Arc::new(Limiter::new(name, &limit.limiter).map_err(BuildError::Limit)?);
                    fresh.push(Arc::downgrade(&limiter));
                    limiters.push(limiter);
                }
            }
        }
        // A connection limit is kept by a reload that leaves it unchanged, with the places of the
        // requests in flight; a changed one starts empty (the places of the old one's requests
        // go back to it as they end).
        let conn_limits: Vec<Arc<ConnLimit>> = config
            .connection_limits
            .iter()
            .map(|(name, limit)| {
                old.filter(|old| old.config.connection_limits.get(name) == Some(limit))
                    .and_then(|old| old.conn_limits.iter().find(|l| l.name() == name))
                    .map_or_else(|| Arc::new(ConnLimit::new(name, limit.limiter)), Arc::clone)
            })
            .collect();
        // Kept limiters already have their reclaim task.
        if !fresh.is_empty() {
            tokio::spawn(reclaim_idle_keys(fresh));
        }
        let mut routes = Vec::with_capacity(config.routes.len());
        // One store for every route with `cache`, within `cache_size`.
        let cache = config
            .routes
            .iter()
            .any(|route| route.cache.is_some())
            .then(|| {
                Arc::new(crate::cache::Cache::new(
                    config.server.cache_size,
                    config.server.cache_max_answer,
                ))
            });
        for (index, route) in config.routes.iter().enumerate() {
            // A route whose `static` is a file serves that file for its own path (nginx's
            // `location = /favicon.ico { alias /srv/static/favicon.ico; }`).
            let mut static_file = None;
            let target = match (&route.static_root, &route.answer) {
                (None, Some(answer)) => Target::Answer(crate::answer::Answer::new(
                    answer,
                    route.host.as_deref(),
                    route.scope.regex.as_ref(),
                )),
                (Some(root), _) if route.scope.regex.is_none() && root.is_file() => {
                    let (dir, name) =
                        StaticDir::one_file(root).map_err(|source| BuildError::Static {
                            path: root.clone(),
                            source,
                        })?;
                    static_file = Some(name);
                    Target::Static(dir)
                }
                (Some(root), _) => {
                    Target::Static(StaticDir::new(root).map_err(|source| BuildError::Static {
                        path: root.clone(),
                        source,
                    })?)
                }
                (None, None) => {
                    // Validation guarantees every route names a defined upstream.
                    let Some(upstream) = upstreams.iter().find(|u| u.name() == route.upstream)
                    else {
                        continue;
                    };
                    Target::Upstream(Arc::clone(upstream))
                }
            };
            let limits = if route.limits.is_empty() {
                None
            } else {
                let chosen = route
                    .limits
                    .iter()
                    .filter_map(|name| {
                        let limiter = limiters.iter().find(|l| l.name() == name)?;
                        Some((Arc::clone(limiter), config.limits.get(name)?))
                    })
                    .collect();
                Some(RouteLimits::new(chosen))
            };
            let conn_limits = (!route.connection_limits.is_empty()).then(|| {
                RouteConnLimits::new(
                    route
                        .connection_limits
                        .iter()
                        .filter_map(|name| {
                            let limit = conn_limits.iter().find(|l| l.name() == name)?;
                            Some((Arc::clone(limit), config.connection_limits.get(name)?))
                        })
                        .collect(),
                )
            });
            let fallback = match &route.rules.fallback {
                None => None,
                Some(crate::config::StaticFallback::File(file)) => {
                    Some(Fallback::File(file.clone()))
                }
                // Validation guarantees the fallback names a defined upstream.
                Some(crate::config::StaticFallback::Upstream(name)) => upstreams
                    .iter()
                    .find(|u| u.name() == name)
                    .map(|upstream| Fallback::Upstream(Arc::clone(upstream))),
            };
            routes.push(crate::routing::Entry {
                host: route.host.clone(),
                listeners: route.scope.listeners.clone(),
                path: route.path_match(),
                internal: route.scope.internal,
                // nginx's `auto_redirect`: a proxied location whose name ends with a slash
                // answers that name without it with a 301.
                slash_redirect: matches!(target, Target::Upstream(_))
                    && route.scope.regex.is_none()
                    && route.path.len() > 1
                    && route.path.ends_with('/'),
                target: Route {
                    index,
                    target,
                    // A regex route strips nothing: a static one serves the whole path below
                    // its directory, as nginx `root`.
                    prefix_len: if route.scope.regex.is_some() {
                        0
                    } else {
                        route.path.len()
                    },
                    upstream_path: route.upstream_path.as_deref().map(Box::from),
                    static_file,
                    limits,
                    conn_limits,
                    request_buffering: route.request_buffering,
                    response_buffering: route.response_buffering,
                    dotfiles: route.rules.dotfiles,
                    read_timeout: route.read_timeout,
                    cache: route
                        .cache
                        .as_ref()
                        .zip(cache.as_ref())
                        .map(|(kept, cache)| {
                            Box::new(super::RouteCache {
                                cache: Arc::clone(cache),
                                times: crate::cache::Times {
                                    valid: kept.valid,
                                    stale: kept.stale,
                                },
                                statuses: kept.statuses.clone().into_boxed_slice(),
                                background_update: kept.background_update,
                                pass_cookies: kept.pass_cookies.as_ref().map(|names| {
                                    names.iter().map(|name| name.as_str().into()).collect()
                                }),
                            })
                        }),
                    try_suffixes: route
                        .rules
                        .try_suffixes
                        .iter()
                        .map(|suffix| suffix.as_str().into())
                        .collect(),
                    fallback,
                    priority: route.priority,
                    priority_header: route.priority_header.clone(),
                    methods: route.methods.as_ref().map(|methods| {
                        let allow: Vec<&str> = methods.iter().map(http::Method::as_str).collect();
                        Box::new((methods.clone(), Arc::from(allow.join(", "))))
                    }),
                    answer_options: route.rules.answer_options.clone().map(Box::new),
                },
            });
        }
        // One spool cap and read-ahead budget for the gateway's life: changed spool settings
        // make new buffers over the old ones' accounts (see `Buffers::reload`).
        let spool_dir = config.server.spool_dir.as_deref();
        let max_spool_size = config.server.max_spool_size;
        let max_body_memory = config.server.max_body_memory;
        let buffers = match old {
            Some(old)
                if old.config.server.spool_dir == config.server.spool_dir
                    && old.config.server.max_spool_size == max_spool_size
                    && old.config.server.max_body_memory == max_body_memory =>
            {
                Ok(Arc::clone(&old.buffers))
            }
            Some(old) => old
                .buffers
                .reload(spool_dir, max_spool_size, max_body_memory)
                .map(Arc::new),
            None => Buffers::new(spool_dir, max_spool_size, max_body_memory).map(Arc::new),
        }
        .map_err(|source| BuildError::Spool {
            path: config
                .server
                .spool_dir
                .clone()
                .unwrap_or_else(buffering::default_spool_dir),
            source,
        })?;
        let kept_log = old
            .filter(|old| old.config.access_log == config.access_log)
            .and_then(|old| old.logging.access_log.clone());
        let access_log = match kept_log {
            Some(access_log) => Some(access_log),
            None if config.access_log.enabled => Some(Arc::new(
                AccessLog::open(&config.access_log).map_err(BuildError::AccessLog)?,
            )),
            None => None,
        };
        let route_labels: Vec<String> = config
            .routes
            .iter()
            .map(|route| format!("{}{}", route.host.as_deref().unwrap_or(""), route.path))
            .collect();
        let metrics = old
            .filter(|old| old.logging.metrics.routes() == route_labels.as_slice())
            .map_or_else(
                || Arc::new(Metrics::new(route_labels)),
                |old| Arc::clone(&old.logging.metrics),
            );
        let rules = super::rules::Rules::new(config).map_err(|error| match error {
            super::rules::RulesError::Page(path, source) => BuildError::ErrorPage { path, source },
            super::rules::RulesError::UserFile(path, error) => BuildError::UserFile {
                message: error.naming(&path),
            },
        })?;
        // The password files are read again when they change, as long as this proxy holds them.
        if !rules.user_files.is_empty() {
            tokio::spawn(super::auth::watch(rules.user_files.clone()));
        }
        Ok(Proxy {
            me: std::sync::Weak::new(),
            router: Router::new(routes),
            upstreams,
            limiters,
            conn_limits,
            max_body_size: config.server.max_body_size,
            buffers,
            body_timeout: config.server.body_timeout,
            underscores_in_headers: config.server.underscores_in_headers,
            logging: Logging {
                metrics,
                access_log,
            },
            real_ip: RealIp::from_config(&config.server),
            outgoing: Outgoing {
                compression: config.compression.clone(),
                server_header: config
                    .server
                    .server_header
                    .as_deref()
                    .and_then(|value| HeaderValue::from_str(value).ok()),
                hsts: config
                    .tls
                    .as_ref()
                    .and_then(|tls| tls.hsts.as_deref())
                    .and_then(|value| HeaderValue::from_str(value).ok()),
            },
            closing: old.map_or_else(
                || Arc::new(tokio::sync::watch::Sender::new(false)),
                |old| Arc::clone(&old.closing),
            ),
            thread_affine,
            redirect_http: config
                .tls
                .as_ref()
                .filter(|tls| tls.redirect_http)
                .and_then(|tls| tls.listen.first())
                .map(std::net::SocketAddr::port),
            accel_redirect: config.routes.iter().any(|route| route.scope.internal),
            cache,
            limit_rates: if config.routes.iter().any(|route| route.limit_rate.is_some()) {
                config.routes.iter().map(|route| route.limit_rate).collect()
            } else {
                Box::default()
            },
            config: config.clone(),
            rules,
        })
    }
}

/// Every minute, gives the memory of keys idle long enough to be at full quota back, as nginx
/// frees idle `limit_req` nodes; stops when the gateway is gone.
async fn reclaim_idle_keys(limiters: Vec<std::sync::Weak<Limiter>>) {
    loop {
        tokio::time::sleep(Duration::from_secs(60)).await;
        let mut alive = false;
        for limiter in limiters.iter().filter_map(std::sync::Weak::upgrade) {
            alive = true;
            limiter.reclaim_idle();
        }
        if !alive {
            return;
        }
    }
}
