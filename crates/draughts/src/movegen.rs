//! Legal move generation, monomorphised per rule set.
//!
//! Each rule set is a zero-sized type whose [`Variant::RULES`] is a constant, so every
//! `match` on a rule below folds away at compile time: the English generator contains
//! no flying-king code and the International one no Italian precedence rules.
//!
//! Captures are found by a depth-first search over jumps. The captured pieces stay on
//! the board (they block, and cannot be jumped again) until the move is over; the
//! moving piece's origin counts as empty. A capture goes on while the piece can
//! capture again, and a flying king must land where it can go on capturing if any of
//! its landing squares allows that. Finished sequences are ranked by the rule set's
//! [`CaptureChoice`]; only the best rank is kept, and sequences with the same origin,
//! destination and captured set are one move.

use core::marker::PhantomData;

use arrayvec::ArrayVec;

use tablero_core::Side;

use crate::geometry::{DOWN_LEFT, DOWN_RIGHT, Layout, UP_LEFT, UP_RIGHT, board_mask, step};
use crate::moves::MAX_JUMPS;
use crate::{CaptureChoice, Crowning, Draughts, KingRange, ManCaptures, Move, MoveList, Rules};

/// A rule set known at compile time.
pub(crate) trait Variant {
    /// Its rules.
    const RULES: Rules;
    /// Playable squares per row.
    const HALF: u32 = Self::RULES.board.row_squares() as u32;
    /// The board's playable bits.
    const MASK: u64 = board_mask(Self::RULES.board);
    /// Its numbering.
    const LAYOUT: &'static Layout = Self::RULES.layout();
    /// Kings fly.
    const FLYING: bool = matches!(Self::RULES.kings, KingRange::Flying);
    /// Men capture backward too.
    const MEN_BACKWARD: bool = matches!(Self::RULES.man_captures, ManCaptures::ForwardAndBackward);
    /// Men capture men only.
    const MEN_TAKE_MEN_ONLY: bool = matches!(Self::RULES.man_captures, ManCaptures::ForwardMenOnly);
    /// A man is crowned as soon as it reaches the far row during a capture.
    const CROWN_AT_ONCE: bool = matches!(Self::RULES.crowning, Crowning::AtOnce);
}

macro_rules! variants {
    ($($name:ident = $rules:ident,)*) => {
        $(
            pub(crate) struct $name;
            impl Variant for $name {
                const RULES: Rules = Rules::$rules;
            }
        )*
    };
}

variants! {
    English = ENGLISH,
    International = INTERNATIONAL,
    Brazilian = BRAZILIAN,
    Russian = RUSSIAN,
    Spanish = SPANISH,
    Italian = ITALIAN,
}

/// `V` with free choice among captures: every finished capture sequence, whatever its
/// size. Used only to explain refusals (which capture the choice rule excluded).
pub(crate) struct Free<V>(PhantomData<V>);

impl<V: Variant> Variant for Free<V> {
    const RULES: Rules = Rules {
        capture_choice: CaptureChoice::Free,
        ..V::RULES
    };
}

/// Every capture of the side to move under `V`'s rules but with free choice (empty
/// when it has none).
pub(crate) fn free_captures<V: Variant>(pos: &Draughts) -> MoveList {
    let mut list = MoveList::new();
    if has_capture::<V>(pos) {
        generate::<Free<V>>(pos, &mut list);
    }
    list
}

/// Runs `$body` with `$v` naming the zero-sized type of `$rule_set`.
macro_rules! with_variant {
    ($rule_set:expr, $v:ident => $body:expr) => {
        match $rule_set {
            $crate::RuleSet::English => {
                type $v = $crate::movegen::English;
                $body
            }
            $crate::RuleSet::International => {
                type $v = $crate::movegen::International;
                $body
            }
            $crate::RuleSet::Brazilian => {
                type $v = $crate::movegen::Brazilian;
                $body
            }
            $crate::RuleSet::Russian => {
                type $v = $crate::movegen::Russian;
                $body
            }
            $crate::RuleSet::Spanish => {
                type $v = $crate::movegen::Spanish;
                $body
            }
            $crate::RuleSet::Italian => {
                type $v = $crate::movegen::Italian;
                $body
            }
        }
    };
}
pub(crate) use with_variant;

