//! A game being played: the record under its rules, the seats, the clock, offers and
//! requests. Everything here is synchronous and in memory; `registry.rs` persists each
//! change before anyone hears of it.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use tablero_core::{Outcome, Reason, Refusal, Side};
use tablero_games::{AnyPosition, AnyRecord, GameInfo, GameKind, Level};
use tablero_store::{ClockKind, ClockRecord, GameRecord, Mode, MoveRecord, NewGame, Seat};

use crate::view::{
    BoardView, ClockView, GameView, MoveHintView, MoveView, OutcomeView, PlayerView, PositionView,
};

/// What a change did, for the store.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Change {
    /// Move number `ply` was played; the game may have ended with it.
    Moved {
        ply: usize,
        record: MoveRecord,
        ended: Option<Outcome>,
    },
    /// Moves were taken back so that `keep` remain.
    TookBack { keep: usize },
    /// The game ended without a move (resignation, agreement, claim, flag).
    Ended(Outcome),
    /// Only offers or requests changed: nothing to store.
    Offer,
}

/// A per-side (Fischer) or whole-game clock, while the game is loaded.
#[derive(Debug, Clone)]
pub(crate) struct LiveClock {
    pub(crate) settings: ClockRecord,
    /// Remaining time when the current turn started (both equal for a game clock).
    remaining: [Duration; 2],
    /// When the current turn started; `None` before the first move, when no clock runs.
    turn_started: Option<Instant>,
    /// Stopped while the side to move's computer waits for a worker.
    paused: bool,
}

impl LiveClock {
    fn new(settings: ClockRecord, remaining: [Option<u64>; 2], running: bool) -> LiveClock {
        let initial = Duration::from_millis(settings.initial_ms);
        let at = |ms: Option<u64>| ms.map_or(initial, Duration::from_millis);
        LiveClock {
            settings,
            remaining: [at(remaining[0]), at(remaining[1])],
            turn_started: running.then(Instant::now),
            paused: false,
        }
    }

    /// A stored clock, running again: the side to move (both sides, for a game
    /// clock) has already used `used` of its turn.
    fn resumed(
        settings: ClockRecord,
        remaining: [Option<u64>; 2],
        turn: Side,
        used: Duration,
    ) -> LiveClock {
        let mut clock = LiveClock::new(settings, remaining, true);
        match settings.kind {
            ClockKind::Fischer => {
                let i = turn.index();
                clock.remaining[i] = clock.remaining[i].saturating_sub(used);
            }
            ClockKind::Game => clock.remaining = clock.remaining.map(|r| r.saturating_sub(used)),
        }
        clock
    }

    /// The remaining times at `now`, white first.
    pub(crate) fn remaining_at(&self, turn: Side, now: Instant) -> [Duration; 2] {
        let mut remaining = self.remaining;
        if let Some(started) = self.turn_started {
            let elapsed = now.saturating_duration_since(started);
            match self.settings.kind {
                ClockKind::Fischer => {
                    let i = turn.index();
                    remaining[i] = remaining[i].saturating_sub(elapsed);
                }
                ClockKind::Game => remaining = remaining.map(|r| r.saturating_sub(elapsed)),
            }
        }
        remaining
    }

    /// When the side to move's time (or the game's) runs out, if a clock runs.
    pub(crate) fn deadline(&self, turn: Side) -> Option<Instant> {
        let started = self.turn_started?;
        Some(started + self.remaining[turn.index()])
    }

    fn stored(&self, turn: Side, now: Instant) -> [Option<u64>; 2] {
        self.remaining_at(turn, now).map(|d| Some(millis(d)))
    }

    fn is_running(&self) -> bool {
        self.turn_started.is_some()
    }
}

fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

