//! The lexical layer: bytes from any [`Read`] in, PGN tokens out.
//!
//! Reads through one fixed buffer and keeps a bounded amount of text per token, so
//! lines, comments and inputs of any length pass in constant memory. Tolerates a
//! byte-order mark (it reads as an empty symbol), CRLF and CR line ends, invalid UTF-8
//! (replaced by U+FFFD) and `%` escape lines (ignored). Every call consumes at least
//! one byte or reports the end, so no input can make it loop.

use std::io::{self, Read};

use super::{MAX_SYMBOL_LEN, MAX_TEXT_LEN, Nag, PgnErrorKind};

const BUFFER_SIZE: usize = 1 << 16;

/// How many characters of an over-long token an error message quotes.
const QUOTE_CHARS: usize = 24;

/// One PGN token.
#[derive(Debug)]
pub(crate) enum Token {
    /// `[Name "value"]`, the value unescaped.
    Tag { name: String, value: String },
    /// `{...}` or `; ...`, with white-space runs (line breaks too) read as one space
    /// and trimmed (and, in a `;` comment, any `}` dropped).
    Comment(String),
    /// `(`
    Open,
    /// `)`
    Close,
    /// `$n`
    Nag(Nag),
    /// `*`
    Star,
    /// A run of other characters: move numbers, moves, results, glyphs, junk.
    Symbol(String),
    /// `}`, `]` or `"` outside a comment or tag.
    Unexpected(char),
    /// Something malformed, already consumed: reading can go on after it.
    Error(PgnErrorKind),
    /// The end of the input.
    Eof,
}

const fn is_space(b: u8) -> bool {
    b <= b' ' || b == 0x7f
}

const fn is_delimiter(b: u8) -> bool {
    is_space(b)
        || matches!(
            b,
            b'{' | b'}' | b'(' | b')' | b'[' | b']' | b';' | b'$' | b'"' | b'*'
        )
}

/// Collects the bytes of one token up to a limit, remembering whether it overflowed.
struct Text {
    bytes: Vec<u8>,
    limit: usize,
    overflow: bool,
    space: bool,
}

impl Text {
    fn new(limit: usize) -> Text {
        Text {
            bytes: Vec::new(),
            limit,
            overflow: false,
            space: false,
        }
    }

    fn push(&mut self, b: u8) {
        if self.bytes.len() < self.limit {
            self.bytes.push(b);
        } else {
            self.overflow = true;
        }
    }

    /// Pushes `b`, turning white-space runs into one space and dropping leading and
    /// trailing white space.
    fn push_collapsing(&mut self, b: u8) {
        if is_space(b) {
            self.space = !self.bytes.is_empty();
        } else {
            if self.space {
                self.push(b' ');
                self.space = false;
            }
            self.push(b);
        }
    }

    fn string(&self) -> String {
        String::from_utf8_lossy(&self.bytes).into_owned()
    }

    /// The text, or the error for a token over the limit (checked again after invalid
    /// UTF-8 became U+FFFD, so that what is read can be written and read again).
    fn finish(self, what: &'static str) -> Result<String, PgnErrorKind> {
        if self.overflow {
            return Err(self.too_long(what));
        }
        let limit = self.limit;
        let text = String::from_utf8(self.bytes)
            .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
        if text.len() > limit {
            return Err(PgnErrorKind::TokenTooLong {
                what,
                start: text.chars().take(QUOTE_CHARS).collect(),
                limit,
            });
        }
        Ok(text)
    }

    fn too_long(&self, what: &'static str) -> PgnErrorKind {
        PgnErrorKind::TokenTooLong {
            what,
            start: String::from_utf8_lossy(&self.bytes)
                .chars()
                .take(QUOTE_CHARS)
                .collect(),
            limit: self.limit,
        }
    }
}

