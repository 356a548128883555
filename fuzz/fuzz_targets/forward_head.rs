//! The head weir forwards upstream: a client's request head parsed by weir's HTTP/1 codec
//! (`weir::h1::head::parse`), then made the upstream's as the proxy does
//! (`weir::proxy::forwarded_head`: phase 1's checks, the rewrite of `proxy/forward.rs`, the
//! encoding of `upstream/client.rs`), then parsed again with `httparse`.
//!
//! Input: a first line of options, words separated by spaces: an IP address (the client, else
//! 192.0.2.1), `https` (a TLS listener), `trusted` (the client is a trusted proxy), `close` (the
//! upstream keeps no connection open), `underscores` (`underscores_in_headers`), `buffered`
//! (request buffering: a chunked body is read whole first; its size is then the number of bytes
//! after the head). The rest is the request, raw, as a client sends it.
//!
//! Properties, for every request the checks let through (the model below is written from the
//! HTTP rules and weir's documentation, on the input's own `httparse` lines, not on weir's
//! header map):
//! - the forwarded head is one whole HTTP/1.1 request head, nothing before or after;
//! - same method; the same target byte for byte in origin form, the path and query of an
//!   absolute-form target (`/` for an empty path, the query kept); a fragment (`#...`, which a
//!   target may not have) is left out;
//! - every header of the input that is not hop-by-hop (`Connection`, `Keep-Alive`,
//!   `Proxy-Connection`, `TE`, `Trailer`, `Transfer-Encoding`, `Upgrade`, `Proxy-Authorization`,
//!   `Proxy-Authenticate`, any name `Connection` lists except `Host` and `Content-Length`), not
//!   `Expect`, not underscored (unless allowed) and not one weir writes itself is there with the
//!   same values in the same order, and these lines go in the client's order, each name as the
//!   client spelled it (weir forwards the client's lines as they came);
//! - weir's own lines: `Host` (the authority of an absolute target, else the client's, else
//!   `localhost`), `X-Forwarded-For` (the client's, joined, then the client), `X-Real-IP` (the
//!   client), `X-Forwarded-Proto` (the scheme, or a trusted client's first), and nothing else;
//! - no hop-by-hop header, except those weir writes for the next hop: `Connection: upgrade` and
//!   the client's first `Upgrade` for a WebSocket handshake, else `Connection: close` towards an
//!   upstream without keepalive; `Transfer-Encoding: chunked` for a streamed body of unknown
//!   size;
//! - framing as weir decided: the client's `Content-Length` kept (its value is the body's
//!   length), else the body's size as `Content-Length` (`0` only for `POST`, `PUT`, `PATCH`),
//!   else chunked; never both.
#![no_main]

use std::net::{IpAddr, Ipv4Addr};

use http::Uri;
use libfuzzer_sys::fuzz_target;
use weir::h1::head::{parse, Framing, Parsed};

const LIMIT: usize = 16 * 1024;

/// The hop-by-hop names weir always removes (`proxy/headers.rs`, RFC 9110 §7.6.1).
const HOP_BY_HOP: [&str; 9] = [
    "connection",
    "keep-alive",
    "te",
    "trailer",
    "transfer-encoding",
    "upgrade",
    "proxy-authorization",
    "proxy-authenticate",
    "proxy-connection",
];

/// The lines weir writes itself (or keeps in its own way): checked one by one below.
const OWN: [&str; 8] = [
    "host",
    "x-forwarded-for",
    "x-real-ip",
    "x-forwarded-proto",
    "content-length",
    "transfer-encoding",
    "connection",
    "upgrade",
];

struct Options {
    client: IpAddr,
    secure: bool,
    trusted: bool,
    keepalive: bool,
    underscores: bool,
    buffered: bool,
}

fn options(line: &[u8]) -> Options {
    let mut options = Options {
        client: IpAddr::V4(Ipv4Addr::new(192, 0, 2, 1)),
        secure: false,
        trusted: false,
        keepalive: true,
        underscores: false,
        buffered: false,
    };
    for word in line.split(|byte| *byte == b' ') {
        match word {
            b"https" => options.secure = true,
            b"trusted" => options.trusted = true,
            b"close" => options.keepalive = false,
            b"underscores" => options.underscores = true,
            b"buffered" => options.buffered = true,
            _ => {
                if let Some(ip) = std::str::from_utf8(word).ok().and_then(|w| w.parse().ok()) {
                    options.client = ip;
                }
            }
        }
    }
    options
}

/// What `HeaderValue::to_str` accepts: visible ASCII, space and tab.
fn is_text(value: &[u8]) -> bool {
    value
        .iter()
        .all(|byte| *byte == b'\t' || (0x20..0x7f).contains(byte))
}

