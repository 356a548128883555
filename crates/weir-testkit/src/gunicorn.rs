//! A real Gunicorn serving one of the example apps on a Unix socket in a temp dir, for the
//! end-to-end tests. It needs the project venv (`scripts/setup` makes `.venv`); the tests that use
//! it run only when `WEIR_E2E=1`, which the test command sets after running the setup step.

use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Whether the end-to-end tests should run.
pub fn enabled() -> bool {
    std::env::var("WEIR_E2E").is_ok_and(|value| value == "1")
}

/// The repository root (two levels above this crate).
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .nth(2)
        .expect("crate sits in crates/")
        .to_path_buf()
}

/// A running Gunicorn, stopped by its PID (SIGTERM, then wait) when dropped. It runs in a
/// process group of its own (its master and workers), so [`Gunicorn::kill`] can crash it whole.
pub struct Gunicorn {
    child: Child,
    /// Killed or stopped and reaped: its PID may belong to someone else now.
    stopped: bool,
    /// `unix:/tmp/.../app.sock`, ready for a config's `servers`.
    pub address: String,
    /// The temp dir holding the socket, when this Gunicorn made it.
    _dir: Option<tempfile::TempDir>,
    /// Where [`App::Overload`] counts its requests.
    state: Option<tempfile::TempDir>,
}

/// Which example app and worker layout.
#[derive(Debug, Clone, Copy)]
pub enum App {
    /// `examples/fastapi_app` under `uvicorn.workers.UvicornWorker` (keep-alive).
    FastApi { workers: u32 },
    /// The same from `.venv-standard` (`uvicorn[standard]`: uvloop, httptools, and the
    /// `websockets` package that WebSocket support needs).
    FastApiStandard { workers: u32 },
    /// `examples/flask_app` under Gunicorn's sync worker (closes after every response).
    Flask { workers: u32 },
    /// `lab/apps/overload_app.py`, which counts the requests it holds at once into
    /// `Gunicorn::overload_state`: as WSGI under sync workers, or as ASGI under
    /// UvicornWorker.
    Overload { workers: u32, asgi: bool },
}

impl Gunicorn {
    pub fn start(app: App) -> Gunicorn {
        let dir = tempfile::tempdir().expect("temp dir");
        let mut gunicorn = Self::start_at(app, &dir.path().join("app.sock"));
        gunicorn._dir = Some(dir);
        gunicorn
    }

    /// Starts Gunicorn on the Unix socket `socket`, for instance where a stopped one listened;
    /// the caller keeps the directory. A socket file left behind is removed first.
    pub fn start_at(app: App, socket: &Path) -> Gunicorn {
        let root = repo_root();
        let socket = socket.to_path_buf();
        let _ = std::fs::remove_file(&socket);
        let venv = match app {
            App::FastApiStandard { .. } => ".venv-standard",
            App::FastApi { .. } | App::Flask { .. } | App::Overload { .. } => ".venv",
        };
        let gunicorn = root.join(venv).join("bin/gunicorn");
        assert!(
            gunicorn.exists(),
            "{} is missing: run scripts/setup first",
            gunicorn.display()
        );
        let mut command = Command::new(gunicorn);
        let chdir = match app {
            App::Overload { .. } => root.join("lab/apps"),
            _ => root.join("examples"),
        };
        let state = match app {
            App::Overload { .. } => {
                let state = tempfile::tempdir().expect("temp dir");
                command.env("OVERLOAD_STATE", state.path());
                Some(state)
            }
            _ => None,
        };
        command
            .arg("--chdir")
            .arg(chdir)
            .arg("--bind")
            .arg(format!("unix:{}", socket.display()))
            .arg("--log-level")
            .arg("warning")
            .stdin(Stdio::null())
            .process_group(0);
        match app {
            App::FastApi { workers } | App::FastApiStandard { workers } => {
                command
                    .args(["-k", "uvicorn.workers.UvicornWorker", "-w"])
                    .arg(workers.to_string())
                    .arg("fastapi_app.app:app");
            }
            App::Flask { workers } => {
                command
                    .args(["-k", "sync", "-w"])
                    .arg(workers.to_string())
                    .arg("flask_app.app:app");
            }
            App::Overload { workers, asgi } => {
                let (class, callable) = if asgi {
                    ("uvicorn.workers.UvicornWorker", "overload_app:asgi")
                } else {
                    ("sync", "overload_app:wsgi")
                };
                command
                    .args(["-k", class, "-w"])
                    .arg(workers.to_string())
                    .arg(callable);
            }
        }
        let child = command.spawn().expect("start gunicorn");
        crate::wait_until_blocking(
            format_args!("gunicorn to create {}", socket.display()),
            Duration::from_secs(20),
            || socket.exists(),
        );
        // The socket file exists from bind(); listen() and the first worker come a moment later.
        // Ready once a worker answers a request: before that a test's first request could be
        // refused (seen once as a 502 on a loaded machine).
        crate::wait_until_blocking(
            format_args!("gunicorn to answer on {}", socket.display()),
            Duration::from_secs(30),
            || answers(&socket),
        );
        Gunicorn {
            child,
            stopped: false,
            address: format!("unix:{}", socket.display()),
            _dir: None,
            state,
        }
    }

