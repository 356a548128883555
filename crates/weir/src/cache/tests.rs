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
    assert_eq!(validity(ok, &head(&[]), TEN, &[]), Some(TEN));
    assert_eq!(
        validity(StatusCode::MOVED_PERMANENTLY, &head(&[]), TEN, &[]),
        Some(TEN)
    );
    assert_eq!(validity(StatusCode::FOUND, &head(&[]), TEN, &[]), Some(TEN));
    for status in [404, 500, 502, 204, 206, 303, 307] {
        let status = StatusCode::from_u16(status).unwrap();
        assert_eq!(validity(status, &head(&[]), TEN, &[]), None, "{status}");
    }
    // X-Accel-Expires over Cache-Control, over the route's time.
    let said = head(&[("X-Accel-Expires", "30"), ("Cache-Control", "max-age=5")]);
    assert_eq!(validity(ok, &said, TEN, &[]), Some(Duration::from_secs(30)));
    assert_eq!(
        validity(ok, &head(&[("X-Accel-Expires", "0")]), TEN, &[]),
        None
    );
    assert_eq!(
        validity(
            ok,
            &head(&[("Cache-Control", "public, max-age=5")]),
            TEN,
            &[]
        ),
        Some(Duration::from_secs(5))
    );
    assert_eq!(
        validity(
            ok,
            &head(&[("Cache-Control", "max-age=5, s-maxage=7")]),
            TEN,
            &[]
        ),
        Some(Duration::from_secs(7))
    );
    assert_eq!(
        validity(ok, &head(&[("Cache-Control", "max-age=0")]), TEN, &[]),
        None
    );
    for kept_out in ["no-store", "no-cache", "private", "max-age=60, Private"] {
        assert_eq!(
            validity(ok, &head(&[("Cache-Control", kept_out)]), TEN, &[]),
            None,
            "{kept_out}"
        );
    }
    // X-Accel-Expires: 0 keeps out whatever Cache-Control says; a time of day is not read.
    let at = head(&[
        ("X-Accel-Expires", "@1700000000"),
        ("Cache-Control", "max-age=3"),
    ]);
    assert_eq!(validity(ok, &at, TEN, &[]), Some(Duration::from_secs(3)));
    assert_eq!(
        validity(ok, &head(&[("Set-Cookie", "a=b")]), TEN, &[]),
        None
    );
    // A Vary is kept by variant; `*` never.
    assert_eq!(
        validity(ok, &head(&[("Vary", "Accept-Encoding")]), TEN, &[]),
        Some(TEN)
    );
    assert_eq!(
        validity(ok, &head(&[("Vary", "Cookie, *")]), TEN, &[]),
        None
    );
    // `cache_statuses`: a status listed is kept its time (the upstream's word first), 200, 301
    // and 302 unlisted the route's.
    let statuses = [
        (404, Duration::from_secs(60)),
        (301, Duration::from_secs(3600)),
    ];
    let not_found = StatusCode::NOT_FOUND;
    assert_eq!(
        validity(not_found, &head(&[]), TEN, &statuses),
        Some(Duration::from_secs(60))
    );
    assert_eq!(
        validity(StatusCode::MOVED_PERMANENTLY, &head(&[]), TEN, &statuses),
        Some(Duration::from_secs(3600))
    );
    assert_eq!(validity(ok, &head(&[]), TEN, &statuses), Some(TEN));
    assert_eq!(validity(StatusCode::GONE, &head(&[]), TEN, &statuses), None);
    let said = head(&[("Cache-Control", "max-age=5")]);
    assert_eq!(
        validity(not_found, &said, TEN, &statuses),
        Some(Duration::from_secs(5))
    );
    let cookie = head(&[("Set-Cookie", "a=b")]);
    assert_eq!(validity(not_found, &cookie, TEN, &statuses), None);
    // `cache = 0`: only what the upstream says.
    assert_eq!(validity(ok, &head(&[]), Duration::ZERO, &[]), None);
    assert_eq!(
        validity(
            ok,
            &head(&[("Cache-Control", "max-age=4")]),
            Duration::ZERO,
            &[]
        ),
        Some(Duration::from_secs(4))
    );
}

