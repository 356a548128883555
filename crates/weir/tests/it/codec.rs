//! weir's own HTTP/1 codec: pipelining, HTTP/1.0 keep-alive and `100 Continue` end to end; and
//! its request parsing against hyper's, which served weir's clients before it: a
//! corpus of valid requests, the request-smuggling set, and mutations of both, each fed to
//! `weir::h1` (head parser and body decoder) and to a real hyper server. Each request must get
//! the same verdict and, when both accept it, the same method, target, headers and body; or
//! weir is stricter and the case is one of those listed in [`STRICTER`].

use std::sync::{Arc, Mutex};

use bytes::{Bytes, BytesMut};
use http_body_util::BodyExt;
use hyper::service::service_fn;
use hyper_util::rt::TokioIo;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use weir::h1::chunked::{Decoder, Step};
use weir::h1::head::{self, Framing, Parsed};

/// What a parser made of a request.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Verdict {
    Accepted {
        method: String,
        target: String,
        headers: Vec<(String, Vec<u8>)>,
        body: Vec<u8>,
    },
    Refused,
}

const MAX_HEAD: usize = 16 * 1024;

/// weir's verdict on the first request in `bytes` (which holds it whole, or it is refused).
fn weir_verdict(bytes: &[u8]) -> Verdict {
    let Ok(Parsed::Complete(head, length)) = head::parse(bytes, MAX_HEAD) else {
        return Verdict::Refused;
    };
    let rest = &bytes[length..];
    let body = match head.framing {
        Framing::Empty => Vec::new(),
        Framing::Length(length) => match rest.get(..length as usize) {
            Some(body) => body.to_vec(),
            None => return Verdict::Refused,
        },
        Framing::Chunked => {
            let mut decoder = Decoder::new();
            let mut buffer = BytesMut::from(rest);
            let mut body = Vec::new();
            loop {
                match decoder.decode(&mut buffer) {
                    Ok(Step::Data(data)) => body.extend_from_slice(&data),
                    Ok(Step::Done) => break body,
                    Ok(Step::More) | Err(_) => return Verdict::Refused,
                }
            }
        }
    };
    Verdict::Accepted {
        method: head.parts.method.to_string(),
        target: head.parts.uri.to_string(),
        // As a map, as hyper's are: names in lower case, a name's lines together.
        headers: head
            .parts
            .headers
            .to_map()
            .iter()
            .map(|(name, value)| (name.to_string(), value.as_bytes().to_vec()))
            .collect(),
        body,
    }
}

/// hyper's verdict: a real hyper HTTP/1 server reads `bytes` from an in-memory stream; the
/// request is accepted if the service is called and its whole body read.
async fn hyper_verdict(bytes: &[u8]) -> Verdict {
    let (mut client, server) = tokio::io::duplex(256 * 1024);
    let seen: Arc<Mutex<Option<Verdict>>> = Arc::new(Mutex::new(None));
    let recorder = Arc::clone(&seen);
    let service = service_fn(move |request: http::Request<hyper::body::Incoming>| {
        let recorder = Arc::clone(&recorder);
        async move {
            let (parts, body) = request.into_parts();
            if let Ok(body) = body.collect().await {
                let verdict = Verdict::Accepted {
                    method: parts.method.to_string(),
                    target: parts.uri.to_string(),
                    headers: parts
                        .headers
                        .iter()
                        .map(|(name, value)| (name.to_string(), value.as_bytes().to_vec()))
                        .collect(),
                    body: body.to_bytes().to_vec(),
                };
                recorder.lock().unwrap().get_or_insert(verdict);
            }
            Ok::<_, std::convert::Infallible>(http::Response::new(http_body_util::Full::new(
                Bytes::new(),
            )))
        }
    });
    let serving = tokio::spawn(async move {
        let _ = hyper::server::conn::http1::Builder::new()
            .half_close(true)
            .max_buf_size(MAX_HEAD.max(8192))
            .serve_connection(TokioIo::new(server), service)
            .await;
    });
    client.write_all(bytes).await.unwrap();
    client.shutdown().await.unwrap();
    let mut output = Vec::new();
    let _ = tokio::time::timeout(
        std::time::Duration::from_secs(5),
        client.read_to_end(&mut output),
    )
    .await
    .expect("hyper answered or closed");
    serving.abort();
    let verdict = seen.lock().unwrap().clone();
    verdict.unwrap_or(Verdict::Refused)
}

