//! A slow reference move generator written straight from the rules (see
//! `docs/draughts-rules.md`), sharing no code with the crate's bitboard generator: a
//! plain grid of cells, every capture sequence enumerated with its path, then the
//! federation's choice rules applied one after the other as filters.

#![allow(dead_code)]

use std::collections::BTreeSet;

use tablero_draughts::{
    BoardSize, CaptureChoice, Crowning, Draughts, KingRange, ManCaptures, Orientation, Piece, Role,
    RuleSet, Side, SquareSet,
};

/// A move as the reference sees it: origin, destination, captured squares, crowned.
pub(crate) type Key = (u8, u8, SquareSet, bool);

#[derive(Clone, Copy, PartialEq, Eq)]
struct Cell(Option<Piece>);

struct Grid {
    width: i32,
    cells: Vec<Cell>,
    /// `number[row * width + column]`, 0 for light squares.
    number: Vec<u8>,
    /// `(column, row)` of square `n` at index `n`.
    coords: Vec<(i32, i32)>,
}

impl Grid {
    fn new(pos: &Draughts) -> Grid {
        let rules = pos.rule_set().rules();
        let width = match rules.board {
            BoardSize::Eight => 8,
            BoardSize::Ten => 10,
        };
        // The bottom-left square a1 is (0, width - 1); dark squares have the parity of
        // a1 when a1 is dark, the other parity when it is light.
        let dark_parity = match rules.orientation {
            Orientation::A1Dark => (width - 1) % 2,
            Orientation::A1Light => width % 2,
        };
        let mut number = vec![0u8; (width * width) as usize];
        let mut coords = vec![(0, 0)];
        let mut n = 0u8;
        for row in 0..width {
            for column in 0..width {
                if (row + column) % 2 == dark_parity {
                    n += 1;
                    number[(row * width + column) as usize] = n;
                    coords.push((column, row));
                }
            }
        }
        let mut cells = vec![Cell(None); coords.len()];
        for sq in 1..coords.len() as u8 {
            cells[sq as usize] = Cell(pos.piece_at(sq));
        }
        Grid {
            width,
            cells,
            number,
            coords,
        }
    }

    fn at(&self, column: i32, row: i32) -> Option<u8> {
        if column < 0 || row < 0 || column >= self.width || row >= self.width {
            return None;
        }
        match self.number[(row * self.width + column) as usize] {
            0 => None,
            n => Some(n),
        }
    }

    fn piece(&self, sq: u8) -> Option<Piece> {
        self.cells[sq as usize].0
    }

    fn neighbour(&self, sq: u8, (dc, dr): (i32, i32), k: i32) -> Option<u8> {
        let (c, r) = self.coords[sq as usize];
        self.at(c + dc * k, r + dr * k)
    }
}

const DIRECTIONS: [(i32, i32); 4] = [(-1, -1), (1, -1), (-1, 1), (1, 1)];

fn forward(side: Side) -> i32 {
    if side == Side::White { -1 } else { 1 }
}

/// One complete capture sequence.
#[derive(Clone, Debug)]
struct Sequence {
    from: u8,
    landings: Vec<u8>,
    /// Captured squares in capture order.
    captured: Vec<u8>,
    crowned: bool,
}

struct Ctx<'a> {
    grid: &'a Grid,
    rule_set: RuleSet,
    side: Side,
    from: u8,
    /// The wrong rule, for tests that show the right one matters: captured pieces
    /// leave the board at once (they neither block nor can be landed on... but still
    /// cannot be jumped twice).
    vanish: bool,
}

impl Ctx<'_> {
    fn crown_row(&self) -> i32 {
        if self.side == Side::White {
            0
        } else {
            self.grid.width - 1
        }
    }

    /// Empty during the capture: no piece, or the mover's origin.
    fn empty(&self, sq: u8, captured: &[u8]) -> bool {
        sq == self.from || self.grid.piece(sq).is_none() || (self.vanish && captured.contains(&sq))
    }

    /// Every jump from `sq`: (captured square, landing square).
    fn jumps(&self, sq: u8, king: bool, captured: &[u8]) -> Vec<(u8, u8)> {
        let rules = self.rule_set.rules();
        let mut out = Vec::new();
        for dir in DIRECTIONS {
            if !king {
                let backward_ok = rules.man_captures == ManCaptures::ForwardAndBackward;
                if dir.1 != forward(self.side) && !backward_ok {
                    continue;
                }
                let (Some(over), Some(land)) = (
                    self.grid.neighbour(sq, dir, 1),
                    self.grid.neighbour(sq, dir, 2),
                ) else {
                    continue;
                };
                let Some(victim) = self.grid.piece(over) else {
                    continue;
                };
                if victim.side == self.side
                    || captured.contains(&over)
                    || !self.empty(land, captured)
                {
                    continue;
                }
                if rules.man_captures == ManCaptures::ForwardMenOnly && victim.role == Role::King {
                    continue;
                }
                out.push((over, land));
            } else {
                let flying = rules.kings == KingRange::Flying;
                let mut k = 1;
                // Slide over empty squares (short kings: none).
                if flying {
                    while let Some(s) = self.grid.neighbour(sq, dir, k) {
                        if !self.empty(s, captured) {
                            break;
                        }
                        k += 1;
                    }
                }
                let Some(over) = self.grid.neighbour(sq, dir, k) else {
                    continue;
                };
                let Some(victim) = self.grid.piece(over) else {
                    continue;
                };
                if over == self.from || victim.side == self.side || captured.contains(&over) {
                    continue;
                }
                let mut j = k + 1;
                while let Some(land) = self.grid.neighbour(sq, dir, j) {
                    if !self.empty(land, captured) {
                        break;
                    }
                    out.push((over, land));
                    if !flying {
                        break;
                    }
                    j += 1;
                }
            }
        }
        out
    }

    fn extend(&self, seq: &Sequence, at: u8, king: bool, out: &mut Vec<Sequence>) {
        let jumps = self.jumps(at, king, &seq.captured);
        if jumps.is_empty() {
            if !seq.captured.is_empty() {
                out.push(seq.clone());
            }
            return;
        }
        for (over, land) in jumps {
            let mut next = seq.clone();
            next.captured.push(over);
            next.landings.push(land);
            let mut now_king = king;
            if !king
                && self.rule_set.rules().crowning == Crowning::AtOnce
                && self.grid.coords[land as usize].1 == self.crown_row()
            {
                now_king = true;
                next.crowned = true;
            }
            self.extend(&next, land, now_king, out);
        }
    }
}

