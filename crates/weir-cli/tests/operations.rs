//! Operating a running `weir` process as an administrator does: `weir reload` with a broken file
//! (the old config keeps serving, the log names the file and line) and then a good one,
//! `weir upgrade` under load (no failed request, no refused connection), and systemd socket
//! activation (a listener passed in as systemd passes it). After reloads that change `listen`,
//! the listeners are exactly the config's, before an upgrade and after it; the pid file is never
//! written through a symbolic link.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use weir_testkit::wait_until_blocking;

fn weir() -> Command {
    Command::new(env!("CARGO_BIN_EXE_weir"))
}

/// An upstream on a thread: answers every request on a connection of its own with `body`.
fn upstream(body: &'static str) -> SocketAddr {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            std::thread::spawn(move || {
                let mut head = Vec::new();
                let mut byte = [0u8; 1];
                while !head.ends_with(b"\r\n\r\n") {
                    match stream.read(&mut byte) {
                        Ok(1) => head.push(byte[0]),
                        _ => return,
                    }
                }
                let answer = format!(
                    "HTTP/1.1 200 OK\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                    body.len()
                );
                let _ = stream.write_all(answer.as_bytes());
            });
        }
    });
    addr
}

/// A port nothing listens on now.
fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

fn config(port: u16, pid_file: &Path, routes: &[(&str, SocketAddr)]) -> String {
    let mut text = format!(
        "[server]\nlisten = [\"127.0.0.1:{port}\"]\npid_file = \"{}\"\nshutdown_grace = \"5s\"\n",
        pid_file.display()
    );
    for (index, (path, upstream)) in routes.iter().enumerate() {
        text.push_str(&format!(
            "\n[upstreams.u{index}]\nservers = [\"{upstream}\"]\n\n[[routes]]\npath = \"{path}\"\nupstream = \"u{index}\"\n"
        ));
    }
    text
}

/// A weir process and the lines it logs.
struct Running {
    child: Child,
    log: Arc<Mutex<Vec<String>>>,
}

