//! PDN game files: the draughts save/load format.
//!
//! A file holds any number of games. Each game has tags (`[Event "..."]`,
//! `[GameType "20"]`, `[FEN "W:W31-50:B1-20"]`, ...) and movetext: move numbers
//! (`1.`, `1...`), moves (`32-28`, `19x28`, `28x19x10`), comments (`{...}` and `;` to
//! the end of the line), variations in parentheses and NAGs (skipped), move suffixes
//! (`!`, `?`, skipped), and a result (`2-0`, `0-2`, `1-1`, `1-0`, `0-1`, `1/2-1/2`, `*`).
//!
//! Reading never stops at a bad game: it is reported by its number and the next one is
//! read.

use core::fmt::Write as _;

use tablero_core::{Outcome, Position, Side};

use crate::{Draughts, Game, Move, RuleSet};

/// One game read from or written to a PDN file.
#[derive(Debug, Clone)]
pub struct PdnGame {
    /// Tags in file order, without `GameType` and `FEN` (those are `start`).
    pub tags: Vec<(String, String)>,
    /// The start position (its rule set from `GameType`, its placement from `FEN`).
    pub start: Draughts,
    /// The moves.
    pub moves: Vec<Move>,
    /// Comments, each with the number of moves played before it.
    pub comments: Vec<(usize, String)>,
    /// The result token (`2-0`, `0-2`, `1-1`, `*`, ...), if the game has one.
    pub result: Option<String>,
}

/// A game of a PDN file that could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("game {game}: {message}")]
pub struct PdnError {
    /// The game's number in the file, from 1.
    pub game: usize,
    /// What is wrong: the tag or the move (by number) and why.
    pub message: String,
}