/// The legal moves of `pos` by the reference rules, as a set of keys.
pub(crate) fn reference_moves(pos: &Draughts) -> BTreeSet<Key> {
    moves_with(pos, false)
}

/// The moves there would be if captured pieces left the board at once (wrong: they
/// stay until the move is over).
pub(crate) fn moves_if_captured_pieces_vanished(pos: &Draughts) -> BTreeSet<Key> {
    moves_with(pos, true)
}

fn moves_with(pos: &Draughts, vanish: bool) -> BTreeSet<Key> {
    let grid = Grid::new(pos);
    let side = pos.turn();
    let rule_set = pos.rule_set();
    let rules = rule_set.rules();
    let mut sequences = Vec::new();
    for from in 1..grid.coords.len() as u8 {
        let Some(p) = grid.piece(from) else { continue };
        if p.side != side {
            continue;
        }
        let ctx = Ctx {
            grid: &grid,
            rule_set,
            side,
            from,
            vanish,
        };
        let start = Sequence {
            from,
            landings: Vec::new(),
            captured: Vec::new(),
            crowned: false,
        };
        ctx.extend(&start, from, p.role == Role::King, &mut sequences);
    }
    let mut keys = BTreeSet::new();
    if sequences.is_empty() {
        for from in 1..grid.coords.len() as u8 {
            let Some(p) = grid.piece(from) else { continue };
            if p.side != side {
                continue;
            }
            for dir in DIRECTIONS {
                if p.role == Role::Man && dir.1 != forward(side) {
                    continue;
                }
                let mut k = 1;
                while let Some(to) = grid.neighbour(from, dir, k) {
                    if grid.piece(to).is_some() {
                        break;
                    }
                    let crown_row = if side == Side::White {
                        0
                    } else {
                        grid.width - 1
                    };
                    let crowns = p.role == Role::Man && grid.coords[to as usize].1 == crown_row;
                    keys.insert((from, to, SquareSet::EMPTY, crowns));
                    if p.role == Role::Man || rules.kings == KingRange::OneSquare {
                        break;
                    }
                    k += 1;
                }
            }
        }
        return keys;
    }

    // A flying king must land where it can go on capturing, if it can anywhere: drop a
    // sequence that stops after jump k when another one with the same jumps before k and
    // the same piece captured at k lands elsewhere and goes on.
    let stops_early = |s: &Sequence| {
        let k = s.captured.len() - 1;
        sequences.iter().any(|t| {
            t.from == s.from
                && t.captured.len() > k + 1
                && t.captured[..=k] == s.captured[..=k]
                && t.landings[..k] == s.landings[..k]
        })
    };
    let mut legal: Vec<Sequence> = sequences
        .iter()
        .filter(|s| !stops_early(s))
        .cloned()
        .collect();

    let piece = |sq: u8| grid.piece(sq).expect("captured square holds a piece");
    let kings_in = |s: &Sequence| {
        s.captured
            .iter()
            .filter(|&&c| piece(c).role == Role::King)
            .count()
    };
    let keep_max = |legal: &mut Vec<Sequence>, f: &dyn Fn(&Sequence) -> usize| {
        let best = legal.iter().map(f).max().unwrap_or(0);
        legal.retain(|s| f(s) == best);
    };
    match rules.capture_choice {
        CaptureChoice::Free => {}
        CaptureChoice::MostPieces => keep_max(&mut legal, &|s| s.captured.len()),
        CaptureChoice::MostPiecesThenKings => {
            keep_max(&mut legal, &|s| s.captured.len());
            keep_max(&mut legal, &kings_in);
        }
        CaptureChoice::Italian => {
            keep_max(&mut legal, &|s| s.captured.len());
            keep_max(&mut legal, &|s| {
                usize::from(piece(s.from).role == Role::King)
            });
            keep_max(&mut legal, &kings_in);
            // The king met earliest: the smallest index of a captured king.
            keep_max(&mut legal, &|s| match s
                .captured
                .iter()
                .position(|&c| piece(c).role == Role::King)
            {
                Some(i) => 100 - i,
                None => 0,
            });
        }
    }
    for s in legal {
        let to = *s.landings.last().expect("a capture lands");
        let crown_row = if side == Side::White {
            0
        } else {
            grid.width - 1
        };
        let man = piece(s.from).role == Role::Man;
        let crowns = s.crowned || (man && grid.coords[to as usize].1 == crown_row);
        keys.insert((s.from, to, s.captured.iter().copied().collect(), crowns));
    }
    keys
}

/// The fast generator's moves as keys.
pub(crate) fn fast_moves(pos: &Draughts) -> BTreeSet<Key> {
    pos.legal_moves()
        .iter()
        .map(|m| (m.from(), m.to(), m.captured(), m.crowns()))
        .collect()
}
