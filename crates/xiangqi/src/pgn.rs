//! Game records as PGN, the form xiangqi programs exchange (XQ PGN as xqbase,
//! pychess and Fairy-Stockfish-based sites read it):
//!
//! ```text
//! [Game "Chinese Chess"]
//! [Event "Casual"]
//! [Red "Hu Ronghua"]
//! [Black "Yang Guanlin"]
//! [Result "1-0"]
//! [Variant "xiangqi"]
//! [FEN "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"]
//! [Format "WXF"]
//!
//! 1. C2.5 H8+7 2. H2+3 R9.8 1-0
//! ```
//!
//! Reading accepts moves in ICCS (`h2e2`, `H2-E2`), WXF (`C2.5`) or Chinese
//! (`炮二平五`), in any mix; comments (`{...}` and `;` to the end of the line) are
//! kept with the move they follow; variations (`(...)`) and NAGs (`$1`) are skipped.
//! A `White` tag is read as `Red`. A broken game is an error naming the game, the ply
//! and the move, and reading goes on with the next game.
//!
//! Writing gives the roster `Game Event Site Date Round Red Black Result`, then
//! `Variant "xiangqi"`, `FEN` (always, so other programs never have to guess the
//! start), `Format` naming the move notation, any other tags, and the moves wrapped at
//! 80 columns. Reading what was written gives the same game back.

use core::fmt;

use crate::{Game, GameError, Move, Xiangqi};

/// The move notation a record is written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum MoveFormat {
    /// WXF (`C2.5`): the international standard, and the default.
    #[default]
    Wxf,
    /// ICCS coordinates (`h2e2`).
    Iccs,
    /// Chinese (`炮二平五`).
    Chinese,
}

impl MoveFormat {
    /// The `Format` tag's value: `WXF`, `ICCS` or `Chinese`.
    #[must_use]
    pub const fn tag_value(self) -> &'static str {
        match self {
            MoveFormat::Wxf => "WXF",
            MoveFormat::Iccs => "ICCS",
            MoveFormat::Chinese => "Chinese",
        }
    }
}

/// The tags written first, in this order (`Game` identifies the record as xiangqi for
/// programs that read several games).
pub const ROSTER: [&str; 8] = [
    "Game", "Event", "Site", "Date", "Round", "Red", "Black", "Result",
];

/// Lines of movetext are at most this wide.
pub const LINE_WIDTH: usize = 80;

/// One game of a PGN file: tags, start position, moves and the comments after them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PgnGame {
    /// Tags in the order read or set (the roster is put first when writing).
    pub tags: Vec<(String, String)>,
    /// The start position (from the `FEN` tag, or the standard start).
    pub start: Xiangqi,
    /// The moves, in order.
    pub moves: Vec<Move>,
    /// `comments[i]` follow move `i` (`comments[0]` precedes the first move), so it
    /// always has one more entry than `moves`.
    pub comments: Vec<Vec<String>>,
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: String,
}

/// Why a game of a PGN file could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("game {game}{}: {reason}", ply_text(*.ply, .mv.as_deref()))]
pub struct PgnError {
    /// 1-based number of the game in the file.
    pub game: usize,
    /// 1-based ply of the bad move, if a move is at fault.
    pub ply: Option<usize>,
    /// The bad move's text.
    pub mv: Option<String>,
    /// What is wrong.
    pub reason: String,
}

fn ply_text(ply: Option<usize>, mv: Option<&str>) -> String {
    match (ply, mv) {
        (Some(p), Some(m)) => format!(", ply {p} ({m:?})"),
        (Some(p), None) => format!(", ply {p}"),
        _ => String::new(),
    }
}

impl PgnGame {
    /// A record starting at `start` with no moves or tags, result `*`.
    #[must_use]
    pub fn new(start: Xiangqi) -> PgnGame {
        PgnGame {
            tags: Vec::new(),
            start,
            moves: Vec::new(),
            comments: vec![Vec::new()],
            result: "*".to_owned(),
        }
    }

    /// A record of `moves` played from `start`.
    ///
    /// # Errors
    ///
    /// A message naming the first illegal move and its ply.
    pub fn from_moves(start: Xiangqi, moves: &[Move]) -> Result<PgnGame, String> {
        let mut game = PgnGame::new(start);
        let mut pos = game.start.clone();
        for (i, &m) in moves.iter().enumerate() {
            if !pos.is_legal(m) {
                return Err(format!("ply {}: {m} is not legal in {}", i + 1, pos.fen()));
            }
            pos.play_unchecked(m);
            game.moves.push(m);
            game.comments.push(Vec::new());
        }
        Ok(game)
    }

