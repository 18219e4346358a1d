//! A reference engine over UCI pipes, for differential perft tests (Stockfish for
//! chess, Fairy-Stockfish for xiangqi).

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

/// A running UCI engine that answers `go perft` with one `<move>: <count>` line per
/// root move and a `Nodes searched` line.
#[derive(Debug)]
pub struct ReferenceEngine {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
}

impl ReferenceEngine {
    /// Starts the program at `path` and sends it `setup` lines (e.g. `setoption ...`);
    /// `None` if it cannot be started.
    #[must_use]
    pub fn start(path: &str, setup: &[&str]) -> Option<ReferenceEngine> {
        let mut child = Command::new(path)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .ok()?;
        let input = child.stdin.take()?;
        let output = BufReader::new(child.stdout.take()?);
        let mut engine = ReferenceEngine {
            child,
            input,
            output,
        };
        for line in setup {
            engine.send(line).ok()?;
        }
        Some(engine)
    }

    fn send(&mut self, line: &str) -> std::io::Result<()> {
        writeln!(self.input, "{line}")
    }

    /// Sends one command line (e.g. `setoption name UCI_Chess960 value true`).
    ///
    /// # Panics
    ///
    /// If the engine no longer reads its input.
    pub fn command(&mut self, line: &str) {
        self.send(line).expect("the reference engine accepts input");
    }

    /// Per-move leaf counts of `go perft depth` at `fen`, in the engine's move text.
    ///
    /// # Panics
    ///
    /// If the engine stops answering (a test failure in itself).
    pub fn divide(&mut self, fen: &str, depth: u32) -> BTreeMap<String, u64> {
        self.send(&format!("position fen {fen}"))
            .and_then(|()| self.send(&format!("go perft {depth}")))
            .expect("the reference engine accepts input");
        let mut counts = BTreeMap::new();
        let mut line = String::new();
        loop {
            line.clear();
            let read = self
                .output
                .read_line(&mut line)
                .expect("the reference engine's output is readable");
            assert!(read > 0, "the reference engine exited");
            let text = line.trim();
            if text.starts_with("Nodes searched") {
                return counts;
            }
            if let Some((m, n)) = text.split_once(": ")
                && let Ok(n) = n.parse()
            {
                counts.insert(m.to_owned(), n);
            }
        }
    }
}

impl Drop for ReferenceEngine {
    fn drop(&mut self) {
        let _ = self.send("quit");
        let _ = self.child.wait();
    }
}

/// Starts the reference engine at `$env_var` or `default_path`. When it is missing,
/// returns `None` after saying the test was skipped — except under CI (`CI` set),
/// where a missing reference is a failure, since `scripts/test` installs it.
///
/// # Panics
///
/// Under CI, when the engine cannot be started.
#[must_use]
pub fn reference_engine_or_skip(
    env_var: &str,
    default_path: &str,
    setup: &[&str],
) -> Option<ReferenceEngine> {
    let path = std::env::var(env_var).unwrap_or_else(|_| default_path.to_owned());
    let engine = ReferenceEngine::start(&path, setup);
    if engine.is_none() {
        assert!(
            std::env::var_os("CI").is_none(),
            "{path} is missing under CI: scripts/test installs it"
        );
        eprintln!("SKIPPED: no reference engine at {path} (set {env_var} or install it)");
    }
    engine
}
