//! One line typed at `tablero play`: a command word with its arguments, or a move.

use std::path::PathBuf;

use tablero_games::Level;

/// What a line asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Input {
    /// An empty line: nothing to do.
    Empty,
    /// A move in the game's move format or display notation.
    Move(String),
    /// Take back the last move (and the computer's reply before it).
    Undo,
    /// Write the game to a file.
    Save(PathBuf),
    /// Read a game from a file.
    Load(PathBuf),
    /// Ask the engine for a move.
    Hint,
    /// Turn the board round.
    Flip,
    /// Show (`None`) or set the computer's level.
    Level(Option<Level>),
    /// Start again from the start position.
    New,
    /// List the commands.
    Help,
    /// List the legal moves.
    Moves,
    /// Draw the board again.
    Board,
    /// Print the position in the game's position format (FEN, PDN FEN, chess3d).
    Position,
    /// The side to move resigns.
    Resign,
    /// The side to move offers a draw.
    Draw,
    /// The side to move claims a draw (threefold repetition, fifty moves).
    Claim,
    /// Show (`None`) or change which sides the computer plays.
    Computer(Option<Seats>),
    /// Leave.
    Quit,
}

/// The sides the computer plays, as typed after `computer` or `--computer`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Seats {
    /// Nobody: two people play.
    None,
    /// Both sides: watch the computer play itself.
    Both,
    /// One side, by the name the game gives it (`white`, `red`, `black`).
    Side(String),
}

impl Seats {
    /// Reads `none`, `both` or a side name (checked against the game later).
    pub(crate) fn parse(word: &str) -> Seats {
        match word.to_ascii_lowercase().as_str() {
            "none" | "nobody" => Seats::None,
            "both" | "all" => Seats::Both,
            other => Seats::Side(other.to_owned()),
        }
    }
}

/// Why a line could not be read. Nothing changes when a line is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum InputError {
    /// `save` or `load` without a file name.
    #[error("{command}: which file? (e.g. `{command} game.pgn`)")]
    MissingFile {
        /// The command word.
        command: &'static str,
    },
    /// A level outside 1-10.
    #[error("{0}")]
    Level(#[from] tablero_engine::LevelError),
    /// Words after a command that takes none (or fewer).
    #[error("{command}: unexpected {extra:?} (type `help` for the commands)")]
    Extra {
        /// The command word.
        command: &'static str,
        /// What followed it.
        extra: String,
    },
    /// Several words that are not a command: moves go one per line.
    #[error("{0:?}: one move at a time, please (or a command; type `help`)")]
    SeveralMoves(String),
}

/// Reads one line. Command words are case-insensitive; anything else is a move.
///
/// # Errors
///
/// A command with missing or unexpected arguments, a bad level, or several words
/// that are not a command.
pub(crate) fn parse(line: &str) -> Result<Input, InputError> {
    let line = line.trim();
    let (word, rest) = match line.split_once(char::is_whitespace) {
        Some((word, rest)) => (word, rest.trim()),
        None => (line, ""),
    };
    let bare = |command: &'static str, input: Input| {
        if rest.is_empty() {
            Ok(input)
        } else {
            Err(InputError::Extra {
                command,
                extra: rest.to_owned(),
            })
        }
    };
    let file = |command: &'static str| {
        if rest.is_empty() {
            Err(InputError::MissingFile { command })
        } else {
            Ok(PathBuf::from(rest))
        }
    };
    match word.to_ascii_lowercase().as_str() {
        "" => Ok(Input::Empty),
        "undo" | "takeback" | "back" => bare("undo", Input::Undo),
        "save" => file("save").map(Input::Save),
        "load" => file("load").map(Input::Load),
        "hint" => bare("hint", Input::Hint),
        "flip" => bare("flip", Input::Flip),
        "level" if rest.is_empty() => Ok(Input::Level(None)),
        "level" => Ok(Input::Level(Some(rest.parse()?))),
        "new" => bare("new", Input::New),
        "help" | "?" => bare("help", Input::Help),
        "moves" | "legal" => bare("moves", Input::Moves),
        "board" => bare("board", Input::Board),
        "position" | "fen" => bare("position", Input::Position),
        "resign" => bare("resign", Input::Resign),
        "draw" | "offer" => bare("draw", Input::Draw),
        "claim" => bare("claim", Input::Claim),
        "computer" if rest.is_empty() => Ok(Input::Computer(None)),
        "computer" => {
            if rest.contains(char::is_whitespace) {
                Err(InputError::Extra {
                    command: "computer",
                    extra: rest.to_owned(),
                })
            } else {
                Ok(Input::Computer(Some(Seats::parse(rest))))
            }
        }
        "quit" | "exit" | "q" => bare("quit", Input::Quit),
        _ if rest.is_empty() => Ok(Input::Move(word.to_owned())),
        _ => Err(InputError::SeveralMoves(line.to_owned())),
    }
}

