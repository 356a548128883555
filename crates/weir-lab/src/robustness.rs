//! The traffic of the two measurements of survival rather than speed (issue 8), and their
//! sections of summary.md. `slowloris`: thousands of connections that send their head or body a
//! byte at a time (or, over HTTP/2, the preface and then nothing, or a stream they never open the
//! window of: issue 16), beside the normal client of `measurements::slowloris`. `soak`: minutes of
//! mixed traffic (small, 1 MB, uploads, 429s, WebSocket) with the gateway's RSS and open
//! descriptors sampled throughout, and its pool counters read from the admin `/metrics` at the
//! end, for `measurements::soak`.

use std::fmt::Write as _;
use std::io::{self, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use crate::procfs;
use crate::record::{Record, SoakResult, SoakSample, SLOWLORIS_KEEP, SOAK_WINDOWS};
use crate::scenario::SlowClients;

/// The attack: `connections` sockets of `clients`' kind. A socket the gateway closes is opened
/// again. Runs until [`Attack::stop`].
pub struct Attack {
    stop: Arc<AtomicBool>,
    open: Arc<AtomicU64>,
    closed: Arc<AtomicU64>,
    thread: Option<thread::JoinHandle<()>>,
}

/// What one attacking connection does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Role {
    SlowHead,
    SlowBody,
    Preface,
    ZeroWindow,
}

impl Role {
    fn of(clients: SlowClients, index: u32) -> Role {
        match (clients, index % 2 == 1) {
            (SlowClients::Http1, false) => Role::SlowHead,
            (SlowClients::Http1, true) => Role::SlowBody,
            (SlowClients::Http2, false) => Role::Preface,
            (SlowClients::Http2, true) => Role::ZeroWindow,
        }
    }
}

/// An attacking connection, plain or TLS.
enum Socket {
    Plain(TcpStream),
    Tls(Box<rustls::StreamOwned<rustls::ClientConnection, TcpStream>>),
}

struct Attacker {
    stream: Option<Socket>,
    role: Role,
    sent: usize,
}

const SLOW_HEAD: &[u8] =
    b"GET / HTTP/1.1\r\nHost: lab\r\nUser-Agent: weir-lab-slowloris\r\nX-Slow: ";
const SLOW_BODY_HEAD: &[u8] =
    b"POST / HTTP/1.1\r\nHost: lab\r\nUser-Agent: weir-lab-slowloris\r\nContent-Length: 1000000\r\n\r\n";

/// The HTTP/2 client connection preface (RFC 9113 §3.4).
const H2_PREFACE: &[u8] = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";

/// An HTTP/2 frame: length, type, flags, stream id, payload.
fn h2_frame(kind: u8, flags: u8, stream_id: u32, payload: &[u8]) -> Vec<u8> {
    let length = payload.len();
    let mut bytes = vec![
        (length >> 16) as u8,
        (length >> 8) as u8,
        length as u8,
        kind,
        flags,
    ];
    bytes.extend_from_slice(&stream_id.to_be_bytes());
    bytes.extend_from_slice(payload);
    bytes
}

/// What an HTTP/2 attacker sends once, after the handshake.
fn h2_opening(role: Role) -> Vec<u8> {
    let mut bytes = H2_PREFACE.to_vec();
    if role == Role::ZeroWindow {
        // SETTINGS_INITIAL_WINDOW_SIZE (0x4) = 0, then HEADERS (END_STREAM | END_HEADERS) of
        // `GET /`: :method GET, :scheme https, :path / (indexed), :authority "lab" (literal).
        bytes.extend(h2_frame(0x4, 0, 0, &[0, 0x4, 0, 0, 0, 0]));
        bytes.extend(h2_frame(
            0x1,
            0x5,
            1,
            &[0x82, 0x87, 0x84, 0x01, 3, b'l', b'a', b'b'],
        ));
    } else {
        bytes.extend(h2_frame(0x4, 0, 0, &[]));
    }
    bytes
}

/// Accepts any server certificate: the attack needs the TLS session, not the server's identity
/// (the lab's certificate is self-signed).
#[derive(Debug)]
struct AnyCertificate(Arc<rustls::crypto::CryptoProvider>);