    /// The record of `game` with `tags` (e.g. `Event`, `Red`, `Black`), its result
    /// from the game's outcome (`*` while it goes on) and, when the game ended by a
    /// rule, a `Termination` tag saying which (e.g. `perpetual_check`).
    #[must_use]
    pub fn from_game(game: &Game, tags: impl IntoIterator<Item = (String, String)>) -> PgnGame {
        let mut record = PgnGame::new(game.start().clone());
        for m in game.moves() {
            record.moves.push(m);
            record.comments.push(Vec::new());
        }
        for (name, value) in tags {
            record.set_tag(name, value);
        }
        if let Some(outcome) = game.outcome() {
            outcome.result_str().clone_into(&mut record.result);
            record.set_tag("Termination", outcome.reason().id());
        }
        record
    }

    /// Replays the record as a [`Game`] (so that its rules can be checked and play can
    /// go on). The record's result tag is not trusted: the game decides its outcome.
    ///
    /// # Errors
    ///
    /// [`GameError`] for a move played after the game had already ended by a rule
    /// (e.g. after a perpetual check was ruled), or an illegal move.
    pub fn to_game(&self) -> Result<Game, GameError> {
        let mut game = Game::new(self.start.clone());
        for &m in &self.moves {
            game.play(m)?;
        }
        Ok(game)
    }

    /// The value of tag `name`.
    #[must_use]
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Sets tag `name` (replacing an earlier value).
    pub fn set_tag(&mut self, name: impl Into<String>, value: impl Into<String>) {
        let name = name.into();
        let value = value.into();
        match self.tags.iter_mut().find(|(n, _)| *n == name) {
            Some(tag) => tag.1 = value,
            None => self.tags.push((name, value)),
        }
    }

    /// The position after the last move.
    #[must_use]
    pub fn final_position(&self) -> Xiangqi {
        let mut pos = self.start.clone();
        for &m in &self.moves {
            pos.play_unchecked(m);
        }
        pos
    }

    /// The record as PGN text with moves in `format`.
    #[must_use]
    pub fn to_pgn_string(&self, format: MoveFormat) -> String {
        let mut out = String::new();
        let value = |name: &str| -> String {
            match name {
                "Game" => "Chinese Chess".to_owned(),
                "Result" => self.result.clone(),
                "Date" => self.tag(name).unwrap_or("????.??.??").to_owned(),
                _ => self.tag(name).unwrap_or("?").to_owned(),
            }
        };
        for name in ROSTER {
            push_tag(&mut out, name, &value(name));
        }
        push_tag(&mut out, "Variant", "xiangqi");
        push_tag(&mut out, "FEN", &self.start.fen());
        push_tag(&mut out, "Format", format.tag_value());
        for (name, value) in &self.tags {
            let fixed = ROSTER.contains(&name.as_str())
                || matches!(
                    name.as_str(),
                    "Variant" | "FEN" | "Format" | "SetUp" | "White"
                );
            if !fixed && is_tag_name(name) {
                push_tag(&mut out, name, value);
            }
        }
        out.push('\n');

        let mut words: Vec<String> = Vec::new();
        let mut pos = self.start.clone();
        let push_comments = |words: &mut Vec<String>, comments: Option<&Vec<String>>| {
            for c in comments.into_iter().flatten() {
                words.push(format!("{{{}}}", c.replace('}', ")")));
            }
        };
        push_comments(&mut words, self.comments.first());
        let mut need_number = true;
        for (i, &m) in self.moves.iter().enumerate() {
            let number = pos.fullmoves();
            if pos.turn() == tablero_core::Side::White {
                words.push(format!("{number}."));
            } else if need_number {
                words.push(format!("{number}..."));
            }
            words.push(match format {
                MoveFormat::Wxf => pos.wxf(m),
                MoveFormat::Iccs => m.to_string(),
                MoveFormat::Chinese => pos.chinese(m),
            });
            pos.play_unchecked(m);
            let comments = self.comments.get(i + 1);
            need_number = comments.is_some_and(|c| !c.is_empty());
            push_comments(&mut words, comments);
        }
        words.push(self.result.clone());
        let mut line_len = 0;
        for word in words {
            let width = word.chars().count();
            if line_len > 0 && line_len + 1 + width > LINE_WIDTH {
                out.push('\n');
                line_len = 0;
            } else if line_len > 0 {
                out.push(' ');
                line_len += 1;
            }
            out.push_str(&word);
            line_len += width;
        }
        out.push('\n');
        out
    }
}

