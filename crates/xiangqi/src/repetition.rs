//! Repetition rulings under the WXF/AXF ("Asian") rules: perpetual check and perpetual
//! chase.
//!
//! The spec is `docs/xiangqi-repetition-research.md` (§4-§5, decisions in §7); what is
//! implemented is summarised in `docs/xiangqi-rules.md`. In short: every move of a
//! repetition cycle is a [`MoveKind::Check`], a [`MoveKind::Chase`] of some enemy pieces
//! or [`MoveKind::Idle`]; a side that checked on every move loses, else a side that
//! chased the same piece on every move loses, unless both sides did the same (draw);
//! any other repetition is a draw.
//!
//! # Cost
//!
//! [`classify`] copies the position (a few hundred bytes, no heap) a handful of times:
//! once for the move, and per *candidate* capture (an enemy piece other than the
//! general or an uncrossed soldier, attacked by a chariot, horse, cannon, advisor or
//! elephant of the mover) once more to test protection, for the position after the
//! move and, only if that finds something, for the position before it. Measured at
//! about 1.3 µs per move on random middlegame positions (release build). [`judge`]
//! classifies each move of the cycle once and allocates nothing (about 6 µs for an
//! 8-ply cycle); [`rule`] also records the cycle and writes the explanation (a `Vec`
//! and a few `String`s, about 12 µs), so the engine should call [`judge`].

use core::fmt;
use core::str::FromStr;

use tablero_core::{Outcome, Reason, Side};

use crate::{Bitboard, Move, Piece, Role, Square, Xiangqi, side_name, zobrist};

/// What one move of a repetition cycle did, for the side that made it.
///
/// A move that is several things counts as the most severe: a check is never also a
/// chase (AXF rule 12, "one check one chase" is a draw).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MoveKind {
    /// After the move the mover attacks the enemy general (directly, by a discovered
    /// attack, or along an open file with its own general).
    Check,
    /// The move newly threatens to win the enemy pieces on `targets` (points in the
    /// position after the move), under the AXF definition of a chase.
    Chase {
        /// The chased pieces, where they stand after the move. Never empty.
        targets: Bitboard,
    },
    /// Anything else: a quiet move, a mate threat, a block, an offer or exchange, a
    /// chase of a protected piece or one made by the general or a soldier.
    Idle,
}

impl MoveKind {
    /// `check`, `chase` or `idle`.
    #[must_use]
    pub const fn id(self) -> &'static str {
        match self {
            MoveKind::Check => "check",
            MoveKind::Chase { .. } => "chase",
            MoveKind::Idle => "idle",
        }
    }

    /// The chased points (empty unless a chase).
    #[must_use]
    pub const fn targets(self) -> Bitboard {
        match self {
            MoveKind::Chase { targets } => targets,
            MoveKind::Check | MoveKind::Idle => Bitboard::EMPTY,
        }
    }
}

/// Which rule decided a repetition. The ids are stable (stored and sent over the API).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RepetitionRule {
    /// One side checked on every move of the cycle, the other did not: the checker
    /// loses.
    PerpetualCheck,
    /// Both sides checked on every move: draw.
    MutualCheck,
    /// One side chased the same piece on every move (and nobody perpetually checked):
    /// the chaser loses.
    PerpetualChase,
    /// Both sides perpetually chased, but one side's target was a chariot that cannot
    /// move because it blocks a horse's leg toward its general: that chariot may not be
    /// chased whatever it threatens itself (AXF rule 19, diagrams 39-41), so its
    /// chaser loses.
    PerpetualChasePinnedChariot,
    /// Both sides perpetually chased: draw.
    MutualChase,
    /// Neither side perpetually checked or chased (idle moves, mixed checks and
    /// chases, chases of protected pieces, alternating targets, ...): draw.
    Allowed,
}

impl RepetitionRule {
    /// Every rule, in declaration order.
    pub const ALL: [RepetitionRule; 6] = [
        RepetitionRule::PerpetualCheck,
        RepetitionRule::MutualCheck,
        RepetitionRule::PerpetualChase,
        RepetitionRule::PerpetualChasePinnedChariot,
        RepetitionRule::MutualChase,
        RepetitionRule::Allowed,
    ];