impl rustls::client::danger::ServerCertVerifier for AnyCertificate {
    fn verify_server_cert(
        &self,
        _end_entity: &rustls::pki_types::CertificateDer<'_>,
        _intermediates: &[rustls::pki_types::CertificateDer<'_>],
        _server_name: &rustls::pki_types::ServerName<'_>,
        _ocsp_response: &[u8],
        _now: rustls::pki_types::UnixTime,
    ) -> Result<rustls::client::danger::ServerCertVerified, rustls::Error> {
        Ok(rustls::client::danger::ServerCertVerified::assertion())
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &rustls::pki_types::CertificateDer<'_>,
        dss: &rustls::DigitallySignedStruct,
    ) -> Result<rustls::client::danger::HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls12_signature(
            message,
            cert,
            dss,
            &self.0.signature_verification_algorithms,
        )
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &rustls::pki_types::CertificateDer<'_>,
        dss: &rustls::DigitallySignedStruct,
    ) -> Result<rustls::client::danger::HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls13_signature(
            message,
            cert,
            dss,
            &self.0.signature_verification_algorithms,
        )
    }

    fn supported_verify_schemes(&self) -> Vec<rustls::SignatureScheme> {
        self.0.signature_verification_algorithms.supported_schemes()
    }
}

/// The HTTP/2 attackers' TLS client: ALPN `h2` only, any certificate.
fn h2_client_config() -> Option<Arc<rustls::ClientConfig>> {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut config = rustls::ClientConfig::builder_with_provider(Arc::clone(&provider))
        .with_safe_default_protocol_versions()
        .ok()?
        .dangerous()
        .with_custom_certificate_verifier(Arc::new(AnyCertificate(provider)))
        .with_no_client_auth();
    config.alpn_protocols = vec![b"h2".to_vec()];
    Some(Arc::new(config))
}

impl Attacker {
    /// The next byte of a dripping attacker: the head's bytes, then an endless header value or
    /// body. HTTP/2 attackers drip nothing.
    fn next_byte(&self) -> Option<u8> {
        let head = match self.role {
            Role::SlowHead => SLOW_HEAD,
            Role::SlowBody => SLOW_BODY_HEAD,
            Role::Preface | Role::ZeroWindow => return None,
        };
        Some(head.get(self.sent).copied().unwrap_or(b'a'))
    }

    fn connect(
        addr: SocketAddr,
        role: Role,
        tls: Option<&Arc<rustls::ClientConfig>>,
    ) -> Option<Socket> {
        let stream = TcpStream::connect_timeout(&addr, Duration::from_secs(2)).ok()?;
        let socket = match (role, tls) {
            (Role::SlowHead | Role::SlowBody, _) => Socket::Plain(stream),
            (Role::Preface | Role::ZeroWindow, Some(config)) => {
                // The handshake and the opening frames, blocking (bounded), then the socket is
                // only read.
                stream.set_read_timeout(Some(Duration::from_secs(5))).ok()?;
                stream
                    .set_write_timeout(Some(Duration::from_secs(5)))
                    .ok()?;
                let name = rustls::pki_types::ServerName::IpAddress(addr.ip().into());
                let connection = rustls::ClientConnection::new(Arc::clone(config), name).ok()?;
                let mut tls = rustls::StreamOwned::new(connection, stream);
                tls.write_all(&h2_opening(role)).ok()?;
                tls.flush().ok()?;
                Socket::Tls(Box::new(tls))
            }
            (Role::Preface | Role::ZeroWindow, None) => return None,
        };
        match &socket {
            Socket::Plain(stream) => stream.set_nonblocking(true).ok()?,
            Socket::Tls(tls) => tls.sock.set_nonblocking(true).ok()?,
        }
        Some(socket)
    }

    /// Reads and drops what the gateway sent, then drips the next byte; false once the gateway
    /// closed the connection.
    fn alive(&mut self, scratch: &mut [u8]) -> bool {
        let byte = self.next_byte();
        match &mut self.stream {
            Some(Socket::Plain(stream)) => {
                // Whatever the gateway answered (a 408, say) is read and dropped; end of stream
                // means it closed the connection.
                let gone = matches!(stream.read(scratch), Ok(0));
                !gone
                    && match byte.map(|byte| stream.write(&[byte])) {
                        None | Some(Ok(_)) => true,
                        Some(Err(error)) => error.kind() == io::ErrorKind::WouldBlock,
                    }
            }
            Some(Socket::Tls(tls)) => match tls.read(scratch) {
                Ok(0) => false,
                Ok(_) => true,
                Err(error) => error.kind() == io::ErrorKind::WouldBlock,
            },
            None => false,
        }
    }
}