/// Bit index to the offset of a step in direction `dir`.
#[inline(always)]
const fn delta(dir: usize, half: u32) -> i32 {
    match dir {
        UP_LEFT => -(half as i32 + 1),
        UP_RIGHT => -(half as i32),
        DOWN_LEFT => half as i32,
        _ => half as i32 + 1,
    }
}

/// The side to move's view of the board. `WHITE`: White is to move (a compile-time
/// constant, so every direction below is one).
struct View<const WHITE: bool> {
    us: u64,
    them: u64,
    kings: u64,
    empty: u64,
}

impl<const WHITE: bool> View<WHITE> {
    /// The directions our men step in.
    const FORWARD: [usize; 2] = if WHITE {
        [UP_LEFT, UP_RIGHT]
    } else {
        [DOWN_LEFT, DOWN_RIGHT]
    };

    #[inline(always)]
    fn new<V: Variant>(pos: &Draughts) -> View<WHITE> {
        let (us, them) = if WHITE {
            (pos.side_bits(Side::White), pos.side_bits(Side::Black))
        } else {
            (pos.side_bits(Side::Black), pos.side_bits(Side::White))
        };
        View {
            us,
            them,
            kings: pos.king_bits(),
            empty: !(us | them) & V::MASK,
        }
    }

    /// Our crowning row.
    #[inline(always)]
    fn crown<V: Variant>() -> u64 {
        V::LAYOUT.crown[usize::from(!WHITE)]
    }

    /// Whether our men capture in direction `d`.
    #[inline(always)]
    const fn man_captures_toward<V: Variant>(d: usize) -> bool {
        V::MEN_BACKWARD || d == Self::FORWARD[0] || d == Self::FORWARD[1]
    }

    /// The pieces our men may capture.
    #[inline(always)]
    fn man_victims<V: Variant>(&self) -> u64 {
        if V::MEN_TAKE_MEN_ONLY {
            self.them & !self.kings
        } else {
            self.them
        }
    }

    /// Our men that can jump at once (the start of a capture).
    #[inline(always)]
    fn men_that_capture<V: Variant>(&self) -> u64 {
        let men = self.us & !self.kings;
        let victims = self.man_victims::<V>();
        let mut from = 0;
        for d in 0..4 {
            if Self::man_captures_toward::<V>(d) {
                let back = 3 - d;
                let over = step(self.empty, back, V::HALF, V::MASK) & victims;
                from |= step(over, back, V::HALF, V::MASK) & men;
            }
        }
        from
    }

    /// Whether our kings can capture.
    #[inline(always)]
    fn kings_capture<V: Variant>(&self) -> bool {
        let kings = self.us & self.kings;
        if kings == 0 {
            return false;
        }
        let mut targets = 0;
        for d in 0..4 {
            let reach = if V::FLYING {
                kings | slide::<V>(kings, d, self.empty)
            } else {
                kings
            };
            let over = step(reach, d, V::HALF, V::MASK) & self.them;
            targets |= step(over, d, V::HALF, V::MASK) & self.empty;
        }
        targets != 0
    }

    #[inline(always)]
    fn has_capture<V: Variant>(&self) -> bool {
        self.men_that_capture::<V>() != 0 || self.kings_capture::<V>()
    }
}

/// The squares reached by sliding every bit of `from` in `dir` over `empty` (the
/// origins excluded).
#[inline(always)]
fn slide<V: Variant>(from: u64, dir: usize, empty: u64) -> u64 {
    let mut reached = 0;
    let mut front = step(from, dir, V::HALF, V::MASK) & empty;
    while front != 0 {
        reached |= front;
        front = step(front, dir, V::HALF, V::MASK) & empty;
    }
    reached
}

/// Fills `list` with the legal moves.
pub(crate) fn generate<V: Variant>(pos: &Draughts, list: &mut MoveList) {
    list.clear();
    match pos.turn() {
        Side::White => generate_for::<V, true>(pos, list),
        Side::Black => generate_for::<V, false>(pos, list),
    }
}

