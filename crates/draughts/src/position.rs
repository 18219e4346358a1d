//! The position: placement, side to move and Zobrist key, always valid.

use core::fmt;

use tablero_core::{Outcome, Position, Reason, Side};

use crate::geometry::Layout;
use crate::movegen::{self, with_variant};
use crate::{Move, MoveList, Piece, Role, RuleSet, Setup, SquareSet, zobrist};

/// Why a [`Setup`] is not a legal position of a rule set.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// A square number the board does not have.
    #[error("square {square} does not exist in {rule_set} draughts (squares 1-{last})")]
    NoSuchSquare {
        /// The number given.
        square: u8,
        /// The rule set.
        rule_set: RuleSet,
        /// The board's last square.
        last: u8,
    },
    /// A square holds two pieces.
    #[error("square {0} is given two pieces")]
    SquareTwice(u8),
    /// A man stands on the row where it would have been crowned.
    #[error("{side} man on square {square}, its crowning row (it would be a king)")]
    ManOnCrowningRow {
        /// Whose man.
        side: Side,
        /// Where.
        square: u8,
    },
    /// More pieces than a side has at the start.
    #[error("{side} has {count} pieces (at most {max} in {rule_set} draughts)")]
    TooManyPieces {
        /// The side.
        side: Side,
        /// How many it has.
        count: usize,
        /// The most it can have.
        max: u8,
        /// The rule set.
        rule_set: RuleSet,
    },
}

/// A legal draughts position of one rule set: the pieces, the side to move and the
/// Zobrist key. 40 bytes; search and perft copy it (copy-make).
///
/// Built only by [`Draughts::new`] and [`Draughts::from_setup`] (and FEN parsing), so
/// every value is a position of its rule set.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Draughts {
    /// Each side's pieces in the board's bit layout, by [`Side::index`].
    sides: [u64; 2],
    /// Both sides' kings.
    kings: u64,
    key: u64,
    turn: Side,
    rule_set: RuleSet,
}

impl Draughts {
    /// The start position of `rule_set`.
    #[must_use]
    pub fn new(rule_set: RuleSet) -> Draughts {
        let layout = rule_set.rules().layout();
        let rows = u64::from(rule_set.rules().board.width() / 2 - 1);
        let half = u64::from(rule_set.rules().board.row_squares());
        let squares = u64::from(layout.squares);
        let mut setup = Setup::empty(rule_set.rules().first_to_move);
        setup.men[Side::Black.index()] = SquareSet::range(1, (rows * half) as u8);
        setup.men[Side::White.index()] =
            SquareSet::range((squares - rows * half + 1) as u8, squares as u8);
        Draughts::from_setup(&setup, rule_set).expect("the start position is legal")
    }

    /// Checks `setup` against the rules of `rule_set` and builds the position.
    ///
    /// # Errors
    ///
    /// [`PositionError`] naming the first problem: a square the board does not have, a
    /// square given twice, a man on its crowning row, more pieces than a side starts
    /// with.
    pub fn from_setup(setup: &Setup, rule_set: RuleSet) -> Result<Draughts, PositionError> {
        let rules = rule_set.rules();
        let layout = rules.layout();
        let sets = [
            (Side::White, Role::Man),
            (Side::White, Role::King),
            (Side::Black, Role::Man),
            (Side::Black, Role::King),
        ];
        let mut pos = Draughts {
            sides: [0; 2],
            kings: 0,
            key: 0,
            turn: setup.turn,
            rule_set,
        };
        let mut seen = SquareSet::EMPTY;
        for (side, role) in sets {
            let set = match role {
                Role::Man => setup.men[side.index()],
                Role::King => setup.kings[side.index()],
            };
            for n in set.iter() {
                if n == 0 || n > layout.squares {
                    return Err(PositionError::NoSuchSquare {
                        square: n,
                        rule_set,
                        last: layout.squares,
                    });
                }
                if !seen.insert(n) {
                    return Err(PositionError::SquareTwice(n));
                }
                let bit = 1u64 << layout.bit_of[usize::from(n)];
                if role == Role::Man && bit & layout.crown[side.index()] != 0 {
                    return Err(PositionError::ManOnCrowningRow { side, square: n });
                }
                pos.sides[side.index()] |= bit;
                if role == Role::King {
                    pos.kings |= bit;
                }
            }
        }
        for side in Side::ALL {
            let count = pos.sides[side.index()].count_ones() as usize;
            let max = rules.board.pieces_per_side();
            if count > usize::from(max) {
                return Err(PositionError::TooManyPieces {
                    side,
                    count,
                    max,
                    rule_set,
                });
            }
        }
        pos.key = pos.compute_key();
        Ok(pos)
    }