/// What reading a PDN file produced: the good games and one error per bad game.
#[derive(Debug, Clone, Default)]
pub struct PdnRead {
    /// The games read, in file order.
    pub games: Vec<PdnGame>,
    /// The games that could not be read.
    pub errors: Vec<PdnError>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Token {
    Tag(String, String),
    Comment(String),
    Result(String),
    Move(String),
}

const RESULTS: [&str; 8] = ["2-0", "0-2", "1-1", "0-0", "1-0", "0-1", "1/2-1/2", "*"];

/// Splits PDN text into tokens; `Err` carries a message for a broken tag (the rest of
/// the text is still tokenised).
fn tokenize(text: &str) -> Vec<Result<Token, String>> {
    let mut out = Vec::new();
    let mut chars = text.char_indices().peekable();
    let mut line_start = true;
    while let Some((i, c)) = chars.next() {
        match c {
            '\n' => {
                line_start = true;
                continue;
            }
            c if c.is_whitespace() => continue,
            '%' if line_start => {
                for (_, c) in chars.by_ref() {
                    if c == '\n' {
                        break;
                    }
                }
                continue;
            }
            '[' => {
                let mut body = String::new();
                let mut in_string = false;
                let mut escaped = false;
                let mut closed = false;
                for (_, c) in chars.by_ref() {
                    if in_string {
                        if escaped {
                            escaped = false;
                        } else if c == '\\' {
                            escaped = true;
                            continue;
                        } else if c == '"' {
                            in_string = false;
                        }
                        body.push(c);
                    } else if c == '"' {
                        in_string = true;
                        body.push(c);
                    } else if c == ']' {
                        closed = true;
                        break;
                    } else {
                        body.push(c);
                    }
                }
                out.push(parse_tag(&body, closed));
            }
            '{' => {
                let mut body = String::new();
                for (_, c) in chars.by_ref() {
                    if c == '}' {
                        break;
                    }
                    body.push(c);
                }
                out.push(Ok(Token::Comment(body.trim().to_owned())));
            }
            ';' => {
                let mut body = String::new();
                for (_, c) in chars.by_ref() {
                    if c == '\n' {
                        break;
                    }
                    body.push(c);
                }
                out.push(Ok(Token::Comment(body.trim().to_owned())));
                line_start = true;
                continue;
            }
            '(' => {
                let mut depth = 1;
                for (_, c) in chars.by_ref() {
                    match c {
                        '(' => depth += 1,
                        ')' => {
                            depth -= 1;
                            if depth == 0 {
                                break;
                            }
                        }
                        _ => {}
                    }
                }
            }
            _ => {
                let mut end = i + c.len_utf8();
                while let Some(&(j, d)) = chars.peek() {
                    if d.is_whitespace() || matches!(d, '[' | '{' | '(' | ';') {
                        break;
                    }
                    end = j + d.len_utf8();
                    chars.next();
                }
                if let Some(word) = text.get(i..end) {
                    word_tokens(word, &mut out);
                }
            }
        }
        line_start = false;
    }
    out
}

/// Tag names are letters, digits and underscores (as in PGN).
fn is_tag_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

fn parse_tag(body: &str, closed: bool) -> Result<Token, String> {
    let body = body.trim();
    let (name, rest) = body.split_once(char::is_whitespace).unwrap_or((body, ""));
    let rest = rest.trim();
    // The tokenizer has already undone the `\"` and `\\` escapes.
    let value = rest
        .strip_prefix('"')
        .and_then(|r| r.strip_suffix('"'))
        .map(str::to_owned);
    let valid_name = !name.is_empty() && name.chars().all(is_tag_name_char);
    match value {
        Some(value) if closed && valid_name => Ok(Token::Tag(name.to_owned(), value)),
        _ => Err(format!("malformed tag [{body}]")),
    }
}

/// A word of movetext: a result, a move number, a move (with a move number or suffix
/// glued on), or a NAG.
fn word_tokens(word: &str, out: &mut Vec<Result<Token, String>>) {
    if RESULTS.contains(&word) {
        out.push(Ok(Token::Result(word.to_owned())));
        return;
    }
    if word.starts_with('$') {
        return;
    }
    // Strip a move number: `12.`, `12...`, `12.32-28`.
    let digits = word.bytes().take_while(u8::is_ascii_digit).count();
    let rest = &word[digits..];
    let body = if digits > 0 && rest.starts_with('.') {
        rest.trim_start_matches('.')
    } else {
        word
    };
    let body = body.trim_end_matches(['!', '?', '+', '#']);
    if !body.is_empty() {
        out.push(Ok(Token::Move(body.to_owned())));
    }
}

/// Reads every game of a PDN file. Games without a `GameType` tag are of `default`;
/// games without a `FEN` tag start from their rule set's start position.
#[must_use]
pub fn read_pdn(text: &str, default: RuleSet) -> PdnRead {
    let mut read = PdnRead::default();
    let mut builder: Option<Builder> = None;
    for token in tokenize(text) {
        // A tag after movetext, or anything after a result, starts a new game.
        let starts_game = match (&token, &builder) {
            (_, None) => true,
            (Ok(Token::Tag(..)) | Err(_), Some(b)) => b.in_movetext || b.result.is_some(),
            (_, Some(b)) => b.result.is_some(),
        };
        if starts_game {
            if let Some(b) = builder.take() {
                b.finish(&mut read);
            }
            builder = Some(Builder::new(default));
        }
        if let Some(b) = builder.as_mut() {
            b.feed(token);
        }
    }
    if let Some(b) = builder {
        b.finish(&mut read);
    }
    read
}

/// A game being read.
struct Builder {
    default: RuleSet,
    tags: Vec<(String, String)>,
    rule_set: Option<RuleSet>,
    fen: Option<String>,
    position: Option<Draughts>,
    start: Option<Draughts>,
    moves: Vec<Move>,
    comments: Vec<(usize, String)>,
    result: Option<String>,
    in_movetext: bool,
    error: Option<String>,
    /// Whether anything but comments was seen.
    content: bool,
}

impl Builder {
    fn new(default: RuleSet) -> Builder {
        Builder {
            default,
            tags: Vec::new(),
            rule_set: None,
            fen: None,
            position: None,
            start: None,
            moves: Vec::new(),
            comments: Vec::new(),
            result: None,
            in_movetext: false,
            error: None,
            content: false,
        }
    }

    fn fail(&mut self, message: String) {
        if self.error.is_none() {
            self.error = Some(message);
        }
    }

    /// The position movetext plays from, set up from the tags on first use.
    fn position(&mut self) -> Option<&mut Draughts> {
        if self.position.is_none() && self.error.is_none() {
            let rule_set = self.rule_set.unwrap_or(self.default);
            let start = match &self.fen {
                Some(fen) => match Draughts::from_fen(fen, rule_set) {
                    Ok(p) => p,
                    Err(e) => {
                        self.fail(format!("FEN tag {fen:?}: {e}"));
                        return None;
                    }
                },
                None => Draughts::new(rule_set),
            };
            self.start = Some(start.clone());
            self.position = Some(start);
        }
        self.position.as_mut()
    }

    fn feed(&mut self, token: Result<Token, String>) {
        match token {
            Err(message) => {
                self.content = true;
                self.fail(message);
            }
            Ok(Token::Tag(name, value)) => {
                self.content = true;
                match name.as_str() {
                    "GameType" => {
                        let number = value.split(',').next().unwrap_or("").trim();
                        match number.parse().ok().and_then(RuleSet::from_game_type) {
                            Some(r) => self.rule_set = Some(r),
                            None => self.fail(format!(
                                "GameType tag {value:?}: not a game type tablero plays (20, 21, 22, 24, 25, 26)"
                            )),
                        }
                    }
                    "FEN" => self.fen = Some(value),
                    _ => self.tags.push((name, value)),
                }
            }
            Ok(Token::Comment(text)) => self.comments.push((self.moves.len(), text)),
            Ok(Token::Result(result)) => {
                self.content = true;
                self.result = Some(result);
            }
            Ok(Token::Move(text)) => {
                self.content = true;
                self.in_movetext = true;
                if self.error.is_some() {
                    return;
                }
                let ply = self.moves.len();
                let Some(pos) = self.position() else { return };
                match pos.parse_move(&text) {
                    Ok(m) => {
                        pos.play_unchecked(m);
                        self.moves.push(m);
                    }
                    Err(e) => self.fail(format!("move {} ({text}): {e}", ply + 1)),
                }
            }
        }
    }

