//! A route's `cache`, as nginx's `proxy_cache` with `proxy_cache_valid`, `proxy_cache_lock on`
//! and a bypass for requests with a cookie or `Authorization`: the app's `/counted` answers
//! each request with a new number, so two answers alike are one answer kept. What is kept and
//! what passes is asserted case by case; with `WEIR_E2E=1` a real nginx with those directives
//! gives the same answers, but where the two differ on purpose (weir's key has the client's
//! `X-Forwarded-Host`, nginx's not).

use std::collections::HashSet;

use weir_testkit::nginx::Nginx;

use crate::locations::nginx_enabled;
use crate::support::*;

fn weir_config(app: &str, log: &std::path::Path) -> String {
    format!(
        r#"
[server]
listen = ["127.0.0.1:0"]
cache_max_answer = "4k"

[admin]
listen = "127.0.0.1:0"

[access_log]
enabled = true
path = "{}"

[upstreams.app]
servers = ["{app}"]

[[routes]]
path = "/"
upstream = "app"
cache = "10s"
response_headers = {{ X-Cache-Status = "$upstream_cache_status" }}

[[routes]]
path = "/session/"
upstream = "app"
upstream_path = "/"
cache = "10s"
cache_pass_cookies = ["sessionid"]

[[routes]]
path = "/fresh/"
upstream = "app"
upstream_path = "/"
response_headers = {{ X-Cache-Status = "$upstream_cache_status" }}
"#,
        log.display()
    )
}

fn start_nginx(app: &str, dir: &std::path::Path) -> Nginx {
    let http = format!(
        "    proxy_cache_path {} keys_zone=kept:1m;\n",
        dir.display()
    );
    let server = format!(
        "        location / {{ proxy_pass http://{app}; proxy_cache kept; proxy_cache_valid 10s;\n\
         proxy_cache_lock on; proxy_cache_bypass $http_cookie$http_authorization;\n\
         proxy_no_cache $http_cookie$http_authorization;\n\
         add_header X-Cache-Status $upstream_cache_status; }}\n\
         location /session/ {{ proxy_pass http://{app}/; proxy_cache kept; proxy_cache_valid 10s;\n\
         proxy_cache_lock on; proxy_cache_bypass $cookie_sessionid$http_authorization;\n\
         proxy_no_cache $cookie_sessionid$http_authorization; }}\n\
         location /fresh/ {{ proxy_pass http://{app}/; add_header X-Cache-Status $upstream_cache_status; }}\n"
    );
    Nginx::start(&http, &server).expect("nginx starts")
}

/// The gateway's reply to `method path` for `cached.test`, with these request headers.
async fn reply(
    gateway: std::net::SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
) -> weir_testkit::Reply {
    let mut request = http::Request::builder()
        .method(method)
        .uri(path)
        .header("host", "cached.test");
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    Client::connect(gateway)
        .await
        .send(request.body(Default::default()).unwrap())
        .await
        .unwrap()
}

/// The app's answer to `path`, with these request headers: status and body.
async fn ask(
    gateway: std::net::SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
) -> (u16, String) {
    let reply = reply(gateway, method, path, headers).await;
    (
        reply.status.as_u16(),
        String::from_utf8_lossy(&reply.body).into_owned(),
    )
}

/// The `X-Cache-Status` (`$upstream_cache_status`) of the answer to `path`, empty when none.
async fn cache_status(
    gateway: std::net::SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
) -> String {
    let reply = reply(gateway, method, path, headers).await;
    reply
        .header("x-cache-status")
        .unwrap_or_default()
        .to_string()
}

/// Two `GET`s of `path` (the first with `first` headers): whether the second got the first's
/// answer.
async fn kept(gateway: std::net::SocketAddr, path: &str, first: &[(&str, &str)]) -> bool {
    let (_, one) = ask(gateway, "GET", path, first).await;
    let (_, two) = ask(gateway, "GET", path, &[]).await;
    one == two
}

