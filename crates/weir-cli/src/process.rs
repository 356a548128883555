//! Process concerns around a running gateway: the pid file, signals to a running weir
//! (`weir reload`, `weir upgrade`), listening sockets taken from systemd (`LISTEN_FDS`) or from
//! the weir that started this one, and starting the new binary on an upgrade.
//!
//! An upgrade works as HAProxy's `-x` and Pingora's socket handover: the running weir clears
//! close-on-exec on duplicates of the listening sockets open at that moment, starts the binary
//! now on disk with `WEIR_INHERIT_FDS` naming them with what each served
//! (`3:plain,4:plain,5:tls,6:admin`) and `WEIR_READY_FD` naming the write end of a pipe, and
//! waits. The new process serves the same sockets (connections queued in them are not lost), each
//! as its config says, and writes `ready` once every worker listens; only then does the old one
//! stop accepting and drain. A new process that exits or says nothing within
//! [`UPGRADE_READY_TIMEOUT`] leaves the old one serving.

use std::io::{Read, Write};
use std::net::TcpListener;
use std::os::fd::{AsFd, AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::Context;
use nix::fcntl::{fcntl, FcntlArg, FdFlag};

/// How long an upgrade waits for the new process to say it serves.
pub const UPGRADE_READY_TIMEOUT: Duration = Duration::from_secs(30);

/// systemd's first passed descriptor (`SD_LISTEN_FDS_START`).
const LISTEN_FDS_START: RawFd = 3;

const INHERIT_FDS: &str = "WEIR_INHERIT_FDS";
const READY_FD: &str = "WEIR_READY_FD";

/// Writes this process's id to `path`, replacing what was there (a new process after an upgrade
/// takes the file over). A symbolic link at `path` is refused: whoever can plant one (the pid
/// file's directory is often writable by more than root) would have weir overwrite the file it
/// points at. The id goes into a new file beside `path`, made with `O_EXCL | O_NOFOLLOW`, then
/// renamed over it, so a reader never sees a half-written file and no link is followed.
pub fn write_pid_file(path: &Path) -> anyhow::Result<()> {
    use std::os::unix::fs::OpenOptionsExt;
    if let Ok(metadata) = std::fs::symlink_metadata(path) {
        if metadata.file_type().is_symlink() {
            anyhow::bail!(
                "refusing the pid file {}: it is a symbolic link",
                path.display()
            );
        }
    }
    let name = path
        .file_name()
        .with_context(|| format!("the pid file {} names no file", path.display()))?;
    let mut temporary_name = std::ffi::OsString::from(".");
    temporary_name.push(name);
    temporary_name.push(format!(".{}.tmp", std::process::id()));
    let temporary = path.with_file_name(temporary_name);
    // One left by a process that had this id and was killed mid-write; removing a link removes
    // the link, not what it points at.
    let _ = std::fs::remove_file(&temporary);
    let written = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o644)
        .custom_flags(nix::libc::O_NOFOLLOW)
        .open(&temporary)
        .and_then(|mut file| file.write_all(format!("{}\n", std::process::id()).as_bytes()))
        .and_then(|()| std::fs::rename(&temporary, path));
    if let Err(error) = written {
        let _ = std::fs::remove_file(&temporary);
        return Err(error).with_context(|| format!("writing the pid file {}", path.display()));
    }
    Ok(())
}

/// Removes `path` if it still holds this process's id (after an upgrade it holds the new one's).
pub fn remove_pid_file(path: &Path) {
    let ours = std::fs::read_to_string(path)
        .ok()
        .and_then(|text| text.trim().parse::<u32>().ok())
        == Some(std::process::id());
    if ours {
        let _ = std::fs::remove_file(path);
    }
}

/// Sends `signal` to the weir whose id is in `pid_file`.
pub fn signal_running(pid_file: &Path, signal: nix::sys::signal::Signal) -> anyhow::Result<u32> {
    let text = std::fs::read_to_string(pid_file)
        .with_context(|| format!("reading the pid file {}", pid_file.display()))?;
    let pid: i32 = text
        .trim()
        .parse()
        .with_context(|| format!("{} does not hold a process id", pid_file.display()))?;
    nix::sys::signal::kill(nix::unistd::Pid::from_raw(pid), signal)
        .with_context(|| format!("signalling process {pid} (from {})", pid_file.display()))?;
    Ok(pid.unsigned_abs())
}