/// Splits any [`Read`] into [`Token`]s.
pub(crate) struct Lexer<R> {
    inner: R,
    buf: Box<[u8]>,
    pos: usize,
    len: usize,
    eof: bool,
    line_start: bool,
}

impl<R: Read> Lexer<R> {
    pub(crate) fn new(inner: R) -> Lexer<R> {
        Lexer {
            inner,
            buf: vec![0; BUFFER_SIZE].into_boxed_slice(),
            pos: 0,
            len: 0,
            eof: false,
            line_start: true,
        }
    }

    fn refill(&mut self) -> io::Result<()> {
        self.pos = 0;
        self.len = 0;
        while !self.eof {
            match self.inner.read(&mut self.buf) {
                Ok(0) => self.eof = true,
                Ok(n) => {
                    self.len = n.min(self.buf.len());
                    break;
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }

    fn peek(&mut self) -> io::Result<Option<u8>> {
        if self.pos >= self.len {
            self.refill()?;
        }
        Ok(if self.pos < self.len {
            self.buf.get(self.pos).copied()
        } else {
            None
        })
    }

    /// Consumes the byte `peek` returned.
    fn bump(&mut self, b: u8) {
        self.pos += 1;
        self.line_start = b == b'\n' || b == b'\r';
    }

    fn next_byte(&mut self) -> io::Result<Option<u8>> {
        let b = self.peek()?;
        if let Some(b) = b {
            self.bump(b);
        }
        Ok(b)
    }

    /// The next token.
    ///
    /// # Errors
    ///
    /// Only I/O errors of the underlying reader; malformed text is a [`Token::Error`].
    pub(crate) fn next_token(&mut self) -> io::Result<Token> {
        loop {
            let Some(b) = self.peek()? else {
                return Ok(Token::Eof);
            };
            if is_space(b) {
                self.bump(b);
                continue;
            }
            if b == b'%' && self.line_start {
                self.skip_line()?;
                continue;
            }
            self.bump(b);
            return Ok(match b {
                b'{' => self.brace_comment()?,
                b';' => self.line_comment()?,
                b'[' => self.tag()?,
                b'(' => Token::Open,
                b')' => Token::Close,
                b'$' => self.nag()?,
                b'*' => Token::Star,
                b'}' | b']' | b'"' => Token::Unexpected(char::from(b)),
                _ => self.symbol(b)?,
            });
        }
    }

    /// Consumes the rest of the line, the line end included.
    fn skip_line(&mut self) -> io::Result<()> {
        while let Some(b) = self.next_byte()? {
            if b == b'\n' || b == b'\r' {
                break;
            }
        }
        Ok(())
    }

    fn brace_comment(&mut self) -> io::Result<Token> {
        let mut text = Text::new(MAX_TEXT_LEN);
        loop {
            match self.next_byte()? {
                None => return Ok(Token::Error(PgnErrorKind::UnterminatedComment)),
                Some(b'}') => break,
                Some(b) => text.push_collapsing(b),
            }
        }
        Ok(comment_token(text))
    }

    fn line_comment(&mut self) -> io::Result<Token> {
        let mut text = Text::new(MAX_TEXT_LEN);
        while let Some(b) = self.next_byte()? {
            if b == b'\n' || b == b'\r' {
                break;
            }
            // A '}' could not be written back in a brace comment: dropped.
            if b != b'}' {
                text.push_collapsing(b);
            }
        }
        Ok(comment_token(text))
    }

    fn nag(&mut self) -> io::Result<Token> {
        let mut digits = Text::new(QUOTE_CHARS);
        while let Some(b) = self.peek()? {
            if !b.is_ascii_digit() {
                break;
            }
            self.bump(b);
            digits.push(b);
        }
        let text = digits.string();
        Ok(match text.parse::<u8>() {
            Ok(n) if !digits.overflow => Token::Nag(Nag(n)),
            _ => Token::Error(PgnErrorKind::BadNag(format!("${text}"))),
        })
    }

    fn symbol(&mut self, first: u8) -> io::Result<Token> {
        let mut text = Text::new(MAX_SYMBOL_LEN);
        text.push(first);
        while let Some(b) = self.peek()? {
            if is_delimiter(b) {
                break;
            }
            self.bump(b);
            text.push(b);
        }
        Ok(match text.finish("word") {
            Ok(text) => Token::Symbol(text),
            Err(kind) => Token::Error(kind),
        })
    }

    /// Skips spaces and tabs (not line ends).
    fn skip_blanks(&mut self) -> io::Result<()> {
        while let Some(b @ (b' ' | b'\t')) = self.peek()? {
            self.bump(b);
        }
        Ok(())
    }

    /// Recovers from a malformed tag: consumes up to and including the next `]` or line
    /// end.
    fn skip_tag_rest(&mut self) -> io::Result<()> {
        while let Some(b) = self.next_byte()? {
            if matches!(b, b']' | b'\n' | b'\r') {
                break;
            }
        }
        Ok(())
    }

    /// A tag pair after its `[`: `Name "value"]`, leniently also `Name value]`.
    fn tag(&mut self) -> io::Result<Token> {
        let bad = |name: &Text, reason| {
            Ok(Token::Error(PgnErrorKind::BadTag {
                name: name.string(),
                reason,
            }))
        };
        self.skip_blanks()?;
        let mut name = Text::new(MAX_SYMBOL_LEN);
        while let Some(b) = self.peek()? {
            if is_space(b) || matches!(b, b'"' | b']' | b'[') {
                break;
            }
            self.bump(b);
            name.push(b);
        }
        if name.overflow {
            self.skip_tag_rest()?;
            return Ok(Token::Error(name.too_long("tag name")));
        }
        if name.bytes.is_empty() {
            self.skip_tag_rest()?;
            return bad(&name, "no tag name after '['");
        }
        self.skip_blanks()?;
        let mut value = Text::new(MAX_TEXT_LEN);
        match self.peek()? {
            Some(b'"') => {
                self.bump(b'"');
                loop {
                    match self.next_byte()? {
                        None => return bad(&name, "value not closed by '\"'"),
                        Some(b'\n' | b'\r') => {
                            return bad(&name, "value not closed by '\"' on its line");
                        }
                        Some(b'"') => break,
                        Some(b'\\') => match self.peek()? {
                            Some(b @ (b'"' | b'\\')) => {
                                self.bump(b);
                                value.push(b);
                            }
                            _ => value.push(b'\\'),
                        },
                        // Tabs and other control characters read as spaces.
                        Some(b) if is_space(b) => value.push(b' '),
                        Some(b) => value.push(b),
                    }
                }
                self.skip_blanks()?;
                if self.peek()? == Some(b']') {
                    self.bump(b']');
                } else {
                    self.skip_tag_rest()?;
                    return bad(&name, "expected ']' after the value");
                }
            }
            Some(b']') => {
                self.bump(b']');
                return bad(&name, "no value");
            }
            _ => loop {
                // Lenient: an unquoted value runs to the ']' on the same line.
                match self.next_byte()? {
                    None | Some(b'\n' | b'\r') => return bad(&name, "not closed by ']'"),
                    Some(b']') => {
                        while value.bytes.last().is_some_and(|&b| is_space(b)) {
                            value.bytes.pop();
                        }
                        break;
                    }
                    Some(b) if is_space(b) => value.push(b' '),
                    Some(b) => value.push(b),
                }
            },
        }
        Ok(match (name.finish("tag name"), value.finish("tag value")) {
            (Ok(name), Ok(value)) => Token::Tag { name, value },
            (Err(kind), _) | (_, Err(kind)) => Token::Error(kind),
        })
    }
}

fn comment_token(text: Text) -> Token {
    match text.finish("comment") {
        Ok(text) => Token::Comment(text),
        Err(kind) => Token::Error(kind),
    }
}
