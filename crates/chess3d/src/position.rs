//! The position: placement, side to move, counters, the generator and the key; play
//! and undo.

use tablero_core::{Outcome, Position, Reason, Side, SplitMix64};

use crate::bitboard::{ROW_A, ROW_H, nth_bit};
use crate::{Board, Kind, Move, MoveList, Piece, Setup, Square, zobrist};

/// Why a [`Setup`] cannot be played.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// The move number is 0 (it starts at 1).
    #[error("move number {0}: must be 1 or more")]
    MoveNumber(u32),
}

/// An Ajedrez 3D position: the placement of the three levels, the side to move, the
/// quiet-ply counter, the move number, the state of the position's own SplitMix64
/// generator (promotions draw from it, §7) and an incrementally kept Zobrist key.
///
/// Any placement is allowed (the rule book does not check piece counts), so the only
/// invalid [`Setup`] is one with move number 0.
///
/// **Keys.** [`Chess3d::key`] covers placement and side to move only: it is the
/// repetition identity of §5, which ignores the generator. [`Position::zobrist`] also
/// mixes in the generator state, since it decides where a promotion lands. The two can
/// only disagree across a promotion, and a promotion is a pawn move, after which no
/// earlier placement can recur (pawns never step back without capturing, a capture
/// lowers the piece count, and a lifted pawn stays on a higher level), so repetition
/// counts come out the same with either key.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Chess3d {
    pub(crate) board: Board,
    pub(crate) turn: Side,
    quiet_plies: u32,
    move_number: u32,
    rng: SplitMix64,
    key: u64,
}

/// What [`Chess3d::play_with_undo`] changed, so that [`Chess3d::undo`] can restore the
/// position exactly, generator state included.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Undo {
    mv: Move,
    turn: Side,
    /// `None` when the move was not a move of the side to move (nothing changed).
    effect: Option<Effect>,
    quiet_plies: u32,
    move_number: u32,
    rng: u64,
    key: u64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct Effect {
    moved: Kind,
    captured: Option<Kind>,
    landed_kind: Kind,
    landed_on: Square,
}

impl Undo {
    /// The move that was played.
    #[must_use]
    pub const fn mv(&self) -> Move {
        self.mv
    }

    /// The kind of the piece the move captured, if any.
    #[must_use]
    pub fn captured(&self) -> Option<Kind> {
        self.effect.and_then(|e| e.captured)
    }

    /// Where the moved piece ended and what it is now: the destination and the same
    /// kind, except after a promotion (lifted pawn, or the piece drawn on level 2).
    #[must_use]
    pub fn landed(&self) -> Option<(Square, Kind)> {
        self.effect.map(|e| (e.landed_on, e.landed_kind))
    }
}

impl Chess3d {
    /// The start position (§3) with generator state `seed`.
    #[must_use]
    pub fn start(seed: u64) -> Chess3d {
        Chess3d::from_setup(Setup::start(seed)).expect("the start setup has move number 1")
    }

    /// The start position with a fresh seed from [`crate::fresh_seed`]: what a new
    /// game uses unless a seed is given.
    #[must_use]
    pub fn random_start() -> Chess3d {
        Chess3d::start(crate::fresh_seed())
    }

    /// Makes `setup` playable.
    ///
    /// # Errors
    ///
    /// [`PositionError::MoveNumber`] if the move number is 0.
    pub fn from_setup(setup: Setup) -> Result<Chess3d, PositionError> {
        if setup.move_number == 0 {
            return Err(PositionError::MoveNumber(0));
        }
        let mut pos = Chess3d {
            board: setup.board,
            turn: setup.turn,
            quiet_plies: setup.quiet_plies,
            move_number: setup.move_number,
            rng: SplitMix64::new(setup.rng),
            key: 0,
        };
        pos.key = pos.compute_key();
        Ok(pos)
    }

    /// The position as a plain [`Setup`].
    #[must_use]
    pub fn to_setup(&self) -> Setup {
        Setup {
            board: self.board,
            turn: self.turn,
            quiet_plies: self.quiet_plies,
            move_number: self.move_number,
            rng: self.rng.state(),
        }
    }

    /// The placement.
    #[must_use]
    #[inline]
    pub const fn board(&self) -> &Board {
        &self.board
    }

    /// The side to move.
    #[must_use]
    #[inline]
    pub const fn turn(&self) -> Side {
        self.turn
    }

