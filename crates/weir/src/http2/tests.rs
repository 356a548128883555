use super::*;

/// A frame header: length, type, flags, stream 0.
fn frame(kind: u8, flags: u8, payload: &[u8]) -> Vec<u8> {
    let length = payload.len();
    let mut bytes = vec![
        (length >> 16) as u8,
        (length >> 8) as u8,
        length as u8,
        kind,
        flags,
        0,
        0,
        0,
        0,
    ];
    bytes.extend_from_slice(payload);
    bytes
}

#[test]
fn the_parser_counts_pings_and_settings_but_not_their_acknowledgements() {
    let mut stream = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".to_vec();
    stream.extend(frame(TYPE_SETTINGS, 0, &[0; 6]));
    stream.extend(frame(TYPE_SETTINGS, FLAG_ACK, &[]));
    stream.extend(frame(TYPE_PING, 0, &[7; 8]));
    stream.extend(frame(TYPE_PING, FLAG_ACK, &[7; 8]));
    // A DATA frame whose payload looks like a PING header is payload, not a frame.
    stream.extend(frame(0x0, 0, &frame(TYPE_PING, 0, &[1; 8])));
    stream.extend(frame(TYPE_PING, 0, &[9; 8]));
    let mut whole = FrameParser::default();
    assert_eq!(whole.feed(&stream), 3);
    // The same bytes cut at every size: frame boundaries are followed across reads.
    for size in 1..stream.len() {
        let mut parser = FrameParser::default();
        let counted: u32 = stream.chunks(size).map(|chunk| parser.feed(chunk)).sum();
        assert_eq!(counted, 3, "chunks of {size}");
    }
}

#[test]
fn the_budget_allows_a_burst_then_refuses_until_time_passes() {
    let start = Instant::now();
    let mut budget = Budget::new(start);
    assert!(budget.take(CONTROL_FRAME_BURST, start));
    assert!(!budget.take(1, start));
    // A second later, a second's worth is back, and no more.
    let later = start + Duration::from_secs(1);
    assert!(budget.take(CONTROL_FRAMES_PER_SECOND, later));
    assert!(!budget.take(1, later));
    // Long idle refills up to the burst only.
    let much_later = later + Duration::from_secs(3600);
    assert!(budget.take(CONTROL_FRAME_BURST, much_later));
    assert!(!budget.take(1, much_later));
}

#[test]
fn cookie_fields_are_joined_into_one_in_their_order() {
    let mut headers = http::HeaderMap::new();
    headers.append("cookie", "a=1".parse().unwrap());
    headers.append("x-other", "between".parse().unwrap());
    headers.append("cookie", "b=2".parse().unwrap());
    headers.append("cookie", "c=3".parse().unwrap());
    join_cookies(&mut headers);
    let cookies: Vec<_> = headers.get_all("cookie").iter().collect();
    assert_eq!(cookies, ["a=1; b=2; c=3"]);
    assert_eq!(headers["x-other"], "between");
    // One field, or none, is left as it is.
    let mut headers = http::HeaderMap::new();
    headers.append("cookie", "a=1; b=2".parse().unwrap());
    join_cookies(&mut headers);
    assert_eq!(headers["cookie"], "a=1; b=2");
    let mut headers = http::HeaderMap::new();
    join_cookies(&mut headers);
    assert!(headers.is_empty());
}
