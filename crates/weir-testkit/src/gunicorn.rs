//! A real Gunicorn serving one of the example apps on a Unix socket in a temp dir, for the
//! end-to-end tests. It needs the project venv (`scripts/setup` makes `.venv`); the tests that use
//! it run only when `WEIR_E2E=1`, which the test command sets after running the setup step.

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

/// A running Gunicorn, stopped by its PID (SIGTERM, then wait) when dropped.
pub struct Gunicorn {
    child: Child,
    /// `unix:/tmp/.../app.sock`, ready for a config's `servers`.
    pub address: String,
    /// The temp dir holding the socket, when this Gunicorn made it.
    _dir: Option<tempfile::TempDir>,
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
            App::FastApi { .. } | App::Flask { .. } => ".venv",
        };
        let gunicorn = root.join(venv).join("bin/gunicorn");
        assert!(
            gunicorn.exists(),
            "{} is missing: run scripts/setup first",
            gunicorn.display()
        );
        let mut command = Command::new(gunicorn);
        command
            .arg("--chdir")
            .arg(root.join("examples"))
            .arg("--bind")
            .arg(format!("unix:{}", socket.display()))
            .arg("--log-level")
            .arg("warning")
            .stdin(Stdio::null());
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
        }
        let child = command.spawn().expect("start gunicorn");
        let started = Instant::now();
        while !socket.exists() {
            assert!(
                started.elapsed() < Duration::from_secs(20),
                "gunicorn did not create {} within 20 s",
                socket.display()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        Gunicorn {
            child,
            address: format!("unix:{}", socket.display()),
            _dir: None,
        }
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }
}

impl Drop for Gunicorn {
    fn drop(&mut self) {
        // SIGTERM is Gunicorn's graceful stop; it stops its workers before it exits.
        let _ = Command::new("kill")
            .arg("-TERM")
            .arg(self.child.id().to_string())
            .status();
        let deadline = Instant::now() + Duration::from_secs(10);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
