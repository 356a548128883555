//! Heap allocations per request, counted by a counting global allocator (issue 18, point 2): a
//! test binary of its own, as `#[global_allocator]` is per binary. The gateway runs in-process
//! (one thread per core, as `weir run`); the client and the upstream are plain blocking sockets
//! with fixed buffers on their own threads, so after the warm-up neither allocates per request
//! and every allocation counted is the gateway's.
//!
//! The paths: the 429 answer of a `1r/m` limit with burst 0, and a bodiless GET proxied with
//! keep-alive on both sides. Issue 18's target is 0 on both, which both meet: the test holds
//! each path to a ceiling (once a ratchet, lowered as the count fell).

use std::alloc::{GlobalAlloc, Layout, System};
use std::io::{Read, Write};
use std::net::TcpStream;
use std::os::unix::net::UnixListener;
use std::sync::atomic::{AtomicU64, Ordering};

struct Counting;

static ALLOCATIONS: AtomicU64 = AtomicU64::new(0);

// SAFETY: every call is forwarded to the system allocator unchanged; only a counter is added.
#[allow(unsafe_code)] // reason: a global allocator can only be written as an unsafe impl
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: the caller's contract for `alloc` is passed on as it is.
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: as for `alloc`.
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, pointer: *mut u8, layout: Layout, size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: as for `alloc`.
        unsafe { System.realloc(pointer, layout, size) }
    }
    unsafe fn dealloc(&self, pointer: *mut u8, layout: Layout) {
        // SAFETY: as for `alloc`.
        unsafe { System.dealloc(pointer, layout) }
    }
}

#[global_allocator]
static COUNTING: Counting = Counting;

/// Requests sent before counting: connections, pools, caches and the clock's text settle.
const WARM_UP: u64 = 200;
/// Requests counted.
const COUNTED: u64 = 1000;

/// The ceilings (allocations and reallocations per request), a ratchet to be lowered as the path
/// gets leaner: the target is 0. Measured on main 1e5ead6: 16.00 on the 429, 22.01 proxied (the
/// fraction: an occasional allocation of the runtime, not of a request); then 9.00 and 20.00
/// once limit keys stayed inline, response heads went into reused buffers with weir's own lines
/// written as bytes, and the upstream head was sized exactly (28.00 proxied for a while, when
/// every upstream connection was closed at checkin: this test caught it); then 7.00 and 18.00
/// once the writer gave each response's header map back to its thread for the next answer or
/// upstream head to fill; then 6.00 on the 429 once `RateLimit` values were cut from a per-thread
/// arena; then 4.00 and 10.00 once request maps went back to the spares too (a rejected one, a
/// proxied one once sent), so a request head's map has room for the forwarding headers; then
/// 3.00 and 9.00 once the boxed `Head` went back to the thread's spares when its request began;
/// then 1.00 and 7.00 once the request's target and header values were cut from a per-thread
/// arena of head bytes (`spares::cut`) that the `Uri` and the values keep slices of; then 1.00
/// proxied once the forwarding headers' values, the upstream request's head and the upstream
/// response's values were cut from that arena too, and the upstream write queue went back to
/// the thread's spares; then 0.00 on both once the request phase's box kept its memory for the
/// thread's next request (`spares::SpareBox`), and none at all in 1,000 requests (0.0000 in 4
/// runs) once the `Date` text was formatted in place and the first connection was closed
/// before the counting (left idle, it was parked meanwhile: 4 allocations of the park's table,
/// 0.004 on one path or the other). The ceilings leave room for an occasional allocation of the
/// runtime (10 in the 1,000 requests), none for one of a request: any allocation every few
/// requests (an arena buffer that is never reused: 0.07) fails them.
const CEILING_429: f64 = 0.01;
const CEILING_PROXIED: f64 = 0.01;

/// An upstream that answers every bodiless request with a fixed 200, one thread per connection.
fn start_upstream(socket: &std::path::Path) {
    let listener = UnixListener::bind(socket).expect("the upstream binds");
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { return };
            std::thread::spawn(move || {
                let mut buffer = [0u8; 8192];
                let mut filled = 0;
                loop {
                    let Ok(read) = stream.read(&mut buffer[filled..]) else {
                        return;
                    };
                    if read == 0 {
                        return;
                    }
                    filled += read;
                    while let Some(end) = find(&buffer[..filled], b"\r\n\r\n") {
                        let answer = b"HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ncontent-length: 2\r\n\r\nok";
                        if stream.write_all(answer).is_err() {
                            return;
                        }
                        buffer.copy_within(end + 4..filled, 0);
                        filled -= end + 4;
                    }
                    if filled == buffer.len() {
                        return;
                    }
                }
            });
        }
    });
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack
        .windows(needle.len())
        .position(|window| window == needle)
}

