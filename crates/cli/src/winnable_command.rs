//! `tablero winnable chess [--variant V] --fen POS`: which sides can still checkmate
//! by some series of legal moves (FIDE 5.2.2 and 6.9); the last line is exactly one
//! of `white black`, `white`, `black`, `none`, `undetermined`.

use std::io::Write;

/// Options of `tablero winnable`.
#[derive(Debug, clap::Args)]
pub(crate) struct WinnableArgs {
    /// Game id: only chess has the analysis.
    game: String,
    /// Variant id: standard or chess960.
    #[arg(long)]
    variant: Option<String>,
    /// The position (FEN; Shredder-FEN or X-FEN castling for chess960).
    #[arg(long)]
    fen: String,
}

pub(crate) fn run(args: WinnableArgs, out: &mut impl Write) -> Result<(), String> {
    let pos = tablero_games::AnyPosition::new(&args.game, args.variant.as_deref(), Some(&args.fen))
        .map_err(|e| e.to_string())?;
    let sides = pos.winnable_sides().ok_or_else(|| {
        format!(
            "the winnability analysis is for chess only, not {:?}",
            args.game
        )
    })?;
    writeln!(out, "{sides}").map_err(|e| format!("cannot write output: {e}"))
}
