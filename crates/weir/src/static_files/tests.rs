//! Tests for static files, each against a real directory in a temp dir: validators and conditional
//! requests, ranges, MIME types, directories, precompressed siblings, every way out of the root,
//! and one real HTTP/1 connection through hyper.

use std::fs;
use std::os::unix::fs::{symlink, PermissionsExt};
use std::path::Path;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use bytes::Bytes;
use http::header::{
    HeaderMap, HeaderName, HeaderValue, ACCEPT_ENCODING, ACCEPT_RANGES, ALLOW, CONTENT_ENCODING,
    CONTENT_LENGTH, CONTENT_RANGE, CONTENT_TYPE, ETAG, IF_MATCH, IF_MODIFIED_SINCE, IF_NONE_MATCH,
    IF_RANGE, IF_UNMODIFIED_SINCE, LAST_MODIFIED, LOCATION, RANGE, VARY,
};
use http::{Method, Response, StatusCode};
use http_body::Body as _;
use http_body_util::BodyExt;
use tempfile::TempDir;

use super::*;
use crate::body::Body;

/// The modification time every test file gets, so validators are predictable:
/// 2024-01-02T03:04:05Z.
const MTIME_SECS: u64 = 1_704_164_645;
const MTIME_HTTP: &str = "Tue, 02 Jan 2024 03:04:05 GMT";

fn write(root: &Path, name: &str, contents: &[u8]) {
    let path = root.join(name);
    if let Some(parent) = path.parent() {
        fs::create_dir_all(parent).expect("create the parent directory");
    }
    fs::write(&path, contents).expect("write the test file");
    let file = fs::File::options()
        .write(true)
        .open(&path)
        .expect("reopen the test file");
    file.set_modified(UNIX_EPOCH + Duration::from_secs(MTIME_SECS))
        .expect("set the modification time");
}

/// A site: an index, a stylesheet, a script with both precompressed siblings, a directory
/// without an index, and a big file.
fn site() -> (TempDir, StaticDir) {
    let temp = tempfile::tempdir().expect("a temp dir");
    let root = temp.path().join("site");
    write(&root, "index.html", b"<h1>home</h1>");
    write(&root, "css/site.css", b"body { color: black }");
    write(&root, "app.js", b"console.log('plain')");
    write(&root, "app.js.gz", b"GZIP BYTES");
    write(&root, "app.js.br", b"BROTLI BYTES");
    write(&root, "only-gz.txt", b"plain text");
    write(&root, "only-gz.txt.gz", b"GZ");
    write(&root, "hello world.txt", b"spaced");
    write(&root, "docs/index.html", b"<h1>docs</h1>");
    fs::create_dir_all(root.join("empty")).expect("create a directory");
    write(&root, "digits.txt", b"0123456789abcdefghij");
    let dir = StaticDir::new(&root).expect("the root exists");
    (temp, dir)
}

fn header_map(pairs: &[(HeaderName, &str)]) -> HeaderMap {
    let mut headers = HeaderMap::new();
    for (name, value) in pairs {
        headers.append(
            name.clone(),
            HeaderValue::from_str(value).expect("a literal header value is valid"),
        );
    }
    headers
}

/// What the client gets: a file not served is answered by `error.rs`, as the proxy does.
async fn serve(
    dir: &StaticDir,
    method: &Method,
    path: &str,
    request_headers: &HeaderMap,
) -> Response<Body> {
    let request_headers = crate::head_view::Headers::from_map(request_headers);
    match dir.serve(method, path, &request_headers).await {
        Ok(response) => response.map(Body::boxed).into_http(),
        Err(error) => error.into_response().map(Body::full).into_http(),
    }
}

async fn get(dir: &StaticDir, path: &str, pairs: &[(HeaderName, &str)]) -> Response<Body> {
    serve(dir, &Method::GET, path, &header_map(pairs)).await
}

async fn body_of(response: Response<Body>) -> Bytes {
    response
        .into_body()
        .collect()
        .await
        .expect("the body reads")
        .to_bytes()
}

fn nginx_etag(len: u64) -> String {
    format!("\"{MTIME_SECS:x}-{len:x}\"")
}

#[tokio::test]
async fn a_file_is_served_with_its_validators_and_type() {
    let (_temp, dir) = site();
    let response = get(&dir, "/css/site.css", &[]).await;
    assert_eq!(response.status(), StatusCode::OK);
    let headers = response.headers().clone();
    assert_eq!(headers[CONTENT_TYPE], "text/css");
    assert_eq!(headers[CONTENT_LENGTH], "21");
    assert_eq!(headers[ETAG], nginx_etag(21).as_str());
    assert_eq!(headers[ETAG], "\"65937d25-15\"");
    assert_eq!(headers[LAST_MODIFIED], MTIME_HTTP);
    assert_eq!(headers[ACCEPT_RANGES], "bytes");
    assert!(!headers.contains_key(VARY));
    assert_eq!(response.body().size_hint().exact(), Some(21));
    assert_eq!(body_of(response).await, "body { color: black }");
}