/// Every case, in order; `who` is "weir" or "nginx".
async fn check(gateway: std::net::SocketAddr, who: &str) {
    let run = format!("{who}-{}", std::process::id());
    let path = |case: &str| format!("/counted?case={case}-{run}");
    // A 200 is kept: the second GET, and a HEAD, get it; another query is another answer.
    let (status, first) = ask(gateway, "GET", &path("plain"), &[]).await;
    assert_eq!(status, 200, "{who}");
    assert_eq!(
        ask(gateway, "GET", &path("plain"), &[]).await.1,
        first,
        "{who}"
    );
    let (head, empty) = ask(gateway, "HEAD", &path("plain"), &[]).await;
    assert_eq!((head, empty.as_str()), (200, ""), "{who}");
    assert_ne!(
        ask(gateway, "GET", &format!("{}&other", path("plain")), &[])
            .await
            .1,
        first,
        "{who}"
    );
    // A route without `cache` keeps nothing.
    assert!(
        !kept(gateway, &format!("/fresh{}", path("fresh")), &[]).await,
        "{who}"
    );
    // The upstream says no, or gives what is not kept.
    for (case, query) in [
        ("no-store", "&cache_control=no-store"),
        ("private", "&cache_control=private%2C%20max-age%3D60"),
        ("max-age-0", "&cache_control=max-age%3D0"),
        ("accel-0", "&accel_expires=0&cache_control=max-age%3D60"),
        ("cookie-set", "&set_cookie=a%3D1"),
        ("404", "&status=404"),
        ("500", "&status=500"),
    ] {
        let path = format!("{}{query}", path(case));
        assert!(!kept(gateway, &path, &[]).await, "{who} {case} kept");
    }
    // What the upstream's headers allow is kept (its `max-age` over a 404's not being kept,
    // for nginx only: weir keeps 200, 301 and 302 alone).
    for (case, query) in [
        ("max-age", "&cache_control=max-age%3D60"),
        ("accel", "&accel_expires=60"),
    ] {
        let path = format!("{}{query}", path(case));
        assert!(kept(gateway, &path, &[]).await, "{who} {case} not kept");
    }
    // A `Vary` answer is a hit for a request with the same values of what it names: a second
    // variant is a miss, and kept beside the first: browsers that ask in turn with their own
    // `Accept-Encoding` each find theirs.
    let vary = format!("{}&vary=Accept-Encoding", path("vary"));
    let mut told = Vec::new();
    for encoding in ["gzip", "gzip", "br", "br", "gzip", "br", "gzip, br", "gzip"] {
        let headers = [("accept-encoding", encoding)];
        told.push(cache_status(gateway, "GET", &vary, &headers).await);
    }
    assert_eq!(
        told,
        ["MISS", "HIT", "MISS", "HIT", "HIT", "HIT", "MISS", "HIT"],
        "{who} vary"
    );
    assert!(
        !kept(gateway, &format!("{}&vary=%2A", path("vary-all")), &[]).await,
        "{who}"
    );
    // A request with a cookie or `Authorization` neither gets a kept answer nor leaves one.
    let (_, anonymous) = ask(gateway, "GET", &path("signed-in"), &[]).await;
    for headers in [
        [("cookie", "sessionid=alice")],
        [("cookie", "csrftoken=1")],
        [("authorization", "Basic YTpi")],
    ] {
        let (_, own) = ask(gateway, "GET", &path("signed-in"), &headers).await;
        assert_ne!(own, anonymous, "{who} {headers:?} got the kept answer");
    }
    assert_eq!(
        ask(gateway, "GET", &path("signed-in"), &[]).await.1,
        anonymous,
        "{who}"
    );
    assert!(
        !kept(gateway, &path("cookie-first"), &[("cookie", "a=1")]).await,
        "{who}"
    );
    // A forwarded host is in weir's key: an app that builds links from it cannot have one
    // client's value kept for everyone, as nginx's default key (the URL alone) lets it.
    let (_, forged) = ask(
        gateway,
        "GET",
        &path("forwarded"),
        &[("x-forwarded-host", "evil.test")],
    )
    .await;
    let (_, plain) = ask(gateway, "GET", &path("forwarded"), &[]).await;
    assert_eq!(forged == plain, who == "nginx", "{who} forwarded host");
    // `cache_pass_cookies`: only the named cookie passes.
    let session = format!("/session{}", path("session"));
    let (_, anonymous) = ask(gateway, "GET", &session, &[]).await;
    let (_, csrf) = ask(
        gateway,
        "GET",
        &session,
        &[("cookie", "csrftoken=1; theme=dark")],
    )
    .await;
    assert_eq!(csrf, anonymous, "{who}: a cookie not named passes nothing");
    for cookie in ["sessionid=alice", "csrftoken=1; sessionid=alice"] {
        let (_, own) = ask(gateway, "GET", &session, &[("cookie", cookie)]).await;
        assert_ne!(own, anonymous, "{who} {cookie}");
    }
    // A POST goes upstream.
    assert_ne!(
        ask(gateway, "POST", &path("plain"), &[]).await.1,
        first,
        "{who}"
    );
    // `$upstream_cache_status`, request by request.
    let status = format!("/counted?case=status-{run}");
    let mut told = Vec::new();
    for (method, path, headers) in [
        ("GET", status.as_str(), &[][..]),
        ("GET", &status, &[]),
        ("HEAD", &status, &[]),
        ("GET", &status, &[("cookie", "sessionid=alice")]),
        ("GET", &status, &[("authorization", "Basic YTpi")]),
        ("POST", &status, &[]),
        ("GET", &format!("/fresh{status}"), &[]),
        ("GET", &format!("{status}&cache_control=no-store"), &[]),
        ("GET", &format!("{status}&cache_control=no-store"), &[]),
    ] {
        told.push(cache_status(gateway, method, path, headers).await);
    }
    assert_eq!(
        told,
        ["MISS", "HIT", "HIT", "BYPASS", "BYPASS", "", "", "MISS", "MISS"],
        "{who}"
    );
    // A conditional request gets 304 from a kept answer whose ETag it names, or whose
    // Last-Modified it has (exactly, as nginx's if_modified_since exact), else the answer.
    let validated = format!(
        "{}&etag=%22v1%22&last_modified=Tue%2C%2001%20Dec%202026%2010%3A00%3A00%20GMT",
        path("conditional")
    );
    let (status, body) = ask(gateway, "GET", &validated, &[]).await;
    assert_eq!(status, 200, "{who}");
    for (headers, expected) in [
        (&[("if-none-match", "\"v1\"")][..], 304),
        (&[("if-none-match", "W/\"v1\", \"v0\"")], 304),
        (&[("if-none-match", "\"v0\"")], 200),
        (
            &[("if-modified-since", "Tue, 01 Dec 2026 10:00:00 GMT")],
            304,
        ),
        (
            &[("if-modified-since", "Wed, 02 Dec 2026 10:00:00 GMT")],
            200,
        ),
    ] {
        let (status, answer) = ask(gateway, "GET", &validated, headers).await;
        assert_eq!(status, expected, "{who} {headers:?}");
        let expected_body = if expected == 304 { "" } else { body.as_str() };
        assert_eq!(answer, expected_body, "{who} {headers:?}");
    }
    // A request that fills goes without its range (the app would answer 206), so the whole
    // answer is what it gets, and is kept.
    let ranged = path("range");
    let (status, _) = ask(gateway, "GET", &ranged, &[("range", "bytes=0-1")]).await;
    assert_eq!(status, 200, "{who}");
    assert_eq!(
        cache_status(gateway, "GET", &ranged, &[]).await,
        "HIT",
        "{who}"
    );
    // A kept answer's range is cut out of it (206) when its app said it takes ranges
    // (Accept-Ranges); past its end, 416; with an If-Range that names another answer, the
    // whole. Without Accept-Ranges, the whole too.
    assert_eq!(
        ask(gateway, "GET", &ranged, &[("range", "bytes=1-")])
            .await
            .0,
        200,
        "{who}"
    );
    let ranged = format!("{}&accept_ranges=bytes", path("ranges"));
    let (_, whole) = ask(gateway, "GET", &ranged, &[]).await;
    let length = whole.len();
    let part = reply(gateway, "GET", &ranged, &[("range", "bytes=1-")]).await;
    assert_eq!(part.status.as_u16(), 206, "{who}");
    assert_eq!(part.body, whole.as_bytes()[1..], "{who}");
    let told = format!("bytes 1-{}/{length}", length - 1);
    assert_eq!(part.header("content-range"), Some(told.as_str()), "{who}");
    let past = reply(gateway, "GET", &ranged, &[("range", "bytes=100-")]).await;
    assert_eq!(past.status.as_u16(), 416, "{who}");
    let told = format!("bytes */{length}");
    assert_eq!(past.header("content-range"), Some(told.as_str()), "{who}");
    let other = [("range", "bytes=1-"), ("if-range", "\"other\"")];
    let (status, body) = ask(gateway, "GET", &ranged, &other).await;
    assert_eq!((status, body), (200, whole), "{who}");
    // Kept for the upstream's second: after it, the next request fills it again (EXPIRED).
    // (nginx counts whole seconds, and keeps it up to a second longer.)
    let short = format!("{}&cache_control=max-age%3D1", path("expires"));
    assert_eq!(
        cache_status(gateway, "GET", &short, &[]).await,
        "MISS",
        "{who}"
    );
    assert_eq!(
        cache_status(gateway, "GET", &short, &[]).await,
        "HIT",
        "{who}"
    );
    tokio::time::sleep(std::time::Duration::from_millis(2100)).await;
    assert_eq!(
        cache_status(gateway, "GET", &short, &[]).await,
        "EXPIRED",
        "{who}"
    );
    // Eight requests at once for a missing slow answer: one goes upstream, all get its answer.
    let slow = format!("{}&ms=300", path("lock"));
    let asked: Vec<_> = (0..8)
        .map(|_| {
            let slow = slow.clone();
            tokio::spawn(async move { ask(gateway, "GET", &slow, &[]).await })
        })
        .collect();
    let mut answers = HashSet::new();
    for asked in asked {
        let (status, body) = asked.await.unwrap();
        assert_eq!(status, 200, "{who}");
        answers.insert(body);
    }
    assert_eq!(answers.len(), 1, "{who}: {answers:?}");
    // Another variant's requests that come while one variant is filled wait, and then one of
    // them fills theirs while the rest wait for it: one request upstream a variant. (The gzip
    // request goes first; the others come while the app takes its 300 ms.)
    let slow = format!("{}&ms=300&vary=Accept-Encoding", path("lock-vary"));
    let first = tokio::spawn({
        let slow = slow.clone();
        async move { ask(gateway, "GET", &slow, &[("accept-encoding", "gzip")]).await }
    });
    tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    let others: Vec<_> = (0..4)
        .map(|_| {
            let slow = slow.clone();
            tokio::spawn(
                async move { ask(gateway, "GET", &slow, &[("accept-encoding", "br")]).await },
            )
        })
        .collect();
    let mut answers = HashSet::new();
    for asked in others {
        let (status, body) = asked.await.unwrap();
        assert_eq!(status, 200, "{who}");
        answers.insert(body);
    }
    assert_eq!(first.await.unwrap().0, 200, "{who}");
    assert_eq!(answers.len(), 1, "{who}: {answers:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_routes_cache_keeps_and_passes_what_nginxs_proxy_cache_does() {
    let app = UpstreamServer::start(Transport::Tcp).await;
    let logs = tempfile::tempdir().unwrap();
    let log = logs.path().join("access.log");
    let gateway = TestGateway::start(&weir_config(&app.address, &log)).await;
    check(gateway.addr, "weir").await;
    // The access log says how the cache answered.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
    loop {
        let text = std::fs::read_to_string(&log).unwrap_or_default();
        let told = |status: &str| {
            text.lines()
                .filter(|line| line.contains("/counted?case=status-weir-"))
                .filter(|line| line.ends_with(&format!(" cache={status}")))
                .count()
        };
        if (told("MISS"), told("HIT"), told("BYPASS")) == (3, 2, 2) {
            break;
        }
        assert!(std::time::Instant::now() < deadline, "{text}");
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    // The metrics count each way the cache answered, and what it keeps.
    let metrics = weir_testkit::client::get(gateway.admin_addr.expect("admin"), "/metrics")
        .await
        .text();
    let value = |line: &str| -> u64 {
        metrics
            .lines()
            .find_map(|sample| sample.strip_prefix(line)?.trim().parse().ok())
            .unwrap_or_else(|| panic!("no {line} in {metrics}"))
    };
    for status in ["HIT", "MISS", "EXPIRED", "BYPASS"] {
        let count = value(&format!("weir_cache_requests_total{{status=\"{status}\"}}"));
        assert!(count > 0, "{status}: {count}");
    }
    assert!(value("weir_cache_answers") > 0);
    assert!(value("weir_cache_bytes") > 0);
    assert_eq!(value("weir_cache_filling_bytes"), 0);
    // Past `cache_max_answer`, an answer goes whole and is not kept.
    let before = app.requests();
    for _ in 0..2 {
        let (status, body) = ask(gateway.addr, "GET", "/big?bytes=8192", &[]).await;
        assert_eq!((status, body.len()), (200, 8192));
    }
    let (_, small) = ask(gateway.addr, "GET", "/big?bytes=4096", &[]).await;
    assert_eq!(small.len(), 4096);
    let (_, again) = ask(gateway.addr, "GET", "/big?bytes=4096", &[]).await;
    assert_eq!(again.len(), 4096);
    assert_eq!(app.requests() - before, 3, "two too long, one kept");

    if !nginx_enabled() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let nginx = start_nginx(&app.address, dir.path());
    check(nginx.addr, "nginx").await;
}

/// A gateway in front of `app` whose route `/` has these keys (its `cache`) and says its
/// `$upstream_cache_status` in `X-Cache-Status`; `server` and `upstream` add keys to those
/// tables.
async fn keeping(app: &UpstreamServer, server: &str, upstream: &str, route: &str) -> TestGateway {
    TestGateway::start(&format!(
        r#"
[server]
listen = ["127.0.0.1:0"]
{server}

[upstreams.app]
servers = ["{}"]
{upstream}

[[routes]]
path = "/"
upstream = "app"
{route}
response_headers = {{ X-Cache-Status = "$upstream_cache_status" }}
"#,
        app.address
    ))
    .await
}

/// nginx in front of `app` whose `location /` keeps its answers in `dir` with
/// `proxy_cache_lock on` and these directives, as `keeping`'s route does in weir.
fn nginx_keeping(app: &UpstreamServer, dir: &std::path::Path, directives: &str) -> Nginx {
    let http = format!(
        "    proxy_cache_path {} keys_zone=kept:1m;\n",
        dir.display()
    );
    let server = format!(
        "        location / {{ proxy_pass http://{}; proxy_cache kept; proxy_cache_lock on;\n\
         {directives} }}\n",
        app.address
    );
    Nginx::start(&http, &server).expect("nginx starts")
}

/// Waits (up to 5 s) until the app has seen more requests than `before`.
async fn until_the_app_saw_more(app: &UpstreamServer, before: usize) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
    while app.requests() == before {
        assert!(
            std::time::Instant::now() < deadline,
            "no request reached the app"
        );
        tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    }
}

/// A client that does not read the answer it fills holds no one up: the answer is read ahead
/// of it, and kept once the upstream's is whole, so the next request for it is a hit (not a
/// wait for that client, then a request of its own upstream).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slow_client_filling_an_answer_holds_up_no_other() {
    use tokio::io::AsyncWriteExt;
    let app = UpstreamServer::start(Transport::Tcp).await;
    let gateway = keeping(
        &app,
        "cache_size = \"64m\"\ncache_max_answer = \"16m\"",
        "",
        "cache = \"1m\"",
    )
    .await;
    // 8 MiB: far more than the sockets between weir and this client hold.
    let path = "/big?bytes=8388608";
    let mut slow = tokio::net::TcpStream::connect(gateway.addr).await.unwrap();
    slow.write_all(format!("GET {path} HTTP/1.1\r\nHost: cached.test\r\n\r\n").as_bytes())
        .await
        .unwrap();
    // The app has answered it whole once the requests it saw are counted.
    let before = std::time::Instant::now();
    while app.requests() == 0 {
        assert!(before.elapsed() < std::time::Duration::from_secs(10));
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    let status = cache_status(gateway.addr, "GET", path, &[]).await;
    assert_eq!(
        status, "HIT",
        "the slow client's answer was kept without waiting for it"
    );
    assert_eq!(app.requests(), 1);
    drop(slow);
}

/// `cache_stale`, as nginx's `proxy_cache_use_stale updating error timeout http_500 http_502
/// http_503 http_504`: an expired answer goes to the requests that come while one request
/// updates it (`UPDATING`), and to the request whose app answers `500` or is down (`STALE`).
/// With `WEIR_E2E=1`, nginx with those directives gives the same answers.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_expired_answer_is_served_while_it_is_updated_and_when_the_app_fails() {
    let app = UpstreamServer::start(Transport::Tcp).await;
    let gateway = keeping(&app, "", "", "cache = \"1s\"\ncache_stale = \"1m\"").await;
    check_stale(gateway.addr, &app, "weir").await;

    if !nginx_enabled() {
        return;
    }
    let app = UpstreamServer::start(Transport::Tcp).await;
    let dir = tempfile::tempdir().unwrap();
    let nginx = nginx_keeping(&app, dir.path(), NGINX_STALE);
    check_stale(nginx.addr, &app, "nginx").await;
}

