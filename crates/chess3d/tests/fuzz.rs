//! The fuzz entry points never panic: fixed tricky inputs, random text, and random
//! mutations of valid strings (the same checks cargo-fuzz runs for longer).

use proptest::prelude::*;
use tablero_chess3d::{START_POSITION, fuzz};

const TRICKY: [&str; 24] = [
    "",
    " ",
    "-",
    "--",
    "0",
    "0-",
    "0B5-",
    "-0B5",
    "P",
    "P-",
    "P--",
    "P-0-",
    "P-0-C",
    "é-0-C4",
    "P-é-C4",
    "0é5-0C5",
    "0B5-0C5",
    "p-1-f5",
    "R-2-H5",
    "0ß5-0C5",
    "\u{0}",
    "8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8 w 99999999999 1 0000000000000000",
    "8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8 w 0 0 0000000000000000",
    "|||| w 0 1 0000000000000000",
];

fn all(text: &str) {
    fuzz::position_string(text);
    fuzz::coordinate_move(text);
    fuzz::short_move(text);
    fuzz::any_move(text);
}

#[test]
fn tricky_inputs() {
    for text in TRICKY {
        all(text);
    }
    all(START_POSITION);
    for pos in fuzz::positions() {
        for &m in &pos.legal_moves() {
            all(&pos.coordinate(m));
            all(&pos.short(m).to_lowercase());
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn random_text(text in any::<String>()) {
        all(&text);
    }

    #[test]
    fn move_shaped_text(text in "[0-3PpAaCcTtDdRrXx][A-Ia-i0-9-]{0,6}") {
        all(&text);
    }

    #[test]
    fn mutated_position_strings(index in 0usize..200, byte in any::<u8>(), cut in 0usize..220) {
        let mut bytes = START_POSITION.as_bytes().to_vec();
        if index < bytes.len() {
            bytes[index] = byte;
        }
        bytes.truncate(cut.max(1));
        all(&String::from_utf8_lossy(&bytes));
        all(&String::from_utf8_lossy(&START_POSITION.as_bytes()[..cut.min(START_POSITION.len())]));
    }
}
