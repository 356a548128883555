//! The gateway's buffers under clients that hold them: response read-ahead keeps its bound in
//! memory and spills the rest to a spool file for a client that does not read, and the request
//! spool answers 503 with `Retry-After` past `max_spool_size` and refuses a directory others
//! could enter.

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use weir::buffering::{READ_AHEAD_MAX_BYTES, READ_AHEAD_MEMORY};

use crate::support::*;

/// One frame: the upstream connection's 64 KiB read buffer at most, which may be read before a
/// bound is seen.
const FRAME: usize = 64 * 1024;

/// A client that reads nothing of a 48 MiB response, then reads it slowly: weir holds at most
/// its memory share and spools up to its file bound, then waits for the client, instead of taking
/// the whole body.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn read_ahead_stays_within_its_bounds_for_a_client_that_does_not_read() {
    let (_upstream, gateway) = start(Transport::Tcp, "", "").await;
    let size = 48 << 20;
    let mut stream = tokio::net::TcpStream::connect(gateway.addr)
        .await
        .expect("connect");
    stream
        .write_all(format!("GET /big?bytes={size} HTTP/1.1\r\nhost: x\r\n\r\n").as_bytes())
        .await
        .expect("write");
    wait_until(
        "read-ahead to reach its bounds",
        Duration::from_secs(20),
        || {
            let stats = gateway.handle.buffer_stats();
            stats.read_ahead >= READ_AHEAD_MEMORY && stats.spooled >= READ_AHEAD_MAX_BYTES as u64
        },
    )
    .await;
    let metrics = gateway.handle.render_metrics();
    let gauge = |name: &str| -> usize {
        metrics
            .lines()
            .find_map(|line| line.strip_prefix(name))
            .and_then(|value| value.trim().parse().ok())
            .expect("the gauge")
    };
    assert!(gauge("weir_read_ahead_bytes ") >= READ_AHEAD_MEMORY);
    assert!(gauge("weir_spool_bytes ") >= READ_AHEAD_MAX_BYTES);
    // Now read it all, slowly: the upstream is far faster, so an unbounded read-ahead would run
    // megabytes ahead.
    let mut received = 0;
    let mut most_spooled = 0;
    let mut buffer = vec![0u8; 64 * 1024];
    while received < size {
        let read = stream.read(&mut buffer).await.expect("read");
        assert!(read > 0, "the response ended early after {received} bytes");
        received += read;
        most_spooled = most_spooled.max(gateway.handle.buffer_stats().spooled);
        // The client's pace, not a wait for a state.
        tokio::time::sleep(Duration::from_millis(1)).await;
    }
    let stats = gateway.handle.buffer_stats();
    assert!(
        stats.read_ahead_peak <= READ_AHEAD_MEMORY + FRAME,
        "read-ahead held {} bytes in memory at most, over its bound of {}",
        stats.read_ahead_peak,
        READ_AHEAD_MEMORY + FRAME
    );
    assert!(
        most_spooled <= (READ_AHEAD_MAX_BYTES + FRAME) as u64,
        "read-ahead spooled {most_spooled} bytes"
    );
    drop(stream);
    wait_until(
        "read-ahead to give back its bytes",
        Duration::from_secs(20),
        || {
            let stats = gateway.handle.buffer_stats();
            stats.read_ahead == 0 && stats.spooled == 0
        },
    )
    .await;
}

