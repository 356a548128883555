//! A raw upstream that misbehaves on purpose: it answers the first request on each connection
//! with keep-alive, then reads the next request head and closes without answering. This is the
//! race a pool meets when Gunicorn's keep-alive timer closes a connection just as it is reused.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// A running flaky upstream on TCP port 0.
pub struct FlakyUpstream {
    pub address: String,
    connections: Arc<AtomicUsize>,
    task: tokio::task::JoinHandle<()>,
}

impl FlakyUpstream {
    pub async fn start() -> FlakyUpstream {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind port 0");
        let address = listener.local_addr().expect("local addr").to_string();
        let connections = Arc::new(AtomicUsize::new(0));
        let counter = Arc::clone(&connections);
        let task = tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                counter.fetch_add(1, Ordering::SeqCst);
                tokio::spawn(serve(stream));
            }
        });
        FlakyUpstream {
            address,
            connections,
            task,
        }
    }

    pub fn connections(&self) -> usize {
        self.connections.load(Ordering::SeqCst)
    }
}

impl Drop for FlakyUpstream {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// Reads until the end of a request head (and a small body when Content-Length says so).
async fn read_request(stream: &mut TcpStream) -> bool {
    let mut received = Vec::new();
    let mut buffer = [0u8; 4096];
    loop {
        if let Some(end) = find(&received, b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&received[..end]).to_ascii_lowercase();
            let length = head
                .lines()
                .find_map(|line| line.strip_prefix("content-length:"))
                .and_then(|value| value.trim().parse::<usize>().ok())
                .unwrap_or(0);
            while received.len() < end + 4 + length {
                match stream.read(&mut buffer).await {
                    Ok(0) | Err(_) => return false,
                    Ok(n) => received.extend_from_slice(&buffer[..n]),
                }
            }
            return true;
        }
        match stream.read(&mut buffer).await {
            Ok(0) | Err(_) => return false,
            Ok(n) => received.extend_from_slice(&buffer[..n]),
        }
    }
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack
        .windows(needle.len())
        .position(|window| window == needle)
}

async fn serve(mut stream: TcpStream) {
    if !read_request(&mut stream).await {
        return;
    }
    let answer = b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\nconnection: keep-alive\r\n\r\nok";
    if stream.write_all(answer).await.is_err() {
        return;
    }
    // The second request is read whole, then the connection is dropped unanswered.
    let _ = read_request(&mut stream).await;
}
