//! A UCI engine in a child process, for chess, Chess960, xiangqi and chess3d: what the match
//! runner plays against.
//!
//! Every wait has a deadline, so an engine that hangs or dies costs its game, never
//! the match; the process is killed when the client is dropped.

use std::time::Duration;

use crate::engine_process::{EngineProcess, Silence};
use tablero_games::{AnyPosition, EngineProtocol, Variant};

/// How long an engine may take to answer `uci` or `isready`.
pub const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);

/// Why talking to a UCI engine failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum UciError {
    /// The command is empty or the process could not be started.
    #[error("cannot start UCI engine {command:?}: {reason}")]
    Spawn {
        /// The command line.
        command: String,
        /// The operating system's reason.
        reason: String,
    },
    /// The engine closed its output or its input (it exited or crashed).
    #[error("UCI engine {name:?} exited while {doing}")]
    Exited {
        /// The engine's name.
        name: String,
        /// What the client was waiting for.
        doing: &'static str,
    },
    /// The engine did not answer in time.
    #[error("UCI engine {name:?} did not answer within {} ms while {doing}", .waited.as_millis())]
    Timeout {
        /// The engine's name.
        name: String,
        /// What the client was waiting for.
        doing: &'static str,
        /// How long the client waited.
        waited: Duration,
    },
    /// The engine cannot play the game or variant asked for.
    #[error("UCI engine {name:?} cannot play {what}")]
    Unsupported {
        /// The engine's name.
        name: String,
        /// The game or variant.
        what: String,
    },
}

impl From<Silence> for UciError {
    fn from(silence: Silence) -> Self {
        match silence {
            Silence::Exited { name, doing } => UciError::Exited { name, doing },
            Silence::Timeout {
                name,
                doing,
                waited,
            } => UciError::Timeout {
                name,
                doing,
                waited,
            },
        }
    }
}

/// The clocks sent with `go`: the time left and the increment of each side, White
/// (red in xiangqi) first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct UciClock {
    /// Time left, White's then Black's.
    pub remaining: [Duration; 2],
    /// Increment per move, White's then Black's.
    pub increment: [Duration; 2],
}

/// A running UCI engine.
#[derive(Debug)]
pub struct UciEngine {
    process: EngineProcess,
    /// Each `option` line's name with its `var` values.
    options: Vec<(String, Vec<String>)>,
    /// Fairy-Stockfish numbers xiangqi ranks 1–10 where ICCS uses 0–9.
    one_based_ranks: bool,
    /// `go nodes N` instead of the clocks, when set.
    nodes_per_move: Option<u64>,
}

impl UciEngine {
    /// Starts `command` (a program and its arguments, split at white space; no
    /// shell) and completes the `uci` handshake.
    ///
    /// # Errors
    ///
    /// [`UciError::Spawn`] if the process cannot start; [`UciError::Exited`] or
    /// [`UciError::Timeout`] if it does not answer `uciok`.
    pub fn start(command: &str) -> Result<UciEngine, UciError> {
        let process = EngineProcess::spawn(command).map_err(|reason| UciError::Spawn {
            command: command.to_owned(),
            reason,
        })?;
        let mut engine = UciEngine {
            process,
            options: Vec::new(),
            one_based_ranks: false,
            nodes_per_move: None,
        };
        engine.process.send("uci", "starting")?;
        let mut name = None;
        let mut options = Vec::new();
        engine
            .process
            .wait_for("uciok", HANDSHAKE_TIMEOUT, "starting", |line| {
                if let Some(rest) = line.strip_prefix("id name ") {
                    name = Some(rest.trim().to_owned());
                } else if let Some(option) = parse_option(line) {
                    options.push(option);
                }
            })?;
        if let Some(name) = name {
            engine.process.set_name(name);
        }
        engine.options = options;
        engine.one_based_ranks = engine.process.name().to_ascii_lowercase().contains("fairy");
        Ok(engine)
    }

