//! TLS termination: `[tls]` into a rustls `ServerConfig` (certificates chosen by SNI, session
//! resumption by rotating tickets and a stateful cache), the handshake of an accepted connection
//! (with its time-out, and a plain answer to plain HTTP sent to the TLS port), and the handshake
//! counters for `/metrics`. The certificate files are checked by `config::certificate`.
//!
//! The crypto provider is ring: it builds without cmake or a C++ toolchain and its handshakes
//! cost about what aws-lc-rs's do for ECDSA P-256 (figures in docs/config.md).
//!
//! A reload builds a new [`Tls`] from the files on disk; connections already open keep the one
//! they were accepted with. The session cache, the ticket keys and the counters are carried over,
//! so clients keep resuming across reloads.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use rustls::server::{ClientHello, ResolvesServerCert, StoresServerSessions};
use rustls::sign::CertifiedKey;
use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::config::certificate::{check_certificate, Certificate, CertificateError};
use crate::config::{TlsConfig, TlsVersion};
use crate::error::PLAIN_HTTP_ON_TLS;

/// Picks the certificate by the client's SNI name: an exact name first, then a wildcard
/// (`*.example.com` covers one label), else the first certificate.
#[derive(Debug)]
struct Resolver {
    certificates: Vec<Certificate>,
}

impl Resolver {
    fn find(&self, server_name: Option<&str>) -> Option<&Certificate> {
        let chosen = server_name.and_then(|name| {
            let name = name.to_ascii_lowercase();
            let exact = self
                .certificates
                .iter()
                .find(|certificate| certificate.names.contains(&name));
            exact.or_else(|| {
                let (_, parent) = name.split_once('.')?;
                self.certificates.iter().find(|certificate| {
                    certificate
                        .names
                        .iter()
                        .any(|known| known.strip_prefix("*.") == Some(parent))
                })
            })
        });
        chosen.or_else(|| self.certificates.first())
    }
}

impl ResolvesServerCert for Resolver {
    fn resolve(&self, hello: ClientHello<'_>) -> Option<Arc<CertifiedKey>> {
        self.find(hello.server_name())
            .map(|certificate| Arc::clone(&certificate.certified))
    }
}

/// Why a handshake failed, as `/metrics` labels it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Failure {
    /// Not done within `handshake_timeout`.
    Timeout,
    /// Plain HTTP sent to the TLS port (answered with a 400).
    PlainHttp,
    /// No cipher suite, key exchange group or signature scheme in common.
    NoSharedCipher,
    /// No TLS version in common.
    ProtocolVersion,
    /// The client offered ALPN protocols, none of them weir's.
    NoApplicationProtocol,
    /// The client sent an alert (most often: it does not trust the certificate).
    AlertReceived,
    /// The client closed the connection during the handshake.
    ClientClosed,
    /// Anything else: malformed messages and the like.
    Other,
}

impl Failure {
    pub const ALL: [Failure; 8] = [
        Failure::Timeout,
        Failure::PlainHttp,
        Failure::NoSharedCipher,
        Failure::ProtocolVersion,
        Failure::NoApplicationProtocol,
        Failure::AlertReceived,
        Failure::ClientClosed,
        Failure::Other,
    ];

    pub fn label(self) -> &'static str {
        match self {
            Failure::Timeout => "timeout",
            Failure::PlainHttp => "plain_http",
            Failure::NoSharedCipher => "no_shared_cipher",
            Failure::ProtocolVersion => "protocol_version",
            Failure::NoApplicationProtocol => "no_application_protocol",
            Failure::AlertReceived => "alert_received",
            Failure::ClientClosed => "client_closed",
            Failure::Other => "other",
        }
    }

    fn of(error: &std::io::Error) -> Failure {
        use rustls::PeerIncompatible as P;
        let tls = error
            .get_ref()
            .and_then(|inner| inner.downcast_ref::<rustls::Error>());
        match tls {
            Some(rustls::Error::PeerIncompatible(
                P::NoCipherSuitesInCommon
                | P::NoKxGroupsInCommon
                | P::NoSignatureSchemesInCommon
                | P::NoEcPointFormatsInCommon,
            )) => Failure::NoSharedCipher,
            Some(rustls::Error::PeerIncompatible(
                P::ServerTlsVersionIsDisabledByOurConfig
                | P::SupportedVersionsExtensionRequired
                | P::Tls12NotOffered
                | P::Tls12NotOfferedOrEnabled,
            )) => Failure::ProtocolVersion,
            Some(rustls::Error::NoApplicationProtocol) => Failure::NoApplicationProtocol,
            Some(rustls::Error::AlertReceived(_)) => Failure::AlertReceived,
            Some(_) => Failure::Other,
            None => match error.kind() {
                std::io::ErrorKind::UnexpectedEof
                | std::io::ErrorKind::ConnectionReset
                | std::io::ErrorKind::BrokenPipe => Failure::ClientClosed,
                std::io::ErrorKind::TimedOut => Failure::Timeout,
                _ => Failure::Other,
            },
        }
    }
}

