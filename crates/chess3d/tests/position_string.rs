//! Position strings (§8): the rule book's example, round-trips, and a clean error
//! naming the field for every kind of malformed string.

use tablero_chess3d::{
    Chess3d, Kind, PositionString, PositionStringError, START_POSITION, Setup, Side, Square,
};

const START: &str = "tca2act/ppp2ppp/8/8/8/8/PPP2PPP/TCA2ACT|3dr3/3pp3/8/8/8/8/3PP3/3DR3|tca2act/ppp2ppp/8/8/8/8/PPP2PPP/TCA2ACT b 0 1 0000000000000000";

#[test]
fn the_rule_book_example_round_trips() {
    assert_eq!(START, START_POSITION);
    let pos = Chess3d::from_position_string(START).expect("valid");
    assert_eq!(pos, Chess3d::start(0));
    assert_eq!(pos.position_string(), START);
    assert_eq!(pos.to_string(), START);
    assert_eq!(START.parse::<Chess3d>(), Ok(pos.clone()));
    let parsed: PositionString = START.parse().expect("valid");
    assert_eq!(parsed, PositionString(Setup::start(0)));
    assert_eq!(parsed.to_string(), START);
    // Rows run from H down to A; columns 1 to 8.
    let piece = |s: &str| pos.board().piece_at(s.parse::<Square>().expect("square"));
    assert_eq!(piece("0H1").map(|p| p.char()), Some('t'));
    assert_eq!(piece("0A2").map(|p| p.char()), Some('C'));
    assert_eq!(piece("1B4").map(|p| p.kind), Some(Kind::Peon));
}

#[test]
fn other_positions_round_trip() {
    for text in [
        "8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8 w 0 1 ffffffffffffffff",
        "t7/5rP1/2p4p/7C/P2Tp3/8/p3AP1P/1A6|8/8/4p3/8/d2p4/2D5/8/8|2a3c1/2p5/6p1/1P5p/1p2Tp1P/1P1c4/8/1C2P3 b 20 140 a2d2094f00d53f0f",
        "PPPPPPPP/pppppppp/RRRRRRRR/rrrrrrrr/DDDDDDDD/dddddddd/AAAAAAAA/aaaaaaaa|CCCCCCCC/cccccccc/TTTTTTTT/tttttttt/1P1P1P1P/p1p1p1p1/8/8|8/8/8/8/8/8/8/7P w 4294967295 4294967295 0123456789abcdef",
    ] {
        let pos = Chess3d::from_position_string(text).expect(text);
        assert_eq!(pos.position_string(), text);
    }
    // Leading zeros in the numbers are read, and printed without.
    let pos = Chess3d::from_position_string(
        "8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8 w 007 01 0000000000000000",
    )
    .expect("valid");
    assert_eq!((pos.quiet_plies(), pos.move_number()), (7, 1));
    assert!(pos.position_string().ends_with(" w 7 1 0000000000000000"));
    assert_eq!(pos.turn(), Side::White);
}

fn err(text: &str) -> PositionStringError {
    Chess3d::from_position_string(text).expect_err(text)
}

fn with_levels(levels: &str) -> String {
    format!("{levels} b 0 1 0000000000000000")
}

const EMPTY_LEVEL: &str = "8/8/8/8/8/8/8/8";

#[test]
fn field_structure_errors() {
    assert_eq!(err(""), PositionStringError::Empty);
    assert!(matches!(
        err(&START.replace(" b ", "  b ")),
        PositionStringError::Spacing(_)
    ));
    assert!(matches!(
        err(&format!(" {START}")),
        PositionStringError::Spacing(_)
    ));
    assert!(matches!(
        err(&format!("{START} ")),
        PositionStringError::Spacing(_)
    ));
    assert_eq!(
        err(START.trim_end_matches(" 0000000000000000")),
        PositionStringError::FieldCount(4)
    );
    assert_eq!(
        err(&format!("{START} x")),
        PositionStringError::FieldCount(6)
    );
    assert_eq!(err("w"), PositionStringError::FieldCount(1));
    assert!(matches!(
        err(&START.replace(" b ", "\tb ")),
        PositionStringError::FieldCount(4)
    ));
}

