//! The request head parser of weir's HTTP/1 codec: `weir::h1::head::parse`, which every byte a
//! client sends before its body goes through.
//!
//! Input: raw bytes, as a client would send them (a request head, maybe followed by anything).
//!
//! Properties:
//! - a complete head's length lies within the input, and the head alone parses to the same
//!   length; every shorter prefix of it is incomplete (so reading a head in any pieces gives the
//!   same result as reading it whole);
//! - a refusal other than for size is final: more bytes do not undo it;
//! - framing is unambiguous: a chunked request has exactly one `Transfer-Encoding`, no
//!   `Content-Length` and is HTTP/1.1; a request with a length has exactly one `Content-Length`,
//!   of that value; no body means neither header (or `Content-Length: 0`);
//! - `Expect: 100-continue` is honoured only on HTTP/1.1 with a body; keep-alive follows the
//!   version and `Connection`;
//! - a head over the size limit is never accepted.
#![no_main]

use http::header::{CONNECTION, CONTENT_LENGTH, TRANSFER_ENCODING};
use http::Version;
use libfuzzer_sys::fuzz_target;
use weir::error::CodecError;
use weir::h1::head::{parse, Framing, Parsed};

const LIMIT: usize = 4096;

fuzz_target!(|data: &[u8]| {
    let (head, length) = match parse(data, LIMIT) {
        Ok(Parsed::Complete(head, length)) => (head, length),
        Ok(Parsed::Partial) => {
            assert!(data.len() <= LIMIT, "a partial head over the limit");
            return;
        }
        Err(refusal) => {
            if !matches!(refusal, CodecError::HeadTooLarge | CodecError::UriTooLong) {
                let mut longer = data.to_vec();
                longer.extend_from_slice(b"\r\n\r\n");
                assert!(
                    parse(&longer, LIMIT).is_err(),
                    "{refusal:?} undone by more bytes"
                );
            }
            return;
        }
    };
    assert!(length <= data.len() && length <= LIMIT);
    match parse(&data[..length], LIMIT) {
        Ok(Parsed::Complete(_, again)) => assert_eq!(again, length),
        other => panic!("the head alone gave {other:?}"),
    }
    if length <= 1024 {
        for end in 0..length {
            assert!(
                matches!(parse(&data[..end], LIMIT), Ok(Parsed::Partial)),
                "prefix of {end} bytes of a {length}-byte head is not partial"
            );
        }
    }
    let headers = &head.parts.headers;
    let lengths: Vec<_> = headers.get_all(CONTENT_LENGTH).collect();
    let codings: Vec<_> = headers.get_all(TRANSFER_ENCODING).collect();
    match head.framing {
        Framing::Chunked => {
            assert!(lengths.is_empty() && codings.len() == 1);
            assert_eq!(head.parts.version, Version::HTTP_11);
        }
        Framing::Length(bytes) => {
            assert!(bytes > 0 && codings.is_empty() && lengths.len() == 1);
            let text = std::str::from_utf8(lengths[0]).unwrap();
            assert_eq!(text.parse::<u64>().unwrap(), bytes);
        }
        Framing::Empty => {
            assert!(codings.is_empty() && lengths.len() <= 1);
            if let Some(value) = lengths.first() {
                let text = std::str::from_utf8(value).unwrap();
                assert_eq!(text.parse::<u64>().unwrap(), 0);
            }
        }
    }
    if head.expect_continue {
        assert!(head.parts.version == Version::HTTP_11 && head.framing != Framing::Empty);
    }
    let close = headers.get_all(CONNECTION).any(|value| {
        value
            .split(|byte| *byte == b',')
            .any(|token| token.trim_ascii().eq_ignore_ascii_case(b"close"))
    });
    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
});
