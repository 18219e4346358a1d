//! The six rule sets and the handful of rules that tell them apart.

use core::fmt;
use core::str::FromStr;

use tablero_core::Side;

/// One of the draughts games tablero plays. The id (`english`, ...) is the `--variant`
/// of the command line and is stored with saved games; it never changes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub enum RuleSet {
    /// English draughts / American checkers (PDN GameType 21): 8×8, Black moves first.
    #[default]
    English,
    /// International draughts (GameType 20): 10×10, FMJD rules.
    International,
    /// Brazilian draughts (GameType 26): the international rules on 8×8.
    Brazilian,
    /// Russian draughts, shashki (GameType 25).
    Russian,
    /// Spanish draughts, damas (GameType 24).
    Spanish,
    /// Italian draughts, dama italiana (GameType 22).
    Italian,
}

impl RuleSet {
    /// Every rule set, in the order of the interfaces page.
    pub const ALL: [RuleSet; 6] = [
        RuleSet::English,
        RuleSet::International,
        RuleSet::Brazilian,
        RuleSet::Russian,
        RuleSet::Spanish,
        RuleSet::Italian,
    ];

    /// The stable id: `english`, `international`, `brazilian`, `russian`, `spanish`,
    /// `italian`.
    #[must_use]
    pub const fn id(self) -> &'static str {
        match self {
            RuleSet::English => "english",
            RuleSet::International => "international",
            RuleSet::Brazilian => "brazilian",
            RuleSet::Russian => "russian",
            RuleSet::Spanish => "spanish",
            RuleSet::Italian => "italian",
        }
    }

    /// The PDN `GameType` number: 21, 20, 26, 25, 24, 22.
    #[must_use]
    pub const fn game_type(self) -> u32 {
        match self {
            RuleSet::English => 21,
            RuleSet::International => 20,
            RuleSet::Brazilian => 26,
            RuleSet::Russian => 25,
            RuleSet::Spanish => 24,
            RuleSet::Italian => 22,
        }
    }

    /// The rule set of a PDN `GameType` number, if tablero plays it.
    #[must_use]
    pub fn from_game_type(number: u32) -> Option<RuleSet> {
        RuleSet::ALL.into_iter().find(|r| r.game_type() == number)
    }

    /// The rules of this rule set.
    #[must_use]
    pub const fn rules(self) -> &'static Rules {
        match self {
            RuleSet::English => &Rules::ENGLISH,
            RuleSet::International => &Rules::INTERNATIONAL,
            RuleSet::Brazilian => &Rules::BRAZILIAN,
            RuleSet::Russian => &Rules::RUSSIAN,
            RuleSet::Spanish => &Rules::SPANISH,
            RuleSet::Italian => &Rules::ITALIAN,
        }
    }

    /// The start position as a PDN FEN (`B:W21-32:B1-12` for English, ...).
    #[must_use]
    pub const fn start_fen(self) -> &'static str {
        match self {
            RuleSet::English => "B:W21-32:B1-12",
            RuleSet::International => "W:W31-50:B1-20",
            _ => "W:W21-32:B1-12",
        }
    }
}

impl fmt::Display for RuleSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

/// The text was not a rule-set id.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown draughts rule set {0:?} (expected english, international, brazilian, russian, spanish or italian)"
)]
pub struct ParseRuleSetError(pub String);

impl FromStr for RuleSet {
    type Err = ParseRuleSetError;
    fn from_str(s: &str) -> Result<RuleSet, ParseRuleSetError> {
        RuleSet::ALL
            .into_iter()
            .find(|r| r.id() == s)
            .ok_or_else(|| ParseRuleSetError(s.to_owned()))
    }
}

/// The board of a rule set.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BoardSize {
    /// 8×8, 32 playable squares.
    Eight,
    /// 10×10, 50 playable squares.
    Ten,
}

impl BoardSize {
    /// Squares in a row, counting light and dark ones (8 or 10).
    #[must_use]
    pub const fn width(self) -> u8 {
        match self {
            BoardSize::Eight => 8,
            BoardSize::Ten => 10,
        }
    }

    /// Playable squares in a row (4 or 5).
    #[must_use]
    pub const fn row_squares(self) -> u8 {
        self.width() / 2
    }

    /// Playable squares on the board (32 or 50).
    #[must_use]
    pub const fn squares(self) -> u8 {
        self.width() * self.row_squares()
    }

    /// Pieces each side has at the start (12 or 20): the most a legal position holds.
    #[must_use]
    pub const fn pieces_per_side(self) -> u8 {
        self.row_squares() * (self.width() / 2 - 1)
    }
}

/// Which corner square is dark, as seen by White.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Orientation {
    /// a1 is dark: square 1 is the second square of the top row (b8 or b10).
    A1Dark,
    /// a1 is light: square 1 is the top-left corner (a8). Italian and Spanish boards.
    A1Light,
}

/// How far a king moves and captures.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum KingRange {
    /// One square, like a man but in every direction (English, Italian).
    OneSquare,
    /// Any distance along a free diagonal, before and after the captured piece.
    Flying,
}

