//! The checks a certificate and its key pass before weir serves them (`[[tls.certificates]]`):
//! made by [`crate::config::load`], so an unusable file is a config error that names it, by
//! `weir check` (expiry warnings), and by the TLS setup of each generation, which serves the
//! checked chain. They live with the config, below every feature: reading the files needs
//! rustls' key types and x509-parser, but nothing of the gateway.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use rustls::sign::CertifiedKey;

use crate::config::{CertificateConfig, TlsConfig};

/// A certificate that expires within this is reported by `weir check`.
pub const EXPIRY_WARNING: Duration = Duration::from_secs(14 * 24 * 3600);

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

/// The clock's Unix seconds (0 before 1970).
pub(crate) fn unix_now() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |since| since.as_secs() as i64)
}