    /// The stable id, e.g. `"perpetual-check"`.
    #[must_use]
    pub const fn id(self) -> &'static str {
        match self {
            RepetitionRule::PerpetualCheck => "perpetual-check",
            RepetitionRule::MutualCheck => "mutual-check",
            RepetitionRule::PerpetualChase => "perpetual-chase",
            RepetitionRule::PerpetualChasePinnedChariot => "perpetual-chase-pinned-chariot",
            RepetitionRule::MutualChase => "mutual-chase",
            RepetitionRule::Allowed => "allowed-repetition",
        }
    }
}

impl fmt::Display for RepetitionRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

/// The text was not a [`RepetitionRule`] id.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown repetition rule {0:?} (expected perpetual-check, mutual-check, perpetual-chase, mutual-chase or allowed-repetition)"
)]
pub struct ParseRepetitionRuleError(pub String);

impl FromStr for RepetitionRule {
    type Err = ParseRepetitionRuleError;
    fn from_str(s: &str) -> Result<RepetitionRule, ParseRepetitionRuleError> {
        RepetitionRule::ALL
            .into_iter()
            .find(|r| r.id() == s)
            .ok_or_else(|| ParseRepetitionRuleError(s.to_owned()))
    }
}

/// The decision on a cycle, without the record: what [`judge`] returns.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct RepetitionVerdict {
    /// How the game ends: a win for the side that did not break the rule, or a draw
    /// ([`Reason::PerpetualCheck`], [`Reason::PerpetualChase`] or
    /// [`Reason::Repetition`]).
    pub outcome: Outcome,
    /// The rule applied.
    pub rule: RepetitionRule,
}

/// One move of a repetition cycle with its classification.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct CycleMove {
    /// The move.
    pub mv: Move,
    /// Who made it.
    pub side: Side,
    /// What it did.
    pub kind: MoveKind,
}

/// A repetition ruling with its reasons: the cycle, each move's class, and a
/// plain-English explanation for the players.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RepetitionRuling {
    /// How the game ends.
    pub outcome: Outcome,
    /// The rule applied.
    pub rule: RepetitionRule,
    /// Every move since the first occurrence of the repeated position, classified.
    pub cycle: Vec<CycleMove>,
    /// For a perpetual chase: the offending side's perpetually chased enemy pieces,
    /// where they stand at the end of the cycle (both sides' for a mutual chase).
    pub chased: Bitboard,
    /// Why, in plain English, naming the moves (ICCS and WXF) and the rule.
    pub explanation: String,
}

/// Classifies `m`, a legal move of `before`, for the side making it.
///
/// A chase (AXF definition, spec §4.1) is an enemy piece `X` that, after the move and
/// with the mover to move again, some piece `A` of the mover can capture legally, where
/// `A` is not the general or a soldier, `X` is not the general or a soldier on its own
/// half, and either `A` is a horse or cannon and `X` a chariot, or `X` is unprotected
/// (after `A` takes it, `X`'s side has no legal recapture) and `A`, `X` are not of the
/// same type with `X` able to take `A` back; and that threat did not exist before the
/// move. An illegal `m` gives an unspecified kind but never panics. Cost: see the
/// module docs.
#[must_use]
pub fn classify(before: &Xiangqi, m: Move) -> MoveKind {
    let mut after = before.clone();
    after.play_unchecked(m);
    classify_played(before, &after)
}

/// [`classify`] when the position after the move is already at hand.
fn classify_played(before: &Xiangqi, after: &Xiangqi) -> MoveKind {
    if after.is_check() {
        return MoveKind::Check;
    }
    let mover = before.turn();
    let now = threats(&with_turn(after, mover));
    if now.is_empty() {
        return MoveKind::Idle;
    }
    // Only new threats are chases: a piece left attacked because the opponent ignored
    // the attack is not chased again (AXF appendix, "Example of Non-Perpetual Chase").
    // Enemy pieces do not move on the mover's move, so points compare directly.
    let targets = now & !threats(before);
    if targets.is_empty() {
        MoveKind::Idle
    } else {
        MoveKind::Chase { targets }
    }
}

/// Rules on a repetition cycle: `cycle` is played from `start` (normally the first
/// occurrence of a position that the cycle brings back twice). Allocation-free; use
/// [`rule`] for the classified record and the explanation.
///
/// The moves must be legal in turn; an illegal move gives an unspecified verdict but
/// never panics. Cost: one [`classify`] per move.
#[must_use]
pub fn judge(start: &Xiangqi, cycle: &[Move]) -> RepetitionVerdict {
    scan(start, cycle, |_, _, _| {}).verdict()
}

