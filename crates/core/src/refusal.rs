//! Why a move was refused: one type for every game, with a stable code and parameters
//! so that clients can translate the reason, and an English message for everyone else.

use core::fmt;

/// A parameter value of a [`Refusal`]: text (a square, a piece) or a number.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum ParamValue {
    /// A square, a piece name, the text given.
    Text(String),
    /// A count.
    Number(u32),
}

impl fmt::Display for ParamValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParamValue::Text(text) => f.write_str(text),
            ParamValue::Number(n) => write!(f, "{n}"),
        }
    }
}

/// Why a move text was not played: malformed, ambiguous, or the rule that forbids it.
///
/// Every variant has a stable snake_case [`Refusal::code`] and named
/// [`Refusal::params`]; `Display` is the English message. Squares and pieces are
/// written in the game's own notation (`e4`, `h2`, `30`, `0-C4`; `knight`, `horse`,
/// `man`, `alfil`). Rule crates build these on the refusal path only, after the legal
/// move generator said no.
#[derive(Debug, Clone, PartialEq, Eq, Hash, thiserror::Error)]
#[non_exhaustive]
pub enum Refusal {
    // --- every game -------------------------------------------------------------
    /// The text is not a move in any notation the game reads.
    #[error("malformed move {text:?}: {reason}")]
    MalformedMove {
        /// The text given.
        text: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The text names more than one legal move.
    #[error("ambiguous move {text}: it could be {}", candidates.join(" or "))]
    AmbiguousMove {
        /// The text given.
        text: String,
        /// The legal moves it could be.
        candidates: Vec<String>,
    },
    /// The game is over: no move can be played.
    #[error("the game is over: no move can be played")]
    GameOver,
    /// The other side is to move.
    #[error("it is not {side}'s turn")]
    NotYourTurn {
        /// The side that tried to move.
        side: String,
    },
    /// The origin square is empty.
    #[error("there is no piece on {square}")]
    NoPieceOnSquare {
        /// The origin.
        square: String,
    },
    /// The origin holds a piece of the side not to move.
    #[error("the piece on {square} belongs to the opponent")]
    NotYourPiece {
        /// The origin.
        square: String,
    },
    /// The side to move has no piece of the kind named that could make the move
    /// (SAN, WXF, Chinese, chess3d short form).
    #[error("no {piece} of yours can make the move {mv}")]
    NoSuchPiece {
        /// The piece kind named.
        piece: String,
        /// The move as written.
        mv: String,
    },
    /// The destination holds a piece of the mover's own side.
    #[error("{square} is occupied by your own piece")]
    OwnPieceOnSquare {
        /// The destination.
        square: String,
    },
    /// The piece never moves like this (wrong direction or distance).
    #[error("a {piece} cannot move from {from} to {to}")]
    PieceCannotMoveSo {
        /// The piece kind.
        piece: String,
        /// The origin.
        from: String,
        /// The destination.
        to: String,
    },
    /// A piece stands in the way.
    #[error("the way is blocked by the piece on {square}")]
    PathBlocked {
        /// The first occupied square on the way.
        square: String,
    },

    // --- chess and xiangqi: the king ---------------------------------------------
    /// The king would stand in check after the move (moving into an attack).
    #[error("the move would leave your king in check")]
    LeavesKingInCheck,
    /// The king is in check and the move does not answer it.
    #[error("your king is in check and this move does not answer it")]
    KingInCheck,
    /// The piece is pinned to its king.
    #[error("the piece on {square} is pinned: moving it would expose your king")]
    PinnedPiece {
        /// The pinned piece's square.
        square: String,
    },

    // --- chess ---------------------------------------------------------------------
    /// The king would pass or land on an attacked square while castling.
    #[error("castling would move the king through or into check on {square}")]
    CastlingThroughCheck {
        /// The attacked square.
        square: String,
    },
    /// Castling while in check.
    #[error("castling is not allowed while in check")]
    CastlingOutOfCheck,
    /// The king or that rook has moved (or the rook is gone).
    #[error("castling on that side is no longer allowed: the king or rook has moved")]
    CastlingRightsLost,
    /// A piece stands between king and rook, or on their destinations.
    #[error("castling is blocked by the piece on {square}")]
    CastlingPathBlocked {
        /// The occupied square.
        square: String,
    },
    /// A pawn reaches the last rank and no promotion piece was named.
    #[error("the pawn reaches the last rank: name the promotion piece (q, r, b or n)")]
    PromotionRequired,
    /// A promotion piece was named for a move that does not promote.
    #[error("only a pawn reaching the last rank promotes")]
    InvalidPromotion,
    /// A pawn moves diagonally onto a square with nothing to capture.
    #[error("a pawn moves diagonally only to capture, and {square} has nothing to capture")]
    PawnCapturesOnlyDiagonally {
        /// The destination.
        square: String,
    },

    // --- xiangqi --------------------------------------------------------------------
    /// The two generals would face each other on an open file.
    #[error("the generals would face each other on an open file")]
    FlyingGeneral,
    /// An elephant may not cross the river.
    #[error("an elephant cannot cross the river")]
    ElephantCannotCrossRiver,
    /// The elephant's eye (the point between) is occupied.
    #[error("the elephant's eye on {square} is blocked")]
    ElephantEyeBlocked {
        /// The blocking point.
        square: String,
    },
    /// The horse's leg (the orthogonal point next to it) is occupied.
    #[error("the horse's leg on {square} is blocked")]
    HorseLegBlocked {
        /// The blocking point.
        square: String,
    },
    /// A cannon captures by jumping exactly one piece.
    #[error("a cannon captures by jumping exactly one piece, and there are {screens} between")]
    CannonNeedsScreen {
        /// The pieces between the cannon and its target.
        screens: u32,
    },
    /// The general or an advisor may not leave the palace.
    #[error("the {piece} cannot leave the palace")]
    LeavesPalace {
        /// `general` or `advisor`.
        piece: String,
    },
    /// A soldier never moves backward.
    #[error("a soldier cannot move backward")]
    SoldierCannotRetreat,
    /// A soldier moves sideways only after crossing the river.
    #[error("a soldier moves sideways only after crossing the river")]
    SoldierCannotMoveSideways,

    // --- draughts ---------------------------------------------------------------------
    /// A capture is available, so a capture must be played.
    #[error("a capture is compulsory: you must capture")]
    CaptureCompulsory,
    /// The majority rule: the capture must take the most pieces.
    #[error("the majority rule: you must take the most pieces ({required})")]
    MajorityCapture {
        /// How many pieces the capture must take.
        required: u32,
    },
    /// The rule set's precedence between captures of equal size (most kings, with a
    /// king rather than a man, …).
    #[error("a capture of the same size with precedence (more kings, or by a king) must be played")]
    CapturePriority,
    /// The capturing piece can go on capturing, so it must.
    #[error("the capture is not finished: the piece must go on capturing")]
    MustContinueCapture,
    /// A man reaching the far row during a capture is crowned and the capture ends.
    #[error("the man is crowned on the far row and the capture ends there")]
    CaptureEndsAtCrowning,
    /// A man steps forward only.
    #[error("a man cannot move backwards")]
    ManCannotMoveBackwards,
    /// A man captures forward only (English, Spanish, Italian).
    #[error("a man cannot capture backwards in these rules")]
    ManCannotCaptureBackwards,
    /// A man may not capture a king (Italian).
    #[error("a man cannot capture a king in these rules")]
    ManCannotCaptureKing,
    /// Kings move a single square (English, Italian).
    #[error("a king moves one square at a time in these rules")]
    KingMovesOneSquare,
    /// A jump over an empty square.
    #[error("there is nothing to capture between {from} and {to}")]
    NothingToCapture {
        /// Where the jump starts.
        from: String,
        /// Where it lands.
        to: String,
    },
    /// A jump over one's own piece.
    #[error("you cannot jump your own piece on {square}")]
    CannotJumpOwnPiece {
        /// The own piece.
        square: String,
    },
    /// A piece is jumped at most once in a capture.
    #[error("the piece on {square} cannot be jumped twice")]
    CannotCaptureTwice {
        /// The piece jumped again.
        square: String,
    },
    /// The destination (or a landing square) is occupied.
    #[error("{square} is occupied")]
    SquareOccupied {
        /// The occupied square.
        square: String,
    },

    // --- chess3d ----------------------------------------------------------------------
    /// A level move's destination must be empty.
    #[error("a level move never captures: {square} is occupied")]
    LevelMoveNeverCaptures {
        /// The destination.
        square: String,
    },
    /// This piece has no level move (caballo, pawn).
    #[error("a {piece} has no level move")]
    NoLevelMove {
        /// The piece kind.
        piece: String,
    },
    /// An alfil changes level only with another alfil on one of its diagonals.
    #[error(
        "an alfil changes level only when another alfil of its colour is on one of its diagonals"
    )]
    AlfilLevelMoveNeedsPartner,
    /// A torre changes level only with another torre on its row or column.
    #[error("a torre changes level only when another torre of its colour is on its row or column")]
    TorreLevelMoveNeedsPartner,
    /// A dama changes level only with its king next to it.
    #[error("the dama changes level only when its king stands next to it")]
    DamaLevelMoveNeedsKing,
    /// A pawn captures only diagonally backward.
    #[error("a pawn captures only one square diagonally backward")]
    PawnCapturesBackwardOnly,
    /// A pawn's diagonal step needs a same-coloured pawn on another level, off its
    /// start row.
    #[error(
        "a pawn steps diagonally only off its start row and with a pawn of its colour on the same square of another level"
    )]
    PawnDiagonalStepNotAllowed,

    // --- the fallback -----------------------------------------------------------------
    /// No rule was found. Tests assert that this never happens.
    #[error("illegal move {text}: not a legal move in this position")]
    Unexplained {
        /// The move as written.
        text: String,
    },
}

