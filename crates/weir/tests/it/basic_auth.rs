//! `basic_auth` (nginx `auth_basic`, `auth_basic_user_file`): 401 with `WWW-Authenticate` for a
//! request without a user and password of the file; per route and per `[[hosts]]`; costly
//! checks bounded by `max_password_checks`, a passed password remembered; the file read again
//! on reload; and side by side with nginx on files the real `htpasswd` wrote (`WEIR_E2E=1`).

use std::path::Path;

use base64::Engine as _;
use weir_testkit::nginx::Nginx;

use weir_testkit::client::Reply;

use crate::support::*;

/// A route to `upstream` behind `basic_auth` with the file at `users`.
fn config(upstream: &str, users: &Path, server_extra: &str) -> String {
    format!(
        r#"
[server]
listen = ["127.0.0.1:0"]
{server_extra}
[upstreams.app]
servers = ["{upstream}"]
[[routes]]
path = "/"
upstream = "app"
basic_auth = {{ realm = "Staff \"only\"", user_file = "{}" }}
"#,
        users.display()
    )
}

async fn send(client: &mut Client, path: &str, authorization: Option<&str>) -> Reply {
    client
        .send(get_with(None, path, authorization))
        .await
        .expect("an answer")
}

#[tokio::test]
async fn a_request_needs_a_user_and_password_of_the_file() {
    let upstream = UpstreamServer::start(Transport::Tcp).await;
    let dir = tempfile::tempdir().unwrap();
    let users = dir.path().join("htpasswd");
    std::fs::write(
        &users,
        "alice:{SHA}5en6G6MezRroT3XKqkdPOmY/BfQ=\nbob:$apr1$saltsalt$qYpLAVWkBvXFyDme7.oc1/\n",
    )
    .unwrap();
    let gateway = TestGateway::start(&config(&upstream.address, &users, "")).await;
    let mut client = Client::connect(gateway.addr).await;
    let refused = [
        None,
        Some(basic("alice", "Secret")),
        Some(basic("carol", "secret")),
        Some(basic("bob", "pass wore")),
        Some("Basic !!!".to_string()),
        Some(format!(
            "Basic {}",
            base64::engine::general_purpose::STANDARD.encode("alice")
        )),
        Some("Bearer abc".to_string()),
    ];
    for authorization in &refused {
        let reply = send(&mut client, "/headers", authorization.as_deref()).await;
        assert_eq!(reply.status, StatusCode::UNAUTHORIZED, "{authorization:?}");
        assert_eq!(
            reply.header("www-authenticate"),
            Some(r#"Basic realm="Staff \"only\"""#),
            "{authorization:?}"
        );
    }
    assert_eq!(
        upstream.requests(),
        0,
        "a refused request never reaches the app"
    );
    for (user, password) in [("alice", "secret"), ("bob", "pass word")] {
        let reply = send(&mut client, "/headers", Some(&basic(user, password))).await;
        assert_eq!(reply.status, StatusCode::OK, "{user}");
        // As nginx, the credentials go on to the app.
        assert!(
            reply.text().to_ascii_lowercase().contains(&format!(
                "authorization: {}",
                basic(user, password).to_ascii_lowercase()
            )),
            "{}",
            reply.text()
        );
    }
    // `basic`, any case, as nginx reads the scheme.
    let lower = basic("alice", "secret").replacen("Basic", "basic", 1);
    assert_eq!(
        send(&mut client, "/", Some(&lower)).await.status,
        StatusCode::OK
    );
}

#[tokio::test]
async fn a_hosts_basic_auth_applies_unless_the_route_turns_it_off() {
    let upstream = UpstreamServer::start(Transport::Tcp).await;
    let dir = tempfile::tempdir().unwrap();
    let users = dir.path().join("htpasswd");
    std::fs::write(&users, "alice:{PLAIN}secret\n").unwrap();
    let toml = format!(
        r#"
[server]
listen = ["127.0.0.1:0"]
[upstreams.app]
servers = ["{}"]
[[hosts]]
name = "staff.test"
basic_auth = {{ realm = "Staff", user_file = "{}" }}
[[routes]]
host = "staff.test"
path = "/app/"
upstream = "app"
[[routes]]
host = "staff.test"
path = "/health"
upstream = "app"
basic_auth = false
[[routes]]
host = "other.test"
path = "/"
upstream = "app"
"#,
        upstream.address,
        users.display()
    );
    let gateway = TestGateway::start(&toml).await;
    let mut client = Client::connect(gateway.addr).await;
    let mut statuses = Vec::new();
    for (host, path, authorization) in [
        ("staff.test", "/app/", None),
        ("staff.test", "/app/", Some(basic("alice", "secret"))),
        ("staff.test", "/health", None),
        // No route: the host's password is asked first, as nginx's server-level auth_basic.
        ("staff.test", "/nothing", None),
        ("staff.test", "/nothing", Some(basic("alice", "secret"))),
        ("other.test", "/", None),
    ] {
        let reply = client
            .send(get_with(Some(host), path, authorization.as_deref()))
            .await
            .unwrap();
        statuses.push(reply.status.as_u16());
    }
    assert_eq!(statuses, [401, 200, 200, 401, 404, 200]);
}

/// A flood of wrong passwords against a costly hash is checked `max_password_checks` at a time
/// with 16 times as many waiting; the rest get 503 at once. A password that passed is
/// remembered, so the user's next requests are not checked again: all of them pass while the
/// checks are full.
#[tokio::test]
async fn costly_checks_are_bounded_and_a_passed_password_is_remembered() {
    let upstream = UpstreamServer::start(Transport::Tcp).await;
    let dir = tempfile::tempdir().unwrap();
    let users = dir.path().join("htpasswd");
    // bcrypt at cost 11: some 2,000 rounds of Blowfish's key schedule, tens of milliseconds.
    let hash = pwhash::bcrypt::hash_with(
        pwhash::bcrypt::BcryptSetup {
            cost: Some(11),
            ..Default::default()
        },
        "secret",
    )
    .unwrap();
    std::fs::write(&users, format!("alice:{hash}\n")).unwrap();
    let gateway = TestGateway::start(&config(
        &upstream.address,
        &users,
        "max_password_checks = 1",
    ))
    .await;
    let flood = |password: &'static str| {
        let addr = gateway.addr;
        (0..40).map(move |_| {
            tokio::spawn(async move {
                let mut client = Client::connect(addr).await;
                let reply = send(&mut client, "/", Some(&basic("alice", password))).await;
                (
                    reply.status.as_u16(),
                    reply.header("retry-after").map(str::to_string),
                )
            })
        })
    };
    let mut counts = std::collections::BTreeMap::new();
    for task in flood("guess").collect::<Vec<_>>() {
        let (status, retry_after) = task.await.unwrap();
        if status == 503 {
            assert_eq!(retry_after.as_deref(), Some("1"));
        }
        *counts.entry(status).or_insert(0) += 1;
    }
    // One checked at a time and 16 waiting: of 40 at once, 23 or more are refused.
    let (refused, busy) = (counts.get(&401).copied(), counts.get(&503).copied());
    assert!(
        busy.unwrap_or(0) >= 23 && refused.unwrap_or(0) >= 1,
        "{counts:?}"
    );
    assert_eq!(refused.unwrap_or(0) + busy.unwrap_or(0), 40, "{counts:?}");

    let mut client = Client::connect(gateway.addr).await;
    let first = send(&mut client, "/", Some(&basic("alice", "secret"))).await;
    assert_eq!(first.status, StatusCode::OK);
    let mut passed = 0;
    for task in flood("secret").collect::<Vec<_>>() {
        passed += usize::from(task.await.unwrap().0 == 200);
    }
    assert_eq!(passed, 40, "a remembered password is not checked again");
}

