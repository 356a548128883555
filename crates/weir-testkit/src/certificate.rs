//! A self-signed certificate for tests that run real servers (nginx, weir) over TLS, made with the
//! `openssl` command as the machine has it (`scripts/setup` installs it); the tests' clients do
//! not check it.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Writes `cert.pem` and `key.pem` (RSA 2048, two days, `CN=common_name`) under `dir` and
/// returns their paths, certificate first. Panics when `openssl` fails: a test cannot go on.
pub fn self_signed(dir: &Path, common_name: &str) -> (PathBuf, PathBuf) {
    let cert = dir.join("cert.pem");
    let key = dir.join("key.pem");
    let openssl = Command::new("openssl")
        .args([
            "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj",
        ])
        .arg(format!("/CN={common_name}"))
        .arg("-keyout")
        .arg(&key)
        .arg("-out")
        .arg(&cert)
        .output()
        .expect("openssl");
    assert!(openssl.status.success(), "{openssl:?}");
    (cert, key)
}
