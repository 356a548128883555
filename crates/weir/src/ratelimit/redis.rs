//! The Redis backend of one limit: the connection (a reconnecting, multiplexed
//! `ConnectionManager`, opened lazily on first use), the GCRA script (`redis.lua`, run with
//! EVALSHA), a per-call timeout, a short back-off after a failure during which `on_redis_error`
//! applies without a round trip, and two local tables: the "blocked until" cache of keys Redis
//! rejected (so a flood on one key costs no round trip until it could pass again) and, for
//! `on_redis_error = "local"`, the in-memory fallback limiter.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;
use std::time::Duration;

use redis::aio::{ConnectionManager, ConnectionManagerConfig};

use super::gcra::Gcra;
use super::memory::Table;
use crate::config::{OnRedisError, RedisLimitConfig};

/// After a failed call, Redis is not asked again for this long: requests in between get
/// `on_redis_error` at once instead of each waiting out the timeout against a server that is down.
pub(crate) const RETRY_AFTER_FAILURE: Duration = Duration::from_millis(500);

/// Prefix of every key weir writes, so weir's keys are recognisable in a shared Redis.
const KEY_PREFIX: &[u8] = b"weir:limit:";

/// One limit's Redis state.
pub(crate) struct RedisBackend {
    /// The limit's name, for logs.
    name: String,
    client: redis::Client,
    connection: OnceLock<ConnectionManager>,
    script: redis::Script,
    /// `weir:limit:NAME:`; the request's key bytes follow.
    prefix: Vec<u8>,
    timeout: Duration,
    pub(crate) on_error: OnRedisError,
    /// T in microseconds, as the script takes it.
    period_micros: f64,
    capacity: u64,
    /// Local TATs (ns since the limiter's epoch) of keys Redis rejected.
    pub(crate) blocked: Table,
    /// The in-memory limiter used while Redis fails, for `on_redis_error = "local"`.
    pub(crate) fallback: Option<Table>,
    /// Until when (ns since the limiter's epoch) Redis is treated as down; 0 when up.
    down_until: AtomicU64,
    pub(crate) calls: AtomicU64,
    pub(crate) errors: AtomicU64,
}

/// Redis's answer to a charge: whether it passed, and how far the key's TAT was ahead of now
/// before the call, in nanoseconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Answer {
    pub(crate) allowed: bool,
    pub(crate) ahead: u64,
}

/// Why a call gave no answer.
#[derive(Debug, thiserror::Error)]
pub(crate) enum CallError {
    #[error("no answer within {0:?}")]
    Timeout(Duration),
    #[error(transparent)]
    Redis(#[from] redis::RedisError),
    #[error("unexpected reply to the rate-limit script: {0:?}")]
    Reply(String),
}

impl RedisBackend {
    /// Parses the URL now (so a bad one is a config error); connects on first use.
    pub(crate) fn new(
        name: &str,
        config: &RedisLimitConfig,
        gcra: &Gcra,
        max_keys: usize,
    ) -> Result<RedisBackend, redis::RedisError> {
        let client = redis::Client::open(config.url.as_str())?;
        let mut prefix = KEY_PREFIX.to_vec();
        prefix.extend_from_slice(name.as_bytes());
        prefix.push(b':');
        Ok(RedisBackend {
            name: name.to_string(),
            client,
            connection: OnceLock::new(),
            script: redis::Script::new(include_str!("redis.lua")),
            prefix,
            timeout: config.timeout,
            on_error: config.on_error,
            period_micros: gcra.period() as f64 / 1000.0,
            capacity: gcra.capacity(),
            blocked: Table::new(max_keys),
            fallback: (config.on_error == OnRedisError::Local).then(|| Table::new(max_keys)),
            down_until: AtomicU64::new(0),
            calls: AtomicU64::new(0),
            errors: AtomicU64::new(0),
        })
    }

    /// Whether a recent failure says not to ask Redis at `now` (ns since the limiter's epoch).
    pub(crate) fn is_down(&self, now: u64) -> bool {
        now < self.down_until.load(Ordering::Relaxed)
    }

    /// Marks Redis down from `now`; true when it was up, so the failure is logged once per
    /// outage rather than once per request.
    fn mark_down(&self, now: u64) -> bool {
        let until = now.saturating_add(RETRY_AFTER_FAILURE.as_nanos() as u64);
        self.down_until.swap(until, Ordering::Relaxed) <= now
    }

    /// Runs the script for `key` with `cost` (1 charge, -1 refund), bounded by the timeout. A
    /// failure marks Redis down for [`RETRY_AFTER_FAILURE`] from `now`.
    pub(crate) async fn call(&self, key: &[u8], cost: i64, now: u64) -> Result<Answer, CallError> {
        self.calls.fetch_add(1, Ordering::Relaxed);
        let result = match tokio::time::timeout(self.timeout, self.invoke(key, cost)).await {
            Ok(result) => result,
            Err(_elapsed) => Err(CallError::Timeout(self.timeout)),
        };
        if let Err(error) = &result {
            self.errors.fetch_add(1, Ordering::Relaxed);
            if self.mark_down(now) {
                tracing::warn!(
                    limit = %self.name,
                    %error,
                    on_redis_error = ?self.on_error,
                    "redis rate-limit backend failed; applying on_redis_error for {RETRY_AFTER_FAILURE:?} before retrying"
                );
            }
        }
        result
    }

    async fn invoke(&self, key: &[u8], cost: i64) -> Result<Answer, CallError> {
        let mut connection = self.connection()?;
        let mut redis_key = Vec::with_capacity(self.prefix.len() + key.len());
        redis_key.extend_from_slice(&self.prefix);
        redis_key.extend_from_slice(key);
        let (allowed, ahead): (i64, String) = self
            .script
            .key(redis_key)
            .arg(self.period_micros)
            .arg(self.capacity)
            .arg(cost)
            .invoke_async(&mut connection)
            .await?;
        let ahead_micros: f64 = ahead.parse().map_err(|_| CallError::Reply(ahead.clone()))?;
        if !ahead_micros.is_finite() || ahead_micros < 0.0 {
            return Err(CallError::Reply(ahead));
        }
        Ok(Answer {
            allowed: allowed == 1,
            // Saturating float-to-int conversion: a TAT centuries ahead reads as u64::MAX.
            ahead: (ahead_micros * 1000.0).round() as u64,
        })
    }

    /// The shared connection, created on first use. Creation only parses settings and spawns the
    /// manager's task (it connects lazily), so it needs the Tokio runtime this is called from.
    fn connection(&self) -> Result<ConnectionManager, redis::RedisError> {
        if let Some(connection) = self.connection.get() {
            return Ok(connection.clone());
        }
        let config = ConnectionManagerConfig::new()
            .set_connection_timeout(Some(self.timeout))
            .set_response_timeout(Some(self.timeout))
            // Reconnection is retried on the next command anyway; a short schedule keeps a dead
            // server from holding requests in the manager's queue.
            .set_number_of_retries(1)
            .set_min_delay(Duration::from_millis(10))
            .set_max_delay(RETRY_AFTER_FAILURE);
        let connection = ConnectionManager::new_lazy_with_config(self.client.clone(), config)?;
        // Two first calls may race to create a manager; the loser's is dropped unused.
        Ok(self.connection.get_or_init(|| connection).clone())
    }
}
