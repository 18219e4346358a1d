//! Hub protocol text: Scan's position string (`W` + one letter per square) and Hub
//! moves (`32-28`, `28x19x23`: origin, destination, then every captured square).
//!
//! Scan plays international draughts only, where Hub squares are the PDN squares. On
//! 8×8 boards tablero follows pydraughts' `HubEngine`, the Hub client that plays them:
//!
//! | rule set | position string | move squares |
//! |---|---|---|
//! | international, italian, spanish | square *n* is letter *n*, colours as they are | PDN numbers |
//! | english | square *n* is letter 33 − *n*, colours swapped (Black, who starts, is `w`/`W`) | PDN numbers |
//! | russian, brazilian | square *n* is letter *n* | rows counted from White's side: 1 is a1, 5 is b2, 29 is b8 |
//!
//! (pydraughts describes every 8×8 position on its own board, with the first player
//! at the bottom and letter 1 the top-left dark square, and writes moves in the
//! numbering of the rule set; Spanish is not in pydraughts and follows Italian.)

use core::fmt;
use core::str::FromStr;

use tablero_core::Side;

use crate::{BoardSize, Draughts, Move, Piece, Role, RuleSet, Setup, SquareSet};

/// A move as Hub writes it, not yet checked against a position: the squares in Hub
/// numbering (see the module page), origin, destination and the captured pieces.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct HubMove {
    from: u8,
    to: u8,
    captured: Vec<u8>,
    capture: bool,
}

/// Why Hub text was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HubError {
    /// Not of the form `32-28` or `28x19x23`.
    #[error("malformed Hub move {text:?}: {reason}")]
    Malformed {
        /// The text given.
        text: String,
        /// What is wrong.
        reason: &'static str,
    },
    /// Well-formed, but no legal move matches.
    #[error("no legal move {0} in this position")]
    Illegal(String),
    /// A square number beyond the board of the rule set in play.
    #[error(
        "Hub move {text}: square {square} is not on the board ({rule_set} draughts numbers its squares 1 to {last})"
    )]
    OffBoard {
        /// The text given.
        text: String,
        /// The square named.
        square: u8,
        /// The rule set's id.
        rule_set: &'static str,
        /// Its last square.
        last: u8,
    },
    /// A capture written without its captured pieces, and several legal captures
    /// match; their Hub texts are listed.
    #[error("ambiguous Hub move {text}: it could be {}", candidates.join(" or "))]
    Ambiguous {
        /// The text given.
        text: String,
        /// Every legal move it could be, in Hub text.
        candidates: Vec<String>,
    },
    /// A position string of the wrong shape.
    #[error("bad Hub position {text:?}: {reason}")]
    BadPosition {
        /// The text given (cut short when long).
        text: String,
        /// What is wrong.
        reason: String,
    },
}

/// How a rule set numbers squares in one kind of Hub text. Each numbering is its own
/// inverse.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Numbering {
    /// The PDN number.
    Same,
    /// The board turned half round: `33 - n`.
    Rotated,
    /// Rows counted from the other side, squares within a row kept in order.
    RowsReversed,
}

impl Numbering {
    fn map(self, n: u8, board: BoardSize) -> u8 {
        let half = board.row_squares();
        match self {
            Numbering::Same => n,
            Numbering::Rotated => board.squares() + 1 - n,
            Numbering::RowsReversed => {
                let (row, index) = ((n - 1) / half, (n - 1) % half);
                (board.width() - 1 - row) * half + index + 1
            }
        }
    }
}

fn position_numbering(rule_set: RuleSet) -> Numbering {
    match rule_set {
        RuleSet::English => Numbering::Rotated,
        _ => Numbering::Same,
    }
}

fn move_numbering(rule_set: RuleSet) -> Numbering {
    match rule_set {
        RuleSet::Russian | RuleSet::Brazilian => Numbering::RowsReversed,
        _ => Numbering::Same,
    }
}

/// Whether the position string calls the first player (Black in English draughts)
/// white.
fn colours_swapped(rule_set: RuleSet) -> bool {
    rule_set == RuleSet::English
}

fn hub_side(side: Side, rule_set: RuleSet) -> Side {
    if colours_swapped(rule_set) {
        side.other()
    } else {
        side
    }
}

impl HubMove {
    /// The origin, in Hub numbering.
    #[must_use]
    pub const fn from_square(&self) -> u8 {
        self.from
    }

    /// The destination, in Hub numbering.
    #[must_use]
    pub const fn to_square(&self) -> u8 {
        self.to
    }

