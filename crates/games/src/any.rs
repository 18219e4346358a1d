use tablero_chess::{CastlingMode, Chess, Move as ChessMove, Role, Setup as ChessSetup, UciMove};
use tablero_chess3d::Chess3d;
use tablero_core::{Position, Refusal, Side, divide_with, perft};
use tablero_draughts::Draughts;
use tablero_xiangqi::Xiangqi;

use crate::{GameKind, UnknownVariant, Variant};

/// Why a request by game id could not be served. Messages are one line and name the
/// bad value.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GamesError {
    /// No game has this id.
    #[error("unknown game {0:?} (games: chess, xiangqi, draughts, chess3d)")]
    UnknownGame(String),
    /// The game is in the catalog but this build cannot play it yet.
    #[error("game {0:?} is not available in this build yet")]
    Unavailable(String),
    /// The game has no such variant.
    #[error("unknown variant {variant:?} of {game} (variants: {known})")]
    UnknownVariant {
        /// The game id.
        game: String,
        /// The variant asked for.
        variant: String,
        /// The game's variants, comma-separated.
        known: String,
    },
    /// The position text is malformed or illegal.
    #[error("bad position: {0}")]
    Position(String),
    /// A move is malformed or illegal.
    #[error("move {index} ({text:?}): {reason}")]
    Move {
        /// 1-based index among the moves given.
        index: usize,
        /// The move text.
        text: String,
        /// Why it was refused, in English.
        reason: String,
        /// Why it was refused, as a rule with a stable code.
        refusal: Box<Refusal>,
    },
}

/// Move text that was not played: the notation's English message and the rule (or
/// the malformation) that refused it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct MoveError {
    /// The notation's message, naming the move and the reason.
    pub message: String,
    /// The reason with a stable code and parameters.
    pub refusal: Box<Refusal>,
}

impl MoveError {
    fn new(message: impl ToString, refusal: Refusal) -> MoveError {
        MoveError {
            message: message.to_string(),
            refusal: Box::new(refusal),
        }
    }
}

/// What the catalog needs from each game's position beyond [`Position`]: text in and
/// out in the formats of the interfaces page.
pub(crate) trait TextPosition: Position {
    /// The position in the game's position format.
    fn position_text(&self) -> String;
    /// A legal move in the game's move format.
    fn move_text(&self, m: Self::Move) -> String;
    /// A legal move in the game's display notation (SAN, WXF, PDN, chess3d short form).
    fn notation_text(&self, m: Self::Move) -> String;
    /// A move in the move format or the display notation, resolved against this
    /// position.
    ///
    /// # Errors
    ///
    /// [`MoveError`] carrying the rule that refuses the move.
    fn parse_move_text(&self, text: &str) -> Result<Self::Move, MoveError>;
}

impl TextPosition for Chess {
    fn position_text(&self) -> String {
        self.fen()
    }
    fn move_text(&self, m: ChessMove) -> String {
        self.uci(m)
    }
    fn notation_text(&self, m: ChessMove) -> String {
        self.san(m)
    }
    /// UCI when the text has UCI's shape, SAN otherwise.
    fn parse_move_text(&self, text: &str) -> Result<ChessMove, MoveError> {
        match text.parse::<UciMove>() {
            Ok(uci) => uci
                .to_move(self)
                .map_err(|e| MoveError::new(&e, e.refusal())),
            Err(_) => self
                .parse_san(text)
                .map_err(|e| MoveError::new(&e, e.refusal())),
        }
    }
}

impl TextPosition for Xiangqi {
    fn position_text(&self) -> String {
        self.fen()
    }
    fn move_text(&self, m: tablero_xiangqi::Move) -> String {
        m.to_string()
    }
    fn notation_text(&self, m: tablero_xiangqi::Move) -> String {
        self.wxf(m)
    }
    /// ICCS (`h2e2`), WXF (`C2.5`) or Chinese (`炮二平五`).
    fn parse_move_text(&self, text: &str) -> Result<tablero_xiangqi::Move, MoveError> {
        self.parse_move(text)
            .map_err(|e| MoveError::new(&e, e.refusal()))
    }
}

