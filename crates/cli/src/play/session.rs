//! A game at the terminal: the record, who plays which side, the board's look, and
//! the answer to each line typed.

use std::io::{self, BufRead, Write};
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use tablero_core::{Outcome, Side};
use tablero_games::{
    AnyEngine, AnyGame, AnyRecord, BoardStyle, CATALOG, Level, Limits, RecordError, SearchRequest,
    board_text,
};

use super::commands::{self, HELP, Input, Seats};

/// Moves (pairs of plies) shown in the move list under the board.
const SHOWN_MOVES: usize = 8;

/// What a session starts with.
#[derive(Debug, Clone)]
pub(crate) struct Settings {
    /// The variant asked for (draughts files are read under it).
    pub variant: Option<String>,
    /// Whether the computer plays each side, by [`Side::index`].
    pub computer: [bool; 2],
    /// The computer's level.
    pub level: Level,
    /// The most the computer thinks per move.
    pub movetime: Duration,
    /// How the board is drawn.
    pub style: BoardStyle,
    /// Whether a person types at a terminal: then a prompt is shown.
    pub interactive: bool,
}

/// A game in progress at the terminal.
#[derive(Debug)]
pub(crate) struct Session {
    start: AnyGame,
    record: AnyRecord,
    /// An end the rules do not see: a resignation, a claimed draw, a loaded result.
    ended: Option<Outcome>,
    settings: Settings,
    engine: AnyEngine,
    sides: [&'static str; 2],
}

/// What to do after a line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Next {
    Continue,
    Quit,
}

impl Session {
    /// A session from `start` under `settings`.
    pub(crate) fn new(start: AnyGame, settings: Settings) -> Session {
        let sides = CATALOG
            .iter()
            .find(|g| g.id == start.game_id())
            .map_or(["white", "black"], |g| g.sides);
        Session {
            engine: AnyEngine::for_game(&start, 64),
            record: AnyRecord::new(start.clone()),
            start,
            ended: None,
            settings,
            sides,
        }
    }

    /// Reads lines from `input` until `quit` or the end of the input, answering each
    /// on `out`.
    ///
    /// # Errors
    ///
    /// Only when reading or writing fails.
    pub(crate) fn run(&mut self, input: impl BufRead, out: &mut impl Write) -> io::Result<()> {
        self.introduce(out)?;
        self.show(out)?;
        if self.computer_to_move() {
            self.computer_moves(out)?;
            self.show(out)?;
        }
        let mut lines = input.lines();
        loop {
            if self.settings.interactive {
                write!(out, "{}> ", self.side_name(self.record.turn()))?;
            }
            out.flush()?;
            let Some(line) = lines.next() else {
                if self.settings.interactive {
                    writeln!(out)?;
                }
                writeln!(out, "End of input: goodbye.")?;
                break;
            };
            let line = line?;
            if !self.settings.interactive {
                // Echo scripted input so that the transcript reads like a session.
                writeln!(out, "> {}", line.trim())?;
            }
            match commands::parse(&line) {
                Ok(input) => {
                    if self.apply(input, out)? == Next::Quit {
                        writeln!(out, "Goodbye.")?;
                        break;
                    }
                }
                Err(e) => writeln!(out, "{e}")?,
            }
        }
        out.flush()
    }

