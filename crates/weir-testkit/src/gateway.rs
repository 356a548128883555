//! The gateway, spawned in-process from a TOML string on port 0, stopped on drop.

use std::net::SocketAddr;
use std::time::Duration;

use tokio::sync::oneshot;
use tokio::task::JoinHandle;
use weir::GatewayHandle;

/// A running gateway.
pub struct TestGateway {
    pub addr: SocketAddr,
    /// The admin listener's address, when the config has `[admin]`.
    pub admin_addr: Option<SocketAddr>,
    pub handle: GatewayHandle,
    stop: Option<oneshot::Sender<()>>,
    task: Option<JoinHandle<()>>,
}

impl TestGateway {
    /// Parses `toml` (its `listen` should be `["127.0.0.1:0"]`), binds and runs the gateway.
    pub async fn start(toml: &str) -> TestGateway {
        let config = weir::config::from_toml(toml, None).expect("test config is valid");
        let gateway = weir::Gateway::bind(&config).expect("gateway binds");
        let addr = gateway.local_addrs()[0];
        let admin_addr = gateway.admin_addr();
        let handle = gateway.handle();
        let (stop, stopped) = oneshot::channel::<()>();
        let task = tokio::spawn(gateway.run(async move {
            let _ = stopped.await;
        }));
        TestGateway {
            addr,
            admin_addr,
            handle,
            stop: Some(stop),
            task: Some(task),
        }
    }

    /// Starts a graceful shutdown and waits until the gateway has stopped.
    pub async fn shutdown(mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(task) = self.task.take() {
            let _ = task.await;
        }
    }

    /// Starts a graceful shutdown and returns the task that ends when the gateway has stopped.
    pub fn begin_shutdown(mut self) -> JoinHandle<()> {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        self.task.take().expect("gateway task")
    }

    /// Waits until every pool is back at `open == idle` (nothing in use, nobody waiting), or
    /// panics with the stats after `within`.
    pub async fn wait_pools_quiet(&self, within: Duration) {
        let deadline = tokio::time::Instant::now() + within;
        loop {
            let stats = self.handle.pool_stats();
            if stats
                .iter()
                .all(|(_, _, s)| s.in_use == 0 && s.waiting == 0)
            {
                return;
            }
            if tokio::time::Instant::now() >= deadline {
                panic!("pools still busy after {within:?}: {stats:?}");
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }
}

impl Drop for TestGateway {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
    }
}
