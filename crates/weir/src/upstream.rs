//! Upstream servers: their addresses, and (in `pool.rs`) the pool of connections towards each.

use std::fmt;
use std::net::SocketAddr;
use std::path::PathBuf;

/// Where an upstream server listens: a TCP address or a Unix socket path.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum UpstreamAddr {
    Tcp(SocketAddr),
    Unix(PathBuf),
}

impl fmt::Display for UpstreamAddr {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UpstreamAddr::Tcp(addr) => write!(formatter, "{addr}"),
            UpstreamAddr::Unix(path) => write!(formatter, "unix:{}", path.display()),
        }
    }
}

impl std::str::FromStr for UpstreamAddr {
    type Err = String;

    /// Parses `unix:/path/app.sock` or `IP:PORT` (`[::1]:8000` for IPv6).
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        if let Some(path) = text.strip_prefix("unix:") {
            if path.is_empty() {
                return Err("a Unix socket needs a path, as in \"unix:/run/app.sock\"".to_string());
            }
            return Ok(UpstreamAddr::Unix(PathBuf::from(path)));
        }
        text.parse::<SocketAddr>().map(UpstreamAddr::Tcp).map_err(|_| {
            format!("{text:?} is neither \"unix:/path/app.sock\" nor \"IP:PORT\" such as \"127.0.0.1:8000\"")
        })
    }
}