/// The value of `Content-Length` in a response head, if any.
fn content_length(head: &[u8]) -> usize {
    head.split(|byte| *byte == b'\n')
        .find_map(|line| {
            let colon = line.iter().position(|byte| *byte == b':')?;
            let (name, value) = line.split_at(colon);
            if !name.eq_ignore_ascii_case(b"content-length") {
                return None;
            }
            std::str::from_utf8(&value[1..]).ok()?.trim().parse().ok()
        })
        .unwrap_or(0)
}

/// A keep-alive client on one connection: sends `count` GETs of `path` one after the other and
/// returns the status of each answer (by its first digit and the rest), without allocating.
fn requests(stream: &mut TcpStream, path: &str, count: u64, expected_status: &[u8; 3]) {
    let mut request = [0u8; 128];
    let length = {
        let mut cursor = &mut request[..];
        write!(cursor, "GET {path} HTTP/1.1\r\nhost: example.com\r\n\r\n").expect("fits");
        128 - cursor.len()
    };
    let mut buffer = [0u8; 8192];
    for _ in 0..count {
        stream
            .write_all(&request[..length])
            .expect("the request goes out");
        let mut filled = 0;
        loop {
            let read = stream
                .read(&mut buffer[filled..])
                .expect("the answer comes");
            assert!(
                read > 0,
                "the gateway closed the connection on {path}: {}",
                String::from_utf8_lossy(&buffer[..filled])
            );
            filled += read;
            if let Some(end) = find(&buffer[..filled], b"\r\n\r\n") {
                let total = end + 4 + content_length(&buffer[..end]);
                if filled >= total {
                    assert_eq!(
                        &buffer[9..12],
                        expected_status,
                        "{}",
                        String::from_utf8_lossy(&buffer[..end])
                    );
                    assert_eq!(filled, total, "one answer per request");
                    break;
                }
            }
        }
    }
}

/// Allocations per request over [`COUNTED`] requests on one connection, after [`WARM_UP`].
fn per_request(gateway: std::net::SocketAddr, path: &str, status: &[u8; 3]) -> f64 {
    let mut stream = TcpStream::connect(gateway).expect("the gateway accepts");
    stream.set_nodelay(true).expect("nodelay");
    requests(&mut stream, path, WARM_UP, status);
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    requests(&mut stream, path, COUNTED, status);
    let after = ALLOCATIONS.load(Ordering::Relaxed);
    (after - before) as f64 / COUNTED as f64
}

#[tokio::test(flavor = "multi_thread", worker_threads = 1)]
async fn allocations_per_request_on_the_429_and_the_proxied_path_stay_under_their_ceiling() {
    let directory = tempfile::tempdir().expect("a temp dir");
    let socket = directory.path().join("up.sock");
    start_upstream(&socket);
    let gateway = weir_testkit::TestGateway::start(&format!(
        r#"
[server]
listen = ["127.0.0.1:0"]
# More than the test sends on one connection (warm-up and counted).
keepalive_requests = 100000
[upstreams.app]
servers = ["unix:{}"]
[limits.flood]
key = "client_ip"
rate = "1r/m"
nodelay = true
[[routes]]
path = "/flood"
upstream = "app"
limits = ["flood"]
[[routes]]
path = "/"
upstream = "app"
"#,
        socket.display()
    ))
    .await;
    let addr = gateway.addr;
    let (limited, proxied) = tokio::task::spawn_blocking(move || {
        // The first request of the key passes; every later one is refused.
        let mut first = TcpStream::connect(addr).expect("the gateway accepts");
        requests(&mut first, "/flood", 1, b"200");
        // Closed now: left idle, it would be parked (a few allocations of the park's table)
        // while the counted requests run.
        drop(first);
        let limited = per_request(addr, "/flood", b"429");
        let proxied = per_request(addr, "/", b"200");
        (limited, proxied)
    })
    .await
    .expect("the client thread");
    eprintln!("allocations per request: 429 {limited:.2}, proxied {proxied:.2}");
    assert!(
        limited <= CEILING_429,
        "429: {limited:.2} allocations per request, ceiling {CEILING_429}"
    );
    assert!(
        proxied <= CEILING_PROXIED,
        "proxied: {proxied:.2} allocations per request, ceiling {CEILING_PROXIED}"
    );
    gateway.shutdown().await;
}
