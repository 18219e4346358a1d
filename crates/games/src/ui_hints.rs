//! What a graphical board needs to draw a position and let people play it, without
//! knowing any rules: the pieces on a grid, the king or general in check, and for every
//! legal move the squares it passes through.
//!
//! Every game uses one grid of *spots* `[level, x, y]`: `x` counts columns from the
//! left and `y` rows from the bottom, both from 0, as the first side of the game
//! (White, or Red in xiangqi) sees the board. Chess and draughts have one level of
//! 8×8 or 10×10 squares, xiangqi one level of 9×10 points, chess3d three levels of
//! 8×8 (`y` is the row `A`…`H`, `x` the column `1`…`8`). The board also names every
//! spot in the game's notation, so that a client labels squares without knowing how
//! each game writes them.
//!
//! ```
//! use tablero_games::AnyPosition;
//!
//! let start = AnyPosition::new("chess", None, None).unwrap();
//! let board = start.board_hints();
//! assert_eq!((board.width, board.height, board.levels), (8, 8, 1));
//! assert_eq!(board.pieces.len(), 32);
//! assert_eq!(board.names[0][3][4], "e4");
//! let e4 = start.move_hints().into_iter().find(|m| m.text == "e2e4").unwrap();
//! assert_eq!(e4.notation, "e4");
//! assert_eq!(e4.path, vec![[0, 4, 1], [0, 4, 3]]);
//! ```

use tablero_core::Side;

use crate::AnyPosition;

/// A place on a board: `[level, x, y]` (see the module documentation).
pub type Spot = [u8; 3];

/// A piece on the board.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PieceHint {
    /// Where it stands.
    pub at: Spot,
    /// Whose it is.
    pub side: Side,
    /// Its kind as a lowercase letter: chess `p n b r q k`; xiangqi `k a b r n c p`
    /// (general, advisor, elephant, chariot, horse, cannon, soldier); draughts `m`
    /// (man) and `k` (king); chess3d `p a c t d r` (peón, alfil, caballo, torre, dama,
    /// rey).
    pub kind: char,
}

/// A position as a grid of pieces.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BoardHints {
    /// Columns (8, 9 for xiangqi, 10 for 10×10 draughts).
    pub width: u8,
    /// Rows (8, 10 for xiangqi and 10×10 draughts).
    pub height: u8,
    /// Levels: 3 for chess3d, 1 otherwise.
    pub levels: u8,
    /// Every piece.
    pub pieces: Vec<PieceHint>,
    /// The king (chess) or general (xiangqi) of the side to move, when it is in check.
    pub check: Option<Spot>,
    /// Draughts: the spot of each playable square, square 1 first (PDN numbering).
    /// Empty for the other games.
    pub numbers: Vec<Spot>,
    /// Column labels from the left (`a`…, chess3d `1`…`8`).
    pub column_labels: Vec<String>,
    /// Row labels from the bottom (`1`…, xiangqi `0`…`9`, chess3d `A`…`H`).
    pub row_labels: Vec<String>,
    /// The name of every spot in the game's notation, `names[level][y][x]`: chess
    /// `e4`, xiangqi `e0`, chess3d `0B5`; draughts the square number (`32`) on the
    /// playable squares and the column and row (`a1`) on the others.
    pub names: Vec<Vec<Vec<String>>>,
}

/// A move as a board shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveHint {
    /// The move format (`e2e4`, `h2e2`, `11-15`, `0B5-0C5`).
    pub text: String,
    /// The display notation (SAN, WXF, PDN, chess3d short form).
    pub notation: String,
    /// The origin, then every square the piece stops on: two spots, or more for a
    /// draughts capture with several jumps. Chess castling is the king's move as the
    /// move format writes it (to the rook's square in Chess960).
    pub path: Vec<Spot>,
    /// The squares of the pieces it captures (draughts; chess and chess3d: the
    /// destination, or the pawn taken en passant; xiangqi: the destination).
    pub captures: Vec<Spot>,
    /// Chess: the promotion piece's letter (`q`, `r`, `b`, `n`).
    pub promotion: Option<char>,
}

