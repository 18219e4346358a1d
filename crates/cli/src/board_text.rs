//! The board of any game as text for the terminal (`tablero play`): Unicode pieces (Chinese characters
//! for xiangqi), coordinates on every side, and ANSI colours when asked for.
//!
//! * chess: files `a`–`h` and ranks `1`–`8`, White's pieces hollow (`♔`), Black's solid
//!   (`♚`);
//! * xiangqi: files `a`–`i` and ranks `0`–`9` as ICCS names them, the WXF file numbers
//!   of each side outside them (`1`–`9` from the top side's right, `9`–`1` along the
//!   bottom), red 帥仕相俥傌炮兵 and black 將士象車馬砲卒, the river between ranks 4
//!   and 5;
//! * draughts: every playable square shows its PDN number, with the piece before it
//!   (`⛀` white man, `⛁` white king, `⛂` black man, `⛃` black king), columns
//!   `a`–`h`/`a`–`j` and rows from White's side;
//! * chess3d: the three levels side by side, 0 to 2, rows `A`–`H` from the bottom and
//!   columns `1`–`8`, with a legend from the chess glyphs to the piece letters.
//!
//! A king (chess) or general (xiangqi) in check is marked: on a red background in
//! colour, between brackets in plain text (`♛[♚]♝`).
//!
//! Drawn from [`AnyPosition::board_description`]: nothing here knows a game.

use tablero_core::Side;
use tablero_games::{AnyPosition, BoardDescription, Pattern};

/// Which ANSI colours a board uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) enum Colours {
    /// Plain text: for pipes, files, `NO_COLOR` and dumb terminals.
    #[default]
    Off,
    /// The 16 basic colours every colour terminal has.
    Basic,
    /// The 256-colour palette.
    Extended,
}

/// How to draw a board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct BoardStyle {
    /// Turn the board round: the second side (Black) at the bottom.
    pub(crate) flipped: bool,
    /// ANSI colours, or none.
    pub(crate) colours: Colours,
    /// The position format's ASCII letters instead of Unicode pieces and Chinese
    /// characters, for terminals without those fonts.
    pub(crate) ascii: bool,
}

/// The position `game` drawn as lines of text, each ending with a newline.
///
/// With [`Colours::Off`] the text holds no escape sequence and no line ends in a
/// space, so it can be compared exactly.
#[must_use]
pub(crate) fn board_text(game: &AnyPosition, style: BoardStyle) -> String {
    let board = game.board_description();
    let lines = if board.levels > 1 {
        levels_side_by_side(&board, style)
    } else {
        level_grid(&board, 0, style).render(style.colours)
    };
    let mut out = String::new();
    for line in lines {
        out.push_str(&line);
        out.push('\n');
    }
    out
}

/// The background of a cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Shade {
    /// A light square.
    Light,
    /// A dark square.
    Dark,
    /// The xiangqi board, whose pieces stand on points, not squares.
    Wood,
    /// Under a king or general in check.
    Check,
}

/// The foreground of part of a cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ink {
    /// A piece of the first side (White).
    White,
    /// A piece of Black.
    Black,
    /// A piece of xiangqi's red side.
    Red,
    /// Square numbers and empty points.
    Faint,
}

/// One square or point: text parts whose visible widths add up to the grid's width.
#[derive(Debug, Clone)]
struct Cell {
    parts: Vec<(String, Ink)>,
    shade: Shade,
    /// A king or general in check: drawn on red, or between brackets in plain text.
    marked: bool,
}

impl Cell {
    fn new(text: impl Into<String>, ink: Ink, shade: Shade) -> Cell {
        Cell {
            parts: vec![(text.into(), ink)],
            shade,
            marked: false,
        }
    }

    /// This cell, marked when `marked` (see [`Cell::marked`]).
    fn marked_if(mut self, marked: bool) -> Cell {
        self.marked = marked;
        self
    }
}

