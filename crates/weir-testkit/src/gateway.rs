//! The gateway, spawned in-process from a TOML string on port 0, stopped on drop.
//!
//! It runs in the layout the config asks for, the default included: with `runtime = "per_core"`
//! (the default) one thread per core, each with its own single-threaded runtime and
//! `SO_REUSEPORT` listeners, as `weir run` does, so the tests exercise what users run.

use std::net::SocketAddr;
use std::time::Duration;

use tokio::sync::oneshot;
use tokio::task::JoinHandle;
use weir::GatewayHandle;

/// A running gateway.
pub struct TestGateway {
    pub addr: SocketAddr,
    /// Every listener's address as bound (`Gateway::local_addrs`), `addr` first: a config may
    /// give `[server] listen` several, on different loopback IPs (`127.0.0.1:0`, `127.0.0.2:0`).
    pub addrs: Vec<SocketAddr>,
    /// The admin listener's address, when the config has `[admin]`.
    pub admin_addr: Option<SocketAddr>,
    /// The first `[tls] listen` address, when the config has `[tls]`.
    pub tls_addr: Option<SocketAddr>,
    pub handle: GatewayHandle,
    stop: Option<oneshot::Sender<()>>,
    task: Option<JoinHandle<()>>,
}

impl TestGateway {
    /// Parses `toml` (its `listen` should be `["127.0.0.1:0"]`), binds and runs the gateway.
    pub async fn start(toml: &str) -> TestGateway {
        let config = weir::config::from_toml(toml, None).expect("test config is valid");
        match config.server.runtime {
            weir::config::RuntimeLayout::PerCore => Self::start_per_core(config).await,
            weir::config::RuntimeLayout::WorkStealing => Self::start_here(config),
        }
    }

    /// One gateway on the caller's runtime (`runtime = "work_stealing"`).
    fn start_here(config: weir::Config) -> TestGateway {
        let gateway = weir::Gateway::bind(&config).expect("gateway binds");
        let addrs = gateway.local_addrs();
        let addr = addrs[0];
        let admin_addr = gateway.admin_addr();
        let tls_addr = gateway.tls_addrs().first().copied();
        let handle = gateway.handle();
        let (stop, stopped) = oneshot::channel::<()>();
        let task = tokio::spawn(gateway.run(async move {
            let _ = stopped.await;
        }));
        TestGateway {
            addr,
            addrs,
            admin_addr,
            tls_addr,
            handle,
            stop: Some(stop),
            task: Some(task),
        }
    }

    /// One thread per core (or `threads`), each running its own single-threaded runtime: the
    /// first binds, the others bind beside it, all share one proxy, as `weir run` does.
    async fn start_per_core(config: weir::Config) -> TestGateway {
        let threads = match config.server.threads {
            0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
            threads => threads,
        };
        let (stop, stopped) = oneshot::channel::<()>();
        let (stop_all, stop_receiver) = tokio::sync::watch::channel(false);
        let (ready_sender, ready) = oneshot::channel();
        let mut workers = Vec::with_capacity(threads);
        let first_config = config.clone();
        let first_stop = stop_receiver.clone();
        workers.push(worker(move || async move {
            let gateway = weir::Gateway::bind_with(&first_config, true).expect("gateway binds");
            let _ = ready_sender.send((
                gateway.handle(),
                gateway.listen_addrs(),
                gateway.local_addrs(),
                gateway.admin_addr(),
                gateway.tls_addrs().first().copied(),
            ));
            gateway.run(until(first_stop)).await;
        }));
        let (handle, listen_addrs, addrs, admin_addr, tls_addr) =
            ready.await.expect("the first worker binds");
        let addr = addrs[0];
        for _ in 1..threads {
            let (handle, addrs) = (handle.clone(), listen_addrs.clone());
            let settings = config.server.clone();
            let stop = stop_receiver.clone();
            workers.push(worker(move || async move {
                let gateway = weir::Gateway::bind_sibling(&handle, &addrs, &settings, Vec::new())
                    .expect("a sibling binds");
                gateway.run(until(stop)).await;
            }));
        }
        let task = tokio::spawn(async move {
            let _ = stopped.await;
            let _ = stop_all.send(true);
            let _ = tokio::task::spawn_blocking(move || {
                for worker in workers {
                    let _ = worker.join();
                }
            })
            .await;
        });
        TestGateway {
            addr,
            addrs,
            admin_addr,
            tls_addr,
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
        crate::wait_for(
            "the pools to be quiet",
            within,
            || self.handle.pool_stats(),
            |stats| {
                stats.iter().all(|(_, _, stats)| {
                    stats.in_use == 0 && stats.waiting == 0 && stats.outstanding == 0
                })
            },
        )
        .await;
    }
}

impl Drop for TestGateway {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
    }
}

/// A thread running `work` on a single-threaded runtime of its own.
fn worker<F, Fut>(work: F) -> std::thread::JoinHandle<()>
where
    F: FnOnce() -> Fut + Send + 'static,
    Fut: std::future::Future<Output = ()>,
{
    std::thread::spawn(move || {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a worker runtime")
            .block_on(work())
    })
}

/// Completes once `stop` turns true (or its sender is gone).
async fn until(mut stop: tokio::sync::watch::Receiver<bool>) {
    let _ = stop.wait_for(|stopped| *stopped).await;
}
