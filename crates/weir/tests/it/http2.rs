//! HTTP/2 to the HTTP/1.1 upstream (issue 16): RFC 9113's cookie crumbs go upstream as one
//! line. The clients are the `h2` crate and raw frames over real TLS connections (the helpers of
//! the `tls` module).

use crate::support::*;
use crate::tls::{certificate_tables, connect_tls, Pki};

/// A gateway with a TLS listener in front of `upstream`; `server_extra` goes into `[server]`,
/// `upstream_extra` into `[upstreams.app]`. The spool is a
/// directory of the test's own (made by the gateway, mode 0700).
fn config(
    upstream: &str,
    pki: &Pki,
    spool: &std::path::Path,
    server_extra: &str,
    upstream_extra: &str,
) -> String {
    let files = [pki.issue(&["app.test", "127.0.0.1"])];
    format!(
        r#"
[server]
listen = ["127.0.0.1:0"]
shutdown_grace = "5s"
spool_dir = "{spool}"
{server_extra}

[upstreams.app]
servers = ["{upstream}"]
{upstream_extra}

[[routes]]
path = "/"
upstream = "app"

[tls]
listen = ["127.0.0.1:0"]

{certificates}
"#,
        spool = spool.display(),
        certificates = certificate_tables(&files)
    )
}

/// An upstream, and a gateway in front of it with these extra lines.
struct Setup {
    pki: Pki,
    upstream: UpstreamServer,
    gateway: TestGateway,
    _spool: tempfile::TempDir,
}

impl Setup {
    async fn start(server_extra: &str, upstream_extra: &str) -> Setup {
        let pki = Pki::new();
        let spool = tempfile::tempdir().unwrap();
        let upstream = UpstreamServer::start(Transport::Tcp).await;
        let gateway = TestGateway::start(&config(
            &upstream.address,
            &pki,
            &spool.path().join("spool"),
            server_extra,
            upstream_extra,
        ))
        .await;
        Setup {
            pki,
            upstream,
            gateway,
            _spool: spool,
        }
    }

    fn tls(&self) -> std::net::SocketAddr {
        self.gateway.tls_addr.expect("a TLS listener")
    }
}

/// RFC 9113 §8.2.3: a client may split `cookie` into one field per crumb; before the request goes
/// to HTTP/1.1 they are joined with "; " into one line, as nginx does. Two `cookie` lines would
/// reach the app as one header joined with ", " (Gunicorn), which cookie parsers misread.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn split_cookie_fields_reach_the_upstream_as_one_line() {
    let setup = Setup::start("", "").await;
    let stream = connect_tls(setup.tls(), setup.pki.client_config(&[b"h2"]), "app.test")
        .await
        .unwrap();
    let (client, connection) = h2::client::handshake(stream).await.unwrap();
    tokio::spawn(connection);
    let mut client = client.ready().await.unwrap();
    let request = Request::get("https://app.test/headers")
        .header("cookie", "session=abc")
        .header("x-other", "between")
        .header("cookie", "csrf=xyz")
        .header("cookie", "theme=dark")
        .body(())
        .unwrap();
    let (response, _) = client.send_request(request, true).unwrap();
    let response = response.await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let mut body = response.into_body();
    let mut head = Vec::new();
    while let Some(data) = body.data().await {
        let data = data.unwrap();
        body.flow_control().release_capacity(data.len()).unwrap();
        head.extend_from_slice(&data);
    }
    let head = String::from_utf8(head).unwrap();
    let cookies: Vec<&str> = head
        .lines()
        .filter(|line| line.starts_with("cookie:"))
        .collect();
    assert_eq!(
        cookies,
        ["cookie: session=abc; csrf=xyz; theme=dark"],
        "{head}"
    );
    assert_eq!(setup.upstream.requests(), 1);
}
