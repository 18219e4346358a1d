//! Hub lines: the shared syntax (`command name=value name="a value" flag`) and the
//! commands a GUI sends, with an error that says what is wrong with a malformed line.

use core::str::FromStr;
use std::time::Duration;

/// One argument of a Hub line: a name and, unless it is a flag, a value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pair {
    /// The argument's name.
    pub name: String,
    /// Its value, unquoted; `None` for a flag such as `infinite`.
    pub value: Option<String>,
}

/// A Hub line taken apart: the command word and its arguments, in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    /// The first word.
    pub command: String,
    /// The arguments after it.
    pub pairs: Vec<Pair>,
}

impl Line {
    /// The value of the first argument called `name`.
    #[must_use]
    pub fn value(&self, name: &str) -> Option<&str> {
        self.pairs
            .iter()
            .find(|p| p.name == name)
            .and_then(|p| p.value.as_deref())
    }

    /// Whether an argument called `name` is present, with or without a value.
    #[must_use]
    pub fn has(&self, name: &str) -> bool {
        self.pairs.iter().any(|p| p.name == name)
    }
}

/// A character that may appear in a name or an unquoted value.
fn is_id(c: char) -> bool {
    !c.is_control() && !c.is_whitespace() && c != '=' && c != '"'
}

/// Writes `value` as Hub does: bare when it is a plain word, otherwise in double
/// quotes (a double quote inside becomes a single quote, as Hub has no escape).
#[must_use]
pub fn quote(value: &str) -> String {
    if !value.is_empty() && value.chars().all(is_id) {
        value.to_owned()
    } else {
        format!("\"{}\"", value.replace('"', "'"))
    }
}

impl FromStr for Line {
    type Err = CommandError;

    /// Splits a line into its command and arguments. Blanks may surround `=`; a
    /// quoted value may hold anything but a double quote.
    fn from_str(text: &str) -> Result<Line, CommandError> {
        let syntax = |reason: &'static str| CommandError::Syntax { reason };
        let mut rest = text.trim_start();
        let name = |rest: &mut &str| -> String {
            let end = rest.find(|c: char| !is_id(c)).unwrap_or(rest.len());
            let word = rest[..end].to_owned();
            *rest = rest[end..].trim_start();
            word
        };
        let command = name(&mut rest);
        if command.is_empty() {
            return Err(if rest.is_empty() {
                CommandError::Empty
            } else {
                syntax("a line starts with a command word")
            });
        }
        let mut pairs = Vec::new();
        while !rest.is_empty() {
            let key = name(&mut rest);
            if key.is_empty() {
                return Err(syntax("an argument has no name (a stray = or quote)"));
            }
            let value = if let Some(after) = rest.strip_prefix('=') {
                rest = after.trim_start();
                if let Some(quoted) = rest.strip_prefix('"') {
                    let end = quoted
                        .find('"')
                        .ok_or(syntax("a quoted value is not closed"))?;
                    let value = quoted[..end].to_owned();
                    rest = quoted[end + 1..].trim_start();
                    Some(value)
                } else {
                    let value = name(&mut rest);
                    if value.is_empty() {
                        return Err(syntax("'=' is not followed by a value"));
                    }
                    Some(value)
                }
            } else {
                None
            };
            pairs.push(Pair { name: key, value });
        }
        Ok(Line { command, pairs })
    }
}

/// One command from the GUI.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// `hub`: identify and list the parameters, then `wait`.
    Hub,
    /// `set-param name=<name> value=<value>`.
    SetParam {
        /// The parameter.
        name: String,
        /// The value; absent only if the GUI sent none.
        value: Option<String>,
    },
    /// `init`: get ready (allocate the hash table), then `ready`.
    Init,
    /// `new-game`: the next search is unrelated to the previous ones.
    NewGame,
    /// `pos [pos=<position>] [moves="<move> ..."]`; no `pos=` (or the flag `start`)
    /// means the start position.
    Pos {
        /// The position string, `None` for the start position.
        position: Option<String>,
        /// Hub moves played from it.
        moves: Vec<String>,
    },
    /// `level ...`: the limits of the following searches.
    Level(LevelSpec),
    /// `time left=<seconds> [inc=<seconds>]` (an extension): the clock now.
    Time {
        /// Time left.
        left: Duration,
        /// The increment, when given.
        inc: Option<Duration>,
    },
    /// `go think|ponder|analyze`.
    Go(Mode),
    /// `ponder-hit`: the opponent played the expected move.
    PonderHit,
    /// `stop`: answer `done` now.
    Stop,
    /// `ping`: answer `pong`.
    Ping,
    /// `quit`.
    Quit,
}

/// What `go` asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// A move to play, within the level's limits.
    Think,
    /// Search the position after the expected reply, without the clock, until
    /// `ponder-hit` (the clock starts) or `stop`.
    Ponder,
    /// Analysis: full strength whatever the `level` parameter says.
    Analyze,
}

