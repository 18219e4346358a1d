//! A position from its pieces, as a position editor sets them up: the pieces'
//! places and letters are written out as the game's position text, which the game's
//! own parser then checks (two kings, pawns off the last ranks, …), so an editor can
//! never make a position the rules would not read.

use tablero_core::Side;

use crate::{AnyPosition, GameKind, GamesError, Place, Variant};

/// One piece of a composed board: where, whose and which (the letters of
/// [`crate::PlacedPiece::letter`]: chess `p n b r q k`, xiangqi `k a b r n c p`,
/// draughts `m k`, chess3d `p a c t d r`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PiecePlacement {
    /// Its square: level, row from the top, column from the left.
    pub place: Place,
    /// Whose it is.
    pub side: Side,
    /// Its letter.
    pub letter: char,
}

impl AnyPosition {
    /// The position of game `kind` in `variant` with `pieces` on the board and `turn`
    /// to move, as its position text says it (no castling rights but those the kings'
    /// and rooks' home squares allow, no en passant, move 1).
    ///
    /// ```
    /// use tablero_games::{AnyPosition, GameKind, PiecePlacement, Place, Side, Variant};
    ///
    /// let king = |side, row| PiecePlacement { place: Place { level: 0, row, column: 4 }, side, letter: 'k' };
    /// let pieces = [king(Side::White, 7), king(Side::Black, 0)];
    /// let pos = AnyPosition::compose(GameKind::Chess, Variant::Standard, &pieces, Side::White)?;
    /// assert_eq!(pos.position_text(), "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
    /// # Ok::<(), tablero_games::GamesError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`GamesError::Position`] for a piece off the board, an unknown letter, two
    /// pieces on one square, or a position the game's rules refuse.
    pub fn compose(
        kind: GameKind,
        variant: Variant,
        pieces: &[PiecePlacement],
        turn: Side,
    ) -> Result<AnyPosition, GamesError> {
        let empty = AnyPosition::of(kind, variant, None)?.board_description();
        let bad = |why: String| GamesError::Position(why);
        let (levels, width, height) = (empty.levels, empty.width, empty.height);
        let mut grid = vec![None; usize::from(levels) * usize::from(width) * usize::from(height)];
        for piece in pieces {
            let Place { level, row, column } = piece.place;
            if level >= levels || row >= height || column >= width {
                return Err(bad(format!(
                    "a piece at level {level}, row {row}, column {column} is off the {width}×{height} board"
                )));
            }
            let index = (usize::from(level) * usize::from(height) + usize::from(row))
                * usize::from(width)
                + usize::from(column);
            if grid[index].replace(*piece).is_some() {
                return Err(bad(format!(
                    "two pieces on one square (level {level}, row {row}, column {column})"
                )));
            }
        }
        let at = |level: u8, row: u8, column: u8| {
            grid[(usize::from(level) * usize::from(height) + usize::from(row)) * usize::from(width)
                + usize::from(column)]
        };
        let text = match kind {
            GameKind::Draughts => draughts_text(&empty, pieces, turn)?,
            GameKind::Chess | GameKind::Xiangqi | GameKind::Chess3d => {
                let letters = kind.info().piece_letters;
                let mut placement = Vec::new();
                for level in 0..levels {
                    let mut rows = Vec::new();
                    for row in 0..height {
                        rows.push(rank_text(width, |column| at(level, row, column), letters)?);
                    }
                    placement.push(rows.join("/"));
                }
                let side = if turn == Side::White { "w" } else { "b" };
                match kind {
                    GameKind::Chess => format!(
                        "{} {side} {} - 0 1",
                        placement.join("|"),
                        castling_rights(variant, |row, column| at(0, row, column))
                    ),
                    GameKind::Xiangqi => format!("{} {side} - - 0 1", placement.join("|")),
                    _ => format!("{} {side} 0 1 0000000000000000", placement.join("|")),
                }
            }
        };
        AnyPosition::of(kind, variant, Some(&text))
    }
}

/// One row of a FEN-like placement: letters (uppercase for the first side) and counts
/// of empty squares.
fn rank_text(
    width: u8,
    at: impl Fn(u8) -> Option<PiecePlacement>,
    letters: &str,
) -> Result<String, GamesError> {
    let mut text = String::new();
    let mut gap = 0;
    for column in 0..width {
        match at(column) {
            None => gap += 1,
            Some(piece) => {
                if !letters.contains(piece.letter) {
                    return Err(GamesError::Position(format!(
                        "unknown piece letter {:?} (letters: {letters})",
                        piece.letter
                    )));
                }
                if gap > 0 {
                    text.push_str(&gap.to_string());
                    gap = 0;
                }
                text.push(if piece.side == Side::White {
                    piece.letter.to_ascii_uppercase()
                } else {
                    piece.letter
                });
            }
        }
    }
    if gap > 0 {
        text.push_str(&gap.to_string());
    }
    Ok(text)
}

