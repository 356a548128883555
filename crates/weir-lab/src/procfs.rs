//! Reads CPU time and memory of a process and all its descendants from /proc. A gateway is
//! whatever tree its first process grows (nginx's master and workers, Gunicorn's arbiter and
//! workers), and the lab charges it for all of it.

use std::collections::BTreeMap;
use std::fs;

/// CPU and memory of a process tree at one instant.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Usage {
    /// utime + stime + cutime + cstime of every live process in the tree, in clock ticks: the
    /// c-times carry the CPU of children already reaped, so workers that exit during a run (old
    /// workers after a reload) stay counted.
    pub cpu_ticks: u64,
    /// The user-mode part of `cpu_ticks` (utime + cutime); the rest is kernel time.
    pub user_ticks: u64,
    /// Sum of VmRSS, in KiB.
    pub rss_kib: u64,
    /// Sum of VmHWM (each process's peak RSS), in KiB.
    pub peak_rss_kib: u64,
    pub processes: usize,
}

impl Usage {
    /// CPU seconds between `self` (earlier) and `later`.
    pub fn cpu_seconds_until(&self, later: &Usage) -> f64 {
        later.cpu_ticks.saturating_sub(self.cpu_ticks) as f64 / clock_ticks_per_second() as f64
    }

    /// User-mode CPU seconds between `self` (earlier) and `later`.
    pub fn user_seconds_until(&self, later: &Usage) -> f64 {
        later.user_ticks.saturating_sub(self.user_ticks) as f64 / clock_ticks_per_second() as f64
    }

    /// Kernel-mode CPU seconds between `self` (earlier) and `later`.
    pub fn sys_seconds_until(&self, later: &Usage) -> f64 {
        let system = |usage: &Usage| usage.cpu_ticks.saturating_sub(usage.user_ticks);
        system(later).saturating_sub(system(self)) as f64 / clock_ticks_per_second() as f64
    }
}

/// The kernel's USER_HZ; 100 on every Linux the lab targets, read once from sysconf.
pub fn clock_ticks_per_second() -> u64 {
    match nix::unistd::sysconf(nix::unistd::SysconfVar::CLK_TCK) {
        Ok(Some(ticks)) if ticks > 0 => ticks as u64,
        _ => 100,
    }
}

/// `root` and all its live descendants.
pub fn tree(root: u32) -> Vec<u32> {
    let mut children: BTreeMap<u32, Vec<u32>> = BTreeMap::new();
    if let Ok(entries) = fs::read_dir("/proc") {
        for entry in entries.flatten() {
            let Some(pid) = entry
                .file_name()
                .to_str()
                .and_then(|name| name.parse::<u32>().ok())
            else {
                continue;
            };
            if let Some(stat) = read_stat(pid) {
                children.entry(stat.parent).or_default().push(pid);
            }
        }
    }
    let mut found = vec![root];
    let mut index = 0;
    while index < found.len() {
        if let Some(kids) = children.get(&found[index]) {
            found.extend(kids.iter().copied());
        }
        index += 1;
    }
    found
}

/// Usage summed over the trees rooted at `roots`.
pub fn usage(roots: &[u32]) -> Usage {
    let mut total = Usage::default();
    for root in roots {
        for pid in tree(*root) {
            let Some(stat) = read_stat(pid) else { continue };
            total.cpu_ticks += stat.utime + stat.stime + stat.children_utime + stat.children_stime;
            total.user_ticks += stat.utime + stat.children_utime;
            let (rss, peak) = read_memory(pid);
            total.rss_kib += rss;
            total.peak_rss_kib += peak;
            total.processes += 1;
        }
    }
    total
}

struct Stat {
    parent: u32,
    utime: u64,
    stime: u64,
    /// CPU of reaped children (and theirs), which leaves the tree when they are reaped.
    children_utime: u64,
    children_stime: u64,
}

fn read_stat(pid: u32) -> Option<Stat> {
    let text = fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    parse_stat(&text)
}

/// Parses /proc/PID/stat. The command name (field 2) may hold spaces and parentheses, so fields
/// are counted from the last ')'.
fn parse_stat(text: &str) -> Option<Stat> {
    let after_name = &text[text.rfind(')')? + 1..];
    let fields: Vec<&str> = after_name.split_whitespace().collect();
    // fields[0] is field 3 (state): ppid is field 4, utime 14, stime 15, cutime 16, cstime 17.
    Some(Stat {
        parent: fields.get(1)?.parse().ok()?,
        utime: fields.get(11)?.parse().ok()?,
        stime: fields.get(12)?.parse().ok()?,
        children_utime: fields.get(13)?.parse().ok()?,
        children_stime: fields.get(14)?.parse().ok()?,
    })
}

/// (VmRSS, VmHWM) in KiB; zeros for a process that is gone or a kernel thread.
fn read_memory(pid: u32) -> (u64, u64) {
    let Ok(text) = fs::read_to_string(format!("/proc/{pid}/status")) else {
        return (0, 0);
    };
    let field = |name: &str| -> u64 {
        text.lines()
            .find_map(|line| line.strip_prefix(name))
            .and_then(|rest| rest.split_whitespace().next())
            .and_then(|value| value.parse().ok())
            .unwrap_or(0)
    };
    (field("VmRSS:"), field("VmHWM:"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stat_with_spaces_and_parens_in_the_name_is_parsed() {
        let text = "1234 (my (odd) proc) S 99 1234 1234 0 -1 4194560 100 0 0 0 17 5 3 2 20 0 1 0 100 1000 200";
        let stat = parse_stat(text).unwrap();
        assert_eq!(stat.parent, 99);
        assert_eq!(stat.utime, 17);
        assert_eq!(stat.stime, 5);
        assert_eq!(stat.children_utime, 3);
        assert_eq!(stat.children_stime, 2);
    }

    #[test]
    fn own_process_is_seen_with_memory() {
        let usage = usage(&[std::process::id()]);
        assert!(usage.processes >= 1);
        assert!(usage.rss_kib > 0);
        assert!(usage.peak_rss_kib >= usage.rss_kib);
    }

    #[test]
    fn child_process_is_part_of_the_tree() {
        let mut child = std::process::Command::new("sleep")
            .arg("5")
            .spawn()
            .unwrap();
        let pids = tree(std::process::id());
        let _ = child.kill();
        let _ = child.wait();
        assert!(pids.contains(&child.id()));
    }
}