/// A loaded game.
#[derive(Debug)]
pub(crate) struct LiveGame {
    pub(crate) id: String,
    info: &'static GameInfo,
    pub(crate) mode: Mode,
    pub(crate) seats: [Seat; 2],
    pub(crate) record: AnyRecord,
    seed: Option<u64>,
    /// A Chess960 game's start number.
    chess960_start: Option<u32>,
    /// An imported record's tags, kept for its export.
    tags: Vec<(String, String)>,
    pub(crate) clock: Option<LiveClock>,
    /// The clocks after each move, the start first: restored by a takeback.
    clock_history: Vec<[Option<u64>; 2]>,
    /// Xiangqi: each move in Chinese notation, made once when the move is played.
    chinese: Vec<Option<String>>,
    /// The result, once the game is over (by the rules or by an event).
    pub(crate) ended: Option<Outcome>,
    draw_offer: Option<Side>,
    takeback_request: Option<Side>,
    /// The offers as the store has them: what is written when they change.
    stored_offers: [Option<Side>; 2],
    /// Counts every change, offers included: what clients see. On a shared database
    /// it is the stored version, so that every process numbers the states alike.
    pub(crate) version: u64,
    /// Counts the changes of the position or the result (moves, takebacks, the end):
    /// a computer search or a flag timer started in an older epoch is dropped. A draw
    /// offer leaves it alone, so the computer's search goes on.
    pub(crate) epoch: u64,
    /// Raised to stop the computer's search when the game changes under it.
    pub(crate) thinking: Option<Arc<AtomicBool>>,
    /// This process has claimed the game (on a shared database: it runs the game's
    /// clock and computer).
    pub(crate) claimed: bool,
}

/// A request to create a game, checked.
#[derive(Debug, Clone)]
pub(crate) struct Setup {
    pub(crate) start: AnyPosition,
    pub(crate) mode: Mode,
    pub(crate) seats: [Seat; 2],
    pub(crate) clock: Option<ClockRecord>,
    /// Moves to replay (an imported game).
    pub(crate) moves: Vec<String>,
    /// How an imported game ended when the rules do not end it (its file's result).
    pub(crate) recorded_end: Option<Outcome>,
    /// The imported record's tags to keep (event, site, date, round, players).
    pub(crate) tags: Vec<(String, String)>,
}

/// Why a live game refused a request. The HTTP status, code and parameters of each
/// are chosen in one place: `From<LiveError> for ApiError` in `error.rs`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum LiveError {
    /// No seat token was sent.
    #[error("missing seat token: send `Authorization: Bearer <token>`")]
    MissingToken,
    /// The token is not a seat of this game.
    #[error("the token is not a seat of game {0}")]
    NotASeat(String),
    /// The token is the other side's seat, and the move is that side's.
    #[error("this token is {seat}'s seat: {text:?} is a move of {turn}")]
    WrongSeat {
        /// The token's side.
        seat: String,
        /// The move sent.
        text: String,
        /// The side to move.
        turn: String,
    },
    /// The rules refuse it: an illegal or malformed move, the game is over, not this
    /// side's turn.
    #[error("{message}")]
    Refused {
        /// The English message.
        message: String,
        /// The rule, with its stable code.
        refusal: Box<Refusal>,
    },
    /// A record error that names no rule.
    #[error("{0}")]
    Record(String),
    /// Accepting or declining a takeback nobody asked for.
    #[error("{0} has not asked to take back a move")]
    NoTakebackRequest(String),
    /// Nothing to take back.
    #[error("{0} has no move to take back")]
    NothingToTakeBack(String),
    /// Accepting or declining a draw nobody offered.
    #[error("{0} has not offered a draw")]
    NoDrawOffer(String),
    /// Claiming a draw the position does not allow.
    #[error("there is no draw to claim: no threefold repetition and no fifty moves")]
    NoDrawToClaim,
}

impl LiveError {
    fn refused(message: String, refusal: Refusal) -> LiveError {
        LiveError::Refused {
            message,
            refusal: Box::new(refusal),
        }
    }

