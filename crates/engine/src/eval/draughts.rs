//! Draughts evaluation for every rule set: material with a king worth what its range
//! makes it worth, advancement, the back-rank guard, the centre, runaway men,
//! flying-king mobility and the main road, trading down when ahead (the endgame
//! weights of material), and the endings that are drawn however much one side seems
//! to be ahead.
//!
//! Like the chess and xiangqi evaluations it is a weighted sum of features (each
//! counted for White minus Black), every weight a middlegame/endgame pair blended by
//! the number of pieces on the board. Each rule set has its own block of weights in
//! `draughts_weights.rs`; [`features`] feeds an accumulator that adds them, or one that
//! records each feature's count for the tuner (`examples/tune_draughts.rs`,
//! [`DraughtsEvaluator::trace`]).
//!
//! The rule set is read from the position, so one evaluator serves all six. Geometry
//! is worked out once per board in the "internal frame": rows from the top (White's
//! crowning row is row 0) and the columns of an a1-dark board. Italian and Spanish
//! boards (a1 light) are that board's mirror image with the same rules, and every term
//! here is symmetric under the mirror, so only the numbering differs.

use tablero_draughts::{BoardSize, Draughts, KingRange, Move, Orientation, RuleSet, Side};

use super::draughts_weights::WEIGHTS;
use super::trace::{Accumulator, EvalTrace, Pair, Tally, WeightSum};
use crate::{DRAUGHTS_LEVELS, Evaluator, LevelTable, Score};

// The generated weights import nothing from this file; their length is checked here.
const _: () = assert!(WEIGHTS.len() == feature::COUNT);

/// Feature indices. Each rule set has its own block of [`feature::BLOCK`] weights,
/// in [`RuleSet::ALL`] order; the names below are offsets within a block.
pub(crate) mod feature {
    /// Material: a man, a king.
    pub(crate) const MAN: usize = 0;
    pub(crate) const KING: usize = 1;
    /// A man per column nearer the middle (edge men are safe but idle).
    pub(crate) const MAN_CENTRE_COLUMN: usize = 2;
    /// A man on one of the central squares.
    pub(crate) const MAN_CENTRE_SQUARE: usize = 3;
    /// A man with an empty square to step to.
    pub(crate) const MAN_FREE: usize = 4;
    /// Per man of difference between the two wings beyond one: a lopsided position
    /// leaves one wing short of tempi.
    pub(crate) const WING_IMBALANCE: usize = 5;
    /// A short king per step nearer the centre (rows and columns counted apart).
    pub(crate) const SHORT_KING_CENTRE: usize = 6;
    /// A short king per empty neighbouring square.
    pub(crate) const SHORT_KING_MOBILITY: usize = 7;
    /// A flying king per empty square it can slide to.
    pub(crate) const FLYING_KING_MOBILITY: usize = 8;
    /// A flying king on the main road (the long diagonal, a1 to h8 or a1 to j10): it
    /// cuts the board in two and is the only square set from which a lone king holds
    /// a draw.
    pub(crate) const MAIN_ROAD: usize = 9;
    /// A man by rows advanced from its own back row (ten weights). In the endgame a
    /// man near the crowning row already carries part of a king's worth.
    pub(crate) const ADVANCE: usize = 10;
    /// A man that no enemy piece can stop from crowning, by rows still to go (ten
    /// weights).
    pub(crate) const RUNAWAY: usize = ADVANCE + 10;
    /// A man on its own back row while the opponent has men to crown, by back-row
    /// square from the side's left (five weights). On 8×8 the "bridge" squares (c1
    /// and g1, English 30 and 32) hold the crowning row with two men.
    pub(crate) const GUARD: usize = RUNAWAY + 10;
    /// In a kings-only ending with a material lead, the stronger side's kings per
    /// step nearer the weaker side's kings: they have to hunt them down.
    pub(crate) const KING_CHASE: usize = GUARD + 5;
    /// The side to move.
    pub(crate) const TEMPO: usize = KING_CHASE + 1;
    /// Weights per rule set.
    pub(crate) const BLOCK: usize = TEMPO + 1;
    /// The number of features.
    pub(crate) const COUNT: usize = 6 * BLOCK;
}

