//! Reloading a running gateway (`GatewayHandle::reload`, what SIGHUP does): new requests take
//! the new config at once with nothing failed under load, limits and pools that did not change
//! keep their state, listeners follow `listen` (a port moved between plain and TLS serves what
//! the config says), an upgrade is handed exactly the listeners open after the reloads, and
//! `/metrics` shows the generation.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;

use crate::support::*;

/// One route `/` to `upstream`, with the 1r/m limit `once` on `/limited/`. `listen` is the
/// `[server] listen` list; `extra` goes at the end.
fn routed_to(listen: &str, upstream: &str, extra: &str) -> String {
    format!(
        r#"
[server]
listen = [{listen}]
shutdown_grace = "5s"
keepalive_requests = 1000000

[upstreams.a]
servers = ["{upstream}"]

[limits.once]
rate = "1r/m"

[[routes]]
path = "/"
upstream = "a"

[[routes]]
path = "/limited/"
upstream = "a"
limits = ["once"]
{extra}
"#
    )
}

fn parse(toml: &str) -> weir::Config {
    weir::config::from_toml(toml, None).expect("valid test config")
}

/// 20 reloads alternating two configs while 50 connections send requests, each reload once the
/// load has run on the config before it: nothing fails, and after each reload new requests go
/// where the new config says.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn twenty_reloads_under_load_fail_no_request_and_switch_upstreams() {
    let first = UpstreamServer::start(Transport::Tcp).await;
    let second = UpstreamServer::start(Transport::Unix).await;
    let to_first = routed_to("\"127.0.0.1:0\"", &first.address, "");
    let to_second = routed_to("\"127.0.0.1:0\"", &second.address, "");
    let gateway = TestGateway::start(&to_first).await;
    let running = Arc::new(AtomicBool::new(true));
    let answered = Arc::new(AtomicUsize::new(0));
    let mut clients = Vec::new();
    for _ in 0..50 {
        let running = Arc::clone(&running);
        let answered = Arc::clone(&answered);
        let addr = gateway.addr;
        clients.push(tokio::spawn(async move {
            let mut client = Client::connect(addr).await;
            let mut failures = Vec::new();
            while running.load(Ordering::Relaxed) {
                let reply = client.get("/").await;
                if reply.status != StatusCode::OK {
                    failures.push(reply.status);
                }
                answered.fetch_add(1, Ordering::Relaxed);
            }
            failures
        }));
    }
    for round in 0..20 {
        // The load runs on the config in force: a request per connection at least.
        let so_far = answered.load(Ordering::Relaxed);
        wait_until(
            format!("round {round}: the load to run"),
            Duration::from_secs(20),
            || answered.load(Ordering::Relaxed) >= so_far + 50,
        )
        .await;
        let (config, target) = if round % 2 == 0 {
            (&to_second, &second)
        } else {
            (&to_first, &first)
        };
        gateway.handle.reload(&parse(config)).expect("reload");
        // The very next request on a fresh connection goes to the new upstream.
        let before = target.requests();
        assert_eq!(
            Client::connect(gateway.addr).await.get("/").await.status,
            StatusCode::OK
        );
        assert!(target.requests() > before, "round {round}: not switched");
    }
    running.store(false, Ordering::Relaxed);
    for client in clients {
        let failures = client.await.unwrap();
        assert!(failures.is_empty(), "failed requests: {failures:?}");
    }
    assert!(
        answered.load(Ordering::Relaxed) > 50,
        "the load did not run"
    );
    assert_eq!(gateway.handle.generation(), 21);
    gateway.wait_pools_quiet(Duration::from_secs(5)).await;
}