#[tokio::test]
async fn head_has_the_headers_of_get_and_no_body() {
    let (_temp, dir) = site();
    let response = serve(&dir, &Method::HEAD, "/css/site.css", &HeaderMap::new()).await;
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(response.headers()[CONTENT_LENGTH], "21");
    assert_eq!(response.headers()[CONTENT_TYPE], "text/css");
    assert!(body_of(response).await.is_empty());
}

#[tokio::test]
async fn other_methods_are_refused_with_allow() {
    let (_temp, dir) = site();
    for method in [Method::POST, Method::PUT, Method::DELETE, Method::OPTIONS] {
        let response = serve(&dir, &method, "/index.html", &HeaderMap::new()).await;
        assert_eq!(
            response.status(),
            StatusCode::METHOD_NOT_ALLOWED,
            "{method}"
        );
        assert_eq!(response.headers()[ALLOW], "GET, HEAD");
    }
}

#[tokio::test]
async fn missing_files_are_404() {
    let (_temp, dir) = site();
    for path in [
        "/nope.html",
        "/css/nope.css",
        "/nope/deeper.css",
        // A file used as a directory.
        "/index.html/more",
        "/index.html/",
    ] {
        assert_eq!(
            get(&dir, path, &[]).await.status(),
            StatusCode::NOT_FOUND,
            "{path}"
        );
    }
    let long_name = format!("/{}", "a".repeat(300));
    assert_eq!(
        get(&dir, &long_name, &[]).await.status(),
        StatusCode::NOT_FOUND
    );
}

#[tokio::test]
async fn directories_serve_their_index_or_403() {
    let (_temp, dir) = site();
    for path in ["", "/", "//", "/./"] {
        let response = get(&dir, path, &[]).await;
        assert_eq!(response.status(), StatusCode::OK, "{path:?}");
        assert_eq!(response.headers()[CONTENT_TYPE], "text/html");
        assert_eq!(body_of(response).await, "<h1>home</h1>");
    }
    let docs = get(&dir, "/docs/", &[]).await;
    assert_eq!(docs.status(), StatusCode::OK);
    assert_eq!(body_of(docs).await, "<h1>docs</h1>");
    assert_eq!(
        get(&dir, "/empty/", &[]).await.status(),
        StatusCode::FORBIDDEN
    );
}

#[tokio::test]
async fn a_directory_without_its_slash_is_redirected() {
    let (_temp, dir) = site();
    let response = get(&dir, "/docs", &[]).await;
    assert_eq!(response.status(), StatusCode::MOVED_PERMANENTLY);
    assert_eq!(response.headers()[LOCATION], "./docs/");
    let response = get(&dir, "/docs?page=2", &[]).await;
    assert_eq!(response.headers()[LOCATION], "./docs/");
}

/// Found by the `static_path` fuzz target: a client may send a path with raw UTF-8 (hyper passes
/// it), and the `Location` built from it was not a valid header value, so the 301 had none.
#[tokio::test]
async fn a_directory_with_a_non_ascii_name_is_redirected_with_an_encoded_location() {
    let (temp, dir) = site();
    write(&temp.path().join("site"), "d\u{ef}r/index.html", b"dir");
    let response = get(&dir, "/d\u{ef}r", &[]).await;
    assert_eq!(response.status(), StatusCode::MOVED_PERMANENTLY);
    assert_eq!(response.headers()[LOCATION], "./d%C3%AFr/");
    // A name sent already encoded keeps its escapes as they came.
    let response = get(&dir, "/d%C3%AFr", &[]).await;
    assert_eq!(response.headers()[LOCATION], "./d%C3%AFr/");
}

#[tokio::test]
async fn names_are_percent_decoded() {
    let (_temp, dir) = site();
    let response = get(&dir, "/hello%20world.txt", &[]).await;
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(body_of(response).await, "spaced");
    assert_eq!(
        get(&dir, "/%63ss/site.css", &[]).await.status(),
        StatusCode::OK
    );
}

#[tokio::test]
async fn every_way_out_of_the_root_is_refused() {
    let (temp, dir) = site();
    write(temp.path(), "secret.txt", b"secret");
    for path in [
        "/../secret.txt",
        "/css/../../secret.txt",
        "/css/../index.html",
        "/%2e%2e/secret.txt",
        "/.%2E/secret.txt",
        "/..%2fsecret.txt",
        "/..%2Fsecret.txt",
        "/css%2fsite.css",
        "/..%5csecret.txt",
        "/..\\secret.txt",
        "/index.html%00.txt",
        "/bad%zzescape",
        "/truncated%2",
    ] {
        assert_eq!(
            get(&dir, path, &[]).await.status(),
            StatusCode::BAD_REQUEST,
            "{path}"
        );
    }
}

