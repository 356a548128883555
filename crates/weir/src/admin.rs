//! The admin listener (`[admin] listen`, off by default): `/metrics` in the Prometheus text
//! format, `/healthz` (the process is up) and `/readyz` (the gateway accepts traffic).
//!
//! It keeps answering while the gateway drains, with `/readyz` at 503 from the moment shutdown
//! begins, so a load balancer polling it stops sending new traffic while in-flight requests
//! finish; it stops when the gateway has stopped.

use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use http::{header, HeaderValue, Method, Request, Response, StatusCode};
use http_body_util::Full;
use hyper::body::Incoming;
use hyper::service::service_fn;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::TcpListener;
use tokio::sync::watch;

use crate::server::GatewayHandle;

/// A scraper or probe that has not sent its request head by then is dropped.
const HEADER_TIMEOUT: Duration = Duration::from_secs(10);

/// Serves the admin endpoints on `listener`. `stop` turns true when shutdown begins (then
/// `/readyz` answers 503); serving ends when its sender is dropped, as the gateway stops.
pub async fn serve(
    listener: Arc<TcpListener>,
    handle: GatewayHandle,
    mut stop: watch::Receiver<bool>,
) {
    loop {
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            changed = stop.changed() => {
                if changed.is_err() {
                    return;
                }
                continue;
            }
        };
        let stream = match accepted {
            Ok((stream, _)) => stream,
            Err(error) => {
                // EMFILE and the like: back off a little instead of spinning.
                tracing::debug!(%error, "admin accept failed");
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let handle = handle.clone();
        let mut connection_stop = stop.clone();
        tokio::spawn(async move {
            let state = connection_stop.clone();
            let service = service_fn(move |request| {
                let ready = !*state.borrow();
                let response = answer(&handle, ready, &request);
                async move { Ok::<_, Infallible>(response) }
            });
            let mut builder = hyper::server::conn::http1::Builder::new();
            builder
                .timer(TokioTimer::new())
                .header_read_timeout(HEADER_TIMEOUT);
            let connection = builder.serve_connection(TokioIo::new(stream), service);
            tokio::select! {
                _ = connection => {}
                () = stopped(&mut connection_stop) => {}
            }
        });
    }
}

/// Completes when the gateway has stopped (the sender is gone).
async fn stopped(stop: &mut watch::Receiver<bool>) {
    while stop.changed().await.is_ok() {}
}

fn answer(
    handle: &GatewayHandle,
    ready: bool,
    request: &Request<Incoming>,
) -> Response<Full<Bytes>> {
    if request.method() != Method::GET && request.method() != Method::HEAD {
        let mut response = text(StatusCode::METHOD_NOT_ALLOWED, "405 Method Not Allowed\n");
        response
            .headers_mut()
            .insert(header::ALLOW, HeaderValue::from_static("GET, HEAD"));
        return response;
    }
    match request.uri().path() {
        "/healthz" => text(StatusCode::OK, "ok\n"),
        "/readyz" if ready => text(StatusCode::OK, "ready\n"),
        "/readyz" => text(StatusCode::SERVICE_UNAVAILABLE, "shutting down\n"),
        "/metrics" => {
            let mut response = Response::new(Full::new(Bytes::from(handle.render_metrics())));
            response.headers_mut().insert(
                header::CONTENT_TYPE,
                HeaderValue::from_static(crate::metrics::CONTENT_TYPE),
            );
            response
        }
        _ => text(StatusCode::NOT_FOUND, "404 Not Found\n"),
    }
}

fn text(status: StatusCode, body: &'static str) -> Response<Full<Bytes>> {
    let mut response = Response::new(Full::new(Bytes::from_static(body.as_bytes())));
    *response.status_mut() = status;
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    response
}
