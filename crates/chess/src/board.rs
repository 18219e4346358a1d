use core::fmt;

use tablero_core::Side;

use crate::attacks::{bishop_attacks, king_attacks, knight_attacks, pawn_attacks, rook_attacks};
use crate::{Bitboard, Piece, Role, Square};

/// Piece placement: which piece stands on each square. Any placement is allowed here;
/// rules checks happen when a [`crate::Chess`] position is built.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Board {
    by_role: [Bitboard; 6],
    by_side: [Bitboard; 2],
    occupied: Bitboard,
    roles: [Option<Role>; 64],
}

impl Default for Board {
    fn default() -> Board {
        Board::empty()
    }
}

impl Board {
    /// A board without pieces.
    #[must_use]
    pub const fn empty() -> Board {
        Board {
            by_role: [Bitboard::EMPTY; 6],
            by_side: [Bitboard::EMPTY; 2],
            occupied: Bitboard::EMPTY,
            roles: [None; 64],
        }
    }

    /// The standard starting placement.
    #[must_use]
    pub fn standard() -> Board {
        Board::from_back_rank([
            Role::Rook,
            Role::Knight,
            Role::Bishop,
            Role::Queen,
            Role::King,
            Role::Bishop,
            Role::Knight,
            Role::Rook,
        ])
    }

    /// A starting placement with `back_rank` (files a to h) for both sides, pawns in
    /// front: the standard start and all 960 Chess960 starts.
    #[must_use]
    pub fn from_back_rank(back_rank: [Role; 8]) -> Board {
        let mut board = Board::empty();
        for (file, role) in back_rank.into_iter().enumerate() {
            let file = file as u32;
            board.put(
                Square::from_index(file),
                Piece {
                    side: Side::White,
                    role,
                },
            );
            board.put(
                Square::from_index(8 + file),
                Piece {
                    side: Side::White,
                    role: Role::Pawn,
                },
            );
            board.put(
                Square::from_index(48 + file),
                Piece {
                    side: Side::Black,
                    role: Role::Pawn,
                },
            );
            board.put(
                Square::from_index(56 + file),
                Piece {
                    side: Side::Black,
                    role,
                },
            );
        }
        board
    }

    /// Every occupied square.
    #[must_use]
    #[inline]
    pub const fn occupied(&self) -> Bitboard {
        self.occupied
    }

    /// The squares of `side`'s pieces.
    #[must_use]
    #[inline]
    pub const fn by_side(&self, side: Side) -> Bitboard {
        self.by_side[side.index()]
    }

    /// The squares of pieces of `role`, both sides.
    #[must_use]
    #[inline]
    pub const fn by_role(&self, role: Role) -> Bitboard {
        self.by_role[role.index()]
    }

    /// The squares of `piece`.
    #[must_use]
    #[inline]
    pub fn by_piece(&self, piece: Piece) -> Bitboard {
        self.by_role(piece.role) & self.by_side(piece.side)
    }

    /// Rooks and queens of both sides.
    #[must_use]
    #[inline]
    pub fn rooks_and_queens(&self) -> Bitboard {
        self.by_role(Role::Rook) | self.by_role(Role::Queen)
    }

    /// Bishops and queens of both sides.
    #[must_use]
    #[inline]
    pub fn bishops_and_queens(&self) -> Bitboard {
        self.by_role(Role::Bishop) | self.by_role(Role::Queen)
    }

    /// The role on `sq`, if any.
    #[must_use]
    #[inline]
    pub const fn role_at(&self, sq: Square) -> Option<Role> {
        self.roles[sq.usize()]
    }

    /// The side owning the piece on `sq`, if any.
    #[must_use]
    #[inline]
    pub const fn side_at(&self, sq: Square) -> Option<Side> {
        if self.by_side[0].contains(sq) {
            Some(Side::White)
        } else if self.by_side[1].contains(sq) {
            Some(Side::Black)
        } else {
            None
        }
    }