/// A request in flight when a reload comes finishes on the config it started with, and the next
/// request on the same keep-alive connection takes the new one (a connection holds the proxy
/// between requests and drops it once a reload has moved the generation).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_keeps_its_generation_and_the_next_on_its_connection_takes_the_new() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    // The old config's upstream answers only when the test says so, after the reload.
    let held = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let held_addr = held.local_addr().unwrap();
    let (arrived_tx, arrived) = tokio::sync::oneshot::channel();
    let (release, release_rx) = tokio::sync::oneshot::channel::<()>();
    let upstream = tokio::spawn(async move {
        let (mut socket, _) = held.accept().await.unwrap();
        let mut head = Vec::new();
        let mut buffer = [0u8; 1024];
        while !head.windows(4).any(|window| window == b"\r\n\r\n") {
            let read = socket.read(&mut buffer).await.unwrap();
            assert_ne!(read, 0, "the gateway closed before its request");
            head.extend_from_slice(&buffer[..read]);
        }
        arrived_tx.send(()).unwrap();
        release_rx.await.unwrap();
        socket
            .write_all(b"HTTP/1.1 200 OK\r\ncontent-length: 3\r\n\r\nold")
            .await
            .unwrap();
        // The socket and the listener close here: a request sent to this upstream again fails.
    });
    let second = UpstreamServer::start(Transport::Tcp).await;
    let gateway =
        TestGateway::start(&routed_to("\"127.0.0.1:0\"", &held_addr.to_string(), "")).await;
    let mut client = Client::connect(gateway.addr).await;
    let in_flight = tokio::spawn(async move {
        let reply = client.get("/").await;
        (client, reply)
    });
    arrived.await.unwrap();
    gateway
        .handle
        .reload(&parse(&routed_to("\"127.0.0.1:0\"", &second.address, "")))
        .expect("reload");
    release.send(()).unwrap();
    let (mut client, reply) = in_flight.await.unwrap();
    assert_eq!(reply.status, StatusCode::OK);
    assert_eq!(reply.text(), "old", "the request left its generation");
    let before = second.requests();
    // The same connection (the client has only the one).
    assert_eq!(client.get("/").await.status, StatusCode::OK);
    assert_eq!(
        second.requests(),
        before + 1,
        "the connection kept the old config"
    );
    upstream.await.unwrap();
}

/// A limit whose table did not change keeps its state across a reload (a client over it stays
/// over it), and an upstream whose table did not change keeps its pooled connections; a changed
/// limit starts afresh; a changed upstream whose pool settings did not change keeps its pools.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unchanged_limits_keep_their_state_and_unchanged_upstreams_their_pools() {
    let upstream = UpstreamServer::start(Transport::Tcp).await;
    let before = routed_to("\"127.0.0.1:0\"", &upstream.address, "");
    let gateway = TestGateway::start(&before).await;
    let mut client = Client::connect(gateway.addr).await;
    assert_eq!(client.get("/limited/x").await.status, StatusCode::OK);
    assert_eq!(
        client.get("/limited/x").await.status,
        StatusCode::TOO_MANY_REQUESTS
    );
    assert_eq!(client.get("/").await.status, StatusCode::OK);
    let connections = upstream.connections();

    // Another route, same upstream and limit tables.
    let with_route = routed_to(
        "\"127.0.0.1:0\"",
        &upstream.address,
        "[[routes]]\npath = \"/other/\"\nupstream = \"a\"\n",
    );
    gateway.handle.reload(&parse(&with_route)).expect("reload");
    assert_eq!(
        client.get("/limited/x").await.status,
        StatusCode::TOO_MANY_REQUESTS
    );
    assert_eq!(client.get("/other/y").await.status, StatusCode::OK);
    assert_eq!(client.get("/").await.status, StatusCode::OK);
    assert_eq!(
        upstream.connections(),
        connections,
        "the reload reopened connections to an unchanged upstream"
    );

    // The limit's own table changes: it starts afresh.
    let changed_limit = with_route.replace("rate = \"1r/m\"", "rate = \"2r/m\"");
    gateway
        .handle
        .reload(&parse(&changed_limit))
        .expect("reload");
    assert_eq!(client.get("/limited/x").await.status, StatusCode::OK);

    // The upstream's table changes, but not what its pools are made of (a read time-out): its
    // server keeps its pool, and the pooled connection.
    let connections = upstream.connections();
    let changed_upstream =
        changed_limit.replace("[upstreams.a]\n", "[upstreams.a]\nread_timeout = \"30s\"\n");
    assert_ne!(changed_upstream, changed_limit);
    gateway
        .handle
        .reload(&parse(&changed_upstream))
        .expect("reload");
    assert_eq!(client.get("/").await.status, StatusCode::OK);
    assert_eq!(
        upstream.connections(),
        connections,
        "a changed read_timeout reopened the server's connections"
    );
}

