//! Any position's board as plain data: its levels and size, the labels of its rows
//! and columns, and each piece with its square's name and its own name. Code that
//! draws or reports a board reads this instead of matching on the games.

use tablero_chess::{Role as ChessRole, Square as ChessSquare};
use tablero_chess3d::{Kind, Square as Square3d};
use tablero_core::Side;
use tablero_draughts::Role as DraughtsRole;

use crate::AnyPosition;

/// A board as rows from the far side (row 0 at the top, as the first side sees it)
/// and columns from the left.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BoardDescription {
    /// Levels (3 for chess3d, 1 for the others), each `height` rows of `width`.
    pub levels: u8,
    /// Columns.
    pub width: u8,
    /// Rows.
    pub height: u8,
    /// Row labels from the top (`8`…`1`, xiangqi `9`…`0`, chess3d `H`…`A`).
    pub row_labels: Vec<String>,
    /// Column labels from the left (`a`…, chess3d `1`…`8`).
    pub column_labels: Vec<String>,
    /// Every piece, level by level, row by row from the top, left to right.
    pub pieces: Vec<PlacedPiece>,
}

/// A piece on its square.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlacedPiece {
    /// Its level (0 for the one-level games).
    pub level: u8,
    /// Its row from the top.
    pub row: u8,
    /// Its column from the left.
    pub column: u8,
    /// The square's name in the game's notation (`e4`, `e0`, `32`, `0B5`).
    pub square: String,
    /// The piece's name (`knight`, `chariot`, `man`, `caballo`).
    pub name: &'static str,
    /// Its kind as a lowercase letter: chess `p n b r q k`; xiangqi `k a b r n c p`;
    /// draughts `m` (man) and `k` (king); chess3d `p a c t d r`.
    pub letter: char,
    /// Whose it is.
    pub side: Side,
}

/// Chess3d's levels (three: the cast cannot truncate).
const LEVELS_3D: u8 = tablero_chess3d::LEVELS as u8;

fn labels(from: u8, n: u8) -> Vec<String> {
    (0..n).map(|i| char::from(from + i).to_string()).collect()
}

impl AnyPosition {
    /// The board as data: see [`BoardDescription`].
    ///
    /// ```
    /// use tablero_games::AnyPosition;
    ///
    /// let board = AnyPosition::new("xiangqi", None, None)?.board_description();
    /// assert_eq!((board.width, board.height, board.pieces.len()), (9, 10, 32));
    /// assert_eq!((board.pieces[0].square.as_str(), board.pieces[0].name), ("a9", "chariot"));
    /// # Ok::<(), tablero_games::GamesError>(())
    /// ```
    #[must_use]
    pub fn board_description(&self) -> BoardDescription {
        let mut pieces = Vec::new();
        match self {
            AnyPosition::Chess(pos) => {
                let board = pos.board();
                for row in 0..8u8 {
                    let rank = 7 - row;
                    for file in 0..8u8 {
                        let square = ChessSquare::new(u32::from(rank * 8 + file));
                        if let Some(p) = square.and_then(|sq| board.piece_at(sq)) {
                            pieces.push(PlacedPiece {
                                level: 0,
                                row,
                                column: file,
                                square: format!("{}{}", char::from(b'a' + file), rank + 1),
                                name: match p.role {
                                    ChessRole::Pawn => "pawn",
                                    ChessRole::Knight => "knight",
                                    ChessRole::Bishop => "bishop",
                                    ChessRole::Rook => "rook",
                                    ChessRole::Queen => "queen",
                                    ChessRole::King => "king",
                                },
                                letter: p.role.char(),
                                side: p.side,
                            });
                        }
                    }
                }
                BoardDescription {
                    levels: 1,
                    width: 8,
                    height: 8,
                    row_labels: (1..=8).rev().map(|r: u8| r.to_string()).collect(),
                    column_labels: labels(b'a', 8),
                    pieces,
                }
            }
            AnyPosition::Xiangqi(pos) => {
                let board = pos.board();
                for row in 0..10u8 {
                    let rank = 9 - row;
                    for file in 0..9u8 {
                        let at = usize::from(rank) * 9 + usize::from(file);
                        if let Some(p) = board.get(at).copied().flatten() {
                            pieces.push(PlacedPiece {
                                level: 0,
                                row,
                                column: file,
                                square: format!("{}{}", char::from(b'a' + file), rank),
                                name: p.role.name(),
                                letter: p.role.fen_char().to_ascii_lowercase(),
                                side: p.side,
                            });
                        }
                    }
                }
                BoardDescription {
                    levels: 1,
                    width: 9,
                    height: 10,
                    row_labels: (0..10).rev().map(|r: u8| r.to_string()).collect(),
                    column_labels: labels(b'a', 9),
                    pieces,
                }
            }
            AnyPosition::Draughts(pos) => {
                let rules = pos.rule_set().rules();
                let width = rules.board.width();
                for n in 1..=rules.board.squares() {
                    if let (Some(p), Some((column, row))) =
                        (pos.piece_at(n), rules.square_coords(n))
                    {
                        pieces.push(PlacedPiece {
                            level: 0,
                            row,
                            column,
                            square: n.to_string(),
                            name: match p.role {
                                DraughtsRole::Man => "man",
                                DraughtsRole::King => "king",
                            },
                            letter: match p.role {
                                DraughtsRole::Man => 'm',
                                DraughtsRole::King => 'k',
                            },
                            side: p.side,
                        });
                    }
                }
                pieces.sort_by_key(|p| (p.row, p.column));
                BoardDescription {
                    levels: 1,
                    width,
                    height: width,
                    row_labels: (1..=width).rev().map(|r| r.to_string()).collect(),
                    column_labels: labels(b'a', width),
                    pieces,
                }
            }
            AnyPosition::Chess3d(pos) => {
                let board = pos.board();
                for level in 0..LEVELS_3D {
                    for row in 0..8u8 {
                        for column in 0..8u8 {
                            let square = Square3d::new(level, 7 - row, column);
                            if let Some((sq, p)) =
                                square.and_then(|sq| board.piece_at(sq).map(|p| (sq, p)))
                            {
                                pieces.push(PlacedPiece {
                                    level,
                                    row,
                                    column,
                                    square: sq.to_string(),
                                    name: match p.kind {
                                        Kind::Peon => "peón",
                                        Kind::Alfil => "alfil",
                                        Kind::Caballo => "caballo",
                                        Kind::Torre => "torre",
                                        Kind::Dama => "dama",
                                        Kind::Rey => "rey",
                                    },
                                    letter: p.kind.char().to_ascii_lowercase(),
                                    side: p.side,
                                });
                            }
                        }
                    }
                }
                let mut row_labels = labels(b'A', 8);
                row_labels.reverse();
                BoardDescription {
                    levels: LEVELS_3D,
                    width: 8,
                    height: 8,
                    row_labels,
                    column_labels: (1..=8).map(|c: u8| c.to_string()).collect(),
                    pieces,
                }
            }
        }
    }
}
