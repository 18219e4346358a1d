//! Any position's board as plain data: its levels and size, the labels of its rows
//! and columns, how its squares look, and each piece with its square's name, its own
//! name and its symbols. Code that draws or reports a board (the terminal board, the
//! reports) reads this instead of matching on the games.

use tablero_chess::{Chess, Role as ChessRole, Square as ChessSquare};
use tablero_chess3d::{Chess3d, Kind, Square as Square3d};
use tablero_core::Side;
use tablero_draughts::{Draughts, Role as DraughtsRole};
use tablero_xiangqi::Xiangqi;

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
    /// How the squares look and which are played on.
    pub pattern: Pattern,
    /// The numbers of the playable squares, where the notation numbers them
    /// (draughts), in number order.
    pub numbers: Vec<NumberedSquare>,
    /// The square of the king or general in check, if one is.
    pub in_check: Option<Place>,
    /// A river across the board (xiangqi's, between the 5th and 6th rows from the top).
    pub river: Option<River>,
    /// Whether each side also counts the files from its own right, 1 to `width` (WXF
    /// notation): shown above and below the board.
    pub files_counted_per_side: bool,
    /// Whether the first side's pieces are red (xiangqi) rather than white.
    pub first_side_red: bool,
    /// The pieces whose symbols are another game's (chess3d draws its pieces with
    /// chess symbols by their names, not their moves), to show a key.
    pub key: Vec<KeyEntry>,
}

/// A square by level, row from the top and column from the left.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Place {
    /// Its level.
    pub level: u8,
    /// Its row from the top.
    pub row: u8,
    /// Its column from the left.
    pub column: u8,
}

/// How a board's squares look.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pattern {
    /// Light and dark squares; the first side's bottom-left square is dark (chess's a1).
    Checkered,
    /// Pieces stand on the points where lines cross (xiangqi).
    Points,
    /// Only the dark squares are played on, each numbered (draughts).
    NumberedDarkSquares,
}

/// A playable square and its number.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NumberedSquare {
    /// Where it is.
    pub place: Place,
    /// Its number in the notation.
    pub number: u16,
}

/// A river between two rows, with what is written on it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct River {
    /// The row (from the top) the river runs below.
    pub below_row: u8,
    /// Its inscription.
    pub text: &'static str,
    /// The inscription in ASCII.
    pub ascii: &'static str,
}

/// One line of a key to the piece symbols.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KeyEntry {
    /// The first side's symbol.
    pub white: char,
    /// The second side's symbol.
    pub black: char,
    /// The piece's letter in the position format.
    pub letter: char,
    /// The piece's name.
    pub name: &'static str,
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
    /// Its symbol: a Unicode chess or draughts symbol, or a Chinese character.
    pub symbol: char,
    /// Its symbol in ASCII: the position format's letter (uppercase for the first
    /// side), or draughts' `w`/`W`/`b`/`B` for men and kings.
    pub ascii: char,
}

/// The Unicode chess symbols, pawn to king: hollow for White, solid for Black.
const CHESS_SYMBOLS: [[char; 6]; 2] = [
    ['♙', '♘', '♗', '♖', '♕', '♔'],
    ['♟', '♞', '♝', '♜', '♛', '♚'],
];

fn chess_symbol(side: Side, role: ChessRole) -> char {
    let index = match role {
        ChessRole::Pawn => 0,
        ChessRole::Knight => 1,
        ChessRole::Bishop => 2,
        ChessRole::Rook => 3,
        ChessRole::Queen => 4,
        ChessRole::King => 5,
    };
    CHESS_SYMBOLS[side.index()][index]
}

/// The chess symbol of a chess3d piece, by its name, not its move: the alfil
/// (bishop) slides straight and the torre (rook) diagonally.
fn chess3d_symbol(side: Side, kind: Kind) -> char {
    let role = match kind {
        Kind::Peon => ChessRole::Pawn,
        Kind::Caballo => ChessRole::Knight,
        Kind::Alfil => ChessRole::Bishop,
        Kind::Torre => ChessRole::Rook,
        Kind::Dama => ChessRole::Queen,
        Kind::Rey => ChessRole::King,
    };
    chess_symbol(side, role)
}

fn chess3d_name(kind: Kind) -> &'static str {
    match kind {
        Kind::Peon => "peón",
        Kind::Alfil => "alfil",
        Kind::Caballo => "caballo",
        Kind::Torre => "torre",
        Kind::Dama => "dama",
        Kind::Rey => "rey",
    }
}

fn place(level: u8, row: u8, column: u8) -> Place {
    Place { level, row, column }
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
        match self {
            AnyPosition::Chess(pos) => chess_board(pos),
            AnyPosition::Xiangqi(pos) => xiangqi_board(pos),
            AnyPosition::Draughts(pos) => draughts_board(pos),
            AnyPosition::Chess3d(pos) => chess3d_board(pos),
        }
    }
}

