//! The streaming reader: tokens in, one game (or one error) at a time out.

use core::fmt;
use core::mem;
use std::collections::HashMap;
use std::io::{self, Read};

use tablero_core::Side;

use super::lexer::{Lexer, Token};
use super::{
    GameResult, MAX_GAME_SIZE, MAX_TAGS, MAX_VARIATION_DEPTH, Nag, Node, PgnError, PgnErrorKind,
    PgnGame, tags,
};
use crate::{Chess, Move, Role, San};

/// Reads PGN games one at a time from any [`Read`], in constant memory.
///
/// An iterator of `Result<PgnGame, PgnError>`: a game that cannot be read yields an
/// error naming the game number and, in the movetext, the ply and move; reading then
/// goes on with the next game. An I/O error is yielded once and ends the iteration.
///
/// Text before a game's first tag or move (and after its result) is skipped, so junk
/// between games is tolerated; comments there are kept only if a game without tags
/// follows (they become its [`PgnGame::comments`]). A game ends at its result token,
/// at the next game's first tag, or at the end of the input. The result is the
/// termination token's; without one, the `Result` tag's; and the `Result` tag of the
/// game returned always agrees with it.
///
/// The input is read through a fixed buffer; single tokens and whole games are
/// bounded by [`MAX_TEXT_LEN`](super::MAX_TEXT_LEN), [`MAX_TAGS`],
/// [`MAX_GAME_SIZE`] and [`MAX_VARIATION_DEPTH`] (a game over a limit is an error
/// and the reader goes on). No input makes it panic or loop.
pub struct Reader<R> {
    lexer: Lexer<R>,
    peeked: Option<Token>,
    games: u64,
    done: bool,
}

impl<R> fmt::Debug for Reader<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Reader")
            .field("games", &self.games)
            .field("done", &self.done)
            .finish_non_exhaustive()
    }
}

/// Reads every game of `text` (see [`Reader`]).
#[must_use]
pub fn read_str(text: &str) -> Vec<Result<PgnGame, PgnError>> {
    Reader::new(text.as_bytes()).collect()
}

impl<R: Read> Reader<R> {
    /// A reader of the games in `input` (no need to wrap it in a `BufReader`).
    pub fn new(input: R) -> Reader<R> {
        Reader {
            lexer: Lexer::new(input),
            peeked: None,
            games: 0,
            done: false,
        }
    }

    /// How many games (and errors in place of games) have been read so far.
    #[must_use]
    pub fn games_read(&self) -> u64 {
        self.games
    }

    fn token(&mut self) -> io::Result<Token> {
        match self.peeked.take() {
            Some(token) => Ok(token),
            None => self.lexer.next_token(),
        }
    }

    fn io_error(&mut self, game: u64, error: io::Error) -> PgnError {
        self.done = true;
        PgnError {
            game,
            ply: None,
            at_move: None,
            kind: PgnErrorKind::Io(error),
        }
    }

    /// Skips to the start of the next game; `Ok(None)` at the end of the input.
    fn seek_game(&mut self) -> Result<Option<Vec<String>>, PgnError> {
        let mut comments = Vec::new();
        let mut size = 0;
        loop {
            let token = self.token().map_err(|e| self.io_error(self.games + 1, e))?;
            match token {
                Token::Eof => return Ok(None),
                Token::Tag { .. } | Token::Error(PgnErrorKind::BadTag { .. }) => {
                    self.peeked = Some(token);
                    return Ok(Some(comments));
                }
                Token::Symbol(ref text) if begins_game(text) => {
                    self.peeked = Some(token);
                    return Ok(Some(comments));
                }
                Token::Comment(comment) => {
                    size += comment.len();
                    if size <= MAX_GAME_SIZE {
                        comments.push(comment);
                    }
                }
                _ => {}
            }
        }
    }

    fn read_game(&mut self) -> Result<Option<PgnGame>, PgnError> {
        let Some(comments) = self.seek_game()? else {
            return Ok(None);
        };
        self.games += 1;
        let mut builder = Builder::new(self.games);
        let mut failure = None;
        let (tags, comments) = self.read_tags(&mut builder, comments, &mut failure)?;
        let start = tags::start_from_tags(&tags).unwrap_or_else(|kind| {
            failure.get_or_insert_with(|| builder.error(kind));
            Chess::new()
        });
        builder.set_start(&start);
        // Comments before the movetext's first move are the game's.
        builder.comments = comments;
        let result = self.read_movetext(&mut builder, &mut failure)?;
        if let Some(failure) = failure {
            return Err(failure);
        }
        let (comments, moves) = builder.finish()?;
        let result = result
            .or_else(|| tags::lookup(&tags, "Result").and_then(|r| r.parse().ok()))
            .unwrap_or_default();
        Ok(Some(PgnGame {
            tags: tags::normalize(&tags, &start, result),
            start,
            comments,
            moves,
            result,
        }))
    }