/// A client that reads nothing of an 8 MB response: weir takes the whole response (the upstream
/// connection is back in its pool before the client reads a byte), holding only its memory share
/// in memory and the rest in the spool; the client then gets every byte, in order.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_does_not_read_gets_its_8_mb_response_intact_after_the_upstream_is_released()
{
    use weir_testkit::{RawUpstream, Script};
    let size = 8_000_000;
    let body: Vec<u8> = (0..size as u32)
        .map(|index| (index.wrapping_mul(2_654_435_761) >> 24) as u8)
        .collect();
    let mut reply = format!("HTTP/1.1 200 OK\r\ncontent-length: {size}\r\n\r\n").into_bytes();
    reply.extend_from_slice(&body);
    let upstream = RawUpstream::start(Script::Reply(reply)).await;
    let temp = tempfile::tempdir().expect("a temp dir");
    let spool = temp.path().join("spool");
    let gateway = TestGateway::start(&config(
        &upstream.address,
        &format!("spool_dir = \"{}\"", spool.display()),
        "",
    ))
    .await;
    // A small receive buffer, so the kernel holds little of the response for the client.
    let socket = tokio::net::TcpSocket::new_v4().expect("a socket");
    socket.set_recv_buffer_size(16 * 1024).expect("SO_RCVBUF");
    let mut stream = socket.connect(gateway.addr).await.expect("connect");
    stream
        .write_all(b"GET / HTTP/1.1\r\nhost: x\r\n\r\n")
        .await
        .expect("write");
    wait_until(
        "the upstream connection to go back to its pool",
        Duration::from_secs(20),
        || {
            let (_, _, pool) = &gateway.handle.pool_stats()[0];
            pool.in_use == 0 && pool.idle == 1
        },
    )
    .await;
    let stats = gateway.handle.buffer_stats();
    assert!(
        stats.read_ahead_peak <= READ_AHEAD_MEMORY + FRAME,
        "{stats:?}"
    );
    // weir's send buffer (at most tcp_wmem's 4 MiB by default) holds some; the spool the rest.
    assert!(stats.spooled >= 1 << 20, "{stats:?}");

    let mut received = Vec::with_capacity(size + 1024);
    let mut buffer = vec![0u8; 64 * 1024];
    let head_end = loop {
        let read = stream.read(&mut buffer).await.expect("read");
        assert!(read > 0, "the connection ended in the head");
        received.extend_from_slice(&buffer[..read]);
        if let Some(end) = received.windows(4).position(|window| window == b"\r\n\r\n") {
            break end + 4;
        }
    };
    while received.len() < head_end + size {
        let read = stream.read(&mut buffer).await.expect("read");
        assert!(read > 0, "the response ended early");
        received.extend_from_slice(&buffer[..read]);
    }
    assert!(received[..head_end].starts_with(b"HTTP/1.1 200 OK\r\n"));
    assert_eq!(received.len(), head_end + size, "bytes past the body");
    assert!(
        received[head_end..] == body[..],
        "the body changed on its way"
    );
    wait_until(
        "the spool to be empty after the response",
        Duration::from_secs(20),
        || gateway.handle.buffer_stats().spooled == 0,
    )
    .await;
    assert!(gateway.handle.buffer_stats().read_ahead_peak <= READ_AHEAD_MEMORY + FRAME);
}

/// Past `max_spool_size`, a buffered body gets 503 with `Retry-After`, and a body that fits is
/// still spooled and forwarded; the spool is empty again afterwards.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_spool_answers_503_with_retry_after() {
    let temp = tempfile::tempdir().expect("a temp dir");
    let spool = temp.path().join("spool");
    let server_extra = format!(
        "max_body_size = \"10MiB\"\nmax_spool_size = \"2MiB\"\nspool_dir = \"{}\"",
        spool.display()
    );
    let (_upstream, gateway) = start(Transport::Tcp, &server_extra, "").await;
    let mut client = Client::connect(gateway.addr).await;

    let too_large = client
        .request(Method::POST, "/consume", vec![b'a'; 3 << 20])
        .await;
    assert_eq!(too_large.status, StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(too_large.header("retry-after"), Some("5"));

    let mut client = Client::connect(gateway.addr).await;
    let fits = client
        .request(Method::POST, "/consume", vec![b'a'; 3 << 19])
        .await;
    assert_eq!(fits.status, StatusCode::OK);
    assert_eq!(fits.text(), format!("{} bytes", 3 << 19));
    wait_until("the spool to be empty", Duration::from_secs(10), || {
        gateway.handle.buffer_stats().spooled == 0
    })
    .await;
    assert_eq!(std::fs::read_dir(&spool).expect("list").count(), 0);
    assert!(gateway
        .handle
        .render_metrics()
        .lines()
        .any(|line| line == "weir_spool_bytes 0"));
}

/// A `spool_dir` that group or others may enter stops the gateway at start, naming the directory.
#[tokio::test]
async fn a_spool_dir_others_may_enter_is_refused_at_start() {
    use std::os::unix::fs::PermissionsExt;
    let temp = tempfile::tempdir().expect("a temp dir");
    let spool = temp.path().join("spool");
    std::fs::create_dir(&spool).expect("mkdir");
    std::fs::set_permissions(&spool, std::fs::Permissions::from_mode(0o777)).expect("chmod");
    let toml = config(
        "127.0.0.1:1",
        &format!("spool_dir = \"{}\"", spool.display()),
        "",
    );
    let config = weir::config::from_toml(&toml, None).expect("the config is valid");
    let error = match weir::Gateway::bind(&config) {
        Ok(_) => panic!("a spool directory with mode 0777 must be refused"),
        Err(error) => error.to_string(),
    };
    assert!(error.contains(&spool.display().to_string()), "{error}");
    assert!(error.contains("mode 777"), "{error}");
}

