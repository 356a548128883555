use std::time::Duration;

use bytes::Bytes;
use http_body_util::BodyExt;
use tokio::time::Instant;

use super::*;
use crate::body::Frames;

/// A streamed body of `frames` frames of `size` bytes, each frame's bytes its index.
fn streamed(frames: usize, size: usize) -> Body {
    Body::boxed(Frames(
        (0..frames)
            .map(|index| Bytes::from(vec![index as u8; size]))
            .collect(),
    ))
}

/// Frames as a sender sends them.
struct Received(tokio::sync::mpsc::Receiver<Bytes>);

impl http_body::Body for Received {
    type Data = Bytes;
    type Error = BoxError;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        context: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, BoxError>>> {
        self.0
            .poll_recv(context)
            .map(|data| data.map(|data| Ok(Frame::data(data))))
    }
}

/// Every data frame, with the time since the start at which it came.
async fn frames(mut body: Body) -> Vec<(Duration, Bytes)> {
    let start = Instant::now();
    let mut frames = Vec::new();
    while let Some(frame) = body.frame().await {
        let data = frame.expect("a frame").into_data().expect("data");
        frames.push((start.elapsed(), data));
    }
    frames
}

#[tokio::test(start_paused = true)]
async fn a_body_goes_at_the_rate_after_its_first_bytes() {
    let limit = LimitRate {
        rate: 8192,
        after: 4096,
    };
    let body = throttled(streamed(5, 4096), limit);
    assert_eq!(http_body::Body::size_hint(&body).exact(), None);
    let frames = frames(body).await;
    // The bytes as they were, in order.
    let joined: Vec<u8> = frames.iter().flat_map(|(_, data)| data.to_vec()).collect();
    let expected: Vec<u8> = (0..5u8).flat_map(|index| vec![index; 4096]).collect();
    assert_eq!(joined, expected);
    // The first 4 KiB at once, then pieces of an eighth of a second's bytes (1 KiB), each no
    // sooner than the rate allows.
    assert_eq!(frames[0], (Duration::ZERO, Bytes::from(vec![0; 4096])));
    let mut sent = 0u64;
    for (at, data) in &frames {
        sent += data.len() as u64;
        let allowed = limit.after as f64 + limit.rate as f64 * at.as_secs_f64();
        assert!(sent as f64 <= allowed + 0.5, "{sent} bytes by {at:?}");
        assert!(data.len() <= 4096);
    }
    assert_eq!(
        frames.len(),
        1 + 16,
        "{:?}",
        frames.iter().map(|f| f.0).collect::<Vec<_>>()
    );
    // 16 KiB past the first 4 KiB at 8 KiB a second: two seconds.
    assert_eq!(
        frames.last().map(|(at, _)| *at),
        Some(Duration::from_secs(2))
    );
}

#[tokio::test(start_paused = true)]
async fn pieces_are_an_eighth_of_a_seconds_bytes_within_1_to_64_kib() {
    // 1,000 KiB a second: 125 KiB an eighth, held to 64 KiB, each 64 ms after the last (a
    // rate whose pieces take whole milliseconds: the timer's grain).
    let fast = LimitRate {
        rate: 1000 * 1024,
        after: 0,
    };
    let frames_fast = frames(throttled(streamed(1, 256 * 1024), fast)).await;
    assert_eq!(
        frames_fast
            .iter()
            .map(|(at, data)| (at.as_millis(), data.len()))
            .collect::<Vec<_>>(),
        [64, 128, 192, 256].map(|at| (at, 64 * 1024))
    );
    // 100 bytes a second: 1 KiB pieces, each ten seconds apart.
    let slow = LimitRate {
        rate: 100,
        after: 0,
    };
    let frames_slow = frames(throttled(streamed(1, 2048), slow)).await;
    let times: Vec<Duration> = frames_slow.iter().map(|(at, _)| *at).collect();
    assert_eq!(
        times,
        [Duration::from_millis(10_240), Duration::from_millis(20_480)]
    );
}

#[tokio::test(start_paused = true)]
async fn time_the_upstream_took_is_earned_and_the_length_stays_known() {
    let limit = LimitRate {
        rate: 4096,
        after: 0,
    };
    let (sender, receiver) = tokio::sync::mpsc::channel(2);
    let body = throttled(Body::boxed(Received(receiver)), limit);
    let producer = tokio::spawn(async move {
        sender.send(Bytes::from(vec![1; 512])).await.ok();
        tokio::time::sleep(Duration::from_secs(3)).await;
        sender.send(Bytes::from(vec![2; 8192])).await.ok();
    });
    let frames = frames(body).await;
    producer.await.expect("the producer");
    // The first 512 bytes waited for 512 of the rate (125 ms); after the upstream's three
    // seconds, what they earned goes at once.
    assert_eq!(frames[0].0, Duration::from_millis(125));
    assert_eq!(frames[1].0, Duration::from_secs(3));
    assert_eq!(frames[1].1.len(), 8192);
    assert_eq!(frames.len(), 2);

    let exact = Body::boxed(http_body_util::Full::new(Bytes::from(vec![0; 5000])));
    let throttled = throttled(exact, limit);
    assert_eq!(http_body::Body::size_hint(&throttled).exact(), Some(5000));
}

#[tokio::test(start_paused = true)]
async fn whole_short_and_empty_bodies_go_as_they_are() {
    let limit = LimitRate {
        rate: 10,
        after: 100,
    };
    assert!(matches!(
        throttled(Body::full(vec![0; 5000]), limit),
        Body::Full(Some(_))
    ));
    assert!(http_body::Body::is_end_stream(&throttled(
        Body::empty(),
        limit
    )));
    let short = Body::boxed(http_body_util::Full::new(Bytes::from(vec![0; 100])));
    let short = frames(throttled(short, limit)).await;
    assert_eq!(
        short.iter().map(|(at, _)| *at).collect::<Vec<_>>(),
        [Duration::ZERO]
    );
    // One byte past `after` at 10 bytes a second: the body waits a tenth of a second.
    let long = Body::boxed(http_body_util::Full::new(Bytes::from(vec![0; 101])));
    let long = throttled(long, limit);
    assert_eq!(http_body::Body::size_hint(&long).exact(), Some(101));
    let long = frames(long).await;
    assert_eq!(
        long.iter()
            .map(|(at, data)| (*at, data.len()))
            .collect::<Vec<_>>(),
        [(Duration::from_millis(100), 101)]
    );
}