impl Attack {
    /// Starts `connections` attackers on `addr`, which speaks TLS for [`SlowClients::Http2`];
    /// a dripping attacker sends a byte per `interval`, and every attacker is checked as often.
    pub fn start(
        addr: SocketAddr,
        connections: u32,
        interval: Duration,
        clients: SlowClients,
    ) -> Attack {
        let stop = Arc::new(AtomicBool::new(false));
        let open = Arc::new(AtomicU64::new(0));
        let closed = Arc::new(AtomicU64::new(0));
        let (thread_stop, thread_open, thread_closed) =
            (Arc::clone(&stop), Arc::clone(&open), Arc::clone(&closed));
        let thread = thread::spawn(move || {
            let tls = match clients {
                SlowClients::Http1 => None,
                SlowClients::Http2 => h2_client_config(),
            };
            let mut attackers: Vec<Attacker> = Vec::with_capacity(connections as usize);
            for index in 0..connections {
                if thread_stop.load(Ordering::SeqCst) {
                    return;
                }
                let role = Role::of(clients, index);
                let stream = Attacker::connect(addr, role, tls.as_ref());
                if stream.is_some() {
                    thread_open.fetch_add(1, Ordering::SeqCst);
                }
                attackers.push(Attacker {
                    stream,
                    role,
                    sent: 0,
                });
            }
            let mut scratch = [0u8; 4096];
            while !thread_stop.load(Ordering::SeqCst) {
                let tick = Instant::now();
                for attacker in attackers.iter_mut() {
                    if attacker.alive(&mut scratch) {
                        attacker.sent += 1;
                        continue;
                    }
                    if attacker.stream.take().is_some() {
                        thread_open.fetch_sub(1, Ordering::SeqCst);
                        thread_closed.fetch_add(1, Ordering::SeqCst);
                    }
                    attacker.sent = 0;
                    attacker.stream = Attacker::connect(addr, attacker.role, tls.as_ref());
                    if attacker.stream.is_some() {
                        thread_open.fetch_add(1, Ordering::SeqCst);
                    }
                }
                if let Some(rest) = interval.checked_sub(tick.elapsed()) {
                    thread::sleep(rest);
                }
            }
        });
        Attack {
            stop,
            open,
            closed,
            thread: Some(thread),
        }
    }

    pub fn open(&self) -> u64 {
        self.open.load(Ordering::SeqCst)
    }

    pub fn closed(&self) -> u64 {
        self.closed.load(Ordering::SeqCst)
    }

    /// Stops the attack and closes its connections.
    pub fn stop(mut self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

impl Drop for Attack {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
    }
}

/// Open descriptors of the processes in `root`'s tree.
pub fn open_fds(root: u32) -> u64 {
    procfs::tree(root)
        .into_iter()
        .map(|pid| {
            std::fs::read_dir(format!("/proc/{pid}/fd"))
                .map(|entries| entries.count() as u64)
                .unwrap_or(0)
        })
        .sum()
}

/// Sums the values of `metric` (any labels) in a Prometheus text exposition.
pub fn metric_sum(text: &str, metric: &str) -> Option<u64> {
    let mut found = false;
    let mut total = 0.0;
    for line in text.lines() {
        if line.starts_with('#') {
            continue;
        }
        let name_end = line.find(['{', ' ']).unwrap_or(line.len());
        if &line[..name_end] != metric {
            continue;
        }
        let value: f64 = line.rsplit(' ').next()?.parse().ok()?;
        total += value;
        found = true;
    }
    found.then_some(total as u64)
}

/// `GET path` on a new connection; the whole response's status and body (Content-Length or
/// close-delimited).
fn fetch(addr: SocketAddr, path: &str) -> io::Result<(u16, Vec<u8>)> {
    let mut stream = TcpStream::connect_timeout(&addr, Duration::from_secs(5))?;
    stream.set_read_timeout(Some(Duration::from_secs(10)))?;
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: lab\r\nConnection: close\r\n\r\n"
    )?;
    let mut received = Vec::new();
    stream.read_to_end(&mut received)?;
    let end = received
        .windows(4)
        .position(|window| window == b"\r\n\r\n")
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidData, "no head"))?;
    let status = parse_status(&received[..end]).unwrap_or(0);
    Ok((status, received[end + 4..].to_vec()))
}

fn parse_status(head: &[u8]) -> Option<u16> {
    String::from_utf8_lossy(head)
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()
}

/// One keep-alive HTTP/1.1 connection of the soak's traffic, reopened when closed.
struct Connection {
    addr: SocketAddr,
    stream: Option<TcpStream>,
}

