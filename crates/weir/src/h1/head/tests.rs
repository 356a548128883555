use super::*;

fn parse_all(bytes: &[u8]) -> Result<Head, CodecError> {
    match parse(bytes, 8192)? {
        Parsed::Complete(head, length) => {
            assert_eq!(length, bytes.len(), "the whole input is the head");
            Ok(*head)
        }
        Parsed::Partial => panic!("partial: {:?}", String::from_utf8_lossy(bytes)),
    }
}

#[test]
fn a_plain_get_keeps_alive_with_no_body() {
    let head = parse_all(b"GET /a?b=c HTTP/1.1\r\nHost: x\r\nX-A: 1\r\nX-A: 2\r\n\r\n").unwrap();
    assert_eq!(head.parts.method, Method::GET);
    assert_eq!(head.parts.uri, "/a?b=c");
    assert_eq!(head.parts.headers.get_all("x-a").count(), 2);
    assert_eq!(head.framing, Framing::Empty);
    assert!(head.keep_alive);
    assert!(!head.expect_continue);
}

#[test]
fn framing_follows_rfc_9112() {
    let length = parse_all(b"POST / HTTP/1.1\r\nContent-Length: 12\r\n\r\n").unwrap();
    assert_eq!(length.framing, Framing::Length(12));
    let chunked = parse_all(b"POST / HTTP/1.1\r\nTransfer-Encoding: Chunked\r\n\r\n").unwrap();
    assert_eq!(chunked.framing, Framing::Chunked);
    let zero = parse_all(b"POST / HTTP/1.1\r\nContent-Length: 0\r\n\r\n").unwrap();
    assert_eq!(zero.framing, Framing::Empty);
    let expect =
        parse_all(b"PUT / HTTP/1.1\r\nExpect: 100-continue\r\nContent-Length: 3\r\n\r\n").unwrap();
    assert!(expect.expect_continue);
}

#[test]
fn keep_alive_depends_on_version_and_connection() {
    let cases: &[(&[u8], bool)] = &[
        (b"GET / HTTP/1.1\r\nConnection: close\r\n\r\n", false),
        (
            b"GET / HTTP/1.1\r\nConnection: Upgrade, Close\r\n\r\n",
            false,
        ),
        (b"GET / HTTP/1.0\r\n\r\n", false),
        (b"GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n", true),
    ];
    for (bytes, keep_alive) in cases {
        assert_eq!(parse_all(bytes).unwrap().keep_alive, *keep_alive);
    }
}

#[test]
fn framing_conflicts_are_refused() {
    let malformed: &[&[u8]] = &[
        b"POST / HTTP/1.1\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n",
        b"POST / HTTP/1.1\r\nContent-Length: 5\r\nContent-Length: 5\r\n\r\n",
        b"POST / HTTP/1.1\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\n",
        b"POST / HTTP/1.1\r\nContent-Length: +5\r\n\r\n",
        b"POST / HTTP/1.1\r\nContent-Length: 5, 5\r\n\r\n",
        b"POST / HTTP/1.1\r\nContent-Length: 99999999999999999999\r\n\r\n",
        b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked, chunked\r\n\r\n",
        b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n",
        b"POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n",
        b"POST / HTTP/1.1\r\nTransfer-Encoding: \r\n\r\n",
        // Found by the h1_request fuzz target: an empty line beside a chunked one.
        b"POST / HTTP/1.1\r\nTransfer-Encoding: \r\nTransfer-Encoding: chunked\r\n\r\n",
        b"POST / HTTP/1.1\r\nTransfer-Encoding: , chunked\r\n\r\n",
        b"GET / HTTP/1.1\r\n Host: x\r\n\r\n",
        b"GET / HTTP/1.1\r\nHost: x\r\n folded\r\n\r\n",
        b"GET / HTTP/1.1\r\nHo st: x\r\n\r\n",
        b"GET / HTTP/1.1\r\nHost : x\r\n\r\n",
        b"GET  / HTTP/1.1\r\n\r\n",
        b"GET x HTTP/1.1\r\n\r\n",
        b"GET * HTTP/1.1\r\n\r\n",
        b"CONNECT / HTTP/1.1\r\n\r\n",
        b"GET / HTTP/1.1\r\nX: a\x00b\r\n\r\n",
    ];
    for bytes in malformed {
        assert!(
            matches!(parse(bytes, 8192), Err(CodecError::Malformed(_))),
            "{:?} gave {:?}",
            String::from_utf8_lossy(bytes),
            parse(bytes, 8192)
        );
    }
    for coding in ["gzip, chunked", "chunked, gzip", "identity", "xchunked"] {
        let bytes = format!("POST / HTTP/1.1\r\nTransfer-Encoding: {coding}\r\n\r\n");
        assert_eq!(
            parse(bytes.as_bytes(), 8192).unwrap_err(),
            if coding == "chunked, gzip" {
                CodecError::Malformed("transfer coding after chunked")
            } else {
                CodecError::UnknownCoding
            },
            "{coding}"
        );
    }
}

#[test]
fn versions_and_sizes_get_their_own_status() {
    assert_eq!(
        parse(b"GET / HTTP/2.0\r\n\r\n", 8192).unwrap_err(),
        CodecError::Version
    );
    assert_eq!(
        parse(b"GET / HTTP/1.x\r\n\r\n", 8192).unwrap_err(),
        CodecError::Malformed("request line")
    );
    let long_line = format!("GET /{} HTTP/1.1\r\n", "a".repeat(200));
    assert_eq!(
        parse(&long_line.as_bytes()[..150], 100).unwrap_err(),
        CodecError::UriTooLong
    );
    let long_head = format!("GET / HTTP/1.1\r\nX: {}\r\n", "a".repeat(200));
    assert_eq!(
        parse(long_head.as_bytes(), 100).unwrap_err(),
        CodecError::HeadTooLarge
    );
    let mut many = b"GET / HTTP/1.1\r\n".to_vec();
    for index in 0..=MAX_HEADERS {
        many.extend_from_slice(format!("x-{index}: v\r\n").as_bytes());
    }
    many.extend_from_slice(b"\r\n");
    assert_eq!(parse(&many, 1 << 20).unwrap_err(), CodecError::HeadTooLarge);
}

#[test]
fn targets_of_every_form() {
    assert_eq!(
        parse_all(b"GET http://example.com/x HTTP/1.1\r\n\r\n")
            .unwrap()
            .parts
            .uri,
        "http://example.com/x"
    );
    assert!(parse_all(b"OPTIONS * HTTP/1.1\r\n\r\n").is_ok());
    assert!(parse_all(b"CONNECT example.com:443 HTTP/1.1\r\n\r\n").is_ok());
    // Empty lines before the request line are skipped (RFC 9112 §2.2).
    assert!(matches!(
        parse(b"\r\n\r\nGET / HTTP/1.1\r\n\r\n", 8192),
        Ok(Parsed::Complete(_, 22))
    ));
    assert!(matches!(
        parse(b"GET / HTTP/1.1\r\nHost:", 8192),
        Ok(Parsed::Partial)
    ));
}
