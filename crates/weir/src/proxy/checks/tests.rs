//! Unit tests of the request checks that need no gateway: the request's host.

use super::*;
use http::header::HOST;

fn request(target: &str, hosts: &[&str]) -> Request<()> {
    let mut builder = http::Request::builder()
        .uri(target)
        .version(Version::HTTP_11);
    for host in hosts {
        builder = builder.header(HOST, *host);
    }
    Request::from_http(builder.body(()).expect("a valid test request"))
}

#[test]
fn the_host_comes_from_one_valid_host_header_or_the_targets_authority() {
    assert_eq!(
        request_host(&request("/", &["a.example"])).ok(),
        Some(Some("a.example"))
    );
    assert_eq!(
        request_host(&request("http://t.example:8080/x", &["a.example"])).ok(),
        Some(Some("t.example:8080"))
    );
    assert!(request_host(&request("/", &["a.example", "b.example"])).is_err());
    assert!(request_host(&request("/", &["a.example/evil"])).is_err());
    assert!(request_host(&request("/", &[])).is_err());
}

/// Found by the `host` fuzz target: the authority of an absolute-form target was taken as it
/// came, userinfo included, so `GET http://user:pass@evil.example/` sent the app
/// `Host: user:pass@evil.example` (and routed by `user`). RFC 9110 §4.2.4: a recipient treats
/// userinfo in an http(s) URI as an error. The authority is now held to what a `Host` may be.
#[test]
fn an_absolute_target_with_userinfo_or_a_bad_authority_is_refused() {
    for target in [
        "http://user:pass@evil.example/x",
        "http://user@evil.example/x",
        "http://@evil.example/x",
    ] {
        let request = request(target, &["example.com"]);
        let result = request_host(&request);
        assert!(result.is_err(), "{target}: {result:?}");
    }
}

/// Found by the `host` fuzz target: `[` and `]` belong to an IP literal only, but a registered
/// name holding them (`examp]e.com`) passed as a valid `Host`.
#[test]
fn brackets_outside_an_ip_literal_make_an_invalid_host() {
    for host in ["examp]e.com", "a[b", "a.example]", "a]:80"] {
        let request = request("/", &[host]);
        let result = request_host(&request);
        assert!(result.is_err(), "{host}: {result:?}");
    }
    let request = request("/", &["[::1]:8080"]);
    assert_eq!(request_host(&request).ok(), Some(Some("[::1]:8080")));
}

/// The check as it was before it became one pass (f2b309b), kept as the reference the one-pass
/// check must agree with.
fn is_valid_host_before(host: &str) -> bool {
    let (name, port) = if let Some(literal) = host.strip_prefix('[') {
        let Some(end) = literal.find(']') else {
            return false;
        };
        let inside = &literal[..end];
        if inside.is_empty()
            || !inside
                .bytes()
                .all(|byte| byte.is_ascii_hexdigit() || matches!(byte, b':' | b'.'))
        {
            return false;
        }
        ("[]", &literal[end + 1..])
    } else {
        // Brackets belong to an IP literal only (the "[]" above stands for one below).
        if host.contains(['[', ']']) {
            return false;
        }
        match host.find(':') {
            Some(colon) => (&host[..colon], &host[colon..]),
            None => (host, ""),
        }
    };
    let port_ok = match port.strip_prefix(':') {
        Some(digits) => digits.len() <= 5 && digits.bytes().all(|byte| byte.is_ascii_digit()),
        None => port.is_empty(),
    };
    !name.is_empty()
        && port_ok
        && name.bytes().all(|byte| {
            byte.is_ascii_alphanumeric()
                || matches!(
                    byte,
                    b'-' | b'.'
                        | b'_'
                        | b'~'
                        | b'!'
                        | b'$'
                        | b'&'
                        | b'\''
                        | b'('
                        | b')'
                        | b'*'
                        | b'+'
                        | b','
                        | b';'
                        | b'='
                        | b'%'
                        | b'['
                        | b']'
                )
        })
}

/// The one-pass host check answers as the check before it did, on every string of up to six
/// bytes drawn from the characters that matter to it (and a few it must refuse), and on longer
/// strings drawn the same way.
#[test]
fn the_one_pass_host_check_agrees_with_the_check_before_it() {
    const ALPHABET: &[u8] = b"a9.-_[]:%/@ ";
    let mut checked = 0;
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    for length in 0..=12usize {
        let count = if length <= 4 {
            ALPHABET.len().pow(length as u32)
        } else {
            20_000
        };
        for index in 0..count {
            let mut bytes = Vec::with_capacity(length);
            for position in 0..length {
                let pick = if length <= 4 {
                    index / ALPHABET.len().pow(position as u32) % ALPHABET.len()
                } else {
                    state = state
                        .wrapping_mul(6_364_136_223_846_793_005)
                        .wrapping_add(1);
                    (state >> 33) as usize % ALPHABET.len()
                };
                bytes.push(ALPHABET[pick]);
            }
            let Ok(host) = std::str::from_utf8(&bytes) else {
                continue;
            };
            assert_eq!(
                is_valid_host(host.as_bytes()),
                is_valid_host_before(host),
                "{host:?}"
            );
            checked += 1;
        }
    }
    for host in [
        "[::1]:8080",
        "example.com:443",
        "a:",
        "[]",
        "[::1",
        "a:123456",
        "127.0.0.1",
    ] {
        assert_eq!(
            is_valid_host(host.as_bytes()),
            is_valid_host_before(host),
            "{host:?}"
        );
    }
    assert!(checked > 100_000, "{checked}");
}

/// `valid_host_str` types a valid host as text without a UTF-8 check: sound only while every
/// byte a name may hold is ASCII.
#[test]
fn the_name_table_holds_ascii_only() {
    for byte in 0..=u8::MAX {
        assert!(
            !NAME_BYTES[usize::from(byte)] || byte.is_ascii(),
            "{byte:#x} is a name byte"
        );
    }
    assert_eq!(valid_host_str(b"a.example:80"), Some("a.example:80"));
    assert_eq!(valid_host_str("\u{e9}.example".as_bytes()), None);
}
