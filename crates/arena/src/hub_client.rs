//! A Hub engine (Scan, `tablero hub`) in a child process, for draughts: what the match
//! runner plays against.
//!
//! Moves cross the boundary as Hub text (`28x19x23`, every captured square listed)
//! and come back in tablero's PDN move format; positions are sent as Hub position
//! strings with the moves played since the start, so that the engine sees
//! repetitions. Every wait has a deadline, so an engine that hangs or dies costs its
//! game, never the match; the process is killed when the client is dropped.

use std::time::Duration;

use tablero_draughts::{Draughts, HubMove, Position, RuleSet};

use crate::engine_process::{EngineProcess, Silence};
use tablero_games::AnyPosition;

use crate::HANDSHAKE_TIMEOUT;

/// Why talking to a Hub engine failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HubError {
    /// The command is empty or the process could not be started.
    #[error("cannot start Hub engine {command:?}: {reason}")]
    Spawn {
        /// The command line.
        command: String,
        /// The operating system's reason.
        reason: String,
    },
    /// The engine closed its output or its input (it exited or crashed).
    #[error("Hub engine {name:?} exited while {doing}")]
    Exited {
        /// The engine's name.
        name: String,
        /// What the client was waiting for.
        doing: &'static str,
    },
    /// The engine did not answer in time.
    #[error("Hub engine {name:?} did not answer within {} ms while {doing}", .waited.as_millis())]
    Timeout {
        /// The engine's name.
        name: String,
        /// What the client was waiting for.
        doing: &'static str,
        /// How long the client waited.
        waited: Duration,
    },
    /// The engine cannot play the game or rule set asked for.
    #[error("Hub engine {name:?} cannot play {what}")]
    Unsupported {
        /// The engine's name.
        name: String,
        /// The game or rule set.
        what: String,
    },
    /// The engine answered with a move that is malformed or not legal.
    #[error("Hub engine {name:?} answered {text:?}: {reason}")]
    BadMove {
        /// The engine's name.
        name: String,
        /// The move as sent.
        text: String,
        /// Why it was refused.
        reason: String,
    },
    /// A move of the game could not be resolved (the caller's record is out of step).
    #[error("move {text:?} cannot be sent to a Hub engine: {reason}")]
    Record {
        /// The move text.
        text: String,
        /// Why.
        reason: String,
    },
}

impl From<Silence> for HubError {
    fn from(silence: Silence) -> Self {
        match silence {
            Silence::Exited { name, doing } => HubError::Exited { name, doing },
            Silence::Timeout {
                name,
                doing,
                waited,
            } => HubError::Timeout {
                name,
                doing,
                waited,
            },
        }
    }
}

/// A running Hub engine.
#[derive(Debug)]
pub struct HubEngine {
    process: EngineProcess,
    /// The values the engine announced for its `variant` parameter, if it has one.
    variants: Option<Vec<String>>,
}

/// The `variant` values that may name a rule set, in order of preference: Scan's
/// names first, then tablero's ids and pydraughts' names.
fn variant_names(rule_set: RuleSet) -> &'static [&'static str] {
    match rule_set {
        RuleSet::International => &["normal", "international", "standard"],
        RuleSet::English => &["english", "american"],
        RuleSet::Brazilian => &["brazilian"],
        RuleSet::Russian => &["russian"],
        RuleSet::Spanish => &["spanish"],
        RuleSet::Italian => &["italian"],
    }
}

impl HubEngine {
    /// Starts `command` (a program and its arguments, split at white space; no
    /// shell) and completes the `hub` handshake up to `wait`.
    ///
    /// # Errors
    ///
    /// [`HubError::Spawn`] if the process cannot start; [`HubError::Exited`] or
    /// [`HubError::Timeout`] if it does not answer `wait`.
    pub fn start(command: &str) -> Result<HubEngine, HubError> {
        let process = EngineProcess::spawn(command).map_err(|reason| HubError::Spawn {
            command: command.to_owned(),
            reason,
        })?;
        let mut engine = HubEngine {
            process,
            variants: None,
        };
        engine.process.send("hub", "starting")?;
        let mut name = None;
        let mut variants = None;
        engine
            .process
            .wait_for("wait", HANDSHAKE_TIMEOUT, "starting", |line| {
                match line.split_whitespace().next() {
                    Some("id") => {
                        if let Some(n) = argument(line, "name") {
                            name = Some(n);
                        }
                    }
                    Some("param") if argument(line, "name").as_deref() == Some("variant") => {
                        let values = argument(line, "values").unwrap_or_default();
                        variants = Some(values.split_whitespace().map(str::to_owned).collect());
                    }
                    _ => {}
                }
            })?;
        if let Some(name) = name {
            engine.process.set_name(name);
        }
        engine.variants = variants;
        Ok(engine)
    }

    /// The engine's name (`id name=`), or its program when it gave none.
    #[must_use]
    pub fn name(&self) -> &str {
        self.process.name()
    }