impl fmt::Display for PgnGame {
    /// WXF moves.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_pgn_string(MoveFormat::Wxf))
    }
}

fn is_tag_name(name: &str) -> bool {
    !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

fn push_tag(out: &mut String, name: &str, value: &str) {
    let escaped = value
        .replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace(['\n', '\r'], " ");
    out.push_str(&format!("[{name} \"{escaped}\"]\n"));
}

/// Reads every game of a PGN text: one result per game, in order.
#[must_use]
pub fn read_pgn(text: &str) -> Vec<Result<PgnGame, PgnError>> {
    split_games(text)
        .into_iter()
        .enumerate()
        .map(|(i, chunk)| read_game(i + 1, chunk))
        .collect()
}

/// Splits at each tag section that follows movetext.
fn split_games(text: &str) -> Vec<&str> {
    let mut games = Vec::new();
    let mut start = 0;
    let mut seen_moves = false;
    let mut offset = 0;
    let mut depth = 0usize; // inside a {comment}
    for line in text.split_inclusive('\n') {
        let trimmed = line.trim_start();
        if depth == 0 && trimmed.starts_with('[') && seen_moves {
            games.push(&text[start..offset]);
            start = offset;
            seen_moves = false;
        }
        if depth == 0 && !trimmed.starts_with('[') && !trimmed.trim().is_empty() {
            seen_moves = true;
        }
        for c in line.chars() {
            match c {
                '{' => depth += 1,
                '}' => depth = depth.saturating_sub(1),
                _ => {}
            }
        }
        offset += line.len();
    }
    if !text[start..].trim().is_empty() {
        games.push(&text[start..]);
    }
    games
}

/// Movetext tokens.
enum Token<'a> {
    Word(&'a str),
    Comment(String),
}

fn read_game(number: usize, chunk: &str) -> Result<PgnGame, PgnError> {
    let error = |ply: Option<usize>, mv: Option<&str>, reason: String| PgnError {
        game: number,
        ply,
        mv: mv.map(str::to_owned),
        reason,
    };
    let mut tags: Vec<(String, String)> = Vec::new();
    let mut rest = chunk.trim_start();
    while rest.starts_with('[') {
        let (tag, after) = parse_tag(rest).map_err(|reason| error(None, None, reason))?;
        let (name, value) = tag;
        let name = if name == "White" {
            "Red".to_owned()
        } else {
            name
        };
        match tags.iter_mut().find(|(n, _)| *n == name) {
            Some(t) => t.1 = value,
            None => tags.push((name, value)),
        }
        rest = after.trim_start();
    }
    let lookup = |name: &str| {
        tags.iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    };
    if let Some(variant) = lookup("Variant")
        && !variant.eq_ignore_ascii_case("xiangqi")
        && !variant.eq_ignore_ascii_case("chinese chess")
    {
        return Err(error(
            None,
            None,
            format!("Variant tag {variant:?}: expected \"xiangqi\""),
        ));
    }
    let start = match lookup("FEN") {
        Some(fen) => {
            Xiangqi::from_fen(fen).map_err(|e| error(None, None, format!("FEN tag: {e}")))?
        }
        None => Xiangqi::new(),
    };
    let mut game = PgnGame::new(start);
    game.tags = tags;
    let mut pos = game.start.clone();
    let mut result = None;
    for token in tokenize(rest).map_err(|reason| error(Some(game.moves.len() + 1), None, reason))? {
        let word = match token {
            Token::Comment(c) => {
                if let Some(last) = game.comments.last_mut() {
                    last.push(c);
                }
                continue;
            }
            Token::Word(w) => w,
        };
        if result.is_some() {
            return Err(error(
                None,
                Some(word),
                "text after the game's result".to_owned(),
            ));
        }
        if matches!(word, "1-0" | "0-1" | "1/2-1/2" | "*") {
            result = Some(word.to_owned());
            continue;
        }
        let Some(text) = strip_move_number(word) else {
            continue;
        };
        let ply = game.moves.len() + 1;
        let m = pos
            .parse_move(text)
            .map_err(|e| error(Some(ply), Some(text), e.to_string()))?;
        pos.play_unchecked(m);
        game.moves.push(m);
        game.comments.push(Vec::new());
    }
    game.result = result
        .or_else(|| lookup_owned(&game.tags, "Result"))
        .unwrap_or_else(|| "*".to_owned());
    if !matches!(game.result.as_str(), "1-0" | "0-1" | "1/2-1/2" | "*") {
        return Err(error(
            None,
            None,
            format!("Result {:?}: expected 1-0, 0-1, 1/2-1/2 or *", game.result),
        ));
    }
    game.tags.retain(|(n, _)| {
        !matches!(
            n.as_str(),
            "Game" | "Result" | "Variant" | "FEN" | "Format" | "SetUp"
        )
    });
    Ok(game)
}

fn lookup_owned(tags: &[(String, String)], name: &str) -> Option<String> {
    tags.iter().find(|(n, _)| n == name).map(|(_, v)| v.clone())
}

/// `12.`, `12...` alone are skipped (`None`); `12.C2.5` gives `C2.5`; anything else
/// is a move.
fn strip_move_number(word: &str) -> Option<&str> {
    let digits = word.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 || word.as_bytes().get(digits) != Some(&b'.') {
        return Some(word);
    }
    let after = word[digits..].trim_start_matches('.');
    if after.is_empty() {
        None
    } else if after.starts_with(|c: char| c.is_ascii_digit()) {
        // `33.4`: WXF for the middle of three soldiers on file 3.
        Some(word)
    } else {
        Some(after)
    }
}

/// Reads one `[Name "value"]` at the start of `text`; returns it and the text after
/// its `]`.
fn parse_tag(text: &str) -> Result<((String, String), &str), String> {
    let shown = text.lines().next().unwrap_or("");
    let inner = text.strip_prefix('[').unwrap_or(text).trim_start();
    let name_len = inner
        .find(|c: char| c.is_whitespace() || c == '"')
        .unwrap_or(inner.len());
    let name = &inner[..name_len];
    if !is_tag_name(name) {
        return Err(format!(
            "tag {shown:?}: the name must be letters, digits and '_'"
        ));
    }
    let after_name = inner[name_len..].trim_start();
    let body = after_name
        .strip_prefix('"')
        .ok_or_else(|| format!("tag {name}: the value must be in double quotes"))?;
    let mut value = String::new();
    let mut chars = body.char_indices();
    while let Some((i, c)) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some((_, e)) => value.push(e),
                None => return Err(format!("tag {name}: unfinished escape")),
            },
            '\n' => break,
            '"' => {
                let after = body[i + 1..].trim_start();
                let rest = after
                    .strip_prefix(']')
                    .ok_or_else(|| format!("tag {name}: expected ']' after the value"))?;
                return Ok(((name.to_owned(), value), rest));
            }
            c => value.push(c),
        }
    }
    Err(format!("tag {name}: the value's closing quote is missing"))
}

