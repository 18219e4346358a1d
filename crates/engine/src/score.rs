//! Score constants and the mate-distance encoding shared by search and the
//! transposition table.

use crate::Score;

/// The score of a win on the board now; a win in `n` plies scores `MATE - n`.
pub const MATE: Score = 30_000;

/// Scores at or beyond this (in absolute value) are wins or losses by force.
pub const MATE_BOUND: Score = MATE - 1_000;

/// Larger than any score: the initial search window.
pub const INFINITE: Score = MATE + 1;

/// Whether `score` announces a forced win or loss.
#[must_use]
pub const fn is_mate_score(score: Score) -> bool {
    score >= MATE_BOUND || score <= -MATE_BOUND
}

/// Plies to the end for a mate score (positive: we win), as UCI's `score mate` in moves.
#[must_use]
pub const fn mate_in_moves(score: Score) -> Option<i32> {
    if score >= MATE_BOUND {
        Some((MATE - score + 1) / 2)
    } else if score <= -MATE_BOUND {
        Some(-(MATE + score) / 2)
    } else {
        None
    }
}

/// A score as stored in the transposition table: mates relative to the stored node,
/// so that the same entry is right at any distance from the root.
#[must_use]
pub(crate) const fn to_tt(score: Score, ply: usize) -> Score {
    if score >= MATE_BOUND {
        score + ply as Score
    } else if score <= -MATE_BOUND {
        score - ply as Score
    } else {
        score
    }
}

/// The inverse of [`to_tt`] at the probing node's distance from the root.
#[must_use]
pub(crate) const fn from_tt(score: Score, ply: usize) -> Score {
    if score >= MATE_BOUND {
        score - ply as Score
    } else if score <= -MATE_BOUND {
        score + ply as Score
    } else {
        score
    }
}
