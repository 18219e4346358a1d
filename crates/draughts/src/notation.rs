//! PDN move text: `11-15`, `15x24`, and `15x24x31` when the landing squares are needed
//! to tell two captures apart; algebraic squares (`c3-d4`, `c3:e5`) as the Russian
//! display option.

use core::fmt;
use core::str::FromStr;

use arrayvec::ArrayVec;
use tablero_core::Refusal;

use crate::RuleSet;
use crate::moves::MAX_JUMPS;
use crate::{Draughts, Move, SquareSet};

/// The most squares a move's text can name: the origin and every landing square.
const MAX_SQUARES: usize = MAX_JUMPS + 1;

/// A move as PDN writes it, not yet checked against a position: the squares it names
/// and whether it is written as a capture.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct PdnMove {
    squares: ArrayVec<u8, MAX_SQUARES>,
    capture: bool,
}

/// Why move text was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PdnMoveError {
    /// Not of the form `11-15`, `15x24` or `15x24x31`.
    #[error("malformed move {text:?}: {reason}")]
    Malformed {
        /// The text given.
        text: String,
        /// What is wrong.
        reason: &'static str,
    },
    /// Well-formed, but no legal move matches; `refusal` names the rule.
    #[error("illegal move {text}: {refusal}")]
    Illegal {
        /// The text given.
        text: String,
        /// The rule that forbids it.
        refusal: Box<Refusal>,
    },
    /// A square number beyond the board of the rule set in play.
    #[error(
        "move {text}: square {square} is not on the board ({rule_set} draughts numbers its squares 1 to {last})"
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
    /// Several legal moves match; their full texts are listed.
    #[error("ambiguous move {text}: it could be {}", candidates.join(" or "))]
    Ambiguous {
        /// The text given.
        text: String,
        /// Every legal move it could be, with all landing squares.
        candidates: Vec<String>,
    },
}

impl PdnMoveError {
    /// The refusal with its stable code: `malformed_move`, `ambiguous_move` or the
    /// rule broken.
    #[must_use]
    pub fn refusal(&self) -> Refusal {
        match self {
            PdnMoveError::Malformed { text, reason } => Refusal::MalformedMove {
                text: text.clone(),
                reason: (*reason).to_owned(),
            },
            PdnMoveError::OffBoard { text, .. } => Refusal::MalformedMove {
                text: text.clone(),
                reason: self.to_string(),
            },
            PdnMoveError::Illegal { refusal, .. } => (**refusal).clone(),
            PdnMoveError::Ambiguous { text, candidates } => Refusal::AmbiguousMove {
                text: text.clone(),
                candidates: candidates.clone(),
            },
        }
    }
}

impl PdnMove {
    /// The squares named, origin first.
    #[must_use]
    pub fn squares(&self) -> &[u8] {
        &self.squares
    }

    /// Whether it is written as a capture (`x` or `:`).
    #[must_use]
    pub const fn is_capture(&self) -> bool {
        self.capture
    }

    /// How `m` is written in `pos`: `from-to`, `fromxto`, or every landing square when
    /// another legal capture goes from the same square to the same square.
    #[must_use]
    pub fn from_move(pos: &Draughts, m: Move) -> PdnMove {
        let mut squares = ArrayVec::new();
        squares.push(m.from());
        let needs_path = m.is_capture()
            && pos.legal_moves().iter().any(|&o| {
                o != m && o.origin_bit() == m.origin_bit() && o.target_bit() == m.target_bit()
            });
        if needs_path {
            for n in m.landings().into_iter().take(MAX_SQUARES - 1) {
                squares.push(n);
            }
        } else {
            squares.push(m.to());
        }
        PdnMove {
            squares,
            capture: m.is_capture(),
        }
    }

