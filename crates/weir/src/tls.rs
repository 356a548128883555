//! TLS termination: `[tls]` into a rustls `ServerConfig` (certificates chosen by SNI, session
//! resumption by rotating tickets and a stateful cache), the handshake of an accepted connection
//! (with its time-out, and a plain answer to plain HTTP sent to the TLS port), the checks
//! `weir check` makes on certificate files, and the handshake counters for `/metrics`.
//!
//! The crypto provider is ring: it builds without cmake or a C++ toolchain and its handshakes
//! cost about what aws-lc-rs's do for ECDSA P-256 (figures in docs/config.md).
//!
//! A reload builds a new [`Tls`] from the files on disk; connections already open keep the one
//! they were accepted with. The session cache, the ticket keys and the counters are carried over,
//! so clients keep resuming across reloads.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use rustls::server::{ClientHello, ResolvesServerCert, StoresServerSessions};
use rustls::sign::CertifiedKey;
use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::config::{CertificateConfig, TlsConfig, TlsVersion};

/// A certificate that expires within this is reported by `weir check`.
pub const EXPIRY_WARNING: Duration = Duration::from_secs(14 * 24 * 3600);

/// What nginx answers to plain HTTP on an HTTPS port (its 497), as a 400 with a short body.
const PLAIN_HTTP_ANSWER: &[u8] = b"HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain\r\nContent-Length: 48\r\nConnection: close\r\n\r\nThe plain HTTP request was sent to an HTTPS port";

/// A certificate or key that cannot be served, naming the file.
#[derive(Debug, thiserror::Error)]
pub enum CertificateError {
    #[error("cannot read {path}: {source}")]
    Read {
        path: PathBuf,
        key: bool,
        source: std::io::Error,
    },
    #[error("{path}: {message}")]
    Invalid {
        path: PathBuf,
        key: bool,
        message: String,
    },
}

impl CertificateError {
    /// The config key of the file at fault: `cert` or `key`.
    pub fn key(&self) -> &'static str {
        let key = match self {
            CertificateError::Read { key, .. } | CertificateError::Invalid { key, .. } => *key,
        };
        if key {
            "key"
        } else {
            "cert"
        }
    }

    fn cert(path: &Path, message: impl Into<String>) -> CertificateError {
        CertificateError::Invalid {
            path: path.to_path_buf(),
            key: false,
            message: message.into(),
        }
    }
}

/// A certificate chain and key that passed [`check_certificate`].
#[derive(Debug)]
pub struct Certificate {
    pub certified: Arc<CertifiedKey>,
    /// The DNS names the leaf is for (its subjectAltName, or its common name when it has none),
    /// lower case.
    pub names: Vec<String>,
    /// The leaf's `notAfter`, in Unix seconds.
    pub not_after: i64,
}

/// Reads and checks one `[[tls.certificates]]`: both files readable PEM, the key the leaf's,
/// each certificate of the chain issued by the next one (leaf first), the leaf not expired.
pub fn check_certificate(config: &CertificateConfig) -> Result<Certificate, CertificateError> {
    let cert_bytes = std::fs::read(&config.cert).map_err(|source| CertificateError::Read {
        path: config.cert.clone(),
        key: false,
        source,
    })?;
    let chain: Vec<CertificateDer<'static>> = CertificateDer::pem_slice_iter(&cert_bytes)
        .collect::<Result<_, _>>()
        .map_err(|error| CertificateError::cert(&config.cert, format!("not PEM: {error}")))?;
    if chain.is_empty() {
        return Err(CertificateError::cert(
            &config.cert,
            "holds no CERTIFICATE block; expected PEM such as certbot's fullchain.pem",
        ));
    }
    let key_bytes = std::fs::read(&config.key).map_err(|source| CertificateError::Read {
        path: config.key.clone(),
        key: true,
        source,
    })?;
    let key_error = |message: String| CertificateError::Invalid {
        path: config.key.clone(),
        key: true,
        message,
    };
    let key = PrivateKeyDer::from_pem_slice(&key_bytes)
        .map_err(|error| key_error(format!("holds no private key in PEM: {error}")))?;
    let signing_key = rustls::crypto::ring::sign::any_supported_type(&key)
        .map_err(|error| key_error(format!("unusable private key: {error}")))?;

    let parsed: Vec<x509_parser::certificate::X509Certificate<'_>> = chain
        .iter()
        .enumerate()
        .map(|(index, der)| {
            x509_parser::parse_x509_certificate(der)
                .map(|(_, certificate)| certificate)
                .map_err(|error| {
                    CertificateError::cert(
                        &config.cert,
                        format!("certificate {} is not valid X.509: {error}", index + 1),
                    )
                })
        })
        .collect::<Result<_, _>>()?;
    for (index, pair) in parsed.windows(2).enumerate() {
        if pair[0].issuer().as_raw() != pair[1].subject().as_raw() {
            return Err(CertificateError::cert(
                &config.cert,
                format!(
                    "chain out of order: certificate {} (\"{}\") is not issued by certificate {} (\"{}\"); put the leaf first, then each issuer",
                    index + 1,
                    pair[0].subject(),
                    index + 2,
                    pair[1].subject()
                ),
            ));
        }
    }
    let leaf = &parsed[0];
    let certified = CertifiedKey::new(chain.clone(), signing_key);
    if certified.keys_match().is_err() {
        return Err(key_error(format!(
            "this key does not belong to the certificate in {}",
            config.cert.display()
        )));
    }
    let not_after = leaf.validity().not_after.timestamp();
    let now = unix_now();
    if not_after < now {
        return Err(CertificateError::cert(
            &config.cert,
            format!(
                "the certificate for \"{}\" expired on {}",
                leaf.subject(),
                leaf.validity().not_after
            ),
        ));
    }
    let mut names: Vec<String> = match leaf.subject_alternative_name() {
        Ok(Some(extension)) => extension
            .value
            .general_names
            .iter()
            .filter_map(|name| match name {
                x509_parser::extensions::GeneralName::DNSName(name) => {
                    Some(name.to_ascii_lowercase())
                }
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    };
    if names.is_empty() {
        names.extend(
            leaf.subject()
                .iter_common_name()
                .filter_map(|name| name.as_str().ok())
                .map(str::to_ascii_lowercase),
        );
    }
    Ok(Certificate {
        certified: Arc::new(certified),
        names,
        not_after,
    })
}

/// One line per certificate of `config` that expires within [`EXPIRY_WARNING`], naming the file,
/// for `weir check`. Certificates that fail [`check_certificate`] are the loader's business.
pub fn expiry_warnings(config: &TlsConfig) -> Vec<String> {
    let now = unix_now();
    config
        .certificates
        .iter()
        .filter_map(|certificate| {
            let checked = check_certificate(certificate).ok()?;
            let left = checked.not_after - now;
            (left < EXPIRY_WARNING.as_secs() as i64).then(|| {
                format!(
                    "{}: the certificate for {} expires in {} days",
                    certificate.cert.display(),
                    checked.names.join(", "),
                    left / 86_400
                )
            })
        })
        .collect()
}

fn unix_now() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |since| since.as_secs() as i64)
}

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
    /// The HTTP/2 server settings of this generation.
    pub(crate) http2: crate::http2::Settings,
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
            http2: crate::http2::Settings::from_config(config),
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
                    let _ = stream.write_all(PLAIN_HTTP_ANSWER).await;
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
