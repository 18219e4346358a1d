//! Draughts evaluation for every rule set: material with a king worth what its range
//! makes it worth, advancement, the back-rank guard, the centre, runaway men,
//! flying-king mobility and the main road, trading down when ahead, and the endings
//! that are drawn however much one side seems to be ahead.
//!
//! Every term has a middlegame and an endgame weight, blended by the number of pieces
//! on the board. The rule set is read from the position, so one evaluator serves all
//! six. Geometry is worked out once per board in the "internal frame": rows from the
//! top (White's crowning row is row 0) and the columns of an a1-dark board. Italian and
//! Spanish boards (a1 light) are that board's mirror image with the same rules, and
//! every term here is symmetric under the mirror, so only the numbering differs.

use tablero_draughts::{BoardSize, Draughts, KingRange, Move, Orientation, RuleSet, Side};

use super::pair::Pair;
use crate::{DRAUGHTS_LEVELS, Evaluator, LevelTable, Score};

/// The game's basic unit.
const MAN: i32 = 100;

/// Advancement of a man by rows from its own back row, per board (8×8, 10×10). Small
/// in the middlegame, where rushing forward only loses the back rank; growing towards
/// the crowning row in the endgame.
const ADVANCE: [[Pair; 9]; 2] = [
    [
        Pair(0, 0),
        Pair(1, 4),
        Pair(3, 8),
        Pair(5, 12),
        Pair(7, 16),
        Pair(10, 20),
        Pair(14, 24),
        Pair(0, 0),
        Pair(0, 0),
    ],
    [
        Pair(0, 0),
        Pair(1, 5),
        Pair(2, 10),
        Pair(4, 15),
        Pair(6, 20),
        Pair(8, 25),
        Pair(10, 30),
        Pair(13, 35),
        Pair(16, 40),
    ],
];

/// On top of [`ADVANCE`], in the endgame: the share (per cent) of a king's extra worth
/// over a man that a man this many rows up already carries. With flying kings a man
/// near the crowning row is far more dangerous than with short kings.
const PROMOTION_SHARE: [[i32; 9]; 2] = [
    [0, 2, 5, 9, 15, 24, 36, 0, 0],
    [0, 1, 3, 5, 8, 12, 18, 26, 36],
];

/// A man with no enemy piece able to stop it on its way to the crowning row earns
/// this share (per cent) of a king's extra worth, less [`RUNAWAY_SHARE_PER_ROW`] per
/// row still to go.
const RUNAWAY_SHARE: i32 = 60;
const RUNAWAY_SHARE_PER_ROW: i32 = 6;
/// How many columns beyond a man's forward cone an enemy piece still counts as able
/// to intercept it (men capture sideways into the cone's edge).
const RUNAWAY_MARGIN: i32 = 1;

/// Men on their own back row while the opponent has men to crown, per back-row
/// square from White's left (a1 first); the endgame weight is half. On 8×8 the
/// "bridge" squares (c1 and g1, English 30 and 32) hold the crowning row with two men.
const GUARD: [[i32; 5]; 2] = [[5, 12, 6, 12, 0], [3, 8, 6, 8, 3]];

/// A man per column nearer the middle (edge men are safe but idle).
const MAN_CENTRE_COLUMN: Pair = Pair(3, 1);
/// A man on one of the central squares.
const MAN_CENTRE_SQUARE: Pair = Pair(8, 2);
/// A man with an empty square to step to.
const MAN_FREE: Pair = Pair(2, 2);
/// Per man of difference between the two wings beyond one: a lopsided position
/// leaves one wing short of tempi.
const WING_IMBALANCE: Pair = Pair(-4, 0);

/// A short king per step nearer the centre (rows and columns counted apart).
const SHORT_KING_CENTRE: Pair = Pair(2, 3);
/// A short king per empty neighbouring square.
const SHORT_KING_MOBILITY: Pair = Pair(3, 3);
/// A flying king per empty square it can slide to.
const FLYING_KING_MOBILITY: Pair = Pair(2, 2);
/// A flying king on the main road (the long diagonal, a1 to h8 or a1 to j10): it cuts
/// the board in two and is the only square set from which a lone king holds a draw.
const MAIN_ROAD: Pair = Pair(12, 25);

/// The side ahead gains this fraction (1/n) of its material lead as pieces come off.
const TRADE_DOWN_DIVISOR: i32 = 3;
/// In kings-only endings the stronger side's kings gain this per step nearer the
/// weaker side's kings: they have to hunt them down.
const KING_CHASE: i32 = 6;

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

