//! The JSON the API sends: a game's state and its parts.

use std::collections::BTreeMap;

use serde::Serialize;

/// A game's state: `GET /api/games/{id}`, every WebSocket message, and the answer to
/// every change. Sides are named as the game names them (`white`/`black`,
/// `red`/`black` in xiangqi).
#[derive(Debug, Clone, Serialize)]
pub struct GameView {
    /// The game's id.
    pub id: String,
    /// The game kind id.
    pub game: &'static str,
    /// The variant id.
    pub variant: &'static str,
    /// `hotseat`, `computer` or `online`.
    pub mode: &'static str,
    /// The start position in the game's position format.
    pub start_position: String,
    /// The current position in the game's position format.
    pub position: String,
    /// The side to move.
    pub turn: &'static str,
    /// The moves played, in the move format and the display notation.
    pub moves: Vec<MoveView>,
    /// The legal moves in the move format (empty once the game is over).
    pub legal: Vec<String>,
    /// `playing` or `finished`.
    pub status: &'static str,
    /// The result, once the game is over.
    pub outcome: Option<OutcomeView>,
    /// Who plays each side.
    pub players: BTreeMap<&'static str, PlayerView>,
    /// The clock, if the game has one.
    pub clock: Option<ClockView>,
    /// The side whose draw offer is pending.
    pub draw_offer: Option<&'static str>,
    /// The side whose takeback request is pending (online games).
    pub takeback_request: Option<&'static str>,
    /// A draw the side to move may claim now (reason id).
    pub claimable_draw: Option<&'static str>,
    /// Chess3d's generator seed (16 hex digits).
    pub seed: Option<String>,
    /// A Chess960 game's start number (0–959, the standard numbering).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chess960_start: Option<u32>,
    /// Grows with every change: a client can drop stale messages.
    pub version: u64,
    /// The current position as a grid of pieces, for drawing it.
    pub board: BoardView,
    /// The legal moves (as `legal`) with their notation and squares.
    pub legal_moves: Vec<MoveHintView>,
    /// The last move played, with its squares.
    pub last_move: Option<MoveHintView>,
}

/// One move of the list.
#[derive(Debug, Clone, Serialize)]
pub struct MoveView {
    /// The move format (`e2e4`, `h2e2`, `11-15`, `0B5-0C5`).
    pub r#move: String,
    /// The display notation (SAN, WXF, PDN, chess3d short form).
    pub notation: String,
    /// Xiangqi: the move in Chinese notation (`炮二平五`); absent for the other games.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub notation_zh: Option<String>,
}

/// How the game ended.
#[derive(Debug, Clone, Serialize)]
pub struct OutcomeView {
    /// The winner, `null` for a draw.
    pub winner: Option<&'static str>,
    /// The reason id (`checkmate`, `timeout`, `resignation`, ...).
    pub reason: &'static str,
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: &'static str,
    /// For people: `black wins by checkmate`.
    pub text: String,
}

/// Who sits on a side.
#[derive(Debug, Clone, Serialize)]
#[serde(untagged)]
pub enum PlayerView {
    /// A person (the name may be absent).
    Human {
        /// The player's name.
        name: Option<String>,
    },
    /// The computer at a level.
    Computer {
        /// The level, 1 to 10.
        computer: u8,
    },
}

/// A clock as it stands when the state is sent.
#[derive(Debug, Clone, Serialize)]
pub struct ClockView {
    /// `fischer` (per side) or `game` (one clock for the whole game, chess3d).
    pub kind: &'static str,
    /// The starting time.
    pub initial_ms: u64,
    /// The increment per move (Fischer).
    pub increment_ms: u64,
    /// The remaining time per side (equal for a game clock).
    pub remaining_ms: BTreeMap<&'static str, u64>,
    /// The side whose time is running, `null` before the first move and after the end.
    pub running: Option<&'static str>,
}

/// A place on a board: `[level, x, y]`, `x` from the left and `y` from the bottom as
/// the first side sees the board (see `tablero_games::Spot`).
pub type SpotView = [u8; 3];

