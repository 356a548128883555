//! Idle keep-alive connections, parked: a connection that has waited [`Settings::park_after`]
//! for its next request gives up its task and its place in tokio's reactor, and waits here as a
//! line in a table (its socket and the few fields needed to serve it again), watched by an epoll
//! set of the park's own, until its socket turns readable (a request, or the client closing) or
//! its deadline passes. nginx keeps an idle keep-alive connection the same way: its connection
//! structure and nothing else. Parking and waking cost four `epoll_ctl` calls, paid only by a
//! connection that was quiet for `park_after`; a busy connection never parks.
//!
//! What a parked connection costs in memory is its line in [`ParkSet`]'s table and in its
//! deadline heap: no task, no timer, no waker, no reactor registration, nothing allocated of its
//! own, so nothing for the allocator to scatter.
//!
//! One [`ParkSet`] per accept context (one per runtime with a runtime per core), with one task
//! ([`ParkSet::run`]) that resumes the entries whose socket woke, closes those whose deadline
//! passed, and closes all of them when the gateway stops.
//!
//! [`Settings::park_after`]: super::Settings::park_after

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::io;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use mio::{Events, Interest, Poll, Registry, Token};
use tokio::io::unix::AsyncFd;
use tokio::sync::Notify;
use tokio::time::Instant;

/// What can be parked: something with a socket.
pub trait Parkable: Send + 'static {
    fn socket(&mut self) -> &mut mio::net::TcpStream;
}

/// The parked connections of one accept context.
pub struct ParkSet<T> {
    state: Mutex<State<T>>,
    /// Where parked sockets are registered; the poll itself is taken by [`ParkSet::run`].
    registry: Registry,
    poll: Mutex<Option<Poll>>,
    /// Told when the earliest deadline moved.
    deadline_moved: Notify,
    /// Entries parked now, for `/metrics` (shared by the sets of sibling runtimes).
    parked: Arc<AtomicUsize>,
}

struct State<T> {
    /// The table, in chunks of [`CHUNK`] slots allocated whole: it grows without copying and
    /// with at most one chunk unused (a doubling `Vec` leaves up to half of itself).
    slots: Vec<Box<[Slot<T>]>>,
    /// Indexes of empty slots.
    free: Vec<u32>,
    /// `(deadline, slot, generation)`, earliest first. An entry resumed before its deadline
    /// leaves its line here; lines whose slot has moved on are skipped, and dropped in bulk once
    /// they outnumber the live ones.
    deadlines: BinaryHeap<Reverse<(Instant, u32, u32)>>,
    /// Entries in `slots` now.
    live: usize,
    /// The gateway stops: nothing more is parked.
    closed: bool,
}

struct Slot<T> {
    /// Bumped each time the slot is emptied, so the deadline line of an earlier entry finds
    /// nothing.
    generation: u32,
    entry: Option<T>,
}

/// Slots per chunk of the table.
const CHUNK: usize = 512;

impl<T> State<T> {
    fn slot(&self, slot: u32) -> Option<&Slot<T>> {
        let slot = slot as usize;
        self.slots
            .get(slot / CHUNK)
            .map(|chunk| &chunk[slot % CHUNK])
    }

    fn slot_mut(&mut self, slot: u32) -> Option<&mut Slot<T>> {
        let slot = slot as usize;
        self.slots
            .get_mut(slot / CHUNK)
            .map(|chunk| &mut chunk[slot % CHUNK])
    }
}

/// Events taken from the park's epoll set per look.
const EVENTS: usize = 256;

/// `poll`'s epoll set, watched by tokio's reactor: readable when a parked socket is.
#[allow(unsafe_code)] // reason: tokio registers a descriptor only through this unsafe call
fn watch(poll: Poll) -> io::Result<AsyncFd<Poll>> {
    // SAFETY: `Poll` owns its epoll descriptor and neither closes nor replaces it while the
    // `AsyncFd` owns the `Poll`; the `AsyncFd` deregisters it before dropping the `Poll`.
    unsafe { AsyncFd::register_with_interest(poll, tokio::io::Interest::READABLE) }
        .map_err(|refused| refused.into_parts().1)
}

