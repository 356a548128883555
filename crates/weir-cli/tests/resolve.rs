//! `weir check` and upstream servers by host name: a name that does not resolve now is a
//! warning naming the file, line and key, with exit 0 (weir would start and answer 502 for it);
//! a malformed `HOST:PORT` is an error, exit 64; a name that resolves draws no warning.

use std::process::Command;

fn weir() -> Command {
    Command::new(env!("CARGO_BIN_EXE_weir"))
}

fn write_config(text: &str) -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("weir.toml");
    std::fs::write(&path, text).unwrap();
    (dir, path)
}

/// `[upstreams.app] servers = SERVERS` on line 8, `[server]` lines from `server_extra` (one line).
fn config(server_extra: &str, servers: &str) -> String {
    format!(
        r#"
[server]
listen = ["127.0.0.1:0"]
{server_extra}
resolve_timeout = "1s"

[upstreams.app]
servers = {servers}

[[routes]]
path = "/"
upstream = "app"
"#
    )
}

fn check(
    text: &str,
) -> (
    Option<i32>,
    String,
    String,
    std::path::PathBuf,
    tempfile::TempDir,
) {
    let (dir, path) = write_config(text);
    let output = weir()
        .args(["check", "--config"])
        .arg(&path)
        .output()
        .unwrap();
    (
        output.status.code(),
        String::from_utf8(output.stdout).unwrap(),
        String::from_utf8(output.stderr).unwrap(),
        path,
        dir,
    )
}

#[test]
fn check_warns_of_a_name_that_does_not_resolve_now_and_still_passes() {
    // A DNS server that never answers: a real UDP socket nobody reads from.
    let silent = std::net::UdpSocket::bind("127.0.0.1:0").unwrap();
    let resolver = silent.local_addr().unwrap();
    let (code, stdout, stderr, path, _dir) = check(&config(
        &format!("resolver = \"{resolver}\""),
        r#"["127.0.0.1:9", "web:8000"]"#,
    ));
    assert_eq!(code, Some(0), "{stdout}{stderr}");
    let warning = format!(
        "warning: {}:8:27: upstreams.app.servers[1]: web:8000 did not resolve within resolve_timeout",
        path.display()
    );
    assert!(stdout.contains(&warning), "no {warning:?} in: {stdout}");
    assert!(
        stdout.contains("answers 502 for it until it resolves"),
        "{stdout}"
    );
    assert!(stdout.contains("configuration OK"), "{stdout}");
    drop(silent);
}

#[test]
fn check_draws_no_warning_for_a_name_that_resolves() {
    // `localhost`, through the system's resolver (/etc/hosts).
    let (code, stdout, stderr, _path, _dir) = check(&config("", r#"["localhost:8000"]"#));
    assert_eq!(code, Some(0), "{stdout}{stderr}");
    assert!(!stdout.contains("warning:"), "{stdout}");
    assert!(
        stdout.contains("localhost:8000"),
        "the summary names it: {stdout}"
    );
    assert!(
        stdout.contains("resolved by      the system's resolver every 30s"),
        "{stdout}"
    );
}

#[test]
fn check_refuses_a_host_name_without_a_port_or_with_a_bad_one() {
    for (server, says) in [
        ("web", "has no port"),
        ("web:0", "has a bad port"),
        ("web:http", "has a bad port"),
        ("http://web:8000", "has a scheme"),
    ] {
        let (code, stdout, stderr, path, _dir) = check(&config("", &format!("[\"{server}\"]")));
        assert_eq!(code, Some(64), "{server}: {stdout}{stderr}");
        let place = format!("{}:8:12: upstreams.app.servers[0]:", path.display());
        assert!(
            stderr.contains(&place),
            "{server}: no {place:?} in: {stderr}"
        );
        assert!(stderr.contains(says), "{server}: {stderr}");
        assert!(
            stderr.contains("\"web:8000\""),
            "{server}: no valid form in {stderr}"
        );
    }
}