fn generate_for<V: Variant, const WHITE: bool>(pos: &Draughts, list: &mut MoveList) {
    let view = View::<WHITE>::new::<V>(pos);
    if view.has_capture::<V>() {
        search_captures::<V, WHITE, _>(&view, &mut Lister { list });
    } else {
        quiet_moves::<V, WHITE>(&view, list);
    }
}

/// Whether the side to move has a capture (and so must capture).
pub(crate) fn has_capture<V: Variant>(pos: &Draughts) -> bool {
    match pos.turn() {
        Side::White => View::<true>::new::<V>(pos).has_capture::<V>(),
        Side::Black => View::<false>::new::<V>(pos).has_capture::<V>(),
    }
}

/// The number of legal moves (quiet moves counted in bulk, captures counted without
/// building moves).
pub(crate) fn count<V: Variant>(pos: &Draughts) -> u64 {
    match pos.turn() {
        Side::White => count_for::<V, true>(pos),
        Side::Black => count_for::<V, false>(pos),
    }
}

fn count_for<V: Variant, const WHITE: bool>(pos: &Draughts) -> u64 {
    let view = View::<WHITE>::new::<V>(pos);
    if view.has_capture::<V>() {
        let mut counter = Counter::default();
        search_captures::<V, WHITE, _>(&view, &mut counter);
        if !counter.overflow {
            return counter.count;
        }
        let mut list = MoveList::new();
        search_captures::<V, WHITE, _>(&view, &mut Lister { list: &mut list });
        return list.len() as u64;
    }
    let men = view.us & !view.kings;
    let kings = view.us & view.kings;
    let mut n = 0;
    for d in View::<WHITE>::FORWARD {
        n += (step(men, d, V::HALF, V::MASK) & view.empty).count_ones();
    }
    if kings != 0 {
        for d in 0..4 {
            n += if V::FLYING {
                slide::<V>(kings, d, view.empty).count_ones()
            } else {
                (step(kings, d, V::HALF, V::MASK) & view.empty).count_ones()
            };
        }
    }
    u64::from(n)
}

fn quiet_moves<V: Variant, const WHITE: bool>(view: &View<WHITE>, list: &mut MoveList) {
    let layout = V::LAYOUT;
    let crown = View::<WHITE>::crown::<V>();
    let men = view.us & !view.kings;
    for d in View::<WHITE>::FORWARD {
        let mut targets = step(men, d, V::HALF, V::MASK) & view.empty;
        while targets != 0 {
            let to = targets.trailing_zeros();
            targets &= targets - 1;
            let from = (to as i32 - delta(d, V::HALF)) as u32;
            list.push(Move::step(from, to, crown & (1 << to) != 0, layout));
        }
    }
    let mut kings = view.us & view.kings;
    while kings != 0 {
        let from = kings.trailing_zeros();
        kings &= kings - 1;
        for d in 0..4 {
            let mut targets = if V::FLYING {
                slide::<V>(1 << from, d, view.empty)
            } else {
                step(1 << from, d, V::HALF, V::MASK) & view.empty
            };
            while targets != 0 {
                let to = targets.trailing_zeros();
                targets &= targets - 1;
                list.push(Move::step(from, to, false, layout));
            }
        }
    }
}

fn search_captures<V: Variant, const WHITE: bool, S: Sink>(view: &View<WHITE>, sink: &mut S) {
    let mut search = Search::<V, WHITE, S> {
        sink,
        empty: 0,
        them: view.them,
        their_kings: view.them & view.kings,
        man_victims: view.man_victims::<V>(),
        from: 0,
        mover_is_king: false,
        best: 0,
        path: [0; MAX_JUMPS],
        _rules: PhantomData,
    };
    let mut men = view.men_that_capture::<V>();
    while men != 0 {
        let from = men.trailing_zeros();
        men &= men - 1;
        search.start(from, false, view.empty);
        search.man(1 << from, 0, 0, NO_KING);
    }
    let mut kings = view.us & view.kings;
    while kings != 0 {
        let from = kings.trailing_zeros();
        kings &= kings - 1;
        search.start(from, true, view.empty);
        search.king(1 << from, 0, 0, NO_KING, false);
    }
}

