//! The closure walk with one side's bishops of one square colour left out.
//!
//! Four bishops that shuffle behind a wall multiply the positions the exact closure
//! walk (`closure.rs`) must see by tens of thousands, while where they stand hardly
//! matters. This walk forgets them: a state is the position without them, how many
//! there are (`k`), and whether one of them may be giving check. The walk visits an
//! *over-approximation* of the reachable states (every position any game reaches,
//! with the bishops taken off, is among them), so when it runs dry without meeting a
//! state where the intended winner might have mated, no series of legal moves mates.
//!
//! It applies when every bishop on the board is of side `A` and colour `C`, and there
//! are no rooks or queens: the other side then has no line a bishop could block, so
//! the bishops can only take moves away from it (by attacking, pinning or standing in
//! the way), except that they can be captured on `C` squares; and `A`'s other units
//! move as they would without the bishops (no enemy line to block, no pin), minus the
//! squares the bishops hold. So from a state:
//! - `A`'s legal moves without the bishops, plus, with `k > 0`, a bishop move: the
//!   same placement with the other side to move, or the capture of an enemy unit on a
//!   `C` square;
//! - the other side's legal moves without the bishops, plus each of them (and each
//!   pawn capture) that lands on an empty `C` square as a capture of a bishop (`k - 1`).
//!
//! A checkmate needs the loser in check with no move. When `A` is the intended winner
//! a bishop may give check after a bishop move, or by discovery after another move
//! whose origin lies on a diagonal from the losing king, if the king stands on a `C`
//! square; any checker else is in the position itself. A king in check that can step
//! onto a square of the other colour that nothing in the position attacks is never
//! mated (bishops of colour `C` never attack nor hold such a square). Any other state
//! where the loser is, or may be, in check counts as a possible mate, and ends the walk
//! undecided, as do a promotion and the limit on states.

use std::collections::{HashSet, VecDeque};

use tablero_core::Side;

use crate::attacks::{bishop_attacks, pawn_attacks};
use crate::{Bitboard, CastlingMode, Chess, MoveList, Piece, Role};

use super::closure::Key;

/// What the walk found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Blind {
    /// Every state was seen and none may be the winner's checkmate: unwinnable.
    Hopeless,
    /// A possible mate, a promotion, a position out of scope or the limit.
    Open,
}

/// One state: the position without the bishops, how many there are, and whether
/// one of them may be checking the loser.
#[derive(Clone)]
struct State {
    pos: Chess,
    bishops: u8,
    checked: bool,
}

/// Walks the states reachable from `root` with `A`'s bishops of one colour left out,
/// seeing at most `limit` states.
pub(crate) fn bishop_blind_walk(root: &Chess, winner: Side, limit: usize) -> Blind {
    let board = root.board();
    let bishops = board.by_role(Role::Bishop);
    if bishops.is_empty()
        || root.castling_rooks().any()
        || (board.by_role(Role::Rook) | board.by_role(Role::Queen)).any()
    {
        return Blind::Open;
    }
    let owner = if (bishops & board.by_side(Side::White)) == bishops {
        Side::White
    } else if (bishops & board.by_side(Side::Black)) == bishops {
        Side::Black
    } else {
        return Blind::Open;
    };
    let colour = if (bishops & Bitboard::DARK) == bishops {
        Bitboard::DARK
    } else if (bishops & Bitboard::LIGHT) == bishops {
        Bitboard::LIGHT
    } else {
        return Blind::Open;
    };
    let mut setup = root.to_setup();
    for sq in bishops {
        setup.board.discard(sq);
    }
    let Ok(start) = Chess::from_setup(setup, CastlingMode::Standard) else {
        return Blind::Open;
    };
    let walk = Walk {
        winner,
        owner,
        colour,
    };
    walk.run(
        State {
            pos: start,
            bishops: u8::try_from(bishops.count()).unwrap_or(u8::MAX),
            checked: root.turn() != winner && root.is_check(),
        },
        limit,
    )
}

struct Walk {
    winner: Side,
    /// The side whose bishops are left out (`A`).
    owner: Side,
    /// Their squares' colour (`C`).
    colour: Bitboard,
}