    /// Plies since the last capture or pawn move.
    #[must_use]
    pub const fn quiet_plies(&self) -> u32 {
        self.quiet_plies
    }

    /// The move number (starts at 1, increases after White's move).
    #[must_use]
    pub const fn move_number(&self) -> u32 {
        self.move_number
    }

    /// The position's generator, in its current state.
    #[must_use]
    pub const fn rng(&self) -> SplitMix64 {
        self.rng
    }

    /// The repetition key: placement and side to move, not the generator or counters
    /// (§5). Kept incrementally by play and undo.
    #[must_use]
    #[inline]
    pub const fn key(&self) -> u64 {
        self.key
    }

    /// [`Chess3d::key`] recomputed from scratch.
    #[must_use]
    pub fn compute_key(&self) -> u64 {
        let side = match self.turn {
            Side::White => 0,
            Side::Black => zobrist::BLACK_TO_MOVE,
        };
        self.board
            .iter()
            .fold(side, |key, (sq, piece)| key ^ zobrist::piece(piece, sq))
    }

    /// Every legal move, sorted by source and then destination in scan order.
    #[must_use]
    pub fn legal_moves(&self) -> MoveList {
        let mut moves = MoveList::new();
        self.generate(&mut moves);
        moves
    }

    /// Whether `m` is legal here.
    #[must_use]
    pub fn is_legal(&self, m: Move) -> bool {
        self.is_legal_move(m)
    }

    /// How many pieces `side` has on the board, all levels and kinds.
    #[must_use]
    pub const fn piece_count(&self, side: Side) -> u32 {
        self.board.count(side)
    }

    /// The timed-mode result (§5), for the server to call when the game clock runs
    /// out: the side with more pieces on the board wins, equal counts draw. The reason
    /// is [`Reason::PieceCount`].
    #[must_use]
    pub const fn timeout_outcome(&self) -> Outcome {
        let white = self.board.count(Side::White);
        let black = self.board.count(Side::Black);
        if white > black {
            Outcome::Win {
                winner: Side::White,
                reason: Reason::PieceCount,
            }
        } else if black > white {
            Outcome::Win {
                winner: Side::Black,
                reason: Reason::PieceCount,
            }
        } else {
            Outcome::Draw {
                reason: Reason::PieceCount,
            }
        }
    }

    /// The result decided by the position alone (§5): a side without a dama has lost
    /// ([`Reason::DamaCaptured`]; a draw for the same reason if neither has one), and
    /// a side to move without legal moves draws ([`Reason::NoLegalMove`]). The 100-ply
    /// and repetition draws need the game's history: see [`crate::Game::outcome`].
    #[must_use]
    pub fn outcome(&self) -> Option<Outcome> {
        match (
            self.board.has_dama(Side::White),
            self.board.has_dama(Side::Black),
        ) {
            (true, true) => (self.count() == 0).then_some(Outcome::Draw {
                reason: Reason::NoLegalMove,
            }),
            (true, false) => Some(Outcome::Win {
                winner: Side::White,
                reason: Reason::DamaCaptured,
            }),
            (false, true) => Some(Outcome::Win {
                winner: Side::Black,
                reason: Reason::DamaCaptured,
            }),
            (false, false) => Some(Outcome::Draw {
                reason: Reason::DamaCaptured,
            }),
        }
    }

