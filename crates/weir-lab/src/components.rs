//! The things the lab starts: apps (the upstreams) and gateways (the peers in front of them), each
//! from its spec (`spec`), with a generated config (`configs`) in the run's temp dir, on loopback or
//! a Unix socket, as a supervised process (`process::Component`). nginx and redis-server are run
//! from weir-testkit's command lines, the same the tests run. A gateway started to be reloaded
//! carries its [`Reload`] handle.

use std::fs;
use std::net::SocketAddr;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use anyhow::{bail, Context};

use crate::configs::{
    haproxy_config, haproxy_tls_config, haproxy_version_config, nginx_config, nginx_return_config,
    nginx_version_config, weir_config, weir_version_config,
};
use crate::process::{free_port, Addr, Component};
use crate::reload::{self, Method, Reload, Version};
use crate::spec::{
    App, AppSpec, CeilingBody, Env, Gateway, GatewaySpec, HaproxyOptions, NginxOptions, Transport,
    Venv, WeirOptions,
};

/// How long an app (Python imports and all) may take to listen.
const APP_START_TIMEOUT: Duration = Duration::from_secs(60);
/// How long a gateway may take to listen.
const GATEWAY_START_TIMEOUT: Duration = Duration::from_secs(20);

/// The Unix socket of the group's Redis (`App::Redis`): one at a time, as groups run one after
/// another, so the gateway's config can name it before it starts.
pub fn redis_socket(env: &Env) -> PathBuf {
    env.temp.join("redis-limits.sock")
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
            let command = weir_testkit::nginx::command(&prefix, &config_path);
            ("nginx return 200".to_string(), command, Some(socket))
        }
        App::Redis => {
            let socket = redis_socket(env);
            let dir = env.path("redis", "d");
            fs::create_dir_all(&dir)?;
            // A socket left by a Redis that was killed would make this one's bind fail.
            let _ = fs::remove_file(&socket);
            let command = weir_testkit::redis::command(tcp.port(), &socket, &dir);
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
    pub reload: Option<Reload>,
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

/// [`tls_certificate`]'s certificate and key concatenated in one PEM, the file HAProxy's `crt`
/// reads.
pub fn tls_bundle(env: &Env) -> anyhow::Result<PathBuf> {
    let (cert, key) = tls_certificate(env)?;
    let bundle = env.path("tls-bundle", "pem");
    let mut text =
        fs::read_to_string(&cert).with_context(|| format!("reading {}", cert.display()))?;
    if !text.ends_with('\n') {
        text.push('\n');
    }
    text.push_str(&fs::read_to_string(&key).with_context(|| format!("reading {}", key.display()))?);
    fs::write(&bundle, text).with_context(|| format!("writing {}", bundle.display()))?;
    Ok(bundle)
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
            (weir_testkit::nginx::command(&prefix, &config_path), "nginx")
        }
        Gateway::Haproxy(options) => {
            let config_path = env.path(&format!("{slug}-haproxy"), "cfg");
            let mut config = haproxy_config(&options, listen, &upstream);
            if options.tls {
                config = haproxy_tls_config(&config, listen, &tls_bundle(env)?)?;
            }
            fs::write(&config_path, config)?;
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
                | Gateway::Haproxy(HaproxyOptions { tls: true, .. })
                | Gateway::Weir(WeirOptions { tls: true, .. })
        ),
    })
}

/// Starts `spec` in front of `app` to be reloaded (the reload measurement): its config's version A
/// written to a file of its own and loaded, and the [`Reload`] that switches it to the other.
pub fn start_reloadable_gateway(
    env: &Env,
    spec: &GatewaySpec,
    app: &RunningApp,
) -> anyhow::Result<RunningGateway> {
    let upstream = match spec.transport {
        Transport::Tcp => Addr::Tcp(app.tcp),
        Transport::Unix => match &app.unix {
            Some(path) => Addr::Unix(path.clone()),
            None => bail!("app {} has no Unix socket", app.spec.id),
        },
    };
    let listen = free_port()?;
    let slug: String = spec
        .label
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    // One directory per gateway: configs, pid file, sockets. Open to nginx's workers (nobody).
    let dir = env.path(&format!("{slug}-reload"), "d");
    fs::create_dir_all(&dir)?;
    fs::set_permissions(&dir, fs::Permissions::from_mode(0o777))?;
    let log = env.path(&slug, "log");
    let (command, name, reload) = match spec.gateway {
        Gateway::Nginx(options) => {
            let config = dir.join("nginx.conf");
            let texts = [Version::A, Version::B].map(|version| {
                nginx_version_config(env, &options, &dir, listen, &upstream, version)
            });
            let [a, b] = texts;
            let texts = [a?, b?];
            fs::write(&config, &texts[0])?;
            let command = weir_testkit::nginx::command(&dir, &config);
            let method = Method::Nginx {
                prefix: dir.clone(),
            };
            (command, "nginx", (method, config, texts))
        }
        Gateway::Haproxy(options) => {
            let config = dir.join("haproxy.cfg");
            let stats = dir.join("stats.sock");
            let master = dir.join("master.sock");
            let texts = [Version::A, Version::B].map(|version| {
                haproxy_version_config(&options, listen, &upstream, &stats, version)
            });
            let [a, b] = texts;
            let texts = [a?, b?];
            fs::write(&config, &texts[0])?;
            let mut command = Command::new(haproxy_binary());
            command
                .arg("-W")
                .arg("-db")
                .arg("-S")
                .arg(&master)
                .arg("-f")
                .arg(&config);
            let method = Method::Haproxy {
                master_socket: master,
            };
            (command, "haproxy", (method, config, texts))
        }
        Gateway::Weir(options) => {
            let config = dir.join("weir.toml");
            let pid_file = dir.join("weir.pid");
            reload::write_version_dirs(&dir)?;
            let texts = [Version::A, Version::B].map(|version| {
                weir_version_config(&options, listen, &upstream, &pid_file, &dir, version)
            });
            let [a, b] = texts;
            let texts = [a?, b?];
            fs::write(&config, &texts[0])?;
            let mut command = Command::new(&env.weir);
            command.arg("run").arg("--config").arg(&config);
            let method = Method::Weir {
                binary: env.weir.clone(),
                pid_file,
            };
            (command, "weir", (method, config, texts))
        }
        Gateway::Direct | Gateway::Python { .. } => {
            bail!("{} cannot be reloaded by the lab", spec.label)
        }
    };
    let mut component = Component::spawn(&format!("{name} ({})", spec.label), command, &log)?;
    component.wait_ready(&Addr::Tcp(listen), GATEWAY_START_TIMEOUT)?;
    let (method, config, texts) = reload;
    let reload = Reload::new(method, config, texts);
    // weir writes its pid file after it listens; the first reload must find it.
    if let Some(pid_file) = reload.pid_file() {
        reload::wait_for_file(pid_file, GATEWAY_START_TIMEOUT)?;
    }
    reload::wait_for_version(listen, Version::A, GATEWAY_START_TIMEOUT)
        .with_context(|| format!("{} does not serve version a", spec.label))?;
    Ok(RunningGateway {
        spec: spec.clone(),
        addr: listen,
        admin: None,
        component: Some(component),
        reload: Some(reload),
        tls: false,
    })
}

pub fn haproxy_binary() -> PathBuf {
    sbin("haproxy")
}

/// Debian puts haproxy in /usr/sbin, which a non-login PATH may lack.
fn sbin(name: &str) -> PathBuf {
    let usual = Path::new("/usr/sbin").join(name);
    if usual.exists() {
        usual
    } else {
        PathBuf::from(name)
    }
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
