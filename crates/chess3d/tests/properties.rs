//! Property tests on random playouts. Legal moves and the results of playing them are
//! compared with a slow reference written straight from the rule text (a mailbox of
//! the three levels, no bitboards); undo, keys, position strings and both notations
//! are checked on every position reached.

use proptest::prelude::*;
use tablero_chess3d::{
    Board, Chess3d, Kind, Move, Piece, Position, Setup, Side, SplitMix64, Square,
};

type Mailbox = [[[Option<Piece>; 8]; 8]; 3];

fn mailbox(pos: &Chess3d) -> Mailbox {
    let mut m = [[[None; 8]; 8]; 3];
    for sq in Square::all() {
        m[sq.level()][usize::from(sq.row())][usize::from(sq.column())] = pos.board().piece_at(sq);
    }
    m
}

fn square(l: i32, r: i32, c: i32) -> Square {
    Square::new(l as u8, r as u8, c as u8).expect("on the board")
}

fn on_board(l: i32, r: i32, c: i32) -> bool {
    (0..3).contains(&l) && (0..8).contains(&r) && (0..8).contains(&c)
}

const ORTHOGONAL: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const DIAGONAL: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

/// Every legal move by §4 and §5, square by square.
fn reference_moves(pos: &Chess3d) -> Vec<Move> {
    let b = mailbox(pos);
    let at = |l: i32, r: i32, c: i32| b[l as usize][r as usize][c as usize];
    let has_dama = |side| {
        b.iter().flatten().flatten().any(|p| {
            *p == Some(Piece {
                side,
                kind: Kind::Dama,
            })
        })
    };
    if !has_dama(Side::White) || !has_dama(Side::Black) {
        return Vec::new();
    }
    let us = pos.turn();
    let mut out = Vec::new();
    for l in 0..3 {
        for r in 0..8 {
            for c in 0..8 {
                let Some(piece) = at(l, r, c) else { continue };
                if piece.side != us {
                    continue;
                }
                let mut dest: Vec<(i32, i32, i32)> = Vec::new();
                let empty = |l2, r2, c2| on_board(l2, r2, c2) && at(l2, r2, c2).is_none();
                let enemy = |l2, r2, c2| {
                    on_board(l2, r2, c2) && at(l2, r2, c2).is_some_and(|p: Piece| p.side != us)
                };
                let own = |l2, r2, c2, kind| {
                    on_board(l2, r2, c2) && at(l2, r2, c2) == Some(Piece { side: us, kind })
                };
                let slide = |dirs: &[(i32, i32)], dest: &mut Vec<(i32, i32, i32)>| {
                    for &(dr, dc) in dirs {
                        let (mut r2, mut c2) = (r + dr, c + dc);
                        while on_board(l, r2, c2) {
                            match at(l, r2, c2) {
                                None => dest.push((l, r2, c2)),
                                Some(p) => {
                                    if p.side != us {
                                        dest.push((l, r2, c2));
                                    }
                                    break;
                                }
                            }
                            r2 += dr;
                            c2 += dc;
                        }
                    }
                };
                let mut level_move = false;
                match piece.kind {
                    Kind::Peon => {
                        let forward = if us == Side::White { 1 } else { -1 };
                        let start_row = if us == Side::White { 1 } else { 6 };
                        if empty(l, r + forward, c) {
                            dest.push((l, r + forward, c));
                        }
                        for dc in [-1, 1] {
                            if enemy(l, r - forward, c + dc) {
                                dest.push((l, r - forward, c + dc));
                            }
                        }
                        let stacked = (0..3).any(|l2| l2 != l && own(l2, r, c, Kind::Peon));
                        if r != start_row && stacked {
                            for dc in [-1, 1] {
                                if empty(l, r + forward, c + dc) {
                                    dest.push((l, r + forward, c + dc));
                                }
                            }
                        }
                    }
                    Kind::Alfil => {
                        slide(&ORTHOGONAL, &mut dest);
                        level_move = (1..8).any(|k| {
                            DIAGONAL
                                .iter()
                                .any(|&(dr, dc)| own(l, r + k * dr, c + k * dc, Kind::Alfil))
                        });
                    }
                    Kind::Torre => {
                        slide(&DIAGONAL, &mut dest);
                        level_move = (0..8).any(|i| {
                            (i != c && own(l, r, i, Kind::Torre))
                                || (i != r && own(l, i, c, Kind::Torre))
                        });
                    }
                    Kind::Caballo => {
                        for (dr, dc) in [
                            (2, 1),
                            (2, -1),
                            (-2, 1),
                            (-2, -1),
                            (1, 2),
                            (1, -2),
                            (-1, 2),
                            (-1, -2),
                        ] {
                            let legs = if dr * dr == 4 {
                                [(r + dr / 2, c), (r + dr, c)]
                            } else {
                                [(r, c + dc / 2), (r, c + dc)]
                            };
                            let (r2, c2) = (r + dr, c + dc);
                            if legs.iter().all(|&(a, bb)| empty(l, a, bb))
                                && (empty(l, r2, c2) || enemy(l, r2, c2))
                            {
                                dest.push((l, r2, c2));
                            }
                        }
                    }
                    Kind::Rey => {
                        slide(&ORTHOGONAL, &mut dest);
                        slide(&DIAGONAL, &mut dest);
                        level_move = true;
                    }
                    Kind::Dama => {
                        for (dr, dc) in ORTHOGONAL.into_iter().chain(DIAGONAL) {
                            for k in 1..=2 {
                                let (r2, c2) = (r + k * dr, c + k * dc);
                                if empty(l, r2, c2) || enemy(l, r2, c2) {
                                    dest.push((l, r2, c2));
                                }
                            }
                            if own(l, r + dr, c + dc, Kind::Rey) {
                                level_move = true;
                            }
                        }
                    }
                }
                if level_move {
                    for l2 in [l - 1, l + 1] {
                        if empty(l2, r, c) {
                            dest.push((l2, r, c));
                        }
                    }
                }
                for (l2, r2, c2) in dest {
                    out.push(Move::new(square(l, r, c), square(l2, r2, c2)));
                }
            }
        }
    }
    out
}

