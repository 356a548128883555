//! Counts a gateway's system calls with `strace -c -f`, attached to every process of its tree for
//! a separate short load run (tracing slows the gateway down, so the measured runs are never
//! traced): the count per request says how much of the gateway's cost is the kernel's.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use anyhow::{bail, Context};

/// How long strace may take to attach to every process.
const ATTACH_TIMEOUT: Duration = Duration::from_secs(5);

/// A running `strace -c -f` attached to a process tree.
#[derive(Debug)]
pub struct Trace {
    child: Child,
    output: PathBuf,
}

impl Trace {
    /// Attaches to `pids` (each with all its threads) and returns once every one is traced.
    pub fn attach(pids: &[u32], output: &Path) -> anyhow::Result<Trace> {
        let mut command = Command::new("strace");
        command.args(["-c", "-f", "-q", "-o"]).arg(output);
        for pid in pids {
            command.arg("-p").arg(pid.to_string());
        }
        let child = command
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .context("starting strace (Debian package strace)")?;
        let mut trace = Trace {
            child,
            output: output.to_path_buf(),
        };
        let deadline = Instant::now() + ATTACH_TIMEOUT;
        while !pids.iter().all(|pid| traced(*pid)) {
            if let Some(status) = trace.child.try_wait()? {
                bail!("strace exited ({status}) before it attached");
            }
            if Instant::now() > deadline {
                trace.stop();
                bail!("strace did not attach to {pids:?} within {ATTACH_TIMEOUT:?}");
            }
            thread::sleep(Duration::from_millis(20));
        }
        Ok(trace)
    }

    /// Detaches (SIGINT, by PID) and returns the system calls counted.
    pub fn finish(mut self) -> anyhow::Result<u64> {
        self.stop();
        let text = fs::read_to_string(&self.output)
            .with_context(|| format!("reading {}", self.output.display()))?;
        total_calls(&text).with_context(|| format!("no total in strace's summary:\n{text}"))
    }

    fn stop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = nix::sys::signal::kill(
                nix::unistd::Pid::from_raw(self.child.id() as i32),
                nix::sys::signal::Signal::SIGINT,
            );
        }
        let _ = self.child.wait();
    }
}

impl Drop for Trace {
    fn drop(&mut self) {
        self.stop();
    }
}

/// Whether a tracer is attached to `pid` (`TracerPid` in /proc/PID/status).
fn traced(pid: u32) -> bool {
    fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|status| {
            status
                .lines()
                .find_map(|line| line.strip_prefix("TracerPid:"))
                .and_then(|value| value.trim().parse::<u32>().ok())
        })
        .is_some_and(|tracer| tracer != 0)
}

/// The `calls` column of the `total` line of `strace -c`'s table:
/// `100.00    0.049552           6      7682       795 total`.
pub fn total_calls(text: &str) -> Option<u64> {
    let line = text
        .lines()
        .rev()
        .find(|line| line.trim_end().ends_with(" total"))?;
    line.split_whitespace().nth(3)?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_total_line_gives_the_calls() {
        let text = "% time     seconds  usecs/call     calls    errors syscall\n\
                    ------ ----------- ----------- --------- --------- ----------------\n\
                    \x20 60.00    0.029731           7      4000       795 epoll_wait\n\
                    ------ ----------- ----------- --------- --------- ----------------\n\
                    100.00    0.049552           6      7682       795 total\n";
        assert_eq!(total_calls(text), Some(7682));
        // Without errors the column is empty.
        assert_eq!(
            total_calls("100.00    0.000100           1       100           total\n"),
            Some(100)
        );
        assert_eq!(
            total_calls("strace: attach: ptrace(PTRACE_SEIZE, 1): denied\n"),
            None
        );
    }
}
