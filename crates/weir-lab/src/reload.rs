//! The `reload` scenario (issue 11): each gateway under `wrk -t2 -c100` in front of the fast
//! upstream while the lab reloads it once per second, alternating two versions of its config that
//! differ in a route, the way its operators reload it: `weir reload --pid-file`, `nginx -s reload`
//! and `reload` on HAProxy's master CLI (master-worker mode: the new worker takes the listening
//! sockets from the old one instead of binding them; the stats socket has `expose-fd listeners`,
//! the classic way, though 2.6's master passes them over its own socket pair either way).
//!
//! Every reload is checked: after the command, a fresh connection must see the new version's
//! route (`/lab-reload/which` answers `a` or `b`) within [`TAKE_EFFECT_TIMEOUT`]. A reload that
//! fails or does not take effect voids the run, as a socket error or a non-2xx does.

use std::fmt::Write as _;
use std::fs;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::os::unix::fs::PermissionsExt;
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use anyhow::{bail, Context};

use crate::components::{
    self, App, AppSpec, CeilingBody, Env, Gateway, GatewaySpec, HaproxyOptions, NginxOptions,
    RunningApp, RunningGateway, Transport, WeirOptions,
};
use crate::guard::Expect;
use crate::load::Tool;
use crate::process::{free_port, Addr, Component};
use crate::runner::Record;
use crate::scenario::{Cell, Group, Measure, Scenario, Settings};

pub const SCENARIO: Scenario = Scenario {
    name: "reload",
    seed: None,
    about: "a reload per second while wrk -t2 -c100 (and, outside --quick, ab -c100: a new connection per request) runs against the fast upstream (30 s; --quick 3 s, and --duration does not apply): weir `weir reload --pid-file`, nginx `nginx -s reload` (worker_processes auto, upstream keepalive 64), HAProxy `reload` on the master CLI (-W -S; the new worker takes the listening sockets from the old one, stats socket with `expose-fd listeners`); two config versions that differ in a route, alternated; each reload must show its route on a new connection within 5 s, or the run is VOID. p99 is over the whole run, so it is the p99 during reloads; reloads.md has every run's reloads and errors",
    reference: "Our own. Issue 11's targets: 0 errors (any error voids the gateway's run) and p99 during reloads no worse than nginx's.",
    plan,
};

/// The route whose answer tells which version of the config serves.
pub const PROBE_PATH: &str = "/lab-reload/which";

/// How long a reload may take to show its route on a new connection.
pub const TAKE_EFFECT_TIMEOUT: Duration = Duration::from_secs(5);

/// How long a reload command (weir's, nginx's, HAProxy's master CLI) may take.
const COMMAND_TIMEOUT: Duration = Duration::from_secs(10);

/// How long a gateway may take to listen.
const START_TIMEOUT: Duration = Duration::from_secs(20);

/// How long the load runs and how often the gateway is reloaded meanwhile.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Schedule {
    pub duration: Duration,
    pub interval: Duration,
}

impl Schedule {
    /// One reload per second for 30 s; three in 3 s with `--quick`.
    pub fn for_settings(settings: &Settings) -> Schedule {
        Schedule {
            duration: Duration::from_secs(if settings.quick { 3 } else { 30 }),
            interval: Duration::from_secs(1),
        }
    }

    pub fn reloads(&self) -> u32 {
        if self.interval.is_zero() {
            return 0;
        }
        (self.duration.as_nanos() / self.interval.as_nanos()) as u32
    }

    /// When reload `index` (from 0) is due after the load starts: in the middle of its interval,
    /// so the first comes once the load is under way and the last well before it ends.
    pub fn due(&self, index: u32) -> Duration {
        self.interval * index + self.interval / 2
    }
}

fn plan(settings: &Settings) -> Vec<Group> {
    let schedule = Schedule::for_settings(settings);
    // Keep-alive clients (the load) and, in full runs, a new connection per request,
    // where a listener handed over badly shows as refused or reset connections.
    let mut tools = vec![settings.flood_tool()];
    let per_request = Tool::Ab { concurrency: 100 };
    if !settings.quick && !tools.contains(&per_request) {
        tools.push(per_request);
    }
    tools
        .into_iter()
        .map(|tool| Group {
            name: format!(
                "{}, {} reloads in {} s",
                tool.label(),
                schedule.reloads(),
                schedule.duration.as_secs()
            ),
            apps: vec![AppSpec {
                id: "fast".to_string(),
                app: App::Ceiling {
                    status: 200,
                    body: CeilingBody::Small,
                },
            }],
            cells: gateways()
                .into_iter()
                .map(|gateway| Cell {
                    variant: "reload 1/s".to_string(),
                    gateway,
                    path: "/".to_string(),
                    tool,
                    expect: Expect::Success,
                })
                .collect(),
            measure: Measure::Reloads(schedule),
        })
        .collect()
}