/// nginx's directives for the route's `cache = "1s"` and `cache_stale`.
const NGINX_STALE: &str = "proxy_cache_valid 1s;\n\
    proxy_cache_use_stale updating error timeout http_500 http_502 http_503 http_504;\n\
    add_header X-Cache-Status $upstream_cache_status always;";

/// What a reply tells of a kept page: its status, its `X-Cache-Status` and its body.
fn told(reply: &weir_testkit::Reply) -> (u16, String, String) {
    (
        reply.status.as_u16(),
        reply
            .header("x-cache-status")
            .unwrap_or_default()
            .to_string(),
        String::from_utf8_lossy(&reply.body).into_owned(),
    )
}

async fn check_stale(gateway: std::net::SocketAddr, app: &UpstreamServer, who: &str) {
    let path = format!("/counted?case=stale-{who}-{}", std::process::id());
    let (status, cache, first) = told(&reply(gateway, "GET", &path, &[]).await);
    assert_eq!((status, cache.as_str()), (200, "MISS"), "{who}");
    // Expired (nginx counts whole seconds, and keeps it up to a second longer): the app's 500
    // leaves the expired answer to its request.
    let expire = std::time::Duration::from_millis(2100);
    tokio::time::sleep(expire).await;
    let failed = reply(gateway, "GET", &path, &[("x-counted-status", "500")]).await;
    assert_eq!(told(&failed), (200, "STALE".into(), first.clone()), "{who}");
    // A slow update: the request that comes while it runs gets the expired answer at once, and
    // the one after it the new answer.
    let asked = app.requests();
    let updating = tokio::spawn({
        let path = path.clone();
        async move { reply(gateway, "GET", &path, &[("x-counted-ms", "500")]).await }
    });
    until_the_app_saw_more(app, asked).await;
    let meanwhile = reply(gateway, "GET", &path, &[]).await;
    assert_eq!(
        told(&meanwhile),
        (200, "UPDATING".into(), first.clone()),
        "{who}"
    );
    let (status, cache, updated) = told(&updating.await.unwrap());
    assert_eq!((status, cache.as_str()), (200, "EXPIRED"), "{who}");
    assert_ne!(updated, first, "{who}");
    let after = reply(gateway, "GET", &path, &[]).await;
    assert_eq!(told(&after), (200, "HIT".into(), updated.clone()), "{who}");
    // Expired again, and the app down: the expired answer, not a 502.
    tokio::time::sleep(expire).await;
    app.stop();
    let down = reply(gateway, "GET", &path, &[]).await;
    assert_eq!(told(&down), (200, "STALE".into(), updated), "{who}");
    // Another page was never kept: its request gets the failure.
    let missing = format!("{path}-missing");
    assert_eq!(
        reply(gateway, "GET", &missing, &[]).await.status.as_u16(),
        502,
        "{who}"
    );
}

