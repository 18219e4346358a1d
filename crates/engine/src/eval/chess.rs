//! Chess evaluation: tapered material and piece-square shapes, mobility, threats, pawn
//! structure, passed pawns, king safety.
//!
//! The evaluation is a weighted sum of features (each counted for White minus Black),
//! every weight a middlegame/endgame pair blended by the material on the board (the
//! game phase). Because it is linear in its weights, one function serves both play
//! and tuning: [`ChessEvaluator::evaluate`] feeds it an accumulator that adds weights,
//! the tuner (`examples/tune_chess.rs`) one that records each feature's count. The
//! weights themselves live in `chess_weights.rs`, written by the tuner.
//!
//! Piece-square values are shapes rather than 64-square tables: a weight per rank and
//! per distance from the edge file for each piece, which needs far fewer positions to
//! tune and reads as what it rewards.

use tablero_chess::attacks::{bishop_attacks, king_attacks, knight_attacks, rook_attacks};
use tablero_chess::{Bitboard, Chess, Move, MoveList, Role, Side, Square};

use super::chess_weights::WEIGHTS;
use crate::{Evaluator, Score};

/// A middlegame and an endgame value.
pub(crate) type Pair = (i32, i32);

/// Feature indices: each names a block of weights in [`WEIGHTS`].
pub(crate) mod feature {
    /// Material by role (pawn, knight, bishop, rook, queen).
    pub(crate) const MATERIAL: usize = 0;
    /// Piece-square shape: role × relative rank (8).
    pub(crate) const RANK: usize = 5;
    /// Piece-square shape: role × distance of the file from the edge (4).
    pub(crate) const FILE: usize = RANK + 6 * 8;
    /// Mobility per safe square, by role (knight, bishop, rook, queen).
    pub(crate) const MOBILITY: usize = FILE + 6 * 4;
    /// A passed pawn, by relative rank.
    pub(crate) const PASSED: usize = MOBILITY + 4;
    /// Passed pawn: distance of our king to its stop square, times its rank.
    pub(crate) const PASSED_OWN_KING: usize = PASSED + 8;
    /// Passed pawn: distance of their king to its stop square, times its rank.
    pub(crate) const PASSED_THEIR_KING: usize = PASSED_OWN_KING + 1;
    /// Passed pawn whose stop square is occupied.
    pub(crate) const PASSED_BLOCKED: usize = PASSED_THEIR_KING + 1;
    /// A pawn with another of ours in front on its file.
    pub(crate) const DOUBLED: usize = PASSED_BLOCKED + 1;
    /// A pawn with none of ours on the neighbouring files.
    pub(crate) const ISOLATED: usize = DOUBLED + 1;
    /// A pawn defended by another pawn.
    pub(crate) const PROTECTED_PAWN: usize = ISOLATED + 1;
    /// A pawn on d4, e4, d5 or e5.
    pub(crate) const CENTRE_PAWN: usize = PROTECTED_PAWN + 1;
    /// Two bishops or more.
    pub(crate) const BISHOP_PAIR: usize = CENTRE_PAWN + 1;
    /// A rook on a file without pawns.
    pub(crate) const ROOK_OPEN: usize = BISHOP_PAIR + 1;
    /// A rook on a file without our pawns.
    pub(crate) const ROOK_HALF_OPEN: usize = ROOK_OPEN + 1;
    /// A knight or bishop on a square an enemy pawn cannot attack, defended by a pawn.
    pub(crate) const OUTPOST: usize = ROOK_HALF_OPEN + 1;
    /// A piece (not a pawn) attacked by an enemy pawn.
    pub(crate) const THREAT_BY_PAWN: usize = OUTPOST + 1;
    /// A piece attacked and not defended.
    pub(crate) const HANGING: usize = THREAT_BY_PAWN + 1;
    /// Our pawns sheltering the king (up to 3).
    pub(crate) const SHELTER: usize = HANGING + 1;
    /// No pawn of ours on the king's file.
    pub(crate) const KING_OPEN_FILE: usize = SHELTER + 1;
    /// Attack units on the enemy king's zone, with two attackers or more.
    pub(crate) const KING_ATTACK: usize = KING_OPEN_FILE + 1;
    /// The side to move.
    pub(crate) const TEMPO: usize = KING_ATTACK + 1;
    /// The number of features.
    pub(crate) const COUNT: usize = TEMPO + 1;
}