    /// Sends `set-param name=<name> value=<value>`.
    ///
    /// # Errors
    ///
    /// [`HubError::Exited`] if the engine is gone.
    pub fn set_param(&mut self, name: &str, value: &str) -> Result<(), HubError> {
        self.process.send(
            &format!(
                "set-param name={} value={}",
                hub_value(name),
                hub_value(value)
            ),
            "setting parameters",
        )?;
        Ok(())
    }

    /// Sets the engine up for the rule set of `game` (its `variant` parameter, when
    /// it has one), then `init` and waits for `ready`.
    ///
    /// # Errors
    ///
    /// [`HubError::Unsupported`] for games other than draughts, and for a rule set
    /// the engine's `variant` values do not name (an engine without the parameter is
    /// taken to play international draughts only); otherwise [`HubError::Exited`] or
    /// [`HubError::Timeout`].
    pub fn configure(&mut self, game: &AnyPosition) -> Result<(), HubError> {
        let Some(pos) = game.as_draughts() else {
            return Err(HubError::Unsupported {
                name: self.process.name().to_owned(),
                what: game.game_id().to_owned(),
            });
        };
        let rule_set = pos.rule_set();
        match &self.variants {
            Some(values) => {
                let value = variant_names(rule_set)
                    .iter()
                    .find(|n| values.iter().any(|v| v.eq_ignore_ascii_case(n)))
                    .ok_or_else(|| HubError::Unsupported {
                        name: self.process.name().to_owned(),
                        what: format!("{rule_set} draughts (its variants: {})", values.join(", ")),
                    })?;
                self.set_param("variant", value)?;
            }
            None if rule_set == RuleSet::International => {}
            None => {
                return Err(HubError::Unsupported {
                    name: self.process.name().to_owned(),
                    what: format!("{rule_set} draughts (it has no variant parameter)"),
                });
            }
        }
        self.process.send("init", "initialising")?;
        self.process
            .wait_for("ready", HANDSHAKE_TIMEOUT, "initialising", |_| {})?;
        Ok(())
    }

    /// Sends `ping` and waits for `pong`, skipping anything else (such as a late
    /// `done`).
    ///
    /// # Errors
    ///
    /// [`HubError::Exited`] or [`HubError::Timeout`].
    pub fn ping(&mut self, timeout: Duration) -> Result<(), HubError> {
        self.process.send("ping", "waiting for pong")?;
        self.process
            .wait_for("pong", timeout, "waiting for pong", |_| {})?;
        Ok(())
    }

    /// Starts a new game: `new-game`, then [`HubEngine::ping`].
    ///
    /// # Errors
    ///
    /// As [`HubEngine::ping`].
    pub fn new_game(&mut self) -> Result<(), HubError> {
        self.process.send("new-game", "starting a game")?;
        self.ping(HANDSHAKE_TIMEOUT)
    }

    /// Asks for a move in the position reached by `moves` (tablero's PDN move
    /// format) from `start`: `pos pos=.. moves=".."`, `level time=.. inc=..` (the
    /// time before Hub adds the increment, so that the engine sees `remaining` for
    /// this move), `go think`, then the `done` answer in tablero's move format (`None`
    /// when it names no move). After `timeout` it sends `stop` and gives up.
    ///
    /// # Errors
    ///
    /// [`HubError::Record`] if `start` is not draughts or a move is not legal;
    /// [`HubError::BadMove`] for an answer that is not a legal move;
    /// [`HubError::Exited`] or [`HubError::Timeout`].
    pub fn best_move(
        &mut self,
        start: &AnyPosition,
        moves: &[String],
        remaining: Duration,
        increment: Duration,
        timeout: Duration,
    ) -> Result<Option<String>, HubError> {
        let Some(start) = start.as_draughts() else {
            return Err(HubError::Record {
                text: String::new(),
                reason: format!("the game is {}, not draughts", start.game_id()),
            });
        };
        let (pos, hub_moves) = hub_moves(start, moves)?;
        let mut command = format!("pos pos={}", start.hub_position());
        if !hub_moves.is_empty() {
            command.push_str(&format!(" moves=\"{}\"", hub_moves.join(" ")));
        }
        self.process.send(&command, "sending the position")?;
        let time = remaining.saturating_sub(increment);
        self.process.send(
            &format!(
                "level time={:.3} inc={:.3}",
                time.as_secs_f64(),
                increment.as_secs_f64()
            ),
            "sending the clock",
        )?;
        self.process.send("go think", "thinking")?;
        let mut answer = None;
        let waited = self.process.wait_for("done", timeout, "thinking", |line| {
            if line.split_whitespace().next() == Some("done") {
                answer = argument(line, "move");
            }
        });
        if let Err(e @ Silence::Timeout { .. }) = waited {
            let _ = self.process.send("stop", "thinking");
            return Err(e.into());
        }
        waited?;
        let Some(text) = answer.filter(|t| !t.is_empty()) else {
            return Ok(None);
        };
        let bad = |reason: String| HubError::BadMove {
            name: self.process.name().to_owned(),
            text: text.clone(),
            reason,
        };
        let m = text
            .parse::<HubMove>()
            .and_then(|h| h.to_move(&pos))
            .map_err(|e| bad(e.to_string()))?;
        Ok(Some(pos.move_text(m)))
    }
}

