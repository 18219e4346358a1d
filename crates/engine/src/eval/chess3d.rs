//! Ajedrez 3D evaluation: the dama's safety above everything, then material, mobility
//! on and between the levels, pawns on their way to promotion, and the centre.
//!
//! Losing the dama loses the game (rule book §5) and nothing else does: the rey is
//! just the strongest slider, and there is no check. So the dama has no material
//! value here — while both damas stand their values cancel, and once one falls the
//! position is terminal — but every threat to it is weighed: enemy pieces on its level,
//! attacks on the squares around it against our own cover of them, and how many safe
//! squares it has left to run to.
//!
//! Captures only happen within a level (level moves need an empty destination), so
//! all attack maps are per level: one `u64` per side and level, built in one pass over
//! the pieces with this file's own ray tables (the rules crate keeps its bitboard
//! helpers private).
//!
//! Like the other evaluations it is a weighted sum of features (each counted for
//! White minus Black), every weight a middlegame/endgame pair blended by the pieces
//! still on the board; the weights are in `chess3d_weights.rs`. [`features`] feeds an
//! accumulator that adds them, or one that records each feature's count for the
//! tuner (`examples/tune_chess3d.rs`, [`Chess3dEvaluator::trace`]).

use tablero_chess3d::attacks as level_attacks;
use tablero_chess3d::{Board, Chess3d, Kind, LEVELS, Move, Piece, QUIET_PLY_LIMIT, Side, Square};

use super::chess3d_weights::WEIGHTS;
use super::trace::{Accumulator, EvalTrace, Tally, WeightSum};
use crate::{CHESS3D_LEVELS, Evaluator, LevelTable, Score, Terminal};

// The generated weights import nothing from this file; their length is checked here.
const _: () = assert!(WEIGHTS.len() == feature::COUNT);

/// Feature indices into the weights (`chess3d_weights.rs`). Features of a kind have
/// six weights, by [`Kind::index`] (peón, alfil, caballo, torre, dama, rey).
///
/// The alfil slides orthogonally (a chess rook), the torre diagonally (a chess
/// bishop), the caballo is a knight that cannot jump (so worth less than one), and the
/// rey slides like a chess queen and may change level freely. The dama's loss ends the
/// game: it is not material but the subject of the safety terms, which count against
/// the side whose dama is in danger (their weights are negative).
pub(crate) mod feature {
    /// A piece, by kind (the dama's weight stays 0: while both stand they cancel).
    pub(crate) const MATERIAL: usize = 0;
    /// A piece per reachable square (not its own side's, not guarded by an enemy
    /// peón) beyond its kind's average, `MOBILITY_AVERAGE`; by kind.
    pub(crate) const MOBILITY: usize = MATERIAL + 6;
    /// A piece per step nearer the centre of its level (0..3), by kind.
    pub(crate) const CENTRE: usize = MOBILITY + 6;
    /// A level move the piece may make now: pieces that can switch levels reinforce
    /// the level where the fight is, and a dama with its rey beside it can escape
    /// upwards or downwards.
    pub(crate) const LEVEL_MOVE: usize = CENTRE + 6;
    /// A peón by level and rows already travelled (eight per level; 0 = its own back
    /// row). On levels 0 and 1 promotion only lifts the peón to a random square of the
    /// level above; on level 2 it becomes a piece.
    pub(crate) const PAWN_ADVANCE: usize = LEVEL_MOVE + 1;
    /// A peón by level: one higher up needs fewer lifts before it becomes a piece.
    pub(crate) const PAWN_LEVEL: usize = PAWN_ADVANCE + 8 * super::LEVELS;
    /// An enemy piece on the dama's level, by kind.
    pub(crate) const ENEMY_ON_DAMA_LEVEL: usize = PAWN_LEVEL + super::LEVELS;
    /// Attacks on the dama's zone: the attacked squares weighed by attacking kind,
    /// times the attackers plus one, capped (`ZONE_ATTACK_CAP`).
    pub(crate) const ZONE_ATTACK: usize = ENEMY_ON_DAMA_LEVEL + 6;
    /// A square of the zone the enemy attacks and none of the side's pieces (the dama
    /// aside) covers: an attacker may settle there without being taken.
    pub(crate) const WEAK_ZONE_SQUARE: usize = ZONE_ATTACK + 1;
    /// Only 0, 1, 2 or 3 safe squares left to flee to (four weights), counted once
    /// plus once per enemy piece bearing on the zone, up to three.
    pub(crate) const FEW_ESCAPES: usize = WEAK_ZONE_SQUARE + 1;
    /// The dama attacked with its own side to move: the search must answer (see
    /// `must_resolve`); statically it costs the tempo spent running.
    pub(crate) const DAMA_HARASSED: usize = FEW_ESCAPES + 4;
    /// The side to move.
    pub(crate) const TEMPO: usize = DAMA_HARASSED + 1;
    /// The number of features.
    pub(crate) const COUNT: usize = TEMPO + 1;
}