#[test]
fn level_errors_name_the_level_and_row() {
    let e = err(&with_levels(&format!("{EMPTY_LEVEL}|{EMPTY_LEVEL}")));
    assert!(matches!(
        e,
        PositionStringError::LevelCount { count: 2, .. }
    ));
    let e = err(&with_levels(&[EMPTY_LEVEL; 4].join("|")));
    assert!(matches!(
        e,
        PositionStringError::LevelCount { count: 4, .. }
    ));

    let bad_level = |level: &str, position: usize| {
        let mut levels = [EMPTY_LEVEL; 3];
        levels[position] = level;
        err(&with_levels(&levels.join("|")))
    };
    let cases: [(&str, &str); 12] = [
        ("8/8/8/8/8/8/8", "7 rows"),
        ("8/8/8/8/8/8/8/8/8", "9 rows"),
        ("8/8/44/8/8/8/8/8", "row F: two digits in a row"),
        ("8/8/8/8/8/8/8/9", "row A: '9' is not a count"),
        ("0/8/8/8/8/8/8/8", "row H: '0' is not a count"),
        (
            "ppppppppp/8/8/8/8/8/8/8",
            "row H describes more than 8 squares",
        ),
        ("8/7pp/8/8/8/8/8/8", "row G describes more than 8 squares"),
        ("8/8/8/8/8/8/8/7", "row A describes 7 squares"),
        ("8/8/8//8/8/8/8", "row E describes 0 squares"),
        ("8/8/8/8/3K4/8/8/8", "row D: unexpected character 'K'"),
        ("8/8/8/8/3é4/8/8/8", "row D: unexpected character 'é'"),
        ("8/8/8/8/8/8/8/8p", "row A describes more than 8 squares"),
    ];
    for (level, needle) in cases {
        for position in 0..3 {
            let e = bad_level(level, position);
            assert!(
                matches!(&e, PositionStringError::Level { level: l, .. } if *l == position),
                "{level}: {e:?}"
            );
            let message = e.to_string();
            assert!(message.contains(needle), "{message}");
            assert!(
                message.contains(&format!("level {position} field")),
                "{message}"
            );
        }
    }
}

#[test]
fn other_field_errors() {
    let fields = |side: &str, quiet: &str, number: &str, rng: &str| {
        let levels = [EMPTY_LEVEL; 3].join("|");
        err(&format!("{levels} {side} {quiet} {number} {rng}"))
    };
    let rng = "0000000000000000";
    for side in ["W", "B", "x", "white", "ww"] {
        assert_eq!(
            fields(side, "0", "1", rng),
            PositionStringError::Side(side.to_owned())
        );
    }
    for quiet in ["-1", "+1", "x", "1.5", "99999999999", "0x1"] {
        assert_eq!(
            fields("w", quiet, "1", rng),
            PositionStringError::QuietPlies(quiet.to_owned())
        );
    }
    for number in ["0", "-1", "x", "00", "4294967296"] {
        assert_eq!(
            fields("w", "0", number, rng),
            PositionStringError::MoveNumber(number.to_owned())
        );
    }
    for bad in [
        "000000000000000",
        "00000000000000000",
        "ABCDEF0123456789",
        "0x00000000000000",
        "000000000000000g",
        "+000000000000000",
        "ééééééé0",
    ] {
        assert_eq!(
            fields("w", "0", "1", bad),
            PositionStringError::Rng(bad.to_owned())
        );
    }
    let message = fields("w", "0", "1", "xyz").to_string();
    assert!(message.starts_with("rng field \"xyz\""), "{message}");
    assert!(
        fields("x", "0", "1", rng)
            .to_string()
            .starts_with("side field")
    );
    assert!(
        fields("w", "x", "1", rng)
            .to_string()
            .starts_with("quiet plies field")
    );
    assert!(
        fields("w", "0", "0", rng)
            .to_string()
            .starts_with("move number field")
    );
}
