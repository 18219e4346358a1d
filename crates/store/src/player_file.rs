//! The player file of the 3D-chess assignment: `Name_Won_Lost;` records.
//!
//! Records are separated by `;` with any white space between them:
//! `juanca77_10_4; carlosfp81_7_6; amaya92_12_1;`. A name is 1–32 letters, digits,
//! `.` or `-`; the counts are whole numbers from 0. The last `;` may be left out. A
//! file is taken whole or not at all: [`parse_player_file`] returns every record or
//! the first bad one, by number (from 1) and reason.

use std::fmt;

/// The longest name, in characters.
pub const MAX_NAME_CHARS: usize = 32;

/// How much of a bad record an error quotes, in characters.
const QUOTE_CHARS: usize = 40;

/// One record of a player file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayerFileEntry {
    /// The player's name.
    pub name: String,
    /// Games won.
    pub won: u32,
    /// Games lost.
    pub lost: u32,
}

impl fmt::Display for PlayerFileEntry {
    /// The record as the file writes it, with its `;`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}_{}_{};", self.name, self.won, self.lost)
    }
}

/// Why a player file was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlayerFileError {
    /// Nothing but white space and `;`.
    #[error("the file holds no record (expected records like juanca77_10_4;)")]
    Empty,
    /// A record is malformed.
    #[error("record {record} {text:?}: {reason}")]
    Record {
        /// The record's number, from 1.
        record: usize,
        /// The record as written (white space around it removed, cut after 40
        /// characters).
        text: String,
        /// What is wrong with it.
        reason: RecordError,
    },
}

/// What is wrong with one record.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    /// Two `;` with only white space between.
    #[error("empty record (nothing between two ';')")]
    Empty,
    /// Not three fields separated by `_`.
    #[error("expected Name_Won_Lost (3 fields separated by '_'), found {0} field(s)")]
    Fields(usize),
    /// The name is empty or longer than 32 characters.
    #[error("name {name:?} has {chars} characters: expected 1 to 32")]
    NameLength {
        /// The name.
        name: String,
        /// Its length in characters.
        chars: usize,
    },
    /// The name holds a character other than a letter, digit, `.` or `-`.
    #[error("name {name:?}: {found:?} is not allowed (letters, digits, '.' and '-' only)")]
    NameCharacter {
        /// The name.
        name: String,
        /// The first character not allowed.
        found: char,
    },
    /// A count is not a whole number from 0 to 4294967295.
    #[error("games {field} {value:?}: expected a whole number from 0 to 4294967295")]
    Count {
        /// `won` or `lost`.
        field: &'static str,
        /// The text found.
        value: String,
    },
    /// The name was in an earlier record of the same file.
    #[error("name {name:?} is already in record {first}")]
    Duplicate {
        /// The name.
        name: String,
        /// The earlier record's number.
        first: usize,
    },
}

/// Whether `name` is a valid player name: 1–32 letters, digits, `.` or `-`.
///
/// # Errors
///
/// [`RecordError::NameLength`] or [`RecordError::NameCharacter`].
pub fn check_player_name(name: &str) -> Result<(), RecordError> {
    let chars = name.chars().count();
    if !(1..=MAX_NAME_CHARS).contains(&chars) {
        return Err(RecordError::NameLength {
            name: name.to_owned(),
            chars,
        });
    }
    match name
        .chars()
        .find(|&c| !(c.is_alphanumeric() || c == '.' || c == '-'))
    {
        Some(found) => Err(RecordError::NameCharacter {
            name: name.to_owned(),
            found,
        }),
        None => Ok(()),
    }
}

/// Reads a whole player file.
///
/// # Errors
///
/// [`PlayerFileError::Empty`] for a file without records, otherwise the first bad
/// record with its number and reason.
pub fn parse_player_file(text: &str) -> Result<Vec<PlayerFileEntry>, PlayerFileError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if text.chars().all(|c| c == ';' || c.is_whitespace()) {
        return Err(PlayerFileError::Empty);
    }
    let segments: Vec<&str> = text.split(';').collect();
    let last = segments.len() - 1;
    let mut entries: Vec<PlayerFileEntry> = Vec::new();
    let mut first_record: std::collections::HashMap<String, usize> =
        std::collections::HashMap::new();
    for (index, segment) in segments.iter().enumerate() {
        let record = index + 1;
        let trimmed = segment.trim();
        if trimmed.is_empty() {
            // Only after the last `;` (or in a file of white space) is nothing allowed.
            if index == last {
                break;
            }
            return Err(bad(record, trimmed, RecordError::Empty));
        }
        let entry = parse_record(trimmed).map_err(|reason| bad(record, trimmed, reason))?;
        if let Some(&first) = first_record.get(entry.name.as_str()) {
            let reason = RecordError::Duplicate {
                name: entry.name.clone(),
                first,
            };
            return Err(bad(record, trimmed, reason));
        }
        first_record.insert(entry.name.clone(), record);
        entries.push(entry);
    }
    Ok(entries)
}

fn bad(record: usize, text: &str, reason: RecordError) -> PlayerFileError {
    let mut quoted: String = text.chars().take(QUOTE_CHARS).collect();
    if text.chars().nth(QUOTE_CHARS).is_some() {
        quoted.push('…');
    }
    PlayerFileError::Record {
        record,
        text: quoted,
        reason,
    }
}

