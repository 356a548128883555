//! The comma-separated lists of header values (RFC 9110 §5.6.1: `Connection`,
//! `Transfer-Encoding`, `Upgrade`, ...), read as bytes: items trimmed of spaces and tabs, compared
//! without regard to case. Pure: it imports nothing of weir.

/// The items of a list value, trimmed of spaces and tabs; empty items are kept (a caller that
/// refuses them can see them).
pub fn items(value: &[u8]) -> impl DoubleEndedIterator<Item = &[u8]> {
    value.split(|byte| *byte == b',').map(<[u8]>::trim_ascii)
}

/// Whether a list value holds `item` (case-insensitive).
pub fn has_item(value: &[u8], item: &[u8]) -> bool {
    items(value).any(|found| found.eq_ignore_ascii_case(item))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn items_are_trimmed_and_empty_ones_kept() {
        let found: Vec<&[u8]> = items(b" keep-alive ,\tUpgrade,,close").collect();
        assert_eq!(found, [&b"keep-alive"[..], b"Upgrade", b"", b"close"]);
    }

    #[test]
    fn an_item_is_found_whatever_its_case_and_only_whole() {
        assert!(has_item(b"keep-alive, Upgrade", b"upgrade"));
        assert!(!has_item(b"keep-alive, Upgraded", b"upgrade"));
        assert!(!has_item(b"", b"close"));
    }
}
