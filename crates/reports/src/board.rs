//! The occupied squares of any game's board (or of one chess3d level), as rows and
//! columns in the order the terminal board draws them: the first side at the bottom,
//! so row 0 is the far side (chess rank 8, xiangqi rank 9, chess3d row H).

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

/// The levels a game's board has: 3 for chess3d, 1 for the others.
#[must_use]
pub fn level_count(game: &AnyPosition) -> u8 {
    game.board_description().levels
}

/// The occupied squares of `game`, of chess3d level `level` (0–2; default 0). Other
/// games have one level: `level` must be absent or 0.
///
/// # Errors
///
/// [`ReportError::Level`] for a level the game does not have.
pub fn board_level(game: &AnyPosition, level: Option<u8>) -> Result<BoardLevel, ReportError> {
    let board = game.board_description();
    let chosen = level.unwrap_or(0);
    if chosen >= board.levels {
        return Err(ReportError::Level {
            game: game.game_id(),
            level: chosen,
            levels: board.levels,
        });
    }
    let mut caption = format!("{} {}", game.game_id(), game.variant_id());
    if board.levels > 1 {
        caption = format!("{caption}, level {chosen}");
    }
    let kind = game.kind();
    let occupied = board
        .pieces
        .into_iter()
        .filter(|p| p.level == chosen)
        .map(|p| Occupied {
            row: usize::from(p.row),
            column: usize::from(p.column),
            square: p.square,
            piece: p.name,
            colour: kind.side_name(p.side),
        })
        .collect();
    Ok(BoardLevel {
        caption,
        rows: board.row_labels,
        columns: board.column_labels,
        occupied,
    })
}
