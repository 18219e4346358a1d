//! WXF notation: `C2.5`, `H8+7`, `R1-1`, `R+.3`, and the World Xiangqi Federation's
//! rules for three to five soldiers on a file.
//!
//! A move is four characters: what moves, a direction, and a number.
//!
//! - **Piece letters** `K A E H R C P` (general, advisor, elephant, horse, chariot,
//!   cannon, soldier).
//! - **Files** are numbered 1–9 from each player's own right: red's file 1 is ICCS
//!   file `i` and red's 9 is `a`; black's file 1 is `a` and black's 9 is `i`.
//! - **Direction** `+` forward, `-` backward, `.` sideways, all from the mover's side.
//! - **Number**: a general, chariot, cannon or soldier moving along its file gives the
//!   number of points moved; moving sideways it gives the file it goes to. A horse,
//!   elephant or advisor always changes file, so it always gives the file it goes to.
//! - **Two like pieces on one file**: the file digit is replaced by `+` for the front
//!   piece (the one nearer the enemy) and `-` for the rear one: `R+.3`, `C--1`.
//!   Advisors and elephants never use this form: on a shared file the front one can
//!   only go back and the rear one only forward, so `A6+5` and `E7-5` are already
//!   unique (the rule of the Chinese notation, which WXF transcribes).
//! - **Three soldiers on a file**: `P+` front, `P-` rear, and the middle one by its
//!   file as usual (`P3.4`).
//! - **Four or five on a file**: `++` foremost, `P+` second, `P3` middle (of five),
//!   `P-` second rearmost, `--` rearmost.
//! - **Two files each with two or more soldiers**: the soldier's file digit replaces
//!   the letter, then `+`, `-` or the digit again for the middle one: `3+.4`, `33.4`,
//!   `3-.4`, `7+.6`. Soldiers alone on their file keep the plain form (`P5+1`).
//!
//! [`Wxf`]'s `Display` writes exactly that, uppercase, with `.` for sideways.
//! Reading is lenient: lowercase letters; `B` (elephant) and `N` (horse), as in FEN;
//! `=` for `.`; full-width characters (`Ｃ２＝５`, as Chinese databases print them);
//! the tandem sign before the letter (`+R+5`, `-C=1`, an older order still used in
//! some publications) or as a lowercase `f`/`r`/`b` (front, rear, back: `rC+1`, the
//! *Xiangqi Review* style); `C25` for `C2.5`; and annotations after the move: `!`, `?`,
//! `#`, and a check mark `+`. A `+` is read as a check mark only after the fourth
//! character, since every move is exactly four characters ending in its digit:
//! `C2+7+` is `C2+7` with check, `R++5` is the front chariot forward five. Over-
//! specified moves resolve when the position makes them unique (`R2+1` with both
//! chariots on file 2 is fine if only one of them can go forward one), and ambiguous
//! ones are an error rather than a guess.
//!
//! Sources:
//! - World Xiangqi Federation, "Official Xiangqi piece names and notation":
//!   <http://www.wxf.org/xq/computer/wxf_notation.html> (piece letters, files, `+ - .`,
//!   `R+.3`, `C--1`, and the tandem-pawn cases I–IV quoted above).
//! - xqinenglish.com, "Basics of Xiangqi 04: introduction to the notation":
//!   <http://xqinenglish.com/index.php/en/basics-of-xiangqi/168-basics-of-xiangqi-chinese-chess-04-introduction-to-the-notation>
//!   (file numbering per side; `=` or nothing for `.` also seen).
//! - Jouni Tolonen, "The Chinese notation" (WXF standard):
//!   <http://www.msoworld.com/mindzine/news/orient/xqnotat.html> (number = points moved
//!   along a file, destination file otherwise).
//! - Advisors and elephants without front/rear: 象棋百科全书网《中国象棋电脑应用规范（二）：着法表示》
//!   <https://www.xqbase.com/protocol/cchess_move.htm> and zh.wikipedia 象棋 § 中式记谱法
//!   (士象不需要以前後來判斷).
//! - The `+R+5` order: games published in *Variant Chess* (Malcolm Horne, 1990s) and the
//!   wxf.ca master database's English move lists.
//!
//! Checked against published records (`tests/notation.rs`, `tests/data/`): fifteen
//! games of the wxf.ca master database, in Chinese and in its English notation; Cao
//! Yanlei – Petri Haikola (14th World Championship, 2015, from wxf.org); Malcolm Horne –
//! Boris Mirnik (*Variant Chess* 1); Li Wangxiang – Wang Bin (2004 China league). Every
//! move reads, and printing gives the published text up to its spelling: those records
//! write `=` for `.`, and some `+P+1`, `rC+1`, `N`, `B` where WXF writes `P++1`, `C-+1`,
//! `H`, `E`. None of them needs the three-to-five-soldier forms.

