//! The admin listener (`[admin] listen`, off by default): `/metrics` in the Prometheus text
//! format, `/healthz` (the process is up) and `/readyz` (the gateway accepts traffic).

use std::convert::Infallible;

use bytes::Bytes;
use http::{Request, Response, StatusCode};
use http_body_util::Full;
use hyper::body::Incoming;
use hyper::service::service_fn;
use hyper_util::rt::TokioIo;
use tokio::net::TcpListener;

use crate::server::GatewayHandle;

/// Serves the admin endpoints on `listener` until `stop` changes.
pub async fn serve(
    listener: TcpListener,
    handle: GatewayHandle,
    mut stop: tokio::sync::watch::Receiver<bool>,
) {
    loop {
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            _ = stop.changed() => return,
        };
        let Ok((stream, _)) = accepted else { continue };
        let handle = handle.clone();
        tokio::spawn(async move {
            let service = service_fn(move |request| {
                let handle = handle.clone();
                async move { Ok::<_, Infallible>(answer(&handle, request)) }
            });
            let _ = hyper::server::conn::http1::Builder::new()
                .serve_connection(TokioIo::new(stream), service)
                .await;
        });
    }
}

fn answer(handle: &GatewayHandle, request: Request<Incoming>) -> Response<Full<Bytes>> {
    let (status, body) = match request.uri().path() {
        "/healthz" | "/readyz" => (StatusCode::OK, "ok\n".to_string()),
        "/metrics" => (StatusCode::OK, handle.render_metrics()),
        _ => (StatusCode::NOT_FOUND, "404 Not Found\n".to_string()),
    };
    let mut response = Response::new(Full::new(Bytes::from(body)));
    *response.status_mut() = status;
    response
}
