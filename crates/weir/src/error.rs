//! The one place where an error becomes a status code. Every failure on the request path is a
//! [`ProxyError`]; [`ProxyError::status`] maps it, [`ProxyError::side`] says who failed (for logs and
//! metrics), and [`ProxyError::response`] builds the short plain-text answer the client gets.

use std::io;

use bytes::Bytes;
use http::{header, HeaderValue, Response, StatusCode};

use crate::body::Body;
use crate::upstream::UpstreamAddr;

/// Which side of the proxy an error came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// The client: a bad or too large request, or the client went away.
    Downstream,
    /// The upstream server: refused, reset, timed out, answered garbage.
    Upstream,
    /// weir itself: no route, no free connection in time.
    Internal,
}

/// Everything that can go wrong while proxying one request.
#[derive(Debug, thiserror::Error)]
pub enum ProxyError {
    #[error("no route matches this host and path")]
    NoRoute,
    #[error("request body is larger than max_body_size ({limit} bytes)")]
    BodyTooLarge { limit: u64 },
    #[error("malformed request: {reason}")]
    BadRequest { reason: &'static str },
    #[error("the client's request body broke off")]
    ClientGone,
    #[error("malformed request path: {error}")]
    BadPath { error: crate::path::PathError },
    #[error("the client sent no request body bytes for body_timeout")]
    BodyTimeout,
    #[error("connect to {addr} failed: {source}")]
    Connect {
        addr: UpstreamAddr,
        source: io::Error,
    },
    #[error("connect to {addr} timed out")]
    ConnectTimeout { addr: UpstreamAddr },
    #[error("upstream {addr} sent no response within read_timeout")]
    ReadTimeout { addr: UpstreamAddr },
    #[error("upstream {addr} did not take the request within send_timeout")]
    SendTimeout { addr: UpstreamAddr },
    #[error("upstream {addr} failed: {source}")]
    Upstream {
        addr: UpstreamAddr,
        source: io::Error,
    },
    #[error("no connection to {addr} became free within queue_timeout")]
    QueueTimeout { addr: UpstreamAddr },
    #[error("the queue for {addr} is full")]
    QueueFull { addr: UpstreamAddr },
    #[error("the request body could not be buffered")]
    Spool,
    #[error("the spool for request bodies is full (max_spool_size)")]
    SpoolFull,
    #[error("rate limited by {limit}")]
    RateLimited { limit: String, status: StatusCode },
}

impl ProxyError {
    /// The status the client is answered with.
    pub fn status(&self) -> StatusCode {
        match self {
            ProxyError::NoRoute => StatusCode::NOT_FOUND,
            ProxyError::BodyTooLarge { .. } => StatusCode::PAYLOAD_TOO_LARGE,
            ProxyError::BadRequest { .. } | ProxyError::BadPath { .. } | ProxyError::ClientGone => {
                StatusCode::BAD_REQUEST
            }
            ProxyError::BodyTimeout => StatusCode::REQUEST_TIMEOUT,
            ProxyError::Connect { .. } | ProxyError::Upstream { .. } => StatusCode::BAD_GATEWAY,
            ProxyError::ConnectTimeout { .. }
            | ProxyError::ReadTimeout { .. }
            | ProxyError::SendTimeout { .. } => StatusCode::GATEWAY_TIMEOUT,
            ProxyError::QueueTimeout { .. }
            | ProxyError::QueueFull { .. }
            | ProxyError::SpoolFull => StatusCode::SERVICE_UNAVAILABLE,
            ProxyError::RateLimited { status, .. } => *status,
            ProxyError::Spool => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    /// Who failed.
    pub fn side(&self) -> Side {
        match self {
            ProxyError::BodyTooLarge { .. }
            | ProxyError::BadRequest { .. }
            | ProxyError::BadPath { .. }
            | ProxyError::BodyTimeout
            | ProxyError::ClientGone
            | ProxyError::RateLimited { .. } => Side::Downstream,
            ProxyError::Connect { .. }
            | ProxyError::ConnectTimeout { .. }
            | ProxyError::ReadTimeout { .. }
            | ProxyError::SendTimeout { .. }
            | ProxyError::Upstream { .. } => Side::Upstream,
            ProxyError::NoRoute
            | ProxyError::Spool
            | ProxyError::SpoolFull
            | ProxyError::QueueTimeout { .. }
            | ProxyError::QueueFull { .. } => Side::Internal,
        }
    }

    /// A short cause for logs and metrics labels.
    pub fn cause(&self) -> &'static str {
        match self {
            ProxyError::NoRoute => "no_route",
            ProxyError::BodyTooLarge { .. } => "body_too_large",
            ProxyError::BadRequest { .. } => "bad_request",
            ProxyError::BadPath { .. } => "bad_path",
            ProxyError::BodyTimeout => "body_timeout",
            ProxyError::ClientGone => "client_gone",
            ProxyError::Connect { .. } => "connect",
            ProxyError::ConnectTimeout { .. } => "connect_timeout",
            ProxyError::ReadTimeout { .. } => "read_timeout",
            ProxyError::SendTimeout { .. } => "send_timeout",
            ProxyError::Upstream { .. } => "upstream",
            ProxyError::QueueTimeout { .. } => "queue_timeout",
            ProxyError::QueueFull { .. } => "queue_full",
            ProxyError::RateLimited { .. } => "rate_limited",
            ProxyError::Spool => "spool",
            ProxyError::SpoolFull => "spool_full",
        }
    }

    /// The client's answer: the status, and its reason phrase as a one-line plain-text body.
    pub fn response(&self) -> Response<Body> {
        let mut response = status_response(self.status());
        if let ProxyError::SpoolFull = self {
            response.headers_mut().insert(
                header::RETRY_AFTER,
                HeaderValue::from(crate::buffering::SPOOL_RETRY_AFTER.as_secs()),
            );
        }
        response
    }
}

/// A short plain-text response for `status`, as nginx gives for its own errors.
pub fn status_response(status: StatusCode) -> Response<Body> {
    let text = match status.as_u16() {
        // The answers weir gives most, above all under a flood, cost no allocation.
        429 => Bytes::from_static(b"429 Too Many Requests\n"),
        502 => Bytes::from_static(b"502 Bad Gateway\n"),
        503 => Bytes::from_static(b"503 Service Unavailable\n"),
        504 => Bytes::from_static(b"504 Gateway Timeout\n"),
        404 => Bytes::from_static(b"404 Not Found\n"),
        _ => {
            let reason = status.canonical_reason().unwrap_or("Error");
            Bytes::from(format!("{} {}\n", status.as_u16(), reason))
        }
    };
    let mut response = Response::new(Body::full(text));
    *response.status_mut() = status;
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    response
}
