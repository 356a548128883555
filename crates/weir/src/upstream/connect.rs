//! Opening a connection to an upstream server over TCP or a Unix socket. The connection's I/O is
//! wrapped so that a write that makes no progress for `send_timeout` fails, as nginx's
//! `proxy_send_timeout`.

use std::time::Duration;

use tokio::net::{TcpStream, UnixStream};

use crate::config::UpstreamAddr;
use crate::error::ProxyError;
use crate::upstream::client::ClientConn;
use crate::upstream::stream::Stream;
use crate::write_timeout::WriteTimeout;

/// Connects to `addr` within `connect_timeout`.
pub async fn connect(
    addr: &UpstreamAddr,
    connect_timeout: Duration,
    send_timeout: Duration,
) -> Result<ClientConn, ProxyError> {
    let connecting = async {
        match addr {
            UpstreamAddr::Tcp(socket_addr) => {
                let stream = TcpStream::connect(socket_addr).await?;
                stream.set_nodelay(true)?;
                Ok(Stream::Tcp(stream))
            }
            UpstreamAddr::Unix(path) => UnixStream::connect(path).await.map(Stream::Unix),
        }
    };
    let stream = match tokio::time::timeout(connect_timeout, connecting).await {
        Ok(Ok(stream)) => stream,
        Ok(Err(source)) => {
            return Err(ProxyError::Connect {
                addr: addr.clone(),
                source,
            })
        }
        Err(_) => return Err(ProxyError::ConnectTimeout { addr: addr.clone() }),
    };
    Ok(ClientConn::new(WriteTimeout::new(
        stream,
        send_timeout,
        "upstream did not take the request within send_timeout",
    )))
}
