//! Requests and responses pass through as nginx passes them: bodies streamed both ways, HEAD,
//! 204, 304, `Expect: 100-continue`, forwarding headers in, hop-by-hop headers out.

use crate::support::*;

both_transports!(get_passes_through, |transport| {
    let (_upstream, gateway) = start(transport, "", "").await;
    let reply = Client::connect(gateway.addr).await.get("/").await;
    assert_eq!(reply.status, StatusCode::OK);
    assert_eq!(reply.text(), "hello");
    assert_eq!(reply.header("x-upstream"), Some("testkit"));
    assert_eq!(
        reply.header("server"),
        None,
        "no Server header unless configured"
    );
});

both_transports!(forwarding_headers_are_set_and_host_passes, |transport| {
    let (_upstream, gateway) = start(transport, "", "").await;
    let request = Request::get("/headers")
        .header("host", "app.example")
        .header("x-forwarded-for", "203.0.113.7")
        .body(Default::default())
        .unwrap();
    let reply = Client::connect(gateway.addr)
        .await
        .send(request)
        .await
        .unwrap();
    let text = reply.text();
    assert!(text.contains("host: app.example\n"), "{text}");
    assert!(
        text.contains("x-forwarded-for: 203.0.113.7, 127.0.0.1\n"),
        "{text}"
    );
    assert!(text.contains("x-real-ip: 127.0.0.1\n"), "{text}");
    assert!(text.contains("x-forwarded-proto: http\n"), "{text}");
    assert!(text.starts_with("GET /headers HTTP/1.1\n"), "{text}");
});

both_transports!(hop_by_hop_headers_are_not_forwarded, |transport| {
    let (_upstream, gateway) = start(transport, "", "").await;
    let request = Request::get("/headers")
        .header("connection", "keep-alive, x-private")
        .header("x-private", "secret")
        .header("keep-alive", "timeout=5")
        .header("te", "trailers")
        .header("trailer", "x-checksum")
        .header("proxy-authorization", "Basic Zm9vOmJhcg==")
        .header("proxy-connection", "keep-alive")
        .header("x-kept", "yes")
        .body(Default::default())
        .unwrap();
    let reply = Client::connect(gateway.addr)
        .await
        .send(request)
        .await
        .unwrap();
    let text = reply.text();
    for header in [
        "x-private",
        "keep-alive",
        "te:",
        "trailer",
        "proxy-",
        "connection",
    ] {
        assert!(!text.contains(header), "{header} was forwarded: {text}");
    }
    assert!(text.contains("x-kept: yes"), "{text}");
});