use feature as f;

/// How many columns beyond a man's forward cone an enemy piece still counts as able
/// to intercept it (men capture sideways into the cone's edge).
const RUNAWAY_MARGIN: i32 = 1;

/// Draw scales, out of [`SCALE_FULL`].
const SCALE_FULL: i32 = 16;
const SCALE_DEAD_DRAW: i32 = 1;
const SCALE_DRAWISH: i32 = 3;
const SCALE_HARD_WIN: i32 = 8;

/// The four diagonal steps in the internal frame: up-left, up-right, down-left,
/// down-right. Up is towards White's crowning row.
const DIRECTIONS: [(i32, i32); 4] = [(-1, -1), (-1, 1), (1, -1), (1, 1)];
/// The directions each side's men step in, by [`Side::index`].
const FORWARD: [[usize; 2]; 2] = [[0, 1], [2, 3]];

/// One board's geometry, indexed by PDN square number (0 unused). Square sets are
/// `u64`s with bit `n` for square `n`, as in [`tablero_draughts::SquareSet`].
struct Geometry {
    /// Squares in a row, light and dark (8 or 10).
    width: i32,
    /// Every square.
    board: u64,
    row: [u8; 51],
    col: [u8; 51],
    /// The neighbour in each of [`DIRECTIONS`], 0 off the board.
    neighbours: [[u8; 4]; 51],
    /// By side and square: where an enemy piece could stop a man on that square from
    /// crowning (the forward cone widened by [`RUNAWAY_MARGIN`]).
    cone: [[u64; 51]; 2],
    /// The main road.
    main_road: u64,
    /// The central squares.
    centre: u64,
}

const fn abs(x: i32) -> i32 {
    if x < 0 { -x } else { x }
}

const fn geometry(width: usize, a1_light: bool) -> Geometry {
    let half = width / 2;
    let squares = width * half;
    let w = width as i32;
    let mut g = Geometry {
        width: w,
        board: 0,
        row: [0; 51],
        col: [0; 51],
        neighbours: [[0; 4]; 51],
        cone: [[0; 51]; 2],
        main_road: 0,
        centre: 0,
    };
    let mut at = [[0u8; 10]; 10];
    let mut n = 1;
    while n <= squares {
        let r = (n - 1) / half;
        let i = (n - 1) % half;
        // a1-light boards number each row from the other end.
        let index = if a1_light { half - 1 - i } else { i };
        let c = 2 * index + if r.is_multiple_of(2) { 1 } else { 0 };
        g.row[n] = r as u8;
        g.col[n] = c as u8;
        at[r][c] = n as u8;
        g.board |= 1 << n;
        if r + c == width - 1 {
            g.main_road |= 1 << n;
        }
        if abs(2 * r as i32 - (w - 1)) <= 1 && abs(2 * c as i32 - (w - 1)) <= w - 5 {
            g.centre |= 1 << n;
        }
        n += 1;
    }
    n = 1;
    while n <= squares {
        let r = g.row[n] as i32;
        let c = g.col[n] as i32;
        let mut d = 0;
        while d < 4 {
            let (r2, c2) = (r + DIRECTIONS[d].0, c + DIRECTIONS[d].1);
            if r2 >= 0 && r2 < w && c2 >= 0 && c2 < w {
                g.neighbours[n][d] = at[r2 as usize][c2 as usize];
            }
            d += 1;
        }
        let mut m = 1;
        while m <= squares {
            let r2 = g.row[m] as i32;
            let dc = abs(g.col[m] as i32 - c);
            if r2 < r && dc <= r - r2 + RUNAWAY_MARGIN {
                g.cone[0][n] |= 1 << m;
            }
            if r2 > r && dc <= r2 - r + RUNAWAY_MARGIN {
                g.cone[1][n] |= 1 << m;
            }
            m += 1;
        }
        n += 1;
    }
    g
}

static EIGHT: Geometry = geometry(8, false);
static EIGHT_A1_LIGHT: Geometry = geometry(8, true);
static TEN: Geometry = geometry(10, false);

