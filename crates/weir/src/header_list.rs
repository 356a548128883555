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

/// Whether `name` (as sent) is one of the headers that always describe one connection only
/// (RFC 9110 §7.6.1): `Connection`, `Keep-Alive`, `TE`, `Trailer`, `Transfer-Encoding`,
/// `Upgrade`, `Proxy-Authorization`, `Proxy-Authenticate`, `Proxy-Connection`. One match on its
/// length, which most names already fail, then at most two comparisons. Inlined: the parsers ask
/// it of every name, and the call cost more than the match.
#[inline(always)]
pub fn is_hop_by_hop(name: &[u8]) -> bool {
    let is = |hop: &str| name.eq_ignore_ascii_case(hop.as_bytes());
    match name.len() {
        2 => is("te"),
        7 => is("trailer") || is("upgrade"),
        10 => is("connection") || is("keep-alive"),
        16 => is("proxy-connection"),
        17 => is("transfer-encoding"),
        18 => is("proxy-authenticate"),
        19 => is("proxy-authorization"),
        _ => false,
    }
}

/// Whether an item of `Connection` names a header to remove beside the hop-by-hop ones: not
/// empty, `keep-alive` or `close` (what nearly every `Connection` says), nor one of
/// [`is_hop_by_hop`]'s, nor `Host` or `Content-Length`, which describe the message, not the
/// connection (a `Connection` that names them must not strip them: the upstream would get
/// another host). An item that is no header name names nothing that is there.
pub fn names_another_header(item: &[u8]) -> bool {
    !(item.is_empty()
        || item.eq_ignore_ascii_case(b"keep-alive")
        || item.eq_ignore_ascii_case(b"close")
        || is_hop_by_hop(item)
        || item.eq_ignore_ascii_case(b"host")
        || item.eq_ignore_ascii_case(b"content-length"))
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
