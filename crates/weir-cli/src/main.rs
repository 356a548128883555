//! The `weir` binary: flags, logging, signals and exit codes around the `weir` library.
//!
//! Exit codes: 0 on success (including a graceful shutdown), 64 for an invalid config (EX_USAGE,
//! as `weir check` and `weir run` report it), 1 when the gateway cannot start (a port in use).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::{Parser, Subcommand};

/// Exit status for an invalid configuration (EX_USAGE from sysexits.h).
const EXIT_CONFIG: u8 = 64;

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
        Command::Run { .. } => match run(config) {
            Ok(()) => ExitCode::SUCCESS,
            Err(error) => {
                eprintln!("weir: {error:#}");
                ExitCode::FAILURE
            }
        },
    }
}

fn run(config: weir::Config) -> anyhow::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("starting the runtime")?;
    runtime.block_on(async {
        let gateway = weir::Gateway::bind(&config)
            .with_context(|| format!("starting with {}", config.source_name()))?;
        for addr in gateway.local_addrs() {
            tracing::info!(%addr, "listening");
        }
        if let Some(addr) = gateway.admin_addr() {
            tracing::info!(%addr, "admin listening (/metrics, /healthz, /readyz)");
        }
        tokio::spawn(reopen_logs_on_sigusr1());
        gateway.run(shutdown_signal()).await;
        tracing::info!("stopped");
        Ok(())
    })
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
