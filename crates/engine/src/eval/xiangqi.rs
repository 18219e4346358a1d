//! Xiangqi evaluation: tapered material and piece-square tables, mobility of the
//! chariot, horse and cannon, and the general's safety.
//!
//! Every term has a middlegame and an endgame weight, blended by the chariots, horses
//! and cannons still on the board. Tapering is what makes the cannon worth more than
//! the horse while the board is crowded (it needs screens) and the horse worth more
//! once it has emptied (nothing blocks its legs). The tables are built from a few
//! readable shapes (crossing the river, closing on the palace, the central file)
//! rather than typed in point by point.

use tablero_xiangqi::{Move, Piece, Role, Side, Square, Xiangqi};

use super::pair::Pair;
use crate::{Evaluator, Score};

/// Index into per-role arrays, in [`Role::index`] order.
const GENERAL: usize = Role::General.index();
const ADVISOR: usize = Role::Advisor.index();
const ELEPHANT: usize = Role::Elephant.index();
const HORSE: usize = Role::Horse.index();
const CHARIOT: usize = Role::Chariot.index();
const CANNON: usize = Role::Cannon.index();
const SOLDIER: usize = Role::Soldier.index();

/// Piece values by role (general, advisor, elephant, horse, chariot, cannon, soldier).
/// A soldier is 100 on its own side of the river; the soldier table adds what
/// crossing and closing on the palace are worth.
const MATERIAL: [Pair; 7] = [
    Pair(0, 0),
    Pair(200, 200),
    Pair(200, 200),
    Pair(400, 450),
    Pair(950, 1000),
    Pair(450, 400),
    Pair(100, 100),
];

/// What each role adds to the game phase; 32 is the full opening set of chariots,
/// horses and cannons.
const PHASE_WEIGHT: [i32; 7] = [0, 0, 0, 2, 4, 2, 0];
const MAX_PHASE: i32 = 32;

/// Values used to order captures (most valuable victim first).
const ORDER_VALUE: [i32; 7] = [5000, 200, 200, 420, 950, 430, 100];

const TEMPO: i32 = 10;

/// Mobility per reachable point and the count that counts as average: a chariot
/// boxed in on its corner or a horse with its legs blocked is the typical weakness.
const CHARIOT_MOBILITY: (Pair, i32) = (Pair(4, 5), 7);
const HORSE_MOBILITY: (Pair, i32) = (Pair(9, 8), 4);
const CANNON_MOBILITY: (Pair, i32) = (Pair(2, 2), 6);

/// Weight of an attacker by role, per palace point it reaches (at most three count).
const KING_ATTACK_WEIGHT: [i32; 7] = [0, 0, 0, 3, 4, 3, 2];
const KING_ATTACK_SCALE: i32 = 2;
const KING_ATTACK_CAP: i32 = 450;

/// Per missing advisor, for each enemy piece that exploits the hole: chariots and
/// horses attack a palace without advisors, crossed soldiers join them.
const MISSING_ADVISOR: [Pair; 3] = [Pair(16, 6), Pair(14, 8), Pair(6, 6)];
/// Per missing elephant, for each enemy chariot, horse and cannon: cannons above all
/// hit a palace whose elephants are gone.
const MISSING_ELEPHANT: [Pair; 3] = [Pair(6, 2), Pair(6, 2), Pair(16, 4)];
/// The general's file has no piece of ours in front of it, per enemy chariot.
const OPEN_GENERAL_FILE: Pair = Pair(22, 8);
/// An enemy cannon faces the general with nothing between them ("empty-headed
/// cannon"): whatever steps in becomes its screen, so the file cannot be closed.
const EMPTY_HEADED_CANNON: Pair = Pair(70, 25);

/// Piece-square tables for red, indexed by role then point (`rank * 9 + file`), and
/// the horse's moves with the leg each needs free.
struct Tables {
    psq: [[Pair; 90]; 7],
    /// `(leg, target)` per horse move from each point; unused entries are `NONE`.
    horse: [[(u8, u8); 8]; 90],
    /// Each side's palace.
    palace: [u128; 2],
    /// The points along each of [`DIRECTIONS`] from each point, nearest first, and
    /// how many there are.
    rays: [[([u8; 9], u8); 4]; 90],
}

