//! The soak measurement (issue 8): minutes of mixed traffic through weir (`robustness::soak`),
//! its RSS and open descriptors sampled throughout and its pool counters read at the end; void
//! on any unexpected answer or a component that died.

use std::time::Duration;

use crate::components::{RunningApp, RunningGateway};
use crate::measurement::{log_tail, At, Context, Measurement};
use crate::procfs;
use crate::record::{Record, Verdict};
use crate::robustness;

/// One run of the soak's traffic for this long, whatever the rounds (`Measure::rounds`).
#[derive(Debug, Clone, Copy)]
pub struct Soak {
    pub duration: Duration,
}

impl Measurement for Soak {
    fn measure(
        &self,
        _context: &Context,
        at: At,
        gateway: Option<&mut RunningGateway>,
        apps: &mut [RunningApp],
    ) -> Record {
        let Some(gateway) = gateway else {
            return at.void("the soak needs a gateway".to_string());
        };
        let mut record = at.void(String::new());
        record.tool = format!("mixed traffic for {} s", self.duration.as_secs());
        let (Some(component), Some(admin)) = (&gateway.component, gateway.admin) else {
            record.verdict = Verdict::Void(vec![
                "the soak needs weir with its admin listener".to_string()
            ]);
            return record;
        };
        let result = robustness::soak(gateway.addr, admin, component.pid(), self.duration);
        let mut verdict = Verdict::Valid;
        if !result.unexpected.is_empty() {
            verdict = verdict.void_with(format!(
                "{} unexpected answers or errors, first: {}",
                result.unexpected.len(),
                result.unexpected[0]
            ));
        }
        if let Some(component) = &mut gateway.component {
            if let Err(error) = component.check_alive() {
                verdict = verdict.void_with(format!("{error:#}"));
            }
        }
        for app in apps.iter_mut() {
            if let Err(error) = app.component.check_alive() {
                verdict = verdict.void_with(format!("{error:#}"));
            }
        }
        if !verdict.is_valid() {
            if let Some(component) = &gateway.component {
                record.evidence = log_tail(component);
            }
        }
        record.verdict = verdict;
        record.gateway_peak_rss_kib = gateway
            .component
            .as_ref()
            .map(|component| procfs::usage(&[component.pid()]).peak_rss_kib);
        record.soak = Some(result);
        record
    }
}