/// An address that nothing listens on now (bound then released).
fn free_address() -> std::net::SocketAddr {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.local_addr().unwrap()
}

/// Listeners follow `listen` across reloads, and `/metrics` shows generations and results.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn listeners_follow_reloads_and_metrics_count_them() {
    let upstream = UpstreamServer::start(Transport::Tcp).await;
    let gateway = TestGateway::start(&routed_to("\"127.0.0.1:0\"", &upstream.address, "")).await;
    let added = free_address();
    let both = routed_to(
        &format!("\"127.0.0.1:0\", \"{added}\""),
        &upstream.address,
        "",
    );
    gateway.handle.reload(&parse(&both)).expect("reload");
    wait_until_async(
        format!("{added} to listen"),
        Duration::from_secs(5),
        || async { tokio::net::TcpStream::connect(added).await.is_ok() },
    )
    .await;
    assert_eq!(
        weir_testkit::client::get(added, "/").await.status,
        StatusCode::OK
    );
    // The first listener is untouched: its configured address ("127.0.0.1:0") is still listed.
    assert_eq!(
        weir_testkit::client::get(gateway.addr, "/").await.status,
        StatusCode::OK
    );

    gateway
        .handle
        .reload(&parse(&routed_to("\"127.0.0.1:0\"", &upstream.address, "")))
        .expect("reload");
    wait_until_async(
        format!("{added} to stop listening"),
        Duration::from_secs(5),
        || async { tokio::net::TcpStream::connect(added).await.is_err() },
    )
    .await;
    gateway.handle.reload_failed();
    let metrics = gateway.handle.render_metrics();
    for line in [
        "weir_config_generation 3",
        "weir_config_reloads_total{result=\"success\"} 2",
        "weir_config_reloads_total{result=\"failure\"} 1",
    ] {
        assert!(
            metrics.lines().any(|l| l == line),
            "{line} missing:\n{metrics}"
        );
    }
    assert!(
        !metrics
            .lines()
            .any(|l| l == "weir_config_last_reload_timestamp_seconds 0"),
        "{metrics}"
    );
}

/// A self-signed certificate for `example.test` in `dir`, as a `[tls]` table on `listen`.
fn tls_table(dir: &std::path::Path, listen: &[std::net::SocketAddr]) -> String {
    let key = rcgen::KeyPair::generate().unwrap();
    let params = rcgen::CertificateParams::new(vec!["example.test".to_string()]).unwrap();
    let cert = params.self_signed(&key).unwrap();
    let (cert_path, key_path) = (dir.join("cert.pem"), dir.join("key.pem"));
    std::fs::write(&cert_path, cert.pem()).unwrap();
    std::fs::write(&key_path, key.serialize_pem()).unwrap();
    let listen: Vec<String> = listen.iter().map(|addr| format!("\"{addr}\"")).collect();
    format!(
        "[tls]\nlisten = [{}]\n\n[[tls.certificates]]\ncert = \"{}\"\nkey = \"{}\"\n",
        listen.join(", "),
        cert_path.display(),
        key_path.display()
    )
}

/// One GET over HTTPS to `addr` (curl, certificate not checked): the body, or curl's complaint.
async fn get_tls(addr: std::net::SocketAddr) -> Result<String, String> {
    let output = tokio::process::Command::new("curl")
        .args(["-sS", "-k", "--max-time", "5", "--resolve"])
        .arg(format!("example.test:{}:{}", addr.port(), addr.ip()))
        .arg(format!("https://example.test:{}/", addr.port()))
        .output()
        .await
        .map_err(|e| format!("curl: {e}"))?;
    if output.status.success() {
        Ok(String::from_utf8_lossy(&output.stdout).into_owned())
    } else {
        Err(String::from_utf8_lossy(&output.stderr).into_owned())
    }
}

