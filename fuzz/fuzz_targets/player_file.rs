//! Any UTF-8 text as a player file (`Name_Won_Lost;` records). The parser must not
//! panic; a file it takes must hold valid, distinct names and print as records that
//! read back to the same entries; a refused file names a record that exists.

#![no_main]

use std::collections::HashSet;

use libfuzzer_sys::fuzz_target;
use tablero_store::player_file::{PlayerFileError, check_player_name, parse_player_file};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match parse_player_file(text) {
        Ok(entries) => {
            assert!(!entries.is_empty());
            let mut names = HashSet::new();
            for entry in &entries {
                assert!(check_player_name(&entry.name).is_ok(), "{entry:?}");
                assert!(names.insert(entry.name.clone()), "duplicate {entry:?}");
            }
            let printed: String = entries.iter().map(ToString::to_string).collect();
            assert_eq!(parse_player_file(&printed).as_ref(), Ok(&entries));
        }
        Err(PlayerFileError::Empty) => {
            assert!(
                text.chars()
                    .all(|c| c == ';' || c.is_whitespace() || c == '\u{feff}')
            );
        }
        Err(error @ PlayerFileError::Record { record, .. }) => {
            assert!(record >= 1 && record <= text.split(';').count(), "{error}");
            assert!(!error.to_string().is_empty());
        }
    }
});
