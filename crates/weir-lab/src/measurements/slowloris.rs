//! The slowloris measurement (issue 8, and issue 16 for HTTP/2): the normal client's load
//! without the attack (the baseline), then with thousands of slow connections open
//! (`robustness::Attack`), both judged by the guard; the record's output is the run under attack.

use std::thread;
use std::time::{Duration, Instant};

use crate::components::{RunningApp, RunningGateway};
use crate::guard;
use crate::load;
use crate::measurement::{At, Context, Measurement};
use crate::measurements::load::measure_load;
use crate::record::{Record, SlowlorisResult, Verdict};
use crate::robustness;
use crate::scenario::SlowClients;

/// This many connections of the kind attack the gateway while the normal client measures.
#[derive(Debug, Clone, Copy)]
pub struct Slowloris {
    pub connections: u32,
    pub clients: SlowClients,
}

impl Measurement for Slowloris {
    /// The normal client's load without the attack, then with it (the record's output); the
    /// guard judges both.
    fn measure(
        &self,
        context: &Context,
        at: At,
        gateway: Option<&mut RunningGateway>,
        apps: &mut [RunningApp],
    ) -> Record {
        let Some(gateway) = gateway else {
            return at.void("the slowloris measurement needs a gateway".to_string());
        };
        let (cell, round) = (at.cell, at.round);
        let (connections, clients) = (self.connections, self.clients);
        let url = gateway.url(&cell.path);
        if round == 0 && !context.settings.quick {
            // As the load scenarios' warm-up: lazy pools and caches are the same afterwards.
            let _ = load::run(
                cell.tool,
                &url,
                context.settings.duration.min(Duration::from_secs(2)),
                None,
            );
        }
        let baseline = load::run(cell.tool, &url, context.settings.duration, None);
        let attack =
            robustness::Attack::start(gateway.addr, connections, Duration::from_secs(1), clients);
        // Let the attack open its connections (a loopback connect is quick) before measuring.
        let opening = Instant::now();
        while attack.open() < u64::from(connections) && opening.elapsed() < Duration::from_secs(30)
        {
            thread::sleep(Duration::from_millis(100));
        }
        let attackers_open = attack.open();
        let mut record = measure_load(context, at, gateway, apps, |run, _| {
            (run(context.settings.duration), None)
        });
        let attackers_closed = attack.closed();
        attack.stop();
        let baseline_rps = match baseline {
            Ok(output) => {
                if let Verdict::Void(reasons) = guard::judge(&output, cell.expect) {
                    record.verdict = record
                        .verdict
                        .void_with(format!("baseline: {}", reasons.join("; ")));
                }
                output.requests_per_second
            }
            Err(error) => {
                record.verdict = record.verdict.void_with(format!("baseline: {error:#}"));
                0.0
            }
        };
        if attackers_open < u64::from(connections) / 2 {
            record.verdict = record.verdict.void_with(format!(
                "the attack opened only {attackers_open} of {connections} connections"
            ));
        }
        let kind = match clients {
            SlowClients::Http1 => "slow",
            SlowClients::Http2 => "slow HTTP/2",
        };
        record.tool = format!(
            "{} beside {connections} {kind} connections",
            cell.tool.label()
        );
        record.slowloris = Some(SlowlorisResult {
            baseline_rps,
            attackers_open,
            attackers_closed,
        });
        record
    }
}
