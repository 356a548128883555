//! Whether an upstream server should get requests. Passive health watches real requests, as
//! nginx's `max_fails` / `fail_timeout`: `max_fails` failures within `fail_timeout` (counted from
//! the first failure of the window) mark the server down; it is then skipped for `fail_timeout`,
//! after which one trial request is let through per `fail_timeout` until one succeeds. The active
//! check (`health_check`) sends `GET path` to the server in the background and marks it down after
//! `fails` consecutive failures, up after `passes` consecutive passes.
//!
//! Against a server whose pool has a cap (`max_connections`, `workers`), the check takes a place
//! in the pool first ([`Pool::check_place`]), so the app never sees more requests at once than
//! the cap, the check included; its `timeout` starts once it has the place. A check that gets
//! no place within `interval` (every place held by requests all that time) is skipped: neither
//! a pass nor a failure, as a wait behind busy workers says nothing of the server's health;
//! the next one joins the queue at once. Without a cap, the check opens its connection at once,
//! beside the requests.
//!
//! The hot path reads two atomics; the lock is taken only to count a failure, or while the
//! server is marked down.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, Weak};
use std::time::Duration;

use http::{header, HeaderValue, Method, StatusCode};
use tokio::time::Instant;

use crate::config::HealthCheckConfig;
use crate::config::UpstreamAddr;
use crate::request_body::RequestBody;
use crate::upstream::client::{self, Sending};
use crate::upstream::connect;
use crate::upstream::pool::Pool;

/// The passive-health limits of a server.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PassiveSettings {
    /// Failures within `fail_timeout` that mark the server down; 0 turns passive health off.
    pub max_fails: u32,
    pub fail_timeout: Duration,
}

/// The health of one upstream server.
pub struct Health {
    settings: PassiveSettings,
    /// Mirrors `state.down.is_some()`, so the hot path need not lock.
    passive_down: AtomicBool,
    /// Set while the active check has the server down.
    active_down: AtomicBool,
    /// Failures counted since start, for metrics.
    failures: AtomicU64,
    /// The active check's outcomes since start ([`ActiveChecks`]).
    checks_passed: AtomicU64,
    checks_failed: AtomicU64,
    checks_skipped: AtomicU64,
    state: Mutex<Passive>,
}

struct Passive {
    /// Failures in the window that began at `window_start`.
    fails: u32,
    window_start: Instant,
    /// While marked down: the server is skipped until this instant.
    down_until: Option<Instant>,
    /// Counts the times the server went down, so that only a request sent during this down
    /// period can bring it back.
    generation: u64,
}

/// What [`Health::on_picked`] hands a request. A request sent while the server was marked down
/// (its trial, or because every server was down) carries the down period's generation: its
/// success brings the server back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ticket {
    trial: Option<u64>,
}

impl Health {
    pub fn new(settings: PassiveSettings) -> Health {
        Health {
            settings,
            passive_down: AtomicBool::new(false),
            active_down: AtomicBool::new(false),
            failures: AtomicU64::new(0),
            checks_passed: AtomicU64::new(0),
            checks_failed: AtomicU64::new(0),
            checks_skipped: AtomicU64::new(0),
            state: Mutex::new(Passive {
                fails: 0,
                window_start: Instant::now(),
                down_until: None,
                generation: 0,
            }),
        }
    }

    /// Its passive-health limits.
    pub fn settings(&self) -> PassiveSettings {
        self.settings
    }