/// `cache_background_update`, as nginx's `proxy_cache_background_update on`: the request that
/// finds its page expired gets it at once (`STALE`), while a request of the gateway's own
/// updates it; a request meanwhile gets it too (`UPDATING`), and one after the update the new
/// page (`HIT`). The app sees the update alone. With `WEIR_E2E=1`, nginx with those directives
/// gives the same answers.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_expired_answer_is_updated_in_the_background() {
    let app = UpstreamServer::start(Transport::Tcp).await;
    let log = tempfile::tempdir().unwrap();
    let log = log.path().join("access.log");
    let gateway = keeping(
        &app,
        &format!(
            "\n[access_log]\nenabled = true\nformat = \"json\"\npath = \"{}\"",
            log.display()
        ),
        "",
        "cache = \"1s\"\ncache_stale = \"1m\"\ncache_background_update = true",
    )
    .await;
    check_background(gateway.addr, &app, "weir").await;
    // The clients' requests are logged; the update is not (nginx's `log_subrequest off`).
    let text = wait_for(
        "the last line, a HIT",
        std::time::Duration::from_secs(5),
        || std::fs::read_to_string(&log).unwrap_or_default(),
        |text| {
            text.lines()
                .last()
                .is_some_and(|line| line.contains("\"HIT\""))
        },
    )
    .await;
    let statuses: Vec<String> = text
        .lines()
        .map(|line| {
            let line: serde_json::Value = serde_json::from_str(line).unwrap();
            line["upstream_cache_status"].as_str().unwrap().to_string()
        })
        .collect();
    assert_eq!(
        &statuses[..3],
        ["MISS", "STALE", "UPDATING"],
        "{statuses:?}"
    );
    assert!(!statuses.contains(&"EXPIRED".to_string()), "{statuses:?}");

    if !nginx_enabled() {
        return;
    }
    let app = UpstreamServer::start(Transport::Tcp).await;
    let dir = tempfile::tempdir().unwrap();
    let nginx = nginx_keeping(
        &app,
        dir.path(),
        &format!("{NGINX_STALE}\nproxy_cache_background_update on;"),
    );
    check_background(nginx.addr, &app, "nginx").await;
}