/// A board as rows of cells with labels around it.
#[derive(Debug, Clone)]
struct Grid {
    /// Visible width of each cell's text.
    width: usize,
    /// Spaces before and after each cell's text in colour, where cells are not
    /// separated by a space but drawn on their background.
    pad: (usize, usize),
    /// Lines of column labels above the board, outermost first.
    header: Vec<Vec<String>>,
    /// Lines of column labels below the board, innermost first.
    footer: Vec<Vec<String>>,
    /// Rows from the top: the label on both sides and the cells.
    rows: Vec<(String, Vec<Cell>)>,
    /// A line of text (centred on the board) drawn after the row with this index.
    divider: Option<(usize, String)>,
}

impl Grid {
    fn columns(&self) -> usize {
        self.rows.first().map_or(0, |(_, cells)| cells.len())
    }

    fn label_width(&self) -> usize {
        self.rows
            .iter()
            .map(|(label, _)| visible_width(label))
            .max()
            .unwrap_or(0)
    }

    /// The visible width of the cells of a row, without labels.
    fn inner_width(&self, colours: Colours) -> usize {
        let n = self.columns();
        if colours == Colours::Off {
            (n * (self.width + 1)).saturating_sub(1)
        } else {
            n * (self.pad.0 + self.width + self.pad.1)
        }
    }

    fn render(&self, colours: Colours) -> Vec<String> {
        let lw = self.label_width();
        let mut lines = Vec::new();
        for labels in &self.header {
            lines.push(self.label_line(labels, lw, colours));
        }
        for (i, (label, cells)) in self.rows.iter().enumerate() {
            let mut line = format!("{}{label}", " ".repeat(lw - visible_width(label)));
            if colours != Colours::Off {
                line.push(' ');
            }
            for (j, cell) in cells.iter().enumerate() {
                if colours == Colours::Off {
                    // The space before a marked cell is `[`, the one after it `]`.
                    let after_marked = j > 0 && cells[j - 1].marked;
                    line.push(match (cell.marked, after_marked) {
                        (true, _) => '[',
                        (false, true) => ']',
                        (false, false) => ' ',
                    });
                    for (text, _) in &cell.parts {
                        line.push_str(text);
                    }
                } else {
                    let shade = if cell.marked {
                        Shade::Check
                    } else {
                        cell.shade
                    };
                    let bg = background(shade, colours);
                    line.push_str(&format!("\x1b[0;{bg}m{}", " ".repeat(self.pad.0)));
                    for (text, ink) in &cell.parts {
                        let fg = foreground(*ink, colours);
                        line.push_str(&format!("\x1b[0;{bg};{fg}m{text}"));
                    }
                    line.push_str(&format!("\x1b[0;{bg}m{}", " ".repeat(self.pad.1)));
                }
            }
            if colours != Colours::Off {
                line.push_str("\x1b[0m");
            }
            let last_marked = cells.last().is_some_and(|c| c.marked);
            line.push(if last_marked && colours == Colours::Off {
                ']'
            } else {
                ' '
            });
            line.push_str(label);
            lines.push(line);
            if let Some((after, text)) = &self.divider
                && *after == i
            {
                lines.push(self.divider_line(text, lw, colours));
            }
        }
        for labels in &self.footer {
            lines.push(self.label_line(labels, lw, colours));
        }
        lines
    }

    /// Column labels centred over the cells.
    fn label_line(&self, labels: &[String], lw: usize, colours: Colours) -> String {
        let mut line = " ".repeat(lw + 1);
        for (j, label) in labels.iter().enumerate() {
            let w = visible_width(label);
            let left = self.width.saturating_sub(w) / 2;
            let right = self.width.saturating_sub(w + left);
            if colours == Colours::Off {
                if j > 0 {
                    line.push(' ');
                }
            } else {
                line.push_str(&" ".repeat(self.pad.0));
            }
            line.push_str(&" ".repeat(left));
            line.push_str(label);
            line.push_str(&" ".repeat(right));
            if colours != Colours::Off {
                line.push_str(&" ".repeat(self.pad.1));
            }
        }
        line.trim_end().to_owned()
    }

