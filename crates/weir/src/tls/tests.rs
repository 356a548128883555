use std::path::{Path, PathBuf};

use super::*;
use crate::config::certificate::unix_now;
use crate::config::CertificateConfig;

/// A CA, an intermediate it signed, and a leaf for `names` signed by the intermediate, written
/// as PEM files in `dir`; returns (full chain path, key path).
fn write_chain(dir: &Path, names: &[&str], chain_in_order: bool) -> (PathBuf, PathBuf) {
    let ca_key = rcgen::KeyPair::generate().unwrap();
    let mut ca_params = rcgen::CertificateParams::new(Vec::<String>::new()).unwrap();
    ca_params.is_ca = rcgen::IsCa::Ca(rcgen::BasicConstraints::Unconstrained);
    ca_params
        .distinguished_name
        .push(rcgen::DnType::CommonName, "test CA");
    let ca = ca_params.self_signed(&ca_key).unwrap();
    let ca_issuer = rcgen::Issuer::new(ca_params, ca_key);
    let mid_key = rcgen::KeyPair::generate().unwrap();
    let mut mid_params = rcgen::CertificateParams::new(Vec::<String>::new()).unwrap();
    mid_params.is_ca = rcgen::IsCa::Ca(rcgen::BasicConstraints::Unconstrained);
    mid_params
        .distinguished_name
        .push(rcgen::DnType::CommonName, "test intermediate");
    let mid = mid_params.signed_by(&mid_key, &ca_issuer).unwrap();
    let mid_issuer = rcgen::Issuer::new(mid_params, mid_key);
    let leaf_key = rcgen::KeyPair::generate().unwrap();
    let leaf_params = rcgen::CertificateParams::new(
        names
            .iter()
            .map(|name| name.to_string())
            .collect::<Vec<_>>(),
    )
    .unwrap();
    let leaf = leaf_params.signed_by(&leaf_key, &mid_issuer).unwrap();
    let chain = if chain_in_order {
        format!("{}{}", leaf.pem(), mid.pem())
    } else {
        format!("{}{}", leaf.pem(), ca.pem())
    };
    let cert = dir.join(format!("{}.pem", names[0].replace('*', "star")));
    let key = dir.join(format!("{}.key", names[0].replace('*', "star")));
    std::fs::write(&cert, chain).unwrap();
    std::fs::write(&key, leaf_key.serialize_pem()).unwrap();
    (cert, key)
}

fn config(cert: PathBuf, key: PathBuf) -> CertificateConfig {
    CertificateConfig { cert, key }
}

#[test]
fn a_chain_in_order_with_its_key_passes_and_gives_its_names() {
    let dir = tempfile::tempdir().unwrap();
    let (cert, key) = write_chain(dir.path(), &["Example.test", "www.example.test"], true);
    let checked = check_certificate(&config(cert, key)).unwrap();
    assert_eq!(checked.names, ["example.test", "www.example.test"]);
    assert!(checked.not_after > unix_now());
}

#[test]
fn a_chain_out_of_order_is_refused_naming_the_cert_file() {
    let dir = tempfile::tempdir().unwrap();
    let (cert, key) = write_chain(dir.path(), &["example.test"], false);
    let error = check_certificate(&config(cert.clone(), key)).unwrap_err();
    assert_eq!(error.key(), "cert");
    let message = error.to_string();
    assert!(message.contains(&cert.display().to_string()), "{message}");
    assert!(message.contains("chain out of order"), "{message}");
}

#[test]
fn a_key_of_another_certificate_is_refused_naming_the_key_file() {
    let dir = tempfile::tempdir().unwrap();
    let (cert, _) = write_chain(dir.path(), &["a.test"], true);
    let (_, other_key) = write_chain(dir.path(), &["b.test"], true);
    let error = check_certificate(&config(cert, other_key.clone())).unwrap_err();
    assert_eq!(error.key(), "key");
    assert!(error.to_string().contains(&other_key.display().to_string()));
    assert!(error.to_string().contains("does not belong"), "{error}");
}

#[test]
fn a_missing_or_empty_file_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let (cert, key) = write_chain(dir.path(), &["a.test"], true);
    let missing = dir.path().join("missing.pem");
    let error = check_certificate(&config(missing.clone(), key.clone())).unwrap_err();
    assert!(matches!(error, CertificateError::Read { .. }), "{error}");
    assert!(error.to_string().contains("missing.pem"));
    let empty = dir.path().join("empty.pem");
    std::fs::write(&empty, "").unwrap();
    let error = check_certificate(&config(empty, key)).unwrap_err();
    assert!(error.to_string().contains("no CERTIFICATE"), "{error}");
    let error = check_certificate(&config(cert.clone(), cert)).unwrap_err();
    assert_eq!(error.key(), "key");
}

#[test]
fn the_resolver_picks_by_exact_name_then_wildcard_then_the_first() {
    let dir = tempfile::tempdir().unwrap();
    let certificates: Vec<Certificate> = [&["default.test"][..], &["api.test"], &["*.apps.test"]]
        .iter()
        .map(|names| {
            let (cert, key) = write_chain(dir.path(), names, true);
            check_certificate(&config(cert, key)).unwrap()
        })
        .collect();
    let resolver = Resolver { certificates };
    let chosen = |name: Option<&str>| resolver.find(name).unwrap().names[0].clone();
    assert_eq!(chosen(Some("API.test")), "api.test");
    assert_eq!(chosen(Some("one.apps.test")), "*.apps.test");
    // A wildcard covers one label only.
    assert_eq!(chosen(Some("a.b.apps.test")), "default.test");
    assert_eq!(chosen(Some("unknown.test")), "default.test");
    assert_eq!(chosen(None), "default.test");
}
