//! Path normalisation: `weir::path::normalize`, what routing, the `path` part of limit keys and
//! static-file lookup see.
//!
//! Input: a request path (any text; the proxy gives it the path of a parsed URI).
//!
//! Properties of a path normalised:
//! - it starts with '/' and holds no empty segment ("//") and no dot segment ("/./", "/../", nor
//!   a final "/." or "/..");
//! - it holds no NUL that was not in the input raw (which the URI parser never lets through),
//!   and no escape of an unreserved character or of '/' (those are decoded), and
//!   every escape left is well formed and upper-case, so one resource has one spelling;
//! - normalising it again changes nothing (idempotent), and without escapes it is borrowed;
//! - decoding every escape of the result gives the same text as decoding every escape of the input
//!   and resolving it the same way, checked where the input has no encoded '/' or '%' (so the two
//!   decodings cannot differ in where segments end).
//! And a path refused is one that does not start with '/', holds a broken escape or an encoded NUL,
//! or climbs above the root.
#![no_main]

use std::borrow::Cow;

use libfuzzer_sys::fuzz_target;
use weir::path::{normalize, PathError};

fuzz_target!(|data: &[u8]| {
    let Ok(path) = std::str::from_utf8(data) else {
        return;
    };
    let normal = match normalize(path) {
        Ok(normal) => normal,
        Err(error) => {
            check_refusal(path, error);
            return;
        }
    };
    assert!(normal.starts_with('/'), "{path:?} -> {normal:?}");
    assert!(!normal.contains("//"), "{path:?} -> {normal:?}");
    for segment in normal.split('/').skip(1) {
        assert!(
            segment != "." && segment != "..",
            "{path:?} -> {normal:?} keeps a dot segment"
        );
    }
    // A raw NUL cannot come through the URI parser; an encoded one must never be decoded.
    if !path.contains('\0') {
        assert!(!normal.contains('\0'), "{path:?} -> {normal:?}");
    }
    let bytes = normal.as_bytes();
    for (index, _) in normal.match_indices('%') {
        let escape = &bytes[index + 1..(index + 3).min(bytes.len())];
        assert!(
            escape.len() == 2
                && escape
                    .iter()
                    .all(|b| matches!(b, b'0'..=b'9' | b'A'..=b'F')),
            "{path:?} -> {normal:?}: a broken or lower-case escape"
        );
        let value = u8::from_str_radix(std::str::from_utf8(escape).unwrap(), 16).unwrap();
        assert!(
            !(value.is_ascii_alphanumeric() || b"-._~/\0".contains(&value)),
            "{path:?} -> {normal:?}: %{value:02X} should have been decoded"
        );
    }

    let again = normalize(&normal).expect("a normalised path normalises");
    assert_eq!(again, normal, "not idempotent for {path:?}");
    if !normal.contains('%') {
        assert!(
            matches!(again, Cow::Borrowed(_)),
            "{normal:?} is normal but was copied"
        );
    }

    if !has_escape_of(path, &[b'/', b'%']) {
        assert_eq!(
            resolve_decoded(&percent_decode(path)),
            Some(percent_decode(&normal)),
            "{path:?} -> {normal:?} names another resource"
        );
    }
});

/// A refusal gives a reason that holds.
fn check_refusal(path: &str, error: PathError) {
    match error {
        PathError::NotAbsolute => assert!(!path.starts_with('/'), "{path:?}"),
        PathError::BadEscape => assert!(
            path.match_indices('%').any(|(index, _)| {
                let escape = &path.as_bytes()[index + 1..(index + 3).min(path.len())];
                escape.len() < 2 || !escape.iter().all(u8::is_ascii_hexdigit)
            }),
            "{path:?}: no broken escape"
        ),
        PathError::EncodedNul => assert!(path.contains("%00"), "{path:?}"),
        PathError::AboveRoot => assert!(
            resolve_decoded(&decode_unreserved_and_slash(path)).is_none(),
            "{path:?} does not climb above the root"
        ),
        #[allow(unreachable_patterns)] // reason: PathError may grow reasons this target predates
        _ => {}
    }
}

/// Whether `path` holds an escape of one of `values`.
fn has_escape_of(path: &str, values: &[u8]) -> bool {
    path.match_indices('%').any(|(index, _)| {
        path.get(index + 1..index + 3)
            .and_then(|hex| u8::from_str_radix(hex, 16).ok())
            .is_some_and(|value| values.contains(&value))
    })
}

/// The escapes of unreserved characters and of '/' decoded, the others kept: the path whose
/// segments the normaliser resolves.
fn decode_unreserved_and_slash(path: &str) -> Vec<u8> {
    let bytes = path.as_bytes();
    let mut decoded = Vec::with_capacity(bytes.len());
    let mut index = 0;
    while index < bytes.len() {
        let value = path
            .get(index + 1..index + 3)
            .filter(|_| bytes[index] == b'%')
            .and_then(|hex| u8::from_str_radix(hex, 16).ok())
            .filter(|value| value.is_ascii_alphanumeric() || b"-._~/".contains(value));
        match value {
            Some(value) => {
                decoded.push(value);
                index += 3;
            }
            None => {
                decoded.push(bytes[index]);
                index += 1;
            }
        }
    }
    decoded
}

/// Every well-formed `%XX` decoded, as an application would see the path.
fn percent_decode(path: &str) -> Vec<u8> {
    let bytes = path.as_bytes();
    let mut decoded = Vec::with_capacity(bytes.len());
    let mut index = 0;
    while index < bytes.len() {
        let hex = path
            .get(index + 1..index + 3)
            .filter(|_| bytes[index] == b'%')
            .and_then(|hex| u8::from_str_radix(hex, 16).ok());
        match hex {
            Some(value) => {
                decoded.push(value);
                index += 3;
            }
            None => {
                decoded.push(bytes[index]);
                index += 1;
            }
        }
    }
    decoded
}

/// RFC 3986 dot-segment removal with merged slashes on a decoded path; `None` above the root.
/// A result naming a directory (trailing empty or dot segment) ends with '/'.
fn resolve_decoded(path: &[u8]) -> Option<Vec<u8>> {
    let mut segments: Vec<&[u8]> = Vec::new();
    let mut directory = false;
    for segment in path.split(|&byte| byte == b'/').skip(1) {
        directory = true;
        match segment {
            b"" | b"." => {}
            b".." => {
                segments.pop()?;
            }
            _ => {
                segments.push(segment);
                directory = false;
            }
        }
    }
    let mut resolved = Vec::with_capacity(path.len());
    for segment in &segments {
        resolved.push(b'/');
        resolved.extend_from_slice(segment);
    }
    if directory || segments.is_empty() {
        resolved.push(b'/');
    }
    Some(resolved)
}