/// The comma-separated items of the values, trimmed: read as bytes, so a value with a byte
/// outside text (obs-text) still names its other items, as weir reads it (`header_list`).
fn items<'a>(values: impl Iterator<Item = &'a [u8]>) -> Vec<Vec<u8>> {
    values
        .flat_map(|value| value.split(|byte| *byte == b','))
        .map(|item| item.trim_ascii().to_ascii_lowercase())
        .collect()
}

/// A head's lines as (lower-case name, value), in order.
type Lines = Vec<(String, Vec<u8>)>;

fn values<'a>(lines: &'a Lines, name: &'a str) -> impl Iterator<Item = &'a [u8]> + 'a {
    lines
        .iter()
        .filter(move |(line_name, _)| line_name == name)
        .map(|(_, value)| value.as_slice())
}

fn ip_text(ip: IpAddr) -> Vec<u8> {
    ip.to_string().into_bytes()
}

fuzz_target!(|data: &[u8]| {
    let Some(newline) = data.iter().position(|byte| *byte == b'\n') else {
        return;
    };
    let options = options(&data[..newline]);
    let raw = &data[newline + 1..];
    let Ok(Parsed::Complete(head, length)) = parse(raw, LIMIT) else {
        return;
    };
    // The input's own lines, as httparse reads them.
    let mut input_headers = [httparse::EMPTY_HEADER; weir::h1::head::MAX_HEADERS];
    let mut input = httparse::Request::new(&mut input_headers);
    assert!(matches!(
        input.parse(raw),
        Ok(httparse::Status::Complete(whole)) if whole == length
    ));
    let method = input.method.unwrap().to_owned();
    let target = input.path.unwrap().to_owned();
    let mut lines: Lines = input
        .headers
        .iter()
        .map(|line| (line.name.to_ascii_lowercase(), line.value.to_vec()))
        .collect();
    if !options.underscores {
        lines.retain(|(name, _)| !name.contains('_'));
    }

    // The body's size as the proxy knows it when it sends the head.
    let body_size = match head.framing {
        Framing::Empty => Some(0),
        Framing::Length(length) => Some(length),
        Framing::Chunked if options.buffered => Some((raw.len() - length) as u64),
        Framing::Chunked => None,
    };
    let Some(forwarded) = weir::proxy::forwarded_head(
        weir::head_view::Request::from_parts(head.parts, ()),
        body_size,
        options.client,
        options.secure,
        options.trusted,
        options.keepalive,
        options.underscores,
    ) else {
        return;
    };

    // One whole head, nothing before or after.
    let mut output_headers = [httparse::EMPTY_HEADER; weir::h1::head::MAX_HEADERS + 16];
    let mut output = httparse::Request::new(&mut output_headers);
    match output.parse(&forwarded) {
        Ok(httparse::Status::Complete(whole)) => assert_eq!(whole, forwarded.len()),
        other => panic!(
            "the forwarded head {:?} does not parse: {other:?}",
            String::from_utf8_lossy(&forwarded)
        ),
    }
    assert!(
        forwarded.starts_with(method.as_bytes()),
        "not the request line"
    );
    assert_eq!(output.version, Some(1));
    assert_eq!(output.method, Some(method.as_str()));
    let output_target = output.path.unwrap();
    // A fragment is no part of a request target (RFC 9112 §3.2): the URI parser drops it.
    let sent_target = target.split('#').next().unwrap_or_default();
    if target.starts_with('/') || target == "*" {
        assert_eq!(output_target, sent_target, "the target changed");
    } else {
        // Absolute form: `scheme://authority` then the path and query, `/` when there is none.
        let after_scheme = &sent_target[sent_target.find("://").unwrap() + 3..];
        let rest = after_scheme
            .find(['/', '?'])
            .map_or("", |start| &after_scheme[start..]);
        let expected = match rest.as_bytes().first() {
            None => "/".to_owned(),
            Some(b'?') => format!("/{rest}"),
            Some(_) => rest.to_owned(),
        };
        assert_eq!(output_target, expected, "the absolute target {target:?}");
    }
    let out: Lines = output
        .headers
        .iter()
        .map(|line| (line.name.to_ascii_lowercase(), line.value.to_vec()))
        .collect();

    // What the client's `Connection` makes hop-by-hop (`Host` and `Content-Length` excepted).
    let named = items(values(&lines, "connection"));
    let is_hop = |name: &str| {
        HOP_BY_HOP.contains(&name)
            || name == "expect"
            || (name != "host"
                && name != "content-length"
                && named.iter().any(|item| item == name.as_bytes()))
    };
    // Every other name the client sent keeps its values, in order.
    for (name, _) in &lines {
        if is_hop(name) || OWN.contains(&name.as_str()) {
            continue;
        }
        let sent: Vec<_> = values(&lines, name).collect();
        let got: Vec<_> = values(&out, name).collect();
        assert_eq!(got, sent, "the values of {name}");
    }
    // The client's lines that go on, in its order and spelling.
    let passed = |name: &str| {
        let name = name.to_ascii_lowercase();
        !is_hop(&name)
            && !OWN.contains(&name.as_str())
            && (options.underscores || !name.contains('_'))
    };
    let sent_lines: Vec<(&str, &[u8])> = input
        .headers
        .iter()
        .filter(|line| passed(line.name))
        .map(|line| (line.name, line.value))
        .collect();
    let got_lines: Vec<(&str, &[u8])> = output
        .headers
        .iter()
        .filter(|line| !OWN.contains(&line.name.to_ascii_lowercase().as_str()))
        .map(|line| (line.name, line.value))
        .collect();
    assert_eq!(got_lines, sent_lines, "the client's lines, in order");
    // Nothing that is neither the client's nor weir's own.
    for (name, _) in &out {
        assert!(
            OWN.contains(&name.as_str()) || (!is_hop(name) && values(&lines, name).count() > 0),
            "{name} was not sent by the client"
        );
    }

    // Weir's own lines.
    let one = |name: &str| -> Option<Vec<u8>> {
        let mut all = values(&out, name);
        let first = all.next().map(<[u8]>::to_vec);
        assert!(all.next().is_none(), "more than one {name}");
        first
    };
    let authority = target
        .parse::<Uri>()
        .ok()
        .and_then(|uri| uri.authority().map(|a| a.as_str().to_owned()));
    let host = match authority {
        Some(authority) => authority.into_bytes(),
        None => values(&lines, "host")
            .next()
            .map_or(b"localhost".to_vec(), <[u8]>::to_vec),
    };
    assert_eq!(one("host"), Some(host));
    let client = ip_text(options.client);
    let mut forwarded_for = Vec::new();
    if !is_hop("x-forwarded-for") {
        for value in values(&lines, "x-forwarded-for").filter(|value| is_text(value)) {
            forwarded_for.extend_from_slice(value);
            forwarded_for.extend_from_slice(b", ");
        }
    }
    forwarded_for.extend_from_slice(&client);
    assert_eq!(one("x-forwarded-for"), Some(forwarded_for));
    assert_eq!(one("x-real-ip"), Some(client));
    let scheme: &[u8] = if options.secure { b"https" } else { b"http" };
    let proto = values(&lines, "x-forwarded-proto")
        .next()
        .filter(|_| options.trusted)
        .unwrap_or(scheme);
    assert_eq!(one("x-forwarded-proto"), Some(proto.to_vec()));

    // The next hop's own lines.
    let websocket = method == "GET"
        && body_size == Some(0)
        && values(&lines, "transfer-encoding").next().is_none()
        && items(values(&lines, "upgrade")).contains(&b"websocket".to_vec())
        && named.contains(&b"upgrade".to_vec());
    if websocket {
        assert_eq!(one("connection").as_deref(), Some(&b"upgrade"[..]));
        assert_eq!(
            one("upgrade").as_deref(),
            values(&lines, "upgrade").next(),
            "the client's first Upgrade"
        );
    } else {
        let close: Option<&[u8]> = (!options.keepalive).then_some(b"close");
        assert_eq!(one("connection").as_deref(), close);
        assert_eq!(one("upgrade"), None);
    }

    // Framing.
    let sent_length = values(&lines, "content-length").next();
    let length = one("content-length");
    let chunked = one("transfer-encoding");
    match (sent_length, body_size) {
        (Some(sent), _) => {
            assert_eq!(length.as_deref(), Some(sent));
            let value: u64 = std::str::from_utf8(sent).unwrap().parse().unwrap();
            assert_eq!(body_size, Some(value));
            assert_eq!(chunked, None);
        }
        (None, Some(0)) => {
            let zero: Option<&[u8]> =
                matches!(method.as_str(), "POST" | "PUT" | "PATCH").then_some(b"0");
            assert_eq!(length.as_deref(), zero);
            assert_eq!(chunked, None);
        }
        (None, Some(size)) => {
            assert_eq!(length, Some(size.to_string().into_bytes()));
            assert_eq!(chunked, None);
        }
        (None, None) => {
            assert_eq!(length, None);
            assert_eq!(chunked.as_deref(), Some(&b"chunked"[..]));
        }
    }
});
