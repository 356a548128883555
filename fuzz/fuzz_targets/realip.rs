//! The client address behind trusted proxies: `weir::realip::RealIp::client_ip`, reading
//! `X-Forwarded-For`, `X-Real-IP` or RFC 7239 `Forwarded`.
//!
//! Input, a line each: the peer address; the trusted networks, comma-separated; the header read
//! (`x-forwarded-for`, `x-real-ip` or `forwarded`); a line the client prepends (empty for none);
//! then the header's lines as the trusted proxies passed them on.
//!
//! Properties:
//! - a peer that is not trusted is the client, whatever the headers say;
//! - the client is the peer or an address written in the header;
//! - when the client found is not a trusted proxy, nothing the client adds to the left of the
//!   header (a line of its own before the proxies' lines) changes it, and neither does any other
//!   forwarding header: a client cannot choose its own address.
#![no_main]

#[path = "common.rs"]
mod common;

use std::net::{IpAddr, SocketAddr};

use http::header::{HeaderMap, HeaderName, HeaderValue, FORWARDED};
use libfuzzer_sys::fuzz_target;
use weir::config::units::parse_network;
use weir::config::RealIpHeader;
use weir::realip::RealIp;

fuzz_target!(|data: &[u8]| {
    let lines = common::lines(data);
    let [peer, trusted, header, prefix, header_lines @ ..] = lines.as_slice() else {
        return;
    };
    let Some(peer) = std::str::from_utf8(peer)
        .ok()
        .and_then(|peer| peer.parse::<IpAddr>().ok())
    else {
        return;
    };
    let Ok(trusted) = std::str::from_utf8(trusted) else {
        return;
    };
    let trusted = trusted
        .split(',')
        .filter_map(|network| parse_network(network).ok())
        .collect();
    let header = match *header {
        b"x-forwarded-for" => RealIpHeader::XForwardedFor,
        b"x-real-ip" => RealIpHeader::XRealIp,
        b"forwarded" => RealIpHeader::Forwarded,
        _ => return,
    };
    let real_ip = RealIp::new(trusted, header);
    let name = header.header_name();

    let headers = common::values_of(&name, header_lines.iter().copied());
    let client = real_ip.client_ip(peer, &weir::head_view::Headers::from_map(&headers));
    assert_eq!(
        client,
        client.to_canonical(),
        "the client address is canonical"
    );
    if !real_ip.is_trusted(peer) {
        assert_eq!(
            client,
            peer.to_canonical(),
            "an untrusted peer is the client"
        );
    }
    if client != peer.to_canonical() {
        let written = addresses_in(&headers);
        assert!(
            written.contains(&client),
            "{client} is neither the peer {peer} nor in the header {headers:?}"
        );
    }

    if real_ip.is_trusted(client) {
        return;
    }
    if let Ok(prefix) = HeaderValue::from_bytes(prefix) {
        let mut prefixed = HeaderMap::new();
        prefixed.append(name.clone(), prefix.clone());
        for value in headers.get_all(&name) {
            prefixed.append(name.clone(), value.clone());
        }
        assert_eq!(
            real_ip.client_ip(peer, &weir::head_view::Headers::from_map(&prefixed)),
            client,
            "a line prepended by the client changed the address: {prefixed:?}"
        );
        let mut others = headers.clone();
        for other in [
            HeaderName::from_static("x-forwarded-for"),
            HeaderName::from_static("x-real-ip"),
            FORWARDED,
        ] {
            if other != name {
                others.append(other, prefix.clone());
            }
        }
        assert_eq!(
            real_ip.client_ip(peer, &weir::head_view::Headers::from_map(&others)),
            client,
            "another forwarding header changed the address: {others:?}"
        );
    }
});

/// Every address written anywhere in the header's values, in any of the forms proxies use, with
/// quoting and escapes taken away: a superset of what the parser may find.
fn addresses_in(headers: &HeaderMap) -> Vec<IpAddr> {
    let mut addresses = Vec::new();
    for value in headers.values() {
        let text: String = String::from_utf8_lossy(value.as_bytes())
            .chars()
            .filter(|&character| character != '\\' && character != '"')
            .collect();
        let tokens = text.split(|character: char| {
            !(character.is_ascii_hexdigit() || character == '.' || character == ':')
        });
        for token in tokens {
            if let Ok(ip) = token.parse::<IpAddr>() {
                addresses.push(ip.to_canonical());
            } else if let Ok(address) = token.parse::<SocketAddr>() {
                addresses.push(address.ip().to_canonical());
            }
        }
    }
    addresses
}