/// Where finished captures go. All kept captures have the best rank seen so far.
trait Sink {
    /// Whether it needs the landing squares.
    const PATHS: bool;
    /// A capture of a better rank was found: forget the others.
    fn clear(&mut self);
    /// A finished capture; `may_repeat`: another path may have reached the same move.
    fn add(&mut self, m: CaptureParts<'_>, may_repeat: bool);
}

/// A finished capture before it becomes a [`Move`].
struct CaptureParts<'a> {
    from: u32,
    to: u32,
    path: &'a [u8],
    captured: u64,
    crowns: bool,
    layout: &'static Layout,
}

/// Collects the moves.
struct Lister<'a> {
    list: &'a mut MoveList,
}

impl Sink for Lister<'_> {
    const PATHS: bool = true;

    fn clear(&mut self) {
        self.list.clear();
    }

    #[inline]
    fn add(&mut self, c: CaptureParts<'_>, may_repeat: bool) {
        let m = Move::capture(c.from, c.path, c.captured, c.crowns, c.layout);
        if !may_repeat || !self.list.contains(&m) {
            self.list.push(m);
        }
    }
}

/// Counts the moves, remembering only those that two paths could reach.
#[derive(Default)]
struct Counter {
    count: u64,
    repeatable: ArrayVec<(u64, u8, u8, bool), 32>,
    /// Too many repeatable captures to remember: count by listing instead.
    overflow: bool,
}

impl Sink for Counter {
    const PATHS: bool = false;

    fn clear(&mut self) {
        self.count = 0;
        self.repeatable.clear();
    }

    #[inline]
    fn add(&mut self, c: CaptureParts<'_>, may_repeat: bool) {
        if may_repeat {
            let key = (c.captured, c.from as u8, c.to as u8, c.crowns);
            if self.repeatable.contains(&key) {
                return;
            }
            if self.repeatable.try_push(key).is_err() {
                self.overflow = true;
            }
        }
        self.count += 1;
    }
}

/// "No king captured yet" in the first-king index.
const NO_KING: u8 = u8::MAX;

/// The state of the capture search of one piece.
struct Search<'a, V, const WHITE: bool, S> {
    sink: &'a mut S,
    /// Empty squares, the moving piece's origin included.
    empty: u64,
    them: u64,
    their_kings: u64,
    man_victims: u64,
    from: u32,
    mover_is_king: bool,
    /// Rank of the best capture found so far (all kept moves have it).
    best: u32,
    /// Landing squares so far.
    path: [u8; MAX_JUMPS],
    _rules: PhantomData<V>,
}

