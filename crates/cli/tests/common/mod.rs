//! Running the built `tablero` binary, shared by the command-line test files.

use std::process::{Command, Output};

/// Runs `tablero` with `args` and waits for it.
pub(crate) fn tablero(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tablero"))
        .args(args)
        .output()
        .expect("binary runs")
}

/// Standard output as text.
pub(crate) fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// Standard error as text.
pub(crate) fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}
