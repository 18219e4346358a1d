use crate::Position;

/// Counts the leaf nodes of the legal-move tree `depth` plies deep.
///
/// The standard test of a move generator: the counts for well-known positions are
/// published, and any difference points at a bug. The last ply is counted in bulk
/// ([`Position::count_legal_moves`]), as Stockfish's and every fast perft does.
pub fn perft<P: Position>(pos: &P, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal_moves(),
        _ => {
            let mut moves = P::MoveList::default();
            pos.legal_moves_into(&mut moves);
            moves
                .iter()
                .map(|&m| {
                    let mut child = pos.clone();
                    child.play_unchecked(m);
                    perft(&child, depth - 1)
                })
                .sum()
        }
    }
}

/// [`perft`] split by root move: one `(move, leaves)` pair per legal move, in
/// move-generation order. `depth` 0 gives an empty list.
pub fn perft_divide<P: Position>(pos: &P, depth: u32) -> Vec<(P::Move, u64)> {
    divide_with(pos, depth, |_| {})
}

/// [`perft_divide`] that reports each finished root move (for progress bars).
pub fn divide_with<P: Position>(
    pos: &P,
    depth: u32,
    mut on_root_move_done: impl FnMut(&(P::Move, u64)),
) -> Vec<(P::Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    let mut moves = P::MoveList::default();
    pos.legal_moves_into(&mut moves);
    moves
        .iter()
        .map(|&m| {
            let mut child = pos.clone();
            child.play_unchecked(m);
            let entry = (m, perft(&child, depth - 1));
            on_root_move_done(&entry);
            entry
        })
        .collect()
}