impl AnyPosition {
    /// The position as a grid of pieces, with the checked king, the name of every
    /// spot and, in draughts, the square numbers.
    #[must_use]
    pub fn board_hints(&self) -> BoardHints {
        let board = self.board_description();
        let spot = |level: u8, column: u8, row: u8| [level, column, board.height - 1 - row];
        let pieces = board
            .pieces
            .iter()
            .map(|p| PieceHint {
                at: spot(p.level, p.column, p.row),
                side: p.side,
                kind: p.letter,
            })
            .collect();
        // The checked king or general, and draughts' square numbers: what the board
        // description does not say.
        let (check, numbers) = match self {
            AnyPosition::Chess(pos) => (
                pos.is_check().then(|| chess_spot(pos.king_of(pos.turn()))),
                Vec::new(),
            ),
            AnyPosition::Xiangqi(pos) => {
                let check = pos.is_check().then(|| {
                    let g = pos.general_of(pos.turn());
                    [0, narrow(g.file() as usize), narrow(g.rank() as usize)]
                });
                (check, Vec::new())
            }
            AnyPosition::Draughts(pos) => {
                let rules = pos.rule_set().rules();
                let numbers = (1..=rules.board.squares())
                    .map(|n| draughts_spot(rules, n))
                    .collect();
                (None, numbers)
            }
            AnyPosition::Chess3d(_) => (None, Vec::new()),
        };
        let mut row_labels = board.row_labels;
        row_labels.reverse();
        let names = self.spot_names(board.levels, &board.column_labels, &row_labels, &numbers);
        BoardHints {
            width: board.width,
            height: board.height,
            levels: board.levels,
            pieces,
            check,
            numbers,
            column_labels: board.column_labels,
            row_labels,
            names,
        }
    }

    /// `names[level][y][x]` of [`BoardHints`], from the labels of the columns and of
    /// the rows (from the bottom) and draughts' numbered spots.
    fn spot_names(
        &self,
        levels: u8,
        columns: &[String],
        rows: &[String],
        numbers: &[Spot],
    ) -> Vec<Vec<Vec<String>>> {
        let name = |level: u8, column: &str, row: &str| match self {
            AnyPosition::Chess(_) | AnyPosition::Xiangqi(_) | AnyPosition::Draughts(_) => {
                format!("{column}{row}")
            }
            AnyPosition::Chess3d(_) => format!("{level}{row}{column}"),
        };
        let mut names: Vec<Vec<Vec<String>>> = (0..levels)
            .map(|level| {
                rows.iter()
                    .map(|row| {
                        columns
                            .iter()
                            .map(|column| name(level, column, row))
                            .collect()
                    })
                    .collect()
            })
            .collect();
        for (n, &[level, x, y]) in (1..).zip(numbers) {
            if let Some(spot) = names
                .get_mut(usize::from(level))
                .and_then(|rows| rows.get_mut(usize::from(y)))
                .and_then(|row| row.get_mut(usize::from(x)))
            {
                *spot = n.to_string();
            }
        }
        names
    }

    /// Every legal move with its notation and the squares it passes through, in the
    /// order of [`AnyPosition::legal_moves_text`].
    #[must_use]
    pub fn move_hints(&self) -> Vec<MoveHint> {
        self.legal_moves_with_notation()
            .into_iter()
            .filter_map(|(text, notation)| self.hint_for(text, notation))
            .collect()
    }

    /// The hint of one legal move given in the move format or the display notation;
    /// `None` when it is not a legal move of this position.
    #[must_use]
    pub fn move_hint(&self, text: &str) -> Option<MoveHint> {
        let mut after = self.clone();
        let (text, notation) = after.play_text_with_notation(text).ok()?;
        self.hint_for(text, notation)
    }

    /// Xiangqi: a legal move of this position, given in any notation the game reads
    /// (ICCS, WXF or Chinese), written in Chinese notation (`炮二平五`). `None` for the
    /// other games and for text that is not a legal move here.
    ///
    /// ```
    /// use tablero_games::AnyPosition;
    ///
    /// let start = AnyPosition::new("xiangqi", None, None).unwrap();
    /// assert_eq!(start.chinese_notation("h2e2").as_deref(), Some("炮二平五"));
    /// assert_eq!(start.chinese_notation("C2.5").as_deref(), Some("炮二平五"));
    /// assert_eq!(start.chinese_notation("h2h8"), None);
    /// ```
    #[must_use]
    pub fn chinese_notation(&self, text: &str) -> Option<String> {
        match self {
            AnyPosition::Xiangqi(pos) => pos.parse_move(text).ok().map(|m| pos.chinese(m)),
            _ => None,
        }
    }