    /// From now on [`UciEngine::best_move`] asks for `nodes` nodes a move (`go nodes N`)
    /// instead of passing the clocks; `None` goes back to the clocks.
    pub fn set_nodes_per_move(&mut self, nodes: Option<u64>) {
        self.nodes_per_move = nodes;
    }

    /// The engine's name (`id name`), or its program when it gave none.
    #[must_use]
    pub fn name(&self) -> &str {
        self.process.name()
    }

    /// Whether the engine announced the option `name` (case-insensitive, as UCI
    /// option names are).
    #[must_use]
    pub fn has_option(&self, name: &str) -> bool {
        self.option(name).is_some()
    }

    fn option(&self, name: &str) -> Option<&[String]> {
        self.options
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, vars)| vars.as_slice())
    }

    /// Sends `setoption name <name> value <value>`.
    ///
    /// # Errors
    ///
    /// [`UciError::Exited`] if the engine is gone.
    pub fn set_option(&mut self, name: &str, value: &str) -> Result<(), UciError> {
        self.process.send(
            &format!("setoption name {name} value {value}"),
            "setting options",
        )?;
        Ok(())
    }

    /// Sets the engine up for the kind of `game`: `UCI_Chess960` for a Chess960
    /// position, `UCI_Variant xiangqi` for xiangqi when the engine plays several
    /// variants, `UCI_Variant chess3d` for Ajedrez 3D (which only `tablero uci`
    /// offers); then waits until it is ready.
    ///
    /// # Errors
    ///
    /// [`UciError::Unsupported`] for draughts, for Chess960 without `UCI_Chess960`,
    /// for a variant list without xiangqi or chess3d, or for chess3d without
    /// `UCI_Variant`; otherwise as [`UciEngine::is_ready`].
    pub fn configure(&mut self, game: &AnyPosition) -> Result<(), UciError> {
        let unsupported = |engine: &UciEngine, what: &str| UciError::Unsupported {
            name: engine.process.name().to_owned(),
            what: what.to_owned(),
        };
        let EngineProtocol::Uci {
            variant,
            assumed_without_variants,
            ..
        } = game.kind().info().engine_protocol
        else {
            return Err(unsupported(self, game.game_id()));
        };
        if game.variant() == Variant::Chess960 {
            if !self.has_option("UCI_Chess960") {
                return Err(unsupported(self, "chess960 (no UCI_Chess960 option)"));
            }
            self.set_option("UCI_Chess960", "true")?;
        }
        if let Some(variant) = variant {
            match self.option("UCI_Variant") {
                Some(vars) if vars.iter().any(|v| v == variant) => {
                    self.set_option("UCI_Variant", variant)?;
                }
                Some(_) => {
                    return Err(unsupported(
                        self,
                        &format!("{variant} (not among its UCI_Variant values)"),
                    ));
                }
                None if assumed_without_variants => {}
                None => {
                    return Err(unsupported(
                        self,
                        &format!("{variant} (no UCI_Variant option)"),
                    ));
                }
            }
        }
        self.is_ready(HANDSHAKE_TIMEOUT)
    }

    /// Sends `isready` and waits for `readyok`, skipping anything else (such as a
    /// late `bestmove`).
    ///
    /// # Errors
    ///
    /// [`UciError::Exited`] or [`UciError::Timeout`].
    pub fn is_ready(&mut self, timeout: Duration) -> Result<(), UciError> {
        self.process.send("isready", "waiting for readyok")?;
        self.process
            .wait_for("readyok", timeout, "waiting for readyok", |_| {})?;
        Ok(())
    }

    /// Starts a new game: `ucinewgame`, then [`UciEngine::is_ready`].
    ///
    /// # Errors
    ///
    /// As [`UciEngine::is_ready`].
    pub fn new_game(&mut self) -> Result<(), UciError> {
        self.process.send("ucinewgame", "starting a game")?;
        self.is_ready(HANDSHAKE_TIMEOUT)
    }

    /// Asks for a move in the position reached by `moves` (the game's move format)
    /// from `start`: `position fen .. moves ..`, `go wtime .. btime .. winc .. binc ..`,
    /// then the `bestmove` answer in the game's move format (`None` for `(none)` or
    /// `0000`). After `timeout` it sends `stop` and gives up.
    ///
    /// # Errors
    ///
    /// [`UciError::Exited`] or [`UciError::Timeout`].
    pub fn best_move(
        &mut self,
        start: &AnyPosition,
        moves: &[String],
        clock: &UciClock,
        timeout: Duration,
    ) -> Result<Option<String>, UciError> {
        let ranks_from_zero = matches!(
            start.kind().info().engine_protocol,
            EngineProtocol::Uci {
                ranks_from_zero: true,
                ..
            }
        );
        let shift = ranks_from_zero && self.one_based_ranks;
        let mut position = format!("position fen {}", start.position_text());
        if !moves.is_empty() {
            position.push_str(" moves");
            for m in moves {
                position.push(' ');
                position.push_str(&if shift { shift_ranks(m, 1) } else { m.clone() });
            }
        }
        self.process.send(&position, "sending the position")?;
        let go = go_command(clock, self.nodes_per_move);
        self.process.send(&go, "thinking")?;
        let mut best = None;
        let waited = self
            .process
            .wait_for("bestmove", timeout, "thinking", |line| {
                best = line.split_whitespace().nth(1).map(str::to_owned);
            });
        if let Err(e @ Silence::Timeout { .. }) = waited {
            let _ = self.process.send("stop", "thinking");
            return Err(e.into());
        }
        waited?;
        Ok(best
            .filter(|m| m != "(none)" && m != "0000")
            .map(|m| if shift { shift_ranks(&m, -1) } else { m }))
    }
}

