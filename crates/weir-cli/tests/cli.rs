//! The `weir` binary as a user runs it: `--version`, `check` on good and bad files (exit 64 with
//! file, line, key and what is valid), and `run` stopped by SIGTERM (exit 0).

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn weir() -> Command {
    Command::new(env!("CARGO_BIN_EXE_weir"))
}

/// `weir check --config CONFIG`.
fn check(config: &std::path::Path) -> std::process::Output {
    weir()
        .args(["check", "--config"])
        .arg(config)
        .output()
        .unwrap()
}

/// `weir import NGINX [-o OUTPUT] FLAGS...`.
fn import(
    nginx: &std::path::Path,
    output: Option<&std::path::Path>,
    flags: &[&str],
) -> std::process::Output {
    let mut command = weir();
    command.arg("import").arg(nginx);
    if let Some(output) = output {
        command.arg("-o").arg(output);
    }
    command.args(flags).output().unwrap()
}

fn write_config(text: &str) -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("weir.toml");
    std::fs::write(&path, text).unwrap();
    (dir, path)
}

const GOOD: &str = r#"
[server]
listen = ["127.0.0.1:0"]

[upstreams.app]
servers = ["unix:/tmp/nowhere.sock"]

[[routes]]
path = "/"
upstream = "app"
"#;

#[test]
fn version_is_printed() {
    let output = weir().arg("--version").output().unwrap();
    assert!(output.status.success());
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(text.starts_with("weir "), "{text}");
}

#[test]
fn check_accepts_a_good_file_and_prints_a_summary() {
    let (_dir, path) = write_config(GOOD);
    let output = check(&path);
    assert_eq!(output.status.code(), Some(0));
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(text.contains("unix:/tmp/nowhere.sock"), "{text}");
    assert!(text.contains("configuration OK"), "{text}");
}

fn check_fails(text: &str) -> String {
    let (_dir, path) = write_config(text);
    let output = check(&path);
    assert_eq!(output.status.code(), Some(64));
    let message = String::from_utf8(output.stderr).unwrap();
    assert!(
        message.contains(&path.display().to_string()),
        "no file name: {message}"
    );
    message
}

#[test]
fn check_rejects_a_bad_value_with_file_line_and_key() {
    let message = check_fails(&GOOD.replace(
        "servers = [\"unix:/tmp/nowhere.sock\"]",
        "servers = [\"unix:/tmp/nowhere.sock\"]\nidle_timeout = \"5 seconds\"",
    ));
    assert!(message.contains(":7:"), "no line: {message}");
    assert!(
        message.contains("upstreams.app.idle_timeout"),
        "no key: {message}"
    );
    assert!(message.contains("\"65s\""), "no valid example: {message}");
}

#[test]
fn check_rejects_an_unknown_key() {
    let message = check_fails(&GOOD.replace("[server]", "[server]\nkeepalive_timout = \"5s\""));
    assert!(message.contains("keepalive_timout"), "{message}");
    assert!(
        message.contains("keepalive_timeout"),
        "valid keys not listed: {message}"
    );
}

#[test]
fn check_rejects_a_route_to_a_missing_upstream() {
    let message = check_fails(&GOOD.replace("upstream = \"app\"", "upstream = \"api\""));
    assert!(message.contains("routes[0].upstream"), "{message}");
    assert!(
        message.contains("app"),
        "defined upstreams not listed: {message}"
    );
}

/// A static route whose directory is missing: `weir run` could not serve it, so `weir check`
/// refuses it too, with file, line and key, and `run` exits as `check` does.
#[test]
fn check_and_run_refuse_a_missing_static_directory_with_file_line_and_key() {
    let text =
        format!("{GOOD}\n[[routes]]\npath = \"/static/\"\nstatic = \"/nonexistent/weir-static\"\n");
    let message = check_fails(&text);
    assert!(message.contains(":14:"), "no line: {message}");
    assert!(message.contains("routes[1].static"), "no key: {message}");
    assert!(
        message.contains("/nonexistent/weir-static") && message.contains("existing directory"),
        "{message}"
    );
    let (_dir, path) = write_config(&text);
    let output = weir()
        .args(["run", "--config"])
        .arg(&path)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(64));
    let message = String::from_utf8(output.stderr).unwrap();
    assert!(message.contains("routes[1].static"), "{message}");
}

