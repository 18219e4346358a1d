//! PDN FEN: `W:W21,22,K32:B1,2,3`.
//!
//! Input is lenient where PDN files in the wild are: ranges (`1-12`, `K1-3`), the side
//! letters in either case, spaces around items, an empty piece list, a trailing period,
//! and the `H<n>` and `F<n>` clock fields of some programs (checked, then ignored).
//! Output lists every square in increasing order, kings marked with `K`.

use core::fmt;
use core::str::FromStr;

use tablero_core::Side;

use crate::{Draughts, PositionError, RuleSet, Setup, SquareSet};

/// Why a PDN FEN was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FenError {
    /// Nothing but spaces.
    #[error("empty FEN (expected something like W:W31-50:B1-20)")]
    Empty,
    /// The first field is not `W` or `B`.
    #[error("side-to-move field {0:?}: expected W or B")]
    Turn(String),
    /// A required field is missing.
    #[error("missing {0} field (expected something like W:W31-50:B1-20)")]
    Missing(&'static str),
    /// A field that is none of `W…`, `B…`, `H…`, `F…`, or one given twice.
    #[error("field {value:?}: {reason}")]
    UnknownField {
        /// The field.
        value: String,
        /// What is wrong.
        reason: &'static str,
    },
    /// A bad item in a field.
    #[error("{field} field {value:?}: {reason}")]
    Field {
        /// `white pieces`, `black pieces`, `halfmove clock`, `move number`.
        field: &'static str,
        /// The whole field.
        value: String,
        /// What is wrong, naming the item.
        reason: String,
    },
    /// Well-formed, but not a legal position of the rule set.
    #[error("{0}")]
    Position(#[from] PositionError),
}

/// Parses a square number of a piece list.
fn square(text: &str) -> Result<u8, String> {
    let digits = text.trim();
    if digits.is_empty() || digits.len() > 2 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("{text:?} is not a square number"));
    }
    match digits.parse::<u8>() {
        Ok(n) if (1..=SquareSet::MAX_SQUARE).contains(&n) => Ok(n),
        _ => Err(format!("square {digits} is out of range (1-50)")),
    }
}

/// Parses the squares of a `W…` or `B…` field (without its letter) into men and kings.
fn piece_list(list: &str) -> Result<(SquareSet, SquareSet), String> {
    let mut men = SquareSet::EMPTY;
    let mut kings = SquareSet::EMPTY;
    for item in list.split(',') {
        let item = item.trim();
        if item.is_empty() {
            continue;
        }
        let (king, body) = match item.strip_prefix(['K', 'k']) {
            Some(rest) => (true, rest),
            None => (false, item),
        };
        let (first, last) = match body.split_once('-') {
            Some((a, b)) => (square(a)?, square(b)?),
            None => {
                let n = square(body)?;
                (n, n)
            }
        };
        if first > last {
            return Err(format!("range {item:?} runs backwards"));
        }
        for n in first..=last {
            if men.contains(n) || kings.contains(n) {
                return Err(format!("square {n} is listed twice"));
            }
            if king {
                kings.insert(n);
            } else {
                men.insert(n);
            }
        }
    }
    Ok((men, kings))
}

