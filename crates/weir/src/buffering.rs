//! Buffering for Gunicorn's sync workers, as nginx does by default:
//! - `request_buffering`: the whole request body is read before the upstream is contacted, in
//!   memory up to [`BODY_MEMORY_LIMIT`] (and `max_body_memory` for all bodies together) and past
//!   it in a spool file no other user can open (see `Spool`), so a slow upload never holds a
//!   worker;
//! - `response_buffering`: the upstream's response is read ahead of the client, so a worker is
//!   freed as soon as it has written its answer, however slowly the client reads: in memory up
//!   to [`READ_AHEAD_MEMORY`] per response (and [`READ_AHEAD_BUDGET`] for the whole gateway),
//!   past it in the response's own spool file up to [`READ_AHEAD_MAX_BYTES`].
//!
//! [`Buffers`] is the gateway's share of both: the spool directory with its size cap and the
//! read-ahead budget, with the bytes each holds now for metrics.

#[cfg(test)]
mod tests;

use std::io;
use std::os::unix::fs::{DirBuilderExt, MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use bytes::{Bytes, BytesMut};
use http_body::{Body as _, Frame, SizeHint};
use http_body_util::BodyExt;
use tokio::io::AsyncWriteExt;
use tokio::sync::Notify;

use crate::body::Body;
use crate::config::BODY_MEMORY_LIMIT;
use crate::error::BoxError;
use crate::error::ProxyError;
use crate::request_body::{ClientBody, RequestBody, Spooled};
use crate::upstream::UpstreamBody;

/// Responses whose `Content-Length` is at most this fit in the socket buffers between the upstream
/// and weir, so the worker is free at once without a read-ahead task.
pub const READ_AHEAD_THRESHOLD: u64 = 64 * 1024;

/// Bytes one response may hold read ahead of its client in memory. Past them, what the upstream
/// sends goes to a spool file (within [`READ_AHEAD_MAX_BYTES`]), as nginx keeps `proxy_buffers 8
/// 4k|8k` (32-64 KiB) in memory and spills the rest to a temp file: with 100 clients fetching
/// 1 MB responses, holding each response whole in memory made weir's peak RSS 10x nginx's
/// (lab/runs/2026-12-01-vm-big). At most one more frame (the upstream connection's read, 64 KiB
/// at most) is held before the bound is seen.
pub const READ_AHEAD_MEMORY: usize = 64 * 1024;

/// Bytes one response may hold read ahead of its client in its spool file, past
/// [`READ_AHEAD_MEMORY`], before weir stops reading the upstream until the client drains some.
/// nginx's `proxy_max_temp_file_size` is 1 GiB; 16 MiB frees a Gunicorn sync worker at once for
/// every page, JSON answer and export short of a large download (the e2e tests send 8 MB to a
/// client that does not read), and past it a slow client sets the pace as if unbuffered. The file
/// is emptied (truncated) each time the client has caught up with it, and its bytes count
/// against `max_spool_size` with the request bodies'; a full spool, or one that cannot be
/// written, leaves the response in memory only, at its client's pace past [`READ_AHEAD_MEMORY`]
/// (a frame the spool refused once read is the one held past it).
pub const READ_AHEAD_MAX_BYTES: usize = 16 << 20;

/// Bytes all responses together may hold read ahead in memory: thousands of responses at their
/// [`READ_AHEAD_MEMORY`]. Past it, every read-ahead spills to its file or, when it cannot, goes at
/// its client's pace (one frame at a time) until others drain, so the budget holds however many
/// slow clients come, and none of them stalls.
pub const READ_AHEAD_BUDGET: usize = 256 << 20;

/// Room the spool must have for a response to send its next frame there: an upstream frame is
/// one read of its connection, 64 KiB at most. With less, the response waits for its client
/// instead of reading a frame the spool would refuse.
const SPILL_FRAME_ROOM: u64 = 64 * 1024;

/// Frames one response may hold read ahead, whatever their size: a bound on the bookkeeping of a
/// stream of tiny frames (about 100 bytes each). Bytes are the bound that matters; see
/// [`READ_AHEAD_MEMORY`] and [`READ_AHEAD_MAX_BYTES`].
const READ_AHEAD_FRAMES: usize = 4096;

/// `Retry-After` of a request refused because the spool is full: a full spool drains as the
/// requests in it reach their upstream, typically within seconds.
pub const SPOOL_RETRY_AFTER: Duration = Duration::from_secs(5);

/// The gateway's buffers as one generation of the config sees them: its spool directory, over
/// the accounts of the whole gateway's life (`Accounts`), which every generation shares.
#[derive(Debug)]
pub struct Buffers {
    spool: Spool,
    /// This generation's `max_spool_size` and `max_body_memory`, in force once
    /// [`Buffers::take_effect`] ran.
    max_spool_size: u64,
    max_body_memory: u64,
    accounts: Arc<Accounts>,
}

/// What the gateway's buffers hold now, counted once for the gateway's life: a reload that
/// changes the spool settings makes a new [`Buffers`] over the same accounts, so responses and
/// bodies of the old generation and of the new one count against one cap and one budget.
#[derive(Debug)]
struct Accounts {
    /// The spool's cap in force: the newest generation's `max_spool_size`.
    max_spool_size: AtomicU64,
    /// Body bytes held in spool files now, under `max_spool_size`.
    spooled: AtomicU64,
    /// Bytes read ahead of their clients now, by every response.
    read_ahead: AtomicUsize,
    /// The most `read_ahead` has been.
    read_ahead_peak: AtomicUsize,
    read_ahead_budget: usize,
    /// The memory budget of buffered request bodies in force: the newest generation's
    /// `max_body_memory`.
    max_body_memory: AtomicU64,
    /// Bytes of buffered request bodies held in memory now, under `max_body_memory`.
    body_memory: AtomicU64,
}

/// What [`Buffers`] hold now, for metrics and tests.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct BufferStats {
    /// Bytes of request bodies in spool files.
    pub spooled: u64,
    /// Bytes of responses read ahead of their clients.
    pub read_ahead: usize,
    /// The most bytes read ahead at once since the gateway started.
    pub read_ahead_peak: usize,
    /// Bytes of buffered request bodies in memory.
    pub body_memory: u64,
}

