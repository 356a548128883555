//! weir-lab: `list` the scenarios, or `run` some of them into `lab/runs/<date>-<host>/`.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use clap::{Parser, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};

use weir_lab::runner::{Runner, INTERRUPTED};
use weir_lab::scenario::{FastUpstream, Loader, Scenario, Settings};
use weir_lab::spec::{Env, Layout, Venv};
use weir_lab::{components, env, outcome, process, report, scenarios};

#[derive(Debug, Parser)]
#[command(name = "weir-lab", version, about = "weir's benchmark lab")]
struct Args {
    #[command(subcommand)]
    command: LabCommand,
}

#[derive(Debug, Subcommand)]
enum LabCommand {
    /// List the scenarios and what each measures.
    List,
    /// Run scenarios (`all` for every one) and write a run directory.
    Run(RunArgs),
    /// Regenerate the README's performance section from the kept runs' raw.csv at a revision.
    Readme(ReadmeArgs),
}

#[derive(Debug, clap::Args)]
struct ReadmeArgs {
    /// Run directories to draw from (`lab/runs/<name>`); default every run under lab/runs with a
    /// raw.csv at the revision. Each scenario and group comes from the newest committed of them.
    runs: Vec<String>,
    /// The git revision whose committed runs are read.
    #[arg(long, default_value = "HEAD")]
    rev: String,
    /// The README to update between its `weir-lab:performance` markers (the headline).
    #[arg(long, default_value = "README.md")]
    readme: std::path::PathBuf,
    /// The page to update between the same markers with the full per-run table.
    #[arg(long, default_value = weir_lab::readme::PERFORMANCE_DOC)]
    performance: std::path::PathBuf,
}

#[derive(Debug, clap::Args)]
struct RunArgs {
    /// Scenario names, or `all`.
    #[arg(required = true)]
    scenarios: Vec<String>,
    /// The essential cells only, one round of 2 s each: the whole lab in about 4.5 minutes (CI).
    #[arg(long)]
    quick: bool,
    /// Interleaved rounds per cell (default 3; 1 with --quick).
    #[arg(long)]
    rounds: Option<u32>,
    /// Length of each load run, e.g. `10s` (default 10s; 2s with --quick).
    #[arg(long, value_parser = parse_duration)]
    duration: Option<Duration>,
    /// Gunicorn layouts for socket-vs-port: comma-separated (`w3t1,w2t0`) or `all`.
    #[arg(long, default_value = "w3t1")]
    layouts: String,
    /// Python installs: `plain`, `standard` or `both`.
    #[arg(long, default_value = "both")]
    venvs: String,
    /// Override the studies' load generator: `wrk` or `ab`.
    #[arg(long)]
    loader: Option<String>,
    /// The server behind the gateways in proxy-overhead, one-connection, new-connection and
    /// ratelimit-redis: `ceiling` (weir-lab-ceiling, a minimal hyper server) or `nginx` (nginx
    /// `return 200`), both on a Unix socket with the same ~100 B body.
    #[arg(long, default_value = "ceiling")]
    fast_upstream: String,
    /// Idle connections in the idle-connections scenario.
    #[arg(long, default_value_t = 10_000)]
    idle_connections: u32,
    /// The run directory (default lab/runs/<date>-<host>, or target/weir-lab/<date>-<host>-quick).
    #[arg(long)]
    out: Option<PathBuf>,
    /// The weir binary (default target/release/weir, built first unless --no-build).
    #[arg(long)]
    weir: Option<PathBuf>,
    /// Do not run `cargo build --release -p weir-cli` first.
    #[arg(long)]
    no_build: bool,
    /// Do not run scripts/setup first.
    #[arg(long)]
    no_setup: bool,
    /// Exit with status 2 when any measurement is void. Without it a --quick run (CI's) exits
    /// with status 2 when any of weir's measurements is void, and a full run does not.
    #[arg(long)]
    strict: bool,
}

fn parse_duration(text: &str) -> Result<Duration, String> {
    let text = text.trim();
    let (number, scale) = if let Some(number) = text.strip_suffix("ms") {
        (number, 0.001)
    } else if let Some(number) = text.strip_suffix('s') {
        (number, 1.0)
    } else if let Some(number) = text.strip_suffix('m') {
        (number, 60.0)
    } else {
        (text, 1.0)
    };
    let value: f64 = number
        .parse()
        .map_err(|_| format!("{text:?} is not a duration like 10s, 500ms or 1m"))?;
    if !(value.is_finite() && value > 0.0) {
        return Err(format!("{text:?} must be positive"));
    }
    Ok(Duration::from_secs_f64(value * scale))
}

