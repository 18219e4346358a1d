//! Lines typed at `tablero play`, read with a deadline so that a flag can fall while
//! a person thinks.

use std::io::{self, BufRead};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::Instant;

/// What waiting for a line gave.
#[derive(Debug)]
pub(crate) enum Read {
    /// A line, without its line end.
    Line(String),
    /// The deadline passed first.
    Timeout,
    /// The input ended.
    End,
}

/// Where lines come from.
pub(crate) trait LineSource {
    /// The next line, waiting until `deadline` at most (for ever without one).
    ///
    /// # Errors
    ///
    /// When reading fails.
    fn next_line(&mut self, deadline: Option<Instant>) -> io::Result<Read>;
}

/// Lines of a reader read on its own thread, so that waiting can end at a deadline.
#[derive(Debug)]
pub(crate) struct ThreadedLines {
    lines: Receiver<io::Result<String>>,
}

impl ThreadedLines {
    /// Reads `input` on a new thread until it ends (the thread ends with it, or with
    /// the program).
    pub(crate) fn spawn(input: impl BufRead + Send + 'static) -> ThreadedLines {
        let (send, lines) = channel();
        std::thread::spawn(move || {
            for line in input.lines() {
                let failed = line.is_err();
                if send.send(line).is_err() || failed {
                    break;
                }
            }
        });
        ThreadedLines { lines }
    }
}

impl LineSource for ThreadedLines {
    fn next_line(&mut self, deadline: Option<Instant>) -> io::Result<Read> {
        let received = match deadline {
            None => self
                .lines
                .recv()
                .map_err(|_| RecvTimeoutError::Disconnected),
            Some(deadline) => self
                .lines
                .recv_timeout(deadline.saturating_duration_since(Instant::now())),
        };
        match received {
            Ok(line) => line.map(Read::Line),
            Err(RecvTimeoutError::Timeout) => Ok(Read::Timeout),
            Err(RecvTimeoutError::Disconnected) => Ok(Read::End),
        }
    }
}

/// Lines of a reader on this thread: every line is there at once (a script, a test),
/// so no deadline passes while waiting.
#[cfg(test)]
#[derive(Debug)]
pub(crate) struct Script<B> {
    lines: io::Lines<B>,
}

#[cfg(test)]
impl<B: BufRead> Script<B> {
    /// The lines of `input`.
    pub(crate) fn new(input: B) -> Script<B> {
        Script {
            lines: input.lines(),
        }
    }
}

#[cfg(test)]
impl<B: BufRead> LineSource for Script<B> {
    fn next_line(&mut self, _deadline: Option<Instant>) -> io::Result<Read> {
        match self.lines.next() {
            Some(line) => line.map(Read::Line),
            None => Ok(Read::End),
        }
    }
}