/// Which way men capture, and what.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ManCaptures {
    /// Forward only (English, Spanish).
    Forward,
    /// Forward and backward (International, Brazilian, Russian).
    ForwardAndBackward,
    /// Forward only, and never a king (Italian).
    ForwardMenOnly,
}

/// Which capture a player must choose when several are possible. Whatever the rule,
/// a capture goes on while the capturing piece can capture again.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CaptureChoice {
    /// Any capture (English, Russian).
    Free,
    /// One that captures the most pieces; kings count as one (International,
    /// Brazilian).
    MostPieces,
    /// The most pieces (*ley de cantidad*), then the most kings (*ley de calidad*),
    /// then free (Spanish).
    MostPiecesThenKings,
    /// The most pieces; then with a king rather than a man; then the most kings; then
    /// the one meeting a king earliest (Italian).
    Italian,
}

/// When a man reaching the far row during a capture is crowned.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Crowning {
    /// At the end of the move, only if it ends on the far row. A man that only passes
    /// the row goes on capturing as a man (International, Brazilian); where men capture
    /// forward only, reaching the row ends the capture anyway (English, Italian,
    /// Spanish).
    EndOfMove,
    /// At once: it goes on capturing as a king in the same move (Russian).
    AtOnce,
}

/// The rules that tell the rule sets apart. Everything else is common: men move one
/// square diagonally forward, captures are compulsory, a capture is one whole sequence,
/// a piece is never jumped twice and captured pieces leave the board (and stop
/// blocking) only when the move is over, a player without a legal move loses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Rules {
    /// 8×8 or 10×10.
    pub board: BoardSize,
    /// Where square 1 is.
    pub orientation: Orientation,
    /// Who makes the first move of a game.
    pub first_to_move: Side,
    /// Short or flying kings.
    pub kings: KingRange,
    /// Which way men capture, and what.
    pub man_captures: ManCaptures,
    /// Which capture must be chosen.
    pub capture_choice: CaptureChoice,
    /// When a man is crowned during a capture.
    pub crowning: Crowning,
}

impl Rules {
    /// English draughts (EDA / WCDF): short kings, men capture forward, free choice.
    pub const ENGLISH: Rules = Rules {
        board: BoardSize::Eight,
        orientation: Orientation::A1Dark,
        first_to_move: Side::Black,
        kings: KingRange::OneSquare,
        man_captures: ManCaptures::Forward,
        capture_choice: CaptureChoice::Free,
        crowning: Crowning::EndOfMove,
    };

    /// International draughts (FMJD): flying kings, men capture backward, majority.
    pub const INTERNATIONAL: Rules = Rules {
        board: BoardSize::Ten,
        orientation: Orientation::A1Dark,
        first_to_move: Side::White,
        kings: KingRange::Flying,
        man_captures: ManCaptures::ForwardAndBackward,
        capture_choice: CaptureChoice::MostPieces,
        crowning: Crowning::EndOfMove,
    };

    /// Brazilian draughts: the international rules on 8×8.
    pub const BRAZILIAN: Rules = Rules {
        board: BoardSize::Eight,
        ..Rules::INTERNATIONAL
    };

    /// Russian draughts: flying kings, free choice, crowned during the capture.
    pub const RUSSIAN: Rules = Rules {
        board: BoardSize::Eight,
        capture_choice: CaptureChoice::Free,
        crowning: Crowning::AtOnce,
        ..Rules::INTERNATIONAL
    };

    /// Spanish draughts: a1 light, flying kings, men capture forward, cantidad then
    /// calidad.
    pub const SPANISH: Rules = Rules {
        board: BoardSize::Eight,
        orientation: Orientation::A1Light,
        first_to_move: Side::White,
        kings: KingRange::Flying,
        man_captures: ManCaptures::Forward,
        capture_choice: CaptureChoice::MostPiecesThenKings,
        crowning: Crowning::EndOfMove,
    };

    /// Italian draughts: a1 light, short kings, men never capture kings, the Italian
    /// precedence rules.
    pub const ITALIAN: Rules = Rules {
        board: BoardSize::Eight,
        orientation: Orientation::A1Light,
        first_to_move: Side::White,
        kings: KingRange::OneSquare,
        man_captures: ManCaptures::ForwardMenOnly,
        capture_choice: CaptureChoice::Italian,
        crowning: Crowning::EndOfMove,
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_and_game_types_round_trip() {
        for r in RuleSet::ALL {
            assert_eq!(r.id().parse::<RuleSet>(), Ok(r));
            assert_eq!(RuleSet::from_game_type(r.game_type()), Some(r));
            assert_eq!(r.to_string(), r.id());
        }
        assert!("checkers".parse::<RuleSet>().is_err());
        assert_eq!(RuleSet::from_game_type(23), None);
        assert_eq!(BoardSize::Ten.squares(), 50);
        assert_eq!(BoardSize::Eight.pieces_per_side(), 12);
        assert_eq!(BoardSize::Ten.pieces_per_side(), 20);
    }
}
