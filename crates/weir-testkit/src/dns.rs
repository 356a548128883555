//! A real DNS server for tests: `dns/server.py` (Python's `dnslib`, from the project venv that
//! `scripts/setup` makes) on a free UDP port on 127.0.0.1, answering A and AAAA queries from a
//! table the test changes while it runs ([`DnsServer::set`]), so a test can move a name to other
//! addresses and watch weir follow. Killed by PID when dropped.

use std::io::{self, BufRead, BufReader, Write};
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use crate::gunicorn::repo_root;

/// The server's program, written out to a temp file at start.
const SCRIPT: &str = include_str!("dns/server.py");

/// A running DNS server.
pub struct DnsServer {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    addr: SocketAddr,
    _dir: tempfile::TempDir,
}

impl DnsServer {
    /// Starts the server and waits until it listens. It knows no name yet.
    pub fn start() -> io::Result<DnsServer> {
        let python = repo_root().join(".venv/bin/python");
        if !python.exists() {
            return Err(io::Error::new(
                io::ErrorKind::NotFound,
                format!("{} is missing: run scripts/setup first", python.display()),
            ));
        }
        let dir = tempfile::Builder::new().prefix("weir-dns").tempdir()?;
        let script = dir.path().join("server.py");
        std::fs::write(&script, SCRIPT)?;
        let mut child = Command::new(python)
            .arg(&script)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()?;
        let stdin = child.stdin.take().expect("stdin is piped");
        let mut stdout = BufReader::new(child.stdout.take().expect("stdout is piped"));
        let mut line = String::new();
        stdout.read_line(&mut line)?;
        let port = line
            .strip_prefix("ready ")
            .and_then(|port| port.trim().parse::<u16>().ok());
        let Some(port) = port else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(io::Error::other(format!(
                "the DNS server did not start (is dnslib in .venv? run scripts/setup): {line:?}"
            )));
        };
        Ok(DnsServer {
            child,
            stdin,
            stdout,
            addr: SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), port),
            _dir: dir,
        })
    }

    /// Where it listens (UDP), for `[server] resolver`.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// From now on `name` answers `addrs` with this TTL (in seconds); with no address, the name
    /// is gone (NXDOMAIN). Returns once the server has taken it.
    pub fn set(&mut self, name: &str, addrs: &[IpAddr], ttl: u32) -> io::Result<()> {
        let mut line = format!("set {name} {ttl}");
        for addr in addrs {
            line.push_str(&format!(" {addr}"));
        }
        line.push('\n');
        self.command(&line)
    }

    /// Sends `line` and waits for the server's "ok".
    fn command(&mut self, line: &str) -> io::Result<()> {
        let answer = self.ask(line)?;
        if answer.trim() == "ok" {
            Ok(())
        } else {
            Err(io::Error::other(format!(
                "the DNS server refused {line:?}: {answer:?}"
            )))
        }
    }

    /// Sends `line` and reads the server's one-line answer.
    fn ask(&mut self, line: &str) -> io::Result<String> {
        self.stdin.write_all(line.as_bytes())?;
        self.stdin.flush()?;
        let mut answer = String::new();
        self.stdout.read_line(&mut answer)?;
        Ok(answer)
    }
}

impl DnsServer {
    /// From now on queries get no answer (`true`: a resolver gone quiet, where weir waits out
    /// `resolve_timeout`), or are answered again (`false`). They are counted either way.
    pub fn silent(&mut self, silent: bool) -> io::Result<()> {
        self.command(if silent {
            "silent on\n"
        } else {
            "silent off\n"
        })
    }

    /// How many queries for `name` the server has had (A and AAAA count one each).
    pub fn queries(&mut self, name: &str) -> io::Result<u64> {
        let answer = self.ask(&format!("count {name}\n"))?;
        answer
            .trim()
            .parse()
            .map_err(|_| io::Error::other(format!("the DNS server answered {answer:?}")))
    }
}

impl Drop for DnsServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
