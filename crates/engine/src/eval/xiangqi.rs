//! Xiangqi evaluation: tapered material and piece-square tables, mobility of the
//! chariot, horse and cannon, and the general's safety.
//!
//! Like the chess evaluation, it is a weighted sum of features (each counted for red
//! minus black), every weight a middlegame/endgame pair blended by the game phase: the
//! chariots, horses and cannons still on the board. [`XiangqiEvaluator::evaluate`]
//! feeds [`features`] an accumulator that adds weights; the tuner
//! (`examples/tune_xiangqi.rs`) one that records each feature's count
//! ([`XiangqiEvaluator::trace`]). The weights live in `xiangqi_weights.rs`.
//!
//! Tapering is what makes the cannon worth more than the horse while the board is
//! crowded (it needs screens) and the horse worth more once it has emptied (nothing
//! blocks its legs). The weights in use were fitted to Fairy-Stockfish's scores of
//! self-play positions (`docs/engine.md`, "Tuning").

use tablero_xiangqi::repetition::judge_positions;
use tablero_xiangqi::{Bitboard, Move, Piece, Role, Side, Square, Xiangqi};

use super::trace::{Accumulator, EvalTrace, Pair, Tally, WeightSum};
use super::xiangqi_weights::WEIGHTS;
use crate::{Evaluator, Score};

// The generated weights import nothing from this file; their length is checked here.
const _: () = assert!(WEIGHTS.len() == feature::COUNT);

/// Feature indices: each names a block of weights in [`WEIGHTS`].
pub(crate) mod feature {
    /// Piece-square table: role (in [`Role::index`](tablero_xiangqi::Role::index)
    /// order) × point, `rank * 9 + file` from the piece's own side (rank 0 is its
    /// back rank). Material is counted apart, so a point's weight is what standing
    /// there adds to the piece's value.
    pub(crate) const POINT: usize = 0;
    /// Material by role (advisor, elephant, horse, chariot, cannon, soldier).
    pub(crate) const MATERIAL: usize = POINT + 7 * 90;
    /// Mobility: a weight for each count of moves, by role (horse 0–8, chariot 0–17,
    /// cannon 0–17; see [`super::MOBILITY_OFFSET`]).
    pub(crate) const MOBILITY: usize = MATERIAL + 6;
    /// Attack on the enemy palace (two pieces reaching it or more): attack units
    /// (each attacker's role weight per palace point it reaches, at most three, times
    /// the number of attackers), up to [`super::KING_ATTACK_CAP`].
    pub(crate) const KING_ATTACK: usize = MOBILITY + 9 + 18 + 18;
    /// The same attack, by bucket of [`super::KING_ATTACK_STEP`] units: a correction
    /// to the linear [`KING_ATTACK`] so that danger can grow other than linearly.
    pub(crate) const KING_ATTACK_BUCKET: usize = KING_ATTACK + 1;
    /// A missing advisor (of two), times the enemy chariots, horses and crossed
    /// soldiers (three weights) that attack a palace without advisors.
    pub(crate) const MISSING_ADVISOR: usize = KING_ATTACK_BUCKET + super::KING_ATTACK_BUCKETS;
    /// A missing elephant (of two), times the enemy chariots, horses and cannons
    /// (three weights): cannons above all hit a palace whose elephants are gone.
    pub(crate) const MISSING_ELEPHANT: usize = MISSING_ADVISOR + 3;
    /// No piece of ours in front of our general on its file, per enemy chariot.
    pub(crate) const OPEN_GENERAL_FILE: usize = MISSING_ELEPHANT + 3;
    /// An enemy cannon faces our general with nothing between them ("empty-headed
    /// cannon"): whatever steps in becomes its screen, so the file cannot be closed.
    pub(crate) const EMPTY_HEADED_CANNON: usize = OPEN_GENERAL_FILE + 1;
    /// The side to move; tapered, but left out of the scale for material that cannot
    /// mate (see [`crate::EvalTrace`]).
    pub(crate) const TEMPO: usize = EMPTY_HEADED_CANNON + 1;
    /// The number of features.
    pub(crate) const COUNT: usize = TEMPO + 1;
}