fn tokenize(text: &str) -> Result<Vec<Token<'_>>, String> {
    let mut tokens = Vec::new();
    let mut rest = text;
    let mut variation_depth = 0usize;
    loop {
        rest = rest.trim_start();
        let Some(c) = rest.chars().next() else {
            break;
        };
        match c {
            '{' => {
                let end = rest.find('}').ok_or("a comment '{' is never closed")?;
                if variation_depth == 0 {
                    tokens.push(Token::Comment(rest[1..end].trim().to_owned()));
                }
                rest = &rest[end + 1..];
            }
            ';' => {
                let end = rest.find('\n').unwrap_or(rest.len());
                if variation_depth == 0 {
                    tokens.push(Token::Comment(rest[1..end].trim().to_owned()));
                }
                rest = &rest[end..];
            }
            '(' => {
                variation_depth += 1;
                rest = &rest[1..];
            }
            '}' => return Err("a '}' closes no comment".to_owned()),
            ')' => {
                variation_depth = variation_depth
                    .checked_sub(1)
                    .ok_or("a variation ')' closes nothing")?;
                rest = &rest[1..];
            }
            _ => {
                let end = rest
                    .find(|c: char| c.is_whitespace() || matches!(c, '{' | '}' | '(' | ')' | ';'))
                    .unwrap_or(rest.len());
                let word = &rest[..end];
                rest = &rest[end..];
                if variation_depth == 0 && !word.starts_with('$') {
                    tokens.push(Token::Word(word));
                }
            }
        }
    }
    if variation_depth > 0 {
        return Err("a variation '(' is never closed".to_owned());
    }
    Ok(tokens)
}