/// `fen` with the squares of its piece lists that are named algebraically (`Wa1,c1,Kd8`,
/// as pydraughts writes Russian positions) given their numbers on `rule_set`'s board;
/// anything else is left for the parser to judge.
fn numbered(fen: &str, rule_set: RuleSet) -> std::borrow::Cow<'_, str> {
    let algebraic = |item: &str| {
        item.trim_start_matches(['K', 'k'])
            .starts_with(|c: char| c.is_ascii_lowercase())
    };
    let fields: Vec<&str> = fen.split(':').collect();
    let lists = fields
        .iter()
        .skip(1)
        .filter(|f| f.starts_with(['W', 'B', 'w', 'b']));
    if !lists.clone().any(|f| f[1..].split(',').any(algebraic)) {
        return std::borrow::Cow::Borrowed(fen);
    }
    let renumbered: Vec<String> = fields
        .iter()
        .enumerate()
        .map(|(i, field)| {
            if i == 0 || !field.starts_with(['W', 'B', 'w', 'b']) {
                return (*field).to_owned();
            }
            let items: Vec<String> = field[1..]
                .split(',')
                .map(|item| {
                    let body = item.trim_start_matches(['K', 'k']);
                    let king = &item[..item.len() - body.len()];
                    match crate::notation::algebraic_square(rule_set, body) {
                        Ok(n) if algebraic(item) => format!("{king}{n}"),
                        _ => item.to_owned(),
                    }
                })
                .collect();
            format!("{}{}", &field[..1], items.join(","))
        })
        .collect();
    std::borrow::Cow::Owned(renumbered.join(":"))
}

impl FromStr for Setup {
    type Err = FenError;

    fn from_str(text: &str) -> Result<Setup, FenError> {
        let text = text.trim();
        let text = text.strip_suffix('.').unwrap_or(text).trim_end();
        if text.is_empty() {
            return Err(FenError::Empty);
        }
        let mut fields = text.split(':');
        let turn_field = fields.next().unwrap_or("").trim();
        let turn = match turn_field {
            "W" | "w" => Side::White,
            "B" | "b" => Side::Black,
            _ => return Err(FenError::Turn(turn_field.to_owned())),
        };
        let mut setup = Setup::empty(turn);
        let mut seen = [false; 2];
        for field in fields {
            let field = field.trim();
            let mut chars = field.chars();
            let letter = chars.next().map(|c| c.to_ascii_uppercase());
            let rest = chars.as_str();
            match letter {
                Some(letter @ ('W' | 'B')) => {
                    let (side, name) = if letter == 'W' {
                        (Side::White, "white pieces")
                    } else {
                        (Side::Black, "black pieces")
                    };
                    if seen[side.index()] {
                        return Err(FenError::UnknownField {
                            value: field.to_owned(),
                            reason: "a side's pieces are given twice",
                        });
                    }
                    seen[side.index()] = true;
                    let (men, kings) = piece_list(rest).map_err(|reason| FenError::Field {
                        field: name,
                        value: field.to_owned(),
                        reason,
                    })?;
                    setup.men[side.index()] = men;
                    setup.kings[side.index()] = kings;
                }
                Some(letter @ ('H' | 'F')) => {
                    let name = if letter == 'H' {
                        "halfmove clock"
                    } else {
                        "move number"
                    };
                    if rest.is_empty() || !rest.bytes().all(|b| b.is_ascii_digit()) {
                        return Err(FenError::Field {
                            field: name,
                            value: field.to_owned(),
                            reason: format!("{rest:?} is not a number"),
                        });
                    }
                }
                _ => {
                    return Err(FenError::UnknownField {
                        value: field.to_owned(),
                        reason: "expected W<squares>, B<squares>, H<number> or F<number>",
                    });
                }
            }
        }
        if !seen[Side::White.index()] {
            return Err(FenError::Missing("white pieces"));
        }
        if !seen[Side::Black.index()] {
            return Err(FenError::Missing("black pieces"));
        }
        for n in setup.pieces(Side::White).iter() {
            if setup.pieces(Side::Black).contains(n) {
                return Err(FenError::Field {
                    field: "black pieces",
                    value: format!("B{}", setup.pieces(Side::Black)),
                    reason: format!("square {n} also holds a white piece"),
                });
            }
        }
        Ok(setup)
    }
}

