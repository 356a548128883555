//! What a finished run means for weir-lab's exit status. A void cell of a peer (nginx, HAProxy,
//! the Python gateway) can be the finding: the guard caught the peer failing under the load. A
//! void cell of weir is a broken harness or a broken gateway, so the `--quick` run CI makes fails
//! on it; `--strict` fails on any void cell.

use crate::record::Record;
use crate::scenario::is_weir;

/// How many void measurements a failure names; voids.md has them all.
const NAMED: usize = 5;

/// Why a finished run must exit non-zero, as a message for the console; `None` when it passes.
/// `quick` and `strict` are the run's `--quick` and `--strict`.
pub fn failure(records: &[Record], quick: bool, strict: bool) -> Option<String> {
    let void: Vec<&Record> = records
        .iter()
        .filter(|record| !record.verdict.is_valid())
        .collect();
    let weir: Vec<&Record> = void
        .iter()
        .copied()
        .filter(|record| is_weir(&record.gateway))
        .collect();
    if quick && !weir.is_empty() {
        let mut message = format!(
            "{} of weir's measurements are void (a broken harness or a broken gateway):",
            weir.len()
        );
        for record in weir.iter().take(NAMED) {
            message.push_str(&format!(
                "\n  {} / {} / {} [{}] round {}: {}",
                record.scenario,
                record.group,
                record.gateway,
                record.variant,
                record.round + 1,
                record.verdict
            ));
        }
        if weir.len() > NAMED {
            message.push_str(&format!("\n  and {} more", weir.len() - NAMED));
        }
        return Some(message);
    }
    if strict && !void.is_empty() {
        return Some(format!("{} void measurements (--strict)", void.len()));
    }
    None
}

#[cfg(test)]
mod tests;
