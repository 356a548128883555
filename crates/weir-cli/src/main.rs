//! The `weir` binary: flags, logging, signals and exit codes around the `weir` library.
//!
//! Exit codes: 0 on success (including a graceful shutdown), 64 for an invalid config (EX_USAGE,
//! as `weir check` and `weir run` report it), 1 when the gateway cannot start (a port in use).
//! `weir import` exits 0, or 65 (EX_DATAERR) when the weir config is less safe than the nginx one
//! (unless `--accept-less-safe`) or, with `--strict`, when anything was approximated or left out;
//! 64 when the nginx config cannot be read, and 1 when the output cannot be written. The config is
//! written in every case but 64 and 1.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::{Parser, Subcommand};

mod process;

/// mimalloc instead of glibc's malloc: the request path allocates many small short-lived blocks
/// (hyper's heads, channels, buffers), where glibc's arenas cost measurably more CPU per request.
#[cfg(feature = "mimalloc")]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// mimalloc's `purge_delay` (its option 15, in v2 and v3 alike): how long memory freed by the
/// allocator stays committed before it is given back to the system.
#[cfg(feature = "mimalloc")]
const MI_OPTION_PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

/// Freed memory given back after 100 ms of disuse instead of mimalloc v3's 1 s, unless
/// `MIMALLOC_PURGE_DELAY` says otherwise: a burst of clients (each briefly holding a read buffer
/// and its request's state) otherwise leaves its peak committed. 5,000 idle connections
/// (lab/runs/2026-12-02-vm-idle-burst, then -purge): 636 -> 529 B per connection opened one at a
/// time, 1,106 -> 754 B opened 500 at a time (nginx 603 and 904 B). Shorter costs page faults
/// under load: by hand, `wrk -t2 -c100` through weir to nginx `return 200`, minor faults per
/// request 0.009 at 1 s, 0.06 at 100 ms, 0.3 at 10 ms (v2's default, which gave 433 and 809 B).
#[cfg(feature = "mimalloc")]
#[allow(unsafe_code)]
fn prompt_purge() {
    if std::env::var_os("MIMALLOC_PURGE_DELAY").is_none() {
        // SAFETY: mi_option_set takes any option number and value; an option the library does
        // not know is ignored.
        unsafe { libmimalloc_sys::mi_option_set(MI_OPTION_PURGE_DELAY, 100) };
    }
}

#[cfg(all(test, feature = "mimalloc"))]
mod purge_tests {
    /// Option 15 is the one `MIMALLOC_PURGE_DELAY` sets: a child of this test binary, started
    /// with it, reads it back through the number `prompt_purge` uses.
    #[test]
    #[allow(unsafe_code)]
    fn the_option_set_is_the_purge_delay() {
        if std::env::var_os("WEIR_PURGE_CHILD").is_some() {
            // SAFETY: reads an option.
            let delay = unsafe { libmimalloc_sys::mi_option_get(super::MI_OPTION_PURGE_DELAY) };
            println!("purge_delay={delay}");
            return;
        }
        let child = std::process::Command::new(std::env::current_exe().unwrap())
            .args([
                "--exact",
                "purge_tests::the_option_set_is_the_purge_delay",
                "--nocapture",
            ])
            .env("WEIR_PURGE_CHILD", "1")
            .env("MIMALLOC_PURGE_DELAY", "777")
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&child.stdout);
        assert!(stdout.contains("purge_delay=777"), "{stdout}");
    }
}

/// Threads per runtime for blocking work (static files, request bodies spilled to disk). tokio's
/// default of 512 let a static-file load grow hundreds of threads, each with its own allocator
/// heap: the lab saw 746 MiB peak RSS serving one 651 KiB file to 100 clients.
const BLOCKING_THREADS: usize = 8;

/// Exit status for an invalid configuration (EX_USAGE from sysexits.h).
const EXIT_CONFIG: u8 = 64;

/// Exit status of `weir import` when the import is less safe than nginx, or, with `--strict`, not
/// exact (EX_DATAERR).
const EXIT_NOT_EXACT: u8 = 65;