/// A route's `cache = "10s"`, without `cache_stale`.
const KEEP: Times = Times {
    valid: TEN,
    stale: Duration::ZERO,
};

fn answer(body: &'static [u8], valid: Duration) -> Answer {
    let expires = Instant::now() + valid;
    Answer {
        status: StatusCode::OK,
        headers: head(&[("Content-Type", "text/plain")]),
        body: Bytes::from_static(body),
        expires,
        stale_updating: expires,
        stale_error: expires,
        vary: Box::default(),
    }
}

/// A request waiting (up to LOCK_WAIT) for another's filling of `k`, on a task of its own.
fn wait_for(
    cache: &Arc<Cache>,
    filling: watch::Receiver<()>,
) -> tokio::task::JoinHandle<Option<(Arc<Answer>, &'static str)>> {
    let cache = Arc::clone(cache);
    tokio::spawn(async move {
        cache
            .find_after_wait(
                "k",
                filling,
                &Headers::default(),
                Instant::now() + LOCK_WAIT,
            )
            .await
    })
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
    let first = filler(cache.find("k", true, KEEP, &Headers::default()));
    let first_filler_was_expired = first.expired();
    // A second request waits for the first; a HEAD passes.
    let Found::Wait(filling) = cache.find("k", true, KEEP, &Headers::default()) else {
        panic!("expected to wait");
    };
    assert!(matches!(
        cache.find("k", false, KEEP, &Headers::default()),
        Found::Pass
    ));
    let waiter = wait_for(&cache, filling);
    tokio::task::yield_now().await;
    cache.keep(&first.key, answer(b"page", TEN));
    drop(first);
    let Some((kept, "HIT")) = waiter.await.unwrap() else {
        panic!("the waiter gets the kept answer");
    };
    assert_eq!(kept.body, Bytes::from_static(b"page"));
    assert!(matches!(
        cache.find("k", false, KEEP, &Headers::default()),
        Found::Hit(_)
    ));
    tokio::time::advance(TEN).await;
    // Expired: gone, and the next GET fills again.
    let again = filler(cache.find("k", true, KEEP, &Headers::default()));
    assert!(again.expired());
    assert!(!first_filler_was_expired);
    assert_eq!(cache.used(), (0, 0));
    // Not kept: its requests pass for the route's time, then fill again.
    again.pass();
    assert!(matches!(
        cache.find("k", true, KEEP, &Headers::default()),
        Found::Pass
    ));
    tokio::time::advance(TEN).await;
    assert!(matches!(
        cache.find("k", true, KEEP, &Headers::default()),
        Found::Fill(_)
    ));
}

