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
//! without a URI part; a route's `upstream_path` (a URI part) replaces the route's prefix of
//! the normalised path, as nginx replaces it in its normalised URI.

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

/// nginx's `$uri` of a normalised path: every escape left (`%20`, `%3F`) decoded too, as nginx
/// decodes them all. For the access log, which writes what it holds as text; never for a path
/// that is matched or sent on (`%3F` would become a query).
pub fn decoded(normal: &str) -> Cow<'_, str> {
    if !normal.contains('%') {
        return Cow::Borrowed(normal);
    }
    let bytes = normal.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut index = 0;
    while index < bytes.len() {
        let escaped = (bytes[index] == b'%')
            .then(|| {
                let high = hex(*bytes.get(index + 1)?)?;
                let low = hex(*bytes.get(index + 2)?)?;
                Some(high << 4 | low)
            })
            .flatten();
        match escaped {
            Some(value) => {
                out.push(value);
                index += 3;
            }
            None => {
                out.push(bytes[index]);
                index += 1;
            }
        }
    }
    Cow::Owned(String::from_utf8_lossy(&out).into_owned())
}

/// True when `path` has no escape, no empty segment and no dot segment: nothing to do. One pass
/// over the bytes (a search for `%` and then a walk with a look at the rest after each `/` cost
/// twice as many instructions): a segment that starts with `/`, `.` then the end or `/`, or `..`
/// then the end or `/`, is not normal.
fn is_normal(path: &[u8]) -> bool {
    let mut index = 0;
    while index < path.len() {
        let byte = path[index];
        index += 1;
        if byte == b'%' {
            return false;
        }
        if byte != b'/' {
            continue;
        }
        // What follows a '/': the segment it starts.
        let ends_segment = |at: usize| matches!(path.get(at), None | Some(b'/'));
        match path.get(index) {
            Some(b'/') => return false,
            Some(b'.') if ends_segment(index + 1) => return false,
            Some(b'.') if path.get(index + 1) == Some(&b'.') && ends_segment(index + 2) => {
                return false
            }
            _ => {}
        }
    }
    true
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

    #[test]
    fn the_log_s_uri_decodes_every_escape_left() {
        for (normal, uri) in [
            ("/a/b", "/a/b"),
            ("/a%20b%3F", "/a b?"),
            ("/%C3%A9t%C3%A9", "/été"),
            ("/100%25", "/100%"),
        ] {
            assert_eq!(decoded(normal), uri, "{normal}");
        }
    }

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

    /// The one-pass `is_normal` says what the first one (a search for `%`, then a look at what
    /// follows each `/`) said, for every path of up to seven bytes of `/`, `.`, `a` and `%`.
    #[test]
    fn is_normal_agrees_with_its_first_form_on_every_short_path() {
        fn first_form(path: &[u8]) -> bool {
            !path.contains(&b'%')
                && path.iter().enumerate().all(|(index, &byte)| {
                    let rest = &path[index + 1..];
                    byte != b'/'
                        || !(rest.starts_with(b"/")
                            || rest == b"."
                            || rest.starts_with(b"./")
                            || rest == b".."
                            || rest.starts_with(b"../"))
                })
        }
        let alphabet = [b'/', b'.', b'a', b'%'];
        let mut paths: Vec<Vec<u8>> = vec![Vec::new()];
        let mut checked = 0;
        for _ in 0..7 {
            let mut longer = Vec::new();
            for path in &paths {
                for byte in alphabet {
                    let mut next = path.clone();
                    next.push(byte);
                    assert_eq!(is_normal(&next), first_form(&next), "{next:?}");
                    checked += 1;
                    longer.push(next);
                }
            }
            paths = longer;
        }
        assert_eq!(
            checked,
            (1..=7).map(|length| 4usize.pow(length)).sum::<usize>()
        );
    }
}
