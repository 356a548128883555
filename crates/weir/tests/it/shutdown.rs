//! Graceful shutdown: no new connections, in-flight requests finish.

use crate::support::*;

both_transports!(
    in_flight_requests_finish_after_shutdown_begins,
    |transport| {
        let (upstream, gateway) = start(transport, "", "").await;
        let addr = gateway.addr;
        let in_flight =
            tokio::spawn(async move { Client::connect(addr).await.get("/slow?ms=300").await });
        wait_until(
            "the request to reach the upstream",
            Duration::from_secs(5),
            || upstream.requests() == 1,
        )
        .await;
        let stopped = gateway.begin_shutdown();
        let reply = in_flight.await.unwrap();
        assert_eq!(reply.status, StatusCode::OK);
        assert_eq!(reply.text(), "slow");
        tokio::time::timeout(Duration::from_secs(3), stopped)
            .await
            .expect("gateway stops")
            .unwrap();
        assert!(
            tokio::net::TcpStream::connect(addr).await.is_err(),
            "still accepting"
        );
    }
);

/// Parked idle connections (out of their tasks) are closed at once by a shutdown too.
#[tokio::test]
async fn parked_connections_do_not_hold_up_shutdown() {
    let (_upstream, gateway) = start(Transport::Tcp, "", "").await;
    let mut client = Client::connect(gateway.addr).await;
    assert_eq!(client.get("/").await.status, StatusCode::OK);
    wait_until(
        "the idle connection to be parked",
        Duration::from_secs(10),
        || gateway.handle.parked_connections() == 1,
    )
    .await;
    let stopped = gateway.begin_shutdown();
    tokio::time::timeout(Duration::from_secs(2), stopped)
        .await
        .expect("gateway stops")
        .unwrap();
}

#[tokio::test]
async fn idle_connections_do_not_hold_up_shutdown() {
    let (_upstream, gateway) = start(Transport::Tcp, "", "").await;
    let mut client = Client::connect(gateway.addr).await;
    assert_eq!(client.get("/").await.status, StatusCode::OK);
    let stopped = gateway.begin_shutdown();
    tokio::time::timeout(Duration::from_secs(2), stopped)
        .await
        .expect("gateway stops")
        .unwrap();
}
