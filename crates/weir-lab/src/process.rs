//! Starting and stopping the lab's components. Each runs in a process group of its own, is
//! recorded in a registry, and is stopped by its PID (SIGTERM, then SIGKILL to its group after a
//! grace period) when dropped, on error, or from the Ctrl-C handler, so nothing is left behind.

use std::fmt;
use std::fs::{self, File};
use std::io::{Read, Seek, SeekFrom};
use std::net::{SocketAddr, TcpStream};
use std::os::unix::net::UnixStream;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Mutex;
use std::thread;
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use nix::sys::signal::{self, Signal};
use nix::unistd::Pid;

/// How long a component may take to stop after SIGTERM before its group is killed.
const STOP_GRACE: Duration = Duration::from_secs(5);

/// Process groups of the components alive now, for the Ctrl-C handler.
static REGISTRY: Mutex<Vec<i32>> = Mutex::new(Vec::new());

/// Where a component listens.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Addr {
    Tcp(SocketAddr),
    Unix(PathBuf),
}

impl fmt::Display for Addr {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Addr::Tcp(addr) => write!(formatter, "{addr}"),
            Addr::Unix(path) => write!(formatter, "unix:{}", path.display()),
        }
    }
}

/// A free TCP port on 127.0.0.1. The port is released before the component binds it; on a
/// machine where only the lab starts listeners, nothing takes it in between.
pub fn free_port() -> anyhow::Result<SocketAddr> {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").context("binding a free port")?;
    Ok(listener.local_addr()?)
}

/// One running component.
#[derive(Debug)]
pub struct Component {
    pub name: String,
    child: Child,
    log: PathBuf,
    stopped: bool,
}

impl Component {
    /// Starts `command` in a new process group, its stdout and stderr appended to `log`.
    pub fn spawn(name: &str, mut command: Command, log: &Path) -> anyhow::Result<Component> {
        let file = File::options()
            .create(true)
            .append(true)
            .open(log)
            .with_context(|| format!("opening {}", log.display()))?;
        command
            .stdin(Stdio::null())
            .stdout(file.try_clone()?)
            .stderr(file)
            .process_group(0);
        let child = command
            .spawn()
            .with_context(|| format!("starting {name}: {command:?}"))?;
        if let Ok(mut registry) = REGISTRY.lock() {
            registry.push(child.id() as i32);
        }
        Ok(Component {
            name: name.to_string(),
            child,
            log: log.to_path_buf(),
            stopped: false,
        })
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// An error (with the end of its log) if the component has exited.
    pub fn check_alive(&mut self) -> anyhow::Result<()> {
        if let Some(status) = self.child.try_wait()? {
            bail!(
                "{} exited ({status}); end of its log:\n{}",
                self.name,
                log_tail(&self.log)
            );
        }
        Ok(())
    }

    /// Waits until `addr` accepts connections, failing early if the component exits.
    pub fn wait_ready(&mut self, addr: &Addr, timeout: Duration) -> anyhow::Result<()> {
        let deadline = Instant::now() + timeout;
        loop {
            self.check_alive()?;
            let connected = match addr {
                Addr::Tcp(socket) => {
                    TcpStream::connect_timeout(socket, Duration::from_millis(200)).is_ok()
                }
                Addr::Unix(path) => UnixStream::connect(path).is_ok(),
            };
            if connected {
                return Ok(());
            }
            if Instant::now() > deadline {
                bail!(
                    "{} did not listen on {addr} within {timeout:?}; end of its log:\n{}",
                    self.name,
                    log_tail(&self.log)
                );
            }
            thread::sleep(Duration::from_millis(50));
        }
    }

    /// Stops the component: SIGTERM to its PID, then SIGKILL to its group after the grace period.
    /// The group is killed in any case, so workers of a leader that died are not left behind.
    pub fn stop(&mut self) {
        if self.stopped {
            return;
        }
        self.stopped = true;
        let pid = self.child.id() as i32;
        stop_group(pid, &mut self.child);
        if let Ok(mut registry) = REGISTRY.lock() {
            registry.retain(|registered| *registered != pid);
        }
    }

    pub fn log(&self) -> &Path {
        &self.log
    }
}

impl Drop for Component {
    fn drop(&mut self) {
        self.stop();
    }
}

fn stop_group(pid: i32, child: &mut Child) {
    let deadline = Instant::now() + STOP_GRACE;
    if matches!(child.try_wait(), Ok(None)) {
        let _ = signal::kill(Pid::from_raw(pid), Signal::SIGTERM);
        while matches!(child.try_wait(), Ok(None)) && Instant::now() < deadline {
            thread::sleep(Duration::from_millis(20));
        }
    }
    // The group id is the leader's PID (process_group(0)); ESRCH means the group is empty.
    let _ = signal::killpg(Pid::from_raw(pid), Signal::SIGKILL);
    let _ = child.wait();
}

/// For the Ctrl-C handler: kills every registered component's group. The components' own
/// `stop` will find them gone.
pub fn kill_all_registered() {
    let groups: Vec<i32> = match REGISTRY.lock() {
        Ok(registry) => registry.clone(),
        Err(poisoned) => poisoned.into_inner().clone(),
    };
    for group in &groups {
        let _ = signal::killpg(Pid::from_raw(*group), Signal::SIGTERM);
    }
    thread::sleep(Duration::from_millis(500));
    for group in &groups {
        let _ = signal::killpg(Pid::from_raw(*group), Signal::SIGKILL);
    }
}

/// The last lines of a log file, for error messages.
pub fn log_tail(path: &Path) -> String {
    const TAIL: u64 = 2000;
    let Ok(mut file) = File::open(path) else {
        return String::from("(no log)");
    };
    let length = file.metadata().map(|metadata| metadata.len()).unwrap_or(0);
    let _ = file.seek(SeekFrom::Start(length.saturating_sub(TAIL)));
    let mut text = String::new();
    let _ = file.read_to_string(&mut text);
    text
}

/// Raises this process's open-file limit (inherited by every component) so that 10,000 idle
/// connections fit on both ends. Returns the soft limit now in force.
pub fn raise_open_files(wanted: u64) -> u64 {
    use nix::sys::resource::{getrlimit, setrlimit, Resource};
    let Ok((soft, hard)) = getrlimit(Resource::RLIMIT_NOFILE) else {
        return 0;
    };
    if hard < wanted {
        // Root may raise the hard limit too, up to fs.nr_open.
        let nr_open = fs::read_to_string("/proc/sys/fs/nr_open")
            .ok()
            .and_then(|text| text.trim().parse::<u64>().ok())
            .unwrap_or(hard);
        let target = wanted.min(nr_open);
        if setrlimit(Resource::RLIMIT_NOFILE, target, target).is_ok() {
            return target;
        }
    }
    let target = wanted.min(hard).max(soft);
    if setrlimit(Resource::RLIMIT_NOFILE, target, hard).is_ok() {
        target
    } else {
        soft
    }
}