#[tokio::test]
async fn symlinks_may_point_inside_the_root_only() {
    let (temp, dir) = site();
    let root = dir.root().to_path_buf();
    write(temp.path(), "secret.txt", b"secret");
    fs::create_dir_all(temp.path().join("outside")).expect("create a directory");
    write(temp.path(), "outside/file.txt", b"outside");
    symlink(temp.path().join("secret.txt"), root.join("leak.txt")).expect("symlink");
    symlink(temp.path().join("outside"), root.join("leakdir")).expect("symlink");
    symlink(root.join("css/site.css"), root.join("alias.css")).expect("symlink");
    symlink("css", root.join("styles")).expect("symlink");
    symlink("loop-b", root.join("loop-a")).expect("symlink");
    symlink("loop-a", root.join("loop-b")).expect("symlink");
    // A root whose name prefixes a sibling's must not accept the sibling.
    fs::create_dir_all(temp.path().join("site2")).expect("create a directory");
    write(temp.path(), "site2/x.txt", b"x");
    symlink(temp.path().join("site2/x.txt"), root.join("prefix.txt")).expect("symlink");

    assert_eq!(
        get(&dir, "/leak.txt", &[]).await.status(),
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        get(&dir, "/leakdir/file.txt", &[]).await.status(),
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        get(&dir, "/leakdir/", &[]).await.status(),
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        get(&dir, "/prefix.txt", &[]).await.status(),
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        get(&dir, "/loop-a", &[]).await.status(),
        StatusCode::FORBIDDEN
    );

    let alias = get(&dir, "/alias.css", &[]).await;
    assert_eq!(alias.status(), StatusCode::OK);
    assert_eq!(alias.headers()[CONTENT_TYPE], "text/css");
    assert_eq!(
        get(&dir, "/styles/site.css", &[]).await.status(),
        StatusCode::OK
    );
}

#[tokio::test]
async fn a_root_given_through_a_symlink_still_serves() {
    let (temp, dir) = site();
    let link = temp.path().join("www");
    symlink(dir.root(), &link).expect("symlink");
    let linked = StaticDir::new(&link).expect("the link resolves to a directory");
    assert_eq!(
        get(&linked, "/index.html", &[]).await.status(),
        StatusCode::OK
    );
}

#[tokio::test]
async fn unreadable_files_are_403() {
    // How each I/O error maps to a status is error.rs's, tested there; here a real one.
    let (_temp, dir) = site();
    let path = dir.root().join("digits.txt");
    fs::set_permissions(&path, fs::Permissions::from_mode(0o000)).expect("chmod");
    // root reads anything, so only an ordinary user meets the 403; root gets the file.
    let expected = if fs::File::open(&path).is_err() {
        StatusCode::FORBIDDEN
    } else {
        StatusCode::OK
    };
    assert_eq!(get(&dir, "/digits.txt", &[]).await.status(), expected);
}

#[tokio::test]
async fn special_files_are_not_served() {
    let (_temp, dir) = site();
    let socket_path = dir.root().join("app.sock");
    let _listener = std::os::unix::net::UnixListener::bind(&socket_path).expect("bind a socket");
    assert_eq!(
        get(&dir, "/app.sock", &[]).await.status(),
        StatusCode::NOT_FOUND
    );
    // Opening a FIFO would block a thread until a writer came; it must be refused before that.
    let fifo = std::process::Command::new("mkfifo")
        .arg(dir.root().join("pipe"))
        .status()
        .expect("run mkfifo");
    assert!(fifo.success());
    assert_eq!(
        get(&dir, "/pipe", &[]).await.status(),
        StatusCode::NOT_FOUND
    );
}

#[tokio::test]
async fn a_matching_if_none_match_is_304() {
    let (_temp, dir) = site();
    let etag = nginx_etag(21);
    for value in [
        etag.clone(),
        format!("W/{etag}"),
        format!("\"other\", {etag}"),
        "*".to_string(),
    ] {
        let response = get(&dir, "/css/site.css", &[(IF_NONE_MATCH, &value)]).await;
        assert_eq!(response.status(), StatusCode::NOT_MODIFIED, "{value}");
        assert_eq!(response.headers()[ETAG], etag.as_str());
        assert_eq!(response.headers()[LAST_MODIFIED], MTIME_HTTP);
        assert!(!response.headers().contains_key(CONTENT_LENGTH));
        assert!(body_of(response).await.is_empty());
    }
    let response = get(&dir, "/css/site.css", &[(IF_NONE_MATCH, "\"other\"")]).await;
    assert_eq!(response.status(), StatusCode::OK);
}

#[tokio::test]
async fn if_modified_since_is_304_unless_the_file_is_newer() {
    let (_temp, dir) = site();
    for (date, status) in [
        (MTIME_HTTP, StatusCode::NOT_MODIFIED),
        ("Wed, 03 Jan 2024 00:00:00 GMT", StatusCode::NOT_MODIFIED),
        ("Mon, 01 Jan 2024 00:00:00 GMT", StatusCode::OK),
        ("not a date", StatusCode::OK),
    ] {
        let response = get(&dir, "/css/site.css", &[(IF_MODIFIED_SINCE, date)]).await;
        assert_eq!(response.status(), status, "{date}");
    }
    // If-None-Match wins over If-Modified-Since.
    let response = get(
        &dir,
        "/css/site.css",
        &[
            (IF_NONE_MATCH, "\"other\""),
            (IF_MODIFIED_SINCE, MTIME_HTTP),
        ],
    )
    .await;
    assert_eq!(response.status(), StatusCode::OK);
}