/// What a rule set changes in the evaluation besides its weights.
struct RuleShape {
    geometry: &'static Geometry,
    /// 0 for 8×8, 1 for 10×10.
    board: usize,
    /// Pieces each side starts with.
    start_pieces: i32,
    flying: bool,
    /// Where the rule set's block of weights starts.
    base: usize,
}

impl RuleShape {
    const fn new(rule_set: RuleSet, index: usize) -> RuleShape {
        let rules = rule_set.rules();
        let (geometry, board) = match (rules.board, rules.orientation) {
            (BoardSize::Ten, _) => (&TEN, 1),
            (BoardSize::Eight, Orientation::A1Dark) => (&EIGHT, 0),
            (BoardSize::Eight, Orientation::A1Light) => (&EIGHT_A1_LIGHT, 0),
        };
        RuleShape {
            geometry,
            board,
            start_pieces: rules.board.pieces_per_side() as i32,
            flying: matches!(rules.kings, KingRange::Flying),
            base: index * f::BLOCK,
        }
    }

    fn of(rule_set: RuleSet) -> &'static RuleShape {
        match rule_set {
            RuleSet::English => &SHAPES[0],
            RuleSet::International => &SHAPES[1],
            RuleSet::Brazilian => &SHAPES[2],
            RuleSet::Russian => &SHAPES[3],
            RuleSet::Spanish => &SHAPES[4],
            RuleSet::Italian => &SHAPES[5],
        }
    }

    /// A weight of this rule set's block.
    fn weight(&self, feature: usize) -> Pair {
        WEIGHTS[self.base + feature]
    }
}

/// In [`RuleSet::ALL`] order, the order of the blocks of weights.
static SHAPES: [RuleShape; 6] = [
    RuleShape::new(RuleSet::English, 0),
    RuleShape::new(RuleSet::International, 1),
    RuleShape::new(RuleSet::Brazilian, 2),
    RuleShape::new(RuleSet::Russian, 3),
    RuleShape::new(RuleSet::Spanish, 4),
    RuleShape::new(RuleSet::Italian, 5),
];

/// Draughts evaluation for every rule set.
#[derive(Debug, Clone, Copy, Default)]
pub struct DraughtsEvaluator;

fn squares(mut bits: u64) -> impl Iterator<Item = usize> {
    core::iter::from_fn(move || {
        if bits == 0 {
            None
        } else {
            let n = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            Some(n)
        }
    })
}

/// The board as square sets, by [`Side::index`].
struct Placement {
    men: [u64; 2],
    kings: [u64; 2],
    empty: u64,
}

impl Placement {
    fn of(pos: &Draughts, g: &Geometry) -> Placement {
        let men = [pos.men(Side::White).bits(), pos.men(Side::Black).bits()];
        let kings = [pos.kings(Side::White).bits(), pos.kings(Side::Black).bits()];
        Placement {
            men,
            kings,
            empty: g.board & !(men[0] | men[1] | kings[0] | kings[1]),
        }
    }

    fn counts(&self, side: Side) -> (i32, i32) {
        (
            self.men[side.index()].count_ones() as i32,
            self.kings[side.index()].count_ones() as i32,
        )
    }
}

/// Distance between two squares in king steps.
fn king_distance(g: &Geometry, a: usize, b: usize) -> i32 {
    let dr = abs(i32::from(g.row[a]) - i32::from(g.row[b]));
    let dc = abs(i32::from(g.col[a]) - i32::from(g.col[b]));
    dr.max(dc)
}

/// Steps from the middle of the board, 0 in the centre, by row and by column.
fn centrality(g: &Geometry, n: usize) -> (i32, i32) {
    let w = g.width;
    let r = (w - 1 - abs(2 * i32::from(g.row[n]) - (w - 1))) / 2;
    let c = (w - 1 - abs(2 * i32::from(g.col[n]) - (w - 1))) / 2;
    (r, c)
}

const fn sign(side: Side) -> i32 {
    match side {
        Side::White => 1,
        Side::Black => -1,
    }
}