impl TextPosition for Draughts {
    fn position_text(&self) -> String {
        self.fen()
    }
    fn move_text(&self, m: tablero_draughts::Move) -> String {
        self.move_text(m)
    }
    fn notation_text(&self, m: tablero_draughts::Move) -> String {
        self.move_text(m)
    }
    fn parse_move_text(&self, text: &str) -> Result<tablero_draughts::Move, MoveError> {
        self.parse_move(text)
            .map_err(|e| MoveError::new(&e, e.refusal()))
    }
}

impl TextPosition for Chess3d {
    fn position_text(&self) -> String {
        self.position_string()
    }
    fn move_text(&self, m: tablero_chess3d::Move) -> String {
        self.coordinate(m)
    }
    fn notation_text(&self, m: tablero_chess3d::Move) -> String {
        self.short(m)
    }
    /// Coordinate form (`0B5-0C5`) or the short form (`P-0-C4`), any case.
    fn parse_move_text(&self, text: &str) -> Result<tablero_chess3d::Move, MoveError> {
        self.parse_move(text)
            .map_err(|e| MoveError::new(&e, e.refusal()))
    }
}

/// A position of any tablero game: the one enum the server, store and command line use.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AnyPosition {
    /// Chess or Chess960.
    Chess(Chess),
    /// Xiangqi.
    Xiangqi(Xiangqi),
    /// Draughts under one of its rule sets.
    Draughts(Draughts),
    /// Ajedrez 3D.
    Chess3d(Chess3d),
}

macro_rules! from_positions {
    ($($variant:ident($position:ty)),*) => {$(
        impl From<$position> for AnyPosition {
            fn from(position: $position) -> AnyPosition {
                AnyPosition::$variant(position)
            }
        }
    )*};
}

from_positions!(
    Chess(Chess),
    Xiangqi(Xiangqi),
    Draughts(Draughts),
    Chess3d(Chess3d)
);

/// Runs `$body` with `$pos` bound to the position inside any variant.
macro_rules! with_position {
    ($game:expr, $pos:ident => $body:expr) => {
        match $game {
            AnyPosition::Chess($pos) => $body,
            AnyPosition::Xiangqi($pos) => $body,
            AnyPosition::Draughts($pos) => $body,
            AnyPosition::Chess3d($pos) => $body,
        }
    };
}

impl AnyPosition {
    /// The position of `game` (`variant` or the default) from `position` text in the
    /// game's position format, or the start position.
    ///
    /// # Errors
    ///
    /// Unknown or unavailable game, unknown variant, or a bad position.
    pub fn new(
        game: &str,
        variant: Option<&str>,
        position: Option<&str>,
    ) -> Result<AnyPosition, GamesError> {
        let kind: GameKind = game
            .parse()
            .map_err(|_| GamesError::UnknownGame(game.to_owned()))?;
        if !kind.info().available {
            return Err(GamesError::Unavailable(game.to_owned()));
        }
        let variant = kind.variant(variant)?;
        AnyPosition::of(kind, variant, position)
    }

