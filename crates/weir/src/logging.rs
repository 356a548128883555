//! Log lines that cannot flood: a [`Throttle`] lets at most N lines per second through for each
//! key (an error cause, a limit name) and counts the rest, so that a dead upstream or a flood of
//! rejected requests costs a few lines a second instead of one per request.
//!
//! A throttle is a `static` (`static UPSTREAM_FAILED: Throttle = Throttle::new(5);`), asked
//! before each line: `if let Some(suppressed) = UPSTREAM_FAILED.admit(cause) { warn!(...) }`,
//! where `suppressed` is how many lines of that cause were held back since the last one let
//! through (proxy.rs and proxy/limits.rs use it so).
//!
//! The check is a few relaxed atomics, no lock and no allocation after a key's first use; the
//! count of held-back lines rides on the next line let through for that key.

use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::sync::OnceLock;

use tokio::time::Instant;

/// Keys a throttle tells apart; further keys share one budget. Causes and limit names are few.
const KEYS: usize = 32;

/// At most `per_second` lines per second per key.
#[derive(Debug)]
pub struct Throttle {
    per_second: u32,
    /// Windows are whole seconds since the throttle's first use, on tokio's clock so that
    /// paused-clock tests step through them without sleeping.
    epoch: OnceLock<Instant>,
    slots: [Slot; KEYS],
    /// Budget of the keys that found every slot taken.
    overflow: Slot,
}

#[derive(Debug)]
struct Slot {
    key: OnceLock<Box<str>>,
    /// The one-second window `used` counts in.
    window: AtomicU64,
    used: AtomicU32,
    suppressed: AtomicU64,
}

impl Slot {
    const fn new() -> Slot {
        Slot {
            key: OnceLock::new(),
            window: AtomicU64::new(0),
            used: AtomicU32::new(0),
            suppressed: AtomicU64::new(0),
        }
    }
}

impl Throttle {
    /// A throttle letting `per_second` lines per second through for each key.
    pub const fn new(per_second: u32) -> Throttle {
        Throttle {
            per_second,
            epoch: OnceLock::new(),
            slots: [const { Slot::new() }; KEYS],
            overflow: Slot::new(),
        }
    }

    /// Whether a line for `key` may be written now: `Some(suppressed)` with the number of lines
    /// for `key` held back since the last one let through, or `None` to skip this one.
    pub fn admit(&self, key: &str) -> Option<u64> {
        let slot = self.slot(key);
        let now = Instant::now();
        let epoch = *self.epoch.get_or_init(|| now);
        let window = now.saturating_duration_since(epoch).as_secs();
        let seen = slot.window.load(Ordering::Relaxed);
        // The first caller in a new window resets the budget; a racing caller may count in the
        // old window, which costs at most one line more or less.
        if seen != window
            && slot
                .window
                .compare_exchange(seen, window, Ordering::Relaxed, Ordering::Relaxed)
                .is_ok()
        {
            slot.used.store(0, Ordering::Relaxed);
        }
        if slot.used.fetch_add(1, Ordering::Relaxed) < self.per_second {
            Some(slot.suppressed.swap(0, Ordering::Relaxed))
        } else {
            // Keep `used` from wrapping during a long flood within one window.
            slot.used.store(self.per_second, Ordering::Relaxed);
            slot.suppressed.fetch_add(1, Ordering::Relaxed);
            None
        }
    }

    fn slot(&self, key: &str) -> &Slot {
        for slot in &self.slots {
            // Slots fill in order, each set once: the first unset one is free to claim.
            let claimed = slot.key.get_or_init(|| key.into());
            if &**claimed == key {
                return slot;
            }
        }
        &self.overflow
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[tokio::test(start_paused = true)]
    async fn lets_n_per_second_per_key_through_then_reports_the_rest() {
        let throttle = Throttle::new(3);
        let admitted: Vec<_> = (0..10).map(|_| throttle.admit("connect")).collect();
        assert_eq!(
            admitted,
            [
                Some(0),
                Some(0),
                Some(0),
                None,
                None,
                None,
                None,
                None,
                None,
                None
            ]
        );
        // Another key has its own budget.
        assert_eq!(throttle.admit("read_timeout"), Some(0));
        tokio::time::advance(Duration::from_secs(1)).await;
        assert_eq!(throttle.admit("connect"), Some(7));
        assert_eq!(throttle.admit("connect"), Some(0));
        assert_eq!(throttle.admit("read_timeout"), Some(0));
    }

    #[tokio::test(start_paused = true)]
    async fn keys_past_the_table_share_one_budget() {
        let throttle = Throttle::new(1);
        for index in 0..KEYS {
            assert!(throttle.admit(&format!("k{index}")).is_some());
        }
        // Both land in the overflow slot, which has one line a second.
        assert_eq!(throttle.admit("extra-1"), Some(0));
        assert_eq!(throttle.admit("extra-2"), None);
    }
}