impl Buffers {
    /// Opens (or creates) the spool directory (see `Spool::open`), with accounts of its own.
    pub fn new(
        spool_dir: Option<&Path>,
        max_spool_size: u64,
        max_body_memory: u64,
    ) -> io::Result<Buffers> {
        Ok(Buffers::with_spool(
            Spool::open(spool_dir)?,
            max_spool_size,
            max_body_memory,
        ))
    }

    fn with_spool(spool: Spool, max_spool_size: u64, max_body_memory: u64) -> Buffers {
        Buffers {
            spool,
            max_spool_size,
            max_body_memory,
            accounts: Arc::new(Accounts {
                max_spool_size: AtomicU64::new(max_spool_size),
                spooled: AtomicU64::new(0),
                read_ahead: AtomicUsize::new(0),
                read_ahead_peak: AtomicUsize::new(0),
                read_ahead_budget: READ_AHEAD_BUDGET,
                max_body_memory: AtomicU64::new(max_body_memory),
                body_memory: AtomicU64::new(0),
            }),
        }
    }

    /// The buffers of a reloaded config whose spool settings changed: `spool_dir` opened again
    /// (and checked again), over the same accounts. Its limits apply to every generation from
    /// [`Buffers::take_effect`] on, not before: a reload that fails later changes nothing.
    pub fn reload(
        &self,
        spool_dir: Option<&Path>,
        max_spool_size: u64,
        max_body_memory: u64,
    ) -> io::Result<Buffers> {
        Ok(Buffers {
            spool: Spool::open(spool_dir)?,
            max_spool_size,
            max_body_memory,
            accounts: Arc::clone(&self.accounts),
        })
    }

