//! Clients for tests: [`Client`] speaks HTTP/1.1 over one keep-alive connection (hyper's
//! connection-level client, so tests see exactly one downstream connection), and
//! [`raw_exchange`] writes raw bytes and reads whatever comes back, for malformed requests.

use std::net::{IpAddr, SocketAddr};
use std::time::Duration;

use bytes::Bytes;
use http::{HeaderMap, Method, Request, StatusCode};
use http_body_util::{BodyExt, Full};
use hyper::client::conn::http1::SendRequest;
use hyper_util::rt::TokioIo;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};

/// One downstream connection to the gateway.
pub struct Client {
    addr: SocketAddr,
    sender: SendRequest<Full<Bytes>>,
}

/// A whole response.
#[derive(Debug, Clone)]
pub struct Reply {
    pub status: StatusCode,
    pub headers: HeaderMap,
    pub body: Bytes,
}

impl Reply {
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }

    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|value| value.to_str().ok())
    }
}

impl Client {
    pub async fn connect(addr: SocketAddr) -> Client {
        let stream = TcpStream::connect(addr)
            .await
            .expect("connect to the gateway");
        Self::over(addr, stream).await
    }

    /// A connection from `local` (a loopback address such as 127.0.0.2, port chosen by the
    /// system): a client the gateway tells apart from one on 127.0.0.1, as a rate limit keyed by
    /// the client address does.
    pub async fn connect_from(addr: SocketAddr, local: IpAddr) -> Client {
        let socket = match local {
            IpAddr::V4(_) => TcpSocket::new_v4(),
            IpAddr::V6(_) => TcpSocket::new_v6(),
        }
        .expect("a TCP socket");
        socket
            .bind(SocketAddr::new(local, 0))
            .expect("bind the local address");
        let stream = socket.connect(addr).await.expect("connect to the gateway");
        Self::over(addr, stream).await
    }

    async fn over(addr: SocketAddr, stream: TcpStream) -> Client {
        let (sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
            .await
            .expect("handshake");
        tokio::spawn(async move {
            let _ = connection.await;
        });
        Client { addr, sender }
    }

    /// Sends a request built by the caller (the `Host` header is added when missing).
    pub async fn send(&mut self, mut request: Request<Full<Bytes>>) -> Result<Reply, hyper::Error> {
        if !request.headers().contains_key(http::header::HOST) {
            let host = self
                .addr
                .to_string()
                .parse()
                .expect("address is a valid header");
            request.headers_mut().insert(http::header::HOST, host);
        }
        self.sender.ready().await?;
        let response = self.sender.send_request(request).await?;
        let (parts, body) = response.into_parts();
        let body = body.collect().await?.to_bytes();
        Ok(Reply {
            status: parts.status,
            headers: parts.headers,
            body,
        })
    }

    /// [`send`](Self::send) for a client that goes on past the gateway's close, as browsers
    /// and connection pools do: after a response that closes the connection (`connection:
    /// close`, as after `keepalive_requests`) or a failed exchange, the client is on a new
    /// connection for its next request. The error is still returned.
    pub async fn send_reconnecting(
        &mut self,
        request: Request<Full<Bytes>>,
    ) -> Result<Reply, hyper::Error> {
        let result = self.send(request).await;
        let closed = match &result {
            Ok(reply) => reply.header("connection") == Some("close"),
            Err(_) => true,
        };
        if closed {
            *self = Client::connect(self.addr).await;
        }
        result
    }

    pub async fn get(&mut self, path: &str) -> Reply {
        self.request(Method::GET, path, Bytes::new()).await
    }

    pub async fn request(&mut self, method: Method, path: &str, body: impl Into<Bytes>) -> Reply {
        let request = Request::builder()
            .method(method)
            .uri(path)
            .body(Full::new(body.into()))
            .expect("valid request");
        self.send(request).await.expect("request failed")
    }
}

/// Sends one GET on a new connection.
pub async fn get(addr: SocketAddr, path: &str) -> Reply {
    Client::connect(addr).await.get(path).await
}

/// Writes `bytes` on a new connection and reads until the gateway closes it or `wait` passes.
pub async fn raw_exchange(addr: SocketAddr, bytes: &[u8], wait: Duration) -> String {
    let mut stream = TcpStream::connect(addr)
        .await
        .expect("connect to the gateway");
    stream.write_all(bytes).await.expect("write");
    let mut received = Vec::new();
    let _ = tokio::time::timeout(wait, stream.read_to_end(&mut received)).await;
    String::from_utf8_lossy(&received).into_owned()
}