/// What a rule set changes in the evaluation.
struct RuleWeights {
    geometry: &'static Geometry,
    /// Index into the per-board tables: 0 for 8×8, 1 for 10×10.
    board: usize,
    /// Pieces each side starts with.
    start_pieces: i32,
    /// A king's worth in men's hundredths.
    king: i32,
    flying: bool,
}

impl RuleWeights {
    const fn new(rule_set: RuleSet, king: i32) -> RuleWeights {
        let rules = rule_set.rules();
        let (geometry, board) = match (rules.board, rules.orientation) {
            (BoardSize::Ten, _) => (&TEN, 1),
            (BoardSize::Eight, Orientation::A1Dark) => (&EIGHT, 0),
            (BoardSize::Eight, Orientation::A1Light) => (&EIGHT_A1_LIGHT, 0),
        };
        RuleWeights {
            geometry,
            board,
            start_pieces: rules.board.pieces_per_side() as i32,
            king,
            flying: matches!(rules.kings, KingRange::Flying),
        }
    }

    /// A short king is worth a man and a half or more: it moves backwards but one
    /// square at a time (more in Italian, where men cannot capture it). A flying king
    /// sweeps the board and is worth about three men on 10×10, a little less on 8×8
    /// where it has fewer squares to rule (more in Spanish, where men cannot capture
    /// backwards to trap it).
    const fn of(rule_set: RuleSet) -> &'static RuleWeights {
        match rule_set {
            RuleSet::English => &ENGLISH,
            RuleSet::International => &INTERNATIONAL,
            RuleSet::Brazilian => &BRAZILIAN,
            RuleSet::Russian => &RUSSIAN,
            RuleSet::Spanish => &SPANISH,
            RuleSet::Italian => &ITALIAN,
        }
    }
}

static ENGLISH: RuleWeights = RuleWeights::new(RuleSet::English, 160);
static INTERNATIONAL: RuleWeights = RuleWeights::new(RuleSet::International, 300);
static BRAZILIAN: RuleWeights = RuleWeights::new(RuleSet::Brazilian, 260);
static RUSSIAN: RuleWeights = RuleWeights::new(RuleSet::Russian, 260);
static SPANISH: RuleWeights = RuleWeights::new(RuleSet::Spanish, 280);
static ITALIAN: RuleWeights = RuleWeights::new(RuleSet::Italian, 170);

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

impl DraughtsEvaluator {
    /// Every term of `us`'s pieces except material.
    fn side_terms(w: &RuleWeights, board: &Placement, us: Side) -> Pair {
        let g = w.geometry;
        let them = us.other().index();
        let u = us.index();
        let their_pieces = board.men[them] | board.kings[them];
        let promotion_gain = w.king - MAN;
        let mut total = Pair::default();
        let mut wings = [0i32; 2];
        for n in squares(board.men[u]) {
            let row = i32::from(g.row[n]);
            let col = i32::from(g.col[n]);
            let advance = match us {
                Side::White => g.width - 1 - row,
                Side::Black => row,
            };
            let a = advance as usize;
            total += ADVANCE[w.board][a];
            total.1 += PROMOTION_SHARE[w.board][a] * promotion_gain / 100;
            if advance == 0 && board.men[them] != 0 {
                // White's back row from a1; Black's seen from its own side.
                let from_left = match us {
                    Side::White => col,
                    Side::Black => g.width - 1 - col,
                };
                let guard = GUARD[w.board][(from_left / 2) as usize];
                total += Pair(guard, guard / 2);
            }
            let (_, column_centre) = centrality(g, n);
            total += MAN_CENTRE_COLUMN * column_centre;
            if g.centre & (1 << n) != 0 {
                total += MAN_CENTRE_SQUARE;
            }
            if FORWARD[u]
                .iter()
                .any(|&d| board.empty & (1 << g.neighbours[n][d]) != 0)
            {
                total += MAN_FREE;
            }
            wings[usize::from(2 * col >= g.width)] += 1;
            // A flying king catches any man; a short one only from inside the cone.
            let unstoppable =
                g.cone[u][n] & their_pieces == 0 && !(w.flying && board.kings[them] != 0);
            if unstoppable {
                let rows_to_go = g.width - 1 - advance;
                let share = RUNAWAY_SHARE - RUNAWAY_SHARE_PER_ROW * rows_to_go;
                let bonus = promotion_gain * share.max(0) / 100;
                total += Pair(bonus, bonus);
            }
        }
        let imbalance = (wings[0] - wings[1]).abs() - 1;
        if imbalance > 0 {
            total += WING_IMBALANCE * imbalance;
        }
        for n in squares(board.kings[u]) {
            if w.flying {
                let mut reach = 0;
                for d in 0..4 {
                    let mut s = usize::from(g.neighbours[n][d]);
                    while s != 0 && board.empty & (1 << s) != 0 {
                        reach += 1;
                        s = usize::from(g.neighbours[s][d]);
                    }
                }
                total += FLYING_KING_MOBILITY * reach;
                if g.main_road & (1 << n) != 0 {
                    total += MAIN_ROAD;
                }
            } else {
                let (r, c) = centrality(g, n);
                total += SHORT_KING_CENTRE * (r + c);
                let free = g.neighbours[n]
                    .iter()
                    .filter(|&&s| board.empty & (1 << s) != 0)
                    .count() as i32;
                total += SHORT_KING_MOBILITY * free;
            }
        }
        total
    }

