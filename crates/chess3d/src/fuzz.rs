//! Entry points for fuzz targets: each takes any text, must never panic on it, and
//! checks the round-trip invariants of one parser, panicking only if one breaks. A
//! cargo-fuzz target is a one-liner around them:
//!
//! ```
//! // fuzz_target!(|data: &[u8]| if let Ok(text) = std::str::from_utf8(data) {
//! //     tablero_chess3d::fuzz::position_string(text)
//! // });
//! tablero_chess3d::fuzz::position_string("8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|8/8 w 0 1 0");
//! tablero_chess3d::fuzz::coordinate_move("0B5-0C5");
//! tablero_chess3d::fuzz::short_move("p-1-F5");
//! ```

use crate::{Chess3d, Chess3dMove, Chess3dMoveError, Kind, START_POSITION};

/// Position strings (§8). Text that parses must print a string that parses to the
/// same position and prints the same again.
pub fn position_string(text: &str) {
    let Ok(pos) = Chess3d::from_position_string(text) else {
        return;
    };
    let printed = pos.position_string();
    let again = Chess3d::from_position_string(&printed)
        .unwrap_or_else(|e| panic!("{text:?} printed {printed:?}, which fails: {e}"));
    assert_eq!(again, pos, "{text:?} printed {printed:?}");
    assert_eq!(again.position_string(), printed, "printing is not stable");
    assert_eq!(pos.key(), pos.compute_key());
}

/// The coordinate form (§6), resolved against the positions of [`positions`].
pub fn coordinate_move(text: &str) {
    check_move(text, Chess3dMove::parse_coordinate(text));
}

/// The short form (§6), resolved against the positions of [`positions`].
pub fn short_move(text: &str) {
    check_move(text, Chess3dMove::parse_short(text));
}

/// Either form, as [`Chess3d::parse_move`] reads it.
pub fn any_move(text: &str) {
    check_move(text, text.parse());
}

/// The positions moves are resolved against: the start, a position with promotions on
/// every level for both sides, and a finished one (no white dama).
#[must_use]
pub fn positions() -> [Chess3d; 3] {
    [
        START_POSITION,
        "8/p3t1PA/c7/2a5/1Pp5/P1P2PP1/5C2/6CA|6t1/a4d2/2p1p3/2t5/7T/8/1D6/8|6c1/8/1pp3p1/P1aaA3/2P4P/7t/P2A1CP1/6CT w 1 123 f35acf758b592cff",
        "tc1a2ct/pp4p1/2p2p2/6p1/5P2/6a1/PPP3PP/1C1A1ACT|8/3pp3/1d6/8/5T2/7R/2rPP3/7T|1ca2act/p1p2pp1/7p/1p6/1P1A4/6P1/P1P2PtP/TC3AC1 w 0 25 bca899793710000b",
    ]
    .map(|text| Chess3d::from_position_string(text).expect("fixed valid position strings"))
}

fn check_move(text: &str, parsed: Result<Chess3dMove, Chess3dMoveError>) {
    let Ok(parsed) = parsed else {
        return;
    };
    let printed = parsed.to_string();
    assert_eq!(
        printed.parse::<Chess3dMove>().as_ref(),
        Ok(&parsed),
        "{text:?} printed {printed:?}"
    );
    assert!(
        printed.eq_ignore_ascii_case(text),
        "{text:?} printed {printed:?}"
    );
    for pos in positions() {
        let Ok(m) = parsed.to_move(&pos) else {
            continue;
        };
        assert!(pos.is_legal(m), "{text:?} resolved to illegal {m}");
        assert_eq!(pos.parse_move(&pos.coordinate(m)), Ok(m));
        let kind: Option<Kind> = pos.board().kind_at(m.from());
        let first = pos
            .legal_moves()
            .iter()
            .copied()
            .find(|o| o.to() == m.to() && pos.board().kind_at(o.from()) == kind);
        assert_eq!(pos.parse_move(&pos.short(m)).ok(), first);
        let mut after = pos.clone();
        let undo = after.play_with_undo(m);
        assert_eq!(after.key(), after.compute_key());
        after.undo(undo);
        assert_eq!(after, pos);
    }
}
