//! A response body passed through untouched to a plain-TCP client (`response_buffering = false`,
//! `Content-Length`) goes by `splice(2)`: every byte arrives, the upstream connection goes back
//! to its pool after the whole body only, and a client or an upstream that leaves mid-body
//! closes the other side instead of hanging it.

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

use crate::support::*;

/// `size` bytes that differ from one position to the next.
fn pattern(size: usize) -> Vec<u8> {
    (0..size as u32)
        .map(|index| (index.wrapping_mul(2_654_435_761) >> 24) as u8)
        .collect()
}

/// A gateway in front of `upstream` whose route streams responses (no read-ahead).
async fn gateway(upstream: &str) -> TestGateway {
    gateway_with(upstream, "", "read_timeout = \"30s\"").await
}

/// The same with `server` lines in `[server]` and `upstream` lines in the upstream's table.
async fn gateway_with(upstream: &str, server: &str, upstream_extra: &str) -> TestGateway {
    TestGateway::start(&format!(
        r#"
[server]
listen = ["127.0.0.1:0"]
{server}

[upstreams.app]
servers = ["{upstream}"]
{upstream_extra}

[[routes]]
path = "/"
upstream = "app"
response_buffering = false
"#
    ))
    .await
}

/// Sends a GET and reads the response head: the head's text and the body bytes read with it.
async fn get(stream: &mut TcpStream) -> (String, Vec<u8>) {
    stream
        .write_all(b"GET / HTTP/1.1\r\nhost: x\r\n\r\n")
        .await
        .expect("write");
    let mut received = Vec::new();
    let mut buffer = vec![0u8; 64 * 1024];
    loop {
        let read = stream.read(&mut buffer).await.expect("read");
        assert!(read > 0, "the connection ended in the head");
        received.extend_from_slice(&buffer[..read]);
        if let Some(end) = received.windows(4).position(|window| window == b"\r\n\r\n") {
            let body = received.split_off(end + 4);
            return (String::from_utf8_lossy(&received).into_owned(), body);
        }
    }
}

/// Reads until the connection ends (or `limit` bytes), within 20 s: a hung connection fails.
async fn read_to_end(stream: &mut TcpStream, mut body: Vec<u8>, limit: usize) -> Vec<u8> {
    let mut buffer = vec![0u8; 64 * 1024];
    let reading = async {
        while body.len() < limit {
            match stream.read(&mut buffer).await {
                Ok(0) | Err(_) => break,
                Ok(read) => body.extend_from_slice(&buffer[..read]),
            }
        }
        body
    };
    tokio::time::timeout(Duration::from_secs(20), reading)
        .await
        .expect("the connection hung instead of ending")
}

/// `weir_spliced_bytes_total` from the gateway's metrics.
fn spliced(gateway: &TestGateway) -> u64 {
    gateway
        .handle
        .render_metrics()
        .lines()
        .find_map(|line| line.strip_prefix("weir_spliced_bytes_total "))
        .and_then(|value| value.parse().ok())
        .expect("the splice counter")
}

/// 1 MB and 8 MB bodies arrive byte for byte, and the upstream connection then waits idle in
/// its pool.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn large_bodies_arrive_whole_and_the_connection_goes_back_to_its_pool() {
    use weir_testkit::{RawUpstream, Script};
    for size in [1_000_000, 8_000_000] {
        let body = pattern(size);
        let mut reply = format!("HTTP/1.1 200 OK\r\ncontent-length: {size}\r\n\r\n").into_bytes();
        reply.extend_from_slice(&body);
        let upstream = RawUpstream::start(Script::Reply(reply)).await;
        let gateway = gateway(&upstream.address).await;
        let spliced_before = spliced(&gateway);
        let mut stream = TcpStream::connect(gateway.addr).await.expect("connect");
        let (head, first) = get(&mut stream).await;
        assert!(head.starts_with("HTTP/1.1 200 OK\r\n"), "{head}");
        let received = read_to_end(&mut stream, first, size).await;
        assert_eq!(received.len(), size);
        assert!(received == body, "the body changed on its way");
        // All but what weir read with the head (its first read, 64 KiB at most) went by splice.
        // The counter is the process's, and other tests only add to it.
        let moved = spliced(&gateway) - spliced_before;
        assert!(moved >= (size - 64 * 1024) as u64, "{moved} bytes spliced");
        wait_until(
            "the upstream connection to go back to its pool",
            Duration::from_secs(20),
            || {
                let (_, _, pool) = &gateway.handle.pool_stats()[0];
                pool.in_use == 0 && pool.idle == 1
            },
        )
        .await;
    }
}

