//! A real HTTP/1.1 upstream (hyper) with a fixed set of endpoints that tests use to provoke every
//! behaviour of the proxy, and counters of what it saw. Listens on TCP port 0 or on a Unix socket
//! in its own temp dir; stops when dropped.
//!
//! Endpoints: `/` ("hello"), `/echo` (streams the request body back), `/consume` (reads the
//! whole body, then answers with its length), `/headers` (the request head
//! as text), `/status/N`, `/slow?ms=N`, `/hang` (never answers), `/close` (answers with
//! `Connection: close`), `/big?bytes=N` (N bytes in 16 KiB chunks), `/chunked?ms=N` (three chunks
//! with pauses of N milliseconds, 20 by default), `/text?bytes=N` (compressible `text/plain`), `/no-content` (204), `/not-modified` (304), `/length` (`Content-Length: 5`, for HEAD),
//! `/accel/PATH` (200 with `X-Accel-Redirect: /PATH`, as Django's sendfile backends answer),
//! `/typed?type=T` (an answer of that Content-Type), `/cookie?set=C` (a `Set-Cookie`),
//! `/moved?path=/P` (a 302 to `http://HOST/P`, HOST the request's, as an app builds an absolute
//! URL; `to=URL` for another, `refresh=R` for a `Refresh` too), `/counted` (a count of its
//! requests, with the status and caching headers the query asks for).
//!
//! Any endpoint, asked with [`ECHO`], also answers each request header it got as a response
//! header `x-request-NAME` (so a comparison can read what a proxy set toward the upstream); and
//! asked with [`RESPOND_WITH`]` NAME, ...`, it also answers those headers with the value
//! `testkit` (so a comparison can see which ones a proxy hides). Any endpoint asked with a query
//! `limit_rate=R` answers `X-Accel-Limit-Rate: R` too.

use std::convert::Infallible;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use http::{Request, Response, StatusCode};
use http_body_util::{combinators::BoxBody, BodyExt, Full, StreamBody};
use hyper::body::{Frame, Incoming};
use hyper::service::service_fn;
use hyper_util::rt::TokioIo;
use tokio::net::{TcpListener, UnixListener};
use tokio::sync::watch;

/// How the gateway reaches an upstream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Transport {
    Tcp,
    Unix,
}

/// What the upstream counted.
#[derive(Debug, Default)]
pub struct Counters {
    pub connections: AtomicUsize,
    pub open_connections: AtomicUsize,
    pub requests: AtomicUsize,
}

/// A running upstream.
pub struct UpstreamServer {
    /// `"127.0.0.1:PORT"` or `"unix:/tmp/.../upstream.sock"`, ready for a config's `servers`.
    pub address: String,
    pub counters: Arc<Counters>,
    stop: watch::Sender<bool>,
    _dir: Option<tempfile::TempDir>,
}

/// How the upstream treats connections.
#[derive(Debug, Clone, Copy)]
pub struct Options {
    /// Keep connections alive between requests (Uvicorn); `false` closes after every response,
    /// as Gunicorn's sync worker does.
    pub keep_alive: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options { keep_alive: true }
    }
}

type TestBody = BoxBody<Bytes, hyper::Error>;

/// A request header that asks the upstream to answer the request's headers back, each as
/// `x-request-NAME` (see the module's doc).
pub const ECHO: &str = "x-testkit-echo";

/// A request header whose comma-separated names the upstream answers as headers of its own, each
/// with the value `testkit` (see the module's doc).
pub const RESPOND_WITH: &str = "x-testkit-respond-with";

impl UpstreamServer {
    pub async fn start(transport: Transport) -> UpstreamServer {
        Self::start_with(transport, Options::default()).await
    }

    pub async fn start_with(transport: Transport, options: Options) -> UpstreamServer {
        match transport {
            Transport::Tcp => {
                let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind port 0");
                Self::run(Listener::Tcp(listener), options, None)
            }
            Transport::Unix => {
                let dir = tempfile::tempdir().expect("temp dir");
                let path: PathBuf = dir.path().join("upstream.sock");
                let listener = UnixListener::bind(&path).expect("bind unix socket");
                Self::run(Listener::Unix(listener, path), options, Some(dir))
            }
        }
    }

