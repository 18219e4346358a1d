use core::fmt;
use core::str::FromStr;

use crate::Side;

/// How a game ended: a winner, or a draw, always with the reason.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// One side won.
    Win {
        /// The side that won.
        winner: Side,
        /// Why.
        reason: Reason,
    },
    /// Nobody won.
    Draw {
        /// Why.
        reason: Reason,
    },
}

impl Outcome {
    /// The winner, or `None` for a draw.
    #[must_use]
    pub const fn winner(self) -> Option<Side> {
        match self {
            Outcome::Win { winner, .. } => Some(winner),
            Outcome::Draw { .. } => None,
        }
    }

    /// Why the game ended.
    #[must_use]
    pub const fn reason(self) -> Reason {
        match self {
            Outcome::Win { reason, .. } | Outcome::Draw { reason } => reason,
        }
    }

    /// The PGN/PDN result token: `1-0`, `0-1` or `1/2-1/2`.
    #[must_use]
    pub const fn result_str(self) -> &'static str {
        match self {
            Outcome::Win {
                winner: Side::White,
                ..
            } => "1-0",
            Outcome::Win {
                winner: Side::Black,
                ..
            } => "0-1",
            Outcome::Draw { .. } => "1/2-1/2",
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Win { winner, reason } => write!(f, "{winner} wins by {reason}"),
            Outcome::Draw { reason } => write!(f, "draw by {reason}"),
        }
    }
}

macro_rules! reasons {
    ($($(#[$doc:meta])* $variant:ident = $id:literal,)*) => {
        /// Why a game ended. Each reason has a stable id (`Reason::id`) that is stored
        /// and sent over the API; the ids never change once released.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        #[non_exhaustive]
        pub enum Reason {
            $($(#[$doc])* $variant,)*
        }

        impl Reason {
            /// Every reason, in declaration order.
            pub const ALL: &'static [Reason] = &[$(Reason::$variant,)*];

            /// The stable id, e.g. `"checkmate"`.
            #[must_use]
            pub const fn id(self) -> &'static str {
                match self {
                    $(Reason::$variant => $id,)*
                }
            }
        }
    };
}

reasons! {
    /// The side to move is in check and has no legal move.
    Checkmate = "checkmate",
    /// The side to move is not in check and has no legal move.
    Stalemate = "stalemate",
    /// Neither side can win by any series of legal moves (FIDE 5.2.2).
    DeadPosition = "dead_position",
    /// 75 moves by each side without a capture or pawn move (FIDE 9.6.2).
    SeventyFiveMoves = "seventy_five_moves",
    /// The same position for the fifth time (FIDE 9.6.1).
    FivefoldRepetition = "fivefold_repetition",
    /// A claim after 50 moves by each side without a capture or pawn move.
    FiftyMoves = "fifty_moves",
    /// A claim after the same position occurred three times.
    ThreefoldRepetition = "threefold_repetition",
    /// A side resigned.
    Resignation = "resignation",
    /// A side resigned, but its opponent could not win by any series of legal moves:
    /// a draw (as a flag fall is, FIDE 6.9).
    ResignationInsufficientMaterial = "resignation_insufficient_material",
    /// The players agreed to a draw.
    Agreement = "agreement",
    /// A side ran out of time.
    Timeout = "timeout",
    /// A side ran out of time, but the opponent could not win by any legal series of moves.
    TimeoutInsufficientMaterial = "timeout_insufficient_material",
    /// The side to move has no legal move (games where that is not stalemate or mate).
    NoLegalMove = "no_legal_move",
    /// A repetition ruled under the game's repetition rules (e.g. xiangqi's idle repetition).
    Repetition = "repetition",
    /// Xiangqi: a side repeated checks perpetually.
    PerpetualCheck = "perpetual_check",
    /// Xiangqi: a side repeated chases perpetually.
    PerpetualChase = "perpetual_chase",
    /// A limit of moves without progress (captures, pawn or man moves) was reached.
    MoveLimit = "move_limit",
    /// A special endgame rule of the game ended it (e.g. draughts king endings).
    EndgameRule = "endgame_rule",
    /// Chess3d: a side's dama was captured.
    DamaCaptured = "dama_captured",
    /// Chess3d timed mode: the game clock expired and pieces were counted.
    PieceCount = "piece_count",
    /// A player (an engine in a match) answered an illegal or malformed move: it loses.
    IllegalMove = "illegal_move",
    /// A player (an engine in a match) crashed, hung or gave no move: it loses.
    EngineFailure = "engine_failure",
    /// The result a game record (an imported file) states, for a game that the rules
    /// do not end at its last move and whose record names no other reason.
    RecordedResult = "recorded_result",
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.id().replace('_', " "))
    }
}

/// The text was not a reason id.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown outcome reason {0:?}")]
pub struct ParseReasonError(pub String);

impl FromStr for Reason {
    type Err = ParseReasonError;
    fn from_str(s: &str) -> Result<Reason, ParseReasonError> {
        Reason::ALL
            .iter()
            .copied()
            .find(|r| r.id() == s)
            .ok_or_else(|| ParseReasonError(s.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reason_ids_round_trip_and_are_unique() {
        for (i, r) in Reason::ALL.iter().enumerate() {
            assert_eq!(r.id().parse::<Reason>(), Ok(*r));
            assert!(Reason::ALL[..i].iter().all(|o| o.id() != r.id()));
        }
        assert!("mate".parse::<Reason>().is_err());
    }

    #[test]
    fn results() {
        let mate = Outcome::Win {
            winner: Side::Black,
            reason: Reason::Checkmate,
        };
        assert_eq!(mate.result_str(), "0-1");
        assert_eq!(mate.to_string(), "black wins by checkmate");
        assert_eq!(
            Outcome::Draw {
                reason: Reason::Stalemate
            }
            .winner(),
            None
        );
    }
}
