//! Starting an external server for a test: stdin closed, stdout and stderr into a log file in
//! the test's temp dir, and a spawn failure that says which Debian package to install.

use std::fs::File;
use std::io;
use std::path::Path;
use std::process::{Child, Command, Stdio};

/// Spawns `command` with its output in `log`. `package` names what provides the program.
pub fn spawn_logged(command: &mut Command, log: &Path, package: &str) -> io::Result<Child> {
    let output = File::create(log)?;
    command
        .stdin(Stdio::null())
        .stdout(output.try_clone()?)
        .stderr(output)
        .spawn()
        .map_err(|error| {
            let program = command.get_program().to_string_lossy().into_owned();
            io::Error::new(
                error.kind(),
                format!("cannot run {program} (apt-get install -y {package}): {error}"),
            )
        })
}