#[tokio::test(start_paused = true)]
async fn a_waiter_goes_upstream_when_the_filler_keeps_nothing_or_takes_too_long() {
    let cache = Arc::new(Cache::new(1024 * 1024, 1024));
    let first = filler(cache.find("k", true, KEEP, &Headers::default()));
    let Found::Wait(filling) = cache.find("k", true, KEEP, &Headers::default()) else {
        panic!("expected to wait");
    };
    let started = Instant::now();
    assert!(cache
        .find_after_wait(
            "k",
            filling,
            &Headers::default(),
            Instant::now() + LOCK_WAIT
        )
        .await
        .is_none());
    assert_eq!(started.elapsed(), LOCK_WAIT);
    drop(first);
    // The filler gone (its client left): the next request fills.
    let second = filler(cache.find("k", true, KEEP, &Headers::default()));
    let Found::Wait(filling) = cache.find("k", true, KEEP, &Headers::default()) else {
        panic!("expected to wait");
    };
    drop(second);
    assert!(cache
        .find_after_wait(
            "k",
            filling,
            &Headers::default(),
            Instant::now() + LOCK_WAIT
        )
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
            cache.find("b", false, KEEP, &Headers::default()),
            Found::Pass
        ),
        "b was the oldest"
    );
    for key in ["a", "c", "d"] {
        assert!(
            matches!(
                cache.find(key, false, KEEP, &Headers::default()),
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
        filler(cache.find("short", true, KEEP, &Headers::default())),
        StatusCode::OK,
        head(&[]),
        TEN,
    );
    assert_eq!(body.collect().await.unwrap().to_bytes(), "abcdef");
    let Found::Hit(kept) = cache.find("short", false, KEEP, &Headers::default()) else {
        panic!("kept");
    };
    assert_eq!(kept.body, "abcdef");
    let body = filling(
        stream(&[b"abcde", b"fghij"]),
        filler(cache.find("long", true, KEEP, &Headers::default())),
        StatusCode::OK,
        head(&[]),
        TEN,
    );
    assert_eq!(body.collect().await.unwrap().to_bytes(), "abcdefghij");
    assert!(
        matches!(
            cache.find("long", true, KEEP, &Headers::default()),
            Found::Pass
        ),
        "too long: passes"
    );
    // An empty body is kept at once.
    let body = filling(
        Body::empty(),
        filler(cache.find("empty", true, KEEP, &Headers::default())),
        StatusCode::FOUND,
        head(&[]),
        TEN,
    );
    drop(body);
    assert!(matches!(
        cache.find("empty", false, KEEP, &Headers::default()),
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
        filler(cache.find("one", true, KEEP, &Headers::default())),
        StatusCode::OK,
        head(&[]),
        TEN,
    );
    let mut two = filling(
        chunks(&[b"abcdef"]),
        filler(cache.find("two", true, KEEP, &Headers::default())),
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
        cache.find("one", false, KEEP, &Headers::default()),
        Found::Hit(_)
    ));
    // Not kept, and not remembered as not to be kept: the next request fills it.
    assert!(matches!(
        cache.find("two", true, KEEP, &Headers::default()),
        Found::Fill(_)
    ));
    // A body dropped half read gives its bytes back.
    let mut three = filling(
        chunks(&[b"123", b"456"]),
        filler(cache.find("three", true, KEEP, &Headers::default())),
        StatusCode::OK,
        head(&[]),
        TEN,
    );
    three.frame().await.unwrap().unwrap();
    assert_eq!(cache.filling.load(Ordering::Acquire), 3);
    drop(three);
    assert_eq!(cache.filling.load(Ordering::Acquire), 0);
    assert!(matches!(
        cache.find("three", true, KEEP, &Headers::default()),
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
        drop(cache.find("hot", true, KEEP, &Headers::default()));
    }
    {
        let store = cache.store();
        assert_eq!(store.order.len(), 1, "only the long-lived answer is kept");
        assert_eq!(store.entries.len(), 1);
    }
    assert_consistent(&cache);
    // Keys remembered as not kept hold at most PASSING_MOST bytes, each counted once.
    let long = "k".repeat(1000);
    for index in 0..3000 {
        filler(cache.find(&format!("{long}{index}"), true, KEEP, &Headers::default())).pass();
    }
    filler(cache.find("again", true, KEEP, &Headers::default())).pass();
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

/// The store's counts are its entries': bytes, answers, and one place in the order each.
fn assert_consistent(cache: &Cache) {
    let store = cache.store();
    let cost: u64 = store.entries.values().map(|kept| kept.cost).sum();
    let answers: usize = store.entries.values().map(|kept| kept.answers.len()).sum();
    assert_eq!((store.used, store.answers), (cost, answers));
    assert_eq!(store.order.len(), store.entries.len());
    for (key, kept) in &store.entries {
        let own: u64 = kept.answers.iter().map(|answer| answer.cost(key)).sum();
        assert_eq!(kept.cost, own, "{key}");
        assert!(!kept.answers.is_empty() && kept.answers.len() <= MOST_VARIANTS);
        assert_eq!(
            store.order.get(&kept.generation).map(|key| &**key),
            Some(&**key)
        );
    }
}

#[tokio::test(start_paused = true)]
async fn a_varying_answer_is_a_hit_for_the_same_values_and_a_key_keeps_its_variants() {
    use http_body_util::BodyExt;
    let cache = Arc::new(Cache::new(1024 * 1024, 1024));
    let gzip = head(&[("Accept-Encoding", "gzip"), ("Cookie", "a=1")]);
    let plain = head(&[]);
    // Served stale for a minute: an expired variant stays until it is filled again.
    let times = Times {
        valid: TEN,
        stale: Duration::from_secs(60),
    };
    let fill = |request: &Headers, body: &'static str, vary: &'static str| {
        let body = filling(
            Body::full(body),
            filler(cache.find("k", true, times, request)),
            StatusCode::OK,
            head(&[("Vary", vary)]),
            TEN,
        );
        async move { body.collect().await.unwrap().to_bytes() }
    };
    let body_for = |request: &Headers| match cache.find("k", false, KEEP, request) {
        Found::Hit(kept) => Some(kept.body.clone()),
        _ => None,
    };
    assert_eq!(
        fill(&gzip, "gzipped", "Accept-Encoding, cookie").await,
        "gzipped"
    );
    let same = head(&[("accept-encoding", "gzip"), ("cookie", "a=1")]);
    assert_eq!(
        body_for(&same).as_deref(),
        Some(&b"gzipped"[..]),
        "the same values: a hit"
    );
    assert_eq!(body_for(&plain), None, "another variant: no hit");
    assert_eq!(body_for(&head(&[("Accept-Encoding", "gzip")])), None);
    // The other variant fills the key beside the first, 5 s later: each request finds its own.
    tokio::time::advance(Duration::from_secs(5)).await;
    assert_eq!(
        fill(&plain, "plain", "Accept-Encoding, Cookie").await,
        "plain"
    );
    assert_eq!(body_for(&plain).as_deref(), Some(&b"plain"[..]));
    assert_eq!(body_for(&gzip).as_deref(), Some(&b"gzipped"[..]));
    assert_eq!(cache.used().1, 2);
    // Filled again once expired, a variant takes its own place; the other stays.
    tokio::time::advance(Duration::from_secs(6)).await;
    assert_eq!(body_for(&gzip), None, "expired");
    assert_eq!(
        fill(&gzip, "gzipped again", "Accept-Encoding, cookie").await,
        "gzipped again"
    );
    assert_eq!(body_for(&gzip).as_deref(), Some(&b"gzipped again"[..]));
    assert_eq!(body_for(&plain).as_deref(), Some(&b"plain"[..]));
    assert_eq!(cache.used().1, 2);
    assert_consistent(&cache);
    // At most MOST_VARIANTS a key: the oldest filled go.
    let requests: Vec<Headers> = (0..MOST_VARIANTS)
        .map(|index| head(&[("Accept-Encoding", &format!("br;q={index}"))]))
        .collect();
    for request in &requests {
        fill(request, "br", "Accept-Encoding").await;
    }
    assert_eq!(cache.used().1, MOST_VARIANTS);
    assert_consistent(&cache);
    assert_eq!(body_for(&gzip), None);
    assert_eq!(body_for(&plain), None);
    assert!(requests.iter().all(|request| body_for(request).is_some()));
    // An answer without Vary is every request's: the variants go.
    assert_eq!(fill(&plain, "one", "").await, "one");
    assert_eq!(cache.used().1, 1);
    assert_consistent(&cache);
    for request in requests.iter().chain([&gzip, &plain]) {
        assert_eq!(body_for(request).as_deref(), Some(&b"one"[..]));
    }
}

/// Fills `key` with `body` and `headers`, kept for ten seconds under `times`.
async fn fill_with(
    cache: &Arc<Cache>,
    key: &str,
    times: Times,
    headers: Headers,
    body: &'static str,
) {
    use http_body_util::BodyExt;
    let body = filling(
        Body::boxed(Frames(vec![Bytes::from_static(body.as_bytes())].into())),
        filler(cache.find(key, true, times, &Headers::default())),
        StatusCode::OK,
        headers,
        TEN,
    );
    body.collect().await.unwrap();
}

fn body_of(response: Response<Body>) -> Bytes {
    match response.into_body() {
        Body::Full(bytes) => bytes.unwrap_or_default(),
        _ => panic!("a kept answer's body is whole"),
    }
}

#[tokio::test(start_paused = true)]
async fn an_expired_answer_is_served_while_it_is_updated_and_when_its_upstream_fails() {
    let cache = Arc::new(Cache::new(1024 * 1024, 1024));
    let none = Headers::default();
    // `cache_stale = "60s"`: both ways, for a minute past its ten seconds.
    let stale = Times {
        valid: TEN,
        stale: Duration::from_secs(60),
    };
    fill_with(&cache, "k", stale, head(&[]), "old").await;
    tokio::time::advance(Duration::from_secs(11)).await;
    let updater = filler(cache.find("k", true, stale, &none));
    assert!(updater.expired());
    for fill in [true, false] {
        let Found::Updating(answer) = cache.find("k", fill, stale, &none) else {
            panic!("while the key is updated, its expired answer is served (fill: {fill})");
        };
        assert_eq!(answer.body, "old");
    }
    // Its upstream's answer: a 200 or a 404 is its own; a 5xx, or none, gets the expired one.
    assert!(updater.stale(Some(StatusCode::OK)).is_none());
    assert!(updater.stale(Some(StatusCode::NOT_FOUND)).is_none());
    let response = updater.stale(Some(StatusCode::BAD_GATEWAY)).unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(body_of(response), "old");
    drop(updater);
    let updater = filler(cache.find("k", true, stale, &none));
    assert_eq!(body_of(updater.stale(None).unwrap()), "old");
    drop(updater);
    // Past the minute, it is spent: gone, and a failing upstream's answer is the client's.
    tokio::time::advance(Duration::from_secs(60)).await;
    let updater = filler(cache.find("k", true, stale, &none));
    assert!(updater.expired());
    assert_eq!(cache.used().1, 0);
    assert!(updater.stale(None).is_none());
    drop(updater);
    // Without `cache_stale`, an expired answer is served no more.
    fill_with(&cache, "k", KEEP, head(&[]), "old").await;
    tokio::time::advance(Duration::from_secs(11)).await;
    let updater = filler(cache.find("k", true, KEEP, &none));
    assert!(matches!(cache.find("k", true, KEEP, &none), Found::Wait(_)));
    assert!(updater.stale(None).is_none());
    assert_consistent(&cache);
}

#[tokio::test(start_paused = true)]
async fn the_upstreams_stale_extensions_are_read_and_a_waiter_gets_a_stale_answer() {
    let cache = Arc::new(Cache::new(1024 * 1024, 1024));
    let none = Headers::default();
    // `stale-if-error` only: a request that comes while the key is updated waits, and when the
    // update fails, the waiter gets the expired answer too.
    let if_error = head(&[("Cache-Control", "max-age=10, stale-if-error=60")]);
    fill_with(&cache, "k", KEEP, if_error, "old").await;
    tokio::time::advance(Duration::from_secs(11)).await;
    let updater = filler(cache.find("k", true, KEEP, &none));
    let Found::Wait(filling) = cache.find("k", true, KEEP, &none) else {
        panic!("no stale-while-revalidate: the request waits");
    };
    let waiter = wait_for(&cache, filling);
    tokio::task::yield_now().await;
    assert_eq!(body_of(updater.stale(None).unwrap()), "old");
    drop(updater);
    let Some((answer, "STALE")) = waiter.await.unwrap() else {
        panic!("the waiter gets the expired answer the failing update left");
    };
    assert_eq!(answer.body, "old");
    // An update whose answer is not kept (a 404 now) makes the expired answer go: the key's
    // requests pass, and its waiters go upstream.
    let updater = filler(cache.find("k", true, KEEP, &none));
    let Found::Wait(filling) = cache.find("k", true, KEEP, &none) else {
        panic!("the request waits");
    };
    assert!(updater.stale(Some(StatusCode::NOT_FOUND)).is_none());
    updater.pass();
    assert!(cache
        .find_after_wait("k", filling, &none, Instant::now() + LOCK_WAIT)
        .await
        .is_none());
    assert_eq!(cache.used().1, 0);
    // `stale-while-revalidate=30`: the expired answer while updated, for 30 seconds.
    let revalidate = head(&[("Cache-Control", "max-age=10, stale-while-revalidate=30")]);
    fill_with(&cache, "r", KEEP, revalidate, "old").await;
    tokio::time::advance(Duration::from_secs(11)).await;
    let updater = filler(cache.find("r", true, KEEP, &none));
    assert!(matches!(
        cache.find("r", true, KEEP, &none),
        Found::Updating(_)
    ));
    tokio::time::advance(Duration::from_secs(30)).await;
    assert!(matches!(cache.find("r", true, KEEP, &none), Found::Wait(_)));
    assert!(updater.stale(None).is_none(), "no stale-if-error");
    // An upstream's time past the clock's end is a year.
    let huge = "max-age=18446744073709551615, stale-if-error=18446744073709551615";
    let huge = head(&[("Cache-Control", huge)]);
    let valid = validity(StatusCode::OK, &huge, TEN, &[]).unwrap();
    let body = crate::cache::filling(
        Body::full(Bytes::from_static(b"kept")),
        filler(cache.find("huge", true, KEEP, &none)),
        StatusCode::OK,
        huge,
        valid,
    );
    http_body_util::BodyExt::collect(body).await.unwrap();
    assert_eq!(valid, LONGEST);
    assert!(matches!(
        cache.find("huge", false, KEEP, &none),
        Found::Hit(_)
    ));
    assert_consistent(&cache);
}

#[test]
fn a_kept_answer_that_takes_ranges_is_cut_for_a_range_its_if_range_names() {
    let date = "Wed, 21 Oct 2015 07:28:00 GMT";
    let kept = |etag: &str| {
        let mut answer = answer(b"0123456789", TEN);
        answer.headers = head(&[
            ("Accept-Ranges", "bytes"),
            ("ETag", etag),
            ("Last-Modified", date),
            ("Content-Length", "10"),
        ]);
        answer
    };
    let status_of = |answer: &Answer, request: &[(&str, &str)]| {
        let response = answer.response_to(&head(request));
        let range = response
            .headers()
            .get("content-range")
            .map(|value| String::from_utf8_lossy(value).into_owned());
        (response.status().as_u16(), range)
    };
    let strong = kept("\"v1\"");
    let part = Some("bytes 2-4/10".to_string());
    assert_eq!(
        status_of(&strong, &[("Range", "bytes=2-4")]),
        (206, part.clone())
    );
    let response = strong.response_to(&head(&[("Range", "bytes=2-4")]));
    assert_eq!(
        response.headers().get("content-length"),
        None,
        "the writer counts the part"
    );
    assert_eq!(body_of(response), "234");
    assert_eq!(
        status_of(&strong, &[("Range", "bytes=2-4"), ("If-Range", "\"v1\"")]),
        (206, part.clone())
    );
    assert_eq!(
        status_of(&strong, &[("Range", "bytes=2-4"), ("If-Range", "\"v2\"")]),
        (200, None)
    );
    assert_eq!(
        status_of(&strong, &[("Range", "bytes=2-4"), ("If-Range", date)]),
        (206, part)
    );
    // A weak tag never matches an If-Range.
    let weak = kept("W/\"v1\"");
    assert_eq!(
        status_of(&weak, &[("Range", "bytes=2-4"), ("If-Range", "W/\"v1\"")]),
        (200, None)
    );
    assert_eq!(
        status_of(&strong, &[("Range", "bytes=20-")]),
        (416, Some("bytes */10".to_string()))
    );
    // Several ranges: the whole (as static files answer them).
    assert_eq!(
        status_of(&strong, &[("Range", "bytes=0-1,3-4")]),
        (200, None)
    );
}
