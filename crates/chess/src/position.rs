use tablero_core::{Outcome, Position, Reason, Side};

use crate::attacks::pawn_attacks;
use crate::{
    Bitboard, Board, CastlingMode, File, Move, MoveList, Piece, Rank, Role, Setup, Square, zobrist,
};

/// Why a [`Setup`] is not a legal chess position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// A side has no king.
    #[error("{0} has no king")]
    MissingKing(Side),
    /// A side has more than one king.
    #[error("{0} has {1} kings (exactly one is allowed)")]
    TooManyKings(Side, u32),
    /// A pawn stands on the first or last rank.
    #[error("pawn on {0} (pawns cannot stand on the first or last rank)")]
    PawnOnBackRank(Square),
    /// The side that just moved is still in check.
    #[error("{0} is in check but it is not {0}'s turn")]
    OppositeCheck(Side),
    /// More pieces give check than any legal move can produce.
    #[error("the king is attacked by {0} pieces (at most two checks are possible)")]
    TooManyCheckers(u32),
    /// A castling right that the placement does not allow.
    #[error("castling right with the rook on {square}: {reason}")]
    BadCastlingRight {
        /// The rook square the right was given for.
        square: Square,
        /// What is wrong.
        reason: &'static str,
    },
    /// An en passant square that no double pawn push could have left.
    #[error("en passant square {square}: {reason}")]
    BadEnPassant {
        /// The square given.
        square: Square,
        /// What is wrong.
        reason: &'static str,
    },
}

/// A legal chess or Chess960 position: placement, side to move, castling rights, en
/// passant square, move counters and its Zobrist key.
///
/// Built only through [`Chess::from_setup`] (or [`Chess::new`], [`Chess::chess960`],
/// FEN parsing), so every value is a position that can occur in a game.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Chess {
    board: Board,
    turn: Side,
    castling_rooks: Bitboard,
    ep_square: Option<Square>,
    halfmoves: u32,
    fullmoves: u32,
    key: u64,
    mode: CastlingMode,
}

impl Default for Chess {
    fn default() -> Chess {
        Chess::new()
    }
}

impl Chess {
    /// The standard starting position.
    #[must_use]
    pub fn new() -> Chess {
        Chess::from_setup(Setup::standard(), CastlingMode::Standard)
            .expect("the standard start is a legal position")
    }

    /// Chess960 start number `id` (0..960; 518 is the classical start).
    #[must_use]
    pub fn chess960(id: u32) -> Option<Chess> {
        Chess::from_setup(Setup::chess960(id)?, CastlingMode::Chess960).ok()
    }

    /// Checks `setup` against the rules and builds the position.
    ///
    /// An en passant square is kept only if a legal en passant capture exists (so that
    /// equal positions compare and hash equal, as the repetition rule requires).
    ///
    /// # Errors
    ///
    /// [`PositionError`] naming the first rule the setup breaks.
    pub fn from_setup(setup: Setup, mode: CastlingMode) -> Result<Chess, PositionError> {
        let board = setup.board;
        for side in Side::ALL {
            let kings = (board.by_role(Role::King) & board.by_side(side)).count();
            match kings {
                0 => return Err(PositionError::MissingKing(side)),
                1 => {}
                n => return Err(PositionError::TooManyKings(side, n)),
            }
        }
        let back_ranks = Bitboard::rank(Rank::FIRST) | Bitboard::rank(Rank::EIGHTH);
        if let Some(sq) = (board.by_role(Role::Pawn) & back_ranks).first() {
            return Err(PositionError::PawnOnBackRank(sq));
        }
        let mut pos = Chess {
            board,
            turn: setup.turn,
            castling_rooks: Bitboard::EMPTY,
            ep_square: None,
            halfmoves: setup.halfmoves,
            fullmoves: setup.fullmoves.max(1),
            key: 0,
            mode,
        };
        let their_king = pos.king_of(!pos.turn);
        if board.is_attacked(their_king, pos.turn, board.occupied()) {
            return Err(PositionError::OppositeCheck(!pos.turn));
        }
        let checkers = pos.checkers().count();
        if checkers > 2 {
            return Err(PositionError::TooManyCheckers(checkers));
        }
        pos.castling_rooks = validate_castling(&board, setup.castling_rooks, mode)?;
        if let Some(ep) = setup.ep_square {
            pos.validate_en_passant(ep)?;
            pos.ep_square = Some(ep);
            if !pos.has_legal_en_passant() {
                pos.ep_square = None;
            }
        }
        pos.key = pos.compute_key();
        Ok(pos)
    }

