//! weir's integration tests: one binary, a module per feature. Every test starts real things:
//! upstream servers on TCP port 0 or on a Unix socket in a temp dir, and the gateway on port 0.
//! `both_transports!` runs a body against a TCP and a Unix-socket upstream.

mod support;

mod accel;
mod access;
mod balance;
mod basic_auth;
mod buffering;
mod cache;
mod codec;
mod conn_limits;
mod dns;
mod e2e;
mod error_pages;
mod errors;
mod fallback;
mod faults;
mod hardening;
mod header_rules;
mod health_check;
mod http2;
mod limit_rate;
mod listeners;
mod locations;
mod metrics;
mod overload;
mod parity;
mod pool;
mod proxying;
mod ratelimit;
mod reload;
mod shutdown;
mod splice;
mod tls;
