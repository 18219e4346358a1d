//! Numeric Annotation Glyphs: `$n` and the glyphs that stand for them (`!`, `?!`, `+-`).

use core::fmt;

/// A Numeric Annotation Glyph, written `$n` (0 to 255).
///
/// The move-suffix glyphs read as NAGs 1 to 6 (`!` good, `?` mistake, `!!` brilliant,
/// `??` blunder, `!?` interesting, `?!` dubious); the writer always prints `$n`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Nag(pub u8);

impl Nag {
    /// `$1`, `!`: a good move.
    pub const GOOD_MOVE: Nag = Nag(1);
    /// `$2`, `?`: a mistake.
    pub const MISTAKE: Nag = Nag(2);
    /// `$3`, `!!`: a brilliant move.
    pub const BRILLIANT_MOVE: Nag = Nag(3);
    /// `$4`, `??`: a blunder.
    pub const BLUNDER: Nag = Nag(4);
    /// `$5`, `!?`: an interesting move.
    pub const SPECULATIVE_MOVE: Nag = Nag(5);
    /// `$6`, `?!`: a dubious move.
    pub const DUBIOUS_MOVE: Nag = Nag(6);

    /// The NAG of a glyph written right after a move: `!` 1, `?` 2, `!!` 3, `??` 4,
    /// `!?` 5, `?!` 6.
    #[must_use]
    pub fn from_move_suffix(glyph: &str) -> Option<Nag> {
        Some(match glyph {
            "!" => Nag::GOOD_MOVE,
            "?" => Nag::MISTAKE,
            "!!" => Nag::BRILLIANT_MOVE,
            "??" => Nag::BLUNDER,
            "!?" => Nag::SPECULATIVE_MOVE,
            "?!" => Nag::DUBIOUS_MOVE,
            _ => return None,
        })
    }

    /// The NAG of a stand-alone glyph: the move suffixes, and the usual signs for an
    /// assessment of the position (`=` 10, `∞` 13, `+/=` 14, `=/+` 15, `+/-` 16,
    /// `-/+` 17, `+-` 18, `-+` 19), in ASCII or as the Unicode signs.
    #[must_use]
    pub fn from_glyph(glyph: &str) -> Option<Nag> {
        if let Some(nag) = Nag::from_move_suffix(glyph) {
            return Some(nag);
        }
        Some(Nag(match glyph {
            "\u{25a1}" => 7,
            "=" => 10,
            "\u{221e}" => 13,
            "+=" | "+/=" | "\u{2a72}" => 14,
            "=+" | "=/+" | "\u{2a71}" => 15,
            "+/-" | "\u{b1}" => 16,
            "-/+" | "\u{2213}" => 17,
            "+-" | "+\u{2212}" => 18,
            "-+" | "\u{2212}+" => 19,
            "\u{2a00}" => 22,
            _ => return None,
        }))
    }
}

impl fmt::Display for Nag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "${}", self.0)
    }
}
