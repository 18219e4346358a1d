//! Legal move generation on the [`Mailbox`].
//!
//! Legality is decided by one scan around the own general per position: from the
//! enemy piece lists (two horses, two chariots, two cannons and the general, each
//! looked at only when it shares a line with our general or stands a horse's move
//! away) it finds whether we are in check, which own pieces are *pinned* (a line pin,
//! either of the two screens of an enemy cannon, or the leg of an enemy horse) and the
//! *risky* empty points between our general and an enemy cannon without a screen,
//! where a piece would become that cannon's screen.
//!
//! Out of check, a move of an unpinned piece other than the general to a point that
//! is not risky is legal without any test, and the last ply of a perft just counts
//! such moves. Every other move is tested by [`Mailbox::is_safe`]: an attack scan from
//! the general on the board as the move leaves it. In check every move is tested.

use tablero_core::Side;

use crate::mailbox::{
    ADVISORS, CANNONS, CHARIOTS, DIAGONAL, DOWN, ELEPHANTS, GENERAL, HORSE_LEG, HORSES, IN_PALACE,
    LEFT, LINE_OF, Mailbox, OFF, ORTHOGONAL, RED_HALF, RIGHT, SOLDIERS, UP, square_of, step,
};
use crate::{Move, MoveList};

/// Where generated moves go: a list, or a counter that can take a batch.
pub(crate) trait Sink {
    /// One legal move between two cells.
    fn push(&mut self, from: u8, to: u8);
}

impl Sink for MoveList {
    #[inline(always)]
    fn push(&mut self, from: u8, to: u8) {
        // Validated piece counts bound the moves (at most 119) below the capacity.
        let _ = self.try_push(Move::new(square_of(from), square_of(to)));
    }
}

/// Counts legal moves.
pub(crate) struct Counter(pub(crate) u64);

impl Sink for Counter {
    #[inline(always)]
    fn push(&mut self, _: u8, _: u8) {
        self.0 += 1;
    }
}

/// The direction from the general on `general` (whose [`LINE_OF`] entry is `line`)
/// to `b` if they share a row or a column.
#[inline(always)]
fn direction(general: u8, line: u8, b: u8) -> Option<u8> {
    let shared = line ^ LINE_OF[(b & 127) as usize];
    if shared & 0xF0 == 0 {
        Some(if b > general { RIGHT } else { LEFT })
    } else if shared & 0x0F == 0 {
        Some(if b > general { DOWN } else { UP })
    } else {
        None
    }
}

/// Whether `slot` (without its side tag) is a soldier's.
#[inline(always)]
fn is_soldier(slot: u8) -> bool {
    slot.wrapping_sub(SOLDIERS) < 5
}

/// The tags of the side to move and of the other side.
#[inline(always)]
const fn tags<const RED: bool>() -> (u8, u8) {
    if RED { (16, 32) } else { (32, 16) }
}

/// Empty points where a piece would become the screen of an enemy cannon aimed at the
/// general, one bit per cell.
type Risky = u128;

