//! Each thread's spares: things a request used (a header map, a head's buffer), kept cleared for
//! the next request of the same thread instead of freed, so that their allocations are made once
//! per thread rather than once per request. Pure: it imports nothing of weir.

use std::cell::RefCell;
use std::thread::LocalKey;

/// A thread's spares of one kind (declared with `thread_local!`).
pub type Spares<T> = LocalKey<RefCell<Vec<T>>>;

/// A spare of this thread's, if it has one (none once the thread is ending).
pub fn take<T: 'static>(spares: &'static Spares<T>) -> Option<T> {
    spares
        .try_with(|spares| spares.borrow_mut().pop())
        .ok()
        .flatten()
}

/// Keeps `spare` (already cleared by the caller) for this thread, unless it keeps `most`
/// already, or the thread is ending: then it is simply dropped.
pub fn give_back<T: 'static>(spares: &'static Spares<T>, spare: T, most: usize) {
    let _ = spares.try_with(|spares| {
        let mut spares = spares.borrow_mut();
        if spares.len() < most {
            spares.push(spare);
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    thread_local! {
        static KEPT: RefCell<Vec<u32>> = const { RefCell::new(Vec::new()) };
    }

    #[test]
    fn a_thread_keeps_at_most_its_number_and_hands_them_back_last_first() {
        for value in 0..5 {
            give_back(&KEPT, value, 3);
        }
        assert_eq!(take(&KEPT), Some(2));
        assert_eq!(take(&KEPT), Some(1));
        assert_eq!(take(&KEPT), Some(0));
        assert_eq!(take(&KEPT), None);
    }
}