#[derive(Debug, Parser)]
#[command(
    name = "weir",
    version,
    about = "A reverse proxy and rate-limiting gateway for Python web apps"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Run the gateway until SIGTERM or SIGINT. SIGHUP reloads the config, SIGUSR1 reopens the
    /// access logs, SIGUSR2 starts the binary on disk and hands it the listening sockets.
    Run {
        /// The TOML configuration file.
        #[arg(long, short)]
        config: PathBuf,
    },
    /// Validate a configuration file and print the effective settings.
    Check {
        /// The TOML configuration file.
        #[arg(long, short)]
        config: PathBuf,
    },
    /// Translate an nginx config into a weir config; the report goes to stderr.
    Import {
        /// The nginx config (includes are read relative to its directory).
        nginx_conf: PathBuf,
        /// Where to write the weir config (stdout when absent).
        #[arg(long, short)]
        output: Option<PathBuf>,
        /// Exit 65 when anything was approximated or left out.
        #[arg(long)]
        strict: bool,
        /// Exit 0 even when the report's "less safe than nginx" part is not empty: you have read
        /// it and put back, elsewhere, what it lists.
        #[arg(long)]
        accept_less_safe: bool,
    },
    /// Ask a running weir to reload its configuration (sends SIGHUP).
    Reload {
        /// The running weir's pid file (`[server] pid_file`).
        #[arg(long)]
        pid_file: PathBuf,
    },
    /// Ask a running weir to start the binary now on disk and hand over to it (sends SIGUSR2).
    Upgrade {
        /// The running weir's pid file (`[server] pid_file`).
        #[arg(long)]
        pid_file: PathBuf,
    },
}

fn main() -> ExitCode {
    // Transparent huge pages off for this process, as Redis does: where the kernel gives them to
    // every mapping (`always`, Debian's default), the allocator's heap grows in 2 MiB pages, so
    // a few KiB of live data per connection cost whole huge pages. lab/runs/2026-12-01-vm-idle-park
    // (5,000 idle connections, medians): with parked connections, 2.65 KB of RSS per idle
    // connection with THP, 633 B without; 17.4 -> 12.5 MiB at start. Failing (an old kernel) is
    // harmless.
    let _ = nix::sys::prctl::set_thp_disable(true);
    #[cfg(feature = "mimalloc")]
    prompt_purge();
    let cli = Cli::parse();
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_env("WEIR_LOG")
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info")),
        )
        .init();
    let config_path = match &cli.command {
        Command::Run { config } | Command::Check { config } => config.clone(),
        Command::Reload { pid_file } | Command::Upgrade { pid_file } => {
            let signal = match cli.command {
                Command::Reload { .. } => nix::sys::signal::Signal::SIGHUP,
                _ => nix::sys::signal::Signal::SIGUSR2,
            };
            return match process::signal_running(pid_file, signal) {
                Ok(pid) => {
                    println!("sent {signal} to weir (pid {pid})");
                    ExitCode::SUCCESS
                }
                Err(error) => {
                    eprintln!("weir: {error:#}");
                    ExitCode::FAILURE
                }
            };
        }
        Command::Import {
            nginx_conf,
            output,
            strict,
            accept_less_safe,
        } => return import(nginx_conf, output.as_deref(), *strict, *accept_less_safe),
    };
    let config = match weir::config::load(&config_path) {
        Ok(config) => config,
        Err(error) => {
            eprintln!("weir: invalid configuration: {error}");
            return ExitCode::from(EXIT_CONFIG);
        }
    };
    match cli.command {
        Command::Check { .. } => {
            let mut text = format!("{}\n", config.summary());
            if let Some(tls) = &config.tls {
                for warning in weir::config::certificate::expiry_warnings(tls) {
                    text.push_str(&format!("warning: {warning}\n"));
                }
            }
            for warning in unresolved_names(&config) {
                text.push_str(&format!("warning: {warning}\n"));
            }
            text.push_str("configuration OK\n");
            use std::io::Write as _;
            let mut stdout = std::io::stdout().lock();
            match stdout
                .write_all(text.as_bytes())
                .and_then(|()| stdout.flush())
            {
                // The reader left (`weir check --config weir.toml | head`): the config is still
                // valid, as the exit status says (`println!` panicked here).
                Err(error) if error.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
                Err(error) => {
                    eprintln!("weir: cannot write the summary to standard output: {error}");
                    ExitCode::FAILURE
                }
                Ok(()) => ExitCode::SUCCESS,
            }
        }
        _ => match run(config, config_path) {
            Ok(()) => ExitCode::SUCCESS,
            Err(error) => {
                eprintln!("weir: {error:#}");
                ExitCode::FAILURE
            }
        },
    }
}

