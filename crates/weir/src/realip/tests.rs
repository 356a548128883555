//! Tests for the real client address: nginx `real_ip_recursive on` semantics, spoofing attempts from
//! untrusted peers, IPv6, `Forwarded` and malformed input.

use std::net::IpAddr;

use http::header::{HeaderMap, HeaderName, HeaderValue};

use super::*;
use crate::head_view::Headers;

/// The seed's trusted networks: the three private ranges.
fn private_ranges(header: RealIpHeader) -> RealIp {
    let trusted = ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fd00::/8"]
        .iter()
        .map(|net| net.parse().expect("a literal CIDR parses"))
        .collect();
    RealIp::new(trusted, header)
}

fn ip(text: &str) -> IpAddr {
    text.parse().expect("a literal address parses")
}

fn headers(name: &str, values: &[&str]) -> Headers {
    let mut headers = HeaderMap::new();
    let name = HeaderName::from_bytes(name.as_bytes()).expect("a literal header name is valid");
    for value in values {
        headers.append(
            name.clone(),
            HeaderValue::from_str(value).expect("a literal header value is valid"),
        );
    }
    Headers::from_map(&headers)
}

fn xff(peer: &str, values: &[&str]) -> IpAddr {
    private_ranges(RealIpHeader::XForwardedFor)
        .client_ip(ip(peer), &headers("x-forwarded-for", values))
}

#[test]
fn an_untrusted_peer_is_the_client_whatever_it_sends() {
    assert_eq!(xff("203.0.113.7", &["1.1.1.1"]), ip("203.0.113.7"));
    assert_eq!(xff("203.0.113.7", &["10.0.0.1"]), ip("203.0.113.7"));
    let real_ip = private_ranges(RealIpHeader::XRealIp);
    assert_eq!(
        real_ip.client_ip(ip("203.0.113.7"), &headers("x-real-ip", &["1.1.1.1"])),
        ip("203.0.113.7")
    );
    let forwarded = private_ranges(RealIpHeader::Forwarded);
    assert_eq!(
        forwarded.client_ip(ip("203.0.113.7"), &headers("forwarded", &["for=1.1.1.1"])),
        ip("203.0.113.7")
    );
}

#[test]
fn no_trusted_proxies_means_the_peer() {
    let real_ip = RealIp::new(Vec::new(), RealIpHeader::XForwardedFor);
    assert_eq!(
        real_ip.client_ip(ip("10.0.0.1"), &headers("x-forwarded-for", &["1.1.1.1"])),
        ip("10.0.0.1")
    );
}

#[test]
fn a_trusted_peer_without_the_header_is_the_client() {
    assert_eq!(xff("10.0.0.1", &[]), ip("10.0.0.1"));
    assert_eq!(xff("10.0.0.1", &[""]), ip("10.0.0.1"));
    assert_eq!(xff("10.0.0.1", &[" , ,"]), ip("10.0.0.1"));
}

#[test]
fn a_trusted_peer_names_the_client() {
    assert_eq!(xff("10.0.0.1", &["198.51.100.4"]), ip("198.51.100.4"));
}

#[test]
fn the_walk_skips_trusted_addresses_from_the_right() {
    // The client prepended a lie (1.1.1.1); the first untrusted address from the right is the
    // one our own proxies saw.
    assert_eq!(
        xff(
            "10.0.0.1",
            &["1.1.1.1, 198.51.100.4, 192.168.1.2, 172.16.0.9"]
        ),
        ip("198.51.100.4")
    );
}

#[test]
fn a_spoofed_trusted_address_behind_an_untrusted_hop_is_not_believed() {
    // 198.51.100.4 is untrusted, so what it claims (10.9.9.9) is not followed.
    assert_eq!(
        xff("10.0.0.1", &["10.9.9.9, 198.51.100.4"]),
        ip("198.51.100.4")
    );
}

#[test]
fn all_trusted_gives_the_leftmost() {
    assert_eq!(
        xff("10.0.0.1", &["192.168.0.5, 10.1.1.1, 172.16.3.3"]),
        ip("192.168.0.5")
    );
}

#[test]
fn garbage_stops_the_walk_at_the_last_good_address() {
    assert_eq!(xff("10.0.0.1", &["198.51.100.4, nonsense"]), ip("10.0.0.1"));
    assert_eq!(
        xff("10.0.0.1", &["198.51.100.4, nonsense, 10.2.2.2"]),
        ip("10.2.2.2")
    );
    assert_eq!(xff("10.0.0.1", &["300.1.1.1"]), ip("10.0.0.1"));
    assert_eq!(xff("10.0.0.1", &["1.2.3.4:notaport"]), ip("10.0.0.1"));
    assert_eq!(xff("10.0.0.1", &["[::1"]), ip("10.0.0.1"));
    assert_eq!(xff("10.0.0.1", &["[::1]x"]), ip("10.0.0.1"));
}

#[test]
fn a_header_value_that_is_not_ascii_is_malformed() {
    let mut map = HeaderMap::new();
    map.append(
        "x-forwarded-for",
        HeaderValue::from_bytes(b"198.51.100.4").expect("valid"),
    );
    map.append(
        "x-forwarded-for",
        HeaderValue::from_bytes(b"\xff\xfe").expect("obs-text is a valid header value"),
    );
    let real_ip = private_ranges(RealIpHeader::XForwardedFor);
    assert_eq!(
        real_ip.client_ip(ip("10.0.0.1"), &Headers::from_map(&map)),
        ip("10.0.0.1")
    );
}