fn parse_record(text: &str) -> Result<PlayerFileEntry, RecordError> {
    let fields: Vec<&str> = text.split('_').collect();
    let [name, won, lost] = fields.as_slice() else {
        return Err(RecordError::Fields(fields.len()));
    };
    check_player_name(name)?;
    Ok(PlayerFileEntry {
        name: (*name).to_owned(),
        won: count("won", won)?,
        lost: count("lost", lost)?,
    })
}

fn count(field: &'static str, value: &str) -> Result<u32, RecordError> {
    let bad = || RecordError::Count {
        field,
        value: value.to_owned(),
    };
    if value.is_empty() || !value.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad());
    }
    value.parse().map_err(|_| bad())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(name: &str, won: u32, lost: u32) -> PlayerFileEntry {
        PlayerFileEntry {
            name: name.to_owned(),
            won,
            lost,
        }
    }

    #[test]
    fn the_assignment_example() {
        let file = "juanca77_10_4; carlosfp81_7_6; amaya92_12_1; jdark96_11_0;";
        assert_eq!(
            parse_player_file(file),
            Ok(vec![
                entry("juanca77", 10, 4),
                entry("carlosfp81", 7, 6),
                entry("amaya92", 12, 1),
                entry("jdark96", 11, 0),
            ])
        );
    }

    #[test]
    fn white_space_bom_and_a_missing_last_semicolon() {
        let file = "\u{feff}\n  ana.b-1_0_0;\r\n\tÑandú_3_2\n";
        assert_eq!(
            parse_player_file(file),
            Ok(vec![entry("ana.b-1", 0, 0), entry("Ñandú", 3, 2)])
        );
        assert_eq!(
            parse_player_file(&format!("{}_1_2;", "x".repeat(32))),
            Ok(vec![entry(&"x".repeat(32), 1, 2)])
        );
    }

    fn reason(file: &str) -> (usize, RecordError) {
        match parse_player_file(file) {
            Err(PlayerFileError::Record { record, reason, .. }) => (record, reason),
            other => panic!("{file:?}: expected a bad record, got {other:?}"),
        }
    }

    #[test]
    fn bad_records_are_named_by_number_and_reason() {
        assert_eq!(reason("a_1_2; b_1; c_0_0;"), (2, RecordError::Fields(2)));
        assert_eq!(reason("a_1_2_3;"), (1, RecordError::Fields(4)));
        assert_eq!(reason("a_1_2;; b_0_0;"), (2, RecordError::Empty));
        assert_eq!(
            reason("a_1_2; b c_1_1;"),
            (
                2,
                RecordError::NameCharacter {
                    name: "b c".into(),
                    found: ' '
                }
            )
        );
        assert_eq!(
            reason("_1_1;"),
            (
                1,
                RecordError::NameLength {
                    name: String::new(),
                    chars: 0
                }
            )
        );
        assert_eq!(
            reason(&format!("{}_1_1;", "y".repeat(33))),
            (
                1,
                RecordError::NameLength {
                    name: "y".repeat(33),
                    chars: 33
                }
            )
        );
        assert_eq!(
            reason("a_-1_2;"),
            (
                1,
                RecordError::Count {
                    field: "won",
                    value: "-1".into()
                }
            )
        );
        assert_eq!(
            reason("a_1_+2;"),
            (
                1,
                RecordError::Count {
                    field: "lost",
                    value: "+2".into()
                }
            )
        );
        assert_eq!(
            reason("a_1_4294967296;"),
            (
                1,
                RecordError::Count {
                    field: "lost",
                    value: "4294967296".into()
                }
            )
        );
        assert_eq!(
            reason("a_1_2; b_0_0; a_3_3;"),
            (
                3,
                RecordError::Duplicate {
                    name: "a".into(),
                    first: 1
                }
            )
        );
        assert_eq!(parse_player_file("  ;"), Err(PlayerFileError::Empty));
        assert_eq!(parse_player_file(""), Err(PlayerFileError::Empty));
    }

    #[test]
    fn messages_quote_the_record() {
        let error = parse_player_file("a_1_2;\n zz_x_1 ;")
            .err()
            .map(|e| e.to_string());
        assert_eq!(
            error.as_deref(),
            Some(
                "record 2 \"zz_x_1\": games won \"x\": expected a whole number from 0 to 4294967295"
            )
        );
        let long = "q".repeat(100);
        let error = parse_player_file(&long).err().map(|e| e.to_string());
        assert_eq!(
            error.as_deref(),
            Some(&*format!(
                "record 1 \"{}…\": expected Name_Won_Lost (3 fields separated by '_'), found 1 field(s)",
                "q".repeat(40)
            ))
        );
    }

    #[test]
    fn entries_print_as_records() {
        let entries = vec![entry("a", 1, 2), entry("b.c", 0, 7)];
        let text: String = entries.iter().map(ToString::to_string).collect();
        assert_eq!(text, "a_1_2;b.c_0_7;");
        assert_eq!(parse_player_file(&text), Ok(entries));
    }
}
