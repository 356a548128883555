//! weir-lab-overload: the `overload` measurement of issue 21, standalone (not yet a scenario of
//! `weir-lab run`). A sync Gunicorn app with 4 workers and a 50 ms endpoint (capacity 80 req/s)
//! behind each gateway, offered 1x, 2x and 10x its capacity by an open-loop generator: Poisson
//! arrivals, a new connection per request, latency counted from each request's scheduled time
//! (so a slow gateway cannot slow the load down and hide its queue). While it runs, the app
//! socket's listen backlog is read with `ss -lx` every 20 ms. The last gateway, `weir-async`,
//! puts the same app under Uvicorn workers (`worker_class = "async"`) behind weir's adaptive
//! limit, which is read from weir's `/metrics` (`weir_pool_limit`) every 100 ms; and
//! `weir-async-block` the same Uvicorn app in its `block` mode, where each request holds its
//! worker's loop for its 50 ms: capacity 80 req/s like the sync app, so the adaptive limit meets
//! a real overload (the async app at any of these rates is none) and the limit it finds can be
//! set against the worker count.
//!
//! Each level is followed at once by [`TAIL_SECONDS`] at 1x: the goodput of the requests
//! scheduled in its first second is the recovery after the level ("full goodput again within
//! 1 s"), and the whole trace gives each refusal's real time until a retry would be served (the
//! first 100 ms window, from the refusal on, in which at least half the requests sent were
//! answered 2xx), set against its `Retry-After` (whole seconds).
//!
//! Usage: weir-lab-overload --weir target/release/weir --out DIR [--seconds 15]
//! (OVERLOAD_ONLY=haproxy,weir-today keeps those gateways, written to raw-haproxy-weir-today.csv)
//!
//! `OVERLOAD_BURSTS=1` runs bursts instead of the levels ([`BURSTS`]): into idle workers, N
//! requests spread evenly over T ms (a new connection each), each kind [`BURST_ROUNDS`] times,
//! [`BURST_PAUSE`] apart, after the 100 unloaded requests that teach weir the service time
//! (lab/runs/2026-12-05-vm-overload-bursts/burst.py's rows: a burst that a short wait serves
//! should be served, issue 21). Then [`BACKGROUND_BURSTS`]: N requests at once and, from the
//! same moment, a Poisson background of R req/s for T s below the app's capacity (the levels'
//! generator, seeded per row and round, so every gateway and build sees the same arrivals).
//! `OVERLOAD_BURSTS=bg` runs only these. Writes DIR/bursts.csv (one row per burst: served,
//! refused, no answer, and weir's refusals at once and drops after a wait from `/metrics`;
//! `background_rps` and `background_s` are 0 for a burst alone, and with a background `sent`,
//! `ok_within_2s`, `ok`, `refused` and `no_answer` count burst and background together, split
//! by `burst_ok_within_2s`, `background_sent` and `background_ok_within_2s`) and DIR/bursts.md
//! (served of each burst alone, per gateway; then one line per round of each burst with a
//! background), with `-NAMES` as raw.csv's under OVERLOAD_ONLY.
//!
//! `OVERLOAD_ABANDON=1` runs, instead of the levels, clients that give up ([`run_abandon`]):
//! after the 100 unloaded requests, [`ABANDON_LEVEL`] × the capacity (160 req/s) for
//! `--seconds`, the levels' Poisson generator with one seed ([`ABANDON_SEED`]: every gateway and
//! build sees the same arrivals), where each client gives up after [`ABANDON_AFTER`] (1 s,
//! connect included; `OVERLOAD_ABANDON_MS=N` makes it N ms) and drops its connection; then the app is left to drain (its backlog and
//! handlers empty for 500 ms). Every request sends the app `id=GATEWAY-N`, N its index among the
//! arrivals, which the app records as it starts the request (`OVERLOAD_STATE`, lab/apps/
//! overload_app.py), so the requests that reached the app are known one by one, and among them
//! those whose client got no answer: work for nobody, whether the request reached the app after
//! its client gave up or the client gave up while the app worked on it. Without OVERLOAD_ONLY it
//! runs the sync gateways (nginx, haproxy, weir-today, weir-workers); the Uvicorn ones when named.
//! Writes DIR/abandon.csv (one row per gateway: sent; 2xx, all within the client's timeout, and
//! the goodput, their count per second over min(offered, 80); refused, any other status, with
//! how fast; no answer, split into given up at the timeout and failed before it; reached the
//! app, split by what the client got; the most connections seen in the app's listen backlog,
//! from the load's start until the app went idle; when the app went idle after the last client
//! ended; and weir's refusals at once and drops after a wait from `/metrics`) and
//! DIR/abandon.md (its table), with `-NAMES` under OVERLOAD_ONLY.
//!
//! Writes DIR/raw.csv (one row per gateway and level), DIR/summary.md (its main figures, with
//! the recovery after each level) and DIR/unloaded.md; each weir gateway's
//! access log (JSON, with the gateway's own `request_time`) goes to DIR/NAME-access.jsonl, and
//! each gateway's standard error to DIR/NAME.log.
//!
//! Goodput is 2xx answered within 2 s, per second, over a denominator that each column names:
//! `goodput` over min(offered, 80), where offered (`offered_rps`) is what the Poisson draw
//! actually sent in the level (issue 21's definition: a draw of 1,168 requests in 15 s at 1x
//! offers 77.9 req/s, and serving all of it is 1.0); `goodput_nominal` over min(the level's
//! nominal rate, 80), the figure of the runs before 2026-12-04; `goodput_ceiling` over
//! min(offered, `ceiling_rps`), the app's measured ceiling: the 2xx within 2 s per second of
//! `weir-workers`' 10x level (a capped gateway at 10x keeps all 4 workers busy, so this is what
//! the app really serves, below 80 as a sync worker also accepts and closes a connection per
//! request); `-` when `weir-workers` did not run. `app_rps` is the app measured alone on its
//! socket right before the gateway's levels ([`measure_app`]), and `goodput_app` the goodput
//! over min(offered, `app_rps`): the same run's ceiling, without going through any gateway.
//!
//! Recovery: `recovery_goodput` is the first tail second's 2xx within 2 s over 80 (as before),
//! `recovery_goodput_app` over min(its requests, `app_rps`); `tail_refused_first_second` and
//! `tail_last_refusal_ms` (the last refused request of the tail, from the level's end) say how
//! long refusals went on. `recovered_after_ms` reads the target as a time ([`Recovered`]): the
//! earliest T after the level's end such that every request scheduled in the tail after T was
//! answered 2xx within 2 s (a refusal, no answer, or a 2xx later than 2 s is a failure; T = 0
//! when none failed), with `recovered_window_sent` / `recovered_window_ok_within_2s` /
//! `recovered_window_share`: the requests scheduled in (T, T + 1 s] and those served, and
//! `tail_failed_*`: the tail's failures by how they failed (refused within one service time,
//! refused later, a 2xx over 2 s, no answer). For weir, `/metrics` is read every 100 ms: the limit, and
//! `weir_pool_refusals_total` by reason, written to DIR/series.csv; raw.csv splits the refusals
//! into those at once (`at_once_*`: predicted wait, standing queue, queue full) and the waiters
//! dropped after a wait (`drops_*`), in the level, its first second, and the tail.

use std::fmt::Write as _;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::Arc;
use std::time::Duration;

use anyhow::{bail, Context};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::time::Instant;
use weir_testkit::gunicorn::{App, Gunicorn};

/// The app's capacity: 4 sync workers × 1 / 50 ms.
const WORKERS: u32 = 4;
const SERVICE_MS: u64 = 50;
const CAPACITY: f64 = WORKERS as f64 * 1000.0 / SERVICE_MS as f64;
/// A 2xx counts as goodput when it came within this.
const GOOD_WITHIN: Duration = Duration::from_secs(2);
/// A request gets no answer after this: counted as a time-out.
const CLIENT_TIMEOUT: Duration = Duration::from_secs(10);
const LEVELS: [f64; 3] = [1.0, 2.0, 10.0];
/// The 1x load that follows each level, for its recovery and the real time to a served retry.
const TAIL_SECONDS: u64 = 3;
/// The windows in which the share of requests served is judged.
const WINDOW: Duration = Duration::from_millis(100);

