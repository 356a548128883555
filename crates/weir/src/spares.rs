//! Each thread's spares: things a request used (a head's buffer, a box), kept cleared for
//! the next request of the same thread instead of freed, so that their allocations are made once
//! per thread rather than once per request; each thread's arenas of bytes, from which the bytes
//! of many requests (a head's values) are cut; and [`SpareBox`], a boxed future (or value) whose
//! memory is kept for the next one. Pure: it imports nothing of weir.

use std::alloc::Layout;
use std::cell::RefCell;
use std::future::Future;
use std::marker::PhantomData;
use std::ops::{Deref, DerefMut};
use std::pin::Pin;
use std::ptr::NonNull;
use std::task::{Context, Poll};
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

/// A head's buffer (a response head the HTTP/1 writer encodes, the request head the upstream
/// client sends), taken from the thread's spares and given back when dropped, so a head costs
/// no allocation once a thread has written a few (issue 18: none per request). Buffers that grew
/// past [`HeadBuffer::KEPT_CAPACITY`] are freed instead, and a thread keeps at most
/// [`HeadBuffer::KEPT`]: a few KiB per thread, whatever the load.
pub struct HeadBuffer(Vec<u8>);

impl HeadBuffer {
    const KEPT: usize = 64;
    const KEPT_CAPACITY: usize = 16 * 1024;

    /// An empty buffer: a spare of this thread's when there is one.
    pub fn take() -> HeadBuffer {
        HeadBuffer(take(&SPARE_HEAD_BUFFERS).unwrap_or_default())
    }

    pub fn as_mut_vec(&mut self) -> &mut Vec<u8> {
        &mut self.0
    }
}

impl std::ops::Deref for HeadBuffer {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        &self.0
    }
}

impl Drop for HeadBuffer {
    fn drop(&mut self) {
        if self.0.capacity() == 0 || self.0.capacity() > HeadBuffer::KEPT_CAPACITY {
            return;
        }
        let mut buffer = std::mem::take(&mut self.0);
        buffer.clear();
        give_back(&SPARE_HEAD_BUFFERS, buffer, HeadBuffer::KEPT);
    }
}