use core::fmt;
use core::str::FromStr;

use arrayvec::ArrayVec;
use tablero_core::{Refusal, Side};

use crate::{Move, Piece, Role, Square, Xiangqi, side_name};

/// Which way a piece moves, seen from its own side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Direction {
    /// Toward the enemy: WXF `+`, Chinese 进.
    Forward,
    /// Toward its own side: WXF `-`, Chinese 退.
    Backward,
    /// Along the rank: WXF `.`, Chinese 平.
    Sideways,
}

impl Direction {
    /// The WXF sign: `+`, `-` or `.`.
    #[must_use]
    pub const fn wxf_char(self) -> char {
        match self {
            Direction::Forward => '+',
            Direction::Backward => '-',
            Direction::Sideways => '.',
        }
    }

    /// The Chinese character: 进, 退 or 平.
    #[must_use]
    pub const fn chinese_char(self) -> char {
        match self {
            Direction::Forward => '进',
            Direction::Backward => '退',
            Direction::Sideways => '平',
        }
    }
}

/// Where a soldier stands among the soldiers of its file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Place {
    /// The one nearest the enemy.
    Front,
    /// The middle one of three.
    Middle,
    /// The one nearest its own side.
    Rear,
}

/// How a WXF move names the piece that moves: its first two characters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum WxfOrigin {
    /// `C2`: the piece of this kind on this file (1–9, from the mover's right). For
    /// three or five soldiers on the file, the middle one.
    File(Role, u8),
    /// `R+`: the front one of two (for soldiers: of two or three on the file, the second
    /// of four or five).
    Front(Role),
    /// `R-`: the rear one of two (for soldiers: of two or three, the second rearmost of
    /// four or five).
    Rear(Role),
    /// `++`: the foremost of four or five soldiers on a file.
    Foremost,
    /// `--`: the rearmost of four or five soldiers on a file.
    Rearmost,
    /// `3+`, `33`, `3-`: a soldier on this file when two files each hold two or more.
    SoldierOnFile(u8, Place),
}

/// A WXF move as text says it (`C2.5`, `R+.3`, `3+.4`), not yet checked against a
/// position: resolve it with [`Wxf::to_move`], describe a move with [`Wxf::from_move`].
///
/// Four characters: piece letter `K A E H R C P`; its file, 1–9 from the mover's right;
/// `+` forward, `-` backward, `.` sideways; then the points moved along the file
/// (general, chariot, cannon, soldier) or else the file moved to. Two like pieces on a
/// file are `R+` (front) and `R-` (rear), except advisors and elephants, which keep
/// their file. Soldiers, as the World Xiangqi Federation rules them: three on a file
/// `P+`, `P3` (middle), `P-`; four or five `++`, `P+`, `P3`, `P-`, `--`; two files each
/// with two or more `3+`, `33`, `3-` (the file replaces the letter).
///
/// [`Display`](fmt::Display) writes that canonical form. [`FromStr`] also reads
/// lowercase, `B`/`N` for `E`/`H`, `=` for `.`, full-width characters, the front/rear
/// mark before the letter (`+R+5`, `rC+1`), `C25`, and trailing annotations (`!`, `?`,
/// `#`, and a check `+` after the fourth character).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Wxf {
    /// The piece that moves.
    pub origin: WxfOrigin,
    /// Forward, backward or sideways.
    pub direction: Direction,
    /// Points moved along a file, or the file (1–9) moved to.
    pub value: u8,
}