    /// `text` centred across the cells, on the board's background in colour.
    fn divider_line(&self, text: &str, lw: usize, colours: Colours) -> String {
        let inner = self.inner_width(colours);
        let w = visible_width(text);
        let left = inner.saturating_sub(w) / 2;
        let right = inner.saturating_sub(w + left);
        let body = format!("{}{text}{}", " ".repeat(left), " ".repeat(right));
        let indent = " ".repeat(lw + 1);
        if colours == Colours::Off {
            format!("{indent}{body}").trim_end().to_owned()
        } else {
            let bg = background(Shade::Wood, colours);
            let fg = foreground(Ink::Faint, colours);
            format!("{indent}\x1b[0;{bg};{fg}m{body}\x1b[0m")
        }
    }
}

fn background(shade: Shade, colours: Colours) -> &'static str {
    match (colours, shade) {
        (Colours::Extended, Shade::Light) => "48;5;180",
        (Colours::Extended, Shade::Dark) => "48;5;137",
        (Colours::Extended, Shade::Wood) => "48;5;223",
        (Colours::Extended, Shade::Check) => "48;5;203",
        (_, Shade::Check) => "41",
        (_, Shade::Light) => "47",
        (_, Shade::Dark) => "42",
        (_, Shade::Wood) => "43",
    }
}

fn foreground(ink: Ink, colours: Colours) -> &'static str {
    match (colours, ink) {
        (Colours::Extended, Ink::White) => "1;38;5;231",
        (Colours::Extended, Ink::Black) => "1;38;5;16",
        (Colours::Extended, Ink::Red) => "1;38;5;160",
        (Colours::Extended, Ink::Faint) => "38;5;238",
        // In 16 colours the glyph's shape tells the sides apart (hollow and solid).
        (_, Ink::White | Ink::Black) => "30",
        (_, Ink::Red) => "1;31",
        (_, Ink::Faint) => "30",
    }
}

/// Columns a character takes in a terminal: two for CJK and full-width forms.
fn char_width(c: char) -> usize {
    let wide = matches!(u32::from(c),
        0x1100..=0x115F
        | 0x2E80..=0x303E
        | 0x3041..=0xA4CF
        | 0xAC00..=0xD7A3
        | 0xF900..=0xFAFF
        | 0xFE30..=0xFE4F
        | 0xFF00..=0xFF60
        | 0xFFE0..=0xFFE6
        | 0x20000..=0x3FFFD);
    if wide { 2 } else { 1 }
}

/// Columns `text` takes in a terminal, skipping ANSI colour sequences.
fn visible_width(text: &str) -> usize {
    let mut width = 0;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c == '\x1b' {
            // A CSI sequence ends with a letter.
            for d in chars.by_ref() {
                if d.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            width += char_width(c);
        }
    }
    width
}

/// `0..n` in drawing order: reversed when the board is turned round.
fn order(n: u8, reversed: bool) -> Vec<u8> {
    if reversed {
        (0..n).rev().collect()
    } else {
        (0..n).collect()
    }
}

/// An empty square: a faint middle dot, or `.` in ASCII.
fn empty_mark(style: BoardStyle) -> &'static str {
    if style.ascii { "." } else { "·" }
}

