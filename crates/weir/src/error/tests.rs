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
    let mut headers = HeaderMap::new();
    headers.insert(RETRY_AFTER, HeaderValue::from_static("2"));
    headers.insert(&ratelimit, HeaderValue::from_static("\"api\";r=0;t=2"));
    let error = ProxyError::RateLimited {
        limit: "api".into(),
        status: StatusCode::SERVICE_UNAVAILABLE,
        headers,
    };
    assert_eq!(error.side(), Side::Downstream);
    assert_eq!(error.cause(), "rate_limited");
    let response = error.into_response();
    assert_eq!(response.status(), StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(response.headers()[RETRY_AFTER], "2");
    assert_eq!(response.headers()[&ratelimit], "\"api\";r=0;t=2");
    assert_eq!(
        response.headers()[CONTENT_TYPE],
        "text/plain; charset=utf-8"
    );
}

#[test]
fn a_method_a_static_route_does_not_answer_is_405_with_allow() {
    let response = ProxyError::MethodNotAllowed { allow: "GET, HEAD" }.into_response();
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
