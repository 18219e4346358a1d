//! The position: placement, side to move, counters and key.

use tablero_core::{Outcome, Reason, Side};

use crate::attacks::{self, rotated_bit};
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
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Xiangqi {
    pub(crate) board: [Option<Piece>; 90],
    pub(crate) by_role: [Bitboard; 7],
    pub(crate) by_side: [Bitboard; 2],
    /// File-major occupancy (bit `file * 10 + rank`), kept for line attacks.
    pub(crate) rotated: u128,
    pub(crate) generals: [Square; 2],
    pub(crate) turn: Side,
    pub(crate) halfmoves: u32,
    pub(crate) fullmoves: u32,
    pub(crate) key: u64,
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
        let mut pos = Xiangqi {
            board: [None; 90],
            by_role: [Bitboard::EMPTY; 7],
            by_side: [Bitboard::EMPTY; 2],
            rotated: 0,
            generals: [Square::from_index_unchecked(0); 2],
            turn: setup.turn,
            halfmoves: setup.halfmoves,
            fullmoves: setup.fullmoves.max(1),
            key: 0,
        };
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
            pos.put(sq, piece);
            if role == Role::General {
                pos.generals[side.index()] = sq;
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
        pos.key = pos.compute_key();
        let mover = pos.turn.other();
        if pos.is_attacked(pos.generals[mover.index()], pos.turn) {
            return Err(PositionError::OppositeCheck(mover));
        }
        Ok(pos)
    }

    fn put(&mut self, sq: Square, piece: Piece) {
        self.board[sq.index()] = Some(piece);
        self.by_role[piece.role.index()].insert(sq);
        self.by_side[piece.side.index()].insert(sq);
        self.rotated |= 1 << rotated_bit(sq);
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

    /// The points holding `side`'s pieces.
    #[must_use]
    #[inline]
    pub fn by_side(&self, side: Side) -> Bitboard {
        self.by_side[side.index()]
    }

    /// The points holding `piece`.
    #[must_use]
    #[inline]
    pub fn by_piece(&self, piece: Piece) -> Bitboard {
        self.by_role[piece.role.index()] & self.by_side[piece.side.index()]
    }

    /// Every occupied point.
    #[must_use]
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.by_side[0] | self.by_side[1]
    }

    /// Where `side`'s general stands.
    #[must_use]
    #[inline]
    pub fn general_of(&self, side: Side) -> Square {
        self.generals[side.index()]
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
        self.is_attacked(self.generals[self.turn.index()], self.turn.other())
    }

    /// Whether `sq` is attacked by a piece of `by` (a general counts along an open file:
    /// the flying-general rule).
    #[must_use]
    pub fn is_attacked(&self, sq: Square, by: Side) -> bool {
        self.attacked_with(sq, by, self.occupied(), self.rotated, Bitboard::EMPTY)
    }

    /// The pieces of `by` that attack `sq` as the board stands (whatever stands on
    /// `sq`; a cannon attacks over exactly one screen; the general along an open file).
    #[must_use]
    pub fn attackers(&self, sq: Square, by: Side) -> Bitboard {
        let occ = self.occupied();
        let them = self.by_side[by.index()];
        let role = |r: Role| self.by_role[r.index()] & them;
        (attacks::chariot(sq, occ, self.rotated) & (role(Role::Chariot) | role(Role::General)))
            | (attacks::cannon_captures(sq, occ, self.rotated) & role(Role::Cannon))
            | (attacks::horse_attackers(sq, occ) & role(Role::Horse))
            | (attacks::soldier_attackers(by, sq) & role(Role::Soldier))
            | (attacks::general(by, sq) & role(Role::General))
            | (attacks::advisor(by, sq) & role(Role::Advisor))
            | (elephant_attackers(by, sq, occ) & role(Role::Elephant))
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
                let enemy = self.generals[side.other().index()];
                let facing = attacks::chariot(sq, occ, self.rotated) & Bitboard::from_square(enemy);
                attacks::general(side, sq) | facing
            }
            Role::Advisor => attacks::advisor(side, sq),
            Role::Elephant => attacks::elephant(side, sq, occ),
            Role::Horse => attacks::horse(sq, occ),
            Role::Chariot => attacks::chariot(sq, occ, self.rotated),
            Role::Cannon => attacks::cannon_captures(sq, occ, self.rotated),
            Role::Soldier => attacks::soldier(side, sq),
        }
    }

    /// Attack test on a board changed by a move: `occupied`/`rotated` are the new
    /// occupancy and `captured` the point whose enemy piece was just taken.
    #[inline]
    pub(crate) fn attacked_with(
        &self,
        sq: Square,
        by: Side,
        occupied: Bitboard,
        rotated: u128,
        captured: Bitboard,
    ) -> bool {
        let them = self.by_side[by.index()] & !captured;
        let role = |r: Role| self.by_role[r.index()] & them;
        (attacks::soldier_attackers(by, sq) & role(Role::Soldier)).any()
            || (attacks::horse_attackers(sq, occupied) & role(Role::Horse)).any()
            || (attacks::chariot(sq, occupied, rotated)
                & (role(Role::Chariot) | role(Role::General)))
            .any()
            || (attacks::cannon_captures(sq, occupied, rotated) & role(Role::Cannon)).any()
    }

    /// Whether the move from `from` to `to` (a pseudo-legal move of the side to move)
    /// leaves its own general safe.
    #[inline]
    pub(crate) fn is_safe(&self, from: Square, to: Square) -> bool {
        let us = self.turn;
        let to_bb = Bitboard::from_square(to);
        let occupied = (self.occupied() ^ Bitboard::from_square(from)) | to_bb;
        let rotated = (self.rotated ^ (1 << rotated_bit(from))) | (1 << rotated_bit(to));
        let general = self.generals[us.index()];
        let general = if general == from { to } else { general };
        !self.attacked_with(general, us.other(), occupied, rotated, to_bb)
    }

    /// Whether `m` captures.
    #[must_use]
    pub fn is_capture(&self, m: Move) -> bool {
        self.board[m.to().index()].is_some()
    }

    /// Plays a legal move (see [`tablero_core::Position::play_unchecked`]).
    pub fn play_unchecked(&mut self, m: Move) {
        let (from, to) = (m.from(), m.to());
        let Some(piece) = self.board[from.index()] else {
            return;
        };
        let from_bb = Bitboard::from_square(from);
        let to_bb = Bitboard::from_square(to);
        if let Some(captured) = self.board[to.index()] {
            self.by_role[captured.role.index()] ^= to_bb;
            self.by_side[captured.side.index()] ^= to_bb;
            self.key ^= zobrist::piece(captured, to);
            self.halfmoves = 0;
        } else {
            self.rotated |= 1 << rotated_bit(to);
            self.halfmoves = self.halfmoves.saturating_add(1);
        }
        self.rotated &= !(1 << rotated_bit(from));
        self.by_role[piece.role.index()] ^= from_bb | to_bb;
        self.by_side[piece.side.index()] ^= from_bb | to_bb;
        self.board[from.index()] = None;
        self.board[to.index()] = Some(piece);
        self.key ^= zobrist::piece(piece, from) ^ zobrist::piece(piece, to);
        if piece.role == Role::General {
            self.generals[piece.side.index()] = to;
        }
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
        self.generate(&mut moves);
        moves
    }

    /// The number of legal moves, counted without listing most of them.
    #[must_use]
    pub fn count_legal_moves(&self) -> u64 {
        let mut counter = Counter(0);
        self.generate(&mut counter);
        counter.0
    }

    /// Whether `m` is a legal move here.
    #[must_use]
    pub fn is_legal(&self, m: Move) -> bool {
        let Some(piece) = self.board[m.from().index()] else {
            return false;
        };
        piece.side == self.turn
            && self.pseudo_targets(m.from(), piece).contains(m.to())
            && self.is_safe(m.from(), m.to())
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
    #[inline]
    fn pseudo_targets(&self, from: Square, piece: Piece) -> Bitboard {
        let occ = self.occupied();
        let side = piece.side;
        let own = self.by_side[side.index()];
        let targets = match piece.role {
            Role::General => attacks::general(side, from),
            Role::Advisor => attacks::advisor(side, from),
            Role::Elephant => attacks::elephant(side, from, occ),
            Role::Horse => attacks::horse(from, occ),
            Role::Chariot => attacks::chariot(from, occ, self.rotated),
            Role::Cannon => {
                (attacks::chariot(from, occ, self.rotated) & !occ)
                    | (attacks::cannon_captures(from, occ, self.rotated)
                        & self.by_side[side.other().index()])
            }
            Role::Soldier => attacks::soldier(side, from),
        };
        targets & !own
    }

    /// Legal move generation into a list or a counter.
    ///
    /// Legality is tested only where it can fail. Out of check, a move of a piece
    /// other than the general leaves the general safe unless the piece is pinned (see
    /// [`Xiangqi::hazards`]) or lands between the general and an enemy cannon that
    /// has no screen yet. Every other move is counted in bulk.
    fn generate<S: Sink>(&self, sink: &mut S) {
        let us = self.turn;
        let own = self.by_side[us.index()];
        let general = self.generals[us.index()];
        let in_check = self.is_check();

        for to in attacks::general(us, general) & !own {
            if self.is_safe(general, to) {
                sink.push(general, to);
            }
        }
        if in_check {
            let (blocks, screens) = self.evasion_squares();
            for role in &Role::ALL[1..] {
                for from in self.by_role[role.index()] & own {
                    let mut targets = self.pseudo_targets(from, Piece::new(us, *role));
                    if !screens.contains(from) {
                        targets &= blocks;
                    }
                    for to in targets {
                        if self.is_safe(from, to) {
                            sink.push(from, to);
                        }
                    }
                }
            }
            return;
        }
        let (pinned, risky_to) = self.hazards();
        let occ = self.occupied();
        let them = self.by_side[us.other().index()];
        let mine = |role: Role| self.by_role[role.index()] & own;
        // One loop per role so that each computes its targets without a dispatch.
        let mut emit = |from: Square, targets: Bitboard| {
            let targets = targets & !own;
            if pinned.contains(from) {
                for to in targets {
                    if self.is_safe(from, to) {
                        sink.push(from, to);
                    }
                }
            } else {
                sink.push_all(from, targets & !risky_to);
                for to in targets & risky_to {
                    if self.is_safe(from, to) {
                        sink.push(from, to);
                    }
                }
            }
        };
        for from in mine(Role::Chariot) {
            emit(from, attacks::chariot(from, occ, self.rotated));
        }
        for from in mine(Role::Cannon) {
            emit(
                from,
                (attacks::chariot(from, occ, self.rotated) & !occ)
                    | (attacks::cannon_captures(from, occ, self.rotated) & them),
            );
        }
        for from in mine(Role::Horse) {
            emit(from, attacks::horse(from, occ));
        }
        for from in mine(Role::Soldier) {
            emit(from, attacks::soldier(us, from));
        }
        for from in mine(Role::Elephant) {
            emit(from, attacks::elephant(us, from, occ));
        }
        for from in mine(Role::Advisor) {
            emit(from, attacks::advisor(us, from));
        }
    }

    /// For the side to move, in check: the points where a piece other than the
    /// general may land to answer a check (a checker, a point between a line checker
    /// and the general, a checking horse's leg) and the own pieces that may answer by
    /// leaving (a checking cannon's screen). Every legal non-general move is among
    /// these; each is still tested, which also handles double checks.
    fn evasion_squares(&self) -> (Bitboard, Bitboard) {
        let us = self.turn;
        let general = self.generals[us.index()];
        let checkers = self.attackers(general, us.other());
        let mut blocks = checkers;
        let mut screens = Bitboard::EMPTY;
        let occupied = self.occupied();
        for checker in checkers {
            match self.board[checker.index()].map(|p| p.role) {
                Some(Role::Chariot | Role::Cannon | Role::General) => {
                    let pair = Bitboard::from_square(general) | Bitboard::from_square(checker);
                    let rotated = (1 << rotated_bit(general)) | (1 << rotated_bit(checker));
                    let between = attacks::chariot(general, pair, rotated)
                        & attacks::chariot(checker, pair, rotated);
                    blocks |= between;
                    screens |= between & occupied & self.by_side[us.index()];
                }
                Some(Role::Horse) => {
                    for (leg, behind) in attacks::horse_legs_of(general) {
                        if behind.contains(checker) {
                            blocks |= leg;
                        }
                    }
                }
                _ => {}
            }
        }
        (blocks, screens)
    }

    /// For the side to move, not in check: the pieces whose leaving their point may
    /// expose the general (`pinned`, a superset of the own pieces that are truly pinned)
    /// and the empty points where a piece would become a cannon's screen (`risky_to`).
    ///
    /// Along each ray from the general, with p1, p2, p3 the first three pieces: an
    /// enemy chariot or general at p2 pins p1; an enemy cannon at p3 pins p1 and p2
    /// (either leaving leaves one screen, even when p1 is itself an enemy cannon); an
    /// enemy cannon at p1 makes the points between it and the general risky. A piece on a diagonal neighbour of the
    /// general is pinned when an enemy horse stands behind it (it is that horse's leg).
    fn hazards(&self) -> (Bitboard, Bitboard) {
        let us = self.turn;
        let them = self.by_side[us.other().index()];
        let general = self.generals[us.index()];
        let sliders =
            (self.by_role[Role::Chariot.index()] | self.by_role[Role::General.index()]) & them;
        let cannons = self.by_role[Role::Cannon.index()] & them;
        let mut pinned = Bitboard::EMPTY;
        let mut risky_to = Bitboard::EMPTY;

        let line_enemies = sliders | cannons;
        let (file, rank) = (general.file(), general.rank());
        let rank_occ = (self.occupied().0 >> (9 * rank)) as u32 & 0x1FF;
        let file_occ = (self.rotated >> (10 * file)) as u32 & 0x3FF;
        // (line occupancy, the general's place on it, along the rank?, upwards?)
        let rays = [
            (rank_occ, file, true, true),
            (rank_occ, file, true, false),
            (file_occ, rank, false, true),
            (file_occ, rank, false, false),
        ];
        for (occ, at, along_rank, upwards) in rays {
            let square = |x: u32| {
                Square::from_index_unchecked(if along_rank {
                    rank * 9 + x
                } else {
                    x * 9 + file
                })
            };
            let ray = if upwards {
                !((2u32 << at) - 1)
            } else {
                (1u32 << at) - 1
            };
            // Most rays hold no enemy chariot, general or cannon at all.
            let enemies_on_ray = if along_rank {
                line_enemies.0 >> (9 * rank) & u128::from(ray & 0x1FF) != 0
            } else {
                (line_enemies & attacks::file_points(file, ray & 0x3FF)).any()
            };
            if !enemies_on_ray {
                continue;
            }
            let mut rest = occ & ray;
            let mut next = || {
                if rest == 0 {
                    return None;
                }
                let x = if upwards {
                    rest.trailing_zeros()
                } else {
                    31 - rest.leading_zeros()
                };
                rest &= !(1 << x);
                Some((x, square(x)))
            };
            let Some((x1, p1)) = next() else {
                continue;
            };
            if cannons.contains(p1) {
                let (lo, hi) = if upwards { (at + 1, x1) } else { (x1 + 1, at) };
                for x in lo..hi {
                    risky_to.insert(square(x));
                }
            }
            let Some((_, p2)) = next() else {
                continue;
            };
            if sliders.contains(p2) {
                pinned.insert(p1);
                continue;
            }
            if let Some((_, p3)) = next()
                && cannons.contains(p3)
            {
                pinned.insert(p1);
                pinned.insert(p2);
            }
        }

        let horses = self.by_role[Role::Horse.index()] & them;
        let occupied = self.occupied();
        for (leg, behind) in attacks::horse_legs_of(general) {
            if (occupied & leg).any() && (horses & behind).any() {
                pinned |= leg;
            }
        }
        (pinned, risky_to)
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

trait Sink {
    fn push(&mut self, from: Square, to: Square);
    fn push_all(&mut self, from: Square, targets: Bitboard);
}

impl Sink for MoveList {
    #[inline]
    fn push(&mut self, from: Square, to: Square) {
        // Validated piece counts bound the moves (at most 119) below the capacity.
        let _ = self.try_push(Move::new(from, to));
    }
    #[inline]
    fn push_all(&mut self, from: Square, targets: Bitboard) {
        for to in targets {
            Sink::push(self, from, to);
        }
    }
}

struct Counter(u64);

impl Sink for Counter {
    #[inline]
    fn push(&mut self, _: Square, _: Square) {
        self.0 += 1;
    }
    #[inline]
    fn push_all(&mut self, _: Square, targets: Bitboard) {
        self.0 += u64::from(targets.count());
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
        self.generate(moves);
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
