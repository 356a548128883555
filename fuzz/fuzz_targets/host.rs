//! The request's host: `weir::proxy::request_host` (RFC 9112 section 3.2), which routing reads and
//! the upstream receives as `Host`.
//!
//! Input: the HTTP version (`1.0` or `1.1`) on the first line, the request target on the second,
//! then one `Host` header value a line.
//!
//! Properties:
//! - more than one `Host` is refused; an HTTP/1.1 request with no host at all is refused;
//! - a host accepted is the target's authority when it has one, else the `Host` value, and is a
//!   `uri-host [":" port]` of RFC 9110 section 7.2: no userinfo (`@`), no path, query or fragment
//!   character, no space or control character, a port of digits only; so neither the routing nor
//!   the app behind can be handed something that is not a host;
//! - a route for `example.com` matches exactly the hosts whose name (the part before the port,
//!   less one trailing dot: `example.com.` is the fully qualified name, as nginx reads it) is
//!   `example.com` in any case.
#![no_main]

#[path = "common.rs"]
mod common;

use http::header::HOST;
use http::{Request, Version};
use libfuzzer_sys::fuzz_target;
use weir::proxy::request_host;
use weir::routing::{Entry, Listener, Listeners, Lookup, PathMatch, Router};

fuzz_target!(|data: &[u8]| {
    let lines = common::lines(data);
    let [version, target, host_lines @ ..] = lines.as_slice() else {
        return;
    };
    let version = match *version {
        b"1.0" => Version::HTTP_10,
        b"1.1" => Version::HTTP_11,
        _ => return,
    };
    let Ok(mut request) = Request::builder().uri(*target).version(version).body(()) else {
        return;
    };
    *request.headers_mut() = common::values_of(&HOST, host_lines.iter().copied());
    let request = weir::head_view::Request::from_http(request);
    let hosts = request.headers().get_all(HOST).count();
    let authority = request
        .uri()
        .authority()
        .map(|authority| authority.as_str());

    let host = match request_host(&request) {
        Err(_) => return,
        Ok(host) => host,
    };
    assert!(hosts <= 1, "{hosts} Host headers accepted: {request:?}");
    let Some(host) = host else {
        assert!(
            authority.is_none() && hosts == 0 && version == Version::HTTP_10,
            "no host for {request:?}"
        );
        return;
    };
    match authority {
        Some(authority) => assert_eq!(host, authority, "{request:?}"),
        None => assert_eq!(
            host.as_bytes(),
            request.headers().get(HOST).unwrap_or_default(),
            "{request:?}"
        ),
    }
    let name = host_name(host).unwrap_or_else(|| panic!("{host:?} is not uri-host [:port]"));

    let router = Router::new([Entry {
        host: Some("example.com".to_string()),
        listeners: Listeners::Any,
        path: PathMatch::Prefix("/".to_string()),
        internal: false,
        slash_redirect: false,
        target: (),
    }]);
    let lookup = Lookup {
        listener: Listener {
            addr: std::net::SocketAddr::from(([127, 0, 0, 1], 80)),
            tls: false,
            port: 80,
        },
        host: Some(host),
        path: "/",
        internal: false,
    };
    let name = name.strip_suffix('.').unwrap_or(name);
    assert_eq!(
        router.find(&lookup).is_some(),
        name.eq_ignore_ascii_case("example.com"),
        "{host:?}"
    );
});

/// The name part of `uri-host [":" port]`, or `None` when `text` is not of that form: an IP
/// literal in brackets, or a reg-name / IPv4 of unreserved characters, sub-delimiters and
/// escapes; then a port of at most five digits.
fn host_name(text: &str) -> Option<&str> {
    let (name, port) = if text.starts_with('[') {
        let end = text.find(']')?;
        let inside = &text[1..end];
        let literal_ok = !inside.is_empty()
            && inside
                .bytes()
                .all(|byte| byte.is_ascii_hexdigit() || byte == b':' || byte == b'.');
        literal_ok.then_some(())?;
        (&text[..=end], &text[end + 1..])
    } else {
        match text.find(':') {
            Some(colon) => (&text[..colon], &text[colon..]),
            None => (text, ""),
        }
    };
    let name_ok = !name.is_empty()
        && (name.starts_with('[')
            || name
                .bytes()
                .all(|byte| byte.is_ascii_alphanumeric() || b"-._~!$&'()*+,;=%".contains(&byte)));
    let port_ok = match port.strip_prefix(':') {
        Some(digits) => digits.len() <= 5 && digits.bytes().all(|byte| byte.is_ascii_digit()),
        None => port.is_empty(),
    };
    (name_ok && port_ok).then_some(name)
}