#[test]
fn several_header_lines_are_one_list() {
    // A second line cannot hide the first: the lines are read in order as one list.
    assert_eq!(
        xff("10.0.0.1", &["1.1.1.1", "198.51.100.4", "10.0.0.2"]),
        ip("198.51.100.4")
    );
    assert_eq!(xff("10.0.0.1", &["10.5.5.5", "10.0.0.2"]), ip("10.5.5.5"));
}

#[test]
fn spaces_separate_entries_as_in_nginx() {
    assert_eq!(
        xff("10.0.0.1", &["1.1.1.1 198.51.100.4"]),
        ip("198.51.100.4")
    );
    assert_eq!(xff("10.0.0.1", &["  198.51.100.4 ,  "]), ip("198.51.100.4"));
}

#[test]
fn ports_are_ignored() {
    assert_eq!(xff("10.0.0.1", &["198.51.100.4:5555"]), ip("198.51.100.4"));
    assert_eq!(xff("10.0.0.1", &["[2001:db8::7]:443"]), ip("2001:db8::7"));
}

#[test]
fn ipv6_addresses_are_walked_too() {
    assert_eq!(xff("fd00::1", &["2001:db8::7, fd12::3"]), ip("2001:db8::7"));
    assert_eq!(xff("fd00::1", &["[2001:db8::7]"]), ip("2001:db8::7"));
    assert_eq!(xff("2001:db8::1", &["198.51.100.4"]), ip("2001:db8::1"));
}

#[test]
fn ipv4_mapped_peers_match_ipv4_networks() {
    // A dual-stack listener reports an IPv4 peer as ::ffff:a.b.c.d.
    assert_eq!(
        xff("::ffff:10.0.0.1", &["198.51.100.4"]),
        ip("198.51.100.4")
    );
    assert_eq!(
        xff("::ffff:203.0.113.7", &["198.51.100.4"]),
        ip("203.0.113.7")
    );
    assert_eq!(
        xff("10.0.0.1", &["::ffff:198.51.100.4"]),
        ip("198.51.100.4")
    );
}

#[test]
fn x_real_ip_is_read_from_its_own_header() {
    let real_ip = private_ranges(RealIpHeader::XRealIp);
    assert_eq!(
        real_ip.client_ip(ip("10.0.0.1"), &headers("x-real-ip", &["198.51.100.4"])),
        ip("198.51.100.4")
    );
    // X-Forwarded-For is not consulted when X-Real-IP is the choice.
    assert_eq!(
        real_ip.client_ip(
            ip("10.0.0.1"),
            &headers("x-forwarded-for", &["198.51.100.4"])
        ),
        ip("10.0.0.1")
    );
    assert_eq!(
        real_ip.client_ip(ip("10.0.0.1"), &headers("x-real-ip", &["bogus"])),
        ip("10.0.0.1")
    );
}

fn forwarded(peer: &str, values: &[&str]) -> IpAddr {
    private_ranges(RealIpHeader::Forwarded).client_ip(ip(peer), &headers("forwarded", values))
}

#[test]
fn forwarded_for_is_walked_like_x_forwarded_for() {
    assert_eq!(
        forwarded("10.0.0.1", &["for=198.51.100.4"]),
        ip("198.51.100.4")
    );
    assert_eq!(
        forwarded(
            "10.0.0.1",
            &["for=1.1.1.1, for=198.51.100.4;proto=https, for=10.0.0.9;by=10.0.0.1"]
        ),
        ip("198.51.100.4")
    );
    assert_eq!(
        forwarded("10.0.0.1", &["for=10.3.3.3", "FOR=10.4.4.4"]),
        ip("10.3.3.3")
    );
}

#[test]
fn forwarded_reads_quoted_ipv6_with_brackets_and_ports() {
    assert_eq!(
        forwarded("10.0.0.1", &["for=\"[2001:db8:cafe::17]:4711\""]),
        ip("2001:db8:cafe::17")
    );
    assert_eq!(
        forwarded("10.0.0.1", &["For=\"[2001:db8:cafe::17]\";proto=http"]),
        ip("2001:db8:cafe::17")
    );
    assert_eq!(
        forwarded("10.0.0.1", &["for=\"198.51.100.4:80\""]),
        ip("198.51.100.4")
    );
}

#[test]
fn forwarded_quotes_may_hide_separators() {
    // The comma and semicolon inside the quoted `by` value do not split the element.
    assert_eq!(
        forwarded("10.0.0.1", &["for=198.51.100.4;by=\"a,b;c\", for=10.0.0.8"]),
        ip("198.51.100.4")
    );
}

#[test]
fn forwarded_unknown_obfuscated_or_missing_for_stops_the_walk() {
    assert_eq!(
        forwarded("10.0.0.1", &["for=198.51.100.4, for=unknown"]),
        ip("10.0.0.1")
    );
    assert_eq!(
        forwarded("10.0.0.1", &["for=198.51.100.4, for=_hidden, for=10.0.0.5"]),
        ip("10.0.0.5")
    );
    assert_eq!(
        forwarded("10.0.0.1", &["for=198.51.100.4, proto=https"]),
        ip("10.0.0.1")
    );
    assert_eq!(
        forwarded("10.0.0.1", &["for=\"[2001:db8::1]:80"]),
        ip("10.0.0.1")
    );
}

#[test]
fn header_names_are_the_documented_ones() {
    assert_eq!(RealIpHeader::XForwardedFor.header_name(), "x-forwarded-for");
    assert_eq!(RealIpHeader::XRealIp.header_name(), "x-real-ip");
    assert_eq!(RealIpHeader::Forwarded.header_name(), "forwarded");
}