/// Why a WXF move could not be read or played.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WxfError {
    /// Not a WXF move at all.
    #[error("WXF move {text:?}: {reason}")]
    Malformed {
        /// The text.
        text: String,
        /// What is wrong, naming the bad part.
        reason: String,
    },
    /// A WXF move, but no legal move in the position fits it.
    #[error("WXF move {wxf}: {reason}")]
    Illegal {
        /// The move as read.
        wxf: Wxf,
        /// Why it cannot be played.
        reason: String,
        /// The rule that forbids it, with its stable code.
        refusal: Box<Refusal>,
    },
    /// More than one legal move fits it.
    #[error("WXF move {wxf} is ambiguous: it fits {}", iccs_list(.moves))]
    Ambiguous {
        /// The move as read.
        wxf: Wxf,
        /// Every legal move that fits (ICCS).
        moves: Vec<Move>,
    },
}

impl WxfError {
    /// The refusal with its stable code: `malformed_move`, `ambiguous_move` or the
    /// rule broken.
    #[must_use]
    pub fn refusal(&self) -> Refusal {
        match self {
            WxfError::Malformed { text, reason } => Refusal::MalformedMove {
                text: text.clone(),
                reason: reason.clone(),
            },
            WxfError::Illegal { refusal, .. } => (**refusal).clone(),
            WxfError::Ambiguous { wxf, moves } => Refusal::AmbiguousMove {
                text: wxf.to_string(),
                candidates: moves.iter().map(ToString::to_string).collect(),
            },
        }
    }
}

/// `h2e2 or h2e3`, for error messages.
pub(crate) fn iccs_list(moves: &[Move]) -> String {
    moves
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(" or ")
}

// ---------------------------------------------------------------------------------
// Geometry shared with the Chinese notation.

/// The number 1–9 that `side` gives to ICCS file `file` (0–8): counted from its right.
pub(crate) const fn own_file(side: Side, file: u32) -> u8 {
    match side {
        Side::White => (9 - file) as u8,
        Side::Black => (file + 1) as u8,
    }
}

/// The ICCS file (0–8) of `side`'s file number `n` (1–9).
pub(crate) const fn iccs_file(side: Side, n: u8) -> u32 {
    match side {
        Side::White => 9 - n as u32,
        Side::Black => n as u32 - 1,
    }
}

/// `+1` if `side`'s forward is up the ranks, `-1` otherwise.
const fn forward(side: Side) -> i32 {
    match side {
        Side::White => 1,
        Side::Black => -1,
    }
}

/// Pieces that move along lines and count points when they move along a file.
const fn is_straight(role: Role) -> bool {
    matches!(
        role,
        Role::General | Role::Chariot | Role::Cannon | Role::Soldier
    )
}

/// `piece`s on ICCS file `file`, the front one (nearest the enemy) first.
pub(crate) fn column(pos: &Xiangqi, piece: Piece, file: u32) -> ArrayVec<Square, 10> {
    let mut col: ArrayVec<Square, 10> =
        pos.by_piece(piece).filter(|sq| sq.file() == file).collect();
    if piece.side == Side::White {
        col.reverse();
    }
    col
}

/// The columns of `piece` holding two or more, ordered by the owner's file numbers
/// (its right first).
pub(crate) fn crowded_columns(pos: &Xiangqi, piece: Piece) -> ArrayVec<ArrayVec<Square, 10>, 9> {
    (1..=9)
        .map(|n| column(pos, piece, iccs_file(piece.side, n)))
        .filter(|col| col.len() >= 2)
        .collect()
}

/// Where a piece stands among its like: what both notations need to name it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Standing {
    /// Its file in its owner's numbering.
    pub(crate) file: u8,
    /// 0 for the front one of its file.
    pub(crate) index: usize,
    /// How many like pieces the notation counts on its file: 1 when the file alone
    /// names it (always so for generals, advisors and elephants).
    pub(crate) count: usize,
    /// How many files hold two or more pieces like it.
    pub(crate) crowded_files: usize,
}

pub(crate) fn standing(pos: &Xiangqi, piece: Piece, from: Square) -> Standing {
    let file = own_file(piece.side, from.file());
    let alone = Standing {
        file,
        index: 0,
        count: 1,
        crowded_files: 0,
    };
    if !matches!(
        piece.role,
        Role::Horse | Role::Chariot | Role::Cannon | Role::Soldier
    ) {
        return alone;
    }
    let col = column(pos, piece, from.file());
    let Some(index) = col.iter().position(|&sq| sq == from) else {
        return alone;
    };
    if col.len() < 2 {
        return alone;
    }
    Standing {
        file,
        index,
        count: col.len(),
        crowded_files: crowded_columns(pos, piece).len(),
    }
}