use feature as f;

/// Index into per-role arrays, in [`Role::index`] order.
const GENERAL: usize = Role::General.index();
const ADVISOR: usize = Role::Advisor.index();
const ELEPHANT: usize = Role::Elephant.index();
const HORSE: usize = Role::Horse.index();
const CHARIOT: usize = Role::Chariot.index();
const CANNON: usize = Role::Cannon.index();
const SOLDIER: usize = Role::Soldier.index();

/// What each role adds to the game phase; 32 is the full opening set of chariots,
/// horses and cannons.
const PHASE_WEIGHT: [i32; 7] = [0, 0, 0, 2, 4, 2, 0];
/// The phase of the full set of pieces.
pub(crate) const MAX_PHASE: i32 = 32;

/// Values used to order captures (most valuable victim first).
const ORDER_VALUE: [i32; 7] = [5000, 200, 200, 420, 950, 430, 100];

/// Values for static exchange evaluation, by role.
const SEE_VALUE: [i32; 7] = [20_000, 200, 200, 420, 950, 430, 100];

/// The order in which recaptures are tried: least valuable first.
const SEE_ORDER: [Role; 7] = [
    Role::Soldier,
    Role::Advisor,
    Role::Elephant,
    Role::Horse,
    Role::Cannon,
    Role::Chariot,
    Role::General,
];

/// Static exchange evaluation: whether `mv` wins at least `threshold` when both sides
/// keep recapturing on its target with their least valuable piece. Attackers are
/// found afresh after each capture, since in xiangqi a capture can take a cannon's
/// screen away as well as give it one, and clears horse legs and elephant eyes.
/// Pins and the generals' safety are ignored, except that a general does not
/// recapture onto a defended point.
fn see_at_least(pos: &Xiangqi, mv: Move, threshold: Score) -> bool {
    let (from, to) = (mv.from(), mv.to());
    let victim = pos.piece_at(to).map_or(0, |p| SEE_VALUE[p.role.index()]);
    let mut balance = victim - threshold;
    if balance < 0 {
        return false;
    }
    let Some(mover) = pos.piece_at(from) else {
        return false;
    };
    balance -= SEE_VALUE[mover.role.index()];
    if balance >= 0 {
        return true;
    }
    let mut occupied = pos.occupied() & !Bitboard::from_square(from) | Bitboard::from_square(to);
    let mut side = pos.turn().other();
    loop {
        let ours = pos.exchange_attackers(to, side, occupied);
        let least = SEE_ORDER.iter().find_map(|&role| {
            let set = ours & pos.by_piece(Piece::new(side, role));
            set.into_iter()
                .next()
                .map(|sq| (role, Bitboard::from_square(sq)))
        });
        let Some((role, bit)) = least else {
            break;
        };
        occupied &= !bit;
        side = side.other();
        balance = -balance - 1 - SEE_VALUE[role.index()];
        if balance >= 0 {
            if role == Role::General && pos.exchange_attackers(to, side, occupied).any() {
                side = side.other();
            }
            break;
        }
    }
    side != pos.turn()
}

/// Where each role's block of mobility weights starts (horse, chariot, cannon),
/// relative to [`feature::MOBILITY`], and the largest count of moves each can have.
const MOBILITY_OFFSET: [usize; 3] = [0, 9, 27];
const MOBILITY_MAX: [i32; 3] = [8, 17, 17];

/// Weight of an attacker by role, per palace point it reaches (at most three count).
const KING_ATTACK_WEIGHT: [i32; 7] = [0, 0, 0, 3, 4, 3, 2];
/// Attack units beyond this count no more.
const KING_ATTACK_CAP: i32 = 225;
/// How many bucket weights the king attack has: one for each [`KING_ATTACK_STEP`]
/// units.
const KING_ATTACK_BUCKETS: usize = 16;
const KING_ATTACK_STEP: i32 = KING_ATTACK_CAP / (KING_ATTACK_BUCKETS as i32 - 1);

