//! Fully legal move generation.
//!
//! No pseudo-legal moves are generated and then tested: checkers and pinned pieces are
//! found first, and each piece's destinations are masked by what blocks the check and
//! by its pin line. King moves are tested against the attacks of the opponent with the
//! king lifted off the board (so it cannot step back along a checking ray). En passant
//! is simulated on the occupancy, which catches the capture that exposes the king along
//! the rank. Generation writes to a [`MoveSink`], which either stores moves or only
//! counts them (perft's last ply counts whole target sets with a popcount).

use tablero_core::Side;

use crate::attacks::{
    between, bishop_attacks, king_attacks, knight_attacks, line, pawn_attacks, rook_attacks,
};
use crate::{Bitboard, Chess, File, Move, MoveList, Rank, Role, Square};

/// Receives generated moves.
pub(crate) trait MoveSink {
    fn push(&mut self, m: Move);
    /// Normal moves from `from` to every square of `targets`.
    fn push_targets(&mut self, from: Square, targets: Bitboard);
    /// Pawn moves to every square of `targets`, each from `to - delta`.
    fn push_pawn_set(&mut self, targets: Bitboard, delta: i32);
    /// Four promotions to every square of `targets`, each from `to - delta`.
    fn push_promotion_set(&mut self, targets: Bitboard, delta: i32);
}

impl MoveSink for MoveList {
    #[inline]
    fn push(&mut self, m: Move) {
        // Capacity 256 exceeds the 218 legal moves any position can have.
        let _ = self.try_push(m);
    }
    #[inline]
    fn push_targets(&mut self, from: Square, targets: Bitboard) {
        for to in targets {
            self.push(Move::normal(from, to));
        }
    }
    #[inline]
    fn push_pawn_set(&mut self, targets: Bitboard, delta: i32) {
        for to in targets {
            self.push(Move::normal(
                Square::from_index((to.index() as i32 - delta) as u32),
                to,
            ));
        }
    }
    #[inline]
    fn push_promotion_set(&mut self, targets: Bitboard, delta: i32) {
        for to in targets {
            let from = Square::from_index((to.index() as i32 - delta) as u32);
            for role in Role::PROMOTIONS {
                self.push(Move::promotion(from, to, role));
            }
        }
    }
}

/// Counts moves without listing them.
#[derive(Debug, Default)]
pub(crate) struct MoveCounter(pub(crate) u64);

impl MoveSink for MoveCounter {
    #[inline]
    fn push(&mut self, _: Move) {
        self.0 += 1;
    }
    #[inline]
    fn push_targets(&mut self, _: Square, targets: Bitboard) {
        self.0 += u64::from(targets.count());
    }
    #[inline]
    fn push_pawn_set(&mut self, targets: Bitboard, _: i32) {
        self.0 += u64::from(targets.count());
    }
    #[inline]
    fn push_promotion_set(&mut self, targets: Bitboard, _: i32) {
        self.0 += 4 * u64::from(targets.count());
    }
}

const NOT_FILE_A: Bitboard = Bitboard(!0x0101_0101_0101_0101);
const NOT_FILE_H: Bitboard = Bitboard(!0x8080_8080_8080_8080);

impl Chess {
    /// The opponent's pieces that give check.
    #[must_use]
    #[inline]
    pub fn checkers(&self) -> Bitboard {
        let board = self.board();
        board.attackers(self.our_king(), !self.turn(), board.occupied())
    }

    /// Our pieces pinned to our king, and the opponent's sliders that could give check
    /// through exactly one piece.
    #[inline]
    pub(crate) fn pinned(&self, king: Square) -> Bitboard {
        let board = self.board();
        let them = board.by_side(!self.turn());
        let snipers = ((rook_attacks(king, them) & board.rooks_and_queens())
            | (bishop_attacks(king, them) & board.bishops_and_queens()))
            & them;
        let ours = board.by_side(self.turn());
        let mut pinned = Bitboard::EMPTY;
        for sniper in snipers {
            let blockers = between(king, sniper) & board.occupied();
            if !blockers.more_than_one() {
                pinned |= blockers & ours;
            }
        }
        pinned
    }