impl Connection {
    fn new(addr: SocketAddr) -> Connection {
        Connection { addr, stream: None }
    }

    /// Sends a request and reads its whole response (Content-Length or chunked); returns the
    /// status.
    fn exchange(&mut self, method: &str, path: &str, body: &[u8]) -> io::Result<u16> {
        if self.stream.is_none() {
            let stream = TcpStream::connect_timeout(&self.addr, Duration::from_secs(5))?;
            stream.set_read_timeout(Some(Duration::from_secs(30)))?;
            stream.set_nodelay(true)?;
            self.stream = Some(stream);
        }
        let result = self.exchange_on_open(method, path, body);
        if !matches!(result, Ok((_, true))) {
            self.stream = None;
        }
        result.map(|(status, _)| status)
    }

    fn exchange_on_open(
        &mut self,
        method: &str,
        path: &str,
        body: &[u8],
    ) -> io::Result<(u16, bool)> {
        let invalid = |what: &str| io::Error::new(io::ErrorKind::InvalidData, what.to_string());
        let stream = self
            .stream
            .as_mut()
            .ok_or_else(|| invalid("not connected"))?;
        let mut request = format!("{method} {path} HTTP/1.1\r\nHost: lab\r\n").into_bytes();
        if !body.is_empty() || method == "POST" {
            request.extend_from_slice(format!("Content-Length: {}\r\n", body.len()).as_bytes());
        }
        request.extend_from_slice(b"\r\n");
        stream.write_all(&request)?;
        stream.write_all(body)?;
        let mut buffer = Vec::with_capacity(8192);
        let mut chunk = [0u8; 64 * 1024];
        let end = loop {
            if let Some(end) = buffer.windows(4).position(|window| window == b"\r\n\r\n") {
                break end;
            }
            let read = stream.read(&mut chunk)?;
            if read == 0 {
                return Err(invalid("closed before a response head"));
            }
            buffer.extend_from_slice(&chunk[..read]);
        };
        let head = String::from_utf8_lossy(&buffer[..end]).to_ascii_lowercase();
        let status = parse_status(head.as_bytes()).ok_or_else(|| invalid("no status"))?;
        let header = |name: &str| {
            head.lines()
                .filter_map(|line| line.split_once(':'))
                .find(|(key, _)| key.trim() == name)
                .map(|(_, value)| value.trim().to_string())
        };
        let keep_alive = header("connection").as_deref() != Some("close");
        let mut rest = buffer[end + 4..].to_vec();
        if let Some(length) = header("content-length") {
            let length: usize = length.parse().map_err(|_| invalid("bad content-length"))?;
            while rest.len() < length {
                let read = stream.read(&mut chunk)?;
                if read == 0 {
                    return Err(invalid("closed mid-body"));
                }
                rest.extend_from_slice(&chunk[..read]);
            }
        } else if header("transfer-encoding").is_some_and(|value| value.contains("chunked")) {
            while !rest.ends_with(b"0\r\n\r\n") {
                let read = stream.read(&mut chunk)?;
                if read == 0 {
                    return Err(invalid("closed mid-chunked-body"));
                }
                rest.extend_from_slice(&chunk[..read]);
            }
        }
        Ok((status, keep_alive))
    }
}

/// One WebSocket exchange: upgrade on `/ws`, a few masked text messages echoed, a close.
fn websocket_echo(addr: SocketAddr) -> io::Result<bool> {
    let mut stream = TcpStream::connect_timeout(&addr, Duration::from_secs(5))?;
    stream.set_read_timeout(Some(Duration::from_secs(10)))?;
    stream.write_all(
        b"GET /ws HTTP/1.1\r\nHost: lab\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
          Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n",
    )?;
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") {
        if stream.read(&mut byte)? == 0 {
            return Ok(false);
        }
        head.push(byte[0]);
    }
    if parse_status(&head) != Some(101) {
        return Ok(false);
    }
    for index in 0..5u8 {
        let payload = format!("soak message {index}");
        let mask = [0x12, 0x34, 0x56, index];
        // FIN + text, masked, short length (payloads are under 126 bytes).
        let mut frame = vec![0x81, 0x80 | payload.len() as u8];
        frame.extend_from_slice(&mask);
        frame.extend(
            payload
                .bytes()
                .enumerate()
                .map(|(position, byte)| byte ^ mask[position % 4]),
        );
        stream.write_all(&frame)?;
        let mut reply_head = [0u8; 2];
        stream.read_exact(&mut reply_head)?;
        let length = usize::from(reply_head[1] & 0x7f);
        let mut reply = vec![0u8; length];
        stream.read_exact(&mut reply)?;
        if reply != payload.as_bytes() {
            return Ok(false);
        }
    }
    // A masked close frame with no payload.
    stream.write_all(&[0x88, 0x80, 0, 0, 0, 0])?;
    Ok(true)
}