    /// Reads the tag section: the tags (a repeated name's last value wins) and the
    /// comments after the last tag (those between tags are dropped). The first error is
    /// kept in `failure`; only an I/O error returns early.
    fn read_tags(
        &mut self,
        builder: &mut Builder,
        mut comments: Vec<String>,
        failure: &mut Option<PgnError>,
    ) -> Result<(TagPairs, Vec<String>), PgnError> {
        let mut tags = TagPairs::new();
        let mut index: HashMap<String, usize> = HashMap::new();
        loop {
            let token = self.token().map_err(|e| self.io_error(builder.game, e))?;
            let step = match token {
                Token::Tag { name, value } => {
                    comments.clear();
                    if failure.is_some() {
                        continue;
                    }
                    builder
                        .grow(name.len() + value.len() + 2 * size_of::<String>())
                        .and_then(|()| {
                            if let Some(&i) = index.get(&name) {
                                if let Some(slot) = tags.get_mut(i) {
                                    slot.1 = value;
                                }
                            } else if tags.len() >= MAX_TAGS {
                                return Err(PgnErrorKind::TooManyTags { limit: MAX_TAGS });
                            } else {
                                index.insert(name.clone(), tags.len());
                                tags.push((name, value));
                            }
                            Ok(())
                        })
                }
                Token::Comment(comment) => {
                    if failure.is_some() {
                        continue;
                    }
                    builder
                        .grow(comment.len() + size_of::<String>())
                        .map(|()| comments.push(comment))
                }
                Token::Error(kind) => Err(kind),
                other => {
                    self.peeked = Some(other);
                    return Ok((tags, comments));
                }
            };
            if let Err(kind) = step {
                failure.get_or_insert_with(|| builder.error(kind));
            }
        }
    }

    /// Reads the movetext into `builder`, up to the result token (returned), the next
    /// game's tags or the end. After the first error (kept in `failure`) the rest of
    /// the game is only skipped over; only an I/O error returns early.
    fn read_movetext(
        &mut self,
        builder: &mut Builder,
        failure: &mut Option<PgnError>,
    ) -> Result<Option<GameResult>, PgnError> {
        loop {
            let token = self.token().map_err(|e| self.io_error(builder.game, e))?;
            let step = match token {
                Token::Eof => return Ok(None),
                Token::Tag { .. } | Token::Error(PgnErrorKind::BadTag { .. }) => {
                    self.peeked = Some(token);
                    return Ok(None);
                }
                Token::Star => return Ok(Some(GameResult::Unknown)),
                Token::Symbol(text) => match classify(&text) {
                    Symbol::Result(result) => return Ok(Some(result)),
                    _ if failure.is_some() => Ok(()),
                    Symbol::Skip => Ok(()),
                    Symbol::Glyph(nag) => builder.nag(nag),
                    Symbol::BadGlyph(body) => {
                        Err(builder.move_error(body, PgnErrorKind::BadNag(body.to_owned())))
                    }
                    Symbol::Move { san, glyph } => builder.play(san, glyph),
                },
                _ if failure.is_some() => Ok(()),
                Token::Nag(nag) => builder.nag(nag),
                Token::Comment(comment) => builder.comment(comment),
                Token::Open => builder.open(),
                Token::Close => builder.close(),
                Token::Unexpected(c) => Err(builder.error(PgnErrorKind::Unexpected(c))),
                Token::Error(kind) => Err(builder.error(kind)),
            };
            if let Err(e) = step {
                failure.get_or_insert(e);
            }
        }
    }
}

impl<R: Read> Iterator for Reader<R> {
    type Item = Result<PgnGame, PgnError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        match self.read_game() {
            Ok(Some(game)) => Some(Ok(game)),
            Ok(None) => {
                self.done = true;
                None
            }
            Err(e) => Some(Err(e)),
        }
    }
}

impl<R: Read> std::iter::FusedIterator for Reader<R> {}

/// Tag pairs in the order read.
type TagPairs = Vec<(String, String)>;