/// The position as a grid of pieces, for drawing it.
#[derive(Debug, Clone, Serialize)]
pub struct BoardView {
    /// Columns.
    pub width: u8,
    /// Rows.
    pub height: u8,
    /// Levels (3 in chess3d).
    pub levels: u8,
    /// Every piece.
    pub pieces: Vec<PieceView>,
    /// The checked king or general of the side to move.
    pub check: Option<SpotView>,
    /// Draughts: the spot of each square number, square 1 first.
    pub numbers: Vec<SpotView>,
    /// Column labels from the left.
    pub column_labels: Vec<String>,
    /// Row labels from the bottom.
    pub row_labels: Vec<String>,
    /// The name of every spot in the game's notation, `names[level][y][x]` (see
    /// `tablero_games::BoardHints`).
    pub names: Vec<Vec<Vec<String>>>,
}

/// A piece on the board.
#[derive(Debug, Clone, Serialize)]
pub struct PieceView {
    /// Where it stands.
    pub at: SpotView,
    /// Whose it is (the game's side name).
    pub side: &'static str,
    /// Its kind as a lowercase letter (see `tablero_games::PieceHint`).
    pub kind: char,
}

/// A move with the squares it passes through, for drawing and choosing it.
#[derive(Debug, Clone, Serialize)]
pub struct MoveHintView {
    /// The move format.
    pub r#move: String,
    /// The display notation.
    pub notation: String,
    /// The origin and every square the piece stops on.
    pub path: Vec<SpotView>,
    /// The squares of captured pieces.
    pub captures: Vec<SpotView>,
    /// Chess: the promotion piece's letter.
    pub promotion: Option<char>,
}

/// A position at some ply of a game, for reviewing: `GET /api/games/{id}/positions/{ply}`.
#[derive(Debug, Clone, Serialize)]
pub struct PositionView {
    /// Moves played before it (0: the start).
    pub ply: usize,
    /// The position in the game's position format.
    pub position: String,
    /// The pieces.
    pub board: BoardView,
    /// The move that led to it.
    pub last_move: Option<MoveHintView>,
}

impl BoardView {
    /// The board of `game`, sides named by `sides` (first side first).
    pub(crate) fn of(game: &tablero_games::AnyPosition, sides: [&'static str; 2]) -> BoardView {
        let hints = game.board_hints();
        BoardView {
            width: hints.width,
            height: hints.height,
            levels: hints.levels,
            pieces: hints
                .pieces
                .into_iter()
                .map(|p| PieceView {
                    at: p.at,
                    side: sides[p.side.index()],
                    kind: p.kind,
                })
                .collect(),
            check: hints.check,
            numbers: hints.numbers,
            column_labels: hints.column_labels,
            row_labels: hints.row_labels,
            names: hints.names,
        }
    }
}

impl From<tablero_games::MoveHint> for MoveHintView {
    fn from(hint: tablero_games::MoveHint) -> MoveHintView {
        MoveHintView {
            r#move: hint.text,
            notation: hint.notation,
            path: hint.path,
            captures: hint.captures,
            promotion: hint.promotion,
        }
    }
}

impl PositionView {
    /// The position after `ply` moves of `record` (`None` past the last move).
    pub(crate) fn of(
        record: &tablero_games::AnyRecord,
        ply: usize,
        sides: [&'static str; 2],
    ) -> Option<PositionView> {
        let position = if ply == record.plies() {
            record.position()
        } else {
            record.history().get(ply)?
        };
        Some(PositionView {
            ply,
            position: position.position_text(),
            board: BoardView::of(position, sides),
            last_move: MoveHintView::played(record, ply),
        })
    }
}

impl MoveHintView {
    /// The `ply`-th move of `record` (from 1), with its squares.
    pub(crate) fn played(record: &tablero_games::AnyRecord, ply: usize) -> Option<MoveHintView> {
        let before = ply.checked_sub(1)?;
        let previous = record.history().get(before)?;
        previous
            .move_hint(&record.moves().get(before)?.text)
            .map(MoveHintView::from)
    }
}
