//! `tablero winnable chess [--variant V] --fen POS`: which sides can still checkmate
//! by some series of legal moves (FIDE 5.2.2 and 6.9); the last line is exactly one
//! of `white black`, `white`, `black`, `none`, `undetermined`.

use std::io::Write;

use tablero_games::{AnyPosition, GameKind};

/// Options of `tablero winnable`.
#[derive(Debug, clap::Args)]
pub(crate) struct WinnableArgs {
    /// Game id: only chess has the analysis.
    game: GameKind,
    /// Variant id: standard or chess960.
    #[arg(long)]
    variant: Option<String>,
    /// The position (FEN; Shredder-FEN or X-FEN castling for chess960).
    #[arg(long)]
    fen: String,
    /// Search nodes per side before answering `undetermined` (default 10,000,000:
    /// seconds at most on real positions, tens of seconds on the hardest constructed
    /// ones; the server's per-move check uses 400,000).
    #[arg(long, default_value_t = tablero_games::THOROUGH_UNWINNABILITY_BUDGET)]
    nodes: u64,
}

pub(crate) fn run(args: WinnableArgs, out: &mut impl Write) -> Result<(), String> {
    let variant = args
        .game
        .variant(args.variant.as_deref())
        .map_err(|e| e.to_string())?;
    let pos = AnyPosition::of(args.game, variant, Some(&args.fen)).map_err(|e| e.to_string())?;
    let sides = pos.winnable_sides(args.nodes).ok_or_else(|| {
        format!(
            "the winnability analysis is for chess only, not {:?}",
            args.game.id()
        )
    })?;
    writeln!(out, "{sides}").map_err(|e| format!("cannot write output: {e}"))
}