const NONE: u8 = u8::MAX;

const HORSE_RANK_MG: [i32; 10] = [-8, -2, 2, 6, 10, 14, 18, 22, 14, 2];
const SOLDIER_RANK: [Pair; 10] = [
    Pair(0, 0),
    Pair(0, 0),
    Pair(0, 0),
    Pair(0, 0),
    Pair(5, 5),
    Pair(0, 0),
    Pair(15, 15),
    Pair(30, 25),
    Pair(30, 20),
    // The "old soldier" on the last rank can only move sideways.
    Pair(-30, -50),
];
/// A soldier across the river moves sideways too and threatens the palace.
const SOLDIER_CROSSED: Pair = Pair(70, 90);
const SOLDIER_NEAR_PALACE: Pair = Pair(20, 25);
const CANNON_FILE_MG: [i32; 9] = [0, 2, 4, 6, 14, 6, 4, 2, 0];
const CANNON_RANK_MG: [i32; 10] = [4, 2, 2, 2, 4, 4, 2, 6, 2, 6];

const fn abs(x: i32) -> i32 {
    if x < 0 { -x } else { x }
}

const fn psq_value(role: usize, f: i32, r: i32) -> Pair {
    // Distance from the central file.
    let df = abs(f - 4);
    match role {
        GENERAL => {
            let raised = match r {
                0 => 0,
                1 => -15,
                _ => -35,
            };
            Pair(raised - 8 * (df != 0) as i32, 0)
        }
        ADVISOR => {
            if f == 4 && r == 1 {
                Pair(10, 10)
            } else {
                Pair(0, 0)
            }
        }
        ELEPHANT => {
            if f == 4 && r == 2 {
                Pair(10, 8)
            } else if df == 4 {
                Pair(-4, -4)
            } else {
                Pair(0, 0)
            }
        }
        HORSE => {
            let rim = if df == 4 { -10 } else { 0 };
            Pair(
                4 * (4 - df) + HORSE_RANK_MG[r as usize] + rim,
                3 * (4 - df) + 2 * r + rim,
            )
        }
        CHARIOT => {
            let file = match df {
                1 => 8,
                0 => 4,
                _ => 0,
            };
            let rank = match r {
                0 => -5,
                5..=7 => 10,
                8 => 15,
                _ => 0,
            };
            Pair(file + rank, 0)
        }
        CANNON => Pair(
            CANNON_FILE_MG[f as usize] + CANNON_RANK_MG[r as usize],
            4 - df,
        ),
        _ => {
            let mut v = SOLDIER_RANK[r as usize];
            if r >= 5 {
                v.0 += SOLDIER_CROSSED.0 + 5 * (4 - df);
                v.1 += SOLDIER_CROSSED.1 + 3 * (4 - df);
                if df <= 1 && r >= 6 && r <= 8 {
                    v.0 += SOLDIER_NEAR_PALACE.0;
                    v.1 += SOLDIER_NEAR_PALACE.1;
                }
            }
            v
        }
    }
}

