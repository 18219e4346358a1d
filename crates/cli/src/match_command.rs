//! `tablero match`: engine against engine, with a progress bar and the result with
//! its Elo difference as the last line.

use std::io::{IsTerminal, Write};
use std::ops::ControlFlow;
use std::path::PathBuf;

use indicatif::{ProgressBar, ProgressStyle};
use tablero_arena::{
    DEFAULT_MAX_PLIES, DEFAULT_SEED, GamePairs, GameReport, MatchConfig, MatchScore, PlayerSpec,
    Sprt, Verdict, run_match,
};
use tablero_games::{GameKind, TimeControl};

/// The arguments of `tablero match`.
#[derive(Debug, clap::Args)]
pub(crate) struct MatchArgs {
    /// Game id: chess, xiangqi, draughts, chess3d.
    game: GameKind,
    /// Variant id (chess: standard, chess960; draughts: english, international, ...).
    #[arg(long)]
    variant: Option<String>,
    /// Player A: level:N (1-10), hand:N (level N with the hand evaluation alone),
    /// nodes:N or hand-nodes:N (full strength, N nodes a move), uci:COMMAND (chess,
    /// xiangqi, chess3d), uci-nodes:N:COMMAND (told `go nodes N`) or hub:COMMAND
    /// (draughts).
    #[arg(long = "a", value_name = "PLAYER")]
    a: String,
    /// Player B, as --a.
    #[arg(long = "b", value_name = "PLAYER")]
    b: String,
    /// Games to play: each opening twice with the colours swapped. With --sprt, the
    /// most to play.
    #[arg(long, value_name = "N")]
    games: u32,
    /// Stop once a sequential test decides between "A is ELO0 stronger" (H0) and
    /// "A is ELO1 stronger" (H1), logistic Elo, e.g. `--sprt 0,25`; counted by game
    /// pairs. Games being played when it decides still finish and count.
    #[arg(long, value_name = "ELO0,ELO1")]
    sprt: Option<String>,
    /// The test's chance of accepting H1 when H0 holds.
    #[arg(long, default_value_t = 0.05, requires = "sprt")]
    alpha: f64,
    /// The test's chance of accepting H0 when H1 holds.
    #[arg(long, default_value_t = 0.05, requires = "sprt")]
    beta: f64,
    /// Time control per side: SECS+INC (Fischer), e.g. 10+0.1.
    #[arg(long, value_name = "SECS+INC")]
    tc: String,
    /// Player B's time control, when it differs from --tc (time odds), e.g.
    /// `--tc 10+0.1 --tc-b 1+0.01` gives B a tenth of A's time.
    #[arg(long = "tc-b", value_name = "SECS+INC")]
    tc_b: Option<String>,
    /// Seed of the openings and the levels' choices (same seed, same openings).
    #[arg(long, default_value_t = DEFAULT_SEED)]
    seed: u64,
    /// Games played at the same time.
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    /// Write every game to this file (PGN for chess and xiangqi, PDN for draughts,
    /// the chess3d record).
    #[arg(long, value_name = "FILE")]
    pgn: Option<PathBuf>,
    /// Adjudicate a game still going after this many plies as a draw.
    #[arg(long, default_value_t = DEFAULT_MAX_PLIES)]
    max_plies: usize,
    /// Hash table of each level player, in MiB.
    #[arg(long, default_value_t = 32)]
    hash: usize,
}