    /// A record's refusal of a move, `prefix` before its message.
    fn record(prefix: &str, e: &tablero_games::RecordError) -> LiveError {
        let message = format!("{prefix}{e}");
        match e.refusal() {
            Some(refusal) => LiveError::refused(message, refusal),
            None => LiveError::Record(message),
        }
    }
}

impl LiveGame {
    /// A new game from a checked set-up; replays its moves (an import).
    pub(crate) fn create(id: String, setup: Setup) -> Result<LiveGame, LiveError> {
        let info = info_of(&setup.start);
        let seed = setup.start.generator_state();
        let chess960_start = setup.start.chess960_number();
        let mut record = AnyRecord::new(setup.start);
        for (i, text) in setup.moves.iter().enumerate() {
            record
                .play_text(text)
                .map_err(|e| LiveError::record(&format!("move {} of the game: ", i + 1), &e))?;
        }
        let initial = setup.clock.map(|c| c.initial_ms);
        let plies = record.plies();
        let chinese = chinese_of(&record);
        let mut game = LiveGame {
            id,
            info,
            mode: setup.mode,
            seats: setup.seats,
            ended: record.outcome().or(setup.recorded_end),
            record,
            seed,
            chess960_start,
            tags: setup.tags,
            clock: setup
                .clock
                .map(|c| LiveClock::new(c, [initial, initial], plies > 0)),
            clock_history: vec![[initial, initial]; plies + 1],
            chinese,
            draw_offer: None,
            takeback_request: None,
            stored_offers: [None, None],
            version: 0,
            epoch: 0,
            thinking: None,
            claimed: false,
        };
        if game.ended.is_some() {
            game.stop_clock();
        }
        Ok(game)
    }

    /// The row the store keeps for this new game.
    pub(crate) fn to_new_game(&self) -> NewGame {
        NewGame {
            id: self.id.clone(),
            game: self.info.id.to_owned(),
            variant: self.record.start().variant_id().to_owned(),
            start_position: self.record.start().position_text(),
            seed: self.seed,
            mode: self.mode,
            seats: self.seats.clone(),
            clock: self.clock.as_ref().map(|c| c.settings),
            moves: self
                .record
                .moves()
                .iter()
                .zip(&self.clock_history[1..])
                .map(|(m, clocks)| MoveRecord {
                    text: m.text.clone(),
                    white_ms: clocks[0],
                    black_ms: clocks[1],
                })
                .collect(),
            finished: self.ended.map(|o| (o.winner(), o.reason().id().to_owned())),
            tags: self.tags.clone(),
        }
    }

    /// A stored game, loaded again. Its clock goes on from the time the side to move
    /// had used when the store last saw the server alive: clocks do not run while the
    /// server is down.
    pub(crate) fn from_record(stored: GameRecord) -> Result<LiveGame, String> {
        let start = stored
            .game
            .parse::<GameKind>()
            .map_err(|e| e.to_string())
            .and_then(|kind| {
                let variant = kind
                    .variant(Some(&stored.variant))
                    .map_err(|e| e.to_string());
                variant.map(|variant| (kind, variant))
            })
            .and_then(|(kind, variant)| {
                AnyPosition::of(kind, variant, Some(&stored.start_position))
                    .map_err(|e| e.to_string())
            })
            .map_err(|e| format!("game {}: stored start: {e}", stored.id))?;
        let info = info_of(&start);
        let seed = start.generator_state();
        let chess960_start = start.chess960_number();
        let mut record = AnyRecord::new(start);
        let initial = stored.clock.map(|c| c.initial_ms);
        let mut clock_history = vec![[initial, initial]];
        for (i, m) in stored.moves.iter().enumerate() {
            record
                .play_text(&m.text)
                .map_err(|e| format!("game {}: stored move {}: {e}", stored.id, i + 1))?;
            clock_history.push([m.white_ms, m.black_ms]);
        }
        let ended = match (&stored.reason, stored.status) {
            (Some(reason), tablero_store::GameStatus::Finished) => {
                let reason: Reason = reason
                    .parse()
                    .map_err(|e| format!("game {}: {e}", stored.id))?;
                Some(match stored.winner {
                    Some(winner) => Outcome::Win { winner, reason },
                    None => Outcome::Draw { reason },
                })
            }
            _ => record.outcome(),
        };
        let running = ended.is_none() && record.plies() > 0;
        let chinese = chinese_of(&record);
        let used = Duration::from_millis(stored.turn_used_ms);
        let turn = record.turn();
        Ok(LiveGame {
            id: stored.id,
            info,
            mode: stored.mode,
            seats: stored.seats,
            clock: stored.clock.map(|c| {
                if running {
                    LiveClock::resumed(c, stored.remaining_ms, turn, used)
                } else {
                    LiveClock::new(c, stored.remaining_ms, false)
                }
            }),
            record,
            seed,
            chess960_start,
            tags: stored.tags,
            chinese,
            clock_history,
            ended,
            draw_offer: stored.draw_offer,
            takeback_request: stored.takeback_request,
            stored_offers: [stored.draw_offer, stored.takeback_request],
            version: stored.version.unwrap_or(0),
            epoch: 0,
            thinking: None,
            claimed: false,
        })
    }