const fn build_tables() -> Tables {
    let mut psq = [[Pair(0, 0); 90]; 7];
    let mut horse = [[(NONE, NONE); 8]; 90];
    let mut palace = [0u128; 2];
    let mut rays = [[([0u8; 9], 0u8); 4]; 90];
    // Horse moves as (leg, target) offsets in (file, rank).
    const HORSE_STEPS: [(i32, i32, i32, i32); 8] = [
        (0, 1, 1, 2),
        (0, 1, -1, 2),
        (0, -1, 1, -2),
        (0, -1, -1, -2),
        (1, 0, 2, 1),
        (1, 0, 2, -1),
        (-1, 0, -2, 1),
        (-1, 0, -2, -1),
    ];
    let mut sq = 0;
    while sq < 90 {
        let f = (sq % 9) as i32;
        let r = (sq / 9) as i32;
        let mut role = 0;
        while role < 7 {
            psq[role][sq] = psq_value(role, f, r);
            role += 1;
        }
        let mut k = 0;
        let mut n = 0;
        while k < 8 {
            let (lf, lr, tf, tr) = HORSE_STEPS[k];
            let (f2, r2) = (f + tf, r + tr);
            if f2 >= 0 && f2 < 9 && r2 >= 0 && r2 < 10 {
                horse[sq][n] = (((r + lr) * 9 + f + lf) as u8, (r2 * 9 + f2) as u8);
                n += 1;
            }
            k += 1;
        }
        let mut d = 0;
        while d < 4 {
            let (df, dr) = DIRECTIONS[d];
            let (mut f2, mut r2) = (f + df, r + dr);
            while f2 >= 0 && f2 < 9 && r2 >= 0 && r2 < 10 {
                let (points, len) = &mut rays[sq][d];
                points[*len as usize] = (r2 * 9 + f2) as u8;
                *len += 1;
                f2 += df;
                r2 += dr;
            }
            d += 1;
        }
        if f >= 3 && f <= 5 {
            if r <= 2 {
                palace[0] |= 1 << sq;
            }
            if r >= 7 {
                palace[1] |= 1 << sq;
            }
        }
        sq += 1;
    }
    Tables {
        psq,
        horse,
        palace,
        rays,
    }
}

static TABLES: Tables = build_tables();

/// The four orthogonal steps as (file, rank) offsets.
const DIRECTIONS: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];

/// Xiangqi evaluation, with the perpetual-check rule for repetitions (the side that
/// checked on every move of the cycle loses).
#[derive(Debug, Clone, Copy, Default)]
pub struct XiangqiEvaluator;

const fn side_index(side: Side) -> usize {
    match side {
        Side::White => 0,
        Side::Black => 1,
    }
}

/// The point from red's point of view.
const fn relative(sq: usize, side: Side) -> usize {
    match side {
        Side::White => sq,
        Side::Black => (9 - sq / 9) * 9 + sq % 9,
    }
}

/// The points along direction `dir` (an index into [`DIRECTIONS`]) from `sq`,
/// nearest first.
fn ray(sq: usize, dir: usize) -> impl Iterator<Item = usize> {
    let (points, len) = &TABLES.rays[sq][dir];
    points[..usize::from(*len)].iter().map(|&p| usize::from(p))
}

/// What one piece reaches: the points it controls (where an enemy general could not
/// stand) and how many moves it has.
struct Reach {
    control: u128,
    moves: i32,
}

type Board = [Option<Piece>; 90];

fn chariot_reach(board: &Board, sq: usize, side: Side) -> Reach {
    let mut reach = Reach {
        control: 0,
        moves: 0,
    };
    for dir in 0..4 {
        for to in ray(sq, dir) {
            reach.control |= 1 << to;
            match board[to] {
                None => reach.moves += 1,
                Some(p) => {
                    reach.moves += i32::from(p.side != side);
                    break;
                }
            }
        }
    }
    reach
}

fn cannon_reach(board: &Board, sq: usize, side: Side) -> Reach {
    let mut reach = Reach {
        control: 0,
        moves: 0,
    };
    for dir in 0..4 {
        let mut screened = false;
        for to in ray(sq, dir) {
            match (board[to], screened) {
                (None, false) => reach.moves += 1,
                (Some(_), false) => screened = true,
                (None, true) => reach.control |= 1 << to,
                (Some(p), true) => {
                    reach.control |= 1 << to;
                    reach.moves += i32::from(p.side != side);
                    break;
                }
            }
        }
    }
    reach
}

fn horse_reach(board: &Board, sq: usize, side: Side) -> Reach {
    let mut reach = Reach {
        control: 0,
        moves: 0,
    };
    for &(leg, to) in &TABLES.horse[sq] {
        if leg == NONE {
            break;
        }
        if board[usize::from(leg)].is_none() {
            reach.control |= 1 << to;
            reach.moves += i32::from(board[usize::from(to)].is_none_or(|p| p.side != side));
        }
    }
    reach
}