/// A client that closes after the first part of an 8 MB body: the upstream connection is
/// closed, not pooled, and its slot is free.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_leaves_mid_body_closes_the_upstream_connection() {
    use weir_testkit::{RawUpstream, Script};
    let size = 8_000_000;
    let mut reply = format!("HTTP/1.1 200 OK\r\ncontent-length: {size}\r\n\r\n").into_bytes();
    reply.extend_from_slice(&pattern(size));
    let upstream = RawUpstream::start(Script::Reply(reply)).await;
    let gateway = gateway(&upstream.address).await;
    let mut stream = TcpStream::connect(gateway.addr).await.expect("connect");
    let (_, first) = get(&mut stream).await;
    let part = read_to_end(&mut stream, first, 256 * 1024).await;
    assert!(part.len() >= 256 * 1024);
    drop(stream);
    wait_until(
        "the upstream connection to be closed after the client left",
        Duration::from_secs(20),
        || {
            let (_, _, pool) = &gateway.handle.pool_stats()[0];
            pool.in_use == 0 && pool.idle == 0 && pool.open == 0
        },
    )
    .await;
}

/// An upstream on a port of its own that answers one request with a `length`-byte head, then
/// `sent` bytes of the pattern, then closes the connection.
async fn closing_upstream(length: usize, sent: usize) -> String {
    partial_upstream(length, sent, false).await
}

/// The same, keeping the connection open without a byte more when `hold`.
async fn partial_upstream(length: usize, sent: usize, hold: bool) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let address = listener.local_addr().expect("address").to_string();
    tokio::spawn(async move {
        let Ok((mut stream, _)) = listener.accept().await else {
            return;
        };
        let mut head = Vec::new();
        let mut byte = [0u8; 1];
        while !head.ends_with(b"\r\n\r\n") {
            match stream.read(&mut byte).await {
                Ok(1) => head.push(byte[0]),
                _ => return,
            }
        }
        let reply = format!("HTTP/1.1 200 OK\r\ncontent-length: {length}\r\n\r\n");
        let _ = stream.write_all(reply.as_bytes()).await;
        let _ = stream.write_all(&pattern(sent)).await;
        if hold {
            // Silent from here on, until the gateway closes the connection.
            let mut rest = Vec::new();
            let _ = stream.read_to_end(&mut rest).await;
        }
        // Dropped: the connection closes with the body short of its length.
    });
    address
}

/// An upstream that closes 1 MB into an 8 MB body: the client gets the bytes sent, then its
/// connection closes (it does not hang waiting for the rest), and the slot is free.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_upstream_that_closes_mid_body_closes_the_client_connection() {
    let address = closing_upstream(8_000_000, 1_000_000).await;
    let gateway = gateway(&address).await;
    let mut stream = TcpStream::connect(gateway.addr).await.expect("connect");
    let (head, first) = get(&mut stream).await;
    assert!(head.starts_with("HTTP/1.1 200 OK\r\n"), "{head}");
    let received = read_to_end(&mut stream, first, 8_000_000).await;
    assert_eq!(received.len(), 1_000_000);
    assert!(received == pattern(1_000_000));
    wait_until(
        "the upstream slot to be freed",
        Duration::from_secs(20),
        || {
            let (_, _, pool) = &gateway.handle.pool_stats()[0];
            pool.in_use == 0 && pool.open == 0
        },
    )
    .await;
}