fn main() {
    let args = Args::parse();
    let result = match args.command {
        LabCommand::List => {
            list();
            Ok(())
        }
        LabCommand::Run(run_args) => run(run_args),
        LabCommand::Readme(readme_args) => update_readme(readme_args),
    };
    if let Err(error) = result {
        eprintln!("weir-lab: {error:#}");
        let code = if INTERRUPTED.load(Ordering::SeqCst) {
            130
        } else {
            1
        };
        std::process::exit(code);
    }
}

fn default_settings(quick: bool) -> Settings {
    Settings {
        quick,
        rounds: if quick { 1 } else { 3 },
        duration: Duration::from_secs(if quick { 2 } else { 10 }),
        layouts: vec![Layout::DEFAULT],
        venvs: vec![Venv::Plain, Venv::Standard],
        loader: None,
        idle_connections: 10_000,
        slowloris_connections: if quick { 200 } else { 5_000 },
        soak_duration: Duration::from_secs(if quick { 6 } else { 600 }),
        fast_upstream: FastUpstream::Ceiling,
    }
}

fn list() {
    let full = default_settings(false);
    let quick = default_settings(true);
    println!(
        "Scenarios (measurements with the defaults: full 3 rounds x 10 s, --quick 1 x 2 s):\n"
    );
    for scenario in scenarios::ALL.iter() {
        let seed = scenario
            .seed
            .map(|seed| format!(" (seed {seed})"))
            .unwrap_or_default();
        println!(
            "{}{seed}\n  {}\n  full: {} measurements, ~{} min; quick: {}, ~{} s\n",
            scenario.name,
            scenario.about,
            scenario.measurements(&full),
            scenario.estimate(&full).as_secs().div_ceil(60),
            scenario.measurements(&quick),
            scenario.estimate(&quick).as_secs()
        );
    }
    let total = |settings: &Settings| -> u64 {
        scenarios::ALL
            .iter()
            .map(|scenario| scenario.estimate(settings).as_secs())
            .sum()
    };
    println!(
        "all: ~{} min with the defaults (--venvs plain or --duration 5s to shorten); --quick ~{} s",
        total(&full).div_ceil(60),
        total(&quick)
    );
}

/// The repository root: the lab crate lives at crates/weir-lab.
fn repository_root() -> PathBuf {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest
        .parent()
        .and_then(Path::parent)
        .map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from("."))
}