/// What the blend of the weighted features needs besides them.
pub(crate) struct Shape {
    /// Pieces on the board, at most `max_phase`.
    pub(crate) phase: i32,
    /// Both sides' starting pieces: the phase weighing the middlegame weights fully.
    pub(crate) max_phase: i32,
    /// Sixteenths of the blended score kept (drawn endings).
    pub(crate) scale: i32,
}

/// Counts every feature of `pos`, each for White minus Black, into `acc`.
pub(crate) fn features(pos: &Draughts, acc: &mut impl Accumulator) -> Shape {
    let rules = RuleShape::of(pos.rule_set());
    let board = Placement::of(pos, rules.geometry);
    let counts = [board.counts(Side::White), board.counts(Side::Black)];
    for us in [Side::White, Side::Black] {
        let (men, kings) = counts[us.index()];
        acc.add(rules.base + f::MAN, sign(us) * men);
        acc.add(rules.base + f::KING, sign(us) * kings);
        side_features(rules, &board, us, acc);
    }
    acc.add(rules.base + f::TEMPO, sign(pos.turn()));

    // Which side is ahead decides which drawn endings apply.
    let (man, king) = (rules.weight(f::MAN).0, rules.weight(f::KING).0);
    let material = counts.map(|(men, kings)| men * man + kings * king);
    let lead = material[0] - material[1];
    let scale = |strong: Side| {
        let (ours, theirs) = (counts[strong.index()], counts[strong.other().index()]);
        draw_scale(rules, &board, strong, ours, theirs)
    };
    let scale = match lead.signum() {
        1 => scale(Side::White),
        -1 => scale(Side::Black),
        // Level material: whichever side the ending would favour, it is drawn.
        _ => scale(Side::White).min(scale(Side::Black)),
    };
    if counts[0].0 + counts[1].0 == 0 && lead != 0 {
        let strong = if lead > 0 { Side::White } else { Side::Black };
        let steps = chase(rules, &board, strong);
        acc.add(rules.base + f::KING_CHASE, sign(strong) * steps);
    }
    let max_phase = 2 * rules.start_pieces;
    let pieces = counts[0].0 + counts[0].1 + counts[1].0 + counts[1].1;
    Shape {
        phase: pieces.min(max_phase),
        max_phase,
        scale,
    }
}

/// Every feature of `us`'s pieces except material.
fn side_features(rules: &RuleShape, board: &Placement, us: Side, acc: &mut impl Accumulator) {
    let g = rules.geometry;
    let s = sign(us);
    let base = rules.base;
    let them = us.other().index();
    let u = us.index();
    let their_pieces = board.men[them] | board.kings[them];
    let mut wings = [0i32; 2];
    for n in squares(board.men[u]) {
        let row = i32::from(g.row[n]);
        let col = i32::from(g.col[n]);
        let advance = match us {
            Side::White => g.width - 1 - row,
            Side::Black => row,
        };
        acc.add(base + f::ADVANCE + advance as usize, s);
        if advance == 0 && board.men[them] != 0 {
            // White's back row from a1; Black's seen from its own side.
            let from_left = match us {
                Side::White => col,
                Side::Black => g.width - 1 - col,
            };
            acc.add(base + f::GUARD + (from_left / 2) as usize, s);
        }
        let (_, column_centre) = centrality(g, n);
        acc.add(base + f::MAN_CENTRE_COLUMN, s * column_centre);
        if g.centre & (1 << n) != 0 {
            acc.add(base + f::MAN_CENTRE_SQUARE, s);
        }
        if FORWARD[u]
            .iter()
            .any(|&d| board.empty & (1 << g.neighbours[n][d]) != 0)
        {
            acc.add(base + f::MAN_FREE, s);
        }
        wings[usize::from(2 * col >= g.width)] += 1;
        // A flying king catches any man; a short one only from inside the cone.
        let unstoppable =
            g.cone[u][n] & their_pieces == 0 && !(rules.flying && board.kings[them] != 0);
        if unstoppable {
            let rows_to_go = g.width - 1 - advance;
            acc.add(base + f::RUNAWAY + rows_to_go as usize, s);
        }
    }
    let imbalance = (wings[0] - wings[1]).abs() - 1;
    if imbalance > 0 {
        acc.add(base + f::WING_IMBALANCE, s * imbalance);
    }
    for n in squares(board.kings[u]) {
        if rules.flying {
            let mut reach = 0;
            for d in 0..4 {
                let mut sq = usize::from(g.neighbours[n][d]);
                while sq != 0 && board.empty & (1 << sq) != 0 {
                    reach += 1;
                    sq = usize::from(g.neighbours[sq][d]);
                }
            }
            acc.add(base + f::FLYING_KING_MOBILITY, s * reach);
            if g.main_road & (1 << n) != 0 {
                acc.add(base + f::MAIN_ROAD, s);
            }
        } else {
            let (r, c) = centrality(g, n);
            acc.add(base + f::SHORT_KING_CENTRE, s * (r + c));
            let free = g.neighbours[n]
                .iter()
                .filter(|&&sq| board.empty & (1 << sq) != 0)
                .count() as i32;
            acc.add(base + f::SHORT_KING_MOBILITY, s * free);
        }
    }
}

