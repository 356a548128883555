//! The things the lab starts: apps (the upstreams) and gateways (the peers in front of them), each
//! described by a spec and started into a temp dir with a generated config, on loopback or a Unix
//! socket.

use std::fmt;
use std::fs;
use std::net::SocketAddr;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use anyhow::{bail, Context};

use crate::process::{free_port, Addr, Component};

/// How long an app (Python imports and all) may take to listen.
const APP_START_TIMEOUT: Duration = Duration::from_secs(60);
/// How long a gateway may take to listen.
const GATEWAY_START_TIMEOUT: Duration = Duration::from_secs(20);

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
    fn apps(&self) -> PathBuf {
        self.root.join("lab/apps")
    }

    fn venv(&self, venv: Venv) -> PathBuf {
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
    /// [`redis_socket`], which gateways with `redis_limits` use. A group runs one at most.
    Redis,
}

/// The Unix socket of the group's Redis (`App::Redis`): one at a time, as groups run one after
/// another, so the gateway's config can name it before it starts.
pub fn redis_socket(env: &Env) -> PathBuf {
    env.temp.join("redis-limits.sock")
}

/// An app and the id gateways use to name it within a group.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AppSpec {
    pub id: String,
    pub app: App,
}

/// A started app: reachable on TCP and, except the mock API, on a Unix socket.
#[derive(Debug)]
pub struct RunningApp {
    pub spec: AppSpec,
    pub tcp: SocketAddr,
    pub unix: Option<PathBuf>,
    pub component: Component,
}

/// Starts `spec`; `mock` is the group's running mock API, if any.
pub fn start_app(
    env: &Env,
    spec: &AppSpec,
    mock: Option<&RunningApp>,
) -> anyhow::Result<RunningApp> {
    let tcp = free_port()?;
    let socket = env.path(&spec.id, "sock");
    let log = env.path(&spec.id, "log");
    let (name, command, unix) = match &spec.app {
        App::FastApi { layout, venv, pool } => {
            let mut command = Command::new(env.venv(*venv).join("bin/gunicorn"));
            command
                .args(["-k", "uvicorn.workers.UvicornWorker"])
                .arg("-w")
                .arg(layout.workers.to_string());
            // Gunicorn applies --threads to its gthread worker only; the layouts keep the
            // studies' names, and the flag is passed as they passed it.
            if layout.threads > 0 {
                command.arg("--threads").arg(layout.threads.to_string());
            }
            gunicorn_common(&mut command, env, &socket, tcp);
            if let Some(pool) = pool {
                let Some(mock) = mock else {
                    bail!("app {} has a pool but the group has no mock API", spec.id);
                };
                command
                    .env("LAB_EXTERNAL_URL", format!("http://{}/", mock.tcp))
                    .env("LAB_POOL_MAX", pool.max.to_string())
                    .env("LAB_POOL_KEEPALIVE", pool.keepalive.to_string());
            }
            command.arg("fastapi_app:app");
            (format!("fastapi {layout} ({venv})"), command, Some(socket))
        }
        App::Flask { workers } => {
            let mut command = Command::new(env.venv(Venv::Plain).join("bin/gunicorn"));
            command.arg("-w").arg(workers.to_string());
            gunicorn_common(&mut command, env, &socket, tcp);
            command
                .env("LAB_STATIC_FILE", &env.static_file)
                .arg("flask_app:app");
            (format!("flask w{workers}"), command, Some(socket))
        }
        App::MockApi => {
            let mut command = Command::new(env.venv(Venv::Plain).join("bin/python"));
            command
                .arg(env.apps().join("mock_api.py"))
                .arg("--port")
                .arg(tcp.port().to_string());
            ("mock API".to_string(), command, None)
        }
        App::Ceiling { status, body } => {
            let mut command = Command::new(&env.ceiling);
            command
                .arg("--tcp")
                .arg(tcp.to_string())
                .arg("--unix")
                .arg(&socket)
                .arg("--status")
                .arg(status.to_string());
            if *body == CeilingBody::File {
                command.arg("--body-file").arg(&env.static_file);
            }
            (format!("hyper static {status}"), command, Some(socket))
        }
        App::NginxReturn => {
            let prefix = env.path(&format!("{}-nginx", spec.id), "d");
            // Workers run as nobody when the lab runs as root: they must reach the socket's dir.
            fs::create_dir_all(&prefix)?;
            fs::set_permissions(&prefix, fs::Permissions::from_mode(0o777))?;
            let config_path = prefix.join("nginx.conf");
            fs::write(&config_path, nginx_return_config(&prefix, tcp, &socket))?;
            let mut command = Command::new(nginx_binary());
            command
                .arg("-p")
                .arg(&prefix)
                .arg("-e")
                .arg("stderr")
                .arg("-c")
                .arg(&config_path)
                .arg("-g")
                .arg("daemon off;");
            ("nginx return 200".to_string(), command, Some(socket))
        }
        App::Redis => {
            let socket = redis_socket(env);
            let dir = env.path("redis", "d");
            fs::create_dir_all(&dir)?;
            // A socket left by a Redis that was killed would make this one's bind fail.
            let _ = fs::remove_file(&socket);
            let mut command = Command::new("redis-server");
            command
                .arg("--port")
                .arg(tcp.port().to_string())
                .args(["--bind", "127.0.0.1"])
                .arg("--unixsocket")
                .arg(&socket)
                .args(["--unixsocketperm", "700"])
                .args(["--save", "", "--appendonly", "no", "--daemonize", "no"])
                .arg("--dir")
                .arg(&dir);
            ("redis".to_string(), command, Some(socket))
        }
    };
    let mut component = Component::spawn(&name, command, &log)?;
    component.wait_ready(&Addr::Tcp(tcp), APP_START_TIMEOUT)?;
    if let Some(path) = &unix {
        component.wait_ready(&Addr::Unix(path.clone()), APP_START_TIMEOUT)?;
    }
    Ok(RunningApp {
        spec: spec.clone(),
        tcp,
        unix,
        component,
    })
}

