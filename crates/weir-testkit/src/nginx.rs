//! A real nginx for differential tests: nginx-light run in the foreground from a config generated
//! in its own temp dir (pid file, lock file, error log and every temp path inside it, so it needs
//! no system directories), listening on a free loopback port, ready (accepting connections) when
//! `start` returns, and killed by PID when dropped. The binary is `/usr/sbin/nginx` (Debian package
//! `nginx-light`), or `nginx` on PATH.

use std::io;
use std::net::{Ipv4Addr, SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command};
use std::time::{Duration, Instant};

use tempfile::TempDir;

/// Where Debian's nginx-light puts the binary.
const DEBIAN_BINARY: &str = "/usr/sbin/nginx";

/// How long a fresh nginx gets to accept a connection.
const READY_TIMEOUT: Duration = Duration::from_secs(10);

/// Free ports are found by binding port 0 and releasing it, so another process can take the port
/// before nginx binds it; a start that fails is retried on a new port this many times.
const START_ATTEMPTS: usize = 5;

/// A running nginx.
#[derive(Debug)]
pub struct Nginx {
    /// The loopback address the server block listens on (the first of `addrs`).
    pub addr: SocketAddr,
    /// Every free loopback address the config was given ([`Nginx::start_on`]), `addr` first.
    pub addrs: Vec<SocketAddr>,
    child: Option<Child>,
    dir: TempDir,
}

/// Whether an nginx binary is installed.
pub fn available() -> bool {
    Path::new(DEBIAN_BINARY).exists() || which_on_path("nginx").is_some()
}

impl Nginx {
    /// Starts nginx with `http` inside the `http { }` block (zones, `limit_req_status`, ...) and
    /// `server` inside its one `server { }` block after the generated `listen` line (locations),
    /// and waits until it accepts connections.
    pub fn start(http: &str, server: &str) -> io::Result<Nginx> {
        let listen_block = |addr: SocketAddr| {
            format!("{http}\n    server {{\n        listen {addr};\n{server}\n    }}\n")
        };
        Self::start_with(&listen_block)
    }

    /// Starts nginx with `http(addr)` as the whole content of the `http { }` block: the caller's
    /// own `server` blocks, which should listen on `addr` (a free loopback port).
    pub fn start_with(http: &dyn Fn(SocketAddr) -> String) -> io::Result<Nginx> {
        Self::start_on(1, &|addrs: &[SocketAddr]| http(addrs[0]))
    }

    /// Starts nginx with `http(addrs)` as the whole content of the `http { }` block, `addrs`
    /// being `count` free loopback ports (servers on several sockets: an app and its admin);
    /// ready when the first accepts connections.
    pub fn start_on(count: usize, http: &dyn Fn(&[SocketAddr]) -> String) -> io::Result<Nginx> {
        assert!(count > 0, "nginx needs an address to listen on");
        let mut last_error = None;
        for _ in 0..START_ATTEMPTS {
            let dir = tempfile::Builder::new().prefix("weir-nginx").tempdir()?;
            let addrs = free_ports(count)?
                .into_iter()
                .map(|port| SocketAddr::from((Ipv4Addr::LOCALHOST, port)))
                .collect::<Vec<_>>();
            let mut nginx = Nginx {
                addr: addrs[0],
                addrs,
                child: None,
                dir,
            };
            let content = http(&nginx.addrs);
            match nginx.spawn(&content) {
                Ok(()) => return Ok(nginx),
                Err(error) if error.kind() == io::ErrorKind::NotFound => return Err(error),
                Err(error) => last_error = Some(error),
            }
        }
        Err(last_error.unwrap_or_else(|| io::Error::other("nginx did not start")))
    }

    /// The process's PID while it runs.
    pub fn pid(&self) -> Option<u32> {
        self.child.as_ref().map(Child::id)
    }

    /// The temp dir holding the config, the logs and the temp paths.
    pub fn dir(&self) -> &Path {
        self.dir.path()
    }

    /// The error log and whatever nginx wrote to stdout and stderr, for failure messages.
    pub fn logs(&self) -> String {
        let read = |name: &str| std::fs::read_to_string(self.dir.path().join(name));
        format!(
            "{}{}",
            read("error.log").unwrap_or_default(),
            read("output.log").unwrap_or_default()
        )
    }

