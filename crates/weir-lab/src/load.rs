//! The load generators: builds `wrk` and `ab` command lines, runs them, and parses what they print
//! into one `LoadOutput`, so the guard and the report never see a tool's text.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;
use std::time::Duration;

use anyhow::{bail, Context};

/// Which tool drives the load, and how hard.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tool {
    /// `wrk -tT -cC`: keep-alive connections, the default of the lab.
    Wrk { threads: u32, connections: u32 },
    /// `ab -c C`: a new connection per request, as studies 000, 001 and 003 measured.
    Ab { concurrency: u32 },
    /// `h2load -cC -mM`: C HTTP/2 connections with M streams each (the `tls` scenario).
    H2load { clients: u32, streams: u32 },
}

impl Tool {
    /// A short label for tables: `wrk -t2 -c100`.
    pub fn label(&self) -> String {
        match self {
            Tool::Wrk {
                threads,
                connections,
            } => format!("wrk -t{threads} -c{connections}"),
            Tool::Ab { concurrency } => format!("ab -c{concurrency}"),
            Tool::H2load { clients, streams } => format!("h2load -c{clients} -m{streams}"),
        }
    }

    pub fn connections(&self) -> u32 {
        match self {
            Tool::Wrk { connections, .. } => *connections,
            Tool::Ab { concurrency } => *concurrency,
            Tool::H2load { clients, .. } => *clients,
        }
    }
}

/// Latency percentiles in milliseconds.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Latency {
    pub p50_ms: f64,
    pub p90_ms: f64,
    pub p99_ms: f64,
}

/// Transport-level failures the tool saw.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SocketErrors {
    pub connect: u64,
    pub read: u64,
    pub write: u64,
    pub timeout: u64,
    /// ab's "Failed requests" (connect, receive, length, exceptions together).
    pub failed: u64,
}

impl SocketErrors {
    pub fn total(&self) -> u64 {
        self.connect + self.read + self.write + self.timeout + self.failed
    }
}

/// What one load run measured, whichever tool ran it.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct LoadOutput {
    pub requests: u64,
    pub seconds: f64,
    pub requests_per_second: f64,
    pub latency: Option<Latency>,
    /// Responses with status 400 or above (wrk's "Non-2xx or 3xx", ab's "Non-2xx").
    pub non_2xx: u64,
    /// Responses by status, when the status script ran (scenarios that expect 429s).
    pub statuses: BTreeMap<u16, u64>,
    pub errors: SocketErrors,
    /// What the tool printed, kept as evidence for void runs.
    pub text: String,
}

impl LoadOutput {
    /// The count of 429 responses (known when the status script ran).
    pub fn rejected(&self) -> u64 {
        self.statuses.get(&429).copied().unwrap_or(0)
    }
}

/// Runs `tool` against `url` for `duration` and parses its output. `status_script` is the wrk Lua
/// script that counts statuses; it is used only when given (it slows wrk down).
pub fn run(
    tool: Tool,
    url: &str,
    duration: Duration,
    status_script: Option<&Path>,
) -> anyhow::Result<LoadOutput> {
    let mut command = command(tool, url, duration, status_script);
    let output = command
        .output()
        .with_context(|| format!("running {}", tool.label()))?;
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    let parsed = match tool {
        Tool::Wrk { .. } => parse_wrk(&stdout),
        Tool::Ab { .. } => parse_ab(&stdout),
        Tool::H2load { .. } => parse_h2load(&stdout),
    };
    let mut parsed = parsed.with_context(|| {
        format!(
            "{} exited with {}; stdout:\n{stdout}\nstderr:\n{stderr}",
            tool.label(),
            output.status
        )
    })?;
    parsed.text = format!("{stdout}{stderr}");
    Ok(parsed)
}

/// The command line for one run, exposed so the report can print it.
pub fn command(tool: Tool, url: &str, duration: Duration, status_script: Option<&Path>) -> Command {
    // Whole seconds are what both tools take; anything shorter still runs one second.
    let seconds = duration.as_secs().max(1);
    match tool {
        Tool::Wrk {
            threads,
            connections,
        } => {
            let mut command = Command::new("wrk");
            command
                .arg(format!("-t{threads}"))
                .arg(format!("-c{connections}"))
                .arg(format!("-d{seconds}s"))
                // A request slower than this counts as a time-out and voids the run.
                .arg("--timeout")
                .arg("10s")
                .arg("--latency");
            if let Some(script) = status_script {
                command.arg("-s").arg(script);
            }
            command.arg(url);
            command
        }
        Tool::H2load { clients, streams } => {
            let mut command = Command::new("h2load");
            command
                .arg(format!("-c{clients}"))
                .arg(format!("-m{streams}"))
                // Two threads, as the lab's `wrk -t2`.
                .arg("-t2")
                .arg("-D")
                .arg(seconds.to_string())
                .arg(url);
            command
        }
        Tool::Ab { concurrency } => {
            let mut command = Command::new("ab");
            // -t before -n: -t alone caps the run at 50,000 requests.
            command
                .arg("-q")
                .arg("-r")
                .arg("-c")
                .arg(concurrency.to_string())
                .arg("-t")
                .arg(seconds.to_string())
                .arg("-n")
                .arg("100000000")
                .arg("-s")
                .arg("10")
                .arg(url);
            command
        }
    }
}