impl Running {
    fn start(command: &mut Command) -> Running {
        let mut child = command
            .env("WEIR_LOG", "info")
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let stderr = child.stderr.take().unwrap();
        let log = Arc::new(Mutex::new(Vec::new()));
        let lines = Arc::clone(&log);
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                lines.lock().unwrap().push(line);
            }
        });
        let running = Running { child, log };
        running.wait_for_log("listening");
        running
    }

    fn wait_for_log(&self, text: &str) -> String {
        let deadline = Instant::now() + Duration::from_secs(15);
        loop {
            if let Some(line) = self.log.lock().unwrap().iter().find(|l| l.contains(text)) {
                return line.clone();
            }
            assert!(
                Instant::now() < deadline,
                "no log line with {text:?}: {:?}",
                self.log.lock().unwrap()
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One GET on a new connection: the status line and body, or the error.
fn get(port: u16, path: &str) -> Result<String, String> {
    let mut stream =
        TcpStream::connect(("127.0.0.1", port)).map_err(|e| format!("connect: {e}"))?;
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .map_err(|e| e.to_string())?;
    stream
        .write_all(
            format!("GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").as_bytes(),
        )
        .map_err(|e| format!("write: {e}"))?;
    let mut answer = String::new();
    stream
        .read_to_string(&mut answer)
        .map_err(|e| format!("read: {e}"))?;
    let status = answer.lines().next().unwrap_or("").to_string();
    let body = answer.split("\r\n\r\n").nth(1).unwrap_or("").to_string();
    Ok(format!("{status} | {body}"))
}

fn read_pid(path: &Path) -> Option<u32> {
    std::fs::read_to_string(path).ok()?.trim().parse().ok()
}

/// Waits until `path` holds `pid`: the pid file is written once every worker listens, a moment
/// after the first one says so.
fn wait_for_pid(path: &Path, pid: u32) {
    wait_until_blocking(
        format!("{} to hold {pid}", path.display()),
        Duration::from_secs(10),
        || read_pid(path) == Some(pid),
    );
}

fn signal(pid: u32, name: &str) {
    let status = Command::new("kill")
        .arg(format!("-{name}"))
        .arg(pid.to_string())
        .status()
        .unwrap();
    assert!(status.success());
}

#[test]
fn a_reload_with_a_broken_file_keeps_the_old_config_and_a_good_one_applies() {
    let dir = tempfile::tempdir().unwrap();
    let (path, pid_file) = (dir.path().join("weir.toml"), dir.path().join("weir.pid"));
    let (old, new) = (upstream("old"), upstream("new"));
    let port = free_port();
    std::fs::write(&path, config(port, &pid_file, &[("/", old)])).unwrap();
    let running = Running::start(weir().args(["run", "--config"]).arg(&path));
    wait_for_pid(&pid_file, running.child.id());
    assert_eq!(get(port, "/a").unwrap(), "HTTP/1.1 200 OK | old");

    // Line 3 is broken.
    std::fs::write(
        &path,
        config(port, &pid_file, &[("/", new)]).replacen(
            "shutdown_grace = \"5s\"",
            "shutdown_grace = 5 seconds",
            1,
        ),
    )
    .unwrap();
    let reload = weir()
        .args(["reload", "--pid-file"])
        .arg(&pid_file)
        .output()
        .unwrap();
    assert!(reload.status.success(), "{reload:?}");
    let line = running.wait_for_log("reload refused");
    assert!(line.contains(&format!("{}:4:", path.display())), "{line}");
    assert!(line.contains("server.shutdown_grace"), "{line}");
    assert_eq!(get(port, "/a").unwrap(), "HTTP/1.1 200 OK | old");

    std::fs::write(&path, config(port, &pid_file, &[("/", new)])).unwrap();
    let reload = weir()
        .args(["reload", "--pid-file"])
        .arg(&pid_file)
        .output()
        .unwrap();
    assert!(reload.status.success(), "{reload:?}");
    running.wait_for_log("reloaded generation=2");
    assert_eq!(get(port, "/a").unwrap(), "HTTP/1.1 200 OK | new");
}

#[test]
fn an_upgrade_under_load_fails_no_request_and_refuses_no_connection() {
    let dir = tempfile::tempdir().unwrap();
    let (path, pid_file) = (dir.path().join("weir.toml"), dir.path().join("weir.pid"));
    let app = upstream("app");
    let port = free_port();
    std::fs::write(&path, config(port, &pid_file, &[("/", app)])).unwrap();
    let mut running = Running::start(weir().args(["run", "--config"]).arg(&path));
    let old_pid = running.child.id();
    wait_for_pid(&pid_file, old_pid);

    let load = Arc::new(AtomicBool::new(true));
    let done = Arc::new(AtomicUsize::new(0));
    let failures = Arc::new(Mutex::new(Vec::new()));
    let clients: Vec<_> = (0..8)
        .map(|_| {
            let (load, done, failures) =
                (Arc::clone(&load), Arc::clone(&done), Arc::clone(&failures));
            std::thread::spawn(move || {
                while load.load(Ordering::Relaxed) {
                    match get(port, "/") {
                        Ok(answer) if answer == "HTTP/1.1 200 OK | app" => {}
                        other => failures.lock().unwrap().push(other),
                    }
                    done.fetch_add(1, Ordering::Relaxed);
                }
            })
        })
        .collect();
    // The load runs before the upgrade.
    wait_until_blocking(
        "100 requests before the upgrade",
        Duration::from_secs(20),
        || done.load(Ordering::Relaxed) >= 100,
    );
    let upgrade = weir()
        .args(["upgrade", "--pid-file"])
        .arg(&pid_file)
        .output()
        .unwrap();
    assert!(upgrade.status.success(), "{upgrade:?}");
    // The old process hands over and exits 0 once drained.
    let deadline = Instant::now() + Duration::from_secs(30);
    let exit = loop {
        if let Some(exit) = running.child.try_wait().unwrap() {
            break exit;
        }
        assert!(Instant::now() < deadline, "the old weir did not stop");
        std::thread::sleep(Duration::from_millis(20));
    };
    assert_eq!(exit.code(), Some(0));
    let new_pid = read_pid(&pid_file).expect("the new weir wrote its pid");
    assert_ne!(new_pid, old_pid);
    let before = done.load(Ordering::Relaxed);
    // The load goes on with the new weir.
    wait_until_blocking(
        "100 requests after the upgrade",
        Duration::from_secs(20),
        || done.load(Ordering::Relaxed) >= before + 100,
    );
    load.store(false, Ordering::Relaxed);
    for client in clients {
        client.join().unwrap();
    }
    assert!(
        done.load(Ordering::Relaxed) > before,
        "no request after the upgrade"
    );
    assert!(
        failures.lock().unwrap().is_empty(),
        "failed or refused: {:?}",
        failures.lock().unwrap()
    );
    running.wait_for_log("the new weir serves");
    signal(new_pid, "TERM");
    wait_until_blocking("the new weir to stop", Duration::from_secs(10), || {
        get(port, "/").is_err()
    });
}

#[test]
fn a_listener_passed_as_systemd_passes_it_is_served() {
    let dir = tempfile::tempdir().unwrap();
    let path: PathBuf = dir.path().join("weir.toml");
    let app = upstream("app");
    // As systemd does: the socket bound and listening before weir starts, at descriptor 3, with
    // LISTEN_FDS and LISTEN_PID naming the process that execs weir.
    let script = r#"
import os, socket, sys
weir, config, upstream = sys.argv[1], sys.argv[2], sys.argv[3]
s = socket.socket()
s.bind(("127.0.0.1", 0))
s.listen(128)
port = s.getsockname()[1]
with open(config, "w") as f:
    f.write('[server]\nlisten = ["127.0.0.1:%d"]\n\n[upstreams.app]\nservers = ["%s"]\n\n[[routes]]\npath = "/"\nupstream = "app"\n' % (port, upstream))
print(port, flush=True)
os.dup2(s.fileno(), 3)
os.set_inheritable(3, True)
os.environ["LISTEN_FDS"] = "1"
os.environ["LISTEN_PID"] = str(os.getpid())
os.execv(weir, [weir, "run", "--config", config])
"#;
    let mut child = Command::new("python3")
        .arg("-c")
        .arg(script)
        .arg(env!("CARGO_BIN_EXE_weir"))
        .arg(&path)
        .arg(app.to_string())
        .env("WEIR_LOG", "info")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    stdout.read_line(&mut line).unwrap();
    let port: u16 = line.trim().parse().expect("the wrapper prints the port");
    let stderr = child.stderr.take().unwrap();
    let log = Arc::new(Mutex::new(Vec::new()));
    let lines = Arc::clone(&log);
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            lines.lock().unwrap().push(line);
        }
    });
    let running = Running { child, log };
    running.wait_for_log("listening");
    assert_eq!(get(port, "/").unwrap(), "HTTP/1.1 200 OK | app");
    // weir bound nothing of its own: the one listening line is the inherited port.
    let listening: Vec<String> = running
        .log
        .lock()
        .unwrap()
        .iter()
        .filter(|l| l.contains("listening addr="))
        .cloned()
        .collect();
    assert_eq!(listening.len(), 1, "{listening:?}");
    assert!(
        listening[0].contains(&format!("127.0.0.1:{port}")),
        "{listening:?}"
    );
}

