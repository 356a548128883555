//! Real things for weir's tests: upstream HTTP servers on TCP port 0 or on a Unix socket in a temp
//! dir (`upstream`), a misbehaving raw upstream (`flaky`), an HTTP client and a raw-socket client
//! (`client`), an upstream that answers from a script of raw bytes (`raw`), and the gateway itself
//! spawned from a TOML string (`gateway`), a DNS server whose answers a test changes (`dns`); and
//! `wait`, the one way a test waits for a state: poll it with a deadline.

pub mod certificate;
pub mod client;
pub mod dns;
pub mod flaky;
pub mod gateway;
pub mod gunicorn;
pub mod nginx;
pub mod process;
pub mod raw;
pub mod redis;
pub mod upstream;
pub mod wait;

pub use client::{raw_exchange, Client, Reply};
pub use dns::DnsServer;
pub use flaky::FlakyUpstream;
pub use gateway::TestGateway;
pub use raw::{RawUpstream, Script};
pub use upstream::{Transport, UpstreamServer};
pub use wait::{wait_for, wait_until, wait_until_async, wait_until_blocking};