    /// The hint of a legal move in the move format.
    fn hint_for(&self, text: String, notation: String) -> Option<MoveHint> {
        let bytes = text.as_bytes();
        let (path, captures, promotion) = match self {
            AnyPosition::Chess(pos) => {
                let from = chess_text_spot(bytes.get(0..2)?)?;
                let to = chess_text_spot(bytes.get(2..4)?)?;
                let promotion = bytes.get(4).map(|&b| char::from(b));
                let occupied = |spot: Spot| {
                    tablero_chess::Square::new(u32::from(spot[2]) * 8 + u32::from(spot[1]))
                        .and_then(|sq| pos.board().piece_at(sq))
                };
                let mover = occupied(from)?;
                let captures = match occupied(to) {
                    // Castling in Chess960 goes to the own rook's square.
                    Some(p) if p.side == mover.side => Vec::new(),
                    Some(_) => vec![to],
                    // A pawn that changes file onto an empty square takes en passant.
                    None if mover.role == tablero_chess::Role::Pawn && from[1] != to[1] => {
                        vec![[0, to[1], from[2]]]
                    }
                    None => Vec::new(),
                };
                (vec![from, to], captures, promotion)
            }
            AnyPosition::Xiangqi(pos) => {
                let spot = |b: &[u8]| -> Option<Spot> {
                    let file = b.first()?.checked_sub(b'a').filter(|&f| f < 9)?;
                    let rank = b.get(1)?.checked_sub(b'0').filter(|&r| r < 10)?;
                    Some([0, file, rank])
                };
                let from = spot(bytes.get(0..2)?)?;
                let to = spot(bytes.get(2..4)?)?;
                let taken = pos
                    .board()
                    .get(usize::from(to[2]) * 9 + usize::from(to[1]))
                    .copied()
                    .flatten()
                    .is_some();
                (
                    vec![from, to],
                    if taken { vec![to] } else { Vec::new() },
                    None,
                )
            }
            AnyPosition::Draughts(pos) => {
                let m = pos.parse_move(&text).ok()?;
                let rules = pos.rule_set().rules();
                let spot = |n: u8| draughts_spot(rules, n);
                let mut path = vec![spot(m.from())];
                path.extend(m.landings().into_iter().map(spot));
                let captures = m.captured().iter().map(spot).collect();
                (path, captures, None)
            }
            AnyPosition::Chess3d(pos) => {
                let (from_text, to_text) = text.split_once('-')?;
                let from = chess3d_text_spot(from_text)?;
                let to = chess3d_text_spot(to_text)?;
                let taken = tablero_chess3d::Square::new(to[0], to[2], to[1])
                    .and_then(|sq| pos.board().piece_at(sq))
                    .is_some();
                (
                    vec![from, to],
                    if taken { vec![to] } else { Vec::new() },
                    None,
                )
            }
        };
        Some(MoveHint {
            text,
            notation,
            path,
            captures,
            promotion,
        })
    }
}

/// A board index that fits a byte: every board here is at most 10 wide and high.
fn narrow(i: usize) -> u8 {
    u8::try_from(i).unwrap_or(u8::MAX)
}

fn chess_spot(sq: tablero_chess::Square) -> Spot {
    [
        0,
        narrow(sq.file().index() as usize),
        narrow(sq.rank().index() as usize),
    ]
}

/// `e2` as a spot.
fn chess_text_spot(b: &[u8]) -> Option<Spot> {
    let file = b.first()?.checked_sub(b'a').filter(|&f| f < 8)?;
    let rank = b.get(1)?.checked_sub(b'1').filter(|&r| r < 8)?;
    Some([0, file, rank])
}

/// `0B5` (level, row letter, column digit) as a spot.
fn chess3d_text_spot(text: &str) -> Option<Spot> {
    let b = text.as_bytes();
    let level = b.first()?.checked_sub(b'0').filter(|&l| l < 3)?;
    let row = b
        .get(1)?
        .to_ascii_uppercase()
        .checked_sub(b'A')
        .filter(|&r| r < 8)?;
    let column = b.get(2)?.checked_sub(b'1').filter(|&c| c < 8)?;
    (b.len() == 3).then_some([level, column, row])
}

