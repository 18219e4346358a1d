//! Chinese notation: `炮二平五`, `马８进７`, `前车进一`, `中兵平四`, `前兵九平八`.
//!
//! The same four parts as [WXF](crate::Wxf), in characters:
//!
//! - **Piece**, simplified: red 帅 仕 相 车 马 炮 兵, black 将 士 象 车 马 炮 卒.
//! - **Numbers**: red writes 一 二 三 四 五 六 七 八 九, black full-width digits
//!   １ ２ … ９, for files (counted from each player's own right) and for points moved.
//! - **Direction**: 进 forward, 退 backward, 平 sideways. As in WXF, a general,
//!   chariot, cannon or soldier moving along its file counts points; anything else
//!   names the file it goes to.
//! - **Two like pieces on one file**: 前 (front) or 后 (rear) before the piece, and no
//!   file: `前车进一`, `后马退６`. Advisors and elephants never need it (the one that
//!   can go back is the front one), so they keep their file: `仕四进五`.
//! - **Three soldiers on a file**: 前, 中, 后. **Four or five**: 一 二 三 四 五 from the
//!   front, in red's numerals for both sides (`二卒平４`).
//! - **Two files each with two or more soldiers**: the file is kept after the piece,
//!   five characters: `前兵九平八`, `中卒３平４` (WXF's `9+.8`, `33.4`).
//!
//! [`ChineseMove`]'s `Display` writes exactly that. Reading also accepts traditional
//! characters (帥 將 俥 車 傌 馬 砲 進 後), ASCII digits for black (`马8进7`), 上 and 下
//! for 进 and 退, 前/后 with four or five soldiers, the soldier's name left out after
//! the position word (`前九平八`), and 一–五 counted across both files when two files
//! hold soldiers (the xqbase scheme: files from the mover's right, each front to back).
//! A move's side is read from its numerals; it must be the side to move.
//!
//! Sources:
//! - 中文维基百科「象棋」§ 中式記譜法 <https://zh.wikipedia.org/wiki/象棋>: numerals per
//!   side; 前/後; 士象 need no 前/後; 前中後 for three soldiers, 前二三四(五) for four or
//!   five; 前兵九平八 when two files hold two or more; 上/下 for 進/退.
//! - 象棋百科全书网《中国象棋电脑应用规范（二）：着法表示》
//!   <https://www.xqbase.com/protocol/cchess_move.htm>: 一–五 from the front for more
//!   than three on a file, in Chinese numerals even for black (`一卒平５`); the
//!   cross-file numbering; full-width digits for black.
//! - 《象棋竞赛规则（2020）》第1条 (red 一–九, black 1–9) and 7.5 (前/中/后).
//! - Published records in exactly this form: the wxf.ca master database, e.g.
//!   `tests/data/games_wxfca.txt`.

use core::fmt;
use core::str::FromStr;

use arrayvec::ArrayVec;
use tablero_core::{Refusal, Side};

use crate::wxf::{
    Direction, Resolved, column, crowded_columns, iccs_file, iccs_list, motion, plural, resolve,
    standing,
};
use crate::{Move, Piece, Role, Square, Xiangqi, side_name};

const RED_NUMERALS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];

/// Which of several like pieces on a file: the word before the piece.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Ordinal {
    /// 前: the one nearest the enemy.
    Front,
    /// 中: the middle one of three.
    Middle,
    /// 后: the one nearest its own side.
    Rear,
    /// 一 to 五: counted from the front (four or five soldiers on a file).
    Nth(u8),
}

/// How a Chinese move names the piece that moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ChineseOrigin {
    /// `炮二`: the piece and its file (1–9, from the mover's right).
    File(Role, u8),
    /// `前车`: which of the like pieces sharing a file.
    Ordinal(Ordinal, Role),
    /// `前兵九`: which of the like pieces on this file (two files hold two or more).
    OrdinalOnFile(Ordinal, Role, u8),
}