impl Mailbox {
    /// Whether the general of the side to move (`RED` or black), on `general`, is
    /// attacked on the board that `at` reads (the real one, or one with a move made:
    /// a captured piece is recognised by its cell no longer holding its slot).
    #[inline(always)]
    fn attacked<const RED: bool>(&self, at: impl Fn(u8) -> u8, general: u8) -> bool {
        let (_, opp) = tags::<RED>();
        let line = LINE_OF[(general & 127) as usize];
        let forward = if RED { UP } else { DOWN };
        // Soldiers: from the sides and from the enemy's direction (a soldier next to
        // a general inside its palace has always crossed the river).
        if is_soldier(at(step(general, LEFT)).wrapping_sub(opp))
            || is_soldier(at(step(general, RIGHT)).wrapping_sub(opp))
            || is_soldier(at(step(general, forward)).wrapping_sub(opp))
        {
            return true;
        }
        // Horses: the general-minus-horse difference gives the leg.
        for i in [opp + HORSES, opp + HORSES + 1] {
            let horse = self.square(i);
            if horse == 0 || at(horse) != i {
                continue;
            }
            let leg = HORSE_LEG[general.wrapping_sub(horse) as usize];
            if leg != 0 && at(step(horse, leg)) == 0 {
                return true;
            }
        }
        // Chariots and the general (facing generals): the first piece on the line.
        for i in [opp + CHARIOTS, opp + CHARIOTS + 1, opp + GENERAL] {
            let from = self.square(i);
            if from == 0 || at(from) != i {
                continue;
            }
            if let Some(d) = direction(general, line, from) {
                let mut s = step(general, d);
                while at(s) == 0 {
                    s = step(s, d);
                }
                if s == from {
                    return true;
                }
            }
        }
        // Cannons: the second piece on the line.
        for i in [opp + CANNONS, opp + CANNONS + 1] {
            let from = self.square(i);
            if from == 0 || at(from) != i {
                continue;
            }
            if let Some(d) = direction(general, line, from) {
                let mut s = step(general, d);
                while at(s) == 0 {
                    s = step(s, d);
                }
                if s == from {
                    continue;
                }
                s = step(s, d);
                while at(s) == 0 {
                    s = step(s, d);
                }
                if s == from {
                    return true;
                }
            }
        }
        false
    }

    /// Whether `side`'s general is attacked.
    pub(crate) fn in_check(&self, side: Side) -> bool {
        match side {
            Side::White => self.attacked::<true>(|c| self.at(c), self.square(16)),
            Side::Black => self.attacked::<false>(|c| self.at(c), self.square(32)),
        }
    }

    /// Whether the move from `from` to `to` (a pseudo-legal move of `side`) leaves
    /// `side`'s general safe.
    pub(crate) fn is_safe(&self, side: Side, from: u8, to: u8) -> bool {
        match side {
            Side::White => self.is_safe_for::<true>(from, to),
            Side::Black => self.is_safe_for::<false>(from, to),
        }
    }

    /// [`Mailbox::is_safe`]: the attack scan runs on a copy of the cells with the
    /// move made (128 bytes, cheaper than reading through the move cell by cell),
    /// so that generation needs no mutable board.
    #[inline(never)]
    fn is_safe_for<const RED: bool>(&self, from: u8, to: u8) -> bool {
        let (own, _) = tags::<RED>();
        let piece = self.at(from);
        let general = if piece == own { to } else { self.square(own) };
        let mut cells = self.cells;
        cells[(to & 127) as usize] = piece;
        cells[(from & 127) as usize] = 0;
        !self.attacked::<RED>(|c| cells[(c & 127) as usize], general)
    }

    /// Every legal move of `side` into `sink`.
    #[inline(always)]
    pub(crate) fn generate<S: Sink>(&self, side: Side, sink: &mut S) {
        match side {
            Side::White => self.generate_for::<S, true>(sink),
            Side::Black => self.generate_for::<S, false>(sink),
        }
    }

    #[inline(always)]
    fn generate_for<S: Sink, const RED: bool>(&self, sink: &mut S) {
        let (own, _) = tags::<RED>();
        let general = self.square(own);
        let (check, pinned, risky) = self.hazards::<RED>(general);

        for d in ORTHOGONAL {
            let to = step(general, d);
            if IN_PALACE[(to & 127) as usize]
                && self.at(to) & own == 0
                && self.is_safe_for::<RED>(general, to)
            {
                sink.push(general, to);
            }
        }
        if check {
            self.pieces::<S, RED, false>(sink, !0, risky);
        } else if pinned == 0 && risky == 0 {
            self.pieces::<S, RED, true>(sink, 0, risky);
        } else {
            self.pieces::<S, RED, false>(sink, pinned & 0xFFFF << own, risky);
        }
    }

