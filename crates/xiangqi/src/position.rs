//! The position: placement, side to move, counters and key.

use core::fmt;
use core::hash::{Hash, Hasher};

use tablero_core::{Outcome, Reason, Side};

use crate::attacks;
use crate::mailbox::{Mailbox, cell_of, slot_range, square_of, tag};
use crate::movegen::Counter;
use crate::{Bitboard, Move, MoveList, Piece, Role, Setup, Square, zobrist};

/// Why a [`Setup`] is not a legal xiangqi position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// A side has no general.
    #[error("{} has no general", side_name(*.0))]
    MissingGeneral(Side),
    /// A side has more pieces of a kind than the game has.
    #[error("{} has {count} {}s (at most {} allowed)", side_name(*.side), .role.name(), .role.max_count())]
    TooManyPieces {
        /// Whose pieces.
        side: Side,
        /// Which kind.
        role: Role,
        /// How many there are.
        count: u32,
    },
    /// A piece stands on a point it can never reach.
    #[error("{} {} on {square}: {reason}", side_name(*.side), .role.name())]
    UnreachablePoint {
        /// Whose piece.
        side: Side,
        /// Which kind.
        role: Role,
        /// Where it stands.
        square: Square,
        /// Why the point is impossible.
        reason: &'static str,
    },
    /// The side that just moved left its general attacked (or the generals face each
    /// other on an open file).
    #[error("{}'s general is attacked but it is not {}'s turn", side_name(*.0), side_name(*.0))]
    OppositeCheck(Side),
}

/// `red` or `black`.
#[must_use]
pub const fn side_name(side: Side) -> &'static str {
    match side {
        Side::White => "red",
        Side::Black => "black",
    }
}

/// A legal xiangqi position: placement, side to move, move counters and its Zobrist key.
///
/// Built only through [`Xiangqi::from_setup`] (or [`Xiangqi::new`], FEN parsing), so
/// every value is a position that can occur in a game.
#[derive(Clone)]
pub struct Xiangqi {
    // The placement is held twice, both updated by every move: `board` (one
    // `Option<Piece>` per point, what `board()` lends out; Zobrist keys, notation)
    // and the mailbox that move generation and check tests work on. Equality and
    // hashing look at `board` only: the mailbox's slot numbering depends on the
    // move order.
    pub(crate) board: [Option<Piece>; 90],
    mailbox: Mailbox,
    pub(crate) turn: Side,
    pub(crate) halfmoves: u32,
    pub(crate) fullmoves: u32,
    pub(crate) key: u64,
}

impl PartialEq for Xiangqi {
    fn eq(&self, other: &Xiangqi) -> bool {
        self.board == other.board
            && self.turn == other.turn
            && self.halfmoves == other.halfmoves
            && self.fullmoves == other.fullmoves
            && self.key == other.key
    }
}

impl Eq for Xiangqi {}

impl Hash for Xiangqi {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.board.hash(state);
        self.turn.hash(state);
        self.halfmoves.hash(state);
        self.fullmoves.hash(state);
        self.key.hash(state);
    }
}

impl fmt::Debug for Xiangqi {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Xiangqi")
            .field("fen", &self.fen())
            .field("key", &format_args!("{:#018x}", self.key))
            .finish()
    }
}

impl Default for Xiangqi {
    fn default() -> Xiangqi {
        Xiangqi::new()
    }
}

const ADVISOR_POINTS: [(u32, u32); 5] = [(3, 0), (5, 0), (4, 1), (3, 2), (5, 2)];
const ELEPHANT_POINTS: [(u32, u32); 7] = [(2, 0), (6, 0), (0, 2), (4, 2), (8, 2), (2, 4), (6, 4)];

/// `(file, rank)` as seen from `side`'s back rank.
const fn relative_coords(side: Side, sq: Square) -> (u32, u32) {
    match side {
        Side::White => (sq.file(), sq.rank()),
        Side::Black => (sq.file(), 9 - sq.rank()),
    }
}

impl Xiangqi {
    /// The starting position.
    #[must_use]
    pub fn new() -> Xiangqi {
        Xiangqi::from_setup(Setup::start()).expect("the starting position is legal")
    }