/// A move in Chinese notation as text says it (`炮二平五`, `马８进７`, `前车进一`), not
/// yet checked against a position: resolve it with [`ChineseMove::to_move`], describe
/// a move with [`ChineseMove::from_move`]. The side is part of it, because the
/// numerals say whose move it is: red writes 一–九, black full-width digits.
///
/// Two like pieces on a file: 前/后 before the piece, no file (advisors and elephants
/// keep their file). Soldiers: three on a file 前/中/后; four or five 一–五 from the
/// front (in Chinese numerals for black too); two files each with two or more keep the
/// file after the piece (`前兵九平八`, `中卒３平４`).
///
/// [`Display`](fmt::Display) writes simplified characters. [`FromStr`] also reads
/// traditional characters, ASCII digits for black, 上/下 for 进/退, the soldier's name
/// left out after 前/中/后 (`前九平八`), and 一–五 counted across two files (xqbase).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ChineseMove {
    /// Whose move (red is `White`): red writes 一–九, black digits.
    pub side: Side,
    /// The piece that moves.
    pub origin: ChineseOrigin,
    /// 进, 退 or 平.
    pub direction: Direction,
    /// Points moved along a file, or the file (1–9) moved to.
    pub value: u8,
}

/// Why a Chinese move could not be read or played.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ChineseError {
    /// Not a Chinese-notation move at all.
    #[error("Chinese move {text:?}: {reason}")]
    Malformed {
        /// The text.
        text: String,
        /// What is wrong, naming the bad part.
        reason: String,
    },
    /// Well-formed, but no legal move in the position fits it.
    #[error("Chinese move {chinese}: {reason}")]
    Illegal {
        /// The move as read.
        chinese: ChineseMove,
        /// Why it cannot be played.
        reason: String,
        /// The rule that forbids it, with its stable code.
        refusal: Box<Refusal>,
    },
    /// More than one legal move fits it.
    #[error("Chinese move {chinese} is ambiguous: it fits {}", iccs_list(.moves))]
    Ambiguous {
        /// The move as read.
        chinese: ChineseMove,
        /// Every legal move that fits (ICCS).
        moves: Vec<Move>,
    },
}

/// The simplified character of `role` for `side`: red 帅仕相车马炮兵, black 将士象车马炮卒.
#[must_use]
pub const fn simplified_char(side: Side, role: Role) -> char {
    match (side, role) {
        (Side::White, Role::General) => '帅',
        (Side::Black, Role::General) => '将',
        (Side::White, Role::Advisor) => '仕',
        (Side::Black, Role::Advisor) => '士',
        (Side::White, Role::Elephant) => '相',
        (Side::Black, Role::Elephant) => '象',
        (_, Role::Horse) => '马',
        (_, Role::Chariot) => '车',
        (_, Role::Cannon) => '炮',
        (Side::White, Role::Soldier) => '兵',
        (Side::Black, Role::Soldier) => '卒',
    }
}

/// `side`'s numeral for `n` (1–9): 一…九 for red, １…９ for black; `?` out of range.
fn numeral(side: Side, n: u8) -> char {
    if !(1..=9).contains(&n) {
        return '?';
    }
    match side {
        Side::White => RED_NUMERALS[usize::from(n - 1)],
        Side::Black => char::from_u32(0xFF10 + u32::from(n)).unwrap_or('?'),
    }
}

impl fmt::Display for Ordinal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let c = match *self {
            Ordinal::Front => '前',
            Ordinal::Middle => '中',
            Ordinal::Rear => '后',
            Ordinal::Nth(n) => numeral(Side::White, n),
        };
        write!(f, "{c}")
    }
}

impl fmt::Display for ChineseMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let side = self.side;
        match self.origin {
            ChineseOrigin::File(role, file) => {
                write!(f, "{}{}", simplified_char(side, role), numeral(side, file))?;
            }
            ChineseOrigin::Ordinal(ord, role) => write!(f, "{ord}{}", simplified_char(side, role))?,
            ChineseOrigin::OrdinalOnFile(ord, role, file) => write!(
                f,
                "{ord}{}{}",
                simplified_char(side, role),
                numeral(side, file)
            )?,
        }
        write!(
            f,
            "{}{}",
            self.direction.chinese_char(),
            numeral(side, self.value)
        )
    }
}