/// An upstream on a port of its own that answers each request with `chunks` chunks of `size`
/// bytes each (`Transfer-Encoding: chunked`, so each chunk reaches read-ahead as frames of at
/// most `size` bytes), the bytes of [`pattern`]; it keeps each connection until the gateway is
/// done with it.
async fn chunked_upstream(size: usize, chunks: usize) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let address = listener.local_addr().expect("address").to_string();
    tokio::spawn(async move {
        while let Ok((stream, _)) = listener.accept().await {
            tokio::spawn(answer_chunked(stream, size, chunks));
        }
    });
    address
}

async fn answer_chunked(mut stream: tokio::net::TcpStream, size: usize, chunks: usize) {
    {
        let mut head = Vec::new();
        let mut byte = [0u8; 1];
        while !head.ends_with(b"\r\n\r\n") {
            match stream.read(&mut byte).await {
                Ok(1) => head.push(byte[0]),
                _ => return,
            }
        }
        let body = pattern(size * chunks);
        let reply = "HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n";
        if stream.write_all(reply.as_bytes()).await.is_err() {
            return;
        }
        for chunk in body.chunks(size) {
            let framed = [format!("{:x}\r\n", chunk.len()).as_bytes(), chunk, b"\r\n"].concat();
            if stream.write_all(&framed).await.is_err() {
                return;
            }
        }
        let _ = stream.write_all(b"0\r\n\r\n").await;
        let mut rest = Vec::new();
        let _ = stream.read_to_end(&mut rest).await;
    }
}

/// `size` bytes that differ from one position to the next.
fn pattern(size: usize) -> Vec<u8> {
    (0..size as u32)
        .map(|index| (index.wrapping_mul(2_654_435_761) >> 24) as u8)
        .collect()
}

/// Reads a chunked response's body off `stream` to its last chunk, within 60 s.
async fn read_chunked_body(stream: &mut tokio::net::TcpStream) -> Vec<u8> {
    let reading = async {
        let mut received = Vec::new();
        let mut buffer = vec![0u8; 64 * 1024];
        loop {
            let read = stream.read(&mut buffer).await.expect("read");
            assert!(read > 0, "the response ended before its last chunk");
            received.extend_from_slice(&buffer[..read]);
            if received.ends_with(b"\r\n0\r\n\r\n") {
                break;
            }
        }
        let head_end = received
            .windows(4)
            .position(|window| window == b"\r\n\r\n")
            .expect("a head")
            + 4;
        assert!(received.starts_with(b"HTTP/1.1 200 OK\r\n"));
        // Undo the chunked framing.
        let mut body = Vec::new();
        let mut rest = &received[head_end..];
        loop {
            let line_end = rest
                .windows(2)
                .position(|window| window == b"\r\n")
                .expect("a chunk size line");
            let text = std::str::from_utf8(&rest[..line_end]).expect("a chunk size");
            let length = usize::from_str_radix(text.trim(), 16).expect("a hex chunk size");
            if length == 0 {
                return body;
            }
            let data = &rest[line_end + 2..];
            body.extend_from_slice(&data[..length]);
            rest = &data[length + 2..];
        }
    };
    tokio::time::timeout(Duration::from_secs(60), reading)
        .await
        .expect("the response hung")
}

/// With `max_spool_size = "1MiB"`, an upstream writing 50,000-byte chunks of a 40 MiB body to a
/// client that does not read: the spool soon has no room for another frame, and that means
/// waiting for the client (the upstream is not read), not holding frames in memory past the
/// response's bound; the client, reading at last, gets the whole body intact.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_spool_without_room_for_a_frame_holds_the_upstream_back_not_memory() {
    let (chunk, chunks) = (50_000, 839);
    let address = chunked_upstream(chunk, chunks).await;
    let temp = tempfile::tempdir().expect("a temp dir");
    let spool = temp.path().join("spool");
    let max_spool: u64 = 1 << 20;
    let gateway = TestGateway::start(&config(
        &address,
        &format!(
            "max_spool_size = \"1MiB\"\nspool_dir = \"{}\"",
            spool.display()
        ),
        "",
    ))
    .await;
    let socket = tokio::net::TcpSocket::new_v4().expect("a socket");
    socket.set_recv_buffer_size(16 * 1024).expect("SO_RCVBUF");
    let mut stream = socket.connect(gateway.addr).await.expect("connect");
    stream
        .write_all(b"GET / HTTP/1.1\r\nhost: x\r\n\r\n")
        .await
        .expect("write");
    // The spool is as full as a response's frames can make it: less than a 64 KiB frame's room.
    wait_until("the spool to fill", Duration::from_secs(20), || {
        gateway.handle.buffer_stats().spooled + FRAME as u64 > max_spool
    })
    .await;
    let body = read_chunked_body(&mut stream).await;
    assert_eq!(body.len(), chunk * chunks, "the body's length changed");
    assert!(
        body == pattern(chunk * chunks),
        "the body changed on its way"
    );
    let stats = gateway.handle.buffer_stats();
    assert!(
        stats.read_ahead_peak <= READ_AHEAD_MEMORY + chunk,
        "read-ahead held {} bytes in memory at most, over its bound of {}",
        stats.read_ahead_peak,
        READ_AHEAD_MEMORY + chunk
    );
    drop(stream);
    wait_until(
        "read-ahead to give back its bytes",
        Duration::from_secs(20),
        || {
            let stats = gateway.handle.buffer_stats();
            stats.read_ahead == 0 && stats.spooled == 0
        },
    )
    .await;
}

