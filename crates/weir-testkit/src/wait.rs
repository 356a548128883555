//! Waiting for a state: poll something observable (a gateway's pool stats or metrics, an
//! upstream's counters, a file) until a condition holds, and fail, naming what was awaited, when a
//! deadline passes. Tests wait this way, never with a fixed sleep: a sleep long enough on a loaded
//! machine is wasted time on an idle one, and still a race on a machine loaded a little more.
//!
//! The deadline only bounds a wait that would otherwise hang; it is not what a test asserts, so it
//! is generous (seconds). The async forms sleep on tokio's clock, so under a paused clock a wait
//! costs no real time.

use std::fmt::{Debug, Display};
use std::future::Future;
use std::time::Duration;

/// How often a condition is polled: short next to any deadline, long enough not to busy-loop.
pub const POLL_INTERVAL: Duration = Duration::from_millis(5);

/// Polls `condition` every [`POLL_INTERVAL`] until it returns `true`; panics with
/// "waited {within} for {what}" once `within` has passed without it. `what` names the state, as
/// a sentence fragment: `"the slow request to reach the upstream"`.
pub async fn wait_until(what: impl Display, within: Duration, mut condition: impl FnMut() -> bool) {
    let deadline = tokio::time::Instant::now() + within;
    while !condition() {
        assert!(
            tokio::time::Instant::now() < deadline,
            "waited {within:?} for {what}"
        );
        tokio::time::sleep(POLL_INTERVAL).await;
    }
}

/// Reads a state with `probe` every [`POLL_INTERVAL`] until `done` holds for it, and returns that
/// state; panics with the last state read once `within` has passed. For a wait whose failure is
/// best explained by what was seen (server states, a file's lines, a metrics text).
pub async fn wait_for<T: Debug>(
    what: impl Display,
    within: Duration,
    mut probe: impl FnMut() -> T,
    mut done: impl FnMut(&T) -> bool,
) -> T {
    let deadline = tokio::time::Instant::now() + within;
    loop {
        let state = probe();
        if done(&state) {
            return state;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "waited {within:?} for {what}; last seen: {state:?}"
        );
        tokio::time::sleep(POLL_INTERVAL).await;
    }
}

/// [`wait_until`] for a condition that must await to be read (a request to the admin endpoint, a
/// connection attempt).
pub async fn wait_until_async<F, Fut>(what: impl Display, within: Duration, mut condition: F)
where
    F: FnMut() -> Fut,
    Fut: Future<Output = bool>,
{
    let deadline = tokio::time::Instant::now() + within;
    while !condition().await {
        assert!(
            tokio::time::Instant::now() < deadline,
            "waited {within:?} for {what}"
        );
        tokio::time::sleep(POLL_INTERVAL).await;
    }
}

/// [`wait_until`] for code outside a runtime (tests of the `weir` binary, process spawners): it
/// sleeps the thread between polls.
pub fn wait_until_blocking(
    what: impl Display,
    within: Duration,
    mut condition: impl FnMut() -> bool,
) {
    let deadline = std::time::Instant::now() + within;
    while !condition() {
        assert!(
            std::time::Instant::now() < deadline,
            "waited {within:?} for {what}"
        );
        std::thread::sleep(POLL_INTERVAL);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(start_paused = true)]
    async fn returns_once_the_condition_holds() {
        let mut polls = 0;
        wait_until("three polls", Duration::from_secs(1), || {
            polls += 1;
            polls == 3
        })
        .await;
        assert_eq!(polls, 3);
    }

    #[tokio::test(start_paused = true)]
    #[should_panic(expected = "waited 1s for the impossible")]
    async fn panics_naming_the_state_after_the_deadline() {
        wait_until("the impossible", Duration::from_secs(1), || false).await;
    }

    #[tokio::test(start_paused = true)]
    async fn the_async_form_awaits_its_condition() {
        let mut polls = 0;
        wait_until_async("two polls", Duration::from_secs(1), || {
            polls += 1;
            let done = polls == 2;
            async move { done }
        })
        .await;
        assert_eq!(polls, 2);
    }

    #[tokio::test(start_paused = true)]
    #[should_panic(expected = "waited 1s for seven; last seen: 3")]
    async fn wait_for_shows_the_last_state_seen() {
        wait_for("seven", Duration::from_secs(1), || 3, |seen| *seen == 7).await;
    }

    #[tokio::test(start_paused = true)]
    async fn wait_for_returns_the_state_that_held() {
        let mut counter = 0;
        let seen = wait_for(
            "a count of four",
            Duration::from_secs(1),
            || {
                counter += 1;
                counter
            },
            |seen| *seen >= 4,
        )
        .await;
        assert_eq!(seen, 4);
    }

    #[test]
    #[should_panic(expected = "waited 20ms for the impossible")]
    fn the_blocking_form_panics_after_the_deadline() {
        wait_until_blocking("the impossible", Duration::from_millis(20), || false);
    }
}