/// nginx tuned as for a flood (a worker per core, 64 idle upstream connections), HAProxy and
/// weir with the lab's defaults, all in front of the fast upstream's Unix socket.
fn gateways() -> [GatewaySpec; 3] {
    [
        GatewaySpec::new(
            "nginx",
            Gateway::Nginx(NginxOptions {
                workers_auto: true,
                keepalive: Some(64),
                ..NginxOptions::SEED
            }),
            "fast",
            Transport::Unix,
        ),
        GatewaySpec::new(
            "haproxy",
            Gateway::Haproxy(HaproxyOptions::DEFAULT),
            "fast",
            Transport::Unix,
        ),
        GatewaySpec::new(
            "weir",
            Gateway::Weir(WeirOptions::SEED),
            "fast",
            Transport::Unix,
        ),
    ]
}

/// One of the two versions of a gateway's config.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Version {
    A,
    B,
}

impl Version {
    /// What [`PROBE_PATH`] answers under this version.
    pub fn letter(self) -> &'static str {
        match self {
            Version::A => "a",
            Version::B => "b",
        }
    }

    pub fn other(self) -> Version {
        match self {
            Version::A => Version::B,
            Version::B => Version::A,
        }
    }
}

/// nginx's config for the scenario: the lab's config with a `location` answering the version.
pub fn nginx_config(
    env: &Env,
    options: &NginxOptions,
    prefix: &Path,
    listen: SocketAddr,
    upstream: &Addr,
    version: Version,
) -> anyhow::Result<String> {
    let base = components::nginx_config(env, options, prefix, listen, upstream);
    let location = format!(
        "    location = {PROBE_PATH} {{\n      default_type text/plain;\n      return 200 \"{}\";\n    }}\n",
        version.letter()
    );
    insert_before(&base, "    location / {\n", &location)
}

/// HAProxy's config for the scenario: the lab's config, a stats socket that hands the listeners
/// to the next worker, and a rule answering the version.
pub fn haproxy_config(
    options: &HaproxyOptions,
    listen: SocketAddr,
    upstream: &Addr,
    stats_socket: &Path,
    version: Version,
) -> anyhow::Result<String> {
    let base = components::haproxy_config(options, listen, upstream);
    let with_socket = insert_after(
        &base,
        "global\n",
        &format!(
            "  stats socket {} mode 600 level admin expose-fd listeners\n",
            stats_socket.display()
        ),
    )?;
    insert_after(
        &with_socket,
        &format!("  bind {listen}\n"),
        &format!(
            "  http-request return status 200 content-type text/plain string {} if {{ path {PROBE_PATH} }}\n",
            version.letter()
        ),
    )
}

/// weir's config for the scenario: the lab's config with a pid file and a static route serving
/// the version's directory (`DIR/a/which` holds `a`, `DIR/b/which` holds `b`).
pub fn weir_config(
    options: &WeirOptions,
    listen: SocketAddr,
    upstream: &Addr,
    pid_file: &Path,
    versions_dir: &Path,
    version: Version,
) -> anyhow::Result<String> {
    let base = components::weir_config(options, listen, upstream, None, None, None);
    let mut text = insert_after(
        &base,
        "[server]\n",
        &format!("pid_file = \"{}\"\n", pid_file.display()),
    )?;
    let prefix = PROBE_PATH
        .rsplit_once('/')
        .map_or(PROBE_PATH, |(prefix, _)| prefix);
    text.push_str(&format!(
        "\n[[routes]]\npath = \"{prefix}/\"\nstatic = \"{}\"\n",
        versions_dir.join(version.letter()).display()
    ));
    Ok(text)
}