/// The direction and number of the move `from` → `to` by `side`.
pub(crate) fn motion(side: Side, from: Square, to: Square) -> (Direction, u8) {
    let ahead = (to.rank() as i32 - from.rank() as i32) * forward(side);
    if ahead == 0 {
        return (Direction::Sideways, own_file(side, to.file()));
    }
    let direction = if ahead > 0 {
        Direction::Forward
    } else {
        Direction::Backward
    };
    let value = if from.file() == to.file() {
        ahead.unsigned_abs() as u8
    } else {
        own_file(side, to.file())
    };
    (direction, value)
}

/// Where a `role` of `side` on `from` lands when it moves `direction` by `value`, or
/// why no such point exists.
pub(crate) fn target(
    side: Side,
    role: Role,
    from: Square,
    direction: Direction,
    value: u8,
) -> Result<Square, String> {
    let name = role.name();
    if !(1..=9).contains(&value) {
        return Err(format!("the number {value} is not 1-9"));
    }
    let to_file = iccs_file(side, value);
    let here = own_file(side, from.file());
    let sign = match direction {
        Direction::Forward => forward(side),
        Direction::Backward => -forward(side),
        Direction::Sideways => 0,
    };
    if is_straight(role) {
        if direction == Direction::Sideways {
            if to_file == from.file() {
                return Err(format!("the {name} is already on file {value}"));
            }
            return Square::from_coords(to_file, from.rank())
                .ok_or_else(|| format!("file {value} is off the board"));
        }
        return from.offset(0, sign * i32::from(value)).ok_or_else(|| {
            format!("the {name} on {from} cannot go {value} points: that leaves the board")
        });
    }
    if direction == Direction::Sideways {
        return Err(format!("a {name} never moves sideways"));
    }
    let files = (to_file as i32 - from.file() as i32).abs();
    let ranks = match (role, files) {
        (Role::Advisor, 1) | (Role::Horse, 2) => 1,
        (Role::Elephant, 2) | (Role::Horse, 1) => 2,
        (Role::Advisor, _) => {
            return Err(format!(
                "an advisor moves to a neighbouring file, not from file {here} to {value}"
            ));
        }
        (Role::Elephant, _) => {
            return Err(format!(
                "an elephant moves two files across, not from file {here} to {value}"
            ));
        }
        _ => {
            return Err(format!(
                "a horse moves one or two files across, not from file {here} to {value}"
            ));
        }
    };
    from.offset(to_file as i32 - from.file() as i32, sign * ranks)
        .ok_or_else(|| {
            format!("the {name} on {from} cannot reach file {value}: that leaves the board")
        })
}

/// What resolving a notation against a position found.
pub(crate) enum Resolved {
    /// Exactly one legal move fits.
    One(Move),
    /// None fits, and why (for the first candidate), in words and as a rule.
    None(String, Refusal),
    /// Several fit.
    Many(Vec<Move>),
}

/// The legal moves of the `piece`s on `candidates` going `direction` by `value`.
pub(crate) fn resolve(
    pos: &Xiangqi,
    piece: Piece,
    candidates: &[Square],
    direction: Direction,
    value: u8,
) -> Resolved {
    let mut legal = Vec::new();
    let mut reason: Option<(String, Refusal)> = None;
    for &from in candidates {
        match target(piece.side, piece.role, from, direction, value) {
            Ok(to) => {
                let m = Move::new(from, to);
                if pos.is_legal(m) {
                    legal.push(m);
                } else if reason.is_none() {
                    let refusal = pos.explain_refusal(from, to);
                    reason = Some((refusal.to_string(), refusal));
                }
            }
            Err(why) => {
                reason.get_or_insert_with(|| {
                    let refusal = Refusal::PieceCannotMoveSo {
                        piece: piece.role.name().to_owned(),
                        from: from.to_string(),
                        to: format!("{}{value}", direction.wxf_char()),
                    };
                    (why, refusal)
                });
            }
        }
    }
    legal.sort_unstable();
    match legal.len() {
        1 => Resolved::One(legal[0]),
        0 => {
            let (why, refusal) = reason.unwrap_or_else(|| {
                (
                    "no piece fits".to_owned(),
                    Refusal::NoSuchPiece {
                        piece: piece.role.name().to_owned(),
                        mv: String::new(),
                    },
                )
            });
            Resolved::None(why, refusal)
        }
        _ => Resolved::Many(legal),
    }
}