    /// Makes this generation's limits the ones in force for the gateway's buffers, when the
    /// generation is: bytes already held stay, and new ones are held to the new limits.
    pub fn take_effect(&self) {
        self.accounts
            .max_spool_size
            .store(self.max_spool_size, Ordering::Relaxed);
        self.accounts
            .max_body_memory
            .store(self.max_body_memory, Ordering::Relaxed);
    }

    pub fn stats(&self) -> BufferStats {
        let accounts = &self.accounts;
        BufferStats {
            spooled: accounts.spooled.load(Ordering::Relaxed),
            read_ahead: accounts.read_ahead.load(Ordering::Relaxed),
            read_ahead_peak: accounts.read_ahead_peak.load(Ordering::Relaxed),
            body_memory: accounts.body_memory.load(Ordering::Relaxed),
        }
    }

    /// The spool directory.
    pub fn spool_dir(&self) -> &Path {
        &self.spool.dir
    }

    /// Takes `bytes` of the spool's cap, or refuses with [`ProxyError::SpoolFull`].
    fn reserve(
        self: &Arc<Self>,
        reservation: &mut SpoolReservation,
        bytes: u64,
    ) -> Result<(), ProxyError> {
        let accounts = &self.accounts;
        let max = accounts.max_spool_size.load(Ordering::Relaxed);
        accounts
            .spooled
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |used| {
                used.checked_add(bytes).filter(|&total| total <= max)
            })
            .map_err(|_| ProxyError::SpoolFull {
                retry_after: SPOOL_RETRY_AFTER,
            })?;
        reservation.bytes += bytes;
        Ok(())
    }

    /// Takes `bytes` of the memory budget of buffered request bodies; `false` when the budget
    /// has no room for them (the body then goes to the spool).
    fn reserve_body_memory(&self, memory: &mut BodyMemory, bytes: u64) -> bool {
        let accounts = &self.accounts;
        let max = accounts.max_body_memory.load(Ordering::Relaxed);
        let reserved = accounts
            .body_memory
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |used| {
                used.checked_add(bytes).filter(|&total| total <= max)
            })
            .is_ok();
        if reserved {
            memory.bytes += bytes;
        }
        reserved
    }
}

/// Where request bodies too large for memory go: a directory only weir's user may enter, and
/// files no other user can open (their total size is capped by [`Accounts`]).
#[derive(Debug)]
struct Spool {
    dir: PathBuf,
    /// Whether to try `O_TMPFILE` first (tests turn it off to exercise the fallback).
    tmpfile: bool,
    /// A file every spool file is opened as instead (tests use `/dev/full`, whose writes fail
    /// with `ENOSPC`, for a spool that cannot be written).
    #[cfg(test)]
    device: Option<PathBuf>,
}

impl Spool {
    /// Checks `dir`, or weir's own default directory when `None` (`/var/tmp/weir-UID`: `/var/tmp`
    /// is on disk where `/tmp` is often RAM). A missing directory is created with mode 0700 (and
    /// so are missing parents); an existing one must be a directory (not a symlink) owned by
    /// weir's effective user with no access for group or others, since anyone who can enter it
    /// could read bodies being spooled or plant a file where weir creates one.
    fn open(dir: Option<&Path>) -> io::Result<Spool> {
        let uid = rustix::process::geteuid().as_raw();
        let dir = dir.map_or_else(default_spool_dir, Path::to_path_buf);
        // Missing parents are made too (and private): a system without /var/tmp still starts.
        std::fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(&dir)?;
        let metadata = std::fs::symlink_metadata(&dir)?;
        let refuse = |reason: String| Err(io::Error::new(io::ErrorKind::PermissionDenied, reason));
        if !metadata.is_dir() {
            return refuse(
                "the spool directory is not a directory (a symlink is refused too)".into(),
            );
        }
        if metadata.uid() != uid {
            return refuse(format!(
                "the spool directory is owned by uid {}, not by weir's uid {uid}",
                metadata.uid()
            ));
        }
        if metadata.mode() & 0o077 != 0 {
            return refuse(format!(
                "the spool directory has mode {:o}; it must give group and others no access (0700)",
                metadata.mode() & 0o7777
            ));
        }
        Ok(Spool {
            dir,
            tmpfile: true,
            #[cfg(test)]
            device: None,
        })
    }