#[tokio::test]
async fn failed_preconditions_are_412() {
    let (_temp, dir) = site();
    let etag = nginx_etag(21);
    let cases: [(HeaderName, String, StatusCode); 6] = [
        (
            IF_MATCH,
            "\"other\"".into(),
            StatusCode::PRECONDITION_FAILED,
        ),
        (
            IF_MATCH,
            format!("W/{etag}"),
            StatusCode::PRECONDITION_FAILED,
        ),
        (IF_MATCH, etag.clone(), StatusCode::OK),
        (IF_MATCH, "*".into(), StatusCode::OK),
        (
            IF_UNMODIFIED_SINCE,
            "Mon, 01 Jan 2024 00:00:00 GMT".into(),
            StatusCode::PRECONDITION_FAILED,
        ),
        (IF_UNMODIFIED_SINCE, MTIME_HTTP.into(), StatusCode::OK),
    ];
    for (name, value, status) in cases {
        let response = get(&dir, "/css/site.css", &[(name.clone(), &value)]).await;
        assert_eq!(response.status(), status, "{name}: {value}");
    }
}

async fn ranged(dir: &StaticDir, range: &str) -> (StatusCode, Option<String>, Bytes) {
    let response = get(dir, "/digits.txt", &[(RANGE, range)]).await;
    let status = response.status();
    let content_range = response
        .headers()
        .get(CONTENT_RANGE)
        .map(|value| value.to_str().expect("ASCII").to_string());
    if status == StatusCode::PARTIAL_CONTENT {
        let length: usize = response.headers()[CONTENT_LENGTH]
            .to_str()
            .expect("ASCII")
            .parse()
            .expect("a number");
        let body = body_of(response).await;
        assert_eq!(body.len(), length, "{range}");
        return (status, content_range, body);
    }
    (status, content_range, body_of(response).await)
}

#[tokio::test]
async fn a_single_range_is_206() {
    let (_temp, dir) = site();
    let partial = StatusCode::PARTIAL_CONTENT;
    let cases: &[(&str, &str, &str)] = &[
        ("bytes=0-9", "bytes 0-9/20", "0123456789"),
        ("bytes=10-", "bytes 10-19/20", "abcdefghij"),
        ("bytes=-5", "bytes 15-19/20", "fghij"),
        ("bytes=-50", "bytes 0-19/20", "0123456789abcdefghij"),
        ("bytes=18-1000", "bytes 18-19/20", "ij"),
        ("bytes=5-5", "bytes 5-5/20", "5"),
        ("Bytes = 1-2", "bytes 1-2/20", "12"),
        ("bytes=3-4,", "bytes 3-4/20", "34"),
    ];
    for (range, content_range, body) in cases {
        let (status, got_range, got_body) = ranged(&dir, range).await;
        assert_eq!(status, partial, "{range}");
        assert_eq!(got_range.as_deref(), Some(*content_range), "{range}");
        assert_eq!(got_body, *body, "{range}");
    }
}

#[tokio::test]
async fn an_unsatisfiable_range_is_416() {
    let (_temp, dir) = site();
    for range in ["bytes=20-", "bytes=100-200", "bytes=-0"] {
        let (status, content_range, _) = ranged(&dir, range).await;
        assert_eq!(status, StatusCode::RANGE_NOT_SATISFIABLE, "{range}");
        assert_eq!(content_range.as_deref(), Some("bytes */20"), "{range}");
    }
}

#[tokio::test]
async fn other_ranges_get_the_whole_file() {
    let (_temp, dir) = site();
    for range in [
        "bytes=0-1,5-6",
        "bytes=5-1",
        "bytes=abc",
        "bytes=1-x",
        "items=0-1",
        "0-1",
        "bytes=-",
        "bytes=99999999999999999999999-",
    ] {
        let (status, content_range, body) = ranged(&dir, range).await;
        assert_eq!(status, StatusCode::OK, "{range}");
        assert_eq!(content_range, None, "{range}");
        assert_eq!(body, "0123456789abcdefghij", "{range}");
    }
}

#[tokio::test]
async fn if_range_keeps_the_range_only_for_the_current_file() {
    let (_temp, dir) = site();
    let etag = nginx_etag(20);
    let weak = format!("W/{etag}");
    for (if_range, status) in [
        (etag.as_str(), StatusCode::PARTIAL_CONTENT),
        (MTIME_HTTP, StatusCode::PARTIAL_CONTENT),
        ("\"stale\"", StatusCode::OK),
        (weak.as_str(), StatusCode::OK),
        ("Mon, 01 Jan 2024 00:00:00 GMT", StatusCode::OK),
    ] {
        let response = get(
            &dir,
            "/digits.txt",
            &[(RANGE, "bytes=0-1"), (IF_RANGE, if_range)],
        )
        .await;
        assert_eq!(response.status(), status, "{if_range}");
    }
}