impl<V: Variant, const WHITE: bool, S: Sink> Search<'_, V, WHITE, S> {
    fn start(&mut self, from: u32, king: bool, empty: u64) {
        self.from = from;
        self.mover_is_king = king;
        self.empty = empty | (1 << from);
    }

    /// A man on `sq` that has captured `captured` in `depth` jumps.
    fn man(&mut self, sq: u64, captured: u64, depth: usize, first_king: u8) {
        let mut jumped = false;
        if depth < MAX_JUMPS {
            let victims = self.man_victims & !captured;
            for d in 0..4 {
                if !View::<WHITE>::man_captures_toward::<V>(d) {
                    continue;
                }
                let victim = step(sq, d, V::HALF, V::MASK) & victims;
                let land = step(victim, d, V::HALF, V::MASK) & self.empty;
                if land == 0 {
                    continue;
                }
                jumped = true;
                if S::PATHS {
                    self.path[depth] = land.trailing_zeros() as u8;
                }
                let first_king = self.first_king(victim, depth, first_king);
                if V::CROWN_AT_ONCE && land & View::<WHITE>::crown::<V>() != 0 {
                    self.king(land, captured | victim, depth + 1, first_king, true);
                } else {
                    self.man(land, captured | victim, depth + 1, first_king);
                }
            }
        }
        if !jumped && depth > 0 {
            self.record(sq, captured, depth, first_king, false);
        }
    }

    /// A king on `sq` (`crowned`: a man crowned during this capture).
    fn king(&mut self, sq: u64, captured: u64, depth: usize, first_king: u8, crowned: bool) {
        let mut jumped = false;
        if depth < MAX_JUMPS {
            for d in 0..4 {
                let mut target = step(sq, d, V::HALF, V::MASK);
                if V::FLYING {
                    while target & self.empty != 0 {
                        target = step(target, d, V::HALF, V::MASK);
                    }
                }
                let victim = target & self.them & !captured;
                if victim == 0 {
                    continue;
                }
                let land = step(victim, d, V::HALF, V::MASK) & self.empty;
                if land == 0 {
                    continue;
                }
                jumped = true;
                let captured = captured | victim;
                let first_king = self.first_king(victim, depth, first_king);
                if !V::FLYING {
                    if S::PATHS {
                        self.path[depth] = land.trailing_zeros() as u8;
                    }
                    self.king(land, captured, depth + 1, first_king, crowned);
                    continue;
                }
                let mut landings = land | slide::<V>(land, d, self.empty);
                // Land where the capture can go on, if there is such a square.
                let mut going_on = 0;
                let mut rest = landings;
                while rest != 0 {
                    let l = rest & rest.wrapping_neg();
                    rest &= rest - 1;
                    if self.king_can_capture(l, captured) {
                        going_on |= l;
                    }
                }
                if going_on != 0 {
                    landings = going_on;
                }
                while landings != 0 {
                    let l = landings & landings.wrapping_neg();
                    landings &= landings - 1;
                    if S::PATHS {
                        self.path[depth] = l.trailing_zeros() as u8;
                    }
                    if going_on != 0 {
                        self.king(l, captured, depth + 1, first_king, crowned);
                    } else {
                        self.record(l, captured, depth + 1, first_king, crowned);
                    }
                }
            }
        }
        if !jumped && depth > 0 {
            self.record(sq, captured, depth, first_king, crowned);
        }
    }

    /// Whether a flying king on `sq` can capture a piece not in `captured`.
    #[inline(always)]
    fn king_can_capture(&self, sq: u64, captured: u64) -> bool {
        (0..4).any(|d| {
            let mut target = step(sq, d, V::HALF, V::MASK);
            while target & self.empty != 0 {
                target = step(target, d, V::HALF, V::MASK);
            }
            let victim = target & self.them & !captured;
            victim != 0 && step(victim, d, V::HALF, V::MASK) & self.empty != 0
        })
    }

    #[inline(always)]
    fn first_king(&self, victim: u64, depth: usize, first_king: u8) -> u8 {
        if first_king == NO_KING && victim & self.their_kings != 0 {
            depth as u8
        } else {
            first_king
        }
    }

    /// The rank of a finished capture under the rule set's capture choice.
    #[inline(always)]
    fn rank(&self, captured: u64, first_king: u8) -> u32 {
        let pieces = captured.count_ones();
        let kings = (captured & self.their_kings).count_ones();
        match V::RULES.capture_choice {
            CaptureChoice::Free => 0,
            CaptureChoice::MostPieces => pieces,
            CaptureChoice::MostPiecesThenKings => (pieces << 8) | kings,
            CaptureChoice::Italian => {
                let earliest = if first_king == NO_KING {
                    0
                } else {
                    u32::from(MAX_JUMPS as u8 - first_king.min(MAX_JUMPS as u8))
                };
                (pieces << 16) | (u32::from(self.mover_is_king) << 15) | (kings << 8) | earliest
            }
        }
    }

    fn record(&mut self, to: u64, captured: u64, jumps: usize, first_king: u8, crowned: bool) {
        let rank = self.rank(captured, first_king);
        if rank < self.best {
            return;
        }
        if rank > self.best {
            self.best = rank;
            self.sink.clear();
        }
        let crowns = crowned || (!self.mover_is_king && to & View::<WHITE>::crown::<V>() != 0);
        // Two paths to the same capture need a loop: four jumps of a man or a short
        // king, two of a flying king.
        let flies = V::FLYING && (self.mover_is_king || crowned);
        let may_repeat = jumps >= if flies { 2 } else { 4 };
        self.sink.add(
            CaptureParts {
                from: self.from,
                to: to.trailing_zeros(),
                path: &self.path[..jumps.min(MAX_JUMPS)],
                captured,
                crowns,
                layout: V::LAYOUT,
            },
            may_repeat,
        );
    }
}
