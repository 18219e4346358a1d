use tablero_chess::*;
#[test]
fn scratch() {
    let cases = [
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            vec![20, 400, 8902, 197281, 4865609],
        ),
        (
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            vec![48, 2039, 97862, 4085603],
        ),
        (
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            vec![14, 191, 2812, 43238, 674624],
        ),
        (
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            vec![6, 264, 9467, 422333],
        ),
        (
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            vec![44, 1486, 62379, 2103487],
        ),
        (
            "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
            vec![46, 2079, 89890, 3894594],
        ),
    ];
    for (fen, counts) in cases {
        let pos = Chess::from_fen(fen, CastlingMode::Standard).unwrap();
        for (d, &n) in counts.iter().enumerate() {
            assert_eq!(perft(&pos, d as u32 + 1), n, "{fen} depth {}", d + 1);
        }
    }
    let t = std::time::Instant::now();
    let n = perft(&Chess::new(), 6);
    eprintln!("perft 6 {n} in {:?}", t.elapsed());
}
#[test]
fn list() {
    let pos = Chess::from_fen(
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/3P1N1P/PPP1NPP1/R4RK1 w - - 0 10",
        CastlingMode::Standard,
    )
    .unwrap();
    let mut v: Vec<String> = pos.legal_moves().iter().map(|&m| pos.uci(m)).collect();
    v.sort();
    println!("MOVES {}", v.join(" "));
}