/// The horse's moves with the leg each needs free, each side's palace, and the rays.
struct Tables {
    /// `(leg, target)` per horse move from each point; unused entries are `NONE`.
    horse: [[(u8, u8); 8]; 90],
    /// Each side's palace.
    palace: [u128; 2],
    /// The points along each of [`DIRECTIONS`] from each point, nearest first, and
    /// how many there are.
    rays: [[([u8; 9], u8); 4]; 90],
}

const NONE: u8 = u8::MAX;

const fn build_tables() -> Tables {
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
        horse,
        palace,
        rays,
    }
}

static TABLES: Tables = build_tables();

/// The four orthogonal steps as (file, rank) offsets.
const DIRECTIONS: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];

/// Xiangqi evaluation, with the repetition rules: the side that checked on every move
/// of the cycle loses, and otherwise the side that chased the same piece on every move
/// (`tablero_xiangqi::repetition::judge_positions`).
#[derive(Debug, Clone, Copy, Default)]
pub struct XiangqiEvaluator;

const fn side_index(side: Side) -> usize {
    match side {
        Side::White => 0,
        Side::Black => 1,
    }
}

const fn sign(side: Side) -> i32 {
    match side {
        Side::White => 1,
        Side::Black => -1,
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

/// What one pass over the board learns about one side beyond its features.
#[derive(Default)]
struct SideInfo {
    count: [i32; 7],
    crossed_soldiers: i32,
    /// Pieces reaching the enemy palace, and their summed weight.
    attackers: i32,
    attack_weight: i32,
}

impl SideInfo {
    /// Whether the side has a piece that can still give mate on its own or with
    /// help: a chariot, horse, cannon or soldier.
    fn can_mate(&self) -> bool {
        self.count[CHARIOT] + self.count[HORSE] + self.count[CANNON] + self.count[SOLDIER] > 0
    }
}

/// Everything about a position that is not a weighted feature.
pub(crate) struct Shape {
    /// Game phase, 0 (no chariot, horse or cannon left) to [`MAX_PHASE`].
    pub(crate) phase: i32,
    /// Whether red and black (in that order) have material that can mate.
    pub(crate) can_mate: [bool; 2],
    /// The side to move: 1 for red, -1 for black.
    pub(crate) turn: i32,
}

impl Shape {
    /// Sixteenths of the blended score kept: a side left with advisors and elephants
    /// only cannot mate, so its lead counts for little.
    pub(crate) fn scale(&self, blended: i32) -> i32 {
        let stronger = if blended > 0 { 0 } else { 1 };
        if self.can_mate[stronger] { 16 } else { 1 }
    }
}

/// Counts every feature of `pos` except the tempo into `acc` and returns the phase,
/// the material that can mate and the side to move.
pub(crate) fn features(pos: &Xiangqi, acc: &mut impl Accumulator) -> Shape {
    let board = pos.board();
    let mut info = [SideInfo::default(), SideInfo::default()];
    let mut phase = 0;
    for (sq, piece) in board.iter().enumerate() {
        let Some(piece) = *piece else { continue };
        let us = piece.side;
        let s = sign(us);
        let role = piece.role.index();
        let side = &mut info[side_index(us)];
        side.count[role] += 1;
        if role != GENERAL {
            acc.add(f::MATERIAL + role - 1, s);
        }
        acc.add(f::POINT + role * 90 + relative(sq, us), s);
        phase += PHASE_WEIGHT[role];
        let reach = match piece.role {
            Role::Horse => Some((0, horse_reach(board, sq, us))),
            Role::Chariot => Some((1, chariot_reach(board, sq, us))),
            Role::Cannon => Some((2, cannon_reach(board, sq, us))),
            _ => None,
        };
        let control = match reach {
            Some((i, reach)) => {
                let moves = reach.moves.min(MOBILITY_MAX[i]) as usize;
                acc.add(f::MOBILITY + MOBILITY_OFFSET[i] + moves, s);
                reach.control
            }
            None if piece.role == Role::Soldier => {
                if relative(sq, us) / 9 >= 5 {
                    side.crossed_soldiers += 1;
                }
                soldier_control(sq, us)
            }
            None => 0,
        };
        let hits = (control & TABLES.palace[side_index(us.other())]).count_ones() as i32;
        if hits > 0 {
            side.attackers += 1;
            side.attack_weight += KING_ATTACK_WEIGHT[role] * hits.min(3);
        }
    }
    for us in [Side::White, Side::Black] {
        let own = &info[side_index(us)];
        let them = &info[side_index(us.other())];
        general_safety(pos, us, own, them, acc);
        if own.attackers >= 2 {
            let units = (own.attack_weight * own.attackers).min(KING_ATTACK_CAP);
            acc.add(f::KING_ATTACK, sign(us) * units);
            acc.add(
                f::KING_ATTACK_BUCKET + (units / KING_ATTACK_STEP) as usize,
                sign(us),
            );
        }
    }
    Shape {
        phase: phase.min(MAX_PHASE),
        can_mate: [info[0].can_mate(), info[1].can_mate()],
        turn: sign(pos.turn()),
    }
}

/// The dangers around `us`'s general that do not show as attacked points: missing
/// defenders, an open file in front of it, an empty-headed cannon.
fn general_safety(
    pos: &Xiangqi,
    us: Side,
    own: &SideInfo,
    them: &SideInfo,
    acc: &mut impl Accumulator,
) {
    let s = sign(us);
    let missing_advisors = 2 - own.count[ADVISOR].min(2);
    let missing_elephants = 2 - own.count[ELEPHANT].min(2);
    let exploiters = [
        them.count[CHARIOT],
        them.count[HORSE],
        them.crossed_soldiers,
    ];
    for (i, n) in exploiters.into_iter().enumerate() {
        acc.add(f::MISSING_ADVISOR + i, s * n * missing_advisors);
    }
    let exploiters = [them.count[CHARIOT], them.count[HORSE], them.count[CANNON]];
    for (i, n) in exploiters.into_iter().enumerate() {
        acc.add(f::MISSING_ELEPHANT + i, s * n * missing_elephants);
    }
    let board = pos.board();
    let general = pos.general_of(us).index();
    let front = ray(general, forward(us)).find_map(|sq| board[sq]);
    match front {
        Some(p) if p.side == us => {}
        Some(p) if p.role == Role::Cannon => {
            acc.add(f::EMPTY_HEADED_CANNON, s);
            acc.add(f::OPEN_GENERAL_FILE, s * them.count[CHARIOT]);
        }
        _ => acc.add(f::OPEN_GENERAL_FILE, s * them.count[CHARIOT]),
    }
}

/// Blends a middlegame/endgame pair by phase.
fn taper(total: Pair, phase: i32) -> i32 {
    (total.0 * phase + total.1 * (MAX_PHASE - phase)) / MAX_PHASE
}

/// The evaluation from red's side, given the weighted sum of the features and their
/// shape: the scaled blend plus the blended tempo.
fn combine(total: Pair, shape: &Shape) -> Score {
    let blended = taper(total, shape.phase);
    let (mg, eg) = WEIGHTS[f::TEMPO];
    let tempo = taper((mg * shape.turn, eg * shape.turn), shape.phase);
    blended * shape.scale(blended) / 16 + tempo
}

impl XiangqiEvaluator {
    /// The number of weighted features.
    pub const FEATURES: usize = f::COUNT;

    /// The evaluation from red's point of view.
    #[must_use]
    pub fn red_score(pos: &Xiangqi) -> Score {
        let mut sum = WeightSum::new(&WEIGHTS);
        let shape = features(pos, &mut sum);
        combine(sum.total, &shape)
    }

    /// The current weights, one `(middlegame, endgame)` pair per feature.
    #[must_use]
    pub fn weights() -> &'static [(i32, i32)] {
        &WEIGHTS
    }

    /// The feature counts of `pos` (red's count minus black's), with its phase (0 to
    /// 32) and scale; see [`EvalTrace`] for the evaluation they add up to. The tempo
    /// is the one unscaled feature. The scale, 16 or 1, depends on which side the
    /// current weights put ahead, and is fixed in the trace.
    #[must_use]
    pub fn trace(pos: &Xiangqi) -> EvalTrace {
        let mut tally = Tally::new(f::COUNT);
        let shape = features(pos, &mut tally);
        let mut total = (0, 0);
        for (&(mg, eg), &count) in WEIGHTS.iter().zip(&tally.counts) {
            total.0 += mg * count;
            total.1 += eg * count;
        }
        tally.counts[f::TEMPO] = shape.turn;
        let (tempo, counts) = tally
            .sparse()
            .into_iter()
            .partition(|&(i, _)| usize::from(i) == f::TEMPO);
        EvalTrace {
            counts,
            unscaled: tempo,
            phase: shape.phase,
            max_phase: MAX_PHASE,
            scale: shape.scale(taper(total, shape.phase)),
        }
    }
}

impl Evaluator<Xiangqi> for XiangqiEvaluator {
    type Accumulator = ();

    fn evaluate(&self, pos: &Xiangqi) -> Score {
        let red = Self::red_score(pos);
        match pos.turn() {
            Side::White => red,
            Side::Black => -red,
        }
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

    fn see_at_least(&self, pos: &Xiangqi, mv: Move, threshold: Score) -> bool {
        see_at_least(pos, mv, threshold)
    }

    const HISTORY_SLOTS: usize = Square::COUNT * Square::COUNT;

    fn history_slot(&self, _pos: &Xiangqi, mv: Move) -> usize {
        mv.from().index() * Square::COUNT + mv.to().index()
    }

    const CONTINUATION_SLOTS: usize = 14 * Square::COUNT;

    fn continuation_slot(&self, pos: &Xiangqi, mv: Move) -> usize {
        let piece = pos.piece_at(mv.from()).map_or(0, Piece::index);
        piece * Square::COUNT + mv.to().index()
    }

    const CAPTURE_SLOTS: usize = 14 * Square::COUNT * 7;

    fn capture_slot(&self, pos: &Xiangqi, mv: Move) -> usize {
        let victim = pos.piece_at(mv.to()).map_or(0, |p| p.role.index());
        self.continuation_slot(pos, mv) * 7 + victim
    }

    fn correction_key(&self, pos: &Xiangqi) -> Option<u64> {
        let soldiers = |side| {
            let bits = pos
                .by_piece(Piece {
                    side,
                    role: Role::Soldier,
                })
                .0;
            (bits as u64) ^ ((bits >> 64) as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
        };
        let red = soldiers(Side::White);
        let black = soldiers(Side::Black)
            .rotate_left(29)
            .wrapping_mul(0xD6E8_FEB8_6659_FD93);
        Some(red ^ black ^ u64::from(pos.turn() == Side::Black))
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

    const JUDGES_CYCLES: bool = true;

    fn repetition_score(&self, cycle: &[Xiangqi], searching: Side) -> Score {
        let Some(now) = cycle.last() else {
            return 0;
        };
        let Some(winner) = judge_positions(cycle).outcome.winner() else {
            return 0;
        };
        let value = if winner == searching {
            RULING_EDGE
        } else {
            RULING_AGAINST
        };
        if winner == now.turn() { value } else { -value }
    }
}

/// What a repetition the perpetual check or chase rule awards against the searching
/// side is worth to the winner: decisive, far above any material balance, yet below
/// the mate scores so a real mate is still preferred. The searching side never
/// repeats into such a loss.
const RULING_AGAINST: Score = 15_000;

/// What the searching side makes of a repetition the rules award to it: a small edge
/// over a draw, not the game. Arbiters and programs differ on the chase rules (Debian's
/// Fairy-Stockfish knows perpetual check only, and many matches call every repetition
/// a draw), so the engine takes the ruling when it has nothing better, and plays on
/// from a position it rates higher instead of counting on the ruling. Against its own
/// side the ruling is taken at full weight: the engine keeps to the rules wherever
/// they are applied.
const RULING_EDGE: Score = 100;

#[cfg(test)]
mod tests {
    use super::*;
    use tablero_core::SplitMix64;

    fn pos(fen: &str) -> Xiangqi {
        Xiangqi::from_fen(fen).expect("valid FEN")
    }

    #[test]
    fn the_correction_key_follows_the_soldiers_and_the_side_to_move() {
        let key = |fen: &str| XiangqiEvaluator.correction_key(&pos(fen));
        let start = key("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1");
        // A cannon moved, the same soldiers: the same key.
        let cannon = key("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1");
        let black_to_move =
            key("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1");
        assert_eq!(cannon, black_to_move);
        assert_ne!(start, black_to_move);
        let soldier = key("rnbakabnr/9/1c5c1/p1p1p1p1p/9/2P6/P3P1P1P/1C5C1/9/RNBAKABNR b - - 0 1");
        assert_ne!(black_to_move, soldier);
        // The same soldier square, Red's or Black's.
        let red = key("4k4/9/9/9/9/4P4/9/9/9/4K4 w - - 0 1");
        let black = key("4k4/9/9/9/9/4p4/9/9/9/4K4 w - - 0 1");
        assert_ne!(red, black);
    }

    #[test]
    fn a_piece_counts_on_its_point_from_its_own_side() {
        // Red horse on c2 (file 2, rank 2); black horse on g7, which is g2 from black's
        // side.
        let trace = XiangqiEvaluator::trace(&pos("4k4/9/6n2/9/9/9/9/2H6/9/3K5 w - - 0 1"));
        assert_eq!(trace.count(f::POINT + HORSE * 90 + 2 * 9 + 2), 1);
        assert_eq!(trace.count(f::POINT + HORSE * 90 + 2 * 9 + 6), -1);
        assert_eq!(trace.count(f::MATERIAL + HORSE - 1), 0);
        assert_eq!(trace.count(f::TEMPO), 1);
        assert!(
            trace
                .unscaled
                .iter()
                .all(|&(i, _)| usize::from(i) == f::TEMPO)
        );
        // All eight horse moves are open to both, except that red's general on d0
        // stands on one of its horse's targets.
        assert_eq!(trace.count(f::MOBILITY + MOBILITY_OFFSET[0] + 7), 1);
        assert_eq!(trace.count(f::MOBILITY + MOBILITY_OFFSET[0] + 8), -1);
    }

    #[test]
    fn an_empty_headed_cannon_and_missing_defenders_count_against_the_defender() {
        // Red's cannon on e2 faces black's general on e9 with nothing between; black
        // has no advisors or elephants, red has one chariot.
        let trace = XiangqiEvaluator::trace(&pos("4k4/9/9/9/9/9/9/4C4/R8/3K5 b - - 0 1"));
        assert_eq!(trace.count(f::EMPTY_HEADED_CANNON), -1);
        assert_eq!(trace.count(f::OPEN_GENERAL_FILE), -1);
        // Two missing advisors per red chariot; red's palace lacks them too, but black
        // has nothing to exploit it.
        assert_eq!(trace.count(f::MISSING_ADVISOR), -2);
        assert_eq!(trace.count(f::MISSING_ELEPHANT + 2), -2);
        assert_eq!(trace.count(f::TEMPO), -1);
        // Black has only its general: it cannot mate, red can, and red is ahead.
        assert_eq!(trace.scale, 16);
        // With a piece of black's own in between (now the cannon's screen: check), the
        // cannon is no longer empty-headed and the file is closed.
        let trace = XiangqiEvaluator::trace(&pos("4k4/4a4/9/9/9/9/9/4C4/R8/3K5 b - - 0 1"));
        assert_eq!(trace.count(f::EMPTY_HEADED_CANNON), 0);
        assert_eq!(trace.count(f::OPEN_GENERAL_FILE), 0);
    }

    #[test]
    fn the_trace_adds_up_to_the_evaluation() {
        let mut rng = SplitMix64::new(11);
        let mut checked = 0;
        for _ in 0..40 {
            let mut pos = Xiangqi::new();
            for _ in 0..150 {
                let trace = XiangqiEvaluator::trace(&pos);
                assert_eq!(
                    trace.score(XiangqiEvaluator::weights()),
                    XiangqiEvaluator::red_score(&pos),
                    "{}",
                    pos.fen()
                );
                checked += 1;
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                pos.play_unchecked(moves[rng.below(moves.len() as u64) as usize]);
            }
        }
        assert!(checked > 2000, "{checked}");
    }

    #[test]
    fn history_slots_fit_their_tables_and_tell_captures_apart() {
        let evaluator = XiangqiEvaluator;
        let mut rng = SplitMix64::new(5);
        let mut captures = 0;
        for _ in 0..20 {
            let mut pos = Xiangqi::new();
            for _ in 0..200 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let mut seen = std::collections::HashMap::new();
                for &mv in moves.iter() {
                    let follow = evaluator.continuation_slot(&pos, mv);
                    assert!(follow < XiangqiEvaluator::CONTINUATION_SLOTS);
                    if evaluator.is_noisy(&pos, mv) {
                        let slot = evaluator.capture_slot(&pos, mv);
                        assert!(slot < XiangqiEvaluator::CAPTURE_SLOTS);
                        // One piece, one target: one capture slot in a position.
                        let key = (pos.piece_at(mv.from()), mv.to());
                        assert_eq!(*seen.entry(slot).or_insert(key), key);
                        captures += 1;
                    }
                }
                pos.play_unchecked(moves[rng.below(moves.len() as u64) as usize]);
            }
        }
        assert!(captures > 500, "{captures}");
        // The same piece taking different pieces on one point: different slots.
        let chariot_takes = |fen: &str| {
            let pos = pos(fen);
            let mv = pos.parse_move("a0a9").expect("legal");
            evaluator.capture_slot(&pos, mv)
        };
        assert_ne!(
            chariot_takes("r3k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1"),
            chariot_takes("n3k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1")
        );
    }

    /// The most `mv` wins by exchange on its target in `fen`, by search over the
    /// thresholds `see_at_least` accepts.
    fn exchange_value(fen: &str, mv: &str) -> Score {
        let pos = pos(fen);
        let mv = pos.parse_move(mv).expect("legal");
        let value = (-2000..=2000)
            .rev()
            .find(|&t| see_at_least(&pos, mv, t))
            .expect("some threshold holds");
        // Monotone: every lower threshold holds too.
        assert!(see_at_least(&pos, mv, value - 300));
        value
    }

    #[test]
    fn static_exchange_follows_xiangqi_attacks() {
        // The chariot takes a soldier the horse on d7 defends: it loses the chariot.
        let defended = "3k5/9/3n5/9/4p4/9/9/4R4/9/4CK3 w - - 0 1";
        assert_eq!(exchange_value(defended, "e2e5"), 100 - 950);
        // The horse's leg (d6) blocked: the soldier is free.
        let blocked_leg = "3k5/9/3n5/3p5/4p4/9/9/4R4/9/4CK3 w - - 0 1";
        assert_eq!(exchange_value(blocked_leg, "e2e5"), 100);
        // The advisor on e1 becomes the cannon's screen once the chariot has left e2:
        // the cannon takes the horse back.
        let screened = "3k5/9/3n5/9/4p4/9/9/4R4/4A4/4CK3 w - - 0 1";
        assert_eq!(exchange_value(screened, "e2e5"), 100 - 950 + 420);
        // A black cannon on e9 behind an elephant on e7 guards e5 as well.
        let cannon_guard = "3kc4/9/4b4/9/4p4/9/9/4R4/9/5K3 w - - 0 1";
        assert_eq!(exchange_value(cannon_guard, "e2e5"), 100 - 950);
        // A soldier takes an undefended chariot.
        let free = "3k5/9/9/9/4r4/4P4/9/9/9/5K3 w - - 0 1";
        assert_eq!(exchange_value(free, "e4e5"), 950);
    }

    #[test]
    fn a_side_that_cannot_mate_keeps_a_sixteenth_of_its_lead() {
        // Black has advisors and elephants against a bare general: far ahead in
        // material, it cannot mate.
        let trace = XiangqiEvaluator::trace(&pos("2bakab2/9/9/9/9/9/9/9/9/3K5 w - - 0 1"));
        assert_eq!(trace.scale, 1);
        assert_eq!(trace.phase, 0);
    }
}