    /// Starts a server at the `address` of an earlier one (`"127.0.0.1:PORT"` or
    /// `"unix:/path"`), to bring a stopped server back at the same place. A Unix socket file left
    /// behind is removed first; the earlier server keeps owning its temp dir.
    pub async fn start_at(address: &str, options: Options) -> UpstreamServer {
        match address.strip_prefix("unix:") {
            Some(path) => {
                let path = PathBuf::from(path);
                let _ = std::fs::remove_file(&path);
                let listener = UnixListener::bind(&path).expect("bind the unix socket again");
                Self::run(Listener::Unix(listener, path), options, None)
            }
            None => {
                let listener = TcpListener::bind(address)
                    .await
                    .expect("bind the TCP address again");
                Self::run(Listener::Tcp(listener), options, None)
            }
        }
    }

    fn run(listener: Listener, options: Options, dir: Option<tempfile::TempDir>) -> UpstreamServer {
        let counters = Arc::new(Counters::default());
        let (stop, stop_receiver) = watch::channel(false);
        let address = match &listener {
            Listener::Tcp(listener) => listener.local_addr().expect("local addr").to_string(),
            Listener::Unix(_, path) => format!("unix:{}", path.display()),
        };
        let counters_task = Arc::clone(&counters);
        tokio::spawn(async move {
            let connection_stop = stop_receiver.clone();
            let mut stop_receiver = stop_receiver;
            loop {
                tokio::select! {
                    _accepted = listener.accept(&counters_task, options, &connection_stop) => {}
                    _ = stop_receiver.changed() => return,
                }
            }
        });
        UpstreamServer {
            address,
            counters,
            stop,
            _dir: dir,
        }
    }

    pub fn connections(&self) -> usize {
        self.counters.connections.load(Ordering::SeqCst)
    }

    pub fn open_connections(&self) -> usize {
        self.counters.open_connections.load(Ordering::SeqCst)
    }

    pub fn requests(&self) -> usize {
        self.counters.requests.load(Ordering::SeqCst)
    }

    /// Stops accepting and closes every connection.
    pub fn stop(&self) {
        let _ = self.stop.send(true);
    }
}

impl Drop for UpstreamServer {
    fn drop(&mut self) {
        self.stop();
    }
}

enum Listener {
    Tcp(TcpListener),
    Unix(UnixListener, PathBuf),
}

impl Listener {
    /// Accepts one connection and serves it in its own task; false when the accept failed.
    async fn accept(
        &self,
        counters: &Arc<Counters>,
        options: Options,
        stop: &watch::Receiver<bool>,
    ) -> bool {
        match self {
            Listener::Tcp(listener) => match listener.accept().await {
                Ok((stream, _)) => {
                    serve(
                        TokioIo::new(stream),
                        Arc::clone(counters),
                        options,
                        stop.clone(),
                    );
                    true
                }
                Err(_) => false,
            },
            Listener::Unix(listener, _) => match listener.accept().await {
                Ok((stream, _)) => {
                    serve(
                        TokioIo::new(stream),
                        Arc::clone(counters),
                        options,
                        stop.clone(),
                    );
                    true
                }
                Err(_) => false,
            },
        }
    }
}

fn serve<I>(io: I, counters: Arc<Counters>, options: Options, mut stop: watch::Receiver<bool>)
where
    I: hyper::rt::Read + hyper::rt::Write + Unpin + Send + 'static,
{
    counters.connections.fetch_add(1, Ordering::SeqCst);
    counters.open_connections.fetch_add(1, Ordering::SeqCst);
    tokio::spawn(async move {
        let handler_counters = Arc::clone(&counters);
        let service = service_fn(move |request| {
            handler_counters.requests.fetch_add(1, Ordering::SeqCst);
            handle(request)
        });
        let connection = hyper::server::conn::http1::Builder::new()
            .keep_alive(options.keep_alive)
            .serve_connection(io, service);
        tokio::select! {
            _ = connection => {}
            _ = stop.changed() => {}
        }
        counters.open_connections.fetch_sub(1, Ordering::SeqCst);
    });
}

fn full(text: impl Into<Bytes>) -> TestBody {
    Full::new(text.into())
        .map_err(|never| match never {})
        .boxed()
}