    /// The captured squares as written, in Hub numbering.
    #[must_use]
    pub fn captured(&self) -> &[u8] {
        &self.captured
    }

    /// Whether it is written as a capture.
    #[must_use]
    pub const fn is_capture(&self) -> bool {
        self.capture
    }

    /// How Hub writes `m`, a legal move of `pos`: captured squares in increasing
    /// order.
    #[must_use]
    pub fn from_move(pos: &Draughts, m: Move) -> HubMove {
        let rule_set = pos.rule_set();
        let board = rule_set.rules().board;
        let numbering = move_numbering(rule_set);
        let mut captured: Vec<u8> = m
            .captured()
            .iter()
            .map(|n| numbering.map(n, board))
            .collect();
        captured.sort_unstable();
        HubMove {
            from: numbering.map(m.from(), board),
            to: numbering.map(m.to(), board),
            captured,
            capture: m.is_capture(),
        }
    }

    /// The legal move of `pos` this text names: the one with this origin,
    /// destination and set of captured pieces. A capture written without its
    /// captured pieces is accepted when only one legal capture fits.
    ///
    /// # Errors
    ///
    /// [`HubError::OffBoard`] for a square beyond this board, [`HubError::Illegal`]
    /// when no legal move matches, [`HubError::Ambiguous`] when several do.
    pub fn to_move(&self, pos: &Draughts) -> Result<Move, HubError> {
        let rule_set = pos.rule_set();
        let board = rule_set.rules().board;
        let last = board.squares();
        let squares = [self.from, self.to]
            .into_iter()
            .chain(self.captured.clone());
        if let Some(square) = squares.into_iter().find(|&n| n == 0 || n > last) {
            return Err(HubError::OffBoard {
                text: self.to_string(),
                square,
                rule_set: rule_set.id(),
                last,
            });
        }
        let numbering = move_numbering(rule_set);
        let from = numbering.map(self.from, board);
        let to = numbering.map(self.to, board);
        let captured: SquareSet = self
            .captured
            .iter()
            .map(|&n| numbering.map(n, board))
            .collect();
        if captured.len() != self.captured.len() {
            // A square listed twice names no move.
            return Err(HubError::Illegal(self.to_string()));
        }
        let candidates: Vec<Move> = pos
            .legal_moves()
            .iter()
            .filter(|m| m.from() == from && m.to() == to && m.is_capture() == self.capture)
            .filter(|m| self.captured.is_empty() || m.captured() == captured)
            .copied()
            .collect();
        match candidates.as_slice() {
            [] => Err(HubError::Illegal(self.to_string())),
            [m] => Ok(*m),
            _ => Err(HubError::Ambiguous {
                text: self.to_string(),
                candidates: candidates
                    .iter()
                    .map(|&m| HubMove::from_move(pos, m).to_string())
                    .collect(),
            }),
        }
    }
}

impl FromStr for HubMove {
    type Err = HubError;

    /// `32-28`, `28x19x23` (origin, destination, captured squares in any order) or a
    /// capture with its ends only, `28x19`.
    fn from_str(text: &str) -> Result<HubMove, HubError> {
        let bad = |reason| HubError::Malformed {
            text: text.to_owned(),
            reason,
        };
        let trimmed = text.trim();
        if trimmed.is_empty() {
            return Err(bad("empty"));
        }
        let capture = trimmed.contains(['x', 'X']);
        if capture && trimmed.contains('-') {
            return Err(bad("mixes '-' with 'x'"));
        }
        let mut squares = Vec::new();
        for part in trimmed.split(['-', 'x', 'X']) {
            if part.is_empty() || part.len() > 2 || !part.bytes().all(|b| b.is_ascii_digit()) {
                return Err(bad(
                    "expected square numbers separated by '-' or 'x', like 32-28 or 28x19x23",
                ));
            }
            let n: u8 = part.parse().map_err(|_| bad("not a square number"))?;
            if n == 0 || n > SquareSet::MAX_SQUARE {
                return Err(bad("no draughts board numbers a square above 50"));
            }
            squares.push(n);
        }
        if squares.len() < 2 {
            return Err(bad("a move names at least two squares"));
        }
        if !capture && squares.len() > 2 {
            return Err(bad("a step names two squares; write captures with 'x'"));
        }
        Ok(HubMove {
            from: squares[0],
            to: squares[1],
            captured: squares[2..].to_vec(),
            capture,
        })
    }
}