fn lock<U>(mutex: &Mutex<U>) -> MutexGuard<'_, U> {
    // Nothing here panics while locked; if something did, the state is still consistent enough
    // to close connections with.
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl<T: Parkable> ParkSet<T> {
    /// An empty set with an epoll set of its own; `parked` counts its entries (and those of sets
    /// it is shared with).
    pub fn new(parked: Arc<AtomicUsize>) -> io::Result<ParkSet<T>> {
        let poll = Poll::new()?;
        let registry = poll.registry().try_clone()?;
        Ok(ParkSet {
            state: Mutex::new(State {
                slots: Vec::new(),
                free: Vec::new(),
                deadlines: BinaryHeap::new(),
                live: 0,
                closed: false,
            }),
            registry,
            poll: Mutex::new(Some(poll)),
            deadline_moved: Notify::new(),
            parked,
        })
    }

    /// Parks `entry` until its socket is readable (then it is handed to [`ParkSet::run`]'s
    /// `resume`) or `deadline` passes (then it is dropped, which closes it). Once the set is
    /// closed, the entry is dropped. Gives the entry back if its socket cannot be watched.
    pub fn park(&self, mut entry: T, deadline: Instant) -> Result<(), T> {
        let mut state = lock(&self.state);
        if state.closed {
            return Ok(());
        }
        if state.free.is_empty() {
            let first = state.slots.len() * CHUNK;
            let Ok(last) = u32::try_from(first + CHUNK - 1) else {
                // Four billion parked connections: keep this one in its task.
                return Err(entry);
            };
            let chunk = (0..CHUNK)
                .map(|_| Slot {
                    generation: 0,
                    entry: None,
                })
                .collect();
            state.slots.push(chunk);
            // Lowest first out.
            state.free.extend((first as u32..=last).rev());
        }
        let Some(slot) = state.free.pop() else {
            return Err(entry);
        };
        // The state stays locked until the entry is in its slot, so an event that comes at once
        // finds it there. A socket readable already is reported at once.
        if let Err(error) =
            self.registry
                .register(entry.socket(), Token(slot as usize), Interest::READABLE)
        {
            tracing::debug!(%error, "cannot park an idle connection");
            state.free.push(slot);
            return Err(entry);
        }
        let Some(cell) = state.slot_mut(slot) else {
            return Err(entry);
        };
        cell.entry = Some(entry);
        let generation = cell.generation;
        state.live += 1;
        self.parked.fetch_add(1, Ordering::Relaxed);
        let earliest = state
            .deadlines
            .peek()
            .is_none_or(|Reverse((first, _, _))| deadline < *first);
        state.deadlines.push(Reverse((deadline, slot, generation)));
        if state.deadlines.len() > 64 && state.deadlines.len() > 2 * state.live {
            let mut deadlines = std::mem::take(&mut state.deadlines);
            deadlines.retain(|Reverse((_, slot, generation))| {
                state
                    .slot(*slot)
                    .is_some_and(|slot| slot.generation == *generation && slot.entry.is_some())
            });
            state.deadlines = deadlines;
        }
        drop(state);
        if earliest {
            // The set's task sleeps until the earliest deadline it knew: it must look again.
            self.deadline_moved.notify_one();
        }
        Ok(())
    }

    /// Empties `slot`, if it holds an entry (of `generation`, when given), and takes its socket
    /// out of the epoll set.
    fn take(&self, state: &mut State<T>, slot: u32, generation: Option<u32>) -> Option<T> {
        let cell = state.slot_mut(slot)?;
        if generation.is_some_and(|generation| generation != cell.generation) {
            return None;
        }
        let mut entry = cell.entry.take()?;
        cell.generation = cell.generation.wrapping_add(1);
        state.free.push(slot);
        state.live -= 1;
        self.parked.fetch_sub(1, Ordering::Relaxed);
        // Failing means it is not registered any more: nothing to undo.
        let _ = self.registry.deregister(entry.socket());
        Some(entry)
    }

    /// Entries parked in this set now (the gateway counts them in `parked`, over its siblings).
    #[cfg(test)]
    fn len(&self) -> usize {
        lock(&self.state).live
    }

    #[cfg(test)]
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The set's task: hands every entry whose socket woke to `resume`, drops those past their
    /// deadline, and when `stop` turns true (or its sender goes), drops them all and returns.
    /// Must run inside a tokio runtime, once.
    pub async fn run(&self, mut stop: tokio::sync::watch::Receiver<bool>, resume: impl Fn(T)) {
        let Some(poll) = lock(&self.poll).take() else {
            return;
        };
        match watch(poll) {
            Ok(poll) => self.serve(poll, &mut stop, resume).await,
            Err(error) => {
                tracing::warn!(%error, "idle connections cannot be parked");
                lock(&self.state).closed = true;
                // Entries parked meanwhile are closed below; later ones are refused.
                let _ = stop.changed().await;
            }
        }
        let all: Vec<T> = {
            let mut state = lock(&self.state);
            state.closed = true;
            state.deadlines.clear();
            state.free.clear();
            state.live = 0;
            std::mem::take(&mut state.slots)
                .into_iter()
                .flat_map(|chunk| chunk.into_vec())
                .filter_map(|slot| slot.entry)
                .collect()
        };
        self.parked.fetch_sub(all.len(), Ordering::Relaxed);
        drop(all);
    }

    async fn serve(
        &self,
        mut poll: AsyncFd<Poll>,
        stop: &mut tokio::sync::watch::Receiver<bool>,
        resume: impl Fn(T),
    ) {
        let far = || Instant::now() + std::time::Duration::from_secs(86_400);
        let sleep = tokio::time::sleep_until(far());
        let mut sleep = std::pin::pin!(sleep);
        let mut events = Events::with_capacity(EVENTS);
        loop {
            if *stop.borrow() {
                return;
            }
            let now = Instant::now();
            let mut expired = Vec::new();
            let next = {
                let mut state = lock(&self.state);
                while let Some(&Reverse((deadline, slot, generation))) = state.deadlines.peek() {
                    if deadline > now {
                        break;
                    }
                    state.deadlines.pop();
                    expired.extend(self.take(&mut state, slot, Some(generation)));
                }
                state
                    .deadlines
                    .peek()
                    .map(|Reverse((deadline, _, _))| *deadline)
            };
            // Closed outside the lock.
            drop(expired);
            sleep.as_mut().reset(next.unwrap_or_else(far));
            tokio::select! {
                ready = poll.readable_mut() => {
                    let Ok(mut ready) = ready else { return };
                    loop {
                        events.clear();
                        if let Err(error) = ready.get_inner_mut().poll(&mut events, Some(std::time::Duration::ZERO)) {
                            if error.kind() != io::ErrorKind::Interrupted {
                                tracing::warn!(%error, "polling parked connections failed");
                            }
                            break;
                        }
                        if events.is_empty() {
                            ready.clear_ready();
                            break;
                        }
                        for event in &events {
                            let Ok(slot) = u32::try_from(event.token().0) else { continue };
                            let entry = self.take(&mut lock(&self.state), slot, None);
                            if let Some(entry) = entry {
                                resume(entry);
                            }
                        }
                    }
                }
                () = self.deadline_moved.notified() => {}
                () = sleep.as_mut() => {}
                changed = stop.changed() => {
                    if changed.is_err() {
                        return;
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    use tokio::net::{TcpListener, TcpStream};

    struct Entry(mio::net::TcpStream);

    impl Parkable for Entry {
        fn socket(&mut self) -> &mut mio::net::TcpStream {
            &mut self.0
        }
    }

    fn entry(stream: TcpStream) -> Entry {
        Entry(mio::net::TcpStream::from_std(
            stream.into_std().expect("out of tokio"),
        ))
    }

    fn unpark(entry: Entry) -> TcpStream {
        let std = std::net::TcpStream::from(std::os::fd::OwnedFd::from(entry.0));
        TcpStream::from_std(std).expect("into tokio")
    }

    /// A connected pair: (our side, the client's side).
    async fn pair() -> (TcpStream, TcpStream) {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let client = TcpStream::connect(listener.local_addr().expect("addr"))
            .await
            .expect("connect");
        let (ours, _) = listener.accept().await.expect("accept");
        (ours, client)
    }

    async fn until(what: &str, mut done: impl FnMut() -> bool) {
        let deadline = std::time::Instant::now() + Duration::from_secs(10);
        while !done() {
            assert!(std::time::Instant::now() < deadline, "timed out: {what}");
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    }

    type Running = (
        Arc<ParkSet<Entry>>,
        Arc<AtomicUsize>,
        tokio::sync::watch::Sender<bool>,
        tokio::sync::mpsc::UnboundedReceiver<Entry>,
        tokio::task::JoinHandle<()>,
    );

    /// A set with its task running; resumed entries come out of the channel.
    fn running() -> Running {
        let parked = Arc::new(AtomicUsize::new(0));
        let set = Arc::new(ParkSet::<Entry>::new(Arc::clone(&parked)).expect("epoll"));
        let (stop_sender, stop) = tokio::sync::watch::channel(false);
        let (resumed_sender, resumed) = tokio::sync::mpsc::unbounded_channel();
        let task = tokio::spawn({
            let set = Arc::clone(&set);
            async move {
                set.run(stop, |entry| {
                    let _ = resumed_sender.send(entry);
                })
                .await;
            }
        });
        (set, parked, stop_sender, resumed, task)
    }

    #[tokio::test]
    async fn a_parked_socket_comes_back_when_its_client_writes_and_closes_at_its_deadline() {
        let (set, parked, stop_sender, mut resumed, task) = running();
        let (ours, mut writer) = pair().await;
        let (late, mut quiet) = pair().await;
        let far = Instant::now() + Duration::from_secs(60);
        assert!(set.park(entry(ours), far).is_ok());
        let soon = Instant::now() + Duration::from_millis(200);
        assert!(set.park(entry(late), soon).is_ok());
        assert_eq!(set.len(), 2);
        assert_eq!(parked.load(Ordering::Relaxed), 2);

        writer.write_all(b"GET").await.expect("write");
        let mut back = unpark(resumed.recv().await.expect("resumed"));
        let mut read = [0u8; 3];
        back.read_exact(&mut read).await.expect("read");
        assert_eq!(&read, b"GET");

        // The other one's deadline passes: it is closed, its client reads the end.
        let mut rest = Vec::new();
        let read = tokio::time::timeout(Duration::from_secs(10), quiet.read_to_end(&mut rest))
            .await
            .expect("closed at its deadline");
        assert_eq!(read.expect("read"), 0);
        until("the set empties", || set.is_empty()).await;
        assert_eq!(parked.load(Ordering::Relaxed), 0);

        stop_sender.send(true).expect("stop");
        task.await.expect("the set's task ends");
    }

    #[tokio::test]
    async fn a_socket_readable_when_parked_or_closed_by_its_client_comes_back_at_once() {
        let (set, _parked, stop_sender, mut resumed, task) = running();
        let far = Instant::now() + Duration::from_secs(60);
        let (ours, mut client) = pair().await;
        client.write_all(b"x").await.expect("write");
        ours.readable().await.expect("readable");
        assert!(set.park(entry(ours), far).is_ok());
        let mut back = unpark(resumed.recv().await.expect("resumed at once"));
        let mut read = [0u8; 1];
        back.read_exact(&mut read).await.expect("read");
        assert_eq!(&read, b"x");

        let (ours, client) = pair().await;
        assert!(set.park(entry(ours), far).is_ok());
        drop(client);
        let mut back = unpark(resumed.recv().await.expect("resumed when its client left"));
        let mut rest = Vec::new();
        assert_eq!(back.read_to_end(&mut rest).await.expect("read"), 0);
        until("the set empties", || set.is_empty()).await;
        stop_sender.send(true).expect("stop");
        task.await.expect("the set's task ends");
    }

    #[tokio::test]
    async fn stop_closes_every_parked_socket_and_refuses_more() {
        let (set, parked, stop_sender, _resumed, task) = running();
        let far = Instant::now() + Duration::from_secs(60);
        let mut clients = Vec::new();
        // More than one chunk of the table.
        for _ in 0..CHUNK + 3 {
            let (ours, client) = pair().await;
            assert!(set.park(entry(ours), far).is_ok());
            clients.push(client);
        }
        assert_eq!(parked.load(Ordering::Relaxed), CHUNK + 3);
        stop_sender.send(true).expect("stop");
        task.await.expect("the set's task ends");
        assert!(set.is_empty());
        assert_eq!(parked.load(Ordering::Relaxed), 0);
        for mut client in clients {
            let mut rest = Vec::new();
            assert_eq!(client.read_to_end(&mut rest).await.expect("read"), 0);
        }
        // Closed: a later park drops the entry, which closes it.
        let (ours, mut client) = pair().await;
        assert!(set.park(entry(ours), far).is_ok());
        assert!(set.is_empty());
        let mut rest = Vec::new();
        assert_eq!(client.read_to_end(&mut rest).await.expect("read"), 0);
    }
}