    /// The scan around the general: (in check, pinned slots as bits, risky points).
    /// The pinned set may hold enemy slots (the caller masks them off) and is a
    /// superset of the truly pinned pieces; it only decides which moves get tested.
    #[inline(always)]
    fn hazards<const RED: bool>(&self, general: u8) -> (bool, u64, Risky) {
        let (own, opp) = tags::<RED>();
        let line = LINE_OF[(general & 127) as usize];
        let mut check = false;
        let mut pinned: u64 = 0;
        let mut risky: Risky = 0;
        let forward = if own == 16 { UP } else { DOWN };
        if is_soldier(self.at(step(general, LEFT)).wrapping_sub(opp))
            || is_soldier(self.at(step(general, RIGHT)).wrapping_sub(opp))
            || is_soldier(self.at(step(general, forward)).wrapping_sub(opp))
        {
            check = true;
        }
        for i in [opp + HORSES, opp + HORSES + 1] {
            let horse = self.square(i);
            if horse == 0 {
                continue;
            }
            let leg = HORSE_LEG[general.wrapping_sub(horse) as usize];
            if leg != 0 {
                match self.at(step(horse, leg)) {
                    0 => check = true,
                    blocker => pinned |= 1 << blocker,
                }
            }
        }
        // A chariot or general behind exactly one piece pins it.
        for i in [opp + CHARIOTS, opp + CHARIOTS + 1, opp + GENERAL] {
            let from = self.square(i);
            if from == 0 {
                continue;
            }
            if let Some(d) = direction(general, line, from) {
                let mut s = step(general, d);
                while self.at(s) == 0 {
                    s = step(s, d);
                }
                if s == from {
                    check = true;
                    continue;
                }
                let first = self.at(s);
                s = step(s, d);
                while self.at(s) == 0 {
                    s = step(s, d);
                }
                if s == from {
                    pinned |= 1 << first;
                }
            }
        }
        // A cannon: with no screen, the points between are risky; behind two pieces,
        // either leaving leaves it one screen, so both are pinned.
        for i in [opp + CANNONS, opp + CANNONS + 1] {
            let from = self.square(i);
            if from == 0 {
                continue;
            }
            if let Some(d) = direction(general, line, from) {
                let mut s = step(general, d);
                while self.at(s) == 0 {
                    s = step(s, d);
                }
                if s == from {
                    let mut t = step(general, d);
                    while t != s {
                        risky |= 1 << (t & 127);
                        t = step(t, d);
                    }
                    continue;
                }
                let first = self.at(s);
                s = step(s, d);
                while self.at(s) == 0 {
                    s = step(s, d);
                }
                if s == from {
                    check = true;
                    continue;
                }
                let second = self.at(s);
                s = step(s, d);
                while self.at(s) == 0 {
                    s = step(s, d);
                }
                if s == from {
                    pinned |= 1 << first | 1 << second;
                }
            }
        }
        (check, pinned, risky)
    }