fn run(args: RunArgs) -> anyhow::Result<()> {
    let started = Instant::now();
    let root = repository_root();
    let mut chosen: Vec<&'static Scenario> = Vec::new();
    for name in &args.scenarios {
        if name == "all" {
            chosen.extend(scenarios::ALL.iter());
        } else {
            match scenarios::find(name) {
                Some(scenario) => chosen.push(scenario),
                None => bail!(
                    "no scenario {name:?}; `weir-lab list` shows them: {}",
                    scenarios::ALL.map(|scenario| scenario.name).join(", ")
                ),
            }
        }
    }
    chosen.dedup_by_key(|scenario| scenario.name);

    let mut settings = default_settings(args.quick);
    if let Some(rounds) = args.rounds {
        settings.rounds = rounds.max(1);
    }
    if let Some(duration) = args.duration {
        settings.duration = duration;
    }
    settings.layouts = if args.layouts == "all" {
        Layout::ALL.to_vec()
    } else {
        args.layouts
            .split(',')
            .map(|text| {
                Layout::parse(text.trim())
                    .with_context(|| format!("{text:?} is not a layout like w3t1"))
            })
            .collect::<anyhow::Result<_>>()?
    };
    settings.venvs = match args.venvs.as_str() {
        "plain" => vec![Venv::Plain],
        "standard" => vec![Venv::Standard],
        "both" => vec![Venv::Plain, Venv::Standard],
        other => bail!("--venvs {other:?}: expected plain, standard or both"),
    };
    settings.loader = match args.loader.as_deref() {
        None => None,
        Some("wrk") => Some(Loader::Wrk),
        Some("ab") => Some(Loader::Ab),
        Some(other) => bail!("--loader {other:?}: expected wrk or ab"),
    };
    settings.fast_upstream = match args.fast_upstream.as_str() {
        "ceiling" => FastUpstream::Ceiling,
        "nginx" => FastUpstream::Nginx,
        other => bail!("--fast-upstream {other:?}: expected ceiling or nginx"),
    };
    settings.idle_connections = args.idle_connections.max(1);

    if !args.no_setup {
        let status = Command::new(root.join("scripts/setup"))
            .status()
            .context("running scripts/setup")?;
        if !status.success() {
            bail!("scripts/setup failed ({status})");
        }
    }
    let weir = args
        .weir
        .clone()
        .unwrap_or_else(|| root.join("target/release/weir"));
    if !args.no_build && args.weir.is_none() {
        let status = Command::new("cargo")
            .args(["build", "--release", "-p", "weir-cli"])
            .current_dir(&root)
            .status()
            .context("running cargo build")?;
        if !status.success() {
            bail!("cargo build --release -p weir-cli failed ({status})");
        }
    }
    if !weir.exists() {
        bail!(
            "no weir binary at {}; build it with `cargo build --release -p weir-cli`",
            weir.display()
        );
    }
    let ceiling = std::env::current_exe()?
        .parent()
        .map(|dir| dir.join("weir-lab-ceiling"))
        .context("locating weir-lab-ceiling")?;
    if !ceiling.exists() {
        bail!(
            "no {} beside weir-lab; build both with `cargo build --release -p weir-lab`",
            ceiling.display()
        );
    }

    // 10,000 idle connections need that many descriptors in the lab and in each gateway.
    // The slowloris attack's connections, likewise, in the lab and in the gateway.
    let open_files = process::raise_open_files(
        u64::from(
            settings
                .idle_connections
                .max(settings.slowloris_connections),
        ) * 3
            + 4096,
    );

    let temp = tempfile::Builder::new().prefix("weir-lab-").tempdir()?;
    // nginx's workers run as nobody and must reach the sockets inside.
    std::fs::set_permissions(
        temp.path(),
        std::os::unix::fs::PermissionsExt::from_mode(0o755),
    )?;
    let static_file = temp.path().join("static").join("file");
    std::fs::create_dir_all(temp.path().join("static"))?;
    components::write_static_file(&static_file)?;
    let status_script = root.join("lab/wrk/status.lua");
    let lab_env = Env {
        root: root.clone(),
        temp: temp.path().to_path_buf(),
        weir: weir.clone(),
        ceiling,
        static_file,
    };

    ctrlc::set_handler(|| {
        INTERRUPTED.store(true, Ordering::SeqCst);
        process::kill_all_registered();
    })
    .context("installing the Ctrl-C handler")?;

    let total: u64 = chosen
        .iter()
        .map(|scenario| scenario.measurements(&settings))
        .sum();
    let progress = ProgressBar::new(total);
    progress.set_style(
        ProgressStyle::with_template(
            "{elapsed_precise} [{bar:30.cyan/blue}] {pos}/{len} (eta {eta}) {wide_msg}",
        )
        .map_err(|error| anyhow::anyhow!("{error}"))?
        .progress_chars("=> "),
    );
    let runner = Runner {
        env: &lab_env,
        settings: &settings,
        progress: progress.clone(),
        status_script,
    };
    let mut records = Vec::new();
    for scenario in &chosen {
        records.extend(runner.run(scenario)?);
    }
    progress.finish_with_message("done");

    let out = match &args.out {
        Some(out) => out.clone(),
        None => default_out(&root, args.quick),
    };
    report::write(&out, &chosen, &records)?;
    let readme = readme(
        &root,
        &weir,
        &settings,
        &chosen,
        started.elapsed(),
        open_files,
    );
    std::fs::write(out.join("README.md"), readme)?;
    let void = records
        .iter()
        .filter(|record| !record.verdict.is_valid())
        .count();
    println!(
        "weir-lab: {} measurements ({void} void) in {:.0?}; results in {}",
        records.len(),
        started.elapsed(),
        out.display()
    );
    if let Some(failure) = outcome::failure(&records, settings.quick, args.strict) {
        eprintln!(
            "weir-lab: {failure}\nweir-lab: see {}",
            out.join("voids.md").display()
        );
        std::process::exit(2);
    }
    Ok(())
}

/// `lab/runs/<date>-<host>` for full runs, `target/weir-lab/<date>-<host>-quick` for quick ones;
/// a second run on the same day gets `-2`, `-3`, ... rather than overwriting the first.
fn default_out(root: &Path, quick: bool) -> PathBuf {
    let base = if quick {
        root.join("target/weir-lab")
            .join(format!("{}-{}-quick", env::today(), env::hostname()))
    } else {
        root.join("lab/runs")
            .join(format!("{}-{}", env::today(), env::hostname()))
    };
    if !base.exists() {
        return base;
    }
    (2..)
        .map(|index| PathBuf::from(format!("{}-{index}", base.display())))
        .find(|candidate| !candidate.exists())
        .unwrap_or(base)
}

fn shell_quote(arg: &str) -> String {
    if !arg.is_empty()
        && arg
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=:,".contains(c))
    {
        arg.to_string()
    } else {
        format!("'{}'", arg.replace('\'', r"'\''"))
    }
}