    /// Checks `setup` against the rules and builds the position.
    ///
    /// Required: one general per side inside its palace; advisors on the five palace
    /// points and elephants on their seven points of their own half; no soldier
    /// behind its starting rank; no more pieces of a kind than a side starts with; and
    /// the side that just moved must not have left its general attacked (which
    /// includes generals facing each other on an open file).
    ///
    /// # Errors
    ///
    /// [`PositionError`] naming the broken rule.
    pub fn from_setup(setup: Setup) -> Result<Xiangqi, PositionError> {
        let mut counts = [[0u32; 7]; 2];
        for sq in Square::all() {
            let Some(piece) = setup.board[sq.index()] else {
                continue;
            };
            let Piece { side, role } = piece;
            counts[side.index()][role.index()] += 1;
            let (file, rank) = relative_coords(side, sq);
            let unreachable = |reason| PositionError::UnreachablePoint {
                side,
                role,
                square: sq,
                reason,
            };
            match role {
                Role::General if !attacks::in_palace_of(side, sq) => {
                    return Err(unreachable("the general never leaves its palace"));
                }
                Role::Advisor if !ADVISOR_POINTS.contains(&(file, rank)) => {
                    return Err(unreachable(
                        "advisors stand only on the palace's five points",
                    ));
                }
                Role::Elephant if !ELEPHANT_POINTS.contains(&(file, rank)) => {
                    return Err(unreachable(
                        "elephants stand only on their seven points of their own half",
                    ));
                }
                Role::Soldier if rank < 3 => {
                    return Err(unreachable(
                        "soldiers never move backwards from their starting rank",
                    ));
                }
                _ => {}
            }
        }
        for side in Side::ALL {
            for role in Role::ALL {
                let count = counts[side.index()][role.index()];
                if role == Role::General && count == 0 {
                    return Err(PositionError::MissingGeneral(side));
                }
                if count > role.max_count() {
                    return Err(PositionError::TooManyPieces { side, role, count });
                }
            }
        }
        let mut pos = Xiangqi {
            board: setup.board,
            mailbox: Mailbox::new(&setup.board),
            turn: setup.turn,
            halfmoves: setup.halfmoves,
            fullmoves: setup.fullmoves.max(1),
            key: 0,
        };
        pos.key = pos.compute_key();
        let mover = pos.turn.other();
        if pos.mailbox.in_check(mover) {
            return Err(PositionError::OppositeCheck(mover));
        }
        Ok(pos)
    }

    /// The setup this position was built from (as FEN writes it).
    #[must_use]
    pub fn to_setup(&self) -> Setup {
        Setup {
            board: self.board,
            turn: self.turn,
            halfmoves: self.halfmoves,
            fullmoves: self.fullmoves,
        }
    }

    /// The Zobrist key computed from scratch (equals [`Xiangqi::key`]; for tests).
    #[must_use]
    pub fn compute_key(&self) -> u64 {
        Square::all()
            .filter_map(|sq| self.board[sq.index()].map(|p| zobrist::piece(p, sq)))
            .fold(zobrist::turn(self.turn), |k, x| k ^ x)
    }

    /// The Zobrist key of placement and side to move: the repetition identity.
    #[must_use]
    #[inline]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// The side to move (red is `White`).
    #[must_use]
    #[inline]
    pub fn turn(&self) -> Side {
        self.turn
    }

