//! Chess evaluation: tapered material and piece-square tables, mobility, pawn
//! structure, passed pawns, king safety.
//!
//! Every term has a middlegame and an endgame weight, blended by the material still
//! on the board (the game phase). The tables are built from a few readable shapes
//! (centralisation, advancement, the king's shelter) rather than typed in square by
//! square, so each weight says what it rewards.

use tablero_chess::attacks::{bishop_attacks, king_attacks, knight_attacks, rook_attacks};
use tablero_chess::{Bitboard, Chess, Move, Role, Side, Square};

use crate::{Evaluator, Score};

/// A middlegame and an endgame value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
struct Pair(i32, i32);

impl core::ops::AddAssign for Pair {
    fn add_assign(&mut self, o: Pair) {
        self.0 += o.0;
        self.1 += o.1;
    }
}

impl core::ops::SubAssign for Pair {
    fn sub_assign(&mut self, o: Pair) {
        self.0 -= o.0;
        self.1 -= o.1;
    }
}

impl core::ops::Mul<i32> for Pair {
    type Output = Pair;
    fn mul(self, k: i32) -> Pair {
        Pair(self.0 * k, self.1 * k)
    }
}

/// Piece values by role (pawn, knight, bishop, rook, queen, king).
const MATERIAL: [Pair; 6] = [
    Pair(90, 120),
    Pair(330, 310),
    Pair(345, 330),
    Pair(480, 540),
    Pair(990, 1000),
    Pair(0, 0),
];

/// What each role adds to the game phase; 24 is the full opening set.
const PHASE_WEIGHT: [i32; 6] = [0, 1, 1, 2, 4, 0];
const MAX_PHASE: i32 = 24;

/// Values used to order captures (most valuable victim first).
const ORDER_VALUE: [i32; 6] = [100, 320, 330, 500, 950, 2000];

const PASSED_PAWN: [Pair; 8] = [
    Pair(0, 0),
    Pair(0, 8),
    Pair(3, 12),
    Pair(10, 25),
    Pair(25, 50),
    Pair(45, 90),
    Pair(75, 140),
    Pair(0, 0),
];
const DOUBLED_PAWN: Pair = Pair(-8, -20);
const ISOLATED_PAWN: Pair = Pair(-12, -14);
const BISHOP_PAIR: Pair = Pair(28, 50);
const ROOK_OPEN_FILE: Pair = Pair(25, 10);
const ROOK_HALF_OPEN_FILE: Pair = Pair(12, 8);
const KING_SHELTER_PAWN: i32 = 14;
const TEMPO: i32 = 12;
/// Mobility per reachable square, by role (knight, bishop, rook, queen), and the
/// number of squares that counts as average.
const MOBILITY: [(Pair, i32); 4] = [
    (Pair(4, 4), 4),
    (Pair(5, 5), 6),
    (Pair(2, 4), 7),
    (Pair(1, 2), 13),
];
/// Weight of each attacking role against the king's zone.
const KING_ATTACK_WEIGHT: [i32; 6] = [0, 2, 2, 3, 5, 0];

const FILE_A: u64 = 0x0101_0101_0101_0101;

/// Piece-square tables for White, indexed by role then square (a1 = 0).
struct Tables {
    psq: [[Pair; 64]; 6],
    passed_mask: [[u64; 64]; 2],
    adjacent_files: [u64; 8],
}

const fn centre_distance(sq: usize) -> i32 {
    let f = (sq % 8) as i32;
    let r = (sq / 8) as i32;
    // Distance to the four centre squares, 0 to 3.
    let df = if f < 4 { 3 - f } else { f - 4 };
    let dr = if r < 4 { 3 - r } else { r - 4 };
    if df > dr { df } else { dr }
}