    /// Generates every legal move, or with `NOISY` only captures and promotions.
    pub(crate) fn generate<S: MoveSink, const NOISY: bool>(&self, sink: &mut S) {
        let board = self.board();
        let us = self.turn();
        let them = !us;
        let ours = board.by_side(us);
        let theirs = board.by_side(them);
        let occupied = board.occupied();
        let king = self.our_king();
        let checkers = board.attackers(king, them, occupied);

        let without_king = occupied.without(king);
        let mut king_targets = king_attacks(king) & if NOISY { theirs } else { !ours };
        while let Some(to) = king_targets.first() {
            king_targets = king_targets.without(to);
            if !board.is_attacked(to, them, without_king) {
                sink.push(Move::normal(king, to));
            }
        }
        if checkers.more_than_one() {
            return;
        }
        let target = match checkers.first() {
            Some(checker) => between(king, checker).with(checker),
            None => !ours,
        };
        // Only captures, and pawn pushes onto the last rank (promotions).
        let (piece_target, push_target) = if NOISY {
            (
                target & theirs,
                target & (Bitboard::rank(Rank::FIRST) | Bitboard::rank(Rank::EIGHTH)),
            )
        } else {
            (target, target)
        };
        let pinned = self.pinned(king);

        for from in board.by_role(Role::Knight) & ours & !pinned {
            sink.push_targets(from, knight_attacks(from) & piece_target);
        }
        for from in board.bishops_and_queens() & ours {
            let mut targets = bishop_attacks(from, occupied) & piece_target;
            if pinned.contains(from) {
                targets &= line(king, from);
            }
            sink.push_targets(from, targets);
        }
        for from in board.rooks_and_queens() & ours {
            let mut targets = rook_attacks(from, occupied) & piece_target;
            if pinned.contains(from) {
                targets &= line(king, from);
            }
            sink.push_targets(from, targets);
        }

        self.generate_pawn_moves(sink, king, piece_target, push_target, pinned, theirs);

        if let Some(ep) = self.ep_square() {
            self.generate_en_passant(sink, ep, king, target);
        }
        if !NOISY && checkers.is_empty() {
            self.generate_castling(sink, king);
        }
    }

    #[inline]
    fn generate_pawn_moves<S: MoveSink>(
        &self,
        sink: &mut S,
        king: Square,
        capture_target: Bitboard,
        push_target: Bitboard,
        pinned: Bitboard,
        theirs: Bitboard,
    ) {
        let board = self.board();
        let us = self.turn();
        let pawns = board.by_role(Role::Pawn) & board.by_side(us);
        let empty = !board.occupied();
        let (up, left_capture, right_capture, double_rank, last_rank) = match us {
            Side::White => (
                8,
                7,
                9,
                Bitboard::rank(Rank::THIRD),
                Bitboard::rank(Rank::EIGHTH),
            ),
            Side::Black => (
                -8,
                -9,
                -7,
                Bitboard::rank(Rank::SIXTH),
                Bitboard::rank(Rank::FIRST),
            ),
        };

        let free = pawns & !pinned;
        let single = free.shift(up) & empty;
        let double = (single & double_rank).shift(up) & empty & push_target;
        let single = single & push_target;
        sink.push_pawn_set(single & !last_rank, up);
        sink.push_promotion_set(single & last_rank, up);
        sink.push_pawn_set(double, 2 * up);
        for (delta, from_mask) in [(left_capture, NOT_FILE_A), (right_capture, NOT_FILE_H)] {
            let captures = (free & from_mask).shift(delta) & theirs & capture_target;
            sink.push_pawn_set(captures & !last_rank, delta);
            sink.push_promotion_set(captures & last_rank, delta);
        }

        for from in pawns & pinned {
            let mut pushes = Bitboard::EMPTY;
            if let Some(one) = from.offset(up)
                && empty.contains(one)
            {
                pushes = pushes.with(one);
                if double_rank.contains(one)
                    && let Some(two) = one.offset(up)
                    && empty.contains(two)
                {
                    pushes = pushes.with(two);
                }
            }
            let targets =
                (pawn_attacks(us, from) & theirs & capture_target) | (pushes & push_target);
            for to in targets & line(king, from) {
                if last_rank.contains(to) {
                    for role in Role::PROMOTIONS {
                        sink.push(Move::promotion(from, to, role));
                    }
                } else {
                    sink.push(Move::normal(from, to));
                }
            }
        }
    }

