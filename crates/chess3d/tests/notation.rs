//! Move notation (§6): both forms, case-insensitive input, the scan-order tie rule of
//! the short form, and errors that name the wrong part.

mod common;

use common::place;
use tablero_chess3d::{Chess3d, Chess3dMove, Chess3dMoveError, Kind, Move, MovePart, Side, Square};

fn sq(name: &str) -> Square {
    name.parse().expect("test square")
}

#[test]
fn coordinate_form() {
    let parsed: Chess3dMove = "0B5-0C5".parse().expect("valid");
    assert_eq!(
        parsed,
        Chess3dMove::Coordinate {
            from: sq("0B5"),
            to: sq("0C5")
        }
    );
    assert_eq!("0b5-0c5".parse::<Chess3dMove>(), Ok(parsed));
    assert_eq!(parsed.to_string(), "0B5-0C5");
    assert_eq!(
        "0a1-1A1".parse::<Chess3dMove>().map(|m| m.to_string()),
        Ok("0A1-1A1".to_owned())
    );
    let m = Move::new(sq("0A1"), sq("1A1"));
    assert_eq!(m.to_string(), "0A1-1A1");
    assert_eq!(Chess3dMove::coordinate(m).to_string(), "0A1-1A1");
    assert!(m.is_level_move());
}

#[test]
fn short_form() {
    for (text, kind, to) in [
        ("P-0-C4", Kind::Peon, "0C4"),
        ("T-1-H6", Kind::Torre, "1H6"),
        ("R-2-B3", Kind::Rey, "2B3"),
        ("a-0-a1", Kind::Alfil, "0A1"),
        ("c-2-h8", Kind::Caballo, "2H8"),
        ("d-1-D4", Kind::Dama, "1D4"),
    ] {
        let parsed: Chess3dMove = text.parse().expect("valid");
        assert_eq!(parsed, Chess3dMove::Short { kind, to: sq(to) });
        assert_eq!(parsed.to_string(), text.to_ascii_uppercase());
    }
}

#[test]
fn moves_of_the_start_position_in_both_forms() {
    let pos = Chess3d::start(0);
    let m = pos.parse_move("1G5-1F5").expect("black pawn step");
    assert_eq!(pos.parse_move("p-1-f5"), Ok(m));
    assert_eq!(pos.parse_move("P-1-F5"), Ok(m));
    assert_eq!(pos.short(m), "P-1-F5");
    assert_eq!(pos.coordinate(m), "1G5-1F5");
    // A level move in short form.
    let m = pos.parse_move("R-2-H5").expect("rey level move");
    assert_eq!(m, Move::new(sq("1H5"), sq("2H5")));
    assert_eq!(pos.short(m), "R-2-H5");
    // The start position already has ties: both alfiles of row H on level 0 reach H4
    // and H5, and the short form means the one on H3, first in scan order.
    assert_eq!(pos.parse_move("A-0-H4"), pos.parse_move("0H3-0H4"));
    assert_eq!(pos.parse_move("A-0-H5"), pos.parse_move("0H3-0H5"));
    let h6 = pos.parse_move("0H6-0H4").expect("legal");
    assert_eq!(pos.short(h6), "A-0-H4");
    // And the torres of levels 0 and 2 both have the level move to 1-H1 (and 1-H8).
    assert_eq!(pos.parse_move("T-1-H1"), pos.parse_move("0H1-1H1"));
    // Every legal move round-trips through the coordinate form, and through the
    // short form unless an earlier piece of the same kind reaches the same square.
    let ties = [
        "0H6-0H4", "0H6-0H5", "2H6-2H4", "2H6-2H5", "2H1-1H1", "2H8-1H8",
    ];
    for &m in &pos.legal_moves() {
        assert_eq!(pos.parse_move(&pos.coordinate(m)), Ok(m));
        if !ties.contains(&pos.coordinate(m).as_str()) {
            assert_eq!(pos.parse_move(&pos.short(m)), Ok(m), "{m}");
        }
    }
}

#[test]
fn short_form_ties_go_to_the_first_source_in_scan_order() {
    // Two torres on row B (partners, so they also have level moves) both reach 0-D4:
    // B2 comes before B6 in scan order.
    let pos = place(
        Side::White,
        0,
        &[("0B2", 'T'), ("0B6", 'T'), ("2A1", 'D'), ("2H8", 'd')],
    );
    let first = Move::new(sq("0B2"), sq("0D4"));
    let second = Move::new(sq("0B6"), sq("0D4"));
    assert!(pos.is_legal(first) && pos.is_legal(second));
    assert_eq!(pos.parse_move("T-0-D4"), Ok(first));
    assert_eq!(pos.short(second), "T-0-D4");
    assert_eq!(
        pos.parse_move(&pos.short(second)),
        Ok(first),
        "lossy by design"
    );
    assert_eq!(pos.parse_move("0B6-0D4"), Ok(second));

    // Level before row: the rey on 0-D4 (level move up) comes before the rey on 1-A1
    // (diagonal slide), though A is the lower row.
    let pos = place(
        Side::White,
        0,
        &[("0D4", 'R'), ("1A1", 'R'), ("2A1", 'D'), ("2H8", 'd')],
    );
    assert_eq!(
        pos.parse_move("R-1-D4"),
        Ok(Move::new(sq("0D4"), sq("1D4")))
    );

    // Row before column: alfil A5 (column 5) comes before alfil C1 (column 1); both
    // reach C5.
    let pos = place(
        Side::White,
        0,
        &[("0A5", 'A'), ("0C1", 'A'), ("2A1", 'D'), ("2H8", 'd')],
    );
    assert_eq!(
        pos.parse_move("a-0-c5"),
        Ok(Move::new(sq("0A5"), sq("0C5")))
    );
    // Column order within a row: two caballos on row A reach B3 ... none here, but two
    // pawns on row C stacked with pawns above do: 0-C2 and 0-C4 both reach 0-D3.
    let pos = place(
        Side::White,
        0,
        &[
            ("0C2", 'P'),
            ("0C4", 'P'),
            ("1C2", 'P'),
            ("1C4", 'P'),
            ("2A1", 'D'),
            ("2H8", 'd'),
        ],
    );
    assert_eq!(
        pos.parse_move("P-0-D3"),
        Ok(Move::new(sq("0C2"), sq("0D3")))
    );
    assert_eq!(
        pos.parse_move("0C4-0D3"),
        Ok(Move::new(sq("0C4"), sq("0D3")))
    );
}