impl fmt::Display for HubMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sep = if self.capture { "x" } else { "-" };
        write!(f, "{}{sep}{}", self.from, self.to)?;
        for n in &self.captured {
            write!(f, "{sep}{n}")?;
        }
        Ok(())
    }
}

impl Draughts {
    /// The position as a Hub position string: `W` or `B` for the side to move, then
    /// one letter per square (`w`, `b` men, `W`, `B` kings, `e` empty), 51 letters on
    /// 10×10 and 33 on 8×8, in the numbering of the module page.
    #[must_use]
    pub fn hub_position(&self) -> String {
        let rule_set = self.rule_set();
        let board = rule_set.rules().board;
        let numbering = position_numbering(rule_set);
        let mut text = String::with_capacity(usize::from(board.squares()) + 1);
        text.push(match hub_side(self.turn(), rule_set) {
            Side::White => 'W',
            Side::Black => 'B',
        });
        for letter in 1..=board.squares() {
            let c = match self.piece_at(numbering.map(letter, board)) {
                None => "e".to_owned(),
                Some(piece) => {
                    let shown = Piece {
                        side: hub_side(piece.side, rule_set),
                        role: piece.role,
                    };
                    // Piece's Display is exactly the Hub letters.
                    shown.to_string()
                }
            };
            text.push_str(&c);
        }
        text
    }

