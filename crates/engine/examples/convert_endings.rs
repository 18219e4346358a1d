//! How often the chess engine converts a won ending against itself.
//!
//! ```text
//! convert_endings PIECES POSITIONS NODES [SEED]
//! convert_endings KQkr 24 10000        # queen against rook, 24 random positions
//! ```
//!
//! PIECES names White's pieces in upper case and Black's in lower case, one king
//! each (`KQkr`, `KRk`, `KBNk`). Each position puts them on random squares, White to
//! move, not in check and with no capture available (so no piece simply hangs). The
//! engine plays both sides at NODES a move, with the game's history, until mate, a
//! draw by rule or 200 plies. It prints each start and its end, then the number of
//! mates and the plies they took in all. Used to set the mop-up weights
//! (docs/engine.md, "Evaluation").

use std::process::ExitCode;

use tablero_chess::{CastlingMode, Chess, Game, Outcome, Reason};
use tablero_core::SplitMix64;
use tablero_engine::{ChessEvaluator, Engine, Limits};

const MAX_PLIES: usize = 200;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let parsed = match args.as_slice() {
        [pieces, positions, nodes] => parse(pieces, positions, nodes, "1"),
        [pieces, positions, nodes, seed] => parse(pieces, positions, nodes, seed),
        _ => Err("usage: convert_endings PIECES POSITIONS NODES [SEED]".to_string()),
    };
    match parsed {
        Ok((pieces, positions, nodes, seed)) => match run(&pieces, positions, nodes, seed) {
            Ok(()) => ExitCode::SUCCESS,
            Err(message) => {
                eprintln!("{message}");
                ExitCode::FAILURE
            }
        },
        Err(message) => {
            eprintln!("{message}");
            ExitCode::FAILURE
        }
    }
}

fn parse(
    pieces: &str,
    positions: &str,
    nodes: &str,
    seed: &str,
) -> Result<(Vec<char>, usize, u64, u64), String> {
    let pieces: Vec<char> = pieces.chars().collect();
    let kings = |king: char| pieces.iter().filter(|&&c| c == king).count();
    if kings('K') != 1 || kings('k') != 1 || pieces.iter().any(|c| !"KQRBNPkqrbnp".contains(*c)) {
        return Err(format!(
            "PIECES must be chess pieces with one king a side, like KQkr: {pieces:?}"
        ));
    }
    let number = |text: &str, name: &str| {
        text.parse::<u64>()
            .map_err(|_| format!("{name} must be a whole number: {text:?}"))
    };
    let positions = number(positions, "POSITIONS")? as usize;
    Ok((
        pieces,
        positions,
        number(nodes, "NODES")?,
        number(seed, "SEED")?,
    ))
}

/// Random placements tried for one fair start before giving up on the piece set.
const ATTEMPTS: usize = 100_000;

fn run(pieces: &[char], positions: usize, nodes: u64, seed: u64) -> Result<(), String> {
    let mut rng = SplitMix64::new(seed);
    let (mut mates, mut mate_plies) = (0, 0);
    let mut played = 0;
    while played < positions {
        let Some(pos) = (0..ATTEMPTS).find_map(|_| random_position(pieces, &mut rng)) else {
            return Err(format!(
                "no fair start for {pieces:?} in {ATTEMPTS} random placements (too many pieces?)"
            ));
        };
        played += 1;
        let start = pos.fen();
        let (outcome, plies) = play_out(pos, nodes);
        if matches!(
            outcome,
            Some(Outcome::Win {
                reason: Reason::Checkmate,
                ..
            })
        ) {
            mates += 1;
            mate_plies += plies;
        }
        println!("{start}: {outcome:?} after {plies} plies");
    }
    println!("{mates} mates of {positions}, in {mate_plies} plies in all");
    Ok(())
}

/// The pieces on random squares, White to move, or `None` when that is not a fair
/// start: illegal, check, a capture on the board, pawns on the back ranks.
fn random_position(pieces: &[char], rng: &mut SplitMix64) -> Option<Chess> {
    let mut board = ['.'; 64];
    for &piece in pieces {
        let square = rng.below(64) as usize;
        let back_rank = !(8..56).contains(&square);
        if board[square] != '.' || (piece.eq_ignore_ascii_case(&'p') && back_rank) {
            return None;
        }
        board[square] = piece;
    }
    let ranks: Vec<String> = board
        .chunks(8)
        .rev()
        .map(|rank| {
            let mut text = String::new();
            let mut empty = 0;
            for &c in rank {
                if c == '.' {
                    empty += 1;
                } else {
                    if empty > 0 {
                        text.push_str(&empty.to_string());
                        empty = 0;
                    }
                    text.push(c);
                }
            }
            if empty > 0 {
                text.push_str(&empty.to_string());
            }
            text
        })
        .collect();
    let fen = format!("{} w - - 0 1", ranks.join("/"));
    let pos = Chess::from_fen(&fen, CastlingMode::Standard).ok()?;
    let moves = pos.legal_moves();
    let fair = !pos.is_check() && !moves.is_empty() && !moves.iter().any(|&m| pos.is_capture(m));
    fair.then_some(pos)
}

fn play_out(pos: Chess, nodes: u64) -> (Option<Outcome>, usize) {
    let engine = Engine::new(ChessEvaluator, 16);
    let mut game = Game::new(pos);
    let mut history: Vec<Chess> = Vec::new();
    for ply in 0..MAX_PLIES {
        if let Some(outcome) = game.outcome() {
            return (Some(outcome), ply);
        }
        if let Some(reason) = game.claimable_draw() {
            return (Some(Outcome::Draw { reason }), ply);
        }
        let pos = game.position().clone();
        let Some(best) = engine.go(&pos, &history, &Limits::nodes(nodes)).best else {
            break;
        };
        if game.play(best).is_err() {
            break;
        }
        history.push(pos);
    }
    (None, MAX_PLIES)
}