    /// How much of the score a side ahead in material can hope to turn into a win,
    /// out of [`SCALE_FULL`]: the endings the rules of a rule set make drawn.
    fn draw_scale(
        w: &RuleWeights,
        board: &Placement,
        strong: Side,
        (strong_men, strong_kings): (i32, i32),
        (weak_men, weak_kings): (i32, i32),
    ) -> i32 {
        let weak = strong.other().index();
        if weak_men + weak_kings == 0 {
            // Nothing left to hold the draw with (the search scores the loss itself,
            // but quiescence may stand pat here first).
            return SCALE_FULL;
        }
        if strong_men + weak_men == 0 {
            if strong_kings <= weak_kings {
                return SCALE_DRAWISH;
            }
            if !w.flying {
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
            // A lone flying king: two kings never win; three win only if it does
            // not hold the main road (on 10×10 and 8×8 alike); on 10×10 four always
            // win.
            let on_main_road = board.kings[weak] & w.geometry.main_road != 0;
            return match strong_kings {
                0..=2 => SCALE_DEAD_DRAW,
                3 if on_main_road => SCALE_DRAWISH,
                3 => SCALE_HARD_WIN,
                _ if on_main_road && w.board == 0 => SCALE_DRAWISH,
                _ => SCALE_FULL,
            };
        }
        if w.flying && weak_men == 0 && weak_kings == 1 {
            // Against a lone flying king a man or two ahead is not enough: the men
            // must crown first, and then it is the king ending above.
            return match strong_men + strong_kings {
                0..=2 => SCALE_DRAWISH,
                3 => SCALE_HARD_WIN,
                _ => SCALE_FULL,
            };
        }
        SCALE_FULL
    }

    /// In a kings-only ending, the stronger side's kings hunting the weaker side's.
    fn chase(w: &RuleWeights, board: &Placement, strong: Side) -> i32 {
        let g = w.geometry;
        let weak = board.kings[strong.other().index()];
        let mut bonus = 0;
        for k in squares(board.kings[strong.index()]) {
            let nearest = squares(weak)
                .map(|t| king_distance(g, k, t))
                .min()
                .unwrap_or(0);
            bonus += KING_CHASE * (g.width - 1 - nearest);
        }
        bonus
    }
}

impl Evaluator<Draughts> for DraughtsEvaluator {
    const LEVELS: &'static LevelTable = &DRAUGHTS_LEVELS;

    fn evaluate(&self, pos: &Draughts) -> Score {
        let w = RuleWeights::of(pos.rule_set());
        let board = Placement::of(pos, w.geometry);
        let counts = [board.counts(Side::White), board.counts(Side::Black)];
        let material = counts.map(|(men, kings)| men * MAN + kings * w.king);
        let pieces = counts[0].0 + counts[0].1 + counts[1].0 + counts[1].1;

        let mut diff = Self::side_terms(w, &board, Side::White);
        let black = Self::side_terms(w, &board, Side::Black);
        diff.0 -= black.0;
        diff.1 -= black.1;
        let full = 2 * w.start_pieces;
        let phase = pieces.min(full);
        let mut score = (diff.0 * phase + diff.1 * (full - phase)) / full;

        let lead = material[0] - material[1];
        score += lead;
        // Each exchange makes the same lead a larger share of what is left.
        score += lead * (full - pieces) / (full * TRADE_DOWN_DIVISOR);

        let scale = |strong: Side| {
            let (ours, theirs) = (counts[strong.index()], counts[strong.other().index()]);
            Self::draw_scale(w, &board, strong, ours, theirs)
        };
        let scale = match lead.signum() {
            1 => scale(Side::White),
            -1 => scale(Side::Black),
            // Level material: whichever side the ending would favour, it is drawn.
            _ => scale(Side::White).min(scale(Side::Black)),
        };
        if counts[0].0 + counts[1].0 == 0 && lead != 0 {
            let strong = if lead > 0 { Side::White } else { Side::Black };
            score += lead.signum() * Self::chase(w, &board, strong);
        }
        score = score * scale / SCALE_FULL;
        match pos.turn() {
            Side::White => score,
            Side::Black => -score,
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