/// Handshake counters, kept across reloads.
#[derive(Debug, Default)]
pub struct TlsStats {
    /// Completed handshakes: TLS 1.2, TLS 1.3.
    handshakes: [AtomicU64; 2],
    /// Of them, resumed sessions.
    resumed: AtomicU64,
    failures: [AtomicU64; Failure::ALL.len()],
}

impl TlsStats {
    /// Completed handshakes by version label (`TLSv1.2`, `TLSv1.3`).
    pub fn handshakes(&self) -> [(&'static str, u64); 2] {
        [
            ("TLSv1.2", self.handshakes[0].load(Ordering::Relaxed)),
            ("TLSv1.3", self.handshakes[1].load(Ordering::Relaxed)),
        ]
    }

    pub fn resumed(&self) -> u64 {
        self.resumed.load(Ordering::Relaxed)
    }

    /// Failed handshakes by reason.
    pub fn failures(&self) -> Vec<(&'static str, u64)> {
        Failure::ALL
            .iter()
            .enumerate()
            .map(|(index, failure)| {
                (
                    failure.label(),
                    self.failures[index].load(Ordering::Relaxed),
                )
            })
            .collect()
    }

    fn failed(&self, failure: Failure) {
        let index = Failure::ALL
            .iter()
            .position(|known| *known == failure)
            .unwrap_or(Failure::ALL.len() - 1);
        self.failures[index].fetch_add(1, Ordering::Relaxed);
    }
}

/// What a request knows of its TLS connection, for the access log.
#[derive(Debug)]
pub struct TlsInfo {
    /// `TLSv1.2` or `TLSv1.3`.
    pub protocol: &'static str,
    /// The IANA name of the cipher suite, such as `TLS13_AES_128_GCM_SHA256`.
    pub cipher: &'static str,
    /// The SNI name the client sent, if any.
    pub server_name: Option<Box<str>>,
    /// Whether ALPN chose `h2`.
    pub h2: bool,
}

/// The TLS side of one config generation.
pub struct Tls {
    acceptor: tokio_rustls::TlsAcceptor,
    handshake_timeout: Duration,
    stats: Arc<TlsStats>,
    /// Kept to hand to the next generation.
    session_cache: Arc<dyn StoresServerSessions>,
    ticketer: Option<Arc<dyn rustls::server::ProducesTickets>>,
    config: TlsConfig,
}

/// The TLS config cannot be served.
#[derive(Debug, thiserror::Error)]
pub enum TlsError {
    #[error("{0}")]
    Certificate(#[from] CertificateError),
    #[error("TLS setup failed: {0}")]
    Rustls(#[from] rustls::Error),
}

impl Tls {
    /// Reads the certificates and builds the server config. `old`, the generation before a
    /// reload, gives its session cache, ticket keys and counters when the settings that shape
    /// them are the same.
    pub fn new(config: &TlsConfig, old: Option<&Tls>) -> Result<Tls, TlsError> {
        let certificates = config
            .certificates
            .iter()
            .map(check_certificate)
            .collect::<Result<Vec<_>, _>>()?;
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let versions: Vec<&'static rustls::SupportedProtocolVersion> = config
            .protocols
            .iter()
            .map(|version| match version {
                TlsVersion::Tls12 => &rustls::version::TLS12,
                TlsVersion::Tls13 => &rustls::version::TLS13,
            })
            .collect();
        let mut server = rustls::ServerConfig::builder_with_provider(provider)
            .with_protocol_versions(&versions)?
            .with_no_client_auth()
            .with_cert_resolver(Arc::new(Resolver { certificates }));
        server.alpn_protocols = config.alpn.iter().map(|alpn| alpn.id().to_vec()).collect();
        let same_cache = old.filter(|old| old.config.session_cache == config.session_cache);
        let session_cache: Arc<dyn StoresServerSessions> = match same_cache {
            Some(old) => Arc::clone(&old.session_cache),
            None if config.session_cache == 0 => {
                Arc::new(rustls::server::NoServerSessionStorage {})
            }
            None => rustls::server::ServerSessionMemoryCache::new(config.session_cache),
        };
        server.session_storage = Arc::clone(&session_cache);
        let ticketer = if config.session_tickets {
            match old.and_then(|old| old.ticketer.clone()) {
                Some(ticketer) => Some(ticketer),
                None => Some(rustls::crypto::ring::Ticketer::new()?),
            }
        } else {
            None
        };
        if let Some(ticketer) = &ticketer {
            server.ticketer = Arc::clone(ticketer);
        }
        Ok(Tls {
            acceptor: tokio_rustls::TlsAcceptor::from(Arc::new(server)),
            handshake_timeout: config.handshake_timeout,
            stats: old.map_or_else(Arc::default, |old| Arc::clone(&old.stats)),
            session_cache,
            ticketer,
            config: config.clone(),
        })
    }

    pub fn stats(&self) -> &Arc<TlsStats> {
        &self.stats
    }

    /// Runs the handshake on an accepted connection, within `handshake_timeout`. Plain HTTP is
    /// answered with a 400 and closed, as nginx does. `wrap` puts the write time-out around the
    /// socket once it is known to speak TLS. Failures are counted and end in `None`.
    pub async fn accept<IO, W>(
        &self,
        stream: TcpStream,
        wrap: W,
    ) -> Option<(tokio_rustls::server::TlsStream<IO>, Arc<TlsInfo>)>
    where
        IO: AsyncRead + AsyncWrite + Unpin,
        W: FnOnce(TcpStream) -> IO,
    {
        let handshake = async {
            let mut first = [0u8; 1];
            match stream.peek(&mut first).await {
                Ok(0) | Err(_) => return Err(Failure::ClientClosed),
                // A TLS record starts with its content type, 22 for a handshake; a request line
                // starts with a method in capitals.
                Ok(_) if first[0].is_ascii_uppercase() => {
                    let mut stream = stream;
                    let _ = stream.write_all(PLAIN_HTTP_ON_TLS).await;
                    let _ = stream.shutdown().await;
                    return Err(Failure::PlainHttp);
                }
                Ok(_) => {}
            }
            self.acceptor
                .accept(wrap(stream))
                .await
                .map_err(|error| Failure::of(&error))
        };
        let result = match tokio::time::timeout(self.handshake_timeout, handshake).await {
            Ok(result) => result,
            Err(_) => Err(Failure::Timeout),
        };
        match result {
            Ok(stream) => {
                let connection = stream.get_ref().1;
                let protocol = match connection.protocol_version() {
                    Some(rustls::ProtocolVersion::TLSv1_2) => {
                        self.stats.handshakes[0].fetch_add(1, Ordering::Relaxed);
                        "TLSv1.2"
                    }
                    _ => {
                        self.stats.handshakes[1].fetch_add(1, Ordering::Relaxed);
                        "TLSv1.3"
                    }
                };
                if matches!(
                    connection.handshake_kind(),
                    Some(rustls::HandshakeKind::Resumed)
                ) {
                    self.stats.resumed.fetch_add(1, Ordering::Relaxed);
                }
                let info = TlsInfo {
                    protocol,
                    cipher: connection
                        .negotiated_cipher_suite()
                        .and_then(|suite| suite.suite().as_str())
                        .unwrap_or("unknown"),
                    server_name: connection.server_name().map(Box::from),
                    h2: connection.alpn_protocol() == Some(b"h2"),
                };
                Some((stream, Arc::new(info)))
            }
            Err(failure) => {
                tracing::debug!(reason = failure.label(), "TLS handshake failed");
                self.stats.failed(failure);
                None
            }
        }
    }
}

#[cfg(test)]
mod tests;
