use super::*;
use crate::body::Frames;

fn head(fields: &[(&str, &str)]) -> Headers {
    let mut headers = Headers::default();
    for (name, value) in fields {
        headers.append(name, value);
    }
    headers
}

const TEN: Duration = Duration::from_secs(10);

#[test]
fn validity_is_the_upstreams_word_first_then_the_routes_for_200_301_302() {
    let ok = StatusCode::OK;
    assert_eq!(validity(ok, &head(&[]), TEN), Some(TEN));
    assert_eq!(
        validity(StatusCode::MOVED_PERMANENTLY, &head(&[]), TEN),
        Some(TEN)
    );
    assert_eq!(validity(StatusCode::FOUND, &head(&[]), TEN), Some(TEN));
    for status in [404, 500, 502, 204, 206, 303, 307] {
        let status = StatusCode::from_u16(status).unwrap();
        assert_eq!(validity(status, &head(&[]), TEN), None, "{status}");
    }
    // X-Accel-Expires over Cache-Control, over the route's time.
    let said = head(&[("X-Accel-Expires", "30"), ("Cache-Control", "max-age=5")]);
    assert_eq!(validity(ok, &said, TEN), Some(Duration::from_secs(30)));
    assert_eq!(validity(ok, &head(&[("X-Accel-Expires", "0")]), TEN), None);
    assert_eq!(
        validity(ok, &head(&[("Cache-Control", "public, max-age=5")]), TEN),
        Some(Duration::from_secs(5))
    );
    assert_eq!(
        validity(
            ok,
            &head(&[("Cache-Control", "max-age=5, s-maxage=7")]),
            TEN
        ),
        Some(Duration::from_secs(7))
    );
    assert_eq!(
        validity(ok, &head(&[("Cache-Control", "max-age=0")]), TEN),
        None
    );
    for kept_out in ["no-store", "no-cache", "private", "max-age=60, Private"] {
        assert_eq!(
            validity(ok, &head(&[("Cache-Control", kept_out)]), TEN),
            None,
            "{kept_out}"
        );
    }
    // X-Accel-Expires: 0 keeps out whatever Cache-Control says; a time of day is not read.
    let at = head(&[
        ("X-Accel-Expires", "@1700000000"),
        ("Cache-Control", "max-age=3"),
    ]);
    assert_eq!(validity(ok, &at, TEN), Some(Duration::from_secs(3)));
    assert_eq!(validity(ok, &head(&[("Set-Cookie", "a=b")]), TEN), None);
    // A Vary is kept by variant; `*` never.
    assert_eq!(
        validity(ok, &head(&[("Vary", "Accept-Encoding")]), TEN),
        Some(TEN)
    );
    assert_eq!(validity(ok, &head(&[("Vary", "Cookie, *")]), TEN), None);
    // `cache = 0`: only what the upstream says.
    assert_eq!(validity(ok, &head(&[]), Duration::ZERO), None);
    assert_eq!(
        validity(ok, &head(&[("Cache-Control", "max-age=4")]), Duration::ZERO),
        Some(Duration::from_secs(4))
    );
}

fn answer(body: &'static [u8], valid: Duration) -> Answer {
    Answer {
        status: StatusCode::OK,
        headers: head(&[("Content-Type", "text/plain")]),
        body: Bytes::from_static(body),
        expires: Instant::now() + valid,
        vary: Box::default(),
    }
}

fn filler(found: Found) -> Filler {
    match found {
        Found::Fill(filler) => filler,
        _ => panic!("expected to fill"),
    }
}

#[tokio::test(start_paused = true)]
async fn one_request_fills_a_key_others_wait_and_a_kept_answer_expires() {
    let cache = Arc::new(Cache::new(1024 * 1024, 1024));
    let first = filler(cache.find("k", true, TEN, &Headers::default()));
    let first_filler_was_expired = first.expired();
    // A second request waits for the first; a HEAD passes.
    let Found::Wait(filling) = cache.find("k", true, TEN, &Headers::default()) else {
        panic!("expected to wait");
    };
    assert!(matches!(
        cache.find("k", false, TEN, &Headers::default()),
        Found::Pass
    ));
    let waiter = tokio::spawn({
        let cache = Arc::clone(&cache);
        async move {
            cache
                .find_after_wait("k", filling, &Headers::default())
                .await
        }
    });
    tokio::task::yield_now().await;
    cache.keep(&first.key, answer(b"page", TEN));
    drop(first);
    let Some(kept) = waiter.await.unwrap() else {
        panic!("the waiter gets the kept answer");
    };
    assert_eq!(kept.body, Bytes::from_static(b"page"));
    assert!(matches!(
        cache.find("k", false, TEN, &Headers::default()),
        Found::Hit(_)
    ));
    tokio::time::advance(TEN).await;
    // Expired: gone, and the next GET fills again.
    let again = filler(cache.find("k", true, TEN, &Headers::default()));
    assert!(again.expired());
    assert!(!first_filler_was_expired);
    assert_eq!(cache.used(), (0, 0));
    // Not kept: its requests pass for the route's time, then fill again.
    again.pass();
    assert!(matches!(
        cache.find("k", true, TEN, &Headers::default()),
        Found::Pass
    ));
    tokio::time::advance(TEN).await;
    assert!(matches!(
        cache.find("k", true, TEN, &Headers::default()),
        Found::Fill(_)
    ));
}

