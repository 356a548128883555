//! Static path resolution, end to end: `weir::static_files::StaticDir::serve` on a directory made
//! at start, with a secret next to it and symlinks that lead out of it.
//!
//! Input: the request path (below the route, still percent-encoded, as `serve` takes it) on the
//! first line, then request header lines `name: value` (`Range`, `If-None-Match`,
//! `Accept-Encoding`, ...). The method is GET.
//!
//! Properties:
//! - the status is one `serve` documents, never 500;
//! - nothing from outside the root is ever sent: a body is a whole file of the root, or for 206 a
//!   piece of one at the place `Content-Range` names, within the file, with a matching length;
//! - a redirect's `Location` is a relative `./NAME/`.
#![no_main]

#[path = "common.rs"]
mod common;

use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use bytes::Bytes;
use http::header::{CONTENT_LENGTH, CONTENT_RANGE, LOCATION};
use http::{Method, StatusCode};
use http_body_util::BodyExt;
use libfuzzer_sys::fuzz_target;
use weir::body::Body;
use weir::static_files::StaticDir;

/// What every file outside the root holds; it must never be sent.
const SECRET: &[u8] = b"SECRET";

struct Fixture {
    runtime: tokio::runtime::Runtime,
    dir: StaticDir,
    /// The contents of the regular files under the root.
    inside: Vec<Vec<u8>>,
}

fn fixture() -> &'static Fixture {
    static FIXTURE: OnceLock<Fixture> = OnceLock::new();
    FIXTURE.get_or_init(|| {
        let base = scratch_dir();
        let root = base.join("root");
        let mut inside = Vec::new();
        let mut file = |relative: &str, contents: Vec<u8>| {
            let path = root.join(relative);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, &contents).unwrap();
            inside.push(contents);
        };
        file("index.html", b"INSIDE index".to_vec());
        file("a.txt", b"INSIDE a".to_vec());
        file("a.txt.gz", b"INSIDE a gzip".to_vec());
        file("dir/index.html", b"INSIDE dir index".to_vec());
        file("dir/b.txt", b"INSIDE b".to_vec());
        file("d\u{ef}r/index.html", b"INSIDE d\xefr index".to_vec());
        file("sp ace.txt", b"INSIDE space".to_vec());
        file("pct%41.txt", b"INSIDE percent".to_vec());
        file("\u{fc}nicode.txt", b"INSIDE unicode".to_vec());
        file("empty.txt", Vec::new());
        file(
            "digits.txt",
            (0..1000).map(|n| b'0' + (n % 10) as u8).collect(),
        );
        std::fs::create_dir_all(root.join("noindex")).unwrap();

        std::fs::write(base.join("secret.txt"), SECRET).unwrap();
        std::fs::create_dir_all(base.join("outside")).unwrap();
        std::fs::write(base.join("outside/index.html"), SECRET).unwrap();
        std::fs::write(base.join("outside/secret.txt"), SECRET).unwrap();
        // Ways out: a directory link, a file link, a precompressed sibling that is a link out.
        symlink("../outside", root.join("out")).unwrap();
        symlink("../secret.txt", root.join("secret.txt")).unwrap();
        symlink("../secret.txt", root.join("a.txt.br")).unwrap();
        symlink("../secret.txt", root.join("dir/b.txt.gz")).unwrap();
        // A way up that comes back in: up/root/a.txt is the root's own a.txt.
        symlink("..", root.join("up")).unwrap();
        // Links that stay inside, a loop and a dangling link.
        symlink("a.txt", root.join("link.txt")).unwrap();
        symlink("dir", root.join("inner")).unwrap();
        symlink("loop", root.join("loop")).unwrap();
        symlink("missing", root.join("dangling")).unwrap();
        // A socket file, which must never be opened.
        drop(std::os::unix::net::UnixListener::bind(root.join("socket")).unwrap());

        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        let dir = StaticDir::new(&root).unwrap();
        Fixture {
            runtime,
            dir,
            inside,
        }
    })
}