/// [`judge`], with each move's classification and an explanation for the players
/// (worded for a cycle that brought a position back for the third time).
#[must_use]
pub fn rule(start: &Xiangqi, cycle: &[Move]) -> RepetitionRuling {
    let mut moves = Vec::with_capacity(cycle.len());
    let mut described = [String::new(), String::new()];
    let tally = scan(start, cycle, |before, mv, kind| {
        let side = before.turn();
        moves.push(CycleMove { mv, side, kind });
        let text = &mut described[side.index()];
        if !text.is_empty() {
            text.push_str(", ");
        }
        describe_move(text, before, mv, kind);
    });
    let verdict = tally.verdict();
    let chased = match (verdict.rule, verdict.outcome.winner()) {
        (RepetitionRule::MutualChase, _) => {
            tally.sides[0].perpetual_chase() | tally.sides[1].perpetual_chase()
        }
        (
            RepetitionRule::PerpetualChase | RepetitionRule::PerpetualChasePinnedChariot,
            Some(winner),
        ) => tally.sides[winner.other().index()].perpetual_chase(),
        _ => Bitboard::EMPTY,
    };
    let explanation = explain(&verdict, &tally, &described);
    RepetitionRuling {
        outcome: verdict.outcome,
        rule: verdict.rule,
        cycle: moves,
        chased,
        explanation,
    }
}

/// Per side: what its moves in the cycle did.
#[derive(Debug, Clone, Copy, Default)]
struct SideTally {
    moves: u32,
    checks: u32,
    chases: u32,
    /// Enemy pieces chased by every move so far (tracked as they move); `None` before
    /// the side's first move.
    common: Option<Bitboard>,
}

impl SideTally {
    fn perpetual_check(&self) -> bool {
        self.moves > 0 && self.checks == self.moves
    }

    /// The pieces chased on every move (empty if none or if every move checked).
    fn perpetual_chase(&self) -> Bitboard {
        if self.perpetual_check() {
            Bitboard::EMPTY
        } else {
            self.common.unwrap_or(Bitboard::EMPTY)
        }
    }
}

#[derive(Debug, Clone)]
struct Tally {
    sides: [SideTally; 2],
    /// The position at the end of the cycle.
    end: Xiangqi,
}

impl Tally {
    /// How badly `side` broke the rules: 3 perpetual check, 2 perpetual chase of a
    /// chariot immobilised by a horse, 1 other perpetual chase, 0 none.
    fn level(&self, side: Side) -> u8 {
        let t = &self.sides[side.index()];
        if t.perpetual_check() {
            3
        } else if pinned_chariots(&self.end, t.perpetual_chase()).any() {
            2
        } else if t.perpetual_chase().any() {
            1
        } else {
            0
        }
    }

    fn verdict(&self) -> RepetitionVerdict {
        let red = self.level(Side::White);
        let black = self.level(Side::Black);
        if red == black {
            let rule = match red {
                3 => RepetitionRule::MutualCheck,
                1 | 2 => RepetitionRule::MutualChase,
                _ => RepetitionRule::Allowed,
            };
            return RepetitionVerdict {
                outcome: Outcome::Draw {
                    reason: Reason::Repetition,
                },
                rule,
            };
        }
        let (loser, worst, other) = if red > black {
            (Side::White, red, black)
        } else {
            (Side::Black, black, red)
        };
        let (reason, rule) = match (worst, other) {
            (3, _) => (Reason::PerpetualCheck, RepetitionRule::PerpetualCheck),
            (2, 1) => (
                Reason::PerpetualChase,
                RepetitionRule::PerpetualChasePinnedChariot,
            ),
            _ => (Reason::PerpetualChase, RepetitionRule::PerpetualChase),
        };
        RepetitionVerdict {
            outcome: Outcome::Win {
                winner: loser.other(),
                reason,
            },
            rule,
        }
    }
}

/// The chariots among `targets` that cannot move because they block the leg of an
/// enemy horse that would otherwise check their general (AXF rule 19).
fn pinned_chariots(pos: &Xiangqi, targets: Bitboard) -> Bitboard {
    let mut pinned = Bitboard::EMPTY;
    for sq in targets {
        let Some(piece) = pos.piece_at(sq) else {
            continue;
        };
        if piece.role != Role::Chariot {
            continue;
        }
        let horses = pos.by_piece(Piece::new(piece.side.other(), Role::Horse));
        let general = pos.general_of(piece.side);
        if crate::attacks::horse_legs_of(general)
            .any(|(leg, behind)| leg.contains(sq) && (behind & horses).any())
        {
            pinned.insert(sq);
        }
    }
    pinned
}