/// One character of a Chinese move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Token {
    Piece(Role),
    /// 一–九.
    Red(u8),
    /// 1–9 or １–９.
    Black(u8),
    Place(Ordinal),
    Dir(Direction),
}

fn token(c: char) -> Option<Token> {
    Some(match c {
        '帅' | '帥' | '将' | '將' => Token::Piece(Role::General),
        '仕' | '士' => Token::Piece(Role::Advisor),
        '相' | '象' => Token::Piece(Role::Elephant),
        '马' | '馬' | '傌' => Token::Piece(Role::Horse),
        '车' | '車' | '俥' => Token::Piece(Role::Chariot),
        '炮' | '砲' => Token::Piece(Role::Cannon),
        '兵' | '卒' => Token::Piece(Role::Soldier),
        '前' => Token::Place(Ordinal::Front),
        '中' => Token::Place(Ordinal::Middle),
        '后' | '後' => Token::Place(Ordinal::Rear),
        '进' | '進' | '上' => Token::Dir(Direction::Forward),
        '退' | '下' => Token::Dir(Direction::Backward),
        '平' => Token::Dir(Direction::Sideways),
        '1'..='9' => Token::Black(c as u8 - b'0'),
        '１'..='９' => Token::Black((u32::from(c) - 0xFF10) as u8),
        _ => {
            let n = RED_NUMERALS.iter().position(|&r| r == c)?;
            Token::Red(n as u8 + 1)
        }
    })
}

impl ChineseError {
    /// The refusal with its stable code: `malformed_move`, `ambiguous_move` or the
    /// rule broken.
    #[must_use]
    pub fn refusal(&self) -> Refusal {
        match self {
            ChineseError::Malformed { text, reason } => Refusal::MalformedMove {
                text: text.clone(),
                reason: reason.clone(),
            },
            ChineseError::Illegal { refusal, .. } => (**refusal).clone(),
            ChineseError::Ambiguous { chinese, moves } => Refusal::AmbiguousMove {
                text: chinese.to_string(),
                candidates: moves.iter().map(ToString::to_string).collect(),
            },
        }
    }
}

impl FromStr for ChineseMove {
    type Err = ChineseError;

    fn from_str(s: &str) -> Result<ChineseMove, ChineseError> {
        let malformed = |reason: String| ChineseError::Malformed {
            text: s.to_owned(),
            reason,
        };
        let chars: Vec<char> = s.chars().filter(|c| !c.is_whitespace()).collect();
        let n = chars.len();
        if n != 4 && n != 5 {
            return Err(malformed(format!(
                "expected four characters like 炮二平五 (five with the file after 前/中/后, \
                 like 前兵九平八), found {n}"
            )));
        }
        let mut tokens = Vec::with_capacity(n);
        for &c in &chars {
            tokens.push(token(c).ok_or_else(|| malformed(format!("unexpected {c:?}")))?);
        }
        let Token::Dir(direction) = tokens[n - 2] else {
            return Err(malformed(format!(
                "{:?} where the direction 进, 退 or 平 belongs",
                chars[n - 2]
            )));
        };
        let (side, value) = match tokens[n - 1] {
            Token::Red(v) => (Side::White, v),
            Token::Black(v) => (Side::Black, v),
            _ => {
                return Err(malformed(format!(
                    "{:?} where the last number belongs",
                    chars[n - 1]
                )));
            }
        };
        let file = |i: usize| match tokens[i] {
            Token::Red(f) if side == Side::White => Ok(f),
            Token::Black(f) if side == Side::Black => Ok(f),
            Token::Red(_) | Token::Black(_) => Err(malformed(format!(
                "file {:?} is in {}'s numerals but the move ends in {}'s ({:?})",
                chars[i],
                side_name(side.other()),
                side_name(side),
                chars[n - 1]
            ))),
            _ => Err(malformed(format!(
                "{:?} where the file number belongs",
                chars[i]
            ))),
        };
        let ordinal = |i: usize| match tokens[i] {
            Token::Place(o) => Some(o),
            Token::Red(k @ 1..=5) => Some(Ordinal::Nth(k)),
            _ => None,
        };
        let origin = match (n, tokens[0], ordinal(0), tokens[1]) {
            (4, Token::Piece(role), _, _) => ChineseOrigin::File(role, file(1)?),
            (4, _, Some(ord), Token::Piece(role)) => ChineseOrigin::Ordinal(ord, role),
            (4, _, Some(ord), _) => ChineseOrigin::OrdinalOnFile(ord, Role::Soldier, file(1)?),
            (5, _, Some(ord), Token::Piece(role)) => {
                ChineseOrigin::OrdinalOnFile(ord, role, file(2)?)
            }
            (5, _, Some(_), _) => {
                return Err(malformed(format!(
                    "{:?} where the piece belongs, after {:?}",
                    chars[1], chars[0]
                )));
            }
            _ => {
                return Err(malformed(format!(
                    "{:?} where the piece, or 前/中/后/一-五 before it, belongs",
                    chars[0]
                )));
            }
        };
        Ok(ChineseMove {
            side,
            origin,
            direction,
            value,
        })
    }
}