#[tokio::test]
async fn a_range_on_head_is_answered_like_get() {
    let (_temp, dir) = site();
    let response = serve(
        &dir,
        &Method::HEAD,
        "/digits.txt",
        &header_map(&[(RANGE, "bytes=2-5")]),
    )
    .await;
    assert_eq!(response.status(), StatusCode::PARTIAL_CONTENT);
    assert_eq!(response.headers()[CONTENT_LENGTH], "4");
    assert_eq!(response.headers()[CONTENT_RANGE], "bytes 2-5/20");
    assert!(body_of(response).await.is_empty());
}

/// Bytes that do not repeat within a chunk, so a misplaced chunk shows.
fn big_contents(len: usize) -> Vec<u8> {
    let mut state: u32 = 0x1234_5678;
    (0..len)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            state as u8
        })
        .collect()
}

#[tokio::test]
async fn a_large_file_streams_in_chunks() {
    let (_temp, dir) = site();
    // Larger than CACHE_MAX_FILE: read in pieces (five whole chunks and a bit).
    let contents = big_contents(5 * CHUNK_SIZE + 1000);
    assert!(contents.len() as u64 > CACHE_MAX_FILE);
    write(dir.root(), "xml.zip", &contents);
    let response = get(&dir, "/xml.zip", &[]).await;
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(response.headers()[CONTENT_TYPE], "application/zip");
    assert_eq!(
        response.headers()[CONTENT_LENGTH],
        contents.len().to_string().as_str()
    );
    let mut body = response.into_body();
    let mut received = Vec::new();
    let mut frames = 0;
    while let Some(frame) = body.frame().await {
        let data = frame.expect("no error").into_data().expect("data");
        assert!(data.len() <= CHUNK_SIZE);
        received.extend_from_slice(&data);
        frames += 1;
    }
    assert_eq!(frames, 6);
    assert!(received == contents, "the streamed bytes are the file");

    // A range across chunk boundaries, starting mid-file.
    let start = CHUNK_SIZE - 10;
    let end = 2 * CHUNK_SIZE + 10;
    let range = format!("bytes={start}-{end}");
    let response = get(&dir, "/xml.zip", &[(RANGE, &range)]).await;
    assert_eq!(response.status(), StatusCode::PARTIAL_CONTENT);
    assert!(body_of(response).await == contents[start..=end]);
}

#[tokio::test]
async fn a_file_that_shrinks_while_sent_ends_in_an_error() {
    let (_temp, dir) = site();
    let contents = big_contents(5 * CHUNK_SIZE);
    write(dir.root(), "shrinking.bin", &contents);
    let response = dir
        .serve(
            &Method::GET,
            "/shrinking.bin",
            &crate::head_view::Headers::default(),
        )
        .await
        .expect("the file is served");
    assert_eq!(response.status(), StatusCode::OK);
    fs::File::options()
        .write(true)
        .open(dir.root().join("shrinking.bin"))
        .expect("open for truncation")
        .set_len(CHUNK_SIZE as u64 + 5)
        .expect("truncate");
    let error = response
        .into_body()
        .collect()
        .await
        .expect_err("a body shorter than its Content-Length is an error");
    assert_eq!(error.kind(), io::ErrorKind::UnexpectedEof);
}

#[tokio::test]
async fn precompressed_siblings_are_used_when_accepted() {
    let (_temp, dir) = site();
    let cases: &[(&[&str], Option<&str>, &str)] = &[
        (&[], None, "console.log('plain')"),
        (&["gzip"], Some("gzip"), "GZIP BYTES"),
        (&["br"], Some("br"), "BROTLI BYTES"),
        (&["gzip, br"], Some("br"), "BROTLI BYTES"),
        (&["gzip;q=1, br;q=0.5"], Some("gzip"), "GZIP BYTES"),
        (&["br;q=0, gzip"], Some("gzip"), "GZIP BYTES"),
        (&["zstd"], None, "console.log('plain')"),
        (&["*"], Some("br"), "BROTLI BYTES"),
    ];
    for (accept, encoding, body) in cases {
        let pairs: Vec<(HeaderName, &str)> = accept
            .iter()
            .map(|value| (ACCEPT_ENCODING, *value))
            .collect();
        let response = get(&dir, "/app.js", &pairs).await;
        assert_eq!(response.status(), StatusCode::OK, "{accept:?}");
        assert_eq!(
            response
                .headers()
                .get(CONTENT_ENCODING)
                .map(|value| value.to_str().expect("ASCII")),
            *encoding,
            "{accept:?}"
        );
        assert_eq!(response.headers()[CONTENT_TYPE], "application/javascript");
        assert_eq!(response.headers()[VARY], "Accept-Encoding", "{accept:?}");
        assert_eq!(
            response.headers()[CONTENT_LENGTH],
            body.len().to_string().as_str()
        );
        assert_eq!(body_of(response).await, *body, "{accept:?}");
    }
    let only_gz = get(&dir, "/only-gz.txt", &[(ACCEPT_ENCODING, "br")]).await;
    assert!(!only_gz.headers().contains_key(CONTENT_ENCODING));
    assert_eq!(only_gz.headers()[VARY], "Accept-Encoding");
    assert_eq!(only_gz.headers()[CONTENT_TYPE], "text/plain");
}