/// The position after `m` by §4, §7 and §8, from the mailbox.
fn reference_play(pos: &Chess3d, m: Move) -> Setup {
    let mut b = mailbox(pos);
    let mut rng = pos.rng();
    let us = pos.turn();
    let (f, t) = (m.from(), m.to());
    let get = |b: &Mailbox, s: Square| b[s.level()][usize::from(s.row())][usize::from(s.column())];
    let piece = get(&b, f).expect("a piece moves");
    let captured = get(&b, t).is_some();
    let set = |b: &mut Mailbox, s: Square, p: Option<Piece>| {
        b[s.level()][usize::from(s.row())][usize::from(s.column())] = p;
    };
    set(&mut b, f, None);
    set(&mut b, t, Some(piece));
    let promotion_row = if us == Side::White { 7 } else { 0 };
    if piece.kind == Kind::Peon && t.row() == promotion_row {
        if t.level() < 2 {
            let candidates: Vec<Square> = (0..8)
                .flat_map(|r| (0..8).map(move |c| (r, c)))
                .filter(|&(r, _)| r != promotion_row)
                .map(|(r, c)| Square::new(t.level() as u8 + 1, r, c).expect("on the board"))
                .filter(|&s| get(&b, s).is_none())
                .collect();
            if !candidates.is_empty() {
                let s = candidates[(rng.next() % candidates.len() as u64) as usize];
                set(&mut b, t, None);
                set(&mut b, s, Some(piece));
            }
        } else {
            let kind = [Kind::Alfil, Kind::Caballo, Kind::Torre][(rng.next() % 3) as usize];
            let new = Some(Piece { side: us, kind });
            let candidates: Vec<Square> = Square::all()
                .take(64)
                .filter(|&s| get(&b, s).is_none())
                .collect();
            if candidates.is_empty() {
                set(&mut b, t, new);
            } else {
                let s = candidates[(rng.next() % candidates.len() as u64) as usize];
                set(&mut b, t, None);
                set(&mut b, s, new);
            }
        }
    }
    let mut board = Board::empty();
    for s in Square::all() {
        board.set(s, get(&b, s));
    }
    Setup {
        board,
        turn: !us,
        quiet_plies: if captured || piece.kind == Kind::Peon {
            0
        } else {
            pos.quiet_plies() + 1
        },
        move_number: pos.move_number() + u32::from(us == Side::White),
        rng: rng.state(),
    }
}

fn bits(moves: &[Move]) -> Vec<u16> {
    let mut v: Vec<u16> = moves.iter().map(|m| m.bits()).collect();
    v.sort_unstable();
    v
}

