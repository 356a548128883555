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

use crate::error::ProxyError;

/// What the admin endpoints read of the gateway they serve (`/healthz` and `/readyz` need
/// nothing but the shutdown signal). The server implements it for its handle, so this listener,
/// which the server starts, knows nothing of the server.
pub trait AdminView: Clone + Send + Sync + 'static {
    /// The metrics in the Prometheus text format, for `/metrics`.
    fn render_metrics(&self) -> String;
}

/// A scraper or probe that has not sent its request head by then is dropped.
const HEADER_TIMEOUT: Duration = Duration::from_secs(10);

/// Serves the admin endpoints on `listener`. `stop` turns true when shutdown begins (then
/// `/readyz` answers 503); serving ends when its sender is dropped, as the gateway stops.
pub async fn serve<V: AdminView>(
    listener: Arc<TcpListener>,
    view: V,
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
        let view = view.clone();
        let mut connection_stop = stop.clone();
        tokio::spawn(async move {
            let state = connection_stop.clone();
            let service = service_fn(move |request| {
                let ready = !*state.borrow();
                let response = answer(&view, ready, &request);
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
    view: &impl AdminView,
    ready: bool,
    request: &Request<Incoming>,
) -> Response<Full<Bytes>> {
    if request.method() != Method::GET && request.method() != Method::HEAD {
        let refused = ProxyError::MethodNotAllowed {
            allow: "GET, HEAD".into(),
        };
        return refused.into_response().map(Full::new).into_http();
    }
    match request.uri().path() {
        "/healthz" => text(StatusCode::OK, "ok\n"),
        "/readyz" if ready => text(StatusCode::OK, "ready\n"),
        "/readyz" => crate::error::draining_response().map(Full::new).into_http(),
        "/metrics" => {
            let mut response = Response::new(Full::new(Bytes::from(view.render_metrics())));
            response.headers_mut().insert(
                header::CONTENT_TYPE,
                HeaderValue::from_static(crate::metrics::CONTENT_TYPE),
            );
            response
        }
        // No such endpoint: the answer of a request no route matches.
        _ => ProxyError::NoRoute
            .into_response()
            .map(Full::new)
            .into_http(),
    }
}

/// A probe's plain-text success.
fn text(status: StatusCode, body: &'static str) -> Response<Full<Bytes>> {
    let mut response = Response::new(Full::new(Bytes::from_static(body.as_bytes())));
    *response.status_mut() = status;
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    response
}