const fn build_tables() -> Tables {
    let mut psq = [[Pair(0, 0); 64]; 6];
    let mut passed_mask = [[0u64; 64]; 2];
    let mut adjacent_files = [0u64; 8];
    let mut f = 0;
    while f < 8 {
        let mut m = 0u64;
        if f > 0 {
            m |= FILE_A << (f - 1);
        }
        if f < 7 {
            m |= FILE_A << (f + 1);
        }
        adjacent_files[f] = m;
        f += 1;
    }
    let mut sq = 0;
    while sq < 64 {
        let f = (sq % 8) as i32;
        let r = (sq / 8) as i32;
        let cd = centre_distance(sq);
        let central_file = if f == 3 || f == 4 {
            2
        } else if f == 2 || f == 5 {
            1
        } else {
            0
        };
        // Pawns: advance, and occupy the centre in the middlegame.
        psq[0][sq] = if r == 0 || r == 7 {
            Pair(0, 0)
        } else {
            let centre = if r >= 3 && r <= 4 {
                central_file * 10
            } else {
                central_file * 3
            };
            Pair((r - 1) * 3 + centre, (r - 1) * 8)
        };
        // Knights and bishops: the centre, and not the rim.
        psq[1][sq] = Pair(-12 * cd + 10, -10 * cd + 10);
        psq[2][sq] = Pair(-6 * cd + 6 - if r == 0 { 6 } else { 0 }, -6 * cd + 6);
        // Rooks: the seventh rank and the central files.
        psq[3][sq] = Pair(
            if r == 6 { 18 } else { 0 } + central_file * 3,
            if r == 6 { 12 } else { 0 },
        );
        psq[4][sq] = Pair(-3 * cd + 4, -8 * cd + 10);
        // King: sheltered on the back rank in the middlegame, central in the endgame.
        let shelter = match r {
            0 => 0,
            1 => -15,
            _ => -40 - 5 * r,
        };
        let wing = match f {
            0 | 7 => 10,
            1 | 6 => 20,
            2 => 8,
            5 => 0,
            _ => -10,
        };
        psq[5][sq] = Pair(shelter + wing, -14 * cd + 20);

        // Squares a pawn on `sq` must pass without meeting an enemy pawn.
        let mut ahead_white = 0u64;
        let mut ahead_black = 0u64;
        let files = (FILE_A << f)
            | if f > 0 { FILE_A << (f - 1) } else { 0 }
            | if f < 7 { FILE_A << (f + 1) } else { 0 };
        let mut rr = 0;
        while rr < 8 {
            let rank_mask = 0xFFu64 << (rr * 8);
            if rr > r {
                ahead_white |= files & rank_mask;
            }
            if rr < r {
                ahead_black |= files & rank_mask;
            }
            rr += 1;
        }
        passed_mask[0][sq] = ahead_white;
        passed_mask[1][sq] = ahead_black;
        sq += 1;
    }
    Tables {
        psq,
        passed_mask,
        adjacent_files,
    }
}

static TABLES: Tables = build_tables();

/// Chess and Chess960 evaluation.
#[derive(Debug, Clone, Copy, Default)]
pub struct ChessEvaluator;

fn side_index(side: Side) -> usize {
    match side {
        Side::White => 0,
        Side::Black => 1,
    }
}

/// The square from White's point of view.
fn relative(sq: usize, side: Side) -> usize {
    match side {
        Side::White => sq,
        Side::Black => sq ^ 56,
    }
}

fn square(index: u32) -> Square {
    // Bit indices of a u64 are always below 64.
    Square::new(index).unwrap_or(Square::A1)
}

fn squares(mut bits: u64) -> impl Iterator<Item = usize> {
    core::iter::from_fn(move || {
        if bits == 0 {
            None
        } else {
            let i = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            Some(i)
        }
    })
}

fn pawn_attacks_all(pawns: u64, side: Side) -> u64 {
    let not_a = !FILE_A;
    let not_h = !(FILE_A << 7);
    match side {
        Side::White => ((pawns & not_a) << 7) | ((pawns & not_h) << 9),
        Side::Black => ((pawns & not_a) >> 9) | ((pawns & not_h) >> 7),
    }
}