use feature as f;

/// What each kind adds to the game phase; [`MAX_PHASE`] is the full start set.
const PHASE_WEIGHT: [i32; 6] = [0, 2, 1, 1, 0, 4];
const MAX_PHASE: i32 = 40;

/// Values used to order captures, most valuable victim first: the dama above all,
/// since taking it wins on the spot.
const ORDER_VALUE: [i32; 6] = [100, 480, 260, 330, 100_000, 900];

/// What a level-2 promotion is worth on average: the drawn alfil, caballo or torre
/// in place of the pawn.
const PROMOTION_GAIN: i32 = (480 + 260 + 330) / 3 - 100;

/// The number of reachable squares that counts as average mobility, by kind.
/// Peones have none to speak of.
const MOBILITY_AVERAGE: [i32; 6] = [0, 6, 3, 5, 8, 12];

/// Weight of an enemy attack on one square of the dama's zone, by attacking kind.
const ZONE_ATTACK_WEIGHT: [i32; 6] = [1, 3, 2, 3, 2, 4];

/// The most the zone-attack count can reach: beyond it the dama is lost or safe by
/// what search sees, not by how many more attackers there are.
const ZONE_ATTACK_CAP: i32 = 225;

/// The side to move can take the enemy's only dama: the game is won. Kept far below
/// the mate scores so that the search still prefers to find the capture itself.
const DAMA_CAPTURABLE: Score = 5_000;

/// A finished position (a side without a dama) if the search ever asks for a
/// static value of one; normally [`Evaluator::terminal`] scores it first.
const DAMA_LOST: Score = 10_000;

// --- Geometry of one level (bit `row * 8 + column`, row A = 0): the attack sets
// come from the rules crate (`tablero_chess3d::attacks`), so evaluation and move
// generation cannot disagree. ---

/// Steps from each square to the four centre squares, 0..=3, reversed: 3 in the
/// centre, 0 on the rim.
static CENTRALITY: [i32; 64] = {
    let mut table = [0; 64];
    let mut sq = 0;
    while sq < 64 {
        let (r, c) = ((sq / 8) as i32, (sq % 8) as i32);
        let dr = if r < 4 { 3 - r } else { r - 4 };
        let dc = if c < 4 { 3 - c } else { c - 4 };
        table[sq] = 3 - if dr > dc { dr } else { dc };
        sq += 1;
    }
    table
};

/// The squares a piece of `kind` on `sq` (a bit index) attacks on its level.
#[inline(always)]
fn attacks(kind: Kind, side: Side, sq: usize, occupied: u64) -> u64 {
    match kind {
        Kind::Peon => level_attacks::peon_captures(side, 1 << sq),
        Kind::Alfil => level_attacks::orthogonal(sq, occupied),
        Kind::Torre => level_attacks::diagonal(sq, occupied),
        Kind::Rey => {
            level_attacks::orthogonal(sq, occupied) | level_attacks::diagonal(sq, occupied)
        }
        Kind::Dama => level_attacks::dama(sq),
        Kind::Caballo => level_attacks::caballo(sq, occupied),
    }
}

fn bits(mut b: u64) -> impl Iterator<Item = usize> {
    core::iter::from_fn(move || {
        if b == 0 {
            None
        } else {
            let i = b.trailing_zeros() as usize;
            b &= b - 1;
            Some(i)
        }
    })
}

