//! What a probe's answer says: the status and the body of a whole `Connection: close` response.
//! (Real reloads run in tests/reload.rs, which needs the binaries.)

use super::*;

#[test]
fn probe_answers_parse_into_status_and_body() {
    assert_eq!(
        parse_response(b"HTTP/1.1 200 OK\r\nContent-Length: 1\r\nConnection: close\r\n\r\nb"),
        (200, "b".to_string())
    );
    assert_eq!(
        parse_response(b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n"),
        (404, String::new())
    );
    assert_eq!(parse_response(b"HTTP/1.1 200 OK\r\n"), (0, String::new()));
}