    /// A file in the spool directory that no other user can open and no name points to:
    /// `O_TMPFILE` where the file system supports it, else a new name created with `O_EXCL` and
    /// mode 0600 and unlinked at once. Blocking; run it on the blocking pool.
    fn create_file(&self) -> io::Result<std::fs::File> {
        use rustix::fs::{Mode, OFlags};
        #[cfg(test)]
        if let Some(device) = &self.device {
            return std::fs::OpenOptions::new()
                .read(true)
                .write(true)
                .open(device);
        }
        if self.tmpfile {
            match rustix::fs::open(
                &self.dir,
                OFlags::TMPFILE | OFlags::RDWR | OFlags::CLOEXEC,
                Mode::from_raw_mode(0o600),
            ) {
                Ok(fd) => return Ok(std::fs::File::from(fd)),
                // The file system has no O_TMPFILE (EOPNOTSUPP), or the kernel predates it
                // (EISDIR, EINVAL): fall back to a named file.
                Err(errno)
                    if errno == rustix::io::Errno::OPNOTSUPP
                        || errno == rustix::io::Errno::ISDIR
                        || errno == rustix::io::Errno::INVAL => {}
                Err(errno) => return Err(errno.into()),
            }
        }
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let path = self.dir.join(format!(
            "body-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        // create_new is O_CREAT | O_EXCL, which also refuses a symlink planted at the name.
        let file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create_new(true)
            .mode(0o600)
            .custom_flags(OFlags::CLOEXEC.bits() as i32)
            .open(&path)?;
        std::fs::remove_file(&path)?;
        Ok(file)
    }
}

/// weir's own spool directory when `spool_dir` is not set: `/var/tmp/weir-UID`, for the effective
/// user. `/var/tmp` is on disk where `/tmp` is often RAM (tmpfs), and the uid in the name keeps
/// two users' gateways apart.
pub fn default_spool_dir() -> PathBuf {
    PathBuf::from(format!(
        "/var/tmp/weir-{}",
        rustix::process::geteuid().as_raw()
    ))
}

/// Bytes of the spool's cap held by one body, given back when it is dropped.
struct SpoolReservation {
    buffers: Arc<Buffers>,
    bytes: u64,
}

impl SpoolReservation {
    /// Gives `bytes` of the reservation back to the spool's cap.
    fn give_back(&mut self, bytes: u64) {
        let bytes = bytes.min(self.bytes);
        self.bytes -= bytes;
        self.buffers
            .accounts
            .spooled
            .fetch_sub(bytes, Ordering::Relaxed);
    }
}

impl Drop for SpoolReservation {
    fn drop(&mut self) {
        self.buffers
            .accounts
            .spooled
            .fetch_sub(self.bytes, Ordering::Relaxed);
    }
}

/// Bytes of the memory budget of buffered request bodies held by one body, given back when it
/// is dropped: with the last handle on the body's bytes (see [`BufferedBody`]).
struct BodyMemory {
    buffers: Arc<Buffers>,
    bytes: u64,
}

impl BodyMemory {
    fn give_back(&mut self) {
        self.buffers
            .accounts
            .body_memory
            .fetch_sub(self.bytes, Ordering::Relaxed);
        self.bytes = 0;
    }
}

impl Drop for BodyMemory {
    fn drop(&mut self) {
        self.give_back();
    }
}

/// A body buffered in memory, as the owner of the `Bytes` handed on: its share of the memory
/// budget is counted until the last clone of them (a retry keeps one) is gone.
struct BufferedBody {
    bytes: Bytes,
    _memory: BodyMemory,
}

impl AsRef<[u8]> for BufferedBody {
    fn as_ref(&self) -> &[u8] {
        &self.bytes
    }
}

/// Reads the client's whole body, failing with 413 past `limit` (0 = no limit), with 408 when no
/// bytes come for `timeout` (`body_timeout`), and with 503 when the spool has no room for it. A
/// body goes to the spool past [`BODY_MEMORY_LIMIT`], or sooner when all buffered bodies
/// together hold `max_body_memory` in memory.
pub async fn read_request_body(
    mut incoming: ClientBody,
    limit: u64,
    timeout: Duration,
    buffers: &Arc<Buffers>,
) -> Result<RequestBody, ProxyError> {
    let limit = if limit == 0 { u64::MAX } else { limit };
    let mut memory = BytesMut::new();
    let mut spill: Option<(tokio::fs::File, u64)> = None;
    let mut reservation = SpoolReservation {
        buffers: Arc::clone(buffers),
        bytes: 0,
    };
    let mut body_memory = BodyMemory {
        buffers: Arc::clone(buffers),
        bytes: 0,
    };
    while let Some(frame) = tokio::time::timeout(timeout, incoming.frame())
        .await
        .map_err(|_elapsed| ProxyError::BodyTimeout)?
    {
        let frame = frame?;
        let Ok(data) = frame.into_data() else {
            continue;
        };
        let received = memory.len() as u64
            + spill.as_ref().map_or(0, |(_, written)| *written)
            + data.len() as u64;
        if received > limit {
            return Err(ProxyError::BodyTooLarge { limit });
        }
        match &mut spill {
            Some((file, written)) => {
                buffers.reserve(&mut reservation, data.len() as u64)?;
                file.write_all(&data).await.map_err(spool_error)?;
                *written += data.len() as u64;
            }
            // Past its own share of memory, or past what all buffered bodies together may hold
            // (`max_body_memory`), the body goes on in the spool.
            None if memory.len() + data.len() > BODY_MEMORY_LIMIT
                || !buffers.reserve_body_memory(&mut body_memory, data.len() as u64) =>
            {
                let written = (memory.len() + data.len()) as u64;
                buffers.reserve(&mut reservation, written)?;
                let mut file = spool_file(buffers).await.map_err(spool_error)?;
                file.write_all(&memory).await.map_err(spool_error)?;
                file.write_all(&data).await.map_err(spool_error)?;
                // The memory and its share of the budget go back now, not at the body's end.
                memory = BytesMut::new();
                body_memory.give_back();
                spill = Some((file, written));
            }
            None => memory.extend_from_slice(&data),
        }
    }
    match spill {
        None => Ok(RequestBody::Full((!memory.is_empty()).then(|| {
            Bytes::from_owner(BufferedBody {
                bytes: memory.freeze(),
                _memory: body_memory,
            })
        }))),
        Some((mut file, written)) => {
            file.flush().await.map_err(spool_error)?;
            use tokio::io::AsyncSeekExt;
            file.seek(io::SeekFrom::Start(0))
                .await
                .map_err(spool_error)?;
            Ok(RequestBody::Spooled(Box::new(Spooled::new(
                file,
                written,
                Box::new(reservation),
            ))))
        }
    }
}

fn spool_error(error: io::Error) -> ProxyError {
    tracing::error!(%error, "cannot buffer a request body in a spool file");
    ProxyError::Spool
}

async fn spool_file(buffers: &Arc<Buffers>) -> io::Result<tokio::fs::File> {
    let buffers = Arc::clone(buffers);
    let file = tokio::task::spawn_blocking(move || buffers.spool.create_file())
        .await
        .map_err(io::Error::other)??;
    Ok(tokio::fs::File::from_std(file))
}

/// Reads the upstream's body ahead of the client when it may not fit in the socket buffers.
pub fn read_ahead(body: UpstreamBody, buffers: &Arc<Buffers>) -> Body {
    let small = body
        .size_hint()
        .exact()
        .is_some_and(|length| length <= READ_AHEAD_THRESHOLD);
    if small || body.is_end_stream() {
        return Body::Upstream(body);
    }
    Body::boxed(spawn_read_ahead(body, buffers))
}

/// `body` read ahead of the client as [`read_ahead`] reads an upstream's, whatever its size: a
/// body whose reading must not wait for its client (an answer being copied into the cache,
/// which other requests wait for).
pub fn read_ahead_whole(body: Body, buffers: &Arc<Buffers>) -> Body {
    if http_body::Body::is_end_stream(&body) {
        return body;
    }
    Body::boxed(spawn_read_ahead(body, buffers))
}

/// Starts a task that reads `body` ahead of the client, within the bounds, and returns the
/// client's end of it.
fn spawn_read_ahead<B>(body: B, buffers: &Arc<Buffers>) -> ReadAhead
where
    B: http_body::Body<Data = Bytes> + Send + Unpin + 'static,
    B::Error: Into<BoxError>,
{
    let (sender, receiver) = tokio::sync::mpsc::channel(READ_AHEAD_FRAMES);
    let size_hint = body.size_hint();
    let response = Arc::new(ResponseAhead {
        buffers: Arc::clone(buffers),
        held: AtomicUsize::new(0),
        unread: AtomicUsize::new(0),
        drained: Notify::new(),
    });
    let task_response = Arc::clone(&response);
    tokio::spawn(async move {
        let response = task_response;
        let mut body = body;
        let mut spill = Spill::Unopened;
        // Set when the spool refused a frame (no room after all, or a failed write): the file
        // is tried again only once memory has room, so a refusal costs at most that one frame
        // in memory and then means waiting for the client, never more memory.
        let mut refused = false;
        loop {
            if !response.has_room() {
                // Memory is full: the client's task runs first, so a client that keeps up takes
                // what is held, and only one that does not makes the rest go to the file.
                tokio::task::yield_now().await;
            }
            // Back-pressure: with memory full and the file full or refusing, the upstream is not
            // read until the client takes something; once the client has taken everything, one
            // frame at a time.
            spill.reclaim(&response);
            while !response.has_room() && (refused || !spill.has_room(&response)) {
                tokio::select! {
                    () = response.drained.notified() => {}
                    // The client went away: dropping the body closes the upstream connection.
                    () = sender.closed() => return,
                }
                spill.reclaim(&response);
            }
            if response.has_room() {
                refused = false;
            }
            // The next frame, unless the body ends or the client goes away (or its HTTP/2 stream
            // is given up) while the upstream is slow: dropping the body then closes the upstream
            // connection and frees its pool place at once, not at the upstream's next bytes or
            // its read_timeout.
            let Some(Some(frame)) = first_of(body.frame(), sender.closed()).await else {
                return;
            };
            let frame = frame.map_err(Into::into);
            let failed = frame.is_err();
            let ahead = match frame {
                Ok(frame) => match frame.into_data() {
                    Ok(data) if !response.has_room() && !refused && spill.has_room(&response) => {
                        match spill.write(&response, &data).await {
                            Some(spilled) => spilled,
                            None => {
                                refused = true;
                                Ahead::memory(&response, Ok(Frame::data(data)))
                            }
                        }
                    }
                    Ok(data) => Ahead::memory(&response, Ok(Frame::data(data))),
                    Err(frame) => Ahead::memory(&response, Ok(frame)),
                },
                Err(error) => Ahead::memory(&response, Err(error)),
            };
            if sender.send(ahead).await.is_err() || failed {
                return;
            }
        }
    });
    ReadAhead {
        receiver,
        size_hint,
    }
}

/// The output of `future`, or `None` once `gone` completes first.
async fn first_of<F: std::future::Future>(
    future: F,
    gone: impl std::future::Future<Output = ()>,
) -> Option<F::Output> {
    tokio::select! {
        biased;
        output = future => Some(output),
        () = gone => None,
    }
}

/// One response's read-ahead state, shared by its task and its client's end.
struct ResponseAhead {
    buffers: Arc<Buffers>,
    /// Bytes read from the upstream, held in memory and not yet taken by the client.
    held: AtomicUsize,
    /// Bytes written to the spool file and not yet read back by the client.
    unread: AtomicUsize,
    /// Signalled each time the client takes a frame.
    drained: Notify,
}

impl ResponseAhead {
    /// Whether the task may keep one more frame in memory: nothing is waiting for the client, or
    /// both this response and the whole gateway are under their bounds.
    fn has_room(&self) -> bool {
        let held = self.held.load(Ordering::Relaxed);
        (held == 0 && self.unread.load(Ordering::Acquire) == 0)
            || (held < READ_AHEAD_MEMORY
                && self.buffers.accounts.read_ahead.load(Ordering::Relaxed)
                    < self.buffers.accounts.read_ahead_budget)
    }
}

/// The spool file of one response, made when memory is first full.
enum Spill {
    Unopened,
    Open {
        file: Arc<SpillFile>,
        /// The file's size: where the next bytes go.
        end: u64,
    },
    /// The spool could not make a file: this response stays in memory.
    Failed,
}

impl Spill {
    /// Whether a frame may go to the file: the spool works, this response's file is under its
    /// bound, and the spool has room for a whole frame ([`SPILL_FRAME_ROOM`]), so the frame read
    /// next is not refused for want of room once it has been taken from the upstream.
    fn has_room(&self, response: &ResponseAhead) -> bool {
        let accounts = &response.buffers.accounts;
        let spool_room = accounts
            .spooled
            .load(Ordering::Relaxed)
            .saturating_add(SPILL_FRAME_ROOM)
            <= accounts.max_spool_size.load(Ordering::Relaxed);
        match self {
            Spill::Failed => false,
            Spill::Unopened => spool_room,
            Spill::Open { end, .. } => {
                let used = if response.unread.load(Ordering::Acquire) == 0 {
                    0
                } else {
                    *end
                };
                used < READ_AHEAD_MAX_BYTES as u64 && spool_room
            }
        }
    }

    /// Empties the file once the client has read everything written to it, giving its share of
    /// the spool's cap back: at once, not at the next write, which a spool without room (or a
    /// cap made smaller by a reload) would never allow.
    fn reclaim(&mut self, response: &ResponseAhead) {
        if let Spill::Open { file, end } = self {
            Spill::empty_if_read(file, end, response);
        }
    }

    fn empty_if_read(file: &SpillFile, end: &mut u64, response: &ResponseAhead) {
        if *end == 0 || response.unread.load(Ordering::Acquire) != 0 {
            return;
        }
        // No read of the file is pending, since `unread` drops only after a read.
        let mut reservation = file
            .reservation
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if file.file.set_len(0).is_ok() {
            let bytes = reservation.bytes;
            reservation.give_back(bytes);
            *end = 0;
        }
    }

    /// Appends `data` to the file (made now if needed) and gives the client's message for it;
    /// `None` when the spool refused it (full, or the file cannot be made or written): the frame
    /// is then held in memory, and the response waits for its client before it reads more. A
    /// file the client has read to its end is emptied first.
    ///
    /// The write is a plain `pwrite` on the runtime thread, as nginx writes its temp files
    /// without `aio threads`: it goes to the page cache, not to the disk.
    async fn write(&mut self, response: &Arc<ResponseAhead>, data: &Bytes) -> Option<Ahead> {
        use std::os::unix::fs::FileExt;
        if let Spill::Unopened = self {
            match spool_file(&response.buffers).await {
                Ok(file) => {
                    *self = Spill::Open {
                        file: Arc::new(SpillFile {
                            file: file.into_std().await,
                            reservation: std::sync::Mutex::new(SpoolReservation {
                                buffers: Arc::clone(&response.buffers),
                                bytes: 0,
                            }),
                        }),
                        end: 0,
                    }
                }
                Err(error) => {
                    tracing::error!(%error, "cannot spool a response read ahead: it stays in memory");
                    *self = Spill::Failed;
                    return None;
                }
            }
        }
        let Spill::Open { file, end } = self else {
            return None;
        };
        Spill::empty_if_read(file, end, response);
        let mut reservation = file
            .reservation
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        response
            .buffers
            .reserve(&mut reservation, data.len() as u64)
            .ok()?;
        drop(reservation);
        if let Err(error) = file.file.write_all_at(data, *end) {
            // The bytes were not spooled: their share of the cap goes back now, not when the
            // response ends.
            file.reservation
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .give_back(data.len() as u64);
            tracing::error!(%error, "cannot write a response read ahead to its spool file: it waits for its client");
            return None;
        }
        let offset = *end;
        *end += data.len() as u64;
        response.unread.fetch_add(data.len(), Ordering::AcqRel);
        Some(Ahead::Spilled {
            file: Arc::clone(file),
            offset,
            length: data.len(),
            response: Arc::clone(response),
        })
    }
}

/// A response's spool file, shared by its read-ahead task and the pieces waiting in it: its bytes
/// count against `max_spool_size` until the last of them is gone.
struct SpillFile {
    file: std::fs::File,
    /// Locked only by the task, briefly, and by nobody else but its drop.
    reservation: std::sync::Mutex<SpoolReservation>,
}

/// The bytes of one frame held in memory, counted from the upstream read until the client takes
/// the frame (or the frame is dropped with the client's end).
struct Held {
    response: Arc<ResponseAhead>,
    bytes: usize,
}

impl Held {
    fn new(response: &Arc<ResponseAhead>, bytes: usize) -> Held {
        response.held.fetch_add(bytes, Ordering::Relaxed);
        let accounts = &response.buffers.accounts;
        let total = accounts.read_ahead.fetch_add(bytes, Ordering::Relaxed) + bytes;
        accounts.read_ahead_peak.fetch_max(total, Ordering::Relaxed);
        Held {
            response: Arc::clone(response),
            bytes,
        }
    }
}

impl Drop for Held {
    fn drop(&mut self) {
        self.response.held.fetch_sub(self.bytes, Ordering::Relaxed);
        self.response
            .buffers
            .accounts
            .read_ahead
            .fetch_sub(self.bytes, Ordering::Relaxed);
        self.response.drained.notify_one();
    }
}

/// A piece of the response read ahead: a frame in memory, with its bytes counted until it is
/// taken, or bytes in the spool file.
enum Ahead {
    Memory {
        frame: Result<Frame<Bytes>, BoxError>,
        _held: Held,
    },
    Spilled {
        file: Arc<SpillFile>,
        offset: u64,
        length: usize,
        response: Arc<ResponseAhead>,
    },
}

impl Ahead {
    fn memory(response: &Arc<ResponseAhead>, frame: Result<Frame<Bytes>, BoxError>) -> Ahead {
        let bytes = frame
            .as_ref()
            .ok()
            .and_then(Frame::data_ref)
            .map_or(0, Bytes::len);
        Ahead::Memory {
            _held: Held::new(response, bytes),
            frame,
        }
    }

    /// The frame: spilled bytes are read back (a `pread` from the page cache, on the runtime
    /// thread, as nginx reads its temp files).
    fn into_frame(self) -> Result<Frame<Bytes>, BoxError> {
        match self {
            Ahead::Memory { frame, _held } => frame,
            Ahead::Spilled {
                file,
                offset,
                length,
                response,
            } => {
                use std::os::unix::fs::FileExt;
                let mut buffer = vec![0u8; length];
                let read = file.file.read_exact_at(&mut buffer, offset);
                response.unread.fetch_sub(length, Ordering::AcqRel);
                response.drained.notify_one();
                read.map_err(|error| -> BoxError {
                    tracing::error!(%error, "cannot read back a response from its spool file");
                    Box::new(error)
                })?;
                Ok(Frame::data(Bytes::from(buffer)))
            }
        }
    }
}

struct ReadAhead {
    receiver: tokio::sync::mpsc::Receiver<Ahead>,
    size_hint: SizeHint,
}

impl http_body::Body for ReadAhead {
    type Data = Bytes;
    type Error = BoxError;

    fn poll_frame(
        self: Pin<&mut Self>,
        context: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, BoxError>>> {
        self.get_mut()
            .receiver
            .poll_recv(context)
            .map(|ahead| ahead.map(Ahead::into_frame))
    }

    fn size_hint(&self) -> SizeHint {
        self.size_hint
    }
}
