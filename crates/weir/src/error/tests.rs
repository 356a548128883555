//! The answers built here: each error's status, and the headers some of them carry.

use http::header::{ALLOW, CONTENT_TYPE, RETRY_AFTER};
use http::HeaderName;

use super::*;

#[test]
fn each_codec_refusal_has_the_status_nginx_gives() {
    let cases = [
        (CodecError::Malformed("request line"), 400),
        (CodecError::UnknownCoding, 501),
        (CodecError::HeadTimeout, 408),
        (CodecError::UriTooLong, 414),
        (CodecError::HeadTooLarge, 431),
        (CodecError::Version, 505),
    ];
    for (codec, status) in cases {
        let error = ProxyError::Codec(codec);
        assert_eq!(error.status().as_u16(), status, "{codec:?}");
        assert_eq!(error.side(), Side::Downstream, "{codec:?}");
        assert_eq!(error.into_response().status().as_u16(), status, "{codec:?}");
    }
    // A head that never arrived whole is closed without an answer.
    assert!(!CodecError::HeadTimeout.is_answered());
    assert!(CodecError::HeadTooLarge.is_answered());
}

#[test]
fn a_rejection_is_answered_with_its_limits_status_and_headers() {
    let ratelimit = HeaderName::from_static("ratelimit");
    let rejection = || {
        let mut lines = HeadLines::labelled("api");
        lines.push(&RETRY_AFTER, &[b"2"]);
        lines.push_lines(&[b"ratelimit: \"api\";r=", b"0", b";t=2\r\n"]);
        ProxyError::RateLimited {
            status: StatusCode::SERVICE_UNAVAILABLE,
            lines,
        }
    };
    let error = rejection();
    assert_eq!(error.to_string(), "rate limited by api");
    assert_eq!(error.side(), Side::Downstream);
    assert_eq!(error.cause(), "rate_limited");
    // As a map (HTTP/2, an answer that header rules edit).
    let response = error.into_response().into_http();
    assert_eq!(response.status(), StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(response.headers()[RETRY_AFTER], "2");
    assert_eq!(response.headers()[&ratelimit], "\"api\";r=0;t=2");
    assert_eq!(
        response.headers()[CONTENT_TYPE],
        "text/plain; charset=utf-8"
    );
    // As lines (HTTP/1): the map holds nothing, the lines everything, `Content-Type` too.
    let (response, lines) = rejection().into_answer();
    assert_eq!(response.status(), StatusCode::SERVICE_UNAVAILABLE);
    assert!(response.headers().is_empty());
    assert_eq!(response.body().as_ref(), b"503 Service Unavailable\n");
    let lines = lines.expect("a rejection's answer keeps its lines");
    assert_eq!(
        lines.as_bytes(),
        b"retry-after: 2\r\nratelimit: \"api\";r=0;t=2\r\ncontent-type: text/plain; charset=utf-8\r\n"
    );
    // Any other error has no lines.
    let (response, lines) = ProxyError::NoRoute.into_answer();
    assert_eq!(response.status(), StatusCode::NOT_FOUND);
    assert!(lines.is_none());
}

/// Lines read back as the fields they were written as, a tab inside a value kept.
#[test]
fn head_lines_read_back_as_their_fields() {
    let mut lines = HeadLines::new();
    lines.push(&RETRY_AFTER, &[b"7"]);
    lines.push(&HeaderName::from_static("x-tab"), &[b"a\tb"]);
    assert_eq!(lines.as_bytes(), b"retry-after: 7\r\nx-tab: a\tb\r\n");
    let fields: Vec<_> = lines.fields().collect();
    assert_eq!(
        fields,
        [
            (&b"retry-after"[..], &b"7"[..]),
            (&b"x-tab"[..], &b"a\tb"[..])
        ]
    );
}

/// Lines written whole are checked as lines in debug builds: a line break inside a value
/// would make another header.
#[test]
#[should_panic(expected = "not header lines")]
fn whole_lines_with_a_line_break_in_a_value_are_caught_in_debug_builds() {
    let mut lines = HeadLines::new();
    lines.push_lines(&[b"ratelimit: \"a\nx-injected: 1\";r=0\r\n"]);
}

/// A value byte that could not stand in a header (a line break would make another header) is
/// a bug of the caller's: debug builds stop on it.
#[test]
#[should_panic(expected = "control character")]
fn a_line_break_in_a_head_line_is_caught_in_debug_builds() {
    let mut lines = HeadLines::new();
    lines.push(
        &HeaderName::from_static("ratelimit"),
        &[b"\"a\r\nx-injected: 1\";r=0"],
    );
}

#[test]
fn a_method_a_static_route_does_not_answer_is_405_with_allow() {
    let response = ProxyError::MethodNotAllowed {
        allow: "GET, HEAD".into(),
    }
    .into_response()
    .into_http();
    assert_eq!(response.status(), StatusCode::METHOD_NOT_ALLOWED);
    assert_eq!(response.headers()[ALLOW], "GET, HEAD");
}

#[test]
fn file_errors_are_mapped_as_nginx_maps_them() {
    let cases = [
        (
            io::Error::from(io::ErrorKind::NotFound),
            404,
            Side::Downstream,
        ),
        (
            io::Error::from_raw_os_error(ENAMETOOLONG),
            404,
            Side::Downstream,
        ),
        (
            io::Error::from(io::ErrorKind::PermissionDenied),
            403,
            Side::Downstream,
        ),
        (io::Error::from_raw_os_error(ELOOP), 403, Side::Downstream),
        (io::Error::other("disk on fire"), 500, Side::Internal),
    ];
    for (source, status, side) in cases {
        let error = ProxyError::File { source };
        assert_eq!(error.status().as_u16(), status, "{error}");
        assert_eq!(error.side(), side, "{error}");
    }
}