/// A client that does not read, on a socket with a small receive buffer, that has sent a GET.
async fn idle_client(gateway: &TestGateway) -> tokio::net::TcpStream {
    let socket = tokio::net::TcpSocket::new_v4().expect("a socket");
    socket.set_recv_buffer_size(16 * 1024).expect("SO_RCVBUF");
    let mut stream = socket.connect(gateway.addr).await.expect("connect");
    stream
        .write_all(b"GET / HTTP/1.1\r\nhost: x\r\n\r\n")
        .await
        .expect("write");
    stream
}

/// A reload that moves the spool (a new `spool_dir`) while a response of the old generation
/// holds the spool full: the new generation's responses count against the same cap and the
/// same read-ahead budget (one account for the gateway's life), so the second response, with no
/// room left, waits for its client instead of filling a second spool's worth.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reload_that_changes_the_spool_keeps_one_cap_for_old_and_new_responses() {
    let address = chunked_upstream(50_000, 839).await;
    let temp = tempfile::tempdir().expect("a temp dir");
    let max_spool: u64 = 1 << 20;
    let toml = |spool: &str| {
        config(
            &address,
            &format!(
                "max_spool_size = \"1MiB\"\nspool_dir = \"{}\"",
                temp.path().join(spool).display()
            ),
            "",
        )
    };
    let gateway = TestGateway::start(&toml("first")).await;
    let mut first = idle_client(&gateway).await;
    wait_until(
        "the first response to fill the spool",
        Duration::from_secs(20),
        || gateway.handle.buffer_stats().spooled + FRAME as u64 > max_spool,
    )
    .await;
    let reloaded = weir::config::from_toml(&toml("second"), None).expect("a valid config");
    gateway.handle.reload(&reloaded).expect("reload");
    let mut second = idle_client(&gateway).await;
    // Both responses hold their memory share, in one account.
    wait_until(
        "the responses of the two generations to be counted in one account",
        Duration::from_secs(20),
        || gateway.handle.buffer_stats().read_ahead >= 2 * READ_AHEAD_MEMORY,
    )
    .await;
    let stats = gateway.handle.buffer_stats();
    assert!(stats.spooled <= max_spool, "{stats:?}");
    for stream in [&mut first, &mut second] {
        let body = read_chunked_body(stream).await;
        assert!(body == pattern(50_000 * 839), "the body changed on its way");
    }
    drop((first, second));
    wait_until(
        "read-ahead to give back its bytes",
        Duration::from_secs(20),
        || {
            let stats = gateway.handle.buffer_stats();
            stats.read_ahead == 0 && stats.spooled == 0
        },
    )
    .await;
}

