//! weir: a reverse proxy and rate-limiting gateway for Python web apps (Gunicorn, Uvicorn).
//!
//! The library has no argv, no environment and no `process::exit`: the `weir` binary in
//! `crates/weir-cli` parses flags, sets up logging and maps errors to exit codes. Tests build a
//! [`Gateway`] from a [`Config`] on port 0 and drive it with real clients and upstreams.

pub mod access_log;
pub mod admin;
pub mod answer;
pub mod body;
pub mod buffering;
pub mod compression;
pub mod config;
pub mod error;
pub mod h1;
pub mod http2;
pub mod logging;
pub mod metrics;
pub mod path;
pub mod proxy;
pub mod ratelimit;
pub mod realip;
pub mod request_body;
pub mod routing;
pub mod server;
pub mod static_files;
pub mod tls;
pub mod tunnel;
pub mod upstream;
pub mod write_timeout;

pub use config::Config;
pub use server::{Gateway, GatewayHandle, Inherited, ListenAddr, ListenerKind, ServerError};
