//! The header rewrites of phases 4 and 6: headers that describe one connection go (hop-by-hop),
//! the forwarding headers come in, and only a WebSocket handshake keeps its `Upgrade`.

use std::net::IpAddr;

use http::header::{self, HeaderName};
use http::Method;

use crate::head_view::{text, Headers, RequestHead};
use crate::header_list::{self, is_hop_by_hop};

pub(super) static X_FORWARDED_FOR: HeaderName = HeaderName::from_static("x-forwarded-for");
static X_REAL_IP: HeaderName = HeaderName::from_static("x-real-ip");
pub(super) static X_FORWARDED_PROTO: HeaderName = HeaderName::from_static("x-forwarded-proto");

/// Whether the request is a WebSocket handshake (RFC 6455 §4.1): a `GET` without a body
/// (`bodiless`) whose `Upgrade` names `websocket` and whose `Connection` names `upgrade`.
/// Nothing else is tunnelled. The lists are read as bytes ([`header_list`]), as
/// [`remove_hop_by_hop_fields`] reads `Connection`: the items it removes are the items this reads.
pub(super) fn is_websocket_upgrade(head: &RequestHead, bodiless: bool) -> bool {
    let headers = &head.headers;
    let names = |name: HeaderName, item: &str| {
        headers
            .get_all(name)
            .any(|value| header_list::has_item(value, item.as_bytes()))
    };
    head.method == Method::GET
        && bodiless
        && names(header::UPGRADE, "websocket")
        && !headers.contains(header::TRANSFER_ENCODING)
        && names(header::CONNECTION, "upgrade")
}

/// Removes the headers that describe one connection only ([`is_hop_by_hop`]) and every header
/// `Connection` names ([`header_list::names_another_header`]), from a request's view (a
/// response's loses them as it is parsed, `upstream::client::parse_head`, but a `101`'s, which
/// phase 6 strips here): the fields are marked removed, so the other lines still go on as they
/// came. `Connection`'s values are read as bytes ([`header_list::items`]): a value with a byte
/// outside text still names its other items.
///
/// It runs for every proxied request: an HTTP/1 request's hop-by-hop lines were found as its head
/// was parsed (`h1::head`, [`Headers::remove_noted_hop_by_hop`]) and are marked removed by their place;
/// another view is looked at name by name, once, removing only what is there: most messages
/// carry none of these, or only `Connection`, whose items are most often `close` or
/// `keep-alive` alone, which name nothing more to remove.
pub fn remove_hop_by_hop_fields(headers: &mut Headers) {
    if headers.remove_noted_hop_by_hop() {
        // The parser found them as it read the names (`h1::head`), and `Connection` names no
        // other header: no name is looked at again.
        return;
    }
    if !headers.any_name(is_hop_by_hop) {
        return;
    }
    // The other headers `Connection` names: kept only when there are any, which is rare.
    let mut named: Vec<Vec<u8>> = Vec::new();
    for value in headers.get_all(header::CONNECTION) {
        for item in header_list::items(value) {
            if header_list::names_another_header(item) {
                named.push(item.to_vec());
            }
        }
    }
    headers.remove_where(|name| {
        is_hop_by_hop(name) || named.iter().any(|item| name.eq_ignore_ascii_case(item))
    });
}

/// `X-Forwarded-For` gets the client appended, `X-Real-IP` is set to it, and
/// `X-Forwarded-Proto` is set to `scheme`: `https` on a TLS listener, else `http`. The lines are
/// weir's, after the client's.
pub fn add_forwarding_headers(headers: &mut Headers, client_ip: IpAddr, scheme: &'static str) {
    let mut ip = [0u8; 39];
    let client = ip_text(client_ip, &mut ip);
    headers.append_to_list(X_FORWARDED_FOR.as_str().as_bytes(), client, |value| {
        text(value).is_some()
    });
    headers.set(&X_REAL_IP, client);
    headers.set(&X_FORWARDED_PROTO, scheme);
}