/// A one-level board of `width` × `height` with the given labels and pieces, and
/// nothing else marked: each game's builder fills in the rest.
fn plain_board(
    (width, height): (u8, u8),
    row_labels: Vec<String>,
    column_labels: Vec<String>,
    pieces: Vec<PlacedPiece>,
    pattern: Pattern,
) -> BoardDescription {
    BoardDescription {
        levels: 1,
        width,
        height,
        row_labels,
        column_labels,
        pieces,
        pattern,
        numbers: Vec::new(),
        in_check: None,
        river: None,
        files_counted_per_side: false,
        first_side_red: false,
        key: Vec::new(),
    }
}

fn chess_board(pos: &Chess) -> BoardDescription {
    let board = pos.board();
    let mut pieces = Vec::new();
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
                    symbol: chess_symbol(p.side, p.role),
                    ascii: p.char(),
                });
            }
        }
    }
    let mut description = plain_board(
        (8, 8),
        (1..=8).rev().map(|r: u8| r.to_string()).collect(),
        labels(b'a', 8),
        pieces,
        Pattern::Checkered,
    );
    if pos.is_check() {
        let king = pos.king_of(pos.turn()).index();
        // Square indices run a1 = 0 to h8 = 63: both parts fit a u8.
        let (rank, file) = ((king / 8) as u8, (king % 8) as u8);
        description.in_check = Some(place(0, 7 - rank, file));
    }
    description
}

fn xiangqi_board(pos: &Xiangqi) -> BoardDescription {
    let board = pos.board();
    let mut pieces = Vec::new();
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
                    symbol: p.traditional_char(),
                    ascii: p.fen_char(),
                });
            }
        }
    }
    let mut description = plain_board(
        (9, 10),
        (0..10).rev().map(|r: u8| r.to_string()).collect(),
        labels(b'a', 9),
        pieces,
        Pattern::Points,
    );
    if pos.is_check() {
        let general = pos.general_of(pos.turn()).index();
        // Point indices run a0 = 0 to i9 = 89: both parts fit a u8.
        let (rank, file) = ((general / 9) as u8, (general % 9) as u8);
        description.in_check = Some(place(0, 9 - rank, file));
    }
    description.river = Some(River {
        below_row: 4,
        text: "楚 河        漢 界",
        ascii: "~~ river ~~",
    });
    description.files_counted_per_side = true;
    description.first_side_red = true;
    description
}

fn draughts_board(pos: &Draughts) -> BoardDescription {
    let rules = pos.rule_set().rules();
    let width = rules.board.width();
    let mut pieces = Vec::new();
    let mut numbers = Vec::new();
    for n in 1..=rules.board.squares() {
        let Some((column, row)) = rules.square_coords(n) else {
            continue;
        };
        numbers.push(NumberedSquare {
            place: place(0, row, column),
            number: u16::from(n),
        });
        if let Some(p) = pos.piece_at(n) {
            let (name, letter) = match p.role {
                DraughtsRole::Man => ("man", 'm'),
                DraughtsRole::King => ("king", 'k'),
            };
            let (symbol, ascii) = match (p.side, p.role) {
                (Side::White, DraughtsRole::Man) => ('⛀', 'w'),
                (Side::White, DraughtsRole::King) => ('⛁', 'W'),
                (Side::Black, DraughtsRole::Man) => ('⛂', 'b'),
                (Side::Black, DraughtsRole::King) => ('⛃', 'B'),
            };
            pieces.push(PlacedPiece {
                level: 0,
                row,
                column,
                square: n.to_string(),
                name,
                letter,
                side: p.side,
                symbol,
                ascii,
            });
        }
    }
    pieces.sort_by_key(|p| (p.row, p.column));
    let mut description = plain_board(
        (width, width),
        (1..=width).rev().map(|r| r.to_string()).collect(),
        labels(b'a', width),
        pieces,
        Pattern::NumberedDarkSquares,
    );
    description.numbers = numbers;
    description
}

fn chess3d_board(pos: &Chess3d) -> BoardDescription {
    let board = pos.board();
    let mut pieces = Vec::new();
    for level in 0..LEVELS_3D {
        for row in 0..8u8 {
            for column in 0..8u8 {
                let square = Square3d::new(level, 7 - row, column);
                if let Some((sq, p)) = square.and_then(|sq| board.piece_at(sq).map(|p| (sq, p))) {
                    pieces.push(PlacedPiece {
                        level,
                        row,
                        column,
                        square: sq.to_string(),
                        name: chess3d_name(p.kind),
                        letter: p.kind.char().to_ascii_lowercase(),
                        side: p.side,
                        symbol: chess3d_symbol(p.side, p.kind),
                        ascii: p.char(),
                    });
                }
            }
        }
    }
    let mut row_labels = labels(b'A', 8);
    row_labels.reverse();
    let mut description = plain_board(
        (8, 8),
        row_labels,
        (1..=8).map(|c: u8| c.to_string()).collect(),
        pieces,
        Pattern::Checkered,
    );
    description.levels = LEVELS_3D;
    description.key = Kind::ALL
        .into_iter()
        .map(|kind| KeyEntry {
            white: chess3d_symbol(Side::White, kind),
            black: chess3d_symbol(Side::Black, kind),
            letter: kind.char(),
            name: chess3d_name(kind),
        })
        .collect();
    description
}