async fn check_background(gateway: std::net::SocketAddr, app: &UpstreamServer, who: &str) {
    let path = format!("/counted?case=background-{who}-{}", std::process::id());
    let (status, cache, first) = told(&reply(gateway, "GET", &path, &[]).await);
    assert_eq!((status, cache.as_str()), (200, "MISS"), "{who}");
    // Expired (nginx counts whole seconds, and keeps it up to a second longer).
    tokio::time::sleep(std::time::Duration::from_millis(2100)).await;
    let asked = app.requests();
    // The update is slow (its request is a copy of this one's, header and all); this request
    // is answered without it.
    let found = reply(gateway, "GET", &path, &[("x-counted-ms", "700")]).await;
    assert_eq!(told(&found), (200, "STALE".into(), first.clone()), "{who}");
    until_the_app_saw_more(app, asked).await;
    let meanwhile = reply(gateway, "GET", &path, &[]).await;
    assert_eq!(
        told(&meanwhile),
        (200, "UPDATING".into(), first.clone()),
        "{who}"
    );
    // Once the update is kept: the new page.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
    let updated = loop {
        let (status, cache, body) = told(&reply(gateway, "GET", &path, &[]).await);
        if cache == "HIT" {
            assert_eq!(status, 200, "{who}");
            break body;
        }
        assert_eq!(
            (status, cache.as_str(), &body),
            (200, "UPDATING", &first),
            "{who}"
        );
        assert!(std::time::Instant::now() < deadline, "{who}: never updated");
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    };
    assert_ne!(updated, first, "{who}");
    assert_eq!(
        app.requests(),
        asked + 1,
        "{who}: the update alone reached the app"
    );
}