impl ChessEvaluator {
    fn side_terms(pos: &Chess, us: Side, phase_out: &mut i32) -> Pair {
        let board = pos.board();
        let them = !us;
        let occupied = board.occupied().0;
        let ours = board.by_side(us).0;
        let pawns = board.by_role(Role::Pawn).0;
        let our_pawns = pawns & ours;
        let their_pawns = pawns & board.by_side(them).0;
        let their_pawn_attacks = pawn_attacks_all(their_pawns, them);
        let their_king = pos.king_of(them);
        let king_zone = king_attacks(their_king).0 | (1u64 << their_king.index());
        let safe = !ours & !their_pawn_attacks;
        let mut total = Pair::default();
        let mut attackers = 0;
        let mut attack_weight = 0;

        for (role_index, role) in [
            Role::Pawn,
            Role::Knight,
            Role::Bishop,
            Role::Rook,
            Role::Queen,
            Role::King,
        ]
        .into_iter()
        .enumerate()
        {
            let pieces = board.by_role(role).0 & ours;
            for sq in squares(pieces) {
                let rel = relative(sq, us);
                total += MATERIAL[role_index];
                total += TABLES.psq[role_index][rel];
                *phase_out += PHASE_WEIGHT[role_index];
                let from = square(sq as u32);
                let attacks = match role {
                    Role::Knight => knight_attacks(from).0,
                    Role::Bishop => bishop_attacks(from, Bitboard(occupied)).0,
                    Role::Rook => rook_attacks(from, Bitboard(occupied)).0,
                    Role::Queen => {
                        bishop_attacks(from, Bitboard(occupied)).0
                            | rook_attacks(from, Bitboard(occupied)).0
                    }
                    _ => 0,
                };
                if (1..=4).contains(&role_index) {
                    let (weight, average) = MOBILITY[role_index - 1];
                    let count = (attacks & safe).count_ones() as i32;
                    total += weight * (count - average);
                    if attacks & king_zone != 0 {
                        attackers += 1;
                        attack_weight += KING_ATTACK_WEIGHT[role_index]
                            * (attacks & king_zone).count_ones() as i32;
                    }
                }
                if role == Role::Rook {
                    let file = FILE_A << (sq % 8);
                    if file & pawns == 0 {
                        total += ROOK_OPEN_FILE;
                    } else if file & our_pawns == 0 {
                        total += ROOK_HALF_OPEN_FILE;
                    }
                }
                if role == Role::Pawn {
                    let file = sq % 8;
                    let file_mask = FILE_A << file;
                    if (our_pawns & file_mask).count_ones() > 1 {
                        total += DOUBLED_PAWN;
                    }
                    if our_pawns & TABLES.adjacent_files[file] == 0 {
                        total += ISOLATED_PAWN;
                    }
                    if TABLES.passed_mask[side_index(us)][sq] & their_pawns == 0 {
                        let rank = rel / 8;
                        let mut bonus = PASSED_PAWN[rank];
                        // In the endgame, kings decide whether a passer runs.
                        let stop = match us {
                            Side::White => sq + 8,
                            Side::Black => sq.wrapping_sub(8),
                        };
                        if stop < 64 {
                            let stop_sq = square(stop as u32);
                            let own = pos.king_of(us).distance(stop_sq) as i32;
                            let their = their_king.distance(stop_sq) as i32;
                            bonus.1 += (their - own) * 4 * rank as i32;
                            if occupied & (1u64 << stop) != 0 {
                                bonus.0 /= 2;
                                bonus.1 /= 2;
                            }
                        }
                        total += bonus;
                    }
                }
            }
        }
        if (board.by_role(Role::Bishop).0 & ours).count_ones() >= 2 {
            total += BISHOP_PAIR;
        }
        // King safety: the attack on the enemy king counts for us, quadratically in
        // the number of attackers, and only while queens and rooks are around.
        if attackers >= 2 {
            let danger = attack_weight * attackers * 3;
            total.0 += danger.min(500);
        }
        // Our own king's pawn shelter.
        let king = pos.king_of(us);
        let shield_files =
            (FILE_A << king.file().index()) | TABLES.adjacent_files[king.file().index() as usize];
        let front = TABLES.passed_mask[side_index(us)][king.index() as usize] & shield_files;
        let near_ranks = match us {
            Side::White => 0xFFFFu64 << (8 * (king.rank().index() + 1).min(7)),
            Side::Black => 0xFFFF_0000_0000_0000u64 >> (8 * (8 - king.rank().index()).min(7)),
        };
        let shield = (front & near_ranks & our_pawns).count_ones() as i32;
        total.0 += shield.min(3) * KING_SHELTER_PAWN;
        total
    }
}

impl Evaluator<Chess> for ChessEvaluator {
    fn evaluate(&self, pos: &Chess) -> Score {
        let mut phase = 0;
        let white = Self::side_terms(pos, Side::White, &mut phase);
        let black = Self::side_terms(pos, Side::Black, &mut phase);
        let mut diff = white;
        diff -= black;
        let phase = phase.min(MAX_PHASE);
        let mut score = (diff.0 * phase + diff.1 * (MAX_PHASE - phase)) / MAX_PHASE;
        // Without pawns, a side a minor piece up or less cannot win.
        let board = pos.board();
        let stronger = if score > 0 { Side::White } else { Side::Black };
        let strong_pawns = board.by_role(Role::Pawn).0 & board.by_side(stronger).0;
        if strong_pawns == 0 && pos.has_insufficient_material(stronger) {
            score /= 16;
        } else if strong_pawns == 0 && score.abs() < 400 {
            score /= 4;
        }
        let score = match pos.turn() {
            Side::White => score,
            Side::Black => -score,
        };
        score + TEMPO
    }