/// What a symbol token is.
enum Symbol<'a> {
    /// A move number (`12.`, `12...`, `12`), lone dots or `e.p.`: nothing to do.
    Skip,
    /// `1-0`, `0-1`, `1/2-1/2`.
    Result(GameResult),
    /// A stand-alone annotation glyph (`!`, `+-`).
    Glyph(Nag),
    /// A move with glyphs after it that are not one of `!`, `?`, `!!`, `??`, `!?`, `?!`.
    BadGlyph(&'a str),
    /// A move (a move number glued before it removed), and its suffix glyph.
    Move { san: &'a str, glyph: Option<Nag> },
}

fn classify(symbol: &str) -> Symbol<'_> {
    let s = symbol.trim_start_matches('\u{feff}');
    if s.is_empty() || s == "e.p." || s == "ep" {
        return Symbol::Skip;
    }
    if let Ok(result) = s.parse::<GameResult>() {
        return Symbol::Result(result);
    }
    let after_digits = s.trim_start_matches(|c: char| c.is_ascii_digit());
    let body = after_digits.trim_start_matches('.');
    let body = if after_digits.len() < s.len() && body.len() == after_digits.len() {
        // Digits and no dot: a bare move number, or castling written with zeros.
        if body.is_empty() {
            return Symbol::Skip;
        }
        s
    } else {
        body
    };
    if body.is_empty() {
        return Symbol::Skip;
    }
    if let Some(nag) = Nag::from_glyph(body) {
        return Symbol::Glyph(nag);
    }
    let san = body.trim_end_matches(['!', '?']);
    if san.len() == body.len() {
        return Symbol::Move { san, glyph: None };
    }
    match body.get(san.len()..).and_then(Nag::from_move_suffix) {
        Some(nag) => Symbol::Move {
            san,
            glyph: Some(nag),
        },
        None => Symbol::BadGlyph(body),
    }
}

/// Whether a symbol met between games starts one: a move number with a dot, or text
/// that parses as SAN.
fn begins_game(symbol: &str) -> bool {
    let s = symbol.trim_start_matches('\u{feff}');
    let after_digits = s.trim_start_matches(|c: char| c.is_ascii_digit());
    if after_digits.len() < s.len() && after_digits.starts_with('.') {
        return true;
    }
    matches!(classify(symbol), Symbol::Move { san, .. } if san.parse::<San>().is_ok())
}

/// The SAN `mv` is written with in `pos`, given the SAN it was read as (which named
/// exactly one legal move): the read SAN corrected for the capture sign, or
/// recomputed if it carried a disambiguation that may be superfluous.
fn canonical_san(pos: &Chess, mv: Move, read: San) -> San {
    match read {
        San::Castle { .. } => San::Castle {
            short: mv.is_castle_short(),
        },
        San::Normal {
            role: Role::Pawn, ..
        } => {
            let capture = pos.is_capture(mv);
            San::Normal {
                role: Role::Pawn,
                file: capture.then_some(mv.from().file()),
                rank: None,
                capture,
                to: mv.to(),
                promotion: mv.promotion_role(),
            }
        }
        San::Normal {
            role,
            file: None,
            rank: None,
            ..
        } => San::Normal {
            role,
            file: None,
            rank: None,
            capture: pos.is_capture(mv),
            to: mv.to(),
            promotion: None,
        },
        San::Normal { .. } => San::from_move(pos, mv),
    }
}

/// One line being read: the main line or a variation.
struct Frame {
    nodes: Vec<Node>,
    /// The position after the last node.
    pos: Chess,
    /// The position before the last node (where a variation of it starts).
    before: Chess,
    /// Plies from the game's start to `pos`.
    ply: u32,
    /// Comments waiting for the next move (they followed a variation).
    pending: Vec<String>,
    /// Whether a variation closed since the last move.
    after_variation: bool,
}

impl Frame {
    fn new(pos: Chess, ply: u32) -> Frame {
        Frame {
            nodes: Vec::new(),
            before: pos.clone(),
            pos,
            ply,
            pending: Vec::new(),
            after_variation: false,
        }
    }

    /// Gives comments still waiting at the end of the line to its last move.
    fn flush(&mut self) {
        if let Some(last) = self.nodes.last_mut() {
            last.comments_after.append(&mut self.pending);
        }
    }
}

/// Builds one game's move tree from movetext tokens.
struct Builder {
    game: u64,
    comments: Vec<String>,
    root: Frame,
    /// Open variations, innermost last.
    stack: Vec<Frame>,
    size: usize,
}

impl Builder {
    fn new(game: u64) -> Builder {
        Builder {
            game,
            comments: Vec::new(),
            root: Frame::new(Chess::new(), 0),
            stack: Vec::new(),
            size: 0,
        }
    }

    fn set_start(&mut self, start: &Chess) {
        self.root = Frame::new(start.clone(), 0);
    }

    fn top(&mut self) -> &mut Frame {
        self.stack.last_mut().unwrap_or(&mut self.root)
    }