/// The listening sockets this process was given: by systemd socket activation (`LISTEN_FDS`
/// with `LISTEN_PID` naming this process) or by the weir that started it (`WEIR_INHERIT_FDS`).
/// The variables are removed so that nothing started later inherits the claim.
pub fn inherited_listeners() -> anyhow::Result<Vec<weir::Inherited>> {
    let mut fds: Vec<(RawFd, Option<weir::ListenerKind>)> = Vec::new();
    if let Ok(count) = std::env::var("LISTEN_FDS") {
        let for_us = std::env::var("LISTEN_PID")
            .ok()
            .and_then(|pid| pid.trim().parse::<u32>().ok())
            == Some(std::process::id());
        if for_us {
            let count: RawFd = count.trim().parse().context("LISTEN_FDS is not a number")?;
            fds.extend((LISTEN_FDS_START..LISTEN_FDS_START + count).map(|fd| (fd, None)));
        }
        std::env::remove_var("LISTEN_FDS");
        std::env::remove_var("LISTEN_PID");
        std::env::remove_var("LISTEN_FDNAMES");
    }
    if let Ok(list) = std::env::var(INHERIT_FDS) {
        for item in list.split(',').filter(|item| !item.is_empty()) {
            // `FD:KIND`; a bare `FD` (a weir too old to say) is taken as systemd's are.
            let (fd, kind) = match item.trim().split_once(':') {
                Some((fd, name)) => {
                    let kind = weir::ListenerKind::from_name(name).with_context(|| {
                        format!("{INHERIT_FDS} holds {item:?}: {name:?} is not plain, tls or admin")
                    })?;
                    (fd, Some(kind))
                }
                None => (item.trim(), None),
            };
            let fd = fd
                .parse()
                .with_context(|| format!("{INHERIT_FDS} holds {item:?}, not a descriptor"))?;
            fds.push((fd, kind));
        }
        std::env::remove_var(INHERIT_FDS);
    }
    fds.into_iter()
        .map(|(fd, kind)| {
            Ok(weir::Inherited {
                listener: take_listener(fd)?,
                kind,
            })
        })
        .collect()
}

/// Takes ownership of an inherited descriptor, after checking it is a listening TCP socket.
#[allow(unsafe_code)] // reason: a descriptor passed by number can only be owned through from_raw_fd
fn take_listener(fd: RawFd) -> anyhow::Result<TcpListener> {
    // Refuse anything but an open socket before owning it: fstat on a closed number fails.
    let stat = nix::sys::stat::fstat(
        // SAFETY: the borrow lives for this call only; fstat fails cleanly on a closed number.
        unsafe { std::os::fd::BorrowedFd::borrow_raw(fd) },
    )
    .with_context(|| format!("inherited descriptor {fd} is not open"))?;
    if stat.st_mode & nix::libc::S_IFMT != nix::libc::S_IFSOCK {
        anyhow::bail!("inherited descriptor {fd} is not a socket");
    }
    // SAFETY: the descriptor was passed to this process to own (systemd's protocol, or the weir
    // that started it), it is open, and nothing else in this process refers to it.
    let owned = unsafe { OwnedFd::from_raw_fd(fd) };
    let socket = socket2::Socket::from(owned);
    set_cloexec(&socket, true)?;
    if !socket.is_listener().unwrap_or(false) {
        anyhow::bail!("inherited descriptor {fd} is not a listening socket");
    }
    Ok(socket.into())
}

fn set_cloexec(fd: &impl AsFd, on: bool) -> anyhow::Result<()> {
    let flags = if on {
        FdFlag::FD_CLOEXEC
    } else {
        FdFlag::empty()
    };
    fcntl(fd, FcntlArg::F_SETFD(flags)).context("setting close-on-exec")?;
    Ok(())
}

/// Shares `inherited` among `threads` workers: a socket passed once serves every worker (the
/// others get duplicates, sharing its queue); sockets passed once per worker (a weir upgrade
/// from the per-core layout) are dealt one per worker, the surplus to the first. The admin
/// listener is the first worker's alone.
pub fn deal(inherited: Vec<weir::Inherited>, threads: usize) -> Vec<Vec<weir::Inherited>> {
    let mut shares: Vec<Vec<weir::Inherited>> = (0..threads.max(1)).map(|_| Vec::new()).collect();
    let mut groups: Vec<(Option<std::net::SocketAddr>, Vec<weir::Inherited>)> = Vec::new();
    for socket in inherited {
        let addr = socket.listener.local_addr().ok();
        match groups.iter_mut().find(|(seen, _)| *seen == addr) {
            Some((_, group)) => group.push(socket),
            None => groups.push((addr, vec![socket])),
        }
    }
    for (_, group) in groups {
        if group.len() == 1 {
            let mut group = group;
            let Some(first) = group.pop() else { continue };
            if first.kind != Some(weir::ListenerKind::Admin) {
                for share in shares.iter_mut().skip(1) {
                    if let Ok(copy) = first.listener.try_clone() {
                        share.push(weir::Inherited {
                            listener: copy,
                            kind: first.kind,
                        });
                    }
                }
            }
            shares[0].push(first);
        } else {
            for (index, socket) in group.into_iter().enumerate() {
                let worker = if index < shares.len() { index } else { 0 };
                shares[worker].push(socket);
            }
        }
    }
    shares
}