use feature as f;

/// What each role adds to the game phase; 24 is the full opening set.
const PHASE_WEIGHT: [i32; 6] = [0, 1, 1, 2, 4, 0];
/// The phase of the full set of pieces.
pub(crate) const MAX_PHASE: i32 = 24;

/// Values used to order captures (most valuable victim first).
const ORDER_VALUE: [i32; 6] = [100, 320, 330, 500, 950, 2000];

/// Weight of each attacking role against the king's zone.
const KING_ATTACK_WEIGHT: [i32; 6] = [0, 2, 2, 3, 5, 0];
/// Attack units beyond this count no more.
const KING_ATTACK_CAP: i32 = 60;

const FILE_A: u64 = 0x0101_0101_0101_0101;
const CENTRE: u64 = 0x0000_0018_1800_0000;

/// Receives feature counts, for White (+) or Black (-).
pub(crate) trait Accumulator {
    fn add(&mut self, feature: usize, count: i32);
}

/// Adds weights: evaluation for play.
struct Sum {
    total: Pair,
}

impl Accumulator for Sum {
    #[inline]
    fn add(&mut self, feature: usize, count: i32) {
        let (mg, eg) = WEIGHTS[feature];
        self.total.0 += mg * count;
        self.total.1 += eg * count;
    }
}

/// Everything about a position that is not a weighted feature.
pub(crate) struct Shape {
    /// Game phase, 0 (bare kings and pawns) to [`MAX_PHASE`].
    pub(crate) phase: i32,
    /// Scale of the final score in sixteenths (drawish material shrinks it).
    pub(crate) scale: i32,
}

/// Chess and Chess960 evaluation.
#[derive(Debug, Clone, Copy, Default)]
pub struct ChessEvaluator;

fn sign(side: Side) -> i32 {
    match side {
        Side::White => 1,
        Side::Black => -1,
    }
}

/// The rank from `side`'s point of view (0 = its back rank).
fn relative_rank(sq: usize, side: Side) -> usize {
    match side {
        Side::White => sq / 8,
        Side::Black => 7 - sq / 8,
    }
}