    /// An error between moves of the current line.
    fn error(&mut self, kind: PgnErrorKind) -> PgnError {
        let ply = self.top().ply;
        PgnError {
            game: self.game,
            ply: (ply > 0).then_some(ply),
            at_move: None,
            kind,
        }
    }

    /// Counts `bytes` more against [`MAX_GAME_SIZE`].
    fn grow(&mut self, bytes: usize) -> Result<(), PgnErrorKind> {
        self.size = self.size.saturating_add(bytes);
        if self.size > MAX_GAME_SIZE {
            Err(PgnErrorKind::GameTooLarge {
                limit: MAX_GAME_SIZE,
            })
        } else {
            Ok(())
        }
    }

    fn grow_here(&mut self, bytes: usize) -> Result<(), PgnError> {
        self.grow(bytes).map_err(|kind| self.error(kind))
    }

    /// An error in the move `text` that would come next in the current line.
    fn move_error(&mut self, text: &str, kind: PgnErrorKind) -> PgnError {
        let game = self.game;
        let frame = self.top();
        let dots = if frame.pos.turn() == Side::White {
            "."
        } else {
            "..."
        };
        PgnError {
            game,
            ply: Some(frame.ply.saturating_add(1)),
            at_move: Some(format!("{}{dots}{text}", frame.pos.fullmoves())),
            kind,
        }
    }

    fn play(&mut self, text: &str, glyph: Option<Nag>) -> Result<(), PgnError> {
        self.grow_here(size_of::<Node>())?;
        let frame = self.top();
        let resolved = text
            .parse::<San>()
            .and_then(|san| san.to_move(&frame.pos).map(|mv| (san, mv)));
        let (read, mv) = match resolved {
            Ok(found) => found,
            Err(e) => return Err(self.move_error(text, PgnErrorKind::Move(e))),
        };
        let frame = self.top();
        let ply = frame.ply.saturating_add(1);
        let mut node = Node::with_san(mv, canonical_san(&frame.pos, mv, read));
        node.nags.extend(glyph);
        node.comments_before = mem::take(&mut frame.pending);
        let mut after = frame.pos.clone();
        after.play_unchecked(mv);
        frame.before = mem::replace(&mut frame.pos, after);
        frame.ply = ply;
        frame.nodes.push(node);
        frame.after_variation = false;
        Ok(())
    }

    fn nag(&mut self, nag: Nag) -> Result<(), PgnError> {
        self.grow_here(1)?;
        // A NAG before any move of its line has nothing to annotate: dropped.
        if let Some(last) = self.top().nodes.last_mut() {
            last.nags.push(nag);
        }
        Ok(())
    }

    fn comment(&mut self, comment: String) -> Result<(), PgnError> {
        self.grow_here(comment.len() + size_of::<String>())?;
        if self.stack.is_empty() && self.root.nodes.is_empty() {
            self.comments.push(comment);
            return Ok(());
        }
        let frame = self.top();
        match frame.nodes.last_mut() {
            Some(last) if !frame.after_variation => last.comments_after.push(comment),
            _ => frame.pending.push(comment),
        }
        Ok(())
    }

    fn open(&mut self) -> Result<(), PgnError> {
        if self.stack.len() >= MAX_VARIATION_DEPTH {
            return Err(self.error(PgnErrorKind::VariationTooDeep {
                limit: MAX_VARIATION_DEPTH,
            }));
        }
        let frame = self.top();
        if frame.nodes.is_empty() {
            return Err(self.error(PgnErrorKind::VariationWithoutMove));
        }
        let child = Frame::new(frame.before.clone(), frame.ply.saturating_sub(1));
        self.stack.push(child);
        Ok(())
    }

    fn close(&mut self) -> Result<(), PgnError> {
        let Some(mut child) = self.stack.pop() else {
            return Err(self.error(PgnErrorKind::UnmatchedParenthesis));
        };
        child.flush();
        let parent = self.top();
        if let Some(last) = parent.nodes.last_mut() {
            if child.nodes.is_empty() {
                // `( {comment} )`: no variation, but the comment is kept.
                last.comments_after.append(&mut child.pending);
            } else {
                last.variations.push(child.nodes);
            }
        }
        parent.after_variation = true;
        Ok(())
    }

    fn finish(mut self) -> Result<(Vec<String>, Vec<Node>), PgnError> {
        if !self.stack.is_empty() {
            let open = self.stack.len();
            return Err(self.error(PgnErrorKind::UnclosedVariation(open)));
        }
        self.root.flush();
        Ok((self.comments, self.root.nodes))
    }
}