/// Parses h2load's summary (nghttp2 1.52): `finished in 10.00s, 1234.56 req/s, ...`, the
/// `requests:` and `status codes:` lines. h2load gives no percentiles, so no latency.
pub fn parse_h2load(text: &str) -> anyhow::Result<LoadOutput> {
    let mut output = LoadOutput::default();
    let mut finished = false;
    let mut counted = false;
    // h2load's `failed` counts responses of 400 and above too: only the rest are errors.
    let mut failed = 0;
    for line in text.lines() {
        let line = line.trim();
        if let Some(rest) = line.strip_prefix("finished in ") {
            let mut parts = rest.split(", ");
            let seconds = parts.next().and_then(|value| {
                value
                    .strip_suffix("ms")
                    .and_then(|ms| ms.parse::<f64>().ok().map(|ms| ms / 1000.0))
                    .or_else(|| value.strip_suffix('s')?.parse().ok())
            });
            let rate = parts
                .next()
                .and_then(|value| value.strip_suffix(" req/s")?.parse().ok());
            if let (Some(seconds), Some(rate)) = (seconds, rate) {
                output.seconds = seconds;
                output.requests_per_second = rate;
                finished = true;
            }
        } else if let Some(rest) = line.strip_prefix("requests: ") {
            // "N total, N started, N done, N succeeded, N failed, N errored, N timeout"
            for part in rest.split(", ") {
                let mut words = part.split_whitespace();
                let (Some(count), Some(what)) = (words.next(), words.next()) else {
                    continue;
                };
                let Ok(count) = count.parse::<u64>() else {
                    continue;
                };
                match what {
                    "done" => {
                        output.requests = count;
                        counted = true;
                    }
                    "failed" => failed += count,
                    "errored" => output.errors.failed += count,
                    "timeout" => output.errors.timeout += count,
                    _ => {}
                }
            }
        } else if let Some(rest) = line.strip_prefix("status codes: ") {
            for part in rest.split(", ") {
                let mut words = part.split_whitespace();
                if let (Some(count), Some(class)) = (words.next(), words.next()) {
                    if matches!(class, "4xx" | "5xx") {
                        output.non_2xx += count.parse::<u64>().unwrap_or(0);
                    }
                }
            }
        }
    }
    if !finished || !counted {
        bail!("no h2load summary in its output");
    }
    output.errors.failed += failed.saturating_sub(output.non_2xx);
    Ok(output)
}

/// Parses wrk 4.x output (with `--latency`, optionally the status script's lines).
pub fn parse_wrk(text: &str) -> anyhow::Result<LoadOutput> {
    let mut output = LoadOutput::default();
    let mut saw_requests = false;
    let mut latency = Latency::default();
    let mut percentiles_seen = 0;
    for line in text.lines() {
        let line = line.trim();
        if let Some(rest) = line.strip_prefix("weir-lab status ") {
            let mut fields = rest.split_whitespace();
            let status = fields.next().and_then(|field| field.parse::<u16>().ok());
            let count = fields.next().and_then(|field| field.parse::<u64>().ok());
            match (status, count) {
                (Some(status), Some(count)) => {
                    *output.statuses.entry(status).or_insert(0) += count;
                }
                _ => bail!("bad status line: {line}"),
            }
        } else if line.contains(" requests in ") {
            // "314066 requests in 2.00s, 27.25MB read"
            let mut fields = line.split_whitespace();
            output.requests = fields
                .next()
                .and_then(|field| field.parse().ok())
                .with_context(|| format!("bad requests line: {line}"))?;
            let duration = fields
                .nth(2)
                .map(|field| field.trim_end_matches(','))
                .with_context(|| format!("bad requests line: {line}"))?;
            output.seconds = parse_wrk_duration(duration)
                .with_context(|| format!("bad duration in: {line}"))?
                .as_secs_f64();
            saw_requests = true;
        } else if let Some(rest) = line.strip_prefix("Requests/sec:") {
            output.requests_per_second = rest
                .trim()
                .parse()
                .with_context(|| format!("bad Requests/sec line: {line}"))?;
        } else if let Some(rest) = line.strip_prefix("Socket errors:") {
            // "Socket errors: connect 0, read 0, write 0, timeout 12"
            for part in rest.split(',') {
                let mut fields = part.split_whitespace();
                let name = fields.next().unwrap_or_default();
                let value: u64 = fields
                    .next()
                    .and_then(|field| field.parse().ok())
                    .with_context(|| format!("bad socket errors line: {line}"))?;
                match name {
                    "connect" => output.errors.connect = value,
                    "read" => output.errors.read = value,
                    "write" => output.errors.write = value,
                    "timeout" => output.errors.timeout = value,
                    _ => bail!("unknown socket error kind {name:?} in: {line}"),
                }
            }
        } else if let Some(rest) = line.strip_prefix("Non-2xx or 3xx responses:") {
            output.non_2xx = rest
                .trim()
                .parse()
                .with_context(|| format!("bad non-2xx line: {line}"))?;
        } else if let Some((percent, value)) = line.split_once('%') {
            let target = match percent.trim() {
                "50" => &mut latency.p50_ms,
                "90" => &mut latency.p90_ms,
                "99" => &mut latency.p99_ms,
                _ => continue,
            };
            // Only the "Latency Distribution" block has lines that are a bare percentile and a time.
            if let Some(duration) = parse_wrk_duration(value.trim()) {
                *target = duration.as_secs_f64() * 1000.0;
                percentiles_seen += 1;
            }
        }
    }
    if !saw_requests {
        bail!("no \"requests in\" line in wrk output");
    }
    if percentiles_seen == 3 {
        output.latency = Some(latency);
    }
    if output.requests_per_second == 0.0 && output.seconds > 0.0 {
        output.requests_per_second = output.requests as f64 / output.seconds;
    }
    Ok(output)
}