    /// The placement and side to move as a [`Setup`].
    #[must_use]
    pub fn to_setup(&self) -> Setup {
        let mut setup = Setup::empty(self.turn);
        for side in Side::ALL {
            setup.men[side.index()] = self.squares(self.sides[side.index()] & !self.kings);
            setup.kings[side.index()] = self.squares(self.sides[side.index()] & self.kings);
        }
        setup
    }

    fn squares(&self, mut bits: u64) -> SquareSet {
        let layout = self.layout();
        let mut set = SquareSet::EMPTY;
        while bits != 0 {
            set.insert(layout.number_of[bits.trailing_zeros() as usize]);
            bits &= bits - 1;
        }
        set
    }

    pub(crate) fn layout(&self) -> &'static Layout {
        self.rule_set.rules().layout()
    }

    /// The rule set.
    #[must_use]
    pub const fn rule_set(&self) -> RuleSet {
        self.rule_set
    }

    /// The side to move.
    #[must_use]
    pub const fn turn(&self) -> Side {
        self.turn
    }

    /// The Zobrist key (see [`Position::zobrist`]).
    #[must_use]
    pub const fn key(&self) -> u64 {
        self.key
    }

    /// The piece on square `n`, if any (and `None` for numbers off the board).
    #[must_use]
    pub fn piece_at(&self, n: u8) -> Option<Piece> {
        let layout = self.layout();
        if n == 0 || n > layout.squares {
            return None;
        }
        let bit = 1u64 << layout.bit_of[usize::from(n)];
        let side = Side::ALL
            .into_iter()
            .find(|s| self.sides[s.index()] & bit != 0)?;
        let role = if self.kings & bit != 0 {
            Role::King
        } else {
            Role::Man
        };
        Some(Piece { side, role })
    }

    /// `side`'s men.
    #[must_use]
    pub fn men(&self, side: Side) -> SquareSet {
        self.squares(self.sides[side.index()] & !self.kings)
    }

    /// `side`'s kings.
    #[must_use]
    pub fn kings(&self, side: Side) -> SquareSet {
        self.squares(self.sides[side.index()] & self.kings)
    }

    /// Calls `visit(piece, square, added)` for every piece that stands in `other` but
    /// not here (`added`), or here but not in `other`: what a move changed, found by
    /// comparing bitboards rather than listing every piece, as an incremental
    /// evaluation needs at every node. Positions on different boards (International's
    /// 10×10 and the 8×8 of the other rule sets) share no squares: all of this one's
    /// pieces are removed and all of `other`'s added.
    ///
    /// ```
    /// use tablero_core::Position;
    /// use tablero_draughts::{Draughts, Role, RuleSet};
    ///
    /// let start = Draughts::new(RuleSet::International);
    /// let after = start.clone().play(start.parse_move("32-28").unwrap()).unwrap();
    /// let mut changes = Vec::new();
    /// start.piece_changes(&after, |piece, square, added| {
    ///     assert_eq!(piece.role, Role::Man);
    ///     changes.push((square, added));
    /// });
    /// assert_eq!(changes, [(32, false), (28, true)]);
    /// ```
    pub fn piece_changes(&self, other: &Draughts, mut visit: impl FnMut(Piece, u8, bool)) {
        let same_board = std::ptr::eq(self.layout(), other.layout());
        for side in Side::ALL {
            for role in [Role::Man, Role::King] {
                let piece = Piece { side, role };
                let (old, new) = (self.bits_of(piece), other.bits_of(piece));
                let (removed, added) = if same_board {
                    (old & !new, new & !old)
                } else {
                    (old, new)
                };
                for (pos, mut bits, is_added) in [(self, removed, false), (other, added, true)] {
                    let layout = pos.layout();
                    while bits != 0 {
                        visit(
                            piece,
                            layout.number_of[bits.trailing_zeros() as usize],
                            is_added,
                        );
                        bits &= bits - 1;
                    }
                }
            }
        }
    }

    /// `piece`'s squares in the board's bit layout.
    const fn bits_of(&self, piece: Piece) -> u64 {
        let own = self.sides[piece.side.index()];
        match piece.role {
            Role::Man => own & !self.kings,
            Role::King => own & self.kings,
        }
    }

    /// How many men and kings `side` has.
    #[must_use]
    pub fn piece_counts(&self, side: Side) -> (u32, u32) {
        let pieces = self.sides[side.index()];
        (
            (pieces & !self.kings).count_ones(),
            (pieces & self.kings).count_ones(),
        )
    }

    pub(crate) const fn side_bits(&self, side: Side) -> u64 {
        self.sides[side.index()]
    }

    pub(crate) const fn king_bits(&self) -> u64 {
        self.kings
    }

    /// Whether the side to move can capture, and so must: every legal move is then a
    /// capture. Much cheaper than generating the moves (search asks at every node).
    #[must_use]
    pub fn has_capture(&self) -> bool {
        with_variant!(self.rule_set, V => movegen::has_capture::<V>(self))
    }

    /// The legal moves.
    #[must_use]
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.legal_moves_into(&mut list);
        list
    }

    /// The Zobrist key computed from scratch (equal to [`Draughts::key`]; for tests).
    #[must_use]
    pub fn compute_key(&self) -> u64 {
        let mut key = if self.turn == Side::Black {
            zobrist::BLACK_TO_MOVE
        } else {
            0
        };
        for side in Side::ALL {
            let mut bits = self.sides[side.index()];
            while bits != 0 {
                let b = bits.trailing_zeros();
                bits &= bits - 1;
                key ^= zobrist::piece(side.index(), self.kings & (1 << b) != 0, b);
            }
        }
        key
    }

    /// Whether the move `m` moves a man (the draw counters restart then).
    #[must_use]
    pub fn moves_man(&self, m: Move) -> bool {
        self.kings & (1u64 << (m.origin_bit() & 63)) == 0
    }
}