const fn side_index(side: Side) -> usize {
    match side {
        Side::White => 0,
        Side::Black => 1,
    }
}

const SIDES: [Side; 2] = [Side::White, Side::Black];

/// The square of `side`'s dama when it has exactly one. With several (a position
/// string may set any count) losing one does not lose the game, so none is special.
fn sole_dama(board: &Board, side: Side) -> Option<Square> {
    let mut found = None;
    for level in 0..LEVELS {
        let d = board.pieces(
            Piece {
                side,
                kind: Kind::Dama,
            },
            level,
        );
        match (d.count_ones(), found) {
            (0, _) => {}
            (1, None) => found = Some((level, d.trailing_zeros())),
            _ => return None,
        }
    }
    found.and_then(|(level, bit)| Square::new(level as u8, (bit / 8) as u8, (bit % 8) as u8))
}

/// Whether a piece of `by` attacks `sq` (on `sq`'s level).
fn is_attacked(board: &Board, sq: Square, by: Side) -> bool {
    let level = sq.level();
    let i = sq.bit_index() as usize;
    let occupied = board.occupied(level);
    let theirs = |kind: Kind| board.pieces(Piece { side: by, kind }, level);
    let rey = theirs(Kind::Rey);
    if level_attacks::orthogonal(i, occupied) & (theirs(Kind::Alfil) | rey) != 0
        || level_attacks::diagonal(i, occupied) & (theirs(Kind::Torre) | rey) != 0
        || level_attacks::dama(i) & theirs(Kind::Dama) != 0
        || level_attacks::peon_captures(by, theirs(Kind::Peon)) & sq.bit() != 0
    {
        return true;
    }
    bits(theirs(Kind::Caballo)).any(|c| level_attacks::caballo(c, occupied) & sq.bit() != 0)
}

/// Every square `by` attacks on `level`, with the square `ignore` taken as empty (the
/// piece about to leave it no longer blocks the lines through it).
fn attack_map(board: &Board, level: usize, by: Side, ignore: u64) -> u64 {
    let occupied = board.occupied(level) & !ignore;
    let mut map = 0;
    for kind in Kind::ALL {
        let pieces = board.pieces(Piece { side: by, kind }, level);
        if kind == Kind::Peon {
            map |= level_attacks::peon_captures(by, pieces);
        } else {
            for sq in bits(pieces) {
                map |= attacks(kind, by, sq, occupied);
            }
        }
    }
    map
}

/// Whether `side`'s dama on `dama` has a move to a square the enemy does not attack:
/// one of its jumps on its level, or a level move beside its rey.
fn has_safe_square(board: &Board, dama: Square, side: Side) -> bool {
    let level = dama.level();
    let i = dama.bit_index() as usize;
    let enemy = attack_map(board, level, !side, dama.bit());
    if level_attacks::dama(i) & !board.side(side, level) & !enemy != 0 {
        return true;
    }
    let rey = board.pieces(
        Piece {
            side,
            kind: Kind::Rey,
        },
        level,
    );
    level_attacks::neighbours(i) & rey != 0
        && [level.wrapping_sub(1), level + 1].into_iter().any(|other| {
            other < LEVELS
                && board.occupied(other) & dama.bit() == 0
                && attack_map(board, other, !side, 0) & dama.bit() == 0
        })
}

/// Ajedrez 3D evaluation.
#[derive(Debug, Clone, Copy, Default)]
pub struct Chess3dEvaluator;

/// What one pass over the pieces learns besides the features it counts.
#[derive(Default)]
struct Scan {
    phase: i32,
    /// Per side and level: every square its pieces attack.
    attacks: [[u64; LEVELS]; 2],
    /// The same without the damas: who covers the squares around one's own dama.
    cover: [[u64; LEVELS]; 2],
    /// Per side, against the enemy dama: the summed attack weight on its zone, the
    /// number of pieces bearing on it, and our pieces on its level by kind.
    zone_weight: [i32; 2],
    zone_attackers: [i32; 2],
    on_dama_level: [[i32; 6]; 2],
}

const fn sign(side: Side) -> i32 {
    match side {
        Side::White => 1,
        Side::Black => -1,
    }
}