/// Writes `DIR/a/which` and `DIR/b/which`, what weir's static route serves.
fn write_version_dirs(dir: &Path) -> anyhow::Result<()> {
    let file = PROBE_PATH.rsplit('/').next().unwrap_or("which");
    for version in [Version::A, Version::B] {
        let version_dir = dir.join(version.letter());
        fs::create_dir_all(&version_dir)?;
        fs::write(version_dir.join(file), version.letter())?;
    }
    Ok(())
}

fn insert_before(text: &str, marker: &str, insert: &str) -> anyhow::Result<String> {
    let Some(at) = text.find(marker) else {
        bail!("the generated config has no {marker:?} to insert the reload route before");
    };
    Ok(format!("{}{insert}{}", &text[..at], &text[at..]))
}

fn insert_after(text: &str, marker: &str, insert: &str) -> anyhow::Result<String> {
    let Some(at) = text.find(marker) else {
        bail!("the generated config has no {marker:?} to insert after");
    };
    let at = at + marker.len();
    Ok(format!("{}{insert}{}", &text[..at], &text[at..]))
}

/// How a started gateway is reloaded.
#[derive(Debug)]
enum Method {
    /// `weir reload --pid-file FILE`.
    Weir { binary: PathBuf, pid_file: PathBuf },
    /// `nginx -p PREFIX -c CONFIG -s reload` (SIGHUP to the master named in its pid file).
    Nginx { prefix: PathBuf },
    /// `reload` on the master CLI (`-S`).
    Haproxy { master_socket: PathBuf },
}

/// A reloadable gateway: where its config is, both versions' text, and the version serving.
#[derive(Debug)]
pub struct Reload {
    method: Method,
    config: PathBuf,
    texts: [String; 2],
    /// True while version B is the one written and loaded.
    on_b: AtomicBool,
}

impl Reload {
    fn current(&self) -> Version {
        if self.on_b.load(Ordering::SeqCst) {
            Version::B
        } else {
            Version::A
        }
    }

    /// Writes the other version and runs the gateway's reload command; returns the version that
    /// should now serve.
    fn reload(&self) -> anyhow::Result<Version> {
        let next = self.current().other();
        let text = match next {
            Version::A => &self.texts[0],
            Version::B => &self.texts[1],
        };
        fs::write(&self.config, text)
            .with_context(|| format!("writing {}", self.config.display()))?;
        self.on_b.store(next == Version::B, Ordering::SeqCst);
        match &self.method {
            Method::Weir { binary, pid_file } => {
                let mut command = Command::new(binary);
                command.arg("reload").arg("--pid-file").arg(pid_file);
                run_command(command)?;
            }
            Method::Nginx { prefix } => {
                let mut command = Command::new(components::nginx_binary());
                command
                    .arg("-p")
                    .arg(prefix)
                    .args(["-e", "stderr", "-c"])
                    .arg(&self.config)
                    .args(["-s", "reload"]);
                run_command(command)?;
            }
            Method::Haproxy { master_socket } => {
                master_cli(master_socket, "reload")?;
            }
        }
        Ok(next)
    }
}

fn run_command(mut command: Command) -> anyhow::Result<()> {
    let output = command
        .output()
        .with_context(|| format!("running {command:?}"))?;
    if !output.status.success() {
        bail!(
            "{command:?} exited with {}: {}",
            output.status,
            String::from_utf8_lossy(&output.stderr).trim()
        );
    }
    Ok(())
}

/// Sends one command to HAProxy's master CLI and reads until the master closes the connection
/// (2.6 closes it when it re-executes for a reload). The master listens again only once the
/// re-executed process has started its new worker, which may be after the new worker serves, so a
/// refused connection is retried until [`COMMAND_TIMEOUT`].
fn master_cli(socket: &Path, command: &str) -> anyhow::Result<String> {
    let deadline = Instant::now() + COMMAND_TIMEOUT;
    let mut stream = loop {
        match UnixStream::connect(socket) {
            Ok(stream) => break stream,
            Err(_) if Instant::now() < deadline => thread::sleep(Duration::from_millis(10)),
            Err(error) => {
                return Err(error)
                    .with_context(|| format!("connecting to the master CLI {}", socket.display()))
            }
        }
    };
    stream.set_read_timeout(Some(COMMAND_TIMEOUT))?;
    stream.write_all(format!("{command}\n").as_bytes())?;
    let mut answer = String::new();
    stream
        .read_to_string(&mut answer)
        .with_context(|| format!("reading the master CLI's answer to {command:?}"))?;
    Ok(answer)
}