/// Plays the cycle, classifying each move and reporting it to `each` with the
/// position before it.
fn scan(start: &Xiangqi, cycle: &[Move], mut each: impl FnMut(&Xiangqi, Move, MoveKind)) -> Tally {
    let mut sides = [SideTally::default(); 2];
    let mut pos = start.clone();
    for &m in cycle {
        let mut after = pos.clone();
        after.play_unchecked(m);
        let kind = classify_played(&pos, &after);
        each(&pos, m, kind);
        count_move(&mut sides, pos.turn(), m, kind);
        pos = after;
    }
    Tally { sides, end: pos }
}

/// Adds one classified move by `mover` to the tallies.
fn count_move(sides: &mut [SideTally; 2], mover: Side, m: Move, kind: MoveKind) {
    let us = &mut sides[mover.index()];
    us.moves += 1;
    match kind {
        MoveKind::Check => us.checks += 1,
        MoveKind::Chase { .. } => us.chases += 1,
        MoveKind::Idle => {}
    }
    let targets = kind.targets();
    us.common = Some(us.common.map_or(targets, |c| c & targets));
    // The opponent's chased pieces are ours: follow the one that moved, so a
    // chased piece stays the same piece wherever it goes (spec §7.4).
    let them = &mut sides[mover.other().index()];
    if let Some(c) = them.common.as_mut() {
        c.remove(m.to());
        if c.contains(m.from()) {
            c.remove(m.from());
            c.insert(m.to());
        }
    }
}

/// [`judge`] for a cycle given by its positions: `positions[0]` is the first
/// occurrence, each next one follows from the one before by a legal move, and the last
/// repeats the first. This is what a search has at hand (the positions on its path,
/// not the moves); the moves are read off the boards. Allocation-free.
///
/// Positions that do not follow from each other by one move give an unspecified
/// verdict but never panic; fewer than two positions is a plain repetition (a draw).
#[must_use]
pub fn judge_positions(positions: &[Xiangqi]) -> RepetitionVerdict {
    let mut sides = [SideTally::default(); 2];
    for pair in positions.windows(2) {
        let (before, after) = (&pair[0], &pair[1]);
        let mover = before.turn();
        let Some(m) = move_between(before, after) else {
            continue;
        };
        count_move(&mut sides, mover, m, classify_played(before, after));
    }
    let end = positions.last().cloned().unwrap_or_default();
    Tally { sides, end }.verdict()
}

/// The move that turned `before` into `after`: the mover's one vacated square and
/// its one newly occupied square.
fn move_between(before: &Xiangqi, after: &Xiangqi) -> Option<Move> {
    let mover = before.turn();
    let (was, is) = (before.by_side(mover), after.by_side(mover));
    let (from, to) = (was & !is, is & !was);
    if from.count() != 1 || to.count() != 1 {
        return None;
    }
    Some(Move::new(from.first()?, to.first()?))
}

/// `pos` with `side` to move (key kept consistent), to ask what `side` threatens.
fn with_turn(pos: &Xiangqi, side: Side) -> Xiangqi {
    let mut flipped = pos.clone();
    if flipped.turn != side {
        flipped.turn = side;
        flipped.key ^= zobrist::turn(Side::Black);
    }
    flipped
}

/// The enemy pieces the side to move in `pos` threatens in the chase sense (every
/// condition of [`classify`] except novelty).
fn threats(pos: &Xiangqi) -> Bitboard {
    let us = pos.turn();
    let them = us.other();
    let enemy = pos.by_side(them);
    let mut targets = enemy & !pos.by_piece(Piece::new(them, Role::General));
    for sq in pos.by_piece(Piece::new(them, Role::Soldier)) {
        if crate::attacks::on_own_half_of(them, sq) {
            // A soldier that has not crossed the river may not be chased (AXF rule 25).
            targets.remove(sq);
        }
    }
    if targets.is_empty() {
        return Bitboard::EMPTY;
    }
    let mut found = Bitboard::EMPTY;
    // The general and soldiers may chase freely (AXF rules 28-29).
    for role in [
        Role::Chariot,
        Role::Horse,
        Role::Cannon,
        Role::Advisor,
        Role::Elephant,
    ] {
        for from in pos.by_piece(Piece::new(us, role)) {
            for to in pos.attacks_from(from) & targets & !found {
                // Only legal captures threaten: a pinned piece attacks along its pin
                // line only, and may not expose its general (AXF diagrams 39-41, 63).
                if pos.is_safe(from, to) && worth_chasing(pos, from, role, to) {
                    found.insert(to);
                }
            }
        }
    }
    found
}