    fn apply(&mut self, input: Input, out: &mut impl Write) -> io::Result<Next> {
        match input {
            Input::Empty => {}
            Input::Quit => return Ok(Next::Quit),
            Input::Move(text) => self.human_move(&text, out)?,
            Input::Undo => self.undo(out)?,
            Input::Save(path) => self.save(&path, out)?,
            Input::Load(path) => self.load(&path, out)?,
            Input::Hint => self.hint(out)?,
            Input::Flip => {
                self.settings.style.flipped = !self.settings.style.flipped;
                self.show(out)?;
            }
            Input::Level(None) => {
                writeln!(out, "The computer plays at level {}.", self.settings.level)?
            }
            Input::Level(Some(level)) => {
                self.settings.level = level;
                writeln!(out, "The computer now plays at level {level}.")?;
            }
            Input::New => {
                self.record = AnyRecord::new(self.start.clone());
                self.ended = None;
                self.engine.new_game();
                writeln!(out, "New game.")?;
                self.show(out)?;
                self.after_human(out)?;
            }
            Input::Help => writeln!(out, "{HELP}")?,
            Input::Moves => self.list_moves(out)?,
            Input::Board => self.show(out)?,
            Input::Position => writeln!(out, "{}", self.record.position().position_text())?,
            Input::Resign => {
                if let Some(over) = self.over() {
                    writeln!(out, "The game is already over: {}.", self.describe(over))?;
                } else {
                    let loser = self.record.turn();
                    self.ended = Some(self.record.resign_outcome(loser));
                    writeln!(out, "{} resigns.", capital(self.side_name(loser)))?;
                    self.show_status(out)?;
                }
            }
            Input::Draw => match (self.over(), self.record.claimable_draw()) {
                (Some(over), _) => {
                    writeln!(out, "The game is already over: {}.", self.describe(over))?
                }
                (None, Some(reason)) => {
                    self.ended = Some(Outcome::Draw { reason });
                    self.show_status(out)?;
                }
                (None, None) => writeln!(
                    out,
                    "No draw to claim here: a claim needs a threefold repetition or fifty moves without a capture or pawn move (chess)."
                )?,
            },
            Input::Computer(None) => self.describe_players(out)?,
            Input::Computer(Some(seats)) => self.set_computer(&seats, out)?,
        }
        Ok(Next::Continue)
    }

    fn introduce(&self, out: &mut impl Write) -> io::Result<()> {
        let info = CATALOG.iter().find(|g| g.id == self.start.game_id());
        let game = info.map_or(self.start.game_id(), |g| g.name);
        // The variant when the game has several (Chess960, a draughts rule set), and
        // a Chess960 start's number.
        let variant = info
            .filter(|g| g.default_variant() != self.start.variant_id())
            .and_then(|g| g.variants.iter().find(|v| v.id == self.start.variant_id()))
            .map(|v| v.name);
        let title = match (variant, self.start.chess960_number()) {
            (Some(variant), Some(number)) => format!("{variant}, start {number}"),
            (Some(variant), None) if game != variant => format!("{game}, {variant}"),
            (Some(variant), None) => variant.to_owned(),
            (None, _) => game.to_owned(),
        };
        writeln!(out, "tablero play: {title}.")?;
        self.describe_players(out)?;
        let example = self.record.position().legal_moves_with_notation();
        let example = match example.last() {
            Some((m, notation)) if m != notation => format!(" (e.g. {notation} or {m})"),
            Some((m, _)) => format!(" (e.g. {m})"),
            None => String::new(),
        };
        writeln!(
            out,
            "Type a move{example} or a command: help, moves, undo, hint, save, load, flip, level, new, quit."
        )
    }

    fn describe_players(&self, out: &mut impl Write) -> io::Result<()> {
        let who = |side: Side| {
            if self.settings.computer[side.index()] {
                format!("the computer (level {})", self.settings.level)
            } else {
                "a person".to_owned()
            }
        };
        writeln!(
            out,
            "{} is {}; {} is {}.",
            capital(self.side_name(Side::White)),
            who(Side::White),
            capital(self.side_name(Side::Black)),
            who(Side::Black)
        )
    }

    fn set_computer(&mut self, seats: &Seats, out: &mut impl Write) -> io::Result<()> {
        self.settings.computer = match seats {
            Seats::None => [false, false],
            Seats::Both => [true, true],
            Seats::Side(name) => match self.side_named(name) {
                Some(side) => {
                    let mut computer = [false, false];
                    computer[side.index()] = true;
                    computer
                }
                None => {
                    return writeln!(
                        out,
                        "computer: unknown side {name:?} (expected {}, {}, both or none)",
                        self.sides[0], self.sides[1]
                    );
                }
            },
        };
        self.describe_players(out)?;
        if self.computer_to_move() {
            self.computer_moves(out)?;
            self.show(out)?;
        }
        Ok(())
    }

