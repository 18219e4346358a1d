//! UCI command lines parsed into [`Command`] values, with an error that says what is
//! wrong with a malformed line.

use core::fmt;
use core::str::FromStr;
use std::time::Duration;

/// One line from the GUI.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// `uci`: identify and list the options.
    Uci,
    /// `debug on|off`.
    Debug(bool),
    /// `isready`: answer `readyok` once ready.
    IsReady,
    /// `setoption name <name> [value <value>]`; the name may contain spaces.
    SetOption {
        /// The option's name as written (matched without regard to case).
        name: String,
        /// The value, absent for buttons.
        value: Option<String>,
    },
    /// `register ...`: tablero needs no registration.
    Register,
    /// `ucinewgame`: the next position belongs to a new game.
    UciNewGame,
    /// `position startpos|fen <fen> [moves <move> ...]`.
    Position {
        /// Where the moves start.
        start: Start,
        /// Moves in the game's move format, in order.
        moves: Vec<String>,
    },
    /// `go ...`: start searching.
    Go(Go),
    /// `stop`: end the search and answer `bestmove`.
    Stop,
    /// `ponderhit`: the opponent played the move being pondered.
    PonderHit,
    /// `quit`.
    Quit,
}

/// The start of a `position` command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Start {
    /// The game's start position.
    StartPos,
    /// A position in the game's FEN.
    Fen(String),
}

/// The parameters of `go`. Times are the GUI's; negative clock times (a GUI past its
/// flag) count as zero.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Go {
    /// `searchmoves`: only these root moves.
    pub search_moves: Vec<String>,
    /// `ponder`: search the position after the expected reply until `ponderhit`.
    pub ponder: bool,
    /// `wtime`: White's (red's) clock.
    pub wtime: Option<Duration>,
    /// `btime`: Black's clock.
    pub btime: Option<Duration>,
    /// `winc`: White's (red's) increment.
    pub winc: Option<Duration>,
    /// `binc`: Black's increment.
    pub binc: Option<Duration>,
    /// `movestogo`: moves to the next time control.
    pub moves_to_go: Option<u32>,
    /// `depth`: plies.
    pub depth: Option<u32>,
    /// `nodes`.
    pub nodes: Option<u64>,
    /// `mate`: look for a mate in this many moves.
    pub mate: Option<u32>,
    /// `movetime`: exactly this long.
    pub movetime: Option<Duration>,
    /// `infinite`: until `stop`.
    pub infinite: bool,
    /// Words `go` does not know, skipped as UCI asks (reported by the session).
    pub ignored: Vec<String>,
}

/// Why a line is not a command tablero can act on.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CommandError {
    /// Nothing but white space.
    #[error("empty line")]
    Empty,
    /// No word of the line is a UCI command.
    #[error("unknown command {0:?}")]
    Unknown(String),
    /// A required word is missing.
    #[error("{command}: missing {what}")]
    Missing {
        /// The command.
        command: &'static str,
        /// What should have followed.
        what: &'static str,
    },
    /// A word has the wrong form.
    #[error("{command}: {field} {value:?} is not {expected}")]
    BadValue {
        /// The command.
        command: &'static str,
        /// The parameter.
        field: &'static str,
        /// The text given.
        value: String,
        /// What was expected.
        expected: &'static str,
    },
}

/// The words that start a command.
const COMMAND_WORDS: [&str; 12] = [
    "uci",
    "debug",
    "isready",
    "setoption",
    "register",
    "ucinewgame",
    "position",
    "go",
    "stop",
    "ponderhit",
    "quit",
    // Not UCI, but what every engine understands as quit.
    "exit",
];

/// The words of `go` that take no value.
const GO_FLAGS: [&str; 2] = ["ponder", "infinite"];
/// The words of `go` that take one value.
const GO_VALUES: [&str; 9] = [
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
];

impl Command {
    /// The words before the command word that UCI asks to skip (`joho debug on`
    /// is `debug on`): empty for a line that starts with its command.
    #[must_use]
    pub fn skipped_prefix(line: &str) -> Vec<&str> {
        line.split_whitespace()
            .take_while(|w| !COMMAND_WORDS.contains(w))
            .collect()
    }
}

impl FromStr for Command {
    type Err = CommandError;