    fn generate_en_passant<S: MoveSink>(
        &self,
        sink: &mut S,
        ep: Square,
        king: Square,
        target: Bitboard,
    ) {
        let board = self.board();
        let us = self.turn();
        let captured = Square::from_coords(ep.file(), self.ep_pawn_rank());
        if (target & (Bitboard::from_square(ep) | Bitboard::from_square(captured))).is_empty() {
            return;
        }
        for from in pawn_attacks(!us, ep) & board.by_role(Role::Pawn) & board.by_side(us) {
            if self.en_passant_is_safe(from, ep, captured, king) {
                sink.push(Move::en_passant(from, ep));
            }
        }
    }

    /// Whether capturing en passant from `from` leaves our king unattacked.
    #[inline]
    pub(crate) fn en_passant_is_safe(
        &self,
        from: Square,
        ep: Square,
        captured: Square,
        king: Square,
    ) -> bool {
        let board = self.board();
        let occupied = board.occupied().without(from).without(captured).with(ep);
        (board.attackers(king, !self.turn(), occupied) & !Bitboard::from_square(captured))
            .is_empty()
    }

    #[inline]
    fn generate_castling<S: MoveSink>(&self, sink: &mut S, king: Square) {
        let us = self.turn();
        let back = match us {
            Side::White => Rank::FIRST,
            Side::Black => Rank::EIGHTH,
        };
        let rooks = self.castling_rooks() & Bitboard::rank(back);
        for rook in rooks {
            // Everything between king and rook must be vacated: the cheapest
            // refutation, and the usual one (pieces still at home).
            if (between(king, rook) & self.board().occupied()).any() {
                continue;
            }
            if let Some(m) = self.castling_move(king, rook, back) {
                sink.push(m);
            }
        }
    }

    /// The castling move with `rook`, if castling is legal now (rights are checked by
    /// the caller).
    fn castling_move(&self, king: Square, rook: Square, back: Rank) -> Option<Move> {
        let board = self.board();
        let short = rook.file() > king.file();
        let king_to = Square::from_coords(if short { File::G } else { File::C }, back);
        let rook_to = Square::from_coords(if short { File::F } else { File::D }, back);
        let movers = Bitboard::from_square(king) | Bitboard::from_square(rook);
        let must_be_empty = (between(king, king_to) | between(rook, rook_to))
            .with(king_to)
            .with(rook_to)
            & !movers;
        if (board.occupied() & must_be_empty).any() {
            return None;
        }
        let them = !self.turn();
        let without_king = board.occupied().without(king);
        for sq in between(king, king_to).with(king) {
            if board.is_attacked(sq, them, without_king) {
                return None;
            }
        }
        let after = (board.occupied() & !movers).with(king_to).with(rook_to);
        if board.is_attacked(king_to, them, after) {
            return None;
        }
        Some(Move::castle(king, rook))
    }

    /// Appends every legal move to `moves` (which is cleared first).
    pub(crate) fn fill_legal_moves(&self, moves: &mut MoveList) {
        moves.clear();
        self.generate::<_, false>(moves);
    }

    /// Appends every legal capture (en passant included) and promotion to `moves`
    /// (which is cleared first): the moves a quiescence search looks at, found without
    /// generating the quiet ones.
    pub fn noisy_moves_into(&self, moves: &mut MoveList) {
        moves.clear();
        self.generate::<_, true>(moves);
    }

    /// The number of legal moves, without listing them.
    #[must_use]
    pub fn count_moves(&self) -> u64 {
        let mut counter = MoveCounter::default();
        self.generate::<_, false>(&mut counter);
        counter.0
    }
}