both_transports!(request_bodies_stream_both_ways, |transport| {
    let (_upstream, gateway) = start(transport, r#"max_body_size = "8MiB""#, "").await;
    let body: Vec<u8> = (0..3_000_000u32).map(|i| (i % 251) as u8).collect();
    let reply = Client::connect(gateway.addr)
        .await
        .request(Method::POST, "/echo", body.clone())
        .await;
    assert_eq!(reply.status, StatusCode::OK);
    assert_eq!(reply.body.len(), body.len());
    assert!(reply.body == body, "echoed body differs");
});

both_transports!(chunked_request_body_is_forwarded, |transport| {
    let (_upstream, gateway) = start(transport, "", "").await;
    let raw = b"POST /consume HTTP/1.1\r\nhost: x\r\ntransfer-encoding: chunked\r\nconnection: close\r\n\r\n5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n";
    let answer = raw_exchange(gateway.addr, raw, Duration::from_secs(5)).await;
    assert!(answer.starts_with("HTTP/1.1 200 OK"), "{answer}");
    assert!(answer.ends_with("11 bytes"), "{answer}");
});

both_transports!(large_and_chunked_responses_stream, |transport| {
    let (_upstream, gateway) = start(transport, "", "").await;
    let mut client = Client::connect(gateway.addr).await;
    let big = client.get("/big?bytes=5000000").await;
    assert_eq!(big.body.len(), 5_000_000);
    let chunked = client.get("/chunked").await;
    assert_eq!(chunked.text(), "one two three");
});

both_transports!(head_204_and_304_have_no_body, |transport| {
    let (_upstream, gateway) = start(transport, "", "").await;
    let mut client = Client::connect(gateway.addr).await;
    let head = client.request(Method::HEAD, "/length", "").await;
    assert_eq!(head.status, StatusCode::OK);
    assert_eq!(head.header("content-length"), Some("5"));
    assert!(head.body.is_empty());
    let no_content = client.get("/no-content").await;
    assert_eq!(no_content.status, StatusCode::NO_CONTENT);
    let not_modified = client.get("/not-modified").await;
    assert_eq!(not_modified.status, StatusCode::NOT_MODIFIED);
    assert_eq!(not_modified.header("etag"), Some("\"v1\""));
    // The connection is still usable after bodiless responses.
    assert_eq!(client.get("/").await.text(), "hello");
    gateway.wait_pools_quiet(Duration::from_secs(2)).await;
});

both_transports!(expect_100_continue_is_answered, |transport| {
    let (_upstream, gateway) = start(transport, "", "").await;
    let mut stream = tokio::net::TcpStream::connect(gateway.addr).await.unwrap();
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    stream
        .write_all(b"POST /echo HTTP/1.1\r\nhost: x\r\ncontent-length: 5\r\nexpect: 100-continue\r\nconnection: close\r\n\r\n")
        .await
        .unwrap();
    let mut buffer = vec![0u8; 1024];
    let read = tokio::time::timeout(Duration::from_secs(5), stream.read(&mut buffer))
        .await
        .unwrap()
        .unwrap();
    let interim = String::from_utf8_lossy(&buffer[..read]).to_string();
    assert!(interim.starts_with("HTTP/1.1 100 Continue"), "{interim}");
    stream.write_all(b"hello").await.unwrap();
    let mut rest = Vec::new();
    tokio::time::timeout(Duration::from_secs(5), stream.read_to_end(&mut rest))
        .await
        .unwrap()
        .unwrap();
    let rest = String::from_utf8_lossy(&rest);
    assert!(rest.contains("200 OK") && rest.ends_with("hello"), "{rest}");
});

both_transports!(
    expect_with_too_large_body_gets_413_without_continue,
    |transport| {
        let (upstream, gateway) = start(transport, r#"max_body_size = "1KiB""#, "").await;
        let raw = b"POST /echo HTTP/1.1\r\nhost: x\r\ncontent-length: 5000\r\nexpect: 100-continue\r\n\r\n";
        let answer = raw_exchange(gateway.addr, raw, Duration::from_millis(500)).await;
        assert!(answer.starts_with("HTTP/1.1 413"), "{answer}");
        assert!(!answer.contains("100 Continue"), "{answer}");
        assert_eq!(upstream.requests(), 0);
    }
);

both_transports!(server_header_is_added_when_configured, |transport| {
    let (_upstream, gateway) = start(transport, r#"server_header = "weir""#, "").await;
    let reply = Client::connect(gateway.addr).await.get("/").await;
    assert_eq!(reply.header("server"), Some("weir"));
});

#[tokio::test]
async fn routes_pick_the_longest_prefix_and_unknown_paths_get_404() {
    let api = UpstreamServer::start(Transport::Tcp).await;
    let toml = format!(
        r#"
[server]
listen = ["127.0.0.1:0"]
[upstreams.api]
servers = ["{}"]
[[routes]]
path = "/api/"
upstream = "api"
"#,
        api.address
    );
    let gateway = TestGateway::start(&toml).await;
    let mut client = Client::connect(gateway.addr).await;
    assert_eq!(client.get("/api/x").await.status, StatusCode::OK);
    let missing = client.get("/other").await;
    assert_eq!(missing.status, StatusCode::NOT_FOUND);
    assert!(missing.text().starts_with("404"));
}

both_transports!(
    keepalive_requests_closes_the_client_connection,
    |transport| {
        let (_upstream, gateway) = start(transport, "keepalive_requests = 2", "").await;
        let mut client = Client::connect(gateway.addr).await;
        assert_eq!(client.get("/").await.header("connection"), None);
        assert_eq!(client.get("/").await.header("connection"), Some("close"));
    }
);

#[tokio::test]
async fn idle_client_connections_close_after_keepalive_timeout() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let (_upstream, gateway) = start(Transport::Tcp, r#"keepalive_timeout = "200ms""#, "").await;
    let mut stream = tokio::net::TcpStream::connect(gateway.addr).await.unwrap();
    // A request slower than the keep-alive time-out is not cut off.
    stream
        .write_all(b"GET /slow?ms=400 HTTP/1.1\r\nhost: x\r\n\r\n")
        .await
        .unwrap();
    let mut received = Vec::new();
    let mut buffer = [0u8; 1024];
    while !String::from_utf8_lossy(&received).ends_with("slow") {
        let read = tokio::time::timeout(Duration::from_secs(2), stream.read(&mut buffer))
            .await
            .unwrap()
            .unwrap();
        assert!(
            read > 0,
            "closed mid-request: {}",
            String::from_utf8_lossy(&received)
        );
        received.extend_from_slice(&buffer[..read]);
    }
    assert!(String::from_utf8_lossy(&received).starts_with("HTTP/1.1 200"));
    // Then, idle, the connection is closed within about the time-out.
    let started = std::time::Instant::now();
    let read = tokio::time::timeout(Duration::from_secs(2), stream.read(&mut buffer))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(read, 0, "expected the gateway to close the idle connection");
    assert!(started.elapsed() < Duration::from_millis(1500));
}

/// Waits (bounded) until `gateway` has `parked` idle connections parked.
async fn until_parked(gateway: &TestGateway, parked: usize) {
    wait_for(
        format!("{parked} parked connection(s)"),
        Duration::from_secs(10),
        || gateway.handle.parked_connections(),
        |now| *now == parked,
    )
    .await;
}

/// An idle keep-alive connection leaves its task (it is parked: issue 9's ≤ 1 KB per idle
/// connection) and is served as before when its next request comes, pipelined ones included.
#[tokio::test]
async fn an_idle_connection_is_parked_and_served_again_when_it_speaks() {
    let (_upstream, gateway) = start(Transport::Tcp, r#"keepalive_timeout = "30s""#, "").await;
    let mut client = Client::connect(gateway.addr).await;
    assert_eq!(client.get("/").await.status, StatusCode::OK);
    until_parked(&gateway, 1).await;
    assert!(gateway
        .handle
        .render_metrics()
        .contains("weir_connections_parked 1"));
    // Back from the park, on the same connection.
    assert_eq!(client.get("/").await.status, StatusCode::OK);
    until_parked(&gateway, 1).await;
    // Two requests in one write, to a parked connection: both answered, in order.
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut stream = tokio::net::TcpStream::connect(gateway.addr).await.unwrap();
    stream
        .write_all(b"GET /a HTTP/1.1\r\nhost: x\r\n\r\n")
        .await
        .unwrap();
    let mut buffer = vec![0u8; 4096];
    let read = stream.read(&mut buffer).await.unwrap();
    assert!(buffer[..read].starts_with(b"HTTP/1.1 200"));
    until_parked(&gateway, 2).await;
    stream
        .write_all(b"GET /b HTTP/1.1\r\nhost: x\r\n\r\nGET /c HTTP/1.1\r\nhost: x\r\n\r\n")
        .await
        .unwrap();
    let mut received = Vec::new();
    while received
        .windows(12)
        .filter(|window| window == b"HTTP/1.1 200")
        .count()
        < 2
    {
        let read = tokio::time::timeout(Duration::from_secs(5), stream.read(&mut buffer))
            .await
            .expect("both answers come")
            .unwrap();
        assert!(read > 0, "closed: {}", String::from_utf8_lossy(&received));
        received.extend_from_slice(&buffer[..read]);
    }
    // The client leaving is seen while parked: the entry goes.
    drop(stream);
    drop(client);
    until_parked(&gateway, 0).await;
}

/// `weir_connections_open` counts the client connections open, parked ones included, and each
/// one's place comes back when it closes.
#[tokio::test]
async fn open_connections_are_counted_until_they_close() {
    let (_upstream, gateway) = start(Transport::Tcp, r#"keepalive_timeout = "30s""#, "").await;
    let mut first = Client::connect(gateway.addr).await;
    let mut second = Client::connect(gateway.addr).await;
    assert_eq!(first.get("/").await.status, StatusCode::OK);
    assert_eq!(second.get("/").await.status, StatusCode::OK);
    wait_for(
        "two open connections",
        Duration::from_secs(10),
        || gateway.handle.open_connections(),
        |open| *open == 2,
    )
    .await;
    until_parked(&gateway, 2).await;
    let metrics = gateway.handle.render_metrics();
    assert!(metrics.contains("weir_connections_open 2"), "{metrics}");
    drop(first);
    wait_for(
        "one open connection after the first closed",
        Duration::from_secs(10),
        || gateway.handle.open_connections(),
        |open| *open == 1,
    )
    .await;
    drop(second);
    wait_for(
        "no open connection",
        Duration::from_secs(10),
        || gateway.handle.open_connections(),
        |open| *open == 0,
    )
    .await;
}

/// A parked connection still ends at keepalive_timeout, and one that never sent a request ends
/// at header_timeout (both are parked after a while of silence).
#[tokio::test]
async fn parked_connections_keep_their_time_outs() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let (_upstream, gateway) = start(
        Transport::Tcp,
        "keepalive_timeout = \"700ms\"\nheader_timeout = \"700ms\"",
        "",
    )
    .await;
    let mut served = tokio::net::TcpStream::connect(gateway.addr).await.unwrap();
    served
        .write_all(b"GET / HTTP/1.1\r\nhost: x\r\n\r\n")
        .await
        .unwrap();
    let mut buffer = vec![0u8; 4096];
    let read = served.read(&mut buffer).await.unwrap();
    assert!(buffer[..read].starts_with(b"HTTP/1.1 200"));
    let mut silent = tokio::net::TcpStream::connect(gateway.addr).await.unwrap();
    until_parked(&gateway, 2).await;
    for stream in [&mut silent, &mut served] {
        let read = tokio::time::timeout(Duration::from_secs(5), stream.read(&mut buffer))
            .await
            .expect("closed at its time-out")
            .unwrap();
        assert_eq!(read, 0);
    }
    until_parked(&gateway, 0).await;
}

/// nginx `location = /` beside `location /`, `return 301 https://$host$request_uri` and
/// `return 404`: exact routes win over prefixes, answers never reach the upstream.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn exact_routes_and_routes_that_answer_by_themselves() {
    let upstream = UpstreamServer::start(Transport::Tcp).await;
    let toml = format!(
        r#"
[server]
listen = ["127.0.0.1:0"]

[upstreams.app]
servers = ["{}"]

[[routes]]
path = "/"
upstream = "app"

[[routes]]
path = "/"
exact = true
redirect = "https://$host/docs"
status = 302

[[routes]]
host = "old.example"
redirect = "https://new.example$request_uri"
status = 301

[[routes]]
path = "/private/"
status = 404
"#,
        upstream.address
    );
    let gateway = TestGateway::start(&toml).await;
    let mut client = Client::connect(gateway.addr).await;
    let ask = |host: &'static str, path: &'static str| {
        Request::get(path)
            .header("host", host)
            .body(Default::default())
            .unwrap()
    };

    let docs = client.send(ask("App.Example:8080", "/")).await.unwrap();
    assert_eq!(docs.status, StatusCode::FOUND);
    assert_eq!(docs.header("location"), Some("https://app.example/docs"));
    let below = client
        .send(ask("app.example", "/status/201"))
        .await
        .unwrap();
    assert_eq!(
        below.status,
        StatusCode::CREATED,
        "a prefix route past the exact one"
    );
    let moved = client.send(ask("old.example", "/a/b?c=1")).await.unwrap();
    assert_eq!(moved.status, StatusCode::MOVED_PERMANENTLY);
    assert_eq!(
        moved.header("location"),
        Some("https://new.example/a/b?c=1")
    );
    assert!(moved.body.is_empty());
    let private = client.send(ask("app.example", "/private/x")).await.unwrap();
    assert_eq!(private.status, StatusCode::NOT_FOUND);
    let requests = upstream
        .counters
        .requests
        .load(std::sync::atomic::Ordering::SeqCst);
    assert_eq!(requests, 1, "only the prefix route reached the upstream");
}

/// The upstream's response head goes to the client as its lines came (issue 18: the head kept as
/// bytes): names spelled as the upstream spelled them, repeated fields in their order among the
/// others, the hop-by-hop ones (and what `Connection` names) left out, weir's lines after.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_upstreams_response_lines_go_out_as_they_came() {
    use weir_testkit::{RawUpstream, Script};
    let upstream = RawUpstream::start(Script::Reply(
        b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nX-App-Name: Kept As Sent\r\nSet-Cookie: a=1\r\nConnection: keep-alive, X-Private\r\nX-Private: secret\r\nX-Between: 1\r\nSet-Cookie: b=2\r\nKeep-Alive: timeout=5\r\nDate: Sun, 06 Nov 1994 08:49:37 GMT\r\n\r\nok"
            .to_vec(),
    ))
    .await;
    let gateway = TestGateway::start(&config(&upstream.address, "", "")).await;
    let answer = raw_exchange(
        gateway.addr,
        b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
        Duration::from_secs(5),
    )
    .await;
    let head = answer.split("\r\n\r\n").next().unwrap_or_default();
    assert!(
        head.starts_with(
            "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nX-App-Name: Kept As Sent\r\nSet-Cookie: a=1\r\nX-Between: 1\r\nSet-Cookie: b=2\r\nDate: Sun, 06 Nov 1994 08:49:37 GMT\r\n"
        ),
        "{answer}"
    );
    let lower = head.to_ascii_lowercase();
    for gone in ["x-private", "keep-alive"] {
        assert!(!lower.contains(gone), "{gone} was passed on: {answer}");
    }
    assert!(lower.ends_with("\r\nconnection: close"), "{answer}");
    assert!(answer.ends_with("\r\n\r\nok"), "{answer}");
}
