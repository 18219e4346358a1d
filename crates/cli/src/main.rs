//! The `tablero` command line.

use std::io::{IsTerminal, Write};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use clap::{Parser, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};
use tablero_games::AnyGame;

/// tablero: chess, xiangqi, draughts and Ajedrez 3D.
#[derive(Debug, Parser)]
#[command(name = "tablero", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

/// The game and starting position shared by several commands.
#[derive(Debug, clap::Args)]
struct PositionArgs {
    /// Game id: chess, xiangqi, draughts, chess3d.
    game: String,
    /// Variant id (chess: standard, chess960).
    #[arg(long)]
    variant: Option<String>,
    /// Start position in the game's format (FEN for chess); default: the start position.
    #[arg(long)]
    fen: Option<String>,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Count the leaf nodes of the legal-move tree; the last line is the count.
    Perft {
        #[command(flatten)]
        position: PositionArgs,
        /// Depth in plies (0 to 20).
        #[arg(allow_hyphen_values = true)]
        depth: String,
        /// First print one line per root move: `<move>: <count>`.
        #[arg(long)]
        divide: bool,
    },
    /// Print every legal move, one per line.
    Moves {
        #[command(flatten)]
        position: PositionArgs,
    },
    /// Play moves (UCI or SAN for chess) and print the resulting position.
    Position {
        #[command(flatten)]
        position: PositionArgs,
        /// Moves to play in order.
        moves: Vec<String>,
    },
    /// A fixed, deterministic workload; last line `<nodes> nodes <nps> nps`.
    Bench,
}

/// Deepest perft the command accepts: beyond it no run would finish anyway.
const MAX_PERFT_DEPTH: u32 = 20;

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if !e.use_stderr() => {
            // --help and --version go to stdout and succeed.
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            let rendered = e.to_string();
            let first = rendered
                .lines()
                .find(|l| !l.trim().is_empty())
                .unwrap_or("invalid arguments");
            eprintln!("{first} (see tablero --help)");
            return ExitCode::from(2);
        }
    };
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}

fn load(args: &PositionArgs) -> Result<AnyGame, String> {
    AnyGame::new(&args.game, args.variant.as_deref(), args.fen.as_deref())
        .map_err(|e| e.to_string())
}

fn run(cli: Cli) -> Result<(), String> {
    let mut out = std::io::stdout().lock();
    let io = |e: std::io::Error| format!("cannot write output: {e}");
    match cli.command {
        None => {
            // The server arrives with its own issue; until then the command shows its help.
            let mut help = <Cli as clap::CommandFactory>::command();
            help.print_help().map_err(io)?;
            writeln!(out).map_err(io)?;
        }
        Some(Command::Perft {
            position,
            depth,
            divide,
        }) => {
            let depth = parse_depth(&depth)?;
            let pos = load(&position)?;
            let total = perft_with_progress(&pos, depth, divide, &mut out).map_err(io)?;
            writeln!(out, "{total}").map_err(io)?;
        }
        Some(Command::Moves { position }) => {
            for m in load(&position)?.legal_moves_text() {
                writeln!(out, "{m}").map_err(io)?;
            }
        }
        Some(Command::Position { position, moves }) => {
            let mut pos = load(&position)?;
            pos.play_texts(moves.iter().map(String::as_str))
                .map_err(|e| e.to_string())?;
            writeln!(out, "{}", pos.position_text()).map_err(io)?;
        }
        Some(Command::Bench) => bench(&mut out).map_err(io)?,
    }
    Ok(())
}

fn parse_depth(text: &str) -> Result<u32, String> {
    match text.parse::<u32>() {
        Ok(d) if d <= MAX_PERFT_DEPTH => Ok(d),
        _ => Err(format!(
            "depth {text:?} out of range: expected a whole number from 0 to {MAX_PERFT_DEPTH}"
        )),
    }
}

/// Runs perft, with a progress bar over root moves on a terminal for deep runs.
fn perft_with_progress(
    pos: &AnyGame,
    depth: u32,
    divide: bool,
    out: &mut impl Write,
) -> std::io::Result<u64> {
    let show_bar = depth >= 5 && std::io::stderr().is_terminal();
    if depth == 0 || (!divide && !show_bar) {
        return Ok(pos.perft(depth));
    }
    let bar = show_bar.then(|| {
        let bar = ProgressBar::new(0);
        bar.set_style(
            ProgressStyle::with_template(
                "perft {pos}/{len} root moves [{bar:30}] {elapsed_precise}",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        bar
    });
    let results = pos.perft_divide(depth, |done, total| {
        if let Some(bar) = &bar {
            bar.set_length(total as u64);
            bar.set_position(done as u64);
        }
    });
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    if divide {
        for (m, n) in &results {
            writeln!(out, "{m}: {n}")?;
        }
        writeln!(out)?;
    }
    Ok(results.iter().map(|(_, n)| n).sum())
}

/// Perft over a fixed set of positions. The engine issue replaces this with a search
/// over every game; the node count stays deterministic either way.
fn bench(out: &mut impl Write) -> std::io::Result<()> {
    const POSITIONS: &[(&str, &str, &str, u32)] = &[
        (
            "chess",
            "standard",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            5,
        ),
        (
            "chess",
            "standard",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            4,
        ),
        (
            "chess",
            "standard",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            5,
        ),
        (
            "chess",
            "standard",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            4,
        ),
        (
            "chess",
            "chess960",
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
            4,
        ),
    ];
    let start = Instant::now();
    let mut nodes = 0;
    for &(game, variant, fen, depth) in POSITIONS {
        let pos = AnyGame::new(game, Some(variant), Some(fen)).map_err(std::io::Error::other)?;
        let n = pos.perft(depth);
        writeln!(out, "{game} {variant} perft {depth}: {n}  {fen}")?;
        nodes += n;
    }
    let elapsed = start.elapsed().max(Duration::from_micros(1));
    let nps = (nodes as f64 / elapsed.as_secs_f64()) as u64;
    writeln!(out, "{nodes} nodes {nps} nps")
}