/// A full upstream's refusal is no answer from it: with `cache_stale`, the request that would
/// update an expired page gets that page (`STALE`) where it would get 503, so an overloaded
/// app's pages stay up.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_expired_answer_stands_in_for_a_full_upstreams_refusal() {
    let app = UpstreamServer::start(Transport::Tcp).await;
    let gateway = keeping(
        &app,
        "",
        "max_connections = 1\nqueue_size = 0",
        "cache = \"1s\"\ncache_stale = \"1m\"",
    )
    .await;
    let path = "/counted?case=refused";
    let first = reply(gateway.addr, "GET", path, &[]).await;
    assert_eq!(first.header("x-cache-status"), Some("MISS"));
    tokio::time::sleep(std::time::Duration::from_millis(1100)).await;
    // The app's one place taken by a slow request.
    let asked = app.requests();
    let slow = tokio::spawn(async move {
        reply(
            gateway.addr,
            "GET",
            "/counted?case=slow",
            &[("x-counted-ms", "2000")],
        )
        .await
    });
    until_the_app_saw_more(&app, asked).await;
    let refused = reply(gateway.addr, "GET", path, &[]).await;
    assert_eq!(refused.status.as_u16(), 200);
    assert_eq!(refused.header("x-cache-status"), Some("STALE"));
    assert_eq!(refused.body, first.body);
    // A page never kept gets the refusal.
    let missing = reply(gateway.addr, "GET", "/counted?case=never-kept", &[]).await;
    assert_eq!(missing.status.as_u16(), 503);
    assert_eq!(slow.await.unwrap().status.as_u16(), 200);
}