    /// For [`App::Overload`]: the most `/work` requests the app held at once so far.
    pub fn most_at_once(&self) -> u32 {
        let text = self.read_state("count");
        text.split_whitespace()
            .nth(1)
            .and_then(|most| most.parse().ok())
            .unwrap_or(0)
    }

    /// For [`App::Overload`]: the `/work` requests the app holds now.
    pub fn in_app(&self) -> u32 {
        let text = self.read_state("count");
        text.split_whitespace()
            .next()
            .and_then(|now| now.parse().ok())
            .unwrap_or(0)
    }

    /// For [`App::Overload`]: the `id`s of the `/work` requests that reached the app, in order.
    pub fn seen(&self) -> Vec<String> {
        self.read_lines("seen")
    }

    /// For [`App::Overload`]: the `id`s of the `/work` requests the app is done with, in order;
    /// each is written before its answer, so one missing here has not been answered yet.
    pub fn finished(&self) -> Vec<String> {
        self.read_lines("finished")
    }

    /// The number of connections waiting in the listen backlog of the app's socket now: the
    /// `Recv-Q` of its listening line in `ss -lx`.
    pub fn backlog(&self) -> u32 {
        let socket = self.socket();
        let output = Command::new("ss").args(["-lxn"]).output().expect("run ss");
        let text = String::from_utf8_lossy(&output.stdout);
        let line = text
            .lines()
            .find(|line| {
                line.split_whitespace()
                    .any(|field| Path::new(field) == socket)
            })
            .unwrap_or_else(|| panic!("{} not in ss -lx:\n{text}", socket.display()));
        // Netid State Recv-Q Send-Q Local ...
        line.split_whitespace()
            .nth(2)
            .and_then(|field| field.parse().ok())
            .expect("Recv-Q")
    }

    fn read_lines(&self, name: &str) -> Vec<String> {
        self.read_state(name).lines().map(str::to_string).collect()
    }

    fn read_state(&self, name: &str) -> String {
        let state = self.state.as_ref().expect("an App::Overload gunicorn");
        std::fs::read_to_string(state.path().join(name)).unwrap_or_default()
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// The socket file, for `unix:` addresses.
    pub fn socket(&self) -> PathBuf {
        PathBuf::from(self.address.trim_start_matches("unix:"))
    }

    /// Crashes Gunicorn: SIGKILL to its process group (master and workers, mid-request or not),
    /// then reaps the master. The socket file stays behind, as after a real crash.
    pub fn kill(&mut self) {
        if self.stopped {
            return;
        }
        self.kill_group();
        let _ = self.child.wait();
        self.stopped = true;
    }

    /// Gunicorn's graceful reload (SIGHUP to the master): new workers start, the old ones
    /// finish their requests and stop.
    pub fn reload(&self) {
        let _ = Command::new("kill")
            .arg("-HUP")
            .arg(self.child.id().to_string())
            .status();
    }

    /// The PIDs of the master's children (its workers), from /proc.
    pub fn workers(&self) -> Vec<u32> {
        let pid = self.child.id();
        std::fs::read_to_string(format!("/proc/{pid}/task/{pid}/children"))
            .unwrap_or_default()
            .split_whitespace()
            .filter_map(|field| field.parse().ok())
            .collect()
    }

    /// Stops Gunicorn gracefully (SIGTERM, by PID) and waits for it; Gunicorn removes its socket
    /// file on the way out.
    pub fn stop(&mut self) {
        if self.stopped {
            return;
        }
        self.terminate();
        self.stopped = true;
    }

    fn terminate(&mut self) {
        // SIGTERM is Gunicorn's graceful stop; it stops its workers before it exits.
        let _ = Command::new("kill")
            .arg("-TERM")
            .arg(self.child.id().to_string())
            .status();
        let deadline = Instant::now() + Duration::from_secs(10);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                break;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        // A worker still booting when the master was told to stop can outlive it (seen with
        // UvicornWorker); the group is Gunicorn's own, so whatever is left of it goes.
        self.kill_group();
        let _ = self.child.wait();
    }

    fn kill_group(&self) {
        let _ = Command::new("kill")
            .arg("-KILL")
            .arg("--")
            .arg(format!("-{}", self.child.id()))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
    }
}

impl Drop for Gunicorn {
    fn drop(&mut self) {
        if !self.stopped {
            self.terminate();
        }
    }
}

/// Whether an HTTP/1.0 `GET /` on `socket` gets a status line back.
fn answers(socket: &Path) -> bool {
    use std::io::{Read, Write};
    let Ok(mut stream) = std::os::unix::net::UnixStream::connect(socket) else {
        return false;
    };
    let _ = stream.set_read_timeout(Some(Duration::from_secs(5)));
    if stream.write_all(b"GET / HTTP/1.0\r\n\r\n").is_err() {
        return false;
    }
    let mut head = [0u8; 12];
    stream.read_exact(&mut head).is_ok() && head.starts_with(b"HTTP/1.")
}