#[tokio::test(start_paused = true)]
async fn a_waiter_goes_upstream_when_the_filler_keeps_nothing_or_takes_too_long() {
    let cache = Arc::new(Cache::new(1024 * 1024, 1024));
    let first = filler(cache.find("k", true, TEN, &Headers::default()));
    let Found::Wait(filling) = cache.find("k", true, TEN, &Headers::default()) else {
        panic!("expected to wait");
    };
    let started = Instant::now();
    assert!(cache
        .find_after_wait("k", filling, &Headers::default())
        .await
        .is_none());
    assert_eq!(started.elapsed(), LOCK_WAIT);
    drop(first);
    // The filler gone (its client left): the next request fills.
    let second = filler(cache.find("k", true, TEN, &Headers::default()));
    let Found::Wait(filling) = cache.find("k", true, TEN, &Headers::default()) else {
        panic!("expected to wait");
    };
    drop(second);
    assert!(cache
        .find_after_wait("k", filling, &Headers::default())
        .await
        .is_none());
    assert_eq!(
        started.elapsed(),
        LOCK_WAIT,
        "no wait once the filler is gone"
    );
}

#[test]
fn kept_answers_hold_at_most_cache_size_the_oldest_out_first() {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .unwrap();
    let _entered = runtime.enter();
    let one = ENTRY_COST + 2 + head(&[("Content-Type", "text/plain")]).written_len() as u64 + 100;
    let cache = Arc::new(Cache::new(3 * one, 1024));
    let body: &'static [u8] = &[b'x'; 100];
    for key in ["a", "b", "c"] {
        cache.keep(key, answer(body, TEN));
    }
    assert_eq!(cache.used(), (3 * one, 3));
    // Kept again: its old place is stale, and it is now the newest.
    cache.keep("a", answer(body, TEN));
    assert_eq!(cache.used(), (3 * one, 3));
    cache.keep("d", answer(body, TEN));
    assert_eq!(cache.used(), (3 * one, 3));
    assert!(
        matches!(
            cache.find("b", false, TEN, &Headers::default()),
            Found::Pass
        ),
        "b was the oldest"
    );
    for key in ["a", "c", "d"] {
        assert!(
            matches!(
                cache.find(key, false, TEN, &Headers::default()),
                Found::Hit(_)
            ),
            "{key}"
        );
    }
}

#[tokio::test]
async fn a_filling_body_is_kept_whole_and_one_past_the_most_is_not() {
    use http_body_util::BodyExt;
    let cache = Arc::new(Cache::new(1024 * 1024, 8));
    let stream = |chunks: &'static [&'static [u8]]| {
        Body::boxed(Frames(
            chunks
                .iter()
                .map(|chunk| Bytes::from_static(chunk))
                .collect(),
        ))
    };
    let body = filling(
        stream(&[b"abc", b"def"]),
        filler(cache.find("short", true, TEN, &Headers::default())),
        StatusCode::OK,
        head(&[]),
        TEN,
    );
    assert_eq!(body.collect().await.unwrap().to_bytes(), "abcdef");
    let Found::Hit(kept) = cache.find("short", false, TEN, &Headers::default()) else {
        panic!("kept");
    };
    assert_eq!(kept.body, "abcdef");
    let body = filling(
        stream(&[b"abcde", b"fghij"]),
        filler(cache.find("long", true, TEN, &Headers::default())),
        StatusCode::OK,
        head(&[]),
        TEN,
    );
    assert_eq!(body.collect().await.unwrap().to_bytes(), "abcdefghij");
    assert!(
        matches!(
            cache.find("long", true, TEN, &Headers::default()),
            Found::Pass
        ),
        "too long: passes"
    );
    // An empty body is kept at once.
    let body = filling(
        Body::empty(),
        filler(cache.find("empty", true, TEN, &Headers::default())),
        StatusCode::FOUND,
        head(&[]),
        TEN,
    );
    drop(body);
    assert!(matches!(
        cache.find("empty", false, TEN, &Headers::default()),
        Found::Hit(_)
    ));
}

