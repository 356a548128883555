//! When a name is asked again, and what a change of its addresses does to the group's servers.

use std::sync::Arc;
use std::time::Duration;

use super::{next_resolution, Follower, ResolveError, Resolved};
use crate::config::{from_toml, UpstreamAddr, UpstreamConfig};
use crate::upstream::Upstream;

fn resolved(ttl: Option<Duration>) -> Result<Resolved, ResolveError> {
    Ok(Resolved {
        addrs: vec!["10.0.0.1:80".parse().unwrap()],
        ttl,
        dropped: 0,
    })
}

#[test]
fn the_ttl_sets_the_next_resolution_within_one_second_and_the_interval() {
    let interval = Duration::from_secs(30);
    let at = |outcome| next_resolution(interval, &outcome);
    assert_eq!(
        at(resolved(Some(Duration::ZERO))),
        Duration::from_secs(1),
        "a TTL of 0 does not loop"
    );
    assert_eq!(
        at(resolved(Some(Duration::from_secs(7)))),
        Duration::from_secs(7)
    );
    assert_eq!(
        at(resolved(Some(Duration::from_secs(3600)))),
        interval,
        "the interval is the longest"
    );
    assert_eq!(
        at(resolved(None)),
        interval,
        "the system's resolver gives no TTL"
    );
    let failed = || {
        Err(ResolveError::Empty {
            name: "web:80".into(),
        })
    };
    assert_eq!(
        at(failed()),
        Duration::from_secs(5),
        "a failure is retried soon"
    );
    assert_eq!(
        next_resolution(Duration::from_secs(2), &failed()),
        Duration::from_secs(2)
    );
}

/// `[upstreams.app]` with `10.0.0.1:80` and the name `web:80`, whose resolver (port 9 on
/// loopback, where nothing answers) never gives an address: the test moves the name by hand.
fn config() -> UpstreamConfig {
    let config = from_toml(
        "[server]\nresolver = \"127.0.0.1:9\"\n[upstreams.app]\nservers = [\"10.0.0.1:80\", \"web:80\"]\nmax_fails = 3\n",
        None,
    )
    .unwrap();
    config.upstreams["app"].clone()
}

fn tcp(text: &str) -> UpstreamAddr {
    UpstreamAddr::Tcp(text.parse().unwrap())
}

fn addrs(upstream: &Upstream) -> Vec<String> {
    upstream
        .pools()
        .iter()
        .map(|pool| pool.addr().to_string())
        .collect()
}

#[tokio::test]
async fn a_server_that_stays_keeps_its_pool_health_and_count_and_one_that_goes_leaves() {
    let upstream = Upstream::new("app", &config(), false);
    assert_eq!(
        addrs(&upstream),
        ["10.0.0.1:80"],
        "the name has no address yet"
    );
    let lone = upstream.set.current.load_full();
    assert_eq!(
        lone.health[0].settings().max_fails,
        0,
        "a lone server is never marked down"
    );

    assert!(upstream
        .set
        .update(0, vec![tcp("10.0.0.2:80"), tcp("10.0.0.3:80")]));
    assert_eq!(
        addrs(&upstream),
        ["10.0.0.1:80", "10.0.0.2:80", "10.0.0.3:80"]
    );
    let before = upstream.set.current.load_full();
    assert_eq!(
        before.health[0].settings().max_fails,
        3,
        "three servers: passive health on"
    );
    // A request in flight to 10.0.0.3: it holds a place of that server's pool.
    let Ok(crate::upstream::Checkout::Connect(in_flight)) = before.pools[2]
        .checkout(false, crate::config::Priority::Normal, || None)
        .await
    else {
        panic!("a place to connect with");
    };

    // 10.0.0.2 goes; 10.0.0.1 is also given by the config, so it stays one server.
    assert!(upstream
        .set
        .update(0, vec![tcp("10.0.0.1:80"), tcp("10.0.0.3:80")]));
    assert_eq!(addrs(&upstream), ["10.0.0.1:80", "10.0.0.3:80"]);
    let after = upstream.set.current.load_full();
    assert!(
        Arc::ptr_eq(&after.pools[1], &before.pools[2]),
        "10.0.0.3 keeps its pool"
    );
    assert!(
        Arc::ptr_eq(&after.health[1], &before.health[2]),
        "and its health"
    );
    assert_eq!(after.pools[1].outstanding(), 1, "and its request in flight");
    drop(in_flight);
    assert_eq!(after.pools[1].outstanding(), 0);
    assert_eq!(
        before.pools.len(),
        3,
        "a request that started before the change keeps the servers it had"
    );

    assert!(
        !upstream
            .set
            .update(0, vec![tcp("10.0.0.1:80"), tcp("10.0.0.3:80")]),
        "the same answer changes nothing"
    );
    assert!(Arc::ptr_eq(&upstream.set.current.load_full(), &after));
}
