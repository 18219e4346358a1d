//! An engine program in a child process, spoken to one line at a time: what the
//! UCI and Hub clients share.
//!
//! The child's output is read on its own thread into a channel, so that every wait
//! has a deadline: an engine that hangs or dies costs its caller a timeout, never a
//! blocked match. Dropping the process sends `quit` and kills a child that does not
//! exit promptly.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// How long a child may take to exit after `quit` before it is killed.
const QUIT_GRACE: Duration = Duration::from_millis(300);

/// Why a line could not be sent or awaited; the UCI and Hub errors are made from it
/// (`From`), each in its protocol's words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Silence {
    /// The engine closed its output or its input (it exited or crashed).
    Exited {
        /// The engine's name.
        name: String,
        /// What the client was waiting for.
        doing: &'static str,
    },
    /// No awaited line came before the deadline.
    Timeout {
        /// The engine's name.
        name: String,
        /// What the client was waiting for.
        doing: &'static str,
        /// How long the client waited.
        waited: Duration,
    },
}

/// A running engine program with its output arriving line by line.
#[derive(Debug)]
pub(crate) struct EngineProcess {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// The engine's name for messages: its program until it tells its own.
    name: String,
}

impl EngineProcess {
    /// Starts `command` (a program and its arguments, split at white space; no
    /// shell) with piped input and output, named after its program.
    ///
    /// # Errors
    ///
    /// The reason, when the command is empty or the process cannot start.
    pub(crate) fn spawn(command: &str) -> Result<EngineProcess, String> {
        let mut words = command.split_whitespace();
        let program = words.next().ok_or("the command is empty")?;
        let mut child = Command::new(program)
            .args(words)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| e.to_string())?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err("no pipes to the process".to_owned());
        };
        let (sender, lines) = channel();
        // The reader ends when the engine closes its output; the channel then reports
        // the engine gone to whoever waits.
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        Ok(EngineProcess {
            child,
            stdin,
            lines,
            name: program.to_owned(),
        })
    }

    /// The engine's name: its program, or the name it gave for itself.
    pub(crate) fn name(&self) -> &str {
        &self.name
    }

    /// Names the engine from now on (as it introduced itself).
    pub(crate) fn set_name(&mut self, name: String) {
        self.name = name;
    }

    /// Writes `line` and a newline, flushed, while `doing` something.
    ///
    /// # Errors
    ///
    /// [`Silence::Exited`] if the engine no longer reads its input.
    pub(crate) fn send(&mut self, line: &str, doing: &'static str) -> Result<(), Silence> {
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .map_err(|_| Silence::Exited {
                name: self.name.clone(),
                doing,
            })
    }

    /// Reads lines (trimmed) until one whose first word is `token`, handing every
    /// line, that one included, to `seen`.
    ///
    /// # Errors
    ///
    /// [`Silence::Timeout`] when `timeout` passes first, [`Silence::Exited`] when
    /// the engine closes its output first.
    pub(crate) fn wait_for(
        &mut self,
        token: &str,
        timeout: Duration,
        doing: &'static str,
        mut seen: impl FnMut(&str),
    ) -> Result<(), Silence> {
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    let line = line.trim();
                    seen(line);
                    if line.split_whitespace().next() == Some(token) {
                        return Ok(());
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    return Err(Silence::Timeout {
                        name: self.name.clone(),
                        doing,
                        waited: timeout,
                    });
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(Silence::Exited {
                        name: self.name.clone(),
                        doing,
                    });
                }
            }
        }
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        let _ = self.send("quit", "quitting");
        // A polite engine exits at once; one that does not is killed.
        let deadline = Instant::now() + QUIT_GRACE;
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_come_back_until_the_token() {
        let Ok(mut process) = EngineProcess::spawn("cat") else {
            eprintln!("note: cat cannot be started; skipping");
            return;
        };
        assert_eq!(process.name(), "cat");
        process.send("hello world", "testing").expect("cat reads");
        process.send("  ready now ", "testing").expect("cat reads");
        let mut seen = Vec::new();
        process
            .wait_for("ready", Duration::from_secs(5), "testing", |l| {
                seen.push(l.to_owned());
            })
            .expect("cat echoes");
        assert_eq!(seen, ["hello world", "ready now"]);
        process.set_name("Echo".to_owned());
        assert_eq!(
            process.wait_for("never", Duration::from_millis(50), "waiting", |_| {}),
            Err(Silence::Timeout {
                name: "Echo".to_owned(),
                doing: "waiting",
                waited: Duration::from_millis(50)
            })
        );
    }

    #[test]
    fn a_finished_program_is_exited_and_bad_commands_are_refused() {
        let mut process = EngineProcess::spawn("true").expect("true starts");
        assert_eq!(
            process.wait_for("x", Duration::from_secs(5), "starting", |_| {}),
            Err(Silence::Exited {
                name: "true".to_owned(),
                doing: "starting"
            })
        );
        assert_eq!(
            EngineProcess::spawn(" ").err().as_deref(),
            Some("the command is empty")
        );
        assert!(EngineProcess::spawn("/nonexistent/engine").is_err());
    }
}
