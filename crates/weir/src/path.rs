//! The normalised request path: what routing, the `path` part of limit keys and static-file
//! lookup see, so that every spelling of one resource reaches the same route, bucket and file.
//!
//! As nginx normalises a URI before matching `location`s (and as Uvicorn and Gunicorn decode the
//! path before the app sees it), [`normalize`]:
//! - percent-decodes a character that is unreserved (RFC 3986 §2.3: `A-Z a-z 0-9 - . _ ~`) and
//!   the encoded slash `%2F` (Uvicorn decodes it into `/` before the app routes, so leaving it
//!   encoded here would let `/api%2Fadmin` pass a limit on `/api/admin`); every other escape stays
//!   encoded, with upper-case hex, so `%7e` and `%7E` are one spelling and `%25` never decodes twice;
//! - merges repeated slashes (nginx's `merge_slashes on`);
//! - resolves `.` and `..` segments (RFC 3986 §5.2.4).
//!
//! A path it cannot normalise is refused ([`PathError`], answered 400): one that does not start
//! with `/`, a broken escape (`%4`, `%zz`), an encoded NUL, or `..` above the root.
//!
//! The request line sent upstream stays exactly the client's, as nginx does with `proxy_pass`
//! without a URI part.

use std::borrow::Cow;

/// Why a path cannot be normalised.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum PathError {
    #[error("the path does not start with '/'")]
    NotAbsolute,
    #[error("the path holds a broken percent escape")]
    BadEscape,
    #[error("the path holds an encoded NUL")]
    EncodedNul,
    #[error("the path climbs above the root with '..'")]
    AboveRoot,
}

/// The normalised form of `path` (the path part of a request target, without the query).
/// Borrows when `path` is already normal, which is the common case.
pub fn normalize(path: &str) -> Result<Cow<'_, str>, PathError> {
    let bytes = path.as_bytes();
    if bytes.first() != Some(&b'/') {
        return Err(PathError::NotAbsolute);
    }
    if is_normal(bytes) {
        return Ok(Cow::Borrowed(path));
    }
    let decoded = decode(bytes)?;
    Ok(Cow::Owned(resolve(&decoded)?))
}

/// True when `path` has no escape, no empty segment and no dot segment: nothing to do.
fn is_normal(path: &[u8]) -> bool {
    if path.contains(&b'%') {
        return false;
    }
    // Every segment starts after a '/': look at what follows each one.
    path.iter().enumerate().all(|(index, &byte)| {
        if byte != b'/' {
            return true;
        }
        let rest = &path[index + 1..];
        !(rest.starts_with(b"/")
            || rest == b"."
            || rest.starts_with(b"./")
            || rest == b".."
            || rest.starts_with(b"../"))
    })
}

/// Decodes the escapes of unreserved characters and of `/`; keeps the others, upper-cased.
fn decode(path: &[u8]) -> Result<Vec<u8>, PathError> {
    let mut out = Vec::with_capacity(path.len());
    let mut index = 0;
    while index < path.len() {
        let byte = path[index];
        if byte != b'%' {
            out.push(byte);
            index += 1;
            continue;
        }
        let (Some(high), Some(low)) = (
            path.get(index + 1).and_then(|b| hex(*b)),
            path.get(index + 2).and_then(|b| hex(*b)),
        ) else {
            return Err(PathError::BadEscape);
        };
        let value = high << 4 | low;
        if value == 0 {
            return Err(PathError::EncodedNul);
        }
        if is_unreserved(value) || value == b'/' {
            out.push(value);
        } else {
            out.push(b'%');
            out.push(HEX_DIGITS[usize::from(high)]);
            out.push(HEX_DIGITS[usize::from(low)]);
        }
        index += 3;
    }
    Ok(out)
}

const HEX_DIGITS: &[u8; 16] = b"0123456789ABCDEF";

fn hex(byte: u8) -> Option<u8> {
    match byte {
        b'0'..=b'9' => Some(byte - b'0'),
        b'a'..=b'f' => Some(byte - b'a' + 10),
        b'A'..=b'F' => Some(byte - b'A' + 10),
        _ => None,
    }
}

fn is_unreserved(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'.' | b'_' | b'~')
}