/// Whether the legal capture `from`x`to` (by a `role` of the side to move) is a
/// chase threat by value: spec §4.1 items 4 and 5.
fn worth_chasing(pos: &Xiangqi, from: Square, role: Role, to: Square) -> bool {
    let Some(target) = pos.piece_at(to) else {
        return false;
    };
    // A horse or cannon may never perpetually chase a chariot, protected or not (AXF
    // rule 15, diagrams 18-25, 42-47).
    if matches!(role, Role::Horse | Role::Cannon) && target.role == Role::Chariot {
        return true;
    }
    // Same type and able to take back: an offer of exchange, not a chase (AXF rule 24).
    if target.role == role && with_turn(pos, target.side).is_legal(Move::new(to, from)) {
        return false;
    }
    !is_protected_after_capture(pos, from, to)
}

/// Whether, after the side to move plays `from`x`to`, the captured piece's side can
/// legally take back on `to`. A "fake root" (a pinned protector, a recapture that
/// would expose the general or face the generals) does not protect (AXF).
fn is_protected_after_capture(pos: &Xiangqi, from: Square, to: Square) -> bool {
    let mut after = pos.clone();
    after.play_unchecked(Move::new(from, to));
    let defender = after.turn();
    let mut protectors = after.attackers(to, defender);
    // `Iterator::any`, not `Bitboard::any` (which only asks whether the set is empty).
    Iterator::any(&mut protectors, |p| after.is_legal(Move::new(p, to)))
}

/// Appends `h8h9 (R2+1) check` or `h6i6 (R2=1) chases the black cannon on i0`.
fn describe_move(out: &mut String, before: &Xiangqi, mv: Move, kind: MoveKind) {
    use fmt::Write as _;
    let _ = write!(out, "{mv} ({})", before.wxf(mv));
    match kind {
        MoveKind::Check => out.push_str(" check"),
        MoveKind::Idle => out.push_str(" idle"),
        MoveKind::Chase { targets } => {
            let mut after = before.clone();
            after.play_unchecked(mv);
            out.push_str(" chases ");
            push_pieces(out, &after, targets);
        }
    }
}

/// Appends "the black horse on c7 and the black cannon on b2".
fn push_pieces(out: &mut String, pos: &Xiangqi, squares: Bitboard) {
    use fmt::Write as _;
    let n = squares.count();
    for (i, sq) in squares.enumerate() {
        if i > 0 {
            out.push_str(if i + 1 == n as usize { " and " } else { ", " });
        }
        match pos.piece_at(sq) {
            Some(p) => {
                let _ = write!(out, "the {} {} on {sq}", side_name(p.side), p.role.name());
            }
            None => {
                let _ = write!(out, "the piece on {sq}");
            }
        }
    }
}