fn gunicorn_common(command: &mut Command, env: &Env, socket: &Path, tcp: SocketAddr) {
    command
        .arg("--chdir")
        .arg(env.apps())
        .arg("--bind")
        .arg(format!("unix:{}", socket.display()))
        .arg("--bind")
        .arg(tcp.to_string())
        // 60 s in Gunicorn and 65 s in the gateways, so the app times out first (study 000).
        .args([
            "--timeout",
            "60",
            "--graceful-timeout",
            "5",
            "--backlog",
            "2048",
        ])
        .args(["--log-level", "warning"]);
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
    /// ([`tls_certificate`]): ECDSA P-256, X25519, `ssl_session_cache`.
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

/// The cores this machine offers the lab (HAProxy's `nbthread`, nginx's `auto`).
pub fn cores() -> u32 {
    std::thread::available_parallelism().map_or(1, |cores| cores.get() as u32)
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
    /// Keep `limit`'s state in the group's Redis (`App::Redis`, at [`redis_socket`]) instead of
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
}

impl HaproxyOptions {
    pub const DEFAULT: HaproxyOptions = HaproxyOptions {
        reuse: true,
        maxconn: 10_000,
        limit: None,
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

/// A started gateway: the load generator's target.
#[derive(Debug)]
pub struct RunningGateway {
    pub spec: GatewaySpec,
    pub addr: SocketAddr,
    /// weir's admin listener, when its options ask for one.
    pub admin: Option<SocketAddr>,
    /// `None` for `Direct`.
    pub component: Option<Component>,
    /// How the reload scenario reloads it; `None` elsewhere.
    pub reload: Option<crate::reload::Reload>,
    /// Whether it speaks TLS: the load generator's URL is `https://`.
    pub tls: bool,
}

impl RunningGateway {
    /// The load generator's URL for `path`.
    pub fn url(&self, path: &str) -> String {
        let scheme = if self.tls { "https" } else { "http" };
        format!("{scheme}://{}{path}", self.addr)
    }
}

/// The lab's TLS certificate and key for `127.0.0.1` and `localhost` (ECDSA P-256, self-signed,
/// made with `openssl req` once per run), shared by every TLS gateway so they do the same
/// handshake work.
pub fn tls_certificate(env: &Env) -> anyhow::Result<(PathBuf, PathBuf)> {
    let cert = env.path("tls-cert", "pem");
    let key = env.path("tls-key", "pem");
    if cert.exists() && key.exists() {
        return Ok((cert, key));
    }
    let output = Command::new("openssl")
        .args([
            "req",
            "-x509",
            "-newkey",
            "ec",
            "-pkeyopt",
            "ec_paramgen_curve:P-256",
            "-nodes",
        ])
        .arg("-keyout")
        .arg(&key)
        .arg("-out")
        .arg(&cert)
        .args([
            "-days",
            "30",
            "-subj",
            "/CN=localhost",
            "-addext",
            "subjectAltName=IP:127.0.0.1,DNS:localhost",
        ])
        .output()
        .context("running openssl req to make the lab's certificate")?;
    if !output.status.success() {
        bail!(
            "openssl req failed: {}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
    // nginx's workers run as nobody when the lab runs as root.
    fs::set_permissions(&key, fs::Permissions::from_mode(0o644))?;
    Ok((cert, key))
}

/// Starts `spec` in front of `app`.
pub fn start_gateway(
    env: &Env,
    spec: &GatewaySpec,
    app: &RunningApp,
) -> anyhow::Result<RunningGateway> {
    if spec.gateway == Gateway::Direct {
        return Ok(RunningGateway {
            spec: spec.clone(),
            addr: app.tcp,
            admin: None,
            component: None,
            reload: None,
            tls: false,
        });
    }
    let upstream = match spec.transport {
        Transport::Tcp => Addr::Tcp(app.tcp),
        Transport::Unix => match &app.unix {
            Some(path) => Addr::Unix(path.clone()),
            None => bail!("app {} has no Unix socket", app.spec.id),
        },
    };
    let listen = free_port()?;
    let mut admin = None;
    let slug: String = spec
        .label
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    let log = env.path(&slug, "log");
    let (command, name) = match spec.gateway {
        Gateway::Direct => unreachable!("handled above"),
        Gateway::Nginx(options) => {
            let prefix = env.path(&format!("{slug}-nginx"), "d");
            // nginx's workers run as nobody when started by root without a `user` line, so the
            // dirs they write to must be open to it (the sockets and the file are 0777/0644).
            fs::create_dir_all(&prefix)?;
            fs::set_permissions(&prefix, fs::Permissions::from_mode(0o777))?;
            let mut config = nginx_config(env, &options, &prefix, listen, &upstream);
            if options.tls {
                let (cert, key) = tls_certificate(env)?;
                // `listen ADDR[ reuseport];` gains `ssl http2`, and the certificate lines follow.
                config = config.replacen(
                    &format!("    listen {listen}"),
                    &format!("    listen {listen} ssl http2"),
                    1,
                );
                config = config.replacen(
                    "    server_tokens off;\n",
                    &format!(
                        "    server_tokens off;\n    ssl_certificate {};\n    ssl_certificate_key {};\n    ssl_protocols TLSv1.2 TLSv1.3;\n    ssl_ecdh_curve X25519;\n    ssl_session_cache shared:SSL:10m;\n    ssl_session_tickets on;\n",
                        cert.display(),
                        key.display()
                    ),
                    1,
                );
            }
            let config_path = prefix.join("nginx.conf");
            fs::write(&config_path, config)?;
            let mut command = Command::new(nginx_binary());
            command
                .arg("-p")
                .arg(&prefix)
                .arg("-e")
                .arg("stderr")
                .arg("-c")
                .arg(&config_path)
                .arg("-g")
                .arg("daemon off;");
            (command, "nginx")
        }
        Gateway::Haproxy(options) => {
            let config_path = env.path(&format!("{slug}-haproxy"), "cfg");
            fs::write(&config_path, haproxy_config(&options, listen, &upstream))?;
            let mut command = Command::new(haproxy_binary());
            command.arg("-f").arg(&config_path).arg("-db");
            (command, "haproxy")
        }
        Gateway::Python { limit } => {
            let mut command = Command::new(env.venv(Venv::Plain).join("bin/python"));
            command
                .arg(env.apps().join("pygateway.py"))
                .arg("--port")
                .arg(listen.port().to_string())
                .arg("--upstream")
                .arg(upstream.to_string());
            if let Some(limit) = limit {
                command
                    .arg("--rate")
                    .arg(limit.rate_per_second.to_string())
                    .arg("--burst")
                    .arg(limit.burst.to_string());
            }
            (command, "python gateway")
        }
        Gateway::Weir(options) => {
            let config_path = env.path(&format!("{slug}-weir"), "toml");
            let static_dir = if options.static_file {
                env.static_file.parent()
            } else {
                None
            };
            if options.soak {
                admin = Some(free_port()?);
            }
            let redis = options.redis_limits.then(|| redis_socket(env));
            let mut config = weir_config(
                &options,
                listen,
                &upstream,
                static_dir,
                admin,
                redis.as_deref(),
            );
            if options.tls {
                // The plain listener moves to a port of its own; `listen` speaks TLS.
                let (cert, key) = tls_certificate(env)?;
                let plain = free_port()?;
                config = config.replacen(
                    &format!("listen = [\"{listen}\"]"),
                    &format!("listen = [\"{plain}\"]"),
                    1,
                );
                config.push_str(&format!(
                    "
[tls]
listen = [\"{listen}\"]

[[tls.certificates]]
cert = \"{}\"
key = \"{}\"
",
                    cert.display(),
                    key.display()
                ));
            }
            fs::write(&config_path, config)?;
            let mut command = Command::new(&env.weir);
            command.arg("run").arg("--config").arg(&config_path);
            (command, "weir")
        }
    };
    let mut component = Component::spawn(&format!("{name} ({})", spec.label), command, &log)?;
    component.wait_ready(&Addr::Tcp(listen), GATEWAY_START_TIMEOUT)?;
    Ok(RunningGateway {
        spec: spec.clone(),
        addr: listen,
        admin,
        component: Some(component),
        reload: None,
        tls: matches!(
            spec.gateway,
            Gateway::Nginx(NginxOptions { tls: true, .. })
                | Gateway::Weir(WeirOptions { tls: true, .. })
        ),
    })
}

pub fn nginx_binary() -> PathBuf {
    sbin("nginx")
}

pub fn haproxy_binary() -> PathBuf {
    sbin("haproxy")
}

/// Debian puts nginx and haproxy in /usr/sbin, which a non-login PATH may lack.
fn sbin(name: &str) -> PathBuf {
    let usual = Path::new("/usr/sbin").join(name);
    if usual.exists() {
        usual
    } else {
        PathBuf::from(name)
    }
}

/// The seed's production config, with the lab's listen address, upstream and temp paths.
pub fn nginx_config(
    env: &Env,
    options: &NginxOptions,
    prefix: &Path,
    listen: SocketAddr,
    upstream: &Addr,
) -> String {
    let prefix = prefix.display();
    let workers = if options.workers_auto { "auto" } else { "1" };
    let accept_mutex = if options.workers_auto { "on" } else { "off" };
    let server = match upstream {
        Addr::Tcp(addr) => addr.to_string(),
        Addr::Unix(path) => format!("unix:{}", path.display()),
    };
    let keepalive = options
        .keepalive
        .map(|connections| {
            let requests = options
                .upstream_keepalive_requests
                .map(|requests| format!("    keepalive_requests {requests};\n"))
                .unwrap_or_default();
            format!("    keepalive {connections};\n{requests}")
        })
        .unwrap_or_default();
    let reuseport = if options.reuseport { " reuseport" } else { "" };
    let (zone, limit) = match options.limit {
        Some(limit) => (
            format!(
                "  limit_req_zone $binary_remote_addr zone=lab:10m rate={}r/s;\n  limit_req_status 429;\n",
                limit.rate_per_second
            ),
            // nginx rejects `burst=0`; leaving it out means no burst.
            if limit.burst == 0 {
                "      limit_req zone=lab nodelay;\n".to_string()
            } else {
                format!("      limit_req zone=lab burst={} nodelay;\n", limit.burst)
            },
        ),
        None => (String::new(), String::new()),
    };
    let static_location = if options.static_file {
        format!(
            "    location = /file {{\n      alias {};\n      sendfile on;\n      tcp_nopush on;\n    }}\n",
            env.static_file.display()
        )
    } else {
        String::new()
    };
    let slow = options.slow_client_timeout.map_or_else(String::new, |seconds| {
        format!(
            "  client_header_timeout {seconds}s;\n  client_body_timeout {seconds}s;\n  reset_timedout_connection on;\n"
        )
    });
    let mime = if Path::new("/etc/nginx/mime.types").exists() {
        "  include /etc/nginx/mime.types;\n"
    } else {
        ""
    };
    format!(
        "# Generated by weir-lab from the seed's production config (study 000/001).
worker_processes {workers};
pid {prefix}/nginx.pid;
error_log stderr;
events {{
  worker_connections {worker_connections};
  accept_mutex {accept_mutex};
  use epoll;
}}
http {{
{mime}  default_type application/octet-stream;
  tcp_nodelay on;
  access_log off;
{slow}
  client_body_temp_path {prefix}/client_body;
  proxy_temp_path {prefix}/proxy;
  fastcgi_temp_path {prefix}/fastcgi;
  uwsgi_temp_path {prefix}/uwsgi;
  scgi_temp_path {prefix}/scgi;
{zone}  upstream gunicorn {{
    server {server} fail_timeout=0;
{keepalive}  }}
  server {{
    listen {listen}{reuseport};
    server_tokens off;
    client_max_body_size 20M;
    gzip on;
    gzip_proxied any;
    gzip_disable \"msie6\";
    gzip_comp_level 6;
    gzip_min_length 200;
{static_location}    location / {{
{limit}      proxy_pass http://gunicorn;
      proxy_set_header Host $host;
      proxy_set_header X-Real-IP $remote_addr;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $http_x_forwarded_proto;
      proxy_pass_header Server;
      proxy_ignore_client_abort on;
      proxy_connect_timeout 65s;
      proxy_read_timeout 65s;
      proxy_send_timeout 65s;
      proxy_redirect off;
      proxy_http_version 1.1;
      proxy_set_header Connection \"\";
      proxy_buffering off;
    }}
    keepalive_requests {keepalive_requests};
    keepalive_timeout 120;
    set_real_ip_from 10.0.0.0/8;
    set_real_ip_from 172.16.0.0/12;
    set_real_ip_from 192.168.0.0/16;
    real_ip_header X-Forwarded-For;
    real_ip_recursive on;
  }}
}}
",
        worker_connections = options.worker_connections,
        keepalive_requests = options.keepalive_requests,
    )
}

/// The body every fast upstream answers: the ceiling's ~100 bytes of JSON.
pub const SMALL_JSON: &str = r#"{"message":"hello from the weir lab","items":[1,2,3,4,5],"ok":true,"pad":"abcdefghijklmnop"}"#;

/// nginx as an upstream that answers by itself, on loopback and on a Unix socket.
pub fn nginx_return_config(prefix: &Path, tcp: SocketAddr, socket: &Path) -> String {
    let prefix = prefix.display();
    let socket = socket.display();
    format!(
        "# Generated by weir-lab: the fast upstream as nginx `return 200`.
worker_processes auto;
pid {prefix}/nginx.pid;
error_log stderr;
events {{
  worker_connections 16384;
}}
http {{
  access_log off;
  client_body_temp_path {prefix}/client_body;
  proxy_temp_path {prefix}/proxy;
  fastcgi_temp_path {prefix}/fastcgi;
  uwsgi_temp_path {prefix}/uwsgi;
  scgi_temp_path {prefix}/scgi;
  keepalive_requests {TUNED_KEEPALIVE_REQUESTS};
  keepalive_timeout 120;
  server {{
    listen {tcp};
    listen unix:{socket};
    server_tokens off;
    location / {{
      default_type application/json;
      return 200 '{SMALL_JSON}';
    }}
  }}
}}
"
    )
}

/// HAProxy in front of one server, with connection reuse and the seed's timeouts.
pub fn haproxy_config(options: &HaproxyOptions, listen: SocketAddr, upstream: &Addr) -> String {
    let server = match upstream {
        Addr::Tcp(addr) => addr.to_string(),
        Addr::Unix(path) => format!("unix@{}", path.display()),
    };
    let reuse = if options.reuse { "always" } else { "never" };
    // HAProxy has no leaky bucket; a per-address request rate over one second in a stick table,
    // denied with 429 past rate + burst, is its usual equivalent. It counts rejected requests
    // too, so under a flood it rejects nearly everything.
    let limit = match options.limit {
        Some(limit) => format!(
            "  stick-table type ip size 100k expire 30s store http_req_rate(1s)\n  http-request track-sc0 src\n  http-request deny deny_status 429 if {{ sc_http_req_rate(0) gt {} }}\n",
            limit.rate_per_second + limit.burst
        ),
        None => String::new(),
    };
    format!(
        "# Generated by weir-lab.
global
  maxconn {maxconn}
  nbthread {threads}
  # Idle client connections hold no server connection, so HAProxy's estimate of two descriptors
  # per connection is pessimistic; a warning rather than a refusal when the limit is lower.
  no strict-limits
defaults
  mode http
  timeout connect 65s
  timeout client 120s
  timeout server 65s
  timeout http-keep-alive 120s
  option forwardfor
  http-reuse {reuse}
frontend lab
  bind {listen}
{limit}  default_backend app
backend app
  server app {server} maxconn 10000
",
        maxconn = options.maxconn,
        threads = cores(),
    )
}

/// weir with the seed's settings translated (see crates/weir/src/config.rs for the keys);
/// `redis` is the socket of the Redis that keeps the limit's state, if any.
pub fn weir_config(
    options: &WeirOptions,
    listen: SocketAddr,
    upstream: &Addr,
    static_dir: Option<&Path>,
    admin: Option<SocketAddr>,
    redis: Option<&Path>,
) -> String {
    let backend = redis.map_or_else(String::new, |socket| {
        format!(
            "backend = \"redis\"\nredis = \"unix://{}\"\n",
            socket.display()
        )
    });
    let (limits, route_limits) = match options.limit {
        Some(limit) => (
            format!(
                "\n[limits.lab]\nkey = \"client_ip\"\nrate = \"{}r/s\"\nburst = {}\nnodelay = true\n{backend}",
                limit.rate_per_second, limit.burst
            ),
            "limits = [\"lab\"]\n".to_string(),
        ),
        None => (String::new(), String::new()),
    };
    // A static route serves the directory at "/" (GET /file -> DIR/file); otherwise all goes to
    // the app.
    let route = match static_dir {
        Some(dir) => format!("[[routes]]\npath = \"/\"\nstatic = \"{}\"\n", dir.display()),
        // As the seed's nginx (`proxy_buffering off`): responses stream at the client's pace.
        None => {
            "[[routes]]\npath = \"/\"\nupstream = \"app\"\nresponse_buffering = false\n".to_string()
        }
    };
    let header_timeout = options.client_timeout.map_or_else(String::new, |seconds| {
        format!("header_timeout = \"{seconds}s\"\nbody_timeout = \"{seconds}s\"\n")
    });
    let soak = match admin {
        Some(admin) if options.soak => format!(
            "\n[limits.soak]\nkey = \"client_ip\"\nrate = \"20r/s\"\nnodelay = true\n\n\
             [[routes]]\npath = \"/limited\"\nupstream = \"app\"\nlimits = [\"soak\"]\n\n\
             [admin]\nlisten = \"{admin}\"\n"
        ),
        _ => String::new(),
    };
    format!(
        "# Generated by weir-lab.
[server]
listen = [\"{listen}\"]
{header_timeout}max_connections = {max_connections}
max_body_size = \"20MiB\"
keepalive_timeout = \"120s\"
keepalive_requests = 5000

[upstreams.app]
servers = [\"{upstream}\"]
{max_idle}connect_timeout = \"65s\"
read_timeout = \"65s\"
send_timeout = \"65s\"

{route}{route_limits}{limits}{soak}",
        max_connections = options.max_connections,
        max_idle = options
            .max_idle
            .map_or_else(String::new, |max_idle| format!("max_idle = {max_idle}\n")),
    )
}

/// Writes the static-file scenario's file: 651 KiB of XML-like text, the size of study 002's
/// payload, made here from a fixed pseudo-random sequence so every run serves the same bytes.
pub fn write_static_file(path: &Path) -> anyhow::Result<()> {
    const SIZE: usize = 651 * 1024;
    let mut state: u64 = 0x2545_f491_4f6c_dd1d;
    let mut text = String::with_capacity(SIZE + 64);
    text.push_str("<?xml version=\"1.0\"?>\n<records>\n");
    while text.len() < SIZE {
        // xorshift64: cheap, deterministic, no dependency.
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        text.push_str(&format!(
            "  <record id=\"{}\" value=\"{:x}\">{}</record>\n",
            state % 100_000,
            state,
            state % 7919
        ));
    }
    text.truncate(SIZE);
    fs::write(path, text).with_context(|| format!("writing {}", path.display()))
}

#[cfg(test)]
mod tests;
