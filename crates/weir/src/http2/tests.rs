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

#[test]
fn the_parser_follows_header_blocks_across_frames_and_reads() {
    let mut stream = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".to_vec();
    stream.extend(frame(TYPE_SETTINGS, 0, &[0; 6]));
    let settled = stream.len();
    // HEADERS without END_HEADERS, two CONTINUATION frames, the second with it.
    stream.extend(frame(TYPE_HEADERS, 0, &[0x82; 5]));
    stream.extend(frame(TYPE_CONTINUATION, 0, &[0x82; 3]));
    stream.extend(frame(TYPE_CONTINUATION, FLAG_END_HEADERS, &[0x82; 4]));
    let block_done = stream.len();
    // A whole head in one frame, then a DATA frame.
    stream.extend(frame(TYPE_HEADERS, FLAG_END_HEADERS, &[0x82; 5]));
    stream.extend(frame(0x0, 0, &[0; 10]));
    let mut parser = FrameParser::default();
    for (at, byte) in stream.iter().enumerate() {
        parser.feed(std::slice::from_ref(byte));
        let read = at + 1;
        let expected = if read < settled + FRAME_HEADER_LEN {
            false
        } else if read < block_done {
            // From the HEADERS frame's header to the last byte of the END_HEADERS frame.
            true
        } else {
            let single = block_done + FRAME_HEADER_LEN;
            (single..single + 5).contains(&read)
        };
        assert_eq!(parser.in_head(), expected, "after {read} bytes");
    }
}

/// An `Activity` and the deadlines its watch sees, on tokio's paused clock.
mod activity {
    use super::*;

    const HEADER: Duration = Duration::from_secs(10);
    const KEEPALIVE: Duration = Duration::from_secs(75);

    /// Whether `future` completes within `within` (of paused time).
    async fn completes_within<F: std::future::Future>(within: Duration, future: F) -> bool {
        tokio::time::timeout(within, future).await.is_ok()
    }

    #[tokio::test(start_paused = true)]
    async fn with_no_request_it_expires_at_header_timeout() {
        let activity = Activity::new();
        let expired = activity.expired(HEADER, KEEPALIVE);
        tokio::pin!(expired);
        assert!(!completes_within(HEADER - Duration::from_millis(1), expired.as_mut()).await);
        assert_eq!(expired.await, Expiry::Header);
    }

    #[tokio::test(start_paused = true)]
    async fn a_stream_in_flight_holds_off_keepalive_until_it_ends() {
        let activity = Arc::new(Activity::new());
        let stream = activity.begin();
        // Far past keepalive_timeout, but a stream is in flight (a long download).
        assert!(!completes_within(KEEPALIVE * 10, activity.expired(HEADER, KEEPALIVE)).await);
        drop(stream);
        let expired = activity.expired(HEADER, KEEPALIVE);
        tokio::pin!(expired);
        assert!(!completes_within(KEEPALIVE - Duration::from_millis(1), expired.as_mut()).await);
        assert_eq!(expired.await, Expiry::Idle);
    }

    #[tokio::test(start_paused = true)]
    async fn keepalive_zero_expires_as_soon_as_the_last_stream_ends() {
        let activity = Arc::new(Activity::new());
        let first = activity.begin();
        let second = activity.begin();
        let expired = activity.expired(HEADER, Duration::ZERO);
        tokio::pin!(expired);
        assert!(!completes_within(Duration::from_secs(3600), expired.as_mut()).await);
        drop(first);
        assert!(!completes_within(Duration::from_secs(3600), expired.as_mut()).await);
        drop(second);
        assert!(completes_within(Duration::ZERO, expired.as_mut()).await);
    }

    #[tokio::test(start_paused = true)]
    async fn an_unfinished_head_expires_at_header_timeout_even_beside_a_stream() {
        let activity = Arc::new(Activity::new());
        let _stream = activity.begin();
        let expired = activity.expired(HEADER, KEEPALIVE);
        tokio::pin!(expired);
        assert!(!completes_within(Duration::from_secs(30), expired.as_mut()).await);
        activity.head_pending(true);
        assert!(!completes_within(HEADER - Duration::from_millis(1), expired.as_mut()).await);
        assert_eq!(expired.await, Expiry::Header);
        // A head that was finished in time leaves only the stream.
        activity.head_pending(true);
        tokio::time::advance(HEADER / 2).await;
        activity.head_pending(false);
        assert!(!completes_within(HEADER * 10, activity.expired(HEADER, KEEPALIVE)).await);
    }

    #[tokio::test(start_paused = true)]
    async fn a_drain_waits_for_streams_then_for_quiet() {
        let activity = Arc::new(Activity::new());
        let stream = activity.begin();
        let quiet = Duration::from_secs(5);
        let drained = activity.quiet_for(quiet, Instant::now());
        tokio::pin!(drained);
        assert!(!completes_within(Duration::from_secs(3600), drained.as_mut()).await);
        drop(stream);
        assert!(!completes_within(quiet - Duration::from_millis(1), drained.as_mut()).await);
        assert!(completes_within(Duration::from_millis(1), drained.as_mut()).await);
    }
}
