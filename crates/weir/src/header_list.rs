//! The comma-separated lists of header values (RFC 9110 §5.6.1: `Connection`,
//! `Transfer-Encoding`, `Upgrade`, ...), read as bytes: items trimmed of spaces and tabs, compared
//! without regard to case. Pure: it imports nothing of weir.

/// The items of a list value, trimmed of spaces and tabs; empty items are kept (a caller that
/// refuses them can see them).
pub fn items(value: &[u8]) -> impl DoubleEndedIterator<Item = &[u8]> {
    value.split(|byte| *byte == b',').map(<[u8]>::trim_ascii)
}

/// Whether `name` is `lower` in any ASCII case, `lower` being in lower case (as every name and
/// item weir looks for is): what `name.eq_ignore_ascii_case(lower)` says, eight bytes a step. A
/// byte of `name` is folded to lower case (`| 0x20`) only where `lower` has a letter, so no other
/// byte can pass for one; `eq_ignore_ascii_case` folds both sides byte by byte, at several times
/// the cost, and the parsers ask this of every name.
#[inline(always)]
pub fn is(name: &[u8], lower: &[u8]) -> bool {
    if name.len() != lower.len() {
        return false;
    }
    if name.len() < 8 {
        return name
            .iter()
            .zip(lower)
            .all(|(byte, want)| byte | (u8::from(want.is_ascii_lowercase()) << 5) == *want);
    }
    let word = |bytes: &[u8], at: usize| {
        u64::from_le_bytes(
            bytes
                .get(at..at + 8)
                .and_then(|bytes| bytes.try_into().ok())
                .unwrap_or_default(),
        )
    };
    // 0x20 in each byte of `want` that is a lower-case letter (0x61..=0x7a): a byte's high bit
    // is set by adding 0x1f when it is 0x61 or more, by adding 0x05 when it is past 0x7a (ASCII
    // bytes, so no sum carries into the next byte).
    let fold = |want: u64| {
        let from_a = want.wrapping_add(0x1f1f_1f1f_1f1f_1f1f);
        let past_z = want.wrapping_add(0x0505_0505_0505_0505);
        (from_a & !past_z & 0x8080_8080_8080_8080) >> 2
    };
    let same = |at: usize| {
        let want = word(lower, at);
        word(name, at) | fold(want) == want
    };
    let mut at = 0;
    while at + 8 <= name.len() {
        if !same(at) {
            return false;
        }
        at += 8;
    }
    // The last word ends at the name's end, over bytes already compared.
    at == name.len() || same(name.len() - 8)
}

/// The number `digits` spells in decimal: one digit or more and nothing else, and no more
/// than `u64` holds. What `str::parse::<u64>` says of a value that has no sign, read from the
/// bytes, with no UTF-8 check first: the parsers and the writer read `Content-Length` with it.
#[inline]
pub fn decimal(digits: &[u8]) -> Option<u64> {
    if digits.is_empty() {
        return None;
    }
    digits.iter().try_fold(0u64, |number, byte| {
        let digit = byte.wrapping_sub(b'0');
        if digit > 9 {
            return None;
        }
        number.checked_mul(10)?.checked_add(u64::from(digit))
    })
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
    let is = |hop: &str| is(name, hop.as_bytes());
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
        || is(item, b"keep-alive")
        || is(item, b"close")
        || is_hop_by_hop(item)
        || is(item, b"host")
        || is(item, b"content-length"))
}

/// The hop-by-hop lines a head parser met, by their place among the head's lines (bit `n` for
/// the `n`th), so the view can mark them removed without another look at a name; and whether
/// that is not enough: a hop-by-hop line past the 64th, or a `Connection` that names another
/// header, which must be found by name. The request's and the upstream response's parsers
/// share it.
#[derive(Clone, Copy, Default)]
pub struct HopByHopLines {
    places: u64,
    by_name: bool,
}

impl HopByHopLines {
    /// Notes the `index`th line, named `name`, if it is hop-by-hop.
    #[inline(always)]
    pub fn note(&mut self, index: usize, name: &[u8]) {
        if is_hop_by_hop(name) {
            match 1u64.checked_shl(index as u32) {
                Some(bit) => self.places |= bit,
                None => self.by_name = true,
            }
        }
    }

    /// Notes an item of `Connection`: one that [`names_another_header`] means the lines must
    /// be found by name.
    pub fn note_connection_item(&mut self, item: &[u8]) {
        self.by_name |= names_another_header(item);
    }

    /// The hop-by-hop lines by place (bit `n` for the `n`th), or `None` when they must be found
    /// by name.
    pub fn by_place(self) -> Option<u64> {
        (!self.by_name).then_some(self.places)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `decimal` reads a number as `str::parse::<u64>` does, for a value with no sign: the
    /// digits alone, overflow and any other byte refused.
    #[test]
    fn decimal_reads_what_parse_reads() {
        let values: [&[u8]; 16] = [
            b"",
            b"0",
            b"007",
            b"92",
            b"18446744073709551615",
            b"18446744073709551616",
            b"99999999999999999999",
            b" 5",
            b"5 ",
            b"+5",
            b"-1",
            b"1a",
            b"1,1",
            b"\t",
            b"/",
            b":",
        ];
        for value in values {
            let parsed = std::str::from_utf8(value)
                .ok()
                .filter(|text| !text.starts_with('+'))
                .and_then(|text| text.parse::<u64>().ok());
            assert_eq!(
                decimal(value),
                parsed,
                "{:?}",
                String::from_utf8_lossy(value)
            );
        }
        assert_eq!(decimal(b"\xff1"), None);
    }

    #[test]
    fn items_are_trimmed_and_empty_ones_kept() {
        let found: Vec<&[u8]> = items(b" keep-alive ,\tUpgrade,,close").collect();
        assert_eq!(found, [&b"keep-alive"[..], b"Upgrade", b"", b"close"]);
    }

    /// `is` says what `eq_ignore_ascii_case` says against a name in lower case, for every byte
    /// in every place of the names weir looks for: a byte 0x20 away from a letter, a digit or
    /// `-` (`@`, `[`, `{`, CR, ...) passes for nothing.
    #[test]
    fn is_says_what_eq_ignore_ascii_case_says() {
        let lowers: [&[u8]; 12] = [
            b"te",
            b"close",
            b"expect",
            b"upgrade",
            b"keep-alive",
            b"connection",
            b"content-length",
            b"proxy-connection",
            b"transfer-encoding",
            b"proxy-authorization",
            b"x-forwarded-for-1234567",
            b"",
        ];
        for lower in lowers {
            assert!(is(lower, lower));
            assert!(is(&lower.to_ascii_uppercase(), lower));
            for at in 0..lower.len() {
                for byte in 0..=255u8 {
                    let mut name = lower.to_vec();
                    name[at] = byte;
                    assert_eq!(
                        is(&name, lower),
                        name.eq_ignore_ascii_case(lower),
                        "{name:?} {lower:?}"
                    );
                }
            }
            let longer = [lower, b"x"].concat();
            assert!(!is(&longer, lower) && !is(lower, &longer));
        }
    }

    #[test]
    fn an_item_is_found_whatever_its_case_and_only_whole() {
        assert!(has_item(b"keep-alive, Upgrade", b"upgrade"));
        assert!(!has_item(b"keep-alive, Upgraded", b"upgrade"));
        assert!(!has_item(b"", b"close"));
    }
}