    /// The position as a plain [`Setup`] (what FEN prints).
    #[must_use]
    pub fn to_setup(&self) -> Setup {
        Setup {
            board: self.board,
            turn: self.turn,
            castling_rooks: self.castling_rooks,
            ep_square: self.ep_square,
            halfmoves: self.halfmoves,
            fullmoves: self.fullmoves,
        }
    }

    /// The piece placement.
    #[must_use]
    #[inline]
    pub const fn board(&self) -> &Board {
        &self.board
    }

    /// The side to move.
    #[must_use]
    #[inline]
    pub const fn turn(&self) -> Side {
        self.turn
    }

    /// The rooks that keep castling rights.
    #[must_use]
    #[inline]
    pub const fn castling_rooks(&self) -> Bitboard {
        self.castling_rooks
    }

    /// The en passant square, present only when an en passant capture is legal.
    #[must_use]
    #[inline]
    pub const fn ep_square(&self) -> Option<Square> {
        self.ep_square
    }

    /// Plies since the last capture or pawn move.
    #[must_use]
    pub const fn halfmoves(&self) -> u32 {
        self.halfmoves
    }

    /// The move number (starts at 1, incremented after Black moves).
    #[must_use]
    pub const fn fullmoves(&self) -> u32 {
        self.fullmoves
    }

    /// Standard or Chess960 castling.
    #[must_use]
    pub const fn castling_mode(&self) -> CastlingMode {
        self.mode
    }

    /// The Zobrist key (see [`Position::zobrist`]).
    #[must_use]
    #[inline]
    pub const fn key(&self) -> u64 {
        self.key
    }

    /// The king of `side`.
    #[must_use]
    #[inline]
    pub fn king_of(&self, side: Side) -> Square {
        // Validation guarantees exactly one king per side.
        self.board.king_of(side).unwrap_or(Square::A1)
    }

    #[inline]
    pub(crate) fn our_king(&self) -> Square {
        self.king_of(self.turn)
    }

    /// Whether the side to move is in check.
    #[must_use]
    pub fn is_check(&self) -> bool {
        self.checkers().any()
    }

    /// Every legal move.
    #[must_use]
    pub fn legal_moves(&self) -> MoveList {
        let mut moves = MoveList::new();
        self.fill_legal_moves(&mut moves);
        moves
    }

    /// Whether `m` is legal in this position.
    #[must_use]
    pub fn is_legal(&self, m: Move) -> bool {
        // Cheap filters first; the full list settles it.
        self.board.side_at(m.from()) == Some(self.turn) && self.legal_moves().contains(&m)
    }

    /// Whether `m` captures (en passant included; castling never does).
    #[must_use]
    pub fn is_capture(&self, m: Move) -> bool {
        m.is_en_passant() || (!m.is_castle() && self.board.occupied().contains(m.to()))
    }

    /// The rank of the pawn that can be captured en passant (the one that just moved).
    #[inline]
    pub(crate) fn ep_pawn_rank(&self) -> Rank {
        match self.turn {
            Side::White => Rank::FIFTH,
            Side::Black => Rank::FOURTH,
        }
    }

