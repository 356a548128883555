//! The response head parser of weir's HTTP/1 client side: `weir::upstream::client::parse_head`,
//! which reads every answer an upstream gives.
//!
//! Input: the first byte picks the request method (`HEAD` when odd, else `GET`); the rest is
//! what the upstream sent.
//!
//! Properties:
//! - a complete head's length lies within the input and every shorter prefix is incomplete
//!   (reading in any pieces gives the same head);
//! - framing follows RFC 9112 §6.3: no body for `HEAD`, 1xx, 204 and 304; a `Transfer-Encoding`
//!   wins over `Content-Length` (which is then removed) and ends with `chunked` or reads to the
//!   close; otherwise `Content-Length` (all its values equal) or to the close;
//! - a connection is kept only when the response says it may be: HTTP/1.1 without
//!   `Connection: close` (or HTTP/1.0 with `keep-alive`), not a `101`, not read to the close,
//!   not both `Transfer-Encoding` and `Content-Length`;
//! - the head's view keeps no hop-by-hop line (but a `101`'s, which the tunnel needs).
#![no_main]

use http::header::CONTENT_LENGTH;
use http::{Method, StatusCode, Version};
use libfuzzer_sys::fuzz_target;
use weir::upstream::client::{parse_head, ResponseFraming};

/// The headers that describe one connection only (RFC 9110 §7.6.1).
const HOP_BY_HOP: [&str; 9] = [
    "connection",
    "keep-alive",
    "te",
    "trailer",
    "transfer-encoding",
    "upgrade",
    "proxy-authorization",
    "proxy-authenticate",
    "proxy-connection",
];

fuzz_target!(|data: &[u8]| {
    let Some((&first, input)) = data.split_first() else {
        return;
    };
    let method = if first % 2 == 1 { Method::HEAD } else { Method::GET };
    let Ok(Some((head, length))) = parse_head(input, &method) else {
        return;
    };
    assert!(length <= input.len());
    if length <= 1024 {
        for end in 0..length {
            assert!(
                matches!(parse_head(&input[..end], &method), Ok(None)),
                "a prefix of {end} bytes of a {length}-byte head is not incomplete"
            );
        }
    }
    let response = &head.response;
    let status = response.status();
    let headers = response.headers();
    let raw = String::from_utf8_lossy(&input[..length]).to_ascii_lowercase();
    let had_transfer_encoding = raw.contains("\ntransfer-encoding:");
    let bodiless = method == Method::HEAD
        || status.is_informational()
        || status == StatusCode::NO_CONTENT
        || status == StatusCode::NOT_MODIFIED;
    match &head.framing {
        ResponseFraming::Empty => {
            let zero_length = headers
                .get_all(CONTENT_LENGTH)
                .all(|value| {
                    std::str::from_utf8(value)
                        .unwrap()
                        .split(',')
                        .all(|v| v.trim().parse::<u64>() == Ok(0))
                });
            assert!(bodiless || (!had_transfer_encoding && zero_length && headers.contains(CONTENT_LENGTH)));
        }
        ResponseFraming::Length(bytes) => {
            assert!(!bodiless && !had_transfer_encoding && *bytes > 0);
            for value in headers.get_all(CONTENT_LENGTH) {
                for part in std::str::from_utf8(value).unwrap().split(',') {
                    assert_eq!(part.trim().parse::<u64>().unwrap(), *bytes);
                }
            }
        }
        ResponseFraming::Chunked(_) => {
            assert!(!bodiless && had_transfer_encoding);
            assert!(!headers.contains(CONTENT_LENGTH));
            assert_eq!(response.version(), Version::HTTP_11);
        }
        ResponseFraming::Close => {
            assert!(!bodiless && !head.keep_alive);
        }
    }
    // The lines that describe the upstream's connection are taken out (a `101`'s are left to
    // the tunnel).
    if status != StatusCode::SWITCHING_PROTOCOLS {
        for (name, _) in headers.iter() {
            let name = String::from_utf8_lossy(name).to_ascii_lowercase();
            assert!(
                !HOP_BY_HOP.contains(&name.as_str()),
                "{name} was kept in the view"
            );
        }
    }
    if head.keep_alive {
        // The view has no `Connection` (hop-by-hop, taken out): read the head's own lines.
        let close = raw
            .split('\n')
            .filter_map(|line| line.strip_prefix("connection:"))
            .any(|value| value.split(',').any(|token| token.trim() == "close"));
        assert!(!close && status != StatusCode::SWITCHING_PROTOCOLS);
        assert!(!(had_transfer_encoding && raw.contains("\ncontent-length:")));
    }
});