/// wrk prints times as `588.00us`, `1.47ms`, `2.00s`, `1.00m`, `1.00h`.
fn parse_wrk_duration(text: &str) -> Option<Duration> {
    let split = text.find(|c: char| c.is_ascii_alphabetic())?;
    let (number, unit) = text.split_at(split);
    let value: f64 = number.parse().ok()?;
    let seconds = match unit {
        "us" => value / 1_000_000.0,
        "ms" => value / 1000.0,
        "s" => value,
        "m" => value * 60.0,
        "h" => value * 3600.0,
        _ => return None,
    };
    (seconds.is_finite() && seconds >= 0.0).then(|| Duration::from_secs_f64(seconds))
}

/// Parses ApacheBench 2.3 output (with `-q`).
pub fn parse_ab(text: &str) -> anyhow::Result<LoadOutput> {
    let mut output = LoadOutput::default();
    let mut saw_requests = false;
    let mut latency = Latency::default();
    let mut percentiles_seen = 0;
    let mut in_percentiles = false;
    for line in text.lines() {
        let trimmed = line.trim();
        let field = |prefix: &str| -> Option<String> {
            trimmed.strip_prefix(prefix).map(|rest| {
                rest.split_whitespace()
                    .next()
                    .unwrap_or_default()
                    .to_string()
            })
        };
        if let Some(value) = field("Complete requests:") {
            output.requests = value
                .parse()
                .with_context(|| format!("bad line: {trimmed}"))?;
            saw_requests = true;
        } else if let Some(value) = field("Failed requests:") {
            output.errors.failed = value
                .parse()
                .with_context(|| format!("bad line: {trimmed}"))?;
        } else if let Some(value) = field("Non-2xx responses:") {
            output.non_2xx = value
                .parse()
                .with_context(|| format!("bad line: {trimmed}"))?;
        } else if let Some(value) = field("Time taken for tests:") {
            output.seconds = value
                .parse()
                .with_context(|| format!("bad line: {trimmed}"))?;
        } else if let Some(value) = field("Requests per second:") {
            output.requests_per_second = value
                .parse()
                .with_context(|| format!("bad line: {trimmed}"))?;
        } else if trimmed.starts_with("Percentage of the requests served") {
            in_percentiles = true;
        } else if in_percentiles {
            if let Some((percent, value)) = trimmed.split_once('%') {
                let milliseconds: Option<f64> = value
                    .split_whitespace()
                    .next()
                    .and_then(|field| field.parse().ok());
                let target = match percent.trim() {
                    "50" => &mut latency.p50_ms,
                    "90" => &mut latency.p90_ms,
                    "99" => &mut latency.p99_ms,
                    _ => continue,
                };
                if let Some(milliseconds) = milliseconds {
                    *target = milliseconds;
                    percentiles_seen += 1;
                }
            }
        }
    }
    if !saw_requests {
        bail!("no \"Complete requests\" line in ab output");
    }
    if percentiles_seen == 3 {
        output.latency = Some(latency);
    }
    Ok(output)
}

#[cfg(test)]
mod tests;
