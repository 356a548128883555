//! `limit_rate`, `limit_rate_after` and an upstream's `X-Accel-Limit-Rate`, as nginx's: a
//! limited answer's bytes past `after` take at least their size over the rate, whole and in
//! order; the app's header sets the rate of its own answer (`0` lifts the route's, `off` is
//! not a number and changes nothing, as in nginx), and on an
//! `X-Accel-Redirect` that of the file served for it (Django's sendfile backends); the header
//! never reaches the client. With `WEIR_E2E=1` a real nginx with the same locations gives the
//! same answers, and takes its own time for them (nginx counts whole seconds from the
//! request's start, one ahead, so a second less). Only lower bounds on time are asserted, and
//! which of two answers ends first.

use std::time::{Duration, Instant};

use weir_testkit::nginx::Nginx;
use weir_testkit::Reply;

use crate::locations::nginx_enabled;
use crate::support::*;

/// The file behind the internal route: 64 KiB.
const FILE: usize = 64 * 1024;

fn weir_config(app: &str, root: &std::path::Path) -> String {
    format!(
        r#"
[server]
listen = ["127.0.0.1:0"]

[upstreams.app]
servers = ["{app}"]

[[routes]]
path = "/"
upstream = "app"

[[routes]]
path = "/slow/"
upstream = "app"
upstream_path = "/"
limit_rate = "64k"
limit_rate_after = "64k"

[[routes]]
path = "/protected/"
static = "{}"
internal = true
"#,
        root.display()
    )
}

fn start_nginx(app: &str, root: &std::path::Path) -> Nginx {
    let server = format!(
        "        location / {{ proxy_pass http://{app}; }}\n\
         location /slow/ {{ proxy_pass http://{app}/; limit_rate 64k; limit_rate_after 64k; }}\n\
         location /protected/ {{ internal; alias {}/; }}\n",
        root.display()
    );
    Nginx::start("", &server).expect("nginx starts")
}

/// An answer and how long it took, whole.
async fn timed(gateway: std::net::SocketAddr, path: &str) -> (Reply, Duration) {
    let started = Instant::now();
    let reply = Client::connect(gateway)
        .await
        .send(get_request(path))
        .await
        .unwrap();
    (reply, started.elapsed())
}

/// The cases: a path, the bytes it answers and the least time weir takes for them.
const CASES: [(&str, usize, Duration); 4] = [
    // 192 KiB, the first 64 KiB at once, 128 KiB at 64 KiB a second.
    ("/slow/big?bytes=196608", 196_608, Duration::from_secs(2)),
    // The app's header on a route without a limit: 128 KiB at 64 KiB a second.
    (
        "/big?bytes=131072&limit_rate=65536",
        131_072,
        Duration::from_secs(2),
    ),
    // `off` is no number: the route's limit holds.
    (
        "/slow/big?bytes=196608&limit_rate=off",
        196_608,
        Duration::from_secs(2),
    ),
    // On an `X-Accel-Redirect`: the file at 32 KiB a second.
    (
        "/accel/protected/file.bin?limit_rate=32768",
        FILE,
        Duration::from_secs(2),
    ),
];

/// Asks for every case at once, and for the limited route's answer with `X-Accel-Limit-Rate: 0`
/// beside a shorter one it limits: every answer whole, none sooner than its rate allows, no
/// `X-Accel-*` header, and the unlimited one first.
async fn check(gateway: std::net::SocketAddr, who: &str, slack: Duration) {
    let asked = CASES.map(|(path, _, _)| tokio::spawn(timed(gateway, path)));
    let lifted = tokio::spawn(timed(gateway, "/slow/big?bytes=196608&limit_rate=0"));
    // 64 KiB + 1 past `after`: a second at the least, less than the lifted one would take.
    let limited = tokio::spawn(timed(gateway, "/slow/big?bytes=131073"));
    for ((path, bytes, least), asked) in CASES.into_iter().zip(asked) {
        let (reply, took) = asked.await.unwrap();
        assert_eq!(reply.status, StatusCode::OK, "{who} {path}");
        assert_eq!(reply.body.len(), bytes, "{who} {path}");
        assert!(
            reply
                .headers
                .keys()
                .all(|name| !name.as_str().starts_with("x-accel-")),
            "{who} {path}: {:?}",
            reply.headers
        );
        assert!(took >= least - slack, "{who} {path} took {took:?}");
    }
    let (lifted, lifted_took) = lifted.await.unwrap();
    let (limited, limited_took) = limited.await.unwrap();
    assert_eq!(lifted.body.len(), 196_608, "{who}");
    assert_eq!(limited.body.len(), 131_073, "{who}");
    assert!(lifted.header("x-accel-limit-rate").is_none(), "{who}");
    assert!(
        lifted_took < limited_took,
        "{who}: off took {lifted_took:?}, the limit {limited_took:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn limit_rate_and_x_accel_limit_rate_slow_answers_as_nginxs() {
    let root = tempfile::tempdir().unwrap();
    std::fs::write(root.path().join("file.bin"), vec![b'f'; FILE]).unwrap();
    let app = UpstreamServer::start(Transport::Tcp).await;
    let gateway = TestGateway::start(&weir_config(&app.address, root.path())).await;
    // The clock's grain: a timer fires no sooner than asked, the answer's start is a little
    // after the client's.
    check(gateway.addr, "weir", Duration::from_millis(5)).await;

    if !nginx_enabled() {
        return;
    }
    let nginx = start_nginx(&app.address, root.path());
    check(nginx.addr, "nginx", Duration::from_secs(1)).await;
}
