//! The gateway's buffers under clients that hold them: response read-ahead stays within its
//! bound for a client that does not read, and the request spool answers 503 with `Retry-After`
//! past `max_spool_size` and refuses a directory others could enter.

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use weir::buffering::READ_AHEAD_MAX_BYTES;

use crate::support::*;

/// The most one response may hold ahead of its client: the bound, plus the one frame (the
/// upstream connection's 64 KiB read buffer at most) read before the bound is seen.
const READ_AHEAD_LIMIT: usize = READ_AHEAD_MAX_BYTES + 64 * 1024;

/// A client that reads nothing of a 48 MiB response, then reads it slowly: weir reads ahead up to
/// its bound and then waits for the client, instead of taking the whole body into memory.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn read_ahead_stays_within_its_bound_for_a_client_that_does_not_read() {
    let (_upstream, gateway) = start(Transport::Tcp, "", "").await;
    let size = 48 << 20;
    let mut stream = tokio::net::TcpStream::connect(gateway.addr)
        .await
        .expect("connect");
    stream
        .write_all(format!("GET /big?bytes={size} HTTP/1.1\r\nhost: x\r\n\r\n").as_bytes())
        .await
        .expect("write");
    let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
    while gateway.handle.buffer_stats().read_ahead < READ_AHEAD_MAX_BYTES {
        assert!(
            tokio::time::Instant::now() < deadline,
            "read-ahead never reached its bound: {:?}",
            gateway.handle.buffer_stats()
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let metrics = gateway.handle.render_metrics();
    let gauge: usize = metrics
        .lines()
        .find_map(|line| line.strip_prefix("weir_read_ahead_bytes "))
        .and_then(|value| value.parse().ok())
        .expect("the read-ahead gauge");
    assert!(gauge >= READ_AHEAD_MAX_BYTES, "{gauge}");
    // Now read it all, slowly: the upstream is far faster, so an unbounded read-ahead would run
    // megabytes ahead.
    let mut received = 0;
    let mut buffer = vec![0u8; 64 * 1024];
    while received < size {
        let read = stream.read(&mut buffer).await.expect("read");
        assert!(read > 0, "the response ended early after {received} bytes");
        received += read;
        tokio::time::sleep(Duration::from_millis(1)).await;
    }
    let stats = gateway.handle.buffer_stats();
    assert!(
        stats.read_ahead_peak <= READ_AHEAD_LIMIT,
        "read-ahead held {} bytes at most, over its bound of {READ_AHEAD_LIMIT}",
        stats.read_ahead_peak
    );
    drop(stream);
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    while gateway.handle.buffer_stats().read_ahead != 0 {
        assert!(
            tokio::time::Instant::now() < deadline,
            "read-ahead kept bytes"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
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
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    while gateway.handle.buffer_stats().spooled != 0 {
        assert!(
            tokio::time::Instant::now() < deadline,
            "the spool kept bytes"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
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