/// A `Content-Length` larger than the body (one byte short, then close): the client connection
/// closes after the bytes there are, instead of waiting for the missing one.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_body_short_of_its_content_length_closes_the_client_connection() {
    let address = closing_upstream(300_000, 299_999).await;
    let gateway = gateway(&address).await;
    let mut stream = TcpStream::connect(gateway.addr).await.expect("connect");
    let (_, first) = get(&mut stream).await;
    let received = read_to_end(&mut stream, first, 300_000).await;
    assert_eq!(received.len(), 299_999);
    wait_until(
        "the upstream slot to be freed",
        Duration::from_secs(20),
        || {
            let (_, _, pool) = &gateway.handle.pool_stats()[0];
            pool.in_use == 0 && pool.open == 0
        },
    )
    .await;
}

/// An upstream that stops sending 1 MB into an 8 MB body: past `read_timeout` the client
/// connection closes after the bytes sent, and the upstream connection is closed too.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_upstream_that_stalls_mid_body_is_given_up_after_read_timeout() {
    let address = partial_upstream(8_000_000, 1_000_000, true).await;
    let gateway = gateway_with(&address, "", "read_timeout = \"300ms\"").await;
    let mut stream = TcpStream::connect(gateway.addr).await.expect("connect");
    let (_, first) = get(&mut stream).await;
    let received = read_to_end(&mut stream, first, 8_000_000).await;
    assert_eq!(received.len(), 1_000_000);
    wait_until(
        "the upstream slot to be freed",
        Duration::from_secs(20),
        || {
            let (_, _, pool) = &gateway.handle.pool_stats()[0];
            pool.in_use == 0 && pool.open == 0
        },
    )
    .await;
}

/// A client that stops reading an 8 MB body: past `send_timeout` its connection is closed and
/// the upstream connection with it (not pooled).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_stops_reading_is_given_up_after_send_timeout() {
    use weir_testkit::{RawUpstream, Script};
    let size = 8_000_000;
    let mut reply = format!("HTTP/1.1 200 OK\r\ncontent-length: {size}\r\n\r\n").into_bytes();
    reply.extend_from_slice(&pattern(size));
    let upstream = RawUpstream::start(Script::Reply(reply)).await;
    let gateway = gateway_with(&upstream.address, "send_timeout = \"300ms\"", "").await;
    let socket = tokio::net::TcpSocket::new_v4().expect("a socket");
    socket.set_recv_buffer_size(16 * 1024).expect("SO_RCVBUF");
    let mut stream = socket.connect(gateway.addr).await.expect("connect");
    let (_, _first) = get(&mut stream).await;
    // Nothing more is read until weir has given up on the client.
    wait_until(
        "the upstream connection to end at the client's send_timeout",
        Duration::from_secs(20),
        || {
            let (_, _, pool) = &gateway.handle.pool_stats()[0];
            pool.in_use == 0 && pool.open == 0
        },
    )
    .await;
    let received = read_to_end(&mut stream, Vec::new(), size).await;
    assert!(received.len() < size, "the whole body arrived");
}

