//! What the lab's components are, as scenarios write them down: apps (the upstreams), gateways
//! (the peers in front of them) and their options, with the paths every component is started
//! with (`Env`). Plain data; `components` starts them and `configs` writes their configs.

use std::fmt;
use std::path::PathBuf;

/// Paths every component needs.
#[derive(Debug, Clone)]
pub struct Env {
    /// The repository root (holds `lab/apps`, `.venv`, `.venv-standard`).
    pub root: PathBuf,
    /// This run's temp dir: configs, sockets, logs.
    pub temp: PathBuf,
    pub weir: PathBuf,
    pub ceiling: PathBuf,
    /// The 651 KiB file of the static-file scenario.
    pub static_file: PathBuf,
}

impl Env {
    pub(crate) fn apps(&self) -> PathBuf {
        self.root.join("lab/apps")
    }

    pub(crate) fn venv(&self, venv: Venv) -> PathBuf {
        self.root.join(match venv {
            Venv::Plain => ".venv",
            Venv::Standard => ".venv-standard",
        })
    }

    /// A fresh path in the temp dir: `name-N.suffix`.
    pub(crate) fn path(&self, name: &str, suffix: &str) -> PathBuf {
        let mut index = 0;
        loop {
            let candidate = self.temp.join(format!("{name}-{index}.{suffix}"));
            if !candidate.exists() {
                return candidate;
            }
            index += 1;
        }
    }
}

/// Gunicorn workers and threads, as the studies name them (`w3t1`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Layout {
    pub workers: u32,
    pub threads: u32,
}

impl Layout {
    pub const DEFAULT: Layout = Layout {
        workers: 3,
        threads: 1,
    };
    pub const ALL: [Layout; 7] = [
        Layout::DEFAULT,
        Layout {
            workers: 1,
            threads: 0,
        },
        Layout {
            workers: 2,
            threads: 0,
        },
        Layout {
            workers: 1,
            threads: 1,
        },
        Layout {
            workers: 2,
            threads: 1,
        },
        Layout {
            workers: 1,
            threads: 2,
        },
        Layout {
            workers: 2,
            threads: 2,
        },
    ];

    pub fn parse(text: &str) -> Option<Layout> {
        let rest = text.strip_prefix('w')?;
        let (workers, threads) = rest.split_once('t')?;
        Some(Layout {
            workers: workers.parse().ok().filter(|workers| *workers > 0)?,
            threads: threads.parse().ok()?,
        })
    }
}

impl fmt::Display for Layout {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(formatter, "w{}t{}", self.workers, self.threads)
    }
}

/// Which Python install runs the app.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Venv {
    /// `pip install uvicorn`: asyncio and h11.
    Plain,
    /// `uvicorn[standard]`: uvloop and httptools.
    Standard,
}

impl fmt::Display for Venv {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str(match self {
            Venv::Plain => "plain",
            Venv::Standard => "standard",
        })
    }
}

/// httpx pool limits of the app's external client (study 003).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pool {
    pub max: u32,
    pub keepalive: u32,
}

/// What the static server answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CeilingBody {
    /// ~100 B of JSON.
    Small,
    /// The static-file scenario's file, held in memory.
    File,
}

/// An upstream the lab runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum App {
    /// lab/apps/fastapi_app.py under Gunicorn + UvicornWorker. When `pool` is set, the app's
    /// external endpoints call the group's `mock` app.
    FastApi {
        layout: Layout,
        venv: Venv,
        pool: Option<Pool>,
    },
    /// lab/apps/flask_app.py under Gunicorn sync workers.
    Flask { workers: u32 },
    /// lab/apps/mock_api.py, the external API of study 003 (TCP only).
    MockApi,
    /// The minimal hyper server (weir-lab-ceiling).
    Ceiling { status: u16, body: CeilingBody },
    /// nginx answering every request itself (`return 200` with the ceiling's ~100 B of JSON),
    /// a worker per core: the fast upstream with `--fast-upstream nginx`.
    NginxReturn,
    /// `redis-server` for the limiter's state (persistence off), on loopback and on the socket
    /// [`crate::components::redis_socket`], which gateways with `redis_limits` use. A group runs one at most.
    Redis,
}

/// An app and the id gateways use to name it within a group.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AppSpec {
    pub id: String,
    pub app: App,
}

/// A per-client rate limit: `rate` requests per second plus `burst`, rejected with 429 at once.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limit {
    pub rate_per_second: u32,
    pub burst: u32,
}

/// nginx settings the scenarios vary.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NginxOptions {
    /// `worker_processes auto` instead of the seed's 1.
    pub workers_auto: bool,
    pub worker_connections: u32,
    /// `keepalive N` in the upstream block; `None` leaves it out (no upstream keep-alive).
    pub keepalive: Option<u32>,
    pub limit: Option<Limit>,
    /// Serve the static-file scenario's file at /file with sendfile.
    pub static_file: bool,
    /// `client_header_timeout` and `client_body_timeout` in seconds, with
    /// `reset_timedout_connection on`: what an nginx user sets against slow clients.
    pub slow_client_timeout: Option<u32>,
    /// Listen with TLS and HTTP/2 (`listen ... ssl http2`) on the lab's certificate
    /// ([`crate::components::tls_certificate`]): ECDSA P-256, X25519, `ssl_session_cache`.
    pub tls: bool,
    /// `keepalive_requests` of client connections (the seed's 5000).
    pub keepalive_requests: u32,
    /// `keepalive_requests` of upstream connections; `None` leaves nginx's default (1000).
    pub upstream_keepalive_requests: Option<u32>,
    /// `listen ... reuseport`: a listening socket per worker, the kernel spreading connections.
    pub reuseport: bool,
}