/// Level `level` of `board` as a grid of cells, turned round when the style says so.
fn level_grid(board: &BoardDescription, level: u8, style: BoardStyle) -> Grid {
    let columns = order(board.width, style.flipped);
    let rows_in_order = order(board.height, style.flipped);
    let number_at = |row: u8, column: u8| {
        board
            .numbers
            .iter()
            .find(|n| (n.place.level, n.place.row, n.place.column) == (level, row, column))
            .map(|n| n.number)
    };
    let piece_at = |row: u8, column: u8| {
        board
            .pieces
            .iter()
            .find(|p| (p.level, p.row, p.column) == (level, row, column))
    };
    let ink = |side: Side| match side {
        Side::White if board.first_side_red => Ink::Red,
        Side::White => Ink::White,
        Side::Black => Ink::Black,
    };
    let width = match board.pattern {
        Pattern::Checkered => 1,
        // A Chinese character (or a letter and a space) is two columns wide.
        Pattern::Points => 2,
        // A piece, then the square's number in two columns.
        Pattern::NumberedDarkSquares => 3,
    };
    let cell = |row: u8, column: u8| -> Cell {
        let piece = piece_at(row, column);
        let marked = board
            .in_check
            .is_some_and(|c| (c.level, c.row, c.column) == (level, row, column));
        match board.pattern {
            Pattern::Checkered => {
                // The first side's bottom-left square is dark.
                let dark =
                    (usize::from(board.height - 1 - row) + usize::from(column)).is_multiple_of(2);
                let shade = if dark { Shade::Dark } else { Shade::Light };
                match piece {
                    Some(p) => {
                        let glyph = if style.ascii { p.ascii } else { p.symbol };
                        Cell::new(glyph, ink(p.side), shade).marked_if(marked)
                    }
                    None => Cell::new(empty_mark(style), Ink::Faint, shade),
                }
            }
            Pattern::Points => match piece {
                Some(p) => {
                    let text = if style.ascii {
                        format!("{} ", p.ascii)
                    } else {
                        p.symbol.to_string()
                    };
                    Cell::new(text, ink(p.side), Shade::Wood).marked_if(marked)
                }
                None => Cell::new(
                    if style.ascii { ". " } else { "＋" },
                    Ink::Faint,
                    Shade::Wood,
                ),
            },
            Pattern::NumberedDarkSquares => match number_at(row, column) {
                Some(n) => {
                    let (mark, ink) = match piece {
                        Some(p) => {
                            let glyph = if style.ascii { p.ascii } else { p.symbol };
                            (glyph.to_string(), ink(p.side))
                        }
                        None => (" ".to_owned(), Ink::Faint),
                    };
                    Cell {
                        parts: vec![(mark, ink), (format!("{n:>2}"), Ink::Faint)],
                        shade: Shade::Dark,
                        marked,
                    }
                }
                None => Cell::new("   ", Ink::Faint, Shade::Light),
            },
        }
    };
    let rows = rows_in_order
        .iter()
        .map(|&row| {
            let label = board
                .row_labels
                .get(usize::from(row))
                .cloned()
                .unwrap_or_default();
            (
                label,
                columns.iter().map(|&column| cell(row, column)).collect(),
            )
        })
        .collect();
    let column_labels: Vec<String> = columns
        .iter()
        .filter_map(|&c| board.column_labels.get(usize::from(c)).cloned())
        .collect();
    let (mut header, mut footer) = (vec![column_labels.clone()], vec![column_labels]);
    if board.files_counted_per_side {
        // Each side counts from its own right: the top side's right is the viewer's
        // left, the bottom side's the viewer's right, whichever way the board is turned.
        header.insert(0, (1..=board.width).map(|n| n.to_string()).collect());
        footer.push((1..=board.width).rev().map(|n| n.to_string()).collect());
    }
    let divider = board.river.map(|river| {
        let after = if style.flipped {
            board
                .height
                .saturating_sub(2)
                .saturating_sub(river.below_row)
        } else {
            river.below_row
        };
        let text = if style.ascii { river.ascii } else { river.text };
        (usize::from(after), text.to_owned())
    });
    // Cells drawn on their background have a space before the piece; after it too,
    // except on points and where levels stand side by side, to keep the width down.
    let pad = if board.pattern == Pattern::Points || board.levels > 1 {
        (1, 0)
    } else {
        (1, 1)
    };
    Grid {
        width,
        pad,
        header,
        footer,
        rows,
        divider,
    }
}