/// Why weir refuses a request that hyper accepts, when that is a deliberate choice; `None`
/// for any other difference, which fails the test.
fn stricter_reason(request: &[u8]) -> Option<&'static str> {
    let text = String::from_utf8_lossy(request).to_ascii_lowercase();
    let head_end = text.find("\r\n\r\n").unwrap_or(text.len());
    let lines: Vec<&str> = text[..head_end]
        .split('\n')
        .map(|line| line.trim_end_matches('\r'))
        .collect();
    let field = |name: &str| {
        lines
            .iter()
            .filter(|line| line.starts_with(&format!("{name}:")))
            .count()
    };
    let mut request_line = lines.first().copied().unwrap_or_default().split(' ');
    let (method, target) = (request_line.next(), request_line.next().unwrap_or_default());
    let target_form = target.starts_with('/')
        || target.contains("://")
        || (target == "*" && method == Some("options"));
    if !target_form && method != Some("connect") {
        return Some(
            "a request target of none of RFC 9112's forms (origin, absolute, `*` for OPTIONS, \
             authority for CONNECT)",
        );
    }
    if field("content-length") > 1 {
        return Some("a repeated Content-Length, even an equal one (nginx refuses it too)");
    }
    if field("transfer-encoding") > 0 {
        let only_chunked = field("transfer-encoding") == 1
            && lines.iter().any(|line| {
                line.strip_prefix("transfer-encoding:")
                    .is_some_and(|value| value.trim_matches([' ', '\t']) == "chunked")
            });
        let http_10 = lines.first().is_some_and(|line| line.ends_with("http/1.0"));
        if field("content-length") > 0 || http_10 || !only_chunked {
            return Some(
                "Transfer-Encoding with Content-Length, on HTTP/1.0, repeated, or naming a \
                 coding other than chunked (nginx answers 400 or 501)",
            );
        }
    }
    if let Ok(Parsed::Complete(head, length)) = head::parse(request, MAX_HEAD) {
        if head.framing == Framing::Chunked {
            let mut decoder = Decoder::new();
            let mut buffer = BytesMut::from(&request[length..]);
            let error = loop {
                match decoder.decode(&mut buffer) {
                    Ok(Step::Data(_)) => continue,
                    Ok(Step::Done | Step::More) => break None,
                    Err(error) => break Some(error.0),
                }
            };
            if let Some(
                "bare LF" | "chunk extension" | "control byte" | "CR without LF"
                | "trailer field name",
            ) = error
            {
                return Some(
                    "a bare LF, a lone CR, a control byte or a stray character in a chunk-size \
                     line or the trailers (RFC 9112 §7.1; hyper reads past them)",
                );
            }
        }
    }
    None
}

/// Valid requests of every shape weir proxies.
fn valid_corpus() -> Vec<Vec<u8>> {
    let mut corpus: Vec<Vec<u8>> = vec![
        b"GET / HTTP/1.1\r\nHost: a\r\n\r\n".to_vec(),
        b"GET /p/a%20th?q=1&r=%2F HTTP/1.1\r\nHost: a:8080\r\nAccept: */*\r\nUser-Agent: x\r\n\r\n"
            .to_vec(),
        b"GET http://example.com/x?y HTTP/1.1\r\nHost: other\r\n\r\n".to_vec(),
        b"HEAD / HTTP/1.0\r\n\r\n".to_vec(),
        b"OPTIONS * HTTP/1.1\r\nHost: a\r\n\r\n".to_vec(),
        b"POST /form HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nhello".to_vec(),
        b"PUT /u HTTP/1.1\r\nHost: a\r\nContent-Length: 0\r\n\r\n".to_vec(),
        b"POST /c HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n".to_vec(),
        b"POST /c HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5;ext=1\r\nhello\r\n0\r\nTrailer: t\r\n\r\n".to_vec(),
        b"GET / HTTP/1.1\r\nHost: a\r\nCookie: a=b; c=d\r\nCookie: e=f\r\nX-Empty:\r\n\r\n".to_vec(),
        b"GET / HTTP/1.1\r\nHost: a\r\nX-Tab:\tv\t\r\nX-Obs: caf\xc3\xa9\r\n\r\n".to_vec(),
        b"DELETE /r HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n".to_vec(),
        b"GET /ws HTTP/1.1\r\nHost: a\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: x\r\n\r\n".to_vec(),
        b"PATCH /e HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\nok".to_vec(),
    ];
    let mut long = b"GET /".to_vec();
    long.extend(std::iter::repeat_n(b'a', 4000));
    long.extend_from_slice(b" HTTP/1.1\r\nHost: a\r\n\r\n");
    corpus.push(long);
    corpus
}