#[test]
fn check_refuses_an_unknown_variable_in_a_header_rule() {
    let message = check_fails(&GOOD.replace(
        "upstream = \"app\"",
        "upstream = \"app\"\nrequest_headers = { \"X-Real-IP\" = \"$binary_remote_addr\" }",
    ));
    assert!(message.contains(":11:"), "no line: {message}");
    assert!(
        message.contains("routes[0].request_headers.X-Real-IP"),
        "no key: {message}"
    );
    assert!(
        message.contains("$remote_addr"),
        "known variables not listed: {message}"
    );
}

#[test]
fn check_rejects_an_invalid_route_regex_and_a_route_on_no_listener() {
    let message =
        check_fails(&GOOD.replace("path = \"/\"", "path = \"\\\\.(php$\"\nmatch = \"regex\""));
    assert!(message.contains(":9:"), "no line: {message}");
    assert!(message.contains("routes[0].path"), "no key: {message}");
    assert!(
        message.contains("unclosed group"),
        "no regex message: {message}"
    );
    let message = check_fails(&GOOD.replace(
        "upstream = \"app\"",
        "upstream = \"app\"\nlisten = [\"0.0.0.0:443\"]",
    ));
    assert!(message.contains("routes[0].listen"), "{message}");
    assert!(
        message.contains("127.0.0.1:0"),
        "the listeners not listed: {message}"
    );
}

#[test]
fn check_shows_how_routes_match() {
    let (_dir, path) = write_config(&GOOD.replace(
        "upstream = \"app\"",
        "upstream = \"app\"\n[[routes]]\npath = \"\\\\.php$\"\nmatch = \"regex_nocase\"\nscheme = \"http\"\nupstream = \"app\"\n[[routes]]\npath = \"/protected/\"\nstatic = \"/srv\"\ninternal = true",
    ));
    let output = check(&path);
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(output.status.success(), "{text}");
    assert!(text.contains(r"* ~* \.php$ -> app  on http"), "{text}");
    assert!(
        text.contains("/protected/ -> static /srv  internal"),
        "{text}"
    );
}

#[test]
fn a_missing_file_exits_64() {
    let output = weir()
        .args(["check", "--config", "/nonexistent/weir.toml"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(64));
}

#[test]
fn run_stops_gracefully_on_sigterm() {
    let (_dir, path) = write_config(GOOD);
    let mut child = weir()
        .args(["run", "--config"])
        .arg(&path)
        .env("WEIR_LOG", "info")
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stderr = child.stderr.take().unwrap();
    let mut lines = BufReader::new(stderr).lines();
    let started = Instant::now();
    let addr = loop {
        let line = lines.next().expect("weir logs before exiting").unwrap();
        if let Some(rest) = line.split("addr=").nth(1) {
            break rest.split_whitespace().next().unwrap().to_string();
        }
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "no listening line"
        );
    };
    // The gateway answers: 502, since the upstream socket does not exist.
    let mut stream = std::net::TcpStream::connect(&addr).unwrap();
    use std::io::{Read, Write};
    stream
        .write_all(b"GET / HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n")
        .unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    assert!(answer.starts_with("HTTP/1.1 502"), "{answer}");
    let status = Command::new("kill")
        .arg("-TERM")
        .arg(child.id().to_string())
        .status()
        .unwrap();
    assert!(status.success());
    let deadline = Instant::now() + Duration::from_secs(10);
    let exit = loop {
        if let Some(exit) = child.try_wait().unwrap() {
            break exit;
        }
        assert!(Instant::now() < deadline, "weir did not stop on SIGTERM");
        std::thread::sleep(Duration::from_millis(20));
    };
    assert_eq!(exit.code(), Some(0));
}

