//! The occupied squares of any game's board (or of one chess3d level), as rows and
//! columns in the order the terminal board draws them: the first side at the bottom,
//! so row 0 is the far side (chess rank 8, xiangqi rank 9, chess3d row H).

use tablero_chess::{Role as ChessRole, Square as ChessSquare};
use tablero_chess3d::{Kind, Square as Square3d};
use tablero_core::Side;
use tablero_draughts::Role as DraughtsRole;
use tablero_games::AnyPosition;

use crate::ReportError;

/// One occupied square.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Occupied {
    /// Row index from the top (0 = the far side).
    pub row: usize,
    /// Column index from the left.
    pub column: usize,
    /// The square's name in the game's notation (`e4`, `e0`, `32`, `0B5`).
    pub square: String,
    /// The piece's name (`knight`, `chariot`, `king`, `caballo`).
    pub piece: &'static str,
    /// The piece's colour (`white`, `black`, `red`).
    pub colour: &'static str,
}

/// One board (a chess3d level) of a position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BoardLevel {
    /// What is shown: `chess standard`, `chess3d standard, level 1`, ...
    pub caption: String,
    /// Row labels from the top.
    pub rows: Vec<String>,
    /// Column labels from the left.
    pub columns: Vec<String>,
    /// The occupied squares, row by row from the top, left to right.
    pub occupied: Vec<Occupied>,
}

fn letters(from: u8, n: usize) -> Vec<String> {
    (0..n)
        .map(|i| char::from(from.wrapping_add(u8::try_from(i).unwrap_or(0))).to_string())
        .collect()
}

fn colour(side: Side) -> &'static str {
    side.fold("white", "black")
}

/// The levels a game's board has: 3 for chess3d, 1 for the others.
#[must_use]
pub fn level_count(game: &AnyPosition) -> u8 {
    if matches!(game, AnyPosition::Chess3d(_)) {
        3
    } else {
        1
    }
}

/// The occupied squares of `game`, of chess3d level `level` (0–2; default 0). Other
/// games have one level: `level` must be absent or 0.
///
/// # Errors
///
/// [`ReportError::Level`] for a level the game does not have.
pub fn board_level(game: &AnyPosition, level: Option<u8>) -> Result<BoardLevel, ReportError> {
    let levels = level_count(game);
    let chosen = level.unwrap_or(0);
    if chosen >= levels {
        return Err(ReportError::Level {
            game: game.game_id(),
            level: chosen,
            levels,
        });
    }
    let mut caption = format!("{} {}", game.game_id(), game.variant_id());
    let mut occupied = Vec::new();
    let (rows, columns) = match game {
        AnyPosition::Chess(pos) => {
            let board = pos.board();
            for row in 0..8 {
                let rank = 7 - row;
                for file in 0..8 {
                    let Some(sq) = ChessSquare::new((rank * 8 + file) as u32) else {
                        continue;
                    };
                    if let Some(p) = board.piece_at(sq) {
                        occupied.push(Occupied {
                            row,
                            column: file,
                            square: format!("{}{}", char::from(b'a' + file as u8), rank + 1),
                            piece: match p.role {
                                ChessRole::Pawn => "pawn",
                                ChessRole::Knight => "knight",
                                ChessRole::Bishop => "bishop",
                                ChessRole::Rook => "rook",
                                ChessRole::Queen => "queen",
                                ChessRole::King => "king",
                            },
                            colour: colour(p.side),
                        });
                    }
                }
            }
            let rows = (1..=8).rev().map(|r: u32| r.to_string()).collect();
            (rows, letters(b'a', 8))
        }
        AnyPosition::Xiangqi(pos) => {
            let board = pos.board();
            for row in 0..10 {
                let rank = 9 - row;
                for file in 0..9 {
                    if let Some(p) = board.get(rank * 9 + file).copied().flatten() {
                        occupied.push(Occupied {
                            row,
                            column: file,
                            square: format!("{}{}", char::from(b'a' + file as u8), rank),
                            piece: p.role.name(),
                            colour: p.side.fold("red", "black"),
                        });
                    }
                }
            }
            let rows = (0..10).rev().map(|r: u32| r.to_string()).collect();
            (rows, letters(b'a', 9))
        }
        AnyPosition::Draughts(pos) => {
            let rules = pos.rule_set().rules();
            let width = usize::from(rules.board.width());
            let squares = usize::from(rules.board.squares());
            let mut found = Vec::new();
            for n in 1..=squares {
                let (column, row) = u8::try_from(n)
                    .ok()
                    .and_then(|n| rules.square_coords(n))
                    .map_or((0, 0), |(c, r)| (usize::from(c), usize::from(r)));
                if let Some(p) = u8::try_from(n).ok().and_then(|n| pos.piece_at(n)) {
                    found.push(Occupied {
                        row,
                        column,
                        square: n.to_string(),
                        piece: match p.role {
                            DraughtsRole::Man => "man",
                            DraughtsRole::King => "king",
                        },
                        colour: colour(p.side),
                    });
                }
            }
            found.sort_by_key(|o| (o.row, o.column));
            occupied = found;
            let rows = (1..=width).rev().map(|r| r.to_string()).collect();
            (rows, letters(b'a', width))
        }
        AnyPosition::Chess3d(pos) => {
            caption = format!("{caption}, level {chosen}");
            let board = pos.board();
            for row in 0..8u8 {
                let board_row = 7 - row;
                for column in 0..8u8 {
                    let Some(sq) = Square3d::new(chosen, board_row, column) else {
                        continue;
                    };
                    if let Some(p) = board.piece_at(sq) {
                        occupied.push(Occupied {
                            row: usize::from(row),
                            column: usize::from(column),
                            square: sq.to_string(),
                            piece: match p.kind {
                                Kind::Peon => "peón",
                                Kind::Alfil => "alfil",
                                Kind::Caballo => "caballo",
                                Kind::Torre => "torre",
                                Kind::Dama => "dama",
                                Kind::Rey => "rey",
                            },
                            colour: colour(p.side),
                        });
                    }
                }
            }
            let mut rows = letters(b'A', 8);
            rows.reverse();
            let columns = (1..=8).map(|c: u32| c.to_string()).collect();
            (rows, columns)
        }
    };
    Ok(BoardLevel {
        caption,
        rows,
        columns,
        occupied,
    })
}