/// The evaluation, or a score that is not the weighted sum.
enum Verdict {
    /// The features are counted; this is the phase to blend them by.
    Weighed { phase: i32 },
    /// A side lacks its dama, or the side to move can take the enemy's only one: the
    /// score from the side to move's point of view.
    Decided(Score),
}

/// Counts every feature of `pos`, each for White minus Black, into `acc`.
fn features(pos: &Chess3d, acc: &mut impl Accumulator) -> Verdict {
    let board = pos.board();
    let us = pos.turn();
    let them = !us;
    match (board.has_dama(us), board.has_dama(them)) {
        (true, true) => {}
        (true, false) => return Verdict::Decided(DAMA_LOST),
        (false, true) => return Verdict::Decided(-DAMA_LOST),
        (false, false) => return Verdict::Decided(0),
    }
    let damas = [sole_dama(board, Side::White), sole_dama(board, Side::Black)];
    let scan = scan(board, damas, acc);
    // The capture of an attacked enemy dama decides before anything is weighed.
    if let Some(dama) = damas[side_index(them)]
        && scan.attacks[side_index(us)][dama.level()] & dama.bit() != 0
    {
        return Verdict::Decided(DAMA_CAPTURABLE);
    }
    for side in SIDES {
        if let Some(dama) = damas[side_index(side)] {
            dama_danger(board, &scan, side, dama, side == us, acc);
        }
    }
    acc.add(f::TEMPO, sign(us));
    Verdict::Weighed {
        phase: scan.phase.min(MAX_PHASE),
    }
}

/// One pass over the pieces: material, mobility, centre, level moves and peones
/// into `acc`, and the attack maps the dama's safety is judged by.
fn scan(board: &Board, damas: [Option<Square>; 2], acc: &mut impl Accumulator) -> Scan {
    let mut scan = Scan::default();
    for level in 0..LEVELS {
        let occupied = board.occupied(level);
        let pawns_of = |side: Side| {
            board.pieces(
                Piece {
                    side,
                    kind: Kind::Peon,
                },
                level,
            )
        };
        let pawn_guard = [
            level_attacks::peon_captures(Side::White, pawns_of(Side::White)),
            level_attacks::peon_captures(Side::Black, pawns_of(Side::Black)),
        ];
        for us in SIDES {
            let u = side_index(us);
            let s = sign(us);
            let own = board.side(us, level);
            let safe = !own & !pawn_guard[1 - u];
            // The enemy dama's zone, when it stands on this level.
            let zone = damas[1 - u]
                .filter(|d| d.level() == level)
                .map_or(0, |d| level_attacks::dama(d.bit_index() as usize) | d.bit());
            let own_of = |kind: Kind| board.pieces(Piece { side: us, kind }, level);
            let rey = own_of(Kind::Rey);
            let alfiles = own_of(Kind::Alfil);
            let torres = own_of(Kind::Torre);
            let below = if level > 0 {
                board.occupied(level - 1)
            } else {
                !0
            };
            let above = if level + 1 < LEVELS {
                board.occupied(level + 1)
            } else {
                !0
            };
            for kind in Kind::ALL {
                let k = kind.index();
                let pieces = own_of(kind);
                if pieces == 0 {
                    continue;
                }
                let count = pieces.count_ones() as i32;
                acc.add(f::MATERIAL + k, s * count);
                scan.phase += PHASE_WEIGHT[k] * count;
                if zone != 0 {
                    scan.on_dama_level[u][k] += count;
                }
                if kind == Kind::Peon {
                    pawn_features(acc, pieces, us, level);
                    let a = level_attacks::peon_captures(us, pieces);
                    scan.attacks[u][level] |= a;
                    scan.cover[u][level] |= a;
                    if a & zone != 0 {
                        // Set-wise: count the attacked zone squares, one attacker.
                        scan.zone_attackers[u] += 1;
                        scan.zone_weight[u] +=
                            ZONE_ATTACK_WEIGHT[k] * (a & zone).count_ones() as i32;
                    }
                    continue;
                }
                for sq in bits(pieces) {
                    let a = attacks(kind, us, sq, occupied);
                    scan.attacks[u][level] |= a;
                    if kind != Kind::Dama {
                        scan.cover[u][level] |= a;
                    }
                    let reach = (a & safe).count_ones() as i32;
                    acc.add(f::MOBILITY + k, s * (reach - MOBILITY_AVERAGE[k]));
                    acc.add(f::CENTRE + k, s * CENTRALITY[sq]);
                    if a & zone != 0 {
                        scan.zone_attackers[u] += 1;
                        scan.zone_weight[u] +=
                            ZONE_ATTACK_WEIGHT[k] * (a & zone).count_ones() as i32;
                    }
                    let may_change_level = match kind {
                        Kind::Rey => true,
                        Kind::Alfil => level_attacks::diagonals(sq) & alfiles != 0,
                        Kind::Torre => level_attacks::row_and_column(sq) & torres != 0,
                        Kind::Dama => level_attacks::neighbours(sq) & rey != 0,
                        Kind::Peon | Kind::Caballo => false,
                    };
                    if may_change_level {
                        let b = 1u64 << sq;
                        let free = i32::from(below & b == 0) + i32::from(above & b == 0);
                        acc.add(f::LEVEL_MOVE, s * free);
                    }
                }
            }
        }
    }
    scan
}