fn write_nginx(text: &str) -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("nginx.conf");
    std::fs::write(&path, text).unwrap();
    (dir, path)
}

const NGINX_EXACT: &str = "events {}\nhttp {\n  upstream app { server unix:/run/app.sock; keepalive 8; }\n  server {\n    listen 8080;\n    location / { proxy_pass http://app; proxy_set_header Host $host; }\n  }\n}\n";

#[test]
fn import_writes_a_config_that_check_accepts_and_reports_on_stderr() {
    let (dir, nginx) = write_nginx(NGINX_EXACT);
    let output_path = dir.path().join("weir.toml");
    let output = import(&nginx, Some(&output_path), &[]);
    assert_eq!(output.status.code(), Some(0));
    assert!(output.stdout.is_empty(), "the config goes to the file");
    let report = String::from_utf8(output.stderr).unwrap();
    assert!(report.contains("Translated: "), "{report}");
    assert!(report.contains("Approximated (and how): 0"), "{report}");
    assert!(report.contains("Not supported (and why): 0"), "{report}");
    let toml = std::fs::read_to_string(&output_path).unwrap();
    assert!(
        toml.contains("max_idle = 8") && toml.contains("nginx.conf:3"),
        "{toml}"
    );
    let checked = check(&output_path);
    assert_eq!(checked.status.code(), Some(0), "{checked:?}");
    // --strict passes when everything was translated.
    let strict = import(&nginx, None, &["--strict"]);
    assert_eq!(strict.status.code(), Some(0));
    let stdout = String::from_utf8(strict.stdout).unwrap();
    assert!(
        stdout.contains("[upstreams.app]"),
        "without -o to stdout: {stdout}"
    );
}

#[test]
fn import_to_a_closed_pipe_reports_and_exits_as_usual_without_a_panic() {
    let (_dir, nginx) = write_nginx(NGINX_EXACT);
    // A reader that left before the config was written (`weir import nginx.conf | head -0`).
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let output = weir()
        .arg("import")
        .arg(&nginx)
        .stdout(writer)
        .stderr(std::process::Stdio::piped())
        .output()
        .unwrap();
    let report = String::from_utf8(output.stderr).unwrap();
    assert!(!report.contains("panicked"), "{report}");
    assert!(report.contains("Translated: "), "{report}");
    assert_eq!(output.status.code(), Some(0), "{report}");
}

#[test]
fn check_to_a_closed_pipe_exits_as_the_config_says_without_a_panic() {
    let (_dir, path) = write_config(GOOD);
    // A reader that left before the summary was written (`weir check ... | head -0`).
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let output = weir()
        .args(["check", "--config"])
        .arg(&path)
        .stdout(writer)
        .stderr(std::process::Stdio::piped())
        .output()
        .unwrap();
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(output.status.code(), Some(0), "{stderr}");
}

#[test]
fn import_strict_exits_65_when_something_was_left_out() {
    let (_dir, nginx) = write_nginx(&NGINX_EXACT.replace(
        "location / {",
        "location /private/ { limit_rate $rate; proxy_pass http://app; proxy_set_header Host $host; }\n    location / {",
    ));
    // The dropped bandwidth limit (weir's rate is no variable) is less safe: 65 until accepted.
    let lenient = import(&nginx, None, &["--accept-less-safe"]);
    assert_eq!(lenient.status.code(), Some(0));
    let strict = import(&nginx, None, &["--strict", "--accept-less-safe"]);
    assert_eq!(strict.status.code(), Some(65));
    let report = String::from_utf8(strict.stderr).unwrap();
    assert!(
        report.contains("nginx.conf:6: limit_rate $rate") && report.contains("not a variable"),
        "{report}"
    );
}

