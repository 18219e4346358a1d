//! A game record of any tablero game: the start, the moves, every position reached
//! and the rules that need that history (repetitions, move limits, xiangqi's
//! perpetual check and chase rulings), with export to and import from each game's
//! file format (PGN for chess and xiangqi, PDN for draughts, the chess3d record).
//!
//! The rules live in each game crate's `Game` type; this module only dispatches, so
//! the match runner and the server never `match` on game ids themselves.

use tablero_chess::pgn::{GameResult, PgnGame as ChessPgn};
use tablero_chess3d::Chess3d;
use tablero_core::{Outcome, Position, Reason, Side};
use tablero_draughts::{PdnGame, draughts_result};
use tablero_xiangqi::pgn::{MoveFormat, PgnGame as XiangqiPgn};

use crate::any::{MoveError, TextPosition};
use crate::{AnyPosition, GameKind, Variant};
use tablero_core::Refusal;

/// Search nodes the unwinnability analysis may spend on a flag fall or resignation.
/// It runs inside the request that ends the game: on positions from real games it
/// answers in a few milliseconds, and on contrived ones it stops within about a
/// second and a few MB (the full default budget can take seconds and 160 MB), the
/// verdict then staying "can win", the ruling before this analysis existed.
pub const RULING_BUDGET: u64 = 40_000;

/// Why a record refused a move or a file could not be read. The record is unchanged
/// when a move is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    /// A move was offered after the game ended.
    #[error("move {text:?}: the game is over ({outcome})")]
    Over {
        /// The refused move text.
        text: String,
        /// How the game ended.
        outcome: Outcome,
    },
    /// The move text is malformed, ambiguous or not legal here.
    #[error("move {text:?}: {reason}")]
    Move {
        /// The refused move text.
        text: String,
        /// Why it was refused, in English.
        reason: String,
        /// Why it was refused, as a rule with a stable code.
        refusal: Box<Refusal>,
    },
    /// A game of an imported file could not be read.
    #[error("game {game}: {reason}")]
    Import {
        /// 1-based number of the game in the file.
        game: usize,
        /// What is wrong.
        reason: String,
    },
    /// The game id or variant given to [`AnyRecord::import`] is unknown.
    #[error("{0}")]
    Game(String),
}

impl RecordError {
    /// The refusal of a move, with its stable code (`game_over` once the game has
    /// ended); `None` for import and game-id errors.
    #[must_use]
    pub fn refusal(&self) -> Option<Refusal> {
        match self {
            RecordError::Over { .. } => Some(Refusal::GameOver),
            RecordError::Move { refusal, .. } => Some((**refusal).clone()),
            RecordError::Import { .. } | RecordError::Game(_) => None,
        }
    }
}

/// The rules state of one game kind.
#[derive(Debug, Clone)]
enum Rules {
    Chess(tablero_chess::Game),
    Xiangqi(tablero_xiangqi::Game),
    Draughts(tablero_draughts::Game),
    Chess3d(tablero_chess3d::Game),
}

/// One move of a record, as written before it was played.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordedMove {
    /// The move in the game's move format (`e2e4`, `h2e2`, `11-15`, `0B5-0C5`).
    pub text: String,
    /// The move in the game's display notation (SAN, WXF, PDN, chess3d short form).
    pub notation: String,
}

/// A game of any kind from its start position: moves, positions and the outcome under
/// the game's full rules.
///
/// ```
/// use tablero_games::{AnyPosition, AnyRecord};
///
/// let start = AnyPosition::new("chess", None, None).unwrap();
/// let mut record = AnyRecord::new(start);
/// for m in ["f2f3", "e7e5", "g2g4", "d8h4"] {
///     record.play_text(m).unwrap();
/// }
/// assert_eq!(record.outcome().map(|o| o.result_str()), Some("0-1"));
/// assert_eq!(record.moves()[3].notation, "Qh4#");
/// assert!(record.export(&[], None).contains("2. g4 Qh4# 0-1"));
/// ```
#[derive(Debug, Clone)]
pub struct AnyRecord {
    rules: Rules,
    /// The start first, the current position last: one more than `moves`.
    positions: Vec<AnyPosition>,
    moves: Vec<RecordedMove>,
}

impl AnyRecord {
    /// A record starting at `start`, under the draw rules of its game (and rule set).
    #[must_use]
    pub fn new(start: AnyPosition) -> AnyRecord {
        let rules = match &start {
            AnyPosition::Chess(p) => Rules::Chess(tablero_chess::Game::new(p.clone())),
            AnyPosition::Xiangqi(p) => Rules::Xiangqi(tablero_xiangqi::Game::new(p.clone())),
            AnyPosition::Draughts(p) => Rules::Draughts(tablero_draughts::Game::new(p.clone())),
            AnyPosition::Chess3d(p) => Rules::Chess3d(tablero_chess3d::Game::new(p.clone())),
        };
        AnyRecord {
            rules,
            positions: vec![start],
            moves: Vec::new(),
        }
    }