fn readme(
    root: &Path,
    weir: &Path,
    settings: &Settings,
    chosen: &[&Scenario],
    elapsed: Duration,
    open_files: u64,
) -> String {
    let command: Vec<String> = std::env::args().map(|arg| shell_quote(&arg)).collect();
    let mut text = String::from("# weir lab run\n\n");
    let _ = writeln!(text, "Command:\n\n```\n{}\n```\n", command.join(" "));
    let _ = writeln!(
        text,
        "Date (UTC): {}. Took {:.0?}. Rounds: {}, each load run {:?}{}. Open-file limit: {open_files}.\n",
        env::today(),
        elapsed,
        settings.rounds,
        settings.duration,
        if settings.quick { ", --quick" } else { "" }
    );
    let _ = writeln!(
        text,
        "Scenarios: {}.\n",
        chosen
            .iter()
            .map(|scenario| scenario.name)
            .collect::<Vec<_>>()
            .join(", ")
    );
    text.push_str("## Machine\n\n| | |\n|---|---|\n");
    for (what, value) in env::machine() {
        let _ = writeln!(text, "| {what} | {value} |");
    }
    text.push_str("\n## Versions\n\n| component | version |\n|---|---|\n");
    for (what, value) in env::versions(root, weir) {
        let _ = writeln!(text, "| {what} | {} |", value.replace('|', "\\|"));
    }
    text.push_str(
        "\n## Method\n\n\
         - Every process listens on 127.0.0.1 or a Unix socket in a temp dir, is started by the lab and stopped by its PID.\n\
         - Cells of a group are measured in the same order every round (A B C A B C); figures are medians over rounds, and ratios are taken to nginx in the same round.\n\
         - The guard voids a run with any unexpected status (>= 400; 429 is expected only in the rate-limit stages), socket error or time-out (wrk `--timeout 10s`); a void cell shows VOID, never a figure.\n\
         - CPU is utime+stime of every process of the gateway (and, apart, of the apps) from /proc over the run; peak RSS is the sum of VmHWM of the gateway's processes.\n\
         - The load generator runs on the same 2 cores as everything else: in floods it is the cap, and CPU per request is the fairer figure.\n\
         - Gunicorn applies `--threads` only to its gthread worker; with UvicornWorker the layouts' thread counts are passed as the studies passed them, and change nothing.\n\
         - nginx runs the seed's production config with only listen, upstream and temp paths changed (`user` omitted: workers run as nobody), and beside it as `nginx (tuned)`: `worker_processes auto`, `reuseport`, upstream `keepalive` sized to the load (64 for 100 clients), `keepalive_requests 1000000`. Ratios are to the better of the two rows; the tables say which. HAProxy runs with `nbthread` = cores and `http-reuse always`.\n\
         - idle-connections starts each gateway afresh every round; system calls per request (where shown) come from a separate short run under `strace -c -f`.\n\
         \nSee summary.md for the tables and raw.csv for every measurement.\n",
    );
    text
}

/// Replaces the text between the performance markers of README.md with the headline and of
/// docs/performance.md with the full table, from the kept runs at the revision, each row naming
/// its run.
fn update_readme(args: ReadmeArgs) -> anyhow::Result<()> {
    use weir_lab::readme;
    let root = repository_root();
    let runs = readme::read_runs(&root, &args.rev, &args.runs)?;
    if runs.is_empty() {
        bail!(
            "no run with a raw.csv under {} at {}",
            readme::RUNS_DIR,
            args.rev
        );
    }
    // The last commit that changed a kept run: the section is the same whatever commits come
    // after it, so regenerating it without a new run changes nothing.
    let commit = Command::new("git")
        .arg("-C")
        .arg(&root)
        .args([
            "log",
            "-1",
            "--format=%h",
            &args.rev,
            "--",
            weir_lab::readme::RUNS_DIR,
        ])
        .output()
        .map(|output| String::from_utf8_lossy(&output.stdout).trim().to_string())
        .unwrap_or_default();
    // Links from docs/performance.md to the runs go up to the repository root.
    let relative = args
        .performance
        .strip_prefix(&root)
        .unwrap_or(&args.performance);
    let depth = relative.components().count().saturating_sub(1);
    let up = "../".repeat(depth);
    for (path, section) in [
        (&args.readme, readme::section(&runs, &args.rev, &commit)),
        (
            &args.performance,
            readme::full_section(&runs, &args.rev, &commit, &up),
        ),
    ] {
        let path = if path.is_absolute() {
            path.clone()
        } else {
            root.join(path)
        };
        let text = std::fs::read_to_string(&path)
            .with_context(|| format!("reading {}", path.display()))?;
        let updated = readme::replace_between_markers(&text, &section).with_context(|| {
            format!(
                "{} has no {} ... {} markers",
                path.display(),
                readme::README_START,
                readme::README_END
            )
        })?;
        std::fs::write(&path, updated).with_context(|| format!("writing {}", path.display()))?;
        println!(
            "updated {} from {} run(s) at {} ({commit})",
            path.display(),
            runs.len(),
            args.rev
        );
    }
    Ok(())
}