thread_local! {
    static SPARE_HEAD_BUFFERS: RefCell<Vec<Vec<u8>>> = const { RefCell::new(Vec::new()) };
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

/// Blocks of memory a thread keeps at most for [`SpareBox`]es: a proxied request holds three (its
/// request phase, its upstream exchange, and the upstream's response body), so a thread with 10
/// requests in flight gets all its blocks back. With 8, `ab -k -c10` on two threads made 0.23
/// allocations per request (callgrind: `mi_malloc_aligned` called from `SpareBox`'s
/// constructor) once the exchange had its box.
const SPARE_BLOCKS: usize = 32;

/// A thread's blocks of memory that held a [`SpareBox`]'s future, each with its layout; freed
/// when the thread ends.
struct Blocks(Vec<(NonNull<u8>, Layout)>);

impl Drop for Blocks {
    fn drop(&mut self) {
        for (block, layout) in self.0.drain(..) {
            // SAFETY: every block was allocated by the global allocator with this layout (see
            // `SpareBox::with`), and is owned by nothing else once here.
            #[allow(unsafe_code)] // reason: memory from the global allocator is freed by hand
            unsafe {
                std::alloc::dealloc(block.as_ptr(), layout);
            }
        }
    }
}

thread_local! {
    static BLOCKS: RefCell<Blocks> = const { RefCell::new(Blocks(Vec::new())) };
}

/// A future in a box of its own, as `Box::pin` puts it, whose memory goes to this thread's
/// spares when it is dropped, for the next `SpareBox` of the same layout made on this thread:
/// the request phase is boxed once per request (so an idle connection's task stays small), and
/// so is a proxied request's upstream exchange (so a request phase that never goes upstream
/// does not carry it); this way each box costs an allocation per thread, not per request. A value
/// that is no future may be boxed so too (the upstream's response body, `upstream.rs`), and is
/// then reached by `Deref` (an `Unpin` one only: a future's box keeps it pinned).
pub struct SpareBox<F> {
    future: NonNull<F>,
    /// The box owns an `F` (for the drop check).
    owns: PhantomData<F>,
}

// SAFETY: a `SpareBox` owns its future as a `Box` does; sending it sends the future.
#[allow(unsafe_code)] // reason: a raw pointer is not `Send` by itself
unsafe impl<F: Send> Send for SpareBox<F> {}

/// The box may move: its future stays where it was written.
impl<F> Unpin for SpareBox<F> {}

impl<F> SpareBox<F> {
    /// The future `make` makes, in a block of this thread's spares of its layout, else in a new
    /// one. Made once its block is had, it is written into the block as it is made, not made
    /// elsewhere and copied in whole (a future's copy is its full size, however little its
    /// first state holds: callgrind counted 244 instructions of `memcpy` per request for the
    /// request phase's, when the future was an argument). Should `make` panic, the block is
    /// leaked.
    #[inline]
    pub fn with(make: impl FnOnce() -> F) -> SpareBox<F> {
        let layout = Layout::new::<F>();
        let block = if layout.size() == 0 {
            NonNull::<F>::dangling().cast::<u8>()
        } else {
            let spare = BLOCKS
                .try_with(|blocks| {
                    let mut blocks = blocks.borrow_mut();
                    // The last one kept is the likeliest of this layout: looked for first.
                    let index = blocks.0.iter().rposition(|(_, kept)| *kept == layout)?;
                    Some(blocks.0.swap_remove(index).0)
                })
                .ok()
                .flatten();
            spare.unwrap_or_else(|| {
                // SAFETY: the layout's size is not zero (checked above).
                #[allow(unsafe_code)] // reason: a block of a given layout comes from `alloc`
                let block = unsafe { std::alloc::alloc(layout) };
                NonNull::new(block).unwrap_or_else(|| std::alloc::handle_alloc_error(layout))
            })
        };
        let future_pointer = block.cast::<F>();
        // SAFETY: the block is valid for writes of an `F` (its layout's), and holds no value.
        #[allow(unsafe_code)] // reason: the future is moved into memory managed by hand
        unsafe {
            future_pointer.as_ptr().write(make());
        }
        SpareBox {
            future: future_pointer,
            owns: PhantomData,
        }
    }
}

impl<F: Future> Future for SpareBox<F> {
    type Output = F::Output;

    fn poll(self: Pin<&mut Self>, context: &mut Context<'_>) -> Poll<F::Output> {
        // SAFETY: the future stays where `SpareBox::with` wrote it until the box is dropped (the
        // box moves, its future does not), so it is pinned; the box owns it, and `&mut self`
        // makes this access the only one.
        #[allow(unsafe_code)] // reason: pinning a future that lives in memory managed by hand
        let future = unsafe { Pin::new_unchecked(&mut *self.future.as_ptr()) };
        future.poll(context)
    }
}

impl<F: Unpin> Deref for SpareBox<F> {
    type Target = F;

    fn deref(&self) -> &F {
        // SAFETY: the box holds a live `F` until it is dropped, and `&self` borrows the box.
        #[allow(unsafe_code)] // reason: the value lives in memory managed by hand
        unsafe {
            self.future.as_ref()
        }
    }
}

/// Only for an `Unpin` value: a future in the box is pinned there (see `poll`).
impl<F: Unpin> DerefMut for SpareBox<F> {
    fn deref_mut(&mut self) -> &mut F {
        // SAFETY: the box holds a live `F` until it is dropped, and `&mut self` makes this
        // access the only one.
        #[allow(unsafe_code)] // reason: the value lives in memory managed by hand
        unsafe {
            self.future.as_mut()
        }
    }
}

impl<F> Drop for SpareBox<F> {
    fn drop(&mut self) {
        // SAFETY: the box holds a live `F`, dropped here once; nothing uses it after.
        #[allow(unsafe_code)] // reason: the future in memory managed by hand is dropped in place
        unsafe {
            std::ptr::drop_in_place(self.future.as_ptr());
        }
        let layout = Layout::new::<F>();
        if layout.size() == 0 {
            return;
        }
        let block = self.future.cast::<u8>();
        let kept = BLOCKS
            .try_with(|blocks| {
                let mut blocks = blocks.borrow_mut();
                if blocks.0.len() < SPARE_BLOCKS {
                    blocks.0.push((block, layout));
                    true
                } else {
                    false
                }
            })
            .unwrap_or(false);
        if !kept {
            // SAFETY: the block came from the global allocator with this layout, and holds no
            // value any more.
            #[allow(unsafe_code)] // reason: memory from the global allocator is freed by hand
            unsafe {
                std::alloc::dealloc(block.as_ptr(), layout);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;
    use std::rc::Rc;

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

    /// Counts its drops.
    struct Counted(Rc<Cell<usize>>);

    impl Drop for Counted {
        fn drop(&mut self) {
            self.0.set(self.0.get() + 1);
        }
    }

    /// A `SpareBox`'s future runs to its end and is dropped once; the next box of the same
    /// layout on this thread takes the same memory, one of another layout does not.
    #[test]
    fn a_spare_box_runs_its_future_drops_it_once_and_lends_its_memory_to_the_next() {
        let drops = Rc::new(Cell::new(0));
        let make = |counted: Counted, value: u64| async move {
            let _counted = counted;
            std::future::ready(value).await + 1
        };
        let mut first = SpareBox::with(|| make(Counted(Rc::clone(&drops)), 1));
        let first_memory = first.future.as_ptr().cast::<u8>();
        let mut context = Context::from_waker(std::task::Waker::noop());
        assert_eq!(Pin::new(&mut first).poll(&mut context), Poll::Ready(2));
        assert_eq!(drops.get(), 1, "the finished future let go of what it held");
        drop(first);
        assert_eq!(drops.get(), 1, "dropped once");
        // Unfinished, then dropped: what it holds is dropped with it.
        let second = SpareBox::with(|| make(Counted(Rc::clone(&drops)), 2));
        assert_eq!(
            second.future.as_ptr().cast::<u8>(),
            first_memory,
            "the block again"
        );
        let other = SpareBox::with(|| async { [1u8; 300].len() });
        assert_ne!(other.future.as_ptr().cast::<u8>(), first_memory);
        drop(second);
        assert_eq!(drops.get(), 2);
        drop(other);
    }
}