fn query_number(request: &Request<Incoming>, name: &str) -> Option<u64> {
    request.uri().query()?.split('&').find_map(|pair| {
        let (key, value) = pair.split_once('=')?;
        (key == name).then(|| value.parse().ok()).flatten()
    })
}

/// The query value `name`, percent-decoded.
fn query_text(request: &Request<Incoming>, name: &str) -> Option<String> {
    let value = request.uri().query()?.split('&').find_map(|pair| {
        let (key, value) = pair.split_once('=')?;
        (key == name).then_some(value)
    })?;
    let bytes = value.as_bytes();
    let mut decoded = Vec::with_capacity(bytes.len());
    let mut index = 0;
    while index < bytes.len() {
        let escaped = (bytes[index] == b'%')
            .then(|| bytes.get(index + 1..index + 3))
            .flatten()
            .and_then(|hex| u8::from_str_radix(std::str::from_utf8(hex).ok()?, 16).ok());
        match escaped {
            Some(byte) => {
                decoded.push(byte);
                index += 3;
            }
            None => {
                decoded.push(bytes[index]);
                index += 1;
            }
        }
    }
    String::from_utf8(decoded).ok()
}

async fn handle(request: Request<Incoming>) -> Result<Response<TestBody>, Infallible> {
    let echo = request.headers().contains_key(ECHO).then(|| {
        request
            .headers()
            .iter()
            .filter_map(|(name, value)| {
                let echoed = format!("x-request-{name}");
                Some((
                    http::HeaderName::from_bytes(echoed.as_bytes()).ok()?,
                    value.clone(),
                ))
            })
            .collect::<Vec<_>>()
    });
    let respond_with: Vec<http::HeaderName> = request
        .headers()
        .get_all(RESPOND_WITH)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|names| names.split(','))
        .filter_map(|name| http::HeaderName::from_bytes(name.trim().as_bytes()).ok())
        .collect();
    let limit_rate =
        query_text(&request, "limit_rate").and_then(|rate| http::HeaderValue::from_str(&rate).ok());
    let mut response = respond(request).await;
    if let Some(rate) = limit_rate {
        response.headers_mut().append("x-accel-limit-rate", rate);
    }
    for (name, value) in echo.into_iter().flatten() {
        response.headers_mut().append(name, value);
    }
    for name in respond_with {
        response
            .headers_mut()
            .append(name, http::HeaderValue::from_static("testkit"));
    }
    Ok(response)
}