/// `go` with the clocks, or with the node limit alone: an engine told both stops at
/// whichever comes first, and so would play differently under machine load.
fn go_command(clock: &UciClock, nodes_per_move: Option<u64>) -> String {
    if let Some(nodes) = nodes_per_move {
        return format!("go nodes {nodes}");
    }
    let ms = |d: Duration| d.as_millis();
    format!(
        "go wtime {} btime {} winc {} binc {}",
        ms(clock.remaining[0]),
        ms(clock.remaining[1]),
        ms(clock.increment[0]),
        ms(clock.increment[1]),
    )
}

/// `option name <name with spaces> type <t> ... var <v> var <v>`: the name and the
/// `var` values.
fn parse_option(line: &str) -> Option<(String, Vec<String>)> {
    let rest = line.strip_prefix("option name ")?;
    let (name, rest) = match rest.find(" type ") {
        Some(at) => (&rest[..at], &rest[at..]),
        None => (rest, ""),
    };
    let words: Vec<&str> = rest.split_whitespace().collect();
    let vars = words
        .windows(2)
        .filter(|w| w[0] == "var")
        .map(|w| w[1].to_owned())
        .collect();
    Some((name.trim().to_owned(), vars))
}

/// Adds `delta` to every rank number of a coordinate move (`h2e2` → `h3e3` for
/// +1, `b10b9` → `b9b8` for -1); other characters are kept.
fn shift_ranks(text: &str, delta: i32) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    let mut digits = String::new();
    let flush = |digits: &mut String, out: &mut String| {
        if !digits.is_empty() {
            match digits.parse::<i32>() {
                Ok(n) => out.push_str(&(n + delta).to_string()),
                Err(_) => out.push_str(digits),
            }
            digits.clear();
        }
    };
    for c in text.chars() {
        if c.is_ascii_digit() {
            digits.push(c);
        } else {
            flush(&mut digits, &mut out);
            out.push(c);
        }
    }
    flush(&mut digits, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_shift_both_ways() {
        assert_eq!(shift_ranks("h2e2", 1), "h3e3");
        assert_eq!(shift_ranks("b9b8", 1), "b10b9");
        assert_eq!(shift_ranks("b10b9", -1), "b9b8");
        assert_eq!(shift_ranks("a0a1", 1), "a1a2");
    }

    #[test]
    fn go_passes_the_clocks_or_the_node_limit_alone() {
        let clock = UciClock {
            remaining: [Duration::from_millis(1500), Duration::from_secs(2)],
            increment: [Duration::from_millis(50), Duration::from_millis(100)],
        };
        assert_eq!(
            go_command(&clock, None),
            "go wtime 1500 btime 2000 winc 50 binc 100"
        );
        assert_eq!(go_command(&clock, Some(20_000)), "go nodes 20000");
    }

    #[test]
    fn options_keep_names_with_spaces_and_vars() {
        assert_eq!(
            parse_option("option name Move Overhead type spin default 10 min 0 max 5000"),
            Some(("Move Overhead".to_owned(), vec![]))
        );
        assert_eq!(
            parse_option("option name UCI_Variant type combo default chess var chess var xiangqi"),
            Some((
                "UCI_Variant".to_owned(),
                vec!["chess".to_owned(), "xiangqi".to_owned()]
            ))
        );
        assert_eq!(parse_option("id name X"), None);
    }

    #[test]
    fn a_missing_program_is_a_spawn_error() {
        let err = UciEngine::start("/nonexistent/engine --flag").expect_err("refused");
        assert!(matches!(err, UciError::Spawn { .. }), "{err}");
        assert!(matches!(
            UciEngine::start("  "),
            Err(UciError::Spawn { .. })
        ));
    }

    #[test]
    fn a_program_that_is_not_an_engine_times_out_or_exits() {
        // `true` exits at once: the handshake sees the engine gone.
        let err = UciEngine::start("true").expect_err("refused");
        assert!(matches!(err, UciError::Exited { .. }), "{err}");
    }

    #[test]
    fn plays_against_stockfish_when_installed() {
        let path = "/usr/games/stockfish";
        if !std::path::Path::new(path).exists() {
            eprintln!("note: {path} is not installed; skipping");
            return;
        }
        let mut engine = UciEngine::start(path).expect("valid in this test");
        assert!(engine.name().to_ascii_lowercase().contains("stockfish"));
        assert!(engine.has_option("uci_chess960"));
        let start = AnyPosition::new("chess", None, None).expect("valid in this test");
        engine.configure(&start).expect("valid in this test");
        engine.new_game().expect("valid in this test");
        let clock = UciClock {
            remaining: [Duration::from_millis(500); 2],
            increment: [Duration::from_millis(10); 2],
        };
        let moves = vec!["e2e4".to_owned()];
        let best = engine
            .best_move(&start, &moves, &clock, Duration::from_secs(5))
            .expect("valid in this test")
            .expect("a move");
        let mut after = start.clone();
        after.play_text("e2e4").expect("valid in this test");
        assert!(after.legal_moves_text().contains(&best), "{best}");
        let draughts = AnyPosition::new("draughts", None, None).expect("valid in this test");
        assert!(matches!(
            engine.configure(&draughts),
            Err(UciError::Unsupported { .. })
        ));
    }

    #[test]
    fn plays_xiangqi_against_fairy_stockfish_when_installed() {
        let path = "/usr/games/fairy-stockfish";
        if !std::path::Path::new(path).exists() {
            eprintln!("note: {path} is not installed; skipping");
            return;
        }
        let mut engine = UciEngine::start(path).expect("valid in this test");
        let start = AnyPosition::new("xiangqi", None, None).expect("valid in this test");
        engine.configure(&start).expect("valid in this test");
        engine.new_game().expect("valid in this test");
        let clock = UciClock {
            remaining: [Duration::from_millis(500); 2],
            increment: [Duration::from_millis(10); 2],
        };
        let moves = vec!["h2e2".to_owned()];
        let best = engine
            .best_move(&start, &moves, &clock, Duration::from_secs(5))
            .expect("valid in this test")
            .expect("a move");
        let mut after = start.clone();
        after.play_text("h2e2").expect("valid in this test");
        assert!(after.legal_moves_text().contains(&best), "{best}");
    }
}