    /// The game id (`chess`, `xiangqi`, `draughts`, `chess3d`).
    #[must_use]
    pub fn game_id(&self) -> &'static str {
        self.start().game_id()
    }

    /// Which game this is.
    #[must_use]
    pub fn kind(&self) -> GameKind {
        self.start().kind()
    }

    /// The start position.
    #[must_use]
    pub fn start(&self) -> &AnyPosition {
        self.positions
            .first()
            .expect("the start position is never removed")
    }

    /// The current position.
    #[must_use]
    pub fn position(&self) -> &AnyPosition {
        self.positions
            .last()
            .expect("the start position is never removed")
    }

    /// The positions before the current one, oldest first: what an engine needs to
    /// see repetitions.
    #[must_use]
    pub fn history(&self) -> &[AnyPosition] {
        &self.positions[..self.positions.len() - 1]
    }

    /// The moves played, oldest first.
    #[must_use]
    pub fn moves(&self) -> &[RecordedMove] {
        &self.moves
    }

    /// The number of moves played (plies).
    #[must_use]
    pub fn plies(&self) -> usize {
        self.moves.len()
    }

    /// The side to move.
    #[must_use]
    pub fn turn(&self) -> Side {
        match self.position() {
            AnyPosition::Chess(p) => p.turn(),
            AnyPosition::Xiangqi(p) => p.turn(),
            AnyPosition::Draughts(p) => p.turn(),
            AnyPosition::Chess3d(p) => p.turn(),
        }
    }

    /// The side that moves first from the game's start position (black in English
    /// draughts and in chess3d, white or red elsewhere).
    #[must_use]
    pub fn first_side(&self) -> Side {
        match self.start() {
            AnyPosition::Draughts(p) => p.rule_set().rules().first_to_move,
            AnyPosition::Chess3d(_) => Side::Black,
            AnyPosition::Chess(_) | AnyPosition::Xiangqi(_) => Side::White,
        }
    }

    /// The tag that names the player of `side` in the exported file: `White` or
    /// `Black`, `Red` for xiangqi's first side.
    #[must_use]
    pub fn player_tag(&self, side: Side) -> &'static str {
        match (self.start(), side) {
            (AnyPosition::Xiangqi(_), Side::White) => "Red",
            (_, Side::White) => "White",
            (_, Side::Black) => "Black",
        }
    }

    /// Plays a move given in the game's move format or display notation and returns
    /// it as it was written before the move.
    ///
    /// # Errors
    ///
    /// [`RecordError::Over`] once the game has ended; [`RecordError::Move`] for a
    /// malformed, ambiguous or illegal move. The record is unchanged then.
    pub fn play_text(&mut self, text: &str) -> Result<RecordedMove, RecordError> {
        if let Some(outcome) = self.outcome() {
            return Err(RecordError::Over {
                text: text.to_owned(),
                outcome,
            });
        }
        let refused = |e: MoveError| RecordError::Move {
            text: text.to_owned(),
            reason: e.message,
            refusal: e.refusal,
        };
        // The game's own rules refuse a parsed move only once the game is over.
        let over = |e: &dyn core::fmt::Display| MoveError {
            message: e.to_string(),
            refusal: Box::new(Refusal::GameOver),
        };
        let mut next = self.position().clone();
        let played = match (&mut self.rules, &mut next) {
            (Rules::Chess(game), AnyPosition::Chess(pos)) => {
                play_in(pos, text, |m| game.play(m).map_err(|e| over(&e)))
            }
            (Rules::Xiangqi(game), AnyPosition::Xiangqi(pos)) => {
                play_in(pos, text, |m| game.play(m).map_err(|e| over(&e)))
            }
            (Rules::Draughts(game), AnyPosition::Draughts(pos)) => {
                play_in(pos, text, |m| game.play(m).map_err(|e| over(&e)))
            }
            (Rules::Chess3d(game), AnyPosition::Chess3d(pos)) => play_in(pos, text, |m| {
                game.play(m).map(|_| ()).map_err(|e| over(&e))
            }),
            _ => unreachable!("the rules and the positions are of the same game"),
        }
        .map_err(refused)?;
        self.positions.push(next);
        self.moves.push(played.clone());
        Ok(played)
    }

    /// Takes back the last move, returning it; `None` at the start.
    pub fn undo(&mut self) -> Option<RecordedMove> {
        let last = self.moves.pop()?;
        self.positions.pop();
        let taken = match &mut self.rules {
            Rules::Chess(game) => game.undo().is_some(),
            Rules::Xiangqi(game) => game.undo().is_some(),
            Rules::Draughts(game) => game.undo().is_some(),
            Rules::Chess3d(game) => game.undo().is_some(),
        };
        debug_assert!(taken, "the rules hold as many moves as the record");
        Some(last)
    }

    /// The result under the game's rules, or `None` while the game goes on:
    /// checkmate, stalemate, no legal move, a captured dama, automatic repetition and
    /// move-limit draws, xiangqi's repetition rulings.
    #[must_use]
    pub fn outcome(&self) -> Option<Outcome> {
        match &self.rules {
            Rules::Chess(game) => game.outcome(),
            Rules::Xiangqi(game) => game.outcome(),
            Rules::Draughts(game) => game.outcome(),
            Rules::Chess3d(game) => game.outcome(),
        }
    }

    /// A draw the side to move may claim now (chess: threefold repetition, the
    /// 50-move rule). The other games draw by their rules without a claim.
    #[must_use]
    pub fn claimable_draw(&self) -> Option<Reason> {
        match &self.rules {
            Rules::Chess(game) => game.claimable_draw(),
            _ => None,
        }
    }

    /// Whether `side` could not win by any series of legal moves, so that its
    /// opponent's flag fall or resignation is a draw (FIDE 6.9). Only chess answers
    /// `true`, when the unwinnability analysis proves it
    /// ([`tablero_chess::Chess::can_checkmate`]: material, locked pawns, a helpmate
    /// search) within [`RULING_BUDGET`]; an undetermined verdict counts as "can win".
    #[must_use]
    pub fn has_insufficient_material(&self, side: Side) -> bool {
        match self.position() {
            AnyPosition::Chess(p) => {
                p.analyse_unwinnability(side, RULING_BUDGET).verdict
                    == tablero_chess::Verdict::Unwinnable
            }
            _ => false,
        }
    }

    /// The result when `flagged` runs out of time on a per-side clock: the opponent
    /// wins, unless it could not win by any series of legal moves (FIDE 6.9, chess
    /// only), which is a draw.
    #[must_use]
    pub fn flag_outcome(&self, flagged: Side) -> Outcome {
        self.loss_unless_unwinnable(
            flagged,
            Reason::Timeout,
            Reason::TimeoutInsufficientMaterial,
        )
    }

    /// The result when `resigner` resigns: the opponent wins, unless it could not win
    /// by any series of legal moves (chess), which is a draw, as for a flag fall.
    #[must_use]
    pub fn resign_outcome(&self, resigner: Side) -> Outcome {
        self.loss_unless_unwinnable(
            resigner,
            Reason::Resignation,
            Reason::ResignationInsufficientMaterial,
        )
    }

    /// `loser`'s opponent wins by `reason`, or, when that opponent could not win by
    /// any series of legal moves, a draw by `draw`.
    fn loss_unless_unwinnable(&self, loser: Side, reason: Reason, draw: Reason) -> Outcome {
        if self.has_insufficient_material(loser.other()) {
            Outcome::Draw { reason: draw }
        } else {
            Outcome::Win {
                winner: loser.other(),
                reason,
            }
        }
    }

    /// The result when a whole-game clock expires (chess3d's timed mode: more pieces
    /// wins, equal counts draw); `None` for games that have no such clock.
    #[must_use]
    pub fn game_clock_outcome(&self) -> Option<Outcome> {
        match &self.rules {
            Rules::Chess3d(game) => Some(game.timeout_outcome()),
            _ => None,
        }
    }

    /// The game in its file format: PGN (chess, xiangqi with WXF moves), PDN
    /// (draughts) or the chess3d record (see [`AnyRecord::import`]).
    ///
    /// `tags` are added as given (e.g. `Event`, `Round`, and the players under
    /// [`AnyRecord::player_tag`]); the result comes from the rules' outcome, else from
    /// `outcome` (a flag fall or an adjudication the rules do not know), else `*`.
    /// A decided game gets a `Termination` tag with the reason id
    /// (`checkmate`, `timeout`, ...).
    #[must_use]
    pub fn export(&self, tags: &[(String, String)], outcome: Option<Outcome>) -> String {
        let outcome = self.outcome().or(outcome);
        let mut tags: Vec<(String, String)> = tags
            .iter()
            .filter(|(name, _)| name != "Result" && name != "Termination")
            .cloned()
            .collect();
        if let Some(o) = outcome {
            tags.push(("Termination".to_owned(), o.reason().id().to_owned()));
        }
        match &self.rules {
            Rules::Chess(game) => {
                let mut pgn = ChessPgn::from_game(game, tags);
                if let Some(o) = outcome {
                    pgn.result = GameResult::from(o);
                }
                pgn.to_pgn_string()
            }
            Rules::Xiangqi(game) => {
                let mut pgn = XiangqiPgn::from_game(game, tags);
                if let Some(o) = outcome {
                    o.result_str().clone_into(&mut pgn.result);
                }
                pgn.to_pgn_string(MoveFormat::Wxf)
            }
            Rules::Draughts(game) => {
                let mut pdn = PdnGame::from_game(game, tags);
                pdn.result = outcome.map(|o| draughts_result(o).to_owned());
                pdn.to_pdn()
            }
            Rules::Chess3d(game) => chess3d_record(game, &tags, outcome),
        }
    }

    /// Reads every game of a file written in `game`'s format (see
    /// [`AnyRecord::export`]): one result per game, in file order, each with the
    /// file's tags. Draughts games without a `GameType` tag are of `variant`.
    ///
    /// # Errors
    ///
    /// [`RecordError::Game`] for a variant that is not the game's (then it is the
    /// only entry); [`RecordError::Import`] for each game that cannot be read.
    #[must_use]
    pub fn import(
        game: GameKind,
        variant: Variant,
        text: &str,
    ) -> Vec<Result<ImportedRecord, RecordError>> {
        Self::import_where(game, variant, text, &|_| true)
            .into_iter()
            .flatten()
            .collect()
    }

    /// Reads game number `number` (from 1) of a file: every game is parsed, but only
    /// that one is replayed under the rules (replaying is most of the cost). Returns
    /// how many games the file holds, and the game if there is one with that number.
    ///
    /// # Errors
    ///
    /// As [`AnyRecord::import`], for that game.
    #[must_use]
    pub fn import_one(
        game: GameKind,
        variant: Variant,
        text: &str,
        number: usize,
    ) -> (usize, Option<Result<ImportedRecord, RecordError>>) {
        let read = Self::import_where(game, variant, text, &|i| i + 1 == number);
        let count = read.len();
        let chosen = read.into_iter().flatten().next();
        (count, chosen)
    }

    /// Every game of the file, replayed (`Some`) where `keep` takes its index (from
    /// 0), skipped (`None`) elsewhere. An unknown game or variant is one `Some(Err)`.
    fn import_where(
        game: GameKind,
        variant: Variant,
        text: &str,
        keep: &dyn Fn(usize) -> bool,
    ) -> Vec<Option<Result<ImportedRecord, RecordError>>> {
        let start = match AnyPosition::of(game, variant, None) {
            Ok(start) => start,
            Err(e) => return vec![Some(Err(RecordError::Game(e.to_string())))],
        };
        let bad = |game: usize, reason: String| RecordError::Import { game, reason };
        match start {
            AnyPosition::Chess(_) => tablero_chess::pgn::read_str(text)
                .into_iter()
                .enumerate()
                .map(|(i, read)| {
                    keep(i).then(|| {
                        let pgn = read.map_err(|e| bad(i + 1, e.to_string()))?;
                        let moves: Vec<_> = pgn.mainline_moves().collect();
                        let record = replay(AnyPosition::Chess(pgn.start.clone()), &moves)
                            .map_err(|e| bad(i + 1, e.to_string()))?;
                        Ok(ImportedRecord {
                            record,
                            result: pgn.result.as_str().to_owned(),
                            tags: pgn.tags,
                        })
                    })
                })
                .collect(),
            AnyPosition::Xiangqi(_) => tablero_xiangqi::pgn::read_pgn(text)
                .into_iter()
                .enumerate()
                .map(|(i, read)| {
                    keep(i).then(|| {
                        let pgn = read.map_err(|e| bad(i + 1, e.to_string()))?;
                        let record = replay(AnyPosition::Xiangqi(pgn.start.clone()), &pgn.moves)
                            .map_err(|e| bad(i + 1, e.to_string()))?;
                        Ok(ImportedRecord {
                            record,
                            result: pgn.result,
                            tags: pgn.tags,
                        })
                    })
                })
                .collect(),
            AnyPosition::Draughts(start) => {
                let read = tablero_draughts::read_pdn(text, start.rule_set());
                let mut out: Vec<Option<Result<ImportedRecord, RecordError>>> = Vec::new();
                for (i, pdn) in read.games.into_iter().enumerate() {
                    out.push(keep(i).then(|| {
                        replay(AnyPosition::Draughts(pdn.start.clone()), &pdn.moves)
                            .map(|record| ImportedRecord {
                                record,
                                result: pdn.result.unwrap_or_else(|| "*".to_owned()),
                                tags: pdn.tags,
                            })
                            .map_err(|e| bad(i + 1, e.to_string()))
                    }));
                }
                out.extend(
                    read.errors.into_iter().map(|e| {
                        keep(e.game.saturating_sub(1)).then(|| Err(bad(e.game, e.message)))
                    }),
                );
                out
            }
            AnyPosition::Chess3d(_) => read_chess3d_records(text, keep),
        }
    }
}