impl fmt::Display for Setup {
    /// `W:W21,22,K32:B1,2,3`: every square in increasing order.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.turn == Side::White { "W" } else { "B" })?;
        for side in Side::ALL {
            f.write_str(if side == Side::White { ":W" } else { ":B" })?;
            let kings = self.kings[side.index()];
            for (i, n) in self.pieces(side).iter().enumerate() {
                if i > 0 {
                    f.write_str(",")?;
                }
                if kings.contains(n) {
                    f.write_str("K")?;
                }
                write!(f, "{n}")?;
            }
        }
        Ok(())
    }
}

impl Draughts {
    /// Parses a PDN FEN and checks it against the rules of `rule_set`.
    ///
    /// # Errors
    ///
    /// [`FenError`] naming the field and the value, or the rule the position breaks.
    pub fn from_fen(fen: &str, rule_set: RuleSet) -> Result<Draughts, FenError> {
        let setup: Setup = numbered(fen, rule_set).parse()?;
        Ok(Draughts::from_setup(&setup, rule_set)?)
    }

    /// The position as a PDN FEN, every square listed in increasing order.
    #[must_use]
    pub fn fen(&self) -> String {
        self.to_setup().to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_positions() {
        for rule_set in RuleSet::ALL {
            let pos = Draughts::new(rule_set);
            let parsed = Draughts::from_fen(rule_set.start_fen(), rule_set).expect("start FEN");
            assert_eq!(pos, parsed, "{rule_set}");
            assert_eq!(Draughts::from_fen(&pos.fen(), rule_set), Ok(pos));
        }
        assert_eq!(
            Draughts::new(RuleSet::English).fen(),
            "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
        );
    }

    #[test]
    fn lenient_input_and_exact_output() {
        let setup: Setup = " w : bK3 , 1-2,, : W K31-32,29 :H0:F12. "
            .parse()
            .expect("lenient");
        assert_eq!(setup.to_string(), "W:W29,K31,K32:B1,2,K3");
        let empty: Setup = "B:W:B".parse().expect("empty lists");
        assert_eq!(empty.to_string(), "B:W:B");
    }

    #[test]
    fn errors_name_field_and_value() {
        let err = |s: &str| s.parse::<Setup>().expect_err(s).to_string();
        assert_eq!(
            err(""),
            "empty FEN (expected something like W:W31-50:B1-20)"
        );
        assert_eq!(err("X:W1:B2"), "side-to-move field \"X\": expected W or B");
        assert_eq!(
            err("W:W21,x:B1"),
            "white pieces field \"W21,x\": \"x\" is not a square number"
        );
        assert_eq!(
            err("W:W21:B1,51"),
            "black pieces field \"B1,51\": square 51 is out of range (1-50)"
        );
        assert_eq!(
            err("W:W12-3:B1"),
            "white pieces field \"W12-3\": range \"12-3\" runs backwards"
        );
        assert_eq!(
            err("W:W1,K1:B2"),
            "white pieces field \"W1,K1\": square 1 is listed twice"
        );
        assert_eq!(
            err("W:W1:B1"),
            "black pieces field \"B1\": square 1 also holds a white piece"
        );
        assert_eq!(
            err("W:W1"),
            "missing black pieces field (expected something like W:W31-50:B1-20)"
        );
        assert!(err("W:W1:B2:Q").starts_with("field \"Q\""));
        assert!(err("W:W1:B2:H1x").starts_with("halfmove clock field \"H1x\""));
        assert!(err("W:W1:W2:B3").contains("twice"));
        let pos_err = Draughts::from_fen("W:W33:B1", RuleSet::Russian).expect_err("33");
        assert_eq!(
            pos_err.to_string(),
            "square 33 does not exist in russian draughts (squares 1-32)"
        );
        let pos_err = Draughts::from_fen("W:W2:B10", RuleSet::English).expect_err("crown");
        assert_eq!(
            pos_err.to_string(),
            "white man on square 2, its crowning row (it would be a king)"
        );
        assert!(Draughts::from_fen("W:WK2:B10", RuleSet::English).is_ok());
        assert!(Draughts::from_fen("W:W5-17:B1", RuleSet::English).is_err());
    }
}
