//! Hub conversations transcribed as data (`tests/sessions/*.txt`) and replayed
//! against an in-process [`Session`].
//!
//! Each line of a transcript is one of:
//!
//! - `> <command>`: sent to the session;
//! - `< <pattern>`: the next answer must match. Search progress (`info depth=...`)
//!   may come in between and is skipped; a pattern that itself starts with
//!   `info` is matched against those lines until one fits. Any other line
//!   that does not match fails the transcript.
//! - `! <pattern>`: no answer matching the pattern arrives within 300 ms (answers
//!   read meanwhile are dropped).
//! - `# ...` or blank: a comment.
//!
//! Patterns are globs over the whole line: `*` is any run of characters, `?` any
//! one character.

use std::path::Path;
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use tablero_hub::{Flow, Session};

const ANSWER_TIMEOUT: Duration = Duration::from_secs(10);
const SILENCE: Duration = Duration::from_millis(300);

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

fn matches(pattern: &str, line: &str) -> bool {
    glob(pattern.as_bytes(), line.as_bytes())
}

fn is_progress(line: &str) -> bool {
    line.starts_with("info ")
}

fn replay(path: &Path) -> Result<(), String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let (out, answers): (_, Receiver<String>) = channel();
    let mut session = Session::new(out);
    let mut quit = false;
    for (number, line) in text.lines().enumerate() {
        let at = |why: String| format!("{}:{}: {why}", path.display(), number + 1);
        let line = line.trim_end();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (kind, rest) = line.split_at(1);
        let rest = rest.trim_start();
        match kind {
            ">" => {
                if quit {
                    return Err(at("command after quit".to_owned()));
                }
                quit = session.handle_line(rest) == Flow::Quit;
            }
            "<" => {
                let deadline = Instant::now() + ANSWER_TIMEOUT;
                loop {
                    let left = deadline.saturating_duration_since(Instant::now());
                    let answer = answers
                        .recv_timeout(left)
                        .map_err(|e| at(format!("waiting for {rest:?}: {e}")))?;
                    if matches(rest, &answer) {
                        break;
                    }
                    if !is_progress(&answer) {
                        return Err(at(format!("expected {rest:?}, got {answer:?}")));
                    }
                }
            }
            "!" => {
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

#[test]
fn glob_patterns() {
    assert!(matches("done move=*", "done move=32-28 ponder=19-23"));
    assert!(matches("done move=??-??", "done move=32-28"));
    assert!(!matches("done move=??-??", "done move=32-28 ponder=19-23"));
    assert!(matches(
        "info * score=99.99 *",
        "info depth=1 score=99.99 nodes=5"
    ));
    assert!(!matches("ready", "ready2"));
}

#[test]
fn transcripts_replay() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/sessions");
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .expect("the sessions folder exists")
        .map(|entry| entry.expect("a readable folder entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    paths.sort();
    assert!(paths.len() >= 7, "transcripts found: {paths:?}");
    let failures: Vec<String> = paths.iter().filter_map(|p| replay(p).err()).collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