#[test]
fn import_exits_65_on_a_less_safe_import_and_0_once_accepted() {
    // A password file weir cannot find (nginx reads a path with variables per request): the app
    // behind /admin/ becomes reachable by anyone.
    let (dir, nginx) = write_nginx(&NGINX_EXACT.replace(
        "location / {",
        "location /admin/ { auth_basic \"admins\"; auth_basic_user_file /etc/nginx/$host.htpasswd; proxy_pass http://app; proxy_set_header Host $host; }\n    location / {",
    ));
    let output_path = dir.path().join("weir.toml");
    let refused = import(&nginx, Some(&output_path), &[]);
    assert_eq!(refused.status.code(), Some(65));
    let report = String::from_utf8(refused.stderr).unwrap();
    assert!(
        report.starts_with("!!! LESS SAFE THAN NGINX: 2 !!!"),
        "the less-safe part comes first: {report}"
    );
    assert!(
        report.contains("nginx.conf:6: auth_basic admins: the password prompt is dropped")
            && report.contains("nginx.conf:6: auth_basic_user_file /etc/nginx/$host.htpasswd: the password file is dropped"),
        "{report}"
    );
    assert!(report.contains("--accept-less-safe"), "{report}");
    assert!(output_path.exists(), "the config is written all the same");
    let accepted = import(&nginx, Some(&output_path), &["--accept-less-safe"]);
    assert_eq!(accepted.status.code(), Some(0), "{accepted:?}");
}

/// `auth_basic` with a password file relative to nginx's configuration directory becomes
/// `basic_auth` with that file's absolute path, which `weir check` reads.
#[test]
fn import_carries_auth_basic_and_check_reads_its_password_file() {
    let (dir, nginx) = write_nginx(&NGINX_EXACT.replace(
        "location / {",
        "auth_basic \"Staff\";\n    auth_basic_user_file conf.d/htpasswd;\n    location /health { auth_basic off; proxy_pass http://app; proxy_set_header Host $host; }\n    location / {",
    ));
    std::fs::create_dir(dir.path().join("conf.d")).unwrap();
    let users = dir.path().join("conf.d/htpasswd");
    std::fs::write(&users, "alice:{PLAIN}secret\n").unwrap();
    let output_path = dir.path().join("weir.toml");
    let output = import(&nginx, Some(&output_path), &[]);
    let report = String::from_utf8(output.stderr).unwrap();
    assert_eq!(output.status.code(), Some(0), "{report}");
    assert!(report.contains("Not supported (and why): 0"), "{report}");
    let toml = std::fs::read_to_string(&output_path).unwrap();
    let users = users.canonicalize().unwrap();
    let route = |path: &str| {
        let start = toml.find(&format!("path = \"{path}\"")).expect("the route");
        toml[start..]
            .split("[[routes]]")
            .next()
            .unwrap()
            .to_string()
    };
    assert!(
        route("/").contains(&format!(
            "basic_auth = {{ realm = \"Staff\", user_file = \"{}\" }}",
            users.display()
        )),
        "{toml}"
    );
    assert!(!route("/health").contains("basic_auth"), "{toml}");
    let checked = check(&output_path);
    assert_eq!(checked.status.code(), Some(0), "{checked:?}");
    // A line weir cannot read stops the check, naming the file and line.
    std::fs::write(&users, "alice:secret\n").unwrap();
    let checked = check(&output_path);
    let message = String::from_utf8(checked.stderr).unwrap();
    assert_eq!(checked.status.code(), Some(64), "{message}");
    assert!(message.contains("htpasswd:1: "), "{message}");
}

#[test]
fn import_of_a_broken_nginx_config_names_file_and_line() {
    let (_dir, nginx) = write_nginx("events {}\nhttp {\n  server {\n    listen 80\n  }\n}\n");
    let output = import(&nginx, None, &[]);
    assert_eq!(output.status.code(), Some(64));
    let message = String::from_utf8(output.stderr).unwrap();
    assert!(message.contains("nginx.conf:5: "), "{message}");
}