    /// The position of game `kind` in `variant` (one of the game's: see
    /// [`GameKind::variant`]) from `position` text, or the start position.
    ///
    /// # Errors
    ///
    /// A bad position, or a variant that is not the game's.
    pub fn of(
        kind: GameKind,
        variant: Variant,
        position: Option<&str>,
    ) -> Result<AnyPosition, GamesError> {
        let bad_position = |e: String| GamesError::Position(e);
        match (kind, variant) {
            (GameKind::Chess, Variant::Standard | Variant::Chess960) => {
                let mode = if variant == Variant::Chess960 {
                    CastlingMode::Chess960
                } else {
                    CastlingMode::Standard
                };
                let pos = match position {
                    Some(fen) => {
                        Chess::from_fen(fen, mode).map_err(|e| bad_position(e.to_string()))?
                    }
                    None => Chess::from_setup(ChessSetup::standard(), mode)
                        .map_err(|e| bad_position(e.to_string()))?,
                };
                Ok(AnyPosition::Chess(pos))
            }
            (GameKind::Xiangqi, Variant::Standard) => {
                let pos = match position {
                    Some(fen) => Xiangqi::from_fen(fen).map_err(|e| bad_position(e.to_string()))?,
                    None => Xiangqi::new(),
                };
                Ok(AnyPosition::Xiangqi(pos))
            }
            (GameKind::Draughts, Variant::Draughts(rules)) => {
                let pos = match position {
                    Some(fen) => {
                        Draughts::from_fen(fen, rules).map_err(|e| bad_position(e.to_string()))?
                    }
                    None => Draughts::new(rules),
                };
                Ok(AnyPosition::Draughts(pos))
            }
            (GameKind::Chess3d, Variant::Standard) => {
                // Without a position string: the rule book's start with generator state 0,
                // so that perft and move lists are reproducible.
                let pos = match position {
                    Some(text) => Chess3d::from_position_string(text)
                        .map_err(|e| bad_position(e.to_string()))?,
                    None => Chess3d::start(0),
                };
                Ok(AnyPosition::Chess3d(pos))
            }
            (kind, variant) => Err(bad_position(format!("{kind} has no variant {variant}"))),
        }
    }

    /// Like [`AnyPosition::of`], but a new game without a position text starts from
    /// `seed`: chess3d with generator state `seed` (the rule book's start is seed 0),
    /// Chess960 from start `seed % 960`. What a new game of the server, the terminal
    /// or a match uses, with [`crate::fresh_seed`].
    ///
    /// # Errors
    ///
    /// As [`AnyPosition::of`].
    pub fn of_seeded(
        kind: GameKind,
        variant: Variant,
        position: Option<&str>,
        seed: u64,
    ) -> Result<AnyPosition, GamesError> {
        match AnyPosition::of(kind, variant, position)? {
            AnyPosition::Chess3d(_) if position.is_none() => {
                Ok(AnyPosition::Chess3d(Chess3d::start(seed)))
            }
            AnyPosition::Chess(p)
                if position.is_none() && p.castling_mode() == CastlingMode::Chess960 =>
            {
                let number = u32::try_from(seed % 960).unwrap_or(518);
                AnyPosition::chess960(number)
            }
            other => Ok(other),
        }
    }

    /// Chess960 start `number` (0–959 in the standard numbering; 518 is the
    /// classical start), with X-FEN castling rights.
    ///
    /// # Errors
    ///
    /// [`GamesError::Position`] for a number above 959.
    pub fn chess960(number: u32) -> Result<AnyPosition, GamesError> {
        Chess::chess960(number)
            .map(AnyPosition::Chess)
            .ok_or_else(|| {
                GamesError::Position(format!(
                    "Chess960 start {number}: expected a number from 0 to 959"
                ))
            })
    }

    /// The number (0–959) of this position if it is a Chess960 start position.
    #[must_use]
    pub fn chess960_number(&self) -> Option<u32> {
        let AnyPosition::Chess(p) = self else {
            return None;
        };
        if p.castling_mode() != CastlingMode::Chess960 {
            return None;
        }
        // White's back rank picks the one candidate (a lookup over the 960 back
        // ranks); the whole position must then be that start's.
        let text = self.position_text();
        let white_rank = text.split(' ').next()?.rsplit('/').next()?;
        let roles: Vec<Role> = white_rank.chars().filter_map(Role::from_char).collect();
        if roles.len() != 8 || white_rank.len() != 8 {
            return None;
        }
        let number = (0..960).find(|&n| {
            tablero_chess::chess960_back_rank(n).is_some_and(|rank| rank[..] == roles[..])
        })?;
        let start = Chess::chess960(number)?;
        (AnyPosition::Chess(start).position_text() == text).then_some(number)
    }

    /// Chess3d's generator state (the seed of a start position); `None` for the
    /// other games.
    #[must_use]
    pub fn generator_state(&self) -> Option<u64> {
        match self {
            AnyPosition::Chess3d(p) => Some(p.rng().state()),
            _ => None,
        }
    }