#[tokio::test]
async fn a_sibling_leading_out_of_the_root_is_ignored() {
    let (temp, dir) = site();
    write(dir.root(), "lib.js", b"plain");
    write(temp.path(), "evil.gz", b"secret");
    symlink(temp.path().join("evil.gz"), dir.root().join("lib.js.gz")).expect("symlink");
    let response = get(&dir, "/lib.js", &[(ACCEPT_ENCODING, "gzip")]).await;
    assert_eq!(response.status(), StatusCode::OK);
    assert!(!response.headers().contains_key(CONTENT_ENCODING));
    assert_eq!(body_of(response).await, "plain");
}

#[test]
fn a_root_must_be_an_existing_directory() {
    let temp = tempfile::tempdir().expect("a temp dir");
    assert!(StaticDir::new(temp.path().join("missing")).is_err());
    write(temp.path(), "file.txt", b"x");
    assert!(StaticDir::new(temp.path().join("file.txt")).is_err());
    assert!(StaticDir::new(temp.path()).is_ok());
}

#[test]
fn mime_types_come_from_the_extension() {
    use std::path::PathBuf;
    for (name, media_type) in [
        ("a.html", "text/html"),
        ("A.HTML", "text/html"),
        ("a.css", "text/css"),
        ("a.js", "application/javascript"),
        ("a.mjs", "application/javascript"),
        ("a.json", "application/json"),
        ("a.svg", "image/svg+xml"),
        ("a.png", "image/png"),
        ("a.jpeg", "image/jpeg"),
        ("a.woff2", "font/woff2"),
        ("a.wasm", "application/wasm"),
        ("a.tar.gz", "application/gzip"),
        ("a.unknownext", "application/octet-stream"),
        ("README", "application/octet-stream"),
        (".bashrc", "application/octet-stream"),
    ] {
        assert_eq!(mime::for_path(&PathBuf::from(name)), media_type, "{name}");
    }
}

#[test]
fn request_paths_split_into_safe_components() {
    let parsed = RequestPath::parse("/a//b/./c%20d/").expect("a valid path");
    assert_eq!(parsed.relative, Path::new("a/b/c d"));
    assert!(parsed.trailing_slash);
    let parsed = RequestPath::parse("/a/b%2Ec").expect("a valid path");
    assert_eq!(parsed.relative, Path::new("a/b.c"));
    assert_eq!(parsed.last_segment, "b%2Ec");
    assert!(!parsed.trailing_slash);
    // Names that are not UTF-8 are still names on Linux.
    let parsed = RequestPath::parse("/caf%E9").expect("a valid path");
    assert_eq!(parsed.relative.as_os_str().as_bytes(), b"caf\xe9");
    assert!(RequestPath::parse("/..").is_none());
    assert!(RequestPath::parse("/%00").is_none());
    assert!(RequestPath::parse("/a%5Cb").is_none());
}

#[test]
fn etag_lists_follow_weak_and_strong_comparison() {
    let etag = "\"abc-12\"";
    assert!(etag_list_matches("\"abc-12\"", etag, false));
    assert!(etag_list_matches("W/\"abc-12\"", etag, true));
    assert!(!etag_list_matches("W/\"abc-12\"", etag, false));
    assert!(etag_list_matches("\"x\",W/\"abc-12\"", etag, true));
    assert!(etag_list_matches(" * ", etag, false));
    assert!(!etag_list_matches("\"abc-1\"", etag, true));
    assert!(!etag_list_matches("\"a,b\", \"abc-12", etag, true));
    assert!(!etag_list_matches("abc-12", etag, true));
    assert!(etag_list_matches("\"a,b\", \"abc-12\"", etag, true));
}

#[test]
fn range_headers_parse_against_the_length() {
    assert_eq!(
        parse_range("bytes=0-0", 1),
        RangeSpec::Bytes { start: 0, end: 0 }
    );
    assert_eq!(parse_range("bytes=0-", 0), RangeSpec::Unsatisfiable);
    assert_eq!(parse_range("bytes=-1", 0), RangeSpec::Unsatisfiable);
    assert_eq!(
        parse_range("bytes= 2 - 3 ", 10),
        RangeSpec::Bytes { start: 2, end: 3 }
    );
    assert_eq!(parse_range("bytes=+1-2", 10), RangeSpec::Ignore);
    assert_eq!(parse_range("bytes=1--2", 10), RangeSpec::Ignore);
}

