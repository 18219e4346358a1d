//! Property tests on random playouts: notation round-trips, incremental keys, and
//! legal moves compared with a slow reference generator written from the rules.

use proptest::prelude::*;
use tablero_chess::attacks::{
    bishop_attacks, king_attacks, knight_attacks, pawn_attacks, rook_attacks,
};
use tablero_chess::{Bitboard, CastlingMode, Chess, File, Move, Piece, Rank, Role, Side, Square};
use tablero_core::SplitMix64;

/// Start positions for playouts: standard, tricky middlegames and Chess960 starts.
fn start_positions() -> Vec<Chess> {
    let standard = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    ];
    let mut positions: Vec<Chess> = standard
        .iter()
        .map(|fen| Chess::from_fen(fen, CastlingMode::Standard).expect("valid test FEN"))
        .collect();
    positions.extend(
        [0, 1, 100, 518, 959, 357]
            .iter()
            .filter_map(|&id| Chess::chess960(id)),
    );
    positions
}

/// A slow generator straight from the rules: every pseudo-legal move by piece
/// geometry, kept if the mover's king is not attacked afterwards.
fn reference_moves(pos: &Chess) -> Vec<Move> {
    let board = pos.board();
    let us = pos.turn();
    let ours = board.by_side(us);
    let theirs = board.by_side(!us);
    let occupied = board.occupied();
    let mut candidates = Vec::new();
    for from in ours {
        let role = board.role_at(from).expect("own piece");
        let targets = match role {
            Role::Knight => knight_attacks(from),
            Role::Bishop => bishop_attacks(from, occupied),
            Role::Rook => rook_attacks(from, occupied),
            Role::Queen => bishop_attacks(from, occupied) | rook_attacks(from, occupied),
            Role::King => king_attacks(from),
            Role::Pawn => {
                let up: i32 = if us == Side::White { 8 } else { -8 };
                let mut t = pawn_attacks(us, from) & theirs;
                let one = Square::new((from.index() as i32 + up) as u32)
                    .expect("pawns never on last rank");
                if !occupied.contains(one) {
                    t = t.with(one);
                    let start_rank = if us == Side::White { 1 } else { 6 };
                    if from.rank().index() == start_rank {
                        let two = Square::new((one.index() as i32 + up) as u32).expect("on board");
                        if !occupied.contains(two) {
                            t = t.with(two);
                        }
                    }
                }
                if let Some(ep) = pos.ep_square()
                    && pawn_attacks(us, from).contains(ep)
                {
                    candidates.push(Move::en_passant(from, ep));
                }
                t
            }
        } & !ours;
        for to in targets {
            if role == Role::Pawn && (to.rank() == Rank::FIRST || to.rank() == Rank::EIGHTH) {
                for promo in [Role::Queen, Role::Rook, Role::Bishop, Role::Knight] {
                    candidates.push(Move::promotion(from, to, promo));
                }
            } else {
                candidates.push(Move::normal(from, to));
            }
        }
    }
    let mut legal: Vec<Move> = candidates
        .into_iter()
        .filter(|&m| {
            let mut after = pos.clone();
            after.play_unchecked(m);
            let king = after.king_of(us);
            !after
                .board()
                .is_attacked(king, !us, after.board().occupied())
        })
        .collect();
    // Castling, by the FIDE 960 wording: king and rook squares on the way empty except
    // for the two of them; the king not in check, not passing or landing on attack.
    let king = pos.king_of(us);
    for rook in pos.castling_rooks() & board.by_side(us) {
        let short = rook.file() > king.file();
        let back = king.rank();
        let king_to = Square::from_coords(if short { File::G } else { File::C }, back);
        let rook_to = Square::from_coords(if short { File::F } else { File::D }, back);
        let span = |a: Square, b: Square| {
            let (lo, hi) = (
                a.file().index().min(b.file().index()),
                a.file().index().max(b.file().index()),
            );
            (lo..=hi).map(move |f| Square::from_coords(File::new(f).expect("file"), back))
        };
        let blocked = span(king, king_to)
            .chain(span(rook, rook_to))
            .any(|sq| sq != king && sq != rook && occupied.contains(sq));
        let attacked =
            span(king, king_to).any(|sq| board.is_attacked(sq, !us, occupied.without(king)));
        if !blocked && !attacked {
            let m = Move::castle(king, rook);
            let mut after = pos.clone();
            after.play_unchecked(m);
            if !after
                .board()
                .is_attacked(after.king_of(us), !us, after.board().occupied())
            {
                legal.push(m);
            }
        }
    }
    legal
}

fn sorted(mut moves: Vec<Move>) -> Vec<u16> {
    let mut bits: Vec<u16> = moves.drain(..).map(Move::bits).collect();
    bits.sort_unstable();
    bits
}

fn check_position(pos: &Chess, rng: &mut SplitMix64) {
    let legal = pos.legal_moves();
    assert_eq!(
        pos.count_moves(),
        legal.len() as u64,
        "count vs list at {}",
        pos.fen()
    );
    assert_eq!(
        sorted(legal.to_vec()),
        sorted(reference_moves(pos)),
        "moves differ at {}",
        pos.fen()
    );
    assert_eq!(
        pos.key(),
        pos.compute_key(),
        "incremental key at {}",
        pos.fen()
    );
    let mut noisy = tablero_chess::MoveList::new();
    pos.noisy_moves_into(&mut noisy);
    let expected: Vec<Move> = legal
        .iter()
        .copied()
        .filter(|&m| pos.is_capture(m) || m.promotion_role().is_some())
        .collect();
    assert_eq!(
        sorted(noisy.to_vec()),
        sorted(expected),
        "noisy moves differ at {}",
        pos.fen()
    );
    let mode = pos.castling_mode();
    let reparsed = Chess::from_fen(&pos.fen(), mode).expect("printed FEN parses");
    assert_eq!(&reparsed, pos, "FEN round-trip of {}", pos.fen());
    for &m in &legal {
        assert!(pos.is_legal(m));
        assert_eq!(
            pos.parse_uci(&pos.uci(m)),
            Ok(m),
            "UCI round-trip at {}",
            pos.fen()
        );
        let san = pos.san(m);
        assert_eq!(
            pos.parse_san(&san),
            Ok(m),
            "SAN {san} round-trip at {}",
            pos.fen()
        );
    }
    // Random 16-bit values as moves: legal exactly when listed.
    for _ in 0..32 {
        let from = Square::new((rng.next() % 64) as u32).expect("in range");
        let to = Square::new((rng.next() % 64) as u32).expect("in range");
        let m = match rng.next() % 4 {
            0 => Move::normal(from, to),
            1 => Move::en_passant(from, to),
            2 => Move::castle(from, to),
            _ => Move::promotion(from, to, Role::PROMOTIONS[(rng.next() % 4) as usize]),
        };
        assert_eq!(pos.is_legal(m), legal.contains(&m));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn random_playouts_keep_every_invariant(start in 0usize..11, seed in any::<u64>()) {
        let positions = start_positions();
        let mut pos = positions[start % positions.len()].clone();
        let mut rng = SplitMix64::new(seed);
        for _ in 0..120 {
            check_position(&pos, &mut rng);
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves[(rng.next() % moves.len() as u64) as usize];
            pos.play_unchecked(m);
        }
    }
}

#[test]
fn piece_letters() {
    assert_eq!(
        Piece::from_char('N'),
        Some(Piece {
            side: Side::White,
            role: Role::Knight
        })
    );
    assert_eq!(Bitboard::from_square(Square::A1).count(), 1);
}
