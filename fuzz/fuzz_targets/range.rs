//! `Range` against a file length: `weir::static_files::parse_range`.
//!
//! Input: the file length in decimal on the first line, the header value after it.
//! Properties: a range served lies within the file (`start <= end < len`); for the plain forms
//! `bytes=A-B`, `bytes=A-` and `bytes=-N` the answer is the one RFC 9110 section 14.1.2 gives.
#![no_main]

use libfuzzer_sys::fuzz_target;
use weir::static_files::{parse_range, RangeSpec};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Some((len, header)) = text.split_once('\n') else {
        return;
    };
    let Ok(len) = len.trim().parse::<u64>() else {
        return;
    };
    let spec = parse_range(header, len);
    if let RangeSpec::Bytes { start, end } = spec {
        assert!(start <= end, "{header:?} against {len}: {spec:?}");
        assert!(
            end < len,
            "{header:?} against {len}: {spec:?} runs past the end"
        );
    }
    if let Some(expected) = plain_form(header, len) {
        assert_eq!(spec, expected, "{header:?} against {len}");
    }
});

/// The answer for a header of exactly one of the three plain forms, digits only, no spaces; `None`
/// for anything else.
fn plain_form(header: &str, len: u64) -> Option<RangeSpec> {
    let (first, last) = header.strip_prefix("bytes=")?.split_once('-')?;
    let digits = |text: &str| !text.is_empty() && text.bytes().all(|byte| byte.is_ascii_digit());
    if first.is_empty() {
        let suffix: u64 = digits(last).then(|| last.parse().ok()).flatten()?;
        if suffix == 0 || len == 0 {
            return Some(RangeSpec::Unsatisfiable);
        }
        return Some(RangeSpec::Bytes {
            start: len.saturating_sub(suffix),
            end: len - 1,
        });
    }
    let start: u64 = digits(first).then(|| first.parse().ok()).flatten()?;
    let end: Option<u64> = if last.is_empty() {
        None
    } else {
        Some(digits(last).then(|| last.parse().ok()).flatten()?)
    };
    if end.is_some_and(|end| end < start) {
        // An invalid range-spec: the header is ignored (200 with the whole file).
        return Some(RangeSpec::Ignore);
    }
    if start >= len {
        return Some(RangeSpec::Unsatisfiable);
    }
    Some(RangeSpec::Bytes {
        start,
        end: end.map_or(len - 1, |end| end.min(len - 1)),
    })
}
