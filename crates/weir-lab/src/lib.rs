//! The benchmark lab: weir beside nginx, HAProxy, a Python gateway, a static hyper server and the
//! app reached directly, in the seed studies' scenarios. Interleaved rounds, medians, ratios to
//! nginx in the same round, and a guard that voids any run with an unexpected status or error.
//!
//! Its modules stand on floors and import only from floors below (ARCHITECTURE.md names them):
//! tools (`process`, `procfs`, `load`, `redis`, `syscalls`); vocabulary (`spec`, `record`,
//! `guard`, `scenario`); the plans (`scenarios`); components, the processes (`reload`,
//! `configs`, `components`, `robustness`); the measurements (`measurement` and one file per
//! kind under `measurements`); the `runner`; the output (`summary`, `chart`, `report`,
//! `readme`, `outcome`, `env`); and `main` on top.

pub mod chart;
pub mod components;
pub mod configs;
pub mod env;
pub mod guard;
pub mod load;
pub mod measurement;
pub mod measurements;
pub mod outcome;
pub mod process;
pub mod procfs;
pub mod readme;
pub mod record;
pub mod redis;
pub mod reload;
pub mod report;
pub mod robustness;
pub mod runner;
pub mod scenario;
pub mod scenarios;
pub mod spec;
pub mod summary;
pub mod syscalls;
