//! The idle-connections measurement: memory per idle keep-alive client connection, each cell on a
//! gateway (or, for a direct cell, an app) of its own, started afresh for every round.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::thread;
use std::time::Duration;

use crate::components::{self, RunningApp, RunningGateway};
use crate::guard;
use crate::measurement::{log_tail, At, Context, Measurement};
use crate::procfs::{self, Usage};
use crate::record::{IdleResult, Record};
use crate::scenario::Arrival;
use crate::spec::Gateway;

/// Hold this many idle connections through each cell's gateway, opened as `arrival` says, and
/// read its memory.
#[derive(Debug, Clone, Copy)]
pub struct Idle {
    pub connections: u32,
    pub arrival: Arrival,
}

impl Measurement for Idle {
    fn shares_gateways(&self) -> bool {
        false
    }

    /// One idle-connections measurement on a process of its own: starts the cell's gateway (for
    /// a direct cell, a fresh instance of its app, which is then the measured server), holds
    /// the connections idle through it, and stops it. A fresh process per round means no round
    /// inherits the memory an earlier round's connections left behind, nor sees it handed back
    /// to the system while it measures.
    fn measure(
        &self,
        context: &Context,
        at: At,
        _gateway: Option<&mut RunningGateway>,
        apps: &mut [RunningApp],
    ) -> Record {
        let cell = at.cell;
        let void = |reason: String| at.void(reason);
        let Some(app) = apps.iter().find(|app| app.spec.id == cell.gateway.app) else {
            return void(format!("no app {} in the group", cell.gateway.app));
        };
        if cell.gateway.gateway == Gateway::Direct {
            let mut fresh = match components::start_app(context.env, &app.spec, None) {
                Ok(fresh) => fresh,
                Err(error) => return void(format!("app failed to start: {error:#}")),
            };
            let mut record = hold_idle(at, fresh.tcp, fresh.component.pid(), self);
            if let Err(error) = fresh.component.check_alive() {
                record.verdict = record.verdict.void_with(format!("{error:#}"));
            }
            return record;
        }
        let mut gateway = match components::start_gateway(context.env, &cell.gateway, app) {
            Ok(gateway) => gateway,
            Err(error) => return void(format!("gateway failed to start: {error:#}")),
        };
        let Some(component) = gateway.component.as_mut() else {
            return void("a gateway with no process".to_string());
        };
        let mut record = hold_idle(at, gateway.addr, component.pid(), self);
        if let Err(error) = component.check_alive() {
            record.verdict = record.verdict.void_with(format!("{error:#}"));
        }
        if !record.verdict.is_valid() {
            record.evidence = log_tail(component);
        }
        record
    }
}

/// Opens `idle.connections` keep-alive connections to `addr`, one request each, as its arrival
/// says, holds them idle, and reads the memory of the tree rooted at `measured` before and after.
fn hold_idle(at: At, addr: SocketAddr, measured: u32, idle: &Idle) -> Record {
    let connections = idle.connections;
    // Let the fresh process finish starting (nginx's workers, Python's imports) before the
    // first reading.
    thread::sleep(Duration::from_millis(500));
    let before: Usage = procfs::usage(&[measured]);
    let mut streams = Vec::with_capacity(connections as usize);
    let mut reasons = Vec::new();
    let batch = match idle.arrival {
        Arrival::OneAtATime => 1,
        Arrival::Burst(batch) => batch.max(1),
    };
    let mut index = 0;
    'batches: while index < connections {
        let size = batch.min(connections - index);
        // All of the batch connect and send before any answer is read.
        let mut sent = Vec::with_capacity(size as usize);
        for _ in 0..size {
            match send_request(addr, &at.cell.path) {
                Ok(stream) => sent.push(stream),
                Err(error) => {
                    reasons.push(format!("connection {index}: {error}"));
                    break 'batches;
                }
            }
            index += 1;
        }
        for stream in sent {
            match read_response(stream) {
                Ok((stream, 200)) => streams.push(stream),
                Ok((_, status)) => {
                    reasons.push(format!("a connection of the batch: status {status}"));
                    break 'batches;
                }
                Err(error) => {
                    reasons.push(format!("a connection of the batch: {error}"));
                    break 'batches;
                }
            }
        }
    }
    // Idle connections are what is measured: give the gateway a moment to shrink buffers.
    thread::sleep(Duration::from_secs(1));
    let after = procfs::usage(&[measured]);
    drop(streams);
    let idle = IdleResult {
        connections,
        rss_before_kib: before.rss_kib,
        rss_after_kib: after.rss_kib,
    };
    let mut verdict = guard::judge_idle(&idle);
    for reason in reasons {
        verdict = verdict.void_with(reason);
    }
    Record {
        tool: format!("{connections} idle connections"),
        verdict,
        gateway_peak_rss_kib: Some(after.peak_rss_kib),
        idle: Some(idle),
        ..at.void(String::new())
    }
}

/// Connects and sends one GET.
fn send_request(addr: SocketAddr, path: &str) -> std::io::Result<TcpStream> {
    let mut stream = TcpStream::connect_timeout(&addr, Duration::from_secs(5))?;
    stream.set_nodelay(true)?;
    stream.set_read_timeout(Some(Duration::from_secs(10)))?;
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: weir-lab\r\n\r\n"
    )?;
    Ok(stream)
}

/// Reads the whole response to the request sent (Content-Length bodies only, which every lab
/// upstream sends), and returns the open connection and the status.
fn read_response(mut stream: TcpStream) -> std::io::Result<(TcpStream, u16)> {
    let mut buffer = Vec::with_capacity(1024);
    let mut chunk = [0u8; 4096];
    let invalid =
        |what: &str| std::io::Error::new(std::io::ErrorKind::InvalidData, what.to_string());
    loop {
        let read = stream.read(&mut chunk)?;
        if read == 0 {
            return Err(invalid("closed before a whole response"));
        }
        buffer.extend_from_slice(&chunk[..read]);
        let Some(end) = buffer.windows(4).position(|window| window == b"\r\n\r\n") else {
            continue;
        };
        let head = String::from_utf8_lossy(&buffer[..end]).to_string();
        let status: u16 = head
            .split_whitespace()
            .nth(1)
            .and_then(|field| field.parse().ok())
            .ok_or_else(|| invalid("no status"))?;
        let length: usize = head
            .lines()
            .find_map(|line| {
                let (name, value) = line.split_once(':')?;
                name.trim()
                    .eq_ignore_ascii_case("content-length")
                    .then(|| value.trim().parse().ok())?
            })
            .ok_or_else(|| invalid("no Content-Length"))?;
        let mut have = buffer.len() - (end + 4);
        while have < length {
            let read = stream.read(&mut chunk)?;
            if read == 0 {
                return Err(invalid("closed mid-body"));
            }
            have += read;
        }
        return Ok((stream, status));
    }
}
