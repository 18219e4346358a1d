use tablero_core::Side;

use crate::{Bitboard, Board, Role, Square};

/// How castling works and is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum CastlingMode {
    /// Standard chess: king on e1/e8, rooks on the corners; UCI writes `e1g1`.
    #[default]
    Standard,
    /// Chess960: any king and rook start squares; UCI writes king-takes-rook (`e1h1`).
    Chess960,
}

impl CastlingMode {
    /// `standard` or `chess960`: the variant id of the interfaces page.
    #[must_use]
    pub const fn variant_id(self) -> &'static str {
        match self {
            CastlingMode::Standard => "standard",
            CastlingMode::Chess960 => "chess960",
        }
    }
}

/// A position as written in a FEN, not yet checked against the rules.
///
/// [`crate::Chess::from_setup`] turns it into a playable position or explains why not.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Setup {
    /// Piece placement.
    pub board: Board,
    /// Side to move.
    pub turn: Side,
    /// The rooks that still have castling rights (one bit per rook square).
    pub castling_rooks: Bitboard,
    /// The en passant target square, if the FEN gives one.
    pub ep_square: Option<Square>,
    /// Plies since the last capture or pawn move.
    pub halfmoves: u32,
    /// The move number, starting at 1 and incremented after Black's move.
    pub fullmoves: u32,
}

impl Default for Setup {
    fn default() -> Setup {
        Setup::standard()
    }
}

impl Setup {
    /// The standard starting position.
    #[must_use]
    pub fn standard() -> Setup {
        Setup {
            board: Board::standard(),
            turn: Side::White,
            castling_rooks: Bitboard::from_iter([Square::A1, Square::H1, Square::A8, Square::H8]),
            ep_square: None,
            halfmoves: 0,
            fullmoves: 1,
        }
    }

    /// Chess960 start number `id` (0..960) in the standard numbering (518 is the
    /// classical start), or `None` if out of range.
    #[must_use]
    pub fn chess960(id: u32) -> Option<Setup> {
        let back_rank = chess960_back_rank(id)?;
        let board = Board::from_back_rank(back_rank);
        let rooks = board.by_role(Role::Rook)
            & (Bitboard::rank(crate::Rank::FIRST) | Bitboard::rank(crate::Rank::EIGHTH));
        Some(Setup {
            board,
            castling_rooks: rooks,
            ..Setup::standard()
        })
    }
}

/// The back rank of Chess960 start `id`, by the standard (Scharnagl) numbering: the
/// digits of `id` place the light-squared bishop, the dark-squared bishop, the queen
/// and the knights (one of ten knight patterns); rook, king, rook fill the rest.
#[must_use]
pub fn chess960_back_rank(id: u32) -> Option<[Role; 8]> {
    if id >= 960 {
        return None;
    }
    let mut rank: [Option<Role>; 8] = [None; 8];
    let mut n = id;
    // Light squares on the back rank are b, d, f, h; dark are a, c, e, g.
    rank[(n % 4 * 2 + 1) as usize] = Some(Role::Bishop);
    n /= 4;
    rank[(n % 4 * 2) as usize] = Some(Role::Bishop);
    n /= 4;
    let place_in_free = |rank: &mut [Option<Role>; 8], nth: u32, role: Role| {
        if let Some(slot) = rank.iter_mut().filter(|s| s.is_none()).nth(nth as usize) {
            *slot = Some(role);
        }
    };
    place_in_free(&mut rank, n % 6, Role::Queen);
    n /= 6;
    const KNIGHTS: [(u32, u32); 10] = [
        (0, 1),
        (0, 2),
        (0, 3),
        (0, 4),
        (1, 2),
        (1, 3),
        (1, 4),
        (2, 3),
        (2, 4),
        (3, 4),
    ];
    let (first, second) = KNIGHTS[n as usize];
    // Place the second knight first so the first one's index is not disturbed.
    place_in_free(&mut rank, second, Role::Knight);
    place_in_free(&mut rank, first, Role::Knight);
    for role in [Role::Rook, Role::King, Role::Rook] {
        place_in_free(&mut rank, 0, role);
    }
    let mut out = [Role::Pawn; 8];
    for (o, r) in out.iter_mut().zip(rank) {
        *o = r?;
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chess960_numbering() {
        use Role::*;
        assert_eq!(
            chess960_back_rank(518),
            Some([Rook, Knight, Bishop, Queen, King, Bishop, Knight, Rook])
        );
        assert_eq!(
            chess960_back_rank(0),
            Some([Bishop, Bishop, Queen, Knight, Knight, Rook, King, Rook])
        );
        assert_eq!(
            chess960_back_rank(959),
            Some([Rook, King, Rook, Knight, Knight, Queen, Bishop, Bishop])
        );
        assert_eq!(chess960_back_rank(960), None);
        let mut seen = std::collections::HashSet::new();
        for id in 0..960 {
            let rank = chess960_back_rank(id).expect("in range");
            let king = rank.iter().position(|&r| r == King).expect("king");
            let rooks: Vec<_> = rank
                .iter()
                .enumerate()
                .filter(|(_, r)| **r == Rook)
                .map(|(i, _)| i)
                .collect();
            assert!(rooks[0] < king && king < rooks[1]);
            let bishops: Vec<_> = rank
                .iter()
                .enumerate()
                .filter(|(_, r)| **r == Bishop)
                .map(|(i, _)| i % 2)
                .collect();
            assert_ne!(bishops[0], bishops[1]);
            assert!(seen.insert(rank));
        }
    }
}
