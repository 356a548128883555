//! weir-lab-splice: what `splice(2)` would save on an untransformed body, measured on its own:
//! a proxy thread moves BYTES from one loopback TCP connection to another, once with `read` and
//! `write` through a user-space buffer (what weir does, at 64 KiB), once with `splice` through a
//! pipe (the kernel moves the pages). A writer thread feeds the first connection, a reader thread
//! drains the second; the proxy thread's own CPU time (`getrusage(RUSAGE_THREAD)`) is what is
//! compared, over ROUNDS interleaved rounds.
//!
//! Usage: `weir-lab-splice [MIB] [ROUNDS]`   (default 2048 MiB, 5 rounds)

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::os::fd::AsFd;
use std::time::{Duration, Instant};

use anyhow::Context;
use nix::fcntl::{splice, SpliceFFlags};
use nix::sys::resource::{getrusage, UsageWho};

const CHUNK: usize = 64 * 1024;

/// A connected loopback pair: (the side written to, the side read from).
fn pair() -> anyhow::Result<(TcpStream, TcpStream)> {
    let listener = TcpListener::bind("127.0.0.1:0")?;
    let writer = TcpStream::connect(listener.local_addr()?)?;
    let (reader, _) = listener.accept()?;
    Ok((writer, reader))
}

/// The calling thread's user + system CPU time.
fn thread_cpu() -> anyhow::Result<Duration> {
    let usage = getrusage(UsageWho::RUSAGE_THREAD)?;
    let user = usage.user_time();
    let system = usage.system_time();
    let micros = (user.tv_sec() + system.tv_sec()) * 1_000_000 + user.tv_usec() + system.tv_usec();
    Ok(Duration::from_micros(
        u64::try_from(micros).unwrap_or_default(),
    ))
}

/// Moves `bytes` through a proxy thread using `splicing` or copies; returns the proxy thread's
/// CPU time and the wall time.
fn run(bytes: u64, splicing: bool) -> anyhow::Result<(Duration, Duration)> {
    let (mut source, from) = pair()?;
    let (to, mut sink) = pair()?;
    let feeder = std::thread::spawn(move || -> std::io::Result<()> {
        let block = vec![7u8; CHUNK];
        let mut left = bytes;
        while left > 0 {
            let take = left.min(CHUNK as u64) as usize;
            source.write_all(&block[..take])?;
            left -= take as u64;
        }
        Ok(())
    });
    let drainer = std::thread::spawn(move || -> std::io::Result<u64> {
        let mut block = vec![0u8; CHUNK];
        let mut total = 0;
        loop {
            match sink.read(&mut block)? {
                0 => return Ok(total),
                read => total += read as u64,
            }
        }
    });
    let started = Instant::now();
    let proxy = std::thread::spawn(move || -> anyhow::Result<Duration> {
        let before = thread_cpu()?;
        let (mut from, mut to) = (from, to);
        let mut left = bytes;
        if splicing {
            let (pipe_read, pipe_write) = nix::unistd::pipe()?;
            while left > 0 {
                let take = left.min(CHUNK as u64) as usize;
                let moved = splice(
                    from.as_fd(),
                    None,
                    pipe_write.as_fd(),
                    None,
                    take,
                    SpliceFFlags::SPLICE_F_MOVE,
                )?;
                if moved == 0 {
                    break;
                }
                let mut in_pipe = moved;
                while in_pipe > 0 {
                    in_pipe -= splice(
                        pipe_read.as_fd(),
                        None,
                        to.as_fd(),
                        None,
                        in_pipe,
                        SpliceFFlags::SPLICE_F_MOVE,
                    )?;
                }
                left -= moved as u64;
            }
        } else {
            let mut block = vec![0u8; CHUNK];
            while left > 0 {
                let read = from.read(&mut block)?;
                if read == 0 {
                    break;
                }
                to.write_all(&block[..read])?;
                left -= read as u64;
            }
        }
        drop(to);
        Ok(thread_cpu()? - before)
    });
    let cpu = proxy.join().expect("proxy thread")?;
    let wall = started.elapsed();
    feeder.join().expect("feeder thread")?;
    let drained = drainer.join().expect("drainer thread")?;
    anyhow::ensure!(drained == bytes, "moved {drained} of {bytes} bytes");
    Ok((cpu, wall))
}

fn main() -> anyhow::Result<()> {
    let mut args = std::env::args().skip(1);
    let mib: u64 = args.next().map_or(Ok(2048), |a| a.parse()).context("MIB")?;
    let rounds: u32 = args.next().map_or(Ok(5), |a| a.parse()).context("ROUNDS")?;
    let bytes = mib * 1024 * 1024;
    let mut ratios = Vec::new();
    for round in 1..=rounds {
        let (copy_cpu, copy_wall) = run(bytes, false)?;
        let (splice_cpu, splice_wall) = run(bytes, true)?;
        let per_mib = |cpu: Duration| cpu.as_secs_f64() * 1e6 / mib as f64;
        println!(
            "round {round}: copy {:.1} us CPU/MiB ({:.0} MiB/s), splice {:.1} us CPU/MiB ({:.0} MiB/s), splice/copy CPU {:.2}",
            per_mib(copy_cpu),
            mib as f64 / copy_wall.as_secs_f64(),
            per_mib(splice_cpu),
            mib as f64 / splice_wall.as_secs_f64(),
            splice_cpu.as_secs_f64() / copy_cpu.as_secs_f64()
        );
        ratios.push(splice_cpu.as_secs_f64() / copy_cpu.as_secs_f64());
    }
    ratios.sort_by(f64::total_cmp);
    println!(
        "median splice/copy CPU ratio over {rounds} rounds: {:.2}",
        ratios[ratios.len() / 2]
    );
    Ok(())
}
