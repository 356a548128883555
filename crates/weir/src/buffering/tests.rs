//! Tests for the buffers: read-ahead against an in-process body that is always ready (so only the
//! bounds stop it), on tokio's paused clock, where a sleep returns only once every other task is
//! idle; and the spool against real directories and files in a temp dir.

use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use http_body::Frame;
use http_body_util::BodyExt;

use super::*;

/// A body that always has its next frame ready: `frames` frames of `size` bytes.
struct Source {
    size: usize,
    frames: usize,
    pulled: Arc<AtomicUsize>,
}

impl Source {
    fn new(size: usize, frames: usize) -> (Source, Arc<AtomicUsize>) {
        let pulled = Arc::new(AtomicUsize::new(0));
        (
            Source {
                size,
                frames,
                pulled: Arc::clone(&pulled),
            },
            pulled,
        )
    }
}

impl http_body::Body for Source {
    type Data = Bytes;
    type Error = std::convert::Infallible;

    fn poll_frame(
        self: Pin<&mut Self>,
        _context: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Self::Error>>> {
        let this = self.get_mut();
        let pulled = this.pulled.load(Ordering::Relaxed);
        if pulled == this.frames {
            return Poll::Ready(None);
        }
        this.pulled.store(pulled + 1, Ordering::Relaxed);
        Poll::Ready(Some(Ok(Frame::data(frame_bytes(pulled, this.size)))))
    }
}

/// Frame `index` of a [`Source`]: `size` bytes that tell frames apart.
fn frame_bytes(index: usize, size: usize) -> Bytes {
    let mut bytes = vec![index as u8; size];
    let number = (index as u64).to_le_bytes();
    let start = number.len().min(size);
    bytes[..start].copy_from_slice(&number[..start]);
    Bytes::from(bytes)
}

/// Buffers over a spool in `dir` of `spool` bytes, with a read-ahead budget of `budget` bytes.
fn buffers_with(dir: &Path, budget: usize, spool: u64) -> Arc<Buffers> {
    let mut buffers = Buffers::with_spool(
        Spool {
            dir: dir.to_path_buf(),
            tmpfile: true,
            device: None,
        },
        spool,
        64 << 20,
    );
    Arc::get_mut(&mut buffers.accounts)
        .expect("new accounts are the buffers' own")
        .read_ahead_budget = budget;
    Arc::new(buffers)
}

/// Buffers over a 1 GiB spool in `dir`, with a read-ahead budget of `budget` bytes.
fn buffers(dir: &Path, budget: usize) -> Arc<Buffers> {
    buffers_with(dir, budget, 1 << 30)
}

/// Returns once every other task on the paused clock has nothing left to do.
async fn settle() {
    tokio::time::sleep(Duration::from_secs(1)).await;
}

const FRAME: usize = 16 * 1024;

/// A client that does not read: its response holds [`READ_AHEAD_MEMORY`] in memory and
/// [`READ_AHEAD_MAX_BYTES`] in its spool file, and no more is read from the upstream.
#[tokio::test(start_paused = true)]
async fn a_response_reads_ahead_at_most_its_bounds_for_a_client_that_does_not_read() {
    let temp = tempfile::tempdir().expect("a temp dir");
    let buffers = buffers(temp.path(), READ_AHEAD_BUDGET);
    let (source, pulled) = Source::new(FRAME, usize::MAX);
    let mut ahead = spawn_read_ahead(source, &buffers);
    settle().await;
    let stats = buffers.stats();
    assert!(
        (READ_AHEAD_MEMORY..READ_AHEAD_MEMORY + FRAME).contains(&stats.read_ahead),
        "{stats:?}"
    );
    let spool_bound = READ_AHEAD_MAX_BYTES as u64;
    assert!(
        (spool_bound..spool_bound + FRAME as u64).contains(&stats.spooled),
        "{stats:?}"
    );
    assert_eq!(
        (pulled.load(Ordering::Relaxed) * FRAME) as u64,
        stats.read_ahead as u64 + stats.spooled
    );

    // The client takes a frame: the read-ahead tops up to the bound again, and no further.
    let frame = ahead.frame().await.expect("a frame").expect("no error");
    assert_eq!(frame.into_data().expect("data"), frame_bytes(0, FRAME));
    settle().await;
    let stats = buffers.stats();
    assert!(stats.read_ahead < READ_AHEAD_MEMORY + FRAME, "{stats:?}");
    assert!(stats.read_ahead_peak < READ_AHEAD_MEMORY + FRAME);
    assert!(stats.spooled < spool_bound + FRAME as u64, "{stats:?}");

    // The client goes away: everything held is given back and the upstream is no longer read.
    drop(ahead);
    settle().await;
    assert_eq!(buffers.stats().read_ahead, 0);
    assert_eq!(buffers.stats().spooled, 0);
    let pulled_at_drop = pulled.load(Ordering::Relaxed);
    settle().await;
    assert_eq!(pulled.load(Ordering::Relaxed), pulled_at_drop);
}

/// A response larger than both bounds, read by a client that keeps stopping: every byte arrives
/// in order, memory never holds more than its share, the file is emptied each time the client
/// catches up with it, and nothing is held at the end.
#[tokio::test(start_paused = true)]
async fn a_spilled_response_arrives_whole_and_in_order() {
    let temp = tempfile::tempdir().expect("a temp dir");
    let buffers = buffers(temp.path(), READ_AHEAD_BUDGET);
    let frames = 3 * READ_AHEAD_MAX_BYTES / FRAME;
    let (source, _) = Source::new(FRAME, frames);
    let mut ahead = spawn_read_ahead(source, &buffers);
    let mut index = 0;
    let mut emptied = 0;
    let mut spooled = 0;
    while let Some(frame) = ahead.frame().await {
        let data = frame.expect("no error").into_data().expect("data");
        assert!(data == frame_bytes(index, FRAME), "frame {index} changed");
        index += 1;
        if index % 300 == 0 {
            // The client stops a while: the upstream fills memory and the file again.
            settle().await;
            let stats = buffers.stats();
            assert!(stats.read_ahead < READ_AHEAD_MEMORY + FRAME, "{stats:?}");
            assert!(
                stats.spooled < (READ_AHEAD_MAX_BYTES + FRAME) as u64,
                "{stats:?}"
            );
        }
        // Only emptying the file gives spool bytes back before the end.
        if buffers.stats().spooled < spooled {
            emptied += 1;
        }
        spooled = buffers.stats().spooled;
    }
    assert_eq!(index, frames);
    // The last piece read gives the file back too; the others were the file emptied.
    assert!(emptied >= 2, "the file was never emptied: {emptied}");
    assert!(buffers.stats().read_ahead_peak < READ_AHEAD_MEMORY + FRAME);
    drop(ahead);
    settle().await;
    assert_eq!(
        buffers.stats(),
        BufferStats {
            spooled: 0,
            read_ahead: 0,
            read_ahead_peak: buffers.stats().read_ahead_peak,
            body_memory: 0,
        }
    );
}

/// With the spool full, read-ahead stays in memory: all responses together hold at most the
/// budget, yet each still progresses at its client's pace.
#[tokio::test(start_paused = true)]
async fn with_the_spool_full_all_responses_together_read_ahead_at_most_the_budget_yet_each_still_progresses(
) {
    let temp = tempfile::tempdir().expect("a temp dir");
    let budget = 2 * READ_AHEAD_MEMORY + READ_AHEAD_MEMORY / 2;
    let buffers = buffers_with(temp.path(), budget, 0);
    let mut responses = Vec::new();
    for _ in 0..4 {
        let (source, _) = Source::new(FRAME, 200);
        responses.push(spawn_read_ahead(source, &buffers));
        settle().await;
    }
    let held = buffers.stats().read_ahead;
    assert!(held < budget + 4 * FRAME, "held {held} bytes");
    assert!(buffers.stats().read_ahead_peak < budget + 4 * FRAME);
    assert_eq!(buffers.stats().spooled, 0);

    // With the budget spent, the last response goes at its client's pace, to the end.
    let last = responses.pop().expect("four responses");
    let body = last.collect().await.expect("no error").to_bytes();
    assert_eq!(body.len(), 200 * FRAME);
    let held = buffers.stats().read_ahead;
    assert!(held < budget + 3 * FRAME, "held {held} bytes");
    drop(responses);
    settle().await;
    assert_eq!(buffers.stats().read_ahead, 0);
}

/// A spool with less room than a frame (1 MiB, 50,000-byte frames, a client that does not read):
/// the response waits for its client once memory and the spool's room are used, instead of
/// holding the frames the spool would refuse in memory; then every byte arrives in order.
#[tokio::test(start_paused = true)]
async fn a_spool_without_room_for_a_frame_holds_the_upstream_back_not_memory() {
    let temp = tempfile::tempdir().expect("a temp dir");
    let max_spool = 1 << 20;
    let buffers = buffers_with(temp.path(), READ_AHEAD_BUDGET, max_spool);
    let (size, frames) = (50_000, 839);
    let (source, pulled) = Source::new(size, frames);
    let mut ahead = spawn_read_ahead(source, &buffers);
    settle().await;
    let stats = buffers.stats();
    assert!(stats.read_ahead < READ_AHEAD_MEMORY + size, "{stats:?}");
    assert!(stats.spooled <= max_spool, "{stats:?}");
    assert_eq!(
        (pulled.load(Ordering::Relaxed) * size) as u64,
        stats.read_ahead as u64 + stats.spooled
    );
    let mut index = 0;
    while let Some(frame) = ahead.frame().await {
        let data = frame.expect("no error").into_data().expect("data");
        assert!(data == frame_bytes(index, size), "frame {index} changed");
        index += 1;
    }
    assert_eq!(index, frames);
    assert!(buffers.stats().read_ahead_peak < READ_AHEAD_MEMORY + size);
}

/// A spool whose writes fail (`/dev/full`: `ENOSPC`): each failed write gives its share of the
/// cap back at once, the frame it could not take is the only one held past the memory bound, and
/// the response goes on at its client's pace, whole and in order.
#[tokio::test(start_paused = true)]
async fn a_spool_write_that_fails_gives_its_room_back_and_holds_the_upstream_back() {
    let temp = tempfile::tempdir().expect("a temp dir");
    let mut spool = Spool::open(Some(&temp.path().join("spool"))).expect("a spool");
    spool.device = Some(PathBuf::from("/dev/full"));
    let buffers = Arc::new(Buffers::with_spool(spool, 1 << 30, 64 << 20));
    // More frames than a response may queue, so a task that held them all would still be there
    // (with whatever it reserved) when the stats are read.
    let frames = READ_AHEAD_FRAMES + 100;
    let (source, pulled) = Source::new(FRAME, frames);
    let mut ahead = spawn_read_ahead(source, &buffers);
    settle().await;
    let stats = buffers.stats();
    assert_eq!(stats.spooled, 0, "a failed write kept its reservation");
    assert!(
        stats.read_ahead < READ_AHEAD_MEMORY + 2 * FRAME,
        "{stats:?}"
    );
    assert_eq!(pulled.load(Ordering::Relaxed) * FRAME, stats.read_ahead);
    let mut index = 0;
    while let Some(frame) = ahead.frame().await {
        let data = frame.expect("no error").into_data().expect("data");
        assert!(data == frame_bytes(index, FRAME), "frame {index} changed");
        index += 1;
        let stats = buffers.stats();
        assert_eq!(stats.spooled, 0, "{stats:?}");
    }
    assert_eq!(index, frames);
    assert!(buffers.stats().read_ahead_peak < READ_AHEAD_MEMORY + 2 * FRAME);
}

/// A reload's buffers share the gateway's accounts, and its smaller spool cap, once in force,
/// holds for a response of the old generation too: the old response's spooled bytes stay until
/// its client reads them, and from then on every response spools within the new cap.
#[tokio::test(start_paused = true)]
async fn a_reloaded_spool_cap_holds_for_the_responses_of_every_generation() {
    let temp = tempfile::tempdir().expect("a temp dir");
    let old = buffers_with(temp.path(), READ_AHEAD_BUDGET, 4 << 20);
    let (source, _) = Source::new(FRAME, usize::MAX);
    let mut old_response = spawn_read_ahead(source, &old);
    settle().await;
    let before = old.stats();
    assert!(before.spooled > (4 << 20) - SPILL_FRAME_ROOM, "{before:?}");

    let new_cap = 1 << 20;
    let new = Arc::new(
        old.reload(Some(&temp.path().join("new")), new_cap, 64 << 20)
            .expect("the new spool directory"),
    );
    new.take_effect();
    let (source, _) = Source::new(FRAME, usize::MAX);
    let _new_response = spawn_read_ahead(source, &new);
    settle().await;
    // One account: the new response found the spool full and holds only its memory share.
    assert_eq!(new.stats(), old.stats());
    let stats = new.stats();
    assert_eq!(stats.spooled, before.spooled, "{stats:?}");
    assert!(
        stats.read_ahead < 2 * (READ_AHEAD_MEMORY + FRAME),
        "{stats:?}"
    );

    // The old response's client reads: once its file is given back, it spools within the new
    // cap, however long it goes on.
    let mut under_new_cap = false;
    for index in 0..4 * (4 << 20) / FRAME {
        let data = old_response
            .frame()
            .await
            .expect("a frame")
            .expect("no error")
            .into_data()
            .expect("data");
        assert!(data == frame_bytes(index, FRAME), "frame {index} changed");
        if index % 64 == 0 {
            settle().await;
        }
        let spooled = new.stats().spooled;
        under_new_cap |= spooled <= new_cap;
        if under_new_cap {
            assert!(
                spooled <= new_cap,
                "{spooled} bytes spooled after frame {index}"
            );
        }
    }
    assert!(under_new_cap, "the old response never gave its file back");
}

/// A spool file is on no path and only its owner may read or write it, whichever way it was made.
#[test]
fn spool_files_have_no_name_and_mode_0600() {
    let temp = tempfile::tempdir().expect("a temp dir");
    let dir = temp.path().join("spool");
    let mut spool = Spool::open(Some(&dir)).expect("a new spool directory");
    assert_eq!(
        std::fs::metadata(&dir).expect("created").mode() & 0o7777,
        0o700
    );
    for tmpfile in [true, false] {
        spool.tmpfile = tmpfile;
        let file = spool.create_file().expect("a spool file");
        let metadata = file.metadata().expect("fstat");
        assert_eq!(metadata.nlink(), 0, "tmpfile: {tmpfile}");
        assert_eq!(metadata.mode() & 0o777, 0o600, "tmpfile: {tmpfile}");
        assert_eq!(
            std::fs::read_dir(&dir).expect("list").count(),
            0,
            "tmpfile: {tmpfile}"
        );
    }
}

#[test]
fn a_spool_directory_others_could_enter_is_refused() {
    let temp = tempfile::tempdir().expect("a temp dir");

    let wide = temp.path().join("wide");
    std::fs::create_dir(&wide).expect("mkdir");
    std::fs::set_permissions(&wide, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let error = Spool::open(Some(&wide)).expect_err("mode 0755 is refused");
    assert!(error.to_string().contains("mode 755"), "{error}");

    let link = temp.path().join("link");
    let good = temp.path().join("good");
    Spool::open(Some(&good)).expect("a new directory is fine");
    std::os::unix::fs::symlink(&good, &link).expect("symlink");
    let error = Spool::open(Some(&link)).expect_err("a symlink is refused");
    assert!(error.to_string().contains("not a directory"), "{error}");

    // Owned by another user: as root, make one; otherwise the root directory is one.
    let uid = rustix::process::geteuid().as_raw();
    let foreign = if uid == 0 {
        let foreign = temp.path().join("foreign");
        std::fs::create_dir(&foreign).expect("mkdir");
        std::fs::set_permissions(&foreign, std::fs::Permissions::from_mode(0o700)).expect("chmod");
        std::os::unix::fs::chown(&foreign, Some(65534), Some(65534)).expect("chown");
        foreign
    } else {
        PathBuf::from("/")
    };
    let error = Spool::open(Some(&foreign)).expect_err("another user's is refused");
    assert!(error.to_string().contains("owned by uid"), "{error}");
}

#[test]
fn the_default_spool_directory_is_weirs_own() {
    let dir = default_spool_dir();
    let uid = rustix::process::geteuid().as_raw();
    assert_eq!(dir, PathBuf::from(format!("/var/tmp/weir-{uid}")));
    let spool = Spool::open(None).expect("the default directory is usable");
    let metadata = std::fs::symlink_metadata(&spool.dir).expect("created");
    assert!(metadata.is_dir());
    assert_eq!(metadata.uid(), uid);
    assert_eq!(metadata.mode() & 0o077, 0);
}

#[test]
fn a_missing_spool_directory_is_made_private_with_its_parents() {
    let temp = tempfile::tempdir().expect("a temp dir");
    let dir = temp.path().join("var/tmp/weir");
    Spool::open(Some(&dir)).expect("created");
    for made in [temp.path().join("var"), temp.path().join("var/tmp"), dir] {
        let metadata = std::fs::symlink_metadata(&made).expect("created");
        assert!(metadata.is_dir());
        assert_eq!(metadata.mode() & 0o777, 0o700, "{}", made.display());
    }
}