/// How much of the score a side ahead in material can hope to turn into a win, out
/// of [`SCALE_FULL`]: the endings the rules of a rule set make drawn.
fn draw_scale(
    rules: &RuleShape,
    board: &Placement,
    strong: Side,
    (strong_men, strong_kings): (i32, i32),
    (weak_men, weak_kings): (i32, i32),
) -> i32 {
    let weak = strong.other().index();
    if weak_men + weak_kings == 0 {
        // Nothing left to hold the draw with (the search scores the loss itself, but
        // quiescence may stand pat here first).
        return SCALE_FULL;
    }
    if strong_men + weak_men == 0 {
        if strong_kings <= weak_kings {
            return SCALE_DRAWISH;
        }
        if !rules.flying {
            // Short kings: two kings beat one; more against more is long work.
            return if weak_kings == 1 {
                SCALE_FULL
            } else {
                SCALE_HARD_WIN
            };
        }
        if weak_kings >= 2 {
            return if strong_kings > 2 * weak_kings {
                SCALE_HARD_WIN
            } else {
                SCALE_DRAWISH
            };
        }
        // A lone flying king: two kings never win; three win only if it does not
        // hold the main road (on 10×10 and 8×8 alike); on 10×10 four always win.
        let on_main_road = board.kings[weak] & rules.geometry.main_road != 0;
        return match strong_kings {
            0..=2 => SCALE_DEAD_DRAW,
            3 if on_main_road => SCALE_DRAWISH,
            3 => SCALE_HARD_WIN,
            _ if on_main_road && rules.board == 0 => SCALE_DRAWISH,
            _ => SCALE_FULL,
        };
    }
    if rules.flying && weak_men == 0 && weak_kings == 1 {
        // Against a lone flying king a man or two ahead is not enough: the men must
        // crown first, and then it is the king ending above.
        return match strong_men + strong_kings {
            0..=2 => SCALE_DRAWISH,
            3 => SCALE_HARD_WIN,
            _ => SCALE_FULL,
        };
    }
    SCALE_FULL
}

/// In a kings-only ending: the steps by which the stronger side's kings are nearer
/// the weaker side's than the board's width, summed over the stronger side's kings.
fn chase(rules: &RuleShape, board: &Placement, strong: Side) -> i32 {
    let g = rules.geometry;
    let weak = board.kings[strong.other().index()];
    let mut steps = 0;
    for k in squares(board.kings[strong.index()]) {
        let nearest = squares(weak)
            .map(|t| king_distance(g, k, t))
            .min()
            .unwrap_or(0);
        steps += g.width - 1 - nearest;
    }
    steps
}

impl DraughtsEvaluator {
    /// The number of weighted features: [`RuleSet::ALL`]'s six blocks of 37.
    pub const FEATURES: usize = f::COUNT;
    /// The weights of one rule set: block `i` belongs to `RuleSet::ALL[i]`.
    pub const FEATURES_PER_RULE_SET: usize = f::BLOCK;
    /// Where a man's material weight sits in each rule set's block; the tuner
    /// rescales every block so that this weight stays the unit.
    pub const MAN_FEATURE: usize = f::MAN;