    fn validate_en_passant(&self, ep: Square) -> Result<(), PositionError> {
        let bad = |reason| Err(PositionError::BadEnPassant { square: ep, reason });
        let (ep_rank, from_rank) = match self.turn {
            Side::White => (Rank::SIXTH, Rank::EIGHTH.index() - 1),
            Side::Black => (Rank::THIRD, Rank::FIRST.index() + 1),
        };
        if ep.rank() != ep_rank {
            return bad("not on the rank a double pawn push passes over");
        }
        let pawn = Square::from_coords(ep.file(), self.ep_pawn_rank());
        let origin = Rank::new(from_rank).map(|r| Square::from_coords(ep.file(), r));
        if self.board.piece_at(pawn)
            != Some(Piece {
                side: !self.turn,
                role: Role::Pawn,
            })
        {
            return bad("no pawn that just moved two squares in front of it");
        }
        if self.board.occupied().contains(ep)
            || origin.is_some_and(|o| self.board.occupied().contains(o))
        {
            return bad("the squares the pawn passed are not empty");
        }
        Ok(())
    }

    fn has_legal_en_passant(&self) -> bool {
        let Some(ep) = self.ep_square else {
            return false;
        };
        let captured = Square::from_coords(ep.file(), self.ep_pawn_rank());
        let king = self.our_king();
        let capturers = pawn_attacks(!self.turn, ep)
            & self.board.by_role(Role::Pawn)
            & self.board.by_side(self.turn);
        Iterator::any(&mut { capturers }, |from| {
            self.en_passant_is_safe(from, ep, captured, king)
        })
    }

    /// Recomputes the Zobrist key from scratch (play keeps it incrementally).
    #[must_use]
    pub fn compute_key(&self) -> u64 {
        let mut key = zobrist::turn(self.turn) ^ zobrist::castling(self.castling_rooks);
        for (sq, piece) in self.board.pieces() {
            key ^= zobrist::piece(piece, sq);
        }
        if let Some(ep) = self.ep_square {
            key ^= zobrist::en_passant(ep.file());
        }
        key
    }

    /// The position after the side to move passes, for a search's null-move pruning;
    /// `None` in check, where passing would leave the king capturable.
    #[must_use]
    pub fn null_move(&self) -> Option<Chess> {
        if self.is_check() {
            return None;
        }
        let mut next = self.clone();
        next.key ^= zobrist::turn(Side::Black);
        if let Some(ep) = next.ep_square.take() {
            next.key ^= zobrist::en_passant(ep.file());
        }
        next.halfmoves = next.halfmoves.saturating_add(1);
        if next.turn == Side::Black {
            next.fullmoves = next.fullmoves.saturating_add(1);
        }
        next.turn = !next.turn;
        Some(next)
    }

