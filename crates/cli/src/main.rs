//! The `tablero` command line.

use std::io::{IsTerminal, Write};
use std::process::ExitCode;
use std::time::Duration;

use clap::{Parser, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};
use std::sync::atomic::AtomicBool;

use tablero_engine::score::mate_in_moves;
use tablero_games::{
    AnyEngine, AnyPosition, Evaluation, GameKind, Level, Limits, SearchRequest, TextInfo, Variant,
};

mod board_text;
mod match_command;
mod play;
mod players_command;
mod report_command;
mod serve_command;
mod winnable_command;

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
    game: GameKind,
    /// Variant id (chess: standard, chess960).
    #[arg(long)]
    variant: Option<String>,
    /// Start position in the game's format (FEN for chess); default: the start position.
    #[arg(long)]
    fen: Option<String>,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Start the server and web interface (what `tablero` alone does).
    Serve(serve_command::ServeArgs),
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
    /// Search a position; prints `info` lines, then `bestmove <move>` last.
    Analyse {
        #[command(flatten)]
        position: PositionArgs,
        /// Play at this skill level (1-10) instead of full strength.
        #[arg(long)]
        level: Option<String>,
        /// Search this many plies.
        #[arg(long, group = "limit")]
        depth: Option<u32>,
        /// Search this many milliseconds.
        #[arg(long, group = "limit")]
        movetime: Option<u64>,
        /// Search this many nodes.
        #[arg(long, group = "limit")]
        nodes: Option<u64>,
        /// Report this many best lines.
        #[arg(long, default_value_t = 1)]
        multipv: usize,
        /// Search threads.
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Hash table size in MiB.
        #[arg(long, default_value_t = 64)]
        hash: usize,
        /// How positions are judged: `nnue` (the built-in network in chess, xiangqi
        /// and International draughts, the default) or `hand` (the fitted evaluation
        /// alone).
        #[arg(long, default_value_t = Evaluation::default())]
        eval: Evaluation,
    },
    /// A fixed search over positions of every game; last line `<nodes> nodes <nps> nps`.
    Bench,
    /// Play engines against each other; the last line is `<A> vs <B>: +W =D -L, Elo <diff> ± <margin>`.
    Match(match_command::MatchArgs),
    /// Play in the terminal against the computer or another person.
    Play(play::PlayArgs),
    /// A UCI engine on standard input and output: chess, Chess960, xiangqi, Ajedrez 3D.
    Uci,
    /// A Hub engine (Scan's protocol, as pydraughts drives it) on standard input and
    /// output: every draughts rule set.
    Hub,
    /// The player registry: import a `Name_Won_Lost;` file, list, delete.
    Players(players_command::PlayersArgs),
    /// A Graphviz report (DOT, or SVG with --svg): board, linear, players, top10.
    Report(report_command::ReportArgs),
    /// Which sides can still checkmate (chess); last line `white black`, `white`,
    /// `black`, `none` or `undetermined`.
    Winnable(winnable_command::WinnableArgs),
}

/// Deepest perft the command accepts: beyond it no run would finish anyway.
const MAX_PERFT_DEPTH: u32 = 20;