/// A config on `plain` ports and, when `tls` is not empty, on `tls` ports with the self-signed
/// certificate `dir/cert.pem` for `example.test`; four runtimes, so a listener is four sockets.
fn listening_on(
    plain: &[u16],
    tls: &[u16],
    dir: &Path,
    pid_file: &Path,
    upstream: SocketAddr,
) -> String {
    let list = |ports: &[u16]| {
        ports
            .iter()
            .map(|port| format!("\"127.0.0.1:{port}\""))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut text = format!(
        "[server]\nlisten = [{}]\npid_file = \"{}\"\nshutdown_grace = \"5s\"\nthreads = 4\n\n\
         [upstreams.app]\nservers = [\"{upstream}\"]\n\n[[routes]]\npath = \"/\"\nupstream = \"app\"\n",
        list(plain),
        pid_file.display()
    );
    if !tls.is_empty() {
        text.push_str(&format!(
            "\n[tls]\nlisten = [{}]\n\n[[tls.certificates]]\ncert = \"{}\"\nkey = \"{}\"\n",
            list(tls),
            dir.join("cert.pem").display(),
            dir.join("key.pem").display()
        ));
    }
    text
}

/// Writes a self-signed certificate for `example.test` and its key into `dir`.
fn write_certificate(dir: &Path) {
    let key = rcgen::KeyPair::generate().unwrap();
    let params = rcgen::CertificateParams::new(vec!["example.test".to_string()]).unwrap();
    let cert = params.self_signed(&key).unwrap();
    std::fs::write(dir.join("cert.pem"), cert.pem()).unwrap();
    std::fs::write(dir.join("key.pem"), key.serialize_pem()).unwrap();
}

/// One GET over HTTPS (curl, certificate not checked): the body, or curl's complaint.
fn get_tls(port: u16) -> Result<String, String> {
    let output = Command::new("curl")
        .args(["-sS", "-k", "--max-time", "10", "--resolve"])
        .arg(format!("example.test:{port}:127.0.0.1"))
        .arg(format!("https://example.test:{port}/"))
        .output()
        .map_err(|e| format!("curl: {e}"))?;
    if output.status.success() {
        Ok(String::from_utf8_lossy(&output.stdout).into_owned())
    } else {
        Err(String::from_utf8_lossy(&output.stderr).into_owned())
    }
}

/// Asks the weir in `pid_file` to reload and waits until it has applied `generation`.
fn reload_to(running: &Running, pid_file: &Path, generation: u64) {
    let reload = weir()
        .args(["reload", "--pid-file"])
        .arg(pid_file)
        .output()
        .unwrap();
    assert!(reload.status.success(), "{reload:?}");
    running.wait_for_log(&format!("reloaded generation={generation}"));
}

/// Waits until a connection to `port` is refused (nothing listens there any more).
fn wait_refused(port: u16) {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        match TcpStream::connect(("127.0.0.1", port)) {
            Err(error) if error.kind() == std::io::ErrorKind::ConnectionRefused => return,
            other => assert!(
                Instant::now() < deadline,
                "127.0.0.1:{port} still accepts connections: {other:?}"
            ),
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Asks the weir in `pid_file` to upgrade, waits until the old one (`running`) has exited 0 and
/// returns the new one, stopped with SIGTERM when dropped.
fn upgrade(running: &mut Running, pid_file: &Path) -> Successor {
    let old_pid = running.child.id();
    let upgrade = weir()
        .args(["upgrade", "--pid-file"])
        .arg(pid_file)
        .output()
        .unwrap();
    assert!(upgrade.status.success(), "{upgrade:?}");
    let deadline = Instant::now() + Duration::from_secs(30);
    let exit = loop {
        if let Some(exit) = running.child.try_wait().unwrap() {
            break exit;
        }
        assert!(
            Instant::now() < deadline,
            "the old weir did not stop: {:?}",
            running.log.lock().unwrap()
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    assert_eq!(exit.code(), Some(0), "{:?}", running.log.lock().unwrap());
    let new_pid = read_pid(pid_file).expect("the new weir wrote its pid");
    assert_ne!(new_pid, old_pid);
    Successor(new_pid)
}

/// The weir an upgrade started (not a child of the test): stopped with SIGTERM when dropped.
struct Successor(u32);

impl Drop for Successor {
    fn drop(&mut self) {
        let _ = Command::new("kill")
            .arg("-TERM")
            .arg(self.0.to_string())
            .status();
    }
}

/// Issue 16, finding 6: a removed listener used to live on in the copies kept for upgrades,
/// accepting connections that nobody served, and a listener added back joined those copies'
/// `SO_REUSEPORT` group, so some of its connections hung.
#[test]
fn a_listener_removed_by_reload_refuses_connections_and_one_added_back_serves_every_one() {
    let dir = tempfile::tempdir().unwrap();
    let (path, pid_file) = (dir.path().join("weir.toml"), dir.path().join("weir.pid"));
    let app = upstream("app");
    let (kept, removed) = (free_port(), free_port());
    let both = listening_on(&[kept, removed], &[], dir.path(), &pid_file, app);
    std::fs::write(&path, &both).unwrap();
    let running = Running::start(weir().args(["run", "--config"]).arg(&path));
    wait_for_pid(&pid_file, running.child.id());
    assert_eq!(get(removed, "/").unwrap(), "HTTP/1.1 200 OK | app");

    std::fs::write(
        &path,
        listening_on(&[kept], &[], dir.path(), &pid_file, app),
    )
    .unwrap();
    reload_to(&running, &pid_file, 2);
    wait_refused(removed);
    assert_eq!(get(kept, "/").unwrap(), "HTTP/1.1 200 OK | app");

    std::fs::write(&path, &both).unwrap();
    reload_to(&running, &pid_file, 3);
    // The gateway binds an address the reload added after it logs the reload (its accept loop
    // follows the new list): a connection between the two was refused (seen in CI).
    running.wait_for_log(&format!("reload: listening addr=127.0.0.1:{removed}"));
    for round in 0..16 {
        assert_eq!(
            get(removed, "/"),
            Ok("HTTP/1.1 200 OK | app".to_string()),
            "connection {round} to the listener added back"
        );
    }
}

/// Issue 16, finding 6: an upgrade used to pass on every listener made at start, so the new
/// process served a port a reload had removed (as plain HTTP).
#[test]
fn an_upgrade_after_a_reload_removed_a_listener_does_not_serve_it_again() {
    let dir = tempfile::tempdir().unwrap();
    let (path, pid_file) = (dir.path().join("weir.toml"), dir.path().join("weir.pid"));
    let app = upstream("app");
    let (kept, removed) = (free_port(), free_port());
    std::fs::write(
        &path,
        listening_on(&[kept, removed], &[], dir.path(), &pid_file, app),
    )
    .unwrap();
    let mut running = Running::start(weir().args(["run", "--config"]).arg(&path));
    wait_for_pid(&pid_file, running.child.id());
    std::fs::write(
        &path,
        listening_on(&[kept], &[], dir.path(), &pid_file, app),
    )
    .unwrap();
    reload_to(&running, &pid_file, 2);

    let _successor = upgrade(&mut running, &pid_file);
    assert_eq!(get(kept, "/").unwrap(), "HTTP/1.1 200 OK | app");
    wait_refused(removed);
}

/// Issue 16, finding 6: a port that a reload moved from `[server] listen` to `[tls] listen` is
/// served as TLS, by every runtime before the upgrade and by the new process after it (which
/// used to serve the old plain sockets it was passed as plain HTTP beside the TLS ones).
#[test]
fn a_port_moved_to_tls_by_reload_speaks_tls_before_and_after_an_upgrade() {
    let dir = tempfile::tempdir().unwrap();
    let (path, pid_file) = (dir.path().join("weir.toml"), dir.path().join("weir.pid"));
    write_certificate(dir.path());
    let app = upstream("app");
    let (kept, moved, tls) = (free_port(), free_port(), free_port());
    std::fs::write(
        &path,
        listening_on(&[kept, moved], &[tls], dir.path(), &pid_file, app),
    )
    .unwrap();
    let mut running = Running::start(weir().args(["run", "--config"]).arg(&path));
    wait_for_pid(&pid_file, running.child.id());
    assert_eq!(get(moved, "/").unwrap(), "HTTP/1.1 200 OK | app");

    std::fs::write(
        &path,
        listening_on(&[kept], &[tls, moved], dir.path(), &pid_file, app),
    )
    .unwrap();
    reload_to(&running, &pid_file, 2);
    for round in 0..16 {
        assert_eq!(get_tls(moved), Ok("app".to_string()), "before, {round}");
    }

    let _successor = upgrade(&mut running, &pid_file);
    for round in 0..16 {
        assert_eq!(get_tls(moved), Ok("app".to_string()), "after, {round}");
    }
    // Plain HTTP on it is answered as a TLS listener answers it: 400.
    let plain = get(moved, "/").unwrap();
    assert!(plain.starts_with("HTTP/1.1 400"), "{plain}");
    assert_eq!(get(kept, "/").unwrap(), "HTTP/1.1 200 OK | app");
}

/// Issue 16, item 11(c): a pid file that is a symbolic link is refused, naming the path, and
/// nothing is written to what it points at.
#[test]
fn a_pid_file_that_is_a_symbolic_link_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let (path, pid_file) = (dir.path().join("weir.toml"), dir.path().join("weir.pid"));
    let target = dir.path().join("precious");
    std::fs::write(&target, "keep\n").unwrap();
    std::os::unix::fs::symlink(&target, &pid_file).unwrap();
    std::fs::write(
        &path,
        config(free_port(), &pid_file, &[("/", upstream("app"))]),
    )
    .unwrap();
    let mut running = Running::start(weir().args(["run", "--config"]).arg(&path));
    let deadline = Instant::now() + Duration::from_secs(15);
    let exit = loop {
        if let Some(exit) = running.child.try_wait().unwrap() {
            break exit;
        }
        assert!(
            Instant::now() < deadline,
            "weir runs with a symbolic link as its pid file; {} holds {:?}",
            target.display(),
            std::fs::read_to_string(&target)
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(!exit.success());
    let line = running.wait_for_log("symbolic link");
    assert!(line.contains(&pid_file.display().to_string()), "{line}");
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "keep\n");
}

/// An upgrade hands over the admin listener too: the new process used to bind `[admin] listen`
/// itself, which the old process still held (`address in use`), so it never started.
#[test]
fn an_upgrade_hands_over_the_admin_listener() {
    let dir = tempfile::tempdir().unwrap();
    let (path, pid_file) = (dir.path().join("weir.toml"), dir.path().join("weir.pid"));
    let app = upstream("app");
    let (port, admin) = (free_port(), free_port());
    let text = format!(
        "{}\n[admin]\nlisten = \"127.0.0.1:{admin}\"\n",
        listening_on(&[port], &[], dir.path(), &pid_file, app)
    );
    std::fs::write(&path, text).unwrap();
    let mut running = Running::start(weir().args(["run", "--config"]).arg(&path));
    wait_for_pid(&pid_file, running.child.id());
    let _successor = upgrade(&mut running, &pid_file);
    assert_eq!(
        get(admin, "/healthz").unwrap().split(" | ").next(),
        Some("HTTP/1.1 200 OK")
    );
    assert_eq!(get(port, "/").unwrap(), "HTTP/1.1 200 OK | app");
}