impl ImportedRecord {
    /// How the game ended: by the rules at its last move, or else as the record
    /// states it: its result with the reason of a `Termination` tag that names one
    /// (`resignation`, `timeout`, ...), or [`Reason::RecordedResult`]. `None` for a
    /// game in progress (`*`).
    #[must_use]
    pub fn outcome(&self) -> Option<Outcome> {
        if let Some(outcome) = self.record.outcome() {
            return Some(outcome);
        }
        let reason = self
            .tag("Termination")
            .and_then(|t| t.parse().ok())
            .unwrap_or(Reason::RecordedResult);
        match self.result.trim() {
            "1-0" | "2-0" => Some(Outcome::Win {
                winner: Side::White,
                reason,
            }),
            "0-1" | "0-2" => Some(Outcome::Win {
                winner: Side::Black,
                reason,
            }),
            "1/2-1/2" | "1-1" | "½-½" => Some(Outcome::Draw { reason }),
            _ => None,
        }
    }
}

/// A game read by [`AnyRecord::import`].
#[derive(Debug, Clone)]
pub struct ImportedRecord {
    /// The game, replayed under its rules.
    pub record: AnyRecord,
    /// The file's tags, in file order.
    pub tags: Vec<(String, String)>,
    /// The result token as written (`1-0`, `2-0`, `1/2-1/2`, `*`, ...).
    pub result: String,
}