/// Starts `spec` in front of `app` as the reload scenario runs it, with version A loaded.
pub fn start_gateway(
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
            let texts = [Version::A, Version::B]
                .map(|version| nginx_config(env, &options, &dir, listen, &upstream, version));
            let [a, b] = texts;
            let texts = [a?, b?];
            fs::write(&config, &texts[0])?;
            let mut command = Command::new(components::nginx_binary());
            command
                .arg("-p")
                .arg(&dir)
                .args(["-e", "stderr", "-c"])
                .arg(&config)
                .args(["-g", "daemon off;"]);
            let method = Method::Nginx {
                prefix: dir.clone(),
            };
            (command, "nginx", (method, config, texts))
        }
        Gateway::Haproxy(options) => {
            let config = dir.join("haproxy.cfg");
            let stats = dir.join("stats.sock");
            let master = dir.join("master.sock");
            let texts = [Version::A, Version::B]
                .map(|version| haproxy_config(&options, listen, &upstream, &stats, version));
            let [a, b] = texts;
            let texts = [a?, b?];
            fs::write(&config, &texts[0])?;
            let mut command = Command::new(components::haproxy_binary());
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
            write_version_dirs(&dir)?;
            let texts = [Version::A, Version::B]
                .map(|version| weir_config(&options, listen, &upstream, &pid_file, &dir, version));
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
    component.wait_ready(&Addr::Tcp(listen), START_TIMEOUT)?;
    let (method, config, texts) = reload;
    let reload = Reload {
        method,
        config,
        texts,
        on_b: AtomicBool::new(false),
    };
    // weir writes its pid file after it listens; the first reload must find it.
    if let Method::Weir { pid_file, .. } = &reload.method {
        wait_for_file(pid_file, START_TIMEOUT)?;
    }
    wait_for_version(listen, Version::A, START_TIMEOUT)
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

fn wait_for_file(path: &Path, timeout: Duration) -> anyhow::Result<()> {
    let deadline = Instant::now() + timeout;
    while !path.exists() {
        if Instant::now() > deadline {
            bail!("{} did not appear within {timeout:?}", path.display());
        }
        thread::sleep(Duration::from_millis(20));
    }
    Ok(())
}

/// Asks [`PROBE_PATH`] on a new connection; returns the status and the body.
pub fn probe(addr: SocketAddr) -> std::io::Result<(u16, String)> {
    let mut stream = TcpStream::connect_timeout(&addr, Duration::from_secs(2))?;
    stream.set_read_timeout(Some(Duration::from_secs(2)))?;
    write!(
        stream,
        "GET {PROBE_PATH} HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: weir-lab\r\nConnection: close\r\n\r\n"
    )?;
    // Bounded: the answer is one letter; anything past 64 KiB is not it.
    let mut response = Vec::new();
    stream.take(64 * 1024).read_to_end(&mut response)?;
    Ok(parse_response(&response))
}

/// The status and body of a whole `Connection: close` response (0 and "" when it has none).
pub fn parse_response(response: &[u8]) -> (u16, String) {
    let text = String::from_utf8_lossy(response);
    let Some((head, body)) = text.split_once("\r\n\r\n") else {
        return (0, String::new());
    };
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|field| field.parse().ok())
        .unwrap_or(0);
    (status, body.trim().to_string())
}

/// Polls [`PROBE_PATH`] until it answers `version`; returns how long that took.
fn wait_for_version(
    addr: SocketAddr,
    version: Version,
    timeout: Duration,
) -> anyhow::Result<Duration> {
    let start = Instant::now();
    loop {
        let last = match probe(addr) {
            Ok((200, body)) if body == version.letter() => return Ok(start.elapsed()),
            Ok((status, body)) => format!("status {status}, body {body:?}"),
            Err(error) => error.to_string(),
        };
        if start.elapsed() > timeout {
            bail!(
                "{PROBE_PATH} did not answer {:?} within {timeout:?} (last: {last})",
                version.letter()
            );
        }
        thread::sleep(Duration::from_millis(10));
    }
}

/// What the reloads during one load run did.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Outcome {
    /// Reloads that took effect.
    pub done: u32,
    pub planned: u32,
    /// The longest time from the reload command to the new route answering.
    pub slowest: Duration,
    /// One line per reload that failed or did not take effect.
    pub failures: Vec<String>,
}