    /// Which sides can still checkmate by some series of legal moves, both sides
    /// cooperating (chess only: `None` for the other games), as `tablero winnable`
    /// prints it: `white black`, `white`, `black`, `none`, or `undetermined` when the
    /// analysis ([`tablero_chess::Chess::analyse_unwinnability`]) could not settle a
    /// side within `nodes` (see [`tablero_chess::DEFAULT_BUDGET`] and
    /// [`tablero_chess::THOROUGH_BUDGET`]).
    #[must_use]
    pub fn winnable_sides(&self, nodes: u64) -> Option<&'static str> {
        use tablero_chess::Verdict;
        let AnyPosition::Chess(p) = self else {
            return None;
        };
        let white = p.analyse_unwinnability(Side::White, nodes).verdict;
        let black = p.analyse_unwinnability(Side::Black, nodes).verdict;
        Some(match (white, black) {
            (Verdict::Undetermined, _) | (_, Verdict::Undetermined) => "undetermined",
            (Verdict::Winnable, Verdict::Winnable) => "white black",
            (Verdict::Winnable, Verdict::Unwinnable) => "white",
            (Verdict::Unwinnable, Verdict::Winnable) => "black",
            (Verdict::Unwinnable, Verdict::Unwinnable) => "none",
        })
    }

    /// The side to move.
    #[must_use]
    pub fn turn(&self) -> Side {
        match self {
            AnyPosition::Chess(p) => p.turn(),
            AnyPosition::Xiangqi(p) => p.turn(),
            AnyPosition::Draughts(p) => p.turn(),
            AnyPosition::Chess3d(p) => p.turn(),
        }
    }

    /// Whether the side to move's king (chess) or general (xiangqi) is attacked.
    /// Draughts and chess3d have no check: always `false`.
    #[must_use]
    pub fn is_check(&self) -> bool {
        match self {
            AnyPosition::Chess(p) => p.is_check(),
            AnyPosition::Xiangqi(p) => p.is_check(),
            AnyPosition::Draughts(_) | AnyPosition::Chess3d(_) => false,
        }
    }

    /// The variant id (`standard`, `chess960`, `english`, ...).
    #[must_use]
    pub fn variant_id(&self) -> &'static str {
        match self {
            AnyPosition::Chess(p) if p.castling_mode() == CastlingMode::Chess960 => "chess960",
            AnyPosition::Draughts(p) => p.rule_set().id(),
            _ => "standard",
        }
    }

    /// The variant this position is played under.
    #[must_use]
    pub fn variant(&self) -> Variant {
        self.kind()
            .variants()
            .find(|v| v.id() == self.variant_id())
            .unwrap_or(Variant::Standard)
    }

    /// The move number of this position as its format counts it (chess, xiangqi and
    /// chess3d positions carry one); draughts positions carry none, so 1.
    #[must_use]
    pub fn move_number(&self) -> u32 {
        match self {
            AnyPosition::Chess(pos) => pos.fullmoves(),
            AnyPosition::Xiangqi(pos) => pos.fullmoves(),
            AnyPosition::Draughts(_) => 1,
            AnyPosition::Chess3d(pos) => pos.move_number(),
        }
    }

    /// The draughts position, for the code that speaks a draughts-only protocol (Hub);
    /// `None` for the other games.
    #[must_use]
    pub fn as_draughts(&self) -> Option<&Draughts> {
        match self {
            AnyPosition::Draughts(pos) => Some(pos),
            _ => None,
        }
    }

    /// Which game this is.
    #[must_use]
    pub fn kind(&self) -> GameKind {
        match self {
            AnyPosition::Chess(_) => GameKind::Chess,
            AnyPosition::Xiangqi(_) => GameKind::Xiangqi,
            AnyPosition::Draughts(_) => GameKind::Draughts,
            AnyPosition::Chess3d(_) => GameKind::Chess3d,
        }
    }

    /// The game id.
    #[must_use]
    pub fn game_id(&self) -> &'static str {
        self.kind().id()
    }

    /// The position in the game's position format (FEN for chess and xiangqi, PDN FEN for draughts).
    #[must_use]
    pub fn position_text(&self) -> String {
        with_position!(self, pos => pos.position_text())
    }

    /// Leaf nodes of the legal-move tree `depth` plies deep.
    #[must_use]
    pub fn perft(&self, depth: u32) -> u64 {
        with_position!(self, pos => perft(pos, depth))
    }

    /// Perft split by root move (move format of the interfaces page), calling
    /// `progress` after each root move with the number done and the total.
    pub fn perft_divide(
        &self,
        depth: u32,
        mut progress: impl FnMut(usize, usize),
    ) -> Vec<(String, u64)> {
        with_position!(self, pos => {
            let total = pos.legal_moves().len();
            let mut done = 0;
            divide_with(pos, depth, |_| {
                done += 1;
                progress(done, total);
            })
            .into_iter()
            .map(|(m, n)| (pos.move_text(m), n))
            .collect()
        })
    }

    /// Every legal move, in the game's move format.
    #[must_use]
    pub fn legal_moves_text(&self) -> Vec<String> {
        with_position!(self, pos => pos.legal_moves().iter().map(|&m| pos.move_text(m)).collect())
    }

    /// Every legal move as `(move format, display notation)` pairs, e.g.
    /// `("h2e2", "C2.5")` in xiangqi or `("g1f3", "Nf3")` in chess: what a move list or
    /// an API shows beside the machine form.
    #[must_use]
    pub fn legal_moves_with_notation(&self) -> Vec<(String, String)> {
        with_position!(self, pos => pos
            .legal_moves()
            .iter()
            .map(|&m| (pos.move_text(m), pos.notation_text(m)))
            .collect())
    }

    /// Plays one move given in the game's move format or display notation and returns
    /// it as `(move format, display notation)`, both as they read before the move.
    ///
    /// # Errors
    ///
    /// [`GamesError::Move`] (index 1) if the text is malformed or not legal; the
    /// position is unchanged then.
    pub fn play_text_with_notation(&mut self, text: &str) -> Result<(String, String), GamesError> {
        let bad = |e: MoveError| GamesError::Move {
            index: 1,
            text: text.to_owned(),
            reason: e.message,
            refusal: e.refusal,
        };
        with_position!(self, pos => {
            let m = pos.parse_move_text(text).map_err(bad)?;
            let written = (pos.move_text(m), pos.notation_text(m));
            pos.play_unchecked(m);
            Ok(written)
        })
    }

    /// Plays one move given in the game's move format or display notation.
    ///
    /// # Errors
    ///
    /// [`GamesError::Move`] (index 1) if the text is malformed or not legal; the
    /// position is unchanged then.
    pub fn play_text(&mut self, text: &str) -> Result<(), GamesError> {
        self.play_texts([text])
    }

    /// Plays moves in order; on the first bad one, stops with an error naming its
    /// 1-based index, and leaves the position as it was before the call.
    ///
    /// # Errors
    ///
    /// [`GamesError::Move`] for the first malformed or illegal move.
    pub fn play_texts<'a>(
        &mut self,
        texts: impl IntoIterator<Item = &'a str>,
    ) -> Result<(), GamesError> {
        let mut next = self.clone();
        for (i, text) in texts.into_iter().enumerate() {
            let bad = |e: MoveError| GamesError::Move {
                index: i + 1,
                text: text.to_owned(),
                reason: e.message,
                refusal: e.refusal,
            };
            with_position!(&mut next, pos => {
                let m = pos.parse_move_text(text).map_err(bad)?;
                pos.play_unchecked(m);
            });
        }
        *self = next;
        Ok(())
    }
}

impl From<UnknownVariant> for GamesError {
    fn from(e: UnknownVariant) -> GamesError {
        GamesError::UnknownVariant {
            game: e.game.id().to_owned(),
            variant: e.text,
            known: e.game.variant_ids().join(", "),
        }
    }
}
