use std::net::{IpAddr, Ipv4Addr};

use super::forwarded_head;
use crate::h1::head::{parse, Parsed};
use crate::head_view::Request;

/// The head weir sends upstream for `request` (a bodiless one, from 192.0.2.7 on plain HTTP),
/// as text.
fn forwarded(request: &[u8]) -> String {
    let Ok(Parsed::Complete(head, _)) = parse(request, 8192) else {
        panic!("the request head parses");
    };
    let client = IpAddr::V4(Ipv4Addr::new(192, 0, 2, 7));
    let head = forwarded_head(
        Request::from_parts(head.parts, ()),
        Some(0),
        client,
        false,
        false,
        true,
        false,
    )
    .expect("the checks pass");
    String::from_utf8(head.to_vec()).expect("the head is text")
}

/// Found by the `forward_head` fuzz target: an absolute-form target with a query and no path
/// (`http://host?q`, whose origin form is `/?q`) went upstream as `/`, its query lost.
#[test]
fn an_absolute_target_without_a_path_keeps_its_query() {
    let head = forwarded(b"GET http://example.org:8080?q=1 HTTP/1.1\r\nHost: other\r\n\r\n");
    assert!(head.starts_with("GET /?q=1 HTTP/1.1\r\n"), "{head}");
    assert!(head.contains("\r\nhost: example.org:8080\r\n"), "{head}");
    for (target, origin) in [
        ("http://example.org", "/"),
        ("http://example.org/", "/"),
        ("http://example.org/a/b?c=d", "/a/b?c=d"),
        ("https://example.org?", "/?"),
    ] {
        let head = forwarded(format!("GET {target} HTTP/1.1\r\n\r\n").as_bytes());
        assert!(
            head.starts_with(&format!("GET {origin} HTTP/1.1\r\n")),
            "{target}: {head}"
        );
    }
}

/// Hop-by-hop headers, those `Connection` names and `Expect` stay with the client; the rest go
/// upstream with weir's forwarding headers.
#[test]
fn the_forwarded_head_is_the_request_less_its_hop_by_hop_headers() {
    let head = forwarded(
        b"GET /a?b HTTP/1.1\r\nHost: example.org\r\nConnection: keep-alive, X-Secret\r\n\
          X-Secret: 1\r\nKeep-Alive: timeout=5\r\nTE: trailers\r\nAccept: */*\r\n\
          X-Forwarded-For: 203.0.113.1\r\n\r\n",
    );
    assert_eq!(
        head.lines().next(),
        Some("GET /a?b HTTP/1.1"),
        "the request line"
    );
    // The client's lines go as the client spelled them; weir's own are in lower case.
    for kept in [
        "Host: example.org",
        "Accept: */*",
        "x-forwarded-for: 203.0.113.1, 192.0.2.7",
        "x-real-ip: 192.0.2.7",
        "x-forwarded-proto: http",
    ] {
        assert!(head.contains(&format!("\r\n{kept}\r\n")), "{kept}: {head}");
    }
    let lower = head.to_ascii_lowercase();
    for gone in ["connection", "x-secret", "keep-alive", "te:"] {
        assert!(!lower.contains(gone), "{gone}: {head}");
    }
}

/// The client's lines go upstream as they came: in its order (a name's lines not gathered, as a
/// header map gathered them) and its spelling, a run of kept lines between removed ones whole;
/// weir's lines follow them.
#[test]
fn the_clients_lines_go_in_its_order_and_spelling() {
    let head = forwarded(
        b"GET / HTTP/1.1\r\nX-A: 1\r\nhOsT: example.org\r\nConnection: close\r\nX-B:  2 \r\n\
          X-A: 3\r\n\r\n",
    );
    assert_eq!(
        head,
        "GET / HTTP/1.1\r\nX-A: 1\r\nhOsT: example.org\r\nX-B:  2 \r\nX-A: 3\r\n\
         x-forwarded-for: 192.0.2.7\r\nx-real-ip: 192.0.2.7\r\nx-forwarded-proto: http\r\n\r\n"
    );
}

/// The hop-by-hop lines of an HTTP/1 head are found as it is parsed and removed by their place
/// (`h1::head`, `Headers::note_hop_by_hop`); past the 64th line, or when `Connection` names
/// another header, by name. Every RFC 9110 name goes either way, in any case, and only they.
#[test]
fn hop_by_hop_lines_go_whether_found_by_the_parse_or_by_name() {
    let hop_by_hop = "Connection: Keep-Alive\r\nkeep-alive: timeout=5\r\nTE: trailers\r\n\
                      TRAILER: x\r\nUpgrade: h2c\r\nProxy-Authorization: x\r\n\
                      proxy-authenticate: x\r\nProxy-Connection: x\r\n";
    let padding = |count: usize| {
        (0..count)
            .map(|index| format!("X-Line-{index}: {index}\r\n"))
            .collect::<String>()
    };
    for (before, after, connection) in [
        (0, 0, ""),
        (0, 70, ""),
        (60, 0, ""),
        (64, 0, ""),
        (0, 0, "Connection: X-Private\r\n"),
    ] {
        let request = format!(
            "GET / HTTP/1.1\r\nHost: example.org\r\n{}{hop_by_hop}{connection}X-Private: 1\r\n\
             Accept: */*\r\n{}\r\n",
            padding(before),
            padding(after)
        );
        let head = forwarded(request.as_bytes()).to_ascii_lowercase();
        let mut gone = vec![
            "connection",
            "keep-alive",
            "\r\nte:",
            "trailer",
            "upgrade",
            "proxy-",
        ];
        if connection.is_empty() {
            assert!(head.contains("\r\nx-private: 1\r\n"), "{before}: {head}");
        } else {
            gone.push("x-private");
        }
        for gone in gone {
            assert!(
                !head.contains(gone),
                "{before} {connection}: {gone}: {head}"
            );
        }
        for kept in ["host: example.org", "accept: */*"] {
            assert!(head.contains(&format!("\r\n{kept}\r\n")), "{kept}: {head}");
        }
        assert_eq!(
            head.matches("\r\nx-line-").count(),
            before + after,
            "{head}"
        );
    }
}
