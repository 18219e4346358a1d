//! Helpers shared by the test files: hand-built positions and move lists by square.

#![allow(dead_code, unreachable_pub)]

use tablero_chess3d::{Board, Chess3d, Piece, Setup, Side, Square};

/// A position with `pieces` placed (`("0D4", 'A')`: uppercase White, lowercase
/// Black), `turn` to move and generator state `rng`.
pub fn place(turn: Side, rng: u64, pieces: &[(&str, char)]) -> Chess3d {
    let mut board = Board::empty();
    for &(sq, c) in pieces {
        let sq: Square = sq.parse().expect("test square");
        assert!(board.piece_at(sq).is_none(), "{sq} placed twice");
        board.set(sq, Some(Piece::from_char(c).expect("test piece letter")));
    }
    Chess3d::from_setup(Setup {
        board,
        turn,
        quiet_plies: 0,
        move_number: 1,
        rng,
    })
    .expect("move number 1")
}

/// [`place`] with both damas parked on squares that the tests keep out of the way
/// (`2-A1` White, `2-H8` Black): without a dama a side has no moves at all.
pub fn with_damas(turn: Side, pieces: &[(&str, char)]) -> Chess3d {
    let mut all = vec![("2A1", 'D'), ("2H8", 'd')];
    all.extend_from_slice(pieces);
    place(turn, 0, &all)
}

/// The destinations of the legal moves from `from`, in generation order.
pub fn targets(pos: &Chess3d, from: &str) -> Vec<String> {
    let from: Square = from.parse().expect("test square");
    pos.legal_moves()
        .iter()
        .filter(|m| m.from() == from)
        .map(|m| m.to().to_string())
        .collect()
}

/// `targets` as a sorted list of owned strings from literals.
pub fn squares(list: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = list.iter().map(|s| (*s).to_owned()).collect();
    v.sort();
    v
}

/// Sorted copy.
pub fn sorted(mut v: Vec<String>) -> Vec<String> {
    v.sort();
    v
}