/// Counts of what the soak's traffic got.
#[derive(Default)]
struct Tally {
    answers: Mutex<Vec<(String, u16, u64)>>,
    unexpected: Mutex<Vec<String>>,
}

impl Tally {
    fn count(&self, class: &str, status: u16) {
        let mut answers = self
            .answers
            .lock()
            .unwrap_or_else(|poison| poison.into_inner());
        match answers
            .iter_mut()
            .find(|(name, code, _)| name == class && *code == status)
        {
            Some(entry) => entry.2 += 1,
            None => answers.push((class.to_string(), status, 1)),
        }
    }

    fn unexpected(&self, what: String) {
        let mut unexpected = self
            .unexpected
            .lock()
            .unwrap_or_else(|poison| poison.into_inner());
        // Keep the evidence short: the first few of each, then a count is enough.
        if unexpected.len() < 50 {
            unexpected.push(what);
        }
    }
}

/// Runs the soak's mixed traffic against `addr` for `duration`, sampling the tree rooted at
/// `gateway_pid`, then reads the pool counters from `admin`.
pub fn soak(
    addr: SocketAddr,
    admin: SocketAddr,
    gateway_pid: u32,
    duration: Duration,
) -> SoakResult {
    let stop = Arc::new(AtomicBool::new(false));
    let tally = Arc::new(Tally::default());
    let upload: Arc<Vec<u8>> = Arc::new((0..512 * 1024).map(|index| (index % 251) as u8).collect());
    let mut threads = Vec::new();
    // (class, method, path, expected statuses)
    let classes: [(&str, &str, &str, &[u16]); 4] = [
        ("small", "GET", "/async", &[200]),
        ("1 MB", "GET", "/async-big", &[200]),
        ("upload", "POST", "/upload", &[200]),
        ("limited", "GET", "/limited", &[200, 429]),
    ];
    for (class, method, path, expected) in classes {
        let (stop, tally, upload) = (Arc::clone(&stop), Arc::clone(&tally), Arc::clone(&upload));
        threads.push(thread::spawn(move || {
            let mut connection = Connection::new(addr);
            let body: &[u8] = if method == "POST" { &upload } else { &[] };
            while !stop.load(Ordering::SeqCst) {
                match connection.exchange(method, path, body) {
                    Ok(status) => {
                        tally.count(class, status);
                        if !expected.contains(&status) {
                            tally.unexpected(format!("{class}: status {status}"));
                        }
                    }
                    Err(error) => tally.unexpected(format!("{class}: {error}")),
                }
                // A steady load, not a flood: the soak is about staying the same.
                thread::sleep(Duration::from_millis(5));
            }
        }));
    }
    {
        let (stop, tally) = (Arc::clone(&stop), Arc::clone(&tally));
        threads.push(thread::spawn(move || {
            while !stop.load(Ordering::SeqCst) {
                match websocket_echo(addr) {
                    Ok(true) => tally.count("websocket", 101),
                    Ok(false) => tally.unexpected("websocket: no echo".to_string()),
                    Err(error) => tally.unexpected(format!("websocket: {error}")),
                }
                thread::sleep(Duration::from_millis(20));
            }
        }));
    }
    let started = Instant::now();
    let period = (duration / 120).max(Duration::from_millis(50));
    let mut samples = Vec::new();
    while started.elapsed() < duration {
        let usage = procfs::usage(&[gateway_pid]);
        samples.push(SoakSample {
            seconds: started.elapsed().as_secs_f64(),
            rss_kib: usage.rss_kib,
            open_fds: open_fds(gateway_pid),
        });
        thread::sleep(period);
    }
    stop.store(true, Ordering::SeqCst);
    for thread in threads {
        let _ = thread.join();
    }
    // The pools settle as the last responses end; give them a moment, polling.
    let mut pool_in_use = None;
    let mut pool_waiting = None;
    let deadline = Instant::now() + Duration::from_secs(5);
    while Instant::now() < deadline {
        if let Ok((200, body)) = fetch(admin, "/metrics") {
            let text = String::from_utf8_lossy(&body);
            pool_in_use = metric_sum(&text, "weir_pool_in_use_connections");
            pool_waiting = metric_sum(&text, "weir_pool_waiting_requests");
            if pool_in_use == Some(0) && pool_waiting == Some(0) {
                break;
            }
        }
        thread::sleep(Duration::from_millis(100));
    }
    let answers = tally
        .answers
        .lock()
        .unwrap_or_else(|poison| poison.into_inner())
        .clone();
    let unexpected = tally
        .unexpected
        .lock()
        .unwrap_or_else(|poison| poison.into_inner())
        .clone();
    SoakResult {
        seconds: duration.as_secs_f64(),
        samples,
        answers,
        unexpected,
        pool_in_use,
        pool_waiting,
    }
}

