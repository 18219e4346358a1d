//! `tablero play`: a game in the terminal against the computer or another person,
//! one line at a time, so that it works in any terminal and from a script.

mod clock;
mod commands;
mod input;
mod registry;
mod session;

use std::io::IsTerminal;
use std::time::Duration;

use tablero_games::{AnyPosition, AnyRecord, Level, TimeControl};

use crate::board_text::{BoardStyle, Colours};

use crate::PositionArgs;
use clock::ClockSettings;
use commands::Seats;
use input::ThreadedLines;
use registry::Registry;
use session::{Session, Settings};

/// Who plays a side, as `--white`/`--black` say it.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Player {
    /// A person, perhaps named (a player name of the registry).
    Person(Option<String>),
    /// The engine plays at the chosen level.
    Computer,
}

impl Player {
    /// `human` (or `person`), `computer`, or a person's name: 1–32 letters, digits,
    /// `.` or `-`, as the player registry takes them.
    fn parse(option: &str, text: &str) -> Result<Player, String> {
        match text.to_ascii_lowercase().as_str() {
            "computer" => Ok(Player::Computer),
            "human" | "person" => Ok(Player::Person(None)),
            _ => tablero_store::player_file::check_player_name(text)
                .map(|()| Player::Person(Some(text.to_owned())))
                .map_err(|e| format!("{option}: {e}")),
        }
    }

    /// Whether it was said as a word (`human`, `computer`) rather than a name.
    fn is_word(&self) -> bool {
        !matches!(self, Player::Person(Some(_)))
    }
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
    /// Who plays the first side (white; red in xiangqi): human, computer, or a
    /// person's name (1-32 letters, digits, '.', '-'; the name in saved games and,
    /// with --db, in the player registry).
    #[arg(long, alias = "red", value_name = "WHO")]
    white: Option<String>,
    /// Who plays black: human, computer or a person's name. When only names are
    /// given, the computer plays the side not named.
    #[arg(long, value_name = "WHO")]
    black: Option<String>,
    /// The side the computer plays: white (red), black, both or none. Default: the
    /// side that moves second, unless --white or --black say otherwise.
    #[arg(long, value_name = "SIDE")]
    computer: Option<String>,
    /// A clock for each side: SECS+INC (seconds per side, seconds added per move, as
    /// `tablero match --tc`), e.g. 300+2. It starts with the first move; a flag fall
    /// loses (a draw if the opponent cannot mate).
    #[arg(long, value_name = "SECS+INC", conflicts_with = "timed")]
    clock: Option<String>,
    /// Chess3d's timed mode: one clock of MINUTES for the whole game, from the first
    /// move; when it runs out the side with more pieces wins (equal: a draw).
    #[arg(long, value_name = "MINUTES")]
    timed: Option<f64>,
    /// The seed of the start: chess3d's generator (so that promotions land the same
    /// way again) or a Chess960 start (N mod 960). Default: a fresh one each game,
    /// printed at the start.
    #[arg(long, value_name = "N", conflicts_with = "fen")]
    seed: Option<u64>,
    /// Record finished games in this database (the SQLite file of `tablero serve
    /// --db`, or its URL), with the players' names, so that they count in the player
    /// registry (`tablero players list`, reports). Without it nothing is stored.
    #[arg(long, value_name = "PATH")]
    db: Option<String>,
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
        None => AnyPosition::of_seeded(
            args.position.game,
            args.position.variant()?,
            None,
            args.seed.unwrap_or_else(tablero_games::fresh_seed),
        )
        .map_err(|e| e.to_string())?,
    };
    let level: Level = args.level.parse().map_err(|e| format!("--level: {e}"))?;
    let (computer, names) = seats(&args, &start)?;
    let clock = clock_settings(&args, &start)?;
    let registry = args.db.as_deref().map(Registry::open).transpose()?;
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
        computer,
        level,
        movetime: Duration::from_millis(args.movetime.clamp(10, 600_000)),
        style: BoardStyle {
            flipped,
            colours,
            ascii: args.ascii,
        },
        interactive: stdin_terminal,
        clock,
        names,
        seed: args.seed,
        fixed_start: args.position.fen.is_some(),
    };
    let mut session = Session::new(start, settings, registry);
    let mut out = std::io::stdout().lock();
    let mut lines = ThreadedLines::spawn(std::io::BufReader::new(std::io::stdin()));
    let result = session
        .run(&mut lines, &mut out)
        .map_err(|e| format!("play: {e}"));
    session.close();
    result
}

/// The clock of `--clock` or `--timed`, checked against the game.
fn clock_settings(args: &PlayArgs, start: &AnyPosition) -> Result<Option<ClockSettings>, String> {
    if let Some(text) = &args.clock {
        let tc: TimeControl = text.parse().map_err(|e| format!("--clock: {e}"))?;
        return Ok(Some(ClockSettings::Fischer {
            base: tc.base,
            increment: tc.increment,
        }));
    }
    let Some(minutes) = args.timed else {
        return Ok(None);
    };
    if !start.kind().has_game_clock() {
        return Err(format!(
            "--timed: one clock for the whole game is chess3d's timed mode, not {}'s (use --clock SECS+INC)",
            start.game_id()
        ));
    }
    if !(minutes.is_finite() && minutes > 0.0 && minutes <= 24.0 * 60.0) {
        return Err(format!(
            "--timed {minutes}: expected minutes for the game, more than 0 and at most 1440"
        ));
    }
    Ok(Some(ClockSettings::Game {
        total: Duration::from_secs_f64(minutes * 60.0),
    }))
}

/// Whether the computer plays each side, and the people's names (by `Side::index`).
fn seats(args: &PlayArgs, start: &AnyPosition) -> Result<([bool; 2], [Option<String>; 2]), String> {
    let white = args
        .white
        .as_deref()
        .map(|t| Player::parse("--white", t))
        .transpose()?;
    let black = args
        .black
        .as_deref()
        .map(|t| Player::parse("--black", t))
        .transpose()?;
    let name = |p: &Option<Player>| match p {
        Some(Player::Person(name)) => name.clone(),
        _ => None,
    };
    let names = [name(&white), name(&black)];
    let players = [white, black];
    let computer = computer_seats(args, start, &players)?;
    for (i, (player, option)) in players.iter().zip(["--white", "--black"]).enumerate() {
        let clash = match player {
            Some(Player::Computer) => !computer[i],
            Some(Player::Person(_)) => computer[i],
            None => false,
        };
        if clash {
            return Err(format!(
                "{option} and --computer disagree about who plays that side"
            ));
        }
    }
    Ok((computer, names))
}

/// Whether the computer plays each side.
fn computer_seats(
    args: &PlayArgs,
    start: &AnyPosition,
    players: &[Option<Player>; 2],
) -> Result<[bool; 2], String> {
    let Some(text) = &args.computer else {
        if players.iter().all(Option::is_none) {
            let second = AnyRecord::new(start.clone()).first_side().other();
            let mut computer = [false, false];
            computer[second.index()] = true;
            return Ok(computer);
        }
        // Said with words, a side not named is a person; with names only, the
        // computer plays the side not named.
        let words = players.iter().flatten().any(Player::is_word);
        return Ok(players.clone().map(|p| match p {
            Some(p) => p == Player::Computer,
            None => !words,
        }));
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