impl NginxOptions {
    /// The seed's production config (study 001's, with `keepalive 8`).
    pub const SEED: NginxOptions = NginxOptions {
        workers_auto: false,
        worker_connections: 4096,
        keepalive: Some(8),
        limit: None,
        static_file: false,
        slow_client_timeout: None,
        tls: false,
        keepalive_requests: 5000,
        upstream_keepalive_requests: None,
        reuseport: false,
    };
    /// Tuned for floods: a worker per core, 8192 connections each.
    pub const FLOOD: NginxOptions = NginxOptions {
        workers_auto: true,
        worker_connections: 8192,
        ..NginxOptions::SEED
    };

    /// These options as a user tunes nginx for `clients` concurrent clients, on top of what the
    /// scenario asks for (limits, the static file, time-outs): a worker per core with a
    /// listening socket each (`reuseport`), upstream `keepalive` sized to the load when the
    /// scenario keeps upstream connections alive at all, and connections that are not closed
    /// after a few thousand requests.
    pub fn tuned(self, clients: u32) -> NginxOptions {
        NginxOptions {
            workers_auto: true,
            worker_connections: self.worker_connections.max(clients * 2 + 1024),
            keepalive: self.keepalive.map(|_| upstream_keepalive(clients)),
            keepalive_requests: TUNED_KEEPALIVE_REQUESTS,
            upstream_keepalive_requests: Some(TUNED_KEEPALIVE_REQUESTS),
            reuseport: true,
            ..self
        }
    }
}

/// `keepalive_requests` of a tuned nginx, client and upstream side: high enough that no
/// connection is closed for its count during a run.
pub const TUNED_KEEPALIVE_REQUESTS: u32 = 1_000_000;

/// Idle upstream connections a tuned nginx keeps per worker for `clients` concurrent clients:
/// half of them rounded up to a power of two, at least 8 (64 for 100 clients: 128 over the
/// two workers of this machine, so every client's request finds an idle connection).
pub fn upstream_keepalive(clients: u32) -> u32 {
    (clients / 2).next_power_of_two().max(8)
}

/// weir settings the scenarios vary.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WeirOptions {
    /// `max_idle` for the upstream; `None` leaves weir's default (as nginx and HAProxy run with
    /// their own settings: the seed's `keepalive 8`, `http-reuse always`).
    pub max_idle: Option<u32>,
    pub max_connections: u32,
    pub limit: Option<Limit>,
    /// Serve the static-file scenario's file itself (a `static` route) instead of proxying.
    pub static_file: bool,
    /// `header_timeout` and `body_timeout` in seconds (nginx `client_header_timeout` and
    /// `client_body_timeout`); `None` leaves the defaults.
    pub client_timeout: Option<u32>,
    /// The soak's extras: a `/limited` route at 20 r/s per client (its excess answered 429) and
    /// the admin listener, whose `/metrics` gives the pool counters.
    pub soak: bool,
    /// Listen with TLS (`[tls]`, HTTP/2 by ALPN) on the lab's certificate instead of plain HTTP.
    pub tls: bool,
    /// Keep `limit`'s state in the group's Redis (`App::Redis`, at [`crate::components::redis_socket`]) instead of
    /// in memory.
    pub redis_limits: bool,
}

impl WeirOptions {
    pub const SEED: WeirOptions = WeirOptions {
        max_idle: None,
        max_connections: 10_000,
        limit: None,
        static_file: false,
        client_timeout: None,
        soak: false,
        tls: false,
        redis_limits: false,
    };
}

/// HAProxy settings the scenarios vary. Every config is the one a user tuning HAProxy for the
/// lab's loads writes: a thread per core (`nbthread`, written out although 2.x defaults to it),
/// `maxconn` far above the load, and server connections shared between clients
/// (`http-reuse always`) and kept idle without a cap (HAProxy's default `pool-max-conn -1`, the
/// counterpart of nginx's upstream `keepalive`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HaproxyOptions {
    /// `http-reuse always` when true, `http-reuse never` when false.
    pub reuse: bool,
    pub maxconn: u32,
    pub limit: Option<Limit>,
    /// TLS terminated on the frontend's `bind` (`ssl crt` with the lab's certificate and key in
    /// one PEM, `alpn h2,http/1.1`, X25519, TLS 1.2 and 1.3, as nginx's and weir's).
    pub tls: bool,
}

impl HaproxyOptions {
    pub const DEFAULT: HaproxyOptions = HaproxyOptions {
        reuse: true,
        maxconn: 10_000,
        limit: None,
        tls: false,
    };
}

/// What stands between the load generator and the app.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Gateway {
    /// No proxy: the load generator talks to the app's TCP port.
    Direct,
    Nginx(NginxOptions),
    Haproxy(HaproxyOptions),
    /// lab/apps/pygateway.py (aiohttp, leaky bucket).
    Python {
        limit: Option<Limit>,
    },
    Weir(WeirOptions),
}

/// How a gateway reaches its app.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Transport {
    Unix,
    Tcp,
}

/// A gateway in a group: a label for the tables, what it is, and which app it fronts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GatewaySpec {
    pub label: String,
    pub gateway: Gateway,
    pub app: String,
    pub transport: Transport,
}

impl GatewaySpec {
    pub fn new(label: &str, gateway: Gateway, app: &str, transport: Transport) -> GatewaySpec {
        GatewaySpec {
            label: label.to_string(),
            gateway,
            app: app.to_string(),
            transport,
        }
    }
}
