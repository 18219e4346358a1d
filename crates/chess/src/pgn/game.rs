//! The game record PGN reads into and writes from: tags, start position, move tree,
//! result.

use super::{GameResult, Nag, tags};
use crate::{Chess, Game, GameError, Move, San};

/// One move of a line, with its annotations and the alternatives to it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Node {
    /// The move played.
    pub mv: Move,
    /// Its SAN in the position before it, in standard form and without check sign (the
    /// file may have spelled it otherwise, e.g. `Ngf3` for `Nf3`, `0-0`, `exd6e.p.`).
    pub san: San,
    /// Its annotation glyphs, in the order read (`!` reads as `$1` and so on).
    pub nags: Vec<Nag>,
    /// Comments before the move: at the start of a variation, or after a variation
    /// that ended before this move.
    pub comments_before: Vec<String>,
    /// Comments after the move (and its NAGs).
    pub comments_after: Vec<String>,
    /// Alternatives to this move, each a line played from the position before it.
    pub variations: Vec<Vec<Node>>,
}

impl Node {
    /// The node for the legal move `mv` in `pos`, without annotations.
    #[must_use]
    pub fn new(pos: &Chess, mv: Move) -> Node {
        Node::with_san(mv, San::from_move(pos, mv))
    }

    pub(crate) fn with_san(mv: Move, san: San) -> Node {
        Node {
            mv,
            san,
            nags: Vec::new(),
            comments_before: Vec::new(),
            comments_after: Vec::new(),
            variations: Vec::new(),
        }
    }
}

/// A game as PGN records it.
///
/// The reader fills every field; the writer prints them (see [`PgnGame::write`]).
/// `result` is what the game's result is taken to be: the writer prints it both as
/// the `Result` tag and as the termination token, whatever `tags` says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PgnGame {
    /// The tag pairs. The reader returns them normalized as the writer prints them
    /// (see [`PgnGame::normalized_tags`]).
    pub tags: Vec<(String, String)>,
    /// The start position (from the `FEN`, `SetUp` and `Variant` tags).
    pub start: Chess,
    /// Comments before the first move (the whole movetext's comments if it has no
    /// move).
    pub comments: Vec<String>,
    /// The main line.
    pub moves: Vec<Node>,
    /// The result.
    pub result: GameResult,
}

impl Default for PgnGame {
    fn default() -> PgnGame {
        PgnGame::new(Chess::new())
    }
}

impl PgnGame {
    /// An unplayed game from `start`, with the Seven Tag Roster's defaults (and the
    /// `FEN`, `SetUp` and `Variant` tags `start` needs).
    #[must_use]
    pub fn new(start: Chess) -> PgnGame {
        PgnGame {
            tags: tags::normalize(&[], &start, GameResult::Unknown),
            start,
            comments: Vec::new(),
            moves: Vec::new(),
            result: GameResult::Unknown,
        }
    }

    /// The record of a played game, with `tags` (later duplicates win). The result is
    /// the game's outcome if it has one, else the `Result` tag's if it is a valid result,
    /// else `*`.
    #[must_use]
    pub fn from_game(game: &Game, tags: impl IntoIterator<Item = (String, String)>) -> PgnGame {
        let mut raw: Vec<(String, String)> = Vec::new();
        for (name, value) in tags {
            match raw.iter_mut().find(|(n, _)| *n == name) {
                Some(slot) => slot.1 = value,
                None => raw.push((name, value)),
            }
        }
        let result = match game.outcome() {
            Some(outcome) => GameResult::from(outcome),
            None => tags::lookup(&raw, "Result")
                .and_then(|r| r.parse().ok())
                .unwrap_or_default(),
        };
        let mut pos = game.start().clone();
        let mut moves = Vec::with_capacity(game.moves().len());
        for &mv in game.moves() {
            moves.push(Node::new(&pos, mv));
            pos.play_unchecked(mv);
        }
        PgnGame {
            tags: tags::normalize(&raw, game.start(), result),
            start: game.start().clone(),
            comments: Vec::new(),
            moves,
            result,
        }
    }

    /// The value of the tag `name` (the first one, if repeated).
    #[must_use]
    pub fn tag(&self, name: &str) -> Option<&str> {
        tags::lookup(&self.tags, name)
    }

    /// Sets the tag `name` to `value`, replacing the first tag of that name or adding
    /// it at the end. (The `Result`, `FEN`, `SetUp` and `Variant` tags are written from
    /// `result` and `start`, whatever their value here.)
    pub fn set_tag(&mut self, name: impl Into<String>, value: impl Into<String>) {
        let (name, value) = (name.into(), value.into());
        match self.tags.iter_mut().find(|(n, _)| *n == name) {
            Some(slot) => slot.1 = value,
            None => self.tags.push((name, value)),
        }
    }

    /// The tags exactly as [`PgnGame::write`] prints them: the Seven Tag Roster first,
    /// in order, with defaults for missing ones and `Result` from `result`; then the
    /// other tags in order (first of duplicates), `FEN` and `SetUp "1"` only if the
    /// start is not the standard position, `Variant` naming Chess960 exactly for a
    /// Chess960 start; needed but missing ones right after the roster.
    #[must_use]
    pub fn normalized_tags(&self) -> Vec<(String, String)> {
        tags::normalize(&self.tags, &self.start, self.result)
    }

    /// The moves of the main line.
    pub fn mainline_moves(&self) -> impl Iterator<Item = Move> + '_ {
        self.moves.iter().map(|node| node.mv)
    }

    /// The position at the end of the main line. A hand-built main line is followed
    /// only as far as its moves are legal.
    #[must_use]
    pub fn final_position(&self) -> Chess {
        let mut pos = self.start.clone();
        for mv in self.mainline_moves() {
            if !pos.is_legal(mv) {
                break;
            }
            pos.play_unchecked(mv);
        }
        pos
    }

    /// The main line as a [`Game`] (with its repetition history).
    ///
    /// # Errors
    ///
    /// [`GameError`] if a move is illegal (only in a hand-built tree) or comes after
    /// the game ended by the rules (fivefold repetition or the 75-move rule, which a
    /// recorded game may have played on past).
    pub fn to_game(&self) -> Result<Game, GameError> {
        let mut game = Game::new(self.start.clone());
        for mv in self.mainline_moves() {
            game.play(mv)?;
        }
        Ok(game)
    }
}
