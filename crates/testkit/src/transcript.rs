//! Protocol conversations (UCI, Hub) transcribed as data and replayed against an
//! in-process session.
//!
//! Each line of a transcript is one of:
//!
//! - `> <command>`: sent to the session;
//! - `< <pattern>`: the next answer must match. Search progress (answers starting
//!   with the protocol's [`Protocol::progress`] prefix) may come in between and is
//!   skipped; a pattern that itself describes progress is matched against those
//!   lines until one fits. Any other line that does not match fails the transcript.
//! - `! <pattern>`: no answer matching the pattern arrives within 300 ms (answers
//!   read meanwhile are dropped).
//! - `# ...` or blank: a comment.
//!
//! Patterns are globs over the whole line (see [`matches()`]).

use std::path::Path;
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel};
use std::time::{Duration, Instant};

/// How long a `<` line waits for its answer.
pub const ANSWER_TIMEOUT: Duration = Duration::from_secs(10);

/// How long a `!` line listens for an answer that must not come.
pub const SILENCE: Duration = Duration::from_millis(300);

/// How to hold a conversation with one protocol's session.
#[derive(Debug, Clone, Copy)]
pub struct Protocol<S> {
    /// Answers starting with this are search progress (`"info depth "` in UCI,
    /// `"info "` in Hub), which `<` lines skip.
    pub progress: &'static str,
    /// A new session that answers, one line a message, through the sender.
    pub start: fn(Sender<String>) -> S,
    /// Hands one command line to the session; `true` when the session is done
    /// (the command was `quit`).
    pub handle: fn(&mut S, &str) -> bool,
}

/// Whether `line` matches the glob `pattern` as a whole: `*` is any run of
/// characters, `?` any one byte, anything else itself.
///
/// ```
/// use tablero_testkit::transcript::matches;
///
/// assert!(matches("bestmove *", "bestmove e2e4 ponder e7e5"));
/// assert!(!matches("done move=??-??", "done move=32-28 ponder=19-23"));
/// ```
#[must_use]
pub fn matches(pattern: &str, line: &str) -> bool {
    glob(pattern.as_bytes(), line.as_bytes())
}

fn glob(pattern: &[u8], text: &[u8]) -> bool {
    match (pattern.first(), text.first()) {
        (None, None) => true,
        (Some(b'*'), _) => {
            glob(&pattern[1..], text) || (!text.is_empty() && glob(pattern, &text[1..]))
        }
        (Some(b'?'), Some(_)) => glob(&pattern[1..], &text[1..]),
        (Some(p), Some(t)) if p == t => glob(&pattern[1..], &text[1..]),
        _ => false,
    }
}

/// Replays the transcript at `path` against a new session of `protocol`.
///
/// # Errors
///
/// A message `<path>:<line>: <why>` for the first line that does not hold, or the
/// reason the file cannot be read.
pub fn replay<S>(protocol: &Protocol<S>, path: &Path) -> Result<(), String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let (out, answers): (_, Receiver<String>) = channel();
    let mut session = (protocol.start)(out);
    let mut quit = false;
    for (number, line) in text.lines().enumerate() {
        let at = |why: String| format!("{}:{}: {why}", path.display(), number + 1);
        let line = line.trim_end();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let Some(kind) = line.chars().next() else {
            continue;
        };
        let rest = line[kind.len_utf8()..].trim_start();
        match kind {
            '>' => {
                if quit {
                    return Err(at("command after quit".to_owned()));
                }
                quit = (protocol.handle)(&mut session, rest);
            }
            '<' => {
                let deadline = Instant::now() + ANSWER_TIMEOUT;
                loop {
                    let left = deadline.saturating_duration_since(Instant::now());
                    let answer = answers
                        .recv_timeout(left)
                        .map_err(|e| at(format!("waiting for {rest:?}: {e}")))?;
                    if matches(rest, &answer) {
                        break;
                    }
                    if !answer.starts_with(protocol.progress) {
                        return Err(at(format!("expected {rest:?}, got {answer:?}")));
                    }
                }
            }
            '!' => {
                let deadline = Instant::now() + SILENCE;
                loop {
                    let left = deadline.saturating_duration_since(Instant::now());
                    match answers.recv_timeout(left) {
                        Ok(answer) if matches(rest, &answer) => {
                            return Err(at(format!("unexpected {answer:?}")));
                        }
                        Ok(_) => {}
                        Err(RecvTimeoutError::Timeout) => break,
                        Err(RecvTimeoutError::Disconnected) => {
                            return Err(at("the session is gone".to_owned()));
                        }
                    }
                }
            }
            _ => return Err(at(format!("unknown line kind {kind:?}"))),
        }
    }
    Ok(())
}