fn square(index: usize) -> Square {
    // Bit indices of a u64 are always below 64.
    Square::new(index as u32).unwrap_or(Square::A1)
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

fn adjacent_files(file: usize) -> u64 {
    let mut m = 0;
    if file > 0 {
        m |= FILE_A << (file - 1);
    }
    if file < 7 {
        m |= FILE_A << (file + 1);
    }
    m
}

/// The squares in front of `sq` for `side`, on its file and both neighbours.
fn front_span(sq: usize, side: Side) -> u64 {
    let files = (FILE_A << (sq % 8)) | adjacent_files(sq % 8);
    let rank = sq / 8;
    let ahead = match side {
        Side::White if rank < 7 => !0u64 << (8 * (rank + 1)),
        Side::Black if rank > 0 => !0u64 >> (8 * (8 - rank)),
        _ => 0,
    };
    files & ahead
}

const ROLES: [Role; 6] = [
    Role::Pawn,
    Role::Knight,
    Role::Bishop,
    Role::Rook,
    Role::Queen,
    Role::King,
];

/// Attacks of every piece of `side` (pawns included), for threats and hanging pieces.
fn all_attacks(pos: &Chess, side: Side) -> u64 {
    let board = pos.board();
    let occupied = board.occupied();
    let ours = board.by_side(side).0;
    let mut attacks = pawn_attacks_all(board.by_role(Role::Pawn).0 & ours, side);
    for sq in squares(board.by_role(Role::Knight).0 & ours) {
        attacks |= knight_attacks(square(sq)).0;
    }
    for sq in squares(board.bishops_and_queens().0 & ours) {
        attacks |= bishop_attacks(square(sq), occupied).0;
    }
    for sq in squares(board.rooks_and_queens().0 & ours) {
        attacks |= rook_attacks(square(sq), occupied).0;
    }
    attacks | king_attacks(pos.king_of(side)).0
}

/// Counts every feature of `pos` into `acc` and returns the phase and scale.
pub(crate) fn features(pos: &Chess, acc: &mut impl Accumulator) -> Shape {
    let board = pos.board();
    let occupied = board.occupied().0;
    let pawns = board.by_role(Role::Pawn).0;
    let attacks = [all_attacks(pos, Side::White), all_attacks(pos, Side::Black)];
    let mut phase = 0;

    for us in [Side::White, Side::Black] {
        let s = sign(us);
        let them = !us;
        let ours = board.by_side(us).0;
        let theirs = board.by_side(them).0;
        let our_pawns = pawns & ours;
        let their_pawns = pawns & theirs;
        let our_pawn_attacks = pawn_attacks_all(our_pawns, us);
        let their_pawn_attacks = pawn_attacks_all(their_pawns, them);
        let (our_attacks, their_attacks) = match us {
            Side::White => (attacks[0], attacks[1]),
            Side::Black => (attacks[1], attacks[0]),
        };
        let their_king = pos.king_of(them);
        let king_zone = king_attacks(their_king).0 | (1u64 << their_king.index());
        let safe = !ours & !their_pawn_attacks;
        let mut attackers = 0;
        let mut attack_units = 0;

        for (r, role) in ROLES.into_iter().enumerate() {
            let pieces = board.by_role(role).0 & ours;
            for sq in squares(pieces) {
                let rank = relative_rank(sq, us);
                let file = sq % 8;
                let bit = 1u64 << sq;
                if r < 5 {
                    acc.add(f::MATERIAL + r, s);
                }
                acc.add(f::RANK + r * 8 + rank, s);
                acc.add(f::FILE + r * 4 + file.min(7 - file), s);
                phase += PHASE_WEIGHT[r];
                let from = square(sq);
                let reach = match role {
                    Role::Knight => knight_attacks(from).0,
                    Role::Bishop => bishop_attacks(from, Bitboard(occupied)).0,
                    Role::Rook => rook_attacks(from, Bitboard(occupied)).0,
                    Role::Queen => {
                        bishop_attacks(from, Bitboard(occupied)).0
                            | rook_attacks(from, Bitboard(occupied)).0
                    }
                    _ => 0,
                };
                if (1..=4).contains(&r) {
                    acc.add(f::MOBILITY + r - 1, s * (reach & safe).count_ones() as i32);
                    if reach & king_zone != 0 {
                        attackers += 1;
                        attack_units +=
                            KING_ATTACK_WEIGHT[r] * (reach & king_zone).count_ones() as i32;
                    }
                    if bit & their_pawn_attacks != 0 {
                        acc.add(f::THREAT_BY_PAWN, s);
                    }
                }
                if (1..=4).contains(&r) && bit & their_attacks != 0 && bit & our_attacks == 0 {
                    acc.add(f::HANGING, s);
                }
                match role {
                    Role::Pawn => {
                        let file_mask = FILE_A << file;
                        if front_span(sq, us) & file_mask & our_pawns != 0 {
                            acc.add(f::DOUBLED, s);
                        }
                        if our_pawns & adjacent_files(file) == 0 {
                            acc.add(f::ISOLATED, s);
                        }
                        if bit & our_pawn_attacks != 0 {
                            acc.add(f::PROTECTED_PAWN, s);
                        }
                        if bit & CENTRE != 0 {
                            acc.add(f::CENTRE_PAWN, s);
                        }
                        if front_span(sq, us) & their_pawns == 0
                            && front_span(sq, us) & file_mask & our_pawns == 0
                        {
                            acc.add(f::PASSED + rank, s);
                            let stop = match us {
                                Side::White => sq + 8,
                                Side::Black => sq.wrapping_sub(8),
                            };
                            if stop < 64 {
                                let stop_sq = square(stop);
                                let weight = rank.saturating_sub(1) as i32;
                                let own = pos.king_of(us).distance(stop_sq) as i32;
                                let their = their_king.distance(stop_sq) as i32;
                                acc.add(f::PASSED_OWN_KING, s * own * weight);
                                acc.add(f::PASSED_THEIR_KING, s * their * weight);
                                if occupied & (1u64 << stop) != 0 {
                                    acc.add(f::PASSED_BLOCKED, s);
                                }
                            }
                        }
                    }
                    Role::Knight | Role::Bishop => {
                        let attackable = front_span(sq, us) & !(FILE_A << file) & their_pawns;
                        if (3..=5).contains(&rank) && attackable == 0 && bit & our_pawn_attacks != 0
                        {
                            acc.add(f::OUTPOST, s);
                        }
                    }
                    Role::Rook => {
                        let file_mask = FILE_A << file;
                        if file_mask & pawns == 0 {
                            acc.add(f::ROOK_OPEN, s);
                        } else if file_mask & our_pawns == 0 {
                            acc.add(f::ROOK_HALF_OPEN, s);
                        }
                    }
                    _ => {}
                }
            }
        }
        if (board.by_role(Role::Bishop).0 & ours).count_ones() >= 2 {
            acc.add(f::BISHOP_PAIR, s);
        }
        if attackers >= 2 {
            acc.add(
                f::KING_ATTACK,
                s * (attack_units * attackers / 2).min(KING_ATTACK_CAP),
            );
        }
        let king = pos.king_of(us).index() as usize;
        let shelter_zone = front_span(king, us)
            & match us {
                Side::White => 0xFFFF_u64 << (8 * (king / 8 + 1).min(7)),
                Side::Black => 0xFFFF_0000_0000_0000_u64 >> (8 * (8 - king / 8).min(7)),
            };
        acc.add(
            f::SHELTER,
            s * ((shelter_zone & our_pawns).count_ones() as i32).min(3),
        );
        if (FILE_A << (king % 8)) & our_pawns == 0 {
            acc.add(f::KING_OPEN_FILE, s);
        }
    }
    acc.add(f::TEMPO, sign(pos.turn()));
    Shape {
        phase: phase.min(MAX_PHASE),
        scale: scale(pos),
    }
}

/// Sixteenths of the score left when the side ahead lacks the material to win.
fn scale(pos: &Chess) -> i32 {
    let board = pos.board();
    let mut scale = 16;
    for side in [Side::White, Side::Black] {
        let ours = board.by_side(side).0;
        if ours & board.by_role(Role::Pawn).0 != 0 {
            continue;
        }
        if pos.has_insufficient_material(side) {
            scale = 1;
        } else {
            let minors = (ours & (board.by_role(Role::Knight).0 | board.by_role(Role::Bishop).0))
                .count_ones();
            let majors = (ours & board.rooks_and_queens().0).count_ones();
            if majors == 0 && minors <= 1 {
                scale = scale.min(2);
            }
        }
    }
    scale
}

/// Blends a middlegame/endgame pair by phase and applies the scale.
pub(crate) fn taper(total: Pair, shape: &Shape) -> i32 {
    let blended = (total.0 * shape.phase + total.1 * (MAX_PHASE - shape.phase)) / MAX_PHASE;
    blended * shape.scale / 16
}

impl ChessEvaluator {
    /// The evaluation from White's point of view.
    #[must_use]
    pub fn white_score(pos: &Chess) -> Score {
        let mut sum = Sum { total: (0, 0) };
        let shape = features(pos, &mut sum);
        taper(sum.total, &shape)
    }
}

impl Evaluator<Chess> for ChessEvaluator {
    fn evaluate(&self, pos: &Chess) -> Score {
        let white = Self::white_score(pos);
        match pos.turn() {
            Side::White => white,
            Side::Black => -white,
        }
    }

    fn in_check(&self, pos: &Chess) -> bool {
        pos.is_check()
    }

    fn is_noisy(&self, pos: &Chess, mv: Move) -> bool {
        pos.is_capture(mv) || mv.promotion_role() == Some(Role::Queen)
    }

    fn noisy_moves_into(&self, pos: &Chess, moves: &mut MoveList) -> bool {
        pos.noisy_moves_into(moves);
        true
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

    const CONTINUATION_SLOTS: usize = 12 * 64;

    fn continuation_slot(&self, pos: &Chess, mv: Move) -> usize {
        let board = pos.board();
        let role = board.role_at(mv.from()).map_or(0, |r| r.index());
        (pos.turn().index() * 6 + role) * 64 + mv.to().index() as usize
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
        for role in ROLES {
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

#[cfg(test)]
mod tests {
    use super::*;
    use tablero_chess::CastlingMode;

    fn chess(fen: &str) -> Chess {
        Chess::from_fen(fen, CastlingMode::Standard).expect("valid FEN")
    }

    fn mv(pos: &Chess, uci: &str) -> Move {
        pos.parse_uci(uci).expect("legal move")
    }

    #[test]
    fn the_start_is_balanced_and_colours_mirror() {
        assert_eq!(
            ChessEvaluator::white_score(&Chess::new()),
            WEIGHTS[f::TEMPO].0
        );
        let a = chess("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4");
        let b = chess("rnbqk2r/pppp1ppp/5n2/2b1p3/4P3/2N2N2/PPPP1PPP/R1BQKB1R b KQkq - 4 4");
        assert_eq!(ChessEvaluator.evaluate(&a), ChessEvaluator.evaluate(&b));
    }

    #[test]
    fn see_judges_exchanges() {
        // Pawn takes a defended knight: wins a knight for a pawn.
        let pos = chess("4k3/8/2p5/3n4/4P3/8/8/4K3 w - - 0 1");
        let m = mv(&pos, "e4d5");
        assert!(see_at_least(&pos, m, 200));
        // Queen takes a pawn defended by a pawn: loses the queen.
        let pos = chess("4k3/8/2p5/3p4/8/8/3Q4/4K3 w - - 0 1");
        let m = mv(&pos, "d2d5");
        assert!(!see_at_least(&pos, m, 0));
        // Rook takes a pawn defended by a rook, with our queen behind: the x-ray wins.
        let pos = chess("3rk3/8/8/3p4/8/8/3R4/3QK3 w - - 0 1");
        let m = mv(&pos, "d2d5");
        assert!(see_at_least(&pos, m, 0));
    }

    #[test]
    fn bare_kings_and_a_minor_piece_score_nearly_nothing() {
        let pos = chess("4k3/8/8/8/8/8/8/2B1K3 w - - 0 1");
        assert!(ChessEvaluator::white_score(&pos).abs() < 40);
    }
}

/// Feature counts of one position, for tuning the weights (see `examples/tune_chess.rs`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChessTrace {
    /// `(feature, White's count minus Black's)` for every feature present.
    pub counts: Vec<(u16, i16)>,
    /// Game phase, 0 to 24 (24 weighs the middlegame weight fully).
    pub phase: i32,
    /// Sixteenths of the blended score kept.
    pub scale: i32,
}

struct Trace {
    counts: [i32; f::COUNT],
}

impl Accumulator for Trace {
    fn add(&mut self, feature: usize, count: i32) {
        self.counts[feature] += count;
    }
}

impl ChessEvaluator {
    /// The number of weighted features.
    pub const FEATURES: usize = f::COUNT;

    /// The current weights, one `(middlegame, endgame)` pair per feature.
    #[must_use]
    pub fn weights() -> &'static [(i32, i32)] {
        &WEIGHTS
    }

    /// The feature counts of `pos`: its evaluation from White's side is
    /// `scale/16 × (Σ mg·count × phase + Σ eg·count × (24 − phase)) / 24`.
    #[must_use]
    pub fn trace(pos: &Chess) -> ChessTrace {
        let mut trace = Trace {
            counts: [0; f::COUNT],
        };
        let shape = features(pos, &mut trace);
        ChessTrace {
            counts: trace
                .counts
                .iter()
                .enumerate()
                .filter(|&(_, &c)| c != 0)
                .map(|(i, &c)| (i as u16, c.clamp(-32_000, 32_000) as i16))
                .collect(),
            phase: shape.phase,
            scale: shape.scale,
        }
    }
}
