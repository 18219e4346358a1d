//! Tag pairs: the Seven Tag Roster, the start position from `FEN`/`SetUp`/`Variant`,
//! and the canonical tag list the writer prints.

use std::collections::HashSet;

use super::{GameResult, PgnErrorKind};
use crate::{CastlingMode, Chess, FenError, START_FEN};

/// The Seven Tag Roster with the values written when a tag is missing, in the order
/// PGN requires them first.
pub const SEVEN_TAG_ROSTER: [(&str, &str); 7] = [
    ("Event", "?"),
    ("Site", "?"),
    ("Date", "????.??.??"),
    ("Round", "?"),
    ("White", "?"),
    ("Black", "?"),
    ("Result", "*"),
];

/// The value of the first tag called `name`.
pub(crate) fn lookup<'a>(tags: &'a [(String, String)], name: &str) -> Option<&'a str> {
    tags.iter()
        .find(|(n, _)| n == name)
        .map(|(_, v)| v.as_str())
}

/// A `Variant` value folded for comparison: lowercase letters and digits only.
fn fold(variant: &str) -> String {
    variant
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

/// Whether a `Variant` tag value names Chess960 (`Chess960`, `chess 960`,
/// `Fischerandom`, `Fischer Random`, `FRC`..., any case).
#[must_use]
pub(crate) fn is_chess960_name(variant: &str) -> bool {
    matches!(
        fold(variant).as_str(),
        "chess960"
            | "960"
            | "fischerandom"
            | "fischerrandom"
            | "fischerandomchess"
            | "fischerrandomchess960"
            | "frc"
    )
}

/// Whether a `Variant` tag value names standard chess (`Standard`, `From Position`...).
#[must_use]
fn is_standard_name(variant: &str) -> bool {
    matches!(
        fold(variant).as_str(),
        "" | "standard" | "chess" | "normal" | "classical" | "orthodox" | "fromposition"
    )
}

/// The start position the tags describe: the `FEN` tag if there is one (with or
/// without `SetUp`), else the standard start; Chess960 castling if `Variant` names it,
/// or, without a `Variant` tag, if the FEN's castling rights only make sense in
/// Chess960 (X-FEN or Shredder-FEN rights on rooks that are not in the corners).
pub(crate) fn start_from_tags(tags: &[(String, String)]) -> Result<Chess, PgnErrorKind> {
    let mode = match lookup(tags, "Variant") {
        None => None,
        Some(v) if is_chess960_name(v) => Some(CastlingMode::Chess960),
        Some(v) if is_standard_name(v) => Some(CastlingMode::Standard),
        Some(v) => return Err(PgnErrorKind::UnknownVariant(v.to_owned())),
    };
    let fen = lookup(tags, "FEN")
        .map(str::trim)
        .filter(|f| !f.is_empty())
        .unwrap_or(START_FEN);
    let bad = |error| PgnErrorKind::BadFen {
        fen: fen.to_owned(),
        error,
    };
    let start = match mode {
        Some(mode) => Chess::from_fen(fen, mode).map_err(bad)?,
        None => Chess::from_fen(fen, CastlingMode::Standard).or_else(|standard_error| {
            Chess::from_fen(fen, CastlingMode::Chess960).map_err(|_| bad(standard_error))
        })?,
    };
    // Counters that the moves of a game could carry past u32::MAX are refused, so that
    // playing on from them cannot overflow.
    if start.halfmoves() > MAX_COUNTER {
        return Err(bad(FenError::Halfmoves(start.halfmoves().to_string())));
    }
    if start.fullmoves() > MAX_COUNTER {
        return Err(bad(FenError::Fullmoves(start.fullmoves().to_string())));
    }
    Ok(start)
}

/// The largest halfmove clock or fullmove number a `FEN` tag may give: far beyond any
/// game, and far enough below `u32::MAX` that no game's plies can overflow it.
const MAX_COUNTER: u32 = u32::MAX / 2;

/// The tags as the writer prints them: the Seven Tag Roster first, in order, with
/// defaults for missing ones and `Result` from `result`; then the other tags in their
/// order (the first of duplicates), where `FEN` and `SetUp "1"` appear only if the
/// start is not the standard position (the FEN then being `start`'s) and `Variant`
/// names Chess960 exactly when `start` uses Chess960 castling. Tags that are needed but
/// missing are inserted right after the roster.
pub(crate) fn normalize(
    tags: &[(String, String)],
    start: &Chess,
    result: GameResult,
) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::with_capacity(tags.len() + 10);
    for (name, default) in SEVEN_TAG_ROSTER {
        let value = if name == "Result" {
            result.as_str()
        } else {
            lookup(tags, name).unwrap_or(default)
        };
        out.push((name.to_owned(), value.to_owned()));
    }
    let roster_end = out.len();
    let chess960 = start.castling_mode() == CastlingMode::Chess960;
    let setup = chess960 || *start != Chess::new();
    let (mut has_variant, mut has_setup, mut has_fen) = (false, false, false);
    let mut seen: HashSet<&str> = SEVEN_TAG_ROSTER.iter().map(|(n, _)| *n).collect();
    for (name, value) in tags {
        if name.is_empty() || !seen.insert(name) {
            continue;
        }
        match name.as_str() {
            "Variant" if chess960 => {
                let value = if is_chess960_name(value) {
                    value.as_str()
                } else {
                    "Chess960"
                };
                out.push((name.clone(), value.to_owned()));
                has_variant = true;
            }
            "Variant" => {
                if is_standard_name(value) {
                    out.push((name.clone(), value.clone()));
                }
            }
            "SetUp" => {
                if setup {
                    out.push((name.clone(), "1".to_owned()));
                    has_setup = true;
                }
            }
            "FEN" => {
                if setup {
                    out.push((name.clone(), start.fen()));
                    has_fen = true;
                }
            }
            _ => out.push((name.clone(), value.clone())),
        }
    }
    let mut missing = Vec::new();
    if chess960 && !has_variant {
        missing.push(("Variant".to_owned(), "Chess960".to_owned()));
    }
    if setup && !has_setup {
        missing.push(("SetUp".to_owned(), "1".to_owned()));
    }
    if setup && !has_fen {
        missing.push(("FEN".to_owned(), start.fen()));
    }
    out.splice(roster_end..roster_end, missing);
    out
}
