//! The `weir` binary: flags, logging, signals and exit codes around the `weir` library.
//!
//! Exit codes: 0 on success (including a graceful shutdown), 64 for an invalid config (EX_USAGE,
//! as `weir check` and `weir run` report it), 1 when the gateway cannot start (a port in use).
//! `weir import` exits 0, or 65 (EX_DATAERR) with `--strict` when anything was approximated or
//! left out, 64 when the nginx config cannot be read, and 1 when the output cannot be written.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::{Parser, Subcommand};

/// mimalloc instead of glibc's malloc: the request path allocates many small short-lived blocks
/// (hyper's heads, channels, buffers), where glibc's arenas cost measurably more CPU per request.
#[cfg(feature = "mimalloc")]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Threads per runtime for blocking work (static files, request bodies spilled to disk). tokio's
/// default of 512 let a static-file load grow hundreds of threads, each with its own allocator
/// heap: the lab saw 746 MiB peak RSS serving one 651 KiB file to 100 clients.
const BLOCKING_THREADS: usize = 8;

/// Exit status for an invalid configuration (EX_USAGE from sysexits.h).
const EXIT_CONFIG: u8 = 64;

/// Exit status of `weir import --strict` when the import is not exact (EX_DATAERR).
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
    /// Run the gateway until SIGTERM or SIGINT.
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
    },
}

fn main() -> ExitCode {
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
        Command::Run { config } | Command::Check { config } => config,
        Command::Import {
            nginx_conf,
            output,
            strict,
        } => return import(nginx_conf, output.as_deref(), *strict),
    };
    let config = match weir::config::load(config_path) {
        Ok(config) => config,
        Err(error) => {
            eprintln!("weir: invalid configuration: {error}");
            return ExitCode::from(EXIT_CONFIG);
        }
    };
    match cli.command {
        Command::Check { .. } => {
            println!("{}", config.summary());
            println!("configuration OK");
            ExitCode::SUCCESS
        }
        Command::Import { .. } => ExitCode::SUCCESS,
        Command::Run { .. } => match run(config) {
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
        None => print!("{}", imported.toml),
    }
    eprint!("{}", imported.report);
    if let Err(error) = weir::config::from_toml(&imported.toml, output) {
        // A translation weir itself refuses is a bug of the importer; say so plainly.
        eprintln!("weir: the imported config does not pass `weir check`: {error}");
        return ExitCode::from(EXIT_CONFIG);
    }
    if strict && !imported.report.is_exact() {
        eprintln!("weir: --strict: some directives were approximated or left out (see above)");
        return ExitCode::from(EXIT_NOT_EXACT);
    }
    ExitCode::SUCCESS
}

fn run(config: weir::Config) -> anyhow::Result<()> {
    let threads = match config.server.threads {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        threads => threads,
    };
    match config.server.runtime {
        weir::config::RuntimeLayout::WorkStealing => run_work_stealing(config, threads),
        weir::config::RuntimeLayout::PerCore => run_per_core(config, threads),
    }
}

/// One multi-thread runtime, one listener per address.
fn run_work_stealing(config: weir::Config, threads: usize) -> anyhow::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(threads)
        .max_blocking_threads(BLOCKING_THREADS * threads)
        .enable_all()
        .build()
        .context("starting the runtime")?;
    runtime.block_on(async {
        let gateway = weir::Gateway::bind(&config)
            .with_context(|| format!("starting with {}", config.source_name()))?;
        announce(&gateway);
        tokio::spawn(reopen_logs_on_sigusr1());
        gateway.run(shutdown_signal()).await;
        tracing::info!("stopped");
        Ok(())
    })
}

/// One single-threaded runtime per thread, each with its own `SO_REUSEPORT` listeners, all
/// sharing one proxy (routes, pools, limits), as nginx's workers share nothing but the port.
/// The first thread binds (so a bind error stops everything before any traffic), the others
/// bind beside it; the main thread waits for signals and tells every runtime to drain.
fn run_per_core(config: weir::Config, threads: usize) -> anyhow::Result<()> {
    let (stop_sender, stop_receiver) = tokio::sync::watch::channel(false);
    let (ready_sender, ready_receiver) = std::sync::mpsc::channel();
    let mut workers = Vec::with_capacity(threads);
    let first_config = config.clone();
    let first_stop = stop_receiver.clone();
    workers.push(spawn_worker(0, move || async move {
        let gateway = match weir::Gateway::bind_with(&first_config, true) {
            Ok(gateway) => gateway,
            Err(error) => {
                let message = format!("starting with {}: {error}", first_config.source_name());
                let _ = ready_sender.send(Err(message));
                return;
            }
        };
        announce(&gateway);
        let _ = ready_sender.send(Ok((gateway.handle(), gateway.local_addrs())));
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
        workers.push(spawn_worker(index, move || async move {
            match weir::Gateway::bind_sibling(&handle, &addrs, &settings) {
                Ok(gateway) => gateway.run(stopped(stop)).await,
                Err(error) => tracing::error!(%error, "a worker could not bind; the others serve"),
            }
        })?);
    }
    let signals = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("starting the signal runtime")?;
    signals.block_on(async {
        tokio::spawn(reopen_logs_on_sigusr1());
        shutdown_signal().await;
    });
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
    for addr in gateway.local_addrs() {
        tracing::info!(%addr, "listening");
    }
    if let Some(addr) = gateway.admin_addr() {
        tracing::info!(%addr, "admin listening (/metrics, /healthz, /readyz)");
    }
}

/// Reopens the access log files on every SIGUSR1, as nginx does after logrotate renamed them.
async fn reopen_logs_on_sigusr1() {
    use tokio::signal::unix::{signal, SignalKind};
    let Ok(mut user1) = signal(SignalKind::user_defined1()) else {
        tracing::warn!("cannot install the SIGUSR1 handler; access logs will not be reopened");
        return;
    };
    while user1.recv().await.is_some() {
        let reopened = weir::access_log::reopen_all();
        tracing::info!(logs = reopened, "SIGUSR1 received: reopening access logs");
    }
}

/// Completes on the first SIGTERM or SIGINT.
async fn shutdown_signal() {
    use tokio::signal::unix::{signal, SignalKind};
    let (Ok(mut terminate), Ok(mut interrupt)) = (
        signal(SignalKind::terminate()),
        signal(SignalKind::interrupt()),
    ) else {
        tracing::error!("cannot install signal handlers; stop weir with SIGKILL");
        return std::future::pending().await;
    };
    tokio::select! {
        _ = terminate.recv() => tracing::info!("SIGTERM received"),
        _ = interrupt.recv() => tracing::info!("SIGINT received"),
    }
}