impl Refusal {
    /// Every code, for documentation and for checking translations.
    pub const CODES: &'static [&'static str] = &[
        "malformed_move",
        "ambiguous_move",
        "game_over",
        "not_your_turn",
        "no_piece_on_square",
        "not_your_piece",
        "no_such_piece",
        "own_piece_on_square",
        "piece_cannot_move_so",
        "path_blocked",
        "leaves_king_in_check",
        "king_in_check",
        "pinned_piece",
        "castling_through_check",
        "castling_out_of_check",
        "castling_rights_lost",
        "castling_path_blocked",
        "promotion_required",
        "invalid_promotion",
        "pawn_captures_only_diagonally",
        "flying_general",
        "elephant_cannot_cross_river",
        "elephant_eye_blocked",
        "horse_leg_blocked",
        "cannon_needs_screen",
        "leaves_palace",
        "soldier_cannot_retreat",
        "soldier_cannot_move_sideways",
        "capture_compulsory",
        "majority_capture",
        "capture_priority",
        "must_continue_capture",
        "capture_ends_at_crowning",
        "man_cannot_move_backwards",
        "man_cannot_capture_backwards",
        "man_cannot_capture_king",
        "king_moves_one_square",
        "nothing_to_capture",
        "cannot_jump_own_piece",
        "cannot_capture_twice",
        "square_occupied",
        "level_move_never_captures",
        "no_level_move",
        "alfil_level_move_needs_partner",
        "torre_level_move_needs_partner",
        "dama_level_move_needs_king",
        "pawn_captures_backward_only",
        "pawn_diagonal_step_not_allowed",
        "illegal_move",
    ];

    /// The stable snake_case id of the reason (persisted and sent over the API; never
    /// derived from `Debug`).
    #[must_use]
    pub const fn code(&self) -> &'static str {
        match self {
            Refusal::MalformedMove { .. } => "malformed_move",
            Refusal::AmbiguousMove { .. } => "ambiguous_move",
            Refusal::GameOver => "game_over",
            Refusal::NotYourTurn { .. } => "not_your_turn",
            Refusal::NoPieceOnSquare { .. } => "no_piece_on_square",
            Refusal::NotYourPiece { .. } => "not_your_piece",
            Refusal::NoSuchPiece { .. } => "no_such_piece",
            Refusal::OwnPieceOnSquare { .. } => "own_piece_on_square",
            Refusal::PieceCannotMoveSo { .. } => "piece_cannot_move_so",
            Refusal::PathBlocked { .. } => "path_blocked",
            Refusal::LeavesKingInCheck => "leaves_king_in_check",
            Refusal::KingInCheck => "king_in_check",
            Refusal::PinnedPiece { .. } => "pinned_piece",
            Refusal::CastlingThroughCheck { .. } => "castling_through_check",
            Refusal::CastlingOutOfCheck => "castling_out_of_check",
            Refusal::CastlingRightsLost => "castling_rights_lost",
            Refusal::CastlingPathBlocked { .. } => "castling_path_blocked",
            Refusal::PromotionRequired => "promotion_required",
            Refusal::InvalidPromotion => "invalid_promotion",
            Refusal::PawnCapturesOnlyDiagonally { .. } => "pawn_captures_only_diagonally",
            Refusal::FlyingGeneral => "flying_general",
            Refusal::ElephantCannotCrossRiver => "elephant_cannot_cross_river",
            Refusal::ElephantEyeBlocked { .. } => "elephant_eye_blocked",
            Refusal::HorseLegBlocked { .. } => "horse_leg_blocked",
            Refusal::CannonNeedsScreen { .. } => "cannon_needs_screen",
            Refusal::LeavesPalace { .. } => "leaves_palace",
            Refusal::SoldierCannotRetreat => "soldier_cannot_retreat",
            Refusal::SoldierCannotMoveSideways => "soldier_cannot_move_sideways",
            Refusal::CaptureCompulsory => "capture_compulsory",
            Refusal::MajorityCapture { .. } => "majority_capture",
            Refusal::CapturePriority => "capture_priority",
            Refusal::MustContinueCapture => "must_continue_capture",
            Refusal::CaptureEndsAtCrowning => "capture_ends_at_crowning",
            Refusal::ManCannotMoveBackwards => "man_cannot_move_backwards",
            Refusal::ManCannotCaptureBackwards => "man_cannot_capture_backwards",
            Refusal::ManCannotCaptureKing => "man_cannot_capture_king",
            Refusal::KingMovesOneSquare => "king_moves_one_square",
            Refusal::NothingToCapture { .. } => "nothing_to_capture",
            Refusal::CannotJumpOwnPiece { .. } => "cannot_jump_own_piece",
            Refusal::CannotCaptureTwice { .. } => "cannot_capture_twice",
            Refusal::SquareOccupied { .. } => "square_occupied",
            Refusal::LevelMoveNeverCaptures { .. } => "level_move_never_captures",
            Refusal::NoLevelMove { .. } => "no_level_move",
            Refusal::AlfilLevelMoveNeedsPartner => "alfil_level_move_needs_partner",
            Refusal::TorreLevelMoveNeedsPartner => "torre_level_move_needs_partner",
            Refusal::DamaLevelMoveNeedsKing => "dama_level_move_needs_king",
            Refusal::PawnCapturesBackwardOnly => "pawn_captures_backward_only",
            Refusal::PawnDiagonalStepNotAllowed => "pawn_diagonal_step_not_allowed",
            Refusal::Unexplained { .. } => "illegal_move",
        }
    }

    /// The named parameters of the reason, in a fixed order (e.g. `required` of
    /// `majority_capture`, `square` of `pinned_piece`).
    #[must_use]
    pub fn params(&self) -> Vec<(&'static str, ParamValue)> {
        let text = |s: &String| ParamValue::Text(s.clone());
        match self {
            Refusal::MalformedMove { text: t, reason } => {
                vec![("text", text(t)), ("reason", text(reason))]
            }
            Refusal::AmbiguousMove {
                text: t,
                candidates,
            } => vec![
                ("text", text(t)),
                ("candidates", ParamValue::Text(candidates.join(", "))),
            ],
            Refusal::NotYourTurn { side } => vec![("side", text(side))],
            Refusal::NoPieceOnSquare { square }
            | Refusal::NotYourPiece { square }
            | Refusal::OwnPieceOnSquare { square }
            | Refusal::PathBlocked { square }
            | Refusal::PinnedPiece { square }
            | Refusal::CastlingThroughCheck { square }
            | Refusal::CastlingPathBlocked { square }
            | Refusal::PawnCapturesOnlyDiagonally { square }
            | Refusal::ElephantEyeBlocked { square }
            | Refusal::HorseLegBlocked { square }
            | Refusal::CannotJumpOwnPiece { square }
            | Refusal::CannotCaptureTwice { square }
            | Refusal::SquareOccupied { square }
            | Refusal::LevelMoveNeverCaptures { square } => vec![("square", text(square))],
            Refusal::NoSuchPiece { piece, mv } => {
                vec![("piece", text(piece)), ("move", text(mv))]
            }
            Refusal::PieceCannotMoveSo { piece, from, to } => vec![
                ("piece", text(piece)),
                ("from", text(from)),
                ("to", text(to)),
            ],
            Refusal::NothingToCapture { from, to } => vec![("from", text(from)), ("to", text(to))],
            Refusal::CannonNeedsScreen { screens } => {
                vec![("screens", ParamValue::Number(*screens))]
            }
            Refusal::LeavesPalace { piece } | Refusal::NoLevelMove { piece } => {
                vec![("piece", text(piece))]
            }
            Refusal::MajorityCapture { required } => {
                vec![("required", ParamValue::Number(*required))]
            }
            Refusal::Unexplained { text: t } => vec![("text", text(t))],
            Refusal::GameOver
            | Refusal::LeavesKingInCheck
            | Refusal::KingInCheck
            | Refusal::CastlingOutOfCheck
            | Refusal::CastlingRightsLost
            | Refusal::PromotionRequired
            | Refusal::InvalidPromotion
            | Refusal::FlyingGeneral
            | Refusal::ElephantCannotCrossRiver
            | Refusal::SoldierCannotRetreat
            | Refusal::SoldierCannotMoveSideways
            | Refusal::CaptureCompulsory
            | Refusal::CapturePriority
            | Refusal::MustContinueCapture
            | Refusal::CaptureEndsAtCrowning
            | Refusal::ManCannotMoveBackwards
            | Refusal::ManCannotCaptureBackwards
            | Refusal::ManCannotCaptureKing
            | Refusal::KingMovesOneSquare
            | Refusal::AlfilLevelMoveNeedsPartner
            | Refusal::TorreLevelMoveNeedsPartner
            | Refusal::DamaLevelMoveNeedsKing
            | Refusal::PawnCapturesBackwardOnly
            | Refusal::PawnDiagonalStepNotAllowed => Vec::new(),
        }
    }

    /// Whether the refusal names a rule of the game (or the text's form), rather than
    /// the [`Refusal::Unexplained`] fallback.
    #[must_use]
    pub const fn is_explained(&self) -> bool {
        !matches!(self, Refusal::Unexplained { .. })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_listed_once_and_snake_case() {
        let mut seen = std::collections::BTreeSet::new();
        for code in Refusal::CODES {
            assert!(seen.insert(*code), "{code} twice");
            assert!(
                code.chars().all(|c| c.is_ascii_lowercase() || c == '_'),
                "{code}"
            );
        }
        let r = Refusal::MajorityCapture { required: 2 };
        assert!(Refusal::CODES.contains(&r.code()));
        assert_eq!(r.params(), vec![("required", ParamValue::Number(2))]);
        assert_eq!(
            r.to_string(),
            "the majority rule: you must take the most pieces (2)"
        );
    }
}
