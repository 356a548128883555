//! How a running gateway is reloaded, the way its operators reload it: `weir reload --pid-file`,
//! `nginx -s reload` and `reload` on HAProxy's master CLI (master-worker mode: the new worker
//! takes the listening sockets from the old one instead of binding them; the stats socket has
//! `expose-fd listeners`, the classic way, though 2.6's master passes them over its own socket
//! pair either way). A reloadable gateway alternates two versions of its config that differ in a
//! route ([`PROBE_PATH`] answers `a` or `b`), so a fresh connection tells which one serves.
//!
//! `components::start_reloadable_gateway` starts a gateway with its [`Reload`]; the reload
//! measurement (`measurements::reloads`) reloads it on a schedule during a load run.

use std::fs;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use anyhow::{bail, Context};

/// The route whose answer tells which version of the config serves.
pub const PROBE_PATH: &str = "/lab-reload/which";

/// How long a reload may take to show its route on a new connection.
pub const TAKE_EFFECT_TIMEOUT: Duration = Duration::from_secs(5);

/// How long a reload command (weir's, nginx's, HAProxy's master CLI) may take.
const COMMAND_TIMEOUT: Duration = Duration::from_secs(10);

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

/// Writes `DIR/a/which` and `DIR/b/which`, what weir's static route serves.
pub fn write_version_dirs(dir: &Path) -> anyhow::Result<()> {
    let file = PROBE_PATH.rsplit('/').next().unwrap_or("which");
    for version in [Version::A, Version::B] {
        let version_dir = dir.join(version.letter());
        fs::create_dir_all(&version_dir)?;
        fs::write(version_dir.join(file), version.letter())?;
    }
    Ok(())
}

/// How a started gateway is reloaded.
#[derive(Debug)]
pub enum Method {
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
    /// The handle of a gateway just started with `texts[0]` (version A) written to `config`.
    pub fn new(method: Method, config: PathBuf, texts: [String; 2]) -> Reload {
        Reload {
            method,
            config,
            texts,
            on_b: AtomicBool::new(false),
        }
    }

    /// weir's pid file, which weir writes after it listens: the first reload must find it.
    pub fn pid_file(&self) -> Option<&Path> {
        match &self.method {
            Method::Weir { pid_file, .. } => Some(pid_file),
            Method::Nginx { .. } | Method::Haproxy { .. } => None,
        }
    }

    fn current(&self) -> Version {
        if self.on_b.load(Ordering::SeqCst) {
            Version::B
        } else {
            Version::A
        }
    }

    /// Writes the other version and runs the gateway's reload command; returns the version that
    /// should now serve.
    pub fn reload(&self) -> anyhow::Result<Version> {
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
                run_command(weir_testkit::nginx::signal(prefix, &self.config, "reload"))?;
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

pub fn wait_for_file(path: &Path, timeout: Duration) -> anyhow::Result<()> {
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
pub fn wait_for_version(
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

#[cfg(test)]
mod tests;
