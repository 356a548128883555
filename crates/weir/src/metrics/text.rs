//! The lines of the Prometheus text format (version 0.0.4) every family is written with: `# HELP`
//! and `# TYPE`, and one sample with its labels escaped. Shared by `metrics.rs` and its
//! children, which cannot import their parent without a circle.

use std::fmt::Write as _;

/// `# HELP` and `# TYPE` lines. Help texts are constants without backslashes or newlines, the
/// two characters the format would need escaped there.
pub(super) fn family(out: &mut String, name: &str, kind: &str, help: &str) {
    debug_assert!(!help.contains(['\\', '\n']));
    let _ = writeln!(out, "# HELP {name} {help}");
    let _ = writeln!(out, "# TYPE {name} {kind}");
}

pub(super) fn sample(out: &mut String, name: &str, labels: &[(&str, &str)], value: u64) {
    write_series(out, name, labels);
    let _ = writeln!(out, " {value}");
}

pub(super) fn sample_f64(out: &mut String, name: &str, labels: &[(&str, &str)], value: f64) {
    write_series(out, name, labels);
    let _ = writeln!(out, " {value}");
}

fn write_series(out: &mut String, name: &str, labels: &[(&str, &str)]) {
    out.push_str(name);
    if labels.is_empty() {
        return;
    }
    out.push('{');
    for (index, (label, value)) in labels.iter().enumerate() {
        if index > 0 {
            out.push(',');
        }
        out.push_str(label);
        out.push_str("=\"");
        escape_label_value(out, value);
        out.push('"');
    }
    out.push('}');
}

/// Label values escape backslash, double quote and line feed (text format 0.0.4).
fn escape_label_value(out: &mut String, value: &str) {
    for character in value.chars() {
        match character {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            other => out.push(other),
        }
    }
}