/// Plays the match; the last line of `out` is
/// `<A> vs <B>: +W =D -L, Elo <diff> ± <margin>`, after a line on the game pairs and,
/// with `--sprt`, one on the test.
///
/// # Errors
///
/// A one-line message for a bad player, time control, game or file, or a player that
/// cannot start.
pub(crate) fn run(args: MatchArgs, out: &mut impl Write) -> Result<(), String> {
    let a: PlayerSpec = args.a.parse().map_err(|e| format!("--a: {e}"))?;
    let b: PlayerSpec = args.b.parse().map_err(|e| format!("--b: {e}"))?;
    let time_control: TimeControl = args.tc.parse().map_err(|e| format!("--tc: {e}"))?;
    let sprt = args
        .sprt
        .as_deref()
        .map(|bounds| Sprt::new(bounds, args.alpha, args.beta))
        .transpose()
        .map_err(|e| format!("--sprt: {e}"))?;
    let b_time_control: Option<TimeControl> = args
        .tc_b
        .as_deref()
        .map(str::parse)
        .transpose()
        .map_err(|e| format!("--tc-b: {e}"))?;
    let variant = args
        .game
        .variant(args.variant.as_deref())
        .map_err(|e| e.to_string())?;
    let mut config = MatchConfig::new(args.game, variant, a, b, args.games, time_control);
    config.b_time_control = b_time_control;
    config.seed = args.seed;
    config.concurrency = args.concurrency.clamp(1, 64);
    config.max_plies = args.max_plies.max(1);
    config.hash_mb = args.hash.clamp(1, 4096);
    let (a_name, b_name) = (config.a.to_string(), config.b.to_string());
    // Which network each player uses is said once the first game is played, so that a
    // match that cannot start says only why.
    let start = config.check().map_err(|e| e.to_string())?;
    let mut networks: Vec<String> = [(&a_name, &config.a), (&b_name, &config.b)]
        .into_iter()
        .filter_map(|(name, spec)| {
            let network = spec.network_name(&start)?;
            Some(format!("{name} evaluates with the network {network}"))
        })
        .collect();

    let bar = std::io::stderr().is_terminal().then(|| {
        let bar = ProgressBar::new(u64::from(config.games));
        bar.set_style(
            ProgressStyle::with_template("match {pos}/{len} [{bar:30}] {elapsed_precise} {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        bar
    });
    let mut score = MatchScore::default();
    let mut pairs = GamePairs::default();
    // The test's verdict and the games played when it was reached.
    let mut decided: Option<(Verdict, usize)> = None;
    let mut played = 0;
    let reports = run_match(&config, |report: &GameReport| {
        score.add(report.score());
        pairs.add(report.number, report.score());
        played += 1;
        if let Some(sprt) = &sprt
            && decided.is_none()
        {
            decided = sprt
                .verdict(&pairs.pentanomial())
                .map(|verdict| (verdict, played));
        }
        for line in networks.drain(..) {
            match &bar {
                Some(bar) => bar.println(line),
                None => eprintln!("{line}"),
            }
        }
        let line = report.summary(&a_name, &b_name);
        let llr = sprt.map_or_else(String::new, |sprt| {
            format!(", LLR {:.2}", sprt.llr(&pairs.pentanomial()))
        });
        match &bar {
            Some(bar) => {
                bar.println(line);
                bar.set_message(format!("{score}{llr}"));
                bar.inc(1);
            }
            // Without a terminal (a match left running in the background) each game's
            // line carries the ratio instead.
            None => eprintln!("{line}{llr}"),
        }
        if decided.is_some() {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    })
    .map_err(|e| e.to_string());
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    let reports = reports?;

    if let Some(path) = &args.pgn {
        let text: Vec<String> = reports
            .iter()
            .map(|r| r.export(&a_name, &b_name, config.time_controls()))
            .collect();
        std::fs::write(path, text.join("\n"))
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    let pentanomial = pairs.pentanomial();
    let pair_elo = pentanomial
        .elo()
        .map_or_else(|| "n/a".to_owned(), |e| e.to_string());
    writeln!(
        out,
        "pairs by A's points 0-2: {pentanomial}, Elo {pair_elo}"
    )
    .map_err(|e| format!("cannot write output: {e}"))?;
    if let Some(sprt) = &sprt {
        let (lower, upper) = sprt.bounds();
        let llr = sprt.llr(&pentanomial);
        let verdict = match decided {
            Some((Verdict::H1, games)) => format!("H1 accepted after {games} games"),
            Some((Verdict::H0, games)) => format!("H0 accepted after {games} games"),
            None => format!("no verdict after {played} games"),
        };
        writeln!(
            out,
            "SPRT {sprt} (alpha {}, beta {}): LLR {llr:.2} ({lower:.2}, {upper:.2}), {verdict}",
            sprt.alpha, sprt.beta
        )
        .map_err(|e| format!("cannot write output: {e}"))?;
    }
    let elo = score
        .elo()
        .map_or_else(|| "n/a".to_owned(), |e| e.to_string());
    writeln!(out, "{a_name} vs {b_name}: {score}, Elo {elo}")
        .map_err(|e| format!("cannot write output: {e}"))
}
