//! weir: a reverse proxy and rate-limiting gateway for Python web apps (Gunicorn, Uvicorn).
//!
//! The library has no argv, no environment and no `process::exit`: the `weir` binary in
//! `crates/weir-cli` parses flags, sets up logging and maps errors to exit codes. Tests build a
//! [`Gateway`] from a [`Config`] on port 0 and drive it with real clients and upstreams.

// The public API is what the `weir` binary (crates/weir-cli), the test kit, the integration
// tests, the lab and the fuzz targets use: the gateway ([`Gateway`], [`GatewayHandle`], the
// config), and the pure parts that tests and fuzz targets drive directly (the HTTP/1 head and
// chunked parsers, paths, routing, limit keys, real IP, ranges, compression choice). The
// request path's plumbing stays inside the crate.
pub mod access_log;
mod admin;
mod answer;
pub mod body;
pub mod buffering;
mod cache;
pub mod compression;
pub mod config;
pub mod error;
pub mod h1;
pub mod head_view;
mod header_list;
pub mod htpasswd;
mod http2;
mod logging;
mod metrics;
pub mod path;
pub mod proxy;
pub mod ratelimit;
pub mod realip;
mod request_body;
mod request_id;
pub mod routing;
mod server;
mod spares;
pub mod static_files;
mod throttle;
pub mod tls;
mod tunnel;
pub mod upstream;
mod write_timeout;

pub use config::Config;
pub use server::{Gateway, GatewayHandle, Inherited, ListenAddr, ListenerKind, ServerError};