/// `chariots`: the plural of a role's name, for messages.
pub(crate) fn plural(role: Role) -> String {
    format!("{}s", role.name())
}

// ---------------------------------------------------------------------------------
// Text.

/// Full-width ASCII forms (`Ｃ２＝５`) to ASCII.
pub(crate) fn narrow(c: char) -> char {
    match u32::from(c) {
        0xFF01..=0xFF5E => char::from_u32(u32::from(c) - 0xFEE0).unwrap_or(c),
        0x3000 => ' ',
        _ => c,
    }
}

fn file_digit(c: char) -> Option<u8> {
    match c {
        '1'..='9' => Some(c as u8 - b'0'),
        _ => None,
    }
}

fn tandem(c: char) -> Option<bool> {
    match c {
        '+' => Some(true),
        '-' => Some(false),
        _ => None,
    }
}

impl FromStr for Wxf {
    type Err = WxfError;

    fn from_str(s: &str) -> Result<Wxf, WxfError> {
        let malformed = |reason: String| WxfError::Malformed {
            text: s.to_owned(),
            reason,
        };
        let mut chars: Vec<char> = s.trim().chars().map(narrow).collect();
        // Annotations: `!`, `?`, `#` anywhere at the end, a check `+` past the fourth
        // character.
        while let Some(&last) = chars.last() {
            if matches!(last, '!' | '?' | '#') || (last == '+' && chars.len() > 4) {
                chars.pop();
            } else {
                break;
            }
        }
        let letter = |c: char| {
            Role::from_char(c).ok_or_else(|| {
                malformed(format!(
                    "{c:?} is not a piece letter (K A E H R C P, or B and N)"
                ))
            })
        };
        let digit = |c: char, what: &str| {
            file_digit(c).ok_or_else(|| malformed(format!("{what} {c:?}: expected a digit 1-9")))
        };
        if let &[p, f, t] = chars.as_slice()
            && p.is_ascii_alphabetic()
            && f.is_ascii_digit()
            && t.is_ascii_digit()
        {
            return Ok(Wxf {
                origin: WxfOrigin::File(letter(p)?, digit(f, "file")?),
                direction: Direction::Sideways,
                value: digit(t, "file moved to")?,
            });
        }
        if chars.len() > 4 {
            let (head, rest) = chars.split_at(4);
            return Err(malformed(format!(
                "unexpected {:?} after {:?}: a move is four characters like \"C2.5\"",
                rest.iter().collect::<String>(),
                head.iter().collect::<String>()
            )));
        }
        let &[a, b, d, v] = chars.as_slice() else {
            return Err(malformed(format!(
                "expected four characters (piece, file, direction, number) like \"C2.5\", \
                 found {}",
                chars.len()
            )));
        };
        let origin = match (a, b) {
            ('+', '+') => WxfOrigin::Foremost,
            ('-', '-') => WxfOrigin::Rearmost,
            ('+' | '-', l) if l.is_ascii_alphabetic() => {
                let role = letter(l)?;
                if a == '+' {
                    WxfOrigin::Front(role)
                } else {
                    WxfOrigin::Rear(role)
                }
            }
            ('f' | 'r' | 'b', l) if l.is_ascii_alphabetic() => {
                let role = letter(l)?;
                if a == 'f' {
                    WxfOrigin::Front(role)
                } else {
                    WxfOrigin::Rear(role)
                }
            }
            (l, t) if l.is_ascii_alphabetic() => {
                let role = letter(l)?;
                match tandem(t) {
                    Some(true) => WxfOrigin::Front(role),
                    Some(false) => WxfOrigin::Rear(role),
                    None if t.is_ascii_digit() => WxfOrigin::File(role, digit(t, "file")?),
                    None => {
                        return Err(malformed(format!(
                            "after the piece letter {l:?}: expected its file 1-9 or + / -, \
                             found {t:?}"
                        )));
                    }
                }
            }
            (f, t) if f.is_ascii_digit() => {
                let file = digit(f, "soldier file")?;
                let place = match tandem(t) {
                    Some(true) => Place::Front,
                    Some(false) => Place::Rear,
                    None if t == f => Place::Middle,
                    None => {
                        return Err(malformed(format!(
                            "after the soldier file {f:?}: expected +, - or {f:?} again, \
                             found {t:?}"
                        )));
                    }
                };
                WxfOrigin::SoldierOnFile(file, place)
            }
            _ => {
                return Err(malformed(format!(
                    "{a:?}: a move starts with a piece letter, a soldier's file, ++ or --"
                )));
            }
        };
        let direction = match d {
            '+' => Direction::Forward,
            '-' => Direction::Backward,
            '.' | '=' => Direction::Sideways,
            _ => {
                return Err(malformed(format!(
                    "direction {d:?}: expected + (forward), - (backward) or . (sideways)"
                )));
            }
        };
        let value = digit(
            v,
            if direction == Direction::Sideways {
                "file moved to"
            } else {
                "number"
            },
        )?;
        Ok(Wxf {
            origin,
            direction,
            value,
        })
    }
}

