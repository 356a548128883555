//! Reads a Redis server's command and error counters (`INFO all`: its commandstats and
//! errorstats) over its Unix socket, so a scenario can say how many calls the limiter made per
//! rejection, and whether any failed.

use std::io::{Read, Write};
use std::os::unix::net::UnixStream;
use std::path::Path;
use std::time::Duration;

use anyhow::{bail, Context};

/// Commands a Redis server has run since it started, the lab's own `INFO` left out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct CommandStats {
    pub calls: u64,
    /// Calls that failed or were rejected (commandstats' `failed_calls` and `rejected_calls`)
    /// but those answered `NOSCRIPT` (errorstats): a client that sends `EVALSHA` first and loads
    /// the script when the server does not know it yet meets `NOSCRIPT` once per connection.
    /// Errors outside any command (redis-rs's `CLIENT SETINFO`, which Redis 7.0 does not know,
    /// at every connect) are not counted.
    pub failed: u64,
}

impl CommandStats {
    /// What ran between `self` (earlier) and `later`.
    pub fn until(&self, later: &CommandStats) -> CommandStats {
        CommandStats {
            calls: later.calls.saturating_sub(self.calls),
            failed: later.failed.saturating_sub(self.failed),
        }
    }
}

/// Asks the server at `socket` for its command counters.
pub fn command_stats(socket: &Path) -> anyhow::Result<CommandStats> {
    let mut stream = UnixStream::connect(socket)
        .with_context(|| format!("connecting to Redis at {}", socket.display()))?;
    stream.set_read_timeout(Some(Duration::from_secs(5)))?;
    stream.write_all(b"INFO all\r\n")?;
    let mut reply = Vec::new();
    let mut chunk = [0u8; 4096];
    loop {
        let read = stream.read(&mut chunk)?;
        if read == 0 {
            bail!("Redis closed the connection mid-reply");
        }
        reply.extend_from_slice(&chunk[..read]);
        if let Some(body) = bulk_string(&reply)? {
            return Ok(parse_command_stats(&body));
        }
    }
}

/// The payload of a RESP bulk string (`$N\r\n...\r\n`) once it is whole; `None` while short.
fn bulk_string(reply: &[u8]) -> anyhow::Result<Option<String>> {
    let Some(end) = reply.windows(2).position(|window| window == b"\r\n") else {
        return Ok(None);
    };
    let head = String::from_utf8_lossy(&reply[..end]);
    let Some(length) = head.strip_prefix('$') else {
        bail!("unexpected Redis reply: {head}");
    };
    let length: usize = length.parse().context("bad bulk length")?;
    let start = end + 2;
    if reply.len() < start + length {
        return Ok(None);
    }
    Ok(Some(
        String::from_utf8_lossy(&reply[start..start + length]).into_owned(),
    ))
}

/// Sums `cmdstat_NAME:calls=C,usec=...,rejected_calls=R,failed_calls=F` lines, `info` aside,
/// and takes `errorstat_NOSCRIPT:count=N` from the failures.
pub fn parse_command_stats(text: &str) -> CommandStats {
    let mut stats = CommandStats::default();
    let mut noscript = 0;
    for line in text.lines() {
        if let Some(count) = line.trim().strip_prefix("errorstat_NOSCRIPT:count=") {
            noscript = count.parse().unwrap_or(0);
            continue;
        }
        let Some((name, fields)) = line
            .trim()
            .strip_prefix("cmdstat_")
            .and_then(|rest| rest.split_once(':'))
        else {
            continue;
        };
        if name == "info" {
            continue;
        }
        for field in fields.split(',') {
            let Some((key, value)) = field.split_once('=') else {
                continue;
            };
            let value: u64 = value.parse().unwrap_or(0);
            match key {
                "calls" => stats.calls += value,
                "rejected_calls" | "failed_calls" => stats.failed += value,
                _ => {}
            }
        }
    }
    stats.failed = stats.failed.saturating_sub(noscript);
    stats
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn command_stats_sum_every_command_but_info_and_noscript_is_no_failure() {
        // Two failed EVALSHA, one of them NOSCRIPT, and one rejected SCRIPT LOAD; errorstats'
        // ERR counts errors outside any command too, which are left out.
        let text = "# Commandstats\r\ncmdstat_evalsha:calls=120,usec=900,usec_per_call=7.50,rejected_calls=0,failed_calls=2\r\ncmdstat_script|load:calls=1,usec=10,usec_per_call=10.00,rejected_calls=1,failed_calls=0\r\ncmdstat_info:calls=7,usec=70,usec_per_call=10.00,rejected_calls=0,failed_calls=0\r\n# Errorstats\r\nerrorstat_NOSCRIPT:count=1\r\nerrorstat_ERR:count=2\r\n";
        let stats = parse_command_stats(text);
        assert_eq!(
            stats,
            CommandStats {
                calls: 121,
                failed: 2
            }
        );
        let later = CommandStats {
            calls: 200,
            failed: 2,
        };
        assert_eq!(
            stats.until(&later),
            CommandStats {
                calls: 79,
                failed: 0
            }
        );
    }

    #[test]
    fn a_bulk_string_is_read_only_once_whole() {
        assert_eq!(bulk_string(b"$5\r\nab").unwrap(), None);
        assert_eq!(
            bulk_string(b"$5\r\nabcde\r\n").unwrap().as_deref(),
            Some("abcde")
        );
        assert!(bulk_string(b"-ERR no\r\n").is_err());
    }
}