/// The limits given by `level`. Each `level` line replaces the previous one whole.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LevelSpec {
    /// `depth`: plies.
    pub depth: Option<u32>,
    /// `nodes`.
    pub nodes: Option<u64>,
    /// `move-time`: this long per move.
    pub move_time: Option<Duration>,
    /// `moves`: moves to the next time control.
    pub moves: Option<u32>,
    /// `time`: the time left, before this move's increment is added.
    pub time: Option<Duration>,
    /// `inc`: the increment, added before every move.
    pub inc: Option<Duration>,
    /// `infinite`: until `stop`.
    pub infinite: bool,
}

/// Why a line is not a command tablero can act on.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CommandError {
    /// Nothing but white space.
    #[error("empty line")]
    Empty,
    /// The line breaks Hub's syntax.
    #[error("malformed line: {reason}")]
    Syntax {
        /// What is wrong.
        reason: &'static str,
    },
    /// The first word is not a Hub command.
    #[error("unknown command {0:?}")]
    Unknown(String),
    /// A required argument is missing.
    #[error("{command}: missing {what}")]
    Missing {
        /// The command.
        command: &'static str,
        /// What should have been given.
        what: &'static str,
    },
    /// An argument has the wrong form.
    #[error("{command}: {field}={value:?} is not {expected}")]
    BadValue {
        /// The command.
        command: &'static str,
        /// The argument.
        field: &'static str,
        /// The text given.
        value: String,
        /// What was expected.
        expected: &'static str,
    },
}

impl FromStr for Command {
    type Err = CommandError;

    /// Parses one line. Arguments a command does not know are ignored, as Hub asks.
    fn from_str(text: &str) -> Result<Command, CommandError> {
        let line: Line = text.parse()?;
        match line.command.as_str() {
            "hub" => Ok(Command::Hub),
            "init" => Ok(Command::Init),
            "new-game" => Ok(Command::NewGame),
            "ponder-hit" => Ok(Command::PonderHit),
            "stop" => Ok(Command::Stop),
            "ping" => Ok(Command::Ping),
            "quit" => Ok(Command::Quit),
            "set-param" => {
                let name = line.value("name").ok_or(CommandError::Missing {
                    command: "set-param",
                    what: "name=<parameter>",
                })?;
                Ok(Command::SetParam {
                    name: name.to_owned(),
                    value: line.value("value").map(str::to_owned),
                })
            }
            "pos" => Ok(Command::Pos {
                position: line.value("pos").map(str::to_owned),
                moves: line
                    .value("moves")
                    .map(|m| m.split_whitespace().map(str::to_owned).collect())
                    .unwrap_or_default(),
            }),
            "level" => parse_level(&line).map(Command::Level),
            "time" => {
                let left = line.value("left").ok_or(CommandError::Missing {
                    command: "time",
                    what: "left=<seconds>",
                })?;
                Ok(Command::Time {
                    left: seconds("time", "left", left)?,
                    inc: line
                        .value("inc")
                        .map(|v| seconds("time", "inc", v))
                        .transpose()?,
                })
            }
            "go" => {
                let mode = line.pairs.iter().find_map(|p| match p.name.as_str() {
                    "think" => Some(Mode::Think),
                    "ponder" => Some(Mode::Ponder),
                    "analyze" | "analyse" => Some(Mode::Analyze),
                    _ => None,
                });
                Ok(Command::Go(mode.unwrap_or(Mode::Think)))
            }
            other => Err(CommandError::Unknown(other.to_owned())),
        }
    }
}

fn parse_level(line: &Line) -> Result<LevelSpec, CommandError> {
    let bad = |field, value: &str, expected| CommandError::BadValue {
        command: "level",
        field,
        value: value.to_owned(),
        expected,
    };
    let whole = |field, value: &str| {
        value
            .parse::<u64>()
            .map_err(|_| bad(field, value, "a whole number"))
    };
    let small = |field, value: &str| {
        whole(field, value).and_then(|n| {
            u32::try_from(n).map_err(|_| bad(field, value, "a whole number below 2^32"))
        })
    };
    let mut spec = LevelSpec {
        infinite: line.has("infinite"),
        ..LevelSpec::default()
    };
    for pair in &line.pairs {
        let Some(value) = pair.value.as_deref() else {
            continue;
        };
        match pair.name.as_str() {
            "depth" => spec.depth = Some(small("depth", value)?),
            "nodes" => spec.nodes = Some(whole("nodes", value)?),
            "moves" => spec.moves = Some(small("moves", value)?),
            "move-time" => spec.move_time = Some(seconds("level", "move-time", value)?),
            "time" => spec.time = Some(seconds("level", "time", value)?),
            "inc" => spec.inc = Some(seconds("level", "inc", value)?),
            _ => {}
        }
    }
    Ok(spec)
}