    /// The piece on `sq`, if any.
    #[must_use]
    #[inline]
    pub const fn piece_at(&self, sq: Square) -> Option<Piece> {
        match (self.role_at(sq), self.side_at(sq)) {
            (Some(role), Some(side)) => Some(Piece { side, role }),
            _ => None,
        }
    }

    /// The square of `side`'s king (the lowest one if a setup has several).
    #[must_use]
    #[inline]
    pub fn king_of(&self, side: Side) -> Option<Square> {
        (self.by_role(Role::King) & self.by_side(side)).first()
    }

    /// Puts `piece` on `sq`, replacing whatever stood there.
    pub fn set(&mut self, sq: Square, piece: Piece) {
        self.discard(sq);
        self.put(sq, piece);
    }

    /// Removes and returns the piece on `sq`, if any.
    pub fn discard(&mut self, sq: Square) -> Option<Piece> {
        let piece = self.piece_at(sq)?;
        self.remove(sq, piece);
        Some(piece)
    }

    /// Puts `piece` on the empty square `sq`.
    #[inline]
    pub(crate) fn put(&mut self, sq: Square, piece: Piece) {
        let bb = Bitboard::from_square(sq);
        self.by_role[piece.role.index()] ^= bb;
        self.by_side[piece.side.index()] ^= bb;
        self.occupied ^= bb;
        self.roles[sq.usize()] = Some(piece.role);
    }

    /// Takes `piece` off `sq`, where it stands.
    #[inline]
    pub(crate) fn remove(&mut self, sq: Square, piece: Piece) {
        let bb = Bitboard::from_square(sq);
        self.by_role[piece.role.index()] ^= bb;
        self.by_side[piece.side.index()] ^= bb;
        self.occupied ^= bb;
        self.roles[sq.usize()] = None;
    }

    /// Moves `piece` from `from` to the empty square `to`.
    #[inline]
    pub(crate) fn shift(&mut self, from: Square, to: Square, piece: Piece) {
        let bb = Bitboard::from_square(from) | Bitboard::from_square(to);
        self.by_role[piece.role.index()] ^= bb;
        self.by_side[piece.side.index()] ^= bb;
        self.occupied ^= bb;
        self.roles[from.usize()] = None;
        self.roles[to.usize()] = Some(piece.role);
    }

    /// The pieces of `attacker` that attack `sq`, with `occupied` as the blockers.
    #[must_use]
    #[inline]
    pub fn attackers(&self, sq: Square, attacker: Side, occupied: Bitboard) -> Bitboard {
        self.by_side(attacker)
            & ((rook_attacks(sq, occupied) & self.rooks_and_queens())
                | (bishop_attacks(sq, occupied) & self.bishops_and_queens())
                | (knight_attacks(sq) & self.by_role(Role::Knight))
                | (king_attacks(sq) & self.by_role(Role::King))
                | (pawn_attacks(!attacker, sq) & self.by_role(Role::Pawn)))
    }

    /// Whether any piece of `attacker` attacks `sq` with `occupied` as the blockers.
    #[must_use]
    #[inline]
    pub fn is_attacked(&self, sq: Square, attacker: Side, occupied: Bitboard) -> bool {
        let them = self.by_side(attacker);
        (knight_attacks(sq) & them & self.by_role(Role::Knight)).any()
            || (pawn_attacks(!attacker, sq) & them & self.by_role(Role::Pawn)).any()
            || (king_attacks(sq) & them & self.by_role(Role::King)).any()
            || (rook_attacks(sq, occupied) & them & self.rooks_and_queens()).any()
            || (bishop_attacks(sq, occupied) & them & self.bishops_and_queens()).any()
    }

    /// Every piece with its square, `a1` first.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        self.occupied
            .filter_map(|sq| self.piece_at(sq).map(|p| (sq, p)))
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in (0..8).rev() {
            for file in 0..8 {
                let sq = Square::from_index(rank * 8 + file);
                let c = self.piece_at(sq).map_or('.', Piece::char);
                write!(f, "{c}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}