impl fmt::Display for WxfOrigin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            WxfOrigin::File(role, file) => write!(f, "{}{file}", role.wxf_char()),
            WxfOrigin::Front(role) => write!(f, "{}+", role.wxf_char()),
            WxfOrigin::Rear(role) => write!(f, "{}-", role.wxf_char()),
            WxfOrigin::Foremost => f.write_str("++"),
            WxfOrigin::Rearmost => f.write_str("--"),
            WxfOrigin::SoldierOnFile(file, Place::Front) => write!(f, "{file}+"),
            WxfOrigin::SoldierOnFile(file, Place::Middle) => write!(f, "{file}{file}"),
            WxfOrigin::SoldierOnFile(file, Place::Rear) => write!(f, "{file}-"),
        }
    }
}

impl fmt::Display for Wxf {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}{}",
            self.origin,
            self.direction.wxf_char(),
            self.value
        )
    }
}

// ---------------------------------------------------------------------------------
// Against a position.

impl Wxf {
    /// The canonical WXF for `m`, a legal move in `pos`.
    ///
    /// A move from an empty point (not legal anywhere) is described as if the side to
    /// move's chariot stood there; the result is then meaningless but no panic.
    #[must_use]
    pub fn from_move(pos: &Xiangqi, m: Move) -> Wxf {
        let piece = pos
            .piece_at(m.from())
            .unwrap_or(Piece::new(pos.turn(), Role::Chariot));
        let st = standing(pos, piece, m.from());
        let (direction, value) = motion(piece.side, m.from(), m.to());
        Wxf {
            origin: canonical_origin(piece.role, st),
            direction,
            value,
        }
    }

    /// The role of the moving piece.
    fn role(&self) -> Role {
        match self.origin {
            WxfOrigin::File(role, _) | WxfOrigin::Front(role) | WxfOrigin::Rear(role) => role,
            WxfOrigin::Foremost | WxfOrigin::Rearmost | WxfOrigin::SoldierOnFile(..) => {
                Role::Soldier
            }
        }
    }