#[test]
fn malformed_moves_name_the_wrong_part() {
    let pos = Chess3d::start(0);
    let err = |text: &str| pos.parse_move(text).expect_err(text);
    assert_eq!(err(""), Chess3dMoveError::Empty);
    assert!(matches!(err("X-0-C4"), Chess3dMoveError::PieceLetter { letter, .. } if letter == "X"));
    assert!(matches!(
        err("PP-0-C4"),
        Chess3dMoveError::PieceLetter { .. }
    ));
    assert!(matches!(
        err("Q-0-C4"),
        Chess3dMoveError::PieceLetter { .. }
    ));
    assert!(matches!(
        err("P-3-C4"),
        Chess3dMoveError::Level { part: MovePart::Destination, level, .. } if level == "3"
    ));
    assert!(matches!(err("P-01-C4"), Chess3dMoveError::Level { .. }));
    assert!(matches!(
        err("P-0-I4"),
        Chess3dMoveError::Square { part: MovePart::Destination, square, .. } if square == "I4"
    ));
    assert!(matches!(err("P-0-C9"), Chess3dMoveError::Square { .. }));
    assert!(matches!(err("P-0-C"), Chess3dMoveError::Square { .. }));
    assert!(matches!(err("P-0-C44"), Chess3dMoveError::Square { .. }));
    assert!(matches!(err("P-0-Ç4"), Chess3dMoveError::Square { .. }));
    assert!(matches!(err("P-0C4"), Chess3dMoveError::Form { .. }));
    assert!(matches!(err("P-0-C4-"), Chess3dMoveError::Form { .. }));
    assert!(matches!(
        err("3B5-0C5"),
        Chess3dMoveError::Level {
            part: MovePart::Source,
            ..
        }
    ));
    assert!(matches!(
        err("0B9-0C5"),
        Chess3dMoveError::Square { part: MovePart::Source, square, .. } if square == "B9"
    ));
    assert!(matches!(
        err("0B5-9C5"),
        Chess3dMoveError::Level {
            part: MovePart::Destination,
            ..
        }
    ));
    assert!(matches!(
        err("0B5-0Z5"),
        Chess3dMoveError::Square {
            part: MovePart::Destination,
            ..
        }
    ));
    assert!(matches!(
        err("0B5-"),
        Chess3dMoveError::Level {
            part: MovePart::Destination,
            ..
        }
    ));
    assert!(matches!(err("0B50C5"), Chess3dMoveError::Form { .. }));
    assert!(matches!(err("-0B5"), Chess3dMoveError::Form { .. }));
    assert!(matches!(err(" 0B5-0C5"), Chess3dMoveError::Form { .. }));
    assert!(matches!(err("é"), Chess3dMoveError::Form { .. }));
    assert!(matches!(err("0B5-0C5 "), Chess3dMoveError::Square { .. }));
    // Messages say which part is wrong.
    assert!(err("X-0-C4").to_string().contains("piece letter \"X\""));
    assert!(
        err("P-3-C4")
            .to_string()
            .contains("destination level \"3\"")
    );
    assert!(err("0B9-0C5").to_string().contains("source square \"B9\""));
}

#[test]
fn well_formed_but_illegal_moves() {
    let pos = Chess3d::start(0);
    let err = |text: &str| pos.parse_move(text).expect_err(text);
    let message = err("1B5-1C5").to_string();
    assert!(message.contains("no such legal move 1B5-1C5"), "{message}");
    assert!(message.contains("belongs to the opponent"), "{message}");
    assert!(err("0D4-0D5").to_string().contains("no piece on 0D4"));
    assert!(
        err("1G5-1E5")
            .to_string()
            .contains("a peon cannot move from 1G5 to 1E5")
    );
    assert!(
        err("P-0-C5")
            .to_string()
            .contains("no peon of yours can make the move P-0-C5")
    );
    assert!(matches!(err("C-0-F1"), Chess3dMoveError::NoSuchMove { .. }));
    // Finished game.
    let over = place(Side::White, 0, &[("0D4", 'R'), ("0D6", 'd')]);
    assert!(
        over.parse_move("0D4-0D5")
            .expect_err("no dama")
            .to_string()
            .contains("the game is over")
    );
}