/// The levels side by side under their titles, then the key to the symbols.
fn levels_side_by_side(board: &BoardDescription, style: BoardStyle) -> Vec<String> {
    const GAP: &str = "    ";
    let panels: Vec<Vec<String>> = (0..board.levels)
        .map(|level| {
            let grid = level_grid(board, level, style);
            let mut lines = grid.render(style.colours);
            let width = lines.iter().map(|l| visible_width(l)).max().unwrap_or(0);
            let title = format!("level {level}");
            let left = width.saturating_sub(title.len()) / 2;
            lines.insert(0, format!("{}{title}", " ".repeat(left)));
            lines
                .into_iter()
                .map(|l| {
                    let fill = width.saturating_sub(visible_width(&l));
                    format!("{l}{}", " ".repeat(fill))
                })
                .collect()
        })
        .collect();
    let height = panels.iter().map(Vec::len).max().unwrap_or(0);
    let mut lines: Vec<String> = (0..height)
        .map(|i| {
            panels
                .iter()
                .filter_map(|p| p.get(i).map(String::as_str))
                .collect::<Vec<_>>()
                .join(GAP)
                .trim_end()
                .to_owned()
        })
        .collect();
    if !style.ascii && !board.key.is_empty() {
        let key: Vec<String> = board
            .key
            .iter()
            .map(|k| format!("{}{} {} {}", k.white, k.black, k.letter, k.name))
            .collect();
        lines.push(key.join("  "));
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plain(game: &str, variant: Option<&str>, flipped: bool) -> String {
        let pos = AnyPosition::new(game, variant, None).expect("a catalog game");
        board_text(
            &pos,
            BoardStyle {
                flipped,
                ..BoardStyle::default()
            },
        )
    }

    #[test]
    fn chess_start() {
        let expected = "  a b c d e f g h
8 ♜ ♞ ♝ ♛ ♚ ♝ ♞ ♜ 8
7 ♟ ♟ ♟ ♟ ♟ ♟ ♟ ♟ 7
6 · · · · · · · · 6
5 · · · · · · · · 5
4 · · · · · · · · 4
3 · · · · · · · · 3
2 ♙ ♙ ♙ ♙ ♙ ♙ ♙ ♙ 2
1 ♖ ♘ ♗ ♕ ♔ ♗ ♘ ♖ 1
  a b c d e f g h
";
        assert_eq!(plain("chess", None, false), expected);
    }

    #[test]
    fn chess_flipped_after_e4() {
        let mut pos = AnyPosition::new("chess", None, None).expect("start");
        pos.play_text("e4").expect("legal");
        let style = BoardStyle {
            flipped: true,
            ascii: true,
            ..BoardStyle::default()
        };
        let expected = "  h g f e d c b a
1 R N B K Q B N R 1
2 P P P . P P P P 2
3 . . . . . . . . 3
4 . . . P . . . . 4
5 . . . . . . . . 5
6 . . . . . . . . 6
7 p p p p p p p p 7
8 r n b k q b n r 8
  h g f e d c b a
";
        assert_eq!(board_text(&pos, style), expected);
    }

    #[test]
    fn xiangqi_start() {
        let expected = "  1  2  3  4  5  6  7  8  9
  a  b  c  d  e  f  g  h  i
9 車 馬 象 士 將 士 象 馬 車 9
8 ＋ ＋ ＋ ＋ ＋ ＋ ＋ ＋ ＋ 8
7 ＋ 砲 ＋ ＋ ＋ ＋ ＋ 砲 ＋ 7
6 卒 ＋ 卒 ＋ 卒 ＋ 卒 ＋ 卒 6
5 ＋ ＋ ＋ ＋ ＋ ＋ ＋ ＋ ＋ 5
      楚 河        漢 界
4 ＋ ＋ ＋ ＋ ＋ ＋ ＋ ＋ ＋ 4
3 兵 ＋ 兵 ＋ 兵 ＋ 兵 ＋ 兵 3
2 ＋ 炮 ＋ ＋ ＋ ＋ ＋ 炮 ＋ 2
1 ＋ ＋ ＋ ＋ ＋ ＋ ＋ ＋ ＋ 1
0 俥 傌 相 仕 帥 仕 相 傌 俥 0
  a  b  c  d  e  f  g  h  i
  9  8  7  6  5  4  3  2  1
";
        assert_eq!(plain("xiangqi", None, false), expected);
    }

    #[test]
    fn english_draughts_start_shows_every_square_number() {
        let expected = "   a   b   c   d   e   f   g   h
8     ⛂ 1     ⛂ 2     ⛂ 3     ⛂ 4 8
7 ⛂ 5     ⛂ 6     ⛂ 7     ⛂ 8     7
6     ⛂ 9     ⛂10     ⛂11     ⛂12 6
5  13      14      15      16     5
4      17      18      19      20 4
3 ⛀21     ⛀22     ⛀23     ⛀24     3
2     ⛀25     ⛀26     ⛀27     ⛀28 2
1 ⛀29     ⛀30     ⛀31     ⛀32     1
   a   b   c   d   e   f   g   h
";
        assert_eq!(plain("draughts", Some("english"), false), expected);
    }

    #[test]
    fn international_draughts_start_and_italian_numbering() {
        let text = plain("draughts", Some("international"), false);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 12);
        assert_eq!(lines[0], "    a   b   c   d   e   f   g   h   i   j");
        assert_eq!(lines[1], "10     ⛂ 1     ⛂ 2     ⛂ 3     ⛂ 4     ⛂ 5 10");
        assert_eq!(lines[5], " 6      21      22      23      24      25 6");
        assert_eq!(lines[10], " 1 ⛀46     ⛀47     ⛀48     ⛀49     ⛀50     1");
        // Italian: a1 light, square 1 in the top-left corner, 32 in the bottom-right.
        let italian = plain("draughts", Some("italian"), false);
        let lines: Vec<&str> = italian.lines().collect();
        assert_eq!(lines[1], "8 ⛂ 1     ⛂ 2     ⛂ 3     ⛂ 4     8");
        assert_eq!(lines[8], "1     ⛀29     ⛀30     ⛀31     ⛀32 1");
    }

    #[test]
    fn draughts_flipped_keeps_numbers_turns_the_board() {
        let text = plain("draughts", Some("english"), true);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "   h   g   f   e   d   c   b   a");
        assert_eq!(lines[1], "1     ⛀32     ⛀31     ⛀30     ⛀29 1");
        assert_eq!(lines[8], "8 ⛂ 4     ⛂ 3     ⛂ 2     ⛂ 1     8");
    }

    #[test]
    fn xiangqi_flipped_keeps_the_river_and_the_side_numbers() {
        let text = plain("xiangqi", None, true);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "  1  2  3  4  5  6  7  8  9");
        assert_eq!(lines[1], "  i  h  g  f  e  d  c  b  a");
        assert_eq!(lines[2], "0 俥 傌 相 仕 帥 仕 相 傌 俥 0");
        assert_eq!(
            (lines[6], lines[7].trim()),
            ("4 ＋ ＋ ＋ ＋ ＋ ＋ ＋ ＋ ＋ 4", "楚 河        漢 界")
        );
        assert_eq!(lines[14], "  9  8  7  6  5  4  3  2  1");
    }

    #[test]
    fn chess3d_start_shows_three_levels() {
        let expected = "      level 0                level 1                level 2
  1 2 3 4 5 6 7 8        1 2 3 4 5 6 7 8        1 2 3 4 5 6 7 8
H ♜ ♞ ♝ · · ♝ ♞ ♜ H    H · · · ♛ ♚ · · · H    H ♜ ♞ ♝ · · ♝ ♞ ♜ H
G ♟ ♟ ♟ · · ♟ ♟ ♟ G    G · · · ♟ ♟ · · · G    G ♟ ♟ ♟ · · ♟ ♟ ♟ G
F · · · · · · · · F    F · · · · · · · · F    F · · · · · · · · F
E · · · · · · · · E    E · · · · · · · · E    E · · · · · · · · E
D · · · · · · · · D    D · · · · · · · · D    D · · · · · · · · D
C · · · · · · · · C    C · · · · · · · · C    C · · · · · · · · C
B ♙ ♙ ♙ · · ♙ ♙ ♙ B    B · · · ♙ ♙ · · · B    B ♙ ♙ ♙ · · ♙ ♙ ♙ B
A ♖ ♘ ♗ · · ♗ ♘ ♖ A    A · · · ♕ ♔ · · · A    A ♖ ♘ ♗ · · ♗ ♘ ♖ A
  1 2 3 4 5 6 7 8        1 2 3 4 5 6 7 8        1 2 3 4 5 6 7 8
♙♟ P peón  ♗♝ A alfil  ♘♞ C caballo  ♖♜ T torre  ♕♛ D dama  ♔♚ R rey
";
        assert_eq!(plain("chess3d", None, false), expected);
    }

    #[test]
    fn colours_wrap_cells_in_escapes_and_keep_the_text() {
        let pos = AnyPosition::new("xiangqi", None, None).expect("start");
        for colours in [Colours::Basic, Colours::Extended] {
            let text = board_text(
                &pos,
                BoardStyle {
                    colours,
                    ..BoardStyle::default()
                },
            );
            assert!(text.contains("\x1b["), "{colours:?}");
            assert!(text.contains('帥') && text.contains('將'));
            let widths: Vec<usize> = text
                .lines()
                .filter(|l| l.contains('\x1b') && l.ends_with(|c: char| c.is_ascii_digit()))
                .map(visible_width)
                .collect();
            assert!(widths.windows(2).all(|w| w[0] == w[1]), "{widths:?}");
        }
        let plain = board_text(&pos, BoardStyle::default());
        assert!(!plain.contains('\x1b'));
        assert!(plain.lines().all(|l| !l.ends_with(' ')));
    }

    #[test]
    fn ascii_uses_position_letters() {
        let pos = AnyPosition::new("xiangqi", None, None).expect("start");
        let style = BoardStyle {
            ascii: true,
            ..BoardStyle::default()
        };
        let text = board_text(&pos, style);
        assert!(text.is_ascii(), "{text}");
        assert!(text.contains("9 r  n  b  a  k  a  b  n  r  9"), "{text}");
        let pos = AnyPosition::new("chess3d", None, None).expect("start");
        assert!(board_text(&pos, style).is_ascii());
    }

    #[test]
    fn a_king_or_general_in_check_is_marked() {
        let mut pos = AnyPosition::new("chess", None, None).expect("start");
        for m in ["e4", "f5", "Qh5+"] {
            pos.play_text(m).expect("legal");
        }
        let text = board_text(&pos, BoardStyle::default());
        assert!(text.contains("8 ♜ ♞ ♝ ♛[♚]♝ ♞ ♜ 8"), "{text}");
        let coloured = board_text(
            &pos,
            BoardStyle {
                colours: Colours::Basic,
                ..BoardStyle::default()
            },
        );
        assert!(coloured.contains("\x1b[0;41;30m♚"), "{coloured:?}");
        // The last cell of a row closes its bracket where the row's label begins.
        let fen = "7k/8/8/8/8/8/8/K6R b - - 0 1";
        let pos = AnyPosition::new("chess", None, Some(fen)).expect("valid");
        assert!(board_text(&pos, BoardStyle::default()).contains(" ·[♚]8"));
        let fen = "4k4/9/9/9/4R4/9/9/9/9/3K5 b - - 0 1";
        let pos = AnyPosition::new("xiangqi", None, Some(fen)).expect("valid");
        let text = board_text(&pos, BoardStyle::default());
        assert!(text.contains("9 ＋ ＋ ＋ ＋[將]＋ ＋ ＋ ＋ 9"), "{text}");
        let unmarked = AnyPosition::new("chess", None, None).expect("start");
        assert!(!board_text(&unmarked, BoardStyle::default()).contains('['));
    }

    #[test]
    fn widths_count_wide_characters_and_skip_escapes() {
        assert_eq!(visible_width("a車＋"), 5);
        assert_eq!(visible_width("\x1b[0;48;5;223mab\x1b[0m"), 2);
    }
}