    /// The moves of every piece but the general. `FAST`: nothing is pinned and no
    /// point is risky, so no move needs a test.
    #[inline(always)]
    fn pieces<S: Sink, const RED: bool, const FAST: bool>(
        &self,
        sink: &mut S,
        pinned: u64,
        risky: Risky,
    ) {
        let (own, _) = tags::<RED>();
        macro_rules! emit {
            ($from:expr, $to:expr, $pinned:expr) => {{
                let (from, to) = ($from, $to);
                if !FAST && ($pinned || (risky != 0 && risky >> (to & 127) & 1 != 0)) {
                    if self.is_safe_for::<RED>(from, to) {
                        sink.push(from, to);
                    }
                } else {
                    sink.push(from, to);
                }
            }};
        }
        // Chariots: empty points, then the first piece unless it is ours.
        for i in [own + CHARIOTS, own + CHARIOTS + 1] {
            let from = self.square(i);
            if from == 0 {
                continue;
            }
            let is_pinned = !FAST && pinned >> i & 1 != 0;
            for d in ORTHOGONAL {
                let mut to = step(from, d);
                while self.at(to) == 0 {
                    emit!(from, to, is_pinned);
                    to = step(to, d);
                }
                if self.at(to) & own == 0 {
                    emit!(from, to, is_pinned);
                }
            }
        }
        // Cannons: empty points, then past the screen the next piece unless it is ours.
        for i in [own + CANNONS, own + CANNONS + 1] {
            let from = self.square(i);
            if from == 0 {
                continue;
            }
            let is_pinned = !FAST && pinned >> i & 1 != 0;
            for d in ORTHOGONAL {
                let mut to = step(from, d);
                while self.at(to) == 0 {
                    emit!(from, to, is_pinned);
                    to = step(to, d);
                }
                if self.at(to) == OFF {
                    continue;
                }
                to = step(to, d);
                while self.at(to) == 0 {
                    to = step(to, d);
                }
                if self.at(to) & own == 0 {
                    emit!(from, to, is_pinned);
                }
            }
        }
        // Horses: the leg must be empty.
        for i in [own + HORSES, own + HORSES + 1] {
            let from = self.square(i);
            if from == 0 {
                continue;
            }
            let is_pinned = !FAST && pinned >> i & 1 != 0;
            for (d, side_a, side_b) in [
                (UP, LEFT, RIGHT),
                (DOWN, LEFT, RIGHT),
                (LEFT, UP, DOWN),
                (RIGHT, UP, DOWN),
            ] {
                let leg = step(from, d);
                if self.at(leg) != 0 {
                    continue;
                }
                let to = step(step(leg, d), side_a);
                if self.at(to) & own == 0 {
                    emit!(from, to, is_pinned);
                }
                let to = step(step(leg, d), side_b);
                if self.at(to) & own == 0 {
                    emit!(from, to, is_pinned);
                }
            }
        }
        // Soldiers: forward, and sideways once across the river.
        let forward = if RED { UP } else { DOWN };
        let crossed = |cell: u8| {
            if RED {
                cell < RED_HALF
            } else {
                cell >= RED_HALF
            }
        };
        for i in own + SOLDIERS..own + SOLDIERS + 5 {
            let from = self.square(i);
            if from == 0 {
                continue;
            }
            let is_pinned = !FAST && pinned >> i & 1 != 0;
            let to = step(from, forward);
            if self.at(to) & own == 0 {
                emit!(from, to, is_pinned);
            }
            if crossed(from) {
                for d in [LEFT, RIGHT] {
                    let to = step(from, d);
                    if self.at(to) & own == 0 {
                        emit!(from, to, is_pinned);
                    }
                }
            }
        }
        // Advisors: diagonally inside the palace.
        for i in [own + ADVISORS, own + ADVISORS + 1] {
            let from = self.square(i);
            if from == 0 {
                continue;
            }
            let is_pinned = !FAST && pinned >> i & 1 != 0;
            for d in DIAGONAL {
                let to = step(from, d);
                if IN_PALACE[(to & 127) as usize] && self.at(to) & own == 0 {
                    emit!(from, to, is_pinned);
                }
            }
        }
        // Elephants: two points diagonally over an empty eye, never across the river.
        let own_half = |cell: u8| {
            if RED {
                cell >= RED_HALF
            } else {
                cell < RED_HALF
            }
        };
        for i in [own + ELEPHANTS, own + ELEPHANTS + 1] {
            let from = self.square(i);
            if from == 0 {
                continue;
            }
            let is_pinned = !FAST && pinned >> i & 1 != 0;
            for d in DIAGONAL {
                let eye = step(from, d);
                let to = step(eye, d);
                if self.at(eye) == 0 && self.at(to) & own == 0 && own_half(to) {
                    emit!(from, to, is_pinned);
                }
            }
        }
    }
}