/// The spot of PDN square `n` (from 1): the draughts crate's `(column, row)` from the
/// top-left, turned into rows counted from White's side.
fn draughts_spot(rules: &tablero_draughts::Rules, n: u8) -> Spot {
    let width = rules.board.width();
    let (column, row) = rules.square_coords(n).unwrap_or((0, 0));
    [0, column, width - 1 - row]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(id: &str, variant: Option<&str>) -> AnyPosition {
        AnyPosition::new(id, variant, None).expect("a catalog game")
    }

    #[test]
    fn chinese_notation_for_xiangqi_only() {
        let mut pos = game("xiangqi", None);
        assert_eq!(pos.chinese_notation("h0g2").as_deref(), Some("马二进三"));
        pos.play_text("h2e2").expect("a legal move");
        // Black's files count from black's right, in full-width digits.
        assert_eq!(pos.chinese_notation("h7e7").as_deref(), Some("炮８平５"));
        assert_eq!(pos.chinese_notation("e0e9"), None);
        assert_eq!(game("chess", None).chinese_notation("e2e4"), None);
    }

    #[test]
    fn every_legal_move_has_a_hint_with_a_path() {
        for (id, variant) in [
            ("chess", None),
            ("chess", Some("chess960")),
            ("xiangqi", None),
            ("draughts", Some("english")),
            ("draughts", Some("international")),
            ("draughts", Some("russian")),
            ("draughts", Some("italian")),
            ("chess3d", None),
        ] {
            let pos = game(id, variant);
            let hints = pos.move_hints();
            assert_eq!(
                hints.len(),
                pos.legal_moves_text().len(),
                "{id} {variant:?}"
            );
            let board = pos.board_hints();
            for h in &hints {
                assert!(h.path.len() >= 2, "{id}: {h:?}");
                for s in &h.path {
                    assert!(s[0] < board.levels && s[1] < board.width && s[2] < board.height);
                }
                // The origin holds a piece of the side to move.
                assert!(
                    board.pieces.iter().any(|p| p.at == h.path[0]),
                    "{id}: {h:?}"
                );
            }
        }
    }

    #[test]
    fn draughts_numbers_follow_each_orientation() {
        // English: square 1 is b8 (x 1, top row), square 32 is g1... as White sees it.
        let english = game("draughts", Some("english")).board_hints();
        assert_eq!(english.numbers.first(), Some(&[0, 1, 7]));
        assert_eq!(english.numbers.get(4), Some(&[0, 0, 6]));
        assert_eq!(english.numbers.last(), Some(&[0, 6, 0]));
        // Italian: a1 light, square 1 is the top-left corner.
        let italian = game("draughts", Some("italian")).board_hints();
        assert_eq!(italian.numbers.first(), Some(&[0, 0, 7]));
        // International: 50 squares, 46 is a1.
        let international = game("draughts", Some("international")).board_hints();
        assert_eq!(international.numbers.len(), 50);
        assert_eq!(international.numbers.get(45), Some(&[0, 0, 0]));
        // Every numbered square is a dark one of the same colour class.
        for b in [english, international] {
            let parity = |s: &Spot| (s[1] + s[2]) % 2;
            assert!(b.numbers.iter().all(|s| parity(s) == parity(&b.numbers[0])));
        }
    }

    #[test]
    fn every_spot_has_the_name_the_game_gives_its_square() {
        for (id, variant) in [
            ("chess", None),
            ("xiangqi", None),
            ("draughts", Some("english")),
            ("draughts", Some("international")),
            ("chess3d", None),
        ] {
            let pos = game(id, variant);
            let board = pos.board_hints();
            let (levels, height, width) = (board.levels, board.height, board.width);
            assert_eq!(board.names.len(), usize::from(levels), "{id}");
            for level in &board.names {
                assert_eq!(level.len(), usize::from(height), "{id}");
                assert!(
                    level.iter().all(|row| row.len() == usize::from(width)),
                    "{id}"
                );
            }
            assert_eq!(board.column_labels.len(), usize::from(width), "{id}");
            assert_eq!(board.row_labels.len(), usize::from(height), "{id}");
            let name = |[level, x, y]: Spot| {
                &board.names[usize::from(level)][usize::from(y)][usize::from(x)]
            };
            // The names the board description gives the squares of the pieces.
            let description = pos.board_description();
            for (hint, placed) in board.pieces.iter().zip(&description.pieces) {
                assert_eq!(hint.at[0], placed.level, "{id}");
                assert_eq!(name(hint.at), &placed.square, "{id}: {hint:?}");
            }
            // No two spots share a name.
            let mut all: Vec<&String> = board.names.iter().flatten().flatten().collect();
            all.sort();
            all.dedup();
            assert_eq!(
                all.len(),
                board.names.iter().flatten().flatten().count(),
                "{id}"
            );
        }
        let chess = game("chess", None).board_hints();
        assert_eq!(chess.names[0][3][4], "e4");
        assert_eq!(chess.row_labels.first().map(String::as_str), Some("1"));
        let xiangqi = game("xiangqi", None).board_hints();
        assert_eq!(xiangqi.names[0][0][4], "e0");
        assert_eq!(xiangqi.names[0][9][8], "i9");
        let chess3d = game("chess3d", None).board_hints();
        assert_eq!(chess3d.names[0][1][4], "0B5");
        assert_eq!(chess3d.names[2][7][0], "2H1");
        assert_eq!(chess3d.column_labels.first().map(String::as_str), Some("1"));
        assert_eq!(chess3d.row_labels.first().map(String::as_str), Some("A"));
        // English draughts: a1 is playable (square 29), b1 is not.
        let english = game("draughts", Some("english")).board_hints();
        assert_eq!(english.names[0][0][0], "29");
        assert_eq!(english.names[0][0][1], "b1");
        assert_eq!(english.names[0][7][1], "1");
    }

    #[test]
    fn a_draughts_multi_capture_lists_every_landing() {
        let pos = AnyPosition::new("draughts", Some("english"), Some("B:W18,27:B14"))
            .expect("a legal position");
        let hints = pos.move_hints();
        assert_eq!(hints.len(), 1);
        let m = &hints[0];
        assert_eq!(m.path.len(), 3, "{m:?}");
        assert_eq!(m.captures.len(), 2);
    }

    #[test]
    fn chess_check_en_passant_and_promotion() {
        let pos = AnyPosition::new("chess", None, Some("4k3/P7/8/3pP3/8/8/8/4K2R w K d6 0 1"))
            .expect("a legal position");
        let hints = pos.move_hints();
        let ep = hints.iter().find(|h| h.text == "e5d6").expect("en passant");
        assert_eq!(ep.captures, vec![[0, 3, 4]]);
        let promotions: Vec<_> = hints.iter().filter(|h| h.promotion.is_some()).collect();
        assert_eq!(promotions.len(), 4);
        let checked = AnyPosition::new("chess", None, Some("4k3/8/8/8/8/8/8/4K2R w K - 0 1"))
            .expect("legal")
            .move_hint("Rh8")
            .expect("legal move");
        assert_eq!(checked.path, vec![[0, 7, 0], [0, 7, 7]]);
        let mut after = pos.clone();
        after.play_text("a8q").expect("legal");
        assert_eq!(after.board_hints().check, Some([0, 4, 7]));
    }

    #[test]
    fn xiangqi_and_chess3d_spots() {
        let x = game("xiangqi", None);
        let cannon = x.move_hint("h2e2").expect("legal");
        assert_eq!(cannon.path, vec![[0, 7, 2], [0, 4, 2]]);
        assert_eq!(cannon.notation, "C2.5");
        let c = game("chess3d", None);
        let board = c.board_hints();
        assert_eq!(board.levels, 3);
        assert!(
            board
                .pieces
                .iter()
                .any(|p| p.at == [1, 3, 0] && p.kind == 'd')
        );
        let level = c
            .move_hints()
            .into_iter()
            .find(|h| h.path[0][0] != h.path[1][0])
            .expect("chess3d has level moves at the start");
        assert_eq!(level.path[0][1..], level.path[1][1..]);
    }
}