fn percent(value: Option<f64>) -> String {
    value.map_or_else(
        || "-".to_string(),
        |value| format!("{:+.1}%", value * 100.0),
    )
}

/// The slowloris and soak sections of summary.md, from their records (empty when none).
pub fn markdown(records: &[Record]) -> String {
    let mut text = String::new();
    let slowloris: Vec<&Record> = records.iter().filter(|r| r.slowloris.is_some()).collect();
    if !slowloris.is_empty() {
        text.push_str("## slowloris, each round\n\n");
        let _ = writeln!(
            text,
            "The normal client must keep at least {:.0}% of its baseline req/s, with no error (else VOID).\n",
            SLOWLORIS_KEEP * 100.0
        );
        text.push_str("| attack | gateway | round | baseline req/s | under attack req/s | kept | attackers open | attackers closed by the gateway | verdict |\n|---|---|---:|---:|---:|---:|---:|---:|---|\n");
        for record in slowloris {
            let Some(result) = record.slowloris else {
                continue;
            };
            let attacked = record
                .output
                .as_ref()
                .map_or(0.0, |output| output.requests_per_second);
            let kept = result.kept(attacked);
            let verdict = if !record.verdict.is_valid() {
                record.verdict.to_string()
            } else if kept.is_some_and(|kept| kept >= SLOWLORIS_KEEP) {
                "PASS".to_string()
            } else {
                "FAIL".to_string()
            };
            let _ = writeln!(
                text,
                "| {} | {} | {} | {:.0} | {:.0} | {} | {} | {} | {} |",
                record.group,
                record.gateway,
                record.round + 1,
                result.baseline_rps,
                attacked,
                kept.map_or_else(|| "-".to_string(), |kept| format!("{:.0}%", kept * 100.0)),
                result.attackers_open,
                result.attackers_closed,
                verdict.replace('|', "/")
            );
        }
        text.push('\n');
    }
    for record in records {
        let Some(result) = &record.soak else { continue };
        let _ = writeln!(text, "## soak: {}\n", record.gateway);
        let verdict = if !record.verdict.is_valid() {
            record.verdict.to_string()
        } else if result.passes() {
            "PASS".to_string()
        } else {
            "FAIL".to_string()
        };
        let _ = writeln!(
            text,
            "{:.0} s of mixed traffic in {SOAK_WINDOWS} windows. RSS drift (last window vs the second): {}; open descriptors: {}; \
             pools at the end: {} in use, {} waiting. Verdict: {verdict}.\n",
            result.seconds,
            percent(result.rss_drift()),
            percent(result.fd_drift()),
            result.pool_in_use.map_or_else(|| "?".to_string(), |n| n.to_string()),
            result.pool_waiting.map_or_else(|| "?".to_string(), |n| n.to_string()),
        );
        text.push_str("| window | mean RSS MiB | mean open fds |\n|---:|---:|---:|\n");
        for window in 0..SOAK_WINDOWS {
            let rss = result.window_mean(window, |sample| sample.rss_kib);
            let fds = result.window_mean(window, |sample| sample.open_fds);
            let _ = writeln!(
                text,
                "| {} | {} | {} |",
                window + 1,
                rss.map_or_else(|| "-".to_string(), |kib| format!("{:.1}", kib / 1024.0)),
                fds.map_or_else(|| "-".to_string(), |fds| format!("{fds:.0}"))
            );
        }
        text.push_str("\n| traffic | status | answers |\n|---|---:|---:|\n");
        for (class, status, count) in &result.answers {
            let _ = writeln!(text, "| {class} | {status} | {count} |");
        }
        if !result.unexpected.is_empty() {
            text.push_str("\nUnexpected (first 50):\n\n");
            for what in &result.unexpected {
                let _ = writeln!(text, "- {what}");
            }
        }
        text.push('\n');
    }
    text
}

#[cfg(test)]
mod tests;