    /// Plays a legal move (see [`Position::play_unchecked`]).
    pub fn play_unchecked(&mut self, m: Move) {
        let us = self.turn;
        let them = !us;
        let from = m.from();
        let to = m.to();
        let mut key = self.key ^ zobrist::turn(Side::Black);
        if let Some(ep) = self.ep_square.take() {
            key ^= zobrist::en_passant(ep.file());
        }
        let old_rights = self.castling_rooks;
        self.halfmoves = self.halfmoves.saturating_add(1);

        if m.is_castle() {
            let king = Piece {
                side: us,
                role: Role::King,
            };
            let rook = Piece {
                side: us,
                role: Role::Rook,
            };
            let king_to = m.king_destination();
            let rook_to = Square::from_coords(
                if m.is_castle_short() {
                    File::F
                } else {
                    File::D
                },
                king_to.rank(),
            );
            self.board.remove(from, king);
            self.board.remove(to, rook);
            self.board.put(king_to, king);
            self.board.put(rook_to, rook);
            key ^= zobrist::piece(king, from)
                ^ zobrist::piece(king, king_to)
                ^ zobrist::piece(rook, to)
                ^ zobrist::piece(rook, rook_to);
            self.castling_rooks &= !Bitboard::rank(from.rank());
        } else {
            let role = self.board.role_at(from).unwrap_or(Role::Pawn);
            let mover = Piece { side: us, role };
            if let Some(captured) = self.board.role_at(to) {
                let victim = Piece {
                    side: them,
                    role: captured,
                };
                self.board.remove(to, victim);
                key ^= zobrist::piece(victim, to);
                self.halfmoves = 0;
                self.castling_rooks = self.castling_rooks.without(to);
            }
            if m.is_en_passant() {
                let captured = Square::from_coords(to.file(), from.rank());
                let victim = Piece {
                    side: them,
                    role: Role::Pawn,
                };
                self.board.remove(captured, victim);
                key ^= zobrist::piece(victim, captured);
            }
            match m.promotion_role() {
                Some(promoted) => {
                    let new_piece = Piece {
                        side: us,
                        role: promoted,
                    };
                    self.board.remove(from, mover);
                    self.board.put(to, new_piece);
                    key ^= zobrist::piece(mover, from) ^ zobrist::piece(new_piece, to);
                }
                None => {
                    self.board.shift(from, to, mover);
                    key ^= zobrist::piece(mover, from) ^ zobrist::piece(mover, to);
                }
            }
            match role {
                Role::Pawn => {
                    self.halfmoves = 0;
                    if from.index().abs_diff(to.index()) == 16 {
                        let ep = Square::from_index((from.index() + to.index()) / 2);
                        if (pawn_attacks(us, ep)
                            & self.board.by_role(Role::Pawn)
                            & self.board.by_side(them))
                        .any()
                        {
                            self.ep_square = Some(ep);
                        }
                    }
                }
                Role::King => {
                    // Only our own back rank: a king can wander onto the enemy's.
                    let back = us.fold(Rank::FIRST, Rank::EIGHTH);
                    self.castling_rooks &= !Bitboard::rank(back);
                }
                _ => self.castling_rooks = self.castling_rooks.without(from),
            }
        }

        if self.castling_rooks != old_rights {
            key ^= zobrist::castling(self.castling_rooks ^ old_rights);
        }
        if us == Side::Black {
            self.fullmoves = self.fullmoves.saturating_add(1);
        }
        self.turn = them;
        if self.ep_square.is_some() {
            if self.has_legal_en_passant() {
                key ^= self
                    .ep_square
                    .map_or(0, |ep| zobrist::en_passant(ep.file()));
            } else {
                self.ep_square = None;
            }
        }
        self.key = key;
    }

    /// Whether neither side can ever checkmate, whatever is played, by the static
    /// proofs (cheap enough for every node of a search): only kings and bishops all on
    /// squares of one colour, kings and a single knight or bishop, or pawns locked so
    /// that neither side can ever give check (see [`Chess::can_checkmate`], which also
    /// searches).
    #[must_use]
    pub fn is_dead_position(&self) -> bool {
        let b = &self.board;
        if b.by_role(Role::Pawn).any() {
            return crate::unwinnable::locked_pawns_forbid_checks(self);
        }
        if b.rooks_and_queens().any() {
            return false;
        }
        let minors = b.by_role(Role::Knight) | b.by_role(Role::Bishop);
        if !minors.more_than_one() {
            return true;
        }
        let bishops = b.by_role(Role::Bishop);
        b.by_role(Role::Knight).is_empty()
            && ((bishops & Bitboard::LIGHT).is_empty() || (bishops & Bitboard::DARK).is_empty())
    }