/// The piece of `col` (front first) that `ord` picks.
fn pick(ord: Ordinal, col: &[Square]) -> Option<Square> {
    let n = col.len();
    match ord {
        Ordinal::Front => col.first().copied(),
        Ordinal::Rear => col.last().copied(),
        Ordinal::Middle if n >= 3 && n % 2 == 1 => Some(col[n / 2]),
        Ordinal::Middle => None,
        Ordinal::Nth(k) => col.get(usize::from(k).checked_sub(1)?).copied(),
    }
}

/// 前/中/后 for the piece at `index` of `count` (2 or 3).
const fn three(index: usize, count: usize) -> Ordinal {
    if index == 0 {
        Ordinal::Front
    } else if index + 1 == count {
        Ordinal::Rear
    } else {
        Ordinal::Middle
    }
}

impl ChineseMove {
    /// The canonical Chinese notation for `m`, a legal move in `pos`.
    ///
    /// A move from an empty point (not legal anywhere) is described as if the side to
    /// move's chariot stood there; the result is then meaningless but no panic.
    #[must_use]
    pub fn from_move(pos: &Xiangqi, m: Move) -> ChineseMove {
        let piece = pos
            .piece_at(m.from())
            .unwrap_or(Piece::new(pos.turn(), Role::Chariot));
        let st = standing(pos, piece, m.from());
        let (direction, value) = motion(piece.side, m.from(), m.to());
        let role = piece.role;
        let origin = if st.count < 2 {
            ChineseOrigin::File(role, st.file)
        } else if role == Role::Soldier && st.crowded_files >= 2 {
            ChineseOrigin::OrdinalOnFile(three(st.index, st.count), role, st.file)
        } else if st.count <= 3 {
            ChineseOrigin::Ordinal(three(st.index, st.count), role)
        } else {
            ChineseOrigin::Ordinal(Ordinal::Nth(st.index as u8 + 1), role)
        };
        ChineseMove {
            side: piece.side,
            origin,
            direction,
            value,
        }
    }

    /// The role of the moving piece.
    fn role(&self) -> Role {
        match self.origin {
            ChineseOrigin::File(role, _)
            | ChineseOrigin::Ordinal(_, role)
            | ChineseOrigin::OrdinalOnFile(_, role, _) => role,
        }
    }