/// The castling rights a chess board allows: a king and a rook on their home squares
/// (rows from the top: White's home row is 7). Chess960 starts are set up from their
/// number, not in the editor: none there.
fn castling_rights(variant: Variant, at: impl Fn(u8, u8) -> Option<PiecePlacement>) -> String {
    if variant == Variant::Chess960 {
        return "-".to_owned();
    }
    let has = |row: u8, column: u8, side: Side, letter: char| {
        at(row, column).is_some_and(|p| p.side == side && p.letter == letter)
    };
    let mut rights = String::new();
    for (side, row, king_side, queen_side) in
        [(Side::White, 7, 'K', 'Q'), (Side::Black, 0, 'k', 'q')]
    {
        if has(row, 4, side, 'k') {
            if has(row, 7, side, 'r') {
                rights.push(king_side);
            }
            if has(row, 0, side, 'r') {
                rights.push(queen_side);
            }
        }
    }
    if rights.is_empty() {
        "-".to_owned()
    } else {
        rights
    }
}

/// Draughts' PDN position text: the side to move, then each side's squares by number,
/// kings marked `K`.
fn draughts_text(
    empty: &crate::BoardDescription,
    pieces: &[PiecePlacement],
    turn: Side,
) -> Result<String, GamesError> {
    let mut lists = [Vec::new(), Vec::new()];
    for piece in pieces {
        let number = empty
            .numbers
            .iter()
            .find(|n| n.place == piece.place)
            .map(|n| n.number)
            .ok_or_else(|| {
                GamesError::Position(format!(
                    "a draughts piece on row {}, column {}: not a playable square",
                    piece.place.row, piece.place.column
                ))
            })?;
        // Men are written by their square alone, kings with a K before it.
        let king = match piece.letter {
            'm' => "",
            'k' => "K",
            other => {
                return Err(GamesError::Position(format!(
                    "unknown piece letter {other:?} (letters: mk)"
                )));
            }
        };
        lists[piece.side.index()].push((number, king));
    }
    let list = |side: usize| {
        let mut squares = lists[side].clone();
        squares.sort_unstable();
        squares
            .iter()
            .map(|(n, king)| format!("{king}{n}"))
            .collect::<Vec<_>>()
            .join(",")
    };
    let side = if turn == Side::White { "W" } else { "B" };
    Ok(format!("{side}:W{}:B{}", list(0), list(1)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every start position, taken apart and composed again, is the same position.
    #[test]
    fn each_start_composes_back_to_itself() {
        for kind in GameKind::ALL {
            for variant in kind.variants() {
                let start = AnyPosition::of(kind, variant, None).expect("a start");
                let board = start.board_description();
                let letters = kind.info().piece_letters;
                assert!(
                    board.pieces.iter().all(|p| letters.contains(p.letter)),
                    "{kind}: the catalog's letters {letters} name every piece"
                );
                let pieces: Vec<PiecePlacement> = board
                    .pieces
                    .iter()
                    .map(|p| PiecePlacement {
                        place: Place {
                            level: p.level,
                            row: p.row,
                            column: p.column,
                        },
                        side: p.side,
                        letter: p.letter,
                    })
                    .collect();
                let composed = AnyPosition::compose(kind, variant, &pieces, start.turn())
                    .unwrap_or_else(|e| panic!("{kind} {variant}: {e}"));
                assert_eq!(
                    composed.board_description().pieces,
                    board.pieces,
                    "{kind} {variant}"
                );
                assert_eq!(composed.turn(), start.turn(), "{kind} {variant}");
                assert_eq!(
                    composed.legal_moves_text(),
                    start.legal_moves_text(),
                    "{kind} {variant}: castling rights and all"
                );
            }
        }
    }

    #[test]
    fn bad_boards_are_named() {
        let king = |row, column| PiecePlacement {
            place: Place {
                level: 0,
                row,
                column,
            },
            side: Side::White,
            letter: 'k',
        };
        let chess = |pieces: &[PiecePlacement]| {
            AnyPosition::compose(GameKind::Chess, Variant::Standard, pieces, Side::White)
                .map_err(|e| e.to_string())
        };
        assert!(chess(&[king(7, 4)]).expect_err("refused").contains("king"));
        assert!(
            chess(&[king(8, 4)])
                .expect_err("refused")
                .contains("off the 8×8 board")
        );
        assert!(
            chess(&[king(7, 4), king(7, 4)])
                .expect_err("refused")
                .contains("two pieces")
        );
        let mut odd = king(7, 4);
        odd.letter = 'z';
        assert!(
            chess(&[odd])
                .expect_err("refused")
                .contains("unknown piece letter")
        );
        let light = PiecePlacement {
            letter: 'm',
            ..king(7, 7)
        };
        let draughts = AnyPosition::compose(
            GameKind::Draughts,
            Variant::Draughts(tablero_draughts::RuleSet::English),
            &[light],
            Side::White,
        );
        assert!(
            draughts
                .map_err(|e| e.to_string())
                .expect_err("refused")
                .contains("not a playable square")
        );
    }
}
