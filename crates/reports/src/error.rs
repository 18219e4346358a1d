/// Why a report cannot be made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReportError {
    /// The game has no such level.
    #[error("level {level}: {game} has {} (0 to {})", if *levels == 1 { "one level".to_owned() } else { format!("{levels} levels") }, levels.saturating_sub(1))]
    Level {
        /// The game id.
        game: &'static str,
        /// The level asked for.
        level: u8,
        /// How many levels the game has.
        levels: u8,
    },
    /// Not `board`, `linear`, `players` or `top10`.
    #[error("unknown report {0:?} (reports: board, linear, players, top10)")]
    Kind(String),
    /// Not `row` or `column`.
    #[error("unknown order {0:?} (orders: row, column)")]
    Order(String),
    /// The game, variant, position or a move is not valid.
    #[error("{0}")]
    Position(String),
    /// Graphviz is missing or failed.
    #[error("graphviz: {0}")]
    Graphviz(String),
}
