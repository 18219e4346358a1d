use core::fmt;
use core::ops::Deref;

use crate::{Outcome, Side};

/// A valid game position: the rules of one game, without players, clocks or history.
///
/// Every tablero game implements this trait, so the engine, perft and tests are written
/// once. The design serves four quite different games:
///
/// - **Moves are whole turns.** A draughts multi-capture or a chess3d promotion (which
///   draws a random square from the position's own generator) is one `Move`; playing it
///   applies everything, so generic code never sees half a turn.
/// - **Legal moves go into a caller-owned buffer** ([`Position::legal_moves_into`]):
///   search and perft reuse one buffer per ply and never allocate per node. Each game
///   picks its `MoveList` (a fixed-capacity array for chess, larger for draughts).
/// - **Copy-make.** Positions are small plain values; search clones before playing.
///   That also restores state that undo would have to remember (chess3d's generator).
/// - **History-free.** [`Position::outcome`] reports what the position alone decides
///   (mate, no moves, a captured dama). Rules that need the game's history — chess
///   repetitions, xiangqi perpetual check and chase, draughts move limits — live in each
///   game's game/history type, fed with the sequence of positions.
pub trait Position: Clone + fmt::Debug {
    /// A complete move of this game. Cheap to copy and compare.
    type Move: Copy + Eq + fmt::Debug;

    /// The buffer legal moves are written into (cleared first).
    type MoveList: Default + Deref<Target = [Self::Move]> + fmt::Debug;

    /// The side to move.
    fn turn(&self) -> Side;

    /// Clears `moves` and fills it with every legal move of the side to move.
    fn legal_moves_into(&self, moves: &mut Self::MoveList);

    /// Every legal move of the side to move, in a new buffer.
    fn legal_moves(&self) -> Self::MoveList {
        let mut moves = Self::MoveList::default();
        self.legal_moves_into(&mut moves);
        moves
    }

    /// The number of legal moves. Games may answer faster than by listing them
    /// (perft's bulk counting at the last ply).
    fn count_legal_moves(&self) -> u64 {
        self.legal_moves().len() as u64
    }

    /// Whether `m` is legal here.
    fn is_legal(&self, m: Self::Move) -> bool {
        self.legal_moves().contains(&m)
    }

    /// Plays a move known to be legal (from [`Position::legal_moves_into`] or checked
    /// with [`Position::is_legal`]). Playing an illegal move leaves a position whose
    /// contents are unspecified but never causes undefined behaviour or a panic that
    /// validation could have prevented.
    fn play_unchecked(&mut self, m: Self::Move);

    /// Plays `m` if it is legal; otherwise returns the unchanged position in the error.
    ///
    /// # Errors
    ///
    /// [`PlayError`] when `m` is not a legal move of this position.
    fn play(mut self, m: Self::Move) -> Result<Self, PlayError<Self>> {
        if self.is_legal(m) {
            self.play_unchecked(m);
            Ok(self)
        } else {
            Err(PlayError {
                position: Box::new(self),
                mv: m,
            })
        }
    }

    /// The result decided by this position alone, or `None` while the game goes on.
    fn outcome(&self) -> Option<Outcome>;

    /// A Zobrist-style key of everything that decides the legal moves and their
    /// results (placement, side to move, rights); updated incrementally by play.
    fn zobrist(&self) -> u64;
}

/// An illegal move was offered; the position is returned unchanged.
pub struct PlayError<P: Position> {
    /// The position, exactly as before.
    pub position: Box<P>,
    /// The move that was refused.
    pub mv: P::Move,
}

impl<P: Position> PlayError<P> {
    /// Takes the unchanged position back.
    #[must_use]
    pub fn into_inner(self) -> P {
        *self.position
    }
}

impl<P: Position> fmt::Debug for PlayError<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PlayError")
            .field("mv", &self.mv)
            .finish_non_exhaustive()
    }
}

impl<P: Position> fmt::Display for PlayError<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "illegal move {:?}", self.mv)
    }
}

impl<P: Position> std::error::Error for PlayError<P> {}