impl ImportedRecord {
    /// The value of tag `name` (the first one, if repeated).
    #[must_use]
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// Parses `text` in `pos`, lets `play` apply it to the rules, then plays it on `pos`.
fn play_in<P: TextPosition>(
    pos: &mut P,
    text: &str,
    play: impl FnOnce(P::Move) -> Result<(), MoveError>,
) -> Result<RecordedMove, MoveError> {
    let m = pos.parse_move_text(text)?;
    let written = RecordedMove {
        text: pos.move_text(m),
        notation: pos.notation_text(m),
    };
    play(m)?;
    pos.play_unchecked(m);
    Ok(written)
}

/// The record of `moves` played from `start`.
fn replay<M: Copy>(start: AnyPosition, moves: &[M]) -> Result<AnyRecord, RecordError>
where
    AnyPosition: MoveText<M>,
{
    let mut record = AnyRecord::new(start);
    for &m in moves {
        let text = record.position().text_of(m);
        record.play_text(&text)?;
    }
    Ok(record)
}

/// Writes a typed move of one game kind in the move format.
trait MoveText<M> {
    fn text_of(&self, m: M) -> String;
}

macro_rules! move_text {
    ($move:ty, $variant:path) => {
        impl MoveText<$move> for AnyPosition {
            fn text_of(&self, m: $move) -> String {
                match self {
                    $variant(pos) => TextPosition::move_text(pos, m),
                    // A move of another game: an empty text, which every game refuses.
                    _ => String::new(),
                }
            }
        }
    };
}
move_text!(tablero_chess::Move, AnyPosition::Chess);
move_text!(tablero_xiangqi::Move, AnyPosition::Xiangqi);
move_text!(tablero_draughts::Move, AnyPosition::Draughts);
move_text!(tablero_chess3d::Move, AnyPosition::Chess3d);

/// The tag naming the chess3d start position (with its generator state).
const CHESS3D_POSITION_TAG: &str = "Position";

/// The chess3d record: PGN's layout with the moves in coordinate form.
///
/// ```text
/// [Game "Ajedrez 3D"]
/// [Black "level:3"]
/// [Result "0-1"]
/// [Position "<position string, specs/chess3d.md §8>"]
///
/// 1. 0G4-0F4 0B5-0C5 2. ... 0-1
/// ```
///
/// Black moves first; a move number starts each pair that begins with the first
/// mover, `N...` marks a start with White to move.
fn chess3d_record(
    game: &tablero_chess3d::Game,
    tags: &[(String, String)],
    outcome: Option<Outcome>,
) -> String {
    let result = outcome.map_or("*", Outcome::result_str);
    let mut out = String::new();
    let mut push_tag = |name: &str, value: &str| {
        let value = value.replace('\\', "\\\\").replace('"', "\\\"");
        out.push_str(&format!("[{name} \"{value}\"]\n"));
    };
    push_tag("Game", "Ajedrez 3D");
    for (name, value) in tags {
        if !matches!(name.as_str(), "Game" | CHESS3D_POSITION_TAG) && is_tag_name(name) {
            push_tag(name, value);
        }
    }
    push_tag("Result", result);
    push_tag(CHESS3D_POSITION_TAG, &game.start().position_string());
    out.push('\n');
    let mut words = Vec::new();
    let mut pos = game.start().clone();
    for (i, m) in game.moves().enumerate() {
        if pos.turn() == Side::Black {
            words.push(format!("{}.", pos.move_number()));
        } else if i == 0 {
            words.push(format!("{}...", pos.move_number()));
        }
        words.push(pos.coordinate(m));
        pos.play_unchecked(m);
    }
    words.push(result.to_owned());
    out.push_str(&wrap(&words));
    out
}

fn is_tag_name(name: &str) -> bool {
    !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Words joined by spaces in lines of at most 80 columns, ending with a newline.
fn wrap(words: &[String]) -> String {
    let mut out = String::new();
    let mut line_len = 0;
    for word in words {
        if line_len > 0 && line_len + 1 + word.len() > 80 {
            out.push('\n');
            line_len = 0;
        } else if line_len > 0 {
            out.push(' ');
            line_len += 1;
        }
        out.push_str(word);
        line_len += word.len();
    }
    out.push('\n');
    out
}

const RESULTS: [&str; 4] = ["1-0", "0-1", "1/2-1/2", "*"];

/// Reads chess3d records: tags, then move numbers, coordinate (or short-form) moves,
/// `{comments}` and a result token ending each game.
fn read_chess3d_records(
    text: &str,
    keep: &dyn Fn(usize) -> bool,
) -> Vec<Option<Result<ImportedRecord, RecordError>>> {
    let mut out = Vec::new();
    let mut tags: Vec<(String, String)> = Vec::new();
    let mut moves: Vec<String> = Vec::new();
    let mut in_moves = false;
    let mut rest = text;
    let finish = |tags: &mut Vec<(String, String)>,
                  moves: &mut Vec<String>,
                  result: &str,
                  out: &mut Vec<Option<Result<ImportedRecord, RecordError>>>| {
        let number = out.len() + 1;
        let tags = core::mem::take(tags);
        let moves = core::mem::take(moves);
        out.push(keep(number - 1).then(|| chess3d_game(number, tags, &moves, result)));
    };
    loop {
        rest = rest.trim_start();
        let Some(first) = rest.chars().next() else {
            break;
        };
        match first {
            '[' => {
                if in_moves {
                    // A tag after movetext without a result: the game ended unfinished.
                    finish(&mut tags, &mut moves, "*", &mut out);
                    in_moves = false;
                }
                let end = rest.find(']').unwrap_or(rest.len());
                let inner = &rest[1..end];
                rest = rest.get(end + 1..).unwrap_or("");
                if let Some((name, value)) = inner.trim().split_once(char::is_whitespace) {
                    let value = value.trim().trim_matches('"');
                    let value = value.replace("\\\"", "\"").replace("\\\\", "\\");
                    tags.push((name.to_owned(), value));
                }
            }
            '{' => {
                let end = rest.find('}').unwrap_or(rest.len() - 1);
                rest = &rest[end + 1..];
            }
            _ => {
                let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
                let word = &rest[..end];
                rest = &rest[end..];
                in_moves = true;
                if RESULTS.contains(&word) {
                    finish(&mut tags, &mut moves, word, &mut out);
                    in_moves = false;
                } else {
                    let body = word.trim_start_matches(|c: char| c.is_ascii_digit());
                    let body = if body.len() < word.len() && body.starts_with('.') {
                        body.trim_start_matches('.')
                    } else {
                        word
                    };
                    if !body.is_empty() {
                        moves.push(body.to_owned());
                    }
                }
            }
        }
    }
    if in_moves || !tags.is_empty() {
        finish(&mut tags, &mut moves, "*", &mut out);
    }
    out
}

fn chess3d_game(
    number: usize,
    tags: Vec<(String, String)>,
    moves: &[String],
    result: &str,
) -> Result<ImportedRecord, RecordError> {
    let bad = |reason: String| RecordError::Import {
        game: number,
        reason,
    };
    let start = match tags.iter().find(|(n, _)| n == CHESS3D_POSITION_TAG) {
        Some((_, text)) => Chess3d::from_position_string(text)
            .map_err(|e| bad(format!("{CHESS3D_POSITION_TAG} tag: {e}")))?,
        None => Chess3d::start(0),
    };
    let mut record = AnyRecord::new(AnyPosition::Chess3d(start));
    for (i, m) in moves.iter().enumerate() {
        record
            .play_text(m)
            .map_err(|e| bad(format!("ply {}: {e}", i + 1)))?;
    }
    Ok(ImportedRecord {
        record,
        tags,
        result: result.to_owned(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(game: &str, variant: Option<&str>, moves: &[&str]) -> AnyRecord {
        let mut record =
            AnyRecord::new(AnyPosition::new(game, variant, None).expect("valid in this test"));
        for m in moves {
            record.play_text(m).expect("valid in this test");
        }
        record
    }

    fn tags(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(n, v)| ((*n).to_owned(), (*v).to_owned()))
            .collect()
    }

    #[test]
    fn plays_moves_in_either_notation_and_keeps_positions() {
        let mut r = record("chess", None, &["e2e4", "e5"]);
        assert_eq!(r.plies(), 2);
        assert_eq!(
            r.moves()[1],
            RecordedMove {
                text: "e7e5".to_owned(),
                notation: "e5".to_owned()
            }
        );
        assert_eq!(r.history().len(), 2);
        assert_eq!(r.history()[0], *r.start());
        assert_eq!(r.turn(), Side::White);
        let before = r.position().clone();
        let after_first = r.history()[1].clone();
        let err = r.play_text("e4e5").expect_err("refused");
        assert!(matches!(err, RecordError::Move { .. }), "{err}");
        assert_eq!(*r.position(), before);
        assert_eq!(r.undo().map(|m| m.text), Some("e7e5".to_owned()));
        assert_eq!(*r.position(), after_first);
        assert_eq!(r.plies(), 1);
        assert_eq!(r.turn(), Side::Black);
    }

    #[test]
    fn chess_repetition_is_claimable_then_automatic() {
        let cycle = ["g1f3", "g8f6", "f3g1", "f6g8"];
        let mut r = record("chess", None, &cycle);
        assert_eq!(r.claimable_draw(), None);
        for m in cycle {
            r.play_text(m).expect("valid in this test");
        }
        assert_eq!(r.claimable_draw(), Some(Reason::ThreefoldRepetition));
        assert_eq!(r.outcome(), None);
        for m in cycle.iter().chain(&cycle) {
            r.play_text(m).expect("valid in this test");
        }
        let fivefold = Outcome::Draw {
            reason: Reason::FivefoldRepetition,
        };
        assert_eq!(r.outcome(), Some(fivefold));
        assert!(matches!(
            r.play_text("e2e4"),
            Err(RecordError::Over { outcome, .. }) if outcome == fivefold
        ));
        r.undo();
        assert_eq!(r.outcome(), None);
    }

    #[test]
    fn xiangqi_perpetual_check_loses() {
        // Red's chariot checks from h8 and h9 forever; black's general shuffles.
        let fen = "3k5/9/9/9/9/9/9/9/9/4K2R1 w - - 0 1";
        let start = AnyPosition::new("xiangqi", None, Some(fen)).expect("valid in this test");
        let mut r = AnyRecord::new(start);
        let cycle = [
            "h0h9", "d9d8", "h9h8", "d8d9", "h8h9", "d9d8", "h9h8", "d8d9",
        ];
        for m in cycle.iter().chain(&cycle[4..]) {
            if r.outcome().is_some() {
                break;
            }
            r.play_text(m).expect("valid in this test");
        }
        let outcome = r.outcome().expect("the repetition is ruled");
        assert_eq!(outcome.winner(), Some(Side::Black), "{outcome}");
        assert_eq!(outcome.reason(), Reason::PerpetualCheck);
        assert_eq!(r.player_tag(Side::White), "Red");
    }

    #[test]
    fn first_side_and_draughts_rules() {
        assert_eq!(record("draughts", None, &[]).first_side(), Side::Black);
        assert_eq!(
            record("draughts", Some("international"), &[]).first_side(),
            Side::White
        );
        assert_eq!(record("chess3d", None, &[]).first_side(), Side::Black);
        assert_eq!(record("xiangqi", None, &[]).first_side(), Side::White);
        let r = record("draughts", None, &["11-15", "22-18", "15x22"]);
        assert_eq!(r.moves()[2].text, "15x22");
        assert_eq!(r.outcome(), None);
    }

    #[test]
    fn insufficient_material_is_chess_only() {
        let fen = "8/8/8/8/8/8/8/K1k4N w - - 0 1";
        let r =
            AnyRecord::new(AnyPosition::new("chess", None, Some(fen)).expect("valid in this test"));
        assert!(r.has_insufficient_material(Side::White));
        assert!(r.has_insufficient_material(Side::Black));
        assert!(!record("chess", None, &[]).has_insufficient_material(Side::White));
        assert!(!record("xiangqi", None, &[]).has_insufficient_material(Side::White));
    }

    #[test]
    fn locked_pawns_are_dead_and_make_flag_falls_and_resignations_draws() {
        // Nobody can ever pass the wall: a dead position (FIDE 5.2.2).
        let dead = "4k3/8/8/1p1p1p1p/pPpPpPpP/P1P1P1P1/8/4K3 w - - 0 1";
        let r = AnyRecord::new(AnyPosition::new("chess", None, Some(dead)).expect("valid FEN"));
        assert_eq!(r.outcome().map(|o| o.reason()), Some(Reason::DeadPosition));
        // White's dark-squared bishops are shut in behind the pawns and can never
        // check; Black's bishop on a2 can still mate with help (Chess Unwinnability
        // Analyzer test vector). Black's flag fall or resignation is a draw, White's
        // loses.
        let fen = "3k4/1b6/8/1p1p1p1p/1P1P1P1P/4B3/b4B2/3K4 b - - 0 1";
        let r = AnyRecord::new(AnyPosition::new("chess", None, Some(fen)).expect("valid FEN"));
        assert_eq!(r.outcome(), None);
        let draw = |reason| Outcome::Draw { reason };
        let black_wins = |reason| Outcome::Win {
            winner: Side::Black,
            reason,
        };
        assert_eq!(
            r.flag_outcome(Side::Black),
            draw(Reason::TimeoutInsufficientMaterial)
        );
        assert_eq!(
            r.resign_outcome(Side::Black),
            draw(Reason::ResignationInsufficientMaterial)
        );
        assert_eq!(r.flag_outcome(Side::White), black_wins(Reason::Timeout));
        assert_eq!(
            r.resign_outcome(Side::White),
            black_wins(Reason::Resignation)
        );
        // A dark-squared bishop behind the wall can never check either: dead.
        let walled = "4k3/8/8/1p1p1p1p/pPpPpPpP/P1P1P1P1/8/2B1K3 w - - 0 1";
        let r = AnyRecord::new(AnyPosition::new("chess", None, Some(walled)).expect("valid FEN"));
        assert_eq!(r.outcome().map(|o| o.reason()), Some(Reason::DeadPosition));
        assert!(r.has_insufficient_material(Side::White));
        assert!(r.has_insufficient_material(Side::Black));
    }

    #[test]
    fn export_round_trips_through_every_reader() {
        let cases: [(&str, Option<&str>, &[&str]); 5] = [
            ("chess", None, &["e2e4", "e7e5", "g1f3"]),
            (
                "chess",
                Some("chess960"),
                &["e2e4", "e7e5", "g1f3", "g8f6", "f1e2", "f8e7", "e1h1"],
            ),
            ("xiangqi", None, &["h2e2", "h9g7", "h0g2"]),
            (
                "draughts",
                Some("international"),
                &["32-28", "19-23", "28x19"],
            ),
            ("chess3d", None, &[]),
        ];
        for (game, variant, moves) in cases {
            let mut r = record(game, variant, moves);
            if game == "chess3d" {
                for _ in 0..5 {
                    let m = r.position().legal_moves_text()[0].clone();
                    r.play_text(&m).expect("valid in this test");
                }
            }
            let timeout = Outcome::Win {
                winner: Side::Black,
                reason: Reason::Timeout,
            };
            let players = tags(&[
                (r.player_tag(Side::White), "Ann"),
                (r.player_tag(Side::Black), "Bob"),
                ("Round", "3"),
            ]);
            let text = r.export(&players, Some(timeout));
            let (kind, variant) = typed(game, variant);
            let read = AnyRecord::import(kind, variant, &text);
            assert_eq!(read.len(), 1, "{game}: {text}");
            let back = read[0]
                .as_ref()
                .map_err(ToString::to_string)
                .expect("valid in this test");
            assert_eq!(back.record.moves(), r.moves(), "{game}: {text}");
            assert_eq!(back.record.start(), r.start(), "{game}");
            assert_eq!(back.tag(r.player_tag(Side::White)), Some("Ann"), "{text}");
            assert_eq!(back.tag("Round"), Some("3"), "{text}");
            assert_eq!(back.tag("Termination"), Some("timeout"), "{text}");
            let expected = if game == "draughts" { "0-2" } else { "0-1" };
            assert_eq!(back.result, expected, "{game}: {text}");
            // Two games in one file read back as two.
            let two = format!("{text}\n{text}");
            assert_eq!(AnyRecord::import(kind, variant, &two).len(), 2, "{game}");
        }
    }

    fn typed(game: &str, variant: Option<&str>) -> (GameKind, Variant) {
        let kind: GameKind = game.parse().expect("a game id in this test");
        (
            kind,
            kind.variant(variant).expect("a variant id in this test"),
        )
    }

    #[test]
    fn export_prefers_the_rules_outcome() {
        let r = record("chess", None, &["f2f3", "e7e5", "g2g4", "d8h4"]);
        let draw = Outcome::Draw {
            reason: Reason::Agreement,
        };
        let text = r.export(&[], Some(draw));
        assert!(text.contains("[Result \"0-1\"]"), "{text}");
        assert!(text.contains("[Termination \"checkmate\"]"), "{text}");
        let unfinished = record("chess", None, &["e2e4"]).export(&[], None);
        assert!(unfinished.contains("[Result \"*\"]"), "{unfinished}");
    }

    #[test]
    fn import_reports_bad_games_and_unknown_games() {
        let text = "[Game \"Ajedrez 3D\"]\n\n1. 9Z9-0A1 *\n";
        let read = AnyRecord::import(GameKind::Chess3d, Variant::Standard, text);
        assert!(
            matches!(&read[..], [Err(RecordError::Import { game: 1, reason })] if reason.contains("ply 1")),
            "{read:?}"
        );
        assert!(matches!(
            &AnyRecord::import(GameKind::Xiangqi, Variant::Chess960, "")[..],
            [Err(RecordError::Game(_))]
        ));
        let pgn = "[Event \"x\"]\n\n1. e4 e5 2. Ke3 *\n";
        assert!(matches!(
            &AnyRecord::import(GameKind::Chess, Variant::Standard, pgn)[..],
            [Err(RecordError::Import { game: 1, .. })]
        ));
    }
}