    fn lock(&self) -> MutexGuard<'_, Passive> {
        // Nothing in this file panics while holding the lock, and the state is consistent between
        // statements, so recovering from poison is safe.
        self.state
            .lock()
            .unwrap_or_else(|poison| poison.into_inner())
    }

    /// Whether the server is marked down by neither passive nor active health.
    pub fn is_healthy(&self) -> bool {
        !self.is_passive_down() && !self.is_active_down()
    }

    /// Whether passive health has the server down (including while its trial runs).
    pub fn is_passive_down(&self) -> bool {
        self.passive_down.load(Ordering::Relaxed)
    }

    /// Whether the active check has the server down.
    pub fn is_active_down(&self) -> bool {
        self.active_down.load(Ordering::Relaxed)
    }

    /// Failures counted since start: connect errors and time-outs, exchanges that failed before
    /// a response.
    pub fn failures(&self) -> u64 {
        self.failures.load(Ordering::Relaxed)
    }

    /// Whether the server may take a request at `now`: up, or passively down with its
    /// `fail_timeout` over (so a trial may go).
    pub fn is_available(&self, now: Instant) -> bool {
        if self.is_active_down() {
            return false;
        }
        if !self.is_passive_down() {
            return true;
        }
        self.lock().down_until.is_none_or(|until| now >= until)
    }

    /// The balancer chose this server for a request at `now`. When the server is down and its
    /// `fail_timeout` is over, this request is its trial: the next trial waits another
    /// `fail_timeout`, as nginx does.
    pub fn on_picked(&self, now: Instant) -> Ticket {
        if !self.is_passive_down() {
            return Ticket { trial: None };
        }
        let mut state = self.lock();
        let generation = state.generation;
        match &mut state.down_until {
            Some(until) => {
                if now >= *until {
                    *until = now + self.settings.fail_timeout;
                }
                Ticket {
                    trial: Some(generation),
                }
            }
            None => Ticket { trial: None },
        }
    }

    /// A request got its response head. Returns true when this brought the server back up.
    pub fn record_success(&self, ticket: Ticket) -> bool {
        let Some(generation) = ticket.trial else {
            return false;
        };
        let mut state = self.lock();
        if state.down_until.is_none() || state.generation != generation {
            return false;
        }
        state.down_until = None;
        state.fails = 0;
        self.passive_down.store(false, Ordering::Relaxed);
        true
    }

    /// A connect failed or timed out, or an exchange failed before a response, at `now`. Returns
    /// true when this marked the server down.
    pub fn record_failure(&self, now: Instant) -> bool {
        self.failures.fetch_add(1, Ordering::Relaxed);
        let PassiveSettings {
            max_fails,
            fail_timeout,
        } = self.settings;
        if max_fails == 0 {
            return false;
        }
        let mut state = self.lock();
        if let Some(until) = &mut state.down_until {
            // A failed trial, or a request sent while every server was down: skip the server for
            // another fail_timeout.
            *until = now + fail_timeout;
            return false;
        }
        if state.fails == 0 || now.duration_since(state.window_start) >= fail_timeout {
            state.fails = 0;
            state.window_start = now;
        }
        state.fails += 1;
        if state.fails < max_fails {
            return false;
        }
        state.down_until = Some(now + fail_timeout);
        state.generation += 1;
        self.passive_down.store(true, Ordering::Relaxed);
        true
    }

    fn set_active_down(&self, down: bool) {
        self.active_down.store(down, Ordering::Relaxed);
    }

    /// The active check's outcomes since start.
    pub fn checks(&self) -> ActiveChecks {
        ActiveChecks {
            passed: self.checks_passed.load(Ordering::Relaxed),
            failed: self.checks_failed.load(Ordering::Relaxed),
            skipped: self.checks_skipped.load(Ordering::Relaxed),
        }
    }
}

/// How the active checks of a server came out, since start.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ActiveChecks {
    pub passed: u64,
    pub failed: u64,
    /// Checks that got no place in the server's capped pool within `interval`: counted as
    /// neither a pass nor a failure.
    pub skipped: u64,
}

/// The active check's consecutive counts and the verdict they give.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ActiveCounter {
    fails_needed: u32,
    passes_needed: u32,
    consecutive_fails: u32,
    consecutive_passes: u32,
    down: bool,
}

impl ActiveCounter {
    /// Starts up: a server is trusted until its checks say otherwise, so a restart of weir does
    /// not hold back traffic for `passes` intervals.
    pub fn new(fails_needed: u32, passes_needed: u32) -> ActiveCounter {
        ActiveCounter {
            fails_needed: fails_needed.max(1),
            passes_needed: passes_needed.max(1),
            consecutive_fails: 0,
            consecutive_passes: 0,
            down: false,
        }
    }

    #[cfg(test)]
    pub fn is_down(&self) -> bool {
        self.down
    }

    /// Counts one check. Returns the new verdict (`true` = down) when it changed.
    pub fn record(&mut self, passed: bool) -> Option<bool> {
        if passed {
            self.consecutive_fails = 0;
            self.consecutive_passes = self.consecutive_passes.saturating_add(1);
            if self.down && self.consecutive_passes >= self.passes_needed {
                self.down = false;
                return Some(false);
            }
        } else {
            self.consecutive_passes = 0;
            self.consecutive_fails = self.consecutive_fails.saturating_add(1);
            if !self.down && self.consecutive_fails >= self.fails_needed {
                self.down = true;
                return Some(true);
            }
        }
        None
    }
}

/// Starts the active check of one server, whose pool is `pool`. The task holds only `Weak`
/// references to the server's health and pool (and the pool only while it takes a place), so
/// it ends soon after the upstream (and so the gateway) is dropped.
///
/// `resolve`, for a host name's address: a check that cannot connect has the upstream's names
/// resolved again (the container moved), as a request's failed connect does.
pub fn spawn_active_check(
    upstream: &str,
    addr: UpstreamAddr,
    config: HealthCheckConfig,
    health: &Arc<Health>,
    pool: &Arc<Pool>,
    resolve: Option<Weak<super::resolve::ResolveAgain>>,
) {
    tokio::spawn(run_active_check(
        upstream.to_string(),
        addr,
        config,
        (Arc::downgrade(health), Arc::downgrade(pool)),
        resolve,
    ));
}