    /// Whether `side` could not checkmate by any series of legal moves, however badly
    /// the opponent plays (FIDE 6.9: a flag fall against such a side is a draw).
    #[must_use]
    pub fn has_insufficient_material(&self, side: Side) -> bool {
        let b = &self.board;
        let ours = b.by_side(side);
        if (ours & (b.by_role(Role::Pawn) | b.rooks_and_queens())).any() {
            return false;
        }
        let knights = ours & b.by_role(Role::Knight);
        let bishops = ours & b.by_role(Role::Bishop);
        let theirs_not_king = b.by_side(!side) & !b.by_role(Role::King);
        if knights.any() {
            // A lone knight mates only when the opponent has a piece to block its own
            // king's flight (any piece but a queen, which can always avoid it).
            return bishops.is_empty()
                && !knights.more_than_one()
                && (theirs_not_king & !b.by_role(Role::Queen)).is_empty();
        }
        if bishops.any() {
            // Bishops on one colour mate only with the help of an opposing piece that
            // can block (a knight, a pawn, or a bishop on the other colour).
            let all_bishops = b.by_role(Role::Bishop);
            let one_colour = (all_bishops & Bitboard::LIGHT).is_empty()
                || (all_bishops & Bitboard::DARK).is_empty();
            return one_colour
                && (b.by_side(!side) & (b.by_role(Role::Knight) | b.by_role(Role::Pawn)))
                    .is_empty();
        }
        true
    }

    /// What this position alone decides: checkmate, stalemate, a dead position, or the
    /// 75-move rule (repetitions need the game's history: see [`crate::Game`]).
    #[must_use]
    pub fn outcome(&self) -> Option<Outcome> {
        if self.count_moves() == 0 {
            return Some(if self.is_check() {
                Outcome::Win {
                    winner: !self.turn,
                    reason: Reason::Checkmate,
                }
            } else {
                Outcome::Draw {
                    reason: Reason::Stalemate,
                }
            });
        }
        if self.is_dead_position() {
            return Some(Outcome::Draw {
                reason: Reason::DeadPosition,
            });
        }
        if self.halfmoves >= 150 {
            return Some(Outcome::Draw {
                reason: Reason::SeventyFiveMoves,
            });
        }
        None
    }
}

fn validate_castling(
    board: &Board,
    rooks: Bitboard,
    mode: CastlingMode,
) -> Result<Bitboard, PositionError> {
    let mut wings_seen = [[false; 2]; 2];
    for square in rooks {
        let bad = |reason| Err(PositionError::BadCastlingRight { square, reason });
        let side = match square.rank() {
            Rank::FIRST => Side::White,
            Rank::EIGHTH => Side::Black,
            _ => return bad("not on a back rank"),
        };
        if board.piece_at(square)
            != Some(Piece {
                side,
                role: Role::Rook,
            })
        {
            return bad("no rook of that side there");
        }
        let Some(king) = board.king_of(side) else {
            return bad("no king");
        };
        if king.rank() != square.rank() {
            return bad("the king is not on its back rank");
        }
        let short = square.file() > king.file();
        if mode == CastlingMode::Standard
            && (king.file() != File::E || (square.file() != File::A && square.file() != File::H))
        {
            return bad(
                "standard chess castles only with the king on the e-file and rooks in the corners",
            );
        }
        let seen = &mut wings_seen[side.index()][usize::from(short)];
        if *seen {
            return bad("two castling rooks on the same side of the king");
        }
        *seen = true;
    }
    Ok(rooks)
}

impl Position for Chess {
    type Move = Move;
    type MoveList = MoveList;

    #[inline]
    fn turn(&self) -> Side {
        self.turn
    }

    #[inline]
    fn legal_moves_into(&self, moves: &mut MoveList) {
        self.fill_legal_moves(moves);
    }

    #[inline]
    fn count_legal_moves(&self) -> u64 {
        self.count_moves()
    }

    fn is_legal(&self, m: Move) -> bool {
        Chess::is_legal(self, m)
    }

    #[inline]
    fn play_unchecked(&mut self, m: Move) {
        Chess::play_unchecked(self, m);
    }

    fn outcome(&self) -> Option<Outcome> {
        Chess::outcome(self)
    }

    #[inline]
    fn zobrist(&self) -> u64 {
        self.key
    }
}