/// `weir import`: the TOML to `output` (or stdout), the report to stderr.
fn import(
    nginx_conf: &std::path::Path,
    output: Option<&std::path::Path>,
    strict: bool,
    accept_less_safe: bool,
) -> ExitCode {
    let imported = match weir_import::import(nginx_conf) {
        Ok(imported) => imported,
        Err(error) => {
            eprintln!("weir: cannot import: {error}");
            return ExitCode::from(EXIT_CONFIG);
        }
    };
    match output {
        Some(path) => {
            if let Err(error) = std::fs::write(path, &imported.toml) {
                eprintln!("weir: cannot write {}: {error}", path.display());
                return ExitCode::FAILURE;
            }
        }
        None => {
            use std::io::Write as _;
            let mut stdout = std::io::stdout().lock();
            match stdout
                .write_all(imported.toml.as_bytes())
                .and_then(|()| stdout.flush())
            {
                // The reader left (`weir import nginx.conf | head`): not the import's failure;
                // the report and the exit status still say how the import went.
                Err(error) if error.kind() == std::io::ErrorKind::BrokenPipe => {}
                Err(error) => {
                    eprintln!("weir: cannot write the config to standard output: {error}");
                    return ExitCode::FAILURE;
                }
                Ok(()) => {}
            }
        }
    }
    eprint!("{}", imported.report);
    if let Err(error) = weir::config::from_toml(&imported.toml, output) {
        // A translation weir itself refuses is a bug of the importer; say so plainly.
        eprintln!("weir: the imported config does not pass `weir check`: {error}");
        return ExitCode::from(EXIT_CONFIG);
    }
    if imported.report.is_less_safe() && !accept_less_safe {
        eprintln!(
            "weir: the weir config is LESS SAFE than the nginx one: {} item(s), listed first above; the config is written, but check each, then run again with --accept-less-safe",
            imported.report.less_safe.len()
        );
        return ExitCode::from(EXIT_NOT_EXACT);
    }
    if strict && !imported.report.is_exact() {
        eprintln!("weir: --strict: some directives were approximated or left out (see above)");
        return ExitCode::from(EXIT_NOT_EXACT);
    }
    ExitCode::SUCCESS
}

/// What the control loop needs: the config file to reload from and a handle on the gateway. It
/// keeps no copy of any listening socket: an upgrade takes those open at that moment from the
/// handle, so a listener a reload removed is closed, not kept alive here.
struct Control {
    config_path: PathBuf,
    handle: weir::GatewayHandle,
}

fn run(config: weir::Config, config_path: PathBuf) -> anyhow::Result<()> {
    warn_expiring(&config);
    let threads = match config.server.threads {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        threads => threads,
    };
    let inherited = process::inherited_listeners()?;
    let ready = process::ready_pipe()?;
    let pid_file = config.server.pid_file.clone();
    let result = match config.server.runtime {
        weir::config::RuntimeLayout::WorkStealing => {
            run_work_stealing(config, config_path, threads, inherited, ready)
        }
        weir::config::RuntimeLayout::PerCore => {
            run_per_core(config, config_path, threads, inherited, ready)
        }
    };
    if let Some(path) = pid_file {
        process::remove_pid_file(&path);
    }
    result
}

/// `weir check`: a warning for each upstream host name that does not resolve now, naming the
/// file, line and key. Not an error: `weir run` starts with it (a Compose service may start
/// later) and answers 502 for it until it resolves.
fn unresolved_names(config: &weir::Config) -> Vec<String> {
    let names: Vec<_> = config
        .upstreams
        .iter()
        .filter_map(|(upstream, table)| table.resolve.map(|resolve| (upstream, table, resolve)))
        .flat_map(|(upstream, table, resolve)| {
            table
                .names
                .iter()
                .map(move |name| (upstream, name, resolve))
        })
        .collect();
    if names.is_empty() {
        return Vec::new();
    }
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(error) => return vec![format!("cannot check the upstream host names: {error}")],
    };
    runtime.block_on(async {
        let mut warnings = Vec::new();
        for (upstream, name, resolve) in names {
            if let Err(error) = weir::upstream::resolve::resolve_once(&resolve, name).await {
                warnings.push(weir::config::locate(
                    config.source.as_deref(),
                    &format!("upstreams.{upstream}.{}", name.key()),
                    &format!(
                        "{error}: weir starts all the same and answers 502 for it until it resolves"
                    ),
                ));
            }
        }
        warnings
    })
}

/// Logs a warning for each certificate that expires within two weeks.
fn warn_expiring(config: &weir::Config) {
    if let Some(tls) = &config.tls {
        for warning in weir::config::certificate::expiry_warnings(tls) {
            tracing::warn!("{warning}");
        }
    }
}

/// Writes the pid file and tells the weir that started this one (if any) that it serves.
fn started(config: &weir::Config, ready: Option<std::fs::File>) -> anyhow::Result<()> {
    if let Some(path) = &config.server.pid_file {
        process::write_pid_file(path)?;
    }
    if let Some(pipe) = ready {
        process::say_ready(pipe);
    }
    Ok(())
}