/// The index into [`DIRECTIONS`] of `side`'s forward step.
const fn forward(side: Side) -> usize {
    match side {
        Side::White => 2,
        Side::Black => 3,
    }
}

fn soldier_control(sq: usize, side: Side) -> u128 {
    let crossed = relative(sq, side) / 9 >= 5;
    let mut control = 0u128;
    for (dir, allowed) in [(forward(side), true), (0, crossed), (1, crossed)] {
        if allowed && let Some(to) = ray(sq, dir).next() {
            control |= 1 << to;
        }
    }
    control
}

/// Everything one pass over the board learns about one side.
#[derive(Default)]
struct SideInfo {
    score: Pair,
    count: [i32; 7],
    crossed_soldiers: i32,
    /// Pieces reaching the enemy palace, and their summed weight.
    attackers: i32,
    attack_weight: i32,
}

impl XiangqiEvaluator {
    fn scan(board: &Board) -> ([SideInfo; 2], i32) {
        let mut info = [SideInfo::default(), SideInfo::default()];
        let mut phase = 0;
        for (sq, piece) in board.iter().enumerate() {
            let Some(piece) = *piece else { continue };
            let us = piece.side;
            let role = piece.role.index();
            let side = &mut info[side_index(us)];
            side.count[role] += 1;
            side.score += MATERIAL[role];
            side.score += TABLES.psq[role][relative(sq, us)];
            phase += PHASE_WEIGHT[role];
            let control = match piece.role {
                Role::Chariot => {
                    let reach = chariot_reach(board, sq, us);
                    side.score += CHARIOT_MOBILITY.0 * (reach.moves - CHARIOT_MOBILITY.1);
                    reach.control
                }
                Role::Horse => {
                    let reach = horse_reach(board, sq, us);
                    side.score += HORSE_MOBILITY.0 * (reach.moves - HORSE_MOBILITY.1);
                    reach.control
                }
                Role::Cannon => {
                    let reach = cannon_reach(board, sq, us);
                    side.score += CANNON_MOBILITY.0 * (reach.moves - CANNON_MOBILITY.1);
                    reach.control
                }
                Role::Soldier => {
                    if relative(sq, us) / 9 >= 5 {
                        side.crossed_soldiers += 1;
                    }
                    soldier_control(sq, us)
                }
                _ => 0,
            };
            let hits = (control & TABLES.palace[side_index(us.other())]).count_ones() as i32;
            if hits > 0 {
                side.attackers += 1;
                side.attack_weight += KING_ATTACK_WEIGHT[role] * hits.min(3);
            }
        }
        (info, phase)
    }

    /// The dangers around `us`'s general that do not show as attacked points: missing
    /// defenders, an open file in front of it, an empty-headed cannon.
    fn general_safety(
        board: &Board,
        pos: &Xiangqi,
        us: Side,
        them: &SideInfo,
        own: &SideInfo,
    ) -> Pair {
        let mut total = Pair::default();
        let missing_advisors = 2 - own.count[ADVISOR].min(2);
        let missing_elephants = 2 - own.count[ELEPHANT].min(2);
        let exploiters = [
            them.count[CHARIOT],
            them.count[HORSE],
            them.crossed_soldiers,
        ];
        for (weight, n) in MISSING_ADVISOR.into_iter().zip(exploiters) {
            total -= weight * (n * missing_advisors);
        }
        let exploiters = [them.count[CHARIOT], them.count[HORSE], them.count[CANNON]];
        for (weight, n) in MISSING_ELEPHANT.into_iter().zip(exploiters) {
            total -= weight * (n * missing_elephants);
        }
        let general = pos.general_of(us).index();
        let front = ray(general, forward(us)).find_map(|sq| board[sq]);
        match front {
            Some(p) if p.side == us => {}
            Some(p) if p.role == Role::Cannon => {
                total -= EMPTY_HEADED_CANNON;
                total -= OPEN_GENERAL_FILE * them.count[CHARIOT];
            }
            _ => total -= OPEN_GENERAL_FILE * them.count[CHARIOT],
        }
        total
    }