/// The endpoint's own answer.
async fn respond(request: Request<Incoming>) -> Response<TestBody> {
    let path = request.uri().path().to_string();
    let response = match path.as_str() {
        "/echo" => Response::new(request.into_body().boxed()),
        "/consume" => match request.into_body().collect().await {
            Ok(collected) => Response::new(full(format!("{} bytes", collected.to_bytes().len()))),
            Err(_) => Response::builder()
                .status(StatusCode::BAD_REQUEST)
                .body(full("broken body"))
                .expect("static response"),
        },
        "/headers" => {
            let mut text = format!(
                "{} {} {:?}\n",
                request.method(),
                request.uri(),
                request.version()
            );
            for (name, value) in request.headers() {
                text.push_str(&format!(
                    "{}: {}\n",
                    name,
                    value.to_str().unwrap_or("<binary>")
                ));
            }
            Response::new(full(text))
        }
        // An authentication service, as `auth_request` asks one: by `Authorization` (else by a
        // `token=` in the `X-Original-URI` it is sent), `Bearer good` is 204 with `X-Auth-User:
        // alice` and a `Set-Cookie`, `Bearer forbidden` 403, `Bearer broken` 502, none (or
        // another) 401 with a
        // challenge. Each answer says what it was asked in `X-Auth-Saw`: the method, the target
        // and `X-Original-URI`.
        "/auth" => {
            let header = |name: &str| {
                request
                    .headers()
                    .get(name)
                    .and_then(|value| value.to_str().ok())
                    .unwrap_or("")
                    .to_string()
            };
            let saw = format!(
                "{} {} {}",
                request.method(),
                request.uri(),
                header("x-original-uri")
            );
            let mut authorization = header("authorization");
            if authorization.is_empty() {
                let original = header("x-original-uri");
                if let Some((_, token)) = original.split_once("token=") {
                    let token = token.split('&').next().unwrap_or("");
                    authorization = format!("Bearer {token}");
                }
            }
            let status = match authorization.as_str() {
                "Bearer good" => StatusCode::NO_CONTENT,
                "Bearer forbidden" => StatusCode::FORBIDDEN,
                "Bearer broken" => StatusCode::BAD_GATEWAY,
                _ => StatusCode::UNAUTHORIZED,
            };
            let mut response = Response::builder()
                .status(status)
                .header("x-auth-saw", saw)
                .header("www-authenticate", "Bearer realm=\"testkit\"");
            if status == StatusCode::NO_CONTENT {
                response = response
                    .header("x-auth-user", "alice")
                    .header("set-cookie", "session=refreshed; Path=/");
            }
            response.body(full("")).expect("static response")
        }
        // `/counted?ms=N&status=S&cache_control=V&accel_expires=V&vary=V&set_cookie=V&etag=V&last_modified=V&accept_ranges=V`: the
        // number of `/counted` requests this process's upstreams have answered, this one
        // included (so two answers alike are one answer kept), after `ms` (0 by default), with
        // that status (200; 206 for a request with `Range`) and those headers (percent-decoded),
        // for a cache to keep or not. The request headers `x-counted-ms` and `x-counted-status`
        // say the same as the query's (over it) without being in a cache's key: so a test can
        // make the app slow, or fail, for a key already kept.
        "/counted" => {
            static COUNTED: AtomicUsize = AtomicUsize::new(0);
            let count = COUNTED.fetch_add(1, Ordering::SeqCst) + 1;
            let said = |name: &str| -> Option<u64> {
                std::str::from_utf8(request.headers().get(name)?.as_bytes())
                    .ok()?
                    .parse()
                    .ok()
            };
            let ms = said("x-counted-ms")
                .or_else(|| query_number(&request, "ms"))
                .unwrap_or(0);
            if ms > 0 {
                tokio::time::sleep(Duration::from_millis(ms)).await;
            }
            // A request with `Range` is answered 206, as an app that serves ranges would.
            let status = match request.headers().contains_key("range") {
                true => 206,
                false => said("x-counted-status")
                    .or_else(|| query_number(&request, "status"))
                    .unwrap_or(200) as u16,
            };
            let mut response = Response::builder()
                .status(StatusCode::from_u16(status).unwrap_or(StatusCode::OK))
                .header("content-type", "text/plain");
            for (query, name) in [
                ("cache_control", "cache-control"),
                ("accel_expires", "x-accel-expires"),
                ("vary", "vary"),
                ("set_cookie", "set-cookie"),
                ("etag", "etag"),
                ("last_modified", "last-modified"),
                ("accept_ranges", "accept-ranges"),
            ] {
                if let Some(value) = query_text(&request, query) {
                    response = response.header(name, value);
                }
            }
            response
                .body(full(count.to_string()))
                .expect("static response")
        }
        "/slow" => {
            let ms = query_number(&request, "ms").unwrap_or(100);
            tokio::time::sleep(Duration::from_millis(ms)).await;
            Response::new(full("slow"))
        }
        "/hang" => std::future::pending().await,
        "/close" => Response::builder()
            .header("connection", "close")
            .body(full("bye"))
            .expect("static response"),
        "/big" => {
            let bytes = query_number(&request, "bytes").unwrap_or(1 << 20) as usize;
            let chunks = (0..bytes.div_ceil(16384)).map(move |index| {
                let length = (bytes - index * 16384).min(16384);
                Ok::<_, hyper::Error>(Frame::data(Bytes::from(vec![b'x'; length])))
            });
            Response::new(StreamBody::new(futures_iter(chunks)).boxed())
        }
        "/chunked" => {
            let pause = Duration::from_millis(query_number(&request, "ms").unwrap_or(20));
            let (sender, receiver) =
                tokio::sync::mpsc::channel::<Result<Frame<Bytes>, hyper::Error>>(4);
            tokio::spawn(async move {
                for part in ["one ", "two ", "three"] {
                    if sender
                        .send(Ok(Frame::data(Bytes::from(part))))
                        .await
                        .is_err()
                    {
                        return;
                    }
                    tokio::time::sleep(pause).await;
                }
            });
            Response::new(StreamBody::new(tokio_stream(receiver)).boxed())
        }
        "/text" => {
            let bytes = query_number(&request, "bytes").unwrap_or(4096) as usize;
            let text: String = "weir compresses text. "
                .chars()
                .cycle()
                .take(bytes)
                .collect();
            Response::builder()
                .header("content-type", "text/plain; charset=utf-8")
                .body(full(text))
                .expect("static response")
        }
        // `/typed?type=text/html;%20a=b&status=404`: an answer of that type (percent-decoded)
        // and status (default 200).
        "/typed" => {
            let content_type = query_text(&request, "type").unwrap_or_default();
            let status = query_number(&request, "status").unwrap_or(200) as u16;
            Response::builder()
                .status(StatusCode::from_u16(status).unwrap_or(StatusCode::OK))
                .header("content-type", content_type)
                .body(full("typed"))
                .expect("static response")
        }
        // `/cookie?set=a%3D1%3B%20Path%3D%2F&also=b%3D2`: a `Set-Cookie` of each value given
        // (percent-decoded), in that order.
        "/cookie" => {
            let mut response = Response::builder();
            for name in ["set", "also"] {
                if let Some(cookie) = query_text(&request, name) {
                    response = response.header("set-cookie", cookie);
                }
            }
            response.body(full("cookie")).expect("static response")
        }
        // `/moved?to=http%3A%2F%2Fapp%2Fx&refresh=1%3B%20url%3D...` or `/moved?path=/x`: a 302 to
        // `to` (percent-decoded), or to `path` on the Host the request named (`http://HOST/x`, as
        // an app builds an absolute URL), with a `Refresh` when `refresh` is given.
        "/moved" => {
            let host = request
                .headers()
                .get("host")
                .and_then(|value| value.to_str().ok())
                .unwrap_or_default()
                .to_string();
            let to = query_text(&request, "to").unwrap_or_else(|| {
                format!(
                    "http://{host}{}",
                    query_text(&request, "path").unwrap_or_default()
                )
            });
            let mut response = Response::builder()
                .status(StatusCode::FOUND)
                .header("location", to);
            if let Some(refresh) = query_text(&request, "refresh") {
                response = response.header("refresh", refresh);
            }
            response.body(full("moved")).expect("static response")
        }
        "/no-content" => Response::builder()
            .status(StatusCode::NO_CONTENT)
            .body(full(""))
            .expect("static response"),
        "/not-modified" => Response::builder()
            .status(StatusCode::NOT_MODIFIED)
            .header("etag", "\"v1\"")
            .body(full(""))
            .expect("static response"),
        "/length" => Response::builder()
            .header("content-length", "5")
            .body(full("abcde"))
            .expect("static response"),
        // Django's sendfile backends: the app answers where the file is, nginx serves it.
        _ if path.starts_with("/accel/") => Response::builder()
            .header("x-accel-redirect", &path["/accel".len()..])
            .body(full("served by the proxy"))
            .expect("static response"),
        _ if path.starts_with("/status/") => {
            let code = path["/status/".len()..].parse::<u16>().unwrap_or(500);
            Response::builder()
                .status(StatusCode::from_u16(code).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR))
                .body(full(format!("status {code}")))
                .expect("static response")
        }
        _ => Response::builder()
            .header("x-upstream", "testkit")
            .body(full("hello"))
            .expect("static response"),
    };
    response
}

/// A stream over an iterator, without pulling in a streams crate.
fn futures_iter<I, T>(iter: I) -> IterStream<I>
where
    I: Iterator<Item = T> + Unpin,
{
    IterStream(iter)
}

pub struct IterStream<I>(I);

impl<I: Iterator + Unpin> futures_core::Stream for IterStream<I> {
    type Item = I::Item;
    fn poll_next(
        self: std::pin::Pin<&mut Self>,
        _context: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<I::Item>> {
        std::task::Poll::Ready(self.get_mut().0.next())
    }
}

fn tokio_stream<T>(receiver: tokio::sync::mpsc::Receiver<T>) -> ReceiverStream<T> {
    ReceiverStream(receiver)
}

pub struct ReceiverStream<T>(tokio::sync::mpsc::Receiver<T>);

impl<T> futures_core::Stream for ReceiverStream<T> {
    type Item = T;
    fn poll_next(
        self: std::pin::Pin<&mut Self>,
        context: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<T>> {
        self.get_mut().0.poll_recv(context)
    }
}