    fn in_check(&self, pos: &Chess) -> bool {
        pos.is_check()
    }

    fn is_noisy(&self, pos: &Chess, mv: Move) -> bool {
        pos.is_capture(mv) || mv.promotion_role() == Some(Role::Queen)
    }

    fn noisy_order(&self, pos: &Chess, mv: Move) -> Score {
        let victim = if mv.is_en_passant() {
            ORDER_VALUE[0]
        } else {
            pos.board()
                .role_at(mv.to())
                .map_or(0, |r| ORDER_VALUE[r.index()])
        };
        let attacker = pos
            .board()
            .role_at(mv.from())
            .map_or(0, |r| ORDER_VALUE[r.index()]);
        let promotion = mv.promotion_role().map_or(0, |r| ORDER_VALUE[r.index()]);
        victim * 16 + promotion * 16 - attacker / 8
    }

    fn see_at_least(&self, pos: &Chess, mv: Move, threshold: Score) -> bool {
        see_at_least(pos, mv, threshold)
    }

    const HISTORY_SLOTS: usize = 64 * 64;

    fn history_slot(&self, _pos: &Chess, mv: Move) -> usize {
        mv.from().index() as usize * 64 + mv.to().index() as usize
    }

    fn is_irreversible(&self, pos: &Chess, mv: Move) -> bool {
        mv.is_castle() || pos.is_capture(mv) || pos.board().role_at(mv.from()) == Some(Role::Pawn)
    }

    fn null_move(&self, pos: &Chess) -> Option<Chess> {
        // Only with a piece besides pawns and king: pawn endings are full of zugzwang.
        let board = pos.board();
        let ours = board.by_side(pos.turn()).0;
        let pieces = ours & !(board.by_role(Role::Pawn).0 | board.by_role(Role::King).0);
        if pieces == 0 {
            return None;
        }
        pos.null_move()
    }

    fn is_rule_draw(&self, pos: &Chess) -> bool {
        pos.halfmoves() >= 100 && !pos.is_check()
    }
}

/// Values for static exchange evaluation.
const SEE_VALUE: [i32; 6] = [100, 320, 330, 500, 950, 20_000];

/// Static exchange evaluation: whether `mv` wins at least `threshold` when both sides
/// keep recapturing on its target with their least valuable attacker (x-rays
/// included), each free to stop when going on would lose.
fn see_at_least(pos: &Chess, mv: Move, threshold: Score) -> bool {
    if mv.is_castle() || mv.is_en_passant() || mv.promotion_role().is_some() {
        return threshold <= 0;
    }
    let board = pos.board();
    let from = mv.from();
    let to = mv.to();
    let victim = board.role_at(to).map_or(0, |r| SEE_VALUE[r.index()]);
    let mut balance = victim - threshold;
    if balance < 0 {
        return false;
    }
    let Some(mover) = board.role_at(from) else {
        return false;
    };
    balance -= SEE_VALUE[mover.index()];
    if balance >= 0 {
        return true;
    }
    let mut occupied =
        Bitboard(board.occupied().0 & !(1u64 << from.index()) | (1u64 << to.index()));
    let bishops = board.bishops_and_queens().0;
    let rooks = board.rooks_and_queens().0;
    let mut attackers = (board.attackers(to, Side::White, occupied).0
        | board.attackers(to, Side::Black, occupied).0)
        & occupied.0;
    let mut side = !pos.turn();
    loop {
        let ours = attackers & board.by_side(side).0;
        if ours == 0 {
            break;
        }
        // The least valuable attacker recaptures.
        let mut chosen = None;
        for role in [
            Role::Pawn,
            Role::Knight,
            Role::Bishop,
            Role::Rook,
            Role::Queen,
            Role::King,
        ] {
            let set = ours & board.by_role(role).0;
            if set != 0 {
                chosen = Some((role, set & set.wrapping_neg()));
                break;
            }
        }
        let Some((role, bit)) = chosen else {
            break;
        };
        side = !side;
        balance = -balance - 1 - SEE_VALUE[role.index()];
        if balance >= 0 {
            // A king may recapture only if nothing would take it back.
            if role == Role::King && attackers & board.by_side(side).0 & !bit != 0 {
                side = !side;
            }
            break;
        }
        occupied = Bitboard(occupied.0 & !bit);
        attackers &= occupied.0;
        // Sliders behind the piece that just left join in.
        attackers |= (bishop_attacks(to, occupied).0 & bishops
            | rook_attacks(to, occupied).0 & rooks)
            & occupied.0;
    }
    side != pos.turn()
}