    /// Whether `side` has a piece that can still give mate on its own or with help:
    /// a chariot, horse, cannon or soldier.
    fn has_attackers(info: &SideInfo) -> bool {
        info.count[CHARIOT] + info.count[HORSE] + info.count[CANNON] + info.count[SOLDIER] > 0
    }
}

impl Evaluator<Xiangqi> for XiangqiEvaluator {
    fn evaluate(&self, pos: &Xiangqi) -> Score {
        let board = pos.board();
        let (info, phase) = Self::scan(board);
        let mut diff = Pair::default();
        for (us, sign) in [(Side::White, 1), (Side::Black, -1)] {
            let own = &info[side_index(us)];
            let them = &info[side_index(us.other())];
            let mut side = own.score;
            side += Self::general_safety(board, pos, us, them, own);
            if own.attackers >= 2 {
                let danger =
                    (own.attack_weight * own.attackers * KING_ATTACK_SCALE).min(KING_ATTACK_CAP);
                side += Pair(danger, danger / 2);
            }
            diff += side * sign;
        }
        let phase = phase.min(MAX_PHASE);
        let mut score = (diff.0 * phase + diff.1 * (MAX_PHASE - phase)) / MAX_PHASE;
        // A side left with advisors and elephants only cannot mate.
        let stronger = if score > 0 { Side::White } else { Side::Black };
        if !Self::has_attackers(&info[side_index(stronger)]) {
            score /= 16;
        }
        let score = match pos.turn() {
            Side::White => score,
            Side::Black => -score,
        };
        score + TEMPO
    }

    fn in_check(&self, pos: &Xiangqi) -> bool {
        pos.is_check()
    }

    fn is_noisy(&self, pos: &Xiangqi, mv: Move) -> bool {
        pos.is_capture(mv)
    }

    fn noisy_order(&self, pos: &Xiangqi, mv: Move) -> Score {
        let value = |sq: Square| pos.piece_at(sq).map_or(0, |p| ORDER_VALUE[p.role.index()]);
        value(mv.to()) * 16 - value(mv.from()) / 8
    }

    const HISTORY_SLOTS: usize = Square::COUNT * Square::COUNT;

    fn history_slot(&self, _pos: &Xiangqi, mv: Move) -> usize {
        mv.from().index() * Square::COUNT + mv.to().index()
    }

    fn is_irreversible(&self, pos: &Xiangqi, mv: Move) -> bool {
        // A soldier never steps back, so its forward moves end repetitions as surely
        // as captures; its sideways moves across the river do not.
        pos.is_capture(mv)
            || (pos
                .piece_at(mv.from())
                .is_some_and(|p| p.role == Role::Soldier)
                && mv.from().rank() != mv.to().rank())
    }

    fn null_move(&self, pos: &Xiangqi) -> Option<Xiangqi> {
        // Endings without a chariot, horse or cannon are full of zugzwang.
        let us = pos.turn();
        let has_piece = [Role::Chariot, Role::Horse, Role::Cannon]
            .into_iter()
            .any(|role| pos.by_piece(Piece::new(us, role)).any());
        if !has_piece {
            return None;
        }
        pos.null_move()
    }

    fn is_rule_draw(&self, pos: &Xiangqi) -> bool {
        // Sixty moves by each side without a capture; a mate on the last move stands.
        pos.halfmoves() >= 120 && !pos.is_check()
    }

    fn repetition_score(&self, checks_by_us: bool, checks_by_them: bool) -> Score {
        // Perpetual check loses for the side that checked on every move of the cycle.
        match (checks_by_us, checks_by_them) {
            (true, false) => -PERPETUAL_CHECK,
            (false, true) => PERPETUAL_CHECK,
            _ => 0,
        }
    }
}

/// The score of a repetition won by the perpetual-check rule: decisive, far above any
/// material balance, yet below the mate scores so a real mate is still preferred.
const PERPETUAL_CHECK: Score = 15_000;
