//! Any bytes as a PGN file. The reader must never panic, whatever it is fed; and every
//! game it reads must write PGN that reads back to the same game and writes the same
//! text again.

#![no_main]

use libfuzzer_sys::fuzz_target;
use tablero_chess::pgn::{self, LINE_WIDTH, Node, PgnGame};

fuzz_target!(|data: &[u8]| {
    for game in pgn::Reader::new(data).flatten() {
        let written = game.to_pgn_string();
        let again = pgn::read_str(&written);
        let [Ok(read)] = again.as_slice() else {
            panic!("{game:?}\nwrote\n{written}\nwhich reads back as {again:?}");
        };
        if has_long_comment_word(&game) {
            // Documented: a comment word longer than a line is cut, so it reads back
            // with a space in it. Everything else must still be the same.
            assert!(
                read.tags == game.tags
                    && read.start == game.start
                    && read.result == game.result
                    && same_moves(&read.moves, &game.moves),
                "{game:?}\nwrote\n{written}\nwhich reads back as {read:?}"
            );
        } else {
            assert_eq!(read, &game, "wrote\n{written}");
        }
        assert_eq!(read.to_pgn_string(), written, "writing is not stable");
    }
});

/// Whether any comment holds a word that may not fit on one line.
fn has_long_comment_word(game: &PgnGame) -> bool {
    fn long(comment: &str) -> bool {
        comment
            .split(|c: char| c <= ' ' || c == '\u{7f}')
            .any(|word| word.chars().count() > LINE_WIDTH / 2)
    }
    fn in_line(line: &[Node]) -> bool {
        line.iter().any(|node| {
            node.comments_before
                .iter()
                .chain(&node.comments_after)
                .any(|c| long(c))
                || node.variations.iter().any(|v| in_line(v))
        })
    }
    game.comments.iter().any(|c| long(c)) || in_line(&game.moves)
}

/// The same moves, NAGs and variations, whatever the comments.
fn same_moves(a: &[Node], b: &[Node]) -> bool {
    a.len() == b.len()
        && a.iter().zip(b).all(|(x, y)| {
            x.mv == y.mv
                && x.san == y.san
                && x.nags == y.nags
                && x.variations.len() == y.variations.len()
                && x.variations
                    .iter()
                    .zip(&y.variations)
                    .all(|(v, w)| same_moves(v, w))
        })
}