/// clap's error as one line: its first line, and when that ends in a colon (missing
/// arguments, say) the indented lines that name what it means.
fn one_line(rendered: &str) -> String {
    let mut lines = rendered.lines().skip_while(|l| l.trim().is_empty());
    let first = lines.next().unwrap_or("invalid arguments").trim_end();
    if !first.ends_with(':') {
        return first.to_owned();
    }
    let named: Vec<&str> = lines
        .take_while(|l| l.starts_with(' ') && !l.trim().is_empty())
        .map(str::trim)
        .collect();
    format!("{first} {}", named.join(", "))
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if !e.use_stderr() => {
            // --help and --version go to stdout and succeed.
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            eprintln!("{} (see tablero --help)", one_line(&e.to_string()));
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

impl PositionArgs {
    /// The variant asked for, or the game's default.
    fn variant(&self) -> Result<Variant, String> {
        self.game
            .variant(self.variant.as_deref())
            .map_err(|e| e.to_string())
    }
}

fn load(args: &PositionArgs) -> Result<AnyPosition, String> {
    AnyPosition::of(args.game, args.variant()?, args.fen.as_deref()).map_err(|e| e.to_string())
}

fn run(cli: Cli) -> Result<(), String> {
    let mut out = std::io::stdout().lock();
    let io = |e: std::io::Error| format!("cannot write output: {e}");
    match cli.command {
        None => {
            drop(out);
            serve_command::run(serve_command::ServeArgs::default())?;
        }
        Some(Command::Serve(args)) => {
            drop(out);
            serve_command::run(args)?;
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
        Some(Command::Analyse {
            position,
            level,
            depth,
            movetime,
            nodes,
            multipv,
            threads,
            hash,
            eval,
        }) => {
            let pos = load(&position)?;
            let level = level
                .map(|l| l.parse::<Level>().map_err(|e| e.to_string()))
                .transpose()?;
            let limits = match (depth, movetime, nodes) {
                (Some(0), _, _) => return Err("depth 0: expected at least 1".to_owned()),
                (Some(d), _, _) => Limits::depth(d.min(100)),
                (_, Some(ms), _) => Limits::movetime(Duration::from_millis(ms.max(1))),
                (_, _, Some(n)) => Limits::nodes(n.max(1)),
                // A level has its own limits; the clock only keeps level 10 finite.
                _ if level.is_some() => Limits::movetime(Duration::from_secs(5)),
                _ => return Err("give a limit: --depth N, --movetime MS or --nodes N".to_owned()),
            };
            let engine = AnyEngine::with_evaluation(&pos, hash.clamp(1, 65_536), eval);
            analyse(&engine, &pos, level, limits, multipv, threads, &mut out).map_err(io)?;
        }
        Some(Command::Bench) => bench(&mut out)?,
        Some(Command::Match(args)) => match_command::run(args, &mut out)?,
        Some(Command::Play(args)) => {
            drop(out);
            play::run(args)?;
        }
        Some(Command::Uci) => {
            drop(out);
            tablero_uci::run(std::io::stdin().lock(), std::io::stdout())
                .map_err(|e| format!("uci: {e}"))?;
        }
        Some(Command::Hub) => {
            drop(out);
            tablero_hub::run(std::io::stdin().lock(), std::io::stdout())
                .map_err(|e| format!("hub: {e}"))?;
        }
        Some(Command::Players(args)) => players_command::run(args, &mut out)?,
        Some(Command::Report(args)) => report_command::run(args, &mut out)?,
        Some(Command::Winnable(args)) => winnable_command::run(args, &mut out)?,
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
    pos: &AnyPosition,
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

/// Searches and prints UCI-style `info` lines, then `bestmove`.
fn analyse(
    engine: &AnyEngine,
    pos: &AnyPosition,
    level: Option<Level>,
    limits: Limits,
    multipv: usize,
    threads: usize,
    out: &mut impl Write,
) -> std::io::Result<()> {
    let request = SearchRequest {
        limits,
        level,
        multipv: multipv.max(1),
        threads: threads.clamp(1, 256),
        seed: tablero_games::fresh_seed(),
        ..SearchRequest::default()
    };
    let mut written = Ok(());
    let result = engine.search(pos, &[], &request, &AtomicBool::new(false), |info| {
        if written.is_ok() {
            written = write_info(out, info);
        }
    });
    written?;
    match result.best {
        Some(best) => writeln!(out, "bestmove {best}"),
        None => writeln!(out, "bestmove (none)"),
    }
}

fn write_info(out: &mut impl Write, info: &TextInfo) -> std::io::Result<()> {
    for line in &info.lines {
        let score = match mate_in_moves(line.score) {
            Some(moves) => format!("mate {moves}"),
            None => format!("cp {}", line.score),
        };
        writeln!(
            out,
            "info depth {} seldepth {} multipv {} score {score} nodes {} nps {} hashfull {} time {} pv {}",
            info.depth,
            info.seldepth,
            line.multipv,
            info.nodes,
            info.nps,
            info.hashfull,
            info.elapsed.as_millis(),
            line.pv.join(" ")
        )?;
    }
    out.flush()
}

/// The engine bench: a fixed search over positions of every game.
fn bench(out: &mut impl Write) -> Result<(), String> {
    let io = |e: std::io::Error| format!("cannot write output: {e}");
    let mut written = Ok(());
    let (lines, elapsed) = tablero_games::bench(|line| {
        if written.is_ok() {
            written = writeln!(
                out,
                "{} {} depth {}: {} nodes, bestmove {}",
                line.game, line.variant, line.depth, line.nodes, line.best
            );
        }
    })
    .map_err(|e| e.to_string())?;
    written.map_err(io)?;
    for (game, network) in [
        ("chess", tablero_engine::nnue::chess_network()),
        ("xiangqi", tablero_engine::nnue::xiangqi_network()),
        ("draughts", tablero_engine::nnue::draughts_network()),
    ] {
        let name = network.map_or("(none)", tablero_engine::Network::name);
        writeln!(out, "{game} network {name}").map_err(io)?;
    }
    let nodes: u64 = lines.iter().map(|l| l.nodes).sum();
    let nps = (nodes as f64 / elapsed.max(Duration::from_micros(1)).as_secs_f64()) as u64;
    writeln!(out, "{nodes} nodes {nps} nps").map_err(io)
}
