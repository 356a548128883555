//! What several targets share: inputs are text, a line per field, so that seeds can be written by
//! hand and read in a crash report.

#![allow(dead_code)] // reason: each target uses only some of these helpers

use http::header::{HeaderMap, HeaderName, HeaderValue};

/// The input's lines, split at `\n` only (a `\r` stays part of its line, as it would in a header
/// value that smuggled one in).
pub fn lines(data: &[u8]) -> Vec<&[u8]> {
    data.split(|&byte| byte == b'\n').collect()
}

/// Header lines `name: value` as a `HeaderMap`, in order, repeated names kept. A line that is not a
/// valid header is skipped, as a client cannot send one through the HTTP/1 parser either.
pub fn header_map<'a>(lines: impl IntoIterator<Item = &'a [u8]>) -> HeaderMap {
    let mut headers = HeaderMap::new();
    for line in lines {
        let Some(colon) = line.iter().position(|&byte| byte == b':') else {
            continue;
        };
        let (Ok(name), Ok(value)) = (
            HeaderName::from_bytes(&line[..colon]),
            HeaderValue::from_bytes(line[colon + 1..].trim_ascii()),
        ) else {
            continue;
        };
        headers.append(name, value);
    }
    headers
}

/// Header values of one header, a line each; lines that cannot be a header value are skipped.
pub fn values_of<'a>(name: &HeaderName, lines: impl IntoIterator<Item = &'a [u8]>) -> HeaderMap {
    let mut headers = HeaderMap::new();
    for line in lines {
        if let Ok(value) = HeaderValue::from_bytes(line) {
            headers.append(name.clone(), value);
        }
    }
    headers
}