    /// The position of a Hub position string under `rule_set`.
    ///
    /// # Errors
    ///
    /// [`HubError::BadPosition`]: the wrong length for the board, a letter other than
    /// `W`/`B` for the side to move or other than `w`, `b`, `W`, `B`, `e` for a square,
    /// or a placement the rules refuse (a man on its crowning row, too many pieces).
    pub fn from_hub_position(text: &str, rule_set: RuleSet) -> Result<Draughts, HubError> {
        let bad = |reason: String| HubError::BadPosition {
            text: text.chars().take(60).collect(),
            reason,
        };
        let board = rule_set.rules().board;
        let letters: Vec<char> = text.trim().chars().collect();
        let expected = usize::from(board.squares()) + 1;
        if letters.len() != expected {
            return Err(bad(format!(
                "{} letters, expected {expected} for {rule_set} draughts (the side to move and one per square)",
                letters.len()
            )));
        }
        let turn = match letters[0] {
            'W' | 'w' => Side::White,
            'B' | 'b' => Side::Black,
            other => {
                return Err(bad(format!("side to move {other:?}: expected W or B")));
            }
        };
        let mut setup = Setup::empty(hub_side(turn, rule_set));
        let numbering = position_numbering(rule_set);
        for (letter, &c) in (1..=board.squares()).zip(&letters[1..]) {
            let square = numbering.map(letter, board);
            let (side, role) = match c {
                'e' | 'E' | '.' => continue,
                'w' => (Side::White, Role::Man),
                'W' => (Side::White, Role::King),
                'b' => (Side::Black, Role::Man),
                'B' => (Side::Black, Role::King),
                other => {
                    return Err(bad(format!(
                        "letter {letter} is {other:?}: expected w, b, W, B or e"
                    )));
                }
            };
            let side = hub_side(side, rule_set);
            match role {
                Role::Man => setup.men[side.index()].insert(square),
                Role::King => setup.kings[side.index()].insert(square),
            };
        }
        Draughts::from_setup(&setup, rule_set).map_err(|e| bad(e.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tablero_core::Position;

    #[test]
    fn start_positions_read_as_pydraughts_writes_them() {
        let ten = format!("W{}{}{}", "b".repeat(20), "e".repeat(10), "w".repeat(20));
        let eight = format!("W{}{}{}", "b".repeat(12), "e".repeat(8), "w".repeat(12));
        for rule_set in RuleSet::ALL {
            let expected = if rule_set == RuleSet::International {
                &ten
            } else {
                &eight
            };
            let start = Draughts::new(rule_set);
            assert_eq!(&start.hub_position(), expected, "{rule_set}");
            assert_eq!(
                Draughts::from_hub_position(expected, rule_set).as_ref(),
                Ok(&start),
                "{rule_set}"
            );
        }
    }

    #[test]
    fn first_moves_in_hub_numbering() {
        // pydraughts' Hub moves from the start: international 31-26 ..., English
        // (Black first) 9-13 ..., Russian 9-13 (a3-b4) ..., Italian 21-17 ...
        let cases = [
            (RuleSet::International, "31-26", "31-26"),
            (RuleSet::English, "9-13", "9-13"),
            (RuleSet::Russian, "9-13", "21-17"),
            (RuleSet::Brazilian, "12-16", "24-20"),
            (RuleSet::Italian, "21-17", "21-17"),
        ];
        for (rule_set, hub, pdn) in cases {
            let pos = Draughts::new(rule_set);
            let m = hub
                .parse::<HubMove>()
                .and_then(|h| h.to_move(&pos))
                .expect("a legal first move");
            assert_eq!(pos.move_text(m), pdn, "{rule_set}");
            assert_eq!(HubMove::from_move(&pos, m).to_string(), hub, "{rule_set}");
        }
    }

    #[test]
    fn captures_list_every_captured_piece() {
        // White man 28 takes 23 and 19 ... a two-piece capture 28x10 via 19 in
        // international draughts.
        let pos =
            Draughts::from_fen("W:W28:B23,13", RuleSet::International).expect("a legal position");
        let m = pos.legal_moves()[0];
        let hub = HubMove::from_move(&pos, m);
        assert_eq!(hub.to_string(), "28x8x13x23");
        assert_eq!(
            "28x8x23x13".parse::<HubMove>().map(|h| h.to_move(&pos)),
            Ok(Ok(m))
        );
        assert_eq!(
            "28x8".parse::<HubMove>().map(|h| h.to_move(&pos)),
            Ok(Ok(m))
        );
        assert!(matches!(
            "28x8x23".parse::<HubMove>().map(|h| h.to_move(&pos)),
            Ok(Err(HubError::Illegal(_)))
        ));
        assert!(matches!(
            "28x8x23x23x13".parse::<HubMove>().map(|h| h.to_move(&pos)),
            Ok(Err(HubError::Illegal(_)))
        ));
    }

    #[test]
    fn malformed_moves_and_positions_say_why() {
        for bad in [
            "", "32", "32-28-23", "32-x28", "a-b", "0-5", "51-46", "123-4",
        ] {
            assert!(
                matches!(bad.parse::<HubMove>(), Err(HubError::Malformed { .. })),
                "{bad}"
            );
        }
        let short = Draughts::from_hub_position("Wbbb", RuleSet::International);
        assert!(
            short
                .as_ref()
                .is_err_and(|e| e.to_string().contains("4 letters, expected 51")),
            "{short:?}"
        );
        let side = format!("X{}", "e".repeat(50));
        assert!(Draughts::from_hub_position(&side, RuleSet::International).is_err());
        let letter = format!("W{}q", "e".repeat(49));
        assert!(
            Draughts::from_hub_position(&letter, RuleSet::International)
                .is_err_and(|e| e.to_string().contains("letter 50"))
        );
        // A white man on its crowning row.
        let crowned = format!("Ww{}", "e".repeat(49));
        assert!(Draughts::from_hub_position(&crowned, RuleSet::International).is_err());
    }

    #[test]
    fn positions_and_moves_round_trip_in_every_rule_set() {
        for rule_set in RuleSet::ALL {
            let mut pos = Draughts::new(rule_set);
            for ply in 0..40 {
                let text = pos.hub_position();
                assert_eq!(
                    Draughts::from_hub_position(&text, rule_set).as_ref(),
                    Ok(&pos),
                    "{rule_set} ply {ply}"
                );
                let moves = pos.legal_moves();
                let Some(&chosen) = moves.get((ply * 7) % moves.len().max(1)) else {
                    break;
                };
                for &m in moves.iter() {
                    let hub = HubMove::from_move(&pos, m);
                    let back = hub.to_string().parse::<HubMove>().map(|h| h.to_move(&pos));
                    assert_eq!(back, Ok(Ok(m)), "{rule_set} {hub}");
                }
                pos.play_unchecked(chosen);
            }
        }
    }

    #[test]
    fn english_swaps_colours_and_turns_the_board() {
        let pos = Draughts::from_fen("B:WK1,30:B5,K32", RuleSet::English).expect("legal");
        let text = pos.hub_position();
        // Black to move is W; black's man on 5 is letter 28 as 'w', its king on 32 is
        // letter 1 as 'W'; white's king on 1 is letter 32 as 'B', its man on 30 letter 3.
        assert_eq!(&text[..1], "W");
        assert_eq!(text.as_bytes()[1], b'W');
        assert_eq!(text.as_bytes()[3], b'b');
        assert_eq!(text.as_bytes()[28], b'w');
        assert_eq!(text.as_bytes()[32], b'B');
    }
}