#[test]
fn the_plan_applies_conditions_in_rfc_order() {
    let validators = Validators {
        len: 20,
        modified_secs: MTIME_SECS,
    };
    let mtime = UNIX_EPOCH + Duration::from_secs(MTIME_SECS);
    let earlier = mtime - Duration::from_secs(1);
    let conditions = Conditions {
        if_match: Some("\"nope\"".into()),
        if_none_match: Some(validators.etag()),
        ..Conditions::default()
    };
    assert_eq!(plan(&validators, &conditions), Plan::PreconditionFailed);
    let conditions = Conditions {
        if_match: Some(validators.etag()),
        if_unmodified_since: Some(earlier),
        ..Conditions::default()
    };
    // If-Match present: If-Unmodified-Since is not consulted.
    assert_eq!(plan(&validators, &conditions), Plan::Full);
    let conditions = Conditions {
        if_none_match: Some(validators.etag()),
        range: Some("bytes=0-1".into()),
        ..Conditions::default()
    };
    assert_eq!(plan(&validators, &conditions), Plan::NotModified);
    let conditions = Conditions {
        if_modified_since: Some(SystemTime::UNIX_EPOCH),
        range: Some("bytes=0-1".into()),
        ..Conditions::default()
    };
    assert_eq!(
        plan(&validators, &conditions),
        Plan::Partial { start: 0, end: 1 }
    );
}

/// One request over a real HTTP/1 connection through hyper: HEAD keeps the file's length and GET
/// streams the whole file.
#[tokio::test]
async fn hyper_sends_head_lengths_and_streamed_files() {
    use std::sync::Arc;

    use hyper::service::service_fn;
    use hyper_util::rt::TokioIo;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    let (_temp, dir) = site();
    let contents = big_contents(651 * 1024);
    write(dir.root(), "xml.zip", &contents);
    let dir = Arc::new(dir);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind port 0");
    let address = listener.local_addr().expect("a local address");
    let server = tokio::spawn(async move {
        for _ in 0..2 {
            let (stream, _) = listener.accept().await.expect("accept");
            let dir = Arc::clone(&dir);
            let service = service_fn(move |request: http::Request<hyper::body::Incoming>| {
                let dir = Arc::clone(&dir);
                async move {
                    let response = serve(
                        &dir,
                        request.method(),
                        request.uri().path(),
                        request.headers(),
                    )
                    .await;
                    Ok::<_, std::convert::Infallible>(response)
                }
            });
            hyper::server::conn::http1::Builder::new()
                .serve_connection(TokioIo::new(stream), service)
                .await
                .expect("the connection is served");
        }
    });

    let exchange = |request: &'static str| async move {
        let mut stream = tokio::net::TcpStream::connect(address)
            .await
            .expect("connect");
        stream.write_all(request.as_bytes()).await.expect("send");
        let mut answer = Vec::new();
        stream.read_to_end(&mut answer).await.expect("receive");
        answer
    };

    let head = exchange("HEAD /xml.zip HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n").await;
    let head = String::from_utf8(head).expect("a HEAD answer is text");
    assert!(head.starts_with("HTTP/1.1 200 OK\r\n"), "{head}");
    assert!(
        head.to_ascii_lowercase()
            .contains(&format!("content-length: {}\r\n", contents.len())),
        "{head}"
    );
    assert!(head.ends_with("\r\n\r\n"), "no body after a HEAD: {head}");

    let get = exchange("GET /xml.zip HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n").await;
    let split = get
        .windows(4)
        .position(|window| window == b"\r\n\r\n")
        .expect("a head")
        + 4;
    let head = String::from_utf8_lossy(&get[..split]).to_ascii_lowercase();
    assert!(
        head.contains(&format!("content-length: {}\r\n", contents.len())),
        "{head}"
    );
    assert!(get[split..] == contents[..], "the file arrives whole");
    server.await.expect("the server task ends");
}

#[tokio::test]
async fn the_seed_payload_is_read_whole_in_one_hop() {
    let (_temp, dir) = site();
    // Seed 002's 651 KiB file is under CACHE_MAX_FILE: one frame, read when the file is opened.
    let contents = big_contents(651 * 1024);
    write(dir.root(), "seed.xml", &contents);
    let mut body = get(&dir, "/seed.xml", &[]).await.into_body();
    let frame = body.frame().await.expect("a frame").expect("no error");
    assert_eq!(frame.into_data().expect("data").len(), contents.len());
    assert!(body.frame().await.is_none());
}