    /// Kills nginx (SIGKILL, by PID) and reaps it.
    pub fn kill(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    fn config(&self, http: &str) -> String {
        let dir = self.dir.path().display();
        // `master_process off` keeps nginx to one process, so killing the PID we started stops it
        // all: a master killed with SIGKILL would leave its workers running. No `user` line: as
        // root nginx would switch the workers to `nobody`, who cannot enter the temp dir.
        format!(
            r#"master_process off;
worker_processes 1;
pid {dir}/nginx.pid;
lock_file {dir}/nginx.lock;
error_log {dir}/error.log notice;

events {{
    worker_connections 1024;
}}

http {{
    access_log off;
    client_body_temp_path {dir}/client_body;
    proxy_temp_path {dir}/proxy;
    fastcgi_temp_path {dir}/fastcgi;
    uwsgi_temp_path {dir}/uwsgi;
    scgi_temp_path {dir}/scgi;
{http}
}}
"#
        )
    }

    fn spawn(&mut self, http: &str) -> io::Result<()> {
        let config_path = self.dir.path().join("nginx.conf");
        std::fs::write(&config_path, self.config(http))?;
        let mut command = command(self.dir.path(), &config_path);
        let child = crate::process::spawn_logged(
            &mut command,
            &self.dir.path().join("output.log"),
            "nginx-light",
        )?;
        self.child = Some(child);
        let deadline = Instant::now() + READY_TIMEOUT;
        loop {
            if TcpStream::connect_timeout(&self.addr, Duration::from_millis(100)).is_ok() {
                return Ok(());
            }
            let exited = match self.child.as_mut() {
                Some(child) => child.try_wait()?.is_some(),
                None => true,
            };
            if exited || Instant::now() > deadline {
                self.kill();
                return Err(io::Error::other(format!(
                    "nginx on {} did not become ready: {}",
                    self.addr,
                    self.logs()
                )));
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

impl Drop for Nginx {
    fn drop(&mut self) {
        self.kill();
    }
}

/// `nginx -p PREFIX -e stderr -c CONFIG -g "daemon off;"`: nginx in the foreground from a whole
/// config file, relative paths under `prefix`, and errors met before the config's `error_log` is
/// open on stderr (the log `spawn_logged` keeps). What [`Nginx`] runs, and what the lab runs for
/// its nginx gateways and upstreams under its own process supervision.
pub fn command(prefix: &Path, config: &Path) -> Command {
    let mut command = Command::new(binary());
    command
        .arg("-p")
        .arg(prefix)
        .args(["-e", "stderr", "-c"])
        .arg(config)
        .args(["-g", "daemon off;"]);
    command
}

/// `nginx -p PREFIX -e stderr -c CONFIG -s SIGNAL`: `reload`, `quit`, ... sent to the master
/// whose pid file the config names.
pub fn signal(prefix: &Path, config: &Path, signal: &str) -> Command {
    let mut command = Command::new(binary());
    command
        .arg("-p")
        .arg(prefix)
        .args(["-e", "stderr", "-c"])
        .arg(config)
        .args(["-s", signal]);
    command
}

/// The nginx binary: `DEBIAN_BINARY` when installed, else `nginx` on PATH.
pub fn binary() -> PathBuf {
    if Path::new(DEBIAN_BINARY).exists() {
        PathBuf::from(DEBIAN_BINARY)
    } else {
        which_on_path("nginx").unwrap_or_else(|| PathBuf::from("nginx"))
    }
}

fn which_on_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|candidate| candidate.is_file())
}

/// `count` distinct free ports: all held bound until each is known, then released.
fn free_ports(count: usize) -> io::Result<Vec<u16>> {
    let listeners = (0..count)
        .map(|_| TcpListener::bind((Ipv4Addr::LOCALHOST, 0)))
        .collect::<io::Result<Vec<_>>>()?;
    listeners
        .iter()
        .map(|listener| Ok(listener.local_addr()?.port()))
        .collect()
}

#[cfg(test)]
mod tests {
    use std::io::{Read, Write};

    use super::*;

    #[test]
    fn serves_its_config_and_stops_on_drop() {
        if !available() {
            eprintln!("skipped: nginx is not installed (apt-get install -y nginx-light)");
            return;
        }
        let nginx = Nginx::start("", "location / { return 200 \"from nginx\"; }").expect("starts");
        let mut stream = TcpStream::connect(nginx.addr).expect("connects");
        stream
            .write_all(b"GET / HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n")
            .expect("writes");
        let mut reply = String::new();
        stream.read_to_string(&mut reply).expect("reads");
        assert!(reply.starts_with("HTTP/1.1 200"), "{reply}");
        assert!(reply.ends_with("from nginx"), "{reply}");
        let addr = nginx.addr;
        drop(nginx);
        assert!(
            TcpStream::connect(addr).is_err(),
            "nginx still listens after drop"
        );
    }
}