    /// The legal move of `pos` this text names.
    ///
    /// A capture may be written with its origin and destination only, with every
    /// landing square, or with some of them; a capture written with `-` is accepted
    /// when no step matches.
    ///
    /// # Errors
    ///
    /// [`PdnMoveError::OffBoard`] for a square beyond this board,
    /// [`PdnMoveError::Illegal`] naming the rule when no legal move matches, [`PdnMoveError::Ambiguous`]
    /// when several do.
    pub fn to_move(&self, pos: &Draughts) -> Result<Move, PdnMoveError> {
        let rule_set = pos.rule_set();
        let last = rule_set.rules().board.squares();
        if let Some(&square) = self.squares.iter().find(|&&n| n > last) {
            return Err(PdnMoveError::OffBoard {
                text: self.to_string(),
                square,
                rule_set: rule_set.id(),
                last,
            });
        }
        let moves = pos.legal_moves();
        let (Some(&from), Some(&to)) = (self.squares.first(), self.squares.last()) else {
            return Err(self.illegal(pos));
        };
        let ends = |m: &&Move| m.from() == from && m.to() == to;
        let mut candidates: Vec<Move> = moves
            .iter()
            .filter(ends)
            .filter(|m| m.is_capture() == self.capture)
            .copied()
            .collect();
        if candidates.is_empty() && !self.capture {
            candidates = moves.iter().filter(ends).copied().collect();
        }
        let landings = &self.squares[1..];
        if candidates.len() > 1 || landings.len() > 1 {
            // The squares as written may be the whole path of one capture (`24x1` is
            // the whole path of a single jump even when a longer capture also goes from
            // 24 to 1): that one is meant.
            let by_jumps = self.captured_by_jumps(pos);
            let exact: Vec<Move> = candidates
                .iter()
                .filter(|m| by_jumps == Some(m.captured()) || m.landings() == landings)
                .copied()
                .collect();
            if exact.len() == 1 {
                candidates = exact;
            } else if landings.len() > 1 {
                candidates.retain(|m| is_subsequence(landings, &m.landings()));
            }
        }
        match candidates.as_slice() {
            [] => Err(self.illegal(pos)),
            [m] => Ok(*m),
            _ => Err(PdnMoveError::Ambiguous {
                text: self.to_string(),
                candidates: candidates.iter().map(|m| m.full_text()).collect(),
            }),
        }
    }

    /// The refusal of this text in `pos`, naming the rule.
    fn illegal(&self, pos: &Draughts) -> PdnMoveError {
        PdnMoveError::Illegal {
            text: self.to_string(),
            refusal: Box::new(pos.explain_refusal(&self.squares, self.capture)),
        }
    }

    /// The pieces captured by jumping along the squares as written, if every leg is a
    /// diagonal over exactly one opposing piece.
    fn captured_by_jumps(&self, pos: &Draughts) -> Option<SquareSet> {
        let rules = pos.rule_set().rules();
        let mover = pos.piece_at(*self.squares.first()?)?;
        let mut captured = SquareSet::EMPTY;
        for leg in self.squares.windows(2) {
            let (c0, r0) = rules.square_coords(leg[0])?;
            let (c1, r1) = rules.square_coords(leg[1])?;
            let (dc, dr) = (i32::from(c1) - i32::from(c0), i32::from(r1) - i32::from(r0));
            if dc.abs() != dr.abs() || dc == 0 {
                return None;
            }
            let mut victim = None;
            for k in 1..dc.abs() {
                let column = i32::from(c0) + k * dc.signum();
                let row = i32::from(r0) + k * dr.signum();
                let n = rules.square_at(u8::try_from(column).ok()?, u8::try_from(row).ok()?)?;
                if n == self.squares[0] {
                    continue;
                }
                match pos.piece_at(n) {
                    None => {}
                    Some(p)
                        if p.side != mover.side && victim.is_none() && !captured.contains(n) =>
                    {
                        victim = Some(n);
                    }
                    Some(_) => return None,
                }
            }
            captured.insert(victim?);
        }
        Some(captured)
    }
}

pub(crate) fn is_subsequence(wanted: &[u8], path: &[u8]) -> bool {
    let mut rest = path.iter();
    wanted.iter().all(|w| rest.any(|p| p == w))
}

/// The number of the square named algebraically (`c3`: file letter from `a`, rank from
/// 1 on White's side) on `rule_set`'s board.
///
/// # Errors
///
/// What is wrong: not of the form `c3`, off the board, or a light square.
pub(crate) fn algebraic_square(rule_set: RuleSet, text: &str) -> Result<u8, &'static str> {
    let rules = rule_set.rules();
    let width = i32::from(rules.board.width());
    let mut chars = text.trim().chars();
    let (Some(file), rank) = (chars.next(), chars.as_str()) else {
        return Err("empty square");
    };
    if !file.is_ascii_alphabetic() {
        return Err("expected squares like c3");
    }
    let column = i32::from(file.to_ascii_lowercase() as u8) - i32::from(b'a');
    let rank: i32 = match rank.parse() {
        Ok(r) if rank.len() <= 2 && rank.bytes().all(|b| b.is_ascii_digit()) => r,
        _ => return Err("expected squares like c3"),
    };
    if !(0..width).contains(&column) || !(1..=width).contains(&rank) {
        return Err("square off the board");
    }
    // Both are within 0..width, checked above.
    let at = |v: i32| u8::try_from(v).unwrap_or(u8::MAX);
    rules
        .square_at(at(column), at(width - rank))
        .ok_or("a light square (pieces stand on dark squares)")
}

