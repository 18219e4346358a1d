//! WXF and Chinese notation: hand-checked positions for every rule, error messages,
//! round trips over random play, and published game records.

use std::collections::HashSet;

use proptest::prelude::*;
use tablero_core::SplitMix64;
use tablero_xiangqi::Position as _;
use tablero_xiangqi::{
    ChineseError, ChineseMove, ChineseOrigin, Direction, IccsMove, Move, Ordinal, Place, Role,
    Side, Wxf, WxfError, WxfOrigin, Xiangqi,
};

fn pos(fen: &str) -> Xiangqi {
    Xiangqi::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn iccs(pos: &Xiangqi, s: &str) -> Move {
    s.parse::<IccsMove>()
        .unwrap_or_else(|e| panic!("{s}: {e}"))
        .to_move(pos)
        .unwrap_or_else(|e| panic!("{s}: {e}"))
}

/// `wxf` reads as `iccs` in `pos`, and `iccs` prints as `wxf`.
#[track_caller]
fn both_ways_wxf(pos: &Xiangqi, wxf: &str, iccs_text: &str) {
    let m = iccs(pos, iccs_text);
    assert_eq!(pos.wxf(m), wxf, "printing {iccs_text}");
    assert_eq!(pos.parse_wxf(wxf), Ok(m), "reading {wxf}");
}

/// `chinese` reads as `iccs` in `pos`, and `iccs` prints as `chinese`.
#[track_caller]
fn both_ways_chinese(pos: &Xiangqi, chinese: &str, iccs_text: &str) {
    let m = iccs(pos, iccs_text);
    assert_eq!(pos.chinese(m), chinese, "printing {iccs_text}");
    assert_eq!(pos.parse_chinese(chinese), Ok(m), "reading {chinese}");
}

#[track_caller]
fn reads_wxf(pos: &Xiangqi, wxf: &str, iccs_text: &str) {
    assert_eq!(
        pos.parse_wxf(wxf),
        Ok(iccs(pos, iccs_text)),
        "reading {wxf}"
    );
}

#[track_caller]
fn reads_chinese(pos: &Xiangqi, chinese: &str, iccs_text: &str) {
    assert_eq!(
        pos.parse_chinese(chinese),
        Ok(iccs(pos, iccs_text)),
        "reading {chinese}"
    );
}

#[track_caller]
fn wxf_error(pos: &Xiangqi, text: &str) -> String {
    match pos.parse_wxf(text) {
        Ok(m) => panic!("{text} read as {m}"),
        Err(e) => e.to_string(),
    }
}

#[track_caller]
fn chinese_error(pos: &Xiangqi, text: &str) -> String {
    match pos.parse_chinese(text) {
        Ok(m) => panic!("{text} read as {m}"),
        Err(e) => e.to_string(),
    }
}

// ---------------------------------------------------------------------------------
// Files, directions and numbers.

#[test]
fn files_count_from_each_players_right() {
    let start = Xiangqi::new();
    // Red: file 1 is ICCS i, file 9 is a.
    both_ways_wxf(&start, "C2.5", "h2e2");
    both_ways_wxf(&start, "C8.5", "b2e2");
    both_ways_wxf(&start, "H2+3", "h0g2");
    both_ways_wxf(&start, "H8+7", "b0c2");
    both_ways_wxf(&start, "R1+1", "i0i1");
    both_ways_wxf(&start, "R9+2", "a0a2");
    both_ways_wxf(&start, "E3+5", "g0e2");
    both_ways_wxf(&start, "E7+9", "c0a2");
    both_ways_wxf(&start, "A4+5", "f0e1");
    both_ways_wxf(&start, "A6+5", "d0e1");
    both_ways_wxf(&start, "K5+1", "e0e1");
    both_ways_wxf(&start, "P7+1", "c3c4");
    both_ways_wxf(&start, "C2+7", "h2h9");
    both_ways_wxf(&start, "C8-1", "b2b1");
    both_ways_chinese(&start, "炮二平五", "h2e2");
    both_ways_chinese(&start, "马八进七", "b0c2");
    both_ways_chinese(&start, "相三进五", "g0e2");
    both_ways_chinese(&start, "仕四进五", "f0e1");
    both_ways_chinese(&start, "帅五进一", "e0e1");
    both_ways_chinese(&start, "兵七进一", "c3c4");
    both_ways_chinese(&start, "炮二进七", "h2h9");
    both_ways_chinese(&start, "车九进二", "a0a2");

    // Black: file 1 is ICCS a, file 9 is i; full-width digits in Chinese.
    let black = start.clone().play(iccs(&start, "h2e2")).expect("legal");
    both_ways_wxf(&black, "H8+7", "h9g7");
    both_ways_wxf(&black, "H2+3", "b9c7");
    both_ways_wxf(&black, "C2.5", "b7e7");
    both_ways_wxf(&black, "C8.5", "h7e7");
    both_ways_wxf(&black, "R1+1", "a9a8");
    both_ways_wxf(&black, "E7+5", "g9e7");
    both_ways_wxf(&black, "A4+5", "d9e8");
    both_ways_wxf(&black, "P3+1", "c6c5");
    both_ways_chinese(&black, "马８进７", "h9g7");
    both_ways_chinese(&black, "炮２平５", "b7e7");
    both_ways_chinese(&black, "车１进１", "a9a8");
    both_ways_chinese(&black, "象７进５", "g9e7");
    both_ways_chinese(&black, "士４进５", "d9e8");
    both_ways_chinese(&black, "将５进１", "e9e8");
    both_ways_chinese(&black, "卒３进１", "c6c5");
}

#[test]
fn straight_movers_count_points_and_diagonal_ones_name_the_file() {
    // Red chariot i5, cannon b2, horse c4, general e1 moving back; black general d9.
    let p = pos("3k5/9/9/9/8R/2N6/9/1C7/4K4/9 w - - 0 1");
    both_ways_wxf(&p, "R1+3", "i5i8");
    both_ways_wxf(&p, "R1-5", "i5i0");
    both_ways_wxf(&p, "R1.6", "i5d5");
    both_ways_wxf(&p, "C8+7", "b2b9");
    both_ways_wxf(&p, "C8.1", "b2i2");
    both_ways_wxf(&p, "H7+6", "c4d6");
    both_ways_wxf(&p, "H7-9", "c4a3");
    both_ways_wxf(&p, "H7-5", "c4e3");
    both_ways_wxf(&p, "K5-1", "e1e0");
    both_ways_wxf(&p, "K5.4", "e1f1");
    both_ways_chinese(&p, "车一进三", "i5i8");
    both_ways_chinese(&p, "车一退五", "i5i0");
    both_ways_chinese(&p, "车一平六", "i5d5");
    both_ways_chinese(&p, "马七退九", "c4a3");
    both_ways_chinese(&p, "帅五退一", "e1e0");
}

#[test]
fn lenient_wxf_input() {
    let start = Xiangqi::new();
    for text in [
        "C2.5",
        "c2.5",
        "C2=5",
        "c2=5",
        "Ｃ２＝５",
        "Ｃ２．５",
        "C25",
        " C2.5 ",
        "C2.5!",
        "C2.5?!",
    ] {
        reads_wxf(&start, text, "h2e2");
    }
    reads_wxf(&start, "N2+3", "h0g2");
    reads_wxf(&start, "n2+3", "h0g2");
    reads_wxf(&start, "B3+5", "g0e2");
    reads_wxf(&start, "b3+5", "g0e2");
    reads_wxf(&start, "e3+5", "g0e2");
    reads_wxf(&start, "h8+7", "b0c2");
    // A check mark after the fourth character, and checkmate `#`.
    reads_wxf(&start, "C2+7+", "h2h9");
    reads_wxf(&start, "C2+7#", "h2h9");
    reads_wxf(&start, "C2+7++", "h2h9");
}

#[test]
fn lenient_chinese_input() {
    let start = Xiangqi::new();
    reads_chinese(&start, "炮二平五", "h2e2");
    reads_chinese(&start, " 炮 二 平 五 ", "h2e2");
    reads_chinese(&start, "傌二進三", "h0g2");
    reads_chinese(&start, "馬二進三", "h0g2");
    reads_chinese(&start, "俥九進一", "a0a1");
    reads_chinese(&start, "車九上一", "a0a1");
    reads_chinese(&start, "帥五進一", "e0e1");
    let black = start.clone().play(iccs(&start, "h2e2")).expect("legal");
    reads_chinese(&black, "馬8進7", "h9g7");
    reads_chinese(&black, "马8进7", "h9g7");
    reads_chinese(&black, "砲２平５", "b7e7");
    reads_chinese(&black, "將5進1", "e9e8");
    reads_chinese(&black, "車1上1", "a9a8");
    let e = chinese_error(&black, "車1下1");
    assert!(e.contains("leaves the board"), "{e}");
}

// ---------------------------------------------------------------------------------
// Two like pieces on a file.

/// Red chariots a2 (front) and a0 (rear) on red's file 9; black cannons on black's
/// file 3 (c5 front, c7 rear: black's front is the lower rank).
const TANDEM: &str = "4k4/9/2c6/9/2c6/9/9/R8/9/R2K5 w - - 0 1";

#[test]
fn tandem_pieces_use_front_and_rear() {
    let p = pos(TANDEM);
    // WXF's own examples: 車前平三 R+.3; front forward, rear forward.
    both_ways_wxf(&p, "R+.3", "a2g2");
    both_ways_wxf(&p, "R++1", "a2a3");
    both_ways_wxf(&p, "R-+1", "a0a1");
    both_ways_wxf(&p, "R-.8", "a0b0");
    both_ways_chinese(&p, "前车平三", "a2g2");
    both_ways_chinese(&p, "前车进一", "a2a3");
    both_ways_chinese(&p, "后车进一", "a0a1");
    both_ways_chinese(&p, "后车平八", "a0b0");
    // Older spellings: sign first, or f/r.
    reads_wxf(&p, "+R.3", "a2g2");
    reads_wxf(&p, "-R+1", "a0a1");
    reads_wxf(&p, "fR.3", "a2g2");
    reads_wxf(&p, "rR+1", "a0a1");
    // Over-specified but unique by the move: only the front chariot can reach g2.
    reads_wxf(&p, "R9.3", "a2g2");
    reads_chinese(&p, "车九平三", "a2g2");

    // Black's front is the lower rank. 炮後退一 C--1 is WXF's own example.
    let b = pos(&TANDEM.replace(" w ", " b "));
    both_ways_wxf(&b, "C--1", "c7c8");
    both_ways_wxf(&b, "C+-1", "c5c6");
    both_ways_wxf(&b, "C+.5", "c5e5");
    both_ways_wxf(&b, "C++1", "c5c4");
    both_ways_chinese(&b, "后炮退１", "c7c8");
    both_ways_chinese(&b, "前炮退１", "c5c6");
    both_ways_chinese(&b, "前炮平５", "c5e5");
    both_ways_chinese(&b, "前炮进１", "c5c4");
    reads_chinese(&b, "後砲退1", "c7c8");
}

#[test]
fn tandem_horses() {
    // Red horses c2 (front) and c0 on file 7.
    let p = pos("4k4/9/9/9/9/9/9/2N6/9/2NK5 w - - 0 1");
    both_ways_wxf(&p, "H++6", "c2d4");
    both_ways_wxf(&p, "H-+8", "c0b2");
    both_ways_wxf(&p, "H+-9", "c2a1");
    both_ways_chinese(&p, "前马进六", "c2d4");
    both_ways_chinese(&p, "后马进八", "c0b2");
}

#[test]
fn advisors_and_elephants_keep_their_file() {
    // Red advisors d0 and d2 on file 6; elephants c0 and c4 on file 7; general f0.
    let p = pos("4k4/9/9/9/9/2B6/9/3A5/9/2BA1K3 w - - 0 1");
    both_ways_wxf(&p, "A6+5", "d0e1");
    both_ways_wxf(&p, "A6-5", "d2e1");
    both_ways_wxf(&p, "E7+5", "c0e2");
    both_ways_wxf(&p, "E7-5", "c4e2");
    both_ways_wxf(&p, "E7+9", "c0a2");
    both_ways_wxf(&p, "E7-9", "c4a2");
    both_ways_chinese(&p, "仕六进五", "d0e1");
    both_ways_chinese(&p, "仕六退五", "d2e1");
    both_ways_chinese(&p, "相七进五", "c0e2");
    both_ways_chinese(&p, "相七退五", "c4e2");
    // The tandem spelling is read too.
    reads_wxf(&p, "E+-5", "c4e2");
    reads_wxf(&p, "E-+5", "c0e2");
    reads_wxf(&p, "A+-5", "d2e1");
    reads_chinese(&p, "前相退五", "c4e2");
    reads_chinese(&p, "后仕进五", "d0e1");
}

// ---------------------------------------------------------------------------------
// Soldiers.

#[test]
fn three_soldiers_on_a_file() {
    // WXF's example: three tandem pawns on the 3rd file traverse to the 4th.
    let p = pos("5k3/9/6P2/6P2/6P2/9/9/9/9/3K5 w - - 0 1");
    both_ways_wxf(&p, "P+.4", "g7f7");
    both_ways_wxf(&p, "P3.4", "g6f6");
    both_ways_wxf(&p, "P-.4", "g5f5");
    both_ways_wxf(&p, "P++1", "g7g8");
    both_ways_chinese(&p, "前兵平四", "g7f7");
    both_ways_chinese(&p, "中兵平四", "g6f6");
    both_ways_chinese(&p, "后兵平四", "g5f5");
    both_ways_chinese(&p, "前兵进一", "g7g8");
    // The middle soldier is blocked by the front one.
    let e = wxf_error(&p, "P3+1");
    assert!(e.contains("g7 is occupied by your own piece"), "{e}");

    // Black, mirrored: black's file 3 is ICCS c, front is the lowest rank.
    let b = pos("3k5/9/9/9/9/2p6/2p6/2p6/9/5K3 b - - 0 1");
    both_ways_wxf(&b, "P+.4", "c2d2");
    both_ways_wxf(&b, "P3.4", "c3d3");
    both_ways_wxf(&b, "P-.4", "c4d4");
    both_ways_chinese(&b, "前卒平４", "c2d2");
    both_ways_chinese(&b, "中卒平４", "c3d3");
    both_ways_chinese(&b, "后卒平４", "c4d4");
}

#[test]
fn five_and_four_soldiers_on_a_file() {
    // WXF: ++ foremost, P+ second, P3 middle, P- second rearmost, -- rearmost.
    let five = pos("4k1P2/6P2/6P2/6P2/6P2/9/9/9/9/3K5 w - - 0 1");
    both_ways_wxf(&five, "++.4", "g9f9");
    both_ways_wxf(&five, "P+.4", "g8f8");
    both_ways_wxf(&five, "P3.4", "g7f7");
    both_ways_wxf(&five, "P-.4", "g6f6");
    both_ways_wxf(&five, "--.4", "g5f5");
    // Chinese: 一 to 五 from the front (xqbase); 前 and 后 are read as first and last.
    both_ways_chinese(&five, "一兵平四", "g9f9");
    both_ways_chinese(&five, "二兵平四", "g8f8");
    both_ways_chinese(&five, "三兵平四", "g7f7");
    both_ways_chinese(&five, "四兵平四", "g6f6");
    both_ways_chinese(&five, "五兵平四", "g5f5");
    reads_chinese(&five, "前兵平四", "g9f9");
    reads_chinese(&five, "中兵平四", "g7f7");
    reads_chinese(&five, "后兵平四", "g5f5");

    let four = pos("4k4/6P2/6P2/6P2/6P2/9/9/9/9/3K5 w - - 0 1");
    both_ways_wxf(&four, "++.4", "g8f8");
    both_ways_wxf(&four, "P+.4", "g7f7");
    both_ways_wxf(&four, "P-.4", "g6f6");
    both_ways_wxf(&four, "--.4", "g5f5");
    both_ways_chinese(&four, "一兵平四", "g8f8");
    both_ways_chinese(&four, "二兵平四", "g7f7");
    both_ways_chinese(&four, "三兵平四", "g6f6");
    both_ways_chinese(&four, "四兵平四", "g5f5");
    let e = wxf_error(&four, "P3.4");
    assert!(e.contains("ambiguous"), "{e}");
    let e = chinese_error(&four, "中兵平四");
    assert!(e.contains("中兵"), "{e}");

    // Black writes the ordinal in Chinese too (xqbase: 一卒平５).
    let black = pos("5k3/9/9/9/9/2p6/2p6/2p6/2p6/2p1K4 b - - 0 1");
    both_ways_chinese(&black, "一卒平４", "c0d0");
    both_ways_chinese(&black, "五卒平４", "c4d4");
    both_ways_wxf(&black, "++.4", "c0d0");
    both_ways_wxf(&black, "--.4", "c4d4");
}

#[test]
fn soldiers_on_two_files() {
    // WXF's example: three tandem pawns on the 3rd file and two on the 7th.
    let p = pos("4k4/9/6P2/2P3P2/2P3P2/9/9/9/9/3K5 w - - 0 1");
    both_ways_wxf(&p, "3+.4", "g7f7");
    both_ways_wxf(&p, "33.4", "g6f6");
    both_ways_wxf(&p, "3-.4", "g5f5");
    both_ways_wxf(&p, "7+.6", "c6d6");
    both_ways_wxf(&p, "7-.6", "c5d5");
    both_ways_wxf(&p, "7++1", "c6c7");
    // Chinese keeps the file (zh.wikipedia: 前兵九平八).
    both_ways_chinese(&p, "前兵三平四", "g7f7");
    both_ways_chinese(&p, "中兵三平四", "g6f6");
    both_ways_chinese(&p, "后兵三平四", "g5f5");
    both_ways_chinese(&p, "前兵七平六", "c6d6");
    both_ways_chinese(&p, "后兵七平六", "c5d5");
    // Also read: the soldier's name left out, and xqbase's count across both files
    // (files from the mover's right, each front to back).
    reads_chinese(&p, "前三平四", "g7f7");
    reads_chinese(&p, "一兵平四", "g7f7");
    reads_chinese(&p, "三兵平四", "g5f5");
    reads_chinese(&p, "四兵平六", "c6d6");
    reads_chinese(&p, "五兵平六", "c5d5");
    // Front/rear without a file fits both files: resolved by the move when unique.
    reads_wxf(&p, "P+.6", "c6d6");
    let e = wxf_error(&p, "P++1");
    assert!(
        e.contains("ambiguous") && e.contains("c6c7") && e.contains("g7g8"),
        "{e}"
    );

    // The classic 前兵九平八: two soldiers on red's file 9 and two on file 7.
    let q = pos("4k4/9/9/2P6/P1P6/P8/9/9/9/3K5 w - - 0 1");
    both_ways_chinese(&q, "前兵九平八", "a5b5");
    both_ways_wxf(&q, "9+.8", "a5b5");
    reads_chinese(&q, "前九平八", "a5b5");
    // A soldier alone on its file keeps the plain form.
    let r = pos("4k4/9/9/2P6/P1P6/P3P4/9/9/9/3K5 w - - 0 1");
    both_ways_wxf(&r, "P5+1", "e4e5");
    both_ways_chinese(&r, "兵五进一", "e4e5");
}

// ---------------------------------------------------------------------------------
// Errors.

#[test]
fn malformed_wxf_names_the_bad_part() {
    let start = Xiangqi::new();
    let cases = [
        ("X2.5", "'X' is not a piece letter"),
        ("C0.5", "file '0'"),
        ("C2*5", "direction '*'"),
        ("C2.0", "file moved to '0'"),
        ("C2+x", "number 'x'"),
        ("CC.5", "after the piece letter 'C'"),
        ("35.4", "after the soldier file '3'"),
        ("C2", "four characters"),
        ("", "four characters"),
        ("C2.5x", "unexpected \"x\" after \"C2.5\""),
        ("*2.5", "'*': a move starts with"),
    ];
    for (text, needle) in cases {
        let e = wxf_error(&start, text);
        assert!(
            matches!(text.parse::<Wxf>(), Err(WxfError::Malformed { .. })),
            "{text}"
        );
        assert!(e.contains(needle), "{text}: {e}");
        assert!(e.contains(&format!("{text:?}")), "{text}: {e}");
    }
}

#[test]
fn illegal_and_ambiguous_wxf() {
    let start = Xiangqi::new();
    let cases = [
        ("R5+1", "red has no chariot on file 5"),
        ("H2.3", "a horse never moves sideways"),
        ("H2+4", "the horse's leg on g0 is blocked"),
        ("E3+4", "an elephant moves two files across"),
        ("A4+6", "advisor"),
        ("R1+3", "i3 is occupied by your own piece"),
        ("C2.2", "already on file 2"),
        ("R+.3", "red has no two chariots on one file"),
        ("++.4", "red has no file with four or five soldiers"),
        ("3+.4", "red has no two soldiers on file 3"),
        ("K5+2", "a general cannot move from e0 to e2"),
    ];
    for (text, needle) in cases {
        let e = wxf_error(&start, text);
        assert!(
            matches!(start.parse_wxf(text), Err(WxfError::Illegal { .. })),
            "{text}: {e}"
        );
        assert!(e.contains(needle), "{text}: {e}");
    }
    // A move that leaves the general attacked: red general e1, black chariot e9,
    // red chariot e5 shields it.
    let pinned = pos("3kr4/9/9/9/4R4/9/9/9/4K4/9 w - - 0 1");
    let e = wxf_error(&pinned, "R5.4");
    assert!(e.contains("is pinned"), "{e}");

    let p = pos(TANDEM);
    match p.parse_wxf("R9+1") {
        Err(WxfError::Ambiguous { moves, .. }) => {
            assert_eq!(moves, vec![iccs(&p, "a0a1"), iccs(&p, "a2a3")]);
        }
        other => panic!("{other:?}"),
    }
    let e = wxf_error(&p, "R9+1");
    assert!(e.contains("a0a1 or a2a3"), "{e}");
}

#[test]
fn chinese_errors_name_the_bad_part() {
    let start = Xiangqi::new();
    let malformed = [
        ("炮二平", "four characters"),
        ("炮二走五", "unexpected '走'"),
        (
            "炮二平5",
            "file '二' is in red's numerals but the move ends in black's",
        ),
        ("炮二五五", "'五' where the direction"),
        ("炮二平进", "'进' where the last number"),
        ("平二平五", "'平' where the piece"),
        ("前兵进进五", "'进' where the file number"),
    ];
    for (text, needle) in malformed {
        let e = chinese_error(&start, text);
        assert!(
            matches!(
                text.parse::<ChineseMove>(),
                Err(ChineseError::Malformed { .. })
            ),
            "{text}: {e}"
        );
        assert!(e.contains(needle), "{text}: {e}");
    }
    let illegal = [
        ("炮２平５", "black's move, but it is red's turn"),
        ("车五进一", "red has no chariot (车) on file 五"),
        ("马二平三", "a horse never moves sideways"),
        ("前车进一", "red has no two chariots (车) on one file"),
    ];
    for (text, needle) in illegal {
        let e = chinese_error(&start, text);
        assert!(
            matches!(start.parse_chinese(text), Err(ChineseError::Illegal { .. })),
            "{text}: {e}"
        );
        assert!(e.contains(needle), "{text}: {e}");
    }
    let p = pos(TANDEM);
    let e = chinese_error(&p, "车九进一");
    assert!(e.contains("ambiguous") && e.contains("a0a1 or a2a3"), "{e}");
}

// ---------------------------------------------------------------------------------
// Round trips.

/// Random games from `fen`: in every position reached, every legal move prints to a
/// WXF and a Chinese string that reads back as that move, and no two moves share a
/// string. Returns how many positions had three or more soldiers on a file, and how
/// many had two files of two or more.
fn check_random_games(fen: &str, games: u64, plies: usize, seed: u64) -> (usize, usize) {
    let mut rng = SplitMix64::new(seed);
    let (mut three, mut two_files) = (0, 0);
    for _ in 0..games {
        let mut p = pos(fen);
        for _ in 0..plies {
            let moves = p.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mut wxfs = HashSet::new();
            let mut chinese = HashSet::new();
            for &m in &moves {
                let w = p.wxf(m);
                assert_eq!(p.parse_wxf(&w), Ok(m), "{} {m}: {w}", p.fen());
                assert!(wxfs.insert(w.clone()), "{}: two moves print {w}", p.fen());
                let c = p.chinese(m);
                assert_eq!(p.parse_chinese(&c), Ok(m), "{} {m}: {c}", p.fen());
                assert!(
                    chinese.insert(c.clone()),
                    "{}: two moves print {c}",
                    p.fen()
                );
            }
            let side = p.turn();
            let soldiers = |file: u32| {
                p.by_piece(tablero_xiangqi::Piece::new(side, Role::Soldier))
                    .filter(|sq| sq.file() == file)
                    .count()
            };
            let counts: Vec<usize> = (0..9).map(soldiers).collect();
            if counts.iter().any(|&n| n >= 3) {
                three += 1;
            }
            if counts.iter().filter(|&&n| n >= 2).count() >= 2 {
                two_files += 1;
            }
            let m = moves[rng.below(moves.len() as u64) as usize];
            p.play_unchecked(m);
        }
    }
    (three, two_files)
}

#[test]
fn random_games_from_the_start_round_trip() {
    check_random_games(tablero_xiangqi::START_FEN, 60, 80, 1);
}

#[test]
fn random_soldier_games_round_trip() {
    // Generals and soldiers only, all across the river: soldiers pile up on files.
    let (three, two_files) =
        check_random_games("3k5/9/9/PPPPP4/9/9/4ppppp/9/9/4K4 w - - 0 1", 80, 60, 7);
    assert!(three > 50, "three on a file: {three}");
    assert!(two_files > 200, "two crowded files: {two_files}");
    // Soldiers with chariots, horses and cannons, most across the river.
    check_random_games(
        "rnbakabnr/9/1c5c1/P1P1P1P1P/p1p1p1p1p/9/9/1C5C1/9/RNBAKABNR w - - 0 1",
        40,
        80,
        11,
    );
}

fn role() -> impl Strategy<Value = Role> {
    prop::sample::select(Role::ALL.to_vec())
}

fn wxf_origin() -> impl Strategy<Value = WxfOrigin> {
    let place = prop::sample::select(vec![Place::Front, Place::Middle, Place::Rear]);
    prop_oneof![
        (role(), 1u8..=9).prop_map(|(r, f)| WxfOrigin::File(r, f)),
        role().prop_map(WxfOrigin::Front),
        role().prop_map(WxfOrigin::Rear),
        Just(WxfOrigin::Foremost),
        Just(WxfOrigin::Rearmost),
        (1u8..=9, place).prop_map(|(f, p)| WxfOrigin::SoldierOnFile(f, p)),
    ]
}

fn direction() -> impl Strategy<Value = Direction> {
    prop::sample::select(vec![
        Direction::Forward,
        Direction::Backward,
        Direction::Sideways,
    ])
}

fn chinese_origin() -> impl Strategy<Value = ChineseOrigin> {
    let ordinal = prop_oneof![
        Just(Ordinal::Front),
        Just(Ordinal::Middle),
        Just(Ordinal::Rear),
        (1u8..=5).prop_map(Ordinal::Nth),
    ];
    prop_oneof![
        (role(), 1u8..=9).prop_map(|(r, f)| ChineseOrigin::File(r, f)),
        (ordinal.clone(), role()).prop_map(|(o, r)| ChineseOrigin::Ordinal(o, r)),
        (ordinal, role(), 1u8..=9).prop_map(|(o, r, f)| ChineseOrigin::OrdinalOnFile(o, r, f)),
    ]
}

/// Whatever `text` is: reading never panics, what reads prints text that reads back
/// to the same value, and what resolves is legal and prints back to itself.
fn check_any_text(text: &str) -> Result<(), TestCaseError> {
    if let Ok(w) = text.parse::<Wxf>() {
        prop_assert_eq!(w.to_string().parse::<Wxf>(), Ok(w));
    }
    if let Ok(c) = text.parse::<ChineseMove>() {
        prop_assert_eq!(c.to_string().parse::<ChineseMove>(), Ok(c));
    }
    let fens = [
        tablero_xiangqi::START_FEN,
        TANDEM,
        "4k4/9/6P2/2P3P2/2P3P2/9/9/9/9/3K5 w - - 0 1",
        "5k3/9/9/9/9/2p6/2p6/2p6/2p6/2p1K4 b - - 0 1",
    ];
    for fen in fens {
        let p = pos(fen);
        for m in [p.parse_wxf(text).ok(), p.parse_chinese(text).ok()]
            .into_iter()
            .flatten()
        {
            prop_assert!(p.is_legal(m));
            prop_assert_eq!(p.parse_wxf(&p.wxf(m)), Ok(m));
            prop_assert_eq!(p.parse_chinese(&p.chinese(m)), Ok(m));
        }
    }
    Ok(())
}

proptest! {
    #[test]
    fn wxf_text_round_trips(origin in wxf_origin(), direction in direction(), value in 1u8..=9) {
        let w = Wxf { origin, direction, value };
        let text = w.to_string();
        prop_assert_eq!(text.chars().count(), 4);
        prop_assert_eq!(text.parse::<Wxf>(), Ok(w));
    }

    #[test]
    fn chinese_text_round_trips(
        black in any::<bool>(),
        origin in chinese_origin(),
        direction in direction(),
        value in 1u8..=9,
    ) {
        let side = if black { Side::Black } else { Side::White };
        let c = ChineseMove { side, origin, direction, value };
        prop_assert_eq!(c.to_string().parse::<ChineseMove>(), Ok(c));
    }

    #[test]
    fn any_text_reads_without_panic(text in "\\PC{0,8}") {
        check_any_text(&text)?;
    }

    #[test]
    fn wxf_alphabet_reads_without_panic(text in "[KAEHRCPBNkaehrcpbnfr0-9+\\-.=#!? ]{0,6}") {
        check_any_text(&text)?;
    }

    #[test]
    fn chinese_alphabet_reads_without_panic(
        text in "[帅将帥將仕士相象车車俥马馬傌炮砲兵卒前中后後进進退平上下一二三四五六七八九1-9１-９]{0,6}",
    ) {
        check_any_text(&text)?;
    }

    #[test]
    fn every_legal_move_round_trips_after_random_play(seed in any::<u64>(), plies in 0usize..120) {
        let mut rng = SplitMix64::new(seed);
        let mut p = Xiangqi::new();
        for _ in 0..plies {
            let moves = p.legal_moves();
            if moves.is_empty() {
                break;
            }
            p.play_unchecked(moves[rng.below(moves.len() as u64) as usize]);
        }
        for &m in &p.legal_moves() {
            prop_assert_eq!(p.parse_wxf(&p.wxf(m)), Ok(m));
            prop_assert_eq!(p.parse_chinese(&p.chinese(m)), Ok(m));
        }
    }
}

// ---------------------------------------------------------------------------------
// Published records.

struct Game {
    tags: Vec<(String, String)>,
    moves: Vec<String>,
}

impl Game {
    fn tag(&self, name: &str) -> &str {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map_or("", |(_, v)| v.as_str())
    }
}

/// Reads our fixture format: `#` comments, `[Tag "value"]`, move text; a blank line
/// after move text ends a game. Move numbers (`12.`, `12`, `12.B3+5`) and results are
/// dropped; `chunk` splits tokens that run moves together (`Ｃ２＝５Ｈ８＋７`).
fn read_games(file: &str, chunk: Option<usize>) -> Vec<Game> {
    let path = format!("{}/tests/data/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut games = Vec::new();
    let mut game = Game {
        tags: Vec::new(),
        moves: Vec::new(),
    };
    for line in text.lines().chain(std::iter::once("")) {
        let line = line.trim();
        if line.starts_with('#') {
            continue;
        }
        if line.is_empty() {
            if !game.moves.is_empty() {
                games.push(std::mem::replace(
                    &mut game,
                    Game {
                        tags: Vec::new(),
                        moves: Vec::new(),
                    },
                ));
            }
            continue;
        }
        if let Some(tag) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            let (name, value) = tag.split_once(' ').expect("tag name and value");
            game.tags
                .push((name.to_owned(), value.trim_matches('"').to_owned()));
            continue;
        }
        for token in line.split_whitespace() {
            if ["1-0", "0-1", "1/2-1/2", "*"].contains(&token) {
                continue;
            }
            let token = token.trim_start_matches(|c: char| c.is_ascii_digit());
            let token = token.strip_prefix('.').unwrap_or(token);
            if token.is_empty() || token.starts_with('(') {
                continue;
            }
            match chunk {
                None => game.moves.push(token.to_owned()),
                Some(n) => {
                    let chars: Vec<char> = token.chars().collect();
                    assert_eq!(chars.len() % n, 0, "{token}");
                    game.moves
                        .extend(chars.chunks(n).map(|c| c.iter().collect::<String>()));
                }
            }
        }
    }
    games
}

/// A published WXF-style move spelled the way tablero prints WXF: full-width to
/// ASCII, annotations dropped, `=` to `.`, `N`/`B` to `H`/`E`, and a front/rear mark
/// before the letter (`+R`, `-C`, `rC`, `fC`) moved after it (`R+`, `C-`).
fn canonical_spelling(published: &str) -> String {
    let mut s: Vec<char> = published
        .chars()
        .map(|c| match u32::from(c) {
            0xFF01..=0xFF5E => char::from_u32(u32::from(c) - 0xFEE0).expect("ASCII"),
            _ => c,
        })
        .filter(|c| !matches!(c, '!' | '?'))
        .map(|c| match c {
            '=' => '.',
            'N' => 'H',
            'B' => 'E',
            c => c,
        })
        .collect();
    if s.len() == 4 && s[1].is_ascii_uppercase() {
        let mark = match s[0] {
            '+' | 'f' => '+',
            '-' | 'r' | 'b' => '-',
            other => panic!("{published}: mark {other:?}"),
        };
        s[0] = s[1];
        s[1] = mark;
    }
    s.into_iter().collect()
}

#[test]
fn canonical_spelling_of_published_forms() {
    assert_eq!(canonical_spelling("Ｃ２＝５"), "C2.5");
    assert_eq!(canonical_spelling("＋Ｐ＋１"), "P++1");
    assert_eq!(canonical_spelling("rC+1"), "C-+1");
    assert_eq!(canonical_spelling("N2+3"), "H2+3");
    assert_eq!(canonical_spelling("+R+5!?"), "R++5");
}

#[test]
fn wxfca_master_games_in_chinese_and_wxf() {
    let chinese = read_games("wxfca_chinese.pgn", Some(4));
    let international = read_games("wxfca_international.pgn", Some(4));
    assert_eq!(chinese.len(), 15);
    assert_eq!(international.len(), chinese.len());
    let mut plies = 0;
    for (zh, en) in chinese.iter().zip(&international) {
        let name = format!(
            "{} - {} ({})",
            zh.tag("Red"),
            zh.tag("Black"),
            zh.tag("Event")
        );
        assert_eq!(zh.tag("Event"), en.tag("Event"));
        assert_eq!(zh.tag("Red"), en.tag("Red"));
        assert_eq!(zh.moves.len(), en.moves.len(), "{name}");
        let mut p = Xiangqi::new();
        for (i, (c, w)) in zh.moves.iter().zip(&en.moves).enumerate() {
            let at = format!("{name}, ply {}: {c} / {w}", i + 1);
            let m = p.parse_chinese(c).unwrap_or_else(|e| panic!("{at}: {e}"));
            assert_eq!(&p.chinese(m), c, "{at}");
            assert_eq!(p.parse_wxf(w), Ok(m), "{at}");
            assert_eq!(p.wxf(m), canonical_spelling(w), "{at}");
            p = p.play(m).unwrap_or_else(|e| panic!("{at}: {e}"));
            plies += 1;
        }
    }
    assert_eq!(plies, 1_378);
}

#[test]
fn published_wxf_games() {
    let games = read_games("games_wxf.txt", None);
    assert_eq!(games.len(), 3);
    for game in &games {
        let name = game.tag("Game");
        let mut p = Xiangqi::new();
        for (i, w) in game.moves.iter().enumerate() {
            let at = format!("{name}, ply {}: {w}", i + 1);
            let m = p.parse_wxf(w).unwrap_or_else(|e| panic!("{at}: {e}"));
            assert_eq!(p.wxf(m), canonical_spelling(w), "{at}");
            p = p.play(m).unwrap_or_else(|e| panic!("{at}: {e}"));
        }
    }
}

#[test]
fn direction_signs() {
    assert_eq!(Direction::Forward.wxf_char(), '+');
    assert_eq!(Direction::Backward.chinese_char(), '退');
    assert_eq!(Direction::Sideways.wxf_char(), '.');
}
