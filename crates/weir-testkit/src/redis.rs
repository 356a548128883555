//! A real `redis-server` for tests: started on a free loopback port and on a Unix socket in its
//! own temp dir, with persistence off, ready (answering PING) when `start` returns, and killed by
//! PID when dropped. `redis-server` must be on PATH (Debian package `redis-server`).

use std::io::{self, Read, Write};
use std::net::{Ipv4Addr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command};
use std::time::{Duration, Instant};

use tempfile::TempDir;

/// How long a fresh server gets to answer PING.
const READY_TIMEOUT: Duration = Duration::from_secs(10);

/// Free ports are found by binding port 0 and releasing it, so another process can take the port
/// before redis binds it; a start that fails is retried on a new port this many times.
const START_ATTEMPTS: usize = 5;

/// A running `redis-server`.
#[derive(Debug)]
pub struct RedisServer {
    child: Option<Child>,
    port: u16,
    dir: TempDir,
}

impl RedisServer {
    /// Starts a server and waits until it answers.
    pub fn start() -> io::Result<RedisServer> {
        let mut last_error = None;
        for _ in 0..START_ATTEMPTS {
            let mut server = RedisServer {
                child: None,
                port: free_port()?,
                dir: tempfile::Builder::new().prefix("weir-redis").tempdir()?,
            };
            match server.spawn() {
                Ok(()) => return Ok(server),
                Err(error) if error.kind() == io::ErrorKind::NotFound => return Err(error),
                Err(error) => last_error = Some(error),
            }
        }
        Err(last_error.unwrap_or_else(|| io::Error::other("redis-server did not start")))
    }

    /// `redis://127.0.0.1:PORT/0`.
    pub fn url(&self) -> String {
        format!("redis://127.0.0.1:{}/0", self.port)
    }

    /// `unix:///TMP/redis.sock`.
    pub fn unix_url(&self) -> String {
        format!("unix://{}", self.socket_path().display())
    }

    pub fn port(&self) -> u16 {
        self.port
    }

    pub fn socket_path(&self) -> PathBuf {
        self.dir.path().join("redis.sock")
    }

    /// The server's PID while it runs.
    pub fn pid(&self) -> Option<u32> {
        self.child.as_ref().map(Child::id)
    }

    /// Kills the server (SIGKILL, by PID) and reaps it, as a crash would; the port stays reserved
    /// for [`RedisServer::restart`] only as long as nobody else takes it.
    pub fn kill(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    /// Starts the server again on the same port and socket, empty.
    pub fn restart(&mut self) -> io::Result<()> {
        self.kill();
        self.spawn()
    }

    fn spawn(&mut self) -> io::Result<()> {
        let mut command = command(self.port, &self.socket_path(), self.dir.path());
        let child = crate::process::spawn_logged(
            &mut command,
            &self.dir.path().join("redis.log"),
            "redis-server",
        )?;
        self.child = Some(child);
        let deadline = Instant::now() + READY_TIMEOUT;
        loop {
            if self.answers_ping() {
                return Ok(());
            }
            let exited = match self.child.as_mut() {
                Some(child) => child.try_wait()?.is_some(),
                None => true,
            };
            if exited || Instant::now() > deadline {
                self.kill();
                let log =
                    std::fs::read_to_string(self.dir.path().join("redis.log")).unwrap_or_default();
                return Err(io::Error::other(format!(
                    "redis-server on port {} did not become ready: {log}",
                    self.port
                )));
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// Scripts (`EVALSHA`) the server has run to completion without an error, from its
    /// `INFO commandstats`: a test that waits for a background call of the gateway's (a refund)
    /// waits until this catches up with the calls the gateway counts as made.
    pub fn scripts_run(&self) -> io::Result<u64> {
        let stats = self.info("commandstats")?;
        let Some(line) = stats
            .lines()
            .find_map(|line| line.strip_prefix("cmdstat_evalsha:"))
        else {
            return Ok(0);
        };
        let field = |name: &str| -> u64 {
            line.split(',')
                .find_map(|pair| pair.strip_prefix(name)?.strip_prefix('='))
                .and_then(|value| value.parse().ok())
                .unwrap_or(0)
        };
        Ok(field("calls")
            .saturating_sub(field("failed_calls"))
            .saturating_sub(field("rejected_calls")))
    }

    /// The text of `INFO section`, read off a connection of its own.
    fn info(&self, section: &str) -> io::Result<String> {
        let mut stream = TcpStream::connect((Ipv4Addr::LOCALHOST, self.port))?;
        stream.set_read_timeout(Some(Duration::from_secs(5)))?;
        stream.write_all(format!("INFO {section}\r\n").as_bytes())?;
        // The answer is one bulk string: `$LENGTH\r\n`, LENGTH bytes, `\r\n`.
        let mut header = Vec::new();
        let mut byte = [0u8; 1];
        while !header.ends_with(b"\r\n") {
            stream.read_exact(&mut byte)?;
            header.push(byte[0]);
        }
        let length: usize = std::str::from_utf8(&header)
            .ok()
            .and_then(|header| header.strip_prefix('$')?.trim_end().parse().ok())
            .ok_or_else(|| io::Error::other(format!("INFO answered {header:?}")))?;
        let mut body = vec![0u8; length];
        stream.read_exact(&mut body)?;
        String::from_utf8(body).map_err(io::Error::other)
    }

    fn answers_ping(&self) -> bool {
        let Ok(mut stream) = TcpStream::connect((Ipv4Addr::LOCALHOST, self.port)) else {
            return false;
        };
        let _ = stream.set_read_timeout(Some(Duration::from_secs(1)));
        let mut reply = [0u8; 7];
        stream.write_all(b"PING\r\n").is_ok()
            && stream.read_exact(&mut reply).is_ok()
            && &reply == b"+PONG\r\n"
    }
}

impl Drop for RedisServer {
    fn drop(&mut self) {
        self.kill();
    }
}

/// The command line of a `redis-server` in the foreground on `127.0.0.1:port` and the Unix socket
/// `socket` (mode 700), persistence off, working in `dir`: what [`RedisServer`] runs, and what
/// the lab runs as a group's Redis under its own process supervision.
pub fn command(port: u16, socket: &Path, dir: &Path) -> Command {
    let mut command = Command::new("redis-server");
    command
        .arg("--port")
        .arg(port.to_string())
        .args(["--bind", "127.0.0.1"])
        .arg("--unixsocket")
        .arg(socket)
        .args(["--unixsocketperm", "700"])
        .args(["--save", "", "--appendonly", "no", "--daemonize", "no"])
        .arg("--dir")
        .arg(dir);
    command
}

fn free_port() -> io::Result<u16> {
    let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, 0))?;
    Ok(listener.local_addr()?.port())
}