/// The position after `moves` and the moves in Hub text.
fn hub_moves(start: &Draughts, moves: &[String]) -> Result<(Draughts, Vec<String>), HubError> {
    let mut pos = start.clone();
    let mut out = Vec::with_capacity(moves.len());
    for text in moves {
        let m = pos.parse_move(text).map_err(|e| HubError::Record {
            text: text.clone(),
            reason: e.to_string(),
        })?;
        out.push(HubMove::from_move(&pos, m).to_string());
        pos.play_unchecked(m);
    }
    Ok((pos, out))
}

/// A value as Hub writes it: bare when it is one plain word, quoted otherwise.
fn hub_value(value: &str) -> String {
    let plain = !value.is_empty()
        && value
            .chars()
            .all(|c| !c.is_control() && !c.is_whitespace() && c != '=' && c != '"');
    if plain {
        value.to_owned()
    } else {
        format!("\"{}\"", value.replace('"', "'"))
    }
}

/// The value of argument `name` in a Hub line (`name=value` or `name="a value"`),
/// or `None` if the line has no such argument.
fn argument(line: &str, name: &str) -> Option<String> {
    let mut rest = line.trim();
    // Skip the command word.
    rest = rest
        .find(char::is_whitespace)
        .map_or("", |at| rest[at..].trim_start());
    while !rest.is_empty() {
        let end = rest
            .find(|c: char| c.is_whitespace() || c == '=')
            .unwrap_or(rest.len());
        let key = &rest[..end];
        rest = rest[end..].trim_start();
        let value = if let Some(after) = rest.strip_prefix('=') {
            let after = after.trim_start();
            if let Some(quoted) = after.strip_prefix('"') {
                let close = quoted.find('"').unwrap_or(quoted.len());
                rest = quoted.get(close + 1..).unwrap_or("").trim_start();
                Some(quoted[..close].to_owned())
            } else {
                let stop = after.find(char::is_whitespace).unwrap_or(after.len());
                rest = after[stop..].trim_start();
                Some(after[..stop].to_owned())
            }
        } else {
            None
        };
        if key == name {
            return Some(value.unwrap_or_default());
        }
        if key.is_empty() && value.is_none() {
            // A stray character: skip it rather than loop.
            rest = rest.get(1..).unwrap_or("");
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arguments_of_hub_lines() {
        let line = "id name=Scan version=3.1 author=\"Fabien Letouzey\" country=France";
        assert_eq!(argument(line, "name").as_deref(), Some("Scan"));
        assert_eq!(argument(line, "author").as_deref(), Some("Fabien Letouzey"));
        assert_eq!(argument(line, "country").as_deref(), Some("France"));
        assert_eq!(argument(line, "id"), None);
        let param = "param name=variant value=normal type=enum values=\"normal killer bt\"";
        assert_eq!(
            argument(param, "values").as_deref(),
            Some("normal killer bt")
        );
        assert_eq!(
            argument("done move=32-28 ponder=17-22", "move").as_deref(),
            Some("32-28")
        );
        assert_eq!(argument("done", "move"), None);
        assert_eq!(argument("level infinite", "infinite").as_deref(), Some(""));
        assert_eq!(argument("x = = \"", "y"), None);
        assert_eq!(hub_value("normal"), "normal");
        assert_eq!(hub_value("a b"), "\"a b\"");
    }

    #[test]
    fn moves_go_out_in_hub_text() {
        let start = Draughts::new(RuleSet::Russian);
        let moves = ["21-17".to_owned(), "10-14".to_owned(), "17x10".to_owned()];
        let (pos, hub) = hub_moves(&start, &moves).expect("legal moves");
        assert_eq!(hub, ["9-13", "22-18", "13x22x18"]);
        assert_eq!(pos.turn(), tablero_core::Side::Black);
        assert!(matches!(
            hub_moves(&start, &["1-5".to_owned()]),
            Err(HubError::Record { .. })
        ));
    }

    #[test]
    fn a_missing_program_is_a_spawn_error() {
        let err = HubEngine::start("/nonexistent/engine hub").expect_err("refused");
        assert!(matches!(err, HubError::Spawn { .. }), "{err}");
        assert!(matches!(
            HubEngine::start("  "),
            Err(HubError::Spawn { .. })
        ));
    }

    #[test]
    fn a_program_that_is_not_an_engine_exits() {
        // `true` exits at once: the handshake sees the engine gone.
        let err = HubEngine::start("true").expect_err("refused");
        assert!(matches!(err, HubError::Exited { .. }), "{err}");
    }
}