/// Merges slashes and resolves dot segments of a decoded path that starts with `/`.
fn resolve(path: &[u8]) -> Result<String, PathError> {
    let mut segments: Vec<&[u8]> = Vec::new();
    // Whether the result names a directory: a trailing slash, or a last segment "." or "..".
    let mut trailing_slash = false;
    for segment in path[1..].split(|byte| *byte == b'/') {
        trailing_slash = false;
        match segment {
            b"" => trailing_slash = true,
            b"." => trailing_slash = true,
            b".." => {
                segments.pop().ok_or(PathError::AboveRoot)?;
                trailing_slash = true;
            }
            _ => segments.push(segment),
        }
    }
    let mut out = Vec::with_capacity(path.len());
    for segment in &segments {
        out.push(b'/');
        out.extend_from_slice(segment);
    }
    if trailing_slash || segments.is_empty() {
        out.push(b'/');
    }
    // Only ASCII escapes were decoded and the input was a `str`, so the bytes are UTF-8; a
    // failure here would be a bug, answered as a bad path rather than a panic.
    String::from_utf8(out).map_err(|_| PathError::BadEscape)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn norm(path: &str) -> Result<String, PathError> {
        normalize(path).map(Cow::into_owned)
    }

    #[test]
    fn a_normal_path_is_borrowed_unchanged() {
        for path in [
            "/",
            "/small",
            "/a/b/c.txt",
            "/a/",
            "/.well-known/x",
            "/a..b/c.",
        ] {
            assert!(
                matches!(normalize(path), Ok(Cow::Borrowed(p)) if p == path),
                "{path}"
            );
        }
    }

    #[test]
    fn unreserved_escapes_are_decoded_and_others_kept_upper_case() {
        assert_eq!(norm("/%73mall").unwrap(), "/small");
        assert_eq!(norm("/%61%2Etxt").unwrap(), "/a.txt");
        assert_eq!(norm("/a%20b").unwrap(), "/a%20b");
        assert_eq!(norm("/a%3fb").unwrap(), "/a%3Fb");
        assert_eq!(norm("/%7e%7E").unwrap(), "/~~");
        // %25 is '%': it stays encoded, so "%2573" never becomes "s".
        assert_eq!(norm("/%2573mall").unwrap(), "/%2573mall");
    }

    #[test]
    fn an_encoded_slash_is_a_slash() {
        assert_eq!(norm("/api%2Fadmin").unwrap(), "/api/admin");
        assert_eq!(norm("/api%2f%2fadmin").unwrap(), "/api/admin");
    }

    #[test]
    fn slashes_merge_and_dot_segments_resolve() {
        assert_eq!(norm("//a.txt").unwrap(), "/a.txt");
        assert_eq!(norm("/./a.txt").unwrap(), "/a.txt");
        assert_eq!(norm("/b/../a.txt").unwrap(), "/a.txt");
        assert_eq!(norm("/a/b/..").unwrap(), "/a/");
        assert_eq!(norm("/a/.").unwrap(), "/a/");
        assert_eq!(norm("/a//").unwrap(), "/a/");
        assert_eq!(norm("/%2e%2e/x/../y").unwrap_err(), PathError::AboveRoot);
        assert_eq!(norm("/x/%2E%2E/y").unwrap(), "/y");
        assert_eq!(norm("/..").unwrap_err(), PathError::AboveRoot);
        assert_eq!(norm("/a/../..").unwrap_err(), PathError::AboveRoot);
        assert_eq!(norm("/a/..").unwrap(), "/");
    }

    #[test]
    fn broken_paths_are_refused() {
        assert_eq!(norm("*").unwrap_err(), PathError::NotAbsolute);
        assert_eq!(norm("").unwrap_err(), PathError::NotAbsolute);
        assert_eq!(norm("/a%4").unwrap_err(), PathError::BadEscape);
        assert_eq!(norm("/a%zz").unwrap_err(), PathError::BadEscape);
        assert_eq!(norm("/a%00b").unwrap_err(), PathError::EncodedNul);
    }

    #[test]
    fn normalising_is_idempotent() {
        for path in [
            "/%73mall//x/./y/../z%20",
            "/a%2f..%2fb",
            "/%7E/",
            "/x/%252e",
        ] {
            let once = norm(path).unwrap();
            assert_eq!(norm(&once).unwrap(), once, "{path}");
        }
    }
}
