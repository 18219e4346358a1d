//! Running `tablero play` with a script on its standard input, shared by the play
//! test files.

use std::io::Write;
use std::process::{Command, Stdio};

use super::common::{stderr, stdout};

/// Runs `tablero play` with `args` and `script` as its standard input, after
/// `configure` sets the environment: (stdout, stderr, success).
pub(crate) fn play_with_input(
    args: &[&str],
    script: &str,
    configure: impl FnOnce(&mut Command) -> &mut Command,
) -> (String, String, bool) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_tablero"));
    command
        .arg("play")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = configure(&mut command).spawn().expect("tablero starts");
    child
        .stdin
        .take()
        .expect("piped")
        .write_all(script.as_bytes())
        .expect("the script is written");
    let output = child.wait_with_output().expect("tablero ends");
    (stdout(&output), stderr(&output), output.status.success())
}