/// Replays every `*.txt` transcript in `folder`, in name order, against `protocol`.
///
/// # Panics
///
/// Unless the folder holds at least `at_least` transcripts and every one of them
/// replays, naming each failure: this is the body of a test.
pub fn replay_folder<S>(protocol: &Protocol<S>, folder: &Path, at_least: usize) {
    let entries = std::fs::read_dir(folder)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", folder.display()));
    let mut paths: Vec<_> = entries
        .map(|entry| entry.expect("a readable folder entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    paths.sort();
    assert!(paths.len() >= at_least, "transcripts found: {paths:?}");
    let failures: Vec<String> = paths
        .iter()
        .filter_map(|p| replay(protocol, p).err())
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn glob_patterns() {
        assert!(matches("bestmove *", "bestmove e2e4 ponder e7e5"));
        assert!(matches("bestmove ????", "bestmove e2e4"));
        assert!(!matches("bestmove ????", "bestmove e2e4 ponder e7e5"));
        assert!(matches(
            "info * score mate 1 *",
            "info depth 3 score mate 1 nodes 5"
        ));
        assert!(!matches("readyok", "readyok2"));
        assert!(matches("done move=*", "done move=32-28 ponder=19-23"));
        assert!(matches("done move=??-??", "done move=32-28"));
        assert!(matches(
            "info * score=99.99 *",
            "info depth=1 score=99.99 nodes=5"
        ));
        assert!(!matches("ready", "ready2"));
        assert!(matches("*", ""));
        assert!(!matches("?", ""));
    }

    /// An echo session: answers each command with itself, `go` with progress and
    /// then `done`, `quit` by quitting.
    fn echo() -> Protocol<Sender<String>> {
        Protocol {
            progress: "info ",
            start: |out| out,
            handle: |out, line| {
                if line == "go" {
                    let _ = out.send("info depth=1".to_owned());
                    let _ = out.send("done".to_owned());
                } else {
                    let _ = out.send(line.to_owned());
                }
                line == "quit"
            },
        }
    }

    fn replay_text(text: &str) -> Result<(), String> {
        let dir = std::env::temp_dir().join(format!(
            "tablero-transcript-{}-{:?}",
            std::process::id(),
            std::thread::current().id()
        ));
        std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
        let path = dir.join("t.txt");
        std::fs::write(&path, text).map_err(|e| e.to_string())?;
        let result = replay(&echo(), &path);
        let _ = std::fs::remove_dir_all(&dir);
        result
    }

    #[test]
    fn transcripts_pass_and_fail_where_they_should() {
        assert_eq!(
            replay_text("# a comment\n\n> ping\n< ping\n> go\n< done\n"),
            Ok(())
        );
        assert_eq!(replay_text("> go\n< info depth=?\n< done\n"), Ok(()));
        assert_eq!(replay_text("> ping\n! pong\n"), Ok(()));
        let wrong = replay_text("> ping\n< pong\n").expect_err("refused");
        assert!(
            wrong.ends_with(":2: expected \"pong\", got \"ping\""),
            "{wrong}"
        );
        let unwanted = replay_text("> ping\n! p*\n").expect_err("refused");
        assert!(unwanted.contains(":2: unexpected \"ping\""), "{unwanted}");
        let late = replay_text("> quit\n> ping\n").expect_err("refused");
        assert!(late.contains(":2: command after quit"), "{late}");
        let odd = replay_text("? what\n").expect_err("refused");
        assert!(odd.contains("unknown line kind '?'"), "{odd}");
    }
}