/// Waits until `addr` answers HTTPS.
async fn wait_tls(addr: std::net::SocketAddr) {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    loop {
        match get_tls(addr).await {
            Ok(_) => return,
            Err(error) => assert!(
                tokio::time::Instant::now() < deadline,
                "{addr} never spoke TLS: {error}"
            ),
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Issue 16, finding 6: one reload moves a port from `[server] listen` to `[tls] listen` while a
/// keep-alive connection accepted on it is open. Its socket is kept and served as TLS; it used to
/// be closed and the address bound again, which the open connection made `address in use` (one
/// runtime, no `SO_REUSEPORT`), so the port served nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_port_moved_from_plain_to_tls_in_one_reload_speaks_tls() {
    let dir = tempfile::tempdir().unwrap();
    let upstream = UpstreamServer::start(Transport::Tcp).await;
    let (kept, moved, tls) = (free_address(), free_address(), free_address());
    let before = routed_to(
        &format!("\"{kept}\", \"{moved}\""),
        &upstream.address,
        &format!("\n{}", tls_table(dir.path(), &[tls])),
    )
    .replace("[server]\n", "[server]\nruntime = \"work_stealing\"\n");
    let gateway = TestGateway::start(&before).await;
    let mut client = Client::connect(moved).await;
    assert_eq!(client.get("/").await.status, StatusCode::OK);
    let after = routed_to(
        &format!("\"{kept}\""),
        &upstream.address,
        &format!("\n{}", tls_table(dir.path(), &[tls, moved])),
    )
    .replace("[server]\n", "[server]\nruntime = \"work_stealing\"\n");
    gateway.handle.reload(&parse(&after)).expect("reload");
    wait_tls(moved).await;
    for round in 0..16 {
        assert!(get_tls(moved).await.is_ok(), "connection {round}");
    }
    // The connection accepted as plain HTTP stays plain HTTP.
    assert_eq!(client.get("/").await.status, StatusCode::OK);
}

/// Issue 16, finding 6: what an upgrade is handed is the listeners open now, with what each
/// serves, in every runtime: after a reload removed a plain port and moved another to TLS, no
/// socket of the removed port and no plain socket of the moved one is among them, and a
/// successor bound on them serves the moved port as TLS once the first gateway has stopped.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_upgrade_is_handed_exactly_the_listeners_open_after_a_reload() {
    let dir = tempfile::tempdir().unwrap();
    let upstream = UpstreamServer::start(Transport::Tcp).await;
    let (kept, removed, moved, tls) = (
        free_address(),
        free_address(),
        free_address(),
        free_address(),
    );
    // Two runtimes, so each listener is two sockets.
    let before = routed_to(
        &format!("\"{kept}\", \"{removed}\", \"{moved}\""),
        &upstream.address,
        &format!("\n{}", tls_table(dir.path(), &[tls])),
    )
    .replace("[server]\n", "[server]\nthreads = 2\n");
    let gateway = TestGateway::start(&before).await;
    let after_text = routed_to(
        &format!("\"{kept}\""),
        &upstream.address,
        &format!("\n{}", tls_table(dir.path(), &[tls, moved])),
    );
    let after = parse(&after_text);
    gateway.handle.reload(&after).expect("reload");
    let mut wanted = vec![
        (kept, weir::ListenerKind::Plain),
        (kept, weir::ListenerKind::Plain),
        (moved, weir::ListenerKind::Tls),
        (moved, weir::ListenerKind::Tls),
        (tls, weir::ListenerKind::Tls),
        (tls, weir::ListenerKind::Tls),
    ];
    wanted.sort_by_key(|(addr, _)| *addr);
    // Each runtime follows the reload on its own: wait until both have.
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    let handed = loop {
        let handed = gateway.handle.listeners_for_upgrade();
        let mut seen: Vec<_> = handed
            .iter()
            .map(|socket| (socket.listener.local_addr().unwrap(), socket.kind.unwrap()))
            .collect();
        seen.sort_by_key(|(addr, _)| *addr);
        if seen == wanted {
            break handed;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "handed {seen:?}, wanted {wanted:?}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    };

    let successor = weir::Gateway::bind_inherited(&after, false, handed).expect("successor binds");
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let successor = tokio::spawn(successor.run(async move {
        let _ = stopped.await;
    }));
    gateway.shutdown().await;
    wait_tls(moved).await;
    for round in 0..16 {
        assert!(get_tls(moved).await.is_ok(), "connection {round}");
    }
    assert_eq!(
        weir_testkit::client::get(kept, "/").await.status,
        StatusCode::OK
    );
    assert!(tokio::net::TcpStream::connect(removed).await.is_err());
    let _ = stop.send(());
    let _ = successor.await;
}