/// One multi-thread runtime, one listener per address.
fn run_work_stealing(
    config: weir::Config,
    config_path: PathBuf,
    threads: usize,
    inherited: Vec<weir::Inherited>,
    ready: Option<std::fs::File>,
) -> anyhow::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(threads)
        .max_blocking_threads(BLOCKING_THREADS * threads)
        .enable_all()
        .build()
        .context("starting the runtime")?;
    runtime.block_on(async {
        let signals = Signals::install();
        let gateway = weir::Gateway::bind_inherited(&config, false, inherited)
            .with_context(|| format!("starting with {}", config.source_name()))?;
        announce(&gateway);
        started(&config, ready)?;
        let control = Control {
            config_path,
            handle: gateway.handle(),
        };
        gateway.run(control_loop(control, signals)).await;
        tracing::info!("stopped");
        Ok(())
    })
}

/// One single-threaded runtime per thread, each with its own `SO_REUSEPORT` listeners, all
/// sharing one proxy (routes, pools, limits), as nginx's workers share nothing but the port.
/// The first thread binds (so a bind error stops everything before any traffic), the others
/// bind beside it; the main thread waits for signals and tells every runtime to drain.
fn run_per_core(
    config: weir::Config,
    config_path: PathBuf,
    threads: usize,
    inherited: Vec<weir::Inherited>,
    ready: Option<std::fs::File>,
) -> anyhow::Result<()> {
    let signal_runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("starting the signal runtime")?;
    let signals = signal_runtime.block_on(async { Signals::install() });
    let (stop_sender, stop_receiver) = tokio::sync::watch::channel(false);
    let (ready_sender, ready_receiver) = std::sync::mpsc::channel();
    // Nothing is sent: each worker drops its sender once it has bound (or failed to).
    let (bound_sender, bound_receiver) = std::sync::mpsc::channel::<()>();
    let mut shares = process::deal(inherited, threads).into_iter();
    let mut workers = Vec::with_capacity(threads);
    let first_config = config.clone();
    let first_stop = stop_receiver.clone();
    let first_share = shares.next().unwrap_or_default();
    workers.push(spawn_worker(0, move || async move {
        let gateway = match weir::Gateway::bind_inherited(&first_config, true, first_share) {
            Ok(gateway) => gateway,
            Err(error) => {
                let message = format!("starting with {}: {error}", first_config.source_name());
                let _ = ready_sender.send(Err(message));
                return;
            }
        };
        announce(&gateway);
        let _ = ready_sender.send(Ok((gateway.handle(), gateway.listen_addrs())));
        gateway.run(stopped(first_stop)).await;
    })?);
    let (handle, addrs) = match ready_receiver.recv() {
        Ok(Ok(ready)) => ready,
        Ok(Err(message)) => anyhow::bail!(message),
        Err(_) => anyhow::bail!("the first worker thread stopped before binding"),
    };
    for index in 1..threads {
        let handle = handle.clone();
        let addrs = addrs.clone();
        let settings = config.server.clone();
        let stop = stop_receiver.clone();
        let share = shares.next().unwrap_or_default();
        let bound = bound_sender.clone();
        workers.push(spawn_worker(index, move || async move {
            match weir::Gateway::bind_sibling(&handle, &addrs, &settings, share) {
                Ok(gateway) => {
                    drop(bound);
                    gateway.run(stopped(stop)).await
                }
                Err(error) => {
                    drop(bound);
                    tracing::error!(%error, "a worker could not bind; the others serve")
                }
            }
        })?);
    }
    drop(bound_sender);
    // Every worker has bound (or failed) once the channel is closed: only then is the pid file
    // written and the weir that started this one told that it serves.
    let _ = bound_receiver.recv();
    let control = Control {
        config_path,
        handle,
    };
    signal_runtime.block_on(async {
        started(&config, ready)?;
        control_loop(control, signals).await;
        anyhow::Ok(())
    })?;
    let _ = stop_sender.send(true);
    for worker in workers {
        let _ = worker.join();
    }
    tracing::info!("stopped");
    Ok(())
}

/// Starts a thread running `work` on its own single-threaded runtime.
fn spawn_worker<F, Fut>(index: usize, work: F) -> anyhow::Result<std::thread::JoinHandle<()>>
where
    F: FnOnce() -> Fut + Send + 'static,
    Fut: std::future::Future<Output = ()>,
{
    std::thread::Builder::new()
        .name(format!("weir-{index}"))
        .spawn(move || {
            match tokio::runtime::Builder::new_current_thread()
                .max_blocking_threads(BLOCKING_THREADS)
                .enable_all()
                .build()
            {
                Ok(runtime) => runtime.block_on(work()),
                Err(error) => tracing::error!(%error, "cannot start a worker runtime"),
            }
        })
        .context("starting a worker thread")
}