/// With an access log, the body still goes by splice, and its line counts every byte sent.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_access_log_counts_spliced_bytes() {
    use weir_testkit::{RawUpstream, Script};
    let size = 2_000_000;
    let mut reply = format!("HTTP/1.1 200 OK\r\ncontent-length: {size}\r\n\r\n").into_bytes();
    reply.extend_from_slice(&pattern(size));
    let upstream = RawUpstream::start(Script::Reply(reply)).await;
    let dir = tempfile::tempdir().expect("a temp dir");
    let path = dir.path().join("access.log");
    let gateway = TestGateway::start(&format!(
        r#"
[server]
listen = ["127.0.0.1:0"]

[access_log]
enabled = true
format = "json"
path = "{}"

[upstreams.app]
servers = ["{}"]

[[routes]]
path = "/"
upstream = "app"
response_buffering = false
"#,
        path.display(),
        upstream.address
    ))
    .await;
    let spliced_before = spliced(&gateway);
    let mut stream = TcpStream::connect(gateway.addr).await.expect("connect");
    let (_, first) = get(&mut stream).await;
    let received = read_to_end(&mut stream, first, size).await;
    assert_eq!(received.len(), size);
    assert!(spliced(&gateway) - spliced_before >= (size - 64 * 1024) as u64);
    drop(stream);
    let mut line = String::new();
    wait_until("the access log line", Duration::from_secs(20), || {
        line = std::fs::read_to_string(&path).unwrap_or_default();
        line.ends_with('\n')
    })
    .await;
    let entry: serde_json::Value = serde_json::from_str(line.trim()).expect("a JSON line");
    assert_eq!(entry["status"], 200);
    assert_eq!(entry["body_bytes_sent"], size as u64);
}

/// An upstream on a port of its own that answers one request with `body` sent by `sendfile(2)`
/// from a file, as Gunicorn's `wsgi.file_wrapper` does: the socket then holds the body in
/// pieces that fill a pipe's slots before its bytes.
fn sendfile_upstream(body: &[u8]) -> String {
    use std::io::{Read, Write};
    let mut file = tempfile::tempfile().expect("a temp file");
    file.write_all(body).expect("write the body file");
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let address = listener.local_addr().expect("address").to_string();
    let length = body.len();
    std::thread::spawn(move || {
        let Ok((mut stream, _)) = listener.accept() else {
            return;
        };
        let mut head = Vec::new();
        let mut byte = [0u8; 1];
        while !head.ends_with(b"\r\n\r\n") {
            match stream.read(&mut byte) {
                Ok(1) => head.push(byte[0]),
                _ => return,
            }
        }
        let reply = format!("HTTP/1.1 200 OK\r\ncontent-length: {length}\r\n\r\n");
        if stream.write_all(reply.as_bytes()).is_err() {
            return;
        }
        let mut offset = 0u64;
        while (offset as usize) < length {
            match rustix::fs::sendfile(&stream, &file, Some(&mut offset), length) {
                Ok(0) | Err(_) => return,
                Ok(_) => {}
            }
        }
        // Kept open until the gateway is done, so the end of the body is its length, not a close.
        let mut rest = Vec::new();
        let _ = stream.read_to_end(&mut rest);
    });
    address
}

/// A body the upstream sends with `sendfile`, to a client that reads 16 KiB then pauses 2 ms:
/// the pipe fills by its slots while the upstream socket still holds bytes, and the client still
/// gets every byte (a full pipe is not taken for an empty socket, whose wake-up never comes).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sendfile_body_to_a_slow_reader_arrives_whole() {
    let size = 8_000_000;
    let body = pattern(size);
    let address = sendfile_upstream(&body);
    let gateway = gateway_with(&address, "", "read_timeout = \"3s\"").await;
    let mut stream = TcpStream::connect(gateway.addr).await.expect("connect");
    let (head, mut received) = get(&mut stream).await;
    assert!(head.starts_with("HTTP/1.1 200 OK\r\n"), "{head}");
    let mut buffer = vec![0u8; 16 * 1024];
    let reading = async {
        while received.len() < size {
            match stream.read(&mut buffer).await {
                Ok(0) | Err(_) => break,
                Ok(read) => received.extend_from_slice(&buffer[..read]),
            }
            // The client's pace, not a wait for a state.
            tokio::time::sleep(Duration::from_millis(2)).await;
        }
    };
    tokio::time::timeout(Duration::from_secs(60), reading)
        .await
        .expect("the connection hung instead of ending");
    assert_eq!(received.len(), size, "the body ended short");
    assert!(received == body, "the body changed on its way");
}