/// The address as text, written into `buffer`: an IPv4 address by hand (this runs for every
/// proxied request, and `Display` cost more than the rest of the header rewrites), an IPv6
/// address by `Display`.
fn ip_text(ip: IpAddr, buffer: &mut [u8; 39]) -> &[u8] {
    use std::io::Write as _;
    let mut length = 0;
    match ip {
        IpAddr::V4(ip) => {
            for (index, octet) in ip.octets().into_iter().enumerate() {
                if index > 0 {
                    buffer[length] = b'.';
                    length += 1;
                }
                if octet >= 100 {
                    buffer[length] = b'0' + octet / 100;
                    length += 1;
                }
                if octet >= 10 {
                    buffer[length] = b'0' + octet / 10 % 10;
                    length += 1;
                }
                buffer[length] = b'0' + octet % 10;
                length += 1;
            }
        }
        IpAddr::V6(ip) => {
            // The longest IPv6 text is 39 bytes (eight groups of four and seven colons; an
            // embedded IPv4 form is shorter), so the write cannot run out of room.
            let mut cursor = std::io::Cursor::new(&mut buffer[..]);
            let _ = write!(cursor, "{ip}");
            length = usize::try_from(cursor.position()).unwrap_or(0);
        }
    }
    &buffer[..length]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_are_written_as_display_writes_them() {
        let addresses = [
            "0.0.0.0",
            "127.0.0.1",
            "10.20.100.255",
            "9.99.199.200",
            "::1",
            "2001:db8::8a2e:370:7334",
            "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
            "::ffff:192.168.100.200",
        ];
        for address in addresses {
            let ip: IpAddr = address.parse().expect("an address");
            let mut buffer = [0u8; 39];
            assert_eq!(ip_text(ip, &mut buffer), ip.to_string().as_bytes());
        }
    }

    use http::{HeaderMap, HeaderValue};

    #[test]
    fn forwarding_headers_append_the_client() {
        let ip: IpAddr = "192.0.2.7".parse().expect("an address");
        let mut headers = Headers::default();
        add_forwarding_headers(&mut headers, ip, "http");
        assert_eq!(headers.get(&X_FORWARDED_FOR), Some(&b"192.0.2.7"[..]));
        assert_eq!(headers.get(&X_REAL_IP), Some(&b"192.0.2.7"[..]));
        assert_eq!(headers.get(&X_FORWARDED_PROTO), Some(&b"http"[..]));
        let mut map = HeaderMap::new();
        map.append(&X_FORWARDED_FOR, HeaderValue::from_static("203.0.113.1"));
        map.append(
            &X_FORWARDED_FOR,
            HeaderValue::from_static("203.0.113.2, 10.0.0.1"),
        );
        let mut headers = Headers::from_map(&map);
        add_forwarding_headers(&mut headers, ip, "https");
        assert_eq!(
            headers.get_all(&X_FORWARDED_FOR).collect::<Vec<_>>(),
            [&b"203.0.113.1, 203.0.113.2, 10.0.0.1, 192.0.2.7"[..]]
        );
        assert_eq!(headers.get(&X_FORWARDED_PROTO), Some(&b"https"[..]));
    }

    #[test]
    fn the_hop_by_hop_names_are_rfc_9110s() {
        for name in [
            "Connection",
            "KEEP-ALIVE",
            "te",
            "Trailer",
            "transfer-encoding",
            "Upgrade",
            "proxy-authorization",
            "Proxy-Authenticate",
            "proxy-connection",
        ] {
            assert!(is_hop_by_hop(name.as_bytes()), "{name}");
        }
        for name in [
            "host",
            "accept",
            "upgraded",
            "tE-",
            "user-agent",
            "x",
            "content-length",
        ] {
            assert!(!is_hop_by_hop(name.as_bytes()), "{name}");
        }
    }

    #[test]
    fn hop_by_hop_headers_and_those_connection_names_go() {
        let mut headers = HeaderMap::new();
        for (name, value) in [
            ("connection", "Keep-Alive, X-Private"),
            ("connection", "host, content-length, upgrade"),
            ("keep-alive", "timeout=5"),
            ("x-private", "1"),
            ("te", "trailers"),
            ("trailer", "x"),
            ("transfer-encoding", "chunked"),
            ("upgrade", "websocket"),
            ("proxy-authorization", "x"),
            ("proxy-authenticate", "x"),
            ("proxy-connection", "x"),
            ("host", "example.com"),
            ("content-length", "3"),
            ("accept", "*/*"),
        ] {
            headers.append(
                HeaderName::from_static(name),
                HeaderValue::from_static(value),
            );
        }
        let mut view = Headers::from_map(&headers);
        remove_hop_by_hop_fields(&mut view);
        let left: Vec<&[u8]> = view.iter().map(|(name, _)| name).collect();
        assert_eq!(left, [&b"host"[..], b"content-length", b"accept"]);
        let mut plain = HeaderMap::new();
        plain.insert(header::ACCEPT, HeaderValue::from_static("*/*"));
        let mut plain = Headers::from_map(&plain);
        remove_hop_by_hop_fields(&mut plain);
        assert_eq!(plain.len(), 1);
    }

    /// A `Connection` value is read as bytes: an item with a byte outside text (obs-text) names
    /// nothing, and does not hide the value's other items. The client named `X-Secret` as
    /// hop-by-hop, so it is not forwarded (found by the `forward_head` fuzz target, whose
    /// oracle had read such a value as naming nothing at all).
    #[test]
    fn a_connection_value_with_obs_text_still_names_its_other_items() {
        let mut headers = HeaderMap::new();
        headers.append(
            header::CONNECTION,
            HeaderValue::from_bytes(b"keep-aliv\x91, X-Secret").expect("obs-text is a value"),
        );
        headers.append(
            HeaderName::from_static("x-secret"),
            HeaderValue::from_static("s"),
        );
        headers.append(header::HOST, HeaderValue::from_static("example.com"));
        let mut view = Headers::from_map(&headers);
        remove_hop_by_hop_fields(&mut view);
        let left: Vec<&[u8]> = view.iter().map(|(name, _)| name).collect();
        assert_eq!(left, [&b"host"[..]]);
    }

    /// The WebSocket check reads `Connection` as the removal does: a value that names `upgrade`
    /// beside an item with a byte outside text still names it, so the handshake is tunnelled
    /// with its `Upgrade` rather than forwarded stripped of it (found by `forward_head`).
    #[test]
    fn the_websocket_check_reads_connection_as_the_removal_does() {
        let handshake = |connection: &[u8]| {
            let request = http::Request::get("/chat")
                .header(header::UPGRADE, "websocket")
                .header(
                    header::CONNECTION,
                    HeaderValue::from_bytes(connection).expect("a value"),
                )
                .body(())
                .expect("a request");
            let (head, ()) = crate::head_view::Request::from_http(request).into_parts();
            is_websocket_upgrade(&head, true)
        };
        assert!(handshake(b"Upgrade"));
        assert!(handshake(b"Upgrade,\x8d"));
        assert!(handshake(b"keep-alive, upgrade"));
        assert!(!handshake(b"keep-alive"));
        assert!(!handshake(b"upgraded"));
    }
}
