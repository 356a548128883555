//! The kinds of measurement, one file each, every one a [`crate::measurement::Measurement`]:
//! `load` (a load run), `idle` (memory per idle connection), `slowloris` (a load run beside a
//! slow-client attack), `soak` (minutes of mixed traffic, sampled) and `reloads` (a load run
//! while the gateway is reloaded).

pub mod idle;
pub mod load;
pub mod reloads;
pub mod slowloris;
pub mod soak;