/// As nginx, which reads the file at every request, a changed file is in force at once: weir
/// reads it again within a second of the change. A line weir cannot read leaves its user with no
/// password that passes and a file gone leaves no user (nginx answers 500 there), while a
/// reload with such a file is refused, naming its line.
#[tokio::test]
async fn a_changed_password_file_is_read_again_and_fails_closed() {
    let upstream = UpstreamServer::start(Transport::Tcp).await;
    let dir = tempfile::tempdir().unwrap();
    let users = dir.path().join("htpasswd");
    std::fs::write(&users, "alice:{PLAIN}one\nbob:{PLAIN}bob\n").unwrap();
    let toml = config(&upstream.address, &users, "");
    let gateway = TestGateway::start(&toml).await;
    let addr = gateway.addr;
    let status = |user: &'static str, password: &'static str| async move {
        let mut client = Client::connect(addr).await;
        send(&mut client, "/", Some(&basic(user, password)))
            .await
            .status
            .as_u16()
    };
    let until = |user: &'static str, password: &'static str, wanted: u16| async move {
        let deadline = std::time::Instant::now() + Duration::from_secs(10);
        while status(user, password).await != wanted {
            assert!(
                std::time::Instant::now() < deadline,
                "{user}:{password} is not {wanted}: the file was not read again"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    };
    assert_eq!(status("alice", "one").await, 200);
    assert_eq!(status("bob", "bob").await, 200);
    // A new password for alice; bob removed (`htpasswd -D`).
    std::fs::write(&users, "alice:{PLAIN}two\n").unwrap();
    until("alice", "two", 200).await;
    assert_eq!(status("alice", "one").await, 401);
    assert_eq!(status("bob", "bob").await, 401);
    // alice's line broken (and a later line of hers does not stand in), bob back.
    std::fs::write(&users, "alice:three\nbob:{PLAIN}bob\nalice:{PLAIN}two\n").unwrap();
    until("bob", "bob", 200).await;
    assert_eq!(status("alice", "two").await, 401);
    assert_eq!(status("alice", "three").await, 401);
    let reloaded = weir::config::from_toml(&toml, None).expect("a valid config");
    let error = gateway.handle.reload(&reloaded).unwrap_err();
    assert!(error.to_string().contains("htpasswd:1: "), "{error}");
    // The file gone: no one.
    std::fs::remove_file(&users).unwrap();
    until("bob", "bob", 401).await;
}

/// A password file written by the real `htpasswd`, a user per hash it makes (and `{PLAIN}`,
/// `{SSHA}`), read by nginx and by weir: the same status and `WWW-Authenticate` for every user's
/// right and wrong password, and for credentials that are missing or malformed.
#[tokio::test]
async fn basic_auth_matches_nginx_on_a_file_htpasswd_wrote() {
    if !differential_enabled() {
        return;
    }
    assert!(
        Path::new("/usr/bin/htpasswd").exists(),
        "WEIR_E2E=1 needs htpasswd: apt-get install -y apache2-utils (scripts/setup does)"
    );
    let upstream = UpstreamServer::start(Transport::Tcp).await;
    let dir = tempfile::tempdir().unwrap();
    let users = dir.path().join("htpasswd");
    let made: &[(&str, &[&str])] = &[
        ("md5", &["-m"]),
        ("bcrypt", &["-B", "-C", "5"]),
        ("sha256", &["-2"]),
        ("sha512", &["-5"]),
        ("sha1", &["-s"]),
        ("des", &["-d"]),
    ];
    let mut text = String::from("# made by htpasswd\n");
    for (user, flags) in made {
        let output = std::process::Command::new("/usr/bin/htpasswd")
            .arg("-nb")
            .args(*flags)
            .arg(user)
            .arg(format!("{user} pass"))
            .output()
            .expect("htpasswd runs");
        assert!(output.status.success(), "htpasswd {flags:?}");
        text.push_str(String::from_utf8(output.stdout).unwrap().trim());
        text.push('\n');
    }
    text.push_str("plain:{PLAIN}plain pass\nssha:{SSHA}dj2lH1ocucmj5OQsjP6mQrVx6FhOYUNs\n");
    std::fs::write(&users, &text).unwrap();
    let nginx = Nginx::start(
        "",
        &format!(
            "        location / {{ auth_basic \"Staff\"; auth_basic_user_file {}; proxy_pass http://{}; }}\n",
            users.display(),
            upstream.address
        ),
    )
    .expect("nginx starts");
    let gateway = TestGateway::start(
        &config(&upstream.address, &users, "").replace(r#"Staff \"only\""#, "Staff"),
    )
    .await;
    let mut cases: Vec<Option<String>> = vec![
        None,
        Some("Basic".into()),
        Some("Basic !!!".into()),
        Some("Digest abc".into()),
        Some(basic("nobody", "x")),
        Some(basic("", "")),
        Some(format!(
            "Basic {}",
            base64::engine::general_purpose::STANDARD.encode("md5")
        )),
        Some(basic("ssha", "secret")),
        Some(basic("ssha", "Secret")),
    ];
    for user in made.iter().map(|(user, _)| *user).chain(["plain"]) {
        cases.push(Some(basic(user, &format!("{user} pass"))));
        cases.push(Some(basic(user, &format!("{user} Pass"))));
    }
    // DES reads 8 characters of a password: "des pass" and "des passX" are one.
    cases.push(Some(basic("des", "des passX")));
    let mut to_nginx = Client::connect(nginx.addr).await;
    let mut to_weir = Client::connect(gateway.addr).await;
    for authorization in &cases {
        let from_nginx = send(&mut to_nginx, "/", authorization.as_deref()).await;
        let from_weir = send(&mut to_weir, "/", authorization.as_deref()).await;
        assert_eq!(
            (from_weir.status, from_weir.header("www-authenticate")),
            (from_nginx.status, from_nginx.header("www-authenticate")),
            "{authorization:?}\n{text}"
        );
    }
}

/// `satisfy = "any"` (nginx `satisfy any`): an address `access` allows needs no password; one it
/// denies may give the password, and gets 401 (not 403) without it; without a password to give,
/// 403. `satisfy` of a `[[hosts]]` table holds for its routes. The client is 127.0.0.1; with
/// `WEIR_E2E=1` nginx with the same locations gives the same statuses.
#[tokio::test]
async fn with_satisfy_any_an_allowed_address_or_the_password_lets_a_request_in() {
    let upstream = UpstreamServer::start(Transport::Tcp).await;
    let dir = tempfile::tempdir().unwrap();
    let users = dir.path().join("htpasswd");
    std::fs::write(&users, "alice:{PLAIN}secret\n").unwrap();
    let auth = format!(
        r#"basic_auth = {{ realm = "Staff", user_file = "{}" }}"#,
        users.display()
    );
    let toml = format!(
        r#"
[server]
listen = ["127.0.0.1:0"]
[upstreams.app]
servers = ["{}"]
[[hosts]]
name = "any.test"
satisfy = "any"
access = ["allow 127.0.0.1", "deny all"]
{auth}
[[routes]]
host = "any.test"
path = "/"
upstream = "app"
[[routes]]
path = "/office/"
upstream = "app"
satisfy = "any"
access = ["allow 127.0.0.0/8", "deny all"]
{auth}
[[routes]]
path = "/remote/"
upstream = "app"
satisfy = "any"
access = ["allow 10.0.0.0/8", "deny all"]
{auth}
[[routes]]
path = "/both/"
upstream = "app"
satisfy = "all"
access = ["allow 10.0.0.0/8", "deny all"]
{auth}
[[routes]]
path = "/password/"
upstream = "app"
satisfy = "any"
{auth}
[[routes]]
path = "/closed/"
upstream = "app"
satisfy = "any"
access = ["deny all"]
"#,
        upstream.address
    );
    let gateway = TestGateway::start(&toml).await;
    let right = basic("alice", "secret");
    let wrong = basic("alice", "wrong");
    let cases: &[(&str, &str, Option<&str>, u16)] = &[
        ("app.test", "/office/", None, 200),
        ("app.test", "/office/", Some(&wrong), 200),
        ("app.test", "/remote/", None, 401),
        ("app.test", "/remote/", Some(&wrong), 401),
        ("app.test", "/remote/", Some(&right), 200),
        ("app.test", "/both/", Some(&right), 403),
        ("app.test", "/password/", None, 401),
        ("app.test", "/password/", Some(&right), 200),
        ("app.test", "/closed/", Some(&right), 403),
        ("any.test", "/", None, 200),
    ];
    let ask = |addr, host: &'static str, path: &'static str, authorization: Option<&str>| {
        let request = get_with(Some(host), path, authorization);
        async move { Client::connect(addr).await.send(request).await.unwrap() }
    };
    for &(host, path, authorization, status) in cases {
        let reply = ask(gateway.addr, host, path, authorization).await;
        assert_eq!(
            reply.status.as_u16(),
            status,
            "{host}{path} {authorization:?}"
        );
        if status == 401 {
            assert_eq!(
                reply.header("www-authenticate"),
                Some("Basic realm=\"Staff\"")
            );
        }
    }

    if !differential_enabled() {
        return;
    }
    let auth = format!(
        "auth_basic \"Staff\"; auth_basic_user_file {};",
        users.display()
    );
    let app = &upstream.address;
    let nginx = Nginx::start(
        "",
        &format!(
            "        location /office/ {{ satisfy any; allow 127.0.0.0/8; deny all; {auth} proxy_pass http://{app}; }}\n\
             location /remote/ {{ satisfy any; allow 10.0.0.0/8; deny all; {auth} proxy_pass http://{app}; }}\n\
             location /both/ {{ satisfy all; allow 10.0.0.0/8; deny all; {auth} proxy_pass http://{app}; }}\n\
             location /password/ {{ satisfy any; {auth} proxy_pass http://{app}; }}\n\
             location /closed/ {{ satisfy any; deny all; proxy_pass http://{app}; }}\n"
        ),
    )
    .expect("nginx starts");
    for &(host, path, authorization, _) in cases.iter().filter(|case| case.0 == "app.test") {
        let ours = ask(gateway.addr, host, path, authorization).await;
        let theirs = ask(nginx.addr, host, path, authorization).await;
        assert_eq!(
            (ours.status, ours.header("www-authenticate")),
            (theirs.status, theirs.header("www-authenticate")),
            "{path} {authorization:?}"
        );
    }
}