/// `cache_statuses`, as nginx's `proxy_cache_valid 404 1m` beside `proxy_cache_valid 10s`: a
/// listed status is kept, another error status is not. With `WEIR_E2E=1`, nginx alike.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_listed_status_is_kept_and_another_is_not() {
    let app = UpstreamServer::start(Transport::Tcp).await;
    let gateway = keeping(
        &app,
        "",
        "",
        "cache = \"10s\"\ncache_statuses = { 404 = \"1m\" }",
    )
    .await;
    check_statuses(gateway.addr, "weir").await;
    if !nginx_enabled() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let nginx = nginx_keeping(
        &app,
        dir.path(),
        "proxy_cache_valid 10s; proxy_cache_valid 404 1m;",
    );
    check_statuses(nginx.addr, "nginx").await;
}

async fn check_statuses(gateway: std::net::SocketAddr, who: &str) {
    let path = |status: u16| {
        format!(
            "/counted?case=statuses-{who}-{}&status={status}",
            std::process::id()
        )
    };
    for (status, kept) in [(404, true), (410, false), (200, true), (500, false)] {
        let (first_status, first) = ask(gateway, "GET", &path(status), &[]).await;
        let (_, second) = ask(gateway, "GET", &path(status), &[]).await;
        assert_eq!(first_status, status, "{who}");
        assert_eq!(
            first == second,
            kept,
            "{who} {status}: {first} then {second}"
        );
    }
}