    /// The legal move this names in `pos` (for the side to move).
    ///
    /// # Errors
    ///
    /// [`WxfError::Illegal`] if no legal move fits (no such piece, a move the piece
    /// cannot make, or one that leaves the general attacked), saying which;
    /// [`WxfError::Ambiguous`] if several do.
    pub fn to_move(&self, pos: &Xiangqi) -> Result<Move, WxfError> {
        let illegal = |reason: String| WxfError::Illegal {
            wxf: *self,
            refusal: Box::new(Refusal::NoSuchPiece {
                piece: self.role().name().to_owned(),
                mv: self.to_string(),
            }),
            reason,
        };
        let side = pos.turn();
        let who = side_name(side);
        let role = match self.origin {
            WxfOrigin::File(role, _) | WxfOrigin::Front(role) | WxfOrigin::Rear(role) => role,
            WxfOrigin::Foremost | WxfOrigin::Rearmost | WxfOrigin::SoldierOnFile(..) => {
                Role::Soldier
            }
        };
        let piece = Piece::new(side, role);
        let mut candidates: ArrayVec<Square, 10> = ArrayVec::new();
        match self.origin {
            WxfOrigin::File(_, file) => {
                if !(1..=9).contains(&file) {
                    return Err(WxfError::Malformed {
                        text: self.to_string(),
                        reason: format!("file {file} is not 1-9"),
                    });
                }
                let col = column(pos, piece, iccs_file(side, file));
                if col.is_empty() {
                    return Err(illegal(format!(
                        "{who} has no {} on file {file}",
                        role.name()
                    )));
                }
                if role == Role::Soldier && col.len() % 2 == 1 && col.len() >= 3 {
                    candidates.push(col[col.len() / 2]);
                } else {
                    candidates = col;
                }
            }
            WxfOrigin::Front(_) | WxfOrigin::Rear(_) => {
                let front = matches!(self.origin, WxfOrigin::Front(_));
                for col in crowded_columns(pos, piece) {
                    let n = col.len();
                    let i = match (front, n >= 4) {
                        (true, false) => 0,
                        (true, true) => 1,
                        (false, false) => n - 1,
                        (false, true) => n - 2,
                    };
                    candidates.push(col[i]);
                }
                if candidates.is_empty() {
                    return Err(illegal(format!(
                        "{who} has no two {} on one file",
                        plural(role)
                    )));
                }
            }
            WxfOrigin::Foremost | WxfOrigin::Rearmost => {
                for col in crowded_columns(pos, piece) {
                    if col.len() >= 4 {
                        let i = if self.origin == WxfOrigin::Foremost {
                            0
                        } else {
                            col.len() - 1
                        };
                        candidates.push(col[i]);
                    }
                }
                if candidates.is_empty() {
                    return Err(illegal(format!(
                        "{who} has no file with four or five soldiers"
                    )));
                }
            }
            WxfOrigin::SoldierOnFile(file, place) => {
                if !(1..=9).contains(&file) {
                    return Err(WxfError::Malformed {
                        text: self.to_string(),
                        reason: format!("file {file} is not 1-9"),
                    });
                }
                let col = column(pos, piece, iccs_file(side, file));
                let n = col.len();
                if n < 2 {
                    return Err(illegal(format!("{who} has no two soldiers on file {file}")));
                }
                let i = match place {
                    Place::Front => 0,
                    Place::Rear => n - 1,
                    Place::Middle if n % 2 == 1 => n / 2,
                    Place::Middle => {
                        return Err(illegal(format!(
                            "{who} has {n} soldiers on file {file}: no middle one"
                        )));
                    }
                };
                candidates.push(col[i]);
            }
        }
        match resolve(pos, piece, &candidates, self.direction, self.value) {
            Resolved::One(m) => Ok(m),
            Resolved::None(reason, refusal) => Err(WxfError::Illegal {
                wxf: *self,
                reason,
                refusal: Box::new(refusal),
            }),
            Resolved::Many(moves) => Err(WxfError::Ambiguous { wxf: *self, moves }),
        }
    }
}

/// The canonical first two characters for a piece standing as `st`.
fn canonical_origin(role: Role, st: Standing) -> WxfOrigin {
    let last = st.count.saturating_sub(1);
    if st.count < 2 {
        return WxfOrigin::File(role, st.file);
    }
    if role == Role::Soldier && st.crowded_files >= 2 {
        let place = match st.index {
            0 => Place::Front,
            i if i == last => Place::Rear,
            _ => Place::Middle,
        };
        return WxfOrigin::SoldierOnFile(st.file, place);
    }
    match (st.count, st.index) {
        (2 | 3, 0) | (4 | 5, 1) => WxfOrigin::Front(role),
        (2, _) | (3, 2) | (4, 2) | (5, 3) => WxfOrigin::Rear(role),
        (_, 0) => WxfOrigin::Foremost,
        (_, i) if i == last => WxfOrigin::Rearmost,
        _ => WxfOrigin::File(role, st.file),
    }
}

impl Xiangqi {
    /// The canonical WXF for `m`, a legal move here (`C2.5`).
    #[must_use]
    pub fn wxf(&self, m: Move) -> String {
        Wxf::from_move(self, m).to_string()
    }

    /// Reads a WXF move and finds it among the legal moves here.
    ///
    /// # Errors
    ///
    /// [`WxfError::Malformed`] if `text` is not WXF; otherwise as [`Wxf::to_move`].
    pub fn parse_wxf(&self, text: &str) -> Result<Move, WxfError> {
        text.parse::<Wxf>()?.to_move(self)
    }
}