    /// The side named `name` in this game (`white`/`black`, or `red`/`black`).
    pub(crate) fn side_named(info: &GameInfo, name: &str) -> Option<Side> {
        if name == info.sides[0] {
            Some(Side::White)
        } else if name == info.sides[1] {
            Some(Side::Black)
        } else {
            None
        }
    }

    /// This game's name for `side`.
    pub(crate) fn side_name(&self, side: Side) -> &'static str {
        self.info.sides[side.index()]
    }

    /// Whether a person sits on either side (the computer's searches for such a game
    /// come before those of games it plays against itself).
    pub(crate) fn person_plays(&self) -> bool {
        self.seats.iter().any(|s| s.level.is_none())
    }

    /// The computer's level if the computer plays `side`.
    pub(crate) fn computer_level(&self, side: Side) -> Option<Level> {
        self.seats[side.index()].level.and_then(Level::new)
    }

    /// The side whose seat `token` is.
    ///
    /// # Errors
    ///
    /// 401 when there is no token or it is not a seat of this game.
    pub(crate) fn seat_of(&self, token: Option<&str>) -> Result<Side, LiveError> {
        let token = token.ok_or(LiveError::MissingToken)?;
        // Both seats are compared so that the time taken says nothing about the match.
        let matches = [Side::White, Side::Black].map(|side| {
            self.seats[side.index()]
                .token_hash
                .as_deref()
                .is_some_and(|hash| tablero_store::token_matches(hash, token))
        });
        match matches {
            [true, _] => Ok(Side::White),
            [_, true] => Ok(Side::Black),
            _ => Err(LiveError::NotASeat(self.id.clone())),
        }
    }

    fn check_not_over(&self) -> Result<(), LiveError> {
        match self.ended {
            Some(outcome) => Err(LiveError::refused(
                format!("the game is over: {}", self.describe(outcome)),
                Refusal::GameOver,
            )),
            None => Ok(()),
        }
    }

    /// "red wins by checkmate", with the game's side names.
    pub(crate) fn describe(&self, outcome: Outcome) -> String {
        match outcome {
            Outcome::Win { winner, reason } => {
                format!("{} wins by {reason}", self.side_name(winner))
            }
            Outcome::Draw { reason } => format!("draw by {reason}"),
        }
    }

    /// Ends the game if the side to move's time (or the game's) has run out at `now`.
    pub(crate) fn check_flag(&mut self, now: Instant) -> Option<Change> {
        if self.ended.is_some() {
            return None;
        }
        let clock = self.clock.as_ref()?;
        let turn = self.record.turn();
        if clock.deadline(turn)? > now {
            return None;
        }
        let outcome = match clock.settings.kind {
            ClockKind::Fischer => self.record.flag_outcome(turn),
            ClockKind::Game => self
                .record
                .game_clock_outcome()
                .unwrap_or(self.record.flag_outcome(turn)),
        };
        Some(self.end(outcome, now))
    }

    fn end(&mut self, outcome: Outcome, now: Instant) -> Change {
        if let Some(clock) = &mut self.clock {
            let turn = self.record.turn();
            clock.remaining = clock.remaining_at(turn, now);
        }
        self.ended = Some(outcome);
        self.stop_clock();
        self.draw_offer = None;
        self.takeback_request = None;
        self.bump();
        Change::Ended(outcome)
    }

    /// Stops the clock of the side to move without ending its turn: its computer
    /// waits for a worker, and waiting is not thinking. [`LiveGame::resume_clock`]
    /// starts it again.
    pub(crate) fn pause_clock(&mut self, now: Instant) {
        let turn = self.record.turn();
        if let Some(clock) = &mut self.clock
            && clock.turn_started.is_some()
        {
            clock.remaining = clock.remaining_at(turn, now);
            clock.turn_started = None;
            clock.paused = true;
        }
    }

    /// Starts a clock paused by [`LiveGame::pause_clock`] again.
    pub(crate) fn resume_clock(&mut self, now: Instant) {
        if let Some(clock) = &mut self.clock
            && clock.paused
        {
            clock.turn_started = Some(now);
            clock.paused = false;
        }
    }

    fn stop_clock(&mut self) {
        if let Some(clock) = &mut self.clock {
            clock.turn_started = None;
            clock.paused = false;
        }
    }

    /// A move, takeback or end: the epoch advances, so that a search or timer of the
    /// old state knows it is stale. (The `version` clients see advances in one place,
    /// when the registry has stored the change.)
    pub(crate) fn bump(&mut self) {
        self.epoch += 1;
        if let Some(stop) = self.thinking.take() {
            stop.store(true, Ordering::Relaxed);
        }
    }

    /// Whether the game needs a process to look after it: a clock runs, or the
    /// computer plays a side.
    pub(crate) fn needs_looking_after(&self) -> bool {
        self.clock.is_some()
            || self.computer_level(Side::White).is_some()
            || self.computer_level(Side::Black).is_some()
    }

    /// The standing draw offer and take-back request when they differ from those
    /// stored; [`LiveGame::offers_stored`] once they are.
    pub(crate) fn offers_to_store(&self) -> Option<[Option<Side>; 2]> {
        let now = [self.draw_offer, self.takeback_request];
        (self.ended.is_none() && now != self.stored_offers).then_some(now)
    }

    /// The store has `offers` now.
    pub(crate) fn offers_stored(&mut self, offers: [Option<Side>; 2]) {
        self.stored_offers = offers;
    }

    /// The clocks as the store keeps them at `now`.
    pub(crate) fn stored_clocks(&self, now: Instant) -> [Option<u64>; 2] {
        match &self.clock {
            Some(clock) => clock.stored(self.record.turn(), now),
            None => [None, None],
        }
    }

    /// `side` plays `text` (move format or display notation).
    ///
    /// # Errors
    ///
    /// 409 after the end or out of turn, 403 for a move of the other side's pieces,
    /// 400 for a malformed or illegal move. Nothing changes then.
    pub(crate) fn play(
        &mut self,
        side: Side,
        text: &str,
        now: Instant,
    ) -> Result<Change, LiveError> {
        self.check_not_over()?;
        let turn = self.record.turn();
        if side != turn {
            let mut probe = self.record.position().clone();
            return Err(if probe.play_text(text).is_ok() {
                LiveError::WrongSeat {
                    seat: self.side_name(side).to_owned(),
                    text: text.to_owned(),
                    turn: self.side_name(turn).to_owned(),
                }
            } else {
                LiveError::refused(
                    format!("not your turn: {} is to move", self.side_name(turn)),
                    Refusal::NotYourTurn {
                        side: self.side_name(side).to_owned(),
                    },
                )
            });
        }
        let text = text.trim();
        if text.is_empty() {
            return Err(LiveError::refused(
                "the move is empty".to_owned(),
                Refusal::MalformedMove {
                    text: String::new(),
                    reason: "the move is empty".to_owned(),
                },
            ));
        }
        let played = self
            .record
            .play_text(text)
            .map_err(|e| LiveError::record("", &e))?;
        let ply = self.record.plies() - 1;
        if let Some(clock) = &mut self.clock {
            let elapsed = clock
                .turn_started
                .map_or(Duration::ZERO, |s| now.saturating_duration_since(s));
            let increment = Duration::from_millis(clock.settings.increment_ms);
            match clock.settings.kind {
                ClockKind::Fischer => {
                    let i = side.index();
                    clock.remaining[i] = clock.remaining[i].saturating_sub(elapsed) + increment;
                }
                ClockKind::Game => {
                    clock.remaining = clock.remaining.map(|r| r.saturating_sub(elapsed));
                }
            }
            clock.turn_started = Some(now);
        }
        let clocks = match &self.clock {
            Some(clock) => clock.remaining.map(|d| Some(millis(d))),
            None => [None, None],
        };
        self.clock_history.push(clocks);
        let before = &self.record.history()[ply];
        self.chinese.push(before.chinese_notation(&played.text));
        if self.draw_offer != Some(side) {
            self.draw_offer = None;
        }
        self.takeback_request = None;
        self.ended = self.record.outcome();
        if self.ended.is_some() {
            self.stop_clock();
            self.draw_offer = None;
        }
        self.bump();
        Ok(Change::Moved {
            ply,
            record: MoveRecord {
                text: played.text,
                white_ms: clocks[0],
                black_ms: clocks[1],
            },
            ended: self.ended,
        })
    }

    /// Undoes the last move played by [`LiveGame::play`] when the store refused it.
    pub(crate) fn unplay(&mut self, before: Snapshot) {
        self.record.undo();
        self.clock_history.pop();
        self.chinese.pop();
        self.restore(before);
    }

    /// The small state that [`LiveGame::play`] and the offers change besides the record.
    pub(crate) fn snapshot(&self) -> Snapshot {
        Snapshot {
            clock: self.clock.clone(),
            ended: self.ended,
            draw_offer: self.draw_offer,
            takeback_request: self.takeback_request,
        }
    }

    /// Puts back a [`Snapshot`] (the record is restored by the caller).
    pub(crate) fn restore(&mut self, before: Snapshot) {
        self.clock = before.clock;
        self.ended = before.ended;
        self.draw_offer = before.draw_offer;
        self.takeback_request = before.takeback_request;
        self.bump();
    }

    /// `side` asks to take back its last move: done at once in hot-seat and computer
    /// games, a request to the opponent online.
    ///
    /// # Errors
    ///
    /// 409 when the game is over or `side` has no move to take back.
    pub(crate) fn take_back(&mut self, side: Side, now: Instant) -> Result<Change, LiveError> {
        self.check_not_over()?;
        let plies = self.plies_to_take_back(side)?;
        match self.mode {
            Mode::Hotseat => Ok(self.undo_plies(1, now)),
            Mode::Computer => Ok(self.undo_plies(plies, now)),
            Mode::Online => {
                if self.takeback_request == Some(side.other()) {
                    let plies = self.plies_to_take_back(side.other())?;
                    return Ok(self.undo_plies(plies, now));
                }
                self.takeback_request = Some(side);
                Ok(Change::Offer)
            }
        }
    }

    /// The opponent of the requester accepts (`accept`) or declines an online takeback.
    ///
    /// # Errors
    ///
    /// 409 without a pending request from the other side.
    pub(crate) fn answer_take_back(
        &mut self,
        side: Side,
        accept: bool,
        now: Instant,
    ) -> Result<Change, LiveError> {
        self.check_not_over()?;
        if self.takeback_request != Some(side.other()) {
            return Err(LiveError::NoTakebackRequest(
                self.side_name(side.other()).to_owned(),
            ));
        }
        if accept {
            let plies = self.plies_to_take_back(side.other())?;
            Ok(self.undo_plies(plies, now))
        } else {
            self.takeback_request = None;
            Ok(Change::Offer)
        }
    }

    /// How many plies go back so that `side`'s last move is undone and `side` is to
    /// move again.
    fn plies_to_take_back(&self, side: Side) -> Result<usize, LiveError> {
        let plies = if self.mode == Mode::Hotseat {
            1
        } else if self.record.turn() == side {
            2
        } else {
            1
        };
        if self.record.plies() < plies {
            return Err(LiveError::NothingToTakeBack(
                self.side_name(side).to_owned(),
            ));
        }
        Ok(plies)
    }

    fn undo_plies(&mut self, plies: usize, now: Instant) -> Change {
        for _ in 0..plies {
            self.record.undo();
            self.clock_history.pop();
            self.chinese.pop();
        }
        let keep = self.record.plies();
        if let (Some(clock), Some(clocks)) = (&mut self.clock, self.clock_history.last()) {
            let initial = clock.settings.initial_ms;
            clock.remaining = clocks.map(|ms| Duration::from_millis(ms.unwrap_or(initial)));
            clock.turn_started = (keep > 0).then_some(now);
        }
        self.takeback_request = None;
        self.draw_offer = None;
        self.bump();
        Change::TookBack { keep }
    }

    /// `side` resigns.
    ///
    /// # Errors
    ///
    /// 409 when the game is over.
    pub(crate) fn resign(&mut self, side: Side, now: Instant) -> Result<Change, LiveError> {
        self.check_not_over()?;
        let outcome = self.record.resign_outcome(side);
        Ok(self.end(outcome, now))
    }

    /// `side` offers a draw, or accepts the opponent's pending offer.
    ///
    /// # Errors
    ///
    /// 409 when the game is over.
    pub(crate) fn offer_draw(&mut self, side: Side, now: Instant) -> Result<Change, LiveError> {
        self.check_not_over()?;
        if self.draw_offer == Some(side.other()) {
            return Ok(self.end(
                Outcome::Draw {
                    reason: Reason::Agreement,
                },
                now,
            ));
        }
        // A computer answers when it moves (`tablero_games::accepts_draw` on its
        // search's evaluation): the offer stands until then.
        self.draw_offer = Some(side);
        Ok(Change::Offer)
    }

    /// The side whose draw offer stands, if any.
    pub(crate) fn draw_offered_by(&self) -> Option<Side> {
        self.draw_offer
    }

    /// `side` accepts or declines the opponent's draw offer.
    ///
    /// # Errors
    ///
    /// 409 without a pending offer from the other side.
    pub(crate) fn answer_draw(
        &mut self,
        side: Side,
        accept: bool,
        now: Instant,
    ) -> Result<Change, LiveError> {
        self.check_not_over()?;
        if self.draw_offer != Some(side.other()) {
            return Err(LiveError::NoDrawOffer(
                self.side_name(side.other()).to_owned(),
            ));
        }
        if accept {
            Ok(self.end(
                Outcome::Draw {
                    reason: Reason::Agreement,
                },
                now,
            ))
        } else {
            self.draw_offer = None;
            Ok(Change::Offer)
        }
    }

    /// `side` claims a draw (chess: threefold repetition, fifty moves) on its turn.
    ///
    /// # Errors
    ///
    /// 409 when the game is over, it is not `side`'s turn, or there is no draw to claim.
    pub(crate) fn claim_draw(&mut self, side: Side, now: Instant) -> Result<Change, LiveError> {
        self.check_not_over()?;
        if self.record.turn() != side {
            return Err(LiveError::refused(
                format!(
                    "only the side to move may claim a draw: {} is to move",
                    self.side_name(self.record.turn())
                ),
                Refusal::NotYourTurn {
                    side: self.side_name(side).to_owned(),
                },
            ));
        }
        match self.record.claimable_draw() {
            Some(reason) => Ok(self.end(Outcome::Draw { reason }, now)),
            None => Err(LiveError::NoDrawToClaim),
        }
    }

    /// The position after `ply` moves, for reviewing (`None` past the last move).
    pub(crate) fn position_view(&self, ply: usize) -> Option<PositionView> {
        PositionView::of(&self.record, ply, self.info.sides)
    }

    /// The state clients see at `now`.
    pub(crate) fn view(&self, now: Instant) -> GameView {
        let turn = self.record.turn();
        let over = self.ended.is_some();
        let players = [Side::White, Side::Black].map(|side| {
            let seat = &self.seats[side.index()];
            (
                self.side_name(side),
                match (seat.level, &seat.name) {
                    (Some(level), _) => PlayerView::Computer { computer: level },
                    (None, name) => PlayerView::Human { name: name.clone() },
                },
            )
        });
        // The legal moves with their notation and squares, made once for both lists.
        let hints = if over {
            Vec::new()
        } else {
            self.record.position().move_hints()
        };
        GameView {
            id: self.id.clone(),
            game: self.info.id,
            variant: self.record.start().variant_id(),
            mode: self.mode.id(),
            start_position: self.record.start().position_text(),
            position: self.record.position().position_text(),
            turn: self.side_name(turn),
            moves: self
                .record
                .moves()
                .iter()
                .zip(&self.chinese)
                .map(|(m, chinese)| MoveView {
                    r#move: m.text.clone(),
                    notation: m.notation.clone(),
                    notation_zh: chinese.clone(),
                })
                .collect(),
            legal: hints.iter().map(|h| h.text.clone()).collect(),
            status: if over { "finished" } else { "playing" },
            outcome: self.ended.map(|o| OutcomeView {
                winner: o.winner().map(|w| self.side_name(w)),
                reason: o.reason().id(),
                result: o.result_str(),
                text: self.describe(o),
            }),
            players: players.into_iter().collect(),
            clock: self.clock.as_ref().map(|clock| {
                let remaining = clock.remaining_at(turn, now);
                ClockView {
                    kind: clock.settings.kind.id(),
                    initial_ms: clock.settings.initial_ms,
                    increment_ms: clock.settings.increment_ms,
                    remaining_ms: [Side::White, Side::Black]
                        .into_iter()
                        .map(|s| (self.side_name(s), millis(remaining[s.index()])))
                        .collect(),
                    running: clock.is_running().then(|| self.side_name(turn)),
                }
            }),
            draw_offer: self.draw_offer.map(|s| self.side_name(s)),
            takeback_request: self.takeback_request.map(|s| self.side_name(s)),
            claimable_draw: if over {
                None
            } else {
                self.record.claimable_draw().map(Reason::id)
            },
            seed: self.seed.map(|s| format!("{s:016x}")),
            chess960_start: self.chess960_start,
            version: self.version,
            board: BoardView::of(self.record.position(), self.info.sides),
            legal_moves: hints.into_iter().map(MoveHintView::from).collect(),
            last_move: MoveHintView::played(&self.record, self.record.plies()),
        }
    }
}

/// See [`LiveGame::snapshot`].
#[derive(Debug, Clone)]
pub(crate) struct Snapshot {
    clock: Option<LiveClock>,
    ended: Option<Outcome>,
    draw_offer: Option<Side>,
    takeback_request: Option<Side>,
}

fn info_of(game: &AnyPosition) -> &'static GameInfo {
    game.kind().info()
}

/// Every move of `record` in Chinese notation (xiangqi; `None` for the other games).
fn chinese_of(record: &AnyRecord) -> Vec<Option<String>> {
    record
        .moves()
        .iter()
        .zip(record.history())
        .map(|(m, before)| before.chinese_notation(&m.text))
        .collect()
}