/// Completes once `stop` says so.
async fn stopped(mut stop: tokio::sync::watch::Receiver<bool>) {
    let _ = stop.wait_for(|stopped| *stopped).await;
}

fn announce(gateway: &weir::Gateway) {
    let tls = gateway.tls_addrs();
    for addr in gateway.local_addrs() {
        if tls.contains(&addr) {
            tracing::info!(%addr, "listening (TLS)");
        } else {
            tracing::info!(%addr, "listening");
        }
    }
    if let Some(addr) = gateway.admin_addr() {
        tracing::info!(%addr, "admin listening (/metrics, /healthz, /readyz)");
    }
}

/// The signals weir answers, installed before anything listens so that none arrives while its
/// default action (ending the process) is still in place.
struct Signals {
    terminate: tokio::signal::unix::Signal,
    interrupt: tokio::signal::unix::Signal,
    hangup: tokio::signal::unix::Signal,
    user1: tokio::signal::unix::Signal,
    user2: tokio::signal::unix::Signal,
}

impl Signals {
    /// Installs the handlers; must run inside the runtime that will serve them.
    fn install() -> Option<Signals> {
        use tokio::signal::unix::{signal, SignalKind};
        Some(Signals {
            terminate: signal(SignalKind::terminate()).ok()?,
            interrupt: signal(SignalKind::interrupt()).ok()?,
            hangup: signal(SignalKind::hangup()).ok()?,
            user1: signal(SignalKind::user_defined1()).ok()?,
            user2: signal(SignalKind::user_defined2()).ok()?,
        })
    }
}

/// Serves signals until the gateway should stop: SIGTERM or SIGINT, or a successful upgrade.
/// SIGHUP reloads the config file (an invalid one is logged with its file, line and key, and the
/// old config keeps serving); SIGUSR1 reopens the access logs; SIGUSR2 starts the binary on disk
/// with the listening sockets and stops this process once the new one serves.
async fn control_loop(control: Control, signals: Option<Signals>) {
    let Some(Signals {
        mut terminate,
        mut interrupt,
        mut hangup,
        mut user1,
        mut user2,
    }) = signals
    else {
        tracing::error!("cannot install signal handlers; stop weir with SIGKILL");
        return std::future::pending().await;
    };
    let control = std::sync::Arc::new(control);
    loop {
        tokio::select! {
            _ = terminate.recv() => {
                tracing::info!("SIGTERM received");
                return;
            }
            _ = interrupt.recv() => {
                tracing::info!("SIGINT received");
                return;
            }
            _ = hangup.recv() => reload(&control),
            _ = user1.recv() => {
                let reopened = weir::access_log::reopen_all();
                tracing::info!(logs = reopened, "SIGUSR1 received: reopening access logs");
            }
            _ = user2.recv() => {
                tracing::info!("SIGUSR2 received: starting the binary on disk");
                let config_path = control.config_path.clone();
                let listeners = control.handle.listeners_for_upgrade();
                let handed_over = tokio::task::spawn_blocking(move || {
                    let binary = process::own_binary()?;
                    process::start_successor(&binary, &config_path, &listeners)
                })
                .await;
                match handed_over {
                    Ok(Ok(true)) => {
                        tracing::info!("the new weir serves: this one stops accepting and drains");
                        return;
                    }
                    Ok(Ok(false)) => {}
                    Ok(Err(error)) => tracing::error!("upgrade failed: {error:#}; this weir keeps serving"),
                    Err(error) => tracing::error!(%error, "upgrade failed; this weir keeps serving"),
                }
            }
        }
    }
}

/// Reloads the config file: validated as `weir check` does, then applied; on any error the old
/// config keeps serving.
fn reload(control: &Control) {
    tracing::info!(config = %control.config_path.display(), "SIGHUP received: reloading");
    let config = match weir::config::load(&control.config_path) {
        Ok(config) => config,
        Err(error) => {
            control.handle.reload_failed();
            tracing::error!(
                "reload refused, the old config keeps serving: invalid configuration: {error}"
            );
            return;
        }
    };
    warn_expiring(&config);
    match control.handle.reload(&config) {
        Ok(()) => tracing::info!(generation = control.handle.generation(), "reloaded"),
        Err(error) => {
            tracing::error!("reload refused, the old config keeps serving: {error}")
        }
    }
}
