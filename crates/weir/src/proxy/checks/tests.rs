//! Unit tests of the request checks that need no gateway: the request's host.

use http::header::HOST;
use http::{Request, Version};

use super::*;

fn request(target: &str, hosts: &[&str]) -> Request<()> {
    let mut builder = Request::builder().uri(target).version(Version::HTTP_11);
    for host in hosts {
        builder = builder.header(HOST, *host);
    }
    builder.body(()).expect("a valid test request")
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