    /// Parses one line. Unknown words before the command are skipped, as UCI asks.
    fn from_str(line: &str) -> Result<Command, CommandError> {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some(&first) = words.first() else {
            return Err(CommandError::Empty);
        };
        let Some(at) = words.iter().position(|w| COMMAND_WORDS.contains(w)) else {
            return Err(CommandError::Unknown(first.to_owned()));
        };
        let rest = &words[at + 1..];
        match words[at] {
            "uci" => Ok(Command::Uci),
            "debug" => match rest.first() {
                Some(&"on") => Ok(Command::Debug(true)),
                Some(&"off") => Ok(Command::Debug(false)),
                Some(other) => Err(CommandError::BadValue {
                    command: "debug",
                    field: "mode",
                    value: (*other).to_owned(),
                    expected: "on or off",
                }),
                None => Err(CommandError::Missing {
                    command: "debug",
                    what: "on or off",
                }),
            },
            "isready" => Ok(Command::IsReady),
            "setoption" => parse_setoption(rest),
            "register" => Ok(Command::Register),
            "ucinewgame" => Ok(Command::UciNewGame),
            "position" => parse_position(rest),
            "go" => parse_go(rest).map(Command::Go),
            "stop" => Ok(Command::Stop),
            "ponderhit" => Ok(Command::PonderHit),
            _ => Ok(Command::Quit),
        }
    }
}

fn parse_setoption(rest: &[&str]) -> Result<Command, CommandError> {
    if rest.first() != Some(&"name") {
        return Err(CommandError::Missing {
            command: "setoption",
            what: "\"name <option>\"",
        });
    }
    let rest = &rest[1..];
    let value_at = rest.iter().position(|w| *w == "value");
    let name = rest[..value_at.unwrap_or(rest.len())].join(" ");
    if name.is_empty() {
        return Err(CommandError::Missing {
            command: "setoption",
            what: "the option's name",
        });
    }
    let value = value_at.map(|at| rest[at + 1..].join(" "));
    if value.as_deref() == Some("") {
        return Err(CommandError::Missing {
            command: "setoption",
            what: "the value after \"value\"",
        });
    }
    Ok(Command::SetOption { name, value })
}

fn parse_position(rest: &[&str]) -> Result<Command, CommandError> {
    let moves_at = rest.iter().position(|w| *w == "moves");
    let head = &rest[..moves_at.unwrap_or(rest.len())];
    let moves = moves_at.map_or_else(Vec::new, |at| {
        rest[at + 1..].iter().map(|w| (*w).to_owned()).collect()
    });
    let start = match head {
        ["startpos"] => Start::StartPos,
        ["fen", fen @ ..] if !fen.is_empty() => Start::Fen(fen.join(" ")),
        ["fen"] => {
            return Err(CommandError::Missing {
                command: "position",
                what: "the FEN after \"fen\"",
            });
        }
        ["startpos", extra, ..] => {
            return Err(CommandError::BadValue {
                command: "position",
                field: "word after startpos",
                value: (*extra).to_owned(),
                expected: "\"moves\"",
            });
        }
        [] => {
            return Err(CommandError::Missing {
                command: "position",
                what: "\"startpos\" or \"fen <fen>\"",
            });
        }
        [other, ..] => {
            return Err(CommandError::BadValue {
                command: "position",
                field: "start",
                value: (*other).to_owned(),
                expected: "\"startpos\" or \"fen\"",
            });
        }
    };
    Ok(Command::Position { start, moves })
}

fn parse_go(rest: &[&str]) -> Result<Go, CommandError> {
    let mut go = Go::default();
    let mut words = rest.iter().copied().peekable();
    while let Some(word) = words.next() {
        match word {
            "ponder" => go.ponder = true,
            "infinite" => go.infinite = true,
            "searchmoves" => {
                while let Some(m) = words.next_if(|w| !is_go_word(w)) {
                    go.search_moves.push(m.to_owned());
                }
            }
            _ if GO_VALUES.contains(&word) => {
                let field = GO_VALUES
                    .iter()
                    .find(|f| **f == word)
                    .expect("the word is one of GO_VALUES");
                let value = words.next().ok_or(CommandError::Missing {
                    command: "go",
                    what: field,
                })?;
                set_go_value(&mut go, field, value)?;
            }
            _ => go.ignored.push(word.to_owned()),
        }
    }
    Ok(go)
}

fn is_go_word(word: &str) -> bool {
    word == "searchmoves" || GO_FLAGS.contains(&word) || GO_VALUES.contains(&word)
}

