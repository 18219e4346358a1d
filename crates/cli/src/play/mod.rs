//! `tablero play`: a game in the terminal against the computer or another person,
//! one line at a time, so that it works in any terminal and from a script.

mod commands;
mod session;

use std::io::IsTerminal;
use std::time::Duration;

use tablero_games::{AnyGame, AnyRecord, BoardStyle, Colours, Level};

use crate::PositionArgs;
use commands::Seats;
use session::{Session, Settings};

/// Who plays a side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum Player {
    /// A person types the moves.
    Human,
    /// The engine plays at the chosen level.
    Computer,
}

/// When to colour the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub(crate) enum ColourChoice {
    /// When both standard input and output are a terminal, `NO_COLOR` is not set
    /// and the terminal is not `dumb`.
    #[default]
    Auto,
    /// Always (the 256-colour palette when `TERM` or `COLORTERM` says so).
    Always,
    /// Never.
    Never,
}

/// The arguments of `tablero play`.
#[derive(Debug, clap::Args)]
pub(crate) struct PlayArgs {
    #[command(flatten)]
    position: PositionArgs,
    /// Who plays the first side (white; red in xiangqi).
    #[arg(long, alias = "red", value_name = "WHO")]
    white: Option<Player>,
    /// Who plays black.
    #[arg(long, value_name = "WHO")]
    black: Option<Player>,
    /// The side the computer plays: white (red), black, both or none. Default: the
    /// side that moves second, unless --white or --black is given.
    #[arg(long, value_name = "SIDE", conflicts_with_all = ["white", "black"])]
    computer: Option<String>,
    /// The computer's level, 1 (weakest) to 10 (full strength).
    #[arg(long, default_value = "3")]
    level: String,
    /// The most the computer thinks per move, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 2000)]
    movetime: u64,
    /// Colour the board: auto, always or never.
    #[arg(long, alias = "colour", value_enum, default_value_t = ColourChoice::Auto)]
    color: ColourChoice,
    /// Draw pieces as the position format's letters instead of Unicode symbols.
    #[arg(long)]
    ascii: bool,
    /// Start with the board turned round (black at the bottom).
    #[arg(long)]
    flip: bool,
}

/// Plays until `quit` or the end of standard input.
///
/// # Errors
///
/// A one-line message for a bad game, variant, position, level or side, or when
/// standard input or output fails.
pub(crate) fn run(args: PlayArgs) -> Result<(), String> {
    // Without a position: a Chess960 game starts from one of the 960 at random and a
    // chess3d game with a fresh generator, as on the server.
    let start = match &args.position.fen {
        Some(_) => crate::load(&args.position)?,
        None => AnyGame::new_seeded(
            &args.position.game,
            args.position.variant.as_deref(),
            None,
            tablero_games::fresh_seed(),
        )
        .map_err(|e| e.to_string())?,
    };
    let level: Level = args.level.parse().map_err(|e| format!("--level: {e}"))?;
    let computer = seats(&args, &start)?;
    let stdin_terminal = std::io::stdin().is_terminal();
    let stdout_terminal = std::io::stdout().is_terminal();
    let env = |name: &str| std::env::var(name).ok().filter(|v| !v.is_empty());
    let colours = colours(
        args.color,
        stdin_terminal && stdout_terminal,
        env("NO_COLOR").is_some(),
        env("TERM").as_deref(),
        env("COLORTERM").is_some(),
    );
    // A person playing only the second side sees the board from that side.
    let flipped = args.flip != (computer == [true, false]);
    let settings = Settings {
        variant: args.position.variant.clone(),
        computer,
        level,
        movetime: Duration::from_millis(args.movetime.clamp(10, 600_000)),
        style: BoardStyle {
            flipped,
            colours,
            ascii: args.ascii,
        },
        interactive: stdin_terminal,
    };
    let mut session = Session::new(start, settings);
    let mut out = std::io::stdout().lock();
    session
        .run(std::io::stdin().lock(), &mut out)
        .map_err(|e| format!("play: {e}"))
}

/// Whether the computer plays each side (by `Side::index`).
fn seats(args: &PlayArgs, start: &AnyGame) -> Result<[bool; 2], String> {
    let is_computer = |p: Option<Player>| p == Some(Player::Computer);
    if args.white.is_some() || args.black.is_some() {
        return Ok([is_computer(args.white), is_computer(args.black)]);
    }
    let second = AnyRecord::new(start.clone()).first_side().other();
    let Some(text) = &args.computer else {
        let mut computer = [false, false];
        computer[second.index()] = true;
        return Ok(computer);
    };
    Ok(match Seats::parse(text) {
        Seats::None => [false, false],
        Seats::Both => [true, true],
        Seats::Side(name) => match name.as_str() {
            "white" | "red" => [true, false],
            "black" => [false, true],
            _ => {
                return Err(format!(
                    "--computer {text:?}: expected white (or red), black, both or none"
                ));
            }
        },
    })
}

/// The colours to draw with: none unless asked for or on a terminal that allows them.
fn colours(
    choice: ColourChoice,
    terminal: bool,
    no_color: bool,
    term: Option<&str>,
    colorterm: bool,
) -> Colours {
    let wanted = match choice {
        ColourChoice::Never => false,
        ColourChoice::Always => true,
        ColourChoice::Auto => terminal && !no_color && term.is_some_and(|t| t != "dumb"),
    };
    if !wanted {
        Colours::Off
    } else if colorterm || term.is_some_and(|t| t.contains("256") || t.contains("direct")) {
        Colours::Extended
    } else {
        Colours::Basic
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_follow_the_terminal_and_no_color() {
        use ColourChoice::{Always, Auto, Never};
        let xterm = Some("xterm-256color");
        assert_eq!(colours(Auto, true, false, xterm, false), Colours::Extended);
        assert_eq!(
            colours(Auto, true, false, Some("xterm"), false),
            Colours::Basic
        );
        assert_eq!(
            colours(Auto, true, false, Some("xterm"), true),
            Colours::Extended
        );
        assert_eq!(colours(Auto, false, false, xterm, false), Colours::Off);
        assert_eq!(colours(Auto, true, true, xterm, false), Colours::Off);
        assert_eq!(
            colours(Auto, true, false, Some("dumb"), false),
            Colours::Off
        );
        assert_eq!(colours(Auto, true, false, None, false), Colours::Off);
        assert_eq!(colours(Never, true, false, xterm, false), Colours::Off);
        assert_eq!(colours(Always, false, true, None, false), Colours::Basic);
    }
}