#[tokio::test]
async fn answers_being_filled_hold_at_most_cache_size_together() {
    use http_body_util::BodyExt;
    let cache = Arc::new(Cache::new(10, 8));
    let chunks = |chunks: &'static [&'static [u8]]| {
        Body::boxed(Frames(
            chunks
                .iter()
                .map(|chunk| Bytes::from_static(chunk))
                .collect(),
        ))
    };
    let mut one = filling(
        chunks(&[b"123456", b"78"]),
        filler(cache.find("one", true, TEN, &Headers::default())),
        StatusCode::OK,
        head(&[]),
        TEN,
    );
    let mut two = filling(
        chunks(&[b"abcdef"]),
        filler(cache.find("two", true, TEN, &Headers::default())),
        StatusCode::OK,
        head(&[]),
        TEN,
    );
    one.frame().await.unwrap().unwrap();
    assert_eq!(cache.filling.load(Ordering::Acquire), 6);
    // Six more would make twelve: the second is let go, and its bytes still go to its client.
    let data = two.frame().await.unwrap().unwrap().into_data().unwrap();
    assert_eq!(data, "abcdef");
    assert!(two.frame().await.is_none());
    assert_eq!(cache.filling.load(Ordering::Acquire), 6);
    one.frame().await.unwrap().unwrap();
    assert!(one.frame().await.is_none());
    assert_eq!(cache.filling.load(Ordering::Acquire), 0);
    assert!(matches!(
        cache.find("one", false, TEN, &Headers::default()),
        Found::Hit(_)
    ));
    // Not kept, and not remembered as not to be kept: the next request fills it.
    assert!(matches!(
        cache.find("two", true, TEN, &Headers::default()),
        Found::Fill(_)
    ));
    // A body dropped half read gives its bytes back.
    let mut three = filling(
        chunks(&[b"123", b"456"]),
        filler(cache.find("three", true, TEN, &Headers::default())),
        StatusCode::OK,
        head(&[]),
        TEN,
    );
    three.frame().await.unwrap().unwrap();
    assert_eq!(cache.filling.load(Ordering::Acquire), 3);
    drop(three);
    assert_eq!(cache.filling.load(Ordering::Acquire), 0);
    assert!(matches!(
        cache.find("three", true, TEN, &Headers::default()),
        Found::Fill(_)
    ));
}

#[tokio::test(start_paused = true)]
async fn a_key_kept_again_and_again_takes_one_place_and_passing_keys_are_bounded() {
    let cache = Arc::new(Cache::new(1024 * 1024, 1024));
    cache.keep("long-lived", answer(b"x", Duration::from_secs(3600)));
    for _ in 0..100 {
        cache.keep("hot", answer(b"page", Duration::from_secs(1)));
        tokio::time::advance(Duration::from_secs(1)).await;
        // Expired and looked up: out of the order too.
        drop(cache.find("hot", true, TEN, &Headers::default()));
    }
    {
        let store = cache.store();
        assert_eq!(store.order.len(), 1, "only the long-lived answer is kept");
        assert_eq!(store.entries.len(), 1);
    }
    // Keys remembered as not kept hold at most PASSING_MOST bytes, each counted once.
    let long = "k".repeat(1000);
    for index in 0..3000 {
        filler(cache.find(&format!("{long}{index}"), true, TEN, &Headers::default())).pass();
    }
    filler(cache.find("again", true, TEN, &Headers::default())).pass();
    let store = cache.store();
    assert!(
        store.passing_bytes <= PASSING_MOST,
        "{}",
        store.passing_bytes
    );
    assert_eq!(
        store.passing_bytes,
        store.passing.keys().map(|key| key.len()).sum::<usize>()
    );
    assert!(store.passing.len() < 3000);
}

#[tokio::test]
async fn a_varying_answer_is_a_hit_for_the_same_values_and_one_variant_is_kept() {
    use http_body_util::BodyExt;
    let cache = Arc::new(Cache::new(1024 * 1024, 1024));
    let gzip = head(&[("Accept-Encoding", "gzip"), ("Cookie", "a=1")]);
    let plain = head(&[]);
    let fill = |request: &Headers| filler(cache.find("k", true, TEN, request));
    let body = filling(
        Body::full("gzipped"),
        fill(&gzip),
        StatusCode::OK,
        head(&[("Vary", "Accept-Encoding"), ("Vary", "cookie")]),
        TEN,
    );
    assert_eq!(body.collect().await.unwrap().to_bytes(), "gzipped");
    let same = head(&[("accept-encoding", "gzip"), ("cookie", "a=1")]);
    let Found::Hit(kept) = cache.find("k", false, TEN, &same) else {
        panic!("the same values: a hit");
    };
    assert_eq!(kept.body, "gzipped");
    assert!(
        matches!(cache.find("k", false, TEN, &plain), Found::Pass),
        "another variant: no hit"
    );
    assert!(matches!(
        cache.find("k", false, TEN, &head(&[("Accept-Encoding", "gzip")])),
        Found::Pass
    ));
    // The other variant fills the key, and is the one kept.
    let body = filling(
        Body::full("plain"),
        fill(&plain),
        StatusCode::OK,
        head(&[("Vary", "Accept-Encoding, Cookie")]),
        TEN,
    );
    assert_eq!(body.collect().await.unwrap().to_bytes(), "plain");
    assert!(matches!(cache.find("k", false, TEN, &plain), Found::Hit(_)));
    assert!(matches!(cache.find("k", false, TEN, &gzip), Found::Pass));
}