#[tokio::test]
async fn small_files_are_cached_for_a_second_then_revalidated() {
    let (temp, dir) = site();
    let root = temp.path().join("site");
    let first = get(&dir, "/digits.txt", &[]).await;
    let first_etag = first.headers()[ETAG].clone();
    assert_eq!(
        body_of(first).await,
        Bytes::from_static(b"0123456789abcdefghij")
    );
    // Changed on disk: within CACHE_VALID the cached answer (bytes and validators together) stands.
    fs::write(root.join("digits.txt"), b"changed, and longer than before").expect("rewrite");
    let cached = get(&dir, "/digits.txt", &[]).await;
    assert_eq!(cached.headers()[ETAG], first_etag);
    assert_eq!(
        body_of(cached).await,
        Bytes::from_static(b"0123456789abcdefghij")
    );
    // A conditional or range request never uses the cache.
    let ranged = get(&dir, "/digits.txt", &[(RANGE, "bytes=0-6")]).await;
    assert_eq!(ranged.status(), StatusCode::PARTIAL_CONTENT);
    assert_eq!(body_of(ranged).await, Bytes::from_static(b"changed"));
    // HEAD from the cache has the length and no body.
    let head = serve(&dir, &Method::HEAD, "/digits.txt", &HeaderMap::new()).await;
    assert_eq!(head.headers()[CONTENT_LENGTH], "20");
    assert!(head.body().is_end_stream());
    // After CACHE_VALID the disk is read again.
    tokio::time::sleep(CACHE_VALID + Duration::from_millis(100)).await;
    let fresh = get(&dir, "/digits.txt", &[]).await;
    assert_ne!(fresh.headers()[ETAG], first_etag);
    assert_eq!(
        body_of(fresh).await,
        Bytes::from_static(b"changed, and longer than before")
    );
}

#[tokio::test]
async fn files_with_precompressed_siblings_are_not_cached() {
    let (temp, dir) = site();
    let root = temp.path().join("site");
    let first = get(&dir, "/only-gz.txt", &[]).await;
    assert_eq!(body_of(first).await, Bytes::from_static(b"plain text"));
    fs::write(root.join("only-gz.txt"), b"new text").expect("rewrite");
    let second = get(&dir, "/only-gz.txt", &[]).await;
    assert_eq!(body_of(second).await, Bytes::from_static(b"new text"));
}

/// Every spelling of one file is one cache entry: the cache is keyed by the file, not by the
/// request path, so a stream of distinct spellings cannot grow it.
#[tokio::test]
async fn spellings_of_one_file_share_one_cache_entry() {
    let (temp, dir) = site();
    symlink(
        temp.path().join("site/digits.txt"),
        temp.path().join("site/alias.txt"),
    )
    .expect("create a symlink");
    let mut spellings: Vec<String> = [
        "/digits.txt",
        "//digits.txt",
        "/./digits.txt",
        "/%64igits.txt",
        "/%64%69gits.txt",
        "///.//./%64igits.txt?query",
    ]
    .iter()
    .map(ToString::to_string)
    .collect();
    for count in 1..200 {
        spellings.push(format!("{}digits.txt", "/.".repeat(count) + "/"));
    }
    for spelling in &spellings {
        let response = get(&dir, spelling, &[]).await;
        assert_eq!(response.status(), StatusCode::OK, "{spelling}");
        assert_eq!(
            body_of(response).await,
            Bytes::from_static(b"0123456789abcdefghij")
        );
        assert_eq!(dir.cache.len(), 1, "after {spelling}");
    }
    // A symlink is served, but not cached under a second name for the same file.
    let aliased = get(&dir, "/alias.txt", &[]).await;
    assert_eq!(aliased.status(), StatusCode::OK);
    assert_eq!(dir.cache.len(), 1);
    // A directory's index is the same entry whether asked for as the directory or by name.
    for spelling in [
        "/docs/",
        "//docs//",
        "/docs/index.html",
        "/docs/./index.html",
    ] {
        let response = get(&dir, spelling, &[]).await;
        assert_eq!(response.status(), StatusCode::OK, "{spelling}");
        assert_eq!(
            body_of(response).await,
            Bytes::from_static(b"<h1>docs</h1>")
        );
    }
    assert_eq!(dir.cache.len(), 2);
}

/// More distinct small files than the cache holds: it never holds more than its entry bound.
#[tokio::test]
async fn a_stream_of_distinct_files_stays_within_the_entry_bound() {
    let temp = tempfile::tempdir().expect("a temp dir");
    let files = CACHE_MAX_ENTRIES + 100;
    for number in 0..files {
        fs::write(temp.path().join(format!("{number}.txt")), b"x").expect("write a file");
    }
    let dir = StaticDir::new(temp.path()).expect("the root exists");
    let mut most = 0;
    for number in 0..files {
        let response = get(&dir, &format!("/{number}.txt"), &[]).await;
        assert_eq!(response.status(), StatusCode::OK);
        most = most.max(dir.cache.len());
    }
    assert!(most <= CACHE_MAX_ENTRIES, "the cache held {most} files");
    assert!(
        most >= CACHE_MAX_ENTRIES / 2,
        "the cache should have been used"
    );
}

/// An expired entry is dropped when looked up, not kept until the same file is cached again: a
/// file deleted from disk leaves nothing behind.
#[tokio::test(start_paused = true)]
async fn expired_entries_are_dropped() {
    let (temp, dir) = site();
    let response = get(&dir, "/digits.txt", &[]).await;
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(dir.cache.len(), 1);
    fs::remove_file(temp.path().join("site/digits.txt")).expect("delete the file");
    tokio::time::advance(CACHE_VALID).await;
    let response = get(&dir, "/digits.txt", &[]).await;
    assert_eq!(response.status(), StatusCode::NOT_FOUND);
    assert_eq!(dir.cache.len(), 0);
}