/// A self-signed certificate for `example.test` valid until `days` from now (negative: expired),
/// written beside a config that serves it on `[tls]`.
fn tls_config_with_certificate(days: i64) -> (tempfile::TempDir, std::path::PathBuf) {
    let key = rcgen::KeyPair::generate().unwrap();
    let mut params = rcgen::CertificateParams::new(vec!["example.test".to_string()]).unwrap();
    let now = time::OffsetDateTime::now_utc();
    params.not_before = now - time::Duration::days(90);
    params.not_after = now + time::Duration::days(days);
    let cert = params.self_signed(&key).unwrap();
    let (dir, path) = write_config(&format!(
        "{GOOD}\n[tls]\nlisten = [\"127.0.0.1:0\"]\n\n[[tls.certificates]]\ncert = \"fullchain.pem\"\nkey = \"privkey.pem\"\n"
    ));
    std::fs::write(dir.path().join("fullchain.pem"), cert.pem()).unwrap();
    std::fs::write(dir.path().join("privkey.pem"), key.serialize_pem()).unwrap();
    (dir, path)
}

#[test]
fn check_refuses_an_expired_certificate_naming_the_file() {
    let (dir, path) = tls_config_with_certificate(-1);
    let output = check(&path);
    assert_eq!(output.status.code(), Some(64));
    let text = String::from_utf8(output.stderr).unwrap();
    assert!(text.contains("tls.certificates[0].cert"), "{text}");
    assert!(
        text.contains(&dir.path().join("fullchain.pem").display().to_string()),
        "{text}"
    );
    assert!(text.contains("expired"), "{text}");
}

#[test]
fn check_warns_of_a_certificate_that_expires_within_two_weeks() {
    let (_dir, path) = tls_config_with_certificate(5);
    let output = check(&path);
    assert_eq!(output.status.code(), Some(0));
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(text.contains("warning:"), "{text}");
    assert!(
        text.contains("fullchain.pem: the certificate for example.test expires in"),
        "{text}"
    );
    assert!(text.contains("configuration OK"), "{text}");
    // A certificate with a year left draws no warning.
    let (_dir, path) = tls_config_with_certificate(365);
    let output = check(&path);
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(!text.contains("warning:"), "{text}");
    assert!(
        text.contains("protocols          TLSv1.2, TLSv1.3; ALPN h2, http/1.1"),
        "{text}"
    );
}

/// The configs weir ships pass `weir check`: the example a new user copies (README, with the rate
/// limit, compression, real IP, the access log and the admin listener) and the Debian package's
/// /etc/weir/weir.toml; both declare their app's capacity (issue 21), which `check` names.
#[test]
fn the_shipped_configs_pass_check() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    // The package's log directory is made by systemd when the unit starts (LogsDirectory=): here
    // it is a temp dir, as `weir check` refuses a log whose directory does not exist.
    let logs = tempfile::tempdir().unwrap();
    for (file, expect) in [
        (
            "examples/weir.toml",
            [
                "limits",
                "api: 10r/s",
                "admin",
                "compression",
                "adaptive from 2 to 64 (workers 2 x threads 32, worker_class \"async\"",
            ],
        ),
        (
            "packaging/weir.toml",
            [
                "limits",
                "api: 10r/s",
                "admin",
                "access_log",
                "max_connections 4 (workers 4 x threads 1, worker_class \"sync\"",
            ],
        ),
    ] {
        let text = std::fs::read_to_string(root.join(file))
            .unwrap()
            .replace("/var/log/weir", &logs.path().display().to_string());
        let (_dir, path) = write_config(&text);
        let output = check(&path);
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(
            output.status.success(),
            "{file}: {}{stdout}",
            String::from_utf8_lossy(&output.stderr)
        );
        for part in expect {
            assert!(stdout.contains(part), "{file}: no {part:?} in\n{stdout}");
        }
    }
}
