//! Static routes and dot-files, and static routes with a fallback (issue 19): a path with a
//! segment starting with `.` is not served (404) unless `dotfiles = true`, `/.well-known/`
//! excepted; a missing file goes to `fallback_upstream` (nginx `try_files $uri @app`, the shape
//! of Gunicorn's example config) or to `fallback_file` (`try_files $uri /index.html`, for
//! single-page apps); and side by side with nginx's `try_files` (`WEIR_E2E=1`).

use weir_testkit::nginx::Nginx;

use crate::support::*;

/// A site: `app.css`, `index.html`, a dot-file, a dot-directory, `.well-known/security.txt`.
fn site() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::write(root.join("app.css"), "body{}").unwrap();
    std::fs::write(root.join("index.html"), "<app>").unwrap();
    std::fs::write(root.join(".env"), "SECRET_KEY=x").unwrap();
    std::fs::create_dir_all(root.join(".git")).unwrap();
    std::fs::write(root.join(".git/config"), "[core]").unwrap();
    std::fs::create_dir_all(root.join(".well-known")).unwrap();
    std::fs::write(root.join(".well-known/security.txt"), "Contact: x").unwrap();
    dir
}

fn static_config(root: &std::path::Path, upstream: &str, route_keys: &str) -> String {
    format!(
        r#"
[server]
listen = ["127.0.0.1:0"]
[upstreams.app]
servers = ["{upstream}"]
[[routes]]
path = "/"
static = "{}"
{route_keys}
"#,
        root.display()
    )
}

#[tokio::test]
async fn dot_files_are_not_served_but_well_known_is() {
    let site = site();
    let upstream = UpstreamServer::start(Transport::Tcp).await;
    let gateway = TestGateway::start(&static_config(site.path(), &upstream.address, "")).await;
    let mut client = Client::connect(gateway.addr).await;
    for path in ["/.env", "/.git/config", "/%2egit/config", "/x/../.env"] {
        assert_eq!(
            client.get(path).await.status,
            StatusCode::NOT_FOUND,
            "{path}"
        );
    }
    let txt = client.get("/.well-known/security.txt").await;
    assert_eq!(
        (txt.status, txt.text()),
        (StatusCode::OK, "Contact: x".to_string())
    );
    assert_eq!(client.get("/app.css").await.status, StatusCode::OK);
}

#[tokio::test]
async fn dotfiles_true_serves_them() {
    let site = site();
    let upstream = UpstreamServer::start(Transport::Tcp).await;
    let gateway = TestGateway::start(&static_config(
        site.path(),
        &upstream.address,
        "dotfiles = true",
    ))
    .await;
    let reply = weir_testkit::client::get(gateway.addr, "/.env").await;
    assert_eq!(
        (reply.status, reply.text()),
        (StatusCode::OK, "SECRET_KEY=x".to_string())
    );
}

#[tokio::test]
async fn a_missing_file_goes_to_the_fallback_upstream() {
    let site = site();
    let upstream = UpstreamServer::start(Transport::Tcp).await;
    let gateway = TestGateway::start(&static_config(
        site.path(),
        &upstream.address,
        "fallback_upstream = \"app\"",
    ))
    .await;
    let mut client = Client::connect(gateway.addr).await;
    let file = client.get("/app.css").await;
    assert_eq!(
        (file.status, file.text()),
        (StatusCode::OK, "body{}".to_string())
    );
    let app = client.get("/login").await;
    assert_eq!(
        (app.status, app.text()),
        (StatusCode::OK, "hello".to_string())
    );
    assert_eq!(app.header("x-upstream"), Some("testkit"));
    // A POST to a path with no file is the app's (try_files looks whatever the method)...
    let posted = client.request(Method::POST, "/echo", "form=1").await;
    assert_eq!(
        (posted.status, posted.text()),
        (StatusCode::OK, "form=1".to_string())
    );
    // ...one to a file is refused as a static file's.
    let refused = client.request(Method::POST, "/app.css", "x").await;
    assert_eq!(refused.status, StatusCode::METHOD_NOT_ALLOWED);
    // A dot-file is refused, not handed to the app.
    assert_eq!(client.get("/.env").await.status, StatusCode::NOT_FOUND);
    assert_eq!(upstream.requests(), 2);
}

