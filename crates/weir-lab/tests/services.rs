//! The lab's counters against real processes: strace attached to a busy process counts its
//! system calls, and a real redis-server started as a group's app reports the commands it ran.
//! Gated by WEIR_LAB=1 because they need strace and redis-server.

use std::io::{Read, Write};
use std::os::unix::fs::PermissionsExt;
use std::os::unix::net::UnixStream;
use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

use weir_lab::components;
use weir_lab::redis::command_stats;
use weir_lab::spec::{App, AppSpec, Env};
use weir_lab::syscalls::Trace;

fn enabled() -> bool {
    std::env::var("WEIR_LAB").is_ok_and(|value| value == "1")
}

#[test]
fn strace_counts_the_calls_of_a_busy_process() {
    if !enabled() {
        eprintln!("skipped: set WEIR_LAB=1 to run the lab's process tests");
        return;
    }
    let mut child = Command::new("sh")
        .args(["-c", "while true; do echo x > /dev/null; sleep 0.01; done"])
        .spawn()
        .unwrap();
    let output = tempfile::NamedTempFile::new().unwrap();
    let result = Trace::attach(&[child.id()], output.path()).and_then(|trace| {
        std::thread::sleep(Duration::from_millis(300));
        trace.finish()
    });
    let _ = child.kill();
    let _ = child.wait();
    let calls = result.unwrap();
    // Each loop forks a sleep and waits for it: dozens of calls in 300 ms.
    assert!(calls > 10, "{calls} calls");
}

#[test]
fn redis_started_as_an_app_counts_the_commands_it_ran() {
    if !enabled() {
        eprintln!("skipped: set WEIR_LAB=1 to run the lab's process tests");
        return;
    }
    let temp = tempfile::tempdir().unwrap();
    std::fs::set_permissions(temp.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let env = Env {
        root: PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../.."),
        temp: temp.path().to_path_buf(),
        weir: PathBuf::from("weir-not-used-here"),
        ceiling: PathBuf::from(env!("CARGO_BIN_EXE_weir-lab-ceiling")),
        static_file: temp.path().join("unused"),
    };
    let spec = AppSpec {
        id: "redis".to_string(),
        app: App::Redis,
    };
    let _redis = components::start_app(&env, &spec, None).unwrap();
    let socket = components::redis_socket(&env);
    let before = command_stats(&socket).unwrap();
    let mut stream = UnixStream::connect(&socket).unwrap();
    stream.write_all(b"SET a 1\r\nGET a\r\nGET b\r\n").unwrap();
    let mut reply = Vec::new();
    let mut chunk = [0u8; 256];
    // +OK, $1 1, $-1: wait for all three answers.
    while !reply.ends_with(b"$-1\r\n") {
        let read = stream.read(&mut chunk).unwrap();
        assert!(
            read > 0,
            "Redis closed: {:?}",
            String::from_utf8_lossy(&reply)
        );
        reply.extend_from_slice(&chunk[..read]);
    }
    let after = command_stats(&socket).unwrap();
    let during = before.until(&after);
    assert_eq!(during.calls, 3);
    assert_eq!(during.failed, 0);
}

#[test]
fn every_nginx_and_haproxy_config_of_the_full_plans_passes_the_servers_own_check() {
    use weir_lab::components::haproxy_binary;
    use weir_lab::configs::{haproxy_config, haproxy_tls_config, nginx_config};
    use weir_lab::process::Addr;
    use weir_lab::scenario::Settings;
    use weir_lab::spec::{Gateway, Layout, Venv};
    use weir_testkit::nginx::binary as nginx_binary;
    if !enabled() {
        eprintln!("skipped: set WEIR_LAB=1 to run the lab's process tests");
        return;
    }
    let temp = tempfile::tempdir().unwrap();
    let env = Env {
        root: PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../.."),
        temp: temp.path().to_path_buf(),
        weir: PathBuf::from("weir-not-used-here"),
        ceiling: PathBuf::from(env!("CARGO_BIN_EXE_weir-lab-ceiling")),
        static_file: temp.path().join("file"),
    };
    std::fs::write(&env.static_file, "x").unwrap();
    let settings = Settings {
        quick: false,
        rounds: 3,
        duration: Duration::from_secs(10),
        layouts: vec![Layout::DEFAULT],
        venvs: vec![Venv::Plain],
        loader: None,
        idle_connections: 10_000,
        slowloris_connections: 5_000,
        soak_duration: Duration::from_secs(600),
        fast_upstream: weir_lab::scenario::FastUpstream::Nginx,
    };
    let listen = "127.0.0.1:18080".parse().unwrap();
    let upstream = Addr::Unix(temp.path().join("app.sock"));
    let mut checked = Vec::new();
    for scenario in weir_lab::scenarios::ALL.iter() {
        for group in (scenario.plan)(&settings) {
            for cell in &group.cells {
                let (what, mut command) = match cell.gateway.gateway {
                    Gateway::Nginx(options) if !checked.contains(&format!("{options:?}")) => {
                        checked.push(format!("{options:?}"));
                        let prefix = temp.path().join(format!("nginx-{}", checked.len()));
                        std::fs::create_dir_all(&prefix).unwrap();
                        let config = prefix.join("nginx.conf");
                        let text = nginx_config(&env, &options, &prefix, listen, &upstream);
                        std::fs::write(&config, &text).unwrap();
                        let mut command = Command::new(nginx_binary());
                        command
                            .arg("-t")
                            .arg("-p")
                            .arg(&prefix)
                            .arg("-e")
                            .arg("stderr")
                            .arg("-c")
                            .arg(&config);
                        (text, command)
                    }
                    Gateway::Haproxy(options) if !checked.contains(&format!("{options:?}")) => {
                        checked.push(format!("{options:?}"));
                        let config = temp.path().join(format!("haproxy-{}.cfg", checked.len()));
                        let mut text = haproxy_config(&options, listen, &upstream);
                        if options.tls {
                            // The tls scenario's frontend with a real certificate and key.
                            let pem = components::tls_bundle(&env).unwrap();
                            text = haproxy_tls_config(&text, listen, &pem).unwrap();
                        }
                        std::fs::write(&config, &text).unwrap();
                        let mut command = Command::new(haproxy_binary());
                        command.arg("-c").arg("-f").arg(&config);
                        (text, command)
                    }
                    _ => continue,
                };
                let output = command.output().unwrap();
                assert!(
                    output.status.success(),
                    "{} / {} / {}: {}\n{what}",
                    scenario.name,
                    group.name,
                    cell.gateway.label,
                    String::from_utf8_lossy(&output.stderr)
                );
            }
        }
    }
    // The seed's and the tuned nginx, with and without limits and the static file, and HAProxy.
    assert!(checked.len() >= 8, "{checked:?}");
    // The tls scenario's HAProxy, its frontend terminating TLS with the lab's PEM.
    assert!(
        checked
            .iter()
            .any(|options| options.starts_with("HaproxyOptions") && options.contains("tls: true")),
        "{checked:?}"
    );
    // And nginx as the fast upstream (`--fast-upstream nginx`).
    let prefix = temp.path().join("nginx-return");
    std::fs::create_dir_all(&prefix).unwrap();
    let config = prefix.join("nginx.conf");
    let socket = temp.path().join("fast.sock");
    std::fs::write(
        &config,
        weir_lab::configs::nginx_return_config(&prefix, listen, &socket),
    )
    .unwrap();
    let output = Command::new(nginx_binary())
        .arg("-t")
        .arg("-p")
        .arg(&prefix)
        .arg("-e")
        .arg("stderr")
        .arg("-c")
        .arg(&config)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}
