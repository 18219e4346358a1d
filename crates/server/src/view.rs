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
    /// Grows with every change: a client can drop stale messages.
    pub version: u64,
}

/// One move of the list.
#[derive(Debug, Clone, Serialize)]
pub struct MoveView {
    /// The move format (`e2e4`, `h2e2`, `11-15`, `0B5-0C5`).
    pub r#move: String,
    /// The display notation (SAN, WXF, PDN, chess3d short form).
    pub notation: String,
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
