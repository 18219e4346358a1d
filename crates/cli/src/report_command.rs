//! `tablero report board|linear|players|top10`: the Graphviz reports as DOT or SVG.

use std::io::Write;
use std::path::PathBuf;

use clap::Subcommand;
use tablero_reports::{
    Diagram, Order, PlayerLine, board_level, graphviz_render, linearisation, player_tree, replay,
    sparse_matrix, top_ten,
};
use tablero_store::Store;

use crate::players_command::{db_url, runtime};

/// Options of `tablero report`.
#[derive(Debug, clap::Args)]
pub(crate) struct ReportArgs {
    #[command(subcommand)]
    kind: ReportCommand,
    /// Write SVG instead of DOT.
    #[arg(long, global = true)]
    svg: bool,
    /// Draw the SVG with Graphviz's `dot` (must be installed) instead of the
    /// built-in renderer.
    #[arg(long, global = true, requires = "svg")]
    graphviz: bool,
    /// Write to this file instead of standard output.
    #[arg(long, global = true)]
    out: Option<PathBuf>,
    /// Database URL (`sqlite://PATH` or `postgres://USER@HOST/DATABASE`); default:
    /// tablero.db in the user's data directory, as for `tablero serve`.
    #[arg(long, global = true, env = "TABLERO_DB", hide_env_values = true)]
    db: Option<String>,
}

/// Which position a board report draws.
#[derive(Debug, clap::Args)]
struct BoardArgs {
    /// Game id (chess, xiangqi, draughts, chess3d); or give --game-id.
    game: Option<String>,
    /// Moves to play from the position first.
    moves: Vec<String>,
    /// Variant id.
    #[arg(long)]
    variant: Option<String>,
    /// Start position in the game's format; default: the start position.
    #[arg(long)]
    fen: Option<String>,
    /// A game in the database, drawn after its last move.
    #[arg(long, conflicts_with_all = ["game", "variant", "fen"])]
    game_id: Option<String>,
    /// Chess3d's level (0, 1 or 2); default 0.
    #[arg(long)]
    level: Option<u8>,
}

#[derive(Debug, Subcommand)]
enum ReportCommand {
    /// A board (or chess3d level) as an orthogonal sparse matrix.
    Board {
        #[command(flatten)]
        board: BoardArgs,
    },
    /// A board's occupied squares as a singly linked list.
    Linear {
        #[command(flatten)]
        board: BoardArgs,
        /// `row` (row-major, default) or `column` (column-major).
        #[arg(long, default_value = "row")]
        order: String,
    },
    /// The players as a binary search tree by name, in registration order.
    Players,
    /// The ten players with the most games won as a linked list.
    Top10,
}

pub(crate) fn run(args: ReportArgs, out: &mut impl Write) -> Result<(), String> {
    let url = db_url(args.db);
    let diagram = match &args.kind {
        ReportCommand::Board { board } => sparse_matrix(&load_board(board, &url)?),
        ReportCommand::Linear { board, order } => {
            let order: Order = order.parse().map_err(|e| format!("{e}"))?;
            linearisation(&load_board(board, &url)?, order)
        }
        ReportCommand::Players => player_tree(&player_lines(&url)?),
        ReportCommand::Top10 => top_ten(&player_lines(&url)?),
    };
    let bytes = render(&diagram, args.svg, args.graphviz)?;
    match &args.out {
        Some(path) => {
            std::fs::write(path, bytes).map_err(|e| format!("cannot write {}: {e}", path.display()))
        }
        None => out
            .write_all(&bytes)
            .and_then(|()| out.flush())
            .map_err(|e| format!("cannot write output: {e}")),
    }
}

fn render(diagram: &Diagram, svg: bool, graphviz: bool) -> Result<Vec<u8>, String> {
    match (svg, graphviz) {
        (false, _) => Ok(diagram.to_dot().into_bytes()),
        (true, false) => Ok(diagram.to_svg().into_bytes()),
        (true, true) => graphviz_render(&diagram.to_dot(), "svg").map_err(|e| e.to_string()),
    }
}

fn load_board(args: &BoardArgs, url: &str) -> Result<tablero_reports::BoardLevel, String> {
    let position = match (&args.game_id, &args.game) {
        (Some(id), _) => {
            if !args.moves.is_empty() {
                return Err("moves go with a game id argument, not with --game-id".to_owned());
            }
            let record = runtime()?.block_on(async {
                let store = Store::open(url).await.map_err(|e| e.to_string())?;
                let game = store.game(id).await.map_err(|e| e.to_string());
                store.close().await;
                game
            })?;
            let game = record.ok_or_else(|| format!("no game with id {id:?} in {url}"))?;
            replay(
                &game.game,
                Some(&game.variant),
                Some(&game.start_position),
                game.moves.iter().map(|m| m.text.as_str()),
            )
            .map_err(|e| format!("game {id:?}: {e}"))?
        }
        (None, Some(game)) => replay(
            game,
            args.variant.as_deref(),
            args.fen.as_deref(),
            args.moves.iter().map(String::as_str),
        )
        .map_err(|e| e.to_string())?,
        (None, None) => {
            return Err(
                "give a game (chess, xiangqi, draughts, chess3d) or --game-id ID".to_owned(),
            );
        }
    };
    board_level(&position, args.level).map_err(|e| e.to_string())
}

fn player_lines(url: &str) -> Result<Vec<PlayerLine>, String> {
    let players = runtime()?.block_on(async {
        let store = Store::open(url).await.map_err(|e| e.to_string())?;
        let players = store.players().await.map_err(|e| e.to_string());
        store.close().await;
        players
    })?;
    Ok(tablero_server::player_lines(&players))
}