/// Promotion progress of `side`'s peones in `pawns` on `level`.
fn pawn_features(acc: &mut impl Accumulator, pawns: u64, side: Side, level: usize) {
    let s = sign(side);
    for sq in bits(pawns) {
        let row = sq / 8;
        let travelled = match side {
            Side::White => row,
            Side::Black => 7 - row,
        };
        acc.add(f::PAWN_ADVANCE + 8 * level + travelled, s);
        acc.add(f::CENTRE + Kind::Peon.index(), s * CENTRALITY[sq]);
    }
    acc.add(f::PAWN_LEVEL + level, s * pawns.count_ones() as i32);
}

/// The dangers to `side`'s dama on `dama`, counted against `side`; `to_move` when
/// `side` moves next (an attack on its dama then costs a tempo, not the game).
fn dama_danger(
    board: &Board,
    scan: &Scan,
    side: Side,
    dama: Square,
    to_move: bool,
    acc: &mut impl Accumulator,
) {
    let s = sign(side);
    let u = side_index(side);
    let t = 1 - u;
    let level = dama.level();
    let i = dama.bit_index() as usize;
    let enemy = scan.attacks[t][level];
    for (k, &count) in scan.on_dama_level[t].iter().enumerate() {
        if count != 0 {
            acc.add(f::ENEMY_ON_DAMA_LEVEL + k, s * count);
        }
    }
    let attackers = scan.zone_attackers[t];
    if attackers > 0 {
        let pressure = (scan.zone_weight[t] * (attackers + 1)).min(ZONE_ATTACK_CAP);
        acc.add(f::ZONE_ATTACK, s * pressure);
    }
    let zone = level_attacks::dama(i);
    let weak = (zone & enemy & !scan.cover[u][level]).count_ones() as i32;
    if weak != 0 {
        acc.add(f::WEAK_ZONE_SQUARE, s * weak);
    }
    let mut escapes = (zone & !board.side(side, level) & !enemy).count_ones() as usize;
    let rey = board.pieces(
        Piece {
            side,
            kind: Kind::Rey,
        },
        level,
    );
    if level_attacks::neighbours(i) & rey != 0 {
        let b = dama.bit();
        for other in [level.wrapping_sub(1), level + 1] {
            if other < LEVELS && board.occupied(other) & b == 0 && scan.attacks[t][other] & b == 0 {
                escapes += 1;
            }
        }
    }
    if escapes < 4 {
        acc.add(f::FEW_ESCAPES + escapes, s * (1 + attackers.min(3)));
    }
    if to_move && enemy & dama.bit() != 0 {
        acc.add(f::DAMA_HARASSED, s);
    }
}

impl Chess3dEvaluator {
    /// The number of weighted features.
    pub const FEATURES: usize = f::COUNT;