    /// The piece on `sq`.
    #[must_use]
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board[sq.index()]
    }

    /// Every point, indexed by [`Square::index`].
    #[must_use]
    pub fn board(&self) -> &[Option<Piece>; 90] {
        &self.board
    }

    /// The points holding `side`'s pieces (computed from the piece list).
    #[must_use]
    pub fn by_side(&self, side: Side) -> Bitboard {
        self.mailbox.points(side, 0..16)
    }

    /// The points holding `piece` (computed from the piece list).
    #[must_use]
    pub fn by_piece(&self, piece: Piece) -> Bitboard {
        self.mailbox.points(piece.side, slot_range(piece.role))
    }

    /// Every occupied point.
    #[must_use]
    pub fn occupied(&self) -> Bitboard {
        self.mailbox.occupied()
    }

    /// Where `side`'s general stands.
    #[must_use]
    #[inline]
    pub fn general_of(&self, side: Side) -> Square {
        square_of(self.mailbox.square(tag(side)))
    }

    /// Plies since the last capture (the FEN's halfmove field).
    #[must_use]
    pub fn halfmoves(&self) -> u32 {
        self.halfmoves
    }

    /// The move number (incremented after black's move).
    #[must_use]
    pub fn fullmoves(&self) -> u32 {
        self.fullmoves
    }

    /// Whether the side to move's general is attacked.
    #[must_use]
    pub fn is_check(&self) -> bool {
        self.mailbox.in_check(self.turn)
    }

    /// Whether `sq` is attacked by a soldier, horse, chariot or cannon of `by`, or by
    /// its general along an open line (the flying-general rule).
    #[must_use]
    pub fn is_attacked(&self, sq: Square, by: Side) -> bool {
        let occ = self.occupied();
        let role = |r: Role| self.by_piece(Piece::new(by, r));
        (attacks::soldier_attackers(by, sq) & role(Role::Soldier)).any()
            || (attacks::horse_attackers(sq, occ) & role(Role::Horse)).any()
            || (attacks::chariot(sq, occ) & (role(Role::Chariot) | role(Role::General))).any()
            || (attacks::cannon_captures(sq, occ) & role(Role::Cannon)).any()
    }

    /// The pieces of `by` that attack `sq` as the board stands (whatever stands on
    /// `sq`; a cannon attacks over exactly one screen; the general along an open file).
    #[must_use]
    pub fn attackers(&self, sq: Square, by: Side) -> Bitboard {
        let occ = self.occupied();
        let role = |r: Role| self.by_piece(Piece::new(by, r));
        (attacks::chariot(sq, occ) & (role(Role::Chariot) | role(Role::General)))
            | (attacks::cannon_captures(sq, occ) & role(Role::Cannon))
            | (attacks::horse_attackers(sq, occ) & role(Role::Horse))
            | (attacks::soldier_attackers(by, sq) & role(Role::Soldier))
            | (attacks::general(by, sq) & role(Role::General))
            | (attacks::advisor(by, sq) & role(Role::Advisor))
            | (elephant_attackers(by, sq, occ) & role(Role::Elephant))
    }

    /// The pieces of `by` that could capture on `sq` if only the points of `occupied`
    /// were taken: what a static exchange on `sq` needs as pieces leave the board
    /// (lines open, cannons lose or find screens, horse legs and elephant eyes clear).
    /// Pieces off `occupied` count as gone. Unlike [`Xiangqi::attackers`], a general
    /// counts only next to `sq`: the flying-general rule concerns the other general,
    /// which is never exchanged.
    #[must_use]
    pub fn exchange_attackers(&self, sq: Square, by: Side, occupied: Bitboard) -> Bitboard {
        let role = |r: Role| Bitboard(self.by_piece(Piece::new(by, r)).0 & occupied.0);
        attacks::chariot(sq, occupied) & role(Role::Chariot)
            | attacks::cannon_captures(sq, occupied) & role(Role::Cannon)
            | attacks::horse_attackers(sq, occupied) & role(Role::Horse)
            | attacks::soldier_attackers(by, sq) & role(Role::Soldier)
            | attacks::general(by, sq) & role(Role::General)
            | attacks::advisor(by, sq) & role(Role::Advisor)
            | elephant_attackers(by, sq, occupied) & role(Role::Elephant)
    }

    /// The points the piece on `sq` could capture on if an enemy stood there (its
    /// attacks), as the board stands; empty for an empty point. A cannon's attacks are
    /// its capture points over one screen; a general's include the enemy general on an
    /// open file.
    #[must_use]
    pub fn attacks_from(&self, sq: Square) -> Bitboard {
        let Some(piece) = self.board[sq.index()] else {
            return Bitboard::EMPTY;
        };
        let occ = self.occupied();
        let side = piece.side;
        match piece.role {
            Role::General => {
                let enemy = self.general_of(side.other());
                let facing = attacks::chariot(sq, occ) & Bitboard::from_square(enemy);
                attacks::general(side, sq) | facing
            }
            Role::Advisor => attacks::advisor(side, sq),
            Role::Elephant => attacks::elephant(side, sq, occ),
            Role::Horse => attacks::horse(sq, occ),
            Role::Chariot => attacks::chariot(sq, occ),
            Role::Cannon => attacks::cannon_captures(sq, occ),
            Role::Soldier => attacks::soldier(side, sq),
        }
    }

    /// Whether the move from `from` to `to` (a pseudo-legal move of the side to move)
    /// leaves its own general safe.
    pub(crate) fn is_safe(&self, from: Square, to: Square) -> bool {
        self.mailbox.is_safe(self.turn, cell_of(from), cell_of(to))
    }

    /// Whether `m` captures.
    #[must_use]
    pub fn is_capture(&self, m: Move) -> bool {
        self.board[m.to().index()].is_some()
    }

    /// The position after the side to move passes, for a search's null-move pruning;
    /// `None` in check, where passing would leave the general capturable.
    #[must_use]
    pub fn null_move(&self) -> Option<Xiangqi> {
        if self.is_check() {
            return None;
        }
        let mut next = self.clone();
        next.halfmoves = next.halfmoves.saturating_add(1);
        if next.turn == Side::Black {
            next.fullmoves = next.fullmoves.saturating_add(1);
        }
        next.key ^= zobrist::turn(Side::Black);
        next.turn = next.turn.other();
        Some(next)
    }

    /// Plays a legal move (see [`tablero_core::Position::play_unchecked`]).
    pub fn play_unchecked(&mut self, m: Move) {
        let (from, to) = (m.from(), m.to());
        let Some(piece) = self.board[from.index()] else {
            return;
        };
        if let Some(captured) = self.board[to.index()] {
            self.key ^= zobrist::piece(captured, to);
            self.halfmoves = 0;
        } else {
            self.halfmoves = self.halfmoves.saturating_add(1);
        }
        self.board[from.index()] = None;
        self.board[to.index()] = Some(piece);
        self.mailbox.play(cell_of(from), cell_of(to));
        self.key ^= zobrist::piece(piece, from) ^ zobrist::piece(piece, to);
        if self.turn == Side::Black {
            self.fullmoves = self.fullmoves.saturating_add(1);
        }
        self.key ^= zobrist::turn(Side::Black);
        self.turn = self.turn.other();
    }

    /// Every legal move.
    #[must_use]
    pub fn legal_moves(&self) -> MoveList {
        let mut moves = MoveList::new();
        self.mailbox.generate(self.turn, &mut moves);
        moves
    }

    /// The number of legal moves, counted without listing most of them.
    #[must_use]
    pub fn count_legal_moves(&self) -> u64 {
        let mut counter = Counter(0);
        self.mailbox.generate(self.turn, &mut counter);
        counter.0
    }

    /// Whether `m` is a legal move here.
    #[must_use]
    pub fn is_legal(&self, m: Move) -> bool {
        self.pseudo_legal(m) && self.is_safe(m.from(), m.to())
    }

    /// The result this position alone decides: a side with no legal move has lost,
    /// by checkmate when in check and by stalemate otherwise (both lose in xiangqi).
    #[must_use]
    pub fn outcome(&self) -> Option<Outcome> {
        if self.count_legal_moves() > 0 {
            return None;
        }
        let reason = if self.is_check() {
            Reason::Checkmate
        } else {
            Reason::Stalemate
        };
        Some(Outcome::Win {
            winner: self.turn.other(),
            reason,
        })
    }

    /// Whether `m` follows its piece's movement rule (ignoring the general's safety)
    /// for the side to move.
    #[must_use]
    pub fn pseudo_legal(&self, m: Move) -> bool {
        self.board[m.from().index()].is_some_and(|p| {
            p.side == self.turn && self.pseudo_targets(m.from(), p).contains(m.to())
        })
    }

    /// Where the piece on `from` may go by its own movement rule, ignoring the safety
    /// of its general.
    fn pseudo_targets(&self, from: Square, piece: Piece) -> Bitboard {
        let occ = self.occupied();
        let side = piece.side;
        let own = self.by_side(side);
        let targets = match piece.role {
            Role::General => attacks::general(side, from),
            Role::Advisor => attacks::advisor(side, from),
            Role::Elephant => attacks::elephant(side, from, occ),
            Role::Horse => attacks::horse(from, occ),
            Role::Chariot => attacks::chariot(from, occ),
            Role::Cannon => {
                (attacks::chariot(from, occ) & !occ)
                    | (attacks::cannon_captures(from, occ) & self.by_side(side.other()))
            }
            Role::Soldier => attacks::soldier(side, from),
        };
        targets & !own
    }
}

/// The squares from which an elephant of `side` attacks `sq` (the relation is
/// symmetric: the same eye lies between).
fn elephant_attackers(side: Side, sq: Square, occupied: Bitboard) -> Bitboard {
    if attacks::on_own_half_of(side, sq) {
        attacks::elephant(side, sq, occupied)
    } else {
        Bitboard::EMPTY
    }
}

impl tablero_core::Position for Xiangqi {
    type Move = Move;
    type MoveList = MoveList;

    fn turn(&self) -> Side {
        self.turn
    }

    fn legal_moves_into(&self, moves: &mut MoveList) {
        moves.clear();
        self.mailbox.generate(self.turn, moves);
    }

    fn count_legal_moves(&self) -> u64 {
        Xiangqi::count_legal_moves(self)
    }

    fn is_legal(&self, m: Move) -> bool {
        Xiangqi::is_legal(self, m)
    }

    fn play_unchecked(&mut self, m: Move) {
        Xiangqi::play_unchecked(self, m);
    }

    fn outcome(&self) -> Option<Outcome> {
        Xiangqi::outcome(self)
    }

    fn zobrist(&self) -> u64 {
        self.key
    }
}