    /// The side called `name` in this game (`red` is xiangqi's first side; `white`
    /// is accepted for it too).
    pub(crate) fn side_named(&self, name: &str) -> Option<Side> {
        let name = name.to_ascii_lowercase();
        if name == self.sides[0] || name == "white" || name == "red" {
            Some(Side::White)
        } else if name == self.sides[1] || name == "black" {
            Some(Side::Black)
        } else {
            None
        }
    }

    fn side_name(&self, side: Side) -> &'static str {
        self.sides[side.index()]
    }

    /// The outcome, from the rules or from a resignation, claim or loaded result.
    fn over(&self) -> Option<Outcome> {
        self.record.outcome().or(self.ended)
    }

    fn computer_to_move(&self) -> bool {
        self.over().is_none() && self.settings.computer[self.record.turn().index()]
    }

    fn describe(&self, outcome: Outcome) -> String {
        let reason = outcome.reason().to_string();
        match outcome.winner() {
            Some(side) => format!(
                "{} wins by {reason} ({})",
                capital(self.side_name(side)),
                outcome.result_str()
            ),
            None => format!("draw by {reason} ({})", outcome.result_str()),
        }
    }

    fn human_move(&mut self, text: &str, out: &mut impl Write) -> io::Result<()> {
        if let Some(over) = self.over() {
            return writeln!(
                out,
                "{text:?} not played: the game is over ({}). Type undo, new, load or quit.",
                self.describe(over)
            );
        }
        let mover = self.record.turn();
        match self.record.play_text(text) {
            Ok(played) => {
                writeln!(
                    out,
                    "{} plays {}.",
                    capital(self.side_name(mover)),
                    played.notation
                )?;
                self.after_human(out)
            }
            // The reason names the move and what is wrong with it.
            Err(RecordError::Move { reason, .. }) => writeln!(
                out,
                "{reason}. Nothing changed (type `moves` for the legal moves, `help` for the commands)."
            ),
            Err(e) => writeln!(out, "Not played: {e}."),
        }
    }

    /// Lets the computer answer, then shows the position.
    fn after_human(&mut self, out: &mut impl Write) -> io::Result<()> {
        if self.computer_to_move() {
            self.computer_moves(out)?;
        }
        self.show(out)
    }

    /// Plays the computer's moves while it is the computer's turn.
    fn computer_moves(&mut self, out: &mut impl Write) -> io::Result<()> {
        let mut first = true;
        while self.computer_to_move() {
            if !first {
                // The computer plays both sides: show each position on the way.
                self.show(out)?;
            }
            first = false;
            let side = self.record.turn();
            if self.settings.interactive {
                writeln!(out, "{} is thinking...", capital(self.side_name(side)))?;
                out.flush()?;
            }
            let request = SearchRequest {
                limits: Limits::movetime(self.settings.movetime),
                level: Some(self.settings.level),
                seed: tablero_games::fresh_seed(),
                ..SearchRequest::default()
            };
            let result = self.engine.search(
                self.record.position(),
                self.record.history(),
                &request,
                &AtomicBool::new(false),
                |_| {},
            );
            let Some(best) = result.best else {
                writeln!(out, "The computer finds no move.")?;
                self.settings.computer[side.index()] = false;
                break;
            };
            match self.record.play_text(&best) {
                Ok(played) => writeln!(
                    out,
                    "{} (computer) plays {}.",
                    capital(self.side_name(side)),
                    played.notation
                )?,
                Err(e) => {
                    // Cannot happen for a move the engine found legal; hand over rather
                    // than loop.
                    writeln!(out, "The computer's move was refused ({e}); you play on.")?;
                    self.settings.computer[side.index()] = false;
                    break;
                }
            }
        }
        Ok(())
    }

    fn undo(&mut self, out: &mut impl Write) -> io::Result<()> {
        if self.ended.take().is_some() && self.record.outcome().is_none() {
            writeln!(out, "The game goes on.")?;
            return self.show(out);
        }
        let mut taken = Vec::new();
        if let Some(m) = self.record.undo() {
            taken.push(m.notation);
        }
        // Against the computer, take back to the person's turn.
        while self.record.plies() > 0 && self.settings.computer[self.record.turn().index()] {
            match self.record.undo() {
                Some(m) => taken.push(m.notation),
                None => break,
            }
        }
        if taken.is_empty() {
            return writeln!(out, "Nothing to undo: no move has been played.");
        }
        taken.reverse();
        writeln!(out, "Took back {}.", taken.join(" "))?;
        self.show(out)
    }

    fn tags(&self) -> Vec<(String, String)> {
        let mut tags = vec![("Event".to_owned(), "tablero play".to_owned())];
        for side in [Side::White, Side::Black] {
            let player = if self.settings.computer[side.index()] {
                format!("tablero level {}", self.settings.level)
            } else {
                "person".to_owned()
            };
            tags.push((self.record.player_tag(side).to_owned(), player));
        }
        tags
    }

    fn save(&self, path: &Path, out: &mut impl Write) -> io::Result<()> {
        let text = self.record.export(&self.tags(), self.ended);
        match std::fs::write(path, text) {
            Ok(()) => writeln!(
                out,
                "Saved {} plies to {}.",
                self.record.plies(),
                path.display()
            ),
            Err(e) => writeln!(out, "Cannot save to {}: {e}.", path.display()),
        }
    }

    fn load(&mut self, path: &Path, out: &mut impl Write) -> io::Result<()> {
        let text = match std::fs::read_to_string(path) {
            Ok(text) => text,
            Err(e) => return writeln!(out, "Cannot read {}: {e}.", path.display()),
        };
        let games = AnyRecord::import(
            self.start.game_id(),
            self.settings.variant.as_deref(),
            &text,
        );
        let count = games.len();
        let Some(first) = games.into_iter().next() else {
            return writeln!(out, "{}: no game in the file.", path.display());
        };
        let imported = match first {
            Ok(imported) => imported,
            Err(e) => return writeln!(out, "{}: {e}. Nothing changed.", path.display()),
        };
        // The rules' own end is the record's; otherwise the file's result stands.
        self.ended = match imported.record.outcome() {
            None => imported.outcome(),
            Some(_) => None,
        };
        self.record = imported.record;
        self.engine.new_game();
        let more = if count > 1 {
            format!(" (the first of {count} games)")
        } else {
            String::new()
        };
        writeln!(
            out,
            "Loaded {} plies from {}{more}.",
            self.record.plies(),
            path.display()
        )?;
        self.after_human(out)
    }

    fn hint(&self, out: &mut impl Write) -> io::Result<()> {
        if let Some(over) = self.over() {
            return writeln!(out, "No hint: the game is over ({}).", self.describe(over));
        }
        let request = SearchRequest {
            limits: Limits::movetime(self.settings.movetime.min(Duration::from_secs(2))),
            ..SearchRequest::default()
        };
        let result = self.engine.search(
            self.record.position(),
            self.record.history(),
            &request,
            &AtomicBool::new(false),
            |_| {},
        );
        match result.best {
            Some(best) => {
                let notation = self
                    .record
                    .position()
                    .legal_moves_with_notation()
                    .into_iter()
                    .find(|(m, _)| *m == best)
                    .map_or_else(|| best.clone(), |(_, n)| n);
                if notation == best {
                    writeln!(out, "Hint: {best}.")
                } else {
                    writeln!(out, "Hint: {notation} ({best}).")
                }
            }
            None => writeln!(out, "No hint: there is no legal move."),
        }
    }

    fn list_moves(&self, out: &mut impl Write) -> io::Result<()> {
        if let Some(over) = self.over() {
            return writeln!(out, "No moves: the game is over ({}).", self.describe(over));
        }
        let moves = self.record.position().legal_moves_with_notation();
        let words: Vec<String> = moves
            .iter()
            .map(|(m, n)| {
                if m == n {
                    m.clone()
                } else {
                    format!("{n} ({m})")
                }
            })
            .collect();
        writeln!(
            out,
            "{} legal moves for {}:",
            words.len(),
            self.side_name(self.record.turn())
        )?;
        writeln!(out, "{}", wrap(&words, 78))
    }

    /// The board, the last moves and whose turn it is (or how the game ended).
    fn show(&self, out: &mut impl Write) -> io::Result<()> {
        writeln!(out)?;
        write!(
            out,
            "{}",
            board_text(self.record.position(), self.settings.style)
        )?;
        if self.record.plies() > 0 {
            writeln!(out, "Moves: {}", self.move_list())?;
        }
        self.show_status(out)
    }

    fn show_status(&self, out: &mut impl Write) -> io::Result<()> {
        match self.over() {
            Some(outcome) => writeln!(out, "Game over: {}.", self.describe(outcome)),
            None => {
                if self.record.position().is_check() {
                    writeln!(out, "Check!")?;
                }
                let side = self.record.turn();
                let who = if self.settings.computer[side.index()] {
                    " (computer)"
                } else {
                    ""
                };
                writeln!(out, "{}{who} to move.", capital(self.side_name(side)))
            }
        }
    }

    /// The last moves in the display notation with move numbers: `1. e4 e5 2. Nf3`.
    fn move_list(&self) -> String {
        let leader = self.record.first_side();
        let mut number = start_move_number(self.record.start());
        // Every move passes the turn, so the start's side follows from the parity.
        let plies = self.record.plies();
        let mut side = if plies.is_multiple_of(2) {
            self.record.turn()
        } else {
            self.record.turn().other()
        };
        let mut groups: Vec<String> = Vec::new();
        for (i, m) in self.record.moves().iter().enumerate() {
            if side == leader {
                groups.push(format!("{number}. {}", m.notation));
            } else if i == 0 {
                groups.push(format!("{number}... {}", m.notation));
            } else if let Some(last) = groups.last_mut() {
                last.push(' ');
                last.push_str(&m.notation);
            }
            if side != leader {
                number += 1;
            }
            side = side.other();
        }
        let skip = groups.len().saturating_sub(SHOWN_MOVES);
        let shown = groups[skip..].join(" ");
        if skip > 0 {
            format!("... {shown}")
        } else {
            shown
        }
    }
}

