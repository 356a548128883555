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
        Poll::Ready(Some(Ok(Frame::data(Bytes::from(vec![b'x'; this.size])))))
    }
}

/// Buffers over a spool in `dir`, with a read-ahead budget of `budget` bytes.
fn buffers(dir: &Path, budget: usize) -> Arc<Buffers> {
    let mut buffers = Buffers::with_spool(Spool {
        dir: dir.to_path_buf(),
        max_size: 1 << 30,
        tmpfile: true,
    });
    buffers.read_ahead_budget = budget;
    Arc::new(buffers)
}

/// Returns once every other task on the paused clock has nothing left to do.
async fn settle() {
    tokio::time::sleep(Duration::from_secs(1)).await;
}

const FRAME: usize = 16 * 1024;

#[tokio::test(start_paused = true)]
async fn a_response_reads_ahead_at_most_its_bound_for_a_client_that_does_not_read() {
    let temp = tempfile::tempdir().expect("a temp dir");
    let buffers = buffers(temp.path(), READ_AHEAD_BUDGET);
    let (source, pulled) = Source::new(FRAME, usize::MAX);
    let mut ahead = spawn_read_ahead(source, &buffers);
    settle().await;
    let held = buffers.stats().read_ahead;
    assert!(
        (READ_AHEAD_MAX_BYTES..READ_AHEAD_MAX_BYTES + FRAME).contains(&held),
        "held {held} bytes"
    );
    assert_eq!(pulled.load(Ordering::Relaxed) * FRAME, held);

    // The client takes a frame: the read-ahead tops up to the bound again, and no further.
    let frame = ahead.frame().await.expect("a frame").expect("no error");
    assert_eq!(frame.into_data().expect("data").len(), FRAME);
    settle().await;
    let held = buffers.stats().read_ahead;
    assert!(held < READ_AHEAD_MAX_BYTES + FRAME, "held {held} bytes");
    assert!(buffers.stats().read_ahead_peak < READ_AHEAD_MAX_BYTES + FRAME);

    // The client goes away: everything held is given back and the upstream is no longer read.
    drop(ahead);
    settle().await;
    assert_eq!(buffers.stats().read_ahead, 0);
    let pulled_at_drop = pulled.load(Ordering::Relaxed);
    settle().await;
    assert_eq!(pulled.load(Ordering::Relaxed), pulled_at_drop);
}

#[tokio::test(start_paused = true)]
async fn all_responses_together_read_ahead_at_most_the_budget_yet_each_still_progresses() {
    let temp = tempfile::tempdir().expect("a temp dir");
    let budget = 2 * READ_AHEAD_MAX_BYTES + READ_AHEAD_MAX_BYTES / 2;
    let buffers = buffers(temp.path(), budget);
    let mut responses = Vec::new();
    for _ in 0..4 {
        let (source, _) = Source::new(FRAME, 2000);
        responses.push(spawn_read_ahead(source, &buffers));
        settle().await;
    }
    let held = buffers.stats().read_ahead;
    assert!(held < budget + 4 * FRAME, "held {held} bytes");
    assert!(buffers.stats().read_ahead_peak < budget + 4 * FRAME);

    // With the budget spent, the last response goes at its client's pace, to the end.
    let last = responses.pop().expect("four responses");
    let body = last.collect().await.expect("no error").to_bytes();
    assert_eq!(body.len(), 2000 * FRAME);
    let held = buffers.stats().read_ahead;
    assert!(held < budget + 3 * FRAME, "held {held} bytes");
    drop(responses);
    settle().await;
    assert_eq!(buffers.stats().read_ahead, 0);
}

/// A spool file is on no path and only its owner may read or write it, whichever way it was made.
#[test]
fn spool_files_have_no_name_and_mode_0600() {
    let temp = tempfile::tempdir().expect("a temp dir");
    let dir = temp.path().join("spool");
    let mut spool = Spool::open(Some(&dir), 1 << 30).expect("a new spool directory");
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
    let error = Spool::open(Some(&wide), 1 << 30).expect_err("mode 0755 is refused");
    assert!(error.to_string().contains("mode 755"), "{error}");

    let link = temp.path().join("link");
    let good = temp.path().join("good");
    Spool::open(Some(&good), 1 << 30).expect("a new directory is fine");
    std::os::unix::fs::symlink(&good, &link).expect("symlink");
    let error = Spool::open(Some(&link), 1 << 30).expect_err("a symlink is refused");
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
    let error = Spool::open(Some(&foreign), 1 << 30).expect_err("another user's is refused");
    assert!(error.to_string().contains("owned by uid"), "{error}");
}

#[test]
fn the_default_spool_directory_is_weirs_own() {
    let dir = default_spool_dir();
    let uid = rustix::process::geteuid().as_raw();
    assert_eq!(dir, PathBuf::from(format!("/var/tmp/weir-{uid}")));
    let spool = Spool::open(None, 1 << 30).expect("the default directory is usable");
    let metadata = std::fs::symlink_metadata(&spool.dir).expect("created");
    assert!(metadata.is_dir());
    assert_eq!(metadata.uid(), uid);
    assert_eq!(metadata.mode() & 0o077, 0);
}

#[test]
fn a_missing_spool_directory_is_made_private_with_its_parents() {
    let temp = tempfile::tempdir().expect("a temp dir");
    let dir = temp.path().join("var/tmp/weir");
    Spool::open(Some(&dir), 1 << 30).expect("created");
    for made in [temp.path().join("var"), temp.path().join("var/tmp"), dir] {
        let metadata = std::fs::symlink_metadata(&made).expect("created");
        assert!(metadata.is_dir());
        assert_eq!(metadata.mode() & 0o777, 0o700, "{}", made.display());
    }
}