/// The pipe end on which to say `ready`, when this process was started by an upgrade.
pub fn ready_pipe() -> anyhow::Result<Option<std::fs::File>> {
    let Ok(text) = std::env::var(READY_FD) else {
        return Ok(None);
    };
    std::env::remove_var(READY_FD);
    let fd: RawFd = text
        .trim()
        .parse()
        .with_context(|| format!("{READY_FD} holds {text:?}, not a descriptor"))?;
    Ok(Some(take_pipe(fd)?))
}

#[allow(unsafe_code)] // reason: a descriptor passed by number can only be owned through from_raw_fd
fn take_pipe(fd: RawFd) -> anyhow::Result<std::fs::File> {
    nix::sys::stat::fstat(
        // SAFETY: the borrow lives for this call only; fstat fails cleanly on a closed number.
        unsafe { std::os::fd::BorrowedFd::borrow_raw(fd) },
    )
    .with_context(|| format!("the ready pipe {fd} is not open"))?;
    // SAFETY: the weir that started this process passed the descriptor for it to own; it is open
    // and nothing else here refers to it.
    let file = unsafe { std::fs::File::from_raw_fd(fd) };
    set_cloexec(&file, true)?;
    Ok(file)
}

/// Tells the weir that started this one that it serves.
pub fn say_ready(mut pipe: std::fs::File) {
    if let Err(error) = pipe.write_all(b"ready\n") {
        tracing::warn!(%error, "cannot tell the old weir that this one is ready");
    }
}

/// Starts `binary run --config CONFIG` with `listeners` passed in (each with what it serves),
/// and waits until it says it serves (true) or fails to (false: it exited, or said nothing in
/// time). Blocking: call it from a thread that may block.
pub fn start_successor(
    binary: &Path,
    config: &Path,
    listeners: &[weir::Inherited],
) -> anyhow::Result<bool> {
    let (reader, writer) = nix::unistd::pipe().context("making the ready pipe")?;
    let mut reader = std::fs::File::from(reader);
    let mut passed = Vec::with_capacity(listeners.len());
    for socket in listeners {
        let copy = socket
            .listener
            .try_clone()
            .context("duplicating a listener")?;
        set_cloexec(&copy, false)?;
        passed.push((copy, socket.kind));
    }
    set_cloexec(&writer, false)?;
    let fds: Vec<String> = passed
        .iter()
        .map(|(fd, kind)| match kind {
            Some(kind) => format!("{}:{}", fd.as_raw_fd(), kind.as_str()),
            None => fd.as_raw_fd().to_string(),
        })
        .collect();
    let started = std::process::Command::new(binary)
        .arg("run")
        .arg("--config")
        .arg(config)
        .env(INHERIT_FDS, fds.join(","))
        .env(READY_FD, writer.as_raw_fd().to_string())
        .spawn();
    // Our copies close now: the child has its own, and the pipe must see EOF if the child dies.
    drop(passed);
    drop(writer);
    let mut child = started.with_context(|| format!("starting {}", binary.display()))?;
    let (sender, receiver) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut said = [0u8; 6];
        let ready = reader.read_exact(&mut said).is_ok() && &said == b"ready\n";
        let _ = sender.send(ready);
    });
    match receiver.recv_timeout(UPGRADE_READY_TIMEOUT) {
        Ok(true) => Ok(true),
        Ok(false) => {
            let status = child.try_wait().ok().flatten();
            tracing::error!(
                ?status,
                "the new weir exited before serving; this one keeps serving"
            );
            let _ = child.wait();
            Ok(false)
        }
        Err(_) => {
            tracing::error!(
                timeout = ?UPGRADE_READY_TIMEOUT,
                "the new weir did not say it serves in time; stopping it, this one keeps serving"
            );
            let _ = nix::sys::signal::kill(
                nix::unistd::Pid::from_raw(child.id() as i32),
                nix::sys::signal::Signal::SIGTERM,
            );
            let _ = child.wait();
            Ok(false)
        }
    }
}

/// The binary an upgrade starts: the file this process was started from, as it is on disk now
/// (a package upgrade replaced it).
pub fn own_binary() -> anyhow::Result<PathBuf> {
    let path = std::env::current_exe().context("finding this binary")?;
    // After the file is replaced, /proc/self/exe reads "PATH (deleted)".
    let text = path.to_string_lossy();
    Ok(match text.strip_suffix(" (deleted)") {
        Some(original) => PathBuf::from(original),
        None => path,
    })
}