/// The move number of a start position: the position text's move counter (chess,
/// xiangqi, chess3d), 1 where the format has none (draughts).
fn start_move_number(start: &AnyGame) -> u32 {
    let text = start.position_text();
    let field = match start.game_id() {
        "chess" | "xiangqi" => 5,
        "chess3d" => 3,
        _ => return 1,
    };
    text.split_whitespace()
        .nth(field)
        .and_then(|n| n.parse().ok())
        .filter(|&n| n >= 1)
        .unwrap_or(1)
}

fn capital(word: &str) -> String {
    let mut chars = word.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// Words joined by spaces in lines of at most `width` columns.
fn wrap(words: &[String], width: usize) -> String {
    let mut out = String::new();
    let mut line = 0;
    for word in words {
        let len = word.chars().count();
        if line > 0 && line + 1 + len > width {
            out.push('\n');
            line = 0;
        } else if line > 0 {
            out.push(' ');
            line += 1;
        }
        out.push_str(word);
        line += len;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn session(game: &str, variant: Option<&str>, fen: Option<&str>) -> Session {
        let start = AnyGame::new(game, variant, fen).expect("a valid start in this test");
        Session::new(
            start,
            Settings {
                variant: variant.map(str::to_owned),
                computer: [false, false],
                level: Level::MIN,
                movetime: Duration::from_millis(50),
                style: BoardStyle::default(),
                interactive: false,
            },
        )
    }

    fn run(session: &mut Session, script: &str) -> String {
        let mut out = Vec::new();
        session
            .run(script.as_bytes(), &mut out)
            .expect("writing to memory works");
        String::from_utf8(out).expect("the session writes UTF-8")
    }

    #[test]
    fn move_numbers_follow_the_start_and_the_first_mover() {
        let fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 7";
        let mut s = session("chess", None, Some(fen));
        run(&mut s, "e5\nNf3\nNc6\n");
        assert_eq!(s.move_list(), "7... e5 8. Nf3 Nc6");

        // English draughts and chess3d: Black moves first and leads each pair.
        let mut s = session("draughts", None, None);
        run(&mut s, "11-15\n22-18\n15x22\n");
        assert_eq!(s.move_list(), "1. 11-15 22-18 2. 15x22");
        let mut s = session("chess3d", None, None);
        run(&mut s, "P-0-F1\nP-0-C1\n");
        assert_eq!(s.move_list(), "1. P-0-F1 P-0-C1");
    }

    #[test]
    fn long_move_lists_show_the_last_moves() {
        let mut s = session("chess", None, None);
        let moves = "a3 a6 b3 b6 c3 c6 d3 d6 e3 e6 f3 f6 g3 g6 h3 h6 a4 a5 b4 b5";
        run(&mut s, &moves.replace(' ', "\n"));
        let list = s.move_list();
        assert_eq!(
            list,
            "... 3. c3 c6 4. d3 d6 5. e3 e6 6. f3 f6 7. g3 g6 8. h3 h6 9. a4 a5 10. b4 b5"
        );
    }

    #[test]
    fn repetition_ends_a_xiangqi_game_and_is_announced() {
        let mut s = session("xiangqi", None, None);
        let out = run(&mut s, &"h0g2\nh9g7\ng2h0\ng7h9\n".repeat(3));
        assert!(
            out.contains("Game over: draw by repetition (1/2-1/2)."),
            "{out}"
        );
    }

    #[test]
    fn the_computer_answers_and_undo_takes_back_both_moves() {
        let mut s = session("chess", None, None);
        s.settings.computer = [false, true];
        let out = run(&mut s, "e4\nundo\nposition\n");
        assert!(out.contains("Black (computer) plays "), "{out}");
        assert!(out.contains("Took back e4 "), "{out}");
        assert_eq!(s.record.plies(), 0);
        assert!(out.contains("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"));
    }

    #[test]
    fn the_computer_can_take_over_and_hand_back() {
        let mut s = session("draughts", Some("international"), None);
        let out = run(&mut s, "computer white\ncomputer none\ncomputer green\n");
        assert!(out.contains("White (computer) plays "), "{out}");
        assert!(
            out.contains("White is a person; Black is a person."),
            "{out}"
        );
        assert!(
            out.contains("computer: unknown side \"green\" (expected white, black, both or none)")
        );
        assert_eq!(s.record.plies(), 1);
    }

    #[test]
    fn draws_are_claimed_only_when_due() {
        let mut s = session("chess", None, None);
        let out = run(
            &mut s,
            &format!("draw\n{}draw\ne4\n", "Nf3\nNf6\nNg1\nNg8\n".repeat(2)),
        );
        assert!(out.contains("No draw to claim here"), "{out}");
        assert!(
            out.contains("Game over: draw by threefold repetition (1/2-1/2)."),
            "{out}"
        );
        assert!(out.contains("\"e4\" not played: the game is over"), "{out}");
    }

    #[test]
    fn load_refuses_a_bad_file_and_keeps_the_game() {
        let path =
            std::env::temp_dir().join(format!("tablero-play-unit-{}.pgn", std::process::id()));
        std::fs::write(&path, "1. e4 Ke7 Qh5 *\n").expect("temp file");
        let mut s = session("chess", None, None);
        let out = run(&mut s, &format!("d4\nload {}\n", path.display()));
        let _ = std::fs::remove_file(&path);
        assert!(out.contains("game 1: "), "{out}");
        assert!(out.contains("Nothing changed."), "{out}");
        assert_eq!(s.record.plies(), 1);
    }

    #[test]
    fn xiangqi_sides_are_red_and_black() {
        let s = session("xiangqi", None, None);
        assert_eq!(s.side_named("Red"), Some(Side::White));
        assert_eq!(s.side_named("white"), Some(Side::White));
        assert_eq!(s.side_named("black"), Some(Side::Black));
        assert_eq!(s.side_named("blue"), None);
    }
}
