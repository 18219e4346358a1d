//! A game at the terminal: the record, who plays which side, the board's look, and
//! the answer to each line typed.

use std::io::{self, Write};
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use tablero_core::{Outcome, Reason, Side};
use tablero_games::{
    AnyEngine, AnyPosition, AnyRecord, Level, Limits, RecordError, SearchRequest, TimeControl,
};
use tablero_store::MoveRecord;

use crate::board_text::{BoardStyle, board_text};

use super::clock::{ClockSettings, GameClock};
use super::commands::{self, HELP, Input, Seats};
use super::input::{LineSource, Read};
use super::registry::{FinishedGame, Registry, clock_record};

/// The tags of a loaded file that a save keeps (besides the players'): the facts of
/// the game, not those the writer makes itself (result, position, format).
const KEPT_TAGS: [&str; 5] = ["Event", "Site", "Date", "Round", "TimeControl"];

/// Moves (pairs of plies) shown in the move list under the board.
const SHOWN_MOVES: usize = 8;

/// What a session starts with.
#[derive(Debug, Clone)]
pub(crate) struct Settings {
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
    /// The clock of every game, if any.
    pub clock: Option<ClockSettings>,
    /// The people's names (white or red first), from `--white`/`--black`.
    pub names: [Option<String>; 2],
    /// The seed of every new game's start (`--seed`: chess3d's generator, a Chess960
    /// start); `None`: a fresh one for each game.
    pub seed: Option<u64>,
    /// The start was given (`--fen`): `new` goes back to it rather than making a
    /// fresh start.
    pub fixed_start: bool,
}

/// A game in progress at the terminal.
#[derive(Debug)]
pub(crate) struct Session {
    start: AnyPosition,
    record: AnyRecord,
    /// An end the rules do not see: a resignation, a claimed draw, a loaded result.
    ended: Option<Outcome>,
    settings: Settings,
    engine: AnyEngine,
    sides: [&'static str; 2],
    clock: Option<GameClock>,
    /// A draw offered by this side, waiting for the other person's yes or no.
    draw_offer: Option<Side>,
    /// Tags kept from a loaded file (see [`KEPT_TAGS`] and the players' tags).
    loaded_tags: Vec<(String, String)>,
    /// The loaded file's game was over: it cannot be taken back or played on.
    loaded_over: bool,
    /// Where finished games are recorded (`--db`).
    registry: Option<Registry>,
    /// The id under which this game was recorded, once it is.
    recorded: Option<String>,
    /// Today's date as PGN writes it (`2026.11.27`), for new games.
    date: String,
}

/// What to do after a line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Next {
    Continue,
    Quit,
}

impl Session {
    /// A session from `start` under `settings`.
    pub(crate) fn new(
        start: AnyPosition,
        settings: Settings,
        registry: Option<Registry>,
    ) -> Session {
        let sides = start.kind().info().sides;
        Session {
            engine: AnyEngine::for_game(&start, 64),
            record: AnyRecord::new(start.clone()),
            start,
            ended: None,
            clock: settings.clock.map(GameClock::new),
            settings,
            sides,
            draw_offer: None,
            loaded_tags: Vec::new(),
            loaded_over: false,
            registry,
            recorded: None,
            date: today(),
        }
    }

    /// Closes the database, if one is open.
    pub(crate) fn close(&mut self) {
        if let Some(registry) = self.registry.take() {
            registry.close();
        }
    }