impl Position for Draughts {
    type Move = Move;
    type MoveList = MoveList;

    fn turn(&self) -> Side {
        self.turn
    }

    fn legal_moves_into(&self, moves: &mut MoveList) {
        with_variant!(self.rule_set, V => movegen::generate::<V>(self, moves));
    }

    fn count_legal_moves(&self) -> u64 {
        with_variant!(self.rule_set, V => movegen::count::<V>(self))
    }

    fn play_unchecked(&mut self, m: Move) {
        let us = self.turn.index();
        let them = us ^ 1;
        let origin_bit = m.origin_bit() & 63;
        let target_bit = m.target_bit() & 63;
        let from = 1u64 << origin_bit;
        let to = 1u64 << target_bit;
        let was_king = self.kings & from != 0;
        let is_king = was_king || m.crowns();
        let mut key = self.key
            ^ zobrist::BLACK_TO_MOVE
            ^ zobrist::piece(us, was_king, origin_bit)
            ^ zobrist::piece(us, is_king, target_bit);
        let captured = m.captured_bits() & self.sides[them];
        if captured != 0 {
            let mut men = captured & !self.kings;
            while men != 0 {
                key ^= zobrist::piece(them, false, men.trailing_zeros());
                men &= men - 1;
            }
            let mut kings = captured & self.kings;
            while kings != 0 {
                key ^= zobrist::piece(them, true, kings.trailing_zeros());
                kings &= kings - 1;
            }
            self.sides[them] &= !captured;
        }
        self.key = key;
        self.sides[us] = (self.sides[us] & !from) | to;
        self.kings &= !(from | captured);
        if is_king {
            self.kings |= to;
        }
        self.turn = !self.turn;
    }

    /// A side to move without a legal move (no pieces, or all blocked) has lost.
    fn outcome(&self) -> Option<Outcome> {
        (self.count_legal_moves() == 0).then_some(Outcome::Win {
            winner: !self.turn,
            reason: Reason::NoLegalMove,
        })
    }

    fn zobrist(&self) -> u64 {
        self.key
    }
}

impl fmt::Debug for Draughts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Draughts({} {})", self.rule_set, self.fen())
    }
}

impl fmt::Display for Draughts {
    /// A board diagram as White sees it: `w`/`b` men, `W`/`B` kings, `.` empty dark
    /// squares, spaces for light squares; then the side to move.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let layout = self.layout();
        let width = self.rule_set.rules().board.width();
        let mut rows = vec![vec![' '; usize::from(width)]; usize::from(width)];
        for n in 1..=layout.squares {
            let bit = layout.bit_of[usize::from(n)];
            let (column, row) = layout.coords[usize::from(bit)];
            let c = match self.piece_at(n) {
                Some(p) => p.to_string().chars().next().unwrap_or('?'),
                None => '.',
            };
            rows[usize::from(row)][usize::from(column)] = c;
        }
        for row in rows {
            let line: String = row.iter().flat_map(|&c| [c, ' ']).collect();
            writeln!(f, "{}", line.trim_end())?;
        }
        write!(f, "{} to move", self.turn)
    }
}
