//! Graphviz's `dot`, when it is installed: an optional second renderer.

use std::io::Write;
use std::process::{Command, Stdio};

use crate::ReportError;

/// Whether `dot` (Graphviz) can be run.
#[must_use]
pub fn graphviz_available() -> bool {
    Command::new("dot")
        .arg("-V")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// Runs `dot -T<format>` on `dot_text` and returns what it writes (`svg`: an SVG
/// document).
///
/// # Errors
///
/// [`ReportError::Graphviz`] when `dot` is missing, refuses the input or fails.
pub fn graphviz_render(dot_text: &str, format: &str) -> Result<Vec<u8>, ReportError> {
    let failed = |reason: String| ReportError::Graphviz(reason);
    let mut child = Command::new("dot")
        .arg(format!("-T{format}"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| failed(format!("cannot run dot: {e}")))?;
    let mut stdin = child
        .stdin
        .take()
        .ok_or_else(|| failed("no pipe to dot".to_owned()))?;
    let input = dot_text.to_owned();
    // Write from another thread: dot may fill its output pipe before reading all.
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    // Reads standard output and standard error together until dot exits.
    let output = child
        .wait_with_output()
        .map_err(|e| failed(format!("dot failed: {e}")))?;
    let written = writer
        .join()
        .map_err(|_| failed("the writer to dot panicked".to_owned()))?;
    if !output.status.success() {
        return Err(failed(format!(
            "dot refused the graph ({}): {}",
            output.status,
            String::from_utf8_lossy(&output.stderr).trim()
        )));
    }
    written.map_err(|e| failed(format!("cannot write to dot: {e}")))?;
    Ok(output.stdout)
}