impl Walk {
    fn run(&self, start: State, limit: usize) -> Blind {
        let mut seen: HashSet<(Key, u8)> = HashSet::new();
        let mut frontier = VecDeque::new();
        seen.insert(tag(&start));
        frontier.push_back(start);
        let mut moves = MoveList::new();
        let mut children = Vec::new();
        while let Some(state) = frontier.pop_front() {
            state.pos.fill_legal_moves(&mut moves);
            if state.pos.turn() != self.winner && self.may_be_mated(&state, &moves) {
                return Blind::Open;
            }
            children.clear();
            if !self.expand(&state, &moves, &mut children) {
                return Blind::Open;
            }
            for child in children.drain(..) {
                if seen.insert(tag(&child)) {
                    if seen.len() > limit {
                        return Blind::Open;
                    }
                    frontier.push_back(child);
                }
            }
        }
        Blind::Hopeless
    }

    /// Whether the loser, to move, may be checkmated in some placement of the
    /// bishops: in check (by the position or maybe by a bishop) and without a king
    /// move onto a safe square of the other colour.
    fn may_be_mated(&self, state: &State, moves: &MoveList) -> bool {
        if !state.checked && !state.pos.is_check() {
            return false;
        }
        let king = state.pos.king_of(state.pos.turn());
        !moves
            .iter()
            .any(|m| m.from() == king && !m.is_castle() && !self.colour.contains(m.to()))
    }

    /// Pushes the successors of `state`; `false` when the walk must give up (a
    /// promotion: a new piece, maybe a line a bishop could block).
    fn expand(&self, state: &State, moves: &MoveList, out: &mut Vec<State>) -> bool {
        let pos = &state.pos;
        let mover = pos.turn();
        let board = pos.board();
        let occupied = board.occupied();
        let loser_king = pos.king_of(!self.winner);
        let may_check = self.owner == self.winner && self.colour.contains(loser_king);
        for &m in moves {
            if m.promotion_role().is_some() {
                return false;
            }
            let mut child = pos.clone();
            child.play_unchecked(m);
            let checked = mover == self.owner
                && may_check
                && (m.is_en_passant()
                    || bishop_attacks(loser_king, child.board().occupied()).contains(m.from()));
            // The other side may land on a bishop: the same move, capturing it.
            let captures_bishop = mover != self.owner
                && state.bishops > 0
                && !m.is_castle()
                && self.colour.contains(m.to())
                && !occupied.contains(m.to())
                && board.role_at(m.from()) != Some(Role::Pawn);
            if captures_bishop {
                out.push(State {
                    pos: child.clone(),
                    bishops: state.bishops - 1,
                    checked: false,
                });
            }
            out.push(State {
                pos: child,
                bishops: state.bishops,
                checked,
            });
        }
        if state.bishops == 0 {
            return true;
        }
        let last = Bitboard::rank(mover.fold(crate::Rank::EIGHTH, crate::Rank::FIRST));
        if mover == self.owner {
            // A bishop moves: quietly, or taking an enemy unit on its colour.
            let mut quiet = pos.to_setup();
            quiet.turn = !mover;
            quiet.ep_square = None;
            let targets = board.by_side(!mover) & !board.by_role(Role::King) & self.colour;
            let mut setups = vec![quiet.clone()];
            for sq in targets {
                let mut setup = quiet.clone();
                setup.board.discard(sq);
                setups.push(setup);
            }
            for setup in setups {
                if let Ok(child) = Chess::from_setup(setup, CastlingMode::Standard) {
                    out.push(State {
                        pos: child,
                        bishops: state.bishops,
                        checked: may_check,
                    });
                }
            }
        } else {
            // A pawn takes a bishop standing on an empty square of its colour.
            let pawns = board.by_side(mover) & board.by_role(Role::Pawn);
            for from in pawns {
                for to in pawn_attacks(mover, from) & self.colour & !occupied {
                    if last.contains(to) {
                        return false;
                    }
                    let mut setup = pos.to_setup();
                    setup.board.discard(from);
                    setup.board.set(
                        to,
                        Piece {
                            side: mover,
                            role: Role::Pawn,
                        },
                    );
                    setup.turn = !mover;
                    setup.ep_square = None;
                    if let Ok(child) = Chess::from_setup(setup, CastlingMode::Standard) {
                        out.push(State {
                            pos: child,
                            bishops: state.bishops - 1,
                            checked: false,
                        });
                    }
                }
            }
        }
        true
    }
}

/// The table key of a state.
fn tag(state: &State) -> (Key, u8) {
    (
        Key::of(&state.pos),
        state.bishops | if state.checked { 0x80 } else { 0 },
    )
}
