//! End to end with real Python apps: FastAPI under Gunicorn + UvicornWorker and Flask under
//! Gunicorn's sync workers, each on a Unix socket. Run when `WEIR_E2E=1` (the test command sets
//! it after installing the venv).

use crate::support::*;
use weir_testkit::gunicorn::{self, App, Gunicorn};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fastapi_under_uvicorn_workers_on_a_unix_socket() {
    if !gunicorn::enabled() {
        eprintln!("skipped: set WEIR_E2E=1 to run the end-to-end tests");
        return;
    }
    let app = Gunicorn::start(App::FastApi { workers: 2 });
    let gateway = TestGateway::start(&config(
        &app.address,
        r#"max_body_size = "20MiB""#,
        "max_idle = 8",
    ))
    .await;
    let mut client = Client::connect(gateway.addr).await;
    for path in ["/", "/sync", "/async"] {
        let reply = client.get(path).await;
        assert_eq!(reply.status, StatusCode::OK, "{path}");
        assert!(
            reply.text().contains("hello from weir"),
            "{path}: {}",
            reply.text()
        );
    }
    let big = client.get("/big").await;
    assert_eq!(big.body.len(), 1_000_000);
    let upload: Vec<u8> = (0..2_000_000u32).map(|i| (i % 253) as u8).collect();
    let echoed = client.request(Method::POST, "/echo", upload.clone()).await;
    assert!(echoed.body == upload, "echoed body differs");
    let headers = client.get("/headers").await.text();
    assert!(
        headers.contains(r#"["x-forwarded-for","127.0.0.1"]"#),
        "{headers}"
    );
    assert!(
        headers.contains(r#"["x-real-ip","127.0.0.1"]"#),
        "{headers}"
    );
    assert_eq!(
        client.get("/status/418").await.status,
        StatusCode::IM_A_TEAPOT
    );
    gateway.wait_pools_quiet(Duration::from_secs(2)).await;
    let stats = gateway.handle.pool_stats()[0].2;
    assert!(
        stats.reuses > 0,
        "Uvicorn keeps connections alive: {stats:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn flask_under_gunicorn_sync_workers() {
    if !gunicorn::enabled() {
        eprintln!("skipped: set WEIR_E2E=1 to run the end-to-end tests");
        return;
    }
    let app = Gunicorn::start(App::Flask { workers: 2 });
    let gateway = TestGateway::start(&config(&app.address, "", "")).await;
    let mut tasks = Vec::new();
    for _ in 0..4 {
        let addr = gateway.addr;
        tasks.push(tokio::spawn(async move {
            let mut client = Client::connect(addr).await;
            let mut statuses = Vec::new();
            for _ in 0..5 {
                statuses.push(client.get("/").await.status);
            }
            statuses
        }));
    }
    for task in tasks {
        assert!(task
            .await
            .unwrap()
            .iter()
            .all(|status| *status == StatusCode::OK));
    }
    let echoed = Client::connect(gateway.addr)
        .await
        .request(Method::POST, "/echo", "ping")
        .await;
    assert_eq!(echoed.text(), "ping");
    gateway.wait_pools_quiet(Duration::from_secs(2)).await;
    let stats = gateway.handle.pool_stats()[0].2;
    assert_eq!(
        stats.reuses, 0,
        "the sync worker closes after every response: {stats:?}"
    );
}