/// The bursts of `OVERLOAD_BURSTS=1`: (requests, spread over ms), burst.py's rows. 120 at once
/// is more than weir's room for 4 workers of 50 ms (80 waiters: 20 service times) admits.
const BURSTS: [(u32, u64); 8] = [
    (30, 0),
    (60, 0),
    (120, 0),
    (60, 100),
    (60, 200),
    (60, 300),
    (60, 400),
    (120, 600),
];
/// The bursts on top of a background load below capacity: (requests at once, background
/// req/s, background seconds). At time 0 the burst's requests all start, and so does an
/// open-loop Poisson background ([`offer`]) for its seconds; 40 and 60 req/s are half and
/// three quarters of the app's 80, so the burst's queue drains into workers that the
/// background also wants.
const BACKGROUND_BURSTS: [(u32, f64, u64); 3] = [(60, 40.0, 3), (120, 40.0, 3), (120, 60.0, 3)];
/// How many times each burst runs, and the pause before each (the queue empties, and a standing
/// queue's refusals lapse). A round ends when its last answer came, so the pause starts with
/// nothing in the gateway; it is longer than the longest wait a request can have there (the 2 s
/// `queue_timeout`), so any state a wait left lapses before the next round.
const BURST_ROUNDS: usize = 3;
const BURST_PAUSE: Duration = Duration::from_secs(3);

/// One row of raw.csv but its ceiling columns, which wait for `weir-workers`' 10x level.
struct Row {
    line: String,
    /// The row of DIR/summary.md: goodput, served p99, refusals, and the recovery after.
    summary: String,
    gateway: &'static str,
    level: f64,
    /// 2xx within [`GOOD_WITHIN`] per second of the level.
    per_second: f64,
    /// Requests the draw sent per second of the level.
    offered: f64,
    /// The columns of [`Recovered`], which raw.csv puts after the ceiling's.
    recovered: String,
}

struct Options {
    weir: PathBuf,
    out: PathBuf,
    seconds: u64,
}

fn options() -> anyhow::Result<Options> {
    let mut args = std::env::args().skip(1);
    let (mut weir, mut out, mut seconds) = (None, None, 15);
    while let Some(arg) = args.next() {
        let mut value = || args.next().with_context(|| format!("{arg} needs a value"));
        match arg.as_str() {
            "--weir" => weir = Some(PathBuf::from(value()?)),
            "--out" => out = Some(PathBuf::from(value()?)),
            "--seconds" => seconds = value()?.parse()?,
            other => bail!("unknown argument {other}"),
        }
    }
    Ok(Options {
        weir: weir.context("--weir PATH")?,
        out: out.context("--out DIR")?,
        seconds,
    })
}

/// One request's outcome.
struct Sample {
    /// Its scheduled time, from the start of the level.
    at: Duration,
    /// From its scheduled time to the end of the answer.
    latency: Duration,
    /// 0: no answer (connect error, reset, time-out).
    status: u16,
    retry_after: Option<u64>,
    /// Its index among the arrivals of its [`offer`] (0 for a request of no offer): the `N` of
    /// the id it sent the app, if it sent one ([`Client::ids`]).
    arrival: usize,
}

/// How the generator's clients behave.
#[derive(Clone, Copy)]
struct Client {
    /// How long one waits for its whole answer (connect included) before it gives up and drops
    /// its connection.
    timeout: Duration,
    /// When set, each request sends the app `id=PREFIX-N` (N its [`Sample::arrival`]), which
    /// the app records as it starts the request (`Gunicorn::seen`): which requests reached it.
    ids: Option<&'static str>,
}

/// The clients of the levels and bursts: they wait [`CLIENT_TIMEOUT`] and send no id.
const PATIENT: Client = Client {
    timeout: CLIENT_TIMEOUT,
    ids: None,
};

/// A small xorshift generator: the arrivals need randomness, not cryptography.
struct Rng(u64);

impl Rng {
    fn unit(&mut self) -> f64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        ((self.0 >> 11) as f64 + 0.5) / (1u64 << 53) as f64
    }
}

/// One request for the app's work on a fresh `stream` (`Connection: close`), with `id` for the
/// app to record if given: the whole answer, or `None` when the exchange failed.
async fn work<S: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin>(
    mut stream: S,
    id: Option<&str>,
) -> Option<Vec<u8>> {
    let id = id.map_or(String::new(), |id| format!("&id={id}"));
    stream
        .write_all(
            format!(
                "GET /work?ms={SERVICE_MS}{id} HTTP/1.1\r\nHost: app\r\nConnection: close\r\n\r\n"
            )
            .as_bytes(),
        )
        .await
        .ok()?;
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).await.ok()?;
    Some(answer)
}

async fn one_request(addr: SocketAddr, scheduled: Instant, at: Duration) -> Sample {
    one_request_as(addr, scheduled, at, PATIENT, 0).await
}

/// One request by `client`, the `arrival`-th of its offer; a client that gives up drops the
/// exchange, and with it its connection.
async fn one_request_as(
    addr: SocketAddr,
    scheduled: Instant,
    at: Duration,
    client: Client,
    arrival: usize,
) -> Sample {
    let id = client.ids.map(|prefix| format!("{prefix}-{arrival}"));
    let exchange = async {
        work(
            tokio::net::TcpStream::connect(addr).await.ok()?,
            id.as_deref(),
        )
        .await
    };
    let answer = tokio::time::timeout(client.timeout, exchange)
        .await
        .ok()
        .flatten()
        .unwrap_or_default();
    let text = String::from_utf8_lossy(&answer);
    let status = text
        .split_whitespace()
        .nth(1)
        .and_then(|code| code.parse().ok())
        .unwrap_or(0);
    let retry_after = text
        .lines()
        .take_while(|line| !line.is_empty())
        .find_map(|line| {
            let (name, value) = line.split_once(':')?;
            name.eq_ignore_ascii_case("retry-after")
                .then(|| value.trim().parse().ok())
                .flatten()
        });
    Sample {
        at,
        latency: scheduled.elapsed(),
        status,
        retry_after,
        arrival,
    }
}

/// How long the app is measured alone before a sync gateway's levels, and with how many
/// clients at once (twice its workers, so that none idles between requests).
const APP_SECONDS: u64 = 4;
const APP_CLIENTS: u32 = 2 * WORKERS;

/// The app's own ceiling, measured straight on its socket just before a gateway's levels: a
/// closed loop of [`APP_CLIENTS`] clients, a new connection per request as the gateways make
/// them, for [`APP_SECONDS`]; the 2xx per second. What the machine lets the app serve now,
/// which moves with the machine's load (73.8 to 78.9 req/s in the runs of 2026-12-04), where
/// the denominator is the nominal 80.
async fn measure_app(socket: &Path) -> f64 {
    let end = Instant::now() + Duration::from_secs(APP_SECONDS);
    let mut clients = Vec::new();
    for _ in 0..APP_CLIENTS {
        let socket = socket.to_path_buf();
        clients.push(tokio::spawn(async move {
            let mut served = 0u32;
            while Instant::now() < end {
                let exchange = async {
                    work(tokio::net::UnixStream::connect(&socket).await.ok()?, None).await
                };
                if let Some(answer) = exchange.await {
                    served += u32::from(
                        answer.starts_with(b"HTTP/1.1 2") || answer.starts_with(b"HTTP/1.0 2"),
                    );
                }
            }
            served
        }));
    }
    let mut served = 0;
    for client in clients {
        served += client.await.unwrap_or(0);
    }
    served as f64 / APP_SECONDS as f64
}

/// Switches every worker of the app on `socket` to `mode` (`GET /mode?set=MODE`).
async fn set_mode(socket: &Path, mode: &str) -> anyhow::Result<()> {
    let mut stream = tokio::net::UnixStream::connect(socket).await?;
    stream
        .write_all(
            format!("GET /mode?set={mode} HTTP/1.1\r\nHost: app\r\nConnection: close\r\n\r\n")
                .as_bytes(),
        )
        .await?;
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).await?;
    if !answer.starts_with(b"HTTP/1.1 200") {
        bail!("the app did not switch to {mode}");
    }
    Ok(())
}

/// Offers each phase's rate (req/s) for its seconds, one after the other, Poisson arrivals, each
/// request made by `client`; waits for every answer (or its client's giving up).
async fn offer(addr: SocketAddr, phases: &[(f64, u64)], seed: u64, client: Client) -> Vec<Sample> {
    let mut rng = Rng(seed | 1);
    let start = Instant::now();
    let mut next = start;
    let mut tasks = Vec::new();
    let mut phase_end = start;
    for &(rate, seconds) in phases {
        phase_end += Duration::from_secs(seconds);
        loop {
            next += Duration::from_secs_f64(-rng.unit().ln() / rate);
            if next >= phase_end {
                next = phase_end;
                break;
            }
            tokio::time::sleep_until(next).await;
            let scheduled = next;
            tasks.push(tokio::spawn(one_request_as(
                addr,
                scheduled,
                scheduled - start,
                client,
                tasks.len(),
            )));
        }
    }
    let mut samples = Vec::with_capacity(tasks.len());
    for task in tasks {
        if let Ok(sample) = task.await {
            samples.push(sample);
        }
    }
    samples
}