/// A time in seconds, a real number; below zero (a GUI past its flag) is zero.
fn seconds(
    command: &'static str,
    field: &'static str,
    value: &str,
) -> Result<Duration, CommandError> {
    value
        .parse::<f64>()
        .ok()
        .filter(|s| s.is_finite() && *s <= 1e9)
        .map(|s| Duration::from_secs_f64(s.max(0.0)))
        .ok_or_else(|| CommandError::BadValue {
            command,
            field,
            value: value.to_owned(),
            expected: "a number of seconds",
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(line: &str) -> Result<Command, CommandError> {
        line.parse()
    }

    #[test]
    fn the_line_syntax() {
        let line: Line = "id name=tablero  author = \"the tablero authors\" flag empty=\"\""
            .parse()
            .expect("well-formed");
        assert_eq!(line.command, "id");
        assert_eq!(line.value("name"), Some("tablero"));
        assert_eq!(line.value("author"), Some("the tablero authors"));
        assert!(line.has("flag") && line.value("flag").is_none());
        assert_eq!(line.value("empty"), Some(""));
        assert_eq!("".parse::<Line>(), Err(CommandError::Empty));
        for bad in [
            "=x",
            "pos =x",
            "pos pos=",
            "pos moves=\"32-28",
            "go \"think\"",
        ] {
            assert!(
                matches!(bad.parse::<Line>(), Err(CommandError::Syntax { .. })),
                "{bad}"
            );
        }
        assert_eq!(quote("32-28"), "32-28");
        assert_eq!(quote("32-28 19-23"), "\"32-28 19-23\"");
        assert_eq!(quote(""), "\"\"");
        assert_eq!(quote("a=b"), "\"a=b\"");
        assert_eq!(quote("say \"x\""), "\"say 'x'\"");
    }

    #[test]
    fn commands() {
        assert_eq!(parse("hub"), Ok(Command::Hub));
        assert_eq!(parse("  ping "), Ok(Command::Ping));
        assert_eq!(parse("ponder-hit"), Ok(Command::PonderHit));
        assert_eq!(
            parse("set-param name=variant value=russian"),
            Ok(Command::SetParam {
                name: "variant".to_owned(),
                value: Some("russian".to_owned())
            })
        );
        assert!(matches!(
            parse("set-param value=3"),
            Err(CommandError::Missing { .. })
        ));
        assert_eq!(
            parse("pos pos=Wbe moves=\"32-28 19x28x23\""),
            Ok(Command::Pos {
                position: Some("Wbe".to_owned()),
                moves: vec!["32-28".to_owned(), "19x28x23".to_owned()]
            })
        );
        assert_eq!(
            parse("pos start"),
            Ok(Command::Pos {
                position: None,
                moves: Vec::new()
            })
        );
        assert_eq!(parse("go ponder"), Ok(Command::Go(Mode::Ponder)));
        assert_eq!(parse("go analyze"), Ok(Command::Go(Mode::Analyze)));
        assert_eq!(parse("go"), Ok(Command::Go(Mode::Think)));
        assert_eq!(
            parse("dance"),
            Err(CommandError::Unknown("dance".to_owned()))
        );
    }

    #[test]
    fn levels_and_times() {
        let Ok(Command::Level(spec)) = parse("level moves=9 time=291.587 inc=0.5 whatever=1")
        else {
            panic!("level parses");
        };
        assert_eq!(spec.moves, Some(9));
        assert_eq!(spec.time, Some(Duration::from_millis(291_587)));
        assert_eq!(spec.inc, Some(Duration::from_millis(500)));
        assert!(!spec.infinite);
        assert_eq!(
            parse("level infinite"),
            Ok(Command::Level(LevelSpec {
                infinite: true,
                ..LevelSpec::default()
            }))
        );
        let Ok(Command::Level(spec)) = parse("level depth=7 nodes=1000 move-time=1") else {
            panic!("level parses");
        };
        assert_eq!(
            (spec.depth, spec.nodes, spec.move_time),
            (Some(7), Some(1000), Some(Duration::from_secs(1)))
        );
        assert_eq!(
            parse("level time=-3"),
            Ok(Command::Level(LevelSpec {
                time: Some(Duration::ZERO),
                ..LevelSpec::default()
            }))
        );
        assert_eq!(
            parse("level depth=deep").map_err(|e| e.to_string()),
            Err("level: depth=\"deep\" is not a whole number".to_owned())
        );
        assert!(parse("level time=inf").is_err());
        assert!(parse("level nodes=-1").is_err());
        assert_eq!(
            parse("time left=12.5 inc=0.1"),
            Ok(Command::Time {
                left: Duration::from_millis(12_500),
                inc: Some(Duration::from_millis(100))
            })
        );
        assert!(parse("time").is_err());
    }
}