/// The text of `help`.
pub(crate) const HELP: &str = "\
Type a move in the game's notation (SAN like Nf3, WXF like C2.5, PDN like 11-15,
the chess3d short form like P-0-C5) or its move format (e2e4, h2e2, 11-15, 0B5-0C5).
Commands:
  moves           list the legal moves
  undo            take back your last move (and the computer's reply)
  hint            ask the engine for a move
  save FILE       write the game (PGN, PDN or the chess3d record)
  load FILE       read a game written by save (or another program)
  flip            turn the board round
  level [N]       show or set the computer's level, 1 (weakest) to 10
  computer [WHO]  show or set who the computer plays: a side, both or none
  board           draw the board again
  position        print the position (FEN, PDN FEN or the chess3d position string)
  resign          the side to move gives up
  draw            offer a draw: the computer decides from its evaluation, a person
                  is asked (yes/no)
  claim           claim a draw when the rules allow one (chess: threefold
                  repetition, fifty-move rule; a notice says when)
  new             start again
  help            this text
  quit            leave";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_and_moves() {
        assert_eq!(parse("  "), Ok(Input::Empty));
        assert_eq!(parse("e4"), Ok(Input::Move("e4".to_owned())));
        assert_eq!(parse(" 11-15 "), Ok(Input::Move("11-15".to_owned())));
        assert_eq!(parse("炮二平五"), Ok(Input::Move("炮二平五".to_owned())));
        assert_eq!(parse("UNDO"), Ok(Input::Undo));
        assert_eq!(
            parse("save my game.pgn"),
            Ok(Input::Save(PathBuf::from("my game.pgn")))
        );
        assert_eq!(parse("load x.pdn"), Ok(Input::Load(PathBuf::from("x.pdn"))));
        assert_eq!(parse("level"), Ok(Input::Level(None)));
        assert_eq!(parse("level 7"), Ok(Input::Level(Level::new(7))));
        assert_eq!(
            parse("computer Black"),
            Ok(Input::Computer(Some(Seats::Side("black".to_owned()))))
        );
        assert_eq!(
            parse("computer none"),
            Ok(Input::Computer(Some(Seats::None)))
        );
        assert_eq!(parse("quit"), Ok(Input::Quit));
        assert_eq!(parse("draw"), Ok(Input::Draw));
        assert_eq!(parse("Claim"), Ok(Input::Claim));
    }

    #[test]
    fn bad_lines_say_why() {
        assert_eq!(
            parse("save").map_err(|e| e.to_string()),
            Err("save: which file? (e.g. `save game.pgn`)".to_owned())
        );
        assert_eq!(
            parse("level 11").map_err(|e| e.to_string()),
            Err("level \"11\": expected a whole number from 1 to 10".to_owned())
        );
        assert_eq!(
            parse("undo 3").map_err(|e| e.to_string()),
            Err("undo: unexpected \"3\" (type `help` for the commands)".to_owned())
        );
        assert!(matches!(
            parse("e4 e5"),
            Err(InputError::SeveralMoves(text)) if text == "e4 e5"
        ));
    }
}