/// A directory of this process's own under the system temp dir. Directories left by earlier runs
/// whose process is gone are removed first, so runs do not pile up.
fn scratch_dir() -> PathBuf {
    let temp = std::env::temp_dir();
    const PREFIX: &str = "weir-fuzz-static-";
    if let Ok(entries) = std::fs::read_dir(&temp) {
        for entry in entries.flatten() {
            let name = entry.file_name();
            let Some(pid) = name.to_str().and_then(|name| name.strip_prefix(PREFIX)) else {
                continue;
            };
            if !Path::new("/proc").join(pid).exists() {
                let _ = std::fs::remove_dir_all(entry.path());
            }
        }
    }
    let base = temp.join(format!("{PREFIX}{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&base);
    std::fs::create_dir_all(&base).unwrap();
    base
}

fuzz_target!(|data: &[u8]| {
    let fixture = fixture();
    let lines = common::lines(data);
    let [path, header_lines @ ..] = lines.as_slice() else {
        return;
    };
    let Ok(path) = std::str::from_utf8(path) else {
        return;
    };
    let request_headers = common::header_map(header_lines.iter().copied());
    let (status, headers, body) = fixture.runtime.block_on(async {
        // A file not served is answered as the proxy answers it, by `error.rs`.
        let response = match fixture
            .dir
            .serve(
                &Method::GET,
                path,
                &weir::head_view::Headers::from_map(&request_headers),
            )
            .await
        {
            Ok(response) => response.map(Body::boxed),
            Err(error) => error.into_response().map(Body::full),
        };
        let (parts, body) = response.into_parts();
        let body: Bytes = body.collect().await.expect("a body reads whole").to_bytes();
        (parts.status, parts.headers, body)
    });

    let documented = [200, 206, 301, 304, 400, 403, 404, 412, 416];
    assert!(
        documented.contains(&status.as_u16()),
        "{path:?} {request_headers:?}: {status}"
    );
    assert!(
        !body.windows(SECRET.len()).any(|window| window == SECRET),
        "{path:?} {request_headers:?}: {status} sent a file from outside the root"
    );
    if let Some(length) = headers.get(CONTENT_LENGTH) {
        assert_eq!(length, body.len().to_string().as_bytes(), "{path:?}");
    }
    match status {
        StatusCode::OK => assert!(
            fixture.inside.iter().any(|file| file[..] == body[..]),
            "{path:?} {request_headers:?}: 200 with a body that is no file of the root"
        ),
        StatusCode::PARTIAL_CONTENT => {
            let range = headers
                .get(CONTENT_RANGE)
                .and_then(|value| std::str::from_utf8(value).ok())
                .expect("206 names its range");
            let (start, end, len) = content_range(range).expect("a valid Content-Range");
            assert!(start <= end && end < len, "{range}");
            assert_eq!(body.len() as u64, end - start + 1, "{range}");
            assert!(
                fixture.inside.iter().any(|file| file.len() as u64 == len
                    && file[start as usize..=end as usize] == body[..]),
                "{path:?} {request_headers:?}: 206 {range} is no piece of a file of the root"
            );
        }
        StatusCode::MOVED_PERMANENTLY => {
            let location = headers
                .get(LOCATION)
                .and_then(|value| std::str::from_utf8(value).ok())
                .expect("301 names a Location");
            assert!(
                location.starts_with("./") && location.ends_with('/'),
                "{path:?}: Location {location:?}"
            );
        }
        _ => {}
    }
});

/// `bytes START-END/LEN`.
fn content_range(text: &str) -> Option<(u64, u64, u64)> {
    let (range, len) = text.strip_prefix("bytes ")?.split_once('/')?;
    let (start, end) = range.split_once('-')?;
    Some((start.parse().ok()?, end.parse().ok()?, len.parse().ok()?))
}