#[tokio::test]
async fn a_missing_file_gets_the_fallback_file() {
    let site = site();
    let upstream = UpstreamServer::start(Transport::Tcp).await;
    let gateway = TestGateway::start(&static_config(
        site.path(),
        &upstream.address,
        "fallback_file = \"/index.html\"",
    ))
    .await;
    let mut client = Client::connect(gateway.addr).await;
    for path in ["/", "/settings/profile", "/index.html"] {
        let reply = client.get(path).await;
        assert_eq!(
            (reply.status, reply.text()),
            (StatusCode::OK, "<app>".to_string()),
            "{path}"
        );
    }
    let file = client.get("/app.css").await;
    assert_eq!(file.text(), "body{}");
    assert_eq!(upstream.requests(), 0);
}

/// `try_files $uri @app` and `try_files $uri /index.html` in nginx, the two fallbacks in weir:
/// the same requests get the same statuses and bodies.
#[tokio::test]
async fn fallbacks_match_nginx_try_files() {
    if !differential_enabled() {
        return;
    }
    let site = site();
    let upstream = UpstreamServer::start(Transport::Tcp).await;
    let root = site.path().display().to_string();
    let nginx = Nginx::start(
        "",
        &format!(
            r#"        location /spa/ {{ alias {root}/; try_files $uri /spa/index.html; }}
        location / {{ root {root}; try_files $uri @app; }}
        location @app {{ proxy_pass http://{}; }}"#,
            upstream.address
        ),
    )
    .expect("nginx starts");
    let gateway = TestGateway::start(&format!(
        r#"
[server]
listen = ["127.0.0.1:0"]
[upstreams.app]
servers = ["{}"]
[[routes]]
path = "/spa/"
static = "{root}"
fallback_file = "/index.html"
[[routes]]
path = "/"
static = "{root}"
fallback_upstream = "app"
"#,
        upstream.address
    ))
    .await;
    let requests: [(Method, &str); 6] = [
        (Method::GET, "/app.css"),
        (Method::GET, "/login"),
        (Method::POST, "/echo"),
        (Method::GET, "/spa/app.css"),
        (Method::GET, "/spa/deep/link"),
        (Method::GET, "/.well-known/security.txt"),
    ];
    for (method, path) in requests {
        let mut from_nginx = Client::connect(nginx.addr).await;
        let mut from_weir = Client::connect(gateway.addr).await;
        let nginx_reply = from_nginx.request(method.clone(), path, "body").await;
        let weir_reply = from_weir.request(method.clone(), path, "body").await;
        assert_eq!(
            (weir_reply.status, weir_reply.text()),
            (nginx_reply.status, nginx_reply.text()),
            "{method} {path}; nginx logs: {}",
            nginx.logs()
        );
    }
}

/// A static route's own path without its trailing slash (nginx `location /media { alias DIR/; }`,
/// asked for `/media`) names the directory: 301 to `./media/`, as nginx redirects to `/media/`, so
/// that the page's relative links resolve below it; with a fallback (`try_files $uri $uri/ ...`)
/// the index is served, as nginx's `$uri/` finds it.
#[tokio::test]
async fn a_static_route_asked_without_its_slash_is_redirected_to_it() {
    let site = site();
    let upstream = UpstreamServer::start(Transport::Tcp).await;
    let config = format!(
        r#"
[server]
listen = ["127.0.0.1:0"]
[upstreams.app]
servers = ["{}"]
[[routes]]
path = "/media"
static = "{dir}"
[[routes]]
path = "/spa"
static = "{dir}"
fallback_file = "/index.html"
"#,
        upstream.address,
        dir = site.path().display()
    );
    let gateway = TestGateway::start(&config).await;
    let mut client = Client::connect(gateway.addr).await;
    let bare = client.get("/media").await;
    assert_eq!(bare.status, StatusCode::MOVED_PERMANENTLY);
    assert_eq!(bare.header("location"), Some("./media/"));
    let index = client.get("/media/").await;
    assert_eq!(
        (index.status, index.text()),
        (StatusCode::OK, "<app>".to_string())
    );
    assert_eq!(client.get("/media/app.css").await.status, StatusCode::OK);
    let fallback = client.get("/spa").await;
    assert_eq!(
        (fallback.status, fallback.text()),
        (StatusCode::OK, "<app>".to_string())
    );
    if !crate::locations::nginx_enabled() {
        return;
    }
    let dir = site.path().display().to_string();
    let nginx = Nginx::start("", &format!("location /media {{ alias {dir}/; }}")).unwrap();
    let reply = Client::connect(nginx.addr).await.get("/media").await;
    assert_eq!(reply.status, StatusCode::MOVED_PERMANENTLY, "nginx");
    assert!(
        reply
            .header("location")
            .is_some_and(|location| location.ends_with("/media/")),
        "nginx: {:?}",
        reply.header("location")
    );
}

/// `try_suffixes` (nginx `try_files $uri $uri.html $uri/ =404`, a static site's clean URLs): a
/// path that names no file gets the first of its suffixes that does, in order; `"/"` is the
/// directory (redirected to with its slash, as nginx's `$uri/` is), `"/index.html"` its index
/// file, served at once; a directory is no file for the path itself; a path with a dot-file
/// stays unserved, whatever a suffix finds. With `WEIR_E2E=1`, nginx's `try_files` gives the same
/// statuses and bodies.
#[tokio::test]
async fn try_suffixes_find_what_nginx_try_files_finds() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::write(root.join("guide.html"), "the guide").unwrap();
    std::fs::write(root.join("page.txt"), "a page").unwrap();
    std::fs::write(root.join(".secret.html"), "secret").unwrap();
    std::fs::write(root.join("both.html"), "the file first").unwrap();
    for sub in ["api", "both", "empty"] {
        std::fs::create_dir_all(root.join(sub)).unwrap();
    }
    std::fs::write(root.join("api/index.html"), "the api").unwrap();
    std::fs::write(root.join("both/index.html"), "the directory").unwrap();
    let root = root.display();
    let gateway = TestGateway::start(&format!(
        r#"
[server]
listen = ["127.0.0.1:0"]
[[routes]]
path = "/docs/"
static = "{root}"
try_suffixes = [".html", "/"]
[[routes]]
path = "/book/"
static = "{root}"
try_suffixes = ["/index.html"]
"#
    ))
    .await;
    let paths = [
        "/docs/page.txt",
        "/docs/guide",
        "/docs/guide.html",
        "/docs/missing",
        "/docs/api",
        "/docs/api/",
        "/docs/empty",
        "/docs/both",
        "/book/api",
        "/book/guide",
        "/book/empty",
    ];
    let answers = |addr| async move {
        let mut answers = Vec::new();
        for path in paths {
            let reply = weir_testkit::client::get(addr, path).await;
            let body = if reply.status == StatusCode::OK {
                reply.text()
            } else {
                String::new()
            };
            answers.push((path, reply.status.as_u16(), body));
        }
        answers
    };
    let from_weir = answers(gateway.addr).await;
    let expected = [
        (200, "a page"),
        (200, "the guide"),
        (200, "the guide"),
        (404, ""),
        (301, ""),
        (200, "the api"),
        (301, ""),
        (200, "the file first"),
        (200, "the api"),
        (404, ""),
        (404, ""),
    ];
    let seen: Vec<(u16, &str)> = from_weir
        .iter()
        .map(|(_, status, body)| (*status, body.as_str()))
        .collect();
    assert_eq!(seen, expected, "{from_weir:?}");
    // A path with a dot-file is not served (dotfiles = false), though a suffix would find a
    // file for it, where nginx serves it.
    let hidden = weir_testkit::client::get(gateway.addr, "/docs/.secret").await;
    assert_eq!(hidden.status, StatusCode::NOT_FOUND);

    if !differential_enabled() {
        return;
    }
    let nginx = Nginx::start(
        "",
        &format!(
            "        location /docs/ {{ alias {root}/; try_files $uri $uri.html $uri/ =404; }}\n\
             location /book/ {{ alias {root}/; try_files $uri $uri/index.html =404; }}"
        ),
    )
    .expect("nginx starts");
    assert_eq!(answers(nginx.addr).await, from_weir, "{}", nginx.logs());
}