impl FromStr for PdnMove {
    type Err = PdnMoveError;

    fn from_str(text: &str) -> Result<PdnMove, PdnMoveError> {
        let bad = |reason| PdnMoveError::Malformed {
            text: text.to_owned(),
            reason,
        };
        let trimmed = text.trim();
        if trimmed.is_empty() {
            return Err(bad("empty"));
        }
        let capture = trimmed.contains(['x', 'X', ':']);
        if capture && trimmed.contains('-') {
            return Err(bad("mixes '-' with 'x'"));
        }
        let mut squares = ArrayVec::new();
        for part in trimmed.split(['-', 'x', 'X', ':']) {
            if part.is_empty() || part.len() > 2 || !part.bytes().all(|b| b.is_ascii_digit()) {
                return Err(bad(
                    "expected square numbers separated by '-' or 'x', like 11-15 or 15x24",
                ));
            }
            let n: u8 = part.parse().map_err(|_| bad("not a square number"))?;
            if n == 0 || n > SquareSet::MAX_SQUARE {
                return Err(bad("no draughts board numbers a square above 50"));
            }
            if squares.try_push(n).is_err() {
                return Err(bad("too many squares"));
            }
        }
        if squares.len() < 2 {
            return Err(bad("a move names at least two squares"));
        }
        if !capture && squares.len() > 2 {
            return Err(bad("a step names two squares; write captures with 'x'"));
        }
        Ok(PdnMove { squares, capture })
    }
}

impl fmt::Display for PdnMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sep = if self.capture { "x" } else { "-" };
        for (i, n) in self.squares.iter().enumerate() {
            if i > 0 {
                f.write_str(sep)?;
            }
            write!(f, "{n}")?;
        }
        Ok(())
    }
}

impl Draughts {
    /// Parses and resolves move text: PDN numbers (`11-15`, `15x24`, `15x24x31`) or
    /// algebraic squares (`c3-d4`, `c3:e5`, `c3:e5:g3`).
    ///
    /// # Errors
    ///
    /// [`PdnMoveError`]: malformed text, no such legal move, or an ambiguous one.
    pub fn parse_move(&self, text: &str) -> Result<Move, PdnMoveError> {
        let pdn = if text
            .trim_start()
            .starts_with(|c: char| c.is_ascii_alphabetic())
        {
            self.algebraic_to_pdn(text)?
        } else {
            text.parse()?
        };
        pdn.to_move(self)
    }

    /// `m` in PDN: `11-15`, `15x24`, or `15x24x31` when needed to tell it from another
    /// legal capture.
    #[must_use]
    pub fn move_text(&self, m: Move) -> String {
        PdnMove::from_move(self, m).to_string()
    }

    /// `m` with algebraic squares, the Russian way: `c3-d4`, `c3:e5`, and every landing
    /// square when needed (`c1:e3:g5`).
    #[must_use]
    pub fn algebraic(&self, m: Move) -> String {
        let pdn = PdnMove::from_move(self, m);
        let sep = if pdn.capture { ":" } else { "-" };
        let rules = self.rule_set().rules();
        let width = rules.board.width();
        pdn.squares
            .iter()
            .map(|&n| {
                let (c, r) = rules.square_coords(n).unwrap_or((0, 0));
                format!("{}{}", char::from(b'a' + c), width - r)
            })
            .collect::<Vec<_>>()
            .join(sep)
    }

    fn algebraic_to_pdn(&self, text: &str) -> Result<PdnMove, PdnMoveError> {
        let bad = |reason| PdnMoveError::Malformed {
            text: text.to_owned(),
            reason,
        };
        let trimmed = text.trim();
        let capture = trimmed.contains([':', 'x', 'X']);
        if capture && trimmed.contains('-') {
            return Err(bad("mixes '-' with ':'"));
        }
        let mut squares = ArrayVec::new();
        for part in trimmed.split(['-', ':', 'x', 'X']) {
            let n = algebraic_square(self.rule_set(), part).map_err(bad)?;
            if squares.try_push(n).is_err() {
                return Err(bad("too many squares"));
            }
        }
        if squares.len() < 2 {
            return Err(bad("a move names at least two squares"));
        }
        if !capture && squares.len() > 2 {
            return Err(bad("a step names two squares"));
        }
        Ok(PdnMove { squares, capture })
    }
}