/// Reads the backlog of `socket` every 20 ms until `stop`; gives the most seen.
fn watch_backlog(socket: PathBuf, stop: Arc<AtomicBool>, most: Arc<AtomicU32>) {
    std::thread::spawn(move || {
        while !stop.load(Ordering::Relaxed) {
            if let Some(depth) = backlog(&socket) {
                most.fetch_max(depth, Ordering::Relaxed);
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    });
}

fn backlog(socket: &Path) -> Option<u32> {
    let output = Command::new("ss").arg("-lxn").output().ok()?;
    let text = String::from_utf8_lossy(&output.stdout);
    let line = text.lines().find(|line| {
        line.split_whitespace()
            .any(|field| Path::new(field) == socket)
    })?;
    line.split_whitespace().nth(2)?.parse().ok()
}

fn percentile(sorted: &[Duration], fraction: f64) -> Option<Duration> {
    if sorted.is_empty() {
        return None;
    }
    let index = ((sorted.len() as f64 * fraction).ceil() as usize).clamp(1, sorted.len()) - 1;
    Some(sorted[index])
}

fn ms(value: Option<Duration>) -> String {
    value.map_or("-".into(), |value| {
        format!("{:.1}", value.as_secs_f64() * 1000.0)
    })
}

fn free_port() -> anyhow::Result<u16> {
    Ok(std::net::TcpListener::bind("127.0.0.1:0")?
        .local_addr()?
        .port())
}

async fn wait_accepting(addr: SocketAddr) -> anyhow::Result<()> {
    for _ in 0..200 {
        if tokio::net::TcpStream::connect(addr).await.is_ok() {
            return Ok(());
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    bail!("{addr} never accepted")
}

/// A gateway under test, stopped when dropped (nginx by its own drop).
struct Running {
    child: Option<Child>,
    _nginx: Option<weir_testkit::nginx::Nginx>,
}

impl Drop for Running {
    fn drop(&mut self) {
        if let Some(child) = &mut self.child {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

struct Gateway {
    name: &'static str,
    setting: &'static str,
    /// The app under Uvicorn workers rather than sync ones.
    asgi: bool,
    /// The Uvicorn app in its `block` mode: each request holds its worker's loop for its 50 ms
    /// (a blocking call in an async app), so its capacity is the sync app's, 80 req/s, and
    /// concurrency over the 4 workers only adds latency.
    block: bool,
}

const GATEWAYS: [Gateway; 6] = [
    Gateway {
        name: "nginx",
        setting: "max_conns=4 (no queue in OSS)",
        asgi: false,
        block: false,
    },
    Gateway {
        name: "haproxy",
        setting: "maxconn 4, timeout queue 2s, abortonclose",
        asgi: false,
        block: false,
    },
    Gateway {
        name: "weir-today",
        setting: "max_connections = 4, queue_timeout = \"2s\"",
        asgi: false,
        block: false,
    },
    Gateway {
        name: "weir-workers",
        setting: "workers = 4, queue_timeout = \"2s\"",
        asgi: false,
        block: false,
    },
    Gateway {
        name: "weir-async",
        setting: "Uvicorn: workers = 4, worker_class = \"async\" (threads 32: limit 4 to 128), queue_timeout = \"2s\"",
        asgi: true,
        block: false,
    },
    Gateway {
        name: "weir-async-block",
        setting: "Uvicorn, each request blocking its worker 50 ms (capacity 80 req/s): workers = 4, worker_class = \"async\" (threads 32: limit 4 to 128), queue_timeout = \"2s\"",
        asgi: true,
        block: true,
    },
];

/// Starts `gateway` in front of the app on `socket`: the running gateway, its address, and its
/// admin address (weir only).
fn start(
    gateway: &Gateway,
    options: &Options,
    dir: &Path,
    socket: &Path,
) -> anyhow::Result<(Running, SocketAddr, Option<SocketAddr>)> {
    let socket = socket.display();
    if gateway.name == "nginx" {
        let http = |addr: SocketAddr| {
            format!(
                "    upstream app {{ server unix:{socket} max_conns=4; }}\n    server {{\n        listen {addr};\n        location / {{ proxy_pass http://app; }}\n    }}\n"
            )
        };
        let nginx = weir_testkit::nginx::Nginx::start_with(&http)?;
        let addr = nginx.addr;
        return Ok((
            Running {
                child: None,
                _nginx: Some(nginx),
            },
            addr,
            None,
        ));
    }
    let addr = SocketAddr::from(([127, 0, 0, 1], free_port()?));
    let mut admin = None;
    let mut command = match gateway.name {
        "haproxy" => {
            let config = dir.join("haproxy.cfg");
            std::fs::write(
                &config,
                format!(
                    "global\n  maxconn 20000\n  no strict-limits\ndefaults\n  mode http\n  timeout connect 5s\n  timeout client 30s\n  timeout server 30s\n  timeout queue 2s\n  option abortonclose\nfrontend lab\n  bind {addr}\n  default_backend app\nbackend app\n  server app unix@{socket} maxconn 4\n"
                ),
            )?;
            let mut command = Command::new("/usr/sbin/haproxy");
            command.arg("-f").arg(config).arg("-db");
            command
        }
        _ => {
            let cap = match gateway.name {
                "weir-workers" => "workers = 4",
                "weir-async" | "weir-async-block" => "workers = 4\nworker_class = \"async\"",
                _ => "max_connections = 4",
            };
            let admin_addr = SocketAddr::from(([127, 0, 0, 1], free_port()?));
            admin = Some(admin_addr);
            let config = dir.join(format!("{}.toml", gateway.name));
            // The gateway's own time per request (`request_time`), a refusal's among them.
            let access_log = options
                .out
                .join(format!("{}-access.jsonl", gateway.name))
                .display()
                .to_string();
            std::fs::write(
                &config,
                format!(
                    "[server]\nlisten = [\"{addr}\"]\nmax_connections = 20000\n[admin]\nlisten = \"{admin_addr}\"\n[access_log]\nenabled = true\nformat = \"json\"\npath = \"{access_log}\"\n[upstreams.app]\nservers = [\"unix:{socket}\"]\n{cap}\nqueue_timeout = \"2s\"\n[[routes]]\npath = \"/\"\nupstream = \"app\"\n"
                ),
            )?;
            let mut command = Command::new(&options.weir);
            command.arg("run").arg("--config").arg(config);
            command
        }
    };
    // Kept beside the results (the work dir goes with the run): weir's warnings and debug
    // lines, nginx's and HAProxy's errors.
    command.stdout(Stdio::null()).stderr(std::fs::File::create(
        options.out.join(format!("{}.log", gateway.name)),
    )?);
    let child = command.spawn().with_context(|| gateway.name)?;
    Ok((
        Running {
            child: Some(child),
            _nginx: None,
        },
        addr,
        admin,
    ))
}

/// The reasons of `weir_pool_refusals_total`, in the order of [`Scrape::refusals`].
const REASONS: [&str; 4] = [
    "predicted_wait",
    "standing_queue",
    "queue_full",
    "standing_drop",
];

/// One reading of weir's `/metrics` for the upstream `app`.
#[derive(Clone, Copy, Default)]
struct Scrape {
    /// Since the level started.
    at: Duration,
    /// `weir_pool_limit`.
    limit: Option<u32>,
    /// `weir_pool_refusals_total` by reason ([`REASONS`]), so far.
    refusals: [u64; 4],
}

/// `count` requests spread evenly over `spread` (the i-th at `spread × i ÷ count`), a new
/// connection each; waits for every answer.
async fn burst(addr: SocketAddr, count: u32, spread: Duration) -> Vec<Sample> {
    let start = Instant::now();
    let tasks: Vec<_> = (0..count)
        .map(|index| {
            let at = spread * index / count;
            tokio::spawn(async move {
                tokio::time::sleep_until(start + at).await;
                one_request(addr, start + at, at).await
            })
        })
        .collect();
    let mut samples = Vec::with_capacity(tasks.len());
    for task in tasks {
        if let Ok(sample) = task.await {
            samples.push(sample);
        }
    }
    samples
}

/// One round of a burst: its requests' samples, the background's (empty without one), and
/// weir's refusals over the round from `/metrics` (`-` for other gateways).
struct BurstRound {
    burst: Vec<Sample>,
    background: Vec<Sample>,
    /// Refused at once: predicted wait, standing queue, queue full.
    at_once: String,
    /// Dropped after a wait.
    drops: String,
}

/// Runs one round: `count` requests over `spread` ([`burst`]) and, from the same moment, when
/// `background` is given as (req/s, seconds, seed), the levels' Poisson load ([`offer`]) for
/// those seconds; ends when every answer of both came.
async fn burst_round(
    addr: SocketAddr,
    admin: Option<SocketAddr>,
    count: u32,
    spread: Duration,
    background: Option<(f64, u64, u64)>,
) -> BurstRound {
    let zero = Instant::now();
    let before = match admin {
        Some(admin) => scrape(admin, Duration::ZERO).await,
        None => None,
    };
    // Both start in the same poll of `join!`: the burst's tasks are spawned at once, and the
    // background's clock starts microseconds after the burst's.
    let (burst, background) = match background {
        Some((rate, seconds, seed)) => {
            let phases = [(rate, seconds)];
            tokio::join!(
                burst(addr, count, spread),
                offer(addr, &phases, seed, PATIENT)
            )
        }
        None => (burst(addr, count, spread).await, Vec::new()),
    };
    let after = match admin {
        Some(admin) => scrape(admin, zero.elapsed()).await,
        None => None,
    };
    let (at_once, drops) = refused_between(before, after);
    BurstRound {
        burst,
        background,
        at_once,
        drops,
    }
}

/// What [`run_bursts`] gives bursts.md for one gateway.
struct BurstsServed {
    /// The served of each burst alone, per kind ([`BURSTS`]), one per round; empty under
    /// `OVERLOAD_BURSTS=bg`.
    alone: Vec<Vec<usize>>,
    /// The lines of bursts.md's table of bursts with a background, one per round.
    background: Vec<String>,
}

/// Runs [`BURSTS`] (unless `background_only`), then [`BACKGROUND_BURSTS`], against `gateway`
/// at `addr`: one line of bursts.csv per round, and what bursts.md shows of each.
async fn run_bursts(
    gateway: &Gateway,
    addr: SocketAddr,
    admin: Option<SocketAddr>,
    background_only: bool,
    csv: &mut String,
) -> BurstsServed {
    let alone: &[(u32, u64)] = if background_only { &[] } else { &BURSTS };
    // A kind: requests, spread over ms, and its background (req/s, seconds, its index in
    // [`BACKGROUND_BURSTS`]) if any.
    let kinds = alone
        .iter()
        .map(|&(count, spread_ms)| (count, spread_ms, None))
        .chain(
            BACKGROUND_BURSTS
                .iter()
                .enumerate()
                .map(|(index, &(count, rate, seconds))| (count, 0, Some((rate, seconds, index)))),
        );
    let mut served = BurstsServed {
        alone: Vec::new(),
        background: Vec::new(),
    };
    for (count, spread_ms, background) in kinds {
        let mut served_each = Vec::new();
        for round in 0..BURST_ROUNDS {
            tokio::time::sleep(BURST_PAUSE).await;
            // The same arrivals for every gateway and every build, in either mode: a seed per
            // background row and round, kept off bit 0, which `Rng`'s `| 1` overwrites (rounds
            // 0 and 1 would draw the same arrivals).
            let background = background.map(|(rate, seconds, index)| {
                let seed = 0x9E37_79B9_7F4A_7C15 ^ (((0x100 + index * 16 + round) as u64) << 8);
                (rate, seconds, seed)
            });
            let outcome = burst_round(
                addr,
                admin,
                count,
                Duration::from_millis(spread_ms),
                background,
            )
            .await;
            let all: Vec<&Sample> = outcome.burst.iter().chain(&outcome.background).collect();
            let burst_served = outcome.burst.iter().filter(|s| good(s)).count();
            let background_served = outcome.background.iter().filter(|s| good(s)).count();
            let ok = all
                .iter()
                .filter(|s| (200..300).contains(&s.status))
                .count();
            let no_answer = all.iter().filter(|s| s.status == 0).count();
            let refused = all.len() - ok - no_answer;
            let mut latencies: Vec<Duration> = all
                .iter()
                .filter(|s| (200..300).contains(&s.status))
                .map(|s| s.latency)
                .collect();
            latencies.sort();
            let p99 = ms(percentile(&latencies, 0.99));
            let (rate, seconds, _) = background.unwrap_or((0.0, 0, 0));
            let line = format!(
                "{},\"{}\",{count},{spread_ms},{round},{},{},{ok},{refused},{no_answer},{},{},{p99},{rate},{seconds},{burst_served},{},{background_served}",
                gateway.name,
                gateway.setting.replace('"', "'"),
                all.len(),
                burst_served + background_served,
                outcome.at_once,
                outcome.drops,
                outcome.background.len(),
            );
            eprintln!("{line}");
            let _ = writeln!(csv, "{line}");
            if background.is_some() {
                served.background.push(format!(
                    "| {} | {count} at once + {rate} req/s for {seconds} s | {round} | {burst_served} of {count} | {background_served} of {} | {} of {} | {} | {} | {p99} |",
                    gateway.name,
                    outcome.background.len(),
                    burst_served + background_served,
                    all.len(),
                    outcome.at_once,
                    outcome.drops,
                ));
            } else {
                served_each.push(burst_served);
            }
        }
        if background.is_none() {
            served.alone.push(served_each);
        }
    }
    served
}

/// `OVERLOAD_ABANDON=1`: the load, 2x the app's capacity, and how long each of its clients
/// waits before it gives up and drops its connection unless `OVERLOAD_ABANDON_MS` says.
const ABANDON_LEVEL: f64 = 2.0;
const ABANDON_AFTER: Duration = Duration::from_secs(1);
/// One seed for every gateway and build: the same arrivals.
const ABANDON_SEED: u64 = 0x9E37_79B9_7F4A_7C15 ^ 0xAB00;
/// The app is idle once its backlog and its handlers stayed empty this long; waited for at most
/// [`DRAIN_DEADLINE`].
const DRAINED_FOR: Duration = Duration::from_millis(500);
const DRAIN_DEADLINE: Duration = Duration::from_secs(60);

/// Waits until the app on `app` has been idle for [`DRAINED_FOR`] (nothing in its listen
/// backlog, no `/work` in a handler); gives the time until it went idle, `None` past
/// [`DRAIN_DEADLINE`].
async fn drained(app: &Gunicorn) -> Option<Duration> {
    let start = Instant::now();
    let mut idle_since = None;
    while start.elapsed() < DRAIN_DEADLINE {
        let idle = backlog(&app.socket()) == Some(0) && app.in_app() == 0;
        match (idle, idle_since) {
            (false, _) => idle_since = None,
            (true, None) => idle_since = Some(start.elapsed()),
            (true, Some(since)) if start.elapsed() - since >= DRAINED_FOR => return Some(since),
            (true, Some(_)) => {}
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    None
}

/// Runs `OVERLOAD_ABANDON=1` against `gateway` at `addr`: [`ABANDON_LEVEL`] × the capacity for
/// `seconds`, open loop, every client giving up after `give_up`; then waits for the app to
/// drain. Gives the line of abandon.csv and the row of abandon.md.
async fn run_abandon(
    gateway: &Gateway,
    app: &Gunicorn,
    addr: SocketAddr,
    admin: Option<SocketAddr>,
    seconds: u64,
    give_up: Duration,
) -> (String, String) {
    let socket = app.socket();
    let stop = Arc::new(AtomicBool::new(false));
    let most = Arc::new(AtomicU32::new(0));
    watch_backlog(socket, Arc::clone(&stop), Arc::clone(&most));
    let before = match admin {
        Some(admin) => scrape(admin, Duration::ZERO).await,
        None => None,
    };
    let client = Client {
        timeout: give_up,
        ids: Some(gateway.name),
    };
    let samples = offer(
        addr,
        &[(ABANDON_LEVEL * CAPACITY, seconds)],
        ABANDON_SEED,
        client,
    )
    .await;
    // From the last client's end (answered or gone): what the app still had to do.
    let drain = drained(app).await;
    stop.store(true, Ordering::Relaxed);
    let after = match admin {
        Some(admin) => scrape(admin, Duration::ZERO).await,
        None => None,
    };
    let (at_once, drops) = refused_between(before, after);
    // The arrivals that reached the app: the ids it recorded with this gateway's prefix (the
    // app is shared by the gateways one after another, and the warm-up sends no id).
    let mut reached = vec![false; samples.len()];
    let mut reached_unknown = 0usize;
    for id in app.seen() {
        let arrival = id
            .rsplit_once('-')
            .filter(|(prefix, _)| *prefix == gateway.name)
            .and_then(|(_, arrival)| arrival.parse::<usize>().ok());
        match arrival {
            Some(arrival) if arrival < reached.len() => reached[arrival] = true,
            Some(_) => reached_unknown += 1,
            None => {}
        }
    }
    let sent = samples.len();
    let offered = sent as f64 / seconds as f64;
    let is_ok = |sample: &Sample| (200..300).contains(&sample.status);
    let mut served: Vec<Duration> = samples
        .iter()
        .filter(|s| is_ok(s))
        .map(|s| s.latency)
        .collect();
    served.sort();
    let ok = served.len();
    let goodput = ok as f64 / seconds as f64 / offered.clamp(f64::MIN_POSITIVE, CAPACITY);
    let refused: Vec<&Sample> = samples
        .iter()
        .filter(|s| s.status != 0 && !is_ok(s))
        .collect();
    let mut statuses: Vec<String> = refused.iter().map(|s| s.status.to_string()).collect();
    statuses.sort();
    statuses.dedup();
    let mut refusal: Vec<Duration> = refused.iter().map(|s| s.latency).collect();
    refusal.sort();
    // No answer: given up at the timeout, or the exchange failed before it (connect error,
    // reset, a close without a status line).
    let no_answer: Vec<&Sample> = samples.iter().filter(|s| s.status == 0).collect();
    let gave_up = no_answer.iter().filter(|s| s.latency >= give_up).count();
    let failed = no_answer.len() - gave_up;
    let at_app = |keep: &dyn Fn(&Sample) -> bool| {
        samples
            .iter()
            .filter(|s| keep(s) && reached.get(s.arrival).copied().unwrap_or(false))
            .count()
    };
    let reached_all = at_app(&|_| true);
    let reached_ok = at_app(&is_ok);
    let reached_no_answer = at_app(&|s| s.status == 0);
    let reached_refused = reached_all - reached_ok - reached_no_answer;
    let backlog_max = most.load(Ordering::Relaxed);
    let drain_ms = drain.map_or("-".into(), |drain| drain.as_millis().to_string());
    let setting = gateway.setting.replace('"', "'");
    let line = format!(
        "{},\"{setting}\",{ABANDON_LEVEL},{},{seconds},{offered:.1},{sent},{ok},{goodput:.3},{},{},{},{},{},{},{},{gave_up},{failed},{reached_all},{reached_ok},{reached_no_answer},{reached_refused},{reached_unknown},{backlog_max},{drain_ms},{at_once},{drops}",
        gateway.name,
        give_up.as_millis(),
        ms(percentile(&served, 0.5)),
        ms(percentile(&served, 0.99)),
        refused.len(),
        statuses.join(" "),
        ms(percentile(&refusal, 0.5)),
        ms(percentile(&refusal, 0.99)),
        no_answer.len(),
    );
    eprintln!("{line}");
    let row = format!(
        "| {} | {sent} ({offered:.1} req/s) | {ok} ({goodput:.3}) | {} | {}{} | {} / {} | {gave_up} + {failed} | **{reached_all}** | **{reached_no_answer}** | {backlog_max} | {drain_ms} | {at_once} / {drops} |",
        gateway.name,
        ms(percentile(&served, 0.99)),
        refused.len(),
        if statuses.is_empty() {
            String::new()
        } else {
            format!(" ({})", statuses.join(" "))
        },
        ms(percentile(&refusal, 0.5)),
        ms(percentile(&refusal, 0.99)),
    );
    (line, row)
}

/// Reads `weir_pool_limit` and `weir_pool_refusals_total` of the upstream `app` on weir's
/// `/metrics`.
async fn scrape(admin: SocketAddr, at: Duration) -> Option<Scrape> {
    let exchange = async {
        let mut stream = tokio::net::TcpStream::connect(admin).await.ok()?;
        stream
            .write_all(b"GET /metrics HTTP/1.1\r\nHost: admin\r\nConnection: close\r\n\r\n")
            .await
            .ok()?;
        let mut answer = Vec::new();
        stream.read_to_end(&mut answer).await.ok()?;
        Some(answer)
    };
    let answer = tokio::time::timeout(Duration::from_secs(2), exchange)
        .await
        .ok()??;
    let text = String::from_utf8_lossy(&answer);
    let value = |line: &str| {
        line.rsplit(' ')
            .next()
            .and_then(|value| value.parse::<u64>().ok())
    };
    let mut scrape = Scrape {
        at,
        ..Scrape::default()
    };
    for line in text.lines() {
        if line.starts_with("weir_pool_limit{upstream=\"app\"") {
            scrape.limit = value(line).and_then(|limit| u32::try_from(limit).ok());
        } else if line.starts_with("weir_pool_refusals_total{upstream=\"app\"") {
            for (index, reason) in REASONS.iter().enumerate() {
                if line.contains(&format!("reason=\"{reason}\"")) {
                    scrape.refusals[index] = value(line).unwrap_or(0);
                }
            }
        }
    }
    Some(scrape)
}

/// Reads the metrics every 100 ms until `stop`: the readings, in order.
fn watch_metrics(
    admin: SocketAddr,
    start: Instant,
    stop: Arc<AtomicBool>,
) -> tokio::task::JoinHandle<Vec<Scrape>> {
    tokio::spawn(async move {
        let mut seen = Vec::new();
        while !stop.load(Ordering::Relaxed) {
            if let Some(reading) = scrape(admin, start.elapsed()).await {
                seen.push(reading);
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        // One more once every answer came: the counts of the whole level and its tail.
        if let Some(reading) = scrape(admin, start.elapsed()).await {
            seen.push(reading);
        }
        seen
    })
}

/// weir's refusals at once and drops after a wait between two scrapes of `/metrics`, as
/// text; `-` without both.
fn refused_between(before: Option<Scrape>, after: Option<Scrape>) -> (String, String) {
    let (Some(before), Some(after)) = (before, after) else {
        return ("-".into(), "-".into());
    };
    let counts: [u64; 4] =
        std::array::from_fn(|index| after.refusals[index].saturating_sub(before.refusals[index]));
    (
        (counts[0] + counts[1] + counts[2]).to_string(),
        counts[3].to_string(),
    )
}

/// The refusals by reason between the last readings at or before `from` and `to` (the first
/// reading stands for the level's start).
fn refusals_between(series: &[Scrape], from: Duration, to: Duration) -> [u64; 4] {
    let at = |time: Duration| {
        series
            .iter()
            .rev()
            .find(|reading| reading.at <= time)
            .or(series.first())
            .map_or([0; 4], |reading| reading.refusals)
    };
    let (before, after) = (at(from), at(to));
    std::array::from_fn(|index| after[index].saturating_sub(before[index]))
}

/// Whether a sample counts as served: a 2xx within [`GOOD_WITHIN`].
fn good(sample: &Sample) -> bool {
    (200..300).contains(&sample.status) && sample.latency <= GOOD_WITHIN
}

/// How a failed request of a tail failed (issue 21: which requests fail after the spike).
#[derive(Debug, Default, PartialEq)]
struct Failures {
    /// Non-2xx answered within one service time ([`SERVICE_MS`]) of its scheduled time: refused
    /// without a wait.
    refused_at_once: usize,
    /// Non-2xx answered later: dropped after a wait in the queue (or refused late).
    refused_after_wait: usize,
    /// 2xx, but later than [`GOOD_WITHIN`].
    served_late: usize,
    /// No answer at all (connect error, reset, time-out).
    no_answer: usize,
}

/// When the tail after a level was served in full again (issue 21: "after the spike, full
/// goodput again within 1 s"), read as a time.
#[derive(Debug, PartialEq)]
struct Recovered {
    /// The earliest time T after the level's end such that every request scheduled in the tail
    /// after T was served ([`good`]: a 2xx within [`GOOD_WITHIN`]); a request counts as failed
    /// when it was refused (any non-2xx), got no answer, or got its 2xx later than
    /// [`GOOD_WITHIN`]. T is the scheduled time of the tail's last failed request (every
    /// request strictly after it was served), rounded up to the millisecond; zero when none
    /// failed. Censored by the tail's end: a T within the tail's last second says the tail
    /// ended before a full second was seen served.
    after: Duration,
    /// The requests scheduled in the second after T (after T, up to T + 1 s; from the level's
    /// end, inclusive, when none failed), and how many of them were served: the share is 1 by
    /// the definition of T, so what the pair shows is how many requests that second held (a
    /// full second at 1x holds ~80; fewer means the tail ended inside it).
    window_sent: usize,
    window_served: usize,
    /// The failures of the tail, by how they failed.
    failures: Failures,
}

/// [`Recovered`] for the requests of `samples` scheduled from `level_end` on (the tail; the
/// caller's trace ends with it).
fn recovered_after(samples: &[Sample], level_end: Duration) -> Recovered {
    let mut tail: Vec<&Sample> = samples.iter().filter(|s| s.at >= level_end).collect();
    tail.sort_by_key(|sample| sample.at);
    let mut failures = Failures::default();
    for sample in tail.iter().filter(|s| !good(s)) {
        let kind = match sample.status {
            0 => &mut failures.no_answer,
            200..=299 => &mut failures.served_late,
            _ if sample.latency <= Duration::from_millis(SERVICE_MS) => {
                &mut failures.refused_at_once
            }
            _ => &mut failures.refused_after_wait,
        };
        *kind += 1;
    }
    let last_failed = tail.iter().rposition(|s| !good(s));
    let (after, window) = match last_failed {
        Some(index) => {
            let at = tail[index].at - level_end;
            let after = Duration::from_millis(at.as_nanos().div_ceil(1_000_000) as u64);
            (after, &tail[index + 1..])
        }
        None => (Duration::ZERO, &tail[..]),
    };
    let window: Vec<&&Sample> = window
        .iter()
        .take_while(|s| s.at - level_end <= after + Duration::from_secs(1))
        .collect();
    Recovered {
        after,
        window_sent: window.len(),
        window_served: window.iter().filter(|s| good(s)).count(),
        failures,
    }
}

/// What became of the refusals' `Retry-After`: the real time until a retry would be served
/// (from the refusal's answer, the start of the first [`WINDOW`] of scheduled requests in which
/// at least half were served), and whether a retry at the header's time would be (the share
/// served in the window it falls in).
struct RetryAccuracy {
    /// Refusals with a header and a real time (a served window came before the trace ended).
    judged: usize,
    /// Their real times, median, milliseconds.
    real_p50_ms: Option<f64>,
    /// The share whose header is within ±20% of the real time.
    within_20pct: f64,
    /// The mean share served in the window of `refusal + Retry-After`.
    served_at_header: f64,
}

fn retry_accuracy(samples: &[Sample]) -> RetryAccuracy {
    let end = samples.iter().map(|s| s.at).max().unwrap_or_default();
    let windows = (end.as_millis() / WINDOW.as_millis()) as usize + 1;
    let (mut sent, mut served) = (vec![0u32; windows], vec![0u32; windows]);
    for sample in samples {
        let index = (sample.at.as_millis() / WINDOW.as_millis()) as usize;
        sent[index] += 1;
        served[index] += u32::from(good(sample));
    }
    let share = |index: usize| -> Option<f64> {
        (index < windows && sent[index] >= 3).then(|| served[index] as f64 / sent[index] as f64)
    };
    let mut reals = Vec::new();
    let (mut within, mut at_header, mut judged) = (0usize, 0.0, 0usize);
    for sample in samples {
        let Some(header) = sample.retry_after else {
            continue;
        };
        let refused_at = sample.at + sample.latency;
        let first = refused_at.as_millis().div_ceil(WINDOW.as_millis()) as usize;
        let Some(index) = (first..windows).find(|&index| share(index).is_some_and(|s| s >= 0.5))
        else {
            continue;
        };
        let real = (WINDOW * index as u32).saturating_sub(refused_at);
        judged += 1;
        reals.push(real);
        let header = Duration::from_secs(header);
        if header.as_secs_f64() >= real.as_secs_f64() * 0.8
            && header.as_secs_f64() <= real.as_secs_f64() * 1.2
        {
            within += 1;
        }
        let retry = ((refused_at + header).as_millis() / WINDOW.as_millis()) as usize;
        at_header += share(retry).unwrap_or(0.0);
    }
    reals.sort();
    RetryAccuracy {
        judged,
        real_p50_ms: percentile(&reals, 0.5).map(|real| real.as_secs_f64() * 1000.0),
        within_20pct: within as f64 / judged.max(1) as f64,
        served_at_header: at_header / judged.max(1) as f64,
    }
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() -> anyhow::Result<()> {
    let options = options()?;
    std::fs::create_dir_all(&options.out)?;
    let work = tempfile::tempdir()?;
    let sync_app = Gunicorn::start(App::Overload {
        workers: WORKERS,
        asgi: false,
    });
    let mut asgi_app = None;
    let mut csv = String::from(
        "gateway,setting,level,offered_rps,sent,ok,ok_within_2s,goodput,goodput_nominal,served_share,served_p50_ms,served_p99_ms,refused,refused_statuses,refusal_p50_ms,refusal_p99_ms,retry_after_median_s,retry_judged,retry_real_p50_ms,retry_within_20pct,retry_served_at_header,recovery_sent,recovery_ok_within_2s,recovery_goodput,limit_median,limit_max,limit_last,no_answer,backlog_max,app_most_at_once,app_rps,goodput_app,recovery_goodput_app,tail_refused_first_second,tail_last_refusal_ms,at_once_level,drops_level,drops_first_second,at_once_tail,drops_tail,ceiling_rps,goodput_ceiling,recovered_after_ms,recovered_window_sent,recovered_window_ok_within_2s,recovered_window_share,tail_failed_refused_at_once,tail_failed_refused_after_wait,tail_failed_served_late,tail_failed_no_answer\n",
    );
    let mut unloaded = String::new();
    // weir's refusals by reason and its limit, every 100 ms of each level: NAME-series.csv.
    let mut series_csv = String::new();
    // Each row's line, with what its ceiling columns need once `weir-workers`' 10x level ran.
    let mut rows: Vec<Row> = Vec::new();
    // `--only a,b` keeps those gateways.
    let only = std::env::var("OVERLOAD_ONLY").unwrap_or_default();
    // `1`: every burst; `bg`: only those with a background ([`BACKGROUND_BURSTS`]).
    let bursts_mode = std::env::var("OVERLOAD_BURSTS").unwrap_or_default();
    let background_only = bursts_mode == "bg";
    let bursts = bursts_mode == "1" || background_only;
    // `1`: clients that give up ([`run_abandon`]) instead of the levels.
    let abandon = std::env::var("OVERLOAD_ABANDON").is_ok_and(|value| value == "1");
    let give_up = match std::env::var("OVERLOAD_ABANDON_MS") {
        Ok(millis) => Duration::from_millis(millis.parse().context("OVERLOAD_ABANDON_MS")?),
        Err(_) => ABANDON_AFTER,
    };
    if bursts && abandon {
        bail!("OVERLOAD_BURSTS and OVERLOAD_ABANDON are two runs: set one");
    }
    let mut abandon_csv = String::from(
        "gateway,setting,level,client_timeout_ms,seconds,offered_rps,sent,ok,goodput,served_p50_ms,served_p99_ms,refused,refused_statuses,refusal_p50_ms,refusal_p99_ms,no_answer,gave_up,failed,reached_app,reached_app_ok,reached_app_no_answer,reached_app_refused,reached_app_unknown_id,backlog_max,app_idle_after_ms,at_once,drops\n",
    );
    let mut abandon_rows = Vec::new();
    let mut bursts_csv = String::from(
        "gateway,setting,requests,spread_ms,round,sent,ok_within_2s,ok,refused,no_answer,at_once,drops,served_p99_ms,background_rps,background_s,burst_ok_within_2s,background_sent,background_ok_within_2s\n",
    );
    // Per gateway, what bursts.md shows of its bursts.
    let mut bursts_served: Vec<(&str, BurstsServed)> = Vec::new();
    for (round, gateway) in GATEWAYS.iter().enumerate() {
        if !only.is_empty() && !only.split(',').any(|name| name == gateway.name) {
            continue;
        }
        // Clients that give up: the sync gateways unless named.
        if abandon && only.is_empty() && gateway.asgi {
            continue;
        }
        let app = if gateway.asgi {
            &*asgi_app.get_or_insert_with(|| {
                Gunicorn::start(App::Overload {
                    workers: WORKERS,
                    asgi: true,
                })
            })
        } else {
            &sync_app
        };
        let socket = app.socket();
        let (running, addr, admin) = start(gateway, &options, work.path(), &socket)?;
        if let Err(error) = wait_accepting(addr).await {
            let log = std::fs::read_to_string(options.out.join(format!("{}.log", gateway.name)))
                .unwrap_or_default();
            eprintln!("{}: {error}: {log}", gateway.name);
            continue;
        }
        // The app alone, right before this gateway's levels (sync workers: the async app's
        // capacity is not its workers').
        if gateway.asgi {
            set_mode(&socket, if gateway.block { "block" } else { "ok" }).await?;
        }
        let app_rps = if bursts || abandon || (gateway.asgi && !gateway.block) {
            None
        } else {
            Some(measure_app(&socket).await)
        };
        if let Some(app_rps) = app_rps {
            eprintln!("{}: the app alone {app_rps:.1} req/s", gateway.name);
        }
        // Unloaded: 100 requests one after another.
        let mut alone = Vec::new();
        for _ in 0..100 {
            alone.push(
                one_request(addr, Instant::now(), Duration::ZERO)
                    .await
                    .latency,
            );
        }
        alone.sort();
        let _ = writeln!(
            unloaded,
            "| {} | {} ms | {} ms |",
            gateway.name,
            ms(percentile(&alone, 0.5)),
            ms(percentile(&alone, 0.99))
        );
        if bursts {
            let served = run_bursts(gateway, addr, admin, background_only, &mut bursts_csv).await;
            bursts_served.push((gateway.name, served));
            drop(running);
            continue;
        }
        if abandon {
            let (line, row) =
                run_abandon(gateway, app, addr, admin, options.seconds, give_up).await;
            let _ = writeln!(abandon_csv, "{line}");
            abandon_rows.push(row);
            drop(running);
            continue;
        }
        for (index, level) in LEVELS.iter().enumerate() {
            let rate = level * CAPACITY;
            let stop = Arc::new(AtomicBool::new(false));
            let most = Arc::new(AtomicU32::new(0));
            watch_backlog(socket.clone(), Arc::clone(&stop), Arc::clone(&most));
            let level_start = Instant::now();
            let metrics = admin.map(|admin| watch_metrics(admin, level_start, Arc::clone(&stop)));
            let seed = 0x9E37_79B9_7F4A_7C15 ^ ((round * 16 + index) as u64);
            let all = offer(
                addr,
                &[(rate, options.seconds), (CAPACITY, TAIL_SECONDS)],
                seed,
                PATIENT,
            )
            .await;
            stop.store(true, Ordering::Relaxed);
            let series = match metrics {
                Some(task) => task.await.unwrap_or_default(),
                None => Vec::new(),
            };
            for reading in &series {
                let _ = writeln!(
                    series_csv,
                    "{},{level},{},{},{}",
                    gateway.name,
                    reading.at.as_millis(),
                    reading.limit.map_or("-".into(), |limit| limit.to_string()),
                    reading.refusals.map(|count| count.to_string()).join(","),
                );
            }
            let mut limits: Vec<u32> = series.iter().filter_map(|reading| reading.limit).collect();
            let limit_last = limits.last().map_or("-".into(), u32::to_string);
            limits.sort();
            let limit_median = limits
                .get(limits.len() / 2)
                .map_or("-".into(), u32::to_string);
            let limit_max = limits.last().map_or("-".into(), u32::to_string);
            let level_end = Duration::from_secs(options.seconds);
            let retry = retry_accuracy(&all);
            let after: Vec<&Sample> = all
                .iter()
                .filter(|s| s.at >= level_end && s.at < level_end + Duration::from_secs(1))
                .collect();
            let after_good = after.iter().filter(|s| good(s)).count();
            let after_sent = after.len();
            // Refused in the tail: how many in its first second, and when the last was scheduled.
            let tail_refused = |sample: &Sample| {
                sample.at >= level_end && sample.status != 0 && !(200..300).contains(&sample.status)
            };
            let tail_refused_first_second = after.iter().filter(|s| tail_refused(s)).count();
            let tail_last_refusal_ms = all
                .iter()
                .filter(|s| tail_refused(s))
                .map(|sample| (sample.at - level_end).as_millis())
                .max()
                .map_or("-".into(), |at| at.to_string());
            let recovered = recovered_after(&all, level_end);
            let recovered_after_ms = recovered.after.as_millis();
            let recovered_share =
                recovered.window_served as f64 / recovered.window_sent.max(1) as f64;
            let failures = &recovered.failures;
            let recovered_csv = format!(
                "{recovered_after_ms},{},{},{recovered_share:.3},{},{},{},{}",
                recovered.window_sent,
                recovered.window_served,
                failures.refused_at_once,
                failures.refused_after_wait,
                failures.served_late,
                failures.no_answer,
            );
            // weir's refusals by reason: at once (refused at enqueue) or dropped after a wait,
            // in the level, its first second, and the tail.
            let second = Duration::from_secs(1);
            let by_reason = |from: Duration, to: Duration| -> (String, String) {
                if series.is_empty() {
                    return ("-".into(), "-".into());
                }
                let counts = refusals_between(&series, from, to);
                (
                    (counts[0] + counts[1] + counts[2]).to_string(),
                    counts[3].to_string(),
                )
            };
            let (at_once_level, drops_level) = by_reason(Duration::ZERO, level_end);
            let (_, drops_first_second) = by_reason(Duration::ZERO, second);
            let (at_once_tail, drops_tail) = by_reason(level_end, Duration::MAX);
            let samples: Vec<Sample> = all.into_iter().filter(|s| s.at < level_end).collect();
            let sent = samples.len();
            let ok: Vec<&Sample> = samples
                .iter()
                .filter(|s| (200..300).contains(&s.status))
                .collect();
            let ok_in_time = ok.iter().filter(|s| s.latency <= GOOD_WITHIN).count();
            let per_second = ok_in_time as f64 / options.seconds as f64;
            let offered = sent as f64 / options.seconds as f64;
            let goodput = per_second / offered.clamp(f64::MIN_POSITIVE, CAPACITY);
            let goodput_nominal = per_second / rate.min(CAPACITY);
            let mut served: Vec<Duration> = ok.iter().map(|s| s.latency).collect();
            served.sort();
            let refused: Vec<&Sample> = samples
                .iter()
                .filter(|s| s.status != 0 && !(200..300).contains(&s.status))
                .collect();
            let mut statuses: Vec<u16> = refused.iter().map(|s| s.status).collect();
            statuses.sort();
            statuses.dedup();
            let mut refusal: Vec<Duration> = refused.iter().map(|s| s.latency).collect();
            refusal.sort();
            let mut retry_header: Vec<u64> = refused.iter().filter_map(|s| s.retry_after).collect();
            retry_header.sort();
            let no_answer = samples.iter().filter(|s| s.status == 0).count();
            let statuses: Vec<String> = statuses.iter().map(u16::to_string).collect();
            let mut line = String::new();
            let _ = write!(
                line,
                "{},\"{}\",{level},{:.1},{sent},{},{ok_in_time},{goodput:.3},{goodput_nominal:.3},{:.3},{},{},{},{},{},{},{},{},{},{:.2},{:.2},{},{after_good},{:.3},{limit_median},{limit_max},{limit_last},{no_answer},{},{},{},{},{},{tail_refused_first_second},{tail_last_refusal_ms},{at_once_level},{drops_level},{drops_first_second},{at_once_tail},{drops_tail}",
                gateway.name,
                gateway.setting.replace('"', "'"),
                offered,
                ok.len(),
                ok_in_time as f64 / sent.max(1) as f64,
                ms(percentile(&served, 0.5)),
                ms(percentile(&served, 0.99)),
                refused.len(),
                statuses.join(" "),
                ms(percentile(&refusal, 0.5)),
                ms(percentile(&refusal, 0.99)),
                retry_header.get(retry_header.len() / 2).map_or("-".into(), u64::to_string),
                retry.judged,
                retry.real_p50_ms.map_or("-".into(), |real| format!("{real:.0}")),
                retry.within_20pct,
                retry.served_at_header,
                after_sent,
                after_good as f64 / CAPACITY,
                most.load(Ordering::Relaxed),
                app.most_at_once(),
                app_rps.map_or("-".into(), |app_rps| format!("{app_rps:.1}")),
                app_rps.map_or("-".into(), |app_rps| format!(
                    "{:.3}",
                    per_second / offered.min(app_rps).max(f64::MIN_POSITIVE)
                )),
                app_rps.map_or("-".into(), |app_rps| format!(
                    "{:.3}",
                    after_good as f64 / (after_sent as f64).min(app_rps).max(f64::MIN_POSITIVE)
                )),
            );
            eprintln!("{line}");
            let summary = format!(
                "| {} | {level}x | {goodput:.3} | {} | {} | {after_good}/{after_sent} | {} | {tail_refused_first_second} | {tail_last_refusal_ms} | {recovered_after_ms} | {}/{} | {} / {} / {} / {} |",
                gateway.name,
                ms(percentile(&served, 0.99)),
                refused.len(),
                app_rps.map_or("-".into(), |app_rps| format!(
                    "{:.3}",
                    after_good as f64 / (after_sent as f64).min(app_rps).max(f64::MIN_POSITIVE)
                )),
                recovered.window_served,
                recovered.window_sent,
                failures.refused_at_once,
                failures.refused_after_wait,
                failures.served_late,
                failures.no_answer,
            );
            rows.push(Row {
                line,
                summary,
                gateway: gateway.name,
                level: *level,
                per_second,
                offered,
                recovered: recovered_csv,
            });
            // Let the queues drain before the next level.
            tokio::time::sleep(Duration::from_secs(3)).await;
        }
        drop(running);
    }
    let suffix = if only.is_empty() {
        String::new()
    } else {
        format!("-{}", only.replace(',', "-"))
    };
    if abandon {
        std::fs::write(
            options.out.join(format!("abandon{suffix}.csv")),
            &abandon_csv,
        )?;
        let mut table = format!(
            "{}x the app's capacity ({} req/s offered, Poisson, a new connection each) for {} s; every client gives up after {} ms and drops its connection.\n\n| gateway | sent (offered) | 2xx (goodput) | 2xx p99 ms | refused (statuses) | refusal p50 / p99 ms | no answer: gave up + failed | reached the app | of those, the client got no answer | backlog max | app idle after, ms | weir: refused at once / dropped after a wait |\n|---|---|---|---|---|---|---|---|---|---|---|---|\n",
            ABANDON_LEVEL,
            ABANDON_LEVEL * CAPACITY,
            options.seconds,
            give_up.as_millis(),
        );
        for row in &abandon_rows {
            let _ = writeln!(table, "{row}");
        }
        std::fs::write(options.out.join(format!("abandon{suffix}.md")), &table)?;
        std::fs::write(options.out.join(format!("unloaded{suffix}.md")), &unloaded)?;
        return Ok(());
    }
    if bursts {
        std::fs::write(options.out.join(format!("bursts{suffix}.csv")), &bursts_csv)?;
        let mut table = String::new();
        if !background_only {
            table.push_str("| burst |");
            for (name, _) in &bursts_served {
                let _ = write!(table, " {name} |");
            }
            table.push_str("\n|---|");
            table.push_str(&"---|".repeat(bursts_served.len()));
            table.push('\n');
            for (kind, &(count, spread_ms)) in BURSTS.iter().enumerate() {
                let _ = write!(table, "| {count} over {spread_ms} ms |");
                for (_, served) in &bursts_served {
                    let each: Vec<String> =
                        served.alone[kind].iter().map(usize::to_string).collect();
                    let _ = write!(table, " {} |", each.join(" "));
                }
                table.push('\n');
            }
            table.push('\n');
        }
        // Served: a 2xx within 2 s. Refused at once and dropped after a wait: weir's
        // `/metrics` over the round.
        table.push_str("| gateway | burst and background | round | burst served | background served | total served | refused at once | dropped after a wait | served p99 ms |\n|---|---|---|---|---|---|---|---|---|\n");
        for (_, served) in &bursts_served {
            for line in &served.background {
                let _ = writeln!(table, "{line}");
            }
        }
        std::fs::write(options.out.join(format!("bursts{suffix}.md")), &table)?;
        std::fs::write(options.out.join(format!("unloaded{suffix}.md")), &unloaded)?;
        return Ok(());
    }
    let ceiling = rows
        .iter()
        .find(|row| row.gateway == "weir-workers" && row.level == 10.0)
        .map(|row| row.per_second);
    for row in &rows {
        match ceiling {
            Some(ceiling) => {
                let goodput = row.per_second / row.offered.min(ceiling).max(f64::MIN_POSITIVE);
                let _ = writeln!(
                    csv,
                    "{},{ceiling:.1},{goodput:.3},{}",
                    row.line, row.recovered
                );
            }
            None => {
                let _ = writeln!(csv, "{},-,-,{}", row.line, row.recovered);
            }
        }
    }
    let name = if only.is_empty() {
        "raw.csv".to_string()
    } else {
        format!("raw-{}.csv", only.replace(',', "-"))
    };
    std::fs::write(options.out.join(&name), &csv)?;
    // The figures a reader looks for first, the recovery after each level among them (issue
    // 21: "after the spike, full goodput again within 1 s").
    let mut summary = String::from(
        "| gateway | level | goodput | served p99 ms | refused | recovery: 2xx within 2 s of the first second after / sent | recovery vs app alone | refused in that second | last refusal of the tail, ms after the level | recovered after, ms (every request sent later served within 2 s) | served within 2 s / sent in the second after that | the tail's failures: refused at once / refused after a wait / 2xx over 2 s / no answer |\n|---|---|---|---|---|---|---|---|---|---|---|---|\n",
    );
    for row in &rows {
        let _ = writeln!(summary, "{}", row.summary);
    }
    std::fs::write(
        options
            .out
            .join(name.replace("raw", "summary").replace(".csv", ".md")),
        &summary,
    )?;
    if !series_csv.is_empty() {
        std::fs::write(
            options.out.join(name.replace("raw", "series")),
            format!(
                "gateway,level,at_ms,limit,{}\n{series_csv}",
                REASONS.join(",")
            ),
        )?;
    }
    std::fs::write(
        options
            .out
            .join(name.replace("raw", "unloaded").replace(".csv", ".md")),
        &unloaded,
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A request of the tail, scheduled `at_ms` after the level's start.
    fn sample(at_ms: u64, latency_ms: u64, status: u16) -> Sample {
        Sample {
            at: Duration::from_millis(at_ms),
            latency: Duration::from_millis(latency_ms),
            status,
            retry_after: None,
            arrival: 0,
        }
    }

    /// A level ending at 10 s and a tail at one request every 50 ms for 3 s, all served in
    /// 60 ms, but those at `failed` (ms after the level's end), each given as its status and
    /// latency.
    fn tail(failed: &[(u64, u16, u64)]) -> Vec<Sample> {
        let mut samples = vec![sample(9_990, 2_500, 503)];
        for at in (0..3_000).step_by(50) {
            let (status, latency) = failed
                .iter()
                .find(|(failed_at, _, _)| *failed_at == at)
                .map_or((200, 60), |&(_, status, latency)| (status, latency));
            samples.push(sample(10_000 + at, latency, status));
        }
        samples
    }

    const LEVEL_END: Duration = Duration::from_secs(10);

    #[test]
    fn recovery_is_the_last_failure_of_the_tail_not_the_first() {
        let samples = tail(&[(100, 503, 1), (600, 503, 1)]);
        let recovered = recovered_after(&samples, LEVEL_END);
        assert_eq!(recovered.after, Duration::from_millis(600));
        // 650 to 1,600 ms: twenty requests, all served.
        assert_eq!((recovered.window_sent, recovered.window_served), (20, 20));
        assert_eq!(recovered.failures.refused_at_once, 2);
    }

    #[test]
    fn a_2xx_over_two_seconds_is_a_failure_and_the_level_s_own_failures_are_not() {
        let samples = tail(&[(300, 503, 1), (850, 200, 2_100), (1_200, 200, 1_900)]);
        let recovered = recovered_after(&samples, LEVEL_END);
        assert_eq!(recovered.after, Duration::from_millis(850));
        assert_eq!(
            recovered.failures,
            Failures {
                refused_at_once: 1,
                served_late: 1,
                ..Failures::default()
            }
        );
    }

    #[test]
    fn a_tail_served_in_full_recovered_at_once_and_its_first_second_is_the_window() {
        let recovered = recovered_after(&tail(&[]), LEVEL_END);
        assert_eq!(recovered.after, Duration::ZERO);
        // 0 to 1,000 ms inclusive.
        assert_eq!((recovered.window_sent, recovered.window_served), (21, 21));
        assert_eq!(recovered.failures, Failures::default());
    }

    #[test]
    fn failures_are_told_apart_by_status_and_wait_and_order_does_not_matter() {
        let mut samples = tail(&[(50, 503, 30), (400, 503, 700), (450, 0, 10_000)]);
        samples.reverse();
        let recovered = recovered_after(&samples, LEVEL_END);
        assert_eq!(recovered.after, Duration::from_millis(450));
        assert_eq!(
            recovered.failures,
            Failures {
                refused_at_once: 1,
                refused_after_wait: 1,
                no_answer: 1,
                served_late: 0,
            }
        );
    }
}