    /// The current weights, one `(middlegame, endgame)` pair per feature.
    #[must_use]
    pub fn weights() -> &'static [(i32, i32)] {
        &WEIGHTS
    }

    /// The feature counts of `pos` (White's count minus Black's) with its phase, or
    /// `None` where the evaluation is not their weighted sum: a dama gone, or the
    /// side to move able to take the enemy's only dama (both score a fixed win or
    /// loss). See [`EvalTrace`] for the evaluation the counts add up to, from White's
    /// point of view; the scale is always full.
    #[must_use]
    pub fn trace(pos: &Chess3d) -> Option<EvalTrace> {
        let mut tally = Tally::new(f::COUNT);
        match features(pos, &mut tally) {
            Verdict::Weighed { phase } => Some(EvalTrace {
                counts: tally.sparse(),
                unscaled: Vec::new(),
                phase,
                max_phase: MAX_PHASE,
                scale: 16,
            }),
            Verdict::Decided(_) => None,
        }
    }
}

impl Evaluator<Chess3d> for Chess3dEvaluator {
    type Accumulator = ();

    const LEVELS: &'static LevelTable = &CHESS3D_LEVELS;

    fn evaluate(&self, pos: &Chess3d) -> Score {
        let mut sum = WeightSum::new(&WEIGHTS);
        match features(pos, &mut sum) {
            Verdict::Weighed { phase } => {
                let (mg, eg) = sum.total;
                let white = (mg * phase + eg * (MAX_PHASE - phase)) / MAX_PHASE;
                match pos.turn() {
                    Side::White => white,
                    Side::Black => -white,
                }
            }
            Verdict::Decided(score) => score,
        }
    }

    /// There is no check in Ajedrez 3D (rule book §4, Rey).
    fn in_check(&self, _pos: &Chess3d) -> bool {
        false
    }

    /// True in finished positions, and when the side to move's only dama is attacked
    /// and has no safe square to run to.
    ///
    /// An attacked dama is this game's check, except that ignoring it loses instead of
    /// being illegal. Finished positions (a dama gone) must not stand pat: they go
    /// straight to [`Evaluator::terminal`], which scores them as won or lost. An
    /// attacked dama with a square no enemy piece reaches (after it leaves, so a
    /// slider's line through it counts) will almost always survive, and the static
    /// evaluation charges it a tempo; searching every move there, with the extra ply
    /// the search gives such nodes, tripled the tree and lost matches at equal node
    /// counts. Only a dama without such a square is resolved by search: standing pat
    /// would score it as safe when the enemy's next capture (beyond the horizon) may
    /// end the game, and the search finds the block, the capture of the attacker, or
    /// proves there is none.
    fn must_resolve(&self, pos: &Chess3d) -> bool {
        let board = pos.board();
        let us = pos.turn();
        if !(board.has_dama(us) && board.has_dama(!us)) {
            return true;
        }
        sole_dama(board, us)
            .is_some_and(|dama| is_attacked(board, dama, !us) && !has_safe_square(board, dama, us))
    }

    /// Captures, and level-2 promotions (which turn a peón into a piece). A promotion
    /// on levels 0 and 1 only lifts the peón a level, so it stays a quiet move.
    fn is_noisy(&self, pos: &Chess3d, mv: Move) -> bool {
        let board = pos.board();
        let us = pos.turn();
        if board.side_at(mv.to()) == Some(!us) {
            return true;
        }
        is_piece_promotion(board, us, mv)
    }

    fn noisy_order(&self, pos: &Chess3d, mv: Move) -> Score {
        let board = pos.board();
        let victim = board.kind_at(mv.to()).map_or(0, |k| ORDER_VALUE[k.index()]);
        let attacker = board
            .kind_at(mv.from())
            .map_or(0, |k| ORDER_VALUE[k.index()]);
        let promotion = if is_piece_promotion(board, pos.turn(), mv) {
            PROMOTION_GAIN
        } else {
            0
        };
        // The attacker's value is capped so that a dama capturing a dama still sorts
        // as the best capture of all.
        victim * 16 + promotion * 16 - attacker.min(1_000) / 8
    }

    const HISTORY_SLOTS: usize = 192 * 192;

    fn history_slot(&self, _pos: &Chess3d, mv: Move) -> usize {
        mv.from().index() * 192 + mv.to().index()
    }

    fn is_irreversible(&self, pos: &Chess3d, mv: Move) -> bool {
        let board = pos.board();
        board.side_at(mv.to()).is_some() || board.kind_at(mv.from()) == Some(Kind::Peon)
    }