    /// Reads lines from `input` until `quit` or the end of the input, answering each
    /// on `out`.
    ///
    /// # Errors
    ///
    /// Only when reading or writing fails.
    pub(crate) fn run(
        &mut self,
        input: &mut impl LineSource,
        out: &mut impl Write,
    ) -> io::Result<()> {
        self.introduce(out)?;
        self.show(out)?;
        if self.computer_to_move() {
            self.computer_moves(out)?;
            self.show(out)?;
            self.record_if_over(out)?;
        }
        loop {
            if self.settings.interactive {
                match self.draw_offer {
                    Some(offerer) => write!(
                        out,
                        "{}, accept the draw? (yes/no)> ",
                        self.side_name(offerer.other())
                    )?,
                    None => write!(out, "{}> ", self.side_name(self.record.turn()))?,
                }
            }
            out.flush()?;
            // A person's clock runs while they think: its flag falls at its deadline.
            let deadline = match (&self.clock, self.over()) {
                (Some(clock), None) => clock.deadline(self.record.turn()),
                _ => None,
            };
            let line = match input.next_line(deadline)? {
                Read::Line(line) => line,
                Read::Timeout => {
                    if self.settings.interactive {
                        writeln!(out)?;
                    }
                    self.check_flag(out)?;
                    continue;
                }
                Read::End => {
                    if self.settings.interactive {
                        writeln!(out)?;
                    }
                    writeln!(out, "End of input: goodbye.")?;
                    break;
                }
            };
            if !self.settings.interactive {
                // Echo scripted input so that the transcript reads like a session.
                writeln!(out, "> {}", line.trim())?;
            }
            // A flag that fell before the line came ends the game first.
            self.check_flag(out)?;
            // An offer waits for yes or no (`quit` still leaves).
            if let Some(offerer) = self.draw_offer
                && commands::parse(&line) != Ok(Input::Quit)
            {
                self.answer_draw(offerer, &line, out)?;
                continue;
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
            Input::New => self.new_game(out)?,
            Input::Help => writeln!(out, "{HELP}")?,
            Input::Moves => self.list_moves(out)?,
            Input::Board => self.show(out)?,
            Input::Position => writeln!(out, "{}", self.record.position().position_text())?,
            Input::Resign => {
                if let Some(over) = self.over() {
                    writeln!(out, "The game is already over: {}.", self.describe(over))?;
                } else {
                    let loser = self.record.turn();
                    writeln!(out, "{} resigns.", capital(self.side_name(loser)))?;
                    self.end(self.record.resign_outcome(loser), out)?;
                }
            }
            Input::Draw => self.offer_draw(out)?,
            Input::Claim => match (self.over(), self.record.claimable_draw()) {
                (Some(over), _) => {
                    writeln!(out, "The game is already over: {}.", self.describe(over))?
                }
                (None, Some(reason)) => {
                    writeln!(
                        out,
                        "{} claims a draw by {}.",
                        capital(self.side_name(self.record.turn())),
                        claim_rule(reason)
                    )?;
                    self.end(Outcome::Draw { reason }, out)?;
                }
                (None, None) => writeln!(
                    out,
                    "No draw to claim here: a claim needs a threefold repetition or fifty moves without a capture or pawn move (chess; the other games draw by their rules without a claim). To offer a draw, type `draw`."
                )?,
            },
            Input::Computer(None) => self.describe_players(out)?,
            Input::Computer(Some(seats)) => self.set_computer(&seats, out)?,
        }
        Ok(Next::Continue)
    }

    fn introduce(&self, out: &mut impl Write) -> io::Result<()> {
        let info = self.start.kind().info();
        let game = info.name;
        // The variant when the game has several (Chess960, a draughts rule set), and
        // a Chess960 start's number.
        let variant = Some(info)
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
        self.describe_start(out)?;
        let example = self.record.position().legal_moves_with_notation();
        let example = match example.last() {
            Some((m, notation)) if m != notation => format!(" (e.g. {notation} or {m})"),
            Some((m, _)) => format!(" (e.g. {m})"),
            None => String::new(),
        };
        writeln!(
            out,
            "Type a move{example} or a command: help, moves, undo, hint, draw, save, load, flip, level, new, quit."
        )
    }

    /// The chess3d generator seed of this game and the clock, when there are.
    fn describe_start(&self, out: &mut impl Write) -> io::Result<()> {
        if let Some(seed) = self.record.start().generator_state() {
            writeln!(
                out,
                "Generator seed {seed} (the same game again: --seed {seed})."
            )?;
        }
        match self.settings.clock {
            Some(ClockSettings::Fischer { base, increment }) => writeln!(
                out,
                "Clock: {} each, plus {} s per move; it starts with the first move.",
                super::clock::time_text(base),
                increment.as_secs_f64()
            ),
            Some(ClockSettings::Game { total }) => writeln!(
                out,
                "Timed mode: {} for the whole game from the first move; when it runs out, the side with more pieces wins.",
                super::clock::time_text(total)
            ),
            None => Ok(()),
        }
    }

    fn describe_players(&self, out: &mut impl Write) -> io::Result<()> {
        let who = |side: Side| {
            if self.settings.computer[side.index()] {
                format!("the computer (level {})", self.settings.level)
            } else if let Some(name) = &self.settings.names[side.index()] {
                name.clone()
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
            self.record_if_over(out)?;
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
                self.moved(mover, Instant::now());
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
        self.show(out)?;
        self.record_if_over(out)
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
            let mut limits = match &self.clock {
                Some(clock) => clock.limits(side, Instant::now()),
                None => Limits::default(),
            };
            limits.movetime = Some(self.settings.movetime);
            let request = SearchRequest {
                limits,
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
            // Its flag may fall while it thinks.
            if self.check_flag(out)? {
                break;
            }
            match self.record.play_text(&best) {
                Ok(played) => {
                    writeln!(
                        out,
                        "{} (computer) plays {}.",
                        capital(self.side_name(side)),
                        played.notation
                    )?;
                    self.moved(side, Instant::now());
                }
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

    /// Starts again: from the given start (`--fen`), else from a fresh one (a new
    /// chess3d seed, a new Chess960 start) unless `--seed` fixes it.
    fn new_game(&mut self, out: &mut impl Write) -> io::Result<()> {
        if !self.settings.fixed_start {
            let seed = self.settings.seed.unwrap_or_else(tablero_games::fresh_seed);
            if let Ok(start) =
                AnyPosition::of_seeded(self.start.kind(), self.start.variant(), None, seed)
            {
                self.start = start;
            }
        }
        self.record = AnyRecord::new(self.start.clone());
        self.ended = None;
        self.draw_offer = None;
        self.loaded_tags.clear();
        self.loaded_over = false;
        self.recorded = None;
        self.clock = self.settings.clock.map(GameClock::new);
        self.engine.new_game();
        writeln!(out, "New game.")?;
        self.describe_start(out)?;
        self.show(out)?;
        self.after_human(out)
    }

    /// `mover` has just moved at `now`: its clock runs no more (the other's does, or
    /// none if the move ended the game), and a draw offer lapses.
    fn moved(&mut self, mover: Side, now: Instant) {
        if let Some(clock) = &mut self.clock {
            clock.moved(mover, now);
        }
        self.draw_offer = None;
        if self.record.outcome().is_some() {
            self.stop_clock();
        }
    }

    /// Ends the game with `outcome` (a resignation, an agreement, a claim, a flag) and
    /// says so.
    fn end(&mut self, outcome: Outcome, out: &mut impl Write) -> io::Result<()> {
        self.ended = Some(outcome);
        self.draw_offer = None;
        self.stop_clock();
        self.show_status(out)?;
        self.record_if_over(out)
    }

    fn stop_clock(&mut self) {
        let turn = self.record.turn();
        if let Some(clock) = &mut self.clock {
            clock.stop(turn, Instant::now());
        }
    }

    /// Once the game is over, it goes to the database (once).
    fn record_if_over(&mut self, out: &mut impl Write) -> io::Result<()> {
        let now = Instant::now();
        let turn = self.record.turn();
        let (Some(outcome), Some(registry)) = (self.over(), &self.registry) else {
            return Ok(());
        };
        if self.recorded.is_some() || self.loaded_over {
            return Ok(());
        }
        let ms = |d: Duration| Some(u64::try_from(d.as_millis()).unwrap_or(u64::MAX));
        let clocks: Vec<[Option<u64>; 2]> = match &self.clock {
            Some(clock) => clock
                .after_each_move()
                .iter()
                .map(|times| times.map(ms))
                .collect(),
            None => Vec::new(),
        };
        let moves = self
            .record
            .moves()
            .iter()
            .enumerate()
            .map(|(i, m)| {
                let [white_ms, black_ms] = clocks.get(i).copied().unwrap_or([None, None]);
                MoveRecord {
                    text: m.text.clone(),
                    white_ms,
                    black_ms,
                }
            })
            .collect();
        let level = self.settings.level.get();
        let game = FinishedGame {
            game: self.start.game_id().to_owned(),
            variant: self.record.start().variant_id().to_owned(),
            start_position: self.record.start().position_text(),
            seed: self.record.start().generator_state(),
            names: [0, 1].map(|i| {
                if self.settings.computer[i] {
                    None
                } else {
                    self.settings.names[i].clone()
                }
            }),
            levels: [0, 1].map(|i| self.settings.computer[i].then_some(level)),
            clock: self.settings.clock.map(clock_record),
            moves,
            outcome,
            remaining_ms: match &self.clock {
                Some(clock) => clock.remaining_at(turn, now).map(ms),
                None => [None, None],
            },
        };
        match registry.record(game) {
            Ok(id) => {
                writeln!(out, "Recorded in {} as game {id}.", registry.name)?;
                self.recorded = Some(id);
            }
            Err(e) => writeln!(out, "Not recorded in {}: {e}.", registry.name)?,
        }
        Ok(())
    }

    /// Ends the game if the side to move's time (or the game's) has run out; returns
    /// whether it did.
    fn check_flag(&mut self, out: &mut impl Write) -> io::Result<bool> {
        let turn = self.record.turn();
        let Some(clock) = &self.clock else {
            return Ok(false);
        };
        if self.over().is_some() || !clock.flagged(turn, Instant::now()) {
            return Ok(false);
        }
        let outcome = match clock.settings {
            ClockSettings::Fischer { .. } => {
                writeln!(out, "{}'s time is up.", capital(self.side_name(turn)))?;
                self.record.flag_outcome(turn)
            }
            ClockSettings::Game { .. } => {
                writeln!(out, "The game's time is up: the pieces are counted.")?;
                self.record
                    .game_clock_outcome()
                    .unwrap_or_else(|| self.record.flag_outcome(turn))
            }
        };
        self.end(outcome, out)?;
        Ok(true)
    }

    /// The side to move offers a draw: the computer answers from its evaluation, a
    /// person is asked.
    fn offer_draw(&mut self, out: &mut impl Write) -> io::Result<()> {
        if let Some(over) = self.over() {
            return writeln!(out, "The game is already over: {}.", self.describe(over));
        }
        let offerer = self.record.turn();
        let other = offerer.other();
        writeln!(out, "{} offers a draw.", capital(self.side_name(offerer)))?;
        if let Some(reason) = self.record.claimable_draw() {
            writeln!(
                out,
                "(A draw by {} can be claimed now without asking: type `claim`.)",
                claim_rule(reason)
            )?;
        }
        if self.settings.computer[other.index()] {
            if self.settings.interactive {
                writeln!(out, "{} is thinking...", capital(self.side_name(other)))?;
                out.flush()?;
            }
            let decision = self.engine.decide_draw(
                self.record.position(),
                self.record.history(),
                other,
                self.record.plies(),
                Limits::movetime(self.settings.movetime.min(Duration::from_secs(1))),
            );
            if decision.accept {
                writeln!(
                    out,
                    "{} (computer) accepts.",
                    capital(self.side_name(other))
                )?;
                self.end(
                    Outcome::Draw {
                        reason: Reason::Agreement,
                    },
                    out,
                )
            } else {
                writeln!(
                    out,
                    "{} (computer) declines: play on.",
                    capital(self.side_name(other))
                )
            }
        } else {
            self.draw_offer = Some(offerer);
            writeln!(
                out,
                "{}, do you accept the draw? Type yes or no.",
                capital(self.side_name(other))
            )
        }
    }

    /// The other person's answer to `offerer`'s draw offer.
    fn answer_draw(&mut self, offerer: Side, line: &str, out: &mut impl Write) -> io::Result<()> {
        let other = capital(self.side_name(offerer.other()));
        if self.over().is_some() {
            self.draw_offer = None;
            return Ok(());
        }
        match line.trim().to_ascii_lowercase().as_str() {
            "y" | "yes" | "accept" => {
                writeln!(out, "{other} accepts.")?;
                self.end(
                    Outcome::Draw {
                        reason: Reason::Agreement,
                    },
                    out,
                )
            }
            "n" | "no" | "decline" => {
                self.draw_offer = None;
                writeln!(out, "{other} declines: play on.")?;
                self.show_status(out)
            }
            _ => writeln!(
                out,
                "Please answer yes or no: does {other} accept {}'s draw offer?",
                capital(self.side_name(offerer))
            ),
        }
    }

    fn undo(&mut self, out: &mut impl Write) -> io::Result<()> {
        if let Some(over) = self.over()
            && self.loaded_over
        {
            return writeln!(
                out,
                "The loaded game is over ({}): nothing to take back. Type new to start a game.",
                self.describe(over)
            );
        }
        if let (Some(over), Some(id), Some(registry)) =
            (self.over(), &self.recorded, &self.registry)
        {
            return writeln!(
                out,
                "The game is over ({}) and recorded in {} as game {id}: nothing to take back. Type new for another.",
                self.describe(over),
                registry.name
            );
        }
        self.draw_offer = None;
        if self.ended.take().is_some() && self.record.outcome().is_none() {
            let plies = self.record.plies();
            if let Some(clock) = &mut self.clock {
                clock.took_back(plies, Instant::now());
            }
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
        let plies = self.record.plies();
        if let Some(clock) = &mut self.clock {
            clock.took_back(plies, Instant::now());
        }
        taken.reverse();
        writeln!(out, "Took back {}.", taken.join(" "))?;
        self.show(out)
    }

    /// The tags a save writes: a loaded file's facts (event, site, date, round,
    /// players), else this session's (its event, today's date, the players' names).
    fn tags(&self) -> Vec<(String, String)> {
        let loaded = |name: &str| {
            self.loaded_tags
                .iter()
                .find(|(n, _)| n == name)
                .map(|(_, v)| v.clone())
        };
        let mut tags = vec![
            (
                "Event".to_owned(),
                loaded("Event").unwrap_or_else(|| "tablero play".to_owned()),
            ),
            (
                "Date".to_owned(),
                loaded("Date").unwrap_or_else(|| self.date.clone()),
            ),
        ];
        for name in ["Site", "Round"] {
            if let Some(value) = loaded(name) {
                tags.push((name.to_owned(), value));
            }
        }
        for side in [Side::White, Side::Black] {
            let tag = self.record.player_tag(side);
            let player = loaded(tag)
                .or_else(|| self.settings.names[side.index()].clone())
                .unwrap_or_else(|| {
                    if self.settings.computer[side.index()] {
                        format!("tablero level {}", self.settings.level)
                    } else {
                        "person".to_owned()
                    }
                });
            tags.push((tag.to_owned(), player));
        }
        let time_control = match self.settings.clock {
            Some(ClockSettings::Fischer { base, increment }) => {
                Some(TimeControl { base, increment }.to_string())
            }
            Some(ClockSettings::Game { total }) => Some(format!("{}", total.as_secs_f64())),
            None => loaded("TimeControl"),
        };
        if let Some(tc) = time_control {
            tags.push(("TimeControl".to_owned(), tc));
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
        let games = AnyRecord::import(self.start.kind(), self.start.variant(), &text);
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
        let players = [Side::White, Side::Black].map(|s| imported.record.player_tag(s));
        self.loaded_tags = imported
            .tags
            .iter()
            .filter(|(name, value)| {
                (KEPT_TAGS.contains(&name.as_str()) || players.contains(&name.as_str()))
                    && !value.is_empty()
                    && !value.contains('?')
            })
            .cloned()
            .collect();
        self.record = imported.record;
        self.loaded_over = self.over().is_some();
        self.recorded = None;
        self.draw_offer = None;
        let plies = self.record.plies();
        if let Some(clock) = &mut self.clock {
            clock.restart(plies, !self.loaded_over, Instant::now());
        }
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
        if let Some(over) = self.over() {
            writeln!(
                out,
                "The game is over ({}): you can look at it, save it or type new.",
                self.describe(over)
            )?;
        }
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
        if let Some(clock) = &self.clock {
            writeln!(
                out,
                "{}",
                clock.describe(self.record.turn(), Instant::now(), self.sides)
            )?;
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
                writeln!(out, "{}{who} to move.", capital(self.side_name(side)))?;
                if let Some(reason) = self.record.claimable_draw()
                    && !self.settings.computer[side.index()]
                {
                    writeln!(
                        out,
                        "{} may claim a draw by {}: type `claim`.",
                        capital(self.side_name(side)),
                        claim_rule(reason)
                    )?;
                }
                Ok(())
            }
        }
    }

    /// The last moves in the display notation with move numbers: `1. e4 e5 2. Nf3`.
    fn move_list(&self) -> String {
        let leader = self.record.first_side();
        let mut number = self.record.start().move_number().max(1);
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

/// The rule behind a claimable draw, in words.
fn claim_rule(reason: Reason) -> String {
    match reason {
        Reason::ThreefoldRepetition => {
            "threefold repetition (the same position for the third time)".to_owned()
        }
        Reason::FiftyMoves => {
            "the fifty-move rule (fifty moves each without a capture or pawn move)".to_owned()
        }
        other => other.to_string(),
    }
}

/// Today's date (UTC) as PGN and PDN write it: `2026.11.27`.
fn today() -> String {
    let days = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() / 86_400);
    let (year, month, day) = civil_from_days(i64::try_from(days).unwrap_or(0));
    format!("{year:04}.{month:02}.{day:02}")
}

/// The proleptic Gregorian date of a day counted from 1970-01-01 (Howard Hinnant's
/// `civil_from_days`).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    (
        year,
        u32::try_from(month).unwrap_or(1),
        u32::try_from(day).unwrap_or(1),
    )
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
        let start = AnyPosition::new(game, variant, fen).expect("a valid start in this test");
        Session::new(
            start,
            Settings {
                computer: [false, false],
                level: Level::MIN,
                movetime: Duration::from_millis(50),
                style: BoardStyle::default(),
                interactive: false,
                clock: None,
                names: [None, None],
                seed: None,
                fixed_start: fen.is_some(),
            },
            None,
        )
    }

    fn run(session: &mut Session, script: &str) -> String {
        let mut out = Vec::new();
        session
            .run(
                &mut super::super::input::Script::new(script.as_bytes()),
                &mut out,
            )
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
            &format!("claim\n{}claim\ne4\n", "Nf3\nNf6\nNg1\nNg8\n".repeat(2)),
        );
        assert!(out.contains("No draw to claim here"), "{out}");
        assert!(
            out.contains("White may claim a draw by threefold repetition (the same position for the third time): type `claim`."),
            "{out}"
        );
        assert_eq!(out.matches("may claim").count(), 1, "{out}");
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
    fn dates_count_from_1970() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(19_782), (2024, 2, 29));
        assert_eq!(civil_from_days(20_419), (2025, 11, 27));
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
