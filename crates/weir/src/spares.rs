//! Each thread's spares: things a request used (a header map, a head's buffer), kept cleared for
//! the next request of the same thread instead of freed, so that their allocations are made once
//! per thread rather than once per request; and each thread's arenas of bytes, from which the
//! bytes of many requests (a head's values) are cut. Pure: it imports nothing of weir.

use std::cell::RefCell;
use std::thread::LocalKey;

use bytes::{Bytes, BytesMut};

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

/// Earlier buffers an [`Arena`] keeps, to use again once every piece cut from them is gone.
const EARLIER_BUFFERS: usize = 3;

/// A thread's arena of bytes (declared with `thread_local!`, see [`cut`]): the buffer pieces are
/// cut from now, and a few earlier ones.
#[derive(Debug, Default)]
pub struct Arena {
    buffer: BytesMut,
    earlier: Vec<BytesMut>,
}

impl Arena {
    /// Room for `length` more bytes: the buffer's own; else the buffer again, or an earlier one,
    /// from its start if every piece cut from it is gone (no allocation); else a new buffer of
    /// at least `least` bytes. A request's pieces are alive when it cuts its next one, so a
    /// buffer that runs out then is most often held: an earlier one, whose requests are done,
    /// is not.
    fn make_room(&mut self, length: usize, least: usize) {
        if self.buffer.capacity() >= length {
            return;
        }
        let wanted = length.max(least);
        if self.buffer.try_reclaim(wanted) {
            return;
        }
        let free = self
            .earlier
            .iter_mut()
            .position(|earlier| earlier.try_reclaim(wanted));
        let next = match free {
            Some(index) => self.earlier.swap_remove(index),
            None => BytesMut::with_capacity(wanted),
        };
        let spent = std::mem::replace(&mut self.buffer, next);
        // A buffer with no room at all (never used, or used exactly) is let go: the pieces cut
        // from it keep it as long as they need it.
        if spent.capacity() > 0 {
            if self.earlier.len() == EARLIER_BUFFERS {
                self.earlier.remove(0);
            }
            self.earlier.push(spent);
        }
    }
}

/// The `length` bytes `write` puts into this thread's `arena`, cut off as `Bytes` of their own
/// (which a `HeaderValue` or a `Uri` keeps without a copy: slice them). A buffer is used again
/// from its start once every piece cut from it is gone, so a cut costs no allocation in the
/// steady state; a new buffer is of at least `least` bytes. `write` may write more than
/// `length`, at the cost of a larger buffer.
pub fn cut(
    arena: &'static LocalKey<RefCell<Arena>>,
    length: usize,
    least: usize,
    write: impl FnOnce(&mut BytesMut),
) -> Bytes {
    // Taken out while it is written (an empty arena costs nothing), so `write` may cut from
    // the arena too.
    let mut taken = arena
        .try_with(|arena| std::mem::take(&mut *arena.borrow_mut()))
        .unwrap_or_default();
    taken.make_room(length, least);
    write(&mut taken.buffer);
    let piece = taken.buffer.split().freeze();
    let _ = arena.try_with(|arena| *arena.borrow_mut() = taken);
    piece
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

    thread_local! {
        static BYTES: RefCell<Arena> = RefCell::new(Arena::default());
    }

    /// Pieces keep their bytes; a buffer that runs out while a piece of it is alive is left
    /// for a new one, and used again, from its start, once its pieces are gone.
    #[test]
    fn pieces_keep_their_bytes_and_a_buffer_comes_back_once_its_pieces_are_gone() {
        let first = cut(&BYTES, 10, 16, |buffer| {
            buffer.extend_from_slice(b"0123456789")
        });
        // Six bytes left, the first piece alive: a new buffer.
        let second = cut(&BYTES, 10, 16, |buffer| {
            buffer.extend_from_slice(b"abcdefghij")
        });
        assert_eq!(&first[..], b"0123456789");
        assert_eq!(&second[..], b"abcdefghij");
        let first_start = first.as_ptr();
        assert_ne!(second.as_ptr(), first_start.wrapping_add(10));
        drop(first);
        // The second buffer runs out with its piece alive: the first, free now, comes back.
        let third = cut(&BYTES, 10, 16, |buffer| {
            buffer.extend_from_slice(b"ABCDEFGHIJ")
        });
        assert_eq!(
            third.as_ptr(),
            first_start,
            "the free buffer is used from its start"
        );
        assert_eq!(&second[..], b"abcdefghij");
        assert_eq!(&third[..], b"ABCDEFGHIJ");
        // Longer than any buffer: one of its own size.
        let long = cut(&BYTES, 40, 16, |buffer| {
            buffer.extend_from_slice(&[b'x'; 40])
        });
        assert_eq!(&long[..], &[b'x'; 40]);
        assert_eq!(&third[..], b"ABCDEFGHIJ");
    }
}