    /// The evaluation from White's point of view.
    #[must_use]
    pub fn white_score(pos: &Draughts) -> Score {
        let mut sum = WeightSum::new(&WEIGHTS);
        let shape = features(pos, &mut sum);
        let (mg, eg) = sum.total;
        let blended = (mg * shape.phase + eg * (shape.max_phase - shape.phase)) / shape.max_phase;
        blended * shape.scale / SCALE_FULL
    }

    /// The current weights, one `(middlegame, endgame)` pair per feature.
    #[must_use]
    pub fn weights() -> &'static [(i32, i32)] {
        &WEIGHTS
    }

    /// The feature counts of `pos` (White's count minus Black's), with its phase (the
    /// pieces on the board, at most both sides' starting pieces) and scale; see
    /// [`EvalTrace`] for the evaluation they add up to. The scale depends on which
    /// side the current weights put ahead in material, and is fixed in the trace.
    #[must_use]
    pub fn trace(pos: &Draughts) -> EvalTrace {
        let mut tally = Tally::new(f::COUNT);
        let shape = features(pos, &mut tally);
        EvalTrace {
            counts: tally.sparse(),
            unscaled: Vec::new(),
            phase: shape.phase,
            max_phase: shape.max_phase,
            scale: shape.scale,
        }
    }
}

impl Evaluator<Draughts> for DraughtsEvaluator {
    type Accumulator = ();

    const LEVELS: &'static LevelTable = &DRAUGHTS_LEVELS;

    fn evaluate(&self, pos: &Draughts) -> Score {
        let white = Self::white_score(pos);
        match pos.turn() {
            Side::White => white,
            Side::Black => -white,
        }
    }

    fn in_check(&self, _pos: &Draughts) -> bool {
        false
    }

    /// Captures are compulsory: a side that can capture may not stand pat.
    fn must_resolve(&self, pos: &Draughts) -> bool {
        pos.has_capture()
    }

    fn is_noisy(&self, _pos: &Draughts, mv: Move) -> bool {
        mv.is_capture() || mv.crowns()
    }

    fn noisy_order(&self, pos: &Draughts, mv: Move) -> Score {
        let kings = (mv.captured() & pos.kings(pos.turn().other())).len() as Score;
        let crowning = if mv.crowns() { 1 } else { 0 };
        100 * mv.capture_count() as Score + 150 * kings + 120 * crowning
    }

    const HISTORY_SLOTS: usize = 51 * 51;

    fn history_slot(&self, _pos: &Draughts, mv: Move) -> usize {
        usize::from(mv.from()) * 51 + usize::from(mv.to())
    }

