//! `tablero bench`: a fixed search over fixed positions of every game. Its node count
//! is the engine's signature: any change to search or evaluation changes it, and a
//! commit that does says `Bench: <nodes>`.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use tablero_engine::Limits;

use crate::{AnyEngine, AnyPosition, SearchRequest};

/// Game, variant, position and search depth of each bench position.
pub const BENCH_POSITIONS: &[(&str, &str, &str, u32)] = &[
    (
        "chess",
        "standard",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        10,
    ),
    (
        "chess",
        "standard",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        8,
    ),
    (
        "chess",
        "standard",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        12,
    ),
    (
        "chess",
        "standard",
        "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP2BPPP/R2QKB1R w KQ - 0 8",
        9,
    ),
    (
        "chess",
        "standard",
        "6k1/5pp1/7p/8/3Q4/6P1/q4P1P/6K1 w - - 0 40",
        10,
    ),
    (
        "chess",
        "chess960",
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
        8,
    ),
    (
        "xiangqi",
        "standard",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        7,
    ),
    (
        "xiangqi",
        "standard",
        "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/2P6/P3P1P1P/1CN3NC1/9/R1BAKAB1R w - - 4 3",
        7,
    ),
    (
        "draughts",
        "english",
        "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
        12,
    ),
    (
        "draughts",
        "international",
        "W:W31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20",
        9,
    ),
    (
        "draughts",
        "russian",
        "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
        11,
    ),
    (
        "draughts",
        "spanish",
        "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
        11,
    ),
    (
        "draughts",
        "italian",
        "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
        11,
    ),
    (
        "draughts",
        "brazilian",
        "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
        11,
    ),
    (
        "chess3d",
        "standard",
        "tca2act/ppp2ppp/8/8/8/8/PPP2PPP/TCA2ACT|3dr3/3pp3/8/8/8/8/3PP3/3DR3|tca2act/ppp2ppp/8/8/8/8/PPP2PPP/TCA2ACT b 0 1 0000000000000000",
        5,
    ),
];

/// One bench position's result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BenchLine {
    /// Game id.
    pub game: &'static str,
    /// Variant id.
    pub variant: &'static str,
    /// Search depth.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// The move the search chose.
    pub best: String,
}

/// Runs the bench, one fresh single-threaded engine per position so that the node
/// count depends on nothing but the code, and returns each line and the total time.
///
/// # Errors
///
/// A bench position that does not parse (a bug caught by the tests).
pub fn bench(
    mut on_line: impl FnMut(&BenchLine),
) -> Result<(Vec<BenchLine>, Duration), crate::GamesError> {
    let start = Instant::now();
    let mut lines = Vec::with_capacity(BENCH_POSITIONS.len());
    for &(game, variant, position, depth) in BENCH_POSITIONS {
        let pos = AnyPosition::new(game, Some(variant), Some(position))?;
        let engine = AnyEngine::for_game(&pos, 16);
        let request = SearchRequest {
            limits: Limits::depth(depth),
            ..SearchRequest::default()
        };
        let result = engine.search(&pos, &[], &request, &AtomicBool::new(false), |_| {});
        let line = BenchLine {
            game,
            variant,
            depth,
            nodes: result.info.nodes,
            best: result.best.unwrap_or_else(|| "(none)".to_owned()),
        };
        on_line(&line);
        lines.push(line);
    }
    Ok((lines, start.elapsed()))
}