/// The request-smuggling set: requests whose framing a proxy and a server behind could read
/// differently. weir must refuse each, or read it as hyper does.
fn smuggling_corpus() -> Vec<Vec<u8>> {
    let cases: &[&[u8]] = &[
        b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\nGET /x HTTP/1.1\r\n\r\n",
        b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\nContent-Length: 30\r\n\r\n0\r\n\r\nGET /x HTTP/1.1\r\n\r\n",
        b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello!",
        b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nContent-Length: 5\r\n\r\nhello",
        b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: +5\r\n\r\nhello",
        b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 0x5\r\n\r\nhello",
        b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 5 5\r\n\r\nhello",
        b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length : 5\r\n\r\nhello",
        b"POST / HTTP/1.1\r\nHost: a\r\n Content-Length: 5\r\n\r\nhello",
        b"POST / HTTP/1.1\r\nHost: a\r\nX: y\r\n Content-Length: 5\r\n\r\nhello",
        b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: xchunked\r\n\r\n0\r\n\r\n",
        b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked, identity\r\n\r\n0\r\n\r\n",
        b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n",
        b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
        b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding:\tchunked\r\n\r\n0\r\n\r\n",
        b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding : chunked\r\n\r\n0\r\n\r\n",
        b"POST / HTTP/1.0\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
        b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5\nhello\r\n0\r\n\r\n",
        b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\n0\r\n\r\n",
        b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5;a\nb\r\nhello\r\n0\r\n\r\n",
        b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhelloXX\r\n0\r\n\r\n",
        b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\nfffffffffffffffff\r\nhello\r\n0\r\n\r\n",
        b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n-5\r\nhello\r\n0\r\n\r\n",
        b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\n",
        b"GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n",
        b"GET / HTTP/1.1\r\nHost: a\r\nX\x00: y\r\n\r\n",
        b"GET / HTTP/1.1\r\nHost: a\r\nX: a\rb\r\n\r\n",
        b"GET /a b HTTP/1.1\r\nHost: a\r\n\r\n",
        b"GET / HTTP/1.1 \r\nHost: a\r\n\r\n",
        b"GET / HTTP/2.0\r\nHost: a\r\n\r\n",
        b"GET\t/ HTTP/1.1\r\nHost: a\r\n\r\n",
    ];
    cases.iter().map(|case| case.to_vec()).collect()
}

/// A small deterministic generator for mutations.
struct Mutator(u64);

impl Mutator {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, bound: usize) -> usize {
        (self.next() % bound as u64) as usize
    }

    /// `input` with one to three bytes replaced, inserted or removed; the bytes are those
    /// that parsers disagree on.
    fn mutate(&mut self, input: &[u8]) -> Vec<u8> {
        const BYTES: &[u8] = b" \t\r\n:;,0Aa\x00\x7f\x80\xff\"=-+/";
        let mut output = input.to_vec();
        for _ in 0..1 + self.below(3) {
            if output.is_empty() {
                break;
            }
            let at = self.below(output.len());
            let byte = BYTES[self.below(BYTES.len())];
            match self.below(3) {
                0 => output[at] = byte,
                1 => output.insert(at, byte),
                _ => {
                    output.remove(at);
                }
            }
        }
        output
    }
}