/// An upstream that reads each request whole (by its `Content-Length`), keeps its body in
/// `bodies`, and answers `200` only once `answer` is set, so the gateway holds the bodies it
/// buffered (a request body stays the gateway's until its exchange ends) for as long as the
/// test wants.
async fn holding_upstream(
    bodies: std::sync::Arc<std::sync::Mutex<Vec<Vec<u8>>>>,
    answer: tokio::sync::watch::Receiver<bool>,
) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let address = listener.local_addr().expect("address").to_string();
    tokio::spawn(async move {
        while let Ok((mut stream, _)) = listener.accept().await {
            let bodies = std::sync::Arc::clone(&bodies);
            let mut answer = answer.clone();
            tokio::spawn(async move {
                let mut received = Vec::new();
                let mut buffer = vec![0u8; 64 * 1024];
                let (head_end, length) = loop {
                    let Ok(read) = stream.read(&mut buffer).await else {
                        return;
                    };
                    if read == 0 {
                        return;
                    }
                    received.extend_from_slice(&buffer[..read]);
                    if let Some(end) = received.windows(4).position(|w| w == b"\r\n\r\n") {
                        let head = String::from_utf8_lossy(&received[..end]).to_lowercase();
                        let length = head
                            .lines()
                            .find_map(|line| line.strip_prefix("content-length:"))
                            .and_then(|value| value.trim().parse::<usize>().ok())
                            .unwrap_or(0);
                        break (end + 4, length);
                    }
                };
                while received.len() < head_end + length {
                    match stream.read(&mut buffer).await {
                        Ok(0) | Err(_) => return,
                        Ok(read) => received.extend_from_slice(&buffer[..read]),
                    }
                }
                bodies
                    .lock()
                    .expect("not poisoned")
                    .push(received.split_off(head_end));
                if answer.wait_for(|&go| go).await.is_err() {
                    return;
                }
                let _ = stream
                    .write_all(b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok")
                    .await;
            });
        }
    });
    address
}

/// Starts an upload of `size` bytes of `byte` with only its first `sent` bytes sent.
async fn partial_upload(
    gateway: &TestGateway,
    size: usize,
    sent: usize,
    byte: u8,
) -> tokio::net::TcpStream {
    let mut stream = tokio::net::TcpStream::connect(gateway.addr)
        .await
        .expect("connect");
    let head = format!("POST / HTTP/1.1\r\nhost: x\r\ncontent-length: {size}\r\n\r\n");
    stream.write_all(head.as_bytes()).await.expect("write");
    stream.write_all(&vec![byte; sent]).await.expect("write");
    stream
}

/// The gauge `name` from the gateway's metrics.
fn gauge(gateway: &TestGateway, name: &str) -> Option<u64> {
    gateway
        .handle
        .render_metrics()
        .lines()
        .find_map(|line| line.strip_prefix(name)?.strip_prefix(' ')?.parse().ok())
}

/// With `max_body_memory = "1MiB"`, two slow uploads of 900,000 bytes, 800,000 of each sent: the
/// first is held in memory, and the second, past what all buffered bodies together may hold,
/// goes to the spool (as a body past nginx's `client_body_buffer_size` goes to a temp file)
/// instead of into memory; both then reach the upstream intact.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn buffered_bodies_past_the_gateways_memory_budget_go_to_the_spool() {
    let bodies = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let (_answer, answering) = tokio::sync::watch::channel(true);
    let address = holding_upstream(std::sync::Arc::clone(&bodies), answering).await;
    let temp = tempfile::tempdir().expect("a temp dir");
    let gateway = TestGateway::start(&config(
        &address,
        &format!(
            "max_body_size = \"10MiB\"\nmax_body_memory = \"1MiB\"\nspool_dir = \"{}\"",
            temp.path().join("spool").display()
        ),
        "",
    ))
    .await;
    let (size, sent) = (900_000, 800_000);
    let mut first = partial_upload(&gateway, size, sent, 1).await;
    wait_until(
        "the first body to be held in memory",
        Duration::from_secs(20),
        || gauge(&gateway, "weir_request_body_memory_bytes") == Some(sent as u64),
    )
    .await;
    let mut second = partial_upload(&gateway, size, sent, 2).await;
    wait_until(
        "the second body to go to the spool",
        Duration::from_secs(20),
        || gateway.handle.buffer_stats().spooled == sent as u64,
    )
    .await;
    assert_eq!(
        gauge(&gateway, "weir_request_body_memory_bytes"),
        Some(sent as u64),
        "the second body is held in memory too"
    );
    for (stream, byte) in [(&mut first, 1), (&mut second, 2)] {
        stream
            .write_all(&vec![byte; size - sent])
            .await
            .expect("write the rest");
        let mut reply = [0u8; 17];
        stream.read_exact(&mut reply).await.expect("a reply");
        assert_eq!(&reply, b"HTTP/1.1 200 OK\r\n");
    }
    let mut bodies = bodies.lock().expect("not poisoned").clone();
    bodies.sort();
    assert!(
        bodies == vec![vec![1; size], vec![2; size]],
        "a body changed"
    );
    wait_until(
        "the buffers to give back their bytes",
        Duration::from_secs(20),
        || {
            gateway.handle.buffer_stats().spooled == 0
                && gauge(&gateway, "weir_request_body_memory_bytes") == Some(0)
        },
    )
    .await;
}