/// "4 moves: 4 checks" or "4 moves: 2 checks, 1 chase and 1 idle move".
fn summary(t: &SideTally) -> String {
    let idle = t.moves - t.checks - t.chases;
    let mut parts = Vec::with_capacity(3);
    let plural = |n: u32, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    if t.checks > 0 {
        parts.push(plural(t.checks, "check", "checks"));
    }
    if t.chases > 0 {
        parts.push(plural(t.chases, "chase", "chases"));
    }
    if idle > 0 {
        parts.push(plural(idle, "idle move", "idle moves"));
    }
    let list = match parts.as_slice() {
        [] => "none".to_owned(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    };
    format!("{}: {list}", plural(t.moves, "move", "moves"))
}

/// The ruling in plain English; `described` holds each side's moves as text.
fn explain(verdict: &RepetitionVerdict, tally: &Tally, described: &[String; 2]) -> String {
    use fmt::Write as _;
    let end = &tally.end;
    let mut text = String::from(
        "The same position (same pieces on the same points, same side to move) occurred for the third time. ",
    );
    let total: u32 = tally.sides.iter().map(|s| s.moves).sum();
    let _ = write!(text, "In the {total} moves since its first occurrence, ");
    for side in Side::ALL {
        let t = &tally.sides[side.index()];
        let _ = write!(
            text,
            "{} made {} ({}){}",
            side_name(side),
            summary(t),
            described[side.index()],
            if side == Side::White { "; " } else { ". " }
        );
    }
    let chasing = |text: &mut String, side: Side, capital: bool| {
        let name = side_name(side);
        let name = if capital {
            capitalise(name)
        } else {
            name.to_owned()
        };
        let _ = write!(text, "{name} chased ");
        push_pieces(text, end, tally.sides[side.index()].perpetual_chase());
        text.push_str(" on every move");
    };
    match (verdict.rule, verdict.outcome.winner()) {
        (RepetitionRule::PerpetualCheck, Some(winner)) => {
            let loser = side_name(winner.other());
            let _ = write!(
                text,
                "{} checked on every move and {} did not: perpetual check by {loser}, {loser} loses.",
                capitalise(loser),
                side_name(winner),
            );
        }
        (RepetitionRule::PerpetualChase, Some(winner)) => {
            chasing(&mut text, winner.other(), true);
            let loser = side_name(winner.other());
            let _ = write!(
                text,
                ", while {} neither checked nor chased one piece on every move: perpetual chase by {loser}, {loser} loses.",
                side_name(winner),
            );
        }
        (RepetitionRule::PerpetualChasePinnedChariot, Some(winner)) => {
            let loser = winner.other();
            text.push_str("Both sides perpetually chased: ");
            chasing(&mut text, loser, false);
            text.push_str(" and ");
            chasing(&mut text, winner, false);
            let _ = write!(
                text,
                ". But {}'s target is a chariot that cannot move because it blocks the leg of \
                 a horse aimed at its general, and such a chariot may not be chased whatever \
                 it threatens itself (AXF rule 19): {} loses.",
                side_name(loser),
                side_name(loser)
            );
        }
        (RepetitionRule::MutualCheck, _) => {
            text.push_str("Both sides checked on every move: mutual perpetual check, a draw.");
        }
        (RepetitionRule::MutualChase, _) => {
            text.push_str("Both sides perpetually chased: ");
            chasing(&mut text, Side::White, false);
            text.push_str(" and ");
            chasing(&mut text, Side::Black, false);
            text.push_str(": mutual perpetual chase, a draw.");
        }
        _ => {
            text.push_str(
                "Neither side checked on every move or chased the same piece on every move: \
                 the repetition is allowed, a draw.",
            );
        }
    }
    text
}

fn capitalise(word: &str) -> String {
    let mut chars = word.chars();
    chars.next().map_or_else(String::new, |c| {
        c.to_uppercase().chain(chars).collect::<String>()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::IccsMove;

    fn mv(pos: &Xiangqi, text: &str) -> Move {
        text.parse::<IccsMove>()
            .and_then(|m| m.to_move(pos))
            .expect("legal test move")
    }

    #[test]
    fn rule_ids_round_trip() {
        for r in RepetitionRule::ALL {
            assert_eq!(r.id().parse::<RepetitionRule>(), Ok(r));
        }
        assert!("perpetual".parse::<RepetitionRule>().is_err());
    }

    #[test]
    fn checks_chases_and_idle_moves() {
        // WXF diagram 33: the red chariot chases the unprotected black cannon.
        let pos = Xiangqi::from_fen("4kab2/4a4/4b4/3rC2R1/9/9/4n4/4B4/4A4/4KAB1c w - - 0 1")
            .expect("valid");
        let m = mv(&pos, "h6i6");
        let i0 = "i0".parse::<Square>().expect("square");
        assert_eq!(
            classify(&pos, m),
            MoveKind::Chase {
                targets: Bitboard::from_square(i0)
            }
        );
        let start = Xiangqi::new();
        assert_eq!(classify(&start, mv(&start, "h2e2")), MoveKind::Idle);
        let check =
            Xiangqi::from_fen("c2a1k3/2c1a2R1/b6P1/8p/9/9/9/9/4K4/9 w - - 0 1").expect("valid");
        assert_eq!(classify(&check, mv(&check, "h8h9")), MoveKind::Check);
    }
}
