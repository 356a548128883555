//! The benchmark lab: weir beside nginx, HAProxy, a Python gateway, a static hyper server and the
//! app reached directly, in the seed studies' scenarios. Interleaved rounds, medians, ratios to
//! nginx in the same round, and a guard that voids any run with an unexpected status or error.
//!
//! Codemap: `scenarios` (what is measured) -> `runner` (rounds, using `components` to start
//! things and `process` to stop them, `load` to drive wrk/ab, `guard` to judge, `procfs` for CPU
//! and memory) -> `report` and `chart` (the run directory); `robustness` holds the slowloris attack and the
//! soak's traffic, samples and verdicts. `env` records versions and the machine.
//! `reload` is the reload scenario whole: its plan, its gateways' two config versions, the reloads
//! the runner makes during its load runs, and `reloads.md`. `redis` reads the limiter's Redis
//! command counters. `readme` regenerates README's performance section from the kept runs'
//! raw.csv at a git revision. `syscalls` counts a gateway's system calls with `strace -c -f`.

pub mod chart;
pub mod components;
pub mod env;
pub mod guard;
pub mod load;
pub mod process;
pub mod procfs;
pub mod readme;
pub mod redis;
pub mod reload;
pub mod report;
pub mod robustness;
pub mod runner;
pub mod scenario;
pub mod scenarios;
pub mod syscalls;
