//! What the run directory's README records about the machine and every component's version.

use std::path::Path;
use std::process::Command;

/// Runs `program args` and returns its first non-empty output line (stdout, else stderr).
fn first_line(program: &Path, args: &[&str]) -> String {
    match Command::new(program).args(args).output() {
        Ok(output) => {
            let stdout = String::from_utf8_lossy(&output.stdout);
            let stderr = String::from_utf8_lossy(&output.stderr);
            stdout
                .lines()
                .chain(stderr.lines())
                .map(str::trim)
                .find(|line| !line.is_empty())
                .unwrap_or("(no output)")
                .to_string()
        }
        Err(error) => format!("not available ({error})"),
    }
}

/// (component, version) pairs for the README.
pub fn versions(root: &Path, weir: &Path) -> Vec<(String, String)> {
    let mut versions = Vec::new();
    let git = |args: &[&str]| -> String {
        Command::new("git")
            .arg("-C")
            .arg(root)
            .args(args)
            .output()
            .map(|output| String::from_utf8_lossy(&output.stdout).trim().to_string())
            .unwrap_or_default()
    };
    let revision = git(&["rev-parse", "HEAD"]);
    let dirty = !git(&["status", "--porcelain", "--untracked-files=no"]).is_empty();
    versions.push((
        "weir git revision".to_string(),
        format!(
            "{revision}{}",
            if dirty {
                " (with uncommitted changes)"
            } else {
                ""
            }
        ),
    ));
    versions.push((
        "weir".to_string(),
        format!("{} ({})", first_line(weir, &["--version"]), weir.display()),
    ));
    versions.push((
        "nginx".to_string(),
        first_line(&weir_testkit::nginx::binary(), &["-v"]),
    ));
    versions.push((
        "haproxy".to_string(),
        first_line(&crate::components::haproxy_binary(), &["-v"]),
    ));
    versions.push(("wrk".to_string(), first_line(Path::new("wrk"), &["-v"])));
    versions.push(("ab".to_string(), first_line(Path::new("ab"), &["-V"])));
    for venv in [".venv", ".venv-standard"] {
        let python = root.join(venv).join("bin/python");
        versions.push((
            format!("{venv} python"),
            first_line(&python, &["--version"]),
        ));
        let script = "import importlib.metadata as m\n\
             names = ['fastapi', 'starlette', 'uvicorn', 'gunicorn', 'flask', 'httpx', 'aiohttp', 'h11', 'uvloop', 'httptools']\n\
             out = []\n\
             for n in names:\n\
             \x20   try: out.append(n + ' ' + m.version(n))\n\
             \x20   except m.PackageNotFoundError: pass\n\
             print(', '.join(out))";
        versions.push((
            format!("{venv} packages"),
            first_line(&python, &["-c", script]),
        ));
    }
    versions
}

/// (what, value) pairs describing the machine.
pub fn machine() -> Vec<(String, String)> {
    let read = |path: &str| std::fs::read_to_string(path).unwrap_or_default();
    let cpuinfo = read("/proc/cpuinfo");
    let model = cpuinfo
        .lines()
        .find_map(|line| line.strip_prefix("model name"))
        .map(|rest| rest.trim_start_matches([' ', '\t', ':']).to_string())
        .unwrap_or_else(|| "unknown".to_string());
    let cores = std::thread::available_parallelism()
        .map(|cores| cores.get().to_string())
        .unwrap_or_else(|_| "unknown".to_string());
    let memory = read("/proc/meminfo")
        .lines()
        .find_map(|line| line.strip_prefix("MemTotal:"))
        .and_then(|rest| rest.split_whitespace().next()?.parse::<u64>().ok())
        .map(|kib| format!("{:.1} GiB", kib as f64 / 1024.0 / 1024.0))
        .unwrap_or_else(|| "unknown".to_string());
    vec![
        ("host".to_string(), hostname()),
        (
            "kernel".to_string(),
            read("/proc/sys/kernel/osrelease").trim().to_string(),
        ),
        ("cpu".to_string(), model),
        ("cores".to_string(), cores),
        ("memory".to_string(), memory),
    ]
}

pub fn hostname() -> String {
    let name = std::fs::read_to_string("/proc/sys/kernel/hostname").unwrap_or_default();
    let name = name.trim();
    if name.is_empty() {
        "host".to_string()
    } else {
        name.to_string()
    }
}

/// Today's date (UTC) as yyyy-mm-dd, from the system clock.
pub fn today() -> String {
    let seconds = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|elapsed| elapsed.as_secs())
        .unwrap_or(0);
    let (year, month, day) = civil_from_days((seconds / 86_400) as i64);
    format!("{year:04}-{month:02}-{day:02}")
}

/// Days since 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's algorithm).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z.rem_euclid(146_097);
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_index = (5 * day_of_year + 2) / 153;
    let day = (day_of_year - (153 * month_index + 2) / 5 + 1) as u32;
    let month = if month_index < 10 {
        month_index + 3
    } else {
        month_index - 9
    } as u32;
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::civil_from_days;

    #[test]
    fn dates_from_days() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(19_782), (2024, 2, 29));
        assert_eq!(civil_from_days(20_454), (2026, 1, 1));
    }
}