async fn run_active_check(
    upstream: String,
    addr: UpstreamAddr,
    config: HealthCheckConfig,
    (health, pool): (Weak<Health>, Weak<Pool>),
    resolve: Option<Weak<super::resolve::ResolveAgain>>,
) {
    let mut counter = ActiveCounter::new(config.fails, config.passes);
    loop {
        let checked = check_in_pool(&pool, &addr, &config).await;
        let Some(health) = health.upgrade() else {
            return;
        };
        let outcome = match checked {
            Checked::Done(outcome) => outcome,
            Checked::Skipped => {
                // No place freed within an interval: the next check waits for one at once (the
                // interval went by while this one waited).
                health.checks_skipped.fetch_add(1, Ordering::Relaxed);
                tracing::debug!(%upstream, server = %addr, "health check skipped: every place in the pool stayed taken for its interval");
                continue;
            }
            Checked::Gone => return,
        };
        if let (Err(failure), Some(resolve)) = (&outcome, resolve.as_ref()) {
            if failure.connect {
                if let Some(resolve) = resolve.upgrade() {
                    resolve.soon("a health check could not connect");
                }
            }
        }
        let passed = outcome.is_ok();
        let count = if passed {
            &health.checks_passed
        } else {
            &health.checks_failed
        };
        count.fetch_add(1, Ordering::Relaxed);
        if let Some(down) = counter.record(passed) {
            health.set_active_down(down);
            match (&outcome, down) {
                (Err(reason), true) => {
                    tracing::warn!(%upstream, server = %addr, %reason, "health check failed: server marked down")
                }
                _ => {
                    tracing::info!(%upstream, server = %addr, "health check passed: server marked up")
                }
            }
        }
        drop(health);
        tokio::time::sleep(config.interval).await;
    }
}

/// Why a check failed, and whether it was its connect (refused, unreachable, timed out).
#[derive(Debug)]
pub struct CheckFailure {
    pub connect: bool,
    pub reason: String,
}

impl std::fmt::Display for CheckFailure {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str(&self.reason)
    }
}

/// What came of one round of the active check.
enum Checked {
    /// The check ran: passed, or why not.
    Done(Result<(), CheckFailure>),
    /// No place in the capped pool freed within `interval`.
    Skipped,
    /// The server's pool is gone (the server left the group, the upstream was dropped).
    Gone,
}

/// One check of a server whose pool is `pool`: with a cap, inside a place of it, waited for
/// at most `interval`; without one, at once.
async fn check_in_pool(
    pool: &Weak<Pool>,
    addr: &UpstreamAddr,
    config: &HealthCheckConfig,
) -> Checked {
    let place = {
        let Some(pool) = pool.upgrade() else {
            return Checked::Gone;
        };
        if !pool.is_capped() {
            return Checked::Done(check_once(addr, config).await);
        }
        pool.check_place(config.interval)
    };
    let Some(place) = place.await else {
        // No place within the interval; or the pool went, which ends the wait early.
        return match pool.upgrade() {
            Some(_) => Checked::Skipped,
            None => Checked::Gone,
        };
    };
    let outcome = check_once(addr, config).await;
    // The connection closed inside `check_once`; now the place frees.
    drop(place);
    Checked::Done(outcome)
}

/// One check: a fresh connection, `GET path`, and the response head within `timeout`. Passes on
/// 2xx and 3xx; otherwise says why not.
pub async fn check_once(
    addr: &UpstreamAddr,
    config: &HealthCheckConfig,
) -> Result<(), CheckFailure> {
    let host = match addr {
        UpstreamAddr::Tcp(socket_addr) => HeaderValue::from_str(&socket_addr.to_string()).ok(),
        UpstreamAddr::Unix(_) => None,
    }
    .unwrap_or(HeaderValue::from_static("localhost"));
    // Whether the connect succeeded, read once the exchange has ended (or timed out).
    let mut connected = false;
    let exchange = async {
        let mut conn = connect::connect(addr, config.timeout, config.timeout)
            .await
            .map_err(|error| error.to_string())?;
        connected = true;
        let mut parts = crate::head_view::RequestHead {
            uri: config
                .path
                .parse()
                .map_err(|_| format!("{:?} is not a valid path", config.path))?,
            ..Default::default()
        };
        let headers = &mut parts.headers;
        headers.set(header::HOST, host.as_bytes());
        headers.set(header::USER_AGENT, "weir-health-check");
        headers.set(header::CONNECTION, "close");
        let mut sending = Some(Sending::new(&parts, RequestBody::Full(None)));
        let mut answered = false;
        let head = std::future::poll_fn(|context| {
            if let Some(request) = &mut sending {
                match request.poll_send(&mut conn.io, context) {
                    std::task::Poll::Ready(Ok(())) => sending = None,
                    std::task::Poll::Ready(Err(error)) => {
                        return std::task::Poll::Ready(Err(format!("exchange failed: {error:?}")))
                    }
                    std::task::Poll::Pending => {}
                }
            }
            client::poll_head(&mut conn, context, &Method::GET, &mut answered)
                .map_err(|error| format!("exchange failed: {error}"))
        })
        .await?;
        let response = head.response;
        Ok::<StatusCode, String>(response.status())
    };
    let outcome = match tokio::time::timeout(config.timeout, exchange).await {
        Err(_elapsed) => Err("no response head within the check's timeout".to_string()),
        Ok(Err(reason)) => Err(reason),
        Ok(Ok(status)) if status.is_success() || status.is_redirection() => Ok(()),
        Ok(Ok(status)) => Err(format!("answered {status}")),
    };
    outcome.map_err(|reason| CheckFailure {
        connect: !connected,
        reason,
    })
}