fn set_go_value(go: &mut Go, field: &'static str, value: &str) -> Result<(), CommandError> {
    let bad = |expected| CommandError::BadValue {
        command: "go",
        field,
        value: value.to_owned(),
        expected,
    };
    // Clocks may be negative (a GUI that lets a flag fall): they count as no time.
    let millis = || {
        value
            .parse::<i64>()
            .map(|ms| Duration::from_millis(ms.max(0).unsigned_abs()))
            .map_err(|_| bad("a whole number of milliseconds"))
    };
    let count = || value.parse::<u64>().map_err(|_| bad("a whole number"));
    let small =
        || count().and_then(|n| u32::try_from(n).map_err(|_| bad("a whole number below 2^32")));
    match field {
        "wtime" => go.wtime = Some(millis()?),
        "btime" => go.btime = Some(millis()?),
        "winc" => go.winc = Some(millis()?),
        "binc" => go.binc = Some(millis()?),
        "movetime" => go.movetime = Some(millis()?),
        "movestogo" => go.moves_to_go = Some(small()?),
        "depth" => go.depth = Some(small()?),
        "mate" => go.mate = Some(small()?),
        _ => go.nodes = Some(count()?),
    }
    Ok(())
}

impl fmt::Display for Start {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Start::StartPos => f.write_str("startpos"),
            Start::Fen(fen) => write!(f, "fen {fen}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(line: &str) -> Result<Command, CommandError> {
        line.parse()
    }

    #[test]
    fn simple_commands() {
        assert_eq!(parse("uci"), Ok(Command::Uci));
        assert_eq!(parse("  isready  "), Ok(Command::IsReady));
        assert_eq!(parse("debug on"), Ok(Command::Debug(true)));
        assert_eq!(parse("joho debug off"), Ok(Command::Debug(false)));
        assert_eq!(parse("quit"), Ok(Command::Quit));
        assert_eq!(parse("register later"), Ok(Command::Register));
        assert_eq!(Command::skipped_prefix("joho debug on"), ["joho"]);
        assert!(Command::skipped_prefix("debug on").is_empty());
    }

    #[test]
    fn setoption_names_with_spaces() {
        assert_eq!(
            parse("setoption name Skill Level value 5"),
            Ok(Command::SetOption {
                name: "Skill Level".to_owned(),
                value: Some("5".to_owned())
            })
        );
        assert_eq!(
            parse("setoption name Clear Hash"),
            Ok(Command::SetOption {
                name: "Clear Hash".to_owned(),
                value: None
            })
        );
        assert!(matches!(
            parse("setoption Hash 3"),
            Err(CommandError::Missing { .. })
        ));
        assert!(parse("setoption name Hash value").is_err());
    }

    #[test]
    fn positions() {
        assert_eq!(
            parse("position startpos moves e2e4 e7e5"),
            Ok(Command::Position {
                start: Start::StartPos,
                moves: vec!["e2e4".to_owned(), "e7e5".to_owned()]
            })
        );
        let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        assert_eq!(
            parse(&format!("position fen {fen}")),
            Ok(Command::Position {
                start: Start::Fen(fen.to_owned()),
                moves: Vec::new()
            })
        );
        assert!(parse("position").is_err());
        assert!(parse("position fen").is_err());
        assert!(parse("position startpos e2e4").is_err());
        assert!(parse("position somewhere").is_err());
    }

    #[test]
    fn go_parameters() {
        let Ok(Command::Go(go)) = parse(
            "go wtime 1000 btime -20 winc 10 binc 10 movestogo 5 searchmoves e2e4 d2d4 ponder",
        ) else {
            panic!("go parses");
        };
        assert_eq!(go.wtime, Some(Duration::from_millis(1000)));
        assert_eq!(go.btime, Some(Duration::ZERO));
        assert_eq!(go.moves_to_go, Some(5));
        assert_eq!(go.search_moves, ["e2e4", "d2d4"]);
        assert!(go.ponder && !go.infinite);
        let Ok(Command::Go(go)) = parse("go depth 7 nodes 100 mate 3 movetime 50 infinite joho")
        else {
            panic!("go parses");
        };
        assert_eq!(
            (go.depth, go.nodes, go.mate, go.movetime),
            (Some(7), Some(100), Some(3), Some(Duration::from_millis(50)))
        );
        assert!(go.infinite);
        assert_eq!(go.ignored, ["joho"]);
        assert_eq!(parse("go"), Ok(Command::Go(Go::default())));
    }

    #[test]
    fn malformed_lines_say_why() {
        assert_eq!(parse(""), Err(CommandError::Empty));
        assert_eq!(
            parse("hello"),
            Err(CommandError::Unknown("hello".to_owned()))
        );
        assert_eq!(
            parse("go depth").map_err(|e| e.to_string()),
            Err("go: missing depth".to_owned())
        );
        assert_eq!(
            parse("go depth x").map_err(|e| e.to_string()),
            Err("go: depth \"x\" is not a whole number".to_owned())
        );
        assert!(parse("go nodes -5").is_err());
        assert!(parse("debug maybe").is_err());
    }
}