    /// Plays `m` and returns what [`Chess3d::undo`] needs to take it back. `m` should be
    /// legal (see [`Position::play_unchecked`]); a move that does not start on a piece
    /// of the side to move, or ends on one, changes nothing.
    ///
    /// A pawn arriving on its promotion row is promoted as §4 says, drawing from the
    /// position's generator (§7): on levels 0 and 1 it is lifted to a random empty
    /// square of the level above off its promotion row; on level 2 it becomes a random
    /// alfil, caballo or torre on a random empty square of level 0. Without such a
    /// square the pawn (or the drawn piece) stays on the arrival square.
    pub fn play_with_undo(&mut self, m: Move) -> Undo {
        let us = self.turn;
        let them = !us;
        let from = m.from();
        let to = m.to();
        let mut undo = Undo {
            mv: m,
            turn: us,
            effect: None,
            quiet_plies: self.quiet_plies,
            move_number: self.move_number,
            rng: self.rng.state(),
            key: self.key,
        };
        if self.board.side_at(from) != Some(us) || self.board.side_at(to) == Some(us) {
            return undo;
        }
        let Some(moved) = self.board.kind_at(from) else {
            return undo;
        };
        let mut key = self.key ^ zobrist::BLACK_TO_MOVE;
        let captured = if self.board.side_at(to) == Some(them) {
            let kind = self.board.kind_at(to);
            if let Some(kind) = kind {
                self.board.take(to, Piece { side: them, kind });
                key ^= zobrist::piece_parts(them, kind, to);
            }
            kind
        } else {
            None
        };
        self.board.take(
            from,
            Piece {
                side: us,
                kind: moved,
            },
        );
        key ^= zobrist::piece_parts(us, moved, from);
        let promotion_row = match us {
            Side::White => ROW_H,
            Side::Black => ROW_A,
        };
        let (landed_kind, landed_on) = if moved == Kind::Peon && to.bit() & promotion_row != 0 {
            self.promote(to, promotion_row)
        } else {
            (moved, to)
        };
        self.board.put(
            landed_on,
            Piece {
                side: us,
                kind: landed_kind,
            },
        );
        key ^= zobrist::piece_parts(us, landed_kind, landed_on);
        self.key = key;
        self.quiet_plies = if captured.is_some() || moved == Kind::Peon {
            0
        } else {
            self.quiet_plies.saturating_add(1)
        };
        if us == Side::White {
            self.move_number = self.move_number.saturating_add(1);
        }
        self.turn = them;
        undo.effect = Some(Effect {
            moved,
            captured,
            landed_kind,
            landed_on,
        });
        undo
    }

    /// Where a pawn of the side to move that arrived on `arrival`, its promotion row,
    /// ends and what it becomes (§4, §7). The pawn has already left its source square.
    fn promote(&mut self, arrival: Square, promotion_row: u64) -> (Kind, Square) {
        let level = arrival.level();
        if level < 2 {
            let above = level + 1;
            let candidates = !self.board.occupied(above) & !promotion_row;
            let count = candidates.count_ones();
            if count == 0 {
                return (Kind::Peon, arrival);
            }
            let index = self.rng.below(u64::from(count)) as u32;
            (
                Kind::Peon,
                Square::from_level_bit(above, nth_bit(candidates, index)),
            )
        } else {
            let kind = Kind::PROMOTION_DRAW[self.rng.below(3) as usize];
            let candidates = !self.board.occupied(0);
            let count = candidates.count_ones();
            if count == 0 {
                return (kind, arrival);
            }
            let index = self.rng.below(u64::from(count)) as u32;
            (kind, Square::from_level_bit(0, nth_bit(candidates, index)))
        }
    }

    /// Takes back the move `undo` came from, restoring everything: placement, side to
    /// move, counters, key and generator state. `undo` must come from the last
    /// [`Chess3d::play_with_undo`] on this position.
    pub fn undo(&mut self, undo: Undo) {
        let us = undo.turn;
        if let Some(e) = undo.effect {
            self.board.take(
                e.landed_on,
                Piece {
                    side: us,
                    kind: e.landed_kind,
                },
            );
            self.board.put(
                undo.mv.from(),
                Piece {
                    side: us,
                    kind: e.moved,
                },
            );
            if let Some(kind) = e.captured {
                self.board.put(undo.mv.to(), Piece { side: !us, kind });
            }
        }
        self.turn = us;
        self.quiet_plies = undo.quiet_plies;
        self.move_number = undo.move_number;
        self.rng = SplitMix64::new(undo.rng);
        self.key = undo.key;
    }
}

impl Position for Chess3d {
    type Move = Move;
    type MoveList = MoveList;

    #[inline]
    fn turn(&self) -> Side {
        self.turn
    }

    #[inline]
    fn legal_moves_into(&self, moves: &mut MoveList) {
        self.generate(moves);
    }

    #[inline]
    fn count_legal_moves(&self) -> u64 {
        self.count()
    }

    fn is_legal(&self, m: Move) -> bool {
        self.is_legal_move(m)
    }

    #[inline]
    fn play_unchecked(&mut self, m: Move) {
        self.play_with_undo(m);
    }

    fn outcome(&self) -> Option<Outcome> {
        Chess3d::outcome(self)
    }

    /// [`Chess3d::key`] with the generator state mixed in (see the type's docs).
    fn zobrist(&self) -> u64 {
        self.key ^ zobrist::rng(self.rng.state())
    }
}