impl Outcome {
    /// Reasons to void the run: failed reloads, or fewer reloads than planned.
    pub fn void_reasons(&self) -> Vec<String> {
        let mut reasons: Vec<String> = self.failures.iter().take(3).cloned().collect();
        if self.failures.len() > 3 {
            reasons.push(format!("{} more failed reloads", self.failures.len() - 3));
        }
        if self.failures.is_empty() && self.done < self.planned {
            reasons.push(format!(
                "only {} of {} reloads ran during the load",
                self.done, self.planned
            ));
        }
        reasons
    }
}

/// Runs `load` while reloading the gateway on `schedule`; the reloads stop when the load ends.
pub fn during<T: Send>(
    reload: &Reload,
    addr: SocketAddr,
    schedule: Schedule,
    load: impl FnOnce() -> T + Send,
) -> (T, Outcome) {
    let finished = AtomicBool::new(false);
    thread::scope(|scope| {
        let reloader = scope.spawn(|| reload_on_schedule(reload, addr, schedule, &finished));
        let result = load();
        finished.store(true, Ordering::SeqCst);
        let outcome = reloader.join().unwrap_or_else(|_| Outcome {
            planned: schedule.reloads(),
            failures: vec!["the reload thread panicked".to_string()],
            ..Outcome::default()
        });
        (result, outcome)
    })
}

fn reload_on_schedule(
    reload: &Reload,
    addr: SocketAddr,
    schedule: Schedule,
    finished: &AtomicBool,
) -> Outcome {
    let start = Instant::now();
    let mut outcome = Outcome {
        planned: schedule.reloads(),
        ..Outcome::default()
    };
    for index in 0..schedule.reloads() {
        let due = start + schedule.due(index);
        while Instant::now() < due {
            if finished.load(Ordering::SeqCst) {
                return outcome;
            }
            thread::sleep((due - Instant::now()).min(Duration::from_millis(20)));
        }
        if finished.load(Ordering::SeqCst) {
            return outcome;
        }
        let issued = Instant::now();
        let result = reload
            .reload()
            .and_then(|version| wait_for_version(addr, version, TAKE_EFFECT_TIMEOUT));
        match result {
            Ok(_) => {
                outcome.done += 1;
                outcome.slowest = outcome.slowest.max(issued.elapsed());
            }
            Err(error) => outcome
                .failures
                .push(format!("reload {}: {error:#}", index + 1)),
        }
    }
    outcome
}

/// reloads.md: for every run with reloads, how many took effect and how fast, and every error
/// the load generator saw. Void runs are listed too: their errors are what this scenario reports
/// (their speed is not shown). Empty when no run had reloads.
pub fn reloads_markdown(records: &[Record]) -> String {
    let with_reloads: Vec<(&Record, &Outcome)> = records
        .iter()
        .filter_map(|record| Some((record, record.reloads.as_ref()?)))
        .collect();
    if with_reloads.is_empty() {
        return String::new();
    }
    let mut text = String::from(
        "# Reloads\n\nEvery run of the reload scenario: reloads that took effect (the new version's route answered on a new connection) out of those planned, the slowest from the reload command to that answer, and the errors the load generator counted (wrk's socket errors; ab's failed requests). Any error or failed reload voids the run.\n\n\
         | group | gateway | round | reloads | slowest ms | requests | non-2xx | connect | read | write | timeout | failed | verdict |\n\
         |---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n",
    );
    for (record, outcome) in with_reloads {
        let output = record.output.as_ref();
        let count = |value: Option<u64>| value.map_or_else(|| "–".to_string(), |v| v.to_string());
        let _ = writeln!(
            text,
            "| {} | {} | {} | {} of {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            record.group,
            record.gateway,
            record.round + 1,
            outcome.done,
            outcome.planned,
            outcome.slowest.as_millis(),
            count(output.map(|o| o.requests)),
            count(output.map(|o| o.non_2xx)),
            count(output.map(|o| o.errors.connect)),
            count(output.map(|o| o.errors.read)),
            count(output.map(|o| o.errors.write)),
            count(output.map(|o| o.errors.timeout)),
            count(output.map(|o| o.errors.failed)),
            if record.verdict.is_valid() {
                "ok".to_string()
            } else {
                record
                    .verdict
                    .to_string()
                    .replace('|', "\\|")
                    .replace('\n', " ")
            }
        );
    }
    text
}

#[cfg(test)]
mod tests;
