//! Helpers shared by the test modules.

pub use std::time::Duration;

pub use http::{Method, Request, StatusCode};
pub use weir_testkit::{
    raw_exchange, Client, FlakyUpstream, TestGateway, Transport, UpstreamServer,
};

/// Runs `$body` once with a TCP upstream and once with a Unix-socket upstream; inside, the
/// transport is bound to `$transport`.
macro_rules! both_transports {
    ($name:ident, |$transport:ident| $body:block) => {
        mod $name {
            #[allow(unused_imports)] // reason: not every body uses every helper
            use super::*;

            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn tcp() {
                let $transport = Transport::Tcp;
                $body
            }

            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn unix() {
                let $transport = Transport::Unix;
                $body
            }
        }
    };
}
pub(crate) use both_transports;

/// A config with one upstream `app` at `server` and one route `/` to it. `server_extra` lines go
/// into `[server]`, `upstream_extra` lines into `[upstreams.app]`.
pub fn config(server: &str, server_extra: &str, upstream_extra: &str) -> String {
    format!(
        r#"
[server]
listen = ["127.0.0.1:0"]
shutdown_grace = "5s"
{server_extra}

[upstreams.app]
servers = ["{server}"]
{upstream_extra}

[[routes]]
path = "/"
upstream = "app"
"#
    )
}

/// An upstream and a gateway in front of it.
pub async fn start(
    transport: Transport,
    server_extra: &str,
    upstream_extra: &str,
) -> (UpstreamServer, TestGateway) {
    let upstream = UpstreamServer::start(transport).await;
    let gateway =
        TestGateway::start(&config(&upstream.address, server_extra, upstream_extra)).await;
    (upstream, gateway)
}