    /// The legal move this names in `pos`.
    ///
    /// # Errors
    ///
    /// [`ChineseError::Illegal`] if it is the other side's move or no legal move fits
    /// (no such piece, a move the piece cannot make, one that leaves the general
    /// attacked), saying which; [`ChineseError::Ambiguous`] if several fit.
    pub fn to_move(&self, pos: &Xiangqi) -> Result<Move, ChineseError> {
        let illegal = |reason: String| ChineseError::Illegal {
            chinese: *self,
            refusal: Box::new(Refusal::NoSuchPiece {
                piece: self.role().name().to_owned(),
                mv: self.to_string(),
            }),
            reason,
        };
        let side = self.side;
        let who = side_name(side);
        if side != pos.turn() {
            return Err(ChineseError::Illegal {
                chinese: *self,
                reason: format!(
                    "its numerals make it {who}'s move, but it is {}'s turn",
                    side_name(pos.turn())
                ),
                refusal: Box::new(Refusal::NotYourTurn {
                    side: who.to_owned(),
                }),
            });
        }
        let role = match self.origin {
            ChineseOrigin::File(role, _)
            | ChineseOrigin::Ordinal(_, role)
            | ChineseOrigin::OrdinalOnFile(_, role, _) => role,
        };
        let piece = Piece::new(side, role);
        let name = simplified_char(side, role);
        let on_file = |file: u8| {
            if (1..=9).contains(&file) {
                Ok(column(pos, piece, iccs_file(side, file)))
            } else {
                Err(ChineseError::Malformed {
                    text: self.to_string(),
                    reason: format!("file {file} is not 1-9"),
                })
            }
        };
        let mut candidates: ArrayVec<Square, 10> = ArrayVec::new();
        match self.origin {
            ChineseOrigin::File(_, file) => {
                candidates = on_file(file)?;
                if candidates.is_empty() {
                    return Err(illegal(format!(
                        "{who} has no {} ({name}) on file {}",
                        role.name(),
                        numeral(side, file)
                    )));
                }
            }
            ChineseOrigin::Ordinal(ord, _) => {
                let crowded = crowded_columns(pos, piece);
                if crowded.is_empty() {
                    return Err(illegal(format!(
                        "{who} has no two {} ({name}) on one file",
                        plural(role)
                    )));
                }
                if let (Ordinal::Nth(k), 2..) = (ord, crowded.len()) {
                    // Counted across the files: from the mover's right, each front first.
                    let all: Vec<Square> = crowded.iter().flatten().copied().collect();
                    let sq = usize::from(k)
                        .checked_sub(1)
                        .and_then(|i| all.get(i))
                        .ok_or_else(|| {
                            illegal(format!(
                                "{who} has only {} {} on files holding two or more",
                                all.len(),
                                plural(role)
                            ))
                        })?;
                    candidates.push(*sq);
                } else {
                    candidates.extend(crowded.iter().filter_map(|col| pick(ord, col)));
                }
                if candidates.is_empty() {
                    return Err(illegal(format!(
                        "no file of {who}'s {} has a {ord}{name}",
                        plural(role)
                    )));
                }
            }
            ChineseOrigin::OrdinalOnFile(ord, _, file) => {
                let col = on_file(file)?;
                if col.len() < 2 {
                    return Err(illegal(format!(
                        "{who} has no two {} ({name}) on file {}",
                        plural(role),
                        numeral(side, file)
                    )));
                }
                let sq = pick(ord, &col).ok_or_else(|| {
                    illegal(format!(
                        "{who}'s {} {} on file {} have no {ord}{name}",
                        col.len(),
                        plural(role),
                        numeral(side, file)
                    ))
                })?;
                candidates.push(sq);
            }
        }
        match resolve(pos, piece, &candidates, self.direction, self.value) {
            Resolved::One(m) => Ok(m),
            Resolved::None(reason, refusal) => Err(ChineseError::Illegal {
                chinese: *self,
                reason,
                refusal: Box::new(refusal),
            }),
            Resolved::Many(moves) => Err(ChineseError::Ambiguous {
                chinese: *self,
                moves,
            }),
        }
    }
}

impl Xiangqi {
    /// The canonical Chinese notation for `m`, a legal move here (`炮二平五`).
    #[must_use]
    pub fn chinese(&self, m: Move) -> String {
        ChineseMove::from_move(self, m).to_string()
    }

    /// Reads a move in Chinese notation (simplified or traditional) and finds it among
    /// the legal moves here.
    ///
    /// # Errors
    ///
    /// [`ChineseError::Malformed`] if `text` is not Chinese notation; otherwise as
    /// [`ChineseMove::to_move`].
    pub fn parse_chinese(&self, text: &str) -> Result<Move, ChineseError> {
        text.parse::<ChineseMove>()?.to_move(self)
    }
}
