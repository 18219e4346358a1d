//! Position generators shared by the property and differential tests.

use tablero_core::{Side, SplitMix64};
use tablero_xiangqi::{Move, Piece, Role, Square, Xiangqi};

/// The positions of a random game from the start, `plies` long at most; captures are
/// preferred half of the time so that playouts reach sparse endgames.
pub(crate) fn playout(seed: u64, plies: u64) -> Vec<Xiangqi> {
    let mut rng = SplitMix64::new(seed);
    let mut pos = Xiangqi::new();
    let mut seen = vec![pos.clone()];
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }

        let captures: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|&m| pos.is_capture(m))
            .collect();
        let pool: &[Move] = if !captures.is_empty() && rng.next().is_multiple_of(2) {
            &captures
        } else {
            &moves
        };
        pos.play_unchecked(pool[(rng.next() % pool.len() as u64) as usize]);
        seen.push(pos.clone());
    }
    seen
}

/// A random legal-or-not setup: both generals in their palaces, then up to 16 random
/// pieces on random points (kept only where the role may stand).
pub(crate) fn random_setup(seed: u64) -> Option<Xiangqi> {
    let mut rng = SplitMix64::new(seed);
    let mut setup = tablero_xiangqi::Setup::empty();
    let palace = |side: Side, i: u64| {
        let rank = (i / 3) as u32 + if side == Side::White { 0 } else { 7 };
        Square::from_coords(3 + (i % 3) as u32, rank).expect("palace point")
    };
    for side in Side::ALL {
        setup.board[palace(side, rng.next() % 9).index()] = Some(Piece::new(side, Role::General));
    }
    let pieces = rng.next() % 17;
    for _ in 0..pieces {
        let side = if rng.next().is_multiple_of(2) {
            Side::White
        } else {
            Side::Black
        };
        let role = Role::ALL[1 + (rng.next() % 6) as usize];
        let sq = Square::new((rng.next() % 90) as u32).expect("index below 90");
        if setup.board[sq.index()].is_none() {
            setup.board[sq.index()] = Some(Piece::new(side, role));
        }
    }
    setup.turn = if rng.next().is_multiple_of(2) {
        Side::White
    } else {
        Side::Black
    };
    Xiangqi::from_setup(setup).ok()
}