    fn is_irreversible(&self, pos: &Draughts, mv: Move) -> bool {
        mv.is_capture() || pos.moves_man(mv)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tablero_core::{Position, SplitMix64};

    #[test]
    fn the_trace_adds_up_to_the_evaluation() {
        let mut rng = SplitMix64::new(17);
        let mut checked = 0;
        for rule_set in RuleSet::ALL {
            for _ in 0..15 {
                let mut pos = Draughts::new(rule_set);
                for _ in 0..200 {
                    let trace = DraughtsEvaluator::trace(&pos);
                    assert_eq!(
                        trace.score(DraughtsEvaluator::weights()),
                        DraughtsEvaluator::white_score(&pos),
                        "{rule_set} {}",
                        pos.fen()
                    );
                    let base = RuleShape::of(rule_set).base;
                    assert!(
                        trace
                            .counts
                            .iter()
                            .all(|&(i, _)| (base..base + f::BLOCK).contains(&usize::from(i))),
                        "{rule_set}: a feature outside the rule set's block"
                    );
                    checked += 1;
                    let moves = pos.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    pos.play_unchecked(moves[rng.below(moves.len() as u64) as usize]);
                }
            }
        }
        assert!(checked > 5000, "{checked}");
    }

    #[test]
    fn features_count_for_white_minus_black() {
        // English, Black to move: White men on 21 and 30 (its back row, a bridge
        // square), a White king on 14; Black men on 5 and 6.
        let pos =
            Draughts::from_fen("B:W21,30,K14:B5,6", RuleSet::English).expect("a valid English FEN");
        let trace = DraughtsEvaluator::trace(&pos);
        let base = RuleShape::of(RuleSet::English).base;
        assert_eq!(trace.count(base + f::MAN), 0);
        assert_eq!(trace.count(base + f::KING), 1);
        assert_eq!(trace.count(base + f::TEMPO), -1);
        // 30 is c1, the second back-row square from White's left.
        assert_eq!(trace.count(base + f::GUARD + 1), 1);
        // 21 is a3 (two rows up), 5 and 6 are one row down from Black's back row.
        assert_eq!(trace.count(base + f::ADVANCE + 2), 1);
        assert_eq!(trace.count(base + f::ADVANCE + 1), -2);
        assert_eq!((trace.phase, trace.max_phase, trace.scale), (5, 24, 16));
        // Short kings: no flying-king terms in English.
        assert_eq!(trace.count(base + f::FLYING_KING_MOBILITY), 0);
        assert!(trace.count(base + f::SHORT_KING_MOBILITY) > 0);
    }

    #[test]
    fn a_man_runs_away_only_with_nobody_in_its_path() {
        // English: White's man on 14 has three rows to go; Black's man on 12 is
        // outside its path, one on 5 inside it. Black's men are all within reach of
        // White's.
        let base = RuleShape::of(RuleSet::English).base;
        let runaway = |fen: &str| {
            let pos = Draughts::from_fen(fen, RuleSet::English).expect("a valid English FEN");
            let trace = DraughtsEvaluator::trace(&pos);
            (0..10)
                .map(|rows| trace.count(base + f::RUNAWAY + rows))
                .collect::<Vec<_>>()
        };
        let mut free = vec![0; 10];
        free[3] = 1;
        assert_eq!(runaway("W:W14,30:B4,12"), free);
        assert_eq!(runaway("W:W14,30:B4,5"), vec![0; 10]);
    }

    #[test]
    fn geometry_matches_the_numbering() {
        // English: 1 = b8, 29 = a1; main road a1-h8 is 29, 25, 22, 18, 15, 11, 8, 4.
        assert_eq!((EIGHT.row[1], EIGHT.col[1]), (0, 1));
        assert_eq!((EIGHT.row[29], EIGHT.col[29]), (7, 0));
        let road: Vec<usize> = squares(EIGHT.main_road).collect();
        assert_eq!(road, vec![4, 8, 11, 15, 18, 22, 25, 29]);
        // Italian: 1 = a8 is the mirror of h8, 4 = g8 the mirror of b8.
        assert_eq!(EIGHT_A1_LIGHT.col[1], 7);
        assert_eq!(EIGHT_A1_LIGHT.col[4], 1);
        let road: Vec<usize> = squares(EIGHT_A1_LIGHT.main_road).collect();
        assert_eq!(road, vec![1, 5, 10, 14, 19, 23, 28, 32]);
        // 10×10: 46 = a1 and 5 = j10 end the main road.
        assert!(TEN.main_road & (1 << 46) != 0 && TEN.main_road & (1 << 5) != 0);
        assert_eq!(TEN.main_road.count_ones(), 10);
        assert_eq!(EIGHT.centre.count_ones(), 4);
        assert_eq!(TEN.centre.count_ones(), 6);
        // Neighbours as in the rules crate's tests: 15 touches 10, 11, 18, 19.
        let mut around: Vec<u8> = EIGHT.neighbours[15].to_vec();
        around.sort_unstable();
        assert_eq!(around, vec![10, 11, 18, 19]);
        let mut around: Vec<u8> = TEN.neighbours[28].to_vec();
        around.sort_unstable();
        assert_eq!(around, vec![22, 23, 32, 33]);
    }

    #[test]
    fn cones_are_mirror_images() {
        for (g, last) in [(&EIGHT, 32), (&EIGHT_A1_LIGHT, 32), (&TEN, 50)] {
            for n in 1..=last {
                let mirrored: u64 = squares(g.cone[0][n])
                    .map(|m| 1u64 << (last + 1 - m))
                    .fold(0, |a, b| a | b);
                assert_eq!(mirrored, g.cone[1][last + 1 - n], "square {n}");
            }
        }
    }
}