    fn finish(mut self, read: &mut PdnRead) {
        if !self.content {
            return;
        }
        self.position();
        match (self.error, self.start) {
            (None, Some(start)) => read.games.push(PdnGame {
                tags: self.tags,
                start,
                moves: self.moves,
                comments: self.comments,
                result: self.result,
            }),
            (error, _) => read.errors.push(PdnError {
                // Games are numbered in file order, counting only those with content.
                game: read.games.len() + read.errors.len() + 1,
                message: error.unwrap_or_else(|| "no start position".to_owned()),
            }),
        }
    }
}

impl PdnGame {
    /// A game record from a [`Game`], with `tags` (the `Result` tag is added from the
    /// game's outcome when it has one and `tags` has none).
    #[must_use]
    pub fn from_game(game: &Game, tags: Vec<(String, String)>) -> PdnGame {
        let result = game.outcome().map(|o| draughts_result(o).to_owned());
        PdnGame {
            tags,
            start: game.start().clone(),
            moves: game.moves().to_vec(),
            comments: Vec::new(),
            result,
        }
    }

    /// The game as PDN text: the tags, `GameType`, `FEN` when the game does not start
    /// from the start position, then numbered movetext and the result.
    #[must_use]
    pub fn to_pdn(&self) -> String {
        let mut out = String::new();
        let rule_set = self.start.rule_set();
        let result = self
            .tags
            .iter()
            .find(|(k, _)| k == "Result")
            .map(|(_, v)| v.clone())
            .or_else(|| self.result.clone())
            .unwrap_or_else(|| "*".to_owned());
        let escape = |v: &str| v.replace('\\', "\\\\").replace('"', "\\\"");
        for (name, value) in &self.tags {
            let name: String = name
                .chars()
                .map(|c| if is_tag_name_char(c) { c } else { '_' })
                .collect();
            let name = if name.is_empty() {
                "Tag".to_owned()
            } else {
                name
            };
            let _ = writeln!(out, "[{name} \"{}\"]", escape(value));
        }
        if !self.tags.iter().any(|(k, _)| k == "Result") {
            let _ = writeln!(out, "[Result \"{result}\"]");
        }
        let _ = writeln!(out, "[GameType \"{}\"]", rule_set.game_type());
        if self.start != Draughts::new(rule_set) {
            let _ = writeln!(out, "[FEN \"{}\"]", self.start.fen());
        }
        out.push('\n');
        let first = rule_set.rules().first_to_move;
        let mut pos = self.start.clone();
        let mut words: Vec<String> = Vec::new();
        let mut number = 1;
        let mut comments = self.comments.iter().peekable();
        for (ply, &m) in self.moves.iter().enumerate() {
            while let Some((_, text)) = comments.next_if(|(at, _)| *at == ply) {
                words.push(format!("{{{}}}", text.replace('}', ")")));
            }
            if pos.turn() == first {
                words.push(format!("{number}."));
            } else if ply == 0 {
                words.push(format!("{number}..."));
            }
            words.push(pos.move_text(m));
            if pos.turn() != first {
                number += 1;
            }
            pos.play_unchecked(m);
        }
        for (_, text) in comments {
            words.push(format!("{{{}}}", text.replace('}', ")")));
        }
        words.push(result);
        // Lines of at most 80 characters.
        let mut line = String::new();
        for word in words {
            if !line.is_empty() && line.len() + 1 + word.len() > 80 {
                out.push_str(&line);
                out.push('\n');
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(&word);
        }
        out.push_str(&line);
        out.push('\n');
        out
    }
}

/// Writes several games, separated by blank lines.
#[must_use]
pub fn write_pdn(games: &[PdnGame]) -> String {
    games
        .iter()
        .map(PdnGame::to_pdn)
        .collect::<Vec<_>>()
        .join("\n")
}

/// The draughts result token: `2-0`, `0-2` or `1-1`.
#[must_use]
pub const fn draughts_result(outcome: Outcome) -> &'static str {
    match outcome.winner() {
        Some(Side::White) => "2-0",
        Some(Side::Black) => "0-2",
        None => "1-1",
    }
}