    /// Passing is sound enough when the side to move has an alfil, caballo or torre:
    /// with only peones, rey and dama left, zugzwang (every dama move walking into an
    /// attack, peones that must advance) is common. The search already skips it when
    /// the dama is attacked. Building the passed position costs about one evaluation
    /// (the key is recomputed), far less than the subtree it prunes.
    fn null_move(&self, pos: &Chess3d) -> Option<Chess3d> {
        let board = pos.board();
        let us = pos.turn();
        let has_piece = (0..LEVELS).any(|level| {
            (board.kind(Kind::Alfil, level)
                | board.kind(Kind::Caballo, level)
                | board.kind(Kind::Torre, level))
                & board.side(us, level)
                != 0
        });
        if !has_piece {
            return None;
        }
        let mut setup = pos.to_setup();
        setup.turn = !us;
        setup.quiet_plies = setup.quiet_plies.saturating_add(1);
        Chess3d::from_setup(setup).ok()
    }

    /// Decides finished positions without looking at the move list: a side without a
    /// dama has lost (rule book §5) whatever moves remain, and a side with no legal
    /// move draws.
    fn terminal(&self, pos: &Chess3d, has_moves: bool) -> Option<Terminal> {
        let board = pos.board();
        let us = pos.turn();
        match (board.has_dama(us), board.has_dama(!us)) {
            (true, true) => (!has_moves).then_some(Terminal::Draw),
            (true, false) => Some(Terminal::Win),
            (false, true) => Some(Terminal::Loss),
            (false, false) => Some(Terminal::Draw),
        }
    }

    /// 100 plies without a capture or a peón move end the game drawn (§5). A dama
    /// capture resets the count, so it never hides a win.
    fn is_rule_draw(&self, pos: &Chess3d) -> bool {
        pos.quiet_plies() >= QUIET_PLY_LIMIT
    }
}

/// Whether `mv` takes a peón of `us` to its promotion row on level 2, where it turns
/// into an alfil, caballo or torre.
fn is_piece_promotion(board: &Board, us: Side, mv: Move) -> bool {
    let to = mv.to();
    let last_row = match us {
        Side::White => 7,
        Side::Black => 0,
    };
    to.level() == 2
        && to.row() == last_row
        && mv.from().level() == 2
        && board.kind_at(mv.from()) == Some(Kind::Peon)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn geometry_matches_the_rules() {
        // D4 is row 3, column 3: bit 27.
        assert_eq!(level_attacks::dama(27).count_ones(), 16);
        assert_eq!(level_attacks::dama(0).count_ones(), 6);
        assert_eq!(level_attacks::orthogonal(27, 0).count_ones(), 14);
        assert_eq!(level_attacks::diagonal(27, 0).count_ones(), 13);
        // A blocker on a long leg stops the caballo: D4 to B3 passes C4 and B4.
        let c4 = 1u64 << 19;
        let b3 = 1u64 << 10;
        assert_ne!(level_attacks::caballo(27, 0) & b3, 0);
        assert_eq!(level_attacks::caballo(27, c4) & b3, 0);
        assert_eq!(CENTRALITY[27], 3);
        assert_eq!(CENTRALITY[0], 0);
    }

    #[test]
    fn escape_squares_see_through_the_dama() {
        // The black alfil on 1F1 attacks the white dama on 1C1 down column 1; once the
        // dama leaves, its line reaches 1B1 and 1A1 too.
        let pos = Chess3d::from_position_string(
            "8/8/8/8/8/8/8/R7|d7/8/a7/8/8/D7/8/8|8/8/8/8/8/8/8/8 w 0 1 0000000000000000",
        )
        .expect("a valid position string");
        let board = pos.board();
        let c1 = Square::new(1, 2, 0).expect("on the board");
        let a1_b1 = 1 | 1 << 8;
        assert_eq!(attack_map(board, 1, Side::Black, 0) & a1_b1, 0);
        assert_eq!(attack_map(board, 1, Side::Black, c1.bit()) & a1_b1, a1_b1);
        assert!(is_attacked(board, c1, Side::Black));
        assert!(has_safe_square(board, c1, Side::White));
    }
}
