//! Writing PGN: tag pairs, then movetext wrapped at 80 columns.

use core::fmt;

use tablero_core::Side;

use super::{Node, PgnGame};
use crate::Chess;

/// The longest movetext line the writer produces, in characters.
pub const LINE_WIDTH: usize = 80;

impl PgnGame {
    /// Writes the game as PGN export text: the tags of
    /// [`normalized_tags`](PgnGame::normalized_tags), one per line, a blank line, then
    /// the movetext and a line end. Separate games with a blank line.
    ///
    /// Movetext lines are at most [`LINE_WIDTH`] characters: tokens are separated by
    /// single spaces or line breaks, and only a comment word longer than a line is cut
    /// (it reads back with a space in it). Moves are written in SAN with `+`/`#`, move
    /// numbers as `12.` before White's moves and `12...` before Black's where the PGN
    /// standard wants one (at the start of the game or a variation, after a comment
    /// or a variation), NAGs as `$n`, comments in braces (a `}` in one is dropped),
    /// variations in parentheses, and the result token last.
    ///
    /// A hand-built tree whose move is illegal in its position is still written, with
    /// the stored SAN, for the rest of that line.
    ///
    /// # Errors
    ///
    /// Only those of `out`.
    pub fn write(&self, out: &mut impl fmt::Write) -> fmt::Result {
        for (name, value) in self.normalized_tags() {
            let name: String = name
                .chars()
                .map(|c| {
                    if is_blank(c) || matches!(c, '"' | '[' | ']') {
                        '_'
                    } else {
                        c
                    }
                })
                .collect();
            out.write_char('[')?;
            out.write_str(&name)?;
            out.write_str(" \"")?;
            for c in value.chars() {
                match c {
                    '"' | '\\' => {
                        out.write_char('\\')?;
                        out.write_char(c)?;
                    }
                    c if is_blank(c) => out.write_char(' ')?,
                    c => out.write_char(c)?,
                }
            }
            out.write_str("\"]\n")?;
        }
        out.write_char('\n')?;
        let mut w = Wrap {
            out,
            col: 0,
            open: false,
        };
        for comment in &self.comments {
            w.comment(comment)?;
        }
        let number = MoveNumber {
            full: self.start.fullmoves(),
            white: self.start.turn() == Side::White,
        };
        write_line(&mut w, &self.moves, Some(self.start.clone()), number)?;
        w.word(self.result.as_str())?;
        w.out.write_char('\n')
    }

    /// The game as PGN text (see [`PgnGame::write`]).
    #[must_use]
    pub fn to_pgn_string(&self) -> String {
        let mut text = String::new();
        // Writing to a String cannot fail.
        let _ = self.write(&mut text);
        text
    }
}

impl fmt::Display for PgnGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write(f)
    }
}

/// The number and side of the next move, kept apart from the position so that a
/// hand-built line with an illegal move is still numbered.
#[derive(Clone, Copy)]
struct MoveNumber {
    full: u32,
    white: bool,
}

impl MoveNumber {
    fn next(self) -> MoveNumber {
        if self.white {
            MoveNumber {
                white: false,
                ..self
            }
        } else {
            MoveNumber {
                full: self.full.saturating_add(1),
                white: true,
            }
        }
    }
}

fn write_line<W: fmt::Write>(
    w: &mut Wrap<'_, W>,
    nodes: &[Node],
    mut pos: Option<Chess>,
    mut number: MoveNumber,
) -> fmt::Result {
    let mut need_number = true;
    for node in nodes {
        for comment in &node.comments_before {
            w.comment(comment)?;
            need_number = true;
        }
        if number.white {
            w.word(&format!("{}.", number.full))?;
        } else if need_number {
            w.word(&format!("{}...", number.full))?;
        }
        let before = pos.take().filter(|p| p.is_legal(node.mv));
        match &before {
            Some(p) => w.word(&p.san(node.mv))?,
            None => w.word(&node.san.to_string())?,
        }
        for nag in &node.nags {
            w.word(&nag.to_string())?;
        }
        for comment in &node.comments_after {
            w.comment(comment)?;
        }
        let mut any_variation = false;
        for variation in node.variations.iter().filter(|v| !v.is_empty()) {
            w.open = true;
            write_line(w, variation, before.clone(), number)?;
            w.close()?;
            any_variation = true;
        }
        need_number = any_variation || !node.comments_after.is_empty();
        pos = before.map(|mut p| {
            p.play_unchecked(node.mv);
            p
        });
        number = number.next();
    }
    Ok(())
}

/// Lays out movetext words in lines of at most [`LINE_WIDTH`] characters.
struct Wrap<'a, W> {
    out: &'a mut W,
    /// Characters on the current line.
    col: usize,
    /// Whether a `(` waits to be glued to the next word.
    open: bool,
}

impl<W: fmt::Write> Wrap<'_, W> {
    fn newline(&mut self) -> fmt::Result {
        self.col = 0;
        self.out.write_char('\n')
    }

    fn word(&mut self, word: &str) -> fmt::Result {
        let prefix = if self.open { "(" } else { "" };
        self.open = false;
        let len = prefix.len() + word.chars().count();
        if len > LINE_WIDTH {
            return self.long_word(prefix, word);
        }
        if self.col > 0 {
            if self.col + 1 + len > LINE_WIDTH {
                self.newline()?;
            } else {
                self.out.write_char(' ')?;
                self.col += 1;
            }
        }
        self.out.write_str(prefix)?;
        self.out.write_str(word)?;
        self.col += len;
        Ok(())
    }

    /// A word longer than a line, cut into lines of its own.
    fn long_word(&mut self, prefix: &str, word: &str) -> fmt::Result {
        if self.col > 0 {
            self.newline()?;
        }
        for c in prefix.chars().chain(word.chars()) {
            if self.col == LINE_WIDTH {
                self.newline()?;
            }
            self.out.write_char(c)?;
            self.col += 1;
        }
        Ok(())
    }

    /// `)` glued to the word before it, unless the line is full.
    fn close(&mut self) -> fmt::Result {
        if self.col + 1 > LINE_WIDTH {
            self.newline()?;
        }
        self.col += 1;
        self.out.write_char(')')
    }

    /// `{text}`, broken between words where lines are full.
    fn comment(&mut self, text: &str) -> fmt::Result {
        // The same white space the reader collapses, so that a comment reads back equal.
        let mut words = text
            .split(|c: char| c <= ' ' || c == '\u{7f}')
            .filter(|w| !w.is_empty())
            .peekable();
        if words.peek().is_none() {
            return self.word("{}");
        }
        let mut first = true;
        while let Some(word) = words.next() {
            let word = word.replace('}', "");
            let last = words.peek().is_none();
            let piece = match (first, last) {
                (true, true) => format!("{{{word}}}"),
                (true, false) => format!("{{{word}"),
                (false, true) => format!("{word}}}"),
                (false, false) => word,
            };
            if !piece.is_empty() {
                self.word(&piece)?;
            }
            first = false;
        }
        Ok(())
    }
}

/// The characters the reader treats as blanks (ASCII space and control characters,
/// as `lexer::is_space` does): anything else in a tag survives a write and a read.
fn is_blank(c: char) -> bool {
    c <= ' ' || c == '\u{7f}'
}
