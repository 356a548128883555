//! The value syntaxes of the config file: `weir::config::units` (durations, sizes, rates, limit
//! keys, listen addresses, trusted networks).
//!
//! Input: any text, given to every parser. Its first eight bytes also make a number, whose
//! formatted forms must parse back.
//!
//! Properties: whatever parses formats to text that parses back to the same value (what
//! `weir check` prints is valid config); a duration is a whole number of milliseconds; digits
//! alone are seconds or bytes; a rate is at least one request per second, minute or hour; a
//! limit key has at least one part and none twice; a network has no host bits.
#![no_main]

use std::time::Duration;

use libfuzzer_sys::fuzz_target;
use weir::config::units::{
    format_duration, format_key, format_rate, format_size, parse_duration, parse_key, parse_listen,
    parse_network, parse_rate, parse_size,
};

fuzz_target!(|data: &[u8]| {
    let mut number = [0u8; 8];
    let taken = data.len().min(8);
    number[..taken].copy_from_slice(&data[..taken]);
    let number = u64::from_le_bytes(number);
    let millis = Duration::from_millis(number);
    assert_eq!(
        parse_duration(&format_duration(millis)),
        Ok(millis),
        "{millis:?}"
    );
    let seconds = Duration::from_secs(number);
    assert_eq!(
        parse_duration(&format_duration(seconds)),
        Ok(seconds),
        "{seconds:?}"
    );
    assert_eq!(parse_size(&format_size(number)), Ok(number), "{number}");

    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let digits_only = {
        let trimmed = text.trim();
        !trimmed.is_empty() && trimmed.bytes().all(|byte| byte.is_ascii_digit())
    };

    if let Ok(duration) = parse_duration(text) {
        assert_eq!(
            duration.subsec_nanos() % 1_000_000,
            0,
            "{text:?}: {duration:?}"
        );
        let formatted = format_duration(duration);
        assert_eq!(
            parse_duration(&formatted),
            Ok(duration),
            "{text:?} -> {formatted:?}"
        );
        if digits_only {
            assert_eq!(Ok(duration.as_secs()), text.trim().parse(), "{text:?}");
        }
    }
    if let Ok(size) = parse_size(text) {
        let formatted = format_size(size);
        assert_eq!(
            parse_size(&formatted),
            Ok(size),
            "{text:?} -> {formatted:?}"
        );
        if digits_only {
            assert_eq!(Ok(size), text.trim().parse(), "{text:?}");
        }
    }
    if let Ok(rate) = parse_rate(text) {
        assert!(rate.count >= 1, "{text:?}");
        assert!(
            [1, 60, 3600].contains(&rate.per.as_secs()) && rate.per.subsec_nanos() == 0,
            "{text:?}: {rate:?}"
        );
        let formatted = format_rate(rate);
        assert_eq!(
            parse_rate(&formatted),
            Ok(rate),
            "{text:?} -> {formatted:?}"
        );
    }
    if let Ok(key) = parse_key(text) {
        assert!(!key.is_empty(), "{text:?}");
        for (index, part) in key.iter().enumerate() {
            assert!(!key[..index].contains(part), "{text:?}: {part:?} twice");
        }
        let formatted = format_key(&key);
        assert_eq!(parse_key(&formatted), Ok(key), "{text:?} -> {formatted:?}");
    }
    if let Ok(address) = parse_listen(text) {
        assert_eq!(parse_listen(&address.to_string()), Ok(address), "{text:?}");
    }
    if let Ok(network) = parse_network(text) {
        assert_eq!(network, network.trunc(), "{text:?} keeps host bits");
        assert_eq!(parse_network(&network.to_string()), Ok(network), "{text:?}");
    }
});
