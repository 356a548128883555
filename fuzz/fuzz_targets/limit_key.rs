//! Rate-limit keys: `weir::proxy::build_key`, from a limit's `key` and a request, with the path
//! normalised by `weir::path::normalize` first, as the proxy does (a path that cannot be
//! normalised is answered 400 and never keyed).
//!
//! Input: the limit's key on the first line (`client_ip+path+header:x-api-key`, parsed by
//! `weir::config::units::parse_key`), optionally followed by `;N` for the limit's `ipv6_prefix`
//! (64 when absent, as the config's default), then two requests separated by a line `--`, each a line for
//! the client address, a line for the request target, and its header lines `name: value`.
//!
//! Properties:
//! - the key is empty exactly when no part of it has a value (no address or path part, and every
//!   named header absent or empty): such a request is not limited, as nginx skips an empty key;
//! - two requests share a non-empty key only when they agree on every part (the same address, an
//!   IPv6 one cut to `ipv6_prefix` bits, the same normalised path, the same value of each named
//!   header): a client cannot spell its way into another client's bucket, nor two clients into one;
//! - an IPv6 client keys the same bucket from any address of its prefix, and an IPv4-mapped IPv6
//!   address the bucket of the IPv4 address;
//! - two spellings of one path (`/%73mall`, `//small`, `/x/../small`) share the bucket of `/small`.
#![no_main]

#[path = "common.rs"]
mod common;

use std::net::{IpAddr, Ipv6Addr};

use http::Request;
use libfuzzer_sys::fuzz_target;
use weir::config::units::parse_key;
use weir::config::KeyPart;
use weir::path::normalize;
use weir::proxy::build_key;
use weir::ratelimit::client_ip_key;

fuzz_target!(|data: &[u8]| {
    let lines = common::lines(data);
    let [key, rest @ ..] = lines.as_slice() else {
        return;
    };
    let Ok(key) = std::str::from_utf8(key) else {
        return;
    };
    let (key, prefix) = match key.split_once(';') {
        Some((key, prefix)) => match prefix.trim().parse::<u8>() {
            Ok(prefix @ 1..=128) => (key, prefix),
            _ => return,
        },
        None => (key, 64),
    };
    let Ok(parts) = parse_key(key) else {
        return;
    };
    let mut blocks = rest.split(|line| *line == b"--");
    let (Some(first), Some(second)) = (blocks.next(), blocks.next()) else {
        return;
    };
    let (Some((first_ip, first)), Some((second_ip, second))) = (request(first), request(second))
    else {
        return;
    };

    let (Ok(first_path), Ok(second_path)) = (
        normalize(first.uri().path()),
        normalize(second.uri().path()),
    ) else {
        return;
    };

    let first_key = build_key(&parts, prefix, first_ip, &first_path, &first);
    let second_key = build_key(&parts, prefix, second_ip, &second_path, &second);
    assert_eq!(
        first_key,
        build_key(&parts, prefix, first_ip, &first_path, &first),
        "the key is stable"
    );
    // Another address of the same IPv6 prefix (the last bit flipped, when the prefix leaves host
    // bits), or the IPv4-mapped form of an IPv4 address, keys the same bucket.
    let same_client = match first_ip {
        // An IPv4-mapped address is an IPv4 client, counted whole.
        IpAddr::V6(ip) if prefix < 128 && ip.to_ipv4_mapped().is_none() => {
            Some(IpAddr::V6(Ipv6Addr::from(u128::from(ip) ^ 1)))
        }
        IpAddr::V4(ip) => Some(IpAddr::V6(ip.to_ipv6_mapped())),
        IpAddr::V6(_) => None,
    };
    if let Some(same_client) = same_client {
        assert_eq!(
            build_key(&parts, prefix, same_client, &first_path, &first),
            first_key,
            "{first_ip} and {same_client} key apart with ipv6_prefix {prefix}"
        );
    }
    // The normalised path, sent as the target, is normal already and keys the same bucket.
    if let Ok(normal) = Request::builder().uri(first_path.as_ref()).body(()) {
        let again = normalize(normal.uri().path()).expect("a normalised path normalises");
        assert_eq!(again, first_path, "normalising is idempotent");
        assert_eq!(
            build_key(&parts, prefix, first_ip, &again, &first),
            first_key,
            "{:?} and {first_path:?} key apart",
            first.uri().path()
        );
    }

    for (ip, request, key) in [
        (first_ip, &first, &first_key),
        (second_ip, &second, &second_key),
    ] {
        let has_value = parts.iter().any(|part| match part {
            KeyPart::ClientIp | KeyPart::Path | KeyPart::All => true,
            KeyPart::Header(name) => !header(request, name).is_empty(),
        });
        assert_eq!(
            !key.is_empty(),
            has_value,
            "{parts:?} {ip} {request:?} -> {key:?}"
        );
    }

    if first_key.is_empty() || first_key != second_key {
        return;
    }
    for part in &parts {
        match part {
            KeyPart::ClientIp => assert_eq!(
                client_ip_key(first_ip, prefix),
                client_ip_key(second_ip, prefix),
                "one key for two clients ({first_ip}, {second_ip}) with ipv6_prefix {prefix}"
            ),
            KeyPart::Path => assert_eq!(first_path, second_path, "one key for two paths"),
            KeyPart::Header(name) => assert_eq!(
                header(&first, name),
                header(&second, name),
                "one key for two values of {name}"
            ),
            // One key for every request: nothing to tell them apart by.
            KeyPart::All => {}
        }
    }
});

/// A request block: the client address, the target, the headers. `None` when the address or the
/// target cannot be one.
fn request(lines: &[&[u8]]) -> Option<(IpAddr, weir::head_view::Request<()>)> {
    let [ip, target, header_lines @ ..] = lines else {
        return None;
    };
    let ip: IpAddr = std::str::from_utf8(ip).ok()?.parse().ok()?;
    let mut request = Request::builder().uri(*target).body(()).ok()?;
    *request.headers_mut() = common::header_map(header_lines.iter().copied());
    Some((ip, weir::head_view::Request::from_http(request)))
}

/// The value a key part reads: the first line of the header, or nothing.
fn header<'a>(request: &'a weir::head_view::Request<()>, name: &http::HeaderName) -> &'a [u8] {
    request.headers().get(name).unwrap_or_default()
}