/// Checks one request: the same verdict and reading, or weir stricter for a listed reason
/// (counted in `excused`).
async fn compare(
    request: &[u8],
    differences: &mut Vec<String>,
    excused: &mut std::collections::BTreeMap<&'static str, usize>,
) {
    let ours = weir_verdict(request);
    let theirs = hyper_verdict(request).await;
    if ours == theirs {
        return;
    }
    let shown = String::from_utf8_lossy(request).into_owned();
    match (&ours, &theirs) {
        (Verdict::Refused, Verdict::Accepted { .. }) if stricter_reason(request).is_some() => {
            if let Some(reason) = stricter_reason(request) {
                *excused.entry(reason).or_default() += 1;
            }
        }
        _ => differences.push(format!("{shown:?}\n  weir:  {ours:?}\n  hyper: {theirs:?}")),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn valid_requests_read_as_hyper_reads_them() {
    let mut differences = Vec::new();
    let mut excused = std::collections::BTreeMap::new();
    for request in valid_corpus() {
        assert!(
            matches!(weir_verdict(&request), Verdict::Accepted { .. }),
            "weir refused a valid request: {:?}",
            String::from_utf8_lossy(&request)
        );
        compare(&request, &mut differences, &mut excused).await;
    }
    assert!(differences.is_empty(), "{}", differences.join("\n"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn smuggling_attempts_are_refused_or_read_as_hyper_reads_them() {
    let mut differences = Vec::new();
    let mut excused = std::collections::BTreeMap::new();
    for request in smuggling_corpus() {
        compare(&request, &mut differences, &mut excused).await;
    }
    assert!(differences.is_empty(), "{}", differences.join("\n"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mutated_requests_get_the_same_verdict_or_a_stricter_one() {
    let mut mutator = Mutator(0x5eed_cafe_f00d_d00d);
    let mut differences = Vec::new();
    let mut excused = std::collections::BTreeMap::new();
    let seeds: Vec<Vec<u8>> = valid_corpus()
        .into_iter()
        .chain(smuggling_corpus())
        .collect();
    let mut accepted = 0;
    for round in 0..5000 {
        let seed = &seeds[round % seeds.len()];
        let request = mutator.mutate(seed);
        compare(&request, &mut differences, &mut excused).await;
        if matches!(weir_verdict(&request), Verdict::Accepted { .. }) {
            accepted += 1;
        }
    }
    assert!(
        accepted > 100,
        "the mutations hardly ever produced a valid request ({accepted})"
    );
    eprintln!("weir stricter than hyper, by reason: {excused:#?}");
    assert!(differences.is_empty(), "{}", differences.join("\n\n"));
}

/// Reads from `stream` until `pattern` has been seen `count` times or 5 s pass.
async fn read_until(stream: &mut tokio::net::TcpStream, pattern: &str, count: usize) -> String {
    let mut received = Vec::new();
    let mut chunk = [0u8; 4096];
    let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(5);
    while String::from_utf8_lossy(&received).matches(pattern).count() < count {
        match tokio::time::timeout_at(deadline, stream.read(&mut chunk)).await {
            Ok(Ok(read)) if read > 0 => received.extend_from_slice(&chunk[..read]),
            _ => break,
        }
    }
    String::from_utf8_lossy(&received).into_owned()
}

/// Pipelined requests (several in one write) are answered in order on the same connection;
/// an HTTP/1.0 client that asks for keep-alive keeps its connection and is told so.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pipelined_requests_are_answered_in_order() {
    use crate::support::*;
    let upstream = UpstreamServer::start(Transport::Tcp).await;
    let gateway = TestGateway::start(&config(&upstream.address, "", "")).await;
    let mut stream = tokio::net::TcpStream::connect(gateway.addr).await.unwrap();
    stream
        .write_all(
            b"GET /status/201 HTTP/1.1\r\nHost: a\r\n\r\n\
              POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nhello\
              GET /status/202 HTTP/1.1\r\nHost: a\r\n\r\n",
        )
        .await
        .unwrap();
    let received = read_until(&mut stream, "HTTP/1.1 ", 3).await;
    let statuses: Vec<&str> = received
        .match_indices("HTTP/1.1 ")
        .map(|(at, _)| &received[at + 9..at + 12])
        .collect();
    assert_eq!(statuses, ["201", "200", "202"], "{received}");
    assert!(received.contains("hello"), "{received}");

    let mut stream = tokio::net::TcpStream::connect(gateway.addr).await.unwrap();
    for _ in 0..2 {
        stream
            .write_all(b"GET /status/204 HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
            .await
            .unwrap();
        let received = read_until(&mut stream, "\r\n\r\n", 1).await;
        assert!(received.starts_with("HTTP/1.1 204"), "{received}");
        assert!(
            received
                .to_ascii_lowercase()
                .contains("connection: keep-alive"),
            "{received}"
        );
    }
}

/// `Expect: 100-continue`: the `100 Continue` comes when the body is wanted, then the answer; a
/// request refused before its body is wanted (413 by its length) gets no `100` and the
/// connection closes after the answer.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn expect_100_continue_is_answered_when_the_body_is_wanted() {
    use crate::support::*;
    let upstream = UpstreamServer::start(Transport::Tcp).await;
    let gateway =
        TestGateway::start(&config(&upstream.address, "max_body_size = \"1KiB\"", "")).await;
    let mut stream = tokio::net::TcpStream::connect(gateway.addr).await.unwrap();
    stream
        .write_all(
            b"POST /echo HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\n",
        )
        .await
        .unwrap();
    let interim = read_until(&mut stream, "\r\n\r\n", 1).await;
    assert_eq!(interim, "HTTP/1.1 100 Continue\r\n\r\n");
    stream.write_all(b"hello").await.unwrap();
    let answer = read_until(&mut stream, "hello", 1).await;
    assert!(answer.starts_with("HTTP/1.1 200 OK"), "{answer}");

    let mut stream = tokio::net::TcpStream::connect(gateway.addr).await.unwrap();
    stream
        .write_all(
            b"POST /echo HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: 5000\r\n\r\n",
        )
        .await
        .unwrap();
    let mut answer = String::new();
    let _ = tokio::time::timeout(
        std::time::Duration::from_secs(5),
        stream.read_to_string(&mut answer),
    )
    .await
    .expect("the connection closes after the answer");
    assert!(answer.starts_with("HTTP/1.1 413"), "{answer}");
    assert!(!answer.contains("100 Continue"), "{answer}");
}

/// A request answered before its body was read (a 429 to an upload) keeps its connection when
/// the rest of the body is small: it is read and thrown away, as nginx does, and the next request
/// on the connection is answered. A large rest ends the connection after the answer.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unread_small_body_is_thrown_away_and_the_connection_kept() {
    use crate::support::*;
    let upstream = UpstreamServer::start(Transport::Tcp).await;
    let gateway = TestGateway::start(&format!(
        r#"
[server]
listen = ["127.0.0.1:0"]
[upstreams.app]
servers = ["{}"]
[limits.one]
key = "client_ip"
rate = "1r/m"
nodelay = true
[[routes]]
path = "/"
upstream = "app"
limits = ["one"]
"#,
        upstream.address
    ))
    .await;
    let mut stream = tokio::net::TcpStream::connect(gateway.addr).await.unwrap();
    let upload = "POST /consume HTTP/1.1\r\nHost: a\r\nContent-Length: 2000\r\n\r\n";
    let body = "x".repeat(2000);
    for expected in ["200", "429", "429"] {
        stream.write_all(upload.as_bytes()).await.unwrap();
        stream.write_all(body.as_bytes()).await.unwrap();
        let answer = read_until(&mut stream, "\r\n\r\n", 1).await;
        assert!(
            answer.starts_with(&format!("HTTP/1.1 {expected}")),
            "wanted {expected}: {answer}"
        );
        let length: usize = answer
            .to_ascii_lowercase()
            .split("content-length: ")
            .nth(1)
            .and_then(|rest| rest.split("\r\n").next())
            .and_then(|value| value.parse().ok())
            .unwrap_or(0);
        let head_end = answer.find("\r\n\r\n").unwrap() + 4;
        let mut left = length.saturating_sub(answer.len() - head_end);
        let mut chunk = [0u8; 4096];
        while left > 0 {
            left -= stream.read(&mut chunk).await.unwrap().min(left);
        }
    }
    // 100 KiB left unread: the 429 comes, then the connection closes.
    stream
        .write_all(b"POST /consume HTTP/1.1\r\nHost: a\r\nContent-Length: 102400\r\n\r\n")
        .await
        .unwrap();
    let mut answer = String::new();
    tokio::time::timeout(
        std::time::Duration::from_secs(5),
        stream.read_to_string(&mut answer),
    )
    .await
    .expect("the connection closes after the answer")
    .unwrap();
    assert!(answer.starts_with("HTTP/1.1 429"), "{answer}");
}
