//! A raw upstream on TCP port 0 that answers from a [`Script`] instead of an HTTP library, for
//! answers no well-behaved server gives: a malformed or oversized head, silence, or an answer
//! before the request body has arrived. It counts the connections it accepted.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// What the upstream does with each request on a connection.
#[derive(Debug, Clone)]
pub enum Script {
    /// Reads a request head, writes these bytes, and keeps the connection open without writing
    /// anything more.
    Reply(Vec<u8>),
    /// Reads whatever comes and never answers.
    Silent,
    /// A `POST` is answered `413` (keep-alive, empty body) as soon as its head is in, before any
    /// of its body is read; the body is then read and thrown away, as a server that drains it
    /// would. Any other request is answered `200 ok`.
    AnswerBeforeBody,
    /// Answers the first request head `101 Switching Protocols` (`Upgrade: websocket`), then
    /// echoes every byte back, as an upgraded WebSocket peer would.
    SwitchAndEcho,
    /// The first this-many connections are closed as soon as a request head is in, with no
    /// answer (a worker stopping gracefully); later ones answer every request `200 ok`.
    CloseFirst(usize),
    /// Answers every request `200` with its head as it came (request line and header lines,
    /// byte for byte) as the body: what the gateway sent, to compare with what nginx sends.
    EchoHead,
}

/// A running raw upstream; stops accepting when dropped.
pub struct RawUpstream {
    /// `"127.0.0.1:PORT"`, ready for a config's `servers`.
    pub address: String,
    connections: Arc<AtomicUsize>,
    task: tokio::task::JoinHandle<()>,
}

impl RawUpstream {
    pub async fn start(script: Script) -> RawUpstream {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind port 0");
        let address = listener.local_addr().expect("local addr").to_string();
        let connections = Arc::new(AtomicUsize::new(0));
        let counter = Arc::clone(&connections);
        let task = tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                let number = counter.fetch_add(1, Ordering::SeqCst);
                tokio::spawn(serve(stream, script.clone(), number));
            }
        });
        RawUpstream {
            address,
            connections,
            task,
        }
    }

    /// Connections accepted since start.
    pub fn connections(&self) -> usize {
        self.connections.load(Ordering::SeqCst)
    }
}

impl Drop for RawUpstream {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// A request head as read off the wire.
struct Head {
    method: String,
    content_length: usize,
    /// The head's text, without the blank line that ends it.
    text: String,
}

/// The most a head may take before the connection is dropped.
const HEAD_LIMIT: usize = 64 * 1024;

/// Reads one request head; bytes read past it stay in `buffer`.
async fn read_head(stream: &mut TcpStream, buffer: &mut Vec<u8>) -> Option<Head> {
    let mut chunk = [0u8; 4096];
    loop {
        if let Some(end) = buffer.windows(4).position(|window| window == b"\r\n\r\n") {
            let text = String::from_utf8_lossy(&buffer[..end]).into_owned();
            buffer.drain(..end + 4);
            let method = text
                .split_whitespace()
                .next()
                .unwrap_or_default()
                .to_string();
            let content_length = text
                .lines()
                .filter_map(|line| line.split_once(':'))
                .find(|(name, _)| name.trim().eq_ignore_ascii_case("content-length"))
                .and_then(|(_, value)| value.trim().parse().ok())
                .unwrap_or(0);
            return Some(Head {
                method,
                content_length,
                text,
            });
        }
        if buffer.len() > HEAD_LIMIT {
            return None;
        }
        match stream.read(&mut chunk).await {
            Ok(0) | Err(_) => return None,
            Ok(read) => buffer.extend_from_slice(&chunk[..read]),
        }
    }
}

/// Reads and discards `length` body bytes, counting those already in `buffer`.
async fn skip_body(stream: &mut TcpStream, buffer: &mut Vec<u8>, length: usize) -> bool {
    let buffered = buffer.len().min(length);
    buffer.drain(..buffered);
    let mut left = length - buffered;
    let mut chunk = [0u8; 16 * 1024];
    while left > 0 {
        match stream.read(&mut chunk).await {
            Ok(0) | Err(_) => return false,
            Ok(read) if read > left => {
                buffer.extend_from_slice(&chunk[left..read]);
                left = 0;
            }
            Ok(read) => left -= read,
        }
    }
    true
}

/// Serves one connection, the `number`th accepted (from 0).
async fn serve(mut stream: TcpStream, script: Script, number: usize) {
    let mut buffer = Vec::new();
    match script {
        Script::CloseFirst(closed) => loop {
            let Some(head) = read_head(&mut stream, &mut buffer).await else {
                return;
            };
            if number < closed {
                return;
            }
            if !skip_body(&mut stream, &mut buffer, head.content_length).await {
                return;
            }
            let answer = b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok";
            if stream.write_all(answer).await.is_err() {
                return;
            }
        },
        Script::EchoHead => loop {
            let Some(head) = read_head(&mut stream, &mut buffer).await else {
                return;
            };
            if !skip_body(&mut stream, &mut buffer, head.content_length).await {
                return;
            }
            let answer = format!(
                "HTTP/1.1 200 OK\r\ncontent-length: {}\r\n\r\n{}",
                head.text.len(),
                head.text
            );
            if stream.write_all(answer.as_bytes()).await.is_err() {
                return;
            }
        },
        Script::SwitchAndEcho => {
            if read_head(&mut stream, &mut buffer).await.is_none() {
                return;
            }
            let switched = stream
                .write_all(b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n")
                .await;
            if switched.is_err() || stream.write_all(&buffer).await.is_err() {
                return;
            }
            let (mut reader, mut writer) = stream.into_split();
            let _ = tokio::io::copy(&mut reader, &mut writer).await;
        }
        Script::Reply(bytes) => {
            if read_head(&mut stream, &mut buffer).await.is_none() {
                return;
            }
            if stream.write_all(&bytes).await.is_err() {
                return;
            }
            // Hold the connection open, reading (and ignoring) whatever else comes.
            let mut chunk = [0u8; 4096];
            while let Ok(read) = stream.read(&mut chunk).await {
                if read == 0 {
                    return;
                }
            }
        }
        Script::Silent => {
            let mut chunk = [0u8; 4096];
            while let Ok(read) = stream.read(&mut chunk).await {
                if read == 0 {
                    return;
                }
            }
        }
        Script::AnswerBeforeBody => loop {
            let Some(head) = read_head(&mut stream, &mut buffer).await else {
                return;
            };
            let answer: &[u8] = if head.method == "POST" {
                b"HTTP/1.1 413 Payload Too Large\r\ncontent-length: 0\r\n\r\n"
            } else {
                b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok"
            };
            if stream.write_all(answer).await.is_err() {
                return;
            }
            if !skip_body(&mut stream, &mut buffer, head.content_length).await {
                return;
            }
        },
    }
}