fn check_position(pos: &Chess3d, rng: &mut SplitMix64) {
    let text = pos.position_string();
    let legal = pos.legal_moves();
    assert_eq!(bits(&legal), bits(&reference_moves(pos)), "moves at {text}");
    assert!(
        legal.windows(2).all(|w| w[0] < w[1]),
        "list sorted in scan order at {text}"
    );
    assert_eq!(
        pos.count_legal_moves(),
        legal.len() as u64,
        "count at {text}"
    );
    assert_eq!(pos.key(), pos.compute_key(), "key at {text}");
    assert_eq!(
        Chess3d::from_position_string(&text).as_ref(),
        Ok(pos),
        "position string round trip"
    );
    for &m in &legal {
        assert!(pos.is_legal(m));
        // Play equals the reference; undo restores everything, generator included.
        let mut child = pos.clone();
        let undo = child.play_with_undo(m);
        assert_eq!(child.to_setup(), reference_play(pos, m), "{m} at {text}");
        assert_eq!(child.key(), child.compute_key(), "key after {m} at {text}");
        let mut copy = pos.clone();
        copy.play_unchecked(m);
        assert_eq!(copy, child, "play_unchecked = play_with_undo");
        child.undo(undo);
        assert_eq!(&child, pos, "undo of {m} at {text}");
        // Both notations.
        assert_eq!(pos.parse_move(&pos.coordinate(m)), Ok(m));
        assert_eq!(pos.parse_move(&pos.coordinate(m).to_lowercase()), Ok(m));
        let kind = pos.board().kind_at(m.from());
        let first = legal
            .iter()
            .copied()
            .filter(|o| o.to() == m.to() && pos.board().kind_at(o.from()) == kind)
            .min_by_key(|o| o.from())
            .expect("m itself");
        let short = pos.short(m);
        assert_eq!(pos.parse_move(&short), Ok(first), "{short} at {text}");
        assert_eq!(pos.parse_move(&short.to_lowercase()), Ok(first));
    }
    // Random squares: legal exactly when listed; illegal play changes nothing.
    for _ in 0..24 {
        let from = Square::from_index((rng.next() % 192) as usize).expect("in range");
        let to = Square::from_index((rng.next() % 192) as usize).expect("in range");
        let m = Move::new(from, to);
        assert_eq!(pos.is_legal(m), legal.contains(&m), "{m} at {text}");
        if !legal.contains(&m) {
            let err = pos.clone().play(m).expect_err("illegal");
            assert_eq!(&err.into_inner(), pos);
        }
    }
}

fn start_positions(seed: u64) -> Vec<Chess3d> {
    let mut v = vec![Chess3d::start(seed)];
    for text in [
        "8/p3t1PA/c7/2a5/1Pp5/P1P2PP1/5C2/6CA|6t1/a4d2/2p1p3/2t5/7T/8/1D6/8|6c1/8/1pp3p1/P1aaA3/2P4P/7t/P2A1CP1/6CT w 1 123 f35acf758b592cff",
        "3T2c1/7A/p7/1P6/TP4P1/t4P1C/7P/1C6|4D3/2t5/8/1P6/8/a1dP4/8/8|1c2A1c1/6p1/1pt5/2PA4/pa1p4/P6P/1T1C2p1/r7 b 1 116 955aff52d125c1ad",
        "8/3c2a1/1cC1t1pa/5P1p/7P/2P5/3A2P1/7T|8/8/4p3/3p2d1/3P4/4P3/6p1/2D5|2R5/p1T4p/c6c/p5p1/A4ptP/P7/5PPA/5rCT b 1 119 9eb273943f8778f5",
        "8/3P4/8/8/8/8/8/3D4|8/pppppppp/pppppppp/pppppppp/pppppppp/pppppppp/pppppppp/pppppppp|3d4/8/8/8/8/8/8/8 w 0 40 0123456789abcdef",
    ] {
        v.push(Chess3d::from_position_string(text).expect("valid test position"));
    }
    v
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 40, ..ProptestConfig::default() })]

    #[test]
    fn random_playouts_keep_every_invariant(start in 0usize..5, seed in any::<u64>()) {
        let mut rng = SplitMix64::new(seed);
        let mut pos = start_positions(rng.next())[start].clone();
        for _ in 0..160 {
            check_position(&pos, &mut rng);
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            // Prefer pawn moves half of the time, so that games reach promotions.
            let pawn_moves: Vec<Move> = moves
                .iter()
                .copied()
                .filter(|m| pos.board().kind_at(m.from()) == Some(Kind::Peon))
                .collect();
            let m = if !pawn_moves.is_empty() && rng.next().is_multiple_of(2) {
                pawn_moves[(rng.next() % pawn_moves.len() as u64) as usize]
            } else {
                moves[(rng.next() % moves.len() as u64) as usize]
            };
            pos.play_unchecked(m);
        }
    }
}

#[test]
fn zobrist_mixes_in_the_generator_but_the_key_does_not() {
    let a = Chess3d::start(1);
    let b = Chess3d::start(2);
    assert_eq!(a.key(), b.key());
    assert_ne!(a.zobrist(), b.zobrist());
    assert_eq!(a.zobrist(), Chess3d::start(1).zobrist());
}
