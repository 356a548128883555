//! weir-lab-ceiling: the smallest useful HTTP/1.1 server, answering every request with one static
//! response. It is the lab's "ceiling" (what a gateway could reach if it did nothing), its fast
//! upstream for measuring gateways with no Python in the way, a static 429 server for floods, and
//! an upstream that answers 502 for the guard's own test.
//!
//! Usage: weir-lab-ceiling --tcp 127.0.0.1:PORT [--unix PATH] [--status N] [--body-file PATH]

use std::convert::Infallible;
use std::net::SocketAddr;
use std::os::unix::fs::PermissionsExt;
use std::path::PathBuf;

use anyhow::{bail, Context};
use bytes::Bytes;
use http::{header, Request, Response, StatusCode};
use http_body_util::Full;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::TokioIo;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::{TcpListener, UnixListener};

/// ~100 bytes of JSON, the size of the studies' small responses.
const SMALL_BODY: &[u8] = weir_lab::configs::SMALL_JSON.as_bytes();

#[derive(Debug)]
struct Options {
    tcp: SocketAddr,
    unix: Option<PathBuf>,
    status: StatusCode,
    body_file: Option<PathBuf>,
}

fn parse_options() -> anyhow::Result<Options> {
    let mut tcp = None;
    let mut unix = None;
    let mut status = StatusCode::OK;
    let mut body_file = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = || args.next().with_context(|| format!("{arg} needs a value"));
        match arg.as_str() {
            "--tcp" => tcp = Some(value()?.parse().context("--tcp")?),
            "--unix" => unix = Some(PathBuf::from(value()?)),
            "--status" => status = StatusCode::from_u16(value()?.parse()?)?,
            "--body-file" => body_file = Some(PathBuf::from(value()?)),
            other => bail!("unknown argument {other}"),
        }
    }
    Ok(Options {
        tcp: tcp.context("--tcp ADDR is required")?,
        unix,
        status,
        body_file,
    })
}

fn main() -> anyhow::Result<()> {
    let options = parse_options()?;
    let body = match &options.body_file {
        Some(path) => {
            Bytes::from(std::fs::read(path).with_context(|| format!("reading {}", path.display()))?)
        }
        None => Bytes::from_static(SMALL_BODY),
    };
    let content_type = if options.body_file.is_some() {
        "application/octet-stream"
    } else {
        "application/json"
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(serve(options, body, content_type))
}

async fn serve(options: Options, body: Bytes, content_type: &'static str) -> anyhow::Result<()> {
    let status = options.status;
    let tcp = TcpListener::bind(options.tcp)
        .await
        .with_context(|| format!("binding {}", options.tcp))?;
    if let Some(path) = &options.unix {
        let _ = std::fs::remove_file(path);
        let unix =
            UnixListener::bind(path).with_context(|| format!("binding {}", path.display()))?;
        // nginx's workers run as nobody; connecting needs write permission on the socket.
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o777))?;
        let body = body.clone();
        tokio::spawn(async move {
            loop {
                if let Ok((stream, _)) = unix.accept().await {
                    tokio::spawn(connection(stream, status, body.clone(), content_type));
                }
            }
        });
    }
    loop {
        let (stream, _) = tcp.accept().await?;
        let _ = stream.set_nodelay(true);
        tokio::spawn(connection(stream, status, body.clone(), content_type));
    }
}

async fn connection<S>(stream: S, status: StatusCode, body: Bytes, content_type: &'static str)
where
    S: AsyncRead + AsyncWrite + Unpin + Send + 'static,
{
    let service = service_fn(move |_request: Request<Incoming>| {
        let body = body.clone();
        async move {
            let mut response = Response::new(Full::new(body));
            *response.status_mut() = status;
            response.headers_mut().insert(
                header::CONTENT_TYPE,
                header::HeaderValue::from_static(content_type),
            );
            Ok::<_, Infallible>(response)
        }
    });
    // A client that goes away mid-exchange is normal under load; there is nothing to report.
    let _ = http1::Builder::new()
        .serve_connection(TokioIo::new(stream), service)
        .await;
}
